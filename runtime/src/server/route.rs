//! Telling the four bindings and the operation apart, as an ASMX host does, from the
//! method, path, query, headers and (for SOAP) the envelope's first elements.

use std::borrow::Cow;

use bytes::Bytes;
use http::header::CONTENT_TYPE;
use http::{Method, Request, Response, StatusCode};

use super::peek::{check_well_formed, peek, Strays};
use super::{plain_error, OperationSet};
use crate::soap::{SOAP11_CONTENT_TYPE, SOAP11_NS, SOAP12_NS};
use crate::{message, Binding, Fault, ServiceInfo};

/// What a request asks the endpoint for.
#[derive(Debug)]
pub enum Route<O> {
    /// `GET {path}?wsdl` (any case): the WSDL document.
    Wsdl,
    /// `GET {path}?disco` (any case): the discovery document.
    Disco,
    /// `GET {path}?schema=Name`: the schema of the typed DataSet `Name` (matched
    /// case-sensitively), which the WSDL imports from there.
    Schema(String),
    /// `GET {path}`: the help page listing the operations.
    HelpIndex,
    /// `GET {path}?op=Name`: the help page of one operation.
    HelpOperation(O),
    /// A call of `operation` over `binding`.
    Call {
        /// How it came.
        binding: Binding,
        /// What it calls.
        operation: O,
    },
    /// A request the endpoint answers without calling anything (unknown path or operation,
    /// wrong method or content type, a SOAPAction contradicting the body, …; a
    /// `[ScriptService]`'s JavaScript proxy).
    Refused(Response<Bytes>),
}

/// nginx, in front of the reference host, normalises the path before ASP.NET sees it
/// (`//` and `.`/`..` segments, `%2E`); so do we, before matching.
pub fn normalize_path(path: &str) -> Cow<'_, str> {
    let needs =
        path.contains("//") || path.contains("/.") || path.contains("%2E") || path.contains("%2e");
    if !needs {
        return Cow::Borrowed(path);
    }
    let decoded = path.replace("%2E", ".").replace("%2e", ".");
    let mut segments: Vec<&str> = Vec::new();
    for segment in decoded.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
    let mut out = String::with_capacity(decoded.len());
    for s in &segments {
        out.push('/');
        out.push_str(s);
    }
    if out.is_empty() {
        out.push('/');
    }
    Cow::Owned(out)
}

fn header<B>(request: &Request<B>, name: impl http::header::AsHeaderName) -> Option<&str> {
    request.headers().get(name).and_then(|v| v.to_str().ok())
}

/// The media type of a `Content-Type` value, without parameters (compare it ignoring case).
fn media_type(content_type: &str) -> &str {
    // What nearly every SOAP 1.1 client sends, without the split.
    if content_type == SOAP11_CONTENT_TYPE {
        return "text/xml";
    }
    content_type.split(';').next().unwrap_or("").trim()
}

/// The value of parameter `name` of a `Content-Type` value, unquoted.
fn content_type_param<'a>(content_type: &'a str, name: &str) -> Option<&'a str> {
    let value = crate::content_type::content_type_param(content_type.as_bytes(), name.as_bytes())?;
    // A slice of `content_type` between ASCII bytes.
    std::str::from_utf8(value).ok()
}

/// The action a SOAP request of `binding` names: its `SOAPAction` header, unquoted (SOAP 1.1),
/// or the `action` parameter of its content type (SOAP 1.2).
fn soap_action<'a, B>(
    binding: Binding,
    request: &'a Request<B>,
    content_type: &'a str,
) -> Option<&'a str> {
    match binding {
        Binding::Soap11 => {
            header(request, message::SOAP_ACTION_NAME).map(|a| a.trim().trim_matches('"').trim())
        }
        _ => content_type_param(content_type, "action"),
    }
}

/// The operation called `name`, if it is offered on `binding`.
/// The operation a SOAPAction names, as ASMX's table of actions finds it: the one whose action
/// it is, exactly (`{namespace}/{name}` by default, `[SoapDocumentMethod(Action)]`'s where
/// the service gives one). The default's name is looked up first; a custom action by a scan.
fn action_operation<O: OperationSet>(service: &ServiceInfo, action: &str) -> Option<&'static str> {
    let is_its = |op: &O| {
        let quoted = op.info().soap_action;
        quoted.len() >= 2 && &quoted[1..quoted.len() - 1] == action
    };
    service
        .action_operation(action)
        .and_then(O::from_name)
        .filter(is_its)
        .or_else(|| O::all().iter().copied().find(is_its))
        .map(|op| op.info().name)
}

fn offered<O: OperationSet>(binding: Binding, name: &str) -> Option<O> {
    O::from_name(name).filter(|op| op.info().bindings.contains(&binding))
}

/// The operation whose request the Body's element `name` is, if it is offered on `binding`:
/// a wrapped operation's wrapper (its own name, or the one `RequestElementName` gave it), or
/// a bare one's first parameter.
fn offered_by_element<O: OperationSet>(binding: Binding, name: &str) -> Option<O> {
    let by_element = || {
        O::all()
            .iter()
            .copied()
            .find(|op| op.info().request_element == name)
    };
    O::from_name(name)
        .filter(|op| !op.info().bare && op.info().request_element == name)
        .or_else(by_element)
        .filter(|op| op.info().bindings.contains(&binding))
}

/// The longest query string ASP.NET reads: `httpRuntime maxQueryStringLength`'s default.
pub const MAX_QUERY_LENGTH: usize = 2048;

/// ASP.NET's answer to a query string longer than [`MAX_QUERY_LENGTH`] characters, on any
/// path, before anything else is looked at: `400` and its error page.
fn query_too_long<B>(request: &Request<B>) -> Option<Response<Bytes>> {
    let length = request.uri().query().map_or(0, str::len);
    (length > MAX_QUERY_LENGTH).then(|| {
        super::html_error(
            StatusCode::BAD_REQUEST,
            "Bad Request",
            &format!(
                "The query string is {length} characters long, longer than the \
                 {MAX_QUERY_LENGTH} ASP.NET reads (maxQueryStringLength)."
            ),
        )
    })
}

/// Decides what `request` asks of the service.
pub fn route<O: OperationSet>(service: &ServiceInfo, request: &Request<Bytes>) -> Route<O> {
    if let Some(refused) = query_too_long(request) {
        return Route::Refused(refused);
    }
    let path = normalize_path(request.uri().path());
    let Some(rest) = path.strip_prefix(service.path) else {
        return Route::Refused(not_found(&path));
    };
    if rest.is_empty() {
        return endpoint(service, request);
    }
    let Some(name) = rest.strip_prefix('/') else {
        return Route::Refused(not_found(&path));
    };
    // A `[ScriptService]`'s JavaScript proxy, by any method and content type.
    let debug = name.eq_ignore_ascii_case("jsdebug");
    if debug || name.eq_ignore_ascii_case("js") {
        if let Some(proxy) = O::script_proxy(debug) {
            let since = header(request, http::header::IF_MODIFIED_SINCE);
            return Route::Refused(crate::json::script::proxy_response(proxy, debug, since));
        }
    }
    // A JSON call to a `[ScriptService]` (one whose operations are offered over JSON), by
    // any method: ASP.NET AJAX's handler takes it before ASMX's. Another service's is refused
    // below as a POST of the wrong content type.
    if !name.is_empty()
        && crate::json::script::is_json_call(header(request, CONTENT_TYPE))
        && O::all()
            .iter()
            .any(|op| op.info().bindings.contains(&Binding::Json))
    {
        return script_call(name);
    }
    // ASMX reads whatever follows the endpoint's path as a method name, `/` included; an
    // empty one, or another HTTP method than GET and POST, is no request format it knows.
    let binding = match *request.method() {
        Method::GET if !name.is_empty() => Binding::HttpGet,
        Method::POST if !name.is_empty() => Binding::HttpPost,
        ref method => {
            return Route::Refused(super::html_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Runtime Error",
                &format!(
                    "The request format is unrecognized: {method} {path}. An operation is \
                     called with GET or POST on {}/ and its name.",
                    service.path
                ),
            ));
        }
    };
    let Some(operation) = offered::<O>(binding, name) else {
        let differently_cased = O::all().iter().find(|op| {
            op.info().bindings.contains(&binding) && op.info().name.eq_ignore_ascii_case(name)
        });
        let message = match differently_cased {
            Some(op) => format!(
                "Invalid method name '{name}': method names are case sensitive. The method name '{}' with the same name but different casing was found.",
                op.info().name
            ),
            None => format!("{name} is not a method of this web service."),
        };
        return Route::Refused(plain_error(StatusCode::INTERNAL_SERVER_ERROR, &message));
    };
    // An operation without parameters reads nothing, so any content type calls it.
    if binding == Binding::HttpPost && operation.info().takes_parameters {
        let content_type = header(request, CONTENT_TYPE).map(media_type);
        if !content_type.is_some_and(|t| t.eq_ignore_ascii_case(message::FORM_CONTENT_TYPE)) {
            // ASMX's AJAX handler would answer JSON here; this service speaks the four
            // bindings of the interface only.
            let message = match content_type {
                None => "Request format is invalid: the request has no Content-Type; HTTP POST sends application/x-www-form-urlencoded.".to_owned(),
                Some(other) => format!("Request format is invalid: {other}; HTTP POST sends application/x-www-form-urlencoded."),
            };
            return Route::Refused(plain_error(StatusCode::INTERNAL_SERVER_ERROR, &message));
        }
    }
    Route::Call { binding, operation }
}

/// A JSON call of the operation `name`, matched ignoring case (`WebServiceData`'s method
/// table); a name that none has is refused as .NET refuses it, before its JSON handler
/// runs: with ASP.NET's error page.
fn script_call<O: OperationSet>(name: &str) -> Route<O> {
    let operation = O::all().iter().copied().find(|op| {
        op.info().bindings.contains(&Binding::Json) && op.info().name.eq_ignore_ascii_case(name)
    });
    match operation {
        Some(operation) => Route::Call {
            binding: Binding::Json,
            operation,
        },
        None => Route::Refused(super::html_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Runtime Error",
            &format!("Unknown web method {name}."),
        )),
    }
}

/// Requests to the endpoint path itself: WSDL, help pages, SOAP calls.
fn endpoint<O: OperationSet>(service: &ServiceInfo, request: &Request<Bytes>) -> Route<O> {
    match *request.method() {
        Method::GET => {
            let query = request.uri().query().unwrap_or("");
            if query.eq_ignore_ascii_case("wsdl") {
                return Route::Wsdl;
            }
            if query.eq_ignore_ascii_case("disco") {
                return Route::Disco;
            }
            let schema = form_urlencoded::parse(query.as_bytes())
                .find(|(k, _)| k.eq_ignore_ascii_case("schema"))
                .map(|(_, v)| v.into_owned());
            if let Some(name) = schema {
                return Route::Schema(name);
            }
            let op = form_urlencoded::parse(query.as_bytes())
                .find(|(k, _)| k.eq_ignore_ascii_case("op"))
                .map(|(_, v)| v.into_owned());
            match op {
                Some(name) => match O::from_name(&name) {
                    Some(operation) => Route::HelpOperation(operation),
                    None => Route::Refused(plain_error(
                        StatusCode::NOT_FOUND,
                        &format!("{name} is not a method of this web service."),
                    )),
                },
                None => Route::HelpIndex,
            }
        }
        Method::POST => soap_call(service, request),
        ref other => Route::Refused(method_not_allowed(other, "GET, POST")),
    }
}

/// The call a SOAP request names in its headers alone, if it names one: a `POST` to the
/// endpoint path itself with `text/xml` and a `SOAPAction` naming an operation (SOAP 1.1), or
/// `application/soap+xml` with an `action` parameter naming one (SOAP 1.2).
///
/// Nearly every SOAP client sends such a request, and its envelope then needs reading only
/// once, by the operation's decoder. When that decoder accepts the envelope, it has found
/// the envelope of `binding` with that operation first in its Body: [`route`] would have
/// routed the request to the same call, so the answer is the same. When it refuses it, the
/// caller routes the request with [`route`] and answers as that says: the envelope may be
/// another binding's or hold another operation (routed to the same call again, the decoder's
/// refusal is the answer).
pub fn route_by_action<O: OperationSet>(
    service: &ServiceInfo,
    request: &Request<Bytes>,
) -> Option<(Binding, O)> {
    if request.method() != Method::POST
        || request.uri().path() != service.path
        || request
            .uri()
            .query()
            .is_some_and(|q| q.len() > MAX_QUERY_LENGTH)
    {
        return None;
    }
    let content_type = header(request, CONTENT_TYPE)?;
    let media = media_type(content_type);
    let binding = if media.eq_ignore_ascii_case("text/xml") {
        Binding::Soap11
    } else if media.eq_ignore_ascii_case("application/soap+xml") {
        Binding::Soap12
    } else {
        return None;
    };
    let action = soap_action(binding, request, content_type)?;
    let name = action_operation::<O>(service, action)?;
    Some((binding, offered(binding, name)?))
}

fn soap_call<O: OperationSet>(service: &ServiceInfo, request: &Request<Bytes>) -> Route<O> {
    let content_type = header(request, CONTENT_TYPE).unwrap_or("");
    let media = media_type(content_type);
    let declared = if media.eq_ignore_ascii_case("text/xml") {
        Binding::Soap11
    } else if media.eq_ignore_ascii_case("application/soap+xml") {
        Binding::Soap12
    } else {
        // Neither SOAP type (nor the form's, on this path): the host answers 415 in SOAP
        // 1.1's content type when a SOAPAction header is there, else in SOAP 1.2's,
        // whichever envelope the body holds.
        let version = if request.headers().contains_key(message::SOAP_ACTION_NAME) {
            Binding::Soap11
        } else {
            Binding::Soap12
        };
        return Route::Refused(unsupported_media_type(version));
    };
    // Routed on the text the host reads, bytes that are not text read as U+FFFD: where that
    // text gets a fault, the fault is the answer; the decoder refuses the rest.
    let text = match message::soap_text(request) {
        Ok(text) => text,
        Err(e) => return Route::Refused(super::request_error_response(declared, &e)),
    };
    let peek = match text.read(|body| peek(body, service.namespace, Strays::Stop)) {
        Ok(peek) => peek,
        Err(e) => return Route::Refused(super::request_error_response(declared, &e)),
    };
    // A root outside both SOAP namespaces: ASMX's VersionMismatch fault, at once (what follows
    // the root's start tag is not read, malformed or not).
    if let Some(found) = &peek.foreign_envelope {
        let expected = if declared == Binding::Soap12 {
            SOAP12_NS
        } else {
            SOAP11_NS
        };
        let mut response = message::version_mismatch_response(found, expected);
        super::mark_framework(&mut response);
        return Route::Refused(response);
    }
    // The envelope decides the version; a SOAP 1.2 envelope sent as text/xml is answered as
    // SOAP 1.2 (as ASMX does), a SOAP 1.1 envelope sent as application/soap+xml is refused.
    let binding = match (declared, peek.version) {
        (_, None) => declared,
        (Binding::Soap12, Some(Binding::Soap11)) => {
            return Route::Refused(unsupported_media_type(Binding::Soap11))
        }
        (_, Some(version)) => version,
    };
    let action = soap_action(binding, request, content_type);
    let fault = |reason: String| {
        let response = match text.read(check_well_formed) {
            Ok(()) => super::framework_fault(binding, Fault::client(reason)),
            Err(e) => super::request_error_response(binding, &e),
        };
        Route::Refused(response)
    };
    let by_action = action.map(|action| {
        let name = action_operation::<O>(service, action);
        (action, name.and_then(|name| offered::<O>(binding, name)))
    });
    // Only a request that names no operation in its headers is routed by its body, which the
    // host finds skipping whatever comes before the Body ([`Strays`]).
    let names_operation = matches!(by_action, Some((_, Some(_))));
    let peek = if peek.stray && !names_operation {
        match text.read(|body| super::peek(body, service.namespace, Strays::Skip)) {
            Ok(peek) => peek,
            Err(e) => return Route::Refused(super::request_error_response(binding, &e)),
        }
    } else {
        peek
    };
    let by_body = peek.operation.as_ref().and_then(|(qualified, name)| {
        qualified
            .then(|| offered_by_element(binding, name))
            .flatten()
    });
    match (binding, by_action, by_body) {
        // An action naming one operation and a body holding another: ASMX runs the action's
        // operation with every parameter defaulted; we refuse.
        (_, Some((action, Some(named))), Some(body_op)) if named != body_op => fault(format!(
            "The action '{action}' names the operation {}, but the body holds {}.",
            named.info().name,
            body_op.info().name
        )),
        (_, Some((_, Some(named))), _) => Route::Call {
            binding,
            operation: named,
        },
        // SOAP 1.1: a SOAPAction that names no operation is refused, as ASMX does.
        (Binding::Soap11, Some((action, None)), _) => fault(format!(
            "The SOAPAction '{action}' names no operation of this service."
        )),
        // SOAP 1.2 falls back to the body when the action names no operation.
        (_, _, Some(body_op)) => Route::Call {
            binding,
            operation: body_op,
        },
        (_, _, None) => {
            let found = match &peek.operation {
                Some((_, name)) => {
                    format!("The body element {name} is not an operation of this service.")
                }
                None => "The request names no operation: its Body is empty.".to_owned(),
            };
            fault(found)
        }
    }
}

fn not_found(path: &str) -> Response<Bytes> {
    super::html_error(
        StatusCode::NOT_FOUND,
        "The resource cannot be found.",
        &format!("The resource {path} does not exist."),
    )
}

fn method_not_allowed(method: &Method, allowed: &'static str) -> Response<Bytes> {
    let mut response = super::html_error(
        StatusCode::METHOD_NOT_ALLOWED,
        "Method Not Allowed",
        &format!("The method {method} is not allowed here; use {allowed}."),
    );
    response
        .headers_mut()
        .insert(http::header::ALLOW, http::HeaderValue::from_static(allowed));
    response
}

/// ASMX answers a SOAP 1.1 envelope sent as `application/soap+xml` (with SOAP 1.1's content
/// type) and a request of another media type (with SOAP 1.2's) with `415` and an empty body.
fn unsupported_media_type(binding: Binding) -> Response<Bytes> {
    super::empty_response(StatusCode::UNSUPPORTED_MEDIA_TYPE, binding)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_paths_as_nginx_does() {
        assert_eq!(normalize_path("/api/rmm/S.asmx"), "/api/rmm/S.asmx");
        assert_eq!(normalize_path("/api//rmm/./S.asmx"), "/api/rmm/S.asmx");
        assert_eq!(
            normalize_path("/api/x/../rmm/%2E/S.asmx/Op"),
            "/api/rmm/S.asmx/Op"
        );
        assert_eq!(normalize_path("/../.."), "/");
    }

    #[test]
    fn reads_content_type_parameters() {
        let ct = "application/soap+xml; charset=utf-8; action=\"urn:x/Op\"";
        assert_eq!(media_type(ct), "application/soap+xml");
        assert_eq!(content_type_param(ct, "action"), Some("urn:x/Op"));
        assert_eq!(content_type_param(ct, "ACTION"), Some("urn:x/Op"));
        assert_eq!(content_type_param("text/xml", "action"), None);
    }
}
