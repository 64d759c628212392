//! `server.rs`: the service trait, the verifier hook, and the server that routes HTTP
//! requests of all four bindings to the trait's methods.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{doc, ident};
use crate::model::Model;

pub(super) fn emit(model: &Model) -> TokenStream {
    // A service without credentials hands its methods none: the request alone.
    let (credentials_param, credentials_arg) = if model.credentials.is_empty() {
        (quote!(), quote!())
    } else {
        (quote!(credentials: Credentials,), quote!(credentials,))
    };
    let service_name = &model.service.name;
    let trait_rust = &model.service.trait_name;
    let server_rust = &model.service.server_type;
    let trait_name = format_ident!("{}", trait_rust);
    let server_name = format_ident!("{}", model.service.server_type);

    // An operation with `Fault` headers refuses with its fault type (the fault and those
    // headers); any other with a plain `Fault`.
    let error_type = |op: &crate::model::OperationModel| match &op.fault_type {
        Some(fault) => {
            let fault = ident(fault);
            quote!(#fault)
        }
        None => quote!(Fault),
    };
    // A [ScriptService]'s JSON calls are read within the server's `jsonSerialization` limits.
    let json_limits = model.service.script.is_some().then(|| {
        quote! {
            let request = server::with_json_limits(&self.inner.config, request);
        }
    });
    // The session class, for the operations with session state.
    let session_class = model.service.session.map(|i| &model.classes[i]);
    let session_type = session_class.map(|class| {
        let rust = ident(&class.rust);
        quote!(crate::runtime::session::Session<crate::#rust>)
    });
    let session_param = |op: &crate::model::OperationModel| match (&session_type, op.session) {
        (Some(ty), true) => quote!(session: &mut #ty,),
        _ => quote!(),
    };
    let methods = model.operations.iter().map(|op| {
        let method = format_ident!("{}", op.snake);
        let request = ident(&op.rust_name);
        let response = ident(&op.response_type);
        let error = error_type(op);
        let refusal = match &op.fault_type {
            Some(fault) => format!(
                "a [`{fault}`] (a [`Fault`] and the SOAP headers written with it; `?` makes one \
                 of a `Fault`)"
            ),
            None => "a [`Fault`]".to_owned(),
        };
        let session_doc = match session_class {
            Some(class) if op.session => format!(
                "\n\nIt has session state (`[WebMethod(EnableSession = true)]`): `session` holds \
                 the [`{}`] this client's earlier calls left, stored again when the call ends if \
                 the handler changed it.",
                class.rust
            ),
            _ => String::new(),
        };
        let text = doc(&format!(
            "Operation {}, `{}`: {}\n\nReturn the result, or {refusal} to refuse the call \
             (sent as `soap:Client`/`soap:Sender` or `soap:Server`/`soap:Receiver` by its code; \
             over HTTP GET/POST as a `500` text error).{session_doc}",
            op.number, op.wire, op.doc
        ));
        let session = session_param(op);
        let items = op.items_method.as_ref().map(|items_method| {
            let items_method = format_ident!("{}", items_method);
            let item = super::item_type(model, op.result);
            let text = doc(&format!(
                "Operation {}, `{}`, its result's items as they are made: override it to answer \
                 a result of any size without holding it ([`server::Items::stream`]); the \
                 server writes the items as they come, in chunks of about \
                 [`server::CHUNK`] bytes. By default, the result of [`Self::{}`].",
                op.number, op.wire, op.snake
            ));
            quote! {
                #text
                fn #items_method(
                    &self,
                    #credentials_param
                    request: #request,
                ) -> impl std::future::Future<Output = Result<server::Items<#item>, Fault>> + Send {
                    async move {
                        self.#method(#credentials_arg request)
                            .await
                            .map(|response| server::Items::whole(response.result))
                    }
                }
            }
        });
        let rows = op.rows_method.as_ref().map(|rows_method| {
            let rows_method = format_ident!("{}", rows_method);
            let text = doc(&format!(
                "Operation {}, `{}`, its DataSet's rows as they are made: override it to answer \
                 a set of any size without holding it ([`server::Rows::stream`]: the set's \
                 schema, then its rows, table by table, unchanged or added); the server writes \
                 the rows as they come, in chunks of about [`server::CHUNK`] bytes. By \
                 default, the result of [`Self::{}`].",
                op.number, op.wire, op.snake
            ));
            quote! {
                #text
                fn #rows_method(
                    &self,
                    #credentials_param
                    request: #request,
                ) -> impl std::future::Future<Output = Result<server::Rows, Fault>> + Send {
                    async move {
                        self.#method(#credentials_arg request)
                            .await
                            .map(|response| server::Rows::whole(response.result))
                    }
                }
            }
        });
        quote! {
            #text
            fn #method(
                &self,
                #credentials_param
                request: #request,
                #session
            ) -> impl std::future::Future<Output = Result<#response, #error>> + Send;

            #items

            #rows
        }
    });
    let arc_methods = model.operations.iter().map(|op| {
        let method = format_ident!("{}", op.snake);
        let request = ident(&op.rust_name);
        let response = ident(&op.response_type);
        let error = error_type(op);
        let session = session_param(op);
        let session_arg = if op.session && session_type.is_some() {
            quote!(session)
        } else {
            quote!()
        };
        let items = op.items_method.as_ref().map(|items_method| {
            let items_method = format_ident!("{}", items_method);
            let item = super::item_type(model, op.result);
            quote! {
                fn #items_method(
                    &self,
                    #credentials_param
                    request: #request,
                ) -> impl std::future::Future<Output = Result<server::Items<#item>, Fault>> + Send {
                    T::#items_method(self, #credentials_arg request)
                }
            }
        });
        let rows = op.rows_method.as_ref().map(|rows_method| {
            let rows_method = format_ident!("{}", rows_method);
            quote! {
                fn #rows_method(
                    &self,
                    #credentials_param
                    request: #request,
                ) -> impl std::future::Future<Output = Result<server::Rows, Fault>> + Send {
                    T::#rows_method(self, #credentials_arg request)
                }
            }
        });
        quote! {
            fn #method(
                &self,
                #credentials_param
                request: #request,
                #session
            ) -> impl std::future::Future<Output = Result<#response, #error>> + Send {
                T::#method(self, #credentials_arg request, #session_arg)
            }

            #items

            #rows
        }
    });
    // `?schema=Name`: the schema of a typed DataSet the WSDL imports from there.
    let typed = super::wsdl::typed_data_sets(model);
    let schema_arm = if typed.is_empty() {
        quote!(server::Route::Schema(_) => server::schema_not_found(),)
    } else {
        let names = typed.iter().map(|set| &set.name);
        let types = typed.iter().map(|set| ident(&set.rust));
        quote! {
            server::Route::Schema(name) => {
                let document = match name.as_str() {
                    #(#names => crate::#types::SCHEMA.schema_document(),)*
                    _ => None,
                };
                match document {
                    Some(document) => server::document(soap::SOAP11_CONTENT_TYPE, document),
                    None => server::schema_not_found(),
                }
            }
        }
    };
    let arms = model.operations.iter().map(|op| {
        // An operation whose result may stream is run by its streaming twin.
        let twin = op.items_method.as_ref().or(op.rows_method.as_ref());
        let method = format_ident!("{}", twin.unwrap_or(&op.snake));
        let variant = ident(&op.rust_name);
        let request = ident(&op.rust_name);
        let streams = op.items_method.is_some();
        // The statements that run the handler, then the expression of its response (whole
        // bytes where a session closes on it, a `server::Body` otherwise).
        let (run, answer) = if op.fault_type.is_some() {
            // A panic is a fault without headers; a refusal carries them.
            let whole = if op.session {
                quote!()
            } else {
                quote!(.map(server::Body::from))
            };
            (
                quote! {
                    let answered = server::guard(operation.name(), async { Ok(handled.await) }).await;
                },
                quote! {
                    match answered {
                        Ok(Ok(response)) => encode(binding, Ok(response)),
                        Ok(Err(refusal)) => refusal.encode_response(binding),
                        Err(fault) => message::fault_response(binding, &fault),
                    }
                    #whole
                },
            )
        } else if streams {
            let response = ident(&op.response_type);
            let items = super::items_expr(model, op.result);
            let root = model.root_name(op.result);
            (
                quote!(),
                quote! {
                    server::items_response(
                        binding,
                        operation.info(),
                        server::guard(operation.name(), handled).await,
                        #items,
                        #root,
                        chunked,
                        |result| encode(binding, result.map(<#response as wire::OperationResponse>::from_result)),
                    )
                    .await
                },
            )
        } else if op.rows_method.is_some() {
            let response = ident(&op.response_type);
            (
                quote!(),
                quote! {
                    server::rows_response(
                        binding,
                        operation.info(),
                        server::guard(operation.name(), handled).await,
                        chunked,
                        |result| encode(binding, result.map(<#response as wire::OperationResponse>::from_result)),
                    )
                    .await
                },
            )
        } else if op.session {
            (
                quote!(),
                quote!(encode(
                    binding,
                    server::guard(operation.name(), handled).await
                )),
            )
        } else {
            (
                quote!(),
                quote!(respond(
                    binding,
                    server::guard(operation.name(), handled).await
                )),
            )
        };
        let decode = quote! {
            let (credentials, call) = #request::decode_request(request, binding)?;
            if let Err(fault) = self.verify(binding, &credentials, &call) {
                return Ok(refuse(binding, &fault));
            }
        };
        match session_class {
            // The session is opened once the call is read (a call the decoder refuses
            // touches none), held while the handler runs, and closed on its answer.
            Some(class) if op.session => {
                let rust = ident(&class.rust);
                let root = class.root.as_deref().unwrap_or(&class.name);
                let credentials = if model.credentials.is_empty() {
                    quote!(_credentials)
                } else {
                    quote!(credentials)
                };
                quote! {
                    Operation::#variant => {
                        let (#credentials, call) = {
                            #decode
                            (credentials, call)
                        };
                        let mut opened = match crate::runtime::session::open::<crate::#rust>(
                            &self.inner.config,
                            request,
                            operation.info(),
                            #root,
                        ).await {
                            Ok(opened) => opened,
                            Err(response) => return Ok(response.map(server::Body::from)),
                        };
                        let handled = self.inner.service.#method(#credentials_arg call, &mut opened.session);
                        #run
                        let response = #answer;
                        Ok(opened.close(&self.inner.config, response).await.map(server::Body::from))
                    }
                }
            }
            // Without session state, a call still keeps its client's session alive, as
            // ASP.NET restarts the time-out of the session a cookie names on every call.
            Some(_) => quote! {
                Operation::#variant => {
                    crate::runtime::session::touch(&self.inner.config, request).await;
                    let handled = {
                        #decode
                        self.inner.service.#method(#credentials_arg call)
                    };
                    #run
                    Ok(#answer)
                }
            },
            None => quote! {
                Operation::#variant => {
                    let handled = {
                        #decode
                        self.inner.service.#method(#credentials_arg call)
                    };
                    #run
                    Ok(#answer)
                }
            },
        }
    });
    let trait_doc = doc(&format!(
        "The `{service_name}` service, one method per operation: implement it to be the service.\n\n\
         Each method gets {what}, decoded from whichever binding the call came over; its future \
         must be `Send`. Serve an implementation with [`{server_rust}`]. `Arc<T>` implements the \
         trait when `T` does.",
        what = if model.credentials.is_empty() {
            "the typed request (the service takes no credentials)"
        } else {
            "the caller's [`Credentials`] and the typed request"
        },
    ));
    let server_doc = doc(&format!(
        "Serves a [`{trait_rust}`] on one endpoint (`{path}`) for all four bindings, as an ASMX \
         host does: SOAP 1.1 and 1.2 `POST`s to the path, HTTP GET and POST to `{path}/{{Operation}}`, \
         the WSDL at `?wsdl` and the help pages on `GET`.\n\n\
         It is a `tower::Service` (drop it into hyper, axum or any tower stack) and can serve itself \
         with [`serve`](Self::serve). Cloning is cheap and shares the service; no lock is taken on \
         the request path.",
        path = model.service.path
    ));

    // Named only where an operation streams its items or rows.
    let streams =
        |op: &crate::model::OperationModel| op.items_method.is_some() || op.rows_method.is_some();
    let chunked = if model.operations.iter().any(streams) {
        format_ident!("chunked")
    } else {
        format_ident!("_chunked")
    };

    quote! {
        //! The server side: implement the service trait and serve it.

        // Modules and full paths, not the runtime's items by name: every name the spec's
        // types may take (`Request`, `Route`, `Context`) stays theirs.
        use crate::runtime::deps::{bytes, http, http_body, tokio};
        use crate::runtime::server;
        use crate::runtime::{message, soap, Binding, Fault};
        use crate::*;

        #trait_doc
        pub trait #trait_name: Send + Sync + 'static {
            #(#methods)*
        }

        impl<T: #trait_name> #trait_name for std::sync::Arc<T> {
            #(#arc_methods)*
        }

        /// What a [`Verifier`] sees of a call, before it is dispatched. Its `Debug` hides
        /// the values of [`SECRETS`].
        pub struct Call<'a> {
            /// The operation called.
            pub operation: Operation,
            /// The binding it came over.
            pub binding: Binding,
            /// The credentials as sent.
            pub credentials: &'a Credentials,
            /// Every parameter as sent, in wire order, credentials at their positions.
            pub params: &'a [(&'static str, crate::runtime::ParamValue<'a>)],
        }

        impl std::fmt::Debug for Call<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct("Call")
                    .field("operation", &self.operation)
                    .field("binding", &self.binding)
                    .field("credentials", self.credentials)
                    .field("params", &crate::runtime::RedactedParams { params: self.params, secrets: SECRETS })
                    .finish()
            }
        }

        /// A check run on every call before dispatch, e.g. of `sig` over the parameters (the
        /// interface leaves the algorithm to the deployment). A refusal is sent as the fault
        /// it returns. Any `Fn(&Call) -> Result<(), Fault>` is a verifier.
        pub trait Verifier: Send + Sync + 'static {
            /// Accepts or refuses `call`.
            fn verify(&self, call: &Call<'_>) -> Result<(), Fault>;
        }

        impl<F> Verifier for F
        where
            F: Fn(&Call<'_>) -> Result<(), Fault> + Send + Sync + 'static,
        {
            fn verify(&self, call: &Call<'_>) -> Result<(), Fault> {
                self(call)
            }
        }

        #server_doc
        pub struct #server_name<S> {
            // One shared block, so a clone per request is one reference count.
            inner: std::sync::Arc<Shared<S>>,
        }

        struct Shared<S> {
            service: std::sync::Arc<S>,
            verifier: Option<std::sync::Arc<dyn Verifier>>,
            config: server::ServerConfig,
        }

        impl<S> Clone for Shared<S> {
            fn clone(&self) -> Self {
                Self { service: std::sync::Arc::clone(&self.service), verifier: self.verifier.clone(), config: self.config.clone() }
            }
        }

        impl<S> Clone for #server_name<S> {
            fn clone(&self) -> Self {
                Self { inner: std::sync::Arc::clone(&self.inner) }
            }
        }

        impl<S: #trait_name> #server_name<S> {
            /// A server for `service` with the default [`ServerConfig`](server::ServerConfig) and no verifier.
            pub fn new(service: S) -> Self {
                Self::from_arc(std::sync::Arc::new(service))
            }

            /// A server for a service already shared.
            pub fn from_arc(service: std::sync::Arc<S>) -> Self {
                Self { inner: std::sync::Arc::new(Shared { service, verifier: None, config: server::ServerConfig::default() }) }
            }

            /// Runs `verifier` on every call before dispatch.
            pub fn with_verifier(mut self, verifier: impl Verifier) -> Self {
                std::sync::Arc::make_mut(&mut self.inner).verifier = Some(std::sync::Arc::new(verifier));
                self
            }

            /// Sets the limits (body size, timeouts) and manners of the server.
            pub fn with_config(mut self, config: server::ServerConfig) -> Self {
                std::sync::Arc::make_mut(&mut self.inner).config = config;
                self
            }

            /// The limits and manners in force.
            pub fn config(&self) -> &server::ServerConfig {
                &self.inner.config
            }

            /// Serves on `listener` (HTTP/1.1, keep-alive) until the process ends.
            pub async fn serve(self, listener: tokio::net::TcpListener) -> std::io::Result<()> {
                let config = self.inner.config.clone();
                server::serve(listener, self, config).await
            }

            /// Serves on `listener` until `shutdown` completes, then stops gracefully: no new
            /// connection, the calls in flight finished (within the config's
            /// `shutdown_grace`). [`server::operate::drain`] makes such a future of SIGTERM.
            pub async fn serve_with_shutdown(
                self,
                listener: tokio::net::TcpListener,
                shutdown: impl std::future::Future<Output = ()>,
            ) -> std::io::Result<()> {
                let config = self.inner.config.clone();
                server::serve_with_shutdown(listener, self, config, shutdown).await
            }

            /// Answers one request whose body has been read: the sans-IO core of the server.
            ///
            /// A SOAP call that names its operation in its headers is decoded at once, its
            /// envelope read once (`server::route_by_action`). If the decoder refuses the
            /// envelope, the request is routed on its envelope (`server::route`), as every
            /// other request is: the envelope may be another binding's or hold another
            /// operation. Routed to the same call, the decoder's refusal is the answer.
            ///
            /// A panic anywhere in it (a decoder's bug as much as the service's) is answered
            /// `500` and the server goes on (`server::catch_panic`). Every answer is whole:
            /// items a handler streams ([`server::Items`]) are written into one body.
            pub async fn handle(&self, request: http::Request<bytes::Bytes>) -> http::Response<bytes::Bytes> {
                server::whole_response(server::catch_panic(self.answer(request, false)).await).await
            }

            /// [`Self::handle`] as the server sends it: items a handler streams
            /// ([`server::Items`]) are sent as they are written, past the first
            /// [`server::CHUNK`] bytes, without a length. What the `tower::Service` answers.
            pub fn handle_streamed(
                &self,
                request: http::Request<bytes::Bytes>,
            ) -> impl std::future::Future<Output = http::Response<server::Body>> + '_ {
                server::catch_panic(self.answer(request, true))
            }

            /// [`Self::handle`] without its guard; `chunked`, streamed items are sent as they
            /// are written.
            ///
            /// An `async` block, not an `async fn`: the block holds the request once, where
            /// an `async fn` would hold its argument and the request it reads, and the server
            /// boxes this future for every request.
            #[allow(clippy::manual_async_fn)]
            fn answer(
                &self,
                request: http::Request<bytes::Bytes>,
                chunked: bool,
            ) -> impl std::future::Future<Output = http::Response<server::Body>> + '_ {
              async move {
                #json_limits
                let mut refused = None;
                let by_action: Option<(Binding, Operation)> = server::route_by_action(&SERVICE, &request);
                if let Some((binding, operation)) = by_action {
                    match self.call_operation(binding, operation, &request, chunked).await {
                        Ok(response) => return server::finish_answer(&self.inner.config, response),
                        Err(error) => refused = Some((binding, operation, error)),
                    }
                }
                let (binding, operation) = match self.route(&request, refused) {
                    std::ops::ControlFlow::Continue(call) => call,
                    std::ops::ControlFlow::Break(answer) => {
                        return server::finish(&self.inner.config, answer).map(server::Body::from);
                    }
                };
                let refusal = match self.call_operation(binding, operation, &request, chunked).await {
                    Ok(response) => return server::finish_answer(&self.inner.config, response),
                    Err(error) => server::refusal_response(binding, &request, &error),
                };
                server::finish(&self.inner.config, refusal).map(server::Body::from)
              }
            }

            /// Where a request the headers did not route goes: on to the call its envelope
            /// makes, or the answer to anything else (the WSDL, the help pages, a refusal).
            /// `refused` is the decoder's refusal of the call the headers named, which is the
            /// answer if the envelope names the same call. A function of its own, so that
            /// [`Self::answer`]'s future holds neither the route nor the refusal while the
            /// call runs.
            fn route(
                &self,
                request: &http::Request<bytes::Bytes>,
                refused: Option<(Binding, Operation, RequestError)>,
            ) -> std::ops::ControlFlow<http::Response<bytes::Bytes>, (Binding, Operation)> {
                std::ops::ControlFlow::Break(match server::route::<Operation>(&SERVICE, request) {
                    server::Route::Call { binding, operation } => match refused {
                        Some((b, o, error)) if (b, o) == (binding, operation) => server::refusal_response(binding, request, &error),
                        _ => return std::ops::ControlFlow::Continue((binding, operation)),
                    },
                    server::Route::Wsdl => server::document(
                        soap::SOAP11_CONTENT_TYPE,
                        crate::wsdl::document(&server::address(request, SERVICE.path)),
                    ),
                    server::Route::Disco => server::document(
                        soap::SOAP11_CONTENT_TYPE,
                        server::discovery(&SERVICE, &server::address(request, SERVICE.path)),
                    ),
                    #schema_arm
                    server::Route::HelpIndex => server::document(
                        server::HTML_CONTENT_TYPE,
                        crate::help::index(SERVICE.path),
                    ),
                    server::Route::HelpOperation(operation) => server::document(
                        server::HTML_CONTENT_TYPE,
                        crate::help::operation(operation, SERVICE.path),
                    ),
                    server::Route::Refused(response) => response,
                })
            }

            /// Runs a call: [`Self::dispatch`], observed if the server observes its calls.
            async fn call_operation(
                &self,
                binding: Binding,
                operation: Operation,
                request: &http::Request<bytes::Bytes>,
                chunked: bool,
            ) -> Result<http::Response<server::Body>, RequestError> {
                if server::operate::observing(&self.inner.config) {
                    Box::pin(self.observed(binding, operation, request, chunked)).await
                } else {
                    self.dispatch(binding, operation, request, chunked).await
                }
            }

            /// [`Self::dispatch`] in its `tracing` span (`rmm.serve`, a child of the caller's
            /// span when the request carries W3C trace context), counted in the server's
            /// metrics if it keeps them. Called only when the call is observed
            /// (`server::operate::observing`): unobserved, the dispatch is awaited alone,
            /// its large future not moved into the observer's, and the observer's boxed, so that
            /// the request's future stays the size it is unobserved.
            async fn observed(
                &self,
                binding: Binding,
                operation: Operation,
                request: &http::Request<bytes::Bytes>,
                chunked: bool,
            ) -> Result<http::Response<server::Body>, RequestError> {
                server::operate::observe(
                    &self.inner.config,
                    operation.info(),
                    binding,
                    request.headers(),
                    self.dispatch(binding, operation, request, chunked),
                )
                .await
            }

            /// Decodes and runs a call: its response (a fault if the verifier or the handler
            /// refuses it), or the decoder's refusal, which `handle` answers.
            ///
            /// Each arm decodes inside a block that ends before the `await`, so the future
            /// holds the handler's future alone, not the decoded values beside it: every
            /// request boxes this future (within `call`'s), and a smaller one is cheaper.
            async fn dispatch(
                &self,
                binding: Binding,
                operation: Operation,
                request: &http::Request<bytes::Bytes>,
                #chunked: bool,
            ) -> Result<http::Response<server::Body>, RequestError> {
                match operation {
                    #(#arms)*
                }
            }

            /// Runs the verifier, if there is one, on a decoded call of `T`.
            fn verify<T: wire::OperationRequest>(
                &self,
                binding: Binding,
                credentials: &Credentials,
                call: &T,
            ) -> Result<(), Fault> {
                let Some(verifier) = &self.inner.verifier else {
                    return Ok(());
                };
                let params = call.values(credentials);
                verifier.verify(&Call { operation: T::OPERATION, binding, credentials, params: &params })
            }
        }

        /// A handler's outcome as a response: its result, or its fault.
        fn respond<R: wire::OperationResponse>(binding: Binding, result: Result<R, Fault>) -> http::Response<server::Body> {
            encode(binding, result).map(server::Body::from)
        }

        /// The verifier's refusal as a response.
        fn refuse(binding: Binding, fault: &Fault) -> http::Response<server::Body> {
            message::fault_response(binding, fault).map(server::Body::from)
        }

        /// [`respond`], whole.
        fn encode<R: wire::OperationResponse>(binding: Binding, result: Result<R, Fault>) -> http::Response<bytes::Bytes> {
            let encoded = result.and_then(|response| {
                response.encode_response(binding).map_err(|error| Fault::server(error.to_string()))
            });
            match encoded {
                Ok(response) => response,
                Err(fault) => message::fault_response(binding, &fault),
            }
        }

        impl<S, B> crate::runtime::deps::tower_service::Service<http::Request<B>> for #server_name<S>
        where
            S: #trait_name,
            B: http_body::Body + Send + 'static,
            B::Data: Send,
            B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
        {
            type Response = http::Response<server::Body>;
            type Error = std::convert::Infallible;
            type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self::Response, std::convert::Infallible>> + Send>>;

            fn poll_ready(&mut self, _: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), std::convert::Infallible>> {
                std::task::Poll::Ready(Ok(()))
            }

            fn call(&mut self, request: http::Request<B>) -> Self::Future {
                let this = self.clone();
                // The body read, the request is moved into the answer's future rather than
                // held beside it: the future this boxes stays small.
                Box::pin(async move {
                    let request = match server::collect_body(request, &this.inner.config).await {
                        Ok(request) => request,
                        Err(error) => {
                            return Ok(server::finish(&this.inner.config, server::body_error_response(&error))
                                .map(server::Body::from));
                        }
                    };
                    Ok(this.handle_streamed(request).await)
                })
            }
        }
    }
}
