//! `classes.rs`: one struct per class of the spec, and how XmlSerializer writes and reads it
//! (`runtime::tree::XmlItem`).

use proc_macro2::TokenStream;
use quote::quote;

use super::{doc, ident, items_expr, value_type};
use crate::model::{ClassModel, MemberModel, Model};
use crate::spec::SoapType;

pub(super) fn emit(model: &Model) -> TokenStream {
    let classes = model.classes.iter().map(|c| class(model, c));
    quote! {
        //! The service's classes (`xs:complexType`), in the spec's order: each a struct whose
        //! fields are its members in wire order, written and read as XmlSerializer writes and
        //! reads the .NET class.

        use crate::runtime::tree::{Node, XmlItem, XmlOut};
        use crate::runtime::{EncodeError, tree::MemberError};

        #(#classes)*
    }
}

/// How a member is written and read.
enum Kind {
    /// A simple value type: always written, absent reads as its default.
    Scalar,
    /// A nullable simple value type: `xsi:nil` for `None`.
    Nullable,
    /// A reference (string, byte array, class, array): left out for `None`.
    Reference,
}

fn kind(m: &MemberModel) -> Kind {
    if m.ty.is_reference() {
        Kind::Reference
    } else if m.nullable {
        Kind::Nullable
    } else {
        Kind::Scalar
    }
}

/// The member's Rust type: a class on a cycle is boxed.
fn member_type(model: &Model, m: &MemberModel) -> TokenStream {
    if m.boxed {
        let name = ident(model.type_name(m.ty));
        return quote!(Option<Box<crate::#name>>);
    }
    value_type(model, m.ty, m.nullable)
}

/// The rustdoc of a member: wire name, XSD type, occurrence.
fn member_doc(model: &Model, m: &MemberModel) -> String {
    let xsd = match m.ty {
        SoapType::Class(_) | SoapType::Array(_) | SoapType::Enum(_) => {
            format!("`tns:{}`", model.type_name(m.ty))
        }
        ty => format!("`xs:{}`", model.type_name(ty)),
    };
    let occurs = match kind(m) {
        Kind::Scalar => "always sent (`minOccurs=\"1\"`); an absent element reads as the default",
        Kind::Nullable => {
            "always sent, `nillable=\"true\"` (`minOccurs=\"1\"`): `None` is `xsi:nil`; an \
             absent element reads as `None`"
        }
        Kind::Reference if matches!(m.ty, SoapType::Array(_)) => {
            "optional (`minOccurs=\"0\"`): `None` leaves the element out; an absent or \
             `xsi:nil` element reads as `None`"
        }
        Kind::Reference => {
            "optional (`minOccurs=\"0\"`): `None` leaves the element out, which reads as \
             `None`; `xsi:nil` is refused (the element is not nillable: an ASMX host would \
             read an empty value)"
        }
    };
    let mut text = format!("`{}`: {xsd}, {occurs}.", m.wire);
    if let Some(array) = model.array(m.ty) {
        let nil = if array.item_nillable {
            ", each may be `xsi:nil` (`None`)"
        } else {
            ""
        };
        text.push_str(&format!(
            " Items are `<{}>` elements{nil}; `Some(vec![])` is sent as an empty element.",
            array.item_name
        ));
    }
    if m.boxed {
        text.push_str(" Boxed: the class holds itself through it.");
    }
    text
}

fn class(model: &Model, c: &ClassModel) -> TokenStream {
    let name = ident(&c.name);
    let mut text = format!(
        "`{}`: a class of the service (`xs:complexType`), its members a sequence of elements in \
         this order.",
        c.name
    );
    if let Some(d) = &c.doc {
        text.push_str("\n\n");
        text.push_str(d.trim());
    }
    text.push_str(
        "\n\nAn ASMX host reads the members in any order, keeps the first of a repeated one (the \
         last of a repeated array) and skips unknown elements; rmm reads them the same way.",
    );
    let struct_doc = doc(&text);
    let fields = c.members.iter().map(|m| {
        let field = ident(&m.field);
        let ty = member_type(model, m);
        let doc = doc(&member_doc(model, m));
        quote!(#doc pub #field: #ty,)
    });
    let eq = if model.holds_float(SoapType::Class(
        model
            .classes
            .iter()
            .position(|other| other.name == c.name)
            .expect("a class of the model") as u16,
    )) {
        quote!()
    } else {
        quote!(Eq,)
    };
    let writes = c.members.iter().map(|m| {
        let field = ident(&m.field);
        let wire = &m.wire;
        match kind(m) {
            Kind::Scalar => quote!(w.scalar(#wire, &self.#field);),
            Kind::Nullable => quote!(w.nullable(#wire, self.#field.as_ref());),
            Kind::Reference => {
                let items = items_expr(model, m.ty);
                quote!(w.optional(#wire, #items, self.#field.as_ref())?;)
            }
        }
    });
    let reads = c.members.iter().enumerate().map(|(i, m)| {
        let i = proc_macro2::Literal::usize_unsuffixed(i);
        let field = ident(&m.field);
        let wire = &m.wire;
        let read = match kind(m) {
            Kind::Scalar => quote!(member.scalar(#wire)?),
            Kind::Nullable => quote!(member.nullable(#wire)?),
            Kind::Reference => {
                let items = items_expr(model, m.ty);
                quote!(member.optional(#wire, #items)?)
            }
        };
        // A repeated array member replaces the one before it, as XmlSerializer's readers
        // read an array each time they meet its element; any other keeps the first.
        if matches!(m.ty, SoapType::Array(_)) {
            quote!(#wire => value.#field = #read,)
        } else {
            quote! {
                #wire if !seen[#i] => {
                    seen[#i] = true;
                    value.#field = #read;
                }
            }
        }
    });
    let count = proc_macro2::Literal::usize_unsuffixed(c.members.len());
    // A class without members reads nothing from its element.
    let read_body = if c.members.is_empty() {
        quote!(let _ = node; Ok(Self::default()))
    } else {
        quote! {
            let mut value = Self::default();
            let mut seen = [false; #count];
            for member in node.members() {
                match member.name() {
                    #(#reads)*
                    _ => {}
                }
            }
            Ok(value)
        }
    };
    quote! {
        #struct_doc
        #[derive(Debug, Clone, PartialEq, #eq Default)]
        pub struct #name {
            #(#fields)*
        }

        impl XmlItem for #name {
            fn write_element(
                &self,
                w: &mut XmlOut<'_>,
                name: &'static str,
                _items: &'static [&'static str],
            ) -> Result<(), EncodeError> {
                w.start(name);
                #(#writes)*
                w.end(name);
                Ok(())
            }

            fn read_element(
                node: &Node,
                _items: &'static [&'static str],
            ) -> Result<Self, MemberError> {
                #read_body
            }
        }
    }
}
