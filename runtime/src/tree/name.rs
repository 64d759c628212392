//! An element's name as [`XmlOut`](super::XmlOut) writes it: a plain `&'static str`, or a
//! [`Tag`] whose markup the generated code makes once, at compile time.
//!
//! Writing `<Quantity>` from a name costs three appends (`<`, the name, `>`), each checking
//! the buffer's capacity; from a tag, one append of a constant the compiler copies inline.
//! Class messages are mostly such small elements, so generated classes name their members
//! with [`tag!`](crate::tree::tag) and the writer's plain path writes each tag whole.

/// An element's name with its markup, made at compile time by [`tag!`](crate::tree::tag):
/// the generated code's way of naming an element it writes.
#[derive(Debug)]
pub struct Tag {
    /// The name (`Quantity`), for errors and for the writer's general path (a prefix, an
    /// indented document).
    pub name: &'static str,
    /// `<Quantity`: a start tag left open for attributes.
    pub start: &'static str,
    /// `<Quantity>`.
    pub open: &'static str,
    /// `</Quantity>`.
    pub close: &'static str,
    /// `<Quantity xsi:nil="true" />`, a null as XmlSerializer writes it in a message.
    pub nil: &'static str,
}

/// Makes a [`Tag`] of a literal name: `tag!("Quantity")` is a `&'static Tag`.
#[doc(hidden)]
#[macro_export]
macro_rules! __rmm_tag {
    ($name:literal) => {
        &$crate::tree::Tag {
            name: $name,
            start: concat!("<", $name),
            open: concat!("<", $name, ">"),
            close: concat!("</", $name, ">"),
            nil: concat!("<", $name, " xsi:nil=\"true\" />"),
        }
    };
}
pub use crate::__rmm_tag as tag;

/// Makes the tags of an array's items at each level of nesting (see
/// [`XmlItem`](super::XmlItem)): `tags!("ArrayOfInt1", "int")`, `tags!()` for none.
#[doc(hidden)]
#[macro_export]
macro_rules! __rmm_tags {
    ($($name:literal),* $(,)?) => {
        &[$($crate::tree::tag!($name)),*] as &'static [&'static $crate::tree::Tag]
    };
}
pub use crate::__rmm_tags as tags;

/// What names an element for [`XmlOut`](super::XmlOut): a name, whose tags are written a
/// piece at a time, or a [`Tag`], whose tags are written whole.
pub trait ElementName: Copy {
    /// The element's local name.
    fn name(self) -> &'static str;
    /// Appends `<name` (the start tag left open).
    fn write_start(self, out: &mut String);
    /// Appends `<name>`.
    fn write_open(self, out: &mut String);
    /// Appends `</name>`.
    fn write_close(self, out: &mut String);
    /// Appends `<name xsi:nil="true" />`.
    fn write_nil(self, out: &mut String);
}

impl ElementName for &'static str {
    #[inline(always)]
    fn name(self) -> &'static str {
        self
    }

    #[inline(always)]
    fn write_start(self, out: &mut String) {
        out.push('<');
        out.push_str(self);
    }

    #[inline(always)]
    fn write_open(self, out: &mut String) {
        out.push('<');
        out.push_str(self);
        out.push('>');
    }

    #[inline(always)]
    fn write_close(self, out: &mut String) {
        out.push_str("</");
        out.push_str(self);
        out.push('>');
    }

    #[inline(always)]
    fn write_nil(self, out: &mut String) {
        self.write_start(out);
        out.push_str(" xsi:nil=\"true\" />");
    }
}

impl ElementName for &'static Tag {
    #[inline(always)]
    fn name(self) -> &'static str {
        self.name
    }

    #[inline(always)]
    fn write_start(self, out: &mut String) {
        out.push_str(self.start);
    }

    #[inline(always)]
    fn write_open(self, out: &mut String) {
        out.push_str(self.open);
    }

    #[inline(always)]
    fn write_close(self, out: &mut String) {
        out.push_str(self.close);
    }

    #[inline(always)]
    fn write_nil(self, out: &mut String) {
        out.push_str(self.nil);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each piece of markup, written from a name and from a tag.
    fn pieces<N: ElementName>(name: N) -> [String; 4] {
        let write = |f: fn(N, &mut String)| {
            let mut out = String::new();
            f(name, &mut out);
            out
        };
        [
            write(N::write_start),
            write(N::write_open),
            write(N::write_close),
            write(N::write_nil),
        ]
    }

    #[test]
    fn a_tag_writes_what_its_name_writes() {
        let expected = [
            "<Quantity",
            "<Quantity>",
            "</Quantity>",
            "<Quantity xsi:nil=\"true\" />",
        ];
        assert_eq!(pieces("Quantity"), expected);
        assert_eq!(pieces(tag!("Quantity")), expected);
        assert_eq!(tag!("Quantity").name(), "Quantity");
    }
}
