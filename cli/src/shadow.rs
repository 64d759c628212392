//! `rmm shadow`: the legacy host's answers to the clients, the replacement's compared beside
//! them (rmm-shadow).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rmm_shadow::redact::Secrets;
use rmm_shadow::replay::ReplayConfig;
use rmm_shadow::report::Report;
use rmm_shadow::rules::Rules;
use rmm_shadow::Config;

use crate::Outcome;

/// What `rmm shadow` is told.
#[derive(Debug, Clone)]
pub struct ShadowOptions {
    /// Where clients connect.
    pub listen: SocketAddr,
    /// The legacy host.
    pub primary: String,
    /// The replacement.
    pub candidate: String,
    /// A second legacy instance, to learn the noise from.
    pub secondary: Option<String>,
    /// Where the report is written.
    pub report: PathBuf,
    /// Seconds between reports.
    pub report_every: u64,
    /// The rules file.
    pub ignore: Option<PathBuf>,
    /// The mirror queue's length.
    pub queue: usize,
    /// Requests mirrored at once.
    pub concurrency: usize,
    /// Seconds the candidate and the secondary may take.
    pub mirror_timeout: u64,
    /// Seconds the primary may take.
    pub primary_timeout: u64,
    /// Where each exchange with the primary is recorded.
    pub record: Option<PathBuf>,
    /// The specs (or crates `rmm gen` wrote) of the services behind the shadow: their
    /// `secrets` are redacted from what is recorded, and the answers compared by their types.
    pub specs: Vec<PathBuf>,
    /// More secret parameters or members (`Class.Member`).
    pub secrets: Vec<String>,
    /// More secret headers.
    pub secret_headers: Vec<String>,
}

/// What `rmm replay` is told.
#[derive(Debug, Clone)]
pub struct ReplayOptions {
    /// The capture files' directory.
    pub dir: PathBuf,
    /// The server to send them to.
    pub against: String,
    /// Where the report is written.
    pub report: PathBuf,
    /// The rules file.
    pub ignore: Option<PathBuf>,
    /// A shadow's report directory whose learned noise is ignored too.
    pub noise_from: Option<PathBuf>,
    /// The specs (or crates `rmm gen` wrote) whose types the answers are compared by.
    pub specs: Vec<PathBuf>,
    /// Requests in flight at once.
    pub concurrency: usize,
    /// Seconds the server may take.
    pub timeout: u64,
}

/// A host's URL: `http://host[:port]`.
fn url(what: &str, url: &str) -> Result<http::Uri, String> {
    let uri: http::Uri = url
        .parse()
        .map_err(|e| format!("--{what} {url}: not a URL: {e}"))?;
    match (uri.scheme_str(), uri.authority()) {
        (Some("http"), Some(_)) => Ok(uri),
        _ => Err(format!(
            "--{what} {url}: an http:// URL of a host (and port) is needed"
        )),
    }
}

/// The secrets to redact: the specs', and those named.
fn secrets(
    options: &ShadowOptions,
    specs: &[(String, rmm_codegen::spec::Spec)],
) -> Result<Secrets, String> {
    let mut names = options.secrets.clone();
    for (_, spec) in specs {
        names.extend(spec.secrets.iter().cloned());
    }
    let headers = options
        .secret_headers
        .iter()
        .map(|h| {
            http::HeaderName::from_bytes(h.to_ascii_lowercase().as_bytes())
                .map_err(|e| format!("--secret-header {h}: {e}"))
        })
        .collect::<Result<_, _>>()?;
    Ok(Secrets { names, headers })
}

/// Runs the shadow until SIGINT or SIGTERM, then prints what the report counts.
pub fn shadow(options: &ShadowOptions) -> Result<Outcome, String> {
    let mut config = Config::new(
        url("primary", &options.primary)?,
        url("candidate", &options.candidate)?,
        options.report.clone(),
    );
    config.secondary = options
        .secondary
        .as_deref()
        .map(|s| url("secondary", s))
        .transpose()?;
    config.report_every = Duration::from_secs(options.report_every.max(1));
    if let Some(file) = &options.ignore {
        config.rules = Rules::read(file)?;
    }
    config.queue = options.queue;
    config.concurrency = options.concurrency;
    config.mirror_timeout = Duration::from_secs(options.mirror_timeout);
    config.primary_timeout = Duration::from_secs(options.primary_timeout);
    config.record = options.record.clone();
    // Each spec read once: its secrets redacted, its types compared by.
    let specs = crate::typing::load(&options.specs)?;
    config.secrets = secrets(options, &specs)?;
    config.typing = Arc::new(crate::typing::of_loaded(&specs)?);
    eprintln!(
        "rmm shadow: listening on {}, answering from {}, mirroring to {}{}; the report in {} (SIGINT or SIGTERM stops)",
        options.listen,
        options.primary,
        options.candidate,
        options
            .secondary
            .as_deref()
            .map(|s| format!(" and {s}"))
            .unwrap_or_default(),
        options.report.display()
    );
    let report = rmm_shadow::run_until_signal(config, options.listen)
        .map_err(|e| format!("rmm shadow on {}: {e}", options.listen))?;
    eprintln!(
        "rmm shadow: {}; {} not mirrored; {}",
        counts(&report),
        report.dropped,
        options.report.join("report.html").display()
    );
    Ok(Outcome::Done)
}

fn counts(report: &Report) -> String {
    let sum = |f: fn(&rmm_shadow::report::Row) -> u64| report.rows.iter().map(f).sum::<u64>();
    format!(
        "{} requests; the candidate's answers: {} identical, {} noise only, {} different, {} failed",
        report.requests,
        sum(|r| r.identical),
        sum(|r| r.noise),
        sum(|r| r.different),
        sum(|r| r.candidate_failed),
    )
}

/// Sends the recorded requests of a directory to a server and compares its answers with the
/// recorded ones; [`Outcome::Differs`] when one differs (but for noise) or is not answered.
pub fn replay(options: &ReplayOptions) -> Result<Outcome, String> {
    let config = ReplayConfig {
        against: url("against", &options.against)?,
        source: options.dir.display().to_string(),
        rules: {
            let rules = match &options.ignore {
                Some(file) => Rules::read(file)?,
                None => Rules::none(),
            };
            match &options.noise_from {
                Some(dir) => rules.with_noise_of(&Report::read(dir)?),
                None => rules,
            }
        },
        concurrency: options.concurrency,
        timeout: Duration::from_secs(options.timeout),
        explain: None,
        typing: Arc::new(crate::typing::of_specs(&options.specs)?),
    };
    let report = rmm_shadow::replay_dir(&options.dir, config)?;
    report
        .write(&options.report)
        .map_err(|e| format!("{}: {e}", options.report.display()))?;
    let failed: u64 = report.rows.iter().map(|r| r.candidate_failed).sum();
    eprintln!(
        "rmm replay: {}; {}",
        counts(&report),
        options.report.join("report.html").display()
    );
    Ok(if report.different() + failed == 0 {
        Outcome::Done
    } else {
        Outcome::Differs
    })
}
