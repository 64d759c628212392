//! `rmm mock`: any service served in one command, every operation answering the default value
//! of its response, as a .NET method returning `default(T)` answers: null strings, classes and
//! arrays (no element), `0`, `false`, the first enum value. A client developer works against
//! it without the legacy host, as SoapUI's MockService and gSOAP's `-T` server give theirs.
//!
//! The mock is the service's generated server (its bindings, `?WSDL`, help pages and errors
//! are the generated crate's, which the reference host judges) around an implementation of
//! its trait that answers defaults: `rmm mock` writes the crate and a small binary of that
//! implementation into a directory of its own, builds it with cargo (once; later runs reuse
//! the build) and runs it in its own place.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::gen::{gen, GenOptions, Runtime};
use crate::import::{import, ImportOptions};

/// What [`mock`] does.
#[derive(Debug, Clone)]
pub struct MockOptions {
    /// A spec (`.yaml`, `.yml`, or a crate `rmm gen` wrote), or a WSDL: a file or a URL.
    pub source: String,
    /// Where the mock listens.
    pub listen: String,
    /// Where it is written and built (absolute); by default a directory of the service's
    /// crate under the user's cache (`$XDG_CACHE_HOME/rmm/mock`, `~/.cache/rmm/mock`).
    pub dir: Option<PathBuf>,
    /// Where the generated crate finds rmm-runtime.
    pub runtime: Runtime,
}

/// Writes, builds and runs the mock; returns only when it stops (or fails to start).
pub fn mock(options: &MockOptions) -> Result<(), String> {
    let base = match &options.dir {
        Some(dir) => dir.clone(),
        None => cache_dir()?.join("rmm").join("mock"),
    };
    create_dir(&base)?;
    // The spec: the one given, or the WSDL imported (first beside the mocks, then into the
    // mock's own directory, named after the service's crate).
    let given = is_spec(&options.source);
    let spec = if given {
        crate::absolute(&crate::diff::spec_of(Path::new(&options.source))?)?
    } else {
        let imported = base.join("imported.yaml");
        import(&ImportOptions {
            source: options.source.clone(),
            out: Some(imported.clone()),
            force: true,
            skip_unsupported: false,
        })?;
        imported
    };
    let loaded = rmm_codegen::spec::load(&spec).map_err(|e| e.to_string())?;
    let model = rmm_codegen::model::Model::from_spec(&loaded, &spec.display().to_string())
        .map_err(|e| e.to_string())?;
    let service = &model.service;
    // Each service a directory of its own, so that its build is reused the next time.
    let dir = match &options.dir {
        Some(dir) => dir.clone(),
        None => base.join(&service.crate_name),
    };
    create_dir(&dir)?;
    let spec = if given {
        spec
    } else {
        let kept = dir.join("rmm-spec.yaml");
        if kept != spec {
            std::fs::rename(&spec, &kept)
                .map_err(|e| format!("cannot move {}: {e}", spec.display()))?;
        }
        kept
    };
    let crate_dir = dir.join("service");
    gen(&GenOptions {
        spec: spec.clone(),
        out: Some(crate_dir.clone()),
        check: false,
        runtime: options.runtime.clone(),
        command: "rmm mock",
    })?;
    let binary_dir = dir.join("mock");
    write_if_changed(
        &binary_dir.join("Cargo.toml"),
        &manifest(&service.crate_name),
    )?;
    write_if_changed(
        &binary_dir.join("src/main.rs"),
        &main_rs(
            &service.trait_name,
            &service.server_type,
            !model.credentials.is_empty(),
        ),
    )?;

    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| dir.join("target"));
    eprintln!(
        "rmm mock: building the mock of {} in {}",
        service.name,
        dir.display()
    );
    let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(["build", "--quiet", "--manifest-path"])
        .arg(binary_dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!(
            "the mock of {} did not build ({status})",
            service.name
        ));
    }
    let binary = target
        .join("debug")
        .join(format!("rmm-mock{}", std::env::consts::EXE_SUFFIX));
    run(Command::new(&binary).arg(&options.listen))
}

/// The mock in this process's place (Unix): its PID is the one the caller started, so that
/// stopping it stops the mock.
#[cfg(unix)]
fn run(command: &mut Command) -> Result<(), String> {
    use std::os::unix::process::CommandExt;
    Err(format!("cannot run the mock: {}", command.exec()))
}

#[cfg(not(unix))]
fn run(command: &mut Command) -> Result<(), String> {
    let status = command
        .status()
        .map_err(|e| format!("cannot run the mock: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("the mock stopped: {status}"))
    }
}

fn is_spec(source: &str) -> bool {
    let path = Path::new(source);
    source.ends_with(".yaml") || source.ends_with(".yml") || path.join("Cargo.toml").is_file()
}

fn cache_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    match std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        Some(home) => Ok(PathBuf::from(home).join(".cache")),
        None => Err("no cache directory (neither XDG_CACHE_HOME nor HOME): give --dir".to_owned()),
    }
}

fn create_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))
}

fn write_if_changed(path: &Path, text: &str) -> Result<(), String> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(text) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The mock binary's manifest: the service's crate (its server only) and tokio. A workspace
/// of its own, so that it builds wherever its directory is.
fn manifest(crate_name: &str) -> String {
    format!(
        "# @generated by `rmm mock`.\n\
         [package]\n\
         name = \"rmm-mock\"\n\
         version = \"0.1.0\"\n\
         edition = \"2021\"\n\
         publish = false\n\
         \n\
         [dependencies]\n\
         service = {{ package = \"{crate_name}\", path = \"../service\", default-features = false, features = [\"server\"] }}\n\
         tokio = {{ version = \"1\", features = [\"macros\", \"rt-multi-thread\", \"net\"] }}\n\
         \n\
         [workspace]\n"
    )
}

/// The mock binary: the service's trait answered with every response's default.
fn main_rs(trait_name: &str, server: &str, credentials: bool) -> String {
    let credentials = if credentials { "_: Credentials, " } else { "" };
    format!(
        r#"// @generated by `rmm mock`.
//! The mock: every operation answers the default value of its response, as a .NET method
//! returning `default(T)` does.

use service::*;

struct Mock;

macro_rules! answer_defaults {{
    ($($method:ident: $request:ident,)*) => {{
        impl {trait_name} for Mock {{
            $(async fn $method(
                &self,
                {credentials}_: $request,
            ) -> Result<
                <$request as wire::OperationRequest>::Response,
                <$request as wire::OperationRequest>::Error,
            > {{
                Ok(Default::default())
            }})*
        }}
    }};
}}
service::for_each_operation!(answer_defaults);

#[tokio::main]
async fn main() -> std::io::Result<()> {{
    let addr = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:8080".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!(
        "rmm mock: {{}} at http://{{}}{{}} (?WSDL, help pages), every operation answering its defaults",
        SERVICE.name,
        listener.local_addr()?,
        SERVICE.path,
    );
    {server}::new(Mock).serve(listener).await
}}
"#
    )
}
