//! `layout scan --sort bytes|padding [--top N] [--computation NAME]`: the
//! instructions as one list, ranked by their bytes or their padding, and
//! optionally only those of one computation.
//!
//! Unlike the table, this needs every row before it writes the first: the
//! rows are kept as byte spans and numbers (no shape is held), sorted, cut
//! to the first N and written with their columns measured.
//!
//! Uses: [`crate::report`], [`crate::format`], [`super::Render`].

use std::io::{self, Write};

use super::Render;
use crate::format::grouped;
use crate::report::{lossy, CompRec, InstrRec, ModuleRec, Scan, Shapes, Space, Span, Value};

/// What the rows are ranked by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortKey {
    /// Allocated bytes, largest first.
    Bytes,
    /// Padding bytes (allocated minus unpadded), largest first.
    Padding,
}

/// The computation of a row: where its name is in the input, or (a nested
/// computation's made-up name) the name itself.
enum Computation {
    At(Span),
    Named(Box<str>),
}

/// One instruction kept for the ranking: spans and numbers, a few words.
struct Row {
    computation: Computation,
    name: Span,
    root: bool,
    opcode: Span,
    shape: Span,
    bytes: Option<u64>,
    padding: Option<u64>,
    error: bool,
    space: Space,
}

/// The ranking renderer: keeps the instructions that pass the filter.
pub struct Ranked {
    sort: Option<SortKey>,
    top: Option<usize>,
    computation: Option<String>,
    /// Whether a computation of that name was seen.
    matched: bool,
    rows: Vec<Row>,
}

/// `%name` and `name` name the same computation.
pub fn same_name(label: &str, wanted: &str) -> bool {
    label.trim_start_matches('%') == wanted.trim_start_matches('%')
}

impl Ranked {
    /// A ranking by `sort` (input order when `None`), cut to `top` rows,
    /// of the instructions of `computation` (all when `None`).
    pub fn new(sort: Option<SortKey>, top: Option<usize>, computation: Option<&str>) -> Self {
        Ranked {
            sort,
            top,
            computation: computation.map(str::to_string),
            matched: false,
            rows: Vec::new(),
        }
    }

    /// `false` when `--computation` named a computation the input does not
    /// have (`true` without the filter).
    pub fn matched(&self) -> bool {
        self.computation.is_none() || self.matched
    }

    /// Sorts and writes the rows: a header, then one row per instruction
    /// (`NAME COMPUTATION OPCODE BYTES PADDING SPACE SHAPE`, the numbers
    /// with thousands separators). Ranked by padding when no instruction
    /// has any, one line says so instead of rows in an order that would
    /// mean nothing.
    pub fn write(mut self, out: &mut dyn Write, scan: &Scan) -> io::Result<()> {
        let unpadded = |r: &Row| r.padding.unwrap_or(0) == 0;
        if self.sort == Some(SortKey::Padding)
            && !self.rows.is_empty()
            && self.rows.iter().all(unpadded)
        {
            return writeln!(
                out,
                "No padding: each of the {} instruction(s) is allocated exactly its unpadded size \
                 (--sort bytes ranks them by size).",
                self.rows.len()
            );
        }
        if let Some(key) = self.sort {
            let value = |r: &Row| match key {
                SortKey::Bytes => r.bytes,
                SortKey::Padding => r.padding,
            };
            // Largest first; unknown sizes and errors last; ties in input
            // order (the sort is stable).
            self.rows.sort_by_key(|r| std::cmp::Reverse(value(r)));
        }
        if let Some(top) = self.top {
            self.rows.truncate(top);
        }
        fn computation<'r>(scan: &'r Scan, r: &'r Row) -> std::borrow::Cow<'r, str> {
            match &r.computation {
                Computation::At(s) => lossy(scan.text(*s)),
                Computation::Named(n) => std::borrow::Cow::Borrowed(n),
            }
        }
        let name = |r: &Row| {
            let n = lossy(scan.text(r.name));
            if r.root {
                format!("ROOT {n}")
            } else {
                n.into_owned()
            }
        };
        let number = |r: &Row, n: Option<u64>, group: bool| match (r.error, n) {
            (true, _) => "error".to_string(),
            (false, None) => "?".to_string(),
            (false, Some(n)) if group => grouped(n),
            (false, Some(n)) => n.to_string(),
        };
        let space = |r: &Row| match r.space {
            Space::One(n) => format!("S({n})"),
            Space::Mixed => "mixed".to_string(),
            Space::None => "-".to_string(),
        };
        let mut w = [4, 11, 6, 5, 7, 5];
        for r in &self.rows {
            let cells = [
                name(r).len(),
                computation(scan, r).len(),
                r.opcode.end.saturating_sub(r.opcode.start),
                number(r, r.bytes, true).len(),
                number(r, r.padding, true).len(),
                space(r).len(),
            ];
            for (w, c) in w.iter_mut().zip(cells) {
                *w = (*w).max(c);
            }
        }
        let [nw, cw, ow, bw, pw, sw] = w;
        writeln!(
            out,
            "{:<nw$}  {:<cw$}  {:<ow$}  {:>bw$}  {:>pw$}  {:<sw$}  SHAPE",
            "NAME", "COMPUTATION", "OPCODE", "BYTES", "PADDING", "SPACE"
        )?;
        for r in &self.rows {
            write!(
                out,
                "{:<nw$}  {:<cw$}  {:<ow$}  {:>bw$}  {:>pw$}  {:<sw$}  ",
                name(r),
                computation(scan, r),
                lossy(scan.text(r.opcode)),
                number(r, r.bytes, true),
                number(r, r.padding, true),
                space(r)
            )?;
            out.write_all(scan.text(r.shape))?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }
}

impl Render for Ranked {
    // The shapes that are not rows are evaluated only to count their
    // errors, as the table's first pass does.
    fn module(&mut self, _out: &mut dyn Write, scan: &Scan, m: &ModuleRec) -> io::Result<()> {
        if let Some((ps, r)) = &m.entry {
            for &s in ps.iter().chain(std::iter::once(r)) {
                scan.value(s);
            }
        }
        for &(_, s) in &m.attributes {
            scan.value(s);
        }
        Ok(())
    }

    fn computation(&mut self, _out: &mut dyn Write, scan: &Scan, c: &CompRec) -> io::Result<()> {
        if let Some(wanted) = &self.computation {
            self.matched |= same_name(&lossy(c.label), wanted);
        }
        for &(_, s) in &c.params {
            scan.value(s);
        }
        if let Some(s) = c.result {
            scan.value(s);
        }
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
        let label = i.computation.unwrap_or_default();
        if let Some(wanted) = &self.computation {
            if !same_name(&lossy(label), wanted) {
                return Ok(());
            }
            self.matched = true;
        }
        let computation = match scan.span_of(label) {
            Some(s) => Computation::At(s),
            None => Computation::Named(lossy(label).into()),
        };
        self.rows.push(Row {
            computation,
            name: i.name,
            root: i.root,
            opcode: i.opcode,
            shape: i.result,
            bytes: result.bytes,
            padding: result.padding(),
            error: result.error.is_some(),
            space: result.space(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_and_without_percent() {
        assert!(same_name("%main.42", "main.42"));
        assert!(same_name("main.42", "%main.42"));
        assert!(!same_name("%main.4", "main.42"));
    }
}
