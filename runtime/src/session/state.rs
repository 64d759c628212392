//! A call's session: what the handler holds ([`Session`]), and how the server opens it
//! before the call and closes it after, as ASP.NET's `SessionStateModule` does.

use std::ops::{Deref, DerefMut};

use bytes::Bytes;
use http::header::{HeaderValue, SET_COOKIE};
use http::{Request, Response, StatusCode};

use super::store::{Release, SessionLease};
use super::{cookie, id};
use crate::server::{html_error, ServerConfig};
use crate::tree::XmlItem;
use crate::{Binding, OperationInfo};

/// The session of a call (`[WebMethod(EnableSession = true)]`'s `Session`): the values
/// the service keeps between the calls of one client, of the spec's session class `T`.
///
/// It reads as a `T` (`session.visits`); writing to it (`session.visits += 1`, any `&mut`
/// use) marks it changed, and a changed session is stored when the call ends. A new session
/// that the call leaves unchanged is not stored, and its client gets no cookie, as ASP.NET
/// stores no unused session.
#[derive(Debug)]
pub struct Session<T> {
    id: String,
    value: T,
    new: bool,
    changed: bool,
    abandoned: bool,
}

impl<T> Session<T> {
    /// The session's id, as its cookie carries it.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Whether the session began with this call (`Session.IsNewSession`).
    pub fn is_new(&self) -> bool {
        self.new
    }

    /// Ends the session when the call ends (`Session.Abandon()`): it is removed from the
    /// store, and the next call with its cookie gets a new one.
    pub fn abandon(&mut self) {
        self.abandoned = true;
    }

    /// Whether [`abandon`](Self::abandon) was called.
    pub fn is_abandoned(&self) -> bool {
        self.abandoned
    }
}

impl<T> Deref for Session<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> DerefMut for Session<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.changed = true;
        &mut self.value
    }
}

#[doc(hidden)] // for generated code
/// A session opened for a call: the handler's [`Session`], and the store's hold on it.
pub struct Opened<T> {
    /// What the handler gets.
    pub session: Session<T>,
    lease: Box<dyn SessionLease>,
    operation: &'static OperationInfo,
    root: &'static str,
}

/// The answer when the session store fails: ASP.NET fails the request before the handler
/// runs (an `HttpException` of the session state module), with its error page.
fn store_failed(config: &ServerConfig, error: &super::StoreError) -> Response<Bytes> {
    tracing::error!(%error, "the session store failed");
    if let Some(metrics) = &config.metrics {
        metrics.store_errors.inc();
    }
    html_error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "Runtime Error",
        "The session state of this call could not be read or written.",
    )
}

#[doc(hidden)] // for generated code
/// Opens the session of a call of `operation`: the one its cookie names, locked and read,
/// or a new one under a new id. The session class `T` is stored as the document an HTTP GET
/// result of it is, rooted at `root`.
///
/// A cookie naming no stored session (expired, abandoned, or forged) gets a new session
/// under a *new* id. .NET Framework (cookie mode, where `regenerateExpiredSessionId` does not
/// apply) would keep the client's id, so that a client chooses its id: session fixation.
/// rmm issues its own, as Mono's host does.
pub async fn open<T: XmlItem + Default>(
    config: &ServerConfig,
    request: &Request<Bytes>,
    operation: &'static OperationInfo,
    root: &'static str,
) -> Result<Opened<T>, Response<Bytes>> {
    let sessions = &config.sessions;
    let sent = cookie::find(request.headers(), &sessions.cookie_name).filter(|id| id::is_legit(id));
    if let Some(id) = sent {
        let mut lease = sessions
            .store
            .acquire(id, sessions.timeout, sessions.lock_timeout)
            .await
            .map_err(|e| store_failed(config, &e))?;
        if let Some(data) = lease.take_data() {
            let value = read_value(operation, root, &data).unwrap_or_else(|error| {
                // A session stored by another version of the service, whose class has
                // changed past reading: the session goes on, its values reset.
                tracing::warn!(%error, "a stored session could not be read: its values are reset");
                T::default()
            });
            return Ok(Opened {
                session: Session {
                    id: id.to_owned(),
                    value,
                    new: false,
                    changed: false,
                    abandoned: false,
                },
                lease,
                operation,
                root,
            });
        }
    }
    let id = id::create().map_err(|e| {
        store_failed(
            config,
            &super::StoreError::Failed(format!("no random id: {e}")),
        )
    })?;
    let lease = sessions.store.new_session(&id);
    let session = Session {
        id,
        value: T::default(),
        new: true,
        changed: false,
        abandoned: false,
    };
    Ok(Opened {
        session,
        lease,
        operation,
        root,
    })
}

impl<T: XmlItem> Opened<T> {
    #[doc(hidden)] // for generated code
    /// Closes the session when the call has been answered with `response`: stores it if it
    /// changed (issuing the cookie of a new one), removes it if abandoned, and releases its
    /// lock. A session that could not be stored turns the answer into the store's error, so
    /// that no client is told a call succeeded whose session was lost.
    pub async fn close(
        self,
        config: &ServerConfig,
        mut response: Response<Bytes>,
    ) -> Response<Bytes> {
        let Opened {
            session,
            lease,
            operation,
            root,
        } = self;
        let sessions = &config.sessions;
        let release = if session.abandoned {
            if session.new {
                Release::Keep
            } else {
                Release::Remove
            }
        } else if session.changed {
            match write_value(operation, root, &session.value) {
                Ok(data) => Release::Write(data),
                Err(error) => {
                    let _ = lease.release(Release::Keep, sessions.timeout).await;
                    return store_failed(
                        config,
                        &super::StoreError::Failed(format!(
                            "the session could not be written: {error}"
                        )),
                    );
                }
            }
        } else {
            Release::Keep
        };
        let issue = session.new && matches!(release, Release::Write(_));
        if let Err(error) = lease.release(release, sessions.timeout).await {
            return store_failed(config, &error);
        }
        if let Some(metrics) = &config.metrics {
            if issue {
                metrics.sessions_issued.inc();
            }
            if session.abandoned && !session.new {
                metrics.sessions_abandoned.inc();
            }
        }
        if issue {
            if let Ok(value) = HeaderValue::try_from(cookie::set_cookie(sessions, &session.id)) {
                response.headers_mut().append(SET_COOKIE, value);
            }
        }
        response
    }
}

#[doc(hidden)] // for generated code
/// Restarts the time-out of the session a call's cookie names, for an operation without
/// session state of a service with sessions (ASP.NET's `ResetItemTimeout`). A failing store
/// is logged, not answered: the call does not need its session.
pub async fn touch(config: &ServerConfig, request: &Request<Bytes>) {
    let sessions = &config.sessions;
    if let Some(id) =
        cookie::find(request.headers(), &sessions.cookie_name).filter(|id| id::is_legit(id))
    {
        if let Err(error) = sessions.store.touch(id, sessions.timeout).await {
            tracing::warn!(%error, "a session's time-out could not be restarted");
        }
    }
}

/// The session's bytes: the document an HTTP GET result of its class is.
fn write_value<T: XmlItem>(
    operation: &'static OperationInfo,
    root: &'static str,
    value: &T,
) -> Result<Vec<u8>, crate::EncodeError> {
    let response = crate::message::response::value_response(
        Binding::HttpGet,
        operation,
        Some(value),
        &[],
        root,
    )?;
    Ok(response.into_body().to_vec())
}

/// The session class read back from its bytes.
fn read_value<T: XmlItem>(
    operation: &'static OperationInfo,
    root: &'static str,
    data: &[u8],
) -> Result<T, String> {
    let node = crate::soap::read_tree_document(operation, root, data)?
        .ok_or_else(|| "the stored session is nil".to_owned())?;
    T::read_element(&node, &[]).map_err(|e| e.to_string())
}
