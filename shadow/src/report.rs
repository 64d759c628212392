//! The report: `report.json` for CI and `report.html` for people, written side by side.

use std::path::Path;

use bytes::Bytes;
use http::{Request, Response};
use serde::{Deserialize, Serialize};

use crate::compare::Difference;

/// What the shadow found, as of `written`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Report {
    /// When the shadow started (RFC 3339, UTC).
    pub started: String,
    /// When this report was written.
    pub written: String,
    /// The primary (`--primary`), candidate and secondary URLs.
    pub primary: String,
    /// The candidate's URL.
    pub candidate: String,
    /// The secondary's URL, when there is one.
    pub secondary_url: Option<String>,
    /// Whether a secondary taught the noise.
    pub secondary: bool,
    /// Requests answered by the primary.
    pub requests: u64,
    /// Requests not mirrored because the queue was full.
    pub dropped: u64,
    /// Exchanges not recorded (`--record`) because the recorder's queue was full.
    #[serde(default)]
    pub not_recorded: u64,
    /// Differences not kept in a class: past the most classes a report keeps (10,000).
    #[serde(default)]
    pub classes_left_out: u64,
    /// One per operation and binding, in name order.
    #[serde(rename = "operations")]
    pub rows: Vec<Row>,
    /// The classes of differences: real ones first, the most frequent first, then deliberate
    /// ones, then noise.
    pub classes: Vec<Class>,
}

/// The answers of one operation over one binding.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row {
    /// The operation's name.
    pub operation: String,
    /// `soap11`, `soap12`, `get`, `post`, `document`, `other`.
    pub binding: String,
    /// Candidate answers identical to the primary's, byte for byte in what is compared.
    pub identical: u64,
    /// Those that differ only in noise (fields the secondary differs in too, or ignored).
    pub noise: u64,
    /// Those that differ in a way accepted on purpose ([`crate::Config::explain`]).
    pub deliberate: u64,
    /// Those that differ in something else.
    pub different: u64,
    /// Requests the candidate did not answer.
    pub candidate_failed: u64,
    /// The first such failure.
    pub candidate_failure: Option<String>,
    /// The primary's latency.
    pub primary: Latency,
    /// The candidate's.
    pub candidate: Latency,
}

/// Latency percentiles, in milliseconds.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct Latency {
    /// Answers timed.
    pub count: u64,
    /// Median.
    pub p50_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
}

/// A class of differences: one field of one operation over one binding.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Class {
    /// The operation.
    pub operation: String,
    /// The binding.
    pub binding: String,
    /// The field (see [`Difference::field`]).
    pub field: String,
    /// Whether it is noise: learned from the secondary, or ignored by a rule.
    pub noise: bool,
    /// Why it is accepted on purpose, when it is.
    pub deliberate: Option<String>,
    /// Answers that differ in it.
    pub count: u64,
    /// The shortest of them.
    pub example: Example,
}

/// One exchange of a class: the request and both answers, as HTTP text.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Example {
    /// The path of the difference in this example.
    pub path: String,
    /// The primary's value there.
    pub primary_value: String,
    /// The candidate's.
    pub candidate_value: String,
    /// The request, as sent (HTTP/1.1 text, the body as UTF-8).
    pub request: String,
    /// The primary's answer.
    pub primary: String,
    /// The candidate's.
    pub candidate: String,
}

impl Example {
    /// The example of `difference` in this exchange.
    pub fn new(
        difference: &Difference,
        request: &Request<Bytes>,
        primary: &Response<Bytes>,
        candidate: &Response<Bytes>,
    ) -> Example {
        Example {
            path: difference.path.clone(),
            primary_value: difference.first.clone(),
            candidate_value: difference.second.clone(),
            request: crate::wire::request_text(request),
            primary: crate::wire::response_text(primary),
            candidate: crate::wire::response_text(candidate),
        }
    }
}

impl Report {
    /// The report a shadow wrote into `dir` (its `report.json`).
    pub fn read(dir: &Path) -> Result<Report, String> {
        let path = dir.join("report.json");
        let text = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_slice(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The differences that are not noise, in all.
    pub fn different(&self) -> u64 {
        self.rows.iter().map(|r| r.different).sum()
    }

    /// The report as a self-contained HTML page (`report.html`).
    pub fn html(&self) -> String {
        crate::html::page(self)
    }

    /// Writes `report.json` and `report.html` into `dir` (made if need be), each whole or not
    /// at all (written beside, then renamed).
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let json = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        replace(&dir.join("report.json"), json.as_bytes())?;
        // A fault in the page must not take the shadow down with it: the JSON is written, and
        // the page says what went wrong.
        let page = std::panic::catch_unwind(|| self.html()).unwrap_or_else(|_| {
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rmm shadow \
             report</title></head><body><p>This page could not be written (a fault in rmm-shadow's \
             report.html); report.json beside it holds the report.</p></body></html>\n"
                .to_owned()
        });
        replace(&dir.join("report.html"), page.as_bytes())
    }
}

fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut beside = path.as_os_str().to_owned();
    beside.push(".new");
    std::fs::write(&beside, bytes)?;
    std::fs::rename(&beside, path)
}
