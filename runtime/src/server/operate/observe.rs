//! Each call observed: a `tracing` span (`rmm.serve`: operation, binding, status, duration),
//! and the metrics when the server has them.

use std::future::Future;

use http::{Response, StatusCode};
use tracing::Instrument;

use crate::server::ServerConfig;
use crate::{Binding, OperationInfo, RequestError};

#[doc(hidden)] // for generated code
/// Whether calls are observed: the server keeps metrics, or a subscriber takes the calls'
/// spans.
pub fn observing(config: &ServerConfig) -> bool {
    config.metrics.is_some() || tracing::enabled!(target: "rmm.serve", tracing::Level::DEBUG)
}

#[doc(hidden)] // for generated code
/// Runs `call` (the dispatch of one call of `operation` over `binding`, whose request has
/// `headers`) in its span, counting it in the server's metrics. Without metrics and without
/// a subscriber for the span, it is the call alone.
pub async fn observe<F, B>(
    config: &ServerConfig,
    operation: &'static OperationInfo,
    binding: Binding,
    headers: &http::HeaderMap,
    call: F,
) -> Result<Response<B>, RequestError>
where
    F: Future<Output = Result<Response<B>, RequestError>>,
{
    let span = tracing::debug_span!(
        "rmm.serve",
        operation = operation.name,
        binding = binding.label(),
        status = tracing::field::Empty,
        duration_ms = tracing::field::Empty,
        // What OpenTelemetry's bridge reads (`Telemetry`): a server span, an error when the
        // call was not answered 200.
        otel.kind = "server",
        otel.status_code = tracing::field::Empty,
    );
    // The caller's trace, when its request carries one (`traceparent`).
    #[cfg(feature = "otel")]
    super::telemetry::adopt_parent(&span, headers);
    #[cfg(not(feature = "otel"))]
    let _ = headers;
    let metrics = config.metrics.as_ref();
    let (name, key) = (operation.name, binding.key());
    if let Some(metrics) = metrics {
        metrics.started(name, key);
    }
    let started = std::time::Instant::now();
    let answered = call.instrument(span.clone()).await;
    let took = started.elapsed();
    let outcome = match &answered {
        Ok(response) => {
            span.record("status", response.status().as_u16());
            if response.status() == StatusCode::OK {
                "ok"
            } else {
                "fault"
            }
        }
        Err(_) => {
            span.record("status", "refused");
            "refused"
        }
    };
    if outcome != "ok" {
        span.record("otel.status_code", "error");
    }
    if let Some(metrics) = metrics {
        metrics.ended(name, key, outcome, took);
    }
    span.record("duration_ms", took.as_secs_f64() * 1000.0);
    answered
}
