//! `lib.rs` of the generated crate: crate docs, re-exports, the service constants and the
//! `Operation` enum.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::{ident, inner_doc};
use crate::model::Model;

/// The front page's example, a doctest run against an in-process server: serving the service
/// (every operation a Server fault, until the trait is implemented), calling it with signed
/// credentials over another binding, and the error a fault is. It calls the first operation
/// of simple parameters and no SOAP header (whose request is built by `Default`); it serves
/// only where there is none.
fn serve_and_call_example(model: &Model) -> String {
    const EXAMPLE: &str = r#"
## Serve it, call it

A server needs the [`@TRAIT@`] trait implemented; here every operation answers a Server fault
(`for_each_operation!` writes the methods), which a client call returns as its error:

```
use @KRATE@::runtime::deps::tokio;
use @KRATE@::*;

struct NotYet;
macro_rules! not_yet {
    ($($method:ident: $request:ident@SESSION_PATTERN@,)*) => {
        impl @TRAIT@ for NotYet {
            $(async fn $method(
                &self,@CREDENTIALS@
                _: $request,@SESSION_PARAM@
            ) -> Result<
                <$request as wire::OperationRequest>::Response,
                <$request as wire::OperationRequest>::Error,
            > {
                Err(Fault::server("not written yet").into())
            })*
        }
    };
}
@KRATE@::for_each_operation!(not_yet);

# tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
let base = format!("http://{}", listener.local_addr().unwrap());
tokio::spawn(@SERVER@::new(NotYet).serve(listener));
@CALL@# });
```
"#;
    const CALL: &str = r#"@SIGNS@
let client = @CLIENT@::new(&base@SIGNER@);
let error = client
    .over(Binding::Soap12)
    .@METHOD@(&@REQUEST@::default())
    .await
    .unwrap_err();
assert!(error.to_string().contains("not written yet"), "{error}");
"#;
    let service = &model.service;
    let call = model.operations.iter().find(|op| {
        op.in_headers().next().is_none()
            && op
                .business_params()
                .all(|p| !p.ty.is_complex() && !p.ty.is_raw())
    });
    let call = call.map_or(String::new(), |op| {
        CALL.replace("@CLIENT@", &service.client_type)
            .replace(
                "@SIGNS@",
                if model.credentials.is_empty() {
                    "// The client calls over the binding it is told (SOAP 1.1 unless `over` says\n\
                     // another); the service takes no credentials, so it needs no signer."
                } else {
                    "// The client signs each call with the credentials its signer gives, over the \
                     binding it\n// is told (SOAP 1.1 unless `over` says another)."
                },
            )
            .replace(
                "@SIGNER@",
                if model.credentials.is_empty() {
                    ""
                } else {
                    ", StaticSigner(Credentials::default())"
                },
            )
            .replace("@METHOD@", &op.snake)
            .replace("@REQUEST@", &op.rust_name)
    });
    // Placeholders of `@` (which no XML name holds), the call's put in first.
    EXAMPLE
        .replace("@CALL@", &call)
        .replace(
            "@CREDENTIALS@",
            if model.credentials.is_empty() {
                ""
            } else {
                "\n                _: Credentials,"
            },
        )
        .replace("@SESSION_PATTERN@", session_pattern(model))
        .replace(
            "@SESSION_PARAM@",
            if model.service.session.is_some() {
                "\n                $(_: &mut runtime::session::Session<$session>,)?"
            } else {
                ""
            },
        )
        .replace("@TRAIT@", &service.trait_name)
        .replace("@KRATE@", &service.crate_ident)
        .replace("@SERVER@", &service.server_type)
}

/// What a `for_each_operation!` callback matches after each `method: Request`, in a service
/// with sessions: an operation with session state is followed by its session class in
/// brackets (`visit: Visit [Basket],`).
fn session_pattern(model: &Model) -> &'static str {
    if model.service.session.is_some() {
        " $([$session:ident])?"
    } else {
        ""
    }
}

pub(super) fn emit(model: &Model) -> TokenStream {
    let service = &model.service;
    let mut crate_doc = format!(
        "# {name}\n\nClient and server wire code of the `{name}` ASMX web service, generated from `{spec}`.\n\n\
         - namespace: `{ns}`\n- endpoint: `{path}`\n- bindings: SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST\n\n\
         Each operation has a request type holding its business parameters and a response type; the credentials \
         travel separately as [`Credentials`] and are put back at their exact wire positions. The sans-IO wire \
         functions are methods of those types: `encode_request` / `decode_response` on the client side, \
         `decode_request` / `encode_response` on the server side (see [`wire`]).\n\n\
         Strings are `Option<String>`: `None` is an absent SOAP element (which an ASMX host reads as null), \
         `Some(String::new())` an empty one.\n\n\
         | # | Operation | Parameters |\n|---|---|---|\n",
        name = service.name,
        spec = model.spec_file,
        ns = service.namespace,
        path = service.path,
    );
    for op in &model.operations {
        crate_doc.push_str(&format!(
            "| {} | [`{}`] | {} |\n",
            op.number,
            op.rust_name,
            op.params.len()
        ));
    }
    crate_doc.push_str(&serve_and_call_example(model));
    let crate_doc = inner_doc(&crate_doc);

    let names: Vec<_> = model
        .operations
        .iter()
        .map(|op| ident(&op.rust_name))
        .collect();
    let wire_names: Vec<_> = model
        .operations
        .iter()
        .map(|op| Literal::string(&op.wire))
        .collect();
    let modules: Vec<_> = model
        .operations
        .iter()
        .map(|op| format_ident!("{}", op.snake))
        .collect();
    let variant_docs: Vec<_> = model
        .operations
        .iter()
        .map(|op| format!(" Operation {}: [`{}`].", op.number, op.rust_name))
        .collect();
    let count = model.operations.len();
    let service_trait = format_ident!("{}", service.trait_name);
    let server_type = format_ident!("{}", service.server_type);
    let client_type = format_ident!("{}", service.client_type);
    let blocking_client_type = format_ident!("{}", service.blocking_client_type);
    let secrets: Vec<&str> = {
        let mut names: Vec<&str> = model
            .operations
            .iter()
            .flat_map(|op| {
                op.params
                    .iter()
                    .filter(|p| p.secret)
                    .map(|p| p.wire.as_str())
            })
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    };
    let service_doc = format!(
        " The `{}` service: its namespace, path and the opening of its HTTP GET/POST results.",
        service.name
    );
    // An rpc service's HTTP GET/POST results are documents of `{namespace}/literalTypes`:
    // written and read as those of a service of that namespace.
    let literal_types = if service.rpc_service {
        let literal_ns = if service.namespace.ends_with('/') {
            format!("{}literalTypes", service.namespace)
        } else {
            format!("{}/literalTypes", service.namespace)
        };
        let literal_open =
            format!("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<string xmlns=\"{literal_ns}\">");
        let (name, path) = (&service.name, &service.path);
        quote! {
            /// The namespace of the service's HTTP GET/POST result documents,
            /// `{namespace}/literalTypes` (an rpc service's): their writers and readers take it
            /// as the service's.
            pub static LITERAL_TYPES: runtime::ServiceInfo = runtime::ServiceInfo {
                name: #name,
                namespace: #literal_ns,
                path: #path,
                string_open: #literal_open,
            };
        }
    } else {
        quote!()
    };
    let (name, ns, path, string_open) = (
        &service.name,
        &service.namespace,
        &service.path,
        &service.string_open,
    );

    let (classes_mod, classes_use) = if model.classes.is_empty() {
        (quote!(), quote!())
    } else {
        (
            quote!(
                mod classes;
            ),
            quote!(
                pub use classes::*;
            ),
        )
    };
    let (data_sets_mod, data_sets_use) = if model.data_sets.is_empty() {
        (quote!(), quote!())
    } else {
        (
            quote!(
                mod data_sets;
            ),
            quote!(
                pub use data_sets::*;
            ),
        )
    };
    let (objects_mod, objects_use) = if model.object.is_none() {
        (quote!(), quote!())
    } else {
        (
            quote!(
                mod objects;
            ),
            quote!(
                pub use objects::*;
            ),
        )
    };
    // rustc's drop check walks a chain of classes holding one another (`Option<Box<B>>` in
    // `A`, …) one level per type, and stops at `recursion_limit` (128): a service of a few
    // hundred classes on such a chain does not compile under the default. A few levels per
    // class, as a power of two; said only where the default is too small.
    let recursion_limit = (model.classes.len() * 4).next_power_of_two();
    let recursion_limit = if recursion_limit > 128 {
        let limit = recursion_limit.to_string();
        quote!(#![recursion_limit = #limit])
    } else {
        quote!()
    };
    let script_proxy = if model.service.script.is_some() {
        quote! {
            fn script_proxy(debug: bool) -> Option<&'static [&'static str]> {
                Some(if debug { script::PROXY_DEBUG } else { script::PROXY })
            }
        }
    } else {
        quote!()
    };
    // A service with session state: the handlers' session type, by its short name (unless
    // one of the spec's types has the name).
    let named_session = model.classes.iter().any(|c| c.rust == "Session")
        || model.enums.iter().any(|e| e.rust == "Session")
        || model
            .operations
            .iter()
            .any(|op| op.rust_name == "Session" || op.response_type == "Session");
    let session_use = if model.service.session.is_some() && !named_session {
        quote!(
            #[cfg(feature = "server")]
            pub use rmm_runtime::session::Session;
        )
    } else {
        quote!()
    };
    let script_mod = if model.service.script.is_some() {
        quote!(
            mod script;
        )
    } else {
        quote!()
    };
    quote! {
        #crate_doc
        #![forbid(unsafe_code)]
        #![warn(missing_docs)]
        #recursion_limit

        #[cfg(feature = "blocking")]
        pub mod blocking;
        #classes_mod
        #[cfg(feature = "client")]
        pub mod client;
        mod credentials;
        #data_sets_mod
        #[cfg(feature = "server")]
        pub mod help;
        #objects_mod
        #script_mod
        #[cfg(feature = "server")]
        pub mod server;
        mod types;
        pub mod wire;
        pub mod wsdl;

        #[cfg(feature = "blocking")]
        pub use blocking::#blocking_client_type;
        #[cfg(feature = "client")]
        pub use client::{#client_type, Signer, SigningRequest, StaticSigner};
        #classes_use
        pub use credentials::{Credentials, SoapHeaders};
        #data_sets_use
        #objects_use
        #[cfg(feature = "server")]
        pub use server::{#service_trait, #server_type, Call, Verifier};
        #session_use
        pub use types::*;

        /// The runtime this crate is generated against, re-exported so dependents need only this crate.
        pub use rmm_runtime as runtime;
        pub use rmm_runtime::deps::rust_decimal::Decimal;
        pub use rmm_runtime::deps::uuid::Uuid;
        pub use rmm_runtime::{DateTime, DateTimeKind};
        #[cfg(feature = "client")]
        pub use rmm_runtime::client::{CallError, Transport, TransportError};
        pub use rmm_runtime::{Binding, EncodeError, Fault, FaultCode, RequestError, ResponseError, ValueError};

        /// Wire names of the parameters whose values are never printed: redacted in `Debug`
        /// and in traces.
        pub const SECRETS: &[&str] = &[#(#secrets),*];

        #[doc = #service_doc]
        pub static SERVICE: runtime::ServiceInfo = runtime::ServiceInfo {
            name: #name,
            namespace: #ns,
            path: #path,
            string_open: #string_open,
        };

        #literal_types

        /// The operations of the service, in the interface document's order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Operation {
            #( #[doc = #variant_docs] #names, )*
        }

        impl Operation {
            /// Every operation, in order.
            pub const ALL: [Operation; #count] = [ #( Operation::#names, )* ];

            /// The operation's wire name.
            pub const fn name(self) -> &'static str {
                match self { #( Operation::#names => #wire_names, )* }
            }

            /// The operation with this exact (case-sensitive) wire name.
            pub fn from_name(name: &str) -> Option<Operation> {
                match name {
                    #( #wire_names => Some(Operation::#names), )*
                    _ => None,
                }
            }

            /// The operation's wire literals.
            pub const fn info(self) -> &'static runtime::OperationInfo {
                match self { #( Operation::#names => &wire::#modules::OPERATION, )* }
            }
        }

        #[cfg(feature = "server")]
        impl runtime::server::OperationSet for Operation {
            fn from_name(name: &str) -> Option<Operation> {
                Operation::from_name(name)
            }

            fn all() -> &'static [Operation] {
                &Operation::ALL
            }

            fn info(self) -> &'static runtime::OperationInfo {
                Operation::info(self)
            }
            #script_proxy
        }

    }
}

/// `for_each_operation!`, written as text: prettyplease prints a macro body as one run of
/// tokens, and its list reads best one operation per line.
pub(super) fn for_each_operation(model: &Model) -> String {
    let service = &model.service.trait_name;
    let client = &model.service.client_type;
    let krate = &model.service.crate_ident;
    let session_pattern = session_pattern(model);
    let session_doc = match model.service.session {
        Some(i) => format!(
            "\n/// An operation with session state is followed by its session class in brackets\n\
             /// (`visit: Visit [{}],`).",
            model.classes[i].rust
        ),
        None => String::new(),
    };
    let mut text = format!(
        "\n/// Calls the macro `$callback` with every operation, in order, as `method: Request,`\n\
         /// pairs: the method's name in [`{service}`] and [`{client}`], and the request\n\
         /// type (a bare name: have the types in scope, e.g. with `use {krate}::*`).{session_doc} One place\n\
         /// to write what is done for every operation (a trait impl, a test each), which then\n\
         /// follows the spec.\n\
         ///\n\
         /// ```\n\
         /// use {krate}::*;\n\
         /// macro_rules! count {{\n\
         ///     ($($method:ident: $request:ident{session_pattern},)*) => {{ [$(stringify!($request)),*].len() }};\n\
         /// }}\n\
         /// assert_eq!({krate}::for_each_operation!(count), Operation::ALL.len());\n\
         /// ```\n\
         #[macro_export]\n\
         macro_rules! for_each_operation {{\n    ($callback:ident) => {{\n        $callback! {{\n"
    );
    let session_class = model.service.session.map(|i| &model.classes[i].rust);
    for op in &model.operations {
        match session_class {
            Some(class) if op.session => text.push_str(&format!(
                "            {}: {} [{class}],\n",
                op.snake, op.rust_name
            )),
            _ => text.push_str(&format!("            {}: {},\n", op.snake, op.rust_name)),
        }
    }
    text.push_str("        }\n    };\n}\n");
    text
}

#[cfg(test)]
mod tests {
    /// A spec of `count` classes, each holding the next (the chain rustc's drop check walks),
    /// and one operation using the first.
    fn chain(count: usize) -> String {
        let mut spec = String::from(
            "service:\n  name: Chain\n  namespace: urn:chain\n  path: /chain.asmx\ncredentials: []\ntypes:\n",
        );
        for i in 0..count {
            spec.push_str(&format!("  - name: C{i}\n    members:\n"));
            if i + 1 < count {
                spec.push_str(&format!("      - Next: C{}\n", i + 1));
            } else {
                spec.push_str("      - Value: int\n");
            }
        }
        spec.push_str(
            "operations:\n  - name: Echo\n    doc: Echoes.\n    params:\n      - value: C0\n    result: C0\n    bindings: [soap11, soap12]\n",
        );
        spec
    }

    fn lib_rs(count: usize) -> String {
        let files = crate::generate_from_source(&chain(count), "chain.yaml")
            .unwrap_or_else(|e| panic!("{e}"));
        files
            .into_iter()
            .find(|f| f.path == "lib.rs")
            .expect("a lib.rs")
            .contents
    }

    #[test]
    fn a_service_of_many_classes_raises_the_recursion_limit_and_a_small_one_keeps_it() {
        // 32 classes need no more than the default 128 levels; 40 need 4 each: 160, as a
        // power of two 256; 340 (the 1,500-operation bench's) 2048.
        assert!(!lib_rs(32).contains("recursion_limit"));
        assert!(lib_rs(40).contains("#![recursion_limit = \"256\"]"));
        assert!(lib_rs(340).contains("#![recursion_limit = \"2048\"]"));
    }
}
