//! The messages of a JSON call to a `[ScriptService]`, as .NET Framework's `RestHandler`
//! reads and writes them: the parameters of a POST body or a GET query, the `{"d":…}`
//! answer, and the error body with its `jsonerror: true` header.

use std::borrow::Cow;

use bytes::Bytes;
use http::header::{HeaderValue, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE};
use http::{Method, Request, Response, StatusCode};

use chrono::Datelike;

use super::{
    parse, parse_within, FromJson, Json, JsonError, JsonLimits, JsonOut, Streamed, ToJson,
};

/// The `Content-Type` of every JSON answer (ASP.NET adds the charset to the handler's
/// `application/json`; Mono sends none).
pub const JSON_CONTENT_TYPE: &str = "application/json; charset=utf-8";

/// `Cache-Control` of an answer (`SetNoServerCaching`, `SetMaxAge(0)`).
pub const CACHE_CONTROL_ANSWER: &str = "private, max-age=0";

/// `Cache-Control` of an error (`ClearHeaders` resets the cache policy to its default).
pub const CACHE_CONTROL_ERROR: &str = "private";

/// The body of every error when custom errors are on (ASP.NET's default for a remote caller,
/// and the reference host's setting).
pub const CUSTOM_ERROR_BODY: &str =
    "{\"Message\":\"There was an error processing the request.\",\"StackTrace\":\"\",\"ExceptionType\":\"\"}";

/// Whether a request is a JSON call by its `Content-Type`, exactly as
/// `RestHandlerFactory.IsRestMethodCall` tests it: `application/json`, alone or followed
/// by `;` and parameters, in any case (`application/json ; x` is not).
pub fn is_json_call(content_type: Option<&str>) -> bool {
    let Some(content_type) = content_type else {
        return false;
    };
    let media = "application/json";
    content_type.len() >= media.len()
        && content_type.as_bytes()[..media.len()].eq_ignore_ascii_case(media.as_bytes())
        && matches!(content_type.as_bytes().get(media.len()), None | Some(b';'))
}

/// A JSON call's body as `RestHandler` reads it, through `new StreamReader(InputStream)`:
/// a byte order mark chooses the encoding (UTF-8, skipped; UTF-16 or UTF-32, in either byte
/// order), and without one the body is UTF-8, whatever the content type's charset says. What
/// does not decode is read as U+FFFD, as .NET's decoders' replacement fallback reads it.
fn body_text(body: &[u8]) -> std::borrow::Cow<'_, str> {
    /// UTF-32 (which encoding_rs, a decoder for the Web, leaves out): each four bytes a code
    /// point, U+FFFD for what is none and for a last incomplete unit.
    fn utf32(bytes: &[u8], unit: fn([u8; 4]) -> u32) -> String {
        let units = bytes.chunks_exact(4);
        let incomplete = !units.remainder().is_empty();
        let mut text: String = units
            .map(|c| char::from_u32(unit([c[0], c[1], c[2], c[3]])).unwrap_or('\u{FFFD}'))
            .collect();
        if incomplete {
            text.push('\u{FFFD}');
        }
        text
    }
    // StreamReader's order: UTF-32 LE's mark begins as UTF-16 LE's does.
    if let Some(rest) = body.strip_prefix(b"\xFF\xFE\x00\x00") {
        return utf32(rest, u32::from_le_bytes).into();
    }
    if let Some(rest) = body.strip_prefix(b"\x00\x00\xFE\xFF") {
        return utf32(rest, u32::from_be_bytes).into();
    }
    if body.starts_with(b"\xFF\xFE") {
        return encoding_rs::UTF_16LE.decode_with_bom_removal(body).0;
    }
    if body.starts_with(b"\xFE\xFF") {
        return encoding_rs::UTF_16BE.decode_with_bom_removal(body).0;
    }
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    // Valid UTF-8, as a body nearly always is, checked at the validator's speed (the lossy
    // reading goes a chunk at a time); invalid, each bad sequence read as U+FFFD.
    match simdutf8::basic::from_utf8(body) {
        Ok(text) => text.into(),
        Err(_) => String::from_utf8_lossy(body),
    }
}

/// The parameters of a JSON call, by name.
#[derive(Debug)]
pub struct ScriptArgs<'a> {
    values: Vec<(Cow<'a, str>, Json<'a>)>,
}

impl<'a> ScriptArgs<'a> {
    /// Reads the parameters of a call to an operation that takes GET (`use_get`, .NET's
    /// `UseHttpGet`) or POST: from the query, each of `params` a JSON value (names matched
    /// ignoring case, a repeated one joined with commas, an empty one null), or from the body,
    /// one JSON object (empty, no parameters). A call by the other verb is refused.
    pub fn of_request<B: AsRef<[u8]>>(
        request: &'a Request<B>,
        operation: &'static str,
        use_get: bool,
        params: &[&'static str],
    ) -> Result<ScriptArgs<'a>, JsonError> {
        // `GetRawParams`: a UseHttpGet operation takes GET alone, another POST alone; the
        // message names the verb .NET assumes was used ("POST" for any but GET, "GET" for
        // any but POST), not the one sent.
        let get = request.method() == Method::GET;
        let post = request.method() == Method::POST;
        if use_get && !get {
            return Err(JsonError::WrongVerb {
                method: operation,
                verb: "POST",
            });
        }
        if !use_get && !post {
            return Err(JsonError::WrongVerb {
                method: operation,
                verb: "GET",
            });
        }
        if get {
            let query = request.uri().query().unwrap_or("").as_bytes();
            let mut values = Vec::new();
            for param in params {
                let mut joined: Option<String> = None;
                for (name, value) in form_urlencoded::parse(query) {
                    if name.eq_ignore_ascii_case(param) {
                        match &mut joined {
                            Some(text) => {
                                text.push(',');
                                text.push_str(&value);
                            }
                            None => joined = Some(value.into_owned()),
                        }
                    }
                }
                if let Some(text) = joined {
                    let value = parse_within(&text, limits_of(request))?.unwrap_or(Json::Null);
                    values.push((Cow::Borrowed(*param), value.into_owned()));
                }
            }
            return Ok(ScriptArgs { values });
        }
        // The parameters borrow the body's text where it is UTF-8 as sent (nearly always);
        // a body decoded from another encoding is the call's own, and so are they.
        let values = match body_text(request.body().as_ref()) {
            Cow::Borrowed(text) => body_params(text, limits_of(request))?,
            Cow::Owned(text) => body_params(&text, limits_of(request))?
                .into_iter()
                .map(|(name, value)| (Cow::Owned(name.into_owned()), value.into_owned()))
                .collect(),
        };
        Ok(ScriptArgs { values })
    }

    /// The parameter `name` (matched exactly) converted to its type; absent, refused.
    pub fn param<T: FromJson>(&self, name: &'static str) -> Result<T, JsonError> {
        match self.values.iter().find(|(n, _)| n == name) {
            Some((_, value)) => T::from_json(value),
            None => Err(JsonError::MissingParameter(name)),
        }
    }
}

#[doc(hidden)] // for generated code
/// Reads the parameters of a call straight into their types with `read` ([`Streamed`]):
/// `None` for anything but the usual call (a `POST` of a UTF-8 body holding each parameter
/// once, every value converting), which [`ScriptArgs::of_request`] then reads and words the
/// errors of.
pub fn streamed<B: AsRef<[u8]>, T>(
    request: &Request<B>,
    use_get: bool,
    read: impl FnOnce(&mut Streamed<'_>) -> Option<T>,
) -> Option<T> {
    if use_get || request.method() != Method::POST {
        return None;
    }
    match body_text(request.body().as_ref()) {
        Cow::Borrowed(text) if !text.is_empty() => {
            Streamed::read_whole(text, limits_of(request), read)
        }
        _ => None,
    }
}

/// A call's body, `text`: one JSON object, its members the parameters (empty text, none).
fn body_params(text: &str, limits: JsonLimits) -> Result<Vec<(Cow<'_, str>, Json<'_>)>, JsonError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    match parse_within(text, limits)? {
        None | Some(Json::Null) => Err(JsonError::NullBody),
        Some(Json::Object(values)) => Ok(values),
        Some(Json::Array(_)) => Err(JsonError::BodyIsArray),
        Some(other) => Err(JsonError::BodyIsValue(other.dotnet_type())),
    }
}

/// The answer to a call: `{"d":value}`. The server refuses a value JavaScriptSerializer
/// would not write within its limits (too deep, too long: [`within_limits`]); the answer
/// carries the depth it was written to for that.
pub fn answer(result: &dyn ToJson) -> Response<Bytes> {
    // Written in place after `{"d":`, in room for a small answer (a larger one grows it a
    // few times rather than from nothing).
    let mut out = JsonOut::after("{\"d\":", ANSWER_ROOM);
    result.write_json(&mut out);
    let deepest = out.deepest();
    let mut body = out.into_string();
    body.push('}');
    let mut response = json_response(StatusCode::OK, body, CACHE_CONTROL_ANSWER, false);
    response.extensions_mut().insert(Written { deepest });
    response
}

/// The room an answer's text starts with.
const ANSWER_ROOM: usize = 1024;

/// How deep an answer's value was written, for [`within_limits`].
#[derive(Debug, Clone, Copy)]
struct Written {
    deepest: usize,
}

/// Replaces `response`, an answer [`answer`] made, with the error JavaScriptSerializer throws
/// for its value past `limits` (nesting past `recursionLimit`, more than `maxJsonLength`
/// characters); leaves any other response as it is.
#[inline]
pub fn within_limits(response: &mut Response<Bytes>, limits: JsonLimits) {
    // Every response passes here: one that is no JSON answer has no extensions to look in.
    if let Some(written) = response.extensions().get::<Written>().copied() {
        if let Some(error) = past_limits(response.body(), written, limits) {
            *response = error_response(&error);
        }
    }
}

/// The error of an answer's value past `limits`, if it is.
#[cold]
fn past_limits(body: &[u8], written: Written, limits: JsonLimits) -> Option<JsonError> {
    // The value, without `{"d":` and `}`.
    let value = body
        .get(5..body.len().saturating_sub(1))
        .unwrap_or_default();
    // No more bytes than the limit is no more characters: the text is read only past it.
    let text = match value.len() > limits.max_length {
        true => std::str::from_utf8(value).unwrap_or_default(),
        false => "",
    };
    limits.refusal(written.deepest, text)
}

/// The limits a request is read within: the server's (`ServerConfig::json_limits`), which
/// it puts in the request's extensions where they are not .NET's defaults.
fn limits_of<B>(request: &Request<B>) -> JsonLimits {
    request
        .extensions()
        .get::<JsonLimits>()
        .copied()
        .unwrap_or_default()
}

/// The answer to a call whose operation returns nothing: `{"d":null}`.
pub fn answer_void() -> Response<Bytes> {
    json_response(
        StatusCode::OK,
        "{\"d\":null}".to_owned(),
        CACHE_CONTROL_ANSWER,
        false,
    )
}

/// The header that marks a JSON error.
pub const JSON_ERROR: &str = "jsonerror";

/// The error answer, as `WriteExceptionJsonString` writes it with custom errors off: `500`,
/// `jsonerror: true`, the error's message and .NET exception type (and no stack trace, which
/// rmm has none of). The server hides the detail with custom errors on
/// (`hide_error`, `ServerConfig::custom_errors`).
pub fn error_response(error: &JsonError) -> Response<Bytes> {
    let mut out = JsonOut::new();
    out.open_object();
    out.member("Message");
    out.string(&error.to_string());
    out.member("StackTrace");
    out.string("");
    out.member("ExceptionType");
    out.string(error.exception_type());
    out.close_object();
    json_response(
        StatusCode::INTERNAL_SERVER_ERROR,
        out.into_string(),
        CACHE_CONTROL_ERROR,
        true,
    )
}

/// Hides an error answer's detail, as ASP.NET does with custom errors on: every error's body
/// is `CUSTOM_ERROR_BODY`.
pub fn hide_error(response: &mut Response<Bytes>) {
    *response.body_mut() = Bytes::from_static(CUSTOM_ERROR_BODY.as_bytes());
    response
        .headers_mut()
        .insert(CONTENT_LENGTH, HeaderValue::from(CUSTOM_ERROR_BODY.len()));
}

/// The `Content-Type` of the JavaScript proxy.
pub const PROXY_CONTENT_TYPE: &str = "application/x-javascript; charset=utf-8";

/// The answer to `{path}/js` (or, `debug`, `{path}/jsdebug`), the proxy of `proxy`'s lines,
/// as `RestClientProxyHandler`
/// gives it: the proxy, cached publicly from the time the service was built (.NET's: its
/// assembly's, here the server's executable's) for `/js`; `304` without a body to a request
/// whose `If-Modified-Since` is that time or later.
pub fn proxy_response(
    proxy: &[&str],
    debug: bool,
    if_modified_since: Option<&str>,
) -> Response<Bytes> {
    let built = built_at();
    let fresh = if_modified_since
        .and_then(|since| chrono::DateTime::parse_from_rfc2822(since.trim()).ok())
        .is_some_and(|since| since.naive_utc() >= built);
    if fresh {
        let mut response = Response::new(Bytes::new());
        *response.status_mut() = StatusCode::NOT_MODIFIED;
        response
            .headers_mut()
            .insert(CACHE_CONTROL, HeaderValue::from_static(CACHE_CONTROL_ERROR));
        return response;
    }
    let mut text = String::with_capacity(proxy.iter().map(|line| line.len() + 2).sum());
    for line in proxy {
        text.push_str(line);
        text.push_str("\r\n");
    }
    let len = text.len();
    let mut response = Response::new(Bytes::from(text));
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(PROXY_CONTENT_TYPE));
    headers.insert(CONTENT_LENGTH, HeaderValue::from(len));
    if debug {
        headers.insert(CACHE_CONTROL, HeaderValue::from_static(CACHE_CONTROL_ERROR));
    } else {
        let date = |at: chrono::NaiveDateTime| {
            HeaderValue::try_from(at.format("%a, %d %b %Y %H:%M:%S GMT").to_string())
                .expect("an HTTP date is a header value")
        };
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("public"));
        headers.insert(http::header::LAST_MODIFIED, date(built));
        // A year before: .NET's `SetExpires(lastModified.AddYears(-1))`.
        let expires = built
            .with_year(built.year() - 1)
            .unwrap_or(built - chrono::Duration::days(365));
        headers.insert(http::header::EXPIRES, date(expires));
    }
    response
}

/// When the service was built, to the second, in UTC: its executable's modification time
/// (as .NET takes its assembly's), else when this was first asked.
fn built_at() -> chrono::NaiveDateTime {
    use chrono::Timelike;
    static BUILT: std::sync::OnceLock<chrono::NaiveDateTime> = std::sync::OnceLock::new();
    *BUILT.get_or_init(|| {
        let modified = std::env::current_exe()
            .and_then(std::fs::metadata)
            .and_then(|m| m.modified())
            .unwrap_or_else(|_| std::time::SystemTime::now());
        let at: chrono::DateTime<chrono::Utc> = modified.into();
        let at = at.naive_utc();
        at.with_nanosecond(0).unwrap_or(at)
    })
}

fn json_response(
    status: StatusCode,
    body: String,
    cache_control: &'static str,
    error: bool,
) -> Response<Bytes> {
    let len = body.len();
    let mut response = Response::new(Bytes::from(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(JSON_CONTENT_TYPE));
    headers.insert(CONTENT_LENGTH, HeaderValue::from(len));
    if error {
        headers.insert(JSON_ERROR, HeaderValue::from_static("true"));
    }
    headers.insert(CACHE_CONTROL, HeaderValue::from_static(cache_control));
    response
}

/// Client side: a call's request. POST `{path}/{operation}` with the parameters as one JSON
/// object (`body`, written by `JsonOut`), or for a `use_get` operation a GET with each
/// parameter a JSON value in the query (`query`, already encoded).
pub fn request(http_path: &str, use_get: bool, params: &[(&str, String)]) -> Request<Bytes> {
    let builder = Request::builder().header(CONTENT_TYPE, JSON_CONTENT_TYPE);
    let request = if use_get {
        let mut uri = http_path.to_owned();
        for (i, (name, value)) in params.iter().enumerate() {
            uri.push(if i == 0 { '?' } else { '&' });
            uri.extend(form_urlencoded::byte_serialize(name.as_bytes()));
            uri.push('=');
            uri.extend(form_urlencoded::byte_serialize(value.as_bytes()));
        }
        builder.method(Method::GET).uri(uri).body(Bytes::new())
    } else {
        let mut out = JsonOut::new();
        out.open_object();
        for (name, value) in params {
            out.member(name);
            out.raw(value);
        }
        out.close_object();
        builder
            .method(Method::POST)
            .uri(http_path)
            .body(Bytes::from(out.into_string()))
    };
    request.expect("a request of a valid path and header")
}

/// Client side: a parameter's value as JSON text.
pub fn value_text(value: &dyn ToJson) -> String {
    let mut out = JsonOut::new();
    value.write_json(&mut out);
    out.into_string()
}

/// Client side: reads an answer: the value of `d`, or the error the service sent.
pub fn decode_answer<T: FromJson, B: AsRef<[u8]>>(
    operation: &'static str,
    response: &Response<B>,
) -> Result<T, crate::ResponseError> {
    use crate::{Binding, ResponseError};
    let body = response.body().as_ref();
    let undecodable = |reason: String| ResponseError::Undecodable {
        operation,
        binding: Binding::Json,
        reason,
        body: Bytes::copy_from_slice(body),
    };
    let text = match simdutf8::basic::from_utf8(body) {
        Ok(text) => text,
        // std's error says where the text stops being UTF-8.
        Err(_) => std::str::from_utf8(body).map_err(|e| undecodable(e.to_string()))?,
    };
    let json_error = response.headers().contains_key("jsonerror");
    if response.status() != StatusCode::OK {
        let message = match parse(text) {
            Ok(Some(error)) if json_error => match error.get("Message") {
                Some(Json::String(message)) => message.to_string(),
                _ => text.to_owned(),
            },
            _ => {
                return Err(ResponseError::Status {
                    operation,
                    binding: Binding::Json,
                    status: response.status().as_u16(),
                    body: text.trim_end().to_owned(),
                })
            }
        };
        return Err(ResponseError::ErrorBody {
            operation,
            binding: Binding::Json,
            message,
        });
    }
    // The usual answer, `{"d":value}`, read straight into the result's type ([`Streamed`]);
    // any other, and every error, through the value tree.
    let streamed = Streamed::read_whole(text, JsonLimits::default(), |json| {
        let mut members = json.open_params()?;
        let mut d = None;
        while json.next_param(&mut members, &["d"])?.is_some() {
            d = Some(json.value::<T>()?);
        }
        d
    });
    if let Some(d) = streamed {
        return Ok(d);
    }
    let value = parse(text)
        .map_err(|e| undecodable(e.to_string()))?
        .ok_or_else(|| undecodable("an empty body".to_owned()))?;
    let d = value
        .get("d")
        .ok_or_else(|| undecodable("no member d".to_owned()))?;
    T::from_json(d).map_err(|e| undecodable(e.to_string()))
}
