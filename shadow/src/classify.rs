//! Which operation a request calls, over which binding, read as an ASMX host routes it: the
//! SOAPAction header (SOAP 1.1), the content type's `action` (SOAP 1.2), the path's last
//! segment (HTTP GET and POST), else the first element of the SOAP body.

use bytes::Bytes;
use http::{header, Method, Request};

/// How a request reaches the service.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Binding {
    /// SOAP 1.1 (`text/xml`).
    Soap11,
    /// SOAP 1.2 (`application/soap+xml`).
    Soap12,
    /// HTTP GET of `…/Operation?…`.
    Get,
    /// HTTP POST of a form to `…/Operation`.
    Post,
    /// ASMX's JSON face (`[ScriptService]`): `…/Operation` with an `application/json`
    /// content type, by POST or GET.
    Json,
    /// A document of the service: its WSDL, discovery, schema or help page, its JavaScript
    /// proxy (`/js`, `/jsdebug`).
    Document,
    /// Anything else (another method, another content type).
    Other,
}

impl Binding {
    /// The name in reports (`soap11`, as a spec's `bindings:` spells it).
    pub const fn name(self) -> &'static str {
        match self {
            Binding::Soap11 => "soap11",
            Binding::Soap12 => "soap12",
            Binding::Get => "get",
            Binding::Post => "post",
            Binding::Json => "json",
            Binding::Document => "document",
            Binding::Other => "other",
        }
    }
}

/// The operation and binding of `request`. The operation is the name the request gives,
/// whether or not the service has it; a document is named after its query (`?wsdl`), and a
/// request that names none is `(none)`.
pub fn classify(request: &Request<Bytes>) -> (String, Binding) {
    let content_type = header_text(request, header::CONTENT_TYPE).to_ascii_lowercase();
    let path = request.uri().path();
    let asmx_end = path
        .to_ascii_lowercase()
        .find(".asmx")
        .map(|i| i + ".asmx".len());
    let after_asmx = asmx_end
        .map(|end| path[end..].trim_start_matches('/'))
        .filter(|rest| !rest.is_empty());
    if request.method() == Method::POST && content_type.starts_with("text/xml") {
        let action = header_text(request, "soapaction");
        return (soap_operation(action, &request.body()[..]), Binding::Soap11);
    }
    if request.method() == Method::POST && content_type.starts_with("application/soap+xml") {
        let action = content_type_action(header_text(request, header::CONTENT_TYPE));
        return (
            soap_operation(&action, &request.body()[..]),
            Binding::Soap12,
        );
    }
    if let Some(operation) = after_asmx {
        if operation.eq_ignore_ascii_case("js") || operation.eq_ignore_ascii_case("jsdebug") {
            return (
                format!("/{}", operation.to_ascii_lowercase()),
                Binding::Document,
            );
        }
        // `application/json`, alone or before `;` (.NET's `RestHandlerFactory.IsRestMethodCall`).
        let media = content_type.split(';').next().unwrap_or_default();
        if media == "application/json" {
            return (operation.to_owned(), Binding::Json);
        }
        let binding = match *request.method() {
            Method::GET => Binding::Get,
            Method::POST => Binding::Post,
            _ => Binding::Other,
        };
        return (operation.to_owned(), binding);
    }
    if request.method() == Method::GET {
        let query = request
            .uri()
            .query()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let name = query.split(['=', '&']).next().unwrap_or_default();
        let document = if name.is_empty() { "help" } else { name };
        return (format!("?{document}"), Binding::Document);
    }
    ("(none)".to_owned(), Binding::Other)
}

fn header_text<K: header::AsHeaderName>(request: &Request<Bytes>, name: K) -> &str {
    request
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

/// The `action` parameter of a SOAP 1.2 content type, unquoted.
fn content_type_action(content_type: &str) -> String {
    content_type
        .split(';')
        .filter_map(|p| p.trim().split_once('='))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("action"))
        .map(|(_, value)| value.trim().trim_matches('"').to_owned())
        .unwrap_or_default()
}

/// The operation a SOAP action names (the part after its last `/`), else the first element
/// of the SOAP body.
fn soap_operation(action: &str, body: &[u8]) -> String {
    let action = action.trim().trim_matches('"');
    if let Some(name) = action.rsplit('/').next().filter(|n| !n.is_empty()) {
        return name.to_owned();
    }
    body_operation(body).unwrap_or_else(|| "(none)".to_owned())
}

fn body_operation(body: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(body).ok()?;
    let document = roxmltree::Document::parse(text).ok()?;
    let envelope = document.root_element();
    let body = envelope
        .children()
        .find(|c| c.is_element() && c.tag_name().name() == "Body")?;
    let first = body.children().find(|c| c.is_element())?;
    Some(first.tag_name().name().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: &str, uri: &str, headers: &[(&str, &str)], body: &str) -> Request<Bytes> {
        let mut builder = Request::builder().method(method).uri(uri);
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        builder.body(Bytes::from(body.to_owned())).unwrap()
    }

    #[test]
    fn each_binding_names_its_operation_where_asmx_reads_it() {
        let soap11 = request(
            "POST",
            "/S.asmx",
            &[
                ("content-type", "text/xml; charset=utf-8"),
                ("soapaction", "\"http://s.example.com/Add\""),
            ],
            "",
        );
        assert_eq!(classify(&soap11), ("Add".into(), Binding::Soap11));
        let soap12 = request(
            "POST",
            "/S.asmx",
            &[(
                "content-type",
                "application/soap+xml; charset=utf-8; action=\"http://s.example.com/Greet\"",
            )],
            "",
        );
        assert_eq!(classify(&soap12), ("Greet".into(), Binding::Soap12));
        let get = request("GET", "/api/S.asmx/Add?a=1&b=2", &[], "");
        assert_eq!(classify(&get), ("Add".into(), Binding::Get));
        let post = request(
            "POST",
            "/api/S.asmx/Add",
            &[("content-type", "application/x-www-form-urlencoded")],
            "a=1&b=2",
        );
        assert_eq!(classify(&post), ("Add".into(), Binding::Post));
        let wsdl = request("GET", "/api/S.asmx?WSDL", &[], "");
        assert_eq!(classify(&wsdl), ("?wsdl".into(), Binding::Document));
        // ASMX's JSON face, by POST or GET, and its proxy; `application/jsonp` and
        // `application/json ;x` are no JSON calls to .NET.
        let json = request(
            "POST",
            "/api/S.asmx/Add",
            &[("content-type", "application/json; charset=utf-8")],
            r#"{"a":1,"b":2}"#,
        );
        assert_eq!(classify(&json), ("Add".into(), Binding::Json));
        let json_get = request(
            "GET",
            "/api/S.asmx/Greet?name=%22a%22",
            &[("content-type", "application/json")],
            "",
        );
        assert_eq!(classify(&json_get), ("Greet".into(), Binding::Json));
        for not_json in ["application/jsonp", "application/json ;x"] {
            let post = request("POST", "/api/S.asmx/Add", &[("content-type", not_json)], "");
            assert_eq!(classify(&post), ("Add".into(), Binding::Post));
        }
        let proxy = request("GET", "/api/S.asmx/jsdebug", &[], "");
        assert_eq!(classify(&proxy), ("/jsdebug".into(), Binding::Document));
    }

    #[test]
    fn without_an_action_the_body_names_the_operation() {
        let soap12 = request(
            "POST",
            "/S.asmx",
            &[("content-type", "application/soap+xml; charset=utf-8")],
            r#"<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body><Add xmlns="urn:s"/></e:Body></e:Envelope>"#,
        );
        assert_eq!(classify(&soap12), ("Add".into(), Binding::Soap12));
    }
}
