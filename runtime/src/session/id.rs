//! ASP.NET's session ids (`SessionIDManager`): 120 random bits written as 24 characters of
//! `a`–`z` and `0`–`5`, five bits each, low bits first, as .NET Framework writes them.
//! (Mono writes 24 upper-case hexadecimal digits; rmm follows production.)

/// The characters of an id, in the order of their five-bit values.
const ENCODING: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz012345";

/// An id's length in characters.
pub const ID_LENGTH: usize = 24;

/// A new id from 15 bytes of the operating system's random source.
pub fn create() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 15];
    getrandom::fill(&mut bytes)?;
    Ok(encode(&bytes))
}

/// `SessionId.Encode`: each five bytes, read as a little-endian 40-bit number, give eight
/// characters, low bits first.
fn encode(bytes: &[u8; 15]) -> String {
    let mut id = String::with_capacity(ID_LENGTH);
    for group in bytes.chunks_exact(5) {
        let mut n = group
            .iter()
            .rev()
            .fold(0u64, |n, &byte| (n << 8) | u64::from(byte));
        for _ in 0..8 {
            id.push(char::from(ENCODING[(n & 0x1f) as usize]));
            n >>= 5;
        }
    }
    id
}

/// `SessionId.IsLegit`: 24 characters of the encoding. Anything else in the cookie is no id
/// at all, as ASP.NET reads it: the call gets a new session.
pub fn is_legit(id: &str) -> bool {
    id.len() == ID_LENGTH && id.bytes().all(|b| ENCODING.contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The encoding of .NET's `SessionId.Encode`, worked by hand: bytes 01 00 00 00 00 give
    /// `b` then seven `a`s; FF FF FF FF FF give eight `5`s (31 each).
    #[test]
    fn ids_are_written_as_dotnet_writes_them() {
        let mut bytes = [0u8; 15];
        bytes[0] = 1;
        bytes[5..10].fill(0xff);
        bytes[10] = 0x20; // 32: the second character's value 1 (bits 5..10).
        assert_eq!(encode(&bytes), "baaaaaaa55555555abaaaaaa");
        assert!(is_legit(&encode(&bytes)));
    }

    #[test]
    fn a_new_id_is_legit_and_new() {
        let (a, b) = (create().unwrap(), create().unwrap());
        assert!(is_legit(&a) && is_legit(&b));
        assert_ne!(a, b);
    }

    #[test]
    fn what_is_no_id() {
        for bad in [
            "",
            "abc",
            "ABCDEFGHIJKLMNOPQRSTUVWX", // upper case (Mono's ids are hex upper case)
            "9A89056EF975CF027FDF5366", // Mono's id: 6–9 and capitals are not .NET's
            "abcdefghijklmnopqrstuvwxy", // 25
            "abcdefghijklmnopqrstuvw6", // 6
            "abcdefghijklmnopqrstuvw\u{e9}", // not ASCII
        ] {
            assert!(!is_legit(bad), "{bad}");
        }
        assert!(is_legit("abcdefghijklmnopqrstuvwx"));
    }
}
