//! Why an encoded message could not be read.

use crate::ValueError;

/// Why the values of an encoded message could not be read. The path names the accessor from
/// the parameter or result down (`l/From/X`).
///
/// Where the host faults, rmm refuses the same requests (in its own words, the host's quoted
/// where they help); where the host reads on and answers `200` with values the sender did
/// not send (a nil `int` read as 0, an array without `soapenc:arrayType` read as null, a
/// qualified parameter read as absent, a SOAP 1.2 `href` read as an empty object), rmm
/// refuses instead, as it refuses the literal forms of the same.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodedError {
    /// A reference to an id no element of the message carries.
    #[error("{path}: the referenced element with ID '{id}' was not found in the document")]
    NotFound {
        /// Where.
        path: String,
        /// The id.
        id: String,
    },
    /// A SOAP 1.1 `href` that does not start with `#`.
    #[error("{path}: the referenced element with ID '{href}' is located outside the current document and cannot be retrieved")]
    OutsideDocument {
        /// Where.
        path: String,
        /// The reference as sent.
        href: String,
    },
    /// An `href` in a SOAP 1.2 message, whose references are `soapenc:ref`: the host reads
    /// the accessor as an empty object.
    #[error("{path}: a SOAP 1.2 message refers to a value with soapenc:ref, and this href would be read as an empty value")]
    HrefInSoap12 {
        /// Where.
        path: String,
    },
    /// A value whose `xsi:type` (or, for a multi-reference value without one, whose
    /// element's name) is another type than the accessor's.
    #[error("{path}: Cannot assign object of type {found} to an object of type {expected}.")]
    TypeMismatch {
        /// Where.
        path: String,
        /// The type sent (`{namespace}local` for an unknown one).
        found: String,
        /// The accessor's type.
        expected: String,
    },
    /// A parameter given by reference to a value of another type than the parameter's: the
    /// host reads the value and faults when it calls the method, a server fault
    /// ([`EncodedError::is_server_fault`]).
    #[error("{path}: Object of type '{found}' cannot be converted to type '{expected}'.")]
    ParameterType {
        /// Where.
        path: String,
        /// The type sent.
        found: String,
        /// The parameter's type.
        expected: String,
    },
    /// An `xsi:type` or an array's item type whose prefix no declaration binds.
    #[error("{path}: the type {name} has a prefix no namespace declaration binds")]
    UnboundPrefix {
        /// Where.
        path: String,
        /// The qualified name as sent.
        name: String,
    },
    /// `xsi:nil` for a value of a .NET value type: the host reads it as 0.
    #[error("{path}: xsi:nil for a value of type {ty}, which cannot be null (an ASMX host would read it as its default)")]
    Nil {
        /// Where.
        path: String,
        /// Its type.
        ty: String,
    },
    /// A SOAP 1.1 array without `soapenc:arrayType`: the host reads it as null.
    #[error(
        "{path}: an array needs soapenc:arrayType in SOAP 1.1 (an ASMX host would read it as null)"
    )]
    NoArrayType {
        /// Where.
        path: String,
    },
    /// An `arrayType` the host cannot read: no `[`, or several dimensions.
    #[error("{path}: soapenc:arrayType '{value}' is not a one-dimensional array type")]
    BadArrayType {
        /// Where.
        path: String,
        /// The attribute as sent.
        value: String,
    },
    /// An item of an array of a value type given by reference: the host reads it as 0.
    #[error("{path}: an item of type {ty} is given by reference, which an ASMX host reads as its default")]
    ReferencedValueItem {
        /// Where.
        path: String,
        /// The items' type.
        ty: String,
    },
    /// A parameter or member in a namespace: encoded accessors are unqualified, and the host
    /// reads a qualified one as absent.
    #[error("{path}: the element {{{namespace}}}{name} is qualified; encoded parameters and members are unqualified (an ASMX host would read it as absent)")]
    Qualified {
        /// Where (the parameter or the class).
        path: String,
        /// Its namespace.
        namespace: String,
        /// Its local name.
        name: String,
    },
    /// A simple value holding an element.
    #[error("{path}: a value of type {ty} must hold text only")]
    NotText {
        /// Where.
        path: String,
        /// Its type.
        ty: String,
    },
    /// A simple value that is not of its type.
    #[error("{path}: '{value}' is not a valid {ty}: {error}")]
    InvalidValue {
        /// Where.
        path: String,
        /// Its type.
        ty: String,
        /// The text.
        value: String,
        /// Why.
        error: ValueError,
    },
    /// References that lead back to where they came from, or nest deeper than the reader
    /// follows.
    #[error("{path}: references nest deeper than {limit} (or form a cycle, which a Rust value cannot hold)")]
    TooDeep {
        /// Where.
        path: String,
        /// The bound.
        limit: usize,
    },
    /// More values than the reader reads in one message (references can repeat a value).
    #[error("the message holds more than {limit} values")]
    TooLarge {
        /// The bound.
        limit: usize,
    },
}

impl EncodedError {
    /// Whether the host answers it with a server fault (`soap:Server`, `soap:Receiver`)
    /// rather than a client one: a parameter of the wrong type, found when the method is
    /// called, not while the request is read.
    pub fn is_server_fault(&self) -> bool {
        matches!(self, EncodedError::ParameterType { .. })
    }
}
