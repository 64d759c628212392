//! The types service's cases: one value of one type (`tests/types/rmm-spec.yaml`, each
//! `Echo*` operation of the second reference service), in one of many lexical forms, on one
//! of the bindings its operation is offered on. Where the Mobile cases change every part of
//! a request, these change the one thing the other simple types add: how each value is read.
//!
//! Every case's class is `types:{type}:{binding}` (`types:double:get`); the forms of each type
//! are those .NET's readers (XmlConvert over SOAP, `Convert.ChangeType` and `Enum.Parse` over
//! GET/POST) treat apart: bounds and one past them, signs, white space, case, exponents,
//! other digits, each kind of date and zone, base64 padding, enum names, numbers and lists.

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use rmm_codegen::spec::{BindingName, Spec};

use super::generate::xml_text;
use super::Case;
use crate::record::RECORDED_HOST;

/// The lexical forms tried for each type (by the spec's type name).
fn forms(ty: &str) -> &'static [&'static str] {
    match ty {
        "int" => &[
            "0",
            "-2147483648",
            "2147483647",
            "2147483648",
            "-2147483649",
            "+5",
            "-0",
            "007",
            " 5 ",
            "5\t",
            "1e3",
            "1.0",
            "0x10",
            "",
            "\u{663}",
            "\u{a0}5",
            "\u{2212}5",
            "1,000",
        ],
        "long" => &[
            "-9223372036854775808",
            "9223372036854775807",
            "9223372036854775808",
            "+0",
            "-0",
            " 42",
            "4.0",
            "",
        ],
        "short" => &["-32768", "32767", "32768", "-32769", "+1", " -7 ", ""],
        "byte" => &["-128", "127", "128", "-129", "+1", "-0", " 1"],
        "unsignedByte" => &["0", "255", "256", "-1", "+5", "-0", " 7 ", "0255"],
        "unsignedShort" => &["65535", "65536", "-1", "+1", "-0", "1e2"],
        "unsignedInt" => &["4294967295", "4294967296", "-1", "+5", "-0", " 3"],
        "unsignedLong" => &[
            "18446744073709551615",
            "18446744073709551616",
            "-1",
            "+5",
            "-0",
            "00",
        ],
        "float" => &[
            "1.5",
            "-0",
            "INF",
            "-INF",
            "Infinity",
            "-Infinity",
            "NaN",
            "nan",
            "inf",
            "3.4028235E+38",
            "3.4028236E+38",
            "1E-45",
            "1E-46",
            "1e39",
            "1,5",
            " 2.5 ",
            ".5",
            "5.",
            "+.5",
            "1e",
            "0.1",
            "16777217",
            "",
        ],
        "double" => &[
            "1.5",
            "-0",
            "INF",
            "-INF",
            "Infinity",
            "-Infinity",
            "NaN",
            "1e309",
            "-1e309",
            "1.7976931348623157E+308",
            "1.7976931348623159E+308",
            "4.9E-324",
            "2E-324",
            "1E-400",
            "0.1",
            "1,5",
            " -2.25 ",
            ".5",
            "5.",
            "1e+2",
            "1E2",
            "0x1p3",
            "0.30000000000000004",
            "123456789012345678901234567890",
            "",
        ],
        "decimal" => &[
            "1.50",
            "-0",
            "0.0",
            "+1",
            ".5",
            "5.",
            "1e3",
            "1,5",
            " 1 ",
            "79228162514264337593543950335",
            "79228162514264337593543950336",
            "0.0000000000000000000000000001",
            "0.00000000000000000000000000001",
            "-79228162514264337593543950335.5",
            "",
        ],
        "boolean" => &[
            "true", "false", "1", "0", "True", "FALSE", " true ", "yes", "2", "",
        ],
        "char" => &[
            "65", "0", "65535", "65536", "-1", "55296", "57343", "A", "AB", "\u{e9}", " 65 ", "",
            " ", "+65",
        ],
        "guid" => &[
            "01234567-89ab-cdef-fedc-ba9876543210",
            "01234567-89AB-CDEF-FEDC-BA9876543210",
            "{01234567-89ab-cdef-fedc-ba9876543210}",
            "(01234567-89ab-cdef-fedc-ba9876543210)",
            "0123456789abcdeffedcba9876543210",
            "{0x01234567,0x89ab,0xcdef,{0xfe,0xdc,0xba,0x98,0x76,0x54,0x32,0x10}}",
            " 01234567-89ab-cdef-fedc-ba9876543210 ",
            "01234567-89ab-cdef-fedc-ba987654321",
            "{0123456789abcdeffedcba9876543210}",
            "(0123456789abcdeffedcba9876543210)",
            "{0x1234567,0x89ab,0xcdef,{0xfe,0xdc,0xba,0x98,0x76,0x54,0x32,0x100}}",
            "{ 0x01234567, 0x89ab,0xcdef,{0xfe,0xdc,0xba,0x98,0x76,0x54,0x32,0x10} }",
            "",
        ],
        "dateTime" => &[
            "2026-01-01T05:30:00",
            "2026-01-01T05:30:00Z",
            "2026-01-01T05:30:00+02:00",
            "2026-01-01T05:30:00-00:00",
            "2026-01-01T05:30:00+14:00",
            "2026-01-01T05:30:00+14:01",
            "2026-01-01T05:30:00+05:99",
            "2026-01-01T05:30:00-23:59",
            "2026-01-01T05:30:00+24:00",
            "2026-01-01T05:30:00z",
            "2026-01-01T05:30:00.1234567",
            "2026-01-01T05:30:00.12345678",
            "2026-01-01T05:30:00.1",
            "2026-01-01",
            "2026-01-01Z",
            "2026-01-01T24:00:00",
            "0001-01-01T00:00:00",
            "9999-12-31T23:59:59.9999999",
            "10000-01-01T00:00:00",
            "2026-02-29T00:00:00",
            "2024-02-29T00:00:00",
            "2026-1-1T00:00:00",
            "01/02/2026",
            "2026-01-01 05:30:00",
            " 2026-01-01T05:30:00 ",
            "2026-01-01T05:30",
            "2026-01-01T05:30:00.",
            "",
        ],
        // A date: the forms SOAP's date reader and GET/POST's DateTime reader treat alike
        // (a date, a dateTime, white space, days that are not); the zones and the partial
        // forms, where they part, are recorded cases (tests/fixtures/types/asmx/*-echo-date-*).
        "date" => &[
            "2001-02-03",
            "2001-02-03T04:05:06",
            " 2001-02-03 ",
            "2001-02-30",
            "2024-02-29",
            "2026-02-29",
            "0001-01-01",
            "9999-12-31",
            "",
        ],
        "base64Binary" => &[
            "AAH+/w==",
            "AAH+/w",
            "AAH+/w=",
            " AAH+ /w== ",
            "QQ==QQ==",
            "@@@@",
            "",
            "QQ",
            "QQ=",
            "-_8=",
        ],
        // An enum (the service's Level): wire names, member names, case, numbers, lists.
        _ => &[
            "Low",
            "High",
            "very-high",
            "VeryHigh",
            "high",
            " High ",
            "2",
            "1,2",
            "Low, High",
            "",
            "-1",
            "4",
            "Normal ",
        ],
    }
}

/// Over GET/POST a `byte[]` is one pair per byte: the forms of one such byte.
const BYTE_PAIRS: &[&str] = &["0", "255", "256", "-1", "+1", " 1 ", "", "0x1", "1e1"];

/// One `Echo*` operation of the spec: its name, its parameter's type, and the bindings it is
/// offered on (a nullable parameter's are SOAP only).
struct Echo {
    name: String,
    ty: String,
    bindings: Vec<BindingName>,
}

fn echoes() -> Vec<Echo> {
    let path = rmm_tests::root().join("tests/types/rmm-spec.yaml");
    let text = std::fs::read_to_string(&path).expect("tests/types/rmm-spec.yaml");
    let spec: Spec = rmm_codegen::spec::parse(&text, "tests/types/rmm-spec.yaml").expect("valid");
    spec.operations
        .iter()
        .filter(|op| op.params.len() == 1 && op.name.starts_with("Echo"))
        .map(|op| Echo {
            name: op.name.clone(),
            ty: spec.type_name(op.params[0].ty).to_owned(),
            bindings: op.bindings.clone(),
        })
        .collect()
}

/// `count` cases from `rng`.
pub(crate) fn cases(rng: &mut ChaCha8Rng, count: usize) -> Vec<Case> {
    let echoes = echoes();
    (0..count)
        .map(|_| {
            let echo = echoes.choose(rng).expect("echo operations");
            let binding = *echo.bindings.choose(rng).expect("bindings");
            one(rng, echo, binding)
        })
        .collect()
}

fn one(rng: &mut ChaCha8Rng, echo: &Echo, binding: BindingName) -> Case {
    let class = format!("types:{}:{}", echo.ty, binding.name());
    let request = match binding {
        BindingName::Soap11 | BindingName::Soap12 => {
            let text = forms(&echo.ty).choose(rng).expect("forms");
            // Now and then the element itself: nil (nullable or not), or absent.
            let element = match rng.random_range(0..12) {
                0 => r#"<value xsi:nil="true" />"#.to_owned(),
                1 => String::new(),
                _ => format!("<value>{}</value>", xml_text(text)),
            };
            soap(binding, &echo.name, &element)
        }
        BindingName::Get | BindingName::Post => {
            let pairs = if echo.ty == "base64Binary" {
                let n = rng.random_range(1..4);
                (0..n)
                    .map(|_| pair(BYTE_PAIRS.choose(rng).expect("bytes")))
                    .collect::<Vec<_>>()
                    .join("&")
            } else {
                pair(forms(&echo.ty).choose(rng).expect("forms"))
            };
            if binding == BindingName::Get {
                request(&format!("GET {}/{}?{pairs}", PATH, echo.name), &[], b"")
            } else {
                request(
                    &format!("POST {}/{}", PATH, echo.name),
                    &["Content-Type: application/x-www-form-urlencoded"],
                    pairs.as_bytes(),
                )
            }
        }
    };
    Case {
        class,
        request,
        service: super::Service::Types,
    }
}

const PATH: &str = "/api/rmm/TypesService.asmx";
const NS: &str = "http://rmm.example.com/types";

fn pair(value: &str) -> String {
    let value: String = form_urlencoded::byte_serialize(value.as_bytes()).collect();
    format!("value={value}")
}

/// A SOAP request of `op` whose operation element holds `element`.
pub(super) fn soap(binding: BindingName, op: &str, element: &str) -> Vec<u8> {
    let (prefix, env, content_type) = if binding == BindingName::Soap12 {
        (
            "soap12",
            "http://www.w3.org/2003/05/soap-envelope",
            format!("application/soap+xml; charset=utf-8; action=\"{NS}/{op}\""),
        )
    } else {
        (
            "soap",
            "http://schemas.xmlsoap.org/soap/envelope/",
            "text/xml; charset=utf-8".to_owned(),
        )
    };
    let body = format!(
        r#"<?xml version="1.0" encoding="utf-8"?><{prefix}:Envelope xmlns:{prefix}="{env}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><{prefix}:Body><{op} xmlns="{NS}">{element}</{op}></{prefix}:Body></{prefix}:Envelope>"#
    );
    let content_type = format!("Content-Type: {content_type}");
    let action = format!("SOAPAction: \"{NS}/{op}\"");
    let mut headers = vec![content_type.as_str()];
    if binding == BindingName::Soap11 {
        headers.push(action.as_str());
    }
    request(&format!("POST {PATH}"), &headers, body.as_bytes())
}

/// `GET {PATH}/{rest}`.
pub(super) fn get(rest: &str) -> Vec<u8> {
    request(&format!("GET {PATH}/{rest}"), &[], b"")
}

fn request(line: &str, headers: &[&str], body: &[u8]) -> Vec<u8> {
    let mut head = format!("{line} HTTP/1.1\r\nHost: {RECORDED_HOST}\r\n");
    for header in headers {
        head.push_str(header);
        head.push_str("\r\n");
    }
    if !line.starts_with("GET ") {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("Connection: close\r\n\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}
