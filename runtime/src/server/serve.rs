//! The HTTP side of a server: reading a body within the limits, and a hyper 1 accept loop.

use std::convert::Infallible;
use std::future::Future;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use http_body::Body;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;

use super::ServerConfig;

/// Why a request body could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    /// Longer than [`ServerConfig::max_body_bytes`].
    #[error("The request body is larger than the limit of {limit} bytes.")]
    TooLarge {
        /// The limit.
        limit: usize,
    },
    /// The client did not send it within [`ServerConfig::body_timeout`].
    #[error("The request body did not arrive within {0:?}.")]
    Timeout(Duration),
    /// The connection failed while reading it.
    #[error("The request body could not be read: {0}")]
    Read(String),
}

/// Reads the whole body of `request`, bounded in size and time.
pub async fn collect_body<B>(
    request: Request<B>,
    config: &ServerConfig,
) -> Result<Request<Bytes>, BodyError>
where
    B: Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let (parts, body) = request.into_parts();
    let limit = config.max_body_bytes;
    // A declared length over the limit is refused before a byte of it is read.
    if let Some(len) = parts
        .headers
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok())
    {
        if len > limit as u64 {
            return Err(BodyError::TooLarge { limit });
        }
    }
    // Usually hyper has the whole body buffered already: poll once before arming a timer,
    // which costs a timer-wheel entry per request.
    let mut collect = std::pin::pin!(Limited::new(body, limit).collect());
    let ready = std::future::poll_fn(|cx| std::task::Poll::Ready(collect.as_mut().poll(cx))).await;
    let collected = match ready {
        std::task::Poll::Ready(collected) => collected,
        std::task::Poll::Pending => tokio::time::timeout(config.body_timeout, collect)
            .await
            .map_err(|_| BodyError::Timeout(config.body_timeout))?,
    };
    match collected {
        Ok(collected) => Ok(Request::from_parts(parts, collected.to_bytes())),
        Err(e) if e.downcast_ref::<LengthLimitError>().is_some() => {
            Err(BodyError::TooLarge { limit })
        }
        Err(e) => Err(BodyError::Read(e.to_string())),
    }
}

/// Serves `service` on `listener` until the process ends: HTTP/1.1 with keep-alive, one task
/// per connection, the header timeout of `config`.
pub async fn serve<S, B>(
    listener: TcpListener,
    service: S,
    config: ServerConfig,
) -> std::io::Result<()>
where
    S: tower_service::Service<Request<Incoming>, Response = Response<B>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    serve_with_shutdown(listener, service, config, std::future::pending()).await
}

/// [`serve`] until `shutdown` completes, then stops gracefully: no new connection is
/// accepted, each open connection finishes the request it is answering and closes (an idle
/// keep-alive connection at once), and the function returns when all have closed, or when
/// [`ServerConfig::shutdown_grace`] has passed (the calls still in flight are then dropped).
pub async fn serve_with_shutdown<S, B, F>(
    listener: TcpListener,
    service: S,
    config: ServerConfig,
    shutdown: F,
) -> std::io::Result<()>
where
    S: tower_service::Service<Request<Incoming>, Response = Response<B>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    F: Future<Output = ()>,
{
    tokio::pin!(shutdown);
    let graceful = GracefulShutdown::new();
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: wait a moment rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(service.clone());
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(config.header_timeout)
            .keep_alive(true)
            .serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(%peer, error = %e, "connection ended with an error");
            }
        });
    }
    // No more connections: the listener closes here, so that a connection attempt is
    // refused (a load balancer then tries another replica) rather than left waiting.
    drop(listener);
    if tokio::time::timeout(config.shutdown_grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!(
            grace_ms = config.shutdown_grace.as_millis() as u64,
            "calls still in flight after the grace period: dropped"
        );
    }
    Ok(())
}
