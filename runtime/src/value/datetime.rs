//! `dateTime`: a .NET `DateTime` as ASMX writes and reads it (`XmlConvert`, with
//! `XmlDateTimeSerializationMode.RoundtripKind`, which XmlSerializer uses).
//!
//! A .NET `DateTime` is a clock reading to 100 ns, from year 1 to 9999, and a kind: no zone
//! (`2026-01-01T00:00:00`), UTC (`…Z`), or local (`…+05:30`). The host converts a reading
//! with an offset to its own zone (a UTC host answers `+00:00`); rmm keeps the offset the
//! reading was sent with: the same instant, its sender's way.
//!
//! Read: the XML Schema `dateTime` form, `yyyy-MM-ddTHH:mm:ss`, up to seven fraction digits,
//! then `Z` or `±hh:mm` or nothing; or a `date` alone, `yyyy-MM-dd` (midnight), which .NET's
//! parser takes too; white space around. Over HTTP GET/POST .NET reads with `DateTime.Parse`,
//! which also takes culture forms (`1/2/2026`, `Jan 2 2026`) whose reading depends on guesses;
//! those are refused.

use chrono::{Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Timelike};

use super::scalar::Scalar;
use super::SoapType;
use crate::{ParamValue, ValueError};

/// What a `DateTime`'s reading is relative to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DateTimeKind {
    /// No zone (.NET `DateTimeKind.Unspecified`): written without a suffix.
    #[default]
    Unspecified,
    /// UTC (.NET `DateTimeKind.Utc`): written with `Z`.
    Utc,
    /// A fixed offset from UTC (.NET `DateTimeKind.Local` in the sender's zone): written
    /// `±hh:mm`.
    Offset(FixedOffset),
}

/// A .NET `DateTime`: the clock reading (to 100 ns) and its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DateTime {
    /// The clock reading.
    pub value: NaiveDateTime,
    /// What it is relative to.
    pub kind: DateTimeKind,
}

impl Default for DateTime {
    /// .NET's `default(DateTime)`: `0001-01-01T00:00:00`, no zone, which an ASMX host reads
    /// for an absent element.
    fn default() -> Self {
        DateTime {
            value: NaiveDate::from_ymd_opt(1, 1, 1)
                .expect("year 1 is a date")
                .and_time(NaiveTime::MIN),
            kind: DateTimeKind::Unspecified,
        }
    }
}

impl DateTime {
    /// A reading without a zone.
    pub fn unspecified(value: NaiveDateTime) -> DateTime {
        DateTime {
            value,
            kind: DateTimeKind::Unspecified,
        }
    }

    /// A UTC reading.
    pub fn utc(value: NaiveDateTime) -> DateTime {
        DateTime {
            value,
            kind: DateTimeKind::Utc,
        }
    }

    /// Whether .NET can hold it: years 1 to 9999, whole 100 ns.
    pub fn fits_dotnet(&self) -> bool {
        (1..=9999).contains(&self.value.year()) && self.value.nanosecond() % 100 == 0
    }
}

/// Appends `v` as `XmlConvert.ToString(v, RoundtripKind)` writes it: the fraction to seven
/// digits without trailing zeros (none when zero), then the kind's suffix. The digits are
/// put in place rather than formatted (`write!` costs more than the rest of a class's
/// members).
fn write(out: &mut String, v: &DateTime) {
    let d = v.value;
    match u32::try_from(d.year()) {
        Ok(year) if year <= 9999 => {
            let mut text = *b"0000-00-00T00:00:00";
            put_digits(&mut text[0..4], year);
            put_digits(&mut text[5..7], d.month());
            put_digits(&mut text[8..10], d.day());
            put_digits(&mut text[11..13], d.hour());
            put_digits(&mut text[14..16], d.minute());
            put_digits(&mut text[17..19], d.second());
            out.push_str(std::str::from_utf8(&text).expect("ASCII digits"));
        }
        _ => {
            use std::fmt::Write as _;
            // Writing into a String cannot fail.
            let _ = write!(
                out,
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
                d.year(),
                d.month(),
                d.day(),
                d.hour(),
                d.minute(),
                d.second()
            );
        }
    }
    let ticks = d.nanosecond() / 100;
    if ticks > 0 {
        let mut fraction = *b".0000000";
        put_digits(&mut fraction[1..], ticks);
        let fraction = std::str::from_utf8(&fraction).expect("ASCII digits");
        out.push_str(fraction.trim_end_matches('0'));
    }
    match v.kind {
        DateTimeKind::Unspecified => {}
        DateTimeKind::Utc => out.push('Z'),
        DateTimeKind::Offset(offset) => {
            let seconds = offset.local_minus_utc();
            let minutes = seconds.unsigned_abs() / 60;
            let mut text = *b"+00:00";
            if seconds < 0 {
                text[0] = b'-';
            }
            put_digits(&mut text[1..3], minutes / 60);
            put_digits(&mut text[4..6], minutes % 60);
            out.push_str(std::str::from_utf8(&text).expect("ASCII digits"));
        }
    }
}

/// Writes `value`'s last `slot.len()` decimal digits over `slot`, zero-padded.
fn put_digits(slot: &mut [u8], mut value: u32) {
    for digit in slot.iter_mut().rev() {
        *digit = b'0' + (value % 10) as u8;
        value /= 10;
    }
}

/// Which reader's rules: `XmlConvert` (SOAP) or `DateTime.Parse` (HTTP GET/POST).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rules {
    Xml,
    Form,
}

/// Reads the forms the module describes; `None` for anything else.
fn read(text: &str, rules: Rules) -> Option<DateTime> {
    let text = text.trim_matches([' ', '\t', '\r', '\n']);
    // Every form read here is ASCII; the byte offsets below rely on it (a character of more
    // than one byte there would cut the text inside it: found by fuzzing).
    if !text.is_ascii() {
        return None;
    }
    let digits = |s: &str| -> Option<u32> {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    // The date: exactly yyyy-MM-dd (.NET takes no sign and four-digit years only).
    let date = text.get(..10)?;
    let (year, rest) = date.split_at(4);
    let (y, m, d) = (
        digits(year)?,
        digits(rest.strip_prefix('-')?.get(..2)?)?,
        digits(rest.get(4..6)?)?,
    );
    if rest.as_bytes().get(3) != Some(&b'-') {
        return None;
    }
    let date = NaiveDate::from_ymd_opt(i32::try_from(y).ok()?, m, d).filter(|_| y >= 1)?;
    let rest = &text[10..];
    let Some(rest) = rest.strip_prefix('T') else {
        // A date alone: midnight, with its zone if any.
        let kind = zone(rest, rules)?;
        return Some(DateTime {
            value: date.and_time(NaiveTime::MIN),
            kind,
        });
    };
    let (clock, rest) = rest.split_at(rest.len().min(8));
    let (h, mi, s) = (
        digits(clock.get(0..2)?)?,
        digits(clock.get(3..5)?)?,
        digits(clock.get(6..8)?)?,
    );
    if clock.as_bytes().get(2) != Some(&b':') || clock.as_bytes().get(5) != Some(&b':') {
        return None;
    }
    let (ticks, rest) = match rest.strip_prefix('.') {
        Some(fraction) => {
            let len = fraction.bytes().take_while(u8::is_ascii_digit).count();
            if len == 0 || len > 7 {
                return None;
            }
            let padded = format!("{:0<7}", &fraction[..len]);
            (padded.parse::<u32>().ok()?, &fraction[len..])
        }
        None => (0, rest),
    };
    let time = NaiveTime::from_hms_nano_opt(h, mi, s, ticks * 100)?;
    Some(DateTime {
        value: date.and_time(time),
        kind: zone(rest, rules)?,
    })
}

/// The kind a zone suffix says: none, `Z`, or `±hh:mm`. `DateTime.Parse` takes offsets
/// within ±14:00 and minutes below 60; XmlConvert (XsdDateTime's parser) takes any two digits
/// for each, `+05:99` being 6 h 39 min: such an offset is read while it stays under a day
/// (what a fixed offset holds; .NET converts it to local time at once).
fn zone(suffix: &str, rules: Rules) -> Option<DateTimeKind> {
    match suffix {
        "" => Some(DateTimeKind::Unspecified),
        // Both readers take a lower-case `z` too.
        "Z" | "z" => Some(DateTimeKind::Utc),
        _ => {
            let (sign, rest) = match suffix.as_bytes().first()? {
                b'+' => (1, &suffix[1..]),
                b'-' => (-1, &suffix[1..]),
                _ => return None,
            };
            if rest.len() != 5 || rest.as_bytes()[2] != b':' {
                return None;
            }
            let hours: i32 = rest[..2].parse().ok()?;
            let minutes: i32 = rest[3..].parse().ok()?;
            let within = match rules {
                Rules::Form => minutes <= 59 && hours * 60 + minutes <= 14 * 60,
                Rules::Xml => hours * 60 + minutes < 24 * 60,
            };
            if !rest[..2]
                .bytes()
                .chain(rest[3..].bytes())
                .all(|b| b.is_ascii_digit())
                || !within
            {
                return None;
            }
            FixedOffset::east_opt(sign * (hours * 3600 + minutes * 60)).map(DateTimeKind::Offset)
        }
    }
}

impl Scalar for DateTime {
    const TYPE: SoapType = SoapType::DateTime;
    // "9999-12-31T23:59:59.9999999+14:00"
    const ROOM: usize = 33;

    fn write_xml(&self, out: &mut String) {
        write(out, self);
    }

    fn write_form(&self, out: &mut String) {
        let mut text = String::new();
        write(&mut text, self);
        // `+` of an offset would read as a space.
        out.push_str(&text.replace('+', "%2B"));
    }

    fn read_xml(text: &str) -> Result<Self, ValueError> {
        if text.trim().is_empty() {
            return Err(ValueError::Empty);
        }
        read(text, Rules::Xml).ok_or(ValueError::NotDateTime)
    }

    fn read_form(text: &str) -> Result<Self, ValueError> {
        if text.trim().is_empty() {
            return Err(ValueError::Empty);
        }
        read(text, Rules::Form).ok_or(ValueError::NotDateTime)
    }

    fn param_value(&self) -> ParamValue<'_> {
        ParamValue::DateTime(*self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(v: DateTime) -> String {
        let mut out = String::new();
        v.write_xml(&mut out);
        out
    }

    fn at(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32, nanos: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(y, mo, d)
            .unwrap()
            .and_hms_nano_opt(h, mi, s, nanos)
            .unwrap()
    }

    /// The digits put in place are what formatting writes, over instants spread across
    /// years 1 to 9999, with fractions and offsets of either sign.
    #[test]
    fn digits_put_in_place_are_the_formatted_ones() {
        let formatted = |v: &DateTime| {
            let d = v.value;
            let mut text = format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
                d.year(),
                d.month(),
                d.day(),
                d.hour(),
                d.minute(),
                d.second()
            );
            let ticks = d.nanosecond() / 100;
            if ticks > 0 {
                text.push('.');
                text.push_str(format!("{ticks:07}").trim_end_matches('0'));
            }
            match v.kind {
                DateTimeKind::Unspecified => {}
                DateTimeKind::Utc => text.push('Z'),
                DateTimeKind::Offset(offset) => {
                    let seconds = offset.local_minus_utc();
                    let minutes = seconds.unsigned_abs() / 60;
                    let sign = if seconds < 0 { '-' } else { '+' };
                    text.push_str(&format!("{sign}{:02}:{:02}", minutes / 60, minutes % 60));
                }
            }
            text
        };
        let first = at(1, 1, 1, 0, 0, 0, 0).and_utc().timestamp();
        let last = at(9999, 12, 31, 23, 59, 59, 0).and_utc().timestamp();
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        for i in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let seconds = first + (state % (last - first) as u64) as i64;
            let nanos = if i % 3 == 0 {
                0
            } else {
                (state >> 40) as u32 % 10_000_000 * 100
            };
            let value = chrono::DateTime::from_timestamp(seconds, nanos)
                .unwrap()
                .naive_utc();
            let offset = (state >> 20) as i32 % (14 * 3600) / 60 * 60;
            let kind = match i % 3 {
                0 => DateTimeKind::Unspecified,
                1 => DateTimeKind::Utc,
                _ => DateTimeKind::Offset(FixedOffset::east_opt(offset).unwrap()),
            };
            let v = DateTime { value, kind };
            assert_eq!(written(v), formatted(&v));
        }
    }

    #[test]
    fn every_kind_is_written_as_roundtripkind_writes_it() {
        assert_eq!(
            written(DateTime::unspecified(at(2026, 1, 1, 0, 0, 0, 0))),
            "2026-01-01T00:00:00"
        );
        assert_eq!(
            written(DateTime::utc(at(2026, 1, 1, 0, 0, 0, 0))),
            "2026-01-01T00:00:00Z"
        );
        let offset = DateTime {
            value: at(2026, 1, 1, 5, 30, 0, 0),
            kind: DateTimeKind::Offset(FixedOffset::east_opt(-(5 * 3600 + 30 * 60)).unwrap()),
        };
        assert_eq!(written(offset), "2026-01-01T05:30:00-05:30");
        assert_eq!(
            written(DateTime::unspecified(at(
                9999,
                12,
                31,
                23,
                59,
                59,
                999_999_900
            ))),
            "9999-12-31T23:59:59.9999999"
        );
        assert_eq!(
            written(DateTime::utc(at(2026, 1, 1, 0, 0, 0, 120_000_000))),
            "2026-01-01T00:00:00.12Z"
        );
        assert_eq!(written(DateTime::default()), "0001-01-01T00:00:00");
    }

    #[test]
    fn the_xsd_forms_read_back() {
        for text in [
            "2026-01-01T00:00:00",
            "2026-01-01T00:00:00Z",
            "2026-01-01T05:30:00+05:30",
            "2026-01-01T05:30:00-14:00",
            "9999-12-31T23:59:59.9999999",
            "0001-01-01T00:00:00.1Z",
        ] {
            let v = DateTime::read_xml(text).unwrap();
            assert_eq!(written(v), text);
        }
        assert_eq!(
            DateTime::read_xml(" 2026-02-03 "),
            Ok(DateTime::unspecified(at(2026, 2, 3, 0, 0, 0, 0)))
        );
        assert_eq!(
            DateTime::read_xml("2026-01-01T00:00:00.50"),
            Ok(DateTime::unspecified(at(2026, 1, 1, 0, 0, 0, 500_000_000)))
        );
    }

    #[test]
    fn other_forms_are_refused() {
        for bad in [
            "2026-1-1T00:00:00",
            "2026-01-01 00:00:00",
            "2026-01-01T00:00",
            "2026-01-01T00:00:00.12345678",
            "2026-01-01T24:00:00",
            "2026-02-30T00:00:00",
            "0000-01-01T00:00:00",
            "2026-01-01T00:00:00+24:00",
            "2026-01-01T00:00:00+0530",
            "1/2/2026",
            "Jan 2 2026",
            "-2026-01-01T00:00:00",
        ] {
            assert_eq!(
                DateTime::read_xml(bad),
                Err(ValueError::NotDateTime),
                "{bad}"
            );
        }
        assert_eq!(DateTime::read_xml(""), Err(ValueError::Empty));
    }

    #[test]
    fn xmlconvert_takes_any_two_digit_offset_and_datetime_parse_fourteen_hours() {
        let reading = at(2026, 1, 1, 5, 30, 0, 0);
        let offset = |seconds| DateTimeKind::Offset(FixedOffset::east_opt(seconds).unwrap());
        for (text, kind) in [
            ("2026-01-01T05:30:00z", DateTimeKind::Utc),
            ("2026-01-01T05:30:00+14:01", offset(14 * 3600 + 60)),
            ("2026-01-01T05:30:00+05:99", offset(6 * 3600 + 39 * 60)),
            ("2026-01-01T05:30:00-23:59", offset(-(23 * 3600 + 59 * 60))),
        ] {
            let want = DateTime {
                value: reading,
                kind,
            };
            assert_eq!(DateTime::read_xml(text), Ok(want), "{text}");
        }
        assert_eq!(
            DateTime::read_form("2026-01-01T05:30:00z"),
            Ok(DateTime::utc(reading))
        );
        for bad in [
            "2026-01-01T05:30:00+14:01",
            "2026-01-01T05:30:00+05:60",
            "2026-01-01T05:30:00-15:00",
        ] {
            assert_eq!(
                DateTime::read_form(bad),
                Err(ValueError::NotDateTime),
                "{bad}"
            );
        }
        // A day or more is no offset a reading can keep.
        assert_eq!(
            DateTime::read_xml("2026-01-01T05:30:00+99:99"),
            Err(ValueError::NotDateTime)
        );
    }

    #[test]
    fn over_http_an_offset_keeps_its_plus() {
        let v = DateTime::read_xml("2026-01-01T05:30:00+05:30").unwrap();
        let mut out = String::new();
        v.write_form(&mut out);
        assert_eq!(out, "2026-01-01T05:30:00%2B05:30");
    }
}
