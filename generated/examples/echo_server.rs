//! A mock of the Mobile Field-Service in one command: every operation answers
//! `Op(name=value;…)` with each of its parameters in wire order, credentials included (ints
//! as digits, booleans `true`/`false`, decimals with their scale, strings as received, an
//! absent SOAP string as `<null>`), which is what the reference ASMX test service answers. A
//! string parameter equal to `FAULT` makes the operation refuse the call with the client
//! fault `requested fault`, as that service does.
//!
//! ```sh
//! cargo run -p rmm-mobile --example echo_server -- --listen 127.0.0.1:8080
//! ```
//!
//! It prints `listening on http://ADDR/api/rmm/MobileService.asmx` once it accepts
//! connections (`--listen 127.0.0.1:0` picks a free port).

use std::future::{ready, Future};
use std::net::SocketAddr;

use rmm_mobile::runtime::deps::tokio;
use rmm_mobile::runtime::ParamValue;
use rmm_mobile::wire::{OperationRequest, OperationResponse};
use rmm_mobile::*;

/// The echo service.
#[derive(Debug, Clone, Copy, Default)]
pub struct Echo;

/// The echo of one call, or the fault its `FAULT` parameter asks for.
pub fn echo<T: OperationRequest>(
    request: &T,
    credentials: &Credentials,
) -> Result<T::Response, Fault>
where
    T::Response: OperationResponse<Result = Option<String>>,
{
    let values = request.values(credentials);
    if values
        .iter()
        .any(|(_, v)| *v == ParamValue::String(Some("FAULT")))
    {
        return Err(Fault::client("requested fault"));
    }
    // One buffer for the whole echo, sized so that it seldom grows: the mock should not be
    // what a load test measures.
    let mut result = String::with_capacity(64 + 48 * values.len());
    result.push_str(T::OPERATION.name());
    result.push('(');
    for (i, (name, value)) in values.iter().enumerate() {
        if i > 0 {
            result.push(';');
        }
        result.push_str(name);
        result.push('=');
        value.push_to(&mut result);
    }
    result.push(')');
    Ok(T::Response::from_result(Some(result)))
}

macro_rules! echo_every_operation {
    ($($method:ident: $request:ident,)*) => {
        impl MobileService for Echo {
            $(
                fn $method(
                    &self,
                    credentials: Credentials,
                    request: $request,
                ) -> impl Future<Output = Result<<$request as OperationRequest>::Response, Fault>> + Send {
                    ready(echo(&request, &credentials))
                }
            )*
        }
    };
}

rmm_mobile::for_each_operation!(echo_every_operation);

fn listen_address() -> Result<SocketAddr, String> {
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next()) {
        (Some("--listen"), Some(addr)) => addr.parse().map_err(|e| format!("--listen {addr}: {e}")),
        (None, _) => Ok(SocketAddr::from(([127, 0, 0, 1], 8080))),
        _ => Err("usage: echo_server [--listen ADDR:PORT]".to_owned()),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = listen_address()?;
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(async {
            let listener = tokio::net::TcpListener::bind(addr).await?;
            println!(
                "listening on http://{}{}",
                listener.local_addr()?,
                SERVICE.path
            );
            MobileServiceServer::new(Echo).serve(listener).await?;
            Ok(())
        })
}
