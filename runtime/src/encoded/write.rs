//! The encoded writer: a message's [`Value`]s laid out as the host lays them out, multi-refs
//! breadth first in SOAP 1.1, inline depth first in SOAP 1.2.

use std::collections::VecDeque;

use bytes::Bytes;
use http::{Request, Response};

use super::{
    RpcInfo, TypeName, Unwritable, Value, MS_TYPES, SOAP11_ENCODING, SOAP12_ENCODING, SOAP12_RPC,
};
use crate::soap::{SOAP11_NS as SOAP11_ENVELOPE_NS, SOAP12_NS as SOAP12_ENVELOPE_NS};
use crate::{Binding, EncodeError, OperationInfo};

/// The request of an rpc method: `<types:Op>` (in its request namespace) holding the
/// parameters, as a .NET client's `XmlSerializationWriter` writes it.
pub fn request(
    binding: Binding,
    operation: &'static OperationInfo,
    rpc: &RpcInfo,
    params: &[(&'static str, Value)],
) -> Result<Request<Bytes>, EncodeError> {
    crate::message::check_offered(operation, binding)?;
    let envelope = write_envelope(
        binding,
        operation,
        rpc,
        (operation.request_element, rpc.request_namespace),
        None,
        params,
    )?;
    Ok(crate::message::soap_request(binding, operation, envelope))
}

/// The `200` response of an rpc method: `<types:OpResponse>` holding the result, then the
/// out and ref parameters.
pub fn response(
    binding: Binding,
    operation: &'static OperationInfo,
    rpc: &RpcInfo,
    members: &[(&'static str, Value)],
) -> Result<Response<Bytes>, EncodeError> {
    if !binding.is_soap() {
        return Err(EncodeError::NotOffered {
            operation: operation.name,
            binding,
        });
    }
    let envelope = write_envelope(
        binding,
        operation,
        rpc,
        (operation.response_name, rpc.response_namespace),
        rpc.result,
        members,
    )?;
    Ok(crate::message::soap_ok(binding, envelope))
}

/// The envelope holding the element `name` (local name, namespace) with `members`; SOAP
/// 1.2's `<rpc:result>` first when `result` names one.
pub fn write_envelope(
    binding: Binding,
    operation: &'static OperationInfo,
    rpc: &RpcInfo,
    name: (&str, &str),
    result: Option<&str>,
    members: &[(&'static str, Value)],
) -> Result<String, EncodeError> {
    let soap12 = binding == Binding::Soap12;
    let mut w = Writer {
        out: String::with_capacity(1024),
        soap12,
        ids: 0,
        prefixes: 0,
        queue: VecDeque::new(),
        operation: operation.name,
    };
    let (envelope, encoding) = if soap12 {
        (SOAP12_ENVELOPE_NS, SOAP12_ENCODING)
    } else {
        (SOAP11_ENVELOPE_NS, SOAP11_ENCODING)
    };
    let out = &mut w.out;
    out.push_str("<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"");
    out.push_str(envelope);
    out.push_str("\" xmlns:soapenc=\"");
    out.push_str(encoding);
    out.push_str("\" xmlns:tns=\"");
    out.push_str(operation.service.namespace);
    out.push_str("\" xmlns:types=\"");
    out.push_str(rpc.types_namespace);
    if soap12 {
        out.push_str("\" xmlns:rpc=\"");
        out.push_str(SOAP12_RPC);
    }
    out.push_str("\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\">");
    if soap12 {
        out.push_str("<soap:Body>");
    } else {
        out.push_str("<soap:Body soap:encodingStyle=\"");
        out.push_str(SOAP11_ENCODING);
        out.push_str("\">");
    }
    // The element: `types:` when in the types' namespace, `tns:` in the service's, else a
    // prefix of its own.
    let (local, namespace) = name;
    let prefix = if namespace == rpc.types_namespace {
        "types".to_owned()
    } else if namespace == operation.service.namespace {
        "tns".to_owned()
    } else {
        w.prefixes += 1;
        format!("q{}", w.prefixes)
    };
    w.out.push('<');
    w.out.push_str(&prefix);
    w.out.push(':');
    w.out.push_str(local);
    if prefix.starts_with('q') {
        w.out.push_str(" xmlns:");
        w.out.push_str(&prefix);
        w.out.push_str("=\"");
        w.out.push_str(namespace);
        w.out.push('"');
    }
    let result = result.filter(|_| soap12);
    if members.iter().all(|(_, v)| *v == Value::Null) && result.is_none() {
        w.out.push_str(" />");
    } else {
        w.out.push('>');
        if let Some(result) = result {
            w.out.push_str("<rpc:result xmlns=\"\">");
            w.out.push_str(result);
            w.out.push_str("</rpc:result>");
        }
        for (name, value) in members {
            w.accessor(name, value)?;
        }
        w.out.push_str("</");
        w.out.push_str(&prefix);
        w.out.push(':');
        w.out.push_str(local);
        w.out.push('>');
    }
    while let Some((id, value)) = w.queue.pop_front() {
        w.multi_ref(id, value)?;
    }
    w.out.push_str("</soap:Body></soap:Envelope>");
    Ok(w.out)
}

struct Writer<'v> {
    out: String,
    soap12: bool,
    /// The last id given (`id1` is the first).
    ids: u32,
    /// The last `qN` prefix declared.
    prefixes: u32,
    /// SOAP 1.1's multi-reference values still to write, with their ids.
    queue: VecDeque<(u32, &'v Value)>,
    operation: &'static str,
}

impl<'v> Writer<'v> {
    /// An accessor (a parameter, result or member) named `name`: nothing for null.
    fn accessor(&mut self, name: &'static str, value: &'v Value) -> Result<(), EncodeError> {
        match value {
            Value::Null => Ok(()),
            Value::Unwritable(why) => Err(self.unwritable(name, why)),
            Value::Simple { ty, text } => {
                self.out.push('<');
                self.out.push_str(name);
                self.xsi_type(*ty);
                self.text_content(name, name, text)
            }
            Value::Object { .. } | Value::Array { .. } if !self.soap12 => {
                self.href(name, value);
                Ok(())
            }
            Value::Object { ty, members } => {
                self.ids += 1;
                self.out.push('<');
                self.out.push_str(name);
                self.id_attribute();
                self.xsi_type(TypeName::Service(ty));
                self.members(name, members)
            }
            Value::Array { item, items } => self.inline_array(name, *item, items),
        }
    }

    /// The refusal of a value .NET cannot hold, at the accessor `field`.
    fn unwritable(&self, field: &'static str, why: &Unwritable) -> EncodeError {
        match why {
            Unwritable::NotOneUnit(value) => EncodeError::NotOneUnit {
                operation: self.operation,
                field,
                value: *value,
            },
            Unwritable::NotDotnetDateTime(value) => EncodeError::NotDotnetDateTime {
                operation: self.operation,
                field,
                value: value.clone(),
            },
        }
    }

    /// `<name href="#idN" />`, the value queued.
    fn href(&mut self, name: &str, value: &'v Value) {
        self.ids += 1;
        self.queue.push_back((self.ids, value));
        self.out.push('<');
        self.out.push_str(name);
        self.out.push_str(" href=\"#id");
        self.push_number(self.ids);
        self.out.push_str("\" />");
    }

    /// ` soapenc:id="idN"` (SOAP 1.2) for the id just taken.
    fn id_attribute(&mut self) {
        self.out.push_str(" soapenc:id=\"id");
        self.push_number(self.ids);
        self.out.push('"');
    }

    fn push_number(&mut self, n: u32) {
        self.out.push_str(itoa::Buffer::new().format(n));
    }

    /// The members of an object whose start tag is open, then its end tag (`/>` without any).
    fn members(
        &mut self,
        name: &str,
        members: &'v [(&'static str, Value)],
    ) -> Result<(), EncodeError> {
        if members.iter().all(|(_, v)| *v == Value::Null) {
            self.out.push_str(" />");
            return Ok(());
        }
        self.out.push('>');
        for (member, value) in members {
            self.accessor(member, value)?;
        }
        self.end(name);
        Ok(())
    }

    fn end(&mut self, name: &str) {
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
    }

    /// ` xsi:type="…"` naming `ty`; ASMX's own types get a `qN` prefix declared before it.
    fn xsi_type(&mut self, ty: TypeName) {
        match ty {
            TypeName::Xsd(local) => {
                self.out.push_str(" xsi:type=\"xsd:");
                self.out.push_str(local);
            }
            TypeName::Service(local) => {
                self.out.push_str(" xsi:type=\"types:");
                self.out.push_str(local);
            }
            TypeName::Ms(local) => {
                self.prefixes += 1;
                let n = self.prefixes;
                self.out.push_str(" xmlns:q");
                self.push_number(n);
                self.out.push_str("=\"");
                self.out.push_str(MS_TYPES);
                self.out.push_str("\" xsi:type=\"q");
                self.push_number(n);
                self.out.push(':');
                self.out.push_str(local);
            }
            TypeName::Array => self.out.push_str(" xsi:type=\"soapenc:Array"),
        }
        self.out.push('"');
    }

    /// The item type of an array as its attribute names it (`xsd:int`), declaring a prefix
    /// for ASMX's own types.
    fn type_reference(&mut self, ty: TypeName) -> String {
        match ty {
            TypeName::Xsd(local) => format!("xsd:{local}"),
            TypeName::Service(local) => format!("types:{local}"),
            TypeName::Ms(local) => {
                self.prefixes += 1;
                let n = self.prefixes;
                self.out.push_str(" xmlns:q");
                self.push_number(n);
                self.out.push_str("=\"");
                self.out.push_str(MS_TYPES);
                self.out.push('"');
                format!("q{n}:{local}")
            }
            TypeName::Array => "soapenc:Array".to_owned(),
        }
    }

    /// Closes a start tag and writes `text` (escaped) and the end tag; `/>` for no text.
    fn text_content(
        &mut self,
        field: &'static str,
        name: &str,
        text: &str,
    ) -> Result<(), EncodeError> {
        if text.is_empty() {
            self.out.push_str(" />");
            return Ok(());
        }
        self.out.push('>');
        crate::xml::escape_text(&mut self.out, text).map_err(|code| {
            EncodeError::InvalidXmlChar {
                operation: self.operation,
                field,
                code,
            }
        })?;
        self.end(name);
        Ok(())
    }

    /// A SOAP 1.1 multi-reference value: `<types:T id="idN" xsi:type="types:T">` or
    /// `<soapenc:Array id="idN" soapenc:arrayType="xsd:int[3]">`.
    fn multi_ref(&mut self, id: u32, value: &'v Value) -> Result<(), EncodeError> {
        match value {
            Value::Object { ty, members } => {
                let name = format!("types:{ty}");
                self.out.push('<');
                self.out.push_str(&name);
                self.out.push_str(" id=\"id");
                self.push_number(id);
                self.out.push('"');
                self.xsi_type(TypeName::Service(ty));
                self.members(&name, members)
            }
            Value::Array { item, items } => {
                self.out.push_str("<soapenc:Array");
                let reference = self.type_reference(*item);
                self.out.push_str(" id=\"id");
                self.push_number(id);
                self.out.push_str("\" soapenc:arrayType=\"");
                self.out.push_str(&reference);
                self.out.push('[');
                self.push_number(items.len() as u32);
                self.out.push_str("]\"");
                self.items(*item, items, "soapenc:Array")
            }
            // Only objects and arrays are queued.
            Value::Null | Value::Simple { .. } | Value::Unwritable(_) => Ok(()),
        }
    }

    /// A SOAP 1.2 array, inline: `<name soapenc:id="idN" soapenc:itemType="xsd:int"
    /// soapenc:arraySize="3">`.
    fn inline_array(
        &mut self,
        name: &'static str,
        item: TypeName,
        items: &'v [Value],
    ) -> Result<(), EncodeError> {
        self.ids += 1;
        self.out.push('<');
        self.out.push_str(name);
        self.id_attribute();
        let reference = self.type_reference(item);
        self.out.push_str(" soapenc:itemType=\"");
        self.out.push_str(&reference);
        self.out.push_str("\" soapenc:arraySize=\"");
        self.push_number(items.len() as u32);
        self.out.push('"');
        self.items(item, items, name)
    }

    /// An array's items, `Item`, without `xsi:type` (but for an object of a class derived
    /// from the declared one), then the end tag.
    fn items(
        &mut self,
        declared: TypeName,
        items: &'v [Value],
        name: &str,
    ) -> Result<(), EncodeError> {
        if items.is_empty() {
            self.out.push_str(" />");
            return Ok(());
        }
        self.out.push('>');
        for item in items {
            match item {
                Value::Null => self.out.push_str("<Item xsi:nil=\"true\" />"),
                Value::Unwritable(why) => return Err(self.unwritable("Item", why)),
                Value::Simple { text, .. } => {
                    self.out.push_str("<Item");
                    self.text_content("Item", "Item", text)?;
                }
                Value::Object { .. } | Value::Array { .. } if !self.soap12 => {
                    self.href("Item", item);
                }
                Value::Object { ty, members } => {
                    self.ids += 1;
                    self.out.push_str("<Item");
                    self.id_attribute();
                    if declared != TypeName::Service(ty) {
                        self.xsi_type(TypeName::Service(ty));
                    }
                    self.members("Item", members)?;
                }
                Value::Array { item, items } => self.inline_array("Item", *item, items)?,
            }
        }
        self.end(name);
        Ok(())
    }
}
