//! Hostile and malformed requests, answered sans-IO by the generated server around the echo
//! service: each gets the answer an ASMX host gives (400 with an empty body for XML that is
//! not well-formed, the 500 error of HTTP GET/POST otherwise), never a panic. Documents built
//! to be slow (100 000 attributes, 100 000 levels) are refused; how fast is never asserted.

#[allow(dead_code)]
#[path = "../../generated/examples/echo_server.rs"]
mod echo_server;

use bytes::Bytes;
use rmm_mobile::*;

const NS: &str = "http://rmm.example.com/mobile";
const PATH: &str = "/api/rmm/MobileService.asmx";
const OP: &str = "MobileServiceOrderLockCheck";
const CHILDREN: &str = "<sonumber>5</sonumber><repnumber>42</repnumber>\
    <timestamp>t</timestamp><sig>s</sig>";

fn envelope11(inner: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>{inner}</soap:Body></soap:Envelope>"#
    )
}

fn envelope12(inner: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body>{inner}</soap12:Body></soap12:Envelope>"#
    )
}

/// The operation element holding `children`, its start tag carrying `attributes`.
fn operation(attributes: &str, children: &str) -> String {
    format!(r#"<{OP} xmlns="{NS}"{attributes}>{children}</{OP}>"#)
}

fn soap11(action: bool, body: String) -> http::Request<Bytes> {
    let mut request = http::Request::post(PATH).header("content-type", "text/xml; charset=utf-8");
    if action {
        request = request.header("soapaction", format!("\"{NS}/{OP}\""));
    }
    request.body(Bytes::from(body)).unwrap()
}

fn soap12(body: String) -> http::Request<Bytes> {
    http::Request::post(PATH)
        .header(
            "content-type",
            format!("application/soap+xml; charset=utf-8; action=\"{NS}/{OP}\""),
        )
        .body(Bytes::from(body))
        .unwrap()
}

async fn handle(request: http::Request<Bytes>) -> http::Response<Bytes> {
    MobileServiceServer::new(echo_server::Echo)
        .handle(request)
        .await
}

/// Asserts the answer to malformed XML: 400 and an empty body, as the host gives.
async fn assert_malformed(what: &str, request: http::Request<Bytes>) {
    let response = handle(request).await;
    assert_eq!(response.status(), 400, "{what}: {:?}", response.body());
    assert!(response.body().is_empty(), "{what}: {:?}", response.body());
}

/// Every SOAP way to send `inner` as the body entry: SOAP 1.1 with and without SOAPAction
/// (routed by the envelope), SOAP 1.2.
async fn assert_malformed_everywhere(what: &str, inner: &str) {
    assert_malformed(what, soap11(true, envelope11(inner))).await;
    assert_malformed(what, soap11(false, envelope11(inner))).await;
    assert_malformed(what, soap12(envelope12(inner))).await;
}

#[tokio::test]
async fn a_well_formed_request_is_answered() {
    let response = handle(soap11(true, envelope11(&operation("", CHILDREN)))).await;
    assert_eq!(response.status(), 200);
    let body = String::from_utf8_lossy(response.body());
    assert!(
        body.contains("MobileServiceOrderLockCheck(sonumber=5;repnumber=42;timestamp=t;sig=s)"),
        "{body}"
    );
    // Nested as deep as the limit allows (a header block 120 levels deep).
    let deep = format!("{}{}", "<h>".repeat(120), "</h>".repeat(120));
    let body = envelope11(&operation("", CHILDREN)).replace(
        "<soap:Body>",
        &format!("<soap:Header><x:h xmlns:x=\"urn:x\">{deep}</x:h></soap:Header><soap:Body>"),
    );
    assert_eq!(handle(soap11(true, body)).await.status(), 200);
}

#[tokio::test]
async fn a_start_tag_with_100k_attributes_is_refused() {
    let attributes: String = (0..100_000).map(|i| format!(" a{i}=\"{i}\"")).collect();
    assert_malformed_everywhere("100k attributes", &operation(&attributes, CHILDREN)).await;
    let declarations: String = (0..100_000)
        .map(|i| format!(" xmlns:p{i}=\"urn:{i}\""))
        .collect();
    assert_malformed_everywhere("100k declarations", &operation(&declarations, CHILDREN)).await;
    // On a parameter too.
    let children = format!("<sonumber{attributes}>5</sonumber>");
    assert_malformed_everywhere("100k attributes on a parameter", &operation("", &children)).await;
}

#[tokio::test]
async fn a_document_nested_100k_deep_is_refused() {
    let deep = format!("{}{}", "<d>".repeat(100_000), "</d>".repeat(100_000));
    assert_malformed_everywhere(
        "100k levels in a parameter",
        &operation("", &format!("<sonumber>{deep}</sonumber>")),
    )
    .await;
    assert_malformed_everywhere(
        "100k unclosed levels in a parameter",
        &operation("", &format!("<sonumber>{}", "<d>".repeat(100_000))),
    )
    .await;
    // In a header block, which the reader skips.
    let header = envelope11(&operation("", CHILDREN)).replace(
        "<soap:Body>",
        &format!("<soap:Header><x:h xmlns:x=\"urn:x\">{deep}</x:h></soap:Header><soap:Body>"),
    );
    assert_malformed("100k levels in a header", soap11(true, header.clone())).await;
    assert_malformed("100k levels in a header", soap11(false, header)).await;
    // A body entry that is not the operation is refused as such (the client fault) before
    // its content is read, or as malformed.
    for request in [
        soap11(true, envelope11(&deep)),
        soap11(false, envelope11(&deep)),
        soap12(envelope12(&deep)),
    ] {
        let response = handle(request).await;
        let body = String::from_utf8_lossy(response.body()).into_owned();
        assert!(
            (response.status() == 500 && body.contains("not the operation"))
                || response.status() == 400,
            "{}: {body}",
            response.status()
        );
    }
}

#[tokio::test]
async fn documents_that_are_not_well_formed_are_refused() {
    let cases = [
        (
            "undefined entity",
            operation("", "<sonumber>&foo;</sonumber>"),
        ),
        (
            "undefined entity between elements",
            operation("", &format!("{CHILDREN}&foo;")),
        ),
        (
            "character reference to U+0001 between elements",
            operation("", &format!("&#1;{CHILDREN}")),
        ),
        ("'<' in an attribute value", operation(" a=\"<\"", CHILDREN)),
        (
            "undefined entity in an attribute value",
            operation(" a=\"&foo;\"", CHILDREN),
        ),
        (
            "a name that is not an XML name",
            operation("", "<1a>5</1a>"),
        ),
        (
            "a control character in text",
            operation("", "<sonumber>5\u{1}</sonumber>"),
        ),
        (
            "a late XML declaration",
            operation("", &format!("<?xml version=\"1.0\"?>{CHILDREN}")),
        ),
    ];
    for (what, inner) in cases {
        assert_malformed_everywhere(what, &inner).await;
    }
}

#[tokio::test]
async fn xml_declarations_dotnet_refuses_are_refused() {
    // What .NET's reader refuses in the declaration, which quick-xml reads past.
    let inner = operation("", CHILDREN);
    let well_formed = envelope11(&inner);
    for declaration in [
        r#"<?xml version="1.1" encoding="utf-8"?>"#,
        r#"<?xml encoding="utf-8" version="1.0"?>"#,
        r#"<?xml version="1.0" standalone="maybe"?>"#,
        "<?xml version=\"1.0\" encoding=\"utf\t8\"?>",
        r#"<?xml version="1.0" encoding="u<8"?>"#,
    ] {
        let body = well_formed.replace(r#"<?xml version="1.0" encoding="utf-8"?>"#, declaration);
        assert_ne!(body, well_formed);
        assert_malformed(declaration, soap11(true, body.clone())).await;
        assert_malformed(declaration, soap11(false, body)).await;
    }
    // The declarations clients write are read.
    for declaration in [
        r#"<?xml version="1.0" encoding="utf-8"?>"#,
        r#"<?xml version='1.0' encoding='UTF-8' standalone='yes'?>"#,
        r#"<?xml version="1.0"?>"#,
        // Under a charset .NET does not look the encoding up (nor does the host).
        r#"<?xml version="1.0" encoding="utf 8"?>"#,
        r#"<?xml version="1.0" encoding="8"?>"#,
    ] {
        let body = well_formed.replace(r#"<?xml version="1.0" encoding="utf-8"?>"#, declaration);
        let response = handle(soap11(true, body)).await;
        assert_eq!(
            response.status(),
            200,
            "{declaration}: {:?}",
            response.body()
        );
    }
}

#[tokio::test]
async fn http_get_and_post_read_utf16_escapes_as_dotnet_framework_does() {
    // Every `%uXXXX` is its UTF-16 unit, those up to U+00FF too, as .NET's clients send
    // non-ASCII text (`café` as `caf%u00E9`).
    let response = handle(
        http::Request::get(format!(
            "{PATH}/{OP}?sonumber=5&repnumber=42&timestamp=%u20AC%uD834%uDD1E&sig=caf%u00E9%u0041"
        ))
        .body(Bytes::new())
        .unwrap(),
    )
    .await;
    assert_eq!(response.status(), 200);
    let body = String::from_utf8_lossy(response.body());
    assert!(body.contains("timestamp=€𝄞;sig=caféA)"), "{body}");
    let response = handle(
        http::Request::post(format!("{PATH}/{OP}"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Bytes::from_static(
                b"sonumber=5&repnumber=42&timestamp=%u00C3%u00A9&sig=s",
            ))
            .unwrap(),
    )
    .await;
    assert_eq!(response.status(), 200);
    let body = String::from_utf8_lossy(response.body());
    assert!(body.contains("timestamp=\u{c3}\u{a9};sig=s)"), "{body}");

    // A lone surrogate is no character (.NET would read U+FFFD): the 500 error of the
    // binding, naming the escape.
    let response = handle(
        http::Request::post(format!("{PATH}/{OP}"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Bytes::from_static(
                b"sonumber=5&repnumber=42&timestamp=%uD834&sig=s",
            ))
            .unwrap(),
    )
    .await;
    assert_eq!(response.status(), 500);
    assert_eq!(
        response.headers()["content-type"],
        "text/plain; charset=utf-8"
    );
    assert_eq!(
        String::from_utf8_lossy(response.body()),
        "The form body holds the escape %uD834, half of a UTF-16 surrogate pair without its \
         other half, which is no character.\n"
    );
}

#[tokio::test]
async fn a_form_body_of_separators_is_read_as_no_parameters() {
    let response = handle(
        http::Request::post(format!("{PATH}/{OP}"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Bytes::from(vec![b'&'; 4 << 20]))
            .unwrap(),
    )
    .await;
    assert_eq!(response.status(), 500);
    let body = String::from_utf8_lossy(response.body());
    assert!(body.contains("Parameter sonumber"), "{body}");
}

#[tokio::test]
async fn a_form_body_of_many_values_is_refused_before_it_is_all_read() {
    let many: Vec<u8> = b"a&".repeat(2 << 20);
    let response = handle(
        http::Request::post(format!("{PATH}/{OP}"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Bytes::from(many))
            .unwrap(),
    )
    .await;
    assert_eq!(response.status(), 500);
    assert_eq!(
        String::from_utf8_lossy(response.body()),
        "The request has more than 10000 Request.Form values, more than this service reads.\n"
    );
}

#[tokio::test]
async fn more_names_than_asp_net_reads_are_refused_as_it_refuses_them() {
    // A query string cannot hold that many names: ASP.NET refuses one over 2,048 characters
    // first (maxQueryStringLength), so a form body carries them.
    let post = |body: String| {
        http::Request::post(format!("{PATH}/{OP}"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Bytes::from(body))
            .unwrap()
    };
    let call = "sonumber=5&repnumber=42&timestamp=t&sig=s";
    // 1001 repeats of one unknown name are one key: answered.
    let response = handle(post(format!("{call}{}", "&x=1".repeat(1001)))).await;
    assert_eq!(response.status(), 200);
    // 997 more distinct names make 1001 keys: refused.
    let distinct: String = (0..997).map(|i| format!("&x{i}=1")).collect();
    let response = handle(post(format!("{call}{distinct}"))).await;
    assert_eq!(response.status(), 500);
    assert_eq!(
        String::from_utf8_lossy(response.body()),
        "The request has more than 1000 distinct Request.Form names, the most ASP.NET \
         reads (MaxHttpCollectionKeys).\n"
    );
}

#[tokio::test]
async fn a_query_string_longer_than_asp_net_reads_gets_its_400() {
    let call = "sonumber=5&repnumber=42&timestamp=t&sig=";
    let at_limit = format!("{call}{}", "s".repeat(2048 - call.len()));
    let response = handle(
        http::Request::get(format!("{PATH}/{OP}?{at_limit}"))
            .body(Bytes::new())
            .unwrap(),
    )
    .await;
    assert_eq!(response.status(), 200);
    for target in [
        format!("{PATH}/{OP}?{at_limit}s"),
        format!("{PATH}?{at_limit}s"),
    ] {
        let response = handle(http::Request::get(target).body(Bytes::new()).unwrap()).await;
        assert_eq!(response.status(), 400);
        assert!(String::from_utf8_lossy(response.body()).contains("maxQueryStringLength"));
    }
}

/// A parameter that is read holds text only, as ASMX's `XmlReader.ReadElementString` reads
/// it: a comment, a processing instruction or an element in it gets 400 and an empty body
/// (the Mono host's answer, and .NET Framework's reader refuses the same). Between
/// parameters, or in a repeated parameter that is not read, they are ignored.
#[tokio::test]
async fn a_parameter_holding_more_than_text_is_refused_as_the_host_refuses_it() {
    let refused = [
        "<sonumber><!--c-->5</sonumber><repnumber>42</repnumber><timestamp>t</timestamp><sig>s</sig>",
        "<sonumber>5</sonumber><repnumber>42</repnumber><timestamp>t</timestamp><sig>s<!--c--></sig>",
        "<sonumber>5</sonumber><repnumber>42</repnumber><timestamp>t</timestamp><sig><?pi x?>s</sig>",
        "<sonumber>5</sonumber><repnumber>42</repnumber><timestamp>t</timestamp><sig>s<b/></sig>",
    ];
    let read = [
        "<sonumber>5</sonumber><!--c--><repnumber>42</repnumber><?pi x?><timestamp>t</timestamp><sig>s</sig>",
        "<sonumber>5</sonumber><repnumber>42</repnumber><timestamp>t</timestamp><sig>s</sig><sig>b<!--c--></sig>",
    ];
    for children in refused.iter().chain(&read) {
        let body = operation("", children);
        for request in [
            soap11(true, envelope11(&body)),
            soap11(false, envelope11(&body)),
            soap12(envelope12(&body)),
        ] {
            let response = handle(request).await;
            if refused.contains(children) {
                assert_eq!(response.status(), 400, "{children}");
                assert!(response.body().is_empty(), "{children}");
            } else {
                assert_eq!(response.status(), 200, "{children}");
                let text = String::from_utf8_lossy(response.body());
                assert!(
                    text.contains("(sonumber=5;repnumber=42;timestamp=t;sig=s)"),
                    "{text}"
                );
            }
        }
    }
}

/// A request its operation's decoder refuses before its end is still answered 400 when the
/// document is malformed further on: the host reads (skipping) to the end before it answers.
#[tokio::test]
async fn a_refused_envelope_malformed_further_on_is_answered_as_malformed() {
    // The action names the operation; the body holds another element, whose end tag is wrong.
    let body = format!(r#"<Unknown xmlns="{NS}">{CHILDREN}</{OP}>"#);
    for request in [soap11(true, envelope11(&body)), soap12(envelope12(&body))] {
        let response = handle(request).await;
        assert_eq!(response.status(), 400);
        assert!(response.body().is_empty());
    }
    // Well-formed, the same refusal is the client fault it was.
    let body = format!(r#"<Unknown xmlns="{NS}">{CHILDREN}</Unknown>"#);
    let response = handle(soap11(true, envelope11(&body))).await;
    assert_eq!(response.status(), 500);
    assert!(String::from_utf8_lossy(response.body()).contains("<faultcode>soap:Client</faultcode>"));
}

/// A form body is read in its declared charset, as ASP.NET reads `Request.Form`.
#[tokio::test]
async fn an_http_post_form_is_read_in_its_declared_charset() {
    let post = |content_type: &'static str, body: &'static [u8]| {
        http::Request::post(format!("{PATH}/{OP}"))
            .header("content-type", content_type)
            .body(Bytes::from_static(body))
            .unwrap()
    };
    let latin1 = handle(post(
        "application/x-www-form-urlencoded; charset=ISO-8859-1",
        b"sonumber=5&repnumber=42&timestamp=caf%E9&sig=s",
    ))
    .await;
    assert_eq!(latin1.status(), 200);
    let text = String::from_utf8_lossy(latin1.body());
    assert!(text.contains("timestamp=café;sig=s)"), "{text}");
    // US-ASCII with a byte above 0x7F: .NET reads `?`; we refuse, naming the charset.
    let ascii = handle(post(
        "application/x-www-form-urlencoded; charset=us-ascii",
        b"sonumber=5&repnumber=42&timestamp=caf%C3%A9&sig=s",
    ))
    .await;
    assert_eq!(ascii.status(), 500);
    let text = String::from_utf8_lossy(ascii.body());
    assert!(
        text.starts_with("The form body is declared US-ASCII"),
        "{text}"
    );
    // No charset, or one .NET cannot name: UTF-8.
    for content_type in [
        "application/x-www-form-urlencoded",
        "application/x-www-form-urlencoded; charset=bogus",
    ] {
        let utf8 = handle(post(
            content_type,
            b"sonumber=5&repnumber=42&timestamp=caf%C3%A9&sig=s",
        ))
        .await;
        assert_eq!(utf8.status(), 200, "{content_type}");
        assert!(String::from_utf8_lossy(utf8.body()).contains("timestamp=café;"));
    }
}

/// Text in the Body, before the operation's element or after it, is ignored, as the host
/// ignores it; bytes that are not UTF-8 in a SOAP body are malformed XML (400), as the host
/// answers them.
#[tokio::test]
async fn text_in_the_body_is_ignored_and_bytes_not_utf8_are_malformed() {
    let op = operation("", CHILDREN);
    for inner in [format!("x{op}"), format!("{op}x"), format!("x{op}y")] {
        for request in [
            soap11(true, envelope11(&inner)),
            soap11(false, envelope11(&inner)),
            soap12(envelope12(&inner)),
        ] {
            let response = handle(request).await;
            assert_eq!(response.status(), 200, "{inner}");
        }
    }
    let mut bytes =
        envelope11(&operation("", "<sonumber>5</sonumber><sig>a\u{1}</sig>")).into_bytes();
    let at = bytes.iter().position(|&b| b == 1).unwrap();
    bytes[at] = 0xFF;
    let request = http::Request::post(PATH)
        .header("content-type", "text/xml; charset=utf-8")
        .header("soapaction", format!("\"{NS}/{OP}\""))
        .body(Bytes::from(bytes))
        .unwrap();
    let response = handle(request).await;
    assert_eq!(response.status(), 400);
    assert!(response.body().is_empty());
}
