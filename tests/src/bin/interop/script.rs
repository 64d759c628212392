//! The fifth reference service, live (`tests/interop/asmx/ScriptService.cs`, a
//! `[ScriptService]`): the generated client (`rmm-script`) calls operations over JSON on the
//! host and on rmm's server (`rmm_tests::script_service::ScriptEcho`) and gets each value
//! back; and every call of `rmm_tests::script_service::CALLS` goes, as the same bytes, to both:
//! the host answers as the case says Mono does (the same status and body, but for the
//! `__type` hints .NET writes and Mono does not, and the charset .NET adds to the content
//! type), or differently for the reason named there, where rmm follows .NET Framework.

use rmm_mobile::runtime::deps::tokio;
use rmm_script::runtime::deps::rust_decimal::Decimal;
use rmm_script::*;
use rmm_tests::captures::without_hints;
use rmm_tests::script_service::{JsonCall, Mono, ScriptEcho, CALLS};

use crate::raw::exchange;
use crate::{Checks, Target};

/// rmm's server for the script service.
pub(crate) async fn start_ours() -> Result<Target, String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("cannot bind our script server: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(ScriptServiceServer::new(ScriptEcho).serve(listener));
    Ok(Target {
        label: "ours",
        base: format!("http://{addr}"),
        addr,
    })
}

/// The generated client over JSON on `target`.
pub(crate) async fn script_section(checks: &mut Checks, target: &Target) {
    checks.section(&format!(
        "script: the generated client over JSON on {}",
        target.label
    ));
    let client = ScriptServiceClient::new(&target.base).with_binding(Binding::Json);
    let name = |what: &str| format!("script {} {what}", target.label);
    let sum = client.add(&Add { a: 2, b: 3 }).await;
    checks.check(&name("Add"), expect(sum.map(|r| r.result), 5));
    let text = "a\"b\\c/d<e>'\u{1}é𝄞\t";
    let echoed = client
        .echo(&Echo {
            value: Some(text.into()),
        })
        .await;
    checks.check(
        &name("Echo"),
        expect(echoed.map(|r| r.result), Some(text.to_owned())),
    );
    let scaled = Decimal::new(150, 2);
    let decimal = client.echo_decimal(&EchoDecimal { value: scaled }).await;
    checks.check(
        &name("EchoDecimal keeps the scale"),
        expect(decimal.map(|r| r.result.to_string()), "1.50".to_owned()),
    );
    let mood = client.echo_mood(&EchoMood { value: Mood::Angry }).await;
    checks.check(
        &name("EchoMood"),
        expect(mood.map(|r| r.result), Mood::Angry),
    );
    let ints = client
        .echo_ints(&EchoInts {
            value: Some(vec![i32::MIN, 0, i32::MAX]),
        })
        .await;
    checks.check(
        &name("EchoInts"),
        expect(ints.map(|r| r.result), Some(vec![i32::MIN, 0, i32::MAX])),
    );
    let point = Point {
        x: 1,
        y: -2,
        name: Some("p".into()),
        when: DateTime::utc(
            rmm_script::runtime::deps::chrono::DateTime::from_timestamp_millis(1_234_567_890_123)
                .unwrap()
                .naive_utc(),
        ),
    };
    let moved = client
        .move_2(&Move {
            p: Some(point.clone()),
            dx: 3,
            dy: 4,
        })
        .await;
    let want = Point {
        x: 4,
        y: 2,
        ..point
    };
    checks.check(&name("Move"), expect(moved.map(|r| r.result), Some(want)));
    // A GET value is JSON (`name="Ann"`): .NET reads the string Ann, Mono the text with its
    // quotes (the call `greet-get` of CALLS names the difference).
    let greeting = client
        .greet(&Greet {
            name: Some("Ann".into()),
            times: 2,
        })
        .await;
    let want = if target.label == "Mono" {
        "Hello, \"Ann\"! Hello, \"Ann\"! "
    } else {
        "Hello, Ann! Hello, Ann! "
    };
    checks.check(
        &name("Greet (GET)"),
        expect(greeting.map(|r| r.result), Some(want.to_owned())),
    );
    let nothing = client.nothing(&Nothing {}).await;
    checks.check(
        &name("Nothing"),
        nothing.map(|_| ()).map_err(|e| e.to_string()),
    );
    let failed = client
        .fail(&Fail {
            message: Some("boom".into()),
        })
        .await;
    checks.check(
        &name("Fail is the service's error"),
        match failed {
            Err(CallError::Response(ResponseError::ErrorBody { .. })) => Ok(()),
            other => Err(format!("{other:?}")),
        },
    );
}

/// Session state on `target`: the generated client keeps the cookie the server issues and
/// sends it over every binding; a session handed over goes on in another client; an abandoned
/// one is gone. The host's cookie is Mono's (24 upper-case hex digits, `path=/`, issued at a
/// new session's first call even when nothing is stored); ours is .NET Framework 4.8's
/// (24 of `a`–`z0`–`5`, `path=/; HttpOnly; SameSite=Lax`, issued when a new session is first
/// stored): the client takes either.
pub(crate) async fn session_section(checks: &mut Checks, target: &Target) {
    checks.section(&format!("script: session state on {}", target.label));
    let name = |what: &str| format!("session {} {what}", target.label);
    let client = ScriptServiceClient::new(&target.base).with_binding(Binding::Json);
    let visit = |item: &str| Visit {
        item: Some(item.to_owned()),
    };
    let first = client.visit(&visit("a")).await;
    checks.check(
        &name("Visit (JSON) begins a session"),
        expect(first.map(|r| r.result), 1),
    );
    checks.check(
        &name("the client holds the issued id"),
        client
            .session_id()
            .map(|_| ())
            .ok_or_else(|| "no id held".to_owned()),
    );
    for (n, binding) in [
        Binding::Soap11,
        Binding::Soap12,
        Binding::HttpGet,
        Binding::HttpPost,
    ]
    .into_iter()
    .enumerate()
    {
        let count = client.over(binding).visit(&visit(&format!("{n}"))).await;
        checks.check(
            &name(&format!("Visit over {binding:?} is the same session")),
            expect(count.map(|r| r.result), n as i32 + 2),
        );
    }
    let items = |list: &[&str]| {
        Some(
            list.iter()
                .map(|s| Some((*s).to_owned()))
                .collect::<Vec<_>>(),
        )
    };
    let handed = ScriptServiceClient::new(&target.base).with_session_id(client.session_id());
    let contents = handed.contents(&Contents {}).await;
    checks.check(
        &name("a session handed over goes on (SOAP)"),
        expect(
            contents.map(|r| r.result),
            items(&["a", "0", "1", "2", "3"]),
        ),
    );
    let forget = client.forget(&Forget {}).await;
    checks.check(
        &name("Forget"),
        forget.map(|_| ()).map_err(|e| e.to_string()),
    );
    let after = client.contents(&Contents {}).await;
    checks.check(
        &name("an abandoned session is gone"),
        expect(after.map(|r| r.result), items(&[])),
    );
    let again = client.visit(&visit("z")).await;
    checks.check(
        &name("the next Visit begins anew"),
        expect(again.map(|r| r.result), 1),
    );
}

fn expect<T: PartialEq + std::fmt::Debug>(
    got: Result<T, CallError>,
    want: T,
) -> Result<(), String> {
    match got {
        Ok(got) if got == want => Ok(()),
        Ok(got) => Err(format!("got {got:?}, want {want:?}")),
        Err(e) => Err(e.to_string()),
    }
}

/// The raw request of a call, to `Host: 127.0.0.1`.
fn raw(call: &JsonCall) -> Vec<u8> {
    let mut head = format!(
        "{} /api/rmm/ScriptService.asmx/{} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {}\r\n",
        call.method, call.path, call.content_type
    );
    if call.method == "POST" {
        head.push_str(&format!("Content-Length: {}\r\n", call.body.len()));
    }
    head.push_str("Connection: close\r\n\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(call.body.as_bytes());
    bytes
}

/// Every call to both servers.
pub(crate) async fn script_fidelity_section(checks: &mut Checks, mono: &Target, ours: &Target) {
    checks.section("script: JSON calls, the host and ours");
    for call in CALLS {
        let name = format!("script call {}", call.name);
        let request = raw(call);
        let (theirs, mine) = match (
            exchange(mono.addr, &request).await,
            exchange(ours.addr, &request).await,
        ) {
            (Ok(theirs), Ok(mine)) => (theirs, mine),
            (Err(e), _) | (_, Err(e)) => {
                checks.check(&name, Err(e));
                continue;
            }
        };
        let mine_body = String::from_utf8_lossy(&mine.body).into_owned();
        let theirs_body = String::from_utf8_lossy(&theirs.body).into_owned();
        // Ours is what .NET Framework answers, whatever Mono does.
        let ours_right = if mine.status != call.status {
            Err(format!(
                "ours answered {} ({mine_body}), want {}",
                mine.status, call.status
            ))
        } else if call.answer.is_some_and(|answer| answer != mine_body) {
            Err(format!(
                "ours answered {mine_body}, want {}",
                call.answer.unwrap_or_default()
            ))
        } else {
            Ok(())
        };
        if !checks.check(&format!("{name}: ours as .NET Framework"), ours_right) {
            continue;
        }
        let media = |raw: &crate::raw::Raw| {
            raw.header("content-type").map(|t| {
                t.split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase()
            })
        };
        let verdict = match call.mono {
            Mono::Same if theirs.status != mine.status => Err(format!(
                "the host answered {} ({theirs_body}), ours {}",
                theirs.status, mine.status
            )),
            Mono::Same if media(&theirs) != media(&mine) => Err(format!(
                "content types {:?} and {:?}",
                theirs.header("content-type"),
                mine.header("content-type")
            )),
            // ASP.NET's own pages (HTML) differ in their text, host to host.
            Mono::Same if call.answer.is_none() => Ok(()),
            Mono::Same if without_hints(&mine_body) != theirs_body => {
                Err(format!("the host answered {theirs_body}, ours {mine_body}"))
            }
            Mono::Same => Ok(()),
            // A named difference must still be one: the day Mono answers as .NET does, the
            // case moves to `Same`.
            Mono::Differs(why)
                if theirs.status == mine.status && without_hints(&mine_body) == theirs_body =>
            {
                Err(format!(
                    "named as a difference ({why}), but the host answers as ours"
                ))
            }
            Mono::Differs(_) => Ok(()),
        };
        checks.check(&format!("{name}: the host"), verdict);
    }
}

/// The JavaScript proxy (`/js`): Mono writes its own generator's text, not .NET Framework's
/// (which rmm writes, `tests/tests/script.rs`), so what is compared is what a page calls
/// through it: each method's name, verb and arguments, in order.
pub(crate) async fn script_proxy_section(checks: &mut Checks, mono: &Target, ours: &Target) {
    checks.section("script: the JavaScript proxy, the host and ours");
    let request = b"GET /api/rmm/ScriptService.asmx/js HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    let (theirs, mine) = match (
        exchange(mono.addr, request).await,
        exchange(ours.addr, request).await,
    ) {
        (Ok(theirs), Ok(mine)) => (theirs, mine),
        (Err(e), _) | (_, Err(e)) => {
            checks.check("script proxy", Err(e));
            return;
        }
    };
    for (label, raw) in [("the host", &theirs), ("ours", &mine)] {
        let media = raw.header("content-type").unwrap_or("");
        checks.check(
            &format!("script proxy of {label}: 200 application/x-javascript"),
            if raw.status == 200 && media.starts_with("application/x-javascript") {
                Ok(())
            } else {
                Err(format!("{} {media}", raw.status))
            },
        );
    }
    let host = rmm_tests::script_service::proxy_calls(&String::from_utf8_lossy(&theirs.body));
    let ours_invoked = rmm_tests::script_service::proxy_calls(&String::from_utf8_lossy(&mine.body));
    checks.check(
        "script proxy: the same methods, verbs and arguments",
        if !host.is_empty() && host == ours_invoked {
            Ok(())
        } else {
            Err(format!("the host's {host:?}, ours {ours_invoked:?}"))
        },
    );
}

/// Bodies in another encoding, as a .NET client's StreamWriter may send them, to the host and
/// to ours. (Random and malformed JSON calls are the difftest's: `cargo xtask difftest`.)
pub(crate) async fn script_encodings_section(checks: &mut Checks, mono: &Target, ours: &Target) {
    checks.section("script: bodies in UTF-16 and in bytes that are no UTF-8, the host and ours");
    // Bodies in another encoding, as a .NET client's StreamWriter may send them: UTF-16 with
    // its byte order mark, which RestHandler's StreamReader detects, and a byte that is no
    // UTF-8, which it reads as U+FFFD.
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in "{\"value\":\"é€𝄞\"}".encode_utf16() {
        utf16.extend(unit.to_le_bytes());
    }
    for (what, body, want) in [
        ("UTF-16 with its byte order mark", utf16, "{\"d\":\"é€𝄞\"}"),
        (
            "a byte that is no UTF-8",
            b"{\"value\":\"a\xFFb\"}".to_vec(),
            "{\"d\":\"a\u{FFFD}b\"}",
        ),
    ] {
        let mut request = format!(
            "POST /api/rmm/ScriptService.asmx/Echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .into_bytes();
        request.extend(&body);
        let verdict = match (
            exchange(mono.addr, &request).await,
            exchange(ours.addr, &request).await,
        ) {
            (Ok(theirs), Ok(mine)) => {
                let (theirs, mine) = (
                    String::from_utf8_lossy(&theirs.body).into_owned(),
                    String::from_utf8_lossy(&mine.body).into_owned(),
                );
                if mine == want && theirs == want {
                    Ok(())
                } else {
                    Err(format!("want {want}: the host {theirs}, ours {mine}"))
                }
            }
            (Err(e), _) | (_, Err(e)) => Err(e),
        };
        checks.check(
            &format!("script: a body in {what}, read as .NET reads it"),
            verdict,
        );
    }
    // And ours goes on serving.
    let client = ScriptServiceClient::new(&ours.base).with_binding(Binding::Json);
    let sum = client.add(&Add { a: 2, b: 3 }).await;
    checks.check("script: ours serves on", expect(sum.map(|r| r.result), 5));
}
