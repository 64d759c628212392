//! Results of raw XML (`XmlElement`): a server writing one, a client reading one.

use bytes::Bytes;
use http::{Response, StatusCode};

use super::{response, response_content_type, STRING_DOCUMENT_PROLOG, TEXT_CONTENT_TYPE};
use crate::raw_xml::{check_chars, write_element, write_element_indented, RawNode, RawXml, Scope};
use crate::{soap, Binding, EncodeError, OperationInfo, ResponseError};

/// The `200` response carrying a result of raw XML, as an ASMX host writes an `XmlElement`:
/// over SOAP the element inside the result element (a null result leaves the result element
/// out), written where the envelope's prefixes and the service namespace are in scope; over
/// HTTP GET/POST the element is the document, indented as the host indents it (a null result:
/// the XML declaration alone, without a line end).
pub fn raw_xml_response(
    binding: Binding,
    operation: &'static OperationInfo,
    result: Option<&RawXml>,
) -> Result<Response<Bytes>, EncodeError> {
    let invalid = |code| EncodeError::InvalidXmlChar {
        operation: operation.name,
        field: operation.result_name,
        code,
    };
    if !binding.is_soap() {
        let mut out = String::from(STRING_DOCUMENT_PROLOG);
        match result {
            Some(result) => write_element_indented(&mut out, result.root(), &mut Scope::empty())
                .map_err(invalid)?,
            // The declaration alone, its line not ended.
            None => {
                out.pop();
            }
        }
        return Ok(response(
            StatusCode::OK,
            response_content_type(binding),
            out,
        ));
    }
    soap_result_response(binding, operation, result, |out, result| {
        let mut scope = Scope::message(soap::envelope_ns(binding), operation.service.namespace);
        write_element(out, result.root(), &mut scope, false)
    })
    .map_err(invalid)
}

/// The `200` SOAP response of `operation` whose result is written into the result element
/// by `write` (its error: the code point of a character XML cannot carry); a null result
/// leaves the result element out (`<{name}Response xmlns="…" />`), as ASMX writes a null
/// reference.
pub(super) fn soap_result_response<T>(
    binding: Binding,
    operation: &'static OperationInfo,
    result: Option<&T>,
    write: impl FnOnce(&mut String, &T) -> Result<(), u32>,
) -> Result<Response<Bytes>, u32> {
    let mut w = soap::SoapWriter::new(binding, operation, 256);
    let open = operation.response_open;
    match result {
        None => {
            // `<{name}Response xmlns="…">` becomes `<{name}Response xmlns="…" />`.
            w.raw(&open[..open.len() - 1]);
            w.raw(" />");
        }
        Some(result) => {
            let mut out = String::with_capacity(256);
            out.push_str(open);
            out.push('<');
            out.push_str(operation.result_name);
            out.push('>');
            write(&mut out, result)?;
            out.push_str("</");
            out.push_str(operation.result_name);
            out.push('>');
            out.push_str(operation.response_close);
            w.text(&out);
        }
    }
    Ok(response(
        StatusCode::OK,
        response_content_type(binding),
        w.finish(),
    ))
}

/// Reads the response to a call of `operation` whose result is raw XML: `None` for a null
/// (no result element, or nothing in it), else the element.
pub fn decode_raw_xml_response<B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &Response<B>,
) -> Result<Option<RawXml>, ResponseError> {
    super::decode::decode_result_with(
        binding,
        operation,
        response,
        "",
        soap::read_response_raw,
        soap::read_raw_document,
    )
}

/// The response carrying a result of a raw XML node (`XmlNode`), as an ASMX host writes one:
/// over SOAP in the result element, an element as [`raw_xml_response`] writes one, a text
/// escaped (an empty one as `<R />`), a CDATA section as it is. Over HTTP GET/POST an element
/// is the document; a text cannot be one, and the host answers `500` with its error text (an
/// empty text writes nothing: the declaration alone, as for a null).
pub fn raw_node_response(
    binding: Binding,
    operation: &'static OperationInfo,
    result: Option<&RawNode>,
) -> Result<Response<Bytes>, EncodeError> {
    let invalid = |code| EncodeError::InvalidXmlChar {
        operation: operation.name,
        field: operation.result_name,
        code,
    };
    let (text, token) = match result {
        None => return raw_xml_response(binding, operation, None),
        Some(RawNode::Element(raw)) => return raw_xml_response(binding, operation, Some(raw)),
        Some(RawNode::Text(text)) => {
            let mut out = String::new();
            crate::xml::escape_text(&mut out, text).map_err(invalid)?;
            (out, "Content")
        }
        Some(RawNode::CData(text)) => {
            check_chars(text).map_err(invalid)?;
            (format!("<![CDATA[{text}]]>"), "CData")
        }
    };
    if !binding.is_soap() {
        if text.is_empty() {
            return raw_xml_response(binding, operation, None);
        }
        let message = format!(
            "There was an error generating the XML document. ---> Token {token} in state \
             Prolog would result in an invalid XML document.\n"
        );
        return Ok(response(
            StatusCode::INTERNAL_SERVER_ERROR,
            http::HeaderValue::from_static(TEXT_CONTENT_TYPE),
            message,
        ));
    }
    let mut w = soap::SoapWriter::new(binding, operation, 256);
    let mut out = String::with_capacity(128 + text.len());
    out.push_str(operation.response_open);
    out.push('<');
    out.push_str(operation.result_name);
    if text.is_empty() {
        out.push_str(" />");
    } else {
        out.push('>');
        out.push_str(&text);
        out.push_str("</");
        out.push_str(operation.result_name);
        out.push('>');
    }
    out.push_str(operation.response_close);
    w.text(&out);
    Ok(response(
        StatusCode::OK,
        response_content_type(binding),
        w.finish(),
    ))
}

/// Reads the response to a call of `operation` whose result is a raw XML node: `None` for a
/// null (no result element, or nothing in it), else its first node.
pub fn decode_raw_node_response<B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &Response<B>,
) -> Result<Option<RawNode>, ResponseError> {
    super::decode::decode_result_with(
        binding,
        operation,
        response,
        "",
        soap::read_response_raw_node,
        |operation, root, body| {
            soap::read_raw_document(operation, root, body).map(|raw| raw.map(RawNode::Element))
        },
    )
}
