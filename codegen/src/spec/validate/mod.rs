//! The semantic checks run on a spec that parsed: every problem found, each located in the
//! source where the scanner can find it.

use std::collections::{HashMap, HashSet};

use super::locate::{Locator, OpLines, Pos};
use super::raw::RawSpec;
use super::{ArrayDef, SoapType};

mod classes;
mod data_sets;
mod encoded;
mod headers;
mod names;
mod namespaces;
mod raw_xml;
mod script;
mod session;
mod shape;

use classes::check_classes;
use data_sets::check_data_sets;
use encoded::check_rpc;
use headers::check_headers;
use names::{
    array_over_http, crate_name_problem, nullable_problem, soap_type, type_name, unknown_type_hint,
};
// The import refuses, by the same rule, a name the generator would refuse.
pub(super) use names::{column_type, default_crate_name, nullable, soap_type_with_item, TypeNames};
pub(crate) use names::{ncname_problem, NCNAME_RULE};
use namespaces::check_namespaces;
use raw_xml::check_raw_xml;
use script::check_script;
use session::check_session;
use shape::{check_actions, check_bare, check_methods, check_renamed_elements, check_roots};

/// Characters that would need escaping where the namespace and path are spliced into XML,
/// HTML and header values.
const MARKUP: &str = "<>&\"'\\";

/// Why `ns` cannot be the service's namespace: each problem (none when it can). The import
/// refuses a WSDL by the same rule.
pub(crate) fn namespace_problems(ns: &str) -> Vec<String> {
    if ns.is_empty() {
        return vec!["service namespace is empty".to_owned()];
    }
    if ns.chars().any(char::is_whitespace) {
        return vec![format!("service namespace {ns:?} contains whitespace")];
    }
    // The namespace is spliced into precomputed XML and headers; a URI never needs these.
    ns.chars()
        .find(|ch| MARKUP.contains(*ch) || !ch.is_ascii_graphic())
        .map(|bad| {
            format!(
                "service namespace {ns:?} contains {bad:?}; a namespace must be visible ASCII \
                 without any of < > & \" ' \\"
            )
        })
        .into_iter()
        .collect()
}

/// Why `path` cannot be the service's path: each problem (none when it can). The import
/// refuses a WSDL by the same rule.
pub(crate) fn path_problems(path: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if !path.starts_with('/') {
        problems.push(format!("service path {path:?} must start with '/'"));
    }
    if let Some(bad) = path.chars().find(|&ch| ch == '?' || ch == '#') {
        problems.push(format!(
            "service path {path:?} contains {bad:?}; a path has no query or fragment"
        ));
    }
    if path.chars().any(char::is_whitespace) {
        problems.push(format!("service path {path:?} contains whitespace"));
    } else if let Some(bad) = path
        .chars()
        .find(|ch| MARKUP.contains(*ch) || !ch.is_ascii())
    {
        problems.push(format!(
            "service path {path:?} contains {bad:?}; a path must be ASCII without any of < > & \" ' \\"
        ));
    }
    problems
}

/// One problem found by the validator.
pub(super) struct Issue {
    /// Where the offending item is written, if found.
    pub at: Option<Pos>,
    /// Where to sort it among the others: `at`, or the enclosing item when `at` is unknown.
    anchor: Option<Pos>,
    pub message: String,
}

/// Where an operation and its parts are written, as far as the scanner found them.
struct OpPlaces {
    lines: Option<OpLines>,
    name: Option<Pos>,
    /// Name and type position of each param, by index.
    params: Option<Vec<(Pos, Pos)>>,
}

/// Collects issues.
struct Checker<'s, 'a> {
    loc: &'s Locator<'a>,
    issues: Vec<Issue>,
}

impl Checker<'_, '_> {
    fn push(&mut self, at: Option<Pos>, anchor: Option<Pos>, message: String) {
        self.issues.push(Issue {
            at,
            anchor: at.or(anchor),
            message,
        });
    }

    /// Reports `name` if it is not an XML name; `subject` names it in the message (`secret
    /// "x"`). Returns whether it is one.
    fn ncname(&mut self, name: &str, subject: &str, at: Option<Pos>, anchor: Option<Pos>) -> bool {
        match ncname_problem(name) {
            None => true,
            Some(why) => {
                self.push(
                    at,
                    anchor,
                    format!("{subject} is not a valid XML name: {why}; {NCNAME_RULE}"),
                );
                false
            }
        }
    }

    /// Reports an operation, service or type name that is not an XML name. Any XML name
    /// gives a Rust name: the model decides it (`crate::model`), numbered where taken.
    fn type_name(&mut self, name: &str, what: &str, at: Option<Pos>, anchor: Option<Pos>) {
        self.ncname(name, &format!("{what} {name:?}"), at, anchor);
    }

    /// Reports each of `names` (from list `key`) that is not in `used`, and returns them.
    fn unused<'n>(
        &mut self,
        used: &HashSet<&str>,
        key: &str,
        what: &str,
        names: &[&'n str],
    ) -> Vec<&'n str> {
        let mut unused = Vec::new();
        for &name in names {
            if !used.contains(name) {
                self.push(
                    self.loc.list_entry(key, name, 0),
                    self.loc.top_key_pos(key),
                    format!("{what} {name:?} is not a parameter of any operation"),
                );
                unused.push(name);
            }
        }
        unused
    }

    /// Checks one of the top-level name lists; returns the names that are valid, first
    /// occurrence only.
    fn name_list<'n>(&mut self, key: &str, what: &str, names: &'n [String]) -> Vec<&'n str> {
        let list_at = self.loc.top_key_pos(key);
        let mut count: HashMap<&str, usize> = HashMap::new();
        let mut valid = Vec::new();
        for name in names {
            let nth = count.entry(name).or_insert(0);
            let at = self.loc.list_entry(key, name, *nth);
            *nth += 1;
            if *nth == 1 {
                if self.ncname(name, &format!("{what} {name:?}"), at, list_at) {
                    valid.push(name.as_str());
                }
            } else if *nth == 2 {
                self.push(at, list_at, format!("{key} lists {name:?} twice"));
            }
        }
        valid
    }
}

pub(super) fn validate(raw: &RawSpec, loc: &Locator) -> Vec<Issue> {
    let mut c = Checker {
        loc,
        issues: Vec::new(),
    };

    // service
    let service = &raw.service;
    let service_at = loc.top_key_pos("service");
    let name_at = loc.service_value("name", &service.name.0);
    c.type_name(&service.name.0, "service name", name_at, service_at);
    if let Some(crate_name) = &service.crate_name {
        let at = loc.service_value("crate", &crate_name.0);
        let name = &crate_name.0;
        let problem = if name.is_empty() {
            Some("it is empty".to_owned())
        } else {
            crate_name_problem(name)
        };
        if let Some(why) = problem {
            c.push(
                at,
                service_at,
                format!(
                    "service crate {name:?} cannot name a Cargo package: {why}; a package name \
                     is an ASCII letter, then letters, digits, '-' or '_' (64 at most)"
                ),
            );
        }
    }
    let ns = &service.namespace;
    let ns_at = loc.service_value("namespace", ns);
    for why in namespace_problems(ns) {
        c.push(ns_at, service_at, why);
    }
    let path = &service.path;
    let path_at = loc.service_value("path", path);
    for why in path_problems(path) {
        c.push(path_at, service_at, why);
    }

    // the name lists
    let words = |list: &[super::raw::Word]| list.iter().map(|w| w.0.clone()).collect::<Vec<_>>();
    let credentials = words(&raw.credentials);
    let optional = words(&raw.optional_credentials);
    let secrets = words(&raw.secrets);
    let credentials = c.name_list("credentials", "credential", &credentials);
    let optional_valid = c.name_list("optional_credentials", "optional credential", &optional);
    let secrets = c.name_list("secrets", "secret", &secrets);
    let mut optional = Vec::new();
    for name in optional_valid {
        if credentials.contains(&name) {
            c.push(
                loc.list_entry("optional_credentials", name, 0),
                loc.top_key_pos("optional_credentials"),
                format!(
                    "{name:?} is listed in both credentials and optional_credentials; a \
                     credential is either carried by every operation (credentials) or by \
                     some (optional_credentials)"
                ),
            );
        } else {
            optional.push(name);
        }
    }

    // where everything is
    let ops_lines = loc.operations(raw.operations.len());
    let places: Vec<OpPlaces> = raw
        .operations
        .iter()
        .enumerate()
        .map(|(i, op)| {
            let lines = ops_lines.as_ref().map(|l| l[i]);
            let names: Vec<&str> = op.params.iter().map(|p| p.name.as_str()).collect();
            OpPlaces {
                lines,
                name: lines.and_then(|l| loc.op_value(l, "name", &op.name.0)),
                params: lines.and_then(|l| loc.params(l, &names)),
            }
        })
        .collect();

    // which names the operations use
    let used: HashSet<&str> = raw
        .operations
        .iter()
        .flat_map(|op| op.params.iter().map(|p| p.name.as_str()))
        .collect();
    let unused_credentials = c.unused(&used, "credentials", "credential", &credentials);
    c.unused(
        &used,
        "optional_credentials",
        "optional credential",
        &optional,
    );
    // A secret is a parameter, or a class's member (`Class.Member`, a header's password).
    let (members, secrets): (Vec<&str>, Vec<&str>) =
        secrets.into_iter().partition(|s| s.contains('.'));
    c.unused(&used, "secrets", "secret", &secrets);
    for secret in members {
        let (class, member) = secret.split_once('.').expect("a dot");
        let found = raw.types.iter().any(|t| {
            t.name.0 == class
                && t.members
                    .iter()
                    .chain(&t.attributes)
                    .any(|m| m.name == member)
        });
        if !found {
            c.push(
                loc.list_entry("secrets", secret, 0),
                loc.top_key_pos("secrets"),
                format!(
                    "secret {secret:?} names no member {member:?} of a type {class:?}; a secret is \
                     a parameter, or a class's member as `Class.Member`"
                ),
            );
        }
    }

    // operations
    if raw.operations.is_empty() {
        c.push(
            loc.top_key_pos("operations"),
            None,
            "operations: the list is empty; a spec needs at least one operation".to_owned(),
        );
    }
    let mut op_seen: HashMap<&str, usize> = HashMap::new();
    // enums
    let enums_at = loc.top_key_pos("enums");
    let names = TypeNames::of(raw);
    let mut scratch = Vec::new();
    let mut resolve = |text: &str| soap_type(text, &names, &mut scratch);
    let mut enum_seen = HashSet::new();
    for e in &raw.enums {
        let name = e.name.0.as_str();
        let at = loc.enum_name(name).or(enums_at);
        c.type_name(name, "enum name", Some(at).flatten(), enums_at);
        if SoapType::from_name(name).is_some() {
            c.push(
                at,
                enums_at,
                format!("enum {name:?} has the name of a simple type; rename it"),
            );
        }
        if !enum_seen.insert(name) {
            c.push(
                at,
                enums_at,
                format!("enum {name:?} is defined twice; enum names must be unique"),
            );
        }
        if e.values.is_empty() {
            c.push(at, enums_at, format!("enum {name:?} has no values"));
        }
        if let Some(zero) = &e.zero {
            if !e.flags {
                c.push(
                    at,
                    enums_at,
                    format!("enum {name:?} names a zero value, which only a flags enum has (flags: true)"),
                );
            } else if !e.values.iter().any(|v| v.wire == zero.0) {
                c.push(
                    at,
                    enums_at,
                    format!(
                        "enum {name:?} names the zero value {:?}, which is not one of its values",
                        zero.0
                    ),
                );
            }
        }
        if e.flags && e.values.len() - usize::from(e.zero.is_some()) > 64 {
            c.push(
                at,
                enums_at,
                format!("flags enum {name:?} has more than 64 flags, which rmm holds in a u64"),
            );
        }
        let mut values = HashSet::new();
        let mut members = HashSet::new();
        for value in &e.values {
            let explicit = value.member.as_deref();
            let member = explicit.unwrap_or(&value.wire);
            let value = value.wire.as_str();
            if !values.insert(value) {
                c.push(
                    at,
                    enums_at,
                    format!("enum {name:?} lists the value {value:?} twice"),
                );
                continue;
            }
            let markup = value.trim() != value
                || value
                    .chars()
                    .any(|ch| ch.is_control() || "<>&\"'".contains(ch));
            if markup {
                c.push(
                    at,
                    enums_at,
                    format!(
                        "enum {name:?} has the value {value:?}; rmm writes enum values as \
                         they are, so they hold no markup characters, controls or white \
                         space around"
                    ),
                );
            }
            if markup && explicit.is_none() {
                // Refused above; its member name is the same text.
            } else if !crate::model::is_member_name(member) {
                c.push(
                    at,
                    enums_at,
                    format!(
                        "enum {name:?} has the value {value:?}, whose .NET member name \
                         {member:?} is not a C# identifier; write the value \
                         `- {value}: MemberName` with the enum's member name"
                    ),
                );
            } else if !members.insert(member) {
                c.push(
                    at,
                    enums_at,
                    format!("enum {name:?} has the .NET member name {member:?} twice"),
                );
            }
            // Two values that give one variant are numbered apart by the model; a value of
            // no letter or digit (`""`) takes its .NET member name's.
            if crate::model::variant_name(value)
                .or_else(|| crate::model::variant_name(member))
                .is_none()
            {
                c.push(
                    at,
                    enums_at,
                    format!(
                        "enum {name:?} has the value {value:?}, which gives no Rust variant \
                         name (it needs an ASCII letter or digit); give it a member name \
                         (`- {value:?}: Item`)"
                    ),
                );
            }
        }
    }

    check_classes(&mut c, raw, &names);
    check_data_sets(&mut c, raw, &names);

    for (op, place) in raw.operations.iter().zip(&places) {
        let name = op.name.0.as_str();
        let op_at = place.lines.map(|l| loc.op_start(l));
        let anchor = place.name.or(op_at);
        // All four bindings when the spec lists none.
        let over_http = op.bindings.as_ref().is_none_or(|listed| {
            listed
                .iter()
                .any(|b| matches!(b, super::BindingName::Get | super::BindingName::Post))
        });
        c.type_name(name, "operation name", place.name, op_at);
        let seen = op_seen.entry(name).or_insert(0);
        *seen += 1;
        if *seen == 2 {
            c.push(
                place.name,
                op_at,
                format!("operation {name:?} is defined twice; operation names must be unique"),
            );
        }

        let empty = |text: &Option<String>| text.as_deref().is_some_and(|t| t.trim().is_empty());
        let doc_problem = match (&op.doc, &op.description) {
            (None, None) => Some(("doc", "has no doc", "it becomes the rustdoc")),
            (doc, _) if empty(doc) => Some(("doc", "has an empty doc", "it becomes the rustdoc")),
            (_, description) if empty(description) => Some((
                "description",
                "has an empty description",
                "the WSDL publishes it; leave the key out for none",
            )),
            _ => None,
        };
        if let Some((key, problem, why)) = doc_problem {
            let doc_at = place.lines.and_then(|l| loc.op_key(l, key));
            c.push(
                doc_at.or(place.name),
                op_at,
                format!("operation {name:?} {problem}; say what it does in a sentence ({why})"),
            );
        }

        let mut param_seen: HashMap<&str, usize> = HashMap::new();
        for (i, p) in op.params.iter().enumerate() {
            let (p_at, ty_at) = match &place.params {
                Some(v) => (Some(v[i].0), Some(v[i].1)),
                None => (None, None),
            };
            let subject = format!("parameter {:?} of operation {name:?}", p.name);
            c.ncname(&p.name, &subject, p_at, anchor);
            if p.extended {
                c.push(
                    ty_at,
                    anchor,
                    format!("{subject} is written as a map ({{type: …}}), which only a type's member may be"),
                );
            }
            let seen = param_seen.entry(&p.name).or_insert(0);
            *seen += 1;
            if *seen == 2 {
                c.push(
                    p_at,
                    anchor,
                    format!("operation {name:?} lists parameter {:?} twice", p.name),
                );
            }
            let array_null =
                p.ty.ends_with("[]?")
                    .then(|| nullable_problem(&p.ty, &names))
                    .flatten();
            if let Some(problem) = array_null {
                c.push(
                    ty_at,
                    anchor,
                    format!(
                        "parameter {:?} of operation {name:?} is {}; {problem}",
                        p.name, p.ty
                    ),
                );
            } else if p.choice.is_some() {
                // A choice is a member's alone: refused above, as a map.
            } else if resolve(&p.ty).is_none() {
                c.push(
                    ty_at,
                    anchor,
                    format!(
                        "parameter {:?} of operation {name:?} has unknown type {:?}; {}",
                        p.name,
                        p.ty,
                        unknown_type_hint(&p.ty, &names)
                    ),
                );
            } else if nullable(&p.ty)
                || resolve(&p.ty).is_some_and(|t| !t.over_http())
                || !array_over_http(&p.ty, &names)
            {
                if let Some(problem) = nullable(&p.ty)
                    .then(|| nullable_problem(&p.ty, &names))
                    .flatten()
                {
                    c.push(
                        ty_at,
                        anchor,
                        format!(
                            "parameter {:?} of operation {name:?} is {}; {problem}",
                            p.name, p.ty
                        ),
                    );
                } else if nullable(&p.ty)
                    && (credentials.contains(&p.name.as_str())
                        || optional.contains(&p.name.as_str()))
                {
                    c.push(
                        ty_at,
                        anchor,
                        format!(
                            "credential {:?} of operation {name:?} is {}; a credential is not \
                             nullable",
                            p.name, p.ty
                        ),
                    );
                } else if over_http {
                    let why = if p.ty.ends_with("[]") {
                        "an array HTTP GET/POST cannot carry (ASMX reads an array of simple \
                         values there, from repeated keys, and offers an operation with any \
                         other over SOAP only)"
                    } else {
                        "a type HTTP GET/POST cannot carry (ASMX offers such an operation over \
                         SOAP only)"
                    };
                    c.push(
                        ty_at,
                        anchor,
                        format!(
                            "parameter {:?} of operation {name:?} is {}, {why}; add \
                             `bindings: [soap11, soap12]` to the operation",
                            p.name, p.ty
                        ),
                    );
                }
            }
        }

        let result = &op.result.0;
        let result_at = place.lines.and_then(|l| loc.op_value(l, "result", result));
        if let Some(problem) = nullable(result)
            .then(|| nullable_problem(result, &names))
            .flatten()
        {
            c.push(
                result_at,
                anchor,
                format!("operation {name:?} has result type {result}; {problem}"),
            );
        }
        if result == "void?" {
            c.push(
                result_at,
                anchor,
                format!(
                    "operation {name:?} has result type void?; nothing cannot be null: write void"
                ),
            );
        } else if result != "void" && resolve(result).is_none() {
            c.push(
                result_at,
                anchor,
                format!(
                    "operation {name:?} has unknown result type {result:?}; {}",
                    unknown_type_hint(result, &names)
                ),
            );
        }

        let out_at = place.lines.and_then(|l| loc.op_key(l, "out"));
        let mut out_seen = HashSet::new();
        for o in &op.out {
            let subject = format!("out parameter {:?} of operation {name:?}", o.name);
            if o.extended {
                c.push(
                    out_at,
                    anchor,
                    format!("{subject} is written as a map ({{type: …}}), which only a type's member may be"),
                );
            }
            c.ncname(&o.name, &subject, out_at, anchor);
            if !out_seen.insert(o.name.as_str()) {
                c.push(
                    out_at,
                    anchor,
                    format!("operation {name:?} lists out parameter {:?} twice", o.name),
                );
            }
            if o.name == format!("{name}Result") {
                c.push(
                    out_at,
                    anchor,
                    format!(
                        "out parameter {:?} of operation {name:?} is named like its result element",
                        o.name
                    ),
                );
            }
            if let Some(problem) = nullable(&o.ty)
                .then(|| nullable_problem(&o.ty, &names))
                .flatten()
            {
                c.push(out_at, anchor, format!("{subject} is {}; {problem}", o.ty));
            } else if o.choice.is_none() && resolve(&o.ty).is_none() {
                c.push(
                    out_at,
                    anchor,
                    format!(
                        "{subject} has unknown type {:?}; {}",
                        o.ty,
                        unknown_type_hint(&o.ty, &names)
                    ),
                );
            }
        }
        if !op.out.is_empty() && over_http {
            c.push(
                out_at,
                anchor,
                format!(
                    "operation {name:?} has out parameters, which HTTP GET/POST cannot carry \
                     (ASMX offers such an operation over SOAP only); add `bindings: [soap11, \
                     soap12]` to the operation"
                ),
            );
        }

        if let Some(bindings) = &op.bindings {
            let at = place.lines.and_then(|l| loc.op_key(l, "bindings"));
            let mut seen = HashSet::new();
            if bindings.is_empty() {
                c.push(
                    at,
                    anchor,
                    format!(
                        "operation {name:?} lists no bindings; leave `bindings:` out to offer \
                         all four"
                    ),
                );
            }
            for binding in bindings {
                if !seen.insert(*binding) {
                    c.push(
                        at,
                        anchor,
                        format!("operation {name:?} lists binding {} twice", binding.name()),
                    );
                }
            }
        }

        for &cred in &credentials {
            if unused_credentials.contains(&cred) || op.params.iter().any(|p| p.name == cred) {
                continue;
            }
            c.push(
                place.name,
                op_at,
                format!(
                    "operation {name:?} lacks credential {cred:?}, which every operation must \
                     carry (list it in optional_credentials if only some operations do)"
                ),
            );
        }
    }

    check_bare(&mut c, raw, &places, loc);
    check_roots(&mut c, raw, &places, loc);
    check_namespaces(&mut c, raw, &places, loc);
    check_methods(&mut c, raw, &places, loc);
    check_renamed_elements(&mut c, raw, &places, loc);
    check_rpc(&mut c, raw, &places, loc);
    check_actions(&mut c, raw, &places, loc);
    check_headers(&mut c, raw, &places, loc);
    check_raw_xml(&mut c, raw, &places, loc);
    check_script(&mut c, raw, &places, loc);
    check_session(&mut c, raw, &places, loc);

    // credential types: one per credential, int or string
    for (&cred, what) in credentials
        .iter()
        .map(|n| (n, "credential"))
        .chain(optional.iter().map(|n| (n, "optional credential")))
    {
        let mut first: Option<(&str, SoapType)> = None;
        for (op, place) in raw.operations.iter().zip(&places) {
            let Some(i) = op.params.iter().position(|p| p.name == cred) else {
                continue;
            };
            let Some(ty) = resolve(&op.params[i].ty) else {
                continue;
            };
            let at = place.params.as_ref().map(|v| v[i].1);
            let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
            match first {
                None => {
                    first = Some((&op.name.0, ty));
                    if !matches!(ty, SoapType::Int | SoapType::String) {
                        c.push(
                            at,
                            anchor,
                            format!(
                                "{what} {cred:?} is {} in operation {:?}; a credential must \
                                 be int or string",
                                type_name(ty),
                                op.name.0
                            ),
                        );
                    }
                }
                Some((first_op, first_ty)) if first_ty != ty => c.push(
                    at,
                    anchor,
                    format!(
                        "{what} {cred:?} is {} in operation {first_op:?} but {} in operation \
                         {:?}; a credential has one type in every operation",
                        type_name(first_ty),
                        type_name(ty),
                        op.name.0
                    ),
                ),
                Some(_) => {}
            }
        }
    }

    let mut issues = c.issues;
    issues.sort_by_key(|issue| {
        issue
            .anchor
            .map_or((usize::MAX, usize::MAX), |p| (p.line, p.column))
    });
    issues
}
