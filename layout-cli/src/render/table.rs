//! The table `layout scan` prints for people.
//!
//! One row per `entry_computation_layout` entry and per instruction
//! (`NAME OPCODE BYTES PADDING SPACE SHAPE`, padding with thousands
//! separators, the shape last and verbatim), a
//! `-- <computation>` line before each computation's rows, then the shapes
//! that failed to parse ([`Failures`]), the totals per memory space (entry
//! parameters, entry result, values of top-level computations, all
//! instruction results; [`write_totals`]) and a summary line.
//!
//! The columns are as wide as their widest cell. Nothing is held for that:
//! a first pass over the input measures the cells ([`Table::measure`]), a
//! second writes the rows ([`Table::write`]) and, if some shapes failed to
//! parse, a third lists them.
//!
//! Uses: [`crate::report`], [`crate::format`], [`super::Render`].

use std::borrow::Cow;
use std::io::{self, Write};

use super::Render;
use crate::format::{binary_units, grouped};
use crate::report::{
    lossy, space_label, CompRec, InstrRec, ModuleRec, Scan, Shapes, Space, Spaces, Span, Value,
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
        Self::cell(v, v.bytes)
    }

    /// The PADDING cell: allocated minus unpadded bytes.
    fn padding_of(v: &Value) -> Bytes {
        Self::cell(v, v.padding())
    }

    fn cell(v: &Value, n: Option<u64>) -> Bytes {
        match (&v.error, n) {
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

/// Characters of `n` in decimal.
fn decimal_len(n: i128) -> usize {
    let digits = n
        .unsigned_abs()
        .checked_ilog10()
        .map_or(1, |d| d as usize + 1);
    digits + usize::from(n < 0)
}

/// The widths of the table's columns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Widths {
    name: usize,
    opcode: usize,
    bytes: usize,
    padding: usize,
    space: usize,
}

impl Widths {
    /// The widths of the cells measured, within each column's bounds.
    fn bounded(self) -> Widths {
        Widths {
            name: self.name.clamp(4, MAX_NAME),
            opcode: self.opcode.clamp(6, MAX_OPCODE),
            // "BYTES" and "error" are 5 wide.
            bytes: self.bytes.max(5),
            // "PADDING" is 7 wide.
            padding: self.padding.max(7),
            space: self.space.max(5),
        }
    }

    /// Writes the header line.
    pub fn write_header(&self, out: &mut dyn Write) -> io::Result<()> {
        let Widths {
            name,
            opcode,
            bytes,
            padding,
            space,
        } = *self;
        writeln!(
            out,
            "{:<name$}  {:<opcode$}  {:>bytes$}  {:>padding$}  {:<space$}  SHAPE",
            "NAME", "OPCODE", "BYTES", "PADDING", "SPACE"
        )
    }
}

/// What a pass of the table does with each row.
enum Mode {
    /// Widen the columns to fit it.
    Measure(Widths),
    /// Write it (after its section's heading, the first time).
    Write {
        widths: Widths,
        heading: String,
        written: bool,
    },
}

/// The table, in one of its two passes.
pub struct Table {
    mode: Mode,
    /// The computation the current section's instructions belong to
    /// (`None`: a module header's section).
    section_comp: Option<Vec<u8>>,
}

impl Table {
    /// The first pass: measures the columns (and evaluates every shape, so
    /// that the scan counts the errors).
    pub fn measure() -> Self {
        Table {
            mode: Mode::Measure(Widths::default()),
            section_comp: None,
        }
    }

    /// The columns measured.
    pub fn widths(&self) -> Widths {
        match &self.mode {
            Mode::Measure(w) => w.bounded(),
            Mode::Write { widths, .. } => *widths,
        }
    }

    /// The second pass: writes the sections and their rows.
    pub fn write(widths: Widths) -> Self {
        Table {
            mode: Mode::Write {
                widths,
                heading: String::new(),
                written: true,
            },
            section_comp: None,
        }
    }

    fn new_section(&mut self, heading: impl FnOnce() -> String, comp: Option<Vec<u8>>) {
        if let Mode::Write {
            heading: h,
            written,
            ..
        } = &mut self.mode
        {
            *h = heading();
            *written = false;
        }
        self.section_comp = comp;
    }

    fn row_name<'s>(scan: &Scan<'s>, name: RowName) -> Cow<'s, str> {
        match name {
            RowName::Instruction { name, root: false } => lossy(scan.text(name)),
            RowName::Instruction { name, root: true } => {
                format!("ROOT {}", lossy(scan.text(name))).into()
            }
            RowName::EntryParameter(i) => format!("(parameter {i})").into(),
            RowName::EntryResult => "(result)".into(),
        }
    }

    /// One row: measured or written.
    fn row(
        &mut self,
        out: &mut dyn Write,
        scan: &Scan,
        name: RowName,
        opcode: Option<Span>,
        value: &Value,
        shape: Span,
    ) -> io::Result<()> {
        let bytes = Bytes::of(value);
        let padding = Bytes::padding_of(value);
        let space = value.space();
        match &mut self.mode {
            Mode::Measure(w) => {
                let name_len = match name {
                    RowName::Instruction { name, root } => {
                        (name.end - name.start).saturating_add(if root { 5 } else { 0 })
                    }
                    _ => Self::row_name(scan, name).len(),
                };
                w.name = w.name.max(name_len);
                w.opcode = w.opcode.max(opcode.map_or(14, |o| o.end - o.start));
                if let Bytes::Known(n) = bytes {
                    w.bytes = w.bytes.max(grouped(n).len());
                }
                if let Bytes::Known(n) = padding {
                    w.padding = w.padding.max(grouped(n).len());
                }
                if let Space::One(n) = space {
                    // `S(n)`.
                    w.space = w.space.max(decimal_len(i128::from(n)) + 3);
                }
                Ok(())
            }
            Mode::Write {
                widths,
                heading,
                written,
            } => {
                if !*written {
                    *written = true;
                    writeln!(out, "-- {heading}")?;
                }
                let Widths {
                    name: name_w,
                    opcode: op_w,
                    bytes: bytes_w,
                    padding: padding_w,
                    space: space_w,
                } = *widths;
                let bytes: Cow<str> = match bytes {
                    Bytes::Known(n) => grouped(n).into(),
                    Bytes::Unknown => "?".into(),
                    Bytes::Error => "error".into(),
                };
                let padding: Cow<str> = match padding {
                    Bytes::Known(n) => grouped(n).into(),
                    Bytes::Unknown => "?".into(),
                    Bytes::Error => "error".into(),
                };
                let space: Cow<str> = match space {
                    Space::One(n) => format!("S({n})").into(),
                    Space::Mixed => "mixed".into(),
                    Space::None => "-".into(),
                };
                let opcode = opcode.map_or("(entry layout)".into(), |o| lossy(scan.text(o)));
                write!(
                    out,
                    "{:<name_w$}  {:<op_w$}  {:>bytes_w$}  {:>padding_w$}  {:<space_w$}  ",
                    Self::row_name(scan, name),
                    opcode,
                    bytes,
                    padding,
                    space
                )?;
                out.write_all(scan.text(shape))?;
                out.write_all(b"\n")
            }
        }
    }

    /// Whether this pass evaluates the shapes that are not rows (only to
    /// count their errors: the first pass).
    fn counts(&self) -> bool {
        matches!(self.mode, Mode::Measure(_))
    }
}

/// Writes the heading of the list of shapes that failed to parse.
pub fn write_failures_heading(out: &mut dyn Write, errors: u64) -> io::Result<()> {
    writeln!(out, "\n{errors} shape(s) failed to parse:")
}

/// Writes the totals per memory space and the summary line: the entry
/// parameters, the entry result, the values of top-level computations
/// ([`Scan::top_level`]), then all instruction results.
pub fn write_totals(out: &mut dyn Write, scan: &Scan) -> io::Result<()> {
    let sections: [(&str, &Spaces); 4] = [
        ("entry parameters (the ENTRY computation's `parameter` instructions)", &scan.entry_parameters),
        ("entry result (the ROOT instruction of ENTRY)", &scan.entry_result),
        (
            "values defined in top-level computations (ENTRY and what its while, conditional and call run; \
             no fusion bodies, reducers or aliasing results; nothing freed)",
            &scan.top_level(),
        ),
        (
            "all instruction results (every computation, fusion bodies and aliasing ops included)",
            &scan.totals,
        ),
    ];
    for (heading, totals) in sections {
        write_spaces(out, heading, totals)?;
    }
    let f = &scan.found;
    writeln!(
        out,
        "shapes found: {} ({} results, {} operands, {} in attributes, {} parameters, {} entry layout, {} other) \
         in {} instruction(s), {} computation(s); {} failed to parse",
        grouped(f.total()),
        grouped(f.results),
        grouped(f.operands),
        grouped(f.attributes),
        grouped(f.parameters),
        grouped(f.entry_layout),
        grouped(f.other),
        grouped(scan.instructions),
        grouped(scan.computations),
        grouped(scan.errors())
    )
}

/// One totals section: a heading, then a line per memory space.
fn write_spaces(out: &mut dyn Write, heading: &str, totals: &Spaces) -> io::Result<()> {
    writeln!(out, "\n{heading}:")?;
    if totals.is_empty() {
        writeln!(out, "  (no arrays)")?;
    }
    for (space, t) in totals {
        write!(
            out,
            "  {:<6} {:<10} {:>16} bytes  {:>11}  {} array(s)",
            format!("S({space})"),
            space_label(*space).unwrap_or(""),
            grouped(t.bytes),
            format!("({})", binary_units(t.bytes)),
            grouped(t.arrays)
        )?;
        if t.unknown > 0 {
            write!(out, ", {} of unknown size", grouped(t.unknown))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

impl Render for Table {
    fn module(&mut self, out: &mut dyn Write, scan: &Scan, m: &ModuleRec) -> io::Result<()> {
        self.new_section(|| format!("HloModule {}", lossy(scan.text(m.name))), None);
        if let Some((ps, r)) = &m.entry {
            for (i, &s) in ps.iter().enumerate() {
                let v = scan.value(s);
                self.row(out, scan, RowName::EntryParameter(i), None, &v, s)?;
            }
            let v = scan.value(*r);
            self.row(out, scan, RowName::EntryResult, None, &v, *r)?;
        }
        if self.counts() {
            for &(_, s) in &m.attributes {
                scan.value(s);
            }
        }
        Ok(())
    }

    fn computation(&mut self, _out: &mut dyn Write, scan: &Scan, c: &CompRec) -> io::Result<()> {
        if self.counts() {
            for &(_, s) in &c.params {
                scan.value(s);
            }
            if let Some(s) = c.result {
                scan.value(s);
            }
        }
        let heading = || {
            let label = lossy(c.label);
            if c.nested {
                format!("{label} (nested computation)")
            } else if c.entry {
                format!("ENTRY {label}")
            } else {
                label.into_owned()
            }
        };
        self.new_section(heading, Some(c.label.to_vec()));
        Ok(())
    }

    fn instruction(
        &mut self,
        out: &mut dyn Write,
        scan: &Scan,
        i: &InstrRec,
        result: &Value,
    ) -> io::Result<()> {
        if self.counts() {
            i.operands.for_each(&mut |s| {
                scan.value(s);
            });
            for &(_, s) in &i.attributes {
                scan.value(s);
            }
        }
        let key = i.computation.unwrap_or(b"");
        if self.section_comp.as_deref() != Some(key) {
            // After a nested computation, or outside any computation.
            let heading = || match i.computation {
                Some(c) => format!("{} (continued)", lossy(c)),
                None => "(outside any computation)".into(),
            };
            self.new_section(heading, Some(key.to_vec()));
        }
        let name = RowName::Instruction {
            name: i.name,
            root: i.root,
        };
        self.row(out, scan, name, Some(i.opcode), result, i.result)
    }

    fn other(
        &mut self,
        _out: &mut dyn Write,
        scan: &Scan,
        _line: usize,
        shapes: Shapes<'_>,
    ) -> io::Result<()> {
        if self.counts() {
            shapes.for_each(&mut |s| {
                scan.value(s);
            });
        }
        Ok(())
    }
}

/// The list of shapes that failed to parse, one line each, written as a
/// further pass over the input finds them (in the order the first pass
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
