//! The naming corpus (`tests/names/rmm-spec.yaml`): a service whose every name collides in
//! Rust (types named `Err`, `Result`, `Option`, `Vec`, `String`, like the service's client and
//! server, `order_line`/`OrderLine`, a class named like a hierarchy's `Any…` enum; enum values
//! `ALL`/`All`/`all`, `None`, `Self`; members named `type`, `self`, `async`, `a-b`/`a_b`;
//! parameters named like the decoders' locals, a credential among them; operations `GetX` and
//! `get_x`, `GetXResponse`, `Option`, `Call`, `match`, `ALL`; an out parameter `result`) gives
//! the crate `rmm-names` (`tests/names/`), which is fresh and builds without warnings (CI's
//! clippy). Each renamed item still carries its wire name: every request and response is
//! round-tripped over each binding it is offered on, and its wire text checked for the names.

use rmm_names::runtime::Binding;
use rmm_names::wire::{OperationRequest, OperationResponse};
use rmm_names::*;

const SPEC: &str = "tests/names/rmm-spec.yaml";

#[test]
fn the_names_crate_is_fresh() {
    let root = rmm_tests::root();
    let source = std::fs::read_to_string(root.join(SPEC)).unwrap();
    let options = rmm_codegen::CrateOptions {
        runtime: rmm_codegen::RuntimeDependency::Path("../../runtime".into()),
        spec: Some("rmm-spec.yaml".into()),
    };
    let generated = rmm_codegen::generate_crate_from_source(&source, SPEC, &options)
        .unwrap_or_else(|e| panic!("{e}"));
    let problems = rmm_codegen::stale_crate(&generated, &root.join("tests/names")).unwrap();
    assert!(
        problems.is_empty(),
        "tests/names is stale; run `cargo xtask gen --spec {SPEC} --out tests/names`:\n{}",
        problems.join("\n")
    );
}

const SOAP: &[Binding] = &[Binding::Soap11, Binding::Soap12];

/// The text of a request: its URI (HTTP GET's parameters) and its body.
fn request_text(request: &http::Request<bytes::Bytes>) -> String {
    format!(
        "{}\n{}",
        request.uri(),
        String::from_utf8_lossy(request.body())
    )
}

/// Encodes `request` on each of `bindings`, checks that the wire text holds each of `wire`,
/// decodes it as the server does and wants the same credentials and request back.
fn request_round_trip<T: OperationRequest>(
    request: &T,
    credentials: &Credentials,
    bindings: &[Binding],
    wire: &[&str],
) {
    for &binding in bindings {
        let http = request
            .encode_request(credentials, binding)
            .unwrap_or_else(|e| panic!("{} over {binding:?}: {e}", T::OPERATION.name()));
        let text = request_text(&http);
        for name in wire {
            assert!(
                text.contains(name),
                "{} over {binding:?}: {name} is not in\n{text}",
                T::OPERATION.name()
            );
        }
        let (got_credentials, got) = T::decode_request(&http, binding)
            .unwrap_or_else(|e| panic!("{} over {binding:?}: {e}\n{text}", T::OPERATION.name()));
        assert_eq!(&got, request, "{} over {binding:?}", T::OPERATION.name());
        assert_eq!(
            &got_credentials,
            credentials,
            "{} over {binding:?}",
            T::OPERATION.name()
        );
    }
}

/// Encodes `response` on each of `bindings`, checks the SOAP text for each of `wire` (HTTP
/// GET/POST carry the result alone), and decodes it as the client does.
fn response_round_trip<R: OperationResponse>(response: &R, bindings: &[Binding], wire: &[&str]) {
    for &binding in bindings {
        let http = response
            .encode_response(binding)
            .unwrap_or_else(|e| panic!("{response:?} over {binding:?}: {e}"));
        let text = String::from_utf8_lossy(http.body()).into_owned();
        for name in wire.iter().filter(|_| binding.is_soap()) {
            assert!(
                text.contains(name),
                "{response:?} over {binding:?}: {name} is not in\n{text}"
            );
        }
        let got = R::decode_response(&http, binding)
            .unwrap_or_else(|e| panic!("{response:?} over {binding:?}: {e}\n{text}"));
        assert_eq!(&got, response, "over {binding:?}");
    }
}

fn text(s: &str) -> Option<String> {
    Some(s.to_owned())
}

#[test]
fn parameters_named_like_the_decoders_locals_keep_their_wire_names() {
    // `body`, `binding`, `param`, `form`, `request` and the credential `reader` are locals of
    // the decoders: numbered in Rust, not on the wire.
    let request = Echo {
        body_2: text("b"),
        binding_2: 7,
        param_2: Currency::ALL2,
        form_2: LowerLevel::High,
        request_2: true,
    };
    let credentials = Credentials {
        reader_2: text("r"),
    };
    request_round_trip(
        &request,
        &credentials,
        &Binding::ALL,
        &["body", "reader", "binding", "param", "form", "request"],
    );
    for binding in Binding::ALL {
        let soap = request
            .encode_request(&credentials, binding)
            .map(|r| request_text(&r))
            .unwrap();
        if binding.is_soap() {
            assert!(soap.contains("<param>ALL</param>"), "{soap}");
            assert!(soap.contains("<form>high</form>"), "{soap}");
        }
    }
    response_round_trip(
        &EchoResponse { result: text("ok") },
        &Binding::ALL,
        &["EchoResult"],
    );
}

#[test]
fn enum_values_that_meet_in_rust_keep_their_wire_names() {
    let wire = [
        (Currency::ALL2, "ALL"),
        (Currency::All, "All"),
        (Currency::All2, "all"),
        (Currency::USD, "USD"),
        (Currency::None, "None"),
        (Currency::Self2, "Self"),
        (Currency::WIRENAMES, "WIRE_NAMES"),
        (Currency::AB, "a-b"),
        (Currency::AB2, "a_b"),
    ];
    assert_eq!(Currency::ALL.len(), wire.len());
    for (value, name) in wire {
        assert_eq!(value.wire_name(), name);
        let request = Echo {
            body_2: text(""),
            param_2: value,
            ..Default::default()
        };
        let credentials = Credentials { reader_2: text("") };
        // Over SOAP the wire name; over HTTP GET/POST the .NET member name.
        request_round_trip(
            &request,
            &credentials,
            SOAP,
            &[&format!("<param>{name}</param>")],
        );
        request_round_trip(&request, &credentials, &Binding::ALL, &[]);
    }
    // The flags type `Option` (`Option2` in Rust): its constants numbered apart, its
    // values by their wire names.
    let flags = Option2::ZERO_2 | Option2::AB | Option2::AB_2 | Option2::READ;
    assert_eq!(Option2::WIRE_NAMES, ["zero", "a-b", "A_B", "Read"]);
    request_round_trip(
        &Option3 { value: flags },
        &Credentials::default(),
        &Binding::ALL,
        &["zero"],
    );
    response_round_trip(
        &Option3Response {
            result: Option2::AB_2,
        },
        &Binding::ALL,
        &["<OptionResult>A_B</OptionResult>"],
    );
}

#[test]
fn classes_named_like_the_prelude_keep_their_wire_names() {
    let err = Err2 {
        r#type: text("t"),
        self_: 1,
        r#async: true,
        a_b: text("dash"),
        a_b_2: text("underscore"),
        self_2: text("Self"),
    };
    let request = GetX { r#type: text("x") };
    request_round_trip(&request, &Credentials::default(), SOAP, &["<type>x</type>"]);
    response_round_trip(
        &GetXResponse2 {
            result: Some(Result2 {
                ok: Some(err.clone()),
                values: Option2::READ,
            }),
        },
        SOAP,
        &[
            "<GetXResult>",
            "<Ok>",
            "<type>t</type>",
            "<self>1</self>",
            "<async>true</async>",
            "<a-b>dash</a-b>",
            "<a_b>underscore</a_b>",
            "<Self>Self</Self>",
            "<Values>Read</Values>",
        ],
    );
    // `get_x`: the module and method `get_x_2`, the request type `GetX2`.
    request_round_trip(
        &GetX2 { self_: text("s") },
        &Credentials::default(),
        SOAP,
        &["<get_x ", "<self>s</self>"],
    );
    response_round_trip(
        &GetX2Response { result: Some(err) },
        SOAP,
        &["<get_xResponse ", "<get_xResult>"],
    );
    // `GetXResponse`: its request type is the name `GetX`'s response would have had.
    request_round_trip(
        &GetXResponse {
            a_b: text("1"),
            a_b_2: text("2"),
        },
        &Credentials::default(),
        &Binding::ALL,
        &["a-b", "a_b"],
    );
    response_round_trip(
        &GetXResponseResponse { result: text("r") },
        &Binding::ALL,
        &["GetXResponseResult"],
    );
}

#[test]
fn classes_that_meet_once_cased_keep_their_wire_names() {
    // `Call` (a method of the clients: `call_2`), `order_line` and `OrderLine`.
    let request = Call2 {
        order: Some(OrderLine { sku: text("A") }),
        line: Some(OrderLine2 { sku: 3 }),
    };
    request_round_trip(
        &request,
        &Credentials::default(),
        SOAP,
        &[
            "<Call ",
            "<order>",
            "<Sku>A</Sku>",
            "<line>",
            "<Sku>3</Sku>",
        ],
    );
    response_round_trip(
        &Call2Response {
            result: Some(OrderLine2 { sku: 4 }),
        },
        SOAP,
        &["<CallResult>"],
    );
    // `match` (a keyword: `match_2`); `Shape`'s enum is `AnyShape2`, as a class is `AnyShape`.
    let circle = AnyShape2::Circle(Circle {
        name: text("c"),
        radius: 2,
    });
    request_round_trip(
        &Match {
            shape: Some(circle.clone()),
            any: Some(AnyShape { count: 5 }),
        },
        &Credentials::default(),
        SOAP,
        &["<match ", "xsi:type=\"Circle\"", "<Count>5</Count>"],
    );
    response_round_trip(
        &MatchResponse {
            result: Some(circle),
        },
        SOAP,
        &["<matchResult xsi:type=\"Circle\">"],
    );
    // `ALL` (`Operation::ALL`'s name: `ALL2`), the service's client and server names, an
    // escaped name and a lower-case one.
    let request = ALL2 {
        client: Some(NamesClient2 {
            server: Some(NamesServer2 { name: text("n") }),
        }),
        item: Some(LineItem { qty: 1 }),
        t: Some(Temp { degrees: -4 }),
    };
    request_round_trip(
        &request,
        &Credentials::default(),
        SOAP,
        &["<ALL ", "<client>", "<Server>", "<item>", "<t>"],
    );
    response_round_trip(
        &ALL2Response {
            result: Some(Vec2 { string: text("s") }),
        },
        SOAP,
        &["<ALLResult>", "<String>s</String>"],
    );
    assert_eq!(ALL2::OPERATION, Operation::ALL2);
    assert_eq!(Operation::ALL2.name(), "ALL");
    assert_eq!(Operation::from_name("ALL"), Some(Operation::ALL2));
}

#[test]
fn an_out_parameter_named_result_keeps_its_wire_name() {
    request_round_trip(
        &Split { value: text("v") },
        &Credentials::default(),
        SOAP,
        &["<value>v</value>"],
    );
    response_round_trip(
        &SplitResponse {
            result: text("r"),
            result_2: text("out"),
            r#type: 9,
            string: Some(String2 { len: 3 }),
        },
        SOAP,
        &[
            "<SplitResult>r</SplitResult>",
            "<result>out</result>",
            "<type>9</type>",
            "<String>",
            "<len>3</len>",
        ],
    );
}

/// The WSDL the generated server serves names everything as the spec does.
#[test]
fn the_wsdl_keeps_every_wire_name() {
    let wsdl = rmm_names::wsdl::document("http://localhost/api/rmm/Names.asmx");
    for name in [
        "<s:complexType name=\"Err\">",
        "<s:complexType name=\"Result\">",
        "<s:complexType name=\"order_line\">",
        "<s:complexType name=\"OrderLine\">",
        "<s:complexType name=\"AnyShape\">",
        "<s:complexType name=\"Line_x0020_Item\">",
        "<s:complexType name=\"temp\">",
        "<s:simpleType name=\"Option\">",
        "<s:enumeration value=\"ALL\" />",
        "<s:enumeration value=\"all\" />",
        "<s:element name=\"get_x\">",
        "<s:element name=\"GetXResponseResponse\">",
        "<wsdl:operation name=\"match\">",
        "<wsdl:service name=\"Names\">",
    ] {
        assert!(wsdl.contains(name), "{name} is not in the WSDL");
    }
}

/// Classes named like the runtime's class codec (`Node`, `MemberError`) keep their names: the
/// generated code reaches the runtime's by their module (`tree::Node`), so nothing is
/// numbered, and they travel under their wire names.
#[test]
fn classes_named_like_the_runtimes_keep_their_names() {
    let node = Node {
        value: text("leaf"),
    };
    request_round_trip(
        &Walk {
            node: Some(node.clone()),
            plain: Some(AnyPlain::Fancy(Fancy {
                a_b: text("inherited"),
                a_b_2: text("own"),
            })),
        },
        &Credentials::default(),
        SOAP,
        &[
            "<Walk ",
            "<node>",
            "<Value>leaf</Value>",
            "xsi:type=\"Fancy\"",
            "<a-b>inherited</a-b>",
            "<a_b>own</a_b>",
        ],
    );
    response_round_trip(
        &WalkResponse {
            result: Some(MemberError { path: Some(node) }),
        },
        SOAP,
        &["<WalkResult>", "<Path>", "<Value>leaf</Value>"],
    );
}

/// Types named like what the generated server and client use of http and std (`Request`,
/// `Response`, `Context`, `Route`, `Bytes`, `Duration`) keep their names: the generated code
/// names those by path (`http::Request`, `std::task::Context`), so the crate compiles with
/// the spec's own in scope and they travel under their wire names.
#[test]
fn types_named_like_http_and_std_keep_their_names() {
    let context = Context {
        route: Some(Route { path: text("/a") }),
        body: Some(Bytes { length: 3 }),
    };
    request_round_trip(
        &Request {
            context: Some(context),
        },
        &Credentials::default(),
        SOAP,
        &[
            "<Request ",
            "<context>",
            "<Route><Path>/a</Path></Route>",
            "<Body><Length>3</Length></Body>",
        ],
    );
    response_round_trip(
        &RequestResponse {
            result: Some(Response {
                code: 7,
                took: Some(Duration { ms: 250 }),
            }),
        },
        SOAP,
        &[
            "<RequestResult>",
            "<Code>7</Code>",
            "<Took><Ms>250</Ms></Took>",
        ],
    );
}

/// An enum value that is the empty string is the variant of its .NET member name (`Item`), and
/// travels as the empty string, over SOAP and as HTTP GET/POST's member name. (Written
/// `<BlanksResult></BlanksResult>`: whether the host writes `<BlanksResult />` there, as it
/// does an empty string, is not yet judged.)
#[test]
fn an_empty_enum_value_is_its_member_names_variant() {
    assert_eq!(Blank::Item.wire_name(), "");
    request_round_trip(
        &Blanks { blank: Blank::Item },
        &Credentials::default(),
        &[
            Binding::Soap11,
            Binding::Soap12,
            Binding::HttpGet,
            Binding::HttpPost,
        ],
        &[],
    );
    response_round_trip(
        &BlanksResponse {
            result: Blank::Item,
        },
        SOAP,
        &["<BlanksResult></BlanksResult>"],
    );
}

/// A date (XML Schema's, .NET's `DateTime` with `DataType = "date"`) as a parameter, a
/// result and a class's members travels as its date alone, `yyyy-MM-dd`.
#[test]
fn dates_travel_as_their_date() {
    use rmm_names::runtime::deps::chrono::NaiveDate;
    use rmm_names::runtime::Date;
    let day = |d: u32| Date::new(NaiveDate::from_ymd_opt(2001, 2, d).unwrap());
    request_round_trip(
        &Stamp {
            day: day(3),
            dated: Some(Dated {
                on: day(4),
                maybe: Some(day(5)),
            }),
        },
        &Credentials::default(),
        SOAP,
        &[
            "<day>2001-02-03</day>",
            "<On>2001-02-04</On>",
            "<Maybe>2001-02-05</Maybe>",
        ],
    );
    response_round_trip(
        &StampResponse { result: day(6) },
        SOAP,
        &["<StampResult>2001-02-06</StampResult>"],
    );
}

/// A derived class's base part converts by position: `Fancy`'s inherited `a-b` is its field
/// `a_b` as in `Plain`, its own `a_b` is `a_b_2`, and only the first goes to and from `Plain`.
#[test]
fn a_derived_class_converts_to_its_base_by_position_not_by_rust_name() {
    let fancy = Fancy {
        a_b: text("inherited"),
        a_b_2: text("own"),
    };
    assert_eq!(
        Plain::from(fancy.clone()),
        Plain {
            a_b: text("inherited")
        }
    );
    let rebuilt = Fancy {
        a_b_2: text("own"),
        ..Plain {
            a_b: text("inherited"),
        }
        .into()
    };
    assert_eq!(rebuilt, fancy);
}
