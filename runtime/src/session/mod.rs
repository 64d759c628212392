//! Session state: ASP.NET's `[WebMethod(EnableSession = true)]`, on every binding.
//!
//! An operation marked `session: true` in the spec gets the call's [`Session`] in its
//! handler: the values of the spec's session class that the service keeps between one
//! client's calls. The client is told its session by the cookie `ASP.NET_SessionId`, issued
//! as .NET Framework 4.8 issues it (24 characters of `a`–`z0`–`5`;
//! `path=/; HttpOnly; SameSite=Lax`), when a call first stores something in a new session.
//! Sessions live in a [`SessionStore`]: [`MemoryStore`] in the process by default,
//! [`RedisStore`] (feature `redis`) for replicas that share them. A session lasts
//! [`SessionConfig::timeout`] past its last use; two calls of one session run one after the
//! other.

mod cookie;
mod id;
mod memory;
#[cfg(feature = "redis")]
mod redis;
mod state;
mod store;

use std::sync::Arc;
use std::time::Duration;

pub use memory::MemoryStore;
#[cfg(feature = "redis")]
pub use redis::RedisStore;
pub use state::Session;
#[doc(hidden)] // for generated code
pub use state::{open, touch, Opened};
pub use store::{Release, SessionLease, SessionStore, StoreError, StoreFuture};

/// The cookie ASP.NET names the session with.
pub const COOKIE_NAME: &str = "ASP.NET_SessionId";

/// The `SameSite` attribute of the session cookie (`sessionState cookieSameSite`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SameSite {
    /// `SameSite=Lax`, .NET Framework 4.8's default.
    Lax,
    /// `SameSite=Strict`.
    Strict,
    /// `SameSite=None`.
    None,
}

/// How a server keeps sessions (`<sessionState>`).
#[derive(Clone)]
pub struct SessionConfig {
    /// Where sessions live; [`MemoryStore`] by default.
    pub store: Arc<dyn SessionStore>,
    /// How long a session lasts past its last use (`timeout`, 20 minutes by default).
    pub timeout: Duration,
    /// How long a call waits for its session while another call of it runs (ASP.NET waits
    /// up to `executionTimeout`, 110 s by default); past it the call is refused.
    pub lock_timeout: Duration,
    /// The cookie's name (`cookieName`, `ASP.NET_SessionId` by default).
    pub cookie_name: String,
    /// The cookie's `SameSite` (`cookieSameSite`, `Lax` by default; `None` writes none, as
    /// .NET Framework before 4.7.2 and Mono do).
    pub same_site: Option<SameSite>,
}

impl Default for SessionConfig {
    fn default() -> SessionConfig {
        SessionConfig {
            store: Arc::new(MemoryStore::new()),
            timeout: Duration::from_secs(20 * 60),
            lock_timeout: Duration::from_secs(110),
            cookie_name: COOKIE_NAME.to_owned(),
            same_site: Some(SameSite::Lax),
        }
    }
}

impl SessionConfig {
    /// Sessions in `store`, with the other settings as they are.
    pub fn with_store(mut self, store: impl SessionStore) -> SessionConfig {
        self.store = Arc::new(store);
        self
    }
}

impl std::fmt::Debug for SessionConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionConfig")
            .field("store", &self.store.describe())
            .field("timeout", &self.timeout)
            .field("lock_timeout", &self.lock_timeout)
            .field("cookie_name", &self.cookie_name)
            .field("same_site", &self.same_site)
            .finish()
    }
}
