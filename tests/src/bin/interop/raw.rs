//! Raw HTTP/1.1 over a TCP stream: the same request bytes to any server, and its response
//! read back by its framing (Content-Length, chunked, or the peer closing).

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::time::Duration;

use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::{self, Request};
use rmm_mobile::runtime::deps::tokio;
use rmm_tests::captures;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[derive(Debug, Clone)]
pub(crate) struct Raw {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Raw {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The raw bytes of `request` with `Host: host` and `Connection: close`.
pub(crate) fn raw_request(request: &Request<Bytes>, host: &str) -> Vec<u8> {
    let mut head = format!(
        "{} {} HTTP/1.1\r\nHost: {host}\r\n",
        request.method(),
        request.uri()
    );
    for (name, value) in request.headers() {
        if [
            http::header::HOST,
            http::header::CONTENT_LENGTH,
            http::header::CONNECTION,
        ]
        .contains(name)
        {
            continue;
        }
        let _ = write!(
            head,
            "{name}: {}\r\n",
            String::from_utf8_lossy(value.as_bytes())
        );
    }
    if !request.body().is_empty() || request.method() != http::Method::GET {
        let _ = write!(head, "Content-Length: {}\r\n", request.body().len());
    }
    head.push_str("Connection: close\r\n\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(request.body());
    bytes
}

/// A recorded request as raw bytes, its `Host` replaced by `host`.
pub(crate) fn raw_capture_request(c: &captures::Capture, host: &str) -> Vec<u8> {
    let mut head = format!("{}\r\n", c.request.start_line);
    for (name, value) in &c.request.headers {
        if name.eq_ignore_ascii_case("host") {
            let _ = write!(head, "{name}: {host}\r\n");
        } else if name.eq_ignore_ascii_case("connection") {
            continue;
        } else {
            let _ = write!(head, "{name}: {value}\r\n");
        }
    }
    head.push_str("Connection: close\r\n\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(&c.request.body);
    bytes
}

/// Sends `request` on a connection of its own and returns the response as parsed.
pub(crate) async fn exchange(addr: SocketAddr, request: &[u8]) -> Result<Raw, String> {
    parse_response(&exchange_bytes(addr, request).await?, true)
}

/// Sends `request` on a connection of its own and returns the response's bytes as they came:
/// up to its end by its framing (a keep-alive connection stays open), or the connection's end.
pub(crate) async fn exchange_bytes(addr: SocketAddr, request: &[u8]) -> Result<Vec<u8>, String> {
    let work = async {
        let mut stream = tokio::net::TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connect {addr}: {e}"))?;
        stream
            .write_all(request)
            .await
            .map_err(|e| format!("write: {e}"))?;
        let mut buf = Vec::new();
        let mut chunk = [0u8; 16384];
        loop {
            let n = stream
                .read(&mut chunk)
                .await
                .map_err(|e| format!("read: {e}"))?;
            if n == 0 {
                return Ok(buf);
            }
            buf.extend_from_slice(&chunk[..n]);
            if parse_response(&buf, false).is_ok() {
                return Ok(buf);
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(60), work)
        .await
        .map_err(|_| format!("no response from {addr} within 60 s"))?
}

/// What [`parse_response`] says of a response not yet complete.
const INCOMPLETE: &str = "incomplete response";

/// Parses a response; `closed`: the peer closed the connection (no more bytes will come).
pub(crate) fn parse_response(mut raw: &[u8], closed: bool) -> Result<Raw, String> {
    let incomplete = |what: &str| {
        if closed {
            what.to_owned()
        } else {
            INCOMPLETE.to_owned()
        }
    };
    loop {
        let end = captures::find(raw, b"\r\n\r\n")
            .ok_or_else(|| incomplete("no end of head in the response"))?;
        let head = std::str::from_utf8(&raw[..end]).map_err(|e| format!("head: {e}"))?;
        let mut lines = head.split("\r\n");
        let status_line = lines.next().unwrap_or_default();
        let status: u16 = status_line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("bad status line {status_line:?}"))?;
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
            .collect();
        let rest = &raw[end + 4..];
        if (100..200).contains(&status) {
            raw = rest;
            continue;
        }
        let find = |name: &str| {
            headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        let body = if find("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
            dechunk(rest).map_err(|e| incomplete(&e))?
        } else if let Some(len) = find("content-length") {
            let len: usize = len.parse().map_err(|e| format!("content-length: {e}"))?;
            rest.get(..len)
                .ok_or_else(|| incomplete("body shorter than content-length"))?
                .to_vec()
        } else if closed {
            rest.to_vec()
        } else {
            return Err(INCOMPLETE.to_owned());
        };
        return Ok(Raw {
            status,
            headers,
            body,
        });
    }
}

fn dechunk(mut rest: &[u8]) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    loop {
        let line_end = captures::find(rest, b"\r\n").ok_or("bad chunk")?;
        let size_text = std::str::from_utf8(&rest[..line_end]).map_err(|e| e.to_string())?;
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|e| format!("chunk size {size_text:?}: {e}"))?;
        rest = &rest[line_end + 2..];
        if size == 0 {
            return Ok(body);
        }
        body.extend_from_slice(rest.get(..size).ok_or("short chunk")?);
        rest = rest.get(size + 2..).ok_or("short chunk")?;
    }
}
