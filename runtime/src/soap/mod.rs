//! SOAP 1.1 and 1.2 envelopes: the envelope writer (`writer`), the request reader of servers
//! (`request`), the fault bodies (`fault`) and the response reader of clients (`response`);
//! the scanner's shape of an envelope, shared by both readers, in `scan`.
//!
//! Envelopes are written as an ASMX host writes them: one line, the prefix `soap` bound to the
//! binding's envelope namespace, `xsi` and `xsd` declared, no header.

use crate::xml::{self, XmlError};
use crate::{Binding, RequestError};

pub use fault::{fault_envelope, version_mismatch_envelope};
pub use header::{HeaderAttributes, HeaderWriter, SoapHeaderItem};
pub use raw::{
    read_data_set_document, read_raw_document, read_response_data_set, read_response_raw,
    read_response_raw_node,
};
pub use request::{InOrder, InOrderValue, Param, RequestReader};
pub use response::{
    read_response, read_response_body, read_response_tree, read_response_wrapper,
    read_result_document, read_tree_document, ResponseBody,
};
pub use streamed::{read_streamed_request, read_streamed_response};
pub use writer::SoapWriter;

/// Envelope namespace of SOAP 1.1.
pub const SOAP11_NS: &str = "http://schemas.xmlsoap.org/soap/envelope/";
/// Envelope namespace of SOAP 1.2.
pub const SOAP12_NS: &str = "http://www.w3.org/2003/05/soap-envelope";
/// `Content-Type` of SOAP 1.1 messages, and of every HTTP GET/POST result.
pub const SOAP11_CONTENT_TYPE: &str = "text/xml; charset=utf-8";
/// `Content-Type` of SOAP 1.2 messages (requests add an `action` parameter).
pub const SOAP12_CONTENT_TYPE: &str = "application/soap+xml; charset=utf-8";

/// The Envelope start tag we write, as .NET's client and an ASMX host write it; a macro so
/// that [`ENVELOPE11_OPEN`] and [`KNOWN_ENVELOPES`] spell it once.
macro_rules! envelope_tag {
    (11) => {
        concat!(
            r#"<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" "#,
            r#"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" "#,
            r#"xmlns:xsd="http://www.w3.org/2001/XMLSchema">"#
        )
    };
    (12) => {
        concat!(
            r#"<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope" "#,
            r#"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" "#,
            r#"xmlns:xsd="http://www.w3.org/2001/XMLSchema">"#
        )
    };
}

/// Everything before the body element of a SOAP 1.1 envelope.
pub const ENVELOPE11_OPEN: &str = concat!(
    r#"<?xml version="1.0" encoding="utf-8"?>"#,
    envelope_tag!(11),
    "<soap:Body>"
);
/// Everything before the body element of a SOAP 1.2 envelope.
pub const ENVELOPE12_OPEN: &str = concat!(
    r#"<?xml version="1.0" encoding="utf-8"?>"#,
    envelope_tag!(12),
    "<soap:Body>"
);

/// The Envelope start tags requests nearly always carry, of SOAP 1.1 and of 1.2: the one we
/// (and .NET's client) write, and the one of the host's help page samples, which mobile apps
/// copy. The scanner takes them as bytes instead of reading them (the declarations cost
/// more to read than the rest of a short request); any other is read.
pub(super) const KNOWN_ENVELOPES: [[xml::KnownStart; 2]; 2] = {
    const DECLARATIONS_CLIENT: [[(&str, &str); 3]; 2] = [
        [
            ("soap", SOAP11_NS),
            ("xsi", xml::XSI_NS),
            ("xsd", xml::XSD_NS),
        ],
        [
            ("soap", SOAP12_NS),
            ("xsi", xml::XSI_NS),
            ("xsd", xml::XSD_NS),
        ],
    ];
    const DECLARATIONS_HELP: [[(&str, &str); 3]; 2] = [
        [
            ("xsi", xml::XSI_NS),
            ("xsd", xml::XSD_NS),
            ("soap", SOAP11_NS),
        ],
        [
            ("xsi", xml::XSI_NS),
            ("xsd", xml::XSD_NS),
            ("soap12", SOAP12_NS),
        ],
    ];
    [
        [
            xml::KnownStart::new(envelope_tag!(11), "soap:Envelope", &DECLARATIONS_CLIENT[0]),
            xml::KnownStart::new(
                concat!(
                    r#"<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" "#,
                    r#"xmlns:xsd="http://www.w3.org/2001/XMLSchema" "#,
                    r#"xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">"#
                ),
                "soap:Envelope",
                &DECLARATIONS_HELP[0],
            ),
        ],
        [
            xml::KnownStart::new(envelope_tag!(12), "soap:Envelope", &DECLARATIONS_CLIENT[1]),
            xml::KnownStart::new(
                concat!(
                    r#"<soap12:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" "#,
                    r#"xmlns:xsd="http://www.w3.org/2001/XMLSchema" "#,
                    r#"xmlns:soap12="http://www.w3.org/2003/05/soap-envelope">"#
                ),
                "soap12:Envelope",
                &DECLARATIONS_HELP[1],
            ),
        ],
    ]
};
/// Everything after the body element, both versions.
pub const ENVELOPE_CLOSE: &str = "</soap:Body></soap:Envelope>";

/// The envelope namespace of a SOAP binding.
///
/// # Panics
/// On HTTP GET or POST or JSON, which carry no envelope (a bug in the caller).
pub fn envelope_ns(binding: Binding) -> &'static str {
    match binding {
        Binding::Soap11 => SOAP11_NS,
        Binding::Soap12 => SOAP12_NS,
        Binding::HttpGet | Binding::HttpPost | Binding::Json => {
            panic!("{binding} has no SOAP envelope")
        }
    }
}

pub(crate) fn envelope_open(binding: Binding) -> &'static str {
    if binding == Binding::Soap12 {
        ENVELOPE12_OPEN
    } else {
        ENVELOPE11_OPEN
    }
}

// Indices of the namespaces a request reader classifies against.
pub(super) const ENV: usize = 0;
pub(super) const SERVICE: usize = 1;
pub(super) const XSI: usize = 2;

impl From<XmlError> for RequestError {
    fn from(error: XmlError) -> RequestError {
        match error {
            XmlError::Malformed(reason) => RequestError::MalformedXml { reason },
            XmlError::Doctype => RequestError::Doctype,
            // As malformed XML (400), as the host answers bytes that are not UTF-8.
            XmlError::NotUtf8 => RequestError::MalformedXml {
                reason: "the body is not valid UTF-8".into(),
            },
        }
    }
}

// After the macro above, which `fault` and `scan` use.
mod fault;
pub(crate) mod header;
#[cfg(test)]
mod header_tests;
mod raw;
mod request;
mod response;
mod scan;
mod streamed;
#[cfg(test)]
mod streamed_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tree_tests;
mod writer;
