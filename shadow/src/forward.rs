//! Sending a request on to a host and reading its whole answer: the primary's, the
//! candidate's and the secondary's in the shadow, the server's in a replay.

use std::time::Duration;

use bytes::Bytes;
use http::{header, HeaderMap, Request, Response, Uri};
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::TokioExecutor;

/// A pooled HTTP/1.1 client.
pub type HttpClient = Client<HttpConnector, Full<Bytes>>;

/// A client with idle connections kept 30 s.
pub fn client() -> HttpClient {
    Client::builder(TokioExecutor::new())
        .pool_idle_timeout(Duration::from_secs(30))
        .build_http()
}

/// Headers that belong to one connection, not to the message (RFC 9110, 7.6.1).
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

pub fn end_to_end(headers: &HeaderMap) -> HeaderMap {
    let mut out = headers.clone();
    for name in HOP_BY_HOP {
        out.remove(*name);
    }
    out
}

/// Sends `request` to `base` (its scheme and authority; the request's path and query kept,
/// and its Host header, so a host writes the addresses the client asked for) and reads the
/// whole answer.
pub async fn send(
    client: &HttpClient,
    base: &Uri,
    request: &Request<Bytes>,
    timeout: Duration,
) -> Result<Response<Bytes>, String> {
    let mut uri = Uri::builder();
    if let Some(scheme) = base.scheme() {
        uri = uri.scheme(scheme.clone());
    }
    if let Some(authority) = base.authority() {
        uri = uri.authority(authority.clone());
    }
    let target = request.uri().path_and_query().map_or("/", |p| p.as_str());
    let uri = uri
        .path_and_query(target)
        .build()
        .map_err(|e| e.to_string())?;
    let mut forward = Request::builder()
        .method(request.method().clone())
        .uri(uri)
        .body(Full::new(request.body().clone()))
        .map_err(|e| e.to_string())?;
    *forward.headers_mut() = end_to_end(request.headers());
    if !forward.headers().contains_key(header::HOST) {
        if let Some(authority) = base.authority() {
            if let Ok(value) = authority.as_str().parse() {
                forward.headers_mut().insert(header::HOST, value);
            }
        }
    }
    let exchange = async {
        let response = client.request(forward).await.map_err(|e| error_chain(&e))?;
        let (mut parts, body) = response.into_parts();
        let body = body
            .collect()
            .await
            .map_err(|e| error_chain(&e))?
            .to_bytes();
        parts.headers = end_to_end(&parts.headers);
        Ok(Response::from_parts(parts, body))
    };
    match tokio::time::timeout(timeout, exchange).await {
        Ok(answer) => answer,
        Err(_) => Err(format!("no answer within {timeout:?}")),
    }
}

pub fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(inner) = source {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        source = inner.source();
    }
    text
}
