//! A class member that is an `xs:choice` (.NET's `object Item` with one
//! `[XmlElement(Name, Type)]` per alternative): its Rust enum, one variant per alternative
//! element, and how the member is written and read (the pieces `classes.rs` puts together).

use proc_macro2::TokenStream;
use quote::quote;

use super::classes::{value_size, LARGE_VARIANT_GAP};
use super::{doc, ident};
use crate::model::{AlternativeModel, ChoiceModel, MemberModel, Model};
use crate::spec::SoapType;

/// The enums of the choices the class `class` declares, after its struct.
pub(super) fn enums(model: &Model, class: usize) -> TokenStream {
    let enums = model
        .choices
        .iter()
        .enumerate()
        .filter(|(_, choice)| choice.class == class)
        .map(|(i, choice)| choice_enum(model, u16::try_from(i).expect("validated count"), choice));
    quote!(#(#enums)*)
}

/// The Rust type an alternative's variant holds: a class boxed where the choice's class holds
/// itself through it.
fn variant_type(model: &Model, a: &AlternativeModel) -> TokenStream {
    let ty = super::members::plain_type(model, a.ty);
    let ty = if a.boxed { quote!(Box<#ty>) } else { ty };
    if a.nillable {
        quote!(Option<#ty>)
    } else {
        ty
    }
}

/// The enum of the choice `index` (of [`Model::choices`]).
fn choice_enum(model: &Model, index: u16, choice: &ChoiceModel) -> TokenStream {
    let name = ident(&choice.rust);
    let class = &model.classes[choice.class].name;
    let listed = choice
        .alternatives
        .iter()
        .map(|a| format!("`<{}>`", a.wire))
        .collect::<Vec<_>>()
        .join(", ");
    let mut text = if choice.repeated {
        format!(
            "An item of `{class}.{}`, a repeated choice (`xs:choice maxOccurs=\"unbounded\"`, \
             a .NET array member with one `[XmlElement]` per alternative): one of the elements \
             {listed}, which may come in any number and order.",
            choice.member
        )
    } else {
        format!(
            "The value of `{class}.{}`, a choice (`xs:choice`, a .NET member with one \
             `[XmlElement]` per alternative): one of the elements {listed}.",
            choice.member
        )
    };
    text.push_str(
        " The variant is the element: two alternatives of one type (.NET's \
         `[XmlChoiceIdentifier]`) are two variants.",
    );
    // As a class's `Any…` enum: values by value, with clippy's `large_enum_variant` allowed
    // where the alternatives differ in size by hundreds of bytes.
    let mut sizes: Vec<usize> = choice
        .alternatives
        .iter()
        .map(|a| {
            if a.boxed {
                8
            } else {
                value_size(model, a.ty, &mut Vec::new())
            }
        })
        .collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let allow_large = (sizes.len() >= 2 && sizes[0] - sizes[1] >= LARGE_VARIANT_GAP).then(|| {
        text.push_str(
            " Its variants differ in size by hundreds of bytes: each holds its value as a \
             member does (clippy's `large_enum_variant` is allowed on it).",
        );
        quote!(#[allow(clippy::large_enum_variant)])
    });
    let enum_doc = doc(&text);
    let eq = if model.holds_float(SoapType::Choice(index)) {
        quote!()
    } else {
        quote!(Eq,)
    };
    let variants = choice.alternatives.iter().map(|a| {
        let variant = ident(&a.variant);
        let ty = variant_type(model, a);
        let xsd = match a.ty {
            SoapType::Class(_) | SoapType::Enum(_) => format!("`tns:{}`", model.type_name(a.ty)),
            ty => format!("`xs:{}`", model.type_name(ty)),
        };
        let mut text = format!("The element `<{}>`: {xsd}.", a.wire);
        if a.nillable && choice.identified {
            text.push_str(" Nillable (`nillable=\"true\"`): `None` is `xsi:nil`.");
        } else if a.nillable {
            text.push_str(
                " Nillable (`nillable=\"true\"`): `xsi:nil` reads as `None`, which is written \
                 as no element, as .NET writes a null of a choice without a choice identifier \
                 (its alternatives being of distinct types).",
            );
        }
        if a.boxed {
            text.push_str(" Boxed: the class holds itself through it.");
        }
        let d = doc(&text);
        quote!(#d #variant(#ty),)
    });
    quote! {
        #enum_doc
        #[derive(Debug, Clone, PartialEq, #eq)]
        #allow_large
        pub enum #name {
            #(#variants)*
        }
    }
}

/// Writes one alternative's value `value` (a reference to the variant's content).
fn write_alternative(choice: &ChoiceModel, a: &AlternativeModel) -> TokenStream {
    let wire = &a.wire;
    if a.nillable && !choice.identified {
        // A null is no element: XmlSerializer cannot tell which alternative's it is.
        let write = if a.ty.is_reference() {
            quote!(w.value(#wire, tree::tags!(), value)?;)
        } else {
            quote!(w.scalar(#wire, value);)
        };
        quote!({
            if let Some(value) = value {
                #write
            }
        })
    } else if a.nillable && !a.ty.is_reference() {
        quote!(w.nullable(#wire, value.as_ref()))
    } else if a.nillable {
        // An `Option` of the value: `xsi:nil` for `None`.
        quote!(w.value(#wire, tree::tags!(), value)?)
    } else if a.ty.is_reference() {
        let value = if a.boxed {
            quote!(&**value)
        } else {
            quote!(value)
        };
        quote!(w.value(#wire, tree::tags!(), #value)?)
    } else {
        quote!(w.scalar(#wire, value))
    }
}

/// Writes the choice member `m` from `self.{field}`: the element of its alternative (each
/// item's, in order, where it repeats); nothing for `None`.
pub(super) fn member_write(model: &Model, m: &MemberModel) -> TokenStream {
    let choice = model.choice(m.ty).expect("a choice member");
    let field = ident(&m.field);
    let name = ident(&choice.rust);
    let arms = choice.alternatives.iter().map(|a| {
        let variant = ident(&a.variant);
        let write = write_alternative(choice, a);
        quote!(crate::#name::#variant(value) => #write,)
    });
    if choice.repeated {
        quote! {
            for item in &self.#field {
                match item {
                    #(#arms)*
                }
            }
        }
    } else {
        // With a choice identifier, a null value is of the identifier's default element, the
        // first alternative's: XmlSerializer writes it nil where that one is nillable.
        let none = match choice.alternatives.first() {
            Some(first) if choice.identified && first.nillable => {
                let wire = &first.wire;
                quote!(else { w.nil(#wire); })
            }
            _ => quote!(),
        };
        quote! {
            if let Some(item) = &self.#field {
                match item {
                    #(#arms)*
                }
            } #none
        }
    }
}

/// The match arms reading the choice member `m` (the `i`th) into `value.{field}`: one per
/// alternative. A choice that does not repeat keeps the first of its elements, as the host
/// keeps the first of a repeated member; one that repeats takes each, in order.
pub(super) fn member_read(model: &Model, i: usize, m: &MemberModel) -> TokenStream {
    let choice = model.choice(m.ty).expect("a choice member");
    let i = proc_macro2::Literal::usize_unsuffixed(i);
    let field = ident(&m.field);
    let name = ident(&choice.rust);
    let arms = choice.alternatives.iter().enumerate().map(|(k, a)| {
        let wire = &a.wire;
        let variant = ident(&a.variant);
        let wrap = |value: TokenStream| {
            if a.boxed {
                quote!(crate::#name::#variant(Box::new(#value)))
            } else {
                quote!(crate::#name::#variant(#value))
            }
        };
        // A nillable alternative reads `xsi:nil` as `None`. Where .NET would write that null
        // as something else (no element without a choice identifier; the identifier's
        // default, the first alternative, for a single choice with one), a null is no value
        // of the choice: what is read is what is written back, as the host writes it. Any
        // other reference may read as none (an `xsi:nil` array); a value always is one.
        let (take, store) = if a.nillable {
            let read = if a.ty.is_reference() {
                let ty = variant_type(model, a);
                quote!(member.value::<#ty>(#wire, &[])?)
            } else {
                quote!(member.nullable(#wire)?)
            };
            let no_value = !choice.identified || (!choice.repeated && k == 0);
            // `Option<Box<T>>` where boxed: read as such, by its type.
            let store = match (no_value, choice.repeated) {
                (false, true) => quote!(value.#field.push(crate::#name::#variant(#read));),
                (false, false) => quote!(value.#field = Some(crate::#name::#variant(#read));),
                (true, true) => quote! {
                    if let Some(item) = #read {
                        value.#field.push(crate::#name::#variant(Some(item)));
                    }
                },
                (true, false) => quote! {
                    value.#field = #read.map(|item| crate::#name::#variant(Some(item)));
                },
            };
            (quote!(), store)
        } else if a.ty.is_reference() {
            let item = wrap(quote!(item));
            let store = if choice.repeated {
                quote!(value.#field.push(#item))
            } else {
                quote!(value.#field = Some(#item))
            };
            (
                quote!(if let Some(item) = member.optional(#wire, &[])? { #store; }),
                quote!(),
            )
        } else {
            let item = wrap(quote!(member.scalar(#wire)?));
            let store = if choice.repeated {
                quote!(value.#field.push(#item);)
            } else {
                quote!(value.#field = Some(#item);)
            };
            (quote!(), store)
        };
        if choice.repeated {
            quote!(#wire => { #take #store })
        } else {
            quote! {
                #wire if !seen[#i] => {
                    seen[#i] = true;
                    #take
                    #store
                }
            }
        }
    });
    quote!(#(#arms)*)
}

/// The rustdoc of a choice member.
pub(super) fn member_doc(model: &Model, m: &MemberModel) -> String {
    let choice = model.choice(m.ty).expect("a choice member");
    let listed = choice
        .alternatives
        .iter()
        .map(|a| format!("`<{}>`", a.wire))
        .collect::<Vec<_>>()
        .join(", ");
    if choice.repeated {
        format!(
            "`{}` (an array member with an `[XmlElement]` per alternative, `xs:choice \
             minOccurs=\"0\" maxOccurs=\"unbounded\"`): any number of the elements {listed}, in order, each an item of [`{}`]; an empty \
             list is none. Each is read wherever it stands among the others.",
            choice.member, choice.rust
        )
    } else {
        let none = match choice.alternatives.first() {
            Some(first) if choice.identified && first.nillable => format!(
                "`None` is `<{} xsi:nil=\"true\" />`, as .NET writes a null of a choice with \
                 a choice identifier (at its default, the first alternative)",
                first.wire
            ),
            _ => "none for `None`".to_owned(),
        };
        format!(
            "`{}` (a member with an `[XmlElement]` per alternative, `xs:choice`): one of the \
             elements {listed} as [`{}`] says, {none}. Of several, the first is read.",
            choice.member, choice.rust
        )
    }
}
