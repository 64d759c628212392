//! Raw XML (`XmlElement`) in SOAP messages and HTTP GET/POST documents: a client reading a
//! result of raw XML.

use super::response::{describe, parse_response_with, ResponseBody};
use super::XSI;
use crate::raw_xml::RawXml;
use crate::xml::{self, Node, XmlCursor};
use crate::{Binding, OperationInfo};

fn tree_error(error: xml::TreeError) -> String {
    match error {
        xml::TreeError::Xml(error) => describe(error),
        xml::TreeError::TooLarge => crate::tree::MemberError::TooLarge.to_string(),
    }
}

/// What the result element `e` holds, read as raw XML, and whether it is `xsi:nil`.
fn result_content<'a>(
    cursor: &mut XmlCursor<'a, 3>,
    e: &xml::Element<'a>,
    budget: &mut crate::tree::Budget,
) -> Result<(xml::RawContent, bool), String> {
    let nil = cursor
        .attribute(e, XSI, "nil")
        .map_err(describe)?
        .is_some_and(|v| matches!(v.trim(), "true" | "1"));
    let content = cursor.raw_content(e, budget).map_err(tree_error)?;
    Ok((content, nil))
}

/// Reads a SOAP response envelope of `operation` whose result is raw XML: the result
/// element's first child element (`None`: no result element, none in it, or `xsi:nil`), or
/// a fault.
pub fn read_response_raw(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &[u8],
) -> Result<ResponseBody<RawXml>, String> {
    let mut budget = crate::tree::Budget::default();
    parse_response_with(binding, operation, body, |cursor, e| {
        let (content, nil) = result_content(cursor, &e, &mut budget)?;
        if content.text_first {
            return Err(format!(
                "{} holds text where an XML element belongs",
                operation.result_name
            ));
        }
        Ok(content.element.filter(|_| !nil).map(RawXml::new))
    })
}

/// Reads an HTTP GET/POST result document of raw XML: its root element is the result.
pub fn read_raw_document(
    _operation: &'static OperationInfo,
    _root_name: &str,
    body: &[u8],
) -> Result<Option<RawXml>, String> {
    let mut cursor = XmlCursor::new(body, []);
    let root = match cursor.next().map_err(describe)? {
        Node::Start(e) => e,
        // A null result: the host writes no document.
        Node::Eof => return Ok(None),
        Node::End | Node::Text => {
            unreachable!("the cursor reports text outside the root as malformed")
        }
    };
    let mut budget = crate::tree::Budget::default();
    let element = cursor.raw_element(root, &mut budget).map_err(tree_error)?;
    match cursor.next().map_err(describe)? {
        Node::Eof => Ok(Some(RawXml::new(element))),
        _ => Err("content after the root element".into()),
    }
}

/// [`read_response_raw`] for a result of a raw XML node: its first node, an element, a text
/// or a CDATA section.
pub fn read_response_raw_node(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &[u8],
) -> Result<ResponseBody<crate::RawNode>, String> {
    let mut budget = crate::tree::Budget::default();
    parse_response_with(binding, operation, body, |cursor, e| {
        let (content, nil) = result_content(cursor, &e, &mut budget)?;
        Ok(content.into_node().filter(|_| !nil))
    })
}

/// Whether the element `e` is marked `xsi:nil` (`true` or `1`).
fn is_nil(e: &crate::raw_xml::XmlElement) -> bool {
    e.attributes.iter().any(|a| {
        a.namespace == crate::xml::XSI_NS
            && a.local == "nil"
            && matches!(a.value.trim(), "true" | "1")
    })
}

fn data_set_error(
    operation: &'static OperationInfo,
    error: crate::dataset::DataSetError,
) -> String {
    format!(
        "{} is not a DataSet rmm reads whole: {error}",
        operation.result_name
    )
}

/// Reads a SOAP response envelope of `operation` whose result is a DataSet: `None` without
/// a result element; an element holding nothing (or `xsi:nil`) is an empty set, as .NET
/// reads it.
pub fn read_response_data_set<T: crate::dataset::DataHolder>(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &[u8],
) -> Result<ResponseBody<T>, String> {
    let mut budget = crate::tree::Budget::default();
    parse_response_with(binding, operation, body, |cursor, e| {
        let holder = cursor.raw_element(e, &mut budget).map_err(tree_error)?;
        if T::NIL_IS_EMPTY && is_nil(&holder) {
            return Ok(Some(T::empty()));
        }
        T::read_holder(&holder)
            .map(Some)
            .map_err(|error| data_set_error(operation, error))
    })
}

/// Reads an HTTP GET/POST result document of a DataSet: its root `<DataSet>` holds the set,
/// `xsi:nil` for a null.
pub fn read_data_set_document<T: crate::dataset::DataHolder>(
    operation: &'static OperationInfo,
    _root_name: &str,
    body: &[u8],
) -> Result<Option<T>, String> {
    let Some(root) = read_raw_document(operation, "", body)? else {
        return Ok(None);
    };
    if is_nil(root.root()) {
        return Ok(None);
    }
    T::read_holder(root.root())
        .map(Some)
        .map_err(|error| data_set_error(operation, error))
}
