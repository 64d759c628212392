//! A DataSet result written as its handler makes its rows: [`Rows`], what a handler gives,
//! and the writer that sends the answer in chunks of about [`CHUNK`] bytes, so that a set of
//! any size is answered in the memory of a few chunks and one row.
//!
//! The bytes are those of the whole answer (`message::data_set_response`): the envelope or
//! the HTTP GET/POST document (indented as the host indents it), the schema, the diffgram
//! and the set's element, then each row as the whole writer writes it (`diffgr:id` its
//! table's name and its position from 1, `msdata:rowOrder` its position from 0), then the
//! end tags. As for [`Items`](super::Items), an answer that ends within the first chunk is
//! sent whole, with its length; a longer one as it is written, without one.

use std::pin::Pin;

use bytes::Bytes;
use futures_util::{Stream, StreamExt};
use http::Response;

use super::items::{spawn_writer, Sink, Stop, CHUNK};
use super::Body;
use crate::dataset::{DataRow, DataSet, DataSetRow, RowState, StreamedSet};
use crate::message::{data_set, STRING_DOCUMENT_PROLOG};
use crate::raw_xml::{write_child, write_close, write_open, write_open_child, Open, Scope};
use crate::{soap, Binding, Fault, OperationInfo};

/// The rows of a DataSet result, as a handler of the operation's `…_rows` method gives them:
/// the whole set (what the method gives unless the service overrides it), or the set's
/// schema and a stream of its rows, written as they come.
///
/// A streamed row is one of the schema's tables (`table`, an index among them); the rows
/// come table by table, as the whole set writes them, each unchanged or added: a modified
/// or deleted row, or one with errors, is written by .NET after every row (`diffgr:before`,
/// `diffgr:errors`), so it is refused, as a row of a table before the last row's is. A
/// refusal, or an error the stream gives, before the first chunk has gone is answered as the
/// handler's fault; after it the connection is closed and the client sees a body cut short,
/// as for [`Items`](super::Items).
pub struct Rows {
    kind: Kind,
}

type RowStream = Pin<Box<dyn Stream<Item = Result<DataSetRow, Fault>> + Send>>;

enum Kind {
    Whole(Option<DataSet>),
    Stream { schema: DataSet, rows: RowStream },
}

impl std::fmt::Debug for Rows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            Kind::Whole(set) => f
                .debug_struct("Rows")
                .field("whole", &set.as_ref().map(|set| &set.name))
                .finish(),
            Kind::Stream { schema, .. } => f
                .debug_struct("Rows")
                .field("schema", &schema.name)
                .field("stream", &"…")
                .finish(),
        }
    }
}

impl Rows {
    /// The set `schema` (its name, namespace, locale, tables and columns) with the rows
    /// `rows` gives (rows of a database cursor, say), after any rows `schema` holds; an
    /// `Err` ends the result (see the type's documentation).
    pub fn stream(
        schema: DataSet,
        rows: impl Stream<Item = Result<DataSetRow, Fault>> + Send + 'static,
    ) -> Rows {
        let mut schema = schema;
        let held: Vec<Result<DataSetRow, Fault>> = (schema.tables.iter_mut().enumerate())
            .flat_map(|(table, t)| {
                std::mem::take(&mut t.rows)
                    .into_iter()
                    .map(move |row| Ok(DataSetRow { table, row }))
            })
            .collect();
        Rows {
            kind: Kind::Stream {
                schema,
                rows: Box::pin(futures_util::stream::iter(held).chain(rows)),
            },
        }
    }

    /// The set `schema` with the rows `rows` gives. An iterator runs on the server's threads:
    /// one that waits (for a database, a file) belongs in a [`stream`](Rows::stream).
    pub fn iter<I>(schema: DataSet, rows: I) -> Rows
    where
        I: IntoIterator<Item = DataSetRow>,
        I::IntoIter: Send + 'static,
    {
        Rows::stream(schema, futures_util::stream::iter(rows.into_iter().map(Ok)))
    }

    /// A whole result, as the operation's plain method gives it (`None`: a null set).
    pub fn whole(set: Option<DataSet>) -> Rows {
        Rows {
            kind: Kind::Whole(set),
        }
    }
}

impl From<DataSet> for Rows {
    fn from(set: DataSet) -> Rows {
        Rows::whole(Some(set))
    }
}

#[doc(hidden)] // for generated code
/// The response to a DataSet operation whose handler gave `rows`. A whole set, a fault, a
/// JSON call's result and (when `chunked` is false, for the sans-IO `handle`) every result
/// are answered whole by `whole`, the operation's own writer; a stream is written in chunks
/// (see the module).
pub async fn rows_response<W>(
    binding: Binding,
    operation: &'static OperationInfo,
    rows: Result<Rows, Fault>,
    chunked: bool,
    whole: W,
) -> Response<Body>
where
    W: FnOnce(Result<Option<DataSet>, Fault>) -> Response<Bytes>,
{
    let (schema, rows) = match rows {
        Err(fault) => return whole(Err(fault)).map(Body::from),
        Ok(Rows {
            kind: Kind::Whole(set),
        }) => return whole(Ok(set)).map(Body::from),
        Ok(Rows {
            kind: Kind::Stream { schema, rows },
        }) => (schema, rows),
    };
    if binding == Binding::Json || !chunked {
        return whole(collect(schema, rows).await.map(Some)).map(Body::from);
    }
    spawn_writer(binding, operation, "writing rows panicked", move |sink| {
        write(binding, operation, schema, rows, sink)
    })
    .await
}

/// The set with every row of the stream, checked as the writer checks them.
async fn collect(mut set: DataSet, mut rows: RowStream) -> Result<DataSet, Fault> {
    let mut last = 0;
    while let Some(row) = rows.next().await {
        let DataSetRow { table, row } = row?;
        check(&set, last, table, &row)?;
        last = table;
        set.tables[table].rows.push(row);
    }
    Ok(set)
}

/// Refuses a row the writer cannot write where it comes: of no table of `set`, of a table
/// before the last row's (`last`), or one .NET writes after every row.
fn check(set: &DataSet, last: usize, table: usize, row: &DataRow) -> Result<(), Fault> {
    let refuse = |why: String| Err(Fault::server(format!("a streamed DataSet row {why}")));
    let Some(t) = set.tables.get(table) else {
        return refuse(format!(
            "names table {table}, where the set has {}",
            set.tables.len()
        ));
    };
    if table < last {
        return refuse(format!(
            "of table `{}` comes after rows of `{}`: rows come table by table",
            t.name, set.tables[last].name
        ));
    }
    let changed = match row.state {
        RowState::Unchanged | RowState::Added => None,
        RowState::Modified => Some("modified"),
        RowState::Deleted => Some("deleted"),
    };
    if let Some(state) = changed {
        return refuse(format!(
            "of table `{}` is {state}: its original values are written after every row; \
             give the set whole",
            t.name
        ));
    }
    if row.error.is_some() || !row.cell_errors.is_empty() {
        return refuse(format!(
            "of table `{}` has errors, which are written after every row; give the set whole",
            t.name
        ));
    }
    Ok(())
}

/// Writes the answer: the envelope (SOAP) or the document (HTTP GET/POST) as
/// `data_set_response` writes it, the rows as they come.
async fn write(
    binding: Binding,
    operation: &'static OperationInfo,
    schema: DataSet,
    rows: RowStream,
    mut sink: Sink,
) {
    let mut out = String::with_capacity(CHUNK + CHUNK / 4);
    let written = write_set(binding, operation, &schema, rows, &mut sink, &mut out).await;
    match written {
        Ok(()) => sink.end(binding, out).await,
        Err(Stop::Failed(fault)) => sink.fail(binding, operation.name, fault).await,
        Err(Stop::Gone) => {}
    }
}

/// Writes the answer into `out`, handing it to `sink` whenever it holds a chunk; the rest
/// is left in `out`.
async fn write_set(
    binding: Binding,
    operation: &'static OperationInfo,
    schema: &DataSet,
    mut rows: RowStream,
    sink: &mut Sink,
    out: &mut String,
) -> Result<(), Stop> {
    // As the whole writer refuses it (`data_set_response`).
    let invalid = |code: u32| {
        let error = crate::EncodeError::InvalidXmlChar {
            operation: operation.name,
            field: operation.result_name,
            code,
        };
        Stop::Failed(Fault::server(error.to_string()))
    };
    let set = StreamedSet::new(schema);
    let namespace = operation.service.namespace;
    // The element holding the set (a SOAP result element, written as text; the document's
    // root over HTTP GET/POST, indented) and the scope inside it.
    let (root, mut scope) = if binding.is_soap() {
        out.push_str(soap::envelope_open(binding));
        out.push_str(operation.response_open);
        out.push('<');
        out.push_str(operation.result_name);
        out.push('>');
        let scope = Scope::message(soap::envelope_ns(binding), namespace);
        (None, scope.with_raw_carriage_returns())
    } else {
        out.push_str(STRING_DOCUMENT_PROLOG);
        (
            Some(data_set::document_root("DataSet", namespace)),
            Scope::empty().with_raw_carriage_returns(),
        )
    };
    let holder = match &root {
        Some(root) => write_open(out, root, &mut scope, Some(0)).map_err(invalid)?,
        None => Open::unindented(&scope, false),
    };
    write_child(out, &holder, &set.schema(), &mut scope).map_err(invalid)?;
    let diffgram = set.diffgram();
    match rows.next().await.transpose().map_err(Stop::Failed)? {
        // No rows: the diffgram is empty, as the whole writer writes it.
        None => write_child(out, &holder, &diffgram, &mut scope).map_err(invalid)?,
        Some(first) => {
            let diffgram_open =
                write_open_child(out, &holder, &diffgram, &mut scope).map_err(invalid)?;
            let data = set.data();
            let data_open =
                write_open_child(out, &diffgram_open, &data, &mut scope).map_err(invalid)?;
            let mut positions = vec![0; schema.tables.len()];
            let mut last = 0;
            let mut next = Some(first);
            while let Some(DataSetRow { table, row }) = next {
                check(schema, last, table, &row).map_err(Stop::Failed)?;
                last = table;
                let element = set.row(table, positions[table], &row);
                positions[table] += 1;
                write_child(out, &data_open, &element, &mut scope).map_err(invalid)?;
                if out.len() >= CHUNK {
                    let chunk = std::mem::replace(out, String::with_capacity(CHUNK + CHUNK / 4));
                    sink.send(chunk).await.map_err(|_| Stop::Gone)?;
                }
                next = rows.next().await.transpose().map_err(Stop::Failed)?;
            }
            write_close(out, &data, data_open, &mut scope);
            write_close(out, &diffgram, diffgram_open, &mut scope);
        }
    }
    match root {
        Some(root) => write_close(out, &root, holder, &mut scope),
        None => {
            out.push_str("</");
            out.push_str(operation.result_name);
            out.push('>');
            out.push_str(operation.response_close);
            out.push_str(soap::ENVELOPE_CLOSE);
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "rows_tests.rs"]
mod tests;
