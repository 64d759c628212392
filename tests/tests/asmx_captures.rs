//! Fidelity against a real ASMX host (Mono 6.8), using the exchanges recorded in
//! `tests/fixtures/asmx/` (recorded by `cargo xtask interop --record`):
//!
//! - server side: every recorded request is decoded by our generated code; where the host
//!   answered with a result, our echo of the decoded values equals the host's, and where it
//!   refused, we refuse too. Where the host answers with silently wrong data, we refuse, and
//!   each such case is named in [`STRICTER`]. Requests whose outcome is decided before an
//!   operation's decoder runs (routing by SOAPAction, content type, method) are named in
//!   [`ROUTING`] and belong to the server endpoint.
//! - response bytes: for every recorded result and fault, our encoder writes the host's body
//!   byte for byte, with its content type.
//! - client side: every recorded response decodes to the host's result, fault or status.

use bytes::Bytes;
use http::{Request, Response};
use rmm_mobile::runtime::message;
use rmm_mobile::*;
use rmm_tests::captures::{between, load, status, unescape, with_raw_cr, xml_line_ends, Capture};

const PATH: &str = "/api/rmm/MobileService.asmx";

/// Cases where the host answers 200 with data it misread, and we refuse.
const STRICTER: &[(&str, &str)] = &[
    ("soap11-op12-unqualified-params", "UnqualifiedParameter"),
    ("soap12-op12-unqualified-params", "UnqualifiedParameter"),
    ("soap11-op12-nil-string", "NilParameter"),
    ("soap12-op12-nil-string", "NilParameter"),
    ("soap11-op12-wrong-namespace", "WrongOperation"),
    ("soap12-op12-wrong-namespace", "WrongOperation"),
    ("get-op09-decimal-comma", "DecimalComma"),
    ("post-op09-decimal-comma", "DecimalComma"),
    ("get-op09-decimal-thousands", "DecimalComma"),
    ("post-op09-decimal-thousands", "DecimalComma"),
    ("get-op12-repeated-param", "RepeatedParameter"),
    ("post-op12-repeated-param", "RepeatedParameter"),
    ("soap11-op14-not-utf8-in-value", "NotText"),
];

/// Cases decided before an operation's decoder runs: the endpoint's routing (server issue).
const ROUTING: &[(&str, &str)] = &[
    (
        "get-query-too-long",
        "a query string over ASP.NET's maxQueryStringLength: 400 before any routing",
    ),
    (
        "soap11-op12-wrong-soapaction",
        "SOAPAction names another operation than the body",
    ),
    (
        "soap12-op12-wrong-soapaction",
        "action parameter names another operation than the body",
    ),
    (
        "soap11-op12-unknown-soapaction",
        "SOAPAction names no operation",
    ),
    ("soap11-op12-empty-soapaction", "empty SOAPAction"),
    ("soap11-unknown-op", "unknown operation"),
    (
        "soap11-op14-not-utf8-in-element-name",
        "the Body's name is malformed: answered while routing",
    ),
    ("soap12-unknown-op", "unknown operation"),
    ("get-unknown-op", "unknown operation"),
    ("post-unknown-op", "unknown operation"),
    ("get-op12-op-name-case", "operation name in the wrong case"),
    (
        "soap11-op12-as-soap12-content-type",
        "SOAP 1.1 envelope with the SOAP 1.2 content type",
    ),
    (
        "soap12-op12-as-text-xml",
        "SOAP 1.2 envelope with the SOAP 1.1 content type",
    ),
    ("post-op12-json", "JSON body"),
    (
        "soap11-envelope-text-plain",
        "a media type of neither SOAP version",
    ),
    (
        "soap11-envelope-application-xml",
        "a media type of neither SOAP version",
    ),
    (
        "soap12-envelope-text-plain",
        "a media type of neither SOAP version",
    ),
    ("post-op12-no-content-type", "POST without a content type"),
    (
        "post-op12-xml-doctype-body",
        "XML body on the HTTP POST path",
    ),
    ("post-op12-put-method", "PUT method"),
    (
        "soap11-get-method",
        "GET on the SOAP endpoint is the help page",
    ),
    (
        "soap11-op12-ok-chunked-request",
        "chunked request body (transport)",
    ),
    (
        "soap11-op12-ok-expect-100-continue",
        "interim 100 Continue (transport)",
    ),
    (
        "soap12-malformed-root-not-envelope-no-action",
        "no action and no envelope: nothing names an operation",
    ),
    (
        "soap12-malformed-unqualified-envelope",
        "an Envelope in no namespace: a version mismatch, answered while routing",
    ),
];

/// The operation and binding a capture's request is for, as a test-side router sees it.
fn route(c: &Capture) -> Option<(Operation, Binding, Request<Bytes>)> {
    let mut parts = c.request.start_line.split(' ');
    let (method, target) = (parts.next().unwrap(), parts.next().unwrap());
    let path = target.split('?').next().unwrap();
    let content_type = c
        .request
        .header("content-type")
        .unwrap_or("")
        .to_ascii_lowercase();
    let (binding, op) = if let Some(op) = path.strip_prefix(&format!("{PATH}/")) {
        match method {
            "GET" => (Binding::HttpGet, op.to_owned()),
            "POST" if content_type.starts_with("application/x-www-form-urlencoded") => {
                (Binding::HttpPost, op.to_owned())
            }
            _ => return None,
        }
    } else {
        let binding = if content_type.starts_with("text/xml") {
            Binding::Soap11
        } else if content_type.starts_with("application/soap+xml") {
            Binding::Soap12
        } else {
            return None;
        };
        // The operation is the body's first element or, for a body with none, the action.
        let body = String::from_utf8_lossy(&c.request.body);
        let element = body.find("Body>").and_then(|at| {
            let after = &body[at + 5..];
            let name: String = after[after.find('<')? + 1..]
                .chars()
                .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == ':')
                .collect();
            Some(name.rsplit(':').next().unwrap().to_owned())
        });
        let action = c
            .request
            .header("soapaction")
            .or_else(|| between(c.request.header("content-type")?, "action=\"", "\""))
            .map(|a| a.trim_matches('"').rsplit('/').next().unwrap().to_owned());
        (binding, element.or(action)?)
    };
    let operation = Operation::from_name(&op)?;
    let mut request = Request::builder().method(method).uri(target);
    for (n, v) in &c.request.headers {
        request = request.header(n, v);
    }
    Some((
        operation,
        binding,
        request.body(Bytes::from(c.request.body.clone())).unwrap(),
    ))
}

/// What the host answered: a result (from the element an ASMX response has), if any.
fn host_result(c: &Capture) -> Option<(String, String)> {
    let body = std::str::from_utf8(&c.response.body).ok()?;
    if let Some(string) = between(
        body,
        "<string xmlns=\"http://rmm.example.com/mobile\">",
        "</string>",
    ) {
        let op = string.split('(').next().unwrap().to_owned();
        return Some((op, unescape(string)));
    }
    let op = between(body, "<soap:Body><", "Response xmlns=")?.to_owned();
    let result = between(body, &format!("<{op}Result>"), &format!("</{op}Result>"))?;
    Some((op, unescape(result)))
}

fn error_kind(error: &RequestError) -> &'static str {
    match error {
        RequestError::UnqualifiedParameter { .. } => "UnqualifiedParameter",
        RequestError::NilParameter { .. } => "NilParameter",
        RequestError::WrongOperation { .. } => "WrongOperation",
        RequestError::InvalidValue {
            error: ValueError::DecimalComma,
            ..
        } => "DecimalComma",
        RequestError::RepeatedParameter { .. } => "RepeatedParameter",
        RequestError::MalformedXml { reason } if reason.contains("not valid UTF-8") => "NotText",
        _ => "other",
    }
}

use rmm_mobile::runtime::ValueError;

#[test]
fn server_decodes_every_recorded_request_as_the_host_did_or_refuses_what_it_misread() {
    let mut same = 0;
    let mut refused = 0;
    let mut failures = Vec::new();
    for c in load() {
        if ROUTING.iter().any(|(n, _)| *n == c.name) {
            continue;
        }
        let stricter = STRICTER
            .iter()
            .find(|(n, _)| *n == c.name)
            .map(|(_, kind)| *kind);
        let Some((operation, binding, request)) = route(&c) else {
            failures.push(format!(
                "{}: not routable by the test; list it in ROUTING",
                c.name
            ));
            continue;
        };
        let ours = rmm_tests::decode_echo(operation, binding, &request);
        let host_status = status(&c.response);
        match (stricter, host_status, &ours) {
            (Some(kind), _, Err(e)) if error_kind(e) == kind => refused += 1,
            (Some(kind), _, _) => failures.push(format!(
                "{}: expected our refusal {kind}, got {ours:?}",
                c.name
            )),
            (None, 200, Ok(echo)) => match host_result(&c) {
                Some((_, host)) if host == *echo => same += 1,
                host => failures.push(format!(
                    "{}: host answered {host:?}, we read {echo}",
                    c.name
                )),
            },
            // The handler throws on FAULT: decoding succeeds, the fault is the handler's.
            (None, 500, Ok(echo)) if echo.contains("=FAULT;") => same += 1,
            (None, 400, Err(e)) if e.is_malformed() => refused += 1,
            (None, 500, Err(e)) if !e.is_malformed() => {
                if let RequestError::DangerousValue { .. } = e {
                    // Our message is the host's, before the host HTML-encodes it.
                    let host = String::from_utf8_lossy(&c.response.body);
                    let ours = e
                        .to_string()
                        .replace('&', "&amp;")
                        .replace('<', "&lt;")
                        .replace('>', "&gt;")
                        .replace('"', "&quot;");
                    if host.trim_end() != ours {
                        failures.push(format!("{}: host said {host:?}, we say {ours:?}", c.name));
                    }
                }
                refused += 1;
            }
            _ => failures.push(format!(
                "{}: host answered {host_status}, we gave {ours:?}",
                c.name
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        same >= 60 && refused >= 60,
        "same {same}, refused {refused}"
    );
}

#[test]
fn results_and_faults_are_written_byte_for_byte_as_the_host_writes_them() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for c in load() {
        let response_type = c.response.header("content-type").unwrap_or("").to_owned();
        let binding = if c.name.starts_with("soap11") {
            Binding::Soap11
        } else if c.name.starts_with("soap12") {
            Binding::Soap12
        } else if c.name.starts_with("get") {
            Binding::HttpGet
        } else {
            Binding::HttpPost
        };
        let body = String::from_utf8_lossy(&c.response.body).into_owned();
        let ours: Response<Bytes> = if let Some((op, result)) = host_result(&c) {
            let Some(operation) = Operation::from_name(&op) else {
                continue;
            };
            // A SOAP 1.2 envelope answered as SOAP 1.2 even though sent as text/xml.
            let binding = if response_type.starts_with("application/soap+xml") {
                Binding::Soap12
            } else {
                binding
            };
            message::string_response(binding, operation.info(), Some(&result)).unwrap()
        } else if body.contains("<faultcode>soap:VersionMismatch</faultcode>") {
            // The endpoint's answer to an unknown envelope version; with the host's `{0}` and
            // `{1}` as the namespaces, ours is its bytes.
            message::version_mismatch_response("{0}", "{1}")
        } else if let Some(reason) = between(&body, "<faultstring>", "</faultstring>") {
            let code = between(&body, "<faultcode>soap:", "</faultcode>").unwrap();
            message::fault_response(Binding::Soap11, &fault(code, reason, &body))
        } else if let Some(reason) = between(&body, "<soap:Text xml:lang=\"en\">", "</soap:Text>") {
            let code = between(&body, "<soap:Value>soap:", "</soap:Value>").unwrap();
            message::fault_response(Binding::Soap12, &fault(code, reason, &body))
        } else if response_type.starts_with("text/plain") && status(&c.response) == 500 {
            let reason = body.strip_suffix('\n').unwrap();
            message::fault_response(binding, &Fault::client(reason))
        } else {
            continue; // empty 400/415 bodies, HTML pages: the endpoint's, not an encoder's
        };
        checked += 1;
        let ours_type = ours.headers()["content-type"].to_str().unwrap();
        // The one deliberate difference: a CR we write as `&#xD;`, the host raw.
        if ours.status().as_u16() != status(&c.response)
            || ours_type != response_type
            || ours.body().contains(&b'\r')
            || with_raw_cr(ours.body()) != c.response.body
        {
            failures.push(format!(
                "{}:\n  host {} {response_type} {body:?}\n  ours {} {ours_type} {:?}",
                c.name,
                status(&c.response),
                ours.status(),
                String::from_utf8_lossy(ours.body())
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= 200, "checked only {checked}");
}

/// The fault a capture shows; the host leaves the detail element out of faults it raises
/// before the operation runs.
fn fault(code: &str, reason: &str, body: &str) -> Fault {
    let detail =
        (body.contains("<detail />") || body.contains("<soap:Detail />")).then(String::new);
    Fault {
        code: FaultCode::from_local_name(code),
        reason: unescape(reason),
        detail,
    }
}

#[test]
fn client_decodes_every_recorded_result_fault_and_error() {
    let mut checked = 0;
    for c in load() {
        let Some((operation, binding, _)) = route(&c) else {
            continue;
        };
        if ROUTING.iter().any(|(n, _)| *n == c.name) {
            continue;
        }
        let mut response = Response::builder().status(status(&c.response));
        for (n, v) in &c.response.headers {
            response = response.header(n, v);
        }
        let response = response.body(Bytes::from(c.response.body.clone())).unwrap();
        let decoded = message::decode_string_response(binding, operation.info(), &response);
        let body = String::from_utf8_lossy(&c.response.body).into_owned();
        match status(&c.response) {
            // What any XML reader gets from the host's raw CRs: LFs.
            200 => assert_eq!(
                decoded,
                Ok(host_result(&c).map(|(_, r)| xml_line_ends(&r))),
                "{}",
                c.name
            ),
            500 if binding.is_soap() => match decoded {
                Err(ResponseError::Fault { fault, .. }) => {
                    let reason = between(&body, "<faultstring>", "</faultstring>")
                        .or_else(|| between(&body, "<soap:Text xml:lang=\"en\">", "</soap:Text>"))
                        .unwrap();
                    assert_eq!(fault.reason, unescape(reason), "{}", c.name);
                }
                other => panic!("{}: {other:?}", c.name),
            },
            500 => match decoded {
                Err(ResponseError::ErrorBody { message, .. }) => {
                    assert_eq!(message, body.trim_end_matches('\n'), "{}", c.name)
                }
                other => panic!("{}: {other:?}", c.name),
            },
            code => match decoded {
                Err(ResponseError::Status {
                    status, body: text, ..
                }) => {
                    assert_eq!(status, code, "{}", c.name);
                    assert_eq!(text, body.trim_end_matches('\n'), "{}", c.name);
                }
                other => panic!("{}: {other:?}", c.name),
            },
        }
        checked += 1;
    }
    assert!(checked >= 200, "checked only {checked}");
}
