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
//!
//! The same structure with concrete values ([`Sampler::concrete`], written as XML by
//! [`Element::xml`]) is `rmm mock --answer sample`'s answer: every member present, each a
//! value of its type (see [`Sampler::value`]).

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

    /// The element as XML, on one line: a concrete sample (names and values as made, not
    /// HTML-escaped). One with no sample (nil, for a help page) is left out, as a null the
    /// host reads from any element, nillable or not.
    pub(super) fn xml(&self) -> String {
        if self.nil {
            return String::new();
        }
        let mut out = format!("<{}", self.name);
        for (name, value) in &self.attributes {
            out.push_str(&format!(" {name}=\"{value}\""));
        }
        if self.is_empty() {
            out.push_str(" />");
            return out;
        }
        out.push('>');
        out.push_str(self.text.as_deref().unwrap_or_default());
        for child in &self.children {
            out.push_str(&child.xml());
        }
        out.push_str(&format!("</{}>", self.name));
        out
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
    /// Values a decoder reads (XML-escaped text) rather than a help page's placeholders.
    concrete: bool,
    /// The classes being written, outermost first.
    open: Vec<usize>,
    /// The elements made so far.
    made: usize,
}

impl<'m> Sampler<'m> {
    pub(super) fn new(model: &'m Model) -> Sampler<'m> {
        Sampler {
            model,
            concrete: false,
            open: Vec::new(),
            made: 0,
        }
    }

    /// A sampler of concrete values, for [`Element::xml`].
    pub(super) fn concrete(model: &'m Model) -> Sampler<'m> {
        Sampler {
            concrete: true,
            ..Sampler::new(model)
        }
    }

    /// The text of a simple value of `ty` in the element or attribute `name`: a help page's
    /// placeholder, or a concrete value: a string its element's name, a number the count of
    /// elements made so far (distinct, and small enough for a byte), `true`, an enum's last
    /// value, a fixed date, GUID and bytes. `None` where no simple text stands for the value
    /// (raw XML, concretely): the element is nil.
    fn value(&self, ty: SoapType, name: &str) -> Option<String> {
        if !self.concrete {
            return Some(placeholder(&simple_text(self.model, ty)));
        }
        let n = self.made % 100 + 1;
        Some(match ty {
            SoapType::String => super::escape(name, true),
            SoapType::Boolean => "true".to_owned(),
            SoapType::Decimal | SoapType::Float | SoapType::Double => format!("{n}.5"),
            // A char goes as its number: `A`, `B`…
            SoapType::Char => (64 + n.min(26)).to_string(),
            SoapType::Guid => format!("00000000-0000-0000-0000-{n:012}"),
            SoapType::DateTime => "2001-02-03T04:05:06".to_owned(),
            SoapType::Date => "2001-02-03".to_owned(),
            SoapType::Base64Binary => "AAECAw==".to_owned(),
            // The last value: the first is the default, which a sample should not look like.
            SoapType::Enum(i) => {
                let values = &self.model.enums[usize::from(i)].values;
                values.last().map(|(wire, _)| super::escape(wire, true))?
            }
            SoapType::Int
            | SoapType::Long
            | SoapType::Short
            | SoapType::Byte
            | SoapType::UnsignedByte
            | SoapType::UnsignedShort
            | SoapType::UnsignedInt
            | SoapType::UnsignedLong => n.to_string(),
            _ => return None,
        })
    }

    /// The element `name` holding a sample value of `ty`.
    pub(super) fn element(&mut self, name: &str, ty: SoapType) -> Element {
        self.made += 1;
        let mut element = Element::new(name);
        match ty {
            SoapType::Class(i) if self.concrete => {
                self.concrete_class(&mut element, usize::from(i))
            }
            SoapType::Class(i) => self.class(&mut element, usize::from(i)),
            // Concretely: raw XML holds an element of no namespace, an `object` a string
            // (`xsi:type="xsd:string"`), and a DataSet, which has no sample, is left out.
            SoapType::Xml | SoapType::XmlNode if self.concrete => {
                let mut sample = Element::new("sample");
                sample.attributes.push(("xmlns".to_owned(), String::new()));
                sample.text = Some(super::escape(name, false));
                element.children.push(sample);
            }
            SoapType::Object if self.concrete => {
                element
                    .attributes
                    .push(("xsi:type".to_owned(), "xsd:string".to_owned()));
                element.text = Some(super::escape(name, false));
            }
            // A DataSet of one table `Table1` of one string column and one row, as a host
            // writes it (a lone DataTable names it its main table).
            SoapType::DataSet | SoapType::DataTable if self.concrete => {
                let (main, root) = match ty {
                    SoapType::DataTable => (r#" msdata:MainDataTable="Table1""#, "DocumentElement"),
                    _ => ("", "NewDataSet"),
                };
                element.text = Some(format!(
                    r#"<xs:schema id="NewDataSet" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata"><xs:element name="NewDataSet" msdata:IsDataSet="true"{main} msdata:UseCurrentLocale="true"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded"><xs:element name="Table1"><xs:complexType><xs:sequence><xs:element name="Column1" type="xs:string" minOccurs="0" /></xs:sequence></xs:complexType></xs:element></xs:choice></xs:complexType></xs:element></xs:schema><diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><{root} xmlns=""><Table1 diffgr:id="Table11" msdata:rowOrder="0"><Column1>{}</Column1></Table1></{root}></diffgr:diffgram>"#,
                    super::escape(name, false)
                ));
            }
            // A typed DataSet has no sample of its own schema's rows: left out.
            SoapType::TypedDataSet(_) if self.concrete => element.nil = true,
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
            simple => match self.value(simple, name) {
                Some(value) => element.text = Some(value),
                None => element.nil = true,
            },
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
            // A choice: its first alternative (each of them, in order, where it repeats).
            (_, SoapType::Choice(_)) => {
                let choice = self.model.choice(member.ty).expect("a choice");
                let take = if choice.repeated {
                    choice.alternatives.len()
                } else {
                    1
                };
                choice
                    .alternatives
                    .iter()
                    .take(take)
                    .map(|a| self.element(&a.wire, a.ty))
                    .collect()
            }
            _ if member.unqualified => {
                // An element of no namespace, as it goes on the wire.
                let mut element = self.element(&member.wire, member.ty);
                element.attributes.push(("xmlns".to_owned(), String::new()));
                vec![element]
            }
            _ => {
                let mut element = self.element(&member.wire, member.ty);
                // A member equal to its `[DefaultValue]` is not written: a concrete sample
                // takes another value, so that the answer shows it.
                if self.concrete && element.text.is_some() && element.text == member.default {
                    element.text = Some(self.other_value(member.ty, member.default.as_deref()));
                }
                vec![element]
            }
        }
    }

    /// A value of `ty` other than `default`.
    fn other_value(&self, ty: SoapType, default: Option<&str>) -> String {
        match ty {
            SoapType::Boolean => "false".to_owned(),
            SoapType::DateTime => "2002-03-04T05:06:07".to_owned(),
            SoapType::Enum(i) => {
                let values = &self.model.enums[usize::from(i)].values;
                let other = values
                    .iter()
                    .find(|(wire, _)| Some(wire.as_str()) != default);
                other.map_or_else(String::new, |(wire, _)| super::escape(wire, true))
            }
            SoapType::String => format!("{}-", default.unwrap_or_default()),
            _ => "0".to_owned(),
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
            // A namespaced attribute (`xml:lang`, a qualified one) has no sample, concretely.
            if self.concrete && attribute.namespace.is_some() {
                continue;
            }
            if let Some(value) = self.value(attribute.ty, &attribute.wire) {
                element.attributes.push((attribute.wire.clone(), value));
            }
        }
        if let Some(content) = &class.text {
            element.text = self.value(content.ty, &content.wire);
        }
        // Concretely, each member element declares its class's namespace (the service's
        // unless the class names another), as the elements around it may stand in another.
        let namespace = class
            .namespace
            .clone()
            .unwrap_or_else(|| model.service.namespace.clone());
        for member in class.fields() {
            let elements = if again && matches!(member.ty, SoapType::Class(_) | SoapType::Array(_))
            {
                let mut nil = Element::new(&member.wire);
                nil.nil = true;
                vec![nil]
            } else {
                self.member(member)
            };
            for mut child in elements {
                if self.concrete && !member.unqualified {
                    child = child.with_namespace(&namespace);
                }
                element.children.push(child);
            }
        }
        self.open.pop();
    }

    /// A class's value, concretely: an abstract class's is of its first concrete derived
    /// class, named by `xsi:type` (nil where it has none).
    fn concrete_class(&mut self, element: &mut Element, index: usize) {
        let model = self.model;
        let class = &model.classes[index];
        if !class.is_abstract {
            return self.class(element, index);
        }
        match class
            .derived
            .iter()
            .find(|&&d| !model.classes[d].is_abstract)
        {
            Some(&derived) => {
                element
                    .attributes
                    .push(("xsi:type".to_owned(), model.classes[derived].name.clone()));
                self.class(element, derived);
            }
            None => element.nil = true,
        }
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
