//! `guid` (`http://microsoft.com/wsdl/types/`): a `Guid` as `XmlConvert` writes it
//! (`Guid.ToString()`, 8-4-4-4-12 lowercase hex) and reads it (`new Guid(s)`).
//!
//! .NET Framework's `Guid(string)` (`Guid.TryParseGuid`) trims the text, then picks one of
//! three forms by what the text holds, and nothing else:
//!
//! - a `-` anywhere: `8-4-4-4-12` hex digits, alone (36 characters) or in `{…}` or `(…)` (38);
//! - else a `{`: `{0xdddddddd,0xdddd,0xdddd,{0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd,0xdd}}`, its
//!   white space anywhere removed first, each number one or more hex digits within its field's
//!   width (a byte's at most 255);
//! - else: exactly 32 hex digits.
//!
//! So `{` + 32 digits + `}` and `(` + 32 digits + `)` are refused, as .NET refuses them.

use crate::{ParamValue, ValueError};

use super::scalar::Scalar;
use super::SoapType;

impl Scalar for uuid::Uuid {
    const TYPE: SoapType = SoapType::Guid;
    const ROOM: usize = 36;
    fn write_xml(&self, out: &mut String) {
        out.push_str(
            self.hyphenated()
                .encode_lower(&mut uuid::Uuid::encode_buffer()),
        );
    }
    fn read_xml(text: &str) -> Result<Self, ValueError> {
        read(text).ok_or(ValueError::NotGuid)
    }
    fn read_form(_: &str) -> Result<Self, ValueError> {
        Err(ValueError::NotOverHttp("a guid"))
    }
    fn param_value(&self) -> ParamValue<'_> {
        ParamValue::Guid(*self)
    }
}

/// `new Guid(text)`, or `None` where it throws.
fn read(text: &str) -> Option<uuid::Uuid> {
    let text = text.trim();
    if text.contains('-') {
        with_dashes(text)
    } else if text.contains('{') {
        with_hex_prefixes(text)
    } else {
        digits(text)
    }
}

/// `dddddddd-dddd-dddd-dddd-dddddddddddd`, alone or in braces or parentheses.
fn with_dashes(text: &str) -> Option<uuid::Uuid> {
    let inner = match text.as_bytes().first()? {
        b'{' => text.strip_prefix('{')?.strip_suffix('}')?,
        b'(' => text.strip_prefix('(')?.strip_suffix(')')?,
        _ => text,
    };
    let groups: Vec<&str> = inner.split('-').collect();
    let widths = [8, 4, 4, 4, 12];
    if groups.len() != widths.len() || groups.iter().zip(widths).any(|(g, w)| g.len() != w) {
        return None;
    }
    digits(&groups.concat())
}

/// Exactly 32 hex digits.
fn digits(text: &str) -> Option<uuid::Uuid> {
    if text.len() != 32 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u128::from_str_radix(text, 16)
        .ok()
        .map(uuid::Uuid::from_u128)
}

/// `{0xdddddddd,0xdddd,0xdddd,{0xdd,…,0xdd}}` with white space anywhere.
fn with_hex_prefixes(text: &str) -> Option<uuid::Uuid> {
    let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let inner = text.strip_prefix('{')?.strip_suffix("}}")?;
    let (head, bytes) = inner.split_once(",{")?;
    let fields: Vec<&str> = head.split(',').collect();
    let bytes: Vec<&str> = bytes.split(',').collect();
    if fields.len() != 3 || bytes.len() != 8 {
        return None;
    }
    // One or more hex digits after `0x` (or `0X`), whose value fits in `bits`.
    let number = |field: &str, bits: u32| -> Option<u128> {
        let hex = field
            .strip_prefix("0x")
            .or_else(|| field.strip_prefix("0X"))?;
        if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let value = u128::from_str_radix(hex.trim_start_matches('0'), 16)
            .ok()
            .or_else(|| hex.bytes().all(|b| b == b'0').then_some(0))?;
        (value < 1 << bits).then_some(value)
    };
    let mut value = number(fields[0], 32)?;
    value = (value << 16) | number(fields[1], 16)?;
    value = (value << 16) | number(fields[2], 16)?;
    for byte in bytes {
        value = (value << 8) | number(byte, 8)?;
    }
    Some(uuid::Uuid::from_u128(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guid_reads_in_the_forms_dotnet_reads() {
        let want = uuid::Uuid::from_u128(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef);
        let mut out = String::new();
        want.write_xml(&mut out);
        assert_eq!(out, "01234567-89ab-cdef-0123-456789abcdef");
        for text in [
            "01234567-89ab-cdef-0123-456789abcdef",
            "01234567-89AB-CDEF-0123-456789ABCDEF",
            "0123456789abcdef0123456789abcdef",
            "{01234567-89ab-cdef-0123-456789abcdef}",
            "(01234567-89ab-cdef-0123-456789abcdef)",
            " 01234567-89ab-cdef-0123-456789abcdef\n",
            "{0x01234567,0x89ab,0xcdef,{0x01,0x23,0x45,0x67,0x89,0xab,0xcd,0xef}}",
            "{ 0x1234567, 0X89AB,0xcdef ,{0x1,0x23,0x45,0x67,0x89,0xab,0xcd,0x00ef}}",
        ] {
            assert_eq!(uuid::Uuid::read_xml(text), Ok(want), "{text}");
        }
        for bad in [
            "",
            "urn:uuid:01234567-89ab-cdef-0123-456789abcdef",
            "{01234567-89ab-cdef-0123-456789abcdef",
            "{01234567-89ab-cdef-0123-456789abcdef)",
            "01234567-89ab-cdef-0123-456789abcde",
            "0123456789abcdef0123456789abcdeg",
            // Braces or parentheses around 32 digits: .NET reads neither.
            "{0123456789abcdef0123456789abcdef}",
            "(0123456789abcdef0123456789abcdef)",
            // A field past its width, a byte past 255, a missing `0x`, one byte short.
            "{0x101234567,0x89ab,0xcdef,{0x01,0x23,0x45,0x67,0x89,0xab,0xcd,0xef}}",
            "{0x01234567,0x89ab,0xcdef,{0x100,0x23,0x45,0x67,0x89,0xab,0xcd,0xef}}",
            "{0x01234567,89ab,0xcdef,{0x01,0x23,0x45,0x67,0x89,0xab,0xcd,0xef}}",
            "{0x01234567,0x89ab,0xcdef,{0x01,0x23,0x45,0x67,0x89,0xab,0xcd}}",
        ] {
            assert_eq!(uuid::Uuid::read_xml(bad), Err(ValueError::NotGuid), "{bad}");
        }
    }
}
