//! Runs one wire step of SOAP 1.1 `MobileTaskCreate`, `MobileAccountSearch` or the objects
//! service's `EchoOrder` (an order of 100 lines, the class-heavy message) N times, for
//! counting its instructions under callgrind: on a shared machine, wall-clock medians move by
//! ±10 % from run to run, instruction counts do not. `tests/bench/instructions.sh` runs this
//! twice (N and 2N) and prints the difference per iteration, so set-up is not counted.
//!
//! `cargo run --release -p rmm-tests --example wire_instructions -- OPERATION STEP N`,
//! OPERATION `task-create`, `account-search` or `echo-order`, STEP one of `encode_request`,
//! `decode_request`, `encode_response`, `decode_response`, or (not for `echo-order`)
//! `handle` (the whole server path, `MobileServiceServer::handle` with the echo service, on
//! the encoded request as an HTTP request).
//!
//! With `RMM_ENVELOPES_DIR` set, `echo-order` also writes the two envelopes it reads there
//! (`request.xml`, `response.xml`), for gSOAP's driver to count the same bytes
//! (`tests/bench/instructions.sh`).

#[allow(dead_code)]
#[path = "../../generated/examples/echo_server.rs"]
mod echo_server;

use std::fmt::Debug;
use std::hint::black_box;
use std::process::ExitCode;

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use rmm_mobile::wire::{OperationRequest, OperationResponse};
use rmm_mobile::{
    Binding, Credentials, MobileAccountSearchResponse, MobileServiceServer,
    MobileTaskCreateResponse,
};
use rmm_tests::bench_samples::{account_search, credentials, task_create, TASK_CREATE_ECHO};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(op), Some(step), Some(Ok(n))) = (
        args.first(),
        args.get(1),
        args.get(2).map(|n| n.parse::<u32>()),
    ) else {
        eprintln!("usage: wire_instructions OPERATION STEP N");
        return ExitCode::from(2);
    };
    let credentials = credentials();
    match op.as_str() {
        "task-create" => run(
            &task_create(),
            &MobileTaskCreateResponse {
                result: Some(TASK_CREATE_ECHO.to_owned()),
            },
            &credentials,
            step,
            n,
        ),
        "account-search" => run(
            &account_search(),
            &MobileAccountSearchResponse {
                result: Some("MobileAccountSearch(accountname=Acme & Sons)".to_owned()),
            },
            &credentials,
            step,
            n,
        ),
        "echo-order" => run_objects(step, n),
        other => {
            eprintln!("unknown operation {other}");
            ExitCode::from(2)
        }
    }
}

fn run<T>(
    request: &T,
    response: &T::Response,
    credentials: &Credentials,
    step: &str,
    n: u32,
) -> ExitCode
where
    T: OperationRequest + PartialEq + Debug,
    T::Response: PartialEq + Debug,
{
    let binding = Binding::Soap11;
    let mut credentials = credentials.clone();
    if T::OPERATION != rmm_mobile::Operation::MobileTaskCreate {
        // Only operations that carry it have a mobilekey.
        credentials.mobilekey = None;
    }
    let encoded_request = request
        .encode_request(&credentials, binding)
        .expect("encodes");
    let encoded_response = response.encode_response(binding).expect("encodes");
    // Checked once: counting a failing path counts nothing useful.
    assert_eq!(
        T::decode_request(&encoded_request, binding).expect("decodes"),
        (credentials.clone(), request.clone())
    );
    assert_eq!(
        &T::Response::decode_response(&encoded_response, binding).expect("decodes"),
        response
    );
    let server = MobileServiceServer::new(echo_server::Echo);
    let call = || {
        let mut request = encoded_request.clone().map(Into::into);
        *request.uri_mut() = rmm_mobile::SERVICE.path.parse().expect("a path");
        request
    };
    let answer = ready(server.handle(call()));
    assert_eq!(answer.status(), 200, "the echo answers");
    for _ in 0..n {
        match step {
            "handle" => {
                black_box(ready(server.handle(black_box(call()))));
            }
            "encode_request" => {
                black_box(black_box(request).encode_request(black_box(&credentials), binding)).ok();
            }
            "decode_request" => {
                black_box(T::decode_request(black_box(&encoded_request), binding)).ok();
            }
            "encode_response" => {
                black_box(black_box(response).encode_response(binding)).ok();
            }
            "decode_response" => {
                black_box(T::Response::decode_response(
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

/// The four codec steps of `EchoOrder` with an order of 100 lines (the objects service: a
/// class tree read through the value tree).
fn run_objects(step: &str, n: u32) -> ExitCode {
    use rmm_objects::{EchoOrder, EchoOrderResponse};
    let binding = rmm_objects::Binding::Soap11;
    let order = rmm_tests::objects_service::bench_order(100);
    let credentials = rmm_objects::Credentials::default();
    let request = EchoOrder {
        order: Some(order.clone()),
    };
    let response = EchoOrderResponse {
        result: Some(order),
    };
    let encoded_request = request
        .encode_request(&credentials, binding)
        .expect("encodes");
    let encoded_response = response.encode_response(binding).expect("encodes");
    if let Some(dir) = std::env::var_os("RMM_ENVELOPES_DIR") {
        let dir = std::path::Path::new(&dir);
        std::fs::write(dir.join("request.xml"), encoded_request.body()).expect("writes");
        std::fs::write(dir.join("response.xml"), encoded_response.body()).expect("writes");
    }
    // Checked once: counting a failing path counts nothing useful.
    assert_eq!(
        EchoOrder::decode_request(&encoded_request, binding)
            .expect("decodes")
            .1,
        request
    );
    assert_eq!(
        EchoOrderResponse::decode_response(&encoded_response, binding).expect("decodes"),
        response
    );
    for _ in 0..n {
        match step {
            "encode_request" => {
                black_box(black_box(&request).encode_request(black_box(&credentials), binding))
                    .ok();
            }
            "decode_request" => {
                black_box(EchoOrder::decode_request(
                    black_box(&encoded_request),
                    binding,
                ))
                .ok();
            }
            "encode_response" => {
                black_box(black_box(&response).encode_response(binding)).ok();
            }
            "decode_response" => {
                black_box(EchoOrderResponse::decode_response(
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

/// The output of a future that completes without waiting (the echo service never waits).
fn ready<F: Future>(future: F) -> F::Output {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the server waited on a request whose body is read"),
    }
}
