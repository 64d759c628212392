//! `Content-Type` values: their parameters (`charset`, SOAP 1.2's `action`), read by the SOAP
//! and form readers and by routing.

use crate::soap::SOAP11_CONTENT_TYPE;

/// The value of parameter `name` (ASCII, any case) of a `Content-Type` value, without
/// surrounding whitespace and quotes: `charset`, or SOAP 1.2's `action`.
#[inline]
pub(crate) fn content_type_param<'a>(content_type: &'a [u8], name: &[u8]) -> Option<&'a [u8]> {
    // What nearly every SOAP 1.1 client sends, without the search.
    if content_type == SOAP11_CONTENT_TYPE.as_bytes() {
        return name
            .eq_ignore_ascii_case(b"charset")
            .then_some(&content_type[content_type.len() - b"utf-8".len()..]);
    }
    search_content_type_param(content_type, name)
}

/// [`content_type_param`] of any value.
fn search_content_type_param<'a>(content_type: &'a [u8], name: &[u8]) -> Option<&'a [u8]> {
    content_type
        .split(|&b| b == b';')
        .skip(1)
        .find_map(|param| {
            let eq = memchr::memchr(b'=', param)?;
            if !param[..eq].trim_ascii().eq_ignore_ascii_case(name) {
                return None;
            }
            let value = param[eq + 1..].trim_ascii();
            let unquoted = value.strip_prefix(b"\"").unwrap_or(value);
            Some(unquoted.strip_suffix(b"\"").unwrap_or(unquoted))
        })
}
