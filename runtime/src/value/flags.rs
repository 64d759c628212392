//! `[Flags]` enums: a set of flags, on the wire a list of names (`xs:list` of the enum's
//! values), as XmlSerializer writes and reads them; over HTTP GET/POST the .NET member names
//! joined by commas, as `Enum.Parse` reads them and `Enum.ToString` writes them.
//!
//! A flags enum's values are its flags, in declaration order, bit `i` for the `i`th; the value
//! for none of them (.NET's `0`, usually `None`) is named apart (`zero`).

use crate::ValueError;

/// Appends the names of the flags set in `bits` (`names[i]` for bit `i`), in declaration
/// order, one space between them; for no flag, the zero value's name (or nothing), as
/// XmlSerializer writes a flags value.
pub fn write_list(out: &mut String, bits: u64, names: &[&str], zero: Option<&str>) {
    write_joined(out, bits, names, zero, " ");
}

/// Appends the .NET member names of the flags set in `bits`, joined by `", "`, as
/// `Enum.ToString` writes them (what `Enum.Parse` reads over HTTP GET/POST).
pub fn write_members(out: &mut String, bits: u64, members: &[&str], zero: Option<&str>) {
    write_joined(out, bits, members, zero, ", ");
}

fn write_joined(out: &mut String, bits: u64, names: &[&str], zero: Option<&str>, sep: &str) {
    let mut first = true;
    for (i, name) in names.iter().enumerate() {
        if bits & (1 << i) != 0 {
            if !first {
                out.push_str(sep);
            }
            out.push_str(name);
            first = false;
        }
    }
    if first {
        out.push_str(zero.unwrap_or(""));
    }
}

/// Reads a list of flag names (any XML white space between them; repeats merge; the zero
/// value's name adds nothing; an empty list is no flag), as XmlSerializer reads a flags
/// value. `all` lists every wire name, for the error.
pub fn read_list(
    text: &str,
    names: &[&str],
    zero: Option<&str>,
    all: &'static [&'static str],
) -> Result<u64, ValueError> {
    read_names(
        text.split([' ', '\t', '\r', '\n'])
            .filter(|n| !n.is_empty()),
        names,
        zero,
        all,
    )
}

/// Reads .NET member names joined by commas (each trimmed), as `Enum.Parse` reads a flags
/// value over HTTP GET/POST. The numbers it also reads are refused, as for other enums.
/// `all` lists every value's member name, for the error (what this reading takes).
pub fn read_members(
    text: &str,
    members: &[&str],
    zero: Option<&str>,
    all: &'static [&'static str],
) -> Result<u64, ValueError> {
    if text.trim().is_empty() {
        return Err(ValueError::Empty);
    }
    read_names(text.split(',').map(str::trim), members, zero, all)
}

fn read_names<'t>(
    parts: impl Iterator<Item = &'t str>,
    names: &[&str],
    zero: Option<&str>,
    all: &'static [&'static str],
) -> Result<u64, ValueError> {
    let mut bits = 0;
    for part in parts {
        if Some(part) == zero {
            continue;
        }
        match names.iter().position(|n| *n == part) {
            Some(i) => bits |= 1 << i,
            None => return Err(ValueError::NotEnumValue { values: all }),
        }
    }
    Ok(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 4] = ["Read", "Write", "Execute", "delete"];
    const MEMBERS: [&str; 4] = ["Read", "Write", "Execute", "Delete"];
    const ALL: &[&str] = &["None", "Read", "Write", "Execute", "delete"];

    fn list(bits: u64) -> String {
        let mut out = String::new();
        write_list(&mut out, bits, &NAMES, Some("None"));
        out
    }

    #[test]
    fn lists_are_written_in_declaration_order_zero_by_its_name() {
        assert_eq!(list(0b1011), "Read Write delete");
        assert_eq!(list(0), "None");
        let mut out = String::new();
        write_members(&mut out, 0b1001, &MEMBERS, Some("None"));
        assert_eq!(out, "Read, Delete");
    }

    #[test]
    fn lists_are_read_as_the_host_reads_them() {
        let read = |t: &str| read_list(t, &NAMES, Some("None"), ALL);
        // Any XML white space separates; repeats merge; None adds nothing; empty is none.
        assert_eq!(read("  Read\tWrite\n"), Ok(0b11));
        assert_eq!(read("Write Read Write"), Ok(0b11));
        assert_eq!(read("None Read"), Ok(0b1));
        assert_eq!(read(""), Ok(0));
        assert_eq!(read("delete"), Ok(0b1000));
        // Commas, the C# name, case and numbers are refused, as on the host.
        for bad in ["Read,Write", "Delete", "read", "7"] {
            assert!(read(bad).is_err(), "{bad}");
        }
        const ALL_MEMBERS: &[&str] = &["None", "Read", "Write", "Execute", "Delete"];
        let form = |t: &str| read_members(t, &MEMBERS, Some("None"), ALL_MEMBERS);
        assert_eq!(form("Read, Write"), Ok(0b11));
        assert_eq!(form("Read,Delete"), Ok(0b1001));
        assert_eq!(form("None"), Ok(0));
        assert!(form("Read Write").is_err());
        assert!(form("").is_err());
        // The refusal names what HTTP GET/POST take: member names, `Delete` not `delete`.
        assert_eq!(
            form("delete").unwrap_err().to_string(),
            "it is not one of None, Read, Write, Execute, Delete"
        );
    }
}
