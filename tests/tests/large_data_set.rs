//! A large DataSet result read by `call_rows` holds a batch of rows at a time, not the
//! message: the process's heap, counted by this test binary's allocator, stays a small
//! multiple of one row while a set of 8 MB is read over real HTTP (the server, in this
//! process too, makes the body as it sends it). The same set read whole holds more than the
//! message's size, which shows the count sees the message when it is held, and is refused.
//!
//! One test in this binary, so that nothing else allocates while it counts.

use rmm_objects::runtime::client::CallError;
use rmm_objects::runtime::deps::tokio;
use rmm_objects::runtime::{Binding, ResponseError};
use rmm_objects::{MakeDataSet, ObjectsServiceClient};
use rmm_tests::heap::{peak_above_start, Counting};
use rmm_tests::large_response::LargeDataSet;

#[global_allocator]
static HEAP: Counting = Counting;

#[tokio::test(flavor = "current_thread")]
async fn a_large_set_is_read_in_memory_bounded_by_its_rows_not_its_size() {
    const SIZE: usize = 8 << 20;
    let large = LargeDataSet::of_size(Binding::Soap11, SIZE);
    let served = large.serve().await;
    let client = ObjectsServiceClient::new(&served.base);
    let request = MakeDataSet { n: 0 };

    let ((count, first), peak) = peak_above_start(async {
        let mut rows = client.call_rows(&request).await.unwrap();
        let mut count = 0;
        let mut first = None;
        while let Some(row) = rows.next().await {
            let row = row.unwrap();
            assert_eq!(row.table, 0);
            match &first {
                None => first = Some(row.row),
                Some(first) => assert_eq!(&row.row, first),
            }
            count += 1;
        }
        assert_eq!(rows.schema().map(|set| set.name.as_str()), Some("Shop"));
        (count, first)
    })
    .await;
    assert_eq!(count, large.count());
    assert!(first.is_some_and(|row| row.values.iter().all(Option::is_some)));
    eprintln!("{count} rows, peak {peak} bytes");
    // A piece is 64 KiB of rows and their cells; the rest is the connection's buffers.
    let bound = 4 << 20;
    assert!(
        peak < bound,
        "{peak} bytes at the peak reading {} bytes of {count} rows",
        large.len()
    );

    // Read whole, the message is held, and so many elements in one value are refused: the
    // bound a whole read keeps (the rows were each read under it).
    let (whole, peak) = peak_above_start(client.call(&request)).await;
    assert!(peak > SIZE, "a whole read peaked at {peak} bytes");
    match whole {
        Err(CallError::Response(ResponseError::Undecodable { reason, .. })) => {
            assert!(reason.contains("elements in one value"), "{reason}")
        }
        Err(other) => panic!("{other:.200}"),
        Ok(_) => panic!("{} rows read whole", large.count()),
    }
}
