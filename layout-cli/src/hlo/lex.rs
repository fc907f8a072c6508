//! Lexing HLO text: the byte-level recognisers the walker is built from.
//!
//! Each function looks at the input from a byte position and says where
//! something (trivia, a string literal, a name, an array or tuple shape, an
//! instruction head) ends. Nothing here allocates except the walks, which
//! hold the shapes inside an open tuple candidate (and [`Lexer::walk`],
//! which collects what it finds), and nothing is quadratic: every
//! look-ahead is bounded by a line or by [`MAX_LOOKAHEAD_DEPTH`].
//!
//! Positions are indices into the input; one past the end reads as byte 0
//! ([`Lexer::at`]). A slice is at most `isize::MAX` bytes long, so a
//! position plus a few bytes cannot overflow.
//!
//! Uses: nothing else in the crate (the bottom layer of `layout scan`).

/// A byte range of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
}

/// Whether `c` can be part of a name (`%fusion.3`, `add_computation`).
pub const fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-')
}

/// Whether `c` can start a name.
pub const fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

/// Where a generic walk stops (besides a closer that ends the enclosing
/// bracket, which always stops it).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Only at the enclosing closer (inside an operand list).
    Closer,
    /// At depth 0: `,` or whitespace (an attribute value).
    Value,
    /// At depth 0: a newline (rest of a line).
    Line,
}

/// Deepest tuple nesting the shape-likeness test follows.
pub const MAX_LOOKAHEAD_DEPTH: usize = 64;

/// The shapes one walk finds, found again each time they are asked for,
/// so that none is held (a line of an HLO dump can hold millions).
#[derive(Clone, Copy)]
pub struct Shapes<'a> {
    lex: Lexer<'a>,
    start: usize,
    stop: Stop,
    tuples: bool,
    len: usize,
}

impl<'a> Shapes<'a> {
    /// Walks from `start` once ([`Lexer::walk_each`]): the shapes, and where
    /// the walk stopped.
    pub fn find(lex: Lexer<'a>, start: usize, stop: Stop, tuples: bool) -> (Self, usize) {
        let mut len = 0usize;
        let end = lex.walk_each(start, stop, tuples, &mut |_| len = len.saturating_add(1));
        let shapes = Shapes {
            lex,
            start,
            stop,
            tuples,
            len,
        };
        (shapes, end)
    }

    /// No shapes.
    pub const fn none(lex: Lexer<'a>) -> Self {
        Shapes {
            lex,
            start: lex.src.len(),
            stop: Stop::Closer,
            tuples: false,
            len: 0,
        }
    }

    /// How many there are.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Passes each shape to `f`, in input order.
    pub fn for_each(&self, f: &mut dyn FnMut(Span)) {
        if self.len > 0 {
            self.lex.walk_each(self.start, self.stop, self.tuples, f);
        }
    }
}

/// The shapes of a walk not yet passed on: those inside open tuple
/// candidates, which the tuple replaces if it closes.
struct Candidates<'e> {
    /// Open candidates: (start, depth inside, `held.len()` then).
    open: Vec<(usize, usize, usize)>,
    held: Vec<Span>,
    emit: &'e mut dyn FnMut(Span),
}

impl Candidates<'_> {
    /// A shape found.
    fn push(&mut self, s: Span) {
        if self.open.is_empty() {
            (self.emit)(s);
        } else {
            self.held.push(s);
        }
    }

    /// A candidate opens at `start`, `depth` deep inside.
    fn open(&mut self, start: usize, depth: usize) {
        self.open.push((start, depth, self.held.len()));
    }

    /// A `)` ending at `end` closes the innermost candidate if it opened at
    /// `depth`: the tuple replaces what it held. False if none did.
    fn close(&mut self, depth: usize, end: usize) -> bool {
        match self.open.last() {
            Some(&(start, d, len)) if d == depth => {
                self.open.pop();
                self.held.truncate(len);
                self.push_held(Span::new(start, end));
                true
            }
            _ => false,
        }
    }

    fn push_held(&mut self, s: Span) {
        self.held.push(s);
        if self.open.is_empty() {
            self.release();
        }
    }

    /// Not tuples after all: their shapes stay.
    fn drop_all(&mut self) {
        self.open.clear();
        self.release();
    }

    fn release(&mut self) {
        for s in self.held.drain(..) {
            (self.emit)(s);
        }
    }
}

/// The recognisers, over one input.
#[derive(Clone, Copy)]
pub struct Lexer<'a> {
    /// The whole input.
    pub src: &'a [u8],
}

impl<'a> Lexer<'a> {
    /// A lexer over `src`.
    pub const fn new(src: &'a [u8]) -> Self {
        Lexer { src }
    }

    /// The byte at `p`, or 0 past the end.
    pub fn at(&self, p: usize) -> u8 {
        self.src.get(p).copied().unwrap_or(0)
    }

    /// End of a comment starting at `p`, if one does.
    pub fn comment_end(&self, p: usize) -> Option<usize> {
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
    pub fn trivia(&self, mut p: usize) -> usize {
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
    pub fn blanks(&self, mut p: usize) -> usize {
        while matches!(self.at(p), b' ' | b'\t' | b'\r') {
            p += 1;
        }
        p
    }

    /// End of a string literal starting at the `"` at `p`. Backslash escapes
    /// are skipped; a raw newline ends an unterminated string (XLA escapes
    /// newlines, so this only limits the damage of a broken dump).
    pub fn string_end(&self, p: usize) -> usize {
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
    pub fn name_end(&self, mut p: usize) -> usize {
        while p < self.src.len() && is_name_char(self.src[p]) {
            p += 1;
        }
        p
    }

    /// Whether `p` starts an identifier (not the middle of a name or number,
    /// nor a `%name`).
    pub fn ident_boundary(&self, p: usize) -> bool {
        p == 0 || {
            let b = self.src[p - 1];
            !is_name_char(b) && b != b'%'
        }
    }

    /// Whether a lowercase type name directly followed by `[` is at `p`.
    pub fn array_start(&self, p: usize) -> bool {
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
    pub fn array_end(&self, p: usize) -> Option<usize> {
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
    pub fn layout_end(&self, p: usize) -> usize {
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
    pub fn paren_end(&self, p: usize) -> Result<usize, usize> {
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
    pub fn tuple_like(&self, p: usize, depth: usize) -> bool {
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
    pub fn expected_shape(&self, p: usize) -> Option<Span> {
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

    /// Walks from `q` until `stop` (or the closer of an enclosing bracket),
    /// collecting every shape on the way into `found`; see
    /// [`Lexer::walk_each`].
    pub fn walk(&self, q: usize, stop: Stop, tuples: bool, found: &mut Vec<Span>) -> usize {
        self.walk_each(q, stop, tuples, &mut |s| found.push(s))
    }

    /// Walks from `q` until `stop` (or the closer of an enclosing bracket),
    /// passing every shape on the way to `emit`, in order: arrays anywhere
    /// outside strings and comments, and, when `tuples` is set, tuples and
    /// buffers that start where a value does (after `(`, `,`, `{` or `=`).
    /// Returns where it stopped.
    ///
    /// One pass: a tuple-like `(` opens a candidate; the arrays inside are
    /// found as usual, and replaced by the tuple when its `)` comes with
    /// nothing but shapes, commas and comments in between. Anything else
    /// drops the open candidates (their arrays stay). Only the shapes inside
    /// open candidates are held; the others are passed on at once.
    pub fn walk_each(
        &self,
        q: usize,
        stop: Stop,
        tuples: bool,
        emit: &mut dyn FnMut(Span),
    ) -> usize {
        let mut found = Candidates {
            open: Vec::new(),
            held: Vec::new(),
            emit,
        };
        let end = self.walk_in(q, stop, tuples, &mut found);
        found.drop_all();
        end
    }

    fn walk_in(&self, mut q: usize, stop: Stop, tuples: bool, found: &mut Candidates<'_>) -> usize {
        let n = self.src.len();
        let mut depth = 0usize;
        // The previous significant byte, as if the walk began after `=`.
        let mut prev = b'=';
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
                        found.open(q, depth);
                    } else {
                        found.drop_all();
                    }
                    prev = c;
                    q += 1;
                }
                b')' | b']' | b'}' => {
                    if depth == 0 {
                        return q;
                    }
                    if !(c == b')' && found.close(depth, q + 1)) {
                        found.drop_all();
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
                        found.open(q, depth);
                        q += 2;
                        prev = b'(';
                    } else {
                        found.drop_all();
                        q = self.name_end(q);
                        prev = b'a';
                    }
                }
                _ => {
                    // Strings, names, numbers, `=`, `%`, ...: not in a shape.
                    found.drop_all();
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
    pub fn instruction_at(&self, p: usize) -> bool {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &[u8], tuples: bool) -> Vec<&str> {
        let lex = Lexer::new(src);
        let (shapes, end) = Shapes::find(lex, 0, Stop::Line, tuples);
        assert_eq!(
            end,
            src.iter().position(|&b| b == b'\n').unwrap_or(src.len())
        );
        let mut out = Vec::new();
        shapes.for_each(&mut |s| out.push(std::str::from_utf8(&src[s.start..s.end]).unwrap()));
        assert_eq!(out.len(), shapes.len());
        // Found again, the same.
        let mut collected = Vec::new();
        lex.walk(0, Stop::Line, tuples, &mut collected);
        assert_eq!(collected.len(), out.len());
        out
    }

    #[test]
    fn a_closed_tuple_replaces_its_arrays() {
        assert_eq!(
            texts(b"(f32[1], (f32[2], b(f32[3]))), f32[4]{0}\nf32[5]", true),
            ["(f32[1], (f32[2], b(f32[3])))", "f32[4]{0}"]
        );
        assert_eq!(
            texts(b"x=(f32[1], f32[2]), y=f32[3]", false),
            ["f32[1]", "f32[2]", "f32[3]"]
        );
    }

    #[test]
    fn a_broken_tuple_keeps_its_arrays_in_order() {
        assert_eq!(
            texts(b"(f32[1], (f32[2], %x), f32[3]) s8[4]", true),
            ["f32[1]", "f32[2]", "f32[3]", "s8[4]"]
        );
        // Unclosed at the end of the line.
        assert_eq!(texts(b"(f32[1], (f32[2]", true), ["f32[1]", "f32[2]"]);
        assert!(texts(b"no shapes \"f32[1]\" /* f32[2] */", true).is_empty());
    }
}
