//! Reading raw XML that stands alone (a value a caller makes from text).

use super::RawXml;
use crate::xml::{Node, XmlCursor};

/// Why text is not one XML element.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not one XML element: {0}")]
pub struct RawXmlError(pub(crate) String);

/// [`RawXml::parse`].
pub(super) fn parse(text: &str) -> Result<RawXml, RawXmlError> {
    let error = |e: crate::xml::TreeError| {
        RawXmlError(match e {
            crate::xml::TreeError::Xml(crate::xml::XmlError::Malformed(reason)) => reason,
            crate::xml::TreeError::Xml(crate::xml::XmlError::Doctype) => {
                "a document type declaration (DOCTYPE), which is not allowed".to_owned()
            }
            crate::xml::TreeError::Xml(crate::xml::XmlError::NotUtf8) => {
                "the text is not UTF-8".to_owned()
            }
            crate::xml::TreeError::TooLarge => "more elements than a message may hold".to_owned(),
        })
    };
    let mut cursor = XmlCursor::new(text.as_bytes(), []);
    let root = match cursor.next().map_err(|e| error(e.into()))? {
        Node::Start(element) => element,
        Node::Eof => return Err(RawXmlError("no element".to_owned())),
        Node::End | Node::Text => {
            unreachable!("the cursor reports text outside the root as malformed")
        }
    };
    let mut budget = crate::tree::Budget::default();
    let root = cursor.raw_element(root, &mut budget).map_err(error)?;
    match cursor.next().map_err(|e| error(e.into()))? {
        Node::Eof => Ok(RawXml::new(root)),
        _ => Err(RawXmlError("content after the element".to_owned())),
    }
}
