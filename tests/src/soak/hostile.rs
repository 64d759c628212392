//! Clients that vanish in the middle of a request, and clients that pipeline.

use std::io::Write;
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::time::Duration;

use rmm_mobile::runtime::deps::http::header::{CONTENT_LENGTH, TRANSFER_ENCODING};
use rmm_mobile::runtime::deps::http::HeaderValue;

use super::http1::{head_bytes, Answer, Connection, READ_TIMEOUT};
use super::mix::Case;

/// Where a vanishing client stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vanish {
    /// Half-way through the head.
    MidHead,
    /// After the head (declaring the whole body's `Content-Length`) and half the body.
    MidBody,
    /// The same, on a connection that first made a whole call.
    MidBodyAfterCall,
    /// After a chunked head and one chunk of a body that has more.
    MidChunkedBody,
    /// After sending eight WSDL requests at once, without reading their (large) answers.
    UnreadAnswers,
}

impl Vanish {
    /// Every way of vanishing.
    pub const ALL: [Vanish; 5] = [
        Vanish::MidHead,
        Vanish::MidBody,
        Vanish::MidBodyAfterCall,
        Vanish::MidChunkedBody,
        Vanish::UnreadAnswers,
    ];

    /// What it does, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Vanish::MidHead => "closes half-way through the head",
            Vanish::MidBody => "closes after the head and half the body",
            Vanish::MidBodyAfterCall => "makes a call, then closes half-way through the next body",
            Vanish::MidChunkedBody => "closes after one chunk of a chunked body",
            Vanish::UnreadAnswers => "sends 8 WSDL requests at once and closes unread",
        }
    }

    /// Does it once against `addr`: `call` is a valid call (with a body), `big` a request
    /// with a large answer. Errs only when a whole call in it got an unexpected answer.
    pub fn run(self, addr: SocketAddr, call: &Case, big: &Case) -> Result<(), String> {
        let mut connection = Connection::open(addr).map_err(|e| format!("connect: {e}"))?;
        let head = head_bytes(&call.request);
        let half_body = &call.request.body()[..call.request.body().len() / 2];
        // Writes may fail once the server has seen enough and gone: that is its right.
        let _ = match self {
            Vanish::MidHead => connection.send(&head[..head.len() / 2]),
            Vanish::MidBody => connection.send(&[&head[..], half_body].concat()),
            Vanish::MidBodyAfterCall => {
                let answer = connection
                    .call(&call.wire)
                    .map_err(|e| format!("the whole call: {e}"))?;
                check(&answer, call)?;
                connection.send(&[&head[..], half_body].concat())
            }
            Vanish::MidChunkedBody => {
                let mut request = call.request.clone();
                request.headers_mut().remove(CONTENT_LENGTH);
                request
                    .headers_mut()
                    .insert(TRANSFER_ENCODING, HeaderValue::from_static("chunked"));
                let chunk = format!("{:x}\r\n", half_body.len());
                connection.send(&[&head_bytes(&request)[..], chunk.as_bytes(), half_body].concat())
            }
            Vanish::UnreadAnswers => connection.send(&big.wire.repeat(8)),
        };
        drop(connection);
        Ok(())
    }
}

/// `Err` describing how `answer` differs from what `case` expects.
fn check(answer: &Answer, case: &Case) -> Result<(), String> {
    match answer.difference(&case.expected) {
        None => Ok(()),
        Some(diff) => Err(format!("{}: {diff}", case.name)),
    }
}

/// Writes `cases` on one connection in one write, then reads their answers, which must come
/// in order, each the expected one. The write runs in a thread of its own, so that answers
/// filling the socket buffers cannot block it.
pub fn pipeline(addr: SocketAddr, cases: &[&Case]) -> Result<(), String> {
    let all: Vec<u8> = cases.iter().flat_map(|c| c.wire.iter().copied()).collect();
    let mut connection = Connection::open(addr).map_err(|e| format!("connect: {e}"))?;
    let mut writer = connection
        .stream()
        .try_clone()
        .map_err(|e| format!("clone: {e}"))?;
    writer
        .set_write_timeout(Some(READ_TIMEOUT))
        .map_err(|e| format!("write timeout: {e}"))?;
    std::thread::scope(|scope| {
        let written = scope.spawn(move || writer.write_all(&all));
        for (i, case) in cases.iter().enumerate() {
            let answer = connection
                .read_answer()
                .map_err(|e| format!("answer {} of {}: {e}", i + 1, cases.len()))?;
            check(&answer, case)
                .map_err(|e| format!("answer {} of {}: {e}", i + 1, cases.len()))?;
        }
        written
            .join()
            .expect("writer thread")
            .map_err(|e| format!("write: {e}"))
    })
}

/// Pipelines `cases`, then the head of `oversized` (a declared length over the limit), and
/// checks the answers come in order, the last the `413`, after which the server closes.
pub fn pipeline_into_oversized(
    addr: SocketAddr,
    cases: &[&Case],
    oversized: &Case,
) -> Result<(), String> {
    let mut all: Vec<u8> = cases.iter().flat_map(|c| c.wire.iter().copied()).collect();
    all.extend_from_slice(&head_bytes(&oversized.request));
    let mut connection = Connection::open(addr).map_err(|e| format!("connect: {e}"))?;
    connection.send(&all).map_err(|e| format!("write: {e}"))?;
    for case in cases.iter().chain([&oversized]) {
        let answer = connection
            .read_answer()
            .map_err(|e| format!("{}: {e}", case.name))?;
        check(&answer, case)?;
    }
    match connection.closed_within(Duration::from_secs(5)) {
        Ok(true) => Ok(()),
        Ok(false) => Err("the connection stayed open after the 413".to_owned()),
        Err(e) => Err(format!("after the 413: {e}")),
    }
}

/// Sends `case` on a connection of its own while reading the answer (the server may answer
/// and close before the body is all sent, which makes the writing fail: expected). Then, if
/// the server kept the connection, calls `then` on it, which must get its expected answer.
/// Returns the answer to `case` and whether the server closed the connection after it.
pub fn exchange_alone(
    addr: SocketAddr,
    case: &Case,
    then: &Case,
) -> Result<(Answer, bool), String> {
    let mut connection = Connection::open(addr).map_err(|e| format!("connect: {e}"))?;
    let mut writer: TcpStream = connection
        .stream()
        .try_clone()
        .map_err(|e| format!("clone: {e}"))?;
    writer
        .set_write_timeout(Some(READ_TIMEOUT))
        .map_err(|e| format!("write timeout: {e}"))?;
    let answer = std::thread::scope(|scope| {
        let wire = &case.wire;
        let writing = scope.spawn(move || writer.write_all(wire));
        let answer = connection.read_answer().map_err(|e| format!("{e}"));
        if answer.is_err() {
            // Ends the writer if the server neither reads nor closes.
            let _ = connection.stream().shutdown(Shutdown::Both);
        }
        // Whether it wrote all or failed (the server gone): the next call tells which.
        let _ = writing.join().expect("the writer thread");
        answer
    })?;
    // A server that closed fails this call (at the write or the read); one that read the
    // whole body answers it.
    match connection.call(&then.wire) {
        Ok(next) => check(&next, then)
            .map(|()| (answer, false))
            .map_err(|e| format!("the call after the answer: {e}")),
        Err(_) => Ok((answer, true)),
    }
}
