//! `rmm gen` (and `cargo xtask gen`): the crate a spec describes, written or checked.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Where the generated crate finds rmm-runtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runtime {
    /// Its published version (`rmm-runtime = "0.1.0"`): a crate that builds wherever the
    /// registry has it.
    Version(String),
    /// Its directory (absolute), written as a path from the crate's directory: this
    /// workspace's own crates, which move with it.
    Path(PathBuf),
    /// Its published version, taken from its directory (absolute, written as it is) until it is
    /// published: a user's crate, made by an `rmm` installed from a checkout.
    VersionAt(String, PathBuf),
}

impl Runtime {
    /// What `rmm gen` depends on when not told: the runtime of the checkout this `rmm` was
    /// built from, by version and absolute path, where that directory is still there and holds
    /// this version (an `rmm` installed with `cargo install --path cli`); else the version
    /// alone (an `rmm` installed from a registry, whose runtime is there too).
    pub fn installed() -> Runtime {
        let version = rmm_codegen::RUNTIME_VERSION.to_owned();
        // The checkout's layout: cli/ beside runtime/. A registry's source directory of
        // rmm-cli has no runtime/ beside it.
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime");
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
        let ours = manifest
            .lines()
            .any(|l| l.trim() == "name = \"rmm-runtime\"")
            && manifest
                .lines()
                .any(|l| l.trim() == format!("version = \"{version}\""));
        match std::fs::canonicalize(&dir) {
            Ok(dir) if ours => Runtime::VersionAt(version, dir),
            _ => Runtime::Version(version),
        }
    }
}

/// What [`gen`] does.
#[derive(Debug, Clone)]
pub struct GenOptions {
    /// The spec, as messages name it (`rmm-spec.yaml:3:5`): relative to the current
    /// directory, or absolute.
    pub spec: PathBuf,
    /// The crate's directory (absolute); when `None`, a directory of the crate's name in the
    /// current directory.
    pub out: Option<PathBuf>,
    /// Check instead of writing.
    pub check: bool,
    /// Where the crate finds rmm-runtime.
    pub runtime: Runtime,
    /// The command to name when the crate is stale (`rmm gen`, `cargo xtask gen`).
    pub command: &'static str,
}

/// Writes the crate `options.spec` describes into `options.out` (only the files whose
/// contents differ, removing the `.rs` files this generator wrote and no longer makes), or
/// with `check` fails naming every stale, missing or extra file. The error is what to print.
pub fn gen(options: &GenOptions) -> Result<(), String> {
    let spec = crate::absolute(&options.spec)?;
    let out = match &options.out {
        Some(out) => out.clone(),
        // The crate's name is the spec's: read it first (a bad spec fails here, as below).
        None => crate::absolute(Path::new(
            &rmm_codegen::crate_name(&options.spec).map_err(|e| e.to_string())?,
        ))?,
    };
    let generated =
        rmm_codegen::generate_crate(&options.spec, &crate_options(options, &spec, &out))
            .map_err(|e| e.to_string())?;
    let out = &out;
    if options.check {
        let problems = rmm_codegen::stale_crate(&generated, out)?;
        if problems.is_empty() {
            return Ok(());
        }
        return Err(format!(
            "{} is out of date with {}:\n{}\nrun `{}` (with the same --spec and --out) and commit the result",
            out.display(),
            options.spec.display(),
            problems.join("\n"),
            options.command
        ));
    }
    write(&generated.root, out)?;
    remove_stale(&generated.src, &out.join("src"))?;
    write(&generated.src, &out.join("src"))
}

/// How the crate at `out` is written from the spec at `spec` (both absolute).
fn crate_options(options: &GenOptions, spec: &Path, out: &Path) -> rmm_codegen::CrateOptions {
    rmm_codegen::CrateOptions {
        spec: Some(relative_path(out, spec)),
        runtime: match &options.runtime {
            Runtime::Version(version) => rmm_codegen::RuntimeDependency::Version(version.clone()),
            Runtime::Path(dir) => rmm_codegen::RuntimeDependency::Path(relative_path(out, dir)),
            Runtime::VersionAt(version, dir) => rmm_codegen::RuntimeDependency::VersionAt {
                version: version.clone(),
                path: dir.to_string_lossy().replace('\\', "/"),
            },
        },
    }
}

/// `to` as a path from the directory `from` (both absolute), with `/` separators, as Cargo
/// reads a dependency's `path` on every platform.
pub(crate) fn relative_path(from: &Path, to: &Path) -> String {
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
