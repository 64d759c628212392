//! The WSDL importer and the generator behind it: any text imports to a spec that `rmm gen`
//! accepts, or is refused with messages that name the file.

use rmm_codegen::{generate_from_source, import};

use crate::Outcome;

/// The name the WSDL is given in messages.
const FILE: &str = "fuzz.wsdl";

/// Input: the WSDL's text (bytes that are not UTF-8 are replaced, as the importer reads text).
///
/// Checked beyond "no panic": a refusal says something and names the file; what
/// `--skip-unsupported` imports, `rmm gen` generates (import and gen agree); a whole import,
/// where there is one, is the same spec as the one that skips (nothing was skipped).
pub fn wsdl(data: &[u8]) -> Outcome {
    let text = String::from_utf8_lossy(data);
    let whole = import::read(&text, FILE);
    if let Err(errors) = &whole {
        check_refusal(errors);
    }
    let imported = match import::read_skipping_unsupported(&text, FILE) {
        Ok(imported) => imported,
        Err(errors) => {
            check_refusal(&errors);
            assert!(whole.is_err(), "imported whole, refused skipping: {errors}");
            return Outcome::Refused;
        }
    };
    let yaml = imported.to_yaml();
    if let Err(errors) = generate_from_source(&yaml, "imported.yaml") {
        panic!("the import wrote a spec that gen refuses:\n{errors}\n--- the spec:\n{yaml}");
    }
    if let Ok(whole) = whole {
        assert!(
            imported.skipped.is_empty() && whole.to_yaml() == yaml,
            "a whole import and one that skips differ"
        );
    }
    Outcome::Accepted
}

/// A refusal: at least one message, each naming the file and saying something.
fn check_refusal(errors: &import::ImportErrors) {
    assert!(!errors.0.is_empty(), "refused with no error");
    for error in &errors.0 {
        assert!(
            error.file == FILE && !error.message.is_empty(),
            "an error without its file or message: {error:?}"
        );
    }
}
