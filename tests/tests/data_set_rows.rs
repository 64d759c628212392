//! A DataSet result read row by row (`call_rows`) is the set a whole read (`call`) gives: the
//! same schema, each table's rows in the same order, on every binding, however the body is
//! cut into chunks; a set whose rows cannot be given one by one (changes not accepted, a row
//! placed among rows given already) is refused with the reason, where the whole read reads it.

use rmm_objects::runtime::client::{CallError, DataSetRows};
use rmm_objects::runtime::dataset::{DataRow, DataSet};
use rmm_objects::runtime::deps::bytes::Bytes;
use rmm_objects::runtime::deps::http::HeaderMap;
use rmm_objects::runtime::deps::tokio;
use rmm_objects::runtime::{Binding, ResponseError};
use rmm_objects::{Credentials, MakeDataSet, ObjectsServiceClient, ObjectsServiceServer};
use rmm_tests::large_response::{serve_in_chunks, LargeDataSet};
use rmm_tests::objects_service::ObjectsEcho;

const BINDINGS: [Binding; 4] = [
    Binding::Soap11,
    Binding::Soap12,
    Binding::HttpGet,
    Binding::HttpPost,
];

/// Every row `rows` gives, table by table, and the schema it gave (`None` for a null).
async fn rows_by_table(mut rows: DataSetRows) -> Result<Option<DataSet>, CallError> {
    let mut tables: Vec<Vec<DataRow>> = Vec::new();
    while let Some(row) = rows.next().await {
        let row = row?;
        if tables.len() <= row.table {
            tables.resize(row.table + 1, Vec::new());
        }
        tables[row.table].push(row.row);
    }
    let Some(schema) = rows.schema() else {
        assert!(tables.is_empty(), "rows without a schema");
        return Ok(None);
    };
    let mut set = schema.clone();
    assert!(
        tables.len() <= set.tables.len(),
        "rows of a table not in the schema"
    );
    for (table, rows) in set.tables.iter_mut().zip(tables) {
        assert!(table.rows.is_empty(), "the schema holds rows");
        table.rows = rows;
    }
    Ok(Some(set))
}

/// The set read whole and row by row from the same server.
async fn both(
    client: &ObjectsServiceClient,
    request: &MakeDataSet,
) -> (Option<DataSet>, Result<Option<DataSet>, CallError>) {
    let whole = client.call(request).await.expect("a whole read").result;
    let rows = match client.call_rows(request).await {
        Ok(rows) => rows_by_table(rows).await,
        Err(error) => Err(error),
    };
    (whole, rows)
}

fn refusal(read: Result<Option<DataSet>, CallError>) -> String {
    match read {
        Err(CallError::Response(ResponseError::Undecodable { reason, .. })) => reason,
        Err(other) => panic!("{other:.300}"),
        Ok(_) => panic!("read row by row"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_set_read_row_by_row_is_the_set_read_whole_on_every_binding() {
    for binding in BINDINGS {
        let large = LargeDataSet::of_size(binding, 400_000);
        let served = large.serve().await;
        let client = ObjectsServiceClient::new(&served.base).with_binding(binding);
        let (whole, rows) = both(&client, &MakeDataSet { n: 0 }).await;
        let whole = whole.expect("a set");
        assert_eq!(whole.tables[0].rows.len(), large.count());
        assert!(large.count() > 500, "{} rows", large.count());
        assert_eq!(rows.expect("read row by row"), Some(whole), "{binding:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reference_services_sets_are_read_row_by_row_as_whole() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = ObjectsServiceServer::new(ObjectsEcho);
    let serving = tokio::spawn(server.clone().serve(listener));
    for binding in BINDINGS {
        let client = ObjectsServiceClient::new(&base).with_binding(binding);
        // None, an empty table and white space, three tables, a set of a namespace.
        for n in [-1, 0, 1, 4] {
            let (whole, rows) = both(&client, &MakeDataSet { n }).await;
            assert_eq!(rows.expect("read row by row"), whole, "{binding:?} n = {n}");
        }
        // Changes not accepted: a modified and a deleted row; errors on a row.
        for (n, reason) in [(2, "is marked modified"), (3, "is marked as having errors")] {
            let (whole, rows) = both(&client, &MakeDataSet { n }).await;
            assert!(whole.is_some());
            let refused = refusal(rows);
            assert!(
                refused.contains(reason) && refused.contains("read the set whole"),
                "{binding:?} n = {n}: {refused}"
            );
        }
    }
    serving.abort();
}

/// The reference service's set of `n`, over `binding`, as its server writes it.
async fn reference_body(binding: Binding, n: i32) -> (HeaderMap, Bytes) {
    let server = ObjectsServiceServer::new(ObjectsEcho);
    let request = MakeDataSet { n }
        .encode_request(&Credentials {}, binding)
        .unwrap();
    let (parts, body) = server.handle(request).await.into_parts();
    let mut headers = parts.headers;
    headers.remove("content-length");
    (headers, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_set_arriving_a_byte_at_a_time_is_read_row_by_row() {
    for binding in BINDINGS {
        let (headers, body) = reference_body(binding, 1).await;
        for chunk in [1, 7, 4096] {
            let served = serve_in_chunks(headers.clone(), body.clone(), chunk).await;
            let client = ObjectsServiceClient::new(&served.base).with_binding(binding);
            let (whole, rows) = both(&client, &MakeDataSet { n: 1 }).await;
            assert!(whole.as_ref().is_some_and(|set| set.tables.len() == 3));
            assert_eq!(rows.expect("read row by row"), whole, "{binding:?} {chunk}");
        }
    }
}

/// `body` with the first `msdata:rowOrder="{from}"` made `{to}`.
fn reorder(body: &Bytes, from: usize, to: usize) -> Bytes {
    let text = std::str::from_utf8(body).unwrap();
    let old = format!("msdata:rowOrder=\"{from}\"");
    assert!(text.contains(&old), "row {from}");
    Bytes::from(text.replacen(&old, &format!("msdata:rowOrder=\"{to}\""), 1))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rows_are_placed_by_their_row_order_as_a_whole_read_places_them() {
    // 1,500 orders, each of its own values: about 20 pieces.
    let n = 1_500;
    let (headers, body) = reference_body(Binding::Soap11, n).await;
    assert!(body.len() > 10 * 64 * 1024, "{} bytes", body.len());
    let read = |body: Bytes| {
        let headers = headers.clone();
        async move {
            let served = serve_in_chunks(headers, body, 16 * 1024).await;
            let client = ObjectsServiceClient::new(&served.base);
            both(&client, &MakeDataSet { n }).await
        }
    };
    // Within a piece: the second order placed first, as the whole read places it.
    let (whole, rows) = read(reorder(&reorder(&body, 1, 0), 0, 1)).await;
    let whole = whole.expect("a set");
    let count = |set: &DataSet, row: usize| set.tables[0].get::<i32>(row, "Count").unwrap();
    assert_eq!((count(&whole, 0), count(&whole, 1)), (Some(1), Some(0)));
    assert_eq!(rows.expect("read row by row"), Some(whole));

    // The last order placed first, among rows given already: refused.
    let (whole, rows) = read(reorder(&body, n as usize, 0)).await;
    let whole = whole.expect("a set");
    assert_eq!(whole.tables[0].rows.len(), n as usize + 1);
    // The whole read put the last order, the one of nulls, first.
    assert_eq!(count(&whole, 0), None);
    let refused = refusal(rows);
    assert!(
        refused.contains("msdata:rowOrder=\"0\", a place among the"),
        "{refused}"
    );
}
