//! The JSON codec against .NET Framework's rules (`JavaScriptObjectDeserializer`,
//! `JavaScriptSerializer`, `ObjectConverter`), each case the source's or the reference host's.

use rust_decimal::Decimal;

use super::script::is_json_call;

use super::*;
use crate::DateTime;

fn parsed(text: &str) -> Json<'_> {
    parse(text).unwrap().unwrap()
}

fn written<T: ToJson + ?Sized>(value: &T) -> String {
    let mut out = JsonOut::new();
    value.write_json(&mut out);
    out.finish().unwrap()
}

#[test]
fn reads_what_old_jquery_sends_as_dotnet_does() {
    let strict = parsed(r#"{"a":2,"b":3}"#);
    // Single quotes and unquoted names, as `data: "{'a':2, b:3}"` sends them.
    assert_eq!(parsed("{'a':2, b:3}"), strict);
    assert_eq!(parsed(" {\"a\" : 2 ,\n\"b\":3 } "), strict);
    // A repeated name keeps its last value.
    assert_eq!(parsed(r#"{"a":1,"a":2,"b":3}"#), strict);
    // Raw control characters in a string are read as they are.
    assert_eq!(parsed("\"a\tb\nc\""), Json::String("a\tb\nc".into()));
    assert_eq!(parsed(r#"'it\'s'"#), Json::String("it's".into()));
    assert_eq!(
        parsed(r#""\u00e9\uD834\uDD1E\/""#),
        Json::String("é𝄞/".into())
    );
    // A lone surrogate becomes U+FFFD, as .NET's string validator makes it.
    assert_eq!(parsed(r#""\uD834x""#), Json::String("\u{FFFD}x".into()));
}

#[test]
fn refuses_what_dotnet_refuses_in_its_words() {
    let error = |text: &str| parse(text).unwrap_err().to_string();
    assert_eq!(error("{\"a\":1,}"), "Invalid JSON primitive: .");
    assert_eq!(
        error("[1,]"),
        "Invalid array passed in, extra trailing ','."
    );
    assert_eq!(error("[1 2]"), "Invalid array passed in, ',' expected.");
    assert_eq!(error("[1"), "Invalid array passed in, ']' expected.");
    assert_eq!(
        error("{\"a\" 1}"),
        "Invalid object passed in, ':' or '}' expected."
    );
    assert_eq!(error("{\"a\":2,\"b\":"), "Invalid JSON primitive: .");
    assert_eq!(
        error("{:1}"),
        "Invalid object passed in, member name expected."
    );
    assert_eq!(error("\"abc"), "Unterminated string passed in.");
    assert_eq!(error(r#""\q""#), "Unrecognized escape sequence.");
    assert_eq!(error("undefined"), "Invalid JSON primitive: undefined.");
    assert_eq!(error("new Date(0)"), "Invalid JSON primitive: new.");
    assert_eq!(error("/* c */ 1"), "Invalid JSON primitive: .");
    assert_eq!(error("0x10"), "Invalid JSON primitive: 0x10.");
    // The rest after a value is named from the character after the first it consumed.
    assert_eq!(error("{\"a\":1}xyz"), "Invalid JSON primitive: yz.");
    // Empty or white space only is null.
    assert_eq!(parse("  \n").unwrap(), None);
}

#[test]
fn types_numbers_as_dotnet_does() {
    assert_eq!(parsed("5"), Json::Number(JsonNumber::Int(5)));
    assert_eq!(parsed("+007"), Json::Number(JsonNumber::Int(7)));
    assert_eq!(
        parsed("3000000000"),
        Json::Number(JsonNumber::Long(3_000_000_000))
    );
    assert_eq!(
        parsed("1.50"),
        Json::Number(JsonNumber::Decimal(Decimal::new(150, 2)))
    );
    assert_eq!(
        parsed("99999999999999999999"),
        Json::Number(JsonNumber::Decimal(
            Decimal::from_str_exact("99999999999999999999").unwrap()
        ))
    );
    assert_eq!(parsed("1e2"), Json::Number(JsonNumber::Double(100.0)));
    assert!(matches!(parsed("NaN"), Json::Number(JsonNumber::Double(d)) if d.is_nan()));
    assert_eq!(parsed("null"), Json::Null);
    assert_eq!(
        parse("True").unwrap_err().to_string(),
        "Invalid JSON primitive: True."
    );
}

#[test]
fn reads_dates_only_in_their_escaped_form() {
    assert_eq!(
        parsed(r#""\/Date(1234567890123)\/""#),
        Json::Date(1_234_567_890_123)
    );
    // A suffix, a letter or an offset, is read past and ignored.
    assert_eq!(parsed(r#""\/Date(-1+0100)\/""#), Json::Date(-1));
    assert_eq!(parsed(r#""\/Date(0Z)\/""#), Json::Date(0));
    // Without the backslash, or in single quotes, a string.
    assert_eq!(parsed(r#""/Date(0)/""#), Json::String("/Date(0)/".into()));
    assert_eq!(parsed(r#"'\/Date(0)\/'"#), Json::String("/Date(0)/".into()));
    assert_eq!(parsed(r#""\/Date(x)\/""#), Json::String("/Date(x)/".into()));
    // The date ends at the first `)\/"`: a `)` before it is inside (and no date's), and one
    // not followed by `\/"` is passed over.
    assert_eq!(
        parsed(r#""\/Date(1))\/""#),
        Json::String("/Date(1))/".into())
    );
    assert_eq!(
        parsed(r#"["\/Date(1)", ")\/"]"#),
        Json::Array(vec![
            Json::String("/Date(1)".into()),
            Json::String(")/".into())
        ])
    );
    assert_eq!(
        parsed(r#""\/Date(7)\/)\/""#),
        Json::String("/Date(7)/)/".into())
    );
}

#[test]
fn refuses_nesting_past_the_recursion_limit() {
    let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    assert!(parse(&nested(100)).is_ok());
    assert_eq!(parse(&nested(101)).unwrap_err(), JsonError::TooDeep);
    assert_eq!(
        parse(&"1".repeat(MAX_JSON_LENGTH + 1)).unwrap_err(),
        JsonError::TooLong
    );
}

#[test]
fn writes_strings_as_javascript_string_encode_does() {
    // The reference host's echo of the same text, but for `&`, U+0085 and U+2028, which
    // .NET Framework escapes and Mono leaves.
    assert_eq!(
        written(&"a\"b\\c/d<e>&'\u{1}é\u{2028}x".to_owned()),
        r#""a\"b\\c/d\u003ce\u003e\u0026\u0027\u0001é\u2028x""#
    );
    assert_eq!(
        written(&"\u{8}\u{c}\n\r\t\u{1f}\u{7f}".to_owned()),
        "\"\\b\\f\\n\\r\\t\\u001f\u{7f}\""
    );
    assert_eq!(written(&'\0'), "null");
    assert_eq!(written(&'<'), r#""\u003c""#);
}

/// `JavaScriptStringEncode`'s rule, one character at a time: the oracle for the writer,
/// which looks at bytes.
fn encoded_char_by_char(value: &str) -> String {
    let mut out = String::from("\"");
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20
                || matches!(
                    c,
                    '\'' | '<' | '>' | '&' | '\u{85}' | '\u{2028}' | '\u{2029}'
                ) =>
            {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[test]
fn every_character_is_written_as_the_rule_says_alone_and_among_others() {
    // Every character of the first three planes' first 0x3000 code points, and the
    // neighbours of the three escaped ones that share their lead bytes (C2, E2 80).
    let chars: Vec<char> = (0..0x3000u32)
        .chain(0xE000..0xE100)
        .filter_map(char::from_u32)
        .collect();
    for &c in &chars {
        for text in [
            c.to_string(),
            format!("a{c}"),
            format!("{c}b"),
            format!("ab{c}{c}cd"),
        ] {
            let mut out = String::new();
            write_string(&mut out, &text);
            assert_eq!(out, encoded_char_by_char(&text), "{:?}", text);
        }
    }
    // Lead bytes at the very end of the text, and all of it at once.
    let all: String = chars.iter().collect();
    let mut out = String::new();
    write_string(&mut out, &all);
    assert_eq!(out, encoded_char_by_char(&all));
}

#[test]
fn quoted_strings_read_to_their_closing_quote_whatever_they_escape() {
    for (json, text) in [
        (r#""""#, ""),
        (r#""plain""#, "plain"),
        (r#""a\"b""#, "a\"b"),
        (r#""\\""#, "\\"),
        (r#""\\\"""#, "\\\""),
        (r#""\u00e9\u2028\ud83d\ude00 end""#, "é\u{2028}😀 end"),
        (r#"'single \' "double"'"#, "single ' \"double\""),
    ] {
        assert_eq!(parsed(json), Json::String(text.into()), "{json}");
    }
    // Without an escape, a string and a member name are the text itself; with one, their own.
    use std::borrow::Cow;
    let Json::Object(members) = parsed(r#"{"plain":"text","esc\u0061ped":"a\tb"}"#) else {
        panic!("an object");
    };
    assert!(matches!(&members[0].0, Cow::Borrowed("plain")));
    assert!(matches!(&members[0].1, Json::String(Cow::Borrowed("text"))));
    assert!(matches!(&members[1].0, Cow::Owned(name) if name == "escaped"));
    assert!(matches!(&members[1].1, Json::String(Cow::Owned(text)) if text == "a\tb"));
    // The closing quote and an escape at every place of short and longer strings (the first
    // bytes are looked at one by one, the rest by memchr).
    for len in 0..40 {
        let plain = "x".repeat(len);
        assert_eq!(
            parsed(&format!("\"{plain}\"")),
            Json::String(plain.as_str().into())
        );
        assert_eq!(
            parsed(&format!("'{plain}'")),
            Json::String(plain.as_str().into())
        );
        for at in 0..=len {
            let (before, after) = plain.split_at(at);
            let json = format!(r#""{before}\"{after}\\""#);
            let text = format!("{before}\"{after}\\");
            assert_eq!(parsed(&json), Json::String(text.into()), "{json}");
            let json = format!(r#"'{before}"{after}'"#);
            let text = format!(r#"{before}"{after}"#);
            assert_eq!(parsed(&json), Json::String(text.into()), "{json}");
        }
        assert_eq!(
            parse(&format!("\"{plain}")).unwrap_err(),
            JsonError::UnterminatedString
        );
    }
    for unterminated in [r#""abc"#, r#""abc\"#, r#""abc\""#] {
        assert_eq!(
            parse(unterminated).unwrap_err(),
            JsonError::UnterminatedString,
            "{unterminated}"
        );
    }
}

#[test]
fn writes_numbers_and_dates_as_the_host_does() {
    assert_eq!(written(&0.1f64), "0.1");
    assert_eq!(written(&1e300f64), "1E+300");
    assert_eq!(written(&f64::NAN), "NaN");
    assert_eq!(written(&f64::NEG_INFINITY), "-Infinity");
    assert_eq!(written(&-0.0f64), "0");
    assert_eq!(written(&Decimal::new(150, 2)), "1.50");
    assert_eq!(written(&i64::MIN), "-9223372036854775808");
    let date = DateTime::from_json(&Json::Date(1_234_567_890_123)).unwrap();
    assert_eq!(written(&date), r#""\/Date(1234567890123)\/""#);
    // `default(DateTime)`, of no zone, in a zone of UTC.
    assert_eq!(
        written(&DateTime::default()),
        r#""\/Date(-62135596800000)\/""#
    );
    let guid = uuid::Uuid::parse_str("6F9619FF-8B86-D011-B42D-00C04FC964FF").unwrap();
    assert_eq!(written(&guid), r#""6f9619ff-8b86-d011-b42d-00c04fc964ff""#);
    assert_eq!(written(&vec![1u8, 2, 255]), "[1,2,255]");
    assert_eq!(written(&None::<String>), "null");
}

#[test]
fn converts_as_object_converter_does() {
    let int = |text: &str| i32::from_json(&parsed(text)).map_err(|e| e.to_string());
    assert_eq!(int("5"), Ok(5));
    assert_eq!(int("\"5\""), Ok(5));
    assert_eq!(int("\" 5 \""), Ok(5));
    assert_eq!(int("\"0x1F\""), Ok(31));
    assert_eq!(int("1e2"), Ok(100));
    assert_eq!(
        int("5.0"),
        Err("5.0 is not a valid value for Int32.".into())
    );
    assert_eq!(
        int("3000000000"),
        Err("3000000000 is not a valid value for Int32.".into())
    );
    assert_eq!(
        int("null"),
        Err("Cannot convert null to a value type.".into())
    );
    assert_eq!(int("{\"x\":1}"), Ok(0));
    assert_eq!(
        int("[1]"),
        Err("Type 'System.Int32' is not supported for deserialization of an array.".into())
    );
    assert_eq!(Option::<i32>::from_json(&Json::Null), Ok(None));
    let string = |text: &str| String::from_json(&parsed(text)).map_err(|e| e.to_string());
    assert_eq!(string("true"), Ok("True".into()));
    assert_eq!(string("1.50"), Ok("1.50".into()));
    assert_eq!(
        string(r#""\/Date(0)\/""#),
        Ok("1970-01-01 00:00:00Z".into())
    );
    assert_eq!(
        string("{}"),
        Err("No parameterless constructor defined for type of 'System.String'.".into())
    );
    assert_eq!(bool::from_json(&parsed("\" TRUE \"")), Ok(true));
    assert_eq!(
        bool::from_json(&parsed("1")).unwrap_err().to_string(),
        "1 is not a valid value for Boolean."
    );
    assert_eq!(f64::from_json(&parsed("0.1")), Ok(0.1));
    assert_eq!(Decimal::from_json(&parsed("5")), Ok(Decimal::new(5, 0)));
    assert_eq!(
        Vec::<i32>::from_json(&parsed("[1,\"2\",3]")),
        Ok(vec![1, 2, 3])
    );
    assert_eq!(
        Vec::<i32>::from_json(&parsed("\"1\""))
            .unwrap_err()
            .to_string(),
        "Cannot convert object of type 'System.String' to type 'System.Int32[]'"
    );
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Mood {
        Calm,
        Busy,
    }
    let mood = |text: &str| {
        enum_from_json(
            &parsed(text),
            &[Mood::Calm, Mood::Busy],
            &["Calm", "Busy"],
            "Mood",
        )
        .map_err(|e| e.to_string())
    };
    assert_eq!(mood("1"), Ok(Mood::Busy));
    assert_eq!(mood("\"busy\""), Ok(Mood::Busy));
    assert_eq!(mood("\"1\""), Ok(Mood::Busy));
    assert_eq!(
        mood("7"),
        Err("7 is not a value of the enum Mood, which has 2 members.".into())
    );
}

#[test]
fn tells_json_calls_by_their_content_type_as_asp_net_does() {
    assert!(is_json_call(Some("application/json")));
    assert!(is_json_call(Some("application/json; charset=utf-8")));
    assert!(is_json_call(Some("APPLICATION/JSON;x")));
    assert!(!is_json_call(Some("application/json ;x")));
    assert!(!is_json_call(Some("application/jsonx")));
    assert!(!is_json_call(Some("text/json")));
    assert!(!is_json_call(None));
}

/// A POST body as `RestHandler`'s `StreamReader` reads it: a byte order mark chooses UTF-16
/// or UTF-32 (either order) or is skipped (UTF-8); without one the body is UTF-8 whatever the
/// charset, and what does not decode reads as U+FFFD.
#[test]
fn a_body_is_decoded_as_streamreader_decodes_it() {
    use super::script::ScriptArgs;
    let value = |body: Vec<u8>| -> String {
        let request = http::Request::builder()
            .method("POST")
            .uri("/S.asmx/Echo")
            .header("content-type", "application/json; charset=utf-8")
            .body(body)
            .unwrap();
        let args = ScriptArgs::of_request(&request, "Echo", false, &["value"]).unwrap();
        args.param::<String>("value").unwrap()
    };
    let json = "{\"value\":\"é€𝄞\"}";
    let utf16 = |be: bool| -> Vec<u8> {
        let mut bytes = if be {
            vec![0xFE, 0xFF]
        } else {
            vec![0xFF, 0xFE]
        };
        for unit in json.encode_utf16() {
            bytes.extend(if be {
                unit.to_be_bytes()
            } else {
                unit.to_le_bytes()
            });
        }
        bytes
    };
    let utf32 = |be: bool| -> Vec<u8> {
        let mut bytes = if be {
            vec![0, 0, 0xFE, 0xFF]
        } else {
            vec![0xFF, 0xFE, 0, 0]
        };
        for c in json.chars() {
            let n = u32::from(c);
            bytes.extend(if be { n.to_be_bytes() } else { n.to_le_bytes() });
        }
        bytes
    };
    let mut bom8 = b"\xEF\xBB\xBF".to_vec();
    bom8.extend(json.as_bytes());
    for body in [
        json.as_bytes().to_vec(),
        bom8,
        utf16(false),
        utf16(true),
        utf32(false),
        utf32(true),
    ] {
        assert_eq!(value(body), "é€𝄞");
    }
    // Not UTF-8: each bad sequence a U+FFFD, the rest read.
    assert_eq!(
        value(b"{\"value\":\"a\xFFb\xC3\"}".to_vec()),
        "a\u{FFFD}b\u{FFFD}"
    );
}

#[test]
fn an_answer_past_the_servers_limits_is_the_error_javascriptserializer_throws() {
    use super::script::{answer, within_limits};
    use super::JsonLimits;
    let value: Vec<Option<Vec<i32>>> = vec![Some(vec![1, 2])];
    // `[[1,2]]`: its ints at depth 3 (the top array at 1), 7 characters.
    let limits = |max_length, recursion_limit| JsonLimits {
        max_length,
        recursion_limit,
    };
    let held = |limits: JsonLimits| {
        let mut response = answer(&value);
        within_limits(&mut response, limits);
        response
    };
    assert_eq!(held(limits(7, 3)).status(), 200);
    let deep = held(limits(7, 2));
    assert_eq!(deep.status(), 500);
    assert!(std::str::from_utf8(deep.body())
        .unwrap()
        .contains("RecursionLimit exceeded."));
    let long = held(limits(6, 3));
    assert_eq!(long.status(), 500);
    assert!(std::str::from_utf8(long.body())
        .unwrap()
        .contains("maxJsonLength"));
}

#[test]
fn a_member_is_found_by_its_exact_name_first_then_ignoring_case() {
    let members = ["Name", "name", "Ünïcode", "X"];
    assert_eq!(member_index("Name", &members), Some(0));
    // The exact name wins over an earlier member that matches ignoring case.
    assert_eq!(member_index("name", &members), Some(1));
    // Otherwise the first member that matches ignoring case, as .NET's lookup does.
    assert_eq!(member_index("NAME", &members), Some(0));
    assert_eq!(member_index("x", &members), Some(3));
    assert_eq!(member_index("üNÏCODE", &members), Some(2));
    assert_eq!(member_index("Nam", &members), None);
    assert_eq!(member_index("", &members), None);
    assert_eq!(member_index("X", &[]), None);
}

#[test]
fn a_member_written_by_the_generator_is_as_member_writes_it() {
    let mut by_name = JsonOut::new();
    by_name.open_object();
    by_name.member("__type");
    by_name.string("Ns.Point");
    by_name.member("X");
    by_name.raw("1");
    by_name.member("Name");
    by_name.null();
    by_name.close_object();
    let mut by_text = JsonOut::new();
    by_text.open_object();
    by_text.member_text(r#""__type":"Ns.Point""#);
    by_text.member_text(r#""X":"#);
    by_text.raw("1");
    by_text.member_text(r#""Name":"#);
    by_text.null();
    by_text.close_object();
    assert_eq!(by_text.into_string(), by_name.into_string());
}

#[test]
fn a_date_of_milliseconds_is_the_epoch_plus_them() {
    let epoch_plus = |ms: i64| {
        let value = chrono::DateTime::UNIX_EPOCH
            .naive_utc()
            .checked_add_signed(chrono::Duration::try_milliseconds(ms)?)?;
        let date = DateTime::utc(value);
        date.fits_dotnet().then_some(date)
    };
    // .NET's first and last milliseconds, and past them; chrono's bounds; around the epoch.
    let first = -62_135_596_800_000;
    let last = 253_402_300_799_999;
    let mut cases = vec![
        i64::MIN,
        i64::MIN + 1,
        i64::MAX,
        first - 1,
        first,
        first + 1,
        last - 1,
        last,
        last + 1,
        -1,
        0,
        1,
        999,
        1000,
        -999,
        -1000,
        -1001,
        1_234_567_890_123,
    ];
    let mut ms: i64 = 1;
    while let Some(next) = ms.checked_mul(3) {
        cases.extend([ms, -ms, ms + 7, -ms - 7]);
        ms = next;
    }
    for ms in cases {
        assert_eq!(super::convert::date_of(ms), epoch_plus(ms), "{ms}");
    }
}
