//! The HTTP GET and HTTP POST rules: what ASMX's `Convert.ChangeType(text, type,
//! InvariantCulture)` reads, minus the forms it reads as silently wrong numbers.
//!
//! Numbers allow .NET's number whitespace (U+0009 to U+000D and the space) around them.

use rust_decimal::Decimal;

use crate::ValueError;

/// The spellings [`parse_boolean`] accepts, for [`ValueError::NotBoolean`].
const BOOLEAN_SPELLINGS: &str = "true or false, in any case";

/// Reads an int as `Int32.Parse` with `NumberStyles.Integer` does: an optional `+` or `-`,
/// then ASCII digits.
pub fn parse_int(text: &str) -> Result<i32, ValueError> {
    super::int_from_trimmed(trim_number(text))
}

/// Reads any integer type as `Convert.ChangeType` does (`Int64.Parse`, `Byte.Parse`, … with
/// `NumberStyles.Integer`): an optional `+` or `-` even for the unsigned types (`-0` is 0,
/// `-1` out of range), then digits.
pub fn parse_integer<T: super::Integer>(text: &str) -> Result<T, ValueError> {
    super::integer_from_trimmed(trim_number(text), super::Sign::Allowed)
}

/// Reads a double as `Double.Parse(text, NumberStyles.Float | NumberStyles.AllowThousands,
/// InvariantInfo)` does (`Convert.ToDouble`): a sign, a point, an exponent, white space
/// around, and `Infinity`, `-Infinity` or `NaN` (not SOAP's `INF`). A comma is refused: .NET
/// reads it as a thousands separator anywhere before the point, so `1,5` would be 15. `-0`
/// is 0, as .NET reads it.
pub fn parse_double(text: &str) -> Result<f64, ValueError> {
    number_text(text)?;
    super::float::parse_double(text, NUMBER_STYLES)
        .ok_or(ValueError::NotNumber)?
        .map_err(|()| ValueError::OutOfRange {
            ty: crate::SoapType::Double,
        })
}

/// Reads a float as `Single.Parse` does (`Convert.ToSingle`; see [`parse_double`]): read as a
/// double, then narrowed; what narrows to infinity is refused, as .NET refuses it.
pub fn parse_float(text: &str) -> Result<f32, ValueError> {
    number_text(text)?;
    super::float::parse_single(text, NUMBER_STYLES)
        .ok_or(ValueError::NotNumber)?
        .map_err(|()| ValueError::OutOfRange {
            ty: crate::SoapType::Float,
        })
}

/// What `NumberStyles.Float` lets through besides a sign, a point and an exponent.
const NUMBER_STYLES: super::float::Styles = super::float::Styles {
    white: true,
    trailing_nuls: true,
};

/// Refuses an empty number and one with a comma, before it is read.
fn number_text(text: &str) -> Result<(), ValueError> {
    if trim_number(text).is_empty() {
        return Err(ValueError::Empty);
    }
    if text.contains(',') {
        return Err(ValueError::DecimalComma);
    }
    Ok(())
}

/// Reads a boolean as `Boolean.Parse` does: `true` or `false` in any case (`True`, `TRUE`);
/// `1`, `0` and `yes` are refused, as the host refuses them.
pub fn parse_boolean(text: &str) -> Result<bool, ValueError> {
    // Boolean.Parse trims with char.IsWhiteSpace (all of Unicode's White_Space, which is what
    // Rust's is_whitespace is) and also strips NUL characters.
    let trimmed = text.trim_matches(|c: char| c.is_whitespace() || c == '\0');
    if trimmed.eq_ignore_ascii_case("true") {
        Ok(true)
    } else if trimmed.eq_ignore_ascii_case("false") {
        Ok(false)
    } else if trimmed.is_empty() {
        Err(ValueError::Empty)
    } else {
        Err(ValueError::NotBoolean {
            accepted: BOOLEAN_SPELLINGS,
        })
    }
}

/// Reads a decimal in the xsd:decimal form, keeping the scale as sent.
///
/// The host reads a comma as a thousands separator (`1,5` is 15, `1,234.5` is 1234.5), which
/// silently changes the number a client meant, so any comma is refused; so is an exponent,
/// which the host refuses too.
pub fn parse_decimal(text: &str) -> Result<Decimal, ValueError> {
    // The short form has nothing to trim: tried first, on the text as it came.
    if let Some(value) = super::short_decimal(text.as_bytes()) {
        return Ok(value);
    }
    super::decimal_from_trimmed(trim_number(text))
}

/// Strips what .NET's number parser counts as white: U+0009 to U+000D and the space; and NUL
/// characters at the very end, which it ignores "for compatibility" (`Number.TrailingZeros`
/// in .NET Framework's `number.cs`: `5 \0` reads as 5, `5\0 ` does not).
fn trim_number(text: &str) -> &str {
    let text = text.trim_end_matches('\0');
    // Bytewise, as every character stripped is ASCII (the cuts are character boundaries).
    let is_space = |b: &u8| *b == b' ' || (b'\t'..=b'\r').contains(b);
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

    #[test]
    fn int_reads_signed_digits() {
        assert_eq!(parse_int("42"), Ok(42));
        assert_eq!(parse_int("+42"), Ok(42));
        assert_eq!(parse_int("-42"), Ok(-42));
        assert_eq!(parse_int("007"), Ok(7));
        assert_eq!(parse_int("-0"), Ok(0));
        assert_eq!(parse_int("2147483647"), Ok(i32::MAX));
        assert_eq!(parse_int("-2147483648"), Ok(i32::MIN));
    }

    #[test]
    fn int_trims_dotnet_whitespace() {
        // get-op12-int-padded: "%201001%20" is 1001.
        assert_eq!(parse_int(" 1001 "), Ok(1001));
        assert_eq!(parse_int("\t\n\u{b}\u{c}\r1\r\u{c}\u{b}\n\t"), Ok(1));
    }

    #[test]
    fn numbers_ignore_nul_characters_at_the_very_end() {
        // .NET's Number.TrailingZeros (difftest: `2147483647%00` in a form, read by the host).
        assert_eq!(parse_int("2147483647\0"), Ok(2147483647));
        assert_eq!(parse_int(" 5 \0\0"), Ok(5));
        assert_eq!(
            parse_decimal("1.5\0").map(|d| d.to_string()),
            Ok("1.5".into())
        );
        for text in ["5\0 ", "\u{0}5", "5\u{0}7", "\0"] {
            assert!(parse_int(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn int_refuses_unicode_whitespace_and_inner_spaces() {
        for text in ["\u{a0}1", "1\u{2003}", "\u{85}1", "- 1", "1 2", "+ 1"] {
            assert_eq!(parse_int(text), Err(ValueError::NotInteger), "{text:?}");
        }
    }

    #[test]
    fn int_refuses_empty_garbage_and_overflow() {
        // get-op12-empty-int, get-op12-int-not-integer, get-op12-int-overflow.
        assert_eq!(parse_int(""), Err(ValueError::Empty));
        assert_eq!(parse_int(" \t"), Err(ValueError::Empty));
        assert_eq!(parse_int("abc"), Err(ValueError::NotInteger));
        assert_eq!(parse_int("1.0"), Err(ValueError::NotInteger));
        assert_eq!(parse_int("1,000"), Err(ValueError::NotInteger));
        assert_eq!(
            parse_int("2147483648"),
            Err(ValueError::OutOfRange {
                ty: crate::SoapType::Int
            })
        );
        assert_eq!(
            parse_int("-2147483649"),
            Err(ValueError::OutOfRange {
                ty: crate::SoapType::Int
            })
        );
        assert_eq!(
            parse_int("123456789012345678901234567890"),
            Err(ValueError::OutOfRange {
                ty: crate::SoapType::Int
            })
        );
    }

    #[test]
    fn boolean_accepts_true_and_false_in_any_case() {
        // get-op12-bool-True.
        for text in [
            "true",
            "True",
            "TRUE",
            "tRuE",
            " true ",
            "\ttrue\r\n",
            "\u{a0}True\u{3000}",
            "true\0",
        ] {
            assert_eq!(parse_boolean(text), Ok(true), "{text:?}");
        }
        for text in ["false", "False", "FALSE", " false", "\0false"] {
            assert_eq!(parse_boolean(text), Ok(false), "{text:?}");
        }
    }

    #[test]
    fn boolean_refuses_numbers_and_words() {
        let refused = Err(ValueError::NotBoolean {
            accepted: "true or false, in any case",
        });
        // get-op12-bool-1, get-op12-bool-0, get-op12-bool-yes.
        for text in ["1", "0", "yes", "no", "t", "truee", "true false", "on"] {
            assert_eq!(parse_boolean(text), refused, "{text:?}");
        }
        assert_eq!(parse_boolean(""), Err(ValueError::Empty));
        assert_eq!(parse_boolean(" \0 "), Err(ValueError::Empty));
    }

    #[test]
    fn decimal_keeps_the_scale_as_sent() {
        // get-op09-ok-decimal-variants and get-op09-ok-decimal-plain-variants.
        assert_eq!(decimal_text("-0012.3400"), "-12.3400");
        assert_eq!(decimal_text("0.0"), "0.0");
        assert_eq!(decimal_text(".5"), "0.5");
        assert_eq!(decimal_text("+7"), "7");
        assert_eq!(decimal_text("1.50"), "1.50");
        assert_eq!(decimal_text("1."), "1");
        assert_eq!(decimal_text("\u{b} 2.5\u{c}"), "2.5");
    }

    #[test]
    fn decimal_refuses_every_comma() {
        // get-op09-decimal-comma (host: 15) and get-op09-decimal-thousands (host: 1234.5).
        for text in ["1,5", "1,234.5", " 1,5 ", "1,", ",5", "abc,"] {
            assert_eq!(
                parse_decimal(text),
                Err(ValueError::DecimalComma),
                "{text:?}"
            );
        }
    }

    #[test]
    fn decimal_refuses_exponent_garbage_and_excess_digits() {
        // get-op09-decimal-exponent and get-op09-decimal-not-number.
        assert_eq!(parse_decimal("1E2"), Err(ValueError::DecimalExponent));
        assert_eq!(parse_decimal("2.5e-1"), Err(ValueError::DecimalExponent));
        assert_eq!(parse_decimal("abc"), Err(ValueError::NotDecimal));
        assert_eq!(parse_decimal("1_000"), Err(ValueError::NotDecimal));
        assert_eq!(parse_decimal("\u{a0}1"), Err(ValueError::NotDecimal));
        assert_eq!(parse_decimal(""), Err(ValueError::Empty));
        assert_eq!(parse_decimal("\u{b}"), Err(ValueError::Empty));
        assert_eq!(
            parse_decimal("0.12345678901234567890123456789"),
            Err(ValueError::DecimalPrecision)
        );
    }

    #[test]
    fn every_integer_type_reads_as_convert_does() {
        use crate::SoapType;
        assert_eq!(
            parse_integer::<i64>("\t-9223372036854775808\x0b"),
            Ok(i64::MIN)
        );
        assert_eq!(parse_integer::<u64>("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_integer::<i16>("+32767"), Ok(i16::MAX));
        assert_eq!(parse_integer::<u8>("255\0"), Ok(255));
        // NumberStyles.Integer takes a sign for the unsigned types too: -0 is 0, -1 is out of
        // range (UInt32.Parse throws OverflowException), +7 is 7.
        assert_eq!(parse_integer::<u32>("-0"), Ok(0));
        assert_eq!(parse_integer::<u32>("+7"), Ok(7));
        assert_eq!(
            parse_integer::<u32>("-1"),
            Err(ValueError::OutOfRange {
                ty: SoapType::UnsignedInt
            })
        );
        assert_eq!(
            parse_integer::<i8>("128"),
            Err(ValueError::OutOfRange { ty: SoapType::Byte })
        );
        assert_eq!(parse_integer::<u16>("1,000"), Err(ValueError::NotInteger));
        assert_eq!(parse_integer::<u16>(" "), Err(ValueError::Empty));
    }

    #[test]
    fn doubles_read_as_convert_reads_them() {
        assert_eq!(parse_double(" 2.5 "), Ok(2.5));
        assert_eq!(parse_double("2.5\0"), Ok(2.5));
        assert_eq!(parse_double("-1.5e-3"), Ok(-0.0015));
        assert_eq!(parse_double("Infinity"), Ok(f64::INFINITY));
        assert!(parse_double("NaN").unwrap().is_nan());
        // Double.Parse drops a zero's sign.
        assert!(!parse_double("-0").unwrap().is_sign_negative());
        // Thousands separators would make `1,5` fifteen.
        assert_eq!(parse_double("1,5"), Err(ValueError::DecimalComma));
        assert_eq!(parse_double("1,000.5"), Err(ValueError::DecimalComma));
        for bad in ["INF", "-INF", "NaN\0", "1e", "abc"] {
            assert_eq!(parse_double(bad), Err(ValueError::NotNumber), "{bad:?}");
        }
        assert_eq!(parse_double("\t"), Err(ValueError::Empty));
        assert_eq!(
            parse_double("1e309"),
            Err(ValueError::OutOfRange {
                ty: crate::SoapType::Double
            })
        );
    }

    #[test]
    fn floats_read_as_convert_reads_them() {
        assert_eq!(parse_float("3.40282347E+38"), Ok(f32::MAX));
        assert_eq!(parse_float("-Infinity"), Ok(f32::NEG_INFINITY));
        assert_eq!(
            parse_float("3.5e38"),
            Err(ValueError::OutOfRange {
                ty: crate::SoapType::Float
            })
        );
        assert_eq!(parse_float("INF"), Err(ValueError::NotNumber));
    }
}
