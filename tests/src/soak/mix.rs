//! The requests of the soak: valid calls of several operations on all four bindings, invalid
//! ones (malformed XML, wrong types, missing parameters, unknown operations and paths, bad
//! content types, another method), the service's documents, and bodies over the size limit.
//! Each comes with the answer the same server gives it in-process, which every live answer
//! must equal.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::header::{CONTENT_LENGTH, TRANSFER_ENCODING};
use rmm_mobile::runtime::deps::http::{HeaderName, HeaderValue, Method, Request, Response};
use rmm_mobile::runtime::deps::http_body_util::{BodyExt, Full};
use rmm_mobile::runtime::deps::tower_service::Service;
use rmm_mobile::runtime::server::ServerConfig;
use rmm_mobile::wire::OperationRequest;
use rmm_mobile::{
    Binding, Credentials, MobileContactUpdate, MobileGetInvoiceDetails, MobilePhoneNumberDelete,
    MobileService, MobileServiceOrderLockCheck, MobileServiceServer, SERVICE,
};

use super::http1::{complete, wire_bytes, Answer};
use crate::bench_samples::{account_search, credentials, task_create};
use crate::{samples, spec_operation, typed_sample};

/// What a request stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A well-formed call of an operation.
    Valid,
    /// A request the server must refuse (or read as ASMX reads it).
    Invalid,
    /// A service document: WSDL, discovery, help page.
    Document,
    /// A body over [`ServerConfig::max_body_bytes`].
    Oversized,
}

/// One kind of request, ready to send, with the answer it must get.
#[derive(Debug, Clone)]
pub struct Case {
    /// What it is, e.g. `MobileTaskCreate SOAP 1.2` or `GET wrong type`.
    pub name: String,
    /// Valid, invalid, document or oversized.
    pub kind: Kind,
    /// How often it comes in the mix, relative to the other cases.
    pub weight: u32,
    /// The request, with the `Host` and `Content-Length` it is sent with.
    pub request: Request<Bytes>,
    /// The request on the wire.
    pub wire: Bytes,
    /// The server's answer to it in-process.
    pub expected: Answer,
}

/// The mix: the cases sent over keep-alive connections in a fixed shuffled order, and the
/// oversized cases, each sent on a connection of its own (the server closes it after `413`).
#[derive(Debug)]
pub struct Mix {
    /// The cases of the keep-alive stream.
    pub cases: Vec<Case>,
    /// The oversized cases.
    pub oversized: Vec<Case>,
    /// Indexes into `cases`, each as often as its weight, shuffled with a fixed seed.
    schedule: Vec<usize>,
}

impl Mix {
    /// Every case for a server reached as `host` (the WSDL holds the address it was asked
    /// at), its expected answer taken from `server`.
    pub fn new<S: MobileService>(host: &str, server: &MobileServiceServer<S>) -> Mix {
        let finish = |(name, kind, weight, request): (String, Kind, u32, Request<Bytes>)| {
            let request = complete(request, host);
            Case {
                expected: answer_in_process(server, &request),
                wire: Bytes::from(wire_bytes(&request)),
                name,
                kind,
                weight,
                request,
            }
        };
        let (oversized, cases): (Vec<Case>, Vec<Case>) = requests()
            .into_iter()
            .map(finish)
            .partition(|case| case.kind == Kind::Oversized);
        let mut schedule: Vec<usize> = cases
            .iter()
            .enumerate()
            .flat_map(|(i, case)| std::iter::repeat_n(i, case.weight as usize))
            .collect();
        schedule.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(11));
        Mix {
            cases,
            oversized,
            schedule,
        }
    }

    /// The index (into `cases`) of the `n`th request of the keep-alive stream.
    pub fn case_index(&self, n: u64) -> usize {
        self.schedule[(n % self.schedule.len() as u64) as usize]
    }

    /// The `n`th request of the keep-alive stream.
    pub fn case(&self, n: u64) -> &Case {
        &self.cases[self.case_index(n)]
    }

    /// The first case named `name`.
    pub fn named(&self, name: &str) -> &Case {
        self.cases
            .iter()
            .find(|case| case.name == name)
            .unwrap_or_else(|| panic!("no case named {name}"))
    }
}

/// What `server` answers to `request`, through its tower service (body limit and all), as
/// its hyper connection would call it; the request body is all there, so nothing waits.
pub fn answer_in_process<S: MobileService>(
    server: &MobileServiceServer<S>,
    request: &Request<Bytes>,
) -> Answer {
    let mut service = server.clone();
    let response = ready(service.call(request.clone().map(Full::new))).expect("infallible");
    let (parts, body) = response.into_parts();
    let body = ready(body.collect()).expect("infallible").to_bytes();
    Answer::from_response(Response::from_parts(parts, body))
}

/// The output of a future that completes without waiting (the echo service never waits).
fn ready<F: Future>(future: F) -> F::Output {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the server waited on a request whose body is all there"),
    }
}

type Named = (String, Kind, u32, Request<Bytes>);

/// Every request of the mix, before `Host` and expected answers.
fn requests() -> Vec<Named> {
    let mut all = valid_calls();
    all.extend(invalid_requests());
    all.extend(documents());
    all.extend(oversized());
    all
}

/// How often each valid call comes, against 1 for every other case: valid calls are most of
/// what a server gets.
const VALID_WEIGHT: u32 = 4;

/// Six operations (the two of the benches and four with the shared samples' awkward values),
/// each on all four bindings.
fn valid_calls() -> Vec<Named> {
    let credentials = credentials();
    let sample = |name: &str, salt| samples::sample(&spec_operation(name), salt);
    let (contact_credentials, contact) =
        typed_sample::<MobileContactUpdate>(&sample("MobileContactUpdate", 0));
    let (invoice_credentials, invoice) =
        typed_sample::<MobileGetInvoiceDetails>(&sample("MobileGetInvoiceDetails", 1));
    let (phone_credentials, phone) =
        typed_sample::<MobilePhoneNumberDelete>(&sample("MobilePhoneNumberDelete", 2));
    let (lock_credentials, lock) =
        typed_sample::<MobileServiceOrderLockCheck>(&sample("MobileServiceOrderLockCheck", 3));
    let mut calls = every_binding(&account_search(), &credentials);
    calls.extend(every_binding(&task_create(), &credentials));
    calls.extend(every_binding(&contact, &contact_credentials));
    calls.extend(every_binding(&invoice, &invoice_credentials));
    calls.extend(every_binding(&phone, &phone_credentials));
    calls.extend(every_binding(&lock, &lock_credentials));
    calls
}

/// `call` encoded by the generated client on each binding.
fn every_binding<T: OperationRequest>(call: &T, credentials: &Credentials) -> Vec<Named> {
    Binding::ALL
        .iter()
        .map(|&binding| {
            let request = call
                .encode_request(credentials, binding)
                .expect("the sample encodes");
            let name = format!("{} {binding}", T::OPERATION.name());
            (name, Kind::Valid, VALID_WEIGHT, request)
        })
        .collect()
}

/// The valid `MobileAccountSearch` call on `binding`, to spoil.
fn search(binding: Binding) -> Request<Bytes> {
    account_search()
        .encode_request(&credentials(), binding)
        .expect("the sample encodes")
}

/// Requests the server must refuse, made from valid ones by one change each.
fn invalid_requests() -> Vec<Named> {
    let soap11 = search(Binding::Soap11);
    let soap12 = search(Binding::Soap12);
    let get = search(Binding::HttpGet);
    let post = search(Binding::HttpPost);
    let task12 = task_create()
        .encode_request(&credentials(), Binding::Soap12)
        .expect("the sample encodes");
    let unknown = format!("{}/NoSuchOperation", SERVICE.path);
    let mut faulty = account_search();
    faulty.accountname = Some("FAULT".into());
    let fault_get = faulty
        .encode_request(&credentials(), Binding::HttpGet)
        .expect("the sample encodes");
    let fault_soap = faulty
        .encode_request(&credentials(), Binding::Soap11)
        .expect("the sample encodes");
    let invalid = |name: &str, request| (name.to_owned(), Kind::Invalid, 1, request);
    vec![
        invalid("SOAP 1.1 truncated XML", truncated(&soap11, 12)),
        invalid(
            "SOAP 1.2 malformed XML",
            replaced(&soap12, "<accountname>", "<accountname><<"),
        ),
        invalid(
            "SOAP 1.1 wrong type",
            replaced(&soap11, "<repnumber>42<", "<repnumber>forty-two<"),
        ),
        invalid(
            "SOAP 1.2 wrong type",
            replaced(&task12, "<accountnumber>1001<", "<accountnumber>1e3<"),
        ),
        invalid(
            "SOAP 1.1 missing parameter",
            replaced(&soap11, "<repnumber>42</repnumber>", ""),
        ),
        invalid(
            "GET missing parameter",
            with_query_pair(&get, "accountname", None),
        ),
        invalid(
            "GET wrong type",
            with_query_pair(&get, "repnumber", Some("x7")),
        ),
        invalid(
            "POST missing parameter",
            with_form_pair(&post, "email", None),
        ),
        invalid(
            "POST wrong type",
            with_form_pair(&post, "repnumber", Some("1.5")),
        ),
        invalid(
            "GET unknown operation",
            with_uri(&get, &format!("{unknown}?a=1")),
        ),
        invalid("POST unknown operation", with_uri(&post, &unknown)),
        invalid(
            "SOAP 1.1 unknown SOAPAction",
            with_header(
                &soap11,
                "soapaction",
                "\"http://rmm.example.com/mobile/NoSuchOperation\"",
            ),
        ),
        invalid("GET unknown path", with_uri(&get, "/api/rmm/Nothing.asmx")),
        invalid(
            "SOAP 1.1 as application/json",
            with_header(&soap11, "content-type", "application/json"),
        ),
        invalid(
            "POST form as text/plain",
            with_header(&post, "content-type", "text/plain"),
        ),
        invalid("PUT on the endpoint", with_method(&soap11, Method::PUT)),
        invalid("GET requested fault", fault_get),
        invalid("SOAP 1.1 requested fault", fault_soap),
    ]
}

/// The WSDL, the discovery document and the help page.
fn documents() -> Vec<Named> {
    let get = |query: &str| {
        Request::get(format!("{}{query}", SERVICE.path))
            .body(Bytes::new())
            .expect("a request")
    };
    vec![
        ("GET ?wsdl".to_owned(), Kind::Document, 1, get("?wsdl")),
        ("GET ?disco".to_owned(), Kind::Document, 1, get("?disco")),
        ("GET help page".to_owned(), Kind::Document, 1, get("")),
    ]
}

/// Two bodies one byte over the limit: one with its length declared (refused on the head),
/// one chunked (refused once the limit is read).
fn oversized() -> Vec<Named> {
    let limit = ServerConfig::default().max_body_bytes;
    let body = Bytes::from(vec![b'x'; limit + 1]);
    let declared = with_body(&search(Binding::Soap11), body.clone());
    let mut chunked = with_body(&search(Binding::HttpPost), body);
    chunked
        .headers_mut()
        .insert(TRANSFER_ENCODING, HeaderValue::from_static("chunked"));
    vec![
        (
            "SOAP 1.1 oversized, Content-Length".to_owned(),
            Kind::Oversized,
            1,
            declared,
        ),
        (
            "POST oversized, chunked".to_owned(),
            Kind::Oversized,
            1,
            chunked,
        ),
    ]
}

/// `request` with another body (its `Content-Length` dropped, for [`complete`] to set anew).
fn with_body(request: &Request<Bytes>, body: impl Into<Bytes>) -> Request<Bytes> {
    let mut request = request.clone();
    request.headers_mut().remove(CONTENT_LENGTH);
    *request.body_mut() = body.into();
    request
}

/// `request` with its body cut `by` bytes short.
fn truncated(request: &Request<Bytes>, by: usize) -> Request<Bytes> {
    let body = request.body();
    with_body(request, body.slice(..body.len() - by))
}

/// `request` with the first `from` of its body replaced by `to`.
fn replaced(request: &Request<Bytes>, from: &str, to: &str) -> Request<Bytes> {
    let body = std::str::from_utf8(request.body()).expect("a text body");
    assert!(body.contains(from), "{from:?} is not in {body}");
    with_body(request, body.replacen(from, to, 1))
}

/// Form pairs with `name` dropped (`None`) or set to `value`.
fn change_pair(form: &str, name: &str, value: Option<&str>) -> String {
    let pairs: Vec<(String, String)> = form_urlencoded::parse(form.as_bytes())
        .into_owned()
        .filter_map(|(n, v)| match (n == name, value) {
            (false, _) => Some((n, v)),
            (true, Some(value)) => Some((n, value.to_owned())),
            (true, None) => None,
        })
        .collect();
    assert!(
        form_urlencoded::parse(form.as_bytes()).any(|(n, _)| n == name),
        "no {name} in {form}"
    );
    samples::form(&pairs)
}

/// An HTTP GET request with a query pair changed.
fn with_query_pair(request: &Request<Bytes>, name: &str, value: Option<&str>) -> Request<Bytes> {
    let query = request.uri().query().expect("a query");
    let path = request.uri().path();
    with_uri(
        request,
        &format!("{path}?{}", change_pair(query, name, value)),
    )
}

/// An HTTP POST request with a form pair changed.
fn with_form_pair(request: &Request<Bytes>, name: &str, value: Option<&str>) -> Request<Bytes> {
    let form = std::str::from_utf8(request.body()).expect("a form body");
    with_body(request, change_pair(form, name, value))
}

/// `request` to another URI.
fn with_uri(request: &Request<Bytes>, uri: &str) -> Request<Bytes> {
    let mut request = request.clone();
    *request.uri_mut() = uri.parse().expect("a URI");
    request
}

/// `request` with header `name` set to `value`.
fn with_header(request: &Request<Bytes>, name: &'static str, value: &str) -> Request<Bytes> {
    let mut request = request.clone();
    let value = HeaderValue::from_str(value).expect("a header value");
    request
        .headers_mut()
        .insert(HeaderName::from_static(name), value);
    request
}

/// `request` with another method.
fn with_method(request: &Request<Bytes>, method: Method) -> Request<Bytes> {
    let mut request = request.clone();
    *request.method_mut() = method;
    request
}
