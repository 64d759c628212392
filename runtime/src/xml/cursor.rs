//! The pull cursor over quick-xml: every request and response the scanner does not take.

use std::borrow::Cow;

use quick_xml::events::{BytesStart, Event};
use quick_xml::name::{QName, ResolveResult};
use quick_xml::NsReader;

use super::check::{
    append, check_attribute_spacing, check_attribute_value, check_chars, check_ncname, check_qname,
    check_xml_declaration, normalize_newlines, reference_char, to_str,
};
use super::{malformed, TreeError, XmlError, XmlResult};

/// The namespace an element or attribute name resolved to, classified against the few
/// namespaces a reader asks about (so nothing is copied in the common case).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ns {
    /// The `index`th of the cursor's known namespaces.
    Known(usize),
    /// No namespace (unprefixed name, no default namespace in scope).
    None,
    /// Another namespace, kept for messages.
    Other(String),
}

/// The namespace a value tree's members are in: one of a cursor's known namespaces, or
/// another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TreeNs<'s> {
    /// The `index`th known namespace.
    Known(usize),
    /// Another namespace.
    Named(&'s str),
}

/// A start tag, classified.
pub(crate) struct Element<'a> {
    pub ns: Ns,
    pub start: BytesStart<'a>,
    /// `<x/>`: there is no content and no end tag to read.
    pub empty: bool,
}

impl Element<'_> {
    pub fn local(&self) -> &[u8] {
        self.start.local_name().into_inner()
    }

    /// `{namespace}local`, for messages.
    pub fn display_name(&self, known: &[&str]) -> String {
        let ns = match &self.ns {
            Ns::Known(i) => known[*i],
            Ns::None => "",
            Ns::Other(ns) => ns,
        };
        format!("{{{ns}}}{}", String::from_utf8_lossy(self.local()))
    }
}

/// The next structural item.
pub(crate) enum Node<'a> {
    Start(Element<'a>),
    End,
    /// Text with at least one character that is not XML whitespace (its value is not
    /// needed where the cursor reports it: text there is a structural error or ignored).
    Text,
    Eof,
}

/// The text content of an element and what else was in it.
pub(crate) struct Content<'a> {
    pub text: Cow<'a, str>,
    /// The element held child elements (skipped; their text is not in `text`).
    pub nested: bool,
    /// The element held a comment or processing instruction (left out of `text`).
    pub interrupted: bool,
}

/// How deeply the cursor lets elements nest. A SOAP request needs about five levels
/// (Envelope, Body, operation, parameter); 128 leaves room for any header block a client
/// sends. The limit also keeps quick-xml's `NsReader` in its safe range: it counts levels in
/// a `u16`, which overflows beyond 65 535 levels (a panic in debug builds, namespaces
/// resolved against the wrong scope in release builds), and its end-name check and our
/// namespace bookkeeping hold memory per open element.
pub(crate) const MAX_DEPTH: usize = 128;

/// How many attributes (namespace declarations included) one start tag may carry. quick-xml's
/// checked attribute iterator finds duplicates by comparing each name with every name before
/// it, and resolving a prefixed name walks every namespace binding in scope, so a start tag
/// with n attributes costs O(n²): 80 000 attributes took 37 s. The count is taken with the
/// unchecked iterator, which stops after `MAX_ATTRIBUTES + 1`, before anything quadratic.
/// SOAP envelopes carry a handful (namespace declarations, `xsi:nil`, `mustUnderstand`).
pub(crate) const MAX_ATTRIBUTES: usize = 64;
// Each open element's declarations are counted in a `u8`.
const _: () = assert!(MAX_ATTRIBUTES <= u8::MAX as usize);

/// How many namespace declarations may be in scope at once. quick-xml resolves a prefix by
/// walking every binding in scope (shadowed ones included), so without this bound a deep
/// document declaring namespaces on every level makes each name cost up to
/// `MAX_DEPTH × MAX_ATTRIBUTES` comparisons.
pub(crate) const MAX_NAMESPACES_IN_SCOPE: usize = 256;

/// A pull cursor over a borrowed document: comments, processing instructions and
/// whitespace-only text between elements are skipped; text, CDATA and references are merged
/// into one value; a DOCTYPE stops it.
///
/// It refuses what a conforming XML 1.0 parser with namespaces (such as .NET's
/// `XmlTextReader`, which an ASMX host reads requests with) refuses and quick-xml lets
/// through: names that are not XML names (or QNames with more than one colon), `<` in an
/// attribute value, references to undeclared entities or to characters XML forbids (in text,
/// between elements and in attribute values), `]]>` in text, an XML declaration anywhere but
/// at the start or out of XML 1.0's grammar (or of another version than 1.0, as .NET
/// refuses), a processing instruction named `xml` in another case, and characters XML
/// forbids (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF) anywhere, and a second
/// root element. It also refuses documents beyond [`MAX_DEPTH`], [`MAX_ATTRIBUTES`] or
/// [`MAX_NAMESPACES_IN_SCOPE`], so that no request costs more than linear time.
///
/// Still let through, which .NET refuses: attributes without whitespace between them
/// (`<a b="1"c="2"/>`), the default namespace bound to the XML namespace, an element named `xmlns:a`. None of them
/// reaches an operation with a value it would not get otherwise.
pub(crate) struct XmlCursor<'a, const N: usize> {
    /// The document, whose names and text value trees borrow.
    input: &'a [u8],
    pub(super) reader: NsReader<&'a [u8]>,
    known: [&'static str; N],
    /// How many namespaces each open element declares, innermost last (one entry per
    /// level, so its length is the depth).
    declared: Vec<u8>,
    /// Their sum.
    in_scope: u32,
    /// Whether an event has been read (an XML declaration must be the first).
    started: bool,
    /// Whether the root element has ended (a document has one).
    ended: bool,
    /// Value trees keep each element as it was written, besides what they read of it
    /// ([`Node::raw_element`](crate::tree::Node::raw_element)).
    keep_raw: bool,
}

/// Whether a byte is XML white space (space, tab, CR, LF).
pub(crate) fn is_xml_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

impl<'a, const N: usize> XmlCursor<'a, N> {
    pub fn new(input: &'a [u8], known: [&'static str; N]) -> Self {
        let mut reader = NsReader::from_reader(input);
        let config = reader.config_mut();
        config.check_end_names = true;
        config.check_comments = true;
        XmlCursor {
            input,
            reader,
            known,
            declared: Vec::new(),
            in_scope: 0,
            started: false,
            ended: false,
            keep_raw: false,
        }
    }

    /// The cursor, its value trees keeping raw XML when `keep` (an operation whose values
    /// hold raw XML: `OperationInfo::raw_trees`).
    pub fn keeping_raw(mut self, keep: bool) -> Self {
        self.keep_raw = keep;
        self
    }

    /// `part` as the slice of the input it is, when quick-xml handed out the input's own bytes
    /// (it does for a reader over a slice): a name that lives as long as the input.
    fn in_input(&self, part: &[u8]) -> Option<&'a [u8]> {
        let start = (part.as_ptr() as usize).checked_sub(self.input.as_ptr() as usize)?;
        self.input
            .get(start..start + part.len())
            .filter(|slice| slice.as_ptr() == part.as_ptr())
    }

    pub fn known(&self) -> &[&'static str; N] {
        &self.known
    }

    /// How many elements are open.
    pub(super) fn depth(&self) -> usize {
        self.declared.len()
    }

    fn position(&self) -> u64 {
        self.reader.buffer_position()
    }

    pub(super) fn malformed(&self, what: impl std::fmt::Display) -> XmlError {
        malformed(self.position(), what)
    }

    fn classify(&self, resolved: ResolveResult<'_>) -> XmlResult<Ns> {
        Ok(match resolved {
            ResolveResult::Bound(ns) => {
                let ns = ns.into_inner();
                match self.known.iter().position(|k| k.as_bytes() == ns) {
                    Some(i) => Ns::Known(i),
                    None => Ns::Other(
                        std::str::from_utf8(ns)
                            .map_err(|_| XmlError::NotUtf8)?
                            .to_owned(),
                    ),
                }
            }
            ResolveResult::Unbound => Ns::None,
            ResolveResult::Unknown(prefix) => {
                return Err(self.malformed(format_args!(
                    "undeclared prefix '{}'",
                    String::from_utf8_lossy(&prefix)
                )))
            }
        })
    }

    /// Checks a start tag (`depth` being its own level) and returns how many namespaces it
    /// declares. The limits are checked before anything whose cost grows faster than the tag.
    fn check_start(&self, start: &BytesStart<'_>, depth: usize) -> XmlResult<usize> {
        if depth > MAX_DEPTH {
            return Err(self.malformed(format_args!(
                "elements nested deeper than {MAX_DEPTH} levels"
            )));
        }
        check_qname(start.name().into_inner()).map_err(|e| self.malformed(e))?;
        let raw = start.attributes_raw();
        if raw.iter().all(|&b| is_xml_space(b)) {
            return Ok(0);
        }
        check_attribute_spacing(raw).map_err(|e| self.malformed(e))?;
        let mut unchecked = start.attributes();
        if unchecked
            .with_checks(false)
            .take(MAX_ATTRIBUTES + 1)
            .count()
            > MAX_ATTRIBUTES
        {
            return Err(self.malformed(format_args!(
                "more than {MAX_ATTRIBUTES} attributes on one element"
            )));
        }
        let mut declarations = 0;
        // Expanded names of prefixed attributes: one name under two prefixes bound to the same
        // namespace is one attribute twice, which XML refuses (.NET answers it as malformed).
        let mut expanded: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        for attr in start.attributes() {
            let attr = attr.map_err(|e| self.malformed(e))?;
            let key = attr.key.into_inner();
            check_qname(key).map_err(|e| self.malformed(e))?;
            let declaration = key
                .strip_prefix(b"xmlns")
                .filter(|prefix| prefix.first().is_none_or(|&b| b == b':'));
            check_chars(&attr.value).map_err(|e| self.malformed(e))?;
            check_attribute_value(&attr.value).map_err(|e| self.malformed(e))?;
            if let Some(prefix) = declaration {
                declarations += 1;
                // Namespaces in XML 1.0 cannot undeclare a prefix (`xmlns:p=""`).
                if !prefix.is_empty() && attr.value.is_empty() {
                    return Err(self.malformed(format_args!(
                        "the prefix '{}' declared with an empty namespace",
                        String::from_utf8_lossy(&prefix[1..])
                    )));
                }
            }
            let (resolved, local) = self.reader.resolve_attribute(attr.key);
            match resolved {
                ResolveResult::Unknown(prefix) => {
                    return Err(self.malformed(format_args!(
                        "undeclared prefix '{}'",
                        String::from_utf8_lossy(&prefix)
                    )));
                }
                ResolveResult::Bound(ns) if declaration.is_none() => {
                    let name = (ns.into_inner().to_vec(), local.into_inner().to_vec());
                    if expanded.contains(&name) {
                        return Err(self.malformed(format_args!(
                            "the attribute {{{}}}{} twice",
                            String::from_utf8_lossy(&name.0),
                            String::from_utf8_lossy(&name.1)
                        )));
                    }
                    expanded.push(name);
                }
                _ => {}
            }
        }
        if self.in_scope as usize + declarations > MAX_NAMESPACES_IN_SCOPE {
            return Err(self.malformed(format_args!(
                "more than {MAX_NAMESPACES_IN_SCOPE} namespace declarations in scope"
            )));
        }
        Ok(declarations)
    }

    /// Reads the value of the attribute `{known[ns]}local` of `element`, unescaped.
    pub fn attribute(
        &self,
        element: &Element<'a>,
        ns: usize,
        local: &str,
    ) -> XmlResult<Option<String>> {
        if element
            .start
            .attributes_raw()
            .iter()
            .all(|&b| is_xml_space(b))
        {
            return Ok(None);
        }
        // The cursor checked every attribute (and their number) when it read the start tag.
        for attr in element.start.attributes() {
            let attr = attr.map_err(|e| self.malformed(e))?;
            let (resolved, name) = self.reader.resolve_attribute(attr.key);
            let matches = matches!(resolved, ResolveResult::Bound(n) if n.into_inner() == self.known[ns].as_bytes());
            if matches && name.into_inner() == local.as_bytes() {
                let value = attr.unescape_value().map_err(|e| self.malformed(e))?;
                return Ok(Some(value.into_owned()));
            }
        }
        Ok(None)
    }

    /// Calls `f` with each attribute of `element` that is in a namespace, in document order:
    /// its namespace, local name and value, unescaped (namespace declarations are not
    /// attributes here).
    pub fn each_namespaced_attribute(
        &self,
        element: &Element<'a>,
        mut f: impl FnMut(&[u8], &[u8], Cow<'_, str>),
    ) -> XmlResult<()> {
        if element
            .start
            .attributes_raw()
            .iter()
            .all(|&b| is_xml_space(b))
        {
            return Ok(());
        }
        for attr in element.start.attributes() {
            let attr = attr.map_err(|e| self.malformed(e))?;
            let key = attr.key.into_inner();
            if key == b"xmlns" || key.starts_with(b"xmlns:") {
                continue;
            }
            let (resolved, name) = self.reader.resolve_attribute(attr.key);
            if let ResolveResult::Bound(ns) = resolved {
                let value = attr.unescape_value().map_err(|e| self.malformed(e))?;
                f(ns.into_inner(), name.into_inner(), value);
            }
        }
        Ok(())
    }

    /// The next event, checked: every start tag, end tag, text, comment, processing
    /// instruction and declaration passes here (references are checked where they are read).
    pub(super) fn raw_event(&mut self) -> XmlResult<(Ns, Event<'a>)> {
        let event = self
            .reader
            .read_event()
            .map_err(|e| malformed(self.reader.error_position(), e))?;
        let first = !self.started;
        self.started = true;
        let ns = match &event {
            Event::Start(start) | Event::Empty(start) => {
                let is_start = matches!(event, Event::Start(_));
                if self.ended {
                    return Err(self.malformed("a second root element"));
                }
                if !is_start && self.depth() == 0 {
                    self.ended = true;
                }
                let declarations = self.check_start(start, self.depth() + 1)?;
                let (resolved, _) = self.reader.resolve_element(start.name());
                let ns = self.classify(resolved)?;
                if is_start {
                    // At most MAX_ATTRIBUTES and MAX_NAMESPACES_IN_SCOPE, so they fit.
                    self.declared.push(declarations as u8);
                    self.in_scope += declarations as u32;
                }
                ns
            }
            Event::End(_) => {
                // quick-xml refuses an end tag that does not close the open element.
                let declarations = self
                    .declared
                    .pop()
                    .ok_or_else(|| self.malformed("end tag without a start tag"))?;
                self.in_scope -= u32::from(declarations);
                self.ended = self.declared.is_empty();
                Ns::None
            }
            Event::Text(text) => {
                check_chars(text).map_err(|e| self.malformed(e))?;
                if memchr::memmem::find(text, b"]]>").is_some() {
                    return Err(self.malformed("']]>' in text"));
                }
                Ns::None
            }
            Event::CData(text) => {
                check_chars(text).map_err(|e| self.malformed(e))?;
                Ns::None
            }
            Event::Comment(text) => {
                check_chars(text).map_err(|e| self.malformed(e))?;
                Ns::None
            }
            Event::PI(pi) => {
                let target = pi.target();
                check_ncname(target).map_err(|()| {
                    self.malformed(format_args!(
                        "'{}' is not a valid processing instruction name",
                        String::from_utf8_lossy(target)
                    ))
                })?;
                if target.eq_ignore_ascii_case(b"xml") {
                    return Err(self.malformed(format_args!(
                        "the reserved processing instruction name '{}'",
                        String::from_utf8_lossy(target)
                    )));
                }
                check_chars(pi.content()).map_err(|e| self.malformed(e))?;
                Ns::None
            }
            Event::Decl(decl) => {
                if !first {
                    return Err(self
                        .malformed("an XML declaration that is not at the start of the document"));
                }
                check_chars(decl).map_err(|e| self.malformed(e))?;
                check_xml_declaration(&decl[..]).map_err(|e| self.malformed(e))?;
                Ns::None
            }
            Event::GeneralRef(_) | Event::DocType(_) | Event::Eof => Ns::None,
        };
        Ok((ns, event))
    }

    /// The character a reference (`&name;`, its name given) in text stands for.
    pub(super) fn reference(&self, name: &[u8]) -> XmlResult<char> {
        reference_char(name).map_err(|e| self.malformed(e))
    }

    /// The next element boundary or significant text.
    pub fn next(&mut self) -> XmlResult<Node<'a>> {
        loop {
            let (ns, event) = self.raw_event()?;
            match event {
                Event::Start(start) => {
                    return Ok(Node::Start(Element {
                        ns,
                        start,
                        empty: false,
                    }));
                }
                Event::Empty(start) => {
                    return Ok(Node::Start(Element {
                        ns,
                        start,
                        empty: true,
                    }));
                }
                Event::End(_) => return Ok(Node::End),
                Event::Text(text) => {
                    let raw = text.into_inner();
                    if raw.iter().all(|&b| is_xml_space(b)) {
                        continue;
                    }
                    if self.depth() == 0 {
                        return Err(self.malformed("text outside the root element"));
                    }
                    to_str(raw)?;
                    return Ok(Node::Text);
                }
                Event::CData(_) => {
                    if self.depth() == 0 {
                        return Err(self.malformed("text outside the root element"));
                    }
                    return Ok(Node::Text);
                }
                Event::GeneralRef(reference) => {
                    if self.depth() == 0 {
                        return Err(self.malformed("text outside the root element"));
                    }
                    self.reference(&reference)?;
                    return Ok(Node::Text);
                }
                Event::Comment(_) | Event::PI(_) | Event::Decl(_) => {}
                Event::DocType(_) => return Err(XmlError::Doctype),
                Event::Eof => {
                    if self.depth() != 0 {
                        return Err(self.malformed("unexpected end of document"));
                    }
                    return Ok(Node::Eof);
                }
            }
        }
    }

    /// Reads the content of the element just started (not `<x/>`) up to its end tag.
    pub fn content(&mut self) -> XmlResult<Content<'a>> {
        let mut text: Cow<'a, str> = Cow::Borrowed("");
        let mut nested = false;
        let mut interrupted = false;
        loop {
            let (_, event) = self.raw_event()?;
            match event {
                Event::Text(piece) => {
                    append(&mut text, normalize_newlines(to_str(piece.into_inner())?))
                }
                Event::CData(piece) => {
                    append(&mut text, normalize_newlines(to_str(piece.into_inner())?))
                }
                Event::GeneralRef(reference) => {
                    let resolved = self.reference(&reference)?;
                    text.to_mut().push(resolved);
                }
                Event::Start(_) => {
                    nested = true;
                    self.skip_to_depth(self.depth() - 1)?;
                }
                Event::Empty(_) => nested = true,
                Event::End(_) => break,
                Event::Comment(_) | Event::PI(_) => interrupted = true,
                Event::Decl(_) => {}
                Event::DocType(_) => return Err(XmlError::Doctype),
                Event::Eof => return Err(self.malformed("unexpected end of document")),
            }
        }
        Ok(Content {
            text,
            nested,
            interrupted,
        })
    }

    /// Reads the element just started (`element`) and everything in it into a value tree,
    /// classifying names against the `service`th known namespace and reading `xsi:nil` in the
    /// `xsi`th. Depth is bounded as everywhere by the cursor; the element count by `budget`.
    pub fn tree(
        &mut self,
        element: Element<'a>,
        service: usize,
        xsi: usize,
        budget: &mut crate::tree::Budget,
    ) -> Result<crate::tree::Node<'a>, TreeError> {
        self.tree_in(element, TreeNs::Known(service), xsi, budget)
    }

    /// [`XmlCursor::tree`], names classified against `service`: one of the known namespaces,
    /// or another (a SOAP header class's own namespace).
    pub fn tree_in(
        &mut self,
        element: Element<'a>,
        service: TreeNs<'_>,
        xsi: usize,
        budget: &mut crate::tree::Budget,
    ) -> Result<crate::tree::Node<'a>, TreeError> {
        use crate::tree::{Node, NodeNs};
        let service_ns: &str = match service {
            TreeNs::Known(i) => self.known[i],
            TreeNs::Named(ns) => ns,
        };
        if budget.elements == 0 {
            return Err(TreeError::TooLarge);
        }
        budget.elements -= 1;
        let nil = crate::tree::Nil::read(self.attribute(&element, xsi, "nil")?.as_deref());
        // `xsi:type`, a QName resolved where it stands: its prefix (or the default namespace)
        // in scope on this element.
        let xsi_type = match self.attribute(&element, xsi, "type")? {
            None => None,
            Some(value) => {
                let (resolved, local) = self.reader.resolve_element(QName(value.as_bytes()));
                let local: Box<str> = String::from_utf8_lossy(local.into_inner()).into();
                Some(match resolved {
                    ResolveResult::Bound(ns) if ns.into_inner() == service_ns.as_bytes() => {
                        crate::tree::XsiType::Named(NodeNs::Service, local)
                    }
                    ResolveResult::Bound(ns) => crate::tree::XsiType::Named(
                        NodeNs::Other(String::from_utf8_lossy(ns.into_inner()).into()),
                        local,
                    ),
                    ResolveResult::Unbound => crate::tree::XsiType::Named(NodeNs::None, local),
                    ResolveResult::Unknown(prefix) => {
                        crate::tree::XsiType::UnboundPrefix(String::from_utf8_lossy(&prefix).into())
                    }
                })
            }
        };
        let in_service = match (&element.ns, service) {
            (Ns::Known(i), TreeNs::Known(target)) => *i == target,
            (Ns::Known(i), TreeNs::Named(ns)) => self.known[*i] == ns,
            (Ns::Other(other), TreeNs::Named(ns)) => other == ns,
            (Ns::Other(_) | Ns::None, TreeNs::Known(_)) | (Ns::None, TreeNs::Named(_)) => false,
        };
        // Attributes in no namespace: what `[XmlAttribute]` members are (a prefixed one is
        // another's, and XmlSerializer skips it).
        let mut attributes = Vec::new();
        if !element
            .start
            .attributes_raw()
            .iter()
            .all(|&b| is_xml_space(b))
        {
            for attr in element.start.attributes() {
                let attr = attr.map_err(|e| self.malformed(e))?;
                if attr.key.as_namespace_binding().is_some() {
                    continue;
                }
                let (resolved, name) = self.reader.resolve_attribute(attr.key);
                // One of the XML namespace (`xml:lang`) is kept as written, prefix and all;
                // one of the tree's namespace (a qualified attribute of its class) named
                // `{namespace}local`.
                let xml = matches!(resolved, ResolveResult::Bound(ns) if ns.into_inner() == crate::raw_xml::XML_NS.as_bytes());
                let qualified = matches!(resolved, ResolveResult::Bound(ns) if ns.into_inner() == service_ns.as_bytes());
                if matches!(resolved, ResolveResult::Unbound) || xml || qualified {
                    // Attribute-value normalisation (XML 1.0 §3.3.3), as .NET's reader does:
                    // a raw tab, line feed or carriage return (a CR LF pair as one) is a space;
                    // a character reference to one stays what it names.
                    let raw = String::from_utf8_lossy(&attr.value)
                        .replace("\r\n", " ")
                        .replace(['\t', '\n', '\r'], " ");
                    let value = quick_xml::escape::unescape(&raw)
                        .map_err(|e| self.malformed(e))?
                        .into_owned();
                    let local = String::from_utf8_lossy(name.into_inner());
                    let name: Box<str> = if xml {
                        format!("xml:{local}").into()
                    } else if qualified {
                        format!("{{{service_ns}}}{local}").into()
                    } else {
                        local.into()
                    };
                    attributes.push((name, value));
                }
            }
        }
        let local = match self.in_input(element.local()) {
            Some(local) => to_str(Cow::Borrowed(local))?,
            None => Cow::Owned(String::from_utf8_lossy(element.local()).into_owned()),
        };
        let mut raw = if self.keep_raw {
            Some(self.raw_start(&element)?)
        } else {
            None
        };
        let mut node = Node {
            local,
            text: Cow::Borrowed(""),
            children: Vec::new(),
            rare: None,
            nil,
            text_runs: 0,
            last_run: 0..0,
            in_service,
            unqualified: matches!(element.ns, Ns::None),
            interrupted: false,
        };
        if element.empty {
            node.rare = crate::tree::Rare {
                xsi_type,
                attributes,
                raw,
            }
            .boxed();
            return Ok(node);
        }
        let mut text: Cow<'a, str> = Cow::Borrowed("");
        // Runs of text between child elements, comments and processing instructions: an
        // `[XmlText]` member is read from one run (XmlSerializer keeps only the last). A run
        // of white space only is no text to it (the host's reader reports it as white space,
        // which XmlSerializer skips): only the others are counted.
        let mut in_run = false;
        let mut run_start = 0;
        let mut run_significant = false;
        loop {
            let (ns, event) = self.raw_event()?;
            let is_text = matches!(
                event,
                Event::Text(_) | Event::CData(_) | Event::GeneralRef(_)
            );
            if is_text && !in_run {
                in_run = true;
                run_start = text.len();
                run_significant = false;
            } else if !is_text && in_run {
                in_run = false;
                if run_significant {
                    node.text_runs = node.text_runs.saturating_add(1);
                    // Texts are within a message, whose offsets fit in u32.
                    node.last_run = run_start as u32..text.len() as u32;
                }
            }
            match &event {
                Event::Text(piece) => run_significant |= piece.iter().any(|&b| !is_xml_space(b)),
                Event::CData(_) | Event::GeneralRef(_) => run_significant = true,
                _ => {}
            }
            if let Some(raw) = &mut raw {
                self.raw_piece(&mut raw.children, &event)?;
            }
            match event {
                Event::Text(piece) => {
                    append(&mut text, normalize_newlines(to_str(piece.into_inner())?))
                }
                Event::CData(piece) => {
                    append(&mut text, normalize_newlines(to_str(piece.into_inner())?))
                }
                Event::GeneralRef(reference) => {
                    let resolved = self.reference(&reference)?;
                    text.to_mut().push(resolved);
                }
                Event::Start(start) => {
                    let child = Element {
                        ns,
                        start,
                        empty: false,
                    };
                    node.children
                        .push(self.tree_in(child, service, xsi, budget)?);
                }
                Event::Empty(start) => {
                    let child = Element {
                        ns,
                        start,
                        empty: true,
                    };
                    node.children
                        .push(self.tree_in(child, service, xsi, budget)?);
                }
                Event::End(_) => break,
                Event::Comment(_) | Event::PI(_) => node.interrupted = true,
                Event::Decl(_) => {}
                Event::DocType(_) => return Err(XmlError::Doctype.into()),
                Event::Eof => return Err(self.malformed("unexpected end of document").into()),
            }
        }
        node.text = text;
        node.rare = crate::tree::Rare {
            xsi_type,
            attributes,
            raw,
        }
        .boxed();
        Ok(node)
    }

    /// Skips the rest of the element just started, whatever it holds.
    pub fn skip(&mut self) -> XmlResult<()> {
        self.skip_to_depth(self.depth() - 1)
    }

    pub(super) fn skip_to_depth(&mut self, target: usize) -> XmlResult<()> {
        while self.depth() > target {
            match self.next()? {
                Node::Eof => return Err(self.malformed("unexpected end of document")),
                Node::Start(_) | Node::End | Node::Text => {}
            }
        }
        Ok(())
    }
}
