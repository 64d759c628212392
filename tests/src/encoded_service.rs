//! The encoded service (`tests/encoded`, the host's `EncodedService.cs`): an implementation
//! that answers as the host's does, the probes recorded from the host
//! (`tests/fixtures/encoded/probes/`), and the cases where rmm answers otherwise on purpose.

use std::path::PathBuf;

use rmm_encoded::*;

use crate::captures::{parse_message, Capture};

/// Answers as the host's `EncodedService` does: echoes, `Add` adds, `SameEnds` makes a line
/// of one point, `Split` splits, and a string `"FAULT"` is a client fault.
#[derive(Debug, Clone, Copy, Default)]
pub struct EncodedEcho;

fn check(s: Option<&str>) -> Result<(), Fault> {
    if s == Some("FAULT") {
        Err(Fault::client("requested fault"))
    } else {
        Ok(())
    }
}

impl EncodedService for EncodedEcho {
    async fn add(&self, r: Add) -> Result<AddResponse, Fault> {
        Ok(AddResponse {
            result: r.a.wrapping_add(r.b),
        })
    }

    async fn echo_string(&self, r: EchoString) -> Result<EchoStringResponse, Fault> {
        check(r.s.as_deref())?;
        Ok(EchoStringResponse { result: r.s })
    }

    async fn ping(&self, _: Ping) -> Result<PingResponse, Fault> {
        Ok(PingResponse::default())
    }

    async fn echo_simple(&self, r: EchoSimple) -> Result<EchoSimpleResponse, Fault> {
        Ok(EchoSimpleResponse {
            result: Some(Simple {
                flag: r.flag,
                money: r.money,
                ratio: r.ratio,
                single: r.single,
                big: r.big,
                when: r.when,
                data: r.data,
                level: r.level,
                letter: r.letter,
                id: r.id,
            }),
        })
    }

    async fn echo_point(&self, r: EchoPoint) -> Result<EchoPointResponse, Fault> {
        if let Some(p) = &r.p {
            check(p.name.as_deref())?;
        }
        Ok(EchoPointResponse { result: r.p })
    }

    async fn echo_line(&self, r: EchoLine) -> Result<EchoLineResponse, Fault> {
        Ok(EchoLineResponse { result: r.l })
    }

    async fn same_ends(&self, r: SameEnds) -> Result<SameEndsResponse, Fault> {
        Ok(SameEndsResponse {
            result: Some(Line {
                from: r.p.clone(),
                to: r.p,
            }),
        })
    }

    async fn echo_ints(&self, r: EchoInts) -> Result<EchoIntsResponse, Fault> {
        Ok(EchoIntsResponse { result: r.xs })
    }

    async fn echo_strings(&self, r: EchoStrings) -> Result<EchoStringsResponse, Fault> {
        Ok(EchoStringsResponse { result: r.xs })
    }

    async fn echo_points(&self, r: EchoPoints) -> Result<EchoPointsResponse, Fault> {
        Ok(EchoPointsResponse { result: r.ps })
    }

    async fn echo_poly(&self, r: EchoPoly) -> Result<EchoPolyResponse, Fault> {
        Ok(EchoPolyResponse { result: r.p })
    }

    async fn echo_lines(&self, r: EchoLines) -> Result<EchoLinesResponse, Fault> {
        Ok(EchoLinesResponse { result: r.ls })
    }

    async fn echo_shape(&self, r: EchoShape) -> Result<EchoShapeResponse, Fault> {
        Ok(EchoShapeResponse { result: r.s })
    }

    async fn split(&self, r: Split) -> Result<SplitResponse, Fault> {
        check(r.s.as_deref())?;
        let first =
            r.s.as_deref()
                .map(|s| s.split_once(' ').map_or(s, |(head, _)| head).to_owned());
        Ok(SplitResponse {
            // .NET's Length counts UTF-16 units.
            result: r
                .s
                .as_deref()
                .map_or(-1, |s| s.encode_utf16().count() as i32),
            first,
            count: r.count.wrapping_add(1),
        })
    }

    async fn renamed(&self, r: Renamed) -> Result<RenamedResponse, Fault> {
        check(r.renamed.as_deref())?;
        Ok(RenamedResponse { result: r.renamed })
    }
}

/// `tests/fixtures/encoded/probes`.
pub fn probes_dir() -> PathBuf {
    crate::root().join("tests/fixtures/encoded/probes")
}

/// Every probe of the rpc service's calls over SOAP, HTTP GET and POST (not the
/// document/encoded service's, not the WSDL and the help pages), sorted by name.
pub fn call_probes() -> Vec<Capture> {
    let mut names: Vec<String> = std::fs::read_dir(probes_dir())
        .expect("the probes")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".req").map(str::to_owned)
        })
        .filter(|n| {
            !n.starts_with("doc_")
                && !n.starts_with("help")
                && !["wsdl", "wsdl_doc", "disco"].contains(&n.as_str())
        })
        .collect();
    names.sort();
    names.iter().map(|name| probe(name)).collect()
}

/// The probe `name` (`wsdl`, `help`, a call).
pub fn probe(name: &str) -> Capture {
    let dir = probes_dir();
    let read = |ext: &str| {
        std::fs::read(dir.join(format!("{name}.{ext}")))
            .unwrap_or_else(|e| panic!("{name}.{ext}: {e}"))
    };
    Capture {
        request: parse_message(&read("req")),
        response: parse_message(&read("resp")),
        name: name.to_owned(),
    }
}

/// The probes rmm answers otherwise on purpose: name, our status, why. Each still differs
/// from the host's answer (the replay test checks it).
pub const DELIBERATE: &[(&str, u16, &str)] = &[
    (
        "line_shared_in",
        200,
        "each Rust value is its own (no object identity): an object the host writes once and references from two places, rmm writes twice, with ids of its own; the values read back are equal",
    ),
    (
        "lines_same_line",
        200,
        "each Rust value is its own (no object identity): an object the host writes once and references from two places, rmm writes twice, with ids of its own; the values read back are equal",
    ),
    (
        "lines_shared",
        200,
        "each Rust value is its own (no object identity): an object the host writes once and references from two places, rmm writes twice, with ids of its own; the values read back are equal",
    ),
    (
        "points",
        200,
        "each Rust value is its own (no object identity): an object the host writes once and references from two places, rmm writes twice, with ids of its own; the values read back are equal",
    ),
    (
        "r12_line_shared",
        200,
        "each Rust value is its own (no object identity): an object the host writes once and references from two places, rmm writes twice, with ids of its own; the values read back are equal",
    ),
    (
        "r_line_ends_shared_out",
        200,
        "each Rust value is its own (no object identity): an object the host writes once and references from two places, rmm writes twice, with ids of its own; the values read back are equal",
    ),
    (
        "s12_lines_shared",
        200,
        "each Rust value is its own (no object identity): an object the host writes once and references from two places, rmm writes twice, with ids of its own; the values read back are equal",
    ),
    (
        "s12_sameends",
        200,
        "each Rust value is its own (no object identity): an object the host writes once and references from two places, rmm writes twice, with ids of its own; the values read back are equal",
    ),
    (
        "sameends",
        200,
        "each Rust value is its own (no object identity): an object the host writes once and references from two places, rmm writes twice, with ids of its own; the values read back are equal",
    ),
    (
        "simple_offset",
        200,
        "an offset is kept as sent; the host converts it to its own zone (the same instant)",
    ),
    (
        "r_add_nil",
        500,
        "xsi:nil for an int: the host reads 0, which the sender did not send; rmm refuses it",
    ),
    (
        "r12_add_nil",
        500,
        "xsi:nil for an int: the host reads 0, which the sender did not send; rmm refuses it",
    ),
    (
        "r_point_member_nil",
        500,
        "xsi:nil for an int member: the host reads 0, which the sender did not send; rmm refuses it",
    ),
    (
        "r_ints_item_nil",
        500,
        "xsi:nil for an int item: the host reads 0; rmm refuses it",
    ),
    (
        "r_ints_item_href",
        500,
        "an int item given by reference: the host reads 0 (it follows no reference in an array of a value type); rmm refuses it",
    ),
    (
        "r_add_literal",
        500,
        "parameters in the service namespace (the document/literal shape): the host reads them as absent (0 + 0); rmm refuses qualified parameters",
    ),
    (
        "r12_add_literal",
        500,
        "parameters in the service namespace (the document/literal shape): the host reads them as absent (0 + 0); rmm refuses qualified parameters",
    ),
    (
        "r_add_qualified",
        500,
        "qualified parameters: the host reads them as absent (0); rmm refuses them",
    ),
    (
        "r_ints_bare",
        500,
        "an array without soapenc:arrayType in SOAP 1.1: the host reads null; rmm refuses it",
    ),
    (
        "r_strings_bare",
        500,
        "an array without soapenc:arrayType in SOAP 1.1: the host reads null; rmm refuses it",
    ),
    (
        "r_ints_named_type_only",
        500,
        "an array typed ArrayOfInt without soapenc:arrayType: the host reads null; rmm refuses it",
    ),
    (
        "r_ints_enc12_array",
        500,
        "SOAP 1.2's itemType/arraySize in a SOAP 1.1 message: the host reads null; rmm refuses it",
    ),
    (
        "r_poly_points_bare",
        500,
        "an array member without soapenc:arrayType: the host reads null; rmm refuses it",
    ),
    (
        "s12_point_href",
        500,
        "an href in SOAP 1.2, whose references are soapenc:ref: the host reads an empty object; rmm refuses it",
    ),
    (
        "s12_point_href_enc11",
        500,
        "an href in SOAP 1.2, whose references are soapenc:ref: the host reads an empty object; rmm refuses it",
    ),
    (
        "r12_point_href_enc12",
        500,
        "an href in SOAP 1.2, whose references are soapenc:ref: the host reads an empty object; rmm refuses it",
    ),
    (
        "get_renamed_value",
        500,
        "Renamed's parameter is `renamed` over SOAP and `value` (its C# name) over HTTP GET/POST; a spec names a parameter once, so rmm offers Renamed over SOAP only",
    ),
    (
        "s12_points",
        500,
        "hrefs in SOAP 1.2, whose references are soapenc:ref: the host reads empty objects; rmm refuses them",
    ),
];
