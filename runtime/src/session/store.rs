//! Where sessions live between calls: the [`SessionStore`] trait, and what a store answers.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

/// A store's future: boxed, so that a server holds its store as `Arc<dyn SessionStore>`
/// and a store is chosen at run time (memory for one process, Redis for replicas).
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// Why a store could not serve a session.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// Another call held the session for longer than the lock time-out.
    #[error("the session is held by another call for longer than {0:?}")]
    Locked(Duration),
    /// The store itself failed (a connection refused, a command refused).
    #[error("the session store failed: {0}")]
    Failed(String),
}

/// What a call leaves of its session when it ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Release {
    /// Unchanged: only the lock is released (the time-out restarted when it was taken).
    Keep,
    /// Changed: stored anew, its time-out restarted.
    Write(Vec<u8>),
    /// Abandoned (`Session.Abandon()`): removed.
    Remove,
}

/// Sessions kept between calls, each under its id, as ASP.NET's session state stores keep
/// them (`SessionStateStoreProviderBase`): a call of an operation with session state takes
/// its session's exclusive lock, reads it, and when it ends writes it back (or not) and
/// releases the lock, so that two calls of one session run one after the other. A session
/// ends when it goes unused for its time-out (the store's expiry), and every use restarts it.
///
/// [`MemoryStore`](super::MemoryStore) keeps them in the process;
/// [`RedisStore`](super::RedisStore) (feature `redis`) in a Redis server that replicas share.
/// A store of your own implements these three methods.
pub trait SessionStore: Send + Sync + 'static {
    /// Takes the exclusive lock of session `id`, waiting up to `wait` for a call that holds
    /// it, and reads the session, restarting its time-out `ttl`. A session not stored (never,
    /// or expired, or removed) gives a lease with no data, holding no lock: the server
    /// then gives the call a new session under a new id.
    fn acquire<'a>(
        &'a self,
        id: &'a str,
        ttl: Duration,
        wait: Duration,
    ) -> StoreFuture<'a, Box<dyn SessionLease>>;

    /// The lease of a new session under `id`, an id just made, which no other call can know:
    /// nothing to read or lock.
    fn new_session(&self, id: &str) -> Box<dyn SessionLease>;

    /// Restarts the time-out of session `id`, if it is stored, as a call of an operation
    /// without session state does for the session its cookie names (ASP.NET's
    /// `ResetItemTimeout`).
    fn touch<'a>(&'a self, id: &'a str, ttl: Duration) -> StoreFuture<'a, ()>;

    /// A name for logs and `Debug` (`memory`, `redis://host:port`).
    fn describe(&self) -> String;
}

/// A session taken by one call: its stored bytes, and its lock until
/// [`release`](SessionLease::release). Dropped without a release (the call's future
/// dropped, its client gone), the lock goes as the store lets it: at once in memory, at the
/// lock's expiry in Redis.
pub trait SessionLease: Send {
    /// The session as stored, taken out of the lease; `None` for a session not stored.
    fn take_data(&mut self) -> Option<Vec<u8>>;

    /// Ends the call's hold: writes, keeps or removes the session, and releases the lock.
    fn release(self: Box<Self>, release: Release, ttl: Duration) -> StoreFuture<'static, ()>;
}
