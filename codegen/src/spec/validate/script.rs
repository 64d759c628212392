//! The checks of a `[ScriptService]` (`script:`): what rmm carries over JSON.

use std::collections::BTreeSet;

use super::*;

/// A `[ScriptService]`'s operations answer JSON calls with every value JavaScriptSerializer
/// writes and ObjectConverter reads: simple types, enums (not `[Flags]` ones yet), classes
/// and arrays of them. Refused for now: raw XML, DataSets and `object` (which .NET writes
/// only in part, or not at all), choices, `[XmlText]`, `[XmlAnyAttribute]` and
/// `[XmlAnyElement]` members, out parameters, `Fault` headers, and rpc services.
/// An operation's `script:` needs the service's.
pub(super) fn check_script(
    c: &mut Checker<'_, '_>,
    raw: &RawSpec,
    places: &[OpPlaces],
    loc: &Locator<'_>,
) {
    let script = match &raw.service.script {
        None | Some(crate::spec::raw::RawScript::On(false)) => false,
        Some(_) => true,
    };
    let service_at = loc.top_key_pos("service");
    if !script {
        for (op, place) in raw.operations.iter().zip(places) {
            if op.script.is_some() {
                let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
                c.push(
                    anchor,
                    anchor,
                    format!(
                        "operation {:?} has `script:` ([ScriptMethod]), which only an operation \
                         of a [ScriptService] has: add `script: true` to the service",
                        op.name.0
                    ),
                );
            }
        }
        return;
    }
    if raw.service.style == crate::spec::ServiceStyle::Rpc {
        c.push(
            service_at,
            service_at,
            "the service is `style: rpc` and `script:`; rmm carries JSON calls of a document \
             service only"
                .to_owned(),
        );
    }
    for (op, place) in raw.operations.iter().zip(places) {
        let name = op.name.0.as_str();
        let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
        let mut problems = Vec::new();
        if !op.out.is_empty() {
            problems.push("has out parameters".to_owned());
        }
        if op
            .headers
            .iter()
            .any(|h| h.direction == crate::spec::HeaderDirection::Fault)
        {
            problems.push("has a SOAP header written on faults".to_owned());
        }
        let mut seen = BTreeSet::new();
        for ty in op
            .params
            .iter()
            .map(|p| p.ty.as_str())
            .chain([op.result.0.as_str()])
        {
            reach(raw, ty, &mut seen, &mut problems);
        }
        for problem in problems {
            c.push(
                anchor,
                anchor,
                format!(
                    "operation {name:?} of a [ScriptService] {problem}, which rmm does not carry \
                     over JSON yet; leave `script:` out of the service"
                ),
            );
        }
    }
}

/// Walks the types `ty` reaches (items, members, derived classes), noting what JSON cannot
/// carry yet.
fn reach(raw: &RawSpec, ty: &str, seen: &mut BTreeSet<String>, problems: &mut Vec<String>) {
    let name = ty
        .trim_end_matches('?')
        .trim_end_matches("[]")
        .trim_end_matches('?');
    if name.ends_with("[]") {
        return reach(raw, name, seen, problems);
    }
    if !seen.insert(name.to_owned()) {
        return;
    }
    fn note(problems: &mut Vec<String>, what: String) {
        if !problems.contains(&what) {
            problems.push(what);
        }
    }
    if matches!(name, "xml" | "xmlNode" | "dataSet" | "dataTable" | "object")
        || raw.data_sets.iter().any(|d| d.name.0 == name)
    {
        note(problems, format!("uses {name}"));
        return;
    }
    if let Some(e) = raw.enums.iter().find(|e| e.name.0 == name) {
        if e.flags {
            note(problems, format!("uses the [Flags] enum {name}"));
        }
        return;
    }
    let Some(class) = raw.types.iter().find(|t| t.name.0 == name) else {
        return;
    };
    if class.text.is_some() {
        note(
            problems,
            format!("uses the class {name}, which has text content ([XmlText])"),
        );
    }
    if class.any_attribute.is_some() {
        note(
            problems,
            format!("uses the class {name}, which has an [XmlAnyAttribute] member"),
        );
    }
    for member in &class.members {
        if member.any {
            note(
                problems,
                format!("uses the class {name}, which has an [XmlAnyElement] member"),
            );
        } else if member.choice.is_some() {
            note(
                problems,
                format!("uses the class {name}, which has a choice"),
            );
        } else {
            reach(raw, &member.ty, seen, problems);
        }
    }
    for attribute in &class.attributes {
        reach(raw, &attribute.ty, seen, problems);
    }
    if let Some(base) = &class.base {
        reach(raw, &base.0, seen, problems);
    }
    let derived: Vec<String> = raw
        .types
        .iter()
        .filter(|t| t.base.as_ref().is_some_and(|b| b.0 == name))
        .map(|t| t.name.0.clone())
        .collect();
    for d in derived {
        reach(raw, &d, seen, problems);
    }
}
