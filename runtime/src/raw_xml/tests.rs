//! Raw XML read and written as the reference host echoed an `XmlElement` parameter
//! (`EchoXml`, probed by hand; the recorded exchanges of the objects service hold them).

use super::*;

const SOAP11: &str = "http://schemas.xmlsoap.org/soap/envelope/";
const SERVICE: &str = "http://rmm.example.com/objects";

/// Written where a response's result element stands.
fn in_message(raw: &RawXml) -> String {
    let mut out = String::new();
    write_element(
        &mut out,
        raw.root(),
        &mut Scope::message(SOAP11, SERVICE),
        false,
    )
    .unwrap();
    out
}

fn parse(text: &str) -> RawXml {
    RawXml::parse(text).unwrap()
}

#[test]
fn content_is_kept_as_the_dom_holds_it() {
    let raw = parse("<a:x xmlns:a=\"urn:a\" b='1'>t<y/><!--c--><![CDATA[z&]]><?pi d?>&#65;</a:x>");
    // `y` is in no namespace: in a message, where the service's is the default, it says so.
    assert_eq!(
        in_message(&raw),
        "<a:x xmlns:a=\"urn:a\" b=\"1\">t<y xmlns=\"\" /><!--c--><![CDATA[z&]]><?pi d?>A</a:x>"
    );
    // Standing alone, `y` (in no namespace there) needs nothing declared.
    assert_eq!(
        raw.to_string(),
        "<a:x xmlns:a=\"urn:a\" b=\"1\">t<y /><!--c--><![CDATA[z&]]><?pi d?>A</a:x>"
    );
    // White space inside is text; line ends normalised, references kept as what they name.
    let raw = parse("<x>  a\r\n <y> </y>&#xD;</x>");
    assert_eq!(in_message(&raw), "<x xmlns=\"\">  a\n <y> </y>&#xD;</x>");
}

#[test]
fn declarations_are_written_where_written_and_added_where_missing() {
    // Explicit declarations stay, even where the same is in scope.
    let raw = parse(&format!("<x xmlns=\"{SERVICE}\"><y/></x>"));
    assert_eq!(
        in_message(&raw),
        format!("<x xmlns=\"{SERVICE}\"><y /></x>")
    );
    // A prefix declared outside the element is declared on it, after its attributes.
    let mut raw = parse("<q:x xmlns:q=\"urn:q\" q:a=\"1\"/>");
    raw.root_mut().attributes.remove(0);
    assert_eq!(in_message(&raw), "<q:x q:a=\"1\" xmlns:q=\"urn:q\" />");
    // The envelope's prefixes and the service namespace are in scope in a message, not
    // standing alone.
    let raw = RawXml::new(XmlElement {
        prefix: "xsi".into(),
        local: "x".into(),
        namespace: crate::xml::XSI_NS.into(),
        attributes: vec![XmlAttribute {
            prefix: "xsi".into(),
            local: "type".into(),
            namespace: crate::xml::XSI_NS.into(),
            value: "xsd:int".into(),
        }],
        children: vec![XmlContent::Element(XmlElement {
            prefix: String::new(),
            local: "y".into(),
            namespace: SERVICE.into(),
            attributes: Vec::new(),
            children: Vec::new(),
            end_tag: false,
        })],
        end_tag: false,
    });
    assert_eq!(
        in_message(&raw),
        "<xsi:x xsi:type=\"xsd:int\"><y /></xsi:x>"
    );
    assert_eq!(
        raw.to_string(),
        format!(
            "<xsi:x xsi:type=\"xsd:int\" xmlns:xsi=\"{}\"><y xmlns=\"{SERVICE}\" /></xsi:x>",
            crate::xml::XSI_NS
        )
    );
    // An element in no namespace where a default one is in scope: `xmlns=""`.
    let raw = parse("<x><y xmlns=\"urn:y\"/></x>");
    assert_eq!(in_message(&raw), "<x xmlns=\"\"><y xmlns=\"urn:y\" /></x>");
}

#[test]
fn values_are_escaped_as_the_host_escapes_them() {
    let raw = parse("<x a=\"&#xD;&#xA;&#x9;&gt;&quot;&lt;&amp;\">a&#xD;b&#x9;&gt;]]&gt;</x>");
    assert_eq!(
        in_message(&raw),
        "<x a=\"&#xD;&#xA;\t&gt;&quot;&lt;&amp;\" xmlns=\"\">a&#xD;b\t&gt;]]&gt;</x>"
    );
    // A raw tab, line feed or CR in an attribute is a space (XML 1.0 §3.3.3).
    let raw = parse("<x a=\"1\t2\n3\"/>");
    assert_eq!(raw.root().attributes[0].value, "1 2 3");
}

#[test]
fn what_is_not_one_element_is_refused() {
    for bad in ["", "text", "<x/><y/>", "<x>", "<!DOCTYPE x><x/>", "<p:x/>"] {
        assert!(RawXml::parse(bad).is_err(), "{bad:?}");
    }
    assert!(RawXml::parse("<?xml version=\"1.0\"?><!--c--> <x/> ").is_ok());
}

#[test]
fn equality_is_by_meaning_declarations_aside() {
    // What a reader gets back from what was written is equal to what was written, though it
    // holds the declaration the writer added as an attribute.
    let mut made = parse("<q:x xmlns:q=\"urn:q\" q:a=\"1\"><y/></q:x>");
    made.root_mut().attributes.remove(0);
    let read_back = parse(&made.to_string());
    assert_eq!(read_back.root().attributes.len(), 2);
    assert_eq!(read_back, made);
    // A prefix, a namespace, an attribute or the content tell two apart.
    for other in [
        "<p:x xmlns:p=\"urn:q\" p:a=\"1\"><y/></p:x>",
        "<q:x xmlns:q=\"urn:r\" q:a=\"1\"><y/></q:x>",
        "<q:x xmlns:q=\"urn:q\" q:a=\"2\"><y/></q:x>",
        "<q:x xmlns:q=\"urn:q\" q:a=\"1\"><y> </y></q:x>",
    ] {
        assert_ne!(parse(other), made, "{other}");
    }
}

#[test]
fn an_empty_element_keeps_the_form_it_was_read_in() {
    // .NET's XmlElement.IsEmpty: `<b></b>` stays so, `<b/>` is written `<b />`.
    let raw = parse("<a><b></b><c/></a>");
    assert_eq!(raw.to_string(), "<a><b></b><c /></a>");
    assert_eq!(raw, parse("<a><b/><c></c></a>"));
}

#[test]
fn declarations_the_writer_adds_are_written_last_first() {
    // A DOM element made by code (no declaration among its attributes), as a Mono probe's
    // `CreateElement("x", "E", "urn:x")` with attributes y:a and z:b and a child w:C with
    // v:q came back: .NET's XmlTextWriter writes its namespace stack from the top.
    let attribute = |prefix: &str, local: &str, namespace: &str, value: &str| XmlAttribute {
        prefix: prefix.into(),
        local: local.into(),
        namespace: namespace.into(),
        value: value.into(),
    };
    let child = XmlElement {
        prefix: "w".into(),
        local: "C".into(),
        namespace: "urn:w".into(),
        attributes: vec![attribute("v", "q", "urn:v", "3")],
        children: Vec::new(),
        end_tag: false,
    };
    let made = RawXml::new(XmlElement {
        prefix: "x".into(),
        local: "E".into(),
        namespace: "urn:x".into(),
        attributes: vec![
            attribute("y", "a", "urn:y", "1"),
            attribute("z", "b", "urn:z", "2"),
        ],
        children: vec![XmlContent::Element(child)],
        end_tag: false,
    });
    assert_eq!(
        in_message(&made),
        "<x:E y:a=\"1\" z:b=\"2\" xmlns:z=\"urn:z\" xmlns:y=\"urn:y\" xmlns:x=\"urn:x\">\
         <w:C v:q=\"3\" xmlns:v=\"urn:v\" xmlns:w=\"urn:w\" /></x:E>"
    );
}
