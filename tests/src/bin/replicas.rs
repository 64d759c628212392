//! The replicas run (issue 35): the script service's generated server as three processes
//! (`script_server`) sharing their sessions in one real Redis (Debian's `redis-server`), behind
//! a real load balancer (Debian's nginx: round-robin, no affinity). Clients hold sessions
//! across hundreds of calls over every binding while one replica is killed (SIGKILL) mid-run
//! and, later, another is stopped (SIGTERM: it drains, its readiness failing first, and fails
//! no call); then every session must hold every write its client was told succeeded, in order,
//! and nothing its client never sent. Prints the numbers (calls, sessions, errors, replicas
//! served) and exits non-zero on any lost session or write, or any call failed by the drain.
//!
//! `cargo xtask replicas` installs the two servers (`tests/replicas/install.sh`) and runs it.
//! Every process is started here on free ports of 127.0.0.1 and stopped by its PID.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmm_script::*;

/// Clients, each in a session of its own.
const SESSIONS: usize = 24;
/// Visits each client makes.
const VISITS: usize = 30;
/// The replica killed once this many visits have been acknowledged in all.
const KILL_AFTER: usize = SESSIONS * VISITS / 3;
/// Another replica stopped (SIGTERM, a drain) once this many have been.
const TERM_AFTER: usize = SESSIONS * VISITS * 2 / 3;
/// How long a session's lock outlives the replica that died holding it.
const LOCK_EXPIRY_SECONDS: u64 = 3;

/// A process started here, stopped by its PID when dropped.
struct Process {
    name: &'static str,
    child: Child,
}

impl Process {
    fn signal(&self, signal: &str) {
        let _ = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(self.child.id().to_string())
            .status();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.signal("TERM");
            let deadline = Instant::now() + Duration::from_secs(5);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            eprintln!("{} did not stop on SIGTERM: killed", self.name);
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    Ok(listener.local_addr().map_err(|e| e.to_string())?.port())
}

/// Waits until something accepts connections on `port`.
fn wait_for_port(port: u16, what: &str) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(15);
    while Instant::now() < deadline {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Err(format!("{what} did not listen on port {port} within 15 s"))
}

fn start_redis(dir: &Path) -> Result<(Process, String), String> {
    let port = free_port()?;
    let child = Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
        .arg("--dir")
        .arg(dir)
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start redis-server (run tests/replicas/install.sh): {e}"))?;
    let redis = Process {
        name: "redis-server",
        child,
    };
    wait_for_port(port, "redis-server")?;
    Ok((redis, format!("redis://127.0.0.1:{port}/")))
}

/// A replica: the process, its service port and its admin port.
fn start_replica(binary: &Path, redis: &str) -> Result<(Process, u16, u16), String> {
    let mut child = Command::new(binary)
        .args(["--listen", "127.0.0.1:0", "--redis", redis])
        .args(["--session-lock-expiry", &LOCK_EXPIRY_SECONDS.to_string()])
        .args(["--admin", "127.0.0.1:0", "--shutdown-grace", "10"])
        // A setting from the environment, as a container passes it.
        .env("RMM_DRAIN_DELAY", "500ms")
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let replica = Process {
        name: "script_server",
        child,
    };
    let mut lines = BufReader::new(stdout).lines();
    let mut port = || -> Result<u16, String> {
        let line = lines
            .next()
            .ok_or("the replica printed nothing")?
            .map_err(|e| e.to_string())?;
        line.trim()
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| format!("the replica printed {line:?}, not an address"))
    };
    let service = port()?;
    let admin = port()?;
    Ok((replica, service, admin))
}

/// The status of `GET path` on the admin address at `port`.
fn probe(port: u16, path: &str) -> Result<u16, String> {
    use std::io::{Read, Write};
    let mut stream =
        std::net::TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| e.to_string())?;
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .map_err(|e| e.to_string())?;
    answer
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no HTTP answer: {answer:?}"))
}

fn start_nginx(dir: &Path, replicas: &[u16]) -> Result<(Process, u16), String> {
    let port = free_port()?;
    let servers: String = replicas
        .iter()
        .map(|p| format!("        server 127.0.0.1:{p} max_fails=1 fail_timeout=30s;\n"))
        .collect();
    let d = dir.display();
    // Round-robin, no affinity. A replica that refuses a connection is tried no more for a
    // while, and the request goes to the next (a POST too: nothing of it was sent); a request
    // in flight on a replica that dies is answered 502 and not sent again.
    let config = format!(
        "worker_processes 1;\ndaemon off;\npid {d}/nginx.pid;\nerror_log {d}/nginx-error.log;\n\
         events {{ worker_connections 1024; }}\n\
         http {{\n    log_format upstream '$upstream_addr $status';\n    access_log {d}/access.log upstream;\n\
         \x20   client_body_temp_path {d}/tmp/body;\n    proxy_temp_path {d}/tmp/proxy;\n\
         \x20   fastcgi_temp_path {d}/tmp/fastcgi;\n    uwsgi_temp_path {d}/tmp/uwsgi;\n    scgi_temp_path {d}/tmp/scgi;\n\
         \x20   upstream replicas {{\n{servers}        keepalive 32;\n    }}\n\
         \x20   server {{\n        listen 127.0.0.1:{port};\n        location / {{\n\
         \x20           proxy_pass http://replicas;\n            proxy_http_version 1.1;\n\
         \x20           proxy_set_header Connection \"\";\n            proxy_set_header Host $http_host;\n\
         \x20           proxy_next_upstream error timeout;\n            proxy_connect_timeout 1s;\n\
         \x20           proxy_read_timeout 30s;\n        }}\n    }}\n}}\n"
    );
    std::fs::create_dir_all(dir.join("tmp")).map_err(|e| e.to_string())?;
    let path = dir.join("nginx.conf");
    std::fs::write(&path, config).map_err(|e| e.to_string())?;
    let child = Command::new("/usr/sbin/nginx")
        .arg("-c")
        .arg(&path)
        .arg("-p")
        .arg(dir)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start nginx (run tests/replicas/install.sh): {e}"))?;
    let nginx = Process {
        name: "nginx",
        child,
    };
    wait_for_port(port, "nginx")?;
    Ok((nginx, port))
}

/// What one client saw of its session.
#[derive(Debug, Default)]
struct Outcome {
    /// Items whose Visit was answered with a count.
    acknowledged: Vec<String>,
    /// Items whose Visit failed (the replica died under it, or nginx had no replica).
    unacknowledged: Vec<String>,
    /// Visits that failed after the drain began.
    failed_in_drain: usize,
    /// The session's items at the end, read through the load balancer.
    stored: Vec<String>,
    errors: Vec<String>,
}

/// The bindings visits go over, in turn. Not HTTP GET: a load balancer sends a GET again to
/// the next replica when the one it went to dies before answering (GET is idempotent in HTTP),
/// and a Visit over GET that the dead replica had stored is then stored twice. ASMX lets a GET
/// write; the guide says to keep such an operation off GET behind a retrying balancer. GET
/// reads the sessions at the end.
const BINDINGS: [Binding; 4] = [
    Binding::Json,
    Binding::Soap11,
    Binding::Soap12,
    Binding::HttpPost,
];

async fn client_run(
    base: String,
    n: usize,
    acked: Arc<AtomicUsize>,
    draining: Arc<std::sync::atomic::AtomicBool>,
) -> Outcome {
    let client = ScriptServiceClient::new(&base).with_timeout(Some(Duration::from_secs(30)));
    let mut outcome = Outcome::default();
    for v in 0..VISITS {
        let item = format!("s{n}-v{v}");
        let binding = BINDINGS[(n + v) % BINDINGS.len()];
        let answer = client
            .over(binding)
            .visit(&Visit {
                item: Some(item.clone()),
            })
            .await;
        match answer {
            Ok(_) => {
                outcome.acknowledged.push(item);
                acked.fetch_add(1, Ordering::SeqCst);
            }
            Err(e) => {
                if draining.load(Ordering::SeqCst) {
                    outcome.failed_in_drain += 1;
                }
                let e = e.to_string();
                let first = e.lines().next().unwrap_or_default();
                outcome
                    .errors
                    .push(format!("{item} over {binding:?}: {first}"));
                outcome.unacknowledged.push(item);
            }
        }
    }
    // The session read back over every binding: each must read the same.
    let mut reads = Vec::new();
    for binding in [Binding::HttpGet, Binding::Soap11, Binding::Json] {
        match client.over(binding).contents(&Contents {}).await {
            Ok(contents) => reads.push(
                contents
                    .result
                    .unwrap_or_default()
                    .into_iter()
                    .map(Option::unwrap_or_default)
                    .collect::<Vec<_>>(),
            ),
            Err(e) => outcome
                .errors
                .push(format!("Contents over {binding:?}: {e}")),
        }
    }
    if reads.windows(2).any(|w| w[0] != w[1]) {
        outcome.errors.push(format!(
            "Contents read differently over the bindings: {reads:?}"
        ));
    }
    outcome.stored = reads.into_iter().next().unwrap_or_default();
    if client.session_id().is_none() {
        outcome.errors.push("no session was issued".to_owned());
    }
    outcome
}

/// Whether `stored` holds every acknowledged item in order, and nothing but items sent (an
/// unacknowledged one at most once: its replica may have stored it before dying).
fn judge(outcome: &Outcome) -> Result<(), String> {
    let mut acked = outcome.acknowledged.iter().peekable();
    let mut seen = std::collections::HashSet::new();
    for item in &outcome.stored {
        if !seen.insert(item) {
            return Err(format!("{item} stored twice"));
        }
        if acked.peek() == Some(&item) {
            acked.next();
        } else if !outcome.unacknowledged.contains(item) {
            return Err(format!("{item} stored out of order, or never sent"));
        }
    }
    match acked.next() {
        None => Ok(()),
        Some(lost) => Err(format!("the acknowledged write {lost} is lost")),
    }
}

/// `RedisStore` on its own, on the run's Redis: a session written and read back; a second
/// call of a session waits for the first, and past its wait is refused; a lock outlives no
/// dead holder past its expiry, and the holder that outlived it writes nothing; a session's
/// time-out restarted by use, and its end.
async fn store_checks(url: &str) -> Result<(), String> {
    use rmm_runtime::session::{RedisStore, Release, SessionStore, StoreError};
    let fail = |what: &str| format!("RedisStore: {what}");
    let store = RedisStore::connect(url)
        .await
        .map_err(|e| fail(&e.to_string()))?
        .with_prefix("check:")
        .with_lock_expiry(Duration::from_millis(600));
    let (ttl, wait) = (Duration::from_secs(60), Duration::from_millis(200));
    let id = "abcdefghijklmnopqrstuvwx";
    let mut lease = store
        .acquire(id, ttl, wait)
        .await
        .map_err(|e| fail(&e.to_string()))?;
    if lease.take_data().is_some() {
        return Err(fail("a session never stored reads as stored"));
    }
    store
        .new_session(id)
        .release(Release::Write(b"one".to_vec()), ttl)
        .await
        .map_err(|e| fail(&e.to_string()))?;
    let mut held = store
        .acquire(id, ttl, wait)
        .await
        .map_err(|e| fail(&e.to_string()))?;
    if held.take_data().as_deref() != Some(&b"one"[..]) {
        return Err(fail("a written session does not read back"));
    }
    // Held: a second call waits, and is refused past its wait.
    match store.acquire(id, ttl, wait).await {
        Err(StoreError::Locked(_)) => {}
        Err(e) => return Err(fail(&e.to_string())),
        Ok(_) => return Err(fail("a held session was taken by a second call")),
    }
    // The holder dies (its lease is never released): the lock expires, the next call gets
    // the session, and the dead holder's late write is dropped.
    let started = Instant::now();
    let mut next = store
        .acquire(id, ttl, Duration::from_secs(5))
        .await
        .map_err(|e| fail(&e.to_string()))?;
    if started.elapsed() < Duration::from_millis(300) {
        return Err(fail("a held lock was taken before its expiry"));
    }
    held.release(Release::Write(b"late".to_vec()), ttl)
        .await
        .map_err(|e| fail(&e.to_string()))?;
    if next.take_data().as_deref() != Some(&b"one"[..]) {
        return Err(fail("the next call did not read the session as stored"));
    }
    next.release(Release::Write(b"two".to_vec()), ttl)
        .await
        .map_err(|e| fail(&e.to_string()))?;
    let mut read = store
        .acquire(id, ttl, wait)
        .await
        .map_err(|e| fail(&e.to_string()))?;
    if read.take_data().as_deref() != Some(&b"two"[..]) {
        return Err(fail("a call that outlived its lock wrote over the next"));
    }
    read.release(Release::Keep, ttl)
        .await
        .map_err(|e| fail(&e.to_string()))?;
    // The time-out: restarted by a touch, then the session ends.
    let short = Duration::from_millis(1000);
    let other = "bbbbbbbbbbbbbbbbbbbbbbbb";
    store
        .new_session(other)
        .release(Release::Write(b"x".to_vec()), short)
        .await
        .map_err(|e| fail(&e.to_string()))?;
    tokio::time::sleep(Duration::from_millis(700)).await;
    store
        .touch(other, short)
        .await
        .map_err(|e| fail(&e.to_string()))?;
    tokio::time::sleep(Duration::from_millis(700)).await;
    let mut alive = store
        .acquire(other, short, wait)
        .await
        .map_err(|e| fail(&e.to_string()))?;
    if alive.take_data().is_none() {
        return Err(fail("a touched session ended at its first time-out"));
    }
    alive
        .release(Release::Keep, short)
        .await
        .map_err(|e| fail(&e.to_string()))?;
    tokio::time::sleep(Duration::from_millis(1300)).await;
    let mut gone = store
        .acquire(other, short, wait)
        .await
        .map_err(|e| fail(&e.to_string()))?;
    if gone.take_data().is_some() {
        return Err(fail("a session outlived its time-out"));
    }
    // Removed.
    let lease = store
        .acquire(id, ttl, wait)
        .await
        .map_err(|e| fail(&e.to_string()))?;
    lease
        .release(Release::Remove, ttl)
        .await
        .map_err(|e| fail(&e.to_string()))?;
    let mut removed = store
        .acquire(id, ttl, wait)
        .await
        .map_err(|e| fail(&e.to_string()))?;
    if removed.take_data().is_some() {
        return Err(fail("a removed session reads as stored"));
    }
    println!("RedisStore on its own: write and read, one call at a time, a dead holder's lock expired and its late write dropped, the time-out restarted by use and ended, removal: all as they should be");
    Ok(())
}

async fn run(work: PathBuf) -> Result<(), String> {
    let binary = std::env::current_exe()
        .map_err(|e| e.to_string())?
        .with_file_name("script_server");
    if !binary.exists() {
        return Err(format!(
            "{} is missing: build it first (cargo build -p rmm-tests --bin script_server)",
            binary.display()
        ));
    }
    let (redis, redis_url) = start_redis(&work)?;
    store_checks(&redis_url).await?;
    let mut replicas = Vec::new();
    let mut ports = Vec::new();
    let mut admins = Vec::new();
    for _ in 0..3 {
        let (replica, port, admin) = start_replica(&binary, &redis_url)?;
        replicas.push(Some(replica));
        ports.push(port);
        admins.push(admin);
    }
    let (nginx, port) = start_nginx(&work, &ports)?;
    let base = format!("http://127.0.0.1:{port}");
    println!(
        "redis {redis_url}, replicas on ports {ports:?}, nginx (round-robin) on {port}: {SESSIONS} sessions × {VISITS} visits, the replica on {} killed after {KILL_AFTER}, the one on {} stopped (drained) after {TERM_AFTER}",
        ports[1], ports[2]
    );

    let started = Instant::now();
    let acked = Arc::new(AtomicUsize::new(0));
    let draining = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let clients: Vec<_> = (0..SESSIONS)
        .map(|n| {
            tokio::spawn(client_run(
                base.clone(),
                n,
                Arc::clone(&acked),
                Arc::clone(&draining),
            ))
        })
        .collect();
    let reach = |target: usize| {
        let (acked, clients) = (&acked, &clients);
        async move {
            while acked.load(Ordering::SeqCst) < target && clients.iter().any(|c| !c.is_finished())
            {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
    };
    reach(KILL_AFTER).await;
    let killed_at = acked.load(Ordering::SeqCst);
    if let Some(victim) = replicas[1].take() {
        victim.signal("KILL");
        drop(victim);
    }
    reach(TERM_AFTER).await;
    let termed_at = acked.load(Ordering::SeqCst);
    let mut drained = replicas[2].take().ok_or("no third replica")?;
    draining.store(true, Ordering::SeqCst);
    let ready_before = probe(admins[2], "/healthz/ready")?;
    drained.signal("TERM");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let ready_draining = probe(admins[2], "/healthz/ready")?;
    let live_draining = probe(admins[2], "/healthz/live")?;
    let mut outcomes = Vec::new();
    for client in clients {
        outcomes.push(client.await.map_err(|e| e.to_string())?);
    }
    let elapsed = started.elapsed();
    // The drained replica exits by itself, and cleanly.
    let drained_exit = tokio::task::spawn_blocking(move || {
        let exit = drained.child.wait().map_err(|e| e.to_string());
        (exit, drained)
    })
    .await
    .map_err(|e| e.to_string())?;
    let drained_status = drained_exit.0?;
    drop(drained_exit.1);
    drop(nginx);
    drop(replicas);
    drop(redis);

    // Which replicas answered, from nginx's log of upstreams.
    let log = std::fs::read_to_string(work.join("access.log")).unwrap_or_default();
    let mut served: BTreeMap<String, usize> = BTreeMap::new();
    for line in log.lines() {
        // A retried request logs each upstream tried: "a:1, b:2 200".
        let upstream = line.rsplit_once(' ').map_or(line, |(u, _)| u);
        if let Some(last) = upstream.split(", ").last() {
            *served.entry(last.to_owned()).or_default() += 1;
        }
    }
    let calls: usize = outcomes
        .iter()
        .map(|o| o.acknowledged.len() + o.unacknowledged.len() + 3)
        .sum();
    let acknowledged: usize = outcomes.iter().map(|o| o.acknowledged.len()).sum();
    let failed: usize = outcomes.iter().map(|o| o.unacknowledged.len()).sum();
    let in_flight_stored: usize = outcomes
        .iter()
        .map(|o| {
            o.stored
                .iter()
                .filter(|i| o.unacknowledged.contains(i))
                .count()
        })
        .sum();
    println!(
        "{calls} calls in {:.1} s: {acknowledged} visits acknowledged, {failed} failed (in flight on the killed replica, {in_flight_stored} of them stored before it died), killed after {killed_at}",
        elapsed.as_secs_f64()
    );
    println!("answered by replica (nginx's upstream): {served:?}");
    let failed_in_drain: usize = outcomes.iter().map(|o| o.failed_in_drain).sum();
    println!(
        "drain after {termed_at}: readiness {ready_before} before SIGTERM, {ready_draining} after (liveness {live_draining}); {failed_in_drain} visits failed after it; the replica exited with {drained_status}"
    );
    let mut problems = Vec::new();
    for (n, outcome) in outcomes.iter().enumerate() {
        if let Err(e) = judge(outcome) {
            problems.push(format!("session {n}: {e}"));
        }
        for error in &outcome.errors {
            if error.starts_with("Contents") || error.starts_with("no session") {
                problems.push(format!("session {n}: {error}"));
            }
        }
    }
    if (ready_before, ready_draining, live_draining) != (200, 503, 200) {
        problems.push(format!(
            "the drained replica's probes: ready {ready_before} before, {ready_draining} after SIGTERM (want 503), live {live_draining} (want 200)"
        ));
    }
    if failed_in_drain > 0 {
        problems.push(format!("{failed_in_drain} visits failed during the drain"));
    }
    if !drained_status.success() {
        problems.push(format!("the drained replica exited with {drained_status}"));
    }
    // A replica dying can fail only the calls in flight on it: at most one per client.
    if failed > SESSIONS {
        problems.push(format!(
            "{failed} visits failed: more than the {SESSIONS} that can be in flight"
        ));
    }
    let live = served
        .keys()
        .filter(|k| k.starts_with("127.0.0.1:"))
        .count();
    if live < 3 {
        problems.push(format!(
            "only {live} replicas answered: the balancer did not spread the calls"
        ));
    }
    for error in outcomes.iter().flat_map(|o| &o.errors).take(5) {
        println!("  a failed call: {error}");
    }
    if problems.is_empty() {
        println!("{SESSIONS} sessions, no session and no acknowledged write lost");
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

fn main() -> ExitCode {
    let work = std::env::temp_dir().join(format!("rmm-replicas-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&work) {
        eprintln!("replicas: cannot make {}: {e}", work.display());
        return ExitCode::FAILURE;
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("replicas: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(run(work.clone()));
    let _ = std::fs::remove_dir_all(&work);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("replicas: FAILED\n{e}");
            ExitCode::FAILURE
        }
    }
}
