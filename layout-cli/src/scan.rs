//! `layout scan FILE|-`: every shape in an HLO text dump, with its size and
//! memory space. `layout scan DIR` reads a dump directory's buffer
//! assignments instead ([`crate::dump`], which documents its input, output
//! and exit statuses).
//!
//! The input is HLO text as XLA, JAX, TensorFlow and PyTorch/XLA dump it
//! (`HloModule` header, computations, instructions, with or without `%`
//! names). The scanner makes one pass over the bytes with a small hand-written
//! recogniser (no regular expressions, nothing quadratic): it follows the
//! module's structure (header, computation signatures, instruction
//! `name = shape opcode(operands), attributes`), skips string literals
//! (`metadata={op_name="..."}`, `backend_config="..."`, escaped quotes
//! included) and comments (`/* */`, `//`), and hands each shape's exact text
//! to [`layout_core::parse`]. Shapes are reported by their byte span in the
//! input, so what is printed is the input text, byte for byte (not XLA's
//! canonical print).
//!
//! # What is found
//!
//! - each instruction's result shape (a tuple result is one tuple shape);
//! - every shape written inline among an instruction's operands (XLA prints
//!   `f32[8]{0} %x`); a tuple-shaped operand is one tuple shape;
//! - shapes inside attribute values (`operand_layout_constraints={..}`,
//!   `outfeed_shape=(..)`; a tuple where a value starts is one shape), and
//!   the instructions of nested computations written inline in an attribute
//!   (`to_apply={ ... }`);
//! - parameter and result shapes of computation signatures
//!   (`%f (p: f32[2]) -> f32[2] {`);
//! - `entry_computation_layout={(..)->..}` in the `HloModule` header;
//! - anything shape-like outside those structures (a stray line), reported as
//!   an `other` record rather than dropped.
//!
//! Text inside string literals and comments is never scanned.
//!
//! # Sizes and memory spaces
//!
//! `bytes` is the allocation size of an array ([`layout_core::ArrayShape::size_in_bytes`]:
//! tiles, padding and `E(n)` packing included; `<=N` dimensions count as `N`).
//! A shape with a `?` dimension has unknown size (`?` in the table, `null` in
//! JSON). Tuples add up their leaves; `token[]` and `opaque[]` count 0 bytes
//! and have no memory space. The memory space is the layout's `S(n)` (0 when
//! absent). A tuple whose array leaves all share one space reports that
//! space; otherwise it reports `mixed`, and JSON lists the space of every
//! array leaf.
//!
//! # Totals
//!
//! Four totals, each per memory space (tuple leaves each in their own), of
//! instruction result shapes ([`crate::report::Scan`]):
//!
//! - entry parameters: the `parameter` instructions of the ENTRY
//!   computation;
//! - entry result: the ROOT instruction of ENTRY;
//! - values defined in top-level computations ([`crate::report::Scan::top_level`]):
//!   ENTRY and the computations run by its `while` (`condition=`, `body=`),
//!   `conditional` (`true_computation=`, `false_computation=`,
//!   `branch_computations={..}`) and `call` (`to_apply=`) instructions,
//!   transitively ([`crate::report::CONTROL_FLOW_CALLS`]), each once; not
//!   fusion bodies (`fusion`'s `calls=`), reducers and comparators
//!   (`to_apply=` of other opcodes) or `async-start`'s `calls=`. Left out:
//!   results that are other values again ([`crate::report::ALIASING_OPCODES`]:
//!   `tuple`, `get-tuple-element`, `bitcast`, `opt-barrier`, `domain`,
//!   `add-dependency`; `copy-start`, whose destination `copy-done` returns;
//!   `while`, `conditional` and `call`, their callees' roots), and
//!   `parameter` outside ENTRY;
//! - all instruction results, in all computations, fusion bodies and
//!   aliases included.
//!
//! Computations are matched by name (with or without `%`) within one
//! `HloModule`. None of the totals is peak memory: nothing is freed, and a
//! loop body counts once.
//!
//! # Output
//!
//! Without `--json`, a table: one row per `entry_computation_layout` entry
//! and per instruction (`NAME OPCODE BYTES SPACE SHAPE`, the shape last and
//! verbatim), a `-- <computation>` line before each computation's rows, the
//! shapes that failed to parse, then the totals. Operand
//! and signature shapes are counted in the summary line but only listed in
//! JSON. The padding column is allocated minus unpadded bytes
//! (`ArrayShape::unpadded_size_in_bytes`: elements times element bits,
//! rounded up to bytes, summed over a tuple's arrays).
//!
//! With `--sort bytes|padding`, `--top N` or `--computation NAME`, one
//! table of instructions instead, ranked largest first ([`Listing`],
//! [`crate::render::rank`]), then the failures and the totals as above.
//! Its numbers have thousands separators, as the table's. Ranked by
//! padding when no instruction has any, one line says so instead of the
//! rows.
//!
//! With `--json`, one JSON object per line, in input order, except that a
//! nested computation's instructions come before the instruction that holds
//! them. The records below are built from *shape objects*, one per shape
//! found:
//! `{"shape": text, "span": [start, end], "shape_type": "array"|"tuple"|
//! "buffer"|"token"|"opaque"|null, "bytes": int|null, "padding_bytes":
//! int|null, "compiler_unpadded_bytes": int|null, "memory_space":
//! int|"mixed"|null, "leaf_memory_spaces": [int, ...], "error": string|null}`.
//! `compiler_unpadded_bytes` is the unpadded size as the TPU compiler's
//! memory report counts it (elements times the unpacked byte width,
//! `ArrayShape::unpacked_size_in_bytes`; `pred` with `E(32)` is a quarter of
//! its allocation, where `padding_bytes` says 0).
//! `span` is the byte range in the input; `leaf_memory_spaces` has one entry
//! per array leaf (one for an array, none for `token[]`); on a parse error
//! `shape_type`, `bytes` and `memory_space` are `null` and `error` says why.
//!
//! Every record has a `kind`:
//!
//! - `{"kind": "module", "name", "line", "entry_computation_layout":
//!   {"parameters": [shape], "result": shape} | null, "attributes":
//!   [{"attribute": name, ...shape}]}`, for each `HloModule` header;
//!   `attributes` lists shapes found in its other attributes.
//! - `{"kind": "computation", "name", "entry": bool, "nested": bool, "line",
//!   "parameters": [{"name", ...shape}], "result": shape|null}`, for each
//!   computation (a nested one is named `<instruction>.<attribute>`).
//! - `{"kind": "instruction", "computation": name|null, "line", "name",
//!   "root": bool, "opcode", ...result shape..., "operands": [shape],
//!   "attributes": [{"attribute": name, ...shape}]}`: the result's shape
//!   object fields are inlined (`shape`, `span`, `shape_type`, `bytes`,
//!   `padding_bytes`, `compiler_unpadded_bytes`, `memory_space`,
//!   `leaf_memory_spaces`, `error`). `name` is as written
//!   (with its `%`, if any); `computation` is `null` for an instruction
//!   outside any computation.
//! - `{"kind": "other", "line", "shapes": [shape]}`, for shapes outside the
//!   structure above (only when there are some).
//! - last, `{"kind": "totals", "instructions", "computations", "shapes",
//!   "errors", "found": {"results", "operands", "attributes", "parameters",
//!   "entry_layout", "other"}, "memory_spaces": [{"memory_space": n, "label",
//!   "bytes", "arrays", "unknown_arrays"}], "entry_parameters": [..],
//!   "entry_result": [..], "top_level_values": [..]}`: `memory_spaces` is
//!   the total of all instruction results, the other three lists are the
//!   totals above in the same form; memory spaces in increasing order;
//!   `bytes` leaves out the `unknown_arrays`.
//!
//! Lines are 1-based.
//!
//! # Limits
//!
//! - The whole input is read into memory once (a 100 MB dump takes about
//!   100 MB), and little else: output is streamed, JSON record by record and
//!   each record's shapes one at a time. Operand shapes and the shapes of a
//!   stray line are found again as they are written rather than held (a
//!   50 MB line of them adds no memory); the shapes of an instruction's
//!   attributes, a signature and an entry layout are held as byte spans (16
//!   bytes each) until their record is written, as are the arrays inside a
//!   tuple until its `)` is found. For the totals, each computation's
//!   name, its totals and the names of the computations it runs are held
//!   to the end. The table holds nothing per row: one
//!   pass over the input measures the columns, a second writes the rows,
//!   and a third (only when a shape failed to parse) lists the failures.
//! - Computations written inline in an attribute are followed
//!   [`hlo::walk::MAX_NESTING`] (64) deep; one nested deeper is read as an
//!   attribute value (its shapes are the holding instruction's attribute
//!   shapes), so no input can exhaust the stack.
//! - A tuple shape in a result, signature or entry layout must be on one line
//!   (XLA prints it so); a tuple split across lines there is reported as a
//!   parse error. Tuples among operands and in attributes may span lines.
//! - Outside the places listed above, only arrays are recognised, and a
//!   tuple only where a value starts; the shapes a `constant`'s literal may
//!   print (old dumps) are reported as its operands, one array each.
//! - HLO syntax is not checked: the scanner looks for shapes, and any text it
//!   cannot place is skipped line by line (its shapes become `other`).
//!
//! # Exit status
//!
//! From the table in [`crate::exit`]:
//!
//! - 0: the input was read and every shape parsed;
//! - 1: at least one shape failed to parse (each is reported; the scan goes
//!   on to the end); or the input holds no HLO at all (no `HloModule`
//!   header, computation, instruction or shape: nothing is written); or
//!   `--computation` names no computation of the dump (nothing is written;
//!   the message suggests up to three close names, found by one more pass
//!   over the input);
//! - 2: the input could not be read (missing file, I/O error), or
//!   `--sort`, `--top` or `--computation` was given with a directory (a
//!   directory itself is read by [`crate::dump`]);
//! - 3: the output could not be written (a full disk, an I/O error). When
//!   the reader goes away (a closed pipe) the scan stops quietly with the
//!   status of what it scanned so far.
//!
//! # Layers
//!
//! Reading ([`crate::hlo`]) finds the records, the model
//! ([`crate::report`]) evaluates their shapes and keeps the totals, the
//! renderers ([`crate::render`]) write them; this module reads the input and
//! wires the three together.
//!
//! Uses: [`crate::hlo`], [`crate::report`], [`crate::render`],
//! [`crate::output`], [`crate::dump`] (a directory).

use std::io::{self, Read, Write};
use std::process::ExitCode;

use crate::hlo::{self, CompRec, InstrRec, ModuleRec, Shapes, Sink};
use crate::output::{self, Output};
use crate::render::json::Json;
use crate::render::rank::Ranked;
pub use crate::render::rank::SortKey;
use crate::render::table::{self, Failures, Table};
use crate::render::Render;
use crate::report::Scan;

/// Exit status when there is nothing to scan, or no such computation.
const EXIT_INVALID: u8 = crate::exit::INVALID;
/// Exit status when a shape failed to parse.
const EXIT_PARSE_ERRORS: u8 = crate::exit::INVALID;
/// Exit status when the input could not be read.
const EXIT_UNREADABLE: u8 = crate::exit::UNREADABLE;

/// How `layout scan` lists the instructions: the table in input order, or
/// one ranked list.
#[derive(Clone, Debug, Default)]
pub struct Listing {
    /// Rank by this (largest first).
    pub sort: Option<SortKey>,
    /// Only this many rows.
    pub top: Option<usize>,
    /// Only the instructions of this computation (`%` optional).
    pub computation: Option<String>,
}

impl Listing {
    /// Whether any of the options asks for the ranked list.
    pub fn ranked(&self) -> bool {
        self.sort.is_some() || self.top.is_some() || self.computation.is_some()
    }
}

/// Runs `layout scan` on a path, or on stdin for `-`.
pub fn run(path: &str, json: bool) -> ExitCode {
    run_listing(path, json, &Listing::default())
}

/// Runs `layout scan` on a path, or on stdin for `-`, as `listing` says
/// (with `json`, `listing` is ignored: the caller refuses the pair).
pub fn run_listing(path: &str, json: bool, listing: &Listing) -> ExitCode {
    if path != "-" && std::path::Path::new(path).is_dir() {
        if listing.ranked() {
            output::warn(format_args!(
                "layout scan: --sort, --top and --computation take one HLO file, not a dump directory ({path})\n"
            ));
            return ExitCode::from(crate::exit::USAGE);
        }
        return crate::dump::run(path, json);
    }
    let input = if path == "-" {
        let mut buf = Vec::new();
        io::stdin().lock().read_to_end(&mut buf).map(|_| buf)
    } else {
        std::fs::read(path)
    };
    let what = if path == "-" { "standard input" } else { path };
    let src = match input {
        Ok(s) => s,
        Err(e) => {
            output::warn(format_args!("layout scan: cannot read {what}: {e}\n"));
            return ExitCode::from(EXIT_UNREADABLE);
        }
    };
    let mut out = output::stdout();
    let outcome = if !json && listing.ranked() {
        scan_ranked(&src, listing, &mut out)
    } else if json {
        scan_json(&src, &mut out, true)
    } else {
        scan_table(&src, &mut out, true)
    };
    // The message follows the output it is about.
    let flushed = out.flush().is_ok();
    let code = match outcome {
        Outcome::Scanned(0) => ExitCode::SUCCESS,
        Outcome::Scanned(errors) => {
            if flushed {
                output::warn(format_args!(
                    "layout scan: {errors} shape(s) failed to parse\n"
                ));
            }
            ExitCode::from(EXIT_PARSE_ERRORS)
        }
        Outcome::NoHlo => {
            output::warn(format_args!(
                "layout scan: no HLO in {what}: no HloModule header, computation, instruction or shape found\n"
            ));
            ExitCode::from(EXIT_INVALID)
        }
        Outcome::NoComputation(wanted) => {
            let near = similar_computations(&src, &wanted);
            let hint = match near.as_slice() {
                [] => String::new(),
                [one] => format!("; did you mean {one}?"),
                many => format!("; did you mean one of {}?", many.join(", ")),
            };
            output::warn(format_args!(
                "layout scan: no computation named {wanted} in {what}{hint}\n"
            ));
            ExitCode::from(EXIT_INVALID)
        }
    };
    out.finish("scan", code)
}

/// What a scan found, for the exit status.
enum Outcome {
    /// Scanned; the number of shapes that failed to parse.
    Scanned(u64),
    /// Nothing HLO-like in the input; nothing written.
    NoHlo,
    /// `--computation` named no computation of the input; nothing written.
    NoComputation(String),
}

/// Scans the dump `src` into `out`: JSON lines with `json`, the table
/// otherwise. Returns the number of shapes that failed to parse; a write
/// error is kept by `out` (and ends the scan). An input with no HLO gets
/// the empty table or the totals record alone.
pub fn scan<W: Write>(src: &[u8], json: bool, out: &mut Output<W>) -> u64 {
    let outcome = if json {
        scan_json(src, out, false)
    } else {
        scan_table(src, out, false)
    };
    match outcome {
        Outcome::Scanned(errors) => errors,
        Outcome::NoHlo | Outcome::NoComputation(_) => 0,
    }
}

/// Writes JSON lines; returns the number of shapes that failed to parse
/// ([`Outcome::NoHlo`] instead of the totals when `refuse_empty` and
/// nothing was found: then nothing was written).
fn scan_json<W: Write>(src: &[u8], out: &mut Output<W>, refuse_empty: bool) -> Outcome {
    let mut pass = Pass::new(src, Json, out);
    hlo::walk(src, &mut pass);
    let Pass { scan, out, .. } = pass;
    if refuse_empty && scan.is_empty() {
        return Outcome::NoHlo;
    }
    // A write error is kept by `out` (and ends the scan).
    if !out.stopped() {
        let _ = Json::write_totals(out, &scan);
    }
    Outcome::Scanned(scan.errors())
}

/// Writes the table; returns the number of shapes that failed to parse.
///
/// Three passes over the input: the first measures the columns and counts,
/// the second writes the rows, the third (only if a shape failed to parse)
/// lists the failures. Write errors are kept by `out`, and each step is
/// skipped once one failed.
fn scan_table<W: Write>(src: &[u8], out: &mut Output<W>, refuse_empty: bool) -> Outcome {
    let mut pass = Pass::new(src, Table::measure(), out);
    hlo::walk(src, &mut pass);
    let Pass {
        scan,
        renderer: measured,
        out,
    } = pass;
    if refuse_empty && scan.is_empty() {
        return Outcome::NoHlo;
    }
    let errors = scan.errors();
    let widths = measured.widths();
    if widths.write_header(out).is_ok() {
        hlo::walk(src, &mut Pass::rendering(src, Table::write(widths), out));
    }
    if errors > 0 && !out.stopped() && table::write_failures_heading(out, errors).is_ok() {
        hlo::walk(src, &mut Pass::rendering(src, Failures, out));
    }
    if !out.stopped() {
        let _ = table::write_totals(out, &scan);
    }
    Outcome::Scanned(errors)
}

/// Writes the ranked list, the failures and the totals; returns the number
/// of shapes that failed to parse.
fn scan_ranked<W: Write>(src: &[u8], listing: &Listing, out: &mut Output<W>) -> Outcome {
    let ranked = Ranked::new(listing.sort, listing.top, listing.computation.as_deref());
    let mut pass = Pass::new(src, ranked, out);
    hlo::walk(src, &mut pass);
    let Pass {
        scan,
        renderer: ranked,
        out,
    } = pass;
    if scan.is_empty() {
        return Outcome::NoHlo;
    }
    if !ranked.matched() {
        return Outcome::NoComputation(listing.computation.clone().unwrap_or_default());
    }
    let errors = scan.errors();
    // A write error is kept by `out`, and each step is skipped once one failed.
    let _ = ranked.write(out, &scan);
    if errors > 0 && !out.stopped() && table::write_failures_heading(out, errors).is_ok() {
        hlo::walk(src, &mut Pass::rendering(src, Failures, out));
    }
    if !out.stopped() {
        let _ = table::write_totals(out, &scan);
    }
    Outcome::Scanned(errors)
}

/// The computation names of `src` closest to `wanted` (at most three,
/// closest first, as written), found by one more pass over the input so
/// that no name is held during the scan.
fn similar_computations(src: &[u8], wanted: &str) -> Vec<String> {
    struct Names<'w> {
        wanted: &'w str,
        best: Vec<(usize, String)>,
    }
    impl Sink for Names<'_> {
        fn module(&mut self, _: &ModuleRec) {}
        fn computation(&mut self, c: &CompRec) {
            let name = crate::report::lossy(c.label);
            let bare = name.trim_start_matches('%').to_lowercase();
            let wanted = self.wanted.trim_start_matches('%').to_lowercase();
            let d = edit_distance(&bare, &wanted);
            let close = d <= (wanted.chars().count() / 3).max(2)
                || (wanted.len() >= 3 && bare.contains(&wanted));
            if close && !self.best.iter().any(|(_, n)| *n == name) {
                self.best.push((d, name.into_owned()));
                self.best.sort_by_key(|(d, _)| *d);
                self.best.truncate(3);
            }
        }
        fn instruction(&mut self, _: &InstrRec) {}
        fn other(&mut self, _: usize, _: Shapes<'_>) {}
        fn stopped(&self) -> bool {
            false
        }
    }
    let mut names = Names {
        wanted,
        best: Vec::new(),
    };
    hlo::walk(src, &mut names);
    names.best.into_iter().map(|(_, n)| n).collect()
}

/// Edit distance (insertions, deletions, substitutions) between `a` and
/// `b`, in characters; one row of memory.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diag + usize::from(ca != cb));
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// One pass over the input: the walker's records, counted in a [`Scan`]
/// and handed to a renderer.
struct Pass<'a, 'o, R: Render, W: Write> {
    scan: Scan<'a>,
    renderer: R,
    out: &'o mut Output<W>,
}

impl<'a, 'o, R: Render, W: Write> Pass<'a, 'o, R, W> {
    fn new(src: &'a [u8], renderer: R, out: &'o mut Output<W>) -> Self {
        Pass {
            scan: Scan::new(src),
            renderer,
            out,
        }
    }

    /// A pass after the first, whose totals are not needed again: its
    /// [`Scan`] keeps no computation names ([`Scan::rendering`]).
    fn rendering(src: &'a [u8], renderer: R, out: &'o mut Output<W>) -> Self {
        Pass {
            scan: Scan::rendering(src),
            renderer,
            out,
        }
    }
}

// The renderers' write errors are kept by `Output`, which `stopped` reports
// to the walker.
impl<R: Render, W: Write> Sink for Pass<'_, '_, R, W> {
    fn module(&mut self, m: &ModuleRec) {
        self.scan.count_module(m);
        let _ = self.renderer.module(self.out, &self.scan, m);
    }

    fn computation(&mut self, c: &CompRec) {
        self.scan.count_computation(c);
        let _ = self.renderer.computation(self.out, &self.scan, c);
    }

    fn instruction(&mut self, i: &InstrRec) {
        let result = self.scan.value(i.result);
        self.scan.count_instruction(i, &result);
        let _ = self.renderer.instruction(self.out, &self.scan, i, &result);
    }

    fn other(&mut self, line: usize, shapes: Shapes<'_>) {
        self.scan.count_other(&shapes);
        let _ = self.renderer.other(self.out, &self.scan, line, shapes);
    }

    fn stopped(&self) -> bool {
        self.out.stopped()
    }
}
