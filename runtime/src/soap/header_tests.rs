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

/// A header class of one text, as a generated `[SoapHeader]` class carries its attributes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Token {
    text: String,
    soap: HeaderAttributes,
}

impl crate::tree::XmlItem for Token {
    fn write_element<N: crate::tree::ElementName, I: crate::tree::ElementName>(
        &self,
        w: &mut crate::tree::XmlOut<'_>,
        name: N,
        items: &'static [I],
    ) -> Result<(), crate::EncodeError> {
        self.text.write_element(w, name, items)
    }

    fn read_element(
        node: &crate::tree::Node,
        items: &'static [&'static str],
    ) -> Result<Self, crate::tree::MemberError> {
        Ok(Token {
            text: String::read_element(node, items)?,
            soap: HeaderAttributes::default(),
        })
    }
}

impl SoapHeaderItem for Token {
    fn attributes(&self) -> &HeaderAttributes {
        &self.soap
    }

    fn attributes_mut(&mut self) -> &mut HeaderAttributes {
        &mut self.soap
    }
}

fn token(text: &str) -> Token {
    Token {
        text: text.to_owned(),
        soap: HeaderAttributes::default(),
    }
}

/// Reads the request as a generated decoder does: its headers, then its parameters (after
/// which a block marked mustUnderstand that no header of the operation is gets refused).
fn read_token(doc: &str) -> Result<Option<Token>, RequestError> {
    let mut reader =
        RequestReader::with_headers(Binding::Soap11, &OP, doc.as_bytes(), &[], HEADERS)?;
    let token = reader.header::<Token>("Token")?;
    while reader.next_param()?.is_some() {}
    Ok(token)
}

fn read_text(doc: &str) -> Result<Option<String>, RequestError> {
    read_token(doc).map(|t| t.map(|t| t.text))
}

#[test]
fn the_operations_headers_are_read_the_first_of_each_name() {
    let doc = envelope(
        "<soap:Header><Token xmlns=\"urn:s\">a &amp; b</Token>\
         <Token xmlns=\"urn:s\">second</Token></soap:Header>",
    );
    assert_eq!(read_text(&doc), Ok(Some("a & b".to_owned())));
    // No Header, or the block in another namespace: no header, as ASMX leaves it null.
    assert_eq!(read_text(&envelope("")), Ok(None));
    let other = envelope("<soap:Header><Token xmlns=\"urn:x\">a</Token></soap:Header>");
    assert_eq!(read_text(&other), Ok(None));
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
    assert_eq!(read_text(&known), Ok(Some("t".to_owned())));
    // A block of the service namespace this operation does not declare, or of another one.
    for header in [
        "<Other xmlns=\"urn:s\" soap:mustUnderstand=\"true\" />",
        "<Token xmlns=\"urn:x\" soap:mustUnderstand=\"1\">t</Token>",
        "<Other xmlns=\"urn:x\" soap:mustUnderstand=\"1\" \
         soap:actor=\"http://schemas.xmlsoap.org/soap/actor/next\" />",
    ] {
        let doc = envelope(&format!("<soap:Header>{header}</soap:Header>"));
        assert!(
            matches!(read_text(&doc), Err(RequestError::MustUnderstand { .. })),
            "{header}"
        );
    }
}

#[test]
fn a_nil_header_is_refused() {
    let doc = envelope("<soap:Header><Token xmlns=\"urn:s\" xsi:nil=\"true\" /></soap:Header>");
    let error = read_text(&doc).unwrap_err();
    assert!(
        matches!(
            error,
            RequestError::InvalidHeader {
                header: "Token",
                ..
            }
        ),
        "{error:?}"
    );
    // Named as the header it is, not as a parameter.
    let message = error.to_string();
    assert!(
        message.starts_with("The SOAP header Token of "),
        "{message}"
    );
    assert!(message.contains("xsi:nil"), "{message}");
}

#[test]
fn the_writer_puts_header_blocks_before_the_body() {
    let write = |text: Option<&str>| {
        let mut w = SoapWriter::headed(Binding::Soap11, &crate::operation::fixtures::OP, 64);
        w.header(" xmlns=\"urn:s\"", "Token", text.map(token).as_ref())
            .unwrap();
        w.header::<Token>(" xmlns=\"urn:s\"", "Trace", None)
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
    assert_eq!(read_text(&with), Ok(Some("a & b".to_owned())));
    // Without a header set, no Header at all: the envelope is the one `new` starts.
    let without = write(None);
    let mut plain = SoapWriter::new(Binding::Soap11, &crate::operation::fixtures::OP, 64);
    plain.raw(OP.request_open);
    plain.raw("<n>");
    plain.scalar(&1);
    plain.raw("</n>");
    plain.raw(OP.request_close);
    assert_eq!(without, plain.finish());
}

/// A block's attributes are read from either envelope version's names (the last of a
/// meaning wins), exactly as `SoapHeader` reads them, and refused when it cannot.
#[test]
fn block_attributes_are_read_from_either_version() {
    const S12: &str = "http://www.w3.org/2003/05/soap-envelope";
    let read = |attributes: &str| {
        read_token(&envelope(&format!(
            "<soap:Header><Token xmlns=\"urn:s\" xmlns:s12=\"{S12}\" {attributes}>t</Token></soap:Header>"
        )))
        .map(|t| t.expect("a Token").soap)
    };
    let attributes = |must_understand, actor: &str, relay| HeaderAttributes {
        must_understand,
        actor: actor.to_owned(),
        relay,
    };
    assert_eq!(read(""), Ok(HeaderAttributes::default()));
    assert_eq!(
        read("soap:mustUnderstand=\"true\" soap:actor=\"urn:a\""),
        Ok(attributes(true, "urn:a", false))
    );
    // relay is SOAP 1.2's: checked in this SOAP 1.1 message, not kept.
    assert_eq!(
        read("s12:mustUnderstand=\"1\" s12:role=\"urn:r\" s12:relay=\"true\""),
        Ok(attributes(true, "urn:r", false))
    );
    // The last of a meaning wins; SOAP 1.1 has no relay, and actor is 1.1's, role 1.2's.
    assert_eq!(
        read("soap:mustUnderstand=\"1\" s12:mustUnderstand=\"false\" soap:role=\"x\" soap:relay=\"1\" s12:actor=\"y\""),
        Ok(attributes(false, "", false))
    );
    // Attributes of no namespace are the class's, not the block's.
    assert_eq!(
        read("mustUnderstand=\"1\""),
        Ok(HeaderAttributes::default())
    );
    for (bad, field) in [
        ("soap:mustUnderstand=\"yes\"", "EncodedMustUnderstand"),
        ("s12:mustUnderstand=\"1 \"", "EncodedMustUnderstand"),
        ("s12:relay=\"TRUE\"", "EncodedRelay"),
    ] {
        assert!(
            matches!(read(bad), Err(RequestError::InvalidHeaderAttribute { field: f, .. }) if f == field),
            "{bad}: {:?}",
            read(bad)
        );
    }
}

/// A header class of another namespace (`[XmlRoot(Namespace = …)]`, WS-Security's and
/// ebXML's kind): named `{namespace}Name`, read from that namespace alone, its members in it.
#[test]
fn a_header_of_another_namespace_is_read_there_and_not_in_the_services() {
    const FOREIGN: &[&str] = &["{urn:x}Token", "Trace"];
    let read = |doc: &str| -> Result<Option<String>, RequestError> {
        let mut reader =
            RequestReader::with_headers(Binding::Soap11, &OP, doc.as_bytes(), &[], FOREIGN)?;
        let token = reader.header::<Token>("{urn:x}Token")?;
        while reader.next_param()?.is_some() {}
        Ok(token.map(|t| t.text))
    };
    let doc = envelope(
        "<soap:Header><Token xmlns=\"urn:s\">service</Token>\
         <x:Token xmlns:x=\"urn:x\" soap:mustUnderstand=\"1\">foreign</x:Token></soap:Header>",
    );
    // The service's block of that name is not the operation's: ignored (not marked).
    assert_eq!(read(&doc), Ok(Some("foreign".to_owned())));
    // The foreign one marked mustUnderstand is understood; the service's one so marked is
    // not the operation's header, and refused.
    let marked = envelope(
        "<soap:Header><Token xmlns=\"urn:s\" soap:mustUnderstand=\"1\">service</Token></soap:Header>",
    );
    assert!(matches!(
        read(&marked),
        Err(RequestError::MustUnderstand { .. })
    ));
}

/// An unknown block's `mustUnderstand`: the SOAP 1.1 attribute where it has one, else the
/// SOAP 1.2 one, whatever the message's version and their order (the host's answers).
#[test]
fn an_unknown_blocks_soap11_must_understand_wins_over_its_soap12_one() {
    let block = |attributes: &str| {
        envelope(&format!(
            "<soap:Header><Other xmlns=\"urn:s\" xmlns:s11=\"{SOAP11_NS}\" \
             xmlns:s12=\"{SOAP12_NS}\" {attributes}>x</Other></soap:Header>"
        ))
    };
    for (attributes, refused) in [
        (r#"s12:mustUnderstand="1""#, true),
        (r#"s11:mustUnderstand="1" s12:mustUnderstand="0""#, true),
        (r#"s12:mustUnderstand="0" s11:mustUnderstand="1""#, true),
        (r#"s12:mustUnderstand="true" s11:mustUnderstand="0""#, false),
        (r#"s11:mustUnderstand="yes""#, false),
    ] {
        let read = read_token(&block(attributes));
        assert_eq!(
            matches!(read, Err(RequestError::MustUnderstand { .. })),
            refused,
            "{attributes}: {read:?}"
        );
    }
}

/// A block of the operation's header again is not read (the first is): marked
/// mustUnderstand, it is not understood, as the host answers.
#[test]
fn a_repeated_block_marked_must_understand_is_not_understood() {
    let twice = |second: &str| {
        envelope(&format!(
            "<soap:Header><Token xmlns=\"urn:s\">first</Token>\
             <Token xmlns=\"urn:s\" {second}>second</Token></soap:Header>"
        ))
    };
    assert_eq!(read_text(&twice("")), Ok(Some("first".to_owned())));
    assert!(matches!(
        read_text(&twice(r#"soap:mustUnderstand="1""#)),
        Err(RequestError::MustUnderstand { .. })
    ));
    // The first marked and the second not: the first is understood.
    let first = envelope(
        "<soap:Header><Token xmlns=\"urn:s\" soap:mustUnderstand=\"1\">first</Token>\
         <Token xmlns=\"urn:s\">second</Token></soap:Header>",
    );
    assert_eq!(read_text(&first), Ok(Some("first".to_owned())));
}
