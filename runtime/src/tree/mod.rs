//! The value tree: XmlSerializer's object model on the wire.
//!
//! A parameter or result of a class or array type is read in two steps: the XML cursor reads
//! its element into a [`Node`] tree (bounded in depth by the cursor, in element count and
//! text by [`Budget`]), then the type's generated [`XmlItem::read_element`] takes its values
//! from the tree, as XmlSerializer's generated readers take them from .NET's reader: members
//! in any order, the first of a repeated member kept, unknown elements ignored, an absent
//! member left at its default. Writing goes straight to text through [`XmlOut`], which closes
//! an element without content as `<x />`, as .NET's `XmlTextWriter` does.
//!
//! Generated classes implement [`XmlItem`]; the runtime implements it for the simple types,
//! for `Option<T>` (an item that may be nil) and `Vec<T>` (an array, `ArrayOfX`), so that
//! nested arrays need no code of their own.

mod read;
mod write;

pub(crate) use read::Nil;
pub use read::{Node, NodeNs};
pub use write::XmlOut;

use crate::{EncodeError, SoapType, ValueError};

/// How many elements one value tree may hold: a class tree or an array of a request or
/// response. Each element costs a node in memory (about 100 bytes), so without a bound a 4 MiB
/// body of `<a/>` elements would cost 100 MiB; real messages hold far fewer. Beyond it the
/// message is refused with [`MemberError::TooLarge`].
pub const MAX_ELEMENTS: usize = 250_000;

/// The elements a tree may still take (see [`MAX_ELEMENTS`]).
#[derive(Debug)]
pub struct Budget {
    pub(crate) elements: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            elements: MAX_ELEMENTS,
        }
    }
}

/// What XmlSerializer writes and reads as an element: a simple value, a string, a class, an
/// array (`Vec<T>`) or an item that may be nil (`Option<T>`).
///
/// `items` names the items of an array at each level of nesting, outermost first (an
/// `OrderLine[][]` member passes `["ArrayOfOrderLine", "OrderLine"]`); anything else gets an
/// empty list.
pub trait XmlItem: Sized {
    /// Writes the element `name` holding the value.
    fn write_element(
        &self,
        w: &mut XmlOut<'_>,
        name: &'static str,
        items: &'static [&'static str],
    ) -> Result<(), EncodeError>;

    /// Reads the value from its element (which is not nil, unless `Self` is an `Option`).
    fn read_element(node: &Node, items: &'static [&'static str]) -> Result<Self, MemberError>;

    /// Reads a parameter, result or member of this type that may be null, from its element.
    /// By default `xsi:nil` is not read (XmlSerializer reads it only on a nillable element,
    /// and a reference's element is not: `<Customer xsi:nil="true" />` is an object with
    /// defaults, `<Name xsi:nil="true" />` an empty string); arrays read it.
    fn read_optional(
        node: &Node,
        items: &'static [&'static str],
    ) -> Result<Option<Self>, MemberError> {
        Self::read_element(node, items).map(Some)
    }
}

/// Why a value could not be read from its tree. The path names the member from the
/// parameter or result down (`Lines/OrderLine[2]/Quantity`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MemberError {
    /// A value that is not of its type.
    #[error("{path} must be {}, and the value '{value}' is not valid: {error}", ty.with_article())]
    InvalidValue {
        /// Where, from the parameter or result down.
        path: String,
        /// Its type.
        ty: SoapType,
        /// The text as sent.
        value: String,
        /// Why.
        error: ValueError,
    },
    /// An element of a simple type holding an element, a comment or a processing instruction
    /// (XmlSerializer reads it with `ReadElementString`, which throws).
    #[error("{path} must hold text only, and holds {found}")]
    NotSimpleContent {
        /// Where.
        path: String,
        /// What it holds.
        found: &'static str,
    },
    /// An `xsi:nil` that is no boolean, where XmlSerializer reads it.
    #[error("{path} has xsi:nil=\"{value}\", which is not a boolean (true, false, 1 or 0)")]
    InvalidNil {
        /// Where.
        path: String,
        /// The attribute's value.
        value: String,
    },
    /// More elements than [`MAX_ELEMENTS`].
    #[error("the message holds more than {} elements in one value", MAX_ELEMENTS)]
    TooLarge,
}

impl MemberError {
    /// The error with `step` put in front of its path (`Lines` before `OrderLine[2]`).
    pub fn within(mut self, step: &str) -> MemberError {
        match &mut self {
            MemberError::InvalidValue { path, .. }
            | MemberError::NotSimpleContent { path, .. }
            | MemberError::InvalidNil { path, .. } => {
                *path = if path.is_empty() {
                    step.to_owned()
                } else {
                    format!("{step}/{path}")
                };
            }
            MemberError::TooLarge => {}
        }
        self
    }

    /// Whether an ASMX host answers it as malformed XML (`400`, empty body) rather than with a
    /// fault: an element holding more than text, and base64 that is not (.NET's reader
    /// decodes base64 itself and throws an `XmlException`).
    pub fn is_malformed(&self) -> bool {
        matches!(
            self,
            MemberError::NotSimpleContent { .. }
                | MemberError::InvalidValue {
                    error: ValueError::NotBase64,
                    ..
                }
        )
    }
}
