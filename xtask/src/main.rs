//! `cargo xtask gen [--spec PATH] [--out DIR] [--check]`: writes the generated crate (its
//! `Cargo.toml` and `src/`) from the spec into DIR (`generated/` by default), or (with
//! `--check`) fails naming every stale, missing or extra file.
//!
//! `cargo xtask import WSDL [--out PATH]`: a spec from an ASMX service's WSDL.
//!
//! Thin on purpose: generation lives in rmm-codegen; this only parses arguments and touches
//! files.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod fuzz;
mod import;
mod interop;

const USAGE: &str =
    "usage: cargo xtask gen [--spec PATH] [--out CRATE_DIR] [--check]\n       cargo xtask interop            (the generated crate against a real Mono ASMX host and zeep)\n       cargo xtask interop --record [--check]   (record that host's answers into tests/fixtures/asmx, or check they are current)\n       cargo xtask difftest [--cases N] [--seed S]   (generated requests to that host and ours, compared)\n       cargo xtask fuzz TARGET [--seconds N] [--save]   (AFL++ on soap_request, form_request, response, handle, spec or objects)\n       cargo xtask import WSDL [--out PATH] [--skip-unsupported]   (a spec from an ASMX service's WSDL: a file or its ?WSDL URL)";

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
    if task == "import" {
        return import::run(rest);
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
    // Relative to the workspace root, so messages name `rmm-spec.yaml:line:col`.
    let spec_display = spec.strip_prefix(&root).unwrap_or(&spec).to_path_buf();
    let options = rmm_codegen::CrateOptions {
        runtime_path: relative_path(&out, &root.join("runtime")),
    };
    let generated = std::env::set_current_dir(&root)
        .map_err(|e| format!("cannot enter {}: {e}", root.display()))
        .and_then(|()| {
            rmm_codegen::generate_crate(&spec_display, &options).map_err(|e| e.to_string())
        })?;
    if check {
        let problems = rmm_codegen::stale_crate(&generated, &out)?;
        if problems.is_empty() {
            return Ok(());
        }
        return Err(format!(
            "{} is out of date with {}:\n{}\nrun `cargo xtask gen` (with the same --spec and --out) and commit the result",
            out.display(),
            spec_display.display(),
            problems.join("\n")
        ));
    }
    write(&generated.root, &out)?;
    remove_stale(&generated.src, &out.join("src"))?;
    write(&generated.src, &out.join("src"))
}

/// `to` as a path from the directory `from` (both absolute), with `/` separators, as Cargo
/// reads a dependency's `path` on every platform.
fn relative_path(from: &Path, to: &Path) -> String {
    use std::path::Component;
    fn normal(path: &Path) -> Vec<String> {
        let mut parts: Vec<String> = Vec::new();
        for part in path.components() {
            match part {
                Component::ParentDir => {
                    parts.pop();
                }
                Component::Normal(name) => parts.push(name.to_string_lossy().into_owned()),
                Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
            }
        }
        parts
    }
    let (from, to) = (normal(from), normal(to));
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = vec![".."; from.len() - common];
    parts.extend(to[common..].iter().map(String::as_str));
    if parts.is_empty() {
        ".".to_owned()
    } else {
        parts.join("/")
    }
}

/// Removes the `.rs` files under `out` that this generator wrote and no longer makes.
fn remove_stale(files: &[rmm_codegen::GeneratedFile], out: &Path) -> Result<(), String> {
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
    Ok(())
}

/// Writes each file under `out` whose contents differ.
fn write(files: &[rmm_codegen::GeneratedFile], out: &Path) -> Result<(), String> {
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

#[cfg(test)]
mod tests {
    use super::relative_path;
    use std::path::Path;

    #[test]
    fn relative_paths_go_up_then_down() {
        let rel = |a: &str, b: &str| relative_path(Path::new(a), Path::new(b));
        assert_eq!(rel("/w/generated", "/w/runtime"), "../runtime");
        assert_eq!(rel("/w/tests/warehouse", "/w/runtime"), "../../runtime");
        assert_eq!(rel("/elsewhere/x/./y/..", "/w/runtime"), "../../w/runtime");
        assert_eq!(rel("/w", "/w/runtime"), "runtime");
        assert_eq!(rel("/w/runtime", "/w/runtime"), ".");
    }
}
