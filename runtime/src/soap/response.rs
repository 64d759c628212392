//! The response reader of clients: results, out parameters, bare bodies, faults and the HTTP
//! GET/POST result documents.

use super::scan::{scan_after_body_entry, scan_to_body_entry};
use super::{envelope_ns, ENV, SERVICE, XSI};
use crate::xml::{self, Element, Node, Ns, XmlCursor, XmlError, XSI_NS};
use crate::{Binding, Fault, FaultCode, OperationInfo};

/// The fast path of [`read_response`]: a result envelope of the plain shape an ASMX host
/// (and our server) writes, `Envelope`, `Body`, the response element and at most its one result
/// element, read by the [`xml::Scanner`]. Anything else (a fault, a header, other elements)
/// is [`xml::Unusual`], and the cursor reads the document from the start.
pub(super) fn scan_response(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &[u8],
) -> Result<Option<String>, xml::Unusual> {
    use xml::Unusual;
    if operation.raw_trees {
        // Raw XML is kept by the cursor's trees only.
        return Err(Unusual);
    }
    let service_ns = operation.service.namespace.as_bytes();
    let (mut scanner, [envelope, body_element, entry]) = scan_to_body_entry(binding, body)?;
    if entry.ns != Some(service_ns) || entry.local != operation.response_name.as_bytes() {
        return Err(Unusual);
    }
    let mut result = None;
    if entry.empty {
        scanner.end_empty(&entry);
    } else {
        scanner.skip_space();
        if !scanner.at_end_tag() {
            let element = scanner.start()?;
            if element.ns != Some(service_ns) || element.local != operation.result_name.as_bytes() {
                return Err(Unusual);
            }
            result = Some(if element.empty {
                scanner.end_empty(&element);
                String::new()
            } else {
                let text = scanner.text()?;
                scanner.end(&element)?;
                xml::scanned_text(scanner.source(), text).into_owned()
            });
            scanner.skip_space();
        }
        scanner.end(&entry)?;
    }
    scan_after_body_entry(&mut scanner, &body_element, &envelope)?;
    Ok(result)
}

/// The fast path of [`read_response_tree`]: a result envelope of the plain shape, as
/// [`scan_response`] reads one, its result element read whole as a value tree by the
/// scanner (attributes allowed there). Anything else is [`xml::Unusual`].
pub(super) fn scan_response_tree<'a>(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &'a [u8],
) -> Result<Option<crate::tree::Node<'a>>, xml::Unusual> {
    use xml::Unusual;
    if operation.raw_trees {
        // Raw XML is kept by the cursor's trees only.
        return Err(Unusual);
    }
    let service_ns = operation.service.namespace.as_bytes();
    let (mut scanner, [envelope, body_element, entry]) = scan_to_body_entry(binding, body)?;
    if entry.ns != Some(service_ns) || entry.local != operation.response_name.as_bytes() {
        return Err(Unusual);
    }
    let mut result = None;
    if entry.empty {
        scanner.end_empty(&entry);
    } else {
        scanner.skip_space();
        if !scanner.at_end_tag() {
            let mut attributes = xml::Attributes::default();
            let element = scanner.tree_start(&mut attributes)?;
            if element.ns != Some(service_ns) || element.local != operation.result_name.as_bytes() {
                return Err(Unusual);
            }
            let mut budget = crate::tree::MAX_ELEMENTS;
            result = Some(scanner.tree(element, &mut attributes, service_ns, &mut budget)?);
            scanner.skip_space();
        }
        scanner.end(&entry)?;
    }
    scan_after_body_entry(&mut scanner, &body_element, &envelope)?;
    Ok(result)
}

/// What the body of a SOAP response held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResponseBody<R = String> {
    /// The operation's response element, with the result (`None`: no result element, or a
    /// nil one): its text, or the value tree of a class or array result.
    Result(Option<R>),
    /// A fault.
    Fault(Fault),
}

/// Reads a SOAP response envelope of `operation`: its result, or a fault. The error is a
/// sentence for [`crate::ResponseError::Undecodable`].
pub fn read_response(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &[u8],
) -> Result<ResponseBody, String> {
    match scan_response(binding, operation, body) {
        Ok(result) => Ok(ResponseBody::Result(result)),
        Err(xml::Unusual) => parse_response(binding, operation, body),
    }
}

/// The general path of [`read_response`]: the cursor, from the start of the document.
pub(super) fn parse_response(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &[u8],
) -> Result<ResponseBody, String> {
    parse_response_with(binding, operation, body, |cursor, e| {
        // `xsi:nil="true"`: a null, as XmlSerializer writes one.
        let nil = cursor
            .attribute(&e, XSI, "nil")
            .map_err(describe)?
            .is_some_and(|v| matches!(v.trim(), "true" | "1"));
        let text = if e.empty {
            String::new()
        } else {
            let content = cursor.content().map_err(describe)?;
            if content.nested {
                return Err(format!(
                    "{} holds elements, not text",
                    operation.result_name
                ));
            }
            content.text.into_owned()
        };
        Ok((!nil).then_some(text))
    })
}

/// Reads a SOAP response envelope of `operation` whose result is a class or an array: its
/// result element as a value tree (`None`: absent; `xsi:nil` is the type's to read), or a
/// fault.
pub fn read_response_tree<'a>(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &'a [u8],
) -> Result<ResponseBody<crate::tree::Node<'a>>, String> {
    match scan_response_tree(binding, operation, body) {
        Ok(result) => Ok(ResponseBody::Result(result)),
        Err(xml::Unusual) => parse_response_tree(binding, operation, body),
    }
}

/// The general path of [`read_response_tree`]: the cursor, from the start of the document.
pub(super) fn parse_response_tree<'a>(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &'a [u8],
) -> Result<ResponseBody<crate::tree::Node<'a>>, String> {
    let mut budget = crate::tree::Budget::default();
    parse_response_with(binding, operation, body, |cursor, e| {
        let node = cursor
            .tree(e, SERVICE, XSI, &mut budget)
            .map_err(|error| match error {
                xml::TreeError::Xml(error) => describe(error),
                xml::TreeError::TooLarge => crate::tree::MemberError::TooLarge.to_string(),
            })?;
        Ok(Some(node))
    })
}

/// The general path of a response: the envelope and its body read with the cursor, the
/// result element by `read_result`.
pub(super) fn parse_response_with<'a, R>(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &'a [u8],
    mut read_result: impl FnMut(&mut XmlCursor<'a, 3>, Element<'a>) -> Result<Option<R>, String>,
) -> Result<ResponseBody<R>, String> {
    parse_response_entry(binding, operation, body, |cursor, entry| {
        let mut result = None;
        let mut seen = false;
        if !entry.empty {
            loop {
                match cursor.next().map_err(describe)? {
                    Node::Start(e) => {
                        if !seen
                            && e.ns == Ns::Known(SERVICE)
                            && e.local() == operation.result_name.as_bytes()
                        {
                            seen = true;
                            result = read_result(cursor, e)?;
                        } else if !e.empty {
                            cursor.skip().map_err(describe)?;
                        }
                    }
                    Node::Text => {}
                    Node::End => break,
                    Node::Eof => unreachable!("the cursor reports an early end as malformed"),
                }
            }
        }
        Ok(result)
    })
}

/// Reads a SOAP response envelope of `operation` whose response element holds out parameters
/// beside its result: that element whole, as a value tree (its children the result and the
/// out parameters), or a fault.
pub fn read_response_wrapper<'a>(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &'a [u8],
) -> Result<ResponseBody<crate::tree::Node<'a>>, String> {
    let mut budget = crate::tree::Budget::default();
    parse_response_entry(binding, operation, body, |cursor, entry| {
        let node = cursor
            .tree(entry, SERVICE, XSI, &mut budget)
            .map_err(|error| match error {
                xml::TreeError::Xml(error) => describe(error),
                xml::TreeError::TooLarge => crate::tree::MemberError::TooLarge.to_string(),
            })?;
        Ok(Some(node))
    })
}

/// Reads a SOAP response envelope of a bare operation: its Body whole, as a value tree whose
/// children are the result (and nothing, for a null one), or a fault.
pub fn read_response_body<'a>(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &'a [u8],
) -> Result<ResponseBody<crate::tree::Node<'a>>, String> {
    // A first pass finds whether the Body holds a fault (read as a fault, as any response's)
    // and checks the whole document; only a result is read again, as a tree.
    let mut cursor = XmlCursor::new(
        body,
        [envelope_ns(binding), operation.service.namespace, XSI_NS],
    )
    .keeping_raw(operation.raw_trees);
    let body_element = open_body(&mut cursor, binding)?;
    let mut fault = None;
    if !body_element.empty {
        loop {
            match cursor.next().map_err(describe)? {
                Node::Start(e) if e.ns == Ns::Known(ENV) && e.local() == b"Fault" => {
                    if e.empty {
                        return Err("the Fault is empty".into());
                    }
                    let read = read_fault(&mut cursor, binding == Binding::Soap12);
                    fault = Some(read.map_err(describe)?);
                    break;
                }
                Node::Start(_) | Node::End => break,
                Node::Text => {}
                Node::Eof => unreachable!("the cursor reports an early end as malformed"),
            }
        }
    }
    read_to_end(&mut cursor)?;
    if let Some(fault) = fault {
        return Ok(ResponseBody::Fault(fault));
    }
    let mut cursor = XmlCursor::new(
        body,
        [envelope_ns(binding), operation.service.namespace, XSI_NS],
    )
    .keeping_raw(operation.raw_trees);
    let body_element = open_body(&mut cursor, binding)?;
    let mut budget = crate::tree::Budget::default();
    let node = cursor
        .tree(body_element, SERVICE, XSI, &mut budget)
        .map_err(|error| match error {
            xml::TreeError::Xml(error) => describe(error),
            xml::TreeError::TooLarge => crate::tree::MemberError::TooLarge.to_string(),
        })?;
    Ok(ResponseBody::Result(Some(node)))
}

/// Reads a response envelope's start up to its Body's start tag (a Header skipped).
fn open_body<'a>(cursor: &mut XmlCursor<'a, 3>, binding: Binding) -> Result<Element<'a>, String> {
    let root = expect_start(cursor, "the envelope")?;
    if root.ns != Ns::Known(ENV) || root.local() != b"Envelope" || root.empty {
        return Err(format!(
            "the root element is {}, not a {binding} envelope",
            root.display_name(cursor.known())
        ));
    }
    let body_element = loop {
        let e = expect_start(cursor, "the Body")?;
        if e.ns == Ns::Known(ENV) && e.local() == b"Header" {
            if !e.empty {
                cursor.skip().map_err(describe)?;
            }
            continue;
        }
        break e;
    };
    if body_element.ns != Ns::Known(ENV) || body_element.local() != b"Body" {
        return Err(format!(
            "expected a Body, found {}",
            body_element.display_name(cursor.known())
        ));
    }
    Ok(body_element)
}

/// Reads the rest of a document, which must be well-formed.
fn read_to_end(cursor: &mut XmlCursor<'_, 3>) -> Result<(), String> {
    loop {
        match cursor.next().map_err(describe)? {
            Node::Eof => return Ok(()),
            Node::Start(e) if !e.empty => cursor.skip().map_err(describe)?,
            _ => {}
        }
    }
}

/// The general path of a response: the envelope and its body read with the cursor, the
/// operation's response element by `read_entry`.
fn parse_response_entry<'a, R>(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &'a [u8],
    mut read_entry: impl FnMut(&mut XmlCursor<'a, 3>, Element<'a>) -> Result<Option<R>, String>,
) -> Result<ResponseBody<R>, String> {
    let mut cursor = XmlCursor::new(
        body,
        [envelope_ns(binding), operation.service.namespace, XSI_NS],
    )
    .keeping_raw(operation.raw_trees);
    let body_element = open_body(&mut cursor, binding)?;
    if body_element.empty {
        return Err(format!(
            "expected a Body, found {}",
            body_element.display_name(cursor.known())
        ));
    }
    let entry = expect_start(&mut cursor, "the body element")?;
    let result = if entry.ns == Ns::Known(ENV) && entry.local() == b"Fault" {
        if entry.empty {
            return Err("the Fault is empty".into());
        }
        ResponseBody::Fault(read_fault(&mut cursor, binding == Binding::Soap12).map_err(describe)?)
    } else if entry.ns == Ns::Known(SERVICE) && entry.local() == operation.response_name.as_bytes()
    {
        ResponseBody::Result(read_entry(&mut cursor, entry)?)
    } else {
        return Err(format!(
            "the body element is {}, not {{{}}}{} or a Fault",
            entry.display_name(cursor.known()),
            operation.service.namespace,
            operation.response_name
        ));
    };
    // The rest must be well-formed too.
    read_to_end(&mut cursor)?;
    Ok(result)
}

pub(super) fn describe(error: XmlError) -> String {
    match error {
        XmlError::Malformed(reason) => format!("the body is not well-formed XML: {reason}"),
        XmlError::Doctype => "the body contains a DOCTYPE, which is refused".to_owned(),
        XmlError::NotUtf8 => "the body is not UTF-8".to_owned(),
    }
}

/// The next element, skipping whitespace; anything else is reported as `what` missing.
fn expect_start<'a>(cursor: &mut XmlCursor<'a, 3>, what: &str) -> Result<Element<'a>, String> {
    match cursor.next().map_err(describe)? {
        Node::Start(e) => Ok(e),
        Node::Text => Err(format!("text where {what} was expected")),
        Node::End | Node::Eof => Err(format!("{what} is missing")),
    }
}

/// Reads the children of a `Fault` element (either version) up to its end tag.
fn read_fault(cursor: &mut XmlCursor<'_, 3>, soap12: bool) -> Result<Fault, XmlError> {
    let mut code = None;
    let mut reason = None;
    let mut detail = None;
    loop {
        let element = match cursor.next()? {
            Node::Start(e) => e,
            Node::Text => continue,
            Node::End => break,
            Node::Eof => unreachable!("the cursor reports an early end as malformed"),
        };
        // SOAP 1.1 children are unqualified; SOAP 1.2 children are in the envelope namespace.
        let local = element.local().to_vec();
        let text_of =
            |cursor: &mut XmlCursor<'_, 3>, e: &Element<'_>| -> Result<String, XmlError> {
                if e.empty {
                    Ok(String::new())
                } else {
                    Ok(cursor.content()?.text.into_owned())
                }
            };
        match (soap12, local.as_slice()) {
            (false, b"faultcode") => code = Some(text_of(cursor, &element)?),
            (false, b"faultstring") => reason = Some(text_of(cursor, &element)?),
            (false, b"detail") | (true, b"Detail") => detail = Some(text_of(cursor, &element)?),
            (true, b"Code") | (true, b"Reason") if !element.empty => {
                // The value is the text of the first child (Value / Text).
                loop {
                    match cursor.next()? {
                        Node::Start(child) => {
                            let text = text_of(cursor, &child)?;
                            if local == b"Code" && code.is_none() {
                                code = Some(text);
                            } else if local == b"Reason" && reason.is_none() {
                                reason = Some(text);
                            }
                        }
                        Node::Text => {}
                        Node::End => break,
                        Node::Eof => unreachable!("the cursor reports an early end as malformed"),
                    }
                }
            }
            _ => {
                if !element.empty {
                    cursor.skip()?;
                }
            }
        }
    }
    let code = code.unwrap_or_default();
    let local = code.trim().rsplit(':').next().unwrap_or_default();
    Ok(Fault {
        code: FaultCode::from_local_name(local),
        reason: reason.unwrap_or_default(),
        detail,
    })
}

/// Reads the HTTP GET/POST result document `<{root} xmlns="{namespace}">text</{root}>`, its
/// root named after the result's type (`string`, `long`); `xsi:nil="true"` is a null result.
pub fn read_result_document(
    operation: &'static OperationInfo,
    root_name: &str,
    body: &[u8],
) -> Result<Option<String>, String> {
    let mut cursor = XmlCursor::new(body, [operation.service.namespace, XSI_NS])
        .keeping_raw(operation.raw_trees);
    let root = match cursor.next().map_err(describe)? {
        Node::Start(e) => e,
        _ => return Err("the body is empty".into()),
    };
    if root.ns != Ns::Known(0) || root.local() != root_name.as_bytes() {
        return Err(format!(
            "the root element is {}, not {{{}}}{root_name}",
            root.display_name(cursor.known()),
            operation.service.namespace
        ));
    }
    let nil = cursor
        .attribute(&root, 1, "nil")
        .map_err(describe)?
        .is_some_and(|v| matches!(v.trim(), "true" | "1"));
    let text = if root.empty {
        String::new()
    } else {
        let content = cursor.content().map_err(describe)?;
        if content.nested {
            return Err("the result holds elements, not text".into());
        }
        content.text.into_owned()
    };
    match cursor.next().map_err(describe)? {
        Node::Eof => Ok(if nil { None } else { Some(text) }),
        _ => Err("content after the root element".into()),
    }
}

/// Reads an HTTP GET/POST result document of a class or array type, its root named
/// `root_name` in the service namespace, as a value tree; a nil root is `None`.
pub fn read_tree_document<'a>(
    operation: &'static OperationInfo,
    root_name: &str,
    body: &'a [u8],
) -> Result<Option<crate::tree::Node<'a>>, String> {
    let mut cursor = XmlCursor::new(body, [operation.service.namespace, XSI_NS])
        .keeping_raw(operation.raw_trees);
    let root = match cursor.next().map_err(describe)? {
        Node::Start(e) => e,
        _ => return Err("the body is empty".into()),
    };
    if root.ns != Ns::Known(0) || root.local() != root_name.as_bytes() {
        return Err(format!(
            "the root element is {}, not {{{}}}{root_name}",
            root.display_name(cursor.known()),
            operation.service.namespace
        ));
    }
    let mut budget = crate::tree::Budget::default();
    let node = cursor
        .tree(root, 0, 1, &mut budget)
        .map_err(|error| match error {
            xml::TreeError::Xml(error) => describe(error),
            xml::TreeError::TooLarge => crate::tree::MemberError::TooLarge.to_string(),
        })?;
    match cursor.next().map_err(describe)? {
        // The root element is nillable (the WSDL declares it so): nil is a null result.
        Node::Eof => match node.read_null() {
            Ok(true) => Ok(None),
            Ok(false) => Ok(Some(node)),
            Err(error) => Err(format!("the result: {error}")),
        },
        _ => Err("content after the root element".into()),
    }
}
