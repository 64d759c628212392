//! The object model on the wire (issue 18): classes and arrays of `rmm-objects` written as
//! XmlSerializer writes them and read as its generated readers read them, through the
//! generated request and response codecs. The expected texts are XmlSerializer's rules
//! written out by hand: members in declaration order, a null reference left out, a null
//! `Nullable<T>` as `xsi:nil`, an element without content as `<x />`, array items named after
//! their type (`ArrayOfInt1` for the `int[]` met after `int?[]` took `ArrayOfInt`). The host
//! answered each of these requests so (`tests/fixtures/objects/NOTES.md`).

use rmm_objects::runtime::deps::bytes::Bytes;
use rmm_objects::runtime::deps::http::{Request, Response, StatusCode};
use rmm_objects::runtime::Scalar;
use rmm_objects::{
    Address, Binding, CountLines, Customer, DateTime, EchoIntArray, EchoLevels, EchoOrder,
    EchoOrderResponse, EchoStringArray, EchoStringArrayResponse, EchoTree, EchoTreeResponse, Level,
    MakeOrderResponse, MakeTagsResponse, Order, OrderLine, RequestError, ResponseError, TreeNode,
};

const OPEN: &str = r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>"#;
const CLOSE: &str = "</soap:Body></soap:Envelope>";
const NS: &str = "http://rmm.example.com/objects";

fn body_text<B: AsRef<[u8]>>(body: &B) -> String {
    String::from_utf8(body.as_ref().to_vec()).expect("UTF-8")
}

fn order() -> Order {
    Order {
        id: 7,
        placed: DateTime::read_xml("2026-11-24T10:00:00").unwrap(),
        priority: Level::High,
        customer: Some(Customer {
            name: Some("Ann & Bo".into()),
            address: Some(Address {
                street: None,
                city: Some(String::new()),
                zip: 1000,
            }),
            phones: Some(vec![Some("1".into()), None]),
        }),
        lines: Some(vec![
            Some(OrderLine {
                sku: Some("A".into()),
                quantity: 2,
                price: "1.50".parse().unwrap(),
                discount: None,
            }),
            None,
        ]),
        tags: Some(vec![]),
        scores: Some(vec![Some(1), None]),
        levels: Some(vec![Level::Low, Level::High]),
        rating: None,
        matrix: Some(vec![Some(vec![1, 2]), None, Some(vec![])]),
        blob: None,
    }
}

/// The order above as XmlSerializer writes it, inside an element named `name`.
fn order_xml(name: &str) -> String {
    format!(
        "<{name}><Id>7</Id><Placed>2026-11-24T10:00:00</Placed><Priority>High</Priority>\
         <Customer><Name>Ann &amp; Bo</Name><Address><City /><Zip>1000</Zip></Address>\
         <Phones><string>1</string><string xsi:nil=\"true\" /></Phones></Customer>\
         <Lines><OrderLine><Sku>A</Sku><Quantity>2</Quantity><Price>1.50</Price>\
         <Discount xsi:nil=\"true\" /></OrderLine><OrderLine xsi:nil=\"true\" /></Lines>\
         <Tags /><Scores><int>1</int><int xsi:nil=\"true\" /></Scores>\
         <Levels><Level>Low</Level><Level>High</Level></Levels>\
         <Rating xsi:nil=\"true\" />\
         <Matrix><ArrayOfInt1><int>1</int><int>2</int></ArrayOfInt1>\
         <ArrayOfInt1 xsi:nil=\"true\" /><ArrayOfInt1 /></Matrix></{name}>"
    )
}

fn soap_request(inner: &str, action: &str) -> Request<Bytes> {
    Request::post("/api/rmm/ObjectsService.asmx")
        .header("content-type", "text/xml; charset=utf-8")
        .header("soapaction", format!("\"{NS}/{action}\""))
        .body(Bytes::from(format!("{OPEN}{inner}{CLOSE}")))
        .unwrap()
}

#[test]
fn a_class_parameter_is_written_as_xml_serializer_writes_it() {
    let request = EchoOrder {
        order: Some(order()),
    };
    let http = request
        .encode_request(&Default::default(), Binding::Soap11)
        .unwrap();
    let want = format!(
        "{OPEN}<EchoOrder xmlns=\"{NS}\">{}</EchoOrder>{CLOSE}",
        order_xml("order")
    );
    assert_eq!(body_text(http.body()), want);
    // And the server reads it back to the same value.
    let (_, decoded) = EchoOrder::decode_request(&http, Binding::Soap11).unwrap();
    assert_eq!(decoded, request);
}

#[test]
fn a_null_class_parameter_is_left_out_and_reads_back_as_none() {
    let request = EchoOrder { order: None };
    let http = request
        .encode_request(&Default::default(), Binding::Soap12)
        .unwrap();
    assert!(body_text(http.body()).contains(&format!("<EchoOrder xmlns=\"{NS}\"></EchoOrder>")));
    let (_, decoded) = EchoOrder::decode_request(&http, Binding::Soap12).unwrap();
    assert_eq!(decoded.order, None);
}

#[test]
fn a_class_result_is_written_and_read_as_xml_serializer_does() {
    let response = EchoOrderResponse {
        result: Some(order()),
    };
    let http = response.encode_response(Binding::Soap11).unwrap();
    assert_eq!(http.status(), StatusCode::OK);
    let want = format!(
        "{OPEN}<EchoOrderResponse xmlns=\"{NS}\">{}</EchoOrderResponse>{CLOSE}",
        order_xml("EchoOrderResult")
    );
    assert_eq!(body_text(http.body()), want);
    let read = EchoOrderResponse::decode_response(&http, Binding::Soap11).unwrap();
    assert_eq!(read, response);
    // A null result: no result element, the response element self-closed.
    let null = EchoOrderResponse { result: None }
        .encode_response(Binding::Soap11)
        .unwrap();
    assert_eq!(
        body_text(null.body()),
        format!("{OPEN}<EchoOrderResponse xmlns=\"{NS}\" />{CLOSE}")
    );
    assert_eq!(
        EchoOrderResponse::decode_response(&null, Binding::Soap11)
            .unwrap()
            .result,
        None
    );
}

#[test]
fn an_array_result_and_parameter_keep_null_and_empty_apart() {
    for (value, inner) in [
        (None, format!("<EchoStringArrayResponse xmlns=\"{NS}\" />")),
        (
            Some(vec![]),
            format!(
                "<EchoStringArrayResponse xmlns=\"{NS}\"><EchoStringArrayResult /></EchoStringArrayResponse>"
            ),
        ),
        (
            Some(vec![Some("a".to_owned()), None, Some(String::new())]),
            format!(
                "<EchoStringArrayResponse xmlns=\"{NS}\"><EchoStringArrayResult><string>a</string>\
                 <string xsi:nil=\"true\" /><string /></EchoStringArrayResult></EchoStringArrayResponse>"
            ),
        ),
    ] {
        let response = EchoStringArrayResponse {
            result: value.clone(),
        };
        let http = response.encode_response(Binding::Soap11).unwrap();
        assert_eq!(body_text(http.body()), format!("{OPEN}{inner}{CLOSE}"));
        assert_eq!(
            EchoStringArrayResponse::decode_response(&http, Binding::Soap11)
                .unwrap()
                .result,
            value
        );
        let request = EchoStringArray { values: value };
        let http = request
            .encode_request(&Default::default(), Binding::Soap11)
            .unwrap();
        let (_, decoded) = EchoStringArray::decode_request(&http, Binding::Soap11).unwrap();
        assert_eq!(decoded, request);
    }
}

#[test]
fn members_are_read_in_any_order_the_first_of_a_repeated_one_kept_unknown_ones_skipped() {
    let inner = format!(
        "<EchoOrder xmlns=\"{NS}\"><order><Unknown><Id>99</Id></Unknown><Priority>Low</Priority>\
         <Id>5</Id><Id>6</Id><other:Id xmlns:other=\"urn:other\">8</other:Id>\
         <Lines><Item>x</Item><OrderLine><Quantity>3</Quantity></OrderLine></Lines>\
         <Rating>2.5</Rating></order></EchoOrder>"
    );
    let (_, decoded) =
        EchoOrder::decode_request(&soap_request(&inner, "EchoOrder"), Binding::Soap11).unwrap();
    let order = decoded.order.expect("an order");
    assert_eq!(order.id, 5);
    assert_eq!(order.priority, Level::Low);
    assert_eq!(order.customer, None);
    assert_eq!(order.rating, Some(2.5));
    assert_eq!(
        order.lines,
        Some(vec![Some(OrderLine {
            quantity: 3,
            ..Default::default()
        })])
    );
    // Absent members keep their defaults; absent arrays are null, not empty.
    assert_eq!(order.tags, None);
    assert_eq!(order.placed, DateTime::default());
}

#[test]
fn an_empty_class_element_is_an_object_with_defaults_and_a_nil_one_is_refused() {
    let empty = format!("<EchoOrder xmlns=\"{NS}\"><order /></EchoOrder>");
    let (_, decoded) =
        EchoOrder::decode_request(&soap_request(&empty, "EchoOrder"), Binding::Soap11).unwrap();
    assert_eq!(decoded.order, Some(Order::default()));
    // The parameter's element is not nillable: the host reads an order with defaults there,
    // not the null the sender meant; refused (a deliberate difference, as for a nil string
    // parameter).
    let nil = format!("<EchoOrder xmlns=\"{NS}\"><order xsi:nil=\"true\" /></EchoOrder>");
    let error =
        EchoOrder::decode_request(&soap_request(&nil, "EchoOrder"), Binding::Soap11).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Parameter order of EchoOrder: it is xsi:nil, but its element is not nillable: an ASMX \
         host reads it as an empty value, not a null; leave the element out to send a null."
    );
    // Absent, it is null.
    let absent = format!("<EchoOrder xmlns=\"{NS}\"></EchoOrder>");
    let (_, decoded) =
        EchoOrder::decode_request(&soap_request(&absent, "EchoOrder"), Binding::Soap11).unwrap();
    assert_eq!(decoded.order, None);
}

#[test]
fn nil_is_read_where_xml_serializer_reads_it_and_refused_where_the_host_would_misread_it() {
    let inner = format!(
        "<EchoOrder xmlns=\"{NS}\"><order><Customer>\
         <Phones xsi:nil=\" 1 \" /></Customer>\
         <Rating xsi:nil=\"true\">5</Rating><Tags><string xsi:nil=\"true\">x</string></Tags>\
         <Lines xsi:nil=\"true\"><OrderLine /></Lines></order></EchoOrder>"
    );
    let (_, decoded) =
        EchoOrder::decode_request(&soap_request(&inner, "EchoOrder"), Binding::Soap11).unwrap();
    let order = decoded.order.unwrap();
    // An array's element is read for nil: null.
    assert_eq!(order.customer.unwrap().phones, None);
    assert_eq!(order.lines, None);
    // Nillable elements: a nullable value, an item.
    assert_eq!(order.rating, None);
    assert_eq!(order.tags, Some(vec![None]));
    // A string's, byte array's or class's element is not nillable: the host reads `""`, an
    // empty array, an object; refused, naming where.
    for (member, path) in [
        (
            "<Customer><Name xsi:nil=\"true\" /></Customer>",
            "Customer/Name",
        ),
        ("<Blob xsi:nil=\"true\" />", "Blob"),
        ("<Customer xsi:nil=\"true\" />", "Customer"),
        (
            "<Lines><OrderLine /><OrderLine><Sku xsi:nil=\"1\" /></OrderLine></Lines>",
            "Lines/OrderLine[2]/Sku",
        ),
    ] {
        let inner = format!("<EchoOrder xmlns=\"{NS}\"><order>{member}</order></EchoOrder>");
        let error = EchoOrder::decode_request(&soap_request(&inner, "EchoOrder"), Binding::Soap11)
            .unwrap_err();
        assert!(
            error.to_string().contains(&format!("{path} is xsi:nil")),
            "{member}: {error}"
        );
        assert!(!error.is_malformed());
    }
    // Where nil is read, a value that is no boolean is refused; where it is not, ignored, as
    // the host ignores it.
    for (inner, refused) in [
        ("<values><string xsi:nil=\"True\">x</string></values>", true),
        ("<values xsi:nil=\"yes\" />", true),
    ] {
        let inner = format!("<EchoStringArray xmlns=\"{NS}\">{inner}</EchoStringArray>");
        let result = EchoStringArray::decode_request(
            &soap_request(&inner, "EchoStringArray"),
            Binding::Soap11,
        );
        assert_eq!(result.is_err(), refused, "{inner}: {result:?}");
    }
    let ignored = format!(
        "<EchoOrder xmlns=\"{NS}\"><order xsi:nil=\"True\"><Customer><Name xsi:nil=\"True\">x</Name>\
         </Customer></order></EchoOrder>"
    );
    let (_, decoded) =
        EchoOrder::decode_request(&soap_request(&ignored, "EchoOrder"), Binding::Soap11).unwrap();
    assert_eq!(
        decoded.order.unwrap().customer.unwrap().name.as_deref(),
        Some("x")
    );
}

#[test]
fn a_repeated_array_member_replaces_the_first_a_repeated_parameter_does_not() {
    let inner = format!(
        "<EchoOrder xmlns=\"{NS}\"><order><Tags><string>a</string></Tags><Tags><string>b</string>\
         </Tags><Customer><Name>a</Name></Customer><Customer><Name>b</Name></Customer></order>\
         </EchoOrder>"
    );
    let (_, decoded) =
        EchoOrder::decode_request(&soap_request(&inner, "EchoOrder"), Binding::Soap11).unwrap();
    let order = decoded.order.unwrap();
    assert_eq!(order.tags, Some(vec![Some("b".to_owned())]));
    assert_eq!(order.customer.unwrap().name.as_deref(), Some("a"));
    let inner = format!(
        "<EchoStringArray xmlns=\"{NS}\"><values><string>a</string></values>\
         <values><string>b</string></values></EchoStringArray>"
    );
    let (_, decoded) =
        EchoStringArray::decode_request(&soap_request(&inner, "EchoStringArray"), Binding::Soap11)
            .unwrap();
    assert_eq!(decoded.values, Some(vec![Some("a".to_owned())]));
}

#[test]
fn a_bad_member_value_names_its_path() {
    let inner = format!(
        "<EchoOrder xmlns=\"{NS}\"><order><Lines><OrderLine /><OrderLine><Quantity>x</Quantity>\
         </OrderLine></Lines></order></EchoOrder>"
    );
    let error =
        EchoOrder::decode_request(&soap_request(&inner, "EchoOrder"), Binding::Soap11).unwrap_err();
    assert!(
        matches!(error, RequestError::InvalidMember { .. }),
        "{error:?}"
    );
    assert!(!error.is_malformed());
    assert_eq!(
        error.to_string(),
        "Parameter order of EchoOrder: Lines/OrderLine[2]/Quantity must be an int, and the value \
         'x' is not valid: it is not an integer."
    );
    // An element inside a member of a simple type is malformed to the host's reader.
    let nested = format!("<EchoOrder xmlns=\"{NS}\"><order><Id><b>1</b></Id></order></EchoOrder>");
    let error = EchoOrder::decode_request(&soap_request(&nested, "EchoOrder"), Binding::Soap11)
        .unwrap_err();
    assert!(error.is_malformed(), "{error:?}");
}

#[test]
fn a_recursive_class_nests_and_a_class_holding_itself_is_boxed() {
    let leaf = TreeNode {
        name: Some("leaf".into()),
        children: Some(vec![]),
        parent: None,
    };
    let root = TreeNode {
        name: Some("root".into()),
        children: Some(vec![Some(leaf.clone()), None]),
        parent: Some(Box::new(TreeNode {
            name: Some("up".into()),
            ..Default::default()
        })),
    };
    let response = EchoTreeResponse {
        result: Some(root.clone()),
    };
    let http = response.encode_response(Binding::Soap12).unwrap();
    assert!(body_text(http.body()).contains(
        "<EchoTreeResult><Name>root</Name><Children><TreeNode><Name>leaf</Name><Children /></TreeNode>\
         <TreeNode xsi:nil=\"true\" /></Children><Parent><Name>up</Name></Parent></EchoTreeResult>"
    ));
    assert_eq!(
        EchoTreeResponse::decode_response(&http, Binding::Soap12).unwrap(),
        response
    );
    let request = EchoTree { node: Some(root) };
    let http = request
        .encode_request(&Default::default(), Binding::Soap12)
        .unwrap();
    assert_eq!(
        EchoTree::decode_request(&http, Binding::Soap12).unwrap().1,
        request
    );
}

#[test]
fn a_class_beside_a_simple_parameter_reads_both() {
    let request = CountLines {
        order: Some(Order {
            id: 1,
            ..Default::default()
        }),
        extra: 4,
    };
    let http = request
        .encode_request(&Default::default(), Binding::Soap11)
        .unwrap();
    assert_eq!(
        CountLines::decode_request(&http, Binding::Soap11)
            .unwrap()
            .1,
        request
    );
}

#[test]
fn a_result_with_a_bad_member_is_undecodable_with_its_path() {
    let body = format!(
        "{OPEN}<EchoOrderResponse xmlns=\"{NS}\"><EchoOrderResult><Id>1</Id>\
         <Priority>Highest</Priority></EchoOrderResult></EchoOrderResponse>{CLOSE}"
    );
    let response = Response::builder()
        .status(200)
        .header("content-type", "text/xml; charset=utf-8")
        .body(Bytes::from(body))
        .unwrap();
    match EchoOrderResponse::decode_response(&response, Binding::Soap11) {
        Err(ResponseError::Undecodable { reason, .. }) => {
            assert!(reason.contains("Priority must be a Level"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn too_many_elements_in_one_value_are_refused() {
    let items = "<string>a</string>".repeat(rmm_objects::runtime::tree::MAX_ELEMENTS + 1);
    let inner =
        format!("<EchoStringArray xmlns=\"{NS}\"><values>{items}</values></EchoStringArray>");
    let error =
        EchoStringArray::decode_request(&soap_request(&inner, "EchoStringArray"), Binding::Soap11)
            .unwrap_err();
    assert!(
        error.to_string().contains("more than 250000 elements"),
        "{error}"
    );
}

/// `cargo test` catches a forgotten regeneration of the objects crate.
#[test]
fn the_objects_crate_is_fresh() {
    let root = rmm_tests::root();
    let spec_file = "tests/objects/rmm-spec.yaml";
    let source = std::fs::read_to_string(root.join(spec_file)).unwrap();
    let options = rmm_codegen::CrateOptions {
        runtime: rmm_codegen::RuntimeDependency::Path("../../runtime".into()),
        spec: Some("rmm-spec.yaml".into()),
    };
    let generated = rmm_codegen::generate_crate_from_source(&source, spec_file, &options)
        .unwrap_or_else(|e| panic!("{e}"));
    let problems = rmm_codegen::stale_crate(&generated, &root.join("tests/objects")).unwrap();
    assert!(
        problems.is_empty(),
        "tests/objects is stale; run `cargo xtask gen --spec {spec_file} --out tests/objects`:\n{}",
        problems.join("\n")
    );
}

/// The host's answer to `MakeOrder?id=5&note=a` over HTTP GET, byte for byte.
const MADE_ORDER: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<Order xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://rmm.example.com/objects">
  <Id>5</Id>
  <Placed>0001-01-01T00:00:00</Placed>
  <Priority>High</Priority>
  <Customer>
    <Address>
      <Zip>0</Zip>
    </Address>
  </Customer>
  <Lines>
    <OrderLine>
      <Quantity>0</Quantity>
      <Price>0</Price>
      <Discount xsi:nil="true" />
    </OrderLine>
    <OrderLine xsi:nil="true" />
  </Lines>
  <Tags>
    <string>a</string>
    <string xsi:nil="true" />
    <string />
  </Tags>
  <Rating xsi:nil="true" />
  <Matrix>
    <ArrayOfInt1>
      <int>5</int>
    </ArrayOfInt1>
    <ArrayOfInt1 xsi:nil="true" />
    <ArrayOfInt1 />
  </Matrix>
</Order>"#;

/// The order `MakeOrder(5, "a")` makes on the host.
fn made_order() -> Order {
    Order {
        id: 5,
        priority: Level::High,
        customer: Some(Customer {
            address: Some(Address::default()),
            ..Default::default()
        }),
        lines: Some(vec![Some(OrderLine::default()), None]),
        tags: Some(vec![Some("a".into()), None, Some(String::new())]),
        matrix: Some(vec![Some(vec![5]), None, Some(vec![])]),
        ..Default::default()
    }
}

#[test]
fn a_class_result_over_http_is_the_hosts_indented_document() {
    for binding in [Binding::HttpGet, Binding::HttpPost] {
        let response = MakeOrderResponse {
            result: Some(made_order()),
        };
        let http = response.encode_response(binding).unwrap();
        assert_eq!(
            http.headers()["content-type"],
            "text/xml; charset=utf-8",
            "{binding}"
        );
        assert_eq!(body_text(http.body()), MADE_ORDER, "{binding}");
        assert_eq!(
            MakeOrderResponse::decode_response(&http, binding).unwrap(),
            response
        );
        // A null result: the root with xsi:nil, as the host writes `MakeOrder?id=-1`.
        let null = MakeOrderResponse { result: None }
            .encode_response(binding)
            .unwrap();
        assert_eq!(
            body_text(null.body()),
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Order xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:nil=\"true\" xmlns=\"http://rmm.example.com/objects\" />"
        );
        assert_eq!(
            MakeOrderResponse::decode_response(&null, binding)
                .unwrap()
                .result,
            None
        );
    }
}

#[test]
fn an_array_result_over_http_is_the_hosts_document_and_null_empty_and_nil_items_stay_apart() {
    let prolog = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<ArrayOfString xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"";
    // The host's answers to MakeTags?count=3, 0 and -1.
    for (value, want) in [
        (
            Some(vec![Some("t0".to_owned()), None, Some("t2".to_owned())]),
            format!("{prolog} xmlns=\"{NS}\">\n  <string>t0</string>\n  <string xsi:nil=\"true\" />\n  <string>t2</string>\n</ArrayOfString>"),
        ),
        (Some(vec![]), format!("{prolog} xmlns=\"{NS}\" />")),
        (None, format!("{prolog} xsi:nil=\"true\" xmlns=\"{NS}\" />")),
    ] {
        let response = MakeTagsResponse { result: value };
        let http = response.encode_response(Binding::HttpGet).unwrap();
        assert_eq!(body_text(http.body()), want);
        assert_eq!(
            MakeTagsResponse::decode_response(&http, Binding::HttpGet).unwrap(),
            response
        );
    }
}

#[test]
fn an_array_parameter_over_http_is_one_pair_per_item() {
    let request = EchoIntArray {
        values: Some(vec![1, -2]),
    };
    let http = request
        .encode_request(&Default::default(), Binding::HttpGet)
        .unwrap();
    assert_eq!(
        http.uri().to_string(),
        "/api/rmm/ObjectsService.asmx/EchoIntArray?values=1&values=-2"
    );
    assert_eq!(
        EchoIntArray::decode_request(&http, Binding::HttpGet)
            .unwrap()
            .1,
        request
    );
    let levels = EchoLevels {
        values: Some(vec![Level::High, Level::Low]),
    };
    let http = levels
        .encode_request(&Default::default(), Binding::HttpPost)
        .unwrap();
    assert_eq!(body_text(http.body()), "values=High&values=Low");
    assert_eq!(
        EchoLevels::decode_request(&http, Binding::HttpPost)
            .unwrap()
            .1,
        levels
    );
    // Names match in any case, as on the host (`Values=a&values=b` is [a, b]).
    let mixed = Request::get("/api/rmm/ObjectsService.asmx/EchoStringArray?Values=a&values=b")
        .body(Bytes::new())
        .unwrap();
    assert_eq!(
        EchoStringArray::decode_request(&mixed, Binding::HttpGet)
            .unwrap()
            .1
            .values,
        Some(vec![Some("a".to_owned()), Some("b".to_owned())])
    );
    // What no pair can say is refused before anything is sent.
    for values in [None, Some(vec![]), Some(vec![None])] {
        let error = EchoStringArray { values }
            .encode_request(&Default::default(), Binding::HttpGet)
            .unwrap_err();
        assert!(error.to_string().contains("values"), "{error}");
    }
    // A value its item type cannot hold is the host's 500 there.
    let bad = Request::get("/api/rmm/ObjectsService.asmx/EchoIntArray?values=1&values=x")
        .body(Bytes::new())
        .unwrap();
    assert!(matches!(
        EchoIntArray::decode_request(&bad, Binding::HttpGet),
        Err(RequestError::InvalidValue { .. })
    ));
}

/// A secret member of a header class (`secrets: [AuthHeader.Password]`) is printed redacted,
/// in the class and in the request that carries it; the other members are printed.
#[test]
fn a_header_classs_secret_member_is_printed_redacted() {
    let request = rmm_objects::WhoAmI {
        n: 1,
        auth_header: Some(rmm_objects::AuthHeader {
            user: Some("ann".into()),
            password: Some("hunter2".into()),
            soap: Default::default(),
        }),
    };
    let printed = format!("{request:?}");
    assert!(!printed.contains("hunter2"), "{printed}");
    assert!(printed.contains("<redacted>"), "{printed}");
    assert!(printed.contains("ann"), "{printed}");
}
