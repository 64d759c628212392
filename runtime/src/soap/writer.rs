//! The envelope writer: one pre-sized buffer, literals and values.

use super::{envelope_open, ENVELOPE_CLOSE};

/// The Body's start tag, which ends every envelope's opening.
const BODY_OPEN: &str = "<soap:Body>";
use super::header::{HEADER_CLOSE, HEADER_OPEN};
use crate::xml;
use crate::{Binding, EncodeError, Scalar};

/// Writes one envelope into one pre-sized buffer. Generated encoders write the markup between
/// values as precomputed literals (`w.raw("</a><b>")`) and each value with its own call.
#[derive(Debug)]
pub struct SoapWriter {
    out: String,
    /// Where the size of the message is noted when it is finished, for the next.
    written: &'static crate::SizeHint,
    binding: Binding,
    operation: &'static str,
    /// The service namespace, the default one inside the Body's element: raw XML written
    /// there declares what it needs against it.
    service: &'static str,
    /// A bare operation's: its values stand in the Body, with no operation element around.
    bare: bool,
    /// Started by [`SoapWriter::headed`]: where the Header stands, until [`SoapWriter::body`].
    header: HeaderState,
}

/// Where an envelope started with [`SoapWriter::headed`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HeaderState {
    /// No Header to write: the Body is open (or the envelope was started with `new`).
    None,
    /// Before the Header: no block written yet.
    Before,
    /// Inside `<soap:Header>`.
    Open,
}

impl SoapWriter {
    /// Starts an envelope of `binding` for `operation` whose body will hold about `capacity`
    /// bytes.
    pub fn new(
        binding: Binding,
        operation: &'static crate::OperationInfo,
        capacity: usize,
    ) -> SoapWriter {
        let open = envelope_open(binding);
        let room = (open.len() + capacity + ENVELOPE_CLOSE.len()).max(operation.written.get());
        let mut out = String::with_capacity(room);
        out.push_str(open);
        SoapWriter {
            out,
            written: &operation.written,
            binding,
            operation: operation.name,
            service: operation.service.namespace,
            bare: operation.bare,
            header: HeaderState::None,
        }
    }

    /// A writer of elements into the envelope: a request's (`request`) or a response's.
    fn xml_out(&mut self, request: bool) -> crate::tree::XmlOut<'_> {
        let scope = crate::tree::RawScope::Message {
            envelope: super::envelope_ns(self.binding),
            default: self.service,
        };
        let w = if request {
            crate::tree::XmlOut::request(&mut self.out, self.operation)
        } else {
            crate::tree::XmlOut::new(&mut self.out, self.operation)
        };
        // Envelope and Body, and a wrapped operation's element, stand above the values.
        w.in_scope(scope).at_depth(if self.bare { 2 } else { 3 })
    }

    /// Starts an envelope of `binding` whose Header may hold blocks ([`SoapWriter::header`]),
    /// then its Body ([`SoapWriter::body`]): an operation with SOAP headers. A Header without
    /// a block is left out, as .NET's client leaves it out when every header is null.
    pub fn headed(
        binding: Binding,
        operation: &'static crate::OperationInfo,
        capacity: usize,
    ) -> SoapWriter {
        let open = envelope_open(binding);
        let mut w = SoapWriter::new(binding, operation, capacity + HEADER_OPEN.len() * 2);
        w.out.truncate(open.len() - BODY_OPEN.len());
        w.header = HeaderState::Before;
        w
    }

    /// Writes the header block `name`, of a `[SoapHeader]` class, in the namespace whose
    /// declaration is `xmlns` (` xmlns="…"`), its attributes before it, as .NET's client
    /// writes a header member that is set; nothing for `None`.
    pub fn header<T: super::SoapHeaderItem>(
        &mut self,
        xmlns: &'static str,
        name: &'static str,
        value: Option<&T>,
    ) -> Result<(), EncodeError> {
        let Some(value) = value else {
            return Ok(());
        };
        debug_assert!(
            self.header != HeaderState::None,
            "SoapWriter::header after the Body started"
        );
        if self.header == HeaderState::Before {
            self.out.push_str(HEADER_OPEN);
            self.header = HeaderState::Open;
        }
        super::header::write_block(
            &mut self.out,
            self.binding,
            self.operation,
            true,
            xmlns,
            name,
            value,
        )
    }

    /// Ends the Header of an envelope started with [`SoapWriter::headed`] and opens its Body.
    pub fn body(&mut self) {
        match self.header {
            HeaderState::None => return,
            HeaderState::Before => {}
            HeaderState::Open => self.out.push_str(HEADER_CLOSE),
        }
        self.out.push_str(BODY_OPEN);
        self.header = HeaderState::None;
    }

    /// Appends precomputed markup.
    #[inline(always)]
    pub fn raw(&mut self, markup: &'static str) {
        self.out.push_str(markup);
    }

    /// Appends markup made at run time.
    pub(crate) fn text(&mut self, markup: &str) {
        self.out.push_str(markup);
    }

    /// Appends `<p>element</p>` for a parameter of raw XML (`XmlElement`), the element
    /// written as .NET's client writes it inside the operation element (the envelope's
    /// prefixes and the service namespace `namespace` in scope); nothing at all for `None`
    /// (the element is left out, which an ASMX host reads as null).
    pub fn raw_xml(
        &mut self,
        field: &'static str,
        namespace: &'static str,
        open: &'static str,
        value: Option<&crate::RawXml>,
        close: &'static str,
    ) -> Result<(), EncodeError> {
        let Some(value) = value else {
            return Ok(());
        };
        self.out.push_str(open);
        let mut scope = crate::raw_xml::Scope::message(super::envelope_ns(self.binding), namespace);
        crate::raw_xml::write_element(&mut self.out, value.root(), &mut scope, true).map_err(
            |code| EncodeError::InvalidXmlChar {
                operation: self.operation,
                field,
                code,
            },
        )?;
        self.out.push_str(close);
        Ok(())
    }

    /// Appends a DataSet parameter: `open`, the set's schema and diffgram, `close`; nothing
    /// for `None` (the element left out, as XmlSerializer leaves out a null).
    pub fn data_set<T: crate::dataset::DataHolder>(
        &mut self,
        field: &'static str,
        namespace: &'static str,
        open: &'static str,
        value: Option<&T>,
        close: &'static str,
    ) -> Result<(), EncodeError> {
        let Some(value) = value else {
            return Ok(());
        };
        let Some(view) = value.holder_view() else {
            return Err(EncodeError::UnnamedDataTable {
                operation: self.operation,
                field,
            });
        };
        self.out.push_str(open);
        crate::message::write_data_set_holder(&mut self.out, self.binding, namespace, &view, true)
            .map_err(|code| EncodeError::InvalidXmlChar {
                operation: self.operation,
                field,
                code,
            })?;
        self.out.push_str(close);
        Ok(())
    }

    /// Appends a value of any simple type but `string`, as `XmlConvert` writes it (the tags
    /// around it are written by [`SoapWriter::raw`]).
    #[inline(always)]
    pub fn scalar<T: Scalar>(&mut self, value: &T) {
        value.write_xml(&mut self.out);
    }

    /// Appends a nullable value: `<p>value</p>`, or for `None` the element with
    /// `xsi:nil="true"` (`nil`, precomputed), as .NET's client writes a null `int?`.
    #[inline]
    pub fn nullable<T: Scalar>(
        &mut self,
        open: &'static str,
        value: Option<&T>,
        close: &'static str,
        nil: &'static str,
    ) {
        match value {
            Some(value) => {
                self.out.push_str(open);
                value.write_xml(&mut self.out);
                self.out.push_str(close);
            }
            None => self.out.push_str(nil),
        }
    }

    /// Appends bytes as base64 (the tags around them are written by [`SoapWriter::raw`]).
    pub(crate) fn base64(&mut self, bytes: &[u8]) {
        crate::value::scalar::write_base64(&mut self.out, bytes);
    }

    /// Appends `<p>base64</p>`: an empty array as `<p />`, nothing at all for `None` (the
    /// element is left out, which an ASMX host reads as null).
    #[inline]
    pub fn bytes(&mut self, open: &'static str, value: Option<&[u8]>, close: &'static str) {
        match value {
            None => {}
            Some([]) => {
                // `<p>` becomes `<p />`.
                self.out.push_str(&open[..open.len() - 1]);
                self.out.push_str(" />");
            }
            Some(bytes) => {
                self.out.push_str(open);
                crate::value::scalar::write_base64(&mut self.out, bytes);
                self.out.push_str(close);
            }
        }
    }

    /// Appends `<p>text</p>`, escaped; nothing at all for `None` (the element is left out,
    /// which an ASMX host reads as null).
    #[inline(always)]
    pub fn string(
        &mut self,
        field: &'static str,
        open: &'static str,
        value: Option<&str>,
        close: &'static str,
    ) -> Result<(), EncodeError> {
        if let Some(text) = value {
            self.out.push_str(open);
            // Most text needs no escape: then it is copied here, without a call.
            let first = xml::first_to_escape(text.as_bytes());
            if first == text.len() {
                self.out.push_str(text);
            } else {
                xml::escape_text_from(&mut self.out, text, first).map_err(|code| {
                    EncodeError::InvalidXmlChar {
                        operation: self.operation,
                        field,
                        code,
                    }
                })?;
            }
            self.out.push_str(close);
        }
        Ok(())
    }

    /// Appends a parameter of a class or array type (`items` names an array's items, see
    /// [`crate::tree::XmlItem`]): nothing at all for `None` (the element is left out, which
    /// an ASMX host reads as null).
    pub fn optional<T: crate::tree::XmlItem>(
        &mut self,
        name: &'static str,
        items: &'static [&'static str],
        value: Option<&T>,
    ) -> Result<(), EncodeError> {
        let mut elements = self.xml_out(true);
        elements.optional(name, items, value)?;
        elements.finish();
        Ok(())
    }

    /// Writes a parameter of a class with a root (`[XmlRoot]`), whose element is nillable:
    /// `xsi:nil` for `None`.
    pub fn nillable<T: crate::tree::XmlItem>(
        &mut self,
        name: &'static str,
        items: &'static [&'static str],
        value: Option<&T>,
    ) -> Result<(), EncodeError> {
        let mut elements = self.xml_out(true);
        elements.nillable(name, items, value)?;
        elements.finish();
        Ok(())
    }

    /// [`SoapWriter::optional`] for a parameter of a bare operation: an element of its own in
    /// the Body, its namespace declared on it by `xmlns` (` xmlns="…"`).
    pub fn optional_in<T: crate::tree::XmlItem>(
        &mut self,
        xmlns: &'static str,
        name: &'static str,
        items: &'static [&'static str],
        value: Option<&T>,
    ) -> Result<(), EncodeError> {
        let mut elements = self.xml_out(true);
        elements.qualify_first(xmlns);
        elements.optional(name, items, value)?;
        elements.finish();
        Ok(())
    }

    /// A writer of elements into the envelope, for parameters of a class or array type.
    #[inline]
    pub fn elements(&mut self) -> crate::tree::XmlOut<'_> {
        self.xml_out(false)
    }

    /// Appends `<p>node</p>` for a parameter of a raw XML node (`XmlNode`): an element as
    /// [`SoapWriter::raw_xml`] writes one, a text escaped (`<p />` for an empty one), a CDATA
    /// section as it is; nothing at all for `None`.
    pub fn raw_node(
        &mut self,
        field: &'static str,
        namespace: &'static str,
        open: &'static str,
        value: Option<&crate::RawNode>,
        close: &'static str,
    ) -> Result<(), EncodeError> {
        let invalid = |code| EncodeError::InvalidXmlChar {
            operation: self.operation,
            field,
            code,
        };
        match value {
            None => Ok(()),
            Some(crate::RawNode::Element(raw)) => {
                self.raw_xml(field, namespace, open, Some(raw), close)
            }
            Some(crate::RawNode::Text(text)) if text.is_empty() => {
                self.out.push_str(&open[..open.len() - 1]);
                self.out.push_str(" />");
                Ok(())
            }
            Some(crate::RawNode::Text(text)) => {
                self.out.push_str(open);
                xml::escape_text(&mut self.out, text).map_err(invalid)?;
                self.out.push_str(close);
                Ok(())
            }
            Some(crate::RawNode::CData(text)) => {
                crate::raw_xml::check_chars(text).map_err(invalid)?;
                self.out.push_str(open);
                self.out.push_str("<![CDATA[");
                self.out.push_str(text);
                self.out.push_str("]]>");
                self.out.push_str(close);
                Ok(())
            }
        }
    }

    /// How much has been written.
    pub fn len(&self) -> usize {
        self.out.len()
    }

    /// Whether nothing has been written (never: the envelope is written first).
    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    /// Closes the envelope and returns it.
    pub fn finish(mut self) -> String {
        self.out.push_str(ENVELOPE_CLOSE);
        self.written.set(self.out.len());
        self.out
    }

    /// Closes an envelope whose Body holds nothing, as XmlSerializer closes it: `<soap:Body />`
    /// (a bare operation's null result).
    pub fn finish_empty_body(mut self) -> String {
        debug_assert!(self.out.ends_with("<soap:Body>"));
        self.out.pop();
        self.out.push_str(" /></soap:Envelope>");
        self.out
    }
}
