//! The request reader of servers: the scanner's fast path, the cursor's general one, and the
//! in-order path of generated decoders.

use std::borrow::Cow;

use super::scan::{scan_after_body_entry, scan_to_operation};
use super::{envelope_ns, ENV, SERVICE, XSI};
use crate::xml::{self, Content, Element, Node, Ns, XmlCursor, XSI_NS};
use crate::{Binding, OperationInfo, RequestError, Scalar};

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
    pub(super) trees: &'static [&'static str],
    /// The parameters of raw XML (`XmlElement`), whose content is read as raw XML.
    raws: &'static [&'static str],
    /// The parameters of a DataSet, whose elements are read whole as raw XML.
    data_sets: &'static [&'static str],
    /// What value trees may still take.
    budget: crate::tree::Budget,
    /// The operation element was `<Op/>` or its end tag has been read.
    finished: bool,
    /// A bare operation's first Body element, refused by [`RequestReader::check_bare_body`]
    /// when it and every other one are none of the parameters.
    first_element: Option<RequestError>,
    /// The header blocks of the operation's SOAP headers the request carries, read whole as
    /// value trees, the first of each name ([`RequestReader::header`]).
    headers: super::header::HeaderBlocks<'a>,
}

enum Source<'a> {
    /// The scanner read the whole document (`source`): its parameters, in order.
    Scanned {
        source: &'a str,
        params: std::vec::IntoIter<ScannedParam<'a>>,
    },
    /// The cursor, positioned inside the operation element (boxed: it is large, and the
    /// scanned path is the common one).
    Parsed(Box<XmlCursor<'a, 3>>),
}

/// A parameter the scanner read, a qualified child element without attributes: where its
/// local name and its text are in the document (offsets rather than slices keep the list
/// small), or, for a parameter of a class or array type, its value tree.
pub(super) struct ScannedParam<'a> {
    pub(super) name_at: u32,
    pub(super) name_len: u32,
    pub(super) text: xml::TextSpan,
    pub(super) tree: Option<Box<crate::tree::Node<'a>>>,
}

/// Reads a request in the plain shape of [`xml::Scanner`]: the envelope of `binding` with
/// only namespace declarations on its elements, no Header, a Body holding only the operation
/// element (in the service namespace, not empty), whose children are all service-namespace
/// elements with text and nothing else, but for the parameters named in `trees` (of a class
/// or array type), read whole as value trees. Whitespace may separate elements.
/// `Err(Unusual)` means only that the cursor must read the request.
pub(super) fn scan_request<'a>(
    binding: Binding,
    operation: &'static OperationInfo,
    body: &'a [u8],
    trees: &[&'static str],
) -> Result<(&'a str, Vec<ScannedParam<'a>>), xml::Unusual> {
    use xml::Unusual;
    if operation.raw_trees {
        // Raw XML is kept by the cursor's trees only.
        return Err(Unusual);
    }
    let service_ns = operation.service.namespace.as_bytes();
    let (mut scanner, [envelope, body_element, op]) = scan_to_operation(binding, operation, body)?;
    // Parameters nearly always inherit the operation element's namespace binding: comparing
    // where it is in the document spares comparing the namespace's text.
    let op_ns = op.ns;
    let mut params = Vec::with_capacity(32);
    // Shared by the request's trees, as the cursor's is.
    let mut budget = crate::tree::MAX_ELEMENTS;
    let mut attributes = xml::Attributes::default();
    loop {
        scanner.skip_space();
        if scanner.at_end_tag() {
            scanner.end(&op)?;
            break;
        }
        // A class's element may carry `xsi:nil` or `xsi:type`; a simple parameter's may not.
        let param = if trees.is_empty() {
            scanner.start()?
        } else {
            scanner.tree_start(&mut attributes)?
        };
        let qualified = match param.ns {
            Some(ns) => op_ns.is_some_and(|op_ns| std::ptr::eq(ns, op_ns)) || ns == service_ns,
            None => false,
        };
        if !qualified {
            return Err(Unusual);
        }
        if trees.iter().any(|t| t.as_bytes() == param.local) {
            let name_at = param.local_at;
            let name_len = param.local.len() as u32;
            let tree = scanner.tree(param, &mut attributes, service_ns, &mut budget)?;
            params.push(ScannedParam {
                name_at,
                name_len,
                text: xml::TextSpan::EMPTY,
                tree: Some(Box::new(tree)),
            });
            continue;
        }
        if attributes.len() > 0 {
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
            tree: None,
        });
    }
    scan_after_body_entry(&mut scanner, &body_element, &envelope)?;
    Ok((scanner.source(), params))
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
        Self::with_headers(binding, operation, body, trees, &[])
    }

    /// [`RequestReader::with_trees`] for an operation with SOAP headers: the header blocks
    /// named `headers` (elements of the service namespace, `[SoapHeader]` classes) are read as
    /// value trees, the first of each name, as ASMX keeps the first ([`RequestReader::header`]);
    /// one of them marked `mustUnderstand` is understood. Any other block marked so is refused
    /// with the MustUnderstand fault, as ASMX refuses one its operation does not declare.
    pub fn with_headers(
        binding: Binding,
        operation: &'static OperationInfo,
        body: &'a [u8],
        trees: &'static [&'static str],
        headers: &'static [&'static str],
    ) -> Result<RequestReader<'a>, RequestError> {
        // The scanner takes a wrapper element only; a bare operation's request has none.
        if operation.bare {
            let mut reader = Self::parse_with(binding, operation, body, headers)?;
            reader.trees = trees;
            return Ok(reader);
        }
        // The scanner takes no Header: a request with one is read by the cursor.
        if let Ok((source, params)) = scan_request(binding, operation, body, trees) {
            return Ok(RequestReader {
                source: Source::Scanned {
                    source,
                    params: params.into_iter(),
                },
                operation,
                trees,
                raws: &[],
                data_sets: &[],
                budget: crate::tree::Budget::default(),
                finished: false,
                first_element: None,
                headers: Default::default(),
            });
        }
        let mut reader = Self::parse_with(binding, operation, body, headers)?;
        reader.trees = trees;
        Ok(reader)
    }

    /// [`RequestReader::with_headers`] for an operation with parameters of raw XML
    /// (`XmlElement`), `raws`: what their elements hold is read as raw XML
    /// ([`Param::raw_xml`]), by the cursor.
    pub fn with_raw(
        binding: Binding,
        operation: &'static OperationInfo,
        body: &'a [u8],
        trees: &'static [&'static str],
        raws: &'static [&'static str],
        headers: &'static [&'static str],
    ) -> Result<RequestReader<'a>, RequestError> {
        let mut reader = Self::with_headers(binding, operation, body, trees, headers)?;
        reader.raws = raws;
        Ok(reader)
    }

    /// The same reader, the parameters named `data_sets` read as DataSets
    /// ([`Param::data_set`]): their elements whole, by the cursor (which [`with_raw`]
    /// chooses).
    ///
    /// [`with_raw`]: RequestReader::with_raw
    pub fn with_data_sets(mut self, data_sets: &'static [&'static str]) -> RequestReader<'a> {
        self.data_sets = data_sets;
        self
    }

    /// The general path: the cursor, from the start of the document.
    #[cfg(test)]
    pub(super) fn parse(
        binding: Binding,
        operation: &'static OperationInfo,
        body: &'a [u8],
    ) -> Result<RequestReader<'a>, RequestError> {
        Self::parse_with(binding, operation, body, &[])
    }

    /// [`RequestReader::parse`], the header blocks named `header_names` read as value trees.
    fn parse_with(
        binding: Binding,
        operation: &'static OperationInfo,
        body: &'a [u8],
        header_names: &'static [&'static str],
    ) -> Result<RequestReader<'a>, RequestError> {
        let env_ns = envelope_ns(binding);
        let mut cursor = XmlCursor::new(body, [env_ns, operation.service.namespace, XSI_NS])
            .keeping_raw(operation.raw_trees);
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
        let mut headers = super::header::HeaderBlocks::default();
        let mut budget = crate::tree::Budget::default();
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
                    headers = super::header::HeaderBlocks::read(
                        &mut cursor,
                        operation.name,
                        header_names,
                        &mut budget,
                    )?;
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
                source: Source::Parsed(Box::new(cursor)),
                operation,
                trees: &[],
                raws: &[],
                data_sets: &[],
                budget,
                finished: false,
                first_element: None,
                headers,
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
        if op_element.ns != Ns::Known(SERVICE)
            || op_element.local() != operation.wrapper().as_bytes()
        {
            return Err(RequestError::WrongOperation {
                expected: operation.wrapper(),
                namespace: operation.service.namespace,
                found: op_element.display_name(cursor.known()),
            });
        }
        let mut reader = RequestReader {
            source: Source::Parsed(Box::new(cursor)),
            operation,
            trees: &[],
            raws: &[],
            data_sets: &[],
            budget,
            finished: false,
            first_element: None,
            headers,
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
            // A header block marked mustUnderstand that no header of the operation is: refused
            // once the parameters are read, as ASMX refuses it after reading them.
            return match self.headers.not_understood.take() {
                Some(refusal) => Err(refusal),
                None => Ok(None),
            };
        }
        if let Source::Scanned { source, params } = &mut self.source {
            let source: &'a str = source;
            return Ok(params.next().map(|param| {
                let name_at = param.name_at as usize;
                Param {
                    operation: self.operation,
                    name: match param.tree {
                        Some(_) => ParamName::Tree,
                        None => ParamName::Scanned(
                            &source.as_bytes()[name_at..name_at + param.name_len as usize],
                        ),
                    },
                    qualified: true,
                    nil: false,
                    tree: param.tree,
                    raw: None,
                    holder: None,
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
                Node::Start(element) => {
                    let param = self.param(element)?;
                    if self.operation.bare && self.first_element.is_none() {
                        self.first_element = Some(param.not_a_parameter());
                    }
                    return Ok(Some(param));
                }
                // Stray text between parameters carries nothing; ASMX ignores it too.
                Node::Text => {}
                Node::End => {
                    self.finish()?;
                    return self.next_param();
                }
                Node::Eof => unreachable!("the cursor reports an early end as malformed"),
            }
        }
    }

    /// For a bare operation whose Body held elements but none of its parameters (its
    /// elements read, none kept): the refusal naming the first. The host would read every
    /// parameter absent, as it reads the wrapped form or another operation's element sent
    /// with this operation's action; we refuse. An empty Body passes (every parameter null).
    pub fn check_bare_body(&mut self) -> Result<(), RequestError> {
        match self.first_element.take() {
            Some(refusal) => Err(refusal),
            None => Ok(()),
        }
    }

    /// The operation's SOAP header `name` (a `[SoapHeader]` class) as the request carries it:
    /// `None` without one, as ASMX leaves the header member null. A block with `xsi:nil` is
    /// refused: the host reads it as an object with empty members, which is not what was sent.
    pub fn header<T: super::SoapHeaderItem>(
        &self,
        name: &'static str,
    ) -> Result<Option<T>, RequestError> {
        self.headers
            .get(name)
            .map_err(|error| RequestError::InvalidHeader {
                operation: self.operation.name,
                header: name,
                error: Box::new(error),
            })
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
            let tree = tree.map_err(|error| tree_error(error, operation.name, name))?;
            return Ok(Param {
                operation,
                name: ParamName::Tree,
                qualified: true,
                // `xsi:nil` is the type's to read (`XmlItem::read_optional`).
                nil: false,
                tree: Some(Box::new(tree)),
                raw: None,
                holder: None,
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
        if qualified
            && self
                .data_sets
                .iter()
                .any(|r| r.as_bytes() == element.local())
        {
            let operation = self.operation;
            let name = String::from_utf8_lossy(element.local()).into_owned();
            let mut budget = std::mem::take(&mut self.budget);
            let holder = self.cursor().raw_element(element, &mut budget);
            self.budget = budget;
            let holder = holder.map_err(|error| tree_error(error, operation.name, name))?;
            return Ok(Param {
                operation,
                name: ParamName::Holder(holder.local.clone()),
                qualified,
                nil,
                tree: None,
                raw: None,
                holder: Some(Box::new(holder)),
                content: Content {
                    text: Cow::Borrowed(""),
                    nested: false,
                    interrupted: false,
                },
            });
        }
        if qualified && self.raws.iter().any(|r| r.as_bytes() == element.local()) {
            let operation = self.operation;
            let name = String::from_utf8_lossy(element.local()).into_owned();
            let mut budget = std::mem::take(&mut self.budget);
            let raw = self.cursor().raw_content(&element, &mut budget);
            self.budget = budget;
            let raw = raw.map_err(|error| tree_error(error, operation.name, name))?;
            return Ok(Param {
                operation,
                name: ParamName::Parsed(Box::new(ParsedName {
                    element,
                    display_name: String::new(),
                })),
                qualified,
                nil,
                tree: None,
                raw: Some(Box::new(raw)),
                holder: None,
                content: Content {
                    text: Cow::Borrowed(""),
                    nested: false,
                    interrupted: false,
                },
            });
        }
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
            raw: None,
            holder: None,
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

/// Why the value tree of the element `name` (a parameter or a header block) could not be read.
pub(super) fn tree_error(
    error: xml::TreeError,
    operation: &'static str,
    name: String,
) -> RequestError {
    match error {
        xml::TreeError::Xml(error) => RequestError::from(error),
        xml::TreeError::TooLarge => RequestError::InvalidMember {
            operation,
            param: name,
            error: Box::new(crate::tree::MemberError::TooLarge),
        },
    }
}

/// One child element of the operation element. Generated decoders match on [`Param::name`]
/// and read known parameters with the typed methods, which refuse what ASMX would misread.
pub struct Param<'a> {
    pub(super) operation: &'static OperationInfo,
    pub(super) name: ParamName<'a>,
    pub(super) qualified: bool,
    pub(super) nil: bool,
    /// The element read whole, for a parameter of a class or array type.
    pub(super) tree: Option<Box<crate::tree::Node<'a>>>,
    /// What the element held, read by the cursor for a parameter of raw XML.
    pub(super) raw: Option<Box<xml::RawContent>>,
    /// The element read whole, for a parameter of a DataSet.
    pub(super) holder: Option<Box<crate::raw_xml::XmlElement>>,
    pub(super) content: Content<'a>,
}

/// Where a parameter's name is: in the document (the scanner's, always qualified), or in the
/// cursor's start tag (boxed, so that moving a `Param` stays cheap on the scanner's path).
pub(super) enum ParamName<'a> {
    Scanned(&'a [u8]),
    Parsed(Box<ParsedName<'a>>),
    /// Read as a value tree: the name is the tree's.
    Tree,
    /// Read whole as raw XML (a DataSet): its local name.
    Holder(String),
}

/// A parameter element the cursor read.
pub(super) struct ParsedName<'a> {
    pub(super) element: Element<'a>,
    /// `{namespace}local`, for the error of an unqualified parameter (empty otherwise).
    pub(super) display_name: String,
}

impl<'a> Param<'a> {
    /// The refusal of a bare operation whose Body starts with this element, none of its
    /// parameters (see [`RequestError::NotAParameter`]).
    pub fn not_a_parameter(&self) -> RequestError {
        let found = match &self.name {
            ParamName::Parsed(parsed) if !self.qualified => parsed.display_name.clone(),
            _ => format!(
                "{{{}}}{}",
                self.operation.service.namespace,
                String::from_utf8_lossy(self.name())
            ),
        };
        RequestError::NotAParameter {
            operation: self.operation.name,
            found,
        }
    }

    /// The element's local name.
    #[inline]
    pub fn name(&self) -> &[u8] {
        match &self.name {
            ParamName::Parsed(parsed) => parsed.element.local(),
            ParamName::Scanned(local) => local,
            ParamName::Tree => self.tree.as_ref().map_or(b"", |t| t.name().as_bytes()),
            ParamName::Holder(local) => local.as_bytes(),
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
        self.tree_value(param, items, T::read_optional)
    }

    /// Reads a parameter of a class with a root (`[XmlRoot]`), whose element is nillable:
    /// `xsi:nil` is `None` (its `xsi:type` checked first), anything else the value, as
    /// XmlSerializer reads a nillable member.
    pub fn nillable<T: crate::tree::XmlItem>(
        self,
        param: &'static str,
        items: &'static [&'static str],
    ) -> Result<Option<T>, RequestError> {
        self.tree_value(
            param,
            items,
            <Option<T> as crate::tree::XmlItem>::read_element,
        )
    }

    /// Reads the parameter's element as a value tree with `read`.
    fn tree_value<T>(
        self,
        param: &'static str,
        items: &'static [&'static str],
        read: fn(
            &crate::tree::Node<'a>,
            &'static [&'static str],
        ) -> Result<Option<T>, crate::tree::MemberError>,
    ) -> Result<Option<T>, RequestError> {
        let operation = self.operation.name;
        if !self.qualified {
            return self.text(param).map(|_| None);
        }
        let node = match self.tree {
            Some(tree) => *tree,
            // The scanner read it: an element holding text at most.
            None => crate::tree::Node::text_only(param, self.content.text),
        };
        read(&node, items).map_err(|error| RequestError::InvalidMember {
            operation,
            param: param.to_owned(),
            error: Box::new(error),
        })
    }

    /// Reads a parameter of raw XML (`XmlElement`) as XmlSerializer reads one: its first
    /// child element, whole; `None` for an element holding none (or white space, comments and
    /// processing instructions only) or marked `xsi:nil`. Text before any element is
    /// refused, as the host refuses it.
    pub fn raw_xml(self, param: &'static str) -> Result<Option<crate::RawXml>, RequestError> {
        let operation = self.operation.name;
        if !self.qualified {
            return self.text(param).map(|_| None);
        }
        if self.nil {
            return Ok(None);
        }
        let (element, text_first) = match self.raw {
            Some(raw) => (raw.element, raw.text_first),
            // The scanner read it: an element holding text at most.
            None => (None, !xml::is_blank(&self.content.text)),
        };
        if text_first {
            return Err(RequestError::NotAnElement { operation, param });
        }
        Ok(element.map(crate::RawXml::new))
    }

    /// Reads a parameter of a raw XML node (`XmlNode`) as XmlSerializer reads one: its first
    /// node, an element whole, a text (white space around kept) or a CDATA section; `None`
    /// for an element holding none (or white space, comments and processing instructions
    /// only) or marked `xsi:nil`.
    pub fn raw_node(self, param: &'static str) -> Result<Option<crate::RawNode>, RequestError> {
        if !self.qualified {
            return self.text(param).map(|_| None);
        }
        if self.nil {
            return Ok(None);
        }
        Ok(match self.raw {
            Some(raw) => raw.into_node(),
            // The scanner read it: an element holding text at most.
            None => {
                let text = self.content.text;
                (!xml::is_blank(&text)).then(|| crate::RawNode::Text(text.into_owned()))
            }
        })
    }

    /// Reads a parameter of a DataSet as .NET reads one: its schema, then its diffgram
    /// ([`crate::DataSet`]); an element holding neither, or marked `xsi:nil`, is an empty
    /// set (.NET reads both so), an absent one `None`. What .NET would read losing data, or
    /// rmm does not model, is refused with a client fault.
    ///
    /// A lone `DataTable` is read the same way (the main table of the set its schema
    /// declares); an empty element is a table without a name.
    pub fn data_set<T: crate::dataset::DataHolder>(
        self,
        param: &'static str,
    ) -> Result<Option<T>, RequestError> {
        if !self.qualified {
            return self.text(param).map(|_| None);
        }
        let Some(holder) = self.holder else {
            // The scanner read it: an element holding text at most, which .NET reads as an
            // empty set.
            return Ok(Some(T::empty()));
        };
        if self.nil && T::NIL_IS_EMPTY {
            return Ok(Some(T::empty()));
        }
        T::read_holder(&holder)
            .map(Some)
            .map_err(|error| RequestError::InvalidDataSet {
                operation: self.operation.name,
                param,
                error,
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
                    ParamName::Scanned(_) | ParamName::Tree | ParamName::Holder(_) => {
                        unreachable!("scanned parameters, trees and DataSets are qualified")
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
