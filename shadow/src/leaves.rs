//! A message body by meaning: the leaves of its XML, each at a path that names no prefix.
//!
//! Two bodies mean the same when their leaves are equal: element and attribute names with
//! their namespaces, the text of each element that holds no element, the values of QNames
//! (`faultcode`, `soap:Value`, `xsi:type`) with their prefixes resolved. What XML leaves to the
//! writer is not a leaf: prefixes, the order and quoting of attributes, namespace declarations,
//! the white space between elements, empty-element tags, character references.

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

/// The leaves of `body`, in document order; `None` when it is not XML (or too large to read).
pub fn leaves(body: &[u8]) -> Option<Vec<Leaf>> {
    let text = std::str::from_utf8(body).ok()?;
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
    fn text_that_is_not_xml_has_no_leaves() {
        assert_eq!(leaves(b"Schema not found.\n"), None);
        assert_eq!(leaves(b"<a><b></a>"), None);
    }
}
