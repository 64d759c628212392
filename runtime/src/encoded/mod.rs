//! SOAP RPC/encoded: section 5 of SOAP 1.1 (and its SOAP 1.2 successor), as an ASMX host
//! writes and reads it for a `[SoapRpcService]` or `[SoapRpcMethod]` method.
//!
//! The literal codecs write a value as its schema's elements; encoded messages are a graph
//! instead: every simple value carries its `xsi:type`, every class and array is an object
//! that may be referenced (`href="#id1"` in SOAP 1.1, `soapenc:ref="id1"` in SOAP 1.2) and
//! members are unqualified. The two versions lay the graph out differently, and the host
//! writes each one way only (`tests/fixtures/encoded/NOTES.md` holds the probes):
//!
//! - **SOAP 1.1**: every class and array is a multi-reference value, a sibling of the
//!   response element in the Body, written breadth first with ids `id1`, `id2`, … in the
//!   order their references are written; arrays are `soapenc:Array` elements with
//!   `soapenc:arrayType="xsd:int[3]"`, items `Item`.
//! - **SOAP 1.2**: everything inline, depth first, each class and array with a
//!   `soapenc:id`; arrays carry `soapenc:itemType` and `soapenc:arraySize`, and an rpc
//!   method's response names its result first in `<rpc:result>`.
//!
//! Writing goes through [`Value`], a small tree the generated code builds from its types
//! ([`Encode`]); the layout is the runtime's. Reading parses the whole envelope (roxmltree,
//! no DTD, a bounded node count), indexes the ids, and lets each type take its values from an
//! [`Element`], references followed ([`Decode`]). Rust values have no identity, so an object
//! the host would write once and reference twice is written twice by rmm: the values read
//! back are equal, the bytes are not (named in the encoded service's deliberate list,
//! `tests/src/encoded_service.rs`).

mod error;
mod read;
#[cfg(test)]
mod tests;
mod write;

pub use error::EncodedError;
pub use read::{read_request, read_response, Element};
pub use write::{request, response, write_envelope};

use crate::value::scalar::Scalar;

/// The encoding of SOAP 1.1 (`soapenc` in its messages).
pub const SOAP11_ENCODING: &str = "http://schemas.xmlsoap.org/soap/encoding/";
/// The encoding of SOAP 1.2.
pub const SOAP12_ENCODING: &str = "http://www.w3.org/2003/05/soap-encoding";
/// SOAP 1.2's RPC namespace (`rpc:result`).
pub const SOAP12_RPC: &str = "http://www.w3.org/2003/05/soap-rpc";
/// XML Schema's namespace (`xsd`).
pub const XSD: &str = "http://www.w3.org/2001/XMLSchema";
/// The namespace of ASMX's `char` and `guid`.
pub const MS_TYPES: &str = "http://microsoft.com/wsdl/types/";

/// The names of an rpc method's messages: .NET's `[SoapRpcMethod(RequestNamespace,
/// ResponseNamespace)]` and the namespace its types are in.
#[derive(Debug)]
pub struct RpcInfo {
    /// The request element's namespace (the service's, unless renamed).
    pub request_namespace: &'static str,
    /// The response element's namespace.
    pub response_namespace: &'static str,
    /// The namespace of the service's encoded types (the `types` prefix): the service's for
    /// `[SoapRpcService]`.
    pub types_namespace: &'static str,
    /// The result's accessor (`AddResult`), `None` for a method without a return value.
    pub result: Option<&'static str>,
}

/// The type a value names in its `xsi:type` (or an array in its item type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeName {
    /// A type of XML Schema (`xsd:int`).
    Xsd(&'static str),
    /// ASMX's own `char` and `guid` (`http://microsoft.com/wsdl/types/`).
    Ms(&'static str),
    /// A type of the service: a class or an enum (`types:Point`).
    Service(&'static str),
    /// An array: what an array's items are when they are arrays (refused by the generator;
    /// named for completeness).
    Array,
}

impl TypeName {
    /// The type's name as .NET names it in the host's messages (`System.Int32`), or its own
    /// name for a type of the service.
    pub fn dotnet(self) -> String {
        match self {
            TypeName::Xsd(name) | TypeName::Ms(name) => {
                dotnet_name(name).unwrap_or(name).to_owned()
            }
            TypeName::Service(name) => name.to_owned(),
            TypeName::Array => "System.Array".to_owned(),
        }
    }
}

/// .NET's name of the simple type XML Schema (or ASMX) names `local`.
pub(crate) fn dotnet_name(local: &str) -> Option<&'static str> {
    Some(match local {
        "int" => "System.Int32",
        "string" => "System.String",
        "boolean" => "System.Boolean",
        "decimal" => "System.Decimal",
        "double" => "System.Double",
        "float" => "System.Single",
        "long" => "System.Int64",
        "short" => "System.Int16",
        "byte" => "System.SByte",
        "unsignedByte" => "System.Byte",
        "unsignedShort" => "System.UInt16",
        "unsignedInt" => "System.UInt32",
        "unsignedLong" => "System.UInt64",
        "dateTime" | "date" => "System.DateTime",
        "base64Binary" => "System.Byte[]",
        "char" => "System.Char",
        "guid" => "System.Guid",
        "anyType" => "System.Object",
        _ => return None,
    })
}

/// A value as the encoded writer lays it out.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Null: an accessor left out, an array item `xsi:nil`.
    Null,
    /// A simple value and its type: `<X xsi:type="xsd:int">1</X>`.
    Simple {
        /// Its type.
        ty: TypeName,
        /// Its text, as `XmlConvert` writes it.
        text: String,
    },
    /// An object of a class, named by its runtime type; its members in wire order, nulls
    /// included (they are left out).
    Object {
        /// The class (the derived one, for an object of a derived class).
        ty: &'static str,
        /// Its members.
        members: Vec<(&'static str, Value)>,
    },
    /// An array and the declared type of its items.
    Array {
        /// The items' type.
        item: TypeName,
        /// The items.
        items: Vec<Value>,
    },
    /// A value .NET cannot hold, which the writer refuses (naming where it stands).
    Unwritable(Unwritable),
}

/// Why a value cannot be written: what the literal writers refuse too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unwritable {
    /// A `char` of two UTF-16 units: a .NET `char` is one.
    NotOneUnit(char),
    /// A `dateTime` outside .NET's years 1 to 9999 or finer than 100 ns (as chrono prints it).
    NotDotnetDateTime(String),
}

/// A type the encoded writer takes: a simple type, a class, an array, a value that may be
/// null. The runtime implements it for the simple types, `Option`, `Box` and `Vec`; the
/// generator for the service's classes and enums.
pub trait Encode {
    /// The declared type of a value of this Rust type.
    const TYPE: TypeName;
    /// The value.
    fn encode(&self) -> Value;
}

/// A type the encoded reader reads: the counterpart of [`Encode`].
pub trait Decode: Sized {
    /// The declared type of a value of this Rust type.
    const TYPE: TypeName;
    /// Whether it is a .NET value type: such a value cannot be null (`xsi:nil` is refused,
    /// where the host reads 0) and an array item of it cannot be a reference (the host reads
    /// 0 for one).
    const VALUE_TYPE: bool = false;
    /// The value of an accessor that is absent: the default, as the host reads it.
    fn absent() -> Self;
    /// Reads the value from its element (references followed, not nil).
    fn decode(element: &Element<'_, '_>) -> Result<Self, EncodedError>;
    /// Reads the value from an element that is `xsi:nil`: refused, but for `Option`.
    fn decode_nil(element: &Element<'_, '_>) -> Result<Self, EncodedError> {
        Err(EncodedError::Nil {
            path: element.path(),
            ty: Self::TYPE.dotnet(),
        })
    }
}

/// The simple value of a [`Scalar`]: for generated enums' [`Encode`].
pub fn simple<T: Scalar>(ty: TypeName, value: &T) -> Value {
    let mut text = String::new();
    value.write_xml(&mut text);
    Value::Simple { ty, text }
}

macro_rules! simple_types {
    ($($rust:ty => $ty:expr, $value_type:literal, $unwritable:expr;)*) => {$(
        impl Encode for $rust {
            const TYPE: TypeName = $ty;
            fn encode(&self) -> Value {
                let unwritable: fn(&$rust) -> Option<Unwritable> = $unwritable;
                match unwritable(self) {
                    Some(why) => Value::Unwritable(why),
                    None => simple(<Self as Encode>::TYPE, self),
                }
            }
        }

        impl Decode for $rust {
            const TYPE: TypeName = $ty;
            const VALUE_TYPE: bool = $value_type;
            fn absent() -> Self {
                Self::default()
            }
            fn decode(element: &Element<'_, '_>) -> Result<Self, EncodedError> {
                element.scalar(<Self as Decode>::TYPE)
            }
        }
    )*};
}

simple_types! {
    i8 => TypeName::Xsd("byte"), true, |_| None;
    i16 => TypeName::Xsd("short"), true, |_| None;
    i32 => TypeName::Xsd("int"), true, |_| None;
    i64 => TypeName::Xsd("long"), true, |_| None;
    u16 => TypeName::Xsd("unsignedShort"), true, |_| None;
    u32 => TypeName::Xsd("unsignedInt"), true, |_| None;
    u64 => TypeName::Xsd("unsignedLong"), true, |_| None;
    f32 => TypeName::Xsd("float"), true, |_| None;
    f64 => TypeName::Xsd("double"), true, |_| None;
    bool => TypeName::Xsd("boolean"), true, |_| None;
    char => TypeName::Ms("char"), true, |v| (v.len_utf16() != 1).then_some(Unwritable::NotOneUnit(*v));
    rust_decimal::Decimal => TypeName::Xsd("decimal"), true, |_| None;
    uuid::Uuid => TypeName::Ms("guid"), true, |_| None;
    crate::DateTime => TypeName::Xsd("dateTime"), true, |v| (!v.fits_dotnet()).then(|| Unwritable::NotDotnetDateTime(v.value.to_string()));
    crate::Date => TypeName::Xsd("date"), true, |v| (!v.0.fits_dotnet()).then(|| Unwritable::NotDotnetDateTime(v.0.value.to_string()));
    Vec<u8> => TypeName::Xsd("base64Binary"), false, |_| None;
}

impl Encode for String {
    const TYPE: TypeName = TypeName::Xsd("string");
    fn encode(&self) -> Value {
        Value::Simple {
            ty: <Self as Encode>::TYPE,
            text: self.clone(),
        }
    }
}

impl Decode for String {
    const TYPE: TypeName = TypeName::Xsd("string");
    fn absent() -> Self {
        String::new()
    }
    fn decode(element: &Element<'_, '_>) -> Result<Self, EncodedError> {
        element
            .text(<Self as Decode>::TYPE)
            .map(std::borrow::Cow::into_owned)
    }
}

impl<T: Encode> Encode for Option<T> {
    const TYPE: TypeName = T::TYPE;
    fn encode(&self) -> Value {
        self.as_ref().map_or(Value::Null, T::encode)
    }
}

impl<T: Decode> Decode for Option<T> {
    const TYPE: TypeName = T::TYPE;
    const VALUE_TYPE: bool = T::VALUE_TYPE;
    fn absent() -> Self {
        None
    }
    fn decode(element: &Element<'_, '_>) -> Result<Self, EncodedError> {
        T::decode(element).map(Some)
    }
    fn decode_nil(_element: &Element<'_, '_>) -> Result<Self, EncodedError> {
        Ok(None)
    }
}

impl<T: Encode> Encode for Box<T> {
    const TYPE: TypeName = T::TYPE;
    fn encode(&self) -> Value {
        (**self).encode()
    }
}

impl<T: Decode> Decode for Box<T> {
    const TYPE: TypeName = T::TYPE;
    const VALUE_TYPE: bool = T::VALUE_TYPE;
    fn absent() -> Self {
        Box::new(T::absent())
    }
    fn decode(element: &Element<'_, '_>) -> Result<Self, EncodedError> {
        T::decode(element).map(Box::new)
    }
    fn decode_nil(element: &Element<'_, '_>) -> Result<Self, EncodedError> {
        T::decode_nil(element).map(Box::new)
    }
}

impl<T: Encode> Encode for Vec<T> {
    const TYPE: TypeName = TypeName::Array;
    fn encode(&self) -> Value {
        Value::Array {
            item: T::TYPE,
            items: self.iter().map(T::encode).collect(),
        }
    }
}

impl<T: Decode> Decode for Vec<T> {
    const TYPE: TypeName = TypeName::Array;
    fn absent() -> Self {
        Vec::new()
    }
    fn decode(element: &Element<'_, '_>) -> Result<Self, EncodedError> {
        element.array::<T>()
    }
}
