//! Request mutations: a type error or a missing parameter, made on the encoded request.
//!
//! The generated client only sends well-typed, complete requests; the error cases
//! ([`crate::client::ErrorCase`]) rewrite its encoded request instead, through the
//! [`Mutating`] transport (client section) or [`mutate`] directly (fidelity, recording).

use std::sync::Arc;

use rmm_mobile::runtime::client::{BoxFuture, ReqwestTransport, Transport, TransportError};
use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::{self, Request, Response};

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Mutation {
    None,
    /// `param`'s value `from` becomes `to`.
    Replace {
        param: &'static str,
        from: &'static str,
        to: &'static str,
    },
    /// `param` (with value `value`) is left out.
    Remove {
        param: &'static str,
        value: &'static str,
    },
}

fn mutate_form(form: &str, m: Mutation) -> String {
    match m {
        Mutation::None => form.to_owned(),
        Mutation::Replace { param, from, to } => {
            let pairs: Vec<String> = form
                .split('&')
                .map(|p| {
                    if p == format!("{param}={from}") {
                        format!("{param}={to}")
                    } else {
                        p.to_owned()
                    }
                })
                .collect();
            pairs.join("&")
        }
        Mutation::Remove { param, value } => {
            let pairs: Vec<&str> = form
                .split('&')
                .filter(|p| *p != format!("{param}={value}"))
                .collect();
            pairs.join("&")
        }
    }
}

fn mutate_xml(body: &str, m: Mutation) -> String {
    match m {
        Mutation::None => body.to_owned(),
        Mutation::Replace { param, from, to } => body.replace(
            &format!("<{param}>{from}</{param}>"),
            &format!("<{param}>{to}</{param}>"),
        ),
        Mutation::Remove { param, value } => {
            body.replace(&format!("<{param}>{value}</{param}>"), "")
        }
    }
}

pub(crate) fn mutate(request: Request<Bytes>, m: Mutation) -> Request<Bytes> {
    if m == Mutation::None {
        return request;
    }
    let (mut parts, body) = request.into_parts();
    let is_form = parts
        .headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/x-www-form-urlencoded"));
    let text = String::from_utf8_lossy(&body).into_owned();
    let body = if text.is_empty() {
        text
    } else if is_form {
        mutate_form(&text, m)
    } else {
        mutate_xml(&text, m)
    };
    let uri = parts.uri.to_string();
    if let Some((path, query)) = uri.split_once('?') {
        parts.uri = format!("{path}?{}", mutate_form(query, m))
            .parse()
            .expect("mutated URI");
    }
    parts.headers.remove(http::header::CONTENT_LENGTH);
    Request::from_parts(parts, Bytes::from(body))
}

/// reqwest (shared, no proxies) with a mutation applied to each request.
#[derive(Clone)]
pub(crate) struct Mutating {
    pub(crate) inner: Arc<ReqwestTransport>,
    pub(crate) mutation: Mutation,
}

impl Transport for Mutating {
    fn send(
        &self,
        request: Request<Bytes>,
    ) -> BoxFuture<'_, Result<Response<Bytes>, TransportError>> {
        let request = mutate(request, self.mutation);
        self.inner.send(request)
    }
}
