//! SOAP headers of responses: a server's response gets the Header a [`HeaderWriter`] wrote,
//! before its Body; a client reads the Header of the response it got.

use bytes::Bytes;
use http::header::{HeaderValue, CONTENT_LENGTH};
use http::Response;

use crate::soap::header::HeaderBlocks;
use crate::soap::{HeaderWriter, SoapHeaderItem};
use crate::{Binding, OperationInfo, ResponseError};

/// The SOAP `200` response `response` of `binding`, with the Header `header` wrote put before
/// its Body, as an ASMX host writes the out headers a method set (`soap:Header` right after
/// the envelope's start tag); unchanged when no block was written, or over HTTP GET/POST.
pub fn with_header(
    binding: Binding,
    response: Response<Bytes>,
    header: HeaderWriter,
) -> Response<Bytes> {
    let Some(markup) = header.finish() else {
        return response;
    };
    let (mut parts, body) = response.into_parts();
    // The body is an envelope we wrote: it starts with our envelope's start tag.
    let open = crate::soap::envelope_open(binding);
    let at = open.len() - "<soap:Body>".len();
    debug_assert!(
        body.starts_with(&open.as_bytes()[..at]),
        "an envelope of ours"
    );
    let mut out = Vec::with_capacity(body.len() + markup.len());
    out.extend_from_slice(&body[..at]);
    out.extend_from_slice(markup.as_bytes());
    out.extend_from_slice(&body[at..]);
    parts
        .headers
        .insert(CONTENT_LENGTH, HeaderValue::from(out.len()));
    Response::from_parts(parts, Bytes::from(out))
}

/// The header blocks of a response, as a client reads them ([`response_headers`]).
#[derive(Debug)]
pub struct ResponseHeaders<'a> {
    binding: Binding,
    operation: &'static OperationInfo,
    blocks: HeaderBlocks<'a>,
    body: &'a [u8],
}

/// Reads the Header of the SOAP response `response` to a call of `operation`: the blocks of
/// its headers named `names` (those the response carries, `Out` and `InOut`), the first of
/// each name; a block of another name marked `mustUnderstand` is refused, as .NET's client
/// refuses it. Nothing over HTTP GET/POST, which carry no header.
pub fn response_headers<'a, B: AsRef<[u8]>>(
    binding: Binding,
    operation: &'static OperationInfo,
    response: &'a Response<B>,
    names: &[&str],
) -> Result<ResponseHeaders<'a>, ResponseError> {
    let body = response.body().as_ref();
    let blocks = if binding.is_soap() {
        HeaderBlocks::of_response(binding, operation, body, names).map_err(|error| {
            ResponseError::Undecodable {
                operation: operation.name,
                binding,
                reason: format!("the response's Header: {error}"),
                body: Bytes::copy_from_slice(body),
            }
        })?
    } else {
        HeaderBlocks::default()
    };
    Ok(ResponseHeaders {
        binding,
        operation,
        blocks,
        body,
    })
}

impl ResponseHeaders<'_> {
    /// The block `name` read as `T`, its attributes set: `None` without one, as .NET's
    /// client leaves the header member null.
    pub fn header<T: SoapHeaderItem>(
        &self,
        name: &'static str,
    ) -> Result<Option<T>, ResponseError> {
        self.blocks
            .get(name)
            .map_err(|error| ResponseError::Undecodable {
                operation: self.operation.name,
                binding: self.binding,
                reason: format!("the response's header {name}: {error}"),
                body: Bytes::copy_from_slice(self.body),
            })
    }
}
