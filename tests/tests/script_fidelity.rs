//! The script service's recorded exchanges (`tests/fixtures/script/asmx/`, recorded from the
//! reference host by `cargo xtask interop --record`), every request replayed through the
//! generated server of `rmm-script` serving [`ScriptEcho`], and compared with what the host
//! answered. A call of the JSON face (`Content-Type: application/json`) as
//! `json_answer_differences` compares it (status, content type but for its charset,
//! `Cache-Control`, `jsonerror`, a result's body but for .NET's `__type` hints); the others
//! as for the other services (status, `Content-Type`, `Cache-Control`; the body byte for byte
//! for results and the WSDL; the fault code for faults). Every case where we answer
//! differently on purpose is named in [`DELIBERATE`], with why, and checked to still differ;
//! the JavaScript proxies, whose text is Mono's own, by the calls a page makes through them.

use rmm_script::ScriptServiceServer;
use rmm_tests::captures::{
    answer_differences, json_answer_differences, load_raw, messages, status, Capture,
};
use rmm_tests::script_service::{exchanges_dir, proxy_calls, ScriptEcho, DELIBERATE};

/// A call of ASMX's JSON face: its content type is JSON's, whatever the verb.
fn json_call(c: &Capture) -> bool {
    c.request
        .header("content-type")
        .is_some_and(|t| t.to_ascii_lowercase().starts_with("application/json"))
}

#[tokio::test]
async fn our_server_answers_every_recorded_request_as_the_host_did() {
    let server = ScriptServiceServer::new(ScriptEcho);
    let cases: Vec<Capture> = load_raw(&exchanges_dir())
        .unwrap_or_else(|e| panic!("{e}"))
        .iter()
        .map(|c| messages(c).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let (mut same, mut deliberate, mut found) = (0, 0, Vec::new());
    for c in &cases {
        let ours = server.handle(c.http_request()).await;
        let problems = if json_call(c) {
            json_answer_differences(&c.response, &ours)
        } else {
            answer_differences(&c.response, &ours)
        };
        if let Some((_, want, why)) = DELIBERATE.iter().find(|(name, _, _)| *name == c.name) {
            let got = ours.status().as_u16();
            if got == *want && !problems.is_empty() {
                deliberate += 1;
            } else {
                found.push(format!(
                    "{}: expected our deliberate {want} ({why}), got {got}{}; the host answered {}",
                    c.name,
                    if problems.is_empty() {
                        ", as the host's"
                    } else {
                        ""
                    },
                    status(&c.response)
                ));
            }
            continue;
        }
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
    assert!(same >= 170, "only {same} exchanges compared");
}

/// The proxies' text is each implementation's own (rmm writes .NET Framework's, the host
/// Mono's): what a page calls through them is the same, method by method.
#[tokio::test]
async fn our_proxies_invoke_what_the_hosts_invoke() {
    let server = ScriptServiceServer::new(ScriptEcho);
    for name in ["js", "jsdebug"] {
        let c = rmm_tests::captures::load_one_from(&exchanges_dir(), name);
        let ours = server.handle(c.http_request()).await;
        let host = proxy_calls(&String::from_utf8_lossy(&c.response.body));
        let mine = proxy_calls(&String::from_utf8_lossy(ours.body()));
        assert!(host.len() > 20, "{name}: the host's proxy invokes {host:?}");
        assert_eq!(mine, host, "{name}");
    }
}
