//! rmm-shadow's readers of what others wrote: a capture file (`rmm replay` reads a recorded
//! directory), and two answers compared (the primary's and the candidate's), down to the
//! report's page that shows them side by side.
//!
//! The first byte picks which; a third choice reads two texts as values of one simple type
//! (`rmm shadow --spec`'s comparison of a leaf). The checks beyond "no panic": a capture file
//! read is written back to the same bytes' meaning (`parse(to_file(c)) == c`); two answers
//! are without difference exactly when they are the same bytes; the page of a report holding
//! their difference is written whole; two texts are one value of a type as much one way as
//! the other, and a text is always its own value.

use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::{Request, Response};
use rmm_shadow::capture::RawCapture;
use rmm_shadow::compare::compare;
use rmm_shadow::report::{Class, Example, Report};
use rmm_shadow::typing::Lexical;

use crate::Outcome;

/// The byte that ends the first answer in a comparison input.
pub const SPLIT: u8 = 0xFF;

/// Runs one input: `0` + a capture file, `1` + two answers' bodies split at [`SPLIT`], or
/// `2` + a type's number + two texts split at [`SPLIT`].
pub(crate) fn run(data: &[u8]) -> Outcome {
    match data.split_first() {
        Some((0, file)) => capture(file),
        Some((1, pair)) => answers(pair),
        Some((2, [lexical, pair @ ..])) => values(
            Lexical::ALL[usize::from(*lexical) % Lexical::ALL.len()],
            pair,
        ),
        _ => Outcome::NotReached,
    }
}

fn values(lexical: Lexical, pair: &[u8]) -> Outcome {
    let at = pair.iter().position(|&b| b == SPLIT).unwrap_or(pair.len());
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let (a, b) = (
        text(&pair[..at]),
        text(pair.get(at + 1..).unwrap_or_default()),
    );
    assert!(lexical.same(&a, &a), "{lexical:?}: {a:?} is itself");
    let same = lexical.same(&a, &b);
    assert_eq!(
        same,
        lexical.same(&b, &a),
        "{lexical:?}: {a:?} and {b:?} both ways"
    );
    Outcome::of(same)
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
