//! `object` values written and read as the Mono host wrote and read them (a probe service of
//! `object` parameters, results, members and array items; the expected bytes are the host's
//! answers).

use super::*;
use crate::tree::Budget;
use crate::xml::{Node as XmlNode, XmlCursor, XSI_NS};

const SERVICE: &str = "http://rmm.example/probe/";

/// The service's own types in these tests: a class `Point` of two ints, and arrays of
/// `object` (`ArrayOfAnyType`).
#[derive(Debug, Clone, PartialEq)]
enum Known {
    Point(i32, i32),
    ArrayOfAnyType(Vec<Option<AnyType<Known>>>),
}

impl KnownTypes for Known {
    fn read_known(node: &Node, name: &str) -> Option<Result<Self, MemberError>> {
        Some(match name {
            "Point" => (|| {
                let mut x = 0;
                let mut y = 0;
                for member in node.members() {
                    match member.name() {
                        "X" => x = member.scalar("X")?,
                        "Y" => y = member.scalar("Y")?,
                        _ => {}
                    }
                }
                Ok(Known::Point(x, y))
            })(),
            "ArrayOfAnyType" => <Vec<Option<AnyType<Known>>>>::read_element(node, &["anyType"])
                .map(Known::ArrayOfAnyType),
            _ => return None,
        })
    }

    fn write_known(&self, w: &mut XmlOut<'_>, name: &'static str) -> Result<(), EncodeError> {
        match self {
            Known::Point(x, y) => {
                w.next_type("Point");
                w.class(name, None, |w| {
                    w.scalar("X", x);
                    w.scalar("Y", y);
                    Ok(())
                })
            }
            Known::ArrayOfAnyType(items) => {
                w.next_type("ArrayOfAnyType");
                items.write_element(w, name, &["anyType"])
            }
        }
    }
}

type Object = AnyType<Known>;

/// Writes `value` as the element `name` of a SOAP message (where `xsi` and `xsd` are declared
/// on the envelope and the service namespace is the default one).
fn write(value: &Object) -> String {
    let mut out = String::new();
    let mut w = XmlOut::new(&mut out, "Op");
    value
        .write_element(&mut w, "R", crate::tree::tags!())
        .expect("writable");
    w.finish();
    out
}

/// Reads `element` (its attributes and content as in a message) inside an envelope that
/// declares `xsi` and `xsd` and makes the service namespace the default one.
fn read(element: &str) -> Result<Object, MemberError> {
    read_as(element, |node| <Object as XmlItem>::read_element(node, &[]))
}

/// Reads `element` as a parameter or member of type `object` (`read_optional`).
fn read_optional(element: &str) -> Result<Option<Object>, MemberError> {
    read_as(element, |node| {
        <Object as XmlItem>::read_optional(node, &[])
    })
}

fn read_as<T>(
    element: &str,
    read: impl Fn(&Node) -> Result<T, MemberError>,
) -> Result<T, MemberError> {
    let doc = format!(
        "<Op xmlns:xsi=\"{XSI_NS}\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" \
         xmlns=\"{SERVICE}\">{element}</Op>"
    );
    let mut cursor = XmlCursor::new(doc.as_bytes(), [SERVICE, XSI_NS]);
    let XmlNode::Start(op) = cursor.next().expect("xml") else {
        panic!("the operation element")
    };
    let mut budget = Budget::default();
    let op = cursor.tree(op, 0, 1, &mut budget).expect("a tree");
    let node = op.members().next().expect("one element");
    read(node)
}

#[test]
fn simple_values_are_written_with_their_xml_schema_type_as_the_host_writes_them() {
    // MakeObject's results (SOAP 1.1), kind by kind.
    let cases: Vec<(Object, &str)> = vec![
        (
            AnyType::String("text".into()),
            r#"<R xsi:type="xsd:string">text</R>"#,
        ),
        (
            AnyType::String(String::new()),
            r#"<R xsi:type="xsd:string" />"#,
        ),
        (AnyType::Int(5), r#"<R xsi:type="xsd:int">5</R>"#),
        (AnyType::Long(5), r#"<R xsi:type="xsd:long">5</R>"#),
        (AnyType::Short(5), r#"<R xsi:type="xsd:short">5</R>"#),
        (
            AnyType::UnsignedByte(5),
            r#"<R xsi:type="xsd:unsignedByte">5</R>"#,
        ),
        (AnyType::Byte(5), r#"<R xsi:type="xsd:byte">5</R>"#),
        (
            AnyType::UnsignedInt(5),
            r#"<R xsi:type="xsd:unsignedInt">5</R>"#,
        ),
        (
            AnyType::UnsignedShort(5),
            r#"<R xsi:type="xsd:unsignedShort">5</R>"#,
        ),
        (
            AnyType::UnsignedLong(5),
            r#"<R xsi:type="xsd:unsignedLong">5</R>"#,
        ),
        (AnyType::Double(5.5), r#"<R xsi:type="xsd:double">5.5</R>"#),
        (AnyType::Float(5.5), r#"<R xsi:type="xsd:float">5.5</R>"#),
        (
            AnyType::Decimal("5.5".parse().expect("decimal")),
            r#"<R xsi:type="xsd:decimal">5.5</R>"#,
        ),
        (
            AnyType::Boolean(true),
            r#"<R xsi:type="xsd:boolean">true</R>"#,
        ),
        (
            AnyType::DateTime(DateTime::read_xml("2020-01-02T03:04:05Z").expect("date")),
            r#"<R xsi:type="xsd:dateTime">2020-01-02T03:04:05Z</R>"#,
        ),
        (
            AnyType::DateTime(DateTime::read_xml("2020-01-02T03:04:05").expect("date")),
            r#"<R xsi:type="xsd:dateTime">2020-01-02T03:04:05</R>"#,
        ),
        (
            AnyType::Char('c'),
            r#"<R xmlns:q1="http://microsoft.com/wsdl/types/" xsi:type="q1:char">99</R>"#,
        ),
        (
            AnyType::Guid(
                "01234567-89ab-cdef-0123-456789abcdef"
                    .parse()
                    .expect("guid"),
            ),
            r#"<R xmlns:q1="http://microsoft.com/wsdl/types/" xsi:type="q1:guid">01234567-89ab-cdef-0123-456789abcdef</R>"#,
        ),
        (
            AnyType::Base64Binary(vec![1, 2, 3]),
            r#"<R xsi:type="xsd:base64Binary">AQID</R>"#,
        ),
        (AnyType::Object, "<R />"),
        (AnyType::Text("a < b".into()), "<R>a &lt; b</R>"),
    ];
    for (value, expected) in cases {
        assert_eq!(write(&value), expected, "{value:?}");
        // And each reads back as itself.
        assert_eq!(read(expected), Ok(value), "{expected}");
    }
}

#[test]
fn the_service_types_are_named_without_prefix_and_foreign_prefixes_counted_through_the_message() {
    // MakeObject kind 18 and 25, and MakeObjectsSafe's char and Guid items (q1, then q2).
    assert_eq!(
        write(&AnyType::Known(Known::Point(1, 2))),
        r#"<R xsi:type="Point"><X>1</X><Y>2</Y></R>"#
    );
    let array = AnyType::Known(Known::ArrayOfAnyType(vec![
        Some(AnyType::Int(1)),
        Some(AnyType::Char('z')),
        None,
        Some(AnyType::Guid(
            "01234567-89ab-cdef-0123-456789abcdef"
                .parse()
                .expect("guid"),
        )),
    ]));
    let written = write(&array);
    assert_eq!(
        written,
        "<R xsi:type=\"ArrayOfAnyType\"><anyType xsi:type=\"xsd:int\">1</anyType>\
         <anyType xmlns:q1=\"http://microsoft.com/wsdl/types/\" xsi:type=\"q1:char\">122</anyType>\
         <anyType xsi:nil=\"true\" />\
         <anyType xmlns:q2=\"http://microsoft.com/wsdl/types/\" xsi:type=\"q2:guid\">01234567-89ab-cdef-0123-456789abcdef</anyType></R>"
    );
    assert_eq!(read(&written), Ok(array));
}

#[test]
fn a_type_is_read_whatever_its_prefix_and_the_string_types_of_xml_schema_as_strings() {
    assert_eq!(
        read(r#"<R xmlns:q="http://www.w3.org/2001/XMLSchema" xsi:type="q:int">7</R>"#),
        Ok(AnyType::Int(7))
    );
    assert_eq!(
        read(r#"<R xmlns:t="http://rmm.example/probe/" xsi:type="t:Point"><Y>4</Y></R>"#),
        Ok(AnyType::Known(Known::Point(0, 4)))
    );
    // .NET reads `anyURI`, `token` and the like as strings, trimmed (its `CollapseWhitespace`
    // trims, and no more: the host echoed "  a \n  b  " as "a \n  b"), and writes them back
    // as `xsd:string`; `normalizedString` as it is.
    assert_eq!(
        read("<R xsi:type=\"xsd:token\"> a \n b </R>"),
        Ok(AnyType::String("a \n b".into()))
    );
    assert_eq!(
        read("<R xsi:type=\"xsd:normalizedString\"> a </R>"),
        Ok(AnyType::String(" a ".into()))
    );
    // The SOAP encoding's simple types are XML Schema's to XmlSerializer.
    assert_eq!(
        read(r#"<R xmlns:e="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="e:int">3</R>"#),
        Ok(AnyType::Int(3))
    );
    // A decimal keeps its scale; a Guid is read with its white space collapsed.
    assert_eq!(
        write(&read(r#"<R xsi:type="xsd:decimal">1.50</R>"#).expect("a decimal")),
        r#"<R xsi:type="xsd:decimal">1.50</R>"#
    );
    assert_eq!(
        read(concat!(
            r#"<R xmlns:u="http://microsoft.com/wsdl/types/" xsi:type="u:guid"> "#,
            r#"01234567-89ab-cdef-0123-456789abcdef </R>"#
        )),
        Ok(AnyType::Guid(
            "01234567-89ab-cdef-0123-456789abcdef"
                .parse()
                .expect("guid")
        ))
    );
}

#[test]
fn dates_times_and_hex_are_read_as_dotnet_reads_them_and_written_back_as_it_writes_them() {
    // The host's echoes (the probe of objects): xsd:date, xsd:time, xsd:hexBinary.
    for (sent, echoed) in [
        (
            r#"<R xsi:type="xsd:date">2020-01-02</R>"#,
            r#"<R xsi:type="xsd:dateTime">2020-01-02T00:00:00</R>"#,
        ),
        (
            r#"<R xsi:type="xsd:time">03:04:05</R>"#,
            r#"<R xsi:type="xsd:dateTime">0001-01-01T03:04:05</R>"#,
        ),
        (
            r#"<R xsi:type="xsd:hexBinary">0102</R>"#,
            r#"<R xsi:type="xsd:base64Binary">AQI=</R>"#,
        ),
    ] {
        assert_eq!(write(&read(sent).expect(sent)), echoed);
    }
    for bad in [
        r#"<R xsi:type="xsd:hexBinary">010</R>"#,
        r#"<R xsi:type="xsd:hexBinary">0g</R>"#,
        r#"<R xsi:type="xsd:date">2020-1-2</R>"#,
        // A year of other than four digits, or before 0001 (found by fuzzing: it was read,
        // and written back as a dateTime nobody reads).
        r#"<R xsi:type="xsd:date">-181-01-03</R>"#,
        r#"<R xsi:type="xsd:date">0000-01-03</R>"#,
        r#"<R xsi:type="xsd:time">3:04</R>"#,
    ] {
        assert!(
            matches!(read(bad), Err(MemberError::InvalidValue { .. })),
            "{bad}"
        );
    }
}

#[test]
fn an_element_without_type_is_an_object_or_its_text() {
    // .NET: `new object()` for nothing or white space, an XmlNode[] of one text otherwise.
    assert_eq!(read("<R />"), Ok(AnyType::Object));
    assert_eq!(read("<R> \n </R>"), Ok(AnyType::Object));
    assert_eq!(read(r#"<R xsi:type="xsd:anyType" />"#), Ok(AnyType::Object));
    assert_eq!(read("<R>hello</R>"), Ok(AnyType::Text("hello".into())));
    assert_eq!(read("<R> hi </R>"), Ok(AnyType::Text(" hi ".into())));
}

#[test]
fn what_dotnet_reads_as_nodes_or_rmm_does_not_model_is_refused_by_name() {
    let refused = |element: &str, found: &str| match read(element) {
        Err(MemberError::UnmodelledObject { found: f, .. }) => {
            assert!(f.contains(found), "{element}: {f}")
        }
        other => panic!("{element}: {other:?}"),
    };
    refused(r#"<R a="1">x</R>"#, "attributes");
    refused("<R>x<c>y</c></R>", "elements");
    refused(r#"<R xsi:type="xsd:anyType"><c /></R>"#, "elements");
    refused(r#"<R xsi:type="xsd:QName">xsd:int</R>"#, "'QName'");
    refused(r#"<R xsi:type="xsd:date">2020-01-02Z</R>"#, "time zone");
    refused(r#"<R xsi:type="xsd:time">03:04:05+02:00</R>"#, "time zone");
    refused(r#"<R xsi:type="Unknown">1</R>"#, "no type of the service");
    refused(
        r#"<R xmlns:w="urn:wrong" xsi:type="w:int">7</R>"#,
        "urn:wrong",
    );
    refused(
        r#"<R xmlns:u="http://microsoft.com/wsdl/types/" xsi:type="u:TimeSpan">PT1S</R>"#,
        "'TimeSpan'",
    );
}

#[test]
fn a_bad_value_or_an_unbound_prefix_is_refused_as_the_host_refuses_it() {
    assert!(matches!(
        read(r#"<R xsi:type="xsd:int">abc</R>"#),
        Err(MemberError::InvalidValue {
            ty: crate::SoapType::Int,
            ..
        })
    ));
    assert!(matches!(
        read(r#"<R xsi:type="xsd:int"><x /></R>"#),
        Err(MemberError::NotSimpleContent { .. })
    ));
    assert!(matches!(
        read(r#"<R xsi:type="zz:int">1</R>"#),
        Err(MemberError::UnboundPrefix { .. })
    ));
}

#[test]
fn a_nil_item_is_none_and_a_nil_object_is_refused() {
    // An array item is nillable: nil is null, whatever xsi:type says.
    assert_eq!(
        read(concat!(
            r#"<R xsi:type="ArrayOfAnyType"><anyType xsi:nil="true" />"#,
            r#"<anyType xsi:type="xsd:int" xsi:nil="true" /></R>"#
        )),
        Ok(AnyType::Known(Known::ArrayOfAnyType(vec![None, None])))
    );
    // Its xsi:type is resolved all the same: an unbound prefix is refused, as the host's
    // `GetXsiType` refuses it before it reads the nil.
    assert!(matches!(
        read(r#"<R xsi:type="ArrayOfAnyType"><anyType xsi:nil="true" xsi:type="q:Circle" /></R>"#),
        Err(MemberError::UnboundPrefix { .. })
    ));
    // An `object` parameter or member is not: the host reads an XmlNode[] of the attribute,
    // which is not the null the sender meant.
    assert!(matches!(
        read_optional(r#"<R xsi:nil="true" />"#),
        Err(MemberError::NilNotNillable { .. })
    ));
    assert_eq!(
        read_optional("<R>1</R>"),
        Ok(Some(AnyType::Text("1".into())))
    );
}

/// Writes `value` as an HTTP GET/POST result document's root, as `message::object_response`
/// does.
fn write_document(value: &Object) -> String {
    let mut out = String::new();
    let suffix = format!(" xmlns=\"{SERVICE}\"");
    let namespaces = " xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" \
                      xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"";
    let mut w = XmlOut::object_document(&mut out, "Op", namespaces, &suffix);
    value
        .write_element(&mut w, "anyType", crate::tree::tags!())
        .expect("writable");
    w.finish();
    out
}

#[test]
fn an_object_root_declares_xsi_after_its_type_and_a_prefix_for_each_xml_schema_type() {
    // MakeObject over HTTP GET: kinds 2, 14, 25 (the host's bytes, the prolog aside).
    assert_eq!(
        write_document(&AnyType::Int(5)),
        concat!(
            r#"<anyType xmlns:q1="http://www.w3.org/2001/XMLSchema" d1p1:type="q1:int" "#,
            r#"xmlns:d1p1="http://www.w3.org/2001/XMLSchema-instance" "#,
            r#"xmlns="http://rmm.example/probe/">5</anyType>"#
        )
    );
    assert_eq!(
        write_document(&AnyType::Char('c')),
        concat!(
            r#"<anyType xmlns:q1="http://microsoft.com/wsdl/types/" d1p1:type="q1:char" "#,
            r#"xmlns:d1p1="http://www.w3.org/2001/XMLSchema-instance" "#,
            r#"xmlns="http://rmm.example/probe/">99</anyType>"#
        )
    );
    // A class, and `new object()`, are written as in any document (MakeObject 20 and 22 of
    // the objects service).
    assert_eq!(
        write_document(&AnyType::Known(Known::Point(1, 2))),
        concat!(
            r#"<anyType xmlns:xsd="http://www.w3.org/2001/XMLSchema" "#,
            r#"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="Point" "#,
            "xmlns=\"http://rmm.example/probe/\">\n  <X>1</X>\n  <Y>2</Y>\n</anyType>"
        )
    );
    assert_eq!(
        write_document(&AnyType::Object),
        concat!(
            r#"<anyType xmlns:xsd="http://www.w3.org/2001/XMLSchema" "#,
            r#"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" "#,
            r#"xmlns="http://rmm.example/probe/" />"#
        )
    );
    let array = AnyType::Known(Known::ArrayOfAnyType(vec![
        Some(AnyType::Int(1)),
        Some(AnyType::String("a".into())),
        None,
    ]));
    assert_eq!(
        write_document(&array),
        concat!(
            r#"<anyType d1p1:type="ArrayOfAnyType" "#,
            r#"xmlns:d1p1="http://www.w3.org/2001/XMLSchema-instance" "#,
            "xmlns=\"http://rmm.example/probe/\">\n",
            r#"  <anyType xmlns:q1="http://www.w3.org/2001/XMLSchema" d1p1:type="q1:int">1</anyType>"#,
            "\n",
            r#"  <anyType xmlns:q2="http://www.w3.org/2001/XMLSchema" d1p1:type="q2:string">a</anyType>"#,
            "\n",
            r#"  <anyType xmlns:xsd="http://www.w3.org/2001/XMLSchema" d1p1:nil="true" />"#,
            "\n</anyType>"
        )
    );
}
