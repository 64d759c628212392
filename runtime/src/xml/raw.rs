//! The cursor reading raw XML (`crate::raw_xml`): an element as .NET's DOM holds it, prefixes,
//! declarations, comments and white space kept.

use std::borrow::Cow;

use quick_xml::events::Event;
use quick_xml::name::{PrefixDeclaration, ResolveResult};

use super::check::{normalize_newlines, to_str};
use super::cursor::{is_xml_space, Element, XmlCursor};
use super::TreeError;
use crate::raw_xml::{RawNode, XmlAttribute, XmlContent, XmlElement, XMLNS_NS};

/// What an element holding raw XML held (a parameter's or result's element).
#[derive(Debug, Default)]
pub(crate) struct RawContent {
    /// Its first child element, read whole; `None` without one.
    pub element: Option<XmlElement>,
    /// Text (not white space) came before any element: .NET cannot make an `XmlElement` of
    /// it, and refuses the message ("Specified cast is not valid.").
    pub text_first: bool,
    /// That text as the first node, what an `XmlNode` reads: a text node (its pieces joined,
    /// white space around kept) or a CDATA section.
    pub first_text: Option<RawNode>,
}

impl RawContent {
    /// What an `XmlNode` reads of it: the text first, else the element.
    pub(crate) fn into_node(self) -> Option<RawNode> {
        match (self.first_text, self.element) {
            (Some(text), _) => Some(text),
            (None, element) => element.map(|e| RawNode::Element(crate::RawXml::new(e))),
        }
    }
}

/// Whether `text` is XML white space alone (or nothing).
pub(crate) fn is_blank(text: &str) -> bool {
    text.bytes().all(is_xml_space)
}

impl<'a, const N: usize> XmlCursor<'a, N> {
    /// Reads what the element just started (`holder`) holds, as XmlSerializer reads an
    /// `XmlElement` member: comments, processing instructions and white space before the
    /// first element skipped, the first element read whole, anything after it skipped.
    pub(crate) fn raw_content(
        &mut self,
        holder: &Element<'a>,
        budget: &mut crate::tree::Budget,
    ) -> Result<RawContent, TreeError> {
        let mut content = RawContent::default();
        if holder.empty {
            return Ok(content);
        }
        let depth = self.depth();
        // The run of text being read before any element (its pieces make one node).
        let mut run: Option<String> = None;
        loop {
            let (_, event) = self.raw_event()?;
            if !matches!(event, Event::Text(_) | Event::GeneralRef(_)) {
                // A run of text ends: the first node, unless it is white space alone.
                if let Some(text) = run.take() {
                    if !is_blank(&text) {
                        content.text_first = true;
                        content.first_text = Some(RawNode::Text(text));
                    }
                }
            }
            let before = content.element.is_none() && !content.text_first;
            match event {
                Event::Start(start) | Event::Empty(start) if before => {
                    let empty = self.depth() == depth;
                    let element = Element {
                        ns: super::Ns::None,
                        start,
                        empty,
                    };
                    content.element = Some(self.raw_element(element, budget)?);
                }
                Event::Start(_) => self.skip_to_depth(depth)?,
                Event::Text(piece) if before => {
                    let text = normalize_newlines(to_str(piece.into_inner())?);
                    run.get_or_insert_with(String::new).push_str(&text);
                }
                Event::GeneralRef(reference) if before => {
                    let c = self.reference(&reference)?;
                    run.get_or_insert_with(String::new).push(c);
                }
                Event::CData(piece) if before => {
                    let text = normalize_newlines(to_str(piece.into_inner())?);
                    content.text_first = true;
                    content.first_text = Some(RawNode::CData(text.into_owned()));
                }
                Event::End(_) => return Ok(content),
                Event::DocType(_) => return Err(super::XmlError::Doctype.into()),
                Event::Eof => return Err(self.malformed("unexpected end of document").into()),
                _ => {}
            }
        }
    }

    /// Reads the element just started and everything in it.
    pub(crate) fn raw_element(
        &mut self,
        element: Element<'a>,
        budget: &mut crate::tree::Budget,
    ) -> Result<XmlElement, TreeError> {
        if budget.elements == 0 {
            return Err(TreeError::TooLarge);
        }
        budget.elements -= 1;
        let mut raw = self.raw_start(&element)?;
        if element.empty {
            return Ok(raw);
        }
        loop {
            let (ns, event) = self.raw_event()?;
            self.raw_piece(&mut raw.children, &event)?;
            let child = match event {
                Event::Start(start) => Element {
                    ns,
                    start,
                    empty: false,
                },
                Event::Empty(start) => Element {
                    ns,
                    start,
                    empty: true,
                },
                Event::End(_) => {
                    // A vector grown by pushes holds up to twice its contents (four for one
                    // text): a DataSet's cells, each one text, would hold four times theirs.
                    raw.children.shrink_to_fit();
                    return Ok(raw);
                }
                Event::DocType(_) => return Err(super::XmlError::Doctype.into()),
                Event::Eof => return Err(self.malformed("unexpected end of document").into()),
                _ => continue,
            };
            // In place of the placeholder `raw_piece` pushed.
            let child = self.raw_element(child, budget)?;
            if let Some(last) = raw.children.last_mut() {
                *last = XmlContent::Element(child);
            }
        }
    }

    /// The element just started, as it was written, without its content: its prefix, name,
    /// namespace and attributes (declarations among them, in their order).
    pub(crate) fn raw_start(&mut self, element: &Element<'a>) -> Result<XmlElement, TreeError> {
        let name = element.start.name();
        let prefix = name
            .prefix()
            .map(|p| String::from_utf8_lossy(p.into_inner()).into_owned())
            .unwrap_or_default();
        let (resolved, local) = self.reader.resolve_element(name);
        let mut raw = XmlElement {
            prefix,
            local: String::from_utf8_lossy(local.into_inner()).into_owned(),
            namespace: bound(resolved),
            attributes: Vec::new(),
            children: Vec::new(),
            end_tag: !element.empty,
        };
        for attr in element.start.attributes() {
            let attr = attr.map_err(|e| self.malformed(e))?;
            // Attribute-value normalisation (XML 1.0 §3.3.3), as for a class's attributes;
            // most values have nothing to normalise.
            let normalized = match String::from_utf8_lossy(&attr.value) {
                text if text.contains(['\t', '\n', '\r']) => std::borrow::Cow::Owned(
                    text.replace("\r\n", " ").replace(['\t', '\n', '\r'], " "),
                ),
                text => text,
            };
            let value = quick_xml::escape::unescape(&normalized)
                .map_err(|e| self.malformed(e))?
                .into_owned();
            let attribute = match attr.key.as_namespace_binding() {
                Some(PrefixDeclaration::Default) => XmlAttribute {
                    prefix: String::new(),
                    local: "xmlns".to_owned(),
                    namespace: XMLNS_NS.to_owned(),
                    value,
                },
                Some(PrefixDeclaration::Named(declared)) => XmlAttribute {
                    prefix: "xmlns".to_owned(),
                    local: String::from_utf8_lossy(declared).into_owned(),
                    namespace: XMLNS_NS.to_owned(),
                    value,
                },
                None => {
                    let prefix = attr
                        .key
                        .prefix()
                        .map(|p| String::from_utf8_lossy(p.into_inner()).into_owned())
                        .unwrap_or_default();
                    let (resolved, local) = self.reader.resolve_attribute(attr.key);
                    XmlAttribute {
                        prefix,
                        local: String::from_utf8_lossy(local.into_inner()).into_owned(),
                        namespace: bound(resolved),
                        value,
                    }
                }
            };
            raw.attributes.push(attribute);
        }
        Ok(raw)
    }

    /// Adds what `event` (read inside an element) is to the element's raw content: text,
    /// CDATA, a comment, a processing instruction, or for a child element the placeholder
    /// [`CHILD`](crate::tree::CHILD), which the caller fills or leaves.
    pub(crate) fn raw_piece(
        &self,
        children: &mut Vec<XmlContent>,
        event: &Event<'a>,
    ) -> Result<(), TreeError> {
        match event {
            Event::Text(piece) => {
                let text = normalize_newlines(to_str(Cow::Borrowed(&piece[..]))?);
                push_text(children, &text);
            }
            Event::GeneralRef(reference) => {
                let c = self.reference(reference)?;
                push_text(children, c.encode_utf8(&mut [0; 4]));
            }
            Event::CData(piece) => {
                let text = normalize_newlines(to_str(Cow::Borrowed(&piece[..]))?);
                children.push(XmlContent::CData(text.into_owned()));
            }
            Event::Comment(piece) => {
                let text = to_str(Cow::Borrowed(&piece[..]))?;
                children.push(XmlContent::Comment(text.into_owned()));
            }
            Event::PI(pi) => {
                let target = String::from_utf8_lossy(pi.target()).into_owned();
                let data = to_str(Cow::Borrowed(pi.content()))?;
                let data = data.trim_start_matches([' ', '\t', '\r', '\n']);
                children.push(XmlContent::ProcessingInstruction(target, data.to_owned()));
            }
            Event::Start(_) | Event::Empty(_) => children.push(crate::tree::CHILD),
            _ => {}
        }
        Ok(())
    }
}

/// The namespace a name resolved to, empty for none: the declaration's value as an
/// attribute's is read (quick-xml resolves to its raw text, references unreplaced).
fn bound(resolved: ResolveResult<'_>) -> String {
    match resolved {
        ResolveResult::Bound(ns) => {
            let bytes = ns.into_inner();
            // Nearly every namespace has no white space to normalise and no reference to
            // replace: taken as it is, one copy (rather than three and a scan).
            if !bytes
                .iter()
                .any(|b| matches!(b, b'\t' | b'\n' | b'\r' | b'&'))
            {
                return String::from_utf8_lossy(bytes).into_owned();
            }
            let raw = String::from_utf8_lossy(bytes)
                .replace("\r\n", " ")
                .replace(['\t', '\n', '\r'], " ");
            match quick_xml::escape::unescape(&raw) {
                Ok(value) => value.into_owned(),
                Err(_) => raw,
            }
        }
        // An unknown prefix was refused when the start tag was read.
        ResolveResult::Unbound | ResolveResult::Unknown(_) => String::new(),
    }
}

/// Appends text to the last text node, or starts one.
fn push_text(children: &mut Vec<XmlContent>, text: &str) {
    if let Some(XmlContent::Text(last)) = children.last_mut() {
        last.push_str(text);
    } else {
        children.push(XmlContent::Text(text.to_owned()));
    }
}
