//! Text as XmlSerializer escapes it, element text and attribute values.

/// What each byte needs when written as element text: 0 nothing, 1 an escape, 2 refusal, 3 a
/// look at the character it starts (0xEF leads U+F000 to U+FFFF, where U+FFFE and U+FFFF
/// are refused).
pub(super) const TEXT_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = 2;
        b += 1;
    }
    table[b'\t' as usize] = 0;
    table[b'\n' as usize] = 0;
    // A raw CR would come back as LF from any conforming reader (XML 1.0 §2.11), so it is
    // written as a character reference to survive the round trip.
    table[b'\r' as usize] = 1;
    table[b'&' as usize] = 1;
    table[b'<' as usize] = 1;
    table[b'>' as usize] = 1;
    table[0xEF] = 3;
    table
};

/// Appends `text` as XML element content: `&`, `<`, `>` escaped as an ASMX host escapes
/// them (quotes stay as they are), CR as `&#xD;`.
///
/// Returns the code point of the first character XML 1.0 cannot carry (C0 controls other
/// than tab, LF and CR, U+FFFE and U+FFFF); `out` may then hold part of the text.
pub fn escape_text(out: &mut String, text: &str) -> Result<(), u32> {
    let first = first_to_escape(text.as_bytes());
    if first == text.len() {
        // Nothing to escape, as in nearly every text.
        out.push_str(text);
        return Ok(());
    }
    escape_text_from(out, text, first)
}

/// [`escape_text`], `first` being [`first_to_escape`] of `text`.
pub(crate) fn escape_text_from(out: &mut String, text: &str, first: usize) -> Result<(), u32> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut at = first;
    while let Some(&b) = bytes.get(at) {
        match TEXT_CLASS[b as usize] {
            2 => return Err(u32::from(b)),
            3 => {
                // U+FFFE and U+FFFF are EF BF BE and EF BF BF; the rest of U+F000 to U+FFFF
                // is written as it is.
                if let [0xBF, last @ (0xBE | 0xBF)] = bytes[at + 1..at + 3] {
                    return Err(0xFFFE + u32::from(last - 0xBE));
                }
                at += 1;
                at += first_to_escape(&bytes[at..]);
                continue;
            }
            _ => {}
        }
        out.push_str(&text[start..at]);
        out.push_str(match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            _ => "&#xD;",
        });
        start = at + 1;
        at = start + first_to_escape(&bytes[start..]);
    }
    out.push_str(&text[start..]);
    Ok(())
}

/// The index of the first byte of `bytes` that [`escape_text`] must escape or refuse, or
/// its length.
///
/// Eight bytes at a time, with the word tests of "Bit Twiddling Hacks" (`hasless`,
/// `haszero`), which are non-zero exactly when some byte of the word is below `0x20` or is
/// `&`, `<`, `>` or `0xEF` (the lowest such byte always sets its high bit: no borrow reaches
/// it). Tab and LF, below `0x20` but written as they are, and `0xEF` before other characters
/// than U+FFFE and U+FFFF only make a word be looked at byte by byte.
/// A tail shorter than a word is tested as the last eight bytes, which overlap bytes already
/// found clean.
#[inline(always)]
pub(crate) fn first_to_escape(bytes: &[u8]) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let flagged = |at: usize| {
        let w = u64::from_ne_bytes(bytes[at..at + 8].try_into().expect("eight bytes"));
        let has_zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS;
        ((w.wrapping_sub(ONES * 0x20) & !w & HIGHS)
            | has_zero(w ^ (ONES * u64::from(b'&')))
            | has_zero(w ^ (ONES * u64::from(b'<')))
            | has_zero(w ^ (ONES * u64::from(b'>'))))
            != 0
            // 0xEF only in a word with a byte above 0x7F: ASCII words skip the test.
            || (w & HIGHS != 0 && has_zero(w ^ (ONES * 0xEF)) != 0)
    };
    let exact = |from: usize, to: usize| {
        bytes[from..to]
            .iter()
            .position(|&b| TEXT_CLASS[b as usize] != 0)
            .map(|i| from + i)
    };
    let len = bytes.len();
    let mut at = 0;
    while len - at >= 8 {
        if flagged(at) {
            if let Some(found) = exact(at, at + 8) {
                return found;
            }
        }
        at += 8;
    }
    if at == len || (len >= 8 && !flagged(len - 8)) {
        return len;
    }
    exact(at, len).unwrap_or(len)
}
