//! The exchanges recorded from the project's reference ASMX host (`tests/interop/asmx/`), kept
//! in `tests/fixtures/asmx/` and written by `cargo xtask interop --record`.
//!
//! One file per exchange, `NAME.txt`:
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
//! yet recorded: the recorder sends its request and fills the response in.

use std::path::{Path, PathBuf};

/// The file format is rmm-shadow's: `rmm shadow --record` writes it and `rmm replay` reads it.
pub use rmm_shadow::capture::RawCapture;

use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::{self, Request};

/// Where our answer differs from the host's on purpose: (capture, our status, why).
/// `tests/tests/fidelity.rs` replays these through our server, `cargo xtask interop`
/// against the live host.
pub const DELIBERATE: &[(&str, u16, &str)] = &[
    (
        "soap11-op12-unqualified-params",
        500,
        "the host reads unqualified parameters as absent",
    ),
    (
        "soap12-op12-unqualified-params",
        500,
        "the host reads unqualified parameters as absent",
    ),
    (
        "soap11-op12-nil-string",
        500,
        "the host reads xsi:nil strings as \"\"; no parameter is nillable",
    ),
    (
        "soap12-op12-nil-string",
        500,
        "the host reads xsi:nil strings as \"\"; no parameter is nillable",
    ),
    (
        "soap11-op12-wrong-namespace",
        500,
        "the host defaults every parameter of an operation in another namespace",
    ),
    (
        "soap12-op12-wrong-namespace",
        500,
        "the host defaults every parameter of an operation in another namespace",
    ),
    (
        "soap11-op12-wrong-soapaction",
        500,
        "the host runs the SOAPAction's operation with defaulted parameters",
    ),
    (
        "soap12-op12-wrong-soapaction",
        500,
        "the host runs the action's operation with defaulted parameters",
    ),
    ("get-op09-decimal-comma", 500, "the host reads 1,5 as 15"),
    ("post-op09-decimal-comma", 500, "the host reads 1,5 as 15"),
    (
        "get-op09-decimal-thousands",
        500,
        "the host reads 1,234.5 as 1234.5",
    ),
    (
        "post-op09-decimal-thousands",
        500,
        "the host reads 1,234.5 as 1234.5",
    ),
    (
        "get-op12-repeated-param",
        500,
        "the host joins repeated values with commas",
    ),
    (
        "post-op12-repeated-param",
        500,
        "the host joins repeated values with commas",
    ),
    (
        "soap11-op14-not-utf8-in-value",
        400,
        "the host reads a byte that is not UTF-8 as U+FFFD and answers with it",
    ),
    (
        "post-op12-json",
        500,
        "ASP.NET AJAX's JSON handler is not part of the interface's four bindings",
    ),
];

/// Recorded exchanges about the transport (nginx's framing), not the service.
pub const TRANSPORT: &[&str] = &[
    "soap11-op12-ok-chunked-request",
    "soap11-op12-ok-expect-100-continue",
];

/// One recorded HTTP message.
pub struct Message {
    /// The request or status line.
    pub start_line: String,
    /// Headers in order, as recorded.
    pub headers: Vec<(String, String)>,
    /// The body (by Content-Length).
    pub body: Vec<u8>,
}

impl Message {
    /// The first header of that name (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One recorded exchange.
pub struct Capture {
    /// The capture's file stem.
    pub name: String,
    /// What the client sent.
    pub request: Message,
    /// What the host answered.
    pub response: Message,
}

impl Capture {
    /// The recorded request as an `http` request, to hand to a server's `handle`.
    pub fn http_request(&self) -> Request<Bytes> {
        let mut parts = self.request.start_line.split(' ');
        let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        let mut request = Request::builder().method(method).uri(target);
        for (name, value) in &self.request.headers {
            request = request.header(name, value);
        }
        request
            .body(Bytes::from(self.request.body.clone()))
            .unwrap_or_else(|e| panic!("{}: the recorded request is not HTTP: {e}", self.name))
    }
}

/// What differs between the host's recorded answer and `ours`, as the replay tests compare
/// them: status, `Content-Type` and `Cache-Control` always; a result's body byte for byte (our
/// `&#xD;` read as the host's raw CR, the one deliberate difference in a result); an HTML
/// page by those alone (the host's pages are Mono's own); the one GET/POST error text copied
/// from ASP.NET (request validation) exactly; a fault by its code; an empty body as empty.
/// Other error texts are the host's own (Mono leaves `{0}` placeholders in them) and ours
/// are sentences: not compared.
pub fn answer_differences(host: &Message, ours: &http::Response<Bytes>) -> Vec<String> {
    let header = |name: &str| {
        ours.headers()
            .get(name)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    };
    let (host_status, ours_status) = (status(host), ours.status().as_u16());
    let host_body = String::from_utf8_lossy(&host.body).into_owned();
    let ours_body = String::from_utf8_lossy(ours.body()).into_owned();
    let mut problems = Vec::new();
    if ours_status != host_status {
        problems.push(format!("status {ours_status}, host {host_status}"));
    }
    for name in ["content-type", "cache-control"] {
        let host = host.header(name).map(str::to_owned);
        if header(name) != host {
            problems.push(format!("{name} {:?}, host {host:?}", header(name)));
        }
    }
    let html = host
        .header("content-type")
        .is_some_and(|t| t.starts_with("text/html"));
    if host_status == 200 && !html {
        if ours.body().contains(&b'\r') || with_raw_cr(ours.body()) != host.body {
            problems.push(format!("body {ours_body:?}\n    host {host_body:?}"));
        }
    } else if host_body.starts_with("A potentially dangerous Request.") {
        if ours_body != host_body {
            problems.push(format!("body {ours_body:?}\n    host {host_body:?}"));
        }
    } else if let Some(code) = fault_code(&host_body) {
        if fault_code(&ours_body) != Some(code) {
            let ours = fault_code(&ours_body);
            problems.push(format!("fault code {ours:?}, host {code}"));
        }
    } else if host_body.is_empty() != ours_body.is_empty() {
        problems.push(format!("body {ours_body:?}, host {host_body:?}"));
    }
    problems
}

/// What differs between the host's recorded answer to a call of ASMX's JSON face (a
/// `[ScriptService]`'s: `Content-Type: application/json`) and `ours`, as
/// [`answer_differences`] compares the others, and their `jsonerror` headers; but for two things
/// Mono writes otherwise than .NET Framework in every answer, where rmm writes .NET's: the
/// charset of the content type (`application/json; charset=utf-8`, and `text/xml;
/// charset=utf-8` for an operation answering in XML, on .NET; no charset on Mono) and the
/// `__type` hint .NET writes first in a class's object (Mono writes none): ours is read
/// without them.
pub fn json_answer_differences(host: &Message, ours: &http::Response<Bytes>) -> Vec<String> {
    let mut like_host = http::Response::builder().status(ours.status());
    for (name, value) in ours.headers() {
        let value = value.to_str().unwrap_or_default();
        let value = match (name.as_str(), host.header(name.as_str())) {
            ("content-type", Some(theirs))
                if value.strip_suffix("; charset=utf-8") == Some(theirs) =>
            {
                theirs
            }
            _ => value,
        };
        like_host = like_host.header(name, value);
    }
    let json = ours
        .headers()
        .get("content-type")
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    let body = if json {
        Bytes::from(without_hints(&String::from_utf8_lossy(ours.body())))
    } else {
        ours.body().clone()
    };
    let like_host = like_host
        .body(body)
        .expect("the headers of a response are a response's");
    let mut problems = answer_differences(host, &like_host);
    let jsonerror = ours
        .headers()
        .get("jsonerror")
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    if jsonerror.as_deref() != host.header("jsonerror") {
        problems.push(format!(
            "jsonerror {jsonerror:?}, host {:?}",
            host.header("jsonerror")
        ));
    }
    problems
}

/// `body` (JSON) without its `"__type":"…"` members, which .NET Framework writes first in a
/// class's object and Mono does not write.
pub fn without_hints(body: &str) -> String {
    const HINT: &str = "\"__type\":\"";
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(at) = rest.find(HINT) {
        out.push_str(&rest[..at]);
        let after = &rest[at + HINT.len()..];
        let end = after.find('"').map_or(after.len(), |i| i + 1);
        rest = after[end..].strip_prefix(',').unwrap_or(&after[end..]);
    }
    out.push_str(rest);
    out
}

/// The fault code of a SOAP 1.1 or 1.2 fault body (`soap:Client`, `soap:Sender`).
pub fn fault_code(body: &str) -> Option<&str> {
    between(body, "<faultcode>", "</faultcode>")
        .or_else(|| between(body, "<soap:Value>", "</soap:Value>"))
}

/// The request and response of a capture file as messages; an error if the case is not
/// recorded.
pub fn messages(raw: &RawCapture) -> Result<Capture, String> {
    let response = raw.response.as_deref().ok_or_else(|| {
        format!(
            "{} is not recorded yet: run `cargo xtask interop --record`",
            raw.name
        )
    })?;
    Ok(Capture {
        name: raw.name.clone(),
        request: parse_message(&raw.request),
        response: parse_message(response),
    })
}

/// Where `needle` first occurs in `haystack`.
pub fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Parses a raw HTTP message (CRLF head, body cut at Content-Length).
pub fn parse_message(raw: &[u8]) -> Message {
    let head_end = find(raw, b"\r\n\r\n").expect("header end");
    let head = std::str::from_utf8(&raw[..head_end]).unwrap();
    let mut lines = head.split("\r\n");
    let start_line = lines.next().unwrap().to_owned();
    let headers: Vec<(String, String)> = lines
        .map(|l| {
            let (n, v) = l.split_once(':').unwrap();
            (n.trim().to_owned(), v.trim().to_owned())
        })
        .collect();
    let rest = &raw[head_end + 4..];
    let len = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .map_or(0, |(_, v)| v.parse::<usize>().unwrap());
    Message {
        start_line,
        headers,
        body: rest[..len.min(rest.len())].to_vec(),
    }
}

/// `tests/fixtures/asmx` in the workspace.
pub fn captures_dir() -> PathBuf {
    crate::root().join("tests/fixtures/asmx")
}

/// Every capture file in `dir`, sorted by name.
pub fn load_raw(dir: &Path) -> Result<Vec<RawCapture>, String> {
    rmm_shadow::capture::read_dir(dir)
}

/// One recorded exchange by name (the WSDL, the discovery document, …).
pub fn load_one(name: &str) -> Capture {
    load_one_from(&captures_dir(), name)
}

/// One recorded exchange of `dir` by name.
pub fn load_one_from(dir: &Path, name: &str) -> Capture {
    let path = dir.join(format!("{name}.txt"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    RawCapture::parse(name, &bytes)
        .and_then(|c| messages(&c))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Every capture of a SOAP, GET or POST call, sorted by name.
pub fn load() -> Vec<Capture> {
    let captures = load_calls(&captures_dir());
    assert!(
        captures.len() > 250,
        "found only {} captures",
        captures.len()
    );
    captures
}

/// Every capture of `dir` named for its binding (`soap11-`, `soap12-`, `get-`, `post-`),
/// sorted by name.
pub fn load_calls(dir: &Path) -> Vec<Capture> {
    load_raw(dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .iter()
        // wsdl, disco, help pages and misc transport cases are read by name
        .filter(|c| {
            ["soap11-", "soap12-", "get-", "post-"]
                .iter()
                .any(|p| c.name.starts_with(p))
        })
        .map(|c| messages(c).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// The status code of a response.
pub fn status(m: &Message) -> u16 {
    m.start_line.split(' ').nth(1).unwrap().parse().unwrap()
}

/// Undoes the host's text escaping.
pub fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// `ours` as the host would have written it: the one deliberate difference in a successful
/// answer is that we write a CR in a string as `&#xD;` where the host writes it raw (every XML
/// reader turns a raw CR into LF, so the host's callers never see the CR; see the README).
///
/// Only in text: in an attribute value (raw XML's) the host writes `&#xD;` too.
pub fn with_raw_cr(ours: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(ours.len());
    let mut in_tag = false;
    let mut at = 0;
    while at < ours.len() {
        match ours[at] {
            b'<' => in_tag = true,
            b'>' => in_tag = false,
            b'&' if !in_tag && ours[at..].starts_with(b"&#xD;") => {
                out.push(b'\r');
                at += 5;
                continue;
            }
            _ => {}
        }
        out.push(ours[at]);
        at += 1;
    }
    out
}

/// What an XML reader makes of the host's raw text: CR LF and a lone CR become LF (XML 1.0,
/// section 2.11).
pub fn xml_line_ends(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// The text between the first `open` and the next `close`.
pub fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    Some(&text[start..start + text[start..].find(close)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capture_file_reads_back_to_the_same_bytes() {
        let capture = RawCapture {
            name: "x".into(),
            what: "a case".into(),
            // Bytes that look like markers, and no final line break, stay the message's.
            request: b"GET / HTTP/1.1\r\n\r\n\n### ==== END ====".to_vec(),
            response: Some(b"HTTP/1.1 200 OK\r\n\r\n".to_vec()),
        };
        let file = capture.to_file();
        assert_eq!(RawCapture::parse("x", &file), Ok(capture.clone()));
        let unrecorded = RawCapture {
            response: None,
            ..capture
        };
        assert_eq!(
            RawCapture::parse("x", &unrecorded.to_file()),
            Ok(unrecorded)
        );
    }

    #[test]
    fn a_written_cr_reference_is_the_hosts_raw_cr_and_readers_see_lf() {
        assert_eq!(with_raw_cr(b"a&#xD;\nb&#xD;"), b"a\r\nb\r");
        assert_eq!(with_raw_cr(b"&#xA;"), b"&#xA;");
        assert_eq!(xml_line_ends("a\r\nb\rc\n"), "a\nb\nc\n");
    }

    #[test]
    fn hints_are_left_out_with_their_comma() {
        assert_eq!(
            without_hints(r#"{"d":[{"__type":"A.B","X":1},{"__type":"A.B"}]}"#),
            r#"{"d":[{"X":1},{}]}"#
        );
        assert_eq!(without_hints(r#"{"d":"__type"}"#), r#"{"d":"__type"}"#);
    }

    #[test]
    fn a_file_whose_counts_do_not_hold_is_refused() {
        let bad = b"### x\n### a case\n### ==== REQUEST (5 bytes) ====\nabc\n### ==== END ====\n";
        let err = RawCapture::parse("x", bad).unwrap_err();
        assert!(err.contains("5 bytes"), "{err}");
        let renamed = RawCapture::parse("y", b"### x\n").unwrap_err();
        assert!(renamed.contains("`### y`"), "{renamed}");
    }

    #[test]
    fn the_recorded_files_parse_and_write_back_unchanged() {
        let dir = captures_dir();
        let all = load_raw(&dir).unwrap();
        assert!(all.len() > 150, "{} files", all.len());
        for c in &all {
            let on_disk = std::fs::read(dir.join(format!("{}.txt", c.name))).unwrap();
            assert!(c.response.is_some(), "{} is not recorded", c.name);
            assert!(
                c.to_file() == on_disk,
                "{} does not write back as read",
                c.name
            );
        }
    }
}
