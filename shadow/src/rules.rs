//! The user's rules: fields to ignore, per operation, from a small file.
//!
//! ```text
//! # OPERATION FIELD: `*` in either matches any text.
//! GetTime Envelope/Body/GetTimeResponse/GetTimeResult
//! *       */Stamp/@at
//! *       (header cache-control)
//! ```
//!
//! A field is what a report names (`(status)`, `(header content-type)`, `(bytes)`, a path of
//! leaves with `[*]` for an item).

use std::path::Path;

/// The rules of a file: each an operation pattern and a field pattern.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    rules: Vec<(String, String)>,
}

impl Rules {
    /// No rule: nothing ignored.
    pub fn none() -> Rules {
        Rules::default()
    }

    /// The rules of `text`, one a line (`OPERATION FIELD`, the field the rest of the line), `#`
    /// comments and blank lines
    /// skipped; every malformed line named as `file:line: …`, all at once.
    pub fn parse(text: &str, file: &str) -> Result<Rules, String> {
        let mut rules = Vec::new();
        let mut errors = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            // The field is the rest of the line: `(header content-type)` holds a space.
            match line.split_once(char::is_whitespace) {
                Some((operation, field)) => {
                    rules.push((operation.to_owned(), field.trim().to_owned()));
                }
                None => errors.push(format!(
                    "{file}:{}: a rule is `OPERATION FIELD` (`*` in either for any text), not {line:?}",
                    number + 1
                )),
            }
        }
        if errors.is_empty() {
            Ok(Rules { rules })
        } else {
            Err(errors.join("\n"))
        }
    }

    /// The rules of the file at `path`.
    pub fn read(path: &Path) -> Result<Rules, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot be read: {e}", path.display()))?;
        Rules::parse(&text, &path.display().to_string())
    }

    /// These rules and one more: `field` of `operation`, exactly as a report names them (a
    /// `*` in either still matches any text).
    pub fn with(mut self, operation: &str, field: &str) -> Rules {
        self.rules.push((operation.to_owned(), field.to_owned()));
        self
    }

    /// These rules and the noise a shadow learned (each noise class of `report`): to replay
    /// what it recorded by what its secondary taught.
    pub fn with_noise_of(self, report: &crate::report::Report) -> Rules {
        report
            .classes
            .iter()
            .filter(|c| c.noise)
            .fold(self, |rules, c| rules.with(&c.operation, &c.field))
    }

    /// Whether a difference in `field` of `operation` is ignored.
    pub fn ignores(&self, operation: &str, field: &str) -> bool {
        self.rules
            .iter()
            .any(|(o, f)| matches(o, operation) && matches(f, field))
    }
}

/// Whether `text` matches `pattern`, whose `*`s match any run of characters.
fn matches(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_star_matches_any_text() {
        assert!(matches("*", "anything"));
        assert!(matches("*/Stamp", "Envelope/Body/R/Stamp"));
        assert!(!matches("*/Stamp", "Envelope/Body/R/Stamps"));
        assert!(matches("Get*", "GetTime"));
        assert!(matches("a*b*c", "a-b-c"));
        assert!(!matches("a*b*c", "a-c"));
        assert!(matches("exact", "exact"));
        assert!(!matches("exact", "exactly"));
    }

    #[test]
    fn rules_name_an_operation_and_a_field() {
        let rules = Rules::parse(
            "# comment\nGetTime Envelope/Body/GetTimeResponse/GetTimeResult\n* (header date)\n",
            "rules.txt",
        )
        .unwrap();
        assert!(rules.ignores("GetTime", "Envelope/Body/GetTimeResponse/GetTimeResult"));
        assert!(!rules.ignores("Add", "Envelope/Body/GetTimeResponse/GetTimeResult"));
        assert!(rules.ignores("Add", "(header date)"));
    }

    #[test]
    fn a_shadows_learned_noise_becomes_rules() {
        use crate::report::{Class, Example, Report};
        let class = |field: &str, noise: bool| Class {
            operation: "EchoDrawing".into(),
            binding: "soap12".into(),
            field: field.into(),
            noise,
            deliberate: None,
            count: 1,
            example: Example {
                path: field.into(),
                primary_value: "400".into(),
                candidate_value: "200".into(),
                request: String::new(),
                primary: String::new(),
                candidate: String::new(),
            },
        };
        let report = Report {
            classes: vec![class("(status)", true), class("R/I[*]", false)],
            ..Report::default()
        };
        let rules = Rules::none().with_noise_of(&report);
        assert!(rules.ignores("EchoDrawing", "(status)"));
        assert!(!rules.ignores("EchoDrawing", "R/I[*]"));
        assert!(!rules.ignores("Add", "(status)"));
    }

    #[test]
    fn every_malformed_line_is_named() {
        let error = Rules::parse("one\nok field\ntwo\n", "rules.txt").unwrap_err();
        assert_eq!(error.lines().count(), 2, "{error}");
        assert!(error.starts_with("rules.txt:1: "), "{error}");
        assert!(error.contains("rules.txt:3: "), "{error}");
    }
}
