//! What a generated class reads its members from, written once for both sources: a value
//! tree's element ([`NodeMembers`]), or the message itself on the fast path
//! ([`super::Streamed`]).
//!
//! A class's generated `read_members` is generic over [`Members`]: it takes the members one
//! after the other (`next_member`), matches each by name and reads it with a [`Member`]
//! method, as XmlSerializer's generated readers take them from .NET's reader. From a tree,
//! errors are [`MemberError`]s with their paths; from the stream they are
//! [`super::Fallback`], and the message is read again from a tree, which words them.

use super::{MemberError, Node, XmlItem};
use crate::raw_xml::XmlAttribute;
use crate::{RawXml, Scalar};

/// A class's element being read: its start tag's `xsi:type`, attributes and text, and its
/// child elements one after the other.
pub trait Members {
    /// Why a value cannot be read.
    type Error;
    /// One child element, handed to the class's reader.
    type Member<'m>: Member<Error = Self::Error>
    where
        Self: 'm;

    /// The next child element of the service's namespace (a member), `None` after the last;
    /// those of other namespaces are skipped, as XmlSerializer skips unknown nodes. A member
    /// the reader leaves unread is skipped too.
    fn next_member(&mut self) -> Result<Option<Self::Member<'_>>, Self::Error>;

    /// The next child element of any namespace: a class with unqualified or
    /// `[XmlAnyElement]` members sorts them itself.
    fn next_element(&mut self) -> Result<Option<Self::Member<'_>>, Self::Error>;

    /// The next member read at once, if it is the element `open`…`close` (`<Quantity>`,
    /// `</Quantity>`) written as XmlSerializer writes a simple value, with nothing before
    /// it but white space: no prefix, attribute or declaration, text only, its end tag right
    /// after. `None` reads nothing, and the member is then read as any other (by
    /// [`Members::next_member`]); from a value tree it is always `None`.
    ///
    /// The fast path of a class's members as they are nearly always sent, in the order the
    /// class declares them: what it reads is what `next_member` and [`Member::scalar`] read
    /// from the same element, in fewer steps.
    #[inline]
    fn plain_scalar<T: Scalar>(
        &mut self,
        _open: &'static str,
        _close: &'static str,
    ) -> Result<Option<T>, Self::Error> {
        Ok(None)
    }

    /// [`Members::plain_scalar`] of a nullable member, which may also be written `nil`
    /// exactly (`<Discount xsi:nil="true" />`, as XmlSerializer writes a null, `xsi` bound
    /// as usual): `Some(None)` then, as [`Member::nullable`] reads it.
    #[inline]
    fn plain_nullable<T: Scalar>(
        &mut self,
        _open: &'static str,
        _close: &'static str,
        _nil: &'static str,
    ) -> Result<Option<Option<T>>, Self::Error> {
        Ok(None)
    }

    /// [`Members::plain_scalar`] of a string member: its text, as [`Member::optional`] reads
    /// it.
    #[inline]
    fn plain_string(
        &mut self,
        _open: &'static str,
        _close: &'static str,
    ) -> Result<Option<String>, Self::Error> {
        Ok(None)
    }

    /// The class its `xsi:type` names (see [`Node::class_type`]).
    fn class_type(&self, declared: &'static str) -> Result<Option<&str>, Self::Error>;

    /// Refuses an `xsi:type` naming a class other than `declared` (see
    /// [`Node::check_class_type`]).
    fn check_class_type(&self, declared: &'static str) -> Result<(), Self::Error>;

    /// A string `[XmlAttribute]` member: `None` when absent.
    fn attribute_string(&self, name: &str) -> Option<String>;

    /// An `[XmlAttribute]` member of a simple type (see [`Node::attribute_scalar`]).
    fn attribute_scalar<T: Scalar + Default>(&self, name: &'static str) -> Result<T, Self::Error>;

    /// An `[XmlAttribute]` member that may be absent (see [`Node::attribute_optional`]).
    fn attribute_optional<T: Scalar>(&self, name: &'static str) -> Result<Option<T>, Self::Error>;

    /// An `[XmlText]` member (see [`Node::text_content`]).
    fn text_content(&self) -> Result<Option<String>, Self::Error>;

    /// What an `[XmlAnyAttribute]` member takes (see [`Node::any_attributes`]).
    fn any_attributes(&self, known: &[&str]) -> Result<Vec<XmlAttribute>, Self::Error>;
}

/// One child element of a class's element, read as the member it is.
pub trait Member {
    /// Why a value cannot be read.
    type Error;

    /// Its local name.
    fn name(&self) -> &str;

    /// Whether it is in the service's namespace.
    fn in_service(&self) -> bool;

    /// Whether it is in no namespace (an unqualified member).
    fn is_unqualified(&self) -> bool;

    /// A member of a simple type that always has a value (see [`Node::scalar`]).
    fn scalar<T: Scalar>(self, name: &'static str) -> Result<T, Self::Error>;

    /// A member of a nullable simple type (see [`Node::nullable`]).
    fn nullable<T: Scalar>(self, name: &'static str) -> Result<Option<T>, Self::Error>;

    /// A member that always has a value (see [`Node::value`]).
    fn value<T: XmlItem>(
        self,
        name: &'static str,
        items: &'static [&'static str],
    ) -> Result<T, Self::Error>;

    /// A member of a reference type (see [`Node::optional`]).
    fn optional<T: XmlItem>(
        self,
        name: &'static str,
        items: &'static [&'static str],
    ) -> Result<Option<T>, Self::Error>;

    /// The element whole, as an `[XmlAnyElement]` member takes it (see
    /// [`Node::any_element`]).
    fn any_element(self) -> Result<RawXml, Self::Error>;
}

/// The members of a value tree's element, one after the other.
pub struct NodeMembers<'n, 'a> {
    node: &'n Node<'a>,
    children: std::slice::Iter<'n, Node<'a>>,
}

impl<'a> Node<'a> {
    /// Its members, for a class's generic reader.
    pub fn reader(&self) -> NodeMembers<'_, 'a> {
        NodeMembers {
            node: self,
            children: self.children.iter(),
        }
    }
}

impl<'n, 'a> Members for NodeMembers<'n, 'a> {
    type Error = MemberError;
    type Member<'m>
        = &'n Node<'a>
    where
        Self: 'm;

    #[inline]
    fn next_member(&mut self) -> Result<Option<&'n Node<'a>>, MemberError> {
        Ok(self.children.by_ref().find(|c| c.in_service))
    }

    fn next_element(&mut self) -> Result<Option<&'n Node<'a>>, MemberError> {
        Ok(self.children.next())
    }

    fn class_type(&self, declared: &'static str) -> Result<Option<&str>, MemberError> {
        self.node.class_type(declared)
    }

    fn check_class_type(&self, declared: &'static str) -> Result<(), MemberError> {
        self.node.check_class_type(declared)
    }

    fn attribute_string(&self, name: &str) -> Option<String> {
        self.node.attribute_string(name)
    }

    fn attribute_scalar<T: Scalar + Default>(&self, name: &'static str) -> Result<T, MemberError> {
        self.node.attribute_scalar(name)
    }

    fn attribute_optional<T: Scalar>(&self, name: &'static str) -> Result<Option<T>, MemberError> {
        self.node.attribute_optional(name)
    }

    fn text_content(&self) -> Result<Option<String>, MemberError> {
        self.node.text_content()
    }

    fn any_attributes(&self, known: &[&str]) -> Result<Vec<XmlAttribute>, MemberError> {
        Ok(self.node.any_attributes(known))
    }
}

impl Member for &Node<'_> {
    type Error = MemberError;

    #[inline]
    fn name(&self) -> &str {
        Node::name(self)
    }

    fn in_service(&self) -> bool {
        Node::in_service(self)
    }

    fn is_unqualified(&self) -> bool {
        Node::is_unqualified(self)
    }

    #[inline]
    fn scalar<T: Scalar>(self, name: &'static str) -> Result<T, MemberError> {
        Node::scalar(self, name)
    }

    fn nullable<T: Scalar>(self, name: &'static str) -> Result<Option<T>, MemberError> {
        Node::nullable(self, name)
    }

    fn value<T: XmlItem>(
        self,
        name: &'static str,
        items: &'static [&'static str],
    ) -> Result<T, MemberError> {
        Node::value(self, name, items)
    }

    #[inline]
    fn optional<T: XmlItem>(
        self,
        name: &'static str,
        items: &'static [&'static str],
    ) -> Result<Option<T>, MemberError> {
        Node::optional(self, name, items)
    }

    fn any_element(self) -> Result<RawXml, MemberError> {
        Node::any_element(self)
    }
}
