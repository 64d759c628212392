//! Value trees read by the scanner: the fast path of [`XmlCursor::tree`] for a class or array
//! element in the scanner's shape, attributes allowed.
//!
//! What it reads, it reads to the very [`Node`] the cursor reads (a test compares the two on
//! every mutation of class-holding messages): the same names, namespaces, `xsi:nil`,
//! `xsi:type`, attributes, text and runs of text. Anything it would have to judge more
//! finely is [`Unusual`] and goes to the cursor, which also words every error: an attribute
//! value with a reference or a control character, a prefixed attribute other than in a bound
//! namespace, an `xsi:type` that is no plain name, more than a few attributes, an element
//! deeper than a few dozen levels, a tree beyond its element budget.
//!
//! [`XmlCursor::tree`]: super::XmlCursor::tree

use std::borrow::Cow;

use super::check::append;
use super::scanner::{ncname, Attributes, Scanned};
use super::{is_xml_space, scanned_text, ScannedStart, Scanner, Unusual, XSI_NS};
use crate::tree::{Nil, Node, NodeNs, Rare, XsiType};

/// How deep a tree the scanner reads (below its root); deeper ones go to the cursor, whose
/// depth limit words the refusal. Well within the stack.
pub(super) const MAX_SCANNED_DEPTH: usize = 64;

/// A namespace classified against the service's, as an `xsi:type` names its type's.
fn node_ns(ns: Option<&[u8]>, service: &[u8]) -> NodeNs {
    match ns {
        None => NodeNs::None,
        Some(ns) if ns == service => NodeNs::Service,
        // The scanner read the whole document as UTF-8, so this is text.
        Some(ns) => NodeNs::Other(String::from_utf8_lossy(ns).into()),
    }
}

/// Bytes the scanner read and found to be ASCII names or UTF-8 text, as `str`.
fn text_of(bytes: &[u8]) -> Scanned<&str> {
    std::str::from_utf8(bytes).map_err(|_| Unusual)
}

impl<'a> Scanner<'a> {
    /// Reads the element whose start tag (read by [`Scanner::tree_start`]) is `start`, with
    /// the attributes `attributes`, as a value tree, `service` being the service's namespace.
    /// Each element takes one of `budget`; running out is [`Unusual`] (the cursor refuses
    /// the message).
    /// `attributes` is then reused for the tags inside (its items are only read before them).
    pub fn tree(
        &mut self,
        start: ScannedStart<'a>,
        attributes: &mut Attributes<'a>,
        service: &[u8],
        budget: &mut usize,
    ) -> Scanned<Node<'a>> {
        self.tree_at(start, attributes, service, budget, 0)
    }

    /// [`Scanner::tree`] of an element `depth` levels below the value's root (a tree the
    /// stream leaves to the tree reader), so that the depth bound is the whole value's.
    pub(super) fn tree_at(
        &mut self,
        start: ScannedStart<'a>,
        attributes: &mut Attributes<'a>,
        service: &[u8],
        budget: &mut usize,
        depth: usize,
    ) -> Scanned<Node<'a>> {
        if *budget == 0 || depth > MAX_SCANNED_DEPTH {
            return Err(Unusual);
        }
        *budget -= 1;
        let mut node = Node {
            local: Cow::Borrowed(self.local_name(&start)?),
            text: Cow::Borrowed(""),
            children: Vec::new(),
            rare: None,
            nil: Nil::No,
            text_runs: 0,
            last_run: 0..0,
            // Its namespace is nearly always the very binding the operation element's is.
            in_service: start.ns.is_some_and(|ns| ns == service),
            unqualified: start.ns.is_none(),
            interrupted: false,
        };
        if attributes.len() > 0 {
            (node.nil, node.rare) = self.read_attributes(attributes, service)?;
        }
        if start.empty {
            self.end_empty(&start);
            return Ok(node);
        }
        loop {
            // A run of text (references resolved), up to a child's start tag or the end tag.
            let span = self.text_run()?;
            if span.start != span.end {
                let piece = scanned_text(self.source, span);
                // A run of white space only is no text to XmlSerializer; a reference is,
                // whatever it stands for.
                let significant = span.refs || piece.bytes().any(|b| !is_xml_space(b));
                let run_start = node.text.len();
                append(&mut node.text, piece);
                if significant {
                    node.text_runs = node.text_runs.saturating_add(1);
                    // Texts are within a message, whose offsets fit in u32.
                    node.last_run = run_start as u32..node.text.len() as u32;
                }
            }
            if self.at_end_tag() {
                self.end(&start)?;
                return Ok(node);
            }
            let child = self.tree_start(attributes)?;
            let child = self.tree_at(child, attributes, service, budget, depth + 1)?;
            node.children.push(child);
        }
    }

    /// The local name of `start`, from the document the scanner checked to be UTF-8 once
    /// (names are ASCII).
    #[inline]
    pub(super) fn local_name(&self, start: &ScannedStart<'a>) -> Scanned<&'a str> {
        let at = start.local_at as usize;
        self.source.get(at..at + start.local.len()).ok_or(Unusual)
    }

    /// Reads a start tag's attributes as the cursor reads them: `xsi:nil`, and what few
    /// elements carry (`xsi:type`, resolved where it stands, and the attributes in no
    /// namespace and of the service's, in document order).
    pub(super) fn read_attributes(
        &self,
        attributes: &Attributes<'a>,
        service: &[u8],
    ) -> Scanned<(Nil, Option<Box<Rare>>)> {
        let items = &attributes.items[..attributes.len];
        let mut rare = Rare::default();
        let mut nil = Nil::No;
        for (i, &(qname, local_at, value)) in items.iter().enumerate() {
            let local = &qname[local_at..];
            if local_at == 0 {
                // In no namespace: a class's `[XmlAttribute]` member (or an unknown one).
                rare.attributes
                    .push((text_of(local)?.into(), text_of(value)?.to_owned()));
                continue;
            }
            let prefix = &qname[..local_at - 1];
            // Bound where the reserved prefixes are not, as the cursor resolves them.
            if prefix == b"xml" || prefix == b"xmlns" {
                return Err(Unusual);
            }
            let ns = self.lookup(prefix).ok_or(Unusual)?;
            // Two attributes of one expanded name under two prefixes: the cursor lets them
            // through and takes the first; left to it.
            let twice = items[i + 1..].iter().any(|&(other, other_at, _)| {
                other_at > 0
                    && &other[other_at..] == local
                    && self.lookup(&other[..other_at - 1]) == Some(ns)
            });
            if twice {
                return Err(Unusual);
            }
            if ns == service {
                // A qualified attribute of its class, named `{namespace}local` as the cursor
                // names it.
                let name = format!("{{{}}}{}", text_of(ns)?, text_of(local)?);
                rare.attributes
                    .push((name.into(), text_of(value)?.to_owned()));
                continue;
            }
            if ns != XSI_NS.as_bytes() {
                continue;
            }
            match local {
                b"nil" => nil = Nil::read(Some(text_of(value)?)),
                b"type" => rare.xsi_type = Some(self.xsi_type(value, service)?),
                _ => {}
            }
        }
        Ok((nil, rare.boxed()))
    }

    /// An `xsi:type` value resolved against the namespaces in scope: a plain `name` or
    /// `prefix:name` only (anything else, and an unbound prefix, goes to the cursor).
    fn xsi_type(&self, value: &'a [u8], service: &[u8]) -> Scanned<XsiType> {
        let end = ncname(value, 0)?;
        let (prefix, local) = if end == value.len() {
            (&value[..0], value)
        } else if value[end] == b':' && ncname(value, end + 1)? == value.len() {
            (&value[..end], &value[end + 1..])
        } else {
            return Err(Unusual);
        };
        if prefix == b"xml" || prefix == b"xmlns" {
            return Err(Unusual);
        }
        let ns = match self.lookup(prefix) {
            Some(ns) => Some(ns),
            None if prefix.is_empty() => None,
            None => return Err(Unusual),
        };
        Ok(XsiType::Named(node_ns(ns, service), text_of(local)?.into()))
    }
}
