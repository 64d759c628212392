//! Hostile requests and responses of the object model (the third service, `rmm-objects`): a
//! class or array parameter is read as a value tree (`runtime::tree`), which the XML cursor
//! bounds in depth (128 nested elements, counted from the document's root, so the envelope,
//! its body and the operation element take three of them) and the tree in size
//! (`tree::MAX_ELEMENTS`, 250 000 elements per value). Each request here is answered sans-IO by
//! `ObjectsServiceServer::new(ObjectsEcho).handle(request)` with a fault or a 400, never a
//! panic or a stack overflow, and the same server then answers an ordinary request normally.
//! The big messages are built as bytes, by repetition; how fast anything is is never asserted.

use bytes::Bytes;
use rmm_objects::runtime::tree::MAX_ELEMENTS;
use rmm_objects::*;
use rmm_tests::objects_service::{deep_tree, full_order, ObjectsEcho};

const NS: &str = "http://rmm.example.com/objects";
const PATH: &str = "/api/rmm/ObjectsService.asmx";

/// The levels above a parameter's element in a SOAP request (`Envelope`, `Body`, the
/// operation element), or above a result's element in a SOAP response (`Envelope`, `Body`,
/// the response element).
const ENVELOPE_LEVELS: usize = 3;

/// The cursor's depth limit: an element nested deeper than this is malformed.
const MAX_DEPTH: usize = 128;

/// A SOAP 1.1 envelope around `operation`'s element holding `inner`, as bytes.
fn envelope(open: &str, inner: &[u8], close: &str) -> Vec<u8> {
    let head = format!(
        r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soap:Body>{open}"#
    );
    let tail = format!("{close}</soap:Body></soap:Envelope>");
    let mut body = Vec::with_capacity(head.len() + inner.len() + tail.len());
    body.extend_from_slice(head.as_bytes());
    body.extend_from_slice(inner);
    body.extend_from_slice(tail.as_bytes());
    body
}

/// A SOAP 1.1 request of operation `op` whose element holds `inner`.
fn request(op: &str, inner: &[u8]) -> http::Request<Bytes> {
    let body = envelope(
        &format!(r#"<{op} xmlns="{NS}">"#),
        inner,
        &format!("</{op}>"),
    );
    http::Request::post(PATH)
        .header("content-type", "text/xml; charset=utf-8")
        .header("soapaction", format!("\"{NS}/{op}\""))
        .body(Bytes::from(body))
        .unwrap()
}

/// `open`, `count` times, then `middle`, then `close`, `count` times: an element nested
/// `count` deep, as bytes.
fn nested(open: &[u8], count: usize, middle: &[u8], close: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity((open.len() + close.len()) * count + middle.len());
    for _ in 0..count {
        out.extend_from_slice(open);
    }
    out.extend_from_slice(middle);
    for _ in 0..count {
        out.extend_from_slice(close);
    }
    out
}

/// A `TreeNode` element `name` whose `Parent` chain makes it `levels` TreeNodes deep (the
/// element and `levels - 1` `Parent`s inside one another), the innermost named "leaf": the
/// deepest element is the innermost `Name`, `levels + 1` below `name`'s parent.
fn parent_chain(name: &str, levels: usize) -> Vec<u8> {
    let mut out = format!("<{name}>").into_bytes();
    out.extend(nested(
        b"<Parent>",
        levels - 1,
        b"<Name>leaf</Name>",
        b"</Parent>",
    ));
    out.extend_from_slice(format!("</{name}>").as_bytes());
    out
}

/// The value [`parent_chain`] writes.
fn parent_chain_value(levels: usize) -> TreeNode {
    let mut node = TreeNode {
        name: Some("leaf".into()),
        ..Default::default()
    };
    for _ in 1..levels {
        node = TreeNode {
            parent: Some(Box::new(node)),
            ..Default::default()
        };
    }
    node
}

/// The server's answer: status and body as text.
async fn answer(
    server: &ObjectsServiceServer<ObjectsEcho>,
    request: http::Request<Bytes>,
) -> (u16, String) {
    let response = server.handle(request).await;
    let status = response.status().as_u16();
    (
        status,
        String::from_utf8_lossy(response.body()).into_owned(),
    )
}

/// The `faultstring` of a SOAP 1.1 fault.
fn fault_string(body: &str) -> &str {
    let start = body.find("<faultstring>").expect("a SOAP 1.1 fault") + "<faultstring>".len();
    let end = body[start..]
        .find("</faultstring>")
        .expect("a closed faultstring")
        + start;
    &body[start..end]
}

/// After any hostile request the same server answers ordinary ones: an `EchoTree` and an
/// `EchoOrder`, their results what was sent.
async fn assert_still_answers(server: &ObjectsServiceServer<ObjectsEcho>) {
    let tree = EchoTree {
        node: Some(deep_tree()),
    };
    let response = server
        .handle(
            tree.encode_request(&Credentials {}, Binding::Soap11)
                .unwrap(),
        )
        .await;
    assert_eq!(response.status(), 200);
    let echoed = EchoTreeResponse::decode_response(&response, Binding::Soap11).unwrap();
    assert_eq!(echoed.result, tree.node);

    let order = EchoOrder {
        order: Some(full_order()),
    };
    let response = server
        .handle(
            order
                .encode_request(&Credentials {}, Binding::Soap12)
                .unwrap(),
        )
        .await;
    assert_eq!(response.status(), 200);
    let echoed = EchoOrderResponse::decode_response(&response, Binding::Soap12).unwrap();
    assert_eq!(echoed.result, order.order);
}

/// Asserts the answer to XML the cursor refuses (here, nested beyond its limit): 400 and an
/// empty body, as an ASMX host answers XML that is not well-formed.
async fn assert_malformed(
    server: &ObjectsServiceServer<ObjectsEcho>,
    what: &str,
    request: http::Request<Bytes>,
) {
    let (status, body) = answer(server, request).await;
    assert_eq!(status, 400, "{what}: {body}");
    assert!(body.is_empty(), "{what}: {body}");
}

/// Asserts the answer to a value of more than `MAX_ELEMENTS` elements: a SOAP 1.1
/// `soap:Client` fault (500) that names the parameter and says so.
async fn assert_too_large(
    server: &ObjectsServiceServer<ObjectsEcho>,
    op: &str,
    parameter: &str,
    request: http::Request<Bytes>,
) {
    let (status, body) = answer(server, request).await;
    assert_eq!(status, 500, "{op}: {body}");
    assert!(
        body.contains("<faultcode>soap:Client</faultcode>"),
        "{op}: {body}"
    );
    assert_eq!(
        fault_string(&body),
        format!(
            "Parameter {parameter} of {op}: the message holds more than {MAX_ELEMENTS} elements in one value."
        )
    );
}

/// An `EchoTree` request holding `node`, and its result: 200, and what was sent.
async fn assert_echoed(server: &ObjectsServiceServer<ObjectsEcho>, inner: &[u8], node: TreeNode) {
    let response = server.handle(request("EchoTree", inner)).await;
    assert_eq!(response.status(), 200, "{:?}", response.body());
    let echoed = EchoTreeResponse::decode_response(&response, Binding::Soap11).unwrap();
    assert_eq!(echoed.result, Some(node));
}

#[tokio::test]
async fn a_tree_100k_deep_is_refused() {
    let server = ObjectsServiceServer::new(ObjectsEcho);
    // Through `Parent`, a TreeNode element in a TreeNode: 100 000 TreeNodes deep.
    let levels = 100_000;
    assert_malformed(
        &server,
        "100k Parents",
        request("EchoTree", &parent_chain("node", levels)),
    )
    .await;
    assert_still_answers(&server).await;
    // Through `Children`, an array of TreeNode items: two elements a level.
    let mut inner = b"<node>".to_vec();
    inner.extend(nested(
        b"<Children><TreeNode>",
        levels,
        b"",
        b"</TreeNode></Children>",
    ));
    inner.extend_from_slice(b"</node>");
    assert_malformed(&server, "100k Children", request("EchoTree", &inner)).await;
    assert_still_answers(&server).await;
    // Never closed: refused at the 129th level, before the end of the body is seen.
    let mut inner = b"<node>".to_vec();
    inner.extend(b"<Parent>".repeat(levels));
    assert_malformed(
        &server,
        "100k unclosed Parents",
        request("EchoTree", &inner),
    )
    .await;
    assert_still_answers(&server).await;
}

/// The depth limit counts every element from the envelope down: the envelope, its body and
/// the operation element take 3 of the 128 levels, each TreeNode of a `Parent` chain one
/// more, and the innermost node's `Name` one more. So a chain of 124 TreeNodes (3 + 124 + 1 =
/// 128 levels) is the deepest read; 125 and the 130-deep tree are refused as XML, 400 with an
/// empty body; a 60-deep tree is read and echoed (and so is one 60 deep through `Children`,
/// two elements a level: 3 + 1 + 2 × 59 + 1 = 123 levels).
#[tokio::test]
async fn trees_at_the_depth_limit() {
    let server = ObjectsServiceServer::new(ObjectsEcho);
    let deepest = MAX_DEPTH - ENVELOPE_LEVELS - 1;
    assert_eq!(deepest, 124);
    for levels in [1, 60, deepest] {
        assert_echoed(
            &server,
            &parent_chain("node", levels),
            parent_chain_value(levels),
        )
        .await;
    }
    for levels in [deepest + 1, 130] {
        assert_malformed(
            &server,
            &format!("a tree {levels} deep"),
            request("EchoTree", &parent_chain("node", levels)),
        )
        .await;
        assert_still_answers(&server).await;
    }

    // 60 deep through `Children`.
    let mut inner = b"<node>".to_vec();
    inner.extend(nested(
        b"<Children><TreeNode>",
        59,
        b"<Name>leaf</Name>",
        b"</TreeNode></Children>",
    ));
    inner.extend_from_slice(b"</node>");
    let mut node = TreeNode {
        name: Some("leaf".into()),
        ..Default::default()
    };
    for _ in 0..59 {
        node = TreeNode {
            children: Some(vec![Some(node)]),
            ..Default::default()
        };
    }
    assert_echoed(&server, &inner, node).await;
}

/// `count` items `<string>x</string>` in `<values>`.
fn string_array(count: usize) -> Vec<u8> {
    let item = b"<string>x</string>";
    let mut inner = Vec::with_capacity(item.len() * count + 32);
    inner.extend_from_slice(b"<values>");
    for _ in 0..count {
        inner.extend_from_slice(item);
    }
    inner.extend_from_slice(b"</values>");
    inner
}

/// A million items are refused with a fault: the tree of the parameter holds at most
/// `MAX_ELEMENTS` elements, its own element one of them.
#[tokio::test]
async fn a_string_array_of_a_million_items_is_refused() {
    let server = ObjectsServiceServer::new(ObjectsEcho);
    let million = request("EchoStringArray", &string_array(1_000_000));
    assert_too_large(&server, "EchoStringArray", "values", million).await;
    assert_still_answers(&server).await;

    // At the bound: `MAX_ELEMENTS - 1` items and their array's element are read; one more
    // item is refused.
    let response = server
        .handle(request("EchoStringArray", &string_array(MAX_ELEMENTS - 1)))
        .await;
    assert_eq!(response.status(), 200);
    let echoed = EchoStringArrayResponse::decode_response(&response, Binding::Soap11).unwrap();
    assert_eq!(
        echoed.result.map(|items| items.len()),
        Some(MAX_ELEMENTS - 1)
    );
    let one_more = request("EchoStringArray", &string_array(MAX_ELEMENTS));
    assert_too_large(&server, "EchoStringArray", "values", one_more).await;
    assert_still_answers(&server).await;
}

/// The elements of each order [`orders`] writes: `Order`, `Id`, `Placed`, `Priority`, `Tags`,
/// its `string`, `Rating`: the members the server writes always, and one array, so that the
/// echo holds as many elements as the request.
const ORDER_ELEMENTS: usize = 7;

/// `count` orders in `<orders>`, each as the server writes it back.
fn orders(count: usize) -> Vec<u8> {
    let mut inner = Vec::with_capacity(140 * count + 32);
    inner.extend_from_slice(b"<orders>");
    for i in 0..count {
        inner.extend_from_slice(b"<Order><Id>");
        inner.extend_from_slice(i.to_string().as_bytes());
        inner.extend_from_slice(
            b"</Id><Placed>0001-01-01T00:00:00</Placed><Priority>Low</Priority>\
              <Tags><string>t</string></Tags><Rating xsi:nil=\"true\" /></Order>",
        );
    }
    inner.extend_from_slice(b"</orders>");
    inner
}

/// The value of order `i` of [`orders`].
fn order(i: usize) -> Option<Order> {
    Some(Order {
        id: i32::try_from(i).unwrap(),
        tags: Some(vec![Some("t".into())]),
        ..Default::default()
    })
}

/// 42 857 orders of 7 elements and their array's element: 300 000 elements in the `orders`
/// parameter, refused with a fault. 35 714 of them (249 999 elements) are read and echoed.
#[tokio::test]
async fn orders_of_300k_elements_are_refused() {
    let server = ObjectsServiceServer::new(ObjectsEcho);
    let count = (300_000 - 1) / ORDER_ELEMENTS;
    assert_eq!(count * ORDER_ELEMENTS + 1, 300_000);
    let big = request("EchoOrders", &orders(count));
    assert_too_large(&server, "EchoOrders", "orders", big).await;
    assert_still_answers(&server).await;

    let count = (MAX_ELEMENTS - 1) / ORDER_ELEMENTS;
    let response = server.handle(request("EchoOrders", &orders(count))).await;
    assert_eq!(response.status(), 200);
    let echoed = EchoOrdersResponse::decode_response(&response, Binding::Soap11).unwrap();
    let echoed = echoed.result.expect("the orders");
    assert_eq!(echoed.len(), count);
    assert_eq!(echoed[count - 1], order(count - 1));
    assert_still_answers(&server).await;
}

/// The bound is on what is read, not on what is written: orders of four elements (`Order`,
/// `Id`, `Tags`, its `string`) under the bound are read, and the server echoes them with the
/// members it always writes (`Placed`, `Priority`, `Rating`), 7 elements an order, which its
/// own client then refuses as too large.
#[tokio::test]
async fn an_echo_may_outgrow_the_bound_its_request_kept() {
    let server = ObjectsServiceServer::new(ObjectsEcho);
    let count = (MAX_ELEMENTS - 1) / 4;
    let mut inner = b"<orders>".to_vec();
    for i in 0..count {
        inner.extend_from_slice(
            format!("<Order><Id>{i}</Id><Tags><string>t</string></Tags></Order>").as_bytes(),
        );
    }
    inner.extend_from_slice(b"</orders>");
    let response = server.handle(request("EchoOrders", &inner)).await;
    assert_eq!(response.status(), 200);
    match EchoOrdersResponse::decode_response(&response, Binding::Soap11) {
        Err(ResponseError::Undecodable { reason, .. }) => assert_eq!(
            reason,
            format!("the message holds more than {MAX_ELEMENTS} elements in one value")
        ),
        other => panic!("{:?}", other.map(|r| r.result.map(|o| o.len()))),
    }
    assert_still_answers(&server).await;
}

/// A SOAP 1.1 `EchoTreeResponse` whose result holds `inner`.
fn tree_response(inner: &[u8]) -> http::Response<Bytes> {
    let body = envelope(
        &format!(r#"<EchoTreeResponse xmlns="{NS}">"#),
        inner,
        "</EchoTreeResponse>",
    );
    http::Response::builder()
        .status(200)
        .header("content-type", "text/xml; charset=utf-8")
        .body(Bytes::from(body))
        .unwrap()
}

/// The client reads a result 100 000 TreeNodes deep as an undecodable response, not a crash;
/// the limits are the server's: 124 deep is read, 125 and 130 are not.
#[test]
fn the_client_refuses_a_result_100k_deep() {
    for levels in [125, 130, 100_000] {
        let response = tree_response(&parent_chain("EchoTreeResult", levels));
        match EchoTreeResponse::decode_response(&response, Binding::Soap11) {
            Err(ResponseError::Undecodable { reason, .. }) => assert!(
                reason.contains("nested deeper than 128 levels"),
                "{levels}: {reason}"
            ),
            other => panic!("{levels} deep: {other:?}"),
        }
    }
    for levels in [60, 124] {
        let response = tree_response(&parent_chain("EchoTreeResult", levels));
        let read = EchoTreeResponse::decode_response(&response, Binding::Soap11).unwrap();
        assert_eq!(read.result, Some(parent_chain_value(levels)));
    }
}

/// An object holding arrays of objects inside one another (`xsi:type="ArrayOfAnyType"`, the
/// known type read by recursion): echoed to the depth limit, and beyond it malformed, as any
/// other tree, with no stack overflow.
#[tokio::test]
async fn objects_nested_to_the_depth_limit() {
    let server = ObjectsServiceServer::new(ObjectsEcho);
    let array = |levels: usize| {
        let mut inner = br#"<o xsi:type="ArrayOfAnyType">"#.to_vec();
        inner.extend(nested(
            br#"<anyType xsi:type="ArrayOfAnyType">"#,
            levels - 1,
            br#"<anyType xsi:type="xsd:int" xmlns:xsd="http://www.w3.org/2001/XMLSchema">7</anyType>"#,
            b"</anyType>",
        ));
        inner.extend_from_slice(b"</o>");
        inner
    };
    // `o` and `levels - 1` arrays below it, then the int: `levels + 1` elements deep.
    let deepest = MAX_DEPTH - ENVELOPE_LEVELS - 1;
    let response = server.handle(request("EchoObject", &array(deepest))).await;
    assert_eq!(response.status(), 200);
    let echoed = EchoObjectResponse::decode_response(&response, Binding::Soap11).unwrap();
    let mut value = echoed.result.expect("an object");
    let mut arrays = 0;
    while let rmm_objects::runtime::AnyType::Known(KnownType::ArrayOfAnyType(items)) = value {
        assert_eq!(items.len(), 1);
        value = items.into_iter().next().flatten().expect("an item");
        arrays += 1;
    }
    assert_eq!(
        (arrays, value),
        (deepest, rmm_objects::runtime::AnyType::Int(7))
    );
    for levels in [deepest + 1, 2_000] {
        assert_malformed(
            &server,
            &format!("objects {levels} deep"),
            request("EchoObject", &array(levels)),
        )
        .await;
        assert_still_answers(&server).await;
    }
}

/// Raw XML kept in a value tree (`EchoParcel`'s `[XmlAnyElement]` member) is bounded as any
/// tree: kept whole to the depth limit, refused beyond it, and counted in elements.
#[tokio::test]
async fn raw_xml_in_a_class_is_kept_to_the_depth_limit_and_bounded_in_size() {
    let server = ObjectsServiceServer::new(ObjectsEcho);
    // `p`, then the extra element and `levels - 1` inside it: `levels + 1` deep below the
    // operation element.
    let parcel = |levels: usize| {
        let mut inner = b"<p>".to_vec();
        inner.extend(nested(
            b"<x:e xmlns:x=\"urn:x\" a=\"1\">",
            levels,
            b"t",
            b"</x:e>",
        ));
        inner.extend_from_slice(b"</p>");
        inner
    };
    let deepest = MAX_DEPTH - ENVELOPE_LEVELS - 1;
    let response = server.handle(request("EchoParcel", &parcel(deepest))).await;
    assert_eq!(response.status(), 200);
    let echoed = EchoParcelResponse::decode_response(&response, Binding::Soap11).unwrap();
    let extra = echoed.result.expect("a parcel").extra;
    assert_eq!(extra.len(), 1);
    // Walk down the echoed element: `deepest` elements, the text at the bottom.
    let mut element = extra[0].root().clone();
    let mut depth = 1;
    while let Some(rmm_objects::runtime::raw_xml::XmlContent::Element(inner)) =
        element.children.first().cloned()
    {
        element = inner;
        depth += 1;
    }
    assert_eq!(depth, deepest);
    assert_eq!(
        element.children,
        [rmm_objects::runtime::raw_xml::XmlContent::Text("t".into())]
    );
    for levels in [deepest + 1, 2_000] {
        assert_malformed(
            &server,
            &format!("raw XML {levels} deep"),
            request("EchoParcel", &parcel(levels)),
        )
        .await;
        assert_still_answers(&server).await;
    }
    // 300,000 extra elements: more than a value may hold.
    let mut wide = b"<p>".to_vec();
    for _ in 0..300_000 {
        wide.extend_from_slice(b"<e/>");
    }
    wide.extend_from_slice(b"</p>");
    assert_too_large(&server, "EchoParcel", "p", request("EchoParcel", &wide)).await;
    assert_still_answers(&server).await;
}
