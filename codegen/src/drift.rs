//! Drift: how a service (its WSDL, imported) differs from the spec a crate was made from.
//!
//! Both sides are specs ([`crate::spec::Spec`]): the committed one, and the one the service's
//! WSDL imports to. What a WSDL cannot carry (docs, credential lists, secrets, .NET member
//! names of enums, `list`, the names of `[XmlAnyElement]` and `[XmlAnyAttribute]` members) is
//! not compared; everything else is, each difference named once where it is.

use crate::spec::{HeaderDirection, Param, Spec};

/// One difference between the spec and the service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// Its kind, for a machine: `operation-added`, `operation-withdrawn`, `parameter-added`,
    /// `parameter-removed`, `parameters-reordered`, `parameter-retyped`, `result-retyped`,
    /// `out-changed`, `element-renamed`, `binding-offered`, `binding-withdrawn`, `header-changed`,
    /// `namespace-changed`, `path-changed`, `name-changed`, `enum-added`, `enum-withdrawn`,
    /// `enum-values-changed`, `type-added`, `type-withdrawn`, `member-added`,
    /// `member-removed`, `member-retyped`, `members-reordered`, `type-changed`,
    /// `data-set-changed`, `style-changed`, `action-changed`.
    pub kind: &'static str,
    /// What it is about (`operation MobileTaskCreate`, `type Order`).
    pub subject: String,
    /// What differs, for a person: the spec's side, then the service's.
    pub message: String,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.subject, self.message)
    }
}

/// A service style as a spec spells it.
fn style_name(style: crate::spec::ServiceStyle) -> &'static str {
    match style {
        crate::spec::ServiceStyle::Document => "document/literal",
        crate::spec::ServiceStyle::Rpc => "rpc/encoded (style: rpc)",
    }
}

/// Every difference between `spec` (the committed spec) and `service` (the service's WSDL,
/// imported), in the spec's order: the service, the operations, the enums, the types, the
/// typed DataSets.
pub fn differences(spec: &Spec, service: &Spec) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut push = |kind: &'static str, subject: String, message: String| {
        out.push(Difference {
            kind,
            subject,
            message,
        })
    };
    let (ours, theirs) = (&spec.service, &service.service);
    if ours.name != theirs.name {
        push(
            "name-changed",
            "service".into(),
            format!(
                "named {:?} in the spec, {:?} by the service",
                ours.name, theirs.name
            ),
        );
    }
    if ours.namespace != theirs.namespace {
        push(
            "namespace-changed",
            "service".into(),
            format!(
                "namespace {:?} in the spec, {:?} by the service",
                ours.namespace, theirs.namespace
            ),
        );
    }
    if ours.path != theirs.path {
        push(
            "path-changed",
            "service".into(),
            format!(
                "path {:?} in the spec, {:?} by the service",
                ours.path, theirs.path
            ),
        );
    }

    if ours.style != theirs.style {
        push(
            "style-changed",
            "service".into(),
            format!(
                "{} in the spec, {} by the service",
                style_name(ours.style),
                style_name(theirs.style)
            ),
        );
    }

    // The JSON face ([ScriptService]): whether the service has one, its classes' namespace
    // (their `__type` hints), and below which operations take GET.
    match (&ours.script, &theirs.script) {
        (None, Some(_)) => push(
            "script-added",
            "service".into(),
            "the service answers JSON calls ([ScriptService], its /js proxy); the spec has no \
             `script:`"
                .into(),
        ),
        (Some(_), None) => push(
            "script-withdrawn",
            "service".into(),
            "`script:` in the spec; the service answers no JSON calls (no /js proxy)".into(),
        ),
        (Some(a), Some(b)) if a.namespace != b.namespace => push(
            "script-namespace-changed",
            "service".into(),
            format!(
                "its classes' .NET namespace (their __type hints) is {:?} in the spec, {:?} by \
                 the service",
                a.namespace.as_deref().unwrap_or(""),
                b.namespace.as_deref().unwrap_or("")
            ),
        ),
        _ => {}
    }

    // Operations.
    for op in &spec.operations {
        let subject = format!("operation {}", op.name);
        let Some(other) = service.operations.iter().find(|o| o.name == op.name) else {
            push(
                "operation-withdrawn",
                subject,
                "in the spec, not offered by the service".into(),
            );
            continue;
        };
        params(
            &mut push,
            &subject,
            "parameter",
            (spec, &op.params),
            (service, &other.params),
        );
        let result = |s: &Spec, ty, nullable: bool| {
            format!("{}{}", s.type_name(ty), if nullable { "?" } else { "" })
        };
        let (a, b) = (
            result(spec, op.result, op.result_nullable),
            result(service, other.result, other.result_nullable),
        );
        if a != b {
            push(
                "result-retyped",
                subject.clone(),
                format!("the result is {a} in the spec, {b} by the service"),
            );
        }
        params(
            &mut push,
            &subject,
            "out parameter",
            (spec, &op.outs),
            (service, &other.outs),
        );
        // The wrappers' and the result's elements, where either side renames them.
        for (what, default, a, b) in [
            (
                "request wrapper",
                op.name.clone(),
                &op.request_element,
                &other.request_element,
            ),
            (
                "response wrapper",
                format!("{}Response", op.name),
                &op.response_element,
                &other.response_element,
            ),
            (
                "result element",
                format!("{}Result", op.name),
                &op.result_element,
                &other.result_element,
            ),
        ] {
            if a != b {
                let (a, b) = (
                    a.as_deref().unwrap_or(&default),
                    b.as_deref().unwrap_or(&default),
                );
                push(
                    "element-renamed",
                    subject.clone(),
                    format!("the {what} is {a} in the spec, {b} by the service"),
                );
            }
        }
        // The SOAPAction a request is routed by, the style, and an rpc operation's
        // namespaces.
        let default_action = if spec.service.namespace.ends_with('/') {
            format!("{}{}", spec.service.namespace, op.name)
        } else {
            format!("{}/{}", spec.service.namespace, op.name)
        };
        if op.action != other.action {
            push(
                "action-changed",
                subject.clone(),
                format!(
                    "the SOAPAction is {:?} in the spec, {:?} by the service",
                    op.action.as_deref().unwrap_or(&default_action),
                    other.action.as_deref().unwrap_or(&default_action)
                ),
            );
        }
        if ours.script.is_some() && theirs.script.is_some() && op.script_get != other.script_get {
            let verb = |get: bool| if get { "GET" } else { "POST" };
            push(
                "script-verb-changed",
                subject.clone(),
                format!(
                    "called over JSON with {} in the spec, with {} by the service \
                     ([ScriptMethod(UseHttpGet)])",
                    verb(op.script_get),
                    verb(other.script_get)
                ),
            );
        }
        if op.style != other.style {
            push(
                "style-changed",
                subject.clone(),
                format!(
                    "its style is {:?} in the spec, {:?} by the service",
                    op.style, other.style
                ),
            );
        }
        for (what, a, b) in [
            ("request", &op.request_namespace, &other.request_namespace),
            (
                "response",
                &op.response_namespace,
                &other.response_namespace,
            ),
        ] {
            if a != b {
                let ns = &spec.service.namespace;
                push(
                    "namespace-changed",
                    subject.clone(),
                    format!(
                        "the {what} element's namespace is {:?} in the spec, {:?} by the service",
                        a.as_deref().unwrap_or(ns),
                        b.as_deref().unwrap_or(ns)
                    ),
                );
            }
        }
        for binding in &op.bindings {
            if !other.bindings.contains(binding) {
                push(
                    "binding-withdrawn",
                    subject.clone(),
                    format!(
                        "offered over {} in the spec, not by the service",
                        binding.name()
                    ),
                );
            }
        }
        for binding in &other.bindings {
            if !op.bindings.contains(binding) {
                push(
                    "binding-offered",
                    subject.clone(),
                    format!(
                        "offered over {} by the service, not in the spec",
                        binding.name()
                    ),
                );
            }
        }
        // Each header with its direction; a WSDL declares a header written with a fault as it
        // declares one written with the response, so the two are one here.
        let headers = |s: &Spec, o: &crate::spec::Operation| -> Vec<String> {
            o.headers
                .iter()
                .map(|h| {
                    let direction = match h.direction {
                        HeaderDirection::In => "In",
                        HeaderDirection::Out | HeaderDirection::Fault => "Out",
                        HeaderDirection::InOut => "InOut",
                    };
                    format!("{}: {direction}", s.classes[usize::from(h.class)].name)
                })
                .collect()
        };
        let (a, b) = (headers(spec, op), headers(service, other));
        if a != b {
            push(
                "header-changed",
                subject.clone(),
                format!(
                    "SOAP headers [{}] in the spec, [{}] by the service",
                    a.join(", "),
                    b.join(", ")
                ),
            );
        }
    }
    only_in_service(
        &mut push,
        ("operation-added", "operation", "offered"),
        spec.operations.iter().map(|o| &o.name),
        service.operations.iter().map(|o| &o.name),
    );

    // Enums.
    for e in &spec.enums {
        let subject = format!("enum {}", e.name);
        match service.enums.iter().find(|o| o.name == e.name) {
            None => push(
                "enum-withdrawn",
                subject,
                "in the spec, not used by the service".into(),
            ),
            Some(other) => {
                let added: Vec<&str> = other
                    .values
                    .iter()
                    .filter(|v| !e.values.contains(v))
                    .map(String::as_str)
                    .collect();
                let removed: Vec<&str> = e
                    .values
                    .iter()
                    .filter(|v| !other.values.contains(v))
                    .map(String::as_str)
                    .collect();
                if !added.is_empty() || !removed.is_empty() || e.flags != other.flags {
                    push(
                        "enum-values-changed",
                        subject,
                        format!(
                            "values added by the service: [{}]; removed: [{}]{}",
                            added.join(", "),
                            removed.join(", "),
                            if e.flags != other.flags {
                                "; flags changed"
                            } else {
                                ""
                            }
                        ),
                    );
                }
            }
        }
    }
    only_in_service(
        &mut push,
        ("enum-added", "enum", "used"),
        spec.enums.iter().map(|e| &e.name),
        service.enums.iter().map(|e| &e.name),
    );

    // Classes.
    for class in &spec.classes {
        let subject = format!("type {}", class.name);
        let Some(other) = service.classes.iter().find(|c| c.name == class.name) else {
            // The session's class (`session:`) lives on the server; no WSDL shows it.
            if ours.session.as_deref() == Some(class.name.as_str()) {
                continue;
            }
            push(
                "type-withdrawn",
                subject,
                "in the spec, not used by the service".into(),
            );
            continue;
        };
        let base = |s: &Spec, c: &crate::spec::ClassDef| {
            c.base
                .map(|b| s.classes[usize::from(b)].name.clone())
                .unwrap_or_default()
        };
        let shape = |s: &Spec, c: &crate::spec::ClassDef| {
            format!(
                "base {:?}, abstract {}, root {:?}, namespace {:?}, text {:?}, any attribute {:?}",
                base(s, c),
                c.is_abstract,
                c.root,
                c.namespace,
                c.text.map(|t| s.type_name(t)),
                c.any_attribute
            )
        };
        let (a, b) = (shape(spec, class), shape(service, other));
        if a != b {
            push(
                "type-changed",
                subject.clone(),
                format!("{a} in the spec; {b} by the service"),
            );
        }
        members(
            &mut push,
            &subject,
            "attribute",
            (spec, &class.attributes),
            (service, &other.attributes),
        );
        members(
            &mut push,
            &subject,
            "member",
            (spec, &class.members),
            (service, &other.members),
        );
    }
    only_in_service(
        &mut push,
        ("type-added", "type", "used"),
        spec.classes.iter().map(|c| &c.name),
        service.classes.iter().map(|c| &c.name),
    );

    // Typed DataSets.
    for set in &spec.data_sets {
        let subject = format!("data set {}", set.name);
        match service.data_sets.iter().find(|d| d.name == set.name) {
            None => push(
                "data-set-changed",
                subject,
                "in the spec, not used by the service".into(),
            ),
            Some(other)
                if (&other.namespace, &other.locale, &other.tables)
                    != (&set.namespace, &set.locale, &set.tables) =>
            {
                push(
                    "data-set-changed",
                    subject,
                    "its namespace, locale, tables or columns differ from the spec's".into(),
                )
            }
            Some(_) => {}
        }
    }
    only_in_service(
        &mut push,
        ("data-set-added", "data set", "used"),
        spec.data_sets.iter().map(|d| &d.name),
        service.data_sets.iter().map(|d| &d.name),
    );
    out
}

/// Names each of the service's `what`s (`(kind, what, verb)`: `operation`, offered; `enum`,
/// used) the spec does not have.
fn only_in_service<'a>(
    push: &mut impl FnMut(&'static str, String, String),
    (kind, what, verb): (&'static str, &str, &str),
    spec: impl Iterator<Item = &'a String> + Clone,
    service: impl Iterator<Item = &'a String>,
) {
    for name in service {
        if !spec.clone().any(|ours| ours == name) {
            push(
                kind,
                format!("{what} {name}"),
                format!("{verb} by the service, not in the spec"),
            );
        }
    }
}

/// A parameter or member as the spec spells it: `name: type` (`?` for nullable), then the
/// member's options a WSDL shows, in parentheses (`list: true` is not one: its WSDL is an
/// array's).
fn param_text(s: &Spec, p: &Param) -> String {
    let mut options = Vec::new();
    for (set, name) in [
        (p.unwrapped, "unwrapped"),
        (p.optional, "optional"),
        (p.any, "any"),
        (p.unqualified, "unqualified"),
        (p.qualified, "qualified"),
    ] {
        if set {
            options.push(name.to_owned());
        }
    }
    for (value, name) in [
        (&p.default, "default"),
        (&p.namespace, "namespace"),
        (&p.data_type, "data_type"),
    ] {
        if let Some(value) = value {
            options.push(format!("{name} {value:?}"));
        }
    }
    format!(
        "{}: {}{}{}",
        p.name,
        s.type_name(p.ty),
        if p.nullable { "?" } else { "" },
        if options.is_empty() {
            String::new()
        } else {
            format!(" ({})", options.join(", "))
        }
    )
}

/// The differences of two lists of parameters (`what`: `parameter`, `out parameter`).
fn params(
    push: &mut impl FnMut(&'static str, String, String),
    subject: &str,
    what: &str,
    (spec, ours): (&Spec, &[Param]),
    (service, theirs): (&Spec, &[Param]),
) {
    let out_list = what == "out parameter";
    compare_lists(
        push,
        subject,
        what,
        (spec, ours),
        (service, theirs),
        if out_list {
            ("out-changed", "out-changed", "out-changed", "out-changed")
        } else {
            (
                "parameter-added",
                "parameter-removed",
                "parameter-retyped",
                "parameters-reordered",
            )
        },
    );
}

/// The differences of two lists of class members or attributes.
fn members(
    push: &mut impl FnMut(&'static str, String, String),
    subject: &str,
    what: &str,
    (spec, ours): (&Spec, &[Param]),
    (service, theirs): (&Spec, &[Param]),
) {
    compare_lists(
        push,
        subject,
        what,
        (spec, ours),
        (service, theirs),
        (
            "member-added",
            "member-removed",
            "member-retyped",
            "members-reordered",
        ),
    );
}

/// Names the entries added, removed and retyped, and a changed order of those both have.
fn compare_lists(
    push: &mut impl FnMut(&'static str, String, String),
    subject: &str,
    what: &str,
    (spec, ours): (&Spec, &[Param]),
    (service, theirs): (&Spec, &[Param]),
    (added, removed, retyped, reordered): (&'static str, &'static str, &'static str, &'static str),
) {
    for p in ours {
        match theirs.iter().find(|t| t.name == p.name) {
            None => push(
                removed,
                subject.to_owned(),
                format!(
                    "{what} {} is in the spec, not taken by the service",
                    param_text(spec, p)
                ),
            ),
            Some(t) if param_text(spec, p) != param_text(service, t) => push(
                retyped,
                subject.to_owned(),
                format!(
                    "{what} {} in the spec is {} by the service",
                    param_text(spec, p),
                    param_text(service, t)
                ),
            ),
            Some(_) => {}
        }
    }
    for t in theirs {
        if !ours.iter().any(|p| p.name == t.name) {
            push(
                added,
                subject.to_owned(),
                format!(
                    "{what} {} is taken by the service, not in the spec",
                    param_text(service, t)
                ),
            );
        }
    }
    let common = |list: &[Param], other: &[Param]| -> Vec<String> {
        list.iter()
            .filter(|p| other.iter().any(|o| o.name == p.name))
            .map(|p| p.name.clone())
            .collect()
    };
    let (a, b) = (common(ours, theirs), common(theirs, ours));
    if a != b {
        push(
            reordered,
            subject.to_owned(),
            format!(
                "{what}s in the order ({}) in the spec, ({}) by the service",
                a.join(", "),
                b.join(", ")
            ),
        );
    }
}
