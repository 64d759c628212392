//! Interop checks against a real ASMX host (Mono's ASP.NET, started by
//! `tests/interop/asmx/start.sh`) and our own echo server, started here in-process:
//!
//! ```sh
//! cargo run -p rmm-tests --bin interop -- --asmx http://127.0.0.1:PORT --python PY [--report PATH]
//! ```
//!
//! - the generated client calls all 20 operations × 4 bindings on both servers and gets the
//!   exact echo, and the expected typed error for a fault, a type error and a missing
//!   parameter on each binding;
//! - zeep (`tests/interop/zeep/call_all.py`, run by `PY`) calls all 20 operations over SOAP 1.1
//!   and 1.2 on both servers, each through that server's own WSDL, and every operation of the
//!   types service on the host and on rmm's server for it;
//! - the two WSDLs are compared structurally (operations, parameters, types, occurrence rules,
//!   messages, bindings, ports), naming each difference;
//! - fidelity: the same request bytes go to both servers and the responses (status, headers but
//!   `Date`, `Server`, `Connection`, `Keep-Alive`, body bytes) must be equal. Where Mono's body
//!   carries an unformatted `{0}` placeholder, only the fault code (SOAP) is compared beside
//!   the status and headers; where we are deliberately stricter (the cases where the host
//!   answers 200 with silently wrong data), the case is named and our refusal checked.
//!
//! Prints `N passed, M failed` last, exits 1 on any failure, and writes a Markdown report to
//! `target/interop/fidelity.md` (or `--report PATH`).
//!
//! Each concern has its module: [`client`] (the generated client and the error cases),
//! [`zeep`], [`dotnet`], [`wsdl`] (structural WSDL comparison), [`fidelity`] (the same bytes
//! to both servers) with [`compare`] (response comparison) and [`report`] (the Markdown
//! report), [`mutation`] (type error and missing parameter made on an encoded request),
//! [`raw`] (raw HTTP exchanges), [`record`] (`--record`) and [`difftest`] (`--difftest`).
//! This file holds the bookkeeping, the two servers, the arguments and the run.

mod browser;
mod client;
mod compare;
mod difftest;
mod dotnet;
#[allow(dead_code)]
#[path = "../../../../generated/examples/echo_server.rs"]
mod echo_server;
mod encoded;
mod fidelity;
mod mutation;
mod objects;
mod objects_clients;
mod raw;
mod record;
mod report;
mod script;
mod types;
mod wsdl;
mod zeep;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use rmm_mobile::runtime::client::ReqwestTransport;
use rmm_mobile::runtime::deps::{reqwest, tokio};
use rmm_mobile::MobileServiceServer;

use client::client_section;
use fidelity::fidelity_section;
use report::{write_report, Report};
use wsdl::wsdl_section_check;
use zeep::zeep_section;

const USAGE: &str =
    "usage: interop --asmx http://127.0.0.1:PORT --python PATH_TO_ZEEP_VENV_PYTHON [--report PATH]
       interop --asmx http://127.0.0.1:PORT --record DIR
       interop --asmx http://127.0.0.1:PORT --difftest [--cases N] [--seed S] [--report PATH]
       interop --asmx http://127.0.0.1:PORT --shadow --secondary http://127.0.0.1:PORT2 [--cases N] [--seed S]";

// ---------------------------------------------------------------------------------------------
// Bookkeeping

#[derive(Default)]
struct Checks {
    passed: usize,
    failed: usize,
    section: String,
    section_passed: usize,
    section_failed: usize,
}

impl Checks {
    fn section(&mut self, name: &str) {
        self.end_section();
        self.section = name.to_owned();
        println!("\n== {name}");
    }

    fn end_section(&mut self) {
        if !self.section.is_empty() {
            println!(
                "   {}: {} passed, {} failed",
                self.section, self.section_passed, self.section_failed
            );
        }
        self.section_passed = 0;
        self.section_failed = 0;
    }

    fn check(&mut self, name: &str, result: Result<(), String>) -> bool {
        match result {
            Ok(()) => {
                self.passed += 1;
                self.section_passed += 1;
                true
            }
            Err(why) => {
                self.failed += 1;
                self.section_failed += 1;
                println!("FAIL {name}: {why}");
                false
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The two servers

struct Target {
    label: &'static str,
    base: String,
    addr: SocketAddr,
}

fn parse_base(base: &str) -> Result<SocketAddr, String> {
    let rest = base
        .strip_prefix("http://")
        .ok_or_else(|| format!("{base}: not an http:// URL"))?;
    let hostport = rest.split('/').next().unwrap_or(rest);
    hostport
        .parse()
        .map_err(|e| format!("{base}: want http://IP:PORT ({e})"))
}

/// rmm's server for the types service (`rmm_tests::types_service::TypesEcho`).
async fn start_ours_types() -> Result<Target, String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("cannot bind our types server: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(
        rmm_types::TypesServiceServer::new(rmm_tests::types_service::TypesEcho).serve(listener),
    );
    Ok(Target {
        label: "ours",
        base: format!("http://{addr}"),
        addr,
    })
}

/// rmm's server for the objects service (`rmm_tests::objects_service::ObjectsEcho`).
async fn start_ours_objects() -> Result<Target, String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("cannot bind our objects server: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(
        rmm_objects::ObjectsServiceServer::new(rmm_tests::objects_service::ObjectsEcho)
            .serve(listener),
    );
    Ok(Target {
        label: "ours",
        base: format!("http://{addr}"),
        addr,
    })
}

async fn start_ours() -> Result<Target, String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("cannot bind our server: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(MobileServiceServer::new(echo_server::Echo).serve(listener));
    Ok(Target {
        label: "ours",
        base: format!("http://{addr}"),
        addr,
    })
}

// ---------------------------------------------------------------------------------------------

struct Args {
    asmx: String,
    /// `--record DIR`: record the host's answers into DIR instead of checking.
    record: Option<PathBuf>,
    /// `--difftest [--cases N] [--seed S]`: the differential test instead of the checks.
    difftest: Option<(usize, u64)>,
    /// `--shadow --secondary URL [--cases N] [--seed S]`: rmm shadow on the difftest's cases.
    shadow: Option<String>,
    python: Option<String>,
    report: PathBuf,
}

fn args() -> Result<Args, String> {
    let mut asmx = None;
    let mut python = None;
    let mut record = None;
    let mut difftest = false;
    let mut shadow = false;
    let mut secondary = None;
    let (mut cases, mut seed) = (2000usize, 1u64);
    let mut report = rmm_tests::root().join("target/interop/fidelity.md");
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--asmx" => asmx = it.next(),
            "--python" => python = it.next(),
            "--record" => record = Some(it.next().map(PathBuf::from).ok_or(USAGE)?),
            "--report" => report = it.next().map(PathBuf::from).ok_or(USAGE)?,
            "--difftest" => difftest = true,
            "--shadow" => shadow = true,
            "--secondary" => secondary = it.next(),
            "--cases" => cases = it.next().and_then(|n| n.parse().ok()).ok_or(USAGE)?,
            "--seed" => seed = it.next().and_then(|n| n.parse().ok()).ok_or(USAGE)?,
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    if record.is_none() && python.is_none() && !difftest && !shadow {
        return Err(USAGE.into());
    }
    if shadow && secondary.is_none() {
        return Err(format!("--shadow needs --secondary URL\n{USAGE}"));
    }
    if shadow {
        report = rmm_tests::root().join("target/interop/shadow");
    }
    if difftest && report.ends_with("fidelity.md") {
        report.set_file_name("difftest.md");
    }
    Ok(Args {
        asmx: asmx.ok_or(USAGE)?.trim_end_matches('/').to_owned(),
        record,
        difftest: (difftest || shadow).then_some((cases, seed)),
        shadow: secondary.filter(|_| shadow),
        python,
        report,
    })
}

fn main() -> ExitCode {
    let args = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime");
    runtime.block_on(run(args))
}

async fn run(args: Args) -> ExitCode {
    let started = Instant::now();
    let mono = match parse_base(&args.asmx) {
        Ok(addr) => Target {
            label: "Mono",
            base: args.asmx.clone(),
            addr,
        },
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if let Some(dir) = &args.record {
        return match record::record(mono.addr, dir).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("recording failed: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let ours = match start_ours().await {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if let (Some(secondary), Some((cases, seed))) = (&args.shadow, args.difftest) {
        let secondary = match parse_base(secondary) {
            Ok(addr) => addr,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
        return match difftest::shadow::run(mono.addr, secondary, seed, cases, &args.report).await {
            Ok(0) => {
                println!("took {:.1} s", started.elapsed().as_secs_f64());
                ExitCode::SUCCESS
            }
            Ok(problems) => {
                println!("{problems} problems");
                ExitCode::FAILURE
            }
            Err(e) => {
                eprintln!("shadow failed: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if let Some((cases, seed)) = args.difftest {
        return match difftest::run(mono.addr, ours.addr, seed, cases, &args.report).await {
            Ok(unexplained) => {
                println!("difftest report: {}", args.report.display());
                println!("took {:.1} s", started.elapsed().as_secs_f64());
                println!("{cases} cases, {unexplained} unexplained differences");
                if unexplained == 0 {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                }
            }
            Err(e) => {
                eprintln!("difftest failed: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let http = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("reqwest client");
    let transport = Arc::new(ReqwestTransport::with_client(http));
    let mut checks = Checks::default();
    let mut report = Report {
        ops: BTreeMap::new(),
        others: Vec::new(),
        deliberate: Vec::new(),
        wsdl: Vec::new(),
    };

    let ours_types = match start_ours_types().await {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    client_section(&mut checks, &mono, &transport).await;
    client_section(&mut checks, &ours, &transport).await;
    types::types_section(&mut checks, &mono).await;
    types::types_fidelity_section(&mut checks, &mono, &ours_types).await;
    match start_ours_objects().await {
        Ok(ours_objects) => {
            objects::objects_section(&mut checks, &mono).await;
            objects::objects_fidelity_section(&mut checks, &mono, &ours_objects).await;
            let python = args.python.as_deref();
            objects_clients::objects_clients_section(&mut checks, python, &mono, &ours_objects)
                .await;
        }
        Err(e) => {
            checks.check("objects: our server starts", Err(e));
        }
    }
    match encoded::start_ours().await {
        Ok(ours_encoded) => {
            encoded::encoded_section(&mut checks, &mono).await;
            encoded::encoded_section(&mut checks, &ours_encoded).await;
            encoded::encoded_fidelity_section(&mut checks, &mono, &ours_encoded).await;
        }
        Err(e) => {
            checks.check("encoded: our server starts", Err(e));
        }
    }
    match script::start_ours().await {
        Ok(ours_script) => {
            script::script_section(&mut checks, &mono).await;
            script::script_section(&mut checks, &ours_script).await;
            script::session_section(&mut checks, &mono).await;
            script::session_section(&mut checks, &ours_script).await;
            script::script_fidelity_section(&mut checks, &mono, &ours_script).await;
            script::script_proxy_section(&mut checks, &mono, &ours_script).await;
            script::script_encodings_section(&mut checks, &mono, &ours_script).await;
            // Chromium calls our server: the page runs on a blocking thread, beside it.
            let (mono_ref, ours_ref) = (clone_target(&mono), clone_target(&ours_script));
            let browser = tokio::task::spawn_blocking(move || {
                let mut browser_checks = Checks::default();
                let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .parent()
                    .expect("the tests crate sits in the repository");
                browser::browser_section(&mut browser_checks, root, &mono_ref, &ours_ref);
                browser_checks.end_section();
                (browser_checks.passed, browser_checks.failed)
            });
            let (bp, bf) = browser.await.unwrap_or((0, 1));
            checks.passed += bp;
            checks.failed += bf;
        }
        Err(e) => {
            checks.check("script: our server starts", Err(e));
        }
    }
    let python = args.python.clone().unwrap_or_default();
    let (mono_ref, ours_ref) = (clone_target(&mono), clone_target(&ours));
    let ours_types_ref = clone_target(&ours_types);
    let zeep = tokio::task::spawn_blocking(move || {
        let mut zeep_checks = Checks::default();
        zeep_section(&mut zeep_checks, &python, &[&mono_ref, &ours_ref]);
        zeep::types_zeep_section(&mut zeep_checks, &python, &[&mono_ref, &ours_types_ref]);
        zeep_checks.end_section();
        (zeep_checks.passed, zeep_checks.failed)
    });
    let (zp, zf) = zeep.await.unwrap_or((0, 1));
    checks.passed += zp;
    checks.failed += zf;
    let (mono_ref, ours_ref) = (clone_target(&mono), clone_target(&ours));
    let ours_types_ref = clone_target(&ours_types);
    let dotnet = tokio::task::spawn_blocking(move || {
        let mut dotnet_checks = Checks::default();
        dotnet::dotnet_section(&mut dotnet_checks, &mono_ref, &ours_ref);
        dotnet::types_dotnet_section(&mut dotnet_checks, &mono_ref, &ours_types_ref);
        dotnet_checks.end_section();
        (dotnet_checks.passed, dotnet_checks.failed)
    });
    let (dp, df) = dotnet.await.unwrap_or((0, 1));
    checks.passed += dp;
    checks.failed += df;
    report.wsdl = wsdl_section_check(&mut checks, &mono, &ours, &ours_types).await;
    fidelity_section(&mut checks, &mono, &ours, &mut report).await;
    checks.end_section();

    let summary = format!("{} passed, {} failed", checks.passed, checks.failed);
    match write_report(&args.report, &report, &summary, &mono.base) {
        Ok(()) => println!("\nfidelity report: {}", args.report.display()),
        Err(e) => {
            println!("\ncannot write {}: {e}", args.report.display());
            checks.failed += 1;
        }
    }
    println!("took {:.1} s", started.elapsed().as_secs_f64());
    println!("{} passed, {} failed", checks.passed, checks.failed);
    if checks.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn clone_target(t: &Target) -> Target {
    Target {
        label: t.label,
        base: t.base.clone(),
        addr: t.addr,
    }
}
