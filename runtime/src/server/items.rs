//! An array result written as its handler makes it: [`Items`], what a handler gives, and the
//! writer that sends them in chunks of about [`CHUNK`] bytes, so that a result of any size is
//! answered in the memory of a few chunks and one item.
//!
//! The bytes are those of the whole answer: the writer makes the calls `value_response`
//! makes (the envelope or the HTTP GET/POST document, the result element, each item as an
//! array writes it), keeping one writer's state across the chunks. An answer that ends
//! within the first chunk is sent whole, with its length, as every other answer is; a longer
//! one is sent as it is written, without a length (HTTP/1.1's chunked encoding), where the
//! host would have buffered it.

use std::panic::AssertUnwindSafe;
use std::pin::Pin;

use bytes::Bytes;
use futures_util::{FutureExt, Stream, StreamExt};
use http::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE};
use http::{Response, StatusCode};
use tokio::sync::{mpsc, oneshot};

use super::body::Chunk;
use super::Body;
use crate::message::response::DOCUMENT_NAMESPACES;
use crate::message::{self, CACHE_CONTROL_RESULT, STRING_DOCUMENT_PROLOG};
use crate::tree::{RawScope, XmlItem, XmlOut};
use crate::{soap, Binding, Fault, OperationInfo};

/// About how many bytes a streamed answer sends at a time: what the writer holds before it
/// hands them on (it holds one item more at most), and the size below which an answer is
/// sent whole.
pub const CHUNK: usize = 64 * 1024;

/// The items of an array result, as a handler of the operation's `…_items` method gives
/// them: the whole result (what the method gives unless the service overrides it), or a
/// stream of items, written as they come.
///
/// A stream's items are sent as they are written: the client has the first of them before
/// the handler has made the last, and the server holds a chunk, not the result. An error the
/// stream gives before the first chunk has gone is answered as the handler's fault; after
/// it, the response has begun (`200`, part of the body sent), so the connection is closed
/// and the client sees a body cut short (the host, which buffers its answers, would have
/// sent the fault: a service that must fault late should not stream).
pub struct Items<T> {
    kind: Kind<T>,
}

enum Kind<T> {
    Whole(Option<Vec<T>>),
    Stream(Pin<Box<dyn Stream<Item = Result<T, Fault>> + Send>>),
}

impl<T> std::fmt::Debug for Items<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            Kind::Whole(result) => f
                .debug_struct("Items")
                .field("whole", &result.as_ref().map(Vec::len))
                .finish(),
            Kind::Stream(_) => f.debug_struct("Items").field("stream", &"…").finish(),
        }
    }
}

impl<T: Send + 'static> Items<T> {
    /// The items as `stream` gives them (rows of a database cursor, say); an `Err` ends the
    /// result (see the type's documentation).
    pub fn stream(stream: impl Stream<Item = Result<T, Fault>> + Send + 'static) -> Items<T> {
        Items {
            kind: Kind::Stream(Box::pin(stream)),
        }
    }

    /// The items as `items` gives them. An iterator runs on the server's threads: one that
    /// waits (for a database, a file) belongs in a [`stream`](Items::stream).
    pub fn iter<I>(items: I) -> Items<T>
    where
        I: IntoIterator<Item = T>,
        I::IntoIter: Send + 'static,
    {
        Items::stream(futures_util::stream::iter(items.into_iter().map(Ok)))
    }

    /// A whole result, as the operation's plain method gives it (`None`: no result element).
    pub fn whole(result: Option<Vec<T>>) -> Items<T> {
        Items {
            kind: Kind::Whole(result),
        }
    }
}

impl<T: Send + 'static> From<Vec<T>> for Items<T> {
    fn from(items: Vec<T>) -> Items<T> {
        Items::whole(Some(items))
    }
}

#[doc(hidden)] // for generated code
/// The response to an array operation whose handler gave `items`. A whole result, a fault,
/// a JSON call's result and (when `chunked` is false, for the sans-IO `handle`) every result
/// are answered whole by `whole`, the operation's own writer; a stream is written in chunks
/// (see the module).
pub async fn items_response<T, W>(
    binding: Binding,
    operation: &'static OperationInfo,
    items: Result<Items<T>, Fault>,
    names: &'static [&'static str],
    root: &'static str,
    chunked: bool,
    whole: W,
) -> Response<Body>
where
    T: XmlItem + Send + 'static,
    W: FnOnce(Result<Option<Vec<T>>, Fault>) -> Response<Bytes>,
{
    let stream = match items {
        Err(fault) => return whole(Err(fault)).map(Body::from),
        Ok(Items {
            kind: Kind::Whole(result),
        }) => return whole(Ok(result)).map(Body::from),
        Ok(Items {
            kind: Kind::Stream(stream),
        }) => stream,
    };
    if binding == Binding::Json || !chunked {
        // JSON answers are bounded by `maxJsonLength` and written whole; so is the answer
        // of the whole-message `handle`, which has no body to stream.
        let collected: Result<Vec<T>, Fault> =
            stream.collect::<Vec<_>>().await.into_iter().collect();
        return whole(collected.map(Some)).map(Body::from);
    }
    spawn_writer(binding, operation, "writing items panicked", move |sink| {
        write(binding, operation, stream, names, root, sink)
    })
    .await
}

/// Runs `write` on a task of its own with a [`Sink`] to write into, and answers as it
/// begins: whole if it ends within its first chunk, else streamed as it writes.
pub(super) async fn spawn_writer<F>(
    binding: Binding,
    operation: &'static OperationInfo,
    panicked: &'static str,
    write: impl FnOnce(Sink) -> F,
) -> Response<Body>
where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    let (start_tx, start_rx) = oneshot::channel();
    // One chunk waiting while the writer fills the next: the memory of a few chunks.
    let (chunks_tx, chunks_rx) = mpsc::channel(1);
    let sink = Sink {
        start: Some(start_tx),
        chunks: chunks_tx,
    };
    let write = write(sink);
    tokio::spawn(async move {
        if let Err(panic) = AssertUnwindSafe(write).catch_unwind().await {
            let what = super::panic_message(panic.as_ref());
            tracing::error!(operation = operation.name, panic = %what, "{panicked}");
        }
    });
    match start_rx.await {
        Ok(Start::Whole(response)) => response.map(Body::from),
        Ok(Start::Streamed) => streamed_head(binding, Body::streamed(chunks_rx)),
        // The writer panicked before its first chunk: as a handler's panic is answered.
        Err(_) => message::fault_response(binding, &super::panic_fault()).map(Body::from),
    }
}

/// How the writer begins the response.
pub(super) enum Start {
    /// The answer is complete: sent whole, with its length.
    Whole(Response<Bytes>),
    /// The first chunk is on its way: the response is sent as it is written.
    Streamed,
}

/// Where the writer sends what it writes.
pub(super) struct Sink {
    /// Until the first chunk: how the response begins.
    start: Option<oneshot::Sender<Start>>,
    chunks: mpsc::Sender<Chunk>,
}

/// The client went away (the response's body was dropped): nothing more to write.
pub(super) struct Gone;

impl Sink {
    /// Sends a chunk (the response's head first, if not yet sent).
    pub(super) async fn send(&mut self, chunk: String) -> Result<(), Gone> {
        if let Some(start) = self.start.take() {
            start.send(Start::Streamed).map_err(|_| Gone)?;
        }
        self.chunks
            .send(Chunk::Data(Bytes::from(chunk)))
            .await
            .map_err(|_| Gone)
    }

    /// Ends the response with `rest`: whole if nothing was sent yet.
    pub(super) async fn end(mut self, binding: Binding, rest: String) {
        match self.start.take() {
            Some(start) => {
                let response = message::response(
                    StatusCode::OK,
                    message::response_content_type(binding),
                    rest,
                );
                let _ = start.send(Start::Whole(response));
            }
            None => {
                if self
                    .chunks
                    .send(Chunk::Data(Bytes::from(rest)))
                    .await
                    .is_ok()
                {
                    let _ = self.chunks.send(Chunk::End).await;
                }
            }
        }
    }

    /// Ends the response with `fault`: its fault response if nothing was sent yet, else
    /// a body cut short.
    pub(super) async fn fail(mut self, binding: Binding, operation: &'static str, fault: Fault) {
        match self.start.take() {
            Some(start) => {
                let _ = start.send(Start::Whole(message::fault_response(binding, &fault)));
            }
            None => {
                tracing::error!(
                    operation,
                    reason = %fault.reason,
                    "a streamed result failed after its first chunk: the connection is closed"
                );
                let _ = self.chunks.send(Chunk::Abort(fault.reason)).await;
            }
        }
    }
}

/// Writes the answer: the envelope (SOAP) or the document (HTTP GET/POST) as
/// `value_response` writes it, the items as they come.
async fn write<T: XmlItem>(
    binding: Binding,
    operation: &'static OperationInfo,
    mut stream: Pin<Box<dyn Stream<Item = Result<T, Fault>> + Send>>,
    names: &'static [&'static str],
    root: &'static str,
    mut sink: Sink,
) {
    let written = if binding.is_soap() {
        let mut w = soap::SoapWriter::new(binding, operation, CHUNK + CHUNK / 4);
        w.raw(operation.response_open);
        let mut out = w.elements();
        let written = write_array(
            &mut out,
            operation.result_name,
            names,
            &mut stream,
            &mut sink,
        )
        .await;
        out.finish();
        written.map(|()| {
            w.raw(operation.response_close);
            w.finish()
        })
    } else {
        let namespace = operation.service.namespace;
        let mut text = String::with_capacity(CHUNK + CHUNK / 4);
        text.push_str(STRING_DOCUMENT_PROLOG);
        let suffix = format!(" xmlns=\"{namespace}\"");
        let mut out = XmlOut::document(&mut text, operation.name, DOCUMENT_NAMESPACES, &suffix)
            .in_scope(RawScope::Document { default: namespace });
        let written = write_array(&mut out, root, names, &mut stream, &mut sink).await;
        out.finish();
        written.map(|()| text)
    };
    match written {
        Ok(rest) => sink.end(binding, rest).await,
        Err(Stop::Failed(fault)) => sink.fail(binding, operation.name, fault).await,
        Err(Stop::Gone) => {}
    }
}

/// Why the items stopped before their end.
pub(super) enum Stop {
    /// The stream gave an error, or an item could not be written.
    Failed(Fault),
    /// The client went away.
    Gone,
}

/// The array's element named `name` and its items, as an array writes them
/// ([`XmlItem::write_element`] of a `Vec`), a chunk sent whenever [`CHUNK`] bytes are
/// written.
async fn write_array<T: XmlItem>(
    out: &mut XmlOut<'_>,
    name: &'static str,
    names: &'static [&'static str],
    stream: &mut Pin<Box<dyn Stream<Item = Result<T, Fault>> + Send>>,
    sink: &mut Sink,
) -> Result<(), Stop> {
    let (item, inner) = names.split_first().unwrap_or((&"item", &[]));
    out.start(name);
    while let Some(next) = stream.next().await {
        let value = next.map_err(Stop::Failed)?;
        value
            .write_element(out, *item, inner)
            .map_err(|error| Stop::Failed(Fault::server(error.to_string())))?;
        if out.written_len() >= CHUNK {
            sink.send(out.take_written())
                .await
                .map_err(|Gone| Stop::Gone)?;
        }
    }
    out.end(name);
    Ok(())
}

/// The head of a streamed `200`: the headers of a result but its length, which is not known.
pub(super) fn streamed_head(binding: Binding, body: Body) -> Response<Body> {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, message::response_content_type(binding));
    headers.insert(
        CACHE_CONTROL,
        const { HeaderValue::from_static(CACHE_CONTROL_RESULT) },
    );
    response
}

#[cfg(test)]
#[path = "items_tests.rs"]
mod tests;
