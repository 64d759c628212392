//! The constant facts of a service and of each operation, computed by the generator.
//!
//! The generator precomputes every literal the wire needs (tags with their namespace, the
//! quoted SOAPAction, the operation's path), so encoders only copy static strings and values.

/// The service as a whole (one per generated crate).
#[derive(Debug)]
pub struct ServiceInfo {
    /// Service name (`MobileService`).
    pub name: &'static str,
    /// XML namespace of every operation element.
    pub namespace: &'static str,
    /// Endpoint path (`/api/rmm/MobileService.asmx`).
    pub path: &'static str,
    /// Opening of the HTTP GET/POST result document, up to the text: the XML declaration,
    /// a line feed and `<string xmlns="{namespace}">`.
    pub string_open: &'static str,
}

/// One operation's wire literals.
#[derive(Debug)]
pub struct OperationInfo {
    /// The service it belongs to.
    pub service: &'static ServiceInfo,
    /// Wire name (`MobileTaskCreate`).
    pub name: &'static str,
    /// `SOAPAction` header value of SOAP 1.1, quoted: `"{namespace}/{name}"`.
    pub soap_action: &'static str,
    /// `Content-Type` of a SOAP 1.2 request, with the `action` parameter.
    pub soap12_content_type: &'static str,
    /// Path of HTTP GET/POST: `{path}/{name}`.
    pub http_path: &'static str,
    /// `<{name} xmlns="{namespace}">`, the request's body element.
    pub request_open: &'static str,
    /// `</{name}>`.
    pub request_close: &'static str,
    /// `<{name}Response xmlns="{namespace}">`.
    pub response_open: &'static str,
    /// `</{name}Response>`.
    pub response_close: &'static str,
    /// `{name}Response`, the local name of the response element.
    pub response_name: &'static str,
    /// `{name}Result`, the local name of the result element.
    pub result_name: &'static str,
}

/// A service and operation for the runtime's unit tests.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::{OperationInfo, ServiceInfo};

    pub(crate) static SERVICE: ServiceInfo = ServiceInfo {
        name: "S",
        namespace: "urn:s",
        path: "/s.asmx",
        string_open: "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<string xmlns=\"urn:s\">",
    };

    pub(crate) static OP: OperationInfo = OperationInfo {
        service: &SERVICE,
        name: "Op",
        soap_action: "\"urn:s/Op\"",
        soap12_content_type: "application/soap+xml; charset=utf-8; action=\"urn:s/Op\"",
        http_path: "/s.asmx/Op",
        request_open: "<Op xmlns=\"urn:s\">",
        request_close: "</Op>",
        response_open: "<OpResponse xmlns=\"urn:s\">",
        response_close: "</OpResponse>",
        response_name: "OpResponse",
        result_name: "OpResult",
    };
}
