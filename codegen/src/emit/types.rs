//! `types.rs`: one request type and one response type per operation.

use proc_macro2::TokenStream;
use quote::quote;

use super::{doc, ident, type_name, value_type};
use crate::model::{Model, OperationModel, Role};
use crate::spec::SoapType;

pub(super) fn emit(model: &Model) -> TokenStream {
    let items = model.operations.iter().map(|op| {
        let request = request_type(model, op);
        let response = response_type(op);
        quote!(#request #response)
    });
    // `fmt` is only needed by the hand-written `Debug` of types holding a secret.
    let any_secret = model
        .operations
        .iter()
        .any(|op| op.business_params().any(|p| p.secret));
    let uses = if any_secret {
        quote!(
            use std::fmt;
        )
    } else {
        quote!()
    };
    quote! {
        //! Request and response types, one pair per operation, in the interface document's order.

        #uses

        #(#items)*
    }
}

fn request_type(model: &Model, op: &OperationModel) -> TokenStream {
    let name = ident(&op.wire);
    let total = op.params.len();
    let credentials: Vec<String> = op
        .params
        .iter()
        .filter_map(|p| match p.role {
            Role::Credential(_) => Some(format!("`{}` ({})", p.wire, p.position)),
            Role::Business => None,
        })
        .collect();
    let business = op.business_params().count();
    let text = format!(
        "`{wire}`, operation {number} of `{service}`: {doc}\n\n\
         The request's {business} business parameters. Its credentials {creds} travel in [`Credentials`](crate::Credentials); \
         the wire carries all {total} parameters in the order their positions give. A `None` string \
         leaves its element out over SOAP (the host reads null); HTTP GET/POST send every parameter, \
         so `None` cannot be encoded there.\n\n\
         Encode with [`encode_request`](Self::encode_request) (client), decode with \
         [`decode_request`](Self::decode_request) (server); the result is [`{response}`].",
        wire = op.wire,
        number = op.number,
        service = model.service.name,
        doc = op.doc,
        creds = credentials.join(", "),
        response = op.response_type,
    );
    let struct_doc = doc(&text);
    let fields = op.business_params().map(|p| {
        let field = ident(&p.field);
        let ty = value_type(p.ty, p.nullable);
        let secret = if p.secret {
            " Secret: `Debug` prints it redacted."
        } else {
            ""
        };
        let nullable = if p.nullable {
            " Nullable: `None` is sent as `xsi:nil`."
        } else {
            ""
        };
        let doc = doc(&format!(
            "`{}`: SOAP `{}`, position {} of {total}.{nullable}{secret}",
            p.wire,
            type_name(p.ty),
            p.position,
        ));
        quote! { #doc pub #field: #ty, }
    });
    let has_secret = op.business_params().any(|p| p.secret);
    let (derives, debug_impl) = if has_secret {
        let wire = &op.wire;
        let debug_fields = op.business_params().map(|p| {
            let field = ident(&p.field);
            let name = &p.wire;
            match (p.secret, p.ty) {
                (false, _) => quote!(.field(#name, &self.#field)),
                (true, SoapType::String) => {
                    quote!(.field(#name, &crate::runtime::Redacted::option(&self.#field)))
                }
                (true, _) => quote!(.field(#name, &crate::runtime::Redacted::value())),
            }
        });
        (
            derives(op.business_params().map(|p| p.ty), false),
            quote! {
                impl fmt::Debug for #name {
                    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.debug_struct(#wire) #(#debug_fields)* .finish()
                    }
                }
            },
        )
    } else {
        (derives(op.business_params().map(|p| p.ty), true), quote!())
    };
    quote! {
        #struct_doc
        #derives
        pub struct #name {
            #(#fields)*
        }

        #debug_impl
    }
}

fn response_type(op: &OperationModel) -> TokenStream {
    let name = ident(&op.response_type);
    let struct_doc = doc(&format!(
        "The response of [`{wire}`]: the element `{response}` holding `{result}`.\n\n\
         Encode with [`encode_response`](Self::encode_response) (server), decode with \
         [`decode_response`](Self::decode_response) (client).",
        wire = op.wire,
        response = op.response_name,
        result = op.result_name,
    ));
    let field_doc = doc(&match op.result {
        SoapType::String => format!(
            "`{}`: SOAP `string`. `None` when the host sends no result element (SOAP) or `xsi:nil` (HTTP GET/POST).",
            op.result_name
        ),
        ty if op.result_nullable => format!(
            "`{}`: SOAP `{}`, nullable: `None` when the host sends `xsi:nil` (or no result element).",
            op.result_name,
            type_name(ty)
        ),
        ty => format!("`{}`: SOAP `{}`.", op.result_name, type_name(ty)),
    });
    let ty = value_type(op.result, op.result_nullable);
    let derives = derives([op.result].into_iter(), true);
    quote! {
        #struct_doc
        #derives
        pub struct #name {
            #field_doc
            pub result: #ty,
        }
    }
}

/// The derives of a type holding values of `types`: `Eq` only without a float, whose NaN is
/// not equal to itself; `Debug` unless the type writes its own.
fn derives(mut types: impl Iterator<Item = SoapType>, debug: bool) -> TokenStream {
    let eq = if types.any(|t| matches!(t, SoapType::Float | SoapType::Double)) {
        quote!()
    } else {
        quote!(Eq,)
    };
    let debug = if debug { quote!(Debug,) } else { quote!() };
    quote!(#[derive(#debug Clone, PartialEq, #eq Default)])
}
