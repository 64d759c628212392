//! Raw XML inside a class or an array: an `XmlElement` or `XmlNode` member or item, read from
//! a value tree that kept its elements as they were written (`OperationInfo::raw_trees`),
//! written where the writer stands.

use super::{RawNode, RawXml, XmlContent};
use crate::tree::{MemberError, Node, XmlItem, XmlOut};
use crate::EncodeError;

/// What XmlSerializer's `ReadXmlNode(wrapped: true)` reads of an element holding raw XML:
/// comments, processing instructions and white space skipped (`MoveToContent`), then the
/// first node, an element whole, a text (its pieces and references joined) or a CDATA
/// section; `None` for an element holding none. Anything after it is skipped.
fn first_node(node: &Node) -> Option<RawNode> {
    let Some(content) = node.raw_content() else {
        // A tree read without raw XML (which generated code does not ask for): its text.
        return (!crate::xml::is_blank(&node.text)).then(|| RawNode::Text(node.text.to_string()));
    };
    let mut elements = node.elements();
    for piece in content {
        match piece {
            XmlContent::Element(_) => {
                let element = elements.next()?.raw_element()?;
                return Some(RawNode::Element(RawXml::new(element)));
            }
            XmlContent::Text(text) if crate::xml::is_blank(text) => {}
            XmlContent::Text(text) => return Some(RawNode::Text(text.clone())),
            XmlContent::CData(text) => return Some(RawNode::CData(text.clone())),
            XmlContent::Comment(_) | XmlContent::ProcessingInstruction(..) => {}
        }
    }
    None
}

impl XmlItem for RawXml {
    /// `<name>` holding the element (`XmlElement` member or item).
    fn write_element<N: crate::tree::ElementName, I: crate::tree::ElementName>(
        &self,
        w: &mut XmlOut<'_>,
        name: N,
        _items: &'static [I],
    ) -> Result<(), EncodeError> {
        w.start(name);
        w.raw_element(name.name(), self.root())?;
        w.end(name);
        Ok(())
    }

    /// The element's first element; text before it is refused, as the host refuses it
    /// (`Specified cast is not valid`: a text node is no `XmlElement`). An element holding
    /// nothing cannot be a `RawXml`: read it as an `Option` ([`XmlItem::read_optional`]).
    fn read_element(node: &Node, _items: &'static [&'static str]) -> Result<Self, MemberError> {
        match first_node(node) {
            Some(RawNode::Element(raw)) => Ok(raw),
            Some(RawNode::Text(_) | RawNode::CData(_)) => Err(MemberError::NotAnElement {
                path: String::new(),
            }),
            None => Err(MemberError::NoElement {
                path: String::new(),
            }),
        }
    }

    /// `xsi:nil` is null (`ReadXmlNode` reads it on any element), and so is an element
    /// holding no element.
    fn read_optional(
        node: &Node,
        _items: &'static [&'static str],
    ) -> Result<Option<Self>, MemberError> {
        if node.read_null()? {
            return Ok(None);
        }
        match first_node(node) {
            Some(RawNode::Element(raw)) => Ok(Some(raw)),
            Some(RawNode::Text(_) | RawNode::CData(_)) => Err(MemberError::NotAnElement {
                path: String::new(),
            }),
            None => Ok(None),
        }
    }

    /// As [`XmlItem::read_optional`] reads it, from the element's tree.
    fn read_streamed_optional(
        element: &mut crate::tree::Streamed<'_, '_>,
        items: &'static [&'static str],
    ) -> Result<Option<Self>, crate::tree::Fallback> {
        element.optional_from_tree(items)
    }
}

impl XmlItem for RawNode {
    /// `<name>` holding the node: an element as [`RawXml`] is written, a text escaped, a
    /// CDATA section as it is.
    fn write_element<N: crate::tree::ElementName, I: crate::tree::ElementName>(
        &self,
        w: &mut XmlOut<'_>,
        name: N,
        _items: &'static [I],
    ) -> Result<(), EncodeError> {
        w.start(name);
        match self {
            RawNode::Element(raw) => w.raw_element(name.name(), raw.root())?,
            RawNode::Text(text) => w.text(name.name(), text)?,
            RawNode::CData(text) => w.cdata(name.name(), text)?,
        }
        w.end(name);
        Ok(())
    }

    /// The element's first node. An element holding none cannot be a `RawNode`: read it as
    /// an `Option` ([`XmlItem::read_optional`]).
    fn read_element(node: &Node, _items: &'static [&'static str]) -> Result<Self, MemberError> {
        first_node(node).ok_or(MemberError::NoElement {
            path: String::new(),
        })
    }

    /// `xsi:nil` is null, and so is an element holding no node.
    fn read_optional(
        node: &Node,
        _items: &'static [&'static str],
    ) -> Result<Option<Self>, MemberError> {
        if node.read_null()? {
            return Ok(None);
        }
        Ok(first_node(node))
    }

    /// As [`XmlItem::read_optional`] reads it, from the element's tree.
    fn read_streamed_optional(
        element: &mut crate::tree::Streamed<'_, '_>,
        items: &'static [&'static str],
    ) -> Result<Option<Self>, crate::tree::Fallback> {
        element.optional_from_tree(items)
    }
}
