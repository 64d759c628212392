//! The second reference service, live (`tests/interop/asmx/TypesService.cs`): its `?WSDL`,
//! imported from the running host, gives `tests/types/rmm-spec.yaml`; the generated client
//! (`rmm-types`) calls every operation on every binding the host offers it on, with values at
//! the bounds of each type, and must get each value back exactly as the host echoes it.

use std::fmt::Debug;
use std::future::Future;
use std::time::Duration;

use rmm_codegen::spec;
use rmm_types::runtime::deps::chrono::{FixedOffset, NaiveDate};
use rmm_types::runtime::deps::tokio;
use rmm_types::*;

use crate::raw::{exchange, raw_request, Raw};
use crate::record::RECORDED_HOST;
use crate::{Checks, Target};

const PATH: &str = "/api/rmm/TypesService.asmx";

/// Checks that one call over `binding` gives back `want`.
async fn echo<T, F>(checks: &mut Checks, binding: Binding, name: &str, want: T, call: F)
where
    T: PartialEq + Debug,
    F: Future<Output = Result<T, CallError>>,
{
    let got = call.await;
    checks.check(
        &format!("types {name} over {binding}"),
        match got {
            Ok(got) if got == want => Ok(()),
            Ok(got) => Err(format!("got {got:?}, want {want:?}")),
            Err(e) => Err(e.to_string()),
        },
    );
}

/// Every binding, and the two SOAP ones.
const SOAP: [Binding; 2] = [Binding::Soap11, Binding::Soap12];

pub(crate) async fn types_section(checks: &mut Checks, mono: &Target) {
    checks.section("types service: import from the live host, then every operation × binding");
    let url = format!("{}{PATH}?WSDL", mono.base);
    let imported = match rmm_types::runtime::deps::reqwest::get(&url).await {
        Ok(r) => r.text().await.map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    }
    .and_then(|wsdl| rmm_codegen::import::import(&wsdl, &url).map_err(|e| e.to_string()))
    .and_then(|yaml| spec::parse(&yaml, "imported").map_err(|e| e.to_string()));
    let root = rmm_tests::root();
    let committed = std::fs::read_to_string(root.join("tests/types/rmm-spec.yaml"))
        .map_err(|e| e.to_string())
        .and_then(|s| spec::parse(&s, "tests/types/rmm-spec.yaml").map_err(|e| e.to_string()));
    checks.check(
        "types: the live host's WSDL imports as tests/types/rmm-spec.yaml",
        match (imported, committed) {
            (Ok(mut live), Ok(committed)) => {
                // The import's doc texts and crate name are the committed file's own.
                live.service.crate_name = committed.service.crate_name.clone();
                for (l, c) in live.operations.iter_mut().zip(&committed.operations) {
                    l.doc = c.doc.clone();
                }
                if live == committed {
                    Ok(())
                } else {
                    Err("the live import differs from the committed spec".to_owned())
                }
            }
            (Err(e), _) | (_, Err(e)) => Err(e),
        },
    );

    let base = &mono.base;
    let client = TypesServiceClient::new(base, StaticSigner(Credentials::default()))
        .with_timeout(Some(Duration::from_secs(60)));
    for binding in Binding::ALL {
        let c = client.over(binding);
        for v in [
            Some("Acme & Sons <1>".to_owned()),
            Some(String::new()),
            Some("Café ☕".into()),
        ] {
            echo(checks, binding, "EchoString", v.clone(), async {
                c.echo_string(&EchoString { value: v.clone() })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }
        for v in [true, false] {
            echo(checks, binding, "EchoBoolean", v, async {
                c.echo_boolean(&EchoBoolean { value: v })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }
        for v in [Decimal::MAX, Decimal::MIN, "-1.50".parse().unwrap()] {
            echo(checks, binding, "EchoDecimal", v, async {
                c.echo_decimal(&EchoDecimal { value: v })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }
        macro_rules! bounds {
            ($method:ident, $request:ident, $name:literal, $ty:ty) => {
                for v in [<$ty>::MIN, <$ty>::MAX, 0 as $ty] {
                    echo(checks, binding, $name, v, async {
                        c.$method(&$request { value: v }).await.map(|r| r.result)
                    })
                    .await;
                }
            };
        }
        bounds!(echo_int, EchoInt, "EchoInt", i32);
        bounds!(echo_long, EchoLong, "EchoLong", i64);
        bounds!(echo_short, EchoShort, "EchoShort", i16);
        bounds!(echo_byte, EchoByte, "EchoByte", i8);
        bounds!(echo_unsigned_byte, EchoUnsignedByte, "EchoUnsignedByte", u8);
        bounds!(
            echo_unsigned_short,
            EchoUnsignedShort,
            "EchoUnsignedShort",
            u16
        );
        bounds!(echo_unsigned_int, EchoUnsignedInt, "EchoUnsignedInt", u32);
        bounds!(
            echo_unsigned_long,
            EchoUnsignedLong,
            "EchoUnsignedLong",
            u64
        );
        for v in [f32::MAX, f32::MIN, f32::from_bits(1), 0.1, f32::INFINITY] {
            echo(checks, binding, "EchoFloat", v.to_bits(), async {
                c.echo_float(&EchoFloat { value: v })
                    .await
                    .map(|r| r.result.to_bits())
            })
            .await;
        }
        for v in [
            f64::MAX,
            f64::MIN,
            f64::from_bits(1),
            0.1,
            f64::NEG_INFINITY,
        ] {
            echo(checks, binding, "EchoDouble", v.to_bits(), async {
                c.echo_double(&EchoDouble { value: v })
                    .await
                    .map(|r| r.result.to_bits())
            })
            .await;
        }
        for v in ['A', 'é', '\u{ffff}'] {
            echo(checks, binding, "EchoChar", v, async {
                c.echo_char(&EchoChar { value: v }).await.map(|r| r.result)
            })
            .await;
        }
        // Over HTTP GET/POST the host reads an enum by its .NET member name (`VeryHigh`), which
        // no WSDL carries, not by its wire name (`very-high`): that value goes over SOAP only.
        let levels = Level::ALL
            .into_iter()
            .filter(|l| binding.is_soap() || *l != Level::VeryHigh);
        for v in levels {
            echo(checks, binding, "EchoLevel", v, async {
                c.echo_level(&EchoLevel { value: v })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }
        // No zone and UTC come back as sent; an offset is converted to the host's zone,
        // which rmm does not (README): not sent here.
        let reading = NaiveDate::from_ymd_opt(9999, 12, 31)
            .unwrap()
            .and_hms_nano_opt(23, 59, 59, 999_999_900)
            .unwrap();
        for v in [DateTime::unspecified(reading), DateTime::utc(reading)] {
            // Over HTTP GET/POST the host reads with DateTime.Parse, which turns a UTC reading
            // into its own zone's (UTC, start.sh), and answers it with that offset.
            let want = match v.kind {
                DateTimeKind::Utc if !binding.is_soap() => DateTime {
                    value: v.value,
                    kind: DateTimeKind::Offset(FixedOffset::east_opt(0).unwrap()),
                },
                _ => v,
            };
            echo(checks, binding, "EchoDateTime", want, async {
                c.echo_date_time(&EchoDateTime { value: v })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }
        // ASP.NET refuses a query string longer than 2,048 characters (maxQueryStringLength,
        // 400): 200 bytes as GET pairs stay within it; the other bindings carry all 256.
        let bytes: Vec<u8> = if binding == Binding::HttpGet {
            (0..200).collect()
        } else {
            (0..=255).collect()
        };
        echo(
            checks,
            binding,
            "EchoBase64Binary",
            Some(bytes.clone()),
            async {
                c.echo_base64_binary(&EchoBase64Binary {
                    value: Some(bytes.clone()),
                })
                .await
                .map(|r| r.result)
            },
        )
        .await;
        // Describe: fifteen values in one call; the host prints each as XmlConvert writes it,
        // which is how rmm prints a value (ParamValue's Display): the client's encoding of
        // every type, checked against the host's reading of it.
        let describe = Describe {
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
            k: "-1.50".parse().unwrap(),
            l: true,
            m: 'é',
            n: Level::High,
            o: Some("Acme & Sons".into()),
        };
        let printed: Vec<String> = describe
            .values(&Credentials::default())
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        let want = Some(format!("Describe({})", printed.join(";")));
        echo(checks, binding, "Describe", want, async {
            c.describe(&describe).await.map(|r| r.result)
        })
        .await;
        echo(checks, binding, "Ping", (), async {
            c.ping(&Ping {}).await.map(|r| r.result)
        })
        .await;
    }
    for binding in SOAP {
        let c = client.over(binding);
        let id = Uuid::from_u128(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210);
        echo(checks, binding, "EchoGuid", id, async {
            c.echo_guid(&EchoGuid { value: id }).await.map(|r| r.result)
        })
        .await;
        for v in [None, Some(i32::MIN)] {
            echo(checks, binding, "EchoNullableInt", v, async {
                c.echo_nullable_int(&EchoNullableInt { value: v })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }
        for v in [None, Some(-0.5)] {
            echo(checks, binding, "EchoNullableDouble", v, async {
                c.echo_nullable_double(&EchoNullableDouble { value: v })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }
        for v in [None, Some(Level::VeryHigh)] {
            echo(checks, binding, "EchoNullableLevel", v, async {
                c.echo_nullable_level(&EchoNullableLevel { value: v })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }
        for v in [None, Some(Vec::new())] {
            echo(
                checks,
                binding,
                "EchoBase64Binary (null, empty)",
                v.clone(),
                async {
                    c.echo_base64_binary(&EchoBase64Binary { value: v.clone() })
                        .await
                        .map(|r| r.result)
                },
            )
            .await;
        }
    }
}

/// The types service as rmm serves it: every echo returns its value, `Describe` prints its
/// values as the reference service does, `Ping` answers nothing.
struct TypesEcho;

macro_rules! echo_operations {
    ($($method:ident: $request:ident => $response:ident,)*) => {
        impl TypesService for TypesEcho {
            $(
                async fn $method(&self, _: Credentials, request: $request) -> Result<$response, Fault> {
                    Ok($response { result: request.value })
                }
            )*

            async fn ping(&self, _: Credentials, _: Ping) -> Result<PingResponse, Fault> {
                Ok(PingResponse { result: () })
            }

            async fn describe(&self, credentials: Credentials, request: Describe) -> Result<DescribeResponse, Fault> {
                let printed: Vec<String> = request
                    .values(&credentials)
                    .iter()
                    .map(|(name, value)| format!("{name}={value}"))
                    .collect();
                Ok(DescribeResponse { result: Some(format!("Describe({})", printed.join(";"))) })
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
    echo_base64_binary: EchoBase64Binary => EchoBase64BinaryResponse,
}

/// What a client acts on in an answer, `Date` and the server's own headers aside: the
/// status, the content type, the cache header and the body's bytes.
fn outcome(raw: &Raw) -> (u16, Option<String>, Option<String>, Vec<u8>) {
    (
        raw.status,
        raw.header("content-type").map(str::to_owned),
        raw.header("cache-control").map(str::to_owned),
        raw.body.clone(),
    )
}

/// The same request bytes to the host and to rmm's types server: the same answer.
pub(crate) async fn types_fidelity_section(checks: &mut Checks, mono: &Target) {
    checks.section("types service: the same request bytes to Mono and to ours");
    let listener = match tokio::net::TcpListener::bind("127.0.0.1:0").await {
        Ok(l) => l,
        Err(e) => {
            checks.check("types: our server starts", Err(e.to_string()));
            return;
        }
    };
    let ours = listener
        .local_addr()
        .expect("a bound listener has an address");
    tokio::spawn(TypesServiceServer::new(TypesEcho).serve(listener));
    let none = Credentials::default();
    let reading = NaiveDate::from_ymd_opt(2026, 1, 1)
        .unwrap()
        .and_hms_nano_opt(5, 30, 0, 120_000_000)
        .unwrap();
    for binding in Binding::ALL {
        let mut requests: Vec<(&str, Result<_, EncodeError>)> = vec![
            (
                "EchoString",
                EchoString {
                    value: Some("a & <b> \"c\" é".into()),
                }
                .encode_request(&none, binding),
            ),
            (
                "EchoString empty",
                EchoString {
                    value: Some(String::new()),
                }
                .encode_request(&none, binding),
            ),
            (
                "EchoBoolean",
                EchoBoolean { value: true }.encode_request(&none, binding),
            ),
            (
                "EchoDecimal",
                EchoDecimal {
                    value: "-79228162514264337593543950335".parse().unwrap(),
                }
                .encode_request(&none, binding),
            ),
            (
                "EchoInt",
                EchoInt { value: i32::MIN }.encode_request(&none, binding),
            ),
            (
                "EchoLong",
                EchoLong { value: i64::MAX }.encode_request(&none, binding),
            ),
            (
                "EchoShort",
                EchoShort { value: i16::MIN }.encode_request(&none, binding),
            ),
            (
                "EchoUnsignedByte",
                EchoUnsignedByte { value: u8::MAX }.encode_request(&none, binding),
            ),
            (
                "EchoByte",
                EchoByte { value: i8::MIN }.encode_request(&none, binding),
            ),
            (
                "EchoUnsignedShort",
                EchoUnsignedShort { value: u16::MAX }.encode_request(&none, binding),
            ),
            (
                "EchoUnsignedInt",
                EchoUnsignedInt { value: u32::MAX }.encode_request(&none, binding),
            ),
            (
                "EchoUnsignedLong",
                EchoUnsignedLong { value: u64::MAX }.encode_request(&none, binding),
            ),
            (
                "EchoFloat",
                EchoFloat { value: f32::MIN }.encode_request(&none, binding),
            ),
            (
                "EchoFloat 0.1",
                EchoFloat { value: 0.1 }.encode_request(&none, binding),
            ),
            (
                "EchoDouble",
                EchoDouble {
                    value: f64::from_bits(1),
                }
                .encode_request(&none, binding),
            ),
            (
                "EchoDouble INF",
                EchoDouble {
                    value: f64::INFINITY,
                }
                .encode_request(&none, binding),
            ),
            (
                "EchoChar",
                EchoChar { value: 'é' }.encode_request(&none, binding),
            ),
            (
                "EchoLevel",
                EchoLevel { value: Level::High }.encode_request(&none, binding),
            ),
            (
                "EchoDateTime",
                EchoDateTime {
                    value: DateTime::unspecified(reading),
                }
                .encode_request(&none, binding),
            ),
            (
                "EchoBase64Binary",
                EchoBase64Binary {
                    value: Some(vec![0, 1, 254, 255]),
                }
                .encode_request(&none, binding),
            ),
            ("Ping", Ping {}.encode_request(&none, binding)),
        ];
        if binding.is_soap() {
            // SOAP-only operations, and values GET/POST cannot carry.
            requests.extend([
                (
                    "EchoGuid",
                    EchoGuid {
                        value: Uuid::from_u128(u128::MAX / 3),
                    }
                    .encode_request(&none, binding),
                ),
                (
                    "EchoNullableInt null",
                    EchoNullableInt { value: None }.encode_request(&none, binding),
                ),
                (
                    "EchoNullableDouble",
                    EchoNullableDouble { value: Some(-0.0) }.encode_request(&none, binding),
                ),
                (
                    "EchoNullableLevel",
                    EchoNullableLevel {
                        value: Some(Level::VeryHigh),
                    }
                    .encode_request(&none, binding),
                ),
                (
                    "EchoBase64Binary empty",
                    EchoBase64Binary {
                        value: Some(Vec::new()),
                    }
                    .encode_request(&none, binding),
                ),
                (
                    "EchoBase64Binary null",
                    EchoBase64Binary { value: None }.encode_request(&none, binding),
                ),
            ]);
        }
        for (name, request) in requests {
            let result = match request {
                Err(e) => Err(e.to_string()),
                Ok(request) => {
                    let bytes = raw_request(&request, RECORDED_HOST);
                    match (
                        exchange(mono.addr, &bytes).await,
                        exchange(ours, &bytes).await,
                    ) {
                        (Ok(m), Ok(o)) if outcome(&m) == outcome(&o) => Ok(()),
                        (Ok(m), Ok(o)) => Err(format!(
                            "Mono {} {:?} `{}`, ours {} {:?} `{}`",
                            m.status,
                            m.header("content-type"),
                            String::from_utf8_lossy(&m.body),
                            o.status,
                            o.header("content-type"),
                            String::from_utf8_lossy(&o.body)
                        )),
                        (m, o) => Err(format!("no answer: {:?} / {:?}", m.err(), o.err())),
                    }
                }
            };
            checks.check(&format!("types fidelity {name} over {binding}"), result);
        }
    }
}
