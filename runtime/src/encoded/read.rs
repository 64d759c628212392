//! The encoded reader: the whole envelope parsed (roxmltree), its ids indexed, and each value
//! read from its accessor with references followed, as .NET's `XmlSerializationReader` reads
//! an encoded message.

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashMap;

use bytes::Bytes;
use http::{Response, StatusCode};
use roxmltree::Node;

use super::{
    Decode, EncodedError, RpcInfo, TypeName, MS_TYPES, SOAP11_ENCODING, SOAP12_ENCODING, XSD,
};
use crate::soap::{SOAP11_NS, SOAP12_NS};
use crate::tree::MAX_ELEMENTS;
use crate::{Binding, OperationInfo, RequestError, ResponseError, Scalar};

const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";

/// How deep values nest, inline or by reference, before the reader stops: as deep as the
/// literal reader's elements (a Rust value cannot hold a cycle, so references that lead back
/// end here too).
const MAX_DEPTH: usize = 128;

/// Reads the parameters of an rpc request (`body` the envelope's text): the envelope
/// checked, the method element found, and `read` given it to take the parameters from.
pub fn read_request<T>(
    binding: Binding,
    operation: &'static OperationInfo,
    rpc: &RpcInfo,
    body: &[u8],
    read: impl FnOnce(&Element<'_, '_>) -> Result<T, EncodedError>,
) -> Result<T, RequestError> {
    let text = simdutf8::basic::from_utf8(body).map_err(|_| RequestError::MalformedXml {
        reason: "the body is not valid UTF-8".into(),
    })?;
    let doc = parse(text)?;
    let not_envelope = |reason: String| RequestError::NotAnEnvelope { binding, reason };
    let body_element = envelope_body(&doc, binding).map_err(not_envelope)?;
    check_headers(&doc, binding)?;
    let Some(method) = body_element.children().find(Node::is_element) else {
        return Err(not_envelope("the Body is empty".into()));
    };
    if method.tag_name().name() != operation.request_element
        || method.tag_name().namespace() != Some(rpc.request_namespace)
    {
        return Err(RequestError::WrongOperation {
            expected: operation.request_element,
            namespace: rpc.request_namespace,
            found: clark(method),
        });
    }
    let context = Context::new(&doc, binding, rpc.types_namespace);
    let top = Element {
        node: method,
        context: &context,
        path: String::new(),
        depth: 0,
        referenced: false,
    };
    let encoded = |error| RequestError::Encoded {
        operation: operation.name,
        error,
    };
    top.check_unqualified().map_err(encoded)?;
    read(&top).map_err(encoded)
}

/// Reads the response to a call of an rpc method: the response element's members by `read`,
/// or the fault, error status or undecodable body the call got instead.
pub fn read_response<T, B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    rpc: &RpcInfo,
    response: &Response<B>,
    read: impl FnOnce(&Element<'_, '_>) -> Result<T, EncodedError>,
) -> Result<T, ResponseError> {
    let body = response.body().as_ref();
    let undecodable = |reason: String| ResponseError::Undecodable {
        operation: operation.name,
        binding,
        reason,
        body: Bytes::copy_from_slice(body),
    };
    let result = (response.status() == StatusCode::OK)
        .then(|| std::str::from_utf8(body).ok())
        .flatten()
        .and_then(|text| parse(text).ok());
    if let Some(doc) = &result {
        let body_element = envelope_body(doc, binding).map_err(&undecodable)?;
        let first = body_element.children().find(Node::is_element);
        let is_fault = first.is_some_and(|e| {
            e.tag_name().name() == "Fault" && e.tag_name().namespace() == Some(envelope_ns(binding))
        });
        if !is_fault {
            let Some(element) = first else {
                return Err(undecodable("the Body is empty".into()));
            };
            if element.tag_name().name() != operation.response_name
                || element.tag_name().namespace() != Some(rpc.response_namespace)
            {
                return Err(undecodable(format!(
                    "the Body holds {} where {{{}}}{} belongs",
                    clark(element),
                    rpc.response_namespace,
                    operation.response_name
                )));
            }
            let context = Context::new(doc, binding, rpc.types_namespace);
            let top = Element {
                node: element,
                context: &context,
                path: String::new(),
                depth: 0,
                referenced: false,
            };
            return top
                .check_unqualified()
                .and_then(|()| read(&top))
                .map_err(|error| undecodable(format!("the response: {error}")));
        }
    }
    // A fault, an error status or a body that is no envelope: read as any response's.
    match crate::message::decode_wrapper_response(binding, operation, response, |_| Ok(())) {
        Err(error) => Err(error),
        Ok(()) => Err(undecodable(
            "the response is not an encoded envelope".into(),
        )),
    }
}

fn parse(text: &str) -> Result<roxmltree::Document<'_>, RequestError> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: false,
        nodes_limit: (MAX_ELEMENTS * 4) as u32,
    };
    let doc =
        roxmltree::Document::parse_with_options(text, options).map_err(|error| match error {
            roxmltree::Error::DtdDetected => RequestError::Doctype,
            error => RequestError::MalformedXml {
                reason: error.to_string(),
            },
        })?;
    // Nesting is bounded as the literal reader bounds it: deeper is malformed, as the host's
    // reader finds it. (A node's parent comes before it in document order, and ids count in
    // it.)
    let mut depths = vec![0u32; doc.descendants().count() + 1];
    for node in doc.descendants().filter(Node::is_element) {
        let parent = node.parent().map_or(0, |p| depths[p.id().get() as usize]);
        let depth = parent + 1;
        if depth as usize > MAX_DEPTH {
            return Err(RequestError::MalformedXml {
                reason: format!("elements nested deeper than {MAX_DEPTH} levels"),
            });
        }
        depths[node.id().get() as usize] = depth;
    }
    Ok(doc)
}

fn envelope_ns(binding: Binding) -> &'static str {
    if binding == Binding::Soap12 {
        SOAP12_NS
    } else {
        SOAP11_NS
    }
}

/// The Body of the envelope of `binding`.
fn envelope_body<'a, 'i>(
    doc: &'a roxmltree::Document<'i>,
    binding: Binding,
) -> Result<Node<'a, 'i>, String> {
    let ns = envelope_ns(binding);
    let root = doc.root_element();
    if root.tag_name().name() != "Envelope" || root.tag_name().namespace() != Some(ns) {
        return Err(format!("the document element is {}", clark(root)));
    }
    root.children()
        .filter(Node::is_element)
        .find(|e| e.tag_name().name() == "Body" && e.tag_name().namespace() == Some(ns))
        .ok_or_else(|| "the envelope has no Body".to_owned())
}

/// Refuses a header block marked `mustUnderstand`: an rpc method of rmm reads no header.
fn check_headers(doc: &roxmltree::Document<'_>, binding: Binding) -> Result<(), RequestError> {
    let ns = envelope_ns(binding);
    let header = doc.root_element().children().find(|e| {
        e.is_element() && e.tag_name().name() == "Header" && e.tag_name().namespace() == Some(ns)
    });
    for block in header
        .iter()
        .flat_map(|h| h.children())
        .filter(Node::is_element)
    {
        if matches!(block.attribute((ns, "mustUnderstand")), Some("1" | "true")) {
            return Err(RequestError::MustUnderstand {
                header: clark(block),
            });
        }
    }
    Ok(())
}

/// An element's namespace: `None` for none (`xmlns=""` too).
fn namespace<'a>(node: Node<'a, '_>) -> Option<&'a str> {
    node.tag_name().namespace().filter(|ns| !ns.is_empty())
}

/// `{namespace}local`.
fn clark(node: Node<'_, '_>) -> String {
    format!(
        "{{{}}}{}",
        node.tag_name().namespace().unwrap_or(""),
        node.tag_name().name()
    )
}

/// What every element of one message shares: the ids, the version, the types' namespace and
/// the count of values read.
struct Context<'a, 'i> {
    ids: HashMap<&'a str, Node<'a, 'i>>,
    soap12: bool,
    types: &'static str,
    visits: Cell<usize>,
}

impl<'a, 'i> Context<'a, 'i> {
    /// The ids of the Body's elements, the first of two equal ones kept (.NET's `AddTarget`):
    /// `id` in SOAP 1.1, `soapenc:id` in SOAP 1.2.
    fn new(doc: &'a roxmltree::Document<'i>, binding: Binding, types: &'static str) -> Self {
        let soap12 = binding == Binding::Soap12;
        let mut ids = HashMap::new();
        for node in doc.descendants().filter(Node::is_element) {
            let id = if soap12 {
                node.attribute((SOAP12_ENCODING, "id"))
            } else {
                node.attribute("id")
            };
            if let Some(id) = id {
                ids.entry(id).or_insert(node);
            }
        }
        Context {
            ids,
            soap12,
            types,
            visits: Cell::new(0),
        }
    }
}

/// An accessor's element, references followed: what a type reads its value from.
pub struct Element<'a, 'i> {
    node: Node<'a, 'i>,
    context: &'a Context<'a, 'i>,
    path: String,
    depth: usize,
    /// Whether it was reached by a reference: a multi-reference value, whose element's name
    /// gives its type when it has no `xsi:type`.
    referenced: bool,
}

/// A type name as an element names it: its namespace and local name.
type QName<'a> = (Option<&'a str>, &'a str);

impl<'a, 'i> Element<'a, 'i> {
    /// Where it is, from the parameter or result down (`l/From/X`).
    pub fn path(&self) -> String {
        self.path.clone()
    }

    /// The accessor `name` among its children (the first of a repeated one, as the host
    /// keeps it), read as `T`; an absent one reads as `T`'s default, as on the host.
    pub fn member<T: Decode>(&self, name: &'static str) -> Result<T, EncodedError> {
        let found = self
            .node
            .children()
            .find(|c| c.is_element() && namespace(*c).is_none() && c.tag_name().name() == name);
        let Some(child) = found else {
            return Ok(T::absent());
        };
        let path = if self.path.is_empty() {
            name.to_owned()
        } else {
            format!("{}/{name}", self.path)
        };
        self.read_child(child, path, false)
    }

    /// Reads `child` (an accessor or an item) as `T`: its reference followed, `xsi:nil` read.
    fn read_child<T: Decode>(
        &self,
        child: Node<'a, 'i>,
        path: String,
        item: bool,
    ) -> Result<T, EncodedError> {
        let visits = self.context.visits.get() + 1;
        if visits > MAX_ELEMENTS {
            return Err(EncodedError::TooLarge {
                limit: MAX_ELEMENTS,
            });
        }
        self.context.visits.set(visits);
        if self.depth >= MAX_DEPTH {
            return Err(EncodedError::TooDeep {
                path,
                limit: MAX_DEPTH,
            });
        }
        let (node, referenced) = match self.reference(child, &path)? {
            Some(target) => {
                if item && T::VALUE_TYPE {
                    return Err(EncodedError::ReferencedValueItem {
                        path,
                        ty: T::TYPE.dotnet(),
                    });
                }
                (target, true)
            }
            None => (child, false),
        };
        let element = Element {
            node,
            context: self.context,
            path,
            depth: self.depth + 1,
            referenced,
        };
        if is_nil(child) || is_nil(node) {
            return T::decode_nil(&element);
        }
        match T::decode(&element) {
            // A parameter given by reference is made of the referenced element's type, and
            // only calling the method finds it is not the parameter's: a server fault there.
            Err(EncodedError::TypeMismatch {
                path,
                found,
                expected,
            }) if self.depth == 0 && referenced && path == element.path => {
                Err(EncodedError::ParameterType {
                    path,
                    found,
                    expected,
                })
            }
            other => other,
        }
    }

    /// The element `child` refers to, if it is a reference: `href="#id"` in SOAP 1.1,
    /// `soapenc:ref="id"` in SOAP 1.2.
    fn reference(
        &self,
        child: Node<'a, 'i>,
        path: &str,
    ) -> Result<Option<Node<'a, 'i>>, EncodedError> {
        let id = if self.context.soap12 {
            if child.attribute("href").is_some() {
                return Err(EncodedError::HrefInSoap12 { path: path.into() });
            }
            match child.attribute((SOAP12_ENCODING, "ref")) {
                Some(id) => id,
                None => return Ok(None),
            }
        } else {
            match child.attribute("href") {
                Some(href) => {
                    href.strip_prefix('#')
                        .ok_or_else(|| EncodedError::OutsideDocument {
                            path: path.into(),
                            href: href.into(),
                        })?
                }
                None => return Ok(None),
            }
        };
        match self.context.ids.get(id) {
            Some(target) => Ok(Some(*target)),
            None => Err(EncodedError::NotFound {
                path: path.into(),
                id: id.into(),
            }),
        }
    }

    /// The type the element names: its `xsi:type`, or for a multi-reference value without one
    /// its own qualified name (the host reads a `<tns:Circle>` as a Circle).
    fn named_type(&self, by_element: bool) -> Result<Option<QName<'a>>, EncodedError> {
        if let Some(value) = self.node.attribute((XSI, "type")) {
            return self.resolve(value).map(Some);
        }
        // A multi-reference value (a child of the Body, not an accessor elsewhere that
        // carries an id) is named after its type.
        let multi_ref = self.node.parent_element().is_some_and(|p| {
            p.tag_name().name() == "Body"
                && p.parent_element()
                    .is_some_and(|e| e.parent().is_some_and(|r| r.is_root()))
        });
        if by_element && self.referenced && multi_ref {
            return Ok(Some((namespace(self.node), self.node.tag_name().name())));
        }
        Ok(None)
    }

    /// A qualified name in an attribute's value, resolved in the element's scope.
    fn resolve(&self, value: &'a str) -> Result<QName<'a>, EncodedError> {
        let (prefix, local) = match value.split_once(':') {
            Some((prefix, local)) => (Some(prefix), local),
            None => (None, value),
        };
        match self.node.lookup_namespace_uri(prefix) {
            Some(ns) => Ok((Some(ns), local)),
            None if prefix.is_none() => Ok((None, local)),
            None => Err(EncodedError::UnboundPrefix {
                path: self.path.clone(),
                name: value.into(),
            }),
        }
    }

    /// Whether the name `found` is the type `ty` (XML Schema's types also under their
    /// `soapenc` names, and `byte[]` as `soapenc:base64`).
    fn is_type(&self, found: QName<'_>, ty: TypeName) -> bool {
        let (ns, local) = found;
        match ty {
            TypeName::Xsd(name) => {
                let encoding = ns == Some(SOAP11_ENCODING) || ns == Some(SOAP12_ENCODING);
                (ns == Some(XSD) || encoding)
                    && (local == name || (encoding && name == "base64Binary" && local == "base64"))
            }
            TypeName::Ms(name) => ns == Some(MS_TYPES) && local == name,
            TypeName::Service(name) => ns == Some(self.context.types) && local == name,
            TypeName::Array => {
                (ns == Some(SOAP11_ENCODING) || ns == Some(SOAP12_ENCODING)) && local == "Array"
            }
        }
    }

    fn mismatch(&self, found: QName<'_>, expected: TypeName) -> EncodedError {
        let (ns, local) = found;
        let found = match ns {
            Some(XSD) => {
                super::dotnet_name(local).map_or_else(|| format!("xsd:{local}"), str::to_owned)
            }
            Some(ns) if ns == self.context.types => local.to_owned(),
            Some(ns) => format!("{{{ns}}}{local}"),
            None => local.to_owned(),
        };
        EncodedError::TypeMismatch {
            path: self.path.clone(),
            found,
            expected: expected.dotnet(),
        }
    }

    /// Refuses a type other than `ty` named by the element.
    fn check_simple_type(&self, ty: TypeName) -> Result<(), EncodedError> {
        match self.named_type(false)? {
            Some(found) if !self.is_type(found, ty) => Err(self.mismatch(found, ty)),
            _ => Ok(()),
        }
    }

    /// The text of a simple value of type `ty`: its text children joined; an element inside
    /// is refused, as the host refuses it.
    pub fn text(&self, ty: TypeName) -> Result<Cow<'a, str>, EncodedError> {
        self.check_simple_type(ty)?;
        if self.node.children().any(|c| c.is_element()) {
            return Err(EncodedError::NotText {
                path: self.path.clone(),
                ty: ty.dotnet(),
            });
        }
        // Text broken by comments is joined, as the host's `ReadElementString` joins it.
        let mut texts = self.node.children().filter_map(|c| c.text());
        Ok(match (texts.next(), texts.next()) {
            (None, _) => Cow::Borrowed(""),
            (Some(only), None) => Cow::Borrowed(only),
            (Some(first), Some(second)) => {
                let mut joined = format!("{first}{second}");
                texts.for_each(|t| joined.push_str(t));
                Cow::Owned(joined)
            }
        })
    }

    /// A simple value of type `ty`, read as `XmlConvert` reads it.
    pub fn scalar<T: Scalar>(&self, ty: TypeName) -> Result<T, EncodedError> {
        let text = self.text(ty)?;
        T::read_xml(&text).map_err(|error| EncodedError::InvalidValue {
            path: self.path.clone(),
            ty: ty.dotnet(),
            value: text.into_owned(),
            error,
        })
    }

    /// Checks that the element is of the class `declared` (which has no derived classes),
    /// and that its members are unqualified.
    pub fn check_class(&self, declared: &'static str) -> Result<(), EncodedError> {
        self.class(declared, &[declared]).map(|_| ())
    }

    /// The class of the element, among `known` (the declared class `declared` and those
    /// derived from it): its `xsi:type`, its name for a multi-reference value without one, or
    /// `declared`. Its members are checked to be unqualified.
    pub fn class(
        &self,
        declared: &'static str,
        known: &[&'static str],
    ) -> Result<&'static str, EncodedError> {
        let class = match self.named_type(true)? {
            None => declared,
            Some(found) => known
                .iter()
                .find(|name| self.is_type(found, TypeName::Service(name)))
                .copied()
                .ok_or_else(|| self.mismatch(found, TypeName::Service(declared)))?,
        };
        self.check_unqualified()?;
        Ok(class)
    }

    /// The refusal of an element of an abstract class that names no class derived from it.
    pub fn abstract_class(&self, declared: &'static str) -> EncodedError {
        EncodedError::TypeMismatch {
            path: self.path.clone(),
            found: format!("{declared} (abstract)"),
            expected: declared.to_owned(),
        }
    }

    /// Refuses a qualified child: parameters and members are unqualified.
    fn check_unqualified(&self) -> Result<(), EncodedError> {
        for child in self.node.children().filter(Node::is_element) {
            // SOAP 1.2's `<rpc:result>` names the result in a response.
            if self.context.soap12 && namespace(child) == Some(super::SOAP12_RPC) {
                continue;
            }
            if let Some(namespace) = namespace(child) {
                return Err(EncodedError::Qualified {
                    path: if self.path.is_empty() {
                        "the parameters".into()
                    } else {
                        self.path.clone()
                    },
                    namespace: namespace.into(),
                    name: child.tag_name().name().into(),
                });
            }
        }
        Ok(())
    }

    /// An array of `T`: SOAP 1.1 needs `soapenc:arrayType` (without it the host reads null),
    /// whose item type must be `T`'s; SOAP 1.2 reads `soapenc:itemType` when present. The
    /// declared size, offsets and positions are ignored and every child element is an item,
    /// whatever its name, as on the host.
    pub fn array<T: Decode>(&self) -> Result<Vec<T>, EncodedError> {
        let array_type = self.node.attribute((SOAP11_ENCODING, "arrayType"));
        let item_type = match (array_type, self.context.soap12) {
            (Some(value), _) => Some(self.array_item_type(value)?),
            (None, false) => {
                return Err(EncodedError::NoArrayType {
                    path: self.path.clone(),
                })
            }
            (None, true) => match self.node.attribute((SOAP12_ENCODING, "itemType")) {
                Some(value) => Some(self.resolve(value)?),
                None => None,
            },
        };
        if let Some(found) = item_type {
            if !self.is_type(found, T::TYPE) {
                let mut error = self.mismatch(found, T::TYPE);
                if let EncodedError::TypeMismatch {
                    found, expected, ..
                } = &mut error
                {
                    found.push_str("[]");
                    expected.push_str("[]");
                }
                return Err(error);
            }
        }
        let mut items = Vec::new();
        for child in self.node.children().filter(Node::is_element) {
            let path = format!("{}/Item[{}]", self.path, items.len() + 1);
            items.push(self.read_child::<T>(child, path, true)?);
        }
        Ok(items)
    }

    /// The item type of `soapenc:arrayType="xsd:int[3]"`: one dimension, one rank.
    fn array_item_type(&self, value: &'a str) -> Result<QName<'a>, EncodedError> {
        let bad = || EncodedError::BadArrayType {
            path: self.path.clone(),
            value: value.into(),
        };
        let (name, dims) = value.split_once('[').ok_or_else(bad)?;
        if dims.contains(',') || !dims.ends_with(']') {
            return Err(bad());
        }
        if dims.contains('[') {
            // An array of arrays (`xsd:int[][2]`): its items are arrays.
            return Ok((Some(SOAP11_ENCODING), "Array"));
        }
        self.resolve(name)
    }
}

/// `xsi:nil="true"` (or `1`).
fn is_nil(node: Node<'_, '_>) -> bool {
    matches!(
        node.attribute((XSI, "nil")).map(str::trim),
        Some("true" | "1")
    )
}
