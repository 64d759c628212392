//! The client side of HTTP/1.1 over raw TCP, as small as the soak needs: requests are written
//! byte for byte as built (so that hostile ones can be cut anywhere), answers are read with
//! `Content-Length` framing (the generated server always sends one) and compared whole.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::header::{CONTENT_LENGTH, HOST, TRANSFER_ENCODING};
use rmm_mobile::runtime::deps::http::{HeaderValue, Request, Response};

/// How long a client waits for an answer before calling the server hung.
pub const READ_TIMEOUT: Duration = Duration::from_secs(60);

/// An answer: status, headers (lower-case names, in the order received) and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Bytes,
}

impl Answer {
    /// The answer a response made in-process stands for.
    pub fn from_response(response: Response<Bytes>) -> Answer {
        let (parts, body) = response.into_parts();
        let headers = parts
            .headers
            .iter()
            .map(|(name, value)| {
                let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
                (name.as_str().to_owned(), value)
            })
            .collect();
        Answer {
            status: parts.status.as_u16(),
            headers,
            body,
        }
    }

    /// The first value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Why this live answer is not `expected` (made in-process), or `None` when it is: same
    /// status, same body bytes, same headers but for `Date`, which hyper adds on the wire
    /// (as it adds `Content-Length` where the in-process answer has none).
    pub fn difference(&self, expected: &Answer) -> Option<String> {
        if self.status != expected.status {
            return Some(format!(
                "status {} instead of {}",
                self.status, expected.status
            ));
        }
        if self.body != expected.body {
            let at = self
                .body
                .iter()
                .zip(expected.body.iter())
                .position(|(a, b)| a != b)
                .unwrap_or(self.body.len().min(expected.body.len()));
            return Some(format!(
                "body of {} bytes instead of {}, first difference at byte {at}",
                self.body.len(),
                expected.body.len()
            ));
        }
        let mut live: Vec<&(String, String)> =
            self.headers.iter().filter(|(n, _)| n != "date").collect();
        let added_length = (
            String::from("content-length"),
            expected.body.len().to_string(),
        );
        let mut wanted: Vec<&(String, String)> = expected.headers.iter().collect();
        if expected.header("content-length").is_none() {
            wanted.push(&added_length);
        }
        live.sort();
        wanted.sort();
        (live != wanted).then(|| format!("headers {live:?} instead of {wanted:?}"))
    }
}

/// Gives `request` what a client puts on the wire besides it: `Host`, and `Content-Length`
/// for a body (or a POST/PUT) unless it is chunked. The same request then goes to the server
/// in-process, so that both see the same headers.
pub fn complete(mut request: Request<Bytes>, host: &str) -> Request<Bytes> {
    let headers = request.headers_mut();
    headers.insert(HOST, HeaderValue::from_str(host).expect("a host header"));
    let chunked = headers.contains_key(TRANSFER_ENCODING);
    let has_body =
        !request.body().is_empty() || ["POST", "PUT"].contains(&request.method().as_str());
    if has_body && !chunked && !request.headers().contains_key(CONTENT_LENGTH) {
        let len = request.body().len();
        request
            .headers_mut()
            .insert(CONTENT_LENGTH, HeaderValue::from(len));
    }
    request
}

/// The head of `request` as written on the wire: request line, headers, blank line.
pub fn head_bytes(request: &Request<Bytes>) -> Vec<u8> {
    let target = request.uri().path_and_query().map_or("/", |p| p.as_str());
    let mut out = format!("{} {target} HTTP/1.1\r\n", request.method()).into_bytes();
    for (name, value) in request.headers() {
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"\r\n");
    out
}

/// The whole request on the wire: its head, then its body as is, or in chunks of 64 KiB
/// when it says `Transfer-Encoding: chunked`.
pub fn wire_bytes(request: &Request<Bytes>) -> Vec<u8> {
    let mut out = head_bytes(request);
    if !request.headers().contains_key(TRANSFER_ENCODING) {
        out.extend_from_slice(request.body());
        return out;
    }
    for chunk in request.body().chunks(64 * 1024) {
        out.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        out.extend_from_slice(chunk);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

/// Reads one answer from the start of `buf`: `Ok(None)` while it is incomplete, else the
/// answer and how many bytes it took.
pub fn parse_answer(buf: &[u8]) -> Result<Option<(Answer, usize)>, String> {
    let Some(head_len) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
        return Ok(None);
    };
    let head = std::str::from_utf8(&buf[..head_len]).map_err(|e| format!("head: {e}"))?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status = status_line
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse::<u16>().ok())
        .ok_or_else(|| format!("status line {status_line:?}"))?;
    let mut headers = Vec::new();
    for line in lines {
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| format!("header line {line:?}"))?;
        headers.push((name.to_ascii_lowercase(), value.trim().to_owned()));
    }
    let mut answer = Answer {
        status,
        headers,
        body: Bytes::new(),
    };
    if answer.header("transfer-encoding").is_some() {
        return Err("a chunked answer (the server sends Content-Length)".to_owned());
    }
    let len: usize = answer
        .header("content-length")
        .ok_or("an answer without Content-Length")?
        .parse()
        .map_err(|e| format!("Content-Length: {e}"))?;
    let start = head_len + 4;
    if buf.len() < start + len {
        return Ok(None);
    }
    answer.body = Bytes::copy_from_slice(&buf[start..start + len]);
    Ok(Some((answer, start + len)))
}

/// One client connection: writes requests, reads their answers in order.
pub struct Connection {
    stream: TcpStream,
    /// Bytes read and not yet taken by an answer (pipelined answers wait here).
    buf: Vec<u8>,
}

impl Connection {
    /// Connects to `addr` (no Nagle delay; reads time out after [`READ_TIMEOUT`], so that a
    /// hung server fails the run instead of stalling it).
    pub fn open(addr: SocketAddr) -> io::Result<Connection> {
        let stream = TcpStream::connect(addr)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(READ_TIMEOUT))?;
        Ok(Connection {
            stream,
            buf: Vec::with_capacity(16 * 1024),
        })
    }

    /// The socket, e.g. to clone it for a writer thread.
    pub fn stream(&self) -> &TcpStream {
        &self.stream
    }

    /// Writes `bytes` in one call.
    pub fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.stream.write_all(bytes)
    }

    /// Writes a request and reads its answer.
    pub fn call(&mut self, request: &[u8]) -> io::Result<Answer> {
        self.send(request)?;
        self.read_answer()
    }

    /// Reads the next answer. The server closing before a whole answer is `UnexpectedEof`;
    /// bytes that are no answer are `InvalidData`.
    pub fn read_answer(&mut self) -> io::Result<Answer> {
        loop {
            match parse_answer(&self.buf) {
                Ok(Some((answer, used))) => {
                    self.buf.drain(..used);
                    return Ok(answer);
                }
                Ok(None) => {}
                Err(e) => return Err(io::Error::new(io::ErrorKind::InvalidData, e)),
            }
            if self.fill()? == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!("closed after {} bytes of an answer", self.buf.len()),
                ));
            }
        }
    }

    /// Whether the server closes the connection within `wait` (with nothing more to say).
    pub fn closed_within(&mut self, wait: Duration) -> io::Result<bool> {
        self.stream.set_read_timeout(Some(wait))?;
        let result = match self.fill() {
            Ok(0) => Ok(self.buf.is_empty()),
            Ok(_) => Ok(false),
            Err(e) if e.kind() == io::ErrorKind::ConnectionReset => Ok(self.buf.is_empty()),
            Err(e) if is_timeout(&e) => Ok(false),
            Err(e) => Err(e),
        };
        self.stream.set_read_timeout(Some(READ_TIMEOUT))?;
        result
    }

    /// Reads what has arrived into the buffer; 0 at the end of the stream.
    fn fill(&mut self) -> io::Result<usize> {
        let mut chunk = [0u8; 16 * 1024];
        let n = self.stream.read(&mut chunk)?;
        self.buf.extend_from_slice(&chunk[..n]);
        Ok(n)
    }
}

/// Whether a read error is a read timeout (`WouldBlock` or `TimedOut`, by platform).
pub fn is_timeout(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}
