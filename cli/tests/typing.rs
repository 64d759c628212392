//! The answers of the three reference services, as their host recorded them, compared by the
//! types their specs give (`rmm shadow --spec`): each typed leaf respelled as another lexical
//! form of its value must be a difference of bytes alone, and another value a difference of
//! that field; without the spec both are differences of the field.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bytes::Bytes;
use http::Response;
use rmm_shadow::capture::read_dir;
use rmm_shadow::classify::classify;
use rmm_shadow::compare::{compare, compare_typed, BYTES};
use rmm_shadow::leaves::{field, leaves};
use rmm_shadow::typing::{Lexical, Typing};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Another spelling of `value`, a `lexical`, that .NET reads as the same value.
fn respelled(lexical: Lexical, value: &str) -> Option<String> {
    let alternative = match lexical {
        Lexical::Exact => return None,
        Lexical::Trimmed | Lexical::Integer | Lexical::Decimal => match value.strip_prefix('-') {
            Some(rest) => format!("-0{rest}"),
            None if lexical == Lexical::Trimmed => format!(" {value}\n"),
            None => format!("+{value}"),
        },
        Lexical::Boolean => match value {
            "true" => "1".into(),
            "false" => "0".into(),
            _ => return None,
        },
        Lexical::Double => match value {
            "INF" => "Infinity".into(),
            "-INF" => "-Infinity".into(),
            "NaN" => " NaN".into(),
            _ => format!("{:e}", value.parse::<f64>().ok()?),
        },
        Lexical::Float => match value {
            "INF" => "Infinity".into(),
            "-INF" => "-Infinity".into(),
            "NaN" => " NaN".into(),
            _ => format!("{:e}", value.parse::<f32>().ok()?),
        },
        // One more zero in the fraction, or a fraction of zeros.
        Lexical::DateTime => match value.find('.') {
            Some(point) => {
                let end = value[point + 1..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(value.len(), |i| point + 1 + i);
                format!("{}0{}", &value[..end], &value[end..])
            }
            None if value.len() >= 19 => format!("{}.000{}", &value[..19], &value[19..]),
            None => return None,
        },
        Lexical::Guid => format!("{{{}}}", value.to_ascii_uppercase()),
        Lexical::Base64 if value.len() > 4 => format!("{}\n{}", &value[..4], &value[4..]),
        Lexical::Base64 => format!("{value}\n"),
        Lexical::Flags => {
            let mut names: Vec<&str> = value.split(' ').collect();
            names.reverse();
            format!(" {}", names.join("  "))
        }
    };
    (alternative != value).then_some(alternative)
}

/// A value of `lexical` that is not `value`'s.
fn another(lexical: Lexical, value: &str) -> String {
    let other = match lexical {
        Lexical::Boolean if matches!(value, "true" | "1") => "false",
        Lexical::Boolean => "true",
        Lexical::Integer => "12",
        Lexical::Decimal | Lexical::Double | Lexical::Float => "12.5",
        Lexical::DateTime => "2001-02-03T04:05:06",
        Lexical::Guid => "00000000-0000-0000-0000-000000000001",
        Lexical::Base64 => "AAAA",
        Lexical::Exact | Lexical::Trimmed | Lexical::Flags => "zzz",
    };
    if other == value {
        "13".into()
    } else {
        other.into()
    }
}

/// `body` with the one text `>value<` (or attribute value `="value"`) replaced; `None` where
/// it is not there exactly once.
fn replaced(body: &str, value: &str, attribute: bool, with: &str) -> Option<String> {
    let (open, close) = if attribute { ("=\"", "\"") } else { (">", "<") };
    let needle = format!("{open}{value}{close}");
    (body.matches(&needle).count() == 1)
        .then(|| body.replacen(&needle, &format!("{open}{with}{close}"), 1))
}

fn with_body(response: &Response<Bytes>, body: String) -> Response<Bytes> {
    let mut changed = response.clone();
    *changed.body_mut() = Bytes::from(body);
    changed
}

#[derive(Default, Debug)]
struct Seen {
    /// Respelled leaves by type and by where they stand.
    by_lexical: BTreeMap<String, usize>,
    in_class: usize,
    in_array: usize,
    attributes: usize,
    over_http: usize,
}

fn sweep(typing: &Typing, fixtures: &str, seen: &mut Seen) {
    let captures = read_dir(&root().join(fixtures)).expect("the recordings read");
    assert!(!captures.is_empty(), "{fixtures}: no recording");
    for capture in captures {
        let (Ok(request), Ok(response)) = (capture.http_request(), capture.http_response()) else {
            continue;
        };
        let (operation, _) = classify(&request);
        let Ok(body) = std::str::from_utf8(response.body()) else {
            continue;
        };
        let Some(leaves) = leaves(response.body()) else {
            continue;
        };
        for leaf in leaves {
            let lexical = typing.lexical(request.uri().path(), &operation, &leaf.path);
            let Some(alternative) = respelled(lexical, &leaf.value) else {
                continue;
            };
            let attribute = leaf.path.contains("/@");
            let Some(changed) = replaced(body, &leaf.value, attribute, &alternative) else {
                continue;
            };
            let changed = with_body(&response, changed);
            let what = format!(
                "{}: {} {:?} → {alternative:?}",
                capture.name, leaf.path, leaf.value
            );
            let typed = compare_typed(&response, &changed, typing, (&request, &operation));
            assert_eq!(
                typed.iter().map(|d| d.field.as_str()).collect::<Vec<_>>(),
                [BYTES],
                "{what}: the same value, so bytes alone"
            );
            let plain = compare(&response, &changed);
            assert_eq!(plain.len(), 1, "{what}: {plain:?}");
            assert_eq!(
                plain[0].path, leaf.path,
                "{what}: untyped, the leaf differs"
            );
            // Another value is a difference of the field, typed or not.
            let other = another(lexical, &leaf.value);
            let changed = replaced(body, &leaf.value, attribute, &other).expect("found above");
            let typed = compare_typed(
                &response,
                &with_body(&response, changed),
                typing,
                (&request, &operation),
            );
            assert_eq!(typed.len(), 1, "{what}, then {other:?}: {typed:?}");
            assert_eq!(typed[0].field, field(&leaf.path), "{what}, then {other:?}");

            *seen.by_lexical.entry(format!("{lexical:?}")).or_default() += 1;
            let soap = leaf.path.starts_with("Envelope/");
            let depth = leaf.path.split('/').count() - if soap { 4 } else { 1 };
            if attribute {
                seen.attributes += 1;
            } else if leaf.path.contains('[') {
                seen.in_array += 1;
            } else if depth >= 1 {
                seen.in_class += 1;
            }
            if !soap {
                seen.over_http += 1;
            }
        }
    }
}

#[test]
fn the_reference_answers_compare_by_the_values_of_their_types() {
    // One typing of the three services, as `rmm shadow` in front of their host takes them
    // (`--spec` thrice): each answer typed by its own service's spec.
    let specs = [
        "rmm-spec.yaml",
        "tests/types/rmm-spec.yaml",
        "tests/objects/rmm-spec.yaml",
    ]
    .map(|spec| root().join(spec));
    let typing = rmm_cli::typing::of_specs(&specs).expect("the specs load");
    let mut seen = Seen::default();
    sweep(&typing, "tests/fixtures/asmx", &mut seen);
    sweep(&typing, "tests/fixtures/types/asmx", &mut seen);
    sweep(&typing, "tests/fixtures/objects/asmx", &mut seen);
    // Every type a spec reads otherwise than as text met in a real answer, on both sides of
    // the envelope, and where the object model puts values.
    for lexical in Lexical::ALL.into_iter().filter(|l| *l != Lexical::Exact) {
        assert!(
            seen.by_lexical.contains_key(&format!("{lexical:?}")),
            "no {lexical:?} leaf respelled: {seen:?}"
        );
    }
    assert!(seen.in_class > 0, "{seen:?}");
    assert!(seen.in_array > 0, "{seen:?}");
    assert!(seen.attributes > 0, "{seen:?}");
    assert!(seen.over_http > 0, "{seen:?}");
}
