//! The generated WSDL document against the one a real ASMX host (Mono 6.8) served for the
//! same service: byte for byte, whatever the address, and well-formed.

use quick_xml::events::Event;
use quick_xml::Reader;
use rmm_mobile::wsdl;

/// The address the host wrote into every port of the capture (from `Host: 127.0.0.1:18081`).
const CAPTURED_ADDRESS: &str = "http://127.0.0.1:18081/api/rmm/MobileService.asmx";

/// The body of the host's answer to `?WSDL` (`tests/fixtures/asmx/wsdl.txt`), cut where its
/// Content-Length says.
fn captured_body() -> String {
    let capture = rmm_tests::captures::load_one("wsdl");
    let length: usize = capture
        .response
        .header("content-length")
        .expect("the response has a Content-Length")
        .parse()
        .unwrap();
    assert_eq!(capture.response.body.len(), length);
    String::from_utf8(capture.response.body).expect("the WSDL is UTF-8")
}

/// Where `a` and `b` first differ, shown with some context, for a readable failure.
fn first_difference(a: &str, b: &str) -> String {
    let at = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let line = a[..at].matches('\n').count() + 1;
    let from = at.saturating_sub(80);
    let show = |s: &str| s.get(from..(at + 80).min(s.len())).unwrap_or("").to_owned();
    format!(
        "first difference at byte {at} (line {line}), lengths {} and {}:\n--- ours\n{}\n--- host\n{}",
        a.len(),
        b.len(),
        show(a),
        show(b)
    )
}

#[test]
fn document_is_the_hosts_byte_for_byte() {
    let ours = wsdl::document(CAPTURED_ADDRESS);
    let host = captured_body();
    assert!(ours == host, "{}", first_difference(&ours, &host));
}

#[test]
fn another_address_changes_only_the_four_port_addresses() {
    let address = "http://rmm.example.net:8080/api/rmm/MobileService.asmx";
    let ours = wsdl::document(address);
    assert_eq!(ours.matches(address).count(), 4);
    assert!(!ours.contains(CAPTURED_ADDRESS));
    let expected = captured_body().replace(CAPTURED_ADDRESS, address);
    assert!(ours == expected, "{}", first_difference(&ours, &expected));
}

#[test]
fn address_is_xml_escaped() {
    let ours = wsdl::document("http://x\"/><evil a=\"&amp;");
    assert_eq!(
        ours.matches(r#"location="http://x&quot;/&gt;&lt;evil a=&quot;&amp;amp;" />"#)
            .count(),
        4
    );
    assert!(!ours.contains("<evil"));
    well_formed(&ours);
}

#[test]
fn document_is_well_formed_xml() {
    well_formed(&wsdl::document(CAPTURED_ADDRESS));
}

/// Parses `xml` completely: matching end tags, well-formed attributes, known entities only,
/// one root element and nothing but whitespace around it.
fn well_formed(xml: &str) {
    let mut reader = Reader::from_str(xml);
    reader.config_mut().check_end_names = true;
    let mut depth = 0usize;
    let mut roots = 0;
    loop {
        let event = reader
            .read_event()
            .unwrap_or_else(|e| panic!("not well-formed at byte {}: {e}", reader.error_position()));
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                if depth == 0 {
                    roots += 1;
                }
                for attr in e.attributes().with_checks(true) {
                    let attr = attr.unwrap_or_else(|e| panic!("bad attribute: {e}"));
                    attr.unescape_value()
                        .unwrap_or_else(|e| panic!("bad attribute value: {e}"));
                }
                if matches!(event, Event::Start(_)) {
                    depth += 1;
                }
            }
            Event::End(_) => depth -= 1,
            Event::Text(ref t) => {
                let text = t.decode().unwrap();
                assert!(
                    depth > 0 || text.trim().is_empty(),
                    "text outside the root element: {text:?}"
                );
            }
            Event::Eof => break,
            Event::Decl(_) | Event::Comment(_) => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(depth, 0, "unclosed elements");
    assert_eq!(roots, 1, "one root element");
}

/// Another spec gets its own WSDL: its names, its namespace (escaped), its types and
/// occurrence rules, and the .NET forms of an operation without parameters.
#[test]
fn another_spec_gets_its_own_document() {
    let spec = r#"service:
  name: Shop
  namespace: "urn:shop?a=1"
  path: /shop/Shop.asmx
credentials: []
operations:
  - name: Ping
    doc: No parameters.
    params: []
    result: string
  - name: Price
    doc: All four types.
    params:
      - sku: string
      - qty: int
      - gift: boolean
      - amount: decimal
    result: string
"#;
    let files = rmm_codegen::generate_from_source(spec, "shop.yaml").expect("the spec is valid");
    let wsdl = &files.iter().find(|f| f.path == "wsdl.rs").unwrap().contents;
    let ns = "urn:shop?a=1";
    for expected in [
        format!(r#" xmlns:tns="{ns}" "#),
        format!(r#"<s:schema elementFormDefault="qualified" targetNamespace="{ns}">"#),
        "      <s:element name=\"Ping\">\n        <s:complexType />\n      </s:element>\n"
            .to_owned(),
        r#"<s:element minOccurs="0" maxOccurs="1" name="sku" type="s:string" />"#.to_owned(),
        r#"<s:element minOccurs="1" maxOccurs="1" name="qty" type="s:int" />"#.to_owned(),
        r#"<s:element minOccurs="1" maxOccurs="1" name="gift" type="s:boolean" />"#.to_owned(),
        r#"<s:element minOccurs="1" maxOccurs="1" name="amount" type="s:decimal" />"#.to_owned(),
        r#"<s:element minOccurs="0" maxOccurs="1" name="PriceResult" type="s:string" />"#
            .to_owned(),
        r#"  <wsdl:message name="PingHttpGetIn" />"#.to_owned(),
        r#"  <wsdl:message name="PingHttpPostIn" />"#.to_owned(),
        "  <wsdl:message name=\"PriceHttpPostIn\">\n    <wsdl:part name=\"sku\" type=\"s:string\" />\n    <wsdl:part name=\"qty\" type=\"s:string\" />\n".to_owned(),
        r#"<wsdl:portType name="ShopSoap">"#.to_owned(),
        r#"<wsdl:binding name="ShopSoap12" type="tns:ShopSoap">"#.to_owned(),
        format!(r#"<soap12:operation soapAction="{ns}/Price" style="document" />"#),
        r#"<http:operation location="/Price" />"#.to_owned(),
        r#"<wsdl:service name="Shop">"#.to_owned(),
        r#"<wsdl:port name="ShopHttpPost" binding="tns:ShopHttpPost">"#.to_owned(),
    ] {
        assert!(wsdl.contains(&expected), "missing {expected:?} in\n{wsdl}");
    }
    assert!(!wsdl.contains("MobileService"));
    assert!(!wsdl.contains("&b=<2>"));
}

/// An operation's `description:` is published as `wsdl:documentation` in each port type it is
/// in (text escaped, the namespace declared again, as ASMX writes it), the service's as the
/// document's and the service's; `doc:` is rustdoc only and is never published.
#[test]
fn a_description_is_published_in_every_port_type_and_a_doc_is_not() {
    let spec = r#"service:
  name: Shop
  namespace: urn:shop
  path: /shop/Shop.asmx
  description: Sells <and> ships.
credentials: []
operations:
  - name: Ping
    doc: Rustdoc only, not in the WSDL.
    params: []
    result: string
  - name: Price
    description: Prices a & b <at once>.
    params:
      - sku: string
    result: string
  - name: Find
    description: Finds one.
    bindings: [soap11, soap12]
    params:
      - id: guid
    result: string
"#;
    let files = rmm_codegen::generate_from_source(spec, "shop.yaml").expect("the spec is valid");
    let wsdl = &files.iter().find(|f| f.path == "wsdl.rs").unwrap().contents;
    let price = "<wsdl:operation name=\"Price\">\n      <wsdl:documentation xmlns:wsdl=\"http://schemas.xmlsoap.org/wsdl/\">Prices a &amp; b &lt;at once&gt;.</wsdl:documentation>\n      <wsdl:input";
    // The SOAP port type and both HTTP ones.
    assert_eq!(wsdl.matches(price).count(), 3, "{wsdl}");
    // A SOAP-only operation is in the SOAP port type only.
    assert_eq!(wsdl.matches(">Finds one.</wsdl:documentation>").count(), 1);
    // The service's, twice: the document's, first, and the wsdl:service's, before its ports.
    let service = r#"<wsdl:documentation xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">Sells &lt;and&gt; ships.</wsdl:documentation>"#;
    assert!(wsdl.contains(&format!(
        "xmlns:wsdl=\"http://schemas.xmlsoap.org/wsdl/\">\n  {service}\n  <wsdl:types>"
    )));
    assert!(wsdl.contains(&format!(
        "<wsdl:service name=\"Shop\">\n    {service}\n    <wsdl:port"
    )));
    assert_eq!(wsdl.matches("<wsdl:documentation").count(), 6);
    assert!(!wsdl.contains("Rustdoc only"));
    // The rustdoc of an operation with a description alone is that description, its
    // Markdown punctuation escaped (plain text, which rustdoc then shows as written).
    let server = &files
        .iter()
        .find(|f| f.path == "server.rs")
        .unwrap()
        .contents;
    assert!(
        server.contains(r"/// Operation 2, `Price`: Prices a \& b \<at once\>."),
        "{server}"
    );
    // The help pages show it as it is, HTML-escaped.
    let help = &files.iter().find(|f| f.path == "help.rs").unwrap().contents;
    assert!(help.contains("Prices a &amp; b &lt;at once&gt;."), "{help}");
}
