//! A large array result read by `call_items` holds a batch of items at a time, not the
//! message: the process's heap, counted by this test binary's allocator, stays a small
//! multiple of one order while a response of 8 MB is read over real HTTP (the server, in
//! this process too, makes the body as it sends it). The same message read whole holds
//! more than its size, which shows the count sees the message when it is held.
//!
//! One test in this binary, so that nothing else allocates while it counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use rmm_objects::runtime::client::CallError;
use rmm_objects::runtime::deps::tokio;
use rmm_objects::runtime::{Binding, ResponseError};
use rmm_objects::{EchoOrders, ObjectsServiceClient};
use rmm_tests::large_response::LargeResponse;
use rmm_tests::objects_service::make_order;

/// The system allocator, counting the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(size: usize) {
    let now = IN_USE.fetch_add(size, Relaxed) + size;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call is System's own; only counters are kept beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size(), Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            grew(new_size - layout.size());
        } else {
            IN_USE.fetch_sub(layout.size() - new_size, Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The peak heap above what was in use when `read` began.
async fn peak_above_start<T>(read: impl std::future::Future<Output = T>) -> (T, usize) {
    let start = IN_USE.load(Relaxed);
    PEAK.store(start, Relaxed);
    let value = read.await;
    (value, PEAK.load(Relaxed) - start)
}

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
