//! `types.rs`: one request type and one response type per operation.

use proc_macro2::TokenStream;
use quote::quote;

use super::{doc, ident, type_name, value_type};
use crate::model::{EnumModel, Model, OperationModel, Role};
use crate::spec::SoapType;

pub(super) fn emit(model: &Model) -> TokenStream {
    let enums = model.enums.iter().enumerate().map(|(i, e)| {
        // An enum that is an array's item, or that an `object` may hold, is written and
        // read as one (`XmlItem`).
        let item = model.object.is_some()
            || model
                .arrays
                .iter()
                .any(|a| a.item == SoapType::Enum(i as u16));
        let encoded = if model.service.rpc && !e.flags {
            super::encoded::enum_impls(e)
        } else {
            quote!()
        };
        let ty = enum_type(e, item);
        quote!(#ty #encoded)
    });
    let items = model.operations.iter().map(|op| {
        let request = request_type(model, op);
        let response = response_type(model, op);
        let fault = fault_type(model, op);
        quote!(#request #response #fault)
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
        //! The service's enums, then the request and response types, one pair per operation, in
        //! the spec's order.

        #uses

        #(#enums)*

        #(#items)*
    }
}

fn request_type(model: &Model, op: &OperationModel) -> TokenStream {
    let name = ident(&op.rust_name);
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
         The request's {business} business parameters. {creds}\
         The wire carries all {total} parameters in the order their positions give. A `None` string \
         leaves its element out over SOAP (the host reads null); HTTP GET/POST send every parameter, \
         so `None` cannot be encoded there.\n\n\
         Encode with [`encode_request`](Self::encode_request) (client), decode with \
         [`decode_request`](Self::decode_request) (server); the result is [`{response}`].",
        wire = op.wire,
        number = op.number,
        service = model.service.name,
        doc = op.doc,
        creds = if credentials.is_empty() {
            String::new()
        } else {
            format!(
                "Its credentials {} travel in [`Credentials`](crate::Credentials). ",
                credentials.join(", ")
            )
        },
        response = op.response_type,
    );
    let struct_doc = doc(&text);
    let fields = op.business_params().map(|p| {
        let field = ident(&p.field);
        let ty = value_type(model, p.ty, p.nullable);
        let secret = if p.secret {
            " Secret: `Debug` prints it redacted."
        } else {
            ""
        };
        let nullable = if p.nullable {
            " Nullable: `None` is sent as `xsi:nil`."
        } else if p.nillable {
            " Named after its class's root (`[XmlRoot]`), and nillable: `None` is sent as \
             `xsi:nil`, and read from it."
        } else {
            ""
        };
        let doc = doc(&format!(
            "`{}`: SOAP `{}`, position {} of {total}.{nullable}{secret}",
            p.wire,
            type_name(model, p.ty),
            p.position,
        ));
        quote! { #doc pub #field: #ty, }
    });
    // The SOAP headers it reads: blocks of the request's Header, none over HTTP GET/POST.
    let header_fields = op.in_headers().map(|h| header_field(model, h, "request"));
    let fields = fields.chain(header_fields);
    let has_secret = op.business_params().any(|p| p.secret);
    let (derives, debug_impl) = if has_secret {
        let wire = &op.wire;
        let debug_fields = op.business_params().map(|p| {
            let field = ident(&p.field);
            let name = &p.wire;
            match (p.secret, p.ty) {
                (false, _) => quote!(.field(#name, &self.#field)),
                (true, SoapType::String | SoapType::Base64Binary) => {
                    quote!(.field(#name, &crate::runtime::Redacted::option(&self.#field)))
                }
                (true, _) => quote!(.field(#name, &crate::runtime::Redacted::value())),
            }
        });
        let header_debug = op.in_headers().map(|h| {
            let field = ident(&h.field);
            let name = &h.wire;
            quote!(.field(#name, &self.#field))
        });
        let debug_fields = debug_fields.chain(header_debug);
        (
            derives(model, request_types(op), false),
            quote! {
                impl fmt::Debug for #name {
                    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.debug_struct(#wire) #(#debug_fields)* .finish()
                    }
                }
            },
        )
    } else {
        (derives(model, request_types(op), true), quote!())
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

fn response_type(model: &Model, op: &OperationModel) -> TokenStream {
    let name = ident(&op.response_type);
    let struct_doc = doc(&format!(
        "The response of [`{wire}`]: the element `{response}` holding `{result}`.\n\n\
         Encode with [`encode_response`](Self::encode_response) (server), decode with \
         [`decode_response`](Self::decode_response) (client).",
        wire = op.rust_name,
        response = op.response_name,
        result = op.result_name,
    ));
    let field_doc = doc(&match op.result {
        SoapType::Void => "Nothing: the operation returns no result (.NET `void`), and its \
                           response carries none."
            .to_owned(),
        SoapType::String => format!(
            "`{}`: SOAP `string`. `None` when the host sends no result element (SOAP) or `xsi:nil` (HTTP GET/POST).",
            op.result_name
        ),
        ty if op.result_nullable => format!(
            "`{}`: SOAP `{}`, nullable: `None` when the host sends `xsi:nil` (or no result element).",
            op.result_name,
            type_name(model, ty)
        ),
        ty if op.result_nillable => format!(
            "`{}`: SOAP `{}`, named after its class's root (`[XmlRoot]`), and nillable: `None` \
             is sent as `xsi:nil`, and read from it (or from no result element).",
            op.result_name,
            type_name(model, ty)
        ),
        ty => format!("`{}`: SOAP `{}`.", op.result_name, type_name(model, ty)),
    });
    let ty = value_type(model, op.result, op.result_nullable);
    let derives = derives(
        model,
        std::iter::once(op.result)
            .chain(op.outs.iter().map(|o| o.ty))
            .chain(op.out_headers().map(|h| class_type(h.class))),
        true,
    );
    // The out and ref parameters, after the result, as the response element holds them.
    let outs = op.outs.iter().map(|o| {
        let field = ident(&o.field);
        let ty = super::members::member_type(model, o);
        let text = format!(
            "An out or ref parameter: {}",
            super::members::member_doc(model, o)
        );
        let d = doc(&text);
        quote!(#d pub #field: #ty,)
    });
    // The SOAP headers it writes: blocks of the response's Header.
    let headers = op.out_headers().map(|h| header_field(model, h, "response"));
    quote! {
        #struct_doc
        #derives
        pub struct #name {
            #field_doc
            pub result: #ty,
            #(#outs)*
            #(#headers)*
        }
    }
}

/// The fault type of an operation with `Fault` headers: the fault and the headers written
/// with it.
fn fault_type(model: &Model, op: &OperationModel) -> TokenStream {
    let Some(name) = &op.fault_type else {
        return quote!();
    };
    let name = ident(name);
    let struct_doc = doc(&format!(
        "A refusal of [`{wire}`]: the fault, and the SOAP headers the operation writes with \
         it (`SoapHeaderDirection.Fault`), in the fault's Header.\n\n\
         Encode with [`encode_response`](Self::encode_response) (server), read from a fault \
         the service answered with [`from_response_error`](Self::from_response_error) \
         (client); a [`Fault`](crate::runtime::Fault) converts into one without headers.",
        wire = op.rust_name,
    ));
    let headers = op.fault_headers().map(|h| header_field(model, h, "fault"));
    let fields = op.fault_headers().map(|h| ident(&h.field));
    quote! {
        #struct_doc
        #[derive(Debug, Clone, PartialEq)]
        pub struct #name {
            /// The fault.
            pub fault: crate::runtime::Fault,
            #(#headers)*
        }

        impl From<crate::runtime::Fault> for #name {
            /// The fault, without headers.
            fn from(fault: crate::runtime::Fault) -> Self {
                #name {
                    fault,
                    #(#fields: None,)*
                }
            }
        }
    }
}

/// The field of a SOAP header in the request or the response (`message`).
fn header_field(model: &Model, h: &crate::model::HeaderModel, message: &str) -> TokenStream {
    let field = ident(&h.field);
    let class = &model.classes[h.class];
    let ty = ident(class.rust_type());
    let direction = match h.direction {
        crate::spec::HeaderDirection::In => "In",
        crate::spec::HeaderDirection::Out => "Out",
        crate::spec::HeaderDirection::InOut => "InOut",
        crate::spec::HeaderDirection::Fault => "Fault",
    };
    let namespace = match &class.namespace {
        Some(ns) => format!("in its namespace `{ns}`"),
        None => "in the service namespace".to_owned(),
    };
    // A fault's header is boxed: the fault type is an error, which stays small to return.
    let boxed = h.direction.on_fault();
    let doc = doc(&format!(
        "The SOAP header `{}` (`{}`, `[SoapHeader]`, direction `{direction}`): a block of the \
         SOAP {message}'s Header, {namespace}; `None` sends none, and reads as no block. HTTP \
         GET/POST carry no header: there it is `None`.{}",
        h.wire,
        class.name,
        if boxed {
            " Boxed: the fault type stays small."
        } else {
            ""
        }
    ));
    if boxed {
        quote! { #doc pub #field: Option<Box<crate::#ty>>, }
    } else {
        quote! { #doc pub #field: Option<crate::#ty>, }
    }
}

/// The derives of a type holding values of `types`: `Eq` only without a float, whose NaN is
/// not equal to itself; `Debug` unless the type writes its own.
/// The types a request holds: its business parameters' and its headers' classes.
fn request_types(op: &OperationModel) -> impl Iterator<Item = SoapType> + '_ {
    op.business_params()
        .map(|p| p.ty)
        .chain(op.in_headers().map(|h| class_type(h.class)))
}

/// The type of a class, by its index.
fn class_type(class: usize) -> SoapType {
    SoapType::Class(u16::try_from(class).expect("a class index"))
}

fn derives(model: &Model, mut types: impl Iterator<Item = SoapType>, debug: bool) -> TokenStream {
    let eq = if types.any(|t| model.holds_float(t)) {
        quote!()
    } else {
        quote!(Eq,)
    };
    let debug = if debug { quote!(Debug,) } else { quote!() };
    quote!(#[derive(#debug Clone, PartialEq, #eq Default)])
}

/// `XmlItem` for an enum or flags type that is an array's item: `<Level>High</Level>`.
fn item_impl(name: &proc_macro2::Ident) -> TokenStream {
    quote! {
        /// An item of an array.
        impl crate::runtime::tree::XmlItem for #name {
            fn write_element<N: crate::runtime::tree::ElementName, I: crate::runtime::tree::ElementName>(
                &self,
                w: &mut crate::runtime::tree::XmlOut<'_>,
                name: N,
                _items: &'static [I],
            ) -> Result<(), crate::EncodeError> {
                w.scalar(name, self);
                Ok(())
            }

            fn read_element(
                node: &crate::runtime::tree::Node,
                _items: &'static [&'static str],
            ) -> Result<Self, crate::runtime::tree::MemberError> {
                node.scalar("")
            }

            fn read_streamed(
                element: &mut crate::runtime::tree::Streamed<'_, '_>,
                _items: &'static [&'static str],
            ) -> Result<Self, crate::runtime::tree::Fallback> {
                element.scalar()
            }
        }
    }
}

/// A `[Flags]` enum of the spec: a set of flags (`bitflags`), bit `i` the `i`th value but the
/// zero one, written as XmlSerializer writes a flags value (the names, space-separated) and
/// over HTTP GET/POST as `Enum.ToString` (member names, comma-separated).
fn flags_type(e: &EnumModel, item: bool) -> TokenStream {
    let name = ident(&e.rust);
    let enum_name = &e.name;
    let flags: Vec<(usize, &(String, String))> = e
        .values
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != e.zero)
        .collect();
    let wire_names: Vec<&String> = flags.iter().map(|(_, (w, _))| w).collect();
    let member_names: Vec<&String> = flags.iter().map(|(i, _)| &e.members[*i]).collect();
    let all: Vec<&String> = e.values.iter().map(|(w, _)| w).collect();
    // Every value's .NET member name, in the same order: what HTTP GET/POST read.
    let all_members = &e.members;
    let count = proc_macro2::Literal::usize_unsuffixed(flags.len());
    let all_count = proc_macro2::Literal::usize_unsuffixed(all.len());
    let consts = flags.iter().enumerate().map(|(bit, (i, (wire, _)))| {
        let konst = ident(&e.flag_consts[*i]);
        let member = &e.members[*i];
        let d = if member == wire {
            doc(&format!("`{wire}`."))
        } else {
            doc(&format!(
                "`{wire}`; the .NET member `{member}` over HTTP GET/POST."
            ))
        };
        let bit = proc_macro2::Literal::u32_unsuffixed(bit as u32);
        quote!(#d const #konst = 1 << #bit;)
    });
    let (zero, zero_member) = match e.zero {
        Some(z) => {
            let (w, m) = (&e.values[z].0, &e.members[z]);
            (quote!(Some(#w)), quote!(Some(#m)))
        }
        None => (quote!(None), quote!(None)),
    };
    let mut text = format!(
        "`{}`: a `[Flags]` enum of the service (an `xs:list` of its values): a set of flags, on \
         the wire their names separated by spaces, in declaration order.",
        e.name
    );
    if let Some(z) = e.zero {
        text.push_str(&format!(" No flag is written `{}`.", e.values[z].0));
    }
    if let Some(d) = &e.doc {
        text.push_str("\n\n");
        text.push_str(d.trim());
    }
    text.push_str(
        "\n\nOver HTTP GET/POST a value travels as its .NET member names joined by commas, as \
         ASMX reads it there with `Enum.Parse`.",
    );
    let flags_doc = doc(&text);
    let room: usize = all.iter().map(|w| w.len() + 2).sum::<usize>()
        + e.members.iter().map(|m| m.len() + 2).sum::<usize>();
    let item_impl = if item { item_impl(&name) } else { quote!() };
    quote! {
        crate::runtime::deps::bitflags::bitflags! {
            #flags_doc
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
            pub struct #name: u64 {
                #(#consts)*
            }
        }

        impl #name {
            /// Each flag's wire name, bit `i` the `i`th.
            pub const WIRE_NAMES: [&'static str; #count] = [#(#wire_names),*];
            /// Each flag's .NET member name, bit `i` the `i`th: its spelling over HTTP GET/POST.
            pub const MEMBER_NAMES: [&'static str; #count] = [#(#member_names),*];
            /// The wire name of the value with no flag, if the enum has one.
            pub const ZERO: Option<&'static str> = #zero;
            /// Its .NET member name.
            pub const ZERO_MEMBER: Option<&'static str> = #zero_member;
            /// Every value's wire name, in the WSDL's order (for errors).
            const ALL_NAMES: [&'static str; #all_count] = [#(#all),*];
            /// Every value's .NET member name, in the same order (for errors over HTTP GET/POST).
            const ALL_MEMBER_NAMES: [&'static str; #all_count] = [#(#all_members),*];
        }

        impl crate::runtime::Scalar for #name {
            const TYPE: crate::runtime::SoapType = crate::runtime::SoapType::Enum(#enum_name);
            const ROOM: usize = #room;

            fn write_xml(&self, out: &mut String) {
                crate::runtime::value::flags::write_list(out, self.bits(), &Self::WIRE_NAMES, Self::ZERO);
            }

            fn write_form(&self, out: &mut String) {
                let mut text = String::new();
                crate::runtime::value::flags::write_members(&mut text, self.bits(), &Self::MEMBER_NAMES, Self::ZERO_MEMBER);
                crate::runtime::form::FormWriter::push_encoded(out, &text);
            }

            /// Flag names separated by XML white space, repeats merged, as XmlSerializer reads
            /// them.
            fn read_xml(text: &str) -> Result<Self, crate::ValueError> {
                crate::runtime::value::flags::read_list(text, &Self::WIRE_NAMES, Self::ZERO, &Self::ALL_NAMES)
                    .map(Self::from_bits_retain)
            }

            /// .NET member names joined by commas, as `Enum.Parse` reads them.
            fn read_form(text: &str) -> Result<Self, crate::ValueError> {
                crate::runtime::value::flags::read_members(text, &Self::MEMBER_NAMES, Self::ZERO_MEMBER, &Self::ALL_MEMBER_NAMES)
                    .map(Self::from_bits_retain)
            }

            fn param_value(&self) -> crate::runtime::ParamValue<'_> {
                crate::runtime::ParamValue::Flags {
                    ty: #enum_name,
                    bits: self.bits(),
                    names: &Self::WIRE_NAMES,
                    zero: Self::ZERO,
                }
            }
        }

        #item_impl
    }
}

/// One enum of the spec: the Rust enum, its wire spellings, and how the wire reads and writes
/// it (`runtime::Scalar`).
fn enum_type(e: &EnumModel, item: bool) -> TokenStream {
    if e.flags {
        return flags_type(e, item);
    }
    let name = ident(&e.rust);
    let wire_list: Vec<String> = e
        .values
        .iter()
        .map(|(wire, _)| format!("`{wire}`"))
        .collect();
    let mut text = format!(
        "`{}`: an enum of the service (`xs:simpleType` restricting `xs:string`); on the wire {}.",
        e.name,
        wire_list.join(", ")
    );
    if let Some(d) = &e.doc {
        text.push_str("\n\n");
        text.push_str(d.trim());
    }
    text.push_str(
        "\n\nThe first value is the default, which an ASMX host reads for an absent element.",
    );
    let struct_doc = doc(&text);
    let count = proc_macro2::Literal::usize_unsuffixed(e.values.len());
    let variants: Vec<_> = e.values.iter().map(|(_, v)| ident(v)).collect();
    let wires: Vec<&String> = e.values.iter().map(|(w, _)| w).collect();
    let members = &e.members;
    let declared =
        e.values
            .iter()
            .zip(members)
            .enumerate()
            .map(|(i, ((wire, variant), member))| {
                let variant = ident(variant);
                let doc = if member == wire {
                    doc(&format!("`{wire}`."))
                } else {
                    doc(&format!(
                        "`{wire}`; the .NET member `{member}` over HTTP GET/POST."
                    ))
                };
                let default = if i == 0 { quote!(#[default]) } else { quote!() };
                quote!(#doc #default #variant,)
            });
    // The longest spelling: a wire name (XML) or a member name (GET/POST).
    let room = e
        .values
        .iter()
        .map(|(w, _)| w.len())
        .chain(e.members.iter().map(String::len))
        .max()
        .unwrap_or(0);
    let enum_name = &e.name;
    let item_impl = if item {
        quote! {
            /// An item of an array: `<Level>High</Level>`.
            impl crate::runtime::tree::XmlItem for #name {
                fn write_element<N: crate::runtime::tree::ElementName, I: crate::runtime::tree::ElementName>(
                    &self,
                    w: &mut crate::runtime::tree::XmlOut<'_>,
                    name: N,
                    _items: &'static [I],
                ) -> Result<(), crate::EncodeError> {
                    w.scalar(name, self);
                    Ok(())
                }

                fn read_element(
                    node: &crate::runtime::tree::Node,
                    _items: &'static [&'static str],
                ) -> Result<Self, crate::runtime::tree::MemberError> {
                    node.scalar("")
                }

                fn read_streamed(
                    element: &mut crate::runtime::tree::Streamed<'_, '_>,
                    _items: &'static [&'static str],
                ) -> Result<Self, crate::runtime::tree::Fallback> {
                    element.scalar()
                }
            }
        }
    } else {
        quote!()
    };
    quote! {
        #struct_doc
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub enum #name {
            #(#declared)*
        }

        impl #name {
            /// Every value, in the WSDL's order.
            pub const ALL: [#name; #count] = [#(#name::#variants),*];
            /// The wire spelling of each value of [`Self::ALL`] (SOAP and every result).
            pub const WIRE_NAMES: [&'static str; #count] = [#(#wires),*];
            /// The .NET member name of each value of [`Self::ALL`]: its spelling as an HTTP
            /// GET/POST parameter, which ASMX reads with `Enum.Parse`.
            pub const MEMBER_NAMES: [&'static str; #count] = [#(#members),*];

            /// The value as the wire spells it.
            pub const fn wire_name(self) -> &'static str {
                match self {
                    #(#name::#variants => #wires,)*
                }
            }

            /// The value's .NET member name.
            pub const fn member_name(self) -> &'static str {
                match self {
                    #(#name::#variants => #members,)*
                }
            }
        }

        impl crate::runtime::Scalar for #name {
            const TYPE: crate::runtime::SoapType = crate::runtime::SoapType::Enum(#enum_name);
            const ROOM: usize = #room;

            fn write_xml(&self, out: &mut String) {
                out.push_str(self.wire_name());
            }

            fn write_form(&self, out: &mut String) {
                crate::runtime::form::FormWriter::push_encoded(out, self.member_name());
            }

            /// Exactly a wire spelling, as XmlSerializer reads an enum.
            fn read_xml(text: &str) -> Result<Self, crate::ValueError> {
                crate::runtime::value::enum_value(text, &Self::ALL, &Self::WIRE_NAMES)
            }

            /// A .NET member name, exactly (`Enum.Parse` is case-sensitive) but trimmed as
            /// `Enum.Parse` trims; the numbers and comma lists it also reads are refused.
            fn read_form(text: &str) -> Result<Self, crate::ValueError> {
                crate::runtime::value::enum_value(text.trim(), &Self::ALL, &Self::MEMBER_NAMES)
            }

            fn param_value(&self) -> crate::runtime::ParamValue<'_> {
                crate::runtime::ParamValue::Enum { ty: #enum_name, value: self.wire_name() }
            }
        }

        #item_impl
    }
}
