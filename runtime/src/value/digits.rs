//! Short numbers appended a pair of digits at a time.
//!
//! `itoa` makes a number's digits on the stack, and appending them is a copy whose length is
//! known only at run time: a call to `memcpy`, which costs more than making the digits. Most
//! numbers in a message are short (quantities, prices of two decimals, dates' fields), and
//! here each pair of their digits is appended as a two-byte slice, which the compiler copies
//! inline.

/// `00` to `99`, two bytes each.
const PAIRS: &str = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/// The digits of `n` (below 100), two of them (`07`).
#[inline(always)]
fn pair(n: u64) -> &'static str {
    let at = 2 * n as usize;
    &PAIRS[at..at + 2]
}

/// Appends the digit `d` (below 10).
#[inline(always)]
fn digit(out: &mut String, d: u64) {
    out.push(char::from(b'0' + d as u8));
}

/// Appends `n` (below 10,000) without leading zeros.
#[inline]
pub(crate) fn push_small(out: &mut String, n: u64) {
    debug_assert!(n < 10_000);
    if n < 10 {
        digit(out, n);
    } else if n < 100 {
        out.push_str(pair(n));
    } else if n < 1000 {
        digit(out, n / 100);
        out.push_str(pair(n % 100));
    } else {
        out.push_str(pair(n / 100));
        out.push_str(pair(n % 100));
    }
}

/// Appends `n` (below `10^width`) in `width` digits (1 to 4), zero-padded.
#[inline]
pub(crate) fn push_padded(out: &mut String, n: u64, width: usize) {
    match width {
        1 => digit(out, n),
        2 => out.push_str(pair(n)),
        3 => {
            digit(out, n / 100);
            out.push_str(pair(n % 100));
        }
        _ => {
            out.push_str(pair(n / 100));
            out.push_str(pair(n % 100));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_numbers_are_their_digits() {
        for n in 0..10_000 {
            let mut out = String::from(">");
            push_small(&mut out, n);
            assert_eq!(out, format!(">{n}"));
            for width in 1..=4 {
                if n < 10u64.pow(width as u32) {
                    let mut out = String::new();
                    push_padded(&mut out, n, width);
                    assert_eq!(out, format!("{n:0width$}"));
                }
            }
        }
    }
}
