//! Writing values as XmlSerializer writes them.

use super::{ElementName, XmlItem};
use crate::{xml, EncodeError, Scalar};

/// Writes elements into a buffer (an envelope, a result document) as .NET's `XmlTextWriter`
/// does: an element given no content is closed as `<x />`, attributes go in its start tag,
/// text is escaped as [`xml::escape_text`] escapes it.
#[derive(Debug)]
pub struct XmlOut<'a> {
    out: &'a mut String,
    operation: &'static str,
    /// A start tag is open, waiting for `>` (content) or ` />` (none).
    open: bool,
    /// Indented output (an HTTP GET/POST result document): for each open element, whether it
    /// holds an element (so its end tag goes on a line of its own). `None`: one line.
    indent: Option<Vec<bool>>,
    /// Markup for the next start tag's attributes (a document root's namespace declarations).
    root_attributes: Option<&'a str>,
    /// Markup that ends the root's start tag, after its own attributes (`xmlns="…"`, which
    /// .NET's writer adds last).
    root_suffix: Option<&'a str>,
    /// A tab in an attribute's value is written `&#x9;` (a request: the server then reads the
    /// tab sent), not raw (a response, byte for byte as the host writes it).
    tab_reference: bool,
    /// The type the next start tag names with `xsi:type` (an `object`'s value of the
    /// service's types), written right after its name.
    next_type: Option<&'static str>,
    /// The prefixes declared so far for types of other namespaces (`q1`, `q2`, …): .NET's
    /// writer counts them through the message and never reuses one.
    prefixes: u32,
    /// An HTTP GET/POST document whose root is an `object` (`<anyType>`): .NET's writer
    /// declares neither `xsi` nor `xsd` on it, so the root's `xsi:type` takes the writer's own
    /// prefix `d1p1` (declared after it, and in scope below), and each type of XML Schema a
    /// prefix `qN` of its own.
    object_root: bool,
    /// `d1p1` is yet to be declared (an `object` root whose type is not written yet).
    xsi_pending: bool,
    /// An `object` root's namespace declarations, written only if it holds a class (or `new
    /// object()`): XmlSerializer writes a class's start tag with the document's declarations,
    /// a simple value's, enum's or array's without.
    class_namespaces: Option<&'a str>,
    /// `next_type` or `class_namespaces` is set, or prefixes are declared for the elements
    /// inside (`element_prefixes`): one test on the path of every start tag.
    pending: bool,
    /// The declarations in scope where the values are written, which raw XML inside them
    /// does not declare again.
    raw_scope: RawScope<'a>,
    /// How deep the element written last stands in its document (a SOAP envelope is 1):
    /// .NET's writer names a prefix it makes up after the depth of its element (`d3p1`).
    depth: u32,
    /// The prefixes declared on the open elements for the namespace they are written in (the
    /// default one), innermost last: the elements of that namespace inside take the
    /// innermost's.
    element_prefixes: Vec<ElementPrefix>,
    /// The default namespaces declared on the open elements by [`XmlOut::in_namespace`]
    /// (` xmlns=""` on an unqualified member), innermost last, each with its element's depth:
    /// an element of that namespace inside declares it no more.
    defaults: Vec<(u32, &'a str)>,
    /// Some element may not be written plainly ([`XmlOut::plain`]): the fields above that
    /// make an element's tags other than `<name>` and `</name>` are in use. Kept by
    /// [`XmlOut::settle`] wherever one of them changes, so that each element tests one flag.
    general: bool,
}

/// A prefix declared on an element for the namespace the element is written in, which is the
/// default one there: one .NET's `XmlTextWriter` makes up (`d{depth}p{n}`) for a qualified
/// attribute (`form="qualified"`, of its class's namespace: the default namespace binds no
/// attribute), declared at the end of the start tag after the attributes; or one an
/// `[XmlAnyAttribute]` member's attribute brings. Below it the writer looks a namespace's
/// prefix up before the default namespace, so the elements of that namespace inside take it
/// (`<d3p1:From>`), but one that declares its own default namespace (an unqualified member's
/// `xmlns=""`).
#[derive(Debug)]
struct ElementPrefix {
    prefix: String,
    namespace: String,
    /// The depth of the element that declares it: its scope ends with it.
    depth: u32,
    /// Made up by the writer (`d{depth}p{n}`), rather than an attribute's own.
    made: bool,
    /// Whether its declaration is written.
    declared: bool,
    /// The depth of an element inside written without it (one that declares its own default
    /// namespace), while open.
    plain: Option<u32>,
}

/// The namespace declarations in scope where an [`XmlOut`] writes, as raw XML written there
/// must know them: .NET's writer declares on a raw element only what is not in scope.
#[derive(Debug, Clone, Copy)]
pub enum RawScope<'a> {
    /// Nothing known: raw XML declares everything it uses.
    Unknown,
    /// Inside a SOAP envelope (`soap`, `xsi` and `xsd` declared on it), `default` the default
    /// namespace (the service's, or a header class's own).
    Message {
        /// The envelope's namespace.
        envelope: &'static str,
        /// The default namespace.
        default: &'a str,
    },
    /// Inside an HTTP GET/POST result document, whose root declares `xsi`, `xsd` and
    /// `default` as the default namespace.
    Document {
        /// The default namespace.
        default: &'a str,
    },
}

impl RawScope<'_> {
    /// The namespace the values are written in (the default one), where known.
    fn default_namespace(&self) -> Option<&str> {
        match self {
            RawScope::Unknown => None,
            RawScope::Message { default, .. } | RawScope::Document { default } => Some(default),
        }
    }

    fn scope(self) -> crate::raw_xml::Scope {
        use crate::raw_xml::Scope;
        match self {
            RawScope::Unknown => Scope::empty(),
            RawScope::Message { envelope, default } => Scope::message(envelope, default),
            RawScope::Document { default } => Scope::document(default),
        }
    }
}

impl<'a> XmlOut<'a> {
    /// Writes into `out`; `operation` is named in errors.
    pub fn new(out: &'a mut String, operation: &'static str) -> XmlOut<'a> {
        XmlOut {
            out,
            operation,
            open: false,
            indent: None,
            root_attributes: None,
            root_suffix: None,
            tab_reference: false,
            next_type: None,
            prefixes: 0,
            object_root: false,
            xsi_pending: false,
            class_namespaces: None,
            pending: false,
            raw_scope: RawScope::Unknown,
            depth: 0,
            element_prefixes: Vec::new(),
            defaults: Vec::new(),
            general: false,
        }
    }

    /// The writer, writing where `scope` is in scope (what raw XML need not declare).
    pub fn in_scope(mut self, scope: RawScope<'a>) -> XmlOut<'a> {
        self.raw_scope = scope;
        self
    }

    /// The writer, its first element standing at `depth + 1` in the document (in a SOAP
    /// message: 3 for a header block, 3 for a bare operation's element, 4 for a wrapped
    /// operation's parameters and result).
    pub fn at_depth(mut self, depth: u32) -> XmlOut<'a> {
        self.depth = depth;
        self
    }

    /// [`XmlOut::new`] for a request: a tab in an attribute's value is written `&#x9;`, so that
    /// the server reads it as sent (a raw one it would read as a space).
    pub fn request(out: &'a mut String, operation: &'static str) -> XmlOut<'a> {
        let mut w = XmlOut::new(out, operation);
        w.tab_reference = true;
        w
    }

    /// Writes a document's root element and what it holds, indented by two spaces a level as
    /// .NET's `XmlTextWriter` indents an HTTP GET/POST result; `root_attributes` opens the
    /// root's attributes (namespace declarations), `root_suffix` closes them, after the
    /// root's own (`xsi:type`).
    pub fn document(
        out: &'a mut String,
        operation: &'static str,
        root_attributes: &'a str,
        root_suffix: &'a str,
    ) -> XmlOut<'a> {
        XmlOut {
            out,
            operation,
            open: false,
            indent: Some(Vec::new()),
            root_attributes: Some(root_attributes),
            root_suffix: Some(root_suffix),
            tab_reference: false,
            next_type: None,
            prefixes: 0,
            object_root: false,
            xsi_pending: false,
            class_namespaces: None,
            pending: false,
            raw_scope: RawScope::Unknown,
            depth: 0,
            element_prefixes: Vec::new(),
            defaults: Vec::new(),
            general: true,
        }
    }

    /// The document's writer, not indenting (a `[ScriptService]`'s XML answer, which
    /// XmlSerializer writes without formatting).
    pub fn compact(mut self) -> XmlOut<'a> {
        self.indent = None;
        self.settle();
        self
    }

    /// [`XmlOut::document`] for a result of type `object`, whose root (`<anyType>`) declares
    /// no namespace but the service's (`root_suffix`), as .NET's writer writes a typed value
    /// there: `<anyType xmlns:q1="…XMLSchema" d1p1:type="q1:int" xmlns:d1p1="…instance"
    /// xmlns="…">`.
    /// A class (or `new object()`) there is written as in any document, `class_namespaces`
    /// (the `xsd` and `xsi` declarations) opening its attributes.
    pub fn object_document(
        out: &'a mut String,
        operation: &'static str,
        class_namespaces: &'a str,
        root_suffix: &'a str,
    ) -> XmlOut<'a> {
        let mut w = XmlOut::document(out, operation, "", root_suffix);
        w.object_root = true;
        w.xsi_pending = true;
        w.class_namespaces = Some(class_namespaces);
        w.pending = true;
        w.settle();
        w
    }

    /// The prefix `xsi`'s namespace has here.
    fn xsi(&self) -> &'static str {
        if self.object_root {
            "d1p1"
        } else {
            "xsi"
        }
    }

    /// Writes ` xsi:type="{prefix}:{type_name}"` (no prefix for a type of the service) in the
    /// open start tag; on an `object` root, then the declaration of `d1p1`.
    fn type_attribute(&mut self, prefix: Option<&str>, type_name: &str) {
        debug_assert!(self.open, "attributes belong in an open start tag");
        self.out.push(' ');
        self.out.push_str(self.xsi());
        self.out.push_str(":type=\"");
        if let Some(prefix) = prefix {
            self.out.push_str(prefix);
            self.out.push(':');
        } else if let Some(top) = self.element_prefixes.last().filter(|t| t.plain.is_none()) {
            // A type of the service inside an element that declared a prefix for its
            // namespace.
            self.out.push_str(&top.prefix);
            self.out.push(':');
        }
        self.out.push_str(type_name);
        self.out.push('"');
        if std::mem::take(&mut self.xsi_pending) {
            self.out.push_str(" xmlns:d1p1=\"");
            self.out.push_str(xml::XSI_NS);
            self.out.push('"');
        }
    }

    /// Ends the next start tag's attributes with `xmlns` (` xmlns="…"`): the one element of a
    /// bare operation's parameter or result, which stands in the Body with no wrapper to
    /// inherit the service namespace from; a header block's; an unqualified member's
    /// (` xmlns=""`).
    pub fn qualify_first(&mut self, xmlns: &'a str) {
        // The start tag still open is the parent's, which the suffix is not for.
        self.close_start();
        self.root_suffix = Some(xmlns);
        self.settle();
    }

    /// The next element (written right after) is of the namespace `namespace`, which
    /// `xmlns` declares as the default one (` xmlns=""` for an unqualified member, of no
    /// namespace): declared on it, after its attributes, unless an element it stands in
    /// declared it already, as .NET's writer declares a namespace only where it is not in
    /// scope (`<Seat xmlns=""><City>…</City></Seat>`, the members of an unqualified member's
    /// class unqualified too).
    pub fn in_namespace(&mut self, namespace: &'a str, xmlns: &'a str) {
        // The start tag still open is the parent's, which the declaration is not for.
        self.close_start();
        if self.defaults.last().is_some_and(|(_, ns)| *ns == namespace) {
            return;
        }
        self.root_suffix = Some(xmlns);
        self.defaults.push((self.depth + 1, namespace));
        self.settle();
    }

    /// Writes `markup` (attributes, each with its leading space) right after the next start
    /// tag's name, before its own attributes: a SOAP header block's `soap:mustUnderstand`.
    pub(crate) fn attributes_first(&mut self, markup: &'a str) {
        self.root_attributes = Some(markup);
        self.settle();
    }

    /// Ends the attributes of an open start tag: the root's suffix, once.
    /// A prefix made up for a qualified attribute is declared here too, before the suffix
    /// (`qualified_prefix` sets an empty suffix where there is none, so that the common path
    /// tests one thing).
    #[inline]
    fn end_attributes(&mut self) {
        if let Some(suffix) = self.root_suffix.take() {
            if !self.element_prefixes.is_empty() {
                self.declare_made_prefixes();
            }
            self.out.push_str(suffix);
            self.settle();
        }
    }

    /// Writes the made-up prefixes' declarations, once, after the attributes of their element.
    #[cold]
    fn declare_made_prefixes(&mut self) {
        for made in self.element_prefixes.iter_mut().filter(|p| !p.declared) {
            made.declared = true;
            self.out.push_str(" xmlns:");
            self.out.push_str(&made.prefix);
            self.out.push_str("=\"");
            self.out.push_str(&made.namespace);
            self.out.push('"');
        }
    }

    /// Whether the element at the current depth takes the innermost element prefix: inside
    /// its element, and not declaring a default namespace of its own (`starting`, the
    /// element's start tag: an `xmlns` waits for it) nor inside one that does. At the end of
    /// the element that declared prefixes, they go out of scope.
    #[cold]
    fn takes_element_prefix(&mut self, starting: bool) -> bool {
        let depth = self.depth;
        let own_default = self.root_suffix.is_some();
        if !starting {
            // Its own declarations end with it; its name took what was in scope before them.
            self.element_prefixes.retain(|p| p.depth != depth);
            self.settle();
        }
        let Some(top) = self.element_prefixes.last_mut() else {
            return false;
        };
        if starting {
            if top.plain.is_some() {
                return false;
            }
            if own_default {
                top.plain = Some(depth);
                return false;
            }
            return true;
        }
        match top.plain {
            Some(plain) => {
                if plain == depth {
                    top.plain = None;
                }
                false
            }
            None => true,
        }
    }

    /// Writes ` {prefix}:` for a qualified attribute of `namespace` in the open start tag: the
    /// prefix declared for it in scope, or one made up now (`d{depth}p{n}`) and declared when
    /// the start tag ends.
    fn qualified_prefix(&mut self, namespace: &'static str) {
        debug_assert!(self.open, "attributes belong in an open start tag");
        let found = self
            .element_prefixes
            .iter()
            .rposition(|p| p.namespace == namespace);
        let at = match found {
            Some(at) => at,
            None => {
                let depth = self.depth;
                let made_here = self
                    .element_prefixes
                    .iter()
                    .filter(|p| p.depth == depth && p.made)
                    .count();
                self.element_prefixes.push(ElementPrefix {
                    prefix: format!("d{depth}p{}", made_here + 1),
                    namespace: namespace.to_owned(),
                    depth,
                    made: true,
                    declared: false,
                    plain: None,
                });
                // Declared when the start tag ends (see `end_attributes`); the elements inside
                // take it (see `start_pending`).
                self.root_suffix.get_or_insert("");
                self.pending = true;
                self.settle();
                self.element_prefixes.len() - 1
            }
        };
        self.out.push(' ');
        self.out.push_str(&self.element_prefixes[at].prefix);
        self.out.push(':');
    }

    /// Writes a qualified `[XmlAttribute(Form = Qualified)]` string member (of its class's
    /// namespace `namespace`), as .NET's writer writes it: with a prefix bound to that
    /// namespace, which .NET's writer makes up where none is in scope (`d{depth}p{n}`,
    /// declared after the attributes; the elements of that namespace inside then take it);
    /// nothing for `None`.
    pub fn qualified_attribute_string(
        &mut self,
        namespace: &'static str,
        local: &'static str,
        value: Option<&String>,
    ) -> Result<(), EncodeError> {
        let Some(value) = value else {
            return Ok(());
        };
        self.qualified_prefix(namespace);
        self.out.push_str(local);
        self.quoted_value(local, value)
    }

    /// Writes a qualified `[XmlAttribute(Form = Qualified)]` member of a simple type (see
    /// [`XmlOut::qualified_attribute_string`]).
    pub fn qualified_attribute_scalar<T: Scalar>(
        &mut self,
        namespace: &'static str,
        local: &'static str,
        value: &T,
    ) {
        self.qualified_prefix(namespace);
        self.out.push_str(local);
        self.out.push_str("=\"");
        value.write_xml(self.out);
        self.out.push('"');
    }

    #[inline]
    fn close_start(&mut self) {
        if self.open {
            self.end_attributes();
            self.out.push('>');
            self.open = false;
        }
    }

    /// Starts the element `name` (its start tag stays open for attributes).
    #[inline(always)]
    pub fn start<N: ElementName>(&mut self, name: N) {
        if self.plain() {
            // What `start_in_scope` writes here, inline (see `scalar`).
            self.close_start();
            self.depth += 1;
            name.write_start(self.out);
            self.open = true;
            return;
        }
        self.start_in_scope(name.name());
    }

    /// [`XmlOut::start`] where the element is not written plainly.
    fn start_in_scope(&mut self, name: &str) {
        self.close_start();
        if let Some(open) = &mut self.indent {
            if let Some(parent) = open.last_mut() {
                *parent = true;
                self.out.push('\n');
                for _ in 0..open.len() {
                    self.out.push_str("  ");
                }
            }
            open.push(false);
        }
        self.depth += 1;
        self.out.push('<');
        if self.pending {
            self.start_pending(name);
            return;
        }
        self.out.push_str(name);
        if let Some(attributes) = self.root_attributes.take() {
            self.out.push_str(attributes);
        }
        self.open = true;
        self.settle();
    }

    /// [`XmlOut::start`] where something waits for the start tag: a prefix declared for the
    /// elements inside, which its name takes; `xsi:type` naming an `object`'s type; an
    /// `object` root's declarations, which are no longer wanted once it has started.
    #[cold]
    fn start_pending(&mut self, name: &str) {
        if !self.element_prefixes.is_empty() && self.takes_element_prefix(true) {
            let top = self.element_prefixes.last().expect("checked");
            self.out.push_str(&top.prefix);
            self.out.push(':');
        }
        self.out.push_str(name);
        if let Some(attributes) = self.root_attributes.take() {
            self.out.push_str(attributes);
        }
        self.open = true;
        self.pending = !self.element_prefixes.is_empty();
        self.class_namespaces = None;
        if let Some(type_name) = self.next_type.take() {
            self.type_attribute(None, type_name);
        }
        self.settle();
    }

    /// Names `type_name` (a type of the service, so without prefix: the service namespace is
    /// the default one) with `xsi:type` on the next start tag: an `object` holding a value of
    /// it, which XmlSerializer writes with its type whatever the element.
    pub fn next_type(&mut self, type_name: &'static str) {
        self.next_type = Some(type_name);
        self.pending = true;
        self.settle();
    }

    /// Writes `xsi:type="xsd:{type_name}"` in the open start tag: an `object` holding a value
    /// of XML Schema's type (`xsd` is declared on the envelope or the document's root).
    pub(crate) fn xsd_type(&mut self, type_name: &str) {
        if self.object_root {
            self.foreign_type(xml::XSD_NS, type_name);
        } else {
            self.type_attribute(Some("xsd"), type_name);
        }
    }

    /// Writes `xmlns:qN="{namespace}" xsi:type="qN:{type_name}"` in the open start tag, `N`
    /// the next number of the message: an `object` holding a value of a type of a namespace
    /// not declared (ASMX's `char` and `guid`), as .NET's `GetQualifiedName` declares one.
    pub(crate) fn foreign_type(&mut self, namespace: &str, type_name: &str) {
        debug_assert!(self.open, "attributes belong in an open start tag");
        self.prefixes += 1;
        let prefix = format!("q{}", self.prefixes);
        self.out.push_str(" xmlns:");
        self.out.push_str(&prefix);
        self.out.push_str("=\"");
        self.out.push_str(namespace);
        self.out.push('"');
        self.type_attribute(Some(&prefix), type_name);
    }

    /// Writes text that holds nothing to escape (a simple value's); nothing for an empty one.
    pub(crate) fn raw_text(&mut self, text: &str) {
        if !text.is_empty() {
            self.close_start();
            self.out.push_str(text);
        }
    }

    /// Writes the element `name` as a class (`members`), with `xsi:type="{type_name}"` when
    /// the value's class is not the element's declared one (a derived class's value, where
    /// the service namespace is the default one, so the name needs no prefix).
    pub fn class<N: ElementName>(
        &mut self,
        name: N,
        type_name: Option<&'static str>,
        members: impl FnOnce(&mut Self) -> Result<(), EncodeError>,
    ) -> Result<(), EncodeError> {
        if self.pending {
            if let Some(namespaces) = self.class_namespaces.take() {
                // An `object` root holding a class: a document as any other.
                self.root_attributes = Some(namespaces);
                self.object_root = false;
                self.xsi_pending = false;
                self.settle();
            }
        }
        self.start(name);
        if let Some(type_name) = type_name {
            self.type_attribute(None, type_name);
        }
        members(self)?;
        self.end(name);
        Ok(())
    }

    /// Writes the attribute `name` of the open start tag, its value escaped as .NET's
    /// `XmlTextWriter` escapes an attribute's: `&`, `<`, `>`, `"`, and line feed and carriage
    /// return as character references (a tab stays raw, as the host writes it, though a reader
    /// normalises it to a space; but `&#x9;` in a request).
    pub fn attribute(&mut self, name: &'static str, value: &str) -> Result<(), EncodeError> {
        debug_assert!(self.open, "attributes belong in an open start tag");
        self.out.push(' ');
        self.out.push_str(name);
        self.quoted_value(name, value)
    }

    /// Writes `="value"` after an attribute's name, the value escaped (see
    /// [`XmlOut::attribute`]); `field` names the member in an error.
    fn quoted_value(&mut self, field: &'static str, value: &str) -> Result<(), EncodeError> {
        self.out.push_str("=\"");
        escape_attribute(self.out, value, self.tab_reference).map_err(|code| {
            EncodeError::InvalidXmlChar {
                operation: self.operation,
                field,
                code,
            }
        })?;
        self.out.push('"');
        Ok(())
    }

    /// Writes an `[XmlAttribute]` member of a simple type, as `XmlConvert` writes it.
    pub fn attribute_scalar<T: Scalar>(&mut self, name: &'static str, value: &T) {
        let mut text = String::new();
        value.write_xml(&mut text);
        // A simple value's text holds nothing to escape but a string's.
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        self.out.push_str(&text);
        self.out.push('"');
    }

    /// Writes a string `[XmlAttribute]` member: nothing for `None`.
    pub fn attribute_string(
        &mut self,
        name: &'static str,
        value: Option<&String>,
    ) -> Result<(), EncodeError> {
        match value {
            Some(value) => self.attribute(name, value),
            None => Ok(()),
        }
    }

    /// Writes an `[XmlText]` member: its text, nothing for `None`.
    pub fn text_content<T: Scalar>(&mut self, value: Option<&T>) {
        if let Some(value) = value {
            let mut text = String::new();
            value.write_xml(&mut text);
            if !text.is_empty() {
                self.close_start();
                self.out.push_str(&text);
            }
        }
    }

    /// Writes a string `[XmlText]` member, escaped: nothing for `None` or `""`.
    pub fn text_string(
        &mut self,
        field: &'static str,
        value: Option<&String>,
    ) -> Result<(), EncodeError> {
        match value {
            Some(value) => self.text(field, value),
            None => Ok(()),
        }
    }

    /// Adds precomputed attribute markup (` xsi:type="Circle"`) to the open start tag.
    #[inline]
    pub fn attribute_markup(&mut self, markup: &str) {
        debug_assert!(self.open, "attributes belong in an open start tag");
        self.out.push_str(markup);
    }

    /// Ends the element `name`: `<name />` when nothing was written in it.
    #[inline(always)]
    pub fn end<N: ElementName>(&mut self, name: N) {
        if self.plain() {
            // What `end_in_scope` writes here, inline (see `scalar`).
            if self.open {
                self.out.push_str(" />");
                self.open = false;
            } else {
                name.write_close(self.out);
            }
            self.depth = self.depth.wrapping_sub(1);
            return;
        }
        self.end_in_scope(name.name());
    }

    /// [`XmlOut::end`] where the element is not written plainly.
    fn end_in_scope(&mut self, name: &str) {
        let held_elements = match &mut self.indent {
            Some(open) => open.pop().unwrap_or(false),
            None => false,
        };
        if self.open {
            self.end_attributes();
            self.out.push_str(" />");
            self.open = false;
            if !self.element_prefixes.is_empty() {
                self.takes_element_prefix(false);
            }
        } else {
            let prefixed = !self.element_prefixes.is_empty() && self.takes_element_prefix(false);
            if held_elements {
                self.out.push('\n');
                let depth = self.indent.as_ref().map_or(0, Vec::len);
                for _ in 0..depth {
                    self.out.push_str("  ");
                }
            }
            self.out.push_str("</");
            if prefixed {
                let top = self.element_prefixes.last().expect("still in scope");
                self.out.push_str(&top.prefix);
                self.out.push(':');
            }
            self.out.push_str(name);
            self.out.push('>');
        }
        // The default namespace it declared ends with it.
        if self.defaults.last().is_some_and(|(d, _)| *d == self.depth) {
            self.defaults.pop();
            self.settle();
        }
        // (Balanced with `start`, but for a misuse, which must not panic.)
        self.depth = self.depth.wrapping_sub(1);
    }

    /// Writes `element` (raw XML) where the writer stands, as .NET's `XmlNode.WriteTo` writes
    /// it there: its attributes as they are, then a declaration for each namespace it uses
    /// that is not in scope; in a document, indented as the writer indents. `field` names the
    /// member in an error.
    pub fn raw_element(
        &mut self,
        field: &'static str,
        element: &crate::raw_xml::XmlElement,
    ) -> Result<(), EncodeError> {
        self.close_start();
        let depth = match &mut self.indent {
            Some(open) => {
                if let Some(parent) = open.last_mut() {
                    *parent = true;
                    self.out.push('\n');
                    for _ in 0..open.len() {
                        self.out.push_str("  ");
                    }
                }
                Some(open.len())
            }
            None => None,
        };
        let mut scope = self.scope();
        crate::raw_xml::write_element_at(self.out, element, &mut scope, self.tab_reference, depth)
            .map_err(|code| EncodeError::InvalidXmlChar {
                operation: self.operation,
                field,
                code,
            })
    }

    /// Writes `attributes` (an `[XmlAnyAttribute]` member's) in the open start tag, each as it
    /// is, then a declaration for each prefix not in scope, last first, as .NET's writer
    /// declares them when it ends the tag. `field` names the member in an error.
    pub fn any_attributes(
        &mut self,
        field: &'static str,
        attributes: &[crate::raw_xml::XmlAttribute],
    ) -> Result<(), EncodeError> {
        debug_assert!(self.open, "attributes belong in an open start tag");
        if attributes.is_empty() {
            return Ok(());
        }
        let invalid = |code| EncodeError::InvalidXmlChar {
            operation: self.operation,
            field,
            code,
        };
        let mut scope = self.scope();
        let mut declared: Vec<(&str, &str)> = Vec::new();
        for a in attributes.iter().filter(|a| !a.is_declaration()) {
            self.out.push(' ');
            if !a.prefix.is_empty() {
                self.out.push_str(&a.prefix);
                self.out.push(':');
                if !scope.binds(&a.prefix, &a.namespace)
                    && !declared.iter().any(|(p, _)| *p == a.prefix)
                {
                    declared.push((&a.prefix, &a.namespace));
                }
            }
            self.out.push_str(&a.local);
            self.out.push_str("=\"");
            escape_attribute(self.out, &a.value, self.tab_reference).map_err(invalid)?;
            self.out.push('"');
        }
        for (prefix, namespace) in declared.iter().rev() {
            crate::raw_xml::declaration(self.out, prefix, namespace).map_err(invalid)?;
            scope.bind(prefix, namespace);
        }
        // A prefix declared here for the namespace the element is written in: the elements
        // inside take it (the last one declared, as .NET's writer finds it first).
        if let Some(default) = self.raw_scope.default_namespace() {
            for (prefix, namespace) in &declared {
                if *namespace == default {
                    self.element_prefixes.push(ElementPrefix {
                        prefix: (*prefix).to_owned(),
                        namespace: (*namespace).to_owned(),
                        depth: self.depth,
                        made: false,
                        declared: true,
                        plain: None,
                    });
                    self.pending = true;
                }
            }
        }
        self.settle();
        Ok(())
    }

    /// The declarations in scope where the writer stands: the message's or document's, and
    /// the prefixes the open elements declared for their namespace.
    fn scope(&self) -> crate::raw_xml::Scope {
        let mut scope = self.raw_scope.scope();
        for declared in &self.element_prefixes {
            scope.bind(&declared.prefix, &declared.namespace);
        }
        scope
    }

    /// Writes a CDATA section holding `text` (an `XmlNode` that is one).
    pub fn cdata(&mut self, field: &'static str, text: &str) -> Result<(), EncodeError> {
        crate::raw_xml::check_chars(text).map_err(|code| EncodeError::InvalidXmlChar {
            operation: self.operation,
            field,
            code,
        })?;
        self.close_start();
        self.out.push_str("<![CDATA[");
        self.out.push_str(text);
        self.out.push_str("]]>");
        Ok(())
    }

    /// Writes text, escaped; nothing for an empty text (so the element stays empty). `field`
    /// names the element in an error.
    pub fn text(&mut self, field: &'static str, text: &str) -> Result<(), EncodeError> {
        if text.is_empty() {
            return Ok(());
        }
        self.close_start();
        self.escaped(field, text)
    }

    /// Appends `text` escaped; `field` names the element in an error.
    #[inline(always)]
    fn escaped(&mut self, field: &'static str, text: &str) -> Result<(), EncodeError> {
        xml::escape_text(self.out, text).map_err(|code| EncodeError::InvalidXmlChar {
            operation: self.operation,
            field,
            code,
        })
    }

    /// Writes `<name>text</name>`, the text escaped (a string's element); `<name />` for an
    /// empty text.
    #[inline(always)]
    pub fn text_element<N: ElementName>(&mut self, name: N, text: &str) -> Result<(), EncodeError> {
        if self.plain() && !text.is_empty() {
            // What `start`, `text` and `end` write here, inline (see `scalar`).
            self.close_start();
            name.write_open(self.out);
            self.escaped(name.name(), text)?;
            name.write_close(self.out);
            return Ok(());
        }
        self.start(name);
        self.text(name.name(), text)?;
        self.end(name);
        Ok(())
    }

    /// Writes `<name xsi:nil="true" />`, a null that XmlSerializer writes (a nullable value
    /// type, a nil item of an array).
    #[inline(always)]
    pub fn nil<N: ElementName>(&mut self, name: N) {
        if self.plain() && !self.object_root {
            self.close_start();
            name.write_nil(self.out);
            return;
        }
        self.nil_in_scope(name.name());
    }

    /// [`XmlOut::nil`] where the element is not written plainly.
    fn nil_in_scope(&mut self, name: &'static str) {
        self.start(name);
        if self.object_root {
            // Below an `object` root .NET's writer declares `xsd` on a null as it writes it.
            self.out.push_str(" xmlns:xsd=\"");
            self.out.push_str(xml::XSD_NS);
            self.out.push_str("\" d1p1:nil=\"true\"");
        } else {
            self.out.push_str(" xsi:nil=\"true\"");
        }
        self.end(name);
    }

    /// Whether the next element is written as plainly as can be: on one line, no prefix,
    /// declaration or attribute waiting for it or in scope that it would have to handle.
    #[inline(always)]
    fn plain(&self) -> bool {
        !self.general
    }

    /// Notes whether an element may not be written plainly, after a change to what decides
    /// it (see [`XmlOut::general`]).
    fn settle(&mut self) {
        self.general = self.indent.is_some()
            || self.pending
            || self.root_attributes.is_some()
            || self.root_suffix.is_some()
            || !self.element_prefixes.is_empty()
            || !self.defaults.is_empty();
    }

    /// Writes `<name>value</name>`, a simple value as `XmlConvert` writes it.
    #[inline(always)]
    pub fn scalar<T: Scalar, N: ElementName>(&mut self, name: N, value: &T) {
        if self.plain() {
            // What `start`, `close_start` and `end` write here, inline, so that the name's
            // length (or the tag) is the caller's constant.
            self.close_start();
            name.write_open(self.out);
            let before = self.out.len();
            value.write_xml(self.out);
            if self.out.len() == before {
                self.out.truncate(before - 1);
                self.out.push_str(" />");
            } else {
                name.write_close(self.out);
            }
            return;
        }
        self.scalar_in_scope(name.name(), value);
    }

    /// [`XmlOut::scalar`] where the element is not written plainly.
    fn scalar_in_scope<T: Scalar>(&mut self, name: &'static str, value: &T) {
        self.start(name);
        self.close_start();
        let before = self.out.len();
        value.write_xml(self.out);
        if self.out.len() == before {
            // No text (an empty byte array): the element is written empty, `<name />`.
            self.out.truncate(before - 1);
            self.open = true;
        }
        self.end(name);
    }

    /// Writes a nullable simple value (`int?`): `xsi:nil` for `None`.
    #[inline(always)]
    pub fn nullable<T: Scalar, N: ElementName>(&mut self, name: N, value: Option<&T>) {
        match value {
            Some(value) => self.scalar(name, value),
            None => self.nil(name),
        }
    }

    /// Writes a member that always has a value.
    #[inline]
    pub fn value<T: XmlItem, N: ElementName, I: ElementName>(
        &mut self,
        name: N,
        items: &'static [I],
        value: &T,
    ) -> Result<(), EncodeError> {
        value.write_element(self, name, items)
    }

    /// Writes a reference member (a string, a class, an array): nothing at all for `None`,
    /// as XmlSerializer leaves out a null member whose element is not nillable.
    #[inline]
    pub fn optional<T: XmlItem, N: ElementName, I: ElementName>(
        &mut self,
        name: N,
        items: &'static [I],
        value: Option<&T>,
    ) -> Result<(), EncodeError> {
        match value {
            Some(value) => value.write_element(self, name, items),
            None => Ok(()),
        }
    }

    /// Writes a nillable reference member: `xsi:nil` for `None`.
    #[inline]
    pub fn nillable<T: XmlItem, N: ElementName, I: ElementName>(
        &mut self,
        name: N,
        items: &'static [I],
        value: Option<&T>,
    ) -> Result<(), EncodeError> {
        match value {
            Some(value) => value.write_element(self, name, items),
            None => {
                self.nil(name);
                Ok(())
            }
        }
    }

    /// How many bytes are in the buffer: a streamed response sends them as a chunk once there
    /// are enough.
    #[cfg(feature = "server")]
    pub(crate) fn written_len(&self) -> usize {
        self.out.len()
    }

    /// Takes what is written so far out of the buffer, which goes on with the same capacity.
    /// Between values only (a streamed response's items): what the writer writes next only
    /// appends, so the markup taken out is final.
    #[cfg(feature = "server")]
    pub(crate) fn take_written(&mut self) -> String {
        let capacity = self.out.capacity();
        std::mem::replace(self.out, String::with_capacity(capacity))
    }

    /// Closes any start tag left open; call before writing markup after the last value.
    #[inline]
    pub fn finish(mut self) {
        self.close_start();
    }
}

/// Appends an attribute's value escaped as .NET's `XmlTextWriter` escapes it (see
/// [`XmlOut::attribute`]); a tab as `&#x9;` when `tab_reference`. The error is the code point
/// of a character XML cannot carry.
pub(crate) fn escape_attribute(
    out: &mut String,
    value: &str,
    tab_reference: bool,
) -> Result<(), u32> {
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' if tab_reference => out.push_str("&#x9;"),
            '\n' => out.push_str("&#xA;"),
            '\r' => out.push_str("&#xD;"),
            c if (c < ' ' && c != '\t') || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                return Err(c as u32)
            }
            c => out.push(c),
        }
    }
    Ok(())
}
