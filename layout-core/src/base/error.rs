//! Errors as values: a kind, the byte range of the offending text, and the
//! numbers that explain it. No allocation: messages are formatted on demand.

use core::fmt;

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

/// Declares [`ErrorKind`] from one list of variants, with
/// [`ErrorKind::ALL`] and [`ErrorKind::index`] derived from the same list.
macro_rules! error_kinds {
    ($(#[$meta:meta])* pub enum ErrorKind { $($(#[$doc:meta])* $kind:ident,)* }) => {
        $(#[$meta])*
        pub enum ErrorKind {
            $($(#[$doc])* $kind,)*
        }

        impl ErrorKind {
            /// Every kind, in declaration order (`ALL[k.index()] == k`).
            ///
            /// ```
            /// # use layout_core as xla_layout;
            /// use xla_layout::ErrorKind;
            /// assert!(ErrorKind::ALL.contains(&ErrorKind::ZeroTileEntry));
            /// assert_eq!(ErrorKind::ALL[0], ErrorKind::Empty);
            /// assert!(ErrorKind::ALL.iter().enumerate().all(|(i, k)| k.index() == i));
            /// ```
            pub const ALL: [ErrorKind; [$(ErrorKind::$kind),*].len()] = [$(ErrorKind::$kind),*];

            /// The kind's position in [`ErrorKind::ALL`], for example to
            /// count errors by kind in an array.
            ///
            /// ```
            /// # use layout_core as xla_layout;
            /// use xla_layout::ErrorKind;
            /// assert_eq!(ErrorKind::Empty.index(), 0);
            /// assert_eq!(ErrorKind::ALL[ErrorKind::TrailingCombine.index()], ErrorKind::TrailingCombine);
            /// ```
            pub const fn index(self) -> usize {
                self as usize
            }
        }
    };
}

error_kinds! {
/// What went wrong. Each validation rule has its own kind; the numbers that
/// explain a particular error are in [`Error::values`].
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse, ErrorKind};
/// assert_eq!(parse("").unwrap_err().kind(), ErrorKind::Empty);
/// assert_eq!(parse("f32[2]{0:S(200)}").unwrap_err().kind(), ErrorKind::MemorySpaceOutOfRange);
/// assert_eq!(parse("f32[2,3]{1,0:T(0,2)}").unwrap_err().kind(), ErrorKind::ZeroTileEntry);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    // --- lexical and syntax errors -------------------------------------
    /// The text is empty (or only whitespace and comments).
    Empty,
    /// A `/*` comment has no closing `*/`.
    UnterminatedComment,
    /// A character that cannot start any token (a lone `<`, `.`, `=`, ...).
    InvalidCharacter,
    /// An integer literal outside `i64` (XLA silently wraps these).
    IntegerOutOfRange,
    /// A specific token was expected; [`Error::expected_token`] names it.
    Expected,
    /// An identifier that is not an element type.
    UnknownElementType,
    /// Text after a complete shape.
    ExtraContent,
    /// An identifier inside a layout that is not an attribute letter.
    UnknownAttribute,
    /// A layout attribute out of the order `D T L # * E S SC P M`, or repeated.
    AttributeOrder,
    /// A `D(...)` entry that is not `D`, `C`, `S` or `H` (with optional `+`, `~`).
    InvalidDimLevelType,
    /// `#(t)` or `*(t)` naming a type that is not `u1`..`u64`.
    ExpectedUnsignedType,
    /// `token`/`opaque` written with dimensions (`token[3]`).
    NonArrayWithDimensions,
    /// A layout on `token[]`/`opaque[]`.
    NonArrayWithLayout,
    /// `b(...)` around something that is not an array.
    BufferOfNonArray,
    /// Tuples nested deeper than [`crate::MAX_DEPTH`].
    NestingTooDeep,
    /// More dims, tiles, tile entries or split configs than the fixed capacity.
    CapacityExceeded,
    /// A shape of another kind was required (for example an array).
    NotAnArray,
    // --- dimensions -----------------------------------------------------
    /// A static dimension below zero.
    NegativeDimension,
    /// A `<=N` bound below zero.
    NegativeBound,
    /// The product of the dimensions does not fit in `i64`.
    ElementCountOverflow,
    /// Elements times element bytes does not fit in `i64`.
    ByteSizeOverflow,
    /// The tiled, padded allocation does not fit in `i64`.
    AllocationOverflow,
    // --- minor_to_major ---------------------------------------------------
    /// `minor_to_major` has a different length than the rank.
    MinorToMajorLength,
    /// A `minor_to_major` entry outside `0..rank`.
    MinorToMajorOutOfRange,
    /// A `minor_to_major` entry repeated.
    MinorToMajorDuplicate,
    // --- tiles -------------------------------------------------------------
    /// `T()`: a tile with no entries.
    EmptyTile,
    /// A tile entry equal to 0.
    ZeroTileEntry,
    /// A negative tile entry (XLA aborts on these).
    NegativeTileEntry,
    /// A `*` as the last entry of a tile: nothing more minor to combine with.
    TrailingCombine,
    // --- other attributes ---------------------------------------------------
    /// `L(n)` with `n < 1`.
    TailPaddingNotPositive,
    /// `E(n)` with `n < 0`.
    NegativeElementSize,
    /// `S(n)` outside `0..=127`.
    MemorySpaceOutOfRange,
    /// `SC(d:...)` naming a physical dimension outside `0..rank`.
    SplitDimensionOutOfRange,
    /// Two split configs on the same physical dimension.
    SplitDimensionDuplicate,
    /// Split indices not strictly increasing and positive.
    SplitIndicesNotIncreasing,
    /// A split index at or past the size of its dimension.
    SplitIndexOutOfBounds,
    /// A buffer `b(...)` around a tiled array.
    BufferTiled,
    /// A buffer `b(...)` around an array with `<=N` or `?` dimensions.
    BufferDynamic,
    /// `#(...)`, `*(...)` or `P(...)`: sparse layouts are not supported.
    SparseLayout,
    // --- legacy padding -------------------------------------------------------
    /// `padded_dimensions` has a different length than the rank.
    PaddingLength,
    /// A padded dimension smaller than the dimension.
    PaddingTooSmall,
    // --- index math -------------------------------------------------------------
    /// An index of the wrong length.
    IndexRank,
    /// An index entry at or past its dimension.
    IndexOutOfBounds,
    /// The layout has `?` dimensions, so it has no static size.
    UnboundedDimension,
    /// A dimension number outside `-rank..rank`.
    DimensionNumberOutOfRange,
    /// A different number of run-time extents than `?` dimensions.
    ExtentCount,
    /// A view's element type or length does not match its layout.
    ViewMismatch,
    /// A layout of another rank than the `R` of a `StaticLayout<R>`.
    RankMismatch,
    /// A layout whose offsets are not per-dimension digits, where a
    /// [`StaticLayout`](crate::StaticLayout) built at run time needs them.
    NoDigitTables,
    /// The same dimension asked for twice where two different ones are
    /// needed (the rows and columns of a [`LayoutGrid`](crate::LayoutGrid)).
    SameDimension,
    /// Two layouts a relayout cannot copy between, or buffers of the wrong
    /// length: ranks, element types, slot widths, buffer sizes.
    RelayoutMismatch,
    /// A dimension of different sizes in the two layouts of a relayout.
    DimensionMismatch,
    /// A value written to a packed view that the element type cannot hold
    /// (9 into an `s4`, which holds -8..=7).
    ValueOutOfRange,
    /// A buffer the library needs could not be allocated (the first value
    /// is its size in bytes): only [`RelayoutPlan::par_run_bytes_windowed`]
    /// allocates, for a copy it cannot cut into windows.
    ///
    /// [`RelayoutPlan::par_run_bytes_windowed`]: crate::RelayoutPlan
    OutOfMemory,
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
        Error {
            kind: ErrorKind::Expected,
            span,
            values: [0; 3],
            expected: what,
        }
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

    /// The numbers behind the message; their meaning depends on the kind.
    /// They are `i128` so that every `i64` and `u64` is exact.
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
        use ErrorKind::*;
        match self.kind {
            Empty | UnterminatedComment | InvalidCharacter | Expected | ExtraContent
            | UnknownAttribute | InvalidDimLevelType | ExpectedUnsignedType => "syntax",
            IntegerOutOfRange => "integer range",
            UnknownElementType => "element type",
            AttributeOrder => "attribute order",
            NonArrayWithDimensions | NonArrayWithLayout | BufferOfNonArray | NotAnArray => {
                "shape kind"
            }
            NestingTooDeep | CapacityExceeded => "capacity",
            NegativeDimension | NegativeBound => "dimension",
            ElementCountOverflow | ByteSizeOverflow | AllocationOverflow => "size overflow",
            MinorToMajorLength | MinorToMajorOutOfRange | MinorToMajorDuplicate => "minor_to_major",
            EmptyTile | ZeroTileEntry | NegativeTileEntry | TrailingCombine => "tile",
            TailPaddingNotPositive => "tail padding L(n)",
            NegativeElementSize => "element size E(n)",
            MemorySpaceOutOfRange => "memory space S(n)",
            SplitDimensionOutOfRange
            | SplitDimensionDuplicate
            | SplitIndicesNotIncreasing
            | SplitIndexOutOfBounds => "split config SC(...)",
            BufferTiled | BufferDynamic => "buffer",
            SparseLayout => "sparse layout",
            PaddingLength | PaddingTooSmall => "padded_dimensions",
            IndexRank | IndexOutOfBounds => "index",
            UnboundedDimension => "unbounded dimension",
            DimensionNumberOutOfRange => "dimension number",
            ExtentCount => "extents",
            ViewMismatch => "view",
            NoDigitTables => "digit tables",
            RankMismatch => "rank",
            ValueOutOfRange => "value",
            RelayoutMismatch | DimensionMismatch => "relayout",
            SameDimension => "dimension number",
            OutOfMemory => "memory",
        }
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
        use ErrorKind::*;
        Some(match self.kind {
            AttributeOrder => "layout attributes go in the order D T L # * E S SC P M, each at most once",
            MinorToMajorLength | MinorToMajorOutOfRange | MinorToMajorDuplicate => {
                "minor_to_major lists every dimension number exactly once, most minor first; {1,0} is row-major for rank 2"
            }
            TrailingCombine => "`*` merges a dimension into the next more minor one; end the tile with a size",
            NegativeTileEntry | ZeroTileEntry => "tile entries are positive sizes or `*`",
            EmptyTile => "write at least one entry, e.g. T(8,128)",
            MemorySpaceOutOfRange => "S(0) is device memory, S(1) fast memory, S(5) host memory",
            SparseLayout => "#(..), *(..) and P(..) only describe sparse arrays, which XLA no longer has",
            NonArrayWithDimensions => "write `token[]` or `opaque[]`",
            UnknownElementType => "element types are pred, s1..s64, u1..u64, f16, bf16, f32, f64, f8*, f4e2m1fn, c64, c128, token, opaque",
            TailPaddingNotPositive => "L(1) means no tail padding",
            NotAnArray => "write one array shape such as f32[3,5]{1,0}; tuples, buffers, tokens and opaque values have no single layout",
            NoDigitTables => "build a Plan for this layout (Plan::new), or write it with the layout! macro, whose StaticLayout serves every layout",
            _ => return None,
        })
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
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ErrorKind::*;
        let [a, b, c] = self.values;
        match self.kind {
            Empty => write!(f, "expected a shape, found nothing"),
            UnterminatedComment => write!(f, "unterminated `/*` comment"),
            InvalidCharacter => write!(f, "unexpected character"),
            IntegerOutOfRange if b > 0 => write!(
                f,
                "dimension {a} has size {b}, which does not fit in i64"
            ),
            IntegerOutOfRange => write!(f, "integer does not fit in i64 (XLA would wrap it)"),
            Expected => write!(f, "expected {}", self.expected),
            UnknownElementType => write!(f, "unknown element type"),
            ExtraContent => write!(f, "extra content after the shape"),
            UnknownAttribute => write!(
                f,
                "unknown layout attribute (expected one of D T L # * E S SC P M)"
            ),
            AttributeOrder => {
                if a == b {
                    write!(f, "layout attribute `{}` is repeated", attr_letter(a))
                } else {
                    write!(
                        f,
                        "layout attribute `{}` must come before `{}`",
                        attr_letter(a),
                        attr_letter(b)
                    )
                }
            }
            InvalidDimLevelType => write!(f, "expected a dimension level type (D, C, S or H)"),
            ExpectedUnsignedType => write!(f, "expected an unsigned integer type (u1..u64)"),
            NonArrayWithDimensions => {
                write!(f, "token and opaque shapes take no dimensions, found {a}")
            }
            NonArrayWithLayout => write!(f, "token and opaque shapes take no layout"),
            BufferOfNonArray => write!(f, "a buffer b(...) must hold an array shape"),
            NestingTooDeep => write!(f, "shapes nested deeper than {a} levels"),
            CapacityExceeded => write!(
                f,
                "{} {b} exceeds this crate's capacity of {c}",
                capacity_name(a)
            ),
            NotAnArray => write!(f, "expected an array shape"),
            NegativeDimension => write!(f, "dimension {a} has negative size {b}"),
            NegativeBound => write!(f, "dimension {a} has negative bound {b}"),
            ElementCountOverflow => {
                write!(f, "element count overflows i64 (dimension {a} of size {b})")
            }
            ByteSizeOverflow => write!(f, "{a} elements of {b} bytes overflow i64"),
            AllocationOverflow => write!(f, "the tiled allocation overflows i64"),
MinorToMajorLength => write!(
                f,
                "minor_to_major has {a} {} but the shape has rank {b}",
                entries(a)
            ),
            MinorToMajorOutOfRange => {
                if b == 0 {
                    write!(
                        f,
                        "minor_to_major entry {a} is out of range for rank 0 (no entries allowed)"
                    )
                } else {
                    write!(f, "minor_to_major entry {a} is out of range for rank {b} (entries must be 0..={})", b - 1)
                }
            }
            MinorToMajorDuplicate => write!(
                f,
                "minor_to_major lists dimension {a} twice (positions {b} and {c})"
            ),
            EmptyTile => write!(f, "tile {a} is empty"),
            ZeroTileEntry => write!(f, "tile {a} entry {b} is 0; tile sizes must be at least 1"),
            NegativeTileEntry => write!(
                f,
                "tile {a} entry {b} is negative ({c}); tile sizes must be at least 1"
            ),
            TrailingCombine => write!(
                f,
                "tile {a} ends with `*`, which has no more minor dimension to combine with"
            ),
            TailPaddingNotPositive => {
                write!(f, "L({a}): tail padding alignment must be at least 1")
            }
            NegativeElementSize => write!(f, "E({a}): element size in bits must be at least 0"),
            MemorySpaceOutOfRange => write!(f, "S({a}): memory space must be in 0..=127"),
            SplitDimensionDuplicate => write!(f, "SC({a}:...): physical dimension {a} is split twice"),
            SplitIndicesNotIncreasing => write!(f, "SC({a}:...): split index {b} follows {c}; indices must be positive and strictly increasing"),
            SplitIndexOutOfBounds => {
                if c < 0 {
                    write!(f, "SC({a}:...): split index {b} cannot split an unbounded (`?`) dimension")
                } else {
                    write!(f, "SC({a}:...): split index {b} is out of bounds for a dimension of size {c}")
                }
            }
            BufferTiled => write!(f, "a buffer b(...) cannot hold a tiled array"),
            BufferDynamic => write!(f, "a buffer b(...) cannot hold an array with dynamic (`<=N` or `?`) dimensions"),
            SplitDimensionOutOfRange => write!(
                f,
                "SC({a}:...): split dimension {a} is out of range for rank {b}"
            ),
            SparseLayout => write!(f, "sparse layouts are not supported ({})", sparse_name(a)),
            PaddingLength => write!(
                f,
                "padded_dimensions has {a} {} but the shape has rank {b}",
                entries(a)
            ),
            PaddingTooSmall => write!(
                f,
                "padded dimension {a} is {b}, smaller than the dimension size {c}"
            ),
            IndexRank => write!(
                f,
                "index has {a} {} but the shape has rank {b}",
                entries(a)
            ),
            IndexOutOfBounds => write!(
                f,
                "index {b} is out of bounds for dimension {a} of size {c}"
            ),
            UnboundedDimension => write!(
                f,
                "dimension {a} is unbounded (`?`), so the layout has no static size"
            ),
            DimensionNumberOutOfRange => {
                write!(f, "dimension number {a} is out of range for rank {b}")
            }
            ExtentCount => write!(
                f,
                "{a} run-time {} given for {b} unbounded (`?`) {}",
                if a == 1 { "extent" } else { "extents" },
                if b == 1 { "dimension" } else { "dimensions" }
            ),
            ViewMismatch => match a {
                0 => write!(f, "the slice has {b} elements but the layout allocates {c}"),
                1 => view_type_mismatch(f, b, c),
                2 => write!(f, "the layout packs elements into {b} bits; a typed view needs the natural width"),
                3 => {
                    let stored = u32::try_from(b)
                        .ok()
                        .and_then(crate::base::element::ElementType::from_xla_enum_value);
                    match stored {
                        Some(t) => write!(f, "the layout stores {t}")?,
                        None => write!(f, "the layout stores another element type")?,
                    }
                    let reads = match c {
                        0 => "i8",
                        1 => "u8",
                        _ => "bool",
                    };
                    write!(f, " but the packed view reads {reads}; packed views read s1, s2, s4 as i8, u1, u2, u4 as u8 and pred as bool")
                }
                5 => write!(f, "the buffer has {b} bytes but the layout takes {c}"),
                _ => write!(f, "the layout's elements take {b} bits; a packed view needs them packed at the type's own width ({c} bits, `E({c})`)"),
            },
            ValueOutOfRange => {
                write!(f, "value {a} does not fit in ")?;
                match u32::try_from(b)
                    .ok()
                    .and_then(crate::base::element::ElementType::from_xla_enum_value)
                {
                    Some(t) if t.is_signed_integer() => {
                        let half = 1i128 << (t.bit_width() - 1);
                        write!(f, "{t} ({}..={})", -half, half - 1)
                    }
                    Some(t) if t.is_unsigned_integer() => {
                        write!(f, "{t} (0..={})", (1i128 << t.bit_width()) - 1)
                    }
                    Some(t) => write!(f, "{t}"),
                    None => write!(f, "the element type"),
                }
            }
            RankMismatch => write!(
                f,
                "the layout has rank {b}, but a StaticLayout<{a}> was asked for"
            ),
            RelayoutMismatch => {
                let name = |v: i128| {
                    u32::try_from(v)
                        .ok()
                        .and_then(crate::base::element::ElementType::from_xla_enum_value)
                };
                match a {
                    0 => write!(f, "the source has rank {b} and the destination rank {c}; a relayout needs the same dimensions"),
                    1 => match (name(b), name(c)) {
                        (Some(x), Some(y)) => write!(f, "the source stores {x} and the destination {y}; a relayout moves elements, it does not convert them"),
                        _ => write!(f, "the source and the destination store different element types"),
                    },
                    2 => write!(f, "a slot of {b} bits cannot hold an element of {c} bits (relayout copies slots of 1 to 128 bits)"),
                    3 => write!(f, "the source buffer has {b} bytes but its layout takes {c}"),
                    4 => write!(f, "the destination buffer has {b} bytes but its layout takes {c}"),
                    _ => {
                        let value = match b {
                            0 => "zero",
                            1 => "one",
                            2 => "lowest",
                            3 => "highest",
                            _ => "unknown",
                        };
                        match name(c) {
                            Some(t) => write!(f, "padding value `{value}` has no encoding for {t} here"),
                            None => write!(f, "padding value `{value}` has no encoding for this element type"),
                        }
                    }
                }
            }
            DimensionMismatch => write!(
                f,
                "dimension {a} has size {b} in the source and {c} in the destination"
            ),
            SameDimension => write!(
                f,
                "rows and columns are both dimension {a}; a grid needs two different dimensions"
            ),
            OutOfMemory => write!(f, "cannot allocate {a} bytes"),
            NoDigitTables => write!(
                f,
                "a StaticLayout built at run time needs offsets that are per-dimension digits, and this layout's are not: {}",
                match a {
                    0 => "a `*` entry combines dimensions",
                    1 => "a tile size does not divide the one it splits",
                    _ => "a dimension needs more than 4 digits",
                }
            ),
        }
    }
}

/// What a [`ErrorKind::CapacityExceeded`] error counts (its first value).
pub(crate) mod capacity {
    pub const RANK: i64 = 0;
    pub const TILES: i64 = 1;
    pub const TILE_ENTRIES: i64 = 2;
    pub const SPLIT_CONFIGS: i64 = 3;
    pub const SPLIT_INDICES: i64 = 4;
    pub const TEXT_LEN: i64 = 5;
}

/// A [`ErrorKind::CapacityExceeded`] error: `count` of `what` where at
/// most `cap` fit.
pub(crate) const fn capacity_error(what: i64, count: usize, cap: usize) -> Error {
    Error::wide(
        ErrorKind::CapacityExceeded,
        Span::NONE,
        [what as i128, count as i128, cap as i128],
    )
}

/// "the layout stores f32 but the view's element type is f64", from the
/// two XLA enum values of a [`ErrorKind::ViewMismatch`] of the first kind,
/// with a hint where another view fits the layout's type.
fn view_type_mismatch(f: &mut fmt::Formatter<'_>, layout: i128, view: i128) -> fmt::Result {
    use crate::base::element::ElementType;
    let name = |v: i128| {
        u32::try_from(v)
            .ok()
            .and_then(ElementType::from_xla_enum_value)
    };
    let stored = name(layout);
    match stored {
        Some(t) => write!(f, "the layout stores {t}")?,
        None => write!(f, "the layout stores another element type")?,
    }
    match name(view) {
        Some(t) => write!(f, " but the view's element type is {t}")?,
        None => write!(f, " than the view's element type")?,
    }
    match stored {
        Some(ElementType::Bf16 | ElementType::F16) => write!(
            f,
            "; views of bf16 and f16 use `half::bf16` and `half::f16` (the `half` feature)"
        ),
        Some(ElementType::F8e4m3fn | ElementType::F8e5m2) => write!(
            f,
            "; views of f8e4m3fn and f8e5m2 use `float8::F8E4M3` and `float8::F8E5M2` (the `float8` feature)"
        ),
        Some(ElementType::C64 | ElementType::C128) => write!(
            f,
            "; views of c64 and c128 use `num_complex::Complex<f32>` and `Complex<f64>` (the `num-complex` feature)"
        ),
        Some(t) if t.is_sub_byte() => {
            write!(f, "; sub-byte integers are read through `PackedView`")
        }
        _ => Ok(()),
    }
}

fn capacity_name(what: i128) -> &'static str {
    match i64::try_from(what) {
        Ok(capacity::RANK) => "rank",
        Ok(capacity::TILES) => "number of tiles",
        Ok(capacity::TILE_ENTRIES) => "number of tile entries",
        Ok(capacity::SPLIT_CONFIGS) => "number of split configs",
        Ok(capacity::SPLIT_INDICES) => "number of split indices",
        Ok(capacity::TEXT_LEN) => "text length in bytes",
        _ => "count",
    }
}

fn entries(n: i128) -> &'static str {
    if n == 1 {
        "entry"
    } else {
        "entries"
    }
}

fn attr_letter(index: i128) -> &'static str {
    usize::try_from(index)
        .ok()
        .and_then(|i| ["D", "T", "L", "#", "*", "E", "S", "SC", "P", "M"].get(i))
        .copied()
        .unwrap_or("?")
}

fn sparse_name(what: i128) -> &'static str {
    match what {
        0 => "index type #(..)",
        1 => "pointer type *(..)",
        _ => "physical shape P(..)",
    }
}

impl core::error::Error for Error {}
