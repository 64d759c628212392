//! The answers of a `[ScriptService]`'s operation marked `ResponseFormat.Xml`
//! (`script: {response: xml}`), as `RestHandler` writes them: a string result as it is; any
//! other one a document XmlSerializer writes of the value's own type (`XmlSerializer(obj
//! .GetType())`: the root named after the type, in no namespace, not indented), in
//! `text/xml; charset=utf-8`. A null result (`void` too) throws in .NET: the JSON error.

use bytes::Bytes;
use http::header::{HeaderValue, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE};
use http::{Response, StatusCode};

use super::script::{error_response, CACHE_CONTROL_ANSWER};
use super::JsonError;
use crate::tree::{XmlItem, XmlOut};
use crate::Scalar;

/// The `Content-Type` of an XML answer.
pub const XML_CONTENT_TYPE: &str = "text/xml; charset=utf-8";

/// `XmlTextWriter`'s declaration, which XmlSerializer writes without a line end before the
/// root here.
const DECLARATION: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?>";

/// The error of a null result: `XmlSerializer(obj.GetType())` of null.
fn null_result() -> Response<Bytes> {
    error_response(&JsonError::NullBody)
}

fn xml_response(body: String) -> Response<Bytes> {
    let len = body.len();
    let mut response = Response::new(Bytes::from(body));
    *response.status_mut() = StatusCode::OK;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(XML_CONTENT_TYPE));
    headers.insert(CONTENT_LENGTH, HeaderValue::from(len));
    headers.insert(
        CACHE_CONTROL,
        HeaderValue::from_static(CACHE_CONTROL_ANSWER),
    );
    response
}

/// A string result: the text itself, unescaped, as .NET writes it (not serialized).
pub fn xml_text(result: Option<&str>) -> Response<Bytes> {
    match result {
        Some(text) => xml_response(text.to_owned()),
        None => null_result(),
    }
}

/// A simple value: `<?xml …?><int>5</int>`.
pub fn xml_scalar<T: Scalar>(result: &T) -> Response<Bytes> {
    let name = T::DOCUMENT_TYPE.name();
    let mut out = String::with_capacity(DECLARATION.len() + 2 * name.len() + T::ROOM + 8);
    out.push_str(DECLARATION);
    out.push('<');
    out.push_str(name);
    out.push('>');
    result.write_document(&mut out);
    out.push_str("</");
    out.push_str(name);
    out.push('>');
    xml_response(out)
}

/// A nullable simple value (`int?`, `byte[]`): as `xml_scalar`, or for `None` the error.
pub fn xml_nullable<T: Scalar>(result: Option<&T>) -> Response<Bytes> {
    match result {
        Some(value) => xml_scalar(value),
        None => null_result(),
    }
}

/// A class or array: the document XmlSerializer writes of it, rooted at `root` (the class's
/// name or root, `ArrayOfPoint`), declaring XML Schema's namespaces, its members in no
/// namespace; `items` names an array's items.
pub fn xml_value<T: XmlItem>(
    operation: &'static str,
    result: Option<&T>,
    items: &'static [&'static str],
    root: &'static str,
) -> Response<Bytes> {
    let Some(result) = result else {
        return null_result();
    };
    let mut out = String::with_capacity(512);
    out.push_str(DECLARATION);
    let mut document = XmlOut::document(
        &mut out,
        operation,
        crate::message::response::DOCUMENT_NAMESPACES,
        "",
    )
    .compact();
    match result.write_element(&mut document, root, items) {
        Ok(()) => {
            document.finish();
            xml_response(out)
        }
        Err(error) => super::script::error_response(&JsonError::Fault(error.to_string())),
    }
}
