//! The second reference service, live (`tests/interop/asmx/TypesService.cs`): its `?WSDL`,
//! imported from the running host, gives `tests/types/rmm-spec.yaml`; the generated client
//! (`rmm-types`) calls every operation on every binding the host offers it on, with values at
//! the bounds of each type, and must get each value back exactly as the host echoes it.

use std::fmt::Debug;
use std::future::Future;
use std::time::Duration;

use rmm_codegen::spec;
use rmm_types::runtime::deps::chrono::{FixedOffset, NaiveDate};
use rmm_types::runtime::Date;
use rmm_types::*;

use rmm_tests::captures;
use rmm_tests::types_service;

use crate::compare::compare;
use crate::raw::{exchange, raw_capture_request};
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
    let client = TypesServiceClient::new(base).with_timeout(Some(Duration::from_secs(60)));
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
        // Over HTTP GET/POST the value travels as its .NET member name (`VeryHigh`), which
        // the spec names; over SOAP as its wire name (`very-high`).
        let levels = Level::ALL;
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
        // A date with a time of day: SOAP carries its date alone (the host writes midnight's
        // date back), HTTP GET/POST the whole reading (the host applies no DataType there).
        let dated = Date(DateTime::unspecified(
            NaiveDate::from_ymd_opt(2001, 2, 3)
                .unwrap()
                .and_hms_opt(4, 5, 6)
                .unwrap(),
        ));
        let want = if binding.is_soap() {
            Date::new(dated.date())
        } else {
            dated
        };
        echo(checks, binding, "EchoDate", want, async {
            c.echo_date(&EchoDate { value: dated })
                .await
                .map(|r| r.result)
        })
        .await;
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
        let describe = types_service::describe_sample();
        let want = Some(types_service::described(&describe, &Credentials::default()));
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

/// Every recorded exchange of the types service (`tests/fixtures/types/asmx/`), its
/// request sent byte for byte to the host and to rmm's server for it: the same answer, but
/// for the differences a rule explains (`compare`) and the deliberate ones, where ours must
/// give its own status and the host still its recorded one.
pub(crate) async fn types_fidelity_section(checks: &mut Checks, mono: &Target, ours: &Target) {
    checks.section("types service: every recorded request, to Mono and to ours");
    let ours = ours.addr;
    let dir = types_service::exchanges_dir();
    let mut recorded = captures::load_calls(&dir);
    for page in types_service::PAGES {
        recorded.push(captures::load_one_from(&dir, page));
    }
    checks.check(
        "types: the recorded exchanges are there",
        if recorded.len() >= 200 {
            Ok(())
        } else {
            Err(format!("only {} in {}", recorded.len(), dir.display()))
        },
    );
    for c in &recorded {
        let raw = raw_capture_request(c, RECORDED_HOST);
        let (m, o) = match (exchange(mono.addr, &raw).await, exchange(ours, &raw).await) {
            (Ok(m), Ok(o)) => (m, o),
            (m, o) => {
                let why = format!("no answer: {:?} / {:?}", m.err(), o.err());
                checks.check(&format!("types fidelity {}", c.name), Err(why));
                continue;
            }
        };
        let deliberate = types_service::DELIBERATE
            .iter()
            .find(|(name, _, _)| *name == c.name);
        let result = match deliberate {
            Some((_, want, why)) => {
                let recorded_status = captures::status(&c.response);
                if o.status != *want {
                    Err(format!(
                        "ours answered {}, want our deliberate {want} ({why})",
                        o.status
                    ))
                } else if m.status != recorded_status {
                    Err(format!(
                        "Mono answered {} live but {recorded_status} when recorded",
                        m.status
                    ))
                } else {
                    Ok(())
                }
            }
            None => {
                let verdict = compare(&m, &o);
                if verdict.unexplained.is_empty() {
                    Ok(())
                } else {
                    Err(verdict.unexplained.join("; "))
                }
            }
        };
        checks.check(&format!("types fidelity {}", c.name), result);
    }
}
