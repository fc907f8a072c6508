//! What each error kind says: its typed fields ([`ErrorDetail`]), its
//! message, its rule name and its help, one entry per kind in one table.
//! The typed sub-kinds of the kinds that have several
//! ([`RelayoutMismatch`], [`ViewMismatch`], ...) are in `subkinds`.

use core::fmt;

use crate::base::element::ElementType;
use crate::base::subkinds::{
    Capacity, NoDigitTables, RelayoutMismatch, SparseAttribute, ViewMismatch,
};

/// Declares [`ErrorKind`] and [`ErrorDetail`] from one table: per kind its
/// doc, its fields, its rule name, its help (where one helps) and its
/// message, `|f, fields| expression`.
macro_rules! error_kinds {
    ($(
        $(#[$doc:meta])*
        $kind:ident
            $({ $($(#[$fdoc:meta])* $field:ident: $fty:ty),* $(,)? })?
            $(($(#[$idoc:meta])* $inner:ty))?
        => $rule:literal $(, help $help:expr)?,
        |$f:ident $(, $bind:tt)?| $message:expr;
    )*) => {
        /// What went wrong. Each validation rule has its own kind;
        /// [`Error::detail`](crate::Error::detail) gives the numbers that
        /// explain a particular error, as typed fields.
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
            $($(#[$doc])* $kind,)*
        }

        /// An error's kind with the values that explain it, as typed fields
        /// ([`Error::detail`](crate::Error::detail)). Its `Display` is the
        /// error's message.
        ///
        /// ```
        /// # use layout_core as xla_layout;
        /// use xla_layout::{parse, ErrorDetail, ErrorKind, Span};
        /// let err = parse("f32[2,3]{2,0}").unwrap_err();
        /// let detail = err.detail();
        /// assert_eq!(
        ///     detail,
        ///     ErrorDetail::MinorToMajorOutOfRange { entry: 2, rank: 2, position: 0 }
        /// );
        /// assert_eq!(detail.kind(), ErrorKind::MinorToMajorOutOfRange);
        /// assert_eq!(detail.to_string(), err.to_string());
        /// // Details are values: made in constants, compared, turned into errors.
        /// const TOO_BIG: ErrorDetail = ErrorDetail::OutOfMemory { bytes: 1 << 40 };
        /// let e = layout_core::Error::from_detail(TOO_BIG, Span::NONE);
        /// assert_eq!(e.to_string(), "cannot allocate 1099511627776 bytes");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ErrorDetail {
            $(
                $(#[$doc])*
                $kind
                    $({ $($(#[$fdoc])* $field: $fty),* })?
                    $(($(#[$idoc])* $inner))?,
            )*
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

            /// A short name of the kind's rule ([`Error::rule`](crate::Error::rule)).
            ///
            /// ```
            /// # use layout_core as xla_layout;
            /// use xla_layout::ErrorKind;
            /// assert_eq!(ErrorKind::TrailingCombine.rule(), "tile");
            /// ```
            pub const fn rule(self) -> &'static str {
                match self {
                    $(ErrorKind::$kind => $rule,)*
                }
            }

            /// The kind's fixed help line ([`Error::help`](crate::Error::help)).
            ///
            /// ```
            /// # use layout_core as xla_layout;
            /// use xla_layout::ErrorKind;
            /// assert_eq!(ErrorKind::TailPaddingNotPositive.help(), Some("L(1) means no tail padding"));
            /// assert_eq!(ErrorKind::Empty.help(), None);
            /// ```
            pub const fn help(self) -> Option<&'static str> {
                match self {
                    $(ErrorKind::$kind => error_kinds!(@help $($help)?),)*
                }
            }
        }

        impl ErrorDetail {
            /// The kind this detail is of.
            ///
            /// ```
            /// # use layout_core as xla_layout;
            /// use xla_layout::{ErrorDetail, ErrorKind};
            /// assert_eq!(ErrorDetail::EmptyTile { tile: 0 }.kind(), ErrorKind::EmptyTile);
            /// ```
            pub const fn kind(&self) -> ErrorKind {
                match self {
                    $(ErrorDetail::$kind { .. } => ErrorKind::$kind,)*
                }
            }
        }

        impl fmt::Display for ErrorDetail {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match *self {
                    $(ErrorDetail::$kind $($bind)? => {
                        let $f = f;
                        $message
                    })*
                }
            }
        }
    };
    (@help $help:expr) => { Some($help) };
    (@help) => { None };
}

/// The help of every `minor_to_major` kind (for rank 2; `Error::help_for`
/// shows the user's rank).
pub(crate) const ROW_MAJOR_HELP: &str =
    "minor_to_major lists every dimension number exactly once, most minor first; {1,0} is row-major for rank 2";

error_kinds! {
    // --- lexical and syntax errors -------------------------------------
    /// The text is empty (or only whitespace and comments).
    Empty => "syntax", |f| f.write_str("expected a shape, found nothing");
    /// A `/*` comment has no closing `*/`.
    UnterminatedComment => "syntax", |f| f.write_str("unterminated `/*` comment");
    /// A character that cannot start any token (a lone `<`, `.`, `=`, ...).
    InvalidCharacter => "syntax", |f| f.write_str("unexpected character");
    /// An integer literal outside `i64` (XLA silently wraps these), or a
    /// dimension whose size does not fit in `i64`.
    IntegerOutOfRange {
        /// The dimension and its size, for a size that does not fit;
        /// `None` for an integer literal.
        dimension: Option<(u64, u64)>,
    } => "integer range", |f, { dimension }| match dimension {
        Some((d, size)) => write!(f, "dimension {d} has size {size}, which does not fit in i64"),
        None => f.write_str("integer does not fit in i64 (XLA would wrap it)"),
    };
    /// A specific token was expected; [`Error::expected_token`](crate::Error::expected_token) names it.
    Expected {
        /// What was expected (`` `,` or `]` ``).
        what: &'static str,
    } => "syntax", |f, { what }| write!(f, "expected {what}");
    /// An identifier that is not an element type.
    UnknownElementType => "element type",
        help "element types are pred, s1..s64, u1..u64, f16, bf16, f32, f64, f8*, f4e2m1fn, c64, c128, token, opaque",
        |f| f.write_str("unknown element type");
    /// Text after a complete shape.
    ExtraContent => "syntax", |f| f.write_str("extra content after the shape");
    /// An identifier inside a layout that is not an attribute letter.
    UnknownAttribute => "syntax",
        |f| f.write_str("unknown layout attribute (expected one of D T L # * E S SC P M)");
    /// A layout attribute out of the order `D T L # * E S SC P M`, or repeated.
    AttributeOrder {
        /// The attribute out of place, as written (`"T"`, `"SC"`, `"#"`).
        attribute: &'static str,
        /// The attribute before it, which should come after it (the same
        /// one when it is repeated).
        after: &'static str,
    } => "attribute order",
        help "layout attributes go in the order D T L # * E S SC P M, each at most once",
        |f, { attribute, after }| if attribute == after {
            write!(f, "layout attribute `{attribute}` is repeated")
        } else {
            write!(f, "layout attribute `{attribute}` must come before `{after}`")
        };
    /// A `D(...)` entry that is not `D`, `C`, `S` or `H` (with optional `+`, `~`).
    InvalidDimLevelType => "syntax",
        |f| f.write_str("expected a dimension level type (D, C, S or H)");
    /// `#(t)` or `*(t)` naming a type that is not `u1`..`u64`.
    ExpectedUnsignedType => "syntax",
        |f| f.write_str("expected an unsigned integer type (u1..u64)");
    /// `token`/`opaque` written with dimensions (`token[3]`).
    NonArrayWithDimensions {
        /// How many dimensions were written.
        rank: u64,
    } => "shape kind", help "write `token[]` or `opaque[]`",
        |f, { rank }| write!(f, "token and opaque shapes take no dimensions, found {rank}");
    /// A layout on `token[]`/`opaque[]`.
    NonArrayWithLayout => "shape kind", |f| f.write_str("token and opaque shapes take no layout");
    /// `b(...)` around something that is not an array.
    BufferOfNonArray => "shape kind", |f| f.write_str("a buffer b(...) must hold an array shape");
    /// Tuples nested deeper than [`crate::MAX_DEPTH`].
    NestingTooDeep {
        /// The deepest nesting allowed.
        max_depth: u64,
    } => "capacity", |f, { max_depth }| write!(f, "shapes nested deeper than {max_depth} levels");
    /// More dims, tiles, tile entries or split configs than the fixed capacity.
    CapacityExceeded {
        /// What was counted.
        what: Capacity,
        /// How many there were.
        count: u64,
        /// How many fit.
        capacity: u64,
    } => "capacity", |f, { what, count, capacity }|
        write!(f, "{} {count} exceeds this crate's capacity of {capacity}", what.name());
    /// A shape of another kind was required (for example an array).
    NotAnArray => "shape kind",
        help "write one array shape such as f32[3,5]{1,0}; tuples, buffers, tokens and opaque values have no single layout",
        |f| f.write_str("expected an array shape");
    // --- dimensions -----------------------------------------------------
    /// A static dimension below zero.
    NegativeDimension {
        /// The dimension.
        dimension: u64,
        /// Its size as written.
        size: i64,
    } => "dimension", |f, { dimension, size }| write!(f, "dimension {dimension} has negative size {size}");
    /// A `<=N` bound below zero.
    NegativeBound {
        /// The dimension.
        dimension: u64,
        /// Its bound as written.
        bound: i64,
    } => "dimension", |f, { dimension, bound }| write!(f, "dimension {dimension} has negative bound {bound}");
    /// The product of the dimensions does not fit in `i64`.
    ElementCountOverflow {
        /// The dimension at which the product overflows.
        dimension: u64,
        /// Its size.
        size: u64,
    } => "size overflow", |f, { dimension, size }|
        write!(f, "element count overflows i64 (dimension {dimension} of size {size})");
    /// Elements times element bytes does not fit in `i64`.
    ByteSizeOverflow {
        /// The element count.
        elements: u64,
        /// The bytes of one element.
        bytes: u64,
    } => "size overflow", |f, { elements, bytes }| write!(f, "{elements} elements of {bytes} bytes overflow i64");
    /// The tiled, padded allocation does not fit in `i64`.
    AllocationOverflow => "size overflow", |f| f.write_str("the tiled allocation overflows i64");
    // --- minor_to_major ---------------------------------------------------
    /// `minor_to_major` has a different length than the rank.
    MinorToMajorLength {
        /// Its length.
        len: u64,
        /// The shape's rank.
        rank: u64,
    } => "minor_to_major", help ROW_MAJOR_HELP, |f, { len, rank }|
        write!(f, "minor_to_major has {len} {} but the shape has rank {rank}", entries(len));
    /// A `minor_to_major` entry outside `0..rank`.
    MinorToMajorOutOfRange {
        /// The entry.
        entry: i64,
        /// The shape's rank.
        rank: u64,
        /// Where it is in `minor_to_major`.
        position: u64,
    } => "minor_to_major", help ROW_MAJOR_HELP, |f, { entry, rank, .. }| match rank {
        0 => write!(f, "minor_to_major entry {entry} is out of range for rank 0 (no entries allowed)"),
        _ => write!(f, "minor_to_major entry {entry} is out of range for rank {rank} (entries must be 0..={})", rank - 1),
    };
    /// A `minor_to_major` entry repeated.
    MinorToMajorDuplicate {
        /// The dimension listed twice.
        dimension: u64,
        /// Its first position.
        first: u64,
        /// Its second position.
        second: u64,
    } => "minor_to_major", help ROW_MAJOR_HELP, |f, { dimension, first, second }|
        write!(f, "minor_to_major lists dimension {dimension} twice (positions {first} and {second})");
    // --- tiles -------------------------------------------------------------
    /// `T()`: a tile with no entries.
    EmptyTile {
        /// The tile (0 is the first).
        tile: u64,
    } => "tile", help "write at least one entry, e.g. T(8,128)", |f, { tile }| write!(f, "tile {tile} is empty");
    /// A tile entry equal to 0.
    ZeroTileEntry {
        /// The tile.
        tile: u64,
        /// The entry in the tile.
        entry: u64,
    } => "tile", help "tile entries are positive sizes or `*`",
        |f, { tile, entry }| write!(f, "tile {tile} entry {entry} is 0; tile sizes must be at least 1");
    /// A negative tile entry (XLA aborts on these).
    NegativeTileEntry {
        /// The tile.
        tile: u64,
        /// The entry in the tile.
        entry: u64,
        /// Its value.
        value: i64,
    } => "tile", help "tile entries are positive sizes or `*`", |f, { tile, entry, value }|
        write!(f, "tile {tile} entry {entry} is negative ({value}); tile sizes must be at least 1");
    /// A `*` as the last entry of a tile: nothing more minor to combine with.
    TrailingCombine {
        /// The tile.
        tile: u64,
        /// The entry in the tile.
        entry: u64,
    } => "tile", help "`*` merges a dimension into the next more minor one; end the tile with a size",
        |f, { tile, .. }| write!(f, "tile {tile} ends with `*`, which has no more minor dimension to combine with");
    // --- other attributes ---------------------------------------------------
    /// `L(n)` with `n < 1`.
    TailPaddingNotPositive {
        /// `n`.
        alignment: i64,
    } => "tail padding L(n)", help "L(1) means no tail padding",
        |f, { alignment }| write!(f, "L({alignment}): tail padding alignment must be at least 1");
    /// `E(n)` with `n < 0`.
    NegativeElementSize {
        /// `n`.
        bits: i64,
    } => "element size E(n)", |f, { bits }| write!(f, "E({bits}): element size in bits must be at least 0");
    /// `S(n)` outside `0..=127`.
    MemorySpaceOutOfRange {
        /// `n`.
        memory_space: i64,
    } => "memory space S(n)", help "S(0) is device memory, S(1) fast memory, S(5) host memory",
        |f, { memory_space }| write!(f, "S({memory_space}): memory space must be in 0..=127");
    /// `SC(d:...)` naming a physical dimension outside `0..rank`.
    SplitDimensionOutOfRange {
        /// `d`.
        dimension: i64,
        /// The shape's rank.
        rank: u64,
    } => "split config SC(...)", |f, { dimension, rank }|
        write!(f, "SC({dimension}:...): split dimension {dimension} is out of range for rank {rank}");
    /// Two split configs on the same physical dimension.
    SplitDimensionDuplicate {
        /// The physical dimension.
        dimension: i64,
    } => "split config SC(...)", |f, { dimension }|
        write!(f, "SC({dimension}:...): physical dimension {dimension} is split twice");
    /// Split indices not strictly increasing and positive.
    SplitIndicesNotIncreasing {
        /// The physical dimension.
        dimension: i64,
        /// The index out of order.
        index: i64,
        /// The index before it (0 for the first).
        previous: i64,
    } => "split config SC(...)", |f, { dimension, index, previous }|
        write!(f, "SC({dimension}:...): split index {index} follows {previous}; indices must be positive and strictly increasing");
    /// A split index at or past the size of its dimension.
    SplitIndexOutOfBounds {
        /// The physical dimension.
        dimension: i64,
        /// The split index.
        index: i64,
        /// The dimension's size; `None` for an unbounded (`?`) one.
        size: Option<u64>,
    } => "split config SC(...)", |f, { dimension, index, size }| match size {
        None => write!(f, "SC({dimension}:...): split index {index} cannot split an unbounded (`?`) dimension"),
        Some(size) => write!(f, "SC({dimension}:...): split index {index} is out of bounds for a dimension of size {size}"),
    };
    /// A buffer `b(...)` around a tiled array.
    BufferTiled => "buffer", |f| f.write_str("a buffer b(...) cannot hold a tiled array");
    /// A buffer `b(...)` around an array with `<=N` or `?` dimensions.
    BufferDynamic {
        /// The first dynamic dimension.
        dimension: u64,
    } => "buffer", |f, { .. }|
        f.write_str("a buffer b(...) cannot hold an array with dynamic (`<=N` or `?`) dimensions");
    /// `#(...)`, `*(...)` or `P(...)`: sparse layouts are not supported.
    SparseLayout {
        /// The sparse attribute written.
        attribute: SparseAttribute,
    } => "sparse layout", help "#(..), *(..) and P(..) only describe sparse arrays, which XLA no longer has",
        |f, { attribute }| write!(f, "sparse layouts are not supported ({})", attribute.name());
    // --- legacy padding -------------------------------------------------------
    /// `padded_dimensions` has a different length than the rank.
    PaddingLength {
        /// Its length.
        len: u64,
        /// The shape's rank.
        rank: u64,
    } => "padded_dimensions", |f, { len, rank }|
        write!(f, "padded_dimensions has {len} {} but the shape has rank {rank}", entries(len));
    /// A padded dimension smaller than the dimension.
    PaddingTooSmall {
        /// The dimension.
        dimension: u64,
        /// Its padded size.
        padded: i64,
        /// Its size.
        size: u64,
    } => "padded_dimensions", |f, { dimension, padded, size }|
        write!(f, "padded dimension {dimension} is {padded}, smaller than the dimension size {size}");
    // --- index math -------------------------------------------------------------
    /// An index of the wrong length.
    IndexRank {
        /// The index's length.
        len: u64,
        /// The shape's rank.
        rank: u64,
    } => "index", |f, { len, rank }|
        write!(f, "index has {len} {} but the shape has rank {rank}", entries(len));
    /// An index entry at or past its dimension.
    IndexOutOfBounds {
        /// The dimension.
        dimension: u64,
        /// The index entry.
        index: u64,
        /// The dimension's size.
        size: u64,
    } => "index", |f, { dimension, index, size }|
        write!(f, "index {index} is out of bounds for dimension {dimension} of size {size}");
    /// The layout has `?` dimensions, so it has no static size.
    UnboundedDimension {
        /// The first unbounded dimension.
        dimension: u64,
    } => "unbounded dimension", |f, { dimension }|
        write!(f, "dimension {dimension} is unbounded (`?`), so the layout has no static size");
    /// A dimension number outside `-rank..rank`.
    DimensionNumberOutOfRange {
        /// The dimension number.
        dimension: i64,
        /// The shape's rank.
        rank: u64,
    } => "dimension number", |f, { dimension, rank }|
        write!(f, "dimension number {dimension} is out of range for rank {rank}");
    /// A different number of run-time extents than `?` dimensions.
    ExtentCount {
        /// The extents given.
        extents: u64,
        /// The `?` dimensions.
        unbounded: u64,
    } => "extents", |f, { extents, unbounded }| write!(
        f,
        "{extents} run-time {} given for {unbounded} unbounded (`?`) {}",
        if extents == 1 { "extent" } else { "extents" },
        if unbounded == 1 { "dimension" } else { "dimensions" }
    );
    /// A view's element type or length does not match its layout.
    ViewMismatch(
        /// What does not match.
        ViewMismatch
    ) => "view", |f, (why)| fmt::Display::fmt(&why, f);
    /// A layout of another rank than the `R` of a `StaticLayout<R>`.
    RankMismatch {
        /// `R`.
        expected: u64,
        /// The layout's rank.
        rank: u64,
    } => "rank", |f, { expected, rank }|
        write!(f, "the layout has rank {rank}, but a StaticLayout<{expected}> was asked for");
    /// A layout whose offsets are not per-dimension digits, where a
    /// [`StaticLayout`](crate::StaticLayout) built at run time needs them.
    NoDigitTables {
        /// Why they are not.
        reason: NoDigitTables,
        /// The most digits a dimension may have.
        digits: u64,
    } => "digit tables",
        help "build a Plan for this layout (Plan::new), or write it with the layout! macro, whose StaticLayout serves every layout",
        |f, { reason, .. }| write!(
            f,
            "a StaticLayout built at run time needs offsets that are per-dimension digits, and this layout's are not: {}",
            reason.text()
        );
    /// The same dimension asked for twice where two different ones are
    /// needed (the rows and columns of a [`LayoutGrid`](crate::LayoutGrid)).
    SameDimension {
        /// The dimension.
        dimension: u64,
    } => "dimension number", |f, { dimension }|
        write!(f, "rows and columns are both dimension {dimension}; a grid needs two different dimensions");
    /// Two layouts a relayout cannot copy between, or buffers of the wrong
    /// length: ranks, element types, slot widths, buffer sizes.
    RelayoutMismatch(
        /// What does not match.
        RelayoutMismatch
    ) => "relayout", |f, (why)| fmt::Display::fmt(&why, f);
    /// A dimension of different sizes in the two layouts of a relayout.
    DimensionMismatch {
        /// The dimension.
        dimension: u64,
        /// Its size in the source.
        src: u64,
        /// Its size in the destination.
        dst: u64,
    } => "relayout", |f, { dimension, src, dst }|
        write!(f, "dimension {dimension} has size {src} in the source and {dst} in the destination");
    /// A value written to a packed view that the element type cannot hold
    /// (9 into an `s4`, which holds -8..=7).
    ValueOutOfRange {
        /// The value.
        value: i128,
        /// The element type (`None` where the error's number names none).
        element_type: Option<ElementType>,
    } => "value", |f, { value, element_type }| {
        write!(f, "value {value} does not fit in ")?;
        match element_type {
            Some(t) if t.is_signed_integer() => {
                let half = 1i128 << (t.bit_width() - 1);
                write!(f, "{t} ({}..={})", -half, half - 1)
            }
            Some(t) if t.is_unsigned_integer() => write!(f, "{t} (0..={})", (1i128 << t.bit_width()) - 1),
            Some(t) => write!(f, "{t}"),
            None => f.write_str("the element type"),
        }
    };
    /// A buffer the library needs could not be allocated: only
    /// [`RelayoutPlan::par_run_bytes_windowed`] allocates, one window (the
    /// size it was asked for, or the whole destination when that is
    /// smaller).
    ///
    /// [`RelayoutPlan::par_run_bytes_windowed`]: crate::RelayoutPlan
    OutOfMemory {
        /// The size asked for.
        bytes: u64,
    } => "memory", |f, { bytes }| write!(f, "cannot allocate {bytes} bytes");
}

fn entries(n: u64) -> &'static str {
    if n == 1 {
        "entry"
    } else {
        "entries"
    }
}
