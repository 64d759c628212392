//! The types service's recorded exchanges (`tests/fixtures/types/asmx/`, recorded from the
//! reference host by `cargo xtask interop --record`), every request replayed through the
//! generated server of `rmm-types` serving [`TypesEcho`], and compared with what the host
//! answered, as for the Mobile service (`fidelity.rs`): status, `Content-Type` and
//! `Cache-Control` always; the body byte for byte for results and the WSDL; the fault code
//! for faults. Not compared: the message of a GET/POST refusal (Mono's own text, `{0}`
//! placeholders included) and the help pages' HTML (Mono's layout; ours is .NET's). Every
//! case where we answer differently on purpose is named in [`DELIBERATE`], with why.

use rmm_tests::captures::{answer_differences, between, load_calls, load_one_from};
use rmm_tests::types_service::{exchanges_dir, TypesEcho, DELIBERATE, PAGES};
use rmm_types::runtime::Scalar;
use rmm_types::{DateTime, DateTimeKind, TypesServiceServer};

#[tokio::test]
async fn our_server_answers_every_recorded_request_as_the_host_did() {
    let server = TypesServiceServer::new(TypesEcho);
    let dir = exchanges_dir();
    let mut cases = load_calls(&dir);
    for page in PAGES {
        cases.push(load_one_from(&dir, page));
    }
    let (mut same, mut deliberate, mut found) = (0, 0, Vec::new());
    for c in &cases {
        if let Some((_, want, why)) = DELIBERATE.iter().find(|(name, _, _)| *name == c.name) {
            let got = server.handle(c.http_request()).await.status().as_u16();
            if got == *want {
                deliberate += 1;
            } else {
                found.push(format!(
                    "{}: expected our deliberate {want} ({why}), got {got}",
                    c.name
                ));
            }
            continue;
        }
        let ours = server.handle(c.http_request()).await;
        let problems = answer_differences(&c.response, &ours);
        if problems.is_empty() {
            same += 1;
        } else {
            found.push(format!("{}: {}", c.name, problems.join("; ")));
        }
    }
    assert!(
        found.is_empty(),
        "{} differences:\n{}",
        found.len(),
        found.join("\n")
    );
    assert_eq!(deliberate, DELIBERATE.len());
    assert!(same >= 200, "only {same} exchanges compared");
}

/// The instant a dateTime with a zone names, in UTC.
fn instant(text: &str) -> rmm_types::runtime::deps::chrono::NaiveDateTime {
    let read = DateTime::read_xml(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    match read.kind {
        DateTimeKind::Utc => read.value,
        DateTimeKind::Offset(offset) => read.value - offset,
        DateTimeKind::Unspecified => panic!("{text} names no instant"),
    }
}

/// The dateTime in a result document (GET/POST) or response envelope (SOAP).
fn date_time_result(body: &[u8]) -> String {
    let body = String::from_utf8_lossy(body);
    between(&body, "<EchoDateTimeResult>", "</EchoDateTimeResult>")
        .or_else(|| between(&body, "\">", "</dateTime>"))
        .unwrap_or_else(|| panic!("no dateTime in {body}"))
        .to_owned()
}

/// The deliberate date-time answers keep the zone the caller sent where the host converts it
/// to its own; both name the same instant.
#[tokio::test]
async fn a_kept_offset_names_the_instant_the_host_answers() {
    let server = TypesServiceServer::new(TypesEcho);
    let dir = exchanges_dir();
    let mut checked = 0;
    for (name, status, _) in DELIBERATE {
        if *status != 200 || name.starts_with("help") {
            continue;
        }
        let c = load_one_from(&dir, name);
        let ours = server.handle(c.http_request()).await;
        let (ours, host) = (
            date_time_result(ours.body()),
            date_time_result(&c.response.body),
        );
        assert_ne!(ours, host, "{name}: no longer a difference");
        assert_eq!(instant(&ours), instant(&host), "{name}: {ours} / {host}");
        checked += 1;
    }
    assert_eq!(checked, 6);
}

/// `tests/fixtures/types/wsdl.xml` (what `cargo xtask import` reads for the committed spec) is
/// the recorded `?WSDL` answer's body, which the recording check keeps current, and ours is
/// that document byte for byte (above).
#[test]
fn the_imported_wsdl_file_is_the_recorded_one() {
    let recorded = load_one_from(&exchanges_dir(), "wsdl").response.body;
    let file = std::fs::read(rmm_tests::root().join("tests/fixtures/types/wsdl.xml")).unwrap();
    assert!(
        file == recorded,
        "tests/fixtures/types/wsdl.xml is not the recorded WSDL"
    );
}
