//! A client's UsernameToken: a transport that puts the `wsse:Security` block in every SOAP
//! request.

use bytes::Bytes;
use http::{header, Request, Response};

use super::{insert_block, PasswordKind, UsernameToken};
use crate::client::{BoxFuture, StreamedBody, Transport, TransportError};

/// A [`Transport`] that sends every SOAP request through `inner` with `token`'s
/// `wsse:Security` block first in its Header: a digest of a fresh random nonce and the
/// current time (UTC, to the millisecond, `Z`) each time. HTTP GET and POST requests, which
/// carry no SOAP header, go as they are.
///
/// ```no_run
/// # use rmm_runtime::client::ReqwestTransport;
/// # use rmm_runtime::wsse::{UsernameToken, WsSecurity};
/// let transport = WsSecurity::new(ReqwestTransport::new(), UsernameToken::digest("ann", "pw"));
/// // client.with_transport(transport)
/// ```
#[derive(Debug, Clone)]
pub struct WsSecurity<T> {
    inner: T,
    token: UsernameToken,
}

impl<T: Transport> WsSecurity<T> {
    /// `inner`, each SOAP request carrying `token`.
    pub fn new(inner: T, token: UsernameToken) -> WsSecurity<T> {
        WsSecurity { inner, token }
    }

    /// The Security block for one message: a digest's nonce and time made now.
    fn block(&self) -> Result<String, TransportError> {
        let mut nonce = [0u8; 16];
        let created = match self.token.kind {
            PasswordKind::Text => String::new(),
            PasswordKind::Digest => {
                getrandom::fill(&mut nonce)
                    .map_err(|e| TransportError::Other(format!("no random nonce: {e}")))?;
                super::now().format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
            }
        };
        Ok(self.token.block(&nonce, &created))
    }
}

/// Whether `request` is a SOAP call (its content type SOAP 1.1's or 1.2's).
fn is_soap(request: &Request<Bytes>) -> bool {
    request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/xml") || v.starts_with("application/soap+xml"))
}

impl<T: Transport> WsSecurity<T> {
    /// `request` with the Security block in its Header (a request over HTTP GET/POST as it
    /// is).
    fn secure(&self, request: Request<Bytes>) -> Result<Request<Bytes>, TransportError> {
        if !is_soap(&request) {
            return Ok(request);
        }
        let block = self.block()?;
        let (mut parts, body) = request.into_parts();
        let secured = insert_block(&body, &block).ok_or_else(|| {
            TransportError::Other("the request is no SOAP envelope rmm wrote".into())
        })?;
        if parts.headers.contains_key(header::CONTENT_LENGTH) {
            parts
                .headers
                .insert(header::CONTENT_LENGTH, secured.len().into());
        }
        Ok(Request::from_parts(parts, Bytes::from(secured)))
    }
}

impl<T: Transport> Transport for WsSecurity<T> {
    fn send(
        &self,
        request: Request<Bytes>,
    ) -> BoxFuture<'_, Result<Response<Bytes>, TransportError>> {
        match self.secure(request) {
            Ok(request) => self.inner.send(request),
            Err(e) => Box::pin(async move { Err(e) }),
        }
    }

    fn send_streamed(
        &self,
        request: Request<Bytes>,
    ) -> BoxFuture<'_, Result<Response<StreamedBody>, TransportError>> {
        match self.secure(request) {
            Ok(request) => self.inner.send_streamed(request),
            Err(e) => Box::pin(async move { Err(e) }),
        }
    }
}
