//! The deliberate differences of the types service's cases (`super::types`): where the host
//! answers 200 with a value it changed or guessed, and we keep the value or refuse. Each rule
//! is also a named case of `tests/fixtures/types/asmx/` (`rmm_tests::types_service::DELIBERATE`).

use crate::raw::Raw;
use rmm_codegen::spec::BindingName;
use rmm_types::runtime::Scalar;
use rmm_types::{DateTime, DateTimeKind};

use super::deliberate::{ours_says, Deliberate};
use super::types::{get, soap};

/// The dateTime a result holds (SOAP's `…Result` element, or GET/POST's root), read.
fn result_date_time(raw: &Raw) -> Option<DateTime> {
    let body = String::from_utf8_lossy(&raw.body);
    let text = rmm_tests::captures::between(&body, "Result>", "</")
        .or_else(|| rmm_tests::captures::between(&body, "\">", "</dateTime>"))?;
    DateTime::read_xml(text).ok()
}

/// The instant a dateTime with a zone names, in UTC.
fn instant(value: &DateTime) -> Option<rmm_types::runtime::deps::chrono::NaiveDateTime> {
    match value.kind {
        DateTimeKind::Utc => Some(value.value),
        DateTimeKind::Offset(offset) => Some(value.value - offset),
        DateTimeKind::Unspecified => None,
    }
}

/// Both answers hold a dateTime with a zone, and both name the same instant.
fn same_instant(_: &[u8], mono: &Raw, ours: &Raw) -> bool {
    match (result_date_time(mono), result_date_time(ours)) {
        (Some(m), Some(o)) => instant(&m).is_some() && instant(&m) == instant(&o),
        _ => false,
    }
}

/// The request's dateTime has more than seven fraction digits.
fn finer_than_100ns(request: &[u8], _: &Raw, ours: &Raw) -> bool {
    let text = String::from_utf8_lossy(request);
    let fraction = text
        .split_once("value")
        .and_then(|(_, rest)| rest.split_once('.'))
        .map(|(_, after)| after.bytes().take_while(u8::is_ascii_digit).count());
    fraction.is_some_and(|n| n > 7) && ours_says(ours, "is not a dateTime")
}

/// Whether the request is an HTTP GET or POST call (not SOAP).
fn over_http(request: &[u8]) -> bool {
    let head = String::from_utf8_lossy(request);
    head.starts_with("GET ") || head.contains("application/x-www-form-urlencoded")
}

/// Over GET/POST, a dateTime ours refuses as not one of the XSD forms (the host's
/// `DateTime.Parse` reads culture forms by guessing).
fn not_an_xsd_date_time(request: &[u8], mono: &Raw, ours: &Raw) -> bool {
    over_http(request)
        && !finer_than_100ns(request, mono, ours)
        && ours_says(ours, "is not a dateTime")
}

/// Over SOAP, a dateTime whose offset is a day or more (`+24:00`, `+99:99`), which
/// XmlConvert reads.
fn offset_of_a_day(request: &[u8], _: &Raw, ours: &Raw) -> bool {
    let text = String::from_utf8_lossy(request);
    let offset = text
        .split_once("<value>")
        .and_then(|(_, rest)| rest.split_once("</value>"))
        .and_then(|(value, _)| value.trim().get(19..))
        .map(|zone| zone.trim_start_matches(|c: char| c == '.' || c.is_ascii_digit()))
        .and_then(|zone| zone.get(1..3))
        .and_then(|hours| hours.parse::<u32>().ok());
    !over_http(request) && offset.is_some_and(|h| h >= 24) && ours_says(ours, "is not a dateTime")
}

/// Over GET/POST, an enum value that `Enum.Parse` reads and ours refuses: a number or a
/// comma list.
fn enum_number_or_list(request: &[u8], _: &Raw, ours: &Raw) -> bool {
    let text = String::from_utf8_lossy(request);
    let value = text
        .split_once("value=")
        .map(|(_, rest)| rest.split([' ', '&', '\r']).next().unwrap_or(""))
        .unwrap_or("");
    let decoded: String = form_urlencoded::parse(format!("v={value}").as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default();
    let trimmed = decoded.trim();
    (trimmed.contains(',') || trimmed.parse::<i64>().is_ok()) && ours_says(ours, "is not one of")
}

/// A char that is a lone UTF-16 surrogate (55296 to 57343).
fn lone_surrogate(_: &[u8], _: &Raw, ours: &Raw) -> bool {
    ours_says(ours, "which no Rust char holds")
}

/// `xsi:nil` on a parameter the schema does not declare nillable (a string or `byte[]`).
fn nil_not_nillable(request: &[u8], _: &Raw, ours: &Raw) -> bool {
    String::from_utf8_lossy(request).contains("xsi:nil=\"true\"") && ours_says(ours, "xsi:nil")
}

/// A number with a comma, which the host's `Convert` reads as a thousands separator.
fn comma(_: &[u8], _: &Raw, ours: &Raw) -> bool {
    ours_says(ours, "it contains a comma")
}

/// A decimal with more digits than `System.Decimal` holds, which .NET rounds away.
fn too_many_decimal_digits(_: &[u8], _: &Raw, ours: &Raw) -> bool {
    ours_says(ours, "more digits than a decimal can hold")
}

/// The rules, by class prefix (`types:dateTime`, …).
pub(crate) const TYPES_DELIBERATE: &[Deliberate] = &[
    Deliberate {
        class: "types:",
        mono_status: 200,
        ours_status: 500,
        when: nil_not_nillable,
        example: || {
            soap(
                BindingName::Soap11,
                "EchoString",
                r#"<value xsi:nil="true" />"#,
            )
        },
        why: "xsi:nil on a string or byte[] parameter, which the schema does not declare \
              nillable: the host reads an empty value (as for the Mobile service); we refuse",
    },
    Deliberate {
        class: "types:",
        mono_status: 200,
        ours_status: 500,
        when: comma,
        example: || get("EchoDouble?value=1%2C5"),
        why: "over GET/POST the host reads a comma in a number as a thousands separator \
              (1,5 is 15), as for decimals; we refuse",
    },
    Deliberate {
        class: "types:decimal",
        mono_status: 200,
        ours_status: 500,
        when: too_many_decimal_digits,
        example: || get("EchoDecimal?value=0.00000000000000000000000000001"),
        why: "a decimal with more digits than System.Decimal holds: the host rounds them away \
              silently (as for the Mobile service); we refuse",
    },
    Deliberate {
        class: "types:dateTime",
        mono_status: 200,
        ours_status: 200,
        when: same_instant,
        example: || {
            soap(
                BindingName::Soap11,
                "EchoDateTime",
                "<value>2026-01-01T05:30:00+02:00</value>",
            )
        },
        why: "a dateTime with an offset (or Z over GET/POST) is kept as sent; the host \
              converts it to its own zone and writes that zone's offset: the same instant",
    },
    Deliberate {
        class: "types:dateTime",
        mono_status: 200,
        ours_status: 500,
        when: finer_than_100ns,
        example: || {
            soap(
                BindingName::Soap11,
                "EchoDateTime",
                "<value>2026-01-01T05:30:00.123456789</value>",
            )
        },
        why: "a dateTime finer than 100 ns: the host rounds it to seven fraction digits \
              silently; we refuse it",
    },
    Deliberate {
        class: "types:dateTime",
        mono_status: 200,
        ours_status: 500,
        when: not_an_xsd_date_time,
        example: || get("EchoDateTime?value=01%2F02%2F2026"),
        why: "over GET/POST the host reads any form DateTime.Parse reads, a culture's by \
              guessing (01/02/2026); we read the XSD forms only",
    },
    Deliberate {
        class: "types:dateTime",
        mono_status: 200,
        ours_status: 500,
        when: offset_of_a_day,
        example: || {
            soap(
                BindingName::Soap11,
                "EchoDateTime",
                "<value>2026-01-01T05:30:00+99:99</value>",
            )
        },
        why: "a dateTime whose offset is a day or more (+24:00 to +99:99), which XmlConvert \
              reads and converts to the host's zone; no zone has one, and no reading keeps it",
    },
    Deliberate {
        class: "types:Level",
        mono_status: 200,
        ours_status: 500,
        when: enum_number_or_list,
        example: || get("EchoLevel?value=2"),
        why: "over GET/POST Enum.Parse reads a number as the value of that number (any number, \
              defined or not) and a comma list as its values or-ed; we read member names only",
    },
    Deliberate {
        class: "types:char",
        mono_status: 200,
        ours_status: 500,
        when: lone_surrogate,
        example: || soap(BindingName::Soap11, "EchoChar", "<value>55296</value>"),
        why: "a char that is a lone UTF-16 surrogate: the host echoes it; it is no character \
              and no Rust char holds it",
    },
];
