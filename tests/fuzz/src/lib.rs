//! # rmm-fuzz
//!
//! The fuzz targets: for each part of rmm that reads what a stranger sends, a function from
//! arbitrary bytes to a run of that part, which panics when the part misbehaves. The AFL++
//! binaries in `tests/fuzz/afl/` (built by `cargo xtask fuzz`, which needs `cargo afl`) call
//! them under coverage guidance; `tests/corpus.rs` replays the saved corpus and the
//! regressions through the same functions as an ordinary test, so CI needs no fuzzer.
//!
//! Each target checks more than "no panic" where the part promises more: a request or
//! response the decoders accept must survive being encoded and decoded again unchanged, and a
//! spec the loader refuses must be refused with a located message.

mod import;
mod input;
mod objects;
mod request;
mod response;
pub mod seed;
mod server;
pub mod shadow;
mod spec;

/// One fuzz target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The server's SOAP 1.1 and 1.2 request decoders (`request::soap`).
    SoapRequest,
    /// The server's HTTP GET and POST request decoders and the form reader (`request::form`).
    FormRequest,
    /// The client's result and fault decoders, on all four bindings (`response::decode_any`).
    Response,
    /// The whole sans-IO server path, `MobileServiceServer::handle` (`server::handle`).
    Handle,
    /// The spec loader and the generator behind it (`spec::load`).
    Spec,
    /// The third service's (`rmm-objects`) request and response decoders: classes, arrays,
    /// inheritance, read through the value tree (`objects::decode`).
    Objects,
    /// rmm-shadow's capture reader and its comparison of two answers, down to the report's
    /// page (`shadow::run`).
    Shadow,
    /// The WSDL importer and the generator behind it (`import::wsdl`): import and gen agree.
    Import,
}

impl Target {
    /// Every target, in the order `cargo xtask fuzz` lists them.
    pub const ALL: [Target; 8] = [
        Target::SoapRequest,
        Target::FormRequest,
        Target::Response,
        Target::Handle,
        Target::Spec,
        Target::Objects,
        Target::Shadow,
        Target::Import,
    ];

    /// The target's name: its AFL++ binary, its corpus folder, its `cargo xtask fuzz` argument.
    pub const fn name(self) -> &'static str {
        match self {
            Target::SoapRequest => "soap_request",
            Target::FormRequest => "form_request",
            Target::Response => "response",
            Target::Handle => "handle",
            Target::Spec => "spec",
            Target::Objects => "objects",
            Target::Shadow => "shadow",
            Target::Import => "import",
        }
    }

    /// The target named `name`.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Runs the target on one input; panics when the code under test misbehaves.
    pub fn run(self, data: &[u8]) -> Outcome {
        match self {
            Target::SoapRequest => request::soap(data),
            Target::FormRequest => request::form(data),
            Target::Response => response::decode_any(data),
            Target::Handle => server::handle(data),
            Target::Spec => spec::load(data),
            Target::Objects => objects::decode(data),
            Target::Shadow => shadow::run(data),
            Target::Import => import::wsdl(data),
        }
    }
}

/// What a target made of an input: whether the code under test took it (and so the checks
/// beyond "no panic" ran), refused it, or never saw it (an input hyper would refuse first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Read (a request, a result or fault, a spec) and checked.
    Accepted,
    /// Refused with an error.
    Refused,
    /// Not a message the code under test can be given.
    NotReached,
}

impl Outcome {
    /// `Accepted` when `accepted`, else `Refused`.
    pub fn of(accepted: bool) -> Outcome {
        if accepted {
            Outcome::Accepted
        } else {
            Outcome::Refused
        }
    }
}

pub use input::{http_request, Choices};
