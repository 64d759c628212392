//! `cargo xtask gen [--spec PATH] [--out DIR] [--check]`: writes the generated crate's
//! `src/` from the spec, or (with `--check`) fails naming every stale, missing or extra file.
//!
//! Thin on purpose: generation lives in rmm-codegen; this only parses arguments and touches
//! files.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod interop;

const USAGE: &str =
    "usage: cargo xtask gen [--spec PATH] [--out DIR] [--check]\n       cargo xtask interop            (the generated crate against a real Mono ASMX host and zeep)\n       cargo xtask interop --record   (record that host's answers into tests/fixtures/asmx)";

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
    if task != "gen" {
        return Err(format!("unknown task {task:?}\n{USAGE}"));
    }
    let root = root();
    let mut spec = root.join("rmm-spec.yaml");
    let mut out = root.join("generated/src");
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
    // Relative to the workspace root, so messages name `rmm-spec.yaml:line:col`.
    let spec_display = spec.strip_prefix(&root).unwrap_or(&spec).to_path_buf();
    let files = std::env::set_current_dir(&root)
        .map_err(|e| format!("cannot enter {}: {e}", root.display()))
        .and_then(|()| rmm_codegen::generate(&spec_display).map_err(|e| e.to_string()))?;
    if check {
        let problems = rmm_codegen::stale_files(&files, &out)?;
        if problems.is_empty() {
            return Ok(());
        }
        return Err(format!(
            "{} is out of date with {}:\n{}\nrun `cargo xtask gen` and commit the result",
            out.display(),
            spec_display.display(),
            problems.join("\n")
        ));
    }
    write(&files, &out)
}

fn write(files: &[rmm_codegen::GeneratedFile], out: &Path) -> Result<(), String> {
    let wanted: BTreeSet<PathBuf> = files.iter().map(|f| PathBuf::from(&f.path)).collect();
    for existing in rmm_codegen::list_rs_files(out)? {
        let path = out.join(&existing);
        // Only files this generator wrote are ever removed.
        let ours =
            std::fs::read_to_string(&path).is_ok_and(|text| text.starts_with("// @generated"));
        if !wanted.contains(&existing) && ours {
            std::fs::remove_file(&path)
                .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
            println!("removed {}", path.display());
        }
    }
    for file in files {
        let path = out.join(&file.path);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(file.contents.as_str()) {
            continue;
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(&path, &file.contents)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
