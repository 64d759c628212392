//! Requests of both kinds, as clients build them, and the HTTP GET/POST form as servers
//! read it; the checks of values before anything is written.

use bytes::Bytes;
use http::header::{HeaderValue, CONTENT_LENGTH, CONTENT_TYPE};
use http::{Method, Request};

use super::{body_and_length, static_uri, static_value, FORM_CONTENT_TYPE, SOAP_ACTION_NAME};
use crate::form::{FormCharset, FormReader, FormSource};
use crate::soap::SOAP11_CONTENT_TYPE;
use crate::{Binding, EncodeError, OperationInfo, RequestError};

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

/// An HTTP GET request (`GET {path}/{Op}?{pairs}`) or HTTP POST request (`POST {path}/{Op}`
/// with the pairs as a form body).
///
/// # Panics
/// On a SOAP binding or JSON (a bug in the caller).
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
        Binding::Soap11 | Binding::Soap12 | Binding::Json => {
            panic!("{binding} requests are not forms")
        }
    }
}

/// The query string (HTTP GET) or form body (HTTP POST) of a request, parsed.
///
/// # Panics
/// On a SOAP binding or JSON (a bug in the caller).
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
        Binding::Soap11 | Binding::Soap12 | Binding::Json => {
            panic!("{binding} requests are not forms")
        }
    }
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
