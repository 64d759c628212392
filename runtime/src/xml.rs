//! XML text escaping (writer side) and a pull cursor over quick-xml (reader side).
//!
//! The cursor is the one place the runtime touches quick-xml. It refuses any DOCTYPE before
//! reading anything in it, so no entity is ever declared, expanded or fetched; only the five
//! predefined entities and character references are resolved.

use std::borrow::Cow;

use quick_xml::events::{BytesStart, Event};
use quick_xml::name::{QName, ResolveResult};
use quick_xml::NsReader;

/// Namespace of `xsi:nil`.
pub const XSI_NS: &str = "http://www.w3.org/2001/XMLSchema-instance";
/// Namespace of the `xsd` prefix ASMX declares on every envelope.
pub const XSD_NS: &str = "http://www.w3.org/2001/XMLSchema";

/// What each byte needs when written as element text: 0 nothing, 1 an escape, 2 refusal, 3 a
/// look at the character it starts (0xEF leads U+F000 to U+FFFF, where U+FFFE and U+FFFF
/// are refused).
const TEXT_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = 2;
        b += 1;
    }
    table[b'\t' as usize] = 0;
    table[b'\n' as usize] = 0;
    // A raw CR would come back as LF from any conforming reader (XML 1.0 §2.11), so it is
    // written as a character reference to survive the round trip.
    table[b'\r' as usize] = 1;
    table[b'&' as usize] = 1;
    table[b'<' as usize] = 1;
    table[b'>' as usize] = 1;
    table[0xEF] = 3;
    table
};

/// Appends `text` as XML element content: `&`, `<`, `>` escaped as an ASMX host escapes
/// them (quotes stay as they are), CR as `&#xD;`.
///
/// Returns the code point of the first character XML 1.0 cannot carry (C0 controls other
/// than tab, LF and CR, U+FFFE and U+FFFF); `out` may then hold part of the text.
pub fn escape_text(out: &mut String, text: &str) -> Result<(), u32> {
    escape_text_from(out, text, first_to_escape(text.as_bytes()))
}

/// [`escape_text`], `first` being [`first_to_escape`] of `text`.
pub(crate) fn escape_text_from(out: &mut String, text: &str, first: usize) -> Result<(), u32> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut at = first;
    while let Some(&b) = bytes.get(at) {
        match TEXT_CLASS[b as usize] {
            2 => return Err(u32::from(b)),
            3 => {
                // U+FFFE and U+FFFF are EF BF BE and EF BF BF; the rest of U+F000 to U+FFFF
                // is written as it is.
                if let [0xBF, last @ (0xBE | 0xBF)] = bytes[at + 1..at + 3] {
                    return Err(0xFFFE + u32::from(last - 0xBE));
                }
                at += 1;
                at += first_to_escape(&bytes[at..]);
                continue;
            }
            _ => {}
        }
        out.push_str(&text[start..at]);
        out.push_str(match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            _ => "&#xD;",
        });
        start = at + 1;
        at = start + first_to_escape(&bytes[start..]);
    }
    out.push_str(&text[start..]);
    Ok(())
}

/// The index of the first byte of `bytes` that [`escape_text`] must escape or refuse, or
/// its length.
///
/// Eight bytes at a time, with the word tests of "Bit Twiddling Hacks" (`hasless`,
/// `haszero`), which are non-zero exactly when some byte of the word is below `0x20` or is
/// `&`, `<`, `>` or `0xEF` (the lowest such byte always sets its high bit: no borrow reaches
/// it). Tab and LF, below `0x20` but written as they are, and `0xEF` before other characters
/// than U+FFFE and U+FFFF only make a word be looked at byte by byte.
/// A tail shorter than a word is tested as the last eight bytes, which overlap bytes already
/// found clean.
#[inline(always)]
pub(crate) fn first_to_escape(bytes: &[u8]) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let flagged = |at: usize| {
        let w = u64::from_ne_bytes(bytes[at..at + 8].try_into().expect("eight bytes"));
        let has_zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS;
        ((w.wrapping_sub(ONES * 0x20) & !w & HIGHS)
            | has_zero(w ^ (ONES * u64::from(b'&')))
            | has_zero(w ^ (ONES * u64::from(b'<')))
            | has_zero(w ^ (ONES * u64::from(b'>'))))
            != 0
            // 0xEF only in a word with a byte above 0x7F: ASCII words skip the test.
            || (w & HIGHS != 0 && has_zero(w ^ (ONES * 0xEF)) != 0)
    };
    let exact = |from: usize, to: usize| {
        bytes[from..to]
            .iter()
            .position(|&b| TEXT_CLASS[b as usize] != 0)
            .map(|i| from + i)
    };
    let len = bytes.len();
    let mut at = 0;
    while len - at >= 8 {
        if flagged(at) {
            if let Some(found) = exact(at, at + 8) {
                return found;
            }
        }
        at += 8;
    }
    if at == len || (len >= 8 && !flagged(len - 8)) {
        return len;
    }
    exact(at, len).unwrap_or(len)
}

/// Why the cursor stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum XmlError {
    /// Not well-formed, with the byte offset and what was wrong.
    Malformed(String),
    /// A `<!DOCTYPE`.
    Doctype,
    /// Text or names that are not UTF-8.
    NotUtf8,
}

type XmlResult<T> = Result<T, XmlError>;

fn malformed(position: u64, what: impl std::fmt::Display) -> XmlError {
    XmlError::Malformed(format!("{what} at byte {position}"))
}

/// Why a value tree could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TreeError {
    /// The document is not well-formed (or holds a DOCTYPE, or is not UTF-8).
    Xml(XmlError),
    /// More elements than [`crate::tree::MAX_ELEMENTS`].
    TooLarge,
}

impl From<XmlError> for TreeError {
    fn from(error: XmlError) -> Self {
        TreeError::Xml(error)
    }
}

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
/// (`<a b="1"c="2"/>`), two attributes with the same expanded name under different prefixes,
/// the default namespace bound to the XML namespace, an element named `xmlns:a`. None of them
/// reaches an operation with a value it would not get otherwise.
pub(crate) struct XmlCursor<'a, const N: usize> {
    reader: NsReader<&'a [u8]>,
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
            reader,
            known,
            declared: Vec::new(),
            in_scope: 0,
            started: false,
            ended: false,
        }
    }

    pub fn known(&self) -> &[&'static str; N] {
        &self.known
    }

    /// How many elements are open.
    fn depth(&self) -> usize {
        self.declared.len()
    }

    fn position(&self) -> u64 {
        self.reader.buffer_position()
    }

    fn malformed(&self, what: impl std::fmt::Display) -> XmlError {
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
            let (resolved, _) = self.reader.resolve_attribute(attr.key);
            if let ResolveResult::Unknown(prefix) = resolved {
                return Err(self.malformed(format_args!(
                    "undeclared prefix '{}'",
                    String::from_utf8_lossy(&prefix)
                )));
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

    /// The next event, checked: every start tag, end tag, text, comment, processing
    /// instruction and declaration passes here (references are checked where they are read).
    fn raw_event(&mut self) -> XmlResult<(Ns, Event<'a>)> {
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
    fn reference(&self, name: &[u8]) -> XmlResult<char> {
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
    ) -> Result<crate::tree::Node, TreeError> {
        use crate::tree::{Node, NodeNs};
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
                    ResolveResult::Bound(ns)
                        if ns.into_inner() == self.known[service].as_bytes() =>
                    {
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
        let ns = match &element.ns {
            Ns::Known(i) if *i == service => NodeNs::Service,
            Ns::Known(i) => NodeNs::Other(self.known[*i].into()),
            Ns::None => NodeNs::None,
            Ns::Other(ns) => NodeNs::Other(ns.as_str().into()),
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
                if matches!(resolved, ResolveResult::Unbound) {
                    // Attribute-value normalisation (XML 1.0 §3.3.3), as .NET's reader does:
                    // a raw tab, line feed or carriage return (a CR LF pair as one) is a space;
                    // a character reference to one stays what it names.
                    let raw = String::from_utf8_lossy(&attr.value)
                        .replace("\r\n", " ")
                        .replace(['\t', '\n', '\r'], " ");
                    let value = quick_xml::escape::unescape(&raw)
                        .map_err(|e| self.malformed(e))?
                        .into_owned();
                    attributes.push((
                        Box::<str>::from(String::from_utf8_lossy(name.into_inner())),
                        value,
                    ));
                }
            }
        }
        let mut node = Node {
            ns,
            local: String::from_utf8_lossy(element.local()).into(),
            nil,
            xsi_type,
            attributes,
            text_runs: 0,
            last_run: 0..0,
            text: String::new(),
            children: Vec::new(),
            interrupted: false,
        };
        if element.empty {
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
                    node.last_run = run_start..text.len();
                }
            }
            match &event {
                Event::Text(piece) => run_significant |= piece.iter().any(|&b| !is_xml_space(b)),
                Event::CData(_) | Event::GeneralRef(_) => run_significant = true,
                _ => {}
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
                    node.children.push(self.tree(child, service, xsi, budget)?);
                }
                Event::Empty(start) => {
                    let child = Element {
                        ns,
                        start,
                        empty: true,
                    };
                    node.children.push(self.tree(child, service, xsi, budget)?);
                }
                Event::End(_) => break,
                Event::Comment(_) | Event::PI(_) => node.interrupted = true,
                Event::Decl(_) => {}
                Event::DocType(_) => return Err(XmlError::Doctype.into()),
                Event::Eof => return Err(self.malformed("unexpected end of document").into()),
            }
        }
        node.text = text.into_owned();
        Ok(node)
    }

    /// Skips the rest of the element just started, whatever it holds.
    pub fn skip(&mut self) -> XmlResult<()> {
        self.skip_to_depth(self.depth() - 1)
    }

    fn skip_to_depth(&mut self, target: usize) -> XmlResult<()> {
        while self.depth() > target {
            match self.next()? {
                Node::Eof => return Err(self.malformed("unexpected end of document")),
                Node::Start(_) | Node::End | Node::Text => {}
            }
        }
        Ok(())
    }
}

/// What each byte means to [`check_chars`]: 0 nothing, 1 a character XML forbids (a C0
/// control other than tab, LF and CR), 2 the lead byte of U+F000 to U+FFFF (U+FFFE and
/// U+FFFF are forbidden).
const CHAR_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = 1;
        b += 1;
    }
    table[b'\t' as usize] = 0;
    table[b'\n' as usize] = 0;
    table[b'\r' as usize] = 0;
    table[0xEF] = 2;
    table
};

/// Checks an XML declaration, `content` being what lies between `<?` and `?>`, against XML
/// 1.0's grammar (`xml`, `version`, then optionally `encoding` and `standalone`, in that
/// order, with whitespace before each), as .NET's reader does: version `1.0` only (it refuses
/// `1.1`, which XML 1.0 would read), an encoding of attribute-value characters (not the
/// stricter EncName of XML 1.0, which .NET does not check), `standalone` `yes` or `no`.
/// quick-xml reads what it finds there without these checks. (Whether the encoding is one we
/// decode is for the caller.)
fn check_xml_declaration(content: &[u8]) -> Result<(), String> {
    let bad = |what: &str| {
        Err(format!(
            "the XML declaration <?{}?>: {what}",
            String::from_utf8_lossy(content)
        ))
    };
    let Some(mut rest) = content.strip_prefix(b"xml") else {
        return bad("it does not start with xml");
    };
    let mut pseudo_attributes = [&b"version"[..], b"encoding", b"standalone"].into_iter();
    let mut first = true;
    loop {
        let trimmed = rest.trim_ascii_start();
        let spaced = trimmed.len() < rest.len();
        rest = trimmed;
        if rest.is_empty() {
            return if first {
                bad("it has no version")
            } else {
                Ok(())
            };
        }
        if !spaced {
            return bad("whitespace is missing before a name");
        }
        let name_len = rest
            .iter()
            .position(|&b| b == b'=' || is_xml_space(b))
            .unwrap_or(rest.len());
        let name = &rest[..name_len];
        // Names must come in grammar order, the version first; any may be left out but it.
        let known = if first {
            pseudo_attributes.next().filter(|&n| n == name)
        } else {
            pseudo_attributes.by_ref().find(|&n| n == name)
        };
        let Some(name) = known else {
            return bad("its names are not version, encoding, standalone in that order");
        };
        first = false;
        rest = rest[name_len..].trim_ascii_start();
        let Some(after_eq) = rest.strip_prefix(b"=") else {
            return bad("a name has no '='");
        };
        rest = after_eq.trim_ascii_start();
        let (quote, value_start) = match rest.first() {
            Some(&q @ (b'"' | b'\'')) => (q, 1),
            _ => return bad("a value is not quoted"),
        };
        let Some(len) = rest[value_start..].iter().position(|&b| b == quote) else {
            return bad("a value is not closed");
        };
        let value = &rest[value_start..value_start + len];
        let good = match name {
            b"version" => value == b"1.0",
            // .NET takes any attribute-value characters here, and only looks the name up
            // when it reads bytes itself: ASP.NET reads a body with a charset through a
            // TextReader, whose encoding no declaration changes (XmlTextReaderImpl's
            // CheckEncoding), so `encoding="8"` is read then. Outside the Basic Multilingual
            // Plane a character is two UTF-16 units, which are not attribute-value characters.
            b"encoding" => !value.iter().any(|&b| {
                matches!(b, b'\t' | b'\n' | b'\r' | b'<' | b'>' | b'&' | b'\'' | b'"') || b >= 0xF0
            }),
            _ => value == b"yes" || value == b"no",
        };
        if !good {
            return bad(match name {
                b"version" => "only version 1.0 is read",
                b"encoding" => "the encoding has characters an attribute value cannot",
                _ => "standalone is neither yes nor no",
            });
        }
        rest = &rest[value_start + len + 1..];
    }
}

/// Refuses the characters XML 1.0 §2.2 forbids in a document: C0 controls other than tab,
/// LF and CR, and U+FFFE and U+FFFF (surrogates cannot occur in UTF-8; bytes that are not
/// UTF-8 are reported where the text is decoded).
fn check_chars(bytes: &[u8]) -> Result<(), String> {
    // Nearly always there is nothing to find: 32 bytes at a time without a branch per byte,
    // which the compiler turns into vector compares, before the exact search.
    let suspect = |chunk: &[u8]| {
        chunk.iter().fold(false, |found, &b| {
            found | ((b < 0x20) & (b != b'\t') & (b != b'\n') & (b != b'\r')) | (b == 0xEF)
        })
    };
    if !bytes.chunks(32).any(suspect) {
        return Ok(());
    }
    let mut at = 0;
    while let Some(i) = bytes[at..]
        .iter()
        .position(|&b| CHAR_CLASS[b as usize] != 0)
    {
        let i = at + i;
        if bytes[i] != 0xEF {
            return Err(format!("the character U+{:04X}", bytes[i]));
        }
        if bytes.get(i + 1) == Some(&0xBF) {
            if let Some(&last @ (0xBE | 0xBF)) = bytes.get(i + 2) {
                return Err(format!("the character U+FF{:02X}", last + 0x40));
            }
        }
        at = i + 1;
    }
    Ok(())
}

/// Refuses `<` and any reference but the predefined entities and character references to
/// characters XML allows in an attribute value (raw, as written).
fn check_attribute_value(value: &[u8]) -> Result<(), String> {
    let mut at = 0;
    while let Some(i) = memchr::memchr2(b'<', b'&', &value[at..]) {
        let i = at + i;
        if value[i] == b'<' {
            return Err("'<' in an attribute value".to_owned());
        }
        let end = memchr::memchr(b';', &value[i + 1..])
            .ok_or_else(|| "'&' that does not start a reference".to_owned())?;
        reference_char(&value[i + 1..i + 1 + end])?;
        at = i + 1 + end + 1;
    }
    Ok(())
}

/// The character the reference `&name;` stands for: one of the five predefined entities or a
/// character reference (`&#65;`, `&#x41;`) to a character XML allows. No other entity can
/// be declared (a DOCTYPE is refused), so any other name is undefined.
fn reference_char(name: &[u8]) -> Result<char, String> {
    let (digits, radix) = match name {
        b"amp" => return Ok('&'),
        b"lt" => return Ok('<'),
        b"gt" => return Ok('>'),
        b"quot" => return Ok('"'),
        b"apos" => return Ok('\''),
        [b'#', b'x', hex @ ..] => (hex, 16),
        [b'#', dec @ ..] => (dec, 10),
        _ => {
            return Err(if check_ncname(name).is_ok() {
                format!("undefined entity '&{};'", String::from_utf8_lossy(name))
            } else {
                format!("malformed reference '&{};'", String::from_utf8_lossy(name))
            })
        }
    };
    let bad = || {
        format!(
            "malformed character reference '&{};'",
            String::from_utf8_lossy(name)
        )
    };
    if digits.is_empty() {
        return Err(bad());
    }
    let mut code: u32 = 0;
    for &d in digits {
        let digit = char::from(d).to_digit(radix).ok_or_else(bad)?;
        // Past the last code point it stays refused, whatever follows.
        code = code.saturating_mul(radix).saturating_add(digit);
    }
    match char::from_u32(code).filter(|&c| is_xml_char(c)) {
        Some(c) => Ok(c),
        None => Err(format!("character reference to U+{code:04X}")),
    }
}

/// Checks that each attribute value's closing quote is followed by white space or the tag's
/// end: XML requires white space between attributes (`a="1"b="2"` is malformed, and the host
/// answers it 400), which quick-xml does not check.
fn check_attribute_spacing(raw: &[u8]) -> Result<(), &'static str> {
    let mut quote = None;
    let mut just_closed = false;
    for &b in raw {
        match quote {
            Some(q) => {
                if b == q {
                    quote = None;
                    just_closed = true;
                }
            }
            None => {
                if just_closed && !is_xml_space(b) {
                    return Err("attributes not separated by white space");
                }
                just_closed = false;
                if b == b'"' || b == b'\'' {
                    quote = Some(b);
                }
            }
        }
    }
    Ok(())
}

/// Checks an element or attribute name: an XML name with at most one colon, not at either
/// end (a QName of Namespaces in XML 1.0, which .NET's reader enforces).
fn check_qname(name: &[u8]) -> Result<(), String> {
    let result = match memchr::memchr(b':', name) {
        None => check_ncname(name),
        Some(colon) => check_ncname(&name[..colon]).and_then(|()| check_ncname(&name[colon + 1..])),
    };
    result.map_err(|()| format!("'{}' is not a valid name", String::from_utf8_lossy(name)))
}

/// Bytes of ASCII name characters: 1 may start a name (`[A-Za-z_]`), 2 may follow
/// (`[0-9.-]`), 0 neither (a colon included); non-ASCII bytes are 3, decoded and checked.
const NCNAME_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphabetic() || c == b'_' {
            table[b] = 1;
        } else if c.is_ascii_digit() || c == b'.' || c == b'-' {
            table[b] = 2;
        } else if c >= 0x80 {
            table[b] = 3;
        }
        b += 1;
    }
    table
};

/// Checks a name without colons (XML 1.0 fifth edition `Name` productions, minus `:`).
fn check_ncname(name: &[u8]) -> Result<(), ()> {
    let first = *name.first().ok_or(())?;
    if NCNAME_CLASS[first as usize] == 1
        && name[1..]
            .iter()
            .all(|&b| matches!(NCNAME_CLASS[b as usize], 1 | 2))
    {
        return Ok(());
    }
    let name = std::str::from_utf8(name).map_err(|_| ())?;
    // U+FFFD is what a byte that is not UTF-8 reads as (`message::SoapText`); the host answers
    // a name holding such a byte as malformed XML (400), so a name holding U+FFFD is refused,
    // though XML 1.0's fifth edition would take it.
    if name.contains('\u{FFFD}') {
        return Err(());
    }
    let mut chars = name.chars();
    if !chars.next().is_some_and(is_name_start_char) {
        return Err(());
    }
    if chars.all(|c| is_name_start_char(c) || is_name_char_only(c)) {
        Ok(())
    } else {
        Err(())
    }
}

/// `NameStartChar` of XML 1.0 (fifth edition), without `:`.
fn is_name_start_char(c: char) -> bool {
    matches!(c,
        'A'..='Z' | '_' | 'a'..='z' | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}'
        | '\u{F8}'..='\u{2FF}' | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}'
        | '\u{200C}'..='\u{200D}' | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}'
        | '\u{3001}'..='\u{D7FF}' | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}'
        | '\u{10000}'..='\u{EFFFF}')
}

/// The characters `NameChar` adds to `NameStartChar`.
fn is_name_char_only(c: char) -> bool {
    matches!(c, '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

fn to_str(raw: Cow<'_, [u8]>) -> XmlResult<Cow<'_, str>> {
    match raw {
        Cow::Borrowed(bytes) => std::str::from_utf8(bytes)
            .map(Cow::Borrowed)
            .map_err(|_| XmlError::NotUtf8),
        Cow::Owned(bytes) => String::from_utf8(bytes)
            .map(Cow::Owned)
            .map_err(|_| XmlError::NotUtf8),
    }
}

/// XML 1.0 §2.11: a literal CRLF or lone CR reaches the application as LF. Applied to each
/// literal piece, so a CR written as `&#xD;` survives.
fn normalize_newlines(piece: Cow<'_, str>) -> Cow<'_, str> {
    if piece.contains('\r') {
        Cow::Owned(piece.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        piece
    }
}

fn append<'a>(text: &mut Cow<'a, str>, piece: Cow<'a, str>) {
    if text.is_empty() {
        *text = piece;
    } else {
        text.to_mut().push_str(&piece);
    }
}

fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// The one shape of document the [`Scanner`] reads; anything else is [`Unusual`].
///
/// A [`Scanner`] is a fast path in front of [`XmlCursor`], not a second XML parser: it reads
/// only the plain shape that our own encoders and common SOAP clients send, and stops with
/// [`Unusual`] at the first byte outside it, so the caller starts over with the cursor on the
/// whole document. What it accepts is a strict subset of what the cursor accepts, read to the
/// same names, namespaces and text (`runtime/src/soap.rs` tests compare the two on every
/// mutation of real envelopes):
///
/// - an optional `<?xml` declaration at byte 0 (ignored by the cursor too), then elements and
///   whitespace (space, tab, CR, LF) between them, and nothing after the root but whitespace;
/// - element and attribute names `ncname` or `prefix:ncname` with ASCII `[A-Za-z_]
///   [A-Za-z0-9_.-]*` parts, one whitespace or more before each attribute, `name="value"` or
///   `name='value'` with no `<` or `&` in the value;
/// - namespace declarations (`xmlns`, `xmlns:p`) as the only attributes, none duplicated,
///   none empty, none binding or naming the reserved `xml`/`xmlns` prefixes or namespaces;
///   element prefixes resolved through them as quick-xml resolves them;
/// - a UTF-8 document; text of characters other than C0 controls (tab and LF allowed, so no
///   CR to normalise), `>` and U+F000 to U+FFFF, with the five predefined entities and
///   decimal (`&#65;`) and hexadecimal (`&#x41;`) character references to characters XML
///   allows; no C0 control or U+F000 to U+FFFF in a declaration's value or the XML
///   declaration either;
/// - end tags `</qname>` naming their start tag exactly, optionally with whitespace before `>`.
///
/// No DOCTYPE, comment, processing instruction (but the declaration), CDATA section, byte
/// order mark or other attribute is ever accepted: all of them go to the cursor.
pub(crate) struct Scanner<'a> {
    /// The document, checked to be UTF-8 once so that text is sliced, not re-checked.
    source: &'a str,
    input: &'a [u8],
    pos: usize,
    /// The namespace declarations in scope, innermost last: `(prefix, namespace)`, an empty
    /// prefix being the default namespace.
    bindings: [(&'a [u8], &'a [u8]); MAX_BINDINGS],
    bound: usize,
}

/// The scanner met something outside its shape; the cursor must read the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Unusual;

/// A document needs the general reader when it declares more namespaces in scope at once.
const MAX_BINDINGS: usize = 8;

/// A start tag clients send byte for byte (an envelope's, say), which
/// [`Scanner::known_start`] takes without reading it.
#[derive(Debug)]
pub(crate) struct KnownStart {
    /// The whole tag, `<` to `>`.
    pub tag: &'static str,
    /// The element's name as written.
    pub qname: &'static str,
    /// Where the local part of `qname` starts (0 without a prefix).
    pub local_at: usize,
    /// The namespace the name resolves to, among `declarations`.
    pub ns: &'static str,
    /// The tag's namespace declarations, in order: `(prefix, namespace)`, `""` for the
    /// default namespace.
    pub declarations: &'static [(&'static str, &'static str)],
}

impl KnownStart {
    /// The start tag `tag` of the element `qname`, declaring `declarations`, one of which
    /// binds the name's prefix (a compile error otherwise, as it is only used in consts).
    pub const fn new(
        tag: &'static str,
        qname: &'static str,
        declarations: &'static [(&'static str, &'static str)],
    ) -> KnownStart {
        let name = qname.as_bytes();
        let mut local_at = 0;
        while local_at < name.len() && name[local_at] != b':' {
            local_at += 1;
        }
        let (prefix_len, local_at) = if local_at == name.len() {
            (0, 0)
        } else {
            (local_at, local_at + 1)
        };
        let mut i = declarations.len();
        let ns = loop {
            assert!(i > 0, "no declaration binds the element's prefix");
            i -= 1;
            let prefix = declarations[i].0.as_bytes();
            if prefix.len() == prefix_len {
                let mut same = true;
                let mut b = 0;
                while b < prefix_len {
                    same &= prefix[b] == name[b];
                    b += 1;
                }
                if same {
                    break declarations[i].1;
                }
            }
        };
        KnownStart {
            tag,
            qname,
            local_at,
            ns,
            declarations,
        }
    }
}

/// ` xmlns="`: between an element's name and the default namespace it declares.
const DEFAULT_NS_ATTRIBUTE: &[u8] = b" xmlns=\"";

/// A start tag the scanner read.
pub(crate) struct ScannedStart<'a> {
    qname: &'a [u8],
    /// The local part of the name.
    pub local: &'a [u8],
    /// Where the local part starts in the document.
    pub local_at: u32,
    /// The namespace the name resolved to; `None` for no namespace.
    pub ns: Option<&'a [u8]>,
    /// `<x/>`.
    pub empty: bool,
    /// The bindings in scope before this element's own declarations.
    scope: usize,
}

type Scanned<T> = Result<T, Unusual>;

/// Bytes of `[A-Za-z_]` (1) and of `[A-Za-z0-9_.-]` (1 or 2).
const NAME_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphabetic() || c == b'_' {
            table[b] = 1;
        } else if c.is_ascii_digit() || c == b'.' || c == b'-' {
            table[b] = 2;
        }
        b += 1;
    }
    table
};

/// What each byte of text means to the scanner: 0 a character, 1 `<`, 2 `&`, 3 unusual: a C0
/// control other than tab and LF (CR included), `>` (which may end a `]]>`, forbidden in
/// text), and 0xEF, the lead byte of U+F000 to U+FFFF (which include the forbidden U+FFFE
/// and U+FFFF): rare in text, so left to the cursor to judge.
const SCAN_TEXT_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = 3;
        b += 1;
    }
    table[b'\t' as usize] = 0;
    table[b'\n' as usize] = 0;
    table[b'<' as usize] = 1;
    table[b'&' as usize] = 2;
    table[b'>' as usize] = 3;
    table[0xEF] = 3;
    table
};

/// Whether the scanner leaves `bytes` (a declaration's value, the XML declaration) to the
/// cursor: any C0 control, or 0xEF (see [`SCAN_TEXT_CLASS`]).
fn unusual_in_markup(bytes: &[u8]) -> bool {
    // Without an early exit per byte, so that the compiler makes vector compares of it.
    bytes.chunks(32).any(|chunk| {
        chunk
            .iter()
            .fold(false, |found, &b| found | (b < 0x20) | (b == 0xEF))
    })
}

/// Whether the scanner takes `value`, quoted by `quote`, as a declaration's namespace: not
/// empty, no markup, reference or quote, nothing it leaves to the cursor, not a reserved
/// namespace.
fn bindable(value: &[u8], quote: u8) -> bool {
    !value.is_empty()
        && memchr::memchr3(b'<', b'&', quote, value).is_none()
        && !unusual_in_markup(value)
        && value != XML_NS
        && value != XMLNS_NS
}

/// The namespaces no declaration may bind (quick-xml refuses them, with its own rules).
const XML_NS: &[u8] = b"http://www.w3.org/XML/1998/namespace";
const XMLNS_NS: &[u8] = b"http://www.w3.org/2000/xmlns/";

/// The XML declaration we, .NET and the host write.
const USUAL_DECLARATION: &[u8] = br#"<?xml version="1.0" encoding="utf-8"?>"#;

impl<'a> Scanner<'a> {
    /// A scanner at the start of `input`; a document that is not UTF-8 is unusual.
    pub fn new(input: &'a [u8]) -> Scanned<Self> {
        // Offsets are kept as u32 (see `TextSpan`).
        if u32::try_from(input.len()).is_err() {
            return Err(Unusual);
        }
        let source = std::str::from_utf8(input).map_err(|_| Unusual)?;
        Ok(Scanner {
            source,
            input,
            pos: 0,
            bindings: [(&[], &[]); MAX_BINDINGS],
            bound: 0,
        })
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn rest(&self) -> &'a [u8] {
        &self.input[self.pos..]
    }

    /// Skips an `<?xml …?>` declaration at the very start, then whitespace.
    pub fn prolog(&mut self) -> Scanned<()> {
        // The declaration nearly every document starts with, known good.
        if self.input.starts_with(USUAL_DECLARATION) {
            self.pos = USUAL_DECLARATION.len();
        } else if let Some(after) = self.input.strip_prefix(b"<?xml") {
            // quick-xml ends the declaration at the first `?>` and needs whitespace after
            // `xml` (else it is another PI); one the cursor would refuse is left to it.
            if !after.first().copied().is_some_and(is_xml_space) {
                return Err(Unusual);
            }
            let end = memchr::memchr_iter(b'>', after)
                .find(|&at| at > 0 && after[at - 1] == b'?')
                .ok_or(Unusual)?;
            if unusual_in_markup(&after[..end])
                || check_xml_declaration(&self.input[2..5 + end - 1]).is_err()
            {
                return Err(Unusual);
            }
            self.pos = 5 + end + 1;
        }
        self.skip_space();
        Ok(())
    }

    /// Skips whitespace between elements.
    #[inline]
    pub fn skip_space(&mut self) {
        while self.peek().is_some_and(is_xml_space) {
            self.pos += 1;
        }
    }

    /// Whether the next bytes are an end tag (`</`).
    pub fn at_end_tag(&self) -> bool {
        self.rest().starts_with(b"</")
    }

    /// Whether the whole input has been read.
    pub fn at_eof(&self) -> bool {
        self.pos == self.input.len()
    }

    /// Reads `ncname` or `prefix:ncname`; returns it and where its local part starts (0
    /// without a prefix).
    fn qname(&mut self) -> Scanned<(&'a [u8], usize)> {
        let start = self.pos;
        let mut end = ncname(self.input, start)?;
        let mut local_at = 0;
        if self.input.get(end) == Some(&b':') {
            local_at = end + 1 - start;
            end = ncname(self.input, end + 1)?;
        }
        self.pos = end;
        Ok((&self.input[start..end], local_at))
    }

    /// Reads a start tag at `<`, with its namespace declarations.
    pub fn start(&mut self) -> Scanned<ScannedStart<'a>> {
        if self.peek() != Some(b'<') {
            return Err(Unusual);
        }
        self.pos += 1;
        let scope = self.bound;
        let name_at = self.pos;
        let (qname, local_at) = self.qname()?;
        let empty = loop {
            let before = self.pos;
            self.skip_space();
            match self.peek() {
                Some(b'>') => {
                    self.pos += 1;
                    break false;
                }
                Some(b'/') => {
                    if self.input.get(self.pos + 1) != Some(&b'>') {
                        return Err(Unusual);
                    }
                    self.pos += 2;
                    break true;
                }
                _ if self.pos == before => return Err(Unusual),
                _ => self.declaration(scope)?,
            }
        };
        let (prefix, local) = if local_at == 0 {
            (&qname[..0], qname)
        } else {
            (&qname[..local_at - 1], &qname[local_at..])
        };
        let ns = match self.lookup(prefix) {
            Some(ns) => Some(ns),
            // An undeclared prefix is an error the cursor reports.
            None if !prefix.is_empty() => return Err(Unusual),
            None => None,
        };
        Ok(ScannedStart {
            qname,
            local,
            // `new` made sure that every offset fits.
            local_at: (name_at + local_at) as u32,
            ns,
            empty,
            scope,
        })
    }

    /// Reads the start tag `known` if the next bytes are exactly its tag: what [`start`]
    /// reads from them, without reading them (a test checks that both agree on every known
    /// tag). `None` leaves the scanner where it was.
    ///
    /// [`start`]: Self::start
    pub fn known_start(&mut self, known: &KnownStart) -> Option<ScannedStart<'a>> {
        if !self.rest().starts_with(known.tag.as_bytes())
            || self.bound + known.declarations.len() > MAX_BINDINGS
        {
            return None;
        }
        let scope = self.bound;
        for &(prefix, ns) in known.declarations {
            self.bindings[self.bound] = (prefix.as_bytes(), ns.as_bytes());
            self.bound += 1;
        }
        let name_at = self.pos + 1;
        self.pos += known.tag.len();
        Some(ScannedStart {
            qname: known.qname.as_bytes(),
            local: &known.qname.as_bytes()[known.local_at..],
            local_at: (name_at + known.local_at) as u32,
            ns: Some(known.ns.as_bytes()),
            empty: false,
            scope,
        })
    }

    /// Reads `<local xmlns="ns">` if the next bytes are exactly that: an element declaring
    /// its own default namespace, as an operation element usually is; what [`start`] reads
    /// from these bytes, without reading them. `None` leaves the scanner where it was.
    ///
    /// [`start`]: Self::start
    pub fn default_ns_start(
        &mut self,
        local: &'static str,
        ns: &'static str,
    ) -> Option<ScannedStart<'a>> {
        let rest = self.rest();
        let name_end = 1 + local.len();
        let value_start = name_end + DEFAULT_NS_ATTRIBUTE.len();
        let value_end = value_start + ns.len();
        if rest.first() != Some(&b'<')
            || rest.get(1..name_end) != Some(local.as_bytes())
            || rest.get(name_end..value_start) != Some(DEFAULT_NS_ATTRIBUTE)
            || rest.get(value_start..value_end) != Some(ns.as_bytes())
            || rest.get(value_end..value_end + 2) != Some(b"\">")
            || self.bound == MAX_BINDINGS
            || !bindable(ns.as_bytes(), b'"')
        {
            return None;
        }
        let scope = self.bound;
        self.bindings[self.bound] = (b"", ns.as_bytes());
        self.bound += 1;
        let name_at = self.pos + 1;
        self.pos += value_end + 2;
        Some(ScannedStart {
            qname: local.as_bytes(),
            local: local.as_bytes(),
            local_at: name_at as u32,
            ns: Some(ns.as_bytes()),
            empty: false,
            scope,
        })
    }

    /// Reads one `xmlns="…"` or `xmlns:p="…"` attribute of the element whose bindings start
    /// at `scope`.
    fn declaration(&mut self, scope: usize) -> Scanned<()> {
        let (key, local_at) = self.qname()?;
        let prefix: &[u8] = match (key, local_at) {
            (b"xmlns", 0) => b"",
            (_, 6) if key.starts_with(b"xmlns:") => &key[6..],
            _ => return Err(Unusual),
        };
        if prefix == b"xml" || prefix == b"xmlns" || self.input.get(self.pos) != Some(&b'=') {
            return Err(Unusual);
        }
        let quote = match self.input.get(self.pos + 1) {
            Some(&q @ (b'"' | b'\'')) => q,
            _ => return Err(Unusual),
        };
        let value_start = self.pos + 2;
        let len = memchr::memchr(quote, &self.input[value_start..]).ok_or(Unusual)?;
        let value = &self.input[value_start..value_start + len];
        if !bindable(value, quote)
            || self.bindings[scope..self.bound]
                .iter()
                .any(|&(p, _)| p == prefix)
            || self.bound == MAX_BINDINGS
        {
            return Err(Unusual);
        }
        self.bindings[self.bound] = (prefix, value);
        self.bound += 1;
        self.pos = value_start + len + 1;
        Ok(())
    }

    /// The namespace `prefix` (empty: the default namespace) is bound to, innermost first.
    fn lookup(&self, prefix: &[u8]) -> Option<&'a [u8]> {
        let mut bindings = self.bindings[..self.bound].iter().rev();
        let found = if prefix.is_empty() {
            bindings.find(|&&(p, _)| p.is_empty())
        } else {
            bindings.find(|&&(p, _)| p == prefix)
        };
        found.map(|&(_, ns)| ns)
    }

    /// The namespace unprefixed names resolve to here.
    pub fn default_namespace(&self) -> Option<&'a [u8]> {
        self.lookup(b"")
    }

    /// Reads `<name>text</name>` or `<name/>` exactly (no attribute, no whitespace in the tags),
    /// an element of the default namespace; returns its text.
    pub fn plain_element(&mut self, name: &[u8]) -> Scanned<TextSpan> {
        let rest = self.rest();
        let after = 1 + name.len();
        if rest.first() != Some(&b'<') || rest.get(1..after) != Some(name) {
            return Err(Unusual);
        }
        match rest.get(after..after + 2) {
            Some([b'/', b'>']) => {
                self.pos += after + 2;
                Ok(TextSpan::EMPTY)
            }
            Some([b'>', _]) => {
                self.pos += after + 1;
                let text = self.text()?;
                // `text` stopped at `</`.
                let rest = &self.rest()[2..];
                if rest.get(..name.len()) != Some(name) || rest.get(name.len()) != Some(&b'>') {
                    return Err(Unusual);
                }
                self.pos += 2 + name.len() + 1;
                Ok(text)
            }
            _ => Err(Unusual),
        }
    }

    /// Reads the end tag of `start` and leaves its scope.
    pub fn end(&mut self, start: &ScannedStart<'a>) -> Scanned<()> {
        let rest = self.rest();
        let name_end = 2 + start.qname.len();
        if !rest.starts_with(b"</") || rest.get(2..name_end) != Some(start.qname) {
            return Err(Unusual);
        }
        self.pos += name_end;
        self.skip_space();
        if self.peek() != Some(b'>') {
            return Err(Unusual);
        }
        self.pos += 1;
        self.bound = start.scope;
        Ok(())
    }

    /// Leaves the scope of an empty element `<x/>`.
    pub fn end_empty(&mut self, start: &ScannedStart<'a>) {
        self.bound = start.scope;
    }

    /// Reads text and references up to the next `</`; [`scanned_text`] then gives it as the
    /// cursor would have read it.
    pub fn text(&mut self) -> Scanned<TextSpan> {
        let input = self.input;
        let start = self.pos;
        let mut refs = false;
        let mut i = start;
        loop {
            // Characters up to the next byte that means something.
            i += input[i..]
                .iter()
                .position(|&b| SCAN_TEXT_CLASS[b as usize] != 0)
                .ok_or(Unusual)?;
            match SCAN_TEXT_CLASS[input[i] as usize] {
                1 => break,
                2 => {
                    let (_, len) = reference(&input[i..]).ok_or(Unusual)?;
                    refs = true;
                    i += len;
                }
                _ => return Err(Unusual),
            }
        }
        if input.get(i + 1) != Some(&b'/') {
            return Err(Unusual);
        }
        self.pos = i;
        // `new` made sure that every offset fits.
        Ok(TextSpan {
            start: start as u32,
            end: i as u32,
            refs,
        })
    }

    /// The document (all of it UTF-8).
    pub fn source(&self) -> &'a str {
        self.source
    }
}

/// Where the scanner found text: `start..end` of the document (both at ASCII bytes, so at
/// character boundaries), and whether it holds references.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TextSpan {
    start: u32,
    end: u32,
    refs: bool,
}

impl TextSpan {
    /// No text (`<x/>`).
    pub const EMPTY: TextSpan = TextSpan {
        start: 0,
        end: 0,
        refs: false,
    };
}

/// The text at `span` of the document `source` the scanner read, its references resolved.
pub(crate) fn scanned_text(source: &str, span: TextSpan) -> Cow<'_, str> {
    let text = &source[span.start as usize..span.end as usize];
    if !span.refs {
        return Cow::Borrowed(text);
    }
    let mut resolved = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = memchr::memchr(b'&', rest.as_bytes()) {
        resolved.push_str(&rest[..amp]);
        let (c, len) =
            reference(&rest.as_bytes()[amp..]).expect("the scanner checked every reference");
        resolved.push(c);
        rest = &rest[amp + len..];
    }
    resolved.push_str(rest);
    Cow::Owned(resolved)
}

/// The end of the `[A-Za-z_][A-Za-z0-9_.-]*` name at `start` of `input`.
#[inline]
fn ncname(input: &[u8], start: usize) -> Scanned<usize> {
    let rest = input.get(start..).unwrap_or_default();
    if rest.first().is_none_or(|&b| NAME_CLASS[b as usize] != 1) {
        return Err(Unusual);
    }
    let len = rest
        .iter()
        .position(|&b| NAME_CLASS[b as usize] == 0)
        .unwrap_or(rest.len());
    Ok(start + len)
}

/// Reads a reference at `&` in text: one of the five predefined entities, or a character
/// reference (`&#65;`, `&#x41;`) to a character XML allows. Returns the character and the
/// reference's length; `None` for anything else, which the cursor then reads (and most
/// likely refuses).
fn reference(at: &[u8]) -> Option<(char, usize)> {
    let end = memchr::memchr(b';', &at[..at.len().min(16)])?;
    let name = &at[1..end];
    let c = match name {
        b"amp" => '&',
        b"lt" => '<',
        b"gt" => '>',
        b"quot" => '"',
        b"apos" => '\'',
        _ => {
            let (digits, radix) = match name {
                [b'#', b'x', hex @ ..] => (hex, 16),
                [b'#', dec @ ..] => (dec, 10),
                _ => return None,
            };
            if digits.is_empty() {
                return None;
            }
            let mut code: u32 = 0;
            for &d in digits {
                let digit = char::from(d).to_digit(radix)?;
                code = code.checked_mul(radix)?.checked_add(digit)?;
            }
            char::from_u32(code).filter(|&c| is_xml_char(c))?
        }
    };
    Some((c, end + 1))
}

/// Panics unless the shortcut ([`Scanner::known_start`] given `Some(known)`, else
/// [`Scanner::default_ns_start`] given `default_ns`) reads the start tag at the beginning of
/// `doc` exactly as [`Scanner::start`] does: the same element, the same namespaces in scope,
/// the scanner at the same place.
#[cfg(test)]
pub(crate) fn assert_reads_as_start(
    doc: &str,
    known: Option<&KnownStart>,
    default_ns: (&'static str, &'static str),
) {
    let mut taken = Scanner::new(doc.as_bytes()).expect("UTF-8");
    let mut read = Scanner::new(doc.as_bytes()).expect("UTF-8");
    let by_taking = match known {
        Some(known) => taken.known_start(known),
        None => taken.default_ns_start(default_ns.0, default_ns.1),
    }
    .expect("the shortcut takes the tag");
    let by_reading = read.start().expect("the scanner reads the tag");
    fn seen<'a>(
        s: &ScannedStart<'a>,
        scanner: &Scanner<'a>,
    ) -> impl std::fmt::Debug + PartialEq + use<'a> {
        (
            (s.qname, s.local, s.local_at, s.ns, s.empty, s.scope),
            (scanner.pos, scanner.bindings[..scanner.bound].to_vec()),
        )
    }
    assert_eq!(seen(&by_taking, &taken), seen(&by_reading, &read), "{doc}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(text: &str) -> Result<String, u32> {
        let mut out = String::new();
        escape_text(&mut out, text).map(|()| out)
    }

    #[test]
    fn escapes_like_asmx() {
        assert_eq!(
            escaped("Acme & Sons > 1 < 2 \"q\" 'a'").unwrap(),
            "Acme &amp; Sons &gt; 1 &lt; 2 \"q\" 'a'"
        );
        assert_eq!(escaped("Café ☕\n\ttab").unwrap(), "Café ☕\n\ttab");
        assert_eq!(escaped("a\r\nb").unwrap(), "a&#xD;\nb");
        assert_eq!(escaped("").unwrap(), "");
    }

    #[test]
    fn refuses_characters_xml_cannot_carry() {
        assert_eq!(escaped("ok\u{1}"), Err(1));
        assert_eq!(escaped("\u{0}"), Err(0));
        assert_eq!(escaped("\u{1f}x"), Err(0x1f));
        assert_eq!(escaped("a\u{fffe}"), Err(0xFFFE));
        assert_eq!(escaped("\u{ffff}b"), Err(0xFFFF));
        // Their neighbours are characters.
        assert_eq!(
            escaped("\u{fffd}\u{f000}\u{efff}").unwrap(),
            "\u{fffd}\u{f000}\u{efff}"
        );
    }

    /// The escaping rule one byte at a time, to check the word-at-a-time search against.
    fn escaped_bytewise(text: &str) -> Result<String, u32> {
        let mut out = String::new();
        for c in text.chars() {
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '\r' => out.push_str("&#xD;"),
                '\t' | '\n' => out.push(c),
                c if c < ' ' || c == '\u{fffe}' || c == '\u{ffff}' => return Err(u32::from(c)),
                c => out.push(c),
            }
        }
        Ok(out)
    }

    #[test]
    fn word_at_a_time_search_finds_every_byte_that_matters() {
        // Every byte that needs a look, and neighbours of the word tests' thresholds, at every
        // position of texts around the word size, alone and after another one.
        let specials = [
            "\0", "\u{1}", "\t", "\n", "\u{b}", "\r", "\u{1f}", "&", "<", ">", " ", "%", "'", "=",
            "?", "@", "~", "\u{7f}", "é", "☕", "𝄞", "\u{f000}", "\u{ffff}", "\u{e000}", "ï",
            "\u{fffe}", "\u{fffd}", "\u{efff}", "\u{ff00}",
        ];
        for len in 0..=25 {
            for at in 0..=len {
                for special in specials {
                    for second in ["", "&", "\t", "\u{2}"] {
                        let mut text = "a".repeat(at);
                        text.push_str(special);
                        text.push_str(&"b".repeat(len - at));
                        text.push_str(second);
                        text.push('c');
                        assert_eq!(escaped(&text), escaped_bytewise(&text), "{text:?}");
                        let naive = text
                            .bytes()
                            .position(|b| TEXT_CLASS[b as usize] != 0)
                            .unwrap_or(text.len());
                        assert_eq!(first_to_escape(text.as_bytes()), naive, "{text:?}");
                    }
                }
            }
        }
    }

    fn content_of(doc: &str) -> Result<(String, bool), XmlError> {
        let mut cursor = XmlCursor::new(doc.as_bytes(), []);
        match cursor.next()? {
            Node::Start(_) => {}
            _ => panic!("no root"),
        }
        let content = cursor.content()?;
        assert!(matches!(cursor.next()?, Node::Eof));
        Ok((content.text.into_owned(), content.nested))
    }

    #[test]
    fn merges_text_references_and_cdata() {
        assert_eq!(
            content_of("<a>x &amp; &lt;y&gt; &#65;&#x42; <![CDATA[<z>]]>!</a>").unwrap(),
            ("x & <y> AB <z>!".to_owned(), false)
        );
        assert_eq!(content_of("<a></a>").unwrap(), (String::new(), false));
        assert_eq!(
            content_of("<a>1<b>2</b>3</a>").unwrap(),
            ("13".to_owned(), true)
        );
    }

    #[test]
    fn normalises_line_ends_as_xml_requires() {
        assert_eq!(
            content_of("<a>1\r\n2\r3&#xD;\n</a>").unwrap().0,
            "1\n2\n3\r\n"
        );
    }

    #[test]
    fn refuses_doctype_without_reading_it() {
        let doc = "<!DOCTYPE a [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><a>&e;</a>";
        let mut cursor = XmlCursor::new(doc.as_bytes(), []);
        assert_eq!(cursor.next().err(), Some(XmlError::Doctype));
    }

    #[test]
    fn refuses_undefined_entities_and_bad_references() {
        assert!(
            matches!(content_of("<a>&e;</a>"), Err(XmlError::Malformed(m)) if m.contains("undefined entity '&e;'"))
        );
        assert!(matches!(
            content_of("<a>&#1;</a>"),
            Err(XmlError::Malformed(_))
        ));
        assert!(matches!(
            content_of("<a>x & y</a>"),
            Err(XmlError::Malformed(_))
        ));
    }

    #[test]
    fn refuses_truncated_and_mismatched_documents() {
        assert!(matches!(content_of("<a>text"), Err(XmlError::Malformed(_))));
        assert!(matches!(
            content_of("<a><b></a>"),
            Err(XmlError::Malformed(_))
        ));
        let mut cursor = XmlCursor::new(b"<a x=1></a>", []);
        assert!(matches!(cursor.next(), Err(XmlError::Malformed(_))));
        // Attributes need white space between them; a quote inside a value is no end.
        let mut cursor = XmlCursor::new(b"<a x=\"1\"y='2'></a>", []);
        assert!(matches!(cursor.next(), Err(XmlError::Malformed(m)) if m.contains("white space")));
        for fine in [
            &b"<a x=\"'1'\" y='\"2'\t/>"[..],
            b"<a x=\"1\"/>",
            b"<a x='1' ></a>",
        ] {
            let mut cursor = XmlCursor::new(fine, []);
            assert!(matches!(cursor.next(), Ok(Node::Start(_))), "{fine:?}");
        }
        let mut cursor = XmlCursor::new(b"<p:a></p:a>", []);
        assert!(
            matches!(cursor.next(), Err(XmlError::Malformed(m)) if m.contains("undeclared prefix 'p'"))
        );
    }

    /// Reads the whole document with `next`, and with `content` on the root.
    fn walk(doc: &[u8]) -> Result<(), XmlError> {
        let mut cursor = XmlCursor::new(doc, []);
        while !matches!(cursor.next()?, Node::Eof) {}
        let mut cursor = XmlCursor::new(doc, []);
        if let Node::Start(root) = cursor.next()? {
            if !root.empty {
                cursor.content()?;
            }
        }
        while !matches!(cursor.next()?, Node::Eof) {}
        Ok(())
    }

    /// Asserts that `doc` is refused as malformed with a message containing `what`.
    #[track_caller]
    fn refused(doc: impl AsRef<[u8]>, what: &str) {
        let doc = doc.as_ref();
        match walk(doc) {
            Err(XmlError::Malformed(m)) if m.contains(what) => {}
            other => panic!(
                "{:?}: expected Malformed({what:?}), got {other:?}",
                String::from_utf8_lossy(&doc[..doc.len().min(200)])
            ),
        }
    }

    #[track_caller]
    fn accepted(doc: impl AsRef<[u8]>) {
        let doc = doc.as_ref();
        assert_eq!(walk(doc), Ok(()), "{:?}", String::from_utf8_lossy(doc));
    }

    fn nested(depth: usize) -> String {
        format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth))
    }

    #[test]
    fn refuses_nesting_beyond_the_limit() {
        accepted(nested(MAX_DEPTH));
        refused(nested(MAX_DEPTH + 1), "nested deeper than 128 levels");
        refused(
            format!(
                "{}<b/>{}",
                "<a>".repeat(MAX_DEPTH),
                "</a>".repeat(MAX_DEPTH)
            ),
            "nested deeper than 128 levels",
        );
        // Far beyond what quick-xml's u16 level counter holds: refused at level 129, linearly.
        refused(nested(100_000), "nested deeper than 128 levels");
        refused("<a>".repeat(100_000), "nested deeper than 128 levels");
    }

    fn with_attributes(count: usize) -> String {
        let attributes: String = (0..count).map(|i| format!(" a{i}=\"{i}\"")).collect();
        format!("<r{attributes}/>")
    }

    #[test]
    fn refuses_more_attributes_than_the_limit() {
        accepted(with_attributes(MAX_ATTRIBUTES));
        refused(
            with_attributes(MAX_ATTRIBUTES + 1),
            "more than 64 attributes",
        );
        // Refused before the quadratic duplicate check runs.
        refused(with_attributes(100_000), "more than 64 attributes");
        let declarations: String = (0..100_000)
            .map(|i| format!(" xmlns:p{i}=\"urn:{i}\""))
            .collect();
        refused(format!("<r{declarations}></r>"), "more than 64 attributes");
    }

    #[test]
    fn refuses_more_namespaces_in_scope_than_the_limit() {
        let level = |n: usize| -> String {
            let declarations: String = (0..60)
                .map(|i| format!(" xmlns:p{i}=\"urn:{n}\""))
                .collect();
            format!("<a{declarations}>")
        };
        let doc = |levels: usize| {
            format!(
                "{}<p1:b/>{}",
                (0..levels).map(level).collect::<String>(),
                "</a>".repeat(levels)
            )
        };
        accepted(doc(4));
        refused(doc(5), "more than 256 namespace declarations in scope");
        // Declarations leave the scope with their element.
        let siblings = format!(
            "<r>{}</r>",
            (0..10)
                .map(|n| format!("{}</a>", level(n)))
                .collect::<String>()
        );
        accepted(siblings);
    }

    #[test]
    fn refuses_markup_and_bad_references_in_attribute_values() {
        accepted("<a x=\"&amp;&lt;&gt;&quot;&apos;&#65;&#x42;>\" y='\"'/>");
        refused("<a x=\"<\"/>", "'<' in an attribute value");
        refused("<a x='a<b'></a>", "'<' in an attribute value");
        refused("<a x=\"&foo;\"/>", "undefined entity '&foo;'");
        refused("<a x=\"&#1;\"/>", "character reference to U+0001");
        refused("<a x=\"&#xFFFE;\"/>", "character reference to U+FFFE");
        refused("<a x=\"&#99999999999;\"/>", "character reference to U+");
        refused("<a x=\"&#x;\"/>", "malformed character reference");
        refused("<a x=\"&#X41;\"/>", "malformed character reference");
        refused("<a x=\"a & b\"/>", "'&' that does not start a reference");
        refused("<a x=\"&1;\"/>", "malformed reference '&1;'");
    }

    #[test]
    fn refuses_bad_references_between_elements() {
        refused("<a><b/>&foo;</a>", "undefined entity '&foo;'");
        refused("<a><b/>&#0;<c/></a>", "character reference to U+0000");
        refused("<a><b/>&#xD800;</a>", "character reference to U+D800");
        refused("<a>&#x1F;</a>", "character reference to U+001F");
        accepted("<a><b/>&amp;&#x10FFFF;<c/></a>");
        refused("<a/>&amp;", "text outside the root element");
    }

    #[test]
    fn reads_xml_declarations_as_dotnet_does() {
        for decl in [
            "<?xml version=\"1.0\"?>",
            "<?xml version='1.0'?>",
            "<?xml version = \"1.0\" ?>",
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
            "<?xml version=\"1.0\" encoding='ISO-8859-1' standalone=\"yes\"?>",
            "<?xml version=\"1.0\" standalone='no'?>",
            "<?xml\tversion=\"1.0\"\nencoding=\"x_y.z-1\"\r\n?>",
            // Any attribute-value characters: the name is looked up by the caller, if at all.
            "<?xml version=\"1.0\" encoding=\"8bit\"?>",
            "<?xml version=\"1.0\" encoding=\"\"?>",
            "<?xml version=\"1.0\" encoding=\"utf 8\"?>",
            "<?xml version=\"1.0\" encoding=\"u|f%8\u{e9}\"?>",
        ] {
            accepted(format!("{decl}<a/>"));
            accepted(format!("{decl}<a>t</a>"));
        }
        for (decl, what) in [
            ("<?xml version=\"1.1\"?>", "only version 1.0"),
            ("<?xml version=\"2.0\"?>", "only version 1.0"),
            ("<?xml version=\"1.0 \"?>", "only version 1.0"),
            ("<?xml?>", "no version"),
            ("<?xml ?>", "no version"),
            ("<?xml encoding=\"utf-8\"?>", "in that order"),
            (
                "<?xml version=\"1.0\" standalone=\"yes\" encoding=\"utf-8\"?>",
                "in that order",
            ),
            ("<?xml version=\"1.0\" version=\"1.0\"?>", "in that order"),
            ("<?xml version=\"1.0\" other=\"1\"?>", "in that order"),
            (
                "<?xml version=\"1.0\"encoding=\"utf-8\"?>",
                "whitespace is missing",
            ),
            ("<?xml version=1.0?>", "not quoted"),
            (
                "<?xml version=\"1.0\" encoding=\"utf\t8\"?>",
                "an attribute value cannot",
            ),
            (
                "<?xml version=\"1.0\" encoding=\"u'8\"?>",
                "an attribute value cannot",
            ),
            (
                "<?xml version=\"1.0\" encoding=\"u&8\"?>",
                "an attribute value cannot",
            ),
            (
                "<?xml version=\"1.0\" encoding=\"u>8\"?>",
                "an attribute value cannot",
            ),
            (
                "<?xml version=\"1.0\" encoding=\"u\u{1F600}8\"?>",
                "an attribute value cannot",
            ),
            (
                "<?xml version=\"1.0\" standalone=\"true\"?>",
                "neither yes nor no",
            ),
        ] {
            refused(format!("{decl}<a/>"), what);
        }
        // The declaration the scanner takes without a look is one the check accepts.
        let usual = USUAL_DECLARATION;
        assert_eq!(check_xml_declaration(&usual[2..usual.len() - 2]), Ok(()));
    }

    #[test]
    fn refuses_a_late_xml_declaration() {
        accepted("<?xml version=\"1.0\"?><a/>");
        accepted("\u{feff}<?xml version=\"1.0\"?><a/>");
        refused(
            " <?xml version=\"1.0\"?><a/>",
            "XML declaration that is not at the start",
        );
        refused(
            "<!-- c --><?xml version=\"1.0\"?><a/>",
            "XML declaration that is not at the start",
        );
        refused(
            "<a><?xml version=\"1.0\"?></a>",
            "XML declaration that is not at the start",
        );
        refused(
            "<?xml version=\"1.0\"?><?xml version=\"1.0\"?><a/>",
            "XML declaration that is not at the start",
        );
    }

    #[test]
    fn refuses_names_that_are_not_xml_names() {
        accepted("<café xmlns:é='urn:x' é:à='1' _x.y-z='2'><é:b/></café>");
        refused("<1a/>", "'1a' is not a valid name");
        refused("<a><-b/></a>", "is not a valid name");
        refused("<a><.b></.b></a>", "'.b' is not a valid name");
        refused("<a:b:c xmlns:a='urn:x'/>", "'a:b:c' is not a valid name");
        refused("<:a/>", "':a' is not a valid name");
        refused("<a: xmlns:a='urn:x'/>", "'a:' is not a valid name");
        refused("<a 1x='1'/>", "'1x' is not a valid name");
        refused("<a x:='1'/>", "'x:' is not a valid name");
        refused("<a\u{d7}/>", "is not a valid name");
        refused("<?1pi?><a/>", "not a valid processing instruction name");
        refused(
            "<?XML version='1.0'?><a/>",
            "reserved processing instruction name 'XML'",
        );
        refused("<a><?xMl x?></a>", "reserved processing instruction name");
        accepted("<?xml-stylesheet href='x'?><a><?pi data?></a>");
    }

    #[test]
    fn refuses_characters_xml_forbids() {
        refused("<a>\u{1}</a>", "the character U+0001");
        refused("<a><b/>x\u{8}</a>", "the character U+0008");
        refused(b"<a>\0</a>".as_slice(), "the character U+0000");
        refused("<a x='\u{1b}'/>", "the character U+001B");
        refused("<a x='\u{ffff}'/>", "the character U+FFFF");
        refused("<a><!-- \u{fffe} --></a>", "the character U+FFFE");
        refused("<a><![CDATA[\u{2}]]></a>", "the character U+0002");
        refused("<a><?pi \u{ffff}?></a>", "the character U+FFFF");
        refused("<!-- \u{7} --><a/>", "the character U+0007");
        // Tab, LF and CR, and the characters around U+FFFE, are allowed.
        accepted("<a x='\t\r\n\u{fffd}\u{ef}\u{f000}\u{10000}'>\t\r\n\u{fffd}\u{efff}</a>");
    }

    #[test]
    fn refuses_a_second_root_element() {
        refused("<a/><b/>", "a second root element");
        refused("<a><c/></a>\n<b></b>", "a second root element");
        accepted("<a><b/><b/></a> <!-- c --> <?pi x?>");
    }

    #[test]
    fn refuses_what_the_scanner_must_refuse_first() {
        refused("<a>x]]>y</a>", "']]>' in text");
        refused("<a><b/>]]></a>", "']]>' in text");
        accepted("<a>]]&gt;]]<![CDATA[>]]>]>]</a>");
        refused("<a>\u{fffe}</a>", "the character U+FFFE");
        refused("<a><b/>\u{ffff}</a>", "the character U+FFFF");
        refused("<a xmlns='urn:\u{1}'/>", "the character U+0001");
        refused("<a xmlns:p='urn:\u{ffff}'/>", "the character U+FFFF");
        refused("<?xml version='1.0'\u{1}?><a/>", "the character U+0001");
    }

    #[test]
    fn refuses_undeclaring_a_prefix() {
        refused(
            "<a xmlns:p='urn:x'><b xmlns:p=''/></a>",
            "the prefix 'p' declared with an empty namespace",
        );
        accepted("<a xmlns='urn:x'><b xmlns=''/></a>");
    }

    #[test]
    fn takes_a_default_namespace_start_tag_as_the_scanner_reads_it() {
        super::assert_reads_as_start(r#"<Op xmlns="urn:x">text</Op>"#, None, ("Op", "urn:x"));
        // Anything else is left to the scanner, which is where it was.
        for (doc, local, ns) in [
            (r#"<Op xmlns="urn:y">"#, "Op", "urn:x"),
            (r#"<Op  xmlns="urn:x">"#, "Op", "urn:x"),
            (r#"<Op xmlns='urn:x'>"#, "Op", "urn:x"),
            (r#"<Op xmlns="urn:x"/>"#, "Op", "urn:x"),
            (r#"<Opp xmlns="urn:x">"#, "Op", "urn:x"),
            (r#"<Op xmlns="urn:x&amp;">"#, "Op", "urn:x&amp;"),
            (r#"<Op xmlns="">"#, "Op", ""),
            (
                r#"<Op xmlns="http://www.w3.org/XML/1998/namespace">"#,
                "Op",
                "http://www.w3.org/XML/1998/namespace",
            ),
        ] {
            let mut scanner = Scanner::new(doc.as_bytes()).expect("UTF-8");
            assert!(scanner.default_ns_start(local, ns).is_none(), "{doc}");
            assert_eq!((scanner.pos, scanner.bound), (0, 0), "{doc}");
        }
    }

    #[test]
    fn classifies_namespaces() {
        let doc = r#"<a xmlns="urn:x" xmlns:q="urn:y"><q:b/><c xmlns=""/><d xmlns="urn:z"/></a>"#;
        let mut cursor = XmlCursor::new(doc.as_bytes(), ["urn:y", "urn:x"]);
        let mut seen = Vec::new();
        loop {
            match cursor.next().unwrap() {
                Node::Start(e) => seen.push((e.ns.clone(), e.display_name(&["urn:y", "urn:x"]))),
                Node::Eof => break,
                _ => {}
            }
        }
        assert_eq!(
            seen,
            vec![
                (Ns::Known(1), "{urn:x}a".to_owned()),
                (Ns::Known(0), "{urn:y}b".to_owned()),
                (Ns::None, "{}c".to_owned()),
                (Ns::Other("urn:z".to_owned()), "{urn:z}d".to_owned()),
            ]
        );
    }
}
