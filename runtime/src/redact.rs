//! Debug output of secrets: generated `Debug` impls print secret parameters through
//! [`Redacted`], so a logged request or credential set never shows them.

use std::fmt;

/// Prints `<redacted>` in place of a value; an absent optional value still prints `None`, as
/// whether a secret was sent is useful and harmless.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Redacted {
    present: bool,
}

impl Redacted {
    /// A secret that is always present (an int, say).
    pub const fn value() -> Redacted {
        Redacted { present: true }
    }

    /// A secret that may be absent.
    pub const fn option<T>(value: &Option<T>) -> Redacted {
        Redacted {
            present: value.is_some(),
        }
    }
}

impl fmt::Debug for Redacted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.present {
            f.write_str("<redacted>")
        } else {
            f.write_str("None")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hides_the_value_but_not_its_absence() {
        assert_eq!(
            format!("{:?}", Redacted::option(&Some("hunter2"))),
            "<redacted>"
        );
        assert_eq!(format!("{:?}", Redacted::option::<String>(&None)), "None");
        assert_eq!(format!("{:?}", Redacted::value()), "<redacted>");
    }
}
