//! The query-string and form-body codec of HTTP GET and HTTP POST.
//!
//! Both bindings carry parameters as `application/x-www-form-urlencoded` pairs: GET in the
//! query string, POST in the body. [`FormWriter`] builds them; [`FormReader`] reads them the
//! way an ASMX host does (the `get-*` and `post-*` exchanges in `tests/fixtures/asmx/`),
//! except where the host silently reads wrong data, which it refuses instead.

use std::borrow::Cow;

use crate::value::dotnet;
use crate::Scalar;
use std::collections::{HashMap, HashSet};

use crate::{Binding, EncodeError, RequestError, SoapType, ValueError};

/// Builds a query string or form body: `name=value` pairs joined with `&`, each part encoded
/// as `application/x-www-form-urlencoded` (space as `+`, `@` as `%40`, `:` as `%3A`, …).
#[derive(Debug, Clone, Default)]
pub struct FormWriter {
    out: String,
}

/// An item of an array parameter over HTTP GET/POST: a simple value ([`Scalar::write_form`],
/// [`Scalar::read_form`]) or a string (`Option<String>`, an item of `string[]`, which the form
/// cannot send as null).
pub trait FormItem: Sized {
    /// Appends the item's value, encoded; `false` for a null, which no pair can say.
    fn write_form_item(&self, out: &mut String) -> bool;
    /// Reads one value sent for the array, or its type and why not.
    fn read_form_item(text: &str) -> Result<Self, (SoapType, ValueError)>;
}

impl<T: Scalar> FormItem for T {
    fn write_form_item(&self, out: &mut String) -> bool {
        self.write_form(out);
        true
    }

    fn read_form_item(text: &str) -> Result<Self, (SoapType, ValueError)> {
        T::read_form(text).map_err(|error| (T::TYPE, error))
    }
}

impl FormItem for Option<String> {
    fn write_form_item(&self, out: &mut String) -> bool {
        match self {
            Some(text) => {
                out.extend(form_urlencoded::byte_serialize(text.as_bytes()));
                true
            }
            None => false,
        }
    }

    fn read_form_item(text: &str) -> Result<Self, (SoapType, ValueError)> {
        Ok(Some(text.to_owned()))
    }
}

impl FormWriter {
    /// An empty writer.
    pub fn new() -> FormWriter {
        FormWriter::default()
    }

    /// An empty writer whose buffer holds `capacity` bytes before it grows.
    pub fn with_capacity(capacity: usize) -> FormWriter {
        FormWriter {
            out: String::with_capacity(capacity),
        }
    }

    /// Appends `name=value`, both encoded.
    pub fn pair(&mut self, name: &str, value: &str) {
        self.name(name);
        self.out
            .extend(form_urlencoded::byte_serialize(value.as_bytes()));
    }

    /// Appends a parameter of any simple type but `string`, in a form .NET's `Convert`
    /// reads back as the same value.
    pub fn scalar<T: Scalar>(&mut self, name: &str, value: &T) {
        self.name(name);
        value.write_form(&mut self.out);
    }

    /// Appends a `byte[]` parameter as ASP.NET's HTTP handler reads one: each byte as its own
    /// pair (`p=1&p=255`). `None`, and an empty array (which no pair can say; the host fails
    /// on it), are refused.
    pub fn bytes(
        &mut self,
        operation: &'static str,
        name: &'static str,
        value: Option<&[u8]>,
        binding: Binding,
    ) -> Result<(), EncodeError> {
        let value = value.ok_or(EncodeError::AbsentOverHttp {
            operation,
            param: name,
            binding,
        })?;
        if value.is_empty() {
            return Err(EncodeError::EmptyArrayOverHttp {
                operation,
                param: name,
                binding,
            });
        }
        for byte in value {
            self.scalar(name, byte);
        }
        Ok(())
    }

    /// Appends an array parameter of simple values as ASP.NET's HTTP handler reads one: each
    /// item as its own pair (`values=a&values=b`). `None`, an empty array (which no pair can
    /// say; the host fails on it) and a `None` item are refused.
    pub fn array<T: FormItem>(
        &mut self,
        operation: &'static str,
        name: &'static str,
        value: Option<&[T]>,
        binding: Binding,
    ) -> Result<(), EncodeError> {
        let absent = EncodeError::AbsentOverHttp {
            operation,
            param: name,
            binding,
        };
        let value = value.ok_or(absent.clone())?;
        if value.is_empty() {
            return Err(EncodeError::EmptyArrayOverHttp {
                operation,
                param: name,
                binding,
            });
        }
        for item in value {
            self.name(name);
            if !item.write_form_item(&mut self.out) {
                return Err(absent);
            }
        }
        Ok(())
    }

    /// Appends a string parameter.
    ///
    /// `None` is refused with [`EncodeError::AbsentOverHttp`]: HTTP GET and POST send every
    /// parameter, and the host would read a missing one as an error, an empty one as `""`.
    pub fn string(
        &mut self,
        operation: &'static str,
        name: &'static str,
        value: Option<&str>,
        binding: Binding,
    ) -> Result<(), EncodeError> {
        let value = value.ok_or(EncodeError::AbsentOverHttp {
            operation,
            param: name,
            binding,
        })?;
        self.pair(name, value);
        Ok(())
    }

    /// What has been written so far.
    pub fn as_str(&self) -> &str {
        &self.out
    }

    /// The finished query string or form body (without a leading `?`).
    pub fn finish(self) -> String {
        self.out
    }

    /// Starts a pair: the separator, the encoded name and `=`.
    /// Appends `text` form-encoded (for [`Scalar::write_form`] of a value that may need it).
    pub fn push_encoded(out: &mut String, text: &str) {
        out.extend(form_urlencoded::byte_serialize(text.as_bytes()));
    }

    fn name(&mut self, name: &str) {
        // Every pair writes '=', so a non-empty buffer always means a pair before this one.
        if !self.out.is_empty() {
            self.out.push('&');
        }
        self.out
            .extend(form_urlencoded::byte_serialize(name.as_bytes()));
        self.out.push('=');
    }
}

/// Where a [`FormReader`]'s pairs come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FormSource {
    /// The query string of an HTTP GET request.
    Query,
    /// The `application/x-www-form-urlencoded` body of an HTTP POST request.
    Body,
}

impl FormSource {
    /// The binding that carries parameters here.
    pub const fn binding(self) -> Binding {
        match self {
            FormSource::Query => Binding::HttpGet,
            FormSource::Body => Binding::HttpPost,
        }
    }

    /// The ASP.NET collection name (`Request.QueryString`, `Request.Form`), for
    /// [`RequestError::DangerousValue`].
    pub const fn collection(self) -> &'static str {
        match self {
            FormSource::Query => "QueryString",
            FormSource::Body => "Form",
        }
    }

    /// The part of the request, for [`RequestError::InvalidUtf8`].
    const fn part(self) -> &'static str {
        match self {
            FormSource::Query => "query string",
            FormSource::Body => "form body",
        }
    }
}

/// The encoding a form's bytes are read in: ASP.NET's `HttpRequest.ContentEncoding`, the
/// `charset` of the request's content type when .NET can name it, else UTF-8 (the default
/// `requestEncoding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormCharset {
    /// UTF-8: the default, and what nearly every client sends.
    Utf8,
    /// ISO-8859-1 (`latin1`): each byte is the character of that code.
    Latin1,
    /// US-ASCII: a byte above `0x7F` is refused (.NET reads `?` in its place, silently).
    Ascii,
    /// Another encoding that writes ASCII as ASCII (windows-1252, Shift_JIS, …).
    Other(&'static encoding_rs::Encoding),
    /// UTF-16 or UTF-32: no form can be read in it (its names and separators are ASCII
    /// bytes); .NET reads no parameter at all.
    Unreadable(&'static str),
}

impl FormCharset {
    /// The charset of a `Content-Type` value (`None`, empty or unknown: UTF-8).
    pub fn of_content_type(content_type: Option<&[u8]>) -> FormCharset {
        let Some(label) =
            content_type.and_then(|ct| crate::message::content_type_param(ct, b"charset"))
        else {
            return FormCharset::Utf8;
        };
        if label.eq_ignore_ascii_case(b"utf-8") {
            return FormCharset::Utf8;
        }
        if let Some(single) = FormCharset::dotnet_single_byte(label) {
            return single;
        }
        let label = String::from_utf8_lossy(label).to_ascii_lowercase();
        match label.as_str() {
            "utf-8" | "utf8" => FormCharset::Utf8,
            "utf-16" | "utf-16le" | "utf-16be" | "unicode" | "ucs-2" => {
                FormCharset::Unreadable("UTF-16")
            }
            "utf-32" | "utf-32le" | "utf-32be" => FormCharset::Unreadable("UTF-32"),
            other => match encoding_rs::Encoding::for_label(other.as_bytes()) {
                Some(encoding) if encoding == encoding_rs::UTF_8 => FormCharset::Utf8,
                Some(encoding) if encoding.is_ascii_compatible() => FormCharset::Other(encoding),
                Some(encoding) => FormCharset::Unreadable(encoding.name()),
                None => FormCharset::Utf8,
            },
        }
    }

    /// ISO-8859-1 and US-ASCII by their .NET names: the WHATWG labels (encoding_rs) read both
    /// as windows-1252, which .NET does not (`0x80`–`0x9F` are C1 controls in ISO-8859-1,
    /// and US-ASCII has no byte above `0x7F`).
    pub(crate) fn dotnet_single_byte(label: &[u8]) -> Option<FormCharset> {
        const LATIN1: &[&[u8]] = &[
            b"iso-8859-1",
            b"latin1",
            b"iso_8859-1",
            b"l1",
            b"cp819",
            b"ibm819",
            b"iso-ir-100",
            b"iso_8859-1:1987",
            b"csisolatin1",
        ];
        const ASCII: &[&[u8]] = &[
            b"us-ascii",
            b"ascii",
            b"us",
            b"iso646-us",
            b"ansi_x3.4-1968",
            b"csascii",
        ];
        let is = |names: &[&[u8]]| names.iter().any(|name| name.eq_ignore_ascii_case(label));
        if is(LATIN1) {
            Some(FormCharset::Latin1)
        } else if is(ASCII) {
            Some(FormCharset::Ascii)
        } else {
            None
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            FormCharset::Utf8 => "UTF-8",
            FormCharset::Latin1 => "ISO-8859-1",
            FormCharset::Ascii => "US-ASCII",
            FormCharset::Other(encoding) => encoding.name(),
            FormCharset::Unreadable(name) => name,
        }
    }

    /// The text of a run of bytes (percent-decoded) in this charset; `None` if they are not
    /// text in it.
    pub(crate) fn text(self, bytes: &[u8], out: &mut String) -> Option<()> {
        match self {
            FormCharset::Utf8 => out.push_str(std::str::from_utf8(bytes).ok()?),
            FormCharset::Latin1 => out.extend(bytes.iter().map(|&b| char::from(b))),
            FormCharset::Ascii => {
                if !bytes.is_ascii() {
                    return None;
                }
                out.push_str(std::str::from_utf8(bytes).ok()?)
            }
            FormCharset::Other(encoding) => {
                out.push_str(&encoding.decode_without_bom_handling_and_without_replacement(bytes)?)
            }
            FormCharset::Unreadable(_) => return None,
        }
        Some(())
    }
}

/// The decoded pairs of a query string or form body, and the typed lookups a generated
/// server uses to read an operation's parameters from them.
#[derive(Debug, Clone)]
pub struct FormReader<'a> {
    pairs: Vec<Pair<'a>>,
    source: FormSource,
}

/// One `&`-separated segment, decoded.
#[derive(Debug, Clone)]
struct Pair<'a> {
    /// `None` for a segment without `=`, which no parameter matches.
    name: Option<Cow<'a, str>>,
    /// The text after the first `=`, or the whole segment when there is none.
    value: Cow<'a, str>,
}

impl<'a> FormReader<'a> {
    /// Splits and decodes `input` (a query string without its `?`, or a form body) and applies
    /// ASP.NET request validation to every value, as the host does before any parameter is
    /// read.
    ///
    /// Empty segments are skipped; `+` is a space; `%uXXXX` is a UTF-16 unit (as the host's
    /// `HttpUtility.UrlDecode` reads it); a bad escape such as `%zz` is kept literally, as the
    /// host keeps it. Names and values borrow from `input` unless decoding changed them. More
    /// than [`MAX_KEYS`] distinct names are refused, as ASP.NET refuses them, and more than
    /// [`MAX_VALUES`] pairs, which bounds what a request of tiny pairs costs.
    pub fn parse(input: &'a [u8], source: FormSource) -> Result<FormReader<'a>, RequestError> {
        FormReader::parse_in(input, source, FormCharset::Utf8)
    }

    /// [`FormReader::parse`] of a form in `charset` (the request's content encoding).
    pub fn parse_in(
        input: &'a [u8],
        source: FormSource,
        charset: FormCharset,
    ) -> Result<FormReader<'a>, RequestError> {
        if let FormCharset::Unreadable(name) = charset {
            if !input.is_empty() {
                return Err(RequestError::FormCharset {
                    part: source.part(),
                    charset: name,
                    problem: "in which no form can be written (its names and separators are ASCII bytes); ASP.NET reads no parameter from it",
                });
            }
        }
        let decode = |raw: &'a [u8]| match charset {
            FormCharset::Utf8 => decode(raw, source),
            other => decode_in(raw, source, other),
        };
        // Room for an operation's parameters; a body of many separators grows it as it goes
        // (never sized by a count the sender chooses).
        let mut pairs = Vec::with_capacity(PRESIZED_PAIRS);
        let mut dangerous = false;
        for segment in input.split(|&byte| byte == b'&') {
            if segment.is_empty() {
                continue;
            }
            if pairs.len() == MAX_VALUES {
                return Err(RequestError::TooManyValues {
                    collection: source.collection(),
                    limit: MAX_VALUES,
                });
            }
            let pair = match memchr::memchr(b'=', segment) {
                Some(eq) => Pair {
                    name: Some(decode(&segment[..eq])?),
                    value: decode(&segment[eq + 1..])?,
                },
                None => Pair {
                    name: None,
                    value: decode(segment)?,
                },
            };
            dangerous = dangerous || (is_validated(&pair, source) && is_dangerous(&pair.value));
            pairs.push(pair);
        }
        // ASP.NET fills the whole collection, and counts its keys, before it validates any.
        if pairs.len() > MAX_KEYS && distinct_names(&pairs) > MAX_KEYS {
            return Err(RequestError::TooManyKeys {
                collection: source.collection(),
                limit: MAX_KEYS,
            });
        }
        if dangerous {
            return Err(dangerous_value_error(&pairs, source));
        }
        Ok(FormReader { pairs, source })
    }

    /// Where the pairs came from.
    pub fn source(&self) -> FormSource {
        self.source
    }

    /// Reads a parameter of any simple type but `string` with the HTTP rules (what .NET's
    /// `Convert.ChangeType` reads, [`Scalar::read_form`]).
    pub fn scalar<T: Scalar>(
        &self,
        operation: &'static str,
        name: &'static str,
    ) -> Result<T, RequestError> {
        self.typed(operation, name, T::TYPE, T::read_form)
    }

    /// Reads a string parameter. `name=` gives `""`; over HTTP a string is never absent.
    pub fn string(
        &self,
        operation: &'static str,
        name: &'static str,
    ) -> Result<String, RequestError> {
        self.text(operation, name).map(str::to_owned)
    }

    fn typed<T>(
        &self,
        operation: &'static str,
        name: &'static str,
        ty: SoapType,
        parse: fn(&str) -> Result<T, ValueError>,
    ) -> Result<T, RequestError> {
        let text = self.text(operation, name)?;
        parse(text).map_err(|error| RequestError::InvalidValue {
            operation,
            param: name,
            ty,
            value: text.to_owned(),
            error,
        })
    }

    /// The one value sent for `name`.
    ///
    /// Names match ASCII-case-insensitively, as on the host (parameter names are ASCII
    /// identifiers). The host joins a repeated parameter's values with commas, which no
    /// caller means, so a repeat is refused.
    /// Reads a `byte[]` parameter (`base64Binary`) as ASP.NET's HTTP handler does: every
    /// value sent for `name`, each a byte (`Convert.ToByte`), in order (`p=1&p=255`). None at
    /// all is a missing parameter (the host answers 500 too).
    pub fn bytes(
        &self,
        operation: &'static str,
        name: &'static str,
    ) -> Result<Vec<u8>, RequestError> {
        let values: Vec<&str> = self
            .pairs
            .iter()
            .filter(|pair| {
                pair.name
                    .as_deref()
                    .is_some_and(|sent| sent.eq_ignore_ascii_case(name))
            })
            .map(|pair| &*pair.value)
            .collect();
        if values.is_empty() {
            return Err(RequestError::MissingParameter {
                operation,
                param: name,
                binding: self.source.binding(),
            });
        }
        values
            .into_iter()
            .map(|text| {
                dotnet::parse_integer::<u8>(text).map_err(|error| RequestError::InvalidValue {
                    operation,
                    param: name,
                    ty: SoapType::UnsignedByte,
                    value: text.to_owned(),
                    error,
                })
            })
            .collect()
    }

    /// Reads an array parameter of simple values as ASP.NET's HTTP handler does: every value
    /// sent for `name`, in order (`values=a&values=b`), each read as [`FormItem`] reads it.
    /// None at all is a missing parameter (the host answers 500 too).
    pub fn array<T: FormItem>(
        &self,
        operation: &'static str,
        name: &'static str,
    ) -> Result<Vec<T>, RequestError> {
        let values: Vec<&str> = self
            .pairs
            .iter()
            .filter(|pair| {
                pair.name
                    .as_deref()
                    .is_some_and(|sent| sent.eq_ignore_ascii_case(name))
            })
            .map(|pair| &*pair.value)
            .collect();
        if values.is_empty() {
            return Err(RequestError::MissingParameter {
                operation,
                param: name,
                binding: self.source.binding(),
            });
        }
        values
            .into_iter()
            .map(|text| {
                T::read_form_item(text).map_err(|(ty, error)| RequestError::InvalidValue {
                    operation,
                    param: name,
                    ty,
                    value: text.to_owned(),
                    error,
                })
            })
            .collect()
    }

    fn text(&self, operation: &'static str, name: &'static str) -> Result<&str, RequestError> {
        let mut matches = self.pairs.iter().filter(|pair| {
            pair.name
                .as_deref()
                .is_some_and(|sent| sent.eq_ignore_ascii_case(name))
        });
        let first = matches.next().ok_or(RequestError::MissingParameter {
            operation,
            param: name,
            binding: self.source.binding(),
        })?;
        let repeats = matches.count();
        if repeats > 0 {
            return Err(RequestError::RepeatedParameter {
                operation,
                param: name,
                count: repeats + 1,
            });
        }
        Ok(&first.value)
    }
}

/// The pairs [`FormReader::parse`] makes room for before reading any (the most parameters an
/// operation has, with room to spare).
const PRESIZED_PAIRS: usize = 16;

/// The most distinct names (keys) a query string or form body may hold: ASP.NET's
/// `MaxHttpCollectionKeys` default. Names compare ignoring case, as in ASP.NET's collection,
/// and the segments without `=` share one (null) key.
pub const MAX_KEYS: usize = 1000;

/// The most name/value pairs read from a query string or form body, repeated names included.
/// ASP.NET has no such bound; each pair costs about 48 bytes besides its text, so a body of
/// 4 MiB of `a&a&…` would otherwise hold some 100 MiB.
pub const MAX_VALUES: usize = 10 * MAX_KEYS;

/// How many distinct keys `pairs` make for ASP.NET (see [`MAX_KEYS`]).
fn distinct_names(pairs: &[Pair<'_>]) -> usize {
    let names: HashSet<Option<String>> = pairs
        .iter()
        .map(|pair| pair.name.as_deref().map(str::to_lowercase))
        .collect();
    names.len()
}

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
fn decode(raw: &[u8], source: FormSource) -> Result<Cow<'_, str>, RequestError> {
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
fn decode_in(
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

/// Whether request validation looks at this pair's value.
///
/// The host reads a form-body segment without `=` as a name with no value, and validation
/// looks at values only; in a query string the same segment is a value without a name.
fn is_validated(pair: &Pair<'_>, source: FormSource) -> bool {
    pair.name.is_some() || source == FormSource::Query
}

/// ASP.NET request validation as Mono (the reference host) applies it
/// (`HttpRequest.IsInvalidString`): `<` or `＜` (U+FF1C) followed by an ASCII letter, `!` or a
/// character below U+0020 (tab, LF and CR included), or `&` followed by `#`. `</`, `<?` and a
/// `<` before any other character pass.
fn is_dangerous(value: &str) -> bool {
    /// U+FF1C FULLWIDTH LESS-THAN SIGN in UTF-8.
    const FULLWIDTH_LESS_THAN: &[u8] = "\u{FF1C}".as_bytes();
    // Mono compares UTF-16 units; every character it looks for after `<` is ASCII, a single
    // byte in UTF-8, so comparing the next byte is the same test.
    let opens_markup =
        |next: Option<&u8>| next.is_some_and(|&b| b.is_ascii_alphabetic() || b == b'!' || b < 0x20);
    let bytes = value.as_bytes();
    memchr::memchr3_iter(b'<', b'&', FULLWIDTH_LESS_THAN[0], bytes).any(|at| match bytes[at] {
        b'<' => opens_markup(bytes.get(at + 1)),
        b'&' => bytes.get(at + 1) == Some(&b'#'),
        _ => {
            bytes[at..].starts_with(FULLWIDTH_LESS_THAN)
                && opens_markup(bytes.get(at + FULLWIDTH_LESS_THAN.len()))
        }
    })
}

/// The error the host gives for a request with a dangerous value (error path only, so it may
/// allocate, but it stays linear: a body can hold very many pairs).
///
/// The host validates its collection key by key, in the order each name first appeared, and
/// a key's value is all its values joined with `,`; the error names that key as first
/// spelled. A segment without `=` in a query string is a value under a null key (shown as an
/// empty name). Joining cannot make or unmake a dangerous pattern (`,` is not part of one),
/// so the key reported is the earliest-appearing key that has any dangerous value.
fn dangerous_value_error(pairs: &[Pair<'_>], source: FormSource) -> RequestError {
    let validated: Vec<&Pair<'_>> = pairs
        .iter()
        .filter(|pair| is_validated(pair, source))
        .collect();
    let mut first_of_key: HashMap<Option<String>, usize> = HashMap::new();
    let mut reported: Option<usize> = None;
    for (index, pair) in validated.iter().enumerate() {
        let first = *first_of_key.entry(key(pair)).or_insert(index);
        if is_dangerous(&pair.value) && reported.is_none_or(|r| first < r) {
            reported = Some(first);
        }
    }
    let first = reported.expect("called only when some validated value is dangerous");
    let reported_key = key(validated[first]);
    let joined = validated
        .iter()
        .filter(|pair| key(pair) == reported_key)
        .map(|pair| &*pair.value)
        .collect::<Vec<_>>()
        .join(",");
    RequestError::DangerousValue {
        collection: source.collection(),
        name: validated[first]
            .name
            .as_deref()
            .unwrap_or_default()
            .to_owned(),
        excerpt: excerpt(&joined),
    }
}

/// The key the host files a pair under: its name, case-insensitively, or none.
fn key(pair: &Pair<'_>) -> Option<String> {
    pair.name.as_deref().map(str::to_lowercase)
}

/// The start of a value as the host quotes it in the validation message.
///
/// The host quotes the value and, when the quoted text is over 20 UTF-16 units, keeps its
/// first 16 and appends `..."`: so a value over 18 units shows its first 15 and `...`.
/// `<!DOCTYPE x [<!ENTITY e "v">]>` becomes `<!DOCTYPE x [<!...`. A character that would be
/// cut in half (a surrogate pair) is left out whole.
fn excerpt(value: &str) -> String {
    const KEPT_UNITS: usize = 15;
    const WHOLE_UNITS: usize = 18;
    if value.encode_utf16().nth(WHOLE_UNITS).is_none() {
        return value.to_owned();
    }
    let mut units = 0;
    let mut end = 0;
    for (at, c) in value.char_indices() {
        units += c.len_utf16();
        if units > KEPT_UNITS {
            break;
        }
        end = at + c.len_utf8();
    }
    format!("{}...", &value[..end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;

    #[test]
    fn a_byte_array_goes_as_one_pair_per_byte() {
        let mut form = FormWriter::with_capacity(32);
        form.bytes(OP, "p", Some(&[1, 255]), Binding::HttpGet)
            .unwrap();
        let written = form.finish();
        assert_eq!(written, "p=1&p=255");
        let reader = FormReader::parse(written.as_bytes(), FormSource::Query).unwrap();
        assert_eq!(reader.bytes(OP, "P"), Ok(vec![1, 255]));
        assert!(matches!(
            reader.bytes(OP, "q"),
            Err(RequestError::MissingParameter { .. })
        ));
        let wide = FormReader::parse(b"p=256", FormSource::Query).unwrap();
        assert!(matches!(
            wide.bytes(OP, "p"),
            Err(RequestError::InvalidValue { .. })
        ));
        let mut empty = FormWriter::with_capacity(8);
        assert!(matches!(
            empty.bytes(OP, "p", Some(&[]), Binding::HttpPost),
            Err(EncodeError::EmptyArrayOverHttp { .. })
        ));
    }
    const OP: &str = "MobileContactEmailCreate";

    fn query(input: &str) -> FormReader<'_> {
        FormReader::parse(input.as_bytes(), FormSource::Query).unwrap()
    }

    fn body(input: &str) -> FormReader<'_> {
        FormReader::parse(input.as_bytes(), FormSource::Body).unwrap()
    }

    fn dangerous(input: &str, source: FormSource) -> (String, String) {
        match FormReader::parse(input.as_bytes(), source) {
            Err(RequestError::DangerousValue {
                collection,
                name,
                excerpt,
            }) => {
                assert_eq!(collection, source.collection());
                (name, excerpt)
            }
            other => panic!("expected DangerousValue for {input:?}, got {other:?}"),
        }
    }

    // ---- FormWriter ----

    #[test]
    fn writer_reproduces_the_captured_get_query() {
        // get-op12-ok.txt.
        let mut form = FormWriter::with_capacity(160);
        form.scalar("accountnumber", &1001);
        form.scalar("contactnumber", &5);
        form.string(OP, "email", Some("jane.doe@example.com"), Binding::HttpGet)
            .unwrap();
        form.scalar("primary", &true);
        form.scalar("repnumber", &42);
        form.string(
            OP,
            "timestamp",
            Some("2026-01-01T00:00:00Z"),
            Binding::HttpGet,
        )
        .unwrap();
        form.string(OP, "sig", Some("abc"), Binding::HttpGet)
            .unwrap();
        form.string(OP, "mobilekey", Some("mk-1"), Binding::HttpGet)
            .unwrap();
        assert_eq!(
            form.finish(),
            "accountnumber=1001&contactnumber=5&email=jane.doe%40example.com&primary=true&repnumber=42\
             &timestamp=2026-01-01T00%3A00%3A00Z&sig=abc&mobilekey=mk-1"
        );
    }

    #[test]
    fn writer_reproduces_the_captured_post_body_encoding() {
        // The taskcomment, subject and location values of post-op01-request-validation.txt.
        let mut form = FormWriter::new();
        form.pair(
            "taskcomment",
            "Line1\nLine2 \"quoted\" 'single' 100% + a=b;c",
        );
        form.pair("subject", "Café naïve ☕");
        form.pair("location", "  padded  ");
        assert_eq!(
            form.as_str(),
            "taskcomment=Line1%0ALine2+%22quoted%22+%27single%27+100%25+%2B+a%3Db%3Bc\
             &subject=Caf%C3%A9+na%C3%AFve+%E2%98%95&location=++padded++"
        );
    }

    #[test]
    fn writer_writes_typed_values() {
        let mut form = FormWriter::new();
        form.scalar("min", &i32::MIN);
        form.scalar("max", &i32::MAX);
        form.scalar("no", &false);
        form.scalar("quantity", &Decimal::new(-123400, 4));
        form.scalar("zero", &Decimal::new(0, 1));
        form.pair("empty", "");
        form.pair("a b&c=d", "x");
        assert_eq!(
            form.finish(),
            "min=-2147483648&max=2147483647&no=false&quantity=-12.3400&zero=0.0&empty=&a+b%26c%3Dd=x"
        );
    }

    #[test]
    fn writer_leaves_unreserved_characters_alone() {
        let mut form = FormWriter::new();
        form.pair("v", "AZaz09-._*~/?#[]");
        assert_eq!(form.finish(), "v=AZaz09-._*%7E%2F%3F%23%5B%5D");
    }

    #[test]
    fn writer_sends_an_empty_string_but_refuses_an_absent_one() {
        let mut form = FormWriter::new();
        form.string(OP, "email", Some(""), Binding::HttpPost)
            .unwrap();
        assert_eq!(
            form.string(OP, "sig", None, Binding::HttpPost),
            Err(EncodeError::AbsentOverHttp {
                operation: OP,
                param: "sig",
                binding: Binding::HttpPost
            })
        );
        // The refused parameter left nothing behind.
        assert_eq!(form.finish(), "email=");
    }

    #[test]
    fn writer_output_reads_back() {
        let mut form = FormWriter::new();
        form.scalar("n", &-7);
        form.scalar("b", &true);
        form.scalar("d", &Decimal::new(150, 2));
        form.pair("s", "a+b c%20&d=e ☕ <>");
        let text = form.finish();
        let reader = body(&text);
        assert_eq!(reader.scalar::<i32>(OP, "n"), Ok(-7));
        assert_eq!(reader.scalar::<bool>(OP, "b"), Ok(true));
        assert_eq!(
            reader.scalar::<Decimal>(OP, "d").unwrap().to_string(),
            "1.50"
        );
        assert_eq!(reader.string(OP, "s").unwrap(), "a+b c%20&d=e ☕ <>");
    }

    // ---- FormReader: splitting and decoding ----

    #[test]
    fn reader_reads_the_captured_post_body() {
        // post-op12-ok-charset.txt.
        let reader = body(
            "accountnumber=1001&contactnumber=5&email=jane.doe%40example.com&primary=true&repnumber=42\
             &timestamp=2026-01-01T00%3A00%3A00Z&sig=abc&mobilekey=mk-1",
        );
        assert_eq!(reader.source(), FormSource::Body);
        assert_eq!(reader.scalar::<i32>(OP, "accountnumber"), Ok(1001));
        assert_eq!(reader.scalar::<i32>(OP, "contactnumber"), Ok(5));
        assert_eq!(reader.string(OP, "email").unwrap(), "jane.doe@example.com");
        assert_eq!(reader.scalar::<bool>(OP, "primary"), Ok(true));
        assert_eq!(
            reader.string(OP, "timestamp").unwrap(),
            "2026-01-01T00:00:00Z"
        );
        assert_eq!(reader.string(OP, "mobilekey").unwrap(), "mk-1");
    }

    #[test]
    fn reader_decodes_plus_percent_and_utf8() {
        // get-op12-plus-in-query.txt (sig=a+b is "a b"), and the %-encoded values of
        // get-op01-request-validation.txt.
        let reader = query(
            "sig=a+b&taskcomment=Line1%0ALine2%20%22quoted%22%20%27single%27%20100%25%20%2B%20a%3Db%3Bc\
             &subject=Caf%C3%A9%20na%C3%AFve%20%E2%98%95&location=%20%20padded%20%20&plus=%2B+%2b",
        );
        assert_eq!(reader.string(OP, "sig").unwrap(), "a b");
        assert_eq!(
            reader.string(OP, "taskcomment").unwrap(),
            "Line1\nLine2 \"quoted\" 'single' 100% + a=b;c"
        );
        assert_eq!(reader.string(OP, "subject").unwrap(), "Café naïve ☕");
        assert_eq!(reader.string(OP, "location").unwrap(), "  padded  ");
        assert_eq!(reader.string(OP, "plus").unwrap(), "+ +");
    }

    #[test]
    fn reader_decodes_utf16_escapes_as_dotnet_framework_does() {
        let reader = query(
            "a=%u0041%u0062c&b=%u20AC+%u20ac&c=%uD834%uDD1E!&d=%u00C3%u00A9&e=x%u0025u0041&%u0066=1&g=caf%u00E9&h=%c3%a9%u00e9%41",
        );
        assert_eq!(reader.string(OP, "a").unwrap(), "Abc");
        assert_eq!(reader.string(OP, "b").unwrap(), "€ €");
        assert_eq!(reader.string(OP, "c").unwrap(), "𝄞!");
        // Every unit is a character, those up to 00FF too (HttpEncoder.UrlDecode's AddChar).
        assert_eq!(reader.string(OP, "d").unwrap(), "Ã©");
        assert_eq!(reader.string(OP, "g").unwrap(), "café");
        assert_eq!(reader.string(OP, "h").unwrap(), "ééA");
        // Decoded once: the '%' an escape gives starts nothing.
        assert_eq!(reader.string(OP, "e").unwrap(), "x%u0041");
        assert_eq!(reader.scalar::<i32>(OP, "f"), Ok(1));
        // Validation sees the decoded value.
        let (name, excerpt) = dangerous("x=%u003Cscript%u003E", FormSource::Body);
        assert_eq!((name.as_str(), excerpt.as_str()), ("x", "<script>"));
    }

    #[test]
    fn reader_keeps_incomplete_utf16_escapes_literally() {
        let reader = body("a=%u&b=%u12&c=%u12z4&d=%u%41&e=%U0041&f=%u0041%u");
        assert_eq!(reader.string(OP, "a").unwrap(), "%u");
        assert_eq!(reader.string(OP, "b").unwrap(), "%u12");
        assert_eq!(reader.string(OP, "c").unwrap(), "%u12z4");
        assert_eq!(reader.string(OP, "d").unwrap(), "%uA");
        assert_eq!(reader.string(OP, "e").unwrap(), "%U0041");
        assert_eq!(reader.string(OP, "f").unwrap(), "A%u");
    }

    #[test]
    fn a_form_is_read_in_its_declared_charset_as_dotnet_reads_it() {
        let charset = |ct: &str| FormCharset::of_content_type(Some(ct.as_bytes()));
        assert_eq!(FormCharset::of_content_type(None), FormCharset::Utf8);
        assert_eq!(
            charset("application/x-www-form-urlencoded"),
            FormCharset::Utf8
        );
        assert_eq!(
            charset("application/x-www-form-urlencoded; charset=bogus"),
            FormCharset::Utf8
        );
        assert_eq!(
            charset("application/x-www-form-urlencoded; charset="),
            FormCharset::Utf8
        );
        assert_eq!(charset("x; charset=ISO-8859-1"), FormCharset::Latin1);
        assert_eq!(charset("x; charset=us-ascii"), FormCharset::Ascii);
        assert_eq!(
            charset("x; charset=utf-16"),
            FormCharset::Unreadable("UTF-16")
        );
        let read = |input: &str, charset: FormCharset| {
            FormReader::parse_in(input.as_bytes(), FormSource::Body, charset)
                .map(|r| r.string(OP, "a").unwrap())
        };
        // ISO-8859-1: a byte is its character; UTF-8 bytes are two characters.
        assert_eq!(read("a=caf%E9+x", FormCharset::Latin1).unwrap(), "café x");
        assert_eq!(read("a=caf%C3%A9", FormCharset::Latin1).unwrap(), "cafÃ©");
        // A %u character between runs of bytes, each run read in the charset.
        assert_eq!(read("a=%E9%u20AC%E9", FormCharset::Latin1).unwrap(), "é€é");
        let windows_1252 = FormCharset::Other(encoding_rs::WINDOWS_1252);
        assert_eq!(read("a=%80%20x", windows_1252).unwrap(), "€ x");
        assert_eq!(read("a=plain", FormCharset::Ascii).unwrap(), "plain");
        // What .NET reads as `?` or U+FFFD, silently, is refused.
        for (input, charset) in [
            ("a=caf%E9", FormCharset::Ascii),
            ("a=%81", FormCharset::Other(encoding_rs::SHIFT_JIS)),
        ] {
            let error =
                FormReader::parse_in(input.as_bytes(), FormSource::Body, charset).unwrap_err();
            assert!(
                matches!(error, RequestError::FormCharset { .. }),
                "{input}: {error:?}"
            );
        }
        let utf16 =
            FormReader::parse_in(b"a=1", FormSource::Body, FormCharset::Unreadable("UTF-16"))
                .unwrap_err();
        assert_eq!(
            utf16.to_string(),
            "The form body is declared UTF-16, in which no form can be written (its names and \
             separators are ASCII bytes); ASP.NET reads no parameter from it."
        );
    }

    #[test]
    fn reader_refuses_lone_surrogates_naming_the_escape() {
        for (input, escape) in [
            ("a=%uD834", "%uD834"),
            ("a=%uD834x", "%uD834"),
            ("a=%uDD1E%uD834", "%uDD1E"),
            ("a=%uD834%u0041", "%uD834"),
            ("a=%uD834%uD834", "%uD834"),
            ("a=b&c=%udc00", "%udc00"),
        ] {
            let error = FormReader::parse(input.as_bytes(), FormSource::Query).unwrap_err();
            assert_eq!(
                error,
                RequestError::LoneSurrogate {
                    part: "query string",
                    escape: escape.into()
                },
                "{input}"
            );
            assert_eq!(
                error.to_string(),
                format!("The query string holds the escape {escape}, half of a UTF-16 surrogate pair without its other half, which is no character.")
            );
        }
    }

    #[test]
    fn reader_refuses_bytes_that_are_not_utf8_around_utf16_escapes() {
        // .NET ends a run of bytes at a character and reads the incomplete run as U+FFFD.
        for input in ["a=%C3%u00A9", "a=%u0041%A9", "a=%E2%82%u00AC"] {
            assert_eq!(
                FormReader::parse(input.as_bytes(), FormSource::Body).unwrap_err(),
                RequestError::InvalidUtf8 { part: "form body" },
                "{input}"
            );
        }
    }

    #[test]
    fn reader_decodes_percent_escapes_as_percent_encoding_does() {
        // Without `%u`, decoding is `+` as space then plain percent-decoding.
        let pieces = [
            "%", "+", "4", "1", "%41", "%c3%a9", "a", "z", "%%", "%2", "é", "u",
        ];
        let mut state: u32 = 7;
        for _ in 0..20_000 {
            let mut raw = String::new();
            for _ in 0..8 {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                raw.push_str(pieces[(state >> 16) as usize % pieces.len()]);
            }
            if raw.contains("%u") {
                continue;
            }
            let replaced = raw.replace('+', " ");
            let expected = percent_encoding::percent_decode(replaced.as_bytes()).decode_utf8();
            let got = decode(raw.as_bytes(), FormSource::Body);
            match expected {
                Ok(text) => assert_eq!(got.as_deref(), Ok(&*text), "{raw}"),
                Err(_) => assert!(got.is_err(), "{raw}"),
            }
        }
    }

    #[test]
    fn reader_memory_does_not_follow_the_count_of_separators() {
        // 4 MiB of separators: no pair, and nothing sized by their count.
        let separators = vec![b'&'; 4 << 20];
        let reader = FormReader::parse(&separators, FormSource::Body).unwrap();
        assert_eq!(reader.pairs.capacity(), PRESIZED_PAIRS);
        let reader = query("a=1&&&&b=2");
        assert_eq!(reader.pairs.capacity(), PRESIZED_PAIRS);
    }

    #[test]
    fn reader_refuses_more_keys_than_asp_net_reads() {
        let names = |n: usize| -> Vec<String> { (0..n).map(|i| format!("k{i}=1")).collect() };
        let at_limit = names(MAX_KEYS).join("&");
        assert_eq!(query(&at_limit).pairs.len(), MAX_KEYS);
        let over = names(MAX_KEYS + 1).join("&");
        assert_eq!(
            FormReader::parse(over.as_bytes(), FormSource::Query).err(),
            Some(RequestError::TooManyKeys {
                collection: "QueryString",
                limit: 1000
            })
        );
        // Repeated names, names differing in case only and segments without `=` are one key
        // each, as in ASP.NET's collection; empty segments are nothing.
        let repeated = format!(
            "{}&{}&{}&&&",
            vec!["a=1"; MAX_KEYS + 5].join("&"),
            ["A=2"; 5].join("&"),
            vec!["x"; MAX_KEYS].join("&")
        );
        assert_eq!(query(&repeated).pairs.len(), 2 * MAX_KEYS + 10);
    }

    #[test]
    fn reader_bounds_the_pairs_it_holds() {
        let at_limit = vec!["a=1"; MAX_VALUES].join("&");
        assert_eq!(query(&at_limit).pairs.len(), MAX_VALUES);
        // Refused before the extra pair is decoded (it is not UTF-8).
        let over = format!("{at_limit}&b=%ff");
        assert_eq!(
            FormReader::parse(over.as_bytes(), FormSource::Body).err(),
            Some(RequestError::TooManyValues {
                collection: "Form",
                limit: 10_000
            })
        );
    }

    #[test]
    fn reader_keeps_bad_escapes_literally() {
        // get-malformed-query.txt: email=%zz reaches the operation as "%zz".
        let reader = query("email=%zz&a=%4&b=%&c=%%41&d=100%&e=%2+1");
        assert_eq!(reader.string(OP, "email").unwrap(), "%zz");
        assert_eq!(reader.string(OP, "a").unwrap(), "%4");
        assert_eq!(reader.string(OP, "b").unwrap(), "%");
        assert_eq!(reader.string(OP, "c").unwrap(), "%A");
        assert_eq!(reader.string(OP, "d").unwrap(), "100%");
        assert_eq!(reader.string(OP, "e").unwrap(), "%2 1");
    }

    #[test]
    fn reader_skips_junk_separators() {
        // post-malformed-body.txt: "&&" and "=x" do not disturb the other parameters.
        let reader = body(
            "accountnumber=1001&&contactnumber=5&email=%zz&primary=true&repnumber=42&=x&timestamp=t&sig=s&mobilekey=k",
        );
        assert_eq!(reader.scalar::<i32>(OP, "contactnumber"), Ok(5));
        assert_eq!(reader.string(OP, "email").unwrap(), "%zz");
        assert_eq!(reader.string(OP, "timestamp").unwrap(), "t");
        assert_eq!(reader.string(OP, "mobilekey").unwrap(), "k");
        let reader = query("&&&a=1&&");
        assert_eq!(reader.scalar::<i32>(OP, "a"), Ok(1));
    }

    #[test]
    fn reader_splits_at_the_first_equals_sign() {
        let reader = query("sig=a=b==&empty=&eq==");
        assert_eq!(reader.string(OP, "sig").unwrap(), "a=b==");
        assert_eq!(reader.string(OP, "empty").unwrap(), "");
        assert_eq!(reader.string(OP, "eq").unwrap(), "=");
    }

    #[test]
    fn reader_decodes_names_too() {
        let reader = query("e%6Dail=x&first+name=y&caf%C3%A9=z");
        assert_eq!(reader.string(OP, "email").unwrap(), "x");
        assert_eq!(reader.string(OP, "first name").unwrap(), "y");
        assert_eq!(reader.string(OP, "café").unwrap(), "z");
    }

    #[test]
    fn reader_segment_without_equals_matches_nothing() {
        for source in [FormSource::Query, FormSource::Body] {
            let reader = FormReader::parse(b"email&sig=s", source).unwrap();
            assert_eq!(
                reader.string(OP, "email"),
                Err(RequestError::MissingParameter {
                    operation: OP,
                    param: "email",
                    binding: source.binding()
                })
            );
            assert_eq!(reader.string(OP, "sig").unwrap(), "s");
        }
    }

    #[test]
    fn reader_borrows_when_nothing_is_decoded() {
        let reader = query("a=plain&b=x%41&c=x+y&%41=v");
        let pair = |i: usize| &reader.pairs[i];
        assert!(matches!(pair(0).name, Some(Cow::Borrowed("a"))));
        assert!(matches!(pair(0).value, Cow::Borrowed("plain")));
        assert!(matches!(pair(1).value, Cow::Owned(ref v) if v == "xA"));
        assert!(matches!(pair(2).value, Cow::Owned(ref v) if v == "x y"));
        assert!(matches!(pair(3).name, Some(Cow::Owned(ref n)) if n == "A"));
        assert!(matches!(pair(3).value, Cow::Borrowed("v")));
    }

    #[test]
    fn reader_refuses_invalid_utf8_after_decoding() {
        let invalid = |input: &[u8], source| FormReader::parse(input, source).unwrap_err();
        assert_eq!(
            invalid(b"email=%C3", FormSource::Query),
            RequestError::InvalidUtf8 {
                part: "query string"
            }
        );
        assert_eq!(
            invalid(b"email=%FF+x", FormSource::Body),
            RequestError::InvalidUtf8 { part: "form body" }
        );
        assert_eq!(
            invalid(b"%E9t%E9=1", FormSource::Body),
            RequestError::InvalidUtf8 { part: "form body" }
        );
        assert_eq!(
            invalid(b"a=\xff", FormSource::Query),
            RequestError::InvalidUtf8 {
                part: "query string"
            }
        );
        // Even a parameter nobody asks for.
        assert_eq!(
            invalid(b"a=1&unused=%80", FormSource::Query),
            RequestError::InvalidUtf8 {
                part: "query string"
            }
        );
    }

    #[test]
    fn reader_of_empty_input_has_no_parameters() {
        let reader = query("");
        assert_eq!(
            reader.scalar::<i32>(OP, "accountnumber"),
            Err(RequestError::MissingParameter {
                operation: OP,
                param: "accountnumber",
                binding: Binding::HttpGet
            })
        );
    }

    // ---- FormReader: lookups ----

    #[test]
    fn lookup_names_are_case_insensitive() {
        // get-op12-param-name-case.txt.
        let reader = query("ACCOUNTNUMBER=1001&Email=jane.doe%40example.com&PRIMARY=true");
        assert_eq!(reader.scalar::<i32>(OP, "accountnumber"), Ok(1001));
        assert_eq!(reader.string(OP, "email").unwrap(), "jane.doe@example.com");
        assert_eq!(reader.scalar::<bool>(OP, "primary"), Ok(true));
    }

    #[test]
    fn lookup_reports_missing_parameters_with_the_binding() {
        // get-op12-missing-int.txt and post-op12-missing-string.txt.
        let reader = query("accountnumber=1001");
        assert_eq!(
            reader.scalar::<i32>(OP, "contactnumber"),
            Err(RequestError::MissingParameter {
                operation: OP,
                param: "contactnumber",
                binding: Binding::HttpGet
            })
        );
        let reader = body("accountnumber=1001");
        assert_eq!(
            reader.string(OP, "email"),
            Err(RequestError::MissingParameter {
                operation: OP,
                param: "email",
                binding: Binding::HttpPost
            })
        );
        // A prefix or a longer name is not the parameter.
        let reader = body("emai=x&emails=y");
        assert!(matches!(
            reader.string(OP, "email"),
            Err(RequestError::MissingParameter { .. })
        ));
    }

    #[test]
    fn lookup_refuses_repeated_parameters() {
        // get-op12-repeated-param.txt: the host would read "a,b".
        let reader = query("email=jane.doe%40example.com&sig=abc&email=second%40example.com");
        assert_eq!(
            reader.string(OP, "email"),
            Err(RequestError::RepeatedParameter {
                operation: OP,
                param: "email",
                count: 2
            })
        );
        // In any case, and even with equal values.
        let reader = body("n=1&N=1&n=1");
        assert_eq!(
            reader.scalar::<i32>(OP, "n"),
            Err(RequestError::RepeatedParameter {
                operation: OP,
                param: "n",
                count: 3
            })
        );
        assert_eq!(
            reader.string(OP, "sig"),
            Err(RequestError::MissingParameter {
                operation: OP,
                param: "sig",
                binding: Binding::HttpPost
            })
        );
    }

    #[test]
    fn lookup_ignores_unknown_parameters() {
        // get-op12-extra-param.txt.
        let reader = query("accountnumber=1001&extra=whatever&another");
        assert_eq!(reader.scalar::<i32>(OP, "accountnumber"), Ok(1001));
    }

    #[test]
    fn lookup_applies_the_http_value_rules() {
        let reader = query("padded=%201001%20&True=True&one=1&decimal=-0012.3400&empty=&comma=1%2C5&big=2147483648&e=1E2");
        assert_eq!(reader.scalar::<i32>(OP, "padded"), Ok(1001));
        assert_eq!(reader.scalar::<bool>(OP, "True"), Ok(true));
        assert_eq!(
            reader.scalar::<Decimal>(OP, "decimal").unwrap().to_string(),
            "-12.3400"
        );
        assert_eq!(
            reader.scalar::<bool>(OP, "one"),
            Err(RequestError::InvalidValue {
                operation: OP,
                param: "one",
                ty: SoapType::Boolean,
                value: "1".into(),
                error: ValueError::NotBoolean {
                    accepted: "true or false, in any case"
                },
            })
        );
        assert_eq!(
            reader.scalar::<i32>(OP, "empty"),
            Err(RequestError::InvalidValue {
                operation: OP,
                param: "empty",
                ty: SoapType::Int,
                value: String::new(),
                error: ValueError::Empty,
            })
        );
        assert_eq!(
            reader.scalar::<Decimal>(OP, "comma"),
            Err(RequestError::InvalidValue {
                operation: OP,
                param: "comma",
                ty: SoapType::Decimal,
                value: "1,5".into(),
                error: ValueError::DecimalComma,
            })
        );
        assert!(matches!(
            reader.scalar::<i32>(OP, "big"),
            Err(RequestError::InvalidValue {
                error: ValueError::OutOfRange {
                    ty: crate::SoapType::Int
                },
                ..
            })
        ));
        assert!(matches!(
            reader.scalar::<Decimal>(OP, "e"),
            Err(RequestError::InvalidValue {
                ty: SoapType::Decimal,
                error: ValueError::DecimalExponent,
                ..
            })
        ));
        // An empty string is a value, not an absence.
        assert_eq!(reader.string(OP, "empty").unwrap(), "");
    }

    #[test]
    fn lookup_error_quotes_the_value_after_decoding() {
        let reader = body("n=%C3%A9+1");
        match reader.scalar::<i32>(OP, "n") {
            Err(RequestError::InvalidValue {
                value,
                error: ValueError::NotInteger,
                ..
            }) => assert_eq!(value, "é 1"),
            other => panic!("{other:?}"),
        }
    }

    // ---- FormReader: request validation ----

    #[test]
    fn validation_reproduces_the_captured_messages() {
        // get-op01-request-validation.txt.
        let (name, excerpt) = dangerous(
            "repnumber=42&accountnumber=1001&accountname=Acme%20%3CLtd%3E&contactnumber=5&tasktype=Call\
             &taskcomment=Line1%0ALine2%20%22quoted%22%20%27single%27%20100%25%20%2B%20a%3Db%3Bc&sig=abc",
            FormSource::Query,
        );
        assert_eq!(
            (name.as_str(), excerpt.as_str()),
            ("accountname", "Acme <Ltd>")
        );
        // post-op01-request-validation.txt.
        let (name, excerpt) = dangerous(
            "repnumber=42&accountname=Acme+%3CLtd%3E&sig=abc",
            FormSource::Body,
        );
        assert_eq!(
            (name.as_str(), excerpt.as_str()),
            ("accountname", "Acme <Ltd>")
        );
        // post-op12-doctype-in-form-value.txt.
        let (name, excerpt) = dangerous(
            "accountnumber=1001&email=jane.doe%40example.com&sig=%3C%21DOCTYPE+x+%5B%3C%21ENTITY+e+%22v%22%3E%5D%3E&mobilekey=mk-1",
            FormSource::Body,
        );
        assert_eq!(
            (name.as_str(), excerpt.as_str()),
            ("sig", "<!DOCTYPE x [<!...")
        );
        let message = FormReader::parse(
            b"sig=%3C%21DOCTYPE+x+%5B%3C%21ENTITY+e+%22v%22%3E%5D%3E",
            FormSource::Body,
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            message,
            "A potentially dangerous Request.Form value was detected from the client (sig=\"<!DOCTYPE x [<!...\")."
        );
    }

    #[test]
    fn validation_catches_each_dangerous_pattern() {
        for value in [
            "<a",
            "x<Z",
            "<!--",
            "&#60;",
            "a&#x3c;",
            "&#",
            "<<b",
            // Mono's rule: a character below U+0020 after '<' too, and the fullwidth '＜'.
            "<\t",
            "a<\nb",
            "<\u{1}",
            "<\u{1f}",
            "\u{FF1C}a",
            "x\u{FF1C}Z",
            "\u{FF1C}!--",
            "\u{FF1C}\r",
            "\u{FF1C}\u{FF1C}b",
        ] {
            let input = format!(
                "v={}",
                form_urlencoded::byte_serialize(value.as_bytes()).collect::<String>()
            );
            let (name, excerpt) = dangerous(&input, FormSource::Query);
            assert_eq!((name.as_str(), excerpt.as_str()), ("v", value));
        }
    }

    #[test]
    fn validation_lets_harmless_markup_characters_through() {
        for value in [
            "<",
            "a <",
            "1 < 2",
            "<1",
            "< b",
            "<=",
            "<>",
            "<é",
            "&",
            "&amp;",
            "a & #",
            "#&",
            ">b",
            "<_",
            "<-",
            // Mono lets '/' and '?' after '<' through (the Microsoft host did not).
            "</b>",
            "<?xml",
            "a</",
            "<?",
            // '＜' is checked as '<' is, and nothing else fullwidth is.
            "\u{FF1C}",
            "\u{FF1C}1",
            "\u{FF1C}/b",
            "\u{FF1C} b",
            "<\u{FF41}",
            "\u{FF06}#",
            "\u{FF1D}a",
            "\u{FF1B}a",
            // A space is U+0020, not below it.
            "< ",
        ] {
            let input = format!(
                "v={}",
                form_urlencoded::byte_serialize(value.as_bytes()).collect::<String>()
            );
            let reader = FormReader::parse(input.as_bytes(), FormSource::Body)
                .unwrap_or_else(|e| panic!("{value:?} refused: {e}"));
            assert_eq!(reader.string(OP, "v").unwrap(), value);
        }
    }

    #[test]
    fn validation_applies_to_decoded_values_not_raw_ones() {
        // Raw "<" in the input and an escaped one are the same value.
        assert_eq!(dangerous("v=<b>", FormSource::Query).1, "<b>");
        assert_eq!(dangerous("v=%26%23", FormSource::Query).1, "&#");
        // '+' decodes to a space, so this is "< b": harmless.
        assert!(FormReader::parse(b"v=%3C+b", FormSource::Query).is_ok());
    }

    #[test]
    fn validation_covers_unknown_parameters_and_reports_the_name_as_sent() {
        let (name, excerpt) = dangerous(
            "accountnumber=1001&Extra%20Param=%3Cscript%3E",
            FormSource::Body,
        );
        assert_eq!(
            (name.as_str(), excerpt.as_str()),
            ("Extra Param", "<script>")
        );
    }

    #[test]
    fn validation_happens_before_any_lookup_problem() {
        // A repeated, dangerous parameter: the host validates first.
        let (name, excerpt) = dangerous("email=a&email=%3Cb", FormSource::Query);
        // The host's value for a repeated key is all of them joined with ','.
        assert_eq!((name.as_str(), excerpt.as_str()), ("email", "a,<b"));
    }

    #[test]
    fn validation_reports_the_first_key_in_order_of_first_appearance() {
        // Key "a" appears first; its second value is the dangerous one, and the host (walking
        // keys, not pairs) reports "a" with its joined value, not "b".
        let (name, excerpt) = dangerous("a=1&b=%3Cx&A=%3Cy", FormSource::Query);
        assert_eq!((name.as_str(), excerpt.as_str()), ("a", "1,<y"));
        let (name, excerpt) = dangerous("b=%3Cx&a=1&A=%3Cy", FormSource::Query);
        assert_eq!((name.as_str(), excerpt.as_str()), ("b", "<x"));
    }

    #[test]
    fn validation_of_segments_without_equals_follows_the_host() {
        // Query: the segment is a value with no name.
        let (name, excerpt) = dangerous("a=1&%3Cscript%3E", FormSource::Query);
        assert_eq!((name.as_str(), excerpt.as_str()), ("", "<script>"));
        // Form body: the segment is a name with no value, and names are not validated.
        let reader = body("a=1&%3Cscript%3E");
        assert_eq!(reader.scalar::<i32>(OP, "a"), Ok(1));
        // Nor are names anywhere.
        assert!(FormReader::parse(b"%3Cb%3E=1", FormSource::Query).is_ok());
    }

    #[test]
    fn validation_error_path_finds_the_key_among_the_most_values_read() {
        // As many distinct names as are read and one dangerous value at the end (more values
        // are refused before any is validated, as ASP.NET refuses them).
        let mut input = String::new();
        for i in 0..MAX_KEYS - 2 {
            input.push_str(&format!("p{i}=v&"));
        }
        input.push_str("P7=%3Cb&last=%3Cc");
        let (name, excerpt) = dangerous(&input, FormSource::Body);
        assert_eq!((name.as_str(), excerpt.as_str()), ("p7", "v,<b"));
    }

    #[test]
    fn excerpt_truncates_like_the_host() {
        assert_eq!(excerpt(""), "");
        assert_eq!(excerpt("Acme <Ltd>"), "Acme <Ltd>");
        // 18 UTF-16 units still fit (quoted: 20); 19 do not.
        assert_eq!(excerpt("<b>456789012345678"), "<b>456789012345678");
        assert_eq!(excerpt("<b>4567890123456789"), "<b>456789012345...");
        assert_eq!(
            excerpt("<!DOCTYPE x [<!ENTITY e \"v\">]>"),
            "<!DOCTYPE x [<!..."
        );
        // Units, not bytes: "é" is one unit, so 18 of them fit whole.
        assert_eq!(excerpt(&"é".repeat(18)), "é".repeat(18));
        assert_eq!(excerpt(&"é".repeat(19)), format!("{}...", "é".repeat(15)));
        // "☕" is one unit too; "𝄞" is two, and is not cut in half.
        assert_eq!(excerpt(&"☕".repeat(20)), format!("{}...", "☕".repeat(15)));
        assert_eq!(excerpt(&"𝄞".repeat(10)), format!("{}...", "𝄞".repeat(7)));
        assert_eq!(
            excerpt(&format!("{}𝄞x", "a".repeat(17))),
            format!("{}...", "a".repeat(15))
        );
        assert_eq!(
            excerpt(&format!("{}𝄞", "a".repeat(16))),
            format!("{}𝄞", "a".repeat(16))
        );
    }
}
