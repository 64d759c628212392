//! Calling the service: the [`Transport`] a generated client sends requests through (reqwest
//! by default), the one error type of a call, and the redaction of secrets in traces.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::BodyExt;
use tracing::Instrument;

use crate::{Binding, EncodeError, Fault, ResponseError};

#[cfg(feature = "blocking")]
pub mod blocking;
mod items;
mod rows;
mod session;
pub use items::Items;
pub use rows::DataSetRows;
#[doc(hidden)] // for generated code
pub use session::SessionCookie;

/// A boxed, `Send` future, as [`Transport::send`] returns it.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A response body as it arrives, chunk by chunk: what [`Transport::send_streamed`] gives.
pub type StreamedBody = http_body_util::combinators::UnsyncBoxBody<Bytes, TransportError>;

/// Sends one HTTP request and returns the whole response. The request's URI is absolute.
///
/// Implement it to put a client on hyper, a tower stack, a test double or a recorder.
pub trait Transport: Send + Sync + 'static {
    /// Sends `request`.
    fn send(
        &self,
        request: Request<Bytes>,
    ) -> BoxFuture<'_, Result<Response<Bytes>, TransportError>>;

    /// Sends `request` and returns the response as soon as its head has arrived, its body
    /// to be read as it comes ([`Items`] reads a large result this way). The default sends
    /// with [`Transport::send`] and gives the whole body as one chunk; a transport that can
    /// stream should.
    fn send_streamed(
        &self,
        request: Request<Bytes>,
    ) -> BoxFuture<'_, Result<Response<StreamedBody>, TransportError>> {
        Box::pin(async move {
            let response = self.send(request).await?;
            Ok(response.map(|body| {
                http_body_util::Full::new(body)
                    .map_err(|never| match never {})
                    .boxed_unsync()
            }))
        })
    }
}

/// Why a request got no response.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TransportError {
    /// No connection could be made.
    #[error("could not connect: {0}")]
    Connect(String),
    /// No response within the time allowed.
    #[error("no response within {0:?}")]
    Timeout(Duration),
    /// Anything else (connection reset, invalid response, …).
    #[error("{0}")]
    Other(String),
}

/// The default transport: a [`reqwest::Client`] (rustls, no system OpenSSL).
#[derive(Debug, Clone, Default)]
pub struct ReqwestTransport {
    client: reqwest::Client,
}

impl ReqwestTransport {
    /// A transport on a new reqwest client with its defaults.
    pub fn new() -> ReqwestTransport {
        ReqwestTransport::default()
    }

    /// A transport on a configured reqwest client (proxies, TLS roots, pools).
    pub fn with_client(client: reqwest::Client) -> ReqwestTransport {
        ReqwestTransport { client }
    }
}

impl Transport for ReqwestTransport {
    fn send(
        &self,
        request: Request<Bytes>,
    ) -> BoxFuture<'_, Result<Response<Bytes>, TransportError>> {
        Box::pin(async move {
            let request = reqwest::Request::try_from(request)
                .map_err(|e| TransportError::Other(e.to_string()))?;
            let response = self.client.execute(request).await.map_err(reqwest_error)?;
            let mut builder = Response::builder()
                .status(response.status())
                .version(response.version());
            if let Some(headers) = builder.headers_mut() {
                headers.extend(
                    response
                        .headers()
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone())),
                );
            }
            let body = response.bytes().await.map_err(reqwest_error)?;
            builder
                .body(body)
                .map_err(|e| TransportError::Other(e.to_string()))
        })
    }

    fn send_streamed(
        &self,
        request: Request<Bytes>,
    ) -> BoxFuture<'_, Result<Response<StreamedBody>, TransportError>> {
        Box::pin(async move {
            let request = reqwest::Request::try_from(request)
                .map_err(|e| TransportError::Other(e.to_string()))?;
            let response = self.client.execute(request).await.map_err(reqwest_error)?;
            let response: Response<reqwest::Body> = response.into();
            Ok(response.map(|body| body.map_err(reqwest_error).boxed_unsync()))
        })
    }
}

fn reqwest_error(error: reqwest::Error) -> TransportError {
    // The chain of sources says what failed underneath (refused, reset, DNS, …).
    let mut text = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(inner) = source {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        source = inner.source();
    }
    if error.is_connect() {
        TransportError::Connect(text)
    } else {
        TransportError::Other(text)
    }
}

/// Everything that can go wrong with a call, telling apart what a caller handles apart.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    /// The request could not be written (a `None` string over HTTP GET/POST, …).
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// No response: connect failure, timeout, broken connection.
    #[error("{operation} over {binding}: {source}")]
    Transport {
        /// Operation name.
        operation: &'static str,
        /// The binding the call went over.
        binding: Binding,
        /// What happened.
        source: TransportError,
    },
    /// A response other than the result: a SOAP fault, a GET/POST error body, another
    /// status, or an undecodable body (kept for diagnosis).
    #[error(transparent)]
    Response(#[from] ResponseError),
}

impl CallError {
    /// The SOAP fault, if the service answered with one.
    pub fn fault(&self) -> Option<&Fault> {
        match self {
            CallError::Response(ResponseError::Fault { fault, .. }) => Some(fault),
            _ => None,
        }
    }

    /// Whether the call timed out.
    pub fn is_timeout(&self) -> bool {
        matches!(
            self,
            CallError::Transport {
                source: TransportError::Timeout(_),
                ..
            }
        )
    }
}

#[doc(hidden)] // for generated code
/// Sends one encoded call: joins its URI to `base`, bounds it by `timeout`, and traces it in
/// a span (operation, binding, status, duration) with the bodies at trace level, `secrets`
/// redacted.
pub async fn exchange(
    transport: &dyn Transport,
    base: &str,
    timeout: Option<Duration>,
    operation: &'static str,
    binding: Binding,
    request: Request<Bytes>,
    secrets: &[&str],
) -> Result<Response<Bytes>, CallError> {
    let call = Call {
        base,
        timeout,
        operation,
        binding,
        secrets,
    };
    call.exchange(
        request,
        |request| transport.send(request),
        |response| redacted(binding, response.body(), secrets),
    )
    .await
}

#[doc(hidden)] // for generated code
/// [`exchange`], returning as soon as the response's head has arrived ([`Transport::send_streamed`]):
/// `timeout` bounds the wait for the head, and the trace gives no response body.
pub async fn exchange_streamed(
    transport: &dyn Transport,
    base: &str,
    timeout: Option<Duration>,
    operation: &'static str,
    binding: Binding,
    request: Request<Bytes>,
    secrets: &[&str],
) -> Result<Response<StreamedBody>, CallError> {
    let call = Call {
        base,
        timeout,
        operation,
        binding,
        secrets,
    };
    call.exchange(
        request,
        |request| transport.send_streamed(request),
        |_| "(read as it arrives)".to_owned(),
    )
    .await
}

/// What [`exchange`] and [`exchange_streamed`] share.
struct Call<'c> {
    base: &'c str,
    timeout: Option<Duration>,
    operation: &'static str,
    binding: Binding,
    secrets: &'c [&'c str],
}

impl Call<'_> {
    async fn exchange<'t, B>(
        &self,
        mut request: Request<Bytes>,
        send: impl FnOnce(Request<Bytes>) -> BoxFuture<'t, Result<Response<B>, TransportError>>,
        response_body: impl FnOnce(&Response<B>) -> String,
    ) -> Result<Response<B>, CallError> {
        let Call {
            base,
            timeout,
            operation,
            binding,
            secrets,
        } = *self;
        let span = tracing::debug_span!(
            "rmm.call",
            operation,
            binding = binding.label(),
            status = tracing::field::Empty,
            duration_ms = tracing::field::Empty,
        );
        let fail = |source| CallError::Transport {
            operation,
            binding,
            source,
        };
        absolute(base, &mut request).map_err(fail)?;
        let started = std::time::Instant::now();
        let result = async {
            if tracing::enabled!(tracing::Level::TRACE) {
                let body = match binding {
                    Binding::HttpGet => request.uri().query().unwrap_or("").as_bytes().to_vec(),
                    _ => request.body().to_vec(),
                };
                tracing::trace!(uri = %request.uri().path(), body = %redacted(binding, &body, secrets), "request");
            }
            let sent = send(request);
            let response = match timeout {
                Some(limit) => tokio::time::timeout(limit, sent).await.map_err(|_| TransportError::Timeout(limit))?,
                None => sent.await,
            }?;
            if tracing::enabled!(tracing::Level::TRACE) {
                tracing::trace!(body = %response_body(&response), "response");
            }
            Ok::<_, TransportError>(response)
        }
        .instrument(span.clone())
        .await;
        span.record("duration_ms", started.elapsed().as_secs_f64() * 1000.0);
        match &result {
            Ok(response) => span.record("status", response.status().as_u16()),
            Err(error) => span.record("status", tracing::field::display(error)),
        };
        result.map_err(fail)
    }
}

#[doc(hidden)] // for generated code
/// Joins an origin-form request URI (`/path?query`) to a base URL (`http://host:port`, with
/// or without a path prefix).
pub fn absolute(base: &str, request: &mut Request<Bytes>) -> Result<(), TransportError> {
    let path = request.uri().path_and_query().map_or("/", |p| p.as_str());
    let uri = format!("{}{path}", base.trim_end_matches('/'));
    *request.uri_mut() = uri
        .parse()
        .map_err(|e| TransportError::Other(format!("invalid URL {uri}: {e}")))?;
    Ok(())
}

#[doc(hidden)] // for generated code
/// A message body for a trace line, with the values of `secrets` replaced by `***`: SOAP
/// elements `<name>…</name>` and form pairs `name=…`. Not a general XML rewriter: it
/// recognises the shapes our encoders write and the host's responses.
pub fn redacted(binding: Binding, body: &[u8], secrets: &[&str]) -> String {
    let mut text = String::from_utf8_lossy(body).into_owned();
    for secret in secrets {
        text = if binding.is_soap() {
            let (open, close) = (format!("<{secret}>"), format!("</{secret}>"));
            let mut out = String::with_capacity(text.len());
            let mut rest = text.as_str();
            while let Some(start) = rest.find(&open) {
                let value_at = start + open.len();
                match rest[value_at..].find(&close) {
                    Some(len) => {
                        out.push_str(&rest[..value_at]);
                        out.push_str("***");
                        rest = &rest[value_at + len..];
                    }
                    None => break,
                }
            }
            out.push_str(rest);
            out
        } else {
            text.split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((name, _)) if name.eq_ignore_ascii_case(secret) => format!("{name}=***"),
                    _ => pair.to_owned(),
                })
                .collect::<Vec<_>>()
                .join("&")
        };
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_secrets_in_envelopes_and_forms() {
        let soap =
            b"<a><sig>s3cr3t</sig><password>hunter2</password><user>me</user><sig></sig></a>";
        assert_eq!(
            redacted(Binding::Soap11, soap, &["sig", "password"]),
            "<a><sig>***</sig><password>***</password><user>me</user><sig>***</sig></a>"
        );
        let form = b"user=me&sig=s3cr3t&SIG=x&mobilekey=k";
        assert_eq!(
            redacted(Binding::HttpPost, form, &["sig", "mobilekey"]),
            "user=me&sig=***&SIG=***&mobilekey=***"
        );
    }

    #[test]
    fn joins_base_and_origin_form() {
        let mut request = Request::get("/api/x.asmx/Op?a=1")
            .body(Bytes::new())
            .unwrap();
        absolute("http://127.0.0.1:8080/", &mut request).unwrap();
        assert_eq!(request.uri(), "http://127.0.0.1:8080/api/x.asmx/Op?a=1");
        let mut request = Request::get("/api/x.asmx").body(Bytes::new()).unwrap();
        absolute("https://legacy.example.com/prefix", &mut request).unwrap();
        assert_eq!(
            request.uri(),
            "https://legacy.example.com/prefix/api/x.asmx"
        );
    }
}
