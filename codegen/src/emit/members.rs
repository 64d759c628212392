//! One member of a class, or of a response's out parameters: its Rust type and rustdoc, and
//! how XmlSerializer writes and reads it (the pieces `classes.rs` and `wire.rs` put together).

use proc_macro2::TokenStream;
use quote::quote;

use super::{ident, item_tags_expr, items_expr, value_type};
use crate::model::{MemberModel, Model};
use crate::spec::SoapType;

/// How a member is written and read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A simple value type: always written, absent reads as its default.
    Scalar,
    /// A nullable simple value type: `xsi:nil` for `None`.
    Nullable,
    /// A value type that may be absent (`xxxSpecified`): left out for `None`.
    Optional,
    /// A nullable value type that may be absent too (`int?` with `xxxSpecified`): left out
    /// for `None`, `xsi:nil` for `Some(None)`.
    OptionalNullable,
    /// A reference (string, byte array, class, array): left out for `None`.
    Reference,
    /// An array without a wrapper: one element per item.
    Unwrapped,
}

fn kind(m: &MemberModel) -> Kind {
    if m.unwrapped {
        Kind::Unwrapped
    } else if m.ty.is_reference() {
        Kind::Reference
    } else if m.optional && m.nullable {
        Kind::OptionalNullable
    } else if m.optional {
        Kind::Optional
    } else if m.nullable {
        Kind::Nullable
    } else {
        Kind::Scalar
    }
}

/// The Rust type of a value that is never null (an unwrapped array's item): a reference's
/// without its `Option`.
pub(super) fn plain_type(model: &Model, ty: SoapType) -> TokenStream {
    match ty {
        SoapType::String => quote!(String),
        SoapType::Base64Binary => quote!(Vec<u8>),
        SoapType::Class(_) => {
            let name = ident(model.class(ty).expect("a class").rust_type());
            quote!(crate::#name)
        }
        ty => super::rust_type(model, ty),
    }
}

/// `let mut seen = [false; N];`, the flags of the members read once, where some member is
/// (an array member is read again each time it comes).
pub(super) fn seen_flags<'m>(
    mut members: impl Iterator<Item = &'m MemberModel>,
    count: proc_macro2::Literal,
) -> TokenStream {
    if members.any(|m| !matches!(m.ty, SoapType::Array(_))) {
        quote!(let mut seen = [false; #count];)
    } else {
        quote!()
    }
}

/// Writes the member `m` from `self.{field}` with `w`, as XmlSerializer writes it.
pub(super) fn member_write(model: &Model, m: &MemberModel) -> TokenStream {
    if matches!(m.ty, SoapType::Choice(_)) {
        return super::choices::member_write(model, m);
    }
    let field = ident(&m.field);
    let wire = &m.wire;
    if m.any {
        // `[XmlAnyElement]`: the elements themselves, without an element of the member's.
        return if matches!(m.ty, SoapType::Array(_)) {
            quote! {
                for element in &self.#field {
                    w.raw_element(#wire, element.root())?;
                }
            }
        } else {
            quote! {
                if let Some(element) = &self.#field {
                    w.raw_element(#wire, element.root())?;
                }
            }
        };
    }
    if m.unqualified {
        // An element of no namespace inside its class's: `<Name xmlns="">` (where no element
        // around it declared that already).
        let write = match kind(m) {
            Kind::Scalar => quote! {
                w.in_namespace("", " xmlns=\"\"");
                w.scalar(#wire, &self.#field);
            },
            Kind::Nullable => quote! {
                w.in_namespace("", " xmlns=\"\"");
                w.nullable(#wire, self.#field.as_ref());
            },
            Kind::Optional => quote! {
                if let Some(value) = &self.#field {
                    w.in_namespace("", " xmlns=\"\"");
                    w.scalar(#wire, value);
                }
            },
            Kind::OptionalNullable => quote! {
                if let Some(value) = &self.#field {
                    w.in_namespace("", " xmlns=\"\"");
                    w.nullable(#wire, value.as_ref());
                }
            },
            _ => quote! {
                if let Some(value) = &self.#field {
                    w.in_namespace("", " xmlns=\"\"");
                    w.value(#wire, tree::tags!(), value)?;
                }
            },
        };
        return match &m.default {
            Some(_) if m.ty == SoapType::String => {
                let text = m.default.as_deref().unwrap_or_default();
                quote!(if self.#field.as_deref() != Some(#text) { #write })
            }
            Some(_) => {
                let default = default_expr(model, m);
                quote!(if self.#field != #default { #write })
            }
            None => write,
        };
    }
    // The member's tags are made at compile time (`tree::tag!`), so that the writer's plain
    // path writes each whole.
    let tag = quote!(tree::tag!(#wire));
    let write = match kind(m) {
        Kind::Scalar => quote!(w.scalar(#tag, &self.#field);),
        Kind::Nullable => quote!(w.nullable(#tag, self.#field.as_ref());),
        Kind::OptionalNullable => quote! {
            if let Some(value) = &self.#field {
                w.nullable(#tag, value.as_ref());
            }
        },
        Kind::Optional => quote! {
            if let Some(value) = &self.#field {
                w.scalar(#tag, value);
            }
        },
        Kind::Reference => {
            let items = item_tags_expr(model, m.ty);
            quote!(w.optional(#tag, #items, self.#field.as_ref())?;)
        }
        Kind::Unwrapped => quote! {
            for item in &self.#field {
                w.value(#tag, tree::tags!(), item)?;
            }
        },
    };
    unless_default(model, m, write)
}

/// `write`, run only where the member's value is not its default (`default:`): a value equal
/// to it is left out, as XmlSerializer leaves it out. A member or an attribute alike.
pub(super) fn unless_default(model: &Model, m: &MemberModel, write: TokenStream) -> TokenStream {
    let field = ident(&m.field);
    match &m.default {
        Some(text) => match m.ty {
            SoapType::String => quote!(if self.#field.as_deref() != Some(#text) { #write }),
            SoapType::Boolean if text == "true" => quote!(if !self.#field { #write }),
            SoapType::Boolean => quote!(if self.#field { #write }),
            _ => {
                let default = default_expr(model, m);
                quote!(if self.#field != #default { #write })
            }
        },
        None => write,
    }
}

/// The Rust value of a member's default (validated: a number, boolean, string, dateTime, guid or
/// enum value).
pub(super) fn default_expr(model: &Model, m: &MemberModel) -> TokenStream {
    let text = m.default.as_deref().expect("a member with a default");
    match m.ty {
        SoapType::String => quote!(Some(String::from(#text))),
        SoapType::Boolean => {
            let value = text == "true";
            quote!(#value)
        }
        SoapType::Double | SoapType::Float => {
            // The default's own text, a valid Rust float literal once it has a point or an
            // exponent (`-1.7976931348623157E+308` stays short, as the service wrote it).
            let text = text.trim_start_matches('+');
            let float = if text.contains(['.', 'e', 'E']) {
                text.to_owned()
            } else {
                format!("{text}.0")
            };
            float.parse::<TokenStream>().expect("validated default")
        }
        SoapType::Enum(i) => {
            let e = &model.enums[usize::from(i)];
            let (_, variant) = e
                .values
                .iter()
                .find(|(wire, _)| wire == text)
                .expect("validated default");
            let (name, variant) = (ident(&e.rust), ident(variant));
            quote!(crate::#name::#variant)
        }
        SoapType::Decimal => {
            // `Decimal::from_parts`, a `const fn`: the 96-bit mantissa in three words.
            let (mantissa, negative, scale) =
                crate::spec::decimal_parts(text).expect("validated default");
            let lo = proc_macro2::Literal::u32_unsuffixed(mantissa as u32);
            let mid = proc_macro2::Literal::u32_unsuffixed((mantissa >> 32) as u32);
            let hi = proc_macro2::Literal::u32_unsuffixed((mantissa >> 64) as u32);
            let scale = proc_macro2::Literal::u32_unsuffixed(scale);
            quote!(crate::runtime::deps::rust_decimal::Decimal::from_parts(
                #lo, #mid, #hi, #negative, #scale
            ))
        }
        SoapType::Guid => {
            let value = crate::spec::guid_value(text).expect("validated default");
            let value = proc_macro2::Literal::u128_unsuffixed(value);
            quote!(crate::Uuid::from_u128(#value))
        }
        SoapType::DateTime => {
            let [y, mo, d, h, mi, se] =
                crate::spec::datetime_parts(text).expect("validated default");
            let (y, mo, d, h, mi, se) = (
                proc_macro2::Literal::i32_unsuffixed(y as i32),
                proc_macro2::Literal::u32_unsuffixed(mo),
                proc_macro2::Literal::u32_unsuffixed(d),
                proc_macro2::Literal::u32_unsuffixed(h),
                proc_macro2::Literal::u32_unsuffixed(mi),
                proc_macro2::Literal::u32_unsuffixed(se),
            );
            // A valid date and time (checked when the spec was read), of no time zone, as
            // .NET's DateTime default is.
            quote!(crate::runtime::DateTime::unspecified(
                crate::runtime::deps::chrono::NaiveDate::from_ymd_opt(#y, #mo, #d)
                    .and_then(|date| date.and_hms_opt(#h, #mi, #se))
                    .expect("a valid date and time")
            ))
        }
        _ => {
            let value: i128 = text.parse().expect("validated default");
            let literal = proc_macro2::Literal::i128_unsuffixed(value);
            quote!(#literal)
        }
    }
}

/// The match arm reading the member `m` (the `i`th) from `member` into `value.{field}`.
pub(super) fn member_read(model: &Model, i: usize, m: &MemberModel) -> TokenStream {
    if matches!(m.ty, SoapType::Choice(_)) {
        return super::choices::member_read(model, i, m);
    }
    let i = proc_macro2::Literal::usize_unsuffixed(i);
    let field = ident(&m.field);
    let wire = &m.wire;
    let read = match kind(m) {
        Kind::Scalar => quote!(member.scalar(#wire)?),
        Kind::Nullable => quote!(member.nullable(#wire)?),
        Kind::Optional => quote!(Some(member.scalar(#wire)?)),
        Kind::OptionalNullable => quote!(Some(member.nullable(#wire)?)),
        Kind::Reference if m.data_type.is_some() => {
            // .NET reads a string of this XML Schema type trimmed.
            quote!(member.optional::<String>(#wire, &[])?.map(crate::runtime::collapse_whitespace))
        }
        Kind::Reference => {
            let items = items_expr(model, m.ty);
            quote!(member.optional(#wire, #items)?)
        }
        // Every element of its name is an item, wherever it stands among the others.
        Kind::Unwrapped => {
            return quote! {
                #wire => {
                    if let Some(item) = member.optional(#wire, &[])? {
                        value.#field.push(item);
                    }
                }
            };
        }
    };
    // A repeated array member replaces the one before it, as XmlSerializer's readers read an
    // array each time they meet its element; any other keeps the first.
    if matches!(m.ty, SoapType::Array(_)) && m.list {
        // A List<T> is created before reading (see the struct's reader): a repeated
        // element's items are appended to it, and `xsi:nil` leaves it as it is.
        let ty = member_type(model, m);
        quote! {
            #wire => {
                let more: #ty = #read;
                if let Some(more) = more {
                    value.#field.get_or_insert_with(Vec::new).extend(more);
                }
            }
        }
    } else if matches!(m.ty, SoapType::Array(_)) {
        quote!(#wire => value.#field = #read,)
    } else {
        quote! {
            #wire if !seen[#i] => {
                seen[#i] = true;
                value.#field = #read;
            }
        }
    }
}

/// The statements reading the member `m` (the `i`th) at once where it stands next, written
/// as XmlSerializer writes a simple value (`Members::plain_scalar`), and leaving the plain
/// block (`'plain`) where it does not; `None` for a member read only by its match arm: an
/// array, a class, raw XML, a string of an XML Schema type .NET trims, a choice.
pub(super) fn member_plain_read(i: usize, m: &MemberModel) -> Option<TokenStream> {
    if m.any || m.unqualified || m.unwrapped || m.list || m.plain_object {
        return None;
    }
    let (open, close) = (format!("<{}>", m.wire), format!("</{}>", m.wire));
    let kind = kind(m);
    let (read, value) = match kind {
        Kind::Reference if m.ty == SoapType::String && m.data_type.is_none() => (
            quote!(node.plain_string(#open, #close)?),
            quote!(Some(read)),
        ),
        Kind::Reference | Kind::Unwrapped => return None,
        _ if matches!(m.ty, SoapType::Choice(_)) => return None,
        Kind::Scalar => (quote!(node.plain_scalar(#open, #close)?), quote!(read)),
        Kind::Optional => (
            quote!(node.plain_scalar(#open, #close)?),
            quote!(Some(read)),
        ),
        Kind::Nullable | Kind::OptionalNullable => {
            // A null as XmlSerializer writes it is plain too.
            let nil = format!("<{} xsi:nil=\"true\" />", m.wire);
            let read = quote!(node.plain_nullable(#open, #close, #nil)?);
            if kind == Kind::Nullable {
                (read, quote!(read))
            } else {
                (read, quote!(Some(read)))
            }
        }
    };
    let i = proc_macro2::Literal::usize_unsuffixed(i);
    let field = ident(&m.field);
    Some(quote! {
        let Some(read) = #read else {
            break 'plain;
        };
        seen[#i] = true;
        value.#field = #value;
    })
}

/// The member's Rust type: a class on a cycle is boxed.
pub(super) fn member_type(model: &Model, m: &MemberModel) -> TokenStream {
    if m.any && matches!(m.ty, SoapType::Array(_)) {
        // Elements that are never nil: none is an empty list, as a null .NET array writes none.
        return quote!(Vec<crate::runtime::RawXml>);
    }
    if m.unwrapped {
        let item = model
            .array(m.ty)
            .expect("an unwrapped member is an array")
            .item;
        let item = plain_type(model, item);
        return quote!(Vec<#item>);
    }
    if m.plain_object {
        // A text the host would take as the service's `XmlNode[]` is refused there.
        let nodes = model.arrays.iter().any(|a| a.item == SoapType::XmlNode);
        return quote!(Option<crate::runtime::AnyType<crate::runtime::NoKnownTypes<#nodes>>>);
    }
    if m.boxed {
        let class = model.class(m.ty).expect("a boxed member is a class");
        let name = ident(class.rust_type());
        return quote!(Option<Box<crate::#name>>);
    }
    let ty = value_type(model, m.ty, m.nullable || m.optional);
    if m.nullable && m.optional {
        // Absent (`None`), nil (`Some(None)`) or a value.
        return quote!(Option<#ty>);
    }
    ty
}

/// The rustdoc of a member: wire name, XSD type, occurrence.
pub(super) fn member_doc(model: &Model, m: &MemberModel) -> String {
    if matches!(m.ty, SoapType::Choice(_)) {
        return super::choices::member_doc(model, m);
    }
    if m.any {
        let many = matches!(m.ty, SoapType::Array(_));
        return format!(
            "`{}` (`[XmlAnyElement]`, `<s:any minOccurs=\"0\" maxOccurs=\"{}\" />`): no element \
             of its own, but {}, each kept whole as it was written (raw XML); written where the \
             member stands.",
            m.wire,
            if many { "unbounded" } else { "1" },
            if many {
                "every element of the class that no other member takes (of any namespace, a \
                 repeated member's among them), in order; an empty list is none"
            } else {
                "the element of the class that no other member takes (of any namespace, a \
                 repeated member's among them): the last one where there are several, as the \
                 host keeps it"
            }
        );
    }
    if matches!(m.ty, SoapType::Xml | SoapType::XmlNode) {
        let (net, what) = if m.ty == SoapType::Xml {
            ("XmlElement", "its first element")
        } else {
            (
                "XmlNode",
                "its first node (an element, a text or a CDATA section)",
            )
        };
        return format!(
            "`{}`: raw XML (.NET `{net}`: an inline type of one `s:any`), kept whole as it was \
             written, optional (`minOccurs=\"0\"`): `None` leaves the element out; an absent, \
             empty or `xsi:nil` element reads as `None`, any other as {what}.",
            m.wire
        );
    }
    let xsd = match m.ty {
        SoapType::Class(_) | SoapType::Array(_) | SoapType::Enum(_) => {
            format!("`tns:{}`", model.type_name(m.ty))
        }
        _ if m.data_type.is_some() => format!(
            "`xs:{}` (`DataType = \"{0}\"`: a string, which .NET reads trimmed)",
            m.data_type.as_deref().unwrap_or_default()
        ),
        _ if m.plain_object => "`xs:anyType` (.NET `object`, of XML Schema's types here: rmm \
                                refuses the service's, which the host writes under a prefix of \
                                their namespace)"
            .to_owned(),
        ty => format!("`xs:{}`", model.type_name(ty)),
    };
    if m.unwrapped {
        let item = model.array(m.ty).expect("an array").item;
        return format!(
            "`{}`: an array without a wrapper (`[XmlElement]` on an array): each item is an \
             element `<{}>` of type `{}` (`minOccurs=\"0\" maxOccurs=\"unbounded\"`), read \
             wherever it stands among the others; an empty array and a null one are both no \
             element.",
            m.wire,
            m.wire,
            model.type_name(item)
        );
    }
    if let Some(default) = &m.default {
        return format!(
            "`{}`: {xsd}, with the default `{default}` (`[DefaultValue]`, `minOccurs=\"0\" \
             default=\"{default}\"`): a value equal to it is left out, and an absent element \
             reads as it (so does `Default`).",
            m.wire
        );
    }
    let occurs = match kind(m) {
        Kind::Scalar => "always sent (`minOccurs=\"1\"`); an absent element reads as the default",
        Kind::Optional => {
            "optional (`minOccurs=\"0\"`, .NET's `xxxSpecified`): `None` leaves the element \
             out, and an absent element reads as `None`"
        }
        Kind::OptionalNullable => {
            "optional and nillable (`minOccurs=\"0\" nillable=\"true\"`, a .NET `Nullable<T>` \
             with `xxxSpecified`): `None` leaves the element out, `Some(None)` is `xsi:nil`; an \
             absent element reads as `None`"
        }
        Kind::Nullable => {
            "always sent, `nillable=\"true\"` (`minOccurs=\"1\"`): `None` is `xsi:nil`; an \
             absent element reads as `None`"
        }
        Kind::Unwrapped => unreachable!("written above"),
        Kind::Reference if m.list => "optional (`minOccurs=\"0\"`): `None` leaves the element out",
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
    if m.list {
        text.push_str(
            " A .NET `List<T>`: XmlSerializer creates it before reading, so an absent or \
             `xsi:nil` element reads as `Some(vec![])`, and the items of a repeated one are \
             appended.",
        );
    }
    if m.boxed {
        text.push_str(" Boxed: the class holds itself through it.");
    }
    text
}
