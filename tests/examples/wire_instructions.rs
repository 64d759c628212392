//! Runs one wire step of SOAP 1.1 `MobileTaskCreate` N times, for counting its instructions
//! under callgrind: on a shared machine, wall-clock medians move by ±10 % from run to run,
//! instruction counts do not. `tests/bench/instructions.sh` runs this twice (N and 2N) and
//! prints the difference per iteration, so set-up is not counted.
//!
//! `cargo run --release -p rmm-tests --example wire_instructions -- STEP N`, STEP one of
//! `encode_request`, `decode_request`, `encode_response`, `decode_response`.

use std::hint::black_box;
use std::process::ExitCode;

use rmm_mobile::{Binding, MobileTaskCreate, MobileTaskCreateResponse};
use rmm_tests::bench_samples::{credentials, task_create, TASK_CREATE_ECHO};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(step), Some(Ok(n))) = (args.first(), args.get(1).map(|n| n.parse::<u32>())) else {
        eprintln!("usage: wire_instructions STEP N");
        return ExitCode::from(2);
    };
    let binding = Binding::Soap11;
    let credentials = credentials();
    let request = task_create();
    let response = MobileTaskCreateResponse {
        result: Some(TASK_CREATE_ECHO.to_owned()),
    };
    let encoded_request = request
        .encode_request(&credentials, binding)
        .expect("encodes");
    let encoded_response = response.encode_response(binding).expect("encodes");
    // Checked once: counting a failing path counts nothing useful.
    let (decoded_credentials, decoded) =
        MobileTaskCreate::decode_request(&encoded_request, binding).expect("decodes");
    assert_eq!(
        (decoded_credentials, decoded),
        (credentials.clone(), request.clone())
    );
    assert_eq!(
        MobileTaskCreateResponse::decode_response(&encoded_response, binding).expect("decodes"),
        response
    );
    for _ in 0..n {
        match step.as_str() {
            "encode_request" => {
                black_box(black_box(&request).encode_request(black_box(&credentials), binding))
                    .ok();
            }
            "decode_request" => {
                black_box(MobileTaskCreate::decode_request(
                    black_box(&encoded_request),
                    binding,
                ))
                .ok();
            }
            "encode_response" => {
                black_box(black_box(&response).encode_response(binding)).ok();
            }
            "decode_response" => {
                black_box(MobileTaskCreateResponse::decode_response(
                    black_box(&encoded_response),
                    binding,
                ))
                .ok();
            }
            other => {
                eprintln!("unknown step {other}");
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}
