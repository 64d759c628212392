//! The ways an ASMX operation is reached: the four of its WSDL, and JSON.

/// One of the bindings an ASMX host serves an operation over: the four its WSDL describes,
/// which every operation has, and ASP.NET AJAX's JSON, which a `[ScriptService]`'s have.
///
/// The wire shape of each is the interface document's (§4.1), as the project's reference host
/// answers it: `tests/fixtures/asmx/` holds one recorded exchange per operation and binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Binding {
    /// SOAP 1.1: `POST {path}`, `text/xml; charset=utf-8`, quoted `SOAPAction` header.
    Soap11,
    /// SOAP 1.2: `POST {path}`, `application/soap+xml; charset=utf-8; action="…"`.
    Soap12,
    /// HTTP GET: `GET {path}/{Operation}?name=value&…`.
    HttpGet,
    /// HTTP POST: `POST {path}/{Operation}` with an `application/x-www-form-urlencoded` body.
    HttpPost,
    /// ASP.NET AJAX's JSON (a `[ScriptService]`'s operations): `POST {path}/{Operation}` with
    /// `Content-Type: application/json` and the parameters as one JSON object, or for an
    /// operation marked `UseHttpGet` a `GET` with each parameter a JSON value in the query;
    /// the answer `{"d":result}`. Not in the WSDL, and not in [`Binding::ALL`].
    Json,
}

impl Binding {
    /// The four bindings of the WSDL, in the order the interface document lists them.
    pub const ALL: [Binding; 4] = [
        Binding::Soap11,
        Binding::Soap12,
        Binding::HttpGet,
        Binding::HttpPost,
    ];

    /// Whether the binding carries a SOAP envelope (1.1 or 1.2).
    pub const fn is_soap(self) -> bool {
        matches!(self, Binding::Soap11 | Binding::Soap12)
    }

    /// The `Content-Type` of a successful response on this binding, as an ASMX host sends it.
    pub const fn response_content_type(self) -> &'static str {
        match self {
            Binding::Soap12 => crate::soap::SOAP12_CONTENT_TYPE,
            Binding::Soap11 | Binding::HttpGet | Binding::HttpPost => {
                crate::soap::SOAP11_CONTENT_TYPE
            }
            Binding::Json => crate::json::script::JSON_CONTENT_TYPE,
        }
    }

    /// A short human name, used in error messages (`SOAP 1.1`, `HTTP GET`, …).
    pub const fn label(self) -> &'static str {
        match self {
            Binding::Soap11 => "SOAP 1.1",
            Binding::Soap12 => "SOAP 1.2",
            Binding::HttpGet => "HTTP GET",
            Binding::HttpPost => "HTTP POST",
            Binding::Json => "JSON",
        }
    }

    /// The spec's spelling (`soap11`, `soap12`, `get`, `post`; `json`), as metrics label it.
    pub const fn key(self) -> &'static str {
        match self {
            Binding::Soap11 => "soap11",
            Binding::Soap12 => "soap12",
            Binding::HttpGet => "get",
            Binding::HttpPost => "post",
            Binding::Json => "json",
        }
    }
}

impl std::fmt::Display for Binding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}
