//! A large DataSet whose rows its handler streams (`server::Rows`) is written by the generated
//! server a chunk at a time, not held: the process's heap, counted by this test binary's
//! allocator, stays a small multiple of a chunk while the server writes about 8 MB of rows
//! over real HTTP and the client, in this process too, reads them row by row
//! (`call_rows`). The same answer made whole (`handle`, which writes every answer whole)
//! holds more than its size, which shows the count sees the message when it is held.
//!
//! One test in this binary, so that nothing else allocates while it counts.

use rmm_objects::runtime::dataset::Cell;
use rmm_objects::runtime::deps::tokio;
use rmm_objects::runtime::Binding;
use rmm_objects::{Credentials, MakeDataSet, ObjectsServiceClient, ObjectsServiceServer};
use rmm_tests::heap::{peak_above_start, Counting};
use rmm_tests::objects_service::ObjectsEcho;

#[global_allocator]
static HEAP: Counting = Counting;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_set_is_written_in_memory_bounded_by_a_chunk_not_its_size() {
    // About 600 bytes an order.
    const ORDERS: i32 = 15_000;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = ObjectsServiceServer::new(ObjectsEcho);
    let serving = tokio::spawn(server.clone().serve(listener));
    let request = MakeDataSet { n: ORDERS };

    for binding in [Binding::Soap11, Binding::HttpGet] {
        let client = ObjectsServiceClient::new(&base).with_binding(binding);
        let (count, peak) = peak_above_start(async {
            let mut rows = client.call_rows(&request).await.unwrap();
            let mut count = 0;
            while let Some(row) = rows.next().await {
                let row = row.unwrap();
                // As `make_data_set` makes them: order i counts i.
                if count < ORDERS {
                    assert_eq!(
                        (row.table, &row.row.values[1]),
                        (0, &Some(Cell::Int(count)))
                    );
                }
                count += 1;
            }
            count
        })
        .await;
        // The orders, the one of nulls, four notes.
        assert_eq!(count, ORDERS + 5);
        eprintln!("{binding:?}: {count} rows, peak {peak} bytes");
        // The server's chunks (64 KiB, one waiting) and the client's pieces; the rest is the
        // connection's buffers.
        let bound = 4 << 20;
        assert!(
            peak < bound,
            "{binding:?}: {peak} bytes at the peak, serving and reading {count} rows"
        );
    }

    // Made whole, the answer is held.
    let whole = request
        .encode_request(&Credentials {}, Binding::Soap11)
        .unwrap();
    let (answer, peak) = peak_above_start(server.handle(whole)).await;
    let size = answer.body().len();
    assert!(size > 7_000_000, "{size} bytes");
    eprintln!("whole: {size} bytes, peak {peak}");
    assert!(
        peak > size,
        "a whole answer peaked at {peak} bytes, {size} bytes long"
    );
    drop(answer);
    serving.abort();
}
