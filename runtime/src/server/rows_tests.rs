//! The row writer: its bytes are the whole answer's (`data_set_response`), whole below a
//! chunk and streamed past it, on every binding; rows it cannot write where they come are
//! the handler's fault before the first chunk, a cut after it.

use bytes::Bytes;
use futures_util::{stream, StreamExt};
use http::header::CONTENT_LENGTH;
use http::{Response, StatusCode};
use http_body::Body as _;

use super::*;
use crate::dataset::{Cell, ColumnType};
use crate::message;
use crate::operation::fixtures::OP;

const BINDINGS: [Binding; 4] = [
    Binding::Soap11,
    Binding::Soap12,
    Binding::HttpGet,
    Binding::HttpPost,
];

/// A set of two tables and an empty one between them: `orders` rows of an int, a string
/// (white space alone, a carriage return, markup's characters among them) and a decimal,
/// every fifth added, every seventh string null; then two notes.
fn shop(orders: usize) -> DataSet {
    let mut set = DataSet::new("Shop Set");
    set.add_table("Orders")
        .add_column("Id", ColumnType::Int)
        .add_column("Note Text", ColumnType::String)
        .add_column("Price", ColumnType::Decimal);
    set.add_table("Empty").add_column("X", ColumnType::String);
    set.add_table("Notes")
        .add_column("Text", ColumnType::String);
    let table = set.table_mut("Orders").unwrap();
    for i in 0..orders {
        let note = match i % 7 {
            3 => None,
            4 => Some("  ".to_owned()),
            5 => Some("a\r\nb".to_owned()),
            _ => Some(format!("order <{i}> & \u{e9}")),
        };
        table
            .add_row(vec![
                Some(Cell::Int(i as i32)),
                note.map(Cell::String),
                Some(Cell::Decimal(rust_decimal::Decimal::new(i as i64, 2))),
            ])
            .unwrap();
        if i % 5 != 0 {
            table.rows[i].state = RowState::Unchanged;
        }
    }
    let notes = set.table_mut("Notes").unwrap();
    for text in ["first", ""] {
        notes
            .add_row(vec![Some(Cell::String(text.to_owned()))])
            .unwrap();
    }
    set
}

/// The set's rows, table by table.
fn rows_of(set: &DataSet) -> Vec<DataSetRow> {
    (set.tables.iter().enumerate())
        .flat_map(|(table, t)| {
            (t.rows.iter()).map(move |row| DataSetRow {
                table,
                row: row.clone(),
            })
        })
        .collect()
}

/// The set without rows.
fn schema_of(set: &DataSet) -> DataSet {
    let mut schema = set.clone();
    for table in &mut schema.tables {
        table.rows.clear();
    }
    schema
}

/// The answer the operation's whole writer gives.
fn whole(binding: Binding, result: Result<Option<DataSet>, Fault>) -> Response<Bytes> {
    match result {
        Ok(set) => message::data_set_response(binding, &OP, set.as_ref())
            .unwrap_or_else(|e| message::fault_response(binding, &Fault::server(e.to_string()))),
        Err(fault) => message::fault_response(binding, &fault),
    }
}

/// The streamed answer to `rows`, chunked.
async fn streamed(binding: Binding, rows: Rows) -> Response<Body> {
    rows_response(binding, &OP, Ok(rows), true, |r| whole(binding, r)).await
}

#[tokio::test]
async fn the_bytes_are_the_whole_answers_whole_below_a_chunk_streamed_past_it() {
    for binding in BINDINGS {
        for orders in [0, 1, 7, 300, 5_000] {
            let set = shop(orders);
            let expected = whole(binding, Ok(Some(set.clone())));
            // From a stream, and with the first rows held by the schema.
            let mut held = set.clone();
            held.tables[0].rows.truncate(orders / 2);
            held.tables[2].rows.clear();
            let given = rows_of(&set).into_iter().skip(orders / 2);
            for rows in [
                Rows::iter(schema_of(&set), rows_of(&set)),
                Rows::iter(held, given.collect::<Vec<_>>()),
            ] {
                let answer = streamed(binding, rows).await;
                assert_eq!(answer.status(), StatusCode::OK);
                let is_streamed = answer.body().size_hint().exact().is_none();
                let length = answer.headers().get(CONTENT_LENGTH).cloned();
                let body = answer.into_body().into_bytes().await.unwrap();
                assert_eq!(
                    String::from_utf8_lossy(&body),
                    String::from_utf8_lossy(expected.body()),
                    "{binding:?}, {orders} orders"
                );
                assert_eq!(is_streamed, body.len() > CHUNK, "{binding:?}, {orders}");
                if !is_streamed {
                    assert_eq!(length, expected.headers().get(CONTENT_LENGTH).cloned());
                }
            }
        }
        // No rows at all: the empty diffgram; no set: the null answer.
        let empty = schema_of(&shop(3));
        let answer = streamed(binding, Rows::iter(empty.clone(), Vec::new())).await;
        let expected = whole(binding, Ok(Some(empty)));
        assert_eq!(
            answer.into_body().into_bytes().await.unwrap(),
            expected.body()
        );
        let answer = rows_response(binding, &OP, Ok(Rows::whole(None)), true, |r| {
            whole(binding, r)
        })
        .await;
        let expected = whole(binding, Ok(None));
        assert_eq!(
            answer.into_body().into_bytes().await.unwrap(),
            expected.body()
        );
    }
}

#[tokio::test]
async fn an_unchunked_answer_collects_the_rows() {
    let set = shop(5_000);
    let answer = rows_response(
        Binding::Soap11,
        &OP,
        Ok(Rows::iter(schema_of(&set), rows_of(&set))),
        false,
        |r| whole(Binding::Soap11, r),
    )
    .await;
    let expected = whole(Binding::Soap11, Ok(Some(set)));
    assert_eq!(
        answer.body().size_hint().exact(),
        Some(expected.body().len() as u64)
    );
}

/// A change to rows that makes them rows the writer refuses.
type Mend = fn(&mut [DataSetRow]);

/// The rows of `shop(orders)` with `mend` applied to them.
fn mended(orders: usize, mend: impl FnOnce(&mut [DataSetRow])) -> Rows {
    let set = shop(orders);
    let mut rows = rows_of(&set);
    mend(&mut rows);
    Rows::iter(schema_of(&set), rows)
}

#[tokio::test]
async fn rows_it_cannot_write_where_they_come_are_the_handlers_fault_or_a_cut() {
    let refusals: [(&str, Mend); 5] = [
        ("is modified", |rows| rows[1].row.state = RowState::Modified),
        ("is deleted", |rows| rows[1].row.state = RowState::Deleted),
        ("has errors", |rows| {
            rows[1].row.error = Some("bad".to_owned())
        }),
        ("rows come table by table", |rows| rows.swap(0, 8)),
        ("names table 7, where the set has 3", |rows| {
            rows[2].table = 7
        }),
    ];
    for (why, mend) in refusals {
        for binding in [Binding::Soap11, Binding::HttpPost] {
            let answer = streamed(binding, mended(7, mend)).await;
            assert_eq!(answer.status(), StatusCode::INTERNAL_SERVER_ERROR, "{why}");
            let body = answer.into_body().into_bytes().await.unwrap();
            let text = String::from_utf8_lossy(&body);
            assert!(text.contains(why), "{binding:?}: {text}");
        }
        // Late, the last nine rows laid out as the seven orders' and two notes' above: the
        // body cut short.
        let answer = streamed(
            Binding::Soap11,
            mended(5_000, |rows| {
                let at = rows.len() - 9;
                mend(&mut rows[at..]);
            }),
        )
        .await;
        assert_eq!(answer.status(), StatusCode::OK, "{why}");
        let mut body = answer.into_body();
        let error = loop {
            match std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_frame(cx)).await {
                Some(Ok(_)) => {}
                Some(Err(error)) => break error,
                None => panic!("{why}: a failed answer ended as if complete"),
            }
        };
        assert!(error.to_string().contains(why), "{error}");
    }
    // A character XML cannot carry, early: the fault the whole writer gives.
    let mut set = shop(3);
    set.tables[2].rows[0].values[0] = Some(Cell::String("\u{1}".to_owned()));
    let answer = streamed(Binding::Soap11, Rows::iter(schema_of(&set), rows_of(&set))).await;
    let expected = whole(Binding::Soap11, Ok(Some(set)));
    assert_eq!(expected.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(
        answer.into_body().into_bytes().await.unwrap(),
        expected.body()
    );
    // The stream's own error, early.
    let set = shop(3);
    let failing = stream::iter(rows_of(&set).into_iter().map(Ok)).chain(stream::once(async {
        Err(Fault::server("the cursor broke"))
    }));
    let answer = streamed(Binding::Soap11, Rows::stream(schema_of(&set), failing)).await;
    let expected = message::fault_response(Binding::Soap11, &Fault::server("the cursor broke"));
    assert_eq!(
        answer.into_body().into_bytes().await.unwrap(),
        expected.body()
    );
}
