//! Reading values from a [`Node`] tree, as XmlSerializer's generated readers read them.

use std::borrow::Cow;

use super::streamed::NilFlag;
use super::{Fallback, Member, MemberError, Streamed, XmlItem};
use crate::raw_xml::{XmlContent, XmlElement};
use crate::Scalar;

/// The namespace of an element of a value tree, classified against the service's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeNs {
    /// The service's namespace: a member or item (the schema's elements are qualified).
    Service,
    /// No namespace.
    None,
    /// Another namespace.
    Other(Box<str>),
}

/// What an element's `xsi:nil` says, read as `XmlConvert.ToBoolean` reads it (white space
/// trimmed; `true` or `1`, `false` or `0`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Nil {
    /// No `xsi:nil`, or one that is false.
    No,
    /// `xsi:nil="true"`.
    Yes,
    /// A value that is no boolean (`True`): XmlSerializer's `ReadNull` refuses it where it
    /// reads it, and ignores it where it does not.
    Invalid(Box<str>),
}

impl Nil {
    /// The value of an `xsi:nil` attribute.
    pub(crate) fn read(value: Option<&str>) -> Nil {
        match value.map(|v| v.trim_matches([' ', '\t', '\r', '\n'])) {
            None | Some("false" | "0") => Nil::No,
            Some("true" | "1") => Nil::Yes,
            Some(_) => Nil::Invalid(value.unwrap_or_default().into()),
        }
    }
}

/// An element's `xsi:type`: the type it names, resolved against the namespaces in scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum XsiType {
    /// A type's namespace and local name.
    Named(NodeNs, Box<str>),
    /// A prefix no declaration in scope binds.
    UnboundPrefix(Box<str>),
}

/// One element of a value tree: its name, whether it is `xsi:nil`, its text (the direct text
/// children, joined) and its child elements. Its name and text borrow from the message where
/// they stand in it as they are (no reference to replace, no line end to normalise), so that
/// reading a class costs no copy of them; what few elements carry is out of line
/// (`Rare`), so that a node is small to move into its parent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node<'a> {
    pub(crate) local: Cow<'a, str>,
    pub(crate) text: Cow<'a, str>,
    pub(crate) children: Vec<Node<'a>>,
    /// Its `xsi:type` and attributes, if it has any.
    pub(crate) rare: Option<Box<Rare>>,
    pub(crate) nil: Nil,
    /// Where the last of its runs of text lies in `text`.
    pub(crate) last_run: std::ops::Range<u32>,
    /// How many runs of text it holds, between its child elements, comments and processing
    /// instructions, not counting those of white space only.
    pub(crate) text_runs: u32,
    /// Whether it is in the service's namespace: a member or item (the schema's elements
    /// are qualified); XmlSerializer skips the others.
    pub(crate) in_service: bool,
    /// Whether it is in no namespace: an unqualified member (`form="unqualified"`).
    pub(crate) unqualified: bool,
    /// A comment or processing instruction inside it.
    pub(crate) interrupted: bool,
}

/// What few elements of a value tree carry.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Rare {
    /// Its `xsi:type`, resolved, if it has one.
    pub(crate) xsi_type: Option<XsiType>,
    /// Its attributes in no namespace, of the XML namespace (named `xml:lang`) and of the
    /// tree's namespace (qualified attributes, named `{namespace}local`): name and value.
    pub(crate) attributes: Vec<(Box<str>, String)>,
    /// The element as it was written, when the tree keeps raw XML (an operation whose
    /// values hold an `XmlElement` or `XmlNode` inside a class or array, or an
    /// `[XmlAnyElement]` member): its prefix, attributes and declarations, and its content
    /// but for its child elements, each of which stands as a [`CHILD`] placeholder (the child's
    /// own node holds it), so that the tree holds each element once.
    pub(crate) raw: Option<XmlElement>,
}

/// The placeholder of a child element in a node's raw element: no element has an empty name.
pub(crate) const CHILD: XmlContent = XmlContent::Element(XmlElement {
    prefix: String::new(),
    local: String::new(),
    namespace: String::new(),
    attributes: Vec::new(),
    children: Vec::new(),
    end_tag: false,
});

impl Rare {
    /// Out of line when there is anything to hold.
    pub(crate) fn boxed(self) -> Option<Box<Rare>> {
        (self.xsi_type.is_some() || !self.attributes.is_empty() || self.raw.is_some())
            .then(|| Box::new(self))
    }
}

impl<'a> Node<'a> {
    /// An element named `local` in the service namespace holding `text` and nothing else:
    /// what the request scanner read of a parameter that had no child elements.
    pub(crate) fn text_only(local: &'a str, text: Cow<'a, str>) -> Node<'a> {
        Node {
            local: Cow::Borrowed(local),
            text_runs: u32::from(text.bytes().any(|b| !crate::xml::is_xml_space(b))),
            // Texts are within a message, whose offsets fit in u32.
            last_run: 0..text.len() as u32,
            text,
            children: Vec::new(),
            rare: None,
            nil: Nil::No,
            in_service: true,
            unqualified: false,
            interrupted: false,
        }
    }

    /// The element's local name.
    #[inline]
    pub fn name(&self) -> &str {
        &self.local
    }

    /// Its `xsi:type`, if it has one.
    pub(crate) fn xsi_type(&self) -> Option<&XsiType> {
        self.rare.as_ref()?.xsi_type.as_ref()
    }

    /// Whether it has attributes in no namespace.
    pub(crate) fn has_attributes(&self) -> bool {
        self.rare
            .as_ref()
            .is_some_and(|rare| !rare.attributes.is_empty())
    }

    /// Whether it carries `xsi:nil="true"`.
    #[inline]
    pub fn is_nil(&self) -> bool {
        self.nil == Nil::Yes
    }

    /// Its start tag as readers see it: its `xsi:type` and attributes.
    #[inline]
    pub(crate) fn head(&self) -> Head<'_> {
        Head(self.rare.as_deref())
    }

    /// The class its `xsi:type` names (see [`Head::class_type`]).
    pub fn class_type(&self, declared: &'static str) -> Result<Option<&str>, MemberError> {
        self.head().class_type(declared)
    }

    /// Refuses an `xsi:type` that names a class other than `declared` (see
    /// [`Head::check_class_type`]).
    pub fn check_class_type(&self, declared: &'static str) -> Result<(), MemberError> {
        self.head().check_class_type(declared)
    }

    /// The value of its attribute `name`, if it has one (see [`Head::attribute`]).
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.head().attribute(name)
    }

    /// Reads an `[XmlAttribute]` member of a simple type (see [`Head::attribute_scalar`]).
    pub fn attribute_scalar<T: Scalar + Default>(
        &self,
        name: &'static str,
    ) -> Result<T, MemberError> {
        self.head().attribute_scalar(name)
    }

    /// Reads an `[XmlAttribute]` member of a simple type that may be absent (see
    /// [`Head::attribute_optional`]).
    pub fn attribute_optional<T: Scalar>(
        &self,
        name: &'static str,
    ) -> Result<Option<T>, MemberError> {
        self.head().attribute_optional(name)
    }

    /// Reads a string `[XmlAttribute]` member: `None` when absent.
    pub fn attribute_string(&self, name: &str) -> Option<String> {
        self.attribute(name).map(str::to_owned)
    }

    /// Reads an `[XmlText]` string member: the element's text, `None` for an element without
    /// any, or with white space only (which the host's reader reports as white space, not
    /// text). Elements inside are unknown members, skipped; but text in more than one run
    /// (around an element, a comment or a processing instruction) is refused: the host keeps
    /// only the last run, which is not what was sent.
    pub fn text_content(&self) -> Result<Option<String>, MemberError> {
        if self.text_runs > 1 {
            return Err(MemberError::NotSimpleContent {
                path: String::new(),
                found: "text in more than one run, between elements or comments",
            });
        }
        Ok((self.text_runs == 1).then(|| {
            self.text[self.last_run.start as usize..self.last_run.end as usize].to_owned()
        }))
    }

    /// Whether it is null where XmlSerializer reads `xsi:nil` (`ReadNull`: a nillable element,
    /// an array); an `xsi:nil` that is no boolean is refused there.
    pub fn read_null(&self) -> Result<bool, MemberError> {
        match &self.nil {
            Nil::No => Ok(false),
            Nil::Yes => Ok(true),
            Nil::Invalid(value) => Err(MemberError::InvalidNil {
                path: String::new(),
                value: value.to_string(),
            }),
        }
    }

    /// Its child elements in the service namespace, in document order: the members of a
    /// class, the items of an array. Elements of other namespaces are unknown to
    /// XmlSerializer, which skips them.
    pub fn members(&self) -> impl Iterator<Item = &Node<'a>> {
        self.children.iter().filter(|c| c.in_service)
    }

    /// Its child elements of every namespace, in document order: a class with an
    /// `[XmlAnyElement]` member takes those that are none of its other members.
    pub fn elements(&self) -> impl Iterator<Item = &Node<'a>> {
        self.children.iter()
    }

    /// Whether it is in the service namespace (a member or item).
    pub fn in_service(&self) -> bool {
        self.in_service
    }

    /// Whether it is in no namespace: an unqualified member's element (`form="unqualified"`).
    pub fn is_unqualified(&self) -> bool {
        self.unqualified
    }

    /// The element as it was written, whole: its prefix, namespace, attributes and
    /// declarations, and all it holds; `None` unless the tree was read keeping raw XML
    /// (`OperationInfo::raw_trees`).
    pub fn raw_element(&self) -> Option<XmlElement> {
        let shallow = self.rare.as_ref()?.raw.as_ref()?;
        let mut children = self.children.iter();
        let mut element = XmlElement {
            prefix: shallow.prefix.clone(),
            local: shallow.local.clone(),
            namespace: shallow.namespace.clone(),
            attributes: shallow.attributes.clone(),
            children: Vec::with_capacity(shallow.children.len()),
            end_tag: shallow.end_tag,
        };
        for content in &shallow.children {
            element.children.push(match content {
                XmlContent::Element(placeholder) if placeholder.local.is_empty() => {
                    XmlContent::Element(children.next()?.raw_element()?)
                }
                other => other.clone(),
            });
        }
        Some(element)
    }

    /// The element whole, as an `[XmlAnyElement]` member takes it: refused when the tree did
    /// not keep raw XML (which generated code asks for wherever a class has such a member).
    pub fn any_element(&self) -> Result<crate::RawXml, MemberError> {
        self.raw_element()
            .map(crate::RawXml::new)
            .ok_or(MemberError::NoElement {
                path: self.local.to_string(),
            })
    }

    /// The attributes an `[XmlAnyAttribute]` member takes: every attribute of the element
    /// but namespace declarations and the attributes named in `known` (the class's attribute
    /// members, as [`Node::attribute`] names them, and a SOAP header's block attributes), in order, as they were written (`xsi:type`, `xsi:nil` and
    /// `xml:lang` among them, as XmlSerializer's reader takes them). Without raw XML kept, the
    /// attributes of no namespace only.
    pub fn any_attributes(&self, known: &[&str]) -> Vec<crate::raw_xml::XmlAttribute> {
        let Some(rare) = self.rare.as_ref() else {
            return Vec::new();
        };
        match &rare.raw {
            Some(raw) => raw
                .attributes
                .iter()
                .filter(|a| {
                    let known_member = (a.namespace.is_empty() && known.contains(&&*a.local))
                        || known.iter().any(|k| {
                            if a.namespace == crate::raw_xml::XML_NS {
                                k.strip_prefix("xml:") == Some(&a.local)
                            } else {
                                clark(k) == Some((&a.namespace, &a.local))
                            }
                        });
                    !(a.is_declaration() || known_member)
                })
                .cloned()
                .collect(),
            // (A qualified one, whose prefix is not kept, is left out.)
            None => rare
                .attributes
                .iter()
                .filter(|(local, _)| !known.contains(&&**local) && clark(local).is_none())
                .map(|(name, value)| match name.strip_prefix("xml:") {
                    Some(local) => crate::raw_xml::XmlAttribute {
                        prefix: "xml".to_owned(),
                        local: local.to_owned(),
                        namespace: crate::raw_xml::XML_NS.to_owned(),
                        value: value.clone(),
                    },
                    None => crate::raw_xml::XmlAttribute {
                        prefix: String::new(),
                        local: name.to_string(),
                        namespace: String::new(),
                        value: value.clone(),
                    },
                })
                .collect(),
        }
    }

    /// What the element holds as it was written, its child elements as placeholders
    /// ([`CHILD`]), in order: `None` unless the tree keeps raw XML.
    pub(crate) fn raw_content(&self) -> Option<&[XmlContent]> {
        Some(&self.rare.as_ref()?.raw.as_ref()?.children)
    }

    /// Reads a member that always has a value (a .NET value type): its text, whatever
    /// `xsi:nil` says, as `ReadElementString` reads it.
    #[inline]
    pub fn value<T: XmlItem>(
        &self,
        name: &'static str,
        items: &'static [&'static str],
    ) -> Result<T, MemberError> {
        T::read_element(self, items).map_err(|e| e.within(name))
    }

    /// Reads a member of a reference type (a string, byte array, class or array), present:
    /// as [`XmlItem::read_optional`] reads it (an array is `None` when `xsi:nil`; the others
    /// ignore `xsi:nil`, their element not being nillable).
    #[inline]
    pub fn optional<T: XmlItem>(
        &self,
        name: &'static str,
        items: &'static [&'static str],
    ) -> Result<Option<T>, MemberError> {
        T::read_optional(self, items).map_err(|e| e.within(name))
    }

    /// Reads a member of a simple type that always has a value: its text, whatever `xsi:nil`
    /// says, as `ReadElementString` reads it.
    #[inline]
    pub fn scalar<T: Scalar>(&self, name: &'static str) -> Result<T, MemberError> {
        read_scalar(self).map_err(|e| e.within(name))
    }

    /// Reads a member of a nullable simple type (`int?`): `None` when it is `xsi:nil`.
    #[inline]
    pub fn nullable<T: Scalar>(&self, name: &'static str) -> Result<Option<T>, MemberError> {
        if self.read_null().map_err(|e| e.within(name))? {
            return Ok(None);
        }
        self.scalar(name).map(Some)
    }

    /// The text of an element of a simple type, refused when it holds anything but text.
    fn simple_text(&self) -> Result<&str, MemberError> {
        if !self.children.is_empty() || self.interrupted {
            return Err(MemberError::NotSimpleContent {
                path: String::new(),
                found: if self.children.is_empty() {
                    "a comment or processing instruction"
                } else {
                    "an element"
                },
            });
        }
        Ok(&self.text)
    }
}

/// An element's start tag as a reader sees it, whether a tree's node or an element read
/// straight from the message: its `xsi:type` and attributes (what few elements carry).
#[derive(Clone, Copy)]
pub(crate) struct Head<'r>(pub(crate) Option<&'r Rare>);

impl<'r> Head<'r> {
    /// The class its `xsi:type` names, read as XmlSerializer reads it for an element of the
    /// class `declared`: `None` without one; the local name of a type of the service's
    /// namespace; otherwise (another namespace, an unbound prefix) refused, as the host
    /// refuses a type it does not know. The name is not trimmed (`" Circle "` is unknown).
    pub fn class_type(self, declared: &'static str) -> Result<Option<&'r str>, MemberError> {
        match self.0.and_then(|rare| rare.xsi_type.as_ref()) {
            None => Ok(None),
            Some(XsiType::Named(NodeNs::Service, local)) => Ok(Some(local)),
            Some(XsiType::Named(ns, local)) => Err(MemberError::UnknownType {
                path: String::new(),
                declared,
                name: local.to_string(),
                namespace: match ns {
                    NodeNs::Other(ns) => ns.to_string(),
                    _ => String::new(),
                },
            }),
            Some(XsiType::UnboundPrefix(prefix)) => Err(MemberError::UnboundPrefix {
                path: String::new(),
                prefix: prefix.to_string(),
            }),
        }
    }

    /// Refuses an `xsi:type` that names a class other than `declared`: what an element of a
    /// class without derived classes may carry is its own name or none.
    pub fn check_class_type(self, declared: &'static str) -> Result<(), MemberError> {
        match self.class_type(declared)? {
            None => Ok(()),
            Some(name) if name == declared => Ok(()),
            Some(name) => Err(MemberError::UnknownType {
                path: String::new(),
                declared,
                name: name.to_owned(),
                namespace: String::new(),
            }),
        }
    }

    /// The value of its attribute `name`, if it has one: one in no namespace by its local
    /// name, `xml:lang`, and a qualified one (`form="qualified"`, of the namespace of its
    /// class) as `{namespace}local`.
    pub fn attribute(self, name: &str) -> Option<&'r str> {
        self.0?
            .attributes
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Reads an `[XmlAttribute]` member of a simple type: its value as `XmlConvert` reads it
    /// (white space around it trimmed, as XmlSerializer trims an attribute's value for a
    /// number), the default when the attribute is absent.
    pub fn attribute_scalar<T: Scalar + Default>(
        self,
        name: &'static str,
    ) -> Result<T, MemberError> {
        match self.attribute(name) {
            None => Ok(T::default()),
            Some(value) => T::read_xml(value).map_err(|error| MemberError::InvalidValue {
                path: format!("@{name}"),
                ty: T::TYPE,
                value: value.to_owned(),
                error,
            }),
        }
    }

    /// Reads an `[XmlAttribute]` member of a simple type that may be absent (.NET's
    /// `xxxSpecified`): `None` when absent, else its value as [`Head::attribute_scalar`]
    /// reads it.
    pub fn attribute_optional<T: Scalar>(
        self,
        name: &'static str,
    ) -> Result<Option<T>, MemberError> {
        match self.attribute(name) {
            None => Ok(None),
            Some(value) => {
                T::read_xml(value)
                    .map(Some)
                    .map_err(|error| MemberError::InvalidValue {
                        path: format!("@{name}"),
                        ty: T::TYPE,
                        value: value.to_owned(),
                        error,
                    })
            }
        }
    }
}

/// Reads a simple value from its element's text.
pub(crate) fn read_scalar<T: Scalar>(node: &Node) -> Result<T, MemberError> {
    let text = node.simple_text()?;
    T::read_xml(text).map_err(|error| MemberError::InvalidValue {
        path: String::new(),
        ty: T::TYPE,
        value: text.to_owned(),
        error,
    })
}

impl XmlItem for String {
    /// Inlined, so that the element's name is the caller's constant (see
    /// [`XmlOut::scalar`](super::XmlOut::scalar)).
    #[inline(always)]
    fn write_element<N: super::ElementName, I: super::ElementName>(
        &self,
        w: &mut super::XmlOut<'_>,
        name: N,
        _items: &'static [I],
    ) -> Result<(), crate::EncodeError> {
        w.text_element(name, self)
    }

    fn read_element(node: &Node, _items: &'static [&'static str]) -> Result<Self, MemberError> {
        node.simple_text().map(str::to_owned)
    }

    #[inline]
    fn read_streamed(
        element: &mut Streamed<'_, '_>,
        _items: &'static [&'static str],
    ) -> Result<Self, Fallback> {
        element.text().map(Cow::into_owned)
    }
}

impl<T: XmlItem> XmlItem for Option<T> {
    /// An item that may be null: `None` is written `<name xsi:nil="true" />`.
    #[inline]
    fn write_element<N: super::ElementName, I: super::ElementName>(
        &self,
        w: &mut super::XmlOut<'_>,
        name: N,
        items: &'static [I],
    ) -> Result<(), crate::EncodeError> {
        match self {
            Some(value) => value.write_element(w, name, items),
            None => {
                w.nil(name);
                Ok(())
            }
        }
    }

    /// An item's element is nillable: `xsi:nil` is `None` (its `xsi:type` checked first, as
    /// XmlSerializer reads it). Otherwise the item is read as `T` reads a value that may be
    /// null (raw XML holding no node is null too).
    fn read_element(node: &Node, items: &'static [&'static str]) -> Result<Self, MemberError> {
        if node.read_null()? {
            T::check_nil_type(node)?;
            return Ok(None);
        }
        T::read_optional(node, items)
    }

    /// A nil item (its `xsi:type` to check) is read from its tree, which is one element.
    fn read_streamed(
        element: &mut Streamed<'_, '_>,
        items: &'static [&'static str],
    ) -> Result<Self, Fallback> {
        match element.nil() {
            NilFlag::No => T::read_streamed_optional(element, items),
            NilFlag::Yes => {
                let node = element.tree()?;
                Self::read_element(&node, items).map_err(|_| Fallback)
            }
            NilFlag::Invalid => Err(Fallback),
        }
    }
}

impl<T: XmlItem> XmlItem for Box<T> {
    fn check_nil_type(node: &Node) -> Result<(), MemberError> {
        T::check_nil_type(node)
    }

    fn write_element<N: super::ElementName, I: super::ElementName>(
        &self,
        w: &mut super::XmlOut<'_>,
        name: N,
        items: &'static [I],
    ) -> Result<(), crate::EncodeError> {
        (**self).write_element(w, name, items)
    }

    fn read_element(node: &Node, items: &'static [&'static str]) -> Result<Self, MemberError> {
        T::read_element(node, items).map(Box::new)
    }

    fn read_streamed(
        element: &mut Streamed<'_, '_>,
        items: &'static [&'static str],
    ) -> Result<Self, Fallback> {
        T::read_streamed(element, items).map(Box::new)
    }
}

impl<T: XmlItem> XmlItem for Vec<T> {
    /// An array, `ArrayOfX`: the element `name` holding one element per item, each named
    /// `items[0]` (`<Tags><string>a</string><string>b</string></Tags>`); an empty array is
    /// `<Tags />`.
    fn write_element<N: super::ElementName, I: super::ElementName>(
        &self,
        w: &mut super::XmlOut<'_>,
        name: N,
        items: &'static [I],
    ) -> Result<(), crate::EncodeError> {
        w.start(name);
        match items.split_first() {
            Some((item, inner)) => {
                for value in self {
                    value.write_element(w, *item, inner)?;
                }
            }
            None => {
                for value in self {
                    value.write_element::<_, &str>(w, "item", &[])?;
                }
            }
        }
        w.end(name);
        Ok(())
    }

    /// An array's element is read for `xsi:nil` (XmlSerializer's readers call `ReadNull`
    /// before an array), though the schema does not mark it nillable: nil is `None`.
    fn read_optional(
        node: &Node,
        items: &'static [&'static str],
    ) -> Result<Option<Self>, MemberError> {
        if node.read_null()? {
            return Ok(None);
        }
        Self::read_element(node, items).map(Some)
    }

    /// Every child element named `items[0]` is an item, in document order; any other is
    /// skipped, as XmlSerializer skips unknown nodes.
    fn read_element(node: &Node, items: &'static [&'static str]) -> Result<Self, MemberError> {
        let (item, inner) = items.split_first().unwrap_or((&"item", &[]));
        let mut values = Vec::new();
        for child in node.members().filter(|c| c.name() == *item) {
            let value = T::read_element(child, inner)
                .map_err(|e| e.within(&format!("{item}[{}]", values.len() + 1)))?;
            values.push(value);
        }
        Ok(values)
    }

    fn read_streamed_optional(
        element: &mut Streamed<'_, '_>,
        items: &'static [&'static str],
    ) -> Result<Option<Self>, Fallback> {
        match element.nil() {
            NilFlag::No => Self::read_streamed(element, items).map(Some),
            // Its content is not read (the caller skips it).
            NilFlag::Yes => Ok(None),
            NilFlag::Invalid => Err(Fallback),
        }
    }

    fn read_streamed(
        element: &mut Streamed<'_, '_>,
        items: &'static [&'static str],
    ) -> Result<Self, Fallback> {
        let (item, inner) = items.split_first().unwrap_or((&"item", &[]));
        let mut values = Vec::new();
        while let Some(child) = element.next_item(item)? {
            if crate::xml::same_name(child.name().as_bytes(), item.as_bytes()) {
                values.push(child.value(item, inner)?);
            }
        }
        Ok(values)
    }
}

/// `XmlItem` for the simple types: the value as `XmlConvert` writes and reads it. (`u8`,
/// .NET `byte`, has none: XmlSerializer writes a `byte[]` as base64, never as an array of
/// `unsignedByte` items, and `Vec<u8>` is that base64 value.)
macro_rules! simple_items {
    ($($rust:ty),* $(,)?) => {$(
        impl XmlItem for $rust {
            #[inline]
            fn write_element<N: super::ElementName, I: super::ElementName>(
                &self,
                w: &mut super::XmlOut<'_>,
                name: N,
                _items: &'static [I],
            ) -> Result<(), crate::EncodeError> {
                w.scalar(name, self);
                Ok(())
            }

            #[inline]
            fn read_element(
                node: &Node,
                _items: &'static [&'static str],
            ) -> Result<Self, MemberError> {
                read_scalar(node)
            }

            #[inline]
            fn read_streamed(
                element: &mut Streamed<'_, '_>,
                _items: &'static [&'static str],
            ) -> Result<Self, Fallback> {
                element.scalar()
            }
        }
    )*};
}

simple_items!(
    i8,
    i16,
    i32,
    i64,
    u16,
    u32,
    u64,
    f32,
    f64,
    bool,
    char,
    rust_decimal::Decimal,
    uuid::Uuid,
    crate::DateTime,
    Vec<u8>,
);

/// The namespace and local name of an attribute named `{namespace}local`.
fn clark(name: &str) -> Option<(&str, &str)> {
    name.strip_prefix('{')?.split_once('}')
}
