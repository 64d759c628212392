//! Writing raw XML as .NET's `XmlNode.WriteTo` writes it into a message.

use super::{XmlContent, XmlElement, XML_NS};
use crate::xml;

/// The namespace declarations in scope where an element is written, innermost last:
/// (prefix, namespace), the empty prefix for the default namespace.
#[derive(Debug, Clone)]
pub(crate) struct Scope {
    bindings: Vec<(String, String)>,
    /// Text's carriage returns written as they are, not as `&#xD;`: a DataSet's writer
    /// (`XmlWriter.WriteString`) leaves them so, where XmlSerializer escapes them.
    raw_carriage_returns: bool,
}

impl Scope {
    /// Nothing declared: an element standing alone, or a document's root.
    pub(crate) fn empty() -> Scope {
        Scope {
            bindings: Vec::new(),
            raw_carriage_returns: false,
        }
    }

    /// Inside a SOAP message's operation element: the envelope's `soap`, `xsi` and `xsd`, and
    /// the service namespace as the default one.
    pub(crate) fn message(envelope: &str, service: &str) -> Scope {
        Scope {
            bindings: vec![
                ("soap".to_owned(), envelope.to_owned()),
                ("xsi".to_owned(), xml::XSI_NS.to_owned()),
                ("xsd".to_owned(), xml::XSD_NS.to_owned()),
                (String::new(), service.to_owned()),
            ],
            raw_carriage_returns: false,
        }
    }

    /// Inside an HTTP GET/POST result document: the root's `xsi` and `xsd`, and `default`
    /// as the default namespace.
    pub(crate) fn document(default: &str) -> Scope {
        Scope {
            bindings: vec![
                ("xsi".to_owned(), xml::XSI_NS.to_owned()),
                ("xsd".to_owned(), xml::XSD_NS.to_owned()),
                (String::new(), default.to_owned()),
            ],
            raw_carriage_returns: false,
        }
    }

    /// The same scope, text's carriage returns written as they are (a DataSet's cells).
    pub(crate) fn with_raw_carriage_returns(mut self) -> Scope {
        self.raw_carriage_returns = true;
        self
    }

    /// The namespace `prefix` is bound to here (`None`: unbound; the default namespace
    /// unbound is none, `""`).
    fn lookup(&self, prefix: &str) -> Option<&str> {
        if prefix == "xml" {
            return Some(XML_NS);
        }
        self.bindings
            .iter()
            .rev()
            .find(|(p, _)| p == prefix)
            .map(|(_, ns)| ns.as_str())
    }

    /// Whether `prefix` means `namespace` here.
    pub(crate) fn binds(&self, prefix: &str, namespace: &str) -> bool {
        match self.lookup(prefix) {
            Some(bound) => bound == namespace,
            // No default namespace in scope: no namespace.
            None => prefix.is_empty() && namespace.is_empty(),
        }
    }
}

/// Writes `element` into `out` where `scope` is in scope; a tab in an attribute value as
/// `&#x9;` when `tab_reference` (a request's, so that the server reads the tab sent). The
/// error is the code point of a character XML cannot carry.
pub(crate) fn write_element(
    out: &mut String,
    element: &XmlElement,
    scope: &mut Scope,
    tab_reference: bool,
) -> Result<(), u32> {
    write(out, element, scope, tab_reference, None)
}

/// [`write_element`] indented as .NET's `XmlTextWriter` indents an HTTP GET/POST result
/// document, the root at depth 0: two spaces a level.
pub(crate) fn write_element_indented(
    out: &mut String,
    element: &XmlElement,
    scope: &mut Scope,
) -> Result<(), u32> {
    write(out, element, scope, false, Some(0))
}

/// [`write_element`] at `depth` in an indented document (`None`: not indented).
pub(crate) fn write_element_at(
    out: &mut String,
    element: &XmlElement,
    scope: &mut Scope,
    tab_reference: bool,
    depth: Option<usize>,
) -> Result<(), u32> {
    write(out, element, scope, tab_reference, depth)
}

/// An element whose start tag [`write_open`] wrote, its children to come one by one
/// ([`write_child`]) and its end tag ([`write_close`]): a DataSet written a row at a time,
/// byte for byte as [`write_element_at`] writes the element holding them all.
#[derive(Debug)]
pub(crate) struct Open {
    /// The scope's bindings before the start tag's.
    mark: usize,
    /// The element's depth in an indented document (`None`: not indented).
    depth: Option<usize>,
    /// A tab in an attribute value is written `&#x9;` (a request's).
    tab_reference: bool,
}

impl Open {
    /// An element opened by other means (a SOAP parameter or result element, written as
    /// text), not indented, whose children are written where `scope` is in scope, a tab in
    /// an attribute value as `&#x9;` when `tab_reference`.
    pub(crate) fn unindented(scope: &Scope, tab_reference: bool) -> Open {
        Open {
            mark: scope.bindings.len(),
            depth: None,
            tab_reference,
        }
    }
}

/// Writes the start tag of `element` (its children are not looked at: it is to hold some),
/// at `depth` in an indented document (`None`: not indented), where the line it stands on is
/// begun already: a document's root.
pub(crate) fn write_open(
    out: &mut String,
    element: &XmlElement,
    scope: &mut Scope,
    depth: Option<usize>,
) -> Result<Open, u32> {
    let mark = start_tag(out, element, scope, false)?;
    out.push('>');
    Ok(Open {
        mark,
        depth,
        tab_reference: false,
    })
}

/// Writes the start tag of `child` as the next child of the element `parent` opened (on a
/// line of its own in an indented document), its own children to come.
pub(crate) fn write_open_child(
    out: &mut String,
    parent: &Open,
    child: &XmlElement,
    scope: &mut Scope,
) -> Result<Open, u32> {
    if let Some(level) = parent.depth {
        new_line(out, level + 1);
    }
    let mark = start_tag(out, child, scope, parent.tab_reference)?;
    out.push('>');
    Ok(Open {
        mark,
        depth: parent.depth.map(|l| l + 1),
        tab_reference: parent.tab_reference,
    })
}

/// Writes `child`, an element, as the next child of the element `parent` opened: on a line
/// of its own in an indented document.
pub(crate) fn write_child(
    out: &mut String,
    parent: &Open,
    child: &XmlElement,
    scope: &mut Scope,
) -> Result<(), u32> {
    if let Some(level) = parent.depth {
        new_line(out, level + 1);
    }
    write(
        out,
        child,
        scope,
        parent.tab_reference,
        parent.depth.map(|l| l + 1),
    )
}

/// Writes the end tag of `element`, which [`write_open`] opened (`open`), after elements
/// only: on a line of its own in an indented document.
pub(crate) fn write_close(out: &mut String, element: &XmlElement, open: Open, scope: &mut Scope) {
    if let Some(level) = open.depth {
        new_line(out, level);
    }
    out.push_str("</");
    push_qname(out, &element.prefix, &element.local);
    out.push('>');
    scope.bindings.truncate(open.mark);
}

fn new_line(out: &mut String, level: usize) {
    out.push('\n');
    for _ in 0..level {
        out.push_str("  ");
    }
}

/// Writes `<name attributes declarations` (the tag not yet ended), the element's bindings
/// added to `scope`; returns the scope's length before them.
fn start_tag(
    out: &mut String,
    element: &XmlElement,
    scope: &mut Scope,
    tab_reference: bool,
) -> Result<usize, u32> {
    let mark = scope.bindings.len();
    out.push('<');
    push_qname(out, &element.prefix, &element.local);
    // The attributes as they are, declarations among them (which then are in scope).
    for attribute in &element.attributes {
        out.push(' ');
        push_qname(out, &attribute.prefix, &attribute.local);
        out.push_str("=\"");
        crate::tree::escape_attribute(out, &attribute.value, tab_reference)?;
        out.push('"');
        if attribute.is_declaration() {
            scope.bindings.push((
                attribute.declared_prefix().to_owned(),
                attribute.value.clone(),
            ));
        }
    }
    // Then a declaration for each prefix used and not bound so here (the element's, then its
    // attributes'), written last first: .NET's `XmlTextWriter` pushes each on its namespace
    // stack and writes the stack from its top when it ends the start tag.
    let pushed = scope.bindings.len();
    scope.bind(&element.prefix, &element.namespace);
    for attribute in &element.attributes {
        if !attribute.is_declaration() && !attribute.prefix.is_empty() {
            scope.bind(&attribute.prefix, &attribute.namespace);
        }
    }
    for (prefix, namespace) in scope.bindings[pushed..].iter().rev() {
        declaration(out, prefix, namespace)?;
    }
    Ok(mark)
}

fn write(
    out: &mut String,
    element: &XmlElement,
    scope: &mut Scope,
    tab_reference: bool,
    depth: Option<usize>,
) -> Result<(), u32> {
    let mark = start_tag(out, element, scope, tab_reference)?;
    if element.children.is_empty() && !element.end_tag {
        out.push_str(" />");
        scope.bindings.truncate(mark);
        return Ok(());
    }
    out.push('>');
    // Indented, as `XmlTextWriter` indents: each element, comment and processing
    // instruction on a line of its own until text is written in the element (it is "mixed"
    // from there on), and the end tag too unless it is mixed by then.
    let mut mixed = false;
    for child in &element.children {
        let starts_line = matches!(
            child,
            XmlContent::Element(_) | XmlContent::Comment(_) | XmlContent::ProcessingInstruction(..)
        );
        match (depth, starts_line) {
            (Some(level), true) if !mixed => new_line(out, level + 1),
            _ => {}
        }
        match child {
            XmlContent::Element(e) => write(out, e, scope, tab_reference, depth.map(|l| l + 1))?,
            XmlContent::Text(text) => {
                mixed |= !text.is_empty();
                if scope.raw_carriage_returns {
                    for (i, piece) in text.split('\r').enumerate() {
                        if i > 0 {
                            out.push('\r');
                        }
                        xml::escape_text(out, piece)?;
                    }
                } else {
                    xml::escape_text(out, text)?;
                }
            }
            XmlContent::CData(text) => {
                mixed = true;
                check_chars(text)?;
                out.push_str("<![CDATA[");
                out.push_str(text);
                out.push_str("]]>");
            }
            XmlContent::Comment(text) => {
                check_chars(text)?;
                out.push_str("<!--");
                out.push_str(text);
                out.push_str("-->");
            }
            XmlContent::ProcessingInstruction(target, data) => {
                check_chars(data)?;
                out.push_str("<?");
                out.push_str(target);
                if !data.is_empty() {
                    out.push(' ');
                    out.push_str(data);
                }
                out.push_str("?>");
            }
        }
    }
    // The end tag on a line of its own, unless text made the element mixed.
    let depth = if mixed { None } else { depth };
    let open = Open {
        mark,
        depth,
        tab_reference,
    };
    write_close(out, element, open, scope);
    Ok(())
}

fn push_qname(out: &mut String, prefix: &str, local: &str) {
    if !prefix.is_empty() {
        out.push_str(prefix);
        out.push(':');
    }
    out.push_str(local);
}

impl Scope {
    /// Binds `prefix` to `namespace` unless it is so bound already.
    pub(crate) fn bind(&mut self, prefix: &str, namespace: &str) {
        if !self.binds(prefix, namespace) {
            self.bindings
                .push((prefix.to_owned(), namespace.to_owned()));
        }
    }
}

/// Writes ` xmlns:prefix="namespace"` (` xmlns="…"` for the default namespace).
pub(crate) fn declaration(out: &mut String, prefix: &str, namespace: &str) -> Result<(), u32> {
    if prefix.is_empty() {
        out.push_str(" xmlns=\"");
    } else {
        out.push_str(" xmlns:");
        out.push_str(prefix);
        out.push_str("=\"");
    }
    crate::tree::escape_attribute(out, namespace, false)?;
    out.push('"');
    Ok(())
}

/// Refuses a character XML cannot carry in a CDATA section, comment or processing
/// instruction, where nothing is escaped.
pub(crate) fn check_chars(text: &str) -> Result<(), u32> {
    match text.chars().find(|&c| {
        (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || c == '\u{FFFE}' || c == '\u{FFFF}'
    }) {
        Some(c) => Err(c as u32),
        None => Ok(()),
    }
}
