//! Values read straight from the message, without a value tree: the fast path of a class or
//! array parameter or result in the scanner's shape.
//!
//! A [`Streamed`] element is read as its tree would be, by the same generated code
//! ([`super::Members`]): the same members kept, skipped and read, so that whenever it gives a
//! value it is the value the tree gives. It gives up ([`Fallback`]) wherever it would have to
//! judge otherwise: anything outside the scanner's shape, a value that does not parse, an
//! element that breaks a rule, and what it does not read itself (text members, raw XML).
//! The caller then reads the whole message again from a tree, which also words the error;
//! an error is never answered from the stream. A type without a streamed reader of its own
//! reads its element from a tree of that element alone ([`XmlItem::read_streamed`]'s default).

use std::borrow::Cow;

use super::{Head, Members, Node, XmlItem};
use crate::raw_xml::XmlAttribute;
pub(crate) use crate::xml::NilFlag;
use crate::xml::{Stream, StreamStart, Unusual};
use crate::{RawXml, Scalar};

/// The fast path cannot read the message as the general path would (or the message is not
/// well made): read it again on the general path, which also words any error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fallback;

impl From<Unusual> for Fallback {
    fn from(_: Unusual) -> Self {
        Fallback
    }
}

/// How far an element's content has been read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Progress {
    /// Nothing but its start tag.
    Opened,
    /// Some of its children.
    Reading,
    /// All of it, to its end tag.
    Done,
}

/// An element read straight from the message, from its start tag on.
pub struct Streamed<'s, 'a> {
    stream: &'s mut Stream<'a>,
    start: StreamStart<'a>,
    progress: Progress,
    /// The operation element of a request, whose children are parameters: one of another
    /// namespace, and a simple one carrying attributes, are left to the general reader.
    operation: bool,
    /// Whether a child written without prefix is in the service's namespace (the default
    /// namespace in the element is the service's), once asked.
    plain_in_service: Option<bool>,
    /// Whether `xsi` is bound to XML Schema's instance namespace in the element, once asked.
    plain_xsi: Option<bool>,
    /// Whether the last step was a plain read that succeeded: while it holds, so does all that
    /// [`Streamed::plain_ready`] and the stream's parent checks ask (the element is being read,
    /// nothing is pending, it is not empty and within the depth bound), and the next plain read
    /// checks only the budget. Every step that is not a plain read clears it.
    plain_streak: bool,
}

impl<'s, 'a> Streamed<'s, 'a> {
    /// The element whose start tag `start` the stream just read.
    pub(crate) fn new(stream: &'s mut Stream<'a>, start: StreamStart<'a>) -> Self {
        Streamed {
            stream,
            start,
            progress: Progress::Opened,
            operation: false,
            plain_in_service: None,
            plain_xsi: None,
            plain_streak: false,
        }
    }

    /// The operation element of a request, whose children are its parameters.
    pub(crate) fn operation(stream: &'s mut Stream<'a>, start: StreamStart<'a>) -> Self {
        Streamed {
            operation: true,
            ..Streamed::new(stream, start)
        }
    }

    /// Its `xsi:nil`.
    #[inline]
    pub(crate) fn nil(&self) -> NilFlag {
        self.start.nil
    }

    fn head(&self) -> Head<'_> {
        Head(self.start.rare.as_deref())
    }

    /// Reads the rest of the element, to its end tag: what its reader left.
    #[inline]
    pub(crate) fn finish(&mut self) -> Result<(), Fallback> {
        self.plain_streak = false;
        if let Some(left) = self.stream.pending.take() {
            self.stream.skip(&left)?;
        }
        if self.progress != Progress::Done {
            self.stream.skip(&self.start)?;
            self.progress = Progress::Done;
        }
        Ok(())
    }

    /// The element read whole as a value tree, as the tree reader reads it: for a type that
    /// reads from a tree only. Nothing of it may have been read yet.
    pub fn tree(&mut self) -> Result<Node<'a>, Fallback> {
        if self.progress != Progress::Opened {
            return Err(Fallback);
        }
        self.progress = Progress::Done;
        Ok(self.stream.tree(&self.start)?)
    }

    /// [`XmlItem::read_optional`] of `T` on the element's tree: for a type that reads a nil
    /// or empty element otherwise than by default (raw XML).
    pub fn optional_from_tree<T: XmlItem>(
        &mut self,
        items: &'static [&'static str],
    ) -> Result<Option<T>, Fallback> {
        let node = self.tree()?;
        T::read_optional(&node, items).map_err(|_| Fallback)
    }

    /// Its text, for an element of a simple type (see [`Node::scalar`]); an element inside
    /// is left to the general reader.
    #[inline]
    pub fn text(&mut self) -> Result<Cow<'a, str>, Fallback> {
        if self.progress != Progress::Opened {
            return Err(Fallback);
        }
        self.progress = Progress::Done;
        Ok(self.stream.text(&self.start)?)
    }

    /// Its value, for an element of a simple type (see [`Node::scalar`]).
    #[inline]
    pub fn scalar<T: Scalar>(&mut self) -> Result<T, Fallback> {
        let text = self.text()?;
        T::read_xml(&text).map_err(|_| Fallback)
    }

    /// Refuses an `xsi:type` naming a class other than `declared` (see
    /// [`Node::check_class_type`]).
    #[inline]
    pub fn check_class_type(&self, declared: &'static str) -> Result<(), Fallback> {
        // Nearly every element carries no attribute, so no `xsi:type`.
        if self.start.rare.is_none() {
            return Ok(());
        }
        self.head().check_class_type(declared).map_err(|_| Fallback)
    }

    /// The next child read at once if it is the element `open`…`close` written plainly, of
    /// the service's namespace (see [`Members::plain_scalar`]): its text.
    // Inlined into the generated reader, so that the tags' lengths are its constants.
    #[inline(always)]
    fn plain_text(&mut self, open: &'static str, close: &'static str) -> Option<Cow<'a, str>> {
        let streak = self.plain_streak;
        if !streak && !self.plain_ready() {
            return None;
        }
        let text = self
            .stream
            .plain_child_text(&self.start, open, close, streak)?;
        self.progress = Progress::Reading;
        self.plain_streak = true;
        Some(text)
    }

    /// Whether the next child is the empty element `nil` (`<Discount xsi:nil="true" />`)
    /// exactly, `xsi` bound to XML Schema's instance namespace, of the service's namespace:
    /// read if so.
    #[inline(always)]
    fn plain_nil(&mut self, nil: &'static str) -> bool {
        if !self.plain_ready() {
            return false;
        }
        let xsi_bound = match self.plain_xsi {
            Some(known) => known,
            None => *self.plain_xsi.insert(self.stream.xsi_is_bound()),
        };
        if !xsi_bound || !self.stream.plain_child_empty(&self.start, nil) {
            return false;
        }
        self.progress = Progress::Reading;
        self.plain_streak = true;
        true
    }

    /// The next child of the service's namespace, as [`Members::next_member`] gives it,
    /// taken at once where it is `<name>` written plainly: an array's items.
    #[inline]
    pub(crate) fn next_item(
        &mut self,
        name: &'static str,
    ) -> Result<Option<StreamedMember<'_, 's, 'a>>, Fallback> {
        self.plain_streak = false;
        if self.plain_ready() {
            if let Some(start) = self.stream.plain_child_start(&self.start, name) {
                self.progress = Progress::Reading;
                self.stream.pending = Some(start);
                return Ok(Some(StreamedMember { parent: self }));
            }
        }
        self.next_child(false)
    }

    /// Whether the next child may be read plainly: none is pending, the element's are not
    /// all read, and one written without prefix is the service's.
    #[inline(always)]
    fn plain_ready(&mut self) -> bool {
        if self.progress == Progress::Done || self.operation || self.stream.pending.is_some() {
            return false;
        }
        match self.plain_in_service {
            Some(known) => known,
            None => *self
                .plain_in_service
                .insert(self.stream.default_is_service()),
        }
    }

    /// The next child, read to its start tag (a child left unread before it skipped), of the
    /// service's namespace unless `any`.
    #[inline]
    fn next_child(&mut self, any: bool) -> Result<Option<StreamedMember<'_, 's, 'a>>, Fallback> {
        self.plain_streak = false;
        if let Some(left) = self.stream.pending.take() {
            self.stream.skip(&left)?;
        }
        loop {
            if self.progress == Progress::Done {
                return Ok(None);
            }
            self.progress = Progress::Reading;
            if !self.stream.next_pending(&self.start)? {
                self.progress = Progress::Done;
                return Ok(None);
            }
            let in_service = self.stream.pending.as_ref().is_some_and(|c| c.in_service);
            if any || in_service {
                return Ok(Some(StreamedMember { parent: self }));
            }
            if self.operation {
                return Err(Fallback);
            }
            if let Some(left) = self.stream.pending.take() {
                self.stream.skip(&left)?;
            }
        }
    }
}

impl<'s, 'a> Members for Streamed<'s, 'a> {
    type Error = Fallback;
    type Member<'m>
        = StreamedMember<'m, 's, 'a>
    where
        Self: 'm;

    #[inline]
    fn next_member(&mut self) -> Result<Option<StreamedMember<'_, 's, 'a>>, Fallback> {
        self.next_child(false)
    }

    fn next_element(&mut self) -> Result<Option<StreamedMember<'_, 's, 'a>>, Fallback> {
        self.next_child(true)
    }

    #[inline(always)]
    fn plain_nullable<T: Scalar>(
        &mut self,
        open: &'static str,
        close: &'static str,
        nil: &'static str,
    ) -> Result<Option<Option<T>>, Fallback> {
        if let Some(text) = self.plain_text(open, close) {
            return T::read_xml(&text)
                .map(|v| Some(Some(v)))
                .map_err(|_| Fallback);
        }
        Ok(self.plain_nil(nil).then_some(None))
    }

    // Inlined where the generated reader calls it (see `plain_text`).
    #[inline(always)]
    fn plain_scalar<T: Scalar>(
        &mut self,
        open: &'static str,
        close: &'static str,
    ) -> Result<Option<T>, Fallback> {
        match self.plain_text(open, close) {
            Some(text) => T::read_xml(&text).map(Some).map_err(|_| Fallback),
            None => Ok(None),
        }
    }

    #[inline(always)]
    fn plain_string(
        &mut self,
        open: &'static str,
        close: &'static str,
    ) -> Result<Option<String>, Fallback> {
        Ok(self.plain_text(open, close).map(Cow::into_owned))
    }

    fn class_type(&self, declared: &'static str) -> Result<Option<&str>, Fallback> {
        self.head().class_type(declared).map_err(|_| Fallback)
    }

    fn check_class_type(&self, declared: &'static str) -> Result<(), Fallback> {
        Streamed::check_class_type(self, declared)
    }

    fn attribute_string(&self, name: &str) -> Option<String> {
        self.head().attribute(name).map(str::to_owned)
    }

    fn attribute_scalar<T: Scalar + Default>(&self, name: &'static str) -> Result<T, Fallback> {
        self.head().attribute_scalar(name).map_err(|_| Fallback)
    }

    fn attribute_optional<T: Scalar>(&self, name: &'static str) -> Result<Option<T>, Fallback> {
        self.head().attribute_optional(name).map_err(|_| Fallback)
    }

    /// Text beside elements is read as it comes, not kept: a class with a text member reads
    /// from a tree.
    fn text_content(&self) -> Result<Option<String>, Fallback> {
        Err(Fallback)
    }

    /// The start tag's attributes are resolved, not kept as written: a class with an
    /// `[XmlAnyAttribute]` member reads from a tree.
    fn any_attributes(&self, _known: &[&str]) -> Result<Vec<XmlAttribute>, Fallback> {
        Err(Fallback)
    }
}

/// A child element of a [`Streamed`] element, read to its start tag.
pub struct StreamedMember<'m, 's, 'a> {
    parent: &'m mut Streamed<'s, 'a>,
}

impl<'m, 's, 'a> StreamedMember<'m, 's, 'a> {
    #[inline]
    fn start(&self) -> &StreamStart<'a> {
        self.parent
            .stream
            .pending
            .as_ref()
            .expect("a member is handed out with its start tag pending")
    }

    /// The member's start tag, taken from the stream, and the stream to read the rest with.
    #[inline]
    fn take(self) -> (&'m mut Streamed<'s, 'a>, StreamStart<'a>) {
        let parent = self.parent;
        let start = parent
            .stream
            .pending
            .take()
            .expect("a member is handed out with its start tag pending");
        (parent, start)
    }

    /// Reads the member as an element with `read`, then whatever `read` left of it.
    #[inline]
    fn read_with<R>(
        self,
        read: impl FnOnce(&mut Streamed<'m, 'a>) -> Result<R, Fallback>,
    ) -> Result<R, Fallback> {
        let (parent, start) = self.take();
        let mut element = Streamed::new(&mut *parent.stream, start);
        let value = read(&mut element)?;
        element.finish()?;
        Ok(value)
    }

    /// The member's start tag, for an element of a simple type: a parameter of one carrying
    /// attributes (`xsi:nil` among them) is left to the general reader, which judges them.
    #[inline]
    fn take_simple(self) -> Result<(&'m mut Stream<'a>, StreamStart<'a>), Fallback> {
        let (parent, start) = self.take();
        if parent.operation && start.has_attributes() {
            return Err(Fallback);
        }
        Ok((&mut *parent.stream, start))
    }
}

impl<'m, 's, 'a> super::Member for StreamedMember<'m, 's, 'a> {
    type Error = Fallback;

    #[inline]
    fn name(&self) -> &str {
        self.start().local
    }

    fn in_service(&self) -> bool {
        self.start().in_service
    }

    fn is_unqualified(&self) -> bool {
        self.start().unqualified
    }

    #[inline]
    fn scalar<T: Scalar>(self, _name: &'static str) -> Result<T, Fallback> {
        let (stream, start) = self.take_simple()?;
        let text = stream.text(&start)?;
        T::read_xml(&text).map_err(|_| Fallback)
    }

    fn nullable<T: Scalar>(self, _name: &'static str) -> Result<Option<T>, Fallback> {
        let (stream, start) = self.take_simple()?;
        match start.nil {
            NilFlag::No => {
                let text = stream.text(&start)?;
                T::read_xml(&text).map(Some).map_err(|_| Fallback)
            }
            NilFlag::Yes => {
                // Its content, if any, is not read, as `ReadNull` skips it.
                stream.skip(&start)?;
                Ok(None)
            }
            NilFlag::Invalid => Err(Fallback),
        }
    }

    fn value<T: XmlItem>(
        self,
        _name: &'static str,
        items: &'static [&'static str],
    ) -> Result<T, Fallback> {
        self.read_with(|element| T::read_streamed(element, items))
    }

    #[inline]
    fn optional<T: XmlItem>(
        self,
        _name: &'static str,
        items: &'static [&'static str],
    ) -> Result<Option<T>, Fallback> {
        self.read_with(|element| T::read_streamed_optional(element, items))
    }

    /// Raw XML is kept by the cursor's trees only.
    fn any_element(self) -> Result<RawXml, Fallback> {
        Err(Fallback)
    }
}
