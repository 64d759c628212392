//! The client's response decoders: results, SOAP faults, error bodies and statuses, on all
//! four bindings.

use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::{header, Response};
use rmm_mobile::runtime::{message, ResponseError};
use rmm_mobile::wire::{OperationRequest, OperationResponse};
use rmm_mobile::Binding;

use crate::input::Choices;
use crate::Outcome;

/// The statuses a response comes with: the host's own, and ones a proxy gives.
pub(crate) const STATUSES: [u16; 6] = [200, 500, 400, 404, 415, 503];

/// The content types a response comes with.
pub(crate) const CONTENT_TYPES: [Option<&str>; 6] = [
    Some("text/xml; charset=utf-8"),
    Some("application/soap+xml; charset=utf-8"),
    Some("text/plain; charset=utf-8"),
    Some("text/html"),
    Some("text/xml; charset=utf-16"),
    None,
];

/// Reads `response` as the answer to operation `T` over `binding`; a result or a SOAP fault
/// it reads must read the same once the server has written it again.
fn decode<T: OperationRequest>(response: &Response<Bytes>, binding: Binding) -> Outcome {
    match T::Response::decode_response(response, binding) {
        Ok(decoded) => {
            // A result the server refuses to write (a character XML cannot carry) ends it.
            let Ok(encoded) = decoded.encode_response(binding) else {
                return Outcome::Accepted;
            };
            let again = T::Response::decode_response(&encoded, binding);
            assert!(
                again.as_ref() == Ok(&decoded),
                "{} over {binding:?}: read {decoded:?}, re-read {again:?}",
                T::OPERATION.name()
            );
            Outcome::Accepted
        }
        Err(ResponseError::Fault { fault, .. }) => {
            let again =
                T::Response::decode_response(&message::fault_response(binding, &fault), binding);
            assert!(
                matches!(&again, Err(ResponseError::Fault { fault: f, .. }) if *f == fault),
                "{} over {binding:?}: read the fault {fault:?}, re-read {again:?}",
                T::OPERATION.name()
            );
            Outcome::Accepted
        }
        Err(_) => Outcome::Refused,
    }
}

type Decode = fn(&Response<Bytes>, Binding) -> Outcome;

macro_rules! decoders {
    ($($method:ident: $request:ident,)*) => {
        [$(decode::<rmm_mobile::$request> as Decode,)*]
    };
}

/// Every operation's response decoder, in operation order.
const DECODERS: [Decode; 20] = rmm_mobile::for_each_operation!(decoders);

/// Input: operation, binding, status, content type, then the body.
pub fn decode_any(data: &[u8]) -> Outcome {
    let mut choices = Choices::new(data);
    let op = choices.index(DECODERS.len());
    let binding = choices.pick(&Binding::ALL);
    let status = choices.pick(&STATUSES);
    let content_type = choices.pick(&CONTENT_TYPES);
    let mut response = Response::builder().status(status);
    if let Some(content_type) = content_type {
        response = response.header(header::CONTENT_TYPE, content_type);
    }
    let response = response
        .body(Bytes::copy_from_slice(choices.rest()))
        .expect("a fixed status and header");
    DECODERS[op](&response, binding)
}
