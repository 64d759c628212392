//! The checks of classes of another namespace (`namespace:`): SOAP header classes of
//! WS-Security's or ebXML's kind and the classes they hold.

use super::*;

/// Classes of another namespace (`namespace:`): SOAP header classes of WS-Security's or
/// ebXML's kind and the classes they hold, their members qualified in their namespace. rmm
/// carries them as headers (and members of classes of the same namespace) only, of simple
/// types and classes of that namespace, outside inheritance.
pub(super) fn check_namespaces(
    c: &mut Checker<'_, '_>,
    raw: &RawSpec,
    places: &[OpPlaces],
    loc: &Locator<'_>,
) {
    let types_at = loc.top_key_pos("types");
    let lines = loc.top_items("types", raw.types.len());
    // The class a type spelling names (`Inner`, `Inner[]`, `Inner?`), and its namespace.
    let foreign = |ty: &str| {
        let name = ty
            .trim_end_matches('?')
            .trim_end_matches("[]")
            .trim_end_matches('?');
        raw.types
            .iter()
            .find(|t| t.name.0 == name)
            .and_then(|t| t.namespace.as_deref().map(|ns| (t.name.0.as_str(), ns)))
    };
    for (i, class) in raw.types.iter().enumerate() {
        let name = class.name.0.as_str();
        let at = lines.as_ref().map(|l| loc.op_start(l[i])).or(types_at);
        let own = class.namespace.as_deref();
        if let Some(ns) = own {
            if let Some(problem) = namespace_problem(ns, raw) {
                c.push(at, types_at, format!("type {name:?} {problem}"));
            }
            let derived = raw.has_derived(name);
            if class.base.is_some() || derived || class.is_abstract || class.root.is_some() {
                c.push(
                    at,
                    types_at,
                    format!(
                        "type {name:?} of the namespace {ns:?} takes part in inheritance or has \
                         a root; rmm carries a class of another namespace as a SOAP header \
                         (and the classes it holds) only"
                    ),
                );
            }
        }
        for member in &class.members {
            let ty = member.ty.as_str();
            // An unwrapped array's items are the member's own elements, of its class's
            // namespace; a wrapped one's type (`ArrayOfX`) would be of that namespace too.
            let unwrapped_item = member
                .unwrapped
                .then(|| ty.trim_end_matches("[]"))
                .filter(|item| !item.ends_with("[]"));
            let problem = match (own, foreign(unwrapped_item.unwrap_or(ty))) {
                (Some(_), _) if ty.ends_with("[]") && unwrapped_item.is_none() => Some(
                    "an array with a wrapper, which rmm does not carry in a class of another \
                     namespace yet (an unwrapped one it does)"
                        .to_owned(),
                ),
                (Some(_), _) if unwrapped_item == Some("object") => Some(
                    "an array of objects, which rmm does not carry in a class of another \
                     namespace yet (an object it does)"
                        .to_owned(),
                ),
                (Some(_), _) if matches!(ty, "xml" | "xmlNode" | "dataSet" | "dataTable") => Some(
                    format!("{ty}, which rmm does not carry in a class of another namespace yet"),
                ),
                (Some(ns), Some((other, other_ns))) if ns != other_ns => Some(format!(
                    "the class {other:?} of the namespace {other_ns:?}, another than its own \
                     {ns:?}"
                )),
                (None, Some((other, other_ns))) => Some(format!(
                    "the class {other:?} of the namespace {other_ns:?}; a class of another \
                     namespace serves as a SOAP header (and in its own classes) only"
                )),
                _ => None,
            };
            if let Some(problem) = problem {
                c.push(
                    at,
                    types_at,
                    format!("member {:?} of type {name:?} is {problem}", member.name),
                );
            }
        }
    }
    // Enums of another namespace: the WSDL declares them in a schema of it; the wire never
    // shows it (a value is text in its member's element).
    let enums_at = loc.top_key_pos("enums");
    for e in &raw.enums {
        let Some(ns) = e.namespace.as_deref() else {
            continue;
        };
        let name = e.name.0.as_str();
        let at = loc.enum_name(name).or(enums_at);
        if let Some(problem) = namespace_problem(ns, raw) {
            c.push(at, enums_at, format!("enum {name:?} {problem}"));
        } else if raw.service.style == crate::spec::ServiceStyle::Rpc {
            c.push(
                at,
                enums_at,
                format!(
                    "enum {name:?} has the namespace {ns:?}; an rpc service's types are of its \
                     own namespace (SOAP encoding's schema), which rmm carries only"
                ),
            );
        }
    }
    for (op, place) in raw.operations.iter().zip(places) {
        let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
        let used = op
            .params
            .iter()
            .chain(&op.out)
            .map(|p| (p.name.as_str(), p.ty.as_str()))
            .chain(std::iter::once(("the result", op.result.0.as_str())));
        for (what, ty) in used {
            if let Some((class, ns)) = foreign(ty) {
                c.push(
                    anchor,
                    anchor,
                    format!(
                        "operation {:?}: {what} is of the class {class:?} of the namespace \
                         {ns:?}; a class of another namespace serves as a SOAP header only",
                        op.name.0
                    ),
                );
            }
        }
    }
}

/// What is wrong with `ns` as a type's namespace (`namespace:`), if anything: it must be
/// visible ASCII that needs no escaping, and not the service's.
fn namespace_problem(ns: &str, raw: &RawSpec) -> Option<String> {
    if let Some(bad) = ns
        .chars()
        .find(|ch| ch.is_whitespace() || "<>&\"'\\".contains(*ch))
    {
        return Some(format!(
            "has the namespace {ns:?}, which contains {bad:?}; a namespace is visible ASCII \
             without any of < > & \" ' \\"
        ));
    }
    (ns.trim().is_empty() || ns == raw.service.namespace).then(|| {
        format!(
            "has the namespace {ns:?}: a type's namespace is one other than the service's; \
             leave it out for the service's"
        )
    })
}
