//! Prefixes .NET's `XmlTextWriter` declares for the namespace elements are written in: made up
//! for a qualified attribute (`d{depth}p{n}`), or an `[XmlAnyAttribute]` member's own, and
//! then taken by the elements of that namespace inside (as the Mono host wrote ebXML's
//! `MessageHeader` and the objects service's `ExtHeader` and `Parcel`).

use super::{RawScope, XmlOut};
use crate::raw_xml::XmlAttribute;

const SOAP11: &str = "http://schemas.xmlsoap.org/soap/envelope/";
const EB: &str = "urn:eb";

/// A header block's writer: the block at depth 3, `urn:eb` its default namespace.
fn block(out: &mut String) -> XmlOut<'_> {
    let mut w = XmlOut::new(out, "Op")
        .in_scope(RawScope::Message {
            envelope: SOAP11,
            default: EB,
        })
        .at_depth(2);
    w.qualify_first(" xmlns=\"urn:eb\"");
    w
}

#[test]
fn a_qualified_attribute_makes_a_prefix_up_that_the_elements_inside_take() {
    let mut out = String::new();
    let mut w = block(&mut out);
    w.start("MessageHeader");
    w.qualified_attribute_string(EB, "id", Some(&"m1".to_owned()))
        .unwrap();
    w.qualified_attribute_string(EB, "version", Some(&"2".to_owned()))
        .unwrap();
    w.start("From");
    w.start("PartyId");
    // A class inside with a qualified attribute of its own finds the prefix in scope.
    w.qualified_attribute_string(EB, "type", Some(&"t".to_owned()))
        .unwrap();
    w.text("PartyId", "p").unwrap();
    w.end("PartyId");
    w.end("From");
    // An unqualified member declares its own default namespace and takes no prefix.
    w.qualify_first(" xmlns=\"\"");
    w.start("Org");
    w.text("Org", "o").unwrap();
    w.end("Org");
    w.start("Dup");
    w.end("Dup");
    w.end("MessageHeader");
    // After the block, its prefix is out of scope.
    w.start("Next");
    w.end("Next");
    w.finish();
    assert_eq!(
        out,
        "<MessageHeader d3p1:id=\"m1\" d3p1:version=\"2\" xmlns:d3p1=\"urn:eb\" \
         xmlns=\"urn:eb\"><d3p1:From><d3p1:PartyId d3p1:type=\"t\">p</d3p1:PartyId>\
         </d3p1:From><Org xmlns=\"\">o</Org><d3p1:Dup /></MessageHeader><Next />"
    );
}

#[test]
fn an_element_without_content_still_declares_its_made_up_prefix() {
    let mut out = String::new();
    let mut w = block(&mut out);
    w.start("MessageHeader");
    w.qualified_attribute_scalar(EB, "n", &7i32);
    w.end("MessageHeader");
    w.finish();
    assert_eq!(
        out,
        "<MessageHeader d3p1:n=\"7\" xmlns:d3p1=\"urn:eb\" xmlns=\"urn:eb\" />"
    );
}

/// An `[XmlAnyAttribute]` member's attribute of the block's namespace under a prefix of its
/// own: declared before the made-up one (the writer writes its declarations last first), and
/// it is the one the elements inside take (the writer finds it first). Raw XML inside keeps
/// its own declarations as written (one it only uses is not declared again: the recorded
/// soap11-echo-parcel-seal).
#[test]
fn an_any_attributes_prefix_for_the_namespace_is_taken_before_the_made_up_one() {
    let mut out = String::new();
    let mut w = block(&mut out);
    w.start("ExtHeader");
    w.qualified_attribute_string(EB, "Ref", Some(&"r".to_owned()))
        .unwrap();
    let marks = [
        XmlAttribute {
            prefix: "f".into(),
            local: "a".into(),
            namespace: "urn:f".into(),
            value: "1".into(),
        },
        XmlAttribute {
            prefix: "x".into(),
            local: "note".into(),
            namespace: EB.into(),
            value: "n".into(),
        },
    ];
    w.any_attributes("Marks", &marks).unwrap();
    w.start("Who");
    w.text("Who", "w").unwrap();
    w.end("Who");
    let raw = crate::RawXml::parse("<x:Raw xmlns:x=\"urn:eb\">r</x:Raw>").unwrap();
    w.raw_element("Raw", raw.root()).unwrap();
    w.end("ExtHeader");
    w.finish();
    assert_eq!(
        out,
        "<ExtHeader d3p1:Ref=\"r\" f:a=\"1\" x:note=\"n\" xmlns:x=\"urn:eb\" xmlns:f=\"urn:f\" \
         xmlns:d3p1=\"urn:eb\" xmlns=\"urn:eb\"><x:Who>w</x:Who><x:Raw xmlns:x=\"urn:eb\">r</x:Raw></ExtHeader>"
    );
}

/// In the Body of a wrapped operation the made-up prefix is named after a result's depth,
/// and a type of the service that `xsi:type` names inside takes it too.
#[test]
fn a_prefix_is_named_after_its_elements_depth() {
    let mut out = String::new();
    let mut w = XmlOut::new(&mut out, "Op")
        .in_scope(RawScope::Message {
            envelope: SOAP11,
            default: "urn:s",
        })
        .at_depth(3);
    w.start("OpResult");
    w.qualified_attribute_string("urn:s", "Seal", Some(&"s".to_owned()))
        .unwrap();
    w.class("Main", Some("Circle"), |w| {
        w.scalar("Radius", &1i32);
        Ok(())
    })
    .unwrap();
    w.end("OpResult");
    w.finish();
    assert_eq!(
        out,
        "<OpResult d4p1:Seal=\"s\" xmlns:d4p1=\"urn:s\"><d4p1:Main xsi:type=\"d4p1:Circle\">\
         <d4p1:Radius>1</d4p1:Radius></d4p1:Main></OpResult>"
    );
}

/// An element of no namespace (an unqualified member) declares `xmlns=""` after its
/// attributes, unless an element it stands in declared it already; its siblings after it are
/// of the default namespace again (as the Mono host wrote the construct case `unq_class`).
#[test]
fn an_unqualified_element_declares_no_namespace_where_it_is_not_in_scope() {
    let mut out = String::new();
    let mut w = XmlOut::new(&mut out, "Op");
    w.start("EchoResult");
    w.in_namespace("", " xmlns=\"\"");
    w.start("Seat");
    w.in_namespace("", " xmlns=\"\"");
    w.value("City", crate::tree::tags!(), &"x".to_owned())
        .unwrap();
    w.in_namespace("", " xmlns=\"\"");
    w.nullable::<i32, _>("Zip", None);
    w.end("Seat");
    w.in_namespace("", " xmlns=\"\"");
    w.nullable::<i32, _>("Count", None);
    w.in_namespace("", " xmlns=\"\"");
    w.value("Name", crate::tree::tags!(), &"n".to_owned())
        .unwrap();
    w.scalar("Total", &3);
    w.end("EchoResult");
    w.finish();
    assert_eq!(
        out,
        "<EchoResult><Seat xmlns=\"\"><City>x</City><Zip xsi:nil=\"true\" /></Seat>\
         <Count xsi:nil=\"true\" xmlns=\"\" /><Name xmlns=\"\">n</Name><Total>3</Total></EchoResult>"
    );
}
