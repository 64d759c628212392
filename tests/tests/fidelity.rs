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
use rmm_tests::captures::{answer_differences, load, DELIBERATE, TRANSPORT};

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
        let ours = server.handle(c.http_request()).await;
        let ours_status = ours.status().as_u16();
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
        let problems = answer_differences(&c.response, &ours);
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
