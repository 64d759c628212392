//! ASP.NET's request validation: values it refuses as dangerous (`<a`, `&#`), refused alike.

use std::collections::HashMap;

use super::read::Pair;
use super::source::FormSource;
use crate::RequestError;

/// Whether request validation looks at this pair's value.
///
/// The host reads a form-body segment without `=` as a name with no value, and validation
/// looks at values only; in a query string the same segment is a value without a name.
pub(super) fn is_validated(pair: &Pair<'_>, source: FormSource) -> bool {
    pair.name.is_some() || source == FormSource::Query
}

/// ASP.NET request validation as Mono (the reference host) applies it
/// (`HttpRequest.IsInvalidString`): `<` or `＜` (U+FF1C) followed by an ASCII letter, `!` or a
/// character below U+0020 (tab, LF and CR included), or `&` followed by `#`. `</`, `<?` and a
/// `<` before any other character pass.
pub(super) fn is_dangerous(value: &str) -> bool {
    /// U+FF1C FULLWIDTH LESS-THAN SIGN in UTF-8.
    const FULLWIDTH_LESS_THAN: &[u8] = "\u{FF1C}".as_bytes();
    // Mono compares UTF-16 units; every character it looks for after `<` is ASCII, a single
    // byte in UTF-8, so comparing the next byte is the same test.
    let opens_markup =
        |next: Option<&u8>| next.is_some_and(|&b| b.is_ascii_alphabetic() || b == b'!' || b < 0x20);
    let bytes = value.as_bytes();
    memchr::memchr3_iter(b'<', b'&', FULLWIDTH_LESS_THAN[0], bytes).any(|at| match bytes[at] {
        b'<' => opens_markup(bytes.get(at + 1)),
        b'&' => bytes.get(at + 1) == Some(&b'#'),
        _ => {
            bytes[at..].starts_with(FULLWIDTH_LESS_THAN)
                && opens_markup(bytes.get(at + FULLWIDTH_LESS_THAN.len()))
        }
    })
}

/// The error the host gives for a request with a dangerous value (error path only, so it may
/// allocate, but it stays linear: a body can hold very many pairs).
///
/// The host validates its collection key by key, in the order each name first appeared, and
/// a key's value is all its values joined with `,`; the error names that key as first
/// spelled. A segment without `=` in a query string is a value under a null key (shown as an
/// empty name). Joining cannot make or unmake a dangerous pattern (`,` is not part of one),
/// so the key reported is the earliest-appearing key that has any dangerous value.
pub(super) fn dangerous_value_error(pairs: &[Pair<'_>], source: FormSource) -> RequestError {
    let validated: Vec<&Pair<'_>> = pairs
        .iter()
        .filter(|pair| is_validated(pair, source))
        .collect();
    let mut first_of_key: HashMap<Option<String>, usize> = HashMap::new();
    let mut reported: Option<usize> = None;
    for (index, pair) in validated.iter().enumerate() {
        let first = *first_of_key.entry(key(pair)).or_insert(index);
        if is_dangerous(&pair.value) && reported.is_none_or(|r| first < r) {
            reported = Some(first);
        }
    }
    let first = reported.expect("called only when some validated value is dangerous");
    let reported_key = key(validated[first]);
    let joined = validated
        .iter()
        .filter(|pair| key(pair) == reported_key)
        .map(|pair| &*pair.value)
        .collect::<Vec<_>>()
        .join(",");
    RequestError::DangerousValue {
        collection: source.collection(),
        name: validated[first]
            .name
            .as_deref()
            .unwrap_or_default()
            .to_owned(),
        excerpt: excerpt(&joined),
    }
}

/// The key the host files a pair under: its name, case-insensitively, or none.
pub(super) fn key(pair: &Pair<'_>) -> Option<String> {
    pair.name.as_deref().map(str::to_lowercase)
}

/// The start of a value as the host quotes it in the validation message.
///
/// The host quotes the value and, when the quoted text is over 20 UTF-16 units, keeps its
/// first 16 and appends `..."`: so a value over 18 units shows its first 15 and `...`.
/// `<!DOCTYPE x [<!ENTITY e "v">]>` becomes `<!DOCTYPE x [<!...`. A character that would be
/// cut in half (a surrogate pair) is left out whole.
pub(super) fn excerpt(value: &str) -> String {
    const KEPT_UNITS: usize = 15;
    const WHOLE_UNITS: usize = 18;
    if value.encode_utf16().nth(WHOLE_UNITS).is_none() {
        return value.to_owned();
    }
    let mut units = 0;
    let mut end = 0;
    for (at, c) in value.char_indices() {
        units += c.len_utf16();
        if units > KEPT_UNITS {
            break;
        }
        end = at + c.len_utf8();
    }
    format!("{}...", &value[..end])
}
