//! A counting global allocator for the tests that hold a memory bound (large messages read
//! and written in chunks): a test binary installs it with
//! `#[global_allocator] static HEAP: Counting = Counting;` and measures with
//! [`peak_above_start`]. One test per such binary, so that nothing else allocates while it
//! counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting the bytes in use and their peak.
pub struct Counting;

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

/// The peak heap above what was in use when `run` began (meaningful only in a binary that
/// installs [`Counting`]).
pub async fn peak_above_start<T>(run: impl std::future::Future<Output = T>) -> (T, usize) {
    let start = IN_USE.load(Relaxed);
    PEAK.store(start, Relaxed);
    let value = run.await;
    (value, PEAK.load(Relaxed) - start)
}
