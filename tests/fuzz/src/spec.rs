//! The spec loader and the generator behind it: any text is a crate or located errors.

use rmm_codegen::generate_from_source;

use crate::Outcome;

/// The name the spec is given in messages.
const FILE: &str = "fuzz.yaml";

/// Input: the spec's text (bytes that are not UTF-8 are replaced, as no YAML reader takes
/// them).
pub fn load(data: &[u8]) -> Outcome {
    let source = String::from_utf8_lossy(data);
    let Err(errors) = generate_from_source(&source, FILE) else {
        return Outcome::Accepted;
    };
    assert!(!errors.0.is_empty(), "refused with no error");
    for error in &errors.0 {
        assert!(
            error.file == FILE && !error.message.is_empty(),
            "an error without its file or message: {error:?}"
        );
    }
    Outcome::Refused
}
