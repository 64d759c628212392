//! Being the service: routing requests to bindings and operations as an ASMX host does, the
//! responses of the endpoint itself (errors, limits), a panic guard for handlers, and a
//! ready hyper server. The generated `Server` type ties these to the operations.

mod body;
mod items;
pub mod operate;
mod peek;
mod route;
mod rows;
mod serve;

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::time::Duration;

use bytes::Bytes;
use futures_util::FutureExt;
use http::header::{HeaderValue, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE};
use http::{Request, Response, StatusCode};

pub use body::{Body, BodyAborted};
#[doc(hidden)] // for generated code
pub use items::items_response;
pub use items::{Items, CHUNK};
#[doc(hidden)] // for generated code
pub use peek::{peek, Peek, Strays};
#[doc(hidden)] // for generated code
pub use route::{normalize_path, route, route_by_action, Route};
pub use rows::rows_response;
pub use rows::Rows;
pub use serve::{collect_body, serve, serve_with_shutdown, BodyError};

use crate::message::{self, TEXT_CONTENT_TYPE};
use crate::{Binding, Fault, FaultCode, OperationInfo, RequestError, ServiceInfo};

#[doc(hidden)] // for generated code
/// The operations of a service, as routing needs them. Generated for the service's
/// `Operation` enum, whose `from_name` is a generated `match`.
pub trait OperationSet: Copy + Eq + Send + Sync + std::fmt::Debug + 'static {
    /// The operation with this exact wire name.
    fn from_name(name: &str) -> Option<Self>;
    /// Every operation.
    fn all() -> &'static [Self];
    /// Its wire literals.
    fn info(self) -> &'static OperationInfo;
    /// A `[ScriptService]`'s JavaScript proxy (`{path}/js`; with `debug`, `{path}/jsdebug`),
    /// its lines; another service has none.
    fn script_proxy(debug: bool) -> Option<&'static [&'static str]> {
        let _ = debug;
        None
    }
}

/// Limits and manners of a server.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Largest request body accepted; larger ones get `413`. ASMX's default
    /// (`maxRequestLength`) is 4 MiB.
    pub max_body_bytes: usize,
    /// Time a client has to send the request head once it has connected or since its
    /// previous request on the connection.
    pub header_timeout: Duration,
    /// Time a client has to send the whole body once the head has arrived.
    pub body_timeout: Duration,
    /// `X-AspNet-Version` sent on every response, as the host does (`None` sends none).
    pub aspnet_version: Option<&'static str>,
    /// Whether JSON calls' errors hide their detail (`customErrors` on, as ASP.NET has it for
    /// a remote caller by default, and as the reference host has it): every error body is
    /// then `{"Message":"There was an error processing the request.",…}`. Off, a body names
    /// the error and its .NET exception type.
    pub custom_errors: bool,
    /// Where and how long sessions live, for operations with session state
    /// (`session: true`); a service without them never reads it.
    pub sessions: crate::session::SessionConfig,
    /// The server's Prometheus metrics (`None`, the default: none kept). Serve them with
    /// [`operate::Admin`].
    pub metrics: Option<operate::Metrics>,
    /// How long a server that stops (its shutdown future completed) lets the calls in flight
    /// finish before it closes their connections: 30 s, as Kubernetes' default grace period.
    pub shutdown_grace: Duration,
    /// The limits JSON calls are read and answered within: `jsonSerialization`'s
    /// `maxJsonLength` and `recursionLimit`, .NET's defaults (102,400 characters, 100) unless
    /// the service's web.config set others.
    pub json_limits: crate::json::JsonLimits,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            max_body_bytes: 4 * 1024 * 1024,
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(30),
            aspnet_version: Some("4.0.30319"),
            custom_errors: true,
            sessions: crate::session::SessionConfig::default(),
            metrics: None,
            shutdown_grace: Duration::from_secs(30),
            json_limits: crate::json::JsonLimits::default(),
        }
    }
}

#[doc(hidden)] // for generated code
/// `Cache-Control` of responses the endpoint makes itself (not an operation's result or
/// fault), as ASMX sends them.
pub const CACHE_CONTROL_FRAMEWORK: &str = "private";

#[doc(hidden)] // for generated code
/// `Content-Type` of the help pages, as the host sends it (the pages declare UTF-8 in a
/// `<meta charset>`).
pub const HTML_CONTENT_TYPE: &str = "text/html";

#[doc(hidden)] // for generated code
/// The response to a body that could not be read: `413` when too large, `408` when too slow,
/// `400` when the connection failed.
pub fn body_error_response(error: &BodyError) -> Response<Bytes> {
    let status = match error {
        BodyError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
        BodyError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
        BodyError::Read(_) => StatusCode::BAD_REQUEST,
    };
    plain_error(status, &error.to_string())
}

#[doc(hidden)] // for generated code
/// A `text/plain` error as ASMX's HTTP GET/POST handler writes it: the message and a line feed.
pub fn plain_error(status: StatusCode, message: &str) -> Response<Bytes> {
    plain_text(status, message, CACHE_CONTROL_FRAMEWORK)
}

#[doc(hidden)] // for generated code
/// The host's answer to `?schema=Name` naming no typed DataSet of the service: `500`,
/// `Schema not found.` (its `Cache-Control` a page's, not the framework's).
pub fn schema_not_found() -> Response<Bytes> {
    plain_text(
        StatusCode::INTERNAL_SERVER_ERROR,
        "Schema not found.",
        message::CACHE_CONTROL_RESULT,
    )
}

/// A `text/plain` response of `message` and a newline.
fn plain_text(status: StatusCode, message: &str, cache_control: &'static str) -> Response<Bytes> {
    let mut body = String::with_capacity(message.len() + 1);
    body.push_str(message);
    body.push('\n');
    let len = body.len();
    let mut response = Response::new(Bytes::from(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(TEXT_CONTENT_TYPE));
    headers.insert(CONTENT_LENGTH, HeaderValue::from(len));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static(cache_control));
    response
}

#[doc(hidden)] // for generated code
/// An HTML error page, as ASP.NET answers what reaches no web service method (an unknown
/// path, another method than GET or POST): `text/html`, the status, and a page naming the
/// error in a sentence (ASP.NET's own page, with `customErrors` on, says only "Runtime
/// Error"). Non-ASCII text is written as character references, so the page needs no charset.
pub fn html_error(status: StatusCode, title: &str, message: &str) -> Response<Bytes> {
    let ascii = |text: &str| -> String {
        html_encode(text)
            .chars()
            .map(|c| {
                if c.is_ascii() {
                    c.to_string()
                } else {
                    format!("&#x{:X};", u32::from(c))
                }
            })
            .collect()
    };
    let body = format!(
        "<!DOCTYPE html>\n<html><head><title>{title}</title></head>\n<body><h1>Server Error in '/' Application.</h1>\n<h2><i>{title}</i></h2>\n<p>{message}</p>\n</body></html>\n",
        title = ascii(title),
        message = ascii(message),
    );
    let len = body.len();
    let mut response = Response::new(Bytes::from(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(HTML_CONTENT_TYPE));
    headers.insert(CONTENT_LENGTH, HeaderValue::from(len));
    headers.insert(
        CACHE_CONTROL,
        HeaderValue::from_static(CACHE_CONTROL_FRAMEWORK),
    );
    response
}

#[doc(hidden)] // for generated code
/// An empty-bodied response with the binding's content type (ASMX's answer to malformed XML).
pub fn empty_response(status: StatusCode, binding: Binding) -> Response<Bytes> {
    let mut response = Response::new(Bytes::new());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static(binding.response_content_type()),
    );
    headers.insert(CONTENT_LENGTH, HeaderValue::from(0));
    headers.insert(
        CACHE_CONTROL,
        HeaderValue::from_static(CACHE_CONTROL_FRAMEWORK),
    );
    response
}

#[doc(hidden)] // for generated code
/// The answer to a request an operation's decoder refused. Where the host would have read on
/// past what the decoder refused (an unexpected operation element, an unqualified or nil
/// parameter), a document malformed further on is `400`, as malformed XML anywhere is;
/// otherwise [`request_error_response`].
pub fn refusal_response(
    binding: Binding,
    request: &Request<Bytes>,
    error: &RequestError,
) -> Response<Bytes> {
    // What the host reads past (an operation element it does not expect, whose parameters it
    // defaults; parameters it skips as unqualified or reads as nil) leaves it reading to the
    // end, where malformation is its answer; anything else (a value it cannot read, an
    // envelope of the wrong shape) stops it where it stands, with its fault.
    let host_reads_on = matches!(
        error,
        RequestError::WrongOperation { .. }
            | RequestError::NotAParameter { .. }
            | RequestError::UnqualifiedParameter { .. }
            | RequestError::NilParameter { .. }
    );
    if binding.is_soap() && host_reads_on {
        let whole = message::soap_text(request).and_then(|body| body.read(peek::check_well_formed));
        if let Err(malformed) = whole {
            if malformed.is_malformed() {
                return request_error_response(binding, &malformed);
            }
        }
    }
    request_error_response(binding, error)
}

#[doc(hidden)] // for generated code
/// The response to a request that could not be read, as ASMX answers it: malformed XML and
/// any DOCTYPE get `400` with an empty body; an unknown mustUnderstand header a
/// `soap:MustUnderstand` fault without detail; everything else a client fault (SOAP) or a
/// `500 text/plain` error (HTTP GET/POST).
pub fn request_error_response(binding: Binding, error: &RequestError) -> Response<Bytes> {
    if binding == Binding::Json {
        return match error {
            RequestError::Json(error) => crate::json::script::error_response(error),
            other => crate::json::script::error_response(&crate::json::JsonError::Fault(
                other.to_string(),
            )),
        };
    }
    if error.is_malformed() {
        return empty_response(StatusCode::BAD_REQUEST, binding);
    }
    let message = error.to_string();
    match (binding.is_soap(), error) {
        (true, RequestError::MustUnderstand { .. }) => message::fault_response(
            binding,
            &Fault {
                code: FaultCode::MustUnderstand,
                reason: message,
                detail: None,
            },
        ),
        // What the host finds only when it calls the method: the method's own fault.
        (true, RequestError::Encoded { error, .. }) if error.is_server_fault() => {
            message::fault_response(binding, &Fault::server(message))
        }
        (true, _) => framework_fault(binding, Fault::client(message)),
        // ASP.NET HTML-encodes the request-validation message (it quotes the value).
        (false, RequestError::DangerousValue { .. }) => {
            plain_error(StatusCode::INTERNAL_SERVER_ERROR, &html_encode(&message))
        }
        (false, _) => plain_error(StatusCode::INTERNAL_SERVER_ERROR, &message),
    }
}

#[doc(hidden)] // for generated code
/// A fault the endpoint raises before any operation runs (unreadable parameters, unknown
/// action): ASMX marks these `Cache-Control: private`, where an operation's own faults (and
/// mustUnderstand) carry `private, max-age=0`.
pub fn framework_fault(binding: Binding, fault: Fault) -> Response<Bytes> {
    let mut response = message::fault_response(binding, &fault);
    mark_framework(&mut response);
    response
}

/// Gives a response the cache header of the answers ASMX makes before an operation runs.
pub(crate) fn mark_framework(response: &mut Response<Bytes>) {
    response.headers_mut().insert(
        CACHE_CONTROL,
        HeaderValue::from_static(CACHE_CONTROL_FRAMEWORK),
    );
}

#[doc(hidden)] // for generated code
/// The fault sent when a handler panics: no message or stack trace of the panic leaves the
/// server.
pub fn panic_fault() -> Fault {
    Fault::server("The server failed to process the request.")
}

#[doc(hidden)] // for generated code
/// Runs a handler's future, turning a panic into [`panic_fault`]; the connection and the
/// server go on.
pub async fn guard<T, F>(operation: &'static str, future: F) -> Result<T, Fault>
where
    F: Future<Output = Result<T, Fault>>,
{
    match AssertUnwindSafe(future).catch_unwind().await {
        Ok(result) => result,
        Err(panic) => {
            let what = panic_message(panic.as_ref());
            tracing::error!(operation, panic = %what, "handler panicked");
            Err(panic_fault())
        }
    }
}

#[doc(hidden)] // for generated code
/// Runs the whole answer to a request, turning a panic in it (in a decoder or an encoder,
/// outside the service's own guard) into a `500` with a plain-text reason, as ASP.NET answers
/// an error it did not expect; the connection and the server go on.
///
/// Not an `async fn`: one would hold `future` twice (as its argument and as the future it
/// awaits), and the server boxes this future for every request.
pub fn catch_panic<F, B>(future: F) -> impl Future<Output = Response<B>>
where
    F: Future<Output = Response<B>>,
    B: From<Bytes>,
{
    AssertUnwindSafe(future)
        .catch_unwind()
        .map(|caught| match caught {
            Ok(response) => response,
            Err(panic) => {
                let what = panic_message(panic.as_ref());
                tracing::error!(panic = %what, "answering a request panicked");
                failure()
            }
        })
}

/// What a panic said (its `&str` or `String` payload), for the log.
pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

/// ASP.NET's answer to an error it did not expect: `500`, a plain-text reason.
fn failure<B: From<Bytes>>() -> Response<B> {
    let mut response = Response::new(B::from(Bytes::from_static(
        b"The server failed to process the request.\n",
    )));
    *response.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

#[doc(hidden)] // for generated code
/// The whole response of `handle`, whose answers are all whole (its items are written
/// whole): the bytes of its body.
pub async fn whole_response(response: Response<Body>) -> Response<Bytes> {
    let (parts, body) = response.into_parts();
    match body.into_bytes().await {
        Ok(bytes) => Response::from_parts(parts, bytes),
        // Not reached (nothing streams for `handle`): as a panic is answered.
        Err(aborted) => {
            tracing::error!(error = %aborted, "a whole answer was cut short");
            failure()
        }
    }
}

#[doc(hidden)] // for generated code
/// `request`, carrying the server's JSON limits where they are not .NET's defaults (the
/// JSON reader takes them from the request's extensions; no extension is made otherwise).
pub fn with_json_limits(config: &ServerConfig, mut request: Request<Bytes>) -> Request<Bytes> {
    if config.json_limits != crate::json::JsonLimits::default() {
        request.extensions_mut().insert(config.json_limits);
    }
    request
}

#[doc(hidden)] // for generated code
/// [`finish`] for an operation's answer, which may be streamed (a stream is never JSON: it
/// gets the headers alone).
pub fn finish_answer(config: &ServerConfig, response: Response<Body>) -> Response<Body> {
    let (parts, body) = response.into_parts();
    match body.into_whole() {
        Ok(bytes) => finish(config, Response::from_parts(parts, bytes)).map(Body::from),
        Err(body) => {
            let mut response = Response::from_parts(parts, body);
            if let Some(version) = config.aspnet_version {
                response
                    .headers_mut()
                    .insert(X_ASPNET_VERSION, HeaderValue::from_static(version));
            }
            response
        }
    }
}

#[doc(hidden)] // for generated code
/// Adds the headers every response of the host carries, and refuses a JSON answer past the
/// server's JSON limits.
pub fn finish(config: &ServerConfig, mut response: Response<Bytes>) -> Response<Bytes> {
    crate::json::script::within_limits(&mut response, config.json_limits);
    // A JSON call's error names its cause; with custom errors on, ASP.NET hides it. (Every
    // such error is a 500: the status is tested first, sparing every other answer the
    // header lookup's hashing.)
    if config.custom_errors
        && response.status() == StatusCode::INTERNAL_SERVER_ERROR
        && response
            .headers()
            .contains_key(crate::json::script::JSON_ERROR)
    {
        crate::json::script::hide_error(&mut response);
    }
    if let Some(version) = config.aspnet_version {
        response
            .headers_mut()
            .insert(X_ASPNET_VERSION, HeaderValue::from_static(version));
    }
    response
}

/// The header name, built once (parsing it per response shows in profiles).
const X_ASPNET_VERSION: http::HeaderName = http::HeaderName::from_static("x-aspnet-version");

#[doc(hidden)] // for generated code
/// A `200` document (WSDL, help page) with its content type.
pub fn document(content_type: &'static str, body: String) -> Response<Bytes> {
    let len = body.len();
    let mut response = Response::new(Bytes::from(body));
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(CONTENT_LENGTH, HeaderValue::from(len));
    headers.insert(
        CACHE_CONTROL,
        HeaderValue::from_static(message::CACHE_CONTROL_RESULT),
    );
    response
}

#[doc(hidden)] // for generated code
/// The discovery document (`?disco`) of the service at `address`, as ASMX writes it: a
/// contract reference to the WSDL and the addresses of the two SOAP bindings.
pub fn discovery(service: &ServiceInfo, address: &str) -> String {
    let address = escape_attribute(address);
    let (ns, name) = (service.namespace, service.name);
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
         <discovery xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns=\"http://schemas.xmlsoap.org/disco/\">\n  \
         <contractRef ref=\"{address}?wsdl\" docRef=\"{address}\" xmlns=\"http://schemas.xmlsoap.org/disco/scl/\" />\n  \
         <soap address=\"{address}\" xmlns:q1=\"{ns}\" binding=\"q1:{name}Soap\" xmlns=\"http://schemas.xmlsoap.org/disco/soap/\" />\n  \
         <soap address=\"{address}\" xmlns:q2=\"{ns}\" binding=\"q2:{name}Soap12\" xmlns=\"http://schemas.xmlsoap.org/disco/soap/\" />\n\
         </discovery>"
    )
}

/// `HttpUtility.HtmlEncode`: `&`, `<`, `>`, `"` and `'`.
fn html_encode(text: &str) -> String {
    // As .NET's HtmlEncode (WebUtility): the five markup characters by name, and U+00A0 to
    // U+00FF as numeric references (`é` is `&#233;`), which the reference host writes too.
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\u{a0}'..='\u{ff}' => {
                out.push_str("&#");
                out.push_str(itoa::Buffer::new().format(u32::from(c)));
                out.push(';');
            }
            c => out.push(c),
        }
    }
    out
}

/// Escapes text for a double-quoted XML attribute.
fn escape_attribute(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(['&', '<', '>', '"']) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;"),
    )
}

#[doc(hidden)] // for generated code
/// The service address for the WSDL: `http://{Host}{path}`, from the request.
pub fn address<B>(request: &http::Request<B>, path: &str) -> String {
    let host = request
        .headers()
        .get(http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| request.uri().authority().map(|a| a.as_str()))
        .unwrap_or("localhost");
    format!("http://{host}{path}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic while answering (a decoder's bug, say) is a `500`, not the caller's panic.
    #[tokio::test]
    async fn a_panic_while_answering_is_a_500() {
        let response = catch_panic(async {
            if Bytes::new().is_empty() {
                panic!("a decoder's bug");
            }
            Response::new(Bytes::new())
        })
        .await;
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(
            response.body().as_ref(),
            b"The server failed to process the request.\n"
        );
        let fine = catch_panic(async { Response::new(Bytes::from_static(b"ok")) }).await;
        assert_eq!(fine.body().as_ref(), b"ok");
    }
}
