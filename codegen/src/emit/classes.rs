//! `classes.rs`: one struct per class of the spec, and how XmlSerializer writes and reads it
//! (`runtime::tree::XmlItem`); each member's part of that is `members.rs`'s.

use proc_macro2::TokenStream;
use quote::quote;

use super::members::{
    default_expr, member_doc, member_plain_read, member_read, member_type, member_write,
    seen_flags, unless_default,
};
use super::{doc, ident};
use crate::model::{ClassModel, Model};
use crate::spec::SoapType;

pub(super) fn emit(model: &Model) -> TokenStream {
    let classes = model.classes.iter().map(|c| class(model, c));
    // An rpc service's classes are SOAP-encoded too (`encoded.rs`).
    let encoded_use = if model.service.rpc {
        quote!(
            use crate::runtime::encoded;
        )
    } else {
        quote!()
    };
    quote! {
        //! The service's classes (`xs:complexType`), in the spec's order: each a struct whose
        //! fields are its members in wire order, written and read as XmlSerializer writes and
        //! reads the .NET class.

        // The runtime's class codec by its module's name: a class may be named `Node`.
        use crate::runtime::tree;
        // A class reads its members from a value tree or the message alike.
        use crate::runtime::tree::Member as _;
        #encoded_use
        use crate::runtime::EncodeError;

        #(#classes)*
    }
}

fn class(model: &Model, c: &ClassModel) -> TokenStream {
    let index = model
        .classes
        .iter()
        .position(|other| other.name == c.name)
        .expect("a class of the model");
    let rpc = model.service.rpc;
    let concrete = if c.is_abstract {
        quote!()
    } else {
        let class = concrete_class(model, c, index);
        let conversions = base_conversions(model, c);
        let encoded = if rpc {
            super::encoded::class_impls(c)
        } else {
            quote!()
        };
        quote!(#class #conversions #encoded)
    };
    let any = match &c.any_type {
        Some(any) if rpc => {
            let literal = any_enum(model, c, index, any);
            let encoded = super::encoded::any_impls(model, c, index, any);
            quote!(#literal #encoded)
        }
        Some(any) => any_enum(model, c, index, any),
        None => quote!(),
    };
    let choices = super::choices::enums(model, index);
    quote!(#concrete #any #choices)
}

/// A derived class is a flat struct, its inherited members first: for each of its bases that
/// has a struct (not abstract, not a SOAP header), `From` the derived class to the base (its
/// base part, the rest dropped) and from the base to the derived class (its own members at
/// their defaults, so `Derived { own: …, ..base.into() }` builds one).
fn base_conversions(model: &Model, c: &ClassModel) -> TokenStream {
    if c.header {
        return quote!();
    }
    let derived = ident(&c.rust);
    let mut out = TokenStream::new();
    let mut next = c.base;
    while let Some(index) = next {
        let base = &model.classes[index];
        next = base.base;
        if base.is_abstract || base.header {
            continue;
        }
        // The base's attributes and members are the derived class's first, in order; their
        // Rust names may differ (numbered apart from the derived class's own).
        let mut pairs: Vec<(&str, &str)> = base
            .attributes
            .iter()
            .zip(&c.attributes)
            .map(|(b, d)| (b.field.as_str(), d.field.as_str()))
            .collect();
        pairs.extend(
            base.fields()
                .zip(c.fields())
                .map(|(b, d)| (b.field.as_str(), d.field.as_str())),
        );
        if let (Some(b), Some(d)) = (&base.any_attribute, &c.any_attribute) {
            pairs.push((b.field.as_str(), d.field.as_str()));
        }
        let base_name = ident(&base.rust);
        let base_fields: Vec<_> = pairs.iter().map(|(b, _)| ident(b)).collect();
        let derived_fields: Vec<_> = pairs.iter().map(|(_, d)| ident(d)).collect();
        let to_base = doc(&format!(
            "The `{}` part of a `{}`: the members it inherits; its own are dropped.",
            base.name, c.name
        ));
        let from_base = doc(&format!(
            "A `{}` whose `{}` part is `value`, its own members at their defaults: \
             `{} {{ …, ..value.into() }}` sets them.",
            c.name, base.name, c.rust
        ));
        let rest = if derived_fields.len()
            == c.attributes.len() + c.fields().count() + usize::from(c.any_attribute.is_some())
        {
            quote!()
        } else {
            quote!(..Default::default())
        };
        out.extend(quote! {
            #to_base
            impl From<#derived> for #base_name {
                fn from(value: #derived) -> Self {
                    Self { #(#base_fields: value.#derived_fields,)* }
                }
            }

            #from_base
            impl From<#base_name> for #derived {
                fn from(value: #base_name) -> Self {
                    Self { #(#derived_fields: value.#base_fields,)* #rest }
                }
            }
        });
    }
    out
}

/// `Eq` where no value of the class holds a float.
fn eq_derive(model: &Model, index: usize) -> TokenStream {
    if model.holds_float(SoapType::Class(index as u16)) {
        quote!()
    } else {
        quote!(Eq,)
    }
}

/// A class of which values exist: its struct (every member, inherited first), how its members
/// are written and read, and how an element declared of it is.
fn concrete_class(model: &Model, c: &ClassModel, index: usize) -> TokenStream {
    let name = ident(&c.rust);
    let wire_name = &c.name;
    let mut text = format!(
        "`{}`: a class of the service (`xs:complexType`), its members a sequence of elements in \
         this order.",
        c.name
    );
    if let Some(base) = c.base {
        text.push_str(&format!(
            " It derives from `{}` (`complexContent/extension`): the first fields are the \
             members it inherits.",
            model.classes[base].name
        ));
    }
    if let Some(d) = &c.doc {
        text.push_str("\n\n");
        text.push_str(d.trim());
    }
    text.push_str(
        "\n\nAn ASMX host reads the members in any order, keeps the first of a repeated one (the \
         last of a repeated array) and skips unknown elements; rmm reads them the same way.",
    );
    if let Some(any) = &c.any_type {
        text.push_str(&format!(
            " An element declared of this class may hold a derived one's value: its Rust type \
             is [`{any}`]."
        ));
    }
    let struct_doc = doc(&text);
    // Attributes first, then the text, then the elements: the order they are written in.
    let attribute_fields = c.attributes.iter().map(|a| {
        let field = ident(&a.field);
        let ty = super::value_type(model, a.ty, a.optional);
        let defaulted;
        let occurs = if let Some(default) = &a.default {
            let default = if default.is_empty() { "\"\"" } else { default };
            defaulted = format!(
                "its default `{default}` (`[DefaultValue]`): a value equal to it is left out, \
                 and an absent one reads as it"
            );
            defaulted.as_str()
        } else if a.ty.is_reference() {
            "optional: `None` leaves it out, and an absent one reads as `None`"
        } else if a.optional {
            "optional (no `use`, .NET's `xxxSpecified`): `None` leaves it out, and an absent \
             one reads as `None`"
        } else {
            "always written (`use=\"required\"`); an absent one reads as the default"
        };
        let xsd = a.data_type.as_deref().unwrap_or(model.type_name(a.ty));
        // The schema type as the WSDL names it: an enum is the service's.
        let prefix = if matches!(a.ty, SoapType::Enum(_)) {
            "tns"
        } else {
            "xs"
        };
        let mut text = match a.qualified_namespace() {
            Some(ns) => format!(
                "The attribute `{}` of the namespace `{ns}` (`[XmlAttribute(Form = \
                 XmlSchemaForm.Qualified)]`, `form=\"qualified\"`): `{prefix}:{xsd}`, {occurs}. It \
                 is written with a prefix bound to its namespace, which .NET's writer makes up \
                 where none is (`d3p1`, declared after the attributes; the elements of that \
                 namespace inside take it too), and read only in that namespace.",
                a.wire
            ),
            None => format!(
                "The attribute `{}` (`[XmlAttribute]`): `{prefix}:{xsd}`, {occurs}.",
                a.attribute_name()
            ),
        };
        if a.data_type.is_some() {
            text.push_str(&format!(
                " .NET reads an `xs:{xsd}` as a string, trimmed (`DataType = \"{xsd}\"`)."
            ));
        }
        let doc = doc(&text);
        quote!(#doc pub #field: #ty,)
    });
    let text_field = c.text.iter().map(|t| {
        let field = ident(&t.field);
        let doc = doc(
            "The element's text (`[XmlText]`, `simpleContent`): `None` writes none, and an \
             element without text reads as `None`.",
        );
        quote!(#doc pub #field: Option<String>,)
    });
    let fields = c.fields().map(|m| {
        let field = ident(&m.field);
        let ty = member_type(model, m);
        let mut text = member_doc(model, m);
        if m.unqualified {
            text.push_str(&format!(
                " An element of no namespace (`form=\"unqualified\"`): written `<{} \
                 xmlns=\"\">`, and read only from an element of none.",
                m.wire
            ));
        }
        let doc = doc(&text);
        quote!(#doc pub #field: #ty,)
    });
    // A header's block attributes, after its members.
    let soap_field = c.header.then(|| {
        let doc = doc(
            "The header block's attributes, as .NET's `SoapHeader` base class carries them \
             (`soap:mustUnderstand`, `soap:actor` / `soap:role`, `soap:relay`): read from the \
             block, written on it when set.",
        );
        let soap = ident(crate::model::HEADER_ATTRIBUTES_FIELD);
        quote!(#doc pub #soap: crate::runtime::HeaderAttributes,)
    });
    let any_attribute_field = c.any_attribute.iter().map(|a| {
        let field = ident(&a.field);
        let doc = doc(&format!(
            "`{}` (`[XmlAnyAttribute]`, `<s:anyAttribute />`): every attribute of the element \
             that no attribute member takes (of a namespace, `xsi:type`, `xml:lang` and \
             attributes of no namespace alike, namespace declarations aside), in order, each \
             with its prefix, namespace and value; written after the others, each prefix not \
             in scope declared after them.",
            a.name
        ));
        quote!(#doc pub #field: Vec<crate::runtime::raw_xml::XmlAttribute>,)
    });
    let fields = attribute_fields
        .chain(text_field)
        .chain(any_attribute_field)
        .chain(fields)
        .chain(soap_field);
    let eq = eq_derive(model, index);
    let attribute_writes = c.attributes.iter().map(|a| {
        let field = ident(&a.field);
        let wire = a.attribute_name();
        let local = &a.wire;
        // A value equal to its default (`[DefaultValue]`) is left out, as XmlSerializer
        // leaves it out.
        if a.default.is_some() {
            let write = if a.ty.is_reference() {
                quote!(w.attribute_string(#wire, self.#field.as_ref())?;)
            } else {
                quote!(w.attribute_scalar(#wire, &self.#field);)
            };
            return unless_default(model, a, write);
        }
        if a.ty.is_reference() {
            return match a.qualified_namespace() {
                Some(ns) => {
                    quote!(w.qualified_attribute_string(#ns, #local, self.#field.as_ref())?;)
                }
                None => quote!(w.attribute_string(#wire, self.#field.as_ref())?;),
            };
        }
        // An optional value is written where it is `Some`.
        let value = if a.optional {
            quote!(value)
        } else {
            quote!(&self.#field)
        };
        let write = match a.qualified_namespace() {
            Some(ns) => quote!(w.qualified_attribute_scalar(#ns, #local, #value);),
            None => quote!(w.attribute_scalar(#wire, #value);),
        };
        if a.optional {
            quote!(if let Some(value) = &self.#field { #write })
        } else {
            write
        }
    });
    let text_write = c.text.iter().map(|t| {
        let field = ident(&t.field);
        quote!(w.text_string("text", self.#field.as_ref())?;)
    });
    let any_attribute_write = c.any_attribute.iter().map(|a| {
        let field = ident(&a.field);
        let name = &a.name;
        quote!(w.any_attributes(#name, &self.#field)?;)
    });
    let writes = attribute_writes
        .chain(any_attribute_write)
        .chain(text_write)
        .chain(c.fields().map(|m| member_write(model, m)))
        .collect::<Vec<_>>();
    // Field initialisers of the attributes and the text, read before the elements.
    let attribute_reads = c
        .attributes
        .iter()
        .map(|a| {
            let field = ident(&a.field);
            let wire = a.attribute_name();
            if a.default.is_some() {
                // Absent, the default: the .NET class's field initialiser.
                let default = default_expr(model, a);
                return if a.ty.is_reference() {
                    quote!(#field: node.attribute_string(#wire).or(#default),)
                } else {
                    quote!(#field: node.attribute_optional(#wire)?.unwrap_or(#default),)
                };
            }
            if a.data_type.is_some() {
                quote!(#field: node.attribute_string(#wire).map(crate::runtime::collapse_whitespace),)
            } else if a.ty.is_reference() {
                quote!(#field: node.attribute_string(#wire),)
            } else if a.optional {
                quote!(#field: node.attribute_optional(#wire)?,)
            } else {
                quote!(#field: node.attribute_scalar(#wire)?,)
            }
        })
        .chain(c.text.iter().map(|t| {
            let field = ident(&t.field);
            quote!(#field: node.text_content()?,)
        }))
        .chain(c.any_attribute.iter().map(|a| {
            // Every attribute that none of the attribute members takes.
            let field = ident(&a.field);
            let known = c.attributes.iter().map(|m| m.attribute_name());
            // A header's block attributes are .NET's `SoapHeader`'s own attribute members.
            let block = c.header.then_some(crate::model::HEADER_BLOCK_ATTRIBUTES).into_iter().flatten();
            let known = known.chain(block.map(|name| (*name).to_owned()));
            quote!(#field: node.any_attributes(&[#(#known),*])?,)
        }))
        .collect::<Vec<_>>();
    let reads: Vec<TokenStream> = c
        .fields()
        .enumerate()
        .filter(|(_, m)| !m.any && !m.unqualified)
        .map(|(i, m)| member_read(model, i, m))
        .collect();
    // Members of no namespace (`form="unqualified"`), read only from elements of none.
    let unqualified_reads: Vec<TokenStream> = c
        .fields()
        .enumerate()
        .filter(|(_, m)| m.unqualified)
        .map(|(i, m)| member_read(model, i, m))
        .collect();
    // `[XmlAnyElement]`: every element no other member takes, of any namespace.
    let any = c.fields().find(|m| m.any).map(|m| {
        let field = ident(&m.field);
        if matches!(m.ty, SoapType::Array(_)) {
            quote!(value.#field.push(member.any_element()?))
        } else {
            quote!(value.#field = Some(member.any_element()?))
        }
    });
    // Read straight from the message, unless it keeps what the stream does not: its text,
    // attributes or elements as written.
    let streams =
        c.text.is_none() && c.any_attribute.is_none() && !c.header && !c.fields().any(|m| m.any);
    // Whether the reader reads its leading simple members at once (see below).
    let mut plain_read = false;
    let count = proc_macro2::Literal::usize_unsuffixed(c.fields().count());
    let seen = seen_flags(c.fields().filter(|m| !m.any), count);
    // A class without members reads nothing from its element (but its attributes and text).
    let read_body = if c.fields().next().is_none() && attribute_reads.is_empty() {
        quote!(let _ = node; Ok(Self::default()))
    } else if c.fields().next().is_none() && c.header {
        // A header's block attributes (`soap`) are read apart, by the header reader.
        quote!(Ok(Self { #(#attribute_reads)* ..Default::default() }))
    } else if c.fields().next().is_none() {
        quote!(Ok(Self { #(#attribute_reads)* }))
    } else {
        // XmlSerializer creates a List<T> member before reading: absent, it is empty.
        let list_inits: Vec<TokenStream> = c
            .fields()
            .filter(|m| m.list)
            .map(|m| {
                let field = ident(&m.field);
                quote!(#field: Some(Vec::new()),)
            })
            .collect();
        let start = if attribute_reads.is_empty() && list_inits.is_empty() {
            quote!(Self::default())
        } else {
            quote!(Self { #(#attribute_reads)* #(#list_inits)* ..Default::default() })
        };
        // Elements of every namespace when some member takes more than the service's: the
        // unqualified members' (of none) and the `[XmlAnyElement]`'s (the rest).
        // One member: a match of one arm, the form every class's reader shares.
        let single = (reads.len() == 1).then(|| quote!(#[allow(clippy::single_match)]));
        let loop_body = if any.is_none() && unqualified_reads.is_empty() {
            // The leading simple members, read at once where they come in order and written
            // plainly (from the message only: a tree reads them in the loop).
            let plain: Vec<TokenStream> = c
                .fields()
                .enumerate()
                .map_while(|(i, m)| member_plain_read(i, m))
                .collect();
            plain_read = streams && !plain.is_empty();
            let plain = plain_read.then(|| {
                quote! {
                    'plain: {
                        #(#plain)*
                    }
                }
            });
            quote! {
                #plain
                while let Some(member) = node.next_member()? {
                    #single
                    match member.name() {
                        #(#reads)*
                        _ => {}
                    }
                }
            }
        } else {
            let fallback = any.clone().unwrap_or_else(|| quote!({}));
            let unqualified = (!unqualified_reads.is_empty()).then(|| {
                quote! {
                    if member.is_unqualified() {
                        match member.name() {
                            #(#unqualified_reads)*
                            _ => #fallback,
                        }
                    } else
                }
            });
            let other = any.map(|any| quote!(else { #any; }));
            quote! {
                while let Some(member) = node.next_element()? {
                    #unqualified if member.in_service() {
                        match member.name() {
                            #(#reads)*
                            _ => #fallback,
                        }
                    } #other
                }
            }
        };
        quote! {
            let mut value = #start;
            #seen
            #loop_body
            Ok(value)
        }
    };
    let read_streamed = streams.then(|| {
        quote! {
            /// An `xsi:type` may name this class, and no other.
            fn read_streamed(
                element: &mut tree::Streamed<'_, '_>,
                _items: &'static [&'static str],
            ) -> Result<Self, tree::Fallback> {
                element.check_class_type(#wire_name)?;
                Self::read_members(element)
            }
        }
    });
    let read_doc: &[&str] = if plain_read {
        &[
            " Reads its members from `node`, as XmlSerializer reads them: from a value",
            " tree, or straight from the message, where its leading simple members, sent in",
            " order as XmlSerializer writes them, are read at once (`'plain`).",
        ]
    } else {
        &[
            " Reads its members from `node`, as XmlSerializer reads them: from a value",
            " tree, or straight from the message.",
        ]
    };
    let (write_w, write_ok) = if writes.is_empty() {
        (quote!(_w), quote!(Ok(())))
    } else {
        (quote!(w), quote!(Ok(())))
    };
    // A member with a default value makes the struct's `Default` hold it, as the .NET
    // class's field initializer does; otherwise `Default` is derived.
    let (default_derive, default_impl) =
        if c.fields().chain(&c.attributes).any(|m| m.default.is_some()) {
            let inits = c
                .attributes
                .iter()
                .chain(&c.text)
                .map(|a| {
                    let field = ident(&a.field);
                    if a.default.is_some() {
                        let value = default_expr(model, a);
                        quote!(#field: #value,)
                    } else {
                        quote!(#field: Default::default(),)
                    }
                })
                .chain(c.any_attribute.iter().map(|a| {
                    let field = ident(&a.field);
                    quote!(#field: Default::default(),)
                }))
                .chain(c.fields().map(|m| {
                    let field = ident(&m.field);
                    if m.default.is_some() {
                        let value = default_expr(model, m);
                        quote!(#field: #value,)
                    } else {
                        quote!(#field: Default::default(),)
                    }
                }))
                .chain(c.header.then(|| quote!(soap: Default::default(),)));
            (
                quote!(),
                quote! {
                    /// Every member at its default: the members with a default value hold it.
                    impl Default for #name {
                        fn default() -> Self {
                            Self { #(#inits)* }
                        }
                    }
                },
            )
        } else {
            (quote!(Default), quote!())
        };
    // A class with secret members (`secrets: [Class.Member]`) prints them redacted.
    let secret = c.attributes.iter().chain(c.fields()).any(|m| m.secret);
    let (debug_derive, debug_impl) = if secret {
        let wire = &c.name;
        let entries = c
            .attributes
            .iter()
            .chain(&c.text)
            .chain(c.fields())
            .map(|m| {
                let field = ident(&m.field);
                let label = if m.wire.is_empty() {
                    m.field.as_str()
                } else {
                    m.wire.as_str()
                };
                match (m.secret, m.ty) {
                    (false, _) => quote!(.field(#label, &self.#field)),
                    (true, SoapType::String | SoapType::Base64Binary) => {
                        quote!(.field(#label, &crate::runtime::Redacted::option(&self.#field)))
                    }
                    (true, _) => quote!(.field(#label, &crate::runtime::Redacted::value())),
                }
            })
            .chain(c.header.then(|| quote!(.field("soap", &self.soap))));
        (
            quote!(),
            quote! {
                /// Its secret members are printed redacted.
                impl std::fmt::Debug for #name {
                    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.debug_struct(#wire) #(#entries)* .finish()
                    }
                }
            },
        )
    } else {
        (quote!(Debug,), quote!())
    };
    let header_impl = c.header.then(|| {
        quote! {
            /// A SOAP header (`[SoapHeader]`): its block's attributes are `soap`.
            impl crate::runtime::SoapHeaderItem for #name {
                fn attributes(&self) -> &crate::runtime::HeaderAttributes {
                    &self.soap
                }

                fn attributes_mut(&mut self) -> &mut crate::runtime::HeaderAttributes {
                    &mut self.soap
                }
            }
        }
    });
    quote! {
        #struct_doc
        #[derive(#debug_derive Clone, PartialEq, #eq #default_derive)]
        pub struct #name {
            #(#fields)*
        }

        #debug_impl

        #default_impl

        #header_impl

        impl #name {
            /// Writes its members, inherited first, into the element just started.
            fn write_members(&self, #write_w: &mut tree::XmlOut<'_>) -> Result<(), EncodeError> {
                #(#writes)*
                #write_ok
            }

            #(#[doc = #read_doc])*
            fn read_members<M: tree::Members>(node: &mut M) -> Result<Self, M::Error> {
                #read_body
            }
        }

        impl tree::XmlItem for #name {
            fn write_element<N: tree::ElementName, I: tree::ElementName>(
                &self,
                w: &mut tree::XmlOut<'_>,
                name: N,
                _items: &'static [I],
            ) -> Result<(), EncodeError> {
                w.class(name, None, |w| self.write_members(w))
            }

            fn check_nil_type(node: &tree::Node) -> Result<(), tree::MemberError> {
                node.check_class_type(#wire_name)
            }

            /// An `xsi:type` may name this class, and no other.
            fn read_element(
                node: &tree::Node,
                _items: &'static [&'static str],
            ) -> Result<Self, tree::MemberError> {
                node.check_class_type(#wire_name)?;
                Self::read_members(&mut node.reader())
            }

            #read_streamed
        }
    }
}

/// The enum of a class with derived classes (`AnyShape`): one variant per concrete class,
/// itself first, and how an element declared of the class is written (`xsi:type` naming a
/// derived value's class) and read (by its `xsi:type`).
fn any_enum(model: &Model, c: &ClassModel, index: usize, any: &str) -> TokenStream {
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
    // The names an `xsi:type` on a nil element may give: the declared class and every class
    // derived from it, abstract ones included.
    let nil_names: Vec<&str> = std::iter::once(index)
        .chain(c.derived.iter().copied())
        .map(|i| model.classes[i].name.as_str())
        .collect();
    let text = format!(
        "A value of an element declared `{declared}`: {}, as its `xsi:type` says (`complexContent` \
         extensions, .NET's `[XmlInclude]`).{}\n\nWritten with `xsi:type` naming the value's \
         class where it is not `{declared}`; read by the `xsi:type` sent, which must name `{declared}` \
         or a class derived from it{}.",
        if c.is_abstract {
            format!("`{declared}` is abstract, so one of {}", names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "))
        } else {
            format!("one of {}", names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "))
        },
        "",
        if c.is_abstract {
            " (an element without one is refused, as the host refuses it: the class is abstract)"
        } else {
            " (an element without one is a `{declared}`)"
        }
    )
    .replace("{declared}", declared);
    // Each variant holds its class by value, as every member does (only members on a cycle
    // are boxed): a value of the hierarchy is one tree without an allocation per node, and a
    // `match` reads as the classes. Where the classes differ in size by hundreds of bytes,
    // clippy's `large_enum_variant` would ask for boxes; the enum says why it keeps none.
    let sizes = {
        let mut sizes: Vec<usize> = concrete
            .iter()
            .map(|&i| class_size(model, i, &mut Vec::new()))
            .collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    };
    let large = sizes.len() >= 2 && sizes[0] - sizes[1] >= LARGE_VARIANT_GAP;
    let (text, allow_large) = if large {
        (
            format!(
                "{text}\n\nIts variants differ in size by hundreds of bytes: each holds its \
                 class by value, as a member does, so a value is one tree without an allocation \
                 per class (clippy's `large_enum_variant` is allowed on it)."
            ),
            quote!(#[allow(clippy::large_enum_variant)]),
        )
    } else {
        (text, quote!())
    };
    let any_doc = doc(&text);
    let variants = concrete.iter().map(|&i| {
        let v = ident(&model.classes[i].rust);
        let d = doc(&format!("A `{}` value.", model.classes[i].name));
        quote!(#d #v(#v),)
    });
    let writes = concrete.iter().map(|&i| {
        let v = ident(&model.classes[i].rust);
        let type_name = if i == index {
            quote!(None)
        } else {
            let n = &model.classes[i].name;
            quote!(Some(#n))
        };
        quote!(#any_ident::#v(value) => w.class(name, #type_name, |w| value.write_members(w)),)
    });
    let reads = concrete.iter().filter(|&&i| i != index).map(|&i| {
        let v = ident(&model.classes[i].rust);
        let n = &model.classes[i].name;
        quote!(Some(#n) => Ok(#any_ident::#v(#v::read_members(&mut node.reader())?)),)
    });
    let own = if c.is_abstract {
        quote! {
            None | Some(#declared) => Err(tree::MemberError::AbstractType {
                path: String::new(),
                name: #declared,
            }),
        }
    } else {
        let v = ident(&c.rust);
        quote!(None | Some(#declared) => Ok(#any_ident::#v(#v::read_members(&mut node.reader())?)),)
    };
    let eq = eq_derive(model, index);
    quote! {
        #any_doc
        #allow_large
        #[derive(Debug, Clone, PartialEq, #eq)]
        pub enum #any_ident {
            #(#variants)*
        }

        impl tree::XmlItem for #any_ident {
            fn write_element<N: tree::ElementName, I: tree::ElementName>(
                &self,
                w: &mut tree::XmlOut<'_>,
                name: N,
                _items: &'static [I],
            ) -> Result<(), EncodeError> {
                match self {
                    #(#writes)*
                }
            }

            fn check_nil_type(node: &tree::Node) -> Result<(), tree::MemberError> {
                match node.class_type(#declared)? {
                    None #(| Some(#nil_names))* => Ok(()),
                    Some(other) => Err(tree::MemberError::UnknownType {
                        path: String::new(),
                        declared: #declared,
                        name: other.to_owned(),
                        namespace: String::new(),
                    }),
                }
            }

            fn read_element(
                node: &tree::Node,
                _items: &'static [&'static str],
            ) -> Result<Self, tree::MemberError> {
                match node.class_type(#declared)? {
                    #own
                    #(#reads)*
                    Some(other) => Err(tree::MemberError::UnknownType {
                        path: String::new(),
                        declared: #declared,
                        name: other.to_owned(),
                        namespace: String::new(),
                    }),
                }
            }
        }
    }
}

/// The size gap between an `Any…` enum's two largest variants, in bytes as
/// [`class_size`] estimates them, from which the enum allows clippy's `large_enum_variant`
/// (whose threshold is 200): a margin below it for what the estimate misses.
pub(super) const LARGE_VARIANT_GAP: usize = 160;

/// An estimate of the size in bytes of class `index`'s struct on a 64-bit target: its fields'
/// sizes added and rounded up to 8 (`seen` guards against a cycle, which a box breaks anyway).
fn class_size(model: &Model, index: usize, seen: &mut Vec<usize>) -> usize {
    if seen.contains(&index) {
        return 8;
    }
    seen.push(index);
    let class = &model.classes[index];
    let size: usize = class
        .fields()
        .chain(&class.attributes)
        .chain(&class.text)
        .map(|m| {
            if m.boxed {
                8
            } else if m.nullable {
                // `Option<T>` of a value type: a tag beside it, but where `T` has a niche.
                let size = value_size(model, m.ty, seen);
                match size {
                    1 => 1,
                    s => s + s.min(8),
                }
            } else {
                value_size(model, m.ty, seen)
            }
        })
        .sum();
    seen.pop();
    size.div_ceil(8) * 8
}

/// An estimate of the size in bytes of a Rust value of `ty` (see [`class_size`]).
pub(super) fn value_size(model: &Model, ty: SoapType, seen: &mut Vec<usize>) -> usize {
    match ty {
        SoapType::Boolean | SoapType::Byte | SoapType::UnsignedByte => 1,
        SoapType::Short | SoapType::UnsignedShort => 2,
        SoapType::Int | SoapType::UnsignedInt | SoapType::Float | SoapType::Char => 4,
        SoapType::Long | SoapType::UnsignedLong | SoapType::Double => 8,
        SoapType::Decimal | SoapType::Guid => 16,
        SoapType::DateTime | SoapType::Date => 20,
        SoapType::String
        | SoapType::Base64Binary
        | SoapType::Xml
        | SoapType::XmlNode
        | SoapType::Array(_) => 24,
        // `name`, `locale`, `namespace` and `tables` (a typed set is one).
        SoapType::DataSet | SoapType::TypedDataSet(_) => 104,
        // `name`, `columns` and `rows`.
        SoapType::DataTable => 72,
        // A tag and the largest value: a string, a vector, a boxed class.
        SoapType::Object => 32,
        SoapType::Enum(i) if model.enums[usize::from(i)].flags => 8,
        SoapType::Enum(_) | SoapType::Void => 1,
        // A `Vec`, or an `Option` of the enum: a tag beside its largest variant.
        SoapType::Choice(i) => {
            let choice = &model.choices[usize::from(i)];
            if choice.repeated {
                24
            } else {
                8 + choice
                    .alternatives
                    .iter()
                    .map(|a| {
                        if a.boxed {
                            8
                        } else {
                            value_size(model, a.ty, seen)
                        }
                    })
                    .max()
                    .unwrap_or(0)
            }
        }
        SoapType::Class(i) => {
            let class = &model.classes[usize::from(i)];
            std::iter::once(usize::from(i))
                .filter(|_| !class.is_abstract)
                .chain(class.derived.iter().copied())
                .filter(|&c| !model.classes[c].is_abstract)
                .map(|c| class_size(model, c, seen))
                .max()
                .unwrap_or(0)
        }
    }
}
