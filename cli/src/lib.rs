//! # rmm-cli
//!
//! The `rmm` command, and the functions behind it that `cargo xtask` calls too (one code
//! path): [`gen`] writes (or checks) the crate a spec describes, [`import`] writes the spec
//! an ASMX service's WSDL describes. The generating and importing themselves are
//! rmm-codegen's; this parses arguments, fetches documents and touches files.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

mod diff;
mod gen;
mod import;

pub use diff::{diff, DiffFormat, DiffOptions};
pub use gen::{gen, GenOptions, Runtime};
pub use import::{import, ImportOptions};

/// rmm: Rust clients and servers for ASP.NET ASMX web services, from a YAML spec.
#[derive(Debug, Parser)]
#[command(name = "rmm", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Writes the crate (its Cargo.toml and src/) a spec describes; with --check, writes
    /// nothing and fails naming every stale, missing or extra file.
    Gen {
        /// The spec.
        #[arg(long, default_value = "rmm-spec.yaml")]
        spec: PathBuf,
        /// The crate's directory.
        #[arg(long, default_value = "generated")]
        out: PathBuf,
        /// Check that the crate is current instead of writing it (exit status 1 if not).
        #[arg(long)]
        check: bool,
        /// Depend on the rmm-runtime crate in this directory (a path dependency, relative to
        /// the crate) rather than on its published version.
        #[arg(long, value_name = "DIR")]
        runtime_path: Option<PathBuf>,
    },
    /// Names each difference between a spec and a live service (or a saved WSDL): operations,
    /// parameters, results, bindings, headers, namespace and path, enums, types and their
    /// members. Exit status 0 when they agree, 1 when they differ, 2 on an error.
    Diff {
        /// The spec, or a crate `rmm gen` wrote (its Cargo.toml names its spec).
        spec: PathBuf,
        /// The service's WSDL: its ?WSDL URL, or a file.
        wsdl: String,
        /// `text`, one difference a line, or `json`, for CI.
        #[arg(long, value_enum, default_value = "text")]
        format: DiffFormat,
    },
    /// Writes the spec an ASMX service's WSDL describes (a file, or the service's ?WSDL URL),
    /// fetching the schema documents it imports (a typed DataSet's ?schema=Name).
    Import {
        /// The WSDL: a file, or an http(s) URL.
        wsdl: String,
        /// Where to write the spec (standard output if not given).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Leave out each operation that uses what rmm does not import yet, and list it (on
        /// standard error and at the top of the spec), rather than failing.
        #[arg(long)]
        skip_unsupported: bool,
    },
}

/// How a command ended, when it did not fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Done (exit status 0); for `rmm diff`, no difference.
    Done,
    /// `rmm diff` found differences (exit status 1).
    Differs,
}

impl Cli {
    /// The exit status of a failure of this command: 2 for `rmm diff` (1 is its "they
    /// differ"), 1 for the others.
    pub fn failure_status(&self) -> u8 {
        match self.command {
            Command::Diff { .. } => 2,
            _ => 1,
        }
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<Outcome, String> {
    match cli.command {
        Command::Diff { spec, wsdl, format } => diff(&DiffOptions {
            spec,
            source: wsdl,
            format,
        }),
        Command::Gen {
            spec,
            out,
            check,
            runtime_path,
        } => {
            let out = absolute(&out)?;
            gen(&GenOptions {
                runtime: match runtime_path {
                    Some(dir) => Runtime::Path(absolute(&dir)?),
                    None => Runtime::Version(rmm_codegen::RUNTIME_VERSION.to_owned()),
                },
                spec,
                out,
                check,
                command: "rmm gen",
            })
            .map(|()| Outcome::Done)
        }
        Command::Import {
            wsdl,
            out,
            skip_unsupported,
        } => import(&ImportOptions {
            source: wsdl,
            out: out.map(|o| absolute(&o)).transpose()?,
            skip_unsupported,
        })
        .map(|()| Outcome::Done),
    }
}

/// `path` made absolute against the current directory.
pub fn absolute(path: &std::path::Path) -> Result<PathBuf, String> {
    if path.is_absolute() {
        return Ok(path.to_path_buf());
    }
    let here =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    Ok(here.join(path))
}
