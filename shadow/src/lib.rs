//! # rmm-shadow
//!
//! Proof that a replacement answers as the legacy ASMX host does, on real traffic, after
//! Twitter's Diffy: [`run`] is a reverse proxy that answers every client with the legacy
//! host's (the *primary*'s) response, unchanged, and mirrors the request, off the client's
//! path (a bounded queue, time-outs of its own, drops counted), to the replacement (the
//! *candidate*) and, optionally, to a second legacy instance (the *secondary*).
//!
//! Each candidate answer is compared with the primary's ([`compare`]): status, the headers that
//! carry meaning, and the body by meaning (the leaves of its XML, prefixes and layout aside,
//! fault codes resolved; with a [`typing::Typing`] made from the spec, each leaf by the value
//! of its type, as a .NET client reads it) and by bytes. Where the primary and the secondary
//! differ between themselves (a time, an id), the field is noise for that operation;
//! [`rules::Rules`] names more. [`report::Report`] counts, per operation and binding, the
//! answers identical, noise only, different and failed, groups the differences in classes (an
//! operation's field) with the shortest example of each, and is written as `report.json` and
//! `report.html`.
//!
//! With `record`, every exchange with the primary is written as a capture file
//! ([`capture`], the project's format), its secrets redacted ([`redact`]); [`replay`] sends
//! such files again to a server and compares its answers with the recorded ones by the same
//! rules: a day of production traffic becomes a regression suite.

pub mod capture;
pub mod classify;
pub mod compare;
mod findings;
mod forward;
mod html;
pub mod leaves;
mod proxy;
pub mod redact;
pub mod replay;
pub mod report;
pub mod rules;
pub mod typing;
pub mod wire;

pub use proxy::{run, Config, Explain};

/// Runs the shadow on `listen` until SIGINT or SIGTERM, on a runtime of its own: what
/// `rmm shadow` does.
pub fn run_until_signal(
    config: Config,
    listen: std::net::SocketAddr,
) -> std::io::Result<report::Report> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(listen).await?;
        let mut terminate =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        let stop = async move {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = terminate.recv() => {}
            }
        };
        run(config, listener, stop).await
    })
}

/// Replays the capture files of `dir` against `config.against`, on a runtime of its own:
/// what `rmm replay` does.
pub fn replay_dir(
    dir: &std::path::Path,
    config: replay::ReplayConfig,
) -> Result<report::Report, String> {
    let captures = capture::read_dir(dir)?;
    if captures.is_empty() {
        return Err(format!(
            "{}: no capture file (*.txt) to replay",
            dir.display()
        ));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(replay::replay(captures, config))
}
