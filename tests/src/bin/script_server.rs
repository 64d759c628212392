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
//!
//! It stops on SIGTERM or SIGINT, letting calls in flight finish.

use std::process::ExitCode;
use std::time::Duration;

use rmm_runtime::server::ServerConfig;
use rmm_runtime::session::{RedisStore, SessionConfig};
use rmm_script::ScriptServiceServer;
use rmm_tests::script_service::ScriptEcho;

struct Settings {
    listen: String,
    redis: Option<String>,
    lock_expiry: Duration,
}

fn settings() -> Result<Settings, String> {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let mut settings = Settings {
        listen: env("RMM_LISTEN").unwrap_or_else(|| "127.0.0.1:0".to_owned()),
        redis: env("RMM_REDIS_URL"),
        lock_expiry: Duration::from_secs(110),
    };
    let mut lock_expiry = env("RMM_SESSION_LOCK_EXPIRY");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--listen" => settings.listen = value()?,
            "--redis" => settings.redis = Some(value()?),
            "--lock-expiry" => lock_expiry = Some(value()?),
            other => {
                return Err(format!(
                    "unknown argument {other}; usage: script_server [--listen ADDR] [--redis URL] [--lock-expiry SECONDS]"
                ))
            }
        }
    }
    if let Some(seconds) = lock_expiry {
        let seconds: u64 = seconds
            .parse()
            .map_err(|_| format!("the lock expiry {seconds:?} is no number of seconds"))?;
        settings.lock_expiry = Duration::from_secs(seconds);
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
    let config = ServerConfig {
        sessions,
        ..ServerConfig::default()
    };
    let server = ScriptServiceServer::new(ScriptEcho).with_config(config);
    let stop = async {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("a SIGTERM handler");
        tokio::select! {
            _ = term.recv() => {}
            _ = tokio::signal::ctrl_c() => {}
        }
    };
    match server.serve_with_shutdown(listener, stop).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("script_server: {e}");
            ExitCode::FAILURE
        }
    }
}
