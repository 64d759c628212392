//! Replays, through every fuzz target, the seeds made from the recorded exchanges and specs,
//! the corpus the fuzzer saved (`tests/fuzz/corpus/TARGET/`), and the inputs that once made a
//! target fail (`tests/fuzz/regressions/TARGET/`, each named after what it found): CI checks
//! what fuzzing found without running a fuzzer.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use rmm_fuzz::{Outcome, Target};

#[allow(dead_code)]
#[path = "../examples/seeds.rs"]
mod seeds;

/// Runs `input` through `target`; the failure names the input.
fn replay(target: Target, name: &str, input: &[u8], failures: &mut Vec<String>) -> Outcome {
    match catch_unwind(AssertUnwindSafe(|| target.run(input))) {
        Ok(outcome) => outcome,
        Err(_) => {
            failures.push(format!("{} {name}", target.name()));
            Outcome::NotReached
        }
    }
}

/// Every file of `dir/TARGET/`, sorted, for each target.
fn saved(dir: &str) -> Vec<(Target, String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut inputs = Vec::new();
    for target in Target::ALL {
        let Ok(entries) = std::fs::read_dir(root.join(target.name())) else {
            continue;
        };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            inputs.push((target, name, std::fs::read(&path).expect("a saved input")));
        }
    }
    inputs
}

/// Replays every input; returns, per target in [`Target::ALL`]'s order, how many were
/// accepted and how many refused.
fn replay_all(inputs: Vec<(Target, String, Vec<u8>)>) -> Vec<(usize, usize)> {
    let mut counts = vec![(0, 0); Target::ALL.len()];
    let mut failures = Vec::new();
    for (target, name, input) in &inputs {
        let at = Target::ALL.iter().position(|t| t == target).unwrap();
        match replay(*target, name, input, &mut failures) {
            Outcome::Accepted => counts[at].0 += 1,
            Outcome::Refused => counts[at].1 += 1,
            Outcome::NotReached => {}
        }
    }
    assert!(
        failures.is_empty(),
        "{} inputs fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    counts
}

/// The seeds pass, and they reach both sides of every target: inputs the code takes (so the
/// round-trip checks run) and inputs it refuses.
#[test]
fn seeds_pass_every_target() {
    let counts = replay_all(seeds::seeds());
    for (target, (accepted, refused)) in Target::ALL.iter().zip(&counts) {
        println!("{}: {accepted} accepted, {refused} refused", target.name());
        assert!(
            *accepted >= 2 && *refused >= 10,
            "{}: {accepted} accepted, {refused} refused",
            target.name()
        );
    }
}

#[test]
fn saved_corpus_passes_every_target() {
    replay_all(saved("corpus"));
}

#[test]
fn regressions_pass() {
    replay_all(saved("regressions"));
}
