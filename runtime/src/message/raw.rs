//! Results of raw XML (`XmlElement`): a server writing one, a client reading one.

use bytes::Bytes;
use http::{Response, StatusCode};

use super::{response, response_content_type, STRING_DOCUMENT_PROLOG};
use crate::raw_xml::{write_element, write_element_indented, RawXml, Scope};
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
    let mut w = soap::SoapWriter::new(binding, operation.name, 256);
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
            let mut scope = Scope::message(soap::envelope_ns(binding), operation.service.namespace);
            write_element(&mut out, result.root(), &mut scope, false).map_err(invalid)?;
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
