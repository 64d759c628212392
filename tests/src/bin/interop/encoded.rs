//! The fourth reference service, live (`tests/interop/asmx/EncodedService.cs`: SOAP
//! RPC/encoded): the generated client (`rmm-encoded`) calls every operation on every binding
//! the spec offers it on, against the host and against rmm's server for it
//! (`rmm_tests::encoded_service::EncodedEcho`), and must get each value back exactly; and
//! every recorded probe's request (`tests/fixtures/encoded/probes/`) goes to the host and to
//! rmm's server, whose live answers must be alike (as the replay test compares the recorded
//! ones), but for the deliberate differences, which must still differ.

use std::fmt::Debug;
use std::future::Future;
use std::time::Duration;

use rmm_encoded::runtime::deps::chrono::NaiveDate;
use rmm_encoded::*;
use rmm_mobile::runtime::deps::bytes::Bytes;
use rmm_mobile::runtime::deps::http;
use rmm_mobile::runtime::deps::tokio;

use rmm_tests::captures::{self, answer_differences, Message};
use rmm_tests::encoded_service::{call_probes, EncodedEcho, DELIBERATE};

use crate::raw::{exchange, raw_capture_request, Raw};
use crate::record::RECORDED_HOST;
use crate::{Checks, Target};

/// rmm's server for the encoded service (`rmm_tests::encoded_service::EncodedEcho`).
pub(crate) async fn start_ours() -> Result<Target, String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("cannot bind our encoded server: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(EncodedServiceServer::new(EncodedEcho).serve(listener));
    Ok(Target {
        label: "ours",
        base: format!("http://{addr}"),
        addr,
    })
}

/// One call's checks: where, and the client for its binding.
struct Calls<'a> {
    checks: &'a mut Checks,
    label: &'static str,
    binding: Binding,
}

impl Calls<'_> {
    fn name(&self, what: &str) -> String {
        format!("encoded {} {what} over {}", self.label, self.binding)
    }

    /// Checks that the call gives back `want`.
    async fn echo<T, F>(&mut self, what: &str, want: T, call: F)
    where
        T: PartialEq + Debug,
        F: Future<Output = Result<T, CallError>>,
    {
        let got = call.await;
        let name = self.name(what);
        self.checks.check(
            &name,
            match got {
                Ok(got) if got == want => Ok(()),
                Ok(got) => Err(format!("got {got:?}, want {want:?}")),
                Err(e) => Err(e.to_string()),
            },
        );
    }

    /// Checks that the call is answered with the service's "requested fault": a client
    /// fault over SOAP (`soap:Client`, `soap:Sender`), the error text over HTTP GET/POST.
    async fn fault<T, F>(&mut self, what: &str, call: F)
    where
        T: Debug,
        F: Future<Output = Result<T, CallError>>,
    {
        let got = call.await;
        let name = self.name(what);
        let result = match &got {
            Err(CallError::Response(ResponseError::Fault { fault, .. }))
                if self.binding.is_soap() =>
            {
                if fault.code == FaultCode::Client && fault.reason == "requested fault" {
                    Ok(())
                } else {
                    Err(format!(
                        "fault {:?} {:?}, want Client \"requested fault\"",
                        fault.code, fault.reason
                    ))
                }
            }
            Err(CallError::Response(ResponseError::ErrorBody { message, .. }))
                if !self.binding.is_soap() =>
            {
                if message == "requested fault" {
                    Ok(())
                } else {
                    Err(format!("error text {message:?}, want \"requested fault\""))
                }
            }
            other => Err(format!("got {other:?}, want the requested fault")),
        };
        self.checks.check(&name, result);
    }

    /// Checks that the call is refused by ASP.NET's request validation (HTTP GET/POST: a
    /// value with markup, `<c`), before the operation.
    async fn dangerous<T, F>(&mut self, what: &str, call: F)
    where
        T: Debug,
        F: Future<Output = Result<T, CallError>>,
    {
        let got = call.await;
        let name = self.name(what);
        self.checks.check(
            &name,
            match got {
                Err(CallError::Response(ResponseError::ErrorBody { message, .. }))
                    if message.starts_with("A potentially dangerous Request.") =>
                {
                    Ok(())
                }
                other => Err(format!("got {other:?}, want request validation's error")),
            },
        );
    }

    /// Checks that the client refuses to write the request (a null HTTP GET/POST cannot
    /// carry), without calling.
    async fn refused<T, F>(&mut self, what: &str, call: F)
    where
        T: Debug,
        F: Future<Output = Result<T, CallError>>,
    {
        let got = call.await;
        let name = self.name(what);
        self.checks.check(
            &name,
            match got {
                Err(CallError::Encode(_)) => Ok(()),
                other => Err(format!(
                    "got {other:?}, want the client's refusal to encode"
                )),
            },
        );
    }
}

fn s(text: &str) -> Option<String> {
    Some(text.to_owned())
}

fn point(x: i32, y: i32, name: Option<&str>) -> Point {
    Point {
        x,
        y,
        name: name.map(str::to_owned),
    }
}

/// `EchoSimple`'s request as the `Simple` it gives back.
fn simple_of(r: &EchoSimple) -> Simple {
    Simple {
        flag: r.flag,
        money: r.money,
        ratio: r.ratio,
        single: r.single,
        big: r.big,
        when: r.when,
        data: r.data.clone(),
        level: r.level,
        letter: r.letter,
        id: r.id,
    }
}

/// The requests of `EchoSimple`: every simple type, with its edges (decimals with trailing
/// zeros, DateTime with `Z` and without a zone, empty and absent byte arrays, the enum value
/// renamed on the wire, non-ASCII chars).
fn simple_requests() -> Vec<EchoSimple> {
    let date = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).expect("a date");
    vec![
        EchoSimple {
            flag: true,
            money: "12.500".parse().expect("a decimal"),
            ratio: 0.1,
            single: 1.5,
            big: 9_007_199_254_740_993,
            when: DateTime::utc(
                date(2024, 2, 29)
                    .and_hms_milli_opt(13, 45, 30, 125)
                    .expect("a time"),
            ),
            data: Some(vec![0, 1, 2, 0xfe, 0xff]),
            level: Level::Hi,
            letter: 'é',
            id: Uuid::from_u128(0x0f8f_ad5b_d9cb_469f_a165_7086_7728_950e),
        },
        EchoSimple {
            flag: false,
            money: "-79228162514264337593543950335".parse().expect("a decimal"),
            ratio: -1.7976931348623157e308,
            single: f32::MIN_POSITIVE,
            big: i64::MIN,
            when: DateTime::unspecified(
                date(9999, 12, 31)
                    .and_hms_nano_opt(23, 59, 59, 999_999_900)
                    .expect("a time"),
            ),
            data: Some(Vec::new()),
            level: Level::Low,
            letter: '€',
            id: Uuid::nil(),
        },
        EchoSimple {
            flag: true,
            money: "0.0100".parse().expect("a decimal"),
            ratio: 2.5e-300,
            single: -3.25,
            big: i64::MAX,
            when: DateTime::unspecified(date(2026, 1, 2).and_hms_opt(3, 4, 5).expect("a time")),
            data: None,
            level: Level::Hi,
            letter: 'A',
            id: Uuid::from_u128(u128::MAX),
        },
        EchoSimple {
            when: DateTime::utc(date(1, 1, 1).and_hms_opt(0, 0, 0).expect("a time")),
            letter: '\u{7f}',
            ..EchoSimple::default()
        },
    ]
}

/// The generated client against `target` (the host or ours): every operation on every
/// binding it is offered on, each answer exactly the echo of what was sent.
pub(crate) async fn encoded_section(checks: &mut Checks, target: &Target) {
    checks.section(&format!(
        "encoded service (SOAP RPC/encoded) on {}: every operation × binding",
        target.label
    ));
    let client =
        EncodedServiceClient::new(&target.base).with_timeout(Some(Duration::from_secs(60)));
    for binding in Binding::ALL {
        let c = client.over(binding);
        let soap = binding.is_soap();
        let mut k = Calls {
            checks: &mut *checks,
            label: target.label,
            binding,
        };

        // Add: adds, wrapping as C# does unchecked.
        for (a, b) in [(1, 2), (-5, 0), (i32::MAX, 1), (i32::MIN, -1), (0, 0)] {
            let want = a.wrapping_add(b);
            k.echo(&format!("Add({a}, {b})"), want, async {
                c.add(&Add { a, b }).await.map(|r| r.result)
            })
            .await;
        }

        // EchoString: text of every kind; a null over SOAP only; "FAULT" faults.
        for text in [
            s("hello"),
            s(""),
            s("zoë & <co> \"日本\" 'ünï' 😀"),
            s("  two  spaces\tand a tab  "),
            s("line one\nline two"),
            s("FAULT!"),
            None,
        ] {
            let what = format!("EchoString({text:?})");
            let request = EchoString { s: text.clone() };
            if text.is_none() && !soap {
                k.refused(&what, c.echo_string(&request)).await;
                continue;
            }
            // Markup over HTTP GET/POST: ASP.NET's request validation refuses it (ours too).
            if !soap && text.as_deref().is_some_and(|t| t.contains("<c")) {
                k.dangerous(&what, c.echo_string(&request)).await;
                continue;
            }
            k.echo(&what, text.clone(), async {
                c.echo_string(&request).await.map(|r| r.result)
            })
            .await;
        }
        k.fault("EchoString(\"FAULT\") faults", async {
            c.echo_string(&EchoString { s: s("FAULT") }).await
        })
        .await;

        // Ping: nothing back.
        k.echo("Ping", PingResponse::default(), async {
            c.ping(&Ping {}).await
        })
        .await;

        // EchoInts: arrays; empty and null ones over SOAP only (HTTP GET/POST cannot say
        // either: the client refuses them).
        for xs in [
            Some(vec![1, 2, 3]),
            Some(vec![i32::MIN, -1, 0, i32::MAX]),
            Some(vec![7]),
            Some(Vec::new()),
            None,
        ] {
            let what = format!("EchoInts({xs:?})");
            let request = EchoInts { xs: xs.clone() };
            if !soap && xs.as_ref().is_none_or(Vec::is_empty) {
                k.refused(&what, c.echo_ints(&request)).await;
                continue;
            }
            k.echo(&what, xs.clone(), async {
                c.echo_ints(&request).await.map(|r| r.result)
            })
            .await;
        }

        // EchoStrings: null and empty items, non-ASCII; null items, empty and null arrays
        // over SOAP only.
        for xs in [
            Some(vec![s("a"), s("b")]),
            Some(vec![s("ä ö"), s(""), s("日本 😀"), s("<&>")]),
            Some(vec![s("a"), None, s("")]),
            Some(vec![None]),
            Some(Vec::new()),
            None,
        ] {
            let what = format!("EchoStrings({xs:?})");
            let request = EchoStrings { xs: xs.clone() };
            let unsayable = xs
                .as_ref()
                .is_none_or(|v| v.is_empty() || v.iter().any(Option::is_none));
            if !soap && unsayable {
                k.refused(&what, c.echo_strings(&request)).await;
                continue;
            }
            k.echo(&what, xs.clone(), async {
                c.echo_strings(&request).await.map(|r| r.result)
            })
            .await;
        }

        if !soap {
            continue;
        }

        // EchoSimple: every simple type. Decimal's equality ignores trailing zeros, which
        // the host keeps: the scale is checked too.
        for request in simple_requests() {
            let want = simple_of(&request);
            let got = c.echo_simple(&request).await;
            let name = k.name(&format!("EchoSimple({want:?})"));
            k.checks.check(
                &name,
                match got {
                    Ok(EchoSimpleResponse { result: Some(got) })
                        if got == want && got.money.to_string() == want.money.to_string() =>
                    {
                        Ok(())
                    }
                    Ok(got) => Err(format!("got {got:?}, want {want:?}")),
                    Err(e) => Err(e.to_string()),
                },
            );
        }

        // EchoPoint: a point, a null name, non-ASCII, a null point; a point named "FAULT"
        // faults.
        let a = point(1, 2, Some("a"));
        let b = point(-3, i32::MAX, None);
        let c3 = point(i32::MIN, 0, Some("zoë & <日本>"));
        let empty_name = point(0, 0, Some(""));
        for p in [
            Some(a.clone()),
            Some(b.clone()),
            Some(c3.clone()),
            Some(empty_name.clone()),
            None,
        ] {
            k.echo(&format!("EchoPoint({p:?})"), p.clone(), async {
                c.echo_point(&EchoPoint { p: p.clone() })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }
        k.fault("EchoPoint(named \"FAULT\") faults", async {
            c.echo_point(&EchoPoint {
                p: Some(point(1, 1, Some("FAULT"))),
            })
            .await
        })
        .await;

        // EchoLine: both ends, one end, none, a null line, equal ends (two values alike).
        for l in [
            Some(Line {
                from: Some(a.clone()),
                to: Some(b.clone()),
            }),
            Some(Line {
                from: Some(c3.clone()),
                to: None,
            }),
            Some(Line {
                from: None,
                to: Some(a.clone()),
            }),
            Some(Line::default()),
            Some(Line {
                from: Some(a.clone()),
                to: Some(a.clone()),
            }),
            None,
        ] {
            k.echo(&format!("EchoLine({l:?})"), l.clone(), async {
                c.echo_line(&EchoLine { l: l.clone() })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }

        // SameEnds: a line whose two ends are the point (none for a null point).
        for p in [Some(a.clone()), Some(c3.clone()), None] {
            let want = Some(Line {
                from: p.clone(),
                to: p.clone(),
            });
            k.echo(&format!("SameEnds({p:?})"), want, async {
                c.same_ends(&SameEnds { p: p.clone() })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }

        // EchoPoints: null items, equal items, empty, null.
        for ps in [
            Some(vec![Some(a.clone()), Some(b.clone()), Some(c3.clone())]),
            Some(vec![Some(a.clone()), None, Some(b.clone()), None]),
            Some(vec![Some(a.clone()), Some(a.clone())]),
            Some(vec![None]),
            Some(Vec::new()),
            None,
        ] {
            k.echo(&format!("EchoPoints({ps:?})"), ps.clone(), async {
                c.echo_points(&EchoPoints { ps: ps.clone() })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }

        // EchoPoly: an array member with null items, empty, null; a null name.
        for p in [
            Some(Poly {
                name: s("tri & co"),
                points: Some(vec![Some(a.clone()), None, Some(c3.clone())]),
            }),
            Some(Poly {
                name: None,
                points: Some(Vec::new()),
            }),
            Some(Poly {
                name: s("none"),
                points: None,
            }),
            Some(Poly::default()),
            None,
        ] {
            k.echo(&format!("EchoPoly({p:?})"), p.clone(), async {
                c.echo_poly(&EchoPoly { p: p.clone() })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }

        // EchoLines: lines in an array, null items and ends, empty, null.
        for ls in [
            Some(vec![
                Some(Line {
                    from: Some(a.clone()),
                    to: Some(b.clone()),
                }),
                Some(Line {
                    from: Some(c3.clone()),
                    to: Some(empty_name.clone()),
                }),
            ]),
            Some(vec![
                Some(Line {
                    from: Some(a.clone()),
                    to: None,
                }),
                None,
                Some(Line::default()),
            ]),
            Some(Vec::new()),
            None,
        ] {
            k.echo(&format!("EchoLines({ls:?})"), ls.clone(), async {
                c.echo_lines(&EchoLines { ls: ls.clone() })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }

        // EchoShape: a shape, a circle (the derived class), nulls.
        for shape in [
            Some(AnyShape::Shape(Shape { name: s("square") })),
            Some(AnyShape::Shape(Shape { name: None })),
            Some(AnyShape::Circle(Circle {
                name: s("círculo"),
                radius: 2.5,
            })),
            Some(AnyShape::Circle(Circle {
                name: None,
                radius: -0.125,
            })),
            None,
        ] {
            k.echo(&format!("EchoShape({shape:?})"), shape.clone(), async {
                c.echo_shape(&EchoShape { s: shape.clone() })
                    .await
                    .map(|r| r.result)
            })
            .await;
        }

        // Split: the length in UTF-16 units (-1 for null), the first word out, count + 1
        // back (wrapping); "FAULT" faults.
        for (text, count, want) in [
            (s("ab cd"), 5, (5, s("ab"), 6)),
            (s("word"), -1, (4, s("word"), 0)),
            (s(""), 0, (0, s(""), 1)),
            (s(" lead"), 1, (5, s(""), 2)),
            (s("日本 語"), i32::MAX, (4, s("日本"), i32::MIN)),
            (s("😀 x"), 2, (4, s("😀"), 3)),
            (None, 0, (-1, None, 1)),
        ] {
            let (result, first, back) = want;
            let want = SplitResponse {
                result,
                first,
                count: back,
            };
            k.echo(&format!("Split({text:?}, {count})"), want, async {
                c.split(&Split {
                    s: text.clone(),
                    count,
                })
                .await
            })
            .await;
        }
        k.fault("Split(\"FAULT\") faults", async {
            c.split(&Split {
                s: s("FAULT"),
                count: 0,
            })
            .await
        })
        .await;

        // Renamed: the request and response namespaces and names of its attributes.
        for text in [s("v"), s(""), s("zoë & <co>"), None] {
            k.echo(&format!("Renamed({text:?})"), text.clone(), async {
                c.renamed(&Renamed {
                    renamed: text.clone(),
                })
                .await
                .map(|r| r.result)
            })
            .await;
        }
        k.fault("Renamed(\"FAULT\") faults", async {
            c.renamed(&Renamed {
                renamed: s("FAULT"),
            })
            .await
        })
        .await;
    }
    // The operations the spec offers over SOAP alone: the client does not send them over
    // HTTP GET/POST.
    for binding in [Binding::HttpGet, Binding::HttpPost] {
        let mut k = Calls {
            checks: &mut *checks,
            label: target.label,
            binding,
        };
        let c = client.over(binding);
        k.refused("EchoPoint (SOAP only)", async {
            c.echo_point(&EchoPoint {
                p: Some(point(1, 2, None)),
            })
            .await
        })
        .await;
    }
}

/// The response of a live exchange as a recorded message, for `answer_differences`.
fn as_message(raw: &Raw) -> Message {
    Message {
        start_line: format!("HTTP/1.1 {}", raw.status),
        headers: raw.headers.clone(),
        body: raw.body.clone(),
    }
}

/// The response of a live exchange as an `http` response, for `answer_differences`.
fn as_response(raw: &Raw) -> Result<http::Response<Bytes>, String> {
    let mut response = http::Response::builder().status(raw.status);
    for (name, value) in &raw.headers {
        response = response.header(name.as_str(), value.as_str());
    }
    response
        .body(Bytes::from(raw.body.clone()))
        .map_err(|e| format!("our answer is not HTTP: {e}"))
}

/// Every probe of the service's calls (`call_probes`), its request sent byte for byte to the
/// host and to rmm's server: the two live answers compared as the replay test compares the
/// recorded ones (`answer_differences`); the deliberate ones must still differ, ours with
/// its listed status, the host's with its recorded one.
pub(crate) async fn encoded_fidelity_section(checks: &mut Checks, mono: &Target, ours: &Target) {
    checks.section("encoded service: every probe, to Mono and to ours");
    let probes = call_probes();
    checks.check(
        "encoded: the probes are there",
        if probes.len() >= 150 {
            Ok(())
        } else {
            Err(format!("only {} probes", probes.len()))
        },
    );
    let mut deliberate_seen = 0;
    for c in &probes {
        let name = format!("encoded fidelity {}", c.name);
        let raw = raw_capture_request(c, RECORDED_HOST);
        let (m, o) = match (
            exchange(mono.addr, &raw).await,
            exchange(ours.addr, &raw).await,
        ) {
            (Ok(m), Ok(o)) => (m, o),
            (m, o) => {
                let why = format!("no answer: {:?} / {:?}", m.err(), o.err());
                checks.check(&name, Err(why));
                continue;
            }
        };
        let host = as_message(&m);
        // The recorded probe is what the host answers today: status, content type, body.
        let current = (
            captures::status(&host),
            host.header("content-type"),
            &host.body,
        ) == (
            captures::status(&c.response),
            c.response.header("content-type"),
            &c.response.body,
        );
        checks.check(
            &format!("encoded probe current {}", c.name),
            if current {
                Ok(())
            } else {
                Err(format!(
                    "Mono answers otherwise than recorded: {}",
                    String::from_utf8_lossy(&host.body)
                ))
            },
        );
        let problems = match as_response(&o) {
            Ok(o) => answer_differences(&host, &o),
            Err(e) => vec![e],
        };
        let result = match DELIBERATE.iter().find(|(n, _, _)| *n == c.name) {
            Some((_, want, why)) => {
                deliberate_seen += 1;
                let recorded = captures::status(&c.response);
                if o.status != *want {
                    Err(format!(
                        "ours answered {}, want our deliberate {want} ({why})",
                        o.status
                    ))
                } else if m.status != recorded {
                    Err(format!(
                        "Mono answered {} live but {recorded} when recorded",
                        m.status
                    ))
                } else if problems.is_empty() {
                    Err(format!(
                        "the answers are alike: the deliberate difference ({why}) is gone"
                    ))
                } else {
                    Ok(())
                }
            }
            None if problems.is_empty() => Ok(()),
            None => Err(format!(
                "{}\n    request: {}\n    ours: {}",
                problems.join("; "),
                String::from_utf8_lossy(&c.request.body),
                String::from_utf8_lossy(&o.body)
            )),
        };
        checks.check(&name, result);
    }
    checks.check(
        "encoded: every deliberate difference is among the probes",
        if deliberate_seen == DELIBERATE.len() {
            Ok(())
        } else {
            Err(format!(
                "{deliberate_seen} of the {} deliberate probes seen",
                DELIBERATE.len()
            ))
        },
    );
}
