//! Secrets taken out of an exchange before it is recorded: the values of the spec's `secrets`
//! (parameters by name, class members as `Class.Member`) in XML bodies, forms and queries,
//! the values of secret headers, and WS-Security's password.

use bytes::Bytes;
use http::{HeaderName, HeaderValue, Request, Response};

/// What a secret's value is replaced by.
pub const REDACTED: &str = "REDACTED";

const WSSE: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";

/// The headers redacted whatever the user names: they carry credentials.
pub const SECRET_HEADERS: &[&str] = &[
    "authorization",
    "proxy-authorization",
    "cookie",
    "set-cookie",
];

/// What to take out.
#[derive(Debug, Clone, Default)]
pub struct Secrets {
    /// Parameter names (`apikey`) and class members (`AuthHeader.Password`), as a spec's
    /// `secrets:` lists them.
    pub names: Vec<String>,
    /// More headers whose values are secret (beside [`SECRET_HEADERS`]).
    pub headers: Vec<HeaderName>,
}

impl Secrets {
    /// The request with its secrets replaced.
    pub fn request(&self, request: &Request<Bytes>) -> Request<Bytes> {
        let mut out = Request::builder()
            .method(request.method().clone())
            .uri(self.uri(request.uri()))
            .version(request.version())
            .body(self.body(request.headers(), request.body()))
            .unwrap_or_else(|_| Request::new(request.body().clone()));
        *out.headers_mut() = self.headers(request.headers());
        out
    }

    /// The response with its secrets replaced (an InOut header echoes them).
    pub fn response(&self, response: &Response<Bytes>) -> Response<Bytes> {
        let mut out = Response::new(self.body(response.headers(), response.body()));
        *out.status_mut() = response.status();
        *out.headers_mut() = self.headers(response.headers());
        out
    }

    fn headers(&self, headers: &http::HeaderMap) -> http::HeaderMap {
        let mut out = headers.clone();
        for (name, value) in out.iter_mut() {
            let secret = SECRET_HEADERS.contains(&name.as_str()) || self.headers.contains(name);
            if secret {
                *value = HeaderValue::from_static(REDACTED);
            }
        }
        out
    }

    fn uri(&self, uri: &http::Uri) -> http::Uri {
        let Some(query) = uri.query() else {
            return uri.clone();
        };
        let target = format!("{}?{}", uri.path(), self.form(query));
        target.parse().unwrap_or_else(|_| uri.clone())
    }

    fn body(&self, headers: &http::HeaderMap, body: &Bytes) -> Bytes {
        let form = headers
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| {
                t.to_ascii_lowercase()
                    .starts_with("application/x-www-form-urlencoded")
            });
        if form {
            if let Ok(text) = std::str::from_utf8(body) {
                return Bytes::from(self.form(text));
            }
        }
        self.xml(body).map_or_else(|| body.clone(), Bytes::from)
    }

    /// Whether a form field or element of this name (under an element of `parent`) is secret.
    fn is_secret(&self, name: &str, parent: Option<&str>) -> bool {
        self.names
            .iter()
            .any(|secret| match secret.split_once('.') {
                Some((class, member)) => {
                    member.eq_ignore_ascii_case(name)
                        && parent.is_none_or(|p| p.eq_ignore_ascii_case(class))
                }
                None => secret.eq_ignore_ascii_case(name),
            })
    }

    /// A query or form with each secret field's value replaced; the rest as it was.
    fn form(&self, text: &str) -> String {
        text.split('&')
            .map(|pair| {
                let (name, _) = pair.split_once('=').unwrap_or((pair, ""));
                let decoded: String = form_urlencoded::parse(name.as_bytes())
                    .next()
                    .map(|(n, _)| n.into_owned())
                    .unwrap_or_default();
                if self.is_secret(&decoded, None) {
                    format!("{name}={REDACTED}")
                } else {
                    pair.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join("&")
    }

    /// An XML body with the text of each secret element replaced; `None` when it is not
    /// XML or holds no secret.
    fn xml(&self, body: &[u8]) -> Option<Vec<u8>> {
        let text = std::str::from_utf8(body).ok()?;
        let document = roxmltree::Document::parse(text).ok()?;
        let mut ranges: Vec<std::ops::Range<usize>> = Vec::new();
        for node in document.descendants().filter(|n| n.is_element()) {
            let name = node.tag_name().name();
            let parent = node.parent_element().map(|p| p.tag_name().name());
            let wsse_password = node.tag_name().namespace() == Some(WSSE) && name == "Password";
            if !(wsse_password || self.is_secret(name, parent)) {
                continue;
            }
            for text in node.descendants().filter(|n| n.is_text()) {
                let range = text.range();
                if !ranges
                    .iter()
                    .any(|r| r.start <= range.start && range.end <= r.end)
                {
                    ranges.push(range);
                }
            }
        }
        if ranges.is_empty() {
            return None;
        }
        ranges.sort_by_key(|r| r.start);
        let mut out = Vec::with_capacity(body.len());
        let mut at = 0;
        for range in ranges {
            out.extend_from_slice(&body[at..range.start]);
            out.extend_from_slice(REDACTED.as_bytes());
            at = range.end;
        }
        out.extend_from_slice(&body[at..]);
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets() -> Secrets {
        Secrets {
            names: vec!["apikey".into(), "AuthHeader.Password".into()],
            headers: vec![HeaderName::from_static("x-api-key")],
        }
    }

    #[test]
    fn secret_elements_are_redacted_whatever_their_prefix() {
        let body = r#"<e:Envelope xmlns:e="urn:e"><e:Header><AuthHeader xmlns="urn:s"><User>ann</User><Password>pw&amp;1</Password></AuthHeader></e:Header><e:Body><s:Op xmlns:s="urn:s"><s:apikey>k1</s:apikey><s:n>3</s:n><Password>kept</Password></s:Op></e:Body></e:Envelope>"#;
        let request = Request::builder()
            .method("POST")
            .uri("/S.asmx")
            .header("content-type", "text/xml; charset=utf-8")
            .header("x-api-key", "k2")
            .header("authorization", "Basic YW5uOnB3")
            .body(Bytes::from(body))
            .unwrap();
        let redacted = secrets().request(&request);
        let text = String::from_utf8(redacted.body().to_vec()).unwrap();
        assert_eq!(
            text,
            body.replace("pw&amp;1", REDACTED)
                .replace(">k1<", ">REDACTED<")
        );
        assert_eq!(redacted.headers()["x-api-key"], REDACTED);
        assert_eq!(redacted.headers()["authorization"], REDACTED);
        assert_eq!(
            redacted.headers()["content-type"],
            "text/xml; charset=utf-8"
        );
    }

    #[test]
    fn secret_fields_of_forms_and_queries_are_redacted() {
        let get = Request::builder()
            .uri("/S.asmx/Op?n=3&ApiKey=k%201&x=")
            .body(Bytes::new())
            .unwrap();
        assert_eq!(
            secrets().request(&get).uri(),
            "/S.asmx/Op?n=3&ApiKey=REDACTED&x="
        );
        let post = Request::builder()
            .method("POST")
            .uri("/S.asmx/Op")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Bytes::from("api%6Bey=k&n=3"))
            .unwrap();
        assert_eq!(
            &secrets().request(&post).body()[..],
            b"api%6Bey=REDACTED&n=3"
        );
    }

    #[test]
    fn the_ws_security_password_is_always_redacted() {
        let body = format!(
            r#"<e:Envelope xmlns:e="urn:e"><e:Header><w:Security xmlns:w="{WSSE}"><w:UsernameToken><w:Username>ann</w:Username><w:Password Type="t">digest==</w:Password></w:UsernameToken></w:Security></e:Header><e:Body/></e:Envelope>"#
        );
        let response = Response::new(Bytes::from(body.clone()));
        let redacted = Secrets::default().response(&response);
        assert_eq!(
            String::from_utf8(redacted.body().to_vec()).unwrap(),
            body.replace("digest==", REDACTED)
        );
    }
}
