//! The session cookie: finding it in a request, and the `Set-Cookie` that issues it.

use http::header::COOKIE;
use http::HeaderMap;

use super::{SameSite, SessionConfig};

/// The value of the cookie `name` in the request's `Cookie` headers (the first, as
/// ASP.NET's cookie collection reads a repeated name), spaces around it trimmed.
pub fn find<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|line| line.split(';'))
        .find_map(|pair| {
            let (key, value) = pair.split_once('=')?;
            (key.trim() == name).then(|| value.trim())
        })
}

/// The `Set-Cookie` value issuing session `id`, as .NET Framework 4.8 writes it
/// (`HttpCookie.GetSetCookieHeader` of `SessionIDManager`'s cookie):
/// `ASP.NET_SessionId=…; path=/; HttpOnly; SameSite=Lax`. The cookie has no expiry: it
/// lasts as long as the browser, and the session as long as it is used.
pub fn set_cookie(config: &SessionConfig, id: &str) -> String {
    let mut value = format!("{}={id}; path=/; HttpOnly", config.cookie_name);
    if let Some(same_site) = config.same_site {
        value.push_str("; SameSite=");
        value.push_str(match same_site {
            SameSite::Lax => "Lax",
            SameSite::Strict => "Strict",
            SameSite::None => "None",
        });
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    #[test]
    fn the_cookie_is_found_among_others() {
        let mut headers = HeaderMap::new();
        headers.append(
            COOKIE,
            HeaderValue::from_static("a=1; ASP.NET_SessionId= abc ; b=2"),
        );
        headers.append(COOKIE, HeaderValue::from_static("ASP.NET_SessionId=second"));
        assert_eq!(find(&headers, "ASP.NET_SessionId"), Some("abc"));
        assert_eq!(find(&headers, "b"), Some("2"));
        assert_eq!(find(&headers, "ASP.NET"), None);
        assert_eq!(find(&HeaderMap::new(), "ASP.NET_SessionId"), None);
    }

    #[test]
    fn the_cookie_is_issued_as_dotnet_framework_issues_it() {
        let config = SessionConfig::default();
        assert_eq!(
            set_cookie(&config, "abcdefghijklmnopqrstuvwx"),
            "ASP.NET_SessionId=abcdefghijklmnopqrstuvwx; path=/; HttpOnly; SameSite=Lax"
        );
        let config = SessionConfig {
            same_site: None,
            cookie_name: "Sid".into(),
            ..SessionConfig::default()
        };
        assert_eq!(set_cookie(&config, "x"), "Sid=x; path=/; HttpOnly");
    }
}
