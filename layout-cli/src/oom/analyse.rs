//! Each allocation of a report measured with the library: its tiled shape,
//! sizes, agreement with the report, causes and best order; and the
//! totals.
//!
//! Uses: [`super::read`], [`super::advise`].

use layout_core::{parse, Shape};

use super::advise::{self, Best, Source};
use super::read::{Entry, Malformed, Report};

/// One allocation, measured.
#[derive(Clone, Debug)]
pub struct Allocation<'r> {
    /// The report's entry.
    pub entry: &'r Entry,
    /// The shape measured (tiled as [`Allocation::source`] says); `None`
    /// without a shape, or for a tuple or a shape that does not parse.
    pub tiled: Option<String>,
    /// Its tiling (`T(8,128)E(32)`), if any.
    pub tiling: Option<String>,
    /// Where the tiling came from.
    pub source: Source,
    /// Our allocation size in bytes.
    pub bytes: Option<u64>,
    /// Our unpadded size as the compiler counts it
    /// (`ArrayShape::unpacked_size_in_bytes`).
    pub unpadded: Option<u64>,
    /// Whether both sizes print as the report's at its precision; `None`
    /// when there is nothing to compare.
    pub agrees: Option<bool>,
    /// Where the padding comes from, in words.
    pub causes: Vec<String>,
    /// The order that pads least, when it saves something.
    pub best: Option<Best>,
    /// Why the entry was not measured, when it was not.
    pub note: Option<String>,
}

impl Allocation<'_> {
    /// Allocated over unpadded bytes; `None` when unknown or empty.
    pub fn expansion(&self) -> Option<f64> {
        match (self.bytes, self.unpadded) {
            #[allow(clippy::cast_precision_loss)] // a ratio for people
            (Some(b), Some(u)) if u > 0 => Some(b as f64 / u as f64),
            _ => None,
        }
    }

    /// Bytes saved by the best order (0 without one).
    pub fn saving(&self) -> u64 {
        match (&self.best, self.bytes) {
            (Some(best), Some(b)) => b.saturating_sub(best.bytes),
            _ => 0,
        }
    }
}

/// Measures one entry; a shape that does not parse adds to `errors`.
pub fn measure<'r>(entry: &'r Entry, errors: &mut Vec<Malformed>) -> Allocation<'r> {
    let mut a = Allocation {
        entry,
        tiled: None,
        tiling: None,
        source: Source::None,
        bytes: None,
        unpadded: None,
        agrees: None,
        causes: Vec::new(),
        best: None,
        note: None,
    };
    let Some(shape) = &entry.shape else {
        a.note = Some("no shape in the report: nothing to recompute".to_string());
        return a;
    };
    let array = match parse(&shape.value) {
        Ok(Shape::Array(x)) => x,
        Ok(_) => {
            a.note = Some("not an array: not recomputed".to_string());
            return a;
        }
        Err(e) => {
            errors.push(Malformed {
                line: shape.line,
                message: format!(
                    "allocation {}: the shape `{}` does not parse: {e}",
                    entry.rank, shape.value
                ),
            });
            a.note = Some("the shape does not parse".to_string());
            return a;
        }
    };
    let (tiled, source) = advise::tiled(array, entry.label.as_deref());
    a.source = source;
    a.tiling = advise::tiling_text(&tiled);
    a.tiled = Some(tiled.to_string());
    if tiled.has_unbounded_dims() {
        a.note = Some("a `?` dimension: size unknown".to_string());
        return a;
    }
    let (bytes, unpadded) = match (tiled.size_in_bytes(), tiled.unpacked_size_in_bytes()) {
        (Ok(b), Ok(u)) => (b, u),
        (Err(e), _) | (_, Err(e)) => {
            a.note = Some(format!("cannot size it: {e}"));
            return a;
        }
    };
    a.bytes = Some(bytes);
    a.unpadded = Some(unpadded);
    let size_agrees = entry.size.as_ref().is_some_and(|s| s.agrees(bytes));
    let unpadded_agrees = entry.unpadded.as_ref().is_none_or(|u| u.agrees(unpadded));
    a.agrees = Some(size_agrees && unpadded_agrees);
    a.causes = advise::causes(&tiled);
    a.best = advise::best_order(&tiled, bytes);
    if source == Source::None && tiled.rank() >= 2 {
        a.note = Some(format!(
            "no tiling inferred for {}: sized as printed",
            tiled.element_type()
        ));
    } else if source == Source::None {
        a.note = Some("rank below 2: no tiling inferred, sized as printed".to_string());
    }
    a
}

/// The totals over the allocations listed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// The report's sizes summed (its rounded figures).
    pub reported: u64,
    /// Ours summed, over the allocations we measured.
    pub bytes: u64,
    /// Allocated minus unpadded, summed.
    pub padding: u64,
    /// What every allocation at its best order would save.
    pub saving: u64,
    /// Allocations measured.
    pub measured: usize,
    /// Allocations listed.
    pub listed: usize,
}

/// Sums the allocations; `None` if a sum overflows 64 bits.
pub fn totals(allocations: &[Allocation<'_>]) -> Option<Totals> {
    let mut t = Totals {
        listed: allocations.len(),
        ..Totals::default()
    };
    for a in allocations {
        if let Some(r) = a.entry.size.as_ref().and_then(super::read::Size::bytes) {
            t.reported = t.reported.checked_add(r)?;
        }
        if let (Some(b), Some(u)) = (a.bytes, a.unpadded) {
            t.measured += 1;
            t.bytes = t.bytes.checked_add(b)?;
            t.padding = t.padding.checked_add(b.saturating_sub(u))?;
            t.saving = t.saving.checked_add(a.saving())?;
        }
    }
    Some(t)
}

/// The report measured: every allocation, the totals and every error.
#[derive(Clone, Debug)]
pub struct Analysis<'r> {
    /// The report read.
    pub report: &'r Report,
    /// Its allocations, measured, in report order.
    pub allocations: Vec<Allocation<'r>>,
    /// The totals; `None` when they overflow.
    pub totals: Option<Totals>,
    /// The reader's errors and the shapes that did not parse, by line.
    pub errors: Vec<Malformed>,
}

/// Measures every allocation of `report`.
pub fn analyse(report: &Report) -> Analysis<'_> {
    let mut errors = report.errors.clone();
    let allocations: Vec<Allocation<'_>> = report
        .allocations
        .iter()
        .map(|e| measure(e, &mut errors))
        .collect();
    errors.sort_by_key(|e| e.line);
    let totals = totals(&allocations);
    Analysis {
        report,
        allocations,
        totals,
        errors,
    }
}
