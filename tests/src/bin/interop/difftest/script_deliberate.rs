//! The deliberate differences of the script service's cases (`super::script`): where Mono's
//! JSON face departs from .NET Framework's, and rmm follows .NET Framework (read in
//! referencesource: `RestHandler`, `JavaScriptObjectDeserializer`, `ObjectConverter`,
//! `JavaScriptSerializer`). Each is one of the departures docs/src/json.md lists.

use rmm_tests::script_service::{HIDDEN, MONO_GET, MONO_HTML, MONO_LENIENT};

use super::deliberate::Deliberate;
use super::script::request;
use crate::raw::Raw;

const JSON: &str = "application/json; charset=utf-8";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The request's body (after its head).
fn body(request: &[u8]) -> String {
    let text = text(request);
    text.split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_owned())
}

/// Ours answered .NET's JSON error (custom errors on).
fn ours_json_error(_: &[u8], _: &Raw, ours: &Raw) -> bool {
    ours.header("jsonerror") == Some("true") && text(&ours.body) == HIDDEN
}

/// Ours answered the HTTP POST face's error (`500 text/plain`): the call is no JSON call.
fn ours_http_post_error(_: &[u8], _: &Raw, ours: &Raw) -> bool {
    ours.header("content-type")
        .is_some_and(|t| t.starts_with("text/plain"))
}

/// Mono answered its HTML error page.
fn mono_html(_: &[u8], mono: &Raw, _: &Raw) -> bool {
    mono.header("content-type")
        .is_some_and(|t| t.starts_with("text/html"))
}

/// Mono's HTML page, ours .NET's JSON error.
fn html_for_json_error(request: &[u8], mono: &Raw, ours: &Raw) -> bool {
    mono_html(request, mono, ours) && ours_json_error(request, mono, ours)
}

/// What ours writes, as Mono writes it: without the `"__type":"…",` hints, and with `&`,
/// U+2028, U+2029 and U+0085 unescaped.
fn as_mono_writes(body: &str) -> String {
    let out = rmm_tests::captures::without_hints(body);
    // The escapes, not an escaped backslash followed by `u0026`.
    let mut unescaped = String::with_capacity(out.len());
    let mut chars = out.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            unescaped.push(c);
            continue;
        }
        let next = chars.next();
        let hex: String = chars.clone().take(4).collect();
        let raw = match (next, hex.as_str()) {
            (Some('u'), "0026") => Some('&'),
            (Some('u'), "2028") => Some('\u{2028}'),
            (Some('u'), "2029") => Some('\u{2029}'),
            (Some('u'), "0085") => Some('\u{85}'),
            _ => None,
        };
        match raw {
            Some(raw) => {
                unescaped.push(raw);
                chars.nth(3);
            }
            None => {
                unescaped.push(c);
                unescaped.extend(next);
            }
        }
    }
    unescaped
}

/// Both answered 200, ours as Mono but for the hints and escapes Mono does not write.
fn mono_writing(_: &[u8], mono: &Raw, ours: &Raw) -> bool {
    let (m, o) = (text(&mono.body), text(&ours.body));
    m != o && as_mono_writes(&o) == m
}

/// Both answered 200 from a date before the year 100 (a year-1 date is an absent member):
/// Mono clamped it to its earliest JavaScript date.
fn early_date(_: &[u8], mono: &Raw, ours: &Raw) -> bool {
    let m = text(&mono.body);
    m.contains("\\/Date(-59011459200000)\\/")
        && as_mono_writes(&text(&ours.body)).contains("\\/Date(")
        && {
            // Every clamped date of Mono's is a date before the year 100 of ours.
            let ours = as_mono_writes(&text(&ours.body));
            let dates = |s: &str| -> Vec<i64> {
                s.split("\\/Date(")
                    .skip(1)
                    .filter_map(|d| d.split(')').next()?.parse().ok())
                    .collect()
            };
            let (md, od) = (dates(&m), dates(&ours));
            md.len() == od.len()
                && md
                    .iter()
                    .zip(&od)
                    .all(|(m, o)| m == o || (*m == -59_011_459_200_000 && *o < -59_011_459_200_000))
        }
}

/// Both answered 200 to an echo of a double: ours the very number sent, Mono another.
fn double_read_inexactly(request: &[u8], mono: &Raw, ours: &Raw) -> bool {
    let number = |s: &str| -> Option<f64> {
        s.strip_prefix("{\"value\":")
            .or_else(|| s.strip_prefix("{\"d\":"))?
            .strip_suffix('}')?
            .parse()
            .ok()
    };
    let sent = number(&body(request));
    sent.is_some() && sent == number(&text(&ours.body)) && number(&text(&mono.body)) != sent
}

/// A date with a time zone or a letter after its milliseconds (`\/Date(0+0100)\/`), which
/// .NET's reader takes (and ignores); Mono answered its HTML page.
fn date_with_zone(request: &[u8], mono: &Raw, ours: &Raw) -> bool {
    let body = body(request);
    mono_html(request, mono, ours)
        && body.split("\\/Date(").skip(1).any(|rest| {
            let digits = rest.trim_start_matches('-');
            let digits = digits.trim_start_matches(|c: char| c.is_ascii_digit());
            digits.starts_with(|c: char| c.is_ascii_alphabetic())
                || digits.starts_with('+')
                || digits.starts_with('-')
        })
}

/// A number JSON's grammar does not allow but .NET's `TryParse` reads: no digit before the
/// point (`.5`, `-.5E-3`: NumberStyles.Float), or a leading zero (`013`:
/// NumberStyles.Integer); Mono answered its HTML page.
fn number_dotnet_reads(request: &[u8], mono: &Raw, ours: &Raw) -> bool {
    let body = body(request).into_bytes();
    mono_html(request, mono, ours)
        && body.windows(4).any(|w| {
            let (before, rest) = (w[0], &w[1..]);
            let rest = rest.strip_prefix(b"-").unwrap_or(rest);
            matches!(before, b':' | b'[' | b',')
                && (rest.starts_with(b".")
                    || (rest.len() >= 2 && rest[0] == b'0' && rest[1].is_ascii_digit()))
        })
}

/// A class's member named `""`, which .NET's ObjectConverter finds no property or field of
/// and ignores; Mono answered its HTML page.
fn empty_member_name(request: &[u8], mono: &Raw, ours: &Raw) -> bool {
    let body = body(request);
    mono_html(request, mono, ours) && (body.contains("{\"\":") || body.contains(",\"\":"))
}

/// A string holding `\'`, which .NET's reader takes as `'`; Mono answered its HTML page.
fn escaped_single_quote(request: &[u8], mono: &Raw, ours: &Raw) -> bool {
    mono_html(request, mono, ours) && body(request).contains("\\'")
}

/// A body that is not ASCII, sent with `charset=iso-8859-1`.
fn latin1_body(request: &[u8], _: &Raw, _: &Raw) -> bool {
    !body(request).is_ascii()
}

fn json_call(op: &str, body: &str) -> Vec<u8> {
    request(op, JSON, Some(body.as_bytes()))
}

const LENGTH: &str = "a JSON call of more than 102,400 characters: .NET Framework refuses it \
                      (RestHandler's JavaScriptSerializer, maxJsonLength); Mono reads it";

pub(crate) const SCRIPT_DELIBERATE: &[Deliberate] = &[
    Deliberate {
        class: "script:",
        mono_status: 200,
        ours_status: 200,
        when: mono_writing,
        example: || json_call("EchoShape", r#"{"value":{"Label":"a&b\u2028"}}"#),
        why: "JavaScriptSerializer on .NET Framework writes a class's __type hint and escapes \
              &, U+2028, U+2029 and U+0085 (JavaScriptStringEncode, 4.5 and later); Mono \
              writes neither",
    },
    Deliberate {
        class: "script:",
        mono_status: 200,
        ours_status: 200,
        when: early_date,
        example: || json_call("EchoDateTime", r#"{"value":"\/Date(-62135596800000)\/"}"#),
        why: "a date before the year 100: .NET Framework writes its milliseconds since 1970; \
              Mono clamps it to -59011459200000, its earliest JavaScript date",
    },
    Deliberate {
        class: "script:",
        mono_status: 200,
        ours_status: 200,
        when: double_read_inexactly,
        example: || json_call("EchoDouble", r#"{"value":2.4651115102909776E-174}"#),
        why: "a double in exponent form: .NET Framework's Double.TryParse reads it exactly; \
              Mono's reader reads a small one as 0 and others a digit off in the last place",
    },
    Deliberate {
        class: "script:",
        mono_status: 500,
        ours_status: 200,
        when: date_with_zone,
        example: || json_call("EchoDateTime", r#"{"value":"\/Date(0+0100)\/"}"#),
        why: "a date with a time zone or a letter after its milliseconds (\\/Date(0+0100)\\/): \
              .NET Framework's JavaScriptObjectDeserializer takes it, ignoring the zone; Mono \
              answers its HTML error page",
    },
    Deliberate {
        class: "script:",
        mono_status: 500,
        ours_status: 200,
        when: number_dotnet_reads,
        example: || json_call("EchoDouble", r#"{"value":-.5}"#),
        why: "a number with no digit before its point (-.5) or with a leading zero (013): \
              .NET Framework's reader parses it with Double.TryParse (NumberStyles.Float) or \
              Int32.TryParse, which allow that; Mono answers its HTML error page",
    },
    Deliberate {
        class: "script:",
        mono_status: 500,
        ours_status: 200,
        when: empty_member_name,
        example: || json_call("EchoPoint", r#"{"value":{"":5,"X":1}}"#),
        why: "a class's member named \"\": .NET Framework's ObjectConverter finds no property \
              or field of that name and ignores it, as any unknown member; Mono answers its \
              HTML error page",
    },
    Deliberate {
        class: "script:",
        mono_status: 500,
        ours_status: 200,
        when: escaped_single_quote,
        example: || json_call("Echo", r#"{"value":"it\'s"}"#),
        why: "a string holding the escape \\' : .NET Framework's JavaScriptObjectDeserializer \
              reads it as ' (AppendCharToBuilder); Mono answers its HTML error page",
    },
    Deliberate {
        class: "script:",
        mono_status: 500,
        ours_status: 500,
        when: html_for_json_error,
        example: || json_call("Add", "[1,2]"),
        why: MONO_HTML,
    },
    Deliberate {
        class: "script:malformed",
        mono_status: 200,
        ours_status: 500,
        when: ours_json_error,
        example: || json_call("Add", r#"{"a":2,"b":3"#),
        why: MONO_LENIENT,
    },
    Deliberate {
        class: "script:mismatch",
        mono_status: 200,
        ours_status: 500,
        when: ours_json_error,
        example: || json_call("EchoBoolean", r#"{"value":7}"#),
        why: "a value ObjectConverter cannot convert (7 for a bool: BooleanConverter parses \
              \"7\" and throws; 5.0 for an int; a number no enum member has): .NET Framework \
              answers its JSON error; Mono's converter takes it",
    },
    Deliberate {
        class: "script:huge",
        mono_status: 200,
        ours_status: 500,
        when: ours_json_error,
        example: || {
            json_call(
                "Echo",
                &format!("{{\"value\":\"{}\"}}", "x".repeat(110_000)),
            )
        },
        why: LENGTH,
    },
    Deliberate {
        class: "script:content-type:application/jsonp",
        mono_status: 200,
        ours_status: 500,
        when: ours_http_post_error,
        example: || request("Echo", "application/jsonp", Some(br#"{"value":"a"}"#)),
        why: "application/jsonp: .NET Framework's IsRestMethodCall takes application/json \
              alone or followed by `;`, so the call is an HTTP POST call, refused (500 \
              text/plain); Mono takes any content type beginning application/json as JSON",
    },
    Deliberate {
        class: "script:content-type:application/json; charset=iso-8859-1",
        mono_status: 200,
        ours_status: 200,
        when: latin1_body,
        example: || {
            request(
                "Echo",
                "application/json; charset=iso-8859-1",
                Some("{\"value\":\"é\"}".as_bytes()),
            )
        },
        why: "a JSON body is UTF-8 to .NET Framework's RestHandler whatever its charset (a \
              StreamReader's default); Mono decodes it by the charset",
    },
    Deliberate {
        class: "script:content-type:application/jsonp",
        mono_status: 500,
        ours_status: 500,
        when: ours_http_post_error,
        example: || {
            request(
                "EchoDateTime",
                "application/jsonp",
                Some(br#"{"value":"\/Date(0+0100)\/"}"#),
            )
        },
        why: "application/jsonp with a value Mono cannot read, or a call that fails: .NET \
              Framework takes the call as an HTTP POST call, refused (500 text/plain); Mono \
              reads it as JSON and answers its HTML error page or its JSON error",
    },
    Deliberate {
        class: "script:content-type:application/jsonp",
        mono_status: 200,
        ours_status: 200,
        when: |_, mono, ours| ours.body.is_empty() && !mono.body.is_empty(),
        example: || request("Nothing", "application/jsonp", Some(b"{}")),
        why: "application/jsonp to an operation without parameters: .NET Framework takes the \
              call as an HTTP POST call, which reads no parameters and answers the void result \
              (200, no body); Mono takes it as JSON ({\"d\":null})",
    },
    Deliberate {
        class: "script:get",
        mono_status: 200,
        ours_status: 200,
        when: |_, mono, ours| mono.body != ours.body,
        example: || request("Greet?name=%22bob%22&times=2", JSON, None),
        why: MONO_GET,
    },
    Deliberate {
        class: "script:get",
        mono_status: 200,
        ours_status: 500,
        when: ours_json_error,
        example: || request("Greet?name=bob&times=2", JSON, None),
        why: MONO_GET,
    },
    Deliberate {
        class: "script:get",
        mono_status: 500,
        ours_status: 200,
        when: mono_html,
        example: || request("Greet?name=%22a%22&times=%272%27", JSON, None),
        why: MONO_GET,
    },
    Deliberate {
        class: "script:verb",
        mono_status: 200,
        ours_status: 500,
        when: ours_json_error,
        example: || request("Add?a=1&b=2", JSON, None),
        why: "an operation without UseHttpGet called with GET: .NET Framework's RestHandler \
              refuses the verb (its JSON error); Mono does not check it",
    },
];
