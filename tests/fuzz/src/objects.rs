//! The third reference service (`rmm-objects`): XmlSerializer's object model, classes, arrays,
//! inheritance and recursion, read through the value tree (`runtime::tree`). Its server's
//! request decoders (SOAP 1.1 and 1.2, and HTTP GET/POST for the operations that offer them)
//! and its client's response decoders (all four bindings), for any of its operations.
//!
//! The check beyond "no panic" is the round trip: a request read must re-read the same once
//! the client has written it again, a result or SOAP fault the same once the server has. "The
//! same" is `==`, or the same `Debug` text: a `NaN` read from `<Rating>NaN</Rating>` is not
//! `==` to itself, and is written and re-read as `NaN`.

use std::fmt::Debug;

use rmm_objects::runtime::deps::bytes::Bytes;
use rmm_objects::runtime::deps::http::{header, Request, Response, Uri};
use rmm_objects::runtime::{message, ResponseError};
use rmm_objects::wire::{OperationRequest, OperationResponse};
use rmm_objects::{Binding, SERVICE};

use crate::input::Choices;
use crate::request::{FORM_BINDINGS, FORM_CONTENT_TYPES, SOAP_BINDINGS, SOAP_CONTENT_TYPES};
use crate::response::{CONTENT_TYPES, STATUSES};
use crate::Outcome;

/// What the first byte of an input feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// The server's SOAP request decoders.
    Soap,
    /// The server's HTTP GET/POST request decoders.
    Form,
    /// The client's response decoders.
    Response,
}

pub(crate) const SIDES: [Side; 3] = [Side::Soap, Side::Form, Side::Response];

/// `a` and `b` are the same value: `==`, or (for a `NaN` somewhere inside) the same `Debug`.
fn same<T: PartialEq + Debug>(a: &T, b: &T) -> bool {
    a == b || format!("{a:?}") == format!("{b:?}")
}

/// Reads `request` as operation `T` over `binding`; what it reads must survive the client's
/// encoding and the server's decoding.
fn decode_request<T: OperationRequest>(request: &Request<Bytes>, binding: Binding) -> Outcome {
    let Ok((credentials, decoded)) = T::decode_request(request, binding) else {
        return Outcome::Refused;
    };
    // A value the client refuses to write (a character XML cannot carry, a `None` string over
    // GET/POST) ends the check.
    let Ok(encoded) = decoded.encode_request(&credentials, binding) else {
        return Outcome::Accepted;
    };
    match T::decode_request(&encoded, binding) {
        Ok((again_credentials, again)) => assert!(
            same(&again, &decoded) && again_credentials == credentials,
            "{} over {binding:?}: read {decoded:?}, re-read {again:?}",
            T::OPERATION.name()
        ),
        Err(error) => panic!(
            "{} over {binding:?}: our own encoding of {decoded:?} is refused: {error}",
            T::OPERATION.name()
        ),
    }
    Outcome::Accepted
}

/// Reads `response` as the answer to operation `T` over `binding`; a result or SOAP fault it
/// reads must read the same once the server has written it again.
fn decode_response<T: OperationRequest>(response: &Response<Bytes>, binding: Binding) -> Outcome {
    match T::Response::decode_response(response, binding) {
        Ok(decoded) => {
            // A result the server refuses to write (a character XML cannot carry) ends it.
            let Ok(encoded) = decoded.encode_response(binding) else {
                return Outcome::Accepted;
            };
            match T::Response::decode_response(&encoded, binding) {
                // Over HTTP GET/POST a result of raw XML is a document the server indents, as
                // the host does: the white space it adds between elements is text to a
                // reader. Written again, it is kept as it is: the value settles after one
                // round.
                Ok(again) if !same(&again, &decoded) && !binding.is_soap() => {
                    let encoded = again.encode_response(binding).expect("written once");
                    let third = T::Response::decode_response(&encoded, binding).expect("read once");
                    assert!(
                        same(&third, &again),
                        "{} over {binding:?}: read {decoded:?}, re-read {again:?}, then {third:?}",
                        T::OPERATION.name()
                    );
                }
                Ok(again) => assert!(
                    same(&again, &decoded),
                    "{} over {binding:?}: read {decoded:?}, re-read {again:?}",
                    T::OPERATION.name()
                ),
                Err(error) => panic!(
                    "{} over {binding:?}: our own encoding of {decoded:?} is refused: {error}",
                    T::OPERATION.name()
                ),
            }
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

type DecodeRequest = fn(&Request<Bytes>, Binding) -> Outcome;
type DecodeResponse = fn(&Response<Bytes>, Binding) -> Outcome;

macro_rules! request_decoders {
    ($($method:ident: $request:ident,)*) => {
        [$(decode_request::<rmm_objects::$request> as DecodeRequest,)*]
    };
}

macro_rules! response_decoders {
    ($($method:ident: $request:ident,)*) => {
        [$(decode_response::<rmm_objects::$request> as DecodeResponse,)*]
    };
}

const OPERATIONS: usize = rmm_objects::Operation::ALL.len();

/// Every operation's request decoder, in operation order.
const REQUEST_DECODERS: [DecodeRequest; OPERATIONS] =
    rmm_objects::for_each_operation!(request_decoders);

/// Every operation's response decoder, in operation order.
const RESPONSE_DECODERS: [DecodeResponse; OPERATIONS] =
    rmm_objects::for_each_operation!(response_decoders);

/// Input: side (SOAP request, form request, response), operation, then what that side reads:
/// - SOAP request: binding (1.1 or 1.2), content type, the body;
/// - form request: binding (GET or POST), content type (POST), the query or form;
/// - response: binding (any of four), status, content type, the body.
pub fn decode(data: &[u8]) -> Outcome {
    let mut choices = Choices::new(data);
    let side = choices.pick(&SIDES);
    let op = choices.index(OPERATIONS);
    match side {
        Side::Soap => {
            let binding = choices.pick(&SOAP_BINDINGS);
            let content_type = choices.pick(&SOAP_CONTENT_TYPES);
            let request = Request::post(SERVICE.path)
                .header(header::CONTENT_TYPE, content_type)
                .body(Bytes::copy_from_slice(choices.rest()))
                .expect("a fixed path and header");
            REQUEST_DECODERS[op](&request, binding)
        }
        Side::Form => {
            let binding = choices.pick(&FORM_BINDINGS);
            let content_type = choices.pick(&FORM_CONTENT_TYPES);
            let form = choices.rest();
            let path = format!(
                "{}/{}",
                SERVICE.path,
                rmm_objects::Operation::ALL[op].name()
            );
            let request = if binding == Binding::HttpGet {
                // A query hyper would refuse as a URI never reaches the decoders; the form
                // reader alone is the `form_request` target's.
                let uri = std::str::from_utf8(form)
                    .ok()
                    .and_then(|query| format!("{path}?{query}").parse::<Uri>().ok());
                match uri {
                    Some(uri) => Request::get(uri).body(Bytes::new()),
                    None => return Outcome::NotReached,
                }
            } else {
                Request::post(path)
                    .header(header::CONTENT_TYPE, content_type)
                    .body(Bytes::copy_from_slice(form))
            };
            REQUEST_DECODERS[op](&request.expect("a parsed URI and a fixed header"), binding)
        }
        Side::Response => {
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
            RESPONSE_DECODERS[op](&response, binding)
        }
    }
}
