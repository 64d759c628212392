//! `rmm gen` (and `cargo xtask gen`): the crate a spec describes, written or checked.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Where the generated crate finds rmm-runtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runtime {
    /// Its published version (`rmm-runtime = "0.1.0"`): a crate that builds anywhere.
    Version(String),
    /// Its directory (absolute), written as a path from the crate's directory: this
    /// workspace's own crates.
    Path(PathBuf),
}

/// What [`gen`] does.
#[derive(Debug, Clone)]
pub struct GenOptions {
    /// The spec, as messages name it (`rmm-spec.yaml:3:5`): relative to the current
    /// directory, or absolute.
    pub spec: PathBuf,
    /// The crate's directory (absolute).
    pub out: PathBuf,
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
    let crate_options = rmm_codegen::CrateOptions {
        spec: Some(relative_path(&options.out, &spec)),
        runtime: match &options.runtime {
            Runtime::Version(version) => rmm_codegen::RuntimeDependency::Version(version.clone()),
            Runtime::Path(dir) => {
                rmm_codegen::RuntimeDependency::Path(relative_path(&options.out, dir))
            }
        },
    };
    let generated =
        rmm_codegen::generate_crate(&options.spec, &crate_options).map_err(|e| e.to_string())?;
    let out = &options.out;
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
