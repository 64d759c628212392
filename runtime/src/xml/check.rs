//! What a conforming XML 1.0 parser refuses and quick-xml lets through: characters, names,
//! the XML declaration, references; and whether the U+FFFD of a body read with bytes that were
//! not text all stand where a reader skips text.

use std::borrow::Cow;

use super::{is_xml_space, XmlError, XmlResult};

/// What each byte means to [`check_chars`]: 0 nothing, 1 a character XML forbids (a C0
/// control other than tab, LF and CR), 2 the lead byte of U+F000 to U+FFFF (U+FFFE and
/// U+FFFF are forbidden).
const CHAR_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = 1;
        b += 1;
    }
    table[b'\t' as usize] = 0;
    table[b'\n' as usize] = 0;
    table[b'\r' as usize] = 0;
    table[0xEF] = 2;
    table
};

/// Checks an XML declaration, `content` being what lies between `<?` and `?>`, against XML
/// 1.0's grammar (`xml`, `version`, then optionally `encoding` and `standalone`, in that
/// order, with whitespace before each), as .NET's reader does: version `1.0` only (it refuses
/// `1.1`, which XML 1.0 would read), an encoding of attribute-value characters (not the
/// stricter EncName of XML 1.0, which .NET does not check), `standalone` `yes` or `no`.
/// quick-xml reads what it finds there without these checks. (Whether the encoding is one we
/// decode is for the caller.)
pub(super) fn check_xml_declaration(content: &[u8]) -> Result<(), String> {
    let bad = |what: &str| {
        Err(format!(
            "the XML declaration <?{}?>: {what}",
            String::from_utf8_lossy(content)
        ))
    };
    let Some(mut rest) = content.strip_prefix(b"xml") else {
        return bad("it does not start with xml");
    };
    let mut pseudo_attributes = [&b"version"[..], b"encoding", b"standalone"].into_iter();
    let mut first = true;
    loop {
        let trimmed = rest.trim_ascii_start();
        let spaced = trimmed.len() < rest.len();
        rest = trimmed;
        if rest.is_empty() {
            return if first {
                bad("it has no version")
            } else {
                Ok(())
            };
        }
        if !spaced {
            return bad("whitespace is missing before a name");
        }
        let name_len = rest
            .iter()
            .position(|&b| b == b'=' || is_xml_space(b))
            .unwrap_or(rest.len());
        let name = &rest[..name_len];
        // Names must come in grammar order, the version first; any may be left out but it.
        let known = if first {
            pseudo_attributes.next().filter(|&n| n == name)
        } else {
            pseudo_attributes.by_ref().find(|&n| n == name)
        };
        let Some(name) = known else {
            return bad("its names are not version, encoding, standalone in that order");
        };
        first = false;
        rest = rest[name_len..].trim_ascii_start();
        let Some(after_eq) = rest.strip_prefix(b"=") else {
            return bad("a name has no '='");
        };
        rest = after_eq.trim_ascii_start();
        let (quote, value_start) = match rest.first() {
            Some(&q @ (b'"' | b'\'')) => (q, 1),
            _ => return bad("a value is not quoted"),
        };
        let Some(len) = rest[value_start..].iter().position(|&b| b == quote) else {
            return bad("a value is not closed");
        };
        let value = &rest[value_start..value_start + len];
        let good = match name {
            b"version" => value == b"1.0",
            // .NET takes any attribute-value characters here, and only looks the name up
            // when it reads bytes itself: ASP.NET reads a body with a charset through a
            // TextReader, whose encoding no declaration changes (XmlTextReaderImpl's
            // CheckEncoding), so `encoding="8"` is read then. Outside the Basic Multilingual
            // Plane a character is two UTF-16 units, which are not attribute-value characters.
            b"encoding" => !value.iter().any(|&b| {
                matches!(b, b'\t' | b'\n' | b'\r' | b'<' | b'>' | b'&' | b'\'' | b'"') || b >= 0xF0
            }),
            _ => value == b"yes" || value == b"no",
        };
        if !good {
            return bad(match name {
                b"version" => "only version 1.0 is read",
                b"encoding" => "the encoding has characters an attribute value cannot",
                _ => "standalone is neither yes nor no",
            });
        }
        rest = &rest[value_start + len + 1..];
    }
}

/// Refuses the characters XML 1.0 §2.2 forbids in a document: C0 controls other than tab,
/// LF and CR, and U+FFFE and U+FFFF (surrogates cannot occur in UTF-8; bytes that are not
/// UTF-8 are reported where the text is decoded).
pub(super) fn check_chars(bytes: &[u8]) -> Result<(), String> {
    // Nearly always there is nothing to find: 32 bytes at a time without a branch per byte,
    // which the compiler turns into vector compares, before the exact search.
    let suspect = |chunk: &[u8]| {
        chunk.iter().fold(false, |found, &b| {
            found | ((b < 0x20) & (b != b'\t') & (b != b'\n') & (b != b'\r')) | (b == 0xEF)
        })
    };
    if !bytes.chunks(32).any(suspect) {
        return Ok(());
    }
    let mut at = 0;
    while let Some(i) = bytes[at..]
        .iter()
        .position(|&b| CHAR_CLASS[b as usize] != 0)
    {
        let i = at + i;
        if bytes[i] != 0xEF {
            return Err(format!("the character U+{:04X}", bytes[i]));
        }
        if bytes.get(i + 1) == Some(&0xBF) {
            if let Some(&last @ (0xBE | 0xBF)) = bytes.get(i + 2) {
                return Err(format!("the character U+FF{:02X}", last + 0x40));
            }
        }
        at = i + 1;
    }
    Ok(())
}

/// Refuses `<` and any reference but the predefined entities and character references to
/// characters XML allows in an attribute value (raw, as written).
pub(super) fn check_attribute_value(value: &[u8]) -> Result<(), String> {
    let mut at = 0;
    while let Some(i) = memchr::memchr2(b'<', b'&', &value[at..]) {
        let i = at + i;
        if value[i] == b'<' {
            return Err("'<' in an attribute value".to_owned());
        }
        let end = memchr::memchr(b';', &value[i + 1..])
            .ok_or_else(|| "'&' that does not start a reference".to_owned())?;
        reference_char(&value[i + 1..i + 1 + end])?;
        at = i + 1 + end + 1;
    }
    Ok(())
}

/// The character the reference `&name;` stands for: one of the five predefined entities or a
/// character reference (`&#65;`, `&#x41;`) to a character XML allows. No other entity can
/// be declared (a DOCTYPE is refused), so any other name is undefined.
pub(super) fn reference_char(name: &[u8]) -> Result<char, String> {
    let (digits, radix) = match name {
        b"amp" => return Ok('&'),
        b"lt" => return Ok('<'),
        b"gt" => return Ok('>'),
        b"quot" => return Ok('"'),
        b"apos" => return Ok('\''),
        [b'#', b'x', hex @ ..] => (hex, 16),
        [b'#', dec @ ..] => (dec, 10),
        _ => {
            return Err(if check_ncname(name).is_ok() {
                format!("undefined entity '&{};'", String::from_utf8_lossy(name))
            } else {
                format!("malformed reference '&{};'", String::from_utf8_lossy(name))
            })
        }
    };
    let bad = || {
        format!(
            "malformed character reference '&{};'",
            String::from_utf8_lossy(name)
        )
    };
    if digits.is_empty() {
        return Err(bad());
    }
    let mut code: u32 = 0;
    for &d in digits {
        let digit = char::from(d).to_digit(radix).ok_or_else(bad)?;
        // Past the last code point it stays refused, whatever follows.
        code = code.saturating_mul(radix).saturating_add(digit);
    }
    match char::from_u32(code).filter(|&c| is_xml_char(c)) {
        Some(c) => Ok(c),
        None => Err(format!("character reference to U+{code:04X}")),
    }
}

/// Checks that each attribute value's closing quote is followed by white space or the tag's
/// end: XML requires white space between attributes (`a="1"b="2"` is malformed, and the host
/// answers it 400), which quick-xml does not check.
pub(super) fn check_attribute_spacing(raw: &[u8]) -> Result<(), &'static str> {
    let mut quote = None;
    let mut just_closed = false;
    for &b in raw {
        match quote {
            Some(q) => {
                if b == q {
                    quote = None;
                    just_closed = true;
                }
            }
            None => {
                if just_closed && !is_xml_space(b) {
                    return Err("attributes not separated by white space");
                }
                just_closed = false;
                if b == b'"' || b == b'\'' {
                    quote = Some(b);
                }
            }
        }
    }
    Ok(())
}

/// Checks an element or attribute name: an XML name with at most one colon, not at either
/// end (a QName of Namespaces in XML 1.0, which .NET's reader enforces).
pub(super) fn check_qname(name: &[u8]) -> Result<(), String> {
    let result = match memchr::memchr(b':', name) {
        None => check_ncname(name),
        Some(colon) => check_ncname(&name[..colon]).and_then(|()| check_ncname(&name[colon + 1..])),
    };
    result.map_err(|()| format!("'{}' is not a valid name", String::from_utf8_lossy(name)))
}

/// Bytes of ASCII name characters: 1 may start a name (`[A-Za-z_]`), 2 may follow
/// (`[0-9.-]`), 0 neither (a colon included); non-ASCII bytes are 3, decoded and checked.
const NCNAME_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphabetic() || c == b'_' {
            table[b] = 1;
        } else if c.is_ascii_digit() || c == b'.' || c == b'-' {
            table[b] = 2;
        } else if c >= 0x80 {
            table[b] = 3;
        }
        b += 1;
    }
    table
};

/// Checks a name without colons (XML 1.0 fifth edition `Name` productions, minus `:`).
pub(super) fn check_ncname(name: &[u8]) -> Result<(), ()> {
    let first = *name.first().ok_or(())?;
    if NCNAME_CLASS[first as usize] == 1
        && name[1..]
            .iter()
            .all(|&b| matches!(NCNAME_CLASS[b as usize], 1 | 2))
    {
        return Ok(());
    }
    let name = std::str::from_utf8(name).map_err(|_| ())?;
    // U+FFFD is what a byte that is not UTF-8 reads as (`message::SoapText`); the host answers
    // a name holding such a byte as malformed XML (400), so a name holding U+FFFD is refused,
    // though XML 1.0's fifth edition would take it.
    if name.contains('\u{FFFD}') {
        return Err(());
    }
    let mut chars = name.chars();
    if !chars.next().is_some_and(is_name_start_char) {
        return Err(());
    }
    if chars.all(|c| is_name_start_char(c) || is_name_char_only(c)) {
        Ok(())
    } else {
        Err(())
    }
}

/// `NameStartChar` of XML 1.0 (fifth edition), without `:`.
fn is_name_start_char(c: char) -> bool {
    matches!(c,
        'A'..='Z' | '_' | 'a'..='z' | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}'
        | '\u{F8}'..='\u{2FF}' | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}'
        | '\u{200C}'..='\u{200D}' | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}'
        | '\u{3001}'..='\u{D7FF}' | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}'
        | '\u{10000}'..='\u{EFFFF}')
}

/// The characters `NameChar` adds to `NameStartChar`.
fn is_name_char_only(c: char) -> bool {
    matches!(c, '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

pub(super) fn to_str(raw: Cow<'_, [u8]>) -> XmlResult<Cow<'_, str>> {
    match raw {
        Cow::Borrowed(bytes) => std::str::from_utf8(bytes)
            .map(Cow::Borrowed)
            .map_err(|_| XmlError::NotUtf8),
        Cow::Owned(bytes) => String::from_utf8(bytes)
            .map(Cow::Owned)
            .map_err(|_| XmlError::NotUtf8),
    }
}

/// XML 1.0 §2.11: a literal CRLF or lone CR reaches the application as LF. Applied to each
/// literal piece, so a CR written as `&#xD;` survives.
pub(super) fn normalize_newlines(piece: Cow<'_, str>) -> Cow<'_, str> {
    if piece.contains('\r') {
        Cow::Owned(piece.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        piece
    }
}

pub(super) fn append<'a>(text: &mut Cow<'a, str>, piece: Cow<'a, str>) {
    if text.is_empty() {
        *text = piece;
    } else {
        text.to_mut().push_str(&piece);
    }
}

pub(super) fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Whether every U+FFFD of `text` (a request read with its bytes that were not text replaced)
/// stands where the host ignores what it reads: in a comment, or in text beside elements
/// directly in the Envelope, the Body or the operation's element (the white space between
/// parameters, where .NET's reader meets text and skips it). Anywhere else (a value, a name,
/// an attribute) the host would read U+FFFD into what it answers; so would the text of a
/// parameter of a bare operation, which stands in the Body alone, with no element beside it.
pub(crate) fn replacements_ignored(text: &[u8]) -> bool {
    use quick_xml::events::Event;
    const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();
    let holds = |bytes: &[u8]| bytes.windows(REPLACEMENT.len()).any(|w| w == REPLACEMENT);
    // Per open element: whether it holds an element, and whether it holds replaced text.
    let mut open: Vec<(bool, bool)> = Vec::new();
    let mut reader = quick_xml::Reader::from_reader(text);
    let mut buf = Vec::new();
    loop {
        let event = match reader.read_event_into(&mut buf) {
            Ok(event) => event,
            Err(_) => return false,
        };
        match event {
            Event::Start(start) => {
                if holds(start.as_ref()) {
                    return false;
                }
                if let Some(parent) = open.last_mut() {
                    parent.0 = true;
                }
                open.push((false, false));
            }
            Event::Empty(start) => {
                if holds(start.as_ref()) {
                    return false;
                }
                if let Some(parent) = open.last_mut() {
                    parent.0 = true;
                }
            }
            Event::End(_) => {
                let depth = open.len();
                if let Some((holds_elements, true)) = open.pop() {
                    if !(holds_elements && depth <= 3) {
                        return false;
                    }
                }
            }
            Event::Text(t) => {
                if holds(t.as_ref()) {
                    match open.last_mut() {
                        Some(element) => element.1 = true,
                        None => return false,
                    }
                }
            }
            Event::Comment(_) => {}
            Event::Eof => return true,
            // CDATA, a processing instruction, a declaration, a DOCTYPE: refused if replaced.
            other => {
                if holds(other.as_ref()) {
                    return false;
                }
            }
        }
        buf.clear();
    }
}
