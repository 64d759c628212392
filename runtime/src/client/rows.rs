//! A call's DataSet result read row by row as the response arrives, so that a set of any
//! size is read holding one batch of rows at a time (a generated client's `call_rows`).

use std::time::Duration;

use http::Response;

use super::items::Pieces;
use super::{CallError, StreamedBody};
use crate::dataset::{DataSet, DataSetRow, RowPlacer, RowsPiece};
use crate::message::decode_data_set_response;
use crate::message::items::ItemCut;
use crate::{Binding, OperationInfo, ResponseError};

/// The rows of a DataSet result, read as the response brings them.
///
/// The response's bytes are cut into pieces of about 64 KiB of whole rows, each read as a
/// message of its own (the response's head with the set's schema, the rows, the closing
/// tags), so every rule of a whole read holds row by row: the schema's tables and columns,
/// each cell's type, nulls where the column allows none. The memory held is a piece's bytes
/// and rows, however large the set.
///
/// Each row comes with its table's index in [`schema`](Self::schema); a table's rows come in
/// the order a whole read gives them, and the rows of different tables as the message
/// interleaves them, a piece at a time. A set whose rows cannot be given one by one is
/// refused, at the first piece that shows it, with the reason: a row marked modified or as
/// having errors (its original values or errors come after every row), rows in
/// `diffgr:before` (deleted ones) or `diffgr:errors`, or a row whose `msdata:rowOrder` places
/// it among rows given already. .NET writes none of them for a set whose changes are accepted,
/// as a query fills one; read any other with `call`.
///
/// A fault, an error status, or a response that cannot be cut is read whole, to at most
/// 64 MiB, and comes as the first row's error. The client's timeout bounds the wait for each
/// chunk, as for [`Items`](super::Items).
pub struct DataSetRows {
    pieces: Pieces,
    operation: &'static OperationInfo,
    placer: RowPlacer,
    ready: std::vec::IntoIter<DataSetRow>,
}

impl std::fmt::Debug for DataSetRows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DataSetRows")
            .field("operation", &self.pieces.operation)
            .field("binding", &self.pieces.binding)
            .field("status", &self.pieces.head.status)
            .field("finished", &self.pieces.cut.is_none())
            .finish_non_exhaustive()
    }
}

impl DataSetRows {
    #[doc(hidden)] // for generated code
    /// The rows of `response`, a response to `operation` (whose result is a DataSet) over
    /// `binding`; the body fails when nothing of it arrives for `idle`.
    pub fn new(
        operation: &'static OperationInfo,
        binding: Binding,
        response: Response<StreamedBody>,
        idle: Option<Duration>,
    ) -> DataSetRows {
        DataSetRows {
            pieces: Pieces::new(operation, binding, response, idle, ItemCut::rows),
            operation,
            placer: RowPlacer::default(),
            ready: Vec::new().into_iter(),
        }
    }

    /// The set's name, namespace, locale and tables with their columns, without rows: `None`
    /// until the first [`next`](Self::next) has read a piece, and for a null result.
    pub fn schema(&self) -> Option<&DataSet> {
        self.placer.schema()
    }

    /// The next row, or `None` after the last. An error (a fault, an undecodable piece, a
    /// set whose rows cannot be given one by one, a broken connection) is the last thing
    /// given.
    pub async fn next(&mut self) -> Option<Result<DataSetRow, CallError>> {
        loop {
            if let Some(row) = self.ready.next() {
                return Some(Ok(row));
            }
            let (operation, placer) = (self.operation, &mut self.placer);
            let read = self.pieces.next_read(|piece, binding| {
                let piece = decode_data_set_response::<RowsPiece, _>(binding, operation, piece)?;
                placer
                    .place(piece)
                    .map_err(|error| ResponseError::Undecodable {
                        operation: operation.name,
                        binding,
                        reason: format!("{}: {error}", operation.result_name),
                        body: bytes::Bytes::new(),
                    })
            });
            match read.await? {
                Ok(rows) => self.ready = rows.into_iter(),
                Err(error) => return Some(Err(error)),
            }
        }
    }

    /// Every row left, in order.
    pub async fn collect(mut self) -> Result<Vec<DataSetRow>, CallError> {
        let mut rows = Vec::new();
        while let Some(row) = self.next().await {
            rows.push(row?);
        }
        Ok(rows)
    }
}
