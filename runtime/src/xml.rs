//! XML text escaping (writer side) and a pull cursor over quick-xml (reader side).
//!
//! The cursor is the one place the runtime touches quick-xml. It refuses any DOCTYPE before
//! reading anything in it, so no entity is ever declared, expanded or fetched; only the five
//! predefined entities and character references are resolved.

use std::borrow::Cow;

use quick_xml::events::{BytesStart, Event};
use quick_xml::name::ResolveResult;
use quick_xml::NsReader;

/// Namespace of `xsi:nil`.
pub const XSI_NS: &str = "http://www.w3.org/2001/XMLSchema-instance";
/// Namespace of the `xsd` prefix ASMX declares on every envelope.
pub const XSD_NS: &str = "http://www.w3.org/2001/XMLSchema";

/// What each byte needs when written as element text: 0 nothing, 1 an escape, 2 refusal.
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
    table
};

/// Appends `text` as XML element content: `&`, `<`, `>` escaped as an ASMX host escapes
/// them (quotes stay as they are), CR as `&#xD;`.
///
/// Returns the code point of the first character XML 1.0 cannot carry (C0 controls other
/// than tab, LF and CR); `out` may then hold part of the text.
pub fn escape_text(out: &mut String, text: &str) -> Result<(), u32> {
    let bytes = text.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let class = TEXT_CLASS[b as usize];
        if class == 0 {
            continue;
        }
        if class == 2 {
            return Err(u32::from(b));
        }
        out.push_str(&text[start..i]);
        out.push_str(match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            _ => "&#xD;",
        });
        start = i + 1;
    }
    out.push_str(&text[start..]);
    Ok(())
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
}

/// A pull cursor over a borrowed document: comments, processing instructions and
/// whitespace-only text between elements are skipped; text, CDATA and references are merged
/// into one value; every attribute is checked for well-formedness; a DOCTYPE stops it.
pub(crate) struct XmlCursor<'a, const N: usize> {
    reader: NsReader<&'a [u8]>,
    known: [&'static str; N],
    depth: usize,
}

fn is_xml_space(b: u8) -> bool {
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
            depth: 0,
        }
    }

    pub fn known(&self) -> &[&'static str; N] {
        &self.known
    }

    fn position(&self) -> u64 {
        self.reader.buffer_position()
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
                return Err(malformed(
                    self.position(),
                    format_args!("undeclared prefix '{}'", String::from_utf8_lossy(&prefix)),
                ))
            }
        })
    }

    fn check_attributes(&self, start: &BytesStart<'_>) -> XmlResult<()> {
        for attr in start.attributes() {
            let attr = attr.map_err(|e| malformed(self.position(), e))?;
            let (resolved, _) = self.reader.resolve_attribute(attr.key);
            if let ResolveResult::Unknown(prefix) = resolved {
                return Err(malformed(
                    self.position(),
                    format_args!("undeclared prefix '{}'", String::from_utf8_lossy(&prefix)),
                ));
            }
        }
        Ok(())
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
        for attr in element.start.attributes() {
            let attr = attr.map_err(|e| malformed(self.position(), e))?;
            let (resolved, name) = self.reader.resolve_attribute(attr.key);
            let matches = matches!(resolved, ResolveResult::Bound(n) if n.into_inner() == self.known[ns].as_bytes());
            if matches && name.into_inner() == local.as_bytes() {
                let value = attr
                    .unescape_value()
                    .map_err(|e| malformed(self.position(), e))?;
                return Ok(Some(value.into_owned()));
            }
        }
        Ok(None)
    }

    fn raw_event(&mut self) -> XmlResult<(Ns, Event<'a>)> {
        let event = self
            .reader
            .read_event()
            .map_err(|e| malformed(self.reader.error_position(), e))?;
        let ns = match &event {
            Event::Start(start) | Event::Empty(start) => {
                let (resolved, _) = self.reader.resolve_element(start.name());
                self.classify(resolved)?
            }
            _ => Ns::None,
        };
        Ok((ns, event))
    }

    /// The next element boundary or significant text.
    pub fn next(&mut self) -> XmlResult<Node<'a>> {
        loop {
            let (ns, event) = self.raw_event()?;
            match event {
                Event::Start(start) => {
                    self.check_attributes(&start)?;
                    self.depth += 1;
                    return Ok(Node::Start(Element {
                        ns,
                        start,
                        empty: false,
                    }));
                }
                Event::Empty(start) => {
                    self.check_attributes(&start)?;
                    return Ok(Node::Start(Element {
                        ns,
                        start,
                        empty: true,
                    }));
                }
                Event::End(_) => {
                    self.depth -= 1;
                    return Ok(Node::End);
                }
                Event::Text(text) => {
                    let raw = text.into_inner();
                    if raw.iter().all(|&b| is_xml_space(b)) {
                        continue;
                    }
                    if self.depth == 0 {
                        return Err(malformed(self.position(), "text outside the root element"));
                    }
                    to_str(raw)?;
                    return Ok(Node::Text);
                }
                Event::CData(_) | Event::GeneralRef(_) => {
                    if self.depth == 0 {
                        return Err(malformed(self.position(), "text outside the root element"));
                    }
                    return Ok(Node::Text);
                }
                Event::Comment(_) | Event::PI(_) | Event::Decl(_) => {}
                Event::DocType(_) => return Err(XmlError::Doctype),
                Event::Eof => {
                    if self.depth != 0 {
                        return Err(malformed(self.position(), "unexpected end of document"));
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
                    let resolved = match reference
                        .resolve_char_ref()
                        .map_err(|e| malformed(self.position(), e))?
                    {
                        Some(c) if is_xml_char(c) => c,
                        Some(c) => {
                            return Err(malformed(
                                self.position(),
                                format_args!("character reference to U+{:04X}", u32::from(c)),
                            ))
                        }
                        None => {
                            let name = to_str(reference.into_inner())?;
                            match quick_xml::escape::resolve_predefined_entity(&name) {
                                Some(s) => s.chars().next().unwrap_or_default(),
                                None => {
                                    return Err(malformed(
                                        self.position(),
                                        format_args!("undefined entity '&{name};'"),
                                    ))
                                }
                            }
                        }
                    };
                    text.to_mut().push(resolved);
                }
                Event::Start(start) => {
                    self.check_attributes(&start)?;
                    nested = true;
                    self.depth += 1;
                    self.skip_to_depth(self.depth - 1)?;
                }
                Event::Empty(start) => {
                    self.check_attributes(&start)?;
                    nested = true;
                }
                Event::End(_) => {
                    self.depth -= 1;
                    break;
                }
                Event::Comment(_) | Event::PI(_) | Event::Decl(_) => {}
                Event::DocType(_) => return Err(XmlError::Doctype),
                Event::Eof => return Err(malformed(self.position(), "unexpected end of document")),
            }
        }
        Ok(Content { text, nested })
    }

    /// Skips the rest of the element just started, whatever it holds.
    pub fn skip(&mut self) -> XmlResult<()> {
        self.skip_to_depth(self.depth - 1)
    }

    fn skip_to_depth(&mut self, target: usize) -> XmlResult<()> {
        while self.depth > target {
            match self.next()? {
                Node::Eof => return Err(malformed(self.position(), "unexpected end of document")),
                Node::Start(_) | Node::End | Node::Text => {}
            }
        }
        Ok(())
    }
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
        let mut cursor = XmlCursor::new(b"<p:a></p:a>", []);
        assert!(
            matches!(cursor.next(), Err(XmlError::Malformed(m)) if m.contains("undeclared prefix 'p'"))
        );
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
