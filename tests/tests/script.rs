//! ASMX's JSON face on rmm's server for the script service (`tests/script`): every call of
//! `rmm_tests::script_service::CALLS` answered as .NET Framework's `RestHandler` answers it
//! (status, headers, body byte for byte), custom errors on and off; and the generated client
//! calling over JSON, POST and GET, every value back as it went.

use rmm_script::runtime::deps::bytes::Bytes;
use rmm_script::runtime::deps::http::{self, Request};
use rmm_script::runtime::deps::{tokio, uuid};
use rmm_script::runtime::server::ServerConfig;
use rmm_script::*;
use rmm_tests::script_service::{ScriptEcho, CALLS, HIDDEN};

const PATH: &str = "/api/rmm/ScriptService.asmx";

fn request(method: &str, path: &str, content_type: &str, body: &str) -> Request<Bytes> {
    Request::builder()
        .method(method)
        .uri(format!("{PATH}/{path}"))
        .header("content-type", content_type)
        .body(Bytes::from(body.to_owned()))
        .unwrap()
}

fn header<'a>(response: &'a http::Response<Bytes>, name: &str) -> Option<&'a str> {
    response.headers().get(name).map(|v| v.to_str().unwrap())
}

#[tokio::test]
async fn every_call_is_answered_as_dotnet_framework_answers_it() {
    let server = ScriptServiceServer::new(ScriptEcho);
    for call in CALLS {
        let response = server
            .handle(request(
                call.method,
                call.path,
                call.content_type,
                call.body,
            ))
            .await;
        let body = std::str::from_utf8(response.body()).unwrap();
        assert_eq!(
            response.status().as_u16(),
            call.status,
            "{}: {body}",
            call.name
        );
        match call.answer {
            Some(answer) => {
                assert_eq!(body, answer, "{}", call.name);
                let content_type = if call.xml {
                    "text/xml; charset=utf-8"
                } else {
                    "application/json; charset=utf-8"
                };
                assert_eq!(
                    header(&response, "content-type"),
                    Some(content_type),
                    "{}",
                    call.name
                );
                let (cache, error) = if call.status == 200 {
                    ("private, max-age=0", None)
                } else {
                    ("private", Some("true"))
                };
                assert_eq!(
                    header(&response, "cache-control"),
                    Some(cache),
                    "{}",
                    call.name
                );
                assert_eq!(header(&response, "jsonerror"), error, "{}", call.name);
            }
            // ASP.NET's own page: what fails before the JSON handler runs.
            None => assert_eq!(
                header(&response, "content-type"),
                Some("text/html"),
                "{}",
                call.name
            ),
        }
    }
}

#[tokio::test]
async fn with_custom_errors_off_an_error_names_its_cause_and_dotnet_exception() {
    let config = ServerConfig {
        custom_errors: false,
        ..ServerConfig::default()
    };
    let server = ScriptServiceServer::new(ScriptEcho).with_config(config);
    let cases = [
        (
            "Add",
            r#"{"a":2}"#,
            r#"{"Message":"Invalid web service call, missing value for parameter: \u0027b\u0027.","StackTrace":"","ExceptionType":"System.InvalidOperationException"}"#,
        ),
        (
            "Add",
            r#"{"a":5.0,"b":1}"#,
            r#"{"Message":"5.0 is not a valid value for Int32.","StackTrace":"","ExceptionType":"System.Exception"}"#,
        ),
        (
            "Add",
            r#"{"a":1,}"#,
            r#"{"Message":"Invalid JSON primitive: .","StackTrace":"","ExceptionType":"System.ArgumentException"}"#,
        ),
        (
            "Greet",
            r#"{"name":"x","times":1}"#,
            r#"{"Message":"An attempt was made to call the method \u0027Greet\u0027 using a POST request, which is not allowed.","StackTrace":"","ExceptionType":"System.InvalidOperationException"}"#,
        ),
        (
            "Fail",
            r#"{"message":"boom <b>"}"#,
            r#"{"Message":"boom \u003cb\u003e","StackTrace":"","ExceptionType":"System.Web.Services.Protocols.SoapException"}"#,
        ),
    ];
    for (op, body, want) in cases {
        let response = server
            .handle(request("POST", op, "application/json", body))
            .await;
        assert_eq!(response.status(), 500, "{op} {body}");
        assert_eq!(std::str::from_utf8(response.body()).unwrap(), want);
        assert_eq!(header(&response, "jsonerror"), Some("true"));
    }
    // Another verb than GET and POST: .NET's message names the verb it assumes.
    let put = server
        .handle(request(
            "PUT",
            "Add",
            "application/json",
            r#"{"a":1,"b":2}"#,
        ))
        .await;
    assert_eq!(
        std::str::from_utf8(put.body()).unwrap(),
        r#"{"Message":"An attempt was made to call the method \u0027Add\u0027 using a GET request, which is not allowed.","StackTrace":"","ExceptionType":"System.InvalidOperationException"}"#
    );
    let put = server
        .handle(request("PUT", "Greet", "application/json", ""))
        .await;
    assert!(std::str::from_utf8(put.body())
        .unwrap()
        .contains("using a POST request"));
    // On by default: every error alike.
    let hidden = ScriptServiceServer::new(ScriptEcho)
        .handle(request(
            "POST",
            "Fail",
            "application/json",
            r#"{"message":"boom"}"#,
        ))
        .await;
    assert_eq!(hidden.body().as_ref(), HIDDEN.as_bytes());
}

#[tokio::test]
async fn the_other_faces_stay_as_they_were() {
    let server = ScriptServiceServer::new(ScriptEcho);
    // HTTP POST's form and SOAP are still served; a form to a JSON-only content type is not
    // taken for JSON.
    let form = server
        .handle(request(
            "POST",
            "Add",
            "application/x-www-form-urlencoded",
            "a=2&b=3",
        ))
        .await;
    assert_eq!(form.status(), 200);
    assert!(std::str::from_utf8(form.body())
        .unwrap()
        .contains(">5</int>"));
    // `application/json ;x` is no JSON call to .NET (a space before the `;`): a POST of
    // another content type than the form's.
    let spaced = server
        .handle(request(
            "POST",
            "Add",
            "application/json ;x",
            r#"{"a":2,"b":3}"#,
        ))
        .await;
    assert_eq!(spaced.status(), 500);
    assert_eq!(
        header(&spaced, "content-type"),
        Some("text/plain; charset=utf-8")
    );
    // An operation without parameters reads none over HTTP POST, so a POST of any content
    // type calls it (.NET's HttpServerProtocol.ReadParameters has no reader for it): a void
    // result, 200 and no body, as the host answers. Found by the difftest.
    for content_type in ["text/plain", "application/json ;x", "application/xml"] {
        let nothing = server
            .handle(request("POST", "Nothing", content_type, "{}"))
            .await;
        assert_eq!(nothing.status(), 200, "{content_type}");
        assert!(nothing.body().is_empty(), "{content_type}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_generated_client_calls_over_json_and_gets_every_value_back() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(ScriptServiceServer::new(ScriptEcho).serve(listener));
    let client = ScriptServiceClient::new(&base).with_binding(Binding::Json);

    assert_eq!(client.add(&Add { a: 2, b: 3 }).await.unwrap().result, 5);
    let text = "a\"b\\c/d<e>&'\u{1}é\u{2028}𝄞\t";
    let echoed = client
        .echo(&Echo {
            value: Some(text.into()),
        })
        .await
        .unwrap();
    assert_eq!(echoed.result.as_deref(), Some(text));
    assert_eq!(
        client.echo(&Echo { value: None }).await.unwrap().result,
        None
    );
    assert_eq!(
        client
            .echo_long(&EchoLong { value: i64::MIN })
            .await
            .unwrap()
            .result,
        i64::MIN
    );
    for value in [0.1, -1.5e-300, f64::MAX, f64::INFINITY] {
        let got = client
            .echo_double(&EchoDouble { value })
            .await
            .unwrap()
            .result;
        assert_eq!(got, value);
    }
    let nan = client
        .echo_double(&EchoDouble { value: f64::NAN })
        .await
        .unwrap();
    assert!(nan.result.is_nan());
    let scaled = Decimal::new(150, 2);
    let got = client
        .echo_decimal(&EchoDecimal { value: scaled })
        .await
        .unwrap()
        .result;
    assert_eq!((got, got.scale()), (scaled, 2));
    let when = DateTime::utc(
        rmm_script::runtime::deps::chrono::NaiveDate::from_ymd_opt(2026, 11, 29)
            .unwrap()
            .and_hms_milli_opt(20, 55, 1, 234)
            .unwrap(),
    );
    let got = client
        .echo_date_time(&EchoDateTime { value: when })
        .await
        .unwrap()
        .result;
    assert_eq!(got, when);
    let guid = uuid::Uuid::from_u128(0x6f9619ff_8b86_d011_b42d_00c04fc964ff);
    assert_eq!(
        client
            .echo_guid(&EchoGuid { value: guid })
            .await
            .unwrap()
            .result,
        guid
    );
    assert_eq!(
        client
            .echo_mood(&EchoMood { value: Mood::Angry })
            .await
            .unwrap()
            .result,
        Mood::Angry
    );
    let bytes = vec![0, 1, 255];
    let got = client
        .echo_bytes(&EchoBytes {
            value: Some(bytes.clone()),
        })
        .await
        .unwrap();
    assert_eq!(got.result, Some(bytes));
    let strings = vec![Some("a".to_owned()), None, Some(String::new())];
    let got = client
        .echo_strings(&EchoStrings {
            value: Some(strings.clone()),
        })
        .await
        .unwrap();
    assert_eq!(got.result, Some(strings));
    let point = Point {
        x: -1,
        y: i32::MAX,
        name: Some("p".into()),
        when,
    };
    let got = client
        .echo_point(&EchoPoint {
            value: Some(point.clone()),
        })
        .await
        .unwrap();
    assert_eq!(got.result, Some(point.clone()));
    let points = vec![Some(point.clone()), None];
    let got = client
        .echo_points(&EchoPoints {
            value: Some(points.clone()),
        })
        .await
        .unwrap();
    assert_eq!(got.result, Some(points));
    let moved = client
        .move_2(&Move {
            p: Some(point.clone()),
            dx: 1,
            dy: 1,
        })
        .await
        .unwrap()
        .result
        .unwrap();
    assert_eq!((moved.x, moved.y), (0, i32::MIN));
    let shape = AnyShape::Shape(Shape {
        label: Some("s".into()),
    });
    let got = client
        .echo_shape(&EchoShape {
            value: Some(shape.clone()),
        })
        .await
        .unwrap();
    assert_eq!(got.result, Some(shape));
    // GET (UseHttpGet): each parameter a JSON value in the query.
    let greeting = client
        .greet(&Greet {
            name: Some("a&b=\"c\"".into()),
            times: 2,
        })
        .await
        .unwrap();
    assert_eq!(
        greeting.result.as_deref(),
        Some("Hello, a&b=\"c\"! Hello, a&b=\"c\"! ")
    );
    client.nothing(&Nothing {}).await.unwrap();
    // The handler's fault: the error body's message (hidden with custom errors on).
    let error = client
        .fail(&Fail {
            message: Some("boom".into()),
        })
        .await
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("There was an error processing the request."),
        "{error}"
    );
}

#[tokio::test]
async fn the_javascript_proxy_is_served_as_dotnet_writes_it() {
    let server = ScriptServiceServer::new(ScriptEcho);
    let get = |path: &str, since: Option<&str>| {
        let mut builder = Request::builder().uri(format!("{PATH}/{path}"));
        if let Some(since) = since {
            builder = builder.header("if-modified-since", since);
        }
        builder.body(Bytes::new()).unwrap()
    };
    let js = server.handle(get("js", None)).await;
    assert_eq!(js.status(), 200);
    assert_eq!(
        header(&js, "content-type"),
        Some("application/x-javascript; charset=utf-8")
    );
    assert_eq!(header(&js, "cache-control"), Some("public"));
    let text = std::str::from_utf8(js.body()).unwrap();
    assert!(text.starts_with(
        "Type.registerNamespace('Rmm.Script');\r\nRmm.Script.ScriptService=function() {\r\n"
    ));
    // Greet takes GET: `true` before its arguments' dictionary.
    assert!(text.contains(
        "Greet:function(name,times,succeededCallback, failedCallback, userContext) {\r\n\
         return this._invoke(this._get_path(), 'Greet',true,{name:name,times:times},succeededCallback,failedCallback,userContext); },\r\n"
    ));
    assert!(
        text.contains("Rmm.Script.ScriptService.set_path(\"/api/rmm/ScriptService.asmx\");\r\n")
    );
    // The client types of the signatures, then the enums.
    assert!(text.contains(
        "var gtc = Sys.Net.WebServiceProxy._generateTypedConstructor;\r\n\
         if (typeof(Rmm.Script.Point) === 'undefined') {\r\nRmm.Script.Point=gtc(\"Rmm.Script.Point\");\r\n"
    ));
    assert!(text.ends_with(
        "Rmm.Script.Mood.prototype = {Calm: 0,Busy: 1,Angry: 2}\r\nRmm.Script.Mood.registerEnum('Rmm.Script.Mood', true);\r\n}\r\n"
    ));
    // A client that has it since it was last modified gets 304 and no body.
    let modified = header(&js, "last-modified").unwrap().to_owned();
    let again = server.handle(get("js", Some(&modified))).await;
    assert_eq!(again.status(), 304);
    assert!(again.body().is_empty());
    let stale = server
        .handle(get("JS", Some("Mon, 01 Jan 2001 00:00:00 GMT")))
        .await;
    assert_eq!(stale.status(), 200);
    // `/jsdebug`: each parameter documented, not cached publicly.
    let debug = server.handle(get("jsdebug", None)).await;
    assert_eq!(header(&debug, "cache-control"), Some("private"));
    let text = std::str::from_utf8(debug.body()).unwrap();
    assert!(text.contains(
        "/// <param name=\"p\" type=\"Rmm.Script.Point\">Rmm.Script.Point</param>\r\n\
         /// <param name=\"dx\" type=\"Number\">System.Int32</param>\r\n"
    ));
}

/// A service whose web.config sets `jsonSerialization`'s `maxJsonLength` and `recursionLimit`
/// (commonly raised: the default refuses a call or an answer of more than 102,400
/// characters): its replacement reads and answers within the same limits.
#[tokio::test]
async fn the_json_limits_are_the_servers() {
    use rmm_script::runtime::json::JsonLimits;
    let server = |max_length, recursion_limit| {
        ScriptServiceServer::new(ScriptEcho).with_config(ServerConfig {
            custom_errors: false,
            json_limits: JsonLimits {
                max_length,
                recursion_limit,
            },
            ..ServerConfig::default()
        })
    };
    let message = |response: &http::Response<Bytes>| -> String {
        let body: serde_json::Value = serde_json::from_slice(response.body()).unwrap();
        body["Message"].as_str().unwrap_or_default().to_owned()
    };
    let long = format!(r#"{{"value":"{}"}}"#, "x".repeat(150_000));

    // .NET's defaults: a call of 150,000 characters is refused.
    let default = server(102_400, 100);
    let refused = default
        .handle(request("POST", "Echo", "application/json", &long))
        .await;
    assert_eq!(refused.status(), 500);
    assert!(
        message(&refused).contains("maxJsonLength"),
        "{}",
        message(&refused)
    );

    // Raised, as a web.config raises it: read and answered.
    let raised = server(1_000_000, 100);
    let echoed = raised
        .handle(request("POST", "Echo", "application/json", &long))
        .await;
    assert_eq!(echoed.status(), 200);
    assert_eq!(echoed.body().len(), 150_000 + r#"{"d":""}"#.len());

    // Lowered: the answer's value is measured too (Greet's is longer than its call).
    let lowered = server(1_000, 100);
    let greet = |times: u32| {
        request(
            "GET",
            &format!("Greet?name=%22ab%22&times={times}"),
            "application/json",
            "",
        )
    };
    assert_eq!(lowered.handle(greet(10)).await.status(), 200);
    let long_answer = lowered.handle(greet(200)).await;
    assert_eq!(long_answer.status(), 500);
    assert!(message(&long_answer).contains("maxJsonLength"));

    // The recursion limit, counted as .NET counts it (every value, a primitive too: the call
    // object at 1, its members at 2): a limit of 3 reads an array of ints and refuses an array
    // of classes.
    let shallow = server(102_400, 3);
    let ints = shallow
        .handle(request(
            "POST",
            "EchoInts",
            "application/json",
            r#"{"value":[1,2]}"#,
        ))
        .await;
    assert_eq!(ints.status(), 200);
    let points = shallow
        .handle(request(
            "POST",
            "EchoPoints",
            "application/json",
            r#"{"value":[{"X":1}]}"#,
        ))
        .await;
    assert_eq!(points.status(), 500);
    assert_eq!(message(&points), "RecursionLimit exceeded.");
}
