//! The table `layout scan` prints for people.
//!
//! One row per `entry_computation_layout` entry and per instruction
//! (`NAME OPCODE BYTES SPACE SHAPE`, the shape last and verbatim), a
//! `-- <computation>` line before each computation's rows, then the shapes
//! that failed to parse ([`Failures`], from a second pass over the input,
//! so that no error text is held), the totals per memory space and a
//! summary line.
//!
//! The columns are as wide as their widest cell, so the rows are held until
//! the end of the input: a few spans and numbers per instruction, never
//! their text.
//!
//! Uses: [`crate::report`], [`crate::format`], [`super::Render`].

use std::borrow::Cow;
use std::io::{self, Write};

use super::Render;
use crate::format::{binary_units, grouped};
use crate::report::{
    lossy, space_label, CompRec, InstrRec, ModuleRec, Scan, Shapes, Space, Span, Value,
};

/// Widest NAME column.
const MAX_NAME: usize = 48;
/// Widest OPCODE column.
const MAX_OPCODE: usize = 24;

/// The BYTES cell of a row.
#[derive(Clone, Copy)]
enum Bytes {
    Known(u64),
    Unknown,
    Error,
}

impl Bytes {
    fn of(v: &Value) -> Bytes {
        match (&v.error, v.bytes) {
            (Some(_), _) => Bytes::Error,
            (None, Some(n)) => Bytes::Known(n),
            (None, None) => Bytes::Unknown,
        }
    }
}

/// The NAME cell of a row.
#[derive(Clone, Copy)]
enum RowName {
    Instruction { name: Span, root: bool },
    EntryParameter(usize),
    EntryResult,
}

/// One table row.
struct Row {
    /// Index into `Table::headings`.
    section: usize,
    name: RowName,
    /// `None` for an entry layout row.
    opcode: Option<Span>,
    bytes: Bytes,
    space: Space,
    shape: Span,
}

/// The rows of the table, gathered over the input.
pub struct Table {
    /// Section headings; the first (empty) is never printed.
    headings: Vec<String>,
    section: usize,
    /// The computation the current section's instructions belong to
    /// (`None`: a module header's section).
    section_comp: Option<Vec<u8>>,
    rows: Vec<Row>,
}

impl Default for Table {
    fn default() -> Self {
        Self::new()
    }
}

impl Table {
    /// An empty table.
    pub fn new() -> Self {
        Table {
            headings: vec![String::new()],
            section: 0,
            section_comp: None,
            rows: Vec::new(),
        }
    }

    fn new_section(&mut self, heading: String, comp: Option<Vec<u8>>) {
        self.headings.push(heading);
        self.section = self.headings.len() - 1;
        self.section_comp = comp;
    }

    fn row_name<'s>(scan: &Scan<'s>, r: &Row) -> Cow<'s, str> {
        match r.name {
            RowName::Instruction { name, root: false } => lossy(scan.text(name)),
            RowName::Instruction { name, root: true } => {
                format!("ROOT {}", lossy(scan.text(name))).into()
            }
            RowName::EntryParameter(i) => format!("(parameter {i})").into(),
            RowName::EntryResult => "(result)".into(),
        }
    }

    /// Writes the header line, the sections and their rows.
    pub fn write_rows(&self, out: &mut dyn Write, scan: &Scan) -> io::Result<()> {
        let name_w = self
            .rows
            .iter()
            .map(|r| match r.name {
                RowName::Instruction { name, root } => {
                    (name.end - name.start).saturating_add(if root { 5 } else { 0 })
                }
                _ => Self::row_name(scan, r).len(),
            })
            .max()
            .unwrap_or(0)
            .clamp(4, MAX_NAME);
        let op_w = self
            .rows
            .iter()
            .map(|r| r.opcode.map_or(14, |o| o.end - o.start))
            .max()
            .unwrap_or(0)
            .clamp(6, MAX_OPCODE);
        let max_bytes = self
            .rows
            .iter()
            .filter_map(|r| match r.bytes {
                Bytes::Known(n) => Some(n),
                _ => None,
            })
            .max();
        // "BYTES" and "error" are 5 wide.
        let bytes_w = max_bytes.map_or(0, |n| n.to_string().len()).max(5);
        let space_w = self
            .rows
            .iter()
            .filter_map(|r| match r.space {
                Space::One(n) => Some(format!("S({n})").len()),
                _ => None,
            })
            .max()
            .unwrap_or(0)
            .max(5);
        writeln!(
            out,
            "{:<name_w$}  {:<op_w$}  {:>bytes_w$}  {:<space_w$}  SHAPE",
            "NAME", "OPCODE", "BYTES", "SPACE"
        )?;
        let mut section = usize::MAX;
        for r in &self.rows {
            if r.section != section {
                section = r.section;
                writeln!(out, "-- {}", self.headings[section])?;
            }
            let bytes: Cow<str> = match r.bytes {
                Bytes::Known(n) => n.to_string().into(),
                Bytes::Unknown => "?".into(),
                Bytes::Error => "error".into(),
            };
            let space: Cow<str> = match r.space {
                Space::One(n) => format!("S({n})").into(),
                Space::Mixed => "mixed".into(),
                Space::None => "-".into(),
            };
            let opcode = r
                .opcode
                .map_or("(entry layout)".into(), |o| lossy(scan.text(o)));
            write!(
                out,
                "{:<name_w$}  {:<op_w$}  {:>bytes_w$}  {:<space_w$}  ",
                Self::row_name(scan, r),
                opcode,
                bytes,
                space
            )?;
            out.write_all(scan.text(r.shape))?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }
}

/// Writes the heading of the list of shapes that failed to parse.
pub fn write_failures_heading(out: &mut dyn Write, errors: u64) -> io::Result<()> {
    writeln!(out, "\n{errors} shape(s) failed to parse:")
}

/// Writes the totals per memory space and the summary line.
pub fn write_totals(out: &mut dyn Write, scan: &Scan) -> io::Result<()> {
    writeln!(
        out,
        "\ntotals over instruction results (all computations; tuple leaves each in their own space):"
    )?;
    if scan.totals.is_empty() {
        writeln!(out, "  (no arrays)")?;
    }
    for (space, t) in &scan.totals {
        write!(
            out,
            "  {:<6} {:<10} {:>16} bytes  {:>11}  {} array(s)",
            format!("S({space})"),
            space_label(*space).unwrap_or(""),
            grouped(t.bytes),
            format!("({})", binary_units(t.bytes)),
            t.arrays
        )?;
        if t.unknown > 0 {
            write!(out, ", {} of unknown size", t.unknown)?;
        }
        writeln!(out)?;
    }
    let f = &scan.found;
    writeln!(
        out,
        "shapes found: {} ({} results, {} operands, {} in attributes, {} parameters, {} entry layout, {} other) \
         in {} instruction(s), {} computation(s); {} failed to parse",
        f.total(),
        f.results,
        f.operands,
        f.attributes,
        f.parameters,
        f.entry_layout,
        f.other,
        scan.instructions,
        scan.computations,
        scan.errors()
    )
}

impl Render for Table {
    fn module(&mut self, _out: &mut dyn Write, scan: &Scan, m: &ModuleRec) -> io::Result<()> {
        self.new_section(format!("HloModule {}", lossy(scan.text(m.name))), None);
        if let Some((ps, r)) = &m.entry {
            for (i, &s) in ps.iter().enumerate() {
                let v = scan.value(s);
                self.rows.push(Row {
                    section: self.section,
                    name: RowName::EntryParameter(i),
                    opcode: None,
                    bytes: Bytes::of(&v),
                    space: v.space(),
                    shape: s,
                });
            }
            let v = scan.value(*r);
            self.rows.push(Row {
                section: self.section,
                name: RowName::EntryResult,
                opcode: None,
                bytes: Bytes::of(&v),
                space: v.space(),
                shape: *r,
            });
        }
        // Counted, not listed.
        for &(_, s) in &m.attributes {
            scan.value(s);
        }
        Ok(())
    }

    fn computation(&mut self, _out: &mut dyn Write, scan: &Scan, c: &CompRec) -> io::Result<()> {
        for &(_, s) in &c.params {
            scan.value(s);
        }
        if let Some(s) = c.result {
            scan.value(s);
        }
        let label = lossy(c.label);
        let heading = if c.nested {
            format!("{label} (nested computation)")
        } else if c.entry {
            format!("ENTRY {label}")
        } else {
            label.into_owned()
        };
        self.new_section(heading, Some(c.label.to_vec()));
        Ok(())
    }

    fn instruction(
        &mut self,
        _out: &mut dyn Write,
        scan: &Scan,
        i: &InstrRec,
        result: &Value,
    ) -> io::Result<()> {
        i.operands.for_each(&mut |s| {
            scan.value(s);
        });
        for &(_, s) in &i.attributes {
            scan.value(s);
        }
        let key = i.computation.unwrap_or(b"");
        if self.section_comp.as_deref() != Some(key) {
            // After a nested computation, or outside any computation.
            let heading = match i.computation {
                Some(c) => format!("{} (continued)", lossy(c)),
                None => "(outside any computation)".into(),
            };
            self.new_section(heading, Some(key.to_vec()));
        }
        self.rows.push(Row {
            section: self.section,
            name: RowName::Instruction {
                name: i.name,
                root: i.root,
            },
            opcode: Some(i.opcode),
            bytes: Bytes::of(result),
            space: result.space(),
            shape: i.result,
        });
        Ok(())
    }

    fn other(
        &mut self,
        _out: &mut dyn Write,
        scan: &Scan,
        _line: usize,
        shapes: Shapes<'_>,
    ) -> io::Result<()> {
        shapes.for_each(&mut |s| {
            scan.value(s);
        });
        Ok(())
    }
}

/// The list of shapes that failed to parse, one line each, written as a
/// second pass over the input finds them (in the order the first pass
/// evaluated them).
#[derive(Default)]
pub struct Failures;

impl Failures {
    fn check(
        out: &mut dyn Write,
        scan: &Scan,
        line: usize,
        s: Span,
        value: &Value,
        who: impl FnOnce() -> String,
    ) -> io::Result<()> {
        if let Some(error) = &value.error {
            write!(out, "  line {line}  {}  `", who())?;
            out.write_all(scan.text(s))?;
            writeln!(out, "`: {error}")?;
        }
        Ok(())
    }
}

impl Render for Failures {
    fn module(&mut self, out: &mut dyn Write, scan: &Scan, m: &ModuleRec) -> io::Result<()> {
        let name = lossy(scan.text(m.name));
        if let Some((ps, r)) = &m.entry {
            for (i, &s) in ps.iter().enumerate() {
                let v = scan.value(s);
                Self::check(out, scan, m.line, s, &v, || {
                    format!("{name} entry parameter {i}")
                })?;
            }
            let v = scan.value(*r);
            Self::check(out, scan, m.line, *r, &v, || format!("{name} entry result"))?;
        }
        for &(a, s) in &m.attributes {
            let v = scan.value(s);
            Self::check(out, scan, m.line, s, &v, || {
                format!("{name} {}", lossy(scan.text(a)))
            })?;
        }
        Ok(())
    }

    fn computation(&mut self, out: &mut dyn Write, scan: &Scan, c: &CompRec) -> io::Result<()> {
        let label = lossy(c.label);
        for &(n, s) in &c.params {
            let v = scan.value(s);
            Self::check(out, scan, c.line, s, &v, || {
                format!("{label} parameter {}", lossy(scan.text(n)))
            })?;
        }
        if let Some(s) = c.result {
            let v = scan.value(s);
            Self::check(out, scan, c.line, s, &v, || format!("{label} result"))?;
        }
        Ok(())
    }

    fn instruction(
        &mut self,
        out: &mut dyn Write,
        scan: &Scan,
        i: &InstrRec,
        result: &Value,
    ) -> io::Result<()> {
        let name = || lossy(scan.text(i.name));
        Self::check(out, scan, i.line, i.result, result, || {
            format!("{} (result)", name())
        })?;
        let mut k = 0usize;
        let mut written = Ok(());
        i.operands.for_each(&mut |s| {
            let v = scan.value(s);
            if written.is_ok() {
                written = Self::check(out, scan, i.line, s, &v, || {
                    format!("{} (operand shape {k})", name())
                });
            }
            k += 1;
        });
        written?;
        for &(a, s) in &i.attributes {
            let v = scan.value(s);
            Self::check(out, scan, i.line, s, &v, || {
                format!("{} ({})", name(), lossy(scan.text(a)))
            })?;
        }
        Ok(())
    }

    fn other(
        &mut self,
        out: &mut dyn Write,
        scan: &Scan,
        line: usize,
        shapes: Shapes<'_>,
    ) -> io::Result<()> {
        let mut written = Ok(());
        shapes.for_each(&mut |s| {
            let v = scan.value(s);
            if written.is_ok() {
                written = Self::check(out, scan, line, s, &v, || "(outside an instruction)".into());
            }
        });
        written
    }
}
