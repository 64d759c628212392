//! A large array result read by `call_items` holds a batch of items at a time, not the
//! message: the process's heap, counted by this test binary's allocator, stays a small
//! multiple of one order while a response of 8 MB is read over real HTTP (the server, in
//! this process too, makes the body as it sends it). The same message read whole holds
//! more than its size, which shows the count sees the message when it is held.
//!
//! One test in this binary, so that nothing else allocates while it counts.

use rmm_objects::runtime::client::CallError;
use rmm_objects::runtime::deps::tokio;
use rmm_objects::runtime::{Binding, ResponseError};
use rmm_objects::{EchoOrders, ObjectsServiceClient};
use rmm_tests::heap::{peak_above_start, Counting};
use rmm_tests::large_response::LargeResponse;
use rmm_tests::objects_service::make_order;

#[global_allocator]
static HEAP: Counting = Counting;

#[tokio::test(flavor = "current_thread")]
async fn a_large_result_is_read_in_memory_bounded_by_its_items_not_its_size() {
    const SIZE: usize = 8 << 20;
    let order = make_order(7, Some("a note".to_owned())).unwrap();
    let large = LargeResponse::of_size(Binding::Soap11, order.clone(), SIZE);
    let served = large.serve().await;
    let client = ObjectsServiceClient::new(&served.base);
    let request = EchoOrders { orders: None };

    let (count, peak) = peak_above_start(async {
        let mut items = client.call_items(&request).await.unwrap();
        let mut count = 0;
        while let Some(item) = items.next().await {
            assert_eq!(item.unwrap().as_ref(), Some(&order));
            count += 1;
        }
        count
    })
    .await;
    assert_eq!(count, large.count());
    // A piece is 64 KiB of items and their values; the rest is the connection's buffers.
    let bound = 4 << 20;
    assert!(
        peak < bound,
        "{peak} bytes at the peak reading {} bytes of {} orders ({} bytes each)",
        large.len(),
        count,
        large.item_len()
    );

    // Read whole, the message is held, and so many elements in one value are refused: the
    // bound a whole read keeps (the items were each read under it).
    let (whole, peak) = peak_above_start(client.call(&request)).await;
    assert!(peak > SIZE, "a whole read peaked at {peak} bytes");
    match whole {
        Err(CallError::Response(ResponseError::Undecodable { reason, .. })) => {
            assert!(reason.contains("elements in one value"), "{reason}")
        }
        Err(other) => panic!("{other:.200}"),
        Ok(_) => panic!("{} orders read whole", large.count()),
    }
}
