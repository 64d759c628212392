//! Responses, as servers write them, byte for byte as an ASMX host does: results of each
//! kind, faults, the HTTP GET/POST result documents.

use bytes::Bytes;
use http::header::{HeaderValue, CACHE_CONTROL, CONTENT_LENGTH};
use http::{Response, StatusCode};

use super::{
    response, response_content_type, CACHE_CONTROL_RESULT, STRING_DOCUMENT_PROLOG,
    TEXT_CONTENT_TYPE,
};
use crate::soap::{self};
use crate::tree::XmlOut;
use crate::{xml, Binding, EncodeError, Fault, OperationInfo, Scalar, ServiceInfo, SoapType};

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
            operation,
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
    if binding == Binding::Json {
        return crate::json::script::error_response(&crate::json::JsonError::Fault(
            fault.reason.clone(),
        ));
    }
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
            operation,
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
        let (service, name) = (operation.service, T::DOCUMENT_TYPE.name());
        let mut out = String::with_capacity(
            STRING_DOCUMENT_PROLOG.len() + 2 * name.len() + service.namespace.len() + T::ROOM + 16,
        );
        out.push_str(STRING_DOCUMENT_PROLOG);
        out.push('<');
        out.push_str(name);
        out.push_str(" xmlns=\"");
        out.push_str(service.namespace);
        out.push_str("\">");
        result.write_document(&mut out);
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
pub(crate) const DOCUMENT_NAMESPACES: &str = concat!(
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
    value_response_with(binding, operation, result, items, root, false, false)
}

/// [`value_response`] for a result of a class with a root (`[XmlRoot]`), whose element is
/// nillable: over SOAP a null is the element with `xsi:nil`, not its absence.
pub fn nillable_value_response<T: crate::tree::XmlItem>(
    binding: Binding,
    operation: &'static OperationInfo,
    result: Option<&T>,
    items: &'static [&'static str],
    root: &'static str,
) -> Result<Response<Bytes>, EncodeError> {
    value_response_with(binding, operation, result, items, root, true, false)
}

/// [`value_response`] for a result of type `object`: over HTTP GET/POST its document's root,
/// `<anyType>`, declares no namespace but the service's (see [`XmlOut::object_document`]).
pub fn object_response<T: crate::tree::XmlItem>(
    binding: Binding,
    operation: &'static OperationInfo,
    result: Option<&T>,
) -> Result<Response<Bytes>, EncodeError> {
    value_response_with(binding, operation, result, &[], "anyType", false, true)
}

fn value_response_with<T: crate::tree::XmlItem>(
    binding: Binding,
    operation: &'static OperationInfo,
    result: Option<&T>,
    items: &'static [&'static str],
    root: &'static str,
    nillable: bool,
    object: bool,
) -> Result<Response<Bytes>, EncodeError> {
    let body = if binding.is_soap() {
        if result.is_none() && !nillable {
            return Ok(response(
                StatusCode::OK,
                response_content_type(binding),
                soap_result(binding, operation, &[]),
            ));
        }
        let mut w = soap::SoapWriter::new(binding, operation, 1024);
        w.raw(operation.response_open);
        let mut elements = w.elements();
        elements.nillable(operation.result_name, items, result)?;
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
                let mut document = if object {
                    XmlOut::object_document(&mut out, operation.name, DOCUMENT_NAMESPACES, &suffix)
                } else {
                    XmlOut::document(&mut out, operation.name, DOCUMENT_NAMESPACES, &suffix)
                        .in_scope(crate::tree::RawScope::Document { default: namespace })
                };
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
    let mut w = soap::SoapWriter::new(binding, operation, 512);
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
    let mut w = soap::SoapWriter::new(binding, operation, 256);
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
            let mut w = soap::SoapWriter::new(binding, operation, 128 + bytes.len() / 3 * 4);
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

/// The `200` response of an operation that returns nothing (.NET `void`), as ASMX writes it:
/// the empty response element (SOAP); over HTTP GET/POST no body at all, and no
/// `Content-Type` (ASMX's HTTP handler writes nothing when there is no result).
pub fn void_response(binding: Binding, operation: &'static OperationInfo) -> Response<Bytes> {
    if binding.is_soap() {
        let mut w = soap::SoapWriter::new(binding, operation, 256);
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
