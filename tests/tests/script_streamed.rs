//! The JSON face's streamed read (`json::Streamed`, each generated class's `read_json`)
//! against the value tree it stands in for: over calls made by varying a usual one (members
//! moved, repeated, renamed, unknown, `__type` anywhere, values of other types, nesting at
//! and past the limit, broken syntax), wherever the streamed read gives a value the tree
//! gives the same one, and the generated `decode_json` (streamed first, the tree else)
//! answers as the tree alone, value or error; so does the client reading an answer. The usual
//! calls must be read streamed, or the comparison would hold of nothing.

use std::fmt::Debug;

use rmm_script::runtime::deps::bytes::Bytes;
use rmm_script::runtime::deps::http::{Request, Response};
use rmm_script::runtime::json::script::{decode_answer, streamed, ScriptArgs};
use rmm_script::runtime::json::{parse, FromJson, JsonError, JsonLimits};
use rmm_script::*;

fn post(body: &str, limits: Option<JsonLimits>) -> Request<Bytes> {
    let mut request = Request::builder()
        .method("POST")
        .uri("/api/rmm/ScriptService.asmx/Op")
        .header("content-type", "application/json; charset=utf-8")
        .body(Bytes::from(body.to_owned()))
        .unwrap();
    if let Some(limits) = limits {
        request.extensions_mut().insert(limits);
    }
    request
}

/// The one parameter `value` of type `T`, read by the tree and streamed; asserts they agree
/// where the stream gives a value. Whether it did.
fn agree<T: FromJson + PartialEq + Debug>(body: &str, limits: Option<JsonLimits>) -> bool {
    let request = post(body, limits);
    let tree: Result<T, JsonError> = ScriptArgs::of_request(&request, "Op", false, &["value"])
        .and_then(|args| args.param("value"));
    let read = streamed(&request, false, |json| {
        let mut params = json.open_params()?;
        let mut value = None;
        while json.next_param(&mut params, &["value"])?.is_some() {
            value = Some(json.value::<T>()?);
        }
        value
    });
    if let Some(read) = &read {
        assert_eq!(Ok(read), tree.as_ref(), "{body}");
    }
    read.is_some()
}

/// A usual point, as JavaScriptSerializer writes it.
const POINT: &str =
    r#"{"__type":"Rmm.Script.Point","X":1,"Y":-2,"Name":"a \u00e9\"","When":"\/Date(86400000)\/"}"#;

/// Points made by varying [`POINT`]; `true` where it is a usual point the stream reads.
fn points() -> Vec<(String, bool)> {
    let usual = [
        POINT,
        r#"{"X":1,"Y":-2,"Name":"a","When":"\/Date(0)\/"}"#,
        r#"{"__type":"Rmm.Script.Point","When":"\/Date(0)\/","Name":null,"Y":2,"X":1}"#,
        r#"{ "__type" : "Rmm.Script.Point" , "X" : 1 }"#,
        r#"{'X':1,Y:2,'Name':'b'}"#,
        r#"{"x":1,"NAME":"lower and upper case"}"#,
        r#"{"X":1,"Z":{"deep":[1,[2,{"a":null}]],"__type":"Rmm.Script.Point"},"Y":2}"#,
        r#"{"X":"12","Y":"-7"}"#,
        r#"{}"#,
        r#"{"__type":"Rmm.Script.Point"}"#,
        r#"{"Unknown":1,"__TYPE":"Rmm.Script.Point"}"#,
    ];
    let unusual = [
        // `__type` after another member, a hint of another class, a hint not a string.
        r#"{"X":1,"__type":"Rmm.Script.Point"}"#,
        r#"{"X":1,"__type":"Rmm.Script.Shape"}"#,
        r#"{"__type":"Rmm.Script.Shape","X":1}"#,
        r#"{"__type":"Nope","X":1}"#,
        r#"{"__type":5,"X":1}"#,
        r#"{"__type":"Rmm.Script.Point","__type":"Rmm.Script.Point"}"#,
        // A member twice, exactly or ignoring case.
        r#"{"X":1,"X":2}"#,
        r#"{"X":1,"x":2}"#,
        r#"{"Name":"a","Y":1,"name":"b"}"#,
        // The tree keeps a repeated name where it first stood, with its last value.
        r#"{"X":1,"x":2,"X":3}"#,
        // Values that do not convert.
        r#"{"X":1.5}"#,
        r#"{"Y":7.0}"#,
        r#"{"Name":5}"#,
        r#"{"X":null}"#,
        r#"{"X":"one"}"#,
        r#"{"X":[1]}"#,
        r#"{"X":{}}"#,
        r#"{"When":"2020-01-01"}"#,
        r#"{"X":99999999999}"#,
        // Syntax .NET refuses.
        r#"{"X":1,}"#,
        r#"{"X":1"#,
        r#"{"X" 1}"#,
        r#"{:1}"#,
        r#"{,"X":1}"#,
        r#"{"X":1 "Y":2}"#,
        r#"{"X":new Date(0)}"#,
        r#"{"X":1}}"#,
        // Not an object.
        "null",
        "[]",
        "1",
        r#""text""#,
    ];
    usual
        .iter()
        .map(|p| (p.to_string(), true))
        .chain(unusual.iter().map(|p| (p.to_string(), false)))
        .collect()
}

#[test]
fn where_the_stream_reads_a_point_the_tree_reads_the_same() {
    let mut taken = 0;
    for (point, usual) in points() {
        let body = format!(r#"{{"value":{point}}}"#);
        let read = agree::<Option<Point>>(&body, None);
        if usual && point != "null" {
            assert!(read, "not streamed: {body}");
        }
        taken += usize::from(read);
        // And as an item among others, an array of them, and a derived class's `Any…`.
        for array in [
            format!("[{point}]"),
            format!("[{POINT},{point},null]"),
            format!("[{point},]"),
            format!("[[{point}]]"),
        ] {
            let body = format!(r#"{{"value":{array}}}"#);
            let read = agree::<Option<Vec<Option<Point>>>>(&body, None);
            if usual && !array.contains(",]") && !array.starts_with("[[") {
                assert!(read, "not streamed: {body}");
            }
            taken += usize::from(read);
        }
        agree::<Option<AnyShape>>(&body, None);
        agree::<Option<Circle>>(&body, None);
    }
    assert!(taken > 40, "{taken}");
}

#[test]
fn the_parameters_object_is_read_as_the_tree_reads_it() {
    let usual = [
        format!(r#"{{"value":[{POINT}]}}"#),
        format!(r#"  {{ "other" : [1, {{"a":"b"}}] , "value" : [ {POINT} ] , "__type":"x" }}  "#),
        format!("\u{feff}{{\"value\":[{POINT}]}}"),
        r#"{"value":null}"#.to_owned(),
        r#"{"value":[]}"#.to_owned(),
        r#"{"value":[null,null]}"#.to_owned(),
    ];
    for body in &usual {
        assert!(
            agree::<Option<Vec<Option<Point>>>>(body, None),
            "not streamed: {body}"
        );
    }
    let unusual = [
        r#"{"value":[],"value":[]}"#,
        r#"{"VALUE":[]}"#,
        r#"{"other":1}"#,
        r#"{}"#,
        "",
        "   ",
        "null",
        "[]",
        r#"{"value":[]} x"#,
        r#"{"value":[]}{}"#,
        r#"{"value":[1,2]}"#,
        r#"{"value":"text"}"#,
        r#"{"value":{}}"#,
        r#"{"value":[]"#,
        r#"{"value":[,]}"#,
    ];
    for body in unusual {
        agree::<Option<Vec<Option<Point>>>>(body, None);
    }
}

#[test]
fn nesting_at_and_past_the_limit_is_read_as_the_tree_reads_it() {
    for limit in 1..=6 {
        let limits = JsonLimits {
            recursion_limit: limit,
            ..JsonLimits::default()
        };
        for depth in 0..=7 {
            // An unknown member nested `depth` arrays deep inside a point inside an array.
            let nested = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
            let body = format!(r#"{{"value":[{{"X":1,"Z":{nested}}}]}}"#);
            let read = agree::<Option<Vec<Option<Point>>>>(&body, Some(limits));
            // The params object, the array, the point, and the nesting: each one deeper.
            assert_eq!(read, depth + 4 <= limit, "limit {limit}, {body}");
            let body = format!(r#"{{"value":{nested}}}"#);
            agree::<Option<Vec<Option<Vec<i32>>>>>(&body, Some(limits));
        }
        // An empty array, an empty object: the deepest values, a value's depth past the
        // limit refused whatever it holds.
        let read = agree::<Option<Vec<Option<Point>>>>(r#"{"value":[]}"#, Some(limits));
        assert_eq!(read, 2 <= limit, "limit {limit}, []");
        let read = agree::<Option<Vec<Option<Point>>>>(r#"{"value":[{}]}"#, Some(limits));
        assert_eq!(read, 3 <= limit, "limit {limit}, [{{}}]");
    }
}

#[test]
fn scalars_and_arrays_of_them_are_read_as_the_tree_reads_them() {
    let values = [
        "1",
        "-1",
        "\"12\"",
        "1.5",
        "1e3",
        "null",
        "true",
        "\"true\"",
        "\"text\"",
        "'single'",
        "\"\\/Date(0)\\/\"",
        "[1,2]",
        "[]",
        "{}",
        "2147483648",
        "\"\"",
        "[null]",
        "[\"1\"]",
    ];
    for value in values {
        let body = format!(r#"{{"value":{value}}}"#);
        agree::<i32>(&body, None);
        agree::<Option<String>>(&body, None);
        agree::<bool>(&body, None);
        agree::<Option<Vec<i32>>>(&body, None);
        agree::<Option<Vec<Option<String>>>>(&body, None);
        agree::<DateTime>(&body, None);
        agree::<Mood>(&body, None);
    }
}

/// The answer `body` read by the client (the stream first, the tree else) and by the tree
/// alone: the same value, or both refused.
fn answer_agrees<T: FromJson + PartialEq + Debug>(body: &str) {
    let response = Response::builder()
        .status(200)
        .header("content-type", "application/json; charset=utf-8")
        .body(Bytes::from(body.to_owned()))
        .unwrap();
    let read = decode_answer::<T, _>("Op", &response);
    let tree = parse(body).ok().flatten().and_then(|value| {
        let d = value.get("d")?;
        T::from_json(d).ok()
    });
    assert_eq!(read.as_ref().ok(), tree.as_ref(), "{body}");
}

#[test]
fn the_client_reads_an_answer_as_the_tree_reads_it() {
    for (point, _) in points() {
        for body in [
            format!(r#"{{"d":[{point}]}}"#),
            format!(r#"{{"d":[{POINT},{point}]}}"#),
            format!(r#"{{"other":{point},"d":[{point}]}}"#),
            format!(r#"{{"d":[{point}],"d":null}}"#),
            format!(r#"{{"D":[{point}]}}"#),
            format!(r#"{{"d":[{point}]}} x"#),
        ] {
            answer_agrees::<Option<Vec<Option<Point>>>>(&body);
        }
        answer_agrees::<Option<Point>>(&format!(r#"{{"d":{point}}}"#));
    }
    for body in [
        r#"{"d":null}"#,
        r#"{"d":"x"}"#,
        r#"{"d":1}"#,
        "",
        "null",
        "[]",
    ] {
        answer_agrees::<Option<String>>(body);
        answer_agrees::<i32>(body);
    }
}

/// The tree alone, as the generated `decode_json` reads a call when the stream gives none.
fn tree_move(request: &Request<Bytes>) -> Result<Move, JsonError> {
    let args = ScriptArgs::of_request(request, "Move", false, &["p", "dx", "dy"])?;
    Ok(Move {
        p: args.param("p")?,
        dx: args.param("dx")?,
        dy: args.param("dy")?,
    })
}

fn tree_points(request: &Request<Bytes>) -> Result<EchoPoints, JsonError> {
    let args = ScriptArgs::of_request(request, "EchoPoints", false, &["value"])?;
    Ok(EchoPoints {
        value: args.param("value")?,
    })
}

#[test]
fn the_generated_decoder_answers_as_the_tree_alone() {
    for (point, _) in points() {
        for body in [
            format!(r#"{{"p":{point},"dx":1,"dy":-1}}"#),
            format!(r#"{{"dy":2,"p":{point},"dx":"3"}}"#),
            format!(r#"{{"p":{point},"dx":1}}"#),
            format!(r#"{{"p":{point},"dx":1,"dy":2,"dx":3}}"#),
            format!(r#"{{"p":{point},"dx":1,"dy":2,"extra":[{point}]}}"#),
        ] {
            let request = post(&body, None);
            let decoded = Move::decode_json(&request).map(|(_, call)| call);
            assert_eq!(decoded, tree_move(&request), "{body}");
        }
        let body = format!(r#"{{"value":[{point},{POINT}]}}"#);
        let request = post(&body, None);
        let decoded = EchoPoints::decode_json(&request).map(|(_, call)| call);
        assert_eq!(decoded, tree_points(&request), "{body}");
    }
}
