//! The scanner: the fast path in front of the cursor, for the plain shape of a document.

use std::borrow::Cow;

use super::check::{check_xml_declaration, is_xml_char};
use super::is_xml_space;

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
    pub(super) source: &'a str,
    pub(super) input: &'a [u8],
    pub(super) pos: usize,
    /// The namespace declarations in scope, innermost last: `(prefix, namespace)`, an empty
    /// prefix being the default namespace.
    bindings: [(&'a [u8], &'a [u8]); MAX_BINDINGS],
    pub(super) bound: usize,
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

/// The attributes other than namespace declarations a start tag in a value tree may carry
/// for the scanner (`xsi:nil`, `xsi:type` and a few `[XmlAttribute]` members); more are left
/// to the cursor.
const MAX_TREE_ATTRIBUTES: usize = 6;

/// The attributes of a start tag in a value tree that are no namespace declarations, as
/// written: `(qname, where its local part starts, value)`.
pub(crate) struct Attributes<'a> {
    pub(super) items: [(&'a [u8], usize, &'a [u8]); MAX_TREE_ATTRIBUTES],
    pub(super) len: usize,
}

impl Attributes<'_> {
    /// How many there are.
    pub fn len(&self) -> usize {
        self.len
    }
}

impl Default for Attributes<'_> {
    fn default() -> Self {
        Attributes {
            items: [(&[], 0, &[]); MAX_TREE_ATTRIBUTES],
            len: 0,
        }
    }
}

/// ` xmlns="`: between an element's name and the default namespace it declares.
const DEFAULT_NS_ATTRIBUTE: &[u8] = b" xmlns=\"";

/// A start tag the scanner read.
#[derive(Clone, Copy)]
pub(crate) struct ScannedStart<'a> {
    pub(super) qname: &'a [u8],
    /// The local part of the name.
    pub local: &'a [u8],
    /// Where the local part starts in the document.
    pub local_at: u32,
    /// The namespace the name resolved to; `None` for no namespace.
    pub ns: Option<&'a [u8]>,
    /// `<x/>`.
    pub empty: bool,
    /// The bindings in scope before this element's own declarations.
    pub(super) scope: usize,
}

pub(super) type Scanned<T> = Result<T, Unusual>;

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
pub(super) const USUAL_DECLARATION: &[u8] = br#"<?xml version="1.0" encoding="utf-8"?>"#;

impl<'a> Scanner<'a> {
    /// A scanner at the start of `input`; a document that is not UTF-8 is unusual.
    pub fn new(input: &'a [u8]) -> Scanned<Self> {
        // Offsets are kept as u32 (see `TextSpan`).
        if u32::try_from(input.len()).is_err() {
            return Err(Unusual);
        }
        // Checked a vector at a time: every message is, and this is most of a small message's
        // check (std's check slows down at each character past ASCII).
        let source = simdutf8::basic::from_utf8(input).map_err(|_| Unusual)?;
        Ok(Scanner {
            source,
            input,
            pos: 0,
            bindings: [(&[], &[]); MAX_BINDINGS],
            bound: 0,
        })
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    #[inline]
    pub(super) fn rest(&self) -> &'a [u8] {
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
    #[inline]
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
        self.start_with(None)
    }

    /// Reads a start tag at `<` inside a value tree: besides namespace declarations it may
    /// carry attributes (`xsi:nil`, `xsi:type`, a class's `[XmlAttribute]` members), each
    /// with a value of plain characters, collected into `attributes` (emptied first) for
    /// [`Scanner::tree`] to resolve once the tag's declarations are all read.
    pub fn tree_start(&mut self, attributes: &mut Attributes<'a>) -> Scanned<ScannedStart<'a>> {
        attributes.len = 0;
        self.start_with(Some(attributes))
    }

    fn start_with(
        &mut self,
        mut attributes: Option<&mut Attributes<'a>>,
    ) -> Scanned<ScannedStart<'a>> {
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
                _ => match attributes.as_deref_mut() {
                    Some(attributes) if !self.rest().starts_with(b"xmlns") => {
                        self.attribute(attributes)?
                    }
                    _ => self.declaration(scope)?,
                },
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

    /// Reads `<name>` or `<name/>` at `<` if that is all the tag is (no prefix, attribute or
    /// declaration: a member's tag, nearly always): what [`Scanner::start`] reads from it,
    /// faster. `None` leaves the scanner where it was.
    #[inline]
    pub(super) fn plain_start(&mut self) -> Option<ScannedStart<'a>> {
        if self.peek() != Some(b'<') {
            return None;
        }
        let name_at = self.pos + 1;
        let end = ncname(self.input, name_at).ok()?;
        let empty = match self.input.get(end)? {
            b'>' => false,
            b'/' if self.input.get(end + 1) == Some(&b'>') => true,
            _ => return None,
        };
        self.pos = end + 1 + usize::from(empty);
        let qname = &self.input[name_at..end];
        Some(ScannedStart {
            qname,
            local: qname,
            // `new` made sure that every offset fits.
            local_at: name_at as u32,
            ns: self.lookup(b""),
            empty,
            scope: self.bound,
        })
    }

    /// Reads one attribute that is no namespace declaration, `name="value"`, into
    /// `attributes`: its value plain characters (no markup, reference or control, which
    /// would need unescaping or normalising), its name not among those already read.
    fn attribute(&mut self, attributes: &mut Attributes<'a>) -> Scanned<()> {
        let (key, local_at) = self.qname()?;
        if self.input.get(self.pos) != Some(&b'=') {
            return Err(Unusual);
        }
        let quote = match self.input.get(self.pos + 1) {
            Some(&q @ (b'"' | b'\'')) => q,
            _ => return Err(Unusual),
        };
        let value_start = self.pos + 2;
        let len = memchr::memchr(quote, &self.input[value_start..]).ok_or(Unusual)?;
        let value = &self.input[value_start..value_start + len];
        if memchr::memchr2(b'<', b'&', value).is_some()
            || unusual_in_markup(value)
            || attributes.len == MAX_TREE_ATTRIBUTES
            || attributes.items[..attributes.len]
                .iter()
                .any(|&(k, _, _)| k == key)
        {
            return Err(Unusual);
        }
        attributes.items[attributes.len] = (key, local_at, value);
        attributes.len += 1;
        self.pos = value_start + len + 1;
        Ok(())
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
    #[inline]
    pub(super) fn lookup(&self, prefix: &[u8]) -> Option<&'a [u8]> {
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
        if rest.first() != Some(&b'<') || !rest.get(1..after).is_some_and(|n| same_name(n, name)) {
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
                if !rest.get(..name.len()).is_some_and(|n| same_name(n, name))
                    || rest.get(name.len()) != Some(&b'>')
                {
                    return Err(Unusual);
                }
                self.pos += 2 + name.len() + 1;
                Ok(text)
            }
            _ => Err(Unusual),
        }
    }

    /// Where the white space at the scanner ends: space, tab and LF, the white space between
    /// elements that the scanner's text reads (a CR it leaves to the cursor).
    #[inline(always)]
    fn after_plain_space(&self) -> usize {
        let mut at = self.pos;
        while matches!(self.input.get(at), Some(b' ' | b'\t' | b'\n')) {
            at += 1;
        }
        at
    }

    /// Reads white space (but CR, which the scanner's text leaves to the cursor), then the
    /// start tag `open` (`<name>`), text and the end tag `close` (`</name>`), if they stand
    /// there exactly: the text's span. `None` may leave the scanner anywhere in them.
    #[inline(always)]
    pub(super) fn plain_element_at(&mut self, open: &[u8], close: &[u8]) -> Option<TextSpan> {
        // Each tag compared as one slice of known length (one bounds check, no `rest()`).
        let at = self.after_plain_space();
        let text_at = at + open.len();
        if self.input.get(at..text_at) != Some(open) {
            return None;
        }
        self.pos = text_at;
        let span = self.text_run().ok()?;
        let after = self.pos + close.len();
        if self.input.get(self.pos..after) != Some(close) {
            return None;
        }
        self.pos = after;
        Some(span)
    }

    /// Reads white space (as [`Scanner::plain_element_at`]) and then `<name>`, if it stands
    /// there exactly: where the tag starts. `None` leaves the scanner where it was.
    #[inline]
    pub(super) fn plain_start_tag_at(&mut self, name: &[u8]) -> Option<usize> {
        let at = self.after_plain_space();
        let rest = &self.input[at..];
        let end = name.len() + 1;
        if rest.first() != Some(&b'<')
            || !rest.get(1..end).is_some_and(|n| same_name(n, name))
            || rest.get(end) != Some(&b'>')
        {
            return None;
        }
        self.pos = at + end + 1;
        Some(at)
    }

    /// Reads white space (as [`Scanner::plain_element_at`]) and then `tag`, if it stands
    /// there exactly; `false` leaves the scanner where it was.
    #[inline(always)]
    pub(super) fn plain_tag_at(&mut self, tag: &[u8]) -> bool {
        let at = self.after_plain_space();
        if !self.input[at..].starts_with(tag) {
            return false;
        }
        self.pos = at + tag.len();
        true
    }

    /// Reads the end tag of `start` and leaves its scope.
    pub fn end(&mut self, start: &ScannedStart<'a>) -> Scanned<()> {
        self.end_tag(start.qname, start.scope)
    }

    /// Reads the end tag of the element named `qname` whose bindings started at `scope`, and
    /// leaves its scope.
    #[inline]
    pub(super) fn end_tag(&mut self, qname: &[u8], scope: usize) -> Scanned<()> {
        let rest = self.rest();
        let name_end = 2 + qname.len();
        if !rest.starts_with(b"</") || !rest.get(2..name_end).is_some_and(|n| same_name(n, qname)) {
            return Err(Unusual);
        }
        self.pos += name_end;
        if self.peek() != Some(b'>') {
            self.skip_space();
            if self.peek() != Some(b'>') {
                return Err(Unusual);
            }
        }
        self.pos += 1;
        self.bound = scope;
        Ok(())
    }

    /// Leaves the scope of an empty element `<x/>`.
    pub fn end_empty(&mut self, start: &ScannedStart<'a>) {
        self.bound = start.scope;
    }

    /// Leaves the scope that started at `scope` (after an empty element).
    #[inline]
    pub(super) fn leave(&mut self, scope: usize) {
        self.bound = scope;
    }

    /// Reads text and references up to the next `</`; [`scanned_text`] then gives it as the
    /// cursor would have read it.
    pub fn text(&mut self) -> Scanned<TextSpan> {
        let span = self.text_run()?;
        if !self.at_end_tag() {
            return Err(Unusual);
        }
        Ok(span)
    }

    /// Reads text and references up to the next `<` (a child's start tag or an end tag).
    #[inline(always)]
    pub(super) fn text_run(&mut self) -> Scanned<TextSpan> {
        let input = self.input;
        let start = self.pos;
        let mut refs = false;
        let mut i = start;
        loop {
            // Characters up to the next byte that means something: a plain indexed loop,
            // which compiles to fewer instructions a byte than an iterator's `position`.
            let class = loop {
                let &b = input.get(i).ok_or(Unusual)?;
                let class = SCAN_TEXT_CLASS[b as usize];
                if class != 0 {
                    break class;
                }
                i += 1;
            };
            match class {
                1 => break,
                2 => {
                    let (_, len) = reference(&input[i..]).ok_or(Unusual)?;
                    refs = true;
                    i += len;
                }
                _ => return Err(Unusual),
            }
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
    #[inline]
    pub fn source(&self) -> &'a str {
        self.source
    }
}

/// `a == b` for the names of tags, compared inline: a name is a few bytes, fewer than a call
/// to `memcmp` costs, so names up to 32 bytes are compared as two to four overlapping words.
#[inline(always)]
pub(crate) fn same_name(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    fn word<const W: usize>(s: &[u8], at: usize) -> [u8; W] {
        let mut w = [0; W];
        w.copy_from_slice(&s[at..at + W]);
        w
    }
    match n {
        0..4 => a == b,
        4..8 => word::<4>(a, 0) == word::<4>(b, 0) && word::<4>(a, n - 4) == word::<4>(b, n - 4),
        8..=16 => word::<8>(a, 0) == word::<8>(b, 0) && word::<8>(a, n - 8) == word::<8>(b, n - 8),
        17..=32 => {
            word::<8>(a, 0) == word::<8>(b, 0)
                && word::<8>(a, 8) == word::<8>(b, 8)
                && word::<8>(a, n - 16) == word::<8>(b, n - 16)
                && word::<8>(a, n - 8) == word::<8>(b, n - 8)
        }
        _ => a == b,
    }
}

/// Where the scanner found text: `start..end` of the document (both at ASCII bytes, so at
/// character boundaries), and whether it holds references.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TextSpan {
    pub(super) start: u32,
    pub(super) end: u32,
    pub(super) refs: bool,
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
#[inline]
pub(crate) fn scanned_text(source: &str, span: TextSpan) -> Cow<'_, str> {
    let text = &source[span.start as usize..span.end as usize];
    if !span.refs {
        return Cow::Borrowed(text);
    }
    Cow::Owned(resolve_references(text))
}

/// `text` with its references (which the scanner checked) replaced by their characters.
#[cold]
fn resolve_references(text: &str) -> String {
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
    resolved
}

/// The end of the `[A-Za-z_][A-Za-z0-9_.-]*` name at `start` of `input`.
#[inline]
pub(super) fn ncname(input: &[u8], start: usize) -> Scanned<usize> {
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
