//! Shared helpers of rmm's integration tests and benchmarks.
//!
//! The README is included below so that its examples are compiled and run as doctests.
#![doc = ""]
#![doc = include_str!("../../README.md")]

// The user guide's chapters (docs/src/) that hold Rust examples, each the doc of a private item
// so that its examples run as doctests too.
#[doc = include_str!("../../docs/src/calling.md")]
mod guide_calling {}
#[doc = include_str!("../../docs/src/serving.md")]
mod guide_serving {}
#[doc = include_str!("../../docs/src/build-scripts.md")]
mod guide_build_scripts {}

use std::path::{Path, PathBuf};

pub mod bench_samples;
pub mod captures;
pub mod encoded_service;
pub mod heap;
pub mod large_response;
pub mod objects_any;
pub mod objects_data_set;
pub mod objects_service;
pub mod script_service;
pub mod soak;
pub mod threaded;
pub mod types_service;

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

/// The spec, parsed once per process (difftest asks for an operation per generated case).
pub fn spec() -> rmm_codegen::spec::Spec {
    parsed_spec().clone()
}

fn parsed_spec() -> &'static rmm_codegen::spec::Spec {
    static SPEC: std::sync::OnceLock<rmm_codegen::spec::Spec> = std::sync::OnceLock::new();
    SPEC.get_or_init(|| {
        let text = std::fs::read_to_string(spec_path()).expect("rmm-spec.yaml");
        rmm_codegen::spec::parse(&text, "rmm-spec.yaml").expect("rmm-spec.yaml is valid")
    })
}

/// One operation of the spec.
pub fn spec_operation(name: &str) -> rmm_codegen::spec::Operation {
    parsed_spec()
        .operations
        .iter()
        .find(|op| op.name == name)
        .expect("operation in the spec")
        .clone()
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
    /// Samples of the other integer types and the floats: each type's bounds and a small
    /// value, as `XmlConvert` writes them.
    pub fn numbers(ty: SoapType) -> &'static [&'static str] {
        match ty {
            SoapType::Long => &["-9223372036854775808", "9223372036854775807", "42"],
            SoapType::Short => &["-32768", "32767", "7"],
            SoapType::Byte => &["-128", "127", "0"],
            SoapType::UnsignedByte => &["0", "255", "7"],
            SoapType::UnsignedShort => &["0", "65535", "7"],
            SoapType::UnsignedInt => &["0", "4294967295", "7"],
            SoapType::UnsignedLong => &["0", "18446744073709551615", "7"],
            SoapType::Float => &["3.40282347E+38", "-1.401298E-45", "0.1", "-0"],
            SoapType::Double => &["-1.7976931348623157E+308", "4.94065645841247E-324", "0.1"],
            _ => INTS,
        }
    }

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
                    other => numbers(other)[k % numbers(other).len()],
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
/// order, credentials included (as the host in `tests/interop/asmx/` answers).
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
