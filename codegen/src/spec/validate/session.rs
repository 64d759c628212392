//! The checks of session state (`session:`): the class a session keeps, and the operations
//! that have one.

use super::*;

/// The service's `session:` names a class of `types:` (concrete, not a SOAP header), and an
/// operation's `session: true` needs it.
pub(super) fn check_session(
    c: &mut Checker<'_, '_>,
    raw: &RawSpec,
    places: &[OpPlaces],
    loc: &Locator<'_>,
) {
    let session = raw.service.session.as_ref().map(|w| w.0.as_str());
    if let Some(name) = session {
        let service_at = loc
            .service_value("session", name)
            .or(loc.top_key_pos("service"));
        match raw.types.iter().find(|t| t.name.0 == name) {
            None => c.push(
                service_at,
                service_at,
                format!(
                    "the service's `session: {name}` names no class of `types:`; a session \
                     keeps the values of a class"
                ),
            ),
            Some(def) => {
                let header = raw
                    .operations
                    .iter()
                    .any(|op| op.headers.iter().any(|h| h.class == name));
                if def.is_abstract || header {
                    c.push(
                        service_at,
                        service_at,
                        format!(
                            "the session class {name:?} is {}; a session keeps an instance of a \
                             concrete class",
                            if header { "a SOAP header" } else { "abstract" }
                        ),
                    );
                }
            }
        }
    }
    for (op, place) in raw.operations.iter().zip(places) {
        if !op.session || session.is_some() {
            continue;
        }
        let anchor = place.name.or(place.lines.map(|l| loc.op_start(l)));
        let at = place
            .lines
            .and_then(|l| loc.op_key(l, "session"))
            .or(anchor);
        c.push(
            at,
            anchor,
            format!(
                "operation {:?} has `session: true`, but the service names no session class: \
                 add `session: ClassName` to the service (a class of `types:` whose values the \
                 session keeps)",
                op.name.0
            ),
        );
    }
}
