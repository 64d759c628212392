//! The SOAP 1.1 and 1.2 rules: XML Schema lexical forms, as .NET's `XmlConvert` reads them.
//!
//! Whitespace around a value is XML whitespace (space, tab, CR, LF): the parameter element's
//! text is read whitespace-collapsed, so `<a> 1001 </a>` is 1001.

use rust_decimal::Decimal;

use crate::{SoapType, ValueError};

/// The spellings [`parse_boolean`] accepts, for [`ValueError::NotBoolean`].
const BOOLEAN_SPELLINGS: &str = "true, false, 1 or 0";

/// Reads an xsd:int: an optional `+` or `-`, then ASCII digits (leading zeros allowed).
pub fn parse_int(text: &str) -> Result<i32, ValueError> {
    super::int_from_trimmed(trim(text))
}

/// Reads any integer type as `XmlConvert` does (`ToInt64`, `ToByte`, …): digits, with an
/// optional `+` or `-` for the signed types only (`XmlConvert` reads the unsigned ones without
/// `NumberStyles.AllowLeadingSign`, so `+5` and `-0` are refused there).
pub fn parse_integer<T: super::Integer>(text: &str) -> Result<T, ValueError> {
    // Nearly every integer on the wire is a few digits and nothing else: read at once.
    if let Some(magnitude) = short_digits(text.as_bytes()) {
        if magnitude <= T::POSITIVE_LIMIT {
            return Ok(T::from_magnitude(false, magnitude));
        }
    }
    let sign = if T::UNSIGNED {
        super::Sign::Refused
    } else {
        super::Sign::Allowed
    };
    super::integer_from_trimmed(trim(text), sign)
}

/// The value of 1 to 18 ASCII digits and nothing else (what [`parse_integer`] reads to the
/// same value); `None` for any other text.
#[inline]
fn short_digits(bytes: &[u8]) -> Option<u64> {
    if bytes.is_empty() || bytes.len() > 18 {
        return None;
    }
    let mut value: u64 = 0;
    for &b in bytes {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        value = value * 10 + u64::from(digit);
    }
    Some(value)
}

/// Reads an xsd:double as `XmlConvert.ToDouble` does: `INF`, `-INF`, or what `Double.Parse`
/// reads with a sign, a point and an exponent (and its `Infinity`, `-Infinity`, `NaN`);
/// `-0` stays negative. A magnitude beyond the largest double is refused, not infinity.
pub fn parse_double(text: &str) -> Result<f64, ValueError> {
    let text = trim(text);
    let styles = super::float::Styles {
        white: true,
        trailing_nuls: false,
    };
    xml_special(text)
        .map(|v| Ok(f64::from(v)))
        .or_else(|| super::float::parse_double(text, styles))
        .map_or_else(|| not_number(text), |v| overflow(v, SoapType::Double))
        .map(|v| signed_zero(v, text))
}

/// Reads an xsd:float as `XmlConvert.ToSingle` does (see [`parse_double`]); the value is read
/// as a double, then narrowed, as .NET does; what narrows to infinity is refused.
pub fn parse_float(text: &str) -> Result<f32, ValueError> {
    let text = trim(text);
    let styles = super::float::Styles {
        white: false,
        trailing_nuls: false,
    };
    xml_special(text)
        .map(Ok)
        .or_else(|| super::float::parse_single(text, styles))
        .map_or_else(|| not_number(text), |v| overflow(v, SoapType::Float))
        .map(|v| signed_zero(v, text))
}

/// `INF` and `-INF`, which `XmlConvert` reads itself (exactly so: `inf` and `+INF` are not).
fn xml_special(text: &str) -> Option<f32> {
    match text {
        "INF" => Some(f32::INFINITY),
        "-INF" => Some(f32::NEG_INFINITY),
        _ => None,
    }
}

fn not_number<T>(text: &str) -> Result<T, ValueError> {
    Err(if text.is_empty() {
        ValueError::Empty
    } else {
        ValueError::NotNumber
    })
}

fn overflow<T>(value: Result<T, ()>, ty: SoapType) -> Result<T, ValueError> {
    value.map_err(|()| ValueError::OutOfRange { ty })
}

/// `XmlConvert` keeps the sign of a zero written `-0` (`Double.Parse` drops it).
fn signed_zero<T: Into<f64> + std::ops::Neg<Output = T> + Copy>(v: T, text: &str) -> T {
    if v.into() == 0.0 && text.starts_with('-') && !v.into().is_sign_negative() {
        -v
    } else {
        v
    }
}

/// Reads an xsd:boolean: exactly `true`, `false`, `1` or `0` (case-sensitive).
pub fn parse_boolean(text: &str) -> Result<bool, ValueError> {
    match trim(text) {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        "" => Err(ValueError::Empty),
        _ => Err(ValueError::NotBoolean {
            accepted: BOOLEAN_SPELLINGS,
        }),
    }
}

/// Reads an xsd:decimal, `(\+|-)?([0-9]+(\.[0-9]*)?|\.[0-9]+)`, keeping the scale as sent
/// (`1.50` stays `1.50`). A comma, an exponent, or more digits than a `Decimal` holds exactly
/// are refused, each with its own reason; nothing is ever rounded.
pub fn parse_decimal(text: &str) -> Result<Decimal, ValueError> {
    // The short form has no white space to trim: tried first, on the text as it came.
    if let Some(value) = super::short_decimal(text.as_bytes()) {
        return Ok(value);
    }
    super::decimal_from_trimmed(trim(text))
}

/// Strips XML whitespace; bytewise, as every character stripped is ASCII (the cuts are
/// therefore character boundaries).
fn trim(text: &str) -> &str {
    let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let bytes = text.as_bytes();
    let start = bytes
        .iter()
        .position(|b| !is_space(b))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !is_space(b))
        .map_or(start, |last| last + 1);
    &text[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decimal_text(text: &str) -> String {
        parse_decimal(text).unwrap().to_string()
    }

    /// The digits-only fast path reads what the general one reads, limits included.
    #[test]
    fn short_digits_read_as_the_general_path_reads_them() {
        fn both<T: crate::value::Integer + std::fmt::Debug + PartialEq>(text: &str) {
            let sign = if T::UNSIGNED {
                crate::value::Sign::Refused
            } else {
                crate::value::Sign::Allowed
            };
            assert_eq!(
                parse_integer::<T>(text),
                crate::value::integer_from_trimmed::<T>(text, sign),
                "{text}"
            );
        }
        for text in [
            "0",
            "7",
            "007",
            "127",
            "128",
            "255",
            "256",
            "32767",
            "32768",
            "65535",
            "65536",
            "2147483647",
            "2147483648",
            "4294967295",
            "4294967296",
            "999999999999999999",
        ] {
            both::<i8>(text);
            both::<i16>(text);
            both::<u16>(text);
            both::<i32>(text);
            both::<u32>(text);
            both::<i64>(text);
            both::<u64>(text);
        }
    }

    #[test]
    fn int_reads_signed_digits() {
        assert_eq!(parse_int("0"), Ok(0));
        assert_eq!(parse_int("1001"), Ok(1001));
        assert_eq!(parse_int("+5"), Ok(5));
        assert_eq!(parse_int("-1"), Ok(-1));
        assert_eq!(parse_int("007"), Ok(7));
        assert_eq!(parse_int("-0"), Ok(0));
        assert_eq!(parse_int("+0"), Ok(0));
        assert_eq!(parse_int("2147483647"), Ok(i32::MAX));
        assert_eq!(parse_int("-2147483648"), Ok(i32::MIN));
        assert_eq!(parse_int("000000000000000000002147483647"), Ok(i32::MAX));
    }

    #[test]
    fn int_ignores_xml_whitespace_around() {
        // soap11-op12-int-padded: " 1001 " is 1001.
        assert_eq!(parse_int(" 1001 "), Ok(1001));
        assert_eq!(parse_int("\t\r\n-42\n\t"), Ok(-42));
    }

    #[test]
    fn int_refuses_other_whitespace() {
        // Not XML whitespace (and not even allowed in XML 1.0 for the controls).
        for text in ["\u{b}1", "1\u{c}", "\u{a0}1", "1\u{2003}"] {
            assert_eq!(parse_int(text), Err(ValueError::NotInteger), "{text:?}");
        }
    }

    #[test]
    fn int_empty_is_its_own_error() {
        for text in ["", " ", "\t\r\n "] {
            assert_eq!(parse_int(text), Err(ValueError::Empty), "{text:?}");
        }
    }

    #[test]
    fn int_refuses_non_integers() {
        for text in [
            "abc", "1.0", "1,000", "1 000", "+", "-", "+-1", "- 1", "1-", "1e3", "0x1F", "１",
        ] {
            assert_eq!(parse_int(text), Err(ValueError::NotInteger), "{text:?}");
        }
    }

    #[test]
    fn int_refuses_overflow() {
        // soap11-op12-int-overflow: 2147483648.
        for text in [
            "2147483648",
            "-2147483649",
            "99999999999",
            "-99999999999999999999999999999999",
        ] {
            assert_eq!(
                parse_int(text),
                Err(ValueError::OutOfRange {
                    ty: crate::SoapType::Int
                }),
                "{text:?}"
            );
        }
    }

    #[test]
    fn boolean_accepts_the_four_schema_spellings() {
        assert_eq!(parse_boolean("true"), Ok(true));
        assert_eq!(parse_boolean("1"), Ok(true));
        assert_eq!(parse_boolean("false"), Ok(false));
        assert_eq!(parse_boolean("0"), Ok(false));
        // soap11-op12-bool-padded.
        assert_eq!(parse_boolean(" true "), Ok(true));
        assert_eq!(parse_boolean("\n0\t"), Ok(false));
    }

    #[test]
    fn boolean_is_case_sensitive_and_strict() {
        let refused = Err(ValueError::NotBoolean {
            accepted: "true, false, 1 or 0",
        });
        // soap11-op12-bool-True and soap11-op12-bool-yes.
        for text in [
            "True",
            "TRUE",
            "False",
            "yes",
            "no",
            "01",
            "+1",
            "t",
            "true false",
            "\u{a0}true",
        ] {
            assert_eq!(parse_boolean(text), refused, "{text:?}");
        }
        assert_eq!(parse_boolean(""), Err(ValueError::Empty));
        assert_eq!(parse_boolean("  "), Err(ValueError::Empty));
    }

    #[test]
    fn decimal_keeps_the_scale_as_sent() {
        // The SOAP rows of FINDINGS.md ("Both SOAP bindings: request parsing").
        assert_eq!(decimal_text("1.50"), "1.50");
        assert_eq!(decimal_text("0"), "0");
        assert_eq!(decimal_text("-0012.3400"), "-12.3400");
        assert_eq!(decimal_text("0.0"), "0.0");
        assert_eq!(decimal_text(".5"), "0.5");
        assert_eq!(decimal_text("+7"), "7");
        assert_eq!(decimal_text("1."), "1");
        assert_eq!(decimal_text("-.25"), "-0.25");
        assert_eq!(decimal_text(" 3.10\n"), "3.10");
    }

    #[test]
    fn decimal_reaches_the_limits_exactly() {
        assert_eq!(
            decimal_text("79228162514264337593543950335"),
            "79228162514264337593543950335"
        );
        assert_eq!(
            decimal_text("-79228162514264337593543950335"),
            "-79228162514264337593543950335"
        );
        assert_eq!(
            decimal_text("0.0000000000000000000000000001"),
            "0.0000000000000000000000000001"
        );
        assert_eq!(
            decimal_text("7.9228162514264337593543950335"),
            "7.9228162514264337593543950335"
        );
        // Leading zeros are not digits that need holding.
        assert_eq!(decimal_text("0000000000000000000000000000000001.5"), "1.5");
    }

    #[test]
    fn decimal_refuses_what_it_cannot_hold_exactly() {
        for text in [
            "79228162514264337593543950336",
            "100000000000000000000000000000",
            // 29 decimal places: rust_decimal would round this, we refuse.
            "0.00000000000000000000000000001",
            "1.00000000000000000000000000000",
            "1.2345678901234567890123456789012",
        ] {
            assert_eq!(
                parse_decimal(text),
                Err(ValueError::DecimalPrecision),
                "{text}"
            );
        }
    }

    #[test]
    fn decimal_refuses_commas_exponents_and_garbage() {
        // soap11-op09-decimal-comma, -thousands, -exponent, -not-number.
        assert_eq!(parse_decimal("1,5"), Err(ValueError::DecimalComma));
        assert_eq!(parse_decimal("1,234.5"), Err(ValueError::DecimalComma));
        assert_eq!(parse_decimal(","), Err(ValueError::DecimalComma));
        assert_eq!(parse_decimal("1E2"), Err(ValueError::DecimalExponent));
        assert_eq!(parse_decimal("abc"), Err(ValueError::NotDecimal));
        // Outside the lexical grammar, though rust_decimal or .NET would take some of them.
        for text in [
            ".", "+", "-", "+.", "1..2", "1.2.3", "1_000", "_1", "--1", "+-1", "1-", "(1)", "1 2",
            "- 1", "0x10", "NaN", "Infinity", "１", "1.5m", "\u{a0}1",
        ] {
            assert_eq!(parse_decimal(text), Err(ValueError::NotDecimal), "{text:?}");
        }
    }

    #[test]
    fn decimal_empty_is_its_own_error() {
        assert_eq!(parse_decimal(""), Err(ValueError::Empty));
        assert_eq!(parse_decimal(" \t\r\n"), Err(ValueError::Empty));
    }

    #[test]
    fn every_integer_type_reads_its_whole_range_and_no_more() {
        use crate::SoapType;
        assert_eq!(parse_integer::<i64>("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(parse_integer::<i64>(" 9223372036854775807\n"), Ok(i64::MAX));
        assert_eq!(parse_integer::<i16>("-32768"), Ok(i16::MIN));
        assert_eq!(parse_integer::<i16>("+32767"), Ok(i16::MAX));
        assert_eq!(parse_integer::<i8>("-128"), Ok(i8::MIN));
        assert_eq!(parse_integer::<i8>("0127"), Ok(i8::MAX));
        assert_eq!(parse_integer::<u8>("255"), Ok(u8::MAX));
        assert_eq!(parse_integer::<u16>("65535"), Ok(u16::MAX));
        assert_eq!(parse_integer::<u32>("4294967295"), Ok(u32::MAX));
        assert_eq!(parse_integer::<u64>("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(
            parse_integer::<u64>("000000000000000000000000000001"),
            Ok(1)
        );
        for (text, ty) in [
            ("9223372036854775808", SoapType::Long),
            ("-9223372036854775809", SoapType::Long),
            ("32768", SoapType::Short),
            ("-129", SoapType::Byte),
            ("256", SoapType::UnsignedByte),
            ("65536", SoapType::UnsignedShort),
            ("4294967296", SoapType::UnsignedInt),
            ("18446744073709551616", SoapType::UnsignedLong),
            (
                "99999999999999999999999999999999999999999",
                SoapType::UnsignedLong,
            ),
        ] {
            let got = match ty {
                SoapType::Long => parse_integer::<i64>(text).map(|_| ()),
                SoapType::Short => parse_integer::<i16>(text).map(|_| ()),
                SoapType::Byte => parse_integer::<i8>(text).map(|_| ()),
                SoapType::UnsignedByte => parse_integer::<u8>(text).map(|_| ()),
                SoapType::UnsignedShort => parse_integer::<u16>(text).map(|_| ()),
                SoapType::UnsignedInt => parse_integer::<u32>(text).map(|_| ()),
                _ => parse_integer::<u64>(text).map(|_| ()),
            };
            assert_eq!(got, Err(ValueError::OutOfRange { ty }), "{text}");
        }
        assert_eq!(
            ValueError::OutOfRange {
                ty: SoapType::UnsignedByte
            }
            .to_string(),
            "it is outside the range of an unsignedByte (0 to 255)"
        );
    }

    #[test]
    fn unsigned_types_take_no_sign_over_soap() {
        // XmlConvert.ToByte/ToUInt16/ToUInt32/ToUInt64 parse without AllowLeadingSign.
        for text in ["+5", "-0", " +1 ", "-1"] {
            assert_eq!(
                parse_integer::<u32>(text),
                Err(ValueError::Signed {
                    ty: crate::SoapType::UnsignedInt
                }),
                "{text}"
            );
        }
        assert_eq!(parse_integer::<u8>(" 7 "), Ok(7));
        assert_eq!(parse_integer::<u8>(""), Err(ValueError::Empty));
        assert_eq!(parse_integer::<u8>("1.0"), Err(ValueError::NotInteger));
        assert_eq!(parse_integer::<i8>("-0"), Ok(0));
    }

    #[test]
    fn doubles_read_as_xmlconvert_reads_them() {
        assert_eq!(parse_double("INF"), Ok(f64::INFINITY));
        assert_eq!(parse_double(" -INF\n"), Ok(f64::NEG_INFINITY));
        assert_eq!(parse_double("Infinity"), Ok(f64::INFINITY));
        assert!(parse_double("NaN").unwrap().is_nan());
        assert_eq!(parse_double(" 1.5E+3\n"), Ok(1500.0));
        assert_eq!(parse_double("1e-5"), Ok(0.00001));
        let zero = parse_double("-0").unwrap();
        assert!(zero == 0.0 && zero.is_sign_negative());
        assert!(!parse_double("0.0").unwrap().is_sign_negative());
        for bad in ["inf", "+INF", "1,5", "1e", "0x1p3", "1.5f", "- 1"] {
            assert_eq!(parse_double(bad), Err(ValueError::NotNumber), "{bad:?}");
        }
        assert_eq!(parse_double(" "), Err(ValueError::Empty));
        assert_eq!(
            parse_double("1e400"),
            Err(ValueError::OutOfRange {
                ty: SoapType::Double
            })
        );
    }

    #[test]
    fn floats_read_as_xmlconvert_reads_them() {
        assert_eq!(parse_float("3.40282347E+38"), Ok(f32::MAX));
        assert_eq!(parse_float("-INF"), Ok(f32::NEG_INFINITY));
        assert_eq!(parse_float("0.1"), Ok(0.1));
        let zero = parse_float("-0.0").unwrap();
        assert!(zero == 0.0 && zero.is_sign_negative());
        assert_eq!(
            parse_float("1e39"),
            Err(ValueError::OutOfRange {
                ty: SoapType::Float
            })
        );
        assert_eq!(
            ValueError::OutOfRange {
                ty: SoapType::Float
            }
            .to_string(),
            "it is outside the range of a float (-3.40282347E+38 to 3.40282347E+38)"
        );
    }
}
