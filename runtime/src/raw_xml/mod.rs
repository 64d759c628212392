//! Raw XML: a .NET `XmlElement` parameter or result (`<s:any />` in the WSDL), kept as the
//! element it is, not as a typed value.
//!
//! A [`RawXml`] holds the element as .NET's DOM holds it: each element's and attribute's
//! prefix, local name and namespace, the attributes in their order (namespace declarations
//! among them, where they were written), and the content, text, CDATA sections, comments and
//! processing instructions alike, white space included. Nothing is re-spelled: a prefix
//! stays the prefix it was, text stays the text it was.
//!
//! Written into a message it is written as .NET's `XmlNode.WriteTo` writes it there: the
//! attributes as they are, then a declaration for each prefix (or default namespace) the
//! element or an attribute uses that is not in scope at that place, an element without
//! content as `<x />`, values escaped as the host escapes them. [`RawXml`]'s `Display` is the
//! element standing alone (`XmlNode.OuterXml`): every namespace it needs declared on it.

mod item;
mod read;
mod write;

use std::fmt;

pub use read::RawXmlError;

/// The namespace of namespace declarations (`xmlns`, `xmlns:p`).
pub const XMLNS_NS: &str = "http://www.w3.org/2000/xmlns/";
/// The namespace the prefix `xml` is bound to, always.
pub const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

/// An XML element kept whole: a .NET `XmlElement` parameter, result or member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawXml {
    root: XmlElement,
}

/// An element of a [`RawXml`].
///
/// Two are equal by what they mean: the same prefix, name, namespace, attributes (namespace
/// declarations aside) and content; `<x />` and `<x></x>` alike. A declaration is the writer's to add where a reader needs
/// it, and a reader then holds it as an attribute: an element read back from what was written
/// of it is equal to it.
#[derive(Debug, Clone)]
pub struct XmlElement {
    /// Its prefix, empty for none.
    pub prefix: String,
    /// Its local name.
    pub local: String,
    /// Its namespace, empty for none.
    pub namespace: String,
    /// Its attributes in their order, namespace declarations among them.
    pub attributes: Vec<XmlAttribute>,
    /// What it holds, in order.
    pub children: Vec<XmlContent>,
    /// Written with an end tag though it holds nothing (`<x></x>`, as it was read), not as
    /// `<x />`: .NET's `XmlElement.IsEmpty` false. Not part of equality.
    pub end_tag: bool,
}

/// An attribute of an [`XmlElement`]. A namespace declaration is one too: `xmlns:p` has the
/// prefix `xmlns` and the local name `p`, `xmlns` no prefix and the local name `xmlns`, both
/// in [`XMLNS_NS`], the value the namespace declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XmlAttribute {
    /// Its prefix, empty for none.
    pub prefix: String,
    /// Its local name.
    pub local: String,
    /// Its namespace, empty for none (an attribute without prefix has none).
    pub namespace: String,
    /// Its value, as read (references replaced, white space normalised as XML 1.0 says).
    pub value: String,
}

/// A node inside an [`XmlElement`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum XmlContent {
    /// A child element.
    Element(XmlElement),
    /// Text (white space too), references replaced.
    Text(String),
    /// A CDATA section's text.
    CData(String),
    /// A comment's text.
    Comment(String),
    /// A processing instruction: its target and its data.
    ProcessingInstruction(String, String),
}

/// A .NET `XmlNode` parameter or result (a mixed `<s:any />` in the WSDL): the first node an
/// element holds, an element kept whole, a text or a CDATA section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawNode {
    /// An element.
    Element(RawXml),
    /// A text node (white space around kept; a node of white space alone is none).
    Text(String),
    /// A CDATA section.
    CData(String),
}

impl fmt::Display for RawNode {
    /// The node as `XmlNode.OuterXml` writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RawNode::Element(raw) => raw.fmt(f),
            RawNode::Text(text) => {
                let mut out = String::new();
                match crate::xml::escape_text(&mut out, text) {
                    Ok(()) => f.write_str(&out),
                    Err(code) => write!(
                        f,
                        "<!-- text holding U+{code:04X}, which XML cannot carry -->"
                    ),
                }
            }
            RawNode::CData(text) => write!(f, "<![CDATA[{text}]]>"),
        }
    }
}

impl PartialEq for XmlElement {
    fn eq(&self, other: &Self) -> bool {
        let attributes = |e: &XmlElement| {
            e.attributes
                .iter()
                .filter(|a| !a.is_declaration())
                .cloned()
                .collect::<Vec<_>>()
        };
        self.prefix == other.prefix
            && self.local == other.local
            && self.namespace == other.namespace
            && self.children == other.children
            && attributes(self) == attributes(other)
    }
}

impl Eq for XmlElement {}

impl XmlAttribute {
    /// Whether it declares a namespace (`xmlns`, `xmlns:p`); the prefix it declares is then
    /// [`declared_prefix`](Self::declared_prefix).
    pub fn is_declaration(&self) -> bool {
        self.namespace == XMLNS_NS
    }

    /// The prefix a declaration declares: empty for the default namespace.
    pub fn declared_prefix(&self) -> &str {
        if self.prefix.is_empty() {
            ""
        } else {
            &self.local
        }
    }
}

impl RawXml {
    /// The raw XML `root`.
    pub fn new(root: XmlElement) -> RawXml {
        RawXml { root }
    }

    /// Reads `text`, one element standing alone (an XML declaration, comments and white
    /// space around it allowed), as a message's element is read.
    pub fn parse(text: &str) -> Result<RawXml, RawXmlError> {
        read::parse(text)
    }

    /// Its element.
    pub fn root(&self) -> &XmlElement {
        &self.root
    }

    /// Its element, to change.
    pub fn root_mut(&mut self) -> &mut XmlElement {
        &mut self.root
    }

    /// The element standing alone, as `XmlNode.OuterXml` writes it: every namespace it uses
    /// declared (on the element that first needs it).
    pub fn outer_xml(&self) -> Result<String, u32> {
        let mut out = String::new();
        write::write_element(&mut out, &self.root, &mut write::Scope::empty(), false)?;
        Ok(out)
    }
}

impl fmt::Display for RawXml {
    /// [`RawXml::outer_xml`]; a character XML cannot carry is written as `\u{…}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.outer_xml() {
            Ok(text) => f.write_str(&text),
            Err(code) => write!(
                f,
                "<!-- raw XML holding U+{code:04X}, which XML cannot carry -->"
            ),
        }
    }
}

pub(crate) use write::{
    check_chars, declaration, write_child, write_close, write_element, write_element_at,
    write_element_indented, write_open, write_open_child, Open, Scope,
};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod item_tests;
