//! Running a server in production: an admin address of its own for liveness, readiness and
//! Prometheus metrics ([`Admin`]); the drain on SIGTERM ([`drain`]: readiness fails first,
//! then no new connections, then the calls in flight finish); and each call in a `tracing`
//! span and in the metrics.

mod admin;
mod health;
mod metrics;
mod observe;
#[cfg(feature = "settings")]
mod settings;
#[cfg(feature = "otel")]
mod telemetry;

pub use admin::Admin;
pub use health::{drain, stop_signal, Health};
pub use metrics::Metrics;
#[doc(hidden)] // for generated code
pub use observe::{observe, observing};
#[cfg(feature = "settings")]
pub use settings::{Bound, RunError, Served, Settings};
#[cfg(feature = "otel")]
pub use telemetry::Telemetry;
