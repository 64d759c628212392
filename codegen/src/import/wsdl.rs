//! Reading a WSDL 1.1 document as ASMX writes it: one service, document/literal, each
//! operation's parameters the sequence of a wrapper element named after it, its result the
//! one element of `{name}Response`.

use std::collections::HashMap;

use roxmltree::{Document, Node};

use super::yaml::quoted;
use super::{ImportError, ImportErrors, Imported, ImportedClass, ImportedEnum, ImportedOperation};
use crate::spec::{BindingName, DataSetWsdl, HeaderDirection, SoapType};

const WSDL: &str = "http://schemas.xmlsoap.org/wsdl/";
const XSD: &str = "http://www.w3.org/2001/XMLSchema";
const SOAP11: &str = "http://schemas.xmlsoap.org/wsdl/soap/";
const SOAP12: &str = "http://schemas.xmlsoap.org/wsdl/soap12/";
const HTTP: &str = "http://schemas.xmlsoap.org/wsdl/http/";
/// SOAP 1.1's encoding (`soapenc`), and SOAP 1.2's.
const SOAP_ENCODING: &str = "http://schemas.xmlsoap.org/soap/encoding/";
const SOAP12_ENCODING: &str = "http://www.w3.org/2003/05/soap-encoding";
/// Where ASMX declares `char` and `guid`.
const MICROSOFT: &str = "http://microsoft.com/wsdl/types/";

/// The types rmm imports but does not generate yet.
const NOT_YET: &[&str] = &[];

/// Collects located problems.
struct Problems<'d> {
    doc: &'d Document<'d>,
    file: &'d str,
    found: Vec<ImportError>,
    /// `--skip-unsupported`: an operation with a problem is left out and its problems listed
    /// in `skipped`, rather than failing the import.
    skip_unsupported: bool,
    skipped: Vec<ImportError>,
    /// The last type found refused again (for the note of a later operation using it).
    refused_again: Option<String>,
    /// The schema documents the WSDL imports with a location, as fetched.
    schema_documents: Vec<SchemaDocument>,
}

/// A schema document the WSDL imports from its `schemaLocation` (a typed DataSet's).
struct SchemaDocument {
    namespace: String,
    location: String,
    /// Its text, or why it could not be fetched.
    text: Result<String, String>,
}

impl Problems<'_> {
    fn at(&mut self, node: Node, message: String) {
        let pos = self.doc.text_pos_at(node.range().start);
        self.found.push(ImportError {
            file: self.file.to_owned(),
            line: Some(pos.row),
            column: Some(pos.col),
            message,
        });
    }
}

/// The line and column where `node` starts.
fn doc_pos(p: &Problems, node: Node) -> (u32, u32) {
    let pos = p.doc.text_pos_at(node.range().start);
    (pos.row, pos.col)
}

fn is(node: Node, ns: &str, local: &str) -> bool {
    node.is_element() && node.tag_name().name() == local && node.tag_name().namespace() == Some(ns)
}

fn children<'a, 'i>(
    node: Node<'a, 'i>,
    ns: &'static str,
    local: &'static str,
) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children().filter(move |c| is(*c, ns, local))
}

fn child<'a, 'i>(
    node: Node<'a, 'i>,
    ns: &'static str,
    local: &'static str,
) -> Option<Node<'a, 'i>> {
    children(node, ns, local).next()
}

/// A QName attribute value resolved against `node`'s namespaces: `(namespace, local)`.
fn qname<'a>(node: Node<'a, '_>, value: &'a str) -> Option<(&'a str, &'a str)> {
    let (prefix, local) = match value.split_once(':') {
        Some((prefix, local)) => (Some(prefix), local),
        None => (None, value),
    };
    Some((node.lookup_namespace_uri(prefix)?, local))
}

pub(super) fn read(
    text: &str,
    file: &str,
    skip_unsupported: bool,
    fetch: super::SchemaFetcher<'_>,
) -> Result<Imported, ImportErrors> {
    let doc = match Document::parse(text) {
        Ok(doc) => doc,
        Err(e) => {
            let pos = e.pos();
            return Err(ImportErrors(vec![ImportError {
                file: file.to_owned(),
                line: Some(pos.row),
                column: Some(pos.col),
                // roxmltree ends its message with the position, which leads here.
                message: format!(
                    "not well-formed XML: {}",
                    e.to_string()
                        .trim_end_matches(&format!(" at {}:{}", pos.row, pos.col))
                ),
            }]));
        }
    };
    let mut problems = Problems {
        doc: &doc,
        file,
        found: Vec::new(),
        skip_unsupported,
        skipped: Vec::new(),
        refused_again: None,
        schema_documents: Vec::new(),
    };
    // The schema documents the service's schema imports (a typed DataSet's, at
    // `?schema=Name`), fetched once each before anything is read.
    for import in doc.descendants().filter(|n| is(*n, XSD, "import")) {
        if let (Some(ns), Some(location)) = (
            import.attribute("namespace"),
            import.attribute("schemaLocation"),
        ) {
            problems.schema_documents.push(SchemaDocument {
                namespace: ns.to_owned(),
                location: location.to_owned(),
                text: fetch(location),
            });
        }
    }
    let imported = read_definitions(&doc, file, &mut problems);
    // In document order: a type's problems are found when an operation first uses it.
    problems
        .found
        .sort_by_key(|e| (e.line.unwrap_or(u32::MAX), e.column.unwrap_or(u32::MAX)));
    problems
        .skipped
        .sort_by_key(|e| (e.line.unwrap_or(u32::MAX), e.column.unwrap_or(u32::MAX)));
    match imported {
        Some(mut imported) if problems.found.is_empty() => {
            imported.skipped = problems.skipped;
            Ok(imported)
        }
        _ => Err(ImportErrors(problems.found)),
    }
}

fn read_definitions(doc: &Document, file: &str, p: &mut Problems) -> Option<Imported> {
    let root = doc.root_element();
    if !is(root, WSDL, "definitions") {
        p.at(
            root,
            format!(
                "the root element is {}, not a WSDL 1.1 wsdl:definitions",
                root.tag_name().name()
            ),
        );
        return None;
    }
    let Some(tns) = root.attribute("targetNamespace") else {
        p.at(root, "wsdl:definitions has no targetNamespace".to_owned());
        return None;
    };
    if let Some(why) = crate::spec::namespace_problems(tns).first() {
        p.at(root, format!("the targetNamespace: {why}"));
        return None;
    }
    for import in children(root, WSDL, "import") {
        p.at(
            import,
            "wsdl:import: rmm reads a WSDL of one document, as ASMX serves it".to_owned(),
        );
    }
    let mut schema = Schema::read(root, tns, p);

    // Which operations each binding offers, and the port type of the SOAP ones.
    // The SOAP headers of the operations (`[SoapHeader]`): the operation, the `soap:header`
    // (SOAP 1.1's, else 1.2's), once per operation and message, and whether the input and
    // the output carry it.
    let mut op_headers: Vec<(&str, Node, bool, bool)> = Vec::new();
    let mut offered: Vec<(BindingName, Vec<&str>)> = Vec::new();
    let mut soap_port_type = None;
    let mut soap_bindings = Vec::new();
    // The RPC/encoded operations (`[SoapRpcMethod]`) and their request and response
    // namespaces (their `soap:body namespace`), and the document/literal ones.
    let mut rpc_ops: HashMap<&str, (&str, &str)> = HashMap::new();
    let mut literal_ops: std::collections::HashSet<&str> = std::collections::HashSet::new();
    // Whether a SOAP binding says `style="rpc"` ([SoapRpcService]).
    let mut rpc_service = false;
    // The SOAPAction of each operation.
    let mut actions: HashMap<&str, &str> = HashMap::new();
    // The problems of the bindings' operations, reported with each operation below.
    let mut deferred: Vec<(&str, Node, String)> = Vec::new();
    for binding in children(root, WSDL, "binding") {
        // The binding's style, which its operations take unless they say otherwise.
        let mut binding_rpc = false;
        let kind = if let Some(b) = child(binding, SOAP11, "binding") {
            binding_rpc = b.attribute("style") == Some("rpc");
            rpc_service |= binding_rpc;
            check_transport(b, p);
            BindingName::Soap11
        } else if let Some(b) = child(binding, SOAP12, "binding") {
            binding_rpc = b.attribute("style") == Some("rpc");
            rpc_service |= binding_rpc;
            check_transport(b, p);
            BindingName::Soap12
        } else if let Some(b) = child(binding, HTTP, "binding") {
            match b.attribute("verb") {
                Some("GET") => BindingName::Get,
                Some("POST") => BindingName::Post,
                other => {
                    p.at(b, format!("an HTTP binding with the verb {other:?}"));
                    continue;
                }
            }
        } else {
            p.at(
                binding,
                "a binding that is neither SOAP nor HTTP".to_owned(),
            );
            continue;
        };
        let mut names = Vec::new();
        for op in children(binding, WSDL, "operation") {
            let name = operation_key(op);
            if names.contains(&name) {
                // .NET refuses a binding that binds an operation twice.
                p.at(op, format!("operation {name}: bound twice in one binding"));
                continue;
            }
            if matches!(kind, BindingName::Soap11 | BindingName::Soap12) {
                let ns = if kind == BindingName::Soap11 {
                    SOAP11
                } else {
                    SOAP12
                };
                let soap_operation = child(op, ns, "operation");
                // The SOAPAction, SOAP 1.1's where both bindings give one.
                if let Some(action) = soap_operation.and_then(|o| o.attribute("soapAction")) {
                    if kind == BindingName::Soap11 || !actions.contains_key(name) {
                        actions.insert(name, action);
                    }
                }
                let rpc = match soap_operation.and_then(|o| o.attribute("style")) {
                    Some(style) => style == "rpc",
                    None => binding_rpc,
                };
                match soap_operation {
                    Some(_) => {}
                    // Without it, .NET leaves the operation out (no SOAPAction to route by).
                    None => p.at(
                        op,
                        format!(
                            "operation {name}: a SOAP binding's operation without soap:operation"
                        ),
                    ),
                }
                for message in [child(op, WSDL, "input"), child(op, WSDL, "output")]
                    .into_iter()
                    .flatten()
                {
                    if child(message, ns, "body").is_none() {
                        p.at(
                            message,
                            format!(
                                "operation {name}: a message without soap:body (another \
                                 encoding of the body, SOAP with attachments), which rmm does \
                                 not read"
                            ),
                        );
                    }
                }
                for (is_input, message) in [
                    (true, child(op, WSDL, "input")),
                    (false, child(op, WSDL, "output")),
                ]
                .into_iter()
                .filter_map(|(i, m)| m.map(|m| (i, m)))
                {
                    for header in children(message, ns, "header") {
                        let same = |(n, h, _, _): &&mut (&str, Node, bool, bool)| {
                            *n == name
                                && h.attribute("message") == header.attribute("message")
                                && h.attribute("part") == header.attribute("part")
                        };
                        match op_headers.iter_mut().find(same) {
                            Some((_, _, input, output)) => {
                                *input |= is_input;
                                *output |= !is_input;
                            }
                            None => op_headers.push((name, header, is_input, !is_input)),
                        }
                    }
                    for body in children(message, ns, "body") {
                        let encoded = body.attribute("use") == Some("encoded");
                        let encoding = if kind == BindingName::Soap11 {
                            SOAP_ENCODING
                        } else {
                            SOAP12_ENCODING
                        };
                        let problem = match (rpc, encoded) {
                            (true, true) => {
                                // .NET skips an operation of another encoding (CheckMessageStyles).
                                let style = body.attribute("encodingStyle").unwrap_or_default();
                                if !style.split_whitespace().any(|s| s == encoding) {
                                    Some(format!(
                                        "use=\"encoded\" with the encodingStyle {style:?}, which \
                                         is not SOAP encoding ({encoding}); .NET skips it (The \
                                         encoding is not supported)"
                                    ))
                                } else {
                                    let namespace = body.attribute("namespace").unwrap_or(tns);
                                    let entry = rpc_ops.entry(name).or_insert((tns, tns));
                                    if is_input {
                                        entry.0 = namespace;
                                    } else {
                                        entry.1 = namespace;
                                    }
                                    None
                                }
                            }
                            (true, false) => Some(
                                "style=\"rpc\" with use=\"literal\" (rpc/literal, \
                                 [SoapRpcMethod(Use = Literal)]), which rmm does not import yet"
                                    .to_owned(),
                            ),
                            (false, true) => Some(
                                "use=\"encoded\" in document style (document/encoded, \
                                 [SoapDocumentMethod(Use = Encoded)]), which rmm does not import \
                                 yet"
                                .to_owned(),
                            ),
                            (false, false) => {
                                literal_ops.insert(name);
                                None
                            }
                        };
                        if let Some(problem) = problem {
                            // Reported with the operation (which --skip-unsupported leaves
                            // out), once for its input and output, and both SOAP bindings.
                            let problem = format!("operation {name}: {problem}");
                            if !deferred.iter().any(|(n, _, m)| *n == name && *m == problem) {
                                deferred.push((name, body, problem));
                            }
                        }
                    }
                }
            }
            names.push(name);
        }
        if matches!(kind, BindingName::Soap11 | BindingName::Soap12) {
            soap_bindings.push(binding);
            if soap_port_type.is_none() || kind == BindingName::Soap11 {
                soap_port_type = binding
                    .attribute("type")
                    .and_then(|t| qname(binding, t))
                    .map(|(_, local)| local);
            }
        }
        offered.push((kind, names));
    }
    let Some(port_type_name) = soap_port_type else {
        p.at(
            root,
            "no SOAP binding: rmm imports a service offered over SOAP".to_owned(),
        );
        return None;
    };
    let Some(port_type) =
        children(root, WSDL, "portType").find(|pt| pt.attribute("name") == Some(port_type_name))
    else {
        p.at(
            root,
            format!(
                "the SOAP binding names the port type {port_type_name:?}, which is not declared"
            ),
        );
        return None;
    };
    if children(port_type, WSDL, "operation").next().is_none() {
        // .NET writes an empty class and warns (`NoMethodsGenerated`); a spec needs an operation.
        p.at(
            port_type,
            format!(
                "the port type {port_type_name:?} declares no operation: there is nothing to call \
                 or serve (wsdl.exe writes an empty class), and a spec needs at least one"
            ),
        );
        return None;
    }

    let (name, path) = read_service(root, &soap_bindings, p)?;
    // One style per service, as the spec says it of the service: RPC/encoded when every
    // SOAP operation is; a mix is refused where its rpc operations stand.
    let mixed = !rpc_ops.is_empty() && !literal_ops.is_empty();
    schema.encoded = !rpc_ops.is_empty() && literal_ops.is_empty();
    schema.rpc_service = schema.encoded && rpc_service;
    // The roots the results show, before any operation is read: a parameter of a class is
    // named after its root wherever it stands, so one result naming it suffices.
    for op in children(port_type, WSDL, "operation") {
        let op_name = operation_key(op);
        let first = child(op, WSDL, "output")
            .and_then(|output| message_element(&schema, output))
            .and_then(|response| child(response, XSD, "complexType"))
            .and_then(|complex| child(complex, XSD, "sequence"))
            .and_then(|sequence| sequence.children().find(Node::is_element));
        let Some(first) = first else { continue };
        let element = first.attribute("name").unwrap_or_default();
        if element == format!("{op_name}Result") || !is_root_element(first, &schema) {
            continue;
        }
        let class = first
            .attribute("type")
            .and_then(|t| qname(first, t))
            .map(|(_, local)| local.to_owned())
            .unwrap_or_default();
        if !schema.roots.iter().any(|(c, _)| *c == class) {
            schema.roots.push((class, element.to_owned()));
        }
    }
    let mut operations = Vec::new();
    // Each operation's node, for the place of a problem found after reading (a position is
    // computed from the start of the text: only where one is reported).
    let mut op_nodes = Vec::new();
    for op in children(port_type, WSDL, "operation") {
        let op_name = operation_key(op);
        op_nodes.push((op_name, op));
        let bindings: Vec<BindingName> = BindingName::ALL
            .into_iter()
            .filter(|b| {
                offered
                    .iter()
                    .any(|(kind, names)| kind == b && names.contains(&op_name))
            })
            .collect();
        let before = p.found.len();
        let mut refused_here = false;
        for (_, node, problem) in deferred.iter().filter(|(name, ..)| *name == op_name) {
            p.at(*node, problem.clone());
            refused_here = true;
        }
        if mixed && rpc_ops.contains_key(op_name) {
            p.at(
                op,
                format!(
                    "operation {op_name}: RPC/encoded ([SoapRpcMethod]) in a service whose other \
                     operations are document/literal; rmm imports a service of one style \
                     ([SoapRpcService] or none)"
                ),
            );
            refused_here = true;
        }
        if bindings.is_empty() {
            // In the port type, but in no binding: nothing offers it (wsdl.exe generates
            // methods from the bindings' operations).
            p.at(op, format!("operation {op_name}: no binding offers it"));
        }
        // A header is reported once, though SOAP 1.1 and 1.2 both declare it.
        p.refused_again = None;
        let mut read = if refused_here {
            None
        } else if schema.encoded {
            let (request_ns, response_ns) = rpc_ops.get(op_name).copied().unwrap_or((tns, tns));
            read_rpc_operation(op, &mut schema, bindings, (request_ns, response_ns), p)
        } else {
            read_operation(op, &mut schema, bindings, p)
        };
        // In the order of their messages, which is .NET's order of the attributes (the
        // bindings list a message's header in the input, the output or both).
        let mut headers: Vec<&(&str, Node, bool, bool)> =
            op_headers.iter().filter(|(n, ..)| *n == op_name).collect();
        headers.sort_by_key(|(_, h, _, _)| message_position(&schema, *h));
        for (_, header, input, output) in headers {
            let class = header_class(*header, &mut schema, op_name, p);
            let direction = match (input, output) {
                (true, true) => HeaderDirection::InOut,
                (false, true) => HeaderDirection::Out,
                _ => HeaderDirection::In,
            };
            if let (Some(read), Some(class)) = (read.as_mut(), class) {
                read.headers.push((class, direction));
            }
        }
        // `[SoapDocumentMethod(Action)]`: an action other than the default, which routes a
        // request to the operation.
        if let Some(read) = read.as_mut() {
            let default = if tns.ends_with('/') {
                format!("{tns}{op_name}")
            } else {
                format!("{tns}/{op_name}")
            };
            read.action = actions
                .get(op_name)
                .filter(|action| **action != default)
                .map(|action| (*action).to_owned());
        }
        // A type refused for an earlier operation is a problem of this one too, though none
        // is reported again.
        let refused_again = p.refused_again.take();
        let problems_here = p.found.len() > before || refused_again.is_some();
        match read {
            Some(read) if !problems_here => operations.push(read),
            _ if p.skip_unsupported => {
                let mut here: Vec<ImportError> = p.found.drain(before..).collect();
                if here.is_empty() {
                    // It uses a type an earlier operation's problems refused.
                    let pos = doc_pos(p, op);
                    here.push(ImportError {
                        file: p.file.to_owned(),
                        line: Some(pos.0),
                        column: Some(pos.1),
                        message: format!(
                            "operation {op_name}: it uses the type {}, which an operation \
                             above could not import",
                            refused_again.unwrap_or_default()
                        ),
                    });
                }
                p.skipped.extend(here);
            }
            _ => {}
        }
    }
    // Every type named is declared: what reaches a refused type is left out with it, and
    // what no operation reaches is dropped (the enums some operation or class uses, the
    // classes, the typed DataSets).
    let mut classes = schema.classes;
    let mut enums = schema.enums;
    let mut data_sets = schema.data_sets;
    let left_out = super::closure::close(&mut operations, &mut classes, &mut enums, &mut data_sets);
    for (operation, why) in left_out {
        let (line, column) = op_nodes
            .iter()
            .find(|(name, _)| *name == operation)
            .map(|(_, node)| doc_pos(p, *node))
            .unwrap_or_default();
        let problem = ImportError {
            file: p.file.to_owned(),
            line: Some(line),
            column: Some(column),
            message: format!("operation {operation}: it uses {why}"),
        };
        if p.skip_unsupported {
            p.skipped.push(problem);
        } else {
            p.found.push(problem);
        }
    }
    // The classes in the order the schema declares them.
    let position = |name: &str| {
        schema
            .complex_types
            .iter()
            .position(|c| c.attribute("name") == Some(name))
    };
    classes.sort_by_key(|c| position(&c.name));
    // [SoapRpcMethod] on a document service's methods (a binding without `style="rpc"`)
    // declares its encoded types in `{namespace}/encodedTypes`, which rmm writes for a
    // `[SoapRpcService]` only: a WSDL whose rpc operations name types of its own namespace
    // imports as a service of `style: rpc`, whose types are there.
    if schema.encoded
        && !schema.rpc_service
        && (!classes.is_empty()
            || !enums.is_empty()
            || operations.iter().any(|op| {
                op.params
                    .iter()
                    .chain(&op.outs)
                    .map(|(_, ty)| ty)
                    .chain([&op.result])
                    .any(|ty| ty.ends_with("[]"))
            }))
    {
        schema.rpc_service = true;
        for op in &mut operations {
            op.rpc_method = false;
        }
    }
    let dataset_wsdl = schema.dataset_wsdl.unwrap_or_default();
    Some(Imported {
        source: file.to_owned(),
        dataset_wsdl,
        rpc: schema.rpc_service,
        name,
        namespace: tns.to_owned(),
        path,
        // The document's documentation, which ASMX writes as the service's too.
        description: documentation(root),
        enums,
        classes,
        data_sets,
        operations,
        skipped: Vec::new(),
        script: None,
    })
}

/// The type a simpleType that is no enum stands for, as .NET imports it
/// (`XmlSchemaImporter.ImportDataType`): a restriction's base, walked to a built-in type rmm
/// carries or an enum (facets, and enumerations of a base other than a string, ignored); a
/// union's `string`. `None` for a list, a built-in rmm does not carry, or a chain that goes
/// round.
fn simple_alias(simple: Node, schema: &Schema, depth: usize) -> Option<String> {
    if depth > 16 {
        return None;
    }
    if child(simple, XSD, "union").is_some() {
        return Some("string".to_owned());
    }
    let restriction = child(simple, XSD, "restriction")?;
    let base = match restriction.attribute("base") {
        Some(base) => {
            let (ns, local) = qname(restriction, base)?;
            if ns == XSD {
                let ty = SoapType::from_name(local)
                    .filter(|t| !t.in_microsoft_namespace() && !t.is_raw() && !t.is_complex())?;
                return Some(ty.name().to_owned());
            }
            if ns != schema.tns {
                return None;
            }
            if schema.enums.iter().any(|e| e.name == local) {
                return Some(local.to_owned());
            }
            schema
                .simple_types
                .iter()
                .copied()
                .find(|s| s.attribute("name") == Some(local))?
        }
        None => child(restriction, XSD, "simpleType")?,
    };
    simple_alias(base, schema, depth + 1)
}

/// Whether the class `base` (or a class it derives from) has the member `member`.
fn inherited_member(schema: &Schema, base: Option<&str>, member: &str) -> bool {
    let mut next = base;
    let mut depth = 0;
    while let Some(name) = next.filter(|_| depth < 64) {
        let Some(class) = schema.classes.iter().find(|c| c.name == name) else {
            return false;
        };
        if class.members.iter().any(|(m, _)| m == member) {
            return true;
        }
        next = class.base.as_deref();
        depth += 1;
    }
    false
}

/// The text of `node`'s `wsdl:documentation`, if it has one that is not blank.
fn documentation(node: Node) -> Option<String> {
    child(node, WSDL, "documentation")
        .map(|d| {
            d.descendants()
                .filter(|n| n.is_text())
                .filter_map(|n| n.text())
                .collect::<String>()
        })
        .filter(|d| !d.trim().is_empty())
}

/// Refuses a SOAP binding of another transport than HTTP (`soap:binding transport`), which
/// .NET's `SoapHttpTransportImporter` alone imports: the exact URI, no trailing slash.
fn check_transport(binding: Node, p: &mut Problems) {
    const HTTP_TRANSPORT: &str = "http://schemas.xmlsoap.org/soap/http";
    let transport = binding.attribute("transport").unwrap_or_default();
    if transport != HTTP_TRANSPORT {
        p.at(
            binding,
            format!(
                "a SOAP binding of the transport {transport:?}; rmm, as ASMX, speaks SOAP over \
                 HTTP ({HTTP_TRANSPORT})"
            ),
        );
    }
}

/// The service's name and the path of its SOAP port's address.
fn read_service(root: Node, soap_bindings: &[Node], p: &mut Problems) -> Option<(String, String)> {
    let services: Vec<Node> = children(root, WSDL, "service").collect();
    let Some(&service) = services.first() else {
        p.at(root, "no wsdl:service".to_owned());
        return None;
    };
    for extra in &services[1..] {
        p.at(
            *extra,
            "a second wsdl:service; rmm imports one service".to_owned(),
        );
    }
    let binding_names: Vec<&str> = soap_bindings
        .iter()
        .filter_map(|b| b.attribute("name"))
        .collect();
    let address = children(service, WSDL, "port")
        .filter(|port| {
            port.attribute("binding")
                .and_then(|b| qname(*port, b))
                .is_some_and(|(_, local)| binding_names.contains(&local))
        })
        .find_map(|port| child(port, SOAP11, "address").or_else(|| child(port, SOAP12, "address")));
    let Some(location) = address.and_then(|a| a.attribute("location")) else {
        p.at(
            service,
            "the service has no SOAP port with an address".to_owned(),
        );
        return None;
    };
    // The path of an absolute URL (`http://host:port/path`), or the location itself.
    let path = location.split_once("://").map_or(location, |(_, rest)| {
        rest.find('/').map_or("/", |at| &rest[at..])
    });
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let problems = crate::spec::path_problems(path);
    if let Some(why) = problems.first() {
        p.at(
            service,
            format!("the SOAP port's address {location:?}: {why} (an ASMX host writes http://host/path.asmx)"),
        );
        return None;
    }
    let name = service.attribute("name").unwrap_or_default();
    if let Some(why) = crate::spec::ncname_problem(name) {
        p.at(
            service,
            format!(
                "the service's name {name:?} is not a name rmm carries ({why}; {})",
                crate::spec::NCNAME_RULE
            ),
        );
        return None;
    }
    Some((
        service.attribute("name").unwrap_or_default().to_owned(),
        path.to_owned(),
    ))
}

/// The service's schema: its global elements, its enums, its named complex types and the
/// classes read from them so far.
struct Schema<'a, 'i> {
    elements: Vec<Node<'a, 'i>>,
    simple_types: Vec<Node<'a, 'i>>,
    complex_types: Vec<Node<'a, 'i>>,
    enums: Vec<ImportedEnum>,
    /// The classes the operations reach, each once, in the order first met (members are
    /// filled in after the class is listed, so a class may hold itself).
    classes: Vec<ImportedClass>,
    /// The complex types found not to import, each reported once.
    refused: Vec<String>,
    /// Reading a class's member: its array's items may be renamed (`[XmlArrayItem]`).
    member_context: bool,
    /// How many arrays deep the type being read is, within the member.
    array_depth: u32,
    /// The renamed items of the member's array just read, if they are.
    item_rename: Option<String>,
    /// Reading a SOAP header's class, whose type takes any attribute.
    header_context: bool,
    /// The roots (`[XmlRoot]`) the operations' results show: a class's name and the name of
    /// a nillable result element of it that is not `{operation}Result`.
    roots: Vec<(String, String)>,
    /// The form the DataSets met are declared in (the first one's).
    dataset_wsdl: Option<DataSetWsdl>,
    /// The typed DataSets the operations use, in the order first met.
    data_sets: Vec<super::ImportedDataSet>,
    /// The global elements of the schemas of other namespaces (SOAP header classes of their
    /// own namespace, WS-Security's and ebXML's kind).
    foreign_elements: Vec<Node<'a, 'i>>,
    /// The service's namespace.
    tns: &'a str,
    /// The service is RPC/encoded: its schema is SOAP encoding's (members unqualified by
    /// design, arrays restrictions of `soapenc:Array`).
    encoded: bool,
    /// Its SOAP binding says `style="rpc"` (`[SoapRpcService]`), not only its operations.
    rpc_service: bool,
    /// The service's global elements by name (the first of a name), and the WSDL's messages
    /// by name with their places: looked up once per operation, a large service's thousands.
    element_index: HashMap<&'a str, Node<'a, 'i>>,
    messages: HashMap<&'a str, (usize, Node<'a, 'i>)>,
    /// Lists of more values than a `[Flags]` enum's 64 bits hold, which .NET imports as a
    /// string (`ImportEnumeratedDataType`: more than 63 constants).
    long_lists: Vec<&'a str>,
    /// The simpleTypes that are no enum, by name: the type each stands for (`int` for a
    /// restriction of `xs:int` by facets, `string` for a union).
    aliases: HashMap<&'a str, String>,
    /// Enums of a name an enum of another namespace has, read first.
    shadowed_enums: Vec<Node<'a, 'i>>,
}

impl<'a, 'i> Schema<'a, 'i> {
    fn read(root: Node<'a, 'i>, tns: &'a str, p: &mut Problems) -> Schema<'a, 'i> {
        let mut schema = Schema {
            elements: Vec::new(),
            simple_types: Vec::new(),
            complex_types: Vec::new(),
            enums: Vec::new(),
            classes: Vec::new(),
            refused: Vec::new(),
            member_context: false,
            array_depth: 0,
            item_rename: None,
            roots: Vec::new(),
            header_context: false,
            dataset_wsdl: None,
            data_sets: Vec::new(),
            foreign_elements: Vec::new(),
            tns,
            encoded: false,
            rpc_service: false,
            element_index: HashMap::new(),
            messages: HashMap::new(),
            long_lists: Vec::new(),
            aliases: HashMap::new(),
            shadowed_enums: Vec::new(),
        };
        // The service's schemas, then those of other namespaces than the service's,
        // Microsoft's types' and the abstract types': their elements (a header class of its
        // own namespace), complex types and simple types (`[XmlType(Namespace)]`).
        let schemas: Vec<Node> = child(root, WSDL, "types")
            .into_iter()
            .flat_map(|types| children(types, XSD, "schema"))
            .collect();
        let own = schemas
            .iter()
            .copied()
            .filter(|s| s.attribute("targetNamespace") == Some(tns));
        let others = schemas.iter().copied().filter(|s| {
            s.attribute("targetNamespace")
                .is_some_and(|ns| ns != tns && ns != MICROSOFT && !ns.ends_with("AbstractTypes"))
        });
        let mut pending = Vec::new();
        for s in own.chain(others) {
            let foreign = s.attribute("targetNamespace") != Some(tns);
            if foreign {
                schema.foreign_elements.extend(children(s, XSD, "element"));
            }
            // XML Schema's default form is unqualified: the members (and a wrapper's
            // parameters) of such a schema are elements of no namespace, which rmm would read
            // and write in the service's (ASMX writes every schema qualified).
            if !foreign && s.attribute("elementFormDefault") != Some("qualified") {
                p.at(
                    s,
                    "the service's schema is not elementFormDefault=\"qualified\": its members \
                     and parameters are of no namespace, which rmm imports per member \
                     (form=\"unqualified\") only"
                        .to_owned(),
                );
            }
            if !foreign {
                schema.elements.extend(children(s, XSD, "element"));
            }
            schema
                .complex_types
                .extend(children(s, XSD, "complexType").filter(|c| c.attribute("name").is_some()));
            for simple in children(s, XSD, "simpleType") {
                schema.simple_types.push(simple);
                let name = simple.attribute("name").unwrap_or_default();
                // A [Flags] enum: a list of an anonymous enum's values.
                let list = child(simple, XSD, "list");
                let holder = match list {
                    Some(list) => match child(list, XSD, "simpleType") {
                        Some(inner) => inner,
                        None => {
                            p.at(
                                list,
                                format!(
                                    "the simpleType {name} is a list of a named type, not of \
                                     values ([Flags] enums list values)"
                                ),
                            );
                            continue;
                        }
                    },
                    None => simple,
                };
                let values = child(holder, XSD, "restriction")
                    .filter(|r| {
                        // A string's, or a string-like type's (`token`, `NMTOKEN`, `anyURI`):
                        // .NET makes an enum of either, read and written exactly.
                        r.attribute("base")
                            .and_then(|b| qname(*r, b))
                            .is_some_and(|(ns, local)| {
                                ns == XSD
                                    && (local == "string"
                                        || local == "normalizedString"
                                        || local == "Name"
                                        || local == "NCName"
                                        || local == "NMTOKEN"
                                        || crate::model::COLLAPSED_STRINGS.contains(&local))
                            })
                    })
                    .map(|r| {
                        children(r, XSD, "enumeration")
                            .filter_map(|e| e.attribute("value"))
                            .map(str::to_owned)
                            .collect::<Vec<_>>()
                    });
                match values {
                    Some(values) if list.is_some() && values.len() > 63 => {
                        schema.long_lists.push(name)
                    }
                    // One of a name read already, of another namespace: rmm names a type
                    // once (.NET numbers the second).
                    Some(_) if schema.enums.iter().any(|e| e.name == name) => {
                        schema.shadowed_enums.push(simple);
                    }
                    Some(values) if !values.is_empty() => schema.enums.push(ImportedEnum {
                        name: name.to_owned(),
                        values,
                        flags: list.is_some(),
                        namespace: foreign
                            .then(|| s.attribute("targetNamespace").map(str::to_owned))
                            .flatten(),
                    }),
                    // Resolved below, once every simpleType is known.
                    _ => pending.push(simple),
                }
            }
        }
        // A simpleType that is no enum is, as .NET imports it, the built-in type its
        // derivation reaches (facets ignored), a union a string.
        for simple in pending {
            let name = simple.attribute("name").unwrap_or_default();
            match simple_alias(simple, &schema, 0) {
                Some(ty) => {
                    schema.aliases.insert(name, ty);
                }
                None => p.at(
                    simple,
                    format!(
                        "the simpleType {name} is no enum (a restriction of s:string to values) \
                         and no restriction of a built-in type rmm carries"
                    ),
                ),
            }
        }
        for element in &schema.elements {
            if let Some(name) = element.attribute("name") {
                schema.element_index.entry(name).or_insert(*element);
            }
        }
        for (at, message) in children(root, WSDL, "message").enumerate() {
            if let Some(name) = message.attribute("name") {
                schema.messages.entry(name).or_insert((at, message));
            }
        }
        schema
    }

    /// The WSDL's message `name`.
    fn message(&self, name: &str) -> Option<Node<'a, 'i>> {
        self.messages.get(name).map(|(_, m)| *m)
    }

    fn element(&self, name: &str) -> Option<Node<'a, 'i>> {
        self.element_index.get(name).copied()
    }

    /// The global element `{ns}name`, of the service's schema or another's.
    fn element_in(&self, ns: &str, name: &str) -> Option<Node<'a, 'i>> {
        if ns == self.tns {
            return self.element(name);
        }
        self.foreign_elements
            .iter()
            .copied()
            .find(|e| e.attribute("name") == Some(name) && target_namespace(*e) == Some(ns))
    }
}

/// The namespace of the schema `node` stands in.
fn target_namespace<'a>(node: Node<'a, '_>) -> Option<&'a str> {
    node.ancestors()
        .find(|a| is(*a, XSD, "schema"))
        .and_then(|s| s.attribute("targetNamespace"))
}

/// The names of the parts of the message `io` names, in order.
fn bare_part_names<'a>(schema: &Schema<'a, '_>, io: Node<'a, '_>) -> Vec<&'a str> {
    io.attribute("message")
        .and_then(|m| qname(io, m))
        .and_then(|(_, m)| schema.message(m))
        .map(|m| {
            children(m, WSDL, "part")
                .filter_map(|part| part.attribute("name"))
                .collect()
        })
        .unwrap_or_default()
}

/// The elements a message's parts name, in order, if it is a bare operation's: parts named
/// other than `parameters` (ASMX names a bare part after its parameter, or `{Op}Result`), each
/// naming a global element with a named type. `None` for a wrapped message.
fn bare_elements<'a, 'i>(schema: &Schema<'a, 'i>, io: Node<'a, 'i>) -> Option<Vec<Node<'a, 'i>>> {
    let message = io.attribute("message").and_then(|m| qname(io, m))?.1;
    let message = schema.message(message)?;
    let parts: Vec<Node> = children(message, WSDL, "part").collect();
    if parts.len() == 1 && parts[0].attribute("name") == Some("parameters") {
        return None;
    }
    parts
        .iter()
        .map(|part| {
            let element = part.attribute("element").and_then(|e| qname(*part, e))?.1;
            // A named type, or raw XML's inline type (.NET's XmlElement or XmlNode
            // parameter, as SEFAZ's services have).
            schema
                .element(element)
                .filter(|e| e.attribute("type").is_some() || raw_xml_type(*e).is_some())
        })
        .collect()
}

/// The element a message's one part names.
fn message_element<'a, 'i>(schema: &Schema<'a, 'i>, io: Node<'a, 'i>) -> Option<Node<'a, 'i>> {
    let message = io.attribute("message").and_then(|m| qname(io, m))?.1;
    let message = schema.message(message)?;
    let part = child(message, WSDL, "part")?;
    let element = part.attribute("element").and_then(|e| qname(part, e))?.1;
    schema.element(element)
}

/// The class of a `soap:header` of an operation's input: its message's part's global element,
/// which ASMX names after the class (a `[SoapHeader]` class). Anything else is refused.
/// Where the message a `soap:header` names stands among the WSDL's messages (last when it
/// names none).
fn message_position(schema: &Schema, header: Node) -> usize {
    header
        .attribute("message")
        .and_then(|m| qname(header, m))
        .and_then(|(_, local)| schema.messages.get(local))
        .map_or(usize::MAX, |(at, _)| *at)
}

fn header_class<'a, 'i>(
    header: Node<'a, 'i>,
    schema: &mut Schema<'a, 'i>,
    operation: &str,
    p: &mut Problems,
) -> Option<String> {
    let message = header
        .attribute("message")
        .and_then(|m| qname(header, m))?
        .1;
    let part = header.attribute("part").unwrap_or_default();
    let element = schema
        .message(message)
        .and_then(|m| children(m, WSDL, "part").find(|pt| pt.attribute("name") == Some(part)))
        .and_then(|pt| pt.attribute("element").and_then(|e| qname(pt, e)))
        .and_then(|(ns, local)| schema.element_in(ns, local));
    let Some(element) = element else {
        p.at(
            header,
            format!(
                "operation {operation}: the SOAP header (message {message}, part {part}) names no \
                 element of the schema"
            ),
        );
        return None;
    };
    let what = format!("SOAP header {part}");
    schema.header_context = true;
    let ty = value_type(element, schema, operation, &what, p);
    schema.header_context = false;
    let ty = ty?;
    let name = element.attribute("name").unwrap_or_default();
    if !schema.classes.iter().any(|c| c.name == ty) {
        p.at(
            element,
            format!(
                "operation {operation}: the SOAP header {name} is of type {ty}; rmm imports a \
                 header that is a class's element ([SoapHeader])"
            ),
        );
        return None;
    }
    // An element named otherwise than its class: the class's root (`[XmlRoot]`), which
    // names the header's block.
    if ty != name {
        set_root(element, &ty, name, schema, operation, p)?;
    }
    Some(ty)
}

/// The name an operation of a port type or binding is known by: its input's name where it has
/// one (an overload's `[WebMethod(MessageName)]`, whose operation carries the method's name,
/// shared by the overloads), else its own.
fn operation_key<'a>(op: Node<'a, '_>) -> &'a str {
    child(op, WSDL, "input")
        .and_then(|input| input.attribute("name"))
        .or_else(|| op.attribute("name"))
        .unwrap_or_default()
}

fn read_operation<'a, 'i>(
    op: Node<'a, 'i>,
    schema: &mut Schema<'a, 'i>,
    bindings: Vec<BindingName>,
    p: &mut Problems,
) -> Option<ImportedOperation> {
    let name = operation_key(op).to_owned();
    // An overload ([WebMethod(MessageName)]): the WSDL's operation is the method's.
    let method = op
        .attribute("name")
        .filter(|method| *method != name)
        .map(str::to_owned);
    let description = documentation(op);
    // Solicit-response (the output first): the service calls, which ASMX never does.
    let output_first = op
        .children()
        .filter(Node::is_element)
        .find(|n| is(*n, WSDL, "input") || is(*n, WSDL, "output"))
        .is_some_and(|n| is(n, WSDL, "output"));
    if output_first {
        p.at(
            op,
            format!("operation {name}: solicit-response (its output first), which .NET skips"),
        );
        return None;
    }
    let (Some(input), Some(output)) = (child(op, WSDL, "input"), child(op, WSDL, "output")) else {
        p.at(
            op,
            format!("operation {name}: not request/response (an input and an output)"),
        );
        return None;
    };
    // A bare operation: each part an element of its own, the parameters and the result.
    if let (Some(request), Some(response)) =
        (bare_elements(schema, input), bare_elements(schema, output))
    {
        let mut params = Vec::new();
        for element in request {
            let param = element.attribute("name").unwrap_or_default();
            params.push((
                param.to_owned(),
                value_type(element, schema, &name, param, p)?,
            ));
        }
        let result_name = format!("{name}Result");
        // The return value's part is `{name}Result` whatever its element is called: an
        // element of another name is `[return: XmlElement(Name)]`.
        let result_part = bare_part_names(schema, output).first() == Some(&result_name.as_str());
        let mut result_element = None;
        let result = match response.as_slice() {
            [] => "void".to_owned(),
            [element] if result_part || element.attribute("name") == Some(result_name.as_str()) => {
                let wire = element.attribute("name").unwrap_or_default();
                if wire != result_name {
                    result_element = Some(wire.to_owned());
                }
                value_type(*element, schema, &name, "the result", p)?
            }
            _ => {
                p.at(
                    op,
                    format!(
                        "operation {name}: a bare response of other parts than {result_name} \
                         (out parameters of a bare operation), which rmm does not import"
                    ),
                );
                return None;
            }
        };
        return Some(ImportedOperation {
            name,
            description,
            params,
            result,
            outs: Vec::new(),
            bindings,
            bare: true,
            rpc_method: false,
            method,
            headers: Vec::new(),
            request_element: None,
            response_element: None,
            result_element,
            action: None,
            request_namespace: None,
            response_namespace: None,
            script_get: false,
        });
    }
    // A wrapped operation's messages have one part each: a second one (of an element with
    // no named type, which no bare operation has) would be lost.
    for io in [input, output] {
        let parts = io
            .attribute("message")
            .and_then(|m| qname(io, m))
            .and_then(|(_, m)| schema.message(m))
            .map_or(0, |m| children(m, WSDL, "part").count());
        if parts > 1 {
            p.at(
                io,
                format!(
                    "operation {name}: a message of {parts} parts that are not bare parameters \
                     (elements of named types); rmm reads a wrapper of one part, or bare parts"
                ),
            );
            return None;
        }
    }
    let (Some(request), Some(response)) = (
        message_element(schema, input),
        message_element(schema, output),
    ) else {
        p.at(
            op,
            format!(
                "operation {name}: its messages name no element of the schema (rmm reads \
                 document/literal, wrapped)"
            ),
        );
        return None;
    };
    // The wrappers are named after the operation and its response, unless
    // `[SoapDocumentMethod(RequestElementName, ResponseElementName)]` renamed them.
    let renamed = |wrapper: Node, default: String| {
        let found = wrapper.attribute("name").unwrap_or_default();
        (found != default).then(|| found.to_owned())
    };
    let request_element = renamed(request, name.clone());
    let response_element = renamed(response, format!("{name}Response"));
    let mut params = Vec::new();
    for element in sequence(request, schema, &name, p)? {
        let param = element.attribute("name").unwrap_or_default();
        if let Some(ty) = value_type(element, schema, &name, param, p) {
            if is_root_element(element, schema) && schema.classes.iter().any(|c| c.name == ty) {
                // A nillable parameter of a class: its root's name, as a result shows it, or
                // [XmlElement(IsNullable = true)] on the parameter, which rmm does not model.
                if root_of_element(element, schema) != Some(param) {
                    p.at(
                        element,
                        format!(
                            "operation {name}: parameter {param} is a nillable element of class \
                             {ty} that no result names as the class's root ([XmlRoot]): \
                             [XmlElement(IsNullable = true)] on the parameter, which rmm does \
                             not import yet"
                        ),
                    );
                    continue;
                }
                set_root(element, &ty, param, schema, &name, p)?;
            }
            params.push((param.to_owned(), ty));
        }
    }
    let results = sequence(response, schema, &name, p)?;
    // The result element, as .NET's importer finds it (`SoapParameters`): the response's
    // first element, unless it is a ref parameter (named as a parameter is), when every
    // element is an out or ref parameter. (.NET also makes every element an out parameter
    // where the first is a value that may be absent, `minOccurs="0"` of a value type; rmm
    // refuses such an element either way.) `{name}Result` is its default name, a class's root
    // names a nillable one; any other is `[return: XmlElement(Name)]`. The other elements
    // are out and ref parameters, in parameter order.
    let result_name = format!("{name}Result");
    let (result_element, out_elements) = match results.split_first() {
        // A class's root names its parameter too, and rmm carries it as the result (where
        // .NET makes an echoed one a ref parameter of a void method).
        Some((first, rest))
            if root_of_element(*first, schema).is_some()
                || !params
                    .iter()
                    .any(|(param, _)| Some(param.as_str()) == first.attribute("name")) =>
        {
            (Some(*first), rest)
        }
        _ => (None, results.as_slice()),
    };
    let result_renamed = result_element.and_then(|element| {
        let wire = element.attribute("name").unwrap_or_default();
        (wire != result_name && root_of_element(element, schema).is_none()).then(|| wire.to_owned())
    });
    let result = match result_element {
        None => "void".to_owned(),
        Some(element) => {
            let ty = value_type(element, schema, &name, "the result", p)?;
            if let Some(root) = root_of_element(element, schema) {
                let root = root.to_owned();
                set_root(element, &ty, &root, schema, &name, p)?;
            }
            ty
        }
    };
    let mut outs = Vec::new();
    for element in out_elements {
        let out = element.attribute("name").unwrap_or_default();
        let what = format!("out parameter {out}");
        outs.push((
            out.to_owned(),
            value_type(*element, schema, &name, &what, p)?,
        ));
    }
    Some(ImportedOperation {
        name,
        description,
        params,
        result,
        outs,
        bindings,
        bare: false,
        rpc_method: false,
        method,
        headers: Vec::new(),
        request_element,
        response_element,
        result_element: result_renamed,
        action: None,
        request_namespace: None,
        response_namespace: None,
        script_get: false,
    })
}

/// An RPC/encoded operation (`[SoapRpcMethod]`): its messages' parts are its parameters and,
/// out, its return value and out parameters, each of a named type. The return value is the
/// first output part `parameterOrder` does not list (the first output part without one, as
/// .NET's importer takes it); `{name}Result` is its default name, any other is
/// `[return: SoapElement(Name)]`. Over HTTP GET/POST a parameter is named after the C#
/// parameter, which `[SoapElement]` may rename over SOAP: an operation whose HTTP parts are
/// named otherwise than its SOAP ones is imported for SOAP only (a spec names a parameter once).
fn read_rpc_operation<'a, 'i>(
    op: Node<'a, 'i>,
    schema: &mut Schema<'a, 'i>,
    mut bindings: Vec<BindingName>,
    (request_ns, response_ns): (&str, &str),
    p: &mut Problems,
) -> Option<ImportedOperation> {
    let name = operation_key(op).to_owned();
    let method = op
        .attribute("name")
        .filter(|method| *method != name)
        .map(str::to_owned);
    let description = documentation(op);
    let (Some(input), Some(output)) = (child(op, WSDL, "input"), child(op, WSDL, "output")) else {
        p.at(
            op,
            format!("operation {name}: not request/response (an input and an output)"),
        );
        return None;
    };
    let parts = |io: Node<'a, 'i>| -> Vec<Node<'a, 'i>> {
        io.attribute("message")
            .and_then(|m| qname(io, m))
            .and_then(|(_, m)| schema.message(m))
            .map(|m| children(m, WSDL, "part").collect())
            .unwrap_or_default()
    };
    let (ins, outs) = (parts(input), parts(output));
    for part in ins.iter().chain(&outs) {
        if part.attribute("element").is_some() || part.attribute("type").is_none() {
            // .NET refuses an element (fatally) and skips a part of no type.
            p.at(
                *part,
                format!(
                    "operation {name}: an encoded message part of no type (or naming an \
                     element), which .NET refuses (Each message part in an use=encoded message \
                     must specify a type)"
                ),
            );
            return None;
        }
    }
    let mut params = Vec::new();
    for part in &ins {
        let param = part.attribute("name").unwrap_or_default();
        params.push((
            param.to_owned(),
            value_type(*part, schema, &name, param, p)?,
        ));
    }
    let order: Option<Vec<&str>> = op
        .attribute("parameterOrder")
        .map(|o| o.split_whitespace().collect());
    let result_at = match &order {
        Some(order) => outs
            .iter()
            .position(|part| !order.contains(&part.attribute("name").unwrap_or_default())),
        None => (!outs.is_empty()).then_some(0),
    };
    let result_name = format!("{name}Result");
    let (result, result_element) = match result_at {
        None => ("void".to_owned(), None),
        Some(at) => {
            let part = outs[at];
            let wire = part.attribute("name").unwrap_or_default();
            (
                value_type(part, schema, &name, "the result", p)?,
                (wire != result_name).then(|| wire.to_owned()),
            )
        }
    };
    let mut out_params = Vec::new();
    for (at, part) in outs.iter().enumerate() {
        if Some(at) == result_at {
            continue;
        }
        let out = part.attribute("name").unwrap_or_default();
        let what = format!("out parameter {out}");
        out_params.push((out.to_owned(), value_type(*part, schema, &name, &what, p)?));
    }
    // HTTP GET/POST name the parameters as the C# method does.
    let soap_names: Vec<&str> = params.iter().map(|(n, _)| n.as_str()).collect();
    for (binding, suffix) in [
        (BindingName::Get, "HttpGetIn"),
        (BindingName::Post, "HttpPostIn"),
    ] {
        let http_names: Option<Vec<&str>> = schema.message(&format!("{name}{suffix}")).map(|m| {
            children(m, WSDL, "part")
                .filter_map(|p| p.attribute("name"))
                .collect()
        });
        if http_names.is_some_and(|names| names != soap_names) {
            bindings.retain(|b| *b != binding);
        }
    }
    let tns = schema.tns;
    Some(ImportedOperation {
        name,
        description,
        params,
        result,
        outs: out_params,
        bindings,
        bare: false,
        rpc_method: !schema.rpc_service,
        method,
        headers: Vec::new(),
        request_element: None,
        response_element: None,
        result_element,
        action: None,
        request_namespace: (request_ns != tns).then(|| request_ns.to_owned()),
        response_namespace: (response_ns != tns).then(|| response_ns.to_owned()),
        script_get: false,
    })
}

/// The elements of a wrapper element's `complexType/sequence` (none for an empty type).
fn sequence<'a, 'i>(
    wrapper: Node<'a, 'i>,
    schema: &Schema<'a, 'i>,
    operation: &str,
    p: &mut Problems,
) -> Option<Vec<Node<'a, 'i>>> {
    let Some(complex) = child(wrapper, XSD, "complexType") else {
        p.at(
            wrapper,
            format!(
                "operation {operation}: the element {} is not a wrapper (an inline complexType)",
                wrapper.attribute("name").unwrap_or_default()
            ),
        );
        return None;
    };
    // An attribute on a wrapper element (.NET: a parameter of its own) would be lost.
    if let Some(other) = complex
        .children()
        .filter(Node::is_element)
        .find(|n| !is(*n, XSD, "sequence") && !is(*n, XSD, "annotation"))
        .filter(|n| n.tag_name().name().contains("ttribute"))
    {
        p.at(
            other,
            format!(
                "operation {operation}: {} on the wrapper element {}, which rmm does not import",
                other.tag_name().name(),
                wrapper.attribute("name").unwrap_or_default()
            ),
        );
        return None;
    }
    let Some(sequence) = child(complex, XSD, "sequence") else {
        if let Some(other) = complex.children().find(Node::is_element) {
            p.at(
                other,
                format!(
                    "operation {operation}: {} in a wrapper; rmm reads a sequence",
                    other.tag_name().name()
                ),
            );
            return None;
        }
        return Some(Vec::new());
    };
    let mut elements = Vec::new();
    for node in sequence.children().filter(Node::is_element) {
        if is(node, XSD, "element") && node.attribute("ref").is_some() {
            // `<s:element ref="tns:Token" />`: the global element, a parameter named after it.
            let reference = node.attribute("ref").and_then(|r| qname(node, r));
            let global = reference.and_then(|(ns, local)| schema.element_in(ns, local));
            match (reference, global) {
                (Some((ns, _)), Some(global)) if Some(ns) == target_namespace(wrapper) => {
                    elements.push(global)
                }
                (Some((ns, local)), Some(_)) => p.at(
                    node,
                    format!(
                        "operation {operation}: a reference to the element {local} of the \
                         namespace {ns}, which is not the operation's; rmm does not import a \
                         parameter of another namespace yet"
                    ),
                ),
                _ => p.at(
                    node,
                    format!(
                        "operation {operation}: a reference to an element the schema does not \
                         declare ({})",
                        node.attribute("ref").unwrap_or_default()
                    ),
                ),
            }
        } else if is(node, XSD, "element") {
            let name = node.attribute("name");
            if elements.iter().any(|e: &Node| e.attribute("name") == name) {
                p.at(
                    node,
                    format!(
                        "operation {operation}: the element {} twice in a wrapper; .NET \
                         refuses such an operation",
                        name.unwrap_or_default()
                    ),
                );
            } else {
                elements.push(node);
            }
        } else {
            p.at(
                node,
                format!(
                    "operation {operation}: {} in a sequence; rmm reads elements of simple types",
                    node.tag_name().name()
                ),
            );
        }
    }
    Some(elements)
}

/// Whether `element` (of a wrapper's sequence) is of a class and nillable, which
/// XmlSerializer makes an element of a class with `[XmlRoot]` only: named after the root,
/// present (`minOccurs="1"`), `xsi:nil` for a null.
fn is_root_element(element: Node<'_, '_>, schema: &Schema<'_, '_>) -> bool {
    element.attribute("nillable") == Some("true")
        && element.attribute("minOccurs") == Some("1")
        && element
            .attribute("type")
            .and_then(|t| qname(element, t))
            .is_some_and(|(_, local)| {
                schema
                    .complex_types
                    .iter()
                    .any(|c| c.attribute("name") == Some(local))
                    && !local.starts_with("ArrayOf")
            })
}

/// The root an element of a class is named after, where a result showed its class's root
/// and the element is nillable, present and of that name.
fn root_of_element<'s>(element: Node<'_, '_>, schema: &'s Schema<'_, '_>) -> Option<&'s str> {
    if !is_root_element(element, schema) {
        return None;
    }
    let class = element
        .attribute("type")
        .and_then(|t| qname(element, t))
        .map(|(_, local)| local)?;
    let name = element.attribute("name")?;
    schema
        .roots
        .iter()
        .find(|(c, root)| c == class && root == name)
        .map(|(_, root)| root.as_str())
}

/// Records `root` as the root of the class `ty`; a class named two ways is refused.
fn set_root(
    element: Node<'_, '_>,
    ty: &str,
    root: &str,
    schema: &mut Schema<'_, '_>,
    operation: &str,
    p: &mut Problems,
) -> Option<()> {
    let class = schema.classes.iter_mut().find(|c| c.name == ty)?;
    match &class.root {
        Some(known) if known != root => {
            p.at(
                element,
                format!(
                    "operation {operation}: an element of class {ty} named {root}, where another \
                     is named {known}: a class's root ([XmlRoot]) names them all alike"
                ),
            );
            None
        }
        _ => {
            class.root = Some(root.to_owned());
            Some(())
        }
    }
}

/// The spec's type of a parameter, result or member element, nullable marked `?`.
fn value_type<'a, 'i>(
    element: Node<'a, 'i>,
    schema: &mut Schema<'a, 'i>,
    operation: &str,
    what: &str,
    p: &mut Problems,
) -> Option<String> {
    let whose = if what == "the result" {
        format!("operation {operation}: the result")
    } else if what.contains(' ') {
        format!("operation {operation}: {what}")
    } else {
        format!("operation {operation}: parameter {what}")
    };
    if element.attribute("maxOccurs").unwrap_or("1") != "1" {
        p.at(
            element,
            format!(
                "{whose} has maxOccurs=\"{}\" (an array without a wrapper, [XmlElement] on an \
                 array); rmm does not import one yet",
                element.attribute("maxOccurs").unwrap_or_default()
            ),
        );
        return None;
    }
    let Some((ns, local)) = element.attribute("type").and_then(|t| qname(element, t)) else {
        // .NET's XmlElement: an inline type of one plain xs:any (mixed: an XmlNode), a
        // parameter, result or member.
        if let Some(ty) = raw_xml_type(element) {
            return Some(ty.to_owned());
        }
        // A DataSet: a parameter's or result's (a member's is not carried yet).
        if !schema.member_context && !schema.header_context {
            if let Some(form) = data_set_form(element) {
                schema.dataset_wsdl.get_or_insert(form);
                return Some("dataSet".to_owned());
            }
            if is_data_table(element) {
                return Some("dataTable".to_owned());
            }
        }
        // .NET's object: an element of no type and no content, not nillable (XmlSerializer
        // makes one nillable only by [XmlElement(IsNullable = true)]).
        if element.children().all(|n| !n.is_element())
            && element.attribute("nillable") != Some("true")
        {
            return Some("object".to_owned());
        }
        let raw_xml = element.descendants().any(|n| is(n, XSD, "any"));
        // A typed DataSet: one xs:any of the set's own namespace, whose schema the WSDL
        // imports (`?schema=Name`).
        let typed_data_set = element
            .descendants()
            .filter(|n| is(*n, XSD, "any"))
            .find_map(|n| n.attribute("namespace"))
            .filter(|ns| !ns.starts_with("##") && *ns != XSD && *ns != DIFFGRAM);
        if let Some(ns) = typed_data_set {
            return typed_data_set_type(element, ns, schema, &whose, p);
        }
        let what = if raw_xml {
            "raw XML (an inline type holding xs:any: .NET's XmlNode or XmlElement), which rmm \
             does not import yet"
        } else if element.children().any(|n| n.is_element()) {
            "no named type (an inline type), which rmm does not import"
        } else {
            "no type (xs:anyType: .NET's object) and is nillable ([XmlElement(IsNullable = \
             true)]), which rmm does not import"
        };
        p.at(element, format!("{whose} has {what}"));
        return None;
    };
    let ty = named_type(element, ns, local, schema, &whose, p)?;
    let value_type = is_value_type(&ty, schema);
    let member = schema.member_context;
    if let Some(default) = element.attribute("default") {
        // A class member's [DefaultValue] of a type the spec takes a default of: the map form
        // (the validator checks the value).
        // An enum's default must be one of its values (.NET refuses any other).
        let takes_default = SoapType::from_name(&ty).is_some_and(SoapType::takes_default)
            || schema
                .enums
                .iter()
                .any(|e| e.name == ty && !e.flags && e.values.iter().any(|v| v == default));
        if member && takes_default && element.attribute("nillable") != Some("true") {
            return Some(format!(
                "{{type: {}, default: {}}}",
                quoted(&ty),
                quoted(default)
            ));
        }
        let only = if member {
            format!(
                "of a number, boolean, string, dateTime, guid or enum member, and this one is {ty}"
            )
        } else {
            "on class members only".to_owned()
        };
        p.at(
            element,
            format!(
                "{whose} has the default value {default:?} ([DefaultValue]: left out when equal \
                 to it), which rmm imports {only}"
            ),
        );
        return None;
    }
    if value_type && element.attribute("minOccurs") == Some("0") {
        // A class member's xxxSpecified: the map form (of a Nullable<T> where nillable).
        if member {
            let ty = if element.attribute("nillable") == Some("true") {
                format!("{ty}?")
            } else {
                ty
            };
            return Some(format!("{{type: {}, optional: true}}", quoted(&ty)));
        }
        p.at(
            element,
            format!(
                "{whose} is a value type with minOccurs=\"0\" (an optional value: .NET's \
                 xxxSpecified), which rmm imports on class members only"
            ),
        );
        return None;
    }
    let nullable = element.attribute("nillable") == Some("true") && value_type;
    Some(if nullable { format!("{ty}?") } else { ty })
}

/// The spec type of a typed DataSet of namespace `ns` (`element`'s): its name, the set read
/// from the schema document the WSDL imports for that namespace (once).
fn typed_data_set_type(
    element: Node,
    ns: &str,
    schema: &mut Schema,
    whose: &str,
    p: &mut Problems,
) -> Option<String> {
    if schema.member_context || schema.header_context {
        p.at(
            element,
            format!("{whose} is a typed DataSet, which rmm carries as a parameter or result only"),
        );
        return None;
    }
    if let Some(set) = schema.data_sets.iter().find(|d| d.namespace == ns) {
        return Some(set.name.clone());
    }
    let refused = format!("typed DataSet {ns}");
    if schema.refused.contains(&refused) {
        p.at(
            element,
            format!("{whose} is the typed DataSet of namespace {ns}, refused above"),
        );
        return None;
    }
    let Some(document) = p.schema_documents.iter().find(|d| d.namespace == ns) else {
        schema.refused.push(refused);
        p.at(
            element,
            format!(
                "{whose} is a typed DataSet (an xs:any of its namespace {ns}), whose schema \
                 the WSDL does not import with a schemaLocation"
            ),
        );
        return None;
    };
    let location = document.location.clone();
    let read = match &document.text {
        Ok(text) => super::data_set::read(text, &location),
        Err(why) => {
            let message = format!(
                "{whose} is a typed DataSet (an xs:any of its namespace {ns}), whose schema \
                 at {location} could not be read: {why}"
            );
            schema.refused.push(refused);
            p.at(element, message);
            return None;
        }
    };
    match read {
        Ok(set) if set.namespace == ns => {
            let name = set.name.clone();
            schema.data_sets.push(set);
            Some(name)
        }
        Ok(set) => {
            schema.refused.push(refused);
            p.at(
                element,
                format!(
                    "{whose} is a typed DataSet of namespace {ns}, whose schema at {location} \
                     is of the namespace {}",
                    set.namespace
                ),
            );
            None
        }
        Err(errors) => {
            schema.refused.push(refused);
            p.at(
                element,
                format!(
                    "{whose} is a typed DataSet of namespace {ns}, whose schema at {location} \
                     does not import (the problems in it follow)"
                ),
            );
            p.found.extend(errors);
            None
        }
    }
}

/// Whether the spec type `ty` is a .NET value type (which `nillable` makes `Nullable<T>`),
/// not a reference (a string, byte array, class or array).
fn is_value_type(ty: &str, schema: &Schema) -> bool {
    !(ty == "string"
        || ty == "base64Binary"
        || ty.ends_with("[]")
        || schema.classes.iter().any(|c| c.name == ty))
}

/// The spec's spelling of the type `{ns}local` that `node` names: a simple type, an enum, a
/// class (read, with the classes it uses, the first time), or an array (`OrderLine[]`).
fn named_type<'a, 'i>(
    node: Node<'a, 'i>,
    ns: &str,
    local: &str,
    schema: &mut Schema<'a, 'i>,
    whose: &str,
    p: &mut Problems,
) -> Option<String> {
    let simple = match ns {
        // .NET's object, where a schema names its type (ASMX leaves it out).
        XSD if local == "anyType" => Some("object".to_owned()),
        // SOAP encoding's simple types are XML Schema's under another namespace (.NET's
        // static table, `AddSoapEncodedTypes`, for literal schemas too): `soapenc:string`,
        // `soapenc:base64`.
        SOAP_ENCODING if local == "base64" => Some("base64Binary".to_owned()),
        SOAP_ENCODING => SoapType::from_name(local)
            .filter(|ty| !ty.in_microsoft_namespace())
            .map(|ty| ty.name().to_owned()),
        XSD | MICROSOFT => SoapType::from_name(local)
            .filter(|ty| ty.in_microsoft_namespace() == (ns == MICROSOFT))
            .map(|ty| ty.name().to_owned()),
        _ => None,
    };
    if let Some(simple) = simple {
        return Some(simple);
    }
    if ns == XSD && NOT_YET.contains(&local) {
        p.at(
            node,
            format!("{whose} is {local}, which rmm does not generate yet"),
        );
        return None;
    }
    if ns == XSD {
        // A built-in type of XML Schema that XmlSerializer maps to no type rmm carries
        // (`xs:ID`, `xs:date`, `xs:token`: .NET's `[XmlElement(DataType = …)]`).
        p.at(
            node,
            format!(
                "{whose} is of the XML Schema type {local} (.NET's DataType = \"{local}\"), \
                 which rmm does not carry yet"
            ),
        );
        return None;
    }
    let tns = schema.tns;
    let enum_namespace = |e: &ImportedEnum| e.namespace.clone().unwrap_or_else(|| tns.to_owned());
    if let Some(e) = schema.enums.iter().find(|e| e.name == local) {
        if enum_namespace(e) == ns {
            return Some(local.to_owned());
        }
        if schema
            .shadowed_enums
            .iter()
            .any(|s| s.attribute("name") == Some(local) && target_namespace(*s) == Some(ns))
        {
            p.at(
                node,
                format!(
                    "{whose} is of the enum {local} of the namespace {ns}, and an enum {local} \
                     of the namespace {} is imported too; rmm names a type once (.NET numbers \
                     the second, {local}1), and does not import two of one name yet",
                    enum_namespace(e)
                ),
            );
            return None;
        }
    }
    if schema.long_lists.contains(&local) {
        return Some("string".to_owned());
    }
    if let Some(ty) = schema.aliases.get(local) {
        return Some(ty.clone());
    }
    if schema
        .simple_types
        .iter()
        .any(|s| s.attribute("name") == Some(local))
    {
        // A simpleType that is no enum has been reported where it is declared.
        p.refused_again = Some(local.to_owned());
        return None;
    }
    // A class is named once: one of this name and namespace is it; one of this name in
    // another namespace is another type, which rmm cannot name apart yet (.NET numbers it).
    let of_namespace = |c: &ImportedClass| c.namespace.as_deref().unwrap_or(schema.tns) == ns;
    match schema.classes.iter().find(|c| c.name == local) {
        Some(class) if of_namespace(class) => return Some(local.to_owned()),
        Some(class) => {
            p.at(
                node,
                format!(
                    "{whose} is of the type {local} of the namespace {ns}, and a type {local} of \
                     the namespace {} is imported too; rmm names a type once (.NET numbers the \
                     second, {local}1), and does not import two of one name yet",
                    class.namespace.as_deref().unwrap_or(schema.tns)
                ),
            );
            return None;
        }
        None => {}
    }
    if schema.refused.iter().any(|r| r == local) {
        p.refused_again = Some(local.to_owned());
        return None;
    }
    let Some(complex) = schema
        .complex_types
        .iter()
        .copied()
        .find(|c| c.attribute("name") == Some(local) && target_namespace(*c) == Some(ns))
    else {
        p.at(
            node,
            format!("{whose} has the type {local} ({ns}), which the WSDL's schema does not define"),
        );
        return None;
    };
    if schema.encoded {
        if let Some(array_type) = encoded_array_type(complex) {
            return encoded_array(array_type, local, schema, whose, p);
        }
    }
    if let Some(item) = array_item(complex) {
        let item_what = format!("the items of {local}");
        schema.array_depth += 1;
        let item_ty = value_type_of_item(item, schema, whose, &item_what, p);
        schema.array_depth -= 1;
        return Some(format!("{}[]", item_ty?));
    }
    read_class(complex, local, schema, whose, p).then(|| local.to_owned())
}

/// The `wsdl:arrayType` attribute of an encoded array type: a `complexContent` restriction of
/// `soapenc:Array` whose attribute refers to `soapenc:arrayType` (SoapSchemaExporter's form).
fn encoded_array_type<'a, 'i>(complex: Node<'a, 'i>) -> Option<Node<'a, 'i>> {
    let restriction = child(child(complex, XSD, "complexContent")?, XSD, "restriction")?;
    let base = restriction
        .attribute("base")
        .and_then(|b| qname(restriction, b))?;
    if base != (SOAP_ENCODING, "Array") {
        return None;
    }
    children(restriction, XSD, "attribute").find(|a| a.attribute((WSDL, "arrayType")).is_some())
}

/// The spec type of an encoded array (`Point[]`) from its `wsdl:arrayType` (`tns:Point[]`):
/// one dimension of items of a type rmm carries.
fn encoded_array<'a, 'i>(
    attribute: Node<'a, 'i>,
    local: &str,
    schema: &mut Schema<'a, 'i>,
    whose: &str,
    p: &mut Problems,
) -> Option<String> {
    let value = attribute.attribute((WSDL, "arrayType")).unwrap_or_default();
    let Some(item) = value.strip_suffix("[]").filter(|i| !i.contains('[')) else {
        p.at(
            attribute,
            format!(
                "{whose} uses the encoded array {local} of wsdl:arrayType {value:?}: rmm \
                 imports an array of one dimension of items that are no arrays (T[])"
            ),
        );
        return None;
    };
    let Some((ns, item_local)) = qname(attribute, item) else {
        p.at(
            attribute,
            format!(
                "{whose} uses the encoded array {local}, whose item type {item:?} names no type"
            ),
        );
        return None;
    };
    let item_ty = named_type(attribute, ns, item_local, schema, whose, p)?;
    if item_ty.ends_with("[]") {
        p.at(
            attribute,
            format!(
                "{whose} uses the encoded array {local} of arrays, which rmm does not carry yet"
            ),
        );
        return None;
    }
    Some(format!("{item_ty}[]"))
}

/// The item element of a complex type of XmlSerializer's array shape (`ArrayOfX`: a sequence
/// of one element, `minOccurs="0" maxOccurs="unbounded"`, and nothing else).
fn array_item<'a, 'i>(complex: Node<'a, 'i>) -> Option<Node<'a, 'i>> {
    let name = complex.attribute("name")?;
    if !name.starts_with("ArrayOf") {
        return None;
    }
    let mut content = complex.children().filter(Node::is_element);
    let sequence = content.next().filter(|s| is(*s, XSD, "sequence"))?;
    if content.next().is_some() {
        return None;
    }
    let mut items = sequence.children().filter(Node::is_element);
    let item = items.next().filter(|e| is(*e, XSD, "element"))?;
    if items.next().is_some() || item.attribute("maxOccurs") != Some("unbounded") {
        return None;
    }
    Some(item)
}

/// The spec's type of an array's item, `?` for a nillable value type (`int?`); refused where
/// the item element is not named after its type (an `[XmlArrayItem]` rename, not imported
/// yet).
/// The raw XML type `element` is declared as, as ASMX declares an `XmlElement` (`xml`: an
/// inline complexType whose sequence holds one `xs:any` and nothing else) or an `XmlNode`
/// (`xmlNode`: the same type, mixed).
fn raw_xml_type(element: Node) -> Option<&'static str> {
    fn elements<'a, 'i>(n: Node<'a, 'i>) -> Vec<Node<'a, 'i>> {
        n.children().filter(|c| c.is_element()).collect()
    }
    let [complex] = elements(element)[..] else {
        return None;
    };
    if !is(complex, XSD, "complexType") {
        return None;
    }
    let [sequence] = elements(complex)[..] else {
        return None;
    };
    if !is(sequence, XSD, "sequence") {
        return None;
    }
    let [any] = elements(sequence)[..] else {
        return None;
    };
    if !is(any, XSD, "any") || any.attributes().len() != 0 {
        return None;
    }
    Some(match complex.attribute("mixed") {
        Some("true") => "xmlNode",
        _ => "xml",
    })
}

/// The XML Schema type `local` of `ns` when it is one .NET reads as a string, trimmed
/// (`xs:ID`: `DataType = "ID"`), which a member or attribute carries as its `data_type`.
fn collapsed_string<'s>(ns: &str, local: &'s str) -> Option<&'s str> {
    (ns == XSD && crate::model::COLLAPSED_STRINGS.contains(&local)).then_some(local)
}

/// The form of a DataSet's inline type, if `element` is declared as ASMX declares a
/// `DataSet` (`DataSet.GetDataSetSchema`): `<s:sequence><s:element ref="s:schema" /><s:any
/// /></s:sequence>` (1.0, .NET's default) or a `maxOccurs="unbounded"` sequence of two lax
/// `s:any` of XML Schema's and the diffgram's namespaces (2.0).
fn data_set_form(element: Node) -> Option<DataSetWsdl> {
    let (sequence, first, second) = two_particles(element)?;
    let schema_ref = first
        .attribute("ref")
        .and_then(|r| qname(first, r))
        .is_some_and(|(ns, local)| ns == XSD && local == "schema");
    if is(first, XSD, "element") && schema_ref && is(second, XSD, "any") {
        return Some(DataSetWsdl::V1);
    }
    (sequence.attribute("maxOccurs") == Some("unbounded")
        && lax_any(first, XSD)
        && lax_any(second, DIFFGRAM))
    .then_some(DataSetWsdl::V2)
}

/// Whether `element` is declared as ASMX declares a `DataTable`
/// (`DataTable.GetDataTableSchema`): a sequence of a lax `s:any` of XML Schema's namespace,
/// `maxOccurs="unbounded"`, and a lax `s:any` of the diffgram's, `minOccurs="1"`.
fn is_data_table(element: Node) -> bool {
    two_particles(element).is_some_and(|(sequence, first, second)| {
        sequence.attribute("maxOccurs").is_none()
            && lax_any(first, XSD)
            && first.attribute("maxOccurs") == Some("unbounded")
            && lax_any(second, DIFFGRAM)
            && second.attribute("minOccurs") == Some("1")
    })
}

/// The diffgram's namespace.
const DIFFGRAM: &str = "urn:schemas-microsoft-com:xml-diffgram-v1";

/// The sequence of `element`'s inline complex type and its two particles, if that is all
/// the type holds: the shape of a DataSet's and a DataTable's types.
fn two_particles<'a, 'i>(
    element: Node<'a, 'i>,
) -> Option<(Node<'a, 'i>, Node<'a, 'i>, Node<'a, 'i>)> {
    fn elements<'a, 'i>(n: Node<'a, 'i>) -> Vec<Node<'a, 'i>> {
        n.children().filter(|c| c.is_element()).collect()
    }
    let [complex] = elements(element)[..] else {
        return None;
    };
    let [sequence] = elements(complex)[..] else {
        return None;
    };
    if !is(complex, XSD, "complexType") || !is(sequence, XSD, "sequence") {
        return None;
    }
    let [first, second] = elements(sequence)[..] else {
        return None;
    };
    Some((sequence, first, second))
}

/// Whether `n` is an `xs:any` of the namespace `ns`, processed laxly.
fn lax_any(n: Node, ns: &str) -> bool {
    is(n, XSD, "any")
        && n.attribute("namespace") == Some(ns)
        && n.attribute("processContents") == Some("lax")
}

fn value_type_of_item<'a, 'i>(
    item: Node<'a, 'i>,
    schema: &mut Schema<'a, 'i>,
    whose: &str,
    what: &str,
    p: &mut Problems,
) -> Option<String> {
    let Some((ns, local)) = item.attribute("type").and_then(|t| qname(item, t)) else {
        // Items of raw XML (`ArrayOfXmlElement`, `ArrayOfXmlNode`): named after .NET's type,
        // of an inline type of one `xs:any`.
        if let Some(ty) = raw_xml_type(item) {
            let net = if ty == "xml" { "XmlElement" } else { "XmlNode" };
            if item.attribute("name") == Some(net) {
                return Some(ty.to_owned());
            }
            p.at(
                item,
                format!(
                    "{whose}: {what} are raw XML ({net}) named {}, not {net} (an \
                     [XmlArrayItem] rename), which rmm does not import",
                    item.attribute("name").unwrap_or_default()
                ),
            );
            return None;
        }
        // Items of .NET's object (`ArrayOfAnyType`): named `anyType`, of no type.
        if item.children().all(|n| !n.is_element()) {
            if item.attribute("name") == Some("anyType") {
                return Some("object".to_owned());
            }
            p.at(
                item,
                format!(
                    "{whose}: {what} are objects (no type) named {}, not anyType (an \
                     [XmlArrayItem] rename), which rmm does not import",
                    item.attribute("name").unwrap_or_default()
                ),
            );
            return None;
        }
        p.at(
            item,
            format!(
                "{whose}: {what} have no named type (an inline type), which rmm does not import"
            ),
        );
        return None;
    };
    let ty = named_type(item, ns, local, schema, whose, p)?;
    let name = item.attribute("name").unwrap_or_default();
    // A class member's array (not one nested in it) may rename its items.
    let member_array = schema.member_context && schema.array_depth == 1;
    if member_array {
        schema.item_rename = (name != local).then(|| name.to_owned());
    }
    if name != local && !member_array {
        p.at(
            item,
            format!(
                "{whose}: {what} are named {name}, not after their type {local} (an \
                 [XmlArrayItem] rename), which rmm imports for a class's member only"
            ),
        );
        return None;
    }
    let nullable = item.attribute("nillable") == Some("true") && is_value_type(&ty, schema);
    Some(if nullable { format!("{ty}?") } else { ty })
}

/// Reads the class `name` (its complexType `complex`) and the types its members use, listing
/// it in the schema first so that it may hold itself. Refuses, with the construct and where,
/// what rmm does not import yet: attributes, a base type, a choice, `xs:any`.
/// Whether following `complex`'s bases (`complexContent/extension`, by name) leads back to
/// it: a type that derives from itself, which no reading of its bases would end.
fn derives_from_itself(complex: Node, schema: &Schema) -> bool {
    let base_of = |node: Node| {
        child(node, XSD, "complexContent")
            .and_then(|content| child(content, XSD, "extension"))
            .and_then(|extension| {
                let (_, local) = qname(extension, extension.attribute("base")?)?;
                Some(local.to_owned())
            })
    };
    let name = complex.attribute("name");
    let mut current = complex;
    // A chain longer than the schema's types has gone round.
    for _ in 0..=schema.complex_types.len() {
        let Some(base) = base_of(current) else {
            return false;
        };
        if Some(base.as_str()) == name {
            return true;
        }
        let Some(next) = schema
            .complex_types
            .iter()
            .copied()
            .find(|c| c.attribute("name") == Some(base.as_str()))
        else {
            return false;
        };
        current = next;
    }
    true
}

fn read_class<'a, 'i>(
    complex: Node<'a, 'i>,
    name: &str,
    schema: &mut Schema<'a, 'i>,
    whose: &str,
    p: &mut Problems,
) -> bool {
    let refuse = |node: Node, construct: &str, schema: &mut Schema, p: &mut Problems| {
        p.at(
            node,
            format!(
                "{whose} uses the type {name}, which has {construct}; rmm does not import it yet"
            ),
        );
        schema.refused.push(name.to_owned());
        false
    };
    let construct_of = |node: Node| -> String {
        match node.tag_name().name() {
            "simpleContent" => "text content (simpleContent: [XmlText])".to_owned(),
            "attribute" => "an attribute ([XmlAttribute])".to_owned(),
            "choice" => "a choice (xs:choice)".to_owned(),
            "all" => "xs:all".to_owned(),
            "anyAttribute" => {
                "xs:anyAttribute of a namespace ([XmlAnyAttribute] takes any)".to_owned()
            }
            "restriction" => "a restriction of a complex type".to_owned(),
            other => other.to_owned(),
        }
    };
    // SOAP encoding's importer refuses what its form has not (`SoapSchemaImporter`: most of
    // it fatally), and rmm's encoded codec carries none of the rest.
    if schema.encoded {
        let found = complex.descendants().filter(Node::is_element).find_map(|n| {
            let construct = match n.tag_name().name() {
                "attribute" | "anyAttribute" | "attributeGroup" => {
                    "an attribute, which SOAP encoding has not (.NET: Attributes are not \
                     supported with encoded SOAP)"
                }
                "choice" => "a choice (.NET: Choice is not supported with encoded SOAP)",
                "group" => "a group reference (.NET: The ref syntax for groups is not supported with encoded SOAP)",
                "any" => "xs:any (.NET: Any may not be used with encoded SOAP)",
                "simpleContent" => {
                    "text content (simpleContent), which .NET's encoded importer reads as an \
                     empty class"
                }
                "element" if n.attribute("ref").is_some() => {
                    "an element reference (.NET: Element reference syntax not supported with \
                     encoded SOAP)"
                }
                "element" if n.attribute("substitutionGroup").is_some() => {
                    "a substitution group (.NET: Substitution group may not be used with encoded SOAP)"
                }
                "element" if n.attribute("maxOccurs").is_some_and(|m| m != "1") => {
                    "a repeated element (an array without a wrapper), which rmm's encoded codec \
                     does not carry yet"
                }
                "element" if n.attribute("type").is_none() => {
                    "an element of no type (.NET: the element does not specify a type)"
                }
                "element" if n.attribute("default").is_some() || n.attribute("fixed").is_some() => {
                    "a default or fixed value, which .NET ignores in SOAP encoding and rmm does \
                     not carry"
                }
                _ => return None,
            };
            Some((n, construct))
        });
        if let Some((node, construct)) = found {
            return refuse(node, construct, schema, p);
        }
    }
    // The class's content: a sequence, or a complexContent extension of its base holding one.
    let mut base = None;
    let mut holder = complex;
    if let Some(content) = child(complex, XSD, "complexContent") {
        let Some(extension) = child(content, XSD, "extension") else {
            let inner = content.children().find(Node::is_element).unwrap_or(content);
            return refuse(inner, &construct_of(inner), schema, p);
        };
        let base_type = extension
            .attribute("base")
            .and_then(|b| qname(extension, b));
        let Some((base_ns, base_local)) = base_type else {
            return refuse(extension, "an extension without a base", schema, p);
        };
        // The base is a class of the schema, read first; one that derives from itself (its
        // base, or a base's base, is the class) is no type (.NET's schema compiler refuses
        // the circular reference).
        if derives_from_itself(complex, schema) {
            return refuse(
                extension,
                "a base that derives from it (a circular base)",
                schema,
                p,
            );
        }
        let base_name = named_type(extension, base_ns, base_local, schema, whose, p);
        match base_name {
            Some(b) if schema.classes.iter().any(|c| c.name == b) => base = Some(b),
            Some(_) => {
                return refuse(extension, "a base that is not a class", schema, p);
            }
            None => {
                schema.refused.push(name.to_owned());
                return false;
            }
        }
        holder = extension;
    }
    // Reading the base may have read this class already (a base's derived classes are read
    // with it).
    if schema.classes.iter().any(|c| c.name == name) {
        return true;
    }
    // Text content ([XmlText]): simple content extending xs:string, with attributes.
    let mut text = None;
    if let Some(simple) = child(complex, XSD, "simpleContent") {
        let extension = child(simple, XSD, "extension");
        let base_type = extension.and_then(|e| e.attribute("base").and_then(|b| qname(e, b)));
        match (extension, base_type) {
            (Some(extension), Some((XSD, "string"))) => {
                text = Some("string".to_owned());
                holder = extension;
            }
            _ => {
                return refuse(
                    simple,
                    "text content of a type other than xs:string (simpleContent)",
                    schema,
                    p,
                )
            }
        }
    }
    let mut content = holder.children().filter(Node::is_element).filter(|n| {
        !(holder == complex && (is(*n, XSD, "complexContent") || is(*n, XSD, "simpleContent")))
    });
    let mut next = content.next();
    // The class's elements: a sequence, or a choice alone (a class of one choice member).
    let sequence = match next {
        Some(s) if is(s, XSD, "sequence") || is(s, XSD, "choice") => {
            next = content.next();
            Some(s)
        }
        _ => None,
    };
    let elements: Vec<Node> = match sequence {
        Some(c) if is(c, XSD, "choice") => vec![c],
        Some(s) => s.children().filter(Node::is_element).collect(),
        None => Vec::new(),
    };
    // A repeated sequence (.NET: each member an array) and mixed content (.NET: its text as a
    // `string[]` member), which a class of plain members would lose.
    if let Some(s) = sequence
        .filter(|s| is(*s, XSD, "sequence") && s.attribute("maxOccurs").is_some_and(|m| m != "1"))
    {
        return refuse(
            s,
            "a repeated sequence (maxOccurs on xs:sequence)",
            schema,
            p,
        );
    }
    let mixed = |n: Node| n.attribute("mixed") == Some("true");
    if mixed(complex) || child(complex, XSD, "complexContent").is_some_and(mixed) {
        return refuse(
            complex,
            "mixed content (text between its elements, [XmlText] string[])",
            schema,
            p,
        );
    }
    // Then its attributes ([XmlAttribute]), of simple types.
    let mut attributes = Vec::new();
    let mut any_attribute = None;
    while let Some(node) = next {
        // A SOAP header's class takes any attribute (soap:mustUnderstand, soap:actor); any
        // other's has an [XmlAnyAttribute] member, which wsdl.exe names `AnyAttr`.
        if is(node, XSD, "anyAttribute") && node.attributes().len() == 0 {
            if !schema.header_context {
                any_attribute = Some("AnyAttr".to_owned());
            }
            next = content.next();
            continue;
        }
        // `ref="xml:lang"`: an attribute of the XML namespace (`[XmlAttribute(Namespace =
        // XmlNs)]`), a string.
        if let Some(local) = node.attribute("ref").and_then(|r| r.strip_prefix("xml:")) {
            if is(node, XSD, "attribute") {
                attributes.push((
                    local.to_owned(),
                    format!(
                        "{{type: string, namespace: {}}}",
                        quoted(crate::model::XML_NS)
                    ),
                ));
                next = content.next();
                continue;
            }
        }
        if !is(node, XSD, "attribute") || node.attribute("ref").is_some() {
            return refuse(node, &construct_of(node), schema, p);
        }
        // A prohibited attribute is none (.NET makes no member of it).
        if node.attribute("use") == Some("prohibited") {
            next = content.next();
            continue;
        }
        // A fixed value (.NET: a field initialiser, always written) would be lost. A default
        // (`[DefaultValue]` and a field initialiser) is `default:`.
        if node.attribute("fixed").is_some() {
            return refuse(node, "an attribute with a fixed value", schema, p);
        }
        let default = node.attribute("default");
        let Some(attribute) = node.attribute("name").filter(|n| !n.is_empty()) else {
            return refuse(node, "an attribute without a name", schema, p);
        };
        // `[XmlAttribute(Form = Qualified)]`: of the class's namespace.
        let qualified = node.attribute("form") == Some("qualified");
        // No type at all is .NET's `string` (`ImportAttribute`); an inline simpleType, which
        // .NET makes an enum of where it enumerates, is refused.
        let typed = node.attribute("type").and_then(|t| qname(node, t));
        let (ns, local) = match typed {
            Some(named) => named,
            None if child(node, XSD, "simpleType").is_none()
                && node.attribute("type").is_none() =>
            {
                (XSD, "string")
            }
            None => return refuse(node, "an attribute without a named type", schema, p),
        };
        let (ty, data_type) = match collapsed_string(ns, local) {
            Some(data_type) => ("string".to_owned(), Some(data_type)),
            None => match named_type(node, ns, local, schema, whose, p) {
                Some(ty) => (ty, None),
                None => {
                    schema.refused.push(name.to_owned());
                    return false;
                }
            },
        };
        if ty.ends_with("[]") || ty == "object" || schema.classes.iter().any(|c| c.name == ty) {
            return refuse(node, "an attribute of a complex type", schema, p);
        }
        // A value type not `use="required"` is .NET's `xxxSpecified`: absent unless set; one
        // with a default is that value when absent instead.
        let optional = node.attribute("use") != Some("required")
            && default.is_none()
            && is_value_type(&ty, schema);
        let qualified = if qualified { ", qualified: true" } else { "" };
        let default = default.map_or_else(String::new, |d| format!(", default: {}", quoted(d)));
        let ty = match (data_type, optional) {
            (None, false) if qualified.is_empty() && default.is_empty() => ty,
            (None, optional) => format!(
                "{{type: {}{}{qualified}{default}}}",
                quoted(&ty),
                if optional { ", optional: true" } else { "" },
            ),
            (Some(d), _) => format!("{{type: \"string\"{qualified}, data_type: {d}{default}}}"),
        };
        attributes.push((attribute.to_owned(), ty));
        next = content.next();
    }
    let at = schema.classes.len();
    // A class of a schema of another namespace (a header class of its own, or one it holds).
    let namespace = target_namespace(complex)
        .filter(|ns| *ns != schema.tns)
        .map(str::to_owned);
    schema.classes.push(ImportedClass {
        root: None,
        namespace,
        name: name.to_owned(),
        base: base.clone(),
        is_abstract: complex.attribute("abstract") == Some("true"),
        attributes,
        text,
        any_attribute,
        members: Vec::new(),
    });
    let mut members = Vec::new();
    let mut ok = true;
    for &node in &elements {
        // `[XmlAnyElement]`: every element no other member takes (`xml[]`), or the last of
        // them (`xml`), a member `Any` as wsdl.exe names it. One of any namespace only.
        let plain_any = is(node, XSD, "any")
            && node
                .attributes()
                .all(|a| matches!(a.name(), "minOccurs" | "maxOccurs"))
            && node.attribute("minOccurs").unwrap_or("1") == "0";
        if plain_any
            && !members
                .iter()
                .any(|(_, ty): &(String, String)| ty.contains("any: true"))
        {
            let mut field = "Any".to_owned();
            let mut n = 1;
            while elements
                .iter()
                .any(|c| c.attribute("name") == Some(field.as_str()))
            {
                field = format!("Any{n}");
                n += 1;
            }
            let ty = if node.attribute("maxOccurs") == Some("unbounded") {
                "\"xml[]\""
            } else {
                "xml"
            };
            members.push((field, format!("{{type: {ty}, any: true}}")));
            continue;
        }
        if is(node, XSD, "choice") {
            match choice_member(node, &elements, &members, schema, whose, name, p) {
                Some(member) => members.push(member),
                None => ok = false,
            }
            continue;
        }
        if !is(node, XSD, "element") {
            let construct = match node.tag_name().name() {
                "any" if plain_any => "a second xs:any (two [XmlAnyElement] members)",
                "any" => {
                    "xs:any of a namespace or other than optional ([XmlAnyElement(Namespace)])"
                }
                "choice" => "a choice (xs:choice)",
                other => other,
            };
            p.at(
                node,
                format!("{whose} uses the type {name}, which has {construct}; rmm does not import it yet"),
            );
            ok = false;
            continue;
        }
        // `<s:element ref="tns:Token" />`: the global element of the class's namespace, a
        // member named after it (one of another namespace, or repeated, rmm does not import).
        let node = match node.attribute("ref") {
            None => node,
            Some(reference) => {
                let target = qname(node, reference);
                let global = target.and_then(|(ns, local)| schema.element_in(ns, local));
                let repeated = node.attribute("maxOccurs").is_some_and(|m| m != "1");
                match (target, global) {
                    (Some((ns, _)), Some(global))
                        if Some(ns) == target_namespace(complex) && !repeated =>
                    {
                        global
                    }
                    _ => {
                        p.at(
                            node,
                            format!(
                                "{whose} uses the type {name}, which has a reference to the \
                                 element {reference}{}; rmm imports a reference to a single \
                                 element its schema declares in the class's namespace only",
                                if repeated { ", repeated" } else { "" }
                            ),
                        );
                        ok = false;
                        continue;
                    }
                }
            }
        };
        let Some(member) = node.attribute("name").filter(|n| !n.is_empty()) else {
            p.at(
                node,
                format!("{whose} uses the type {name}, which has an element without a name"),
            );
            ok = false;
            continue;
        };
        if members.iter().any(|(m, _): &(String, String)| m == member)
            || inherited_member(schema, base.as_deref(), member)
        {
            p.at(
                node,
                format!(
                    "{whose} uses the type {name}, which declares the member {member} twice (or \
                     again after its base); .NET refuses such a class"
                ),
            );
            ok = false;
            continue;
        }
        // A fixed value (.NET: a field initialiser, always written) would be lost.
        if node.attribute("fixed").is_some() {
            p.at(
                node,
                format!(
                    "{whose} uses the type {name}, whose member {member} has a fixed value, \
                     which rmm does not import yet"
                ),
            );
            ok = false;
            continue;
        }
        let what = format!("member {member} of {name}");
        // An array without a wrapper: the member's element repeated.
        if node.attribute("maxOccurs") == Some("unbounded") {
            match unwrapped_member(node, schema, whose, &what, p) {
                Some(ty) => members.push((
                    member.to_owned(),
                    format!("{{type: {}, unwrapped: true}}", quoted(&ty)),
                )),
                None => ok = false,
            }
            continue;
        }
        // `[XmlElement(DataType = "ID")]` and the like: a string .NET reads trimmed.
        if let Some(data_type) = node
            .attribute("type")
            .and_then(|t| qname(node, t))
            .and_then(|(ns, local)| collapsed_string(ns, local))
        {
            if node.attribute("form").is_none() && node.attribute("nillable").is_none() {
                members.push((
                    member.to_owned(),
                    format!("{{type: \"string\", data_type: {data_type}}}"),
                ));
                continue;
            }
        }
        let saved = (
            schema.member_context,
            schema.array_depth,
            schema.item_rename.take(),
        );
        schema.member_context = true;
        schema.array_depth = 0;
        let ty = value_type(node, schema, operation_of(whose), &what, p);
        let rename = schema.item_rename.take();
        (
            schema.member_context,
            schema.array_depth,
            schema.item_rename,
        ) = saved;
        // `[XmlElement(Form = Unqualified)]`: an element of no namespace, of a simple type.
        // (Every member of an encoded schema is: that is SOAP encoding's form.)
        let unqualified = node.attribute("form") == Some("unqualified") && !schema.encoded;
        match (ty, rename) {
            (Some(ty), None) if unqualified => {
                // The type a map form names (`{type: "int?", optional: true}`), and its
                // options.
                let (named, options) = match ty.strip_prefix("{type: ") {
                    Some(rest) => {
                        let rest = rest.strip_suffix('}').unwrap_or(rest);
                        match rest.split_once(", ") {
                            Some((named, options)) => {
                                (named.trim_matches('"').to_owned(), format!(", {options}"))
                            }
                            None => (rest.trim_matches('"').to_owned(), String::new()),
                        }
                    }
                    None => (ty.clone(), String::new()),
                };
                let value = named.strip_suffix('?').unwrap_or(&named);
                let simple = SoapType::from_name(value)
                    .is_some_and(|t| !t.is_raw() && !t.is_complex())
                    || schema.enums.iter().any(|e| e.name == value);
                // A class of unqualified members only, outside inheritance (xsd.exe's
                // classes of a `form="unqualified"` schema).
                let plain_class = |c: &ImportedClass| {
                    c.base.is_none()
                        && !c.is_abstract
                        && c.text.is_none()
                        && c.any_attribute.is_none()
                        && c.namespace.is_none()
                        && c.members
                            .iter()
                            .all(|(_, t)| t.contains("unqualified: true"))
                        && !schema
                            .classes
                            .iter()
                            .any(|d| d.base.as_deref() == Some(c.name.as_str()))
                };
                let class = schema.classes.iter().find(|c| c.name == named);
                if simple || class.is_some_and(plain_class) {
                    members.push((
                        member.to_owned(),
                        format!("{{type: {}{options}, unqualified: true}}", quoted(&named)),
                    ));
                } else {
                    p.at(
                        node,
                        format!(
                            "{whose} uses the type {name}, whose member {member} is unqualified \
                             (form=\"unqualified\") and of the type {ty}; rmm imports an \
                             unqualified member of a simple type, or of a class of unqualified \
                             members outside inheritance"
                        ),
                    );
                    ok = false;
                }
            }
            (Some(ty), None) => members.push((member.to_owned(), ty)),
            (Some(ty), Some(item)) => members.push((
                member.to_owned(),
                format!("{{type: {}, item: {}}}", quoted(&ty), quoted(&item)),
            )),
            (None, _) => ok = false,
        }
    }
    if !ok {
        schema.classes.remove(at);
        schema.refused.push(name.to_owned());
        return false;
    }
    schema.classes[at].members = members;
    // The classes derived from it, which an element of it may hold ([XmlInclude] puts them
    // in the schema though no message names them).
    let derived: Vec<Node> = schema
        .complex_types
        .iter()
        .copied()
        .filter(|c| {
            child(*c, XSD, "complexContent")
                .and_then(|content| child(content, XSD, "extension"))
                .and_then(|e| e.attribute("base").and_then(|b| qname(e, b)))
                .is_some_and(|(_, local)| local == name)
        })
        .collect();
    for d in derived {
        let d_name = d.attribute("name").unwrap_or_default();
        if schema.classes.iter().any(|c| c.name == d_name)
            || schema.refused.iter().any(|r| r == d_name)
        {
            continue;
        }
        if !read_class(d, d_name, schema, whose, p) {
            return false;
        }
    }
    true
}

/// The member an `xs:choice` of the class `class` is (.NET's `object Item`, `object[] Items`
/// where it repeats, with one `[XmlElement(Name, Type)]` per alternative): its name, as
/// wsdl.exe names it (`Item`, numbered where another element of the class has the name), and
/// its spec text (`{choice: [Shape: Shape, Label: string], repeated: true}`). Refused, with
/// the construct: a choice of anything but named elements (a sequence, `xs:any`, a nested
/// choice, an element reference), and alternatives rmm does not carry (nillable, repeated,
/// arrays, objects, raw XML).
fn choice_member<'a, 'i>(
    choice: Node<'a, 'i>,
    elements: &[Node<'a, 'i>],
    members: &[(String, String)],
    schema: &mut Schema<'a, 'i>,
    whose: &str,
    class: &str,
    p: &mut Problems,
) -> Option<(String, String)> {
    let repeated = choice.attribute("maxOccurs").unwrap_or("1") != "1";
    let mut alternatives: Vec<(String, String)> = Vec::new();
    let mut ok = true;
    for node in choice.children().filter(Node::is_element) {
        let refuse = |p: &mut Problems, what: String| {
            p.at(
                node,
                format!(
                    "{whose} uses the type {class}, which has a choice (xs:choice) {what}; rmm \
                     does not import it yet"
                ),
            );
        };
        let Some(name) = node
            .attribute("name")
            .filter(|n| is(node, XSD, "element") && !n.is_empty())
        else {
            let what = match node.tag_name().name() {
                "element" if node.attribute("ref").is_some() => {
                    "of an element reference (a substitution group's or another namespace's)"
                        .to_owned()
                }
                "element" => "of an element without a name".to_owned(),
                other => format!("holding xs:{other}"),
            };
            refuse(p, what);
            ok = false;
            continue;
        };
        if node.attribute("maxOccurs").unwrap_or("1") != "1" {
            refuse(p, format!("whose alternative {name} repeats (maxOccurs)"));
            ok = false;
            continue;
        }
        let taken = alternatives.iter().any(|(a, _)| a == name)
            || members.iter().any(|(m, _)| m == name)
            || elements
                .iter()
                .any(|e| is(*e, XSD, "element") && e.attribute("name") == Some(name));
        if taken {
            refuse(
                p,
                format!("whose alternative {name} has the name of another element of the class"),
            );
            ok = false;
            continue;
        }
        let saved = (
            schema.member_context,
            schema.array_depth,
            schema.item_rename.take(),
        );
        schema.member_context = true;
        schema.array_depth = 0;
        let what = format!("alternative {name} of {class}");
        let ty = value_type(node, schema, operation_of(whose), &what, p);
        (
            schema.member_context,
            schema.array_depth,
            schema.item_rename,
        ) = saved;
        let Some(ty) = ty else {
            ok = false;
            continue;
        };
        // `Type?`: nillable (`int?` of a value type already is).
        let nillable = node.attribute("nillable") == Some("true");
        let ty = if nillable && !ty.ends_with('?') {
            format!("{ty}?")
        } else {
            ty
        };
        let carried = !ty.trim_end_matches('?').ends_with("[]")
            && !matches!(
                ty.trim_end_matches('?'),
                "object" | "xml" | "xmlNode" | "dataSet" | "dataTable"
            )
            && !schema
                .data_sets
                .iter()
                .any(|d| d.name == ty.trim_end_matches('?'));
        if !carried {
            refuse(
                p,
                format!(
                    "whose alternative {name} is of the type {ty} (rmm imports alternatives of \
                     simple types, enums and classes)"
                ),
            );
            ok = false;
            continue;
        }
        alternatives.push((name.to_owned(), ty));
    }
    if !ok {
        return None;
    }
    if alternatives.len() < 2 {
        p.at(
            choice,
            format!(
                "{whose} uses the type {class}, which has a choice (xs:choice) of {} \
                 alternative(s); rmm imports a choice of two or more",
                alternatives.len()
            ),
        );
        return None;
    }
    // wsdl.exe's name: `Item` (`Items`), numbered apart from the class's other elements.
    let base = if repeated { "Items" } else { "Item" };
    let mut field = base.to_owned();
    let mut n = 1;
    let taken = |field: &str| {
        members.iter().any(|(m, _)| m == field)
            || elements.iter().any(|e| e.attribute("name") == Some(field))
    };
    while taken(&field) {
        field = format!("{base}{n}");
        n += 1;
    }
    let listed: Vec<String> = alternatives
        .iter()
        .map(|(name, ty)| format!("{}: {}", flow_word(name), flow_word(ty)))
        .collect();
    let repeat = if repeated { ", repeated: true" } else { "" };
    Some((
        field,
        format!("{{choice: [{}]{repeat}}}", listed.join(", ")),
    ))
}

/// A name or type in a flow collection: as it is where YAML reads it so (`Shape`, `B-x`),
/// else quoted (`string[]`, `true`).
fn flow_word(text: &str) -> String {
    let plain = text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !matches!(
            text.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
        );
    if plain {
        text.to_owned()
    } else {
        quoted(text)
    }
}

/// The spec type (`string[]`) of a class member without a wrapper (`maxOccurs="unbounded"`:
/// `[XmlElement]` on an array), whose items are of the element's type, not nillable.
fn unwrapped_member<'a, 'i>(
    node: Node<'a, 'i>,
    schema: &mut Schema<'a, 'i>,
    whose: &str,
    what: &str,
    p: &mut Problems,
) -> Option<String> {
    let Some((ns, local)) = node.attribute("type").and_then(|t| qname(node, t)) else {
        p.at(
            node,
            format!(
                "{whose}: {what} repeats an element of no named type, which rmm does not import"
            ),
        );
        return None;
    };
    if node.attribute("nillable") == Some("true") {
        p.at(
            node,
            format!("{whose}: {what} repeats a nillable element, which rmm does not import yet"),
        );
        return None;
    }
    let ty = named_type(node, ns, local, schema, whose, p)?;
    if ty.ends_with("[]") {
        p.at(
            node,
            format!("{whose}: {what} repeats an array, which rmm does not import yet"),
        );
        return None;
    }
    Some(format!("{ty}[]"))
}

/// The operation's name in a `operation X: …` prefix.
fn operation_of(whose: &str) -> &str {
    whose
        .strip_prefix("operation ")
        .and_then(|rest| rest.split(':').next())
        .unwrap_or(whose)
}
