//! A JSON call read straight into its parameters' types, without the value tree in between:
//! each generated class takes its members from the reader as they come (`FromJson::read_json`),
//! arrays their items, and every other value is read as the tree reads it and converted as
//! the tree's value is (`FromJson::from_json`).
//!
//! Only the usual call is read so: the parameters and each class's members once each (a
//! class's `__type`, where it has one, first, as JavaScriptSerializer writes it), every value
//! converting, the nesting within the limit. Anything else (a member twice, a `__type` after
//! another member, a syntax error, a value that does not convert) makes the read give `None`,
//! and the call is read again through the tree (`ScriptArgs`), which also words the error. So
//! where this read gives a value, the tree gives the same one: it reads the same text with
//! the same reader, members of a class land in the same fields (no member is given twice, so
//! none is overwritten), and each leaf is converted by the same `from_json`.

use std::borrow::Cow;

use super::convert::member_index;
use super::parse::Reader;
use super::{FromJson, JsonLimits};

#[doc(hidden)] // for generated code
/// The reader of a call's body, at the value it reads next.
pub struct Streamed<'a> {
    reader: Reader<'a>,
    /// The depth the value read next stands at, as the tree's reader counts it.
    depth: usize,
}

#[doc(hidden)] // for generated code
/// An object being read: the parameters of a call, or a class's members.
#[derive(Debug)]
pub struct Members {
    /// The hints the class may carry as its first member (`None`: the parameters' object,
    /// where `__type` is a name like any other).
    own: Option<&'static [&'static str]>,
    /// No member read yet.
    first: bool,
    /// The members read, by index (at most 64 members: a larger class is read by the tree).
    seen: u64,
}

impl<'a> Streamed<'a> {
    /// Reads `text`, the body of a call, as `read` reads it, if it is read whole: nothing
    /// after the value but white space.
    pub(super) fn read_whole<T>(
        text: &'a str,
        limits: JsonLimits,
        read: impl FnOnce(&mut Streamed<'a>) -> Option<T>,
    ) -> Option<T> {
        if limits.too_long(text) {
            return None;
        }
        let mut streamed = Streamed {
            reader: Reader {
                text,
                pos: 0,
                recursion_limit: limits.recursion_limit,
            },
            depth: 0,
        };
        let value = read(&mut streamed)?;
        match streamed.reader.next_non_white() {
            None => Some(value),
            Some(_) => None,
        }
    }

    /// The next value, of type `T`.
    #[inline]
    pub fn value<T: FromJson>(&mut self) -> Option<T> {
        T::read_json(self)
    }

    /// The next value read as the tree reads it, and converted as the tree's value is: what
    /// `FromJson::read_json` does for any type but those read member by member.
    pub fn converted<T: FromJson>(&mut self) -> Option<T> {
        let value = self.reader.value(self.depth).ok()?;
        T::from_json(&value).ok()
    }

    /// Whether the next character (past white space) is `c`.
    pub fn at(&mut self, c: char) -> bool {
        self.reader.next_non_white() == Some(c)
    }

    /// Starts an object (its `{` next), its members one deeper.
    fn open(&mut self, own: Option<&'static [&'static str]>) -> Option<Members> {
        // The tree's reader: a value at depth d is refused past the limit, an object's
        // members stand at d + 1.
        if self.depth + 1 > self.reader.recursion_limit || !self.at('{') {
            return None;
        }
        self.reader.bump();
        self.depth += 1;
        Some(Members {
            own,
            first: true,
            seen: 0,
        })
    }

    /// Starts the parameters' object of a call.
    pub fn open_params(&mut self) -> Option<Members> {
        self.open(None)
    }

    /// Starts a class's object, whose own hints (its `__type`, where it carries one) are
    /// `own`.
    pub fn open_class(&mut self, own: &'static [&'static str]) -> Option<Members> {
        self.open(Some(own))
    }

    /// The next parameter of the call: the index of the one of `names` it names exactly
    /// (others are read and skipped), `Some(None)` after the last.
    pub fn next_param(&mut self, members: &mut Members, names: &[&str]) -> Option<Option<usize>> {
        self.next(members, names, |name, names| {
            names.iter().position(|&n| n == name)
        })
    }

    /// The next member of a class: the index of the one of `names` it names, exactly or else
    /// ignoring case (`member_index`; others are read and skipped), `Some(None)` after the
    /// last.
    pub fn next_member(&mut self, members: &mut Members, names: &[&str]) -> Option<Option<usize>> {
        self.next(members, names, member_index)
    }

    fn next(
        &mut self,
        members: &mut Members,
        names: &[&str],
        index: impl Fn(&str, &[&str]) -> Option<usize>,
    ) -> Option<Option<usize>> {
        if names.len() > 64 {
            return None;
        }
        loop {
            let c = self.reader.next_non_white()?;
            if !members.first {
                // After a member, `,` and the next one, or the end.
                match c {
                    ',' => {
                        self.reader.bump();
                    }
                    '}' => return Some(self.close()),
                    _ => return None,
                }
            } else if c == '}' {
                return Some(self.close());
            }
            let name = self.name()?;
            let first = std::mem::replace(&mut members.first, false);
            if let Some(own) = members.own {
                if name == "__type" {
                    // A class's hint: first, and one it may carry; anything else is left to
                    // the tree, which finds the hint wherever it stands.
                    let hint = self.reader.value(self.depth).ok()?;
                    match hint {
                        super::Json::String(hint) if first && own.contains(&&*hint) => continue,
                        _ => return None,
                    }
                }
            }
            match index(&name, names) {
                Some(i) => {
                    let bit = 1u64 << i;
                    if members.seen & bit != 0 {
                        // Given twice: the tree keeps the last.
                        return None;
                    }
                    members.seen |= bit;
                    return Some(Some(i));
                }
                None => {
                    // Read, as the tree reads it, and left.
                    self.reader.value(self.depth).ok()?;
                }
            }
        }
    }

    /// A member's name and its `:`.
    fn name(&mut self) -> Option<Cow<'a, str>> {
        let name = match self.reader.next_non_white()? {
            '"' | '\'' => self.reader.string().ok()?,
            ':' => return None,
            _ => Cow::Borrowed(self.reader.token()),
        };
        if self.reader.next_non_white() != Some(':') {
            return None;
        }
        self.reader.bump();
        Some(name)
    }

    /// Ends an object at its `}`.
    fn close(&mut self) -> Option<usize> {
        self.reader.bump();
        self.depth -= 1;
        None
    }

    /// Reads an array (its `[` next) item by item with `item`.
    pub fn array<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        if self.depth + 1 > self.reader.recursion_limit || !self.at('[') {
            return None;
        }
        self.reader.bump();
        self.depth += 1;
        let mut items = Vec::new();
        if self.at(']') {
            self.reader.bump();
            self.depth -= 1;
            return Some(items);
        }
        loop {
            items.push(item(self)?);
            match self.reader.next_non_white()? {
                ',' => {
                    self.reader.bump();
                    if self.at(']') {
                        // A trailing comma, which .NET refuses.
                        return None;
                    }
                }
                ']' => {
                    self.reader.bump();
                    self.depth -= 1;
                    return Some(items);
                }
                _ => return None,
            }
        }
    }
}
