//! SOAP 1.1 and 1.2 envelopes: the request writer of clients, the request reader of servers,
//! and the fault and result bodies of both directions.
//!
//! Envelopes are written as an ASMX host writes them: one line, the prefix `soap` bound to the
//! binding's envelope namespace, `xsi` and `xsd` declared, no header.

use std::borrow::Cow;

use crate::Scalar;

use crate::xml::{self, Content, Element, Node, Ns, XmlCursor, XmlError, XSI_NS};
use crate::{Binding, EncodeError, Fault, FaultCode, OperationInfo, RequestError};

/// Envelope namespace of SOAP 1.1.
pub const SOAP11_NS: &str = "http://schemas.xmlsoap.org/soap/envelope/";
/// Envelope namespace of SOAP 1.2.
pub const SOAP12_NS: &str = "http://www.w3.org/2003/05/soap-envelope";
/// `Content-Type` of SOAP 1.1 messages, and of every HTTP GET/POST result.
pub const SOAP11_CONTENT_TYPE: &str = "text/xml; charset=utf-8";
/// `Content-Type` of SOAP 1.2 messages (requests add an `action` parameter).
pub const SOAP12_CONTENT_TYPE: &str = "application/soap+xml; charset=utf-8";

/// The Envelope start tag we write, as .NET's client and an ASMX host write it; a macro so
/// that [`ENVELOPE11_OPEN`] and [`KNOWN_ENVELOPES`] spell it once.
macro_rules! envelope_tag {
    (11) => {
        concat!(
            r#"<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" "#,
            r#"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" "#,
            r#"xmlns:xsd="http://www.w3.org/2001/XMLSchema">"#
        )
    };
    (12) => {
        concat!(
            r#"<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope" "#,
            r#"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" "#,
            r#"xmlns:xsd="http://www.w3.org/2001/XMLSchema">"#
        )
    };
}

/// Everything before the body element of a SOAP 1.1 envelope.
pub const ENVELOPE11_OPEN: &str = concat!(
    r#"<?xml version="1.0" encoding="utf-8"?>"#,
    envelope_tag!(11),
    "<soap:Body>"
);
/// Everything before the body element of a SOAP 1.2 envelope.
pub const ENVELOPE12_OPEN: &str = concat!(
    r#"<?xml version="1.0" encoding="utf-8"?>"#,
    envelope_tag!(12),
    "<soap:Body>"
);

/// The Envelope start tags requests nearly always carry, of SOAP 1.1 and of 1.2: the one we
/// (and .NET's client) write, and the one of the host's help page samples, which mobile apps
/// copy. The scanner takes them as bytes instead of reading them (the declarations cost
/// more to read than the rest of a short request); any other is read.
const KNOWN_ENVELOPES: [[xml::KnownStart; 2]; 2] = {
    const DECLARATIONS_CLIENT: [[(&str, &str); 3]; 2] = [
        [
            ("soap", SOAP11_NS),
            ("xsi", xml::XSI_NS),
            ("xsd", xml::XSD_NS),
        ],
        [
            ("soap", SOAP12_NS),
            ("xsi", xml::XSI_NS),
            ("xsd", xml::XSD_NS),
        ],
    ];
    const DECLARATIONS_HELP: [[(&str, &str); 3]; 2] = [
        [
            ("xsi", xml::XSI_NS),
            ("xsd", xml::XSD_NS),
            ("soap", SOAP11_NS),
        ],
        [
            ("xsi", xml::XSI_NS),
            ("xsd", xml::XSD_NS),
            ("soap12", SOAP12_NS),
        ],
    ];
    [
        [
            xml::KnownStart::new(envelope_tag!(11), "soap:Envelope", &DECLARATIONS_CLIENT[0]),
            xml::KnownStart::new(
                concat!(
                    r#"<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" "#,
                    r#"xmlns:xsd="http://www.w3.org/2001/XMLSchema" "#,
                    r#"xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">"#
                ),
                "soap:Envelope",
                &DECLARATIONS_HELP[0],
            ),
        ],
        [
            xml::KnownStart::new(envelope_tag!(12), "soap:Envelope", &DECLARATIONS_CLIENT[1]),
            xml::KnownStart::new(
                concat!(
                    r#"<soap12:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" "#,
                    r#"xmlns:xsd="http://www.w3.org/2001/XMLSchema" "#,
                    r#"xmlns:soap12="http://www.w3.org/2003/05/soap-envelope">"#
                ),
                "soap12:Envelope",
                &DECLARATIONS_HELP[1],
            ),
        ],
    ]
};
/// Everything after the body element, both versions.
pub const ENVELOPE_CLOSE: &str = "</soap:Body></soap:Envelope>";

/// The envelope namespace of a SOAP binding.
///
/// # Panics
/// On HTTP GET or POST, which carry no envelope (a bug in the caller).
pub fn envelope_ns(binding: Binding) -> &'static str {
    match binding {
        Binding::Soap11 => SOAP11_NS,
        Binding::Soap12 => SOAP12_NS,
        Binding::HttpGet | Binding::HttpPost => panic!("{binding} has no SOAP envelope"),
    }
}

fn envelope_open(binding: Binding) -> &'static str {
    if binding == Binding::Soap12 {
        ENVELOPE12_OPEN
    } else {
        ENVELOPE11_OPEN
    }
}

/// Writes one envelope into one pre-sized buffer. Generated encoders write the markup between
/// values as precomputed literals (`w.raw("</a><b>")`) and each value with its own call.
#[derive(Debug)]
pub struct SoapWriter {
    out: String,
    operation: &'static str,
}

impl SoapWriter {
    /// Starts an envelope of `binding` whose body will hold about `capacity` bytes.
    pub fn new(binding: Binding, operation: &'static str, capacity: usize) -> SoapWriter {
        let open = envelope_open(binding);
        let mut out = String::with_capacity(open.len() + capacity + ENVELOPE_CLOSE.len());
        out.push_str(open);
        SoapWriter { out, operation }
    }

    /// Appends precomputed markup.
    #[inline(always)]
    pub fn raw(&mut self, markup: &'static str) {
        self.out.push_str(markup);
    }

    /// Appends a value of any simple type but `string`, as `XmlConvert` writes it (the tags
    /// around it are written by [`SoapWriter::raw`]).
    #[inline(always)]
    pub fn scalar<T: Scalar>(&mut self, value: &T) {
        value.write_xml(&mut self.out);
    }

    /// Appends a nullable value: `<p>value</p>`, or for `None` the element with
    /// `xsi:nil="true"` (`nil`, precomputed), as .NET's client writes a null `int?`.
    #[inline]
    pub fn nullable<T: Scalar>(
        &mut self,
        open: &'static str,
        value: Option<&T>,
        close: &'static str,
        nil: &'static str,
    ) {
        match value {
            Some(value) => {
                self.out.push_str(open);
                value.write_xml(&mut self.out);
                self.out.push_str(close);
            }
            None => self.out.push_str(nil),
        }
    }

    /// Appends bytes as base64 (the tags around them are written by [`SoapWriter::raw`]).
    pub(crate) fn base64(&mut self, bytes: &[u8]) {
        crate::value::scalar::write_base64(&mut self.out, bytes);
    }

    /// Appends `<p>base64</p>`: an empty array as `<p />`, nothing at all for `None` (the
    /// element is left out, which an ASMX host reads as null).
    #[inline]
    pub fn bytes(&mut self, open: &'static str, value: Option<&[u8]>, close: &'static str) {
        match value {
            None => {}
            Some([]) => {
                // `<p>` becomes `<p />`.
                self.out.push_str(&open[..open.len() - 1]);
                self.out.push_str(" />");
            }
            Some(bytes) => {
                self.out.push_str(open);
                crate::value::scalar::write_base64(&mut self.out, bytes);
                self.out.push_str(close);
            }
        }
    }

    /// Appends `<p>text</p>`, escaped; nothing at all for `None` (the element is left out,
    /// which an ASMX host reads as null).
    #[inline(always)]
    pub fn string(
        &mut self,
        field: &'static str,
        open: &'static str,
        value: Option<&str>,
        close: &'static str,
    ) -> Result<(), EncodeError> {
        if let Some(text) = value {
            self.out.push_str(open);
            // Most text needs no escape: then it is copied here, without a call.
            let first = xml::first_to_escape(text.as_bytes());
            if first == text.len() {
                self.out.push_str(text);
            } else {
                xml::escape_text_from(&mut self.out, text, first).map_err(|code| {
                    EncodeError::InvalidXmlChar {
                        operation: self.operation,
                        field,
                        code,
                    }
                })?;
            }
            self.out.push_str(close);
        }
        Ok(())
    }

    /// Appends a parameter of a class or array type (`items` names an array's items, see
    /// [`crate::tree::XmlItem`]): nothing at all for `None` (the element is left out, which
    /// an ASMX host reads as null).
    pub fn optional<T: crate::tree::XmlItem>(
        &mut self,
        name: &'static str,
        items: &'static [&'static str],
        value: Option<&T>,
    ) -> Result<(), EncodeError> {
        let mut elements = crate::tree::XmlOut::request(&mut self.out, self.operation);
        elements.optional(name, items, value)?;
        elements.finish();
        Ok(())
    }

    /// [`SoapWriter::optional`] for a parameter of a bare operation: an element of its own in
    /// the Body, its namespace declared on it by `xmlns` (` xmlns="…"`).
    pub fn optional_in<T: crate::tree::XmlItem>(
        &mut self,
        xmlns: &'static str,
        name: &'static str,
        items: &'static [&'static str],
        value: Option<&T>,
    ) -> Result<(), EncodeError> {
        let mut elements = crate::tree::XmlOut::request(&mut self.out, self.operation);
        elements.qualify_first(xmlns);
        elements.optional(name, items, value)?;
        elements.finish();
        Ok(())
    }

    /// A writer of elements into the envelope, for parameters of a class or array type.
    #[inline]
    pub fn elements(&mut self) -> crate::tree::XmlOut<'_> {
        crate::tree::XmlOut::new(&mut self.out, self.operation)
    }

    /// How much has been written.
    pub fn len(&self) -> usize {
        self.out.len()
    }

    /// Whether nothing has been written (never: the envelope is written first).
    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    /// Closes the envelope and returns it.
    pub fn finish(mut self) -> String {
        self.out.push_str(ENVELOPE_CLOSE);
        self.out
    }

    /// Closes an envelope whose Body holds nothing, as XmlSerializer closes it: `<soap:Body />`
    /// (a bare operation's null result).
    pub fn finish_empty_body(mut self) -> String {
        debug_assert!(self.out.ends_with("<soap:Body>"));
        self.out.pop();
        self.out.push_str(" /></soap:Envelope>");
        self.out
    }
}

// Indices of the namespaces a request reader classifies against.
const ENV: usize = 0;
const SERVICE: usize = 1;
const XSI: usize = 2;

impl From<XmlError> for RequestError {
    fn from(error: XmlError) -> RequestError {
        match error {
            XmlError::Malformed(reason) => RequestError::MalformedXml { reason },
            XmlError::Doctype => RequestError::Doctype,
            // As malformed XML (400), as the host answers bytes that are not UTF-8.
            XmlError::NotUtf8 => RequestError::MalformedXml {
                reason: "the body is not valid UTF-8".into(),
            },
        }
    }
}

/// Reads a request envelope down to the operation element, then yields its parameter
/// elements one by one. After the last one it reads the rest of the document, so a request
/// is only ever answered when it is well-formed to the end.
///
/// Most requests are read in one pass by a scanner that takes only the plain shape clients
/// send (`scan_request`) and has checked the whole document before the first parameter is
/// yielded; any other request is read from its start by the general quick-xml cursor. Both
/// yield the same parameters, and the cursor alone decides every error.
pub struct RequestReader<'a> {
    source: Source<'a>,
    operation: &'static OperationInfo,
    /// The parameters of a class or array type, whose elements are read as value trees.
    trees: &'static [&'static str],
    /// What value trees may still take.
    budget: crate::tree::Budget,
    /// The operation element was `<Op/>` or its end tag has been read.
    finished: bool,
}

enum Source<'a> {
    /// The scanner read the whole document (`source`): its parameters, in order.
    Scanned {
        source: &'a str,
        params: std::vec::IntoIter<ScannedParam>,
    },
    /// The cursor, positioned inside the operation element.
    Parsed(XmlCursor<'a, 3>),
}

/// A parameter the scanner read, a qualified child element without attributes and with
/// text only: where its local name and its text are in the document. (Offsets rather than
/// slices keep the list small.)
struct ScannedParam {
    name_at: u32,
    name_len: u32,
    text: xml::TextSpan,
}

/// Reads a request in the plain shape of [`xml::Scanner`]: the envelope of `binding` with
/// only namespace declarations on its elements, no Header, a Body holding only the operation
/// element (in the service namespace, not empty), whose children are all service-namespace
/// elements with text and nothing else. Whitespace may separate elements. `Err(Unusual)`
/// means only that the cursor must read the request.
fn scan_request<'a>(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &'a [u8],
) -> Result<(&'a str, Vec<ScannedParam>), xml::Unusual> {
    use xml::Unusual;
    let service_ns = operation.service.namespace.as_bytes();
    let (mut scanner, [envelope, body_element, op]) = scan_to_operation(binding, operation, body)?;
    // Parameters nearly always inherit the operation element's namespace binding: comparing
    // where it is in the document spares comparing the namespace's text.
    let op_ns = op.ns;
    let mut params = Vec::with_capacity(32);
    loop {
        scanner.skip_space();
        if scanner.at_end_tag() {
            scanner.end(&op)?;
            break;
        }
        let param = scanner.start()?;
        let qualified = match param.ns {
            Some(ns) => op_ns.is_some_and(|op_ns| std::ptr::eq(ns, op_ns)) || ns == service_ns,
            None => false,
        };
        if !qualified {
            return Err(Unusual);
        }
        let text = if param.empty {
            scanner.end_empty(&param);
            xml::TextSpan::EMPTY
        } else {
            let text = scanner.text()?;
            scanner.end(&param)?;
            text
        };
        params.push(ScannedParam {
            name_at: param.local_at,
            // Names are within the document, whose offsets fit in u32.
            name_len: param.local.len() as u32,
            text,
        });
    }
    scan_after_body_entry(&mut scanner, &body_element, &envelope)?;
    Ok((scanner.source(), params))
}

/// Reads the start of an envelope of `binding` in the scanner's shape up to the Body's first
/// element: `[envelope, body, entry]` (the entry not checked). Inlined: its three start tags
/// are returned by value.
#[inline(always)]
fn scan_to_body_entry<'a>(
    binding: Binding,
    body: &'a [u8],
) -> Result<(xml::Scanner<'a>, [xml::ScannedStart<'a>; 3]), xml::Unusual> {
    let (mut scanner, [envelope, body_element]) = scan_to_body(binding, body)?;
    let entry = scanner.start()?;
    Ok((scanner, [envelope, body_element, entry]))
}

/// Reads the start of an envelope in the scanner's shape up to its Body's entry:
/// `[envelope, body]`.
fn scan_to_body<'a>(
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
fn scan_to_operation<'a>(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &'a [u8],
) -> Result<(xml::Scanner<'a>, [xml::ScannedStart<'a>; 3]), xml::Unusual> {
    let (mut scanner, [envelope, body_element]) = scan_to_body(binding, body)?;
    let namespace = operation.service.namespace;
    let op = match scanner.default_ns_start(operation.name, namespace) {
        Some(op) => op,
        None => scanner.start()?,
    };
    if op.ns != Some(namespace.as_bytes()) || op.local != operation.name.as_bytes() || op.empty {
        return Err(xml::Unusual);
    }
    Ok((scanner, [envelope, body_element, op]))
}

/// Reads the end of an envelope after its Body's entry (an operation or response element).
fn scan_after_body_entry<'a>(
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

/// The parameters of a request holding each of its operation's parameters exactly once, in
/// wire order, as `<name>text</name>` or `<name/>` in the service namespace, in the
/// scanner's shape: what nearly every client sends. Generated decoders read such a request
/// through this, straight to typed values, and any other request (or a value that does not
/// parse) through [`RequestReader`], which also words the errors; both give the same values.
#[derive(Debug)]
pub struct InOrder<'a, const N: usize> {
    source: &'a str,
    texts: [xml::TextSpan; N],
}

impl<'a, const N: usize> InOrder<'a, N> {
    /// Reads `body` if it holds exactly the parameters `names`, in that order.
    pub fn scan(
        binding: Binding,
        operation: &'static OperationInfo,
        body: &'a [u8],
        names: &[&'static str; N],
    ) -> Option<InOrder<'a, N>> {
        // A bare operation's parameters are the Body's children: the general reader's.
        if operation.bare {
            return None;
        }
        let (mut scanner, [envelope, body_element, op]) =
            scan_to_operation(binding, operation, body).ok()?;
        if scanner.default_namespace() != Some(operation.service.namespace.as_bytes()) {
            return None;
        }
        let mut texts = [xml::TextSpan::EMPTY; N];
        for (text, name) in texts.iter_mut().zip(names) {
            scanner.skip_space();
            *text = scanner.plain_element(name.as_bytes()).ok()?;
        }
        scanner.skip_space();
        scanner.end(&op).ok()?;
        scan_after_body_entry(&mut scanner, &body_element, &envelope).ok()?;
        Some(InOrder {
            source: scanner.source(),
            texts,
        })
    }

    /// The parameters' values, in wire order.
    pub fn values(self) -> [InOrderValue<'a>; N] {
        let source = self.source;
        self.texts.map(|span| InOrderValue { source, span })
    }
}

/// One parameter's value in an [`InOrder`] request.
#[derive(Debug, Clone, Copy)]
pub struct InOrderValue<'a> {
    source: &'a str,
    span: xml::TextSpan,
}

impl<'a> InOrderValue<'a> {
    /// The text, references resolved.
    fn text(&self) -> Cow<'a, str> {
        xml::scanned_text(self.source, self.span)
    }

    /// The value as an `xsd:string`.
    pub fn string(&self) -> String {
        self.text().into_owned()
    }

    /// The value as its simple type; `None` if it is not one.
    pub fn scalar<T: Scalar>(&self) -> Option<T> {
        T::read_xml(&self.text()).ok()
    }
}

/// The fast path of [`read_response`]: a result envelope of the plain shape an ASMX host
/// (and our server) writes, `Envelope`, `Body`, the response element and at most its one result
/// element, read by the [`xml::Scanner`]. Anything else (a fault, a header, other elements)
/// is [`xml::Unusual`], and the cursor reads the document from the start.
fn scan_response(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &[u8],
) -> Result<Option<String>, xml::Unusual> {
    use xml::Unusual;
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

impl<'a> RequestReader<'a> {
    /// Checks the envelope of `binding` and that its body element is `operation`.
    pub fn new(
        binding: Binding,
        operation: &'static OperationInfo,
        body: &'a [u8],
    ) -> Result<RequestReader<'a>, RequestError> {
        Self::with_trees(binding, operation, body, &[])
    }

    /// [`RequestReader::new`] for an operation with parameters of a class or array type,
    /// `trees`: their elements are read whole, as value trees ([`Param::optional`]).
    pub fn with_trees(
        binding: Binding,
        operation: &'static OperationInfo,
        body: &'a [u8],
        trees: &'static [&'static str],
    ) -> Result<RequestReader<'a>, RequestError> {
        // The scanner takes a wrapper element only; a bare operation's request has none.
        if operation.bare {
            let mut reader = Self::parse(binding, operation, body)?;
            reader.trees = trees;
            return Ok(reader);
        }
        if let Ok((source, params)) = scan_request(binding, operation, body) {
            return Ok(RequestReader {
                source: Source::Scanned {
                    source,
                    params: params.into_iter(),
                },
                operation,
                trees,
                budget: crate::tree::Budget::default(),
                finished: false,
            });
        }
        let mut reader = Self::parse(binding, operation, body)?;
        reader.trees = trees;
        Ok(reader)
    }

    /// The general path: the cursor, from the start of the document.
    fn parse(
        binding: Binding,
        operation: &'static OperationInfo,
        body: &'a [u8],
    ) -> Result<RequestReader<'a>, RequestError> {
        let env_ns = envelope_ns(binding);
        let mut cursor = XmlCursor::new(body, [env_ns, operation.service.namespace, XSI_NS]);
        let not_envelope = |reason: String| RequestError::NotAnEnvelope { binding, reason };
        let root = match cursor.next()? {
            Node::Start(root) => root,
            Node::Eof => {
                return Err(RequestError::MalformedXml {
                    reason: "the body is empty".into(),
                })
            }
            Node::End | Node::Text => {
                unreachable!("the cursor yields no end or text before a root")
            }
        };
        if root.ns != Ns::Known(ENV) || root.local() != b"Envelope" {
            return Err(not_envelope(format!(
                "the root element is {}, not {{{env_ns}}}Envelope",
                root.display_name(cursor.known())
            )));
        }
        if root.empty {
            return Err(not_envelope("the envelope has no Body".into()));
        }
        // One Header (its blocks: none understood), then the Body. ASMX reads one Header and
        // then wants the Body; a second Header is answered as a missing Body.
        let mut header_read = false;
        let body_element = loop {
            let element = match cursor.next()? {
                Node::Start(element) => element,
                Node::Text => return Err(not_envelope("the envelope holds text".into())),
                Node::End | Node::Eof => {
                    return Err(not_envelope("the envelope has no Body".into()))
                }
            };
            if element.ns == Ns::Known(ENV) && element.local() == b"Header" && !header_read {
                header_read = true;
                if !element.empty {
                    read_header(&mut cursor)?;
                }
                continue;
            }
            if element.ns == Ns::Known(ENV) && element.local() == b"Body" {
                break element;
            }
            return Err(not_envelope(format!(
                "expected Header or Body, found {}",
                element.display_name(cursor.known())
            )));
        };
        // A bare operation's parameters are the Body's children (an empty Body holds none).
        if operation.bare {
            let mut reader = RequestReader {
                source: Source::Parsed(cursor),
                operation,
                trees: &[],
                budget: crate::tree::Budget::default(),
                finished: false,
            };
            if body_element.empty {
                reader.finish()?;
            }
            return Ok(reader);
        }
        // Text in the Body, before the operation's element or after it, is ignored, as ASMX
        // ignores it.
        let op_element = if body_element.empty {
            None
        } else {
            loop {
                match cursor.next()? {
                    Node::Start(element) => break Some(element),
                    Node::Text => continue,
                    Node::End | Node::Eof => break None,
                }
            }
        };
        let Some(op_element) = op_element else {
            return Err(not_envelope("the Body is empty".into()));
        };
        if op_element.ns != Ns::Known(SERVICE) || op_element.local() != operation.name.as_bytes() {
            return Err(RequestError::WrongOperation {
                expected: operation.name,
                namespace: operation.service.namespace,
                found: op_element.display_name(cursor.known()),
            });
        }
        let mut reader = RequestReader {
            source: Source::Parsed(cursor),
            operation,
            trees: &[],
            budget: crate::tree::Budget::default(),
            finished: false,
        };
        if op_element.empty {
            reader.finish()?;
        }
        Ok(reader)
    }

    /// The next child element of the operation element, or `None` after the last one (when
    /// the rest of the document has been read and found well-formed).
    pub fn next_param(&mut self) -> Result<Option<Param<'a>>, RequestError> {
        if self.finished {
            return Ok(None);
        }
        if let Source::Scanned { source, params } = &mut self.source {
            let source: &'a str = source;
            return Ok(params.next().map(|param| {
                let name_at = param.name_at as usize;
                Param {
                    operation: self.operation,
                    name: ParamName::Scanned(
                        &source.as_bytes()[name_at..name_at + param.name_len as usize],
                    ),
                    qualified: true,
                    nil: false,
                    tree: None,
                    content: Content {
                        text: xml::scanned_text(source, param.text),
                        nested: false,
                        interrupted: false,
                    },
                }
            }));
        }
        loop {
            match self.cursor().next()? {
                Node::Start(element) => return self.param(element).map(Some),
                // Stray text between parameters carries nothing; ASMX ignores it too.
                Node::Text => {}
                Node::End => {
                    self.finish()?;
                    return Ok(None);
                }
                Node::Eof => unreachable!("the cursor reports an early end as malformed"),
            }
        }
    }

    /// The cursor of the general path.
    fn cursor(&mut self) -> &mut XmlCursor<'a, 3> {
        match &mut self.source {
            Source::Parsed(cursor) => cursor,
            Source::Scanned { .. } => {
                unreachable!("only the general path reads with the cursor")
            }
        }
    }

    fn param(&mut self, element: Element<'a>) -> Result<Param<'a>, RequestError> {
        let qualified = element.ns == Ns::Known(SERVICE);
        if qualified && self.trees.iter().any(|t| t.as_bytes() == element.local()) {
            let operation = self.operation;
            let name = String::from_utf8_lossy(element.local()).into_owned();
            let mut budget = std::mem::take(&mut self.budget);
            let tree = self.cursor().tree(element, SERVICE, XSI, &mut budget);
            self.budget = budget;
            let tree = tree.map_err(|error| match error {
                xml::TreeError::Xml(error) => RequestError::from(error),
                xml::TreeError::TooLarge => RequestError::InvalidMember {
                    operation: operation.name,
                    param: name,
                    error: Box::new(crate::tree::MemberError::TooLarge),
                },
            })?;
            return Ok(Param {
                operation,
                name: ParamName::Tree,
                qualified: true,
                // `xsi:nil` is the type's to read (`XmlItem::read_optional`).
                nil: false,
                tree: Some(Box::new(tree)),
                content: Content {
                    text: Cow::Borrowed(""),
                    nested: false,
                    interrupted: false,
                },
            });
        }
        let nil = self
            .cursor()
            .attribute(&element, XSI, "nil")?
            .is_some_and(|v| matches!(v.trim_matches(|c| " \t\r\n".contains(c)), "true" | "1"));
        let content = if element.empty {
            Content {
                text: Cow::Borrowed(""),
                nested: false,
                interrupted: false,
            }
        } else {
            self.cursor().content()?
        };
        let display_name = if qualified {
            String::new()
        } else {
            element.display_name(self.cursor().known())
        };
        Ok(Param {
            operation: self.operation,
            name: ParamName::Parsed(Box::new(ParsedName {
                element,
                display_name,
            })),
            qualified,
            nil,
            tree: None,
            content,
        })
    }

    fn finish(&mut self) -> Result<(), RequestError> {
        self.finished = true;
        // Further body entries, then what follows the Body in the envelope, are read (for
        // well-formedness) and ignored, as ASMX reads on to the envelope's end tag after the
        // parameters (.NET's `SoapServerProtocol.ReadParameters`); then nothing but comments
        // and whitespace. A bare operation's parameters end with the Body.
        if !self.operation.bare {
            self.cursor().skip()?;
        }
        self.cursor().skip()?;
        match self.cursor().next()? {
            Node::Eof => Ok(()),
            _ => Err(RequestError::MalformedXml {
                reason: "content after the root element".into(),
            }),
        }
    }
}

/// Reads header blocks; one marked `mustUnderstand` is refused, as no header is understood.
fn read_header(cursor: &mut XmlCursor<'_, 3>) -> Result<(), RequestError> {
    loop {
        match cursor.next()? {
            Node::Start(block) => {
                let must = cursor.attribute(&block, ENV, "mustUnderstand")?;
                if must.is_some_and(|v| matches!(v.trim(), "1" | "true")) {
                    return Err(RequestError::MustUnderstand {
                        header: block.display_name(cursor.known()),
                    });
                }
                if !block.empty {
                    cursor.skip()?;
                }
            }
            Node::Text => {}
            Node::End => return Ok(()),
            Node::Eof => unreachable!("the cursor reports an early end as malformed"),
        }
    }
}

/// One child element of the operation element. Generated decoders match on [`Param::name`]
/// and read known parameters with the typed methods, which refuse what ASMX would misread.
pub struct Param<'a> {
    operation: &'static OperationInfo,
    name: ParamName<'a>,
    qualified: bool,
    nil: bool,
    /// The element read whole, for a parameter of a class or array type.
    tree: Option<Box<crate::tree::Node>>,
    content: Content<'a>,
}

/// Where a parameter's name is: in the document (the scanner's, always qualified), or in the
/// cursor's start tag (boxed, so that moving a `Param` stays cheap on the scanner's path).
enum ParamName<'a> {
    Scanned(&'a [u8]),
    Parsed(Box<ParsedName<'a>>),
    /// Read as a value tree: the name is the tree's.
    Tree,
}

/// A parameter element the cursor read.
struct ParsedName<'a> {
    element: Element<'a>,
    /// `{namespace}local`, for the error of an unqualified parameter (empty otherwise).
    display_name: String,
}

impl<'a> Param<'a> {
    /// The element's local name.
    #[inline]
    pub fn name(&self) -> &[u8] {
        match &self.name {
            ParamName::Parsed(parsed) => parsed.element.local(),
            ParamName::Scanned(local) => local,
            ParamName::Tree => self.tree.as_ref().map_or(b"", |t| t.name().as_bytes()),
        }
    }

    /// Reads a parameter of a class or array type (its element a value tree; `items` names
    /// an array's items, see [`crate::tree::XmlItem`]) as XmlSerializer reads it: present, it
    /// is a value (`xsi:nil` is `None` for an array only, see
    /// [`crate::tree::XmlItem::read_optional`]); its members as XmlSerializer's generated
    /// readers read them.
    pub fn optional<T: crate::tree::XmlItem>(
        self,
        param: &'static str,
        items: &'static [&'static str],
    ) -> Result<Option<T>, RequestError> {
        let operation = self.operation.name;
        if !self.qualified {
            return self.text(param).map(|_| None);
        }
        let node = match self.tree {
            Some(tree) => *tree,
            // The scanner read it: an element holding text at most.
            None => crate::tree::Node::text_only(param, self.content.text.into_owned()),
        };
        T::read_optional(&node, items).map_err(|error| RequestError::InvalidMember {
            operation,
            param: param.to_owned(),
            error: Box::new(error),
        })
    }

    fn text(self, param: &'static str) -> Result<Cow<'a, str>, RequestError> {
        let operation = self.operation.name;
        if !self.qualified {
            return Err(RequestError::UnqualifiedParameter {
                operation,
                namespace: self.operation.service.namespace,
                found: match self.name {
                    ParamName::Parsed(parsed) => parsed.display_name,
                    ParamName::Scanned(_) | ParamName::Tree => {
                        unreachable!("scanned parameters and trees are qualified")
                    }
                },
            });
        }
        if self.nil {
            return Err(RequestError::NilParameter { operation, param });
        }
        // ASMX reads a parameter with XmlReader.ReadElementString, which refuses anything but
        // text in it: the request is answered 400, as malformed XML is.
        if self.content.nested || self.content.interrupted {
            return Err(RequestError::NotSimpleContent {
                operation,
                param,
                found: if self.content.nested {
                    "an element"
                } else {
                    "a comment or processing instruction"
                },
            });
        }
        Ok(self.content.text)
    }

    fn typed<T>(
        self,
        param: &'static str,
        ty: crate::SoapType,
        parse: fn(&str) -> Result<T, crate::ValueError>,
    ) -> Result<T, RequestError> {
        let operation = self.operation.name;
        let text = self.text(param)?;
        parse(&text).map_err(|error| RequestError::InvalidValue {
            operation,
            param,
            ty,
            value: text.into_owned(),
            error,
        })
    }

    /// Reads a value of any simple type but `string`, as `XmlConvert` reads it.
    pub fn scalar<T: Scalar>(self, param: &'static str) -> Result<T, RequestError> {
        self.typed(param, T::TYPE, T::read_xml)
    }

    /// Reads a nullable value (`nillable="true"`, .NET `int?`): `xsi:nil="true"` is `None`,
    /// its content skipped, as `XmlSerializer`'s `ReadNull` does; anything else is the value.
    pub fn nullable<T: Scalar>(self, param: &'static str) -> Result<Option<T>, RequestError> {
        if self.nil && self.qualified {
            return Ok(None);
        }
        self.scalar(param).map(Some)
    }

    /// Reads a `base64Binary` (an empty element is an empty array).
    pub fn bytes(self, param: &'static str) -> Result<Vec<u8>, RequestError> {
        self.scalar(param)
    }

    /// Reads an `xsd:string` exactly (an empty element is `""`).
    pub fn string(self, param: &'static str) -> Result<String, RequestError> {
        self.text(param).map(Cow::into_owned)
    }
}

/// The SOAP 1.1 envelope of ASMX's answer to an `Envelope` in a namespace of neither
/// version: a `soap:VersionMismatch` fault whose header names the envelopes understood (the
/// SOAP 1.2 `Upgrade` header), whatever the request's content type.
pub fn version_mismatch_envelope(found: &str, expected: &str) -> String {
    let mut reason = String::new();
    let message = format!(
        "Possible SOAP version mismatch: Envelope namespace {found} was unexpected. Expecting {expected}."
    );
    if xml::escape_text(&mut reason, &message).is_err() {
        // The namespace came from a well-formed document: it holds no character XML refuses.
        reason = "Possible SOAP version mismatch.".to_owned();
    }
    format!(
        concat!(
            r#"<?xml version="1.0" encoding="utf-8"?>"#,
            envelope_tag!(11),
            r#"<soap:Header><soap12:Upgrade xmlns:soap12="http://www.w3.org/2003/05/soap-envelope">"#,
            r#"<soap12:SupportedEnvelope qname="soap:Envelope" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" />"#,
            r#"<soap12:SupportedEnvelope qname="soap12:Envelope" xmlns:soap12="http://www.w3.org/2003/05/soap-envelope" />"#,
            r#"</soap12:Upgrade></soap:Header><soap:Body><soap:Fault><faultcode>soap:VersionMismatch</faultcode>"#,
            r#"<faultstring>{reason}</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>"#
        ),
        reason = reason
    )
}

/// Writes the body of a SOAP fault response, as an ASMX host writes it.
pub fn fault_envelope(binding: Binding, fault: &Fault) -> String {
    let soap12 = binding == Binding::Soap12;
    let mut out = String::with_capacity(512 + fault.reason.len());
    out.push_str(envelope_open(binding));
    // Reason and detail text is ours or a handler's; characters XML cannot carry are
    // replaced so a fault can always be sent.
    let push_text = |out: &mut String, text: &str| {
        if xml::escape_text(out, text).is_err() {
            let cleaned: String = text
                .chars()
                .map(|c| {
                    if (c < ' ' && !"\t\n\r".contains(c)) || c == '\u{FFFE}' || c == '\u{FFFF}' {
                        '\u{FFFD}'
                    } else {
                        c
                    }
                })
                .collect();
            let _ = xml::escape_text(out, &cleaned);
        }
    };
    let mut escaped_reason = String::new();
    push_text(&mut escaped_reason, &fault.reason);
    let code = fault.code.local_name(soap12);
    if soap12 {
        out.push_str("<soap:Fault><soap:Code><soap:Value>soap:");
        // Escaped: an `Other` code is text a service or a peer chose (fuzzing found `&` and
        // `<` in one written raw, a document no reader takes).
        push_text(&mut out, code);
        out.push_str("</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang=\"en\">");
        out.push_str(&escaped_reason);
        out.push_str("</soap:Text></soap:Reason>");
        match fault.detail.as_deref() {
            None => {}
            Some("") => out.push_str("<soap:Detail />"),
            Some(detail) => {
                out.push_str("<soap:Detail>");
                push_text(&mut out, detail);
                out.push_str("</soap:Detail>");
            }
        }
    } else {
        out.push_str("<soap:Fault><faultcode>soap:");
        push_text(&mut out, code);
        out.push_str("</faultcode><faultstring>");
        out.push_str(&escaped_reason);
        out.push_str("</faultstring>");
        match fault.detail.as_deref() {
            None => {}
            Some("") => out.push_str("<detail />"),
            Some(detail) => {
                out.push_str("<detail>");
                push_text(&mut out, detail);
                out.push_str("</detail>");
            }
        }
    }
    out.push_str("</soap:Fault>");
    out.push_str(ENVELOPE_CLOSE);
    out
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
fn parse_response(
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
pub fn read_response_tree(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &[u8],
) -> Result<ResponseBody<crate::tree::Node>, String> {
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
fn parse_response_with<'a, R>(
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
pub fn read_response_wrapper(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &[u8],
) -> Result<ResponseBody<crate::tree::Node>, String> {
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
pub fn read_response_body(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &[u8],
) -> Result<ResponseBody<crate::tree::Node>, String> {
    // A first pass finds whether the Body holds a fault (read as a fault, as any response's)
    // and checks the whole document; only a result is read again, as a tree.
    let mut cursor = XmlCursor::new(
        body,
        [envelope_ns(binding), operation.service.namespace, XSI_NS],
    );
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
    );
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
    let env_ns = envelope_ns(binding);
    let mut cursor = XmlCursor::new(body, [env_ns, operation.service.namespace, XSI_NS]);
    let root = expect_start(&mut cursor, "the envelope")?;
    if root.ns != Ns::Known(ENV) || root.local() != b"Envelope" || root.empty {
        return Err(format!(
            "the root element is {}, not a {binding} envelope",
            root.display_name(cursor.known())
        ));
    }
    let body_element = loop {
        let e = expect_start(&mut cursor, "the Body")?;
        if e.ns == Ns::Known(ENV) && e.local() == b"Header" {
            if !e.empty {
                cursor.skip().map_err(describe)?;
            }
            continue;
        }
        break e;
    };
    if body_element.ns != Ns::Known(ENV) || body_element.local() != b"Body" || body_element.empty {
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
    loop {
        match cursor.next().map_err(describe)? {
            Node::Eof => return Ok(result),
            Node::Start(e) if !e.empty => cursor.skip().map_err(describe)?,
            _ => {}
        }
    }
}

fn describe(error: XmlError) -> String {
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
    let mut cursor = XmlCursor::new(body, [operation.service.namespace, XSI_NS]);
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
pub fn read_tree_document(
    operation: &'static OperationInfo,
    root_name: &str,
    body: &[u8],
) -> Result<Option<crate::tree::Node>, String> {
    let mut cursor = XmlCursor::new(body, [operation.service.namespace, XSI_NS]);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nullable_parameter_reads_nil_as_none_and_writes_none_as_nil() {
        let body = |children: &str| {
            format!(
                "<soap:Envelope xmlns:soap=\"{SOAP11_NS}\" xmlns:xsi=\"{XSI_NS}\"><soap:Body>\
                 <Op xmlns=\"urn:s\">{children}</Op></soap:Body></soap:Envelope>"
            )
        };
        let read = |children: &str| -> Result<Vec<Option<i32>>, RequestError> {
            let text = body(children);
            let mut reader = RequestReader::new(Binding::Soap11, &OP, text.as_bytes())?;
            let mut values = Vec::new();
            while let Some(p) = reader.next_param()? {
                values.push(p.nullable::<i32>("n")?);
            }
            Ok(values)
        };
        assert_eq!(
            read("<n xsi:nil=\"true\" /><n xsi:nil=\" 1 \">7</n><n>5</n>"),
            Ok(vec![None, None, Some(5)])
        );
        assert!(matches!(
            read("<n xsi:nil=\"false\" />"),
            Err(RequestError::InvalidValue { .. })
        ));
        let mut w = SoapWriter::new(Binding::Soap11, "Op", 64);
        w.nullable("<n>", Some(&-1i32), "</n>", "<n xsi:nil=\"true\" />");
        w.nullable::<i32>("<n>", None, "</n>", "<n xsi:nil=\"true\" />");
        let written = w.finish();
        assert!(
            written.contains("<n>-1</n><n xsi:nil=\"true\" />"),
            "{written}"
        );
    }

    #[test]
    fn a_version_mismatch_names_both_namespaces_in_a_sentence() {
        let body = version_mismatch_envelope("urn:a&b", SOAP12_NS);
        assert!(body.contains(
            "<faultstring>Possible SOAP version mismatch: Envelope namespace urn:a&amp;b was \
             unexpected. Expecting http://www.w3.org/2003/05/soap-envelope.</faultstring>"
        ));
        assert!(body.starts_with(ENVELOPE11_OPEN.strip_suffix("<soap:Body>").unwrap()));
        assert!(body.contains("<soap12:Upgrade "));
    }

    use crate::operation::fixtures::OP;

    /// Everything a reader yields for one request: each parameter as the generated code sees
    /// it, or the error.
    type Read = Result<Vec<(Vec<u8>, bool, bool, bool, String, String)>, RequestError>;

    fn read_all(reader: Result<RequestReader<'_>, RequestError>) -> Read {
        let mut reader = reader?;
        let mut params = Vec::new();
        while let Some(p) = reader.next_param()? {
            params.push((
                p.name().to_vec(),
                p.qualified,
                p.nil,
                p.content.nested,
                p.content.text.into_owned(),
                match p.name {
                    ParamName::Parsed(parsed) => parsed.display_name,
                    ParamName::Scanned(_) | ParamName::Tree => String::new(),
                },
            ));
        }
        Ok(params)
    }

    /// Checks the scanner against the cursor on `doc`: when the scanner takes it, the cursor
    /// must read it without error to the same parameters. Returns whether the scanner took it.
    fn check(binding: Binding, doc: &[u8]) -> bool {
        match scan_request(binding, &OP, doc) {
            Ok((source, scanned)) => {
                let general = read_all(RequestReader::parse(binding, &OP, doc));
                assert_eq!(
                    read_all(RequestReader::new(binding, &OP, doc)),
                    general,
                    "reader differs from the cursor on {:?}",
                    String::from_utf8_lossy(doc)
                );
                let scanned: Vec<_> = scanned
                    .into_iter()
                    .map(|p| {
                        let name_at = p.name_at as usize;
                        let name = doc[name_at..name_at + p.name_len as usize].to_vec();
                        let text = xml::scanned_text(source, p.text).into_owned();
                        (name, true, false, false, text, String::new())
                    })
                    .collect();
                assert_eq!(
                    Ok(scanned),
                    general,
                    "scanner differs from the cursor on {:?}",
                    String::from_utf8_lossy(doc)
                );
                true
            }
            Err(xml::Unusual) => false,
        }
    }

    /// Our own encoder's request, a pretty-printed one as .NET and the captures send it,
    /// a prefixed one as gSOAP and Java clients send it, and SOAP 1.2.
    fn plain_requests() -> Vec<(Binding, String)> {
        let mut w = SoapWriter::new(Binding::Soap11, "Op", 256);
        w.raw(OP.request_open);
        w.raw("<n>");
        w.scalar(&-42);
        w.raw("</n>");
        w.string("s", "<s>", Some("A & B > 1 < 2 \"q\" 'a'\r\n é ☕"), "</s>")
            .unwrap();
        w.string("e", "<e>", Some(""), "</e>").unwrap();
        w.raw("<b>");
        w.scalar(&true);
        w.raw("</b>");
        w.raw(OP.request_close);
        let ours = w.finish();
        let pretty = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
            <soap:Envelope xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
            xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" \
            xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">\n  <soap:Body>\n    \
            <Op xmlns=\"urn:s\">\n      <n>42</n>\n      <s>Caf&#xE9; &#233; &amp;&lt;&gt;&quot;&apos;</s>\n      \
            <e /><f/>\n    </Op>\n  </soap:Body>\n</soap:Envelope>\n"
            .to_owned();
        let prefixed =
            "<SOAP-ENV:Envelope xmlns:SOAP-ENV='http://schemas.xmlsoap.org/soap/envelope/'>\
            <SOAP-ENV:Body><m:Op xmlns:m='urn:s'><m:n>7</m:n><m:s xmlns:m='urn:s'>x</m:s>\
            <n xmlns=\"urn:s\" >8</n ></m:Op></SOAP-ENV:Body></SOAP-ENV:Envelope>"
                .to_owned();
        let soap12 = "<?xml version='1.0'?><env:Envelope xmlns:env=\"http://www.w3.org/2003/05/soap-envelope\">\
            <env:Body><Op xmlns=\"urn:s\"><n>1</n><s>a\tb</s></Op></env:Body></env:Envelope>"
            .to_owned();
        // The two SOAP 1.2 Envelope tags the scanner takes as bytes: ours and the help page's.
        let ours12 = ours.replace(SOAP11_NS, SOAP12_NS);
        let help12 = pretty
            .replace("soap:", "soap12:")
            .replace("xmlns:soap=", "xmlns:soap12=")
            .replace(SOAP11_NS, SOAP12_NS);
        vec![
            (Binding::Soap11, ours),
            (Binding::Soap11, pretty),
            (Binding::Soap11, prefixed),
            (Binding::Soap12, soap12),
            (Binding::Soap12, ours12),
            (Binding::Soap12, help12),
        ]
    }

    #[test]
    fn plain_requests_take_the_scanner() {
        for (binding, doc) in plain_requests() {
            assert!(check(binding, doc.as_bytes()), "not scanned: {doc}");
        }
        let (_, ours) = &plain_requests()[0];
        let params = read_all(RequestReader::new(Binding::Soap11, &OP, ours.as_bytes())).unwrap();
        let texts: Vec<&str> = params.iter().map(|p| p.4.as_str()).collect();
        assert_eq!(
            texts,
            ["-42", "A & B > 1 < 2 \"q\" 'a'\r\n é ☕", "", "true"]
        );
    }

    #[test]
    fn unusual_requests_take_the_cursor() {
        let ours = &plain_requests()[0].1;
        let unusual = [
            // Header, comment, CDATA, PI, DOCTYPE, BOM, raw CR, attribute, nesting, an
            // unqualified parameter, a second body entry, trailing content.
            ours.replace("<soap:Body>", "<soap:Header/><soap:Body>"),
            ours.replace("<n>", "<!-- c --><n>"),
            ours.replace("<e></e>", "<e><![CDATA[x]]></e>"),
            ours.replace("<e></e>", "<e><?pi?></e>"),
            format!("<!DOCTYPE x>{ours}"),
            format!("\u{feff}{ours}"),
            ours.replace("&#xD;", "\r"),
            ours.replace("<e>", "<e xsi:nil=\"true\">"),
            ours.replace("<e></e>", "<e><x/></e>"),
            ours.replace("<e></e>", "<e xmlns=\"urn:other\"></e>"),
            ours.replace("</Op>", "</Op><Other/>"),
            format!("{ours}<!-- c -->"),
        ];
        for doc in unusual {
            assert!(!check(Binding::Soap11, doc.as_bytes()), "scanned: {doc}");
        }
    }

    /// Snippets that mutations insert: markup characters, references good and bad, controls,
    /// invalid UTF-8, and whole constructs the scanner leaves to the cursor.
    const SNIPPETS: &[&[u8]] = &[
        b"<",
        b">",
        b"&",
        b";",
        b"\"",
        b"'",
        b"/",
        b"=",
        b":",
        b" ",
        b"\t",
        b"\n",
        b"\r",
        b"\x01",
        b"\0",
        b"]]>",
        "é".as_bytes(),
        b"\xff",
        b"\xc3",
        b"x",
        b"1",
        b"-",
        b".",
        b"?",
        b"!",
        b"#",
        b"<!-- c -->",
        b"<![CDATA[<x>]]>",
        b"&amp;",
        b"&#65;",
        b"&#x0;",
        b"&#xD800;",
        b"&#xFFFE;",
        b"&#x10FFFF;",
        b"&#99999999999;",
        b"&e;",
        b" xmlns=\"urn:s\"",
        b" xmlns:q=\"urn:s\"",
        b" xmlns:xml=\"urn:s\"",
        b" xmlns:q=\"\"",
        b" a=\"1\"",
        b"<b/>",
        b"</a>",
        b"<?pi?>",
        b"q:",
        b"<!DOCTYPE x>",
        "\u{feff}".as_bytes(),
        "\u{FFFE}".as_bytes(),
    ];

    fn mutations(doc: &[u8]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for at in 0..=doc.len() {
            if at < doc.len() {
                let mut deleted = doc.to_vec();
                deleted.remove(at);
                out.push(deleted);
            }
            for snippet in SNIPPETS {
                let mut inserted = doc.to_vec();
                inserted.splice(at..at, snippet.iter().copied());
                out.push(inserted);
                if at < doc.len() && snippet.len() == 1 {
                    let mut replaced = doc.to_vec();
                    replaced[at] = snippet[0];
                    out.push(replaced);
                }
            }
        }
        out
    }

    #[test]
    fn scanner_agrees_with_the_cursor_on_every_single_mutation() {
        let mut scanned = 0;
        let mut total = 0;
        for (binding, doc) in plain_requests() {
            for mutated in mutations(doc.as_bytes()) {
                total += 1;
                scanned += usize::from(check(binding, &mutated));
            }
        }
        // The scanner takes the harmless mutations (text, whitespace, references), not only
        // the originals.
        eprintln!("{scanned} of {total} scanned");
        assert!(scanned > total / 20, "{scanned} of {total} scanned");
    }

    /// The parameters of `plain_requests()[0]`, in order.
    const IN_ORDER: [&str; 4] = ["n", "s", "e", "b"];

    /// Whenever [`InOrder`] reads `doc`, the cursor must read the same parameters, in that
    /// order, qualified, with the same texts. Returns whether `InOrder` read it.
    fn check_in_order(binding: Binding, doc: &[u8]) -> bool {
        let Some(in_order) = InOrder::scan(binding, &OP, doc, &IN_ORDER) else {
            return false;
        };
        let general = read_all(RequestReader::parse(binding, &OP, doc))
            .unwrap_or_else(|e| panic!("{e} on {:?}", String::from_utf8_lossy(doc)));
        let seen: Vec<(Vec<u8>, bool, bool, bool, String)> = general
            .into_iter()
            .map(|(name, qualified, nil, nested, text, _)| (name, qualified, nil, nested, text))
            .collect();
        let expected: Vec<(Vec<u8>, bool, bool, bool, String)> = IN_ORDER
            .iter()
            .zip(in_order.values())
            .map(|(name, value)| (name.as_bytes().to_vec(), true, false, false, value.string()))
            .collect();
        assert_eq!(seen, expected, "on {:?}", String::from_utf8_lossy(doc));
        true
    }

    #[test]
    fn in_order_reads_our_request_and_agrees_with_the_cursor_on_every_single_mutation() {
        let (binding, ours) = &plain_requests()[0];
        assert!(check_in_order(*binding, ours.as_bytes()));
        let [n, text, empty, b] = InOrder::scan(*binding, &OP, ours.as_bytes(), &IN_ORDER)
            .unwrap()
            .values();
        assert_eq!(n.scalar::<i32>(), Some(-42));
        assert_eq!(text.string(), "A & B > 1 < 2 \"q\" 'a'\r\n é ☕");
        assert_eq!(empty.string(), "");
        assert_eq!(b.scalar::<bool>(), Some(true));
        assert_eq!(text.scalar::<i32>(), None);
        // Another order, a missing or a repeated parameter: left to the general reader.
        for other in [
            ours.replace("<b>true</b>", "")
                .replace("<n>", "<b>true</b><n>"),
            ours.replace("<b>true</b>", ""),
            ours.replace("<b>true</b>", "<b>true</b><b>false</b>"),
        ] {
            assert!(InOrder::scan(*binding, &OP, other.as_bytes(), &IN_ORDER).is_none());
        }
        let mut scanned = 0;
        let mut total = 0;
        for mutated in mutations(ours.as_bytes()) {
            total += 1;
            scanned += usize::from(check_in_order(*binding, &mutated));
        }
        assert!(scanned > total / 20, "{scanned} of {total} scanned");
    }

    /// Result envelopes as our server and an ASMX host write them: with and without a
    /// declaration and schema namespaces, an empty result, no result element, SOAP 1.2.
    fn plain_responses() -> Vec<(Binding, String)> {
        let ours = |binding, text: Option<&str>| {
            let response = crate::message::string_response(binding, &OP, text).unwrap();
            String::from_utf8(response.into_body().to_vec()).unwrap()
        };
        let host = "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope \
            xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" \
            xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
            xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body><OpResponse \
            xmlns=\"urn:s\"><OpResult>a &amp; b &lt; c\n&#xD;d</OpResult></OpResponse>\
            </soap:Body></soap:Envelope>"
            .to_owned();
        vec![
            (
                Binding::Soap11,
                ours(Binding::Soap11, Some("x=1;y=A & B > 1 < 2\r\n é")),
            ),
            (Binding::Soap12, ours(Binding::Soap12, Some("x=1"))),
            (Binding::Soap11, ours(Binding::Soap11, Some(""))),
            (Binding::Soap11, ours(Binding::Soap11, None)),
            (Binding::Soap11, host),
        ]
    }

    /// Reads `doc` as a response both ways; whenever the scanner reads it, the cursor must
    /// read the same. Returns whether the scanner read it.
    fn check_response(binding: Binding, doc: &[u8]) -> bool {
        match scan_response(binding, &OP, doc) {
            Ok(result) => {
                assert_eq!(
                    parse_response(binding, &OP, doc),
                    Ok(ResponseBody::Result(result)),
                    "scanner differs from the cursor on {:?}",
                    String::from_utf8_lossy(doc)
                );
                true
            }
            Err(xml::Unusual) => false,
        }
    }

    #[test]
    fn plain_responses_take_the_scanner() {
        for (binding, doc) in plain_responses() {
            assert!(
                check_response(binding, doc.as_bytes()),
                "not scanned: {doc}"
            );
        }
        let (binding, host) = &plain_responses()[4];
        assert_eq!(
            read_response(*binding, &OP, host.as_bytes()),
            Ok(ResponseBody::Result(Some("a & b < c\n\rd".into())))
        );
    }

    #[test]
    fn response_scanner_agrees_with_the_cursor_on_every_single_mutation() {
        let mut scanned = 0;
        let mut total = 0;
        for (binding, doc) in plain_responses() {
            for mutated in mutations(doc.as_bytes()) {
                total += 1;
                scanned += usize::from(check_response(binding, &mutated));
            }
        }
        assert!(scanned > total / 20, "{scanned} of {total} scanned");
    }

    #[test]
    fn scanner_agrees_with_the_cursor_on_random_multiple_mutations() {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        let docs = plain_requests();
        for _ in 0..20_000 {
            let (binding, doc) = &docs[next(docs.len())];
            let mut doc = doc.as_bytes().to_vec();
            for _ in 0..1 + next(3) {
                let at = next(doc.len() + 1);
                match next(3) {
                    0 if at < doc.len() => {
                        doc.remove(at);
                    }
                    _ => {
                        let snippet = SNIPPETS[next(SNIPPETS.len())];
                        doc.splice(at..at, snippet.iter().copied());
                    }
                }
            }
            check(*binding, &doc);
        }
    }

    #[test]
    fn takes_the_known_envelope_tags_as_the_scanner_reads_them() {
        for (binding, known) in [Binding::Soap11, Binding::Soap12]
            .into_iter()
            .zip(&KNOWN_ENVELOPES)
        {
            for known in known {
                let doc = format!("{}<{}:Body>", known.tag, &known.qname[..known.local_at - 1]);
                crate::xml::assert_reads_as_start(&doc, Some(known), ("", ""));
                assert_eq!(known.ns, envelope_ns(binding), "{}", known.tag);
            }
        }
        // What we write is among them.
        assert!(ENVELOPE11_OPEN.contains(KNOWN_ENVELOPES[0][0].tag));
        assert!(ENVELOPE12_OPEN.contains(KNOWN_ENVELOPES[1][0].tag));
        // Each is among the requests the mutation tests take apart.
        for known in KNOWN_ENVELOPES.iter().flatten() {
            assert!(
                plain_requests()
                    .iter()
                    .any(|(_, doc)| doc.contains(known.tag)),
                "{}",
                known.tag
            );
        }
    }
}
