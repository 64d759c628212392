//! The objects service's recorded exchanges (`tests/fixtures/objects/asmx/`, recorded from the
//! reference host by `cargo xtask interop --record`), every request replayed through the
//! generated server of `rmm-objects` serving [`ObjectsEcho`], and compared with what the host
//! answered, as for the other two services: status, `Content-Type` and `Cache-Control`
//! always; the body byte for byte for results and the WSDL; the fault code for faults. Not
//! compared: the message of a GET/POST refusal (Mono's own text) and the help pages' HTML.
//! Every case where we answer differently on purpose is named in [`DELIBERATE`], with why,
//! and checked to still differ.

use rmm_objects::ObjectsServiceServer;
use rmm_tests::captures::{answer_differences, load_calls, load_one_from, status};
use rmm_tests::objects_service::{exchanges_dir, ObjectsEcho, DELIBERATE, PAGES};

#[tokio::test]
async fn our_server_answers_every_recorded_request_as_the_host_did() {
    let server = ObjectsServiceServer::new(ObjectsEcho);
    let dir = exchanges_dir();
    let mut cases = load_calls(&dir);
    for page in PAGES {
        cases.push(load_one_from(&dir, page));
    }
    let (mut same, mut deliberate, mut found) = (0, 0, Vec::new());
    for c in &cases {
        if let Some((_, want, why)) = DELIBERATE.iter().find(|(name, _, _)| *name == c.name) {
            let ours = server.handle(c.http_request()).await;
            let got = ours.status().as_u16();
            if got == *want && got != status(&c.response) {
                deliberate += 1;
            } else if got == *want && !answer_differences(&c.response, &ours).is_empty() {
                // The help page: the same status, our page.
                deliberate += 1;
            } else {
                found.push(format!(
                    "{}: expected our deliberate {want} ({why}), got {got}; the host answered {}",
                    c.name,
                    status(&c.response)
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
    assert!(same >= 80, "only {same} exchanges compared");
}

/// `tests/fixtures/objects/wsdl.xml` (what the import test reads) is the recorded `?WSDL`
/// answer's body, which the recording check keeps current.
#[test]
fn the_imported_wsdl_file_is_the_recorded_one() {
    let recorded = load_one_from(&exchanges_dir(), "wsdl").response.body;
    let file = std::fs::read(rmm_tests::root().join("tests/fixtures/objects/wsdl.xml")).unwrap();
    assert!(
        file == recorded,
        "tests/fixtures/objects/wsdl.xml is not the recorded WSDL"
    );
}
