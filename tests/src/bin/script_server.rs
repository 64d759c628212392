//! The script service (rmm's `ScriptEcho`, crate `rmm-script`) as a process of its own: one
//! replica of the replicas run (`tests/src/bin/replicas.rs`). Every setting comes from the
//! command line or the environment:
//!
//! - `--listen ADDR` (`RMM_LISTEN`, default `127.0.0.1:0`): where it serves; the address it
//!   bound is printed on the first line of stdout (`listening on 127.0.0.1:PORT`).
//! - `--redis URL` (`RMM_REDIS_URL`): keep sessions in this Redis server, shared with the other
//!   replicas; in memory without it.
//! - `--lock-expiry SECONDS` (`RMM_SESSION_LOCK_EXPIRY`, default 110): how long a session's
//!   lock outlives a replica that dies holding it.
//! - `--admin ADDR` (`RMM_ADMIN`): the admin address (`/healthz/live`, `/healthz/ready`,
//!   `/metrics`), printed on the second line (`admin on 127.0.0.1:PORT`); none without it.
//! - `--drain-delay SECONDS` (`RMM_DRAIN_DELAY`, default 0): on SIGTERM, how long readiness
//!   fails before the address stops taking connections.
//! - `--grace SECONDS` (`RMM_SHUTDOWN_GRACE`, default 30): how long calls in flight then have.
//!
//! On SIGTERM or SIGINT it drains: readiness fails, then no new connection, then the calls in
//! flight finish, then it exits.

use std::process::ExitCode;
use std::time::Duration;

use rmm_runtime::server::operate::{drain, stop_signal, Admin, Health, Metrics};
use rmm_runtime::server::ServerConfig;
use rmm_runtime::session::{RedisStore, SessionConfig};
use rmm_script::ScriptServiceServer;
use rmm_tests::script_service::ScriptEcho;

struct Settings {
    listen: String,
    redis: Option<String>,
    lock_expiry: Duration,
    admin: Option<String>,
    drain_delay: Duration,
    grace: Duration,
}

fn seconds(what: &str, text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("the {what} {text:?} is no number of seconds"))
}

fn settings() -> Result<Settings, String> {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let mut settings = Settings {
        listen: env("RMM_LISTEN").unwrap_or_else(|| "127.0.0.1:0".to_owned()),
        redis: env("RMM_REDIS_URL"),
        lock_expiry: Duration::from_secs(110),
        admin: env("RMM_ADMIN"),
        drain_delay: Duration::ZERO,
        grace: Duration::from_secs(30),
    };
    let mut lock_expiry = env("RMM_SESSION_LOCK_EXPIRY");
    let mut drain_delay = env("RMM_DRAIN_DELAY");
    let mut grace = env("RMM_SHUTDOWN_GRACE");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--listen" => settings.listen = value()?,
            "--redis" => settings.redis = Some(value()?),
            "--lock-expiry" => lock_expiry = Some(value()?),
            "--admin" => settings.admin = Some(value()?),
            "--drain-delay" => drain_delay = Some(value()?),
            "--grace" => grace = Some(value()?),
            other => {
                return Err(format!(
                    "unknown argument {other}; usage: script_server [--listen ADDR] [--redis URL] [--lock-expiry SECONDS] [--admin ADDR] [--drain-delay SECONDS] [--grace SECONDS]"
                ))
            }
        }
    }
    if let Some(text) = lock_expiry {
        settings.lock_expiry = seconds("lock expiry", &text)?;
    }
    if let Some(text) = drain_delay {
        settings.drain_delay = seconds("drain delay", &text)?;
    }
    if let Some(text) = grace {
        settings.grace = seconds("grace period", &text)?;
    }
    Ok(settings)
}

#[tokio::main]
async fn main() -> ExitCode {
    let settings = match settings() {
        Ok(settings) => settings,
        Err(e) => {
            eprintln!("script_server: {e}");
            return ExitCode::from(2);
        }
    };
    let mut sessions = SessionConfig::default();
    if let Some(url) = &settings.redis {
        match RedisStore::connect(url).await {
            Ok(store) => {
                sessions = sessions.with_store(store.with_lock_expiry(settings.lock_expiry));
            }
            Err(e) => {
                eprintln!("script_server: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let listener = match tokio::net::TcpListener::bind(&settings.listen).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("script_server: cannot listen on {}: {e}", settings.listen);
            return ExitCode::FAILURE;
        }
    };
    match listener.local_addr() {
        Ok(addr) => println!("listening on {addr}"),
        Err(e) => {
            eprintln!("script_server: {e}");
            return ExitCode::FAILURE;
        }
    }
    let health = Health::new();
    let metrics = Metrics::new();
    if let Some(admin) = &settings.admin {
        let admin_listener = match tokio::net::TcpListener::bind(admin).await {
            Ok(listener) => listener,
            Err(e) => {
                eprintln!("script_server: cannot listen on {admin}: {e}");
                return ExitCode::FAILURE;
            }
        };
        match admin_listener.local_addr() {
            Ok(addr) => println!("admin on {addr}"),
            Err(e) => {
                eprintln!("script_server: {e}");
                return ExitCode::FAILURE;
            }
        }
        // The admin address answers until the process exits: liveness holds while draining.
        let admin = Admin::new(health.clone(), Some(metrics.clone()));
        tokio::spawn(admin.serve(admin_listener, std::future::pending()));
    }
    let config = ServerConfig {
        sessions,
        metrics: Some(metrics),
        shutdown_grace: settings.grace,
        ..ServerConfig::default()
    };
    let server = ScriptServiceServer::new(ScriptEcho).with_config(config);
    let stop = drain(health, settings.drain_delay, stop_signal());
    match server.serve_with_shutdown(listener, stop).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("script_server: {e}");
            ExitCode::FAILURE
        }
    }
}
