//! `sample.rs`: the sample XML of a value on a help page, as the .NET help page shows it.
//!
//! A simple value is its type's name (an enum's values joined by ` or `); a class is its
//! element with its attributes, text and members in wire order, inherited first; an array
//! holds two items of its item name, an unwrapped array member is two elements of the member's
//! name. A class met again inside itself is written once more with its class and array members
//! `xsi:nil="true"`, so that a recursive class (a node holding its children) ends, as the .NET
//! page shows one; so is a class nested deeper than [`MAX_CLASS_DEPTH`] or met once the sample
//! holds [`MAX_ELEMENTS`] elements, so that classes holding each other (or arrays of arrays of
//! classes) cannot make a page grow without bound. Values are placeholders (`<span
//! class="value">`); everything else is HTML-escaped XML.

use super::{placeholder, text};
use crate::model::{MemberModel, Model};
use crate::spec::SoapType;

/// How many classes deep a sample shows members; deeper ones show their class and array
/// members nil.
const MAX_CLASS_DEPTH: usize = 6;

/// How many elements a sample holds before the classes it meets show their class and array
/// members nil: a page stays a page whatever the classes.
const MAX_ELEMENTS: usize = 2_000;

/// One element of a sample.
pub(super) struct Element {
    /// Its name.
    name: String,
    /// Its attributes: name and (placeholder) value.
    attributes: Vec<(String, String)>,
    /// Its text: a placeholder.
    text: Option<String>,
    /// Its child elements.
    children: Vec<Element>,
    /// Text after the children (a DataSet's `xml`, after its schema), which makes the
    /// element mixed: its end tag follows on the same line.
    tail: Option<String>,
    /// Written `xsi:nil="true"`, without content.
    nil: bool,
}

impl Element {
    fn new(name: &str) -> Element {
        Element {
            name: name.to_owned(),
            attributes: Vec::new(),
            text: None,
            children: Vec::new(),
            tail: None,
            nil: false,
        }
    }

    /// Adds `xmlns="{namespace}"` to its attributes, first.
    pub(super) fn with_namespace(mut self, namespace: &str) -> Element {
        self.attributes
            .insert(0, ("xmlns".to_owned(), text(namespace)));
        self
    }

    /// Adds the `xsd` and `xsi` prefixes' declarations to its attributes, first, as a host
    /// declares them on the root of a class or array it writes alone.
    /// The same element outside an envelope, where no `xsd` prefix is declared: a DataSet's
    /// `<xsd:schema>` becomes `<schema xmlns="http://www.w3.org/2001/XMLSchema">`, as .NET's
    /// help page shows an HTTP GET/POST result of one.
    pub(super) fn standing_alone(mut self) -> Element {
        for child in &mut self.children {
            if child.name == "xsd:schema" {
                child.name = "schema".to_owned();
                child.attributes.insert(
                    0,
                    ("xmlns".to_owned(), text("http://www.w3.org/2001/XMLSchema")),
                );
            }
        }
        self
    }

    pub(super) fn declaring_instance(mut self) -> Element {
        self.attributes.splice(
            0..0,
            [
                (
                    "xmlns:xsd".to_owned(),
                    text("http://www.w3.org/2001/XMLSchema"),
                ),
                (
                    "xmlns:xsi".to_owned(),
                    text("http://www.w3.org/2001/XMLSchema-instance"),
                ),
            ],
        );
        self
    }

    /// Its start tag, HTML-escaped (`/>` closing it when it has no content).
    fn start(&self) -> String {
        let mut tag = format!("&lt;{}", text(&self.name));
        for (name, value) in &self.attributes {
            tag.push_str(&format!(" {}=\"{value}\"", text(name)));
        }
        if self.nil {
            tag.push_str(" xsi:nil=\"true\"");
        }
        if self.is_empty() {
            tag.push_str(" /&gt;");
        } else {
            tag.push_str("&gt;");
        }
        tag
    }

    fn end(&self) -> String {
        format!("&lt;/{}&gt;", text(&self.name))
    }

    fn is_empty(&self) -> bool {
        self.nil || (self.text.is_none() && self.children.is_empty())
    }

    /// The element on one line, as a host writes a SOAP response.
    pub(super) fn compact(&self) -> String {
        let mut out = self.start();
        if !self.is_empty() {
            out.push_str(self.text.as_deref().unwrap_or_default());
            for child in &self.children {
                out.push_str(&child.compact());
            }
            out.push_str(self.tail.as_deref().unwrap_or_default());
            out.push_str(&self.end());
        }
        out
    }

    /// The element indented by `indent` spaces, a child element on a line of its own two spaces
    /// further in, as clients write a request and a host writes an HTTP GET/POST result. No
    /// line break after the last line.
    pub(super) fn indented(&self, indent: usize) -> String {
        let pad = " ".repeat(indent);
        let mut out = format!("{pad}{}", self.start());
        if self.is_empty() {
            return out;
        }
        if self.children.is_empty() {
            out.push_str(self.text.as_deref().unwrap_or_default());
            out.push_str(&self.end());
            return out;
        }
        if let Some(value) = &self.text {
            out.push_str(&format!("\n{pad}  {value}"));
        }
        for child in &self.children {
            out.push('\n');
            out.push_str(&child.indented(indent + 2));
        }
        if let Some(tail) = &self.tail {
            out.push_str(tail);
            out.push_str(&self.end());
            return out;
        }
        out.push_str(&format!("\n{pad}{}", self.end()));
        out
    }
}

/// Builds samples of the model's types.
pub(super) struct Sampler<'m> {
    model: &'m Model,
    /// The classes being written, outermost first.
    open: Vec<usize>,
    /// The elements made so far.
    made: usize,
}

impl<'m> Sampler<'m> {
    pub(super) fn new(model: &'m Model) -> Sampler<'m> {
        Sampler {
            model,
            open: Vec::new(),
            made: 0,
        }
    }

    /// The element `name` holding a sample value of `ty`.
    pub(super) fn element(&mut self, name: &str, ty: SoapType) -> Element {
        self.made += 1;
        let mut element = Element::new(name);
        match ty {
            SoapType::Class(i) => self.class(&mut element, usize::from(i)),
            // An `object` may hold anything: .NET's help page shows it empty.
            SoapType::Object => {}
            SoapType::DataSet | SoapType::DataTable => {
                // As .NET's help page shows the schema reference and the `s:any` after it.
                let mut schema = Element::new("xsd:schema");
                schema.text = Some(placeholder("schema"));
                element.children.push(schema);
                element.tail = Some(placeholder("xml"));
            }
            // An `s:any` of the set's namespace: .NET's help page shows it as XML.
            SoapType::TypedDataSet(_) => element.text = Some(placeholder("xml")),
            SoapType::Array(i) => {
                let array = &self.model.arrays[usize::from(i)];
                let (item, item_name) = (array.item, array.item_name.clone());
                for _ in 0..2 {
                    let item = self.element(&item_name, item);
                    element.children.push(item);
                }
            }
            simple => element.text = Some(placeholder(&simple_text(self.model, simple))),
        }
        element
    }

    /// The elements of one member: its element, or an unwrapped array's two items.
    pub(super) fn member(&mut self, member: &MemberModel) -> Vec<Element> {
        match (member.unwrapped, member.ty) {
            // `[XmlAnyElement]`: no element of its own to show.
            _ if member.any => Vec::new(),
            (true, SoapType::Array(i)) => {
                let item = self.model.arrays[usize::from(i)].item;
                (0..2).map(|_| self.element(&member.wire, item)).collect()
            }
            _ if member.unqualified => {
                // An element of no namespace, as it goes on the wire.
                let mut element = self.element(&member.wire, member.ty);
                element.attributes.push(("xmlns".to_owned(), String::new()));
                vec![element]
            }
            _ => vec![self.element(&member.wire, member.ty)],
        }
    }

    fn class(&mut self, element: &mut Element, index: usize) {
        let model = self.model;
        let class = &model.classes[index];
        // A class met again inside itself, too deep, or once the sample is large: its members
        // that could go on are nil.
        let again = self.open.contains(&index)
            || self.open.len() >= MAX_CLASS_DEPTH
            || self.made >= MAX_ELEMENTS;
        self.open.push(index);
        for attribute in &class.attributes {
            element.attributes.push((
                attribute.wire.clone(),
                placeholder(&simple_text(model, attribute.ty)),
            ));
        }
        if let Some(content) = &class.text {
            element.text = Some(placeholder(&simple_text(model, content.ty)));
        }
        for member in class.fields() {
            if again && matches!(member.ty, SoapType::Class(_) | SoapType::Array(_)) {
                let mut nil = Element::new(&member.wire);
                nil.nil = true;
                element.children.push(nil);
            } else {
                let elements = self.member(member);
                element.children.extend(elements);
            }
        }
        self.open.pop();
    }
}

/// What a sample shows for a simple value of `ty`: the type's name, or for an enum its values
/// (`Low or High`), as ASMX's help page shows them.
pub(super) fn simple_text(model: &Model, ty: SoapType) -> String {
    match ty {
        SoapType::Enum(i) => {
            let values: Vec<&str> = model.enums[usize::from(i)]
                .values
                .iter()
                .map(|(wire, _)| wire.as_str())
                .collect();
            values.join(" or ")
        }
        _ => model.type_name(ty).to_owned(),
    }
}
