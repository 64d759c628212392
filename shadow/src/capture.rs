//! The project's capture format: one exchange a file, the request exactly as sent and the
//! response exactly as received. `cargo xtask interop --record` writes the reference hosts'
//! exchanges in it (`tests/fixtures/*/asmx/`), `rmm shadow --record` a day of production
//! traffic, and `rmm replay` sends them again.
//!
//! ```text
//! ### NAME
//! ### what the case is
//! ### ==== REQUEST (N bytes) ====
//! N bytes of request, exactly as sent
//! ### ==== RESPONSE (M bytes) ====
//! M bytes of response, exactly as received
//! ### ==== END ====
//! ```
//!
//! The line break before each `###` marker is the file's, not the message's; the byte counts
//! say where each message ends. A file with a request and no response section is a case not
//! recorded yet.

use std::path::{Path, PathBuf};

use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, Request, Response};

/// The marker lines of a capture file.
const REQUEST_MARK: &str = "### ==== REQUEST";
const RESPONSE_MARK: &str = "### ==== RESPONSE";
const END_MARK: &str = "### ==== END ====";

/// The most headers a recorded message is read with.
const MAX_HEADERS: usize = 128;

/// One capture file as bytes: the request exactly as sent, the response exactly as received
/// (absent while the case is not recorded yet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawCapture {
    /// The file stem.
    pub name: String,
    /// What the case is, one line.
    pub what: String,
    /// The request bytes.
    pub request: Vec<u8>,
    /// The response bytes, once recorded.
    pub response: Option<Vec<u8>>,
}

impl RawCapture {
    /// Reads a capture file's text; `name` is for messages.
    pub fn parse(name: &str, file: &[u8]) -> Result<RawCapture, String> {
        let mut rest = file;
        let title = next_line(name, &mut rest)?;
        if title != format!("### {name}") {
            return Err(format!(
                "{name}: the first line is {title:?}, not `### {name}`"
            ));
        }
        let what = next_line(name, &mut rest)?
            .strip_prefix("### ")
            .ok_or_else(|| format!("{name}: the second line is not `### what`"))?
            .to_owned();
        let request = section(name, &mut rest, REQUEST_MARK)?;
        let response = if rest.starts_with(RESPONSE_MARK.as_bytes()) {
            Some(section(name, &mut rest, RESPONSE_MARK)?)
        } else {
            None
        };
        if next_line(name, &mut rest)? != END_MARK || !rest.is_empty() {
            return Err(format!("{name}: expected `{END_MARK}` as the last line"));
        }
        Ok(RawCapture {
            name: name.to_owned(),
            what,
            request,
            response,
        })
    }

    /// The file's bytes.
    pub fn to_file(&self) -> Vec<u8> {
        let mut out = format!("### {}\n### {}\n", self.name, self.what).into_bytes();
        let mut put = |mark: &str, bytes: &[u8]| {
            out.extend_from_slice(format!("{mark} ({} bytes) ====\n", bytes.len()).as_bytes());
            out.extend_from_slice(bytes);
            out.push(b'\n');
        };
        put(REQUEST_MARK, &self.request);
        if let Some(response) = &self.response {
            put(RESPONSE_MARK, response);
        }
        out.extend_from_slice(END_MARK.as_bytes());
        out.push(b'\n');
        out
    }

    /// An exchange as HTTP/1.1 bytes, each body framed by a `Content-Length` of its length
    /// (a chunked message is written as the whole of its body).
    pub fn from_exchange(
        name: &str,
        what: &str,
        request: &Request<Bytes>,
        response: &Response<Bytes>,
    ) -> RawCapture {
        let target = request.uri().path_and_query().map_or("/", |p| p.as_str());
        let request_line = format!("{} {target} HTTP/1.1", request.method());
        let status = response.status();
        let status_line = format!(
            "HTTP/1.1 {} {}",
            status.as_u16(),
            status.canonical_reason().unwrap_or_default()
        );
        RawCapture {
            name: name.to_owned(),
            what: what.replace(['\r', '\n'], " "),
            request: message_bytes(&request_line, request.headers(), request.body()),
            response: Some(message_bytes(
                &status_line,
                response.headers(),
                response.body(),
            )),
        }
    }

    /// The request, to send again.
    pub fn http_request(&self) -> Result<Request<Bytes>, String> {
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut parsed = httparse::Request::new(&mut headers);
        let head = match parsed.parse(&self.request) {
            Ok(httparse::Status::Complete(head)) => head,
            Ok(httparse::Status::Partial) => {
                return Err(format!("{}: the request's head is not complete", self.name))
            }
            Err(e) => return Err(format!("{}: the request is not HTTP: {e}", self.name)),
        };
        let mut request = Request::builder()
            .method(parsed.method.unwrap_or("GET"))
            .uri(parsed.path.unwrap_or("/"));
        let map = header_map(&self.name, parsed.headers)?;
        let body = body(&self.name, &map, &self.request[head..])?;
        if let Some(headers) = request.headers_mut() {
            *headers = map;
        }
        request
            .body(body)
            .map_err(|e| format!("{}: the request is not HTTP: {e}", self.name))
    }

    /// The recorded response.
    pub fn http_response(&self) -> Result<Response<Bytes>, String> {
        let raw = self
            .response
            .as_deref()
            .ok_or_else(|| format!("{}: no response is recorded", self.name))?;
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut parsed = httparse::Response::new(&mut headers);
        let head = match parsed.parse(raw) {
            Ok(httparse::Status::Complete(head)) => head,
            Ok(httparse::Status::Partial) => {
                return Err(format!(
                    "{}: the response's head is not complete",
                    self.name
                ))
            }
            Err(e) => return Err(format!("{}: the response is not HTTP: {e}", self.name)),
        };
        let map = header_map(&self.name, parsed.headers)?;
        let body = body(&self.name, &map, &raw[head..])?;
        let mut response = Response::builder().status(parsed.code.unwrap_or(200));
        if let Some(headers) = response.headers_mut() {
            *headers = map;
        }
        response
            .body(body)
            .map_err(|e| format!("{}: the response is not HTTP: {e}", self.name))
    }
}

fn message_bytes(start_line: &str, headers: &HeaderMap, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 512);
    out.extend_from_slice(start_line.as_bytes());
    out.extend_from_slice(b"\r\n");
    let mut length_written = false;
    for (name, value) in headers {
        if name == http::header::TRANSFER_ENCODING {
            continue;
        }
        if name == http::header::CONTENT_LENGTH {
            if length_written {
                continue;
            }
            length_written = true;
            out.extend_from_slice(format!("Content-Length: {}\r\n", body.len()).as_bytes());
            continue;
        }
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    if !length_written && !body.is_empty() {
        out.extend_from_slice(format!("Content-Length: {}\r\n", body.len()).as_bytes());
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(body);
    out
}

fn header_map(name: &str, headers: &[httparse::Header]) -> Result<HeaderMap, String> {
    let mut map = HeaderMap::with_capacity(headers.len());
    for header in headers {
        let key = HeaderName::from_bytes(header.name.as_bytes())
            .map_err(|e| format!("{name}: header {:?}: {e}", header.name))?;
        let value = HeaderValue::from_bytes(header.value)
            .map_err(|e| format!("{name}: header {:?}: {e}", header.name))?;
        map.append(key, value);
    }
    Ok(map)
}

/// A message's body after its head: by `Content-Length`, by its chunks, or all that follows.
fn body(name: &str, headers: &HeaderMap, rest: &[u8]) -> Result<Bytes, String> {
    let chunked = headers
        .get_all(http::header::TRANSFER_ENCODING)
        .iter()
        .any(|v| v.as_bytes().eq_ignore_ascii_case(b"chunked"));
    if chunked {
        let mut out = Vec::new();
        let mut rest = rest;
        loop {
            let (start, size) = match httparse::parse_chunk_size(rest) {
                Ok(httparse::Status::Complete(found)) => found,
                _ => return Err(format!("{name}: a chunk's size is not readable")),
            };
            let size = usize::try_from(size).map_err(|_| format!("{name}: a chunk too large"))?;
            if size == 0 {
                return Ok(Bytes::from(out));
            }
            let chunk = rest
                .get(start..start + size)
                .ok_or_else(|| format!("{name}: a chunk is cut short"))?;
            out.extend_from_slice(chunk);
            rest = rest.get(start + size + 2..).unwrap_or_default();
        }
    }
    let length = headers
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok());
    Ok(match length {
        Some(length) => Bytes::copy_from_slice(&rest[..length.min(rest.len())]),
        None => Bytes::copy_from_slice(rest),
    })
}

/// Reads one marker line (UTF-8, ended by a line break).
fn next_line(name: &str, rest: &mut &[u8]) -> Result<String, String> {
    let end = rest
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| format!("{name}: a line is not ended"))?;
    let text = std::str::from_utf8(&rest[..end])
        .map_err(|_| format!("{name}: a marker line is not UTF-8"))?
        .to_owned();
    *rest = &rest[end + 1..];
    Ok(text)
}

/// Reads `MARK (N bytes) ====`, then N bytes and the line break after them.
fn section(name: &str, rest: &mut &[u8], mark: &str) -> Result<Vec<u8>, String> {
    let head = next_line(name, rest)?;
    let count = head
        .strip_prefix(mark)
        .and_then(|h| h.strip_prefix(" ("))
        .and_then(|h| h.split_once(" bytes"))
        .and_then(|(n, _)| n.parse::<usize>().ok())
        .ok_or_else(|| format!("{name}: expected `{mark} (N bytes …) ====`, found {head:?}"))?;
    let bytes = rest
        .get(..count)
        .ok_or_else(|| format!("{name}: {mark} says {count} bytes; the file ends before"))?;
    if rest.get(count) != Some(&b'\n') {
        return Err(format!(
            "{name}: {mark} says {count} bytes, and no line break follows them"
        ));
    }
    let bytes = bytes.to_vec();
    *rest = &rest[count + 1..];
    Ok(bytes)
}

/// Every capture file (`*.txt`) of `dir`, sorted by name.
pub fn read_dir(dir: &Path) -> Result<Vec<RawCapture>, String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            RawCapture::parse(name, &bytes)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exchange_written_reads_back_as_it_was() {
        let request = Request::builder()
            .method("POST")
            .uri("/api/S.asmx")
            .header("host", "127.0.0.1:1")
            .header("content-type", "text/xml; charset=utf-8")
            .header("content-length", "7")
            .body(Bytes::from_static(b"<a>1</a>"))
            .unwrap();
        let response = Response::builder()
            .status(500)
            .header("transfer-encoding", "chunked")
            .header("content-type", "text/xml; charset=utf-8")
            .body(Bytes::from_static(b"<f/>"))
            .unwrap();
        let capture = RawCapture::from_exchange("one", "a case\nof two lines", &request, &response);
        let file = capture.to_file();
        let read = RawCapture::parse("one", &file).unwrap();
        assert_eq!(read, capture);
        assert_eq!(read.what, "a case of two lines");
        // The stale length is replaced by the body's, the chunked framing by a length.
        assert!(String::from_utf8_lossy(&read.request).contains("Content-Length: 8\r\n"));
        let (request, response) = (read.http_request().unwrap(), read.http_response().unwrap());
        assert_eq!(request.uri(), "/api/S.asmx");
        assert_eq!(&request.body()[..], b"<a>1</a>");
        assert_eq!(response.status(), 500);
        assert_eq!(&response.body()[..], b"<f/>");
        assert!(response.headers().get("transfer-encoding").is_none());
    }

    #[test]
    fn a_chunked_recording_is_read_whole() {
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
        let capture = RawCapture {
            name: "c".into(),
            what: "chunked".into(),
            request: b"GET / HTTP/1.1\r\n\r\n".to_vec(),
            response: Some(raw.to_vec()),
        };
        assert_eq!(&capture.http_response().unwrap().body()[..], b"abcde");
    }

    #[test]
    fn a_broken_file_is_named() {
        let error = RawCapture::parse(
            "x",
            b"### x\n### what\n### ==== REQUEST (99 bytes) ====\nGET",
        )
        .unwrap_err();
        assert!(error.contains("says 99 bytes"), "{error}");
    }
}
