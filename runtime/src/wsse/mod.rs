//! WS-Security's UsernameToken (OASIS Web Services Security, UsernameToken Profile 1.0 and
//! 1.1), ready for a client to send and a server to check, as every SOAP stack this one
//! meets offers it (WSE 3.0 for ASMX, gSOAP's `wsseapi`, CXF, zeep's `wsse.UsernameToken`).
//!
//! A `wsse:Security` header block holding a `wsse:UsernameToken`: the user name and the
//! password, either as it is (`#PasswordText`) or as a digest,
//! `Base64(SHA-1(nonce + created + password))`, with the random `wsse:Nonce` (base64) and
//! the `wsu:Created` time it was made from (`#PasswordDigest`). The block is written as zeep
//! writes it (the same elements, attributes and namespaces), and `mustUnderstand` only where
//! asked.
//!
//! - A client wraps its transport in [`WsSecurity`] (feature `client`): every SOAP request
//!   gets the block in its Header, a digest with a fresh nonce and time each.
//! - A server puts [`UsernameTokenCheck`] in front of the generated one (feature `server`,
//!   a tower service too): the block is read, the password checked against the one the
//!   application looks up for the user, a digest's time checked to be recent and its nonce
//!   not seen before, and the block taken out of the request before the generated server
//!   reads it (an ASMX host without WSE answers a `mustUnderstand` block with its
//!   MustUnderstand fault; one with WSE reads it first, as here). A refusal is the
//!   profile's fault, `wsse:FailedAuthentication` (`wsse:InvalidSecurity` for a block that
//!   is not one).

#[cfg(feature = "client")]
mod client;
mod read;
#[cfg(feature = "server")]
mod server;

use std::fmt;

use base64::Engine as _;
use sha1::{Digest as _, Sha1};

#[cfg(feature = "client")]
pub use client::WsSecurity;
pub use read::{find_security, ReceivedPassword, ReceivedToken, SecurityBlock, WsseError};
#[cfg(feature = "server")]
pub use server::{Authenticated, UsernameTokenCheck, UsernameTokenService};

/// The namespace of `wsse:Security` and `wsse:UsernameToken` (WSS 1.0's, which 1.1 keeps).
pub const WSSE_NS: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
/// The namespace of `wsu:Created`.
pub const WSU_NS: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
/// `Type` of a password sent as it is.
pub const PASSWORD_TEXT: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText";
/// `Type` of a password sent as its digest.
pub const PASSWORD_DIGEST: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest";
/// `EncodingType` of the nonce.
pub const BASE64_BINARY: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary";

/// How a [`UsernameToken`] sends its password.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PasswordKind {
    /// As it is (`#PasswordText`): only over TLS.
    Text,
    /// As `Base64(SHA-1(nonce + created + password))` (`#PasswordDigest`), with the nonce
    /// and the time.
    Digest,
}

/// A user name and password a client sends in each message's `wsse:Security` block.
#[derive(Clone, PartialEq, Eq)]
pub struct UsernameToken {
    /// The user name.
    pub username: String,
    password: String,
    /// How the password travels.
    pub kind: PasswordKind,
    /// `soap:mustUnderstand="1"` on the block: the receiver must process it or fault.
    pub must_understand: bool,
}

impl fmt::Debug for UsernameToken {
    /// The password redacted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UsernameToken")
            .field("username", &self.username)
            .field("password", &"<redacted>")
            .field("kind", &self.kind)
            .field("must_understand", &self.must_understand)
            .finish()
    }
}

impl UsernameToken {
    /// A token sending `password` as it is.
    pub fn text(username: impl Into<String>, password: impl Into<String>) -> UsernameToken {
        UsernameToken {
            username: username.into(),
            password: password.into(),
            kind: PasswordKind::Text,
            must_understand: false,
        }
    }

    /// A token sending `password` as a digest of a fresh nonce and time each message.
    pub fn digest(username: impl Into<String>, password: impl Into<String>) -> UsernameToken {
        UsernameToken {
            kind: PasswordKind::Digest,
            ..UsernameToken::text(username, password)
        }
    }

    /// The same token, its block marked `mustUnderstand` (or not).
    pub fn must_understand(mut self, must: bool) -> UsernameToken {
        self.must_understand = must;
        self
    }

    /// The `wsse:Security` block, as zeep writes it: for a digest from `nonce` and
    /// `created` (`2026-11-25T06:30:00Z`), which a text password does not use. `soap` is
    /// the envelope's prefix a `mustUnderstand` attribute takes.
    pub fn block(&self, nonce: &[u8], created: &str) -> String {
        let mut out = format!("<wsse:Security xmlns:wsse=\"{WSSE_NS}\"");
        if self.must_understand {
            out.push_str(" soap:mustUnderstand=\"1\"");
        }
        out.push_str("><wsse:UsernameToken><wsse:Username>");
        push_text(&mut out, &self.username);
        out.push_str("</wsse:Username>");
        match self.kind {
            PasswordKind::Text => {
                out.push_str("<wsse:Password Type=\"");
                out.push_str(PASSWORD_TEXT);
                out.push_str("\">");
                push_text(&mut out, &self.password);
                out.push_str("</wsse:Password>");
            }
            PasswordKind::Digest => {
                out.push_str("<wsse:Password Type=\"");
                out.push_str(PASSWORD_DIGEST);
                out.push_str("\">");
                out.push_str(&password_digest(nonce, created, &self.password));
                out.push_str("</wsse:Password><wsse:Nonce EncodingType=\"");
                out.push_str(BASE64_BINARY);
                out.push_str("\">");
                out.push_str(&base64::engine::general_purpose::STANDARD.encode(nonce));
                out.push_str("</wsse:Nonce><wsu:Created xmlns:wsu=\"");
                out.push_str(WSU_NS);
                out.push_str("\">");
                push_text(&mut out, created);
                out.push_str("</wsu:Created>");
            }
        }
        out.push_str("</wsse:UsernameToken></wsse:Security>");
        out
    }
}

/// The time now, UTC (chrono's clock is not compiled in: the system's).
#[cfg(any(feature = "client", feature = "server"))]
fn now() -> chrono::DateTime<chrono::Utc> {
    std::time::SystemTime::now().into()
}

/// `Base64(SHA-1(nonce + created + password))`, the profile's password digest (`created` and
/// `password` as UTF-8).
pub fn password_digest(nonce: &[u8], created: &str, password: &str) -> String {
    let mut sha = Sha1::new();
    sha.update(nonce);
    sha.update(created.as_bytes());
    sha.update(password.as_bytes());
    base64::engine::general_purpose::STANDARD.encode(sha.finalize())
}

/// Appends text escaped for an element's content, as the runtime escapes text
/// ([`crate::xml::escape_text`]); a character XML cannot carry is left out (a user name or
/// password holds none).
fn push_text(out: &mut String, text: &str) {
    let carried: String = text
        .chars()
        .filter(|&c| {
            (c >= ' ' || matches!(c, '\t' | '\n' | '\r')) && !matches!(c, '\u{FFFE}' | '\u{FFFF}')
        })
        .collect();
    // What is left holds no character the escaper refuses.
    let _ = crate::xml::escape_text(out, &carried);
}

/// Puts `block` first in the Header of the SOAP `envelope` (a Header made before the Body
/// where there is none), as an envelope rmm's client writes it: its root start tag first,
/// its prefix `soap`.
pub fn insert_block(envelope: &[u8], block: &str) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(envelope).ok()?;
    let (at, header) = match text.find("<soap:Header>") {
        Some(at) => (at + "<soap:Header>".len(), false),
        None => (text.find("<soap:Body")?, true),
    };
    let mut out = String::with_capacity(text.len() + block.len() + 32);
    out.push_str(&text[..at]);
    if header {
        out.push_str("<soap:Header>");
    }
    out.push_str(block);
    if header {
        out.push_str("</soap:Header>");
    }
    out.push_str(&text[at..]);
    Some(out.into_bytes())
}

#[cfg(test)]
mod tests;
