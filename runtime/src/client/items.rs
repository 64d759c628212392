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
    pieces: Pieces,
    decode: Decode<I>,
    ready: std::vec::IntoIter<I>,
}

/// Reads one piece, a message of its own, into its items.
type Decode<I> = fn(&Response<Bytes>, Binding) -> Result<Vec<I>, ResponseError>;

impl<I> std::fmt::Debug for Items<I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Items")
            .field("operation", &self.pieces.operation)
            .field("binding", &self.pieces.binding)
            .field("status", &self.pieces.head.status)
            .field("finished", &self.pieces.cut.is_none())
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
        Items {
            pieces: Pieces::new(operation, binding, response, idle, ItemCut::new),
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
            match self.pieces.next_read(self.decode).await? {
                Ok(items) => self.ready = items.into_iter(),
                Err(error) => return Some(Err(error)),
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
}

/// A response's body cut into pieces as it arrives, each a message of its own (see
/// [`crate::message::items`]).
pub(super) struct Pieces {
    pub(super) operation: &'static str,
    pub(super) binding: Binding,
    idle: Option<Duration>,
    pub(super) head: http::response::Parts,
    body: StreamedBody,
    /// `None` once the last piece is given, or an error.
    pub(super) cut: Option<ItemCut>,
}

impl Pieces {
    /// The pieces of `response`, cut by the cutter `cut` makes (`ItemCut::new` for an
    /// array's items, `ItemCut::rows` for a DataSet's rows) unless the response cannot be
    /// cut (a fault, an error status, a bare operation's, another charset than UTF-8),
    /// which is then one piece.
    pub(super) fn new(
        operation: &'static OperationInfo,
        binding: Binding,
        response: Response<StreamedBody>,
        idle: Option<Duration>,
        cut: fn(Binding, &'static str, bool) -> ItemCut,
    ) -> Pieces {
        let (head, body) = response.into_parts();
        let utf8 = head
            .headers
            .get(CONTENT_TYPE)
            .and_then(|value| content_type_param(value.as_bytes(), b"charset"))
            .is_none_or(|charset| charset.eq_ignore_ascii_case(b"utf-8"));
        let xml = binding.is_soap() || matches!(binding, Binding::HttpGet | Binding::HttpPost);
        let whole =
            operation.bare || operation.raw_trees || !xml || !utf8 || head.status != StatusCode::OK;
        Pieces {
            operation: operation.name,
            binding,
            idle,
            head,
            body,
            cut: Some(cut(binding, operation.result_name, whole)),
        }
    }

    /// What `read` reads of the next piece, a response of its own (the status and headers of
    /// the whole), or `None` after the last. An error ends the pieces.
    pub(super) async fn next_read<T>(
        &mut self,
        read: impl FnOnce(&Response<Bytes>, Binding) -> Result<T, ResponseError>,
    ) -> Option<Result<T, CallError>> {
        let read = match self.read_piece().await {
            Ok(None) => return None,
            Ok(Some(piece)) => read(&piece, self.binding).map_err(CallError::from),
            Err(error) => Err(error),
        };
        if read.is_err() {
            self.cut = None;
        }
        Some(read)
    }

    /// Reads the body until a piece is cut, or to its end.
    async fn read_piece(&mut self) -> Result<Option<Response<Bytes>>, CallError> {
        loop {
            let Some(cut) = self.cut.as_mut() else {
                return Ok(None);
            };
            match cut.piece() {
                Ok(Some(piece)) => return Ok(Some(self.message(piece))),
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
                    return Ok(Some(self.message(last)));
                }
            }
        }
    }

    fn message(&self, piece: Vec<u8>) -> Response<Bytes> {
        let mut message = Response::new(Bytes::from(piece));
        *message.status_mut() = self.head.status;
        *message.version_mut() = self.head.version;
        *message.headers_mut() = self.head.headers.clone();
        message
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
