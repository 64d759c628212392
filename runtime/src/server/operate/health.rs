//! Liveness and readiness, as an orchestrator probes them, and the drain that turns
//! readiness off before a server stops.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Whether a server is ready for calls. Cloning shares it: the admin address reads it, the
/// service (or its start-up) sets it, a drain clears it.
///
/// Ready from the start; set it not ready while a dependency (the session store, a database)
/// is unreachable, so that a load balancer sends calls elsewhere.
#[derive(Debug, Clone)]
pub struct Health {
    inner: Arc<Flags>,
}

#[derive(Debug)]
struct Flags {
    ready: AtomicBool,
    draining: AtomicBool,
}

impl Default for Health {
    fn default() -> Health {
        Health::new()
    }
}

impl Health {
    /// Ready, not draining.
    pub fn new() -> Health {
        Health {
            inner: Arc::new(Flags {
                ready: AtomicBool::new(true),
                draining: AtomicBool::new(false),
            }),
        }
    }

    /// Sets whether the service is ready (a drain overrides it: a draining server is never
    /// ready again).
    pub fn set_ready(&self, ready: bool) {
        self.inner.ready.store(ready, Ordering::SeqCst);
    }

    /// Begins the drain: readiness fails from now on.
    pub fn drain(&self) {
        self.inner.draining.store(true, Ordering::SeqCst);
    }

    /// Whether the server should get new calls: ready and not draining.
    pub fn is_ready(&self) -> bool {
        self.inner.ready.load(Ordering::SeqCst) && !self.is_draining()
    }

    /// Whether the drain has begun.
    pub fn is_draining(&self) -> bool {
        self.inner.draining.load(Ordering::SeqCst)
    }
}

/// Completes when the process is asked to stop (SIGTERM, as an orchestrator asks; or SIGINT,
/// Ctrl-C).
pub async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(error) => {
                tracing::warn!(%error, "no SIGTERM handler: stopping on Ctrl-C only");
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// The drain, as a shutdown future for [`serve_with_shutdown`](crate::server::serve_with_shutdown):
/// waits for `stop` (usually [`stop_signal`]), fails readiness at once, waits `delay` (the time
/// a load balancer takes to see the readiness fail and send calls elsewhere), then completes.
/// The server then stops accepting connections and finishes the calls in flight within
/// [`ServerConfig::shutdown_grace`](crate::server::ServerConfig::shutdown_grace).
pub async fn drain(health: Health, delay: Duration, stop: impl std::future::Future<Output = ()>) {
    stop.await;
    health.drain();
    tracing::info!(
        delay_ms = delay.as_millis() as u64,
        "draining: readiness fails"
    );
    tokio::time::sleep(delay).await;
    tracing::info!("draining: no new connections; finishing the calls in flight");
}
