//! A call's array result read item by item as the response arrives, so that a response of
//! any size is read holding one batch of items at a time (a generated client's `call_items`).

use std::time::Duration;

use bytes::Bytes;
use http::header::CONTENT_TYPE;
use http::{Response, StatusCode};
use http_body_util::BodyExt;

use super::{CallError, StreamedBody, TransportError};
use crate::content_type::content_type_param;
use crate::message::items::ItemCut;
use crate::{Binding, OperationInfo, ResponseError};

/// The items of an array result, read as the response brings them.
///
/// The response's bytes are cut into pieces of about 64 KiB of whole items, each read by
/// the operation's own decoder as a message of its own (the response's head, the items, the
/// closing tags), so every rule of a whole read holds item by item: names, namespaces,
/// `xsi:type`, `xsi:nil` (an item that may be nil is an `Option`), items of other names
/// skipped. The memory held is a piece's bytes and items, however long the response.
///
/// The client's timeout bounds the wait for the response's head and then for each chunk of
/// its body: a response that stops arriving for that long ends in a timeout, however long
/// the whole takes.
///
/// A fault, an error status, or a response that cannot be cut (a bare operation's, or in
/// another charset than UTF-8) is read whole, to at most 64 MiB, and comes as the first
/// item's error, as [`call`](crate::client) would give it. One rule differs from a whole
/// read: a response repeating its result element after items of the first is refused
/// (a whole read takes the last one), since the items already given cannot be taken back.
pub struct Items<I> {
    operation: &'static str,
    binding: Binding,
    idle: Option<Duration>,
    head: http::response::Parts,
    body: StreamedBody,
    cut: Option<ItemCut>,
    decode: Decode<I>,
    ready: std::vec::IntoIter<I>,
}

/// Reads one piece, a message of its own, into its items.
type Decode<I> = fn(&Response<Bytes>, Binding) -> Result<Vec<I>, ResponseError>;

impl<I> std::fmt::Debug for Items<I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Items")
            .field("operation", &self.operation)
            .field("binding", &self.binding)
            .field("status", &self.head.status)
            .field("finished", &self.cut.is_none())
            .finish_non_exhaustive()
    }
}

impl<I> Items<I> {
    #[doc(hidden)] // for generated code
    /// The items of `response`, a response to `operation` over `binding`, each piece read
    /// by `decode`; the body fails when nothing of it arrives for `idle` (the client's
    /// timeout).
    pub fn new(
        operation: &'static OperationInfo,
        binding: Binding,
        response: Response<StreamedBody>,
        idle: Option<Duration>,
        decode: Decode<I>,
    ) -> Items<I> {
        let (head, body) = response.into_parts();
        let utf8 = head
            .headers
            .get(CONTENT_TYPE)
            .and_then(|value| content_type_param(value.as_bytes(), b"charset"))
            .is_none_or(|charset| charset.eq_ignore_ascii_case(b"utf-8"));
        let xml = binding.is_soap() || matches!(binding, Binding::HttpGet | Binding::HttpPost);
        let whole =
            operation.bare || operation.raw_trees || !xml || !utf8 || head.status != StatusCode::OK;
        Items {
            operation: operation.name,
            binding,
            idle,
            head,
            body,
            cut: Some(ItemCut::new(binding, operation.result_name, whole)),
            decode,
            ready: Vec::new().into_iter(),
        }
    }

    /// The next item, or `None` after the last. An error (a fault, an undecodable piece, a
    /// broken connection) is the last thing given.
    pub async fn next(&mut self) -> Option<Result<I, CallError>> {
        loop {
            if let Some(item) = self.ready.next() {
                return Some(Ok(item));
            }
            self.cut.as_ref()?;
            if let Err(error) = self.read_piece().await {
                self.cut = None;
                return Some(Err(error));
            }
        }
    }

    /// Every item left, in order: the whole result, as a whole read gives it.
    pub async fn collect(mut self) -> Result<Vec<I>, CallError> {
        let mut items = Vec::new();
        while let Some(item) = self.next().await {
            items.push(item?);
        }
        Ok(items)
    }

    /// Reads the body until a piece is cut, or to its end, and decodes that piece.
    async fn read_piece(&mut self) -> Result<(), CallError> {
        loop {
            let Some(cut) = self.cut.as_mut() else {
                return Ok(());
            };
            match cut.piece() {
                Ok(Some(piece)) => return self.decode(piece),
                Ok(None) => {}
                Err(error) => return Err(self.undecodable(error.to_string())),
            }
            let frame = match self.idle {
                Some(limit) => match tokio::time::timeout(limit, self.body.frame()).await {
                    Ok(frame) => frame,
                    Err(_) => Some(Err(TransportError::Timeout(limit))),
                },
                None => self.body.frame().await,
            };
            match frame {
                Some(Ok(frame)) => {
                    if let (Ok(data), Some(cut)) = (frame.into_data(), self.cut.as_mut()) {
                        cut.push(&data);
                    }
                }
                Some(Err(source)) => {
                    return Err(CallError::Transport {
                        operation: self.operation,
                        binding: self.binding,
                        source,
                    })
                }
                None => {
                    let last = self.cut.take().map(ItemCut::last).unwrap_or_default();
                    return self.decode(last);
                }
            }
        }
    }

    fn decode(&mut self, piece: Vec<u8>) -> Result<(), CallError> {
        let mut message = Response::new(Bytes::from(piece));
        *message.status_mut() = self.head.status;
        *message.version_mut() = self.head.version;
        *message.headers_mut() = self.head.headers.clone();
        self.ready = (self.decode)(&message, self.binding)?.into_iter();
        Ok(())
    }

    fn undecodable(&self, reason: String) -> CallError {
        CallError::Response(ResponseError::Undecodable {
            operation: self.operation,
            binding: self.binding,
            reason,
            body: Bytes::new(),
        })
    }
}
