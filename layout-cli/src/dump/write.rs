//! Writing a dump directory's buffer assignments: the table and the JSON
//! lines (see [`super`]).
//!
//! Uses: [`crate::format`], [`crate::report`] (memory-space names).

use std::io::{self, Write};

use serde_json::{json, Value};

use super::assignment::{Allocation, Value as Assigned};
use super::{Dump, Measured, Module, Totals};
use crate::format::{binary_units, grouped};

/// The value's name as the table shows it: `w.1`, `arg_tuple.3{1} (phi)`.
fn value_label(v: &Assigned) -> String {
    let mut s = format!("  {}{}", v.name, v.index.as_deref().unwrap_or(""));
    if v.phi {
        s.push_str(" (phi)");
    }
    s
}

/// One table row: label, opcode, offset, XLA bytes, our bytes, padding,
/// shape (or what the allocation is).
type Row = [String; 7];

fn allocation_row(a: &Allocation, extent: Option<u64>) -> Row {
    let ours = match extent {
        Some(e) if e == a.size => grouped(e),
        Some(e) => format!("{}*", grouped(e)),
        None => "-".into(),
    };
    [
        format!("allocation {}", a.index),
        String::new(),
        String::new(),
        grouped(a.size),
        ours,
        String::new(),
        a.what.clone(),
    ]
}

/// A value that is not an array (a tuple's index table): not compared.
fn not_compared(m: &Measured) -> bool {
    m.value
        .shape_type
        .is_some_and(|t| t != crate::report::ShapeType::Array)
}

fn value_row(v: &Assigned, m: &Measured) -> Row {
    let (ours, padding) = match m.agrees(v.size) {
        Some(agrees) => {
            let mark = if agrees { "" } else { "*" };
            (
                format!("{}{mark}", m.value.bytes.map_or("?".into(), grouped)),
                m.value.padding().map_or("?".into(), grouped),
            )
        }
        None if not_compared(m) => ("-".to_string(), "-".to_string()),
        // An error, or an array of unknown size.
        None => ("?".to_string(), "?".to_string()),
    };
    [
        value_label(v),
        m.instruction
            .as_ref()
            .map_or("-".to_string(), |i| i.opcode.clone()),
        grouped(v.offset),
        grouped(v.size),
        ours,
        padding,
        v.shape.clone(),
    ]
}

fn header() -> Row {
    [
        "ALLOCATION / VALUE",
        "OPCODE",
        "OFFSET",
        "XLA BYTES",
        "OUR BYTES",
        "PADDING",
        "SHAPE",
    ]
    .map(String::from)
}

/// Writes rows in columns: the first two left-aligned, the numbers
/// right-aligned, the last as it is.
fn write_rows<W: Write>(out: &mut W, rows: &[Row]) -> io::Result<()> {
    let mut widths = [0usize; 6];
    for r in rows {
        for (w, cell) in widths.iter_mut().zip(r.iter()) {
            *w = (*w).max(cell.chars().count());
        }
    }
    for r in rows {
        let line = format!(
            "{:<w0$}  {:<w1$}  {:>w2$}  {:>w3$}  {:>w4$}  {:>w5$}  {}",
            r[0],
            r[1],
            r[2],
            r[3],
            r[4],
            r[5],
            r[6],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3],
            w4 = widths[4],
            w5 = widths[5],
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// A share in percent, one decimal.
fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "0.0%".into();
    }
    #[allow(clippy::cast_precision_loss)] // one decimal is all we print
    let p = part as f64 * 100.0 / whole as f64;
    format!("{p:.1}%")
}

/// `4,384 bytes (4.3 KiB; NOTE)`.
fn bytes(n: u64, note: &str) -> String {
    if n < 1024 {
        format!("{} bytes ({note})", grouped(n))
    } else {
        format!("{} bytes ({}; {note})", grouped(n), binary_units(n))
    }
}

/// The lines under a module's table, or the directory's.
fn totals_lines<W: Write>(out: &mut W, t: &Totals, compiler: Option<u64>) -> io::Result<()> {
    let compiler = match compiler {
        Some(total) if total == t.allocated => bytes(total, "Total bytes used"),
        Some(total) => format!(
            "{}, though the allocations add up to {}",
            bytes(total, "Total bytes used"),
            grouped(t.allocated)
        ),
        None => bytes(t.allocated, "summed; no Total bytes used read"),
    };
    writeln!(
        out,
        "  {} allocation(s): the compiler's {compiler}; by our value sizes {}",
        t.allocations,
        grouped(t.ours_allocated)
    )?;
    if t.by_color.len() > 1 {
        let colors: Vec<String> = t
            .by_color
            .iter()
            .map(|(&c, &b)| match crate::report::space_label(c) {
                Some(label) => format!("{label} ({c}) {}", grouped(b)),
                None => format!("space {c} {}", grouped(b)),
            })
            .collect();
        writeln!(out, "  by memory space: {}", colors.join(", "))?;
    }
    writeln!(
        out,
        "  {} value(s), {} array(s): the compiler's sizes {}, ours {}, unpadded {}, padding {} ({})",
        t.values,
        t.arrays,
        grouped(t.compiler_array_bytes),
        grouped(t.bytes),
        grouped(t.unpadded),
        grouped(t.padding),
        percent(t.padding, t.bytes),
    )?;
    if t.compiler_unpadded != t.unpadded {
        writeln!(
            out,
            "  unpadded as the compiler reports it (E(n) not packed): {}",
            grouped(t.compiler_unpadded)
        )?;
    }
    let compared = t.agree + t.differ;
    let unknown = t.arrays - compared.min(t.arrays);
    let mut agree = format!("  {} of {} array size(s) agree", t.agree, t.arrays);
    if unknown > 0 {
        agree.push_str(&format!(" ({unknown} could not be computed)"));
    }
    writeln!(out, "{agree}")
}

fn module_table<W: Write>(out: &mut W, m: &Module) -> io::Result<()> {
    match &m.name {
        Some(name) => writeln!(out, "module {name}: {}", m.file)?,
        None => writeln!(out, "module {}", m.file)?,
    }
    match &m.hlo_file {
        Some(h) => writeln!(out, "  HLO: {h}")?,
        None => writeln!(out, "  HLO: none beside it (no opcodes)")?,
    }
    if let Some(v) = &m.values_file {
        writeln!(out, "  total from: {v}")?;
    }
    writeln!(out)?;
    let mut rows = vec![header()];
    let mut differ = false;
    let mut tables = false;
    for (i, (a, measured)) in m.assignment.allocations.iter().zip(&m.measured).enumerate() {
        let extent = m.extent(i);
        differ |= extent.is_some_and(|e| e != a.size);
        rows.push(allocation_row(a, extent));
        for (v, mv) in a.values.iter().zip(measured) {
            differ |= mv.agrees(v.size) == Some(false);
            tables |= not_compared(mv);
            rows.push(value_row(v, mv));
        }
    }
    write_rows(out, &rows)?;
    if differ {
        writeln!(out, "* our size differs from the compiler's")?;
    }
    if tables {
        writeln!(
            out,
            "- not an array: a tuple's index table (the compiler counts pointers to its elements, values of their own), not compared"
        )?;
    }
    writeln!(out, "totals:")?;
    totals_lines(out, &m.totals(), m.total)?;
    writeln!(out)
}

/// Writes the table for every module, then the directory's totals.
pub fn table<W: Write>(out: &mut W, dir: &str, dump: &Dump) -> io::Result<()> {
    let mut all = Totals::default();
    let mut compiler = Some(0u64);
    for m in &dump.modules {
        module_table(out, m)?;
        all.add(&m.totals());
        compiler = compiler.zip(m.total).map(|(a, b)| a.saturating_add(b));
    }
    writeln!(out, "directory {dir}: {} module(s)", dump.modules.len())?;
    totals_lines(out, &all, compiler)?;
    if !dump.hlo_only.is_empty() {
        writeln!(
            out,
            "  HLO without a buffer assignment ({}; `layout scan FILE` reads one): {}",
            dump.hlo_only.len(),
            dump.hlo_only.join(", ")
        )?;
    }
    Ok(())
}

fn value_json(v: &Assigned, m: &Measured) -> Value {
    json!({
        "line": v.line,
        "id": v.id,
        "name": v.name,
        "shape_index": v.index,
        "phi": v.phi,
        "color": v.color,
        "offset": v.offset,
        "compiler_bytes": v.size,
        "shape": v.shape,
        "shape_type": m.value.shape_type.map(|t| t.name()),
        "bytes": m.value.bytes,
        "unpadded_bytes": m.value.unpadded,
        "compiler_unpadded_bytes": m.value.compiler_unpadded,
        "padding_bytes": m.value.padding(),
        "agrees": m.agrees(v.size),
        "opcode": m.instruction.as_ref().map(|i| &i.opcode),
        "computation": m.instruction.as_ref().map(|i| &i.computation),
        "error": m.value.error,
    })
}

fn totals_json(t: &Totals, compiler: Option<u64>) -> Value {
    json!({
        "allocations": t.allocations,
        "allocated_bytes": t.allocated,
        "allocated_bytes_by_color": t
            .by_color
            .iter()
            .map(|(c, b)| json!({"color": c, "bytes": b}))
            .collect::<Vec<_>>(),
        "bytes_by_values": t.ours_allocated,
        "compiler_total_bytes": compiler,
        "values": t.values,
        "arrays": t.arrays,
        "compiler_value_bytes": t.compiler_value_bytes,
        "compiler_array_bytes": t.compiler_array_bytes,
        "bytes": t.bytes,
        "unpadded_bytes": t.unpadded,
        "compiler_unpadded_bytes": t.compiler_unpadded,
        "padding_bytes": t.padding,
        "agree": t.agree,
        "differ": t.differ,
    })
}

/// One module's JSON record: `{"kind": "module", "file", "values_file",
/// "hlo_file", "module", "allocations": [{"line", "index",
/// "compiler_bytes", "bytes" (by our value sizes, `null` without values),
/// "what", "color", "values": [{"line", "id", "name", "shape_index",
/// "phi", "color", "offset", "compiler_bytes", "shape", "shape_type",
/// "bytes", "unpadded_bytes", "compiler_unpadded_bytes", "padding_bytes",
/// "agrees", "opcode", "computation", "error"}]}], "totals", "errors":
/// [{"file", "line", "message"}]}`. `agrees` is `null` for anything but an
/// array; `line` 0 in an error is the file as a whole.
pub fn module_json(m: &Module) -> Value {
    let allocations: Vec<Value> = m
        .assignment
        .allocations
        .iter()
        .zip(&m.measured)
        .enumerate()
        .map(|(i, (a, measured))| {
            let values: Vec<Value> = a
                .values
                .iter()
                .zip(measured)
                .map(|(v, mv)| value_json(v, mv))
                .collect();
            json!({
                "line": a.line,
                "index": a.index,
                "compiler_bytes": a.size,
                "bytes": m.extent(i),
                "what": a.what,
                "color": a.color,
                "values": values,
            })
        })
        .collect();
    let errors: Vec<Value> = m
        .errors
        .iter()
        .map(|(file, e)| json!({"file": file, "line": e.line, "message": e.message}))
        .collect();
    json!({
        "kind": "module",
        "file": m.file,
        "values_file": m.values_file,
        "hlo_file": m.hlo_file,
        "module": m.name,
        "allocations": allocations,
        "totals": totals_json(&m.totals(), m.total),
        "errors": errors,
    })
}

/// Writes one line per module, then `{"kind": "directory", "path",
/// "modules", "totals", "hlo_without_assignment", "unreadable"}`.
pub fn json<W: Write>(out: &mut W, dir: &str, dump: &Dump) -> io::Result<()> {
    let mut all = Totals::default();
    let mut compiler = Some(0u64);
    for m in &dump.modules {
        writeln!(out, "{}", module_json(m))?;
        all.add(&m.totals());
        compiler = compiler.zip(m.total).map(|(a, b)| a.saturating_add(b));
    }
    let unreadable: Vec<Value> = dump
        .unreadable
        .iter()
        .map(|(f, why)| json!({"file": f, "error": why}))
        .collect();
    let record = json!({
        "kind": "directory",
        "path": dir,
        "modules": dump.modules.len(),
        "totals": totals_json(&all, compiler),
        "hlo_without_assignment": dump.hlo_only,
        "unreadable": unreadable,
    });
    writeln!(out, "{record}")
}
