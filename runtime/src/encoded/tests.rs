//! The encoded codec on its own: layouts the host's probes show
//! (`tests/fixtures/encoded/NOTES.md`), and the bounds a hostile message meets. The generated
//! reference service replays every probe (`tests/tests/encoded_fidelity.rs`).

use super::*;
use crate::{Binding, OperationInfo, RequestError, ServiceInfo};

static SERVICE: ServiceInfo = ServiceInfo {
    name: "S",
    namespace: "urn:s",
    path: "/s.asmx",
    string_open: "",
};

static OP: OperationInfo = OperationInfo {
    service: &SERVICE,
    name: "Op",
    soap_action: "\"urn:s/Op\"",
    soap12_content_type: "application/soap+xml; charset=utf-8; action=\"urn:s/Op\"",
    http_path: "/s.asmx/Op",
    request_open: "",
    request_close: "",
    response_open: "",
    response_close: "",
    response_name: "OpResponse",
    result_name: "OpResult",
    bindings: &[Binding::Soap11, Binding::Soap12],
    bare: false,
    request_element: "Op",
    raw_trees: false,
    takes_parameters: true,
    written: crate::SizeHint::new(),
};

static RPC: RpcInfo = RpcInfo {
    request_namespace: "urn:s",
    response_namespace: "urn:s",
    types_namespace: "urn:s",
    result: Some("OpResult"),
};

fn point(x: i32) -> Value {
    Value::Object {
        ty: "P",
        members: vec![("X", x.encode()), ("N", Value::Null)],
    }
}

fn body(binding: Binding, members: &[(&'static str, Value)]) -> String {
    let text = write_envelope(
        binding,
        &OP,
        &RPC,
        ("OpResponse", "urn:s"),
        RPC.result,
        members,
    )
    .unwrap();
    let start = text.find("<types:OpResponse").unwrap();
    text[start..text.find("</soap:Body>").unwrap()].to_owned()
}

#[test]
fn soap11_writes_every_object_as_a_multi_ref_breadth_first() {
    let line = |a, b| Value::Object {
        ty: "L",
        members: vec![("From", point(a)), ("To", point(b))],
    };
    let array = Value::Array {
        item: TypeName::Service("L"),
        items: vec![line(1, 2), Value::Null, line(3, 4)],
    };
    assert_eq!(
        body(Binding::Soap11, &[("OpResult", array)]),
        "<types:OpResponse><OpResult href=\"#id1\" /></types:OpResponse>\
         <soapenc:Array id=\"id1\" soapenc:arrayType=\"types:L[3]\"><Item href=\"#id2\" /><Item xsi:nil=\"true\" /><Item href=\"#id3\" /></soapenc:Array>\
         <types:L id=\"id2\" xsi:type=\"types:L\"><From href=\"#id4\" /><To href=\"#id5\" /></types:L>\
         <types:L id=\"id3\" xsi:type=\"types:L\"><From href=\"#id6\" /><To href=\"#id7\" /></types:L>\
         <types:P id=\"id4\" xsi:type=\"types:P\"><X xsi:type=\"xsd:int\">1</X></types:P>\
         <types:P id=\"id5\" xsi:type=\"types:P\"><X xsi:type=\"xsd:int\">2</X></types:P>\
         <types:P id=\"id6\" xsi:type=\"types:P\"><X xsi:type=\"xsd:int\">3</X></types:P>\
         <types:P id=\"id7\" xsi:type=\"types:P\"><X xsi:type=\"xsd:int\">4</X></types:P>"
    );
}

#[test]
fn soap12_writes_inline_depth_first_with_the_result_named() {
    let array = Value::Array {
        item: TypeName::Xsd("int"),
        items: vec![1.encode(), 2.encode()],
    };
    let object = Value::Object {
        ty: "Q",
        members: vec![("Xs", array), ("P", point(5))],
    };
    assert_eq!(
        body(Binding::Soap12, &[("OpResult", object)]),
        "<types:OpResponse><rpc:result xmlns=\"\">OpResult</rpc:result>\
         <OpResult soapenc:id=\"id1\" xsi:type=\"types:Q\">\
         <Xs soapenc:id=\"id2\" soapenc:itemType=\"xsd:int\" soapenc:arraySize=\"2\"><Item>1</Item><Item>2</Item></Xs>\
         <P soapenc:id=\"id3\" xsi:type=\"types:P\"><X xsi:type=\"xsd:int\">5</X></P></OpResult></types:OpResponse>"
    );
}

#[test]
fn asmx_types_get_a_prefix_numbered_through_the_document_and_nulls_are_left_out() {
    assert_eq!(
        body(
            Binding::Soap11,
            &[
                ("OpResult", Value::Null),
                ("c", 'A'.encode()),
                ("g", uuid::Uuid::nil().encode()),
                ("s", String::new().encode()),
            ]
        ),
        "<types:OpResponse>\
         <c xmlns:q1=\"http://microsoft.com/wsdl/types/\" xsi:type=\"q1:char\">65</c>\
         <g xmlns:q2=\"http://microsoft.com/wsdl/types/\" xsi:type=\"q2:guid\">00000000-0000-0000-0000-000000000000</g>\
         <s xsi:type=\"xsd:string\" /></types:OpResponse>"
    );
    // Nothing but nulls: an empty element.
    assert_eq!(
        body(Binding::Soap11, &[("OpResult", Value::Null)]),
        "<types:OpResponse />"
    );
}

#[test]
fn text_is_escaped_and_a_character_xml_cannot_carry_is_refused() {
    assert_eq!(
        body(Binding::Soap11, &[("OpResult", "a<&>\r".to_owned().encode())]),
        "<types:OpResponse><OpResult xsi:type=\"xsd:string\">a&lt;&amp;&gt;&#xD;</OpResult></types:OpResponse>"
    );
    let bad = write_envelope(
        Binding::Soap11,
        &OP,
        &RPC,
        ("OpResponse", "urn:s"),
        None,
        &[("OpResult", "\u{1}".to_owned().encode())],
    );
    assert!(matches!(
        bad,
        Err(crate::EncodeError::InvalidXmlChar { code: 1, .. })
    ));
}

/// A point of the tests' reader: `X` and a nested point `Next`.
#[derive(Debug, Default, PartialEq)]
struct Node {
    x: i32,
    next: Option<Box<Node>>,
}

impl Decode for Node {
    const TYPE: TypeName = TypeName::Service("N");
    fn absent() -> Self {
        Node::default()
    }
    fn decode(element: &Element<'_, '_>) -> Result<Self, EncodedError> {
        element.check_class("N")?;
        Ok(Node {
            x: element.member("X")?,
            next: element.member("Next")?,
        })
    }
}

const ENVELOPE: &str = "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" \
    xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" \
    xmlns:soapenc=\"http://schemas.xmlsoap.org/soap/encoding/\" xmlns:t=\"urn:s\"><soap:Body>";

fn read<T: Decode>(content: &str) -> Result<T, RequestError> {
    let text = format!("{ENVELOPE}{content}</soap:Body></soap:Envelope>");
    read_request(Binding::Soap11, &OP, &RPC, text.as_bytes(), |e| {
        e.member("v")
    })
}

fn encoded_error<T: Decode + std::fmt::Debug>(content: &str) -> EncodedError {
    match read::<T>(content) {
        Err(RequestError::Encoded { error, .. }) => error,
        other => panic!("not an encoded error: {other:?}"),
    }
}

#[test]
fn references_are_followed_the_first_of_two_ids_kept() {
    let node: Option<Node> = read(
        "<t:Op><v href=\"#a\"/></t:Op>\
         <t:N id=\"a\"><X xsi:type=\"xsd:int\">1</X><Next href=\"#b\"/></t:N>\
         <t:N id=\"b\"><X>2</X></t:N><t:N id=\"b\"><X>3</X></t:N>",
    )
    .unwrap();
    assert_eq!(
        node,
        Some(Node {
            x: 1,
            next: Some(Box::new(Node { x: 2, next: None }))
        })
    );
}

#[test]
fn a_reference_must_name_an_id_of_the_document() {
    assert!(matches!(
        encoded_error::<Option<Node>>("<t:Op><v href=\"#nope\"/></t:Op>"),
        EncodedError::NotFound { id, .. } if id == "nope"
    ));
    assert!(matches!(
        encoded_error::<Option<Node>>("<t:Op><v href=\"a\"/></t:Op><t:N id=\"a\"/>"),
        EncodedError::OutsideDocument { href, .. } if href == "a"
    ));
}

#[test]
fn a_cycle_of_references_ends_at_the_depth_bound() {
    let error = encoded_error::<Option<Node>>(
        "<t:Op><v href=\"#a\"/></t:Op><t:N id=\"a\"><Next href=\"#a\"/></t:N>",
    );
    assert!(matches!(error, EncodedError::TooDeep { .. }), "{error:?}");
}

/// An array of arrays of itself: `soapenc:Array` items.
#[derive(Debug)]
struct Nest(#[allow(dead_code)] Vec<Nest>);

impl Decode for Nest {
    const TYPE: TypeName = TypeName::Array;
    fn absent() -> Self {
        Nest(Vec::new())
    }
    fn decode(element: &Element<'_, '_>) -> Result<Self, EncodedError> {
        element.array().map(Nest)
    }
}

#[test]
fn references_cannot_multiply_a_message_past_the_value_bound() {
    // Ten levels of arrays of ten references to the level below: 10^10 values if followed.
    let mut content = String::from("<t:Op><v href=\"#l0\"/></t:Op>");
    for level in 0..10 {
        content.push_str(&format!(
            "<soapenc:Array id=\"l{level}\" soapenc:arrayType=\"soapenc:Array[10]\">"
        ));
        if level < 9 {
            for _ in 0..10 {
                content.push_str(&format!("<i href=\"#l{}\"/>", level + 1));
            }
        }
        content.push_str("</soapenc:Array>");
    }
    let error = encoded_error::<Option<Nest>>(&content);
    assert!(matches!(error, EncodedError::TooLarge { .. }), "{error:?}");
}

#[test]
fn typed_values_must_be_of_their_accessors_type() {
    assert!(matches!(
        encoded_error::<i32>("<t:Op><v xsi:type=\"xsd:string\">1</v></t:Op>"),
        EncodedError::TypeMismatch { found, expected, .. }
            if found == "System.String" && expected == "System.Int32"
    ));
    assert_eq!(
        read::<i32>("<t:Op><v xsi:type=\"soapenc:int\">4</v></t:Op>").unwrap(),
        4
    );
    assert_eq!(read::<i32>("<t:Op><v>5</v></t:Op>").unwrap(), 5);
    assert!(matches!(
        encoded_error::<i32>("<t:Op><v xsi:nil=\"true\"/></t:Op>"),
        EncodedError::Nil { .. }
    ));
    assert_eq!(
        read::<Option<i32>>("<t:Op><v xsi:nil=\"1\"/></t:Op>").unwrap(),
        None
    );
}

#[test]
fn arrays_need_their_type_in_soap_11_and_ignore_size_and_names() {
    let ints = "<t:Op><v soapenc:arrayType=\"xsd:int[1]\"><a>1</a><b>2</b></v></t:Op>";
    assert_eq!(read::<Vec<i32>>(ints).unwrap(), [1, 2]);
    assert!(matches!(
        encoded_error::<Vec<i32>>("<t:Op><v><a>1</a></v></t:Op>"),
        EncodedError::NoArrayType { .. }
    ));
    assert!(matches!(
        encoded_error::<Vec<i32>>("<t:Op><v soapenc:arrayType=\"xsd:int[2,2]\"/></t:Op>"),
        EncodedError::BadArrayType { .. }
    ));
    assert!(matches!(
        encoded_error::<Vec<i32>>(
            "<t:Op><v soapenc:arrayType=\"xsd:string[1]\"><a>1</a></v></t:Op>"
        ),
        EncodedError::TypeMismatch { .. }
    ));
}

#[test]
fn a_value_dotnet_cannot_hold_is_refused_where_it_stands() {
    let refused = |members: &[(&'static str, Value)]| {
        write_envelope(
            Binding::Soap11,
            &OP,
            &RPC,
            ("OpResponse", "urn:s"),
            None,
            members,
        )
        .unwrap_err()
    };
    assert!(matches!(
        refused(&[("c", '😀'.encode())]),
        crate::EncodeError::NotOneUnit {
            field: "c",
            value: '😀',
            ..
        }
    ));
    let items = vec![Some('a'), Some('😀')].encode();
    assert!(matches!(
        refused(&[("cs", items)]),
        crate::EncodeError::NotOneUnit { field: "Item", .. }
    ));
}
