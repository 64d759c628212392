//! Each call's span exported to an OpenTelemetry collector (feature `otel`): OTLP over HTTP
//! in protobuf, batched, on the tracing spans the server already makes (`rmm.serve`).

use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_http::{HttpClient, HttpError, Request, Response};
use opentelemetry_otlp::{WithExportConfig as _, WithHttpConfig as _};
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

use super::settings::RunError;

/// Traces exported to an OpenTelemetry collector: a batch of spans at a time, over OTLP/HTTP.
///
/// [`Settings`](super::Settings) makes one from `--otlp-endpoint`
/// (`OTEL_EXPORTER_OTLP_ENDPOINT`) and installs it; a binary with a `tracing` subscriber of
/// its own adds [`Telemetry::layer`] to it. The collector's other standard variables apply
/// (`OTEL_SERVICE_NAME`, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TIMEOUT`, …).
/// [`shutdown`](Telemetry::shutdown) exports what is left.
pub struct Telemetry {
    provider: SdkTracerProvider,
}

impl fmt::Debug for Telemetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Telemetry").finish_non_exhaustive()
    }
}

impl Telemetry {
    /// An exporter to the collector at `endpoint` (its base URL, as
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` is: spans go to `{endpoint}/v1/traces`). Must be called
    /// within a tokio runtime, on which the exports run.
    pub fn otlp(endpoint: &str) -> Result<Telemetry, RunError> {
        let client = OnTokio::new().map_err(RunError::Telemetry)?;
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_http_client(client)
            .with_endpoint(format!("{}/v1/traces", endpoint.trim_end_matches('/')))
            .build()
            .map_err(|e| RunError::Telemetry(e.to_string()))?;
        let provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .build();
        Ok(Telemetry { provider })
    }

    /// The `tracing` layer that hands spans to the exporter, for a subscriber of one's own.
    pub fn layer<S>(&self) -> impl tracing_subscriber::Layer<S>
    where
        S: tracing::Subscriber + for<'span> tracing_subscriber::registry::LookupSpan<'span>,
    {
        tracing_opentelemetry::layer().with_tracer(self.provider.tracer("rmm"))
    }

    /// Installs the process's `tracing` subscriber: the exporter's layer, and the log on
    /// stderr at the level `RMM_LOG` names (`info` by default; `rmm.serve=debug` logs each
    /// call too). The calls' spans are exported whatever the log's level.
    pub fn install(&self) -> Result<(), RunError> {
        use tracing_subscriber::Layer as _;
        let log: tracing_subscriber::filter::Targets = std::env::var("RMM_LOG")
            .ok()
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "info".to_owned())
            .parse()
            .map_err(|e| RunError::Telemetry(format!("RMM_LOG: {e}")))?;
        tracing_subscriber::registry()
            .with(self.layer())
            .with(
                tracing_subscriber::fmt::layer()
                    .with_writer(std::io::stderr)
                    // Colours on a terminal only, not in a container's log.
                    .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
                    .with_filter(log),
            )
            .try_init()
            .map_err(|e| {
                RunError::Telemetry(format!(
                    "{e}: a tracing subscriber is already installed; add Telemetry::layer() to it"
                ))
            })
    }

    /// Exports the spans not yet exported and stops the exporter.
    pub fn shutdown(self) {
        if let Err(e) = self.provider.shutdown() {
            tracing::warn!(error = %e, "OpenTelemetry: the last spans were not exported");
        }
    }
}

/// Makes `span` a child of the caller's span when the request's headers carry W3C trace
/// context (`traceparent`, with `tracestate`), so that the call joins the caller's trace.
pub(super) fn adopt_parent(span: &tracing::Span, headers: &http::HeaderMap) {
    use opentelemetry::propagation::TextMapPropagator as _;
    use tracing_opentelemetry::OpenTelemetrySpanExt as _;
    if !headers.contains_key("traceparent") {
        return;
    }
    let parent = opentelemetry_sdk::propagation::TraceContextPropagator::new()
        .extract(&opentelemetry_http::HeaderExtractor(headers));
    // A span no OpenTelemetry layer takes has no parent to set.
    let _ = span.set_parent(parent);
}

/// OTLP's HTTP client: reqwest, its requests run on the tokio runtime it was made in. The
/// batch exporter sends from a thread of its own, outside any runtime, and awaits the
/// answer there.
#[derive(Debug, Clone)]
struct OnTokio {
    client: reqwest::Client,
    runtime: tokio::runtime::Handle,
}

impl OnTokio {
    fn new() -> Result<OnTokio, String> {
        let runtime = tokio::runtime::Handle::try_current()
            .map_err(|_| "the exporter must be made within a tokio runtime".to_owned())?;
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| e.to_string())?;
        Ok(OnTokio { client, runtime })
    }
}

#[async_trait::async_trait]
impl HttpClient for OnTokio {
    async fn send_bytes(&self, request: Request<Bytes>) -> Result<Response<Bytes>, HttpError> {
        let client = self.client.clone();
        let sent = self.runtime.spawn(async move {
            let request = reqwest::Request::try_from(request)?;
            let answer = client.execute(request).await?;
            let mut response = Response::builder().status(answer.status().as_u16());
            for (name, value) in answer.headers() {
                response = response.header(name.as_str(), value.as_bytes());
            }
            let body = answer.bytes().await?;
            Ok::<_, HttpError>(response.body(body)?)
        });
        sent.await?
    }
}
