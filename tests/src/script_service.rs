//! The fifth reference service (`tests/interop/asmx/ScriptService.cs`, crate `rmm-script`):
//! ASMX's JSON face. rmm's implementation of it, and the JSON calls both servers are judged
//! on: each with the answer .NET Framework's `RestHandler` gives (which rmm's server must give
//! byte for byte, `tests/tests/script.rs`) and how the reference host, Mono, answers it
//! (`cargo xtask interop` sends each to the live host): the same, or differently for a
//! reason named here, where Mono departs from .NET Framework. And its recorded exchanges
//! (`tests/fixtures/script/asmx/`, written by `cargo xtask interop --record`): the request set
//! generated on every recording ([`generated_cases`]) and where rmm answers them otherwise on
//! purpose ([`DELIBERATE`]).

use std::path::PathBuf;

use rmm_script::runtime::deps::bytes::Bytes;
use rmm_script::runtime::deps::chrono::{NaiveDate, NaiveDateTime};
use rmm_script::runtime::deps::http::Request;
use rmm_script::wire::OperationRequest;
use rmm_script::*;

/// `tests/fixtures/script/asmx` in the workspace.
pub fn exchanges_dir() -> PathBuf {
    crate::root().join("tests/fixtures/script/asmx")
}

/// rmm's implementation of the script service: each operation as ScriptService.cs has it.
#[derive(Debug, Clone, Copy, Default)]
pub struct ScriptEcho;

impl ScriptService for ScriptEcho {
    async fn add(&self, request: Add) -> Result<AddResponse, Fault> {
        // C#'s int addition wraps.
        Ok(AddResponse {
            result: request.a.wrapping_add(request.b),
        })
    }

    async fn echo(&self, request: Echo) -> Result<EchoResponse, Fault> {
        Ok(EchoResponse {
            result: request.value,
        })
    }

    async fn echo_boolean(&self, request: EchoBoolean) -> Result<EchoBooleanResponse, Fault> {
        Ok(EchoBooleanResponse {
            result: request.value,
        })
    }

    async fn echo_long(&self, request: EchoLong) -> Result<EchoLongResponse, Fault> {
        Ok(EchoLongResponse {
            result: request.value,
        })
    }

    async fn echo_double(&self, request: EchoDouble) -> Result<EchoDoubleResponse, Fault> {
        Ok(EchoDoubleResponse {
            result: request.value,
        })
    }

    async fn echo_decimal(&self, request: EchoDecimal) -> Result<EchoDecimalResponse, Fault> {
        Ok(EchoDecimalResponse {
            result: request.value,
        })
    }

    async fn echo_date_time(&self, request: EchoDateTime) -> Result<EchoDateTimeResponse, Fault> {
        Ok(EchoDateTimeResponse {
            result: request.value,
        })
    }

    async fn echo_guid(&self, request: EchoGuid) -> Result<EchoGuidResponse, Fault> {
        Ok(EchoGuidResponse {
            result: request.value,
        })
    }

    async fn echo_mood(&self, request: EchoMood) -> Result<EchoMoodResponse, Fault> {
        Ok(EchoMoodResponse {
            result: request.value,
        })
    }

    async fn echo_bytes(&self, request: EchoBytes) -> Result<EchoBytesResponse, Fault> {
        Ok(EchoBytesResponse {
            result: request.value,
        })
    }

    async fn echo_ints(&self, request: EchoInts) -> Result<EchoIntsResponse, Fault> {
        Ok(EchoIntsResponse {
            result: request.value,
        })
    }

    async fn echo_strings(&self, request: EchoStrings) -> Result<EchoStringsResponse, Fault> {
        Ok(EchoStringsResponse {
            result: request.value,
        })
    }

    async fn echo_point(&self, request: EchoPoint) -> Result<EchoPointResponse, Fault> {
        Ok(EchoPointResponse {
            result: request.value,
        })
    }

    async fn echo_points(&self, request: EchoPoints) -> Result<EchoPointsResponse, Fault> {
        Ok(EchoPointsResponse {
            result: request.value,
        })
    }

    async fn echo_shape(&self, request: EchoShape) -> Result<EchoShapeResponse, Fault> {
        Ok(EchoShapeResponse {
            result: request.value,
        })
    }

    async fn move_2(&self, request: Move) -> Result<MoveResponse, Fault> {
        // A null point throws in C# (NullReferenceException): the handler's error.
        let Some(mut p) = request.p else {
            return Err(Fault::server(
                "Object reference not set to an instance of an object.",
            ));
        };
        p.x = p.x.wrapping_add(request.dx);
        p.y = p.y.wrapping_add(request.dy);
        Ok(MoveResponse { result: Some(p) })
    }

    async fn greet(&self, request: Greet) -> Result<GreetResponse, Fault> {
        let name = request.name.unwrap_or_default();
        let greeting = (0..request.times.max(0))
            .map(|_| format!("Hello, {name}! "))
            .collect::<String>();
        Ok(GreetResponse {
            result: Some(greeting),
        })
    }

    async fn point_as_xml(&self, request: PointAsXml) -> Result<PointAsXmlResponse, Fault> {
        Ok(PointAsXmlResponse {
            result: Some(Point {
                x: request.x,
                y: request.y,
                name: Some("xml".into()),
                when: DateTime::default(),
            }),
        })
    }

    async fn count_as_xml(&self, request: CountAsXml) -> Result<CountAsXmlResponse, Fault> {
        Ok(CountAsXmlResponse { result: request.n })
    }

    async fn text_as_xml(&self, request: TextAsXml) -> Result<TextAsXmlResponse, Fault> {
        Ok(TextAsXmlResponse {
            result: request.text,
        })
    }

    async fn points_as_xml(&self, request: PointsAsXml) -> Result<PointsAsXmlResponse, Fault> {
        let points = (0..request.n.max(0))
            .map(|i| {
                Some(Point {
                    x: i,
                    name: Some(format!("p<{i}>")),
                    ..Point::default()
                })
            })
            .collect();
        Ok(PointsAsXmlResponse {
            result: Some(points),
        })
    }

    async fn nothing(&self, _: Nothing) -> Result<NothingResponse, Fault> {
        Ok(NothingResponse::default())
    }

    async fn fail(&self, request: Fail) -> Result<FailResponse, Fault> {
        Err(Fault::server(request.message.unwrap_or_default()))
    }

    async fn visit(
        &self,
        request: Visit,
        session: &mut Session<Basket>,
    ) -> Result<VisitResponse, Fault> {
        session.visits += 1;
        if let Some(item) = request.item {
            session.items.get_or_insert_with(Vec::new).push(Some(item));
        }
        Ok(VisitResponse {
            result: session.visits,
        })
    }

    async fn contents(
        &self,
        _: Contents,
        session: &mut Session<Basket>,
    ) -> Result<ContentsResponse, Fault> {
        // Reads only: a new session stays unstored, as the host's `Session["Items"] ??
        // new string[0]` leaves it.
        Ok(ContentsResponse {
            result: Some(session.items.clone().unwrap_or_default()),
        })
    }

    async fn forget(
        &self,
        _: Forget,
        session: &mut Session<Basket>,
    ) -> Result<ForgetResponse, Fault> {
        session.abandon();
        Ok(ForgetResponse::default())
    }
}

/// How the reference host (Mono) answers a call beside .NET Framework.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mono {
    /// The same status and body, but for the `__type` hints .NET writes and the charset of
    /// the content type (`application/json; charset=utf-8` on .NET, `application/json` on
    /// Mono), which are compared apart.
    Same,
    /// Otherwise, for this reason.
    Differs(&'static str),
}

/// One JSON call to the script service and its answers.
#[derive(Debug, Clone, Copy)]
pub struct JsonCall {
    /// A short name.
    pub name: &'static str,
    /// `GET` or `POST`.
    pub method: &'static str,
    /// The path after the endpoint's (`Add`, `Greet?name=%22bob%22&times=2`).
    pub path: &'static str,
    /// The request's content type.
    pub content_type: &'static str,
    /// The body.
    pub body: &'static str,
    /// .NET Framework's (and rmm's) status.
    pub status: u16,
    /// .NET Framework's (and rmm's) body with custom errors on, as ASP.NET has them for a
    /// remote caller; `None` for a page of ASP.NET's own (an HTML error page).
    pub answer: Option<&'static str>,
    /// How Mono answers.
    pub mono: Mono,
    /// Whether .NET's answer is XML (`text/xml; charset=utf-8`, an operation marked
    /// `ResponseFormat.Xml`), else JSON.
    pub xml: bool,
}

/// The body of every error with custom errors on.
pub const HIDDEN: &str = r#"{"Message":"There was an error processing the request.","StackTrace":"","ExceptionType":""}"#;

const JSON: &str = "application/json; charset=utf-8";

const fn call(
    name: &'static str,
    path: &'static str,
    body: &'static str,
    answer: &'static str,
) -> JsonCall {
    JsonCall {
        name,
        method: "POST",
        path,
        content_type: JSON,
        body,
        status: 200,
        answer: Some(answer),
        mono: Mono::Same,
        xml: false,
    }
}

const fn refused(
    name: &'static str,
    path: &'static str,
    body: &'static str,
    mono: Mono,
) -> JsonCall {
    JsonCall {
        name,
        method: "POST",
        path,
        content_type: JSON,
        body,
        status: 500,
        answer: Some(HIDDEN),
        mono,
        xml: false,
    }
}

/// Mono reads past what .NET Framework refuses and answers 200.
pub const MONO_LENIENT: &str = "Mono's JSON reader and converter take what .NET Framework's \
                            refuse (a missing parameter as its default, a truncated object, \
                            5.0 as an int, a number no enum member has): .NET answers its \
                            JSON error";
/// Mono answers its HTML error page where .NET writes the JSON error.
pub const MONO_HTML: &str = "Mono answers a JSON call it cannot read with ASP.NET's HTML error \
                         page; .NET Framework's RestHandler answers its JSON error \
                         (jsonerror: true)";
/// Mono writes the exception's detail whatever customErrors says.
pub const MONO_DETAIL: &str = "Mono writes the handler's exception (message, stack trace, type) \
                           whatever customErrors says; .NET Framework hides it with custom \
                           errors on, as the host is configured";

/// Mono wraps a string answered in XML in JSON.
const MONO_XML_STRING: &str = "a string result of an operation answering in XML \
                               (ResponseFormat.Xml): .NET Framework writes the string as it is \
                               (a null one throws: its JSON error); Mono writes {\"d\":…} in \
                               text/xml";

/// Mono reads a GET string's text as it is.
pub const MONO_GET: &str =
    "a GET value is a JSON value on .NET Framework (a string in quotes, a bare \
                        word an invalid primitive); Mono takes a string parameter's text as it \
                        is, quotes and all";

/// Every JSON call the two servers are judged on.
pub const CALLS: &[JsonCall] = &[
    call("add", "Add", r#"{"a":2,"b":3}"#, r#"{"d":5}"#),
    call("add-lenient-syntax", "Add", "{'a':2, b:3}", r#"{"d":5}"#),
    call("add-strings", "Add", r#"{"a":"2","b":" 3 "}"#, r#"{"d":5}"#),
    call("add-exponent", "Add", r#"{"a":1e1,"b":3}"#, r#"{"d":13}"#),
    call(
        "add-extra-member",
        "Add",
        r#"{"a":2,"b":3,"c":4}"#,
        r#"{"d":5}"#,
    ),
    call(
        "add-repeated-member",
        "Add",
        r#"{"a":1,"a":2,"b":3}"#,
        r#"{"d":5}"#,
    ),
    call(
        "echo-escapes",
        "Echo",
        r#"{"value":"a\"b\\c/d<e>'\u0001é\t"}"#,
        r#"{"d":"a\"b\\c/d\u003ce\u003e\u0027\u0001é\t"}"#,
    ),
    JsonCall {
        mono: Mono::Differs(
            "JavaScriptStringEncode escapes & (and U+2028, U+2029, U+0085) on .NET Framework \
             4.5 and later; Mono writes them as they are",
        ),
        ..call(
            "echo-ampersand",
            "Echo",
            r#"{"value":"a&b\u2028"}"#,
            r#"{"d":"a\u0026b\u2028"}"#,
        )
    },
    call("echo-null", "Echo", r#"{"value":null}"#, r#"{"d":null}"#),
    call(
        "echo-number-as-string",
        "Echo",
        r#"{"value":5}"#,
        r#"{"d":"5"}"#,
    ),
    call(
        "echo-boolean-as-string",
        "Echo",
        r#"{"value":true}"#,
        r#"{"d":"True"}"#,
    ),
    call(
        "echo-decimal-as-string",
        "Echo",
        r#"{"value":1.50}"#,
        r#"{"d":"1.50"}"#,
    ),
    call(
        "echo-boolean-text",
        "EchoBoolean",
        r#"{"value":"true"}"#,
        r#"{"d":true}"#,
    ),
    call(
        "echo-long-max",
        "EchoLong",
        r#"{"value":9223372036854775807}"#,
        r#"{"d":9223372036854775807}"#,
    ),
    call(
        "echo-double",
        "EchoDouble",
        r#"{"value":0.1}"#,
        r#"{"d":0.1}"#,
    ),
    call(
        "echo-double-large",
        "EchoDouble",
        r#"{"value":1e300}"#,
        r#"{"d":1E+300}"#,
    ),
    call(
        "echo-double-nan",
        "EchoDouble",
        r#"{"value":NaN}"#,
        r#"{"d":NaN}"#,
    ),
    call(
        "echo-decimal-scale",
        "EchoDecimal",
        r#"{"value":1.50}"#,
        r#"{"d":1.50}"#,
    ),
    call(
        "echo-decimal-text",
        "EchoDecimal",
        r#"{"value":"1.50"}"#,
        r#"{"d":1.50}"#,
    ),
    call(
        "echo-date",
        "EchoDateTime",
        r#"{"value":"\/Date(1234567890123)\/"}"#,
        r#"{"d":"\/Date(1234567890123)\/"}"#,
    ),
    call(
        "echo-date-text",
        "EchoDateTime",
        r#"{"value":"2020-01-02T03:04:05"}"#,
        r#"{"d":"\/Date(1577934245000)\/"}"#,
    ),
    call(
        "echo-guid",
        "EchoGuid",
        r#"{"value":"6F9619FF-8B86-D011-B42D-00C04FC964FF"}"#,
        r#"{"d":"6f9619ff-8b86-d011-b42d-00c04fc964ff"}"#,
    ),
    call("echo-mood", "EchoMood", r#"{"value":2}"#, r#"{"d":2}"#),
    call(
        "echo-mood-name",
        "EchoMood",
        r#"{"value":"Busy"}"#,
        r#"{"d":1}"#,
    ),
    call(
        "echo-bytes",
        "EchoBytes",
        r#"{"value":[1,2,255]}"#,
        r#"{"d":[1,2,255]}"#,
    ),
    call(
        "echo-ints",
        "EchoInts",
        r#"{"value":[1,"2",3]}"#,
        r#"{"d":[1,2,3]}"#,
    ),
    call(
        "echo-strings",
        "EchoStrings",
        r#"{"value":["a",null,"b"]}"#,
        r#"{"d":["a",null,"b"]}"#,
    ),
    call(
        "echo-point",
        "EchoPoint",
        r#"{"value":{"X":1,"Y":2,"Name":"n","When":"\/Date(0)\/"}}"#,
        r#"{"d":{"__type":"Rmm.Script.Point","X":1,"Y":2,"Name":"n","When":"\/Date(0)\/"}}"#,
    ),
    call(
        "move-members-any-case",
        "Move",
        r#"{"p":{"x":1,"y":2,"when":"\/Date(0)\/"},"dx":3,"dy":4}"#,
        r#"{"d":{"__type":"Rmm.Script.Point","X":4,"Y":6,"Name":null,"When":"\/Date(0)\/"}}"#,
    ),
    JsonCall {
        mono: Mono::Differs(
            "a DateTime of year 1 (a member absent from the call): .NET Framework writes its \
             milliseconds since 1970 (-62135596800000 in UTC); Mono clamps it to \
             -59011459200000",
        ),
        ..call(
            "echo-points-default-date",
            "EchoPoints",
            r#"{"value":[{"X":1},null]}"#,
            r#"{"d":[{"__type":"Rmm.Script.Point","X":1,"Y":0,"Name":null,"When":"\/Date(-62135596800000)\/"},null]}"#,
        )
    },
    call(
        "echo-shape",
        "EchoShape",
        r#"{"value":{"Label":"s"}}"#,
        r#"{"d":{"__type":"Rmm.Script.Shape","Label":"s"}}"#,
    ),
    refused(
        "echo-shape-unknown-hint",
        "EchoShape",
        r#"{"value":{"__type":"Rmm.Script.Circle","Label":"c","Radius":1.5}}"#,
        Mono::Differs(
            "a __type naming a class that is no client type of the service (Circle is in no \
             signature): .NET Framework's resolver refuses it; Mono reads no hints and \
             answers the Shape",
        ),
    ),
    JsonCall {
        xml: true,
        ..call(
            "point-as-xml",
            "PointAsXml",
            r#"{"x":1,"y":2}"#,
            r#"<?xml version="1.0" encoding="utf-8"?><Point xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><X>1</X><Y>2</Y><Name>xml</Name><When>0001-01-01T00:00:00</When></Point>"#,
        )
    },
    JsonCall {
        xml: true,
        ..call(
            "count-as-xml",
            "CountAsXml",
            r#"{"n":5}"#,
            r#"<?xml version="1.0" encoding="utf-8"?><int>5</int>"#,
        )
    },
    JsonCall {
        xml: true,
        ..call(
            "points-as-xml",
            "PointsAsXml",
            r#"{"n":2}"#,
            r#"<?xml version="1.0" encoding="utf-8"?><ArrayOfPoint xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><Point><X>0</X><Y>0</Y><Name>p&lt;0&gt;</Name><When>0001-01-01T00:00:00</When></Point><Point><X>1</X><Y>0</Y><Name>p&lt;1&gt;</Name><When>0001-01-01T00:00:00</When></Point></ArrayOfPoint>"#,
        )
    },
    JsonCall {
        xml: true,
        ..call(
            "points-as-xml-empty",
            "PointsAsXml",
            r#"{"n":0}"#,
            r#"<?xml version="1.0" encoding="utf-8"?><ArrayOfPoint xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" />"#,
        )
    },
    JsonCall {
        xml: true,
        mono: Mono::Differs(MONO_XML_STRING),
        ..call("text-as-xml", "TextAsXml", r#"{"text":"a<b>&c"}"#, "a<b>&c")
    },
    refused(
        "text-as-xml-null",
        "TextAsXml",
        r#"{"text":null}"#,
        Mono::Differs(MONO_XML_STRING),
    ),
    call("nothing", "Nothing", "{}", r#"{"d":null}"#),
    call("nothing-empty-body", "Nothing", "", r#"{"d":null}"#),
    JsonCall {
        method: "GET",
        mono: Mono::Differs(MONO_GET),
        ..call(
            "greet-get",
            "Greet?name=%22bob%22&times=2",
            "",
            r#"{"d":"Hello, bob! Hello, bob! "}"#,
        )
    },
    JsonCall {
        method: "GET",
        mono: Mono::Differs(MONO_GET),
        ..call(
            "greet-get-single-quotes",
            "Greet?name='bob'&times=%222%22",
            "",
            r#"{"d":"Hello, bob! Hello, bob! "}"#,
        )
    },
    JsonCall {
        method: "GET",
        mono: Mono::Differs(MONO_GET),
        ..refused(
            "greet-get-unquoted",
            "Greet?name=bob&times=2",
            "",
            Mono::Same,
        )
    },
    refused(
        "greet-post",
        "Greet",
        r#"{"name":"bob","times":1}"#,
        Mono::Differs(
            "an operation marked UseHttpGet called with POST: .NET Framework refuses the verb; \
             Mono does not check it",
        ),
    ),
    JsonCall {
        method: "GET",
        mono: Mono::Differs(
            "an operation without UseHttpGet called with GET: .NET Framework refuses the verb; \
             Mono does not check it",
        ),
        ..refused("add-get", "Add?a=1&b=2", "", Mono::Same)
    },
    refused(
        "fail",
        "Fail",
        r#"{"message":"boom"}"#,
        Mono::Differs(MONO_DETAIL),
    ),
    refused(
        "add-missing",
        "Add",
        r#"{"a":2}"#,
        Mono::Differs(MONO_LENIENT),
    ),
    refused(
        "add-truncated",
        "Add",
        r#"{"a":2,"b":"#,
        Mono::Differs(MONO_LENIENT),
    ),
    refused(
        "add-fraction",
        "Add",
        r#"{"a":5.0,"b":1}"#,
        Mono::Differs(MONO_LENIENT),
    ),
    refused(
        "echo-mood-undefined",
        "EchoMood",
        r#"{"value":7}"#,
        Mono::Differs(MONO_LENIENT),
    ),
    refused(
        "add-null",
        "Add",
        r#"{"a":null,"b":3}"#,
        Mono::Differs(MONO_LENIENT),
    ),
    refused("add-empty-body", "Add", "", Mono::Differs(MONO_HTML)),
    refused("add-array-body", "Add", "[1,2]", Mono::Differs(MONO_HTML)),
    refused(
        "add-overflow",
        "Add",
        r#"{"a":2147483648,"b":3}"#,
        Mono::Differs(MONO_HTML),
    ),
    refused(
        "echo-trailing-text",
        "Echo",
        r#"{"value":"x"}xyz"#,
        Mono::Differs(MONO_HTML),
    ),
    JsonCall {
        status: 500,
        answer: None,
        ..refused("unknown-method", "Unknown", r#"{"a":2}"#, Mono::Same)
    },
    JsonCall {
        mono: Mono::Differs(
            "a method name in another case: .NET Framework's method table ignores case; Mono's \
             does not (its HTML error page)",
        ),
        ..call("add-lower-case", "add", r#"{"a":2,"b":3}"#, r#"{"d":5}"#)
    },
    JsonCall {
        content_type: "APPLICATION/JSON",
        ..call(
            "add-content-type-case",
            "Add",
            r#"{"a":2,"b":3}"#,
            r#"{"d":5}"#,
        )
    },
];

/// Where our answer to a recorded exchange differs from the host's on purpose: (recorded
/// exchange, our status, why). `tests/tests/script_fidelity.rs` replays these through our
/// server and checks that they still differ. Not listed: what differs in every JSON answer
/// (the `__type` hints and the content type's charset, which
/// `rmm_tests::captures::json_answer_differences` reads apart).
pub const DELIBERATE: &[(&str, u16, &str)] = &[
    ("get-client-echo-date-time", 200, HTTP_ZULU),
    ("get-client-echo-date-time-early", 200, HTTP_ZULU),
    ("post-client-echo-date-time", 200, HTTP_ZULU),
    ("post-client-echo-date-time-early", 200, HTTP_ZULU),
    ("js", 200, PROXY),
    (
        "jsdebug",
        200,
        "the proxy is .NET Framework's text, Mono's its own (the same calls, compared apart); \
         .NET leaves the debug proxy uncached (private), Mono caches it (public)",
    ),
    ("json-client-echo-date-time-early", 200, EARLY_DATE),
    ("json-client-echo-points-default-date", 200, EARLY_DATE),
    ("json-client-echo-strings", 200, AMPERSAND),
    ("json-client-echo-text", 200, AMPERSAND),
    ("json-echo-ampersand", 200, AMPERSAND),
    ("json-client-greet", 200, MONO_GET),
    ("json-greet-get", 200, MONO_GET),
    ("json-greet-get-unquoted", 500, MONO_GET),
    (
        "json-greet-get-single-quotes",
        200,
        "a GET value is a JSON value on .NET Framework ('bob' a string, \"2\" the int 2); Mono \
         reads the text as it is, and \"2\" with its quotes is no int: its HTML error page",
    ),
    ("json-greet-get-missing", 500, MONO_LENIENT),
    ("json-add-fraction", 500, MONO_LENIENT),
    ("json-add-missing", 500, MONO_LENIENT),
    ("json-add-null", 500, MONO_LENIENT),
    ("json-add-truncated", 500, MONO_LENIENT),
    ("json-echo-mood-undefined", 500, MONO_LENIENT),
    ("json-add-array-body", 500, MONO_HTML),
    ("json-add-empty-body", 500, MONO_HTML),
    ("json-add-overflow", 500, MONO_HTML),
    ("json-add-trailing-comma", 500, MONO_HTML),
    ("json-add-wrong-type", 500, MONO_HTML),
    ("json-echo-trailing-text", 500, MONO_HTML),
    (
        "json-add-get",
        500,
        "an operation without UseHttpGet called with GET: .NET Framework refuses the verb; \
         Mono does not check it",
    ),
    (
        "json-greet-post",
        500,
        "an operation marked UseHttpGet called with POST: .NET Framework refuses the verb; \
         Mono does not check it",
    ),
    (
        "json-add-lower-case",
        200,
        "a method name in another case: .NET Framework's method table ignores case; Mono's \
         does not (its HTML error page)",
    ),
    (
        "json-echo-shape-unknown-hint",
        500,
        "a __type naming a class that is no client type of the service (Circle is in no \
         signature): .NET Framework's resolver refuses it; Mono reads no hints and answers the \
         Shape",
    ),
    ("json-text-as-xml", 200, MONO_XML_STRING),
    ("json-text-as-xml-null", 500, MONO_XML_STRING),
];

/// A UTC reading over HTTP GET/POST.
const HTTP_ZULU: &str = "Z over GET/POST is kept; the host reads it as its local time, written \
                         with its offset (the same instant)";

/// The JavaScript proxy.
const PROXY: &str = "the proxy is .NET Framework's text, Mono's its own (the same calls, \
                     compared apart)";

/// A date before the year 100 in JSON.
const EARLY_DATE: &str = "a date before the year 100 (the default, year 1, among them): .NET \
                          Framework writes its milliseconds since 1970; Mono clamps it to \
                          -59011459200000";

/// `&` in a JSON string.
const AMPERSAND: &str = "JavaScriptStringEncode escapes & (and U+2028, U+2029, U+0085) on .NET \
                         Framework 4.5 and later; Mono writes them as they are";

/// The methods a JavaScript proxy (`/js`, `/jsdebug`) invokes: `'Name',useGet,{arguments}` of
/// each, in order. What a page calls through the proxy, whoever wrote its text.
pub fn proxy_calls(proxy: &str) -> Vec<String> {
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

/// One request of the recorded set: its name (without the binding's prefix), what it is,
/// and the request as the generated client encodes it.
pub struct GeneratedCase {
    /// `echo-point`: the file is `{binding prefix}-client-{slug}.txt`.
    pub slug: &'static str,
    /// The operation called.
    pub operation: Operation,
    /// The call, as the generated client sends it.
    pub request: Request<Bytes>,
}

/// A clock reading of the recorded set.
fn reading(year: i32, month: u32, day: u32, millis: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(year, month, day)
        .and_then(|d| d.and_hms_milli_opt(23, 31, 30, millis))
        .expect("a date")
}

/// The generated part of the recorded set, for one binding: every operation the host offers
/// on it but the session ones (whose answers carry a new random `ASP.NET_SessionId` on every
/// recording), with sample values, as the generated client sends them. A null, which HTTP
/// GET/POST cannot carry, is sent over SOAP and JSON only; the SOAP-only operations (classes,
/// a guid) are also JSON's; those answering in XML (`ResponseFormat.Xml`) are not called over
/// JSON by the generated client.
pub fn generated_cases(binding: Binding) -> Vec<GeneratedCase> {
    let none = Credentials::default();
    let nulls = binding.is_soap() || binding == Binding::Json;
    let mut cases = Vec::new();
    let mut add = |slug: &'static str, call: &dyn Encode| {
        let operation = call.operation();
        if !operation.info().bindings.contains(&binding) {
            return;
        }
        let request = match call.encode(&none, binding) {
            Ok(request) => request,
            // The generated client does not call these over JSON; the written cases
            // `json-*-as-xml` do.
            Err(EncodeError::XmlAnswer { .. }) => return,
            Err(e) => panic!("{slug} over {binding}: {e}"),
        };
        cases.push(GeneratedCase {
            slug,
            operation,
            request,
        });
    };
    let when = DateTime::utc(reading(2009, 2, 13, 123));
    let point = Point {
        x: 1,
        y: -2,
        name: Some("p <1>".into()),
        when,
    };
    add("add", &Add { a: 2, b: 3 });
    add("add-wraps", &Add { a: i32::MAX, b: 1 });
    add(
        "echo",
        &Echo {
            value: Some("a\"b\\c/d<e>'é𝄞\t".into()),
        },
    );
    // Without `<`, which ASP.NET's request validation refuses in a GET/POST value.
    add(
        "echo-text",
        &Echo {
            value: Some("a \"b\" & é𝄞\t/ ß".into()),
        },
    );
    add(
        "echo-empty",
        &Echo {
            value: Some(String::new()),
        },
    );
    if nulls {
        add("echo-null", &Echo { value: None });
    }
    add("echo-boolean", &EchoBoolean { value: true });
    add("echo-long-max", &EchoLong { value: i64::MAX });
    add("echo-long-min", &EchoLong { value: i64::MIN });
    add("echo-double", &EchoDouble { value: 0.1 });
    add("echo-double-large", &EchoDouble { value: -1.5e300 });
    add(
        "echo-decimal",
        &EchoDecimal {
            value: Decimal::new(150, 2),
        },
    );
    add(
        "echo-decimal-max",
        &EchoDecimal {
            value: Decimal::MAX,
        },
    );
    add("echo-date-time", &EchoDateTime { value: when });
    add(
        "echo-date-time-unspecified",
        &EchoDateTime {
            value: DateTime::unspecified(reading(2020, 1, 2, 0)),
        },
    );
    add(
        "echo-date-time-early",
        &EchoDateTime {
            value: DateTime::utc(reading(50, 6, 1, 0)),
        },
    );
    add(
        "echo-guid",
        &EchoGuid {
            value: "6f9619ff-8b86-d011-b42d-00c04fc964ff"
                .parse()
                .expect("a guid"),
        },
    );
    add("echo-mood", &EchoMood { value: Mood::Angry });
    add(
        "echo-bytes",
        &EchoBytes {
            value: Some(vec![0, 1, 2, 255]),
        },
    );
    add(
        "echo-ints",
        &EchoInts {
            value: Some(vec![i32::MIN, 0, i32::MAX]),
        },
    );
    let strings =
        |values: &[Option<&str>]| Some(values.iter().map(|v| v.map(str::to_owned)).collect());
    add(
        "echo-strings",
        &EchoStrings {
            value: strings(&[Some("a"), Some(""), Some("x & y")]),
        },
    );
    if nulls {
        add("echo-ints-null", &EchoInts { value: None });
        add(
            "echo-strings-null-item",
            &EchoStrings {
                value: strings(&[Some("a"), None, Some("b")]),
            },
        );
    }
    add(
        "echo-point",
        &EchoPoint {
            value: Some(point.clone()),
        },
    );
    add("echo-point-null", &EchoPoint { value: None });
    add(
        "echo-points",
        &EchoPoints {
            value: Some(vec![Some(point.clone()), None]),
        },
    );
    add(
        "echo-points-default-date",
        &EchoPoints {
            value: Some(vec![Some(Point {
                x: 1,
                ..Point::default()
            })]),
        },
    );
    add(
        "echo-shape",
        &EchoShape {
            value: Some(AnyShape::Shape(Shape {
                label: Some("s".into()),
            })),
        },
    );
    add(
        "echo-shape-circle",
        &EchoShape {
            value: Some(AnyShape::Circle(Circle {
                label: Some("c".into()),
                radius: 1.5,
            })),
        },
    );
    add("echo-shape-null", &EchoShape { value: None });
    add(
        "move",
        &Move {
            p: Some(point),
            dx: 3,
            dy: 4,
        },
    );
    add(
        "greet",
        &Greet {
            name: Some("Ann".into()),
            times: 2,
        },
    );
    add("point-as-xml", &PointAsXml { x: 1, y: 2 });
    add("count-as-xml", &CountAsXml { n: 5 });
    add(
        "text-as-xml",
        &TextAsXml {
            text: Some("a<b>&c".into()),
        },
    );
    add("points-as-xml", &PointsAsXml { n: 2 });
    add("points-as-xml-empty", &PointsAsXml { n: 0 });
    add("nothing", &Nothing {});
    // An exception of the service's own: over JSON, Mono writes its stack trace whatever
    // customErrors says, naming the service's assembly by its module version id, which mcs
    // makes anew on every compile (every start of the host), so the answer would change with
    // each recording. .NET's answer to them over JSON is `tests/tests/script.rs`'s.
    if binding != Binding::Json {
        add(
            "fail",
            &Fail {
                message: Some("boom".into()),
            },
        );
        add(
            "move-null",
            &Move {
                p: None,
                dx: 3,
                dy: 4,
            },
        );
    }
    cases
}

/// A request of any operation, encoded as the generated client encodes it.
trait Encode {
    fn operation(&self) -> Operation;
    fn encode(&self, none: &Credentials, binding: Binding) -> Result<Request<Bytes>, EncodeError>;
}

impl<T: OperationRequest> Encode for T {
    fn operation(&self) -> Operation {
        T::OPERATION
    }

    fn encode(&self, none: &Credentials, binding: Binding) -> Result<Request<Bytes>, EncodeError> {
        self.encode_request(none, binding)
    }
}
