//! Validated shapes of every kind: arrays, tuples, buffers, tokens and
//! opaque values, and [`parse`], which reads and validates one.

use core::fmt::{self, Display, Formatter};

use crate::base::error::{Error, Span};
use crate::base::konst::tri;
use crate::model::array::ArrayShape;
use crate::rules::{buffer, validate};
use crate::text::parse::{parse_element, parse_raw, RawShape, RawTuple};
use crate::text::print::write_tuple;

/// Any shape XLA can write: an array, a tuple, a buffer, a token or an
/// opaque handle. Every array in it is validated.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse, Shape};
/// assert!(matches!(parse("f32[2]").unwrap(), Shape::Array(_)));
/// assert!(matches!(parse("token[]").unwrap(), Shape::Token));
/// assert_eq!(parse("b(f32[2])").unwrap().to_string(), "b(f32[2]{0})");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)] // no heap to box into; shapes are plain values
pub enum Shape<'a> {
    /// An array `f32[2,3]{1,0}`.
    Array(ArrayShape),
    /// A tuple `(f32[2], s8[])`.
    Tuple(TupleShape<'a>),
    /// A buffer `b(f32[2])` around an array.
    Buffer(ArrayShape),
    /// `token[]`.
    Token,
    /// `opaque[]`.
    Opaque,
}

impl Shape<'_> {
    /// The array, for arrays (not for buffers).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse;
    /// let s = parse("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(s.as_array().unwrap().offset(&[2, 3]), Ok(17));
    /// assert!(parse("b(f32[3,5])").unwrap().as_array().is_none());
    /// ```
    pub const fn as_array(&self) -> Option<&ArrayShape> {
        match self {
            Shape::Array(a) => Some(a),
            _ => None,
        }
    }
}

/// Parses and validates one shape of any kind; the whole text must be that
/// shape (whitespace and comments around it are fine). Syntax errors are
/// reported before rule violations.
///
/// Tuples borrow the text (their elements are re-read on iteration);
/// arrays are plain values.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::parse;
/// let s = parse("(f32[2], f32[], f32[], f32[], f32[], f32[])").unwrap();
/// assert_eq!(s.to_string(), "(f32[2]{0}, f32[], f32[], f32[], f32[], /*index=5*/f32[])");
/// assert!(parse("f32[2]{}").is_err());
/// ```
pub const fn parse(src: &str) -> Result<Shape<'_>, Error> {
    let raw = tri!(parse_raw(src));
    check(raw)
}

/// Validates every array of a shape read from text.
const fn check(raw: RawShape<'_>) -> Result<Shape<'_>, Error> {
    match raw {
        RawShape::Array(a) => Ok(Shape::Array(tri!(validate(&a)))),
        RawShape::Buffer(a) => {
            let valid = tri!(validate(&a));
            tri!(buffer::check(&a));
            Ok(Shape::Buffer(valid))
        }
        RawShape::Tuple(t) => {
            let mut pos = t.start as usize;
            let mut i = 0;
            while i < t.len {
                let (element, end) = tri!(parse_element(t.src, pos, t.depth));
                tri!(check(element));
                pos = end;
                i += 1;
            }
            Ok(Shape::Tuple(TupleShape { raw: t }))
        }
        RawShape::Token => Ok(Shape::Token),
        RawShape::Opaque => Ok(Shape::Opaque),
    }
}

/// A tuple shape: a view over the text of its elements, which were parsed
/// and validated already. Iterating re-reads them (no heap needed).
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse, Shape};
/// let s = parse("(f32[2], (s8[3], token[]), opaque[])").unwrap();
/// let Shape::Tuple(t) = s else { panic!() };
/// assert_eq!(t.len(), 3);
/// let names: Vec<String> = t.iter().map(|e| e.to_string()).collect();
/// assert_eq!(names, ["f32[2]{0}", "(s8[3]{0}, token[])", "opaque[]"]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TupleShape<'a> {
    raw: RawTuple<'a>,
}

impl<'a> TupleShape<'a> {
    /// Number of elements (nested tuples count as one).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse, Shape};
    /// let Shape::Tuple(t) = parse("(f32[2], (s8[3], token[]))").unwrap() else { panic!() };
    /// assert_eq!(t.len(), 2);
    /// ```
    pub const fn len(&self) -> usize {
        self.raw.len as usize
    }

    /// `true` for `()`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse, Shape};
    /// let Shape::Tuple(t) = parse("()").unwrap() else { panic!() };
    /// assert!(t.is_empty());
    /// ```
    pub const fn is_empty(&self) -> bool {
        self.raw.len == 0
    }

    /// The tuple's text span in the parsed input, parentheses included.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse, Shape};
    /// let text = "(f32[2], (s8[3], token[]))";
    /// let Shape::Tuple(t) = parse(text).unwrap() else { panic!() };
    /// let Some(Shape::Tuple(inner)) = t.get(1) else { panic!() };
    /// assert_eq!(&text[inner.span().range()], "(s8[3], token[])");
    /// ```
    pub const fn span(&self) -> Span {
        self.raw.span
    }

    /// The elements, in order.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse, Shape};
    /// let Shape::Tuple(t) = parse("(f32[3,5]{1,0:T(2,2)}, s8[7])").unwrap() else { panic!() };
    /// let sizes: Vec<u64> = t
    ///     .iter()
    ///     .filter_map(|e| e.as_array().map(|a| a.size_in_bytes().unwrap()))
    ///     .collect();
    /// assert_eq!(sizes, [96, 7]);
    /// ```
    pub fn iter(&self) -> TupleIter<'a> {
        TupleIter {
            src: self.raw.src,
            pos: self.raw.start as usize,
            remaining: self.raw.len,
            depth: self.raw.depth,
        }
    }

    /// Element `i` (walks the elements before it).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse, Shape};
    /// let Shape::Tuple(t) = parse("(f32[2], (s8[3], token[]), opaque[])").unwrap() else { panic!() };
    /// assert_eq!(t.get(1).unwrap().to_string(), "(s8[3]{0}, token[])");
    /// assert!(t.get(3).is_none());
    /// ```
    pub fn get(&self, i: usize) -> Option<Shape<'a>> {
        self.iter().nth(i)
    }
}

impl PartialEq for TupleShape<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.raw.len == other.raw.len && self.iter().eq(other.iter())
    }
}

impl Eq for TupleShape<'_> {}

/// Iterator over a tuple's elements, from [`TupleShape::iter`]; its size
/// hint is exact.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse, Shape};
/// let Shape::Tuple(t) = parse("(f32[2], token[], opaque[])").unwrap() else { panic!() };
/// let mut it = t.iter();
/// assert_eq!(it.size_hint(), (3, Some(3)));
/// assert!(matches!(it.next(), Some(Shape::Array(_))));
/// assert_eq!(it.size_hint(), (2, Some(2)));
/// ```
#[derive(Clone, Debug)]
pub struct TupleIter<'a> {
    src: &'a str,
    pos: usize,
    remaining: u32,
    depth: u8,
}

impl<'a> Iterator for TupleIter<'a> {
    type Item = Shape<'a>;

    fn next(&mut self) -> Option<Shape<'a>> {
        if self.remaining == 0 {
            return None;
        }
        let (raw, end) = parse_element(self.src, self.pos, self.depth).ok()?;
        self.remaining -= 1;
        self.pos = end;
        // The whole tuple passed `check` when it was parsed.
        Some(match raw {
            RawShape::Array(a) => Shape::Array(ArrayShape::from_checked(a)),
            RawShape::Buffer(a) => Shape::Buffer(ArrayShape::from_checked(a)),
            RawShape::Tuple(raw) => Shape::Tuple(TupleShape { raw }),
            RawShape::Token => Shape::Token,
            RawShape::Opaque => Shape::Opaque,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining as usize, Some(self.remaining as usize))
    }
}

impl ExactSizeIterator for TupleIter<'_> {}

impl Display for TupleShape<'_> {
    /// `(a, b, c, d, e, /*index=5*/f, ...)`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_tuple(f, self.iter())
    }
}

impl Display for Shape<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Array(a) => a.fmt(f),
            Shape::Tuple(t) => t.fmt(f),
            Shape::Buffer(a) => write!(f, "b({a})"),
            Shape::Token => f.write_str("token[]"),
            Shape::Opaque => f.write_str("opaque[]"),
        }
    }
}
