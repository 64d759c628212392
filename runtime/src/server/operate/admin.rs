//! The admin address: liveness, readiness and metrics on a listener of their own, never on
//! the service's paths (which answer as the host does).

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::header::{HeaderValue, CONTENT_TYPE};
use http::{Method, Request, Response, StatusCode};
use http_body_util::Full;
use hyper::body::Incoming;
use tokio::net::TcpListener;

use super::{Health, Metrics};
use crate::server::ServerConfig;

/// The admin service: `GET /healthz/live` (200 while the process answers), `GET
/// /healthz/ready` (200 when ready, 503 not ready or draining), `GET /metrics` (Prometheus's
/// text format; 404 without metrics). Anything else is 404, another method 405.
#[derive(Debug, Clone)]
pub struct Admin {
    health: Health,
    metrics: Option<Metrics>,
}

impl Admin {
    /// The admin service of `health` and `metrics`.
    pub fn new(health: Health, metrics: Option<Metrics>) -> Admin {
        Admin { health, metrics }
    }

    /// Answers one request.
    pub fn answer<B>(&self, request: &Request<B>) -> Response<Bytes> {
        let text = |status: StatusCode, body: String, content_type: &'static str| {
            let mut response = Response::new(Bytes::from(body));
            *response.status_mut() = status;
            response
                .headers_mut()
                .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
            response
        };
        const PLAIN: &str = "text/plain; charset=utf-8";
        if request.method() != Method::GET && request.method() != Method::HEAD {
            return text(StatusCode::METHOD_NOT_ALLOWED, "GET only\n".into(), PLAIN);
        }
        match request.uri().path() {
            "/healthz/live" => text(StatusCode::OK, "live\n".into(), PLAIN),
            "/healthz/ready" if self.health.is_ready() => {
                text(StatusCode::OK, "ready\n".into(), PLAIN)
            }
            "/healthz/ready" => {
                let why = if self.health.is_draining() {
                    "draining\n"
                } else {
                    "not ready\n"
                };
                text(StatusCode::SERVICE_UNAVAILABLE, why.into(), PLAIN)
            }
            "/metrics" => match &self.metrics {
                Some(metrics) => text(
                    StatusCode::OK,
                    metrics.render(),
                    "text/plain; version=0.0.4; charset=utf-8",
                ),
                None => text(StatusCode::NOT_FOUND, "no metrics\n".into(), PLAIN),
            },
            _ => text(StatusCode::NOT_FOUND, "not found\n".into(), PLAIN),
        }
    }

    /// Serves the admin address on `listener` until `shutdown` completes.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()>,
    ) -> std::io::Result<()> {
        let config = ServerConfig::default();
        crate::server::serve_with_shutdown(listener, self, config, shutdown).await
    }
}

impl tower_service::Service<Request<Incoming>> for Admin {
    type Response = Response<Full<Bytes>>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Incoming>) -> Self::Future {
        let response = self.answer(&request).map(Full::new);
        Box::pin(async move { Ok(response) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(path: &str) -> Request<()> {
        Request::builder().uri(path).body(()).unwrap()
    }

    #[test]
    fn readiness_fails_when_not_ready_and_when_draining() {
        let health = Health::new();
        let admin = Admin::new(health.clone(), Some(Metrics::new()));
        assert_eq!(admin.answer(&get("/healthz/live")).status(), 200);
        assert_eq!(admin.answer(&get("/healthz/ready")).status(), 200);
        health.set_ready(false);
        let not = admin.answer(&get("/healthz/ready"));
        assert_eq!(
            (not.status().as_u16(), not.body().as_ref()),
            (503, &b"not ready\n"[..])
        );
        health.set_ready(true);
        health.drain();
        let draining = admin.answer(&get("/healthz/ready"));
        assert_eq!(
            (draining.status().as_u16(), draining.body().as_ref()),
            (503, &b"draining\n"[..])
        );
        // Ready again does not undo a drain; liveness holds throughout.
        health.set_ready(true);
        assert_eq!(admin.answer(&get("/healthz/ready")).status(), 503);
        assert_eq!(admin.answer(&get("/healthz/live")).status(), 200);
        assert_eq!(
            admin.answer(&get("/api/rmm/MobileService.asmx")).status(),
            404
        );
        let post = Request::builder()
            .method("POST")
            .uri("/metrics")
            .body(())
            .unwrap();
        assert_eq!(admin.answer(&post).status(), 405);
    }

    #[test]
    fn metrics_are_served_as_prometheus_text() {
        let metrics = Metrics::new();
        metrics.started("Add", "json");
        metrics.ended("Add", "json", "ok", std::time::Duration::from_millis(2));
        let admin = Admin::new(Health::new(), Some(metrics));
        let response = admin.answer(&get("/metrics"));
        assert_eq!(response.status(), 200);
        let text = std::str::from_utf8(response.body()).unwrap();
        assert!(
            text.contains("rmm_calls_total{binding=\"json\",operation=\"Add\",outcome=\"ok\"} 1"),
            "{text}"
        );
        assert!(text.contains("rmm_calls_in_flight{binding=\"json\",operation=\"Add\"} 0"));
        assert!(text.contains(
            "rmm_call_duration_seconds_bucket{binding=\"json\",operation=\"Add\",le=\"0.0025\"} 1"
        ));
        assert!(text.contains(
            "rmm_call_duration_seconds_bucket{binding=\"json\",operation=\"Add\",le=\"0.001\"} 0"
        ));
        let none = Admin::new(Health::new(), None);
        assert_eq!(none.answer(&get("/metrics")).status(), 404);
    }
}
