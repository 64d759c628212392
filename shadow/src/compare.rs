//! Two answers to one request, compared: status, the headers that carry meaning, and the body
//! by meaning (its XML's leaves, [`crate::leaves`]) and by bytes.

use std::collections::HashMap;

use bytes::Bytes;
use http::{Request, Response};

use crate::leaves::{field, leaves};
use crate::typing::{Lexical, Typing};

/// The response headers compared. The others vary with the moment or the connection (`Date`,
/// `Content-Length`, which follows the body, `Connection`) or name the server.
pub const COMPARED_HEADERS: &[&str] = &["content-type", "cache-control"];

/// The most differences kept of one pair of answers; the rest are counted in one more.
pub const MAX_DIFFERENCES: usize = 64;

/// The longest value shown of a difference (longer ones end in `…`).
const MAX_VALUE: usize = 300;

/// Where two answers differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// What differs, whichever item it is in: `(status)`, `(header content-type)`, `(bytes)`
    /// (the same meaning, other bytes), `(body)` (a body that is not XML), or a leaf's path
    /// with its indices taken out (`Envelope/Body/R/Item[*]/Id`).
    pub field: String,
    /// Where exactly (the leaf's path with its indices), or the field again.
    pub path: String,
    /// The first answer's value (`(absent)` when it has none there).
    pub first: String,
    /// The second answer's.
    pub second: String,
}

/// The field of the difference in bytes alone.
pub const BYTES: &str = "(bytes)";

/// The differences of `second` from `first`: none when they are the same bytes. Each leaf's
/// text is compared as it is written.
pub fn compare(first: &Response<Bytes>, second: &Response<Bytes>) -> Vec<Difference> {
    compare_with(first, second, &|_| Lexical::Exact)
}

/// The differences of `second` from `first`, two answers to `request`, a call of `operation`:
/// each leaf compared by the value of its type in `typing` (`1E+20` and `1e20` are one
/// `double`). Where the values are the same but the texts are not, the difference is one of
/// bytes alone.
pub fn compare_typed(
    first: &Response<Bytes>,
    second: &Response<Bytes>,
    typing: &Typing,
    (request, operation): (&Request<Bytes>, &str),
) -> Vec<Difference> {
    let at = request.uri().path();
    compare_with(first, second, &|path| typing.lexical(at, operation, path))
}

fn compare_with(
    first: &Response<Bytes>,
    second: &Response<Bytes>,
    lexical: &dyn Fn(&str) -> Lexical,
) -> Vec<Difference> {
    let mut out = Vec::new();
    if first.status() != second.status() {
        push(
            &mut out,
            "(status)".into(),
            first.status().as_u16().to_string(),
            second.status().as_u16().to_string(),
        );
    }
    for name in COMPARED_HEADERS {
        let value = |r: &Response<Bytes>| {
            let values: Vec<String> = r
                .headers()
                .get_all(*name)
                .iter()
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
                .collect();
            if values.is_empty() {
                "(absent)".to_owned()
            } else {
                values.join(", ")
            }
        };
        let (a, b) = (value(first), value(second));
        if a != b {
            push(&mut out, format!("(header {name})"), a, b);
        }
    }
    let (a, b) = (first.body(), second.body());
    if a == b {
        return out;
    }
    match (leaves(a), leaves(b)) {
        (Some(a), Some(b)) => {
            let before = out.len();
            compare_leaves(&mut out, &a, &b, lexical);
            if out.len() == before {
                push(
                    &mut out,
                    BYTES.into(),
                    format!("{} bytes", first.body().len()),
                    format!("{} bytes", second.body().len()),
                );
            }
        }
        _ => push(
            &mut out,
            "(body)".into(),
            String::from_utf8_lossy(a).into_owned(),
            String::from_utf8_lossy(b).into_owned(),
        ),
    }
    out
}

fn compare_leaves(
    out: &mut Vec<Difference>,
    first: &[crate::leaves::Leaf],
    second: &[crate::leaves::Leaf],
    lexical: &dyn Fn(&str) -> Lexical,
) {
    let index = |leaves: &[crate::leaves::Leaf]| -> HashMap<String, String> {
        leaves
            .iter()
            .map(|l| (l.path.clone(), l.value.clone()))
            .collect()
    };
    let (a, b) = (index(first), index(second));
    for leaf in first {
        match b.get(&leaf.path) {
            Some(value) if *value == leaf.value || lexical(&leaf.path).same(&leaf.value, value) => {
            }
            Some(value) => push_leaf(out, &leaf.path, leaf.value.clone(), value.clone()),
            None => push_leaf(out, &leaf.path, leaf.value.clone(), "(absent)".into()),
        }
    }
    for leaf in second {
        if !a.contains_key(&leaf.path) {
            push_leaf(out, &leaf.path, "(absent)".into(), leaf.value.clone());
        }
    }
}

fn push_leaf(out: &mut Vec<Difference>, path: &str, first: String, second: String) {
    if out.len() == MAX_DIFFERENCES {
        out.push(Difference {
            field: "(more)".into(),
            path: "(more)".into(),
            first: "…".into(),
            second: "…".into(),
        });
    }
    if out.len() > MAX_DIFFERENCES {
        return;
    }
    out.push(Difference {
        field: field(path),
        path: path.to_owned(),
        first: shortened(first),
        second: shortened(second),
    });
}

fn push(out: &mut Vec<Difference>, field: String, first: String, second: String) {
    out.push(Difference {
        path: field.clone(),
        field,
        first: shortened(first),
        second: shortened(second),
    });
}

fn shortened(mut value: String) -> String {
    if value.chars().count() > MAX_VALUE {
        value = value.chars().take(MAX_VALUE).collect();
        value.push('…');
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(status: u16, content_type: &str, body: &str) -> Response<Bytes> {
        Response::builder()
            .status(status)
            .header("content-type", content_type)
            .header("date", "Wed, 25 Nov 2026 17:00:00 GMT")
            .body(Bytes::from(body.to_owned()))
            .unwrap()
    }

    const XML: &str = "text/xml; charset=utf-8";

    #[test]
    fn the_same_bytes_and_another_date_are_no_difference() {
        let a = response(200, XML, "<R><A>1</A></R>");
        let mut b = a.clone();
        b.headers_mut()
            .insert("date", "Thu, 26 Nov 2026 00:00:00 GMT".parse().unwrap());
        assert_eq!(compare(&a, &b), []);
    }

    #[test]
    fn a_value_an_item_and_the_status_are_named() {
        let a = response(200, XML, "<R><I>1</I><I>2</I></R>");
        let b = response(500, XML, "<R><I>1</I><I>3</I><X/></R>");
        let named: Vec<(String, String, String, String)> = compare(&a, &b)
            .into_iter()
            .map(|d| (d.field, d.path, d.first, d.second))
            .collect();
        assert_eq!(
            named,
            [
                (
                    "(status)".into(),
                    "(status)".into(),
                    "200".into(),
                    "500".into()
                ),
                ("R/I[*]".into(), "R/I[2]".into(), "2".into(), "3".into()),
                ("R/X".into(), "R/X".into(), "(absent)".into(), String::new()),
            ]
        );
    }

    #[test]
    fn the_same_meaning_in_other_bytes_is_a_difference_of_bytes() {
        let a = response(200, XML, "<R><A>1</A></R>");
        let b = response(200, XML, "<R>\n  <A>1</A>\n</R>");
        let differences = compare(&a, &b);
        assert_eq!(differences.len(), 1);
        assert_eq!(differences[0].field, BYTES);
    }

    #[test]
    fn json_answers_are_compared_by_value() {
        const JSON: &str = "application/json; charset=utf-8";
        let dotnet = response(200, JSON, r#"{"d":{"X":1,"Name":"a\u0026b"}}"#);
        let same = response(200, JSON, r#"{"d":{"Name":"a&b","X":1.0}}"#);
        let differences = compare(&dotnet, &same);
        assert_eq!(differences.len(), 1);
        assert_eq!(differences[0].field, BYTES);
        let other = response(200, JSON, r#"{"d":{"X":2,"Name":"a&b","Y":0}}"#);
        let named: Vec<(String, String, String)> = compare(&dotnet, &other)
            .into_iter()
            .map(|d| (d.path, d.first, d.second))
            .collect();
        assert_eq!(
            named,
            [
                ("d/X".into(), "1".into(), "2".into()),
                ("d/Y".into(), "(absent)".into(), "0".into()),
            ]
        );
    }

    #[test]
    fn a_body_that_is_not_xml_is_compared_as_text() {
        let a = response(500, "text/plain", "Schema not found.\n");
        let b = response(500, "text/plain", "Not found.\n");
        assert_eq!(compare(&a, &b)[0].field, "(body)");
    }
}
