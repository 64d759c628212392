//! Writing an [`Imported`] service as a spec, in `rmm-spec.yaml`'s layout.

use std::fmt::Write as _;

use super::Imported;
use crate::spec::BindingName;

/// A YAML scalar for `text`: plain where YAML reads it back as the same string (names,
/// namespaces, paths), else double-quoted with JSON's escapes, which YAML reads as written.
fn scalar(text: &str) -> String {
    const SPECIAL: &[&str] = &[
        "true", "false", "yes", "no", "on", "off", "null", "y", "n", "~",
    ];
    let plain = text
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '/')
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.-/:?=&%+[]".contains(c))
        && !text.contains("://:")
        && !SPECIAL.contains(&text.to_ascii_lowercase().as_str())
        && text.parse::<f64>().is_err();
    if plain {
        text.to_owned()
    } else {
        quoted(text)
    }
}

/// `text` as a YAML double-quoted scalar: a JSON string (which is one), with the characters
/// YAML does not allow in a stream (DEL, the C1 controls but NEL, U+FFFE and U+FFFF), which
/// JSON leaves as they are, escaped too.
pub(super) fn quoted(text: &str) -> String {
    let json = serde_json::to_string(text).expect("a string serialises");
    let printable =
        |c: char| !matches!(c, '\u{7f}'..='\u{84}' | '\u{86}'..='\u{9f}' | '\u{fffe}' | '\u{ffff}');
    if json.chars().all(printable) {
        return json;
    }
    json.chars()
        .map(|c| {
            if printable(c) {
                c.to_string()
            } else {
                format!("\\u{:04X}", u32::from(c))
            }
        })
        .collect()
}

impl Imported {
    /// The spec, in `rmm-spec.yaml`'s layout: deterministic for one WSDL.
    pub fn to_yaml(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let w = &mut out;
        let _ = writeln!(
            w,
            "# rmm-spec.yaml of {}, written by `rmm import` from\n# {}.",
            self.name, self.source
        );
        let _ = writeln!(
            w,
            "# Fill in the credential lists: a WSDL cannot tell which parameters a signer fills \
             in,\n# nor which are secret. Then run `rmm gen`."
        );
        if !self.skipped.is_empty() {
            let _ = writeln!(
                w,
                "# Left out by --skip-unsupported (what rmm does not import yet, where the WSDL \
                 shows it):"
            );
            for skipped in &self.skipped {
                let _ = writeln!(w, "#   {skipped}");
            }
        }
        let _ = writeln!(w, "service:");
        let _ = writeln!(w, "  name: {}", scalar(&self.name));
        let _ = writeln!(w, "  namespace: {}", scalar(&self.namespace));
        let _ = writeln!(w, "  path: {}", scalar(&self.path));
        if let Some(description) = &self.description {
            let _ = writeln!(w, "  description: {}", quoted(description));
        }
        if self.rpc {
            // [SoapRpcService]: every operation RPC/encoded.
            let _ = writeln!(w, "  style: rpc");
        }
        if let Some(script) = &self.script {
            // [ScriptService], as the /js proxy shows (a WSDL does not).
            match &script.namespace {
                Some(namespace) => {
                    let _ = writeln!(w, "  script:\n    namespace: {}", scalar(namespace));
                }
                None => {
                    let _ = writeln!(w, "  script: true");
                }
            }
        }
        if self.dataset_wsdl != crate::spec::DataSetWsdl::V1 {
            // .NET's `WSDL_VERSION` setting, as the WSDL shows it.
            let _ = writeln!(w, "  dataset_wsdl: \"{}\"", self.dataset_wsdl.name());
        }
        let _ = writeln!(
            w,
            "# Parameters every operation carries, filled by the caller's signer (fill in).\n\
             credentials: []\n\
             # Parameters only some operations carry, filled by the signer where present (fill in).\n\
             optional_credentials: []\n\
             # Parameters whose values are never printed by Debug or logs (fill in).\n\
             secrets: []"
        );
        if !self.enums.is_empty() {
            let _ = writeln!(
                w,
                "# Over HTTP GET/POST an enum value travels as its .NET member name, which a \
                 WSDL does not carry.\n\
                 # Where it differs from the wire name (an [XmlEnum] attribute), write the value \
                 `- wire-name: MemberName`."
            );
            let _ = writeln!(w, "enums:");
            for e in &self.enums {
                let _ = writeln!(w, "  - name: {}", scalar(&e.name));
                if let Some(namespace) = &e.namespace {
                    let _ = writeln!(w, "    namespace: {}", scalar(namespace));
                }
                if e.flags {
                    let _ = writeln!(w, "    flags: true");
                    // The WSDL does not say which value is .NET's 0; `None` nearly always is.
                    if e.values.iter().any(|v| v == "None") {
                        let _ = writeln!(
                            w,
                            "    zero: None  # the value with no flag is a guess: check it"
                        );
                    }
                }
                let _ = writeln!(w, "    values:");
                for value in &e.values {
                    match member_guess(value) {
                        None => {
                            let _ = writeln!(w, "      - {}", scalar(value));
                        }
                        // A wire name no C# member can have: [XmlEnum] renamed it. The
                        // member's name is most likely the wire name in Pascal case; it is
                        // written, and marked as a guess to check.
                        Some(member) => {
                            let _ = writeln!(
                                w,
                                "      - {}: {}  # the member name is a guess: check it",
                                scalar(value),
                                scalar(&member)
                            );
                        }
                    }
                }
            }
        }
        if !self.classes.is_empty() {
            let _ = writeln!(w, "types:");
            for class in &self.classes {
                let _ = writeln!(w, "  - name: {}", scalar(&class.name));
                if class.is_abstract {
                    let _ = writeln!(w, "    abstract: true");
                }
                if let Some(base) = &class.base {
                    let _ = writeln!(w, "    base: {}", scalar(base));
                }
                if let Some(root) = &class.root {
                    let _ = writeln!(w, "    root: {}", scalar(root));
                }
                if let Some(namespace) = &class.namespace {
                    let _ = writeln!(w, "    namespace: {}", scalar(namespace));
                }
                if !class.attributes.is_empty() {
                    let _ = writeln!(w, "    attributes:");
                    for (name, ty) in &class.attributes {
                        // An attribute's map form (`{type: …, namespace: …}`) as it is.
                        let ty = if ty.starts_with('{') {
                            ty.clone()
                        } else {
                            scalar(ty)
                        };
                        let _ = writeln!(w, "      - {}: {ty}", scalar(name));
                    }
                }
                if let Some(text) = &class.text {
                    let _ = writeln!(w, "    text: {}", scalar(text));
                }
                if let Some(any) = &class.any_attribute {
                    let _ = writeln!(w, "    any_attribute: {}", scalar(any));
                }
                if class.members.is_empty() {
                    let _ = writeln!(w, "    members: []");
                    continue;
                }
                let _ = writeln!(w, "    members:");
                for (name, ty) in &class.members {
                    // A member's map form (`{type: …, item: …}`) is written as it is.
                    let ty = if ty.starts_with('{') {
                        ty.clone()
                    } else {
                        scalar(ty)
                    };
                    let _ = writeln!(w, "      - {}: {ty}", scalar(name));
                }
            }
        }
        if !self.data_sets.is_empty() {
            let _ = writeln!(w, "data_sets:");
            for set in &self.data_sets {
                let _ = writeln!(w, "  - name: {}", scalar(&set.name));
                let _ = writeln!(w, "    namespace: {}", scalar(&set.namespace));
                if let Some(locale) = &set.locale {
                    let _ = writeln!(w, "    locale: {}", quoted(locale));
                }
                let _ = writeln!(w, "    tables:");
                for table in &set.tables {
                    let _ = writeln!(w, "      - name: {}", scalar(&table.name));
                    if table.columns.is_empty() {
                        let _ = writeln!(w, "        columns: []");
                        continue;
                    }
                    let _ = writeln!(w, "        columns:");
                    for (name, ty) in &table.columns {
                        let _ = writeln!(w, "          - {}: {}", scalar(name), scalar(ty));
                    }
                }
            }
        }
        let _ = writeln!(w, "operations:");
        for op in &self.operations {
            let _ = writeln!(w, "  - name: {}", scalar(&op.name));
            if let Some(method) = &op.method {
                let _ = writeln!(w, "    method: {}", scalar(method));
            }
            // The service's description is published again as it came (and is the rustdoc);
            // without one, a placeholder doc for the user to replace.
            let (key, text) = match &op.description {
                Some(description) => ("description", description.clone()),
                None => ("doc", format!("{}: no description in the WSDL.", op.name)),
            };
            let _ = writeln!(w, "    {key}: {}", quoted(&text));
            if op.bare {
                let _ = writeln!(w, "    style: bare");
            }
            if op.rpc_method {
                // [SoapRpcMethod] on the method of a document service.
                let _ = writeln!(w, "    style: rpc");
            }
            if op.script_get {
                // [ScriptMethod(UseHttpGet = true)], as the /js proxy shows.
                let _ = writeln!(w, "    script: {{get: true}}");
            }
            for (key, value) in [
                ("request_element", &op.request_element),
                ("response_element", &op.response_element),
                ("result_element", &op.result_element),
                ("action", &op.action),
                ("request_namespace", &op.request_namespace),
                ("response_namespace", &op.response_namespace),
            ] {
                if let Some(value) = value {
                    let _ = writeln!(w, "    {key}: {}", scalar(value));
                }
            }
            if !op.headers.is_empty() {
                let names: Vec<String> = op
                    .headers
                    .iter()
                    .map(|(class, direction)| match direction {
                        crate::spec::HeaderDirection::In => scalar(class),
                        crate::spec::HeaderDirection::Out => format!("{}: Out", scalar(class)),
                        crate::spec::HeaderDirection::InOut => format!("{}: InOut", scalar(class)),
                        crate::spec::HeaderDirection::Fault => format!("{}: Fault", scalar(class)),
                    })
                    .collect();
                let _ = writeln!(w, "    headers: [{}]", names.join(", "));
            }
            if op.bindings != BindingName::ALL {
                let names: Vec<&str> = op.bindings.iter().map(|b| b.name()).collect();
                let _ = writeln!(w, "    bindings: [{}]", names.join(", "));
            }
            if op.params.is_empty() {
                let _ = writeln!(w, "    params: []");
            } else {
                let _ = writeln!(w, "    params:");
                for (name, ty) in &op.params {
                    let _ = writeln!(w, "      - {}: {}", scalar(name), scalar(ty));
                }
            }
            let _ = writeln!(w, "    result: {}", scalar(&op.result));
            if !op.outs.is_empty() {
                let _ = writeln!(w, "    out:");
                for (name, ty) in &op.outs {
                    let _ = writeln!(w, "      - {}: {}", scalar(name), scalar(ty));
                }
            }
        }
        out
    }
}

/// For a wire name that is not a C# identifier, the likely .NET member name (its Rust
/// variant name: `very-high` → `VeryHigh`; `Item` where nothing of it is one, as .NET's
/// `CodeIdentifier.MakeValid` names it: the empty value); `None` for an identifier, its own
/// member name.
fn member_guess(wire: &str) -> Option<String> {
    if crate::model::is_member_name(wire) {
        None
    } else {
        crate::model::variant_name(wire).or_else(|| Some("Item".to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::scalar;

    #[test]
    fn scalars_are_plain_only_where_yaml_reads_them_back() {
        for plain in [
            "MobileService",
            "http://rmm.example.com/mobile",
            "/api/x.asmx",
            "int?",
            "OrderLine[]",
            "int?[]",
        ] {
            assert_eq!(scalar(plain), plain);
        }
        assert_eq!(scalar("true"), "\"true\"");
        assert_eq!(scalar("12"), "\"12\"");
        assert_eq!(scalar("a b"), "\"a b\"");
        assert_eq!(scalar("x: y"), "\"x: y\"");
        assert_eq!(scalar("-x"), "\"-x\"");
        assert_eq!(scalar(""), "\"\"");
    }
}
