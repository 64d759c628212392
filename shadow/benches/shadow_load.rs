//! What the shadow costs the clients: the primary path's latency at a fixed request rate,
//! straight to the primary and through `rmm shadow`, and the process's memory while the
//! candidate is slow or down.
//!
//! ```sh
//! cargo bench -p rmm-shadow --bench shadow_load
//! ```
//!
//! The primary and the candidate are the Greeter service's generated server (the build-rs
//! test crate), answering SOAP 1.1 `Add`; the load is open-loop (each of 20 keep-alive
//! connections sends on a fixed schedule, and a request's latency counts from when it was due,
//! so a stall is not hidden by the requests it delays; tokio's timer wakes a sender up to a
//! millisecond late, which every target's latencies carry alike), 2,000 requests a second by
//! default.
//! Targets, loaded in turn in the same run:
//!
//! - `direct`: the primary itself;
//! - `shadow`: the shadow in front of it, mirroring to a candidate that answers;
//! - `shadow, candidate slow`: mirroring to a candidate that takes 2 s an answer (its
//!   time-out 1 s): the queue fills, requests are dropped, counted;
//! - `shadow, candidate down`: mirroring to a port nothing listens on;
//! - `direct, large answers beside`: the primary itself, while a connection of its own sends a
//!   `Greet` of a 2 MiB name every 250 ms beside the load (its latency not counted);
//! - `shadow, large answers differing`: the same load through the shadow, mirroring to a
//!   candidate whose greetings end in `!`: each large answer is compared by meaning, two
//!   2 MiB bodies read, and the report's page shows them side by side, which must not hold up
//!   the clients' requests (compared on the primary beside the same large answers).
//!
//! For each: requests sent and answered, p50, p99 and the worst latency, and the resident
//! memory of the process (servers, shadow and client alike) at the start and the end of the
//! load and its highest. The servers, the shadow and the client each run on a tokio runtime of
//! their own, sharing the machine's cores.
//!
//! Environment: `RMM_SHADOW_RATE` (requests a second, default 2000), `RMM_SHADOW_SECS`
//! (seconds per target, default 10), `RMM_SHADOW_CONNECTIONS` (default 20).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use greeter::runtime::deps::tokio;
use greeter::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

struct Sums {
    delay: Option<Duration>,
    /// What a greeting ends in.
    suffix: &'static str,
}

impl Greeter for Sums {
    async fn greet(&self, request: Greet) -> Result<GreetResponse, Fault> {
        Ok(GreetResponse {
            result: request.name.map(|name| name + self.suffix),
        })
    }

    async fn add(&self, request: Add) -> Result<AddResponse, Fault> {
        if let Some(delay) = self.delay {
            tokio::time::sleep(delay).await;
        }
        Ok(AddResponse {
            result: request.a.wrapping_add(request.b),
        })
    }
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A runtime of its own in a thread of its own, kept for the whole run.
fn runtime(threads: usize) -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

fn serve(
    runtime: &tokio::runtime::Runtime,
    delay: Option<Duration>,
    suffix: &'static str,
) -> SocketAddr {
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(GreeterServer::new(Sums { delay, suffix }).serve(listener));
        addr
    })
}

fn shadow(
    runtime: &tokio::runtime::Runtime,
    primary: SocketAddr,
    candidate: SocketAddr,
) -> SocketAddr {
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let dir = report_dir(addr);
        let mut config = rmm_shadow::Config::new(
            format!("http://{primary}").parse().unwrap(),
            format!("http://{candidate}").parse().unwrap(),
            dir,
        );
        config.mirror_timeout = Duration::from_secs(1);
        tokio::spawn(rmm_shadow::run(config, listener, std::future::pending()));
        addr
    })
}

/// Where the shadow on `addr` writes its report (removed at the end).
fn report_dir(addr: SocketAddr) -> std::path::PathBuf {
    std::env::temp_dir().join(format!(
        "rmm-shadow-load-{}-{}",
        std::process::id(),
        addr.port()
    ))
}

/// The resident memory of this process, in MiB.
fn rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn request(addr: SocketAddr) -> Vec<u8> {
    soap(addr, "Add", "<a>40</a><b>2</b>")
}

/// A `Greet` of a name of `size` bytes: an answer as large.
fn large_request(addr: SocketAddr, size: usize) -> Vec<u8> {
    soap(addr, "Greet", &format!("<name>{}</name>", "x".repeat(size)))
}

fn soap(addr: SocketAddr, operation: &str, parameters: &str) -> Vec<u8> {
    let body = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope \
        xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>\
        <{operation} xmlns=\"http://rmm.example.com/greeter\">{parameters}</{operation}>\
        </soap:Body></soap:Envelope>"
    );
    format!(
        "POST /api/Greeter.asmx HTTP/1.1\r\nHost: {addr}\r\nContent-Type: text/xml; charset=utf-8\r\n\
         SOAPAction: \"http://rmm.example.com/greeter/{operation}\"\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Reads one response on a keep-alive connection; its status.
async fn response(stream: &mut tokio::net::TcpStream, buffer: &mut Vec<u8>) -> Result<u16, String> {
    buffer.clear();
    let mut chunk = [0u8; 4096];
    loop {
        let mut headers = [httparse::EMPTY_HEADER; 32];
        let mut parsed = httparse::Response::new(&mut headers);
        if let Ok(httparse::Status::Complete(head)) = parsed.parse(buffer) {
            let length = parsed
                .headers
                .iter()
                .find(|h| h.name.eq_ignore_ascii_case("content-length"))
                .and_then(|h| std::str::from_utf8(h.value).ok()?.parse::<usize>().ok())
                .ok_or("no content-length")?;
            let status = parsed.code.unwrap_or(0);
            while buffer.len() < head + length {
                let n = stream.read(&mut chunk).await.map_err(|e| e.to_string())?;
                if n == 0 {
                    return Err("closed".into());
                }
                buffer.extend_from_slice(&chunk[..n]);
            }
            return Ok(status);
        }
        let n = stream.read(&mut chunk).await.map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("closed".into());
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
}

struct Load {
    sent: usize,
    answered: usize,
    latencies: Vec<Duration>,
    rss: (f64, f64, f64),
}

/// `rate` requests a second for `secs` seconds on `connections` connections, open-loop;
/// with `large`, a `Greet` of a 2 MiB name every 250 ms beside them, on a connection of its
/// own, not counted.
fn load(
    client: &tokio::runtime::Runtime,
    target: SocketAddr,
    (rate, secs, connections): (u64, u64, u64),
    large: bool,
) -> Load {
    let request = Arc::new(request(target));
    let interval = Duration::from_secs_f64(connections as f64 / rate as f64);
    let start = Instant::now() + Duration::from_millis(100);
    let end = start + Duration::from_secs(secs);
    let rss_start = rss_mib();
    let sampling = std::thread::spawn(move || {
        let mut highest = rss_mib();
        while Instant::now() < end {
            std::thread::sleep(Duration::from_millis(200));
            highest = highest.max(rss_mib());
        }
        highest
    });
    let results = client.block_on(async {
        let beside = large.then(|| {
            let request = large_request(target, 2 << 20);
            tokio::spawn(async move {
                let mut stream = tokio::net::TcpStream::connect(target).await.unwrap();
                let mut buffer = Vec::with_capacity(4 << 20);
                let mut due = start;
                while due < end {
                    tokio::time::sleep_until(due.into()).await;
                    if stream.write_all(&request).await.is_err()
                        || response(&mut stream, &mut buffer).await != Ok(200)
                    {
                        break;
                    }
                    due += Duration::from_millis(250);
                }
            })
        });
        let mut tasks = Vec::new();
        for c in 0..connections {
            let request = Arc::clone(&request);
            let offset = interval.mul_f64(c as f64 / connections as f64);
            tasks.push(tokio::spawn(async move {
                let mut stream = tokio::net::TcpStream::connect(target).await.unwrap();
                stream.set_nodelay(true).unwrap();
                let mut buffer = Vec::with_capacity(4096);
                let (mut sent, mut answered, mut latencies) = (0, 0, Vec::new());
                let mut due = start + offset;
                while due < end {
                    tokio::time::sleep_until(due.into()).await;
                    sent += 1;
                    if stream.write_all(&request).await.is_err() {
                        break;
                    }
                    match response(&mut stream, &mut buffer).await {
                        Ok(200) => {
                            answered += 1;
                            latencies.push(due.elapsed());
                        }
                        _ => break,
                    }
                    due += interval;
                }
                (sent, answered, latencies)
            }));
        }
        let mut all = (0, 0, Vec::new());
        for task in tasks {
            let (sent, answered, latencies) = task.await.unwrap();
            all.0 += sent;
            all.1 += answered;
            all.2.extend(latencies);
        }
        if let Some(beside) = beside {
            beside.await.unwrap();
        }
        all
    });
    let highest = sampling.join().unwrap();
    let (sent, answered, mut latencies) = results;
    latencies.sort_unstable();
    Load {
        sent,
        answered,
        latencies,
        rss: (rss_start, highest, rss_mib()),
    }
}

fn percentile(sorted: &[Duration], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let at = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[at].as_secs_f64() * 1000.0
}

fn main() {
    let rate = env("RMM_SHADOW_RATE", 2000);
    let secs = env("RMM_SHADOW_SECS", 10);
    let connections = env("RMM_SHADOW_CONNECTIONS", 20);
    let servers = runtime(1);
    let shadows = runtime(1);
    let client = runtime(1);
    let primary = serve(&servers, None, "");
    let candidate = serve(&servers, None, "");
    let slow = serve(&servers, Some(Duration::from_secs(2)), "");
    let differing = serve(&servers, None, "!");
    let down = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let targets = [
        ("direct", primary),
        ("shadow", shadow(&shadows, primary, candidate)),
        ("shadow, candidate slow", shadow(&shadows, primary, slow)),
        ("shadow, candidate down", shadow(&shadows, primary, down)),
        ("direct, large answers beside", primary),
        (
            "shadow, large answers differing",
            shadow(&shadows, primary, differing),
        ),
    ];
    println!(
        "shadow load: {rate} requests/s for {secs} s on {connections} connections, SOAP 1.1 Add\n"
    );
    println!(
        "| target | sent | answered | p50 ms | p99 ms | worst ms | RSS MiB start / highest / end |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut p99 = Vec::new();
    for (name, addr) in targets {
        let _cleanup = Cleanup(report_dir(addr));
        // A second of warm-up, then the load.
        let large = name.contains("large");
        load(&client, addr, (rate, 1, connections), large);
        let result = load(&client, addr, (rate, secs, connections), large);
        let worst = result
            .latencies
            .last()
            .map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0);
        p99.push(percentile(&result.latencies, 0.99));
        println!(
            "| {name} | {} | {} | {:.3} | {:.3} | {:.3} | {:.1} / {:.1} / {:.1} |",
            result.sent,
            result.answered,
            percentile(&result.latencies, 0.50),
            percentile(&result.latencies, 0.99),
            worst,
            result.rss.0,
            result.rss.1,
            result.rss.2,
        );
    }
    println!(
        "\nthe shadow adds {:.3} ms to the primary path's p99 ({:.3} with the candidate slow, {:.3} down, \
         {:.3} beside large answers compared, against the primary's {:.3} beside them)",
        p99[1] - p99[0],
        p99[2] - p99[0],
        p99[3] - p99[0],
        p99[5] - p99[4],
        p99[4]
    );
}

/// Removes a report directory when dropped.
struct Cleanup(std::path::PathBuf);

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
