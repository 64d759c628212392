//! Traces exported to an OpenTelemetry collector: a served process by its `Settings` with
//! `--otlp-endpoint`, a collector's OTLP/HTTP endpoint here (its protobuf decoded with the
//! project's own message types, as a collector decodes it), calls over JSON and SOAP, one
//! failing, one carrying its caller's W3C trace context, and the drain exporting what is left. One test: the process's `tracing`
//! subscriber is installed once.

use std::sync::{Arc, Mutex};

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use opentelemetry_proto::tonic::trace::v1::status::StatusCode;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message as _;
use rmm_runtime::server::operate::Settings;
use rmm_script::runtime::Binding;
use rmm_script::*;
use rmm_tests::script_service::ScriptEcho;

/// What a collector was sent: each export request's content type and body.
type Received = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

/// A collector's trace endpoint: every export request it is sent, with its content type.
async fn collector() -> (String, Received) {
    let received: Received = Arc::default();
    let store = received.clone();
    let app = axum::Router::new().route(
        "/v1/traces",
        axum::routing::post(
            move |headers: axum::http::HeaderMap, body: axum::body::Bytes| async move {
                let content_type = headers
                    .get("content-type")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("")
                    .to_owned();
                store.lock().unwrap().push((content_type, body.to_vec()));
                // An empty ExportTraceServiceResponse.
                (
                    [("content-type", "application/x-protobuf")],
                    Vec::<u8>::new(),
                )
            },
        ),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, received)
}

/// The caller's trace and span, as its `traceparent` names them.
const CALLER_TRACE: &str = "0af7651916cd43dd8448eb211c80319c";
const CALLER_SPAN: &str = "b7ad6b7169203331";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn attribute(span: &Span, key: &str) -> Option<String> {
    span.attributes
        .iter()
        .find(|a| a.key == key)
        .and_then(|a| a.value.as_ref()?.value.as_ref())
        .map(|v| match v {
            Value::StringValue(s) => s.clone(),
            Value::IntValue(i) => i.to_string(),
            Value::DoubleValue(d) => d.to_string(),
            other => format!("{other:?}"),
        })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_call_is_a_server_span_at_the_collector() {
    let (endpoint, received) = collector().await;
    let settings = Settings::try_from_args([
        "server",
        "--listen",
        "127.0.0.1:0",
        "--otlp-endpoint",
        &endpoint,
    ])
    .unwrap();
    let bound = settings.bind().await.unwrap();
    let base = format!("http://{}", bound.local_addr());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(bound.run_until(
        |config| ScriptServiceServer::new(ScriptEcho).with_config(config),
        async {
            let _ = stopped.await;
        },
    ));

    let json = ScriptServiceClient::new(&base).with_binding(Binding::Json);
    assert_eq!(json.add(&Add { a: 2, b: 3 }).await.unwrap().result, 5);
    assert!(json
        .fail(&Fail {
            message: Some("no".into())
        })
        .await
        .is_err());
    let soap = ScriptServiceClient::new(&base).with_binding(Binding::Soap12);
    assert_eq!(soap.add(&Add { a: 1, b: 1 }).await.unwrap().result, 2);
    // A caller's W3C trace context: the call joins its trace, under its span.
    let traced = reqwest::Client::new()
        .post(format!("{base}/api/rmm/ScriptService.asmx/Echo"))
        .header("content-type", "application/json")
        .header("traceparent", format!("00-{CALLER_TRACE}-{CALLER_SPAN}-01"))
        .body(r#"{"value":"t"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(traced.text().await.unwrap(), r#"{"d":"t"}"#);
    // Nothing is exported before the batch is due; the drain exports the rest.
    stop.send(()).unwrap();
    served.await.unwrap().unwrap();

    let received = received.lock().unwrap().clone();
    assert!(!received.is_empty(), "the collector was sent nothing");
    let mut spans = Vec::new();
    for (content_type, body) in &received {
        assert_eq!(content_type, "application/x-protobuf");
        let request = ExportTraceServiceRequest::decode(body.as_slice()).unwrap();
        for resource in request.resource_spans {
            for scope in resource.scope_spans {
                assert_eq!(scope.scope.as_ref().map(|s| s.name.as_str()), Some("rmm"));
                spans.extend(scope.spans);
            }
        }
    }
    let calls: Vec<(String, String, String, i32, i32)> = spans
        .iter()
        .filter(|s| s.name == "rmm.serve")
        .map(|s| {
            (
                attribute(s, "operation").unwrap_or_default(),
                attribute(s, "binding").unwrap_or_default(),
                attribute(s, "status").unwrap_or_default(),
                s.kind,
                s.status.as_ref().map_or(0, |st| st.code),
            )
        })
        .collect();
    let server = SpanKind::Server as i32;
    let (unset, error) = (StatusCode::Unset as i32, StatusCode::Error as i32);
    assert_eq!(
        calls,
        vec![
            ("Add".into(), "JSON".into(), "200".into(), server, unset),
            ("Fail".into(), "JSON".into(), "500".into(), server, error),
            ("Add".into(), "SOAP 1.2".into(), "200".into(), server, unset),
            ("Echo".into(), "JSON".into(), "200".into(), server, unset),
        ],
        "{spans:#?}"
    );
    // The calls without a caller's trace each start one; the traced call is the caller's
    // span's child, in its trace.
    let served: Vec<&Span> = spans.iter().filter(|s| s.name == "rmm.serve").collect();
    let echo = served[3];
    assert_eq!(hex(&echo.trace_id), CALLER_TRACE);
    assert_eq!(hex(&echo.parent_span_id), CALLER_SPAN);
    for span in &served[..3] {
        assert!(span.parent_span_id.is_empty(), "{span:?}");
        assert_ne!(hex(&span.trace_id), CALLER_TRACE);
    }
    for span in spans.iter().filter(|s| s.name == "rmm.serve") {
        let ms: f64 = attribute(span, "duration_ms").unwrap().parse().unwrap();
        assert!(ms >= 0.0 && span.end_time_unix_nano >= span.start_time_unix_nano);
        assert_eq!(span.trace_id.len(), 16);
    }
}
