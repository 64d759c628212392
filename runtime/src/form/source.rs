//! Where a form comes from (a query, a body) and the charset it is read in, as ASP.NET picks it.

use crate::Binding;

/// Where a [`FormReader`](super::FormReader)'s pairs come from.
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
    /// [`RequestError::DangerousValue`](crate::RequestError::DangerousValue).
    pub const fn collection(self) -> &'static str {
        match self {
            FormSource::Query => "QueryString",
            FormSource::Body => "Form",
        }
    }

    /// The part of the request, for [`RequestError::InvalidUtf8`].
    pub(super) const fn part(self) -> &'static str {
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
            content_type.and_then(|ct| crate::content_type::content_type_param(ct, b"charset"))
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
