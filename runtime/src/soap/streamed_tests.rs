//! Values read straight from the message against values read from trees, on class-holding
//! envelopes and on every single mutation of them: whenever the stream gives a value, it is
//! the value the general path gives; and it takes the plain requests and responses.
//!
//! The classes here are written as rmm generates them (`read_members` generic over
//! [`Members`], `read_streamed` where the class streams), so that the test holds the
//! generated readers' shape.

use rust_decimal::Decimal;

use super::streamed::{read_streamed_request, read_streamed_response};
use super::tests::mutations;
use super::tree_tests::{class_requests, class_responses};
use super::*;
use crate::operation::fixtures::OP;
use crate::tree::{Fallback, Member, MemberError, Members, Node, Streamed, XmlItem, XmlOut};
use crate::EncodeError;

/// The classes here are read only: their writer is never called.
macro_rules! read_only {
    () => {
        fn write_element<N: crate::tree::ElementName, I: crate::tree::ElementName>(
            &self,
            _w: &mut XmlOut<'_>,
            _name: N,
            _items: &'static [I],
        ) -> Result<(), EncodeError> {
            unreachable!("read only")
        }
    };
}

/// The class parameter `a`: attributes, scalars, a string, an array of classes (which may
/// be `Special`, derived), a class read from its tree and an empty string.
#[derive(Debug, Clone, PartialEq, Default)]
struct A {
    code: Option<String>,
    n: i32,
    id: i32,
    name: Option<String>,
    lines: Option<Vec<Option<Line>>>,
    note: Option<Note>,
    empty: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
struct Line {
    special: bool,
    sku: Option<String>,
    discount: Option<Decimal>,
    extra: i32,
}

#[derive(Debug, Clone, PartialEq, Default)]
struct Note {
    lang: Option<String>,
    /// Its child elements' names.
    inside: Vec<String>,
}

impl A {
    fn read_members<M: Members>(node: &mut M) -> Result<Self, M::Error> {
        let mut value = A {
            code: node.attribute_string("code"),
            n: node.attribute_scalar("n")?,
            ..A::default()
        };
        let mut seen = [false; 5];
        // The leading simple members, read at once where they stand plainly in order.
        'plain: {
            let Some(read) = node.plain_scalar("<Id>", "</Id>")? else {
                break 'plain;
            };
            seen[0] = true;
            value.id = read;
            let Some(read) = node.plain_string("<Name>", "</Name>")? else {
                break 'plain;
            };
            seen[1] = true;
            value.name = Some(read);
        }
        count_plain(&seen);
        while let Some(member) = node.next_member()? {
            match member.name() {
                "Id" if !seen[0] => {
                    seen[0] = true;
                    value.id = member.scalar("Id")?;
                }
                "Name" if !seen[1] => {
                    seen[1] = true;
                    value.name = member.optional("Name", &[])?;
                }
                "Lines" => value.lines = member.optional("Lines", &["Line"])?,
                "Note" if !seen[3] => {
                    seen[3] = true;
                    value.note = member.optional("Note", &[])?;
                }
                "Empty" if !seen[4] => {
                    seen[4] = true;
                    value.empty = member.optional("Empty", &[])?;
                }
                _ => {}
            }
        }
        Ok(value)
    }
}

thread_local! {
    /// How many members the classes here read on the plain path (see `count_plain`).
    static PLAIN_READS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Counts the members read on the plain path: those seen before the member loop.
fn count_plain(seen: &[bool]) {
    let read = seen.iter().filter(|&&s| s).count();
    PLAIN_READS.with(|count| count.set(count.get() + read));
}

/// How many members `read` reads on the plain path.
fn plain_reads<R>(read: impl FnOnce() -> R) -> (R, usize) {
    PLAIN_READS.with(|count| count.set(0));
    let value = read();
    (value, PLAIN_READS.with(std::cell::Cell::get))
}

impl XmlItem for A {
    read_only!();

    fn read_element(node: &Node, _items: &'static [&'static str]) -> Result<Self, MemberError> {
        node.check_class_type("A")?;
        Self::read_members(&mut node.reader())
    }

    fn read_streamed(
        element: &mut Streamed<'_, '_>,
        _items: &'static [&'static str],
    ) -> Result<Self, Fallback> {
        element.check_class_type("A")?;
        Self::read_members(element)
    }
}

impl Line {
    /// `Line` or its derived `Special`, by `xsi:type`.
    fn read_typed<M: Members>(node: &mut M) -> Result<Self, M::Error> {
        let special = match node.class_type("Line")? {
            None | Some("Line") => false,
            Some("Special") => true,
            // The tree's error; the stream's fallback.
            Some(_) => return node.check_class_type("Line").map(|()| Line::default()),
        };
        let mut value = Line {
            special,
            ..Line::default()
        };
        let mut seen = [false; 3];
        'plain: {
            let Some(read) = node.plain_string("<Sku>", "</Sku>")? else {
                break 'plain;
            };
            seen[0] = true;
            value.sku = Some(read);
            let Some(read) =
                node.plain_nullable("<Discount>", "</Discount>", "<Discount xsi:nil=\"true\" />")?
            else {
                break 'plain;
            };
            seen[1] = true;
            value.discount = read;
        }
        count_plain(&seen);
        while let Some(member) = node.next_member()? {
            match member.name() {
                "Sku" if !seen[0] => {
                    seen[0] = true;
                    value.sku = member.optional("Sku", &[])?;
                }
                "Discount" if !seen[1] => {
                    seen[1] = true;
                    value.discount = member.nullable("Discount")?;
                }
                "Extra" if special && !seen[2] => {
                    seen[2] = true;
                    value.extra = member.scalar("Extra")?;
                }
                _ => {}
            }
        }
        Ok(value)
    }
}

impl XmlItem for Line {
    read_only!();

    fn read_element(node: &Node, _items: &'static [&'static str]) -> Result<Self, MemberError> {
        Self::read_typed(&mut node.reader())
    }

    fn read_streamed(
        element: &mut Streamed<'_, '_>,
        _items: &'static [&'static str],
    ) -> Result<Self, Fallback> {
        Self::read_typed(element)
    }
}

/// A class that reads what the stream does not (here, every element inside): read from its
/// tree on either path.
impl XmlItem for Note {
    read_only!();

    fn read_element(node: &Node, _items: &'static [&'static str]) -> Result<Self, MemberError> {
        Ok(Note {
            lang: node.attribute_string("lang"),
            inside: node.elements().map(|e| e.name().to_owned()).collect(),
        })
    }
}

/// What a request of [`OP`] holds: the parameters `n`, `a` and `list`.
type Values = (
    Option<i32>,
    Option<Option<A>>,
    Option<Option<Vec<Option<i32>>>>,
);

/// The general path: the reader of trees (the scanner's or the cursor's).
fn general(binding: Binding, doc: &[u8]) -> Result<Values, RequestError> {
    let mut reader = RequestReader::with_trees(binding, &OP, doc, &["a", "list"])?;
    let (mut n, mut a, mut list) = (None, None, None);
    while let Some(param) = reader.next_param()? {
        match param.name() {
            b"n" if n.is_none() => n = Some(param.scalar("n")?),
            b"a" if a.is_none() => a = Some(param.optional("a", &[])?),
            b"list" if list.is_none() => list = Some(param.optional("list", &["int"])?),
            _ => {}
        }
    }
    Ok((n, a, list))
}

/// The stream, as generated decoders read it.
fn streamed(binding: Binding, doc: &[u8]) -> Result<Values, Fallback> {
    read_streamed_request(binding, &OP, doc, |params| {
        let (mut n, mut a, mut list) = (None, None, None);
        while let Some(param) = params.next_member()? {
            match param.name() {
                "n" if n.is_none() => n = Some(param.scalar("n")?),
                "a" if a.is_none() => a = Some(param.optional("a", &[])?),
                "list" if list.is_none() => list = Some(param.optional("list", &["int"])?),
                _ => {}
            }
        }
        Ok((n, a, list))
    })
}

/// When the stream reads `doc`, it reads what the general path reads. Returns whether it
/// read it.
fn check(binding: Binding, doc: &[u8]) -> bool {
    let Ok(values) = streamed(binding, doc) else {
        return false;
    };
    assert_eq!(
        general(binding, doc).as_ref(),
        Ok(&values),
        "the stream reads otherwise than the general path on {:?}",
        String::from_utf8_lossy(doc)
    );
    true
}

#[test]
fn class_requests_are_streamed_as_the_general_path_reads_them() {
    // Each is streamed, but the one the general path refuses (a Java client's prefixes, an
    // item's `xsi:type` naming a type of another namespace): that is left to it.
    for (binding, doc) in class_requests() {
        let refused = general(binding, doc.as_bytes()).is_err();
        assert_eq!(check(binding, doc.as_bytes()), !refused, "{doc}");
    }
    assert!(general(Binding::Soap11, class_requests()[2].1.as_bytes()).is_err());
    let (binding, ours) = &class_requests()[0];
    let (n, a, list) = streamed(*binding, ours.as_bytes()).unwrap();
    assert_eq!(n, Some(1));
    let a = a.flatten().expect("a");
    assert_eq!((a.code.as_deref(), a.n, a.id), (Some("c 1"), -2, 5));
    assert_eq!(a.name.as_deref(), Some("A & B \u{e9}"));
    let lines = a.lines.expect("lines");
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1], None);
    let special = lines[2].as_ref().expect("a special line");
    assert_eq!((special.special, special.extra), (true, 1));
    assert_eq!(
        a.note,
        Some(Note {
            lang: Some("en".into()),
            inside: vec!["b".into()],
        })
    );
    assert_eq!(list.flatten(), Some(vec![Some(1), None]));
}

#[test]
fn members_as_they_are_sent_are_read_plainly_from_the_message_only() {
    let requests = class_requests();
    // `<Id>` and `<Name>` (a reference in its text) of `a`; the first line's `<Sku>` and
    // `<Discount xsi:nil="true" />`; the special line's `<Sku>`, before its `<Extra>`.
    let (binding, ours) = &requests[0];
    let (values, plain) = plain_reads(|| streamed(*binding, ours.as_bytes()));
    assert_eq!(plain, 5);
    assert_eq!(values.ok(), general(*binding, ours.as_bytes()).ok());
    let (_, plain) = plain_reads(|| general(*binding, ours.as_bytes()));
    assert_eq!(plain, 0, "a tree reads every member in the loop");
    // Indented: `<Id>` after white space, then `<Lines>` ends the plain members; the line's
    // `<Sku>`, then white space and its end tag.
    let (binding, indented) = &requests[1];
    let (values, plain) = plain_reads(|| streamed(*binding, indented.as_bytes()));
    assert_eq!(plain, 2);
    assert_eq!(values.ok(), general(*binding, indented.as_bytes()).ok());
    // What is not quite plain is read in the loop, as before.
    for (from, to) in [
        ("<Id>5</Id>", "<Id >5</Id>"),
        ("<Id>5</Id>", "<Id>5</Id >"),
        ("<Id>5</Id>", "<Id>5<!-- c --></Id>"),
        ("<Id>5</Id>", "<b/><Id>5</Id>"),
    ] {
        let doc = ours.replacen(from, to, 1);
        assert_ne!(doc, *ours);
        let (values, plain) = plain_reads(|| streamed(*binding, doc.as_bytes()));
        match values {
            Ok(values) => {
                assert_eq!(
                    Ok(&values),
                    general(*binding, doc.as_bytes()).as_ref(),
                    "{doc}"
                );
                // The lines' members still are.
                assert_eq!(plain, 3, "{doc}");
            }
            // A comment is outside the scanner's shape: the general path reads it all.
            Err(Fallback) => assert!(doc.contains("<!--"), "{doc}"),
        }
    }
}

#[test]
fn the_stream_agrees_with_the_general_path_on_every_single_mutation() {
    let mut streamed = 0;
    let mut total = 0;
    for (binding, doc) in class_requests() {
        for mutated in mutations(doc.as_bytes()) {
            total += 1;
            streamed += usize::from(check(binding, &mutated));
        }
    }
    eprintln!("{streamed} of {total} streamed");
    assert!(streamed > total / 20, "{streamed} of {total} streamed");
}

/// A response's result, streamed and from its tree.
fn check_response(binding: Binding, doc: &[u8]) -> bool {
    let Ok(result) = read_streamed_response(binding, &OP, doc, |element| {
        A::read_streamed_optional(element, &[])
    }) else {
        return false;
    };
    let general: Result<Option<A>, String> = match read_response_tree(binding, &OP, doc) {
        Ok(ResponseBody::Result(Some(node))) => {
            A::read_optional(&node, &[]).map_err(|error| error.to_string())
        }
        Ok(ResponseBody::Result(None)) => Ok(None),
        Ok(ResponseBody::Fault(fault)) => panic!("a fault: {fault:?}"),
        Err(error) => Err(error),
    };
    assert_eq!(
        general,
        Ok(result),
        "the stream reads otherwise than the tree on {:?}",
        String::from_utf8_lossy(doc)
    );
    true
}

#[test]
fn responses_are_streamed_as_their_trees_read() {
    for (binding, doc) in class_responses() {
        assert!(
            check_response(binding, doc.as_bytes()),
            "not streamed: {doc}"
        );
    }
    let mut streamed = 0;
    let mut total = 0;
    for (binding, doc) in class_responses() {
        for mutated in mutations(doc.as_bytes()) {
            total += 1;
            streamed += usize::from(check_response(binding, &mutated));
        }
    }
    eprintln!("{streamed} of {total} streamed");
    assert!(streamed > total / 20, "{streamed} of {total} streamed");
}
