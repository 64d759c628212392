//! `blocking.rs`: the blocking client, the async client's methods for callers without an
//! async runtime (feature `blocking`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{doc, ident};
use crate::model::Model;

pub(super) fn emit(model: &Model) -> TokenStream {
    let service = &model.service;
    let client = format_ident!("{}", service.client_type);
    let blocking = format_ident!("{}", service.blocking_client_type);
    let methods = model.operations.iter().map(|op| {
        let method = format_ident!("{}", op.snake);
        let request = ident(&op.rust_name);
        let response = ident(&op.response_type);
        let text = doc(&format!(
            "Calls operation {}, `{}`, and waits for its answer: {}",
            op.number, op.wire, op.doc
        ));
        quote! {
            #text
            pub fn #method(&self, request: &#request) -> Result<#response, CallError> {
                self.call(request)
            }
        }
    });
    let blocking_doc = doc(&format!(
        "Calls the `{name}` service and waits for each answer: the methods of [`{client}`], \
         for callers without an async runtime.\n\n\
         It is a [`{client}`] run on a runtime of its own (one worker thread, shared by clones), \
         so its calls are signed, encoded, sent, traced and decoded by the same code, with the \
         same errors. Calling it from inside an async runtime panics, as `reqwest::blocking` \
         does: there, use [`{client}`].",
        name = service.name,
        client = service.client_type,
    ));
    let new_doc = doc(&format!(
        "A client of the service at `base_url`{with}, as [`{client}::new`] makes it \
         (SOAP 1.1, reqwest, a 30 s timeout).\n\n# Panics\n\nIf the operating system refuses \
         the runtime's thread.",
        client = service.client_type,
        with = if model.credentials.is_empty() {
            ""
        } else {
            " with `signer`"
        },
    ));
    let (signer_param, signer_arg) = if model.credentials.is_empty() {
        (quote!(), quote!())
    } else {
        (quote!(, signer: impl Signer), quote!(, signer))
    };
    quote! {
        //! The blocking client: the async client's methods for callers without an async runtime.

        use crate::runtime::client::blocking;
        use crate::runtime::Binding;
        use crate::*;

        #blocking_doc
        #[derive(Debug, Clone)]
        pub struct #blocking {
            client: #client,
            runtime: blocking::BlockingRuntime,
        }

        impl #blocking {
            #new_doc
            pub fn new(base_url: impl Into<String> #signer_param) -> Self {
                Self::from_async(#client::new(base_url #signer_arg))
            }

            /// Waits on the calls of `client`, configured as it is.
            ///
            /// # Panics
            ///
            /// If the operating system refuses the runtime's thread.
            pub fn from_async(client: #client) -> Self {
                Self { client, runtime: blocking::BlockingRuntime::new() }
            }

            /// Calls over `binding` from now on.
            pub fn with_binding(mut self, binding: Binding) -> Self {
                self.client = self.client.with_binding(binding);
                self
            }

            /// A copy of this client that calls over `binding`, for one call or a few.
            pub fn over(&self, binding: Binding) -> Self {
                self.clone().with_binding(binding)
            }

            /// Gives up on a call after `timeout` (`None`: wait as long as the transport does).
            pub fn with_timeout(mut self, timeout: Option<std::time::Duration>) -> Self {
                self.client = self.client.with_timeout(timeout);
                self
            }

            /// Sends requests through `transport` instead of reqwest.
            pub fn with_transport(mut self, transport: impl Transport) -> Self {
                self.client = self.client.with_transport(transport);
                self
            }

            /// Sends `headers` on each call of an operation that reads them, where the call's
            /// request sets none of its own.
            pub fn with_headers(mut self, headers: SoapHeaders) -> Self {
                self.client = self.client.with_headers(headers);
                self
            }

            /// The binding calls go over.
            pub fn binding(&self) -> Binding {
                self.client.binding()
            }

            /// Calls the operation of `request` and waits: signs, encodes, sends, decodes.
            pub fn call<T: wire::OperationRequest>(&self, request: &T) -> Result<T::Response, CallError> {
                self.runtime.wait(self.client.call(request))
            }

            /// Calls the operation of `request`, whose result is an array, and gives the
            /// result's items as the response brings them, each read when the iterator is
            /// advanced: see the async client's `call_items`.
            pub fn call_items<T>(&self, request: &T) -> Result<blocking::BlockingItems<<T::Response as wire::ArrayResponse>::Item>, CallError>
            where
                T: wire::OperationRequest,
                T::Response: wire::ArrayResponse,
            {
                let items = self.runtime.wait(self.client.call_items(request))?;
                Ok(blocking::BlockingItems::new(self.runtime.clone(), items))
            }

            /// Calls the operation of `request`, whose result is a DataSet, and gives the
            /// set's rows as the response brings them, each read when the iterator is
            /// advanced: see the async client's `call_rows`.
            pub fn call_rows<T>(&self, request: &T) -> Result<blocking::BlockingDataSetRows, CallError>
            where
                T: wire::OperationRequest,
                T::Response: wire::DataSetResponse,
            {
                let rows = self.runtime.wait(self.client.call_rows(request))?;
                Ok(blocking::BlockingDataSetRows::new(self.runtime.clone(), rows))
            }

            #(#methods)*
        }
    }
}
