//! Percent-decoding as ASP.NET's `HttpEncoder` does it, `%uXXXX` escapes included.

use std::borrow::Cow;

use super::source::{FormCharset, FormSource};
use crate::RequestError;

/// Decodes a name or value as ASP.NET on .NET Framework does (`HttpEncoder.UrlDecode`, which
/// both `HttpRequest.QueryString` and `HttpRequest.Form` use), then reads it as strict UTF-8.
///
/// - `+` is a space; `%XX` (two hex digits) is the byte `XX`; runs of bytes are UTF-8.
/// - `%uXXXX` (four hex digits) is the UTF-16 unit `XXXX` as a character, whatever its value:
///   `%u0041` is `A`, `%u00E9` is `é` (as JavaScript's `escape()` and .NET's own clients write
///   it), `%u00C3%u00A9` is `Ã©`. The Mono host differs (it keeps `%u` escapes literally in a
///   query string and writes U+FFFD in a form body); production runs .NET Framework, so we
///   read what .NET reads.
/// - A surrogate pair written as two escapes (`%uD83D%uDE00`) is the one character they make.
///   A lone surrogate is refused ([`RequestError::LoneSurrogate`]): .NET writes U+FFFD in its
///   place, silently.
/// - Bytes that are not UTF-8 are refused ([`RequestError::InvalidUtf8`]); .NET writes U+FFFD
///   for them, silently. A character between pending bytes ends them, as in .NET: since a
///   character's UTF-8 is always complete, the bytes around it are valid exactly when .NET's
///   would be.
/// - Anything else after `%` (`%zz`, `%4`, `%u12`) keeps the `%` literally, as .NET does.
///
/// Decoding never makes the text longer (an escape of six bytes is at most three of UTF-8,
/// a pair of twelve is four), so the one buffer is at most the input's size.
pub(super) fn decode(raw: &[u8], source: FormSource) -> Result<Cow<'_, str>, RequestError> {
    let invalid = || RequestError::InvalidUtf8 {
        part: source.part(),
    };
    let Some(first) = memchr::memchr2(b'%', b'+', raw) else {
        return std::str::from_utf8(raw)
            .map(Cow::Borrowed)
            .map_err(|_| invalid());
    };
    let mut decoded = Vec::with_capacity(raw.len());
    decoded.extend_from_slice(&raw[..first]);
    let mut at = first;
    while at < raw.len() {
        if raw[at] == b'+' {
            decoded.push(b' ');
            at += 1;
        } else if let Some(unit) = utf16_escape(raw, at) {
            let (c, len) = utf16_char(raw, at, unit, source)?;
            let mut utf8 = [0; 4];
            decoded.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
            at += len;
        } else if let Some(byte) = hex_escape(raw, at) {
            decoded.push(byte);
            at += 3;
        } else {
            decoded.push(b'%');
            at += 1;
        }
        let next = memchr::memchr2(b'%', b'+', &raw[at..]).map_or(raw.len(), |n| at + n);
        decoded.extend_from_slice(&raw[at..next]);
        at = next;
    }
    String::from_utf8(decoded)
        .map(Cow::Owned)
        .map_err(|_| invalid())
}

/// [`decode`] in a charset other than UTF-8, as .NET's `UrlDecoder` does it: bytes (raw, `+`
/// and `%XX`) gather until a `%uXXXX` character or the end, and each run is read in the
/// charset. A run that is not text in it is refused (.NET writes `?` or U+FFFD, silently).
pub(super) fn decode_in(
    raw: &[u8],
    source: FormSource,
    charset: FormCharset,
) -> Result<Cow<'_, str>, RequestError> {
    let invalid = || RequestError::FormCharset {
        part: source.part(),
        charset: charset.name(),
        problem: "and holds bytes that are not text in it (ASP.NET reads them as `?` or U+FFFD)",
    };
    if raw.is_ascii() && memchr::memchr2(b'%', b'+', raw).is_none() {
        // ASCII reads the same in every charset here.
        return Ok(Cow::Borrowed(
            std::str::from_utf8(raw).map_err(|_| invalid())?,
        ));
    }
    let mut text = String::with_capacity(raw.len());
    let mut bytes = Vec::new();
    let mut at = 0;
    while at < raw.len() {
        if raw[at] == b'+' {
            bytes.push(b' ');
            at += 1;
        } else if let Some(unit) = utf16_escape(raw, at) {
            charset.text(&bytes, &mut text).ok_or_else(invalid)?;
            bytes.clear();
            let (c, len) = utf16_char(raw, at, unit, source)?;
            text.push(c);
            at += len;
        } else if let Some(byte) = hex_escape(raw, at) {
            bytes.push(byte);
            at += 3;
        } else {
            bytes.push(raw[at]);
            at += 1;
        }
    }
    charset.text(&bytes, &mut text).ok_or_else(invalid)?;
    Ok(Cow::Owned(text))
}

/// The value of the hex digit `b`.
fn hex_digit(b: u8) -> Option<u8> {
    char::from(b).to_digit(16).map(|d| d as u8)
}

/// The byte of a `%XX` escape at `at` of `raw`.
fn hex_escape(raw: &[u8], at: usize) -> Option<u8> {
    match raw.get(at..at + 3)? {
        [b'%', high, low] => Some(hex_digit(*high)? << 4 | hex_digit(*low)?),
        _ => None,
    }
}

/// The character of the `%uXXXX` escape at `at` of `raw` (whose unit is `unit`) and the bytes
/// it takes: 6, or 12 for a surrogate pair written as two escapes. A lone surrogate is no
/// character.
fn utf16_char(
    raw: &[u8],
    at: usize,
    unit: u16,
    source: FormSource,
) -> Result<(char, usize), RequestError> {
    let (code, len) = match (unit, utf16_escape(raw, at + 6)) {
        (0xD800..=0xDBFF, Some(low @ 0xDC00..=0xDFFF)) => (
            0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00),
            12,
        ),
        _ => (u32::from(unit), 6),
    };
    let c = char::from_u32(code).ok_or_else(|| RequestError::LoneSurrogate {
        part: source.part(),
        escape: String::from_utf8_lossy(&raw[at..at + 6]).into_owned(),
    })?;
    Ok((c, len))
}

/// The unit of a `%uXXXX` escape at `at` of `raw`.
fn utf16_escape(raw: &[u8], at: usize) -> Option<u16> {
    match raw.get(at..at + 6)? {
        [b'%', b'u', digits @ ..] => digits
            .iter()
            .try_fold(0u16, |unit, &d| Some(unit << 4 | u16::from(hex_digit(d)?))),
        _ => None,
    }
}
