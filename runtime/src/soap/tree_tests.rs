//! Value trees read by the scanner against the cursor's, on class-holding envelopes and on
//! every single mutation of them: whenever the scanner takes a message, the trees and the
//! parameters are those the cursor reads.

use super::request::{scan_request, ParamName};
use super::response::{parse_response_tree, scan_response_tree};
use super::tests::mutations;
use super::*;
use crate::operation::fixtures::OP;
use crate::tree::Node;
use crate::xml::XSI_NS;

/// The parameters of [`OP`] read as value trees.
const TREES: &[&str] = &["a", "list"];

/// Everything a reader yields: each parameter's name, and its tree or its text.
type Read<'a> = Result<Vec<(Vec<u8>, Option<Node<'a>>, String)>, RequestError>;

fn read_all<'a>(reader: Result<RequestReader<'a>, RequestError>) -> Read<'a> {
    let mut reader = reader?;
    let mut params = Vec::new();
    while let Some(p) = reader.next_param()? {
        let name = p.name().to_vec();
        let text = p.content.text.clone().into_owned();
        params.push((name, p.tree.map(|t| *t), text));
    }
    Ok(params)
}

/// The cursor's reading of `doc`, its tree parameters named by [`TREES`].
fn general(binding: Binding, doc: &[u8]) -> Read<'_> {
    let mut reader = RequestReader::parse(binding, &OP, doc)?;
    reader.trees = TREES;
    read_all(Ok(reader))
}

/// When the scanner takes `doc`, the reader (which then takes the scanner's path) reads what
/// the cursor reads, trees included. Returns whether the scanner took it.
fn check(binding: Binding, doc: &[u8]) -> bool {
    let Ok((_, scanned)) = scan_request(binding, &OP, doc, TREES) else {
        return false;
    };
    let general = general(binding, doc);
    assert!(
        general.is_ok(),
        "the scanner took what the cursor refuses: {general:?} on {:?}",
        String::from_utf8_lossy(doc)
    );
    assert!(scanned.iter().any(|p| p.tree.is_some()) || !doc.windows(3).any(|w| w == b"<a>"));
    assert_eq!(
        read_all(RequestReader::with_trees(binding, &OP, doc, TREES)),
        general,
        "the scanner's trees differ from the cursor's on {:?}",
        String::from_utf8_lossy(doc)
    );
    true
}

/// A class parameter as our encoder writes one (nested classes, an array with a nil item
/// and a derived one with its `xsi:type`, attributes, text with references), pretty-printed
/// as .NET sends it, with prefixes as Java clients send it, and in SOAP 1.2.
pub(super) fn class_requests() -> Vec<(Binding, String)> {
    let ours = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"{SOAP11_NS}\" \
         xmlns:xsi=\"{XSI_NS}\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body>\
         <Op xmlns=\"urn:s\"><n>1</n><a code=\"c 1\" n=\"-2\"><Id>5</Id><Name>A &amp; B &#233;</Name>\
         <Lines><Line><Sku>x</Sku><Discount xsi:nil=\"true\" /></Line><Line xsi:nil=\"true\" />\
         <Line xsi:type=\"Special\" kind=\"k\"><Sku>y</Sku><Extra>1</Extra></Line></Lines>\
         <Note lang=\"en\">text <b /> more</Note><Empty /></a>\
         <list><int>1</int><int xsi:nil=\"true\" /></list></Op></soap:Body></soap:Envelope>"
    );
    let pretty = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<soap:Envelope xmlns:xsi=\"{XSI_NS}\" \
         xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:soap=\"{SOAP11_NS}\">\n  <soap:Body>\n    \
         <Op xmlns=\"urn:s\">\n      <a>\n        <Id>5</Id>\n        <Lines>\n          <Line>\n            \
         <Sku>x</Sku>\n          </Line>\n        </Lines>\n        <Note lang='en'>t</Note>\n      </a>\n    \
         </Op>\n  </soap:Body>\n</soap:Envelope>\n"
    );
    let prefixed = format!(
        "<SOAP-ENV:Envelope xmlns:SOAP-ENV='{SOAP11_NS}' xmlns:i='{XSI_NS}'><SOAP-ENV:Body>\
         <m:Op xmlns:m='urn:s'><m:a><m:Id>5</m:Id><m:Lines><m:Line i:type='m:Special'>\
         <m:Sku>y</m:Sku></m:Line><m:Line i:type='Special' xmlns='urn:other'/></m:Lines>\
         <Other xmlns='urn:other'>o</Other></m:a></m:Op></SOAP-ENV:Body></SOAP-ENV:Envelope>"
    );
    let soap12 = ours.replace(SOAP11_NS, SOAP12_NS);
    vec![
        (Binding::Soap11, ours),
        (Binding::Soap11, pretty),
        (Binding::Soap11, prefixed),
        (Binding::Soap12, soap12),
    ]
}

#[test]
fn class_requests_take_the_scanner() {
    for (binding, doc) in class_requests() {
        assert!(check(binding, doc.as_bytes()), "not scanned: {doc}");
    }
    // What the trees hold, read by the scanner.
    let (binding, ours) = &class_requests()[0];
    let read = read_all(RequestReader::with_trees(
        *binding,
        &OP,
        ours.as_bytes(),
        TREES,
    ))
    .unwrap();
    let a = read[1].1.as_ref().expect("a tree");
    assert_eq!(a.attribute("code"), Some("c 1"));
    assert_eq!(a.attribute("n"), Some("-2"));
    let members: Vec<&str> = a.members().map(Node::name).collect();
    assert_eq!(members, ["Id", "Name", "Lines", "Note", "Empty"]);
}

#[test]
fn unusual_class_requests_take_the_cursor() {
    let ours = &class_requests()[0].1;
    let unusual = [
        // An attribute value with a reference or a control character, a comment or CDATA in
        // a tree, an
        // xsi:type that is no plain name, an unbound prefix in one, a deep tree, more
        // attributes than the scanner holds.
        ours.replace("code=\"c 1\"", "code=\"c&amp;1\""),
        ours.replace("kind=\"k\"", "kind=\"k\tl\""),
        ours.replace("<Sku>y</Sku>", "<Sku>y<!-- c --></Sku>"),
        ours.replace("<Sku>y</Sku>", "<Sku><![CDATA[y]]></Sku>"),
        ours.replace("xsi:type=\"Special\"", "xsi:type=\" Special\""),
        ours.replace("xsi:type=\"Special\"", "xsi:type=\"q:Special\""),
        ours.replace(
            "<Empty />",
            &format!("{}{}", "<d>".repeat(70), "</d>".repeat(70)),
        ),
        ours.replace(
            "<Id>",
            "<Id a=\"1\" b=\"2\" c=\"3\" d=\"4\" e=\"5\" f=\"6\" g=\"7\">",
        ),
    ];
    for doc in unusual {
        assert!(!check(Binding::Soap11, doc.as_bytes()), "scanned: {doc}");
    }
}

#[test]
fn scanner_trees_agree_with_the_cursor_on_every_single_mutation() {
    let mut scanned = 0;
    let mut total = 0;
    for (binding, doc) in class_requests() {
        for mutated in mutations(doc.as_bytes()) {
            total += 1;
            scanned += usize::from(check(binding, &mutated));
        }
    }
    eprintln!("{scanned} of {total} scanned");
    assert!(scanned > total / 20, "{scanned} of {total} scanned");
}

/// A tree's budget is shared by the request's trees; running out is the cursor's to word.
#[test]
fn a_tree_beyond_its_budget_goes_to_the_cursor() {
    let items = "<int>1</int>".repeat(crate::tree::MAX_ELEMENTS);
    let doc = format!(
        "<soap:Envelope xmlns:soap=\"{SOAP11_NS}\"><soap:Body><Op xmlns=\"urn:s\">\
         <list>{items}</list></Op></soap:Body></soap:Envelope>"
    );
    assert!(scan_request(Binding::Soap11, &OP, doc.as_bytes(), TREES).is_err());
    let error = general(Binding::Soap11, doc.as_bytes()).unwrap_err();
    assert!(error.to_string().contains("250000"), "{error}");
    let _ = ParamName::Tree;
}

/// A response of [`OP`] with a class result, as the host writes one, and pretty-printed.
pub(super) fn class_responses() -> Vec<(Binding, String)> {
    let ours = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"{SOAP11_NS}\" \
         xmlns:xsi=\"{XSI_NS}\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body>\
         <OpResponse xmlns=\"urn:s\"><OpResult code=\"c\"><Id>5</Id><Name>A &amp; B</Name>\
         <Lines><Line><Sku>x</Sku><Discount xsi:nil=\"true\" /></Line>\
         <Line xsi:type=\"Special\"><Sku>y</Sku></Line></Lines></OpResult></OpResponse>\
         </soap:Body></soap:Envelope>"
    );
    let pretty = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<soap:Envelope xmlns:soap=\"{SOAP11_NS}\">\n \
         <soap:Body>\n  <OpResponse xmlns=\"urn:s\">\n   <OpResult>\n    <Id>5</Id>\n   </OpResult>\n  \
         </OpResponse>\n </soap:Body>\n</soap:Envelope>"
    );
    let soap12 = ours.replace(SOAP11_NS, SOAP12_NS);
    vec![
        (Binding::Soap11, ours),
        (Binding::Soap11, pretty),
        (Binding::Soap12, soap12),
    ]
}

/// When the scanner takes a response, its result tree is the cursor's.
fn check_response(binding: Binding, doc: &[u8]) -> bool {
    let Ok(scanned) = scan_response_tree(binding, &OP, doc) else {
        return false;
    };
    assert_eq!(
        parse_response_tree(binding, &OP, doc),
        Ok(ResponseBody::Result(scanned)),
        "the scanner's result tree differs from the cursor's on {:?}",
        String::from_utf8_lossy(doc)
    );
    true
}

#[test]
fn response_trees_agree_with_the_cursor_on_every_single_mutation() {
    for (binding, doc) in class_responses() {
        assert!(
            check_response(binding, doc.as_bytes()),
            "not scanned: {doc}"
        );
    }
    let mut scanned = 0;
    let mut total = 0;
    for (binding, doc) in class_responses() {
        for mutated in mutations(doc.as_bytes()) {
            total += 1;
            scanned += usize::from(check_response(binding, &mutated));
        }
    }
    eprintln!("{scanned} of {total} scanned");
    assert!(scanned > total / 20, "{scanned} of {total} scanned");
}
