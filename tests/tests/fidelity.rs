//! Every recorded request, replayed through our whole server (routing, decoding, the echo
//! service, encoding, headers) and compared with what the reference ASMX host answered:
//! status, `Content-Type` and `Cache-Control` always; the body byte for byte for results;
//! the fault code for faults; empty bodies where the host sends none. Texts of the host's
//! own error messages are not compared (Mono leaves `{0}` placeholders in them; ours are
//! sentences). Every case where we answer differently on purpose is named below.

#[allow(dead_code)]
#[path = "../../generated/examples/echo_server.rs"]
mod echo_server;

use bytes::Bytes;
use rmm_mobile::MobileServiceServer;
use rmm_tests::captures::{between, load, status, with_raw_cr, Capture, DELIBERATE, TRANSPORT};

fn request_of(c: &Capture) -> http::Request<Bytes> {
    let mut parts = c.request.start_line.split(' ');
    let (method, target) = (parts.next().unwrap(), parts.next().unwrap());
    let mut request = http::Request::builder().method(method).uri(target);
    for (name, value) in &c.request.headers {
        request = request.header(name, value);
    }
    request.body(Bytes::from(c.request.body.clone())).unwrap()
}

fn fault_code(body: &str) -> Option<&str> {
    between(body, "<faultcode>", "</faultcode>")
        .or_else(|| between(body, "<soap:Value>", "</soap:Value>"))
}

#[tokio::test]
async fn our_server_answers_every_recorded_request_as_the_host_did() {
    let server = MobileServiceServer::new(echo_server::Echo);
    let mut same = 0;
    let mut deliberate = 0;
    let mut differences = Vec::new();
    for c in load() {
        if TRANSPORT.contains(&c.name.as_str()) {
            continue;
        }
        let ours = server.handle(request_of(&c)).await;
        let ours_status = ours.status().as_u16();
        let header = |name: &str| {
            ours.headers()
                .get(name)
                .map(|v| v.to_str().unwrap().to_owned())
        };
        if let Some((_, status, why)) = DELIBERATE.iter().find(|(name, _, _)| *name == c.name) {
            if ours_status == *status {
                deliberate += 1;
            } else {
                differences.push(format!(
                    "{}: expected our deliberate {status} ({why}), got {ours_status}",
                    c.name
                ));
            }
            continue;
        }
        let host_status = status(&c.response);
        let host_body = String::from_utf8_lossy(&c.response.body).into_owned();
        let ours_body = String::from_utf8_lossy(ours.body()).into_owned();
        let mut problems = Vec::new();
        if ours_status != host_status {
            problems.push(format!("status {ours_status}, host {host_status}"));
        }
        for name in ["content-type", "cache-control"] {
            let host = c.response.header(name).map(str::to_owned);
            if header(name) != host {
                problems.push(format!("{name} {:?}, host {host:?}", header(name)));
            }
        }
        let html = c
            .response
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/html"));
        if host_status == 200 && !html {
            // The one deliberate difference in a result: a CR we write as `&#xD;`.
            if ours.body().contains(&b'\r') || with_raw_cr(ours.body()) != c.response.body {
                problems.push(format!("body {ours_body:?}\n    host {host_body:?}"));
            }
        } else if host_body.starts_with("A potentially dangerous Request.") {
            // The one GET/POST error text we copy from ASP.NET, HTML-encoding included.
            if ours_body != host_body {
                problems.push(format!("body {ours_body:?}\n    host {host_body:?}"));
            }
        } else if let Some(code) = fault_code(&host_body) {
            if fault_code(&ours_body) != Some(code) {
                problems.push(format!(
                    "fault code {:?}, host {code}",
                    fault_code(&ours_body)
                ));
            }
        } else if host_body.is_empty() != ours_body.is_empty() {
            problems.push(format!("body {ours_body:?}, host {host_body:?}"));
        }
        if problems.is_empty() {
            same += 1;
        } else {
            differences.push(format!("{}: {}", c.name, problems.join("; ")));
        }
    }
    assert!(
        differences.is_empty(),
        "{} differences:\n{}",
        differences.len(),
        differences.join("\n")
    );
    assert_eq!(deliberate, DELIBERATE.len());
    assert!(same >= 240, "only {same} exchanges compared");
}

/// `?disco`: the discovery document, byte for byte the host's (same Host header).
#[tokio::test]
async fn the_discovery_document_is_the_hosts() {
    let host = rmm_tests::captures::load_one("disco").response;
    let request = http::Request::get("/api/rmm/MobileService.asmx?disco")
        .header("host", "127.0.0.1:18081")
        .body(Bytes::new())
        .unwrap();
    let ours = MobileServiceServer::new(echo_server::Echo)
        .handle(request)
        .await;
    assert_eq!(ours.status(), 200);
    assert_eq!(
        ours.headers()["content-type"],
        host.header("content-type").unwrap()
    );
    assert_eq!(
        ours.headers()["cache-control"],
        host.header("cache-control").unwrap()
    );
    assert_eq!(
        String::from_utf8_lossy(ours.body()),
        String::from_utf8_lossy(&host.body)
    );
}
