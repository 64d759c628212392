//! A SOAP request body as the host reads it: its encoding (BOM, charset, XML declaration),
//! and bytes that are not text read as U+FFFD.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8};
use http::header::{HeaderValue, CONTENT_TYPE};
use http::Request;

use crate::content_type::content_type_param;
use crate::form::FormCharset;
use crate::{xml, RequestError};

/// The body of a SOAP request as UTF-8 ([`soap_text`]), refused when it has bytes that are not
/// text in an encoding other than UTF-8 (UTF-8 is borrowed as is; its reader checks it).
pub fn soap_body<B: AsRef<[u8]>>(request: &Request<B>) -> Result<Cow<'_, [u8]>, RequestError> {
    let text = soap_text(request)?;
    match text.replaced {
        Replaced::In(encoding) => Err(not_text(encoding)),
        Replaced::No | Replaced::Unchecked => Ok(text.text),
    }
}

/// A SOAP request body as the host reads it: UTF-8 text in which each byte sequence that is
/// not text in the body's encoding reads as U+FFFD, as .NET's decoders (and Mono's) read it.
///
/// The host goes on with such text: to a fault where the text leads to one (an envelope in
/// another namespace, a value it cannot read), to a result silently built from U+FFFD where it
/// does not. We answer the faults the host answers ([`SoapText::read`]) and refuse the rest
/// ([`SoapText::decode`]).
#[derive(Debug, Clone)]
pub struct SoapText<'a> {
    text: Cow<'a, [u8]>,
    replaced: Replaced,
}

/// Whether [`SoapText::text`] had bytes replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Replaced {
    /// Transcoded, every byte text.
    No,
    /// Transcoded with some bytes that were not text in this encoding.
    In(&'static str),
    /// UTF-8 borrowed as sent: the XML reader checks what it reads, and only where it finds
    /// bytes that are not UTF-8 is the text read again with them replaced. Checking every
    /// request first would cost every request a pass for what few send.
    Unchecked,
}

fn not_text(encoding: &str) -> RequestError {
    RequestError::MalformedXml {
        reason: format!("the body has bytes that are not valid {encoding}"),
    }
}

impl SoapText<'_> {
    /// Runs `read` on the text as the host reads it (bytes that are not text replaced), and
    /// gives what it gives: how the host's reading of the same text ends.
    pub fn read<T>(
        &self,
        read: impl Fn(&[u8]) -> Result<T, RequestError>,
    ) -> Result<T, RequestError> {
        match self.replaced {
            Replaced::No | Replaced::In(_) => read(&self.text),
            Replaced::Unchecked => match read(&self.text) {
                Err(error) if error.is_malformed() && std::str::from_utf8(&self.text).is_err() => {
                    read(String::from_utf8_lossy(&self.text).as_bytes())
                }
                other => other,
            },
        }
    }

    /// Runs `decode` on the text as the host reads it. Its refusal stands, as the host's fault
    /// for the same text would; what it reads is refused (`400`, as malformed XML) when it
    /// read bytes that were not text, which the host would have read as U+FFFD, unless they
    /// all stand where the host ignores text: beside elements in the Envelope, the Body or the
    /// operation element, or in a comment.
    pub fn decode<T>(
        &self,
        decode: impl Fn(&[u8]) -> Result<T, RequestError>,
    ) -> Result<T, RequestError> {
        let checked = |text: &[u8], encoding: &str, decoded: T| {
            if xml::replacements_ignored(text) {
                Ok(decoded)
            } else {
                Err(not_text(encoding))
            }
        };
        match self.replaced {
            Replaced::No => decode(&self.text),
            Replaced::In(encoding) => checked(&self.text, encoding, decode(&self.text)?),
            Replaced::Unchecked => match decode(&self.text) {
                Err(error) if error.is_malformed() && std::str::from_utf8(&self.text).is_err() => {
                    let lossy = String::from_utf8_lossy(&self.text);
                    checked(lossy.as_bytes(), "UTF-8", decode(lossy.as_bytes())?)
                }
                other => other,
            },
        }
    }

    fn exact(text: Cow<'_, [u8]>) -> SoapText<'_> {
        SoapText {
            text,
            replaced: Replaced::No,
        }
    }
}

/// The body of a SOAP request as the host reads it ([`SoapText`]). ASP.NET reads a request
/// body through a reader in the encoding of its byte order mark or, failing that, of the
/// `charset` of its content type; only without either (or with a charset it cannot name, empty
/// or unknown) does the XML declaration decide, and then only for an `application/*` type
/// (`text/*` falls back to US-ASCII). A body in ISO-8859-1, say, is transcoded; a valid UTF-8
/// body is borrowed as is, without its BOM.
pub fn soap_text<B: AsRef<[u8]>>(request: &Request<B>) -> Result<SoapText<'_>, RequestError> {
    let body = request.body().as_ref();
    let (encoding, bom_len) = match Encoding::for_bom(body) {
        Some((encoding, len)) => (encoding, len),
        None => {
            // ASP.NET reads the body through a TextReader in the content type's charset, and
            // then no XML declaration changes the encoding (XmlTextReaderImpl.CheckEncoding
            // returns the reader's own): `encoding="8"` is read as if it said utf-8. Only for
            // an `application/*` type without a charset it can name (none, empty, unknown)
            // does ASP.NET hand the bytes to the XML reader, which the declaration steers
            // (RequestResponseUtils.GetEncoding2). Any other type without one is read as
            // US-ASCII, every other byte as `?`, silently (the host does too): an ASCII body
            // reads the same, another is refused.
            let content_type = request
                .headers()
                .get(CONTENT_TYPE)
                .map(HeaderValue::as_bytes);
            let declared = content_type.and_then(|v| content_type_param(v, b"charset"));
            let charset = declared.filter(|label| dotnet_names(label));
            let label = match charset {
                Some(charset) => Some(charset),
                None if content_type.is_some_and(is_application) => declared_encoding(body),
                None if body.is_ascii() => None,
                None => {
                    return Err(RequestError::UnnamedCharset {
                        label: declared.map(|label| String::from_utf8_lossy(label).into_owned()),
                    })
                }
            };
            // ISO-8859-1 and US-ASCII as .NET reads them, not as WHATWG's windows-1252 (after
            // the label nearly every request declares).
            let utf8 = label.is_none_or(|label| label.eq_ignore_ascii_case(b"utf-8"));
            if let Some(single) = label
                .filter(|_| !utf8)
                .and_then(FormCharset::dotnet_single_byte)
            {
                let mut text = String::with_capacity(body.len());
                return match single.text(body, &mut text) {
                    Some(()) => Ok(SoapText::exact(Cow::Owned(text.into_bytes()))),
                    None => Err(RequestError::MalformedXml {
                        reason: format!("the body has bytes that are not valid {}", single.name()),
                    }),
                };
            }
            match label {
                None => (UTF_8, 0),
                // The label nearly every request declares, without the WHATWG label search.
                Some(label) if label.eq_ignore_ascii_case(b"utf-8") => (UTF_8, 0),
                Some(label) => (
                    Encoding::for_label(label)
                        .filter(|_| dotnet_names(label))
                        .ok_or_else(|| RequestError::UnsupportedEncoding {
                            label: String::from_utf8_lossy(label).into_owned(),
                        })?,
                    0,
                ),
            }
        }
    };
    let body = &body[bom_len..];
    if encoding == UTF_8 {
        return Ok(SoapText {
            text: Cow::Borrowed(body),
            replaced: Replaced::Unchecked,
        });
    }
    let (text, replaced) = encoding.decode_without_bom_handling(body);
    Ok(SoapText {
        text: Cow::Owned(text.into_owned().into_bytes()),
        replaced: if replaced {
            Replaced::In(encoding.name())
        } else {
            Replaced::No
        },
    })
}

/// Whether a content type's media type is `application` (any case), as ASP.NET's
/// `ContentType.IsApplication` tells: the part before the first `/` of what precedes the
/// first `;`.
fn is_application(content_type: &[u8]) -> bool {
    let base = content_type
        .split(|&b| b == b';')
        .next()
        .unwrap_or_default();
    base.split(|&b| b == b'/')
        .next()
        .is_some_and(|media| media.eq_ignore_ascii_case(b"application"))
}

/// Whether .NET Framework's `Encoding.GetEncoding` knows the charset `label`: as far as the
/// WHATWG labels go, but for the aliases only browsers take (`utf8` without its hyphen).
fn dotnet_names(label: &[u8]) -> bool {
    label.eq_ignore_ascii_case(b"utf-8")
        || (Encoding::for_label(label).is_some() && !label.eq_ignore_ascii_case(b"utf8"))
}

/// The `encoding` of an ASCII-compatible XML declaration, if the body starts with one.
fn declared_encoding(body: &[u8]) -> Option<&[u8]> {
    let decl = body.strip_prefix(b"<?xml")?;
    // Up to the first `?>`, then the first `encoding` in it.
    let end = memchr::memchr_iter(b'>', decl).find(|&at| at > 0 && decl[at - 1] == b'?')?;
    let decl = &decl[..end - 1];
    let at = memchr::memchr_iter(b'e', decl).find(|&at| decl[at..].starts_with(b"encoding"))?;
    let rest = &decl[at + 8..];
    let rest = rest
        .trim_ascii_start()
        .strip_prefix(b"=")?
        .trim_ascii_start();
    let quote = *rest.first()?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let value = &rest[1..];
    Some(&value[..value.iter().position(|&b| b == quote)?])
}
