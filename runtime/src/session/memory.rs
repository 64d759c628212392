//! Sessions in the process (ASP.NET's `InProc` mode): the default store, for one process.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

// tokio's clock, so that tests can stop it (`start_paused`); it reads the same clock.
use tokio::time::Instant;

use tokio::sync::OwnedMutexGuard;

use super::store::{Release, SessionLease, SessionStore, StoreError, StoreFuture};

/// Sessions kept in this process's memory, each with its lock and expiry. Cloning shares
/// them. Replicas do not see each other's: behind a load balancer without affinity, use
/// [`RedisStore`](super::RedisStore).
#[derive(Clone, Default)]
pub struct MemoryStore {
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    sessions: Mutex<HashMap<String, Arc<Entry>>>,
    /// Calls since expired sessions were last swept out.
    since_sweep: AtomicUsize,
}

/// One session: the lock a call holds while it runs, and what is stored.
#[derive(Default)]
struct Entry {
    lock: Arc<tokio::sync::Mutex<()>>,
    stored: Mutex<Option<Stored>>,
}

struct Stored {
    data: Vec<u8>,
    expires: Instant,
}

/// Sweep expired sessions out every this many calls (each sweep walks them all).
const SWEEP_EVERY: usize = 1024;

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    /// The sessions stored and not expired.
    pub fn len(&self) -> usize {
        let now = Instant::now();
        let sessions = self
            .inner
            .sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        sessions
            .values()
            .filter(|entry| entry.live(now).is_some())
            .count()
    }

    /// Whether no session is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn entry(&self, id: &str) -> Option<Arc<Entry>> {
        if self.inner.since_sweep.fetch_add(1, Ordering::Relaxed) >= SWEEP_EVERY {
            self.inner.since_sweep.store(0, Ordering::Relaxed);
            self.sweep();
        }
        let sessions = self
            .inner
            .sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        sessions.get(id).cloned()
    }

    /// Drops expired sessions no call holds.
    fn sweep(&self) {
        let now = Instant::now();
        let mut sessions = self
            .inner
            .sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        sessions.retain(|_, entry| entry.lock.try_lock().is_err() || entry.live(now).is_some());
    }
}

impl std::fmt::Debug for MemoryStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryStore")
            .field("sessions", &self.len())
            .finish()
    }
}

impl Entry {
    /// Its expiry, if it is stored and not expired at `now`.
    fn live(&self, now: Instant) -> Option<Instant> {
        let stored = self.stored.lock().unwrap_or_else(|e| e.into_inner());
        stored
            .as_ref()
            .map(|s| s.expires)
            .filter(|&expires| expires > now)
    }
}

impl SessionStore for MemoryStore {
    fn acquire<'a>(
        &'a self,
        id: &'a str,
        ttl: Duration,
        wait: Duration,
    ) -> StoreFuture<'a, Box<dyn SessionLease>> {
        Box::pin(async move {
            let Some(entry) = self.entry(id) else {
                return Ok(self.new_session(id));
            };
            let guard = tokio::time::timeout(wait, Arc::clone(&entry.lock).lock_owned())
                .await
                .map_err(|_| StoreError::Locked(wait))?;
            let data = {
                let mut stored = entry.stored.lock().unwrap_or_else(|e| e.into_inner());
                let now = Instant::now();
                match stored.as_mut() {
                    Some(s) if s.expires > now => {
                        s.expires = now + ttl;
                        Some(s.data.clone())
                    }
                    _ => {
                        *stored = None;
                        None
                    }
                }
            };
            match data {
                Some(data) => Ok(Box::new(MemoryLease {
                    store: self.clone(),
                    id: id.to_owned(),
                    held: Some((entry, guard)),
                    data: Some(data),
                }) as Box<dyn SessionLease>),
                None => Ok(self.new_session(id)),
            }
        })
    }

    fn new_session(&self, id: &str) -> Box<dyn SessionLease> {
        Box::new(MemoryLease {
            store: self.clone(),
            id: id.to_owned(),
            held: None,
            data: None,
        })
    }

    fn touch<'a>(&'a self, id: &'a str, ttl: Duration) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            if let Some(entry) = self.entry(id) {
                let mut stored = entry.stored.lock().unwrap_or_else(|e| e.into_inner());
                let now = Instant::now();
                if let Some(s) = stored.as_mut().filter(|s| s.expires > now) {
                    s.expires = now + ttl;
                }
            }
            Ok(())
        })
    }

    fn describe(&self) -> String {
        "memory".to_owned()
    }
}

/// A call's hold on a session in memory: the entry and its lock (none for a session not
/// stored, which no other call can name: its id is new).
struct MemoryLease {
    store: MemoryStore,
    id: String,
    held: Option<(Arc<Entry>, OwnedMutexGuard<()>)>,
    data: Option<Vec<u8>>,
}

impl SessionLease for MemoryLease {
    fn take_data(&mut self) -> Option<Vec<u8>> {
        self.data.take()
    }

    fn release(self: Box<Self>, release: Release, ttl: Duration) -> StoreFuture<'static, ()> {
        let MemoryLease {
            store, id, held, ..
        } = *self;
        Box::pin(async move {
            let entry = match &held {
                Some((entry, _)) => Arc::clone(entry),
                None if release == Release::Keep => return Ok(()),
                None => {
                    let mut sessions = store
                        .inner
                        .sessions
                        .lock()
                        .unwrap_or_else(|e| e.into_inner());
                    Arc::clone(sessions.entry(id.clone()).or_default())
                }
            };
            let mut stored = entry.stored.lock().unwrap_or_else(|e| e.into_inner());
            match release {
                Release::Keep => {}
                Release::Write(data) => {
                    *stored = Some(Stored {
                        data,
                        expires: Instant::now() + ttl,
                    });
                }
                Release::Remove => {
                    *stored = None;
                    drop(stored);
                    let mut sessions = store
                        .inner
                        .sessions
                        .lock()
                        .unwrap_or_else(|e| e.into_inner());
                    if sessions.get(&id).is_some_and(|e| Arc::ptr_eq(e, &entry)) {
                        sessions.remove(&id);
                    }
                }
            }
            // The lock goes with `held`, after the session is written.
            drop(held);
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TTL: Duration = Duration::from_secs(60);
    const WAIT: Duration = Duration::from_millis(200);

    #[tokio::test]
    async fn a_session_is_written_read_and_removed() {
        let store = MemoryStore::new();
        let mut lease = store.acquire("s", TTL, WAIT).await.unwrap();
        assert_eq!(lease.take_data(), None);
        lease
            .release(Release::Write(b"one".to_vec()), TTL)
            .await
            .unwrap();
        assert_eq!(store.len(), 1);
        let mut lease = store.acquire("s", TTL, WAIT).await.unwrap();
        assert_eq!(lease.take_data().as_deref(), Some(&b"one"[..]));
        lease.release(Release::Keep, TTL).await.unwrap();
        let lease = store.acquire("s", TTL, WAIT).await.unwrap();
        lease.release(Release::Remove, TTL).await.unwrap();
        assert!(store.is_empty());
        let mut lease = store.acquire("s", TTL, WAIT).await.unwrap();
        assert_eq!(lease.take_data(), None);
    }

    /// A second call of a session waits for the first; past the wait it is refused.
    #[tokio::test]
    async fn two_calls_of_one_session_run_one_after_the_other() {
        let store = MemoryStore::new();
        let lease = store.acquire("s", TTL, WAIT).await.unwrap();
        lease
            .release(Release::Write(b"0".to_vec()), TTL)
            .await
            .unwrap();
        let held = store.acquire("s", TTL, WAIT).await.unwrap();
        match store.acquire("s", TTL, WAIT).await {
            Err(StoreError::Locked(wait)) => assert_eq!(wait, WAIT),
            other => panic!("taken twice: {:?}", other.map(|_| ())),
        }
        let second = {
            let store = store.clone();
            tokio::spawn(async move {
                let mut lease = store
                    .acquire("s", TTL, Duration::from_secs(5))
                    .await
                    .unwrap();
                lease.take_data()
            })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        held.release(Release::Write(b"1".to_vec()), TTL)
            .await
            .unwrap();
        // The waiting call sees what the first wrote.
        assert_eq!(second.await.unwrap().as_deref(), Some(&b"1"[..]));
        // A lease dropped without release lets go of the lock too.
        drop(store.acquire("s", TTL, WAIT).await.unwrap());
        assert!(store.acquire("s", TTL, WAIT).await.is_ok());
    }

    /// On tokio's paused clock: the sleeps move it exactly.
    #[tokio::test(start_paused = true)]
    async fn a_session_expires_unless_used() {
        let store = MemoryStore::new();
        let short = Duration::from_millis(60);
        let lease = store.acquire("s", short, WAIT).await.unwrap();
        lease
            .release(Release::Write(b"x".to_vec()), short)
            .await
            .unwrap();
        // Touched within its time-out, it lives on past the first expiry.
        tokio::time::sleep(Duration::from_millis(40)).await;
        store.touch("s", short).await.unwrap();
        tokio::time::sleep(Duration::from_millis(40)).await;
        assert_eq!(store.len(), 1);
        tokio::time::sleep(Duration::from_millis(70)).await;
        assert!(store.is_empty());
        let mut lease = store.acquire("s", short, WAIT).await.unwrap();
        assert_eq!(lease.take_data(), None);
    }
}
