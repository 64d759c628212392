//! A message body by meaning: the leaves of its XML, each at a path that names no prefix, or
//! of its JSON (ASMX's JSON face), each at the path of its members and items.
//!
//! Two bodies mean the same when their leaves are equal: element and attribute names with
//! their namespaces, the text of each element that holds no element, the values of QNames
//! (`faultcode`, `soap:Value`, `xsi:type`) with their prefixes resolved. What XML leaves to the
//! writer is not a leaf: prefixes, the order and quoting of attributes, namespace declarations,
//! the white space between elements, empty-element tags, character references.
//!
//! A JSON body means its values: a string by its text (`"\u0026"` and `"&"`, `"\/"` and
//! `"/"` are one), a number by its value (`1.0` and `1`, `1E+20` and `1e20`), each written as
//! JSON writes it, so that the string `"1"` is not the number `1`. What JSON leaves to the
//! writer is not a leaf: white space, escapes, the order of an object's members.

use roxmltree::{Document, Node, ParsingOptions};

/// The most leaves a body is read into: a larger body is compared by its bytes alone.
pub const MAX_LEAVES: usize = 200_000;

const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";

/// One leaf: where (`Envelope/Body/AddResponse/AddResult`, `…/Item[2]/@id`), and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leaf {
    /// The path from the root: element local names, `[n]` (from 1) on an element whose parent
    /// holds more than one of its name, `/@name` for an attribute, `/@xmlns` for an element's
    /// namespace where it is not its parent's.
    pub path: String,
    /// The text, attribute value or namespace; a QName's as `{namespace}local`.
    pub value: String,
}

/// The leaves of `body`, in document order; `None` when it is neither XML nor JSON (or too
/// large to read).
pub fn leaves(body: &[u8]) -> Option<Vec<Leaf>> {
    let text = std::str::from_utf8(body).ok()?;
    if text.trim_start().starts_with(['{', '[']) {
        return json_leaves(text);
    }
    let options = ParsingOptions {
        allow_dtd: false,
        nodes_limit: u32::try_from(MAX_LEAVES * 4).unwrap_or(u32::MAX),
    };
    let document = Document::parse_with_options(text, options).ok()?;
    let mut out = Vec::new();
    let root = document.root_element();
    walk(root, segment(root, 1, false), None, &mut out);
    (out.len() <= MAX_LEAVES).then_some(out)
}

/// `Name`, or `Name[n]` when the parent holds more than one element of that name.
fn segment(node: Node, index: usize, repeated: bool) -> String {
    let name = node.tag_name().name();
    if repeated {
        format!("{name}[{index}]")
    } else {
        name.to_owned()
    }
}

fn walk(node: Node, path: String, parent_ns: Option<&str>, out: &mut Vec<Leaf>) {
    if out.len() > MAX_LEAVES {
        return;
    }
    let ns = node.tag_name().namespace();
    if ns != parent_ns {
        out.push(Leaf {
            path: format!("{path}/@xmlns"),
            value: ns.unwrap_or_default().to_owned(),
        });
    }
    for attribute in node.attributes() {
        let name = match attribute.namespace() {
            Some(ns) => format!("{{{ns}}}{}", attribute.name()),
            None => attribute.name().to_owned(),
        };
        let value = if attribute.namespace() == Some(XSI) && attribute.name() == "type" {
            resolved(node, attribute.value())
        } else {
            attribute.value().to_owned()
        };
        out.push(Leaf {
            path: format!("{path}/@{name}"),
            value,
        });
    }
    let children: Vec<Node> = node.children().filter(Node::is_element).collect();
    if children.is_empty() {
        let text: String = node
            .children()
            .filter(|c| c.is_text())
            .filter_map(|c| c.text())
            .collect();
        let value = if holds_qname(node) {
            resolved(node, text.trim())
        } else {
            text
        };
        out.push(Leaf { path, value });
        return;
    }
    // Text beside elements (mixed content) is a leaf of its own when it is more than the
    // white space that indents them.
    let mixed: String = node
        .children()
        .filter(|c| c.is_text())
        .filter_map(|c| c.text())
        .collect();
    if !mixed.trim().is_empty() {
        out.push(Leaf {
            path: format!("{path}/#text"),
            value: mixed,
        });
    }
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for child in &children {
        let name = child.tag_name().name();
        let count = children
            .iter()
            .filter(|c| c.tag_name().name() == name)
            .count();
        let index = match seen.iter_mut().find(|(n, _)| *n == name) {
            Some((_, i)) => {
                *i += 1;
                *i
            }
            None => {
                seen.push((name, 1));
                1
            }
        };
        let child_path = format!("{path}/{}", segment(*child, index, count > 1));
        walk(*child, child_path, ns, out);
    }
}

/// The leaves of a JSON document: an object's members at `parent/name` (in name order, which
/// JSON leaves to the writer), an array's items at `parent[n]` (from 1), each scalar as JSON
/// writes it (a string in quotes with the fewest escapes, a number as its value), an empty
/// object or array as `{}` or `[]`. `None` when it is not JSON (serde_json's reader, which
/// bounds its depth at 128).
fn json_leaves(text: &str) -> Option<Vec<Leaf>> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let mut out = Vec::new();
    json_walk(&value, String::new(), &mut out);
    (out.len() <= MAX_LEAVES).then_some(out)
}

fn json_walk(value: &serde_json::Value, path: String, out: &mut Vec<Leaf>) {
    use serde_json::Value;
    if out.len() > MAX_LEAVES {
        return;
    }
    let scalar = match value {
        Value::Object(members) if !members.is_empty() => {
            let mut names: Vec<&String> = members.keys().collect();
            names.sort();
            for name in names {
                let child = if path.is_empty() {
                    name.clone()
                } else {
                    format!("{path}/{name}")
                };
                json_walk(&members[name], child, out);
            }
            return;
        }
        Value::Array(items) if !items.is_empty() => {
            for (i, item) in items.iter().enumerate() {
                json_walk(item, format!("{path}[{}]", i + 1), out);
            }
            return;
        }
        Value::Object(_) => "{}".to_owned(),
        Value::Array(_) => "[]".to_owned(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{f:.0}"),
            (_, _, Some(f)) => f.to_string(),
            _ => n.to_string(),
        },
        other => other.to_string(),
    };
    out.push(Leaf {
        path: if path.is_empty() {
            "(json)".into()
        } else {
            path
        },
        value: scalar,
    });
}

/// Whether an element's text is a QName: a SOAP 1.1 fault's code, a SOAP 1.2 fault's code or
/// subcode value.
fn holds_qname(node: Node) -> bool {
    let name = node.tag_name().name();
    name == "faultcode"
        || (name == "Value"
            && node
                .parent_element()
                .is_some_and(|p| matches!(p.tag_name().name(), "Code" | "Subcode")))
}

/// A QName written `prefix:local` as `{namespace}local`, the prefix looked up where it is used.
fn resolved(node: Node, qname: &str) -> String {
    let (prefix, local) = match qname.split_once(':') {
        Some((prefix, local)) => (Some(prefix), local),
        None => (None, qname),
    };
    match node.lookup_namespace_uri(prefix) {
        Some(ns) => format!("{{{ns}}}{local}"),
        None => qname.to_owned(),
    }
}

/// A path with its indices taken out (`Item[2]` → `Item[*]`): the field a difference is of,
/// whichever item it is in.
pub fn field(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        match rest[open..].find(']') {
            Some(close) => {
                out.push_str("[*]");
                rest = &rest[open + close + 1..];
            }
            None => {
                rest = &rest[open..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(body: &str) -> Vec<(String, String)> {
        leaves(body.as_bytes())
            .unwrap()
            .into_iter()
            .map(|l| (l.path, l.value))
            .collect()
    }

    #[test]
    fn prefixes_declarations_and_empty_tags_are_not_leaves() {
        let a = r#"<?xml version="1.0"?><soap:Envelope xmlns:soap="urn:e"><soap:Body><R xmlns="urn:s"><A>1</A><B /></R></soap:Body></soap:Envelope>"#;
        let b = "<e:Envelope xmlns:e='urn:e' xmlns:x='urn:unused'>\n  <e:Body>\n    <s:R xmlns:s='urn:s'><s:A>1</s:A><s:B></s:B></s:R>\n  </e:Body>\n</e:Envelope>";
        assert_eq!(pairs(a), pairs(b));
        assert_eq!(
            pairs(a),
            [
                ("Envelope/@xmlns".into(), "urn:e".into()),
                ("Envelope/Body/R/@xmlns".into(), "urn:s".into()),
                ("Envelope/Body/R/A".into(), "1".into()),
                ("Envelope/Body/R/B".into(), String::new()),
            ]
        );
    }

    #[test]
    fn a_fault_code_is_compared_by_its_namespace_not_its_prefix() {
        let a = r#"<s:Fault xmlns:s="urn:e"><faultcode>s:Client</faultcode></s:Fault>"#;
        let b = r#"<q:Fault xmlns:q="urn:e"><faultcode>q:Client</faultcode></q:Fault>"#;
        let c = r#"<q:Fault xmlns:q="urn:e"><faultcode>q:Server</faultcode></q:Fault>"#;
        assert_eq!(pairs(a), pairs(b));
        assert_ne!(pairs(a), pairs(c));
        assert_eq!(
            pairs(a),
            [
                ("Fault/@xmlns".into(), "urn:e".into()),
                ("Fault/faultcode/@xmlns".into(), String::new()),
                ("Fault/faultcode".into(), "{urn:e}Client".into()),
            ]
        );
    }

    #[test]
    fn repeated_elements_are_numbered_and_their_field_is_one() {
        let body = "<L><I>a</I><I>b</I><J>c</J></L>";
        let paths: Vec<String> = pairs(body).into_iter().map(|(p, _)| p).collect();
        assert_eq!(paths, ["L/I[1]", "L/I[2]", "L/J"]);
        assert_eq!(field("L/I[2]/@id"), "L/I[*]/@id");
    }

    #[test]
    fn text_that_is_neither_xml_nor_json_has_no_leaves() {
        assert_eq!(leaves(b"Schema not found.\n"), None);
        assert_eq!(leaves(b"<a><b></a>"), None);
        assert_eq!(leaves(b"{\"d\":"), None);
    }

    #[test]
    fn json_is_read_by_value_not_by_its_writing() {
        // .NET's writing and another of the same values: escapes, the order of members,
        // white space, a number's form.
        let dotnet = r#"{"d":{"__type":"Rmm.Script.Point","X":1,"Name":"a\u0026b\/c","When":"\/Date(0)\/","R":1.5E+20,"L":[1,null,{}],"E":[]}}"#;
        let other = r#"{ "d": { "E": [], "L": [1.0, null, {}], "R": 150000000000000000000,
            "When": "/Date(0)/", "Name": "a&b/c", "X": 1e0, "__type": "Rmm.Script.Point" } }"#;
        assert_eq!(pairs(dotnet), pairs(other));
        assert_eq!(
            pairs(dotnet),
            [
                ("d/E".into(), "[]".into()),
                ("d/L[1]".into(), "1".into()),
                ("d/L[2]".into(), "null".into()),
                ("d/L[3]".into(), "{}".into()),
                ("d/Name".into(), "\"a&b/c\"".into()),
                ("d/R".into(), "150000000000000000000".into()),
                ("d/When".into(), "\"/Date(0)/\"".into()),
                ("d/X".into(), "1".into()),
                ("d/__type".into(), "\"Rmm.Script.Point\"".into()),
            ]
        );
        assert_eq!(field("d/L[2]"), "d/L[*]");
    }

    #[test]
    fn a_json_string_is_not_the_number_it_spells_nor_null() {
        assert_ne!(pairs(r#"{"d":"1"}"#), pairs(r#"{"d":1}"#));
        assert_ne!(pairs(r#"{"d":"null"}"#), pairs(r#"{"d":null}"#));
        assert_ne!(pairs(r#"{"d":[]}"#), pairs(r#"{"d":{}}"#));
        assert_ne!(pairs(r#"{"d":0.1}"#), pairs(r#"{"d":0.10000000000000002}"#));
        assert_eq!(
            pairs(r#"[1,2]"#),
            [("[1]".into(), "1".into()), ("[2]".into(), "2".into())]
        );
    }
}
