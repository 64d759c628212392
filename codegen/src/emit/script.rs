//! `script.rs` of a `[ScriptService]`'s crate: each class and enum as JavaScriptSerializer
//! writes it and ObjectConverter reads it; and each operation's JSON code, which
//! [`super::wire`] puts beside its SOAP and form code.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;

use super::{doc, ident};
use crate::model::{ClassModel, MemberModel, Model, OperationModel, Role};
use crate::spec::SoapType;

/// The classes whose values carry a `__type` hint: those that are a parameter's, a result's
/// or an array parameter's or result's items' type and not abstract (`WebServiceData`'s
/// client types, which it does not look for inside classes).
fn client_types(model: &Model) -> BTreeSet<usize> {
    super::script_proxy::signature_types(model)
        .0
        .into_iter()
        .collect()
}

/// A class's `__type` hint: `{namespace}.{Name}`, the .NET type's full name.
fn type_id(model: &Model, class: &ClassModel) -> String {
    super::script_proxy::full_name(model, &class.name)
}

/// A class's members in the order JavaScriptSerializer writes them (`Type.GetFields`): its
/// own, then its base's, then its base's base's; in each, the elements, then the attributes.
fn json_order<'a>(model: &'a Model, class: &'a ClassModel) -> Vec<&'a MemberModel> {
    let mut order = Vec::new();
    // The struct's fields of each level, the derived class's first.
    let mut elements_end = class.inherited.len() + class.members.len();
    let mut attributes_end = class.attributes.len();
    let mut level = Some(class);
    while let Some(c) = level {
        let elements = c.members.len();
        let attributes = c.attributes.len() - c.inherited_attributes;
        let fields: Vec<&MemberModel> = class.fields().collect();
        order.extend(&fields[elements_end - elements..elements_end]);
        order.extend(&class.attributes[attributes_end - attributes..attributes_end]);
        elements_end -= elements;
        attributes_end -= attributes;
        level = c.base.map(|b| &model.classes[b]);
    }
    order
}

/// The file: every class's and enum's JSON impls, and the service's `__type` hints.
pub(super) fn emit(model: &Model) -> TokenStream {
    let clients = client_types(model);
    let ids: Vec<String> = clients
        .iter()
        .map(|&i| type_id(model, &model.classes[i]))
        .collect();
    let classes = model.classes.iter().enumerate().map(|(i, c)| {
        let class = concrete_class(model, c, clients.contains(&i));
        let any = c
            .any_type
            .as_ref()
            .map(|any| any_enum(model, c, i, any, &clients));
        quote!(#class #any)
    });
    let enums = model.enums.iter().map(|e| {
        let rust = ident(&e.rust);
        let name = &e.name;
        let members = &e.members;
        quote! {
            impl json::ToJson for #rust {
                /// Its number, as JavaScriptSerializer writes an enum.
                fn write_json(&self, out: &mut json::JsonOut) {
                    json::enum_to_json(*self as usize, out);
                }
            }

            impl json::FromJson for #rust {
                const DOTNET: &'static str = #name;
                /// A number, or a .NET member name in any case.
                fn from_json(value: &json::Json) -> Result<Self, json::JsonError> {
                    json::enum_from_json(value, &Self::ALL, &[#(#members),*], #name)
                }
            }
        }
    });
    // Line by line (each ends with CR LF), so that a diff of the proxy reads as one.
    let lines = |debug: bool| {
        let text = super::script_proxy::proxy(model, debug);
        let lines: Vec<String> = text
            .strip_suffix("\r\n")
            .unwrap_or(&text)
            .split("\r\n")
            .map(str::to_owned)
            .collect();
        quote!(&[#(#lines),*])
    };
    let (proxy, proxy_debug) = (lines(false), lines(true));
    quote! {
        //! Over JSON (ASP.NET AJAX's calls to this `[ScriptService]`): each class as
        //! JavaScriptSerializer writes it (`{"__type":…,"Member":…}`, the derived class's
        //! members first) and ObjectConverter reads it (members matched ignoring case, unknown
        //! ones skipped); each enum as its number.

        use crate::runtime::json;
        #[allow(unused_imports)]
        use crate::*;

        /// The `__type` hints of the service's classes that carry one: those of its
        /// parameters and results (.NET's client types).
        pub(crate) const TYPE_HINTS: &[&str] = &[#(#ids),*];

        /// The JavaScript proxy served at `{path}/js`, as .NET Framework writes it: its
        /// lines, each ending with CR LF.
        pub(crate) const PROXY: &[&str] = #proxy;

        /// The proxy served at `{path}/jsdebug`: `/js`'s with documentation comments.
        pub(crate) const PROXY_DEBUG: &[&str] = #proxy_debug;

        #(#classes)*
        #(#enums)*
    }
}

/// Whether JavaScriptSerializer writes `text` as it is between quotes (no character it
/// escapes): names and type names nearly always.
fn written_as_is(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// `text` as a raw string literal (`r#"…"#`): JSON holds quotes, which read better unescaped.
fn raw_literal(text: &str) -> proc_macro2::Literal {
    debug_assert!(!text.contains("\"#"));
    format!("r#\"{text}\"#")
        .parse()
        .expect("a raw string literal")
}

/// The statement that starts the member `wire` of an object: its `"wire":` as a constant
/// where nothing in it is escaped.
fn member_start(wire: &str) -> TokenStream {
    if written_as_is(wire) {
        let text = raw_literal(&format!(r#""{wire}":"#));
        quote!(out.member_text(#text);)
    } else {
        quote!(out.member(#wire);)
    }
}

/// A class's struct over JSON.
fn concrete_class(model: &Model, c: &ClassModel, hinted: bool) -> TokenStream {
    let rust = ident(&c.rust);
    let id = type_id(model, c);
    let own: Vec<&str> = if hinted {
        vec![id.as_str()]
    } else {
        Vec::new()
    };
    let hint = hinted.then(|| match (written_as_is(&id), written_as_is("__type")) {
        (true, true) => {
            let text = raw_literal(&format!(r#""__type":"{id}""#));
            quote!(out.member_text(#text);)
        }
        _ => quote! {
            out.member("__type");
            out.string(#id);
        },
    });
    let order = json_order(model, c);
    let writes = order.iter().map(|m| {
        let field = ident(&m.field);
        let member = member_start(&m.wire);
        quote! {
            #member
            json::ToJson::write_json(&self.#field, out);
        }
    });
    let names: Vec<&String> = order.iter().map(|m| &m.wire).collect();
    let streamed_body = match order.as_slice() {
        [] => quote! {
            let mut members = json.open_class(&[#(#own),*])?;
            json.next_member(&mut members, &[])?;
            Some(Self::default())
        },
        [only] => {
            let field = ident(&only.field);
            quote! {
                let mut read = Self::default();
                let mut members = json.open_class(&[#(#own),*])?;
                while json.next_member(&mut members, &[#(#names),*])?.is_some() {
                    read.#field = json.value()?;
                }
                Some(read)
            }
        }
        _ => {
            let arms = order.iter().enumerate().map(|(i, m)| {
                let i = proc_macro2::Literal::usize_unsuffixed(i);
                let field = ident(&m.field);
                quote!(#i => read.#field = json.value()?,)
            });
            quote! {
                let mut read = Self::default();
                let mut members = json.open_class(&[#(#own),*])?;
                while let Some(member) = json.next_member(&mut members, &[#(#names),*])? {
                    match member {
                        #(#arms)*
                        _ => {}
                    }
                }
                Some(read)
            }
        }
    };
    let reads = order.iter().enumerate().map(|(i, m)| {
        let i = proc_macro2::Literal::usize_unsuffixed(i);
        let field = ident(&m.field);
        quote!(Some(#i) => read.#field = json::FromJson::from_json(item)?,)
    });
    let read_member = if let [only] = order.as_slice() {
        // One member: a `match` of one arm is an `if`.
        let (wire, field) = (&only.wire, ident(&only.field));
        quote! {
            if json::member_index(name, &[#wire]).is_some() {
                read.#field = json::FromJson::from_json(item)?;
            }
        }
    } else {
        quote! {
            match json::member_index(name, &[#(#names),*]) {
                #(#reads)*
                _ => {}
            }
        }
    };
    let read_body = if order.is_empty() {
        quote! {
            json::class_members(value, Self::DOTNET, &[#(#own),*], TYPE_HINTS)?;
            Ok(Self::default())
        }
    } else {
        quote! {
            let mut read = Self::default();
            for (name, item) in json::class_members(value, Self::DOTNET, &[#(#own),*], TYPE_HINTS)? {
                #read_member
            }
            Ok(read)
        }
    };
    let write_doc = doc(&if hinted {
        format!("`__type` (`{id}`), then its members, the derived class's first.")
    } else {
        "Its members, the derived class's first.".to_owned()
    });
    quote! {
        impl json::ToJson for #rust {
            #write_doc
            fn write_json(&self, out: &mut json::JsonOut) {
                out.open_object();
                #hint
                #(#writes)*
                out.close_object();
            }
        }

        impl json::FromJson for #rust {
            const DOTNET: &'static str = #id;
            fn from_json(value: &json::Json) -> Result<Self, json::JsonError> {
                #read_body
            }

            /// Its members as they come (see `json::Streamed`).
            fn read_json(json: &mut json::Streamed<'_>) -> Option<Self> {
                #streamed_body
            }
        }
    }
}

/// The `Any…` enum of a class with derived classes: a value by its `__type`, the declared
/// class where it has none.
fn any_enum(
    model: &Model,
    c: &ClassModel,
    index: usize,
    any: &str,
    clients: &BTreeSet<usize>,
) -> TokenStream {
    let any_ident = ident(any);
    let concrete: Vec<usize> = std::iter::once(index)
        .filter(|_| !c.is_abstract)
        .chain(
            c.derived
                .iter()
                .copied()
                .filter(|&d| !model.classes[d].is_abstract),
        )
        .collect();
    let writes = concrete.iter().map(|&i| {
        let v = ident(&model.classes[i].rust);
        quote!(#any_ident::#v(value) => json::ToJson::write_json(value, out),)
    });
    // A hint names a derived class only where that class carries hints.
    let hinted = concrete
        .iter()
        .filter(|&&i| i != index && clients.contains(&i))
        .map(|&i| {
            let v = ident(&model.classes[i].rust);
            let id = type_id(model, &model.classes[i]);
            quote!(Some(#id) => Ok(#any_ident::#v(#v::from_json(value)?)),)
        });
    let declared = ident(&c.rust);
    let own_id = type_id(model, c);
    let unhinted = if c.is_abstract {
        quote!(Err(json::JsonError::AbstractType(#own_id.to_owned())))
    } else {
        quote!(Ok(#any_ident::#declared(#declared::from_json(value)?)))
    };
    let own_hint = clients.contains(&index).then(|| quote!(| Some(#own_id)));
    quote! {
        impl json::ToJson for #any_ident {
            fn write_json(&self, out: &mut json::JsonOut) {
                match self {
                    #(#writes)*
                }
            }
        }

        impl json::FromJson for #any_ident {
            const DOTNET: &'static str = #own_id;
            /// The class its `__type` names; without one, the declared class.
            fn from_json(value: &json::Json) -> Result<Self, json::JsonError> {
                match json::type_hint(value) {
                    #(#hinted)*
                    None #own_hint => #unhinted,
                    Some(other) => Err(json::JsonError::unknown_hint(other, Self::DOTNET, TYPE_HINTS)),
                }
            }
        }
    }
}

/// An operation's JSON code, for its wire file.
pub(super) struct ScriptOperation {
    /// Client side: the request over JSON (statements returning it).
    pub encode_request: TokenStream,
    /// Server side: `decode_request`'s JSON branch.
    pub decode_request: TokenStream,
    /// Server side: the JSON reader of the parameters (a method).
    pub decode_fn: TokenStream,
    /// Server side: `encode_response`'s JSON branch.
    pub encode_response: TokenStream,
    /// Client side: `decode_response`'s JSON branch.
    pub decode_response: TokenStream,
}

/// The expression of a parameter's value in a decoded request.
pub(super) type ParamValue = dyn Fn(&crate::model::ParamModel) -> TokenStream;

/// The JSON code of `op` (of a `[ScriptService]`), its request built by `build` from each
/// parameter's value.
pub(super) fn operation(
    model: &Model,
    op: &OperationModel,
    build: &dyn Fn(&ParamValue) -> TokenStream,
) -> ScriptOperation {
    let use_get = op.script_get;
    let names = op.params.iter().map(|p| &p.wire);
    let values = op.params.iter().map(|p| {
        let wire = &p.wire;
        let field = ident(&p.field);
        let value = match p.role {
            Role::Business => quote!(self.#field),
            Role::Credential(_) => quote!(credentials.#field),
        };
        quote!((#wire, runtime::json::script::value_text(&#value)),)
    });
    let decoded = build(&|p| {
        let wire = &p.wire;
        quote!(args.param(#wire)?)
    });
    // A POST with parameters: the usual call read straight into the parameters' types.
    let streamed = (!use_get && !op.params.is_empty()).then(|| {
        let slots: Vec<proc_macro2::Ident> = (0..op.params.len())
            .map(|i| quote::format_ident!("p{i}"))
            .collect();
        let wires = op.params.iter().map(|p| &p.wire);
        // Each parameter's slot, by its wire name (unique in an operation).
        let by_wire: Vec<(String, proc_macro2::Ident)> = op
            .params
            .iter()
            .map(|p| p.wire.clone())
            .zip(slots.iter().cloned())
            .collect();
        let built = build(&move |p| {
            let (_, slot) = by_wire
                .iter()
                .find(|(wire, _)| *wire == p.wire)
                .expect("a parameter of the operation");
            quote!(#slot?)
        });
        let read = if let [slot] = slots.as_slice() {
            quote! {
                while json.next_param(&mut params, &[#(#wires),*])?.is_some() {
                    #slot = Some(json.value()?);
                }
            }
        } else {
            let arms = slots.iter().enumerate().map(|(i, slot)| {
                let i = proc_macro2::Literal::usize_unsuffixed(i);
                quote!(#i => #slot = Some(json.value()?),)
            });
            quote! {
                while let Some(param) = json.next_param(&mut params, &[#(#wires),*])? {
                    match param {
                        #(#arms)*
                        _ => {}
                    }
                }
            }
        };
        quote! {
            let streamed = runtime::json::script::streamed(request, false, |json| {
                let mut params = json.open_params()?;
                #(let mut #slots = None;)*
                #read
                Some(#built)
            });
            if let Some(read) = streamed {
                return Ok(read);
            }
        }
    });
    let verb = if use_get { "GET" } else { "POST" };
    // An operation without parameters reads none (but still refuses what is no JSON object).
    let args = if op.params.is_empty() {
        quote!(_)
    } else {
        quote!(args)
    };
    let decode_doc = doc(&format!(
        "Server side: reads a JSON call (a `{verb}`{}): every parameter is required, its \
         name matched exactly, and converted as ObjectConverter converts it; others are \
         skipped.{}",
        if use_get {
            ", each parameter a JSON value in the query"
        } else {
            ", the parameters one JSON object in the body"
        },
        if streamed.is_some() {
            " The usual call is read straight into the parameters' types \
             (`runtime::json::script::streamed`); any other through the value tree, which \
             words its errors."
        } else {
            ""
        }
    ));
    let (encode_response, decode_response) = if op.script_xml {
        // `ResponseFormat.Xml`: the value as XmlSerializer writes its own type.
        let answer = match op.result {
            ty if ty.is_complex() => {
                let items = super::items_expr(model, ty);
                let root = model.root_name(ty);
                quote!(runtime::json::xml::xml_value(OPERATION.name, self.result.as_ref(), #items, #root))
            }
            SoapType::String => quote!(runtime::json::xml::xml_text(self.result.as_deref())),
            SoapType::Void => quote!(runtime::json::xml::xml_text(None)),
            SoapType::Base64Binary => {
                quote!(runtime::json::xml::xml_nullable(self.result.as_ref()))
            }
            _ if op.result_nullable => {
                quote!(runtime::json::xml::xml_nullable(self.result.as_ref()))
            }
            _ => quote!(runtime::json::xml::xml_scalar(&self.result)),
        };
        (
            quote! {
                if binding == Binding::Json {
                    return Ok(#answer);
                }
            },
            quote! {
                if binding == Binding::Json {
                    return Err(ResponseError::Undecodable {
                        operation: OPERATION.name,
                        binding,
                        reason: "an XML answer (ResponseFormat.Xml), which rmm's client does not read yet".to_owned(),
                        body: bytes::Bytes::copy_from_slice(response.body().as_ref()),
                    });
                }
            },
        )
    } else if op.result == SoapType::Void {
        (
            quote! {
                if binding == Binding::Json {
                    return Ok(runtime::json::script::answer_void());
                }
            },
            quote! {
                if binding == Binding::Json {
                    return runtime::json::script::decode_answer::<Option<String>, B>(OPERATION.name, response)
                        .map(|_| Self::default());
                }
            },
        )
    } else {
        (
            quote! {
                if binding == Binding::Json {
                    return Ok(runtime::json::script::answer(&self.result));
                }
            },
            quote! {
                if binding == Binding::Json {
                    return runtime::json::script::decode_answer(OPERATION.name, response)
                        .map(|result| Self { result });
                }
            },
        )
    };
    let encode_request = if op.script_xml {
        quote! {
            if binding == Binding::Json {
                return Err(EncodeError::XmlAnswer { operation: OPERATION.name });
            }
        }
    } else {
        quote! {
            if binding == Binding::Json {
                return Ok(runtime::json::script::request(
                    OPERATION.http_path,
                    #use_get,
                    &[#(#values)*],
                ));
            }
        }
    };
    ScriptOperation {
        encode_request,
        decode_request: quote! {
            if binding == Binding::Json {
                return Self::decode_json(request).map_err(RequestError::Json);
            }
        },
        decode_fn: quote! {
            #decode_doc
            pub fn decode_json<B: AsRef<[u8]>>(
                request: &http::Request<B>,
            ) -> Result<(Credentials, Self), runtime::json::JsonError> {
                #streamed
                let #args = runtime::json::script::ScriptArgs::of_request(
                    request,
                    OPERATION.name,
                    #use_get,
                    &[#(#names),*],
                )?;
                Ok(#decoded)
            }
        },
        encode_response,
        decode_response,
    }
}
