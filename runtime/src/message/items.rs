//! An array result cut into small messages as its bytes arrive, so that a client reads a
//! response of any size holding one batch of items at a time (`client::Items`); a DataSet
//! result likewise, its rows being the items (`client::DataSetRows`).
//!
//! The cutter only finds where elements begin and end; it reads no value. Each piece it hands
//! out is a whole message the operation's own decoder reads: the response's bytes up to the
//! first item (the envelope, its namespace declarations, any Header, the result's start tag),
//! a run of whole items, and the closing tags of the elements still open. The last piece ends
//! with the message's own bytes after the last item. So every rule the decoder keeps (names,
//! namespaces, `xsi:type`, `xsi:nil`, items of other names skipped, faults, bounds) holds for
//! each item exactly as it does when the message is read whole.

use crate::Binding;

/// The size of the items a piece carries before it is handed out: large enough that the
/// repeated head costs little, small enough that a piece's values are a few hundred items.
pub(crate) const BATCH: usize = 64 * 1024;

/// The most bytes held at once: the head before the first item plus one item (or a whole
/// response that has no items to cut). A response past it is refused, not read.
pub(crate) const HELD_LIMIT: usize = 64 * 1024 * 1024;

/// Why a response could not be cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CutError {
    /// More than [`HELD_LIMIT`] bytes before an item ended.
    TooLarge,
    /// A second result element after the first: the whole message's reader takes the last
    /// one, which items already handed out cannot follow.
    RepeatedResult,
}

impl std::fmt::Display for CutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CutError::TooLarge => write!(
                f,
                "more than {HELD_LIMIT} bytes arrived before an item of the result ended"
            ),
            CutError::RepeatedResult => write!(
                f,
                "the response repeats its result element; read it whole (`call`) to take the last"
            ),
        }
    }
}

/// Where the cutter is in the response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Before the first item: everything is head.
    Head,
    /// Inside the array element, among its items.
    Items,
    /// After the array element closed.
    Tail,
    /// A response it does not cut (a bare or raw result, another charset): read whole.
    Whole,
}

/// The cutter of one response. Feed it the body's chunks ([`ItemCut::push`]) and take
/// pieces ([`ItemCut::piece`]) after each; at the end of the body, [`ItemCut::last`].
#[derive(Debug)]
pub(crate) struct ItemCut {
    /// Bytes received and not yet handed out.
    pending: Vec<u8>,
    /// `pending[..lexed]` has been read for markup.
    lexed: usize,
    /// `pending[..cut]` ends where an item ends.
    cut: usize,
    /// The message up to the first item.
    head: Vec<u8>,
    /// The qualified names of the open elements down to the array element, outermost first.
    open: Vec<Vec<u8>>,
    /// The depth of the element the next start tag opens under (the document is 0).
    depth: usize,
    /// The depth of the array element, once met.
    array: Option<usize>,
    /// How far below the result the array element lies: 0 for an array result, 2 for a
    /// DataSet's rows (the result holds `diffgr:diffgram`, whose first element holds them).
    below: usize,
    /// The depth of the deepest element open on the way to the array element (0: none).
    path: usize,
    phase: Phase,
    /// A SOAP envelope (the array at depth 4: Envelope, Body, the response element, the
    /// result), or an HTTP GET/POST result document (the array is its root).
    soap: bool,
    result_name: &'static str,
}

impl ItemCut {
    /// A cutter of a response over `binding` whose array result is the element
    /// `result_name` (SOAP) or the document's root (HTTP GET/POST). `whole` sends the body
    /// through uncut (a response the cutter cannot follow byte by byte).
    pub(crate) fn new(binding: Binding, result_name: &'static str, whole: bool) -> ItemCut {
        ItemCut::below_result(binding, result_name, whole, 0)
    }

    /// A cutter of a response whose result is a DataSet, its rows being the items: those of
    /// the first element of the result's `diffgram`.
    pub(crate) fn rows(binding: Binding, result_name: &'static str, whole: bool) -> ItemCut {
        ItemCut::below_result(binding, result_name, whole, 2)
    }

    fn below_result(
        binding: Binding,
        result_name: &'static str,
        whole: bool,
        below: usize,
    ) -> ItemCut {
        ItemCut {
            pending: Vec::new(),
            lexed: 0,
            cut: 0,
            head: Vec::new(),
            open: Vec::new(),
            depth: 0,
            array: None,
            below,
            path: 0,
            phase: if whole { Phase::Whole } else { Phase::Head },
            soap: binding.is_soap(),
            result_name,
        }
    }

    /// Takes in the next chunk of the body; [`ItemCut::piece`] reads it.
    pub(crate) fn push(&mut self, chunk: &[u8]) {
        self.pending.extend_from_slice(chunk);
    }

    /// The next piece to decode, once [`BATCH`] bytes of whole items have arrived: call it
    /// after each chunk until it gives `None`. Reads no further than that piece, so the
    /// bytes held stay one piece and one chunk.
    pub(crate) fn piece(&mut self) -> Result<Option<Vec<u8>>, CutError> {
        if self.phase != Phase::Whole {
            self.lex()?;
        }
        if self.phase == Phase::Items && self.cut >= BATCH {
            return Ok(Some(self.take_piece()));
        }
        if self.pending.len() - self.cut > HELD_LIMIT {
            return Err(CutError::TooLarge);
        }
        Ok(None)
    }

    /// The head, the items up to the cut, the closing tags of the elements open there.
    fn take_piece(&mut self) -> Vec<u8> {
        let mut piece = Vec::with_capacity(self.head.len() + self.cut + 64);
        piece.extend_from_slice(&self.head);
        piece.extend_from_slice(&self.pending[..self.cut]);
        for name in self.open.iter().rev() {
            piece.extend_from_slice(b"</");
            piece.extend_from_slice(name);
            piece.push(b'>');
        }
        self.pending.drain(..self.cut);
        self.lexed -= self.cut;
        self.cut = 0;
        piece
    }

    /// The last piece, at the end of the body: the head, the items left and the message's
    /// own end (or the whole body, where there were no items to cut).
    pub(crate) fn last(self) -> Vec<u8> {
        let mut piece = self.head;
        piece.extend_from_slice(&self.pending);
        piece
    }

    /// Reads the markup of `pending[lexed..]` as far as it is whole.
    fn lex(&mut self) -> Result<(), CutError> {
        while self.phase != Phase::Items || self.cut < BATCH {
            let Some(at) = memchr::memchr(b'<', &self.pending[self.lexed..]) else {
                self.lexed = self.pending.len();
                return Ok(());
            };
            let at = self.lexed + at;
            let Some((markup, len)) = markup(&self.pending[at..]) else {
                self.lexed = at;
                return Ok(());
            };
            self.lexed = at + len;
            match markup {
                Markup::Start { name_len, empty } => {
                    let name = at + 1..at + 1 + name_len;
                    self.start(at, name, empty)?;
                }
                Markup::End => self.end(),
                Markup::Other => {}
            }
        }
        Ok(())
    }

    /// A start tag at `pending[at..]` naming `pending[name]`.
    fn start(
        &mut self,
        at: usize,
        name: std::ops::Range<usize>,
        empty: bool,
    ) -> Result<(), CutError> {
        self.depth += 1;
        let depth = self.depth;
        let qname = &self.pending[name];
        let local = qname.rsplit(|&b| b == b':').next().unwrap_or(qname);
        match self.phase {
            Phase::Head if self.array.is_some_and(|array| depth == array + 1) => {
                // The first item: what came before is the head of every piece.
                self.head = self.pending.drain(..at).collect();
                self.lexed -= at;
                self.phase = Phase::Items;
            }
            Phase::Head if depth <= self.array_depth() => {
                self.open.truncate(depth - 1);
                self.open.push(qname.to_vec());
                // A later result element is the array rather than an earlier empty one, as
                // the whole message's reader takes the last.
                if self.on_path(depth, local) {
                    self.path = depth;
                    if depth == self.array_depth() {
                        self.array = Some(depth);
                    }
                }
            }
            Phase::Tail if depth == self.result_depth() && local == self.result_name.as_bytes() => {
                return Err(CutError::RepeatedResult);
            }
            _ => {}
        }
        if empty {
            self.end();
        }
        Ok(())
    }

    /// An element ends (an end tag, or a start tag's `/>`).
    fn end(&mut self) {
        let depth = self.depth;
        self.depth = depth.saturating_sub(1);
        match (self.phase, self.array) {
            (Phase::Items, Some(array)) if depth == array + 1 => self.cut = self.lexed,
            (Phase::Items, Some(array)) if depth == array => self.phase = Phase::Tail,
            // An element on the way closing before any item (`<Result/>`, `xsi:nil`, an
            // empty diffgram): not the way to the array.
            (Phase::Head, _) if depth <= self.path => {
                self.array = None;
                self.path = 0;
            }
            _ => {}
        }
    }

    /// The depth of the result element.
    fn result_depth(&self) -> usize {
        if self.soap {
            4
        } else {
            1
        }
    }

    fn array_depth(&self) -> usize {
        self.result_depth() + self.below
    }

    /// Whether an element at `depth` named `local` is on the way to the array: the result,
    /// then (for a DataSet's rows) the `diffgram` in it, then that one's first element.
    fn on_path(&self, depth: usize, local: &[u8]) -> bool {
        let result = self.result_depth();
        match depth.checked_sub(result) {
            None => false,
            Some(0) => self.is_array(depth, local),
            Some(1) => self.path == result && local == b"diffgram",
            Some(_) => self.path == depth - 1,
        }
    }

    /// Whether an element at `depth` named `local` is the array: the result under the
    /// response element in the Body (not in a Header), or a result document's root.
    fn is_array(&self, depth: usize, local: &[u8]) -> bool {
        if !self.soap {
            return depth == 1;
        }
        let in_body = self
            .open
            .get(1)
            .is_some_and(|body| body.rsplit(|&b| b == b':').next() == Some(b"Body".as_slice()));
        depth == 4 && in_body && local == self.result_name.as_bytes()
    }
}

/// What a piece of markup is, for the cutter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Markup {
    /// A start tag whose name is `name_len` bytes after the `<`; `empty` ends with `/>`.
    Start { name_len: usize, empty: bool },
    /// An end tag.
    End,
    /// A comment, CDATA section, processing instruction or declaration.
    Other,
}

/// The markup `bytes` begins with (`bytes[0]` is `<`) and its length, or `None` if it does
/// not end within `bytes` yet.
fn markup(bytes: &[u8]) -> Option<(Markup, usize)> {
    const COMMENT: &[u8] = b"<!--";
    const CDATA: &[u8] = b"<![CDATA[";
    let until = |from: usize, end: &[u8]| {
        memchr::memmem::find(&bytes[from..], end).map(|at| from + at + end.len())
    };
    if bytes.starts_with(COMMENT) {
        return until(COMMENT.len(), b"-->").map(|len| (Markup::Other, len));
    }
    if bytes.starts_with(CDATA) {
        return until(CDATA.len(), b"]]>").map(|len| (Markup::Other, len));
    }
    if COMMENT.starts_with(bytes) || CDATA.starts_with(bytes) || bytes.len() < 2 {
        return None; // too short to tell yet
    }
    match bytes[1] {
        b'?' => until(2, b"?>").map(|len| (Markup::Other, len)),
        b'!' => until(2, b">").map(|len| (Markup::Other, len)),
        b'/' => until(2, b">").map(|len| (Markup::End, len)),
        _ => {
            let name_len = bytes[1..]
                .iter()
                .position(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'/' | b'>'))?;
            // The tag ends at the first `>` outside a quoted attribute value.
            let mut at = 1 + name_len;
            loop {
                at += memchr::memchr3(b'>', b'"', b'\'', &bytes[at..])?;
                let quote = bytes[at];
                if quote == b'>' {
                    let empty = bytes[at - 1] == b'/';
                    return Some((Markup::Start { name_len, empty }, at + 1));
                }
                at += 1 + memchr::memchr(quote, &bytes[at + 1..])? + 1;
            }
        }
    }
}

#[cfg(test)]
#[path = "items_tests.rs"]
mod tests;
