//! The whole server path, `MobileServiceServer::handle`, with the echo service: routing,
//! content negotiation, every decoder, the service, every encoder, the error pages.

use std::future::Future;
use std::pin::pin;
use std::sync::OnceLock;
use std::task::{Context, Poll, Waker};

use rmm_mobile::runtime::deps::http::StatusCode;
use rmm_mobile::runtime::server::panic_fault;
use rmm_mobile::MobileServiceServer;

use crate::input::http_request;
use crate::Outcome;

#[allow(dead_code)]
#[path = "../../../generated/examples/echo_server.rs"]
mod echo_server;

/// One server for every input, as one server meets every request.
fn server() -> &'static MobileServiceServer<echo_server::Echo> {
    static SERVER: OnceLock<MobileServiceServer<echo_server::Echo>> = OnceLock::new();
    SERVER.get_or_init(|| MobileServiceServer::new(echo_server::Echo))
}

/// Input: a raw HTTP/1.x request (start line, headers, empty line, body).
pub fn handle(data: &[u8]) -> Outcome {
    let Some(request) = http_request(data) else {
        return Outcome::NotReached;
    };
    let response = ready(server().handle(request));
    // The echo service never panics, so the panic fault means a panic in the server's own
    // code that the handler guard caught (outside AFL++, whose hook aborts at once).
    if response.status() == StatusCode::INTERNAL_SERVER_ERROR {
        let body = String::from_utf8_lossy(response.body());
        assert!(
            !body.contains(&panic_fault().reason),
            "the server panicked: {body}"
        );
    }
    Outcome::of(response.status() == StatusCode::OK)
}

/// The output of a future that completes without waiting: the body is already read and the
/// echo service never waits.
fn ready<F: Future>(future: F) -> F::Output {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the server waited on a request whose body is read"),
    }
}
