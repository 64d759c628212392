//! `credentials.rs`: the `Credentials` every call carries beside its request type.

use proc_macro2::TokenStream;
use quote::quote;

use super::{doc, ident, rust_type, type_name};
use crate::model::Model;

pub(super) fn emit(model: &Model) -> TokenStream {
    let total = model.operations.len();
    let fields = model.credentials.iter().map(|c| {
        let field = ident(&c.field);
        let ty = rust_type(model, c.ty);
        let carried = if c.required {
            format!("Sent by every operation (all {total}).")
        } else {
            format!(
                "Sent only by the {} operations that have it ({}); the others ignore it and decode it as the default.",
                c.used_by.len(),
                c.used_by.join(", ")
            )
        };
        let secret = if c.secret { " Secret: `Debug` prints it redacted." } else { "" };
        let text = format!("`{}`: SOAP `{}`. {carried}{secret}", c.wire, type_name(model, c.ty));
        let doc = doc(&text);
        quote! { #doc pub #field: #ty, }
    });
    let debug_fields = model.credentials.iter().map(|c| {
        let field = ident(&c.field);
        let wire = &c.wire;
        if !c.secret {
            quote!(.field(#wire, &self.#field))
        } else if c.ty == crate::spec::SoapType::String {
            quote!(.field(#wire, &crate::runtime::Redacted::option(&self.#field)))
        } else {
            quote!(.field(#wire, &crate::runtime::Redacted::value()))
        }
    });
    let names: Vec<String> = model
        .credentials
        .iter()
        .map(|c| format!("`{}`", c.wire))
        .collect();
    let wire_names: Vec<&str> = model.credentials.iter().map(|c| c.wire.as_str()).collect();
    let count = wire_names.len();
    let struct_doc = doc(&format!(
        "The credentials of a call: {}.\n\n\
         They are parameters on the wire, but no request type holds them: a client fills them (from a signer) \
         and the generated encoders put each at its exact position among the operation's parameters; a server \
         gets them back beside the request. A `None` string is left out over SOAP and cannot be sent \
         over HTTP GET/POST.",
        names.join(", ")
    ));
    quote! {
        //! The credentials every call carries.

        use std::fmt;

        #struct_doc
        #[derive(Clone, PartialEq, Eq, Default)]
        pub struct Credentials {
            #(#fields)*
        }

        impl Credentials {
            /// The wire names of the credentials.
            pub const WIRE_NAMES: [&'static str; #count] = [#(#wire_names),*];
        }

        impl fmt::Debug for Credentials {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct("Credentials") #(#debug_fields)* .finish()
            }
        }
    }
}
