//! Inputs in each target's format, for seeds made from real messages (`examples/seeds.rs`
//! makes them from the recorded exchanges): the choice bytes that select what the message was
//! sent as, then the message. A content type no table holds selects the table's first.

use rmm_mobile::{Binding, Operation};

use crate::objects::{Side, SIDES};
use crate::request::{FORM_BINDINGS, FORM_CONTENT_TYPES, SOAP_BINDINGS, SOAP_CONTENT_TYPES};
use crate::response::{CONTENT_TYPES, STATUSES};

fn position<T: PartialEq>(table: &[T], item: &T) -> u8 {
    let at = table.iter().position(|x| x == item).unwrap_or(0);
    u8::try_from(at).expect("tables are short")
}

fn operation(op: Operation) -> u8 {
    position(&Operation::ALL, &op)
}

fn input(choices: &[u8], message: &[u8]) -> Vec<u8> {
    [choices, message].concat()
}

/// A `soap_request` input: `body` sent to `op` over SOAP `binding` as `content_type`.
pub fn soap_request(op: Operation, binding: Binding, content_type: &str, body: &[u8]) -> Vec<u8> {
    let choices = [
        operation(op),
        position(&SOAP_BINDINGS, &binding),
        position(&SOAP_CONTENT_TYPES, &content_type),
    ];
    input(&choices, body)
}

/// A `form_request` input: the query (HTTP GET) or form body (HTTP POST, as `content_type`).
pub fn form_request(op: Operation, binding: Binding, content_type: &str, form: &[u8]) -> Vec<u8> {
    let choices = [
        operation(op),
        position(&FORM_BINDINGS, &binding),
        position(&FORM_CONTENT_TYPES, &content_type),
    ];
    input(&choices, form)
}

/// A `response` input: the answer `status`, `content_type`, `body` to a call of `op` over
/// `binding`.
pub fn response(
    op: Operation,
    binding: Binding,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> Vec<u8> {
    let choices = [
        operation(op),
        position(&Binding::ALL, &binding),
        position(&STATUSES, &status),
        position(&CONTENT_TYPES, &content_type),
    ];
    input(&choices, body)
}

/// An `objects` input that feeds the third service's server the request `op` got over
/// `binding`: its SOAP body, or its query (HTTP GET) or form (HTTP POST, as `content_type`).
pub fn objects_request(
    op: rmm_objects::Operation,
    binding: Binding,
    content_type: &str,
    message: &[u8],
) -> Vec<u8> {
    let op = position(&rmm_objects::Operation::ALL, &op);
    let choices = if binding.is_soap() {
        [
            position(&SIDES, &Side::Soap),
            op,
            position(&SOAP_BINDINGS, &binding),
            position(&SOAP_CONTENT_TYPES, &content_type),
        ]
    } else {
        [
            position(&SIDES, &Side::Form),
            op,
            position(&FORM_BINDINGS, &binding),
            position(&FORM_CONTENT_TYPES, &content_type),
        ]
    };
    input(&choices, message)
}

/// An `objects` input that feeds the third service's client the answer `status`,
/// `content_type`, `body` to a call of `op` over `binding`.
pub fn objects_response(
    op: rmm_objects::Operation,
    binding: Binding,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> Vec<u8> {
    let choices = [
        position(&SIDES, &Side::Response),
        position(&rmm_objects::Operation::ALL, &op),
        position(&Binding::ALL, &binding),
        position(&STATUSES, &status),
        position(&CONTENT_TYPES, &content_type),
    ];
    input(&choices, body)
}
