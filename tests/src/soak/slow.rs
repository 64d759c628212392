//! Slow clients, and a well-behaved client calling beside them.
//!
//! One thread drives every slow connection, non-blocking, in rounds: each round it looks at
//! what each connection has received (an answer, the server's close, a reset) and writes the
//! next byte of those that still have some to drip. So 1,500 connections cost one thread, and
//! each gets a byte per round.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::http1::{is_timeout, parse_answer, Answer, Connection};
use super::mix::Case;
use super::stats::micros;

/// What a group of slow connections sends.
#[derive(Debug, Clone)]
pub struct Script {
    /// Sent at once on connecting.
    pub burst: Vec<u8>,
    /// Then sent a byte per round.
    pub drip: Vec<u8>,
}

/// How a slow connection ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// The server closed it without a word.
    Closed,
    /// The server reset it.
    Reset,
    /// The server answered (and then closed it or not).
    Answered(Answer),
    /// Writing failed (the server had gone): the error's kind.
    WriteFailed(io::ErrorKind),
    /// Reading failed otherwise than by a reset: the error's kind.
    ReadFailed(io::ErrorKind),
    /// Still open at the deadline.
    Open,
}

impl End {
    /// A short name, to group ends by.
    pub fn label(&self) -> String {
        match self {
            End::Closed => "closed by the server, no answer".to_owned(),
            End::Reset => "reset by the server".to_owned(),
            End::Answered(answer) => format!("answered {}", answer.status),
            End::WriteFailed(kind) => format!("write failed ({kind:?})"),
            End::ReadFailed(kind) => format!("read failed ({kind:?})"),
            End::Open => "still open at the deadline".to_owned(),
        }
    }
}

/// The end of one slow connection.
#[derive(Debug, Clone)]
pub struct Ended {
    /// How.
    pub how: End,
    /// When, since it connected.
    pub after: Duration,
    /// How many bytes it had sent.
    pub sent: usize,
}

/// One slow connection.
struct Slow {
    stream: TcpStream,
    group: usize,
    connected: Instant,
    sent: usize,
    received: Vec<u8>,
    ended: Option<Ended>,
}

impl Slow {
    fn end(&mut self, how: End) {
        self.ended = Some(Ended {
            how,
            after: self.connected.elapsed(),
            sent: self.sent,
        });
    }

    /// Reads what the server sent, without waiting, and ends the connection if that ends it.
    fn look(&mut self) {
        let mut chunk = [0u8; 4096];
        loop {
            match self.stream.read(&mut chunk) {
                Ok(0) => {
                    let how = match parse_answer(&self.received) {
                        Ok(Some((answer, _))) => End::Answered(answer),
                        _ => End::Closed,
                    };
                    return self.end(how);
                }
                Ok(n) => self.received.extend_from_slice(&chunk[..n]),
                Err(e) if is_timeout(&e) => break,
                Err(e) if e.kind() == io::ErrorKind::ConnectionReset => {
                    return self.end(End::Reset)
                }
                Err(e) => return self.end(End::ReadFailed(e.kind())),
            }
        }
        // An answer ends the slow client's story, whether or not the server closes after it.
        if let Ok(Some((answer, _))) = parse_answer(&self.received) {
            self.end(End::Answered(answer));
        }
    }

    /// Writes the next byte of `drip`, if any is left.
    fn drip(&mut self, drip: &[u8], burst: usize) {
        let Some(&byte) = drip.get(self.sent - burst) else {
            return;
        };
        match self.stream.write(&[byte]) {
            Ok(n) => self.sent += n,
            Err(e) if is_timeout(&e) => {}
            Err(e) => self.end(End::WriteFailed(e.kind())),
        }
    }
}

/// The result of [`SlowClients::drip`].
#[derive(Debug)]
pub struct DripRun {
    /// The ends of each group's connections, in the groups' order.
    pub ended: Vec<Vec<Ended>>,
    /// The longest round (a byte to every open connection).
    pub longest_round: Duration,
}

/// Slow connections, open, each with its group's script.
pub struct SlowClients {
    slow: Vec<Slow>,
    groups: Vec<Script>,
    /// How long opening them took.
    pub opening: Duration,
}

impl SlowClients {
    /// Opens `count` connections for each script and sends each its burst.
    pub fn open(addr: SocketAddr, groups: &[(usize, Script)]) -> io::Result<SlowClients> {
        let start = Instant::now();
        let mut slow = Vec::new();
        for (group, (count, script)) in groups.iter().enumerate() {
            for _ in 0..*count {
                let mut stream = TcpStream::connect(addr)?;
                stream.set_nodelay(true)?;
                stream.write_all(&script.burst)?;
                stream.set_nonblocking(true)?;
                slow.push(Slow {
                    stream,
                    group,
                    connected: Instant::now(),
                    sent: script.burst.len(),
                    received: Vec::new(),
                    ended: None,
                });
            }
        }
        Ok(SlowClients {
            slow,
            groups: groups.iter().map(|(_, script)| script.clone()).collect(),
            opening: start.elapsed(),
        })
    }

    /// Drips each connection a byte of its script every `interval` (in rounds over them all)
    /// until every connection has ended or `deadline` has passed.
    pub fn drip(mut self, interval: Duration, deadline: Duration) -> DripRun {
        let start = Instant::now();
        let mut longest_round = Duration::ZERO;
        while start.elapsed() < deadline && self.slow.iter().any(|s| s.ended.is_none()) {
            let round = Instant::now();
            for s in self.slow.iter_mut().filter(|s| s.ended.is_none()) {
                s.look();
                if s.ended.is_none() {
                    let script = &self.groups[s.group];
                    s.drip(&script.drip, script.burst.len());
                }
            }
            longest_round = longest_round.max(round.elapsed());
            std::thread::sleep(interval.saturating_sub(round.elapsed()));
        }
        let mut ended = vec![Vec::new(); self.groups.len()];
        for mut s in self.slow {
            if s.ended.is_none() {
                s.end(End::Open);
            }
            ended[s.group].push(s.ended.take().expect("ended"));
        }
        DripRun {
            ended,
            longest_round,
        }
    }
}

/// What a well-behaved client saw.
#[derive(Debug, Default)]
pub struct Calls {
    /// The latency of each call that got its expected answer, in µs.
    pub latencies: Vec<u32>,
    /// Every other outcome, described.
    pub errors: Vec<String>,
}

/// Pause between the calls of a client that opens a connection per call: 200 connections a
/// second test that the server still accepts, without running the machine out of ephemeral
/// ports (each closed connection waits 60 s in `TIME_WAIT`).
pub const FRESH_PAUSE: Duration = Duration::from_millis(5);

/// Calls `case` again and again until `stop`, each time on a new connection (with a pause of
/// [`FRESH_PAUSE`]) if `fresh`, else on one keep-alive connection without pause; checks each
/// answer is the expected one.
pub fn keep_calling(addr: SocketAddr, case: &Case, fresh: bool, stop: &AtomicBool) -> Calls {
    let mut calls = Calls::default();
    let mut connection: Option<Connection> = None;
    while !stop.load(Ordering::Relaxed) {
        let start = Instant::now();
        let result = match connection.take() {
            Some(c) => Ok(c),
            None => Connection::open(addr),
        }
        .and_then(|mut c| c.call(&case.wire).map(|answer| (c, answer)));
        match result {
            Ok((c, answer)) => {
                match answer.difference(&case.expected) {
                    None => calls.latencies.push(micros(start.elapsed())),
                    Some(diff) => calls.errors.push(format!("unexpected answer: {diff}")),
                }
                if !fresh {
                    connection = Some(c);
                }
            }
            Err(e) => calls.errors.push(format!("{e}")),
        }
        if fresh {
            std::thread::sleep(FRESH_PAUSE);
        }
    }
    calls
}
