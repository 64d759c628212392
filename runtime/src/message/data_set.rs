//! Results of a DataSet or a lone DataTable: a server writing one, a client reading one.

use bytes::Bytes;
use http::{Response, StatusCode};

use super::{response, response_content_type, STRING_DOCUMENT_PROLOG};
use crate::dataset::DataHolder;
use crate::raw_xml::{write_element, write_element_indented, XmlAttribute, XmlElement, XMLNS_NS};
use crate::{soap, Binding, EncodeError, OperationInfo, ResponseError};

/// The `200` response carrying a DataSet result, as an ASMX host writes one: over SOAP the
/// schema and the diffgram inside the result element (a null result leaves it out); over
/// HTTP GET/POST a document `<DataSet xmlns="…">` holding them, indented as the host
/// indents it (a null result: that element, empty and `xsi:nil`).
/// A `DataTable` is written the same way, in `<DataTable>` over HTTP; one without a name
/// cannot be written, as .NET cannot write it.
pub fn data_set_response<T: DataHolder>(
    binding: Binding,
    operation: &'static OperationInfo,
    result: Option<&T>,
) -> Result<Response<Bytes>, EncodeError> {
    let invalid = |code| EncodeError::InvalidXmlChar {
        operation: operation.name,
        field: operation.result_name,
        code,
    };
    let children = |set: &T| {
        set.holder_children().ok_or(EncodeError::UnnamedDataTable {
            operation: operation.name,
            field: operation.result_name,
        })
    };
    let namespace = operation.service.namespace;
    if !binding.is_soap() {
        let mut out = String::from(STRING_DOCUMENT_PROLOG);
        match result {
            None => {
                out.push('<');
                out.push_str(T::ROOT);
                out.push_str(super::response::DOCUMENT_NAMESPACES);
                out.push_str(" xsi:nil=\"true\" xmlns=\"");
                crate::tree::escape_attribute(&mut out, namespace, false).map_err(invalid)?;
                out.push_str("\" />");
            }
            Some(set) => {
                let mut document = document_root(T::ROOT, namespace);
                document.children = children(set)?;
                let mut scope = crate::raw_xml::Scope::empty().with_raw_carriage_returns();
                write_element_indented(&mut out, &document, &mut scope).map_err(invalid)?;
            }
        }
        return Ok(response(
            StatusCode::OK,
            response_content_type(binding),
            out,
        ));
    }
    // Made once, before anything is written: a holder .NET cannot write is refused.
    let children = result.map(children).transpose()?;
    super::raw::soap_result_response(binding, operation, children.as_ref(), |out, children| {
        write_holder(out, binding, namespace, children, false)
    })
    .map_err(invalid)
}

/// `<DataSet xmlns="…">` (`root`: `DataSet` or `DataTable`), the root of an HTTP GET/POST
/// result document holding a set in the service namespace `namespace`, without children.
pub(crate) fn document_root(root: &str, namespace: &str) -> XmlElement {
    XmlElement {
        prefix: String::new(),
        local: root.to_owned(),
        namespace: namespace.to_owned(),
        attributes: vec![XmlAttribute {
            prefix: String::new(),
            local: "xmlns".to_owned(),
            namespace: XMLNS_NS.to_owned(),
            value: namespace.to_owned(),
        }],
        children: Vec::new(),
        end_tag: false,
    }
}

/// Appends what the element of a DataSet holds (`children`, its
/// [`DataHolder::holder_children`]: the schema and the diffgram) in a SOAP message of
/// `binding` whose service namespace is `namespace`; a tab in an attribute value as `&#x9;`
/// when `tab_reference` (a request's). The error is the code point of a character XML cannot
/// carry.
pub(crate) fn write_holder(
    out: &mut String,
    binding: Binding,
    namespace: &str,
    children: &[crate::raw_xml::XmlContent],
    tab_reference: bool,
) -> Result<(), u32> {
    let mut scope = crate::raw_xml::Scope::message(soap::envelope_ns(binding), namespace)
        .with_raw_carriage_returns();
    for child in children {
        if let crate::raw_xml::XmlContent::Element(e) = child {
            write_element(out, e, &mut scope, tab_reference)?;
        }
    }
    Ok(())
}

/// Reads the response to a call of `operation` whose result is a DataSet: `None` for a null
/// (no result element, or an `xsi:nil` document), else the set.
pub fn decode_data_set_response<T: DataHolder, B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &Response<B>,
) -> Result<Option<T>, ResponseError> {
    super::decode::decode_result_with(
        binding,
        operation,
        response,
        "",
        soap::read_response_data_set,
        soap::read_data_set_document,
    )
}
