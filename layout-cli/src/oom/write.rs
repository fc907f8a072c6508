//! Writing an [`Analysis`]: the table for people (80 columns, long shapes
//! and causes wrapped or left to run last on their line) and the JSON
//! document.
//!
//! Uses: [`super::advise`], [`super::analyse`], [`super::read`].

use std::fmt::Write as _;

use serde_json::{json, Value};

use super::advise::Source;
use super::analyse::{Allocation, Analysis};
use super::read::{compiler_units, Size};

/// Width the table and the wrapped text fit.
const WIDTH: usize = 80;

/// `text` wrapped at [`WIDTH`], every line after the first indented by
/// `indent` spaces; a word longer than the line is left whole.
fn wrap(first: &str, text: &str, indent: usize) -> String {
    let mut out = String::from(first);
    let mut col = first.chars().count();
    let pad = " ".repeat(indent);
    let mut at_start = true;
    for word in text.split(' ') {
        let len = word.chars().count();
        if !at_start && col + 1 + len > WIDTH {
            out.push('\n');
            out.push_str(&pad);
            col = indent;
            at_start = true;
        }
        if !at_start {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += len;
        at_start = false;
    }
    out.push('\n');
    out
}

fn units(n: Option<u64>) -> String {
    n.map_or_else(|| "-".to_string(), compiler_units)
}

fn yes_no(b: Option<bool>) -> &'static str {
    match b {
        Some(true) => "yes",
        Some(false) => "NO",
        None => "-",
    }
}

/// Where the tiling came from, in words.
fn source_words(s: Source) -> &'static str {
    match s {
        Source::Shape => "as printed",
        Source::Label => "from the XLA label",
        Source::Inferred => "inferred",
        Source::None => "none",
    }
}

/// The table for people.
pub fn table(an: &Analysis<'_>) -> String {
    let r = an.report;
    let mut out = String::new();
    let space = r
        .memory_space
        .as_deref()
        .unwrap_or("an unnamed memory space");
    match (&r.used, &r.capacity) {
        (Some(u), Some(c)) => {
            let over = match (&r.exceeded, u.bytes(), c.bytes()) {
                (Some(x), _, _) => format!(", over by {}", x.text),
                (None, Some(ub), Some(cb)) if ub > cb => {
                    format!(", over by about {}", compiler_units(ub - cb))
                }
                _ => String::new(),
            };
            writeln!(
                out,
                "Out of memory in {space}: used {} of {}{over}.",
                u.text, c.text
            )
            .unwrap();
        }
        _ => writeln!(out, "Out of memory in {space}.").unwrap(),
    }
    let listed = an.allocations.len();
    let measured = an.allocations.iter().filter(|a| a.bytes.is_some()).count();
    let agree = an
        .allocations
        .iter()
        .filter(|a| a.agrees == Some(true))
        .count();
    if listed == 0 {
        out.push_str("The report lists no allocations.\n");
        return out;
    }
    let line = format!(
        "{listed} allocation(s) listed, {measured} measured; \
         {agree} of those agree with the report."
    );
    out.push_str(&wrap("", &line, 0));
    out.push('\n');
    writeln!(
        out,
        "{:>3}  {:>9}  {:>9}  {:>9}  {:>6}  {:<6}  {:>9}  {:>9}",
        "#", "REPORTED", "OURS", "UNPADDED", "EXP", "AGREES", "BEST", "SAVES"
    )
    .unwrap();
    for a in &an.allocations {
        let exp = a
            .expansion()
            .map_or_else(|| "-".to_string(), |x| format!("{x:.1}x"));
        let reported = a.entry.size.as_ref().map_or("-", |s| s.text.as_str());
        let (best, saves) = match &a.best {
            Some(b) => (compiler_units(b.bytes), compiler_units(a.saving())),
            None => ("-".to_string(), "-".to_string()),
        };
        writeln!(
            out,
            "{:>3}  {:>9}  {:>9}  {:>9}  {:>6}  {:<6}  {:>9}  {:>9}",
            a.entry.rank,
            reported,
            units(a.bytes),
            units(a.unpadded),
            exp,
            yes_no(a.agrees),
            best,
            saves
        )
        .unwrap();
    }
    for a in &an.allocations {
        out.push('\n');
        allocation(&mut out, a);
    }
    if let Some(t) = an.totals {
        out.push('\n');
        writeln!(out, "Totals of the {} allocation(s) listed:", t.listed).unwrap();
        writeln!(out, "  reported     {}", compiler_units(t.reported)).unwrap();
        writeln!(
            out,
            "  recomputed   {} ({} of {} measured)",
            compiler_units(t.bytes),
            t.measured,
            t.listed
        )
        .unwrap();
        writeln!(out, "  padding      {}", compiler_units(t.padding)).unwrap();
        writeln!(
            out,
            "  best orders  save {}: {} instead of {}",
            compiler_units(t.saving),
            compiler_units(t.bytes.saturating_sub(t.saving)),
            compiler_units(t.bytes)
        )
        .unwrap();
        if let (Some(u), Some(c)) = (
            r.used.as_ref().and_then(Size::bytes),
            r.capacity.as_ref().and_then(Size::bytes),
        ) {
            // The report's figures are rounded: the result is too.
            if t.saving > 0 && t.saving <= u {
                let after = u.saturating_sub(t.saving);
                let verdict = if after <= c {
                    format!("would fit in {}", compiler_units(c))
                } else {
                    format!(
                        "still over {} by {}",
                        compiler_units(c),
                        compiler_units(after - c)
                    )
                };
                let line = format!(
                    "about {} - {} = {}, {verdict}",
                    compiler_units(u),
                    compiler_units(t.saving),
                    compiler_units(after)
                );
                out.push_str(&wrap("  used then   ", &line, 15));
            }
        }
    }
    out
}

/// One allocation's block: shape, what it is, tiling, causes, change.
fn allocation(out: &mut String, a: &Allocation<'_>) {
    let e = a.entry;
    let shape = a
        .tiled
        .as_deref()
        .or(e.shape.as_ref().map(|s| s.value.as_str()));
    writeln!(out, "{}. {}", e.rank, shape.unwrap_or("(no shape)")).unwrap();
    let what: Vec<&str> = [e.allocation_type.as_deref(), e.operator.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    if !what.is_empty() {
        out.push_str(&wrap("   ", &what.join("; "), 3));
    }
    if e.shape.is_none() {
        if let Some(l) = &e.label {
            out.push_str(&wrap("   label    ", l, 12));
        }
    }
    if let Some(note) = &a.note {
        out.push_str(&wrap("   note     ", note, 12));
    }
    if a.tiled.is_some() {
        let t = a.tiling.as_deref().unwrap_or("none");
        writeln!(out, "   tiling   {t} ({})", source_words(a.source)).unwrap();
    }
    if let (Some(b), Some(u)) = (a.bytes, a.unpadded) {
        let reported = match (&e.size, &e.unpadded) {
            (Some(s), Some(ru)) => format!("; the report: {} and {}", s.text, ru.text),
            (Some(s), None) => format!("; the report: {}", s.text),
            _ => String::new(),
        };
        let line = format!(
            "{} allocated, {} unpadded{reported}",
            compiler_units(b),
            compiler_units(u)
        );
        out.push_str(&wrap("   sizes    ", &line, 12));
    }
    if a.bytes.is_some() && a.causes.is_empty() {
        writeln!(out, "   padding  none").unwrap();
    }
    for c in &a.causes {
        out.push_str(&wrap("   padding  ", c, 12));
    }
    match &a.best {
        Some(b) => {
            out.push_str(&wrap("   change   ", &b.change, 12));
            writeln!(out, "   layout   {} (inferred)", b.shape).unwrap();
        }
        None if a.bytes.is_some() => {
            writeln!(out, "   change   none: no order pads less").unwrap();
        }
        None => {}
    }
}

/// The JSON document (see [`super`]).
pub fn json(an: &Analysis<'_>) -> Value {
    let r = an.report;
    let allocations: Vec<Value> = an.allocations.iter().map(allocation_json).collect();
    let totals = an.totals.map(|t| {
        json!({
            "reported_bytes": t.reported,
            "bytes": t.bytes,
            "padding_bytes": t.padding,
            "best_saving_bytes": t.saving,
            "measured": t.measured,
            "listed": t.listed,
        })
    });
    let errors: Vec<Value> = an
        .errors
        .iter()
        .map(|e| json!({"line": e.line, "message": e.message}))
        .collect();
    json!({
        "memory_space": r.memory_space,
        "used_bytes": r.used.as_ref().and_then(Size::bytes),
        "exceeded_bytes": r.exceeded.as_ref().and_then(Size::bytes),
        "capacity_bytes": r.capacity.as_ref().and_then(Size::bytes),
        "allocations": allocations,
        "totals": totals,
        "errors": errors,
    })
}

fn allocation_json(a: &Allocation<'_>) -> Value {
    let e = a.entry;
    json!({
        "rank": e.rank,
        "line": e.line,
        "shape": e.shape.as_ref().map(|s| &s.value),
        "tiled_shape": a.tiled,
        "operator": e.operator,
        "allocation_type": e.allocation_type,
        "label": e.label,
        "reported_bytes": e.size.as_ref().and_then(Size::bytes),
        "reported_unpadded_bytes": e.unpadded.as_ref().and_then(Size::bytes),
        "bytes": a.bytes,
        "unpadded_bytes": a.unpadded,
        "expansion": a.expansion(),
        "tiling": a.tiling,
        "tiling_source": match a.source {
            Source::Shape => Some("shape"),
            Source::Label => Some("label"),
            Source::Inferred => Some("inferred"),
            Source::None => None,
        },
        "tiling_inferred": a.source == Source::Inferred,
        "agrees": a.agrees,
        "causes": a.causes,
        "best": a.best.as_ref().map(|b| json!({
            "shape": b.shape,
            "bytes": b.bytes,
            "change": b.change,
        })),
        "note": a.note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_to_80_columns() {
        let text = "word ".repeat(40);
        let w = wrap("   padding  ", text.trim(), 12);
        assert!(w.lines().all(|l| l.chars().count() <= WIDTH), "{w}");
        assert!(w.lines().skip(1).all(|l| l.starts_with(&" ".repeat(12))));
        let long = "x".repeat(100);
        assert_eq!(wrap("a ", &long, 2), format!("a {long}\n"));
    }
}
