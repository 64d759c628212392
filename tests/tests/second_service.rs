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
        runtime_path: "../../runtime".into(),
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

fn echo<T: OperationRequest>(request: &T, credentials: &Credentials) -> Result<T::Response, Fault> {
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
    let _ = stop.send(());
    serving.await.unwrap().unwrap();
}
