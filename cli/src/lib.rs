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
mod mock;
mod shadow;
pub mod typing;

pub use diff::{diff, DiffFormat, DiffOptions};
pub use gen::{gen, GenOptions, Runtime};
pub use import::{import, ImportOptions};
pub use mock::{mock, Answer, MockOptions};
pub use shadow::{replay, shadow, ReplayOptions, ShadowOptions};

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
        /// The crate's directory [default: the crate's name, in the current directory].
        #[arg(long)]
        out: Option<PathBuf>,
        /// Check that the crate is current instead of writing it (exit status 1 if not).
        #[arg(long)]
        check: bool,
        /// Take rmm-runtime from this directory (by its version and this absolute path)
        /// [default: the runtime of the checkout this `rmm` was installed from, if it is still
        /// there].
        #[arg(long, value_name = "DIR")]
        runtime_path: Option<PathBuf>,
        /// Take rmm-runtime from crates.io (by version alone), not from a directory.
        #[arg(long, conflicts_with = "runtime_path")]
        runtime_registry: bool,
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
        /// Where to write the spec (`-`: standard output). A file there is not replaced
        /// unless --force says so: it may hold the credential lists filled in by hand.
        #[arg(long, default_value = "rmm-spec.yaml")]
        out: PathBuf,
        /// Replace the file --out names if there is one.
        #[arg(long)]
        force: bool,
        /// Leave out each operation that uses what rmm does not import yet, and list it (on
        /// standard error and at the top of the spec), rather than failing.
        #[arg(long)]
        skip_unsupported: bool,
    },
    /// Serves any service in one command, every operation answering the default value of its
    /// response (as a .NET method returning default(T)), a sample of every member, or what it
    /// can echo of the request, on all its bindings, with its ?WSDL and help pages: for a
    /// client developer without the legacy host. Builds the service's crate and the mock with
    /// cargo the first time (a minute or two); later runs reuse it.
    Mock {
        /// The service: its spec (or a crate `rmm gen` wrote), or its WSDL (a file or a URL).
        source: String,
        /// What every operation answers.
        #[arg(long, value_enum, default_value = "default")]
        answer: Answer,
        /// Where it listens.
        #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
        listen: String,
        /// Where the mock is written and built [default: a directory of the service's crate
        /// under the user's cache, ~/.cache/rmm/mock].
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Take rmm-runtime from this directory [default: as `rmm gen` does].
        #[arg(long, value_name = "DIR")]
        runtime_path: Option<PathBuf>,
        /// Of a WSDL: serve the operations rmm imports, leaving out (and listing) each that
        /// uses what rmm does not import yet, as `rmm import --skip-unsupported` does.
        #[arg(long)]
        skip_unsupported: bool,
    },
    /// Stands where clients connect to a legacy host: answers each with the host's (the
    /// primary's) response, unchanged, and mirrors the request to the replacement (the
    /// candidate) and a second legacy instance (the secondary), comparing their answers.
    /// Writes DIR/report.json and DIR/report.html every --report-every seconds and when
    /// stopped (SIGINT, SIGTERM).
    Shadow {
        /// Where clients connect (`127.0.0.1:8080`).
        #[arg(long, value_name = "ADDR")]
        listen: std::net::SocketAddr,
        /// The legacy host (`http://host:port`), whose answers the clients get.
        #[arg(long, value_name = "URL")]
        primary: String,
        /// The replacement, whose answers are compared.
        #[arg(long, value_name = "URL")]
        candidate: String,
        /// A second instance of the legacy host: where it differs from the primary is noise.
        #[arg(long, value_name = "URL")]
        secondary: Option<String>,
        /// Where the report is written.
        #[arg(long, value_name = "DIR")]
        report: PathBuf,
        /// Seconds between reports.
        #[arg(long, default_value_t = 10, value_name = "SECS")]
        report_every: u64,
        /// A file of fields to ignore: `OPERATION FIELD` a line, `*` for any text.
        #[arg(long, value_name = "FILE")]
        ignore: Option<PathBuf>,
        /// Requests waiting to be mirrored, at most; more are not mirrored, and counted.
        #[arg(long, default_value_t = 1000)]
        queue: usize,
        /// Requests mirrored at once, at most.
        #[arg(long, default_value_t = 32)]
        concurrency: usize,
        /// Seconds the candidate and the secondary may take.
        #[arg(long, default_value_t = 10, value_name = "SECS")]
        mirror_timeout: u64,
        /// Seconds the primary may take.
        #[arg(long, default_value_t = 120, value_name = "SECS")]
        primary_timeout: u64,
        /// Record each exchange with the primary in DIR, one capture file an exchange (what
        /// `rmm replay` sends again), its secrets redacted.
        #[arg(long, value_name = "DIR")]
        record: Option<PathBuf>,
        /// The service's spec (or a crate `rmm gen` wrote): its `secrets` are redacted from
        /// what is recorded, and the answers' values are compared by their types (`1E+20` and
        /// `1e20` are one double: a difference of bytes alone). Repeat for each service of
        /// the host.
        #[arg(long = "spec", value_name = "SPEC")]
        specs: Vec<PathBuf>,
        /// A secret parameter or member (`Class.Member`) beside the spec's, redacted; repeat
        /// for more.
        #[arg(long = "secret", value_name = "NAME")]
        secrets: Vec<String>,
        /// A header whose value is redacted beside Authorization, Proxy-Authorization, Cookie
        /// and Set-Cookie; repeat for more.
        #[arg(long = "secret-header", value_name = "NAME")]
        secret_headers: Vec<String>,
    },
    /// Sends the requests recorded in DIR (capture files, as `rmm shadow --record` writes
    /// them) to a server and compares its answers with the recorded ones by the shadow's
    /// rules; writes REPORT/report.json and REPORT/report.html. Exit status 0 when every
    /// answer agrees (but for ignored fields), 1 when one differs or is not answered, 2 on an
    /// error.
    Replay {
        /// The directory of capture files (`*.txt`).
        dir: PathBuf,
        /// The server (`http://host:port`); each request's own path is kept.
        #[arg(long, value_name = "URL")]
        against: String,
        /// Where the report is written.
        #[arg(long, value_name = "DIR")]
        report: PathBuf,
        /// A file of fields to ignore: `OPERATION FIELD` a line, `*` for any text.
        #[arg(long, value_name = "FILE")]
        ignore: Option<PathBuf>,
        /// The report directory of the shadow that recorded DIR: the noise it learned from its
        /// secondary is ignored too.
        #[arg(long, value_name = "REPORT_DIR")]
        noise_from: Option<PathBuf>,
        /// The service's spec (or a crate `rmm gen` wrote): the answers' values are compared
        /// by their types, as the shadow's with `--spec`. Repeat for each service.
        #[arg(long = "spec", value_name = "SPEC")]
        specs: Vec<PathBuf>,
        /// Requests in flight at once.
        #[arg(long, default_value_t = 8)]
        concurrency: usize,
        /// Seconds the server may take to answer each.
        #[arg(long, default_value_t = 30, value_name = "SECS")]
        timeout: u64,
    },
}

/// How a command ended, when it did not fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Done (exit status 0); for `rmm diff` and `rmm replay`, no difference.
    Done,
    /// `rmm diff` or `rmm replay` found differences (exit status 1).
    Differs,
}

impl Cli {
    /// The exit status of a failure of this command: 2 for `rmm diff` and `rmm replay` (1 is
    /// their "they differ"), 1 for the others.
    pub fn failure_status(&self) -> u8 {
        match self.command {
            Command::Diff { .. } | Command::Replay { .. } => 2,
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
            runtime_registry,
        } => {
            let out = out.map(|o| absolute(&o)).transpose()?;
            gen(&GenOptions {
                runtime: match runtime_path {
                    Some(dir) => {
                        Runtime::VersionAt(rmm_codegen::RUNTIME_VERSION.to_owned(), absolute(&dir)?)
                    }
                    None if runtime_registry => {
                        Runtime::Version(rmm_codegen::RUNTIME_VERSION.to_owned())
                    }
                    None => Runtime::installed(),
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
            force,
            skip_unsupported,
        } => import(&ImportOptions {
            source: wsdl,
            out: match out.to_str() {
                Some("-") => None,
                _ => Some(absolute(&out)?),
            },
            force,
            skip_unsupported,
        })
        .map(|()| Outcome::Done),
        Command::Mock {
            source,
            answer,
            listen,
            dir,
            runtime_path,
            skip_unsupported,
        } => mock(&MockOptions {
            source,
            answer,
            skip_unsupported,
            listen,
            dir: dir.map(|d| absolute(&d)).transpose()?,
            runtime: match runtime_path {
                Some(dir) => {
                    Runtime::VersionAt(rmm_codegen::RUNTIME_VERSION.to_owned(), absolute(&dir)?)
                }
                None => Runtime::installed(),
            },
        })
        .map(|()| Outcome::Done),
        Command::Shadow {
            listen,
            primary,
            candidate,
            secondary,
            report,
            report_every,
            ignore,
            queue,
            concurrency,
            mirror_timeout,
            primary_timeout,
            record,
            specs,
            secrets,
            secret_headers,
        } => shadow(&ShadowOptions {
            listen,
            primary,
            candidate,
            secondary,
            report: absolute(&report)?,
            report_every,
            ignore,
            queue,
            concurrency,
            mirror_timeout,
            primary_timeout,
            record: record.map(|r| absolute(&r)).transpose()?,
            specs,
            secrets,
            secret_headers,
        }),
        Command::Replay {
            dir,
            against,
            report,
            ignore,
            noise_from,
            specs,
            concurrency,
            timeout,
        } => replay(&ReplayOptions {
            dir,
            against,
            report: absolute(&report)?,
            ignore,
            noise_from,
            specs,
            concurrency,
            timeout,
        }),
    }
}

/// `error` and each error beneath it (`error sending request for url (…): client error
/// (Connect): tcp connect error: Connection refused (os error 111)`): what a user needs to
/// act on is often the last.
pub(crate) fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(inner) = source {
        let next = inner.to_string();
        // Some errors repeat their source in their own text.
        if !text.ends_with(&next) {
            text.push_str(": ");
            text.push_str(&next);
        }
        source = inner.source();
    }
    text
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
