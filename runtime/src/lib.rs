//! # rmm-runtime
//!
//! Everything of an rmm-generated crate that does not vary with the spec: the [`Binding`]s,
//! the value rules of each binding ([`value`]), the XML writer and reader ([`xml`], [`soap`]),
//! the query/form codec ([`form`]), and the error and fault types.
//!
//! Generated crates name this crate only through their own re-export, so a downstream crate
//! depends on the generated crate alone.
//!
//! Features: `client` (the [`client`] module: reqwest, timeouts, [`client::CallError`]) and
//! `server` (the [`server`] module: hyper's server, the tower service), both on by default;
//! `blocking` (a client for callers without an async runtime) adds to `client`. The wire code
//! is there without any of them.

pub mod any_type;
mod binding;
#[cfg(feature = "client")]
pub mod client;
mod content_type;
pub mod dataset;
mod error;
mod fault;
pub mod form;
pub mod message;
mod operation;
mod param_value;
pub mod raw_xml;
mod redact;
#[cfg(feature = "server")]
pub mod server;
pub mod soap;
pub mod tree;
pub mod value;
pub mod wsse;
pub mod xml;

pub use any_type::{collapse_whitespace, AnyType, KnownTypes, NoKnownTypes};
pub use binding::Binding;
pub use dataset::{DataHolder, DataSet, DataTable};
pub use error::{EncodeError, RequestError, ResponseError, ValueError};
pub use fault::{Fault, FaultCode};
pub use operation::{OperationInfo, ServiceInfo};
pub use param_value::{ParamValue, RedactedParams};
pub use raw_xml::{RawNode, RawXml};
pub use redact::Redacted;
pub use soap::{HeaderAttributes, SoapHeaderItem};
pub use value::datetime::{DateTime, DateTimeKind};
pub use value::{scalar::Scalar, SoapType};

/// Re-exports the generated code names, so it needs no dependency of its own.
pub mod deps {
    pub use bitflags;
    pub use bytes;
    pub use chrono;
    pub use http;
    #[cfg(feature = "server")]
    pub use http_body;
    #[cfg(feature = "server")]
    pub use http_body_util;
    #[cfg(feature = "server")]
    pub use hyper;
    #[cfg(feature = "client")]
    pub use reqwest;
    pub use rust_decimal;
    #[cfg(any(feature = "client", feature = "server"))]
    pub use tokio;
    #[cfg(feature = "server")]
    pub use tower_service;
    pub use uuid;
}
