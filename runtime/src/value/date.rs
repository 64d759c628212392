//! `date`: a .NET `DateTime` that XmlSerializer carries as an XML Schema `date`
//! (`[XmlElement(DataType = "date")] DateTime`), as ASMX writes and reads it.
//!
//! Over SOAP, its date alone: written `yyyy-MM-dd` (`XmlCustomFormatter.FromDate`), read in
//! `yyyy-MM-dd`, `yyyy-MM` (the first day) or `yyyy` (the first of January), the first two
//! with a zone (`Z`, `±hh:mm`), white space around. A date with an offset is the host's reading
//! of that midnight in its own zone; the reference host's zone is UTC, and rmm reads it so
//! (`2001-02-03+05:00` is `2001-02-02`, `2001-02-03-05:00` is `2001-02-03`). The forms without
//! a year (`--02-03`, `---03`, `--02--`), which the host completes with the current year or
//! month, so that the same request answers differently as time passes, are refused.
//!
//! Over HTTP GET/POST the `DataType` plays no part: .NET reads the parameter with
//! `DateTime.Parse` and writes the result as the `DateTime` it is (`<dateTime>…</dateTime>`),
//! so a [`Date`] holds a whole [`DateTime`], and carries its time of day there.

use chrono::{Datelike, Days, NaiveDate, NaiveTime};

use super::datetime::DateTime;
use super::scalar::Scalar;
use super::SoapType;
use crate::{ParamValue, ValueError};

/// A .NET `DateTime` carried as an XML Schema `date`: its date over SOAP, the whole reading
/// over HTTP GET/POST (see the module).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Date(pub DateTime);

impl Date {
    /// The midnight of `date`, no zone: what a host reads from `yyyy-MM-dd`.
    pub fn new(date: NaiveDate) -> Date {
        Date(DateTime::unspecified(date.and_time(NaiveTime::MIN)))
    }

    /// Its calendar date.
    pub fn date(&self) -> NaiveDate {
        self.0.value.date()
    }
}

impl From<NaiveDate> for Date {
    fn from(date: NaiveDate) -> Date {
        Date::new(date)
    }
}

/// Appends `date` as `yyyy-MM-dd`.
pub(crate) fn write(out: &mut String, date: NaiveDate) {
    use std::fmt::Write as _;
    // Writing into a String cannot fail.
    let _ = write!(
        out,
        "{:04}-{:02}-{:02}",
        date.year(),
        date.month(),
        date.day()
    );
}

/// Reads the forms the module describes; `None` for anything else.
pub(crate) fn read(text: &str) -> Option<NaiveDate> {
    let text = text.trim_matches([' ', '\t', '\n', '\r']);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    // The year alone takes no zone.
    if text.len() == 4 && digits(text) {
        return NaiveDate::from_ymd_opt(text.parse().ok()?, 1, 1).filter(|d| d.year() >= 1);
    }
    let (year, rest) = (text.get(..4)?, text.get(4..)?);
    if !digits(year) || !rest.starts_with('-') {
        return None;
    }
    let month = rest.get(1..3)?;
    let rest = &rest[3..];
    let (day, zone) = match rest.strip_prefix('-') {
        Some(after) => (Some(after.get(..2)?), after.get(2..)?),
        None => (None, rest),
    };
    if !digits(month) || day.is_some_and(|d| !digits(d)) {
        return None;
    }
    let date = NaiveDate::from_ymd_opt(
        year.parse().ok()?,
        month.parse().ok()?,
        day.map_or(Some(1), |d| d.parse().ok())?,
    )?;
    if date.year() < 1 {
        return None;
    }
    // The zone: its midnight, in the host's zone (UTC): a day earlier east of Greenwich.
    let east = match zone {
        "" | "Z" => false,
        _ => {
            let (sign, hhmm) = (zone.get(..1)?, zone.get(1..)?);
            let (hours, minutes) = (hhmm.get(..2)?, hhmm.get(2..)?.strip_prefix(':')?);
            if !matches!(sign, "+" | "-") || !digits(hours) || !digits(minutes) {
                return None;
            }
            let (hours, minutes): (u32, u32) = (hours.parse().ok()?, minutes.parse().ok()?);
            if minutes > 59 || hours * 60 + minutes > 14 * 60 {
                return None;
            }
            sign == "+" && hours * 60 + minutes > 0
        }
    };
    if east {
        date.checked_sub_days(Days::new(1))
            .filter(|d| d.year() >= 1)
    } else {
        Some(date)
    }
}

impl Scalar for Date {
    const TYPE: SoapType = SoapType::Date;
    // Over HTTP GET/POST, a whole `DateTime`.
    const ROOM: usize = <DateTime as Scalar>::ROOM;
    const DOCUMENT_TYPE: SoapType = SoapType::DateTime;

    fn write_xml(&self, out: &mut String) {
        write(out, self.date());
    }

    fn write_form(&self, out: &mut String) {
        self.0.write_form(out);
    }

    fn read_xml(text: &str) -> Result<Self, ValueError> {
        if text.trim().is_empty() {
            return Err(ValueError::Empty);
        }
        read(text).map(Date::new).ok_or(ValueError::NotDate)
    }

    fn read_form(text: &str) -> Result<Self, ValueError> {
        DateTime::read_form(text).map(Date)
    }

    fn write_document(&self, out: &mut String) {
        self.0.write_xml(out);
    }

    fn read_document(text: &str) -> Result<Self, ValueError> {
        DateTime::read_xml(text).map(Date)
    }

    fn param_value(&self) -> ParamValue<'_> {
        ParamValue::Date(self.0)
    }
}

/// The reading a date holds.
impl From<Date> for DateTime {
    fn from(date: Date) -> DateTime {
        date.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DateTimeKind;

    fn read_text(text: &str) -> Option<String> {
        let date = read(text)?;
        let mut out = String::new();
        write(&mut out, date);
        Some(out)
    }

    /// What the reference host answered to `EchoDate` for each form (probed by hand; the
    /// recorded cases replay them).
    #[test]
    fn dates_read_as_the_host_reads_them() {
        for (sent, read) in [
            ("2001-02-03", Some("2001-02-03")),
            (" 2001-02-03 ", Some("2001-02-03")),
            ("2001-02-03Z", Some("2001-02-03")),
            ("2001-02-03+00:00", Some("2001-02-03")),
            ("2001-02-03+05:00", Some("2001-02-02")),
            ("2001-02-03+14:00", Some("2001-02-02")),
            ("2001-02-03-05:00", Some("2001-02-03")),
            ("2001-02-03-14:00", Some("2001-02-03")),
            ("2001", Some("2001-01-01")),
            ("2001-02", Some("2001-02-01")),
            ("2001-02Z", Some("2001-02-01")),
            ("0001-01-01", Some("0001-01-01")),
            ("9999-12-31", Some("9999-12-31")),
            ("2001Z", None),
            ("2001-02-03T04:05:06", None),
            ("2001-02-03 Z", None),
            ("02001-02-03", None),
            ("-2001-02-03", None),
            ("2001-02-30", None),
            ("2001-2-3", None),
            ("0000-01-01", None),
            ("", None),
            // The host completes these with today's year or month: refused.
            ("--02-03", None),
            ("---03", None),
            ("--02--", None),
        ] {
            assert_eq!(read_text(sent).as_deref(), read, "{sent:?}");
        }
    }

    #[test]
    fn a_date_is_written_as_its_date_and_over_http_as_its_reading() {
        let date = Date(DateTime::unspecified(
            NaiveDate::from_ymd_opt(2001, 2, 3)
                .unwrap()
                .and_hms_opt(4, 5, 6)
                .unwrap(),
        ));
        let mut xml = String::new();
        date.write_xml(&mut xml);
        assert_eq!(xml, "2001-02-03");
        let mut document = String::new();
        date.write_document(&mut document);
        assert_eq!(document, "2001-02-03T04:05:06");
        assert_eq!(Date::read_form("2001-02-03T04:05:06").unwrap(), date);
        assert_eq!(Date::default().0.kind, DateTimeKind::Unspecified);
    }
}
