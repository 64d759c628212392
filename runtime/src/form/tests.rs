//! Forms written and read as the host writes and reads them.

use std::borrow::Cow;

use rust_decimal::Decimal;

use super::percent::decode;
use super::read::PRESIZED_PAIRS;
use super::validate::excerpt;
use super::{FormCharset, FormReader, FormSource, FormWriter, MAX_KEYS, MAX_VALUES};
use crate::{Binding, EncodeError, RequestError, SoapType, ValueError};

#[test]
fn a_byte_array_goes_as_one_pair_per_byte() {
    let mut form = FormWriter::with_capacity(32);
    form.bytes(OP, "p", Some(&[1, 255]), Binding::HttpGet)
        .unwrap();
    let written = form.finish();
    assert_eq!(written, "p=1&p=255");
    let reader = FormReader::parse(written.as_bytes(), FormSource::Query).unwrap();
    assert_eq!(reader.bytes(OP, "P"), Ok(vec![1, 255]));
    assert!(matches!(
        reader.bytes(OP, "q"),
        Err(RequestError::MissingParameter { .. })
    ));
    let wide = FormReader::parse(b"p=256", FormSource::Query).unwrap();
    assert!(matches!(
        wide.bytes(OP, "p"),
        Err(RequestError::InvalidValue { .. })
    ));
    let mut empty = FormWriter::with_capacity(8);
    let error = empty
        .bytes(OP, "p", Some(&[]), Binding::HttpPost)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "parameter p of MobileContactEmailCreate is an empty byte array, which HTTP POST cannot \
         express: it sends each byte as a pair of its own"
    );
}

/// An empty array of simple values is named as an array, not as bytes.
#[test]
fn an_empty_array_over_http_is_named_an_array() {
    let mut empty = FormWriter::with_capacity(8);
    let error = empty
        .array::<Option<String>>(OP, "names", Some(&[]), Binding::HttpGet)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "parameter names of MobileContactEmailCreate is an empty array, which HTTP GET cannot \
         express: it sends each item as a pair of its own"
    );
}
const OP: &str = "MobileContactEmailCreate";

fn query(input: &str) -> FormReader<'_> {
    FormReader::parse(input.as_bytes(), FormSource::Query).unwrap()
}

fn body(input: &str) -> FormReader<'_> {
    FormReader::parse(input.as_bytes(), FormSource::Body).unwrap()
}

fn dangerous(input: &str, source: FormSource) -> (String, String) {
    match FormReader::parse(input.as_bytes(), source) {
        Err(RequestError::DangerousValue {
            collection,
            name,
            excerpt,
        }) => {
            assert_eq!(collection, source.collection());
            (name, excerpt)
        }
        other => panic!("expected DangerousValue for {input:?}, got {other:?}"),
    }
}

// ---- FormWriter ----

#[test]
fn writer_reproduces_the_captured_get_query() {
    // get-op12-ok.txt.
    let mut form = FormWriter::with_capacity(160);
    form.scalar("accountnumber", &1001);
    form.scalar("contactnumber", &5);
    form.string(OP, "email", Some("jane.doe@example.com"), Binding::HttpGet)
        .unwrap();
    form.scalar("primary", &true);
    form.scalar("repnumber", &42);
    form.string(
        OP,
        "timestamp",
        Some("2026-01-01T00:00:00Z"),
        Binding::HttpGet,
    )
    .unwrap();
    form.string(OP, "sig", Some("abc"), Binding::HttpGet)
        .unwrap();
    form.string(OP, "mobilekey", Some("mk-1"), Binding::HttpGet)
        .unwrap();
    assert_eq!(
        form.finish(),
        "accountnumber=1001&contactnumber=5&email=jane.doe%40example.com&primary=true&repnumber=42\
         &timestamp=2026-01-01T00%3A00%3A00Z&sig=abc&mobilekey=mk-1"
    );
}

#[test]
fn writer_reproduces_the_captured_post_body_encoding() {
    // The taskcomment, subject and location values of post-op01-request-validation.txt.
    let mut form = FormWriter::new();
    form.pair(
        "taskcomment",
        "Line1\nLine2 \"quoted\" 'single' 100% + a=b;c",
    );
    form.pair("subject", "Café naïve ☕");
    form.pair("location", "  padded  ");
    assert_eq!(
        form.as_str(),
        "taskcomment=Line1%0ALine2+%22quoted%22+%27single%27+100%25+%2B+a%3Db%3Bc\
         &subject=Caf%C3%A9+na%C3%AFve+%E2%98%95&location=++padded++"
    );
}

#[test]
fn writer_writes_typed_values() {
    let mut form = FormWriter::new();
    form.scalar("min", &i32::MIN);
    form.scalar("max", &i32::MAX);
    form.scalar("no", &false);
    form.scalar("quantity", &Decimal::new(-123400, 4));
    form.scalar("zero", &Decimal::new(0, 1));
    form.pair("empty", "");
    form.pair("a b&c=d", "x");
    assert_eq!(
        form.finish(),
        "min=-2147483648&max=2147483647&no=false&quantity=-12.3400&zero=0.0&empty=&a+b%26c%3Dd=x"
    );
}

#[test]
fn writer_leaves_unreserved_characters_alone() {
    let mut form = FormWriter::new();
    form.pair("v", "AZaz09-._*~/?#[]");
    assert_eq!(form.finish(), "v=AZaz09-._*%7E%2F%3F%23%5B%5D");
}

#[test]
fn writer_sends_an_empty_string_but_refuses_an_absent_one() {
    let mut form = FormWriter::new();
    form.string(OP, "email", Some(""), Binding::HttpPost)
        .unwrap();
    assert_eq!(
        form.string(OP, "sig", None, Binding::HttpPost),
        Err(EncodeError::AbsentOverHttp {
            operation: OP,
            param: "sig",
            binding: Binding::HttpPost
        })
    );
    // The refused parameter left nothing behind.
    assert_eq!(form.finish(), "email=");
}

#[test]
fn writer_output_reads_back() {
    let mut form = FormWriter::new();
    form.scalar("n", &-7);
    form.scalar("b", &true);
    form.scalar("d", &Decimal::new(150, 2));
    form.pair("s", "a+b c%20&d=e ☕ <>");
    let text = form.finish();
    let reader = body(&text);
    assert_eq!(reader.scalar::<i32>(OP, "n"), Ok(-7));
    assert_eq!(reader.scalar::<bool>(OP, "b"), Ok(true));
    assert_eq!(
        reader.scalar::<Decimal>(OP, "d").unwrap().to_string(),
        "1.50"
    );
    assert_eq!(reader.string(OP, "s").unwrap(), "a+b c%20&d=e ☕ <>");
}

// ---- FormReader: splitting and decoding ----

#[test]
fn reader_reads_the_captured_post_body() {
    // post-op12-ok-charset.txt.
    let reader = body(
        "accountnumber=1001&contactnumber=5&email=jane.doe%40example.com&primary=true&repnumber=42\
         &timestamp=2026-01-01T00%3A00%3A00Z&sig=abc&mobilekey=mk-1",
    );
    assert_eq!(reader.source(), FormSource::Body);
    assert_eq!(reader.scalar::<i32>(OP, "accountnumber"), Ok(1001));
    assert_eq!(reader.scalar::<i32>(OP, "contactnumber"), Ok(5));
    assert_eq!(reader.string(OP, "email").unwrap(), "jane.doe@example.com");
    assert_eq!(reader.scalar::<bool>(OP, "primary"), Ok(true));
    assert_eq!(
        reader.string(OP, "timestamp").unwrap(),
        "2026-01-01T00:00:00Z"
    );
    assert_eq!(reader.string(OP, "mobilekey").unwrap(), "mk-1");
}

#[test]
fn reader_decodes_plus_percent_and_utf8() {
    // get-op12-plus-in-query.txt (sig=a+b is "a b"), and the %-encoded values of
    // get-op01-request-validation.txt.
    let reader = query(
        "sig=a+b&taskcomment=Line1%0ALine2%20%22quoted%22%20%27single%27%20100%25%20%2B%20a%3Db%3Bc\
         &subject=Caf%C3%A9%20na%C3%AFve%20%E2%98%95&location=%20%20padded%20%20&plus=%2B+%2b",
    );
    assert_eq!(reader.string(OP, "sig").unwrap(), "a b");
    assert_eq!(
        reader.string(OP, "taskcomment").unwrap(),
        "Line1\nLine2 \"quoted\" 'single' 100% + a=b;c"
    );
    assert_eq!(reader.string(OP, "subject").unwrap(), "Café naïve ☕");
    assert_eq!(reader.string(OP, "location").unwrap(), "  padded  ");
    assert_eq!(reader.string(OP, "plus").unwrap(), "+ +");
}

#[test]
fn reader_decodes_utf16_escapes_as_dotnet_framework_does() {
    let reader = query(
        "a=%u0041%u0062c&b=%u20AC+%u20ac&c=%uD834%uDD1E!&d=%u00C3%u00A9&e=x%u0025u0041&%u0066=1&g=caf%u00E9&h=%c3%a9%u00e9%41",
    );
    assert_eq!(reader.string(OP, "a").unwrap(), "Abc");
    assert_eq!(reader.string(OP, "b").unwrap(), "€ €");
    assert_eq!(reader.string(OP, "c").unwrap(), "𝄞!");
    // Every unit is a character, those up to 00FF too (HttpEncoder.UrlDecode's AddChar).
    assert_eq!(reader.string(OP, "d").unwrap(), "Ã©");
    assert_eq!(reader.string(OP, "g").unwrap(), "café");
    assert_eq!(reader.string(OP, "h").unwrap(), "ééA");
    // Decoded once: the '%' an escape gives starts nothing.
    assert_eq!(reader.string(OP, "e").unwrap(), "x%u0041");
    assert_eq!(reader.scalar::<i32>(OP, "f"), Ok(1));
    // Validation sees the decoded value.
    let (name, excerpt) = dangerous("x=%u003Cscript%u003E", FormSource::Body);
    assert_eq!((name.as_str(), excerpt.as_str()), ("x", "<script>"));
}

#[test]
fn reader_keeps_incomplete_utf16_escapes_literally() {
    let reader = body("a=%u&b=%u12&c=%u12z4&d=%u%41&e=%U0041&f=%u0041%u");
    assert_eq!(reader.string(OP, "a").unwrap(), "%u");
    assert_eq!(reader.string(OP, "b").unwrap(), "%u12");
    assert_eq!(reader.string(OP, "c").unwrap(), "%u12z4");
    assert_eq!(reader.string(OP, "d").unwrap(), "%uA");
    assert_eq!(reader.string(OP, "e").unwrap(), "%U0041");
    assert_eq!(reader.string(OP, "f").unwrap(), "A%u");
}

#[test]
fn a_form_is_read_in_its_declared_charset_as_dotnet_reads_it() {
    let charset = |ct: &str| FormCharset::of_content_type(Some(ct.as_bytes()));
    assert_eq!(FormCharset::of_content_type(None), FormCharset::Utf8);
    assert_eq!(
        charset("application/x-www-form-urlencoded"),
        FormCharset::Utf8
    );
    assert_eq!(
        charset("application/x-www-form-urlencoded; charset=bogus"),
        FormCharset::Utf8
    );
    assert_eq!(
        charset("application/x-www-form-urlencoded; charset="),
        FormCharset::Utf8
    );
    assert_eq!(charset("x; charset=ISO-8859-1"), FormCharset::Latin1);
    assert_eq!(charset("x; charset=us-ascii"), FormCharset::Ascii);
    assert_eq!(
        charset("x; charset=utf-16"),
        FormCharset::Unreadable("UTF-16")
    );
    let read = |input: &str, charset: FormCharset| {
        FormReader::parse_in(input.as_bytes(), FormSource::Body, charset)
            .map(|r| r.string(OP, "a").unwrap())
    };
    // ISO-8859-1: a byte is its character; UTF-8 bytes are two characters.
    assert_eq!(read("a=caf%E9+x", FormCharset::Latin1).unwrap(), "café x");
    assert_eq!(read("a=caf%C3%A9", FormCharset::Latin1).unwrap(), "cafÃ©");
    // A %u character between runs of bytes, each run read in the charset.
    assert_eq!(read("a=%E9%u20AC%E9", FormCharset::Latin1).unwrap(), "é€é");
    let windows_1252 = FormCharset::Other(encoding_rs::WINDOWS_1252);
    assert_eq!(read("a=%80%20x", windows_1252).unwrap(), "€ x");
    assert_eq!(read("a=plain", FormCharset::Ascii).unwrap(), "plain");
    // What .NET reads as `?` or U+FFFD, silently, is refused.
    for (input, charset) in [
        ("a=caf%E9", FormCharset::Ascii),
        ("a=%81", FormCharset::Other(encoding_rs::SHIFT_JIS)),
    ] {
        let error = FormReader::parse_in(input.as_bytes(), FormSource::Body, charset).unwrap_err();
        assert!(
            matches!(error, RequestError::FormCharset { .. }),
            "{input}: {error:?}"
        );
    }
    let utf16 = FormReader::parse_in(b"a=1", FormSource::Body, FormCharset::Unreadable("UTF-16"))
        .unwrap_err();
    assert_eq!(
        utf16.to_string(),
        "The form body is declared UTF-16, in which no form can be written (its names and \
         separators are ASCII bytes); ASP.NET reads no parameter from it."
    );
}

#[test]
fn reader_refuses_lone_surrogates_naming_the_escape() {
    for (input, escape) in [
        ("a=%uD834", "%uD834"),
        ("a=%uD834x", "%uD834"),
        ("a=%uDD1E%uD834", "%uDD1E"),
        ("a=%uD834%u0041", "%uD834"),
        ("a=%uD834%uD834", "%uD834"),
        ("a=b&c=%udc00", "%udc00"),
    ] {
        let error = FormReader::parse(input.as_bytes(), FormSource::Query).unwrap_err();
        assert_eq!(
            error,
            RequestError::LoneSurrogate {
                part: "query string",
                escape: escape.into()
            },
            "{input}"
        );
        assert_eq!(
            error.to_string(),
            format!("The query string holds the escape {escape}, half of a UTF-16 surrogate pair without its other half, which is no character.")
        );
    }
}

#[test]
fn reader_refuses_bytes_that_are_not_utf8_around_utf16_escapes() {
    // .NET ends a run of bytes at a character and reads the incomplete run as U+FFFD.
    for input in ["a=%C3%u00A9", "a=%u0041%A9", "a=%E2%82%u00AC"] {
        assert_eq!(
            FormReader::parse(input.as_bytes(), FormSource::Body).unwrap_err(),
            RequestError::InvalidUtf8 { part: "form body" },
            "{input}"
        );
    }
}

#[test]
fn reader_decodes_percent_escapes_as_percent_encoding_does() {
    // Without `%u`, decoding is `+` as space then plain percent-decoding.
    let pieces = [
        "%", "+", "4", "1", "%41", "%c3%a9", "a", "z", "%%", "%2", "é", "u",
    ];
    let mut state: u32 = 7;
    for _ in 0..20_000 {
        let mut raw = String::new();
        for _ in 0..8 {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            raw.push_str(pieces[(state >> 16) as usize % pieces.len()]);
        }
        if raw.contains("%u") {
            continue;
        }
        let replaced = raw.replace('+', " ");
        let expected = percent_encoding::percent_decode(replaced.as_bytes()).decode_utf8();
        let got = decode(raw.as_bytes(), FormSource::Body);
        match expected {
            Ok(text) => assert_eq!(got.as_deref(), Ok(&*text), "{raw}"),
            Err(_) => assert!(got.is_err(), "{raw}"),
        }
    }
}

#[test]
fn reader_memory_does_not_follow_the_count_of_separators() {
    // 4 MiB of separators: no pair, and nothing sized by their count.
    let separators = vec![b'&'; 4 << 20];
    let reader = FormReader::parse(&separators, FormSource::Body).unwrap();
    assert_eq!(reader.pairs.capacity(), PRESIZED_PAIRS);
    let reader = query("a=1&&&&b=2");
    assert_eq!(reader.pairs.capacity(), PRESIZED_PAIRS);
}

#[test]
fn reader_refuses_more_keys_than_asp_net_reads() {
    let names = |n: usize| -> Vec<String> { (0..n).map(|i| format!("k{i}=1")).collect() };
    let at_limit = names(MAX_KEYS).join("&");
    assert_eq!(query(&at_limit).pairs.len(), MAX_KEYS);
    let over = names(MAX_KEYS + 1).join("&");
    assert_eq!(
        FormReader::parse(over.as_bytes(), FormSource::Query).err(),
        Some(RequestError::TooManyKeys {
            collection: "QueryString",
            limit: 1000
        })
    );
    // Repeated names, names differing in case only and segments without `=` are one key
    // each, as in ASP.NET's collection; empty segments are nothing.
    let repeated = format!(
        "{}&{}&{}&&&",
        vec!["a=1"; MAX_KEYS + 5].join("&"),
        ["A=2"; 5].join("&"),
        vec!["x"; MAX_KEYS].join("&")
    );
    assert_eq!(query(&repeated).pairs.len(), 2 * MAX_KEYS + 10);
}

#[test]
fn reader_bounds_the_pairs_it_holds() {
    let at_limit = vec!["a=1"; MAX_VALUES].join("&");
    assert_eq!(query(&at_limit).pairs.len(), MAX_VALUES);
    // Refused before the extra pair is decoded (it is not UTF-8).
    let over = format!("{at_limit}&b=%ff");
    assert_eq!(
        FormReader::parse(over.as_bytes(), FormSource::Body).err(),
        Some(RequestError::TooManyValues {
            collection: "Form",
            limit: 10_000
        })
    );
}

#[test]
fn reader_keeps_bad_escapes_literally() {
    // get-malformed-query.txt: email=%zz reaches the operation as "%zz".
    let reader = query("email=%zz&a=%4&b=%&c=%%41&d=100%&e=%2+1");
    assert_eq!(reader.string(OP, "email").unwrap(), "%zz");
    assert_eq!(reader.string(OP, "a").unwrap(), "%4");
    assert_eq!(reader.string(OP, "b").unwrap(), "%");
    assert_eq!(reader.string(OP, "c").unwrap(), "%A");
    assert_eq!(reader.string(OP, "d").unwrap(), "100%");
    assert_eq!(reader.string(OP, "e").unwrap(), "%2 1");
}

#[test]
fn reader_skips_junk_separators() {
    // post-malformed-body.txt: "&&" and "=x" do not disturb the other parameters.
    let reader = body(
        "accountnumber=1001&&contactnumber=5&email=%zz&primary=true&repnumber=42&=x&timestamp=t&sig=s&mobilekey=k",
    );
    assert_eq!(reader.scalar::<i32>(OP, "contactnumber"), Ok(5));
    assert_eq!(reader.string(OP, "email").unwrap(), "%zz");
    assert_eq!(reader.string(OP, "timestamp").unwrap(), "t");
    assert_eq!(reader.string(OP, "mobilekey").unwrap(), "k");
    let reader = query("&&&a=1&&");
    assert_eq!(reader.scalar::<i32>(OP, "a"), Ok(1));
}

#[test]
fn reader_splits_at_the_first_equals_sign() {
    let reader = query("sig=a=b==&empty=&eq==");
    assert_eq!(reader.string(OP, "sig").unwrap(), "a=b==");
    assert_eq!(reader.string(OP, "empty").unwrap(), "");
    assert_eq!(reader.string(OP, "eq").unwrap(), "=");
}

#[test]
fn reader_decodes_names_too() {
    let reader = query("e%6Dail=x&first+name=y&caf%C3%A9=z");
    assert_eq!(reader.string(OP, "email").unwrap(), "x");
    assert_eq!(reader.string(OP, "first name").unwrap(), "y");
    assert_eq!(reader.string(OP, "café").unwrap(), "z");
}

#[test]
fn reader_segment_without_equals_matches_nothing() {
    for source in [FormSource::Query, FormSource::Body] {
        let reader = FormReader::parse(b"email&sig=s", source).unwrap();
        assert_eq!(
            reader.string(OP, "email"),
            Err(RequestError::MissingParameter {
                operation: OP,
                param: "email",
                binding: source.binding()
            })
        );
        assert_eq!(reader.string(OP, "sig").unwrap(), "s");
    }
}

#[test]
fn reader_borrows_when_nothing_is_decoded() {
    let reader = query("a=plain&b=x%41&c=x+y&%41=v");
    let pair = |i: usize| &reader.pairs[i];
    assert!(matches!(pair(0).name, Some(Cow::Borrowed("a"))));
    assert!(matches!(pair(0).value, Cow::Borrowed("plain")));
    assert!(matches!(pair(1).value, Cow::Owned(ref v) if v == "xA"));
    assert!(matches!(pair(2).value, Cow::Owned(ref v) if v == "x y"));
    assert!(matches!(pair(3).name, Some(Cow::Owned(ref n)) if n == "A"));
    assert!(matches!(pair(3).value, Cow::Borrowed("v")));
}

#[test]
fn reader_refuses_invalid_utf8_after_decoding() {
    let invalid = |input: &[u8], source| FormReader::parse(input, source).unwrap_err();
    assert_eq!(
        invalid(b"email=%C3", FormSource::Query),
        RequestError::InvalidUtf8 {
            part: "query string"
        }
    );
    assert_eq!(
        invalid(b"email=%FF+x", FormSource::Body),
        RequestError::InvalidUtf8 { part: "form body" }
    );
    assert_eq!(
        invalid(b"%E9t%E9=1", FormSource::Body),
        RequestError::InvalidUtf8 { part: "form body" }
    );
    assert_eq!(
        invalid(b"a=\xff", FormSource::Query),
        RequestError::InvalidUtf8 {
            part: "query string"
        }
    );
    // Even a parameter nobody asks for.
    assert_eq!(
        invalid(b"a=1&unused=%80", FormSource::Query),
        RequestError::InvalidUtf8 {
            part: "query string"
        }
    );
}

#[test]
fn reader_of_empty_input_has_no_parameters() {
    let reader = query("");
    assert_eq!(
        reader.scalar::<i32>(OP, "accountnumber"),
        Err(RequestError::MissingParameter {
            operation: OP,
            param: "accountnumber",
            binding: Binding::HttpGet
        })
    );
}

// ---- FormReader: lookups ----

#[test]
fn lookup_names_are_case_insensitive() {
    // get-op12-param-name-case.txt.
    let reader = query("ACCOUNTNUMBER=1001&Email=jane.doe%40example.com&PRIMARY=true");
    assert_eq!(reader.scalar::<i32>(OP, "accountnumber"), Ok(1001));
    assert_eq!(reader.string(OP, "email").unwrap(), "jane.doe@example.com");
    assert_eq!(reader.scalar::<bool>(OP, "primary"), Ok(true));
}

#[test]
fn lookup_reports_missing_parameters_with_the_binding() {
    // get-op12-missing-int.txt and post-op12-missing-string.txt.
    let reader = query("accountnumber=1001");
    assert_eq!(
        reader.scalar::<i32>(OP, "contactnumber"),
        Err(RequestError::MissingParameter {
            operation: OP,
            param: "contactnumber",
            binding: Binding::HttpGet
        })
    );
    let reader = body("accountnumber=1001");
    assert_eq!(
        reader.string(OP, "email"),
        Err(RequestError::MissingParameter {
            operation: OP,
            param: "email",
            binding: Binding::HttpPost
        })
    );
    // A prefix or a longer name is not the parameter.
    let reader = body("emai=x&emails=y");
    assert!(matches!(
        reader.string(OP, "email"),
        Err(RequestError::MissingParameter { .. })
    ));
}

#[test]
fn lookup_refuses_repeated_parameters() {
    // get-op12-repeated-param.txt: the host would read "a,b".
    let reader = query("email=jane.doe%40example.com&sig=abc&email=second%40example.com");
    assert_eq!(
        reader.string(OP, "email"),
        Err(RequestError::RepeatedParameter {
            operation: OP,
            param: "email",
            count: 2
        })
    );
    // In any case, and even with equal values.
    let reader = body("n=1&N=1&n=1");
    assert_eq!(
        reader.scalar::<i32>(OP, "n"),
        Err(RequestError::RepeatedParameter {
            operation: OP,
            param: "n",
            count: 3
        })
    );
    assert_eq!(
        reader.string(OP, "sig"),
        Err(RequestError::MissingParameter {
            operation: OP,
            param: "sig",
            binding: Binding::HttpPost
        })
    );
}

#[test]
fn lookup_ignores_unknown_parameters() {
    // get-op12-extra-param.txt.
    let reader = query("accountnumber=1001&extra=whatever&another");
    assert_eq!(reader.scalar::<i32>(OP, "accountnumber"), Ok(1001));
}

#[test]
fn lookup_applies_the_http_value_rules() {
    let reader = query("padded=%201001%20&True=True&one=1&decimal=-0012.3400&empty=&comma=1%2C5&big=2147483648&e=1E2");
    assert_eq!(reader.scalar::<i32>(OP, "padded"), Ok(1001));
    assert_eq!(reader.scalar::<bool>(OP, "True"), Ok(true));
    assert_eq!(
        reader.scalar::<Decimal>(OP, "decimal").unwrap().to_string(),
        "-12.3400"
    );
    assert_eq!(
        reader.scalar::<bool>(OP, "one"),
        Err(RequestError::InvalidValue {
            operation: OP,
            param: "one",
            ty: SoapType::Boolean,
            value: "1".into(),
            error: ValueError::NotBoolean {
                accepted: "true or false, in any case"
            },
        })
    );
    assert_eq!(
        reader.scalar::<i32>(OP, "empty"),
        Err(RequestError::InvalidValue {
            operation: OP,
            param: "empty",
            ty: SoapType::Int,
            value: String::new(),
            error: ValueError::Empty,
        })
    );
    assert_eq!(
        reader.scalar::<Decimal>(OP, "comma"),
        Err(RequestError::InvalidValue {
            operation: OP,
            param: "comma",
            ty: SoapType::Decimal,
            value: "1,5".into(),
            error: ValueError::DecimalComma,
        })
    );
    assert!(matches!(
        reader.scalar::<i32>(OP, "big"),
        Err(RequestError::InvalidValue {
            error: ValueError::OutOfRange {
                ty: crate::SoapType::Int
            },
            ..
        })
    ));
    assert!(matches!(
        reader.scalar::<Decimal>(OP, "e"),
        Err(RequestError::InvalidValue {
            ty: SoapType::Decimal,
            error: ValueError::DecimalExponent,
            ..
        })
    ));
    // An empty string is a value, not an absence.
    assert_eq!(reader.string(OP, "empty").unwrap(), "");
}

#[test]
fn lookup_error_quotes_the_value_after_decoding() {
    let reader = body("n=%C3%A9+1");
    match reader.scalar::<i32>(OP, "n") {
        Err(RequestError::InvalidValue {
            value,
            error: ValueError::NotInteger,
            ..
        }) => assert_eq!(value, "é 1"),
        other => panic!("{other:?}"),
    }
}

// ---- FormReader: request validation ----

#[test]
fn validation_reproduces_the_captured_messages() {
    // get-op01-request-validation.txt.
    let (name, excerpt) = dangerous(
        "repnumber=42&accountnumber=1001&accountname=Acme%20%3CLtd%3E&contactnumber=5&tasktype=Call\
         &taskcomment=Line1%0ALine2%20%22quoted%22%20%27single%27%20100%25%20%2B%20a%3Db%3Bc&sig=abc",
        FormSource::Query,
    );
    assert_eq!(
        (name.as_str(), excerpt.as_str()),
        ("accountname", "Acme <Ltd>")
    );
    // post-op01-request-validation.txt.
    let (name, excerpt) = dangerous(
        "repnumber=42&accountname=Acme+%3CLtd%3E&sig=abc",
        FormSource::Body,
    );
    assert_eq!(
        (name.as_str(), excerpt.as_str()),
        ("accountname", "Acme <Ltd>")
    );
    // post-op12-doctype-in-form-value.txt.
    let (name, excerpt) = dangerous(
        "accountnumber=1001&email=jane.doe%40example.com&sig=%3C%21DOCTYPE+x+%5B%3C%21ENTITY+e+%22v%22%3E%5D%3E&mobilekey=mk-1",
        FormSource::Body,
    );
    assert_eq!(
        (name.as_str(), excerpt.as_str()),
        ("sig", "<!DOCTYPE x [<!...")
    );
    let message = FormReader::parse(
        b"sig=%3C%21DOCTYPE+x+%5B%3C%21ENTITY+e+%22v%22%3E%5D%3E",
        FormSource::Body,
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        message,
        "A potentially dangerous Request.Form value was detected from the client (sig=\"<!DOCTYPE x [<!...\")."
    );
}

#[test]
fn validation_catches_each_dangerous_pattern() {
    for value in [
        "<a",
        "x<Z",
        "<!--",
        "&#60;",
        "a&#x3c;",
        "&#",
        "<<b",
        // Mono's rule: a character below U+0020 after '<' too, and the fullwidth '＜'.
        "<\t",
        "a<\nb",
        "<\u{1}",
        "<\u{1f}",
        "\u{FF1C}a",
        "x\u{FF1C}Z",
        "\u{FF1C}!--",
        "\u{FF1C}\r",
        "\u{FF1C}\u{FF1C}b",
    ] {
        let input = format!(
            "v={}",
            form_urlencoded::byte_serialize(value.as_bytes()).collect::<String>()
        );
        let (name, excerpt) = dangerous(&input, FormSource::Query);
        assert_eq!((name.as_str(), excerpt.as_str()), ("v", value));
    }
}

#[test]
fn validation_lets_harmless_markup_characters_through() {
    for value in [
        "<",
        "a <",
        "1 < 2",
        "<1",
        "< b",
        "<=",
        "<>",
        "<é",
        "&",
        "&amp;",
        "a & #",
        "#&",
        ">b",
        "<_",
        "<-",
        // Mono lets '/' and '?' after '<' through (the Microsoft host did not).
        "</b>",
        "<?xml",
        "a</",
        "<?",
        // '＜' is checked as '<' is, and nothing else fullwidth is.
        "\u{FF1C}",
        "\u{FF1C}1",
        "\u{FF1C}/b",
        "\u{FF1C} b",
        "<\u{FF41}",
        "\u{FF06}#",
        "\u{FF1D}a",
        "\u{FF1B}a",
        // A space is U+0020, not below it.
        "< ",
    ] {
        let input = format!(
            "v={}",
            form_urlencoded::byte_serialize(value.as_bytes()).collect::<String>()
        );
        let reader = FormReader::parse(input.as_bytes(), FormSource::Body)
            .unwrap_or_else(|e| panic!("{value:?} refused: {e}"));
        assert_eq!(reader.string(OP, "v").unwrap(), value);
    }
}

#[test]
fn validation_applies_to_decoded_values_not_raw_ones() {
    // Raw "<" in the input and an escaped one are the same value.
    assert_eq!(dangerous("v=<b>", FormSource::Query).1, "<b>");
    assert_eq!(dangerous("v=%26%23", FormSource::Query).1, "&#");
    // '+' decodes to a space, so this is "< b": harmless.
    assert!(FormReader::parse(b"v=%3C+b", FormSource::Query).is_ok());
}

#[test]
fn validation_covers_unknown_parameters_and_reports_the_name_as_sent() {
    let (name, excerpt) = dangerous(
        "accountnumber=1001&Extra%20Param=%3Cscript%3E",
        FormSource::Body,
    );
    assert_eq!(
        (name.as_str(), excerpt.as_str()),
        ("Extra Param", "<script>")
    );
}

#[test]
fn validation_happens_before_any_lookup_problem() {
    // A repeated, dangerous parameter: the host validates first.
    let (name, excerpt) = dangerous("email=a&email=%3Cb", FormSource::Query);
    // The host's value for a repeated key is all of them joined with ','.
    assert_eq!((name.as_str(), excerpt.as_str()), ("email", "a,<b"));
}

#[test]
fn validation_reports_the_first_key_in_order_of_first_appearance() {
    // Key "a" appears first; its second value is the dangerous one, and the host (walking
    // keys, not pairs) reports "a" with its joined value, not "b".
    let (name, excerpt) = dangerous("a=1&b=%3Cx&A=%3Cy", FormSource::Query);
    assert_eq!((name.as_str(), excerpt.as_str()), ("a", "1,<y"));
    let (name, excerpt) = dangerous("b=%3Cx&a=1&A=%3Cy", FormSource::Query);
    assert_eq!((name.as_str(), excerpt.as_str()), ("b", "<x"));
}

#[test]
fn validation_of_segments_without_equals_follows_the_host() {
    // Query: the segment is a value with no name.
    let (name, excerpt) = dangerous("a=1&%3Cscript%3E", FormSource::Query);
    assert_eq!((name.as_str(), excerpt.as_str()), ("", "<script>"));
    // Form body: the segment is a name with no value, and names are not validated.
    let reader = body("a=1&%3Cscript%3E");
    assert_eq!(reader.scalar::<i32>(OP, "a"), Ok(1));
    // Nor are names anywhere.
    assert!(FormReader::parse(b"%3Cb%3E=1", FormSource::Query).is_ok());
}

#[test]
fn validation_error_path_finds_the_key_among_the_most_values_read() {
    // As many distinct names as are read and one dangerous value at the end (more values
    // are refused before any is validated, as ASP.NET refuses them).
    let mut input = String::new();
    for i in 0..MAX_KEYS - 2 {
        input.push_str(&format!("p{i}=v&"));
    }
    input.push_str("P7=%3Cb&last=%3Cc");
    let (name, excerpt) = dangerous(&input, FormSource::Body);
    assert_eq!((name.as_str(), excerpt.as_str()), ("p7", "v,<b"));
}

#[test]
fn excerpt_truncates_like_the_host() {
    assert_eq!(excerpt(""), "");
    assert_eq!(excerpt("Acme <Ltd>"), "Acme <Ltd>");
    // 18 UTF-16 units still fit (quoted: 20); 19 do not.
    assert_eq!(excerpt("<b>456789012345678"), "<b>456789012345678");
    assert_eq!(excerpt("<b>4567890123456789"), "<b>456789012345...");
    assert_eq!(
        excerpt("<!DOCTYPE x [<!ENTITY e \"v\">]>"),
        "<!DOCTYPE x [<!..."
    );
    // Units, not bytes: "é" is one unit, so 18 of them fit whole.
    assert_eq!(excerpt(&"é".repeat(18)), "é".repeat(18));
    assert_eq!(excerpt(&"é".repeat(19)), format!("{}...", "é".repeat(15)));
    // "☕" is one unit too; "𝄞" is two, and is not cut in half.
    assert_eq!(excerpt(&"☕".repeat(20)), format!("{}...", "☕".repeat(15)));
    assert_eq!(excerpt(&"𝄞".repeat(10)), format!("{}...", "𝄞".repeat(7)));
    assert_eq!(
        excerpt(&format!("{}𝄞x", "a".repeat(17))),
        format!("{}...", "a".repeat(15))
    );
    assert_eq!(
        excerpt(&format!("{}𝄞", "a".repeat(16))),
        format!("{}𝄞", "a".repeat(16))
    );
}
