//! The session cookie a client keeps, as a .NET client's `CookieContainer` keeps
//! `ASP.NET_SessionId`: taken from a response's `Set-Cookie`, sent back on every call.

use std::sync::Mutex;

use bytes::Bytes;
use http::header::{HeaderValue, COOKIE, SET_COOKIE};
use http::{Request, Response};

/// The cookie ASP.NET names a session with.
const COOKIE_NAME: &str = "ASP.NET_SessionId";

#[doc(hidden)] // for generated code
/// A client's session: the id its service last issued, shared by the client's clones.
#[derive(Debug, Default)]
pub struct SessionCookie {
    id: Mutex<Option<String>>,
}

impl SessionCookie {
    /// A jar holding `id`.
    pub fn holding(id: Option<String>) -> SessionCookie {
        SessionCookie { id: Mutex::new(id) }
    }

    /// The id held.
    pub fn id(&self) -> Option<String> {
        self.id.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Sends the held id with `request`.
    pub fn attach(&self, request: &mut Request<Bytes>) {
        let held = self.id.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(value) = held
            .as_deref()
            .and_then(|id| HeaderValue::try_from(format!("{COOKIE_NAME}={id}")).ok())
        {
            request.headers_mut().insert(COOKIE, value);
        }
    }

    /// Keeps the id a response issues (a new session's), if it issues one.
    pub fn keep<B>(&self, response: &Response<B>) {
        let issued = response
            .headers()
            .get_all(SET_COOKIE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .find_map(|cookie| {
                let (name, rest) = cookie.split_once('=')?;
                (name.trim() == COOKIE_NAME)
                    .then(|| rest.split(';').next().unwrap_or("").trim().to_owned())
            });
        if let Some(id) = issued {
            *self.id.lock().unwrap_or_else(|e| e.into_inner()) = (!id.is_empty()).then_some(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issued_id_is_kept_and_sent_back() {
        let jar = SessionCookie::default();
        let mut request = Request::new(Bytes::new());
        jar.attach(&mut request);
        assert!(request.headers().get(COOKIE).is_none());
        let mut response = Response::new(Bytes::new());
        response
            .headers_mut()
            .append(SET_COOKIE, HeaderValue::from_static("other=1; path=/"));
        response.headers_mut().append(
            SET_COOKIE,
            HeaderValue::from_static(
                "ASP.NET_SessionId=abcdefghijklmnopqrstuvwx; path=/; HttpOnly; SameSite=Lax",
            ),
        );
        jar.keep(&response);
        assert_eq!(jar.id().as_deref(), Some("abcdefghijklmnopqrstuvwx"));
        jar.attach(&mut request);
        assert_eq!(
            request.headers().get(COOKIE).unwrap(),
            "ASP.NET_SessionId=abcdefghijklmnopqrstuvwx"
        );
        // A response issuing none leaves the id as it is.
        jar.keep(&Response::new(Bytes::new()));
        assert_eq!(jar.id().as_deref(), Some("abcdefghijklmnopqrstuvwx"));
    }
}
