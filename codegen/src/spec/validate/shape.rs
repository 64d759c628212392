//! The checks of an operation's shape: bare parameter style, roots (`[XmlRoot]`) and the
//! HTTP methods it is offered on.

use super::*;

/// Bare operations (`style: bare`): their parameters and results are global elements of the
/// schema, so each name holds one type and names no wrapper element; out parameters, which
/// ASMX would add as further parts, are not supported with it.
pub(super) fn check_bare(
    c: &mut Checker<'_, '_>,
    raw: &RawSpec,
    places: &[OpPlaces],
    loc: &Locator<'_>,
) {
    // The wrapper elements of the wrapped operations.
    let mut wrappers = HashSet::new();
    for op in &raw.operations {
        if op.style == crate::spec::ParameterStyle::Wrapped {
            wrappers.insert(op.request_wrapper().to_owned());
            wrappers.insert(op.response_wrapper());
        }
    }
    // Each global element of a bare operation: its type and the operation that declares it.
    let mut elements: HashMap<String, (String, String)> = HashMap::new();
    for (op, place) in raw.operations.iter().zip(places) {
        if op.style != crate::spec::ParameterStyle::Bare {
            continue;
        }
        let name = op.name.0.as_str();
        let op_at = place.lines.map(|l| loc.op_start(l));
        let anchor = place.name.or(op_at);
        let style_at = place.lines.and_then(|l| loc.op_key(l, "style"));
        if !op.out.is_empty() {
            c.push(
                style_at,
                anchor,
                format!(
                    "operation {name:?} is bare and has out parameters; rmm supports out \
                     parameters on wrapped operations only"
                ),
            );
        }
        // The result's element: `{name}Result`, or `result_element:`'s
        // (`[return: XmlElement(Name)]`).
        let result = (op.result.0 != "void").then(|| {
            let element = op
                .result_element
                .as_ref()
                .map_or_else(|| format!("{name}Result"), |e| e.0.clone());
            (element, &op.result.0)
        });
        let declared = op
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.clone(), &p.ty, place.params.as_ref().map(|v| v[i].0)))
            .chain(result.map(|(n, ty)| (n, ty, style_at)));
        for (element, ty, at) in declared {
            if wrappers.contains(&element) {
                c.push(
                    at,
                    anchor,
                    format!(
                        "the element {element:?} of bare operation {name:?} is also a wrapped \
                         operation's element; a schema declares each element once: rename the \
                         parameter"
                    ),
                );
                continue;
            }
            match elements.get(&element) {
                Some((other_ty, other_op)) if other_ty != ty => c.push(
                    at,
                    anchor,
                    format!(
                        "the element {element:?} of bare operation {name:?} is {ty} there and \
                         {other_ty} in operation {other_op:?}; a schema declares each element \
                         once, with one type"
                    ),
                ),
                Some(_) => {}
                None => {
                    elements.insert(element, (ty.clone(), name.to_owned()));
                }
            }
        }
    }
}

/// Classes with `root:` (`[XmlRoot]`): the root is an XML name; XmlSerializer names a
/// method's parameter or result of such a class after it, so a parameter of it must carry that
/// name. rmm supports it on wrapped operations' parameters and results, for classes that take
/// no part in inheritance.
pub(super) fn check_roots(
    c: &mut Checker<'_, '_>,
    raw: &RawSpec,
    places: &[OpPlaces],
    loc: &Locator<'_>,
) {
    let types_at = loc.top_key_pos("types");
    let lines = loc.top_items("types", raw.types.len());
    let mut roots: HashMap<&str, &str> = HashMap::new();
    for (i, class) in raw.types.iter().enumerate() {
        let Some(root) = &class.root else { continue };
        let name = class.name.0.as_str();
        let item_at = lines.as_ref().map(|l| loc.op_start(l[i])).or(types_at);
        let at = lines
            .as_ref()
            .and_then(|l| loc.op_value(l[i], "root", &root.0))
            .or(item_at);
        if !c.ncname(&root.0, &format!("the root of type {name:?}"), at, item_at) {
            continue;
        }
        let derived = raw.has_derived(name);
        if class.base.is_some() || derived || class.is_abstract {
            c.push(
                at,
                item_at,
                format!(
                    "type {name:?} has a root and takes part in inheritance, which rmm does not \
                     carry yet"
                ),
            );
            continue;
        }
        // Each root is an element of the schema (an HTTP result's, at least): one type each.
        let taken = roots
            .iter()
            .find(|(_, r)| **r == root.0)
            .map(|(class, _)| format!("the root of type {class:?}"))
            .or_else(|| {
                let other_class = raw
                    .types
                    .iter()
                    .any(|t| t.name.0 == root.0 && t.name.0 != name);
                let an_enum = raw.enums.iter().any(|e| e.name.0 == root.0);
                (other_class || an_enum).then(|| "the name of a type".to_owned())
            });
        if let Some(taken) = taken {
            c.push(
                at,
                item_at,
                format!(
                    "the root {:?} of type {name:?} is also {taken}; a schema declares each \
                     element once",
                    root.0
                ),
            );
            continue;
        }
        roots.insert(name, &root.0);
    }
    for (op, place) in raw.operations.iter().zip(places) {
        let name = op.name.0.as_str();
        let op_at = place.lines.map(|l| loc.op_start(l));
        let anchor = place.name.or(op_at);
        let bare = op.style == crate::spec::ParameterStyle::Bare;
        for (i, p) in op.params.iter().enumerate() {
            let Some(&root) = roots.get(p.ty.as_str()) else {
                continue;
            };
            let at = place.params.as_ref().map(|v| v[i].0);
            if bare {
                c.push(
                    at,
                    anchor,
                    format!(
                        "parameter {:?} of bare operation {name:?} is of type {:?}, which has a \
                         root; rmm supports roots on wrapped operations only",
                        p.name, p.ty
                    ),
                );
            } else if p.name != root {
                c.push(
                    at,
                    anchor,
                    format!(
                        "parameter {:?} of operation {name:?} is of type {:?}, whose root \
                         ([XmlRoot]) names it {root:?} on the wire: name it {root:?}",
                        p.name, p.ty
                    ),
                );
            }
        }
        let result_at = place.lines.and_then(|l| loc.op_key(l, "result"));
        if bare && roots.contains_key(op.result.0.as_str()) {
            c.push(
                result_at,
                anchor,
                format!(
                    "the result of bare operation {name:?} is of type {:?}, which has a root; \
                     rmm supports roots on wrapped operations only",
                    op.result.0
                ),
            );
        }
        if !op.out.is_empty() && roots.contains_key(op.result.0.as_str()) {
            c.push(
                result_at,
                anchor,
                format!(
                    "the result of operation {name:?} is of type {:?}, which has a root, beside \
                     out parameters; rmm does not support that yet",
                    op.result.0
                ),
            );
        }
        if let Some(out) = op.out.iter().find(|o| roots.contains_key(o.ty.as_str())) {
            c.push(
                place.lines.and_then(|l| loc.op_key(l, "out")),
                anchor,
                format!(
                    "out parameter {:?} of operation {name:?} is of type {:?}, which has a \
                     root; rmm does not support that yet",
                    out.name, out.ty
                ),
            );
        }
    }
}

/// Operations named by `[WebMethod(MessageName)]` (`method:`, an overload): the method is an
/// XML name other than the operation's own; an operation of the method's name is its overload
/// without a MessageName (a WSDL's messages and elements are named after the operations, the
/// port type's operations after the methods), and no operation of another method.
pub(super) fn check_methods(
    c: &mut Checker<'_, '_>,
    raw: &RawSpec,
    places: &[OpPlaces],
    loc: &Locator<'_>,
) {
    for (op, place) in raw.operations.iter().zip(places) {
        let Some(method) = &op.method else { continue };
        let name = op.name.0.as_str();
        let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
        let at = place
            .lines
            .and_then(|l| loc.op_value(l, "method", &method.0))
            .or(anchor);
        if !c.ncname(
            &method.0,
            &format!("the method of operation {name:?}"),
            at,
            anchor,
        ) {
            continue;
        }
        if method.0 == name {
            c.push(
                at,
                anchor,
                format!(
                    "operation {name:?} names its own name as its method; leave `method:` out \
                     where [WebMethod] has no MessageName"
                ),
            );
        } else if raw
            .operations
            .iter()
            // The overloaded method's other operation is named after it (no MessageName):
            // that is .NET's overload. One that names a method of its own is another method.
            .any(|o| o.name.0 == method.0 && o.method.is_some())
        {
            c.push(
                at,
                anchor,
                format!(
                    "the method {:?} of operation {name:?} is the name of an operation of \
                     another method; an operation named after a method is that method's \
                     (its overload without a MessageName)",
                    method.0
                ),
            );
        }
    }
}

/// Renamed wrappers and results (`request_element:`, `response_element:`, `result_element:`,
/// .NET's `[SoapDocumentMethod(RequestElementName, ResponseElementName)]` and
/// `[return: XmlElement(Name)]`): XML names, other than the defaults they replace, a wrapper
/// on a wrapped operation (a bare one has none), a result on an operation that has one (and
/// whose class has no root, which names it already); and no two operations' wrapper elements
/// of one name, as a schema declares each element once.
pub(super) fn check_renamed_elements(
    c: &mut Checker<'_, '_>,
    raw: &RawSpec,
    places: &[OpPlaces],
    loc: &Locator<'_>,
) {
    // Each wrapper element: the operation it is of, and whether the spec renamed it there.
    let mut wrappers: HashMap<String, (String, bool)> = HashMap::new();
    for (op, place) in raw.operations.iter().zip(places) {
        let name = op.name.0.as_str();
        let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
        let renamed = [
            ("request_element", &op.request_element, name.to_owned()),
            (
                "response_element",
                &op.response_element,
                format!("{name}Response"),
            ),
            (
                "result_element",
                &op.result_element,
                format!("{name}Result"),
            ),
        ];
        for (key, value, default) in &renamed {
            let Some(value) = value else { continue };
            let value = value.0.as_str();
            let at = place
                .lines
                .and_then(|l| loc.op_value(l, key, value))
                .or(anchor);
            if !c.ncname(
                value,
                &format!("the {key} of operation {name:?}"),
                at,
                anchor,
            ) {
                continue;
            }
            let problem = if value == default {
                Some(format!("is the default, {default:?}: leave `{key}:` out"))
            } else if op.style == crate::spec::ParameterStyle::Bare && *key != "result_element" {
                Some("is given on a bare operation, which has no wrapper (a bare result's element may be renamed: `result_element:`)".to_owned())
            } else if *key == "result_element" && op.result.0 == "void" {
                Some("is given on an operation without a result".to_owned())
            } else if *key == "result_element"
                && raw
                    .types
                    .iter()
                    .any(|t| t.name.0 == op.result.0 && t.root.is_some())
            {
                Some("is given on a result whose class has a root ([XmlRoot]), which names it already".to_owned())
            } else if *key == "result_element" && op.out.iter().any(|o| o.name == value) {
                Some("is also an out parameter's name".to_owned())
            } else {
                None
            };
            if let Some(problem) = problem {
                c.push(
                    at,
                    anchor,
                    format!("the {key} {value:?} of operation {name:?} {problem}"),
                );
            }
        }
        if op.style == crate::spec::ParameterStyle::Bare {
            continue;
        }
        let elements = [
            (
                op.request_wrapper().to_owned(),
                "request_element",
                op.request_element.is_some(),
            ),
            (
                op.response_wrapper(),
                "response_element",
                op.response_element.is_some(),
            ),
        ];
        for (element, key, renamed) in elements {
            match wrappers.get(&element) {
                // Two operations of one name: refused as such.
                Some((_, other_renamed)) if !renamed && !other_renamed => {}
                Some((other, _)) => {
                    let at = place
                        .lines
                        .and_then(|l| loc.op_value(l, key, &element))
                        .or(anchor);
                    c.push(
                        at,
                        anchor,
                        format!(
                            "the wrapper element {element:?} of operation {name:?} is also one of \
                             operation {other:?}; a schema declares each element once"
                        ),
                    );
                }
                None => {
                    wrappers.insert(element, (name.to_owned(), renamed));
                }
            }
        }
    }
}

/// SOAPActions of the service's own (`action:`, `[SoapDocumentMethod(Action)]`): a header
/// value (no quote, no control character, not empty: rmm routes by it), other than the
/// default it replaces, and each operation's its own, as ASMX's table of actions needs.
pub(super) fn check_actions(
    c: &mut Checker<'_, '_>,
    raw: &RawSpec,
    places: &[OpPlaces],
    loc: &Locator<'_>,
) {
    let ns = raw.service.namespace.as_str();
    let mut seen: HashMap<String, &str> = HashMap::new();
    for (op, place) in raw.operations.iter().zip(places) {
        let name = op.name.0.as_str();
        let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
        let default = if ns.ends_with('/') {
            format!("{ns}{name}")
        } else {
            format!("{ns}/{name}")
        };
        let action = op.action.clone().unwrap_or_else(|| default.clone());
        let at = place.lines.and_then(|l| loc.op_key(l, "action")).or(anchor);
        if op.action.is_some() {
            let problem = if action.is_empty() {
                Some("is empty; rmm routes a request by its action".to_owned())
            } else if action.chars().any(|ch| ch == '"' || ch.is_control()) {
                Some(
                    "holds a quote or a control character, which an HTTP header cannot carry"
                        .to_owned(),
                )
            } else if action == default {
                Some(format!("is the default, {default:?}: leave `action:` out"))
            } else {
                None
            };
            if let Some(problem) = problem {
                c.push(
                    at,
                    anchor,
                    format!("the action of operation {name:?} {problem}"),
                );
                continue;
            }
        }
        if let Some(other) = seen.get(&action).filter(|other| **other != name) {
            // (Two operations of one name are refused as such.)
            c.push(
                at,
                anchor,
                format!(
                    "operation {name:?} has the action {action:?} of operation {other:?}; each \
                     operation's action is its own (a request is routed by it)"
                ),
            );
        } else {
            seen.insert(action, name);
        }
    }
}
