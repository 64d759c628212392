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
//! way and has the checks binary send the request set to it and write the exchanges into
//! `tests/fixtures/asmx/` (zeep is not needed for that).

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

/// Runs the interop checks (or, with `--record`, the recording); `rest` is passed on to the
/// checks binary.
pub fn run(rest: &[String]) -> Result<(), String> {
    let root = super::root();
    let recording = rest.iter().any(|a| a == "--record");
    let mode: Vec<String> = if recording {
        let dir = root.join("tests/fixtures/asmx");
        let others: Vec<&String> = rest.iter().filter(|a| *a != "--record").collect();
        if !others.is_empty() {
            return Err(format!(
                "--record takes no other argument, found {others:?}"
            ));
        }
        vec!["--record".into(), dir.display().to_string()]
    } else {
        step("installing zeep (if missing)");
        let python = bash_output(&root.join("tests/interop/zeep/install.sh"), &root)?;
        let mut mode = vec!["--python".to_owned(), python];
        mode.extend(rest.iter().cloned());
        mode
    };
    with_host(mode, recording)
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
    let code = match base {
        Ok(base) => {
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
