//! `cargo xtask gen [--spec PATH] [--out DIR] [--check]`: writes the generated crate (its
//! `Cargo.toml` and `src/`) from the spec into DIR (`generated/` by default), or (with
//! `--check`) fails naming every stale, missing or extra file.
//!
//! `cargo xtask import WSDL [--out PATH]`: a spec from an ASMX service's WSDL.
//!
//! Thin on purpose: `gen` and `import` are the `rmm` command's own functions (rmm-cli), which
//! this calls with the workspace's defaults (the runtime by path).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod fuzz;
mod import;
mod interop;
mod replicas;

const USAGE: &str =
    "usage: cargo xtask gen [--spec PATH] [--out CRATE_DIR] [--check]\n       cargo xtask interop            (the generated crate against a real Mono ASMX host and zeep)\n       cargo xtask interop --record [--check]   (record that host's answers into tests/fixtures/asmx, or check they are current)\n       cargo xtask difftest [--cases N] [--seed S]   (generated requests to that host and ours, compared)\n       cargo xtask shadow [--cases N] [--seed S]   (rmm shadow in front of that host, a second one and ours, on the difftest's requests)\n       cargo xtask replicas   (three replicas of the script service sharing sessions in Redis behind nginx, one killed mid-run)\n       cargo xtask fuzz TARGET [--seconds N] [--save]   (AFL++ on soap_request, form_request, response, handle, spec, objects, shadow or import)\n       cargo xtask import WSDL [--out PATH] [--skip-unsupported]   (a spec from an ASMX service's WSDL: a file or its ?WSDL URL)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// A path given on the command line, made absolute against the directory the command was
/// run from (the task itself runs from the workspace root).
fn absolute(arg: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(arg);
    if path.is_absolute() {
        return Ok(path);
    }
    let here =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    Ok(here.join(path))
}

/// The workspace root: xtask lives one level below it.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask has a parent")
        .to_path_buf()
}

fn run(args: &[String]) -> Result<(), String> {
    let Some((task, rest)) = args.split_first() else {
        return Err(USAGE.to_owned());
    };
    if task == "interop" {
        return interop::run(rest);
    }
    if task == "difftest" {
        return interop::difftest(rest);
    }
    if task == "shadow" {
        return interop::shadow(rest);
    }
    if task == "import" {
        return import::run(rest);
    }
    if task == "replicas" {
        return replicas::run(rest);
    }
    if task == "fuzz" {
        return fuzz::run(rest);
    }
    if task != "gen" {
        return Err(format!("unknown task {task:?}\n{USAGE}"));
    }
    let root = root();
    let mut spec = root.join("rmm-spec.yaml");
    let mut out = root.join("generated");
    let mut check = false;
    let mut rest = rest.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--check" => check = true,
            "--spec" => spec = absolute(rest.next().ok_or("--spec needs a path")?)?,
            "--out" => out = absolute(rest.next().ok_or("--out needs a directory")?)?,
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    // From the workspace root, the spec relative to it, so messages name
    // `rmm-spec.yaml:line:col`; the workspace's crates depend on its runtime by path.
    std::env::set_current_dir(&root)
        .map_err(|e| format!("cannot enter {}: {e}", root.display()))?;
    rmm_cli::gen(&rmm_cli::GenOptions {
        spec: spec.strip_prefix(&root).unwrap_or(&spec).to_path_buf(),
        out: Some(out),
        check,
        runtime: rmm_cli::Runtime::Path(root.join("runtime")),
        command: "cargo xtask gen",
    })
}
