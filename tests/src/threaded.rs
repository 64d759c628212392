//! A server on a runtime and thread of its own, for tests whose own thread has no async
//! runtime (the blocking client's).

use rmm_mobile::runtime::deps::tokio;
use rmm_mobile::{MobileService, MobileServiceServer};

/// The running server; dropping it stops the server and joins its thread.
pub struct Running {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Serves `server` on 127.0.0.1 (a free port) from a thread with a runtime of its own.
pub fn start<S: MobileService>(server: MobileServiceServer<S>) -> Running {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.set_nonblocking(true).expect("non-blocking");
    let base = format!("http://{}", listener.local_addr().expect("an address"));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("a listener");
            server
                .serve_with_shutdown(listener, async {
                    let _ = stopped.await;
                })
                .await
                .expect("the server runs");
        });
    });
    Running {
        base,
        stop: Some(stop),
        thread: Some(thread),
    }
}
