//! A look at the first elements of a SOAP envelope, enough to route it: its version and the
//! name of its body element. The operation's decoder reads the whole envelope afterwards.

use crate::soap::{SOAP11_NS, SOAP12_NS};
use crate::xml::{Node, Ns, XmlCursor};
use crate::{Binding, RequestError};

/// What the start of an envelope says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peek {
    /// `Soap11` or `Soap12` by the envelope's namespace; `None` if the root is not an
    /// `Envelope` of either.
    pub version: Option<Binding>,
    /// The body's first element: whether it is in the service namespace, and its local name.
    pub operation: Option<(bool, String)>,
    /// The namespace of a root outside both SOAP namespaces (another namespace, or none):
    /// ASMX answers it with a `VersionMismatch` fault at once.
    pub foreign_envelope: Option<String>,
    /// The envelope holds something other than a Header before its Body: read without
    /// [`Strays::Skip`], the peek stopped there (`operation` is `None`).
    pub stray: bool,
}

/// What to do with an element of the envelope that is neither its first Header nor its Body.
///
/// ASMX reads the envelope two ways. Reading the call's parameters, it takes an optional
/// Header, then wants the Body at once, and faults ("Missing required soap:Body element")
/// on anything else without reading further. Routing a request that names no operation in
/// its headers, it skips every element before the Body to find the operation's element
/// (.NET's `SoapServerProtocol.GetRequestElement`), reading on through malformed XML there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strays {
    /// Stop at the first one (`Peek::stray`).
    Stop,
    /// Skip them, as routing by the body does.
    Skip,
}

/// Reads up to the body's first element. Malformed XML or a DOCTYPE before that point is an
/// error, as it would be for the full decoder.
pub fn peek(body: &[u8], service_ns: &'static str, strays: Strays) -> Result<Peek, RequestError> {
    let mut cursor = XmlCursor::new(body, [SOAP11_NS, SOAP12_NS, service_ns]);
    let root = match cursor.next()? {
        Node::Start(root) => root,
        Node::Eof => {
            return Err(RequestError::MalformedXml {
                reason: "the body is empty".into(),
            })
        }
        Node::End | Node::Text => unreachable!("the cursor yields no end or text before a root"),
    };
    let version = match (&root.ns, root.local()) {
        (Ns::Known(0), b"Envelope") => Binding::Soap11,
        (Ns::Known(1), b"Envelope") => Binding::Soap12,
        (ns, _) => {
            // In a SOAP namespace under another name, the root is a malformed envelope of
            // that version (a client fault), not a version mismatch.
            let foreign_envelope = match ns {
                Ns::Known(0 | 1) => None,
                Ns::Known(_) => Some(service_ns.to_owned()),
                Ns::Other(uri) => Some(uri.clone()),
                Ns::None => Some(String::new()),
            };
            return Ok(Peek {
                version: None,
                operation: None,
                foreign_envelope,
                stray: false,
            });
        }
    };
    let env = if version == Binding::Soap11 { 0 } else { 1 };
    let mut header_allowed = true;
    if root.empty {
        return Ok(Peek {
            version: Some(version),
            operation: None,
            foreign_envelope: None,
            stray: false,
        });
    }
    loop {
        let element = match cursor.next()? {
            Node::Start(element) => element,
            Node::Text => continue,
            Node::End | Node::Eof => {
                return Ok(Peek {
                    version: Some(version),
                    operation: None,
                    foreign_envelope: None,
                    stray: false,
                })
            }
        };
        let in_env = element.ns == Ns::Known(env);
        let is_body = in_env && element.local() == b"Body";
        if !is_body {
            let is_header = header_allowed && in_env && element.local() == b"Header";
            header_allowed = false;
            if !is_header && strays == Strays::Stop {
                return Ok(Peek {
                    version: Some(version),
                    operation: None,
                    foreign_envelope: None,
                    stray: true,
                });
            }
            if !element.empty {
                cursor.skip()?;
            }
            continue;
        }
        if element.empty {
            return Ok(Peek {
                version: Some(version),
                operation: None,
                foreign_envelope: None,
                stray: false,
            });
        }
        loop {
            match cursor.next()? {
                Node::Start(op) => {
                    let name = String::from_utf8_lossy(op.local()).into_owned();
                    return Ok(Peek {
                        version: Some(version),
                        operation: Some((op.ns == Ns::Known(2), name)),
                        foreign_envelope: None,
                        stray: false,
                    });
                }
                Node::Text => continue,
                Node::End | Node::Eof => {
                    return Ok(Peek {
                        version: Some(version),
                        operation: None,
                        foreign_envelope: None,
                        stray: false,
                    })
                }
            }
        }
    }
}

/// Reads the whole document, for well-formedness only: a request refused for what its start
/// says is still answered `400` when the document is malformed further on, as a host that
/// parses everything first answers it.
pub fn check_well_formed(body: &[u8]) -> Result<(), RequestError> {
    let mut cursor = XmlCursor::new(body, []);
    loop {
        if let Node::Eof = cursor.next()? {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NS: &str = "urn:svc";

    #[test]
    fn finds_version_and_operation() {
        let p = peek(br#"<?xml version="1.0"?><s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Header><h/></s:Header><s:Body><Op xmlns="urn:svc"><a>1</a></Op></s:Body></s:Envelope>"#, NS, Strays::Skip).unwrap();
        assert_eq!(
            p,
            Peek {
                version: Some(Binding::Soap12),
                operation: Some((true, "Op".into())),
                foreign_envelope: None,
                stray: false,
            }
        );
        let p = peek(br#"<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><Op xmlns="urn:other"/></soap:Body></soap:Envelope>"#, NS, Strays::Skip).unwrap();
        assert_eq!(
            p,
            Peek {
                version: Some(Binding::Soap11),
                operation: Some((false, "Op".into())),
                foreign_envelope: None,
                stray: false,
            }
        );
        let p = peek(br#"<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body/></soap:Envelope>"#, NS, Strays::Skip).unwrap();
        assert_eq!(
            p,
            Peek {
                version: Some(Binding::Soap11),
                operation: None,
                foreign_envelope: None,
                stray: false,
            }
        );
        assert_eq!(
            peek(b"<html/>", NS, Strays::Skip).unwrap(),
            Peek {
                version: None,
                operation: None,
                foreign_envelope: Some(String::new()),
                stray: false,
            }
        );
        // An Envelope of neither version is told apart, with its namespace.
        assert_eq!(
            peek(
                br#"<e:Envelope xmlns:e="urn:x"><e:Body/></e:Envelope>"#,
                NS,
                Strays::Skip
            )
            .unwrap(),
            Peek {
                version: None,
                operation: None,
                foreign_envelope: Some("urn:x".into()),
                stray: false,
            }
        );
    }

    #[test]
    fn stops_at_what_is_neither_header_nor_body_unless_told_to_skip() {
        // Malformed after the stray element: reading parameters, the host never gets there.
        let stray = br#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header/><x><y></x><s:Body><Op xmlns="urn:svc"/></s:Body></s:Envelope>"#;
        let stopped = peek(stray, NS, Strays::Stop).unwrap();
        assert!(stopped.stray && stopped.operation.is_none());
        assert!(peek(stray, NS, Strays::Skip).unwrap_err().is_malformed());
        // A second Header is a stray too; the first is not.
        let twice = br#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header/><s:Header/><s:Body><Op xmlns="urn:svc"/></s:Body></s:Envelope>"#;
        assert!(peek(twice, NS, Strays::Stop).unwrap().stray);
        let skipped = peek(twice, NS, Strays::Skip).unwrap();
        assert_eq!(skipped.operation, Some((true, "Op".into())));
        assert!(!skipped.stray);
        let once = br#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header><h/></s:Header><s:Body><Op xmlns="urn:svc"/></s:Body></s:Envelope>"#;
        assert!(!peek(once, NS, Strays::Stop).unwrap().stray);
    }

    #[test]
    fn checks_the_whole_document() {
        assert_eq!(check_well_formed(b"<a><b/><!-- c --></a>"), Ok(()));
        assert!(check_well_formed(b"<a><b></a>").unwrap_err().is_malformed());
        assert!(check_well_formed(b"<a>").unwrap_err().is_malformed());
    }

    #[test]
    fn refuses_what_the_decoder_refuses() {
        assert_eq!(
            peek(b"<!DOCTYPE x><x/>", NS, Strays::Skip),
            Err(RequestError::Doctype)
        );
        assert!(peek(b"", NS, Strays::Skip).unwrap_err().is_malformed());
        assert!(peek(b"not xml", NS, Strays::Skip)
            .unwrap_err()
            .is_malformed());
    }
}
