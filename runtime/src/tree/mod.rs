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

mod members;
mod name;
mod read;
mod streamed;
mod write;
#[cfg(test)]
mod write_tests;

pub use members::{Member, Members, NodeMembers};
pub use name::{tag, tags, ElementName, Tag};
pub(crate) use read::{read_scalar, Head, Nil, Rare, XsiType, CHILD};
pub use read::{Node, NodeNs};
pub use streamed::{Fallback, Streamed, StreamedMember};
pub(crate) use write::escape_attribute;
pub use write::{RawScope, XmlOut};

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
    fn write_element<N: ElementName, I: ElementName>(
        &self,
        w: &mut XmlOut<'_>,
        name: N,
        items: &'static [I],
    ) -> Result<(), EncodeError>;

    /// Reads the value from its element (which is not nil, unless `Self` is an `Option`).
    fn read_element(node: &Node, items: &'static [&'static str]) -> Result<Self, MemberError>;

    /// Reads the value straight from the message ([`Streamed`]), as [`XmlItem::read_element`]
    /// reads it from its tree; [`Fallback`] wherever it cannot say (the message is then
    /// read from a tree). By default, from the tree of its element alone.
    fn read_streamed(
        element: &mut Streamed<'_, '_>,
        items: &'static [&'static str],
    ) -> Result<Self, Fallback> {
        let node = element.tree()?;
        Self::read_element(&node, items).map_err(|_| Fallback)
    }

    /// [`XmlItem::read_optional`] straight from the message: by default, a nil element is
    /// left to the general reader (which refuses it), any other read by
    /// [`XmlItem::read_streamed`]. A type that reads `read_optional` otherwise reads this
    /// otherwise too.
    fn read_streamed_optional(
        element: &mut Streamed<'_, '_>,
        items: &'static [&'static str],
    ) -> Result<Option<Self>, Fallback> {
        if element.nil() == streamed::NilFlag::Yes {
            return Err(Fallback);
        }
        Self::read_streamed(element, items).map(Some)
    }

    /// Checks the `xsi:type` of an element of this type that is `xsi:nil`: XmlSerializer
    /// reads the type before the nil, so a nil item naming a class it may not hold is refused
    /// all the same. Classes check it; other types have nothing to check.
    fn check_nil_type(_node: &Node) -> Result<(), MemberError> {
        Ok(())
    }

    /// Reads a parameter, result or member of this type that may be null, from its element.
    ///
    /// XmlSerializer reads `xsi:nil` only on a nillable element, and a string's, byte
    /// array's or class's element is not: an ASMX host reads `<Customer xsi:nil="true" />`
    /// as an object with defaults and `<Name xsi:nil="true" />` as `""`, which is not what
    /// the sender meant. So by default `xsi:nil="true"` is refused here (as rmm refuses a nil
    /// string parameter), and any other value of it ignored, as the host ignores it. Arrays
    /// read it: nil is `None`. The element is read first all the same, as the host reads it:
    /// what the host refuses in it (an element inside a string, a bad member) is refused as
    /// the host refuses it, and only a nil the host would read silently is refused as nil.
    fn read_optional(
        node: &Node,
        items: &'static [&'static str],
    ) -> Result<Option<Self>, MemberError> {
        if node.is_nil() {
            Self::read_element(node, items)?;
            return Err(MemberError::NilNotNillable {
                path: String::new(),
            });
        }
        Self::read_element(node, items).map(Some)
    }
}

/// Why a value could not be read from its tree. The path names the member from the
/// parameter or result down (`Lines/OrderLine[2]/Quantity`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MemberError {
    /// A value that is not of its type.
    #[error("{} must be {}, and the value '{value}' is not valid: {error}", subject(path), ty.with_article())]
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
    #[error("{} must hold text only, and holds {found}", subject(path))]
    NotSimpleContent {
        /// Where.
        path: String,
        /// What it holds.
        found: &'static str,
    },
    /// `xsi:nil="true"` on an element that is not nillable (a string, byte array or class),
    /// which XmlSerializer reads as a value (`""`, an object with defaults): refused rather
    /// than read as other than the sender meant.
    #[error("{} is xsi:nil, but its element is not nillable: an ASMX host reads it as an empty value, not a null; leave the element out to send a null", subject(path))]
    NilNotNillable {
        /// Where.
        path: String,
    },
    /// An `xsi:type` naming no class this element may hold: unknown, of another namespace, or
    /// not derived from the declared class.
    #[error("{} has xsi:type '{name}'{}, which is not {declared} or a class derived from it", subject(path), if namespace.is_empty() { String::new() } else { format!(" of the namespace '{namespace}'") })]
    UnknownType {
        /// Where.
        path: String,
        /// The class the element is declared as.
        declared: &'static str,
        /// The type named.
        name: String,
        /// Its namespace, when not the service's.
        namespace: String,
    },
    /// An element of an abstract class without `xsi:type` naming a derived one (or naming the
    /// abstract class itself): there is nothing to create.
    #[error(
        "{} is of the abstract type {name}: xsi:type must name a class derived from it",
        subject(path)
    )]
    AbstractType {
        /// Where.
        path: String,
        /// The abstract class.
        name: &'static str,
    },
    /// An `xsi:type` whose prefix no declaration binds.
    #[error(
        "{} has an xsi:type whose prefix '{prefix}' is not declared",
        subject(path)
    )]
    UnboundPrefix {
        /// Where.
        path: String,
        /// The prefix.
        prefix: String,
    },
    /// An `xsi:nil` that is no boolean, where XmlSerializer reads it.
    #[error(
        "{} has xsi:nil=\"{value}\", which is not a boolean (true, false, 1 or 0)",
        subject(path)
    )]
    InvalidNil {
        /// Where.
        path: String,
        /// The attribute's value.
        value: String,
    },
    /// An `object` holding what rmm does not model: what .NET reads as an `XmlNode[]`
    /// (attributes or elements without a type rmm knows), or a type of XML Schema or another
    /// namespace that rmm does not read (`xsd:QName`, `xsd:date`). Refused rather than read
    /// as other than was sent.
    #[error(
        "{} is an object holding {found}, which rmm does not model",
        subject(path)
    )]
    UnmodelledObject {
        /// Where.
        path: String,
        /// What it holds.
        found: String,
    },
    /// Text where an `XmlElement` member or item holds its element: .NET cannot make an
    /// element of it, and refuses the message.
    #[error(
        "{} holds text where an XML element belongs (an XmlElement): Specified cast is not valid",
        subject(path)
    )]
    NotAnElement {
        /// Where.
        path: String,
    },
    /// An element holding no node where raw XML must be (an `XmlElement` or `XmlNode` that
    /// is not an `Option`).
    #[error("{} holds no XML node", subject(path))]
    NoElement {
        /// Where.
        path: String,
    },
    /// More elements than [`MAX_ELEMENTS`].
    #[error("the message holds more than {} elements in one value", MAX_ELEMENTS)]
    TooLarge,
}

/// A path for a message: the element itself when it is the parameter or result (`it`).
fn subject(path: &str) -> &str {
    if path.is_empty() {
        "it"
    } else {
        path
    }
}

impl MemberError {
    /// The error with `step` put in front of its path (`Lines` before `OrderLine[2]`).
    pub fn within(mut self, step: &str) -> MemberError {
        match &mut self {
            MemberError::InvalidValue { path, .. }
            | MemberError::NotSimpleContent { path, .. }
            | MemberError::NilNotNillable { path }
            | MemberError::UnknownType { path, .. }
            | MemberError::AbstractType { path, .. }
            | MemberError::UnboundPrefix { path, .. }
            | MemberError::InvalidNil { path, .. }
            | MemberError::UnmodelledObject { path, .. }
            | MemberError::NotAnElement { path }
            | MemberError::NoElement { path } => {
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
