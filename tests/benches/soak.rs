//! Soak and hostile clients (issue 11): the release `echo_server` example, in a process of its
//! own, under a long mixed load and under clients that misbehave; its memory and file
//! descriptors are read from `/proc` throughout.
//!
//! ```sh
//! cargo bench -p rmm-tests --bench soak      # report also in target/soak/report.md
//! ```
//!
//! 1. **Soak**: `SOAK_REQUESTS` requests (default 1,000,000) over `SOAK_CONNECTIONS` keep-alive
//!    connections (64): valid calls of six operations on all four bindings, invalid requests
//!    (malformed XML, wrong types, missing parameters, unknown operations and paths, bad content
//!    types, PUT), the WSDL, discovery and help page, and `SOAK_OVERSIZED` bodies (8) one byte
//!    over the 4 MiB limit, each on a connection of its own (one with `Content-Length` and one
//!    chunked in the warm-up, the others spread over the rest). Every answer must equal, but for
//!    `Date`, the one the same server gives the same request in-process (`tests/src/soak/mix.rs`):
//!    any other is an unexpected answer, and one fails the bench. The server's RSS and open
//!    descriptors are read at start, after the first 10 % (warm-up), every 10 % and once the
//!    connections are closed: RSS may grow by at most `SOAK_RSS_GROWTH_KIB` (8 MiB) after
//!    warm-up, and the descriptors must come back to their count at start. Why 8 MiB: it is
//!    what glibc's allocator may keep resident after two 4 MiB bodies (one per arena of the
//!    server's two worker threads; freed memory is not all given back), while a leak of as
//!    little as 10 bytes per request over the 900,000 requests after warm-up would pass it.
//! 2. **Slow clients**: `SOAK_SLOW` connections (1,500) send a request head a byte per round
//!    (a round every `SOAK_SLOW_BYTE_MS`, 100 ms), too long to finish within the server's
//!    header timeout, and `SOAK_STALLED` (20) send a head and half a body and stop; meanwhile a
//!    keep-alive client calls without pause and a connection-per-call client every 5 ms. Their
//!    latency is reported and they must meet no error; every slow connection must be ended by
//!    the server (the head timeout closes without a word, the body timeout answers `408`).
//! 3. **Vanishing and pipelining clients**: `SOAK_VANISH` connections (5,000) that close
//!    mid-head, mid-body, mid-chunk or with answers unread; `SOAK_PIPELINES` connections (200)
//!    that write 2 to 64 requests of the mix in one write, whose answers must come in order and
//!    exact; and pipelines that end in an oversized declaration (`413`, then the close). The
//!    server must answer a normal call afterwards, and its descriptors must be back to baseline.
//!
//! `SOAK_PARTS` (default `123`) picks parts; `SOAK_SERVER_BIN` uses a server binary as is instead
//! of building `echo_server` (`cargo build --release -p rmm-mobile --example echo_server`).

#[allow(dead_code)]
#[path = "../../generated/examples/echo_server.rs"]
mod echo_server;

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rmm_mobile::runtime::deps::http::HeaderValue;
use rmm_mobile::runtime::server::{self, BodyError, ServerConfig};
use rmm_mobile::MobileServiceServer;
use rmm_tests::soak::hostile::{self, Vanish};
use rmm_tests::soak::http1::{head_bytes, Answer, Connection};
use rmm_tests::soak::load::{Load, Tally};
use rmm_tests::soak::mix::{Case, Mix};
use rmm_tests::soak::process::{self, Sample, ServerProcess};
use rmm_tests::soak::report::Report;
use rmm_tests::soak::slow::{self, Calls, DripRun, Ended, Script, SlowClients};
use rmm_tests::soak::stats::{short, thousands, Latency};

/// The knobs, from the environment.
struct Settings {
    requests: u64,
    connections: u64,
    oversized: u64,
    slow: u64,
    byte_interval: Duration,
    stalled: u64,
    vanish: u64,
    pipelines: u64,
    rss_growth_kib: u64,
    parts: String,
}

impl Settings {
    fn from_env() -> Settings {
        Settings {
            requests: env_number("SOAK_REQUESTS", 1_000_000),
            connections: env_number("SOAK_CONNECTIONS", 64).max(1),
            oversized: env_number("SOAK_OVERSIZED", 8),
            slow: env_number("SOAK_SLOW", 1_500),
            byte_interval: Duration::from_millis(env_number("SOAK_SLOW_BYTE_MS", 100).max(1)),
            stalled: env_number("SOAK_STALLED", 20),
            vanish: env_number("SOAK_VANISH", 5_000),
            pipelines: env_number("SOAK_PIPELINES", 200),
            rss_growth_kib: env_number("SOAK_RSS_GROWTH_KIB", 8 * 1024),
            parts: std::env::var("SOAK_PARTS").unwrap_or_else(|_| "123".to_owned()),
        }
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.replace(['_', ','], "").parse().ok())
        .unwrap_or(default)
}

fn main() -> ExitCode {
    let mut settings = Settings::from_env();
    let mut report = Report::default();
    if let Err(e) = run(&mut settings, &mut report) {
        report.check(false, format!("the run could not go on: {e}"));
    }
    let path = process::target_dir().join("soak/report.md");
    match report.write(&path) {
        Ok(()) => println!("\nreport written to {}", path.display()),
        Err(e) => eprintln!("\ncould not write {}: {e}", path.display()),
    }
    if report.failures().is_empty() {
        println!("soak: every check passed");
        ExitCode::SUCCESS
    } else {
        eprintln!("soak: {} check(s) FAILED:", report.failures().len());
        for failure in report.failures() {
            eprintln!("  - {failure}");
        }
        ExitCode::FAILURE
    }
}

fn run(settings: &mut Settings, report: &mut Report) -> Result<(), String> {
    report.line("# Soak and hostile clients");
    report.line("");
    report.line(format!(
        "Machine at start: {}.",
        process::machine_conditions()
    ));
    ensure_open_files(settings, report);
    let binary = match std::env::var_os("SOAK_SERVER_BIN") {
        // Relative to the workspace root (a bench runs in its package's directory).
        Some(binary) => rmm_tests::root().join(binary),
        None => process::build_echo_server()?,
    };
    let mut server = ServerProcess::start(&binary)?;
    report.line(format!(
        "Server: `{}` (PID {}) on {}, default `ServerConfig`.",
        binary.display(),
        server.pid(),
        server.addr
    ));
    let in_process = MobileServiceServer::new(echo_server::Echo);
    let mix = Mix::new(&server.addr.to_string(), &in_process);
    let baseline = server.sample("start");
    report.line(format!(
        "Baseline: RSS {} KiB, {} open descriptors.",
        baseline.rss_kib, baseline.fds
    ));
    let started = Instant::now();
    if settings.parts.contains('1') {
        soak(&server, &mix, settings, &baseline, report);
    }
    if settings.parts.contains('2') {
        slow_clients(&server, &mix, settings, &baseline, report)?;
    }
    if settings.parts.contains('3') {
        hostile_clients(&server, &mix, settings, &baseline, report);
    }
    report.line("");
    report.line("## End");
    report.line("");
    let end = server.sample("end");
    report.line(format!(
        "After {:.0} s: server RSS {} KiB, {} descriptors, {:.1} s of CPU; machine: {}.",
        started.elapsed().as_secs_f64(),
        end.rss_kib,
        end.fds,
        server.cpu_secs(),
        process::machine_conditions()
    ));
    report.check(server.is_running(), "the server is still running");
    Ok(())
}

/// Part 2 holds over 1,500 connections in this process and in the server (which inherits
/// this process's limit): raises the soft open-files limit if it is too low, else lowers the
/// number of slow connections to fit, saying so.
fn ensure_open_files(settings: &mut Settings, report: &mut Report) {
    let others = settings.stalled + settings.connections + 512;
    let need = settings.slow + others;
    match process::raise_open_files_limit(need) {
        Some(soft) if soft >= need => {
            report.line(format!("Open-files limit {soft} (need {need})."));
        }
        soft => {
            let fits = soft.unwrap_or(1024).saturating_sub(others);
            report.line(format!(
                "Open-files limit {soft:?} is below the {need} part 2 needs and could not be \
                 raised (prlimit): {fits} slow connections instead of {}.",
                settings.slow
            ));
            settings.slow = fits;
        }
    }
}

/// Starts a part of the report: its title, and what the machine is doing (other processes
/// weigh on the figures).
fn part(report: &mut Report, title: &str) {
    report.line("");
    report.line(format!("## {title}"));
    report.line("");
    report.line(format!("Machine: {}.", process::machine_conditions()));
    report.line("");
}

// ---------------------------------------------------------------------------------------
// Part 1: the soak

fn soak(
    server: &ServerProcess,
    mix: &Mix,
    settings: &Settings,
    baseline: &Sample,
    report: &mut Report,
) {
    part(report, "1. Soak: mixed requests on keep-alive connections");
    let load = Load {
        mix,
        total: settings.requests,
        connections: settings.connections,
        oversized: settings.oversized,
    };
    let cpu_before = server.cpu_secs();
    let mut run = load.run(server);
    let cpu = server.cpu_secs() - cpu_before;
    // Every client connection is closed: the server's side of them must go too.
    server.settle_fds(baseline.fds, Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(500));
    let mut samples = vec![baseline.clone()];
    samples.append(&mut run.samples);
    samples.push(server.sample("end, connections closed"));
    report_soak(mix, settings, &mut run.tally, run.elapsed, cpu, report);
    report_memory(&samples, baseline, settings, report);
}

fn report_soak(
    mix: &Mix,
    settings: &Settings,
    tally: &mut Tally,
    elapsed: Duration,
    cpu: f64,
    report: &mut Report,
) {
    let sent: u64 = tally.sent.values().sum::<u64>() + tally.oversized.len() as u64;
    let unexpected: u64 = tally.unexpected.values().sum();
    let oversized_bad = tally
        .oversized
        .iter()
        .filter(|(_, diff, _)| diff.is_some())
        .count();
    report.line(format!(
        "{} requests in {:.1} s ({:.0} requests/s) over {} keep-alive connections ({} reopened), \
         {} of them oversized on connections of their own; server CPU {:.1} s ({:.0} µs per request).",
        thousands(sent),
        elapsed.as_secs_f64(),
        sent as f64 / elapsed.as_secs_f64(),
        settings.connections,
        tally.reconnects,
        tally.oversized.len(),
        cpu,
        cpu * 1e6 / sent.max(1) as f64,
    ));
    report.line(format!(
        "Latency (keep-alive exchanges): {}.",
        Latency::of(&mut tally.latencies)
    ));
    report.line("");
    report.line("| request | kind | expected | sent | unexpected |");
    report.line("|---|---|---|---:|---:|");
    for (i, case) in mix.cases.iter().enumerate() {
        report.line(format!(
            "| {} | {:?} | {} ({} B) | {} | {} |",
            case.name,
            case.kind,
            case.expected.status,
            case.expected.body.len(),
            thousands(tally.sent.get(&i).copied().unwrap_or(0)),
            tally.unexpected.get(&i).copied().unwrap_or(0)
        ));
    }
    for case in &mix.oversized {
        let ours: Vec<_> = tally
            .oversized
            .iter()
            .filter(|(name, _, _)| *name == case.name)
            .collect();
        report.line(format!(
            "| {} | {:?} | {} ({} B) | {} | {} (connection closed by the server after it: {} of {}; the others served one more call) |",
            case.name,
            case.kind,
            case.expected.status,
            case.expected.body.len(),
            ours.len(),
            ours.iter().filter(|(_, diff, _)| diff.is_some()).count(),
            ours.iter().filter(|(_, _, closed)| *closed).count(),
            ours.len()
        ));
    }
    report.line("");
    for example in tally
        .examples
        .iter()
        .chain(tally.oversized.iter().filter_map(|(_, d, _)| d.as_ref()))
    {
        report.line(format!("- unexpected: {example}"));
    }
    report.check(
        unexpected == 0 && oversized_bad == 0,
        format!(
            "unexpected answers: {} of {}",
            unexpected + oversized_bad as u64,
            thousands(sent)
        ),
    );
}

fn report_memory(samples: &[Sample], baseline: &Sample, settings: &Settings, report: &mut Report) {
    report.line("");
    report.line("| when | server RSS KiB | open descriptors |");
    report.line("|---|---:|---:|");
    for sample in samples {
        report.line(format!(
            "| {} | {} | {} |",
            sample.label, sample.rss_kib, sample.fds
        ));
    }
    report.line("");
    // samples[0] is the baseline, samples[1] the end of the warm-up (the first 10 %).
    let Some(warm) = samples.get(1).filter(|_| samples.len() > 2) else {
        return;
    };
    let end = samples.last().expect("an end sample");
    let peak = samples[1..].iter().map(|s| s.rss_kib).max().unwrap_or(0);
    let growth = peak.saturating_sub(warm.rss_kib);
    report.line(format!(
        "RSS: {} KiB at start, {} KiB after warm-up, {} KiB at the end; growth after warm-up \
         {} KiB to the peak, {} KiB to the end.",
        baseline.rss_kib,
        warm.rss_kib,
        end.rss_kib,
        growth,
        end.rss_kib as i64 - warm.rss_kib as i64
    ));
    report.check(
        growth <= settings.rss_growth_kib,
        format!(
            "RSS growth after warm-up {growth} KiB <= {} KiB (two 4 MiB bodies the allocator \
             may keep)",
            settings.rss_growth_kib
        ),
    );
    report.check(
        end.fds == baseline.fds,
        format!(
            "descriptors back to baseline: {} (baseline {})",
            end.fds, baseline.fds
        ),
    );
}

// ---------------------------------------------------------------------------------------
// Part 2: slow clients

/// A request head that takes longer than the header timeout to drip: the valid SOAP 1.1 call's
/// head, padded with an `X-Padding` header to twice the bytes the timeout lets through.
fn slow_head(call: &Case, byte_interval: Duration, header_timeout: Duration) -> Vec<u8> {
    let bytes = (header_timeout.as_secs_f64() / byte_interval.as_secs_f64()) as usize * 2;
    let mut request = call.request.clone();
    let padding = "p".repeat(bytes.saturating_sub(head_bytes(&request).len()).max(1));
    request.headers_mut().insert(
        "x-padding",
        HeaderValue::from_str(&padding).expect("a header value"),
    );
    head_bytes(&request)
}

/// The two groups of slow connections: `SOAK_SLOW` dripping `head`, `SOAK_STALLED` sending the
/// head and half the body of `call` at once, then nothing.
fn slow_groups(call: &Case, head: &[u8], settings: &Settings) -> [(usize, Script); 2] {
    let body = call.request.body();
    let stalled = [&head_bytes(&call.request)[..], &body[..body.len() / 2]].concat();
    [
        (
            settings.slow as usize,
            Script {
                burst: Vec::new(),
                drip: head.to_vec(),
            },
        ),
        (
            settings.stalled as usize,
            Script {
                burst: stalled,
                drip: Vec::new(),
            },
        ),
    ]
}

/// What happened while the slow connections were open.
struct Phase {
    run: DripRun,
    keep_alive: Calls,
    fresh: Calls,
    /// The server's highest RSS and descriptor count.
    peak: Sample,
    elapsed: Duration,
}

/// Drips the slow connections until they end, while the normal clients call `call`.
fn beside_slow(
    server: &ServerProcess,
    call: &Case,
    clients: SlowClients,
    settings: &Settings,
    deadline: Duration,
) -> Phase {
    let stop = AtomicBool::new(false);
    let mut peak = server.sample("peak");
    let start = Instant::now();
    let (run, keep_alive, fresh) = std::thread::scope(|scope| {
        let dripping = scope.spawn(|| clients.drip(settings.byte_interval, deadline));
        let keep_alive = scope.spawn(|| slow::keep_calling(server.addr, call, false, &stop));
        let fresh = scope.spawn(|| slow::keep_calling(server.addr, call, true, &stop));
        while !dripping.is_finished() {
            std::thread::sleep(Duration::from_millis(250));
            let now = server.sample("peak");
            peak.rss_kib = peak.rss_kib.max(now.rss_kib);
            peak.fds = peak.fds.max(now.fds);
        }
        stop.store(true, Ordering::Relaxed);
        (
            dripping.join().expect("the slow clients"),
            keep_alive.join().expect("the keep-alive client"),
            fresh.join().expect("the fresh-connection client"),
        )
    });
    Phase {
        run,
        keep_alive,
        fresh,
        peak,
        elapsed: start.elapsed(),
    }
}

fn slow_clients(
    server: &ServerProcess,
    mix: &Mix,
    settings: &Settings,
    baseline: &Sample,
    report: &mut Report,
) -> Result<(), String> {
    part(report, "2. Slow clients beside normal ones");
    let config = ServerConfig::default();
    let call = mix.named("MobileAccountSearch SOAP 1.1");
    let head = slow_head(call, settings.byte_interval, config.header_timeout);
    let overflows_before = process::listen_overflows();
    let clients = SlowClients::open(server.addr, &slow_groups(call, &head, settings))
        .map_err(|e| format!("opening the slow connections: {e}"))?;
    let opening = clients.opening;
    let overflows = process::listen_overflows()
        .zip(overflows_before)
        .map_or("?".to_owned(), |(after, before)| {
            (after - before).to_string()
        });
    // Time for both timeouts to fire, and some.
    let deadline = config.header_timeout.max(config.body_timeout) + Duration::from_secs(15);
    let phase = beside_slow(server, call, clients, settings, deadline);
    report.line(format!(
        "{} connections drip a {}-byte SOAP 1.1 head, a byte every {} ms in rounds (the \
         server's header timeout is {:?}: the head would take {:.0} s); {} send a head and half \
         the body, then stop. Opening them all took {} (before the normal clients started; \
         SYNs dropped meanwhile on a full listen queue, system-wide, each costing its client a \
         1 s retransmission: {overflows}); the longest round of one-byte writes took {}. The phase lasted {:.1} s; server peak: \
         {} descriptors, RSS {} KiB.",
        settings.slow,
        head.len(),
        settings.byte_interval.as_millis(),
        config.header_timeout,
        head.len() as f64 * settings.byte_interval.as_secs_f64(),
        settings.stalled,
        short(opening),
        short(phase.run.longest_round),
        phase.elapsed.as_secs_f64(),
        phase.peak.fds,
        phase.peak.rss_kib
    ));
    report_normal_clients(&phase.keep_alive, &phase.fresh, report);
    report_slow_ends(&phase.run, &expected_body_timeout(&config), &config, report);
    let fds = server.settle_fds(baseline.fds, Duration::from_secs(10));
    report.check(
        fds == baseline.fds,
        format!(
            "descriptors back to baseline: {fds} (baseline {}); RSS now {} KiB",
            baseline.fds,
            server.rss_kib()
        ),
    );
    Ok(())
}

/// The server's answer to a body that does not come in time.
fn expected_body_timeout(config: &ServerConfig) -> Answer {
    let response = server::body_error_response(&BodyError::Timeout(config.body_timeout));
    Answer::from_response(server::finish(config, response))
}

fn report_normal_clients(keep_alive: &Calls, fresh: &Calls, report: &mut Report) {
    report.line("");
    for (name, calls) in [
        ("keep-alive client", keep_alive),
        ("connection-per-call client", fresh),
    ] {
        let mut latencies = calls.latencies.clone();
        report.line(format!(
            "- {name}: {} calls answered as expected, {}; errors: {}",
            thousands(latencies.len() as u64),
            Latency::of(&mut latencies),
            calls.errors.len()
        ));
        for error in calls.errors.iter().take(5) {
            report.line(format!("  - {error}"));
        }
    }
    report.check(
        keep_alive.errors.is_empty() && fresh.errors.is_empty() && !keep_alive.latencies.is_empty(),
        "the normal clients met no error while the slow ones were connected",
    );
}

fn report_slow_ends(
    run: &DripRun,
    expected_408: &Answer,
    config: &ServerConfig,
    report: &mut Report,
) {
    report.line("");
    report.line("| connections | how they ended | count | after (min – median – max) | bytes sent (min – max) |");
    report.line("|---|---|---:|---|---|");
    for (group, ended) in ["slow head", "stalled body"].iter().zip(&run.ended) {
        let mut by_end: BTreeMap<String, Vec<&Ended>> = BTreeMap::new();
        for e in ended {
            by_end.entry(e.how.label()).or_default().push(e);
        }
        for (label, mut ends) in by_end {
            ends.sort_by_key(|e| e.after);
            let sent = ends.iter().map(|e| e.sent);
            report.line(format!(
                "| {group} | {label} | {} | {} – {} – {} | {} – {} |",
                ends.len(),
                short(ends[0].after),
                short(ends[ends.len() / 2].after),
                short(ends[ends.len() - 1].after),
                sent.clone().min().unwrap_or(0),
                sent.max().unwrap_or(0)
            ));
        }
    }
    report.line("");
    let (heads, bodies) = (&run.ended[0], &run.ended[1]);
    let margin = Duration::from_secs(5);
    report.check(
        heads
            .iter()
            .all(|e| e.how != slow::End::Open && e.after < config.header_timeout + margin),
        format!(
            "every slow head was ended by the server within its header timeout ({:?}) + {margin:?}",
            config.header_timeout
        ),
    );
    let exact_408 = bodies
        .iter()
        .filter(
            |e| matches!(&e.how, slow::End::Answered(a) if a.difference(expected_408).is_none()),
        )
        .count();
    report.check(
        exact_408 == bodies.len(),
        format!(
            "{exact_408} of {} stalled bodies got the expected 408 ({:?})",
            bodies.len(),
            String::from_utf8_lossy(&expected_408.body).trim_end()
        ),
    );
}

// ---------------------------------------------------------------------------------------
// Part 3: vanishing and pipelining clients

fn hostile_clients(
    server: &ServerProcess,
    mix: &Mix,
    settings: &Settings,
    baseline: &Sample,
    report: &mut Report,
) {
    part(report, "3. Vanishing and pipelining clients");
    let call = mix.named("MobileTaskCreate SOAP 1.1");
    let wsdl = mix.named("GET ?wsdl");
    let start = Instant::now();
    let failures = in_parallel(settings.vanish, |i| {
        Vanish::ALL[i as usize % Vanish::ALL.len()].run(server.addr, call, wsdl)
    });
    report.line(format!(
        "{} vanishing clients in {:.1} s, in turn: {}.",
        thousands(settings.vanish),
        start.elapsed().as_secs_f64(),
        Vanish::ALL.map(Vanish::describe).join("; ")
    ));
    report_failures(&failures, report);
    report.check(
        failures.is_empty(),
        "the whole calls made by vanishing clients got their expected answers",
    );
    after_hostile(server, mix, baseline, "after the vanishing clients", report);

    let start = Instant::now();
    let depth = |i: u64| 2 + (i % 63) as usize;
    let failures = in_parallel(settings.pipelines, |i| {
        let cases: Vec<&Case> = (0..depth(i)).map(|k| mix.case(i * 64 + k as u64)).collect();
        hostile::pipeline(server.addr, &cases)
    });
    let requests: usize = (0..settings.pipelines).map(depth).sum();
    report.line(format!(
        "{} pipelined connections ({} requests, 2 to 64 per write, drawn from the mix) in {:.1} s.",
        thousands(settings.pipelines),
        thousands(requests as u64),
        start.elapsed().as_secs_f64()
    ));
    report_failures(&failures, report);
    report.check(
        failures.is_empty(),
        "every pipelined answer came in order and as expected",
    );
    let declared = mix
        .oversized
        .iter()
        .find(|c| c.name.contains("Content-Length"));
    if let Some(declared) = declared {
        let failures = in_parallel(10, |i| {
            let cases: Vec<&Case> = (0..5).map(|k| mix.case(i * 7 + k)).collect();
            hostile::pipeline_into_oversized(server.addr, &cases, declared)
        });
        report_failures(&failures, report);
        report.check(
            failures.is_empty(),
            "10 pipelines of 5 requests and an oversized head: 5 answers, the 413, then the close",
        );
    }
    after_hostile(
        server,
        mix,
        baseline,
        "after the pipelining clients",
        report,
    );
}

/// Runs `job(0..count)` on 4 threads; returns the errors, numbered.
fn in_parallel(count: u64, job: impl Fn(u64) -> Result<(), String> + Sync) -> Vec<String> {
    let next = AtomicU64::new(0);
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    let mut failures = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= count {
                            return failures;
                        }
                        if let Err(e) = job(i) {
                            failures.push(format!("#{i}: {e}"));
                        }
                    }
                })
            })
            .collect();
        threads
            .into_iter()
            .flat_map(|t| t.join().expect("a client thread"))
            .collect()
    })
}

fn report_failures(failures: &[String], report: &mut Report) {
    for failure in failures.iter().take(5) {
        report.line(format!("  - {failure}"));
    }
    if failures.len() > 5 {
        report.line(format!("  - … and {} more", failures.len() - 5));
    }
}

/// The server still answers a normal call exactly, and its descriptors come back to baseline.
fn after_hostile(
    server: &ServerProcess,
    mix: &Mix,
    baseline: &Sample,
    when: &str,
    report: &mut Report,
) {
    let call = mix.named("MobileAccountSearch SOAP 1.1");
    let answered = Connection::open(server.addr)
        .and_then(|mut c| c.call(&call.wire))
        .map_err(|e| e.to_string())
        .and_then(|answer| answer.difference(&call.expected).map_or(Ok(()), Err));
    report.check(
        answered.is_ok(),
        format!("{when}, a normal call gets its expected answer {answered:?}"),
    );
    let fds = server.settle_fds(baseline.fds, Duration::from_secs(10));
    let rss = server.rss_kib();
    report.check(
        fds == baseline.fds,
        format!(
            "{when}, descriptors back to baseline: {fds} (baseline {}); RSS {rss} KiB",
            baseline.fds
        ),
    );
}
