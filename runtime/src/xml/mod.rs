//! XML: text escaping (writer side, `escape`), a pull cursor over quick-xml (reader side,
//! `cursor`, with the well-formedness checks quick-xml leaves out in `check`), and a scanner
//! that reads the plain shape of most requests and responses faster (`scanner`), value trees
//! included (`scan_tree`), and element by element for values read without a tree (`stream`).
//!
//! The cursor is the one place the runtime touches quick-xml. It refuses any DOCTYPE before
//! reading anything in it, so no entity is ever declared, expanded or fetched; only the five
//! predefined entities and character references are resolved.

/// Namespace of `xsi:nil`.
pub const XSI_NS: &str = "http://www.w3.org/2001/XMLSchema-instance";
/// Namespace of the `xsd` prefix ASMX declares on every envelope.
pub const XSD_NS: &str = "http://www.w3.org/2001/XMLSchema";

mod check;
mod cursor;
mod escape;
mod raw;
mod scan_tree;
mod scanner;
mod stream;
#[cfg(test)]
mod tests;

pub(crate) use check::replacements_ignored;
pub(crate) use cursor::{is_xml_space, Content, Element, Node, Ns, TreeNs, XmlCursor};
pub use escape::escape_text;
pub(crate) use escape::{escape_text_from, first_to_escape};
pub(crate) use raw::{is_blank, RawContent};
#[cfg(test)]
pub(crate) use scanner::assert_reads_as_start;
pub(crate) use scanner::{
    same_name, scanned_text, Attributes, KnownStart, ScannedStart, Scanner, TextSpan, Unusual,
};
pub(crate) use stream::{NilFlag, Stream, StreamStart};

/// Why the cursor stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum XmlError {
    /// Not well-formed, with the byte offset and what was wrong.
    Malformed(String),
    /// A `<!DOCTYPE`.
    Doctype,
    /// Text or names that are not UTF-8.
    NotUtf8,
}

pub(crate) type XmlResult<T> = Result<T, XmlError>;

pub(crate) fn malformed(position: u64, what: impl std::fmt::Display) -> XmlError {
    XmlError::Malformed(format!("{what} at byte {position}"))
}

/// Why a value tree could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TreeError {
    /// The document is not well-formed (or holds a DOCTYPE, or is not UTF-8).
    Xml(XmlError),
    /// More elements than [`crate::tree::MAX_ELEMENTS`].
    TooLarge,
}

impl From<XmlError> for TreeError {
    fn from(error: XmlError) -> Self {
        TreeError::Xml(error)
    }
}
