//! The checks of SOAP headers: the classes operations name in `headers:` and how.

use super::*;

/// SOAP headers (`headers:`, `[SoapHeader]` in any direction): each a class of `types:`
/// named once per operation, of members only (no inheritance, attributes or text, which rmm
/// does not carry in a header yet), used as a header and nothing else (its schema type takes
/// any attribute), whose element (named after it) is no operation's; on wrapped operations.
pub(super) fn check_headers(
    c: &mut Checker<'_, '_>,
    raw: &RawSpec,
    places: &[OpPlaces],
    loc: &Locator<'_>,
) {
    let headers: HashSet<&str> = raw
        .operations
        .iter()
        .flat_map(|op| op.headers.iter().map(|h| h.class.as_str()))
        .collect();
    let class = |name: &str| raw.types.iter().find(|t| t.name.0 == name);
    for (op, place) in raw.operations.iter().zip(places) {
        let name = op.name.0.as_str();
        let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
        let at = place
            .lines
            .and_then(|l| loc.op_key(l, "headers"))
            .or(anchor);
        let mut seen = HashSet::new();
        for header in &op.headers {
            let h = header.class.as_str();
            let Some(def) = class(h) else {
                c.push(
                    at,
                    anchor,
                    format!(
                        "operation {name:?} names the header {h:?}, which is no type of `types:`; \
                         a SOAP header is a class"
                    ),
                );
                continue;
            };
            if !seen.insert(h) {
                c.push(
                    at,
                    anchor,
                    format!("operation {name:?} names the header {h:?} twice"),
                );
            }
            let derived = raw.has_derived(h);
            if def.base.is_some() || derived || def.is_abstract || def.text.is_some() {
                c.push(
                    at,
                    anchor,
                    format!(
                        "the header {h:?} of operation {name:?} takes part in inheritance or has \
                         text, which rmm does not carry in a header yet"
                    ),
                );
            }
            // The block's element: the class's root ([XmlRoot]), else its name.
            let block = def.root.as_ref().map_or(h, |r| r.0.as_str());
            if raw.operations.iter().any(|o| {
                let request = o.request_element.as_ref().map_or(&o.name.0, |w| &w.0);
                let response = o
                    .response_element
                    .as_ref()
                    .map_or_else(|| format!("{}Response", o.name.0), |w| w.0.clone());
                request == block || response == block
            }) {
                c.push(
                    at,
                    anchor,
                    format!(
                        "the header {h:?} of operation {name:?} is named like an operation's \
                         element; a schema declares each element once"
                    ),
                );
            }
        }
        // A header class is a header only: its schema type differs from a class's.
        let used = op
            .params
            .iter()
            .chain(&op.out)
            .map(|p| (p.name.as_str(), p.ty.as_str()))
            .chain(std::iter::once(("the result", op.result.0.as_str())));
        for (what, ty) in used {
            let base = ty.trim_end_matches("[]").trim_end_matches('?');
            if headers.contains(base) {
                c.push(
                    at,
                    anchor,
                    format!(
                        "{what:?} of operation {name:?} is of type {base:?}, a SOAP header; rmm \
                         takes a header class as a header only"
                    ),
                );
            }
        }
    }
    let lines = loc.top_items("types", raw.types.len());
    for (i, class) in raw.types.iter().enumerate() {
        let item_at = lines
            .as_ref()
            .map(|l| loc.op_start(l[i]))
            .or(loc.top_key_pos("types"));
        for member in class.members.iter().chain(&class.attributes) {
            let base = member.ty.trim_end_matches("[]").trim_end_matches('?');
            if headers.contains(base) {
                c.push(
                    item_at,
                    item_at,
                    format!(
                        "member {:?} of type {:?} is of type {base:?}, a SOAP header; rmm takes a \
                         header class as a header only",
                        member.name, class.name.0
                    ),
                );
            }
        }
    }
}
