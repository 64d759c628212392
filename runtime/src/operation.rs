//! The constant facts of a service and of each operation, computed by the generator.
//!
//! The generator precomputes every literal the wire needs (tags with their namespace, the
//! quoted SOAPAction, the operation's path), so encoders only copy static strings and values.

use std::sync::atomic::{AtomicUsize, Ordering};

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

impl ServiceInfo {
    /// The operation name an action (`SOAPAction`, unquoted, or SOAP 1.2's `action`) names:
    /// the text after the namespace and the `/` ASMX puts between them, which it leaves out
    /// when the namespace ends with one. `None` for an action outside the namespace.
    pub fn action_operation<'a>(&self, action: &'a str) -> Option<&'a str> {
        let rest = action.strip_prefix(self.namespace)?;
        if self.namespace.ends_with('/') {
            Some(rest)
        } else {
            rest.strip_prefix('/')
        }
    }
}

/// One operation's wire literals.
#[derive(Debug)]
pub struct OperationInfo {
    /// The service it belongs to.
    pub service: &'static ServiceInfo,
    /// Wire name (`MobileTaskCreate`).
    pub name: &'static str,
    /// `SOAPAction` header value of SOAP 1.1, quoted: `"{namespace}/{name}"` (no `/` added
    /// when the namespace ends with one, as ASMX makes it).
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
    /// The bindings the operation is offered on. ASMX leaves HTTP GET and POST out for an
    /// operation whose types they cannot carry; such a request is answered as one naming no
    /// operation.
    pub bindings: &'static [crate::Binding],
    /// `SoapParameterStyle.Bare`: over SOAP the parameters are the Body's children, each an
    /// element of its own in the service namespace, and the result is `<{name}Result>` there
    /// (a null result an empty Body); no wrapper either way.
    pub bare: bool,
    /// The local name of the Body's element that routes a request without an action to this
    /// operation: the operation's name, or for a bare one its first parameter's (`""` when
    /// it has none).
    pub request_element: &'static str,
    /// Its values hold raw XML inside a class or an array (an `XmlElement` or `XmlNode`
    /// member or item, an `[XmlAnyElement]` member): their value trees keep each element as
    /// it was written, and are read by the cursor, not the scanner.
    pub raw_trees: bool,
    /// It takes parameters. ASMX's HTTP GET and POST read none for an operation without
    /// (`HttpServerProtocol.ReadParameters`: no reader), so a POST of any content type calls
    /// it.
    pub takes_parameters: bool,
    /// The size of the SOAP message last written for it, so that the next starts with room
    /// for about as much (see [`SizeHint`]).
    pub written: SizeHint,
}

/// The size of the message last written for an operation: its next message's buffer starts
/// with room for it, where it would grow by doubling from a first guess (a 12 KB message of
/// classes grew seven times from 77 bytes, each time copying what was written). At most
/// [`SizeHint::MAX`], so that one large message does not make every later one reserve as
/// much.
#[derive(Debug, Default)]
pub struct SizeHint(AtomicUsize);

impl SizeHint {
    /// The most room a message starts with from the size of one before it.
    pub const MAX: usize = 256 * 1024;

    /// No message written yet.
    pub const fn new() -> SizeHint {
        SizeHint(AtomicUsize::new(0))
    }

    /// The room the next message starts with (0 before the first).
    pub(crate) fn get(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }

    /// Notes the size of a message just written.
    pub(crate) fn set(&self, written: usize) {
        self.0.store(written.min(SizeHint::MAX), Ordering::Relaxed);
    }
}

impl OperationInfo {
    /// The request's wrapper element: the operation's name, or what
    /// `[SoapDocumentMethod(RequestElementName)]` named it ([`OperationInfo::request_element`]);
    /// a bare operation, which has none, its name.
    pub fn wrapper(&self) -> &'static str {
        if self.bare {
            self.name
        } else {
            self.request_element
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ServiceInfo;

    fn service(namespace: &'static str) -> ServiceInfo {
        ServiceInfo {
            name: "S",
            namespace,
            path: "/s.asmx",
            string_open: "",
        }
    }

    #[test]
    fn an_action_names_the_operation_after_the_namespace_and_one_slash() {
        let plain = service("http://x.example/ns");
        assert_eq!(plain.action_operation("http://x.example/ns/Op"), Some("Op"));
        assert_eq!(plain.action_operation("http://x.example/nsOp"), None);
        assert_eq!(plain.action_operation("http://other/Op"), None);
        // `http://tempuri.org/` gives `http://tempuri.org/HelloWorld`, as ASMX makes it.
        let slash = service("http://tempuri.org/");
        assert_eq!(
            slash.action_operation("http://tempuri.org/HelloWorld"),
            Some("HelloWorld")
        );
        assert_eq!(
            slash.action_operation("http://tempuri.org//HelloWorld"),
            Some("/HelloWorld")
        );
    }
}

/// A service and operation for the runtime's unit tests.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::{OperationInfo, ServiceInfo, SizeHint};

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
        bindings: &crate::Binding::ALL,
        bare: false,
        request_element: "Op",
        raw_trees: false,
        takes_parameters: true,
        written: SizeHint::new(),
    };
}
