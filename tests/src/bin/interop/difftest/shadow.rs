//! `--shadow`: rmm shadow proven on the reference host (issue 21). The difftest's generated
//! requests go through `rmm_shadow::run` standing in front of the Mono host (the primary),
//! with a second Mono host as the secondary and rmm's echo servers of the three reference
//! services as the candidate. Every difference the shadow reports must be one a client does
//! not act on (what the difftest compares: status, content type, fault code, a result's
//! bytes) or one a deliberate rule names; the shadow's explain hook says which. Then a
//! candidate with a seeded bug (MobileAccountSearch's SOAP 1.1 result gets a `9` in front)
//! must be reported as exactly one class, of that operation and binding.
//!
//! Reports: `target/interop/shadow/echo/report.{json,html}` and
//! `target/interop/shadow/seeded-bug/report.{json,html}`.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::{Request, Response};
use rmm_mobile::runtime::deps::http_body_util::BodyExt;
use rmm_mobile::runtime::deps::hyper::body::Incoming;
use rmm_mobile::runtime::deps::tokio;
use rmm_mobile::runtime::server::{serve, ServerConfig};
use rmm_mobile::MobileServiceServer;
use rmm_shadow::capture::RawCapture;
use rmm_shadow::report::Report;

use super::deliberate::explained;
use super::{cases, difference, warm_up, Case, Outcome};
use crate::raw::{exchange, Raw};

/// The operation the seeded bug is in, and the element its wrong value is written into.
const BUGGY: &str = "MobileAccountSearch";

/// Why a difference a client does not act on is accepted: the difftest's comparison.
const SAME_TO_A_CLIENT: &str = "what a client acts on is the same (status, content type, \
     fault code, a result's bytes); the texts of faults and error pages are each host's own";

/// Why a result that differs only where the host writes a raw CR and we `&#xD;` is accepted.
const CARRIAGE_RETURN: &str = "a carriage return in a result: the host writes it raw (an XML \
     parser reads it as a line feed), we write `&#xD;` (read as a carriage return); the one \
     deliberate difference in results (README)";

/// Why Mono's wsdl proxies' non-ASCII text over GET/POST comes back otherwise from the host.
const PROXY_NON_ASCII: &str = "non-ASCII text a .NET proxy sends over HTTP GET or POST \
     (`%uXXXX` escapes): Mono keeps the escapes of a query literally and misreads those of a \
     form (tests/interop/dotnet); we answer the text sent, as .NET Framework reads it";

/// rmm's echo servers of the three reference services behind one address, by path, as the
/// host serves them; with `bug`, the seeded bug.
#[derive(Clone)]
struct Echoes {
    mobile: MobileServiceServer<crate::echo_server::Echo>,
    types: rmm_types::TypesServiceServer<rmm_tests::types_service::TypesEcho>,
    objects: rmm_objects::ObjectsServiceServer<rmm_tests::objects_service::ObjectsEcho>,
    script: rmm_script::ScriptServiceServer<rmm_tests::script_service::ScriptEcho>,
    bug: bool,
}

impl rmm_mobile::runtime::deps::tower_service::Service<Request<Incoming>> for Echoes {
    type Response = Response<rmm_mobile::runtime::server::Body>;
    type Error = Infallible;
    type Future =
        Pin<Box<dyn std::future::Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Infallible>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Incoming>) -> Self::Future {
        let this = self.clone();
        Box::pin(async move {
            let path = request.uri().path().to_ascii_lowercase();
            let soap11_buggy = this.bug
                && request
                    .headers()
                    .get("soapaction")
                    .is_some_and(|a| a.as_bytes().ends_with(format!("/{BUGGY}\"").as_bytes()));
            let response = if path.contains("typesservice.asmx") {
                this.types.clone().call(request).await?
            } else if path.contains("objectsservice.asmx") {
                this.objects.clone().call(request).await?
            } else if path.contains("scriptservice.asmx") {
                this.script.clone().call(request).await?
            } else {
                this.mobile.clone().call(request).await?
            };
            if !soap11_buggy {
                return Ok(response);
            }
            let (parts, body) = response.into_parts();
            let body = body
                .collect()
                .await
                .map(|b| b.to_bytes())
                .unwrap_or_default();
            let open = format!("<{BUGGY}Result>");
            let text = String::from_utf8_lossy(&body).replacen(&open, &format!("{open}9"), 1);
            let mut parts = parts;
            parts.headers.remove("content-length");
            Ok(Response::from_parts(parts, Bytes::from(text).into()))
        })
    }
}

async fn start_echoes(bug: bool) -> Result<SocketAddr, String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("cannot bind the candidate: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let echoes = Echoes {
        mobile: MobileServiceServer::new(crate::echo_server::Echo),
        types: rmm_types::TypesServiceServer::new(rmm_tests::types_service::TypesEcho),
        objects: rmm_objects::ObjectsServiceServer::new(rmm_tests::objects_service::ObjectsEcho),
        script: rmm_script::ScriptServiceServer::new(rmm_tests::script_service::ScriptEcho),
        bug,
    };
    tokio::spawn(serve(listener, echoes, ServerConfig::default()));
    Ok(addr)
}

/// A request as the shadow holds it: method, target, headers in order, body.
fn key(request: &Request<Bytes>) -> Vec<u8> {
    let mut key = format!(
        "{} {}\n",
        request.method(),
        request.uri().path_and_query().map_or("/", |p| p.as_str())
    )
    .into_bytes();
    for (name, value) in request.headers() {
        key.extend_from_slice(name.as_str().as_bytes());
        key.push(b':');
        key.extend_from_slice(value.as_bytes());
        key.push(b'\n');
    }
    key.extend_from_slice(request.body());
    key
}

fn raw(response: &Response<Bytes>) -> Raw {
    Raw {
        status: response.status().as_u16(),
        headers: response
            .headers()
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body: response.body().to_vec(),
    }
}

/// The explain hook: a difference is deliberate when a client would not act on it, or when a
/// deliberate rule names it for one of the cases the request is.
fn explain(cases: &[Case]) -> rmm_shadow::Explain {
    let mut index: HashMap<Vec<u8>, Vec<(String, Vec<u8>)>> = HashMap::new();
    for case in cases {
        let capture = RawCapture {
            name: case.class.clone(),
            what: String::new(),
            request: case.request.clone(),
            response: None,
        };
        if let Ok(request) = capture.http_request() {
            index
                .entry(key(&request))
                .or_default()
                .push((case.class.clone(), case.request.clone()));
        }
    }
    Arc::new(move |request, primary, candidate| {
        let (m, o) = (raw(primary), raw(candidate));
        let (mut mo, oo) = (Outcome::of(&m), Outcome::of(&o));
        if request.uri().path().contains("ScriptService.asmx") {
            mo.content_type = super::script::with_charset(mo.content_type);
        }
        if difference(&mo, &oo).is_none() {
            let result = m.status == 200 && mo.body.is_some();
            let why = if result && m.body != o.body {
                CARRIAGE_RETURN
            } else {
                SAME_TO_A_CLIENT
            };
            return Some(why.to_owned());
        }
        let Some(cases) = index.get(&key(request)) else {
            // A real client's request (the proxies'), not a generated case.
            return proxy_non_ascii(request, &m, &o).then(|| PROXY_NON_ASCII.to_owned());
        };
        cases.iter().find_map(|(class, bytes)| {
            explained(class, bytes, (&mo, &oo), (&m, &o)).map(|d| d.why().to_owned())
        })
    })
}

/// Whether a GET or POST result differs from ours just as Mono misreads the proxies' escapes
/// of non-ASCII text (`dotnet::mono_query`, `dotnet::mono_form`): each of its values that
/// differs is ours so misread, and none is missing.
fn proxy_non_ascii(request: &Request<Bytes>, mono: &Raw, ours: &Raw) -> bool {
    let (Some(mono), Some(ours)) = (
        rmm_shadow::leaves::leaves(&mono.body),
        rmm_shadow::leaves::leaves(&ours.body),
    ) else {
        return false;
    };
    let misread: fn(&str) -> String = if request.method() == "GET" {
        crate::dotnet::mono_query
    } else {
        crate::dotnet::mono_form
    };
    mono.len() == ours.len()
        && mono.iter().zip(&ours).any(|(m, o)| m.value != o.value)
        && mono
            .iter()
            .zip(&ours)
            .all(|(m, o)| m.path == o.path && (m.value == o.value || m.value == misread(&o.value)))
}

/// The three services' answers compared by their specs' types, as `rmm shadow --spec` (one
/// for each) compares them.
fn typing() -> Result<Arc<rmm_shadow::typing::Typing>, String> {
    let specs: Vec<_> = SPECS
        .iter()
        .map(|(spec, _)| *spec)
        .chain(["tests/script/rmm-spec.yaml"])
        .map(|spec| rmm_tests::root().join(spec))
        .collect();
    rmm_cli::typing::of_specs(&specs).map(Arc::new)
}

/// The specs of the three reference services whose Mono wsdl proxies call through the shadow,
/// and their names (the script service's calls are the difftest's JSON cases).
const SPECS: [(&str, &str); 3] = [
    ("rmm-spec.yaml", "mobile"),
    ("tests/types/rmm-spec.yaml", "types"),
    ("tests/objects/rmm-spec.yaml", "objects"),
];

/// Sends `cases` through a shadow of `mono` (secondary `secondary`) mirroring to
/// `candidate`; returns its report, also written into `dir`.
async fn shadowed(
    (mono, secondary, candidate): (SocketAddr, SocketAddr, SocketAddr),
    cases: &[Case],
    explain: rmm_shadow::Explain,
    dir: &Path,
    dotnet: bool,
    record: Option<&Path>,
) -> Result<(Report, usize), String> {
    let url = |addr: SocketAddr| format!("http://{addr}").parse().map_err(|e| format!("{e}"));
    let mut config = rmm_shadow::Config::new(url(mono)?, url(candidate)?, dir.to_path_buf());
    config.secondary = Some(url(secondary)?);
    config.explain = Some(explain);
    config.mirror_timeout = Duration::from_secs(30);
    config.record = record.map(Path::to_path_buf);
    config.typing = typing()?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("cannot bind the shadow: {e}"))?;
    let shadow = listener.local_addr().map_err(|e| e.to_string())?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(rmm_shadow::run(config, listener, async {
        let _ = stopped.await;
    }));
    // A few requests at a time, as the difftest sends them: the hosts answer in milliseconds.
    let mut answers = futures_util::stream::iter(
        cases
            .iter()
            .map(|case| async move { (case, exchange(shadow, &case.request).await) }),
    )
    .buffer_unordered(4);
    let mut got = Vec::with_capacity(cases.len());
    while let Some(answer) = answers.next().await {
        got.push(answer);
    }
    if dotnet {
        // Real clients too: Mono's wsdl proxies of the three services, built from the WSDL
        // the shadow passes on, calling every operation over every protocol they offer.
        for (spec, name) in SPECS {
            let base = format!("http://{shadow}");
            let run = tokio::task::spawn_blocking(move || proxies(&base, spec, name))
                .await
                .map_err(|e| e.to_string())?;
            match run {
                Ok(calls) => println!(
                    "Mono's wsdl proxies of the {name} service: {calls} calls through the shadow"
                ),
                Err(e) => return Err(format!("Mono's wsdl proxies of the {name} service: {e}")),
            }
        }
    }
    let _ = stop.send(());
    let report = running
        .await
        .map_err(|e| format!("the shadow: {e}"))?
        .map_err(|e| format!("the shadow: {e}"))?;
    let unchanged = match record {
        Some(recorded) => forwarded_unchanged(&got, recorded)?,
        None => 0,
    };
    Ok((report, unchanged))
}

/// Runs Mono's wsdl proxies of the service of `spec` against `base` (tests/interop/dotnet/
/// run.sh, with the objects service's cases as its interop run has them); the calls made.
fn proxies(base: &str, spec: &str, name: &str) -> Result<usize, String> {
    let root = rmm_tests::root();
    let mut command = std::process::Command::new("bash");
    command
        .arg(root.join("tests/interop/dotnet/run.sh"))
        .arg(base)
        .arg(
            root.join("target/interop/dotnet")
                .join(format!("shadow-{name}")),
        )
        .env("RMM_SPEC", root.join(spec));
    if name == "objects" {
        command.env("RMM_CASES", crate::objects_clients::CASES.join(","));
    }
    let output = command
        .output()
        .map_err(|e| format!("cannot run tests/interop/dotnet/run.sh: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "tests/interop/dotnet/run.sh exited {:?}:\n{}",
            output.status.code(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).lines().count())
}

/// The request's method, target and body: what its recording keeps of it whatever the
/// framing.
fn request_key(request: &Request<Bytes>) -> (String, String, Bytes) {
    (
        request.method().to_string(),
        request
            .uri()
            .path_and_query()
            .map_or_else(String::new, |p| p.to_string()),
        request.body().clone(),
    )
}

/// Checks that each client got the primary's answer unchanged: its status, its headers but
/// the connection's, its body byte for byte, as the shadow recorded the primary's answer to
/// the same request. Returns the number of answers that were not.
fn forwarded_unchanged(
    got: &[(&Case, Result<Raw, String>)],
    recorded: &Path,
) -> Result<usize, String> {
    let mut primary: HashMap<(String, String, Bytes), Vec<Raw>> = HashMap::new();
    for capture in rmm_shadow::capture::read_dir(recorded)? {
        let (request, response) = (capture.http_request()?, capture.http_response()?);
        primary
            .entry(request_key(&request))
            .or_default()
            .push(raw(&response));
    }
    let framing = [
        "connection",
        "keep-alive",
        "transfer-encoding",
        "content-length",
    ];
    let headers = |raw: &Raw| -> Vec<(String, String)> {
        let mut h: Vec<(String, String)> = raw
            .headers
            .iter()
            .map(|(n, v)| (n.to_ascii_lowercase(), v.clone()))
            .filter(|(n, _)| !framing.contains(&n.as_str()))
            .collect();
        h.sort();
        h
    };
    let (mut changed, mut unforwarded) = (0, Vec::new());
    for (case, answer) in got {
        let capture = RawCapture {
            name: case.class.clone(),
            what: String::new(),
            request: case.request.clone(),
            response: None,
        };
        let (Ok(request), Ok(answer)) = (capture.http_request(), answer) else {
            continue;
        };
        let Some(answers) = primary.get(&request_key(&request)) else {
            unforwarded.push((case.class.clone(), answer.status));
            continue;
        };
        let same = answers.iter().any(|p| {
            p.status == answer.status && p.body == answer.body && headers(p) == headers(answer)
        });
        if !same {
            changed += 1;
            if changed <= 5 {
                println!(
                    "CHANGED ON THE WAY: a {} case answered {} by the shadow; the primary's: {:?}",
                    case.class,
                    answer.status,
                    answers.iter().map(|p| p.status).collect::<Vec<_>>()
                );
            }
        }
    }
    println!(
        "forwarded unchanged: {} answers as the primary gave them, {changed} changed; {} requests the shadow's HTTP parser refused (not forwarded){}",
        got.len() - changed - unforwarded.len(),
        unforwarded.len(),
        if unforwarded.is_empty() {
            String::new()
        } else {
            format!(": {:?}", &unforwarded[..unforwarded.len().min(10)])
        }
    );
    Ok(changed)
}

/// Prints each class of `report` that is neither noise nor deliberate, and each operation's
/// failed candidate answers; their number.
fn unexplained(report: &Report, run: &str) -> usize {
    let mut count = 0;
    for class in report
        .classes
        .iter()
        .filter(|c| !c.noise && c.deliberate.is_none())
    {
        count += usize::try_from(class.count).unwrap_or(usize::MAX);
        println!(
            "UNEXPLAINED{run} {} over {}: {} ({} answers), at {}: the primary {:?}, ours {:?}",
            class.operation,
            class.binding,
            class.field,
            class.count,
            class.example.path,
            class.example.primary_value,
            class.example.candidate_value
        );
    }
    for row in report.rows.iter().filter(|r| r.candidate_failed > 0) {
        count += usize::try_from(row.candidate_failed).unwrap_or(usize::MAX);
        println!(
            "FAILED{run} {} over {}: {} ({:?})",
            row.operation, row.binding, row.candidate_failed, row.candidate_failure
        );
    }
    count
}

/// Runs both shadows; returns the number of problems (unexplained differences, failed
/// candidate answers, a seeded bug not caught as one class).
pub(crate) async fn run(
    mono: SocketAddr,
    secondary: SocketAddr,
    seed: u64,
    count: usize,
    dir: &Path,
) -> Result<usize, String> {
    warm_up(mono).await?;
    warm_up(secondary).await?;
    let mut cases = cases(seed, count);
    cases.extend(super::script_cases(seed, count / 4));
    let explain = explain(&cases);
    let echo = start_echoes(false).await?;
    // What an earlier run recorded is not this run's.
    let _ = std::fs::remove_dir_all(dir.join("recorded"));
    let (report, changed) = shadowed(
        (mono, secondary, echo),
        &cases,
        Arc::clone(&explain),
        &dir.join("echo"),
        true,
        Some(&dir.join("recorded")),
    )
    .await?;
    let sum = |report: &Report, f: fn(&rmm_shadow::report::Row) -> u64| -> u64 {
        report.rows.iter().map(f).sum()
    };
    let mut problems = changed;
    println!(
        "shadow of {count} cases (seed {seed}): {} requests; the echo server's answers: {} identical, {} noise, {} deliberate, {} different, {} failed; {} not mirrored",
        report.requests,
        sum(&report, |r| r.identical),
        sum(&report, |r| r.noise),
        sum(&report, |r| r.deliberate),
        sum(&report, |r| r.different),
        sum(&report, |r| r.candidate_failed),
        report.dropped,
    );
    problems += unexplained(&report, "");

    // The recording replayed against the echo server: the same answers, but for the same
    // deliberate differences.
    let recorded = rmm_shadow::capture::read_dir(&dir.join("recorded"))?;
    let replayed = rmm_shadow::replay::replay(
        recorded,
        rmm_shadow::replay::ReplayConfig {
            against: format!("http://{echo}")
                .parse()
                .map_err(|e| format!("{e}"))?,
            source: dir.join("recorded").display().to_string(),
            // What the secondary taught the shadow (a host answer it did not give again).
            rules: rmm_shadow::rules::Rules::none().with_noise_of(&report),
            concurrency: 4,
            timeout: Duration::from_secs(30),
            explain: Some(Arc::clone(&explain)),
            typing: typing()?,
        },
    )
    .await?;
    replayed
        .write(&dir.join("replay"))
        .map_err(|e| format!("{}: {e}", dir.join("replay").display()))?;
    println!(
        "replay of the {} recorded exchanges against the echo server: {} identical, {} deliberate, {} different, {} failed",
        replayed.requests,
        sum(&replayed, |r| r.identical),
        sum(&replayed, |r| r.deliberate),
        sum(&replayed, |r| r.different),
        sum(&replayed, |r| r.candidate_failed),
    );
    problems += unexplained(&replayed, " IN THE REPLAY");

    // The seeded bug: the cases of its operation, to a candidate that has it.
    let buggy: Vec<Case> = cases
        .iter()
        .filter(|c| {
            c.request
                .windows(BUGGY.len())
                .any(|w| w == BUGGY.as_bytes())
        })
        .cloned()
        .collect();
    let candidate = start_echoes(true).await?;
    let (caught, _) = shadowed(
        (mono, secondary, candidate),
        &buggy,
        explain,
        &dir.join("seeded-bug"),
        false,
        None,
    )
    .await?;
    let real: Vec<_> = caught
        .classes
        .iter()
        .filter(|c| !c.noise && c.deliberate.is_none())
        .collect();
    match real.as_slice() {
        [class] if class.operation == BUGGY && class.binding == "soap11" => println!(
            "the seeded bug is caught as one class: {} over {}, {} ({} answers), Mono {:?}, the candidate {:?}",
            class.operation,
            class.binding,
            class.field,
            class.count,
            class.example.primary_value,
            class.example.candidate_value
        ),
        classes => {
            problems += 1;
            println!(
                "THE SEEDED BUG is not one class of {BUGGY} over soap11 in {} cases: {:#?}",
                buggy.len(),
                classes
                    .iter()
                    .map(|c| (&c.operation, &c.binding, &c.field, c.count))
                    .collect::<Vec<_>>()
            );
        }
    }
    println!(
        "reports: {} and {}",
        dir.join("echo/report.html").display(),
        dir.join("seeded-bug/report.html").display()
    );
    Ok(problems)
}
