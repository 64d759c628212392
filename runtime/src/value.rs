//! Parameter values: their SOAP types, the rules that read them from text, and the writers
//! that put them on the wire.
//!
//! Two rule sets, because a real ASMX host applies two (the exchanges recorded from the
//! project's reference host, `tests/fixtures/asmx/`, show both):
//! - [`xsd`]: SOAP 1.1 and 1.2 read parameters as XML Schema lexical forms (`XmlConvert`).
//! - [`dotnet`]: HTTP GET and POST read them with .NET's invariant-culture conversions
//!   (`Convert.ChangeType`), except where those read silently wrong data, which we refuse.

pub mod date;
pub mod datetime;
mod digits;
pub mod dotnet;
pub mod flags;
pub mod float;
pub mod guid;
pub mod scalar;
pub mod xsd;

use rust_decimal::Decimal;

use crate::ValueError;

/// The SOAP type of a parameter or result, named as ASMX's WSDL names it (the XML Schema
/// type's local name; `char` and `guid` are in ASMX's own `http://microsoft.com/wsdl/types/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SoapType {
    /// `xsd:int`, a Rust `i32` (.NET `int`).
    Int,
    /// `xsd:string`, a Rust `Option<String>` (`None` when the SOAP element is absent).
    String,
    /// `xsd:boolean`, a Rust `bool`.
    Boolean,
    /// `xsd:decimal`, a `rust_decimal::Decimal` (scale kept as sent).
    Decimal,
    /// `xsd:long`, a Rust `i64` (.NET `long`).
    Long,
    /// `xsd:short`, a Rust `i16` (.NET `short`).
    Short,
    /// `xsd:byte`, a Rust `i8` (.NET `sbyte`).
    Byte,
    /// `xsd:unsignedByte`, a Rust `u8` (.NET `byte`).
    UnsignedByte,
    /// `xsd:unsignedShort`, a Rust `u16` (.NET `ushort`).
    UnsignedShort,
    /// `xsd:unsignedInt`, a Rust `u32` (.NET `uint`).
    UnsignedInt,
    /// `xsd:unsignedLong`, a Rust `u64` (.NET `ulong`).
    UnsignedLong,
    /// `xsd:float`, a Rust `f32` (.NET `float`).
    Float,
    /// `xsd:double`, a Rust `f64` (.NET `double`).
    Double,
    /// ASMX's `char` (`http://microsoft.com/wsdl/types/`), a Rust `char` (.NET `char`, a
    /// UTF-16 unit, written as its number).
    Char,
    /// ASMX's `guid` (`http://microsoft.com/wsdl/types/`), a `uuid::Uuid` (.NET `Guid`).
    Guid,
    /// `xsd:base64Binary`, a Rust `Vec<u8>` (.NET `byte[]`).
    Base64Binary,
    /// An enum of the service (an `xs:simpleType` restricting `xs:string`), by its name: a
    /// generated Rust enum.
    Enum(&'static str),
    /// A class or array of the service (an `xs:complexType`), by its name (`Order`,
    /// `ArrayOfString`): a generated struct, or a `Vec`.
    Complex(&'static str),
    /// No result (.NET `void`): only an operation's result is of this type.
    Void,
    /// `xsd:dateTime`, a [`datetime::DateTime`] (.NET `DateTime`).
    DateTime,
    /// `xsd:date`, a [`date::Date`] (.NET `DateTime` with `DataType = "date"`).
    Date,
}

impl SoapType {
    /// The type's name in the spec and the WSDL (`int`, `unsignedByte`, …).
    pub const fn name(self) -> &'static str {
        match self {
            SoapType::Int => "int",
            SoapType::String => "string",
            SoapType::Boolean => "boolean",
            SoapType::Decimal => "decimal",
            SoapType::Long => "long",
            SoapType::Short => "short",
            SoapType::Byte => "byte",
            SoapType::UnsignedByte => "unsignedByte",
            SoapType::UnsignedShort => "unsignedShort",
            SoapType::UnsignedInt => "unsignedInt",
            SoapType::UnsignedLong => "unsignedLong",
            SoapType::Float => "float",
            SoapType::Double => "double",
            SoapType::Char => "char",
            SoapType::Guid => "guid",
            SoapType::Base64Binary => "base64Binary",
            SoapType::Enum(name) | SoapType::Complex(name) => name,
            SoapType::Void => "void",
            SoapType::DateTime => "dateTime",
            SoapType::Date => "date",
        }
    }

    /// The smallest and largest value of an integer type, `None` for the others.
    pub const fn integer_range(self) -> Option<(i128, i128)> {
        Some(match self {
            SoapType::Int => (i32::MIN as i128, i32::MAX as i128),
            SoapType::Long => (i64::MIN as i128, i64::MAX as i128),
            SoapType::Short => (i16::MIN as i128, i16::MAX as i128),
            SoapType::Byte => (i8::MIN as i128, i8::MAX as i128),
            SoapType::UnsignedByte => (0, u8::MAX as i128),
            SoapType::UnsignedShort => (0, u16::MAX as i128),
            SoapType::UnsignedInt => (0, u32::MAX as i128),
            SoapType::UnsignedLong => (0, u64::MAX as i128),
            _ => return None,
        })
    }

    /// The type's range, for messages (`0 to 255`).
    pub fn range_text(self) -> String {
        match (self, self.integer_range()) {
            (_, Some((min, max))) => format!("{min} to {max}"),
            (SoapType::Float, _) => "-3.40282347E+38 to 3.40282347E+38".to_owned(),
            (SoapType::Double, _) => {
                "-1.7976931348623157E+308 to 1.7976931348623157E+308".to_owned()
            }
            _ => "any".to_owned(),
        }
    }

    /// The type's name with its article, for messages (`an int`, `a long`).
    pub fn with_article(self) -> String {
        let name = self.name();
        let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        format!("{article} {name}")
    }
}

impl std::fmt::Display for SoapType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads an enum's value: the one whose wire spelling is exactly `text` (`values[i]` is
/// `all[i]`'s). SOAP reads it so (XmlSerializer's generated switch, no trimming); HTTP GET/POST
/// first trims it, as `Enum.Parse` does, which also reads numbers and comma-separated lists
/// (any number, as a value no member has; a list, OR-ed): silently wrong, so refused here.
pub fn enum_value<T: Copy>(
    text: &str,
    all: &[T],
    values: &'static [&'static str],
) -> Result<T, ValueError> {
    match values.iter().position(|v| *v == text) {
        Some(i) => Ok(all[i]),
        None if text.trim().is_empty() => Err(ValueError::Empty),
        None => Err(ValueError::NotEnumValue { values }),
    }
}

/// Appends `v` in decimal (`-2147483648` … `2147483647`), as XmlConvert and .NET both print it.
#[inline]
pub fn write_int(out: &mut String, v: i32) {
    write_integer(out, v);
}

/// Appends `true` or `false`, the canonical xsd:boolean spellings (what ASMX writes).
#[inline]
pub fn write_boolean(out: &mut String, v: bool) {
    out.push_str(if v { "true" } else { "false" });
}

/// Appends `v` as rust_decimal prints it: plain notation, the scale kept (`1.50` stays `1.50`).
///
/// Written from its mantissa and scale with `itoa` rather than through `Display` and the
/// formatting machinery, which cost two fifths of encoding a message of decimals (the
/// `objects_codec` bench); a test holds it to `Display` over every scale and sign.
pub fn write_decimal(out: &mut String, v: &Decimal) {
    if write_short_decimal(out, v) {
        return;
    }
    let mantissa = v.mantissa();
    let scale = v.scale() as usize;
    if v.is_sign_negative() {
        out.push('-');
    }
    let mut digits = itoa::Buffer::new();
    let magnitude = mantissa.unsigned_abs();
    // Nearly every decimal's digits fit in 64 bits, which itoa writes faster than 128.
    let digits = match u64::try_from(magnitude) {
        Ok(small) => digits.format(small),
        Err(_) => digits.format(magnitude),
    };
    if scale == 0 {
        out.push_str(digits);
    } else if digits.len() > scale {
        let (whole, fraction) = digits.split_at(digits.len() - scale);
        out.push_str(whole);
        out.push('.');
        out.push_str(fraction);
    } else {
        out.push_str("0.");
        for _ in digits.len()..scale {
            out.push('0');
        }
        out.push_str(digits);
    }
}

/// [`write_decimal`] of a decimal of up to four places and four digits before the point (a
/// price, a rate, a quantity), a pair of digits at a time (see [`digits`]); `false` (nothing
/// written) for any other.
#[inline]
fn write_short_decimal(out: &mut String, v: &Decimal) -> bool {
    let Ok(mantissa) = u64::try_from(v.mantissa().unsigned_abs()) else {
        return false;
    };
    let (whole, fraction) = match v.scale() {
        0 => (mantissa, 0),
        1 => (mantissa / 10, mantissa % 10),
        2 => (mantissa / 100, mantissa % 100),
        3 => (mantissa / 1000, mantissa % 1000),
        4 => (mantissa / 10_000, mantissa % 10_000),
        _ => return false,
    };
    if whole >= 10_000 {
        return false;
    }
    if v.is_sign_negative() {
        out.push('-');
    }
    digits::push_small(out, whole);
    if v.scale() > 0 {
        out.push('.');
        digits::push_padded(out, fraction, v.scale() as usize);
    }
    true
}

/// Reads an optionally signed run of ASCII digits, with the surrounding whitespace already
/// removed by the caller's binding rules, as an int.
fn int_from_trimmed(text: &str) -> Result<i32, ValueError> {
    integer_from_trimmed(text, Sign::Allowed)
}

/// The Rust integer types of the integer SOAP types (`i32` for `int`, `u8` for
/// `unsignedByte`, …), for the readers and writers generic over them.
pub trait Integer: Copy + itoa::Integer {
    /// Its SOAP type.
    const TYPE: SoapType;
    /// Whether the type is unsigned (SOAP refuses a sign before its digits).
    const UNSIGNED: bool;
    /// The largest magnitude of a negative value (0 for the unsigned types).
    const NEGATIVE_LIMIT: u64;
    /// The largest value.
    const POSITIVE_LIMIT: u64;
    /// Whether ten times a magnitude in range, plus a digit, can overflow a `u64` (`long`,
    /// `unsignedLong`): only then does reading it check each step.
    const STEP_MAY_OVERFLOW: bool = Self::POSITIVE_LIMIT > (u64::MAX - 9) / 10;
    /// The value of `magnitude` with its sign, known to be in range.
    fn from_magnitude(negative: bool, magnitude: u64) -> Self;
}

macro_rules! integer {
    ($($rust:ty => $soap:ident, $unsigned:literal;)*) => {$(
        impl Integer for $rust {
            const TYPE: SoapType = SoapType::$soap;
            const UNSIGNED: bool = $unsigned;
            const NEGATIVE_LIMIT: u64 = (<$rust>::MIN as i128).unsigned_abs() as u64;
            const POSITIVE_LIMIT: u64 = <$rust>::MAX as u64;
            #[inline]
            fn from_magnitude(negative: bool, magnitude: u64) -> Self {
                // The readers check the range before they call this, so neither the
                // negation (of at most 2^63, in i128) nor the cast can wrap.
                let wide = i128::from(magnitude);
                (if negative { -wide } else { wide }) as $rust
            }
        }
    )*};
}

integer! {
    i32 => Int, false;
    i64 => Long, false;
    i16 => Short, false;
    i8 => Byte, false;
    u8 => UnsignedByte, true;
    u16 => UnsignedShort, true;
    u32 => UnsignedInt, true;
    u64 => UnsignedLong, true;
}

/// Appends an integer in decimal, as XmlConvert and .NET both print every integer type.
#[inline]
pub fn write_integer<T: Integer>(out: &mut String, v: T) {
    // itoa makes the digits on the stack, keeping `fmt` (and its dynamic dispatch) off the
    // path. (Short ones a pair of digits at a time, as decimals are written, took more.)
    out.push_str(itoa::Buffer::new().format(v));
}

/// Whether a sign may precede an integer's digits: .NET's `NumberStyles.AllowLeadingSign`,
/// which `XmlConvert` leaves out for the unsigned types (`+5` is refused over SOAP) and
/// `Convert` keeps (`-0` is 0 over HTTP GET/POST).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sign {
    Allowed,
    Refused,
}

/// Reads an integer of type `T`: an optional sign if `sign` allows, then ASCII digits,
/// leading zeros allowed, with the surrounding whitespace already removed.
#[inline]
fn integer_from_trimmed<T: Integer>(text: &str, sign: Sign) -> Result<T, ValueError> {
    let (negative, digits) = match sign {
        Sign::Allowed => split_sign(text.as_bytes()).ok_or(ValueError::Empty)?,
        Sign::Refused if text.is_empty() => return Err(ValueError::Empty),
        Sign::Refused if text.starts_with(['+', '-']) => {
            return Err(ValueError::Signed { ty: T::TYPE })
        }
        Sign::Refused => (false, text.as_bytes()),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(ValueError::NotInteger);
    }
    // The largest magnitude of the sign (`-0` of an unsigned type has the limit 0).
    let limit = if negative {
        T::NEGATIVE_LIMIT
    } else {
        T::POSITIVE_LIMIT
    };
    // The whole text is known to be digits, so going past the limit can stop the loop;
    // leading zeros keep the magnitude at 0.
    let mut magnitude: u64 = 0;
    for &digit in digits {
        let digit = u64::from(digit - b'0');
        magnitude = if T::STEP_MAY_OVERFLOW {
            magnitude
                .checked_mul(10)
                .and_then(|m| m.checked_add(digit))
                .ok_or(ValueError::OutOfRange { ty: T::TYPE })?
        } else {
            magnitude * 10 + digit
        };
        if magnitude > limit {
            return Err(ValueError::OutOfRange { ty: T::TYPE });
        }
    }
    Ok(T::from_magnitude(negative, magnitude))
}

/// The largest mantissa a `Decimal` holds: 96 bits.
const DECIMAL_MAX_MANTISSA: u128 = (1 << 96) - 1;

/// Reads the xsd:decimal lexical form `(\+|-)?([0-9]+(\.[0-9]*)?|\.[0-9]+)`, with the
/// surrounding whitespace already removed, keeping the scale as sent.
///
/// The grammar is checked here rather than left to rust_decimal's parser, which also accepts
/// `_` separators and rounds excess digits instead of refusing them.
fn decimal_from_trimmed(text: &str) -> Result<Decimal, ValueError> {
    match short_decimal(text.as_bytes()) {
        Some(value) => Ok(value),
        None => decimal_from_text(text),
    }
}

/// The form nearly every decimal on the wire takes, `-?[0-9]*\.?[0-9]*` with 1 to 18 digits,
/// read in 64 bits; anything else is `None`, for [`decimal_from_text`] (which reads these to
/// the same value, as a test checks).
#[inline]
fn short_decimal(bytes: &[u8]) -> Option<Decimal> {
    let (negative, rest) = match bytes {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, bytes),
    };
    if rest.is_empty() || rest.len() > 19 {
        return None;
    }
    // 19 digits at most, so no overflow of 64 bits (the 19th is refused below).
    let mut mantissa: u64 = 0;
    // Where the point is; `rest.len()` for none.
    let mut point = rest.len();
    for (i, &byte) in rest.iter().enumerate() {
        let digit = byte.wrapping_sub(b'0');
        if digit < 10 {
            mantissa = mantissa * 10 + u64::from(digit);
        } else if byte == b'.' && point == rest.len() {
            point = i;
        } else {
            return None;
        }
    }
    let has_point = point != rest.len();
    let digits = rest.len() - usize::from(has_point);
    if digits == 0 || digits > 18 {
        return None;
    }
    // At most 18 digits, so the scale is within Decimal's 28 and the mantissa within 64 bits;
    // a zero is never negative (`-0.00` reads as `0.00`, as the full grammar reads it).
    let scale = if has_point { rest.len() - point - 1 } else { 0 } as u32;
    Some(Decimal::from_parts(
        mantissa as u32,
        (mantissa >> 32) as u32,
        0,
        negative && mantissa != 0,
        scale,
    ))
}

/// [`decimal_from_trimmed`] of any text: the grammar checked, every error told.
fn decimal_from_text(text: &str) -> Result<Decimal, ValueError> {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return Err(ValueError::Empty);
    }
    // A comma wins over every other complaint: it is the one mistake the HTTP bindings of the
    // host turn into a wrong number (`1,5` is 15 there), so it gets the message that says so.
    if memchr::memchr(b',', bytes).is_some() {
        return Err(ValueError::DecimalComma);
    }
    let (negative, rest) = split_sign(bytes).ok_or(ValueError::Empty)?;

    let mut mantissa: u128 = 0;
    let mut too_many_digits = false;
    let mut digits = 0usize;
    let mut scale = 0usize;
    let mut after_point = false;
    let mut position = 0;
    while let Some(&byte) = rest.get(position) {
        match byte {
            b'0'..=b'9' => {
                digits += 1;
                if after_point {
                    scale += 1;
                }
                // Saturate rather than stop: what follows may still turn the verdict into
                // "not a decimal", which is the more useful message.
                if !too_many_digits {
                    mantissa = mantissa * 10 + u128::from(byte - b'0');
                    too_many_digits = mantissa > DECIMAL_MAX_MANTISSA;
                }
            }
            b'.' if !after_point => after_point = true,
            b'e' | b'E' if digits > 0 && is_exponent_digits(&rest[position + 1..]) => {
                return Err(ValueError::DecimalExponent);
            }
            _ => return Err(ValueError::NotDecimal),
        }
        position += 1;
    }
    if digits == 0 {
        return Err(ValueError::NotDecimal);
    }
    let scale = u32::try_from(scale).map_err(|_| ValueError::DecimalPrecision)?;
    if too_many_digits || scale > Decimal::MAX_SCALE {
        return Err(ValueError::DecimalPrecision);
    }
    // The mantissa fits in 96 bits, so the i128 conversion and negation cannot overflow.
    let magnitude = mantissa as i128;
    let signed = if negative { -magnitude } else { magnitude };
    Decimal::try_from_i128_with_scale(signed, scale).map_err(|_| ValueError::DecimalPrecision)
}

/// `(\+|-)?[0-9]+`, the exponent part after `e` or `E`.
fn is_exponent_digits(bytes: &[u8]) -> bool {
    let digits = match bytes.first() {
        Some(b'+' | b'-') => &bytes[1..],
        _ => bytes,
    };
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

/// Splits an optional leading `+` or `-` off: `(negative, rest)`, or `None` for empty text.
fn split_sign(bytes: &[u8]) -> Option<(bool, &[u8])> {
    match bytes.first()? {
        b'-' => Some((true, &bytes[1..])),
        b'+' => Some((false, &bytes[1..])),
        _ => Some((false, bytes)),
    }
}

#[cfg(test)]
mod tests {
    /// The short form reads each decimal it takes to the value, scale and sign the full
    /// grammar reads it to, and leaves the rest to it.
    #[test]
    fn short_decimals_read_as_the_grammar_reads_them() {
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "-0.00",
            "1.",
            ".5",
            "-.5",
            "+5",
            "007",
            "1.50",
            "-0.02",
            "17.13",
            "123456789012345678",
            "1234567890123456789",
            "12345678901234567.8",
            "-999999999999999999",
            "0.000000000000000001",
            ".",
            "-",
            "",
            "1.2.3",
            "1e5",
            "1,5",
            " 1",
            "--1",
            "-+1",
            "1_0",
            "99999999999999999999",
        ]
        .iter()
        .map(|t| t.to_string())
        .collect();
        for i in 0..2000u64 {
            let n = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (i % 60);
            let digits = n.to_string();
            let at = (i as usize) % (digits.len() + 1);
            texts.push(format!(
                "{}{}.{}",
                if i % 3 == 0 { "-" } else { "" },
                &digits[..at],
                &digits[at..]
            ));
            texts.push(digits);
        }
        let mut short = 0;
        for text in &texts {
            if let Some(value) = super::short_decimal(text.as_bytes()) {
                short += 1;
                let full = super::decimal_from_text(text).expect("the grammar reads it");
                assert_eq!(value, full, "{text}");
                assert_eq!(
                    (value.scale(), value.is_sign_negative(), value.mantissa()),
                    (full.scale(), full.is_sign_negative(), full.mantissa()),
                    "{text}"
                );
            }
        }
        assert!(short > texts.len() / 2, "{short} of {}", texts.len());
    }

    /// `write_decimal` writes what `Display` writes, for every scale, sign and size.
    #[test]
    fn decimals_are_written_as_display_writes_them() {
        use rust_decimal::Decimal;
        let mut values = vec![
            Decimal::ZERO,
            Decimal::MAX,
            Decimal::MIN,
            Decimal::from_parts(0, 0, 0, true, 3),
            Decimal::from_i128_with_scale(1, 28),
            Decimal::from_i128_with_scale(-1, 28),
        ];
        for scale in 0..=28 {
            for mantissa in [
                1i128,
                -1,
                5,
                10,
                -150,
                123_456_789,
                // Either side of the 64 bits written the quicker way.
                i128::from(u64::MAX),
                -i128::from(u64::MAX) - 1,
                79_228_162_514_264_337_593_543_950_335,
            ] {
                values.push(Decimal::from_i128_with_scale(mantissa, scale));
            }
        }
        // Short ones (written a pair of digits at a time) either side of four digits before the
        // point, each sign, and scales either side of four places.
        for scale in 0..=6 {
            for mantissa in (0..200_000_i64).step_by(7).chain([99_999_999, 100_000_000]) {
                values.push(Decimal::new(mantissa, scale));
                values.push(Decimal::new(-mantissa, scale));
            }
        }
        for v in values {
            let mut out = String::new();
            super::write_decimal(&mut out, &v);
            assert_eq!(out, v.to_string(), "{v:?}");
        }
    }

    use super::*;

    #[test]
    fn an_enum_value_is_its_exact_wire_spelling() {
        const VALUES: &[&str] = &["Low", "very-high"];
        let all = [1, 2];
        assert_eq!(enum_value("very-high", &all, VALUES), Ok(2));
        for bad in [" Low", "low", "1", "Low,very-high", "Low "] {
            assert_eq!(
                enum_value(bad, &all, VALUES),
                Err(ValueError::NotEnumValue { values: VALUES }),
                "{bad:?}"
            );
        }
        assert_eq!(enum_value(" ", &all, VALUES), Err(ValueError::Empty));
        assert_eq!(
            ValueError::NotEnumValue { values: VALUES }.to_string(),
            "it is not one of Low, very-high"
        );
    }
    use std::str::FromStr;

    fn int_text(v: i32) -> String {
        let mut out = String::new();
        write_int(&mut out, v);
        out
    }

    /// Every integer type writes what `Display` writes.
    #[test]
    fn integers_are_written_as_display_writes_them() {
        fn check<T: Integer + std::fmt::Display + TryFrom<i64>>(extremes: [T; 2]) {
            let mut values: Vec<T> = (-20_000..20_000)
                .filter_map(|n: i64| T::try_from(n).ok())
                .collect();
            values.extend(extremes);
            for v in values {
                let mut out = String::from(">");
                write_integer(&mut out, v);
                assert_eq!(out, format!(">{v}"));
            }
        }
        check([i8::MIN, i8::MAX]);
        check([i16::MIN, i16::MAX]);
        check([i32::MIN, i32::MAX]);
        check([i64::MIN, i64::MAX]);
        check([u8::MIN, u8::MAX]);
        check([u16::MIN, u16::MAX]);
        check([u32::MIN, u32::MAX]);
        check([u64::MIN, u64::MAX]);
    }

    #[test]
    fn write_int_prints_boundaries_and_small_values() {
        assert_eq!(int_text(0), "0");
        assert_eq!(int_text(7), "7");
        assert_eq!(int_text(-7), "-7");
        assert_eq!(int_text(10), "10");
        assert_eq!(int_text(-10), "-10");
        assert_eq!(int_text(1001), "1001");
        assert_eq!(int_text(i32::MAX), "2147483647");
        assert_eq!(int_text(i32::MIN), "-2147483648");
        assert_eq!(int_text(i32::MIN + 1), "-2147483647");
    }

    #[test]
    fn write_int_agrees_with_display_across_the_range() {
        let mut v: i64 = i64::from(i32::MIN);
        while v <= i64::from(i32::MAX) {
            let v32 = v as i32;
            assert_eq!(int_text(v32), v32.to_string());
            v += 65_521; // a prime stride, so every digit position varies
        }
        for v in -10_000..=10_000 {
            assert_eq!(int_text(v), v.to_string());
        }
        for v in [
            -1_000_000_000,
            999_999_999,
            1_000_000_000,
            -999_999_999,
            99,
            100,
            -100,
        ] {
            assert_eq!(int_text(v), v.to_string());
        }
    }

    #[test]
    fn write_int_appends_to_what_is_there() {
        let mut out = String::from("a=");
        write_int(&mut out, -42);
        out.push('&');
        write_int(&mut out, 5);
        assert_eq!(out, "a=-42&5");
    }

    #[test]
    fn write_boolean_uses_canonical_spellings() {
        let mut out = String::new();
        write_boolean(&mut out, true);
        out.push(' ');
        write_boolean(&mut out, false);
        assert_eq!(out, "true false");
    }

    #[test]
    fn write_decimal_keeps_the_scale() {
        for text in ["1.50", "-12.3400", "0.0", "0", "7", "0.5", "-0.001"] {
            let mut out = String::from(">");
            write_decimal(&mut out, &Decimal::from_str(text).unwrap());
            assert_eq!(out, format!(">{text}"));
        }
        let mut out = String::new();
        write_decimal(&mut out, &Decimal::MAX);
        assert_eq!(out, "79228162514264337593543950335");
        out.clear();
        write_decimal(&mut out, &Decimal::MIN);
        assert_eq!(out, "-79228162514264337593543950335");
        out.clear();
        write_decimal(&mut out, &Decimal::from_i128_with_scale(1, 28));
        assert_eq!(out, "0.0000000000000000000000000001");
    }

    #[test]
    fn int_core_reads_signs_and_digits_only() {
        assert_eq!(int_from_trimmed("42"), Ok(42));
        assert_eq!(int_from_trimmed("+42"), Ok(42));
        assert_eq!(int_from_trimmed("-42"), Ok(-42));
        assert_eq!(int_from_trimmed(""), Err(ValueError::Empty));
        for bad in [
            "+", "-", "+-1", "--1", "1-", "1 2", "0x10", "1.0", "1e3", "١",
        ] {
            assert_eq!(
                int_from_trimmed(bad),
                Err(ValueError::NotInteger),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn int_core_prefers_not_integer_over_overflow() {
        assert_eq!(
            int_from_trimmed("99999999999999999999x"),
            Err(ValueError::NotInteger)
        );
        assert_eq!(
            int_from_trimmed("99999999999999999999"),
            Err(ValueError::OutOfRange { ty: SoapType::Int })
        );
    }

    #[test]
    fn decimal_core_builds_the_exact_value() {
        let d = decimal_from_trimmed("-0012.3400").unwrap();
        assert_eq!(d.mantissa(), -123400);
        assert_eq!(d.scale(), 4);
        // No negative zero: the host prints `-0.0` as `0.0`.
        assert_eq!(decimal_from_trimmed("-0.0").unwrap().to_string(), "0.0");
        assert!(!decimal_from_trimmed("-0").unwrap().is_sign_negative());
    }

    #[test]
    fn decimal_core_classifies_exponents() {
        for text in ["1E2", "1e2", "1.5E+3", "-1e-3", ".5e1", "1.e1"] {
            assert_eq!(
                decimal_from_trimmed(text),
                Err(ValueError::DecimalExponent),
                "{text}"
            );
        }
        // Not a well-formed exponent, so simply not a decimal.
        for text in [
            "1E", "1E+", "E2", "e", "1E2.5", "1E2x", ".E1", "1EE2", "abcdef",
        ] {
            assert_eq!(
                decimal_from_trimmed(text),
                Err(ValueError::NotDecimal),
                "{text}"
            );
        }
    }
}
