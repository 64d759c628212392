//! The checks of an rpc service (`style: rpc`, .NET's `[SoapRpcService]`): what rmm's
//! RPC/encoded codec carries, and the names only rpc operations take.
//!
//! SOAP encoding has no attributes, text content, choices or unwrapped arrays (.NET's
//! `SoapSchemaImporter` refuses the first three, and its reflection importer has no
//! `[XmlElement]` arrays); rmm's encoded codec does not carry yet what .NET does carry there
//! (arrays of arrays, `[Flags]` enums as lists, raw XML, `object`, DataSets, SOAP headers,
//! bare and renamed wrappers, members with default values), and says so.

use super::*;

/// The spellings of types the encoded codec does not carry.
fn unsupported_type(raw: &RawSpec, ty: &str) -> Option<&'static str> {
    let name = ty.trim_end_matches('?');
    if name.ends_with("[][]") || name.ends_with("?[][]") || name.contains("[]?[]") {
        return Some("an array of arrays");
    }
    let base = name.trim_end_matches("[]").trim_end_matches('?');
    match base {
        "xml" | "XmlNode" | "XmlElement" => Some("raw XML"),
        "object" => Some("an object (xsd:anyType)"),
        "DataSet" | "DataTable" => Some("a DataSet"),
        _ if raw.data_sets.iter().any(|d| d.name.0 == base) => Some("a DataSet"),
        _ if raw.enums.iter().any(|e| e.name.0 == base && e.flags) => {
            Some("a [Flags] enum (a list of names)")
        }
        _ => None,
    }
}

pub(super) fn check_rpc(
    c: &mut Checker<'_, '_>,
    raw: &RawSpec,
    places: &[OpPlaces],
    loc: &Locator<'_>,
) {
    use crate::spec::ParameterStyle;
    let rpc_service = raw.service.style == crate::spec::ServiceStyle::Rpc;
    // [SoapRpcMethod] on the methods of a document service: every operation `style: rpc`.
    let rpc_methods = raw
        .operations
        .iter()
        .any(|op| op.style == ParameterStyle::Rpc);
    let every_method = raw
        .operations
        .iter()
        .all(|op| op.style == ParameterStyle::Rpc);
    let rpc = rpc_service || (rpc_methods && every_method);
    let style_at = loc
        .service_value("style", "rpc")
        .or(loc.top_key_pos("service"));
    for (op, place) in raw.operations.iter().zip(places) {
        let name = op.name.0.as_str();
        let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
        let key_at = |key: &str| place.lines.and_then(|l| loc.op_key(l, key)).or(anchor);
        if op.style == ParameterStyle::Rpc && rpc_service {
            c.push(
                key_at("style"),
                anchor,
                format!(
                    "operation {name:?} is `style: rpc` in a service of `style: rpc`, whose \
                     every operation is: leave it out"
                ),
            );
        } else if op.style == ParameterStyle::Rpc && !every_method {
            c.push(
                key_at("style"),
                anchor,
                format!(
                    "operation {name:?} is `style: rpc` ([SoapRpcMethod]) beside operations \
                     that are not; rmm generates a service whose operations are all rpc or \
                     none yet"
                ),
            );
        } else if rpc_methods && every_method && !rpc_service {
            // Their encoded types would be declared in `{namespace}/encodedTypes`.
            let types: Vec<&str> = op
                .params
                .iter()
                .chain(&op.out)
                .map(|p| p.ty.as_str())
                .chain([op.result.0.as_str()])
                .filter(|ty| {
                    let base = ty.trim_end_matches('?');
                    base.ends_with("[]")
                        || raw.types.iter().any(|t| t.name.0 == base)
                        || raw.enums.iter().any(|e| e.name.0 == base)
                })
                .collect();
            if let Some(ty) = types.first() {
                c.push(
                    anchor,
                    anchor,
                    format!(
                        "operation {name:?} ([SoapRpcMethod] on a document service) uses the \
                         type {ty}; rmm writes such an operation's encoded types (a schema of \
                         {{namespace}}/encodedTypes) for a `style: rpc` service only yet"
                    ),
                );
            }
        }
        if !rpc {
            for (key, given) in [
                ("request_namespace", op.request_namespace.is_some()),
                ("response_namespace", op.response_namespace.is_some()),
            ] {
                if given {
                    c.push(
                        key_at(key),
                        anchor,
                        format!(
                            "operation {name:?} gives {key}, which only an rpc operation has \
                             ([SoapRpcMethod]); give the service `style: rpc`"
                        ),
                    );
                }
            }
            continue;
        }
        let refuse = |c: &mut Checker<'_, '_>, key: &str, what: &str| {
            c.push(
                key_at(key),
                anchor,
                format!(
                    "operation {name:?} of an rpc service (style: rpc) has {what}, which rmm's \
                     RPC/encoded codec does not carry yet"
                ),
            );
        };
        if op.style == crate::spec::ParameterStyle::Bare {
            refuse(c, "style", "style: bare");
        }
        if !op.headers.is_empty() {
            refuse(c, "headers", "SOAP headers");
        }
        if op.request_element.is_some() {
            refuse(c, "request_element", "a renamed request element");
        }
        if op.response_element.is_some() {
            refuse(c, "response_element", "a renamed response element");
        }
        for (i, p) in op.params.iter().chain(&op.out).enumerate() {
            if let Some(what) = unsupported_type(raw, &p.ty) {
                let at = place
                    .params
                    .as_ref()
                    .and_then(|v| v.get(i))
                    .map(|(_, ty)| *ty)
                    .or(anchor);
                c.push(
                    at,
                    anchor,
                    format!(
                        "parameter {:?} of operation {name:?} is {what}, which rmm's RPC/encoded \
                         codec does not carry yet",
                        p.name
                    ),
                );
            }
        }
        if let Some(what) = unsupported_type(raw, &op.result.0) {
            refuse(c, "result", &format!("a result of {what}"));
        }
    }
    if !rpc {
        return;
    }
    let types_at = loc.top_key_pos("types");
    let lines = loc.top_items("types", raw.types.len());
    for (i, class) in raw.types.iter().enumerate() {
        let name = class.name.0.as_str();
        let at = lines.as_ref().map(|l| loc.op_start(l[i])).or(types_at);
        let mut problems: Vec<String> = Vec::new();
        if !class.attributes.is_empty() || class.any_attribute.is_some() {
            problems.push("attributes (SOAP encoding has none)".into());
        }
        if class.text.is_some() {
            problems.push("text content (SOAP encoding has none)".into());
        }
        if class.root.is_some() {
            problems.push("a root (`root:`)".into());
        }
        if class.namespace.is_some() {
            problems.push("a namespace of its own".into());
        }
        for m in &class.members {
            let shaped = m.item.is_some()
                || m.unwrapped
                || m.optional
                || m.default.is_some()
                || m.list
                || m.any
                || m.unqualified
                || m.qualified
                || m.namespace.is_some()
                || m.data_type.is_some()
                || m.choice.is_some();
            if shaped {
                problems.push(format!(
                    "the member {:?} written with a shape of its own (renamed items, unwrapped, \
                     optional, a default, a list, a choice, a namespace or a data type)",
                    m.name
                ));
            } else if let Some(what) = unsupported_type(raw, &m.ty) {
                problems.push(format!("the member {:?} of {what}", m.name));
            }
        }
        for problem in problems {
            c.push(
                at,
                types_at,
                format!(
                    "class {name:?} of an rpc service (style: rpc) has {problem}, which rmm's \
                     RPC/encoded codec does not carry"
                ),
            );
        }
    }
    if !raw.data_sets.is_empty() {
        c.push(
            style_at,
            None,
            "an rpc service (style: rpc) declares data_sets, which rmm's RPC/encoded codec does \
             not carry yet"
                .into(),
        );
    }
}
