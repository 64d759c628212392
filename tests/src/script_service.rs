//! The fifth reference service (`tests/interop/asmx/ScriptService.cs`, crate `rmm-script`):
//! ASMX's JSON face. rmm's implementation of it, and the JSON calls both servers are judged
//! on: each with the answer .NET Framework's `RestHandler` gives (which rmm's server must give
//! byte for byte, `tests/tests/script.rs`) and how the reference host, Mono, answers it
//! (`cargo xtask interop` sends each to the live host): the same, or differently for a
//! reason named here, where Mono departs from .NET Framework.

use rmm_script::*;

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
