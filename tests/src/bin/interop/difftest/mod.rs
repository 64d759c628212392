//! `--difftest`: differential testing against the reference host. Generated requests
//! ([`generate`]) go byte for byte to the Mono host and to our echo server; their answers are
//! compared by what a client acts on ([`Outcome`]): the status, the content type, the SOAP
//! fault code (with SOAP 1.2's subcode), and for a 200 the body's bytes. Every difference is
//! either named by a [`Deliberate`](deliberate::Deliberate) rule (we refuse where the host answers with silently wrong
//! data, or we follow .NET Framework where Mono differs) or unexplained; the host is asked
//! again before a difference counts as unexplained, and an answer it does not repeat is
//! reported apart. The report
//! (`target/interop/difftest.md`) counts cases and differences per class, each with the
//! shortest request that shows it.

mod deliberate;
mod generate;
mod objects;
mod objects_deliberate;
mod script;
mod script_deliberate;
pub(crate) mod shadow;
mod types;
mod types_deliberate;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use futures_util::StreamExt;
use rmm_mobile::runtime::deps::tokio;
use rmm_tests::captures::{between, with_raw_cr};

use crate::raw::{exchange, Raw};
use crate::record::RECORDED_HOST;
use deliberate::{explained, DELIBERATE};
use rmm_mobile::SERVICE;
use rmm_tests::types_service::TypesEcho;
use rmm_types::TypesServiceServer;
use types_deliberate::TYPES_DELIBERATE;

/// One generated request.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    /// What was changed (`value:int`, `header:content-type`, …).
    pub class: String,
    /// The request's bytes, `Host` and `Connection: close` included.
    pub request: Vec<u8>,
    /// Which service it is for.
    pub service: Service,
}

/// The reference service a case is for, each with a server of ours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Service {
    /// The Mobile service (`generate::cases`).
    Mobile,
    /// The types service (`types::cases`).
    Types,
    /// The objects service (`objects::cases`).
    Objects,
    /// The script service's JSON face (`script::cases`).
    Script,
}

/// What a client acts on in an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Outcome {
    status: u16,
    content_type: String,
    /// `soap:Client` (1.1) or `soap:Sender/…` (1.2, with its subcode), when a fault.
    fault: Option<String>,
    /// Whether the answer is ASP.NET AJAX's JSON error (`jsonerror: true`), which its
    /// client reads as the call's failure.
    json_error: bool,
    /// The body of a 200 (HTML pages aside), as the host would write it (our `&#xD;` as a
    /// raw CR: the one deliberate difference in results, see the README).
    pub(crate) body: Option<Vec<u8>>,
}

impl Outcome {
    pub(crate) fn of(raw: &Raw) -> Outcome {
        let content_type = raw.header("content-type").unwrap_or("").to_owned();
        let text = String::from_utf8_lossy(&raw.body);
        let fault = between(&text, "<faultcode>", "</faultcode>")
            .map(str::to_owned)
            .or_else(|| {
                let code = between(&text, "<soap:Code>", "</soap:Code>")?;
                let value = between(code, "<soap:Value>", "</soap:Value>")?;
                let sub = between(code, "<soap:Subcode>", "</soap:Subcode>")
                    .and_then(|s| between(s, "<soap:Value>", "</soap:Value>"));
                Some(match sub {
                    Some(sub) => format!("{value}/{sub}"),
                    None => value.to_owned(),
                })
            });
        let body = (raw.status == 200 && !content_type.starts_with("text/html"))
            .then(|| with_raw_cr(&raw.body));
        Outcome {
            status: raw.status,
            content_type,
            fault,
            json_error: raw.header("jsonerror") == Some("true"),
            body,
        }
    }

    /// One line: `500 text/xml soap:Client`.
    fn summary(&self) -> String {
        let mut text = format!("{} {}", self.status, self.content_type);
        if let Some(fault) = &self.fault {
            text.push(' ');
            text.push_str(fault);
        }
        if self.json_error {
            text.push_str(" jsonerror");
        }
        text
    }
}

/// The kind of a difference between two outcomes, for grouping: what differs, with both
/// sides' status, content type and fault code (not the bodies).
pub(crate) fn difference(mono: &Outcome, ours: &Outcome) -> Option<String> {
    if mono == ours {
        return None;
    }
    let (m, o) = (mono.summary(), ours.summary());
    if m != o {
        Some(format!("Mono {m} / ours {o}"))
    } else {
        Some(format!("{m}: the body differs"))
    }
}

/// A class of difference: the generator's class, what differs, and the deliberate rule's
/// reason if one names it (cases of one class and kind may be named or not).
type Key = (String, String, Option<&'static str>);

/// One class of difference: how often, and the shortest request showing it.
struct Seen {
    count: usize,
    example: Vec<u8>,
    mono: Raw,
    ours: Raw,
    why: Option<&'static str>,
}

/// Asks the host for its help page and WSDL once, alone. Mono compiles its help page on the
/// first request for it; requests for it that arrive during that compilation get a 500
/// "Runtime Error" page (seen when difftest's first help-page requests ran beside others on a
/// fresh host), which is the host's start-up, not an answer to compare.
pub(crate) async fn warm_up(mono: SocketAddr) -> Result<(), String> {
    for (path, target) in [
        (SERVICE.path, ""),
        (SERVICE.path, "?wsdl"),
        (rmm_types::SERVICE.path, "?wsdl"),
        (rmm_objects::SERVICE.path, "?wsdl"),
    ] {
        let request = format!(
            "GET {path}{target} HTTP/1.1\r\nHost: {RECORDED_HOST}\r\nConnection: close\r\n\r\n"
        );
        let answer = exchange(mono, request.as_bytes()).await?;
        if answer.status != 200 {
            return Err(format!(
                "warming the host up: GET {target:?} answered {}",
                answer.status
            ));
        }
    }
    Ok(())
}

/// Whether the host still answers a plain request (its WSDL) within 10 s.
async fn host_answers(mono: SocketAddr) -> bool {
    let request = format!(
        "GET {}?wsdl HTTP/1.1\r\nHost: {RECORDED_HOST}\r\nConnection: close\r\n\r\n",
        SERVICE.path
    );
    matches!(
        tokio::time::timeout(Duration::from_secs(10), exchange(mono, request.as_bytes())).await,
        Ok(Ok(answer)) if answer.status == 200
    )
}

/// The error of a run whose host stopped answering after `case` went unanswered: a request
/// that may hang the host (a finding in itself), kept beside the report to be tried alone.
fn host_stopped(case: &Case, report: &Path) -> String {
    let kept = report.with_file_name("difftest-host-stopped.txt");
    let written = std::fs::write(&kept, &case.request);
    format!(
        "the host stopped answering (its WSDL too) after a {} case went unanswered; {}",
        case.class,
        match written {
            Ok(()) => format!("that request is in {}", kept.display()),
            Err(e) => format!("cannot write {}: {e}", kept.display()),
        }
    )
}

/// `count` cases of `seed`: half for the Mobile service, a quarter each for the types and the
/// objects service, each from a generator of its own so that a seed's Mobile cases do not
/// depend on them; and as many again of the script service's JSON face
/// ([`script_cases`]), which the difftest sends beside them.
pub(crate) fn cases(seed: u64, count: usize) -> Vec<Case> {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    let types = count / 4;
    let objects = count / 4;
    let mut cases = generate::cases(
        &mut ChaCha8Rng::seed_from_u64(seed),
        count - types - objects,
    );
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x7479_7065_735f_7273);
    cases.extend(types::cases(&mut rng, types));
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6f62_6a65_6374_7321);
    cases.extend(objects::cases(&mut rng, objects));
    cases
}

/// `count` cases of the script service's JSON face, from a generator of their own.
pub(crate) fn script_cases(seed: u64, count: usize) -> Vec<Case> {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x7363_7269_7074_3335);
    script::cases(&mut rng, count)
}

/// Sends every case of `seed` and `count` to both servers and writes the report; returns the
/// number of unexplained differences.
pub(crate) async fn run(
    mono: SocketAddr,
    ours: SocketAddr,
    seed: u64,
    count: usize,
    report: &Path,
) -> Result<usize, String> {
    let mut cases = cases(seed, count);
    cases.extend(script_cases(seed, count / 4));
    warm_up(mono).await?;
    // rmm's server for the types service, beside the Mobile echo server (`ours`).
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("cannot bind the types server: {e}"))?;
    let ours_types = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(TypesServiceServer::new(TypesEcho).serve(listener));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("cannot bind the objects server: {e}"))?;
    let ours_objects = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(
        rmm_objects::ObjectsServiceServer::new(rmm_tests::objects_service::ObjectsEcho)
            .serve(listener),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("cannot bind the script server: {e}"))?;
    let ours_script = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(
        rmm_script::ScriptServiceServer::new(rmm_tests::script_service::ScriptEcho).serve(listener),
    );
    let ours_for = |service: Service| match service {
        Service::Mobile => ours,
        Service::Types => ours_types,
        Service::Objects => ours_objects,
        Service::Script => ours_script,
    };
    let mut per_class: BTreeMap<String, usize> = BTreeMap::new();
    let mut seen: BTreeMap<Key, Seen> = BTreeMap::new();
    // Host answers that did not repeat: the class, the first answer, the second.
    let mut flakes: Vec<(String, String, String)> = Vec::new();
    let started = std::time::Instant::now();
    // A few requests at a time: the host answers each in milliseconds.
    let mut pending = futures_util::stream::iter(cases.into_iter().map(|case| async move {
        let ours = ours_for(case.service);
        let (m, o) = tokio::join!(exchange(mono, &case.request), exchange(ours, &case.request));
        (case, m, o)
    }))
    .buffer_unordered(4);
    while let Some((case, m, o)) = pending.next().await {
        *per_class.entry(case.class.clone()).or_default() += 1;
        // Mono now and then cuts an answer short under load (seen: a body shorter than its
        // content-length, twice in 100,000 cases, for requests it answers whole every time
        // alone): a cut answer is no answer of the host's, and the request is sent once more.
        let m = match (m, &o) {
            (Err(first), Ok(_)) => match exchange(mono, &case.request).await {
                Ok(again) => {
                    let second = Outcome::of(&again).summary();
                    flakes.push((case.class.clone(), format!("no answer ({first})"), second));
                    Ok(again)
                }
                Err(_) => Err(first),
            },
            (m, _) => m,
        };
        let (m, o) = match (m, o) {
            (Ok(m), Ok(o)) => (m, o),
            (m, o) => {
                if m.is_err() && !host_answers(mono).await {
                    return Err(host_stopped(&case, report));
                }
                let what = format!(
                    "no answer: Mono {}, ours {}",
                    m.err().unwrap_or_else(|| "answered".into()),
                    o.err().unwrap_or_else(|| "answered".into())
                );
                note(&mut seen, &case, what, None, None, None);
                continue;
            }
        };
        let (mut mo, oo) = (Outcome::of(&m), Outcome::of(&o));
        if case.service == Service::Script {
            mo.content_type = script::with_charset(mo.content_type);
        }
        let mut m = m;
        let mut why = None;
        if difference(&mo, &oo).is_some() {
            why = explained(&case.class, &case.request, (&mo, &oo), (&m, &o)).map(|d| d.why());
            // A difference no rule names is sent to the host once more. Mono now and then
            // answers a request with an error page it does not give again (seen: one 400
            // HTML page in 100,000 cases, for a request it answers 200 every time alone): an
            // answer that does not repeat is not the host's behaviour, and the second counts.
            if why.is_none() {
                if let Ok(again) = exchange(mono, &case.request).await {
                    let mut ao = Outcome::of(&again);
                    if case.service == Service::Script {
                        ao.content_type = script::with_charset(ao.content_type);
                    }
                    if ao != mo {
                        flakes.push((case.class.clone(), mo.summary(), ao.summary()));
                        (m, mo) = (again, ao);
                        why = explained(&case.class, &case.request, (&mo, &oo), (&m, &o))
                            .map(|d| d.why());
                    }
                }
            }
        }
        if let Some(kind) = difference(&mo, &oo) {
            note(&mut seen, &case, kind, Some(m), Some(o), why);
        }
    }
    let unexplained: usize = seen
        .values()
        .filter(|s| s.why.is_none())
        .map(|s| s.count)
        .sum();
    // Each rule's example is checked too: a deliberate difference that stops happening fails.
    let mut stopped = Vec::new();
    for rule in DELIBERATE
        .iter()
        .chain(TYPES_DELIBERATE)
        .chain(objects_deliberate::OBJECTS_DELIBERATE)
        .chain(script_deliberate::SCRIPT_DELIBERATE)
    {
        let request = rule.example();
        let answers = match (
            exchange(mono, &request).await,
            exchange(ours_for(rule.service()), &request).await,
        ) {
            (Ok(m), Ok(o)) if rule.holds(&request, &m, &o) => continue,
            (Ok(m), Ok(o)) => format!(
                "Mono {} `{}`, ours {} `{}`",
                m.status,
                shown(&m.body, 200).replace('\n', " "),
                o.status,
                shown(&o.body, 200).replace('\n', " ")
            ),
            (m, o) => format!("no answer: {:?} / {:?}", m.err(), o.err()),
        };
        stopped.push((rule, answers));
    }
    let mut text = render(seed, count, started.elapsed(), &per_class, &seen);
    let _ = write!(
        text,
        "\n## Host answers that did not repeat\n\n{} case(s) differed unexplained (or got no \
         whole answer from the host), and the host answered them otherwise when asked again; \
         the second answer was compared.\n\n",
        flakes.len()
    );
    for (class, first, second) in &flakes {
        let _ = writeln!(text, "- {class}: first {first}, then {second}");
    }
    if !stopped.is_empty() {
        text.push_str("\n## Deliberate differences whose example no longer differs so\n\n");
        for (rule, answers) in &stopped {
            let _ = writeln!(text, "- {}: {}\n  now: {answers}", rule.label(), rule.why());
        }
    }
    if let Some(dir) = report.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(report, text).map_err(|e| format!("{}: {e}", report.display()))?;
    Ok(unexplained + stopped.len())
}

fn note(
    seen: &mut BTreeMap<Key, Seen>,
    case: &Case,
    kind: String,
    mono: Option<Raw>,
    ours: Option<Raw>,
    why: Option<&'static str>,
) {
    let empty = || Raw {
        status: 0,
        headers: Vec::new(),
        body: Vec::new(),
    };
    let entry = seen
        .entry((case.class.clone(), kind, why))
        .or_insert_with(|| Seen {
            count: 0,
            example: case.request.clone(),
            mono: mono.clone().unwrap_or_else(empty),
            ours: ours.clone().unwrap_or_else(empty),
            why,
        });
    entry.count += 1;
    if case.request.len() < entry.example.len() {
        entry.example = case.request.clone();
        entry.mono = mono.unwrap_or_else(empty);
        entry.ours = ours.unwrap_or_else(empty);
    }
}

/// Printable text of bytes, cut at `limit`.
fn shown(bytes: &[u8], limit: usize) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(limit)]).into_owned();
    let more = if bytes.len() > limit { "…" } else { "" };
    format!("{}{more}", text.replace("```", "`\u{200b}``"))
}

fn render(
    seed: u64,
    count: usize,
    took: std::time::Duration,
    per_class: &BTreeMap<String, usize>,
    seen: &BTreeMap<Key, Seen>,
) -> String {
    let unexplained: usize = seen
        .values()
        .filter(|s| s.why.is_none())
        .map(|s| s.count)
        .sum();
    let deliberate: usize = seen
        .values()
        .filter(|s| s.why.is_some())
        .map(|s| s.count)
        .sum();
    let mut out = format!(
        "# Differential test: the Mono host and ours\n\n\
         Seed {seed}, {count} cases in {:.1} s: {unexplained} unexplained differences, \
         {deliberate} deliberate.\n\n\
         Run: `cargo xtask difftest --cases {count} --seed {seed}`.\n\n\
         ## Cases per class\n\n| class | cases | unexplained | deliberate |\n|---|---|---|---|\n",
        took.as_secs_f64()
    );
    for (class, n) in per_class {
        let (u, d) =
            seen.iter()
                .filter(|((c, _, _), _)| c == class)
                .fold((0, 0), |(u, d), (_, s)| {
                    if s.why.is_some() {
                        (u, d + s.count)
                    } else {
                        (u + s.count, d)
                    }
                });
        let _ = writeln!(out, "| {class} | {n} | {u} | {d} |");
    }
    for (title, deliberate) in [
        ("Unexplained differences", false),
        ("Deliberate differences", true),
    ] {
        let _ = write!(out, "\n## {title}\n");
        for ((class, kind, _), s) in seen.iter().filter(|(_, s)| s.why.is_some() == deliberate) {
            let _ = write!(out, "\n### {class}: {kind} ({} cases)\n\n", s.count);
            if let Some(why) = s.why {
                let _ = writeln!(out, "Why: {why}.\n");
            }
            let _ = write!(
                out,
                "Shortest request ({} bytes):\n\n```\n{}\n```\n\nMono: {} `{}`\n\nours: {} `{}`\n",
                s.example.len(),
                shown(&s.example, 8000),
                s.mono.status,
                shown(&s.mono.body, 300).replace('\n', " "),
                s.ours.status,
                shown(&s.ours.body, 300).replace('\n', " "),
            );
        }
    }
    out
}
