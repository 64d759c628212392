//! Finds where an item of a parsed spec is written, by scanning the source text.
//!
//! serde_yaml does not keep positions of values that parsed fine, so the validator asks this
//! scanner instead. It understands the block layout the spec is written in (indented maps,
//! `- ` items, flow lists like `[a, b]` for the name lists) and nothing more: whenever what it
//! finds does not match what was parsed (a different item count, a different text at the
//! spot), it answers `None` and the error goes out without a location rather than a wrong one.

/// A 1-based line and column (columns count characters, as serde_yaml's do).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Pos {
    pub line: usize,
    pub column: usize,
}

/// Where one operation is written.
#[derive(Debug, Clone, Copy)]
pub(super) struct OpLines {
    /// Lines `[start, end)` of the list item (0-based indexes).
    start: usize,
    end: usize,
    /// Byte column of the item's keys.
    col: usize,
}

/// The source text, split into lines.
pub(super) struct Locator<'a> {
    lines: Vec<&'a str>,
}

/// Leading spaces of a line.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// A line that is neither blank nor only a comment.
fn meaningful(line: &str) -> bool {
    let t = line.trim_start();
    !t.is_empty() && !t.starts_with('#')
}

/// A line whose content is a block sequence item (`- …` or a lone `-`).
fn is_item(line: &str) -> bool {
    let t = line.trim_start_matches(' ');
    t == "-" || t.starts_with("- ")
}

/// `text` without a trailing comment (a `#` at the start or after whitespace).
fn strip_comment(text: &str) -> &str {
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'#' && (i == 0 || bytes[i - 1] == b' ' || bytes[i - 1] == b'\t') {
            return &text[..i];
        }
    }
    text
}

/// Whether `text` starts with `word`, bare or quoted, followed by `after` (or the end of a
/// bare value).
fn starts_with_word(text: &str, word: &str, after: &[char]) -> bool {
    let (rest, quote) = match text.chars().next() {
        Some(q @ ('"' | '\'')) => (&text[1..], Some(q)),
        _ => (text, None),
    };
    let Some(rest) = rest.strip_prefix(word) else {
        return false;
    };
    let rest = match quote {
        Some(q) => match rest.strip_prefix(q) {
            Some(r) => r,
            None => return false,
        },
        None => rest,
    };
    match rest.chars().next() {
        None => true,
        Some(c) => after.contains(&c),
    }
}

impl<'a> Locator<'a> {
    /// Splits `source` into lines.
    pub fn new(source: &'a str) -> Self {
        Locator {
            lines: source.lines().collect(),
        }
    }

    /// The position of byte `byte` of line `idx`.
    fn pos(&self, idx: usize, byte: usize) -> Pos {
        Pos {
            line: idx + 1,
            column: self.lines[idx][..byte].chars().count() + 1,
        }
    }

    /// The first line in `[start, end)` holding `key:` at byte column `col`, with only
    /// indentation or item dashes before it.
    fn key_line(&self, start: usize, end: usize, col: usize, key: &str) -> Option<usize> {
        (start..end).find(|&i| {
            let line = self.lines[i];
            line.len() > col
                && line.is_char_boundary(col)
                && line[..col].bytes().all(|b| b == b' ' || b == b'-')
                && line[col..]
                    .strip_prefix(key)
                    .and_then(|r| r.strip_prefix(':'))
                    .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']))
        })
    }

    /// The end (exclusive) of the value of the key on line `key` at byte column `col`: the
    /// first later meaningful line indented less, or as much but not a `- ` item.
    fn value_end(&self, key: usize, col: usize) -> usize {
        (key + 1..self.lines.len())
            .find(|&i| {
                let line = self.lines[i];
                meaningful(line) && {
                    let ind = indent(line);
                    ind < col || (ind == col && !is_item(line))
                }
            })
            .unwrap_or(self.lines.len())
    }

    /// The byte column of the value after `key:` on line `idx` (key at byte column `col`).
    fn value_col(&self, idx: usize, col: usize, key: &str) -> usize {
        let line = self.lines[idx];
        let after = col + key.len() + 1;
        after + (line[after..].len() - line[after..].trim_start().len())
    }

    /// The position of the value of `key` (at byte column `col`, in lines `[start, end)`)
    /// if its text is `expected`; the position of the key itself if `expected` is empty and
    /// the value is written empty.
    fn value_pos(
        &self,
        start: usize,
        end: usize,
        col: usize,
        key: &str,
        expected: &str,
    ) -> Option<Pos> {
        let idx = self.key_line(start, end, col, key)?;
        let vcol = self.value_col(idx, col, key);
        let value = strip_comment(&self.lines[idx][vcol..]).trim_end();
        if expected.is_empty() {
            return (value.is_empty() || value == "\"\"" || value == "''")
                .then(|| self.pos(idx, if value.is_empty() { col } else { vcol }));
        }
        starts_with_word(value, expected, &[]).then(|| self.pos(idx, vcol))
    }

    /// The items of the block sequence in lines `[start, end)`: for each, its first line and
    /// the byte column of its content. `None` if the lines are not a block sequence.
    fn items(&self, start: usize, end: usize) -> Option<Vec<(usize, usize)>> {
        let first = (start..end).find(|&i| meaningful(self.lines[i]))?;
        let dash = indent(self.lines[first]);
        if !is_item(self.lines[first]) {
            return None;
        }
        Some(
            (first..end)
                .filter(|&i| indent(self.lines[i]) == dash && is_item(self.lines[i]))
                .map(|i| {
                    let after = &self.lines[i][dash + 1..];
                    (i, dash + 1 + (after.len() - after.trim_start().len()))
                })
                .collect(),
        )
    }

    /// The line of top-level key `key`.
    fn top_key(&self, key: &str) -> Option<usize> {
        self.key_line(0, self.lines.len(), 0, key)
    }

    /// The position of top-level key `key` itself.
    pub fn top_key_pos(&self, key: &str) -> Option<Pos> {
        self.top_key(key).map(|idx| self.pos(idx, 0))
    }

    /// The position of the value of `service.<key>`, if written as `expected`.
    pub fn service_value(&self, key: &str, expected: &str) -> Option<Pos> {
        let s = self.top_key("service")?;
        let end = self.value_end(s, 0);
        let first = (s + 1..end).find(|&i| meaningful(self.lines[i]))?;
        self.value_pos(s + 1, end, indent(self.lines[first]), key, expected)
    }

    /// The position of the name of the enum called `name` (`- name: Level` under `enums:`).
    pub fn enum_name(&self, name: &str) -> Option<Pos> {
        let k = self.top_key("enums")?;
        let end = self.value_end(k, 0);
        (k + 1..end).find_map(|i| {
            let line = self.lines[i];
            let at = line.find("name:")?;
            let before = line[..at].trim();
            if !(before.is_empty() || before == "-") {
                return None;
            }
            let value = line[at + 5..].trim_start();
            let col = line.len() - value.len();
            let word = value.split([' ', '#']).next()?.trim_matches(['"', '\'']);
            (word == name).then(|| self.pos(i, col))
        })
    }

    /// The position of the `nth` (0-based) occurrence of `name` in the top-level list `key`
    /// (flow `[a, b]` or block `- a`).
    pub fn list_entry(&self, key: &str, name: &str, nth: usize) -> Option<Pos> {
        if name.is_empty() {
            return None;
        }
        let k = self.top_key(key)?;
        let end = self.value_end(k, 0);
        let mut seen = 0;
        for idx in k..end {
            let from = if idx == k { key.len() + 1 } else { 0 };
            let text = strip_comment(&self.lines[idx][from..]);
            for (at, _) in text.match_indices(name) {
                let before = text[..at].chars().next_back();
                let after = text[at + name.len()..].chars().next();
                let bounded_before = matches!(before, None | Some('[' | ',' | ' ' | '"' | '\''));
                let bounded_after = matches!(after, None | Some(']' | ',' | ' ' | '"' | '\''));
                if bounded_before && bounded_after {
                    if seen == nth {
                        return Some(self.pos(idx, from + at));
                    }
                    seen += 1;
                }
            }
        }
        None
    }

    /// Where each operation is written, if the `operations:` list has exactly `count` block
    /// items.
    pub fn operations(&self, count: usize) -> Option<Vec<OpLines>> {
        self.top_items("operations", count)
    }

    /// Where each item of the top-level list `key` is written (an operation, a type), if it
    /// has exactly `count` block items.
    pub fn top_items(&self, key: &str, count: usize) -> Option<Vec<OpLines>> {
        let k = self.top_key(key)?;
        let end = self.value_end(k, 0);
        let items = self.items(k + 1, end)?;
        if items.len() != count {
            return None;
        }
        let mut ops = Vec::with_capacity(count);
        for (n, &(start, col)) in items.iter().enumerate() {
            let next = items.get(n + 1).map_or(end, |&(line, _)| line);
            ops.push(OpLines {
                start,
                end: next,
                col,
            });
        }
        Some(ops)
    }

    /// Where each item of the item's block list `key` is written (a data set's `tables:`),
    /// if it has exactly `count` block items.
    pub fn sub_items(&self, op: OpLines, key: &str, count: usize) -> Option<Vec<OpLines>> {
        let k = self.key_line(op.start, op.end, op.col, key)?;
        let end = self.value_end(k, op.col).min(op.end);
        let items = self.items(k + 1, end)?;
        if items.len() != count {
            return None;
        }
        Some(
            items
                .iter()
                .enumerate()
                .map(|(n, &(start, col))| OpLines {
                    start,
                    end: items.get(n + 1).map_or(end, |&(line, _)| line),
                    col,
                })
                .collect(),
        )
    }

    /// The start of an operation's list item.
    pub fn op_start(&self, op: OpLines) -> Pos {
        self.pos(op.start, op.col)
    }

    /// The position of the value of the operation's `key`, if written as `expected`.
    pub fn op_value(&self, op: OpLines, key: &str, expected: &str) -> Option<Pos> {
        self.value_pos(op.start, op.end, op.col, key, expected)
    }

    /// The position of the operation's `key` itself.
    pub fn op_key(&self, op: OpLines, key: &str) -> Option<Pos> {
        self.key_line(op.start, op.end, op.col, key)
            .map(|idx| self.pos(idx, op.col))
    }

    /// For each parameter of the operation, the positions of its name and its type, if the
    /// `params:` block has exactly the names in `names`, in order.
    pub fn params(&self, op: OpLines, names: &[&str]) -> Option<Vec<(Pos, Pos)>> {
        self.entries(op, "params", names)
    }

    /// For each one-key entry of the item's block list `key` (`params:`, a type's
    /// `members:`), the positions of its name and its value, if the list has exactly the
    /// names in `names`, in order.
    pub fn entries(&self, op: OpLines, key: &str, names: &[&str]) -> Option<Vec<(Pos, Pos)>> {
        let k = self.key_line(op.start, op.end, op.col, key)?;
        let end = self.value_end(k, op.col).min(op.end);
        let items = self.items(k + 1, end)?;
        if items.len() != names.len() {
            return None;
        }
        items
            .iter()
            .zip(names)
            .map(|(&(idx, col), name)| {
                let text = &self.lines[idx][col..];
                if !starts_with_word(text, name, &[':']) {
                    return None;
                }
                let quoted = text.starts_with(['"', '\'']);
                let colon = col + name.len() + if quoted { 2 } else { 0 };
                let after = &self.lines[idx][colon + 1..];
                let ty = colon + 1 + (after.len() - after.trim_start().len());
                Some((self.pos(idx, col), self.pos(idx, ty)))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "\
service:
  name: S
  namespace: \"\"
  path: /p
credentials: [a, b] # a comment naming a
secrets:
  - b
  - ab
operations:
- name: One
  doc: x
  params:
  - a: int
  - 'b': string
  result: string
- name: Two
  params: []
  result: string
";

    fn p(line: usize, column: usize) -> Option<Pos> {
        Some(Pos { line, column })
    }

    #[test]
    fn finds_service_values() {
        let l = Locator::new(SRC);
        assert_eq!(l.service_value("name", "S"), p(2, 9));
        assert_eq!(l.service_value("namespace", ""), p(3, 14));
        assert_eq!(l.service_value("path", "/p"), p(4, 9));
        assert_eq!(l.service_value("path", "/q"), None);
    }

    #[test]
    fn finds_list_entries_not_in_comments_or_other_words() {
        let l = Locator::new(SRC);
        assert_eq!(l.list_entry("credentials", "a", 0), p(5, 15));
        assert_eq!(l.list_entry("credentials", "a", 1), None);
        assert_eq!(l.list_entry("credentials", "b", 0), p(5, 18));
        assert_eq!(l.list_entry("secrets", "b", 0), p(7, 5));
        assert_eq!(l.list_entry("secrets", "ab", 0), p(8, 5));
    }

    #[test]
    fn finds_operations_and_params() {
        let l = Locator::new(SRC);
        assert!(l.operations(3).is_none());
        let ops = l.operations(2).unwrap();
        assert_eq!(
            l.op_start(ops[1]),
            Pos {
                line: 16,
                column: 3
            }
        );
        assert_eq!(l.op_value(ops[0], "name", "One"), p(10, 9));
        assert_eq!(l.op_key(ops[0], "doc"), p(11, 3));
        assert_eq!(l.op_key(ops[1], "doc"), None);
        let params = l.params(ops[0], &["a", "b"]).unwrap();
        assert_eq!(
            params[0],
            (
                Pos {
                    line: 13,
                    column: 5
                },
                Pos {
                    line: 13,
                    column: 8
                }
            )
        );
        assert_eq!(
            params[1],
            (
                Pos {
                    line: 14,
                    column: 5
                },
                Pos {
                    line: 14,
                    column: 10
                }
            )
        );
        assert!(l.params(ops[0], &["a", "c"]).is_none());
        assert!(l.params(ops[1], &[]).is_none());
    }
}
