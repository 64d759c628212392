//! The body of a server's response: whole (nearly every answer, sent with its length), or
//! streamed as it is written (an array result whose handler gives its items as they come,
//! see [`super::Items`]).

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Frame, SizeHint};
use tokio::sync::mpsc;

/// The body of a response of the generated server's `tower::Service`.
///
/// A whole body is the bytes themselves (no allocation of its own, its length known); a
/// streamed one takes its chunks from the task writing them, one chunk ahead at most, so a
/// result of any size is sent in the memory of a few chunks.
#[derive(Debug)]
pub struct Body {
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    /// The bytes, until they are taken.
    Whole(Option<Bytes>),
    /// The writer's messages, and whether its last arrived.
    Streamed {
        chunks: mpsc::Receiver<Chunk>,
        ended: bool,
    },
}

/// What the writer of a streamed body sends.
#[derive(Debug)]
pub(crate) enum Chunk {
    /// The next bytes.
    Data(Bytes),
    /// The body is complete.
    End,
    /// The body cannot be completed (the handler's stream failed after the head was sent):
    /// the connection is closed, so that the client sees a body cut short, never one that
    /// looks complete.
    Abort(String),
}

/// Why a streamed body stopped before its end; hyper closes the connection on it.
#[derive(Debug, thiserror::Error)]
#[error("the response body was cut short: {0}")]
pub struct BodyAborted(String);

impl Body {
    /// A streamed body fed by `chunks` (the writer of [`super::Items`]).
    pub(crate) fn streamed(chunks: mpsc::Receiver<Chunk>) -> Body {
        Body {
            kind: Kind::Streamed {
                chunks,
                ended: false,
            },
        }
    }

    /// A whole body's bytes; a streamed body is given back.
    pub(crate) fn into_whole(self) -> Result<Bytes, Body> {
        match self.kind {
            Kind::Whole(bytes) => Ok(bytes.unwrap_or_default()),
            kind @ Kind::Streamed { .. } => Err(Body { kind }),
        }
    }

    /// The whole body: its bytes at once, or a streamed one read to its end (the sans-IO
    /// `handle` gives a test or a caller of its own the bytes a client would read).
    pub async fn into_bytes(self) -> Result<Bytes, BodyAborted> {
        match self.kind {
            Kind::Whole(bytes) => Ok(bytes.unwrap_or_default()),
            Kind::Streamed { .. } => {
                let collected = http_body_util::BodyExt::collect(self).await?;
                Ok(collected.to_bytes())
            }
        }
    }
}

impl From<Bytes> for Body {
    fn from(bytes: Bytes) -> Body {
        Body {
            kind: Kind::Whole(Some(bytes)),
        }
    }
}

impl http_body::Body for Body {
    type Data = Bytes;
    type Error = BodyAborted;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BodyAborted>>> {
        match &mut self.kind {
            Kind::Whole(bytes) => Poll::Ready(bytes.take().map(|bytes| Ok(Frame::data(bytes)))),
            Kind::Streamed { ended: true, .. } => Poll::Ready(None),
            Kind::Streamed { chunks, ended } => match chunks.poll_recv(cx) {
                Poll::Pending => Poll::Pending,
                Poll::Ready(Some(Chunk::Data(bytes))) => Poll::Ready(Some(Ok(Frame::data(bytes)))),
                Poll::Ready(Some(Chunk::End)) => {
                    *ended = true;
                    Poll::Ready(None)
                }
                Poll::Ready(Some(Chunk::Abort(why))) => {
                    *ended = true;
                    Poll::Ready(Some(Err(BodyAborted(why))))
                }
                // The writer went away without ending the body (it panicked, or its task was
                // dropped): cut short, as an abort is.
                Poll::Ready(None) => {
                    *ended = true;
                    Poll::Ready(Some(Err(BodyAborted(
                        "the writer stopped before the end".to_owned(),
                    ))))
                }
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.kind {
            Kind::Whole(bytes) => bytes.as_ref().is_none_or(Bytes::is_empty),
            Kind::Streamed { ended, .. } => *ended,
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.kind {
            Kind::Whole(bytes) => {
                SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64))
            }
            Kind::Streamed { .. } => SizeHint::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body::Body as _;

    /// A whole body is one frame of its bytes, its length exact.
    #[tokio::test]
    async fn a_whole_body_is_its_bytes() {
        let body = Body::from(Bytes::from_static(b"<a />"));
        assert_eq!(body.size_hint().exact(), Some(5));
        assert!(!body.is_end_stream());
        assert_eq!(body.into_bytes().await.unwrap().as_ref(), b"<a />");
        assert!(Body::from(Bytes::new()).is_end_stream());
    }

    /// A streamed body is its chunks in order, complete only when its end came; a writer
    /// that goes away without it, or aborts, makes an error, never a body that looks whole.
    #[tokio::test]
    async fn a_streamed_body_is_complete_only_at_its_end() {
        let (tx, rx) = mpsc::channel(4);
        tx.send(Chunk::Data(Bytes::from_static(b"<a>")))
            .await
            .unwrap();
        tx.send(Chunk::Data(Bytes::from_static(b"</a>")))
            .await
            .unwrap();
        tx.send(Chunk::End).await.unwrap();
        assert_eq!(
            Body::streamed(rx).into_bytes().await.unwrap().as_ref(),
            b"<a></a>"
        );

        let (tx, rx) = mpsc::channel(4);
        tx.send(Chunk::Data(Bytes::from_static(b"<a>")))
            .await
            .unwrap();
        drop(tx);
        let cut = Body::streamed(rx).into_bytes().await.unwrap_err();
        assert!(cut.to_string().contains("before the end"), "{cut}");

        let (tx, rx) = mpsc::channel(4);
        tx.send(Chunk::Abort("the database went away".to_owned()))
            .await
            .unwrap();
        let aborted = Body::streamed(rx).into_bytes().await.unwrap_err();
        assert!(aborted.to_string().contains("database"), "{aborted}");
    }
}
