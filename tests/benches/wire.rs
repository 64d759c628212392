//! Wire benchmarks: client encode and server decode of requests, server encode and client
//! decode of responses, on every binding, for a large operation (MobileTaskCreate, 27
//! parameters) and a small one (MobileAccountSearch, 7); and the whole generator on the spec.
//!
//! `cargo bench -p rmm-tests --bench wire` (add `-- --warm-up-time 1 --measurement-time 3` for
//! a short run). Each benched path is checked once, outside the timed loop, to give the value
//! it should: a benchmark of a failing path measures nothing.

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http::{Request, Response};
use rmm_mobile::{
    Binding, Credentials, MobileAccountSearch, MobileAccountSearchResponse, MobileTaskCreate,
    MobileTaskCreateResponse,
};
use rmm_tests::bench_samples::{account_search, credentials, task_create, TASK_CREATE_ECHO};

/// The host's echo of [`account_search`] with [`credentials`], built as the host builds it.
fn account_search_echo() -> String {
    let request = account_search();
    let credentials = credentials();
    let pairs: Vec<String> = request
        .values(&credentials)
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    format!("MobileAccountSearch({})", pairs.join(";"))
}

/// One operation's request and response, benched on every binding.
struct Case<Req, Resp> {
    name: &'static str,
    request: Req,
    response: Resp,
}

/// The generated calls of one operation, unwrapped (every benched path must succeed).
trait Operation: Sized + PartialEq + std::fmt::Debug {
    type Response: PartialEq + std::fmt::Debug;
    fn encode(&self, credentials: &Credentials, binding: Binding) -> Request<Bytes>;
    fn decode(request: &Request<Bytes>, binding: Binding) -> (Credentials, Self);
    fn encode_response(response: &Self::Response, binding: Binding) -> Response<Bytes>;
    fn decode_response(response: &Response<Bytes>, binding: Binding) -> Self::Response;
}

impl Operation for MobileTaskCreate {
    type Response = MobileTaskCreateResponse;
    fn encode(&self, credentials: &Credentials, binding: Binding) -> Request<Bytes> {
        self.encode_request(credentials, binding).expect("encodes")
    }
    fn decode(request: &Request<Bytes>, binding: Binding) -> (Credentials, Self) {
        MobileTaskCreate::decode_request(request, binding).expect("decodes")
    }
    fn encode_response(response: &Self::Response, binding: Binding) -> Response<Bytes> {
        response.encode_response(binding).expect("encodes")
    }
    fn decode_response(response: &Response<Bytes>, binding: Binding) -> Self::Response {
        MobileTaskCreateResponse::decode_response(response, binding).expect("decodes")
    }
}

impl Operation for MobileAccountSearch {
    type Response = MobileAccountSearchResponse;
    fn encode(&self, credentials: &Credentials, binding: Binding) -> Request<Bytes> {
        self.encode_request(credentials, binding).expect("encodes")
    }
    fn decode(request: &Request<Bytes>, binding: Binding) -> (Credentials, Self) {
        MobileAccountSearch::decode_request(request, binding).expect("decodes")
    }
    fn encode_response(response: &Self::Response, binding: Binding) -> Response<Bytes> {
        response.encode_response(binding).expect("encodes")
    }
    fn decode_response(response: &Response<Bytes>, binding: Binding) -> Self::Response {
        MobileAccountSearchResponse::decode_response(response, binding).expect("decodes")
    }
}

fn bench_case<Req: Operation>(
    c: &mut Criterion,
    case: &Case<Req, Req::Response>,
    expected_credentials: &Credentials,
) {
    let credentials = credentials();
    for binding in Binding::ALL {
        let id = |what: &str| format!("{what}/{}/{binding}", case.name);

        // Client: encode the request.
        c.bench_function(&id("encode_request"), |b| {
            b.iter(|| black_box(&case.request).encode(black_box(&credentials), binding))
        });

        // Server: decode it to owned values, checked once first.
        // What the client sends is what the server receives (head and body).
        let received = case.request.encode(&credentials, binding);
        let (decoded_credentials, decoded) = Req::decode(&received, binding);
        assert_eq!(decoded, case.request, "{} over {binding}", case.name);
        assert_eq!(
            &decoded_credentials, expected_credentials,
            "{} over {binding}",
            case.name
        );
        c.bench_function(&id("decode_request"), |b| {
            b.iter(|| Req::decode(black_box(&received), binding))
        });

        // Server: encode the response.
        c.bench_function(&id("encode_response"), |b| {
            b.iter(|| Req::encode_response(black_box(&case.response), binding))
        });

        // Client: decode it, checked once first.
        let response = Req::encode_response(&case.response, binding);
        assert_eq!(
            Req::decode_response(&response, binding),
            case.response,
            "{} response over {binding}",
            case.name
        );
        c.bench_function(&id("decode_response"), |b| {
            b.iter(|| Req::decode_response(black_box(&response), binding))
        });
    }
}

fn wire(c: &mut Criterion) {
    // The envelope is the capture's, without its indentation.
    let soap11 = task_create()
        .encode_request(&credentials(), Binding::Soap11)
        .expect("encodes");
    assert!(
        (1300..1500).contains(&soap11.body().len()),
        "SOAP 1.1 MobileTaskCreate envelope is {} bytes",
        soap11.body().len()
    );

    bench_case(
        c,
        &Case {
            name: "MobileTaskCreate",
            request: task_create(),
            response: MobileTaskCreateResponse {
                result: Some(TASK_CREATE_ECHO.to_owned()),
            },
        },
        &credentials(),
    );
    // MobileAccountSearch carries no mobilekey: a server reads it as absent.
    let search_credentials = Credentials {
        mobilekey: None,
        ..credentials()
    };
    bench_case(
        c,
        &Case {
            name: "MobileAccountSearch",
            request: account_search(),
            response: MobileAccountSearchResponse {
                result: Some(account_search_echo()),
            },
        },
        &search_credentials,
    );
}

fn generator(c: &mut Criterion) {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rmm-spec.yaml");
    let files = rmm_codegen::generate(&spec).expect("the spec generates");
    assert!(
        files
            .iter()
            .any(|f| f.path.ends_with("mobile_task_create.rs")),
        "the generator produced no MobileTaskCreate wire file"
    );
    c.bench_function("codegen/generate/rmm-spec.yaml", |b| {
        b.iter(|| rmm_codegen::generate(black_box(&spec)))
    });
}

criterion_group!(benches, wire, generator);
criterion_main!(benches);
