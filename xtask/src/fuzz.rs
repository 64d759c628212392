//! `cargo xtask fuzz TARGET [--seconds N] [--save]`: one of rmm-fuzz's targets under AFL++.
//!
//! Installs the fuzzer if missing (`tests/fuzz/install.sh`), builds the harness
//! (`tests/fuzz/afl`, with `cargo afl build`), writes the seeds from the recorded exchanges
//! and specs, and runs `afl-fuzz` for N seconds on the seeds, the saved corpus and the
//! regressions. It prints what AFL++ counted (executions, run time, corpus, crashes, hangs)
//! and fails when anything crashed or hung, naming the files. `--save` minimises the queue
//! (`afl-cmin`) into `tests/fuzz/corpus/TARGET/`, which `cargo test` replays.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const TARGETS: [&str; 8] = [
    "soap_request",
    "form_request",
    "response",
    "handle",
    "spec",
    "objects",
    "shadow",
    "import",
];

pub fn run(rest: &[String]) -> Result<(), String> {
    let mut target = None;
    let mut seconds = 60u64;
    let mut save = false;
    let mut args = rest.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => {
                let n = args.next().ok_or("--seconds needs a number")?;
                seconds = n
                    .parse()
                    .map_err(|_| format!("--seconds {n:?}: not a number"))?;
            }
            "--save" => save = true,
            name if target.is_none() && TARGETS.contains(&name) => target = Some(name),
            other => {
                return Err(format!(
                    "unknown argument {other:?}; targets: {}",
                    TARGETS.join(", ")
                ))
            }
        }
    }
    let target = target.ok_or_else(|| format!("name a target: {}", TARGETS.join(", ")))?;
    let root = super::root();
    let work = root.join("target/fuzz").join(target);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());

    step("installing cargo-afl and AFL++ (if missing)");
    run_status(
        Command::new("bash").arg(root.join("tests/fuzz/install.sh")),
        "tests/fuzz/install.sh",
    )?;

    step("building the harness (tests/fuzz/afl) with cargo afl");
    let harness_target = root.join("target/fuzz-afl");
    run_status(
        Command::new(&cargo)
            .args(["afl", "build", "--release", "--quiet", "--manifest-path"])
            .arg(root.join("tests/fuzz/afl/Cargo.toml"))
            .env("CARGO_TARGET_DIR", &harness_target),
        "cargo afl build",
    )?;
    let harness = harness_target.join("release/rmm-fuzz-afl");

    step("writing the seeds");
    // Per target, so that two targets can be fuzzed at once.
    let seeds = work.join("seeds");
    let _ = std::fs::remove_dir_all(&seeds);
    run_status(
        Command::new(&cargo)
            .current_dir(&root)
            .args([
                "run",
                "--quiet",
                "-p",
                "rmm-fuzz",
                "--example",
                "seeds",
                "--",
            ])
            .arg(&seeds),
        "the seeds example",
    )?;
    let input = work.join("in");
    let _ = std::fs::remove_dir_all(&input);
    std::fs::create_dir_all(&input).map_err(|e| format!("{}: {e}", input.display()))?;
    let mut count = 0;
    for (prefix, dir) in [
        ("seed", seeds.join(target)),
        ("corpus", root.join("tests/fuzz/corpus").join(target)),
        (
            "regression",
            root.join("tests/fuzz/regressions").join(target),
        ),
    ] {
        for file in files(&dir) {
            let name = format!("{prefix}-{}", file.file_name().unwrap().to_string_lossy());
            std::fs::copy(&file, input.join(name))
                .map_err(|e| format!("{}: {e}", file.display()))?;
            count += 1;
        }
    }
    println!("{count} inputs to start from");

    step(&format!("fuzzing {target} for {seconds} s"));
    let output = work.join("out");
    let _ = std::fs::remove_dir_all(&output);
    let log = work.join("afl.log");
    let log_file = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let log_err = log_file
        .try_clone()
        .map_err(|e| format!("{}: {e}", log.display()))?;
    run_status(
        afl(&cargo, "fuzz")
            .arg("-i")
            .arg(&input)
            .arg("-o")
            .arg(&output)
            .args(["-V", &seconds.to_string()])
            // A valid spec generates a whole crate: about a second in the instrumented build
            // on a loaded machine, which AFL++'s automatic timeout (500 ms) counted as a hang.
            .args(if target == "spec" {
                &["-t", "5000"][..]
            } else {
                &[]
            })
            .arg("--")
            .arg(&harness)
            .arg(target)
            .stdout(log_file)
            .stderr(log_err),
        "afl-fuzz (its log is target/fuzz/TARGET/afl.log)",
    )?;

    let stats = stats(&output.join("default/fuzzer_stats"))?;
    let get = |key: &str| stats.get(key).map_or("?", String::as_str);
    println!(
        "{target}: {} executions in {} s ({} per second), corpus {} inputs, {} crashes, {} hangs",
        get("execs_done"),
        get("run_time"),
        get("execs_per_sec"),
        get("corpus_count"),
        get("saved_crashes"),
        get("saved_hangs"),
    );

    let found: Vec<PathBuf> = ["crashes", "hangs"]
        .iter()
        .flat_map(|dir| files(&output.join("default").join(dir)))
        .filter(|f| !f.ends_with("README.txt"))
        .collect();
    if !found.is_empty() {
        return Err(format!(
            "{target}: {} inputs crashed or hung the target:\n{}\nrun each through the target (`cargo test -p rmm-fuzz` replays tests/fuzz/regressions/{target}/), fix the cause, and keep the input there under a name that says what it found",
            found.len(),
            found.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join("\n")
        ));
    }

    if save {
        step("minimising the queue into tests/fuzz/corpus");
        let corpus = root.join("tests/fuzz/corpus").join(target);
        let _ = std::fs::remove_dir_all(&corpus);
        run_status(
            afl(&cargo, "cmin")
                // Edges alone, not hit counts: a corpus a third the size, kept in the repository.
                .arg("-e")
                .arg("-i")
                .arg(output.join("default/queue"))
                .arg("-o")
                .arg(&corpus)
                .arg("--")
                .arg(&harness)
                .arg(target)
                .stdout(Stdio::null()),
            "afl-cmin",
        )?;
        // Names of AFL++'s own (id:…,src:…,op:…) are long and change with every run; the
        // replay needs only distinct names.
        let mut kept = files(&corpus);
        kept.sort();
        for (i, file) in kept.iter().enumerate() {
            let _ = std::fs::rename(file, corpus.join(format!("{i:05}")));
        }
        println!("{} inputs in {}", kept.len(), corpus.display());
    }
    Ok(())
}

/// `cargo afl TOOL`, with the settings a shared, unattended machine needs.
fn afl(cargo: &std::ffi::OsStr, tool: &str) -> Command {
    let mut command = Command::new(cargo);
    command
        .args(["afl", tool])
        // No screen to draw on; stats go to fuzzer_stats.
        .env("AFL_NO_UI", "1")
        // Not pinned to a core: builds and other work share the machine's two.
        .env("AFL_NO_AFFINITY", "1")
        // The machine's CPU governor and core-dump handler are not ours to change.
        .env("AFL_SKIP_CPUFREQ", "1")
        .env("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1");
    command
}

fn run_status(command: &mut Command, what: &str) -> Result<(), String> {
    let status = command
        .status()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// `fuzzer_stats`: `key : value` lines.
fn stats(path: &Path) -> Result<BTreeMap<String, String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(text
        .lines()
        .filter_map(|line| line.split_once(':'))
        .map(|(key, value)| (key.trim().to_owned(), value.trim().to_owned()))
        .collect())
}

/// The files directly in `dir`, sorted; none when it is absent.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn step(what: &str) {
    println!("\n== xtask fuzz: {what}");
}
