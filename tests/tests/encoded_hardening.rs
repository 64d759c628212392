//! Hostile requests to the encoded service (`rmm-encoded`, SOAP RPC/encoded): references are
//! followed, so a message can nest by reference past what its text nests, point back at
//! itself, or repeat one value many times. Each request here is answered sans-IO by
//! `EncodedServiceServer::new(EncodedEcho).handle(request)` with a client fault or a 400,
//! never a panic or a stack overflow, and the same server then answers an ordinary request
//! as before. How fast anything is is never asserted.

use bytes::Bytes;
use rmm_encoded::*;
use rmm_tests::encoded_service::{call_probes, probe, EncodedEcho};

const PATH: &str = "/api/rmm/EncodedService.asmx";
const NS: &str = "http://rmm.example.com/encoded";

/// A SOAP 1.1 rpc request of `op`: the method element holding `params`, then `rest` (the
/// multi-reference values) in the Body.
fn request(op: &str, params: &str, rest: &str) -> http::Request<Bytes> {
    let body = format!(
        r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="{NS}"><soap:Body><tns:{op}>{params}</tns:{op}>{rest}</soap:Body></soap:Envelope>"#
    );
    http::Request::post(PATH)
        .header("content-type", "text/xml; charset=utf-8")
        .header("soapaction", format!("\"{NS}/{op}\""))
        .body(Bytes::from(body))
        .unwrap()
}

/// The fault string of a response (its whole body, where it is none).
fn body(response: &http::Response<Bytes>) -> String {
    String::from_utf8_lossy(response.body()).into_owned()
}

/// Answers `request`, checks it is refused with a client fault naming `why`, then checks the
/// server still answers an ordinary request.
async fn refused(
    server: &EncodedServiceServer<EncodedEcho>,
    request: http::Request<Bytes>,
    why: &str,
) {
    let response = server.handle(request).await;
    assert_eq!(response.status(), 500, "{}", body(&response));
    let text = body(&response);
    assert!(
        text.contains("<faultcode>soap:Client</faultcode>"),
        "{text}"
    );
    assert!(text.contains(why), "{why:?} not in {text}");
    let ordinary = probe("lines");
    let again = server.handle(ordinary.http_request()).await;
    assert_eq!(again.status(), 200);
    assert_eq!(again.body().as_ref(), ordinary.response.body.as_slice());
}

#[tokio::test]
async fn references_that_go_round_are_refused_by_their_types() {
    let server = EncodedServiceServer::new(EncodedEcho);
    // A line whose end is the line itself is a type mismatch (a Line is no Point) …
    refused(
        &server,
        request(
            "EchoLine",
            r##"<l href="#a"/>"##,
            r##"<tns:Line id="a" xsi:type="tns:Line"><From href="#a"/></tns:Line>"##,
        ),
        "Cannot assign object of type Line to an object of type Point",
    )
    .await;
    // … so a cycle of a type that holds itself is an array of arrays: refused, not followed
    // forever (the array's type is the items' type, `Point`, which an array is not).
    refused(
        &server,
        request(
            "EchoPoints",
            r##"<ps href="#a"/>"##,
            r##"<soapenc:Array id="a" soapenc:arrayType="tns:Point[1]"><i href="#a"/></soapenc:Array>"##,
        ),
        "ps/Item[1]",
    )
    .await;
}

#[tokio::test]
async fn many_references_are_read_and_nesting_past_the_bound_is_malformed() {
    let server = EncodedServiceServer::new(EncodedEcho);
    // 200 arrays of a line each, every line's end a reference to one point.
    let mut rest = String::new();
    for i in 0..200 {
        rest.push_str(&format!(
            r##"<soapenc:Array id="a{i}" soapenc:arrayType="tns:Line[1]"><i href="#l{i}"/></soapenc:Array><tns:Line id="l{i}"><From href="#p"/></tns:Line>"##
        ));
    }
    rest.push_str(r#"<tns:Point id="p"><X>1</X></tns:Point>"#);
    // 200 arrays, each referenced once: well within the bounds, answered.
    let response = server
        .handle(request("EchoLines", r##"<ls href="#a0"/>"##, &rest))
        .await;
    assert_eq!(response.status(), 200, "{}", body(&response));
    // Elements nested past the bound (128 levels, as for literal requests): malformed, 400.
    let mut deep = String::new();
    for _ in 0..300 {
        deep.push_str("<From>");
    }
    for _ in 0..300 {
        deep.push_str("</From>");
    }
    let response = server
        .handle(request("EchoLine", &format!("<l>{deep}</l>"), ""))
        .await;
    assert_eq!(response.status(), 400, "{}", body(&response));
    assert!(response.body().is_empty());
}

#[tokio::test]
async fn one_value_referenced_many_times_stops_at_the_value_bound() {
    let server = EncodedServiceServer::new(EncodedEcho);
    // An array of 600 items, each a reference to an array of 600 references to one point:
    // 360,000 points if followed, from a message of some 30 kB.
    let mut outer = String::from(r#"<soapenc:Array id="o" soapenc:arrayType="tns:Line[600]">"#);
    for _ in 0..600 {
        outer.push_str(r##"<i href="#l"/>"##);
    }
    outer.push_str("</soapenc:Array>");
    let line = r##"<tns:Line id="l"><From href="#p"/><To href="#p"/></tns:Line><tns:Point id="p"><X>1</X></tns:Point>"##;
    // 600 lines of two points: 1,800 values, answered (each written out again).
    let response = server
        .handle(request(
            "EchoLines",
            r##"<ls href="#o"/>"##,
            &format!("{outer}{line}"),
        ))
        .await;
    assert_eq!(response.status(), 200, "{}", body(&response));
    // 100,000 items referring to that one line: 300,000 values from 1.5 MB, past the
    // 250,000 a message may hold.
    let mut outer = String::from(r#"<soapenc:Array id="o" soapenc:arrayType="tns:Line[100000]">"#);
    for _ in 0..100_000 {
        outer.push_str(r##"<i href="#l"/>"##);
    }
    outer.push_str("</soapenc:Array>");
    refused(
        &server,
        request(
            "EchoLines",
            r##"<ls href="#o"/>"##,
            &format!("{outer}{line}"),
        ),
        "the message holds more than 250000 values",
    )
    .await;
}

/// Every probe, its request cut short at many points and with bytes flipped: each answered
/// (a fault, a 400 or a result), none a panic; afterwards every probe answers as recorded.
#[tokio::test]
async fn mangled_probes_are_answered_and_the_server_goes_on() {
    let server = EncodedServiceServer::new(EncodedEcho);
    let probes = call_probes();
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // Our answers before: the same after.
    let mut before = Vec::new();
    for c in &probes {
        before.push(server.handle(c.http_request()).await);
    }
    let mut answered = 0;
    for c in probes
        .iter()
        .filter(|c| c.request.start_line.starts_with("POST"))
    {
        let original = c.http_request();
        let (parts, bytes) = original.into_parts();
        for round in 0..12 {
            let mut mangled = bytes.to_vec();
            if mangled.is_empty() {
                continue;
            }
            if round % 3 == 0 {
                mangled.truncate((next() as usize) % mangled.len());
            } else {
                for _ in 0..1 + round % 4 {
                    let at = (next() as usize) % mangled.len();
                    mangled[at] = b"<>\"#&/ =x1"[(next() as usize) % 10];
                }
            }
            let mut request = http::Request::new(Bytes::from(mangled));
            *request.method_mut() = parts.method.clone();
            *request.uri_mut() = parts.uri.clone();
            *request.headers_mut() = parts.headers.clone();
            request.headers_mut().remove("content-length");
            let response = server.handle(request).await;
            assert!(
                [200, 400, 500].contains(&response.status().as_u16()),
                "{}: {}",
                c.name,
                response.status()
            );
            answered += 1;
        }
    }
    assert!(answered > 1500, "{answered}");
    for (c, before) in probes.iter().zip(&before) {
        let response = server.handle(c.http_request()).await;
        assert_eq!(response.status(), before.status(), "{}", c.name);
        assert_eq!(response.body(), before.body(), "{}", c.name);
    }
}
