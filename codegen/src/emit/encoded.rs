//! The RPC/encoded parts of a service with `style: rpc` (`[SoapRpcService]`): each class's
//! and enum's `Encode`/`Decode` (their values as `runtime::encoded` lays them out and reads
//! them), and each operation's SOAP encoders and decoders, which `wire.rs` puts in place of
//! the literal ones. The layout (multi-references in SOAP 1.1, inline values in SOAP 1.2) is
//! the runtime's; a type here only lists its members.

use proc_macro2::TokenStream;
use quote::quote;

use super::ident;
use crate::model::{ClassModel, EnumModel, Model, OperationModel, ParamModel, Role};
use crate::spec::SoapType;

/// A concrete class's `Encode` and `Decode`: an object named after the class, its members
/// (inherited first) as unqualified accessors.
pub(super) fn class_impls(c: &ClassModel) -> TokenStream {
    let name = ident(&c.rust);
    let wire = &c.name;
    let encodes = c.fields().map(|m| {
        let field = ident(&m.field);
        let member = &m.wire;
        quote!((#member, encoded::Encode::encode(&self.#field)),)
    });
    let element = if c.fields().next().is_none() {
        quote!(_element)
    } else {
        quote!(element)
    };
    let decodes = c.fields().map(|m| {
        let field = ident(&m.field);
        let member = &m.wire;
        quote!(#field: element.member(#member)?,)
    });
    quote! {
        /// SOAP encoding: an object of type `types:` + the class's name, its members as
        /// unqualified accessors in wire order (a null one left out).
        impl encoded::Encode for #name {
            const TYPE: encoded::TypeName = encoded::TypeName::Service(#wire);

            fn encode(&self) -> encoded::Value {
                encoded::Value::Object {
                    ty: #wire,
                    members: Vec::from([#(#encodes)*]),
                }
            }
        }

        /// SOAP encoding: an element whose `xsi:type` (or, for a multi-reference value, whose
        /// name) is absent or this class; its members by name, in any order, the first of a
        /// repeated one kept and unknown ones skipped, an absent one at its default.
        impl encoded::Decode for #name {
            const TYPE: encoded::TypeName = encoded::TypeName::Service(#wire);

            fn absent() -> Self {
                Self::default()
            }

            fn decode(element: &encoded::Element<'_, '_>) -> Result<Self, encoded::EncodedError> {
                element.check_class(#wire)?;
                Self::decode_encoded(element)
            }
        }

        impl #name {
            /// Reads its members (inherited first) from an encoded element whose class is
            /// checked.
            fn decode_encoded(
                #element: &encoded::Element<'_, '_>,
            ) -> Result<Self, encoded::EncodedError> {
                Ok(Self {
                    #(#decodes)*
                })
            }
        }
    }
}

/// The `Encode` and `Decode` of a class's `Any…` enum: the value's class names the object;
/// reading, the element's class (its `xsi:type`, or a multi-reference value's name) picks
/// the variant.
pub(super) fn any_impls(model: &Model, c: &ClassModel, index: usize, any: &str) -> TokenStream {
    let any_ident = ident(any);
    let declared = &c.name;
    let concrete: Vec<usize> = std::iter::once(index)
        .filter(|_| !c.is_abstract)
        .chain(
            c.derived
                .iter()
                .copied()
                .filter(|&d| !model.classes[d].is_abstract),
        )
        .collect();
    let names: Vec<&str> = concrete
        .iter()
        .map(|&i| model.classes[i].name.as_str())
        .collect();
    let encodes = concrete.iter().map(|&i| {
        let v = ident(&model.classes[i].rust);
        quote!(#any_ident::#v(value) => encoded::Encode::encode(value),)
    });
    let decodes = concrete.iter().map(|&i| {
        let v = ident(&model.classes[i].rust);
        let n = &model.classes[i].name;
        quote!(#n => #v::decode_encoded(element).map(#any_ident::#v),)
    });
    // Never called: every member and parameter of a class is an `Option`.
    let first = ident(&model.classes[concrete[0]].rust);
    let abstract_arm = if c.is_abstract {
        quote!(_ => Err(element.abstract_class(#declared)),)
    } else {
        quote!(_ => unreachable!("the class is one of the known ones"),)
    };
    quote! {
        /// SOAP encoding: the object of the value's class.
        impl encoded::Encode for #any_ident {
            const TYPE: encoded::TypeName = encoded::TypeName::Service(#declared);

            fn encode(&self) -> encoded::Value {
                match self {
                    #(#encodes)*
                }
            }
        }

        /// SOAP encoding: the class the element names (its `xsi:type`, or a multi-reference
        /// value's name), which must be this one or one derived from it.
        impl encoded::Decode for #any_ident {
            const TYPE: encoded::TypeName = encoded::TypeName::Service(#declared);

            fn absent() -> Self {
                #any_ident::#first(Default::default())
            }

            fn decode(element: &encoded::Element<'_, '_>) -> Result<Self, encoded::EncodedError> {
                match element.class(#declared, &[#(#names),*])? {
                    #(#decodes)*
                    #abstract_arm
                }
            }
        }
    }
}

/// An enum's `Encode` and `Decode`: a simple value of type `types:` + its name, written and
/// read by its wire names (`[SoapEnum]`'s).
pub(super) fn enum_impls(e: &EnumModel) -> TokenStream {
    let name = ident(&e.rust);
    let wire = &e.name;
    quote! {
        /// SOAP encoding: a simple value of type `types:` + the enum's name.
        impl crate::runtime::encoded::Encode for #name {
            const TYPE: crate::runtime::encoded::TypeName =
                crate::runtime::encoded::TypeName::Service(#wire);

            fn encode(&self) -> crate::runtime::encoded::Value {
                crate::runtime::encoded::simple(
                    <Self as crate::runtime::encoded::Encode>::TYPE,
                    self,
                )
            }
        }

        /// SOAP encoding: one of its wire names, exactly.
        impl crate::runtime::encoded::Decode for #name {
            const TYPE: crate::runtime::encoded::TypeName =
                crate::runtime::encoded::TypeName::Service(#wire);
            const VALUE_TYPE: bool = true;

            fn absent() -> Self {
                Self::default()
            }

            fn decode(
                element: &crate::runtime::encoded::Element<'_, '_>,
            ) -> Result<Self, crate::runtime::encoded::EncodedError> {
                element.scalar(<Self as crate::runtime::encoded::Decode>::TYPE)
            }
        }
    }
}

/// The wire code of an rpc operation, in place of the literal parts of `wire.rs`.
pub(super) struct RpcParts {
    /// `pub static RPC`.
    pub info: TokenStream,
    /// The body of `encode_request` (its checks made before).
    pub encode_request: TokenStream,
    /// The body of `decode_soap`.
    pub decode_soap: TokenStream,
    /// The body of `encode_response`.
    pub encode_response: TokenStream,
    /// The body of `decode_response`.
    pub decode_response: TokenStream,
}

pub(super) fn operation(
    model: &Model,
    op: &OperationModel,
    value: impl Fn(&ParamModel) -> TokenStream,
) -> RpcParts {
    let (request_ns, response_ns, types_ns) = (
        &op.request_namespace,
        &op.response_namespace,
        &model.service.types_namespace,
    );
    let result = if op.result == SoapType::Void {
        quote!(None)
    } else {
        let name = &op.result_name;
        quote!(Some(#name))
    };
    let info = quote! {
        /// The names of its encoded messages (`[SoapRpcMethod]`).
        pub static RPC: runtime::encoded::RpcInfo = runtime::encoded::RpcInfo {
            request_namespace: #request_ns,
            response_namespace: #response_ns,
            types_namespace: #types_ns,
            result: #result,
        };
    };
    let params = op.params.iter().map(|p| {
        let wire = &p.wire;
        let v = value(p);
        quote!((#wire, runtime::encoded::Encode::encode(&#v)),)
    });
    let encode_request = quote! {
        runtime::encoded::request(binding, &OPERATION, &RPC, &[#(#params)*])
    };
    // The request from the method element's accessors, credentials at their positions.
    let credentials = model.credentials.iter().enumerate().map(|(i, c)| {
        let field = ident(&c.field);
        match op.params.iter().find(|p| p.role == Role::Credential(i)) {
            Some(p) => {
                let wire = &p.wire;
                quote!(#field: params.member(#wire)?,)
            }
            None => quote!(#field: Default::default(),),
        }
    });
    let fields = op.business_params().map(|p| {
        let field = ident(&p.field);
        let wire = &p.wire;
        quote!(#field: params.member(#wire)?,)
    });
    let request = ident(&op.rust_name);
    let params_name = if op.params.is_empty() {
        quote!(_params)
    } else {
        quote!(params)
    };
    let decode_soap = quote! {
        runtime::encoded::read_request(binding, &OPERATION, &RPC, body, |#params_name| {
            Ok((Credentials { #(#credentials)* }, #request { #(#fields)* }))
        })
    };
    let mut members = Vec::new();
    let mut reads = Vec::new();
    if op.result == SoapType::Void {
        reads.push(quote!(result: (),));
    } else {
        let name = &op.result_name;
        members.push(quote!((#name, runtime::encoded::Encode::encode(&self.result)),));
        reads.push(quote!(result: element.member(#name)?,));
    }
    for out in &op.outs {
        let field = ident(&out.field);
        let wire = &out.wire;
        members.push(quote!((#wire, runtime::encoded::Encode::encode(&self.#field)),));
        reads.push(quote!(#field: element.member(#wire)?,));
    }
    let element_name = if op.result == SoapType::Void && op.outs.is_empty() {
        quote!(_element)
    } else {
        quote!(element)
    };
    let encode_response = quote! {
        runtime::encoded::response(binding, &OPERATION, &RPC, &[#(#members)*])
    };
    let decode_response = quote! {
        runtime::encoded::read_response(binding, &OPERATION, &RPC, response, |#element_name| {
            Ok(Self { #(#reads)* })
        })
    };
    RpcParts {
        info,
        encode_request,
        decode_soap,
        encode_response,
        decode_response,
    }
}

/// `tokens` with every `OPERATION` naming `DOCUMENTS`: an rpc operation's HTTP GET/POST code
/// is the literal one, its result documents of the `literalTypes` namespace (`DOCUMENTS` is
/// `OPERATION` but for that).
pub(super) fn over_documents(tokens: TokenStream) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    tokens
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Ident(ident) if ident == "OPERATION" => {
                TokenTree::Ident(proc_macro2::Ident::new("DOCUMENTS", ident.span()))
            }
            TokenTree::Group(group) => {
                let mut inner = Group::new(group.delimiter(), over_documents(group.stream()));
                inner.set_span(group.span());
                TokenTree::Group(inner)
            }
            other => other,
        })
        .collect()
}
