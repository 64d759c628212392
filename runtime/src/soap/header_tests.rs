//! SOAP header blocks: written by the client's envelope writer, read by the server's request
//! reader as ASMX reads them (the first of a name, `mustUnderstand` understood for the
//! operation's own headers and refused for any other, `xsi:nil` refused).

use super::*;
use crate::operation::fixtures::OP;
use crate::xml::XSI_NS;

/// The operation's headers in these tests.
const HEADERS: &[&str] = &["Token", "Trace"];

fn envelope(header: &str) -> String {
    format!(
        "<soap:Envelope xmlns:soap=\"{SOAP11_NS}\" xmlns:xsi=\"{XSI_NS}\">{header}<soap:Body>\
         <Op xmlns=\"urn:s\"><n>1</n></Op></soap:Body></soap:Envelope>"
    )
}

fn token(doc: &str) -> Result<Option<String>, RequestError> {
    let reader = RequestReader::with_headers(Binding::Soap11, &OP, doc.as_bytes(), &[], HEADERS)?;
    reader.header::<String>("Token")
}

#[test]
fn the_operations_headers_are_read_the_first_of_each_name() {
    let doc = envelope(
        "<soap:Header><Token xmlns=\"urn:s\">a &amp; b</Token>\
         <Token xmlns=\"urn:s\">second</Token></soap:Header>",
    );
    assert_eq!(token(&doc), Ok(Some("a & b".to_owned())));
    // No Header, or the block in another namespace: no header, as ASMX leaves it null.
    assert_eq!(token(&envelope("")), Ok(None));
    let other = envelope("<soap:Header><Token xmlns=\"urn:x\">a</Token></soap:Header>");
    assert_eq!(token(&other), Ok(None));
    // The parameters are read all the same.
    let mut reader =
        RequestReader::with_headers(Binding::Soap11, &OP, doc.as_bytes(), &[], HEADERS).unwrap();
    let param = reader.next_param().unwrap().expect("a parameter");
    assert_eq!(param.scalar::<i32>("n"), Ok(1));
}

#[test]
fn must_understand_is_understood_for_the_operations_headers_only() {
    let known = envelope(
        "<soap:Header><Token xmlns=\"urn:s\" soap:mustUnderstand=\"1\">t</Token></soap:Header>",
    );
    assert_eq!(token(&known), Ok(Some("t".to_owned())));
    // A block of the service namespace this operation does not declare, or of another one.
    for header in [
        "<Other xmlns=\"urn:s\" soap:mustUnderstand=\"true\" />",
        "<Token xmlns=\"urn:x\" soap:mustUnderstand=\"1\">t</Token>",
        "<Other xmlns=\"urn:x\" soap:mustUnderstand=\"1\" \
         soap:actor=\"http://schemas.xmlsoap.org/soap/actor/next\" />",
    ] {
        let doc = envelope(&format!("<soap:Header>{header}</soap:Header>"));
        assert!(
            matches!(token(&doc), Err(RequestError::MustUnderstand { .. })),
            "{header}"
        );
    }
}

#[test]
fn a_nil_header_is_refused() {
    let doc = envelope("<soap:Header><Token xmlns=\"urn:s\" xsi:nil=\"true\" /></soap:Header>");
    assert!(
        matches!(token(&doc), Err(RequestError::InvalidMember { ref param, .. }) if param == "Token"),
        "{:?}",
        token(&doc)
    );
}

#[test]
fn the_writer_puts_header_blocks_before_the_body() {
    let write = |token: Option<&str>| {
        let mut w = SoapWriter::headed(Binding::Soap11, "Op", 64);
        w.header(
            " xmlns=\"urn:s\"",
            "Token",
            token.map(str::to_owned).as_ref(),
        )
        .unwrap();
        w.header::<String>(" xmlns=\"urn:s\"", "Trace", None)
            .unwrap();
        w.body();
        w.raw(OP.request_open);
        w.raw("<n>");
        w.scalar(&1);
        w.raw("</n>");
        w.raw(OP.request_close);
        w.finish()
    };
    let with = write(Some("a & b"));
    assert!(
        with.contains(
            "<soap:Header><Token xmlns=\"urn:s\">a &amp; b</Token></soap:Header><soap:Body>\
             <Op xmlns=\"urn:s\"><n>1</n></Op></soap:Body></soap:Envelope>"
        ),
        "{with}"
    );
    // What it writes, the reader reads back.
    assert_eq!(token(&with), Ok(Some("a & b".to_owned())));
    // Without a header set, no Header at all: the envelope is the one `new` starts.
    let without = write(None);
    let mut plain = SoapWriter::new(Binding::Soap11, "Op", 64);
    plain.raw(OP.request_open);
    plain.raw("<n>");
    plain.scalar(&1);
    plain.raw("</n>");
    plain.raw(OP.request_close);
    assert_eq!(without, plain.finish());
}
