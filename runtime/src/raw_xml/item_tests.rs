//! Raw XML inside value trees: arrays of `XmlElement` and `XmlNode`, read as the host reads
//! them and written as it wrote them (`MakeElements`, `MakeNodes` and `EchoNodes` of a Mono
//! probe service).

use super::*;
use crate::tree::{Budget, MemberError, Node, RawScope, XmlItem, XmlOut};
use crate::xml::{Node as XmlNode, XmlCursor, XSI_NS};

const SOAP11: &str = "http://schemas.xmlsoap.org/soap/envelope/";
const SERVICE: &str = "http://probe/";

/// Reads `element` inside an operation element that makes the service namespace the default
/// one, its tree keeping raw XML (or not).
fn read_as<T>(
    element: &str,
    keep_raw: bool,
    read: impl Fn(&Node) -> Result<T, MemberError>,
) -> Result<T, MemberError> {
    let doc = format!("<Op xmlns:xsi=\"{XSI_NS}\" xmlns=\"{SERVICE}\">{element}</Op>");
    let mut cursor = XmlCursor::new(doc.as_bytes(), [SERVICE, XSI_NS]).keeping_raw(keep_raw);
    let XmlNode::Start(op) = cursor.next().expect("xml") else {
        panic!("the operation element")
    };
    let mut budget = Budget::default();
    let op = cursor.tree(op, 0, 1, &mut budget).expect("a tree");
    let node = op.members().next().expect("one element");
    read(node)
}

fn elements(element: &str) -> Result<Option<Vec<Option<RawXml>>>, MemberError> {
    read_as(element, true, |node| {
        <Vec<Option<RawXml>> as XmlItem>::read_optional(node, &["XmlElement"])
    })
}

fn nodes(element: &str) -> Result<Option<Vec<Option<RawNode>>>, MemberError> {
    read_as(element, true, |node| {
        <Vec<Option<RawNode>> as XmlItem>::read_optional(node, &["XmlNode"])
    })
}

/// Written as a SOAP 1.1 response's result element.
fn write<T: XmlItem>(value: &T, name: &'static str, items: &'static [&'static str]) -> String {
    let mut out = String::new();
    let mut w = XmlOut::new(&mut out, "Op").in_scope(RawScope::Message {
        envelope: SOAP11,
        default: SERVICE,
    });
    value.write_element(&mut w, name, items).expect("writable");
    w.finish();
    out
}

#[test]
fn a_tree_keeping_raw_xml_gives_back_each_element_as_it_was_written() {
    let element = "<R><a:x xmlns:a=\"urn:a\" b='1'>t<y/><!--c--><![CDATA[z&]]><?pi d?>&#65;\
                   <a:z><w xmlns=\"\">deep</w></a:z></a:x></R>";
    let raw = read_as(element, true, |node| {
        Ok(node.elements().next().and_then(Node::raw_element))
    })
    .unwrap()
    .expect("kept");
    // `y` is in the service namespace, the default one where it is written again.
    let written = write(&Some(RawXml::new(raw)), "R", &[]);
    assert_eq!(
        written,
        "<R><a:x xmlns:a=\"urn:a\" b=\"1\">t<y /><!--c--><![CDATA[z&]]><?pi d?>A\
         <a:z><w xmlns=\"\">deep</w></a:z></a:x></R>"
    );
    // Without raw XML kept, there is nothing to give back.
    let none = read_as(element, false, |node| {
        Ok(node.elements().next().and_then(Node::raw_element))
    })
    .unwrap();
    assert_eq!(none, None);
}

#[test]
fn an_array_of_xml_elements_is_read_item_by_item() {
    let items = elements(
        "<items><XmlElement><!--skipped--> <a:b xmlns:a=\"urn:a\" q=\"1\">in</a:b><c/></XmlElement>\
         <XmlElement xsi:nil=\"true\" /><XmlElement>  </XmlElement><XmlElement at=\"2\"><z/></XmlElement></items>",
    )
    .unwrap()
    .expect("an array");
    let outer: Vec<Option<String>> = items
        .iter()
        .map(|item| item.as_ref().map(|raw| raw.to_string()))
        .collect();
    assert_eq!(
        outer,
        [
            Some("<a:b xmlns:a=\"urn:a\" q=\"1\">in</a:b>".to_owned()),
            None,
            None,
            Some("<z xmlns=\"http://probe/\" />".to_owned()),
        ]
    );
    // Text first is no element: the host answers "Specified cast is not valid".
    let error = elements("<items><XmlElement>text <a/></XmlElement></items>").unwrap_err();
    assert_eq!(
        error,
        MemberError::NotAnElement {
            path: "XmlElement[1]".into()
        }
    );
    assert_eq!(elements("<items xsi:nil=\"true\" />").unwrap(), None);
}

#[test]
fn an_array_of_xml_nodes_takes_each_items_first_node() {
    let items = nodes(
        "<nodes><XmlNode>text <a:b xmlns:a=\"urn:a\" q=\"1\">in</a:b><!--c--> tail</XmlNode>\
         <XmlNode><!--c--><?p?>\n <x/><y/></XmlNode><XmlNode> <![CDATA[cd]]>t</XmlNode>\
         <XmlNode>a&amp;b<![CDATA[c]]></XmlNode><XmlNode><!--only--></XmlNode></nodes>",
    )
    .unwrap()
    .expect("an array");
    assert_eq!(
        items,
        [
            Some(RawNode::Text("text ".into())),
            Some(RawNode::Element(
                RawXml::parse("<x xmlns=\"http://probe/\"/>").unwrap()
            )),
            Some(RawNode::CData("cd".into())),
            Some(RawNode::Text("a&b".into())),
            None,
        ]
    );
}

#[test]
fn arrays_of_raw_xml_are_written_as_the_host_writes_them() {
    // MakeElements(1) and MakeNodes(1) of the probe, SOAP 1.1: an element of another
    // namespace declares it, one of none undeclares the service's default.
    let made = RawXml::parse("<x:Made xmlns:x=\"urn:made\" at=\"1\"/>").unwrap();
    let plain = RawXml::parse("<Plain/>").unwrap();
    let items = vec![Some(made.clone()), Some(plain)];
    assert_eq!(
        write(&items, "MakeElementsResult", &["XmlElement"]),
        "<MakeElementsResult><XmlElement><x:Made xmlns:x=\"urn:made\" at=\"1\" /></XmlElement>\
         <XmlElement><Plain xmlns=\"\" /></XmlElement></MakeElementsResult>"
    );
    let nodes = vec![
        Some(RawNode::Text("hi ".into())),
        Some(RawNode::Element(made)),
        Some(RawNode::CData("cd".into())),
        None,
    ];
    assert_eq!(
        write(&nodes, "MakeNodesResult", &["XmlNode"]),
        "<MakeNodesResult><XmlNode>hi </XmlNode><XmlNode><x:Made xmlns:x=\"urn:made\" at=\"1\" />\
         </XmlNode><XmlNode><![CDATA[cd]]></XmlNode><XmlNode xsi:nil=\"true\" /></MakeNodesResult>"
    );
}

/// A namespace is read as an attribute's value is: a literal tab, CR or LF normalised to a
/// space, references replaced (a character reference to a tab stays a tab); a plain one as
/// it is written.
#[test]
fn a_raw_element_s_namespace_is_read_as_an_attribute_value() {
    for (declared, namespace) in [
        ("urn:plain", "urn:plain"),
        ("urn:a&amp;b&#9;c", "urn:a&b\tc"),
        ("urn:a\tb\nc", "urn:a b c"),
    ] {
        let element = format!("<R><a:x xmlns:a=\"{declared}\" /></R>");
        let raw = read_as(&element, true, |node| {
            Ok(node.elements().next().and_then(Node::raw_element))
        })
        .unwrap()
        .expect("kept");
        assert_eq!(raw.namespace, namespace, "{declared}");
    }
}
