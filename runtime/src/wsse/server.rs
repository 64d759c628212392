//! A server's UsernameToken check, in front of the generated server.

use std::collections::{HashSet, VecDeque};
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{header, Request, Response, StatusCode};
use http_body::Body;
use http_body_util::Full;

use super::read::{find_security, ReceivedPassword};
use super::WSSE_NS;
use crate::server::ServerConfig;
use crate::soap::{SOAP11_NS, SOAP12_NS};

/// The user a request's UsernameToken proved, in the request's extensions for what follows
/// the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authenticated(pub String);

/// What gives a user's password (`None`: no such user).
type PasswordLookup = dyn Fn(&str) -> Option<String> + Send + Sync;

/// How many nonces of recent digests are remembered, to refuse one sent again.
const NONCES: usize = 100_000;

/// Checks the UsernameToken of SOAP requests before a server reads them, as WSE 3.0 does in
/// front of an ASMX service: the `wsse:Security` block is read and taken out of the request,
/// its password checked against the one `passwords` gives for the user (none: an unknown
/// user), a digest's `wsu:Created` checked to be within `max_age` of now (5 minutes by
/// default, WSE's time tolerance) and its nonce not seen in that time. A request that fails
/// gets the profile's fault (`wsse:FailedAuthentication`, `wsse:InvalidSecurity` for a block
/// that is not one) and never reaches the server. Without a block, a request is refused when
/// the token is `required` and goes on otherwise. HTTP GET and POST requests carry no SOAP
/// header and go on as they are: a service that requires the token offers its operations over
/// SOAP only.
#[derive(Clone)]
pub struct UsernameTokenCheck {
    passwords: Arc<PasswordLookup>,
    required: bool,
    max_age: Duration,
    nonces: Arc<Mutex<Nonces>>,
}

impl std::fmt::Debug for UsernameTokenCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UsernameTokenCheck")
            .field("required", &self.required)
            .field("max_age", &self.max_age)
            .finish_non_exhaustive()
    }
}

/// The nonces of recent digests, oldest first, bounded.
#[derive(Debug, Default)]
struct Nonces {
    seen: HashSet<Vec<u8>>,
    order: VecDeque<(chrono::DateTime<chrono::Utc>, Vec<u8>)>,
}

impl Nonces {
    /// Remembers `nonce` made at `created`; false if it was seen already.
    fn remember(
        &mut self,
        nonce: &[u8],
        created: chrono::DateTime<chrono::Utc>,
        max_age: Duration,
    ) -> bool {
        let oldest = super::now() - max_age * 2;
        while let Some((at, _)) = self.order.front() {
            if *at >= oldest && self.order.len() < NONCES {
                break;
            }
            let (_, old) = self.order.pop_front().expect("a front");
            self.seen.remove(&old);
        }
        if !self.seen.insert(nonce.to_vec()) {
            return false;
        }
        self.order.push_back((created, nonce.to_vec()));
        true
    }
}

/// Why a request is refused.
enum Refusal {
    /// `wsse:FailedAuthentication`.
    Failed,
    /// `wsse:InvalidSecurity`.
    Invalid,
}

impl UsernameTokenCheck {
    /// A check of each user's password as `passwords` gives it; the token required.
    pub fn new(passwords: impl Fn(&str) -> Option<String> + Send + Sync + 'static) -> Self {
        UsernameTokenCheck {
            passwords: Arc::new(passwords),
            required: true,
            max_age: Duration::from_secs(300),
            nonces: Arc::default(),
        }
    }

    /// The same check, the token required or not (a request without one then goes on).
    pub fn required(mut self, required: bool) -> Self {
        self.required = required;
        self
    }

    /// The same check, a digest's time allowed to be `max_age` from now either way.
    pub fn max_age(mut self, max_age: Duration) -> Self {
        self.max_age = max_age;
        self
    }

    /// Checks `request`: the request to go on with (its Security block taken out, the user
    /// in its extensions), or the fault to answer.
    #[allow(clippy::result_large_err)]
    pub fn check(&self, request: Request<Bytes>) -> Result<Request<Bytes>, Response<Bytes>> {
        let content_type = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let soap12 = if content_type.starts_with("application/soap+xml") {
            true
        } else if content_type.starts_with("text/xml") {
            false
        } else {
            return Ok(request);
        };
        let block = match find_security(request.body()) {
            Ok(block) => block,
            Err(_) => return Err(fault(soap12, Refusal::Invalid)),
        };
        let Some(block) = block else {
            return if self.required {
                Err(fault(soap12, Refusal::Failed))
            } else {
                Ok(request)
            };
        };
        let user = match &block.token {
            Some(token) => {
                let known = (self.passwords)(&token.username);
                if !known.is_some_and(|p| token.verify(&p)) || !self.fresh(&token.password) {
                    return Err(fault(soap12, Refusal::Failed));
                }
                Some(token.username.clone())
            }
            None if self.required => return Err(fault(soap12, Refusal::Failed)),
            None => None,
        };
        let (mut parts, body) = request.into_parts();
        let mut rest = Vec::with_capacity(body.len());
        rest.extend_from_slice(&body[..block.range.start]);
        rest.extend_from_slice(&body[block.range.end..]);
        if parts.headers.contains_key(header::CONTENT_LENGTH) {
            parts
                .headers
                .insert(header::CONTENT_LENGTH, rest.len().into());
        }
        if let Some(user) = user {
            parts.extensions.insert(Authenticated(user));
        }
        Ok(Request::from_parts(parts, Bytes::from(rest)))
    }

    /// Whether a digest's time is recent and its nonce new (a text password has neither).
    fn fresh(&self, password: &ReceivedPassword) -> bool {
        let ReceivedPassword::Digest { nonce, created, .. } = password else {
            return true;
        };
        let Ok(created) = chrono::DateTime::parse_from_rfc3339(created) else {
            return false;
        };
        let created = created.with_timezone(&chrono::Utc);
        let age = (super::now() - created).abs();
        if age.to_std().map_or(true, |age| age > self.max_age) {
            return false;
        }
        self.nonces
            .lock()
            .map(|mut nonces| nonces.remember(nonce, created, self.max_age))
            .unwrap_or(false)
    }

    /// The check in front of `inner` (a generated server, as a tower service).
    pub fn layer<S>(self, inner: S) -> UsernameTokenService<S> {
        UsernameTokenService {
            check: self,
            inner,
            config: Arc::new(ServerConfig::default()),
        }
    }
}

/// The profile's fault: `500`, SOAP 1.1's `faultcode` the profile's code, SOAP 1.2's a
/// `Sender` of that subcode.
fn fault(soap12: bool, refusal: Refusal) -> Response<Bytes> {
    let (code, reason) = match refusal {
        Refusal::Failed => (
            "FailedAuthentication",
            "The security token could not be authenticated or authorized",
        ),
        Refusal::Invalid => (
            "InvalidSecurity",
            "An error was discovered processing the <wsse:Security> header",
        ),
    };
    let reason = reason.replace('<', "&lt;").replace('>', "&gt;");
    let (ns, content_type, fault) = if soap12 {
        (
            SOAP12_NS,
            "application/soap+xml; charset=utf-8",
            format!(
                "<soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value><soap:Subcode>\
                 <soap:Value xmlns:wsse=\"{WSSE_NS}\">wsse:{code}</soap:Value></soap:Subcode>\
                 </soap:Code><soap:Reason><soap:Text xml:lang=\"en\">{reason}</soap:Text>\
                 </soap:Reason><soap:Detail /></soap:Fault>"
            ),
        )
    } else {
        (
            SOAP11_NS,
            "text/xml; charset=utf-8",
            format!(
                "<soap:Fault><faultcode xmlns:wsse=\"{WSSE_NS}\">wsse:{code}</faultcode>\
                 <faultstring>{reason}</faultstring><detail /></soap:Fault>"
            ),
        )
    };
    let body = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"{ns}\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body>{fault}</soap:Body>\
         </soap:Envelope>"
    );
    let mut response = Response::new(Bytes::from(body));
    *response.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static(content_type),
    );
    response
}

/// [`UsernameTokenCheck`] in front of a tower service (a generated server): requests it
/// refuses are answered here, the others go on without their Security block.
#[derive(Debug, Clone)]
pub struct UsernameTokenService<S> {
    check: UsernameTokenCheck,
    inner: S,
    config: Arc<ServerConfig>,
}

impl<S, B, RB> tower_service::Service<Request<B>> for UsernameTokenService<S>
where
    S: tower_service::Service<Request<Full<Bytes>>, Response = Response<RB>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    // The inner service's body (a generated server's [`crate::server::Body`]); the layer's
    // own refusals are whole.
    RB: From<Bytes> + Send + 'static,
{
    type Response = Response<RB>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let check = self.check.clone();
        let mut inner = self.inner.clone();
        let config = Arc::clone(&self.config);
        Box::pin(async move {
            let request = match crate::server::collect_body(request, &config).await {
                Ok(request) => request,
                Err(error) => return Ok(crate::server::body_error_response(&error).map(RB::from)),
            };
            match check.check(request) {
                Ok(request) => inner.call(request.map(Full::new)).await,
                Err(refusal) => Ok(refusal.map(RB::from)),
            }
        })
    }
}
