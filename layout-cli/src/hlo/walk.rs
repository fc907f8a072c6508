//! Walking HLO text: modules, computations and instructions.
//!
//! [`walk`] follows the structure of a dump (the `HloModule` header,
//! computation signatures, instructions `name = shape opcode(operands),
//! attributes`, computations nested inline in an attribute) and tells a
//! [`Sink`] what it finds, one record at a time, in input order. Records
//! hold byte spans into the input, never copies of it.
//!
//! Nested computations are followed [`MAX_NESTING`] deep; below that, a
//! nested computation's text is read as a plain attribute value (its shapes
//! become the holding instruction's attribute shapes), so no input can
//! exhaust the stack.
//!
//! Uses: [`super::lex`].

use super::lex::{is_name_start, Lexer, Shapes, Span, Stop};

/// Deepest nesting of computations written inline in an attribute
/// (`to_apply={ ... }`) that is read as computations.
pub const MAX_NESTING: usize = 64;

/// An `HloModule` header.
pub struct ModuleRec {
    /// The module's name.
    pub name: Span,
    /// 1-based line.
    pub line: usize,
    /// `entry_computation_layout`: parameters and result.
    pub entry: Option<(Vec<Span>, Span)>,
    /// Shapes in other header attributes: (attribute name, shape).
    pub attributes: Vec<(Span, Span)>,
}

/// A computation header.
pub struct CompRec<'l> {
    /// The name as written, or `<instruction>.<attribute>` when nested.
    pub label: &'l [u8],
    /// Marked `ENTRY`.
    pub entry: bool,
    /// Written inline in an instruction's attribute.
    pub nested: bool,
    /// 1-based line.
    pub line: usize,
    /// (parameter name, shape).
    pub params: Vec<(Span, Span)>,
    /// The result shape of the signature, if written.
    pub result: Option<Span>,
}

/// One instruction.
pub struct InstrRec<'l> {
    /// The label of the computation holding it (`None` outside any).
    pub computation: Option<&'l [u8]>,
    /// 1-based line.
    pub line: usize,
    /// The name as written (with its `%`, if any).
    pub name: Span,
    /// Marked `ROOT`.
    pub root: bool,
    /// The opcode.
    pub opcode: Span,
    /// The result shape (possibly empty or not a valid shape).
    pub result: Span,
    /// Shapes written among the operands.
    pub operands: Shapes<'l>,
    /// (attribute name, shape) for shapes in attribute values.
    pub attributes: Vec<(Span, Span)>,
    /// The computations named by the attributes of [`CALL_ATTRIBUTES`]
    /// (`body=%b`, `branch_computations={%t, %f}`), in order.
    pub calls: Vec<(Span, Callee)>,
}

/// The attributes whose values name computations, as XLA prints them.
pub const CALL_ATTRIBUTES: &[&[u8]] = &[
    b"calls",
    b"to_apply",
    b"condition",
    b"body",
    b"true_computation",
    b"false_computation",
    b"branch_computations",
];

/// A computation an instruction's attribute names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Callee {
    /// By name, as written (`%body.3`).
    Named(Span),
    /// Written inline in the attribute: the computation labelled
    /// `<instruction>.<attribute>`.
    Inline,
}

/// What the walker tells its consumer.
pub trait Sink {
    /// An `HloModule` header.
    fn module(&mut self, m: &ModuleRec);
    /// A computation header (its instructions follow).
    fn computation(&mut self, c: &CompRec);
    /// An instruction, after the computations nested in it.
    fn instruction(&mut self, i: &InstrRec);
    /// Shapes outside the structure above, on one line.
    fn other(&mut self, line: usize, shapes: Shapes<'_>);
    /// True once the consumer cannot take more (output closed).
    fn stopped(&self) -> bool;
}

/// Walks all of `src`, telling `sink` what it finds.
pub fn walk<S: Sink>(src: &[u8], sink: &mut S) {
    Walker {
        src,
        lex: Lexer::new(src),
        sink,
        line_pos: 0,
        line_no: 1,
    }
    .scan();
}

struct Walker<'a, 's, S: Sink> {
    src: &'a [u8],
    lex: Lexer<'a>,
    sink: &'s mut S,
    /// Monotonic line counter: position and line number there.
    line_pos: usize,
    line_no: usize,
}

impl<S: Sink> Walker<'_, '_, S> {
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

    /// The whole input.
    fn scan(&mut self) {
        let n = self.src.len();
        let mut p = 0;
        while !self.sink.stopped() {
            p = self.lex.trivia(p);
            if p >= n {
                break;
            }
            let c = self.src[p];
            let word_end = self.lex.name_end(p);
            let word = &self.src[p..word_end];
            p = if word == b"HloModule" {
                self.module(p, word_end)
            } else if self.lex.instruction_at(p) {
                self.instruction(p, None, 0)
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
        let (shapes, mut e) = Shapes::find(self.lex, p, Stop::Line, true);
        if e == p {
            e = p + 1;
        }
        if !shapes.is_empty() {
            let line = self.line(p);
            self.sink.other(line, shapes);
        }
        e
    }

    /// An `HloModule name, attr=value, ...` header (one line).
    fn module(&mut self, p: usize, word_end: usize) -> usize {
        let line = self.line(p);
        let name_start = self.lex.blanks(word_end);
        let name_end = self.lex.name_end(name_start);
        let mut rec = ModuleRec {
            name: Span::new(name_start, name_end),
            line,
            entry: None,
            attributes: Vec::new(),
        };
        let mut q = name_end;
        let mut found = Vec::new();
        loop {
            q = self.lex.blanks(q);
            if self.lex.at(q) != b',' {
                break;
            }
            let a = self.lex.blanks(q + 1);
            let a_end = self.lex.name_end(a);
            let attr = Span::new(a, a_end);
            let eq = self.lex.blanks(a_end);
            if self.lex.at(eq) != b'=' {
                q = a_end.max(q + 1);
                continue;
            }
            let v = self.lex.blanks(eq + 1);
            if &self.src[a..a_end] == b"entry_computation_layout" && rec.entry.is_none() {
                if let Some((params, result, end)) = self.entry_layout(v) {
                    rec.entry = Some((params, result));
                    q = end;
                    continue;
                }
            }
            found.clear();
            q = self.lex.walk(v, Stop::Value, true, &mut found);
            rec.attributes.extend(found.iter().map(|&s| (attr, s)));
        }
        // Anything else on the line.
        found.clear();
        let end = self.lex.walk(q, Stop::Line, true, &mut found);
        rec.attributes
            .extend(found.iter().map(|&s| (Span::new(q, q), s)));
        self.sink.module(&rec);
        end.max(q)
    }

    /// `{(shape, ...)->shape}` at `p`: parameters, result, end.
    fn entry_layout(&self, p: usize) -> Option<(Vec<Span>, Span, usize)> {
        if self.lex.at(p) != b'{' {
            return None;
        }
        let mut q = self.lex.trivia(p + 1);
        if self.lex.at(q) != b'(' {
            return None;
        }
        let mut params = Vec::new();
        q = self.lex.trivia(q + 1);
        if self.lex.at(q) == b')' {
            q += 1;
        } else {
            loop {
                let s = self.lex.expected_shape(q)?;
                params.push(s);
                q = self.lex.trivia(s.end);
                match self.lex.at(q) {
                    b',' => q = self.lex.trivia(q + 1),
                    b')' => {
                        q += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        q = self.lex.trivia(q);
        if !self.src[q..].starts_with(b"->") {
            return None;
        }
        let result = self.lex.expected_shape(self.lex.trivia(q + 2))?;
        q = self.lex.trivia(result.end);
        if self.lex.at(q) != b'}' {
            return None;
        }
        Some((params, result, q + 1))
    }

    /// A computation: `[ENTRY] [%]name [(params) -> shape] { instructions }`.
    /// Anything else starting with a name is a stray line.
    fn computation(&mut self, p: usize) -> usize {
        let mut q = p;
        let mut entry = false;
        if self.src[q..].starts_with(b"ENTRY") && matches!(self.lex.at(q + 5), b' ' | b'\t' | b'%')
        {
            entry = true;
            q = self.lex.blanks(q + 5);
        }
        let name_start = q;
        if self.lex.at(q) == b'%' {
            q += 1;
        }
        if !is_name_start(self.lex.at(q)) {
            return self.stray(p);
        }
        let name_end = self.lex.name_end(q);
        q = self.lex.trivia(name_end);
        let mut params = Vec::new();
        let mut result = None;
        if self.lex.at(q) == b'(' {
            match self.signature(q) {
                Some((ps, r, end)) => {
                    params = ps;
                    result = r;
                    q = self.lex.trivia(end);
                }
                None => return self.stray(p),
            }
        }
        if self.lex.at(q) != b'{' {
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
        let end = self.body(q + 1, &src[name_start..name_end], 0);
        if self.lex.at(end) == b'}' {
            end + 1
        } else {
            end
        }
    }

    /// `(name: shape, ...) [-> shape]` at the `(` at `p`.
    #[allow(clippy::type_complexity)]
    fn signature(&self, p: usize) -> Option<(Vec<(Span, Span)>, Option<Span>, usize)> {
        let mut params = Vec::new();
        let mut q = self.lex.trivia(p + 1);
        if self.lex.at(q) == b')' {
            q += 1;
        } else {
            loop {
                let mut n0 = q;
                if self.lex.at(n0) == b'%' {
                    n0 += 1;
                }
                if !is_name_start(self.lex.at(n0)) {
                    return None;
                }
                let n1 = self.lex.name_end(n0);
                let colon = self.lex.trivia(n1);
                if self.lex.at(colon) != b':' {
                    return None;
                }
                let s = self.lex.expected_shape(self.lex.trivia(colon + 1))?;
                params.push((Span::new(q, n1), s));
                q = self.lex.trivia(s.end);
                match self.lex.at(q) {
                    b',' => q = self.lex.trivia(q + 1),
                    b')' => {
                        q += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        let r = self.lex.trivia(q);
        if self.src[r..].starts_with(b"->") {
            let s = self.lex.expected_shape(self.lex.trivia(r + 2))?;
            return Some((params, Some(s), s.end));
        }
        Some((params, None, q))
    }

    /// Instructions up to the closing `}` (returned, not consumed);
    /// `nesting` computations deep.
    fn body(&mut self, mut p: usize, computation: &[u8], nesting: usize) -> usize {
        let n = self.src.len();
        while !self.sink.stopped() {
            p = self.lex.trivia(p);
            if p >= n || self.src[p] == b'}' {
                return p;
            }
            p = if self.lex.instruction_at(p) {
                self.instruction(p, Some(computation), nesting)
            } else {
                self.stray(p)
            };
        }
        n
    }

    /// `[ROOT] [%]name = shape opcode(operands), attr=value, ...` at `p`,
    /// in a computation `nesting` deep (0: not nested).
    fn instruction(&mut self, p: usize, computation: Option<&[u8]>, nesting: usize) -> usize {
        let line = self.line(p);
        let mut q = p;
        let mut root = false;
        if self.src[q..].starts_with(b"ROOT") && matches!(self.lex.at(q + 4), b' ' | b'\t') {
            root = true;
            q = self.lex.blanks(q + 4);
        }
        let name_start = q;
        if self.lex.at(q) == b'%' {
            q += 1;
        }
        let name = Span::new(name_start, self.lex.name_end(q));
        q = self.lex.trivia(self.lex.blanks(name.end) + 1); // past `=`
        let result = self.lex.expected_shape(q).unwrap_or(Span::new(q, q));
        q = self.lex.trivia(result.end);
        let opcode = Span::new(q, self.lex.name_end(q));
        q = self.lex.blanks(opcode.end);
        let mut operands = Shapes::none(self.lex);
        if self.lex.at(q) == b'(' {
            let tuples = &self.src[opcode.start..opcode.end] != b"constant";
            let (found, e) = Shapes::find(self.lex, q + 1, Stop::Closer, tuples);
            operands = found;
            q = if self.lex.at(e) == b')' { e + 1 } else { e };
        }
        let mut attributes = Vec::new();
        let mut calls = Vec::new();
        let mut found = Vec::new();
        loop {
            let r = self.lex.trivia(q);
            if self.lex.at(r) != b',' {
                break;
            }
            let a = self.lex.trivia(r + 1);
            let a_end = self.lex.name_end(a);
            let attr = Span::new(a, a_end);
            let eq = self.lex.trivia(a_end);
            let v = if self.lex.at(eq) == b'=' {
                self.lex.trivia(eq + 1)
            } else {
                eq
            };
            let calling = CALL_ATTRIBUTES.contains(&&self.src[attr.start..attr.end]);
            if nesting < MAX_NESTING
                && self.lex.at(v) == b'{'
                && self.lex.instruction_at(self.lex.trivia(v + 1))
            {
                if calling {
                    calls.push((attr, Callee::Inline));
                }
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
                let e = self.body(v + 1, &label, nesting + 1);
                q = if self.lex.at(e) == b'}' { e + 1 } else { e };
            } else {
                if calling {
                    self.callees(v, attr, &mut calls);
                }
                found.clear();
                let e = self.lex.walk(v, Stop::Value, true, &mut found);
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
            calls,
        });
        q
    }

    /// The computation names of the attribute value at `v`: one name, or
    /// `{name, name, ...}`; each pushed with `attr`. Reads, never consumes:
    /// the attribute's shapes are walked from `v` all the same.
    fn callees(&self, v: usize, attr: Span, calls: &mut Vec<(Span, Callee)>) {
        let name_at = |p: usize| {
            let q = if self.lex.at(p) == b'%' { p + 1 } else { p };
            is_name_start(self.lex.at(q)).then(|| Span::new(p, self.lex.name_end(q)))
        };
        if self.lex.at(v) != b'{' {
            if let Some(n) = name_at(v) {
                calls.push((attr, Callee::Named(n)));
            }
            return;
        }
        let mut p = self.lex.trivia(v + 1);
        while let Some(n) = name_at(p) {
            calls.push((attr, Callee::Named(n)));
            p = self.lex.trivia(n.end);
            if self.lex.at(p) != b',' {
                break;
            }
            p = self.lex.trivia(p + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Collects each instruction's calls as (attribute, callee text).
    struct Calls<'s>(&'s [u8], Vec<(String, String)>);

    impl Sink for Calls<'_> {
        fn module(&mut self, _: &ModuleRec) {}
        fn computation(&mut self, _: &CompRec) {}
        fn instruction(&mut self, i: &InstrRec) {
            let text = |s: Span| String::from_utf8_lossy(&self.0[s.start..s.end]).into_owned();
            for &(attr, callee) in &i.calls {
                let callee = match callee {
                    Callee::Named(n) => text(n),
                    Callee::Inline => "<inline>".into(),
                };
                self.1.push((text(attr), callee));
            }
        }
        fn other(&mut self, _: usize, _: Shapes<'_>) {}
        fn stopped(&self) -> bool {
            false
        }
    }

    #[test]
    fn calls_are_the_computations_named_by_call_attributes() {
        let src = b"ENTRY e {
  w = (s32[]) while(i), condition=%c.1, body=b-2, metadata={op_name=\"body=x\"}
  k = f32[] conditional(p, a, b), branch_computations={%t, f_1 }
  r = f32[] reduce(x, y), dimensions={0}, to_apply={
    p = f32[] parameter(0)
    ROOT q = f32[] negate(p)
  }
  s = f32[] custom-call(), custom_call_target=\"x\", api_version=API_VERSION_TYPED_FFI
}
";
        let mut sink = Calls(src, Vec::new());
        walk(src, &mut sink);
        let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter().map(|&(a, c)| (a.into(), c.into())).collect()
        };
        assert_eq!(
            sink.1,
            pairs(&[
                ("condition", "%c.1"),
                ("body", "b-2"),
                ("branch_computations", "%t"),
                ("branch_computations", "f_1"),
                ("to_apply", "<inline>"),
            ])
        );
    }
}
