//! The scanner's shape of an envelope, up to and after its Body's entry: shared by the request
//! and response readers' fast paths.

use super::{envelope_ns, KNOWN_ENVELOPES};
use crate::xml;
use crate::{Binding, OperationInfo};

/// Reads the start of an envelope of `binding` in the scanner's shape up to the Body's first
/// element: `[envelope, body, entry]` (the entry not checked). Inlined: its three start tags
/// are returned by value.
#[inline(always)]
pub(super) fn scan_to_body_entry<'a>(
    binding: Binding,
    body: &'a [u8],
) -> Result<(xml::Scanner<'a>, [xml::ScannedStart<'a>; 3]), xml::Unusual> {
    let (mut scanner, [envelope, body_element]) = scan_to_body(binding, body)?;
    let entry = scanner.start()?;
    Ok((scanner, [envelope, body_element, entry]))
}

/// Reads the start of an envelope in the scanner's shape up to its Body's entry:
/// `[envelope, body]`.
pub(super) fn scan_to_body<'a>(
    binding: Binding,
    body: &'a [u8],
) -> Result<(xml::Scanner<'a>, [xml::ScannedStart<'a>; 2]), xml::Unusual> {
    use xml::Unusual;
    let env_ns = envelope_ns(binding).as_bytes();
    let mut scanner = xml::Scanner::new(body)?;
    scanner.prolog()?;
    let known = &KNOWN_ENVELOPES[usize::from(binding == Binding::Soap12)];
    let envelope = match known.iter().find_map(|known| scanner.known_start(known)) {
        Some(envelope) => envelope,
        None => scanner.start()?,
    };
    if envelope.ns != Some(env_ns) || envelope.local != b"Envelope" || envelope.empty {
        return Err(Unusual);
    }
    scanner.skip_space();
    let body_element = scanner.start()?;
    if body_element.ns != Some(env_ns) || body_element.local != b"Body" || body_element.empty {
        return Err(Unusual);
    }
    scanner.skip_space();
    Ok((scanner, [envelope, body_element]))
}

/// Reads the start of a request in the scanner's shape up to the operation element (not
/// empty): `[envelope, body, operation]`.
pub(super) fn scan_to_operation<'a>(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &'a [u8],
) -> Result<(xml::Scanner<'a>, [xml::ScannedStart<'a>; 3]), xml::Unusual> {
    let (mut scanner, [envelope, body_element]) = scan_to_body(binding, body)?;
    let namespace = operation.service.namespace;
    let wrapper = operation.wrapper();
    let op = match scanner.default_ns_start(wrapper, namespace) {
        Some(op) => op,
        None => scanner.start()?,
    };
    if op.ns != Some(namespace.as_bytes()) || op.local != wrapper.as_bytes() || op.empty {
        return Err(xml::Unusual);
    }
    Ok((scanner, [envelope, body_element, op]))
}

/// Reads the end of an envelope after its Body's entry (an operation or response element).
pub(super) fn scan_after_body_entry<'a>(
    scanner: &mut xml::Scanner<'a>,
    body_element: &xml::ScannedStart<'a>,
    envelope: &xml::ScannedStart<'a>,
) -> Result<(), xml::Unusual> {
    scanner.skip_space();
    scanner.end(body_element)?;
    scanner.skip_space();
    scanner.end(envelope)?;
    scanner.skip_space();
    if scanner.at_eof() {
        Ok(())
    } else {
        Err(xml::Unusual)
    }
}
