//! The generated server mounted in an axum [`Router`] beside the application's own routes:
//! the service answers on its endpoint path (the spec's, `SERVICE.path`) and the operation
//! paths below it, on all four bindings with `?wsdl` and the help pages; everything else is
//! the application's.
//!
//! ```sh
//! cargo run -p rmm-tests --example axum_router -- --listen 127.0.0.1:8080
//! ```
//!
//! `MobileServiceServer` is a `tower::Service` that never fails, so it mounts with
//! `route_service`, which keeps the request's whole path (the server routes by it; `nest_service`
//! would strip the prefix).

#[allow(dead_code)]
#[path = "../../generated/examples/echo_server.rs"]
mod echo_server;

use axum::routing::get;
use axum::Router;
use rmm_mobile::{MobileServiceServer, SERVICE};

/// The application: its own `/health` route, and the service at the spec's path.
pub fn app() -> Router {
    let service = MobileServiceServer::new(echo_server::Echo);
    Router::new()
        .route("/health", get(|| async { "ok" }))
        // The endpoint: SOAP 1.1 and 1.2, `?wsdl`, the help pages.
        .route_service(SERVICE.path, service.clone())
        // HTTP GET and POST: `{path}/{Operation}`.
        .route_service(&format!("{}/{{operation}}", SERVICE.path), service)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let listen = match (args.next().as_deref(), args.next()) {
        (Some("--listen"), Some(addr)) => addr,
        (None, None) => "127.0.0.1:8080".to_owned(),
        _ => {
            eprintln!("usage: axum_router [--listen ADDR]");
            std::process::exit(2);
        }
    };
    let listener = tokio::net::TcpListener::bind(&listen).await?;
    println!(
        "listening on http://{}{}",
        listener.local_addr()?,
        SERVICE.path
    );
    axum::serve(listener, app()).await
}
