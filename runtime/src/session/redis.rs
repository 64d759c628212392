//! Sessions in a Redis server (feature `redis`), for replicas behind a load balancer: what
//! ASP.NET's StateServer and SQL Server modes were for, with the session's time-out as the
//! key's expiry.
//!
//! Session `id` is the key `{prefix}{id}` (the session's bytes, expiring after its
//! time-out); a call holding it holds `{prefix}{id}:lock` (a token of its own, expiring after
//! the lock time-out, so that a replica that dies holding a session does not hold it for
//! ever). Releasing writes and unlocks in one script, and only while the call still holds the
//! lock: a call that outlived its lock writes nothing over the call that took it next.

use std::time::Duration;

use redis::aio::ConnectionManager;
use redis::AsyncCommands;

use super::store::{Release, SessionLease, SessionStore, StoreError, StoreFuture};

/// Sessions in Redis, shared by every replica connected to it. Cloning shares the
/// connection, which reconnects by itself after a failure.
#[derive(Clone)]
pub struct RedisStore {
    connection: ConnectionManager,
    prefix: String,
    lock_expiry: Duration,
    described: String,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("server", &self.described)
            .field("prefix", &self.prefix)
            .finish()
    }
}

/// Releases a session: unlocks it if this call still holds it, and then writes (`w`), removes
/// (`r`) or keeps (`k`) it. A session the call never locked (a new one) is written as is.
/// KEYS: the session, its lock. ARGV: the call's token (empty: no lock), the action, the
/// bytes, the time-out in milliseconds.
const RELEASE: &str = r"
local held = ARGV[1] == '' or redis.call('GET', KEYS[2]) == ARGV[1]
if not held then return 0 end
if ARGV[1] ~= '' then redis.call('DEL', KEYS[2]) end
if ARGV[2] == 'w' then redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
elseif ARGV[2] == 'r' then redis.call('DEL', KEYS[1]) end
return 1
";

impl RedisStore {
    /// Connects to the Redis server at `url` (`redis://127.0.0.1:6379/0`), its keys named
    /// `rmm:session:{id}`, a lock expiring after 110 s (ASP.NET's `executionTimeout`, after
    /// which it takes a session's lock from the call that holds it).
    pub async fn connect(url: &str) -> Result<RedisStore, StoreError> {
        let client = redis::Client::open(url).map_err(failed)?;
        let connection = ConnectionManager::new(client).await.map_err(failed)?;
        Ok(RedisStore {
            connection,
            prefix: "rmm:session:".to_owned(),
            lock_expiry: Duration::from_secs(110),
            described: redact_password(url),
        })
    }

    /// Names the keys `{prefix}{id}`: services sharing one Redis keep their sessions apart
    /// by prefix.
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> RedisStore {
        self.prefix = prefix.into();
        self
    }

    /// Lets a lock expire after `expiry`: the longest a call may hold its session, and so
    /// the longest a session stays held by a replica that died holding it.
    pub fn with_lock_expiry(mut self, expiry: Duration) -> RedisStore {
        self.lock_expiry = expiry;
        self
    }

    fn keys(&self, id: &str) -> (String, String) {
        let key = format!("{}{id}", self.prefix);
        let lock = format!("{key}:lock");
        (key, lock)
    }
}

fn failed(error: redis::RedisError) -> StoreError {
    StoreError::Failed(error.to_string())
}

/// A URL with its password, if any, replaced by `***`.
fn redact_password(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            match userinfo.find(':') {
                Some(colon) => format!(
                    "{}{}:***{}",
                    &url[..scheme + 3],
                    &userinfo[..colon],
                    &url[at..]
                ),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

impl SessionStore for RedisStore {
    fn acquire<'a>(
        &'a self,
        id: &'a str,
        ttl: Duration,
        wait: Duration,
    ) -> StoreFuture<'a, Box<dyn SessionLease>> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let (key, lock) = self.keys(id);
            let token = super::id::create().map_err(|e| StoreError::Failed(e.to_string()))?;
            let started = tokio::time::Instant::now();
            let mut pause = Duration::from_millis(5);
            loop {
                let taken: Option<String> = redis::cmd("SET")
                    .arg(&lock)
                    .arg(&token)
                    .arg("NX")
                    .arg("PX")
                    .arg(millis(self.lock_expiry))
                    .query_async(&mut connection)
                    .await
                    .map_err(failed)?;
                if taken.is_some() {
                    break;
                }
                if started.elapsed() + pause > wait {
                    return Err(StoreError::Locked(wait));
                }
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_millis(100));
            }
            // GETEX reads the session and restarts its time-out in one command.
            let data: Option<Vec<u8>> = redis::cmd("GETEX")
                .arg(&key)
                .arg("PX")
                .arg(millis(ttl))
                .query_async(&mut connection)
                .await
                .map_err(failed)?;
            let lease = RedisLease {
                store: self.clone(),
                key,
                lock,
                token,
                data,
            };
            if lease.data.is_none() {
                // Not stored: the call gets a new session under a new id, and this id's
                // lock is not needed.
                let _: () = connection.del(&lease.lock).await.map_err(failed)?;
                return Ok(self.new_session(id));
            }
            Ok(Box::new(lease) as Box<dyn SessionLease>)
        })
    }

    fn new_session(&self, id: &str) -> Box<dyn SessionLease> {
        let (key, lock) = self.keys(id);
        Box::new(RedisLease {
            store: self.clone(),
            key,
            lock,
            token: String::new(),
            data: None,
        })
    }

    fn touch<'a>(&'a self, id: &'a str, ttl: Duration) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let (key, _) = self.keys(id);
            let _: bool = connection
                .pexpire(&key, i64::try_from(millis(ttl)).unwrap_or(i64::MAX))
                .await
                .map_err(failed)?;
            Ok(())
        })
    }

    fn describe(&self) -> String {
        self.described.clone()
    }
}

/// A call's hold on a session in Redis: its keys and its lock's token (empty for a session
/// not stored, whose id is new).
struct RedisLease {
    store: RedisStore,
    key: String,
    lock: String,
    token: String,
    data: Option<Vec<u8>>,
}

impl SessionLease for RedisLease {
    fn take_data(&mut self) -> Option<Vec<u8>> {
        self.data.take()
    }

    fn release(self: Box<Self>, release: Release, ttl: Duration) -> StoreFuture<'static, ()> {
        Box::pin(async move {
            if self.token.is_empty() && release == Release::Keep {
                return Ok(());
            }
            let mut connection = self.store.connection.clone();
            let (action, data) = match release {
                Release::Keep => ("k", Vec::new()),
                Release::Write(data) => ("w", data),
                Release::Remove => ("r", Vec::new()),
            };
            let held: i64 = redis::Script::new(RELEASE)
                .key(&self.key)
                .key(&self.lock)
                .arg(&self.token)
                .arg(action)
                .arg(data)
                .arg(millis(ttl))
                .invoke_async(&mut connection)
                .await
                .map_err(failed)?;
            if held == 0 {
                tracing::warn!(
                    key = %self.key,
                    "a call outlived its session lock: its changes to the session are dropped"
                );
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::redact_password;

    #[test]
    fn a_password_is_not_described() {
        assert_eq!(
            redact_password("redis://user:secret@host:6379/0"),
            "redis://user:***@host:6379/0"
        );
        assert_eq!(redact_password("redis://host:6379"), "redis://host:6379");
        assert_eq!(redact_password("redis://:pw@host"), "redis://:***@host");
    }
}
