//! `layout scan FILE|-`: every shape in an HLO text dump, with its size and
//! memory space.
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
//! The totals add up the result shapes of all instructions in all
//! computations (tuple leaves each in their own memory space). They measure
//! the bytes each instruction defines, not peak memory: values that alias
//! (`tuple`, `get-tuple-element`, `bitcast`) and the insides of fusions are
//! counted too, and nothing is freed.
//!
//! # Output
//!
//! Without `--json`, a table: one row per `entry_computation_layout` entry
//! and per instruction (`NAME OPCODE BYTES SPACE SHAPE`, the shape last and
//! verbatim), a `-- <computation>` line before each computation's rows, the
//! shapes that failed to parse, then the totals per memory space. Operand
//! and signature shapes are counted in the summary line but only listed in
//! JSON.
//!
//! With `--json`, one JSON object per line, in input order, except that a
//! nested computation's instructions come before the instruction that holds
//! them. The records below are built from *shape objects*, one per shape
//! found:
//! `{"shape": text, "span": [start, end], "shape_type": "array"|"tuple"|
//! "buffer"|"token"|"opaque"|null, "bytes": int|null, "memory_space":
//! int|"mixed"|null, "leaf_memory_spaces": [int, ...], "error": string|null}`.
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
//!   `memory_space`, `leaf_memory_spaces`, `error`). `name` is as written
//!   (with its `%`, if any); `computation` is `null` for an instruction
//!   outside any computation.
//! - `{"kind": "other", "line", "shapes": [shape]}`, for shapes outside the
//!   structure above (only when there are some).
//! - last, `{"kind": "totals", "instructions", "computations", "shapes",
//!   "errors", "found": {"results", "operands", "attributes", "parameters",
//!   "entry_layout", "other"}, "memory_spaces": [{"memory_space": n, "label",
//!   "bytes", "arrays", "unknown_arrays"}]}`, memory spaces in increasing
//!   order; `bytes` leaves out the `unknown_arrays`.
//!
//! Lines are 1-based.
//!
//! # Limits
//!
//! - The whole input is read into memory once (a 100 MB dump takes about
//!   100 MB, plus the table rows without `--json`); JSON is streamed.
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
//! - 0: the input was read and every shape parsed;
//! - 1: at least one shape failed to parse (each is reported; the scan goes
//!   on to the end);
//! - 2: the input could not be read (missing file, a directory, I/O error);
//! - 3: the output could not be written (e.g. a closed pipe).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

use layout_core::{parse, Error, Shape};

/// Runs `layout scan` on a path, or on stdin for `-`.
pub fn run(path: &str, json: bool) -> ExitCode {
    let input = if path == "-" {
        let mut buf = Vec::new();
        io::stdin().lock().read_to_end(&mut buf).map(|_| buf)
    } else {
        std::fs::read(path)
    };
    let src = match input {
        Ok(s) => s,
        Err(e) => {
            let what = if path == "-" { "standard input" } else { path };
            eprintln!("layout scan: cannot read {what}: {e}");
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    let mut report = Report::new(&src, json, BufWriter::with_capacity(1 << 16, stdout.lock()));
    Scanner::new(&src, &mut report).scan();
    report.finish()
}

/// A byte range of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    start: usize,
    end: usize,
}

impl Span {
    fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
}

// ---------------------------------------------------------------------------
// Records the scanner produces.

/// An `HloModule` header.
struct ModuleRec {
    name: Span,
    line: usize,
    /// `entry_computation_layout`: parameters and result.
    entry: Option<(Vec<Span>, Span)>,
    /// Shapes in other header attributes: (attribute name, shape).
    attributes: Vec<(Span, Span)>,
}

/// A computation header.
struct CompRec<'l> {
    label: &'l [u8],
    entry: bool,
    nested: bool,
    line: usize,
    /// (parameter name, shape).
    params: Vec<(Span, Span)>,
    result: Option<Span>,
}

/// One instruction.
struct InstrRec<'l> {
    computation: Option<&'l [u8]>,
    line: usize,
    name: Span,
    root: bool,
    opcode: Span,
    result: Span,
    operands: Vec<Span>,
    /// (attribute name, shape).
    attributes: Vec<(Span, Span)>,
}

/// What the scanner tells its consumer.
trait Sink {
    fn module(&mut self, m: &ModuleRec);
    fn computation(&mut self, c: &CompRec);
    fn instruction(&mut self, i: &InstrRec);
    fn other(&mut self, line: usize, shapes: &[Span]);
    /// True once the consumer cannot take more (output closed).
    fn stopped(&self) -> bool;
}

// ---------------------------------------------------------------------------
// The scanner.

const fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-')
}

const fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

/// Where a generic walk stops (besides a closer that ends the enclosing
/// bracket, which always stops it).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// Only at the enclosing closer (inside an operand list).
    Closer,
    /// At depth 0: `,` or whitespace (an attribute value).
    Value,
    /// At depth 0: a newline (rest of a line).
    Line,
}

/// Deepest tuple nesting the shape-likeness test follows.
const MAX_LOOKAHEAD_DEPTH: usize = 64;

struct Scanner<'a, 's, S: Sink> {
    src: &'a [u8],
    sink: &'s mut S,
    /// Monotonic line counter: position and line number there.
    line_pos: usize,
    line_no: usize,
}

impl<'a, 's, S: Sink> Scanner<'a, 's, S> {
    fn new(src: &'a [u8], sink: &'s mut S) -> Self {
        Scanner {
            src,
            sink,
            line_pos: 0,
            line_no: 1,
        }
    }

    fn at(&self, p: usize) -> u8 {
        self.src.get(p).copied().unwrap_or(0)
    }

    /// 1-based line of `pos` (positions asked for are almost always
    /// increasing; going back recounts from the start).
    fn line(&mut self, pos: usize) -> usize {
        let pos = pos.min(self.src.len());
        if pos < self.line_pos {
            self.line_pos = 0;
            self.line_no = 1;
        }
        self.line_no += self.src[self.line_pos..pos]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.line_pos = pos;
        self.line_no
    }

    /// End of a comment starting at `p`, if one does.
    fn comment_end(&self, p: usize) -> Option<usize> {
        if self.at(p) != b'/' {
            return None;
        }
        match self.at(p + 1) {
            b'*' => {
                let rest = &self.src[p + 2..];
                Some(
                    rest.windows(2)
                        .position(|w| w == b"*/")
                        .map_or(self.src.len(), |i| p + 2 + i + 2),
                )
            }
            b'/' => Some(
                self.src[p..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(self.src.len(), |i| p + i),
            ),
            _ => None,
        }
    }

    /// Skips whitespace (newlines included) and comments.
    fn trivia(&self, mut p: usize) -> usize {
        loop {
            match self.at(p) {
                b' ' | b'\t' | b'\r' | b'\n' => p += 1,
                b'/' => match self.comment_end(p) {
                    Some(e) => p = e,
                    None => return p,
                },
                _ => return p.min(self.src.len()),
            }
        }
    }

    /// Skips spaces and tabs only.
    fn blanks(&self, mut p: usize) -> usize {
        while matches!(self.at(p), b' ' | b'\t' | b'\r') {
            p += 1;
        }
        p
    }

    /// End of a string literal starting at the `"` at `p`. Backslash escapes
    /// are skipped; a raw newline ends an unterminated string (XLA escapes
    /// newlines, so this only limits the damage of a broken dump).
    fn string_end(&self, p: usize) -> usize {
        let mut q = p + 1;
        while q < self.src.len() {
            match self.src[q] {
                b'"' => return q + 1,
                b'\\' => q += 2,
                b'\n' => return q,
                _ => q += 1,
            }
        }
        self.src.len()
    }

    /// End of a run of name characters from `p`.
    fn name_end(&self, mut p: usize) -> usize {
        while p < self.src.len() && is_name_char(self.src[p]) {
            p += 1;
        }
        p
    }

    /// Whether `p` starts an identifier (not the middle of a name or number,
    /// nor a `%name`).
    fn ident_boundary(&self, p: usize) -> bool {
        p == 0 || {
            let b = self.src[p - 1];
            !is_name_char(b) && b != b'%'
        }
    }

    /// Whether a lowercase type name directly followed by `[` is at `p`.
    fn array_start(&self, p: usize) -> bool {
        let mut q = p;
        if !self.at(q).is_ascii_lowercase() {
            return false;
        }
        while self.at(q).is_ascii_lowercase() || self.at(q).is_ascii_digit() {
            q += 1;
        }
        self.at(q) == b'['
    }

    /// An array shape at `p`: a lowercase type name directly followed by
    /// `[`, then dims, then a layout if `{` follows at once with an integer
    /// or `:` inside. Returns its end. Lenient: stops at a character that
    /// cannot be part of the dims, and lets the parser report the problem.
    fn array_end(&self, p: usize) -> Option<usize> {
        let mut q = p;
        if !self.at(q).is_ascii_lowercase() {
            return None;
        }
        while self.at(q).is_ascii_lowercase() || self.at(q).is_ascii_digit() {
            q += 1;
        }
        if self.at(q) != b'[' {
            return None;
        }
        q += 1;
        loop {
            match self.at(q) {
                b']' => {
                    q += 1;
                    break;
                }
                b'0'..=b'9' | b',' | b'<' | b'=' | b'?' | b' ' | b'\t' | b'-' => q += 1,
                _ => return Some(q),
            }
        }
        if self.at(q) == b'{' {
            let r = self.blanks(q + 1);
            if self.at(r).is_ascii_digit() || self.at(r) == b':' {
                q = self.layout_end(q);
            }
        }
        Some(q)
    }

    /// End of a layout `{...}` starting at `p` (nested `()`/`{}`/`[]` for
    /// `T(..)`, `P(shape)`); stops at a newline if unbalanced.
    fn layout_end(&self, p: usize) -> usize {
        let mut depth = 0usize;
        let mut q = p;
        while q < self.src.len() {
            match self.src[q] {
                b'{' | b'(' | b'[' => depth += 1,
                b'}' | b')' | b']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return q + 1;
                    }
                }
                b'\n' | b'"' | b'=' => return q,
                _ => {}
            }
            q += 1;
        }
        q
    }

    /// End of a parenthesised shape (tuple, or the `(..)` of `b(..)`) at the
    /// `(` at `p`: `Ok(end)` when balanced, `Err(pos)` where a character that
    /// cannot be in a shape (`=`, `"`, `%`), a newline (XLA prints a shape on
    /// one line; this bounds the work on broken input) or the end of input
    /// came first.
    fn paren_end(&self, p: usize) -> Result<usize, usize> {
        let mut depth = 0usize;
        let mut q = p;
        while q < self.src.len() {
            match self.src[q] {
                b'(' | b'{' | b'[' => depth += 1,
                b')' | b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Ok(q + 1);
                    }
                }
                b'/' => {
                    if let Some(e) = self.comment_end(q) {
                        q = e;
                        continue;
                    }
                }
                b'=' | b'"' | b'%' | b'\n' => return Err(q),
                _ => {}
            }
            q += 1;
        }
        Err(q)
    }

    /// Whether the `(` at `p` opens something that is certainly a shape: its
    /// first element is an array (`f32[`), a buffer or another such tuple.
    fn tuple_like(&self, p: usize, depth: usize) -> bool {
        if depth > MAX_LOOKAHEAD_DEPTH {
            return false;
        }
        let q = self.trivia(p + 1);
        match self.at(q) {
            b'(' => self.tuple_like(q, depth + 1),
            b'b' if self.at(q + 1) == b'(' => self.tuple_like(q + 1, depth + 1),
            c if c.is_ascii_lowercase() => self.array_start(q),
            _ => false,
        }
    }

    /// A shape where one is expected (an instruction result, a parameter, an
    /// entry layout entry). Returns its span, possibly not a valid shape (the
    /// parser reports that), or `None` when nothing is there.
    fn expected_shape(&self, p: usize) -> Option<Span> {
        let c = self.at(p);
        let end = if c == b'(' || (c == b'b' && self.at(p + 1) == b'(') {
            let open = if c == b'(' { p } else { p + 1 };
            self.paren_end(open).unwrap_or_else(|stop| {
                // Unbalanced: end at the last `)` followed by a blank before
                // the stop, if any, so that the opcode after it survives.
                self.src[p..stop]
                    .windows(2)
                    .rposition(|w| w[0] == b')' && matches!(w[1], b' ' | b'\t'))
                    .map_or(stop, |i| p + i + 1)
            })
        } else if let Some(e) = self.array_end(p) {
            e
        } else {
            // Not shape-like: take the word, so that the error shows it.
            let mut q = p;
            while q < self.src.len()
                && !matches!(
                    self.src[q],
                    b' ' | b'\t' | b'\r' | b'\n' | b',' | b')' | b'(' | b'{' | b'}' | b'"'
                )
            {
                q += 1;
            }
            q
        };
        // Never end inside trailing blanks of a lenient stop.
        let mut end = end;
        while end > p && matches!(self.src[end - 1], b' ' | b'\t' | b'\r' | b'\n') {
            end -= 1;
        }
        (end > p).then_some(Span::new(p, end))
    }

    /// Walks from `p` until `stop` (or the closer of an enclosing bracket),
    /// collecting every shape on the way: arrays anywhere outside strings and
    /// comments, and, when `tuples` is set, tuples and buffers that start
    /// where a value does (after `(`, `,`, `{` or `=`). Returns where it
    /// stopped.
    ///
    /// One pass: a tuple-like `(` opens a candidate; the arrays inside are
    /// collected as usual, and replaced by the tuple when its `)` comes with
    /// nothing but shapes, commas and comments in between. Anything else
    /// drops the open candidates (their arrays stay).
    fn walk(&self, mut q: usize, stop: Stop, tuples: bool, found: &mut Vec<Span>) -> usize {
        let n = self.src.len();
        let mut depth = 0usize;
        // The previous significant byte, as if the walk began after `=`.
        let mut prev = b'=';
        // Open tuple candidates: (start, depth inside, `found.len()` then).
        let mut open: Vec<(usize, usize, usize)> = Vec::new();
        let value_start = |prev: u8| matches!(prev, b'(' | b',' | b'{' | b'=');
        while q < n {
            let c = self.src[q];
            match c {
                b'/' if matches!(self.at(q + 1), b'*' | b'/') => {
                    q = self.comment_end(q).unwrap_or(n);
                }
                b' ' | b'\t' | b'\r' => {
                    if stop == Stop::Value && depth == 0 {
                        return q;
                    }
                    q += 1;
                }
                b'\n' => {
                    if stop != Stop::Closer && depth == 0 {
                        return q;
                    }
                    q += 1;
                }
                b',' => {
                    if stop == Stop::Value && depth == 0 {
                        return q;
                    }
                    prev = b',';
                    q += 1;
                }
                b'(' => {
                    depth += 1;
                    if tuples && value_start(prev) && self.tuple_like(q, 0) {
                        open.push((q, depth, found.len()));
                    } else {
                        open.clear();
                    }
                    prev = c;
                    q += 1;
                }
                b')' | b']' | b'}' => {
                    if depth == 0 {
                        return q;
                    }
                    match open.last() {
                        Some(&(start, d, len)) if c == b')' && d == depth => {
                            open.pop();
                            found.truncate(len);
                            found.push(Span::new(start, q + 1));
                        }
                        _ => open.clear(),
                    }
                    depth -= 1;
                    prev = c;
                    q += 1;
                }
                _ if c.is_ascii_lowercase() && self.ident_boundary(q) => {
                    if let Some(e) = self.array_end(q) {
                        found.push(Span::new(q, e));
                        q = e;
                        prev = b']';
                    } else if tuples
                        && c == b'b'
                        && self.at(q + 1) == b'('
                        && value_start(prev)
                        && self.tuple_like(q + 1, 0)
                    {
                        depth += 1;
                        open.push((q, depth, found.len()));
                        q += 2;
                        prev = b'(';
                    } else {
                        open.clear();
                        q = self.name_end(q);
                        prev = b'a';
                    }
                }
                _ => {
                    // Strings, names, numbers, `=`, `%`, ...: not in a shape.
                    open.clear();
                    if c == b'"' {
                        q = self.string_end(q);
                    } else if is_name_char(c) {
                        q = self.name_end(q);
                        prev = b'a';
                        continue;
                    } else {
                        q += 1;
                    }
                    prev = c;
                    if matches!(c, b'[' | b'{') {
                        depth += 1;
                    }
                }
            }
        }
        n
    }

    /// Whether an instruction (`[ROOT] [%]name = <shape>`) starts at `p`.
    fn instruction_at(&self, p: usize) -> bool {
        let mut q = p;
        if self.src[q..].starts_with(b"ROOT") && matches!(self.at(q + 4), b' ' | b'\t') {
            q = self.blanks(q + 4);
        }
        if self.at(q) == b'%' {
            q += 1;
        }
        if !is_name_start(self.at(q)) {
            return false;
        }
        q = self.blanks(self.name_end(q));
        if self.at(q) != b'=' || self.at(q + 1) == b'=' {
            return false;
        }
        q = self.trivia(q + 1);
        let c = self.at(q);
        c == b'(' || c.is_ascii_lowercase()
    }

    /// The whole input.
    fn scan(&mut self) {
        let n = self.src.len();
        let mut p = 0;
        while !self.sink.stopped() {
            p = self.trivia(p);
            if p >= n {
                break;
            }
            let c = self.src[p];
            let word_end = self.name_end(p);
            let word = &self.src[p..word_end];
            p = if word == b"HloModule" {
                self.module(p, word_end)
            } else if self.instruction_at(p) {
                self.instruction(p, None)
            } else if is_name_start(c) || c == b'%' {
                self.computation(p)
            } else {
                self.stray(p)
            };
        }
    }

    /// Text outside the structure: the rest of the line, its shapes reported
    /// as `other`. Always makes progress.
    fn stray(&mut self, p: usize) -> usize {
        let mut found = Vec::new();
        let mut e = self.walk(p, Stop::Line, true, &mut found);
        if e == p {
            e = p + 1;
        }
        if !found.is_empty() {
            let line = self.line(p);
            self.sink.other(line, &found);
        }
        e
    }

    /// An `HloModule name, attr=value, ...` header (one line).
    fn module(&mut self, p: usize, word_end: usize) -> usize {
        let line = self.line(p);
        let name_start = self.blanks(word_end);
        let name_end = self.name_end(name_start);
        let mut rec = ModuleRec {
            name: Span::new(name_start, name_end),
            line,
            entry: None,
            attributes: Vec::new(),
        };
        let mut q = name_end;
        let mut found = Vec::new();
        loop {
            q = self.blanks(q);
            if self.at(q) != b',' {
                break;
            }
            let a = self.blanks(q + 1);
            let a_end = self.name_end(a);
            let attr = Span::new(a, a_end);
            let eq = self.blanks(a_end);
            if self.at(eq) != b'=' {
                q = a_end.max(q + 1);
                continue;
            }
            let v = self.blanks(eq + 1);
            if &self.src[a..a_end] == b"entry_computation_layout" && rec.entry.is_none() {
                if let Some((params, result, end)) = self.entry_layout(v) {
                    rec.entry = Some((params, result));
                    q = end;
                    continue;
                }
            }
            found.clear();
            q = self.walk(v, Stop::Value, true, &mut found);
            rec.attributes.extend(found.iter().map(|&s| (attr, s)));
        }
        // Anything else on the line.
        found.clear();
        let end = self.walk(q, Stop::Line, true, &mut found);
        rec.attributes
            .extend(found.iter().map(|&s| (Span::new(q, q), s)));
        self.sink.module(&rec);
        end.max(q)
    }

    /// `{(shape, ...)->shape}` at `p`: parameters, result, end.
    fn entry_layout(&self, p: usize) -> Option<(Vec<Span>, Span, usize)> {
        if self.at(p) != b'{' {
            return None;
        }
        let mut q = self.trivia(p + 1);
        if self.at(q) != b'(' {
            return None;
        }
        let mut params = Vec::new();
        q = self.trivia(q + 1);
        if self.at(q) == b')' {
            q += 1;
        } else {
            loop {
                let s = self.expected_shape(q)?;
                params.push(s);
                q = self.trivia(s.end);
                match self.at(q) {
                    b',' => q = self.trivia(q + 1),
                    b')' => {
                        q += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        q = self.trivia(q);
        if !self.src[q..].starts_with(b"->") {
            return None;
        }
        let result = self.expected_shape(self.trivia(q + 2))?;
        q = self.trivia(result.end);
        if self.at(q) != b'}' {
            return None;
        }
        Some((params, result, q + 1))
    }

    /// A computation: `[ENTRY] [%]name [(params) -> shape] { instructions }`.
    /// Anything else starting with a name is a stray line.
    fn computation(&mut self, p: usize) -> usize {
        let mut q = p;
        let mut entry = false;
        if self.src[q..].starts_with(b"ENTRY") && matches!(self.at(q + 5), b' ' | b'\t' | b'%') {
            entry = true;
            q = self.blanks(q + 5);
        }
        let name_start = q;
        if self.at(q) == b'%' {
            q += 1;
        }
        if !is_name_start(self.at(q)) {
            return self.stray(p);
        }
        let name_end = self.name_end(q);
        q = self.trivia(name_end);
        let mut params = Vec::new();
        let mut result = None;
        if self.at(q) == b'(' {
            match self.signature(q) {
                Some((ps, r, end)) => {
                    params = ps;
                    result = r;
                    q = self.trivia(end);
                }
                None => return self.stray(p),
            }
        }
        if self.at(q) != b'{' {
            return self.stray(p);
        }
        let line = self.line(p);
        let src = self.src;
        self.sink.computation(&CompRec {
            label: &src[name_start..name_end],
            entry,
            nested: false,
            line,
            params,
            result,
        });
        let end = self.body(q + 1, &src[name_start..name_end]);
        if self.at(end) == b'}' {
            end + 1
        } else {
            end
        }
    }

    /// `(name: shape, ...) [-> shape]` at the `(` at `p`.
    #[allow(clippy::type_complexity)]
    fn signature(&self, p: usize) -> Option<(Vec<(Span, Span)>, Option<Span>, usize)> {
        let mut params = Vec::new();
        let mut q = self.trivia(p + 1);
        if self.at(q) == b')' {
            q += 1;
        } else {
            loop {
                let mut n0 = q;
                if self.at(n0) == b'%' {
                    n0 += 1;
                }
                if !is_name_start(self.at(n0)) {
                    return None;
                }
                let n1 = self.name_end(n0);
                let colon = self.trivia(n1);
                if self.at(colon) != b':' {
                    return None;
                }
                let s = self.expected_shape(self.trivia(colon + 1))?;
                params.push((Span::new(q, n1), s));
                q = self.trivia(s.end);
                match self.at(q) {
                    b',' => q = self.trivia(q + 1),
                    b')' => {
                        q += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        let r = self.trivia(q);
        if self.src[r..].starts_with(b"->") {
            let s = self.expected_shape(self.trivia(r + 2))?;
            return Some((params, Some(s), s.end));
        }
        Some((params, None, q))
    }

    /// Instructions up to the closing `}` (returned, not consumed).
    fn body(&mut self, mut p: usize, computation: &[u8]) -> usize {
        let n = self.src.len();
        while !self.sink.stopped() {
            p = self.trivia(p);
            if p >= n || self.src[p] == b'}' {
                return p;
            }
            p = if self.instruction_at(p) {
                self.instruction(p, Some(computation))
            } else {
                self.stray(p)
            };
        }
        n
    }

    /// `[ROOT] [%]name = shape opcode(operands), attr=value, ...` at `p`.
    fn instruction(&mut self, p: usize, computation: Option<&[u8]>) -> usize {
        let line = self.line(p);
        let mut q = p;
        let mut root = false;
        if self.src[q..].starts_with(b"ROOT") && matches!(self.at(q + 4), b' ' | b'\t') {
            root = true;
            q = self.blanks(q + 4);
        }
        let name_start = q;
        if self.at(q) == b'%' {
            q += 1;
        }
        let name = Span::new(name_start, self.name_end(q));
        q = self.trivia(self.blanks(name.end) + 1); // past `=`
        let result = self.expected_shape(q).unwrap_or(Span::new(q, q));
        q = self.trivia(result.end);
        let opcode = Span::new(q, self.name_end(q));
        q = self.blanks(opcode.end);
        let mut operands = Vec::new();
        if self.at(q) == b'(' {
            let tuples = &self.src[opcode.start..opcode.end] != b"constant";
            let e = self.walk(q + 1, Stop::Closer, tuples, &mut operands);
            q = if self.at(e) == b')' { e + 1 } else { e };
        }
        let mut attributes = Vec::new();
        let mut found = Vec::new();
        loop {
            let r = self.trivia(q);
            if self.at(r) != b',' {
                break;
            }
            let a = self.trivia(r + 1);
            let a_end = self.name_end(a);
            let attr = Span::new(a, a_end);
            let eq = self.trivia(a_end);
            let v = if self.at(eq) == b'=' {
                self.trivia(eq + 1)
            } else {
                eq
            };
            if self.at(v) == b'{' && self.instruction_at(self.trivia(v + 1)) {
                // A nested computation, written inline.
                let mut label = self.src[name.start..name.end].to_vec();
                label.push(b'.');
                label.extend_from_slice(&self.src[attr.start..attr.end]);
                let nested_line = self.line(v);
                self.sink.computation(&CompRec {
                    label: &label,
                    entry: false,
                    nested: true,
                    line: nested_line,
                    params: Vec::new(),
                    result: None,
                });
                let e = self.body(v + 1, &label);
                q = if self.at(e) == b'}' { e + 1 } else { e };
            } else {
                found.clear();
                let e = self.walk(v, Stop::Value, true, &mut found);
                attributes.extend(found.iter().map(|&s| (attr, s)));
                // Always make progress past the comma.
                q = e.max(r + 1);
            }
        }
        self.sink.instruction(&InstrRec {
            computation,
            line,
            name,
            root,
            opcode,
            result,
            operands,
            attributes,
        });
        q
    }
}

// ---------------------------------------------------------------------------
// Evaluating shapes.

/// Memory space and size of one array leaf.
type Leaf = (i64, Option<u64>);

/// A shape found and what it amounts to.
type Evaluated = (Span, Eval);

/// What a shape's text amounts to.
struct Eval {
    shape_type: Option<&'static str>,
    /// `None`: unknown (a `?` dimension, an overflow) or an error.
    bytes: Option<u64>,
    leaves: Vec<Leaf>,
    error: Option<String>,
}

impl Eval {
    /// The memory space summary: one space, several, or none.
    fn space(&self) -> Space {
        let mut it = self.leaves.iter().map(|l| l.0);
        match it.next() {
            None => Space::None,
            Some(first) if it.all(|s| s == first) => Space::One(first),
            Some(_) => Space::Mixed,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Space {
    None,
    One(i64),
    Mixed,
}

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
        Shape::Tuple(t) => {
            for e in t.iter() {
                leaves(&e, out);
            }
        }
        Shape::Token | Shape::Opaque => {}
    }
}

fn evaluate(text: &[u8]) -> Eval {
    let failed = |error: String| Eval {
        shape_type: None,
        bytes: None,
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
        Shape::Array(_) => "array",
        Shape::Tuple(_) => "tuple",
        Shape::Buffer(_) => "buffer",
        Shape::Token => "token",
        Shape::Opaque => "opaque",
    };
    let mut out = Vec::new();
    leaves(&shape, &mut out);
    let bytes = out
        .iter()
        .try_fold(0u64, |acc, l| l.1.and_then(|b| acc.checked_add(b)));
    Eval {
        shape_type: Some(shape_type),
        bytes,
        leaves: out,
        error: None,
    }
}

// ---------------------------------------------------------------------------
// The report: JSON lines or a table, and the totals.

/// Name of a memory space in the totals (others go by their number).
fn space_label(s: i64) -> Option<&'static str> {
    match s {
        0 => Some("device"),
        1 => Some("fast/VMEM"),
        5 => Some("host"),
        _ => None,
    }
}

#[derive(Default)]
struct SpaceTotal {
    bytes: u128,
    arrays: u64,
    unknown: u64,
}

#[derive(Default)]
struct Found {
    results: u64,
    operands: u64,
    attributes: u64,
    parameters: u64,
    entry_layout: u64,
    other: u64,
}

impl Found {
    fn total(&self) -> u64 {
        self.results
            + self.operands
            + self.attributes
            + self.parameters
            + self.entry_layout
            + self.other
    }
}

/// The table section key of a module header (no computation is named so).
const MODULE_SECTION: &[u8] = b"\0module";

/// One table row.
struct Row {
    /// Index into `Report::labels` (the computation heading).
    section: usize,
    name: RowName,
    /// `None` for an entry layout row.
    opcode: Option<Span>,
    bytes: Cell,
    /// `Space::None` also for a shape that failed to parse.
    space: Space,
    shape: Span,
}

enum RowName {
    Instruction { name: Span, root: bool },
    EntryParameter(usize),
    EntryResult,
}

enum Cell {
    Bytes(u64),
    Unknown,
    Error,
}

/// A shape that failed to parse, for the table's error list.
struct Failure {
    line: usize,
    who: String,
    shape: Span,
    error: String,
}

struct Report<'a, W: Write> {
    src: &'a [u8],
    json: bool,
    out: W,
    buf: Vec<u8>,
    write_failed: bool,
    /// The reader went away (`| head`): stop quietly.
    broken_pipe: bool,
    // Table mode.
    labels: Vec<String>,
    section: usize,
    section_comp: Vec<u8>,
    rows: Vec<Row>,
    failures: Vec<Failure>,
    // Both.
    totals: BTreeMap<i64, SpaceTotal>,
    found: Found,
    instructions: u64,
    computations: u64,
    errors: u64,
}

fn lossy(b: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(b)
}

/// Appends `s` as a JSON string.
fn json_str(buf: &mut Vec<u8>, s: &[u8]) {
    let s = lossy(s);
    buf.push(b'"');
    for c in s.chars() {
        match c {
            '"' => buf.extend_from_slice(b"\\\""),
            '\\' => buf.extend_from_slice(b"\\\\"),
            '\n' => buf.extend_from_slice(b"\\n"),
            '\r' => buf.extend_from_slice(b"\\r"),
            '\t' => buf.extend_from_slice(b"\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(VecWriter(buf), "\\u{:04x}", c as u32);
            }
            c => {
                let mut tmp = [0u8; 4];
                buf.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
            }
        }
    }
    buf.push(b'"');
}

/// `fmt::Write` into a byte buffer.
struct VecWriter<'b>(&'b mut Vec<u8>);

impl std::fmt::Write for VecWriter<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

impl<'a, W: Write> Report<'a, W> {
    fn new(src: &'a [u8], json: bool, out: W) -> Self {
        Report {
            src,
            json,
            out,
            buf: Vec::with_capacity(4096),
            write_failed: false,
            broken_pipe: false,
            labels: vec![String::new()],
            section: 0,
            section_comp: MODULE_SECTION.to_vec(),
            rows: Vec::new(),
            failures: Vec::new(),
            totals: BTreeMap::new(),
            found: Found::default(),
            instructions: 0,
            computations: 0,
            errors: 0,
        }
    }

    fn text(&self, s: Span) -> &'a [u8] {
        &self.src[s.start..s.end]
    }

    /// Evaluates a shape; counts and remembers a failure.
    fn eval(&mut self, s: Span, line: usize, who: impl FnOnce() -> String) -> Eval {
        let e = evaluate(self.text(s));
        if let Some(err) = &e.error {
            self.errors += 1;
            if !self.json {
                self.failures.push(Failure {
                    line,
                    who: who(),
                    shape: s,
                    error: err.clone(),
                });
            }
        }
        e
    }

    /// Appends the fields of a shape object (no braces).
    fn shape_fields(&mut self, s: Span, e: &Eval) {
        let text = self.text(s);
        let b = &mut self.buf;
        b.extend_from_slice(b"\"shape\":");
        json_str(b, text);
        let _ = write!(VecWriter(b), ",\"span\":[{},{}]", s.start, s.end);
        match e.shape_type {
            Some(t) => {
                let _ = write!(VecWriter(b), ",\"shape_type\":\"{t}\"");
            }
            None => b.extend_from_slice(b",\"shape_type\":null"),
        }
        match e.bytes {
            Some(n) => {
                let _ = write!(VecWriter(b), ",\"bytes\":{n}");
            }
            None => b.extend_from_slice(b",\"bytes\":null"),
        }
        match e.space() {
            Space::One(n) => {
                let _ = write!(VecWriter(b), ",\"memory_space\":{n}");
            }
            Space::Mixed => b.extend_from_slice(b",\"memory_space\":\"mixed\""),
            Space::None => b.extend_from_slice(b",\"memory_space\":null"),
        }
        b.extend_from_slice(b",\"leaf_memory_spaces\":[");
        for (i, l) in e.leaves.iter().enumerate() {
            if i > 0 {
                b.push(b',');
            }
            let _ = write!(VecWriter(b), "{}", l.0);
        }
        b.extend_from_slice(b"],\"error\":");
        match &e.error {
            Some(err) => json_str(b, err.as_bytes()),
            None => b.extend_from_slice(b"null"),
        }
    }

    /// A whole shape object.
    fn shape_object(&mut self, s: Span, e: &Eval, key: Option<(&str, Span)>) {
        self.buf.push(b'{');
        if let Some((k, name)) = key {
            let _ = write!(VecWriter(&mut self.buf), "\"{k}\":");
            let t = self.text(name);
            json_str(&mut self.buf, t);
            self.buf.push(b',');
        }
        self.shape_fields(s, e);
        self.buf.push(b'}');
    }

    /// Writes the buffered JSON line.
    fn flush_line(&mut self) {
        self.buf.push(b'\n');
        let line = std::mem::take(&mut self.buf);
        self.emit(&line);
        self.buf = line;
        self.buf.clear();
    }

    fn space_cell(e: &Eval) -> Space {
        if e.error.is_some() {
            Space::None
        } else {
            e.space()
        }
    }

    fn row_name(&self, r: &Row) -> std::borrow::Cow<'a, str> {
        match r.name {
            RowName::Instruction { name, root: false } => lossy(self.text(name)),
            RowName::Instruction { name, root: true } => {
                format!("ROOT {}", lossy(self.text(name))).into()
            }
            RowName::EntryParameter(i) => format!("(parameter {i})").into(),
            RowName::EntryResult => "(result)".into(),
        }
    }

    fn row_opcode(&self, r: &Row) -> std::borrow::Cow<'a, str> {
        r.opcode
            .map_or("(entry layout)".into(), |o| lossy(self.text(o)))
    }

    fn bytes_cell(e: &Eval) -> Cell {
        match (&e.error, e.bytes) {
            (Some(_), _) => Cell::Error,
            (None, Some(n)) => Cell::Bytes(n),
            (None, None) => Cell::Unknown,
        }
    }

    /// Starts a table section; `comp` is the computation its instructions
    /// belong to (`MODULE_SECTION` for a module header).
    fn new_section(&mut self, heading: String, comp: Vec<u8>) {
        self.labels.push(heading);
        self.section = self.labels.len() - 1;
        self.section_comp = comp;
    }

    fn finish(mut self) -> ExitCode {
        if self.json {
            self.json_totals();
        } else {
            self.table();
        }
        if !self.write_failed {
            if let Err(e) = self.out.flush() {
                self.write_failed = true;
                self.broken_pipe = e.kind() == io::ErrorKind::BrokenPipe;
            }
        }
        if self.write_failed {
            if !self.broken_pipe {
                eprintln!("layout scan: cannot write the output");
            }
            return ExitCode::from(3);
        }
        if self.errors > 0 {
            eprintln!("layout scan: {} shape(s) failed to parse", self.errors);
            return ExitCode::from(1);
        }
        ExitCode::SUCCESS
    }

    fn json_totals(&mut self) {
        let f = &self.found;
        let b = &mut self.buf;
        let _ = write!(
            VecWriter(b),
            "{{\"kind\":\"totals\",\"instructions\":{},\"computations\":{},\"shapes\":{},\"errors\":{},\
             \"found\":{{\"results\":{},\"operands\":{},\"attributes\":{},\"parameters\":{},\"entry_layout\":{},\"other\":{}}},\
             \"memory_spaces\":[",
            self.instructions,
            self.computations,
            f.total(),
            self.errors,
            f.results,
            f.operands,
            f.attributes,
            f.parameters,
            f.entry_layout,
            f.other
        );
        for (i, (space, t)) in self.totals.iter().enumerate() {
            if i > 0 {
                b.push(b',');
            }
            let _ = write!(
                VecWriter(b),
                "{{\"memory_space\":{space},\"label\":{},\"bytes\":{},\"arrays\":{},\"unknown_arrays\":{}}}",
                space_label(*space).map_or("null".into(), |l| format!("\"{l}\"")),
                t.bytes,
                t.arrays,
                t.unknown
            );
        }
        b.extend_from_slice(b"]}");
        self.flush_line();
    }

    fn table(&mut self) {
        const MAX_NAME: usize = 48;
        const MAX_OPCODE: usize = 24;
        let name_w = self
            .rows
            .iter()
            .map(|r| match r.name {
                RowName::Instruction { name, root } => {
                    name.end - name.start + if root { 5 } else { 0 }
                }
                _ => self.row_name(r).len(),
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
        let cell = |c: &Cell| -> std::borrow::Cow<'static, str> {
            match c {
                Cell::Bytes(n) => n.to_string().into(),
                Cell::Unknown => "?".into(),
                Cell::Error => "error".into(),
            }
        };
        let space = |s: Space| -> std::borrow::Cow<'static, str> {
            match s {
                Space::One(n) => format!("S({n})").into(),
                Space::Mixed => "mixed".into(),
                Space::None => "-".into(),
            }
        };
        let max_bytes = self
            .rows
            .iter()
            .filter_map(|r| match r.bytes {
                Cell::Bytes(n) => Some(n),
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
        let mut out = std::mem::take(&mut self.buf);
        let _ = writeln!(
            VecWriter(&mut out),
            "{:<name_w$}  {:<op_w$}  {:>bytes_w$}  {:<space_w$}  SHAPE",
            "NAME",
            "OPCODE",
            "BYTES",
            "SPACE"
        );
        let mut section = usize::MAX;
        let rows = std::mem::take(&mut self.rows);
        for r in &rows {
            if r.section != section {
                section = r.section;
                let _ = writeln!(VecWriter(&mut out), "-- {}", self.labels[section]);
            }
            let _ = write!(
                VecWriter(&mut out),
                "{:<name_w$}  {:<op_w$}  {:>bytes_w$}  {:<space_w$}  ",
                self.row_name(r),
                self.row_opcode(r),
                cell(&r.bytes),
                space(r.space)
            );
            out.extend_from_slice(self.text(r.shape));
            out.push(b'\n');
            if out.len() > 1 << 16 {
                self.emit(&out);
                out.clear();
            }
        }
        if !self.failures.is_empty() {
            let _ = writeln!(
                VecWriter(&mut out),
                "\n{} shape(s) failed to parse:",
                self.failures.len()
            );
            let failures = std::mem::take(&mut self.failures);
            for f in &failures {
                let _ = write!(VecWriter(&mut out), "  line {}  {}  `", f.line, f.who);
                out.extend_from_slice(self.text(f.shape));
                let _ = writeln!(VecWriter(&mut out), "`: {}", f.error);
                if out.len() > 1 << 16 {
                    self.emit(&out);
                    out.clear();
                }
            }
        }
        let _ = writeln!(
            VecWriter(&mut out),
            "\ntotals over instruction results (all computations; tuple leaves each in their own space):"
        );
        if self.totals.is_empty() {
            let _ = writeln!(VecWriter(&mut out), "  (no arrays)");
        }
        for (space, t) in &self.totals {
            let _ = write!(
                VecWriter(&mut out),
                "  {:<6} {:<10} {:>16} bytes  {:>11}  {} array(s)",
                format!("S({space})"),
                space_label(*space).unwrap_or(""),
                group(t.bytes),
                human(t.bytes),
                t.arrays
            );
            if t.unknown > 0 {
                let _ = write!(VecWriter(&mut out), ", {} of unknown size", t.unknown);
            }
            out.push(b'\n');
        }
        let f = &self.found;
        let _ = writeln!(
            VecWriter(&mut out),
            "shapes found: {} ({} results, {} operands, {} in attributes, {} parameters, {} entry layout, {} other) \
             in {} instruction(s), {} computation(s); {} failed to parse",
            f.total(),
            f.results,
            f.operands,
            f.attributes,
            f.parameters,
            f.entry_layout,
            f.other,
            self.instructions,
            self.computations,
            self.errors
        );
        self.emit(&out);
    }

    fn emit(&mut self, bytes: &[u8]) {
        if self.write_failed {
            return;
        }
        if let Err(e) = self.out.write_all(bytes) {
            self.write_failed = true;
            self.broken_pipe = e.kind() == io::ErrorKind::BrokenPipe;
        }
    }

    fn add_totals(&mut self, e: &Eval) {
        for &(space, bytes) in &e.leaves {
            let t = self.totals.entry(space).or_default();
            t.arrays += 1;
            match bytes {
                Some(b) => t.bytes += u128::from(b),
                None => t.unknown += 1,
            }
        }
    }
}

/// `1234567` as `1,234,567`.
fn group(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes in binary units, `(1.5 MiB)`.
fn human(n: u128) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("({n} B)")
    } else {
        format!("({v:.1} {})", UNITS[u])
    }
}

impl<W: Write> Sink for Report<'_, W> {
    fn module(&mut self, m: &ModuleRec) {
        let name = lossy(self.text(m.name)).into_owned();
        let line = m.line;
        let entry: Option<(Vec<Evaluated>, Evaluated)> = m.entry.as_ref().map(|(ps, r)| {
            let ps = ps
                .iter()
                .enumerate()
                .map(|(i, &s)| {
                    (
                        s,
                        self.eval(s, line, || format!("{name} entry parameter {i}")),
                    )
                })
                .collect();
            let r = (*r, self.eval(*r, line, || format!("{name} entry result")));
            (ps, r)
        });
        let attrs: Vec<(Span, Span, Eval)> = m
            .attributes
            .iter()
            .map(|&(a, s)| {
                let attr = lossy(self.text(a)).into_owned();
                (a, s, self.eval(s, line, || format!("{name} {attr}")))
            })
            .collect();
        if let Some((ps, _)) = &entry {
            self.found.entry_layout += ps.len() as u64 + 1;
        }
        self.found.other += attrs.len() as u64;
        if self.json {
            self.buf
                .extend_from_slice(b"{\"kind\":\"module\",\"name\":");
            let t = self.text(m.name);
            json_str(&mut self.buf, t);
            let _ = write!(
                VecWriter(&mut self.buf),
                ",\"line\":{line},\"entry_computation_layout\":"
            );
            match &entry {
                Some((ps, (rs, re))) => {
                    self.buf.extend_from_slice(b"{\"parameters\":[");
                    for (i, (s, e)) in ps.iter().enumerate() {
                        if i > 0 {
                            self.buf.push(b',');
                        }
                        self.shape_object(*s, e, None);
                    }
                    self.buf.extend_from_slice(b"],\"result\":");
                    self.shape_object(*rs, re, None);
                    self.buf.push(b'}');
                }
                None => self.buf.extend_from_slice(b"null"),
            }
            self.buf.extend_from_slice(b",\"attributes\":[");
            for (i, (a, s, e)) in attrs.iter().enumerate() {
                if i > 0 {
                    self.buf.push(b',');
                }
                self.shape_object(*s, e, Some(("attribute", *a)));
            }
            self.buf.extend_from_slice(b"]}");
            self.flush_line();
        } else {
            self.new_section(format!("HloModule {name}"), MODULE_SECTION.to_vec());
            if let Some((ps, (rs, re))) = entry {
                for (i, (s, e)) in ps.into_iter().enumerate() {
                    self.rows.push(Row {
                        section: self.section,
                        name: RowName::EntryParameter(i),
                        opcode: None,
                        bytes: Self::bytes_cell(&e),
                        space: Self::space_cell(&e),
                        shape: s,
                    });
                }
                self.rows.push(Row {
                    section: self.section,
                    name: RowName::EntryResult,
                    opcode: None,
                    bytes: Self::bytes_cell(&re),
                    space: Self::space_cell(&re),
                    shape: rs,
                });
            }
        }
    }

    fn computation(&mut self, c: &CompRec) {
        self.computations += 1;
        let label = lossy(c.label).into_owned();
        let line = c.line;
        let params: Vec<(Span, Span, Eval)> = c
            .params
            .iter()
            .map(|&(n, s)| {
                let pname = lossy(self.text(n)).into_owned();
                (
                    n,
                    s,
                    self.eval(s, line, || format!("{label} parameter {pname}")),
                )
            })
            .collect();
        let result = c
            .result
            .map(|s| (s, self.eval(s, line, || format!("{label} result"))));
        self.found.parameters += params.len() as u64 + u64::from(result.is_some());
        if self.json {
            self.buf
                .extend_from_slice(b"{\"kind\":\"computation\",\"name\":");
            json_str(&mut self.buf, c.label);
            let _ = write!(
                VecWriter(&mut self.buf),
                ",\"entry\":{},\"nested\":{},\"line\":{line},\"parameters\":[",
                c.entry,
                c.nested
            );
            for (i, (n, s, e)) in params.iter().enumerate() {
                if i > 0 {
                    self.buf.push(b',');
                }
                self.shape_object(*s, e, Some(("name", *n)));
            }
            self.buf.extend_from_slice(b"],\"result\":");
            match &result {
                Some((s, e)) => self.shape_object(*s, e, None),
                None => self.buf.extend_from_slice(b"null"),
            }
            self.buf.push(b'}');
            self.flush_line();
        } else {
            let heading = if c.nested {
                format!("{label} (nested computation)")
            } else if c.entry {
                format!("ENTRY {label}")
            } else {
                label
            };
            self.new_section(heading, c.label.to_vec());
        }
    }

    fn instruction(&mut self, i: &InstrRec) {
        self.instructions += 1;
        let line = i.line;
        // Names for error reports, made only when one is needed.
        let src = self.src;
        let name = || lossy(&src[i.name.start..i.name.end]);
        let result = self.eval(i.result, line, || format!("{} (result)", name()));
        self.add_totals(&result);
        let operands: Vec<Eval> = i
            .operands
            .iter()
            .enumerate()
            .map(|(k, &s)| self.eval(s, line, || format!("{} (operand shape {k})", name())))
            .collect();
        let attrs: Vec<Eval> = i
            .attributes
            .iter()
            .map(|&(a, s)| {
                let attr = || lossy(&src[a.start..a.end]);
                self.eval(s, line, || format!("{} ({})", name(), attr()))
            })
            .collect();
        self.found.results += 1;
        self.found.operands += operands.len() as u64;
        self.found.attributes += attrs.len() as u64;
        if self.json {
            self.buf
                .extend_from_slice(b"{\"kind\":\"instruction\",\"computation\":");
            match i.computation {
                Some(c) => json_str(&mut self.buf, c),
                None => self.buf.extend_from_slice(b"null"),
            }
            let _ = write!(VecWriter(&mut self.buf), ",\"line\":{line},\"name\":");
            let t = self.text(i.name);
            json_str(&mut self.buf, t);
            let _ = write!(VecWriter(&mut self.buf), ",\"root\":{},\"opcode\":", i.root);
            let t = self.text(i.opcode);
            json_str(&mut self.buf, t);
            self.buf.push(b',');
            self.shape_fields(i.result, &result);
            self.buf.extend_from_slice(b",\"operands\":[");
            for (k, (s, e)) in i.operands.iter().zip(&operands).enumerate() {
                if k > 0 {
                    self.buf.push(b',');
                }
                self.shape_object(*s, e, None);
            }
            self.buf.extend_from_slice(b"],\"attributes\":[");
            for (k, ((a, s), e)) in i.attributes.iter().zip(&attrs).enumerate() {
                if k > 0 {
                    self.buf.push(b',');
                }
                self.shape_object(*s, e, Some(("attribute", *a)));
            }
            self.buf.extend_from_slice(b"]}");
            self.flush_line();
        } else {
            let key = i.computation.unwrap_or(b"");
            if key != self.section_comp.as_slice() {
                // After a nested computation, or outside any computation.
                let heading = match i.computation {
                    Some(c) => format!("{} (continued)", lossy(c)),
                    None => "(outside any computation)".into(),
                };
                self.new_section(heading, key.to_vec());
            }
            self.rows.push(Row {
                section: self.section,
                name: RowName::Instruction {
                    name: i.name,
                    root: i.root,
                },
                opcode: Some(i.opcode),
                bytes: Self::bytes_cell(&result),
                space: Self::space_cell(&result),
                shape: i.result,
            });
        }
    }

    fn other(&mut self, line: usize, shapes: &[Span]) {
        let evals: Vec<Eval> = shapes
            .iter()
            .map(|&s| self.eval(s, line, || "(outside an instruction)".into()))
            .collect();
        self.found.other += shapes.len() as u64;
        if self.json {
            let _ = write!(
                VecWriter(&mut self.buf),
                "{{\"kind\":\"other\",\"line\":{line},\"shapes\":["
            );
            for (k, (s, e)) in shapes.iter().zip(&evals).enumerate() {
                if k > 0 {
                    self.buf.push(b',');
                }
                self.shape_object(*s, e, None);
            }
            self.buf.extend_from_slice(b"]}");
            self.flush_line();
        }
    }

    fn stopped(&self) -> bool {
        self.write_failed
    }
}
