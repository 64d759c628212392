//! What the shadow has seen, gathered as it goes: counts per operation and binding, the
//! classes of differences with the shortest example of each, the fields learned as noise,
//! latencies. [`Findings::report`] reads it out.

use std::collections::{BTreeMap, HashMap, HashSet};

use bytes::Bytes;
use http::{Request, Response};

use crate::classify::Binding;
use crate::compare::Difference;
use crate::report::{Class, Example, Latency, Report, Row};
use crate::rules::Rules;

/// The most latency samples kept per operation and binding and side: the most recent ones.
const MAX_SAMPLES: usize = 50_000;

/// The most rows (operation and binding) kept: an operation's name is the client's to choose,
/// and a long-running shadow must not grow with it. Requests of operations past these count
/// in one row, [`MORE_OPERATIONS`].
const MAX_ROWS: usize = 2_000;

/// The most classes of differences kept; more are counted, not kept.
const MAX_CLASSES: usize = 10_000;

/// The most (operation, field) pairs learned as noise.
const MAX_NOISE: usize = 100_000;

/// The row of the operations past [`MAX_ROWS`].
pub const MORE_OPERATIONS: &str = "(more operations)";

/// An operation over a binding: a row of the report.
type RowKey = (String, Binding);

/// Everything gathered.
#[derive(Debug, Default)]
pub struct Findings {
    requests: u64,
    dropped: u64,
    not_recorded: u64,
    rows: BTreeMap<RowKey, RowFindings>,
    /// (operation, field): where the primary and the secondary differ between themselves.
    noise: HashSet<(String, String)>,
    /// Classes not kept: past [`MAX_CLASSES`].
    classes_left_out: u64,
    /// By operation and binding, field, and the reason it is deliberate.
    classes: BTreeMap<(RowKey, String, Option<String>), ClassFindings>,
}

#[derive(Debug, Default)]
struct RowFindings {
    /// The answers compared, by the set of fields they differ in (none: identical) and the
    /// reason the difference is deliberate.
    signatures: HashMap<(Vec<String>, Option<String>), u64>,
    candidate_failed: u64,
    failure: Option<String>,
    primary: Samples,
    candidate: Samples,
}

#[derive(Debug)]
struct ClassFindings {
    count: u64,
    example: Example,
    /// The example's bodies' length.
    size: usize,
}

/// Latencies in microseconds: the most recent [`MAX_SAMPLES`].
#[derive(Debug, Default)]
struct Samples {
    seen: u64,
    kept: Vec<u32>,
}

impl Samples {
    fn push(&mut self, micros: u32) {
        if self.kept.len() < MAX_SAMPLES {
            self.kept.push(micros);
        } else {
            let at = usize::try_from(self.seen % MAX_SAMPLES as u64).unwrap_or(0);
            self.kept[at] = micros;
        }
        self.seen += 1;
    }

    fn latency(&self) -> Latency {
        let mut sorted = self.kept.clone();
        sorted.sort_unstable();
        let at = |q: f64| -> f64 {
            if sorted.is_empty() {
                return 0.0;
            }
            let index = ((sorted.len() as f64 - 1.0) * q).round() as usize;
            f64::from(sorted[index]) / 1000.0
        };
        Latency {
            count: self.seen,
            p50_ms: at(0.50),
            p99_ms: at(0.99),
        }
    }
}

fn micros(duration: std::time::Duration) -> u32 {
    u32::try_from(duration.as_micros()).unwrap_or(u32::MAX)
}

impl Findings {
    /// A request the primary answered, in `latency` (none for a recorded answer).
    pub fn primary(
        &mut self,
        operation: &str,
        binding: Binding,
        latency: Option<std::time::Duration>,
    ) {
        self.requests += 1;
        let operation = self.bounded(operation, binding, true);
        let row = self.row(&operation, binding);
        if let Some(latency) = latency {
            row.primary.push(micros(latency));
        }
    }

    /// A request not mirrored: the queue was full.
    pub fn dropped(&mut self) {
        self.dropped += 1;
    }

    /// An exchange not recorded: the recorder's queue was full.
    pub fn not_recorded(&mut self) {
        self.not_recorded += 1;
    }

    /// Where the secondary's answer differs from the primary's: noise, for this operation.
    pub fn secondary(&mut self, operation: &str, differences: &[Difference]) {
        for d in differences {
            if self.noise.len() < MAX_NOISE {
                self.noise.insert((operation.to_owned(), d.field.clone()));
            }
        }
    }

    /// The candidate's answer to `request`, compared with the primary's; `deliberate` is why
    /// its differences are accepted, if they are.
    pub fn candidate(
        &mut self,
        (operation, binding): (&str, Binding),
        (request, primary, candidate): (&Request<Bytes>, &Response<Bytes>, &Response<Bytes>),
        differences: &[Difference],
        deliberate: Option<String>,
        latency: std::time::Duration,
    ) {
        let operation = self.bounded(operation, binding, false);
        let operation = operation.as_str();
        let row = self.row(operation, binding);
        row.candidate.push(micros(latency));
        let mut fields: Vec<String> = differences.iter().map(|d| d.field.clone()).collect();
        fields.sort();
        fields.dedup();
        *row.signatures
            .entry((fields, deliberate.clone()))
            .or_default() += 1;
        // The example of a class is built only when it is the first or shorter than the one
        // kept: the findings are locked meanwhile.
        let size = request.body().len() + primary.body().len() + candidate.body().len();
        let mut seen = HashSet::new();
        for d in differences {
            if !seen.insert(&d.field) {
                continue;
            }
            let key = (
                (operation.to_owned(), binding),
                d.field.clone(),
                deliberate.clone(),
            );
            if self.classes.len() >= MAX_CLASSES && !self.classes.contains_key(&key) {
                self.classes_left_out += 1;
                continue;
            }
            match self.classes.get_mut(&key) {
                Some(class) => {
                    class.count += 1;
                    if size < class.size {
                        class.example = Example::new(d, request, primary, candidate);
                        class.size = size;
                    }
                }
                None => {
                    let example = Example::new(d, request, primary, candidate);
                    self.classes.insert(
                        key,
                        ClassFindings {
                            count: 1,
                            example,
                            size,
                        },
                    );
                }
            }
        }
    }

    /// A request the candidate did not answer (refused, timed out, broken).
    pub fn candidate_failed(&mut self, operation: &str, binding: Binding, error: String) {
        let operation = self.bounded(operation, binding, false);
        let row = self.row(&operation, binding);
        row.candidate_failed += 1;
        row.failure.get_or_insert(error);
    }

    /// The row name `operation` counts under: its own while there is room for its row (made
    /// when `new` is allowed), else [`MORE_OPERATIONS`].
    fn bounded(&self, operation: &str, binding: Binding, new: bool) -> String {
        let key = (operation.to_owned(), binding);
        if self.rows.contains_key(&key) || (new && self.rows.len() < MAX_ROWS) {
            operation.to_owned()
        } else {
            MORE_OPERATIONS.to_owned()
        }
    }

    fn row(&mut self, operation: &str, binding: Binding) -> &mut RowFindings {
        self.rows
            .entry((operation.to_owned(), binding))
            .or_default()
    }

    /// The report as of now: each difference is noise when the primary and the secondary
    /// showed it too (so far) or a rule ignores it.
    pub fn report(&self, rules: &Rules, secondary: bool) -> Report {
        let quiet = |operation: &str, field: &str| {
            self.noise
                .contains(&(operation.to_owned(), field.to_owned()))
                || rules.ignores(operation, field)
        };
        let rows = self
            .rows
            .iter()
            .map(|((operation, binding), row)| {
                let (mut identical, mut noise, mut deliberate, mut different) = (0, 0, 0, 0);
                for ((fields, why), count) in &row.signatures {
                    if fields.is_empty() {
                        identical += count;
                    } else if fields.iter().all(|f| quiet(operation, f)) {
                        noise += count;
                    } else if why.is_some() {
                        deliberate += count;
                    } else {
                        different += count;
                    }
                }
                Row {
                    operation: operation.clone(),
                    binding: binding.name().to_owned(),
                    identical,
                    noise,
                    deliberate,
                    different,
                    candidate_failed: row.candidate_failed,
                    candidate_failure: row.failure.clone(),
                    primary: row.primary.latency(),
                    candidate: row.candidate.latency(),
                }
            })
            .collect();
        let mut classes: Vec<Class> = self
            .classes
            .iter()
            .map(|(((operation, binding), field, why), class)| Class {
                operation: operation.clone(),
                binding: binding.name().to_owned(),
                field: field.clone(),
                noise: quiet(operation, field),
                deliberate: why.clone(),
                count: class.count,
                example: class.example.clone(),
            })
            .collect();
        // The differences first, the most frequent first; deliberate ones after them, noise
        // last.
        let rank = |c: &Class| (c.noise, c.deliberate.is_some(), std::cmp::Reverse(c.count));
        classes.sort_by_key(rank);
        Report {
            requests: self.requests,
            dropped: self.dropped,
            not_recorded: self.not_recorded,
            classes_left_out: self.classes_left_out,
            secondary,
            rows,
            classes,
            ..Report::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_past_the_most_rows_count_in_one() {
        let mut findings = Findings::default();
        for i in 0..MAX_ROWS + 50 {
            let latency = Some(std::time::Duration::from_millis(1));
            findings.primary(&format!("Op{i}"), Binding::Soap11, latency);
        }
        findings.candidate_failed("Op2010", Binding::Soap11, "refused".into());
        findings.candidate_failed("Op7", Binding::Soap11, "refused".into());
        let report = findings.report(&Rules::none(), false);
        assert_eq!(report.requests, (MAX_ROWS + 50) as u64);
        assert_eq!(report.rows.len(), MAX_ROWS + 1);
        let more = report
            .rows
            .iter()
            .find(|r| r.operation == MORE_OPERATIONS)
            .unwrap();
        assert_eq!((more.primary.count, more.candidate_failed), (50, 1));
        let op7 = report.rows.iter().find(|r| r.operation == "Op7").unwrap();
        assert_eq!(op7.candidate_failed, 1);
    }
}
