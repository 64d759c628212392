//! A real service's headers (jetairways' `SessionCreate`, `tests/wild/`): ebXML's
//! `MessageHeader` and WS-Security's `Security`, classes of other namespaces with qualified
//! attributes (one an `xs:ID`), `xml:lang`, unqualified members, unwrapped arrays and an
//! `object`. The bytes expected are what the Mono host wrote for a copy of these classes
//! (`[XmlAttribute(Form = Qualified, DataType = "ID")]` and the rest, probed with the
//! request below), their namespaces the real ones.

use rmm_session_create::runtime::{AnyType, Binding};
use rmm_session_create::{
    Description, From, Logon, LogonResponse, MessageHeader, PartyId, Security,
    SecurityUsernameToken,
};

const EB: &str = "http://www.ebxml.org/namespaces/messageHeader";
const SEC: &str = "http://schemas.xmlsoap.org/ws/2002/12/secext";
const SERVICE: &str = "http://www.vedaleon.com/webservices";

fn body_of(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

/// The host's response: the made-up prefix `d3p1` (the block's depth) declared after the
/// attributes, before the default namespace, and taken by every element of ebXML's namespace
/// inside; the unqualified `Organization` declares no namespace and takes none.
#[test]
fn headers_are_written_as_the_host_writes_them() {
    let response = LogonResponse {
        result: Some("ok".into()),
        message_header: Some(MessageHeader {
            id: Some("m5".into()),
            version: Some("2.5".into()),
            from: Some(From {
                party_id: vec![PartyId {
                    r#type: Some("t".into()),
                    text: Some("party".into()),
                }],
                role: None,
            }),
            cpa_id: Some("cpa".into()),
            duplicate_elimination: Some(AnyType::Object),
            description: vec![Description {
                lang: Some("en".into()),
                text: Some("desc".into()),
            }],
            ..Default::default()
        }),
        security: Some(Security {
            username_token: Some(SecurityUsernameToken {
                username: Some("u".into()),
                organization: Some("org5".into()),
                ..Default::default()
            }),
            ..Default::default()
        }),
    };
    let written = response.encode_response(Binding::Soap11).expect("encodes");
    let header = format!(
        "<soap:Header><MessageHeader d3p1:id=\"m5\" d3p1:version=\"2.5\" xmlns:d3p1=\"{EB}\" \
         xmlns=\"{EB}\"><d3p1:From><d3p1:PartyId d3p1:type=\"t\">party</d3p1:PartyId>\
         </d3p1:From><d3p1:CPAId>cpa</d3p1:CPAId><d3p1:DuplicateElimination />\
         <d3p1:Description xml:lang=\"en\">desc</d3p1:Description></MessageHeader>\
         <Security xmlns=\"{SEC}\"><UsernameToken><Username>u</Username><Organization \
         xmlns=\"\">org5</Organization></UsernameToken></Security></soap:Header>"
    );
    let body = body_of(written.body());
    assert!(body.contains(&header), "{body}");
    assert!(
        body.ends_with(&format!(
            "<soap:Body><LogonResponse xmlns=\"{SERVICE}\"><LogonResult>ok</LogonResult>\
             </LogonResponse></soap:Body></soap:Envelope>"
        )),
        "{body}"
    );
    // And read back as written.
    let read = LogonResponse::decode_response(&written, Binding::Soap11).expect("decodes");
    assert_eq!(read, response);
}

/// The request the host was probed with: the attributes under a prefix of the client's own,
/// the ID padded. The host read `id=m1` (trimmed), the party's type, an `object` of nothing
/// (`new object()`), the description's language and the unqualified organization.
#[test]
fn headers_are_read_as_the_host_reads_them() {
    let envelope = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope \
         xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Header><MessageHeader \
         xmlns=\"{EB}\" xmlns:eb=\"{EB}\" eb:id=\"  m1  \" eb:version=\"2.0\" version=\"none\">\
         <From><PartyId eb:type=\"duns\" type=\"no\">123</PartyId></From><CPAId>c</CPAId>\
         <DuplicateElimination /><Description xml:lang=\"en\">hi</Description></MessageHeader>\
         <Security xmlns=\"{SEC}\"><UsernameToken><Username>u</Username><Organization \
         xmlns=\"\">o</Organization></UsernameToken></Security></soap:Header><soap:Body>\
         <Logon xmlns=\"{SERVICE}\" /></soap:Body></soap:Envelope>"
    );
    let request = http::Request::builder()
        .method("POST")
        .uri("/jettaobeapi/SessionCreate.asmx")
        .header("content-type", "text/xml; charset=utf-8")
        .header(
            "soapaction",
            "\"http://www.vedaleon.com/webservices/Logon\"",
        )
        .body(envelope.into_bytes())
        .unwrap();
    let (_, logon) = Logon::decode_request(&request, Binding::Soap11).expect("decodes");
    let header = logon.message_header.expect("the MessageHeader");
    // Qualified attributes are read in their namespace only (`version="none"` is another).
    assert_eq!(header.id.as_deref(), Some("m1"));
    assert_eq!(header.version.as_deref(), Some("2.0"));
    let party = &header.from.expect("From").party_id[0];
    assert_eq!(party.r#type.as_deref(), Some("duns"));
    assert_eq!(party.text.as_deref(), Some("123"));
    assert_eq!(header.cpa_id.as_deref(), Some("c"));
    assert_eq!(header.duplicate_elimination, Some(AnyType::Object));
    assert_eq!(header.description[0].lang.as_deref(), Some("en"));
    let token = logon
        .security
        .expect("the Security header")
        .username_token
        .expect("its token");
    assert_eq!(token.username.as_deref(), Some("u"));
    assert_eq!(token.organization.as_deref(), Some("o"));
}
