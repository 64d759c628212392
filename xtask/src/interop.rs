//! `cargo xtask interop [ARGS…]`: the generated crate against a real ASMX host.
//!
//! 1. installs what it needs: Mono's ASP.NET, fastcgi-mono-server4 and nginx from Debian's
//!    packages (`tests/interop/asmx/install.sh`, a no-op when present) and zeep in a venv
//!    (`tests/interop/zeep/install.sh`);
//! 2. starts the reference host on 127.0.0.1 (`tests/interop/asmx/start.sh`);
//! 3. runs the checks, `cargo run -p rmm-tests --bin interop -- --asmx URL --python PY ARGS…`,
//!    which print `N passed, M failed` last and write `target/interop/fidelity.md`;
//! 4. stops the host (`stop.sh`, exactly the PIDs start.sh wrote), also when a step failed;
//!
//! and exits with the checks' exit code.
//!
//! `cargo xtask interop --record` records instead of checking: it starts the host the same
//! way and has the checks binary send the request sets to it and write the exchanges into
//! `tests/fixtures/asmx/` (the Mobile service), `tests/fixtures/types/asmx/` (the types
//! service), `tests/fixtures/objects/asmx/` (the objects service) and
//! `tests/fixtures/script/asmx/` (the script service); zeep is not needed for that.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// `cargo xtask difftest [--cases N] [--seed S]`: the differential test against the host
/// (the checks binary's `--difftest`), report in `target/interop/difftest.md`.
pub fn difftest(rest: &[String]) -> Result<(), String> {
    let mut mode = vec!["--difftest".to_owned()];
    mode.extend(rest.iter().cloned());
    with_host(mode, false)
}

/// `cargo xtask shadow [--cases N] [--seed S]`: rmm shadow in front of the host, a second
/// host as its secondary and rmm's echo servers as its candidate, on the difftest's cases
/// (the checks binary's `--shadow`), reports in `target/interop/shadow/`.
///
/// Then the seeded bug's report is looked at in Debian's Chromium (installed by
/// `tests/shadow/install.sh` if missing): `tests/shadow/browser.sh` checks what the browser
/// laid out and takes a screenshot.
pub fn shadow(rest: &[String]) -> Result<(), String> {
    let root = super::root();
    step("installing Chromium (if missing)");
    bash(&root.join("tests/shadow/install.sh"), &root)?;
    let mut mode = vec!["--shadow".to_owned()];
    mode.extend(rest.iter().cloned());
    with_host(mode, false)?;
    step("the seeded bug's report in a headless browser");
    let status = Command::new("bash")
        .arg(root.join("tests/shadow/browser.sh"))
        .arg(root.join("target/interop/shadow/seeded-bug"))
        .args(["Differences (1 classes)", "MobileAccountSearch over soap11"])
        .current_dir(&root)
        .status()
        .map_err(|e| format!("cannot run tests/shadow/browser.sh: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("tests/shadow/browser.sh failed ({status})"))
    }
}

/// Runs the interop checks (or, with `--record`, the recording; with `--record --check`, a
/// recording into `target/` compared with the fixtures); `rest` is passed on to the checks
/// binary.
pub fn run(rest: &[String]) -> Result<(), String> {
    let root = super::root();
    let recording = rest.iter().any(|a| a == "--record");
    if !recording {
        step("installing Chromium, jQuery and nginx for the browser check (if missing)");
        bash(&root.join("tests/browser/install.sh"), &root)?;
        step("installing zeep (if missing)");
        let python = bash_output(&root.join("tests/interop/zeep/install.sh"), &root)?;
        let mut mode = vec!["--python".to_owned(), python];
        mode.extend(rest.iter().cloned());
        return with_host(mode, false);
    }
    let fixtures = root.join("tests/fixtures");
    let check = rest.iter().any(|a| a == "--check");
    let others: Vec<&String> = rest
        .iter()
        .filter(|a| *a != "--record" && *a != "--check")
        .collect();
    if !others.is_empty() {
        return Err(format!("--record takes only --check, found {others:?}"));
    }
    if !check {
        return with_host(
            vec!["--record".into(), fixtures.display().to_string()],
            true,
        );
    }
    // Record a copy of the fixtures (their request sets) and compare it with them.
    let copy = root.join("target/interop/record-check");
    let _ = std::fs::remove_dir_all(&copy);
    for dir in RECORDED {
        copy_files(&fixtures.join(dir), &copy.join(dir))?;
    }
    with_host(vec!["--record".into(), copy.display().to_string()], true)?;
    let mut problems = Vec::new();
    for dir in RECORDED {
        for problem in recording_differences(&fixtures.join(dir), &copy.join(dir))? {
            problems.push(format!("tests/fixtures/{dir}: {problem}"));
        }
    }
    if problems.is_empty() {
        println!("the recorded exchanges are the host's answers today (but for Date headers)");
        return Ok(());
    }
    Err(format!(
        "the recorded exchanges are not what the host answers today:\n{}\nrun `cargo xtask interop --record` and review the changes",
        problems.join("\n")
    ))
}

/// The directories of `tests/fixtures` the recorder writes: the Mobile service's exchanges,
/// the types service's, the objects service's and the script service's.
const RECORDED: [&str; 4] = ["asmx", "types/asmx", "objects/asmx", "script/asmx"];

/// Copies the files of `from` into `to` (created).
fn copy_files(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if let Some(name) = path.file_name() {
            std::fs::copy(&path, to.join(name)).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// The files of `fixtures` and `fresh` that differ in more than their `Date` header lines
/// (and `Expires`, which the script service's JavaScript proxies set a year after `Date`),
/// and those only one of them has.
fn recording_differences(fixtures: &Path, fresh: &Path) -> Result<Vec<String>, String> {
    let names = |dir: &Path| -> Result<std::collections::BTreeSet<String>, String> {
        Ok(std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect())
    };
    let without_dates = |bytes: Vec<u8>| -> Vec<Vec<u8>> {
        bytes
            .split(|&b| b == b'\n')
            .filter(|line| !line.starts_with(b"Date: ") && !line.starts_with(b"Expires: "))
            .map(<[u8]>::to_vec)
            .collect()
    };
    let (old, new) = (names(fixtures)?, names(fresh)?);
    let mut problems = Vec::new();
    for name in old.union(&new) {
        match (old.contains(name), new.contains(name)) {
            (true, true) => {
                let read = |dir: &Path| std::fs::read(dir.join(name)).map_err(|e| e.to_string());
                if without_dates(read(fixtures)?) != without_dates(read(fresh)?) {
                    problems.push(format!("differs: {name}"));
                }
            }
            (true, false) => problems.push(format!("not recorded: {name}")),
            _ => problems.push(format!("missing from the fixtures: {name}")),
        }
    }
    Ok(problems)
}

/// Installs and starts the host, runs the checks binary with `mode`, stops the host.
fn with_host(mode: Vec<String>, recording: bool) -> Result<(), String> {
    let root = super::root();
    let asmx = root.join("tests/interop/asmx");
    let started = Instant::now();
    step("installing the ASMX host's Debian packages (if missing)");
    bash(&asmx.join("install.sh"), &root)?;

    step("starting the reference ASMX host");
    let mut start = command(&asmx.join("start.sh"), &root);
    if recording {
        // What the host calls itself when a request names no host (HTTP/1.0): the recorded
        // requests' Host, so that such a recording does not depend on this run's port.
        start.env("ASMX_DEFAULT_HOST", "127.0.0.1:18081");
    }
    let base = output(start, &asmx.join("start.sh"));
    // The shadow's secondary: a second host of its own run directory (its own port, socket
    // and PIDs).
    let second_run = root.join("target/interop/asmx-run-2");
    let shadow = mode.iter().any(|a| a == "--shadow");
    let base = match base {
        Ok(base) if shadow => {
            step("starting a second reference ASMX host (the shadow's secondary)");
            let mut start = command(&asmx.join("start.sh"), &root);
            start.env("ASMX_RUN_DIR", &second_run);
            output(start, &asmx.join("start.sh")).map(|second| {
                println!("second Mono ASMX host at {second}");
                (base, vec!["--secondary".to_owned(), second])
            })
        }
        Ok(base) => Ok((base, Vec::new())),
        Err(e) => Err(e),
    };
    let code = match base {
        Ok((base, secondary)) => {
            println!("Mono ASMX host at {base}");
            step("running the checks");
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            Command::new(cargo)
                .current_dir(&root)
                .args([
                    "run",
                    "--quiet",
                    "-p",
                    "rmm-tests",
                    "--bin",
                    "interop",
                    "--",
                ])
                .args(["--asmx", &base])
                .args(&secondary)
                .args(&mode)
                .status()
                .map_err(|e| format!("cannot run cargo: {e}"))
                .map(|status| status.code().unwrap_or(1))
        }
        Err(e) => Err(e),
    };

    // Always: start.sh may have left processes behind even when it failed.
    step("stopping the reference ASMX host");
    let stopped = bash(&asmx.join("stop.sh"), &root);
    if shadow {
        let mut stop = command(&asmx.join("stop.sh"), &root);
        stop.env("ASMX_RUN_DIR", &second_run);
        let _ = stop.status();
    }
    println!(
        "cargo xtask interop: {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let code = code?;
    stopped?;
    if code != 0 {
        std::process::exit(code);
    }
    Ok(())
}

fn step(what: &str) {
    println!("\n== xtask interop: {what}");
}

fn command(script: &Path, root: &Path) -> Command {
    let mut command = Command::new("bash");
    command.arg(script).current_dir(root);
    command
}

/// Runs a script with the terminal's stdio.
fn bash(script: &Path, root: &Path) -> Result<(), String> {
    let status = command(script, root)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{} failed ({status})", script.display()))
    }
}

/// Runs a script and returns the last line of its stdout (stderr goes to the terminal).
fn bash_output(script: &Path, root: &Path) -> Result<String, String> {
    output(command(script, root), script)
}

/// Runs `command` (the script `script`) and returns the last line of its stdout.
fn output(mut command: Command, script: &Path) -> Result<String, String> {
    let output = command
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if !output.status.success() {
        return Err(format!("{} failed ({})", script.display(), output.status));
    }
    let text = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    match text.lines().last() {
        Some(line) if !line.is_empty() => Ok(line.to_owned()),
        _ => Err(format!("{} printed nothing", script.display())),
    }
}
