//! HTTP messages of every binding, sans IO: generated code hands in bodies and gets
//! `http::Request` / `http::Response` values with byte bodies, and back.
//!
//! Requests carry no `Host` (the transport adds it) and are origin-form (path and query only):
//! a client joins them to its base URL.

use std::borrow::Cow;
use std::cell::RefCell;

use bytes::Bytes;
use encoding_rs::{Encoding, UTF_8};
use http::header::{HeaderName, HeaderValue, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE};
use http::{Method, Request, Response, StatusCode};

use crate::form::{FormCharset, FormReader, FormSource};
use crate::soap::{self, ResponseBody, SOAP11_CONTENT_TYPE};
use crate::tree::XmlOut;
use crate::{
    xml, Binding, EncodeError, Fault, OperationInfo, RequestError, ResponseError, Scalar,
    ServiceInfo, SoapType,
};

/// `Content-Type` of HTTP POST requests.
pub const FORM_CONTENT_TYPE: &str = "application/x-www-form-urlencoded";
/// `Content-Type` of HTTP GET/POST error bodies.
pub const TEXT_CONTENT_TYPE: &str = "text/plain; charset=utf-8";
/// `Cache-Control` an ASMX host puts on results and on faults thrown by an operation.
pub const CACHE_CONTROL_RESULT: &str = "private, max-age=0";
/// The `SOAPAction` header's name.
pub const SOAP_ACTION: &str = "soapaction";
/// XML declaration and line feed that open every HTTP GET/POST result document.
pub const STRING_DOCUMENT_PROLOG: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n";

fn length(len: usize) -> HeaderValue {
    HeaderValue::from(len as u64)
}

// Header names and values known at compile time are made there (`const`), so no request or
// response re-validates their bytes.

/// [`SOAP_ACTION`] as a header name.
pub(crate) const SOAP_ACTION_NAME: HeaderName = HeaderName::from_static(SOAP_ACTION);

/// `HeaderValue::from_static` for a value known only at run time (a generated literal): the
/// same values accepted, the same panic otherwise, but checked by a loop the compiler
/// vectorises instead of `from_static`'s byte-at-a-time `const` loop.
fn static_value(value: &'static str) -> HeaderValue {
    match HeaderValue::from_maybe_shared(Bytes::from_static(value.as_bytes())) {
        // from_maybe_shared also takes bytes from 0x80 up; from_static only visible ASCII.
        Ok(header) if value.is_ascii() => header,
        _ => panic!("HeaderValue::from_static with invalid bytes"),
    }
}

/// `Uri::from_static(path)`, parsed once per thread for the path asked for last: every SOAP
/// request of a service goes to the same path, so a client parses it once.
fn static_uri(path: &'static str) -> http::Uri {
    thread_local! {
        static LAST: RefCell<Option<(&'static str, http::Uri)>> = const { RefCell::new(None) };
    }
    LAST.with_borrow_mut(|last| match last {
        // The same static text (address and length), so the same URI.
        Some((parsed, uri)) if std::ptr::eq(*parsed, path) => uri.clone(),
        _ => {
            let uri = http::Uri::from_static(path);
            *last = Some((path, uri.clone()));
            uri
        }
    })
}

/// The `Content-Type` of a successful response on `binding`
/// ([`Binding::response_content_type`]).
fn response_content_type(binding: Binding) -> HeaderValue {
    if binding == Binding::Soap12 {
        const { HeaderValue::from_static(soap::SOAP12_CONTENT_TYPE) }
    } else {
        const { HeaderValue::from_static(SOAP11_CONTENT_TYPE) }
    }
}

/// A SOAP request: `POST {path}` with the envelope; SOAP 1.1 names the action in a quoted
/// `SOAPAction` header, SOAP 1.2 in the `action` parameter of its content type.
pub fn soap_request(
    binding: Binding,
    operation: &'static OperationInfo,
    envelope: String,
) -> Request<Bytes> {
    let (body, content_length) = body_and_length(envelope);
    let mut request = Request::new(body);
    *request.method_mut() = Method::POST;
    *request.uri_mut() = static_uri(operation.service.path);
    let headers = request.headers_mut();
    if binding == Binding::Soap12 {
        headers.insert(CONTENT_TYPE, static_value(operation.soap12_content_type));
    } else {
        headers.insert(
            CONTENT_TYPE,
            const { HeaderValue::from_static(SOAP11_CONTENT_TYPE) },
        );
        headers.insert(SOAP_ACTION_NAME, static_value(operation.soap_action));
    }
    request.headers_mut().insert(CONTENT_LENGTH, content_length);
    request
}

/// The body as `Bytes` and its `Content-Length`, the digits written after the body in the same
/// buffer (which nearly always has room to spare) so that the header value needs no allocation
/// of its own.
fn body_and_length(mut body: String) -> (Bytes, HeaderValue) {
    let len = body.len();
    let Ok(digits) = i32::try_from(len) else {
        return (Bytes::from(body), length(len));
    };
    crate::value::write_int(&mut body, digits);
    let all = Bytes::from(body);
    let length = HeaderValue::from_maybe_shared(all.slice(len..))
        .expect("decimal digits are a valid header value");
    (all.slice(..len), length)
}

/// An HTTP GET request (`GET {path}/{Op}?{pairs}`) or HTTP POST request (`POST {path}/{Op}`
/// with the pairs as a form body).
///
/// # Panics
/// On a SOAP binding (a bug in the caller).
pub fn form_request(
    binding: Binding,
    operation: &'static OperationInfo,
    pairs: String,
) -> Request<Bytes> {
    match binding {
        Binding::HttpGet => {
            let mut uri = String::with_capacity(operation.http_path.len() + 1 + pairs.len());
            uri.push_str(operation.http_path);
            uri.push('?');
            uri.push_str(&pairs);
            let mut request = Request::new(Bytes::new());
            // Every byte of `pairs` is form-urlencoded, so the URI is always valid.
            *request.uri_mut() =
                http::Uri::try_from(uri).expect("form-encoded query is a valid URI");
            // The interface has every request send a Content-Length, GET included.
            request
                .headers_mut()
                .insert(CONTENT_LENGTH, HeaderValue::from_static("0"));
            request
        }
        Binding::HttpPost => {
            let (body, content_length) = body_and_length(pairs);
            let mut request = Request::new(body);
            *request.method_mut() = Method::POST;
            *request.uri_mut() = static_uri(operation.http_path);
            let headers = request.headers_mut();
            headers.insert(
                CONTENT_TYPE,
                const { HeaderValue::from_static(FORM_CONTENT_TYPE) },
            );
            headers.insert(CONTENT_LENGTH, content_length);
            request
        }
        Binding::Soap11 | Binding::Soap12 => panic!("{binding} requests are envelopes, not forms"),
    }
}

/// The query string (HTTP GET) or form body (HTTP POST) of a request, parsed.
///
/// # Panics
/// On a SOAP binding (a bug in the caller).
pub fn read_form<B: AsRef<[u8]>>(
    binding: Binding,
    request: &Request<B>,
) -> Result<FormReader<'_>, RequestError> {
    match binding {
        Binding::HttpGet => FormReader::parse(
            request.uri().query().unwrap_or("").as_bytes(),
            FormSource::Query,
        ),
        Binding::HttpPost => FormReader::parse_in(
            request.body().as_ref(),
            FormSource::Body,
            FormCharset::of_content_type(request.headers().get(CONTENT_TYPE).map(|v| v.as_bytes())),
        ),
        Binding::Soap11 | Binding::Soap12 => panic!("{binding} requests are envelopes, not forms"),
    }
}

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

/// Whether every U+FFFD of `text` (a request read with its bytes that were not text replaced)
/// stands where the host ignores what it reads: in a comment, or in text beside elements
/// directly in the Envelope, the Body or the operation's element (the white space between
/// parameters, where .NET's reader meets text and skips it). Anywhere else (a value, a name,
/// an attribute) the host would read U+FFFD into what it answers; so would the text of a
/// parameter of a bare operation, which stands in the Body alone, with no element beside it.
fn replacements_ignored(text: &[u8]) -> bool {
    use quick_xml::events::Event;
    const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();
    let holds = |bytes: &[u8]| bytes.windows(REPLACEMENT.len()).any(|w| w == REPLACEMENT);
    // Per open element: whether it holds an element, and whether it holds replaced text.
    let mut open: Vec<(bool, bool)> = Vec::new();
    let mut reader = quick_xml::Reader::from_reader(text);
    let mut buf = Vec::new();
    loop {
        let event = match reader.read_event_into(&mut buf) {
            Ok(event) => event,
            Err(_) => return false,
        };
        match event {
            Event::Start(start) => {
                if holds(start.as_ref()) {
                    return false;
                }
                if let Some(parent) = open.last_mut() {
                    parent.0 = true;
                }
                open.push((false, false));
            }
            Event::Empty(start) => {
                if holds(start.as_ref()) {
                    return false;
                }
                if let Some(parent) = open.last_mut() {
                    parent.0 = true;
                }
            }
            Event::End(_) => {
                let depth = open.len();
                if let Some((holds_elements, true)) = open.pop() {
                    if !(holds_elements && depth <= 3) {
                        return false;
                    }
                }
            }
            Event::Text(t) => {
                if holds(t.as_ref()) {
                    match open.last_mut() {
                        Some(element) => element.1 = true,
                        None => return false,
                    }
                }
            }
            Event::Comment(_) => {}
            Event::Eof => return true,
            // CDATA, a processing instruction, a declaration, a DOCTYPE: refused if replaced.
            other => {
                if holds(other.as_ref()) {
                    return false;
                }
            }
        }
        buf.clear();
    }
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
            if replacements_ignored(text) {
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

/// The value of parameter `name` (ASCII, any case) of a `Content-Type` value, without
/// surrounding whitespace and quotes: `charset`, or SOAP 1.2's `action`.
#[inline]
pub(crate) fn content_type_param<'a>(content_type: &'a [u8], name: &[u8]) -> Option<&'a [u8]> {
    // What nearly every SOAP 1.1 client sends, without the search.
    if content_type == SOAP11_CONTENT_TYPE.as_bytes() {
        return name
            .eq_ignore_ascii_case(b"charset")
            .then_some(&content_type[content_type.len() - b"utf-8".len()..]);
    }
    search_content_type_param(content_type, name)
}

/// [`content_type_param`] of any value.
fn search_content_type_param<'a>(content_type: &'a [u8], name: &[u8]) -> Option<&'a [u8]> {
    content_type
        .split(|&b| b == b';')
        .skip(1)
        .find_map(|param| {
            let eq = memchr::memchr(b'=', param)?;
            if !param[..eq].trim_ascii().eq_ignore_ascii_case(name) {
                return None;
            }
            let value = param[eq + 1..].trim_ascii();
            let unquoted = value.strip_prefix(b"\"").unwrap_or(value);
            Some(unquoted.strip_suffix(b"\"").unwrap_or(unquoted))
        })
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

/// Refuses a call of `operation` over a binding it is not offered on.
#[inline]
pub fn check_offered(
    operation: &'static OperationInfo,
    binding: Binding,
) -> Result<(), EncodeError> {
    if operation.bindings.contains(&binding) {
        Ok(())
    } else {
        Err(EncodeError::NotOffered {
            operation: operation.name,
            binding,
        })
    }
}

/// Refuses a `char` a .NET `char` cannot be (one outside the Basic Multilingual Plane), for
/// parameter or result `field` of `operation`, before it is written.
#[inline]
pub fn check_char(
    operation: &'static str,
    field: &'static str,
    value: char,
) -> Result<(), EncodeError> {
    if value.len_utf16() == 1 {
        Ok(())
    } else {
        Err(EncodeError::NotOneUnit {
            operation,
            field,
            value,
        })
    }
}

/// Refuses a `dateTime` a .NET `DateTime` cannot hold, for parameter or result `field` of
/// `operation`, before it is written.
#[inline]
pub fn check_datetime(
    operation: &'static str,
    field: &'static str,
    value: &crate::DateTime,
) -> Result<(), EncodeError> {
    if value.fits_dotnet() {
        Ok(())
    } else {
        Err(EncodeError::NotDotnetDateTime {
            operation,
            field,
            value: value.value.to_string(),
        })
    }
}

/// The byte length of an optional string (`0` for `None`), for sizing buffers.
#[inline]
pub fn text_len(value: &Option<String>) -> usize {
    value.as_ref().map_or(0, String::len)
}

/// A response with its content type, length and [`CACHE_CONTROL_RESULT`], as an ASMX host
/// sends results and operation faults.
fn response(status: StatusCode, content_type: HeaderValue, body: String) -> Response<Bytes> {
    let (body, content_length) = body_and_length(body);
    let mut response = Response::new(body);
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, content_type);
    headers.insert(CONTENT_LENGTH, content_length);
    headers.insert(
        CACHE_CONTROL,
        const { HeaderValue::from_static(CACHE_CONTROL_RESULT) },
    );
    response
}

/// The `200` response carrying an operation's string result, byte for byte as an ASMX host
/// writes it. A `None` result leaves the SOAP result element out and sends `xsi:nil` over
/// HTTP GET/POST; an empty one is written as an empty element (`<x />`), as .NET does.
pub fn string_response(
    binding: Binding,
    operation: &'static OperationInfo,
    result: Option<&str>,
) -> Result<Response<Bytes>, EncodeError> {
    let invalid = |code| EncodeError::InvalidXmlChar {
        operation: operation.name,
        field: operation.result_name,
        code,
    };
    let text_len = result.map_or(0, str::len);
    let body = if binding.is_soap() {
        let mut w = soap::SoapWriter::new(
            binding,
            operation.name,
            2 * operation.response_open.len() + text_len + 64,
        );
        match result {
            None => {
                // No result element: the response element self-closed, as XmlSerializer
                // writes an element without content.
                let open = operation.response_open;
                w.raw(&open[..open.len() - 1]);
                w.raw(" />");
            }
            Some(text) => {
                w.raw(operation.response_open);
                w.raw("<");
                w.raw(operation.result_name);
                if text.is_empty() {
                    w.raw(" />");
                } else {
                    w.raw(">");
                    w.string(operation.result_name, "", Some(text), "")?;
                    w.raw("</");
                    w.raw(operation.result_name);
                    w.raw(">");
                }
                w.raw(operation.response_close);
            }
        }
        w.finish()
    } else {
        let service = operation.service;
        let mut out = String::with_capacity(service.string_open.len() + text_len + 16);
        match result {
            None => out = nil_document(service, "string"),
            Some("") => {
                // `string_open` ends with `>`: the empty element is written `<string … />`.
                out.push_str(&service.string_open[..service.string_open.len() - 1]);
                out.push_str(" />");
            }
            Some(text) => {
                out.push_str(service.string_open);
                xml::escape_text(&mut out, text).map_err(invalid)?;
                out.push_str("</string>");
            }
        }
        out
    };
    Ok(response(
        StatusCode::OK,
        response_content_type(binding),
        body,
    ))
}

/// The response to a fault: on SOAP a `500` fault envelope (`soap:Client`/`soap:Server` on
/// 1.1, `soap:Sender`/`soap:Receiver` on 1.2), on HTTP GET/POST a `500` text body holding
/// the reason and a line feed, as an ASMX host answers.
pub fn fault_response(binding: Binding, fault: &Fault) -> Response<Bytes> {
    if binding.is_soap() {
        response(
            StatusCode::INTERNAL_SERVER_ERROR,
            response_content_type(binding),
            soap::fault_envelope(binding, fault),
        )
    } else {
        let mut body = String::with_capacity(fault.reason.len() + 1);
        body.push_str(&fault.reason);
        body.push('\n');
        response(
            StatusCode::INTERNAL_SERVER_ERROR,
            const { HeaderValue::from_static(TEXT_CONTENT_TYPE) },
            body,
        )
    }
}

/// ASMX's answer to an `Envelope` in the namespace `found`, neither SOAP 1.1's nor 1.2's: a
/// SOAP 1.1 `VersionMismatch` fault (with the `Upgrade` header naming both envelopes), sent
/// as `text/xml` whatever the request's content type; `expected` is the content type's
/// envelope namespace.
pub fn version_mismatch_response(found: &str, expected: &str) -> Response<Bytes> {
    response(
        StatusCode::INTERNAL_SERVER_ERROR,
        response_content_type(Binding::Soap11),
        soap::version_mismatch_envelope(found, expected),
    )
}

/// The `200` response carrying an operation's result of a simple type other than `string`,
/// byte for byte as an ASMX host writes it: the value as `XmlConvert` writes it, in the
/// result element (SOAP) or in a document whose root is named after the type (`<long
/// xmlns="…">5</long>`, HTTP GET/POST). Such a text never needs escaping.
pub fn scalar_response<T: Scalar>(
    binding: Binding,
    operation: &'static OperationInfo,
    result: &T,
) -> Response<Bytes> {
    let body = if binding.is_soap() {
        let mut w = soap::SoapWriter::new(
            binding,
            operation.name,
            2 * (operation.response_open.len() + operation.result_name.len()) + T::ROOM + 64,
        );
        w.raw(operation.response_open);
        w.raw("<");
        w.raw(operation.result_name);
        w.raw(">");
        w.scalar(result);
        w.raw("</");
        w.raw(operation.result_name);
        w.raw(">");
        w.raw(operation.response_close);
        w.finish()
    } else {
        let (service, name) = (operation.service, T::TYPE.name());
        let mut out = String::with_capacity(
            STRING_DOCUMENT_PROLOG.len() + 2 * name.len() + service.namespace.len() + T::ROOM + 16,
        );
        out.push_str(STRING_DOCUMENT_PROLOG);
        out.push('<');
        out.push_str(name);
        out.push_str(" xmlns=\"");
        out.push_str(service.namespace);
        out.push_str("\">");
        result.write_xml(&mut out);
        out.push_str("</");
        out.push_str(name);
        out.push('>');
        out
    };
    response(StatusCode::OK, response_content_type(binding), body)
}

/// The namespace declarations XmlSerializer writes on the root of a document it serializes
/// (an HTTP GET/POST result of a class or array type), in the reference host's order. (.NET
/// Framework keeps them in a `Hashtable`, whose order follows the strings' hash codes, which
/// differ between its 32- and 64-bit runtimes: real hosts write either order.)
const DOCUMENT_NAMESPACES: &str = concat!(
    " xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"",
    " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
);

/// The `200` response carrying a result of a class or array type, byte for byte as an ASMX
/// host writes it. SOAP: the result element, or none for `None` (the response element
/// self-closed), as XmlSerializer leaves out a null. HTTP GET/POST: a document whose root is
/// named after the type (`root`: `Order`, `ArrayOfString`), indented, with `xsi:nil` on the
/// root for `None`. `items` names an array's items ([`crate::tree::XmlItem`]).
pub fn value_response<T: crate::tree::XmlItem>(
    binding: Binding,
    operation: &'static OperationInfo,
    result: Option<&T>,
    items: &'static [&'static str],
    root: &'static str,
) -> Result<Response<Bytes>, EncodeError> {
    let body = if binding.is_soap() {
        let Some(result) = result else {
            return Ok(response(
                StatusCode::OK,
                response_content_type(binding),
                soap_result(binding, operation, &[]),
            ));
        };
        let mut w = soap::SoapWriter::new(binding, operation.name, 1024);
        w.raw(operation.response_open);
        let mut elements = w.elements();
        result.write_element(&mut elements, operation.result_name, items)?;
        elements.finish();
        w.raw(operation.response_close);
        w.finish()
    } else {
        let namespace = operation.service.namespace;
        let mut out = String::with_capacity(1024);
        out.push_str(STRING_DOCUMENT_PROLOG);
        match result {
            None => {
                out.push('<');
                out.push_str(root);
                out.push_str(DOCUMENT_NAMESPACES);
                out.push_str(" xsi:nil=\"true\" xmlns=\"");
                out.push_str(namespace);
                out.push_str("\" />");
            }
            Some(result) => {
                let suffix = format!(" xmlns=\"{namespace}\"");
                let mut document =
                    XmlOut::document(&mut out, operation.name, DOCUMENT_NAMESPACES, &suffix);
                result.write_element(&mut document, root, items)?;
                document.finish();
            }
        }
        out
    };
    Ok(response(
        StatusCode::OK,
        response_content_type(binding),
        body,
    ))
}

/// The SOAP `200` response of an operation with `out` or `ref` parameters (ASMX offers such an
/// operation there alone) or of a bare one: the response element holding what `write` writes,
/// the result then the out parameters, as XmlSerializer writes them (`<OpResponse xmlns="…" />`
/// when it writes nothing); for a bare operation the result alone, in the Body (`<soap:Body />`
/// when it writes nothing).
pub fn wrapper_response(
    binding: Binding,
    operation: &'static OperationInfo,
    write: impl FnOnce(&mut XmlOut<'_>) -> Result<(), EncodeError>,
) -> Result<Response<Bytes>, EncodeError> {
    if !binding.is_soap() {
        return Err(EncodeError::NotOffered {
            operation: operation.name,
            binding,
        });
    }
    let mut w = soap::SoapWriter::new(binding, operation.name, 512);
    if operation.bare {
        // No response element: the result stands in the Body, its namespace declared on it;
        // a null result leaves the Body empty.
        let xmlns = format!(" xmlns=\"{}\"", operation.service.namespace);
        let empty = w.len();
        let mut elements = w.elements();
        elements.qualify_first(&xmlns);
        write(&mut elements)?;
        elements.finish();
        let body = if w.len() == empty {
            w.finish_empty_body()
        } else {
            w.finish()
        };
        return Ok(response(
            StatusCode::OK,
            response_content_type(binding),
            body,
        ));
    }
    let mut elements = w.elements();
    elements.start(operation.response_name);
    elements.attribute_markup(" xmlns=\"");
    elements.attribute_markup(operation.service.namespace);
    elements.attribute_markup("\"");
    write(&mut elements)?;
    elements.end(operation.response_name);
    elements.finish();
    Ok(response(
        StatusCode::OK,
        response_content_type(binding),
        w.finish(),
    ))
}

/// Reads the SOAP response to a call of an operation with `out` or `ref` parameters, or of a
/// bare one: its response element's members (the result and the out parameters), or the
/// bare one's Body's children (the result), by `read`, as a class's are read; an empty
/// element is read as one without members.
pub fn decode_wrapper_response<T, B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &Response<B>,
    read: impl FnOnce(&crate::tree::Node) -> Result<T, crate::tree::MemberError>,
) -> Result<T, ResponseError> {
    let body = response.body().as_ref();
    let read_soap = if operation.bare {
        soap::read_response_body
    } else {
        soap::read_response_wrapper
    };
    let node = decode_result_with(
        binding,
        operation,
        response,
        operation.response_name,
        read_soap,
        soap::read_tree_document,
    )?;
    let node = node
        .unwrap_or_else(|| crate::tree::Node::text_only(operation.response_name, String::new()));
    read(&node).map_err(|error| ResponseError::Undecodable {
        operation: operation.name,
        binding,
        reason: format!("the response: {error}"),
        body: Bytes::copy_from_slice(body),
    })
}

/// Reads the response to a call of `operation` whose result is of a class or array type:
/// `None` for an absent result element (or a nil array), as XmlSerializer reads a null, else
/// the value read from its tree.
pub fn decode_value_response<T: crate::tree::XmlItem, B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &Response<B>,
    items: &'static [&'static str],
    root: &'static str,
) -> Result<Option<T>, ResponseError> {
    let body = response.body().as_ref();
    let undecodable = |reason: String| ResponseError::Undecodable {
        operation: operation.name,
        binding,
        reason,
        body: Bytes::copy_from_slice(body),
    };
    let node = decode_result_with(
        binding,
        operation,
        response,
        root,
        soap::read_response_tree,
        soap::read_tree_document,
    )?;
    match node {
        None => Ok(None),
        Some(node) => T::read_optional(&node, items)
            .map_err(|error| undecodable(format!("the result: {error}"))),
    }
}

/// The `200` response carrying a nullable result (.NET `int?`): the value as
/// [`scalar_response`] writes it, or for `None` the result element with `xsi:nil="true"`
/// (SOAP) or the type's document with it (HTTP GET/POST), as `XmlSerializer` writes a null.
pub fn nullable_response<T: Scalar>(
    binding: Binding,
    operation: &'static OperationInfo,
    result: Option<&T>,
) -> Response<Bytes> {
    let Some(result) = result else {
        let body = if binding.is_soap() {
            soap_result(
                binding,
                operation,
                &["<", operation.result_name, " xsi:nil=\"true\" />"],
            )
        } else {
            nil_document(operation.service, T::TYPE.name())
        };
        return response(StatusCode::OK, response_content_type(binding), body);
    };
    scalar_response(binding, operation, result)
}

/// A SOAP result envelope whose response element holds `inner`, markup written in turn: the
/// result element in a form without a value (empty, nil), or nothing.
fn soap_result(
    binding: Binding,
    operation: &'static OperationInfo,
    inner: &[&'static str],
) -> String {
    let mut w = soap::SoapWriter::new(binding, operation.name, 256);
    if inner.is_empty() {
        // No content: XmlSerializer writes the element self-closed, `<OpResponse xmlns="…" />`
        // (the reference host's answer to a null byte[] or string result).
        let open = operation.response_open;
        w.raw(&open[..open.len() - 1]);
        w.raw(" />");
        return w.finish();
    }
    w.raw(operation.response_open);
    for markup in inner {
        w.raw(markup);
    }
    w.raw(operation.response_close);
    w.finish()
}

/// The `200` response carrying a `base64Binary` result (.NET `byte[]`), as ASMX writes it:
/// `None` as a null (the SOAP result element left out; `xsi:nil` over HTTP GET/POST), an
/// empty array as an empty element.
pub fn bytes_response(
    binding: Binding,
    operation: &'static OperationInfo,
    result: Option<&[u8]>,
) -> Response<Bytes> {
    let body = match (result, binding.is_soap()) {
        // A null: the result element left out, or the nil document.
        (None, true) => soap_result(binding, operation, &[]),
        (None, false) => nil_document(operation.service, SoapType::Base64Binary.name()),
        // An empty array: an empty element, as for an empty string.
        (Some([]), true) => soap_result(binding, operation, &["<", operation.result_name, " />"]),
        (Some([]), false) => {
            let mut out = String::from(STRING_DOCUMENT_PROLOG);
            out.push_str("<base64Binary xmlns=\"");
            out.push_str(operation.service.namespace);
            out.push_str("\" />");
            out
        }
        (Some(bytes), true) => {
            let mut w = soap::SoapWriter::new(binding, operation.name, 128 + bytes.len() / 3 * 4);
            w.raw(operation.response_open);
            w.raw("<");
            w.raw(operation.result_name);
            w.raw(">");
            w.base64(bytes);
            w.raw("</");
            w.raw(operation.result_name);
            w.raw(">");
            w.raw(operation.response_close);
            w.finish()
        }
        (Some(bytes), false) => {
            let mut out = String::from(STRING_DOCUMENT_PROLOG);
            out.push_str("<base64Binary xmlns=\"");
            out.push_str(operation.service.namespace);
            out.push_str("\">");
            crate::value::scalar::write_base64(&mut out, bytes);
            out.push_str("</base64Binary>");
            out
        }
    };
    response(StatusCode::OK, response_content_type(binding), body)
}

/// Reads the response to a call of `operation` whose result is a `base64Binary`: `None` for
/// a null, as `XmlSerializer` reads an absent or nil element, else the bytes.
pub fn decode_bytes_response<B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &Response<B>,
) -> Result<Option<Vec<u8>>, ResponseError> {
    decode_nullable_response::<Vec<u8>, B>(binding, operation, response)
}

/// The `200` response of an operation that returns nothing (.NET `void`), as ASMX writes it:
/// the empty response element (SOAP); over HTTP GET/POST no body at all, and no
/// `Content-Type` (ASMX's HTTP handler writes nothing when there is no result).
pub fn void_response(binding: Binding, operation: &'static OperationInfo) -> Response<Bytes> {
    if binding.is_soap() {
        let mut w = soap::SoapWriter::new(binding, operation.name, 256);
        // `<{name}Response xmlns="…">` becomes `<{name}Response xmlns="…" />`.
        let open = operation.response_open;
        w.raw(&open[..open.len() - 1]);
        w.raw(" />");
        return response(StatusCode::OK, response_content_type(binding), w.finish());
    }
    let mut response = Response::new(Bytes::new());
    let headers = response.headers_mut();
    headers.insert(CONTENT_LENGTH, HeaderValue::from_static("0"));
    headers.insert(
        CACHE_CONTROL,
        const { HeaderValue::from_static(CACHE_CONTROL_RESULT) },
    );
    response
}

/// Reads the response to a call of `operation`, which returns nothing: `Ok` for a `200`
/// (over SOAP, an envelope holding the response element), or what went wrong instead.
pub fn decode_void_response<B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &Response<B>,
) -> Result<(), ResponseError> {
    if !binding.is_soap() && response.status() == StatusCode::OK {
        // No document to read: ASMX sends an empty body.
        return Ok(());
    }
    decode_result(binding, operation, response, SoapType::Void).map(|_| ())
}

/// The HTTP GET/POST document of a null result of type `root` (`string`, `int`).
fn nil_document(service: &ServiceInfo, root: &str) -> String {
    let mut out = String::with_capacity(160 + service.namespace.len());
    out.push_str(STRING_DOCUMENT_PROLOG);
    out.push('<');
    out.push_str(root);
    out.push_str(" xsi:nil=\"true\" xmlns:xsi=\"");
    out.push_str(xml::XSI_NS);
    out.push_str("\" xmlns=\"");
    out.push_str(service.namespace);
    out.push_str("\" />");
    out
}

/// Reads the response to a call of `operation` whose result is nullable: `None` for a nil
/// or absent result, as `XmlSerializer` reads them, else the value.
pub fn decode_nullable_response<T: Scalar, B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &Response<B>,
) -> Result<Option<T>, ResponseError> {
    let Some(text) = decode_result(binding, operation, response, T::TYPE)? else {
        return Ok(None);
    };
    T::read_xml(&text)
        .map(Some)
        .map_err(|error| ResponseError::Undecodable {
            operation: operation.name,
            binding,
            reason: format!(
                "the result '{text}' is not {}: {error}",
                T::TYPE.with_article()
            ),
            body: Bytes::copy_from_slice(response.body().as_ref()),
        })
}

/// Reads the response to a call of `operation`: its string result, or what went wrong.
pub fn decode_string_response<B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &Response<B>,
) -> Result<Option<String>, ResponseError> {
    decode_result(binding, operation, response, SoapType::String)
}

/// Reads the response to a call of `operation` whose result is of a simple type other than
/// `string`: the value, or what went wrong. A missing result, or a text the type cannot hold,
/// is [`ResponseError::Undecodable`]: an ASMX host always writes a value type's result.
pub fn decode_scalar_response<T: Scalar, B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &Response<B>,
) -> Result<T, ResponseError> {
    let undecodable = |reason: String| ResponseError::Undecodable {
        operation: operation.name,
        binding,
        reason,
        body: Bytes::copy_from_slice(response.body().as_ref()),
    };
    let text = decode_result(binding, operation, response, T::TYPE)?
        .ok_or_else(|| undecodable(format!("the {} result is missing", T::TYPE)))?;
    // The result is XML on every binding, written by `XmlConvert`.
    T::read_xml(&text).map_err(|error| {
        undecodable(format!(
            "the result '{text}' is not {}: {error}",
            T::TYPE.with_article()
        ))
    })
}

/// The result text of a response to a call of `operation` (`None`: absent or nil), whose
/// HTTP GET/POST document is named after `result_type`, or what went wrong.
fn decode_result<B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &Response<B>,
    result_type: SoapType,
) -> Result<Option<String>, ResponseError> {
    decode_result_with(
        binding,
        operation,
        response,
        result_type.name(),
        soap::read_response,
        soap::read_result_document,
    )
}

/// Reads a SOAP response's result (its text, or its value tree), or its fault.
type SoapReader<R> = fn(Binding, &'static OperationInfo, &[u8]) -> Result<ResponseBody<R>, String>;
/// Reads an HTTP GET/POST result document, its root named after the result's type.
type DocumentReader<R> = fn(&'static OperationInfo, &str, &[u8]) -> Result<Option<R>, String>;

/// [`decode_result`] with the SOAP result read by `read_soap` (its text, or its value tree).
fn decode_result_with<R, B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &Response<B>,
    result_type: &str,
    read_soap: SoapReader<R>,
    read_document: DocumentReader<R>,
) -> Result<Option<R>, ResponseError> {
    let body = response.body().as_ref();
    let status = response.status();
    let undecodable = |reason: String| ResponseError::Undecodable {
        operation: operation.name,
        binding,
        reason,
        body: Bytes::copy_from_slice(body),
    };
    let status_error = || ResponseError::Status {
        operation: operation.name,
        binding,
        status: status.as_u16(),
        body: String::from_utf8_lossy(body)
            .trim_end_matches('\n')
            .to_owned(),
    };
    let mime = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map_or("", |ct| ct.split(';').next().unwrap_or("").trim());
    let is_xml =
        mime.eq_ignore_ascii_case("text/xml") || mime.eq_ignore_ascii_case("application/soap+xml");
    let is_text = mime.eq_ignore_ascii_case("text/plain");
    if binding.is_soap() {
        if status == StatusCode::OK
            || (status == StatusCode::INTERNAL_SERVER_ERROR && is_xml && !body.is_empty())
        {
            // ASMX answers an envelope of an unknown version with a SOAP 1.1 fault
            // (`VersionMismatch`), whatever the call's version: read a fault by its type.
            let envelope = if status != StatusCode::OK && mime.eq_ignore_ascii_case("text/xml") {
                Binding::Soap11
            } else {
                binding
            };
            return match read_soap(envelope, operation, body) {
                Ok(ResponseBody::Result(result)) if status == StatusCode::OK => Ok(result),
                Ok(ResponseBody::Fault(fault)) => Err(ResponseError::Fault {
                    operation: operation.name,
                    binding,
                    fault,
                }),
                Ok(ResponseBody::Result(_)) => Err(status_error()),
                Err(_) if status != StatusCode::OK => Err(status_error()),
                Err(reason) => Err(undecodable(reason)),
            };
        }
        return Err(status_error());
    }
    if status == StatusCode::INTERNAL_SERVER_ERROR && is_text {
        // The error body of ASMX's HTTP GET/POST handler: the message and a line feed.
        return Err(ResponseError::ErrorBody {
            operation: operation.name,
            binding,
            message: String::from_utf8_lossy(body)
                .trim_end_matches('\n')
                .to_owned(),
        });
    }
    if status != StatusCode::OK {
        return Err(status_error());
    }
    read_document(operation, result_type, body).map_err(undecodable)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::operation::fixtures::OP;

    #[test]
    fn replaced_bytes_count_only_where_the_host_reads_them() {
        let envelope = |inner: &str| {
            format!("<e:Envelope xmlns:e=\"urn:env\"><e:Body>{inner}</e:Body></e:Envelope>")
        };
        // Between parameters, beside elements, in a comment: ignored, as the host skips them.
        for ignored in [
            "<Op><a>1</a> \u{FFFD} <b>2</b></Op>",
            "<Op>\u{FFFD}<a>1</a></Op>",
            "\u{FFFD}<a>1</a><b>2</b>",
            "<Op><a>1</a><!-- \u{FFFD} --></Op>",
        ] {
            assert!(
                replacements_ignored(envelope(ignored).as_bytes()),
                "{ignored}"
            );
        }
        // In a value, a bare parameter's text, a name, an attribute, CDATA, a class's member:
        // read, so refused.
        for read in [
            "<Op><a>1\u{FFFD}</a></Op>",
            "<text>\u{FFFD}</text>",
            "<Op><a\u{FFFD}>1</a\u{FFFD}></Op>",
            "<Op><a t=\"\u{FFFD}\">1</a></Op>",
            "<Op><a><![CDATA[\u{FFFD}]]></a></Op>",
            "<Op><order><Name>x</Name>\u{FFFD}<Id>1</Id></order></Op>",
        ] {
            assert!(!replacements_ignored(envelope(read).as_bytes()), "{read}");
        }
        assert!(!replacements_ignored("\u{FFFD}<a/>".as_bytes()));
    }

    fn body(r: &Response<Bytes>) -> &str {
        std::str::from_utf8(r.body()).unwrap()
    }

    #[test]
    fn content_length_is_the_body_length_and_not_part_of_the_body() {
        let mut spare = String::with_capacity(64);
        spare.push_str("<a>x</a>");
        let exact = String::from("<a>x</a>");
        for envelope in [spare, exact, String::new()] {
            let expected = envelope.clone();
            let request = soap_request(Binding::Soap11, &OP, envelope);
            assert_eq!(request.body(), expected.as_bytes());
            assert_eq!(
                request.headers()[CONTENT_LENGTH],
                expected.len().to_string().as_str()
            );
        }
        let request = form_request(Binding::HttpPost, &OP, "a=1&b=2".to_owned());
        assert_eq!(request.body(), &b"a=1&b=2"[..]);
        assert_eq!(request.headers()[CONTENT_LENGTH], "7");
    }

    #[test]
    fn soap11_result_is_asmx_bytes() {
        let r = string_response(Binding::Soap11, &OP, Some("a & <b>")).unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()[CONTENT_TYPE], "text/xml; charset=utf-8");
        assert_eq!(r.headers()[CACHE_CONTROL], "private, max-age=0");
        assert_eq!(
            body(&r),
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body><OpResponse xmlns=\"urn:s\"><OpResult>a &amp; &lt;b&gt;</OpResult></OpResponse></soap:Body></soap:Envelope>"
        );
        assert_eq!(
            r.headers()[CONTENT_LENGTH],
            body(&r).len().to_string().as_str()
        );
    }

    #[test]
    fn string_results_round_trip_on_every_binding() {
        for binding in Binding::ALL {
            for result in [None, Some(""), Some("x"), Some("a\r\nb <&> \"é\"")] {
                let r = string_response(binding, &OP, result).unwrap();
                assert_eq!(
                    decode_string_response(binding, &OP, &r).unwrap().as_deref(),
                    result,
                    "{binding} {result:?}"
                );
            }
        }
    }

    #[test]
    fn scalar_results_are_written_as_asmx_writes_them() {
        let soap = scalar_response(Binding::Soap11, &OP, &-9_223_372_036_854_775_808i64);
        assert_eq!(soap.headers()[CONTENT_TYPE], "text/xml; charset=utf-8");
        assert!(body(&soap).ends_with(
            "<soap:Body><OpResponse xmlns=\"urn:s\"><OpResult>-9223372036854775808</OpResult>\
             </OpResponse></soap:Body></soap:Envelope>"
        ));
        let get = scalar_response(Binding::HttpGet, &OP, &f64::NEG_INFINITY);
        assert_eq!(get.headers()[CONTENT_TYPE], "text/xml; charset=utf-8");
        assert_eq!(
            body(&get),
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<double xmlns=\"urn:s\">-INF</double>"
        );
        let post = scalar_response(Binding::HttpPost, &OP, &200u8);
        assert_eq!(
            body(&post),
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<unsignedByte xmlns=\"urn:s\">200</unsignedByte>"
        );
    }

    #[test]
    fn scalar_results_round_trip_on_every_binding() {
        for binding in Binding::ALL {
            let r = scalar_response(binding, &OP, &u64::MAX);
            assert_eq!(
                decode_scalar_response::<u64, _>(binding, &OP, &r),
                Ok(u64::MAX)
            );
            let r = scalar_response(binding, &OP, &3.4028235e38f32);
            assert_eq!(
                decode_scalar_response::<f32, _>(binding, &OP, &r),
                Ok(f32::MAX)
            );
            let r = scalar_response(binding, &OP, &-0.0f64);
            let back = decode_scalar_response::<f64, _>(binding, &OP, &r).unwrap();
            assert!(back == 0.0 && back.is_sign_negative(), "{binding:?}");
        }
    }

    #[test]
    fn a_scalar_result_the_type_cannot_hold_or_a_missing_one_is_undecodable() {
        let wide = scalar_response(Binding::Soap12, &OP, &300i32);
        match decode_scalar_response::<u8, _>(Binding::Soap12, &OP, &wide) {
            Err(ResponseError::Undecodable { reason, .. }) => assert_eq!(
                reason,
                "the result '300' is not an unsignedByte: it is outside the range of an \
                 unsignedByte (0 to 255)"
            ),
            other => panic!("{other:?}"),
        }
        // The GET/POST document is named after the type: an int document is not a long's.
        let int = scalar_response(Binding::HttpGet, &OP, &5i32);
        assert!(matches!(
            decode_scalar_response::<i64, _>(Binding::HttpGet, &OP, &int),
            Err(ResponseError::Undecodable { .. })
        ));
        let missing = string_response(Binding::Soap11, &OP, None).unwrap();
        match decode_scalar_response::<i32, _>(Binding::Soap11, &OP, &missing) {
            Err(ResponseError::Undecodable { reason, .. }) => {
                assert_eq!(reason, "the int result is missing")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn nullable_results_are_written_as_xmlserializer_writes_a_null() {
        let soap = nullable_response::<i32>(Binding::Soap12, &OP, None);
        assert!(body(&soap).ends_with(
            "<soap:Body><OpResponse xmlns=\"urn:s\"><OpResult xsi:nil=\"true\" /></OpResponse>\
             </soap:Body></soap:Envelope>"
        ));
        let get = nullable_response::<f64>(Binding::HttpGet, &OP, None);
        assert_eq!(
            body(&get),
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<double xsi:nil=\"true\" \
             xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns=\"urn:s\" />"
        );
        for binding in Binding::ALL {
            for value in [None, Some(-5i16)] {
                let r = nullable_response(binding, &OP, value.as_ref());
                assert_eq!(
                    decode_nullable_response::<i16, _>(binding, &OP, &r),
                    Ok(value)
                );
            }
        }
    }

    #[test]
    fn base64_results_are_written_as_asmx_writes_them() {
        let soap = bytes_response(Binding::Soap11, &OP, Some(&[0, 255]));
        assert!(body(&soap).contains("<OpResult>AP8=</OpResult>"));
        let empty = bytes_response(Binding::Soap11, &OP, Some(&[]));
        assert!(body(&empty).contains("<OpResponse xmlns=\"urn:s\"><OpResult /></OpResponse>"));
        let get = bytes_response(Binding::HttpGet, &OP, Some(&[]));
        assert_eq!(
            body(&get),
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<base64Binary xmlns=\"urn:s\" />"
        );
        for binding in Binding::ALL {
            for value in [None, Some(vec![]), Some(vec![1, 2, 3])] {
                let r = bytes_response(binding, &OP, value.as_deref());
                assert_eq!(
                    decode_bytes_response(binding, &OP, &r),
                    Ok(value),
                    "{binding:?}"
                );
            }
        }
    }

    #[test]
    fn void_results_are_written_as_asmx_writes_them() {
        let soap = void_response(Binding::Soap11, &OP);
        assert!(body(&soap)
            .ends_with("<soap:Body><OpResponse xmlns=\"urn:s\" /></soap:Body></soap:Envelope>"));
        let get = void_response(Binding::HttpGet, &OP);
        assert_eq!(get.status(), 200);
        assert!(get.headers().get(CONTENT_TYPE).is_none());
        assert_eq!(get.headers()[CACHE_CONTROL], "private, max-age=0");
        assert!(get.body().is_empty());
        for binding in Binding::ALL {
            let r = void_response(binding, &OP);
            assert_eq!(decode_void_response(binding, &OP, &r), Ok(()));
        }
        let fault = fault_response(Binding::HttpPost, &Fault::client("no"));
        assert!(matches!(
            decode_void_response(Binding::HttpPost, &OP, &fault),
            Err(ResponseError::ErrorBody { .. })
        ));
    }

    #[test]
    fn empty_and_null_results_are_written_as_dotnet_does() {
        assert!(body(&string_response(Binding::Soap12, &OP, Some("")).unwrap())
            .ends_with("<soap:Body><OpResponse xmlns=\"urn:s\"><OpResult /></OpResponse></soap:Body></soap:Envelope>"));
        assert_eq!(
            body(&string_response(Binding::HttpGet, &OP, Some("")).unwrap()),
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<string xmlns=\"urn:s\" />"
        );
        assert_eq!(
            body(&string_response(Binding::HttpPost, &OP, None).unwrap()),
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<string xsi:nil=\"true\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns=\"urn:s\" />"
        );
    }

    #[test]
    fn result_with_control_character_is_an_encode_error() {
        assert_eq!(
            string_response(Binding::Soap11, &OP, Some("a\u{7}")).unwrap_err(),
            EncodeError::InvalidXmlChar {
                operation: "Op",
                field: "OpResult",
                code: 7
            }
        );
        assert!(string_response(Binding::HttpGet, &OP, Some("\u{0}")).is_err());
    }

    #[test]
    fn faults_are_written_as_asmx_writes_them_and_read_back() {
        let fault = Fault::client("requested fault");
        let r = fault_response(Binding::Soap11, &fault);
        assert_eq!(r.status(), 500);
        assert!(body(&r).ends_with("<soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>requested fault</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>"));
        let r12 = fault_response(Binding::Soap12, &fault);
        assert_eq!(
            r12.headers()[CONTENT_TYPE],
            "application/soap+xml; charset=utf-8"
        );
        assert!(body(&r12).ends_with("<soap:Body><soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang=\"en\">requested fault</soap:Text></soap:Reason><soap:Detail /></soap:Fault></soap:Body></soap:Envelope>"));
        for binding in [Binding::Soap11, Binding::Soap12] {
            let server = Fault {
                code: crate::FaultCode::Server,
                reason: "x < y".into(),
                detail: Some("d".into()),
            };
            match decode_string_response(binding, &OP, &fault_response(binding, &server)) {
                Err(ResponseError::Fault { fault, .. }) => assert_eq!(fault, server),
                other => panic!("{other:?}"),
            }
            // A fault raised before the operation (mustUnderstand) has no detail element.
            let bare = Fault {
                code: crate::FaultCode::MustUnderstand,
                reason: "r".into(),
                detail: None,
            };
            let written = fault_response(binding, &bare);
            assert!(!body(&written).contains("etail"), "{}", body(&written));
            match decode_string_response(binding, &OP, &written) {
                Err(ResponseError::Fault { fault, .. }) => assert_eq!(fault, bare),
                other => panic!("{other:?}"),
            }
            // A code of the service's or a peer's choosing is text like any other (found by
            // fuzzing: written raw, it made a document no reader takes).
            let odd = Fault {
                code: crate::FaultCode::Other("a&<b>\"c".into()),
                reason: "r".into(),
                detail: Some(String::new()),
            };
            let written = fault_response(binding, &odd);
            assert!(
                body(&written).contains("soap:a&amp;&lt;b&gt;\"c</"),
                "{}",
                body(&written)
            );
            match decode_string_response(binding, &OP, &written) {
                Err(ResponseError::Fault { fault, .. }) => assert_eq!(fault, odd),
                other => panic!("{other:?}"),
            }
        }
        let get = fault_response(Binding::HttpGet, &fault);
        assert_eq!(get.headers()[CONTENT_TYPE], "text/plain; charset=utf-8");
        assert_eq!(body(&get), "requested fault\n");
        match decode_string_response(Binding::HttpGet, &OP, &get) {
            Err(ResponseError::ErrorBody { message, .. }) => assert_eq!(message, "requested fault"),
            other => panic!("{other:?}"),
        }
    }

    fn soap_request_with(content_type: &str, body: &[u8]) -> Request<Bytes> {
        Request::post("/s.asmx")
            .header(CONTENT_TYPE, content_type)
            .body(Bytes::copy_from_slice(body))
            .unwrap()
    }

    /// A reader that refuses bytes that are not UTF-8 as malformed, as the XML reader does,
    /// and faults (a refusal the host also gives) on a root named `fault`.
    fn reader(body: &[u8]) -> Result<String, RequestError> {
        let text = std::str::from_utf8(body).map_err(|_| RequestError::MalformedXml {
            reason: "not UTF-8".into(),
        })?;
        if text.starts_with("<fault") {
            return Err(RequestError::Doctype);
        }
        Ok(text.to_owned())
    }

    #[test]
    fn bytes_that_are_not_text_read_as_the_host_reads_them() {
        let valid = soap_request_with("text/xml; charset=utf-8", "<a>é</a>".as_bytes());
        let text = soap_text(&valid).unwrap();
        assert_eq!(text.decode(reader).unwrap(), "<a>é</a>");
        // The host reads U+FFFD and would answer with it: refused, as malformed.
        let invalid = soap_request_with("text/xml; charset=utf-8", b"<a>\xff</a>");
        let text = soap_text(&invalid).unwrap();
        assert_eq!(text.read(reader).unwrap(), "<a>\u{fffd}</a>");
        let refused = text.decode(reader).unwrap_err();
        assert!(refused.is_malformed(), "{refused:?}");
        // Where the host's reading of that text ends in a refusal, that refusal is the answer.
        let faulted = soap_request_with("text/xml; charset=utf-8", b"<fault>\xff</fault>");
        let text = soap_text(&faulted).unwrap();
        assert_eq!(text.decode(reader), Err(RequestError::Doctype));
        assert_eq!(text.read(reader), Err(RequestError::Doctype));
        // The same for an encoding that is transcoded: a lone surrogate in UTF-16.
        let utf16 = soap_request_with(
            "text/xml; charset=utf-16",
            b"<\x00a\x00>\x00\x00\xd8<\x00/\x00a\x00>\x00",
        );
        let text = soap_text(&utf16).unwrap();
        assert_eq!(text.read(reader).unwrap(), "<a>\u{fffd}</a>");
        assert!(text.decode(reader).unwrap_err().is_malformed());
        assert!(soap_body(&utf16).unwrap_err().is_malformed());
    }

    #[test]
    fn soap_bodies_are_read_in_their_declared_encoding() {
        let utf8 = soap_request_with(
            "text/xml; charset=utf-8",
            "<?xml version=\"1.0\"?><a>é</a>".as_bytes(),
        );
        assert!(matches!(soap_body(&utf8).unwrap(), Cow::Borrowed(_)));
        let latin1 = soap_request_with(
            "text/xml; charset=iso-8859-1",
            b"<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><a>caf\xe9</a>",
        );
        assert_eq!(
            &soap_body(&latin1).unwrap()[..],
            "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><a>café</a>".as_bytes()
        );
        // The charset alone is enough.
        let charset_only = soap_request_with("text/xml; charset=\"ISO-8859-1\"", b"<a>\xe9</a>");
        assert_eq!(
            &soap_body(&charset_only).unwrap()[..],
            "<a>é</a>".as_bytes()
        );
        // Without a charset the declaration decides for application/*.
        let declared = soap_request_with(
            "application/soap+xml",
            b"<?xml version='1.0' encoding = 'latin1'?><a>\xe9</a>",
        );
        assert_eq!(
            &soap_body(&declared).unwrap()[..],
            "<?xml version='1.0' encoding = 'latin1'?><a>é</a>".as_bytes()
        );
        // For text/*, ASP.NET (and the host) read US-ASCII then, `?` for other bytes:
        // refused, an ASCII body read as it is.
        let undeclared = soap_request_with(
            "text/xml",
            b"<?xml version='1.0' encoding = 'latin1'?><a>\xe9</a>",
        );
        assert_eq!(
            soap_body(&undeclared).unwrap_err(),
            RequestError::UnnamedCharset { label: None }
        );
        let ascii = soap_request_with("text/xml", b"<a>e</a>");
        assert_eq!(&soap_body(&ascii).unwrap()[..], b"<a>e</a>");
        // With both, the charset wins, as ASP.NET's reader does: UTF-8 stays UTF-8.
        let both = soap_request_with(
            "text/xml; charset=utf-8",
            "<?xml version='1.0' encoding='iso-8859-1'?><a>é</a>".as_bytes(),
        );
        assert!(matches!(soap_body(&both).unwrap(), Cow::Borrowed(_)));
        let bom = soap_request_with("text/xml", b"\xef\xbb\xbf<a/>");
        assert_eq!(&soap_body(&bom).unwrap()[..], b"<a/>");
        let utf16 = soap_request_with("text/xml", b"\xff\xfe<\x00a\x00/\x00>\x00");
        assert_eq!(&soap_body(&utf16).unwrap()[..], b"<a/>");
        // A charset ASP.NET cannot name, or an empty one, is ignored for application/*: the
        // declaration decides, as the host does.
        let unknown = soap_request_with(
            "application/soap+xml; charset=klingon",
            b"<?xml version='1.0' encoding='latin1'?><a>\xe9</a>",
        );
        assert_eq!(
            &soap_body(&unknown).unwrap()[..],
            "<?xml version='1.0' encoding='latin1'?><a>é</a>".as_bytes()
        );
        let empty = soap_request_with("application/soap+xml; charset=", "<a>é</a>".as_bytes());
        assert!(matches!(soap_body(&empty).unwrap(), Cow::Borrowed(_)));
        // For text/* ASP.NET falls back to US-ASCII: an ASCII body reads the same, another
        // (which it would read with `?`) is refused.
        let ascii = soap_request_with("text/xml; charset=utf8", b"<a>x</a>");
        assert_eq!(&soap_body(&ascii).unwrap()[..], b"<a>x</a>");
        let other = soap_request_with("text/xml; charset=utf8", "<a>é</a>".as_bytes());
        assert_eq!(
            soap_body(&other).unwrap_err(),
            RequestError::UnnamedCharset {
                label: Some("utf8".into())
            }
        );
        // Where the declaration decides, one naming no encoding .NET knows is refused, as
        // malformed; where it does not, it is not looked at.
        let undeclarable = soap_request_with(
            "application/soap+xml; charset=klingon",
            b"<?xml version='1.0' encoding='klingon'?><a/>",
        );
        let refused = soap_body(&undeclarable).unwrap_err();
        assert_eq!(
            refused,
            RequestError::UnsupportedEncoding {
                label: "klingon".into()
            }
        );
        assert!(refused.is_malformed());
        for content_type in [
            "text/xml; charset=klingon",
            "text/xml",
            "text/xml; charset=utf-8",
        ] {
            let ignored = soap_request_with(
                content_type,
                b"<?xml version='1.0' encoding='klingon'?><a/>",
            );
            assert_eq!(
                &soap_body(&ignored).unwrap()[..],
                b"<?xml version='1.0' encoding='klingon'?><a/>"
            );
        }
        let ignored = soap_request_with(
            "application/soap+xml; charset=utf-8",
            "<?xml version='1.0' encoding='8'?><a>é</a>".as_bytes(),
        );
        assert!(matches!(soap_body(&ignored).unwrap(), Cow::Borrowed(_)));
    }

    #[test]
    fn asmx_400_with_empty_body_is_a_status_error() {
        let mut r = Response::new(Bytes::new());
        *r.status_mut() = StatusCode::BAD_REQUEST;
        r.headers_mut().insert(
            CONTENT_TYPE,
            HeaderValue::from_static("text/xml; charset=utf-8"),
        );
        assert!(matches!(
            decode_string_response(Binding::Soap11, &OP, &r),
            Err(ResponseError::Status { status: 400, .. })
        ));
    }

    #[test]
    fn garbage_200_keeps_the_bytes() {
        let r = Response::new(Bytes::from_static(b"<html>oops"));
        match decode_string_response(Binding::Soap11, &OP, &r) {
            Err(ResponseError::Undecodable { body, reason, .. }) => {
                assert_eq!(&body[..], b"<html>oops");
                assert_eq!(
                    reason,
                    "the root element is {}html, not a SOAP 1.1 envelope"
                );
            }
            other => panic!("{other:?}"),
        }
        let truncated = string_response(Binding::Soap11, &OP, Some("x"))
            .unwrap()
            .map(|b| b.slice(..b.len() - 10));
        match decode_string_response(Binding::Soap11, &OP, &truncated) {
            Err(ResponseError::Undecodable { reason, .. }) => {
                assert!(
                    reason.starts_with("the body is not well-formed XML"),
                    "{reason}"
                )
            }
            other => panic!("{other:?}"),
        }
        let wrong = Response::new(Bytes::from_static(
            b"<string xmlns=\"urn:other\">x</string>",
        ));
        assert!(matches!(
            decode_string_response(Binding::HttpGet, &OP, &wrong),
            Err(ResponseError::Undecodable { .. })
        ));
    }
}
