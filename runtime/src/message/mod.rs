//! HTTP messages of every binding, sans IO: generated code hands in bodies and gets
//! `http::Request` / `http::Response` values with byte bodies, and back.
//!
//! Requests carry no `Host` (the transport adds it) and are origin-form (path and query only):
//! a client joins them to its base URL.

use std::cell::RefCell;

use bytes::Bytes;
use http::header::{HeaderName, HeaderValue, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE};
use http::{Response, StatusCode};

use crate::soap::{self, SOAP11_CONTENT_TYPE};
use crate::Binding;

pub(crate) mod data_set;
mod decode;
mod headers;
#[cfg(feature = "client")]
pub(crate) mod items;
mod raw;
mod request;
pub(crate) mod response;
#[cfg(test)]
mod tests;
mod text;

pub(crate) use data_set::write_holder as write_data_set_holder;
pub use data_set::{data_set_response, decode_data_set_response};
pub use decode::{
    decode_bytes_response, decode_nillable_value_response, decode_nullable_response,
    decode_scalar_response, decode_string_response, decode_value_response, decode_void_response,
    decode_wrapper_response,
};
pub use headers::{response_headers, with_header, ResponseHeaders};
pub use raw::{
    decode_raw_node_response, decode_raw_xml_response, raw_node_response, raw_xml_response,
};
pub use request::{
    check_char, check_datetime, check_offered, form_request, read_form, soap_request, text_len,
};
pub use response::{
    bytes_response, fault_response, nillable_value_response, nullable_response, object_response,
    scalar_response, string_response, value_response, version_mismatch_response, void_response,
    wrapper_response,
};
pub use text::{soap_body, soap_text, SoapText};

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
pub(crate) fn response_content_type(binding: Binding) -> HeaderValue {
    if binding == Binding::Soap12 {
        const { HeaderValue::from_static(soap::SOAP12_CONTENT_TYPE) }
    } else {
        const { HeaderValue::from_static(SOAP11_CONTENT_TYPE) }
    }
}

/// A response with its content type, length and [`CACHE_CONTROL_RESULT`], as an ASMX host
/// sends results and operation faults.
pub(crate) fn response(
    status: StatusCode,
    content_type: HeaderValue,
    body: String,
) -> Response<Bytes> {
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

/// A SOAP `200` response holding `envelope`: for the encoded writer.
pub(crate) fn soap_ok(binding: Binding, envelope: String) -> Response<Bytes> {
    response(StatusCode::OK, response_content_type(binding), envelope)
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
