//! Responses, as clients read them: the result, or the fault, error status or undecodable
//! body they got instead.

use bytes::Bytes;
use http::header::CONTENT_TYPE;
use http::{Response, StatusCode};

use crate::soap::{self, ResponseBody};
use crate::{Binding, OperationInfo, ResponseError, Scalar, SoapType};

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
    let node = node.unwrap_or_else(|| {
        crate::tree::Node::text_only(operation.response_name, Default::default())
    });
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
    decode_value_response_with(
        binding,
        operation,
        response,
        items,
        root,
        T::read_streamed_optional,
        T::read_optional,
    )
}

/// [`decode_value_response`] for a result of a class with a root (`[XmlRoot]`), whose
/// element is nillable: `xsi:nil` is `None`, as XmlSerializer reads a nillable element.
pub fn decode_nillable_value_response<T: crate::tree::XmlItem, B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &Response<B>,
    items: &'static [&'static str],
    root: &'static str,
) -> Result<Option<T>, ResponseError> {
    decode_value_response_with(
        binding,
        operation,
        response,
        items,
        root,
        <Option<T> as crate::tree::XmlItem>::read_streamed,
        <Option<T> as crate::tree::XmlItem>::read_element,
    )
}

/// Reads a class or array result straight from a SOAP response with `read_streamed`, or
/// else from its tree with `read` (which words every error).
fn decode_value_response_with<T, B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &Response<B>,
    items: &'static [&'static str],
    root: &'static str,
    read_streamed: fn(
        &mut crate::tree::Streamed<'_, '_>,
        &'static [&'static str],
    ) -> Result<Option<T>, crate::tree::Fallback>,
    read: for<'n> fn(
        &crate::tree::Node<'n>,
        &'static [&'static str],
    ) -> Result<Option<T>, crate::tree::MemberError>,
) -> Result<Option<T>, ResponseError> {
    let body = response.body().as_ref();
    // A result over SOAP is read from the envelope whatever its content type says (see
    // `decode_result_with`).
    if binding.is_soap() && response.status() == StatusCode::OK {
        if let Ok(result) = soap::read_streamed_response(binding, operation, body, |element| {
            read_streamed(element, items)
        }) {
            return Ok(result);
        }
    }
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
        Some(node) => {
            read(&node, items).map_err(|error| undecodable(format!("the result: {error}")))
        }
    }
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
    // Over HTTP GET/POST, a document named after its type there (a `date` is a `dateTime`).
    let soap = binding.is_soap();
    let ty = if soap { T::TYPE } else { T::DOCUMENT_TYPE };
    let text = decode_result(binding, operation, response, ty)?
        .ok_or_else(|| undecodable(format!("the {} result is missing", T::TYPE)))?;
    // The result is XML on every binding, written by `XmlConvert`.
    let read = if soap {
        T::read_xml(&text)
    } else {
        T::read_document(&text)
    };
    read.map_err(|error| {
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
type SoapReader<'a, R> =
    fn(Binding, &'static OperationInfo, &'a [u8]) -> Result<ResponseBody<R>, String>;
/// Reads an HTTP GET/POST result document, its root named after the result's type.
type DocumentReader<'a, R> =
    fn(&'static OperationInfo, &str, &'a [u8]) -> Result<Option<R>, String>;

/// [`decode_result`] with the SOAP result read by `read_soap` (its text, or its value tree).
pub(super) fn decode_result_with<'a, R, B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &'a Response<B>,
    result_type: &str,
    read_soap: SoapReader<'a, R>,
    read_document: DocumentReader<'a, R>,
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
                    body: body.into(),
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
