//! Fault envelopes, as ASMX writes them.

use super::{envelope_open, ENVELOPE_CLOSE};
use crate::xml;
use crate::{Binding, Fault};

/// The SOAP 1.1 envelope of ASMX's answer to an `Envelope` in a namespace of neither
/// version: a `soap:VersionMismatch` fault whose header names the envelopes understood (the
/// SOAP 1.2 `Upgrade` header), whatever the request's content type.
pub fn version_mismatch_envelope(found: &str, expected: &str) -> String {
    let mut reason = String::new();
    let message = format!(
        "Possible SOAP version mismatch: Envelope namespace {found} was unexpected. Expecting {expected}."
    );
    if xml::escape_text(&mut reason, &message).is_err() {
        // The namespace came from a well-formed document: it holds no character XML refuses.
        reason = "Possible SOAP version mismatch.".to_owned();
    }
    format!(
        concat!(
            r#"<?xml version="1.0" encoding="utf-8"?>"#,
            envelope_tag!(11),
            r#"<soap:Header><soap12:Upgrade xmlns:soap12="http://www.w3.org/2003/05/soap-envelope">"#,
            r#"<soap12:SupportedEnvelope qname="soap:Envelope" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" />"#,
            r#"<soap12:SupportedEnvelope qname="soap12:Envelope" xmlns:soap12="http://www.w3.org/2003/05/soap-envelope" />"#,
            r#"</soap12:Upgrade></soap:Header><soap:Body><soap:Fault><faultcode>soap:VersionMismatch</faultcode>"#,
            r#"<faultstring>{reason}</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>"#
        ),
        reason = reason
    )
}

/// Writes the body of a SOAP fault response, as an ASMX host writes it.
pub fn fault_envelope(binding: Binding, fault: &Fault) -> String {
    let soap12 = binding == Binding::Soap12;
    let mut out = String::with_capacity(512 + fault.reason.len());
    out.push_str(envelope_open(binding));
    // Reason and detail text is ours or a handler's; characters XML cannot carry are
    // replaced so a fault can always be sent.
    let push_text = |out: &mut String, text: &str| {
        if xml::escape_text(out, text).is_err() {
            let cleaned: String = text
                .chars()
                .map(|c| {
                    if (c < ' ' && !"\t\n\r".contains(c)) || c == '\u{FFFE}' || c == '\u{FFFF}' {
                        '\u{FFFD}'
                    } else {
                        c
                    }
                })
                .collect();
            let _ = xml::escape_text(out, &cleaned);
        }
    };
    let mut escaped_reason = String::new();
    push_text(&mut escaped_reason, &fault.reason);
    let code = fault.code.local_name(soap12);
    if soap12 {
        out.push_str("<soap:Fault><soap:Code><soap:Value>soap:");
        // Escaped: an `Other` code is text a service or a peer chose (fuzzing found `&` and
        // `<` in one written raw, a document no reader takes).
        push_text(&mut out, code);
        out.push_str("</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang=\"en\">");
        out.push_str(&escaped_reason);
        out.push_str("</soap:Text></soap:Reason>");
        match fault.detail.as_deref() {
            None => {}
            Some("") => out.push_str("<soap:Detail />"),
            Some(detail) => {
                out.push_str("<soap:Detail>");
                push_text(&mut out, detail);
                out.push_str("</soap:Detail>");
            }
        }
    } else {
        out.push_str("<soap:Fault><faultcode>soap:");
        push_text(&mut out, code);
        out.push_str("</faultcode><faultstring>");
        out.push_str(&escaped_reason);
        out.push_str("</faultstring>");
        match fault.detail.as_deref() {
            None => {}
            Some("") => out.push_str("<detail />"),
            Some(detail) => {
                out.push_str("<detail>");
                push_text(&mut out, detail);
                out.push_str("</detail>");
            }
        }
    }
    out.push_str("</soap:Fault>");
    out.push_str(ENVELOPE_CLOSE);
    out
}
