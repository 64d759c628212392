//! The blocking client's calls are the async client's trace spans. In a test binary of its
//! own: tracing caches per call site whether anyone listens, which other tests running at
//! the same time in the same process would make flaky.

#[allow(dead_code)]
#[path = "../../generated/examples/echo_server.rs"]
mod echo_server;

use rmm_mobile::*;
use rmm_tests::threaded::start;

fn credentials() -> Credentials {
    Credentials {
        repnumber: 42,
        timestamp: Some("2026-01-01T00:00:00Z".into()),
        sig: Some("abc".into()),
        mobilekey: Some("mk-1".into()),
    }
}

/// Records the spans opened on this thread: name and fields.
#[derive(Default)]
struct Spans(std::sync::Mutex<Vec<String>>);

impl tracing::Subscriber for Spans {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        struct Fields(String);
        impl tracing::field::Visit for Fields {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                self.0.push_str(&format!(" {}={value:?}", field.name()));
            }
        }
        let mut fields = Fields(span.metadata().name().to_owned());
        span.record(&mut fields);
        let mut spans = self.0.lock().unwrap();
        spans.push(fields.0);
        tracing::span::Id::from_u64(spans.len() as u64)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, _: &tracing::Event<'_>) {}
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[test]
fn each_call_is_the_async_clients_trace_span() {
    let server = start(MobileServiceServer::new(echo_server::Echo));
    let client = MobileServiceBlockingClient::new(&server.base, StaticSigner(credentials()))
        .with_binding(Binding::HttpPost);
    let spans = std::sync::Arc::new(Spans::default());
    let request = MobileServiceOrderLockCheck { sonumber: 5 };
    tracing::subscriber::with_default(spans.clone(), || {
        client.mobile_service_order_lock_check(&request).unwrap();
    });
    let spans = spans.0.lock().unwrap();
    assert!(
        spans.iter().any(
            |s| s == "rmm.call operation=\"MobileServiceOrderLockCheck\" binding=\"HTTP POST\""
        ),
        "{spans:?}"
    );
}
