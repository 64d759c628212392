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

/// `body` without its `"__type":"…",` hints (which Mono does not write).
fn without_hints(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(at) = rest.find("\"__type\":\"") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "\"__type\":\"".len()..];
        let end = after.find('"').map_or(after.len(), |i| i + 1);
        rest = after[end..].strip_prefix(',').unwrap_or(&after[end..]);
    }
    out.push_str(rest);
    out
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

/// The methods a proxy invokes: `'Name',useGet,{arguments}` of each.
fn invoked(proxy: &str) -> Vec<String> {
    proxy
        .split("this._invoke(")
        .skip(1)
        .filter_map(|call| {
            let start = call.find('\'')?;
            let end = call.find("},")?;
            Some(call[start..=end].to_owned())
        })
        .collect()
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
    let host = invoked(&String::from_utf8_lossy(&theirs.body));
    let ours_invoked = invoked(&String::from_utf8_lossy(&mine.body));
    checks.check(
        "script proxy: the same methods, verbs and arguments",
        if !host.is_empty() && host == ours_invoked {
            Ok(())
        } else {
            Err(format!("the host's {host:?}, ours {ours_invoked:?}"))
        },
    );
}

/// A random JSON value of an echo operation's parameter: `(operation, body)`.
fn random_call(rng: &mut rand_chacha::ChaCha8Rng) -> (&'static str, String) {
    use rand::{Rng, RngCore};
    let text = |rng: &mut rand_chacha::ChaCha8Rng| {
        // ASCII with every escape JavaScriptStringEncode knows (but `&`, which Mono leaves),
        // Latin-1, the BMP and beyond; written as \u escapes half of the time.
        const PIECES: &[&str] = &[
            "a", "Z", "0", " ", "\"", "\\", "/", "<", ">", "'", "\u{1}", "\u{1f}", "\t", "\n",
            "\r", "\u{8}", "\u{c}", "é", "ß", "€", "中", "𝄞", "\u{7f}", "\u{a0}",
        ];
        let mut s = String::new();
        for _ in 0..rng.random_range(0..12) {
            s.push_str(PIECES[rng.random_range(0..PIECES.len())]);
        }
        s
    };
    match rng.random_range(0..7) {
        0 => {
            let value = text(rng);
            let mut out = rmm_script::runtime::json::JsonOut::new();
            out.string(&value);
            ("Echo", format!("{{\"value\":{}}}", out.as_str()))
        }
        1 => (
            "EchoLong",
            format!("{{\"value\":{}}}", rng.next_u64() as i64),
        ),
        2 => {
            // A double of any magnitude, in the round-trip form.
            let value = loop {
                let v = f64::from_bits(rng.next_u64());
                if v.is_finite() {
                    break v;
                }
            };
            let mut out = rmm_script::runtime::json::JsonOut::new();
            rmm_script::runtime::json::ToJson::write_json(&value, &mut out);
            ("EchoDouble", format!("{{\"value\":{}}}", out.as_str()))
        }
        3 => {
            let scale = rng.random_range(0..8);
            let mantissa = rng.random_range(-10_000_000_000i64..10_000_000_000);
            let value = Decimal::new(mantissa, scale);
            ("EchoDecimal", format!("{{\"value\":{value}}}"))
        }
        4 => {
            // 1970 ± about 3000 years, to the millisecond.
            let ms = rng.random_range(-62_000_000_000_000i64..190_000_000_000_000);
            (
                "EchoDateTime",
                format!("{{\"value\":\"\\/Date({ms})\\/\"}}"),
            )
        }
        5 => {
            let items: Vec<String> = (0..rng.random_range(0..6))
                .map(|_| (rng.next_u32() as i32).to_string())
                .collect();
            ("EchoInts", format!("{{\"value\":[{}]}}", items.join(",")))
        }
        _ => {
            let mut out = rmm_script::runtime::json::JsonOut::new();
            out.string(&text(rng));
            (
                "Move",
                format!(
                    "{{\"p\":{{\"X\":{},\"Y\":{},\"Name\":{},\"When\":\"\\/Date({})\\/\"}},\"dx\":{},\"dy\":{}}}",
                    rng.random_range(-1000..1000),
                    rng.random_range(-1000..1000),
                    out.as_str(),
                    rng.random_range(-1_000_000_000_000i64..1_000_000_000_000),
                    rng.random_range(-1000..1000),
                    rng.random_range(-1000..1000),
                ),
            )
        }
    }
}

/// `count` random echo calls (strings of every escape, doubles of any magnitude, decimals
/// of any scale, dates, arrays, a class), the same bytes to both servers: the same answers,
/// but for the `__type` hints .NET writes.
pub(crate) async fn script_random_section(
    checks: &mut Checks,
    mono: &Target,
    ours: &Target,
    count: usize,
) {
    use rand::SeedableRng;
    checks.section(&format!(
        "script: {count} random JSON calls, the host and ours"
    ));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(35);
    let mut differences = 0;
    let mut named: std::collections::BTreeMap<&'static str, usize> = Default::default();
    for i in 0..count {
        let (operation, body) = random_call(&mut rng);
        let path: &'static str = operation;
        let call = JsonCall {
            name: "random",
            method: "POST",
            path,
            content_type: "application/json; charset=utf-8",
            body: Box::leak(body.clone().into_boxed_str()),
            status: 200,
            answer: None,
            mono: Mono::Same,
            xml: false,
        };
        let request = raw(&call);
        let (theirs, mine) = match (
            exchange(mono.addr, &request).await,
            exchange(ours.addr, &request).await,
        ) {
            (Ok(theirs), Ok(mine)) => (theirs, mine),
            (Err(e), _) | (_, Err(e)) => {
                checks.check(&format!("script random call {i}"), Err(e));
                continue;
            }
        };
        let mine_body = String::from_utf8_lossy(&mine.body).into_owned();
        let theirs_body = String::from_utf8_lossy(&theirs.body).into_owned();
        let same = theirs.status == mine.status && without_hints(&mine_body) == theirs_body;
        if !same {
            if let Some(why) = named_difference(operation, &body, &theirs_body, &mine_body) {
                *named.entry(why).or_insert(0) += 1;
                continue;
            }
            differences += 1;
        }
        // The first few differences in full; the count in the check.
        if !same && differences <= 5 {
            println!(
                "     {operation} {body}\n       host {} {theirs_body}\n       ours {} {mine_body}",
                theirs.status, mine.status
            );
        }
    }
    for (why, n) in &named {
        println!("     {n} answered otherwise as named: {why}");
    }
    checks.check(
        &format!("script random calls: {count} the same, or otherwise as named"),
        if differences == 0 {
            Ok(())
        } else {
            Err(format!("{differences} of {count} answered otherwise"))
        },
    );
}

/// Where Mono answers a well-formed call otherwise than .NET Framework (and rmm): Mono's
/// reader, not .NET's.
fn named_difference(operation: &str, body: &str, theirs: &str, mine: &str) -> Option<&'static str> {
    // A class's DateTime member left out of the call: year 1, as .NET writes it.
    if theirs.contains("\\/Date(-59011459200000)\\/")
        && without_hints(mine) == theirs.replace("-59011459200000", "-62135596800000")
    {
        return Some(
            "a date before the year 100: Mono clamps it to its earliest JavaScript date; .NET \
             writes its milliseconds",
        );
    }
    let value = body.strip_prefix("{\"value\":")?.strip_suffix('}')?;
    let same_double = || {
        let sent = value.parse::<f64>().ok()?;
        let echoed = mine
            .strip_prefix("{\"d\":")?
            .strip_suffix('}')?
            .parse::<f64>()
            .ok()?;
        Some(sent == echoed)
    };
    match operation {
        // Ours echoes the very number sent (the shortest round-trip form of a double is read
        // back exactly, as .NET's Double.Parse reads it).
        "EchoDouble" if same_double() == Some(true) => Some(
            "a double in exponent form: Mono's JSON reader reads a small one (below about \
             1E-28) as 0 and others a digit off in the last place; .NET reads it exactly",
        ),
        "EchoDateTime" if theirs == "{\"d\":\"\\/Date(-59011459200000)\\/\"}" => Some(
            "a date before the year 100: Mono clamps it to its earliest JavaScript date; .NET \
             writes its milliseconds",
        ),
        _ => None,
    }
}

/// How one malformed call went: ours refused it with .NET's JSON error, or answered it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Malformed {
    /// Ours: .NET's JSON error (500, `jsonerror: true`, the custom errors body); the host a
    /// 500 too.
    BothRefuse,
    /// Ours: the JSON error; the host answered 200, reading what .NET refuses (named).
    HostLenient,
    /// Ours: the JSON error; the host its HTML error page (named).
    HostHtml,
    /// Both answered the same (a mutation that left the call valid, or another binding's
    /// answer: a wrong content type makes it an HTTP POST call).
    Same,
    /// Otherwise, for a reason the random section names (a double's reading, an early date).
    Named,
    /// Another content type than JSON's makes it an HTTP POST call, refused by both with a
    /// `500 text/plain` error (the host's text often unformatted, `{0}`): status and type
    /// compared here; the HTTP POST face is judged by the fidelity sections.
    PostError,
    /// Past 102,400 characters: .NET Framework refuses the call (`maxJsonLength` of
    /// `RestHandler`'s reader); Mono reads it.
    HostNoLengthLimit,
    /// `charset=iso-8859-1`: .NET Framework's RestHandler reads a JSON body as UTF-8 whatever
    /// the charset (a `StreamReader`'s default); Mono decodes it by the charset.
    HostCharset,
    /// `application/jsonp`: Mono takes any content type beginning `application/json` as
    /// JSON; .NET Framework's `IsRestMethodCall` takes `application/json` alone or followed by
    /// `;`, so the call is an HTTP POST call (refused).
    HostTakesJsonp,
}

/// A random mutation of a valid JSON call: `(what, operation, content type, body)`.
fn malformed_call(
    rng: &mut rand_chacha::ChaCha8Rng,
) -> (&'static str, &'static str, &'static str, String) {
    use rand::Rng;
    const JSON: &str = "application/json; charset=utf-8";
    let (operation, body) = random_call(rng);
    let mut bytes = body.into_bytes();
    let at = |rng: &mut rand_chacha::ChaCha8Rng, len: usize| rng.random_range(0..=len);
    let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
    match rng.random_range(0..6) {
        0 => {
            let cut = at(rng, bytes.len().saturating_sub(1));
            bytes.truncate(cut);
            ("truncated", operation, JSON, text(bytes))
        }
        1 if !bytes.is_empty() => {
            let i = rng.random_range(0..bytes.len());
            bytes.remove(i);
            ("a byte deleted", operation, JSON, text(bytes))
        }
        2 => {
            const NOISE: &[u8] = b"{}[]\":,'\\ x0-.eE/";
            let i = at(rng, bytes.len());
            bytes.insert(i, NOISE[rng.random_range(0..NOISE.len())]);
            ("a byte inserted", operation, JSON, text(bytes))
        }
        3 => {
            const TYPES: &[&str] = &[
                "text/plain",
                "application/x-www-form-urlencoded",
                "application/jsonp",
                "text/json",
                "application/json; charset=iso-8859-1",
            ];
            let content_type = TYPES[rng.random_range(0..TYPES.len())];
            ("another content type", operation, content_type, text(bytes))
        }
        4 => {
            // Nesting about .NET's limit of 100 levels.
            let depth = [98usize, 99, 100, 101, 150][rng.random_range(0..5)];
            let body = format!("{{\"value\":{}1{}}}", "[".repeat(depth), "]".repeat(depth));
            ("deep", "EchoInts", JSON, body)
        }
        _ => {
            // About .NET's maxJsonLength (102,400 characters of the whole request).
            let len = [102_380usize, 102_388, 102_389, 110_000][rng.random_range(0..4)];
            let body = format!("{{\"value\":\"{}\"}}", "x".repeat(len));
            ("huge", "Echo", JSON, body)
        }
    }
}

/// `count` malformed JSON calls (truncated, a byte deleted or inserted, another content type,
/// nested about .NET's depth limit, about its length limit), the same bytes to both servers.
/// Ours must answer each with .NET's JSON error or as the host answers; the host may read what
/// .NET refuses (Mono's lenient reader) or answer its HTML page, as named. And ours goes on
/// serving.
pub(crate) async fn script_malformed_section(
    checks: &mut Checks,
    mono: &Target,
    ours: &Target,
    count: usize,
) {
    use rand::SeedableRng;
    use rmm_tests::script_service::{HIDDEN, MONO_HTML, MONO_LENIENT};
    checks.section(&format!(
        "script: {count} malformed JSON calls, the host and ours"
    ));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3535);
    let mut seen: std::collections::BTreeMap<(&'static str, Malformed), usize> = Default::default();
    let mut unexplained = 0;
    for i in 0..count {
        let (what, operation, content_type, body) = malformed_call(&mut rng);
        let call = JsonCall {
            name: "malformed",
            method: "POST",
            path: operation,
            content_type,
            body: Box::leak(body.clone().into_boxed_str()),
            status: 500,
            answer: None,
            mono: Mono::Same,
            xml: false,
        };
        let request = raw(&call);
        let (theirs, mine) = match (
            exchange(mono.addr, &request).await,
            exchange(ours.addr, &request).await,
        ) {
            (Ok(theirs), Ok(mine)) => (theirs, mine),
            (Err(e), _) | (_, Err(e)) => {
                checks.check(&format!("script malformed call {i}"), Err(e));
                continue;
            }
        };
        let mine_body = String::from_utf8_lossy(&mine.body).into_owned();
        let theirs_body = String::from_utf8_lossy(&theirs.body).into_owned();
        let json_error =
            mine.status == 500 && mine.header("jsonerror") == Some("true") && mine_body == HIDDEN;
        let host_html = theirs
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/html"));
        let verdict = if what == "huge" && json_error && theirs.status == 200 {
            Some(Malformed::HostNoLengthLimit)
        } else if json_error && theirs.status == 500 && !host_html {
            Some(Malformed::BothRefuse)
        } else if json_error && theirs.status == 200 {
            Some(Malformed::HostLenient)
        } else if json_error && host_html {
            Some(Malformed::HostHtml)
        } else if theirs.status == mine.status && without_hints(&mine_body) == theirs_body {
            Some(Malformed::Same)
        } else if theirs.status == 200
            && mine.status == 200
            && named_difference(operation, &body, &theirs_body, &mine_body).is_some()
        {
            Some(Malformed::Named)
        } else if !content_type.starts_with("application/json")
            && theirs.status == 500
            && mine.status == 500
            && theirs.header("content-type") == mine.header("content-type")
            && mine
                .header("content-type")
                .is_some_and(|t| t.starts_with("text/plain"))
        {
            Some(Malformed::PostError)
        } else if content_type == "application/jsonp" && mine.status == 500 && !json_error {
            Some(Malformed::HostTakesJsonp)
        } else if content_type.contains("iso-8859-1")
            && theirs.status == 200
            && mine.status == 200
            && !body.is_ascii()
        {
            Some(Malformed::HostCharset)
        } else {
            None
        };
        match verdict {
            Some(verdict) => *seen.entry((what, verdict)).or_insert(0) += 1,
            None => {
                unexplained += 1;
                if unexplained <= 5 {
                    let cut = |s: &str| s.chars().take(200).collect::<String>();
                    println!(
                        "     {what} {operation} ({content_type}) {}\n       host {} {}\n       ours {} {}",
                        cut(&body),
                        theirs.status,
                        cut(&theirs_body),
                        mine.status,
                        cut(&mine_body)
                    );
                }
            }
        }
    }
    for ((what, verdict), n) in &seen {
        let why = match verdict {
            Malformed::HostLenient => format!(": {MONO_LENIENT}"),
            Malformed::HostHtml => format!(": {MONO_HTML}"),
            Malformed::PostError => ": an HTTP POST call refused by both, 500 text/plain (the fidelity sections judge that face)".to_owned(),
            Malformed::HostNoLengthLimit => ": .NET Framework refuses a JSON call of more than 102,400 characters; Mono reads it".to_owned(),
            Malformed::HostCharset => ": a JSON body is UTF-8 to .NET Framework's RestHandler whatever its charset; Mono decodes it by the charset".to_owned(),
            Malformed::HostTakesJsonp => ": Mono takes application/jsonp as JSON; .NET Framework's IsRestMethodCall does not".to_owned(),
            _ => String::new(),
        };
        println!("     {what}: {n} {verdict:?}{why}");
    }
    checks.check(
        &format!("script malformed calls: {count} refused with .NET's JSON error or answered as the host answers"),
        if unexplained == 0 {
            Ok(())
        } else {
            Err(format!("{unexplained} of {count} answered otherwise"))
        },
    );
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
    checks.check(
        "script malformed calls: ours serves on",
        expect(sum.map(|r| r.result), 5),
    );
}
