//! The soak's load: many keep-alive connections taking request numbers from one counter, each
//! number naming a case of the mix (or an oversized request, on a connection of its own), the
//! server's memory and descriptors sampled at every tenth of the requests.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::hostile;
use super::http1::Connection;
use super::mix::Mix;
use super::process::{Sample, ServerProcess};
use super::stats::micros;

/// What the load's clients saw.
#[derive(Debug, Default)]
pub struct Tally {
    /// Requests sent, per case of the mix (its index in `Mix::cases`).
    pub sent: BTreeMap<usize, u64>,
    /// Unexpected answers (or no answer), per case of the mix.
    pub unexpected: BTreeMap<usize, u64>,
    /// The first few unexpected answers, described.
    pub examples: Vec<String>,
    /// Latency of each keep-alive exchange, in µs.
    pub latencies: Vec<u32>,
    /// Connections opened after each worker's first (the server should close none).
    pub reconnects: u64,
    /// Each oversized exchange: the case's name, how its answer differed (if it did), and
    /// whether the server closed the connection after it.
    pub oversized: Vec<(String, Option<String>, bool)>,
}

impl Tally {
    fn unexpected(&mut self, case: usize, what: String) {
        *self.unexpected.entry(case).or_default() += 1;
        if self.examples.len() < 5 {
            self.examples.push(what);
        }
    }

    fn merge(&mut self, other: Tally) {
        for (case, n) in other.sent {
            *self.sent.entry(case).or_default() += n;
        }
        for (case, n) in other.unexpected {
            *self.unexpected.entry(case).or_default() += n;
        }
        self.examples.extend(other.examples);
        self.latencies.extend(other.latencies);
        self.reconnects += other.reconnects;
        self.oversized.extend(other.oversized);
    }
}

/// The load to run.
#[derive(Debug, Clone, Copy)]
pub struct Load<'a> {
    /// The requests.
    pub mix: &'a Mix,
    /// How many requests in all.
    pub total: u64,
    /// How many keep-alive connections (one thread each).
    pub connections: u64,
    /// How many of the requests are oversized.
    pub oversized: u64,
}

/// What a load run gives.
#[derive(Debug)]
pub struct LoadRun {
    /// What the clients saw.
    pub tally: Tally,
    /// The server at every tenth of the requests (the first one ends the warm-up).
    pub samples: Vec<Sample>,
    /// How long it took.
    pub elapsed: Duration,
}

impl Load<'_> {
    /// Runs the load against `server`, sampling it at every tenth of the requests.
    pub fn run(&self, server: &ServerProcess) -> LoadRun {
        let slots = self.oversized_slots();
        let (next, done) = (AtomicU64::new(0), AtomicU64::new(0));
        let start = Instant::now();
        let mut samples = Vec::new();
        let mut tally = Tally::default();
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..self.connections)
                .map(|_| scope.spawn(|| self.worker(server.addr, &slots, &next, &done)))
                .collect();
            let mut tenth = 1;
            while !workers.iter().all(|w| w.is_finished()) {
                std::thread::sleep(Duration::from_millis(20));
                let finished = done.load(Ordering::Relaxed);
                while tenth <= 10 && finished >= self.total * tenth / 10 {
                    samples.push(server.sample(format!("{tenth}0 %")));
                    print!("  {tenth}0 % ({:.0} s)", start.elapsed().as_secs_f64());
                    tenth += 1;
                }
            }
            println!();
            for worker in workers {
                tally.merge(worker.join().expect("a load worker"));
            }
        });
        LoadRun {
            tally,
            samples,
            elapsed: start.elapsed(),
        }
    }

    /// Where the oversized requests fall in the stream: one of each kind in the warm-up (so
    /// that the allocator has grown for a 4 MiB body before the warm-up sample: glibc keeps
    /// such freed memory resident, which would read as growth), the others evenly over the
    /// rest.
    fn oversized_slots(&self) -> Vec<u64> {
        let (total, count) = (self.total, self.oversized);
        let mut slots: Vec<u64> = (0..count.min(2)).map(|k| total / 20 + k).collect();
        let rest = count.saturating_sub(2);
        let after_warm_up = total - total / 10;
        slots.extend((1..=rest).map(|k| total / 10 + k * after_warm_up / (rest + 1)));
        slots.retain(|&slot| slot < total);
        slots.dedup();
        slots
    }

    /// One worker: takes the next request number until all are taken, on one keep-alive
    /// connection (reopened only if it breaks), oversized ones on connections of their own.
    fn worker(&self, addr: SocketAddr, slots: &[u64], next: &AtomicU64, done: &AtomicU64) -> Tally {
        let mut tally = Tally::default();
        let mut connection: Option<Connection> = None;
        let mut opened = 0u64;
        loop {
            let n = next.fetch_add(1, Ordering::Relaxed);
            if n >= self.total {
                break;
            }
            match slots.binary_search(&n) {
                Ok(k) => self.oversized_exchange(addr, k, n, &mut tally),
                Err(_) => self.exchange(addr, n, &mut connection, &mut opened, &mut tally),
            }
            done.fetch_add(1, Ordering::Relaxed);
        }
        tally.reconnects = opened.saturating_sub(1);
        tally
    }

    /// Request `n` on the keep-alive connection, opening one if there is none (counted in
    /// `opened`); a connection that fails is dropped.
    fn exchange(
        &self,
        addr: SocketAddr,
        n: u64,
        connection: &mut Option<Connection>,
        opened: &mut u64,
        tally: &mut Tally,
    ) {
        let index = self.mix.case_index(n);
        let case = &self.mix.cases[index];
        *tally.sent.entry(index).or_default() += 1;
        let start = Instant::now();
        let answer = match connection.take() {
            Some(c) => Ok(c),
            None => {
                *opened += 1;
                Connection::open(addr)
            }
        }
        .and_then(|mut c| c.call(&case.wire).map(|answer| (c, answer)));
        match answer {
            Ok((c, answer)) => {
                tally.latencies.push(micros(start.elapsed()));
                if let Some(diff) = answer.difference(&case.expected) {
                    tally.unexpected(index, format!("{}: {diff}", case.name));
                }
                *connection = Some(c);
            }
            Err(e) => tally.unexpected(index, format!("{}: no answer: {e}", case.name)),
        }
    }

    /// The `k`th oversized request (in place of request `n`, which is then called on the
    /// same connection if the server keeps it).
    fn oversized_exchange(&self, addr: SocketAddr, k: usize, n: u64, tally: &mut Tally) {
        let case = &self.mix.oversized[k % self.mix.oversized.len()];
        let (difference, closed) = match hostile::exchange_alone(addr, case, self.mix.case(n)) {
            Ok((answer, closed)) => (answer.difference(&case.expected), closed),
            Err(e) => (Some(e), false),
        };
        tally
            .oversized
            .push((case.name.clone(), difference, closed));
    }
}
