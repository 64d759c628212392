//! [`Scalar`]: what the wire code needs of every simple type but `string`, so that one generic
//! call per parameter or result reads and writes any of them on any binding.

use rust_decimal::Decimal;

use super::{dotnet, float, xsd, Integer, SoapType};
use crate::{ParamValue, ValueError};

/// A Rust type that carries one of the SOAP simple types other than `string` (which may be
/// absent and needs escaping, and has its own calls).
pub trait Scalar: Sized + Clone + PartialEq + std::fmt::Debug + Default {
    /// Its SOAP type.
    const TYPE: SoapType;
    /// The longest text of a value, to size buffers before writing.
    const ROOM: usize;
    /// Appends the value as `XmlConvert` writes it: in a SOAP parameter and in every result.
    fn write_xml(&self, out: &mut String);
    /// Appends the value as an HTTP GET/POST parameter, form-encoded: a text that .NET's
    /// `Convert` (which the server reads it with) reads back as the same value.
    #[inline]
    fn write_form(&self, out: &mut String) {
        self.write_xml(out);
    }
    /// Reads a SOAP parameter's or a result's text, as `XmlConvert` reads it.
    fn read_xml(text: &str) -> Result<Self, ValueError>;
    /// Reads an HTTP GET/POST parameter's (decoded) text, as `Convert.ChangeType` reads it.
    fn read_form(text: &str) -> Result<Self, ValueError>;
    /// The value, borrowed, for signers, verifiers and echoes.
    fn param_value(&self) -> ParamValue<'_>;
    /// The type an HTTP GET/POST result document of it is named after and written as:
    /// [`Scalar::TYPE`], but for a `date`, which ASMX writes there as the `DateTime` it is.
    const DOCUMENT_TYPE: SoapType = Self::TYPE;
    /// Appends the value as an HTTP GET/POST result document holds it.
    #[inline]
    fn write_document(&self, out: &mut String) {
        self.write_xml(out);
    }
    /// Reads an HTTP GET/POST result document's text.
    #[inline]
    fn read_document(text: &str) -> Result<Self, ValueError> {
        Self::read_xml(text)
    }
}

macro_rules! integer_scalar {
    ($($rust:ty => $variant:ident, $room:literal;)*) => {$(
        impl Scalar for $rust {
            const TYPE: SoapType = <$rust as Integer>::TYPE;
            const ROOM: usize = $room;
            #[inline]
            fn write_xml(&self, out: &mut String) {
                super::write_integer(out, *self);
            }
            #[inline]
            fn read_xml(text: &str) -> Result<Self, ValueError> {
                xsd::parse_integer(text)
            }
            #[inline]
            fn read_form(text: &str) -> Result<Self, ValueError> {
                dotnet::parse_integer(text)
            }
            fn param_value(&self) -> ParamValue<'_> {
                ParamValue::$variant(*self)
            }
        }
    )*};
}

integer_scalar! {
    i32 => Int, 11;
    i64 => Long, 20;
    i16 => Short, 6;
    i8 => Byte, 4;
    u8 => UnsignedByte, 3;
    u16 => UnsignedShort, 5;
    u32 => UnsignedInt, 10;
    u64 => UnsignedLong, 20;
}

impl Scalar for bool {
    const TYPE: SoapType = SoapType::Boolean;
    const ROOM: usize = 5;
    #[inline]
    fn write_xml(&self, out: &mut String) {
        super::write_boolean(out, *self);
    }
    #[inline]
    fn read_xml(text: &str) -> Result<Self, ValueError> {
        xsd::parse_boolean(text)
    }
    #[inline]
    fn read_form(text: &str) -> Result<Self, ValueError> {
        dotnet::parse_boolean(text)
    }
    #[inline]
    fn param_value(&self) -> ParamValue<'_> {
        ParamValue::Boolean(*self)
    }
}

impl Scalar for Decimal {
    const TYPE: SoapType = SoapType::Decimal;
    // 29 digits, a sign and a point.
    const ROOM: usize = 31;
    #[inline]
    fn write_xml(&self, out: &mut String) {
        super::write_decimal(out, self);
    }
    #[inline]
    fn read_xml(text: &str) -> Result<Self, ValueError> {
        xsd::parse_decimal(text)
    }
    #[inline]
    fn read_form(text: &str) -> Result<Self, ValueError> {
        dotnet::parse_decimal(text)
    }
    #[inline]
    fn param_value(&self) -> ParamValue<'_> {
        ParamValue::Decimal(self)
    }
}

/// A float's text over HTTP GET/POST: the invariant culture's symbols, which `Double.Parse`
/// reads (`INF` it does not), and `+` escaped, which a form would read as a space. `-0` is
/// written but .NET reads it as 0: `Double.Parse` drops a zero's sign.
fn write_float_form(out: &mut String, xml: &str) {
    match xml {
        "INF" => out.push_str("Infinity"),
        "-INF" => out.push_str("-Infinity"),
        _ => out.push_str(&xml.replace('+', "%2B")),
    }
}

impl Scalar for f64 {
    const TYPE: SoapType = SoapType::Double;
    // "-1.7976931348623157E+308"
    const ROOM: usize = 24;
    #[inline]
    fn write_xml(&self, out: &mut String) {
        float::write_double(out, *self);
    }
    #[inline]
    fn write_form(&self, out: &mut String) {
        let mut xml = String::new();
        float::write_double(&mut xml, *self);
        write_float_form(out, &xml);
    }
    #[inline]
    fn read_xml(text: &str) -> Result<Self, ValueError> {
        xsd::parse_double(text)
    }
    #[inline]
    fn read_form(text: &str) -> Result<Self, ValueError> {
        dotnet::parse_double(text)
    }
    #[inline]
    fn param_value(&self) -> ParamValue<'_> {
        ParamValue::Double(*self)
    }
}

impl Scalar for f32 {
    const TYPE: SoapType = SoapType::Float;
    // "-3.40282347E+38"
    const ROOM: usize = 15;
    #[inline]
    fn write_xml(&self, out: &mut String) {
        float::write_float(out, *self);
    }
    #[inline]
    fn write_form(&self, out: &mut String) {
        let mut xml = String::new();
        float::write_float(&mut xml, *self);
        write_float_form(out, &xml);
    }
    #[inline]
    fn read_xml(text: &str) -> Result<Self, ValueError> {
        xsd::parse_float(text)
    }
    #[inline]
    fn read_form(text: &str) -> Result<Self, ValueError> {
        dotnet::parse_float(text)
    }
    #[inline]
    fn param_value(&self) -> ParamValue<'_> {
        ParamValue::Float(*self)
    }
}

/// A `char` as ASMX reads and writes it: over SOAP and in results its UTF-16 unit as a
/// number (`XmlSerializer` writes `(ushort)c`), over HTTP GET/POST the character itself
/// (`Convert.ToChar` takes a string of exactly one unit).
impl Scalar for char {
    const TYPE: SoapType = SoapType::Char;
    // "65535"
    const ROOM: usize = 5;
    #[inline]
    fn write_xml(&self, out: &mut String) {
        // A Rust char outside the Basic Multilingual Plane is two UTF-16 units, which one
        // .NET char cannot be: the generated code refuses it before writing
        // (`message::check_char`); were it written, its first unit would be.
        let mut units = [0u16; 2];
        super::write_integer(out, self.encode_utf16(&mut units)[0]);
    }
    fn write_form(&self, out: &mut String) {
        let mut utf8 = [0u8; 4];
        out.extend(form_urlencoded::byte_serialize(
            self.encode_utf8(&mut utf8).as_bytes(),
        ));
    }
    #[inline]
    fn read_xml(text: &str) -> Result<Self, ValueError> {
        let unit: u16 = xsd::parse_integer(text)?;
        char::from_u32(u32::from(unit)).ok_or(ValueError::Surrogate(unit))
    }
    fn read_form(text: &str) -> Result<Self, ValueError> {
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (None, _) => Err(ValueError::Empty),
            (Some(c), None) if c.len_utf16() == 1 => Ok(c),
            _ => Err(ValueError::NotOneChar),
        }
    }
    fn param_value(&self) -> ParamValue<'_> {
        ParamValue::Char(*self)
    }
}

/// Appends bytes as `Convert.ToBase64String` writes them: standard alphabet, padded, no
/// line breaks.
pub(crate) fn write_base64(out: &mut String, bytes: &[u8]) {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode_string(bytes, out);
}

/// Reads base64 as .NET's `XmlReader` does for a `byte[]` element (`Base64Decoder`): XML
/// white space anywhere is skipped, the text ends at the first `=` (any number of them, then
/// only white space), and bits short of a whole byte at the end are dropped.
fn read_base64(text: &str) -> Result<Vec<u8>, ValueError> {
    use base64::engine::{general_purpose::GeneralPurpose, DecodePaddingMode};
    use base64::Engine;
    const LENIENT: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(DecodePaddingMode::RequireNone)
            .with_decode_allow_trailing_bits(true),
    );
    let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let bytes = text.as_bytes();
    let end = memchr::memchr(b'=', bytes).unwrap_or(bytes.len());
    if !bytes[end..].iter().all(|b| *b == b'=' || is_space(b)) {
        return Err(ValueError::NotBase64);
    }
    let mut digits: Vec<u8> = bytes[..end]
        .iter()
        .copied()
        .filter(|b| !is_space(b))
        .collect();
    if !digits
        .iter()
        .all(|&b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
    {
        return Err(ValueError::NotBase64);
    }
    // One digit past whole groups is six bits, no byte: .NET drops it.
    if digits.len() % 4 == 1 {
        digits.pop();
    }
    LENIENT.decode(&digits).map_err(|_| ValueError::NotBase64)
}

/// A `base64Binary` (.NET `byte[]`): an empty array is an empty element.
impl Scalar for Vec<u8> {
    const TYPE: SoapType = SoapType::Base64Binary;
    // Unknown before writing; the buffer grows.
    const ROOM: usize = 0;
    fn write_xml(&self, out: &mut String) {
        write_base64(out, self);
    }
    fn read_xml(text: &str) -> Result<Self, ValueError> {
        read_base64(text)
    }
    fn read_form(_: &str) -> Result<Self, ValueError> {
        Err(ValueError::NotOverHttp("a base64Binary"))
    }
    fn param_value(&self) -> ParamValue<'_> {
        ParamValue::Base64Binary(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `v` both ways and reads each back with the reader of the same binding.
    fn round_trip<T: Scalar>(v: T) -> (String, String) {
        let (mut xml, mut form) = (String::new(), String::new());
        v.write_xml(&mut xml);
        v.write_form(&mut form);
        assert!(xml.len() <= T::ROOM, "{xml} is longer than {}", T::ROOM);
        assert_eq!(T::read_xml(&xml).as_ref(), Ok(&v), "{xml}");
        let decoded = form.replace("%2B", "+");
        assert_eq!(T::read_form(&decoded).as_ref(), Ok(&v), "{form}");
        (xml, form)
    }

    #[test]
    fn every_scalar_reads_back_what_it_writes_at_its_bounds() {
        round_trip(i32::MIN);
        round_trip(i64::MIN);
        round_trip(i64::MAX);
        round_trip(i16::MIN);
        round_trip(i8::MIN);
        round_trip(u8::MAX);
        round_trip(u16::MAX);
        round_trip(u32::MAX);
        round_trip(u64::MAX);
        round_trip(true);
        round_trip(Decimal::MIN);
        assert_eq!(
            round_trip(f64::MIN),
            (
                "-1.7976931348623157E+308".to_owned(),
                "-1.7976931348623157E%2B308".to_owned()
            )
        );
        round_trip(f64::from_bits(1));
        round_trip(f32::MIN);
        round_trip(0.1f32);
        assert_eq!(
            round_trip(f64::INFINITY),
            ("INF".to_owned(), "Infinity".to_owned())
        );
        assert_eq!(
            round_trip(f32::NEG_INFINITY),
            ("-INF".to_owned(), "-Infinity".to_owned())
        );
    }

    #[test]
    fn nan_and_negative_zero_go_as_dotnet_lets_them() {
        let (mut xml, mut form) = (String::new(), String::new());
        f64::NAN.write_xml(&mut xml);
        f64::NAN.write_form(&mut form);
        assert_eq!((xml.as_str(), form.as_str()), ("NaN", "NaN"));
        assert!(f64::read_xml("NaN").unwrap().is_nan());
        assert!(f64::read_form("NaN").unwrap().is_nan());
        // -0 survives SOAP; over GET/POST .NET reads it as 0.
        assert!(f64::read_xml("-0").unwrap().is_sign_negative());
        assert!(!f64::read_form("-0").unwrap().is_sign_negative());
    }
}

#[cfg(test)]
mod more_types {
    use super::*;

    #[test]
    fn a_char_is_its_utf16_unit_over_soap_and_itself_over_http() {
        let mut out = String::new();
        'é'.write_xml(&mut out);
        assert_eq!(out, "233");
        out.clear();
        'é'.write_form(&mut out);
        assert_eq!(out, "%C3%A9");
        assert_eq!(char::read_xml(" 65535 "), Ok('\u{ffff}'));
        assert_eq!(char::read_xml("0"), Ok('\0'));
        assert_eq!(char::read_xml("55296"), Err(ValueError::Surrogate(0xD800)));
        assert_eq!(
            char::read_xml("65536"),
            Err(ValueError::OutOfRange {
                ty: SoapType::UnsignedShort
            })
        );
        assert!(char::read_xml("A").is_err());
        assert_eq!(char::read_form("A"), Ok('A'));
        assert_eq!(char::read_form("☕"), Ok('☕'));
        assert_eq!(char::read_form("😀"), Err(ValueError::NotOneChar));
        assert_eq!(char::read_form("ab"), Err(ValueError::NotOneChar));
        assert_eq!(char::read_form(""), Err(ValueError::Empty));
    }
}
