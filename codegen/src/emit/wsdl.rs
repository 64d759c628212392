//! `wsdl.rs`: the service's WSDL 1.1 document, as an ASMX host describes it.
//!
//! The whole document is written here, at generation time, in the exact layout Mono's
//! ASP.NET serves at `?wsdl` (two-space indentation, `\n` line ends, no final newline, the
//! prefixes `wsdl`, `s`, `soap`, `soap12`, `http`, `mime`, `tm`, `soapenc` and `tns`). The
//! generated file holds it as a few string constants around the four port addresses, the
//! only part that depends on the request.

use std::fmt::Write as _;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::type_name;
use crate::model::{Model, OperationModel};
use crate::spec::{BindingName, DataSetWsdl, SoapType};

/// The four bindings of an ASMX service, in WSDL order: binding (and port) name suffix,
/// and the prefix of its extension elements.
const BINDINGS: [(&str, &str); 4] = [
    ("Soap", "soap"),
    ("Soap12", "soap12"),
    ("HttpGet", "http"),
    ("HttpPost", "http"),
];

pub(super) fn emit(model: &Model) -> TokenStream {
    let mut pieces = pieces(model);
    // Before the ports' addresses: the typed DataSets' schema locations, if any.
    let schema_pieces = pieces.split_off(1).into_iter();
    let mut rest = pieces;
    let mut schema_pieces: Vec<String> = schema_pieces.collect();
    let port_pieces = schema_pieces.split_off(schema_pieces.len() - 4);
    rest.extend(port_pieces);
    let [head, soap12, http_get, http_post, tail] = <[String; 5]>::try_from(rest)
        .expect("four ports")
        .map(|p| text_literal(&p));
    let schema_count = Literal::usize_unsuffixed(schema_pieces.len());
    let schema_literals = schema_pieces.iter().map(|p| text_literal(p));
    let service = &model.service.name;
    let sets: Vec<String> = typed_data_sets(model)
        .iter()
        .map(|set| format!("`{}`", set.name))
        .collect();
    let varying = if sets.is_empty() {
        "only the four port addresses vary".to_owned()
    } else {
        format!(
            "only the addresses vary: the schema locations of the typed DataSets ({}), then \
             the four ports'",
            sets.join(", ")
        )
    };
    let module_doc = super::inner_doc(&format!(
        "The WSDL 1.1 document of `{service}`, byte for byte as an ASMX host serves it at `?wsdl`.\n\n\
         The document is fixed at generation time; {varying}. They are XML-escaped here, so a \
         hostile `Host` header cannot break out of the attribute."
    ));
    let port = |suffix: &str| format!("`{service}{suffix}`");
    let head_doc = super::doc(&if sets.is_empty() {
        format!(
            "The document up to the address of the port {}.",
            port("Soap")
        )
    } else {
        format!(
            "The document up to the address of the schema of the typed DataSet {}.",
            sets[0]
        )
    });
    let schema_const = if sets.is_empty() {
        quote!()
    } else {
        let doc = super::doc(&format!(
            "From the end of each schema location (of {}, in order) to the next address, \
             the last of them the address of the port {}.",
            sets.join(", "),
            port("Soap")
        ));
        quote! {
            #doc
            const AFTER_SCHEMA_ADDRESSES: [&str; #schema_count] = [#(#schema_literals),*];
        }
    };
    let (schema_len, schema_loop) = if sets.is_empty() {
        (quote!(), quote!())
    } else {
        (
            {
                let at = (0..schema_pieces.len()).map(Literal::usize_unsuffixed);
                quote!(#(+ AFTER_SCHEMA_ADDRESSES[#at].len())*)
            },
            quote! {
                for piece in AFTER_SCHEMA_ADDRESSES {
                    out.push_str(&address);
                    out.push_str(piece);
                }
            },
        )
    };
    let address_count = Literal::usize_unsuffixed(4 + schema_pieces.len());
    let soap12_doc = super::doc(&format!(
        "From the end of that address to the address of the port {}.",
        port("Soap12")
    ));
    let get_doc = super::doc(&format!(
        "From there to the address of the port {}.",
        port("HttpGet")
    ));
    let post_doc = super::doc(&format!(
        "From there to the address of the port {}.",
        port("HttpPost")
    ));
    quote! {
        #module_doc

        use std::borrow::Cow;

        #head_doc
        const HEAD: &str = #head;

        #schema_const

        #soap12_doc
        const BEFORE_SOAP12_ADDRESS: &str = #soap12;

        #get_doc
        const BEFORE_HTTP_GET_ADDRESS: &str = #http_get;

        #post_doc
        const BEFORE_HTTP_POST_ADDRESS: &str = #http_post;

        /// The rest of the document, after the last address.
        const TAIL: &str = #tail;

        /// The length of the document without its addresses.
        const FIXED_LEN: usize = HEAD.len()
            #schema_len
            + BEFORE_SOAP12_ADDRESS.len()
            + BEFORE_HTTP_GET_ADDRESS.len()
            + BEFORE_HTTP_POST_ADDRESS.len()
            + TAIL.len();

        /// The WSDL document with every port's address set to `address`
        /// (`http://host:port/path`, as the server computes it from the request).
        pub fn document(address: &str) -> String {
            let address = escape_attribute(address);
            let mut out = String::with_capacity(FIXED_LEN + #address_count * address.len());
            out.push_str(HEAD);
            #schema_loop
            for piece in [
                BEFORE_SOAP12_ADDRESS,
                BEFORE_HTTP_GET_ADDRESS,
                BEFORE_HTTP_POST_ADDRESS,
                TAIL,
            ] {
                out.push_str(&address);
                out.push_str(piece);
            }
            out
        }

        /// `value` as the content of a double-quoted XML attribute.
        fn escape_attribute(value: &str) -> Cow<'_, str> {
            if !value.contains(['&', '<', '>', '"']) {
                return Cow::Borrowed(value);
            }
            let mut out = String::with_capacity(value.len() + 16);
            for c in value.chars() {
                match c {
                    '&' => out.push_str("&amp;"),
                    '<' => out.push_str("&lt;"),
                    '>' => out.push_str("&gt;"),
                    '"' => out.push_str("&quot;"),
                    c => out.push(c),
                }
            }
            Cow::Owned(out)
        }
    }
}

/// `value` as XML text: `&`, `<` and `>` escaped, as .NET's XmlTextWriter writes text.
fn text(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `value` as the content of a double-quoted XML attribute.
fn attr(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The name of an operation in the port types and bindings, and the ` name="…"` of its input
/// and output: the method's and the operation's where `[WebMethod(MessageName)]` named it
/// otherwise (`method:`), else the operation's and none.
fn operation_names(op: &crate::model::OperationModel) -> (String, String) {
    match &op.method {
        Some(method) => (attr(method), format!(r#" name="{}""#, attr(&op.wire))),
        None => (attr(&op.wire), String::new()),
    }
}

/// The `location` of an operation in the HTTP GET/POST bindings: its HTTP path relative
/// to the service path (`/MobileTaskCreate`).
pub(super) fn http_location<'a>(model: &Model, op: &'a OperationModel) -> &'a str {
    op.http_path
        .strip_prefix(model.service.path.as_str())
        .expect("an operation's HTTP path extends the service path")
}

/// The SOAPAction of an operation without the quotes the header carries.
fn soap_action(op: &OperationModel) -> &str {
    op.soap_action
        .strip_prefix('"')
        .and_then(|a| a.strip_suffix('"'))
        .unwrap_or(&op.soap_action)
}

/// ` type="s:int"`, the type attribute of an element of `ty`: none for an `object`, which
/// XmlSerializer declares as an element without a type (`xs:anyType`).
fn type_attr(model: &Model, ty: SoapType) -> String {
    if ty == SoapType::Object {
        String::new()
    } else {
        format!(r#" type="{}""#, qname(model, ty))
    }
}

/// `s:int`, `s1:guid` for ASMX's own types, `tns:Level` for the service's enums, classes and
/// arrays.
fn qname(model: &Model, ty: SoapType) -> String {
    let prefix = match ty {
        SoapType::Class(_) => match model.class(ty).and_then(|c| c.namespace.as_deref()) {
            Some(ns) => foreign_prefix(model, ns),
            None => "tns".to_owned(),
        },
        SoapType::Enum(_) => match model.enum_of(ty).and_then(|e| e.namespace.as_deref()) {
            Some(ns) => foreign_prefix(model, ns),
            None => "tns".to_owned(),
        },
        SoapType::Array(_) => "tns".to_owned(),
        _ if ty.in_microsoft_namespace() => format!("s{}", model.foreign_namespaces.len() + 1),
        _ => "s".to_owned(),
    };
    format!("{prefix}:{}", type_name(model, ty))
}

/// The prefix of the namespace `ns` of a header class or an enum (`s1`, …).
/// ASMX numbers the prefixes as its reflector meets the namespaces: the headers' first
/// ([`Model::foreign_namespaces`]), then Microsoft's types (as the host does for a service
/// whose first operation reads such a header), then the abstract types.
fn foreign_prefix(model: &Model, ns: &str) -> String {
    let at = model
        .foreign_namespaces
        .iter()
        .position(|n| n == ns)
        .expect("a type's namespace");
    format!("s{}", at + 1)
}

/// An element of a wrapper's sequence, at 12 spaces (`attributes` its `minOccurs`,
/// `maxOccurs`, `name` and any `nillable`): of the type `type_attr` names (none for an
/// `object`), or for raw XML (.NET `XmlElement`) of an inline type holding one `s:any`, as
/// ASMX declares it.
fn sequence_element(
    w: &mut String,
    attributes: &str,
    ty: SoapType,
    type_attr: &str,
    dataset: DataSetWsdl,
    typed_namespace: Option<&str>,
) {
    if matches!(ty, SoapType::DataSet | SoapType::DataTable) {
        let _ = writeln!(w, "            <s:element {attributes}>");
        data_set_type(w, 14, ty, dataset);
        let _ = writeln!(w, "            </s:element>");
    } else if let Some(namespace) = typed_namespace {
        let _ = writeln!(w, "            <s:element {attributes}>");
        typed_data_set_type(w, 14, namespace);
        let _ = writeln!(w, "            </s:element>");
    } else if matches!(ty, SoapType::Xml | SoapType::XmlNode) {
        raw_xml_element(w, "            ", attributes, ty);
    } else {
        let _ = writeln!(w, r#"            <s:element {attributes}{type_attr} />"#);
    }
}

/// An element of raw XML (.NET `XmlElement`, `XmlNode`) at `pad`: of an inline type holding
/// one `s:any`, mixed for an `XmlNode` (which may be text), as ASMX declares it.
fn raw_xml_element(w: &mut String, pad: &str, attributes: &str, ty: SoapType) {
    let mixed = if ty == SoapType::XmlNode {
        r#" mixed="true""#
    } else {
        ""
    };
    let _ = writeln!(w, "{pad}<s:element {attributes}>");
    let _ = writeln!(w, "{pad}  <s:complexType{mixed}>");
    let _ = writeln!(w, "{pad}    <s:sequence>");
    let _ = writeln!(w, "{pad}      <s:any />");
    let _ = writeln!(w, "{pad}    </s:sequence>");
    let _ = writeln!(w, "{pad}  </s:complexType>");
    let _ = writeln!(w, "{pad}</s:element>");
}

/// The namespace of a typed DataSet, if `ty` is one.
fn typed_namespace(model: &Model, ty: SoapType) -> Option<&str> {
    match ty {
        SoapType::TypedDataSet(i) => Some(&model.data_sets[usize::from(i)].namespace),
        _ => None,
    }
}

/// A typed DataSet's inline type at `indent` spaces, as its `XmlSchemaProvider` (.NET's
/// `GetTypedDataSetSchema`) declares it: one `s:any` of its namespace, whose schema the
/// service's imports from `?schema=Name`.
fn typed_data_set_type(w: &mut String, indent: usize, namespace: &str) {
    let pad = " ".repeat(indent);
    let _ = writeln!(w, "{pad}<s:complexType>");
    let _ = writeln!(w, "{pad}  <s:sequence>");
    let _ = writeln!(w, r#"{pad}    <s:any namespace="{}" />"#, attr(namespace));
    let _ = writeln!(w, "{pad}  </s:sequence>");
    let _ = writeln!(w, "{pad}</s:complexType>");
}

/// A DataSet's inline type at `indent` spaces, as `DataSet.GetDataSetSchema` makes it in the
/// form `dataset` names; a DataTable's (`ty`) as `DataTable.GetDataTableSchema` makes it,
/// whatever the form.
fn data_set_type(w: &mut String, indent: usize, ty: SoapType, dataset: DataSetWsdl) {
    let pad = " ".repeat(indent);
    let _ = writeln!(w, "{pad}<s:complexType>");
    if ty == SoapType::DataTable {
        let _ = writeln!(w, "{pad}  <s:sequence>");
        let _ = writeln!(
            w,
            r#"{pad}    <s:any minOccurs="0" maxOccurs="unbounded" namespace="http://www.w3.org/2001/XMLSchema" processContents="lax" />"#
        );
        let _ = writeln!(
            w,
            r#"{pad}    <s:any minOccurs="1" namespace="urn:schemas-microsoft-com:xml-diffgram-v1" processContents="lax" />"#
        );
        let _ = writeln!(w, "{pad}  </s:sequence>");
        let _ = writeln!(w, "{pad}</s:complexType>");
        return;
    }
    match dataset {
        DataSetWsdl::V1 => {
            let _ = writeln!(w, "{pad}  <s:sequence>");
            let _ = writeln!(w, r#"{pad}    <s:element ref="s:schema" />"#);
            let _ = writeln!(w, "{pad}    <s:any />");
        }
        DataSetWsdl::V2 => {
            let _ = writeln!(w, r#"{pad}  <s:sequence maxOccurs="unbounded">"#);
            let _ = writeln!(
                w,
                r#"{pad}    <s:any minOccurs="0" namespace="http://www.w3.org/2001/XMLSchema" processContents="lax" />"#
            );
            let _ = writeln!(
                w,
                r#"{pad}    <s:any minOccurs="0" namespace="urn:schemas-microsoft-com:xml-diffgram-v1" processContents="lax" />"#
            );
        }
    }
    let _ = writeln!(w, "{pad}  </s:sequence>");
    let _ = writeln!(w, "{pad}</s:complexType>");
}

/// Which of the service's own types the schema holds already.
struct Written {
    enums: Vec<bool>,
    classes: Vec<bool>,
    arrays: Vec<bool>,
    /// SOAP encoding's forms (an rpc service's schema): members unqualified and never
    /// nillable, arrays restrictions of `soapenc:Array`.
    encoded: bool,
    /// The schemas of the namespaces other than the service's
    /// ([`Model::foreign_namespaces`], in order), written after the service's: the types
    /// (and a header class's element) declared in each.
    foreign: Vec<String>,
}

/// The schema a type of the namespace `ns` is declared in: the service's (`w`) for none.
fn schema_of<'w>(
    model: &Model,
    w: &'w mut String,
    written: &'w mut Written,
    ns: Option<&str>,
) -> &'w mut String {
    match ns {
        Some(ns) => {
            let at = model
                .foreign_namespaces
                .iter()
                .position(|n| n == ns)
                .expect("a namespace of the model");
            &mut written.foreign[at]
        }
        None => w,
    }
}

/// Writes the schema types of `types` not written yet, each followed by those its members or
/// items use (XmlSchemaExporter adds a type before exporting its members): into the service's
/// schema `w`, or the schema of the type's own namespace.
fn schema_types(model: &Model, w: &mut String, types: &[SoapType], written: &mut Written) {
    for &ty in types {
        match ty {
            SoapType::Enum(i) => {
                let i = usize::from(i);
                if std::mem::replace(&mut written.enums[i], true) {
                    continue;
                }
                let e = &model.enums[i];
                let w = schema_of(model, w, written, e.namespace.as_deref());
                let _ = writeln!(w, r#"      <s:simpleType name="{}">"#, attr(&e.name));
                // A flags enum is a list of its values.
                let indent = if e.flags {
                    let _ = writeln!(w, "        <s:list>");
                    let _ = writeln!(w, "          <s:simpleType>");
                    "    "
                } else {
                    ""
                };
                let _ = writeln!(w, r#"{indent}        <s:restriction base="s:string">"#);
                for (wire, _) in &e.values {
                    let _ = writeln!(
                        w,
                        r#"{indent}          <s:enumeration value="{}" />"#,
                        attr(wire)
                    );
                }
                let _ = writeln!(w, "{indent}        </s:restriction>");
                if e.flags {
                    let _ = writeln!(w, "          </s:simpleType>");
                    let _ = writeln!(w, "        </s:list>");
                }
                let _ = writeln!(w, "      </s:simpleType>");
            }
            SoapType::Class(i) => {
                let i = usize::from(i);
                if std::mem::replace(&mut written.classes[i], true) {
                    continue;
                }
                let class = &model.classes[i];
                // A derived class is written after its base (which an element of the derived
                // class alone would not have written yet).
                if let Some(base) = class.base {
                    schema_types(model, w, &[SoapType::Class(base as u16)], written);
                }
                let encoded = written.encoded;
                class_type(
                    model,
                    schema_of(model, w, written, class.namespace.as_deref()),
                    class,
                    encoded,
                );
                let members: Vec<SoapType> = class
                    .attributes
                    .iter()
                    .chain(&class.members)
                    // An `[XmlAnyElement]` member's type is no type of the schema.
                    .filter(|m| !m.any)
                    .flat_map(|m| match model.array(m.ty) {
                        // An unwrapped array's type is its items'.
                        Some(array) if m.unwrapped => vec![array.item],
                        // A choice's are its alternatives'.
                        _ => model.held_types(m.ty),
                    })
                    .collect();
                schema_types(model, w, &members, written);
                // Then the classes derived from it, each followed by its own (XmlSchemaExporter
                // exports a struct's derived mappings after its members).
                let direct: Vec<SoapType> = class
                    .derived
                    .iter()
                    .filter(|&&d| model.classes[d].base == Some(i))
                    .map(|&d| SoapType::Class(d as u16))
                    .collect();
                schema_types(model, w, &direct, written);
            }
            SoapType::Array(i) => {
                let i = usize::from(i);
                if std::mem::replace(&mut written.arrays[i], true) {
                    continue;
                }
                let array = &model.arrays[i];
                if written.encoded {
                    // SOAP encoding's array: a restriction of `soapenc:Array` naming its items'
                    // type (SoapSchemaExporter).
                    let _ = writeln!(w, r#"      <s:complexType name="{}">"#, attr(&array.name));
                    let _ = writeln!(w, r#"        <s:complexContent mixed="false">"#);
                    let _ = writeln!(w, r#"          <s:restriction base="soapenc:Array">"#);
                    let _ = writeln!(
                        w,
                        r#"            <s:attribute wsdl:arrayType="{}[]" ref="soapenc:arrayType" />"#,
                        qname(model, array.item)
                    );
                    let _ = writeln!(w, "          </s:restriction>");
                    let _ = writeln!(w, "        </s:complexContent>");
                    let _ = writeln!(w, "      </s:complexType>");
                    schema_types(model, w, &[array.item], written);
                    continue;
                }
                let nillable = if array.item_nillable {
                    r#" nillable="true""#
                } else {
                    ""
                };
                let _ = writeln!(w, r#"      <s:complexType name="{}">"#, attr(&array.name));
                let _ = writeln!(w, "        <s:sequence>");
                if matches!(array.item, SoapType::Xml | SoapType::XmlNode) {
                    let attributes = format!(
                        r#"minOccurs="0" maxOccurs="unbounded" name="{}"{nillable}"#,
                        attr(&array.item_name)
                    );
                    raw_xml_element(w, "          ", &attributes, array.item);
                } else {
                    let _ = writeln!(
                        w,
                        r#"          <s:element minOccurs="0" maxOccurs="unbounded" name="{}"{nillable}{} />"#,
                        attr(&array.item_name),
                        type_attr(model, array.item)
                    );
                }
                let _ = writeln!(w, "        </s:sequence>");
                let _ = writeln!(w, "      </s:complexType>");
                schema_types(model, w, &[array.item], written);
            }
            _ => {}
        }
    }
}

/// A class's `complexType`: its own members in a sequence, in a `complexContent` extension of
/// its base where it has one; `abstract="true"` for an abstract class.
fn class_type(model: &Model, w: &mut String, class: &crate::model::ClassModel, encoded: bool) {
    let name = attr(&class.name);
    let abstract_attr = if class.is_abstract {
        r#" abstract="true""#
    } else {
        ""
    };
    // Attributes follow the content; a value type's is required.
    // Its own attributes: those it inherits its base's type declares.
    let attributes = |w: &mut String, indent: &str| {
        for a in &class.attributes[class.inherited_attributes..] {
            if a.namespace.as_deref() == Some(crate::model::XML_NS) {
                // An attribute of the XML namespace (`xml:lang`): a reference to it, the
                // schema importing the namespace.
                let _ = writeln!(
                    w,
                    r#"{indent}      <s:attribute ref="xml:{}" use="optional" />"#,
                    attr(&a.wire)
                );
                continue;
            }
            // An optional value type (`xxxSpecified`) has no `use`, as a reference.
            let required = if a.ty.is_reference() || a.optional {
                ""
            } else {
                r#" use="required""#
            };
            // `[XmlAttribute(Form = Qualified)]`: the form before the name.
            let form = if a.qualified_namespace().is_some() {
                r#"form="qualified" "#
            } else {
                ""
            };
            let ty = match &a.data_type {
                Some(data_type) => format!("s:{data_type}"),
                None => qname(model, a.ty),
            };
            // `[DefaultValue]`: the default first, and no `use`.
            let (default, required) = match &a.default {
                Some(default) => (format!(r#"default="{}" "#, attr(default)), ""),
                None => (String::new(), required),
            };
            let _ = writeln!(
                w,
                r#"{indent}      <s:attribute {default}{form}name="{}" type="{ty}"{required} />"#,
                attr(&a.wire),
            );
        }
        // `[XmlAnyAttribute]`: any attribute (a SOAP header's type says so below).
        if class.any_attribute.is_some() && !class.header {
            let _ = writeln!(w, "{indent}      <s:anyAttribute />");
        }
    };
    if let Some(text) = &class.text {
        // A class of text and attributes: simple content extending the text's type.
        let _ = writeln!(w, r#"      <s:complexType name="{name}"{abstract_attr}>"#);
        let _ = writeln!(w, "        <s:simpleContent>");
        if class.attributes.is_empty() {
            let _ = writeln!(
                w,
                r#"          <s:extension base="{}" />"#,
                qname(model, text.ty)
            );
        } else {
            let _ = writeln!(
                w,
                r#"          <s:extension base="{}">"#,
                qname(model, text.ty)
            );
            attributes(w, "      ");
            let _ = writeln!(w, "          </s:extension>");
        }
        let _ = writeln!(w, "        </s:simpleContent>");
        let _ = writeln!(w, "      </s:complexType>");
        return;
    }
    if class.base.is_none()
        && class.members.is_empty()
        && (!class.attributes.is_empty() || class.any_attribute.is_some())
    {
        let _ = writeln!(w, r#"      <s:complexType name="{name}"{abstract_attr}>"#);
        attributes(w, "  ");
        let _ = writeln!(w, "      </s:complexType>");
        return;
    }
    let (close, indent) = match class.base {
        Some(base) => {
            let _ = writeln!(w, r#"      <s:complexType name="{name}"{abstract_attr}>"#);
            let _ = writeln!(w, r#"        <s:complexContent mixed="false">"#);
            let base = attr(&model.classes[base].name);
            if class.members.is_empty() {
                let _ = writeln!(w, r#"          <s:extension base="tns:{base}" />"#);
                let _ = writeln!(w, "        </s:complexContent>");
                let _ = writeln!(w, "      </s:complexType>");
                return;
            }
            let _ = writeln!(w, r#"          <s:extension base="tns:{base}">"#);
            (
                "          </s:extension>\n        </s:complexContent>\n      </s:complexType>",
                "    ",
            )
        }
        None if class.members.is_empty() => {
            let _ = writeln!(w, r#"      <s:complexType name="{name}"{abstract_attr} />"#);
            return;
        }
        None => {
            let _ = writeln!(w, r#"      <s:complexType name="{name}"{abstract_attr}>"#);
            ("      </s:complexType>", "")
        }
    };
    let _ = writeln!(w, "{indent}        <s:sequence>");
    for m in &class.members {
        if let Some(choice) = model.choice(m.ty) {
            // `xs:choice`, as XmlSchemaExporter writes it: `1..1` for a single member (which
            // a null one still leaves out), `0..unbounded` for an array; each alternative with
            // the occurrences a member of its type would have.
            let occurs = if choice.repeated {
                r#"minOccurs="0" maxOccurs="unbounded""#
            } else {
                r#"minOccurs="1" maxOccurs="1""#
            };
            let _ = writeln!(w, "{indent}          <s:choice {occurs}>");
            for a in &choice.alternatives {
                // A nillable element is always there (nil where null), as for a member.
                let min = if a.ty.is_reference() && !a.nillable {
                    0
                } else {
                    1
                };
                let nillable = if a.nillable {
                    r#" nillable="true""#
                } else {
                    ""
                };
                let _ = writeln!(
                    w,
                    r#"{indent}            <s:element minOccurs="{min}" maxOccurs="1" name="{}"{nillable}{} />"#,
                    attr(&a.wire),
                    type_attr(model, a.ty)
                );
            }
            let _ = writeln!(w, "{indent}          </s:choice>");
            continue;
        }
        if m.unwrapped {
            // An array without a wrapper: its items, repeated.
            let item = model.array(m.ty).expect("an array").item;
            let _ = writeln!(
                w,
                r#"{indent}          <s:element minOccurs="0" maxOccurs="unbounded" name="{}"{} />"#,
                attr(&m.wire),
                type_attr(model, item)
            );
            continue;
        }
        if m.any {
            // `[XmlAnyElement]`: any element, where the member stands.
            let max = if matches!(m.ty, SoapType::Array(_)) {
                "unbounded"
            } else {
                "1"
            };
            let _ = writeln!(
                w,
                r#"{indent}          <s:any minOccurs="0" maxOccurs="{max}" />"#
            );
            continue;
        }
        if matches!(m.ty, SoapType::Xml | SoapType::XmlNode) {
            let attributes = format!(r#"minOccurs="0" maxOccurs="1" name="{}""#, attr(&m.wire));
            raw_xml_element(w, &format!("{indent}          "), &attributes, m.ty);
            continue;
        }
        if encoded {
            // SoapSchemaExporter: unqualified, a reference may be absent, never nillable.
            let min = if m.ty.is_reference() { 0 } else { 1 };
            let _ = writeln!(
                w,
                r#"{indent}          <s:element minOccurs="{min}" maxOccurs="1" form="unqualified" name="{}"{} />"#,
                attr(&m.wire),
                type_attr(model, m.ty)
            );
            continue;
        }
        // A reference may be absent, and so may an optional value type or one with a
        // default; any other value type is always there.
        let absent = m.ty.is_reference() || m.optional || m.default.is_some();
        let min = if absent { 0 } else { 1 };
        let nillable = if m.nullable {
            r#" nillable="true""#
        } else {
            ""
        };
        // XmlSerializer writes the default between the occurrences and the name.
        let default = match &m.default {
            Some(value) => format!(r#" default="{}""#, attr(value)),
            None => String::new(),
        };
        // `[XmlElement(Form = Unqualified)]`: the form between the occurrences and the name.
        let form = if m.unqualified {
            r#" form="unqualified""#
        } else {
            ""
        };
        let _ = writeln!(
            w,
            r#"{indent}          <s:element minOccurs="{min}" maxOccurs="1"{default}{form} name="{}"{nillable}{} />"#,
            attr(&m.wire),
            match &m.data_type {
                Some(data_type) => format!(r#" type="s:{data_type}""#),
                None => type_attr(model, m.ty),
            }
        );
    }
    let _ = writeln!(w, "{indent}        </s:sequence>");
    attributes(w, "  ");
    if class.header {
        // A SoapHeader's type takes any attribute (soap:mustUnderstand, soap:actor).
        let _ = writeln!(w, "{indent}        <s:anyAttribute />");
    }
    let _ = writeln!(w, "{close}");
}

/// Whether a value of `ty` reaches a type for which `wanted` holds: itself, its members (and
/// its derived classes'), its items.
fn reaches(model: &Model, ty: SoapType, wanted: &dyn Fn(SoapType) -> bool) -> bool {
    fn walk(
        model: &Model,
        ty: SoapType,
        wanted: &dyn Fn(SoapType) -> bool,
        seen: &mut Vec<bool>,
    ) -> bool {
        if wanted(ty) {
            return true;
        }
        match ty {
            SoapType::Array(i) => walk(model, model.arrays[usize::from(i)].item, wanted, seen),
            SoapType::Class(i) => {
                let i = usize::from(i);
                if std::mem::replace(&mut seen[i], true) {
                    return false;
                }
                let class = &model.classes[i];
                let types: Vec<SoapType> = class
                    .fields()
                    .flat_map(|m| model.held_types(m.ty))
                    .chain(class.derived.iter().map(|&d| SoapType::Class(d as u16)))
                    .collect();
                types.into_iter().any(|t| walk(model, t, wanted, seen))
            }
            _ => false,
        }
    }
    walk(model, ty, wanted, &mut vec![false; model.classes.len()])
}

/// The document, cut at each address: before the schema locations of the typed DataSets, then
/// before the four ports' addresses.
fn pieces(model: &Model) -> Vec<String> {
    let ns = attr(&model.service.namespace);
    let service = attr(&model.service.name);
    let mut w = String::with_capacity(128 * 1024);
    let w = &mut w;
    // `write!` into a String cannot fail.
    macro_rules! put {
        ($($arg:tt)*) => {{
            let _ = writeln!(w, $($arg)*);
        }};
    }

    // ASMX declares `char` and `guid` in a schema of their own namespace, imported by the
    // service's; the types in the order the operations first use them.
    let mut microsoft_types: Vec<SoapType> = Vec::new();
    for op in &model.operations {
        let used = op.params.iter().map(|p| p.ty).chain([op.result]);
        for ty in used.filter(|t| t.in_microsoft_namespace()) {
            if !microsoft_types.contains(&ty) {
                microsoft_types.push(ty);
            }
        }
    }
    // A class with an attribute of the XML namespace (`xml:lang`) makes its schema import
    // that namespace; the service's schema imports it and Microsoft's in the order the
    // operations first use them.
    let xml_classes: Vec<bool> = model
        .classes
        .iter()
        .map(|c| {
            c.attributes
                .iter()
                .any(|a| a.namespace.as_deref() == Some(crate::model::XML_NS))
        })
        .collect();
    let first_use = |wanted: &dyn Fn(SoapType) -> bool| {
        model
            .operations
            .iter()
            .position(|op| op.value_types().any(|ty| reaches(model, ty, wanted)))
    };
    let xml_import = first_use(&|ty| match ty {
        SoapType::Class(i) => {
            xml_classes[usize::from(i)] && model.classes[usize::from(i)].namespace.is_none()
        }
        _ => false,
    });
    let microsoft_import = model.operations.iter().position(|op| {
        op.params
            .iter()
            .map(|p| p.ty)
            .chain([op.result])
            .any(|t| t.in_microsoft_namespace())
    });
    // A byte array or an array over HTTP GET/POST is an array of strings (one pair per item),
    // which ASMX declares in a schema of `{ns}/AbstractTypes`.
    let is_array = |ty: SoapType| matches!(ty, SoapType::Base64Binary | SoapType::Array(_));
    let string_array = model
        .operations
        .iter()
        .any(|op| op.over_http() && op.params.iter().any(|p| is_array(p.ty)));
    // `/` between them unless the namespace ends with one (HttpProtocolReflector).
    let abstract_ns = if ns.ends_with('/') {
        format!("{ns}AbstractTypes")
    } else {
        format!("{ns}/AbstractTypes")
    };
    // An rpc service (`[SoapRpcService]`) declares its types in SOAP encoding's forms and its
    // HTTP GET/POST results' elements in a schema of `{ns}/literalTypes` of their own.
    let rpc = model.service.rpc;
    let literal_ns = if ns.ends_with('/') {
        format!("{ns}literalTypes")
    } else {
        format!("{ns}/literalTypes")
    };
    let rpc_service = model.service.rpc_service;
    let literal_results = rpc_service
        && model
            .operations
            .iter()
            .any(|op| op.over_http() && op.result != SoapType::Void);
    // The schemas' prefixes are numbered as ASMX meets their namespaces: Microsoft's types
    // (imported by the service's schema) first, then the abstract types. A prefix's place
    // among the declarations follows its name, as entries of one hash table do: `s1` after
    // `soap12`, `s2` first (the reference host's types and objects services).
    // Header classes' namespaces first, then Microsoft's, then the abstract types (see
    // `foreign_prefix`).
    let foreign: Vec<&str> = model
        .foreign_namespaces
        .iter()
        .map(String::as_str)
        .collect();
    let mut prefixed: Vec<&str> = foreign.clone();
    if !microsoft_types.is_empty() {
        prefixed.push("http://microsoft.com/wsdl/types/");
    }
    if literal_results {
        prefixed.push(&literal_ns);
    }
    if string_array {
        prefixed.push(&abstract_ns);
    }
    let prefix_of = |namespace: &str| {
        prefixed
            .iter()
            .position(|n| *n == namespace)
            .map_or(String::new(), |at| format!("s{}", at + 1))
    };
    let abstract_prefix = prefix_of(&abstract_ns);
    let literal_prefix = prefix_of(&literal_ns);
    let (first, after_soap12, after_tm) = {
        let mut first = String::new();
        let mut after = String::new();
        let mut after_tm = String::new();
        for (at, namespace) in prefixed.iter().enumerate() {
            let declaration = format!(r#"xmlns:s{}="{namespace}" "#, at + 1);
            // `s2` sorts first in the host's table, `s1` after `soap12`, `s3` after `tm`
            // (the encoded service); further ones (never seen on the host) after `s1`.
            if at == 1 {
                first = declaration;
            } else if at == 2 && rpc_service {
                after_tm = declaration;
            } else {
                after.push_str(&declaration);
            }
        }
        (first, after, after_tm)
    };
    let string_array_type = format!("{abstract_prefix}:StringArray");
    // `s:int`, `s1:guid` for ASMX's own types, `tns:Level` for the service's enums.
    let qname = |ty: SoapType| qname(model, ty);
    // An enum's simpleType, a class's or an array's complexType follows the first element
    // that uses it, and a class's member types follow the class, as ASMX's schema exporter
    // writes types where it meets them (depth first, each once).
    let mut written = Written {
        enums: vec![false; model.enums.len()],
        classes: vec![false; model.classes.len()],
        arrays: vec![false; model.arrays.len()],
        encoded: rpc,
        foreign: vec![String::new(); foreign.len()],
    };

    put!(r#"<?xml version="1.0" encoding="utf-8"?>"#);
    put!(
        r#"<wsdl:definitions {first}xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" {after_soap12}xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" xmlns:tns="{ns}" xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/" xmlns:tm="http://microsoft.com/wsdl/mime/textMatching/" {after_tm}xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" targetNamespace="{ns}" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">"#
    );

    // The service's description, twice: the document's and (below) the service's, as ASMX
    // writes both from `[WebService(Description)]`.
    let service_documentation = model.service.description.as_deref().map(|d| {
        format!(
            r#"<wsdl:documentation xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">{}</wsdl:documentation>"#,
            text(d)
        )
    });
    if let Some(documentation) = &service_documentation {
        put!("  {documentation}");
    }

    // Types: a request and a response element per operation, then the root elements of the
    // HTTP GET/POST results.
    put!("  <wsdl:types>");
    put!(r#"    <s:schema elementFormDefault="qualified" targetNamespace="{ns}">"#);
    let xml_first = match (xml_import, microsoft_import) {
        (Some(x), Some(m)) => x <= m,
        _ => true,
    };
    if xml_import.is_some() && xml_first {
        put!(r#"      <s:import namespace="http://www.w3.org/XML/1998/namespace" />"#);
    }
    if !microsoft_types.is_empty() {
        put!(r#"      <s:import namespace="http://microsoft.com/wsdl/types/" />"#);
    }
    if xml_import.is_some() && !xml_first {
        put!(r#"      <s:import namespace="http://www.w3.org/XML/1998/namespace" />"#);
    }
    // The namespaces of enums of another (`[XmlType(Namespace)]`), whose types the service's
    // schema names.
    for ns in &foreign {
        if model
            .enums
            .iter()
            .any(|e| e.namespace.as_deref() == Some(*ns))
        {
            put!(r#"      <s:import namespace="{}" />"#, attr(ns));
        }
    }
    if rpc && !model.arrays.is_empty() {
        // SOAP encoding's arrays restrict `soapenc:Array` with a `wsdl:arrayType`.
        put!(r#"      <s:import namespace="http://schemas.xmlsoap.org/soap/encoding/" />"#);
        put!(r#"      <s:import namespace="http://schemas.xmlsoap.org/wsdl/" />"#);
    }
    // A typed DataSet's schema is the service's own document at `?schema=Name`, which the
    // service's schema imports twice, as the host writes it: its namespace alone, then with
    // its location (the address the request came to, where the document is cut).
    let mut pieces = Vec::with_capacity(5);
    for set in typed_data_sets(model) {
        let set_ns = attr(&set.namespace);
        put!(r#"      <s:import namespace="{set_ns}" />"#);
        let _ = write!(w, r#"      <s:import schemaLocation=""#);
        pieces.push(std::mem::take(w));
        put!(r#"?schema={}" namespace="{set_ns}" />"#, attr(&set.name));
    }
    // The global elements a bare operation declares: once each, where first met.
    let mut bare_declared: Vec<&str> = Vec::new();
    // The header blocks' global elements: once each, after the response element of the first
    // operation that uses it, its type after it, as ASMX writes them: the request's headers
    // first (the input header serializer's), then the response's.
    let mut headers_declared: Vec<usize> = Vec::new();
    // A header class of another namespace is declared in a schema of its own namespace, after
    // the service's: its element, its type and the classes it holds, in `written.foreign`.
    let header_elements = |w: &mut String,
                           written: &mut Written,
                           op: &crate::model::OperationModel,
                           declared: &mut Vec<usize>| {
        for h in op.in_headers().chain(op.output_headers()) {
            if declared.contains(&h.class) {
                continue;
            }
            declared.push(h.class);
            let class = SoapType::Class(u16::try_from(h.class).expect("a class index"));
            let name = attr(&h.wire);
            let type_qname = qname(class);
            let ns = model.classes[h.class].namespace.as_deref();
            let _ = writeln!(
                schema_of(model, w, written, ns),
                r#"      <s:element name="{name}" type="{type_qname}" />"#
            );
            schema_types(model, w, &[class], written);
        }
    };
    for op in &model.operations {
        if rpc {
            // Types only, no elements: the parameters' types, then the result's and the out
            // parameters', as first used.
            let params: Vec<SoapType> = op.params.iter().map(|p| p.ty).collect();
            schema_types(model, w, &params, &mut written);
            let outs: Vec<SoapType> = std::iter::once(op.result)
                .filter(|ty| *ty != SoapType::Void)
                .chain(op.outs.iter().map(|o| o.ty))
                .collect();
            schema_types(model, w, &outs, &mut written);
            continue;
        }
        if op.bare {
            // Each parameter, then the result, an element of its own (not nillable: a null
            // is left out).
            let result = (op.result != SoapType::Void).then_some((
                op.result_name.as_str(),
                op.result,
                op.result_nullable,
            ));
            let elements = op
                .params
                .iter()
                .map(|p| (p.wire.as_str(), p.ty, p.nullable))
                .chain(result);
            for (name, ty, nullable) in elements {
                if bare_declared.contains(&name) {
                    continue;
                }
                bare_declared.push(name);
                let nillable = if nullable { r#" nillable="true""# } else { "" };
                if matches!(ty, SoapType::Xml | SoapType::XmlNode) {
                    // Raw XML: an inline type of one `s:any` (mixed for a node).
                    raw_xml_element(w, "      ", &format!(r#"name="{}""#, attr(name)), ty);
                    continue;
                }
                put!(
                    r#"      <s:element name="{}"{nillable}{} />"#,
                    attr(name),
                    type_attr(model, ty)
                );
                schema_types(model, w, &[ty], &mut written);
            }
            header_elements(w, &mut written, op, &mut headers_declared);
            continue;
        }
        put!(r#"      <s:element name="{}">"#, attr(&op.request_element));
        if op.params.is_empty() {
            put!("        <s:complexType />");
        } else {
            put!("        <s:complexType>");
            put!("          <s:sequence>");
            for p in &op.params {
                // Strings may be absent (a null reference); value types must be present, and
                // so must a class with a root (nil for a null).
                let min = if p.ty.is_reference() && !p.nillable {
                    0
                } else {
                    1
                };
                let nillable = if p.nullable || p.nillable {
                    r#" nillable="true""#
                } else {
                    ""
                };
                sequence_element(
                    w,
                    &format!(
                        r#"minOccurs="{min}" maxOccurs="1" name="{}"{nillable}"#,
                        attr(&p.wire)
                    ),
                    p.ty,
                    &type_attr(model, p.ty),
                    model.service.dataset_wsdl,
                    typed_namespace(model, p.ty),
                );
            }
            put!("          </s:sequence>");
            put!("        </s:complexType>");
        }
        put!("      </s:element>");
        let param_types: Vec<SoapType> = op.params.iter().map(|p| p.ty).collect();
        schema_types(model, w, &param_types, &mut written);
        put!(r#"      <s:element name="{}">"#, attr(&op.response_name));
        // The result (unless void), then the out and ref parameters, as parameters are.
        // (name, type, nullable, nillable reference: a class with a root).
        let mut elements: Vec<(&str, SoapType, bool, bool)> = Vec::new();
        if op.result != SoapType::Void {
            elements.push((
                &op.result_name,
                op.result,
                op.result_nullable,
                op.result_nillable,
            ));
        }
        elements.extend(
            op.outs
                .iter()
                .map(|o| (o.wire.as_str(), o.ty, o.nullable, false)),
        );
        if elements.is_empty() {
            put!("        <s:complexType />");
            put!("      </s:element>");
            header_elements(w, &mut written, op, &mut headers_declared);
            continue;
        }
        put!("        <s:complexType>");
        put!("          <s:sequence>");
        for (name, ty, nullable, nil_reference) in &elements {
            // As for parameters: a reference may be absent, a value type's is always there,
            // and so is a class with a root (nil for a null).
            let min = if ty.is_reference() && !nil_reference {
                0
            } else {
                1
            };
            let nillable = if *nullable || *nil_reference {
                r#" nillable="true""#
            } else {
                ""
            };
            sequence_element(
                w,
                &format!(
                    r#"minOccurs="{min}" maxOccurs="1" name="{}"{nillable}"#,
                    attr(name)
                ),
                *ty,
                &type_attr(model, *ty),
                model.service.dataset_wsdl,
                typed_namespace(model, *ty),
            );
        }
        put!("          </s:sequence>");
        put!("        </s:complexType>");
        put!("      </s:element>");
        let types: Vec<SoapType> = elements.iter().map(|(_, ty, _, _)| *ty).collect();
        schema_types(model, w, &types, &mut written);
        header_elements(w, &mut written, op, &mut headers_declared);
    }
    // The root elements of the HTTP GET/POST results, one per result type of the operations
    // offered there, in the order they first use them; only a string (a reference) is
    // nillable (the reference host lists no root for an operation offered over SOAP only).
    let mut result_types: Vec<(SoapType, bool)> = Vec::new();
    for op in model
        .operations
        .iter()
        // Raw XML is a document of its own, of no declared element.
        .filter(|op| {
            op.over_http()
                && !matches!(
                    op.result,
                    SoapType::Void | SoapType::Xml | SoapType::XmlNode
                )
        })
    {
        // A `date` is written there as the `DateTime` it holds.
        let document = match op.result {
            SoapType::Date => SoapType::DateTime,
            ty => ty,
        };
        if !result_types.iter().any(|(ty, _)| *ty == document) {
            result_types.push((document, op.result_nullable));
        }
    }
    // An rpc service's are in a schema of their own (below).
    let mut literal_schema = String::new();
    if rpc_service {
        let mut literal_written = Written {
            enums: vec![false; model.enums.len()],
            classes: vec![false; model.classes.len()],
            arrays: vec![false; model.arrays.len()],
            encoded: false,
            // An rpc service's types are all of its namespace (validated).
            foreign: vec![String::new(); foreign.len()],
        };
        for (ty, nullable) in std::mem::take(&mut result_types) {
            let name = model.root_name(ty);
            let qname = match ty {
                SoapType::Array(_) => format!("{literal_prefix}:{name}"),
                ty => qname(ty),
            };
            let nillable = if ty.is_reference() || nullable {
                r#" nillable="true""#
            } else {
                ""
            };
            let _ = writeln!(
                literal_schema,
                r#"      <s:element name="{name}"{nillable} type="{qname}" />"#
            );
            schema_types(model, &mut literal_schema, &[ty], &mut literal_written);
        }
    }
    for (ty, nullable) in &result_types {
        // Named after the type, or its class's root.
        let (name, qname) = (model.root_name(*ty), qname(*ty));
        if matches!(ty, SoapType::DataSet | SoapType::DataTable) {
            put!(r#"      <s:element name="{name}" nillable="true">"#);
            data_set_type(w, 8, *ty, model.service.dataset_wsdl);
            put!("      </s:element>");
        } else if let SoapType::TypedDataSet(i) = ty {
            put!(r#"      <s:element name="{name}" nillable="true">"#);
            typed_data_set_type(w, 8, &model.data_sets[usize::from(*i)].namespace);
            put!("      </s:element>");
        } else if ty.is_reference() || *nullable {
            let type_attr = type_attr(model, *ty);
            put!(r#"      <s:element name="{name}" nillable="true"{type_attr} />"#);
        } else {
            put!(r#"      <s:element name="{name}" type="{qname}" />"#);
        }
    }
    put!("    </s:schema>");
    for (ns, schema) in foreign.iter().zip(&written.foreign) {
        put!(
            r#"    <s:schema elementFormDefault="qualified" targetNamespace="{}">"#,
            attr(ns)
        );
        let imports_xml = model
            .classes
            .iter()
            .zip(&xml_classes)
            .any(|(c, xml)| *xml && c.namespace.as_deref() == Some(*ns));
        if imports_xml {
            put!(r#"      <s:import namespace="http://www.w3.org/XML/1998/namespace" />"#);
        }
        w.push_str(schema);
        put!("    </s:schema>");
    }
    if !microsoft_types.is_empty() {
        put!(
            r#"    <s:schema elementFormDefault="qualified" targetNamespace="http://microsoft.com/wsdl/types/">"#
        );
        for ty in &microsoft_types {
            put!(r#"      <s:simpleType name="{}">"#, type_name(model, *ty));
            if *ty == SoapType::Guid {
                put!(r#"        <s:restriction base="s:string">"#);
                put!(
                    r#"          <s:pattern value="[0-9a-fA-F]{{8}}-[0-9a-fA-F]{{4}}-[0-9a-fA-F]{{4}}-[0-9a-fA-F]{{4}}-[0-9a-fA-F]{{12}}" />"#
                );
                put!("        </s:restriction>");
            } else {
                put!(r#"        <s:restriction base="s:unsignedShort" />"#);
            }
            put!("      </s:simpleType>");
        }
        put!("    </s:schema>");
    }
    if literal_results {
        put!(r#"    <s:schema elementFormDefault="qualified" targetNamespace="{literal_ns}">"#);
        w.push_str(&literal_schema);
        put!("    </s:schema>");
    }
    if string_array {
        put!(r#"    <s:schema targetNamespace="{abstract_ns}">"#);
        put!(r#"      <s:import namespace="http://schemas.xmlsoap.org/soap/encoding/" />"#);
        put!(r#"      <s:complexType name="StringArray">"#);
        put!(r#"        <s:complexContent mixed="false">"#);
        put!(r#"          <s:restriction base="soapenc:Array">"#);
        put!("            <s:sequence>");
        put!(
            r#"              <s:element minOccurs="0" maxOccurs="unbounded" name="String" type="s:string" />"#
        );
        put!("            </s:sequence>");
        put!("          </s:restriction>");
        put!("        </s:complexContent>");
        put!("      </s:complexType>");
        put!("    </s:schema>");
    }
    put!("  </wsdl:types>");

    // Messages: SOAP (one element part each way), then HTTP GET, then HTTP POST (one
    // s:string part per parameter in, the result type's element out).
    for op in &model.operations {
        let name = attr(&op.wire);
        if rpc {
            // A part per parameter, of its type; the result's and the out parameters'.
            let ins: Vec<(&str, SoapType)> =
                op.params.iter().map(|p| (p.wire.as_str(), p.ty)).collect();
            let outs: Vec<(&str, SoapType)> = std::iter::once((op.result_name.as_str(), op.result))
                .filter(|(_, ty)| *ty != SoapType::Void)
                .chain(op.outs.iter().map(|o| (o.wire.as_str(), o.ty)))
                .collect();
            for (suffix, parts) in [("SoapIn", ins), ("SoapOut", outs)] {
                if parts.is_empty() {
                    put!(r#"  <wsdl:message name="{name}{suffix}" />"#);
                    continue;
                }
                put!(r#"  <wsdl:message name="{name}{suffix}">"#);
                for (part, ty) in parts {
                    put!(
                        r#"    <wsdl:part name="{}"{} />"#,
                        attr(part),
                        type_attr(model, ty)
                    );
                }
                put!("  </wsdl:message>");
            }
            continue;
        }
        if op.bare {
            // A part per parameter, and the result's, each its own element.
            if op.params.is_empty() {
                put!(r#"  <wsdl:message name="{name}SoapIn" />"#);
            } else {
                put!(r#"  <wsdl:message name="{name}SoapIn">"#);
                for p in &op.params {
                    let part = attr(&p.wire);
                    put!(r#"    <wsdl:part name="{part}" element="tns:{part}" />"#);
                }
                put!("  </wsdl:message>");
            }
            if op.result == SoapType::Void {
                put!(r#"  <wsdl:message name="{name}SoapOut" />"#);
            } else {
                // The part is the return value's member, `{name}Result`, whatever its
                // element is called (`[return: XmlElement(Name)]`).
                put!(r#"  <wsdl:message name="{name}SoapOut">"#);
                let element = attr(&op.result_name);
                put!(r#"    <wsdl:part name="{name}Result" element="tns:{element}" />"#);
                put!("  </wsdl:message>");
            }
        } else {
            put!(r#"  <wsdl:message name="{name}SoapIn">"#);
            put!(
                r#"    <wsdl:part name="parameters" element="tns:{}" />"#,
                attr(&op.request_element)
            );
            put!("  </wsdl:message>");
            put!(r#"  <wsdl:message name="{name}SoapOut">"#);
            put!(
                r#"    <wsdl:part name="parameters" element="tns:{}" />"#,
                attr(&op.response_name)
            );
            put!("  </wsdl:message>");
        }
        // A message per header block it uses, in spec order: `{operation}{header}`.
        for h in &op.headers {
            let header = attr(&h.wire);
            let prefix = match model.classes[h.class].namespace.as_deref() {
                Some(ns) => foreign_prefix(model, ns),
                None => "tns".to_owned(),
            };
            put!(r#"  <wsdl:message name="{name}{header}">"#);
            put!(r#"    <wsdl:part name="{header}" element="{prefix}:{header}" />"#);
            put!("  </wsdl:message>");
        }
    }
    for suffix in ["HttpGet", "HttpPost"] {
        for op in model
            .operations
            .iter()
            .filter(|op| offered(op, spec_bindings(suffix, false)))
        {
            let name = attr(&op.wire);
            if op.params.is_empty() {
                put!(r#"  <wsdl:message name="{name}{suffix}In" />"#);
            } else {
                put!(r#"  <wsdl:message name="{name}{suffix}In">"#);
                for p in &op.params {
                    let ty = if is_array(p.ty) {
                        string_array_type.as_str()
                    } else {
                        "s:string"
                    };
                    put!(r#"    <wsdl:part name="{}" type="{ty}" />"#, attr(&p.wire));
                }
                put!("  </wsdl:message>");
            }
            if op.result == SoapType::Void {
                // Nothing comes back: a message without parts.
                put!(r#"  <wsdl:message name="{name}{suffix}Out" />"#);
            } else if matches!(op.result, SoapType::Xml | SoapType::XmlNode) {
                // Raw XML: a document of no declared element.
                put!(r#"  <wsdl:message name="{name}{suffix}Out">"#);
                put!(r#"    <wsdl:part name="Body" />"#);
                put!("  </wsdl:message>");
            } else {
                put!(r#"  <wsdl:message name="{name}{suffix}Out">"#);
                let prefix = if rpc_service {
                    literal_prefix.as_str()
                } else {
                    "tns"
                };
                put!(
                    r#"    <wsdl:part name="Body" element="{prefix}:{}" />"#,
                    model.root_name(op.result)
                );
                put!("  </wsdl:message>");
            }
        }
    }

    // Port types: one shared by both SOAP bindings, one per HTTP binding.
    for (port_type, messages) in [
        ("Soap", "Soap"),
        ("HttpGet", "HttpGet"),
        ("HttpPost", "HttpPost"),
    ] {
        put!(r#"  <wsdl:portType name="{service}{port_type}">"#);
        for op in model
            .operations
            .iter()
            .filter(|op| offered(op, spec_bindings(port_type, true)))
        {
            let name = attr(&op.wire);
            // An overload ([WebMethod(MessageName)]): the method names the operation, the
            // message name its input and output.
            let (operation, io_name) = operation_names(op);
            // An rpc operation with out parameters orders its parts as the method does.
            let order = match parameter_order(op) {
                Some(order) if rpc && port_type == "Soap" => {
                    format!(r#" parameterOrder="{}""#, attr(&order))
                }
                _ => String::new(),
            };
            put!(r#"    <wsdl:operation name="{operation}"{order}>"#);
            if let Some(description) = &op.description {
                // The service's `[WebMethod(Description)]`, in every port type, with the
                // namespace declared again on the element, as ASMX writes it.
                let description = text(description);
                put!(
                    r#"      <wsdl:documentation xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">{description}</wsdl:documentation>"#
                );
            }
            put!(r#"      <wsdl:input{io_name} message="tns:{name}{messages}In" />"#);
            put!(r#"      <wsdl:output{io_name} message="tns:{name}{messages}Out" />"#);
            put!("    </wsdl:operation>");
        }
        put!("  </wsdl:portType>");
    }

    // Bindings.
    for (binding, prefix) in BINDINGS {
        let port_type = if prefix == "http" { binding } else { "Soap" };
        put!(r#"  <wsdl:binding name="{service}{binding}" type="tns:{service}{port_type}">"#);
        match binding {
            "HttpGet" => put!(r#"    <http:binding verb="GET" />"#),
            "HttpPost" => put!(r#"    <http:binding verb="POST" />"#),
            _ if rpc_service => put!(
                r#"    <{prefix}:binding transport="http://schemas.xmlsoap.org/soap/http" style="rpc" />"#
            ),
            _ => {
                put!(r#"    <{prefix}:binding transport="http://schemas.xmlsoap.org/soap/http" />"#)
            }
        }
        for op in model
            .operations
            .iter()
            .filter(|op| offered(op, spec_bindings(binding, false)))
        {
            let (operation_name, io_name) = operation_names(op);
            put!(r#"    <wsdl:operation name="{operation_name}">"#);
            // Raw XML comes back as a document of no declared element: plain XML content.
            let document = if matches!(op.result, SoapType::Xml | SoapType::XmlNode) {
                r#"<mime:content part="Body" type="text/xml" />"#
            } else {
                r#"<mime:mimeXml part="Body" />"#
            };
            let (operation, input, output) = match binding {
                "HttpGet" => (
                    format!(
                        r#"<http:operation location="{}" />"#,
                        attr(http_location(model, op))
                    ),
                    "<http:urlEncoded />".to_owned(),
                    document.to_owned(),
                ),
                "HttpPost" => (
                    format!(
                        r#"<http:operation location="{}" />"#,
                        attr(http_location(model, op))
                    ),
                    r#"<mime:content type="application/x-www-form-urlencoded" />"#.to_owned(),
                    document.to_owned(),
                ),
                _ if rpc => {
                    let encoding = if prefix == "soap12" {
                        "http://www.w3.org/2003/05/soap-encoding"
                    } else {
                        "http://schemas.xmlsoap.org/soap/encoding/"
                    };
                    let body = |namespace: &str| {
                        format!(
                            r#"<{prefix}:body use="encoded" namespace="{}" encodingStyle="{encoding}" />"#,
                            attr(namespace)
                        )
                    };
                    (
                        format!(
                            r#"<{prefix}:operation soapAction="{}" style="rpc" />"#,
                            attr(soap_action(op))
                        ),
                        body(&op.request_namespace),
                        body(&op.response_namespace),
                    )
                }
                _ => (
                    format!(
                        r#"<{prefix}:operation soapAction="{}" style="document" />"#,
                        attr(soap_action(op))
                    ),
                    format!(r#"<{prefix}:body use="literal" />"#),
                    format!(r#"<{prefix}:body use="literal" />"#),
                ),
            };
            put!("      {operation}");
            put!("      <wsdl:input{io_name}>");
            put!("        {input}");
            if prefix != "http" {
                for h in op.in_headers() {
                    let header = attr(&h.wire);
                    put!(
                        r#"        <{prefix}:header message="tns:{}{header}" part="{header}" use="literal" />"#,
                        attr(&op.wire)
                    );
                }
            }
            put!("      </wsdl:input>");
            if prefix == "http" && op.result == SoapType::Void {
                // No document comes back over HTTP GET/POST.
                put!("      <wsdl:output{io_name} />");
            } else {
                put!("      <wsdl:output{io_name}>");
                put!("        {output}");
                if prefix != "http" {
                    // The headers a response or a fault carries, as the host declares them.
                    for h in op.output_headers() {
                        let header = attr(&h.wire);
                        put!(
                            r#"        <{prefix}:header message="tns:{}{header}" part="{header}" use="literal" />"#,
                            attr(&op.wire)
                        );
                    }
                }
                put!("      </wsdl:output>");
            }
            put!("    </wsdl:operation>");
        }
        put!("  </wsdl:binding>");
    }

    // The service: one port per binding, all at the same address, where the document is cut.
    put!(r#"  <wsdl:service name="{service}">"#);
    if let Some(documentation) = &service_documentation {
        put!("    {documentation}");
    }
    for (binding, prefix) in BINDINGS {
        put!(r#"    <wsdl:port name="{service}{binding}" binding="tns:{service}{binding}">"#);
        let _ = write!(w, r#"      <{prefix}:address location=""#);
        pieces.push(std::mem::take(w));
        put!(r#"" />"#);
        put!("    </wsdl:port>");
    }
    put!("  </wsdl:service>");
    // The host ends the document without a final newline.
    let _ = write!(w, "</wsdl:definitions>");
    pieces.push(std::mem::take(w));
    pieces
}

/// The `parameterOrder` of an operation with out parameters: the .NET method's parameters in
/// its order, rebuilt from the spec's, where each `out` parameter that is no parameter stands
/// before the first `ref` one that follows it among the outs (`s first count` for
/// `Split(string s, out string first, ref int count)`).
fn parameter_order(op: &OperationModel) -> Option<String> {
    if op.outs.is_empty() {
        return None;
    }
    let is_param = |name: &str| op.params.iter().any(|p| p.wire == name);
    let mut order: Vec<&str> = op.params.iter().map(|p| p.wire.as_str()).collect();
    let mut pending: Vec<&str> = Vec::new();
    for out in &op.outs {
        if is_param(&out.wire) {
            let at = order
                .iter()
                .position(|p| *p == out.wire)
                .expect("a parameter");
            for (i, name) in pending.drain(..).enumerate() {
                order.insert(at + i, name);
            }
        } else {
            pending.push(&out.wire);
        }
    }
    order.extend(pending);
    Some(order.join(" "))
}

/// The typed DataSets the operations use (parameters, results, out parameters), in the order
/// first used.
pub(super) fn typed_data_sets(model: &Model) -> Vec<&crate::model::DataSetModel> {
    let mut used: Vec<usize> = Vec::new();
    for op in &model.operations {
        for ty in op.value_types() {
            if let SoapType::TypedDataSet(i) = ty {
                if !used.contains(&usize::from(i)) {
                    used.push(usize::from(i));
                }
            }
        }
    }
    used.into_iter().map(|i| &model.data_sets[i]).collect()
}

/// The spec's bindings behind a WSDL binding or port type named `name` (`Soap`, `Soap12`,
/// `HttpGet`, `HttpPost`): the `Soap` port type serves both SOAP bindings, the `Soap` binding
/// is SOAP 1.1's.
fn spec_bindings(name: &str, port_type: bool) -> &'static [BindingName] {
    match name {
        "Soap" if port_type => &[BindingName::Soap11, BindingName::Soap12],
        "Soap" => &[BindingName::Soap11],
        "Soap12" => &[BindingName::Soap12],
        "HttpGet" => &[BindingName::Get],
        _ => &[BindingName::Post],
    }
}

/// Whether `op` is offered on any of `bindings`: ASMX lists an operation only where it is
/// offered.
fn offered(op: &OperationModel, bindings: &[BindingName]) -> bool {
    op.bindings.iter().any(|b| bindings.contains(b))
}

/// A string literal holding `text`: a raw string, so that the generated file shows the text
/// line for line, unless the text cannot be one (it has a CR) or its lines would look like
/// items to the spacing pass of [`super::generate`]; then an ordinary escaped literal.
pub(super) fn text_literal(text: &str) -> TokenStream {
    let spaced = super::space_items(text);
    let untouched = spaced == text || spaced.strip_suffix('\n') == Some(text);
    if text.contains('\r') || !untouched {
        let literal = Literal::string(text);
        return quote!(#literal);
    }
    // Enough hashes that no `"` in the text followed by hashes can end the literal early.
    let mut hashes = usize::from(text.contains('"'));
    for (i, _) in text.match_indices('"') {
        let run = text[i + 1..].bytes().take_while(|&b| b == b'#').count();
        hashes = hashes.max(run + 1);
    }
    let hashes = "#".repeat(hashes);
    let literal: Literal = format!("r{hashes}\"{text}\"{hashes}")
        .parse()
        .expect("a raw string literal");
    quote!(#literal)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A service whose operation gives a DataSet, its WSDL in the form `version` names (none:
    /// the spec says nothing).
    fn wsdl(version: Option<&str>) -> String {
        wsdl_of(version, "dataSet")
    }

    fn wsdl_of(version: Option<&str>, result: &str) -> String {
        let line = version.map_or(String::new(), |v| format!("  dataset_wsdl: \"{v}\"\n"));
        let source = format!(
            "service:\n  name: Sets\n  namespace: http://sets.example/\n  path: /Sets.asmx\n{line}\
             credentials: []\noperations:\n  - name: Load\n    doc: Loads.\n    params:\n      \
             - n: int\n    result: {result}\n"
        );
        let spec = crate::spec::parse(&source, "sets.yaml").expect("a spec");
        let model = Model::from_spec(&spec, "sets.yaml").expect("a model");
        pieces(&model).join("http://h/Sets.asmx")
    }

    #[test]
    fn a_data_set_is_declared_in_dotnets_default_form_unless_the_spec_says_2_0() {
        let v1 = wsdl(None);
        assert!(v1.contains(
            "                <s:sequence>\n                  <s:element ref=\"s:schema\" />\n                  <s:any />\n"
        ), "{v1}");
        // The HTTP GET/POST result's root, `DataSet`, has the same type.
        assert!(v1.contains(
            "      <s:element name=\"DataSet\" nillable=\"true\">\n        <s:complexType>\n          <s:sequence>\n            <s:element ref=\"s:schema\" />"
        ), "{v1}");
        assert!(v1.contains("<wsdl:part name=\"Body\" element=\"tns:DataSet\" />"));
        let v2 = wsdl(Some("2.0"));
        assert!(!v2.contains("ref=\"s:schema\""));
        assert_eq!(
            v2.matches("<s:sequence maxOccurs=\"unbounded\">").count(),
            2,
            "{v2}"
        );
        assert_eq!(wsdl(Some("1.0")), v1);
    }

    #[test]
    fn either_form_imports_as_a_data_set_and_keeps_its_form() {
        for (version, line) in [(None, None), (Some("2.0"), Some("  dataset_wsdl: \"2.0\""))] {
            let yaml = crate::import::import(&wsdl(version), "sets.wsdl").expect("imports");
            assert!(yaml.contains("    result: dataSet\n"), "{yaml}");
            assert_eq!(
                yaml.lines().find(|l| l.contains("dataset_wsdl")),
                line,
                "{yaml}"
            );
        }
    }

    #[test]
    fn a_data_table_is_declared_as_dotnet_declares_one_and_imports_back() {
        for version in [None, Some("2.0")] {
            let wsdl = wsdl_of(version, "dataTable");
            assert!(wsdl.contains(
                "                <s:sequence>\n                  <s:any minOccurs=\"0\" maxOccurs=\"unbounded\" namespace=\"http://www.w3.org/2001/XMLSchema\" processContents=\"lax\" />\n                  <s:any minOccurs=\"1\" namespace=\"urn:schemas-microsoft-com:xml-diffgram-v1\" processContents=\"lax\" />\n"
            ), "{wsdl}");
            assert!(wsdl.contains("<wsdl:part name=\"Body\" element=\"tns:DataTable\" />"));
            let yaml = crate::import::import(&wsdl, "sets.wsdl").expect("imports");
            assert!(yaml.contains("    result: dataTable\n"), "{yaml}");
        }
    }

    /// The WSDL rmm serves for what a construct case imports to, read back.
    fn served_and_imported(case: &str) -> (String, String) {
        served_and_imported_from(&format!("constructs/{case}"))
    }

    /// The WSDL rmm serves for what `tests/fixtures/{path}.wsdl` imports to, read back:
    /// the same spec.
    fn served_and_imported_from(path: &str) -> (String, String) {
        let (served, yaml) = served_from(path);
        let again = crate::import::import(&served, "served.wsdl").expect("the served WSDL imports");
        // The comment lines name the file imported.
        let body = |y: &str| -> String {
            y.lines()
                .filter(|l| !l.starts_with('#'))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(body(&again), body(&yaml), "{served}");
        (served, yaml)
    }

    /// The WSDL rmm serves for what `tests/fixtures/{path}.wsdl` imports to, and that spec.
    fn served_from(path: &str) -> (String, String) {
        let file = format!(
            "{}/../tests/fixtures/{path}.wsdl",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&file).expect("the case");
        let yaml = crate::import::import(&text, &file).expect("the case imports");
        let spec = crate::spec::parse(&yaml, "case.yaml").expect("a spec");
        let model = Model::from_spec(&spec, "case.yaml").expect("a model");
        let served = pieces(&model).join(&format!("http://h.example{}", model.service.path));
        (served, yaml)
    }

    #[test]
    fn an_enum_of_another_namespace_is_declared_in_a_schema_of_it() {
        let (served, yaml) = served_and_imported("enum_ns");
        assert!(
            yaml.contains("  - name: Kind\n    namespace: http://o.example/\n"),
            "{yaml}"
        );
        // The service's schema imports the namespace and names the type with its prefix;
        // the type is declared in a schema of its own, after the service's.
        assert!(
            served.contains("xmlns:s1=\"http://o.example/\""),
            "{served}"
        );
        assert!(
            served.contains("      <s:import namespace=\"http://o.example/\" />\n"),
            "{served}"
        );
        assert!(served.contains("name=\"k\" type=\"s1:Kind\""), "{served}");
        assert!(
            served.contains("<s:attribute name=\"Mark\" type=\"s1:Kind\" use=\"required\" />"),
            "{served}"
        );
        let foreign = served
            .split(
                "<s:schema elementFormDefault=\"qualified\" targetNamespace=\"http://o.example/\">",
            )
            .nth(1)
            .expect("a schema of http://o.example/");
        assert!(
            foreign
                .trim_start()
                .starts_with("<s:simpleType name=\"Kind\">"),
            "{served}"
        );
        assert_eq!(
            served.matches("<s:simpleType name=\"Kind\">").count(),
            1,
            "{served}"
        );
    }

    #[test]
    fn a_bare_result_keeps_its_element_and_a_bare_operation_its_headers() {
        let (served, yaml) = served_and_imported("bare_result_renamed");
        assert!(yaml.contains("    style: bare\n    result_element: CountReply\n    headers: [Auth, Trace: Out]\n"), "{yaml}");
        // The part is the return value's, `{Op}Result`; its element the renamed one.
        assert!(
            served.contains("<wsdl:part name=\"CountResult\" element=\"tns:CountReply\" />"),
            "{served}"
        );
        assert!(
            served.contains("<s:element name=\"CountReply\" type=\"s:int\" />"),
            "{served}"
        );
        assert!(!served.contains("CountResult\" type"), "{served}");
    }

    #[test]
    fn unqualified_members_of_nullable_types_and_classes_round_trip() {
        let (served, yaml) = served_and_imported("unq_class");
        assert!(yaml.contains("      - Seat: {type: \"Seat\", unqualified: true}\n      - Since: {type: \"dateTime?\", optional: true, unqualified: true}\n      - Count: {type: \"int?\", unqualified: true}\n"), "{yaml}");
        assert!(served.contains("<s:element minOccurs=\"0\" maxOccurs=\"1\" form=\"unqualified\" name=\"Since\" nillable=\"true\" type=\"s:dateTime\" />"), "{served}");
    }

    #[test]
    fn a_bare_raw_xml_parameter_and_result_round_trip() {
        let (served, yaml) = served_and_imported_from("wild/sefaz-an-nfedownloadnf");
        assert!(
            yaml.contains("    style: bare\n    headers: [nfeCabecMsg]\n"),
            "{yaml}"
        );
        assert!(
            yaml.contains("      - nfeDadosMsg: xmlNode\n    result: xmlNode\n"),
            "{yaml}"
        );
        assert!(served.contains("      <s:element name=\"nfeDadosMsg\">\n        <s:complexType mixed=\"true\">\n          <s:sequence>\n            <s:any />\n"), "{served}");
    }

    #[test]
    fn a_header_named_otherwise_than_its_class_is_the_class_root() {
        // (Its enums come back in another order: the served WSDL writes them where first
        // used.)
        let (served, yaml) = served_from("wild/sharepoint-dspsts");
        let again = crate::import::import(&served, "served.wsdl").expect("the served WSDL imports");
        assert!(
            again.contains("  - name: Authentication\n    root: authentication\n"),
            "{again}"
        );
        assert!(
            yaml.contains("  - name: Authentication\n    root: authentication\n"),
            "{yaml}"
        );
        assert!(
            served.contains("<s:element name=\"authentication\" type=\"tns:Authentication\" />"),
            "{served}"
        );
        assert!(
            served.contains("<wsdl:part name=\"authentication\" element=\"tns:authentication\" />"),
            "{served}"
        );
    }
}
