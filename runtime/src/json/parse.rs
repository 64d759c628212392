//! Reading JSON text as ASP.NET AJAX's `JavaScriptObjectDeserializer` reads it: strict JSON
//! and the leniencies of that reader (strings in single quotes, unquoted member names, raw
//! control characters in strings, `+5` and `007`), numbers classified as .NET classifies
//! them, and `"\/Date(ms)\/"` read as a date wherever it stands. serde_json reads strict JSON
//! only, and the old jQuery code this face serves sends `{'name':'bob'}`: hence a reader of
//! its own, which refuses what .NET refuses (comments, `new Date(…)`, trailing commas).

use rust_decimal::Decimal;

use std::borrow::Cow;

use super::{Json, JsonError, JsonNumber};

/// `JavaScriptSerializer.RecursionLimit`'s default, which ASMX's `jsonSerialization`
/// section keeps: a value 100 containers deep is read, one 101 deep refused.
pub const MAX_DEPTH: usize = 100;

/// `jsonSerialization maxJsonLength`'s default for services: the most characters (UTF-16
/// code units) a body or a GET value may have.
pub const MAX_JSON_LENGTH: usize = 102_400;

/// The limits a service's JSON is read and written within: `jsonSerialization`'s
/// `maxJsonLength` (characters, UTF-16 code units, of a call's body or GET value, and of an
/// answer's value) and `recursionLimit` (nesting). .NET's defaults for services, which a
/// service's web.config may raise or lower (`ServerConfig::json_limits`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonLimits {
    /// `maxJsonLength`: 102,400 by default.
    pub max_length: usize,
    /// `recursionLimit`: 100 by default.
    pub recursion_limit: usize,
}

impl Default for JsonLimits {
    fn default() -> JsonLimits {
        JsonLimits {
            max_length: MAX_JSON_LENGTH,
            recursion_limit: MAX_DEPTH,
        }
    }
}

impl JsonLimits {
    /// Whether `text` is longer than `max_length` characters. A text of no more bytes than
    /// the limit has no more UTF-16 units either: they are counted only where it may matter.
    pub fn too_long(&self, text: &str) -> bool {
        text.len() > self.max_length && text.encode_utf16().count() > self.max_length
    }

    /// The error JavaScriptSerializer throws for a value written as `text` whose deepest
    /// value is at `deepest` (the top value at 1), if it is past these limits.
    pub fn refusal(&self, deepest: usize, text: &str) -> Option<JsonError> {
        if deepest > self.recursion_limit {
            Some(JsonError::TooDeep)
        } else if self.too_long(text) {
            Some(JsonError::TooLong)
        } else {
            None
        }
    }
}

/// Reads `text` whole as one value within .NET's default limits; empty or white space only
/// is `None` (which .NET reads as null).
pub fn parse(text: &str) -> Result<Option<Json<'_>>, JsonError> {
    parse_within(text, JsonLimits::default())
}

/// [`parse`] within `limits`.
pub fn parse_within(text: &str, limits: JsonLimits) -> Result<Option<Json<'_>>, JsonError> {
    if limits.too_long(text) {
        return Err(JsonError::TooLong);
    }
    let mut reader = Reader {
        text,
        pos: 0,
        recursion_limit: limits.recursion_limit,
    };
    if reader.next_non_white().is_none() {
        return Ok(None);
    }
    let value = reader.value(0)?;
    // After the value, nothing but white space. .NET names the rest after the first
    // character it consumed to see it.
    if reader.next_non_white().is_some() {
        let rest = reader.text[reader.pos..]
            .chars()
            .skip(1)
            .collect::<String>();
        return Err(JsonError::InvalidPrimitive(rest));
    }
    Ok(Some(value))
}

pub(super) struct Reader<'a> {
    pub(super) text: &'a str,
    /// Where the next character starts.
    pub(super) pos: usize,
    /// The deepest nesting read.
    pub(super) recursion_limit: usize,
}

/// `Char.IsWhiteSpace`: Unicode's white space (U+00A0 and U+2028 too).
fn is_white(c: char) -> bool {
    c.is_whitespace()
}

/// A character of a primitive token or an unquoted member name.
fn is_token_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '-' | '_' | '+')
}

impl<'a> Reader<'a> {
    /// The next character, not consumed.
    #[inline]
    fn peek(&self) -> Option<char> {
        match self.text.as_bytes().get(self.pos) {
            Some(&b) if b.is_ascii() => Some(char::from(b)),
            Some(_) => self.text[self.pos..].chars().next(),
            None => None,
        }
    }

    /// The next character, consumed.
    #[inline]
    pub(super) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// Skips white space; the next character, not consumed.
    pub(super) fn next_non_white(&mut self) -> Option<char> {
        // The common case first: the next byte is printable ASCII (no white space).
        if let Some(&b) = self.text.as_bytes().get(self.pos) {
            if b > b' ' && b < 0x7F {
                return Some(char::from(b));
            }
        }
        while let Some(c) = self.peek() {
            if !is_white(c) {
                return Some(c);
            }
            self.pos += c.len_utf8();
        }
        None
    }

    pub(super) fn value(&mut self, depth: usize) -> Result<Json<'a>, JsonError> {
        if depth + 1 > self.recursion_limit {
            return Err(JsonError::TooDeep);
        }
        let Some(c) = self.next_non_white() else {
            // Nothing where a value belongs: .NET's empty primitive.
            return Err(JsonError::InvalidPrimitive(String::new()));
        };
        match c {
            '"' => {
                if let Some(date) = self.date() {
                    return Ok(date);
                }
                self.string().map(Json::String)
            }
            '\'' => self.string().map(Json::String),
            '{' => self.object(depth + 1),
            '[' => self.array(depth + 1),
            _ => self.primitive(),
        }
    }

    /// `"\/Date(ticks)\/"`, with an optional suffix (a letter, or `±hhmm`) that .NET reads
    /// past and ignores: the milliseconds since 1970 in UTC.
    fn date(&mut self) -> Option<Json<'a>> {
        let at = self.pos;
        let rest = self.text[at..].strip_prefix("\"\\/Date(")?;
        // The first `)\/"`: each `)` found by memchr (a date holds one), where a searcher
        // for the whole pattern would be built for every date.
        let bytes = rest.as_bytes();
        let mut from = 0;
        let end = loop {
            let close = from + memchr::memchr(b')', &bytes[from..])?;
            if bytes[close + 1..].starts_with(b"\\/\"") {
                break close;
            }
            from = close + 1;
        };
        let inside = &rest[..end];
        let digits_end = inside
            .char_indices()
            .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-')))
            .map_or(inside.len(), |(i, _)| i);
        let (number, suffix) = inside.split_at(digits_end);
        let suffix_ok = suffix.is_empty()
            || (suffix.len() == 1 && suffix.as_bytes()[0].is_ascii_alphabetic())
            || (suffix.len() == 5
                && matches!(suffix.as_bytes()[0], b'+' | b'-')
                && suffix[1..].bytes().all(|b| b.is_ascii_digit()));
        if !suffix_ok || number.is_empty() || number == "-" {
            return None;
        }
        let ms = number.parse::<i64>().ok()?;
        self.pos = at + "\"\\/Date(".len() + end + ")\\/\"".len();
        Some(Json::Date(ms))
    }

    /// A string in double or single quotes, the next character being the quote.
    pub(super) fn string(&mut self) -> Result<Cow<'a, str>, JsonError> {
        let quote = self.bump().expect("a quote");
        let start = self.pos;
        // The closing quote before any backslash: no escape, the text itself.
        let rest = &self.text.as_bytes()[start..];
        let first = quote_or_backslash(rest, quote as u8);
        if let Some(len) = first.filter(|&len| rest[len] == quote as u8) {
            self.pos = start + len + 1;
            return Ok(Cow::Borrowed(&self.text[start..start + len]));
        }
        // Scanned on from the first backslash, not again from the start.
        let len = self.quoted_len(quote as u8, first.unwrap_or(rest.len()));
        // Escapes only shorten a text, so its length in the source up to the closing quote
        // is room enough: one allocation, where growing as the runs come took several.
        let mut out = String::with_capacity(len);
        loop {
            // The run up to the next quote or backslash, copied at once.
            let rest = &self.text.as_bytes()[self.pos..];
            let run = quote_or_backslash(rest, quote as u8).unwrap_or(rest.len());
            out.push_str(&self.text[self.pos..self.pos + run]);
            self.pos += run;
            let Some(c) = self.bump() else {
                return Err(JsonError::UnterminatedString);
            };
            match c {
                '\\' => {
                    let Some(escaped) = self.bump() else {
                        return Err(JsonError::UnterminatedString);
                    };
                    match escaped {
                        '"' | '\'' | '/' | '\\' => out.push(escaped),
                        'b' => out.push('\u{8}'),
                        'f' => out.push('\u{c}'),
                        'n' => out.push('\n'),
                        'r' => out.push('\r'),
                        't' => out.push('\t'),
                        'u' => {
                            let mut unit = 0u32;
                            for _ in 0..4 {
                                let digit = self
                                    .bump()
                                    .and_then(|h| h.to_digit(16))
                                    .ok_or(JsonError::BadUnicodeEscape)?;
                                unit = unit * 16 + digit;
                            }
                            self.push_unit(&mut out, unit as u16)?;
                        }
                        _ => return Err(JsonError::UnrecognizedEscape),
                    }
                }
                c if c == quote => return Ok(Cow::Owned(out)),
                c => out.push(c),
            }
        }
    }

    /// The bytes from here to the closing `quote` (a backslash's next byte skipped), or to
    /// the end if there is none; `from` bytes on, none is the quote.
    fn quoted_len(&self, quote: u8, from: usize) -> usize {
        let rest = &self.text.as_bytes()[self.pos..];
        let mut at = from;
        while let Some(found) = memchr::memchr2(quote, b'\\', &rest[at..]) {
            at += found;
            if rest[at] == quote {
                return at;
            }
            at += 2;
            if at >= rest.len() {
                break;
            }
        }
        rest.len()
    }

    /// One UTF-16 code unit of a `\uXXXX` escape: a surrogate pairs with a following
    /// `\uXXXX`; a lone one is U+FFFD, as .NET's string validator makes it.
    fn push_unit(&mut self, out: &mut String, unit: u16) -> Result<(), JsonError> {
        if !(0xD800..0xDC00).contains(&unit) {
            out.push(char::from_u32(u32::from(unit)).unwrap_or('\u{FFFD}'));
            return Ok(());
        }
        let at = self.pos;
        let low = self.text[at..]
            .strip_prefix("\\u")
            .and_then(|hex| hex.get(..4))
            .and_then(|hex| u16::from_str_radix(hex, 16).ok())
            .filter(|low| (0xDC00..0xE000).contains(low));
        match low {
            Some(low) => {
                for _ in 0..6 {
                    self.bump();
                }
                let c = 0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
                out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
            }
            None => out.push('\u{FFFD}'),
        }
        Ok(())
    }

    fn object(&mut self, depth: usize) -> Result<Json<'a>, JsonError> {
        self.bump(); // `{`
        let mut members: Vec<(Cow<'a, str>, Json<'a>)> = Vec::new();
        loop {
            let Some(c) = self.next_non_white() else {
                return Err(JsonError::ObjectExpected);
            };
            if c == '}' && members.is_empty() {
                self.bump();
                break;
            }
            // `{"a":1,}`: .NET reads a value without a name where the `}` stands, an empty
            // primitive.
            if c == '}' {
                return Err(JsonError::InvalidPrimitive(String::new()));
            }
            let name = match c {
                '"' | '\'' => self.string()?,
                ':' => return Err(JsonError::MemberNameExpected),
                _ => Cow::Borrowed(self.token()),
            };
            if self.next_non_white() != Some(':') {
                return Err(JsonError::ObjectExpected);
            }
            self.bump();
            let value = self.value(depth)?;
            // A name given twice keeps its last value.
            match members.iter_mut().find(|(n, _)| *n == name) {
                Some(member) => member.1 = value,
                None => members.push((name, value)),
            }
            match self.next_non_white() {
                Some(',') => {
                    self.bump();
                }
                Some('}') => {
                    self.bump();
                    break;
                }
                _ => return Err(JsonError::ObjectExpected),
            }
        }
        Ok(Json::Object(members))
    }

    fn array(&mut self, depth: usize) -> Result<Json<'a>, JsonError> {
        self.bump(); // `[`
        let mut items = Vec::new();
        if self.next_non_white() == Some(']') {
            self.bump();
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value(depth)?);
            match self.next_non_white() {
                Some(',') => {
                    self.bump();
                    if self.next_non_white() == Some(']') {
                        return Err(JsonError::ArrayTrailingComma);
                    }
                }
                Some(']') => {
                    self.bump();
                    return Ok(Json::Array(items));
                }
                Some(_) => return Err(JsonError::ArrayCommaExpected),
                None => return Err(JsonError::ArrayEndExpected),
            }
        }
    }

    /// The longest run of token characters.
    pub(super) fn token(&mut self) -> &'a str {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if !is_token_char(c) {
                break;
            }
            self.pos += c.len_utf8();
        }
        &self.text[start..self.pos]
    }

    /// `null`, `true`, `false` or a number, classified as .NET does: without a point or an
    /// exponent an int, else a long; without an exponent a decimal; else a double.
    fn primitive(&mut self) -> Result<Json<'a>, JsonError> {
        let token = self.token();
        match token {
            "null" => return Ok(Json::Null),
            "true" => return Ok(Json::Bool(true)),
            "false" => return Ok(Json::Bool(false)),
            _ => {}
        }
        number(token)
            .map(Json::Number)
            .ok_or_else(|| JsonError::InvalidPrimitive(token.to_owned()))
    }
}

/// Where the first `quote` or backslash of `rest` is. Names and most values are shorter than
/// a call to memchr costs: their first bytes are looked at one by one, the rest by memchr.
#[inline]
fn quote_or_backslash(rest: &[u8], quote: u8) -> Option<usize> {
    const SHORT: usize = 16;
    let (head, tail) = rest.split_at(rest.len().min(SHORT));
    match head.iter().position(|&b| b == quote || b == b'\\') {
        Some(at) => Some(at),
        None => memchr::memchr2(quote, b'\\', tail).map(|at| SHORT + at),
    }
}

/// A primitive token as a number of the type .NET gives it, or `None`.
fn number(token: &str) -> Option<JsonNumber> {
    let has_exponent = token.contains(['e', 'E']);
    if !has_exponent {
        if !token.contains('.') {
            if let Ok(n) = crate::value::dotnet::parse_int(token) {
                return Some(JsonNumber::Int(n));
            }
            if let Ok(n) = crate::value::dotnet::parse_integer::<i64>(token) {
                return Some(JsonNumber::Long(n));
            }
        }
        if let Some(d) = decimal(token) {
            return Some(JsonNumber::Decimal(d));
        }
    }
    // `Double.TryParse` with `NumberStyles.Float`: `NaN`, `Infinity` and `-Infinity` too; one
    // out of range fails on .NET Framework.
    crate::value::dotnet::parse_double(token)
        .ok()
        .map(JsonNumber::Double)
}

/// `decimal.TryParse` with `NumberStyles.Number`: a sign, digits and a point (`1.`, `.5`).
fn decimal(token: &str) -> Option<Decimal> {
    let unsigned = token.strip_prefix(['+', '-']).unwrap_or(token);
    if unsigned.is_empty()
        || unsigned == "."
        || !unsigned.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        || unsigned.bytes().filter(|&b| b == b'.').count() > 1
    {
        return None;
    }
    let mut text = token.strip_prefix('+').unwrap_or(token).to_owned();
    if text.ends_with('.') {
        text.pop();
    }
    if text.starts_with('.') || text.starts_with("-.") {
        text = text.replacen('.', "0.", 1);
    }
    Decimal::from_str_exact(&text).ok()
}
