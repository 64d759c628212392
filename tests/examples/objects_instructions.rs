//! Runs one wire step of SOAP 1.1 `EchoOrder` of the objects service, an order of 100 lines,
//! N times, for counting its instructions under callgrind (`valgrind --tool=callgrind`, run
//! with N and 2N: the difference divided by N is one call, set-up not counted).
//!
//! `cargo run --release -p rmm-tests --example objects_instructions -- STEP N`, STEP one of
//! `encode_request`, `decode_request`, `encode_response`, `decode_response`; or
//! `encode_data_set`, `decode_data_set`: a `MakeDataSet` response of about 64 KiB (a batch
//! of `call_rows`), 139 rows of a cell of every type.

use std::hint::black_box;
use std::process::ExitCode;

use rmm_objects::{Binding, Credentials, EchoOrder, EchoOrderResponse, MakeDataSetResponse};
use rmm_tests::large_response::LargeDataSet;
use rmm_tests::objects_service::order_with_lines;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(step), Some(Ok(n))) = (args.first(), args.get(1).map(|n| n.parse::<u32>())) else {
        eprintln!("usage: objects_instructions STEP N");
        return ExitCode::from(2);
    };
    let order = order_with_lines(100);
    let request = EchoOrder {
        order: Some(order.clone()),
    };
    let response = EchoOrderResponse {
        result: Some(order),
    };
    let none = Credentials::default();
    let encoded_request = request
        .encode_request(&none, Binding::Soap11)
        .expect("encodes");
    let encoded_response = response.encode_response(Binding::Soap11).expect("encodes");
    let data_set = LargeDataSet::of_size(Binding::Soap11, 64 * 1024).response();
    let set_response =
        MakeDataSetResponse::decode_response(&data_set, Binding::Soap11).expect("a set");
    for _ in 0..n {
        match step.as_str() {
            "encode_request" => {
                black_box(
                    black_box(&request)
                        .encode_request(&none, Binding::Soap11)
                        .ok(),
                );
            }
            "decode_request" => {
                black_box(
                    EchoOrder::decode_request(black_box(&encoded_request), Binding::Soap11).ok(),
                );
            }
            "encode_response" => {
                black_box(black_box(&response).encode_response(Binding::Soap11).ok());
            }
            "decode_response" => {
                black_box(
                    EchoOrderResponse::decode_response(
                        black_box(&encoded_response),
                        Binding::Soap11,
                    )
                    .ok(),
                );
            }
            "decode_data_set" => {
                black_box(
                    MakeDataSetResponse::decode_response(black_box(&data_set), Binding::Soap11)
                        .ok(),
                );
            }
            "encode_data_set" => {
                black_box(
                    black_box(&set_response)
                        .encode_response(Binding::Soap11)
                        .ok(),
                );
            }
            other => {
                eprintln!("unknown step {other}");
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}
