//! `report.html`: one self-contained page (no script, no fetch), to read in a browser.

use similar::{DiffTag, TextDiff};

use crate::compare::COMPARED_HEADERS;

use crate::report::{Class, Example, Report, Row};

const STYLE: &str = "
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #1d1d1f; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.different td { background: #fde8e8; } tr.failed td { background: #fff4d6; }
.summary span { display: inline-block; margin-right: 1.5em; }
.bad { color: #b00020; font-weight: bold; } .good { color: #1b7f3b; font-weight: bold; }
section.class { border: 1px solid #ddd; border-radius: 6px; padding: 0.5em 1em; margin: 1em 0; }
pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; white-space: pre-wrap; word-break: break-all; margin: 0; }
table.diff { width: 100%; table-layout: fixed; font: 12px/1.35 ui-monospace, monospace; }
table.diff td { white-space: pre-wrap; word-break: break-all; border: none; border-right: 1px solid #ddd; }
table.diff td.del { background: #ffecec; } table.diff td.ins { background: #eaffea; }
table.diff em { font-style: normal; background: #ffb3b3; } table.diff td.ins em { background: #9ee79e; }
table.diff td.gap { color: #888; text-align: center; background: #fafafa; }
";

/// The page of `report`.
pub fn page(report: &Report) -> String {
    let mut html = String::with_capacity(64 * 1024);
    html.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    html.push_str("<title>rmm shadow report</title><style>");
    html.push_str(STYLE);
    html.push_str("</style></head><body>\n<h1>rmm shadow report</h1>\n");
    summary(&mut html, report);
    html.push_str(
        "<p><a href=\"#differences\">Differences</a> · <a href=\"#operations\">Operations</a> · \
         <a href=\"#deliberate\">Deliberate</a> · <a href=\"#noise\">Noise</a></p>\n",
    );
    let (noise, classes): (Vec<&Class>, Vec<&Class>) = report.classes.iter().partition(|c| c.noise);
    let (deliberate, real): (Vec<&Class>, Vec<&Class>) =
        classes.into_iter().partition(|c| c.deliberate.is_some());
    html.push_str(&format!(
        "<h2 id=\"differences\">Differences ({} classes)</h2>\n",
        real.len()
    ));
    if real.is_empty() {
        html.push_str("<p class=\"good\">None: the candidate answered as the primary did, but for noise.</p>\n");
    }
    for class in real {
        class_section(&mut html, class, true);
    }
    // The counts after what a reader came for: what differs.
    rows(&mut html, &report.rows);
    html.push_str(&format!(
        "<h2 id=\"deliberate\">Deliberate ({} classes)</h2>\n<p>Differences accepted on purpose, each with its reason.</p>\n",
        deliberate.len()
    ));
    for class in deliberate {
        class_section(&mut html, class, false);
    }
    html.push_str(&format!(
        "<h2 id=\"noise\">Noise ({} classes)</h2>\n<p>Fields in which the {} too, or that a rule ignores.</p>\n",
        noise.len(),
        if report.secondary {
            "primary and the secondary differ between themselves"
        } else {
            "(no secondary: only rules) answers differ"
        }
    ));
    for class in noise {
        class_section(&mut html, class, false);
    }
    html.push_str("</body></html>\n");
    html
}

fn summary(html: &mut String, report: &Report) {
    let sum = |f: fn(&Row) -> u64| report.rows.iter().map(f).sum::<u64>();
    let different = sum(|r| r.different);
    html.push_str("<p class=\"summary\">");
    for (name, value) in [
        ("primary", Some(report.primary.as_str())),
        ("candidate", Some(report.candidate.as_str())),
        ("secondary", report.secondary_url.as_deref()),
    ] {
        if let Some(value) = value {
            html.push_str(&format!(
                "<span>{name}: <code>{}</code></span>",
                escape(value)
            ));
        }
    }
    html.push_str(&format!(
        "<br><span>started {}</span><span>written {}</span></p>\n",
        escape(&report.started),
        escape(&report.written)
    ));
    html.push_str(&format!(
        "<p class=\"summary\"><span>requests: <b>{}</b></span><span>identical: <b>{}</b></span>\
         <span>noise only: <b>{}</b></span><span>deliberate: <b>{}</b></span>\
         <span class=\"{}\">different: {}</span>\
         <span>candidate failed: <b>{}</b></span><span>not mirrored (queue full): <b>{}</b></span>\
         <span>not recorded (queue full): <b>{}</b></span></p>\n",
        report.requests,
        sum(|r| r.identical),
        sum(|r| r.noise),
        sum(|r| r.deliberate),
        if different == 0 { "good" } else { "bad" },
        different,
        sum(|r| r.candidate_failed),
        report.dropped,
        report.not_recorded
    ));
}

fn rows(html: &mut String, rows: &[Row]) {
    html.push_str(
        "<h2 id=\"operations\">Operations</h2>\n<table class=\"operations\"><thead><tr>\
         <th>operation</th><th>binding</th><th>identical</th><th>noise</th><th>deliberate</th>\
         <th>different</th>\
         <th>candidate failed</th><th>primary p50 / p99 (ms)</th><th>candidate p50 / p99 (ms)</th>\
         </tr></thead><tbody>\n",
    );
    for row in rows {
        let class = if row.different > 0 {
            " class=\"different\""
        } else if row.candidate_failed > 0 {
            " class=\"failed\""
        } else {
            ""
        };
        let failed = match &row.candidate_failure {
            Some(failure) => format!(
                "{} <small title=\"{}\">(first: {})</small>",
                row.candidate_failed,
                escape(failure),
                escape(&shorten(failure, 60))
            ),
            None => row.candidate_failed.to_string(),
        };
        html.push_str(&format!(
            "<tr{class}><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{failed}</td><td class=\"n\">{:.2} / {:.2}</td>\
             <td class=\"n\">{:.2} / {:.2}</td></tr>\n",
            escape(&row.operation),
            row.binding,
            row.identical,
            row.noise,
            row.deliberate,
            row.different,
            row.primary.p50_ms,
            row.primary.p99_ms,
            row.candidate.p50_ms,
            row.candidate.p99_ms,
        ));
    }
    html.push_str("</tbody></table>\n");
}

fn class_section(html: &mut String, class: &Class, open: bool) {
    let example = &class.example;
    html.push_str(&format!(
        "<section class=\"class\"><h3>{} over {}: <code>{}</code> ({} answer{})</h3>\n",
        escape(&class.operation),
        class.binding,
        escape(&class.field),
        class.count,
        if class.count == 1 { "" } else { "s" }
    ));
    if let Some(why) = &class.deliberate {
        html.push_str(&format!("<p>Deliberate: {}.</p>\n", escape(why)));
    }
    html.push_str(&format!(
        "<p>At <code>{}</code>: the primary has <code>{}</code>, the candidate <code>{}</code>.</p>\n",
        escape(&example.path),
        escape(&example.primary_value),
        escape(&example.candidate_value)
    ));
    html.push_str(&format!(
        "<details{}><summary>The shortest example</summary>\n<p>The request:</p><pre>{}</pre>\n",
        if open { " open" } else { "" },
        escape(&example.request)
    ));
    side_by_side(html, example);
    html.push_str("</details></section>\n");
}

/// The two answers in columns, their XML broken at each tag, the lines that differ marked and,
/// in a line changed into another, the characters that differ highlighted.
fn side_by_side(html: &mut String, example: &Example) {
    let (left, right) = (lines(&example.primary), lines(&example.candidate));
    let diff = TextDiff::from_lines(left.as_str(), right.as_str());
    // The lines as the diff split them (a raw CR in a body ends a line for it, not for
    // `str::lines`), their ends taken off for display.
    let (old, new): (Vec<&str>, Vec<&str>) = (
        diff.old_slices()
            .iter()
            .map(|l| l.trim_end_matches(['\r', '\n']))
            .collect(),
        diff.new_slices()
            .iter()
            .map(|l| l.trim_end_matches(['\r', '\n']))
            .collect(),
    );
    html.push_str(
        "<table class=\"diff\"><thead><tr><th>primary</th><th>candidate</th></tr></thead><tbody>\n",
    );
    for (i, group) in diff.grouped_ops(4).iter().enumerate() {
        if i > 0 {
            html.push_str("<tr><td class=\"gap\">…</td><td class=\"gap\">…</td></tr>\n");
        }
        for op in group {
            let (ours, theirs) = (&old[op.old_range()], &new[op.new_range()]);
            if op.tag() == DiffTag::Equal {
                for line in ours {
                    let line = escape(line);
                    html.push_str(&format!("<tr><td>{line}</td><td>{line}</td></tr>\n"));
                }
                continue;
            }
            for at in 0..ours.len().max(theirs.len()) {
                let (a, b) = match (ours.get(at), theirs.get(at)) {
                    (Some(a), Some(b)) => changed(a, b),
                    (Some(a), None) => (format!("<em>{}</em>", escape(a)), String::new()),
                    (None, Some(b)) => (String::new(), format!("<em>{}</em>", escape(b))),
                    (None, None) => break,
                };
                html.push_str(&format!(
                    "<tr><td class=\"del\">{a}</td><td class=\"ins\">{b}</td></tr>\n"
                ));
            }
        }
    }
    html.push_str("</tbody></table>\n");
}

/// A line changed into another, each with the characters the other lacks highlighted.
fn changed(old: &str, new: &str) -> (String, String) {
    // A diff of characters takes time in the product of the lines' lengths: a JSON answer is
    // one line, and a long one (a string of 100,000 characters) beside another would take
    // minutes. Past the deadline the diff is coarser, not wrong.
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_millis(50))
        .diff_chars(old, new);
    let (old, new): (Vec<char>, Vec<char>) = (old.chars().collect(), new.chars().collect());
    let (mut a, mut b) = (String::new(), String::new());
    for op in diff.ops() {
        let (from, to) = (&old[op.old_range()], &new[op.new_range()]);
        let (from, to): (String, String) = (from.iter().collect(), to.iter().collect());
        if op.tag() == DiffTag::Equal {
            a.push_str(&escape(&from));
            b.push_str(&escape(&to));
        } else {
            if !from.is_empty() {
                a.push_str(&format!("<em>{}</em>", escape(&from)));
            }
            if !to.is_empty() {
                b.push_str(&format!("<em>{}</em>", escape(&to)));
            }
        }
    }
    (a, b)
}

/// An answer as the diff shows it: the status line, the headers compared (in name order: the
/// others, and their order, vary with the server), the body with its XML broken into a line
/// per tag, so a line diff finds the element.
fn lines(text: &str) -> String {
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((text, ""));
    let mut head_lines = head.split("\r\n");
    let mut out = head_lines.next().unwrap_or_default().to_owned();
    out.push('\n');
    let mut compared: Vec<&str> = head_lines
        .filter(|line| {
            let name = line
                .split(':')
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase();
            COMPARED_HEADERS.contains(&name.as_str())
        })
        .collect();
    compared.sort_unstable();
    for line in compared {
        out.push_str(line);
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&body.replace("><", ">\n<"));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max).collect();
    out.push('…');
    out
}

/// Text as HTML text or attribute value.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(primary: &str, candidate: &str) -> Example {
        Example {
            path: "R/A".into(),
            primary_value: String::new(),
            candidate_value: String::new(),
            request: String::new(),
            primary: format!("HTTP/1.1 200 OK\r\ncontent-type: text/xml\r\n\r\n{primary}"),
            candidate: format!("HTTP/1.1 200 OK\r\ncontent-type: text/xml\r\n\r\n{candidate}"),
        }
    }

    #[test]
    fn a_long_one_line_answer_beside_another_is_shown_whole() {
        // A JSON answer is one line: Mono's echo of 100,000 characters beside .NET's JSON
        // error (the shadow run's `script:huge` case) is shown, the diff bounded in time.
        let long = format!("{{\"d\":\"{}\"}}", "x".repeat(100_000));
        let error = r#"{"Message":"There was an error processing the request.","StackTrace":"","ExceptionType":""}"#;
        let mut html = String::new();
        side_by_side(&mut html, &example(&long, error));
        assert!(html.matches('x').count() >= 100_000);
        assert!(html.contains("There was an error processing the request."));
    }

    #[test]
    fn answers_holding_raw_carriage_returns_are_shown_side_by_side() {
        // Mono writes a result's CR raw; a line diff splits there, str::lines does not.
        let mut html = String::new();
        side_by_side(
            &mut html,
            &example(
                "<R><A>a\rb\rc</A><B>1</B></R>",
                "<R><A>a&#xD;b&#xD;c</A><B>2</B></R>",
            ),
        );
        // Each side's lines, the primary's three of A among them, marked as changed.
        for cell in [
            "<td class=\"del\"><em>b</em></td>",
            "<td class=\"del\"><em>&lt;B&gt;1&lt;/B&gt;</em></td>",
            "<em>&lt;B&gt;2&lt;/B&gt;</em></td>",
        ] {
            assert!(html.contains(cell), "{cell} in {html}");
        }
        assert!(
            html.ends_with("<tr><td>&lt;/R&gt;</td><td>&lt;/R&gt;</td></tr>\n</tbody></table>\n")
        );
    }
}
