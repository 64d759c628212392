//! Requests and responses as the HTTP/1.1 text they travel as: for examples and captures.

use bytes::Bytes;
use http::{Request, Response};

/// `METHOD PATH HTTP/1.1`, the headers, a blank line, the body (as UTF-8, lossily).
pub fn request_text(request: &Request<Bytes>) -> String {
    let target = request.uri().path_and_query().map_or("/", |p| p.as_str());
    let mut text = format!("{} {target} HTTP/1.1\r\n", request.method());
    headers(&mut text, request.headers());
    text.push_str(&String::from_utf8_lossy(request.body()));
    text
}

/// `HTTP/1.1 STATUS REASON`, the headers, a blank line, the body.
pub fn response_text(response: &Response<Bytes>) -> String {
    let status = response.status();
    let mut text = format!(
        "HTTP/1.1 {} {}\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or_default()
    );
    headers(&mut text, response.headers());
    text.push_str(&String::from_utf8_lossy(response.body()));
    text
}

fn headers(text: &mut String, headers: &http::HeaderMap) {
    for (name, value) in headers {
        text.push_str(name.as_str());
        text.push_str(": ");
        text.push_str(&String::from_utf8_lossy(value.as_bytes()));
        text.push_str("\r\n");
    }
    text.push_str("\r\n");
}
