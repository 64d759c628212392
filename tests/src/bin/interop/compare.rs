//! Fidelity comparison: every difference between Mono's response and ours to the same
//! request bytes, split into those a rule explains (`EXPLAIN_*`, listed in the report) and
//! the rest (failures).

use std::collections::BTreeSet;

use rmm_tests::captures::fault_code;

use crate::raw::Raw;

/// Headers whose values are the hosting's, not the service's.
const IGNORED_HEADERS: &[&str] = &["date", "server", "connection", "keep-alive"];

fn has_placeholder(body: &[u8]) -> bool {
    let text = String::from_utf8_lossy(body);
    text.contains("{0}") || text.contains("{1}")
}

/// Printable bytes around `at`.
fn snippet(bytes: &[u8], at: usize) -> String {
    let start = at.saturating_sub(24);
    let end = (at + 48).min(bytes.len());
    let text: String = bytes[start..end]
        .iter()
        .flat_map(|b| std::ascii::escape_default(*b))
        .map(char::from)
        .collect();
    format!(
        "«{}{text}{}»",
        if start > 0 { "…" } else { "" },
        if end < bytes.len() { "…" } else { "" }
    )
}

/// Where two byte strings first differ, shown from both.
fn first_difference(mono: &[u8], ours: &[u8]) -> String {
    let at = mono
        .iter()
        .zip(ours)
        .position(|(a, b)| a != b)
        .unwrap_or(mono.len().min(ours.len()));
    format!(
        "body differs at byte {at} (Mono {} bytes, ours {} bytes): Mono {} ours {}",
        mono.len(),
        ours.len(),
        snippet(mono, at),
        snippet(ours, at)
    )
}

/// Why a difference is expected, when it is (each is listed in the report with its bytes).
const EXPLAIN_CR: &str =
    "CR in a result: ours writes it as `&#xD;` (runtime/src/xml.rs) so that an \
XML reader keeps it; the host writes it raw, and every XML reader (ours, zeep, .NET) reads a raw \
CR as LF";
const EXPLAIN_TEXT: &str = "error message text only (status, headers, content type and fault \
code equal): ours is a sentence naming the parameter or value, the host's is .NET's chain of \
exception messages (README: \"Messages are sentences\")";
const EXPLAIN_HTML: &str =
    "HTML help page: our own layout, not Mono's (status and content type equal)";

/// The outcome of one comparison.
#[derive(Default)]
pub(crate) struct Verdict {
    /// Differences no rule explains: failures.
    pub(crate) unexplained: Vec<String>,
    /// Differences an `EXPLAIN_*` rule covers: listed, not failures.
    pub(crate) explained: Vec<String>,
}

fn header_differences(mono: &Raw, ours: &Raw, skip_length: bool) -> Vec<String> {
    let headers = |r: &Raw| -> BTreeSet<(String, String)> {
        r.headers
            .iter()
            .map(|(n, v)| (n.to_ascii_lowercase(), v.clone()))
            .filter(|(n, _)| !IGNORED_HEADERS.contains(&n.as_str()))
            .filter(|(n, _)| !(skip_length && n == "content-length"))
            .collect()
    };
    let (hm, ho) = (headers(mono), headers(ours));
    let mut diffs = Vec::new();
    for (n, v) in hm.difference(&ho) {
        let theirs = ours
            .header(n)
            .map_or("absent".to_owned(), |v| format!("{v:?}"));
        diffs.push(format!("header {n}: Mono {v:?}, ours {theirs}"));
    }
    for (n, v) in ho.difference(&hm) {
        if mono.header(n).is_none() {
            diffs.push(format!("header {n}: Mono absent, ours {v:?}"));
        }
    }
    diffs
}

/// Every difference between Mono's response and ours, split into explained and not.
pub(crate) fn compare(mono: &Raw, ours: &Raw) -> Verdict {
    let mut diffs = Vec::new();
    if mono.status != ours.status {
        diffs.push(format!(
            "status: Mono {}, ours {}",
            mono.status, ours.status
        ));
    }
    let placeholder = has_placeholder(&mono.body);
    diffs.extend(header_differences(mono, ours, placeholder));
    if placeholder {
        let (m, o) = (
            String::from_utf8_lossy(&mono.body).into_owned(),
            String::from_utf8_lossy(&ours.body).into_owned(),
        );
        if let Some(code) = fault_code(&m) {
            if fault_code(&o) != Some(code) {
                diffs.push(format!(
                    "fault code: Mono {code}, ours {:?} (Mono's message has a {{0}} placeholder; text not compared)",
                    fault_code(&o)
                ));
            }
        } else if ours.body.is_empty() {
            diffs.push("body: Mono has an error text, ours is empty".to_owned());
        }
    } else if mono.body != ours.body {
        diffs.push(first_difference(&mono.body, &ours.body));
    }
    if diffs.is_empty() {
        return Verdict::default();
    }
    let same_but_body =
        mono.status == ours.status && header_differences(mono, ours, true).is_empty();
    let explained = |why: &str| Verdict {
        unexplained: Vec::new(),
        explained: vec![format!(
            "{why}: {}",
            first_difference(&mono.body, &ours.body)
        )],
    };
    // CR written as `&#xD;` by us, raw by the host.
    let ours_raw_cr = String::from_utf8_lossy(&ours.body).replace("&#xD;", "\r");
    if same_but_body && ours_raw_cr.as_bytes() == mono.body.as_slice() {
        return explained(EXPLAIN_CR);
    }
    let (m, o) = (
        String::from_utf8_lossy(&mono.body).into_owned(),
        String::from_utf8_lossy(&ours.body).into_owned(),
    );
    let html = |r: &Raw| {
        r.header("content-type")
            .is_some_and(|t| t.starts_with("text/html"))
    };
    if same_but_body && html(mono) && html(ours) {
        return explained(EXPLAIN_HTML);
    }
    if same_but_body
        && mono.status >= 400
        && !mono.body.is_empty()
        && !ours.body.is_empty()
        && fault_code(&m) == fault_code(&o)
    {
        return explained(EXPLAIN_TEXT);
    }
    Verdict {
        unexplained: diffs,
        explained: Vec::new(),
    }
}
