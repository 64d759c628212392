//! Calling the service without an async runtime: what a generated blocking client runs on.
//!
//! A blocking client is its async client driven to completion on a runtime of its own, so it
//! has the same methods, the same errors, the same signer and the same trace spans: one code
//! path for both. The runtime has one worker thread, which also keeps the transport's
//! connections alive between calls (reqwest's own blocking client is built the same way).

use std::future::Future;
use std::sync::Arc;

/// The runtime a blocking client waits on; clones share it.
#[derive(Debug, Clone)]
pub struct BlockingRuntime {
    runtime: Arc<tokio::runtime::Runtime>,
}

impl BlockingRuntime {
    /// Starts the runtime (one worker thread, IO and timers enabled).
    ///
    /// # Panics
    ///
    /// If the operating system refuses the thread; see [`BlockingRuntime::try_new`].
    pub fn new() -> BlockingRuntime {
        BlockingRuntime::try_new()
            .unwrap_or_else(|e| panic!("cannot start the blocking client's runtime: {e}"))
    }

    /// Starts the runtime, or says why it could not.
    pub fn try_new() -> std::io::Result<BlockingRuntime> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("rmm-blocking-client")
            .enable_all()
            .build()?;
        Ok(BlockingRuntime {
            runtime: Arc::new(runtime),
        })
    }

    /// Runs `call` to completion on the runtime and returns its output.
    ///
    /// # Panics
    ///
    /// When called from inside an async runtime (as `reqwest::blocking` does): there, use the
    /// async client.
    pub fn wait<F: Future>(&self, call: F) -> F::Output {
        self.runtime.block_on(call)
    }
}

impl Default for BlockingRuntime {
    fn default() -> Self {
        BlockingRuntime::new()
    }
}

/// The items of an array result as the response brings them, for a blocking client: each
/// [`Iterator::next`] waits for the next item ([`super::Items::next`]). An error is the last
/// item.
#[derive(Debug)]
pub struct BlockingItems<I> {
    runtime: BlockingRuntime,
    items: super::Items<I>,
}

impl<I> BlockingItems<I> {
    #[doc(hidden)] // for generated code
    /// `items`, read on `runtime`.
    pub fn new(runtime: BlockingRuntime, items: super::Items<I>) -> BlockingItems<I> {
        BlockingItems { runtime, items }
    }
}

impl<I> Iterator for BlockingItems<I> {
    type Item = Result<I, super::CallError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.runtime.wait(self.items.next())
    }
}

/// The rows of a DataSet result as the response brings them, for a blocking client: each
/// [`Iterator::next`] waits for the next row ([`super::DataSetRows::next`]). An error is the
/// last row.
#[derive(Debug)]
pub struct BlockingDataSetRows {
    runtime: BlockingRuntime,
    rows: super::DataSetRows,
}

impl BlockingDataSetRows {
    #[doc(hidden)] // for generated code
    /// `rows`, read on `runtime`.
    pub fn new(runtime: BlockingRuntime, rows: super::DataSetRows) -> BlockingDataSetRows {
        BlockingDataSetRows { runtime, rows }
    }

    /// The set's tables and columns, once the first row is read: see
    /// [`super::DataSetRows::schema`].
    pub fn schema(&self) -> Option<&crate::DataSet> {
        self.rows.schema()
    }
}

impl Iterator for BlockingDataSetRows {
    type Item = Result<crate::dataset::DataSetRow, super::CallError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.runtime.wait(self.rows.next())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_a_future_with_timers_and_is_shared_by_clones() {
        let runtime = BlockingRuntime::new();
        let other = runtime.clone();
        let slept = other.wait(async {
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
            7
        });
        assert_eq!(slept, 7);
        // From several threads at once.
        let handles: Vec<_> = (0..4)
            .map(|i| {
                let runtime = runtime.clone();
                std::thread::spawn(move || runtime.wait(async move { i * 2 }))
            })
            .collect();
        let sums: Vec<i32> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        assert_eq!(sums, [0, 2, 4, 6]);
    }
}
