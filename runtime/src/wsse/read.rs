//! Reading a request's `wsse:Security` block: where it stands (to take it out) and the
//! UsernameToken it holds.

use std::ops::Range;

use base64::Engine as _;

use super::{password_digest, PASSWORD_DIGEST, PASSWORD_TEXT, WSSE_NS, WSU_NS};
use crate::soap::{SOAP11_NS, SOAP12_NS};

/// Why a request's Security block is not one rmm reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the wsse:Security header is invalid: {0}")]
pub struct WsseError(pub String);

/// A password as received.
#[derive(Clone, PartialEq, Eq)]
pub enum ReceivedPassword {
    /// None sent.
    None,
    /// As it is.
    Text(String),
    /// A digest, with the nonce and time it was made from.
    Digest {
        /// The digest, base64.
        digest: String,
        /// The nonce.
        nonce: Vec<u8>,
        /// `wsu:Created`, as sent.
        created: String,
    },
}

impl std::fmt::Debug for ReceivedPassword {
    /// Without the password or digest.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReceivedPassword::None => f.write_str("None"),
            ReceivedPassword::Text(_) => f.write_str("Text(<redacted>)"),
            ReceivedPassword::Digest { created, .. } => {
                write!(f, "Digest {{ created: {created:?}, .. }}")
            }
        }
    }
}

/// A UsernameToken as received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedToken {
    /// The user name.
    pub username: String,
    /// The password.
    pub password: ReceivedPassword,
}

impl ReceivedToken {
    /// Whether it proves `password`: the same text, or the digest of its nonce, time and
    /// `password` (compared in time independent of where they differ).
    pub fn verify(&self, password: &str) -> bool {
        match &self.password {
            ReceivedPassword::None => false,
            ReceivedPassword::Text(sent) => same(sent.as_bytes(), password.as_bytes()),
            ReceivedPassword::Digest {
                digest,
                nonce,
                created,
            } => same(
                digest.as_bytes(),
                password_digest(nonce, created, password).as_bytes(),
            ),
        }
    }
}

/// Equality whose time does not tell where two equally long texts differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// A request's first `wsse:Security` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecurityBlock {
    /// Where it stands in the body, its start tag to its end tag.
    pub range: Range<usize>,
    /// Whether it is marked `mustUnderstand`.
    pub must_understand: bool,
    /// The UsernameToken it holds, if any.
    pub token: Option<ReceivedToken>,
}

/// The first `wsse:Security` block of the SOAP envelope `body`'s Header: `None` for an
/// envelope without one, and for a body that is no UTF-8 SOAP envelope (what is wrong with
/// it is the server's to answer, as for any request); an error for a block whose token is
/// not the profile's.
pub fn find_security(body: &[u8]) -> Result<Option<SecurityBlock>, WsseError> {
    let Ok(text) = std::str::from_utf8(body) else {
        return Ok(None);
    };
    // No DTD (roxmltree's default): an entity cannot grow the document.
    let Ok(doc) = roxmltree::Document::parse(text) else {
        return Ok(None);
    };
    let envelope = doc.root_element();
    let soap = envelope.tag_name().namespace().unwrap_or_default();
    if envelope.tag_name().name() != "Envelope" || (soap != SOAP11_NS && soap != SOAP12_NS) {
        return Ok(None);
    }
    let Some(header) = envelope.children().find(|n| {
        n.is_element() && n.tag_name().name() == "Header" && n.tag_name().namespace() == Some(soap)
    }) else {
        return Ok(None);
    };
    let Some(security) = header.children().find(|n| is(n, WSSE_NS, "Security")) else {
        return Ok(None);
    };
    let must_understand = matches!(
        security.attribute((soap, "mustUnderstand")),
        Some("1" | "true")
    );
    let token = match security
        .children()
        .find(|n| is(n, WSSE_NS, "UsernameToken"))
    {
        None => None,
        Some(token) => Some(read_token(token)?),
    };
    Ok(Some(SecurityBlock {
        range: security.range(),
        must_understand,
        token,
    }))
}

fn is(node: &roxmltree::Node, ns: &str, local: &str) -> bool {
    node.is_element() && node.tag_name().namespace() == Some(ns) && node.tag_name().name() == local
}

/// The text of `node`'s child `{ns}local`, if it has one.
fn child<'a>(
    node: roxmltree::Node<'a, '_>,
    ns: &str,
    local: &str,
) -> Option<roxmltree::Node<'a, 'a>> {
    node.children().find(|n| is(n, ns, local))
}

fn text_of(node: roxmltree::Node) -> String {
    node.children()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

fn read_token(token: roxmltree::Node) -> Result<ReceivedToken, WsseError> {
    let username = child(token, WSSE_NS, "Username")
        .map(text_of)
        .ok_or_else(|| WsseError("the UsernameToken has no Username".into()))?;
    let Some(password) = child(token, WSSE_NS, "Password") else {
        return Ok(ReceivedToken {
            username,
            password: ReceivedPassword::None,
        });
    };
    // No Type is a text password, as the profile says.
    let password = match password.attribute("Type").unwrap_or(PASSWORD_TEXT) {
        PASSWORD_TEXT => ReceivedPassword::Text(text_of(password)),
        PASSWORD_DIGEST => {
            let nonce = child(token, WSSE_NS, "Nonce")
                .ok_or_else(|| WsseError("a password digest without a Nonce".into()))?;
            let nonce = base64::engine::general_purpose::STANDARD
                .decode(text_of(nonce).trim())
                .map_err(|_| WsseError("the Nonce is not base64".into()))?;
            let created = child(token, WSU_NS, "Created")
                .ok_or_else(|| WsseError("a password digest without a Created time".into()))?;
            ReceivedPassword::Digest {
                digest: text_of(password).trim().to_owned(),
                nonce,
                created: text_of(created).trim().to_owned(),
            }
        }
        other => {
            return Err(WsseError(format!(
                "a password of the unknown Type {other:?}"
            )))
        }
    };
    Ok(ReceivedToken { username, password })
}
