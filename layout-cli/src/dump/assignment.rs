//! Reading XLA's buffer assignment as `--xla_dump_to` writes it
//! (`*-buffer-assignment.txt`, `BufferAssignment::ToString`):
//!
//! ```text
//! BufferAssignment:
//! allocation 0: size 2048, parameter 1, shape |f32[16,32]| at ShapeIndex {}:
//!  value: <17 w.1 @0> (size=2048,offset=0): f32[16,32]{1,0}
//! allocation 5: size 16, output shape is |(f32[32], bf16[8,32])|, maybe-live-out:
//!  value: <24 tuple.1{} @0> (size=16,offset=0): (f32[32]{0}, bf16[8,32]{1,0})
//!
//! Total bytes used: 4384 (4.3KiB)
//!
//! Used values:
//! ...
//! ```
//!
//! An allocation line is `allocation N: size BYTES` then, comma-separated,
//! any of `color N`, `parameter N`, `shape |..| at ShapeIndex {..}`,
//! `output shape is |..|`, `constant`, `thread-local`, `maybe-live-out`,
//! `preallocated-temp` (kept as written; others are kept too), and a final
//! `:`. A value line is ` value: <ID NAME[{INDEX}][ (phi)][ @COLOR]>
//! (size=BYTES,offset=BYTES): SHAPE`, the shape with its layout. Newer
//! XLA writes `Total bytes used:` and the `Used values:` list into a
//! `-buffer-assignment-values.txt` file beside it: [`read_total`] reads
//! that one. Reading stops after `Total bytes used:` (or at `Used
//! values:`): the list of values that follows is not read.
//!
//! Nothing here panics on any input: a line that is neither (a cut-off
//! file ends in one) is reported with its line number and skipped, and the
//! rest is read. No shape is parsed here.
//!
//! Uses: nothing else in the crate.

/// One `value:` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    /// 1-based line.
    pub line: usize,
    /// The value's id (`17` in `<17 w.1 @0>`).
    pub id: u64,
    /// The defining instruction's name.
    pub name: String,
    /// The shape index within a tuple-shaped instruction (`{1}`), as written.
    pub index: Option<String>,
    /// Marked `(phi)`.
    pub phi: bool,
    /// `@n`: the value's color (memory space).
    pub color: Option<i64>,
    /// Its size in the allocation, as the compiler counted it.
    pub size: u64,
    /// Its offset in the allocation.
    pub offset: u64,
    /// Its shape with layout, as written.
    pub shape: String,
}

/// One `allocation` line and its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allocation {
    /// 1-based line.
    pub line: usize,
    /// Its number.
    pub index: u64,
    /// Its size as the compiler counted it.
    pub size: u64,
    /// What follows the size (`parameter 1, shape |f32[16,32]| at
    /// ShapeIndex {}`), as written; empty when nothing does.
    pub what: String,
    /// `color n` (0 when absent).
    pub color: i64,
    /// Its values, in file order.
    pub values: Vec<Value>,
}

/// A line that could not be read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// 1-based line (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// A buffer-assignment file, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assignment {
    /// Whether a `BufferAssignment:` header or an allocation line was seen.
    pub found: bool,
    /// The allocations, in file order.
    pub allocations: Vec<Allocation>,
    /// `Total bytes used: N` and its line, when in this file.
    pub total: Option<(u64, usize)>,
    /// The lines that could not be read.
    pub errors: Vec<Malformed>,
}

impl Assignment {
    /// The allocation sizes summed (saturating: the sizes are read as
    /// `u64`, their sum is what XLA prints as the total).
    pub fn allocated(&self) -> u64 {
        self.allocations
            .iter()
            .fold(0u64, |acc, a| acc.saturating_add(a.size))
    }
}

/// A decimal number that fits `u64`.
fn number(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `Total bytes used: 4384 (4.3KiB)`: the number.
fn total_line(line: &str) -> Option<Result<u64, String>> {
    let rest = line.trim().strip_prefix("Total bytes used:")?;
    let digits = rest.split_whitespace().next().unwrap_or("");
    Some(number(digits).ok_or_else(|| {
        format!("`Total bytes used:` is not followed by a number of bytes: `{rest}`")
    }))
}

/// Splits at `, ` outside `|..|` (the shapes of `parameter` and `output
/// shape is` hold commas).
fn split_attributes(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut inside = false;
    let mut start = 0;
    let bytes = s.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'|' {
            inside = !inside;
        } else if b == b',' && !inside && bytes.get(i + 1) == Some(&b' ') {
            out.push(&s[start..i]);
            start = i + 2;
        }
    }
    out.push(&s[start..]);
    out
}

/// `allocation 0: size 2048, parameter 1, ...:`.
fn allocation_line(line: &str, no: usize) -> Result<Allocation, String> {
    let rest = line
        .strip_prefix("allocation ")
        .ok_or("not an allocation line")?;
    let (index, rest) = rest
        .split_once(": ")
        .ok_or("an allocation line needs `allocation N: size BYTES...:`")?;
    let index = number(index).ok_or_else(|| format!("`{index}` is not an allocation number"))?;
    let body = rest
        .trim_end()
        .strip_suffix(':')
        .ok_or("the allocation line does not end in `:` (is the file cut off?)")?;
    let mut parts = split_attributes(body).into_iter();
    let size = parts
        .next()
        .and_then(|p| p.strip_prefix("size "))
        .ok_or("an allocation line needs `size BYTES` after its number")?;
    let size = number(size).ok_or_else(|| format!("`{size}` is not a size in bytes"))?;
    let rest: Vec<&str> = parts.collect();
    let mut color = 0;
    for p in &rest {
        if let Some(c) = p.strip_prefix("color ") {
            color = c
                .parse()
                .map_err(|_| format!("`{c}` is not a color number"))?;
        }
    }
    Ok(Allocation {
        line: no,
        index,
        size,
        what: rest.join(", "),
        color,
        values: Vec::new(),
    })
}

/// What is between a value's `<` and `>`.
struct Name {
    id: u64,
    name: String,
    index: Option<String>,
    phi: bool,
    color: Option<i64>,
}

/// `<27 arg_tuple.3{1} (phi) @0>` without its brackets.
fn value_name(inner: &str) -> Result<Name, String> {
    let (id, mut rest) = inner
        .split_once(' ')
        .ok_or_else(|| format!("`<{inner}>` is not `<ID NAME>`"))?;
    let id = number(id).ok_or_else(|| format!("`{id}` is not a value id"))?;
    let mut color = None;
    if let Some((head, c)) = rest.rsplit_once(" @") {
        color = Some(
            c.parse()
                .map_err(|_| format!("`@{c}` is not a value color"))?,
        );
        rest = head;
    }
    let phi = rest.ends_with(" (phi)");
    if phi {
        rest = &rest[..rest.len() - " (phi)".len()];
    }
    let (name, index) = match rest.find('{') {
        Some(open) if rest.ends_with('}') => (&rest[..open], Some(rest[open..].to_string())),
        Some(_) => return Err(format!("the shape index in `{rest}` is not closed")),
        None => (rest, None),
    };
    if name.is_empty() || name.contains(char::is_whitespace) {
        return Err(format!("`{rest}` is not an instruction name"));
    }
    Ok(Name {
        id,
        name: name.to_string(),
        index,
        phi,
        color,
    })
}

/// ` value: <17 w.1 @0> (size=2048,offset=0): f32[16,32]{1,0}`.
fn value_line(line: &str, no: usize) -> Result<Value, String> {
    let rest = line
        .trim_start()
        .strip_prefix("value: <")
        .ok_or("not a value line")?;
    let (inner, rest) = rest
        .split_once("> (size=")
        .ok_or("a value line needs `<ID NAME> (size=BYTES,offset=BYTES): SHAPE`")?;
    let Name {
        id,
        name,
        index,
        phi,
        color,
    } = value_name(inner)?;
    let (size, rest) = rest
        .split_once(",offset=")
        .ok_or("a value line needs `,offset=BYTES` after its size")?;
    let size = number(size).ok_or_else(|| format!("`{size}` is not a size in bytes"))?;
    let (offset, shape) = rest
        .split_once("): ")
        .ok_or("a value line needs `): SHAPE` after its offset (is the file cut off?)")?;
    let offset = number(offset).ok_or_else(|| format!("`{offset}` is not an offset in bytes"))?;
    let shape = shape.trim();
    if shape.is_empty() {
        return Err("the value has no shape (is the file cut off?)".into());
    }
    Ok(Value {
        line: no,
        id,
        name,
        index,
        phi,
        color,
        size,
        offset,
        shape: shape.to_string(),
    })
}

/// Reads a buffer-assignment text.
pub fn read(text: &str) -> Assignment {
    let mut a = Assignment::default();
    // Whether the last allocation line was read: its values follow.
    let mut open = false;
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let line = raw.trim_end_matches('\r');
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if trimmed == "Used values:" {
            break;
        }
        if trimmed == "BufferAssignment:" {
            a.found = true;
            continue;
        }
        if let Some(total) = total_line(trimmed) {
            match total {
                Ok(n) => {
                    a.total = Some((n, no));
                    // What follows is the list of used values.
                    break;
                }
                Err(message) => a.errors.push(Malformed { line: no, message }),
            }
            continue;
        }
        let error = if line.starts_with("allocation ") {
            a.found = true;
            open = false;
            match allocation_line(line, no) {
                Ok(alloc) => {
                    if a.allocations.iter().any(|x| x.index == alloc.index) {
                        Some(format!("allocation {} is listed twice", alloc.index))
                    } else {
                        a.allocations.push(alloc);
                        open = true;
                        None
                    }
                }
                Err(e) => Some(e),
            }
        } else if trimmed.starts_with("value:") {
            let alloc = a.allocations.last_mut().filter(|_| open);
            match (value_line(line, no), alloc) {
                (Err(e), _) => Some(e),
                (Ok(_), None) => Some("a value with no allocation line read above it".into()),
                (Ok(v), Some(alloc)) => {
                    let end = v.offset.checked_add(v.size);
                    if end.is_none_or(|e| e > alloc.size) {
                        Some(format!(
                            "value <{} {}> (size={}, offset={}) lies past the end of allocation {} ({} bytes)",
                            v.id, v.name, v.size, v.offset, alloc.index, alloc.size
                        ))
                    } else {
                        alloc.values.push(v);
                        None
                    }
                }
            }
        } else if a.found {
            Some(format!(
                "not an allocation or value line: `{}`",
                cut(trimmed, 60)
            ))
        } else {
            // Text before the header (a log line, stats) is not ours.
            None
        };
        if let Some(message) = error {
            a.errors.push(Malformed { line: no, message });
        }
    }
    a
}

/// `Total bytes used:` in a `-buffer-assignment-values.txt` file: the
/// number and its line, or the malformed line.
pub fn read_total(text: &str) -> Option<Result<(u64, usize), Malformed>> {
    for (i, line) in text.lines().enumerate() {
        if line.trim() == "Used values:" {
            return None;
        }
        if let Some(total) = total_line(line) {
            return Some(total.map(|n| (n, i + 1)).map_err(|message| Malformed {
                line: i + 1,
                message,
            }));
        }
    }
    None
}

/// The first `max` characters of `s`, with `...` when cut.
fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => format!("{}...", &s[..at]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "BufferAssignment:
allocation 0: size 2048, parameter 1, shape |f32[16,32]| at ShapeIndex {}:
 value: <17 w.1 @0> (size=2048,offset=0): f32[16,32]{1,0}
allocation 1: size 16, output shape is |(f32[32], bf16[8,32])|, maybe-live-out:
 value: <24 tuple.1{} @0> (size=16,offset=0): (f32[32]{0}, bf16[8,32]{1,0})
allocation 2: size 129, color 1, preallocated-temp:
 value: <27 arg_tuple.3{1} (phi) @1> (size=60,offset=0): f32[5,3]{1,0}
 value: <18 wrapped_compare @1> (size=1,offset=128): pred[]

Total bytes used: 2193 (2.1KiB)

Used values:
<17 w.1 @0>
 garbage that is not read
";

    #[test]
    fn reads_allocations_values_and_the_total() {
        let a = read(SMALL);
        assert!(a.found);
        assert_eq!(a.errors, vec![]);
        assert_eq!(a.total, Some((2193, 10)));
        assert_eq!(a.allocated(), 2193);
        assert_eq!(a.allocations.len(), 3);
        let p = &a.allocations[0];
        assert_eq!((p.line, p.index, p.size, p.color), (2, 0, 2048, 0));
        assert_eq!(p.what, "parameter 1, shape |f32[16,32]| at ShapeIndex {}");
        assert_eq!(
            p.values,
            vec![Value {
                line: 3,
                id: 17,
                name: "w.1".into(),
                index: None,
                phi: false,
                color: Some(0),
                size: 2048,
                offset: 0,
                shape: "f32[16,32]{1,0}".into(),
            }]
        );
        let out = &a.allocations[1];
        assert_eq!(
            out.what,
            "output shape is |(f32[32], bf16[8,32])|, maybe-live-out"
        );
        assert_eq!(out.values[0].index.as_deref(), Some("{}"));
        assert_eq!(out.values[0].shape, "(f32[32]{0}, bf16[8,32]{1,0})");
        let temp = &a.allocations[2];
        assert_eq!(temp.color, 1);
        let phi = &temp.values[0];
        assert_eq!(
            (
                phi.id,
                phi.name.as_str(),
                phi.index.as_deref(),
                phi.phi,
                phi.color
            ),
            (27, "arg_tuple.3", Some("{1}"), true, Some(1))
        );
        assert_eq!((temp.values[1].offset, temp.values[1].size), (128, 1));
    }

    #[test]
    fn the_values_file_gives_the_total() {
        let values = "\nTotal bytes used: 4384 (4.3KiB)\n\nUsed values:\n<0 x @0>\n";
        assert_eq!(read_total(values), Some(Ok((4384, 2))));
        assert_eq!(read_total("Used values:\nTotal bytes used: 1 (1B)\n"), None);
        assert_eq!(read_total(""), None);
        let bad = read_total("Total bytes used: lots\n").unwrap().unwrap_err();
        assert_eq!(bad.line, 1);
        assert!(bad.message.contains("not followed by a number"), "{bad:?}");
    }

    #[test]
    fn a_value_without_color_or_a_tuple_index() {
        let v = value_line(" value: <3 p0> (size=4,offset=8): s32[]", 7).unwrap();
        assert_eq!(
            (v.id, v.name.as_str(), v.color, v.index),
            (3, "p0", None, None)
        );
        assert_eq!((v.size, v.offset, v.line), (4, 8, 7));
        let v = value_line(" value: <5 t{0,1} @2> (size=8,offset=0): f32[2]{0}", 1).unwrap();
        assert_eq!((v.index.as_deref(), v.color), (Some("{0,1}"), Some(2)));
    }

    /// Every line that can go wrong says which, and the rest is read.
    #[test]
    fn malformed_lines_are_reported_with_their_numbers() {
        let text = "BufferAssignment:
allocation 0: size 64, constant:
 value: <1 c @0> (size=64,offset=0): f32[16]{0}
allocation x: size 4:
allocation 1: size many:
allocation 2: size 8, thread-local
 value: <2 a @0> (size=4,offset=8): f32[]
allocation 3: size 8:
 value: <3 b @0> (size=4,offset=8): f32[]
 value: <4 b @0> (size=4,offset=0): f32[]
 value: <oops> (size=4,offset=0): f32[]
 value: <5 b @x> (size=4,offset=0): f32[]
 value: <6 b{0 @0> (size=4,offset=0): f32[]
 value: <7 b @0> (size=4,offset=0):
 value: <8 b @0> (size=4,offset=18446744073709551615): f32[]
allocation 0: size 4:
something else entirely
Total bytes used: ?
 value: <9 b @0> (size=4,offs";
        let a = read(text);
        let lines: Vec<usize> = a.errors.iter().map(|e| e.line).collect();
        assert_eq!(
            lines,
            vec![4, 5, 6, 7, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19]
        );
        let says = |line: usize, what: &str| {
            let e = a.errors.iter().find(|e| e.line == line).unwrap();
            assert!(e.message.contains(what), "line {line}: {}", e.message);
        };
        says(4, "`x` is not an allocation number");
        says(5, "`many` is not a size");
        says(6, "does not end in `:`");
        says(7, "no allocation line read above it");
        says(9, "lies past the end of allocation 3");
        says(11, "`<oops>`");
        says(12, "`@x` is not a value color");
        says(13, "not closed");
        says(14, "cut off");
        says(15, "lies past the end");
        says(16, "allocation 0 is listed twice");
        says(17, "not an allocation or value line");
        says(18, "not followed by a number");
        says(19, "`,offset=BYTES`");
        // Allocations 0 and 3 were read, with the values that fit.
        let read: Vec<(u64, usize)> = a
            .allocations
            .iter()
            .map(|x| (x.index, x.values.len()))
            .collect();
        assert_eq!(read, vec![(0, 1), (3, 1)]);
        assert_eq!(a.total, None);
    }

    #[test]
    fn text_that_is_no_buffer_assignment() {
        let a = read("HloModule m\n\nENTRY e { ROOT p = f32[] parameter(0) }\n");
        assert!(!a.found);
        assert_eq!(a.errors, vec![]);
        assert!(!read("").found);
        // Bytes that are not UTF-8 come in replaced; nothing panics on
        // odd characters or a cut inside one.
        let a = read("BufferAssignment:\nallocation 0: size 4\u{fffd}:\n value: <\u{e9}");
        assert_eq!(a.errors.len(), 2);
    }

    /// The committed dumps, cut at every byte: nothing panics, and every
    /// cut before the end of the total's number reads as incomplete (an
    /// error, no total, or a total the allocations do not make, which
    /// `scan` reports).
    #[test]
    fn every_cut_of_a_real_file_reads_without_panicking() {
        let text = include_str!(
            "../../tests/data/dump/tpu/module_0007.jit_train_step.tpu_after_optimizations-buffer-assignment.txt"
        );
        let whole = read(text);
        assert_eq!(whole.errors, vec![]);
        assert_eq!(whole.total.map(|t| t.0), Some(whole.allocated()));
        let label = "Total bytes used: ";
        let digits = text.find(label).unwrap() + label.len();
        let end = digits + text[digits..].find(' ').unwrap();
        for at in 0..text.len() {
            let a = read(&text[..at]);
            let complete = a.errors.is_empty() && a.total.map(|t| t.0) == Some(a.allocated());
            assert_eq!(complete, at >= end, "cut at {at}");
        }
        // Newer XLA: the total is in the -values file.
        let text = include_str!(
            "../../tests/data/dump/jax_cpu/module_0002.jit_scale.cpu_after_optimizations-buffer-assignment.txt"
        );
        let whole = read(text);
        assert_eq!((whole.errors.len(), whole.allocations.len()), (0, 6));
        for at in 0..text.len() {
            assert!(read(&text[..at]).total.is_none());
        }
        let values = include_str!(
            "../../tests/data/dump/jax_cpu/module_0002.jit_scale.cpu_after_optimizations-buffer-assignment-values.txt"
        );
        assert_eq!(read_total(values), Some(Ok((261, 2))));
        for at in 0..values.len() {
            let _ = read_total(&values[..at]);
        }
    }

    #[test]
    fn attributes_split_outside_the_shapes() {
        assert_eq!(
            split_attributes("size 16, output shape is |(f32[32], bf16[8])|, maybe-live-out"),
            vec![
                "size 16",
                "output shape is |(f32[32], bf16[8])|",
                "maybe-live-out"
            ]
        );
        assert_eq!(cut("abcdef", 3), "abc...");
        assert_eq!(cut("ab", 3), "ab");
    }
}
