//! `rmm replay`: recorded exchanges sent again to a server, each answer compared with the
//! recorded one by the shadow's rules, into the shadow's report.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use http::Uri;

use crate::capture::RawCapture;
use crate::classify::classify;
use crate::compare::compare_typed;
use crate::findings::Findings;
use crate::forward::{self, send};
use crate::report::Report;
use crate::rules::Rules;
use crate::typing::Typing;

/// How a replay runs.
#[derive(Clone)]
pub struct ReplayConfig {
    /// The server the requests go to (its scheme and authority; each request's path kept).
    pub against: Uri,
    /// Where the captures came from, for the report.
    pub source: String,
    /// Fields to ignore.
    pub rules: Rules,
    /// Requests in flight at once.
    pub concurrency: usize,
    /// How long the server may take.
    pub timeout: Duration,
    /// The differences accepted on purpose (the recorded answer in the primary's place).
    pub explain: Option<crate::Explain>,
    /// The types of the answers' leaves, as in the shadow's [`crate::Config::typing`].
    pub typing: Arc<Typing>,
}

impl std::fmt::Debug for ReplayConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplayConfig")
            .field("against", &self.against)
            .field("source", &self.source)
            .field("concurrency", &self.concurrency)
            .field("timeout", &self.timeout)
            .field("explain", &self.explain.is_some())
            .finish_non_exhaustive()
    }
}

/// Sends each capture's request to `config.against` and compares the answer with the
/// recorded one (the recorded answer in the primary's place, the server's in the
/// candidate's). A capture that cannot be read is an error, named with its file.
pub async fn replay(captures: Vec<RawCapture>, config: ReplayConfig) -> Result<Report, String> {
    let mut exchanges = Vec::with_capacity(captures.len());
    let mut errors = Vec::new();
    for capture in &captures {
        match (capture.http_request(), capture.http_response()) {
            (Ok(request), Ok(response)) => exchanges.push((request, response)),
            (Err(e), _) | (_, Err(e)) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    let started = SystemTime::now();
    let client = forward::client();
    let findings = Arc::new(Mutex::new(Findings::default()));
    let permits = Arc::new(tokio::sync::Semaphore::new(config.concurrency.max(1)));
    let mut running = tokio::task::JoinSet::new();
    for (request, recorded) in exchanges {
        let Ok(permit) = Arc::clone(&permits).acquire_owned().await else {
            break;
        };
        let (client, findings, against, timeout, explain, typing) = (
            client.clone(),
            Arc::clone(&findings),
            config.against.clone(),
            config.timeout,
            config.explain.clone(),
            Arc::clone(&config.typing),
        );
        running.spawn(async move {
            let (operation, binding) = classify(&request);
            let began = Instant::now();
            let answer = send(&client, &against, &request, timeout).await;
            let latency = began.elapsed();
            let compared = answer.map(|answer| {
                let differences =
                    compare_typed(&recorded, &answer, &typing, (&request, &operation));
                let deliberate = match &explain {
                    Some(explain) if !differences.is_empty() => {
                        explain(&request, &recorded, &answer)
                    }
                    _ => None,
                };
                (answer, differences, deliberate)
            });
            let mut findings = findings.lock().unwrap_or_else(|e| e.into_inner());
            findings.primary(&operation, binding, None);
            match compared {
                Ok((answer, differences, deliberate)) => findings.candidate(
                    (&operation, binding),
                    (&request, &recorded, &answer),
                    &differences,
                    deliberate,
                    latency,
                ),
                Err(e) => findings.candidate_failed(&operation, binding, e),
            }
            drop(permit);
        });
    }
    while running.join_next().await.is_some() {}
    let findings = findings.lock().unwrap_or_else(|e| e.into_inner());
    let mut report = findings.report(&config.rules, false);
    report.started = crate::proxy::rfc3339(started);
    report.written = crate::proxy::rfc3339(SystemTime::now());
    report.primary = format!("recorded answers of {}", config.source);
    report.candidate = config.against.to_string();
    Ok(report)
}
