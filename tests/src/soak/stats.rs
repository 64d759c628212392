//! Latency figures and their formatting.

use std::time::Duration;

/// p50, p99 and max of a set of latencies.
#[derive(Debug, Clone, Copy, Default)]
pub struct Latency {
    /// How many were measured.
    pub count: usize,
    /// Median.
    pub p50: Duration,
    /// 99th percentile.
    pub p99: Duration,
    /// Largest.
    pub max: Duration,
}

impl Latency {
    /// The figures of `micros` (latencies in µs), which it sorts.
    pub fn of(micros: &mut [u32]) -> Latency {
        if micros.is_empty() {
            return Latency::default();
        }
        micros.sort_unstable();
        let at = |q: f64| {
            let i = ((micros.len() as f64 * q).ceil() as usize).clamp(1, micros.len()) - 1;
            Duration::from_micros(u64::from(micros[i]))
        };
        Latency {
            count: micros.len(),
            p50: at(0.50),
            p99: at(0.99),
            max: at(1.0),
        }
    }
}

impl std::fmt::Display for Latency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "p50 {}, p99 {}, max {}",
            short(self.p50),
            short(self.p99),
            short(self.max)
        )
    }
}

/// A duration in µs, ms or s, whichever reads best.
pub fn short(d: Duration) -> String {
    let us = d.as_micros();
    if us < 1_000 {
        format!("{us} µs")
    } else if us < 1_000_000 {
        format!("{:.1} ms", us as f64 / 1e3)
    } else {
        format!("{:.2} s", d.as_secs_f64())
    }
}

/// A duration as whole µs for a latency sample (saturating at `u32::MAX`, 71 minutes).
pub fn micros(d: Duration) -> u32 {
    u32::try_from(d.as_micros()).unwrap_or(u32::MAX)
}

/// `n` with thousands separators: `1,000,000`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
