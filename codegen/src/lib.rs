//! # rmm-codegen
//!
//! The generator of rmm: from `rmm-spec.yaml` (or a saved WSDL), the Rust code that calls and
//! serves an ASMX service. What a user calls:
//!
//! - [`Builder`], in a build script: the service's code as one file in `OUT_DIR`, for
//!   `rmm_runtime::include_service!()`.
//! - [`generate_crate`] with its [`CrateOptions`] (where the crate finds rmm-runtime, a
//!   [`RuntimeDependency`]): the whole crate `rmm gen` writes, as [`GeneratedFile`]s, and
//!   [`stale_crate`] to check one on disk.
//! - [`SpecErrors`], the one error type: every problem of a spec or a WSDL at once, each a
//!   [`SpecError`] at its `file:line:col` (its file alone where it has no place: a file that
//!   cannot be read).
//!
//! Underneath, `spec` loads and validates the spec, `model` decides every name once, `emit`
//! turns the model into files, `import` reads a WSDL into a spec and `drift` compares two:
//! public for the `rmm` command and rmm's own tests, hidden from these docs, and changing as
//! the generator does. Nothing here does I/O beyond reading the spec, but the builder, which
//! writes its one file.

mod builder;
#[doc(hidden)]
pub mod drift;
#[doc(hidden)]
pub mod emit;
#[doc(hidden)]
pub mod import;
#[doc(hidden)]
pub mod model;
#[doc(hidden)]
pub mod spec;

use std::path::Path;

pub use builder::Builder;
pub use emit::{CrateOptions, GeneratedFile, RuntimeDependency};

/// The version of rmm-runtime this generator writes code for (they are released together):
/// what a generated crate depends on by default.
pub const RUNTIME_VERSION: &str = env!("CARGO_PKG_VERSION");
pub use spec::{SpecError, SpecErrors};

/// A whole generated crate: the files at its root (`Cargo.toml`, `rustfmt.toml`) and those
/// of its `src/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedCrate {
    /// The crate's name (the spec's `service.crate`, or `rmm-` and the service's name in kebab
    /// case): the directory `rmm gen` writes it into unless told another.
    pub name: String,
    /// `Cargo.toml` and `rustfmt.toml`, their paths relative to the crate's directory.
    pub root: Vec<GeneratedFile>,
    /// The files of `src/`, their paths relative to it, sorted.
    pub src: Vec<GeneratedFile>,
}

impl GeneratedCrate {
    fn new(model: &model::Model, options: &CrateOptions) -> GeneratedCrate {
        GeneratedCrate {
            name: model.service.crate_name.clone(),
            root: vec![emit::manifest(model, options), emit::rustfmt_toml()],
            src: emit::generate(model),
        }
    }

    /// The generated `Cargo.toml`.
    pub fn manifest(&self) -> &GeneratedFile {
        &self.root[0]
    }
}

/// Generates a whole crate from spec text; `file` names the spec in messages and headers.
pub fn generate_crate_from_source(
    source: &str,
    file: &str,
    options: &CrateOptions,
) -> Result<GeneratedCrate, SpecErrors> {
    let spec = spec::parse(source, file)?;
    let model = model::Model::from_spec(&spec, file)?;
    Ok(GeneratedCrate::new(&model, options))
}

/// Generates a whole crate from the spec file at `path`.
pub fn generate_crate(path: &Path, options: &CrateOptions) -> Result<GeneratedCrate, SpecErrors> {
    let spec = spec::load(path)?;
    let file = path.display().to_string();
    let model = model::Model::from_spec(&spec, &file)?;
    Ok(GeneratedCrate::new(&model, options))
}

/// The name of the crate the spec file at `path` describes (what [`GeneratedCrate::name`]
/// will be), without generating it.
pub fn crate_name(path: &Path) -> Result<String, SpecErrors> {
    let spec = spec::load(path)?;
    let model = model::Model::from_spec(&spec, &path.display().to_string())?;
    Ok(model.service.crate_name)
}

/// Compares a generated crate with the crate directory `dir`: [`stale_files`] for `src/`,
/// and the same for the files at its root. Empty when up to date.
pub fn stale_crate(generated: &GeneratedCrate, dir: &Path) -> Result<Vec<String>, String> {
    let mut problems = Vec::new();
    for file in &generated.root {
        let path = dir.join(&file.path);
        match std::fs::read_to_string(&path) {
            Ok(text) if text == file.contents => {}
            Ok(_) => problems.push(format!("stale:   {}", path.display())),
            Err(_) => problems.push(format!("missing: {}", path.display())),
        }
    }
    problems.extend(stale_files(&generated.src, &dir.join("src"))?);
    Ok(problems)
}

#[doc(hidden)] // for the rmm command and rmm's tests
/// Generates the generated crate's `src/` files from spec text; `file` names the spec in
/// error messages.
pub fn generate_from_source(source: &str, file: &str) -> Result<Vec<GeneratedFile>, SpecErrors> {
    let spec = spec::parse(source, file)?;
    let model = model::Model::from_spec(&spec, file)?;
    Ok(emit::generate(&model))
}

#[doc(hidden)] // for the rmm command and rmm's tests
/// Generates the generated crate's `src/` files from the spec file at `path`.
pub fn generate(path: &Path) -> Result<Vec<GeneratedFile>, SpecErrors> {
    let spec = spec::load(path)?;
    let model = model::Model::from_spec(&spec, &path.display().to_string())?;
    Ok(emit::generate(&model))
}

#[doc(hidden)] // for the rmm command and rmm's tests
/// Every `.rs` file under `dir`, relative to it, sorted; an absent `dir` has none.
pub fn list_rs_files(dir: &Path) -> Result<Vec<std::path::PathBuf>, String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<std::path::PathBuf>) -> Result<(), String> {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(format!("cannot read {}: {e}", dir.display())),
        };
        for entry in entries {
            let path = entry
                .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
                .path();
            if path.is_dir() {
                walk(base, &path, out)?;
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(
                    path.strip_prefix(base)
                        .expect("walked below base")
                        .to_path_buf(),
                );
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files)?;
    files.sort();
    Ok(files)
}

#[doc(hidden)] // for the rmm command and rmm's tests
/// Compares `files` with what is in `dir`: one line per file that is stale (differs),
/// missing, or extra (an `.rs` file the generator no longer produces). Empty when up to date.
pub fn stale_files(files: &[GeneratedFile], dir: &Path) -> Result<Vec<String>, String> {
    let mut problems = Vec::new();
    for file in files {
        let path = dir.join(&file.path);
        match std::fs::read_to_string(&path) {
            Ok(text) if text == file.contents => {}
            Ok(_) => problems.push(format!("stale:   {}", path.display())),
            Err(_) => problems.push(format!("missing: {}", path.display())),
        }
    }
    for existing in list_rs_files(dir)? {
        if !files
            .iter()
            .any(|f| std::path::Path::new(&f.path) == existing)
        {
            problems.push(format!("extra:   {}", dir.join(existing).display()));
        }
    }
    Ok(problems)
}
