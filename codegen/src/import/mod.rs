//! `rmm import` (and `cargo xtask import`): an ASMX service's WSDL 1.1 (document/literal, wrapped, as ASMX
//! writes it) to a spec.
//!
//! [`read`] turns the document into an [`Imported`] service (the `wsdl` module), refusing
//! what lies outside rmm's types with the WSDL's `file:line:col`, the construct and the
//! operation; [`Imported::to_yaml`] writes it in `rmm-spec.yaml`'s layout (the `yaml` module).
//! [`import`] does both.

mod closure;
mod data_set;
mod script;
mod wsdl;
mod yaml;

use std::fmt;

use crate::spec::BindingName;

/// A service read from a WSDL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    /// The file or URL it was read from, for the header comment.
    pub source: String,
    /// `wsdl:service`'s name.
    pub name: String,
    /// The `targetNamespace`.
    pub namespace: String,
    /// The path of the SOAP port's address (`/api/rmm/MobileService.asmx`).
    pub path: String,
    /// The `wsdl:service`'s documentation, if any: the service's description.
    pub description: Option<String>,
    /// The form its DataSets are declared in (.NET's default when it has none).
    pub dataset_wsdl: crate::spec::DataSetWsdl,
    /// Its operations are RPC/encoded (`[SoapRpcService]`: `style: rpc`).
    pub rpc: bool,
    /// The enums the operations use, in the order the schema declares them.
    pub enums: Vec<ImportedEnum>,
    /// The classes the operations use, in the order the schema declares them.
    pub classes: Vec<ImportedClass>,
    /// The typed DataSets the operations use, in the order first used.
    pub data_sets: Vec<ImportedDataSet>,
    /// The operations, in the SOAP port type's order.
    pub operations: Vec<ImportedOperation>,
    /// With `--skip-unsupported`: what was left out, each with where and why (the operations
    /// that use a construct rmm does not import).
    pub skipped: Vec<ImportError>,
    /// A `[ScriptService]` (`script:`), as its `/js` proxy shows (a WSDL does not):
    /// [`Imported::with_script_proxy`].
    pub script: Option<crate::spec::ScriptService>,
}

/// An enum: an `xs:simpleType` restricting `xs:string` to values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedEnum {
    /// Its name.
    pub name: String,
    /// Its values, as the wire spells them.
    pub values: Vec<String>,
    /// A `[Flags]` enum (an `xs:list` of the values).
    pub flags: bool,
    /// Its namespace when not the service's (a schema of its own in the WSDL).
    pub namespace: Option<String>,
}

/// A class: a named `xs:complexType` whose `xs:sequence` holds its members.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedClass {
    /// Its name.
    pub name: String,
    /// The class it extends (`complexContent/extension`), if any.
    pub base: Option<String>,
    /// Whether it is abstract (`abstract="true"`).
    pub is_abstract: bool,
    /// Its root (`[XmlRoot]`): the name of a nillable parameter or result element of it,
    /// which XmlSerializer names after the root.
    pub root: Option<String>,
    /// Its namespace, where it is not the service's (`namespace:`).
    pub namespace: Option<String>,
    /// Its attributes (`xs:attribute`): name and spec type.
    pub attributes: Vec<(String, String)>,
    /// The type of its text content (`simpleContent`), if it has text.
    pub text: Option<String>,
    /// The name of its `[XmlAnyAttribute]` member (`xs:anyAttribute` of a class that is not a
    /// SOAP header): wsdl.exe's `AnyAttr`.
    pub any_attribute: Option<String>,
    /// Its members in order: the element name and the spec's type (`int`, `int?`, `Order`,
    /// `OrderLine[]`).
    pub members: Vec<(String, String)>,
}

/// A typed DataSet: read from the schema the WSDL imports (`?schema=Name`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedDataSet {
    /// Its name (`DataSetName`, decoded).
    pub name: String,
    /// Its namespace (the schema's target namespace).
    pub namespace: String,
    /// Its culture (`msdata:Locale`), `None` for the current one.
    pub locale: Option<String>,
    /// Its tables, in order.
    pub tables: Vec<ImportedTable>,
}

/// A table of an [`ImportedDataSet`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedTable {
    /// Its name (decoded).
    pub name: String,
    /// Its columns: name (decoded) and spec type (`int`, `string?` where it allows nulls).
    pub columns: Vec<(String, String)>,
}

/// What fetches a schema document the WSDL imports (`schemaLocation`: a typed DataSet's
/// `?schema=Name`): its text, or why not.
pub type SchemaFetcher<'f> = &'f mut dyn FnMut(&str) -> Result<String, String>;

/// A [`SchemaFetcher`] that fetches nothing: a WSDL read without one imports no typed
/// DataSet, and says where its schema is.
fn no_fetching(location: &str) -> Result<String, String> {
    Err(format!(
        "it is not fetched here; import from the service's ?WSDL URL (or pass a fetcher),          which fetches {location}"
    ))
}

/// One operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedOperation {
    /// Its name.
    pub name: String,
    /// The port type's `wsdl:documentation`, if any: the service's description of it.
    pub description: Option<String>,
    /// Its parameters in order: the wire name and the spec's type (`int`, `int?`, `Level`).
    pub params: Vec<(String, String)>,
    /// The result's spec type, or `void`.
    pub result: String,
    /// The out and ref parameters: elements of the response after the result.
    pub outs: Vec<(String, String)>,
    /// The bindings it is offered on, in [`BindingName::ALL`]'s order.
    pub bindings: Vec<BindingName>,
    /// `SoapParameterStyle.Bare`: its messages' parts are elements of their own.
    pub bare: bool,
    /// `[SoapRpcMethod]` on a method of a document service (`style: rpc` on the operation):
    /// RPC/encoded where the binding is not `style="rpc"`.
    pub rpc_method: bool,
    /// The .NET method's name where `[WebMethod(MessageName)]` named the operation otherwise.
    pub method: Option<String>,
    /// Its SOAP headers (`[SoapHeader]`), in the order of their messages: their classes and
    /// directions.
    pub headers: Vec<(String, crate::spec::HeaderDirection)>,
    /// The request's wrapper element where it is not the operation's name
    /// (`[SoapDocumentMethod(RequestElementName)]`).
    pub request_element: Option<String>,
    /// The response's wrapper element where it is not `{name}Response`
    /// (`[SoapDocumentMethod(ResponseElementName)]`).
    pub response_element: Option<String>,
    /// The result's element where it is not `{name}Result` (`[return: XmlElement(Name)]`).
    pub result_element: Option<String>,
    /// Its SOAPAction where it is not `{namespace}/{name}` (`[SoapDocumentMethod(Action)]`).
    pub action: Option<String>,
    /// An rpc operation's request namespace where it is not the service's
    /// (`[SoapRpcMethod(RequestNamespace)]`).
    pub request_namespace: Option<String>,
    /// An rpc operation's response namespace where it is not the service's
    /// (`[SoapRpcMethod(ResponseNamespace)]`).
    pub response_namespace: Option<String>,
    /// A `[ScriptService]`'s operation that takes GET over JSON (`UseHttpGet`), as its proxy
    /// shows.
    pub script_get: bool,
}

/// One problem in a WSDL, located where the WSDL shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    /// The file or URL, as given.
    pub file: String,
    /// 1-based line, if known.
    pub line: Option<u32>,
    /// 1-based column, if known.
    pub column: Option<u32>,
    /// What is wrong: the construct, and the operation it belongs to.
    pub message: String,
}

impl fmt::Display for ImportError {
    /// `file:line:col: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let (Some(line), Some(column)) = (self.line, self.column) {
            write!(f, ":{line}:{column}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Every problem found, in document order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportErrors(pub Vec<ImportError>);

impl fmt::Display for ImportErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ImportErrors {}

/// Reads the WSDL text `wsdl`; `source` names it (a path or URL) in errors and the header.
/// Every construct rmm does not import is an error.
pub fn read(wsdl: &str, source: &str) -> Result<Imported, ImportErrors> {
    let imported = wsdl::read(wsdl, source, false, &mut no_fetching)?;
    agree_with_gen(imported, source, false)
}

/// [`read`] (or [`read_skipping_unsupported`] with `skip_unsupported`), the schema documents
/// the WSDL imports (a typed DataSet's) fetched by `fetch`.
pub fn read_fetching(
    wsdl: &str,
    source: &str,
    skip_unsupported: bool,
    fetch: SchemaFetcher<'_>,
) -> Result<Imported, ImportErrors> {
    let imported = wsdl::read(wsdl, source, skip_unsupported, fetch)?;
    let imported = agree_with_gen(imported, source, skip_unsupported)?;
    if skip_unsupported {
        return nothing_left(imported, source);
    }
    Ok(imported)
}

/// [`read`], leaving out each operation that uses a construct rmm does not import and listing
/// it in [`Imported::skipped`] with where and why (`--skip-unsupported`); problems of the
/// document as a whole are still errors, and so is leaving out every operation (a spec needs
/// one): then the errors are what was skipped, and a last one saying that nothing is left.
pub fn read_skipping_unsupported(wsdl: &str, source: &str) -> Result<Imported, ImportErrors> {
    let imported = wsdl::read(wsdl, source, true, &mut no_fetching)?;
    let imported = agree_with_gen(imported, source, true)?;
    nothing_left(imported, source)
}

/// What the import read, held to what `rmm gen` accepts: the reader refuses what it knows gen
/// refuses, and this is the backstop for the rest (a combination of constructs no reader
/// check foresaw, as the `import` fuzz target finds them). The spec is checked as gen checks
/// it; an operation it refuses is a problem of that operation, left out with
/// `skip_unsupported` (and what only it reached with it); a problem outside every operation
/// is one of the document. So a spec the import writes is one gen accepts, always.
fn agree_with_gen(
    mut imported: Imported,
    source: &str,
    skip_unsupported: bool,
) -> Result<Imported, ImportErrors> {
    const FILE: &str = "the imported spec";
    // Each round leaves out at least one operation, so the loop ends.
    loop {
        if imported.operations.is_empty() {
            // Nothing left to check: the caller says so.
            return Ok(imported);
        }
        let yaml = imported.to_yaml();
        let checked = crate::spec::parse(&yaml, FILE)
            .and_then(|spec| crate::model::Model::from_spec(&spec, FILE).map(drop));
        let Err(errors) = checked else {
            return Ok(imported);
        };
        // The operation each problem stands in: the last `  - name:` of `operations:` above
        // its line.
        let lines: Vec<&str> = yaml.lines().collect();
        let operations_at = lines.iter().position(|l| *l == "operations:");
        let operation_of = |line: Option<usize>| -> Option<String> {
            let line = line?.checked_sub(1)?;
            let start = operations_at?;
            (line > start).then_some(())?;
            lines[start..=line.min(lines.len() - 1)]
                .iter()
                .rev()
                .find_map(|l| l.strip_prefix("  - name: "))
                .map(|name| name.trim_matches('"').to_owned())
        };
        let mut refused: Vec<(String, String)> = Vec::new();
        let mut whole = Vec::new();
        for error in &errors.0 {
            match operation_of(error.line) {
                Some(op) if imported.operations.iter().any(|o| o.name == op) => {
                    refused.push((op, error.message.clone()));
                }
                _ => whole.push(error.message.clone()),
            }
        }
        let problem = |message: String| ImportError {
            file: source.to_owned(),
            line: None,
            column: None,
            message,
        };
        if !whole.is_empty() || !skip_unsupported || refused.is_empty() {
            let mut out: Vec<ImportError> = refused
                .into_iter()
                .map(|(op, why)| problem(format!("operation {op}: rmm gen would refuse it: {why}")))
                .collect();
            out.extend(whole.into_iter().map(|why| {
                problem(format!(
                    "rmm gen would refuse what this WSDL imports to (a combination rmm import \
                     does not check yet: please report it): {why}"
                ))
            }));
            return Err(ImportErrors(out));
        }
        for (op, why) in &refused {
            if imported.operations.iter().any(|o| o.name == *op) {
                imported.skipped.push(problem(format!(
                    "operation {op}: rmm gen would refuse it: {why}"
                )));
            }
        }
        imported
            .operations
            .retain(|o| !refused.iter().any(|(op, _)| *op == o.name));
        let left_out = closure::close(
            &mut imported.operations,
            &mut imported.classes,
            &mut imported.enums,
            &mut imported.data_sets,
        );
        imported.skipped.extend(
            left_out
                .into_iter()
                .map(|(op, why)| problem(format!("operation {op}: it uses {why}"))),
        );
    }
}

/// A `--skip-unsupported` import's result: an error if it left no operation.
fn nothing_left(imported: Imported, source: &str) -> Result<Imported, ImportErrors> {
    if imported.operations.is_empty() && !imported.skipped.is_empty() {
        let mut errors = imported.skipped;
        let operations: std::collections::BTreeSet<&str> = errors
            .iter()
            .filter_map(|e| {
                e.message
                    .strip_prefix("operation ")
                    .and_then(|m| m.split(':').next())
            })
            .collect();
        let message = format!(
            "every operation of the service uses a construct rmm does not import ({}: see above), \
             so --skip-unsupported leaves none, and a spec needs at least one",
            operations.into_iter().collect::<Vec<_>>().join(", ")
        );
        errors.push(ImportError {
            file: source.to_owned(),
            line: None,
            column: None,
            message,
        });
        return Err(ImportErrors(errors));
    }
    Ok(imported)
}

/// Reads the WSDL text `wsdl` and writes the spec it describes.
pub fn import(wsdl: &str, source: &str) -> Result<String, ImportErrors> {
    read(wsdl, source).map(|imported| imported.to_yaml())
}
