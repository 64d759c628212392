//! `object`: a .NET `object` parameter, result, member or array item (`xs:anyType` in the
//! WSDL), whose value names its type on the wire with `xsi:type`.
//!
//! XmlSerializer writes an `object` by the type of the value it holds (.NET Framework's
//! `XmlSerializationWriter.WriteTypedPrimitive` and the generated writer of the root type):
//! a simple value with `xsi:type` naming its XML Schema type (`xsd:int`; `char` and `Guid` in
//! ASMX's own namespace, declared on the element as `q1`, `q2`, … counted through the
//! message), a class, enum or array of the service with `xsi:type` naming it, `new object()`
//! as an empty element. It reads one by its `xsi:type` (`ReadTypedPrimitive`): the simple
//! types by name, the service's types by name, and anything else as the `XmlNode[]` of the
//! element's attributes and content.
//!
//! [`AnyType`] holds the simple values, the service's own types (`K`, a generated enum of
//! its classes, enums and arrays, [`KnownTypes`]), an empty object and a text without type.
//! What .NET would hold as an `XmlNode[]` of elements or attributes, and the types it reads
//! that rmm does not model (`xsd:QName`, a date or time with a zone, types of other
//! namespaces), are refused by name rather than read as something else. `xsd:date`,
//! `xsd:time` and `xsd:hexBinary` are read as .NET reads them, and written back as it writes
//! them: as `xsd:dateTime` and `xsd:base64Binary`.

use crate::tree::{MemberError, Node, NodeNs, XmlItem, XmlOut, XsiType};
use crate::{DateTime, EncodeError, Scalar};

/// ASMX's namespace of the types XML Schema lacks (`char`, `guid`).
pub const URT_TYPES_NS: &str = "http://microsoft.com/wsdl/types/";
/// SOAP 1.1's encoding namespace, whose simple types XmlSerializer reads as XML Schema's.
const SOAP11_ENCODING_NS: &str = "http://schemas.xmlsoap.org/soap/encoding/";
/// SOAP 1.2's encoding namespace, likewise.
const SOAP12_ENCODING_NS: &str = "http://www.w3.org/2003/05/soap-encoding";

/// A .NET `object`: what one holds, by the type its `xsi:type` names.
///
/// `K` is the generated enum of the service's own classes, enums and arrays
/// ([`KnownTypes`]); a generated crate names this type `Object`.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyType<K> {
    /// `new object()`: an element without type or content (`<Value />`). An element holding
    /// nothing but white space or namespace declarations reads as it, as .NET reads it.
    Object,
    /// A text without `xsi:type` (`<Value>text</Value>`): .NET's `XmlNode[]` of one text
    /// node, written back as it is (in a service without an `XmlNode[]` type of its own:
    /// with one, it is that array, [`KnownTypes::text_nodes`]).
    Text(String),
    /// `xsd:string` (and the XML Schema types .NET reads as a string: `normalizedString`,
    /// `token`, `anyURI`, `NCName` and the like, trimmed but for `normalizedString`, written
    /// back as `xsd:string`).
    String(String),
    /// `xsd:boolean`.
    Boolean(bool),
    /// `xsd:int`.
    Int(i32),
    /// `xsd:short`.
    Short(i16),
    /// `xsd:long`.
    Long(i64),
    /// `xsd:float`.
    Float(f32),
    /// `xsd:double`.
    Double(f64),
    /// `xsd:decimal`.
    Decimal(rust_decimal::Decimal),
    /// `xsd:dateTime`.
    DateTime(DateTime),
    /// `xsd:unsignedByte` (.NET `byte`).
    UnsignedByte(u8),
    /// `xsd:byte` (.NET `sbyte`).
    Byte(i8),
    /// `xsd:unsignedShort`.
    UnsignedShort(u16),
    /// `xsd:unsignedInt`.
    UnsignedInt(u32),
    /// `xsd:unsignedLong`.
    UnsignedLong(u64),
    /// ASMX's `char` (a UTF-16 unit, written as its number).
    Char(char),
    /// ASMX's `guid`.
    Guid(uuid::Uuid),
    /// `xsd:base64Binary` (.NET `byte[]`).
    Base64Binary(Vec<u8>),
    /// A class, enum or array of the service, `xsi:type` naming it.
    Known(K),
}

/// The service's own types an `object` may hold: a generated enum with one variant per
/// concrete class, enum and array type of the service (XmlSerializer's type scope).
pub trait KnownTypes: Sized {
    /// Why a text without `xsi:type` is refused where these types are known (`None`: it is
    /// read, as [`KnownTypes::text_nodes`] says).
    const TEXT_REFUSED: Option<&'static str> = None;

    /// Reads the value of the service's type `name` (the local name `xsi:type` gave, in the
    /// service namespace) from `node`; `None` when the service has no type of that name.
    fn read_known(node: &Node, name: &str) -> Option<Result<Self, MemberError>>;

    /// Writes the value as the element `name`, `xsi:type` naming its type
    /// ([`XmlOut::next_type`]).
    fn write_known(&self, w: &mut XmlOut<'_>, name: &'static str) -> Result<(), EncodeError>;

    /// A text without `xsi:type` (.NET's `XmlNode[]` of one text node) as the service's own
    /// `XmlNode[]` array (`ArrayOfXmlNode`), where it has one: .NET's writer then names that
    /// array with `xsi:type` when it writes the value. `Err(text)`: the service has none, and
    /// the value is [`AnyType::Text`].
    fn text_nodes(text: String) -> Result<Self, String> {
        Err(text)
    }
}

/// No types of a service: what an `object` member of a class of another namespace (a SOAP
/// header's, WS-Security's or ebXML's kind) may hold besides XML Schema's, as rmm carries it.
/// The host's reader there knows the service's types and that namespace's classes, under
/// prefixes of their own, which rmm refuses by name rather than read as another's.
/// `SERVICE_NODES`: the service has an `XmlNode[]` type, as which the host writes a text
/// without type back (`xsi:type="q1:ArrayOfXmlNode"`), so such a text is refused too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoKnownTypes<const SERVICE_NODES: bool = false> {}

impl<const SERVICE_NODES: bool> KnownTypes for NoKnownTypes<SERVICE_NODES> {
    const TEXT_REFUSED: Option<&'static str> = if SERVICE_NODES {
        Some(
            "a text without xsi:type in an object of a class of another namespace (the host \
             takes it as the service's XmlNode[], written back under a prefix of its own)",
        )
    } else {
        None
    };

    fn read_known(_node: &Node, _name: &str) -> Option<Result<Self, MemberError>> {
        None
    }

    fn write_known(&self, _w: &mut XmlOut<'_>, _name: &'static str) -> Result<(), EncodeError> {
        match *self {}
    }
}

/// The XML Schema types .NET reads as a string, trimmed (`[XmlElement(DataType = "ID")]`
/// and the like), which a spec's `data_type` may name.
pub const COLLAPSED_STRINGS: [&str; 24] = [
    "anyURI",
    "duration",
    "ENTITY",
    "ENTITIES",
    "gDay",
    "gMonth",
    "gMonthDay",
    "gYear",
    "gYearMonth",
    "ID",
    "IDREF",
    "IDREFS",
    "integer",
    "language",
    "Name",
    "NCName",
    "NMTOKEN",
    "NMTOKENS",
    "negativeInteger",
    "nonPositiveInteger",
    "nonNegativeInteger",
    "NOTATION",
    "positiveInteger",
    "token",
];

/// `XmlSerializationReader.CollapseWhitespace`, which despite its name only trims (.NET's
/// `String.Trim`: Unicode white space at either end).
fn collapse(text: &str) -> String {
    text.trim().to_owned()
}

/// A string member of one of [`COLLAPSED_STRINGS`]' types (`[XmlAttribute(DataType = "ID")]`)
/// as XmlSerializer reads it: trimmed (`CollapseWhitespace`).
pub fn collapse_whitespace(text: String) -> String {
    match text.trim() {
        trimmed if trimmed.len() == text.len() => text,
        trimmed => trimmed.to_owned(),
    }
}

/// A simple value read from `node`'s text.
fn scalar<T: Scalar, K>(node: &Node, wrap: fn(T) -> AnyType<K>) -> Result<AnyType<K>, MemberError> {
    crate::tree::read_scalar::<T>(node).map(wrap)
}

/// The text of a string-typed element, as `ReadStringValue` reads it.
fn string_text(node: &Node) -> Result<String, MemberError> {
    <String as XmlItem>::read_element(node, &[])
}

/// Reads an XML Schema type's value (`ReadTypedPrimitive` for its namespace); `None` for a
/// name it reads as `XmlNode[]` (`anyType`, and those rmm does not model are refused).
fn read_xsd<K>(node: &Node, name: &str) -> Result<Option<AnyType<K>>, MemberError> {
    Ok(Some(match name {
        "string" | "normalizedString" => AnyType::String(string_text(node)?),
        name if COLLAPSED_STRINGS.contains(&name) => AnyType::String(collapse(&string_text(node)?)),
        "int" => scalar(node, AnyType::Int)?,
        "boolean" => scalar(node, AnyType::Boolean)?,
        "short" => scalar(node, AnyType::Short)?,
        "long" => scalar(node, AnyType::Long)?,
        "float" => scalar(node, AnyType::Float)?,
        "double" => scalar(node, AnyType::Double)?,
        "decimal" => scalar(node, AnyType::Decimal)?,
        "dateTime" => scalar(node, AnyType::DateTime)?,
        "unsignedByte" => scalar(node, AnyType::UnsignedByte)?,
        "byte" => scalar(node, AnyType::Byte)?,
        "unsignedShort" => scalar(node, AnyType::UnsignedShort)?,
        "unsignedInt" => scalar(node, AnyType::UnsignedInt)?,
        "unsignedLong" => scalar(node, AnyType::UnsignedLong)?,
        "base64Binary" => scalar(node, AnyType::Base64Binary)?,
        "hexBinary" => AnyType::Base64Binary(hex_binary(node)?),
        "date" | "time" => AnyType::DateTime(date_or_time(node, name)?),
        "anyType" => return Ok(None),
        _ => return Err(not_modelled(name, crate::xml::XSD_NS)),
    }))
}

/// An `xsd:hexBinary`'s bytes (.NET's `ToByteArrayHex`, written back as `base64Binary`):
/// pairs of hex digits, white space around them trimmed.
fn hex_binary(node: &Node) -> Result<Vec<u8>, MemberError> {
    let text = string_text(node)?;
    let digits = text.trim_matches([' ', '\t', '\r', '\n']);
    let invalid = || MemberError::InvalidValue {
        path: String::new(),
        ty: crate::SoapType::Base64Binary,
        value: text.clone(),
        error: crate::ValueError::NotBase64,
    };
    if digits.len() % 2 != 0 {
        return Err(invalid());
    }
    (0..digits.len())
        .step_by(2)
        .map(|i| {
            digits
                .get(i..i + 2)
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
                .ok_or_else(invalid)
        })
        .collect()
}

/// An `xsd:date` (`2020-01-02`: midnight) or `xsd:time` (`03:04:05`, up to seven fraction
/// digits: on 0001-01-01) of no zone, a `DateTime` without one, as .NET reads and writes back
/// as `xsd:dateTime`. One with a zone .NET converts to the host's local time, which rmm does
/// not model: refused by name.
fn date_or_time(node: &Node, name: &str) -> Result<DateTime, MemberError> {
    let text = string_text(node)?;
    let value = text.trim_matches([' ', '\t', '\r', '\n']);
    let parsed = if name == "date" {
        // Four digits of year, as .NET reads one (`-181-01-03` is no date to it), from 0001.
        chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d")
            .ok()
            .filter(|date| {
                value.len() == 10
                    && value.as_bytes()[..4].iter().all(u8::is_ascii_digit)
                    && chrono::Datelike::year(date) >= 1
            })
            .and_then(|date| date.and_hms_opt(0, 0, 0))
    } else {
        let fraction = value.split_once('.').map_or("", |(_, f)| f);
        chrono::NaiveTime::parse_from_str(value, "%H:%M:%S%.f")
            .ok()
            .filter(|_| {
                value.len() >= 8
                    && fraction.len() <= 7
                    && fraction.bytes().all(|b| b.is_ascii_digit())
            })
            .and_then(|time| chrono::NaiveDate::from_ymd_opt(1, 1, 1).map(|d| d.and_time(time)))
    };
    match parsed {
        Some(at) => Ok(DateTime::unspecified(at)),
        None if value.ends_with('Z') || value.rfind(['+', '-']).is_some_and(|i| i > 7) => {
            Err(MemberError::UnmodelledObject {
                path: String::new(),
                found: format!("an xsd:{name} with a time zone, which .NET converts to the host's"),
            })
        }
        None => Err(MemberError::InvalidValue {
            path: String::new(),
            ty: crate::SoapType::DateTime,
            value: text,
            error: crate::ValueError::NotDateTime,
        }),
    }
}

/// A type .NET reads (or reads as `XmlNode[]`) that rmm does not model in an `object`.
fn not_modelled(name: &str, namespace: &str) -> MemberError {
    MemberError::UnmodelledObject {
        path: String::new(),
        found: format!("xsi:type '{name}' of the namespace '{namespace}'"),
    }
}

/// Reads an element without a type rmm reads as a value (no `xsi:type`, or `xsd:anyType`):
/// .NET's `ReadXmlNodes`, which gives `new object()` for an element holding nothing, and
/// otherwise the `XmlNode[]` of its attributes and content. rmm holds a text alone; the rest
/// (attributes, elements) it refuses rather than lose.
fn read_untyped<K: KnownTypes>(node: &Node) -> Result<AnyType<K>, MemberError> {
    if node.has_attributes() {
        return Err(MemberError::UnmodelledObject {
            path: String::new(),
            found: "attributes without xsi:type (an XmlNode[] to .NET)".to_owned(),
        });
    }
    if !node.children.is_empty() {
        return Err(MemberError::UnmodelledObject {
            path: String::new(),
            found: "elements without xsi:type (an XmlNode[] to .NET)".to_owned(),
        });
    }
    // .NET's reader moves past white space to the content, so white space alone is none.
    if node.text.bytes().all(crate::xml::is_xml_space) {
        Ok(AnyType::Object)
    } else if let Some(found) = K::TEXT_REFUSED {
        Err(MemberError::UnmodelledObject {
            path: String::new(),
            found: found.to_owned(),
        })
    } else {
        Ok(match K::text_nodes(node.text.to_string()) {
            Ok(known) => AnyType::Known(known),
            Err(text) => AnyType::Text(text),
        })
    }
}

impl<K: KnownTypes> XmlItem for AnyType<K> {
    /// A nil item's `xsi:type` is resolved first, as XmlSerializer's `GetXsiType` resolves it:
    /// an unbound prefix is refused; any type is null when nil.
    fn check_nil_type(node: &Node) -> Result<(), MemberError> {
        match node.xsi_type() {
            Some(XsiType::UnboundPrefix(prefix)) => Err(MemberError::UnboundPrefix {
                path: String::new(),
                prefix: prefix.to_string(),
            }),
            _ => Ok(()),
        }
    }

    fn write_element<N: crate::tree::ElementName, I: crate::tree::ElementName>(
        &self,
        w: &mut XmlOut<'_>,
        name: N,
        _items: &'static [I],
    ) -> Result<(), EncodeError> {
        // A simple value: its type's name, whether ASMX's namespace holds it, its text.
        fn simple<T: Scalar>(type_name: &'static str, value: &T) -> (&'static str, bool, String) {
            let mut text = String::new();
            value.write_xml(&mut text);
            let foreign = matches!(T::TYPE, crate::SoapType::Char | crate::SoapType::Guid);
            (type_name, foreign, text)
        }
        let (type_name, foreign, text) = match self {
            // XmlSerializer writes `new object()` as a class without members.
            AnyType::Object => return w.class(name, None, |_| Ok(())),
            AnyType::Text(text) => {
                w.start(name);
                w.text(name.name(), text)?;
                w.end(name);
                return Ok(());
            }
            AnyType::Known(value) => return value.write_known(w, name.name()),
            AnyType::String(text) => {
                w.start(name);
                w.xsd_type("string");
                w.text(name.name(), text)?;
                w.end(name);
                return Ok(());
            }
            AnyType::Boolean(v) => simple("boolean", v),
            AnyType::Int(v) => simple("int", v),
            AnyType::Short(v) => simple("short", v),
            AnyType::Long(v) => simple("long", v),
            AnyType::Float(v) => simple("float", v),
            AnyType::Double(v) => simple("double", v),
            AnyType::Decimal(v) => simple("decimal", v),
            AnyType::DateTime(v) => simple("dateTime", v),
            AnyType::UnsignedByte(v) => simple("unsignedByte", v),
            AnyType::Byte(v) => simple("byte", v),
            AnyType::UnsignedShort(v) => simple("unsignedShort", v),
            AnyType::UnsignedInt(v) => simple("unsignedInt", v),
            AnyType::UnsignedLong(v) => simple("unsignedLong", v),
            AnyType::Char(v) => simple("char", v),
            AnyType::Guid(v) => simple("guid", v),
            AnyType::Base64Binary(v) => simple("base64Binary", v),
        };
        w.start(name);
        if foreign {
            w.foreign_type(URT_TYPES_NS, type_name);
        } else {
            w.xsd_type(type_name);
        }
        // Simple values' text holds nothing to escape.
        w.raw_text(&text);
        w.end(name);
        Ok(())
    }

    fn read_element(node: &Node, _items: &'static [&'static str]) -> Result<Self, MemberError> {
        let (ns, name) = match node.xsi_type() {
            None => return read_untyped(node),
            Some(XsiType::UnboundPrefix(prefix)) => {
                return Err(MemberError::UnboundPrefix {
                    path: String::new(),
                    prefix: prefix.to_string(),
                })
            }
            Some(XsiType::Named(ns, name)) => (ns, name),
        };
        match ns {
            NodeNs::Service => match K::read_known(node, name) {
                Some(value) => value.map(AnyType::Known),
                None => Err(MemberError::UnmodelledObject {
                    path: String::new(),
                    found: format!("xsi:type '{name}', which is no type of the service"),
                }),
            },
            NodeNs::Other(ns)
                if &**ns == crate::xml::XSD_NS
                    || &**ns == SOAP11_ENCODING_NS
                    || &**ns == SOAP12_ENCODING_NS =>
            {
                match read_xsd(node, name)? {
                    Some(value) => Ok(value),
                    None => read_untyped(node),
                }
            }
            NodeNs::Other(ns) if &**ns == URT_TYPES_NS => match &**name {
                "char" => scalar(node, AnyType::Char),
                "guid" => {
                    // .NET reads a Guid trimmed.
                    let text = collapse(&string_text(node)?);
                    <uuid::Uuid as Scalar>::read_xml(&text)
                        .map(AnyType::Guid)
                        .map_err(|error| MemberError::InvalidValue {
                            path: String::new(),
                            ty: crate::SoapType::Guid,
                            value: text,
                            error,
                        })
                }
                _ => Err(not_modelled(name, URT_TYPES_NS)),
            },
            NodeNs::Other(ns) => Err(not_modelled(name, ns)),
            NodeNs::None => Err(not_modelled(name, "")),
        }
    }
}

#[cfg(test)]
mod tests;
