//! Turning fuzz bytes into the inputs of a target: leading bytes choose among a few fixed
//! options (operation, binding, content type), the rest is the message; and a raw HTTP request,
//! as the recorded exchanges hold it, into an `http::Request`.

use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::{Method, Request, Version};

/// The fuzz input read from the front: each choice takes one byte (an absent byte chooses
/// the first option), and the rest is what is left.
#[derive(Debug, Clone, Copy)]
pub struct Choices<'a> {
    data: &'a [u8],
}

impl<'a> Choices<'a> {
    /// The whole input, nothing chosen yet.
    pub fn new(data: &'a [u8]) -> Choices<'a> {
        Choices { data }
    }

    /// One of `options`, by the next byte.
    pub fn pick<T: Copy>(&mut self, options: &[T]) -> T {
        options[self.index(options.len())]
    }

    /// An index below `len` (at most 256), by the next byte.
    pub fn index(&mut self, len: usize) -> usize {
        let byte = match self.data.split_first() {
            Some((&byte, rest)) => {
                self.data = rest;
                byte
            }
            None => 0,
        };
        usize::from(byte) % len
    }

    /// The bytes no choice has taken.
    pub fn rest(self) -> &'a [u8] {
        self.data
    }
}

/// A raw HTTP/1.x request (`METHOD TARGET VERSION`, header lines, an empty line, the body) as
/// an `http::Request` whose body is every byte after the head, as the server gets it once
/// hyper has read the body. `None` for what hyper would refuse before the server sees it (a
/// start line or header it cannot parse): fuzzing that is fuzzing hyper.
pub fn http_request(raw: &[u8]) -> Option<Request<Bytes>> {
    let (head, body) = match find(raw, b"\r\n\r\n") {
        Some(at) => (&raw[..at], &raw[at + 4..]),
        None => (raw, &[][..]),
    };
    let head = std::str::from_utf8(head).ok()?;
    let mut lines = head.split("\r\n");
    let mut start = lines.next()?.split(' ');
    let (method, target, version) = (start.next()?, start.next()?, start.next()?);
    if start.next().is_some() {
        return None;
    }
    let mut builder = Request::builder()
        .method(Method::from_bytes(method.as_bytes()).ok()?)
        .uri(target)
        .version(match version {
            "HTTP/1.0" => Version::HTTP_10,
            "HTTP/1.1" => Version::HTTP_11,
            _ => return None,
        });
    for line in lines {
        let (name, value) = line.split_once(':')?;
        builder = builder.header(name, value.trim_matches([' ', '\t']));
    }
    builder.body(Bytes::copy_from_slice(body)).ok()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
