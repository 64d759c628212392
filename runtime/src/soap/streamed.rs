//! The fast path of requests and responses holding classes and arrays: a message in the
//! scanner's shape read straight into values ([`Streamed`]), without value trees. Whatever
//! it cannot read as the general path would ([`Fallback`]), the caller reads again there.

use super::scan::{scan_after_body_entry, scan_to_body_entry, scan_to_operation};
use crate::tree::{Fallback, Streamed};
use crate::xml::Stream;
use crate::{Binding, OperationInfo};

/// Reads a request of `binding` to `operation` in the scanner's shape (see
/// [`super::RequestReader`]): `read` takes the operation element's parameters one after the
/// other ([`crate::tree::Members`]); then the rest of the envelope is read. A parameter of
/// another namespace, a simple one with attributes, a Header, a bare operation's Body and
/// raw XML are left to the general reader, as is whatever `read` cannot read.
///
/// Generated decoders try this first and fall back to [`super::RequestReader`], which gives
/// the same values and words every error.
pub fn read_streamed_request<'a, R>(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &'a [u8],
    read: impl FnOnce(&mut Streamed<'_, 'a>) -> Result<R, Fallback>,
) -> Result<R, Fallback> {
    if operation.bare || operation.raw_trees {
        return Err(Fallback);
    }
    let (scanner, [envelope, body_element, op]) = scan_to_operation(binding, operation, body)?;
    let mut stream = Stream::new(scanner, operation.service.namespace);
    let start = stream.opened(op);
    let mut params = Streamed::operation(&mut stream, start);
    let value = read(&mut params)?;
    params.finish()?;
    scan_after_body_entry(stream.scanner(), &body_element, &envelope)?;
    Ok(value)
}

/// Reads a SOAP response of `operation` whose result is a class or array, in the scanner's
/// shape (see [`super::read_response_tree`]): `read` reads the result element; an absent
/// one is `None`. A fault, and whatever `read` cannot read, are left to the general reader.
pub fn read_streamed_response<'a, T>(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &'a [u8],
    read: impl FnOnce(&mut Streamed<'_, 'a>) -> Result<Option<T>, Fallback>,
) -> Result<Option<T>, Fallback> {
    if operation.raw_trees {
        return Err(Fallback);
    }
    let (scanner, [envelope, body_element, entry]) = scan_to_body_entry(binding, body)?;
    let service = operation.service.namespace;
    if entry.ns != Some(service.as_bytes()) || entry.local != operation.response_name.as_bytes() {
        return Err(Fallback);
    }
    let mut stream = Stream::new(scanner, service);
    let mut result = None;
    if entry.empty {
        stream.scanner().end_empty(&entry);
    } else {
        stream.scanner().skip_space();
        if !stream.scanner().at_end_tag() {
            let start = stream.start(0)?;
            if !start.in_service || start.local != operation.result_name {
                return Err(Fallback);
            }
            let mut element = Streamed::new(&mut stream, start);
            result = read(&mut element)?;
            element.finish()?;
            stream.scanner().skip_space();
        }
        stream.scanner().end(&entry)?;
    }
    scan_after_body_entry(stream.scanner(), &body_element, &envelope)?;
    Ok(result)
}
