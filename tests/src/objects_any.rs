//! The objects service's `object` operations, as `ObjectsService.cs` makes and describes
//! objects: `MakeObject`, `MakeObjects`, `DescribeObject`.

use rmm_objects::runtime::{AnyType, Scalar};
use rmm_objects::{KnownType, Level, Note, Object};

/// `MakeObject(kind)`: the value the host makes of each kind (`None`, the null, for 0 and
/// any kind it does not know).
pub fn make_object(kind: i32) -> Option<Object> {
    let at = |text: &str| rmm_objects::runtime::DateTime::read_xml(text).expect("a dateTime");
    Some(match kind {
        1 => AnyType::String("text <&>".to_owned()),
        2 => AnyType::Int(5),
        3 => AnyType::Long(-5),
        4 => AnyType::Short(5),
        5 => AnyType::UnsignedByte(5),
        6 => AnyType::Byte(-5),
        7 => AnyType::UnsignedInt(5),
        8 => AnyType::UnsignedShort(5),
        9 => AnyType::UnsignedLong(u64::MAX),
        10 => AnyType::Double(5.5),
        11 => AnyType::Float(0.1),
        12 => AnyType::Decimal("5.50".parse().expect("a decimal")),
        13 => AnyType::Boolean(true),
        14 => AnyType::DateTime(at("2020-01-02T03:04:05Z")),
        15 => AnyType::DateTime(at("2020-01-02T03:04:05.678")),
        16 => AnyType::Char('c'),
        17 => AnyType::Guid(
            "01234567-89ab-cdef-0123-456789abcdef"
                .parse()
                .expect("a Guid"),
        ),
        18 => AnyType::Base64Binary(vec![1, 2, 3]),
        19 => AnyType::String(String::new()),
        20 => AnyType::Object,
        21 => AnyType::Known(KnownType::Level(Level::High)),
        22 => AnyType::Known(KnownType::Note(Box::new(Note {
            lang: Some("en".to_owned()),
            text: Some("a note".to_owned()),
        }))),
        23 => AnyType::Known(KnownType::ArrayOfAnyType(vec![
            Some(AnyType::Int(1)),
            Some(AnyType::String("a".to_owned())),
            None,
            Some(AnyType::Char('z')),
            Some(AnyType::Known(KnownType::ArrayOfAnyType(vec![Some(
                AnyType::Double(2.5),
            )]))),
        ])),
        // An `XmlNode[]` of one text: the service has that type (`EchoNodes`), so the host
        // writes it with `xsi:type="ArrayOfXmlNode"`.
        24 => AnyType::Known(KnownType::ArrayOfXmlNode(vec![Some(
            rmm_objects::runtime::RawNode::Text("free text".to_owned()),
        )])),
        _ => return None,
    })
}

/// `MakeObjects(n)`: `n` objects of the kinds in turn from 0; none for a negative `n`.
pub fn make_objects(n: i32) -> Option<Vec<Option<Object>>> {
    (n >= 0).then(|| (0..n).map(|i| make_object(i % 25)).collect())
}

/// `DescribeObject(o)`: the .NET type of what the host read (`System.Int32`), and an array's
/// items' in braces.
pub fn describe_object(o: Option<&Object>) -> String {
    let Some(o) = o else {
        return "null".to_owned();
    };
    let name = match o {
        AnyType::Object => "System.Object",
        AnyType::Text(_) => "System.Xml.XmlNode[]",
        AnyType::String(_) => "System.String",
        AnyType::Boolean(_) => "System.Boolean",
        AnyType::Int(_) => "System.Int32",
        AnyType::Short(_) => "System.Int16",
        AnyType::Long(_) => "System.Int64",
        AnyType::Float(_) => "System.Single",
        AnyType::Double(_) => "System.Double",
        AnyType::Decimal(_) => "System.Decimal",
        AnyType::DateTime(_) => "System.DateTime",
        AnyType::UnsignedByte(_) => "System.Byte",
        AnyType::Byte(_) => "System.SByte",
        AnyType::UnsignedShort(_) => "System.UInt16",
        AnyType::UnsignedInt(_) => "System.UInt32",
        AnyType::UnsignedLong(_) => "System.UInt64",
        AnyType::Char(_) => "System.Char",
        AnyType::Guid(_) => "System.Guid",
        AnyType::Base64Binary(_) => "System.Byte[]",
        AnyType::Known(KnownType::ArrayOfAnyType(items)) => {
            let mut out = "System.Object[] {".to_owned();
            for item in items {
                out.push(' ');
                out.push_str(&describe_object(item.as_ref()));
            }
            out.push_str(" }");
            return out;
        }
        AnyType::Known(known) => return known_name(known),
    };
    name.to_owned()
}

/// The .NET type of a value of the service's own types: its C# class or enum (the WSDL
/// name, but for `Label`, the class `Tag` renamed by `[XmlType]`), or an array.
fn known_name(known: &KnownType) -> String {
    match known.type_name() {
        "Label" => "Rmm.Objects.Tag".to_owned(),
        "ArrayOfXmlNode" => "System.Xml.XmlNode[]".to_owned(),
        name if name.starts_with("ArrayOf") => "array".to_owned(),
        name => format!("Rmm.Objects.{name}"),
    }
}
