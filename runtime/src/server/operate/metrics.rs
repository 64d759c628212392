//! Prometheus metrics of a server: per operation and binding, the calls and how they ended,
//! their latency, and those in flight; and the sessions issued, abandoned and the store's
//! failures.

use std::time::Duration;

use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGaugeVec, Opts, Registry,
    TextEncoder,
};

/// A server's metrics, in a Prometheus registry of their own (which the service may add its
/// own metrics to). Served as text at the admin address's `/metrics`.
///
/// - `rmm_calls_total{operation, binding, outcome}`: calls answered, by outcome: `ok` (200),
///   `fault` (the service's fault or error: 500), `refused` (a request the decoder refused:
///   a client fault, 400 or a 500 text error).
/// - `rmm_call_duration_seconds{operation, binding}`: the time from the request read to the
///   answer made, a histogram.
/// - `rmm_calls_in_flight{operation, binding}`: calls being answered.
/// - `rmm_sessions_issued_total`, `rmm_sessions_abandoned_total`,
///   `rmm_session_store_errors_total`.
#[derive(Clone)]
pub struct Metrics {
    registry: Registry,
    calls: IntCounterVec,
    duration: HistogramVec,
    in_flight: IntGaugeVec,
    pub(crate) sessions_issued: IntCounter,
    pub(crate) sessions_abandoned: IntCounter,
    pub(crate) store_errors: IntCounter,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

/// Latency buckets, in seconds: from a fast in-memory answer (0.5 ms) to ASMX's request
/// time-out range.
const BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

impl Metrics {
    /// The metrics, registered in a new registry.
    pub fn new() -> Metrics {
        let registry = Registry::new();
        let calls = IntCounterVec::new(
            Opts::new(
                "rmm_calls_total",
                "Calls answered, by operation, binding and outcome.",
            ),
            &["operation", "binding", "outcome"],
        )
        .expect("a valid metric");
        let duration = HistogramVec::new(
            HistogramOpts::new(
                "rmm_call_duration_seconds",
                "Time from the request read to the answer made.",
            )
            .buckets(BUCKETS.to_vec()),
            &["operation", "binding"],
        )
        .expect("a valid metric");
        let in_flight = IntGaugeVec::new(
            Opts::new("rmm_calls_in_flight", "Calls being answered."),
            &["operation", "binding"],
        )
        .expect("a valid metric");
        let counter = |name: &str, help: &str| IntCounter::new(name, help).expect("a valid metric");
        let sessions_issued = counter("rmm_sessions_issued_total", "New sessions stored.");
        let sessions_abandoned = counter(
            "rmm_sessions_abandoned_total",
            "Sessions abandoned and removed.",
        );
        let store_errors = counter(
            "rmm_session_store_errors_total",
            "Calls failed by the session store (down, or a session held too long).",
        );
        for collector in [
            Box::new(calls.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(duration.clone()),
            Box::new(in_flight.clone()),
            Box::new(sessions_issued.clone()),
            Box::new(sessions_abandoned.clone()),
            Box::new(store_errors.clone()),
        ] {
            registry
                .register(collector)
                .expect("each metric registered once");
        }
        Metrics {
            registry,
            calls,
            duration,
            in_flight,
            sessions_issued,
            sessions_abandoned,
            store_errors,
        }
    }

    /// The registry, to add the service's own metrics to.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The metrics in Prometheus's text format.
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        // Encoding text into a Vec fails only on a metric family without metrics.
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    pub(crate) fn started(&self, operation: &str, binding: &str) {
        self.in_flight
            .with_label_values(&[operation, binding])
            .inc();
    }

    pub(crate) fn ended(&self, operation: &str, binding: &str, outcome: &str, took: Duration) {
        self.in_flight
            .with_label_values(&[operation, binding])
            .dec();
        self.calls
            .with_label_values(&[operation, binding, outcome])
            .inc();
        self.duration
            .with_label_values(&[operation, binding])
            .observe(took.as_secs_f64());
    }
}
