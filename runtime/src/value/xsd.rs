//! The SOAP 1.1 and 1.2 rules: XML Schema lexical forms, as .NET's `XmlConvert` reads them.
//!
//! Whitespace around a value is XML whitespace (space, tab, CR, LF): the parameter element's
//! text is read whitespace-collapsed, so `<a> 1001 </a>` is 1001.

use rust_decimal::Decimal;

use crate::ValueError;

/// The spellings [`parse_boolean`] accepts, for [`ValueError::NotBoolean`].
const BOOLEAN_SPELLINGS: &str = "true, false, 1 or 0";

/// Reads an xsd:int: an optional `+` or `-`, then ASCII digits (leading zeros allowed).
pub fn parse_int(text: &str) -> Result<i32, ValueError> {
    super::int_from_trimmed(trim(text))
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
            assert_eq!(parse_int(text), Err(ValueError::IntOverflow), "{text:?}");
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
}
