//! The report model of `layout scan`: what each shape found amounts to,
//! and the running totals.
//!
//! The records themselves are the walker's ([`crate::hlo`]): byte spans
//! into the input. A [`Scan`] keeps the input and the totals, and turns a
//! span into a [`Value`] (shape type, size, memory spaces or the parse
//! error) when a renderer asks for it, so that no value is held longer than
//! it takes to print it. Every value evaluated through [`Scan::value`] is
//! counted once in [`Scan::errors`] if it failed to parse.
//!
//! The totals: all instruction results, the entry parameters and result,
//! and the values of top-level computations ([`Scan::top_level`]), which
//! needs each computation's totals and calls until the end (the ENTRY
//! computation comes after those it runs).
//!
//! Uses: [`crate::hlo`] (records and spans).

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::{BTreeMap, HashMap, HashSet};

use layout_core::{parse, Error, Shape};

pub use crate::hlo::{Callee, CompRec, InstrRec, ModuleRec, Shapes, Span};

/// Memory space and size (`None`: unknown) of one array leaf.
pub type Leaf = (i64, Option<u64>);

/// What kind of shape a text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeType {
    /// `f32[2]{0}`.
    Array,
    /// `(..)`.
    Tuple,
    /// `b(..)`.
    Buffer,
    /// `token[]`.
    Token,
    /// `opaque[]`.
    Opaque,
}

impl ShapeType {
    /// The name JSON uses.
    pub const fn name(self) -> &'static str {
        match self {
            ShapeType::Array => "array",
            ShapeType::Tuple => "tuple",
            ShapeType::Buffer => "buffer",
            ShapeType::Token => "token",
            ShapeType::Opaque => "opaque",
        }
    }
}

/// The memory space of a shape: one, several, or none (no array leaf).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// No array leaf (or a shape that failed to parse).
    None,
    /// Every array leaf is in this space.
    One(i64),
    /// Leaves in different spaces.
    Mixed,
}

/// What one shape's text amounts to.
#[derive(Debug)]
pub struct Value {
    /// `None` when the text failed to parse.
    pub shape_type: Option<ShapeType>,
    /// Allocation size; `None`: unknown (a `?` dimension, an overflow) or
    /// an error.
    pub bytes: Option<u64>,
    /// Elements times element bits of every array, rounded up to bytes
    /// per array; `None` as for `bytes`.
    pub unpadded: Option<u64>,
    /// Elements times the unpacked byte width of every array, as the TPU
    /// compiler's memory report counts "unpadded" (`E(n)` ignored);
    /// `None` as for `bytes`.
    pub compiler_unpadded: Option<u64>,
    /// Every array leaf, in order.
    pub leaves: Vec<Leaf>,
    /// Why the text failed to parse.
    pub error: Option<String>,
}

impl Value {
    /// Allocated bytes minus unpadded bytes; `None` when either is unknown.
    pub fn padding(&self) -> Option<u64> {
        self.bytes?.checked_sub(self.unpadded?)
    }

    /// The memory space summary; [`Space::None`] for an error.
    pub fn space(&self) -> Space {
        if self.error.is_some() {
            return Space::None;
        }
        let mut it = self.leaves.iter().map(|l| l.0);
        match it.next() {
            None => Space::None,
            Some(first) if it.all(|s| s == first) => Space::One(first),
            Some(_) => Space::Mixed,
        }
    }
}

/// A parse error, with the bytes of the shape it is about.
fn describe(e: &Error, text: &str) -> String {
    let span = e.span();
    if span.end > span.start && (span.end as usize) <= text.len() {
        format!("{e} (at bytes {}..{} of the shape)", span.start, span.end)
    } else {
        e.to_string()
    }
}

fn leaves(shape: &Shape, out: &mut Vec<Leaf>) {
    match shape {
        Shape::Array(a) | Shape::Buffer(a) => {
            out.push((a.layout().memory_space(), a.size_in_bytes().ok()));
        }
        // Tuples nest at most `layout_core::MAX_DEPTH` deep.
        Shape::Tuple(t) => {
            for e in t.iter() {
                leaves(&e, out);
            }
        }
        Shape::Token | Shape::Opaque => {}
    }
}

/// The unpadded bytes of every array in `shape` summed (checked); `None`
/// if one is unknown.
/// With `compiler`, the unpacked sizes (`ArrayShape::unpacked_size_in_bytes`).
fn unpadded(shape: &Shape, compiler: bool) -> Option<u64> {
    match shape {
        Shape::Array(a) | Shape::Buffer(a) if compiler => a.unpacked_size_in_bytes().ok(),
        Shape::Array(a) | Shape::Buffer(a) => a.unpadded_size_in_bytes().ok(),
        // Tuples nest at most `layout_core::MAX_DEPTH` deep.
        Shape::Tuple(t) => t
            .iter()
            .try_fold(0u64, |acc, e| acc.checked_add(unpadded(&e, compiler)?)),
        Shape::Token | Shape::Opaque => Some(0),
    }
}

/// What the shape text `text` amounts to.
pub fn evaluate(text: &[u8]) -> Value {
    let failed = |error: String| Value {
        shape_type: None,
        bytes: None,
        unpadded: None,
        compiler_unpadded: None,
        leaves: Vec::new(),
        error: Some(error),
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return failed("the shape is not valid UTF-8".into());
    };
    if text.is_empty() {
        return failed("no shape where one was expected".into());
    }
    let shape = match parse(text) {
        Ok(s) => s,
        Err(e) => return failed(describe(&e, text)),
    };
    let shape_type = match shape {
        Shape::Array(_) => ShapeType::Array,
        Shape::Tuple(_) => ShapeType::Tuple,
        Shape::Buffer(_) => ShapeType::Buffer,
        Shape::Token => ShapeType::Token,
        Shape::Opaque => ShapeType::Opaque,
    };
    let mut out = Vec::new();
    leaves(&shape, &mut out);
    let bytes = out
        .iter()
        .try_fold(0u64, |acc, l| l.1.and_then(|b| acc.checked_add(b)));
    Value {
        shape_type: Some(shape_type),
        bytes,
        unpadded: unpadded(&shape, false),
        compiler_unpadded: unpadded(&shape, true),
        leaves: out,
        error: None,
    }
}

/// Name of a memory space in the totals (others go by their number).
pub const fn space_label(s: i64) -> Option<&'static str> {
    match s {
        0 => Some("device"),
        1 => Some("fast/VMEM"),
        5 => Some("host"),
        _ => None,
    }
}

/// The instruction results in one memory space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpaceTotal {
    /// Bytes of the arrays of known size (cannot overflow: at most
    /// 2^64 arrays of at most 2^64 bytes).
    pub bytes: u128,
    /// Array leaves.
    pub arrays: u64,
    /// Array leaves of unknown size (not in `bytes`).
    pub unknown: u64,
}

impl SpaceTotal {
    /// Adds one array leaf of `bytes` (`None`: unknown size).
    fn add(&mut self, bytes: Option<u64>) {
        self.arrays = self.arrays.saturating_add(1);
        match bytes {
            Some(b) => self.bytes = self.bytes.saturating_add(u128::from(b)),
            None => self.unknown = self.unknown.saturating_add(1),
        }
    }

    /// Adds another total.
    fn merge(&mut self, other: &SpaceTotal) {
        self.bytes = self.bytes.saturating_add(other.bytes);
        self.arrays = self.arrays.saturating_add(other.arrays);
        self.unknown = self.unknown.saturating_add(other.unknown);
    }
}

/// Totals by memory space.
pub type Spaces = BTreeMap<i64, SpaceTotal>;

/// Adds a value's array leaves to `totals`, each in its own space.
fn add_leaves(totals: &mut Spaces, leaves: &[Leaf]) {
    for &(space, bytes) in leaves {
        totals.entry(space).or_default().add(bytes);
    }
}

/// Opcodes whose result is another value, not a new one: not counted in
/// [`Scan::top_level`]. `parameter` is there too, outside ENTRY.
pub const ALIASING_OPCODES: &[&[u8]] = &[
    // Views of their operands.
    b"tuple",
    b"get-tuple-element",
    b"bitcast",
    b"opt-barrier",
    b"domain",
    b"add-dependency",
    // Its tuple holds the operand and the destination `copy-done` returns.
    b"copy-start",
    // The roots of the computations they run, counted there.
    b"while",
    b"conditional",
    b"call",
];

/// The (opcode, attribute) pairs that run a computation as a computation
/// of its own, not inlined into an instruction (as a fusion body or a
/// reducer is): followed from ENTRY by [`Scan::top_level`].
pub const CONTROL_FLOW_CALLS: &[(&[u8], &[u8])] = &[
    (b"while", b"condition"),
    (b"while", b"body"),
    (b"conditional", b"true_computation"),
    (b"conditional", b"false_computation"),
    (b"conditional", b"branch_computations"),
    (b"call", b"to_apply"),
];

/// A name without its `%`.
fn bare(name: &[u8]) -> &[u8] {
    name.strip_prefix(b"%").unwrap_or(name)
}

/// A computation's bare name: a slice of the input, or, for a nested
/// computation (`<instruction>.<attribute>`), its own bytes.
type Label<'a> = Cow<'a, [u8]>;

/// What one computation defines, and what it runs: a few words, and no
/// allocation for a computation that runs nothing and whose values are in
/// one memory space.
#[derive(Default)]
struct Computation<'a> {
    /// Marked `ENTRY`.
    entry: bool,
    /// Results of its instructions but the aliasing ones, by memory space
    /// (usually one).
    values: Vec<(i64, SpaceTotal)>,
    /// The computations its control flow runs (bare names).
    runs: Vec<Label<'a>>,
}

impl Computation<'_> {
    /// Adds a value's array leaves, each in its own space.
    fn add(&mut self, leaves: &[Leaf]) {
        for &(space, bytes) in leaves {
            if let Some((_, t)) = self.values.iter_mut().find(|(s, _)| *s == space) {
                t.add(bytes);
            } else {
                // One entry at a time: most computations have one space.
                self.values.reserve_exact(1);
                let mut t = SpaceTotal::default();
                t.add(bytes);
                self.values.push((space, t));
            }
        }
    }
}

/// How many shapes were found, by where.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Instruction results.
    pub results: u64,
    /// Shapes among operands.
    pub operands: u64,
    /// Shapes in instruction attributes.
    pub attributes: u64,
    /// Computation parameters and results.
    pub parameters: u64,
    /// `entry_computation_layout` entries.
    pub entry_layout: u64,
    /// Shapes outside instructions (module attributes, stray lines).
    pub other: u64,
}

impl Found {
    /// All shapes found.
    pub fn total(&self) -> u64 {
        [
            self.results,
            self.operands,
            self.attributes,
            self.parameters,
            self.entry_layout,
            self.other,
        ]
        .iter()
        .fold(0u64, |acc, &n| acc.saturating_add(n))
    }
}

/// Adds `n` found things to a counter (a count of byte ranges of the
/// input: it cannot reach `u64::MAX`, saturating all the same).
fn add(counter: &mut u64, n: usize) {
    *counter = counter.saturating_add(u64::try_from(n).unwrap_or(u64::MAX));
}

/// The input and the totals over a scan.
pub struct Scan<'a> {
    /// The whole input.
    pub src: &'a [u8],
    /// Totals of all instruction results, by memory space.
    pub totals: Spaces,
    /// The results of the ENTRY computations' `parameter` instructions.
    pub entry_parameters: Spaces,
    /// The results of the ENTRY computations' ROOT instructions.
    pub entry_result: Spaces,
    /// Per module number, per bare computation label: what it defines and
    /// runs. Held to the end (a few words per computation and call; the
    /// names are slices of the input). Not kept by a scan that only
    /// renders ([`Scan::rendering`]).
    computations_by_name: BTreeMap<u64, HashMap<Label<'a>, Computation<'a>>>,
    /// Whether `computations_by_name` is kept.
    keeps_calls: bool,
    /// `HloModule` headers seen (computations are named within a module).
    modules: u64,
    /// The bare label of the current module's ENTRY computation.
    entry_label: Option<Label<'a>>,
    /// Shapes found, by where.
    pub found: Found,
    /// Instructions found.
    pub instructions: u64,
    /// Computations found (nested ones included).
    pub computations: u64,
    /// Shapes evaluated that failed to parse.
    errors: Cell<u64>,
}

impl<'a> Scan<'a> {
    /// A scan of `src` with nothing found yet.
    pub fn new(src: &'a [u8]) -> Self {
        Scan {
            src,
            totals: Spaces::new(),
            entry_parameters: Spaces::new(),
            entry_result: Spaces::new(),
            computations_by_name: BTreeMap::new(),
            keeps_calls: true,
            modules: 0,
            entry_label: None,
            found: Found::default(),
            instructions: 0,
            computations: 0,
            errors: Cell::new(0),
        }
    }

    /// A scan for a pass that renders the records again after a first
    /// pass kept the totals: it keeps no computation names or calls, so
    /// [`Scan::top_level`] is empty.
    pub fn rendering(src: &'a [u8]) -> Self {
        Scan {
            keeps_calls: false,
            ..Scan::new(src)
        }
    }

    /// The span of `bytes` in the input, when they are a slice of it
    /// (`None`: other bytes, such as a nested computation's made-up name).
    pub fn span_of(&self, bytes: &[u8]) -> Option<Span> {
        let start = bytes.as_ptr().addr().wrapping_sub(self.src.as_ptr().addr());
        let end = start.checked_add(bytes.len())?;
        let s = self.src.get(start..end)?;
        (s.as_ptr() == bytes.as_ptr()).then_some(Span { start, end })
    }

    /// `name` as a label: borrowed from the input when it is a slice of
    /// it, copied otherwise (a nested computation's made-up name).
    fn label(&self, name: &[u8]) -> Label<'a> {
        match self.span_of(name) {
            Some(s) => Cow::Borrowed(&self.src[s.start..s.end]),
            None => Cow::Owned(name.to_vec()),
        }
    }

    /// The text of a span.
    pub fn text(&self, s: Span) -> &'a [u8] {
        &self.src[s.start..s.end]
    }

    /// Evaluates the shape at `s`, counting it if it fails to parse.
    pub fn value(&self, s: Span) -> Value {
        let v = evaluate(self.text(s));
        if v.error.is_some() {
            self.errors.set(self.errors.get().saturating_add(1));
        }
        v
    }

    /// Shapes that failed to parse so far.
    pub fn errors(&self) -> u64 {
        self.errors.get()
    }

    /// Counts a module header's shapes.
    pub fn count_module(&mut self, m: &ModuleRec) {
        self.modules = self.modules.saturating_add(1);
        self.entry_label = None;
        if let Some((ps, _)) = &m.entry {
            add(&mut self.found.entry_layout, ps.len().saturating_add(1));
        }
        add(&mut self.found.other, m.attributes.len());
    }

    /// Counts a computation and its signature's shapes.
    pub fn count_computation(&mut self, c: &CompRec) {
        self.computations = self.computations.saturating_add(1);
        let label = self.label(bare(c.label));
        if c.entry {
            self.entry_label = Some(label.clone());
        }
        if !self.keeps_calls {
            return self.count_signature(c);
        }
        self.computations_by_name
            .entry(self.modules)
            .or_default()
            .entry(label)
            .or_default()
            .entry |= c.entry;
        self.count_signature(c);
    }

    /// Counts a computation signature's shapes.
    fn count_signature(&mut self, c: &CompRec) {
        add(
            &mut self.found.parameters,
            c.params
                .len()
                .saturating_add(usize::from(c.result.is_some())),
        );
    }

    /// Counts an instruction's shapes and adds its result (already
    /// evaluated) to the totals.
    pub fn count_instruction(&mut self, i: &InstrRec, result: &Value) {
        self.instructions = self.instructions.saturating_add(1);
        add(&mut self.found.results, 1);
        add(&mut self.found.operands, i.operands.len());
        add(&mut self.found.attributes, i.attributes.len());
        add_leaves(&mut self.totals, &result.leaves);
        let Some(label) = i.computation.map(bare) else {
            return;
        };
        let opcode = self.text(i.opcode);
        let in_entry = self.entry_label.as_deref() == Some(label);
        let parameter = opcode == b"parameter";
        if in_entry && parameter {
            add_leaves(&mut self.entry_parameters, &result.leaves);
        }
        if in_entry && i.root {
            add_leaves(&mut self.entry_result, &result.leaves);
        }
        if !self.keeps_calls {
            return;
        }
        let src = self.src;
        let name = bare(&src[i.name.start..i.name.end]);
        let key = self.label(label);
        let module = self.computations_by_name.entry(self.modules).or_default();
        let comp = module.entry(key).or_default();
        let aliases = ALIASING_OPCODES.contains(&opcode) || (parameter && !in_entry);
        if !aliases {
            comp.add(&result.leaves);
        }
        for &(attr, callee) in &i.calls {
            let attr = &src[attr.start..attr.end];
            if !CONTROL_FLOW_CALLS.contains(&(opcode, attr)) {
                continue;
            }
            comp.runs.push(match callee {
                Callee::Named(n) => Cow::Borrowed(bare(&src[n.start..n.end])),
                Callee::Inline => Cow::Owned([name, b".", attr].concat()),
            });
        }
    }

    /// The values defined in top-level computations: each module's ENTRY
    /// and the computations its `while`, `conditional` and `call`
    /// instructions run ([`CONTROL_FLOW_CALLS`]), transitively; not fusion
    /// bodies, reducers, comparators or other computations inlined into an
    /// instruction. The results of [`ALIASING_OPCODES`] and of `parameter`
    /// outside ENTRY are left out. Each computation counts once, however
    /// often it runs.
    pub fn top_level(&self) -> Spaces {
        let mut totals = Spaces::new();
        for module in self.computations_by_name.values() {
            let mut seen: HashSet<&[u8]> = HashSet::new();
            let mut todo: Vec<&[u8]> = module
                .iter()
                .filter(|(_, c)| c.entry)
                .map(|(label, _)| label.as_ref())
                .collect();
            while let Some(label) = todo.pop() {
                if !seen.insert(label) {
                    continue;
                }
                let Some(c) = module.get(label) else {
                    continue;
                };
                for (space, t) in &c.values {
                    totals.entry(*space).or_default().merge(t);
                }
                todo.extend(c.runs.iter().map(AsRef::as_ref));
            }
        }
        totals
    }

    /// `true` when nothing HLO-like was found: no `HloModule` header, no
    /// computation, no instruction and no shape.
    pub fn is_empty(&self) -> bool {
        self.modules == 0
            && self.computations == 0
            && self.instructions == 0
            && self.found.total() == 0
    }

    /// Counts shapes outside the structure.
    pub fn count_other(&mut self, shapes: &Shapes) {
        add(&mut self.found.other, shapes.len());
    }
}

/// Bytes as text, invalid UTF-8 replaced.
pub fn lossy(b: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        let v = evaluate(b"(f32[2]{0:S(1)}, s8[3], token[])");
        assert_eq!(v.shape_type, Some(ShapeType::Tuple));
        assert_eq!(v.bytes, Some(8 + 3));
        assert_eq!((v.unpadded, v.padding()), (Some(8 + 3), Some(0)));
        let padded = evaluate(b"(f32[3,5]{1,0:T(8,128)}, s4[3]{0:E(4)})");
        assert_eq!(
            (padded.bytes, padded.unpadded),
            (Some(4096 + 2), Some(60 + 2))
        );
        assert_eq!(padded.padding(), Some(4036));
        // The compiler counts the s4 one byte each, unpacked.
        assert_eq!(padded.compiler_unpadded, Some(60 + 3));
        let pred = evaluate(b"pred[64,512,2048]{2,1,0:T(8,128)E(32)}");
        assert_eq!((pred.bytes, pred.padding()), (Some(256 << 20), Some(0)));
        assert_eq!(pred.compiler_unpadded, Some(64 << 20));
        assert_eq!(v.space(), Space::Mixed);
        assert_eq!(v.leaves, [(1, Some(8)), (0, Some(3))]);
        let v = evaluate(b"f32[?,2]");
        assert_eq!((v.bytes, v.space()), (None, Space::One(0)));
        assert_eq!(v.padding(), None);
        let v = evaluate(b"token[]");
        assert_eq!((v.bytes, v.space()), (Some(0), Space::None));
        let v = evaluate(b"f32[2]{1}");
        assert_eq!(v.shape_type, None);
        assert!(v.error.unwrap().contains("of the shape"));
        assert!(evaluate(b"").error.unwrap().contains("no shape"));
        assert!(evaluate(b"f32[\xff]").error.unwrap().contains("UTF-8"));
    }

    #[test]
    fn errors_are_counted_once_per_evaluation() {
        let scan = Scan::new(b"f32[2]{1} f32[2]");
        assert!(scan.value(Span::new(0, 9)).error.is_some());
        assert!(scan.value(Span::new(10, 16)).error.is_none());
        assert_eq!(scan.errors(), 1);
    }
}
