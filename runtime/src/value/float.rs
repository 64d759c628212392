//! `float` and `double` as .NET Framework writes and reads them.
//!
//! ## Writing
//!
//! `XmlConvert.ToString`, which ASMX uses for every result and every SOAP parameter.
//! `XmlConvert` writes `INF`, `-INF` and `-0` itself and everything else with the `"R"`
//! (round-trip) format of the invariant culture. `"R"` tries the type's short precision first
//! (15 significant digits for a `double`, 7 for a `float`) and takes it when it reads back as
//! the same value, else the long one (17, 9); the digits are then laid out as the `"G"` format
//! does (`Number.FormatDouble`, `FormatGeneral` in .NET's `number.cs`):
//! - fixed notation while the decimal exponent is from -5 to one less than the precision
//!   (`0.0001`, `123456789012345`);
//! - otherwise scientific: one digit, the others after a `.`, then `E`, a sign and at least
//!   two exponent digits (`1E-05`, `1.7976931348623157E+308`);
//! - no trailing zeros, no `.` without digits after it.
//!
//! The digits here are correctly rounded (Rust's exact formatting of the value). .NET
//! Framework's own conversion is exact to 15 digits and, in rare cases, not at the 17th; a
//! value written here always reads back as itself, which is what `"R"` promises.
//!
//! ## Reading
//!
//! `Double.Parse` and `Single.Parse` (`Number.ParseDouble` in .NET's `number.cs`) gather the
//! text's sign, its first 50 significant digits and their scale, and convert those; a `float`
//! is read as a `double` first and then narrowed, as .NET does. A text that is no number is
//! compared, trimmed of white space, with the invariant culture's `Infinity`, `-Infinity` and
//! `NaN`. A value beyond the type's range is an overflow, not infinity (.NET Framework throws
//! `OverflowException`). Where the binding reads with `XmlConvert` (SOAP), `INF` and `-INF`
//! come first, and `-0` stays negative.

/// The short and long precisions of `"R"` for one type, and how a text is read back.
trait RoundTrip: Copy + PartialEq + std::fmt::LowerExp + std::str::FromStr {
    const SHORT: usize;
    const LONG: usize;
}

impl RoundTrip for f64 {
    const SHORT: usize = 15;
    const LONG: usize = 17;
}

impl RoundTrip for f32 {
    const SHORT: usize = 7;
    const LONG: usize = 9;
}

/// Appends a `double` as `XmlConvert.ToString(double)` writes it.
pub fn write_double(out: &mut String, v: f64) {
    write_special(
        out,
        v.is_nan(),
        v.is_infinite(),
        v.is_sign_negative(),
        v == 0.0,
    )
    .unwrap_or_else(|| write_double_round_trip(out, v));
}

/// Appends a `float` as `XmlConvert.ToString(float)` writes it.
pub fn write_float(out: &mut String, v: f32) {
    write_special(
        out,
        v.is_nan(),
        v.is_infinite(),
        v.is_sign_negative(),
        v == 0.0,
    )
    .unwrap_or_else(|| write_round_trip(out, v));
}

/// Writes what `XmlConvert` spells itself (`NaN` comes from the invariant culture's symbol);
/// `None` for an ordinary number.
fn write_special(
    out: &mut String,
    nan: bool,
    infinite: bool,
    negative: bool,
    zero: bool,
) -> Option<()> {
    let text = match (nan, infinite, negative, zero) {
        (true, ..) => "NaN",
        (_, true, true, _) => "-INF",
        (_, true, false, _) => "INF",
        (_, _, true, true) => "-0",
        _ => return None,
    };
    out.push_str(text);
    Some(())
}

/// [`write_round_trip`] of a `double`, without formatting and reading back its 15 digits
/// where ryu's shortest digits that read back as the value are 15 or fewer: for a normal
/// value the 15-digit rounding is then those digits (they lie within half a unit in the last
/// place of the value, at most 2^-53 of it, and 15-digit decimals near it are at least
/// 10^-15 of it apart, so no other is as near), and it reads back. With more, the 15 digits
/// do not read back (else the shortest would be shorter): 17, which are the shortest when
/// there are 17 of them, and are formatted when there are 16. A subnormal value has fewer
/// bits, so its shortest digits say nothing of its 15 (`5E-324` against .NET's
/// `4.94065645841247E-324`): it is written the general way.
fn write_double_round_trip(out: &mut String, v: f64) {
    if !v.is_normal() {
        return write_round_trip(out, v);
    }
    let mut buffer = ryu::Buffer::new();
    let shortest = Digits::of(buffer.format_finite(v));
    if shortest.len <= f64::SHORT {
        shortest.lay_out(out, f64::SHORT);
    } else if shortest.len == f64::LONG {
        // Of the 17-digit decimals that read back, ryu gives the nearest (ties to even, as
        // Rust's exact formatting rounds): the 17-digit rounding itself.
        shortest.lay_out(out, f64::LONG);
    } else {
        Digits::of(&scientific(v, f64::LONG)).lay_out(out, f64::LONG);
    }
}

/// Appends a finite, non-negative-zero `v` in the `"R"` format.
fn write_round_trip<F: RoundTrip>(out: &mut String, v: F) {
    let short = scientific(v, F::SHORT);
    if short.parse::<F>().is_ok_and(|back| back == v) {
        Digits::of(&short).lay_out(out, F::SHORT);
    } else {
        Digits::of(&scientific(v, F::LONG)).lay_out(out, F::LONG);
    }
}

/// `v` correctly rounded to `digits` significant digits, in Rust's scientific notation
/// (`1.2345e-7`, `-5e0`).
fn scientific<F: RoundTrip>(v: F, digits: usize) -> String {
    format!("{:.*e}", digits - 1, v)
}

/// A number's sign, significant digits and decimal exponent, read from the decimal or
/// scientific notation Rust and ryu write (`-1.2300e5`, `0.001`, `1e16`).
struct Digits {
    negative: bool,
    /// The significant digits, without leading or trailing zeros (`0` for zero).
    digits: [u8; 40],
    len: usize,
    /// The power of ten of the first digit.
    exponent: i32,
}

impl Digits {
    fn of(text: &str) -> Digits {
        let (mantissa, exponent) = match text.split_once(['e', 'E']) {
            Some((mantissa, exponent)) => (
                mantissa,
                exponent.parse::<i32>().expect("an integer exponent"),
            ),
            None => (text, 0),
        };
        let (negative, mantissa) = match mantissa.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, mantissa),
        };
        let whole = mantissa.find('.').unwrap_or(mantissa.len());
        let mut d = Digits {
            negative,
            digits: [b'0'; 40],
            len: 0,
            exponent: 0,
        };
        // The position of the first significant digit, counted from the point.
        let mut first = None;
        for (at, b) in mantissa
            .bytes()
            .enumerate()
            .filter(|(_, b)| b.is_ascii_digit())
        {
            if first.is_none() && b == b'0' {
                continue;
            }
            let place = if at < whole { at } else { at - 1 };
            first.get_or_insert(whole as i32 - 1 - place as i32);
            d.digits[d.len] = b;
            d.len += 1;
        }
        while d.len > 1 && d.digits[d.len - 1] == b'0' {
            d.len -= 1;
        }
        match first {
            Some(first) => d.exponent = first + exponent,
            None => d.len = 1,
        }
        d
    }

    fn text(&self, from: usize, to: usize) -> &str {
        std::str::from_utf8(&self.digits[from..to]).expect("ASCII digits")
    }

    /// Lays the digits out as .NET's `"G"` format with `precision` digits does.
    fn lay_out(&self, out: &mut String, precision: usize) {
        let len = self.len;
        if self.negative {
            out.push('-');
        }
        // .NET's `scale` is the exponent plus one: the number of digits before the point.
        let scale = self.exponent + 1;
        if scale > precision as i32 || scale < -3 {
            out.push_str(self.text(0, 1));
            if len > 1 {
                out.push('.');
                out.push_str(self.text(1, len));
            }
            out.push('E');
            out.push(if self.exponent < 0 { '-' } else { '+' });
            let magnitude = self.exponent.unsigned_abs();
            if magnitude < 10 {
                out.push('0');
            }
            out.push_str(itoa::Buffer::new().format(magnitude));
        } else if scale <= 0 {
            out.push_str("0.");
            for _ in 0..-scale {
                out.push('0');
            }
            out.push_str(self.text(0, len));
        } else {
            let scale = scale as usize;
            if len <= scale {
                out.push_str(self.text(0, len));
                for _ in len..scale {
                    out.push('0');
                }
            } else {
                out.push_str(self.text(0, scale));
                out.push('.');
                out.push_str(self.text(scale, len));
            }
        }
    }
}

/// What `NumberStyles` lets through besides a sign, a point and an exponent.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Styles {
    /// `AllowLeadingWhite | AllowTrailingWhite`: U+0009 to U+000D and the space around.
    pub white: bool,
    /// NUL characters ending the text are ignored, as `Number.TrailingZeros` does where .NET
    /// parses a string of its own (not after `XmlConvert`'s trim, where XML has none).
    pub trailing_nuls: bool,
}

/// The most significant digits .NET's parser keeps (`Number.NumberMaxDigits`); later digits
/// only move the point.
const MAX_DIGITS: usize = 50;

/// Reads `text` as `Double.Parse(text, styles, InvariantInfo)` does, `None` for what it
/// refuses as not a number, `Some(Err(()))` for an overflow.
pub(crate) fn parse_double(text: &str, styles: Styles) -> Option<Result<f64, ()>> {
    let Some((negative, digits, scale)) = gather(text, styles) else {
        return symbol(text);
    };
    if digits.is_empty() {
        // Zero: .NET's conversion drops the sign (`Double.Parse("-0")` is 0).
        return Some(Ok(0.0));
    }
    let text = format!("{}0.{digits}e{scale}", if negative { "-" } else { "" });
    let value: f64 = text.parse().expect("a well-formed float literal");
    Some(if value.is_infinite() {
        Err(())
    } else {
        Ok(value)
    })
}

/// Reads `text` as `Single.Parse` does: as a `double`, then narrowed; what narrows to
/// infinity is an overflow.
pub(crate) fn parse_single(text: &str, styles: Styles) -> Option<Result<f32, ()>> {
    Some(match parse_double(text, styles)? {
        Ok(v) if v.is_nan() => Ok(f32::NAN),
        Ok(v) if v.is_infinite() => Ok(v as f32),
        Ok(v) => {
            let narrowed = v as f32;
            if narrowed.is_infinite() {
                Err(())
            } else {
                Ok(narrowed)
            }
        }
        Err(()) => Err(()),
    })
}

/// The invariant culture's symbols, which .NET tries when the text is no number: compared
/// with the text trimmed of white space (`String.Trim`, Unicode's White_Space as Rust's).
fn symbol(text: &str) -> Option<Result<f64, ()>> {
    match text.trim() {
        "Infinity" => Some(Ok(f64::INFINITY)),
        "-Infinity" => Some(Ok(f64::NEG_INFINITY)),
        "NaN" => Some(Ok(f64::NAN)),
        _ => None,
    }
}

/// .NET's `ParseNumber` for `AllowLeadingSign | AllowDecimalPoint | AllowExponent` and
/// `styles`: the sign, the significant digits (at most [`MAX_DIGITS`], no leading zeros, no
/// trailing zeros) and the scale (the position of the point after the first digit, as in
/// `0.{digits}e{scale}`). `None` where .NET finds no number or text after it.
fn gather(text: &str, styles: Styles) -> Option<(bool, String, i64)> {
    let is_white = |b: u8| styles.white && (b == b' ' || (b'\t'..=b'\r').contains(&b));
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() && is_white(bytes[at]) {
        at += 1;
    }
    let negative = match bytes.get(at) {
        Some(b'-') => {
            at += 1;
            true
        }
        Some(b'+') => {
            at += 1;
            false
        }
        _ => false,
    };
    let mut digits = String::new();
    let mut scale: i64 = 0;
    let (mut seen_digit, mut seen_point) = (false, false);
    while let Some(&b) = bytes.get(at) {
        match b {
            b'0'..=b'9' => {
                seen_digit = true;
                if b != b'0' || !digits.is_empty() {
                    if digits.len() < MAX_DIGITS {
                        digits.push(char::from(b));
                    }
                    if !seen_point {
                        scale += 1;
                    }
                } else if seen_point {
                    scale -= 1;
                }
            }
            b'.' if !seen_point => seen_point = true,
            _ => break,
        }
        at += 1;
    }
    if !seen_digit {
        return None;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        let mut p = at + 1;
        let exponent_negative = match bytes.get(p) {
            Some(b'-') => {
                p += 1;
                true
            }
            Some(b'+') => {
                p += 1;
                false
            }
            _ => false,
        };
        if bytes.get(p).is_some_and(u8::is_ascii_digit) {
            let mut exponent: i64 = 0;
            while let Some(&d) = bytes.get(p).filter(|d| d.is_ascii_digit()) {
                // .NET stops counting past 1000 (and takes 9999): far beyond any double.
                exponent = (exponent * 10 + i64::from(d - b'0')).min(9999);
                p += 1;
            }
            scale += if exponent_negative {
                -exponent
            } else {
                exponent
            };
            at = p;
        }
        // Without digits the `e` is not part of the number, and is text after it.
    }
    while at < bytes.len() && is_white(bytes[at]) {
        at += 1;
    }
    if at != bytes.len() && !(styles.trailing_nuls && bytes[at..].iter().all(|&b| b == 0)) {
        return None;
    }
    while digits.ends_with('0') {
        digits.pop();
    }
    Some((negative, digits, scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn double(v: f64) -> String {
        let mut out = String::new();
        write_double(&mut out, v);
        out
    }

    fn float(v: f32) -> String {
        let mut out = String::new();
        write_float(&mut out, v);
        out
    }

    #[test]
    fn specials_are_spelled_as_xmlconvert_spells_them() {
        assert_eq!(double(f64::INFINITY), "INF");
        assert_eq!(double(f64::NEG_INFINITY), "-INF");
        assert_eq!(double(f64::NAN), "NaN");
        assert_eq!(double(-0.0), "-0");
        assert_eq!(double(0.0), "0");
        assert_eq!(float(f32::INFINITY), "INF");
        assert_eq!(float(f32::NEG_INFINITY), "-INF");
        assert_eq!(float(f32::NAN), "NaN");
        assert_eq!(float(-0.0), "-0");
        assert_eq!(float(0.0), "0");
    }

    /// The shortest digits' way writes what formatting 15 digits and reading them back
    /// writes: over bit patterns spread across every exponent, values of a few decimals
    /// (prices, measures), and neighbours of powers of two and ten.
    #[test]
    fn shortest_digits_write_what_the_general_way_writes() {
        let general = |v: f64| {
            let mut out = String::new();
            write_round_trip(&mut out, v);
            out
        };
        let mut values = Vec::new();
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..200_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            values.push(f64::from_bits(state));
        }
        for i in 0..20_000_i32 {
            values.push(f64::from(i) / 100.0);
            values.push(f64::from(i) * 1.1e-7);
            values.push(f64::from(i).powi(3) / 7.0);
        }
        for e in -1022..1024 {
            let p = 2f64.powi(e);
            values.extend([
                p,
                f64::from_bits(p.to_bits() + 1),
                f64::from_bits(p.to_bits() - 1),
            ]);
        }
        for e in -300..300 {
            let p = 10f64.powi(e);
            values.extend([
                p,
                f64::from_bits(p.to_bits() + 1),
                f64::from_bits(p.to_bits() - 1),
            ]);
        }
        let mut checked = 0;
        for v in values.into_iter().filter(|v| v.is_finite() && *v != 0.0) {
            let mut out = String::new();
            write_double_round_trip(&mut out, v);
            assert_eq!(out, general(v), "{v:e}");
            checked += 1;
        }
        assert!(checked > 250_000, "{checked} values");
    }

    #[test]
    fn doubles_take_15_digits_when_they_read_back() {
        // The values .NET Framework's documentation and everyday use show for "R".
        assert_eq!(double(1.0), "1");
        assert_eq!(double(-1.5), "-1.5");
        assert_eq!(double(0.1), "0.1");
        // 17 digits, not the shortest that reads back (Rust's 0.3333333333333333).
        assert_eq!(double(1.0 / 3.0), "0.33333333333333331");
        assert_eq!(double(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(double(f64::MAX), "1.7976931348623157E+308");
        assert_eq!(double(f64::MIN), "-1.7976931348623157E+308");
        // The smallest subnormal reads back from 15 digits: .NET Framework's well-known
        // "4.94065645841247E-324".
        assert_eq!(double(f64::from_bits(1)), "4.94065645841247E-324");
        assert_eq!(double(f64::EPSILON), "2.2204460492503131E-16");
        assert_eq!(double(123456789012345.0), "123456789012345");
        // 17 digits: fixed notation up to 17 digits before the point.
        assert_eq!(double(1234567890123456.0), "1234567890123456");
        assert_eq!(double(12345678901234567890.0), "1.2345678901234567E+19");
    }

    #[test]
    fn the_point_moves_to_scientific_where_g_does() {
        assert_eq!(double(1e14), "100000000000000");
        assert_eq!(double(1e15), "1E+15");
        assert_eq!(double(1e20), "1E+20");
        assert_eq!(double(0.0001), "0.0001");
        assert_eq!(double(0.00012), "0.00012");
        assert_eq!(double(0.00001), "1E-05");
        assert_eq!(double(-0.000015), "-1.5E-05");
        assert_eq!(double(1e-100), "1E-100");
        assert_eq!(double(1.5e300), "1.5E+300");
        assert_eq!(double(100.0), "100");
        assert_eq!(double(12.25), "12.25");
    }

    #[test]
    fn floats_take_7_digits_when_they_read_back() {
        assert_eq!(float(1.0), "1");
        assert_eq!(float(0.1), "0.1");
        assert_eq!(float(3.4028235e38), "3.40282347E+38");
        assert_eq!(float(f32::MIN), "-3.40282347E+38");
        assert_eq!(float(f32::from_bits(1)), "1.401298E-45");
        assert_eq!(float(f32::EPSILON), "1.1920929E-07");
        assert_eq!(float(16777216.0), "16777216");
        assert_eq!(float(1e6), "1000000");
        assert_eq!(float(1e7), "1E+07");
        assert_eq!(float(1e8), "1E+08");
        assert_eq!(float(0.0001), "0.0001");
        assert_eq!(float(1e-5), "1E-05");
    }

    #[test]
    fn every_written_value_reads_back_as_itself() {
        let mut bits: u64 = 0x0123_4567_89AB_CDEF;
        for _ in 0..20_000 {
            // xorshift: spread over every exponent and sign.
            bits ^= bits << 13;
            bits ^= bits >> 7;
            bits ^= bits << 17;
            let d = f64::from_bits(bits);
            if d.is_finite() && d != 0.0 {
                assert_eq!(double(d).parse::<f64>().unwrap(), d, "{d:e}");
            }
            let f = f32::from_bits(bits as u32);
            if f.is_finite() && f != 0.0 {
                assert_eq!(float(f).parse::<f32>().unwrap(), f, "{f:e}");
            }
        }
    }

    const PLAIN: Styles = Styles {
        white: false,
        trailing_nuls: false,
    };
    const WHITE: Styles = Styles {
        white: true,
        trailing_nuls: false,
    };

    fn gathered(text: &str, styles: Styles) -> Option<(bool, String, i64)> {
        gather(text, styles)
    }

    #[test]
    fn numbers_gather_as_dotnet_gathers_them() {
        let g = |t| gathered(t, PLAIN);
        assert_eq!(g("1.5"), Some((false, "15".into(), 1)));
        assert_eq!(g("-0.05"), Some((true, "5".into(), -1)));
        assert_eq!(g("+120"), Some((false, "12".into(), 3)));
        assert_eq!(g(".5"), Some((false, "5".into(), 0)));
        assert_eq!(g("5."), Some((false, "5".into(), 1)));
        assert_eq!(g("0"), Some((false, String::new(), 0)));
        assert_eq!(g("12e3"), Some((false, "12".into(), 5)));
        assert_eq!(g("12E-3"), Some((false, "12".into(), -1)));
        // Past 50 significant digits only the point moves.
        let long = format!("1{}1", "0".repeat(59));
        assert_eq!(g(&long), Some((false, "1".into(), 61)));
        for bad in [
            "", ".", "-", "1e", "1e+", "e5", "1.5.", "1,0", "--1", " 1", "1 ", "0x10",
        ] {
            assert_eq!(g(bad), None, "{bad:?}");
        }
        assert_eq!(gathered("\t 7 \r", WHITE), Some((false, "7".into(), 1)));
        assert_eq!(gathered("7\0\0", PLAIN), None);
        let nuls = Styles {
            white: true,
            trailing_nuls: true,
        };
        assert_eq!(gathered("7 \0\0", nuls), Some((false, "7".into(), 1)));
        assert_eq!(gathered("7\0 ", nuls), None);
    }

    #[test]
    fn doubles_and_floats_read_back_their_bounds_and_refuse_past_them() {
        assert_eq!(
            parse_double("1.7976931348623157E+308", PLAIN),
            Some(Ok(f64::MAX))
        );
        assert_eq!(
            parse_double("1.7976931348623159E+308", PLAIN),
            Some(Err(()))
        );
        assert_eq!(parse_double("1e99999", PLAIN), Some(Err(())));
        assert_eq!(parse_double("1e-99999", PLAIN), Some(Ok(0.0)));
        assert_eq!(
            parse_double("4.94065645841247E-324", PLAIN),
            Some(Ok(f64::from_bits(1)))
        );
        assert_eq!(parse_single("3.40282347E+38", PLAIN), Some(Ok(f32::MAX)));
        // Rounds to infinity as a float: an overflow in .NET.
        assert_eq!(parse_single("3.4028236e38", PLAIN), Some(Err(())));
        assert_eq!(parse_single("1e39", PLAIN), Some(Err(())));
        assert_eq!(
            parse_single("1.401298E-45", PLAIN),
            Some(Ok(f32::from_bits(1)))
        );
        assert_eq!(parse_single("0.1", PLAIN), Some(Ok(0.1)));
    }

    #[test]
    fn the_invariant_symbols_are_read_when_no_number_is() {
        assert_eq!(parse_double("Infinity", PLAIN), Some(Ok(f64::INFINITY)));
        assert_eq!(
            parse_double(" -Infinity\u{a0}", PLAIN),
            Some(Ok(f64::NEG_INFINITY))
        );
        assert!(parse_double("NaN", PLAIN).unwrap().unwrap().is_nan());
        assert!(parse_single("NaN", PLAIN).unwrap().unwrap().is_nan());
        assert_eq!(parse_single("Infinity", PLAIN), Some(Ok(f32::INFINITY)));
        for bad in ["INF", "infinity", "nan", "+Infinity", "NaN\0", "Inf"] {
            assert_eq!(parse_double(bad, PLAIN), None, "{bad:?}");
        }
    }
}
