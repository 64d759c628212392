//! `client.rs`: the signer hook and the client with one method per operation.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{doc, ident};
use crate::model::Model;

pub(super) fn emit(model: &Model) -> TokenStream {
    let service_name = &model.service.name;
    let client_name = format_ident!("{}", model.service.client_type);
    let methods = model.operations.iter().map(|op| {
        let method = format_ident!("{}", op.snake);
        let request = ident(&op.rust_name);
        let response = ident(&op.response_type);
        let text = doc(&format!(
            "Calls operation {}, `{}`: {}",
            op.number, op.wire, op.doc
        ));
        quote! {
            #text
            pub async fn #method(&self, request: &#request) -> Result<#response, CallError> {
                self.call(request).await
            }
        }
    });
    let credential_names: Vec<String> = model
        .credentials
        .iter()
        .map(|c| format!("`{}`", c.wire))
        .collect();
    let client_doc = doc(&format!(
        "Calls the `{service_name}` service: one async method per operation, over the binding \
         the client is set to (SOAP 1.1 unless [`with_binding`](Self::with_binding) says \
         otherwise; [`over`](Self::over) changes it for one call).\n\n\
         {} Requests go through a [`Transport`] (reqwest by default) with a timeout (30 s by \
         default). Cloning is cheap and shares the transport and signer.",
        if credential_names.is_empty() {
            "The service takes no credentials.".to_owned()
        } else {
            format!(
                "The credentials ({}) come from the client's [`Signer`] for each call.",
                credential_names.join(", ")
            )
        }
    ));
    // A service without credentials needs no signer to be called: one that signs nothing,
    // which `with_signer` replaces where a signer fills SOAP headers.
    let (signer_param, signer_value, new_doc) =
        if model.credentials.is_empty() {
            (
            quote!(),
            quote!(std::sync::Arc::new(StaticSigner(Credentials::default()))),
            doc("A client of the service at `base_url` (scheme, host, port and any path prefix; \
                 the endpoint path is the spec's), over SOAP 1.1, through reqwest, with a 30 s \
                 timeout. The service takes no credentials: nothing signs its calls unless \
                 [`with_signer`](Self::with_signer) gives a signer (of SOAP headers)."),
        )
        } else {
            (
            quote!(, signer: impl Signer),
            quote!(std::sync::Arc::new(signer)),
            doc("A client of the service at `base_url` (scheme, host, port and any path prefix; \
                 the endpoint path is the spec's) with `signer`, over SOAP 1.1, through reqwest, \
                 with a 30 s timeout."),
        )
        };
    // A service with session state: the client keeps the session cookie its service issues
    // and sends it back on every call, as a .NET client's CookieContainer does.
    let sessions = model.service.session.is_some();
    let (session_field, session_value, session_methods, attach, keep) = if sessions {
        (
            quote!(session: std::sync::Arc<client::SessionCookie>,),
            quote!(session: std::sync::Arc::new(client::SessionCookie::default()),),
            quote! {
                /// The id of the session the service issued this client (its
                /// `ASP.NET_SessionId` cookie), which every call sends back; `None` before
                /// a call first stores something in a session. Clones share it.
                pub fn session_id(&self) -> Option<String> {
                    self.session.id()
                }

                /// A copy of this client in the session `id` (one another client was
                /// issued, handed over), or in none (`None`: the next call that stores
                /// something begins a new one). The copy keeps its session apart from this
                /// client's.
                pub fn with_session_id(mut self, id: Option<String>) -> Self {
                    self.session = std::sync::Arc::new(client::SessionCookie::holding(id));
                    self
                }
            },
            quote!(self.session.attach(&mut encoded);),
            quote!(self.session.keep(&response);),
        )
    } else {
        (quote!(), quote!(), quote!(), quote!(), quote!())
    };
    let encoded_binding = if sessions {
        quote!(mut encoded)
    } else {
        quote!(encoded)
    };
    quote! {
        //! The client side: call the service from Rust.

        use crate::runtime::client::{self, CallError, Transport};
        use crate::runtime::deps::{bytes, http};
        use crate::runtime::message;
        use crate::runtime::Binding;
        // The trait's methods in scope, its name free for the spec's types.
        use crate::wire::OperationResponse as _;
        use crate::*;

        /// What a [`Signer`] signs: the operation and its business parameters (every
        /// parameter but the credentials) in wire order. Each value's `Display` is its wire
        /// text (`<null>` for an absent string). Its `Debug` hides the values of [`SECRETS`].
        pub struct SigningRequest<'a> {
            /// The operation called.
            pub operation: Operation,
            /// Its business parameters, in wire order.
            pub params: &'a [(&'static str, crate::runtime::ParamValue<'a>)],
        }

        impl std::fmt::Debug for SigningRequest<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct("SigningRequest")
                    .field("operation", &self.operation)
                    .field("params", &crate::runtime::RedactedParams { params: self.params, secrets: SECRETS })
                    .finish()
            }
        }

        /// Supplies the credentials of each call, e.g. computing `sig` over the parameters
        /// (the interface leaves the algorithm to the deployment). Any
        /// `Fn(&SigningRequest) -> Credentials` is a signer.
        pub trait Signer: Send + Sync + 'static {
            /// The credentials for `request`.
            fn sign(&self, request: &SigningRequest<'_>) -> Credentials;

            /// Fills the SOAP headers of `request`, as it fills its credentials (a token, a
            /// digest in an authentication header): `headers` holds the client's (its
            /// `with_headers`) with the request's own over them, and the call sends what it
            /// holds after. Leaves them as they are unless overridden.
            fn sign_headers(&self, request: &SigningRequest<'_>, headers: &mut SoapHeaders) {
                let _ = (request, headers);
            }
        }

        impl<F> Signer for F
        where
            F: Fn(&SigningRequest<'_>) -> Credentials + Send + Sync + 'static,
        {
            fn sign(&self, request: &SigningRequest<'_>) -> Credentials {
                self(request)
            }
        }

        /// A signer that sends the same credentials on every call.
        #[derive(Debug, Clone)]
        pub struct StaticSigner(pub Credentials);

        impl Signer for StaticSigner {
            fn sign(&self, _: &SigningRequest<'_>) -> Credentials {
                self.0.clone()
            }
        }

        #client_doc
        #[derive(Clone)]
        pub struct #client_name {
            base: std::sync::Arc<str>,
            binding: Binding,
            timeout: Option<std::time::Duration>,
            transport: std::sync::Arc<dyn Transport>,
            signer: std::sync::Arc<dyn Signer>,
            headers: std::sync::Arc<SoapHeaders>,
            #session_field
        }

        impl std::fmt::Debug for #client_name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!(#client_name))
                    .field("base", &self.base)
                    .field("binding", &self.binding)
                    .field("timeout", &self.timeout)
                    .finish_non_exhaustive()
            }
        }

        impl #client_name {
            #new_doc
            pub fn new(base_url: impl Into<String> #signer_param) -> Self {
                Self {
                    base: std::sync::Arc::from(base_url.into()),
                    binding: Binding::Soap11,
                    timeout: Some(std::time::Duration::from_secs(30)),
                    transport: std::sync::Arc::new(client::ReqwestTransport::new()),
                    signer: #signer_value,
                    headers: std::sync::Arc::new(SoapHeaders::default()),
                    #session_value
                }
            }

            /// Signs each call with `signer` from now on: its credentials, and the SOAP
            /// headers it fills.
            pub fn with_signer(mut self, signer: impl Signer) -> Self {
                self.signer = std::sync::Arc::new(signer);
                self
            }

            /// Sends `headers` on each call of an operation that reads them (over SOAP),
            /// where the call's request sets none of its own: the usual authentication
            /// header, set once.
            pub fn with_headers(mut self, headers: SoapHeaders) -> Self {
                self.headers = std::sync::Arc::new(headers);
                self
            }

            /// The SOAP headers calls send where their requests set none.
            pub fn headers(&self) -> &SoapHeaders {
                &self.headers
            }

            /// Calls over `binding` from now on.
            pub fn with_binding(mut self, binding: Binding) -> Self {
                self.binding = binding;
                self
            }

            /// A copy of this client that calls over `binding`, for one call or a few:
            /// `client.over(Binding::HttpGet).mobile_account_search(&request)`.
            pub fn over(&self, binding: Binding) -> Self {
                self.clone().with_binding(binding)
            }

            /// Gives up on a call after `timeout` (`None`: wait as long as the transport does);
            /// `call_items` gives up when nothing of the response arrives for that long.
            pub fn with_timeout(mut self, timeout: Option<std::time::Duration>) -> Self {
                self.timeout = timeout;
                self
            }

            /// Sends requests through `transport` instead of reqwest.
            pub fn with_transport(mut self, transport: impl Transport) -> Self {
                self.transport = std::sync::Arc::new(transport);
                self
            }

            /// The binding calls go over.
            pub fn binding(&self) -> Binding {
                self.binding
            }

            #session_methods

            /// Calls the operation of `request`: signs (credentials and headers), encodes,
            /// sends, decodes.
            pub async fn call<T: wire::OperationRequest>(&self, request: &T) -> Result<T::Response, CallError> {
                let binding = self.binding;
                let encoded = self.prepare(request)?;
                let operation = T::OPERATION.name();
                let response = client::exchange(&*self.transport, &self.base, self.timeout, operation, binding, encoded, SECRETS).await?;
                #keep
                Ok(T::Response::decode_response(&response, binding)?)
            }

            /// Calls the operation of `request`, whose result is an array, and reads the
            /// result's items as the response brings them: a response of any size is read
            /// holding one batch of items (about 64 KiB of the message) at a time. Each item
            /// is read as [`call`](Self::call) reads it; see [`client::Items`].
            pub async fn call_items<T>(&self, request: &T) -> Result<client::Items<<T::Response as wire::ArrayResponse>::Item>, CallError>
            where
                T: wire::OperationRequest,
                T::Response: wire::ArrayResponse,
            {
                let response = self.send_streamed(request).await?;
                Ok(client::Items::new(T::OPERATION.info(), self.binding, response, self.timeout, items_of::<T::Response>))
            }

            /// Calls the operation of `request`, whose result is a DataSet, and reads the
            /// set's rows as the response brings them: a set of any size is read holding one
            /// batch of rows (about 64 KiB of the message) at a time. Each row is read as
            /// [`call`](Self::call) reads it; a set whose rows cannot be given one by one
            /// (changes not accepted) is refused: see [`client::DataSetRows`].
            pub async fn call_rows<T>(&self, request: &T) -> Result<client::DataSetRows, CallError>
            where
                T: wire::OperationRequest,
                T::Response: wire::DataSetResponse,
            {
                let response = self.send_streamed(request).await?;
                Ok(client::DataSetRows::new(T::OPERATION.info(), self.binding, response, self.timeout))
            }

            /// Sends the call of `request` and gives the response as its body arrives.
            async fn send_streamed<T: wire::OperationRequest>(&self, request: &T) -> Result<http::Response<client::StreamedBody>, CallError> {
                let binding = self.binding;
                let encoded = self.prepare(request)?;
                let operation = T::OPERATION.name();
                let response = client::exchange_streamed(&*self.transport, &self.base, self.timeout, operation, binding, encoded, SECRETS).await?;
                #keep
                Ok(response)
            }

            /// The signed, encoded request of a call.
            fn prepare<T: wire::OperationRequest>(&self, request: &T) -> Result<http::Request<bytes::Bytes>, CallError> {
                let binding = self.binding;
                // JSON is a [ScriptService]'s only: refused before anything is signed.
                message::check_offered(T::OPERATION.info(), binding)?;
                let unsigned = Credentials::default();
                let params: Vec<_> = request
                    .values(&unsigned)
                    .into_iter()
                    .filter(|(name, _)| !Credentials::WIRE_NAMES.contains(name))
                    .collect();
                let signing = SigningRequest { operation: T::OPERATION, params: &params };
                let credentials = self.signer.sign(&signing);
                // The client's headers, the request's own over them, then as the signer
                // fills them.
                let mut headers = SoapHeaders::clone(&self.headers);
                request.headers_over(&mut headers);
                self.signer.sign_headers(&signing, &mut headers);
                let #encoded_binding = request.encode_request_with(&credentials, &headers, binding)?;
                #attach
                Ok(encoded)
            }

            #(#methods)*
        }

        /// The items of one piece of an array result, a message of its own (see
        /// [`client::Items`]).
        fn items_of<R: wire::ArrayResponse>(
            piece: &http::Response<bytes::Bytes>,
            binding: Binding,
        ) -> Result<Vec<R::Item>, crate::runtime::ResponseError> {
            Ok(R::decode_response(piece, binding)?.into_items())
        }
    }
}
