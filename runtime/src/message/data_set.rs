//! Results of a DataSet or a lone DataTable: a server writing one, a client reading one.

use bytes::Bytes;
use http::{Response, StatusCode};

use super::{response, response_content_type, STRING_DOCUMENT_PROLOG};
use crate::dataset::{DataHolder, HolderView};
use crate::raw_xml::{write_close, write_open, Open, Scope, XmlAttribute, XmlElement, XMLNS_NS};
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
    let view = |set| view_of(set, operation);
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
                let view = view(set)?;
                let document = document_root(T::ROOT, namespace);
                let mut scope = Scope::empty().with_raw_carriage_returns();
                let root = write_open(&mut out, &document, &mut scope, Some(0)).map_err(invalid)?;
                view.write(&mut out, &root, &mut scope).map_err(invalid)?;
                write_close(&mut out, &document, root, &mut scope);
            }
        }
        return Ok(response(
            StatusCode::OK,
            response_content_type(binding),
            out,
        ));
    }
    // Made once, before anything is written: a holder .NET cannot write is refused.
    let view = result.map(view).transpose()?;
    super::raw::soap_result_response(binding, operation, view.as_ref(), |out, view| {
        write_holder(out, binding, namespace, view, false)
    })
    .map_err(invalid)
}

/// What `set`'s element holds, ready to be written; refused where .NET cannot write it.
fn view_of<'s, T: DataHolder>(
    set: &'s T,
    operation: &'static OperationInfo,
) -> Result<HolderView<'s>, EncodeError> {
    set.holder_view().ok_or(EncodeError::UnnamedDataTable {
        operation: operation.name,
        field: operation.result_name,
    })
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

/// Appends what the element of a DataSet holds (`view`, its [`DataHolder::holder_view`]: the
/// schema and the diffgram) in a SOAP message of `binding` whose service namespace is
/// `namespace`; a tab in an attribute value as `&#x9;` when `tab_reference` (a request's).
/// The error is the code point of a character XML cannot carry.
pub(crate) fn write_holder(
    out: &mut String,
    binding: Binding,
    namespace: &str,
    view: &HolderView<'_>,
    tab_reference: bool,
) -> Result<(), u32> {
    let mut scope =
        Scope::message(soap::envelope_ns(binding), namespace).with_raw_carriage_returns();
    let element = Open::unindented(&scope, tab_reference);
    view.write(out, &element, &mut scope)
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
