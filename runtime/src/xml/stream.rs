//! The scanner read element by element, for values read straight from the message
//! ([`crate::tree::Streamed`]) rather than from a value tree.
//!
//! It reads what [`Scanner::tree`] reads, in the same order and with the same checks (each
//! start tag counted against the same element budget and depth bound, its attributes
//! resolved by the same code), but hands each element to its reader as it comes instead of
//! building a [`Node`] of it. Anything outside the scanner's shape is [`Unusual`], as there:
//! the caller reads the message again on the general path, which also words every error.

use std::borrow::Cow;

use super::scan_tree::MAX_SCANNED_DEPTH;
use super::scanner::{scanned_text, Attributes, Scanned, ScannedStart, Scanner};
use super::{Unusual, XSI_NS};
use crate::tree::{Nil, Node, Rare};

/// A scanner inside a value: the element budget and the attribute buffer its trees share,
/// and the one start tag read and not yet taken by its reader.
pub(crate) struct Stream<'a> {
    scanner: Scanner<'a>,
    /// The service's namespace: the members' and items'.
    service: &'static [u8],
    /// The declaration's value the last member's namespace was, if it was the service's:
    /// members nearly always inherit one declaration, so comparing where it stands spares
    /// comparing its text.
    service_binding: &'a [u8],
    /// The start tag just read's attributes (reused for the next one).
    attributes: Attributes<'a>,
    /// The elements the request's or response's values may still take.
    budget: usize,
    /// A child read to its start tag and handed to its parent's reader, not yet taken (a
    /// reader reads one element at a time, so there is at most one).
    pub pending: Option<StreamStart<'a>>,
}

/// What an element's `xsi:nil` says (see [`Nil`]), without the text of an invalid one: the
/// stream words no error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NilFlag {
    No,
    Yes,
    Invalid,
}

/// An element's start tag, read: its name, namespace and `xsi:nil`, what few carry, and how
/// deep it is below its value's root (the parameter or result, at 0). Small, as it moves
/// from the scanner to the element's reader.
pub(crate) struct StreamStart<'a> {
    qname: &'a [u8],
    pub local: &'a str,
    pub rare: Option<Box<Rare>>,
    local_at: u32,
    scope: u32,
    depth: u32,
    empty: bool,
    pub in_service: bool,
    /// In no namespace: an unqualified member.
    pub unqualified: bool,
    pub nil: NilFlag,
}

impl<'a> StreamStart<'a> {
    /// Whether it carries attributes other than namespace declarations.
    #[inline]
    pub fn has_attributes(&self) -> bool {
        self.nil != NilFlag::No || self.rare.is_some()
    }
}

impl<'a> Stream<'a> {
    /// The stream of `scanner`, at a value's start tag (or before the elements holding
    /// values), `service` the service's namespace.
    pub fn new(scanner: Scanner<'a>, service: &'static str) -> Self {
        Stream {
            scanner,
            service: service.as_bytes(),
            service_binding: &[],
            attributes: Attributes::default(),
            budget: crate::tree::MAX_ELEMENTS,
            pending: None,
        }
    }

    /// The scanner, to read what follows the values.
    pub fn scanner(&mut self) -> &mut Scanner<'a> {
        &mut self.scanner
    }

    /// The element whose start tag the scanner read before the values (a request's
    /// operation element, which holds the parameters): at depth 0, its children at 1.
    pub fn opened(&mut self, start: ScannedStart<'a>) -> StreamStart<'a> {
        self.stream_start(start, "", NilFlag::No, None, 0)
    }

    fn stream_start(
        &mut self,
        start: ScannedStart<'a>,
        local: &'a str,
        nil: NilFlag,
        rare: Option<Box<Rare>>,
        depth: u32,
    ) -> StreamStart<'a> {
        StreamStart {
            qname: start.qname,
            local,
            rare,
            local_at: start.local_at,
            // At most `MAX_BINDINGS` bindings.
            scope: start.scope as u32,
            depth,
            empty: start.empty,
            in_service: start.ns.is_some_and(|ns| self.is_service(ns)),
            unqualified: start.ns.is_none(),
            nil,
        }
    }

    /// Whether `ns`, a namespace in scope, is the service's.
    #[inline]
    fn is_service(&mut self, ns: &'a [u8]) -> bool {
        if std::ptr::eq(ns, self.service_binding) {
            return true;
        }
        let service = ns == self.service;
        if service {
            self.service_binding = ns;
        }
        service
    }

    /// Whether an element written without prefix here is in the service's namespace.
    pub fn default_is_service(&mut self) -> bool {
        self.scanner
            .lookup(b"")
            .is_some_and(|ns| self.is_service(ns))
    }

    /// Reads the start tag at the scanner, `depth` levels below its value's root: counted
    /// against the budget and the depth bound, its attributes resolved, as [`Scanner::tree`]
    /// reads one.
    #[inline]
    pub fn start(&mut self, depth: u32) -> Scanned<StreamStart<'a>> {
        if self.budget == 0 || depth as usize > MAX_SCANNED_DEPTH {
            return Err(Unusual);
        }
        self.budget -= 1;
        let start = match self.scanner.plain_start() {
            Some(start) => {
                // No attributes: the tree reader, if it reads this element, finds none.
                self.attributes.len = 0;
                start
            }
            None => self.scanner.tree_start(&mut self.attributes)?,
        };
        let local = self.scanner.local_name(&start)?;
        if self.attributes.len() == 0 {
            return Ok(self.stream_start(start, local, NilFlag::No, None, depth));
        }
        let (nil, rare) = self
            .scanner
            .read_attributes(&self.attributes, self.service)?;
        let nil = match nil {
            Nil::No => NilFlag::No,
            Nil::Yes => NilFlag::Yes,
            Nil::Invalid(_) => NilFlag::Invalid,
        };
        Ok(self.stream_start(start, local, nil, rare, depth))
    }

    /// Reads to the next child element of `parent` (its text before it skipped), its start
    /// tag read; `false` once `parent`'s end tag is read.
    #[inline]
    pub fn next_child(&mut self, parent: &StreamStart<'a>) -> Scanned<Option<StreamStart<'a>>> {
        if parent.empty {
            self.scanner.leave(parent.scope as usize);
            return Ok(None);
        }
        // Text beside members is no member: read (and so checked), not kept.
        self.scanner.text_run()?;
        if self.scanner.at_end_tag() {
            self.scanner.end_tag(parent.qname, parent.scope as usize)?;
            return Ok(None);
        }
        self.start(parent.depth + 1).map(Some)
    }

    /// [`Stream::next_child`] into [`Stream::pending`]: whether there is one.
    #[inline]
    pub fn next_pending(&mut self, parent: &StreamStart<'a>) -> Scanned<bool> {
        if parent.empty {
            self.scanner.leave(parent.scope as usize);
            return Ok(false);
        }
        self.scanner.text_run()?;
        if self.scanner.at_end_tag() {
            self.scanner.end_tag(parent.qname, parent.scope as usize)?;
            return Ok(false);
        }
        self.pending = Some(self.start(parent.depth + 1)?);
        Ok(true)
    }

    /// The text of `start`, an element holding text only, and its end tag read; an element
    /// inside is [`Unusual`] (the general path refuses it).
    #[inline]
    pub fn text(&mut self, start: &StreamStart<'a>) -> Scanned<Cow<'a, str>> {
        if start.empty {
            self.scanner.leave(start.scope as usize);
            return Ok(Cow::Borrowed(""));
        }
        let span = self.scanner.text_run()?;
        self.scanner.end_tag(start.qname, start.scope as usize)?;
        Ok(scanned_text(self.scanner.source(), span))
    }

    /// Whether a plain read may take a child of `parent`: it holds one, and the child is
    /// within the budget and the depth bound, as [`Stream::start`] counts them.
    #[inline(always)]
    fn may_take_child(&self, parent: &StreamStart<'a>) -> bool {
        Self::may_hold_children(parent) && self.budget > 0
    }

    /// Whether `parent` may hold children: not empty, and within the depth bound.
    #[inline(always)]
    fn may_hold_children(parent: &StreamStart<'a>) -> bool {
        !parent.empty && (parent.depth as usize) < MAX_SCANNED_DEPTH
    }

    /// Reads the element `open`…`close` (`<Quantity>` and `</Quantity>`) at the scanner, the
    /// next child of `parent`, if that is exactly what stands there after white space: a
    /// start tag of no prefix, attribute or declaration, text, the end tag right after it.
    /// Its text, as [`Stream::text`] would give it; `None` otherwise, the scanner left where
    /// it was. Counted against the budget and the depth bound as [`Stream::start`] counts
    /// an element.
    #[inline(always)]
    pub fn plain_child_text(
        &mut self,
        parent: &StreamStart<'a>,
        open: &str,
        close: &str,
        parent_checked: bool,
    ) -> Option<Cow<'a, str>> {
        // `parent_checked`: the caller read a child of `parent` plainly just before.
        if !(parent_checked || Self::may_hold_children(parent)) || self.budget == 0 {
            return None;
        }
        let before = self.scanner.pos;
        let span = self
            .scanner
            .plain_element_at(open.as_bytes(), close.as_bytes());
        let Some(span) = span else {
            self.scanner.pos = before;
            return None;
        };
        self.budget -= 1;
        Some(scanned_text(self.scanner.source(), span))
    }

    /// Reads the start tag `<name>` (no prefix, attribute or declaration) at the scanner, of
    /// the next child of `parent`, if that is exactly what stands there after white space:
    /// what [`Stream::start`] reads from it, where the caller knows that an element written
    /// without prefix is of the service's namespace. `None` leaves the scanner where it was.
    #[inline]
    pub fn plain_child_start(
        &mut self,
        parent: &StreamStart<'a>,
        name: &'static str,
    ) -> Option<StreamStart<'a>> {
        if !self.may_take_child(parent) {
            return None;
        }
        let at = self.scanner.plain_start_tag_at(name.as_bytes())?;
        self.budget -= 1;
        Some(StreamStart {
            qname: name.as_bytes(),
            local: name,
            rare: None,
            // `new` made sure that every offset fits.
            local_at: (at + 1) as u32,
            scope: self.scanner.bound as u32,
            depth: parent.depth + 1,
            empty: false,
            in_service: true,
            unqualified: false,
            nil: NilFlag::No,
        })
    }

    /// Reads the empty element `tag` (`<Discount xsi:nil="true" />`) at the scanner, the next
    /// child of `parent`, if that is exactly what stands there after white space; counted
    /// as [`Stream::plain_child_text`] counts one. Whether it did.
    #[inline(always)]
    pub fn plain_child_empty(&mut self, parent: &StreamStart<'a>, tag: &str) -> bool {
        if !self.may_take_child(parent) {
            return false;
        }
        if !self.scanner.plain_tag_at(tag.as_bytes()) {
            return false;
        }
        self.budget -= 1;
        true
    }

    /// Whether `xsi` is bound to XML Schema's instance namespace where the scanner stands.
    pub fn xsi_is_bound(&self) -> bool {
        self.scanner.lookup(b"xsi") == Some(XSI_NS.as_bytes())
    }

    /// Reads the rest of `start`'s element, whatever it holds, to its end tag.
    pub fn skip(&mut self, start: &StreamStart<'a>) -> Scanned<()> {
        while let Some(child) = self.next_child(start)? {
            self.skip(&child)?;
        }
        Ok(())
    }

    /// The element of `start` (nothing of it read yet but its start tag, whose attributes
    /// are still the buffer's) read whole as a value tree, as the tree reader reads it.
    pub fn tree(&mut self, start: &StreamStart<'a>) -> Scanned<Node<'a>> {
        // The scanner's start tag again: only its name, scope and emptiness are read.
        let local_at = start.qname.len() - start.local.len();
        let scanned = ScannedStart {
            qname: start.qname,
            local: &start.qname[local_at..],
            local_at: start.local_at,
            ns: if start.unqualified {
                None
            } else if start.in_service {
                Some(self.service)
            } else {
                // Another namespace: its tree's nodes are not the service's either way.
                Some(b"")
            },
            empty: start.empty,
            scope: start.scope as usize,
        };
        // `start` counted itself already; the tree counts its root again (a budget one
        // element smaller only ever sends a message to the general path sooner).
        self.scanner.tree_at(
            scanned,
            &mut self.attributes,
            self.service,
            &mut self.budget,
            start.depth as usize,
        )
    }
}
