//! One large array result over real HTTP, for the large-message bench
//! (`tests/bench/large-response.sh`). Prints one line: mode, bytes, items, seconds, MB/s, peak
//! RSS in MB (the process's `VmHWM`, so run one mode a process).
//!
//! The client's side, an `EchoOrders` response made by a server in this process as it sends
//! it (it holds one 16 KiB block): `items` reads it with `call_items`, `whole` with `call`.
//!
//! The server's side, a `MakeTags` answer of the generated server (the reference
//! `ObjectsEcho`, whose `make_tags_items` streams the tags), read with `call_items` in this
//! process: `serve-items` sends it as it is written, `serve-whole` makes it whole first
//! (`handle`, as a handler that returns a `Vec` has it made).
//!
//! A DataSet result, a `MakeDataSet` response of a table of three columns (an int, a
//! decimal, a required int: about 125 bytes a row) made by a server in this process as it
//! sends it: `rows` reads it with `call_rows`, `rows-whole` with `call`. The server's side,
//! `MakeDataSet` of the generated server (`ObjectsEcho`, whose `make_data_set_rows` streams
//! the orders, about 520 bytes each, a cell of every type), read with `call_rows`:
//! `serve-rows` sends it as it is written, `serve-rows-whole` makes it whole first.
//!
//!   large_response MODE SIZE_MB, MODE one of items, whole, serve-items, serve-whole, rows,
//!   rows-whole, serve-rows, serve-rows-whole

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::time::Instant;

use rmm_objects::runtime::deps::http::{Request, Response};
use rmm_objects::runtime::deps::hyper::body::Incoming;
use rmm_objects::runtime::deps::{tokio, tower_service};
use rmm_objects::runtime::server::{self, Body, ServerConfig};
use rmm_objects::runtime::Binding;
use rmm_objects::{EchoOrders, MakeDataSet, MakeTags, ObjectsServiceClient, ObjectsServiceServer};
use rmm_tests::large_response::{LargeDataSet, LargeResponse};
use rmm_tests::objects_service::{make_order, ObjectsEcho};

/// `<string>t123456</string>`: about 24 bytes a tag.
const TAG_BYTES: usize = 24;

/// An order of `MakeDataSet`, a cell of every type: about 524 bytes.
const ORDER_BYTES: usize = 524;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let modes = [
        "items",
        "whole",
        "serve-items",
        "serve-whole",
        "rows",
        "rows-whole",
        "serve-rows",
        "serve-rows-whole",
    ];
    let (mode, size_mb) = match args.as_slice() {
        [mode, size] if modes.contains(&mode.as_str()) => {
            (mode.clone(), size.parse::<usize>().expect("a size in MB"))
        }
        _ => panic!("usage: large_response {} SIZE_MB", modes.join("|")),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let (bytes, read, seconds) = if mode.starts_with("serve-rows") {
        runtime.block_on(serve_rows(mode == "serve-rows", size_mb))
    } else if mode.starts_with("serve") {
        runtime.block_on(serve(mode == "serve-items", size_mb))
    } else if mode.starts_with("rows") {
        runtime.block_on(read_rows(mode == "rows", size_mb))
    } else {
        runtime.block_on(read(mode == "items", size_mb))
    };
    let read = match read {
        Ok(count) => count.to_string(),
        Err(error) => format!("refused ({error}…)"),
    };
    println!(
        "{mode} {bytes} {read} {seconds:.3} {:.1} {:.1}",
        bytes as f64 / 1e6 / seconds,
        peak_rss_mb()
    );
}

/// The client's side: the response's size, the orders read (or why not), the seconds.
async fn read(by_items: bool, size_mb: usize) -> (usize, Result<usize, String>, f64) {
    let order = make_order(7, Some("a note".to_owned())).expect("an order");
    let large = LargeResponse::of_size(Binding::Soap11, order, size_mb * 1_000_000);
    let served = large.serve().await;
    let client = ObjectsServiceClient::new(&served.base).with_timeout(None);
    let request = EchoOrders { orders: None };
    let started = Instant::now();
    let read = if by_items {
        let mut items = client.call_items(&request).await.expect("a response");
        let mut count = 0usize;
        while let Some(item) = items.next().await {
            std::hint::black_box(item.expect("an order"));
            count += 1;
        }
        Ok(count)
    } else {
        client
            .call(&request)
            .await
            .map(|response| response.result.map_or(0, |orders| orders.len()))
            .map_err(|error| format!("{error:.80}"))
    };
    let seconds = started.elapsed().as_secs_f64();
    if let Ok(count) = read {
        assert_eq!(count, large.count(), "every order read");
    }
    (large.len(), read, seconds)
}

/// A DataSet's rows: the response's size, the rows read (or why not), the seconds.
async fn read_rows(by_rows: bool, size_mb: usize) -> (usize, Result<usize, String>, f64) {
    let columns: &[&str] = &["Count", "Price", "Required"];
    let large = LargeDataSet::of_columns(Binding::Soap11, size_mb * 1_000_000, Some(columns));
    let served = large.serve().await;
    let client = ObjectsServiceClient::new(&served.base).with_timeout(None);
    let request = MakeDataSet { n: 0 };
    let started = Instant::now();
    let read = if by_rows {
        let mut rows = client.call_rows(&request).await.expect("a response");
        let mut count = 0usize;
        while let Some(row) = rows.next().await {
            std::hint::black_box(row.expect("a row"));
            count += 1;
        }
        Ok(count)
    } else {
        client
            .call(&request)
            .await
            .map(|response| response.result.map_or(0, |set| set.tables[0].rows.len()))
            .map_err(|error| format!("{error:.80}"))
    };
    let seconds = started.elapsed().as_secs_f64();
    if let Ok(count) = read {
        assert_eq!(count, large.count(), "every row read");
    }
    (large.len(), read, seconds)
}

/// The server's side: the answer's size, the tags read, the seconds.
async fn serve(streamed: bool, size_mb: usize) -> (usize, Result<usize, String>, f64) {
    let count = size_mb * 1_000_000 / TAG_BYTES;
    let client = start_server(streamed).await;
    let request = MakeTags {
        count: i32::try_from(count).expect("a count"),
    };
    let started = Instant::now();
    let mut items = client.call_items(&request).await.expect("an answer");
    let (mut read, mut bytes) = (0usize, 0usize);
    while let Some(item) = items.next().await {
        let tag = item.expect("a tag");
        bytes += tag
            .as_ref()
            .map_or("<string xsi:nil=\"true\" />".len(), |t| t.len() + 17);
        read += 1;
    }
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(read, count, "every tag read");
    (bytes, Ok(read), seconds)
}

/// The server's side of a DataSet: the answer's size, the rows read, the seconds.
async fn serve_rows(streamed: bool, size_mb: usize) -> (usize, Result<usize, String>, f64) {
    let orders = size_mb * 1_000_000 / ORDER_BYTES;
    let client = start_server(streamed).await;
    let request = MakeDataSet {
        n: i32::try_from(orders).expect("a count"),
    };
    let started = Instant::now();
    let mut rows = client.call_rows(&request).await.expect("an answer");
    let mut read = 0usize;
    while let Some(row) = rows.next().await {
        std::hint::black_box(row.expect("a row"));
        read += 1;
    }
    let seconds = started.elapsed().as_secs_f64();
    // The orders, the one of nulls, four notes.
    assert_eq!(read, orders + 5, "every row read");
    (orders * ORDER_BYTES, Ok(read), seconds)
}

/// Starts the generated server of `ObjectsEcho` on 127.0.0.1, streaming its answers as its
/// handlers make them, or (not `streamed`) making each whole first; a client of it.
async fn start_server(streamed: bool) -> ObjectsServiceClient {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let base = format!("http://{}", listener.local_addr().expect("an address"));
    let server = ObjectsServiceServer::new(ObjectsEcho);
    let config = ServerConfig::default();
    if streamed {
        tokio::spawn(server::serve(listener, server, config));
    } else {
        tokio::spawn(server::serve(listener, Whole(server), config));
    }
    ObjectsServiceClient::new(&base).with_timeout(None)
}

/// The generated server answering every call whole (`handle`), as it answers a handler that
/// returns its result at once.
#[derive(Clone)]
struct Whole(ObjectsServiceServer<ObjectsEcho>);

impl tower_service::Service<Request<Incoming>> for Whole {
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Infallible>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Incoming>) -> Self::Future {
        let server = self.0.clone();
        Box::pin(async move {
            let request = server::collect_body(request, server.config())
                .await
                .expect("a request");
            Ok(server.handle(request).await.map(Body::from))
        })
    }
}

/// The process's peak resident set (`VmHWM`), in MB.
fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb * 1024.0 / 1e6)
}
