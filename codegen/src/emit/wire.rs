//! `wire/`: per operation, its wire literals and the four bindings' codecs in both
//! directions, as sans-IO methods of the request and response types.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::{doc, ident};
use crate::model::{Model, OperationModel, ParamModel, Role};
use crate::spec::{BindingName, SoapType};

/// Room reserved for a value whose length is not known before writing it: the longest text
/// of the type (the runtime's `Scalar::ROOM`); a string's is counted at run time.
fn value_room(model: &Model, ty: SoapType) -> usize {
    match ty {
        SoapType::Enum(i) => model.enums[usize::from(i)]
            .values
            .iter()
            .map(|(wire, _)| wire.len())
            .max()
            .unwrap_or(0),
        SoapType::String
        | SoapType::Void
        | SoapType::Base64Binary
        | SoapType::Xml
        | SoapType::XmlNode
        | SoapType::DataSet
        | SoapType::DataTable
        | SoapType::TypedDataSet(_)
        | SoapType::Object
        | SoapType::Class(_)
        | SoapType::Array(_)
        | SoapType::Choice(_) => 0,
        SoapType::Int => 11,          // "-2147483648"
        SoapType::Boolean => 5,       // "false"
        SoapType::Decimal => 31,      // 29 digits, sign, point
        SoapType::Long => 20,         // "-9223372036854775808"
        SoapType::Short => 6,         // "-32768"
        SoapType::Byte => 4,          // "-128"
        SoapType::UnsignedByte => 3,  // "255"
        SoapType::UnsignedShort => 5, // "65535"
        SoapType::UnsignedInt => 10,  // "4294967295"
        SoapType::UnsignedLong => 20, // "18446744073709551615"
        SoapType::Float => 15,        // "-3.40282347E+38"
        SoapType::Double => 24,       // "-1.7976931348623157E+308"
        SoapType::Char => 5,          // "65535"
        SoapType::Guid => 36,         // 8-4-4-4-12 hex digits
        // A date's is its `DateTime`'s, which HTTP GET/POST carry.
        SoapType::DateTime | SoapType::Date => 33, // "9999-12-31T23:59:59.9999999+14:00"
    }
}

pub(super) fn emit_mod(model: &Model) -> TokenStream {
    let modules = model.operations.iter().map(|op| {
        let module = format_ident!("{}", op.snake);
        let text = doc(&format!("Operation {}: `{}`.", op.number, op.wire));
        quote!(#text pub mod #module;)
    });
    quote! {
        //! Wire code, one module per operation. Every module holds the operation's literals
        //! (`OPERATION`) and four methods:
        //!
        //! | side | request | response |
        //! |---|---|---|
        //! | client | `encode_request` | `decode_response` |
        //! | server | `decode_request` | `encode_response` |
        //!
        //! They are sans-IO: they turn typed values into `http` messages with byte bodies and
        //! back, for any of the four [`Binding`]s.

        use crate::runtime::deps::{bytes, http};
        use crate::runtime::{self, Binding, EncodeError, RequestError, ResponseError};
        use crate::{Credentials, Operation, SoapHeaders};

        #(#modules)*

        /// What every request type does, for code generic over operations (a client's
        /// `call`, a server's dispatch, tests). Each method is the request type's inherent
        /// method of the same name.
        pub trait OperationRequest: Sized + Clone + PartialEq + std::fmt::Debug {
            /// The operation's response type.
            type Response: OperationResponse;
            /// What the service trait's method of the operation returns as its error: a
            /// [`Fault`](crate::Fault), or the operation's own fault type where a SOAP header
            /// travels with its faults (made from a `Fault` with `into()`).
            type Error: From<crate::Fault>;
            /// The operation.
            const OPERATION: Operation;
            /// Client side: this call as a request of `binding`.
            fn encode_request(&self, credentials: &Credentials, binding: Binding) -> Result<http::Request<bytes::Bytes>, EncodeError>;
            /// Client side: puts the SOAP headers this request sets over `headers`.
            fn headers_over(&self, headers: &mut SoapHeaders);
            /// Client side: this call as a request of `binding`, with `headers` as its SOAP
            /// headers.
            fn encode_request_with(&self, credentials: &Credentials, headers: &SoapHeaders, binding: Binding) -> Result<http::Request<bytes::Bytes>, EncodeError>;
            /// Server side: reads a request of `binding` routed to this operation.
            fn decode_request<B: AsRef<[u8]>>(request: &http::Request<B>, binding: Binding) -> Result<(Credentials, Self), RequestError>;
            /// Every parameter in wire order, credentials at their positions.
            fn values<'a>(&'a self, credentials: &'a Credentials) -> Vec<(&'static str, runtime::ParamValue<'a>)>;
        }

        /// What every response type does.
        pub trait OperationResponse: Sized + Clone + PartialEq + std::fmt::Debug {
            /// The result's Rust type (`Option<String>` for a SOAP `string`).
            type Result: Clone + PartialEq + std::fmt::Debug;
            /// A response holding `result`.
            fn from_result(result: Self::Result) -> Self;
            /// The result.
            fn result(&self) -> &Self::Result;
            /// Server side: the `200` response on `binding`.
            fn encode_response(&self, binding: Binding) -> Result<http::Response<bytes::Bytes>, EncodeError>;
            /// Client side: reads the response to a call over `binding`.
            fn decode_response<B: AsRef<[u8]>>(response: &http::Response<B>, binding: Binding) -> Result<Self, ResponseError>;
        }

        /// A response whose result is an array: what the client's `call_items` reads item
        /// by item as the response arrives.
        pub trait ArrayResponse: OperationResponse {
            /// An item of the array (an `Option` where an item may be nil).
            type Item;
            /// The result's items (none for an absent or nil result).
            fn into_items(self) -> Vec<Self::Item>;
        }

        /// A response whose result is a DataSet: what the client's `call_rows` reads row
        /// by row as the response arrives.
        pub trait DataSetResponse: OperationResponse {}
    }
}

/// `field: value,`, or the shorthand `field,` when the value is the variable of that name.
fn field_init(field: &proc_macro2::Ident, value: TokenStream) -> TokenStream {
    if *field == value.to_string() {
        quote!(#field,)
    } else {
        quote!(#field: #value,)
    }
}

/// The expression reading a parameter's value: from the request or from the credentials.
fn value_expr(p: &ParamModel) -> TokenStream {
    let field = ident(&p.field);
    match p.role {
        Role::Business => quote!(self.#field),
        Role::Credential(_) => quote!(credentials.#field),
    }
}

pub(super) fn emit_operation(model: &Model, op: &OperationModel) -> TokenStream {
    let request = ident(&op.rust_name);
    let response = ident(&op.response_type);
    // The server method's error: the operation's fault type where it has one.
    let error_type = match &op.fault_type {
        Some(fault) => {
            let fault = ident(fault);
            quote!(crate::#fault)
        }
        None => quote!(crate::Fault),
    };
    let module_doc = super::inner_doc(&format!(
        "Wire code of operation {}, `{}`: {} parameters over SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST.",
        op.number,
        op.wire,
        op.params.len()
    ));
    let (name, soap_action, soap12_ct, http_path) = (
        &op.wire,
        &op.soap_action,
        &op.soap12_content_type,
        &op.http_path,
    );
    let (request_open, request_close) = (&op.request_open, &op.request_close);
    let (response_open, response_close) = (&op.response_open, &op.response_close);
    let (response_name, result_name) = (&op.response_name, &op.result_name);
    let (bare, request_element) = (op.bare, &op.request_element);

    // Client: SOAP encoder, one writer call per parameter, in wire order.
    let fixed_soap: usize = op.request_open.len()
        + op.request_close.len()
        + op.params
            .iter()
            .map(|p| p.open_tag.len() + p.close_tag.len() + value_room(model, p.ty))
            .sum::<usize>();
    let fixed_form: usize = op
        .params
        .iter()
        .map(|p| p.wire.len() + 2 + value_room(model, p.ty))
        .sum();
    let string_lens: Vec<TokenStream> = op
        .params
        .iter()
        .filter(|p| matches!(p.ty, SoapType::String | SoapType::Base64Binary))
        .map(|p| {
            let value = value_expr(p);
            if p.ty == SoapType::String {
                quote!(+ message::text_len(&#value))
            } else {
                // Base64 takes four characters for three bytes (over HTTP, up to four per
                // byte with its name: the writer grows).
                quote!(+ #value.as_ref().map_or(0, |b| b.len() / 3 * 4 + 4))
            }
        })
        .collect();
    let soap_writes = soap_writes(model, op);
    let form_writes = op.params.iter().map(|p| {
        let value = value_expr(p);
        let wire = &p.wire;
        match p.ty {
            SoapType::String => {
                quote!(form.string(OPERATION.name, #wire, #value.as_deref(), binding)?;)
            }
            SoapType::Base64Binary => {
                quote!(form.bytes(OPERATION.name, #wire, #value.as_deref(), binding)?;)
            }
            SoapType::Array(_) => {
                quote!(form.array(OPERATION.name, #wire, #value.as_deref(), binding)?;)
            }
            _ => quote!(form.scalar(#wire, &#value);),
        }
    });

    // Server: SOAP decoder. One slot per parameter; the first occurrence wins.
    let slots = op
        .params
        .iter()
        .map(|p| {
            let slot = ident(&p.field);
            // `None` until the element is read; a string's own `Option` is its absence.
            let ty = match p.ty {
                SoapType::String => quote!(Option<String>),
                SoapType::Base64Binary => quote!(Option<Vec<u8>>),
                ty => {
                    let rust = super::value_type(model, ty, p.nullable);
                    quote!(Option<#rust>)
                }
            };
            quote!(let mut #slot: #ty = None;)
        })
        .collect::<Vec<_>>();
    let arms = op.params.iter().map(|p| {
        let slot = ident(&p.field);
        let wire = &p.wire;
        let bytes = Literal::byte_string(p.wire.as_bytes());
        let read = match p.ty {
            SoapType::String => quote!(param.string(#wire)?),
            SoapType::Base64Binary => quote!(param.bytes(#wire)?),
            SoapType::Xml => quote!(param.raw_xml(#wire)?),
            SoapType::XmlNode => quote!(param.raw_node(#wire)?),
            SoapType::DataSet | SoapType::DataTable | SoapType::TypedDataSet(_) => {
                quote!(param.data_set(#wire)?)
            }
            ty if ty.is_complex() => {
                let items = super::items_expr(model, ty);
                if p.nillable {
                    quote!(param.nillable(#wire, #items)?)
                } else {
                    quote!(param.optional(#wire, #items)?)
                }
            }
            _ if p.nullable => quote!(param.nullable(#wire)?),
            _ => quote!(param.scalar(#wire)?),
        };
        quote!(#bytes if #slot.is_none() => #slot = Some(#read),)
    });
    // The same arms on the streamed path (`decode_soap_streamed`), which reads parameters as
    // a class's members are read (`tree::Member`): a string or byte array present is
    // `Some`, a nil one left to the general reader (as `param.string` refuses it).
    let streamed_arms = op.params.iter().map(|p| {
        let slot = ident(&p.field);
        let wire = &p.wire;
        let read = match p.ty {
            SoapType::String | SoapType::Base64Binary => {
                return quote!(#wire if #slot.is_none() => #slot = param.optional(#wire, &[])?,);
            }
            ty if ty.is_complex() => {
                let items = super::items_expr(model, ty);
                if p.nillable {
                    quote!(param.value(#wire, #items)?)
                } else {
                    quote!(param.optional(#wire, #items)?)
                }
            }
            _ if p.nullable => quote!(param.nullable(#wire)?),
            _ => quote!(param.scalar(#wire)?),
        };
        quote!(#wire if #slot.is_none() => #slot = Some(#read),)
    });
    let soap_value = |p: &ParamModel| {
        let slot = ident(&p.field);
        match p.ty {
            SoapType::String | SoapType::Base64Binary => quote!(#slot),
            _ => quote!(#slot.unwrap_or_default()),
        }
    };
    let form_reads = op.params.iter().map(|p| {
        let slot = ident(&p.field);
        let wire = &p.wire;
        let read = match p.ty {
            SoapType::String => quote!(Some(form.string(OPERATION.name, #wire)?)),
            SoapType::Base64Binary => quote!(Some(form.bytes(OPERATION.name, #wire)?)),
            SoapType::Array(_) => quote!(Some(form.array(OPERATION.name, #wire)?)),
            _ => quote!(form.scalar(OPERATION.name, #wire)?),
        };
        quote!(let #slot = #read;)
    });
    let form_value = |p: &ParamModel| {
        let slot = ident(&p.field);
        quote!(#slot)
    };
    // The request from its parameters' values (`value`) and, over SOAP's general reader, its
    // headers (`headers`: else none).
    let build = |value: &dyn Fn(&ParamModel) -> TokenStream, headers: bool| {
        let credentials = model.credentials.iter().enumerate().map(|(i, c)| {
            let field = ident(&c.field);
            match op.params.iter().find(|p| p.role == Role::Credential(i)) {
                Some(p) => field_init(&field, value(p)),
                None => quote!(#field: Default::default(),),
            }
        });
        let fields = op
            .business_params()
            .map(|p| field_init(&ident(&p.field), value(p)));
        let header_fields = op.in_headers().map(|h| {
            let field = ident(&h.field);
            if headers {
                quote!(#field,)
            } else {
                quote!(#field: None,)
            }
        });
        quote! {
            (Credentials { #(#credentials)* }, #request { #(#fields)* #(#header_fields)* })
        }
    };
    let soap_build = build(&soap_value, true);
    // A `[ScriptService]`'s operation: its JSON code beside the rest.
    let json = model
        .service
        .script
        .is_some()
        .then(|| super::script::operation(model, op, &|value| build(value, false)));
    let json_part = |part: fn(&super::script::ScriptOperation) -> &TokenStream| {
        json.as_ref().map(part).cloned().unwrap_or_default()
    };
    let json_encode_request = json_part(|j| &j.encode_request);
    let json_decode_request = json_part(|j| &j.decode_request);
    let json_decode_fn = json_part(|j| &j.decode_fn);
    let json_encode_response = json_part(|j| &j.encode_response);
    let json_decode_response = json_part(|j| &j.decode_response);
    let form_build = build(&form_value, false);
    // Server: the SOAP decoder's path for parameters sent once each, in wire order.
    let in_order_value = |p: &ParamModel| {
        let value = ident(&p.field);
        // The in-order path sees no attributes (an `xsi:nil` leaves the request to the
        // general reader): a nullable value there is present.
        match p.ty {
            SoapType::String => quote!(Some(#value.string())),
            _ if p.nullable || p.ty == SoapType::Base64Binary => quote!(Some(#value.scalar()?)),
            _ => quote!(#value.scalar()?),
        }
    };
    let in_order_build = build(&in_order_value, false);
    let in_order_names: Vec<_> = op.params.iter().map(|p| ident(&p.field)).collect();
    // Parameters of a class or array type are read as value trees, by the general reader
    // alone (the in-order path reads text).
    let trees: Vec<&str> = op
        .params
        .iter()
        .filter(|p| p.ty.is_complex())
        .map(|p| p.wire.as_str())
        .collect();
    // Parameters of raw XML are read by the general reader alone too.
    let raws: Vec<&str> = op
        .params
        .iter()
        .filter(|p| matches!(p.ty, SoapType::Xml | SoapType::XmlNode))
        .map(|p| p.wire.as_str())
        .collect();
    // DataSets are read whole by the general reader.
    let data_sets: Vec<&str> = op
        .params
        .iter()
        .filter(|p| {
            matches!(
                p.ty,
                SoapType::DataSet | SoapType::DataTable | SoapType::TypedDataSet(_)
            )
        })
        .map(|p| p.wire.as_str())
        .collect();
    let general_only = !trees.is_empty() || !raws.is_empty() || !data_sets.is_empty();
    let count = Literal::usize_unsuffixed(op.params.len());
    let wire_names = op.params.iter().map(|p| &p.wire);
    let rpc = model
        .service
        .rpc
        .then(|| super::encoded::operation(model, op, value_expr));
    let general_only = general_only || rpc.is_some();
    let params_const = if !general_only {
        quote! {
            /// The parameters' wire names, in wire order.
            const PARAMS: [&str; #count] = [#(#wire_names),*];
        }
    } else {
        quote!()
    };
    let header_names = op.in_headers().map(|h| h.key.as_str());
    // The headers are read before the parameters, as ASMX reads them (a bad header value is
    // refused before a bad parameter).
    let header_reads = op.in_headers().map(|h| {
        let field = ident(&h.field);
        let key = &h.key;
        quote!(let #field = reader.header(#key)?;)
    });
    // DataSets are read by the reader of raw XML, told which parameters they are.
    let with_data_sets = if data_sets.is_empty() {
        quote!()
    } else {
        quote!(.with_data_sets(&[#(#data_sets),*]))
    };
    let new_reader = if !raws.is_empty() || !data_sets.is_empty() {
        quote!(soap::RequestReader::with_raw(
            binding,
            &OPERATION,
            body,
            &[#(#trees),*],
            &[#(#raws),*],
            &[#(#header_names),*]
        )?#with_data_sets)
    } else if op.in_headers().next().is_some() {
        quote!(soap::RequestReader::with_headers(
            binding,
            &OPERATION,
            body,
            &[#(#trees),*],
            &[#(#header_names),*]
        )?)
    } else if trees.is_empty() {
        quote!(soap::RequestReader::new(binding, &OPERATION, body)?)
    } else {
        quote!(soap::RequestReader::with_trees(binding, &OPERATION, body, &[#(#trees),*])?)
    };
    // Classes and arrays are read straight from a request in the scanner's shape; what is
    // read whole by the general reader alone (raw XML, DataSets) and RPC/encoded are not.
    let streams =
        !trees.is_empty() && raws.is_empty() && data_sets.is_empty() && !op.bare && rpc.is_none();
    let streamed_build = build(&soap_value, false);
    let (streamed_call, streamed_fn) = if streams {
        (
            quote! {
                // A request in the scanner's shape: its classes read without value trees.
                if let Ok(decoded) = Self::decode_soap_streamed(binding, body) {
                    return Ok(decoded);
                }
            },
            quote! {
                /// `decode_soap` straight from the message, its classes and arrays read
                /// without value trees (see `soap::read_streamed_request`); `Err` leaves the
                /// request to the general reader, which gives the same values and words
                /// the errors.
                fn decode_soap_streamed(binding: Binding, body: &[u8]) -> Result<(Credentials, Self), runtime::tree::Fallback> {
                    use runtime::tree::{Member as _, Members as _};
                    soap::read_streamed_request(binding, &OPERATION, body, |params| {
                        #(#slots)*
                        while let Some(param) = params.next_member()? {
                            match param.name() {
                                #(#streamed_arms)*
                                _ => {}
                            }
                        }
                        Ok(#streamed_build)
                    })
                }
            },
        )
    } else {
        (quote!(), quote!())
    };
    let (in_order_call, in_order_fn) = if !general_only {
        (
            quote! {
                // Nearly every client sends each parameter once, in wire order: read straight to values.
                if let Some(decoded) = Self::decode_soap_in_order(binding, body) {
                    return Ok(decoded);
                }
            },
            quote! {
                /// `decode_soap` for a request holding every parameter once, in wire order
                /// (see `soap::InOrder`); `None` leaves any other request, and a value that does
                /// not parse, to the general reader, which also words the errors.
                fn decode_soap_in_order(binding: Binding, body: &[u8]) -> Option<(Credentials, Self)> {
                    let scanned = soap::InOrder::scan(binding, &OPERATION, body, &PARAMS)?;
                    let [#(#in_order_names),*] = scanned.values();
                    Some(#in_order_build)
                }
            },
        )
    } else {
        (quote!(), quote!())
    };

    let order: Vec<String> = op.params.iter().map(|p| p.wire.clone()).collect();
    let encode_doc = doc(&format!(
        "Client side: this call as a request of `binding`, the credentials at their positions \
         (wire order: {}).\n\n\
         SOAP 1.1 posts an envelope to `{}` with `SOAPAction: {}`; SOAP 1.2 posts one with \
         `Content-Type: {}`; HTTP GET sends the parameters in the query of `{}`; HTTP POST \
         sends them as a form body to the same path. The URI is origin-form: join it to the \
         base URL. Fails only for a `None` string over HTTP GET/POST or a string with a \
         character XML cannot carry.",
        order.join(", "),
        model.service.path,
        op.soap_action,
        op.soap12_content_type,
        op.http_path
    ));
    let decode_doc = doc(if rpc.is_some() {
        "Server side: reads a request of `binding` routed to this operation.\n\n\
         SOAP (RPC/encoded): parameters are the method element's unqualified accessors, in any \
         order, the first of a repeated one kept, unknown ones ignored and absent ones at their \
         defaults, as on an ASMX host; references (`href`, `soapenc:ref`) are followed and a \
         present `xsi:type` must be the parameter's; qualified parameters, `xsi:nil` for a value \
         type and a DOCTYPE are refused. HTTP GET/POST: every parameter is required, names \
         match case-insensitively, and repeated parameters are refused."
    } else {
        "Server side: reads a request of `binding` routed to this operation.\n\n\
         SOAP: parameters may come in any order, the first of a repeated element wins, unknown \
         elements are ignored and absent ones take their defaults (`0`, `false`, `None`), as on \
         an ASMX host; unqualified parameters, `xsi:nil` and a DOCTYPE are refused. HTTP \
         GET/POST: every parameter is required, names match case-insensitively, and repeated \
         parameters are refused."
    });
    let operation_doc = format!(" The wire literals of `{}`.", op.wire);
    let values = op.params.iter().map(|p| {
        let value = value_expr(p);
        let wire = &p.wire;
        match p.ty {
            SoapType::String => quote!((#wire, runtime::ParamValue::String(#value.as_deref())),),
            SoapType::Base64Binary => quote! {
                (#wire, match #value.as_deref() {
                    Some(bytes) => runtime::ParamValue::Base64Binary(bytes),
                    None => runtime::ParamValue::Nil(runtime::SoapType::Base64Binary),
                }),
            },
            ty if ty.is_complex() || ty.is_raw() => {
                let name = model.type_name(ty);
                quote!((#wire, runtime::ParamValue::complex(#name, &#value)),)
            }
            _ if p.nullable => quote!((#wire, runtime::ParamValue::nullable(&#value)),),
            _ => quote!((#wire, runtime::Scalar::param_value(&#value)),),
        }
    });
    let variant = ident(&op.rust_name);
    // An operation with SOAP headers writes them in the envelope's Header, each declaring the
    // service namespace, before its Body.
    let start_envelope = if op.in_headers().next().is_none() {
        quote!(let mut w = soap::SoapWriter::new(binding, &OPERATION, capacity);)
    } else {
        let blocks = op.in_headers().map(|h| {
            let field = ident(&model.sent_header(h.class).field);
            let wire = &h.wire;
            let xmlns = format!(" xmlns=\"{}\"", h.namespace);
            quote!(w.header(#xmlns, #wire, headers.#field.as_ref())?;)
        });
        quote! {
            let mut w = soap::SoapWriter::headed(binding, &OPERATION, capacity);
            #(#blocks)*
            w.body();
        }
    };
    let fixed_soap = Literal::usize_unsuffixed(fixed_soap);
    let fixed_form = Literal::usize_unsuffixed(fixed_form);
    let script = model.service.script.is_some();
    let bindings = if op.on_every_binding() && script {
        quote!(&[
            Binding::Soap11,
            Binding::Soap12,
            Binding::HttpGet,
            Binding::HttpPost,
            Binding::Json
        ])
    } else if op.on_every_binding() {
        quote!(&Binding::ALL)
    } else if script {
        let listed = op.bindings.iter().map(|b| match b {
            BindingName::Soap11 => quote!(Binding::Soap11),
            BindingName::Soap12 => quote!(Binding::Soap12),
            BindingName::Get => quote!(Binding::HttpGet),
            BindingName::Post => quote!(Binding::HttpPost),
        });
        quote!(&[#(#listed,)* Binding::Json])
    } else {
        let listed = op.bindings.iter().map(|b| match b {
            BindingName::Soap11 => quote!(Binding::Soap11),
            BindingName::Soap12 => quote!(Binding::Soap12),
            BindingName::Get => quote!(Binding::HttpGet),
            BindingName::Post => quote!(Binding::HttpPost),
        });
        quote!(&[#(#listed),*])
    };
    // An operation offered on fewer bindings refuses the others before writing anything; one
    // offered on neither HTTP binding has no form code at all.
    let check_offered = if op.on_every_binding() {
        quote!()
    } else {
        quote!(message::check_offered(&OPERATION, binding)?;)
    };
    // Every element is read (and so checked); an operation without parameters keeps none.
    // A bare operation's Body that holds elements but none of its parameters (the wrapped
    // form, another operation's element) is refused where the host reads every one absent.
    let read_params = if op.bare {
        let none_kept: Vec<TokenStream> = op
            .params
            .iter()
            .map(|p| {
                let slot = ident(&p.field);
                quote!(#slot.is_none())
            })
            .collect();
        let check = if none_kept.is_empty() {
            quote!(reader.check_bare_body()?;)
        } else {
            quote! {
                if #(#none_kept)&&* {
                    reader.check_bare_body()?;
                }
            }
        };
        quote! {
            while let Some(param) = reader.next_param()? {
                match param.name() {
                    #(#arms)*
                    _ => {}
                }
            }
            #check
        }
    } else if op.params.is_empty() {
        quote!(while reader.next_param()?.is_some() {})
    } else {
        quote! {
            while let Some(param) = reader.next_param()? {
                match param.name() {
                    #(#arms)*
                    _ => {}
                }
            }
        }
    };
    // An operation without parameters writes and reads no pair.
    let (form_mut, form_name) = if op.params.is_empty() {
        (quote!(), quote!(_form))
    } else {
        (quote!(mut), quote!(form))
    };
    // `credentials` goes unused where the operation carries none.
    let credentials_arg = if op
        .params
        .iter()
        .any(|p| matches!(p.role, Role::Credential(_)))
    {
        quote!(credentials)
    } else {
        quote!(_credentials)
    };
    let (encode_form, decode_form_call, decode_form_fn) = if op.over_http() {
        (
            quote! {
                let capacity = #fixed_form #(#string_lens)*;
                let #form_mut form = runtime::form::FormWriter::with_capacity(capacity);
                #(#form_writes)*
                Ok(message::form_request(binding, &OPERATION, form.finish()))
            },
            quote!(Self::decode_form(binding, request)),
            quote! {
                fn decode_form<B: AsRef<[u8]>>(binding: Binding, request: &http::Request<B>) -> Result<(Credentials, Self), RequestError> {
                    // Read (and so checked) even when it holds no parameter.
                    let #form_name = message::read_form(binding, request)?;
                    #(#form_reads)*
                    Ok(#form_build)
                }
            },
        )
    } else {
        (
            quote!(Err(EncodeError::NotOffered {
                operation: OPERATION.name,
                binding
            })),
            quote!(Err(RequestError::NotOffered {
                operation: OPERATION.name,
                binding
            })),
            quote!(),
        )
    };
    let result_type = super::value_type(model, op.result, op.result_nullable);
    // A wrapped array result is read item by item by the client's `call_items`, a DataSet
    // result row by row by `call_rows`.
    let streamed_impl = match op.result {
        SoapType::Array(_) if op.outs.is_empty() && !op.bare && !op.result_nullable => {
            let item = super::item_type(model, op.result);
            quote! {
                impl super::ArrayResponse for #response {
                    type Item = #item;

                    fn into_items(self) -> Vec<#item> {
                        self.result.unwrap_or_default()
                    }
                }
            }
        }
        SoapType::DataSet if op.outs.is_empty() && !op.bare => {
            quote!(impl super::DataSetResponse for #response {})
        }
        _ => quote!(),
    };
    // The result and the out parameters (or a bare operation's result): the response element
    // (a bare operation's Body) read and written as a class's members are.
    let members_codec = || {
        let members = response_members(op);
        let writes = members
            .iter()
            .map(|m| super::members::member_write(model, m));
        let reads = members
            .iter()
            .enumerate()
            .map(|(i, m)| super::members::member_read(model, i, m));
        let count = Literal::usize_unsuffixed(members.len());
        let seen = super::members::seen_flags(members.iter(), count);
        // One member: a match of one arm, the form every response's reader shares.
        let single = (members.len() == 1).then(|| quote!(#[allow(clippy::single_match)]));
        (
            quote!(message::wrapper_response(binding, &OPERATION, |w| {
                #(#writes)*
                Ok(())
            })),
            quote!(message::decode_wrapper_response(binding, &OPERATION, response, |node| {
                let mut value = Self::default();
                #seen
                #single
                for member in node.members() {
                    match member.name() {
                        #(#reads)*
                        _ => {}
                    }
                }
                Ok(value)
            })),
        )
    };
    let (encode_result, decode_result) = match op.result {
        _ if !op.outs.is_empty() => members_codec(),
        // Over HTTP GET/POST an `object`'s document is rooted at `anyType`, declaring no
        // namespace but the service's.
        SoapType::Object if !op.bare => (
            quote!(message::object_response(
                binding,
                &OPERATION,
                self.result.as_ref()
            )),
            quote!(message::decode_value_response(
                binding,
                &OPERATION,
                response,
                &[],
                "anyType"
            )),
        ),
        ty if ty.is_complex() => {
            let items = super::items_expr(model, ty);
            let root = model.root_name(ty);
            // A class with a root: its result element is nillable.
            let (encode, decode) = if op.result_nillable {
                (
                    quote!(nillable_value_response),
                    quote!(decode_nillable_value_response),
                )
            } else {
                (quote!(value_response), quote!(decode_value_response))
            };
            (
                quote!(message::#encode(
                    binding,
                    &OPERATION,
                    self.result.as_ref(),
                    #items,
                    #root
                )),
                quote!(message::#decode(
                    binding, &OPERATION, response, #items, #root
                )),
            )
        }
        SoapType::Xml => (
            quote!(message::raw_xml_response(
                binding,
                &OPERATION,
                self.result.as_ref()
            )),
            quote!(message::decode_raw_xml_response(
                binding, &OPERATION, response
            )),
        ),
        SoapType::DataSet | SoapType::DataTable | SoapType::TypedDataSet(_) => (
            quote!(message::data_set_response(
                binding,
                &OPERATION,
                self.result.as_ref()
            )),
            quote!(message::decode_data_set_response(
                binding, &OPERATION, response
            )),
        ),
        SoapType::XmlNode => (
            quote!(message::raw_node_response(
                binding,
                &OPERATION,
                self.result.as_ref()
            )),
            quote!(message::decode_raw_node_response(
                binding, &OPERATION, response
            )),
        ),
        SoapType::Base64Binary => (
            quote!(Ok(message::bytes_response(
                binding,
                &OPERATION,
                self.result.as_deref()
            ))),
            quote!(message::decode_bytes_response(
                binding, &OPERATION, response
            )),
        ),
        SoapType::Void => (
            quote!(Ok(message::void_response(binding, &OPERATION))),
            quote!(message::decode_void_response(binding, &OPERATION, response)),
        ),
        _ if op.result_nullable => (
            quote!(Ok(message::nullable_response(
                binding,
                &OPERATION,
                self.result.as_ref()
            ))),
            quote!(message::decode_nullable_response(
                binding, &OPERATION, response
            )),
        ),
        SoapType::String => (
            quote!(message::string_response(
                binding,
                &OPERATION,
                self.result.as_deref()
            )),
            quote!(message::decode_string_response(
                binding, &OPERATION, response
            )),
        ),
        _ => (
            quote!(Ok(message::scalar_response(
                binding,
                &OPERATION,
                &self.result
            ))),
            quote!(message::decode_scalar_response(
                binding, &OPERATION, response
            )),
        ),
    };
    // A char no .NET char can be, or a dateTime no .NET DateTime can hold, is refused before
    // anything is written.
    let checked = |ty: SoapType| matches!(ty, SoapType::Char | SoapType::DateTime | SoapType::Date);
    let check = |ty: SoapType, field: TokenStream, value: TokenStream| match ty {
        SoapType::Char => quote!(message::check_char(OPERATION.name, #field, #value)?;),
        // A date's `DateTime`, which HTTP GET/POST carry whole.
        SoapType::Date => quote!(message::check_datetime(OPERATION.name, #field, &#value.0)?;),
        _ => quote!(message::check_datetime(OPERATION.name, #field, &#value)?;),
    };
    let value_checks = op.params.iter().filter(|p| checked(p.ty)).map(|p| {
        let value = value_expr(p);
        let wire = &p.wire;
        if p.nullable {
            let inner = check(p.ty, quote!(#wire), quote!(v));
            quote!(if let Some(v) = #value { #inner })
        } else {
            check(p.ty, quote!(#wire), value)
        }
    });
    let check_offered = quote!(#check_offered #(#value_checks)*);
    let result_check = match (checked(op.result), op.result_nullable) {
        (true, false) => check(
            op.result,
            quote!(OPERATION.result_name),
            quote!(self.result),
        ),
        (true, true) => {
            let inner = check(op.result, quote!(OPERATION.result_name), quote!(v));
            quote!(if let Some(v) = self.result { #inner })
        }
        _ => quote!(),
    };
    // A response with out parameters is read whole; any other is its result. A bare one is
    // read whole over SOAP, and as any other over HTTP GET/POST.
    let (encode_result, decode_self, from_result) = if op.bare {
        let (encode_soap, decode_soap) = members_codec();
        // The response's SOAP headers, if it has any, are set apart from the result.
        let rest = if op.out_headers().next().is_some() {
            quote!(..Default::default())
        } else {
            quote!()
        };
        (
            quote! {
                #result_check
                if binding.is_soap() {
                    #encode_soap
                } else {
                    #encode_result
                }
            },
            quote! {
                if binding.is_soap() {
                    #decode_soap
                } else {
                    #decode_result.map(|result| Self { result, #rest })
                }
            },
            quote!(Self { result, #rest }),
        )
    } else if op.outs.is_empty() && op.out_headers().next().is_none() {
        (
            quote!(#result_check #encode_result),
            quote!(#decode_result.map(|result| Self { result })),
            quote!(Self { result }),
        )
    } else if op.outs.is_empty() {
        (
            quote!(#result_check #encode_result),
            quote!(#decode_result.map(|result| Self {
                result,
                ..Default::default()
            })),
            quote!(Self {
                result,
                ..Default::default()
            }),
        )
    } else {
        (
            quote!(#result_check #encode_result),
            quote!(#decode_result),
            quote!(Self {
                result,
                ..Default::default()
            }),
        )
    };

    // The SOAP headers it writes: the server puts them in the response's Header, the client
    // reads them from it.
    let (encode_result, decode_self) = if op.out_headers().next().is_none() {
        (encode_result, decode_self)
    } else {
        let blocks = op.out_headers().map(|h| {
            let field = ident(&h.field);
            let wire = &h.wire;
            let xmlns = format!(" xmlns=\"{}\"", h.namespace);
            quote!(header.block(#xmlns, #wire, self.#field.as_ref())?;)
        });
        let names = op.out_headers().map(|h| h.key.as_str());
        let reads = op.out_headers().map(|h| {
            let field = ident(&h.field);
            let key = &h.key;
            quote!(value.#field = headers.header(#key)?;)
        });
        (
            quote! {
                let response = { #encode_result }?;
                let mut header = soap::HeaderWriter::response(binding, OPERATION.name);
                #(#blocks)*
                Ok(message::with_header(binding, response, header))
            },
            quote! {
                let mut value = { #decode_self }?;
                let headers = message::response_headers(binding, &OPERATION, response, &[#(#names),*])?;
                #(#reads)*
                Ok(value)
            },
        )
    };

    // An operation with SOAP headers encodes with the headers a client sends
    // (`encode_request_with`); `encode_request` sends the request's own.
    let reads_headers = op.in_headers().next().is_some();
    let encode_body = if let Some(rpc) = &rpc {
        let encode = &rpc.encode_request;
        let encode_form = if op.over_http() && model.service.rpc_service {
            super::encoded::over_documents(encode_form.clone())
        } else {
            encode_form.clone()
        };
        quote! {
            #check_offered
            if binding.is_soap() {
                #encode
            } else {
                #encode_form
            }
        }
    } else {
        quote! {
        #check_offered
        #json_encode_request
        if binding.is_soap() {
            let capacity = #fixed_soap #(#string_lens)*;
            #start_envelope
            #(#soap_writes)*
            Ok(message::soap_request(binding, &OPERATION, w.finish()))
        } else {
            #encode_form
        }
        }
    };
    let encode_fns = if reads_headers {
        let overs = op.in_headers().map(|h| {
            let field = ident(&h.field);
            let sent = ident(&model.sent_header(h.class).field);
            quote! {
                if let Some(header) = &self.#field {
                    headers.#sent = Some(header.clone());
                }
            }
        });
        quote! {
            #encode_doc
            pub fn encode_request(&self, credentials: &Credentials, binding: Binding) -> Result<http::Request<bytes::Bytes>, EncodeError> {
                let mut headers = SoapHeaders::default();
                self.headers_over(&mut headers);
                self.encode_request_with(credentials, &headers, binding)
            }

            /// Puts the SOAP headers this request sets over `headers` (a client's): what
            /// the call sends.
            pub fn headers_over(&self, headers: &mut SoapHeaders) {
                #(#overs)*
            }

            /// [`encode_request`](Self::encode_request) with `headers` as the SOAP headers,
            /// whatever the request's own: its Header holds those this operation reads.
            pub fn encode_request_with(
                &self,
                #credentials_arg: &Credentials,
                headers: &SoapHeaders,
                binding: Binding,
            ) -> Result<http::Request<bytes::Bytes>, EncodeError> {
                #encode_body
            }
        }
    } else {
        quote! {
            #encode_doc
            pub fn encode_request(
                &self,
                #credentials_arg: &Credentials,
                binding: Binding,
            ) -> Result<http::Request<bytes::Bytes>, EncodeError> {
                #encode_body
            }
        }
    };
    // Without SOAP headers, the headers a client sends are none of this operation's.
    let (headers_arg, trait_headers_over, trait_encode_with) = if reads_headers {
        (
            quote!(headers),
            quote!(Self::headers_over(self, headers)),
            quote!(Self::encode_request_with(
                self,
                credentials,
                headers,
                binding
            )),
        )
    } else {
        (
            quote!(_headers),
            quote!(),
            quote!(Self::encode_request(self, credentials, binding)),
        )
    };

    let fault_impl = fault_impl(op);
    let decode_soap_body = match &rpc {
        Some(rpc) => rpc.decode_soap.clone(),
        None => quote! {
            #in_order_call
            #streamed_call
            #(#slots)*
            let mut reader = #new_reader;
            #(#header_reads)*
            #read_params
            Ok(#soap_build)
        },
    };
    // An rpc operation: SOAP encoded, HTTP GET/POST literal (of `literalTypes`).
    let (encode_result, decode_self, decode_form_fn) = match &rpc {
        Some(rpc) if op.over_http() && model.service.rpc_service => {
            let (encode_soap, decode_soap) = (&rpc.encode_response, &rpc.decode_response);
            let encode_document = super::encoded::over_documents(encode_result);
            let decode_document = super::encoded::over_documents(decode_self);
            (
                quote! {
                    if binding.is_soap() {
                        #encode_soap
                    } else {
                        #encode_document
                    }
                },
                quote! {
                    if binding.is_soap() {
                        #decode_soap
                    } else {
                        #decode_document
                    }
                },
                super::encoded::over_documents(decode_form_fn),
            )
        }
        // [SoapRpcMethod] on a document service: HTTP GET/POST as any operation's.
        Some(rpc) if op.over_http() => {
            let (encode_soap, decode_soap) = (&rpc.encode_response, &rpc.decode_response);
            (
                quote! {
                    if binding.is_soap() {
                        #encode_soap
                    } else {
                        #encode_result
                    }
                },
                quote! {
                    if binding.is_soap() {
                        #decode_soap
                    } else {
                        #decode_self
                    }
                },
                decode_form_fn,
            )
        }
        Some(rpc) => (
            rpc.encode_response.clone(),
            rpc.decode_response.clone(),
            decode_form_fn,
        ),
        None => (encode_result, decode_self, decode_form_fn),
    };
    // The operation's literals, of the service (`OPERATION`) or, for an rpc operation's HTTP
    // GET/POST result documents, of `{namespace}/literalTypes` (`DOCUMENTS`).
    let raw_trees = model.raw_trees(op);
    let takes_parameters = !op.params.is_empty();
    let info = |service: TokenStream| {
        quote! {
            runtime::OperationInfo {
                service: #service,
                name: #name,
                soap_action: #soap_action,
                soap12_content_type: #soap12_ct,
                http_path: #http_path,
                request_open: #request_open,
                request_close: #request_close,
                response_open: #response_open,
                response_close: #response_close,
                response_name: #response_name,
                result_name: #result_name,
                bindings: #bindings,
                bare: #bare,
                request_element: #request_element,
                raw_trees: #raw_trees,
                takes_parameters: #takes_parameters,
                written: runtime::SizeHint::new(),
            }
        }
    };
    let operation_info = info(quote!(&crate::SERVICE));
    let documents_info = info(quote!(&crate::LITERAL_TYPES));
    let documents = if rpc.is_some() && op.over_http() && model.service.rpc_service {
        quote! {
            /// `OPERATION` with the namespace of HTTP GET/POST result documents,
            /// `{namespace}/literalTypes`, as the service's (an rpc operation's).
            pub static DOCUMENTS: runtime::OperationInfo = #documents_info;
        }
    } else {
        quote!()
    };
    let (rpc_info, soap_use) = match &rpc {
        Some(rpc) => (rpc.info.clone(), quote!()),
        None => (quote!(), quote!(soap,)),
    };
    // A response written as a class's members names their tags (`tree::tag!`).
    let tree_use = if encode_result.to_string().contains("tree :: tag !") {
        quote!(tree,)
    } else {
        quote!()
    };
    quote! {
        #module_doc

        // `http::Request`, not `Request`: the spec's types keep every name.
        use crate::runtime::deps::{bytes, http};
        use crate::runtime::{self, message, #soap_use #tree_use Binding, EncodeError, RequestError, ResponseError};
        use crate::{Credentials, Operation, SoapHeaders, #request, #response};

        #params_const

        #[doc = #operation_doc]
        pub static OPERATION: runtime::OperationInfo = #operation_info;

        #rpc_info

        #documents

        impl #request {
            #encode_fns

            /// Every parameter in wire order, credentials at their positions: what a signer
            /// signs and an echo prints.
            pub fn values<'a>(&'a self, #credentials_arg: &'a Credentials) -> [(&'static str, runtime::ParamValue<'a>); #count] {
                [ #(#values)* ]
            }

            #decode_doc
            pub fn decode_request<B: AsRef<[u8]>>(
                request: &http::Request<B>,
                binding: Binding,
            ) -> Result<(Credentials, Self), RequestError> {
                #json_decode_request
                if binding.is_soap() {
                    message::soap_text(request)?.decode(|body| Self::decode_soap(binding, body))
                } else {
                    #decode_form_call
                }
            }

            fn decode_soap(binding: Binding, body: &[u8]) -> Result<(Credentials, Self), RequestError> {
                #decode_soap_body
            }

            #in_order_fn
            #streamed_fn

            #decode_form_fn

            #json_decode_fn
        }

        impl #response {
            /// Server side: the `200` response carrying this result on `binding`, byte for
            /// byte as an ASMX host writes it.
            pub fn encode_response(&self, binding: Binding) -> Result<http::Response<bytes::Bytes>, EncodeError> {
                #json_encode_response
                #encode_result
            }

            /// Client side: reads the response to a call over `binding`: the result, or the
            /// fault, error status or undecodable body it got instead.
            pub fn decode_response<B: AsRef<[u8]>>(
                response: &http::Response<B>,
                binding: Binding,
            ) -> Result<Self, ResponseError> {
                #json_decode_response
                #decode_self
            }
        }

        impl super::OperationRequest for #request {
            type Response = #response;
            type Error = #error_type;
            const OPERATION: Operation = Operation::#variant;

            fn encode_request(&self, credentials: &Credentials, binding: Binding) -> Result<http::Request<bytes::Bytes>, EncodeError> {
                Self::encode_request(self, credentials, binding)
            }

            fn headers_over(&self, #headers_arg: &mut SoapHeaders) {
                #trait_headers_over
            }

            fn encode_request_with(&self, credentials: &Credentials, #headers_arg: &SoapHeaders, binding: Binding) -> Result<http::Request<bytes::Bytes>, EncodeError> {
                #trait_encode_with
            }

            fn decode_request<B: AsRef<[u8]>>(request: &http::Request<B>, binding: Binding) -> Result<(Credentials, Self), RequestError> {
                Self::decode_request(request, binding)
            }

            fn values<'a>(&'a self, credentials: &'a Credentials) -> Vec<(&'static str, runtime::ParamValue<'a>)> {
                Self::values(self, credentials).to_vec()
            }
        }

        impl super::OperationResponse for #response {
            type Result = #result_type;

            fn from_result(result: #result_type) -> Self {
                #from_result
            }

            fn result(&self) -> &#result_type {
                &self.result
            }

            fn encode_response(&self, binding: Binding) -> Result<http::Response<bytes::Bytes>, EncodeError> {
                Self::encode_response(self, binding)
            }

            fn decode_response<B: AsRef<[u8]>>(response: &http::Response<B>, binding: Binding) -> Result<Self, ResponseError> {
                Self::decode_response(response, binding)
            }
        }

        #streamed_impl
        #fault_impl
    }
}

/// The codecs of an operation's fault type (its `Fault` headers in the fault's Header), if it
/// has one.
fn fault_impl(op: &OperationModel) -> TokenStream {
    let Some(fault) = &op.fault_type else {
        return quote!();
    };
    let fault = ident(fault);
    let blocks = op.fault_headers().map(|h| {
        let field = ident(&h.field);
        let wire = &h.wire;
        let xmlns = format!(" xmlns=\"{}\"", h.namespace);
        quote!(header.block(#xmlns, #wire, self.#field.as_deref())?;)
    });
    let keys = op.fault_headers().map(|h| h.key.as_str());
    let reads = op.fault_headers().map(|h| {
        let field = ident(&h.field);
        let key = &h.key;
        quote!(#field: headers.header(#key).ok().flatten().map(Box::new),)
    });
    quote! {
        impl crate::#fault {
            /// The fault as the host answers it (`500`), its headers set in its Header (over
            /// HTTP GET/POST, which carry none, the fault alone).
            pub fn encode_response(&self, binding: Binding) -> http::Response<bytes::Bytes> {
                let response = message::fault_response(binding, &self.fault);
                let mut header = soap::HeaderWriter::response(binding, OPERATION.name);
                let written = (|| -> Result<(), EncodeError> {
                    #(#blocks)*
                    Ok(())
                })();
                match written {
                    Ok(()) => message::with_header(binding, response, header),
                    Err(error) => message::fault_response(
                        binding,
                        &runtime::Fault::server(error.to_string()),
                    ),
                }
            }

            /// The refusal a client got (a SOAP fault, the headers of its Header read);
            /// `None` for any other error.
            pub fn from_response_error(error: &ResponseError) -> Option<Self> {
                let ResponseError::Fault { binding, fault, body, .. } = error else {
                    return None;
                };
                let response = http::Response::new(&**body);
                let headers =
                    message::response_headers(*binding, &OPERATION, &response, &[#(#keys),*]).ok()?;
                Some(Self {
                    fault: fault.clone(),
                    #(#reads)*
                })
            }
        }
    }
}

/// The members of a response with out parameters: the result (unless `void`), then the out
/// parameters, as its response element holds them.
fn response_members(op: &OperationModel) -> Vec<crate::model::MemberModel> {
    let result = (op.result != SoapType::Void).then(|| crate::model::MemberModel {
        wire: op.result_name.clone(),
        field: "result".to_owned(),
        ty: op.result,
        nullable: op.result_nullable,
        boxed: false,
        unwrapped: false,
        optional: false,
        default: None,
        list: false,
        any: false,
        unqualified: false,
        data_type: None,
        plain_object: false,
        namespace: None,
        secret: false,
    });
    result.into_iter().chain(op.outs.iter().cloned()).collect()
}

/// The SOAP encoder's writer calls, in wire order: the markup between two values is written
/// by one `w.raw` of one literal (`"</a><b>"`), not tag by tag. A string's tags stay in its
/// own call, since an absent (`None`) string leaves its element out.
fn soap_writes(model: &Model, op: &OperationModel) -> Vec<TokenStream> {
    let mut writes = Vec::new();
    let mut markup = op.request_open.clone();
    let flush = |markup: &mut String, writes: &mut Vec<TokenStream>| {
        if !markup.is_empty() {
            writes.push(quote!(w.raw(#markup);));
            markup.clear();
        }
    };
    for p in &op.params {
        let value = value_expr(p);
        let (open, close, wire) = (&p.open_tag, &p.close_tag, &p.wire);
        let write = match p.ty {
            SoapType::String => {
                flush(&mut markup, &mut writes);
                writes.push(quote!(w.string(#wire, #open, #value.as_deref(), #close)?;));
                continue;
            }
            SoapType::Base64Binary => {
                flush(&mut markup, &mut writes);
                writes.push(quote!(w.bytes(#open, #value.as_deref(), #close);));
                continue;
            }
            SoapType::Xml => {
                flush(&mut markup, &mut writes);
                let ns = &model.service.namespace;
                writes.push(quote!(w.raw_xml(#wire, #ns, #open, #value.as_ref(), #close)?;));
                continue;
            }
            SoapType::XmlNode => {
                flush(&mut markup, &mut writes);
                let ns = &model.service.namespace;
                writes.push(quote!(w.raw_node(#wire, #ns, #open, #value.as_ref(), #close)?;));
                continue;
            }
            SoapType::DataSet | SoapType::DataTable | SoapType::TypedDataSet(_) => {
                flush(&mut markup, &mut writes);
                let ns = &model.service.namespace;
                writes.push(quote!(w.data_set(#wire, #ns, #open, #value.as_ref(), #close)?;));
                continue;
            }
            ty if ty.is_complex() => {
                flush(&mut markup, &mut writes);
                let items = super::items_expr(model, ty);
                if op.bare {
                    let xmlns = format!(" xmlns=\"{}\"", model.service.namespace);
                    writes.push(quote!(w.optional_in(#xmlns, #wire, #items, #value.as_ref())?;));
                } else if p.nillable {
                    writes.push(quote!(w.nillable(#wire, #items, #value.as_ref())?;));
                } else {
                    writes.push(quote!(w.optional(#wire, #items, #value.as_ref())?;));
                }
                continue;
            }
            _ if p.nullable => {
                let nil = &p.nil_tag;
                flush(&mut markup, &mut writes);
                writes.push(quote!(w.nullable(#open, #value.as_ref(), #close, #nil);));
                continue;
            }
            _ => quote!(w.scalar(&#value);),
        };
        markup.push_str(open);
        flush(&mut markup, &mut writes);
        writes.push(write);
        markup.push_str(close);
    }
    markup.push_str(&op.request_close);
    flush(&mut markup, &mut writes);
    writes
}
