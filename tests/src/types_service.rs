//! The second reference service (`tests/interop/asmx/TypesService.cs`, crate `rmm-types`):
//! rmm's implementation of it, the request set its recording is made of, and where its
//! recorded exchanges live (`tests/fixtures/types/asmx/`, written by
//! `cargo xtask interop --record`).

use std::path::PathBuf;

use rmm_types::runtime::deps::bytes::Bytes;
use rmm_types::runtime::deps::chrono::NaiveDate;
use rmm_types::runtime::deps::http::Request;
use rmm_types::runtime::Date;
use rmm_types::wire::OperationRequest;
use rmm_types::*;

/// `tests/fixtures/types/asmx` in the workspace.
pub fn exchanges_dir() -> PathBuf {
    crate::root().join("tests/fixtures/types/asmx")
}

/// Where our answer differs from the host's on purpose: (recorded exchange, our status, why).
/// `tests/tests/types_fidelity.rs` replays these through our server; `cargo xtask interop`
/// sends them to the live host and to us. The help pages and the request set are in
/// [`PAGES`] and [`generated_cases`].
pub const DELIBERATE: &[(&str, u16, &str)] = &[
    (
        "help-op-echo-date-time",
        200,
        "an operation's help page at ?op=, as ASP.NET on .NET Framework serves it; Mono \
         answers 500 there (its own pages are at ?page=op)",
    ),
    (
        "help-op-echo-guid",
        200,
        "an operation's help page at ?op=, as ASP.NET on .NET Framework serves it; Mono \
         answers 500 there (its own pages are at ?page=op)",
    ),
    (
        "soap11-echo-date-time-offset",
        200,
        "an offset is kept as sent; the host converts it to its own zone (the same instant)",
    ),
    (
        "get-echo-date-time-offset",
        200,
        "an offset is kept as sent; the host converts it to its own zone (the same instant)",
    ),
    (
        "get-client-echo-date-time-utc",
        200,
        "Z over GET/POST is kept; the host reads it as its local time, written with its offset \
         (the same instant)",
    ),
    (
        "post-client-echo-date-time-utc",
        200,
        "Z over GET/POST is kept; the host reads it as its local time, written with its offset \
         (the same instant)",
    ),
    (
        "soap11-echo-date-time-offset-past-14",
        200,
        "an offset is kept as sent; the host converts it to its own zone (the same instant)",
    ),
    (
        "soap11-echo-date-time-offset-a-day",
        500,
        "an offset of a day or more, which XmlConvert reads and converts; no zone has one, \
         and no reading keeps it",
    ),
    (
        "soap11-echo-date-time-eight-digits",
        500,
        "the host rounds a fraction past 100 ns silently; we refuse it",
    ),
    (
        "get-echo-date-time-culture",
        500,
        "the host reads 01/02/2026 by its culture's guess (DateTime.Parse); we read the XSD forms only",
    ),
    (
        "get-echo-date-offset",
        200,
        "an offset is kept as sent; the host converts it to its own zone (the same instant)",
    ),
    (
        "soap11-echo-date-no-year",
        500,
        "the host completes a date without a year (--02-03) with the current one, so the same \
         request answers differently from year to year; we refuse it",
    ),
    (
        "get-echo-level-number",
        500,
        "the host reads a number as the enum's value of that number (Enum.Parse); we read member names only",
    ),
    (
        "soap11-echo-char-lone-surrogate",
        500,
        "the host echoes a lone UTF-16 surrogate, which is no character and no Rust char",
    ),
];

/// The recorded exchanges that are not calls: the WSDL and the help pages.
pub const PAGES: [&str; 4] = [
    "wsdl",
    "help",
    "help-op-echo-date-time",
    "help-op-echo-guid",
];

/// The types service as rmm serves it: every echo returns its value, `Describe` prints its
/// values as the reference service does (XmlConvert's forms, which are `ParamValue`'s
/// `Display`), `Ping` answers nothing.
pub struct TypesEcho;

macro_rules! echo_operations {
    ($($method:ident: $request:ident => $response:ident,)*) => {
        impl TypesService for TypesEcho {
            $(
                async fn $method(&self, request: $request) -> Result<$response, Fault> {
                    Ok($response { result: request.value })
                }
            )*

            async fn ping(&self, _: Ping) -> Result<PingResponse, Fault> {
                Ok(PingResponse { result: () })
            }

            async fn describe(&self, request: Describe) -> Result<DescribeResponse, Fault> {
                Ok(DescribeResponse { result: Some(described(&request, &Credentials::default())) })
            }
        }
    };
}

echo_operations! {
    echo_string: EchoString => EchoStringResponse,
    echo_boolean: EchoBoolean => EchoBooleanResponse,
    echo_decimal: EchoDecimal => EchoDecimalResponse,
    echo_int: EchoInt => EchoIntResponse,
    echo_long: EchoLong => EchoLongResponse,
    echo_short: EchoShort => EchoShortResponse,
    echo_unsigned_byte: EchoUnsignedByte => EchoUnsignedByteResponse,
    echo_byte: EchoByte => EchoByteResponse,
    echo_unsigned_short: EchoUnsignedShort => EchoUnsignedShortResponse,
    echo_unsigned_int: EchoUnsignedInt => EchoUnsignedIntResponse,
    echo_unsigned_long: EchoUnsignedLong => EchoUnsignedLongResponse,
    echo_float: EchoFloat => EchoFloatResponse,
    echo_double: EchoDouble => EchoDoubleResponse,
    echo_char: EchoChar => EchoCharResponse,
    echo_guid: EchoGuid => EchoGuidResponse,
    echo_level: EchoLevel => EchoLevelResponse,
    echo_nullable_int: EchoNullableInt => EchoNullableIntResponse,
    echo_nullable_double: EchoNullableDouble => EchoNullableDoubleResponse,
    echo_nullable_level: EchoNullableLevel => EchoNullableLevelResponse,
    echo_date_time: EchoDateTime => EchoDateTimeResponse,
    echo_date: EchoDate => EchoDateResponse,
    echo_base64_binary: EchoBase64Binary => EchoBase64BinaryResponse,
}

/// `Describe(a=…;b=…;…)`: what the reference service's `Describe` answers for `request`.
pub fn described(request: &Describe, credentials: &Credentials) -> String {
    let printed: Vec<String> = request
        .values(credentials)
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    format!("Describe({})", printed.join(";"))
}

/// A `Describe` call with a value of every kind, most at a bound; its enum value is one whose
/// wire and member names differ.
pub fn describe_sample() -> Describe {
    Describe {
        a: i32::MIN,
        b: i64::MAX,
        c: -7,
        d: 255,
        e: -128,
        f: 65535,
        g: u32::MAX,
        h: u64::MAX,
        i: f32::MIN,
        j: 0.1,
        k: "-1.50".parse().expect("a decimal"),
        l: true,
        m: 'é',
        n: Level::VeryHigh,
        o: Some("Acme & Sons".into()),
    }
}

/// One request of the recorded set: its name (without the binding's prefix), what it is,
/// and the request as the generated client encodes it.
pub struct GeneratedCase {
    /// `echo-int-min`: the file is `{binding prefix}-client-{slug}.txt`.
    pub slug: &'static str,
    /// The operation called.
    pub operation: Operation,
    /// The call, as the generated client sends it.
    pub request: Request<Bytes>,
}

/// The file-name prefix of a binding's exchanges (as for the Mobile service's).
pub fn prefix(binding: Binding) -> &'static str {
    match binding {
        Binding::Soap11 => "soap11",
        Binding::Soap12 => "soap12",
        Binding::HttpGet => "get",
        Binding::HttpPost => "post",
        Binding::Json => "json",
    }
}

/// The generated part of the recorded set, for one binding: every operation the host offers
/// on it, with values at the bounds of each type, as the generated client sends them. Values
/// a binding cannot carry (a null, an empty `byte[]` over GET/POST) and the SOAP-only
/// operations appear over SOAP only.
pub fn generated_cases(binding: Binding) -> Vec<GeneratedCase> {
    let none = Credentials::default();
    let mut cases = Vec::new();
    let mut add = |slug: &'static str,
                   encoded: Result<(Operation, Request<Bytes>), EncodeError>| {
        let (operation, request) = encoded.unwrap_or_else(|e| panic!("{slug} over {binding}: {e}"));
        cases.push(GeneratedCase {
            slug,
            operation,
            request,
        });
    };
    fn encode<T: OperationRequest>(
        call: T,
        none: &Credentials,
        binding: Binding,
    ) -> Result<(Operation, Request<Bytes>), EncodeError> {
        Ok((T::OPERATION, call.encode_request(none, binding)?))
    }
    let reading = NaiveDate::from_ymd_opt(2026, 1, 1)
        .and_then(|d| d.and_hms_nano_opt(5, 30, 0, 120_000_000))
        .expect("a date");
    let last = NaiveDate::from_ymd_opt(9999, 12, 31)
        .and_then(|d| d.and_hms_nano_opt(23, 59, 59, 999_999_900))
        .expect("a date");
    let text = |s: &str| Some(s.to_owned());
    add(
        "echo-string-specials",
        encode(
            EchoString {
                value: text("a & <b> \"c\" é"),
            },
            &none,
            binding,
        ),
    );
    add(
        "echo-string-empty",
        encode(EchoString { value: text("") }, &none, binding),
    );
    add(
        "echo-boolean-true",
        encode(EchoBoolean { value: true }, &none, binding),
    );
    add(
        "echo-boolean-false",
        encode(EchoBoolean { value: false }, &none, binding),
    );
    add(
        "echo-decimal-min",
        encode(
            EchoDecimal {
                value: Decimal::MIN,
            },
            &none,
            binding,
        ),
    );
    add(
        "echo-decimal-scale",
        encode(
            EchoDecimal {
                value: "-1.50".parse().expect("a decimal"),
            },
            &none,
            binding,
        ),
    );
    add(
        "echo-int-min",
        encode(EchoInt { value: i32::MIN }, &none, binding),
    );
    add(
        "echo-int-max",
        encode(EchoInt { value: i32::MAX }, &none, binding),
    );
    add(
        "echo-long-min",
        encode(EchoLong { value: i64::MIN }, &none, binding),
    );
    add(
        "echo-long-max",
        encode(EchoLong { value: i64::MAX }, &none, binding),
    );
    add(
        "echo-short-min",
        encode(EchoShort { value: i16::MIN }, &none, binding),
    );
    add(
        "echo-unsigned-byte-max",
        encode(EchoUnsignedByte { value: u8::MAX }, &none, binding),
    );
    add(
        "echo-byte-min",
        encode(EchoByte { value: i8::MIN }, &none, binding),
    );
    add(
        "echo-unsigned-short-max",
        encode(EchoUnsignedShort { value: u16::MAX }, &none, binding),
    );
    add(
        "echo-unsigned-int-max",
        encode(EchoUnsignedInt { value: u32::MAX }, &none, binding),
    );
    add(
        "echo-unsigned-long-max",
        encode(EchoUnsignedLong { value: u64::MAX }, &none, binding),
    );
    add(
        "echo-float-min",
        encode(EchoFloat { value: f32::MIN }, &none, binding),
    );
    add(
        "echo-float-tenth",
        encode(EchoFloat { value: 0.1 }, &none, binding),
    );
    add(
        "echo-float-infinity",
        encode(
            EchoFloat {
                value: f32::INFINITY,
            },
            &none,
            binding,
        ),
    );
    add(
        "echo-double-smallest",
        encode(
            EchoDouble {
                value: f64::from_bits(1),
            },
            &none,
            binding,
        ),
    );
    add(
        "echo-double-negative-infinity",
        encode(
            EchoDouble {
                value: f64::NEG_INFINITY,
            },
            &none,
            binding,
        ),
    );
    add(
        "echo-double-nan",
        encode(EchoDouble { value: f64::NAN }, &none, binding),
    );
    add(
        "echo-char-e-acute",
        encode(EchoChar { value: 'é' }, &none, binding),
    );
    add(
        "echo-char-last",
        encode(EchoChar { value: '\u{ffff}' }, &none, binding),
    );
    add(
        "echo-level-high",
        encode(EchoLevel { value: Level::High }, &none, binding),
    );
    add(
        "echo-date-time-unspecified",
        encode(
            EchoDateTime {
                value: DateTime::unspecified(reading),
            },
            &none,
            binding,
        ),
    );
    add(
        "echo-date-time-last",
        encode(
            EchoDateTime {
                value: DateTime::unspecified(last),
            },
            &none,
            binding,
        ),
    );
    add(
        "echo-date-time-utc",
        encode(
            EchoDateTime {
                value: DateTime::utc(reading),
            },
            &none,
            binding,
        ),
    );
    // A date holding a time of day: SOAP carries its date alone, HTTP GET/POST the whole
    // reading (as the host does, which applies no DataType there).
    add(
        "echo-date",
        encode(
            EchoDate {
                value: Date(DateTime::unspecified(reading)),
            },
            &none,
            binding,
        ),
    );
    add(
        "echo-date-last",
        encode(
            EchoDate {
                value: Date::new(last.date()),
            },
            &none,
            binding,
        ),
    );
    add(
        "echo-base64-binary",
        encode(
            EchoBase64Binary {
                value: Some(vec![0, 1, 254, 255]),
            },
            &none,
            binding,
        ),
    );
    add("ping", encode(Ping {}, &none, binding));
    add("describe", encode(describe_sample(), &none, binding));
    if binding.is_soap() {
        add(
            "echo-level-wire-name",
            encode(
                EchoLevel {
                    value: Level::VeryHigh,
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-guid",
            encode(
                EchoGuid {
                    value: Uuid::from_u128(u128::MAX / 3),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-nullable-int-null",
            encode(EchoNullableInt { value: None }, &none, binding),
        );
        add(
            "echo-nullable-int-min",
            encode(
                EchoNullableInt {
                    value: Some(i32::MIN),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-nullable-double-negative-zero",
            encode(EchoNullableDouble { value: Some(-0.0) }, &none, binding),
        );
        add(
            "echo-nullable-double-null",
            encode(EchoNullableDouble { value: None }, &none, binding),
        );
        add(
            "echo-nullable-level-wire-name",
            encode(
                EchoNullableLevel {
                    value: Some(Level::VeryHigh),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-nullable-level-null",
            encode(EchoNullableLevel { value: None }, &none, binding),
        );
        add(
            "echo-base64-binary-empty",
            encode(
                EchoBase64Binary {
                    value: Some(Vec::new()),
                },
                &none,
                binding,
            ),
        );
        add(
            "echo-base64-binary-null",
            encode(EchoBase64Binary { value: None }, &none, binding),
        );
    }
    cases
}
