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
    let headers = soap_headers(model);
    quote! {
        //! The credentials every call carries, and the SOAP headers a client sends.

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

        #headers
    }
}

/// `SoapHeaders`: one field per header class an operation reads.
fn soap_headers(model: &Model) -> TokenStream {
    let fields = model.sent_headers.iter().map(|h| {
        let class = &model.classes[h.class];
        let field = ident(&h.field);
        let ty = ident(class.rust_type());
        let readers: Vec<String> = model
            .operations
            .iter()
            .filter(|op| op.in_headers().any(|x| x.class == h.class))
            .map(|op| format!("`{}`", op.wire))
            .collect();
        let doc = doc(&format!(
            "The header block `{}` (`[SoapHeader]`), sent by {}.",
            class.name,
            readers.join(", ")
        ));
        quote! { #doc pub #field: Option<crate::#ty>, }
    });
    let holds_float = model.sent_headers.iter().any(|h| {
        model.holds_float(crate::spec::SoapType::Class(
            u16::try_from(h.class).expect("a class index"),
        ))
    });
    let eq = if holds_float { quote!() } else { quote!(Eq,) };
    let names: Vec<String> = model
        .sent_headers
        .iter()
        .map(|h| format!("`{}`", model.classes[h.class].name))
        .collect();
    let struct_doc = doc(&format!(
        "The SOAP headers of a call ({}): the blocks the request's Header carries, over SOAP \
         only.\n\n\
         A client sends them on each call of an operation that reads them, from its own \
         (`with_headers`), the request's where it sets one, then as its signer fills them \
         (`Signer::sign_headers`). `encode_request_with` encodes a request with exactly these.",
        if names.is_empty() {
            "none: no operation reads one".to_owned()
        } else {
            names.join(", ")
        }
    ));
    quote! {
        #struct_doc
        #[derive(Debug, Clone, PartialEq, #eq Default)]
        pub struct SoapHeaders {
            #(#fields)*
        }
    }
}
