//! The fidelity section: the same request bytes (every operation × binding, the error
//! cases, a few framework-level requests, the replayed captures) go to Mono and to ours and
//! the responses are compared ([`crate::compare`]); then the cases where we are
//! deliberately stricter than the host are checked.

use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::{self, Request};
use rmm_mobile::{Binding, Operation, SERVICE};
use rmm_tests::captures::{self, DELIBERATE, TRANSPORT};

use crate::client::{encode, pairs_for, ErrorCase, ERROR_CASES};
use crate::compare::{compare, Verdict};
use crate::mutation::mutate;
use crate::raw::{exchange, raw_capture_request, raw_request};
use crate::record;
use crate::report::Report;
use crate::{Checks, Target};

/// One fidelity case: the request bytes sent to both.
pub(crate) struct Case {
    pub(crate) name: String,
    pub(crate) verdict: Verdict,
    pub(crate) mono_status: u16,
    pub(crate) ours_status: u16,
    /// Counted as a check (informational cases are only reported).
    pub(crate) counted: bool,
}

/// Sends `request` to both servers and compares; counts a check when `counted`.
async fn fidelity_case(
    checks: &mut Checks,
    mono: &Target,
    ours: &Target,
    name: String,
    request: &[u8],
    counted: bool,
) -> (Verdict, u16, u16) {
    let results = (
        exchange(mono.addr, request).await,
        exchange(ours.addr, request).await,
    );
    let (verdict, ms, os) = match results {
        (Ok(m), Ok(o)) => (compare(&m, &o), m.status, o.status),
        (m, o) => (
            Verdict {
                unexplained: vec![format!(
                    "exchange failed: Mono {:?}, ours {:?}",
                    m.err(),
                    o.err()
                )],
                explained: Vec::new(),
            },
            0,
            0,
        ),
    };
    if counted {
        let result = if verdict.unexplained.is_empty() {
            Ok(())
        } else {
            Err(verdict.unexplained.join("\n     "))
        };
        checks.check(&name, result);
    } else if !verdict.unexplained.is_empty() {
        println!(
            "note (not counted) {name}: {}",
            verdict.unexplained.join("\n     ")
        );
    }
    (verdict, ms, os)
}

pub(crate) async fn fidelity_section(
    checks: &mut Checks,
    mono: &Target,
    ours: &Target,
    report: &mut Report,
) {
    checks.section("fidelity: the same request bytes to Mono and to ours");
    let host = mono.addr.to_string();
    for (b, binding) in Binding::ALL.into_iter().enumerate() {
        for (i, op) in Operation::ALL.into_iter().enumerate() {
            let name = format!("fidelity {} over {binding}", op.name());
            let request = match encode(op, &pairs_for(op, binding), binding) {
                Ok(r) => r,
                Err(e) => {
                    checks.check(&name, Err(format!("cannot encode: {e}")));
                    continue;
                }
            };
            let raw = raw_request(&request, &host);
            let (verdict, ms, os) =
                fidelity_case(checks, mono, ours, name.clone(), &raw, true).await;
            report.ops.insert(
                (i, b),
                Case {
                    name,
                    verdict,
                    mono_status: ms,
                    ours_status: os,
                    counted: true,
                },
            );
        }
    }
    // The error cases, as the generated client sends them.
    // (name, request bytes, counted as a check)
    let mut others: Vec<(String, Vec<u8>, bool)> = Vec::new();
    for binding in Binding::ALL {
        for case in ERROR_CASES {
            match encode(case.operation(), &case.pairs(), binding) {
                Ok(r) => others.push((
                    format!("fidelity {} over {binding}", case.label()),
                    raw_request(&mutate(r, case.mutation()), &host),
                    true,
                )),
                Err(e) => {
                    checks.check(case.label(), Err(format!("cannot encode: {e}")));
                }
            }
        }
    }
    // A few framework-level requests.
    let soap_unknown = |binding: Binding| {
        let mut r = encode(
            Operation::MobileServiceOrderLockCheck,
            &ErrorCase::Missing.pairs(),
            binding,
        )
        .expect("encodes");
        let body = String::from_utf8_lossy(r.body())
            .replace("MobileServiceOrderLockCheck", "NoSuchOperation");
        *r.body_mut() = Bytes::from(body);
        if let Some(v) = r.headers().get("soapaction").cloned() {
            let v = v
                .to_str()
                .unwrap_or_default()
                .replace("MobileServiceOrderLockCheck", "NoSuchOperation");
            r.headers_mut()
                .insert("soapaction", v.parse().expect("header"));
        }
        if let Some(v) = r.headers().get(http::header::CONTENT_TYPE).cloned() {
            let v = v
                .to_str()
                .unwrap_or_default()
                .replace("MobileServiceOrderLockCheck", "NoSuchOperation");
            r.headers_mut()
                .insert(http::header::CONTENT_TYPE, v.parse().expect("header"));
        }
        if !binding.is_soap() {
            let uri = r
                .uri()
                .to_string()
                .replace("MobileServiceOrderLockCheck", "NoSuchOperation");
            *r.uri_mut() = uri.parse().expect("uri");
        }
        r
    };
    for binding in Binding::ALL {
        others.push((
            format!("fidelity unknown operation over {binding}"),
            raw_request(&soap_unknown(binding), &host),
            true,
        ));
    }
    for binding in [Binding::Soap11, Binding::Soap12] {
        let mut r = encode(
            Operation::MobileServiceOrderLockCheck,
            &ErrorCase::Missing.pairs(),
            binding,
        )
        .expect("encodes");
        let body = r.body().slice(..r.body().len() - 20);
        *r.body_mut() = body;
        others.push((
            format!("fidelity truncated XML over {binding}"),
            raw_request(&r, &host),
            true,
        ));
    }
    // The WSDL is counted (the README says ours is the host's byte for byte); discovery and
    // the help page are beyond the interface's bindings: reported, not counted.
    for (query, counted) in [
        ("?wsdl", true),
        ("?WSDL", true),
        ("?disco", false),
        ("", false),
    ] {
        let r = Request::get(format!("{}{query}", SERVICE.path))
            .body(Bytes::new())
            .expect("request");
        others.push((
            format!("fidelity GET {}{query}", SERVICE.path),
            raw_request(&r, &host),
            counted,
        ));
    }
    // Every other recorded request (tests/fixtures/asmx), replayed live; the generated ones
    // were sent above as the spec makes them today.
    let recorded = captures::load();
    let generated = record::generated_names();
    for c in &recorded {
        if TRANSPORT.contains(&c.name.as_str())
            || DELIBERATE.iter().any(|(n, _, _)| *n == c.name)
            || generated.contains(&c.name)
        {
            continue;
        }
        others.push((
            format!("replayed capture {}", c.name),
            raw_capture_request(c, &host),
            true,
        ));
    }
    for (name, raw, counted) in others {
        let (verdict, ms, os) =
            fidelity_case(checks, mono, ours, name.clone(), &raw, counted).await;
        report.others.push(Case {
            name,
            verdict,
            mono_status: ms,
            ours_status: os,
            counted,
        });
    }

    checks.section("deliberately stricter: the host's silently wrong 200s, refused by ours");
    for (name, ours_want, why) in DELIBERATE {
        let Some(c) = recorded.iter().find(|c| c.name == *name) else {
            checks.check(name, Err("capture not found".into()));
            continue;
        };
        let raw = raw_capture_request(c, &host);
        let recorded_status = captures::status(&c.response);
        let (m, o) = (
            exchange(mono.addr, &raw).await,
            exchange(ours.addr, &raw).await,
        );
        let (ms, os) = (
            m.as_ref().map_or(0, |r| r.status),
            o.as_ref().map_or(0, |r| r.status),
        );
        let result = if os != *ours_want {
            Err(format!(
                "ours answered {os}, want our deliberate {ours_want} ({why})"
            ))
        } else if ms != recorded_status {
            Err(format!(
                "Mono answered {ms} live but {recorded_status} when recorded"
            ))
        } else {
            Ok(())
        };
        let ok = checks.check(&format!("deliberate {name}: {why}"), result);
        report
            .deliberate
            .push((name.to_string(), ms, recorded_status, os, why, ok));
    }
}
