//! A second service, end to end: `tests/stock/rmm-spec.yaml` (another name, namespace with a
//! trailing `/`, path, credentials and crate name) gives the crate `rmm-stock` in
//! `tests/stock/` by `cargo xtask gen --spec tests/stock/rmm-spec.yaml --out tests/stock`. It
//! is fresh, it builds (it is a workspace member), and its client and server talk over
//! loopback on every binding.

use rmm_stock::runtime::deps::tokio;
use rmm_stock::wire::OperationRequest;
use rmm_stock::*;

const SPEC: &str = "tests/stock/rmm-spec.yaml";

/// `cargo test` catches a forgotten regeneration of the second crate, `Cargo.toml` included.
#[test]
fn the_second_crate_is_fresh() {
    let root = rmm_tests::root();
    let source = std::fs::read_to_string(root.join(SPEC)).unwrap();
    let options = rmm_codegen::CrateOptions {
        runtime: rmm_codegen::RuntimeDependency::Path("../../runtime".into()),
        spec: Some("rmm-spec.yaml".into()),
    };
    let generated = rmm_codegen::generate_crate_from_source(&source, SPEC, &options)
        .unwrap_or_else(|e| panic!("{e}"));
    let problems = rmm_codegen::stale_crate(&generated, &root.join("tests/stock")).unwrap();
    assert!(
        problems.is_empty(),
        "tests/stock is stale; run `cargo xtask gen --spec {SPEC} --out tests/stock`:\n{}",
        problems.join("\n")
    );
    assert!(generated
        .manifest()
        .contents
        .contains("name = \"rmm-stock\"\n"));
}

/// The stock service: echoes every value as `Op(name=value;…)`, refuses the SKU `FAULT`.
struct Stock;

fn echo<T: OperationRequest>(request: &T, credentials: &Credentials) -> Result<T::Response, Fault>
where
    T::Response: rmm_stock::wire::OperationResponse<Result = Option<String>>,
{
    use rmm_stock::wire::OperationResponse;
    let values = request.values(credentials);
    if values
        .iter()
        .any(|(_, v)| *v == rmm_stock::runtime::ParamValue::String(Some("FAULT")))
    {
        return Err(Fault::client("no such article"));
    }
    let texts: Vec<String> = values.iter().map(|(n, v)| format!("{n}={v}")).collect();
    Ok(T::Response::from_result(Some(format!(
        "{}({})",
        T::OPERATION.name(),
        texts.join(";")
    ))))
}

impl StockService for Stock {
    async fn stock_level(
        &self,
        credentials: Credentials,
        request: StockLevel,
    ) -> Result<StockLevelResponse, Fault> {
        echo(&request, &credentials)
    }

    async fn stock_adjust(
        &self,
        credentials: Credentials,
        request: StockAdjust,
    ) -> Result<StockAdjustResponse, Fault> {
        echo(&request, &credentials)
    }

    async fn reserve(
        &self,
        credentials: Credentials,
        request: Reserve,
    ) -> Result<ReserveResponse, Fault> {
        echo(&request, &credentials)
    }

    /// The `precise` reading back, unless a value of another width did not arrive intact:
    /// then the client fault names it (each is compared with what the test sends).
    async fn weigh(
        &self,
        _credentials: Credentials,
        request: Weigh,
    ) -> Result<WeighResponse, Fault> {
        let sent = weigh_request(request.reading, request.precise);
        if request != sent && !(request.precise.is_nan() && sent.precise.is_nan()) {
            return Err(Fault::client(format!("got {request:?}, sent {sent:?}")));
        }
        Ok(WeighResponse {
            result: request.precise,
        })
    }

    async fn restock(
        &self,
        _credentials: Credentials,
        request: Restock,
    ) -> Result<RestockResponse, Fault> {
        restocked(request)
    }

    /// No history (null) for lot 0, else the lot number halved.
    async fn forecast(
        &self,
        _credentials: Credentials,
        request: Forecast,
    ) -> Result<ForecastResponse, Fault> {
        Ok(ForecastResponse {
            result: (request.lot != 0).then(|| request.lot as f64 / 2.0),
        })
    }

    /// The id back, if the check character arrived as `☕`.
    async fn label(
        &self,
        _credentials: Credentials,
        request: Label,
    ) -> Result<LabelResponse, Fault> {
        if request.code != '☕' {
            return Err(Fault::client(format!("code {:?}", request.code)));
        }
        Ok(LabelResponse { result: request.id })
    }

    /// The SKU's first character (a space for none).
    async fn initial(
        &self,
        _credentials: Credentials,
        request: Initial,
    ) -> Result<InitialResponse, Fault> {
        let sku = request.sku.unwrap_or_default();
        Ok(InitialResponse {
            result: sku.chars().next().unwrap_or(' '),
        })
    }

    /// The grade the article had: `used` for A-1, `new` for any other.
    async fn regrade(
        &self,
        _credentials: Credentials,
        request: Regrade,
    ) -> Result<RegradeResponse, Fault> {
        Ok(RegradeResponse {
            result: match request.sku.as_deref() {
                Some("A-1") => request.grade,
                _ => Grade::default(),
            },
        })
    }

    /// Nothing, unless the SKU is `FAULT`.
    async fn touch(
        &self,
        _credentials: Credentials,
        request: Touch,
    ) -> Result<TouchResponse, Fault> {
        if request.sku.as_deref() == Some("FAULT") {
            return Err(Fault::client("no such article"));
        }
        Ok(TouchResponse { result: () })
    }

    /// The time back, as received.
    async fn due(&self, _credentials: Credentials, request: Due) -> Result<DueResponse, Fault> {
        Ok(DueResponse { result: request.at })
    }

    /// The image back, as received.
    async fn stamp(
        &self,
        _credentials: Credentials,
        request: Stamp,
    ) -> Result<StampResponse, Fault> {
        Ok(StampResponse {
            result: request.image,
        })
    }

    /// The lot number as a long, refused where it does not fit.
    async fn count(
        &self,
        _credentials: Credentials,
        request: Count,
    ) -> Result<CountResponse, Fault> {
        i64::try_from(request.lot)
            .map(|result| CountResponse { result })
            .map_err(|_| Fault::client("the lot is too large to count"))
    }
}

/// A null quantity or ratio must arrive as sent; the quantity comes back.
fn restocked(request: Restock) -> Result<RestockResponse, Fault> {
    let expected = [
        (Some(u32::MAX), Some(-5), Some(0.5)),
        (None, None, None),
        (Some(0), None, Some(f64::NEG_INFINITY)),
    ];
    if !expected.contains(&(request.lot, request.quantity, request.ratio)) {
        return Err(Fault::client(format!("unexpected {request:?}")));
    }
    Ok(RestockResponse {
        result: request.quantity,
    })
}

/// A `Weigh` call with every integer at its bound, and the two readings given.
fn weigh_request(reading: f32, precise: f64) -> Weigh {
    Weigh {
        batch: i64::MIN,
        pallets: i16::MAX,
        offset: i8::MIN,
        shelf: u8::MAX,
        bin: u16::MAX,
        lot: u32::MAX,
        serial: u64::MAX,
        reading,
        precise,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn its_client_and_server_talk_over_loopback_on_every_binding() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(StockServiceServer::new(Stock).serve_with_shutdown(
        listener,
        async {
            let _ = stopped.await;
        },
    ));
    let credentials = Credentials {
        clientid: -7,
        apikey: Some("k&y<".into()),
        session: Some("s1".into()),
    };
    let client = StockServiceClient::new(&base, StaticSigner(credentials));
    let level = StockLevel {
        sku: Some("A-1 \"x\"".into()),
        warehouse: 3,
    };
    let adjust = StockAdjust {
        sku: Some("A-1".into()),
        delta: "-1.50".parse().unwrap(),
        reason: Some("count, café".into()),
        confirmed: true,
    };
    let reserve = Reserve {
        order: Some("O-9".into()),
        sku: Some("B 2".into()),
        quantity: 2147483647,
        until: Some("2026-12-31".into()),
    };
    for binding in Binding::ALL {
        let client = client.over(binding);
        // Each echo lists the parameters in the spec's wire order, credentials in place.
        assert_eq!(
            client.stock_level(&level).await.unwrap().result.as_deref(),
            Some("StockLevel(sku=A-1 \"x\";warehouse=3;clientid=-7;apikey=k&y<)"),
            "{binding}"
        );
        assert_eq!(
            client
                .stock_adjust(&adjust)
                .await
                .unwrap()
                .result
                .as_deref(),
            Some(
                "StockAdjust(sku=A-1;delta=-1.50;reason=count, café;confirmed=true;session=s1;\
                 clientid=-7;apikey=k&y<)"
            ),
            "{binding}"
        );
        assert_eq!(
            client.reserve(&reserve).await.unwrap().result.as_deref(),
            Some(
                "Reserve(clientid=-7;order=O-9;sku=B 2;quantity=2147483647;until=2026-12-31;\
                 session=s1;apikey=k&y<)"
            ),
            "{binding}"
        );
        let refused = StockLevel {
            sku: Some("FAULT".into()),
            warehouse: 1,
        };
        let error = client.stock_level(&refused).await.unwrap_err();
        let message = match &error {
            CallError::Response(ResponseError::Fault { fault, .. }) => fault.reason.clone(),
            CallError::Response(ResponseError::ErrorBody { message, .. }) => message.clone(),
            other => panic!("{binding}: {other:?}"),
        };
        assert_eq!(message, "no such article", "{binding}");
    }

    // Every integer width at its bound and floats at theirs, over every binding; the server
    // checks what arrived, the client what came back.
    for binding in Binding::ALL {
        let client = client.over(binding);
        for precise in [
            f64::MIN,
            f64::from_bits(1),
            0.1,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            let call = weigh_request(f32::MAX, precise);
            let weighed = client
                .weigh(&call)
                .await
                .unwrap_or_else(|e| panic!("{binding}: {e}"));
            assert_eq!(weighed.result.to_bits(), precise.to_bits(), "{binding}");
        }
        let nan = client
            .weigh(&weigh_request(f32::MIN, f64::NAN))
            .await
            .unwrap();
        assert!(nan.result.is_nan(), "{binding}");
        // -0 keeps its sign over SOAP, where XmlConvert reads it; over HTTP GET/POST the server
        // reads it as .NET's Double.Parse does, as 0 (the request check compares with ==).
        let zero = client.weigh(&weigh_request(0.0, -0.0)).await.unwrap();
        assert_eq!(
            zero.result.is_sign_negative(),
            binding.is_soap(),
            "{binding}"
        );
        // Count is offered over SOAP only: the client refuses to send it over GET/POST.
        let counted = client
            .count(&Count {
                lot: i64::MAX as u64,
            })
            .await;
        if binding.is_soap() {
            assert_eq!(counted.unwrap().result, i64::MAX, "{binding}");
            let refused = client.count(&Count { lot: u64::MAX }).await.unwrap_err();
            assert!(
                refused
                    .to_string()
                    .contains("the lot is too large to count"),
                "{binding}: {refused}"
            );
        } else {
            assert!(
                matches!(
                    counted,
                    Err(CallError::Encode(EncodeError::NotOffered { operation: "Count", binding: b }))
                        if b == binding
                ),
                "{binding}: {counted:?}"
            );
        }
    }
    // Nullable values: null and not, as parameters (SOAP only) and as results (every binding).
    for binding in Binding::ALL {
        let client = client.over(binding);
        for (lot, quantity, ratio) in [
            (Some(u32::MAX), Some(-5), Some(0.5)),
            (None, None, None),
            (Some(0), None, Some(f64::NEG_INFINITY)),
        ] {
            let restock = client
                .restock(&Restock {
                    lot,
                    quantity,
                    ratio,
                })
                .await;
            if binding.is_soap() {
                assert_eq!(restock.unwrap().result, quantity, "{binding}");
            } else {
                assert!(restock.is_err(), "{binding}");
            }
        }
        let none = client.forecast(&Forecast { lot: 0 }).await.unwrap();
        assert_eq!(none.result, None, "{binding}");
        let some = client.forecast(&Forecast { lot: 9 }).await.unwrap();
        assert_eq!(some.result, Some(4.5), "{binding}");
    }
    // char and guid: a char is a UTF-16 unit (a Rust char outside the BMP is refused before
    // it is sent), a guid goes over SOAP only as a parameter and anywhere as a result.
    let id = Uuid::from_u128(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210);
    for binding in Binding::ALL {
        let client = client.over(binding);
        let labelled = client.label(&Label { code: '☕', id }).await;
        if binding.is_soap() {
            assert_eq!(labelled.unwrap().result, id, "{binding}");
            let refused = client.label(&Label { code: '😀', id }).await.unwrap_err();
            assert!(
                matches!(
                    refused,
                    CallError::Encode(EncodeError::NotOneUnit {
                        field: "code",
                        value: '😀',
                        ..
                    })
                ),
                "{binding}: {refused:?}"
            );
        } else {
            assert!(labelled.is_err(), "{binding}");
        }
        for (sku, initial) in [("é-1", 'é'), ("\u{fffd}", '\u{fffd}')] {
            let got = client
                .initial(&Initial {
                    sku: Some(sku.into()),
                })
                .await;
            assert_eq!(got.unwrap().result, initial, "{binding}");
        }
        // A result no .NET char can be: the server refuses to write it, and says so.
        let beyond = client
            .initial(&Initial {
                sku: Some("😀".into()),
            })
            .await;
        assert!(beyond.is_err(), "{binding}: {beyond:?}");
    }
    let answer = reqwest::get(format!(
        "{base}/services/v2/Stock.asmx/Initial?sku=%E2%98%95&clientid=1&apikey=k"
    ))
    .await
    .unwrap()
    .text()
    .await
    .unwrap();
    assert_eq!(
        answer,
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<char xmlns=\"https://warehouse.example.org/stock/\">9749</char>"
    );

    // Enums: every value both ways on every binding, by its wire spelling.
    for binding in Binding::ALL {
        let client = client.over(binding);
        for grade in Grade::ALL {
            let back = client
                .regrade(&Regrade {
                    sku: Some("A-1".into()),
                    grade,
                })
                .await
                .unwrap();
            assert_eq!(back.result, grade, "{binding}");
        }
    }
    // Over GET a value is its .NET member name, trimmed as Enum.Parse trims it, and answered
    // by its wire name; the wire name itself (where it differs), another case and a number
    // (which Enum.Parse would read as any value) are refused; over SOAP only the exact wire
    // spelling is read.
    let get = |grade: &str| {
        reqwest::get(format!(
            "{base}/services/v2/Stock.asmx/Regrade?sku=A-1&grade={grade}&clientid=1&apikey=k"
        ))
    };
    let trimmed = get("+VeryGood+").await.unwrap().text().await.unwrap();
    assert!(trimmed.ends_with(">very-good</Grade>"), "{trimmed}");
    let member = get("SecondHand").await.unwrap().text().await.unwrap();
    assert!(member.ends_with(">2nd-hand</Grade>"), "{member}");
    for refused in ["very-good", "verygood", "1"] {
        let answer = get(refused).await.unwrap();
        assert_eq!(answer.status(), 500, "{refused}");
        assert!(
            answer
                .text()
                .await
                .unwrap()
                .contains("it is not one of new, used, VeryGood, SecondHand"),
            "{refused}"
        );
    }

    // dateTime: each kind, to 100 ns, on every binding; finer is refused before sending.
    use rmm_stock::runtime::deps::chrono::{FixedOffset, NaiveDate};
    let reading = NaiveDate::from_ymd_opt(2026, 1, 1)
        .unwrap()
        .and_hms_nano_opt(5, 30, 0, 123_456_700)
        .unwrap();
    for binding in Binding::ALL {
        let client = client.over(binding);
        for kind in [
            DateTimeKind::Unspecified,
            DateTimeKind::Utc,
            DateTimeKind::Offset(FixedOffset::east_opt(5 * 3600 + 30 * 60).unwrap()),
            DateTimeKind::Offset(FixedOffset::west_opt(14 * 3600).unwrap()),
        ] {
            let at = DateTime {
                value: reading,
                kind,
            };
            let back = client.due(&Due { at }).await.unwrap();
            assert_eq!(back.result, at, "{binding}");
        }
        let finer =
            DateTime::utc(reading + rmm_stock::runtime::deps::chrono::Duration::nanoseconds(1));
        let refused = client.due(&Due { at: finer }).await.unwrap_err();
        assert!(
            matches!(
                refused,
                CallError::Encode(EncodeError::NotDotnetDateTime { .. })
            ),
            "{binding}: {refused:?}"
        );
    }
    let due = reqwest::get(format!(
        "{base}/services/v2/Stock.asmx/Due?at=2026-01-01T05:30:00.5%2B05:30&clientid=1&apikey=k"
    ))
    .await
    .unwrap()
    .text()
    .await
    .unwrap();
    assert!(
        due.ends_with(">2026-01-01T05:30:00.5+05:30</dateTime>"),
        "{due}"
    );

    // base64Binary: a reference like a string (None is absent over SOAP); over HTTP GET/POST
    // one pair per byte, so neither None nor an empty array can go there.
    for binding in Binding::ALL {
        let client = client.over(binding);
        // 256 pairs would make the query longer than the 2,048 characters ASP.NET reads (and
        // we answer 400 there, as it does): 200 go over GET.
        let bytes: Vec<u8> = if binding == Binding::HttpGet {
            (0..200).collect()
        } else {
            (0..=255).collect()
        };
        let back = client
            .stamp(&Stamp {
                image: Some(bytes.clone()),
            })
            .await
            .unwrap();
        assert_eq!(back.result, Some(bytes), "{binding}");
        for image in [None, Some(Vec::new())] {
            let back = client
                .stamp(&Stamp {
                    image: image.clone(),
                })
                .await;
            if binding.is_soap() {
                assert_eq!(back.unwrap().result, image, "{binding}");
            } else {
                assert!(
                    matches!(back, Err(CallError::Encode(_))),
                    "{binding}: {back:?}"
                );
            }
        }
    }
    let stamped = reqwest::get(format!(
        "{base}/services/v2/Stock.asmx/Stamp?image=0&IMAGE=255&image=65&clientid=1&apikey=k"
    ))
    .await
    .unwrap()
    .text()
    .await
    .unwrap();
    assert!(stamped.ends_with(">AP9B</base64Binary>"), "{stamped}");

    // void: nothing comes back, on every binding; a fault still does.
    for binding in Binding::ALL {
        let client = client.over(binding);
        let touched = client
            .touch(&Touch {
                sku: Some("A-1".into()),
            })
            .await;
        assert!(touched.is_ok(), "{binding}: {touched:?}");
        let refused = client
            .touch(&Touch {
                sku: Some("FAULT".into()),
            })
            .await;
        assert!(refused.is_err(), "{binding}");
    }
    // Over HTTP GET, as the host answers a void operation: 200, no content type, no body.
    let touched = reqwest::get(format!(
        "{base}/services/v2/Stock.asmx/Touch?sku=A-1&clientid=1&apikey=k"
    ))
    .await
    .unwrap();
    assert_eq!(touched.status(), 200);
    assert!(touched.headers().get("content-type").is_none());
    assert_eq!(touched.headers()["cache-control"], "private, max-age=0");
    assert_eq!(touched.text().await.unwrap(), "");

    // A null result over HTTP GET is the type's document with xsi:nil, as ASMX writes it.
    let nil = reqwest::get(format!(
        "{base}/services/v2/Stock.asmx/Forecast?lot=0&clientid=1&apikey=k"
    ))
    .await
    .unwrap()
    .text()
    .await
    .unwrap();
    assert_eq!(
        nil,
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<double xsi:nil=\"true\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xmlns=\"https://warehouse.example.org/stock/\" />"
    );

    // And the server answers a GET/POST of it as of no operation, as the host answers one.
    for request in [
        reqwest::Client::new().get(format!(
            "{base}/services/v2/Stock.asmx/Count?lot=1&clientid=1&apikey=k"
        )),
        reqwest::Client::new()
            .post(format!("{base}/services/v2/Stock.asmx/Count"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("lot=1&clientid=1&apikey=k"),
    ] {
        let answer = request.send().await.unwrap();
        assert_eq!(answer.status(), 500);
        assert_eq!(
            answer.text().await.unwrap(),
            "Count is not a method of this web service.\n"
        );
    }

    // Its own WSDL: its namespace, its path, and ASMX's action for a namespace ending in '/'.
    let wsdl = reqwest::get(format!("{base}/services/v2/Stock.asmx?WSDL"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(wsdl.contains("targetNamespace=\"https://warehouse.example.org/stock/\""));
    assert!(wsdl.contains(&format!("location=\"{base}/services/v2/Stock.asmx\"")));
    assert!(wsdl.contains("soapAction=\"https://warehouse.example.org/stock/StockLevel\""));
    assert!(!wsdl.contains("stock//"));
    // Results of other types: their schema type, and the HTTP GET/POST document element.
    assert!(wsdl.contains(
        r#"<s:element minOccurs="1" maxOccurs="1" name="WeighResult" type="s:double" />"#
    ));
    assert!(wsdl.contains(r#"<s:element name="double" type="s:double" />"#));
    // Count is in the SOAP bindings only.
    assert!(!wsdl.contains("CountHttpGetIn") && !wsdl.contains("CountHttpPostOut"));
    assert_eq!(wsdl.matches(r#"<wsdl:operation name="Count">"#).count(), 3);
    assert!(wsdl.contains(r#"<wsdl:part name="Body" element="tns:double" />"#));
    assert!(wsdl.contains(
        r#"<s:element minOccurs="1" maxOccurs="1" name="quantity" nillable="true" type="s:int" />"#
    ));
    assert!(wsdl.contains(r#"name="grade" type="tns:Grade" />"#));
    assert!(wsdl.contains(
        "<s:simpleType name=\"Grade\">\n        <s:restriction base=\"s:string\">\n          \
         <s:enumeration value=\"new\" />"
    ));
    assert!(wsdl.contains(r#"<s:element name="Grade" type="tns:Grade" />"#));
    assert!(wsdl.contains(r#"<wsdl:part name="image" type="s2:StringArray" />"#));
    assert!(wsdl.contains(r#"<s:complexType name="StringArray">"#));
    let _ = stop.send(());
    serving.await.unwrap().unwrap();
}
