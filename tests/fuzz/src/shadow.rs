//! rmm-shadow's readers of what others wrote: a capture file (`rmm replay` reads a recorded
//! directory), and two answers compared (the primary's and the candidate's), down to the
//! report's page that shows them side by side.
//!
//! The first byte picks which. The checks beyond "no panic": a capture file read is written
//! back to the same bytes' meaning (`parse(to_file(c)) == c`); two answers are without
//! difference exactly when they are the same bytes; the page of a report holding their
//! difference is written whole.

use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::{Request, Response};
use rmm_shadow::capture::RawCapture;
use rmm_shadow::compare::compare;
use rmm_shadow::report::{Class, Example, Report};

use crate::Outcome;

/// The byte that ends the first answer in a comparison input.
pub const SPLIT: u8 = 0xFF;

/// Runs one input: `0` + a capture file, or `1` + two answers' bodies split at [`SPLIT`].
pub(crate) fn run(data: &[u8]) -> Outcome {
    match data.split_first() {
        Some((0, file)) => capture(file),
        Some((1, pair)) => answers(pair),
        _ => Outcome::NotReached,
    }
}

fn capture(file: &[u8]) -> Outcome {
    let Ok(capture) = RawCapture::parse("input", file) else {
        return Outcome::Refused;
    };
    let again =
        RawCapture::parse("input", &capture.to_file()).expect("a capture file written reads");
    assert_eq!(again, capture, "a capture file written reads back the same");
    // What replay makes of it: refused or read, never a panic.
    let _ = capture.http_request();
    let _ = capture.http_response();
    Outcome::Accepted
}

fn answers(pair: &[u8]) -> Outcome {
    let at = pair.iter().position(|&b| b == SPLIT).unwrap_or(pair.len());
    let (a, b) = (&pair[..at], pair.get(at + 1..).unwrap_or_default());
    let answer = |body: &[u8]| {
        Response::builder()
            .status(200)
            .header("content-type", "text/xml; charset=utf-8")
            .body(Bytes::copy_from_slice(body))
            .expect("a response")
    };
    let (first, second) = (answer(a), answer(b));
    let differences = compare(&first, &second);
    assert_eq!(
        differences.is_empty(),
        a == b,
        "no difference exactly when the bytes are the same: {differences:?}"
    );
    let xml = rmm_shadow::leaves::leaves(a).is_some() && rmm_shadow::leaves::leaves(b).is_some();
    if let Some(difference) = differences.first() {
        let request = Request::new(Bytes::from_static(b"<request/>"));
        let report = Report {
            classes: vec![Class {
                operation: "Op".into(),
                binding: "soap11".into(),
                field: difference.field.clone(),
                noise: false,
                deliberate: None,
                count: 1,
                example: Example::new(difference, &request, &first, &second),
            }],
            ..Report::default()
        };
        let page = report.html();
        assert!(
            page.ends_with("</body></html>\n"),
            "the page is written whole"
        );
    }
    Outcome::of(xml)
}
