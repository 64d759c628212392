//! SOAP header blocks, as .NET's `SoapHeader` carries them: the attributes its base class
//! gives every header (`mustUnderstand`, `actor`/`role`, `relay`), the blocks of a Header read
//! as value trees (a server's of the request, a client's of the response), and a Header
//! written before the Body.

use super::{envelope_ns, ENV, SERVICE, SOAP11_NS, SOAP12_NS, XSI};
use crate::tree::{MemberError, Node, XmlItem, XmlOut};
use crate::xml::{self, Element, Ns, TreeNs, XmlCursor};
use crate::{Binding, EncodeError, RequestError};

/// The attributes .NET's `SoapHeader` base class gives every header block. A server reads
/// them from a request's block and writes them back on an `InOut` header, as an ASMX host
/// does; a client sets them on a block it sends.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HeaderAttributes {
    /// `mustUnderstand="1"`: the receiver must understand the block or fault. Read from
    /// either envelope version's attribute (`0`, `1`, `false`, `true`; any other value is a
    /// client fault), written in the message's own version, and only when set.
    pub must_understand: bool,
    /// The SOAP 1.1 `actor` or SOAP 1.2 `role` (either one read, the message's own version's
    /// written), empty for none. An ASMX host processes a block whatever it names.
    pub actor: String,
    /// SOAP 1.2's `relay="1"`, written on SOAP 1.2 messages only.
    pub relay: bool,
}

impl HeaderAttributes {
    /// Reads the attributes of the block `element`, as `SoapHeader`'s members read them: the
    /// last one of a meaning wins. `relay` is checked in a SOAP 1.1 message too, but kept in
    /// SOAP 1.2 alone: 1.1 has no relay, and .NET never writes it there.
    pub(super) fn read(
        cursor: &XmlCursor<'_, 3>,
        element: &Element<'_>,
    ) -> Result<HeaderAttributes, RequestError> {
        let mut read = HeaderAttributes::default();
        let mut invalid = None;
        let in_soap12 = cursor.known()[ENV] == SOAP12_NS;
        cursor.each_namespaced_attribute(element, |ns, local, value| {
            let envelope = ns == SOAP11_NS.as_bytes() || ns == SOAP12_NS.as_bytes();
            let soap12 = ns == SOAP12_NS.as_bytes();
            let flag = |field: &'static str| match &*value {
                "0" | "false" => Ok(false),
                "1" | "true" => Ok(true),
                other => Err(RequestError::InvalidHeaderAttribute {
                    field,
                    value: other.to_owned(),
                }),
            };
            let result = match local {
                b"mustUnderstand" if envelope => {
                    flag("EncodedMustUnderstand").map(|v| read.must_understand = v)
                }
                b"actor" if ns == SOAP11_NS.as_bytes() => {
                    read.actor = value.clone().into_owned();
                    Ok(())
                }
                b"role" if soap12 => {
                    read.actor = value.clone().into_owned();
                    Ok(())
                }
                b"relay" if soap12 => flag("EncodedRelay").map(|v| read.relay = v && in_soap12),
                _ => Ok(()),
            };
            if let Err(error) = result {
                invalid.get_or_insert(error);
            }
        })?;
        match invalid {
            Some(error) => Err(error),
            None => Ok(read),
        }
    }

    /// The markup of the attributes set, each with its leading space, as `SoapHeader`'s
    /// members are written in a message of `binding` (its envelope's prefix `soap`).
    fn markup(
        &self,
        binding: Binding,
        operation: &'static str,
        request: bool,
    ) -> Result<String, EncodeError> {
        let mut out = String::new();
        if self.must_understand {
            out.push_str(" soap:mustUnderstand=\"1\"");
        }
        if !self.actor.is_empty() {
            out.push_str(if binding == Binding::Soap12 {
                " soap:role=\""
            } else {
                " soap:actor=\""
            });
            crate::tree::escape_attribute(&mut out, &self.actor, request).map_err(|code| {
                EncodeError::InvalidXmlChar {
                    operation,
                    field: "actor",
                    code,
                }
            })?;
            out.push('"');
        }
        if self.relay && binding == Binding::Soap12 {
            out.push_str(" soap:relay=\"1\"");
        }
        Ok(out)
    }
}

/// A header's name as an operation lists it: `{namespace}Name` (Clark's notation) for a
/// class of another namespace than the service's, `Name` for one of the service's.
fn split_clark(name: &str) -> (Option<&str>, &str) {
    match name.strip_prefix('{').and_then(|rest| rest.split_once('}')) {
        Some((ns, local)) => (Some(ns), local),
        None => (None, name),
    }
}

/// A `[SoapHeader]` class: a class whose value is a header block, carrying the block's
/// [`HeaderAttributes`] beside its members. Generated for the classes a spec uses as headers.
pub trait SoapHeaderItem: XmlItem {
    /// The block's attributes.
    fn attributes(&self) -> &HeaderAttributes;
    /// The block's attributes, to set.
    fn attributes_mut(&mut self) -> &mut HeaderAttributes;
}

/// Header blocks read from a message: those of the operation's headers, as value trees, the
/// first of each name, with their attributes.
#[derive(Debug, Default)]
pub(crate) struct HeaderBlocks<'a> {
    /// Each block read: the name it was asked for by, its tree, its attributes.
    blocks: Vec<(String, Node<'a>, HeaderAttributes)>,
    /// The first block of another name marked `mustUnderstand`: ASMX reads the headers it
    /// knows and the parameters before it refuses it (`SoapHeaderHandling.SetHeaderMembers`
    /// runs after `ReadParameters`), so a reader refuses it after those.
    pub(crate) not_understood: Option<RequestError>,
}

impl<'a> HeaderBlocks<'a> {
    /// The block `name` read as `T`, its attributes set: `None` without one, as ASMX leaves
    /// the header member null. A block with `xsi:nil` is refused: the host reads it as an
    /// object with empty members, which is not what was sent.
    pub(crate) fn get<T: SoapHeaderItem>(&self, name: &str) -> Result<Option<T>, MemberError> {
        let Some((_, block, attributes)) = self.blocks.iter().find(|(n, _, _)| n == name) else {
            return Ok(None);
        };
        let mut value = T::read_optional(block, &[])?;
        if let Some(value) = &mut value {
            *value.attributes_mut() = attributes.clone();
        }
        Ok(value)
    }

    /// Reads the blocks of a Header whose start tag the cursor just read: those named in
    /// `names` (the operation's headers: `Name` in the service namespace, `{namespace}Name`
    /// in another, a header class's own) as value trees, the first of each name, as ASMX
    /// keeps the first; the first other one marked `mustUnderstand` is kept in
    /// `not_understood`, for the reader to refuse as ASMX refuses a header its operation
    /// does not declare (`actor` or `role` aside: the host ignores them).
    pub(crate) fn read(
        cursor: &mut XmlCursor<'a, 3>,
        operation: &'static str,
        names: &[&str],
        budget: &mut crate::tree::Budget,
    ) -> Result<HeaderBlocks<'a>, RequestError> {
        let mut blocks: Vec<(String, Node<'a>, HeaderAttributes)> = Vec::new();
        let mut not_understood = None;
        loop {
            match cursor.next()? {
                xml::Node::Start(block) => {
                    let known = names.iter().find_map(|&name| {
                        let (ns, local) = split_clark(name);
                        let in_ns = match (&block.ns, ns) {
                            (Ns::Known(i), None) => *i == SERVICE,
                            (Ns::Known(i), Some(ns)) => cursor.known()[*i] == ns,
                            (Ns::Other(other), Some(ns)) => other == ns,
                            _ => false,
                        };
                        (in_ns && local.as_bytes() == block.local()).then_some((name, ns))
                    });
                    // A block of the operation's header again is one the host does not read
                    // (it keeps the first): as any other, refused if marked mustUnderstand.
                    let known = known.filter(|(name, _)| !blocks.iter().any(|(n, _, _)| n == name));
                    if let Some((name, ns)) = known {
                        let attributes = HeaderAttributes::read(cursor, &block)?;
                        let local = String::from_utf8_lossy(block.local()).into_owned();
                        let target = match ns {
                            None => TreeNs::Known(SERVICE),
                            Some(ns) => TreeNs::Named(ns),
                        };
                        let tree = cursor
                            .tree_in(block, target, XSI, budget)
                            .map_err(|error| super::request::tree_error(error, operation, local))?;
                        blocks.push((name.to_owned(), tree, attributes));
                        continue;
                    }
                    // The SOAP 1.1 attribute where the block has one, else the SOAP 1.2 one,
                    // whatever the message's version and their order, its value exactly `1`
                    // or `true`, as the host reads an unknown block's (` 1` is not).
                    let (mut soap11, mut soap12) = (None, None);
                    cursor.each_namespaced_attribute(&block, |ns, local, value| {
                        if local == b"mustUnderstand" {
                            let must = matches!(&*value, "1" | "true");
                            if ns == SOAP11_NS.as_bytes() {
                                soap11 = Some(must);
                            } else if ns == SOAP12_NS.as_bytes() {
                                soap12 = Some(must);
                            }
                        }
                    })?;
                    let must = soap11.or(soap12).unwrap_or(false);
                    if must {
                        not_understood.get_or_insert(RequestError::MustUnderstand {
                            header: block.display_name(cursor.known()),
                        });
                    }
                    if !block.empty {
                        cursor.skip()?;
                    }
                }
                xml::Node::Text => {}
                xml::Node::End => {
                    return Ok(HeaderBlocks {
                        blocks,
                        not_understood,
                    })
                }
                xml::Node::Eof => unreachable!("the cursor reports an early end as malformed"),
            }
        }
    }

    /// Reads the Header of a response envelope of `binding` (none: no blocks), for a client:
    /// the blocks named `names`, as [`HeaderBlocks::read`] reads a request's. The rest of the
    /// envelope is the response reader's to check.
    pub(crate) fn of_response(
        binding: Binding,
        operation: &'static crate::OperationInfo,
        body: &'a [u8],
        names: &[&str],
    ) -> Result<HeaderBlocks<'a>, RequestError> {
        let mut cursor = XmlCursor::new(
            body,
            [
                envelope_ns(binding),
                operation.service.namespace,
                xml::XSI_NS,
            ],
        )
        .keeping_raw(operation.raw_trees);
        let xml::Node::Start(envelope) = cursor.next()? else {
            return Ok(HeaderBlocks::default());
        };
        if envelope.ns != Ns::Known(ENV) || envelope.empty {
            return Ok(HeaderBlocks::default());
        }
        match cursor.next()? {
            xml::Node::Start(header)
                if header.ns == Ns::Known(ENV) && header.local() == b"Header" && !header.empty =>
            {
                let mut budget = crate::tree::Budget::default();
                let mut blocks =
                    HeaderBlocks::read(&mut cursor, operation.name, names, &mut budget)?;
                match blocks.not_understood.take() {
                    Some(refusal) => Err(refusal),
                    None => Ok(blocks),
                }
            }
            _ => Ok(HeaderBlocks::default()),
        }
    }
}

/// Writes the Header of a message: `<soap:Header>`, then each block set, as .NET writes a
/// `SoapHeader` member that is set (none when no block is: no Header at all).
#[derive(Debug)]
pub struct HeaderWriter {
    out: String,
    binding: Binding,
    operation: &'static str,
    /// A request's: a tab in an attribute is written `&#x9;`.
    request: bool,
}

/// The Header's tags (prefix `soap` in both versions, as the envelope's).
pub(super) const HEADER_OPEN: &str = "<soap:Header>";
pub(super) const HEADER_CLOSE: &str = "</soap:Header>";

impl HeaderWriter {
    /// A Header for a response of `binding` (over HTTP GET/POST it stays empty).
    pub fn response(binding: Binding, operation: &'static str) -> HeaderWriter {
        HeaderWriter {
            out: String::new(),
            binding,
            operation,
            request: false,
        }
    }

    /// Writes the block `name` of a `[SoapHeader]` class, in the namespace whose declaration
    /// is `xmlns` (` xmlns="…"`), its attributes before the declaration, as the host writes
    /// them; nothing for `None`.
    pub fn block<T: SoapHeaderItem>(
        &mut self,
        xmlns: &'static str,
        name: &'static str,
        value: Option<&T>,
    ) -> Result<(), EncodeError> {
        if !self.binding.is_soap() {
            return Ok(());
        }
        let Some(value) = value else {
            return Ok(());
        };
        if self.out.is_empty() {
            self.out.push_str(HEADER_OPEN);
        }
        write_block(
            &mut self.out,
            self.binding,
            self.operation,
            self.request,
            xmlns,
            name,
            value,
        )
    }

    /// The Header's markup, `None` when no block was written.
    pub(crate) fn finish(mut self) -> Option<String> {
        if self.out.is_empty() {
            return None;
        }
        self.out.push_str(HEADER_CLOSE);
        Some(self.out)
    }
}

/// Writes one header block into `out`.
pub(super) fn write_block<T: SoapHeaderItem>(
    out: &mut String,
    binding: Binding,
    operation: &'static str,
    request: bool,
    xmlns: &'static str,
    name: &'static str,
    value: &T,
) -> Result<(), EncodeError> {
    let attributes = value.attributes().markup(binding, operation, request)?;
    // The block's namespace, the default one inside it (`xmlns` is ` xmlns="…"`).
    let default = xmlns
        .strip_prefix(" xmlns=\"")
        .and_then(|ns| ns.strip_suffix('"'))
        .unwrap_or_default();
    let scope = crate::tree::RawScope::Message {
        envelope: super::envelope_ns(binding),
        default,
    };
    let mut elements = if request {
        XmlOut::request(out, operation)
    } else {
        XmlOut::new(out, operation)
    }
    .in_scope(scope)
    // Envelope and Header stand above the block.
    .at_depth(2);
    if !attributes.is_empty() {
        elements.attributes_first(&attributes);
    }
    elements.qualify_first(xmlns);
    value.write_element::<_, &str>(&mut elements, name, &[])?;
    elements.finish();
    Ok(())
}
