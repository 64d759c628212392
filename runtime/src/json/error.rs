//! What goes wrong in a JSON call, in .NET's words.

/// A JSON call that cannot be read or answered. Each message is the one .NET throws, and
/// `JsonError::exception_type` names its exception: what the error body carries when
/// custom errors are off.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JsonError {
    /// More characters than `maxJsonLength` (102400 for services).
    #[error("Error during serialization or deserialization using the JSON JavaScriptSerializer. The length of the string exceeds the value set on the maxJsonLength property.")]
    TooLong,
    /// Nesting deeper than `RecursionLimit` (100).
    #[error("RecursionLimit exceeded.")]
    TooDeep,
    /// A token that is no value (`undefined`, `abc`, a comment, nothing).
    #[error("Invalid JSON primitive: {0}.")]
    InvalidPrimitive(String),
    /// A string without its closing quote.
    #[error("Unterminated string passed in.")]
    UnterminatedString,
    /// A `\u` escape without four hex digits.
    #[error("Input string was not in a correct format.")]
    BadUnicodeEscape,
    /// A backslash before a character that is no escape.
    #[error("Unrecognized escape sequence.")]
    UnrecognizedEscape,
    /// An object's member without its `:` or separator.
    #[error("Invalid object passed in, ':' or '}}' expected.")]
    ObjectExpected,
    /// An object's member without a name.
    #[error("Invalid object passed in, member name expected.")]
    MemberNameExpected,
    /// `[1,]`.
    #[error("Invalid array passed in, extra trailing ','.")]
    ArrayTrailingComma,
    /// Two items without a comma between them.
    #[error("Invalid array passed in, ',' expected.")]
    ArrayCommaExpected,
    /// An array without its `]`.
    #[error("Invalid array passed in, ']' expected.")]
    ArrayEndExpected,
    /// A `null` for a parameter or member of a value type.
    #[error("Cannot convert null to a value type.")]
    NullToValueType,
    /// A value of one type where another belongs (`Type.ToString()` names, no period, as
    /// .NET writes it).
    #[error("Cannot convert object of type '{from}' to type '{to}'")]
    CannotConvert {
        /// The .NET type read.
        from: &'static str,
        /// The .NET type expected.
        to: String,
    },
    /// A text that the type's converter cannot read.
    #[error("{text} is not a valid value for {to}.")]
    NotValidValue {
        /// The text (the value as .NET's invariant string).
        text: String,
        /// The type's short name (`Int32`).
        to: String,
    },
    /// An array where a single value belongs.
    #[error("Type '{0}' is not supported for deserialization of an array.")]
    ArrayNotSupported(String),
    /// An object where a string belongs.
    #[error("No parameterless constructor defined for type of '{0}'.")]
    NoParameterlessConstructor(String),
    /// A `__type` naming no type the service knows.
    #[error("Operation is not valid due to the current state of the object.")]
    UnknownType(String),
    /// An object without a `__type` for an abstract class.
    #[error("Cannot create an abstract class.")]
    AbstractType(String),
    /// A `__type` naming a type that is not the expected one nor derived from it.
    #[error("Cannot convert object of type '{from}' to type '{to}'")]
    NotDerived {
        /// The type the `__type` names.
        from: String,
        /// The type expected.
        to: String,
    },
    /// An enum's number that none of its members has (.NET's `Enum.Parse` takes any number,
    /// which a Rust enum cannot hold: refused).
    #[error("{text} is not a value of the enum {to}, which has {count} members.")]
    UndefinedEnumValue {
        /// The value sent.
        text: String,
        /// The enum.
        to: &'static str,
        /// How many members it has.
        count: usize,
    },
    /// A parameter the call does not carry.
    #[error("Invalid web service call, missing value for parameter: '{0}'.")]
    MissingParameter(&'static str),
    /// A GET to an operation that takes POST only, or the other way round.
    #[error("An attempt was made to call the method '{method}' using a {verb} request, which is not allowed.")]
    WrongVerb {
        /// The operation.
        method: &'static str,
        /// The verb it takes, as .NET names it.
        verb: &'static str,
    },
    /// A body that is no JSON object: an array.
    #[error("Type 'System.Collections.Generic.IDictionary`2[[System.String, mscorlib, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089],[System.Object, mscorlib, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089]]' is not supported for deserialization of an array.")]
    BodyIsArray,
    /// A body that is no JSON object: a single value.
    #[error("Cannot convert object of type '{0}' to type 'System.Collections.Generic.IDictionary`2[System.String,System.Object]'")]
    BodyIsValue(&'static str),
    /// A body of white space or `null`: .NET dereferences the null it reads.
    #[error("Object reference not set to an instance of an object.")]
    NullBody,
    /// The handler's fault.
    #[error("{0}")]
    Fault(String),
}

impl JsonError {
    /// The error of a `__type` hint `hint` on a value read as `to`: a hint the service knows
    /// (one of `all`) names a class that is not `to` nor derived from it; another is unknown.
    pub fn unknown_hint(hint: &str, to: &str, all: &[&str]) -> JsonError {
        if all.contains(&hint) {
            JsonError::NotDerived {
                from: hint.to_owned(),
                to: to.to_owned(),
            }
        } else {
            JsonError::UnknownType(hint.to_owned())
        }
    }

    /// The .NET exception .NET throws for it (`ExceptionType` in an error body).
    pub fn exception_type(&self) -> &'static str {
        match self {
            JsonError::TooLong
            | JsonError::TooDeep
            | JsonError::InvalidPrimitive(_)
            | JsonError::UnterminatedString
            | JsonError::UnrecognizedEscape
            | JsonError::ObjectExpected
            | JsonError::MemberNameExpected
            | JsonError::ArrayTrailingComma
            | JsonError::ArrayCommaExpected
            | JsonError::ArrayEndExpected => "System.ArgumentException",
            JsonError::BadUnicodeEscape => "System.FormatException",
            JsonError::NotValidValue { .. } => "System.Exception",
            JsonError::UndefinedEnumValue { .. } => "System.ArgumentException",
            JsonError::NoParameterlessConstructor(_) | JsonError::AbstractType(_) => {
                "System.MissingMethodException"
            }
            JsonError::NullBody => "System.NullReferenceException",
            JsonError::Fault(_) => "System.Web.Services.Protocols.SoapException",
            JsonError::NullToValueType
            | JsonError::CannotConvert { .. }
            | JsonError::ArrayNotSupported(_)
            | JsonError::UnknownType(_)
            | JsonError::NotDerived { .. }
            | JsonError::MissingParameter(_)
            | JsonError::WrongVerb { .. }
            | JsonError::BodyIsArray
            | JsonError::BodyIsValue(_) => "System.InvalidOperationException",
        }
    }
}
