//! The script service's cases: calls of ASMX's JSON face (`/api/rmm/ScriptService.asmx/Op`),
//! each one class of request. Well-formed calls with random values of every type family
//! (`script:value:Op`), values of another JSON type than the parameter's
//! (`script:mismatch:Op`), a `[ScriptMethod(UseHttpGet = true)]` method with JSON values in
//! the query string (`script:get`), mutations of a well-formed call (`script:malformed:…`),
//! other content types (`script:content-type`), documents nested about .NET's depth limit
//! (`script:deep`) and about its length limit (`script:huge`), and the verb and method-name
//! rules (`script:verb`, `script:unknown`).

use rand::{Rng, RngCore};
use rand_chacha::ChaCha8Rng;
use rmm_script::runtime::deps::rust_decimal::Decimal;
use rmm_script::runtime::deps::uuid;
use rmm_script::runtime::json::{JsonOut, ToJson};

use super::{Case, Service};
use crate::record::RECORDED_HOST;

pub(super) const PATH: &str = "/api/rmm/ScriptService.asmx";
const JSON: &str = "application/json; charset=utf-8";

/// Mono's content type of a JSON or XML answer with the `charset=utf-8` .NET Framework
/// writes (Mono writes none: a named departure of docs/src/json.md, not compared here).
pub(super) fn with_charset(content_type: String) -> String {
    match content_type.as_str() {
        "application/json" | "text/xml" => format!("{content_type}; charset=utf-8"),
        _ => content_type,
    }
}

/// A JSON request: `POST {PATH}/{path}` with `content_type`, or a GET when `body` is `None`.
pub(super) fn request(path: &str, content_type: &str, body: Option<&[u8]>) -> Vec<u8> {
    let mut head = match body {
        Some(body) => format!(
            "POST {PATH}/{path} HTTP/1.1\r\nHost: {RECORDED_HOST}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n",
            body.len()
        ),
        None => format!(
            "GET {PATH}/{path} HTTP/1.1\r\nHost: {RECORDED_HOST}\r\nContent-Type: {content_type}\r\n"
        ),
    };
    head.push_str("Connection: close\r\n\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body.unwrap_or_default());
    bytes
}

fn case(class: String, request: Vec<u8>) -> Case {
    Case {
        class,
        request,
        service: Service::Script,
    }
}

/// `count` cases.
pub(super) fn cases(rng: &mut ChaCha8Rng, count: usize) -> Vec<Case> {
    (0..count).map(|_| one(rng)).collect()
}

fn one(rng: &mut ChaCha8Rng) -> Case {
    match rng.random_range(0..20) {
        0..=7 => {
            let (op, body) = value_call(rng);
            case(
                format!("script:value:{op}"),
                request(op, JSON, Some(body.as_bytes())),
            )
        }
        8..=9 => {
            let (op, body) = mismatch_call(rng);
            case(
                format!("script:mismatch:{op}"),
                request(op, JSON, Some(body.as_bytes())),
            )
        }
        10 => {
            let name = text(rng);
            let name = query_value(rng, &name);
            let times = rng.random_range(-2..5).to_string();
            let times = query_value(rng, &times);
            case(
                "script:get".to_owned(),
                request(&format!("Greet?name={name}&times={times}"), JSON, None),
            )
        }
        11..=15 => malformed(rng),
        16 => {
            const TYPES: &[&str] = &[
                "text/plain",
                "application/x-www-form-urlencoded",
                "application/jsonp",
                "text/json",
                "application/json; charset=iso-8859-1",
                "application/json",
                "Application/JSON; charset=utf-8",
            ];
            let content_type = TYPES[rng.random_range(0..TYPES.len())];
            let (op, body) = value_call(rng);
            case(
                format!("script:content-type:{content_type}"),
                request(op, content_type, Some(body.as_bytes())),
            )
        }
        17 => {
            // Nesting about .NET's limit of 100 levels, in arrays or in objects.
            let depth = [98usize, 99, 100, 101, 150][rng.random_range(0..5)];
            let body = if rng.random_bool(0.5) {
                format!("{{\"value\":{}1{}}}", "[".repeat(depth), "]".repeat(depth))
            } else {
                format!(
                    "{{\"value\":{}1{}}}",
                    "{\"a\":".repeat(depth),
                    "}".repeat(depth)
                )
            };
            case(
                "script:deep".to_owned(),
                request("EchoInts", JSON, Some(body.as_bytes())),
            )
        }
        18 => {
            // About .NET's maxJsonLength (102,400 characters of the whole request).
            let len = [102_380usize, 102_388, 102_389, 110_000][rng.random_range(0..4)];
            let body = format!("{{\"value\":\"{}\"}}", "x".repeat(len));
            case(
                "script:huge".to_owned(),
                request("Echo", JSON, Some(body.as_bytes())),
            )
        }
        _ => {
            if rng.random_bool(0.5) {
                // A POST-only method called with GET.
                case("script:verb".to_owned(), request("Add?a=1&b=2", JSON, None))
            } else {
                let names = ["Ad", "Missing", "Add/More", "js2", "Visit%20"];
                case(
                    "script:unknown".to_owned(),
                    request(
                        names[rng.random_range(0..names.len())],
                        JSON,
                        Some(b"{\"a\":1,\"b\":2}"),
                    ),
                )
            }
        }
    }
}

/// Text with every escape JavaScriptStringEncode knows (`&` and U+2028 among them), Latin-1,
/// the BMP and beyond.
fn text(rng: &mut ChaCha8Rng) -> String {
    const PIECES: &[&str] = &[
        "a", "Z", "0", " ", "\"", "\\", "/", "<", ">", "'", "&", "\u{1}", "\u{1f}", "\t", "\n",
        "\r", "\u{8}", "\u{c}", "é", "ß", "€", "中", "𝄞", "\u{7f}", "\u{a0}", "\u{2028}", "\u{85}",
    ];
    let mut s = String::new();
    for _ in 0..rng.random_range(0..12) {
        s.push_str(PIECES[rng.random_range(0..PIECES.len())]);
    }
    s
}

/// A JSON string of `text`, written with `\u` escapes half of the time.
fn string(rng: &mut ChaCha8Rng, text: &str) -> String {
    if rng.random_bool(0.5) {
        let mut out = JsonOut::new();
        out.string(text);
        out.as_str().to_owned()
    } else {
        let mut out = String::from("\"");
        for unit in text.encode_utf16() {
            out.push_str(&format!("\\u{unit:04x}"));
        }
        out.push('"');
        out
    }
}

/// A string value or, now and then, `null`.
fn nullable_string(rng: &mut ChaCha8Rng) -> String {
    if rng.random_ratio(1, 8) {
        "null".to_owned()
    } else {
        let t = text(rng);
        string(rng, &t)
    }
}

fn double(rng: &mut ChaCha8Rng) -> String {
    let value = match rng.random_range(0..3) {
        0 => f64::from(rng.random_range(-1000..1000)),
        1 => f64::from(rng.random_range(-100_000..100_000)) / 64.0,
        _ => loop {
            let v = f64::from_bits(rng.next_u64());
            if v.is_finite() {
                break v;
            }
        },
    };
    let mut out = JsonOut::new();
    value.write_json(&mut out);
    out.as_str().to_owned()
}

/// `"\/Date(ms)\/"`, 1970 ± about 3000 years, now and then with a time zone or a letter
/// after the milliseconds (which .NET's reader takes and ignores).
fn date(rng: &mut ChaCha8Rng) -> String {
    let ms = rng.random_range(-62_000_000_000_000i64..190_000_000_000_000);
    let zone = ["", "", "", "+0100", "-0530", "Z"][rng.random_range(0..6)];
    format!("\"\\/Date({ms}{zone})\\/\"")
}

/// A member's name, now and then in another case (.NET's ObjectConverter finds a class's
/// members ignoring case).
fn member(rng: &mut ChaCha8Rng, name: &str) -> String {
    match rng.random_range(0..8) {
        0 => name.to_lowercase(),
        1 => name.to_uppercase(),
        _ => name.to_owned(),
    }
}

fn point(rng: &mut ChaCha8Rng) -> String {
    let mut members = Vec::new();
    if rng.random_ratio(1, 6) {
        members.push("\"__type\":\"Rmm.Script.Point\"".to_owned());
    }
    // A member left out now and then: its default.
    if rng.random_ratio(7, 8) {
        let name = member(rng, "X");
        members.push(format!("\"{name}\":{}", rng.random_range(-1000..1000)));
    }
    if rng.random_ratio(7, 8) {
        let name = member(rng, "Y");
        members.push(format!("\"{name}\":{}", rng.random_range(-1000..1000)));
    }
    if rng.random_ratio(7, 8) {
        let name = member(rng, "Name");
        members.push(format!("\"{name}\":{}", nullable_string(rng)));
    }
    if rng.random_ratio(7, 8) {
        let name = member(rng, "When");
        members.push(format!("\"{name}\":{}", date(rng)));
    }
    if rng.random_ratio(1, 8) {
        members.push("\"Unknown\":[1,{\"a\":null}]".to_owned());
    }
    format!("{{{}}}", members.join(","))
}

/// A well-formed call of an operation with JSON: `(operation, body)`.
fn value_call(rng: &mut ChaCha8Rng) -> (&'static str, String) {
    let v = |value: String| format!("{{\"value\":{value}}}");
    match rng.random_range(0..21) {
        0 => (
            "Add",
            format!(
                "{{\"a\":{},\"b\":{}}}",
                rng.next_u32() as i32,
                rng.next_u32() as i32
            ),
        ),
        1 | 2 => ("Echo", v(nullable_string(rng))),
        3 => ("EchoBoolean", v(rng.random_bool(0.5).to_string())),
        4 => ("EchoLong", v((rng.next_u64() as i64).to_string())),
        5 => ("EchoDouble", v(double(rng))),
        6 => {
            let scale = rng.random_range(0..8);
            let mantissa = rng.random_range(-10_000_000_000i64..10_000_000_000);
            ("EchoDecimal", v(Decimal::new(mantissa, scale).to_string()))
        }
        7 => ("EchoDateTime", v(date(rng))),
        8 => {
            let mut bytes = [0u8; 16];
            rng.fill_bytes(&mut bytes);
            let guid = uuid::Uuid::from_bytes(bytes);
            let text = if rng.random_bool(0.5) {
                guid.hyphenated().to_string()
            } else {
                guid.braced().to_string().to_uppercase()
            };
            ("EchoGuid", v(format!("\"{text}\"")))
        }
        9 => {
            let mood = match rng.random_range(0..5) {
                0 => "\"Calm\"".to_owned(),
                1 => "\"Busy\"".to_owned(),
                2 => "\"Angry\"".to_owned(),
                _ => rng.random_range(0..3).to_string(),
            };
            ("EchoMood", v(mood))
        }
        10 => {
            let bytes: Vec<String> = (0..rng.random_range(0..8))
                .map(|_| rng.random_range(0..256).to_string())
                .collect();
            ("EchoBytes", v(format!("[{}]", bytes.join(","))))
        }
        11 => {
            let items: Vec<String> = (0..rng.random_range(0..6))
                .map(|_| (rng.next_u32() as i32).to_string())
                .collect();
            ("EchoInts", v(format!("[{}]", items.join(","))))
        }
        12 => {
            let items: Vec<String> = (0..rng.random_range(0..5))
                .map(|_| nullable_string(rng))
                .collect();
            ("EchoStrings", v(format!("[{}]", items.join(","))))
        }
        13 => ("EchoPoint", v(point(rng))),
        14 => {
            let items: Vec<String> = (0..rng.random_range(0..4))
                .map(|_| {
                    if rng.random_ratio(1, 6) {
                        "null".to_owned()
                    } else {
                        point(rng)
                    }
                })
                .collect();
            ("EchoPoints", v(format!("[{}]", items.join(","))))
        }
        15 => {
            let hint = if rng.random_bool(0.3) {
                "\"__type\":\"Rmm.Script.Shape\","
            } else {
                ""
            };
            (
                "EchoShape",
                v(format!("{{{hint}\"Label\":{}}}", nullable_string(rng))),
            )
        }
        16 => (
            "Move",
            format!(
                "{{\"p\":{},\"dx\":{},\"dy\":{}}}",
                point(rng),
                rng.random_range(-1000..1000),
                rng.random_range(-1000..1000)
            ),
        ),
        17 => (
            "PointAsXml",
            format!(
                "{{\"x\":{},\"y\":{}}}",
                rng.random_range(-1000..1000),
                rng.random_range(-1000..1000)
            ),
        ),
        18 => ("CountAsXml", format!("{{\"n\":{}}}", rng.next_u32() as i32)),
        19 => (
            "PointsAsXml",
            format!("{{\"n\":{}}}", rng.random_range(0..4)),
        ),
        _ => {
            if rng.random_bool(0.5) {
                ("Nothing", "{}".to_owned())
            } else {
                ("Fail", format!("{{\"message\":{}}}", nullable_string(rng)))
            }
        }
    }
}

/// A call whose value is of another JSON type than its parameter's (a number in a string,
/// a string for a number, a fraction for an int, an object for a string, …): what
/// ObjectConverter converts and what it refuses.
fn mismatch_call(rng: &mut ChaCha8Rng) -> (&'static str, String) {
    const VALUES: &[&str] = &[
        "\"12\"",
        "\" 12 \"",
        "\"1e3\"",
        "\"abc\"",
        "\"\"",
        "12.5",
        "12.0",
        "1e2",
        "-0",
        "true",
        "\"true\"",
        "\"True\"",
        "null",
        "[]",
        "[1]",
        "{}",
        "{\"X\":1}",
        "\"Calm\"",
        "\"calm\"",
        "\"Calm, Busy\"",
        "7",
        "\"2009-02-15T00:00:00Z\"",
        "\"\\/Date(abc)\\/\"",
        "9223372036854775808",
        "2147483648",
        "\"AAEC\"",
    ];
    const OPS: &[&str] = &[
        "Echo",
        "EchoBoolean",
        "EchoLong",
        "EchoDouble",
        "EchoDecimal",
        "EchoDateTime",
        "EchoGuid",
        "EchoMood",
        "EchoBytes",
        "EchoInts",
        "EchoStrings",
        "EchoPoint",
        "EchoShape",
    ];
    let op = OPS[rng.random_range(0..OPS.len())];
    let value = VALUES[rng.random_range(0..VALUES.len())];
    (op, format!("{{\"value\":{value}}}"))
}

/// A JSON value for the query string: a string in quotes, single quotes or none (a bare
/// word), percent-encoded.
fn query_value(rng: &mut ChaCha8Rng, text: &str) -> String {
    let value = match rng.random_range(0..4) {
        0 | 1 => string(rng, text),
        2 => format!("'{}'", text.replace(['\'', '\\'], "")),
        _ => text.to_owned(),
    };
    form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

/// A mutation of a well-formed call: truncated, a byte deleted, a byte inserted.
fn malformed(rng: &mut ChaCha8Rng) -> Case {
    let (op, body) = value_call(rng);
    let mut bytes = body.into_bytes();
    let what = match rng.random_range(0..3) {
        0 => {
            let cut = rng.random_range(0..bytes.len().max(1));
            bytes.truncate(cut);
            "truncated"
        }
        1 if !bytes.is_empty() => {
            let i = rng.random_range(0..bytes.len());
            bytes.remove(i);
            "a byte deleted"
        }
        _ => {
            const NOISE: &[u8] = b"{}[]\":,'\\ x0-.eE/n";
            let i = rng.random_range(0..=bytes.len());
            bytes.insert(i, NOISE[rng.random_range(0..NOISE.len())]);
            "a byte inserted"
        }
    };
    case(
        format!("script:malformed:{what}"),
        request(op, JSON, Some(&bytes)),
    )
}
