//! The HTTP side of a server: reading a body within the limits, and a hyper 1 accept loop.

use std::convert::Infallible;
use std::future::Future;
use std::time::Duration;

use bytes::{Buf, BufMut, Bytes, BytesMut};
use http::{Request, Response};
use http_body::Body;
use http_body_util::BodyExt;
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
///
/// Not an `async fn`: the request is taken apart before the future is made, so that the
/// future holds its head once (an `async fn` holds its arguments beside what it makes of
/// them), and it does not borrow `config`. The server boxes this future for every request.
pub fn collect_body<B>(
    request: Request<B>,
    config: &ServerConfig,
) -> impl Future<Output = Result<Request<Bytes>, BodyError>> + use<B>
where
    B: Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let (parts, body) = request.into_parts();
    let limit = config.max_body_bytes;
    let timeout = config.body_timeout;
    // A declared length over the limit is refused before a byte of it is read.
    let declared_over = parts
        .headers
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok())
        .is_some_and(|len| len > limit as u64);
    async move {
        if declared_over {
            return Err(BodyError::TooLarge { limit });
        }
        // Usually hyper has the whole body buffered already: poll once before arming a
        // timer, which costs a timer-wheel entry per request.
        let mut read = std::pin::pin!(read_whole(body, limit));
        let ready = std::future::poll_fn(|cx| std::task::Poll::Ready(read.as_mut().poll(cx))).await;
        let bytes = match ready {
            std::task::Poll::Ready(read) => read?,
            std::task::Poll::Pending => tokio::time::timeout(timeout, read)
                .await
                .map_err(|_| BodyError::Timeout(timeout))??,
        };
        Ok(Request::from_parts(parts, bytes))
    }
}

/// The data of `body`, at most `limit` bytes of it (trailers are left out). A body that comes
/// as one data frame, as hyper gives one that arrived whole, is that frame's bytes, neither
/// copied nor gathered into a list first; several are joined.
async fn read_whole<B>(body: B, limit: usize) -> Result<Bytes, BodyError>
where
    B: Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let mut body = std::pin::pin!(body);
    let mut whole = Bytes::new();
    let mut joined: Option<BytesMut> = None;
    let mut len = 0usize;
    while !body.is_end_stream() {
        let Some(frame) = body.as_mut().frame().await else {
            break;
        };
        let frame = frame.map_err(|e| BodyError::Read(e.into().to_string()))?;
        let Ok(mut data) = frame.into_data() else {
            continue;
        };
        let size = data.remaining();
        len = len.saturating_add(size);
        if len > limit {
            return Err(BodyError::TooLarge { limit });
        }
        if size == 0 {
            continue;
        }
        match &mut joined {
            Some(joined) => joined.put(data),
            None if whole.is_empty() => whole = data.copy_to_bytes(size),
            None => {
                let mut both = BytesMut::with_capacity(len);
                both.extend_from_slice(&whole);
                both.put(data);
                joined = Some(both);
            }
        }
    }
    Ok(joined.map_or(whole, BytesMut::freeze))
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

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::StreamBody;

    /// A body of `chunks`, each its own data frame, then trailers.
    fn framed(chunks: &[&'static str]) -> impl Body<Data = Bytes, Error = Infallible> {
        let mut frames: Vec<Result<http_body::Frame<Bytes>, Infallible>> = chunks
            .iter()
            .map(|c| Ok(http_body::Frame::data(Bytes::from_static(c.as_bytes()))))
            .collect();
        frames.push(Ok(http_body::Frame::trailers(http::HeaderMap::new())));
        StreamBody::new(futures_util::stream::iter(frames))
    }

    fn ready<T>(future: impl Future<Output = T>) -> T {
        let mut future = std::pin::pin!(future);
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match future.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(value) => value,
            std::task::Poll::Pending => panic!("a body at hand is read at once"),
        }
    }

    #[test]
    fn one_frame_is_taken_as_it_is() {
        let text: &'static str = "<soap:Envelope/>";
        let bytes = ready(read_whole(framed(&[text]), 1024)).unwrap();
        assert_eq!(bytes, text);
        assert_eq!(
            bytes.as_ptr(),
            text.as_ptr(),
            "the frame's bytes, not a copy"
        );
    }

    #[test]
    fn frames_are_joined_in_order_and_empty_ones_left_out() {
        let bytes = ready(read_whole(framed(&["<a>", "", "b", "</a>"]), 1024)).unwrap();
        assert_eq!(bytes, "<a>b</a>");
        assert_eq!(ready(read_whole(framed(&[]), 1024)).unwrap(), "");
    }

    #[test]
    fn the_limit_holds_the_data_whatever_its_frames() {
        assert_eq!(
            ready(read_whole(framed(&["abcd", "efgh"]), 8)).unwrap(),
            "abcdefgh"
        );
        for chunks in [
            &["abcdefghi"][..],
            &["abcd", "efghi"],
            &["abcd", "efgh", "i"],
        ] {
            assert!(
                matches!(
                    ready(read_whole(framed(chunks), 8)),
                    Err(BodyError::TooLarge { limit: 8 })
                ),
                "{chunks:?}"
            );
        }
    }
}
