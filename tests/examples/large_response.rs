//! One read of a large `EchoOrders` response over real HTTP, for the large-message bench
//! (`tests/bench/large-response.sh`): `call_items` (item by item) or `call` (whole), the
//! response made by a server in this process as it sends it (it holds one 16 KiB block).
//! Prints one line: mode, bytes, orders, seconds, MB/s, peak RSS in MB (the process's
//! `VmHWM`, so run one read a process).
//!
//!   large_response items|whole SIZE_MB

use std::time::Instant;

use rmm_objects::runtime::deps::tokio;
use rmm_objects::runtime::Binding;
use rmm_objects::{EchoOrders, ObjectsServiceClient};
use rmm_tests::large_response::LargeResponse;
use rmm_tests::objects_service::make_order;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, size_mb) = match args.as_slice() {
        [mode, size] if mode == "items" || mode == "whole" => {
            (mode.clone(), size.parse::<usize>().expect("a size in MB"))
        }
        _ => panic!("usage: large_response items|whole SIZE_MB"),
    };
    let order = make_order(7, Some("a note".to_owned())).expect("an order");
    let large = LargeResponse::of_size(Binding::Soap11, order, size_mb * 1_000_000);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let (read, seconds) = runtime.block_on(async {
        let served = large.serve().await;
        let client = ObjectsServiceClient::new(&served.base).with_timeout(None);
        let request = EchoOrders { orders: None };
        let started = Instant::now();
        let read = if mode == "items" {
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
        (read, started.elapsed().as_secs_f64())
    });
    let read = match read {
        Ok(count) => {
            assert_eq!(count, large.count(), "every order read");
            count.to_string()
        }
        Err(error) => format!("refused ({error}…)"),
    };
    println!(
        "{mode} {} {read} {seconds:.3} {:.1} {:.1}",
        large.len(),
        large.len() as f64 / 1e6 / seconds,
        peak_rss_mb()
    );
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
