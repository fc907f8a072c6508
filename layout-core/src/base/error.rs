//! Errors as values: a kind, the byte range of the offending text, and the
//! numbers that explain it. No allocation: messages are formatted on demand.

use core::fmt;

pub use crate::base::detail::{ErrorDetail, ErrorKind};
pub use crate::base::subkinds::{
    Capacity, NoDigitTables, PackedRead, RelayoutMismatch, SparseAttribute, ViewMismatch,
};

/// A byte range `start..end` in the parsed text.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::parse;
/// let text = "f32[2]{0:S(200)}";
/// let span = parse(text).unwrap_err().span();
/// assert_eq!((span.start, span.end), (9, 15));
/// assert_eq!(&text[span.range()], "S(200)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The empty span used for values that were not parsed from text.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Span};
    /// let s = parse_array("f32[2,3]").unwrap();
    /// let err = s.offset(&[2, 0]).unwrap_err(); // an index, not text
    /// assert_eq!(err.span(), Span::NONE);
    /// assert!(Span::NONE.range().is_empty());
    /// ```
    pub const NONE: Span = Span { start: 0, end: 0 };

    /// A span from `start` to `end` (byte offsets).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::Span;
    /// assert_eq!(Span::new(4, 9), Span { start: 4, end: 9 });
    /// ```
    pub const fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::Span;
    /// assert_eq!(Span::new(9, 15).join(Span::new(4, 6)), Span::new(4, 15));
    /// ```
    pub const fn join(self, other: Span) -> Span {
        Span {
            start: if self.start < other.start {
                self.start
            } else {
                other.start
            },
            end: if self.end > other.end {
                self.end
            } else {
                other.end
            },
        }
    }

    /// `start..end` as a `usize` range, to slice the parsed text with.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::Span;
    /// let text = "bf16[8,1,1280,16384]";
    /// assert_eq!(Span::new(9, 13).range(), 9..13);
    /// assert_eq!(&text[Span::new(9, 13).range()], "1280");
    /// ```
    pub const fn range(self) -> core::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// A parse, validation or index error: kind, span, numbers.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse, ErrorKind};
/// let err = parse("f32[2,3]{2,0}").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::MinorToMajorOutOfRange);
/// assert_eq!(&"f32[2,3]{2,0}"[err.span().range()], "2");
/// assert_eq!(
///     err.to_string(),
///     "minor_to_major entry 2 is out of range for rank 2 (entries must be 0..=1)"
/// );
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Error {
    kind: ErrorKind,
    span: Span,
    values: [i128; 3],
    expected: &'static str,
}

impl Error {
    /// An error of `kind` at `span` with up to three explanatory numbers
    /// (the ones the message of that kind prints).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{Error, ErrorKind, Span};
    /// // For `IndexOutOfBounds`: dimension, index, size.
    /// let e = Error::new(ErrorKind::IndexOutOfBounds, Span::NONE, [1, 7, 3]);
    /// assert_eq!(e.to_string(), "index 7 is out of bounds for dimension 1 of size 3");
    /// ```
    pub const fn new(kind: ErrorKind, span: Span, values: [i64; 3]) -> Error {
        Error::wide(
            kind,
            span,
            [values[0] as i128, values[1] as i128, values[2] as i128],
        )
    }

    /// An error whose numbers may be any `i64` or `u64` (indices, sizes).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{Error, ErrorKind, Span};
    /// let e = Error::wide(ErrorKind::IndexOutOfBounds, Span::NONE, [0, u64::MAX.into(), 3]);
    /// assert_eq!(e.values()[1], 18_446_744_073_709_551_615);
    /// assert_eq!(
    ///     e.to_string(),
    ///     "index 18446744073709551615 is out of bounds for dimension 0 of size 3"
    /// );
    /// ```
    pub const fn wide(kind: ErrorKind, span: Span, values: [i128; 3]) -> Error {
        Error {
            kind,
            span,
            values,
            expected: "",
        }
    }

    pub(crate) const fn expected(what: &'static str, span: Span) -> Error {
        Error::from_detail(ErrorDetail::Expected { what }, span)
    }

    /// The error that `detail` describes, at `span`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{Error, ErrorDetail, ErrorKind, RelayoutMismatch, Span};
    /// const WRONG_LENGTH: Error = Error::from_detail(
    ///     ErrorDetail::RelayoutMismatch(RelayoutMismatch::SourceLength { len: 10, size: 12 }),
    ///     Span::NONE,
    /// );
    /// assert_eq!(WRONG_LENGTH.kind(), ErrorKind::RelayoutMismatch);
    /// assert_eq!(WRONG_LENGTH.to_string(), "the source buffer has 10 bytes but its layout takes 12");
    /// ```
    pub const fn from_detail(detail: ErrorDetail, span: Span) -> Error {
        let (values, expected) = detail.encode();
        Error {
            kind: detail.kind(),
            span,
            values,
            expected,
        }
    }

    /// What went wrong, as the kind's typed fields: the numbers of
    /// [`Error::values`] with their names and types.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse, ErrorDetail};
    /// let err = parse("f32[2,3]{1,0:T(2,-4)}").unwrap_err();
    /// assert_eq!(
    ///     err.detail(),
    ///     ErrorDetail::NegativeTileEntry { tile: 0, entry: 1, value: -4 }
    /// );
    /// assert_eq!(err.detail().to_string(), err.to_string());
    /// ```
    pub const fn detail(&self) -> ErrorDetail {
        ErrorDetail::decode(self.kind, self.values, self.expected)
    }

    /// The rule that failed.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse, ErrorKind};
    /// let err = parse("f32[2,3]{1,0:T(2,*)}").unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::TrailingCombine);
    /// ```
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The byte range of the offending text (empty for values built in code).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse;
    /// let text = "(f32[2], s8[3]{0:S(200)})";
    /// let err = parse(text).unwrap_err();
    /// assert_eq!(&text[err.span().range()], "S(200)");
    /// ```
    pub const fn span(&self) -> Span {
        self.span
    }

    /// The numbers behind the message, as stored; their meaning depends on
    /// the kind ([`Error::detail`] names and types them). They are `i128`
    /// so that every `i64` and `u64` is exact.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse, ErrorKind};
    /// // `MinorToMajorOutOfRange`: the entry, the rank.
    /// let err = parse("f32[2,3]{2,0}").unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::MinorToMajorOutOfRange);
    /// assert_eq!(err.values(), [2, 2, 0]);
    /// ```
    pub const fn values(&self) -> [i128; 3] {
        self.values
    }

    /// For [`ErrorKind::Expected`], what was expected (empty for other kinds).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse, ErrorKind};
    /// let err = parse("f32[2,3").unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Expected);
    /// assert_eq!(err.expected_token(), "`,` or `]`");
    /// assert_eq!(err.to_string(), "expected `,` or `]`");
    /// ```
    pub const fn expected_token(&self) -> &'static str {
        self.expected
    }

    /// The same error at another span, for example to point into a larger
    /// text the shape was cut from.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse, Span};
    /// let err = parse("f32[2,3]{2,0}").unwrap_err();
    /// assert_eq!(err.span(), Span::new(9, 10));
    /// let moved = err.with_span(Span::new(109, 110));
    /// assert_eq!(moved.span().range(), 109..110);
    /// assert_eq!(moved.kind(), err.kind());
    /// ```
    pub const fn with_span(mut self, span: Span) -> Error {
        self.span = span;
        self
    }

    /// A short name of the rule, as used in compile errors (`minor_to_major`,
    /// `tile`, `memory space S(n)`, ...).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse;
    /// assert_eq!(parse("f32[2,3]{2,0}").unwrap_err().rule(), "minor_to_major");
    /// assert_eq!(parse("f32[2,3]{1,0:T(2,*)}").unwrap_err().rule(), "tile");
    /// assert_eq!(parse("f32[2]{0:S(200)}").unwrap_err().rule(), "memory space S(n)");
    /// ```
    pub const fn rule(&self) -> &'static str {
        self.kind.rule()
    }

    /// A hint on how to fix the problem, where one helps. Its examples are
    /// fixed (the `minor_to_major` one is for rank 2); where the shape's
    /// rank is known, [`Error::help_for`] shows one for that rank.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse;
    /// let err = parse("f32[2,3]{1,0:T(2,*)}").unwrap_err();
    /// assert_eq!(
    ///     err.help(),
    ///     Some("`*` merges a dimension into the next more minor one; end the tile with a size")
    /// );
    /// assert_eq!(parse("f32[2]{0:Q(1)}").unwrap_err().help(), None);
    /// ```
    pub const fn help(&self) -> Option<&'static str> {
        self.kind.help()
    }
}

impl Error {
    /// [`Error::help`] for a shape of rank `rank`: where the hint shows an
    /// example, it is one for that rank (row-major for rank 3 is `{2,1,0}`).
    /// Formatted on demand, without allocating.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse;
    /// let err = parse("f32[2,3,4]{3,1,0}").unwrap_err();
    /// assert_eq!(
    ///     err.help_for(3).unwrap().to_string(),
    ///     "minor_to_major lists every dimension number exactly once, most minor first; {2,1,0} is row-major for rank 3"
    /// );
    /// assert_eq!(err.help_for(0).unwrap().to_string().rsplit("; ").next(), Some("{} is row-major for rank 0"));
    /// ```
    pub fn help_for(&self, rank: usize) -> Option<impl fmt::Display> {
        use ErrorKind::*;
        match self.kind {
            MinorToMajorLength | MinorToMajorOutOfRange | MinorToMajorDuplicate => {
                Some(Help::RowMajor(rank))
            }
            _ => self.help().map(Help::Text),
        }
    }
}

/// A help line: fixed text, or one that shows the user's rank.
enum Help {
    Text(&'static str),
    RowMajor(usize),
}

impl fmt::Display for Help {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Help::Text(text) => f.write_str(text),
            Help::RowMajor(rank) => {
                f.write_str(
                    "minor_to_major lists every dimension number exactly once, most minor first; ",
                )?;
                // `{2,1,0}`; past rank 6, `{9,8,...,1,0}`.
                f.write_str("{")?;
                for (i, d) in (0..rank).rev().enumerate() {
                    if rank > 6 && i == 2 {
                        f.write_str(",...")?;
                    }
                    if rank > 6 && (2..rank - 2).contains(&i) {
                        continue;
                    }
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{d}")?;
                }
                write!(f, "}} is row-major for rank {rank}")
            }
        }
    }
}

impl fmt::Display for Error {
    /// The kind's message, with this error's numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.detail(), f)
    }
}

impl fmt::Debug for Error {
    /// Reads like the message: `MinorToMajorOutOfRange at 9..10: minor_to_major
    /// entry 2 is out of range ...` (what `unwrap()` and `?` in `main` show).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Span { start, end } = self.span;
        write!(f, "{:?} at {start}..{end}: {}", self.kind, self.detail())
    }
}

/// What a [`ErrorKind::CapacityExceeded`] error counts, by the names the
/// callers use.
pub(crate) mod capacity {
    use super::Capacity;
    pub const RANK: Capacity = Capacity::Rank;
    pub const TILES: Capacity = Capacity::Tiles;
    pub const TILE_ENTRIES: Capacity = Capacity::TileEntries;
    pub const SPLIT_CONFIGS: Capacity = Capacity::SplitConfigs;
    pub const SPLIT_INDICES: Capacity = Capacity::SplitIndices;
    pub const TEXT_LEN: Capacity = Capacity::TextLen;
}

/// A [`ErrorKind::CapacityExceeded`] error: `count` of `what` where at
/// most `cap` fit.
pub(crate) const fn capacity_error(what: Capacity, count: usize, cap: usize) -> Error {
    Error::from_detail(
        ErrorDetail::CapacityExceeded {
            what,
            count: count as u64,
            capacity: cap as u64,
        },
        Span::NONE,
    )
}

impl core::error::Error for Error {}
