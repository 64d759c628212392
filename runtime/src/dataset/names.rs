//! The names of a DataSet's set, tables and columns on the wire: .NET's
//! `XmlConvert.EncodeLocalName` and `DecodeName` (`My Table` is `My_x0020_Table`, `1x` is
//! `_x0031_x`).

/// Encodes `name` as `XmlConvert.EncodeLocalName` does: a character that may not stand where
/// it stands in an XML local name (a first one that may not start a name, a colon
/// anywhere) becomes `_xHHHH_`, and so does the `_` of something that reads as such an
/// escape already.
pub(super) fn encode_local_name(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len());
    for (i, &c) in chars.iter().enumerate() {
        let allowed = if i == 0 { is_start(c) } else { is_name(c) };
        if !allowed || (c == '_' && escape_at(&chars[i..]).is_some()) {
            push_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}

/// Decodes `_xHHHH_` and `_xHHHHHHHH_` escapes, as `XmlConvert.DecodeName` does.
pub(super) fn decode_name(name: &str) -> String {
    if !name.contains("_x") {
        return name.to_owned();
    }
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len());
    let mut i = 0;
    while i < chars.len() {
        match escape_at(&chars[i..]) {
            Some((c, len)) => {
                out.push(c);
                i += len;
            }
            None => {
                out.push(chars[i]);
                i += 1;
            }
        }
    }
    out
}

/// The character `_xHHHH_` or `_xHHHHHHHH_` at the start of `chars` stands for, and the
/// escape's length.
fn escape_at(chars: &[char]) -> Option<(char, usize)> {
    if chars.len() < 7 || chars[0] != '_' || chars[1] != 'x' {
        return None;
    }
    for digits in [4, 8] {
        if chars.len() >= digits + 3
            && chars[2..2 + digits].iter().all(char::is_ascii_hexdigit)
            && chars[2 + digits] == '_'
        {
            let hex: String = chars[2..2 + digits].iter().collect();
            let code = u32::from_str_radix(&hex, 16).ok()?;
            return char::from_u32(code).map(|c| (c, digits + 3));
        }
    }
    None
}

fn push_escape(out: &mut String, c: char) {
    use std::fmt::Write;
    let code = c as u32;
    if code > 0xFFFF {
        let _ = write!(out, "_x{code:08X}_");
    } else {
        let _ = write!(out, "_x{code:04X}_");
    }
}

/// Whether `c` may start an XML local name.
fn is_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

/// Whether `c` may stand in an XML local name after its first character.
fn is_name(c: char) -> bool {
    is_start(c) || c.is_numeric() || matches!(c, '.' | '-' | '\u{B7}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_encoded_as_the_host_encodes_them() {
        // Recorded from the host: a table `My Table`, columns `A B` and `1x`, a set
        // `Named Set`.
        assert_eq!(encode_local_name("My Table"), "My_x0020_Table");
        assert_eq!(encode_local_name("A B"), "A_x0020_B");
        assert_eq!(encode_local_name("1x"), "_x0031_x");
        assert_eq!(encode_local_name("Named Set"), "Named_x0020_Set");
        assert_eq!(encode_local_name("a:b"), "a_x003A_b");
        assert_eq!(encode_local_name("Orders"), "Orders");
        assert_eq!(encode_local_name("_x0041_"), "_x005F_x0041_");
        assert_eq!(encode_local_name("_xyz"), "_xyz");
    }

    #[test]
    fn decoding_undoes_encoding() {
        for name in [
            "My Table",
            "1x",
            "a:b",
            "_x0041_",
            "Ünïcode 名",
            "a\u{1F600}b",
            "-",
        ] {
            assert_eq!(decode_name(&encode_local_name(name)), name, "{name}");
        }
        assert_eq!(decode_name("_x0020"), "_x0020");
        assert_eq!(decode_name("_x0001F600_"), "\u{1F600}");
    }
}
