//! # rmm-runtime
//!
//! Everything of an rmm-generated crate that does not vary with the spec. What a user of a
//! generated crate meets is documented here: the [`Binding`]s, [`Fault`] and the error types,
//! the values that are not Rust's own ([`DateTime`], [`DataSet`], [`RawXml`], [`AnyType`]),
//! the [`client`]'s transports and errors, the [`server`]'s configuration and [`serve`
//! functions](server::serve), WS-Security ([`wsse`]), the dependencies generated code names
//! ([`deps`]), and [`include_service!`] for build scripts. The codecs underneath (the XML
//! writer and reader, SOAP envelopes, the query/form codec, class trees, HTTP messages and the
//! value rules of each binding) are public for generated code only, hidden from these docs,
//! and not part of the API a user holds: they change as the generator does.
//!
//! Generated crates name this crate only through their own re-export, so a downstream crate
//! depends on the generated crate alone.
//!
//! Features: `client` (the [`client`] module: reqwest, timeouts, [`client::CallError`]) and
//! `server` (the [`server`] module: hyper's server, the tower service), both on by default;
//! `blocking` (a client for callers without an async runtime) adds to `client`. The wire code
//! is there without any of them.
//!
//! The examples below use `greeter`, the crate rmm generates from this spec (in rmm's
//! repository, `tests/build-rs`, whose build script generates it):
//!
//! ```yaml
//! service:
//!   name: Greeter
//!   namespace: http://rmm.example.com/greeter
//!   path: /api/Greeter.asmx
//! credentials: []
//! operations:
//!   - name: Greet
//!     params: [{ name: string }]
//!     result: string
//!   - name: Add
//!     params: [{ a: int }, { b: int }]
//!     result: int
//! ```
//!
//! ## Serve it, call it, signed
//!
//! The generated server is a tower service: here it stands behind WS-Security's
//! UsernameToken check ([`wsse::UsernameTokenCheck`]), served by [`server::serve`]. The
//! generated client sends through a [`client::Transport`]; [`wsse::WsSecurity`] wraps the
//! default one and signs each SOAP request with a password digest.
//!
//! ```
//! use greeter::*;
//! use rmm_runtime::client::ReqwestTransport;
//! use rmm_runtime::deps::tokio;
//! use rmm_runtime::server::{serve, ServerConfig};
//! use rmm_runtime::wsse::{UsernameToken, UsernameTokenCheck, WsSecurity};
//!
//! struct Greets;
//!
//! impl Greeter for Greets {
//!     async fn greet(&self, request: Greet) -> Result<GreetResponse, Fault> {
//!         let name = request.name.unwrap_or_default();
//!         Ok(GreetResponse { result: Some(format!("hello, {name}")) })
//!     }
//!
//!     async fn add(&self, request: Add) -> Result<AddResponse, Fault> {
//!         match request.a.checked_add(request.b) {
//!             Some(result) => Ok(AddResponse { result }),
//!             None => Err(Fault::client("the sum does not fit an int")),
//!         }
//!     }
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
//! let base = format!("http://{}", listener.local_addr().unwrap());
//! // The user's password, looked up by name.
//! let check = UsernameTokenCheck::new(|user| (user == "ann").then(|| "secret".to_string()));
//! let server = check.layer(GreeterServer::new(Greets));
//! tokio::spawn(serve(listener, server, ServerConfig::default()));
//!
//! let signed = WsSecurity::new(ReqwestTransport::new(), UsernameToken::digest("ann", "secret"));
//! let client = GreeterClient::new(&base)
//!     .with_transport(signed);
//! let greeting = client.greet(&Greet { name: Some("Ann".into()) }).await.unwrap();
//! assert_eq!(greeting.result.as_deref(), Some("hello, Ann"));
//! // SOAP 1.2 is signed alike.
//! let sum = client.over(Binding::Soap12).add(&Add { a: 2, b: 3 }).await.unwrap();
//! assert_eq!(sum.result, 5);
//! # });
//! ```
//!
//! ## Errors
//!
//! A call's error ([`client::CallError`]) tells a fault the service answered (its
//! [`Fault`], code and reason, as the handler or the check raised it) from a request that got
//! no answer at all:
//!
//! ```
//! # use greeter::*;
//! # use rmm_runtime::client::ReqwestTransport;
//! # use rmm_runtime::deps::tokio;
//! # use rmm_runtime::server::{serve, ServerConfig};
//! # use rmm_runtime::wsse::{UsernameToken, UsernameTokenCheck, WsSecurity};
//! use rmm_runtime::client::{CallError, TransportError};
//! use rmm_runtime::FaultCode;
//! # struct Greets;
//! # impl Greeter for Greets {
//! #     async fn greet(&self, _: Greet) -> Result<GreetResponse, Fault> {
//! #         Ok(GreetResponse { result: None })
//! #     }
//! #     async fn add(&self, request: Add) -> Result<AddResponse, Fault> {
//! #         match request.a.checked_add(request.b) {
//! #             Some(result) => Ok(AddResponse { result }),
//! #             None => Err(Fault::client("the sum does not fit an int")),
//! #         }
//! #     }
//! # }
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! # let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
//! # let base = format!("http://{}", listener.local_addr().unwrap());
//! # let check = UsernameTokenCheck::new(|user| (user == "ann").then(|| "secret".to_string()));
//! # tokio::spawn(serve(listener, check.layer(GreeterServer::new(Greets)), ServerConfig::default()));
//! let signed = |password| WsSecurity::new(ReqwestTransport::new(), UsernameToken::digest("ann", password));
//! let client = GreeterClient::new(&base);
//!
//! // The handler's own fault.
//! let overflow = Add { a: i32::MAX, b: 1 };
//! let error = client.clone().with_transport(signed("secret")).add(&overflow).await.unwrap_err();
//! let fault = error.fault().unwrap();
//! assert_eq!(fault.code, FaultCode::Client);
//! assert_eq!(fault.reason, "the sum does not fit an int");
//!
//! // The check's: a wrong password is WS-Security's FailedAuthentication.
//! let error = client.clone().with_transport(signed("guess")).add(&overflow).await.unwrap_err();
//! assert_eq!(error.fault().unwrap().code, FaultCode::Other("FailedAuthentication".into()));
//!
//! // No answer: nothing listens there.
//! let nowhere = GreeterClient::new("http://127.0.0.1:9");
//! let error = nowhere.add(&Add { a: 1, b: 1 }).await.unwrap_err();
//! assert!(matches!(error, CallError::Transport { source: TransportError::Connect(_), .. }));
//! # });
//! ```
//!
//! ## What each binding sends
//!
//! A [`client::Transport`] sees each request as it goes: the binding chooses the method, the
//! path and the headers that tell the host the operation, as an ASMX client sends them.
//!
//! ```
//! # use greeter::*;
//! # use rmm_runtime::deps::tokio;
//! use rmm_runtime::client::{BoxFuture, ReqwestTransport, Transport, TransportError};
//! use rmm_runtime::deps::{bytes::Bytes, http};
//! use std::sync::{Arc, Mutex};
//!
//! /// Notes each request's method, path and query, and the header naming its operation,
//! /// then sends it.
//! #[derive(Clone, Default)]
//! struct Notes(Arc<Mutex<Vec<String>>>);
//!
//! impl Transport for Notes {
//!     fn send(
//!         &self,
//!         request: http::Request<Bytes>,
//!     ) -> BoxFuture<'_, Result<http::Response<Bytes>, TransportError>> {
//!         let mut note = format!("{} {}", request.method(), request.uri().path_and_query().unwrap());
//!         // SOAP 1.1 names the operation in SOAPAction, SOAP 1.2 in the content type's
//!         // action, HTTP GET and POST in the path.
//!         let headers = request.headers();
//!         if let Some(value) = headers.get("soapaction").or(headers.get("content-type")) {
//!             note = format!("{note} {}", value.to_str().unwrap());
//!         }
//!         self.0.lock().unwrap().push(note);
//!         Box::pin(async move { ReqwestTransport::new().send(request).await })
//!     }
//! }
//! # struct Greets;
//! # impl Greeter for Greets {
//! #     async fn greet(&self, request: Greet) -> Result<GreetResponse, Fault> {
//! #         Ok(GreetResponse { result: request.name })
//! #     }
//! #     async fn add(&self, _: Add) -> Result<AddResponse, Fault> {
//! #         Ok(AddResponse { result: 0 })
//! #     }
//! # }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! # let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
//! # let base = format!("http://{}", listener.local_addr().unwrap());
//! # tokio::spawn(GreeterServer::new(Greets).serve(listener));
//! let notes = Notes::default();
//! let client = GreeterClient::new(&base)
//!     .with_transport(notes.clone());
//! for binding in Binding::ALL {
//!     let greeting = client.over(binding).greet(&Greet { name: Some("Ann".into()) }).await;
//!     assert_eq!(greeting.unwrap().result.as_deref(), Some("Ann"));
//! }
//! assert_eq!(*notes.0.lock().unwrap(), [
//!     r#"POST /api/Greeter.asmx "http://rmm.example.com/greeter/Greet""#,
//!     r#"POST /api/Greeter.asmx application/soap+xml; charset=utf-8; action="http://rmm.example.com/greeter/Greet""#,
//!     "GET /api/Greeter.asmx/Greet?name=Ann",
//!     "POST /api/Greeter.asmx/Greet application/x-www-form-urlencoded",
//! ]);
//! # });
//! ```

// docs.rs: each item shows the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod any_type;
mod binding;
#[cfg(feature = "client")]
pub mod client;
mod content_type;
pub mod dataset;
pub mod encoded;
mod error;
mod fault;
#[doc(hidden)]
pub mod form;
#[doc(hidden)]
pub mod json;
#[doc(hidden)]
pub mod message;
mod operation;
mod param_value;
pub mod raw_xml;
mod redact;
#[cfg(feature = "server")]
pub mod server;
#[cfg(feature = "server")]
pub mod session;
#[doc(hidden)]
pub mod soap;
#[doc(hidden)]
pub mod tree;
#[doc(hidden)]
pub mod value;
pub mod wsse;
#[doc(hidden)]
pub mod xml;

pub use any_type::{collapse_whitespace, AnyType, KnownTypes, NoKnownTypes};
pub use binding::Binding;
pub use dataset::{DataHolder, DataSet, DataTable};
pub use error::{EncodeError, RequestError, ResponseError, ValueError};
pub use fault::{Fault, FaultCode};
pub use operation::{OperationInfo, ServiceInfo, SizeHint};
pub use param_value::{ParamValue, RedactedParams};
pub use raw_xml::{RawNode, RawXml};
pub use redact::Redacted;
pub use soap::{HeaderAttributes, SoapHeaderItem};
pub use value::date::Date;
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

/// Includes the code a build script generated with `rmm_codegen::Builder` into `OUT_DIR`:
/// `include_service!()` the default file (`rmm.rs`), `include_service!("calc")` the one
/// `Builder::file_name("calc.rs")` named. The code's paths are relative, so it may stand at
/// the crate's root or inside a module, one module a service:
///
/// ```ignore
/// pub mod calc {
///     rmm_runtime::include_service!();
/// }
/// ```
#[macro_export]
macro_rules! include_service {
    () => {
        include!(concat!(env!("OUT_DIR"), "/rmm.rs"));
    };
    ($name:literal) => {
        include!(concat!(env!("OUT_DIR"), "/", $name, ".rs"));
    };
}
