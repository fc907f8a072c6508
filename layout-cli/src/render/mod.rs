//! Rendering a scan: the table for people ([`table`]), the ranked list
//! ([`rank`]) and JSON lines ([`json`]).
//!
//! A renderer is told each record as the walker finds it, with the
//! [`Scan`] to evaluate shapes through, and writes to the output it is
//! given; a write error ends the scan.
//!
//! Uses: [`crate::report`] (the model), [`crate::format`] (numbers).

pub mod json;
pub mod rank;
pub mod table;

use std::io::{self, Write};

use crate::report::{CompRec, InstrRec, ModuleRec, Scan, Shapes, Value};

/// What a renderer is told, in input order.
pub trait Render {
    /// An `HloModule` header.
    fn module(&mut self, out: &mut dyn Write, scan: &Scan, m: &ModuleRec) -> io::Result<()>;
    /// A computation header.
    fn computation(&mut self, out: &mut dyn Write, scan: &Scan, c: &CompRec) -> io::Result<()>;
    /// An instruction, with its result already evaluated.
    fn instruction(
        &mut self,
        out: &mut dyn Write,
        scan: &Scan,
        i: &InstrRec,
        result: &Value,
    ) -> io::Result<()>;
    /// Shapes outside the structure, on one line.
    fn other(
        &mut self,
        out: &mut dyn Write,
        scan: &Scan,
        line: usize,
        shapes: Shapes<'_>,
    ) -> io::Result<()>;
}
