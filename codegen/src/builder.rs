//! The build-script API (tonic-build, prost-build and progenitor's style): a crate's
//! `build.rs` generates the service's code into `OUT_DIR`, and its `lib.rs` includes it.
//!
//! ```ignore
//! // build.rs
//! fn main() {
//!     rmm_codegen::Builder::spec("rmm-spec.yaml").generate_or_exit();
//! }
//! ```
//!
//! ```ignore
//! // src/lib.rs: the one line (at the crate's root: the code names `crate::`)
//! include!(concat!(env!("OUT_DIR"), "/rmm.rs"));
//! ```
//!
//! The crate depends on `rmm-runtime` itself, with the features it wants (`client`,
//! `server`, `blocking`); the builder writes the parts those features name, as
//! [`Builder::client`], [`Builder::server`] and [`Builder::blocking`] say (all but blocking by
//! default), without the generated crate's `#[cfg(feature = …)]` gates.

use std::path::{Path, PathBuf};

use crate::{emit, model, spec, SpecErrors};

/// Where the code comes from.
#[derive(Debug, Clone)]
enum Source {
    Spec(PathBuf),
    Wsdl(PathBuf),
}

/// Generates a service's code into one file for a build script (see the module docs).
#[derive(Debug, Clone)]
pub struct Builder {
    source: Source,
    out_dir: Option<PathBuf>,
    file_name: String,
    client: bool,
    server: bool,
    blocking: bool,
}

impl Builder {
    /// From the spec at `path` (relative to the crate's directory, where build scripts run).
    pub fn spec(path: impl Into<PathBuf>) -> Builder {
        Builder::from(Source::Spec(path.into()))
    }

    /// From a saved WSDL at `path`, imported on the fly (as `rmm import` would, without
    /// fetching: a typed DataSet's schema must be in a spec instead).
    pub fn wsdl(path: impl Into<PathBuf>) -> Builder {
        Builder::from(Source::Wsdl(path.into()))
    }

    fn from(source: Source) -> Builder {
        Builder {
            source,
            out_dir: None,
            file_name: "rmm.rs".to_owned(),
            client: true,
            server: true,
            blocking: false,
        }
    }

    /// The directory to write into (`OUT_DIR` by default).
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Builder {
        self.out_dir = Some(dir.into());
        self
    }

    /// The file's name (`rmm.rs` by default).
    pub fn file_name(mut self, name: impl Into<String>) -> Builder {
        self.file_name = name.into();
        self
    }

    /// Whether to write the client (`rmm-runtime`'s `client` feature; on by default).
    pub fn client(mut self, on: bool) -> Builder {
        self.client = on;
        self
    }

    /// Whether to write the server (`rmm-runtime`'s `server` feature; on by default).
    pub fn server(mut self, on: bool) -> Builder {
        self.server = on;
        self
    }

    /// Whether to write the blocking client (`rmm-runtime`'s `blocking` feature; off by
    /// default). It needs the client.
    pub fn blocking(mut self, on: bool) -> Builder {
        self.blocking = on;
        self
    }

    /// Writes the code into the output directory and tells cargo to run the build script
    /// again when the spec (or WSDL) changes; returns the file written.
    pub fn generate(self) -> Result<PathBuf, SpecErrors> {
        let (path, text) = match &self.source {
            Source::Spec(path) | Source::Wsdl(path) => (path, read(path)?),
        };
        println!("cargo:rerun-if-changed={}", path.display());
        let file = path.display().to_string();
        let spec = match &self.source {
            Source::Spec(_) => spec::parse(&text, &file)?,
            Source::Wsdl(_) => {
                let yaml = crate::import::import(&text, &file)?;
                spec::parse(&yaml, &file)?
            }
        };
        let model = model::Model::from_spec(&spec, &file)?;
        let code = emit::single_file(
            &model,
            &emit::Features {
                client: self.client || self.blocking,
                server: self.server,
                blocking: self.blocking,
            },
        );
        let dir = match self.out_dir {
            Some(dir) => dir,
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    SpecErrors::whole(
                        &file,
                        "OUT_DIR is not set: run the builder from a build script, or give it \
                         out_dir",
                    )
                })?,
        };
        let out = dir.join(&self.file_name);
        std::fs::write(&out, code).map_err(|e| {
            SpecErrors::whole(&file, format!("cannot write {}: {e}", out.display()))
        })?;
        Ok(out)
    }

    /// [`Builder::generate`] for a build script: on failure, each problem is printed as a
    /// cargo error (`cargo::error=`, which cargo shows once as `error: file:line:col: …` and
    /// which fails the build). The script then returns rather than exit with a failure, which
    /// would have cargo print its whole output, each problem a second time.
    pub fn generate_or_exit(self) {
        if let Err(error) = self.generate() {
            for problem in &error.0 {
                println!("cargo::error={problem}");
            }
        }
    }
}

fn read(path: &Path) -> Result<String, SpecErrors> {
    let file = path.display().to_string();
    std::fs::read_to_string(path)
        .map_err(|e| SpecErrors::whole(&file, format!("cannot read it: {e}")))
}
