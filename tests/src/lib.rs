//! Shared helpers of rmm's integration tests and benchmarks.
//!
//! The README is included below so that its examples are compiled and run as doctests.
#![doc = ""]
#![doc = include_str!("../../README.md")]

use std::path::{Path, PathBuf};

pub mod bench_samples;

use rmm_mobile::runtime::deps::http::Request;
use rmm_mobile::wire::OperationRequest;
use rmm_mobile::*;

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// The spec the generated crate is made from.
pub fn spec_path() -> PathBuf {
    root().join("rmm-spec.yaml")
}

/// The spec, parsed.
pub fn spec() -> rmm_codegen::spec::Spec {
    let text = std::fs::read_to_string(spec_path()).expect("rmm-spec.yaml");
    rmm_codegen::spec::parse(&text, "rmm-spec.yaml").expect("rmm-spec.yaml is valid")
}

/// One operation of the spec.
pub fn spec_operation(name: &str) -> rmm_codegen::spec::Operation {
    spec()
        .operations
        .into_iter()
        .find(|op| op.name == name)
        .expect("operation in the spec")
}

/// Sample texts, chosen per type and cycled by position (and `salt`) so that across the 20
/// operations every boundary and every awkward character meets every binding.
pub mod samples {
    use rmm_codegen::spec::{Operation, SoapType};

    /// int samples, boundaries included.
    pub const INTS: &[&str] = &["42", "1001", "-1", "2147483647", "-2147483648", "0", "7"];
    /// boolean samples.
    pub const BOOLEANS: &[&str] = &["true", "false"];
    /// decimal samples, scales and the largest value included.
    pub const DECIMALS: &[&str] = &[
        "1.50",
        "-12.3400",
        "0.0",
        "7",
        "0.001",
        "79228162514264337593543950335",
    ];
    /// string samples: XML-special, non-ASCII, padded, multi-line, empty, CR.
    pub const STRINGS: &[&str] = &[
        "Acme & Sons > 1 < 2",
        "Café naïve ☕",
        "  padded  ",
        "Line1\nLine2 \"quoted\" 'single' 100% + a=b;c",
        "",
        "2026-01-01T00:00:00Z",
        "jane.doe@example.com",
        "tab\there\r\nCRLF",
    ];

    /// The sample text of every parameter of `op`, in wire order.
    pub fn sample(op: &Operation, salt: usize) -> Vec<(String, String)> {
        op.params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let k = i + salt;
                let text = match p.ty {
                    SoapType::Int => INTS[k % INTS.len()],
                    SoapType::Boolean => BOOLEANS[k % BOOLEANS.len()],
                    SoapType::Decimal => DECIMALS[k % DECIMALS.len()],
                    SoapType::String => STRINGS[k % STRINGS.len()],
                };
                (p.name.clone(), text.to_owned())
            })
            .collect()
    }

    /// The pairs as an `application/x-www-form-urlencoded` string (query or form body),
    /// encoded by the `form_urlencoded` crate, not by rmm.
    pub fn form(pairs: &[(String, String)]) -> String {
        let mut s = form_urlencoded::Serializer::new(String::new());
        for (name, value) in pairs {
            s.append_pair(name, value);
        }
        s.finish()
    }

    /// The echo of these values: `Op(name=value;…)`.
    pub fn echo_of(operation: &str, pairs: &[(String, String)]) -> String {
        let texts: Vec<String> = pairs.iter().map(|(n, v)| format!("{n}={v}")).collect();
        format!("{operation}({})", texts.join(";"))
    }
}

/// The typed sample of `T`: read by the server side from an HTTP GET request built from the
/// sample texts (checked to hold exactly those texts, in wire order).
pub fn typed_sample<T: OperationRequest>(pairs: &[(String, String)]) -> (Credentials, T) {
    use rmm_mobile::runtime::deps::bytes::Bytes;
    let op = T::OPERATION.name();
    let uri = format!("{}/{op}?{}", SERVICE.path, samples::form(pairs));
    let request = Request::get(uri).body(Bytes::new()).expect("valid request");
    let (credentials, typed) =
        T::decode_request(&request, Binding::HttpGet).expect("sample decodes");
    assert_eq!(echo(&typed, &credentials), samples::echo_of(op, pairs));
    (credentials, typed)
}

/// The echo the reference ASMX service answers: `Op(name=value;…)`, every parameter in wire
/// order, credentials included (see `shared/asmx-reference/README.md`).
pub fn echo<T: OperationRequest>(request: &T, credentials: &Credentials) -> String {
    let values: Vec<String> = request
        .values(credentials)
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    format!("{}({})", T::OPERATION.name(), values.join(";"))
}

/// Decodes `request` as `operation` over `binding` (server side) and returns its echo.
pub fn decode_echo<B: AsRef<[u8]>>(
    operation: Operation,
    binding: Binding,
    request: &Request<B>,
) -> Result<String, RequestError> {
    fn one<T: OperationRequest, B: AsRef<[u8]>>(
        binding: Binding,
        request: &Request<B>,
    ) -> Result<String, RequestError> {
        let (credentials, typed) = T::decode_request(request, binding)?;
        Ok(echo(&typed, &credentials))
    }
    macro_rules! dispatch {
        ($($ty:ident),*) => {
            match operation {
                $(Operation::$ty => one::<$ty, B>(binding, request),)*
            }
        };
    }
    dispatch!(
        MobileTaskCreate,
        MobileServiceOrderCreate,
        MobileItemsServicedCreate,
        MobileContactUpdate,
        MobileAccountJournalUpdate,
        MobilePriceBookQuantityEachLocation,
        MobilePasswordKeeperCreate,
        MobileTaskConflictCheck,
        MobilePartsUsedAssemblyUpdate,
        MobileAccountSearch,
        MobileInvoiceBacktrack,
        MobileContactEmailCreate,
        MobileCustomerInventoryDropdown,
        MobilePhoneNumberDelete,
        MobileServiceOrderRepAssignedDelete,
        MobileServiceOrderRepAssignedList,
        MobileAccountDefaultsList,
        MobileServiceOrderLockCheck,
        MobilePartsUsedPriceLevelSelect,
        MobileGetInvoiceDetails
    )
}

/// The exchanges recorded from the reference ASMX host (`shared/asmx-reference/captures`).
pub mod captures {
    /// Where our answer differs from the host's on purpose: (capture, our status, why).
    /// `tests/tests/fidelity.rs` replays these through our server, `cargo xtask interop`
    /// against the live host.
    pub const DELIBERATE: &[(&str, u16, &str)] = &[
        (
            "soap11-op12-unqualified-params",
            500,
            "the host reads unqualified parameters as absent",
        ),
        (
            "soap12-op12-unqualified-params",
            500,
            "the host reads unqualified parameters as absent",
        ),
        (
            "soap11-op12-nil-string",
            500,
            "the host reads xsi:nil strings as \"\"; no parameter is nillable",
        ),
        (
            "soap12-op12-nil-string",
            500,
            "the host reads xsi:nil strings as \"\"; no parameter is nillable",
        ),
        (
            "soap11-op12-wrong-namespace",
            500,
            "the host defaults every parameter of an operation in another namespace",
        ),
        (
            "soap12-op12-wrong-namespace",
            500,
            "the host defaults every parameter of an operation in another namespace",
        ),
        (
            "soap11-op12-wrong-soapaction",
            500,
            "the host runs the SOAPAction's operation with defaulted parameters",
        ),
        (
            "soap12-op12-wrong-soapaction",
            500,
            "the host runs the action's operation with defaulted parameters",
        ),
        ("get-op09-decimal-comma", 500, "the host reads 1,5 as 15"),
        ("post-op09-decimal-comma", 500, "the host reads 1,5 as 15"),
        (
            "get-op09-decimal-thousands",
            500,
            "the host reads 1,234.5 as 1234.5",
        ),
        (
            "post-op09-decimal-thousands",
            500,
            "the host reads 1,234.5 as 1234.5",
        ),
        (
            "get-op12-repeated-param",
            500,
            "the host joins repeated values with commas",
        ),
        (
            "post-op12-repeated-param",
            500,
            "the host joins repeated values with commas",
        ),
        (
            "post-op12-json",
            500,
            "ASP.NET AJAX's JSON handler is not part of the interface's four bindings",
        ),
        (
            "post-op12-put-method",
            405,
            "the host answers a PUT with an HTML 500 page; 405 names the problem",
        ),
    ];

    /// Recorded exchanges about the transport (nginx's framing), not the service.
    pub const TRANSPORT: &[&str] = &[
        "soap11-op12-ok-chunked-request",
        "soap11-op12-ok-expect-100-continue",
    ];

    use std::path::PathBuf;

    /// One recorded HTTP message.
    pub struct Message {
        /// The request or status line.
        pub start_line: String,
        /// Headers in order, as recorded.
        pub headers: Vec<(String, String)>,
        /// The body (by Content-Length).
        pub body: Vec<u8>,
    }

    impl Message {
        /// The first header of that name (any case).
        pub fn header(&self, name: &str) -> Option<&str> {
            self.headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        }
    }

    /// One recorded exchange.
    pub struct Capture {
        /// The capture's file stem.
        pub name: String,
        /// What the client sent.
        pub request: Message,
        /// What the host answered.
        pub response: Message,
    }

    /// Where `needle` first occurs in `haystack`.
    pub fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
        haystack.windows(needle.len()).position(|w| w == needle)
    }

    /// Parses a raw HTTP message (CRLF head, body cut at Content-Length).
    pub fn parse_message(raw: &[u8]) -> Message {
        let head_end = find(raw, b"\r\n\r\n").expect("header end");
        let head = std::str::from_utf8(&raw[..head_end]).unwrap();
        let mut lines = head.split("\r\n");
        let start_line = lines.next().unwrap().to_owned();
        let headers: Vec<(String, String)> = lines
            .map(|l| {
                let (n, v) = l.split_once(':').unwrap();
                (n.trim().to_owned(), v.trim().to_owned())
            })
            .collect();
        let rest = &raw[head_end + 4..];
        let len = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
            .map_or(0, |(_, v)| v.parse::<usize>().unwrap());
        Message {
            start_line,
            headers,
            body: rest[..len.min(rest.len())].to_vec(),
        }
    }

    /// `../shared/asmx-reference/captures` beside the checkout.
    pub fn captures_dir() -> PathBuf {
        crate::root()
            .parent()
            .unwrap()
            .join("shared/asmx-reference/captures")
    }

    /// Every capture of a SOAP, GET or POST call, sorted by name.
    pub fn load() -> Vec<Capture> {
        let mut captures = Vec::new();
        let mut paths: Vec<PathBuf> = std::fs::read_dir(captures_dir())
            .expect("../shared/asmx-reference/captures beside the checkout")
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .collect();
        paths.sort();
        for path in paths {
            let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
            if !["soap11-", "soap12-", "get-", "post-"]
                .iter()
                .any(|p| name.starts_with(p))
            {
                continue; // wsdl, disco, help pages, misc transport cases
            }
            let raw = std::fs::read(&path).unwrap();
            let req_at = find(&raw, b"==== REQUEST").unwrap();
            let req_start = req_at + find(&raw[req_at..], b"\n").unwrap() + 1;
            let resp_marker = find(&raw, b"\n### ==== RESPONSE").unwrap();
            let resp_start = resp_marker + 1 + find(&raw[resp_marker + 1..], b"\n").unwrap() + 1;
            let end = find(&raw, b"\n### ==== END").unwrap();
            captures.push(Capture {
                name,
                request: parse_message(&raw[req_start..resp_marker]),
                response: parse_message(&raw[resp_start..end]),
            });
        }
        assert!(
            captures.len() > 150,
            "found only {} captures",
            captures.len()
        );
        captures
    }

    /// The status code of a response.
    pub fn status(m: &Message) -> u16 {
        m.start_line.split(' ').nth(1).unwrap().parse().unwrap()
    }

    /// Undoes the host's text escaping.
    pub fn unescape(text: &str) -> String {
        text.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&")
    }

    /// The text between the first `open` and the next `close`.
    pub fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
        let start = text.find(open)? + open.len();
        Some(&text[start..start + text[start..].find(close)?])
    }
}
