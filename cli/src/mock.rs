//! `rmm mock`: any service served in one command. A client developer works against it without
//! the legacy host, as SoapUI's MockService and gSOAP's `-T` server give theirs. Every
//! operation answers ([`Answer`]):
//!
//! - `default`: the default value of its response, as a .NET method returning `default(T)`
//!   answers: null strings, classes and arrays (no element), `0`, `false`, the first enum
//!   value. The reference host judges these answers byte for byte.
//! - `sample`: a sample of every member, as the help page's sample shows the response, with
//!   concrete values (a string its element's name, distinct numbers, two items per array, an
//!   abstract class's first concrete class): `rmm_codegen::emit::sample_response`, decoded
//!   by the service's own decoder and answered on every binding.
//! - `echo`: what it can of the request: the result is the first parameter of the result's
//!   type, each `out` parameter the `ref` parameter of its name (and type); the rest default.
//!
//! The mock is the service's generated server (its bindings, `?WSDL`, help pages and errors
//! are the generated crate's, which the reference host judges) around an implementation of
//! its trait that answers defaults: `rmm mock` writes the crate and a small binary of that
//! implementation into a directory of its own, builds it with cargo (once; later runs reuse
//! the build) and runs it in its own place.

use std::path::{Path, PathBuf};
use std::process::Command;

use rmm_codegen::model::{Model, OperationModel, Role};
use rmm_codegen::spec::SoapType;

use crate::gen::{gen, GenOptions, Runtime};
use crate::import::{import, ImportOptions};

/// What every operation of a mock answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Answer {
    /// The default value of its response, as a .NET method returning default(T).
    Default,
    /// A sample of every member of its response, with concrete values.
    Sample,
    /// What it can of the request (the first parameter of the result's type, `ref`
    /// parameters as `out` ones); the rest default.
    Echo,
}

/// What [`mock`] does.
#[derive(Debug, Clone)]
pub struct MockOptions {
    /// A spec (`.yaml`, `.yml`, or a crate `rmm gen` wrote), or a WSDL: a file or a URL.
    pub source: String,
    /// What every operation answers.
    pub answer: Answer,
    /// Where the mock listens.
    pub listen: String,
    /// Where it is written and built (absolute); by default a directory of the service's
    /// crate under the user's cache (`$XDG_CACHE_HOME/rmm/mock`, `~/.cache/rmm/mock`).
    pub dir: Option<PathBuf>,
    /// Where the generated crate finds rmm-runtime.
    pub runtime: Runtime,
    /// Of a WSDL: leave out each operation rmm does not import, rather than failing.
    pub skip_unsupported: bool,
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
            skip_unsupported: options.skip_unsupported,
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
        &main_rs(&model, options.answer),
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

/// The mock binary: the service's trait answered as `answer` says, served on the address
/// its first argument names.
fn main_rs(model: &Model, answer: Answer) -> String {
    let service = &model.service;
    let (trait_name, server) = (&service.trait_name, &service.server_type);
    let credentials = if model.credentials.is_empty() {
        ""
    } else {
        "_: Credentials, "
    };
    let (what, implementation) = match answer {
        // An InOut header goes back as it came, as an ASMX host writes the header member the
        // request set: each operation with one answers so.
        Answer::Default if model.operations.iter().any(|op| !in_out_headers(op).is_empty()) => (
            "its defaults",
            answers(
                model,
                credentials,
                "//! The mock: every operation answers the default value of its response, as a .NET \
                 method\n//! returning `default(T)` does (an InOut SOAP header goes back as it \
                 came).\n\n",
                |_| Vec::new(),
            ),
        ),
        Answer::Default => (
            "its defaults",
            format!(
                r#"//! The mock: every operation answers the default value of its response, as a .NET method
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
"#
            ),
        ),
        Answer::Sample => ("a sample of every member", sample_impl(model, credentials)),
        Answer::Echo => ("what it can echo", echo_impl(model, credentials)),
    };
    format!(
        r#"// @generated by `rmm mock`.
{implementation}
#[tokio::main]
async fn main() -> std::io::Result<()> {{
    let addr = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:8080".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!(
        "rmm mock: {{}} at http://{{}}{{}} (?WSDL, help pages), every operation answering {what}",
        SERVICE.name,
        listener.local_addr()?,
        SERVICE.path,
    );
    {server}::new(Mock).serve(listener).await
}}
"#
    )
}

/// The head of one method of the mock's implementation of the service trait.
fn method_head(op: &OperationModel, credentials: &str, request: &str) -> String {
    let name = &op.rust_name;
    format!(
        "    async fn {}(\n        &self,\n        {credentials}{request}: {name},\n    ) -> Result<\n        \
         <{name} as wire::OperationRequest>::Response,\n        \
         <{name} as wire::OperationRequest>::Error,\n    > {{\n",
        op.snake
    )
}

/// Every operation answering its sample response (a SOAP 1.1 envelope), decoded by the
/// service's own decoder at each call.
fn sample_impl(model: &Model, credentials: &str) -> String {
    let mut out = String::from(
        "//! The mock: every operation answers a sample of every member of its response, as the\n\
         //! help page's sample shows it, with concrete values.\n\n\
         use service::runtime::deps::http;\n\
         use service::wire::OperationResponse;\n\
         use service::*;\n\n\
         struct Mock;\n\n\
         /// The response `sample` (SOAP 1.1) holds, as the service's client reads it.\n\
         fn read<R: OperationResponse>(sample: &'static str) -> R {\n    \
         let response = http::Response::new(sample.as_bytes());\n    \
         R::decode_response(&response, Binding::Soap11).expect(\"rmm mock's sample decodes\")\n}\n\n",
    );
    out.push_str(&format!("impl {} for Mock {{\n", model.service.trait_name));
    for op in &model.operations {
        let sample = rmm_codegen::emit::sample_response(model, op);
        out.push_str(&method_head(op, credentials, "_"));
        out.push_str(&format!(
            "        Ok(read({}))\n    }}\n",
            raw_string(&sample)
        ));
    }
    out.push_str("}\n");
    out
}

/// The response fields that take the request's InOut SOAP headers back
/// (`trace_header: request.trace_header.clone()`), as an ASMX host writes such a header
/// member back as the request set it.
fn in_out_headers(op: &OperationModel) -> Vec<String> {
    op.headers
        .iter()
        .filter(|h| h.direction == rmm_codegen::spec::HeaderDirection::InOut)
        .map(|h| format!("{0}: request.{0}.clone()", h.field))
        .collect()
}

/// The mock's implementation, `doc` first: each operation's response the fields `fields`
/// gives it and its InOut headers, the rest default.
fn answers(
    model: &Model,
    credentials: &str,
    doc: &str,
    fields: impl Fn(&OperationModel) -> Vec<String>,
) -> String {
    let mut out = format!("{doc}use service::*;\n\nstruct Mock;\n\n");
    out.push_str(&format!("impl {} for Mock {{\n", model.service.trait_name));
    for op in &model.operations {
        let mut fields = fields(op);
        fields.extend(in_out_headers(op));
        let request = if fields.is_empty() { "_" } else { "request" };
        out.push_str(&method_head(op, credentials, request));
        if fields.is_empty() {
            out.push_str("        Ok(Default::default())\n    }\n");
        } else {
            out.push_str(&format!(
                "        Ok({} {{\n            {},\n            ..Default::default()\n        }})\n    }}\n",
                op.response_type,
                fields.join(",\n            ")
            ));
        }
    }
    out.push_str("}\n");
    out
}

/// Every operation answering what it can of its request: the result is the first business
/// parameter of the result's type, each `out` parameter the parameter of its wire name and
/// type (a `ref` parameter), an InOut header the request's; the rest default.
fn echo_impl(model: &Model, credentials: &str) -> String {
    answers(
        model,
        credentials,
        "//! The mock: every operation answers what it can echo of its request (the first\n\
         //! parameter of the result's type; `ref` parameters as `out` ones; InOut SOAP headers);\n\
         //! the rest default.\n\n",
        echo_fields,
    )
}

/// What the echo mock answers of `op`'s request: the result and the out parameters it can.
fn echo_fields(op: &OperationModel) -> Vec<String> {
    let business: Vec<_> = op
        .params
        .iter()
        .filter(|p| matches!(p.role, Role::Business))
        .collect();
    let mut fields = Vec::new();
    if op.result != SoapType::Void {
        let same = business
            .iter()
            .find(|p| p.ty == op.result && p.nullable == op.result_nullable);
        if let Some(p) = same {
            fields.push(format!("result: request.{}.clone()", p.field));
        }
    }
    for member in &op.outs {
        let plain = !member.unwrapped && !member.optional && !member.boxed && !member.any;
        let same = business
            .iter()
            .find(|p| p.wire == member.wire && p.ty == member.ty && p.nullable == member.nullable);
        if let Some(p) = same.filter(|_| plain) {
            fields.push(format!("{}: request.{}.clone()", member.field, p.field));
        }
    }
    fields
}

/// `text` as a Rust raw string literal, with enough `#`s.
fn raw_string(text: &str) -> String {
    let mut hashes = String::from("#");
    while text.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{text}\"{hashes}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A spec of one operation with an In and an InOut header.
    fn model() -> Model {
        let source = "service:\n  name: Dsp\n  namespace: urn:dsp\n  path: /Dsp.asmx\ncredentials: []\n\
                      types:\n  - name: Auth\n    members: [{User: string}]\n  - name: Versions\n    \
                      members: [{version: string}]\noperations:\n  - name: Query\n    doc: Queries.\n    \
                      headers: [Auth, Versions: InOut]\n    bindings: [soap11, soap12]\n    params: [{n: int}]\n    \
                      result: int\n";
        let spec = rmm_codegen::spec::parse(source, "dsp.yaml").expect("a spec");
        Model::from_spec(&spec, "dsp.yaml").expect("a model")
    }

    /// An InOut header goes back as it came (the host writes its header member back as the
    /// request set it: SharePoint's DspSts `versions`, probed), an In one does not; by the
    /// default mock and the echo mock alike.
    #[test]
    fn the_mocks_answer_an_in_out_header_as_it_came() {
        let model = model();
        for answer in [Answer::Default, Answer::Echo] {
            let source = main_rs(&model, answer);
            assert!(
                source.contains("versions: request.versions.clone()"),
                "{source}"
            );
            assert!(!source.contains("auth: request.auth"), "{source}");
        }
    }
}
