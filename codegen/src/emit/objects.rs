//! `objects.rs`: the Rust types of `object` values, where the spec uses `object`: the alias
//! of the runtime's `AnyType` and the enum of the service's own types it may hold.

use proc_macro2::TokenStream;
use quote::quote;

use super::{doc, ident};
use crate::model::{Model, ObjectModel};
use crate::spec::SoapType;

pub(super) fn emit(model: &Model, object: &ObjectModel) -> TokenStream {
    let alias = ident(&object.alias);
    let known = ident(&object.known);
    let alias_doc = doc(&format!(
        "A .NET `object` (`xs:anyType`): a value that names its type with `xsi:type`, a \
         simple one (`xsd:int`, `xsd:string`, …), one of the service's own types \
         ([`{known}`]), `new object()` or a text without type. XmlSerializer writes and reads \
         it so; what it would read as an `XmlNode[]` of elements or attributes is refused."
    ));
    let known_doc = doc(&format!(
        "The service's own types an [`{alias}`] may hold, `xsi:type` naming each by its \
         WSDL name: its concrete classes, enums and array types (XmlSerializer's type scope)."
    ));
    let variants = object.variants.iter().map(|v| {
        let name = ident(&v.rust);
        let wire = model.type_name(v.ty);
        let (ty, text) = match v.ty {
            SoapType::Class(_) => {
                let class = model.class(v.ty).expect("a class");
                let rust = ident(&class.rust);
                (
                    quote!(Box<crate::#rust>),
                    format!("`{wire}`, a class (`xsi:type=\"{wire}\"`)."),
                )
            }
            SoapType::Enum(_) => (
                super::rust_type(model, v.ty),
                format!("`{wire}`, an enum (`xsi:type=\"{wire}\"`)."),
            ),
            _ => {
                let item = super::item_type(model, v.ty);
                let array = model.array(v.ty).expect("an array");
                (
                    quote!(Vec<#item>),
                    format!(
                        "`{wire}`, an array of `{}` items (`xsi:type=\"{wire}\"`).",
                        array.item_name
                    ),
                )
            }
        };
        let text = doc(&text);
        quote!(#text #name(#ty),)
    });
    let reads = object.variants.iter().map(|v| {
        let name = ident(&v.rust);
        let wire = model.type_name(v.ty);
        let items = super::items_expr(model, v.ty);
        match v.ty {
            SoapType::Class(_) => {
                let rust = ident(&model.class(v.ty).expect("a class").rust);
                quote! {
                    #wire => <crate::#rust as tree::XmlItem>::read_element(node, &[])
                        .map(|value| #known::#name(Box::new(value))),
                }
            }
            _ => {
                quote!(#wire => tree::XmlItem::read_element(node, #items).map(#known::#name),)
            }
        }
    });
    let writes = object.variants.iter().map(|v| {
        let name = ident(&v.rust);
        let wire = model.type_name(v.ty);
        let items = super::item_tags_expr(model, v.ty);
        quote! {
            #known::#name(value) => {
                w.next_type(#wire);
                value.write_element(w, name, #items)
            }
        }
    });
    let names = object.variants.iter().map(|v| {
        let name = ident(&v.rust);
        let wire = model.type_name(v.ty);
        quote!(#known::#name(_) => #wire,)
    });
    let name_body = if object.variants.is_empty() {
        quote!(match *self {})
    } else {
        quote!(match self { #(#names)* })
    };
    // The service's `XmlNode[]` (`ArrayOfXmlNode`): a text without type is one to .NET.
    let text_nodes = object
        .variants
        .iter()
        .find(|v| {
            model
                .array(v.ty)
                .is_some_and(|a| a.item == SoapType::XmlNode)
        })
        .map(|v| {
            let name = ident(&v.rust);
            quote! {
                /// The service's `XmlNode[]` of one text node.
                fn text_nodes(text: String) -> Result<Self, String> {
                    let node = crate::runtime::RawNode::Text(text);
                    Ok(#known::#name(vec![Some(node)]))
                }
            }
        });
    let (read_body, write_body) = if object.variants.is_empty() {
        (
            quote! {
                let _ = (node, name);
                None
            },
            quote! {
                let _ = (w, name);
                match *self {}
            },
        )
    } else {
        (
            quote! {
                Some(match name {
                    #(#reads)*
                    _ => return None,
                })
            },
            quote! {
                match self {
                    #(#writes)*
                }
            },
        )
    };
    quote! {
        //! `object` values: the runtime's `AnyType` over the service's own types.

        // The runtime's class codec by its module's name: a class may be named `Node`.
        use crate::runtime::tree::{self, XmlItem as _};
        use crate::runtime::EncodeError;

        #alias_doc
        pub type #alias = crate::runtime::AnyType<#known>;

        #known_doc
        #[derive(Debug, Clone, PartialEq)]
        pub enum #known {
            #(#variants)*
        }

        impl #known {
            /// The WSDL name of the value's type: what its `xsi:type` names.
            pub fn type_name(&self) -> &'static str {
                #name_body
            }
        }

        impl crate::runtime::KnownTypes for #known {
            fn read_known(node: &tree::Node, name: &str) -> Option<Result<Self, tree::MemberError>> {
                #read_body
            }

            fn write_known(
                &self,
                w: &mut tree::XmlOut<'_>,
                name: &'static str,
            ) -> Result<(), EncodeError> {
                #write_body
            }

            #text_nodes
        }
    }
}
