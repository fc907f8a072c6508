//! The typed sub-kinds of the error kinds that have several
//! ([`RelayoutMismatch`], [`ViewMismatch`], [`Capacity`], ...), and the
//! translation of every [`ErrorDetail`] to the three numbers an `Error`
//! stores and back.

use core::fmt;

use crate::base::detail::{ErrorDetail, ErrorKind};
use crate::base::element::{ElementType, PaddingValue};

/// What a [`ErrorKind::CapacityExceeded`] error counts.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse, Capacity, ErrorDetail};
/// let deep = format!("f32[{}]", ["1"; 65].join(","));
/// let ErrorDetail::CapacityExceeded { what, .. } = parse(&deep).unwrap_err().detail() else {
///     panic!()
/// };
/// assert_eq!(what, Capacity::Rank);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Capacity {
    /// Dimensions ([`crate::MAX_RANK`]).
    Rank,
    /// Tiles ([`crate::MAX_TILES`]).
    Tiles,
    /// Tile entries, all tiles together ([`crate::MAX_TILE_ENTRIES`]).
    TileEntries,
    /// Split configs ([`crate::MAX_SPLIT_CONFIGS`]).
    SplitConfigs,
    /// Split indices, all configs together ([`crate::MAX_SPLIT_INDICES`]).
    SplitIndices,
    /// Bytes of text ([`crate::MAX_TEXT_LEN`]).
    TextLen,
    /// Something else (only in errors built by hand, with a number that
    /// names none of the above).
    Other,
}

impl Capacity {
    const ALL: [Capacity; 6] = [
        Capacity::Rank,
        Capacity::Tiles,
        Capacity::TileEntries,
        Capacity::SplitConfigs,
        Capacity::SplitIndices,
        Capacity::TextLen,
    ];

    /// What the message calls it (`rank`, `number of tiles`, ...).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::Capacity;
    /// assert_eq!(Capacity::TileEntries.name(), "number of tile entries");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Capacity::Rank => "rank",
            Capacity::Tiles => "number of tiles",
            Capacity::TileEntries => "number of tile entries",
            Capacity::SplitConfigs => "number of split configs",
            Capacity::SplitIndices => "number of split indices",
            Capacity::TextLen => "text length in bytes",
            Capacity::Other => "count",
        }
    }
}

/// The sparse attribute of a [`ErrorKind::SparseLayout`] error.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse, ErrorDetail, SparseAttribute};
/// assert_eq!(
///     parse("f32[2]{0:#(u8)}").unwrap_err().detail(),
///     ErrorDetail::SparseLayout { attribute: SparseAttribute::IndexType }
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SparseAttribute {
    /// `#(t)`.
    IndexType,
    /// `*(t)`.
    PointerType,
    /// `P(shape)`.
    PhysicalShape,
}

impl SparseAttribute {
    /// What the message calls it (`index type #(..)`, ...).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::SparseAttribute;
    /// assert_eq!(SparseAttribute::PhysicalShape.name(), "physical shape P(..)");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            SparseAttribute::IndexType => "index type #(..)",
            SparseAttribute::PointerType => "pointer type *(..)",
            SparseAttribute::PhysicalShape => "physical shape P(..)",
        }
    }
}

/// Why a layout has no per-dimension digit tables
/// ([`ErrorKind::NoDigitTables`]).
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{ErrorDetail, NoDigitTables, StaticLayout};
/// let err = StaticLayout::<5>::parse("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}").unwrap_err();
/// assert!(matches!(
///     err.detail(),
///     ErrorDetail::NoDigitTables { reason: NoDigitTables::Combine, .. }
/// ));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoDigitTables {
    /// A `*` entry combines dimensions.
    Combine,
    /// A tile size does not divide the window it splits.
    NotNested,
    /// A dimension needs more digits than the tables hold.
    TooMany,
}

impl NoDigitTables {
    pub(crate) const fn text(self) -> &'static str {
        match self {
            NoDigitTables::Combine => "a `*` entry combines dimensions",
            NoDigitTables::NotNested => "a tile size does not divide the one it splits",
            NoDigitTables::TooMany => "a dimension needs more than 4 digits",
        }
    }
}

/// The Rust type a packed view reads (the `T` of a
/// [`PackedView<T>`](crate::PackedView)).
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{ErrorDetail, PackedRead, PackedView, StaticLayout, ViewMismatch};
/// let l: StaticLayout<1> = StaticLayout::parse("u4[4]{0:E(4)}").unwrap();
/// let err = PackedView::<i8, _, 1>::new(l, &[0u8; 2]).unwrap_err();
/// let ErrorDetail::ViewMismatch(ViewMismatch::PackedType { reads, .. }) = err.detail() else {
///     panic!()
/// };
/// assert_eq!(reads, PackedRead::I8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PackedRead {
    /// `i8` (`s1`, `s2`, `s4`).
    I8,
    /// `u8` (`u1`, `u2`, `u4`).
    U8,
    /// `bool` (`pred`).
    Bool,
}

/// What a [`ErrorKind::ViewMismatch`] error is about.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{ErrorDetail, StaticLayout, View, ViewMismatch};
/// let l: StaticLayout<1> = StaticLayout::parse("f32[8]{0}").unwrap();
/// let err = View::new(l, &[0.0f32; 5]).unwrap_err();
/// assert_eq!(
///     err.detail(),
///     ErrorDetail::ViewMismatch(ViewMismatch::Length { len: 5, allocated: 8 })
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ViewMismatch {
    /// The slice is shorter than the layout's allocation.
    Length {
        /// The slice's length in elements.
        len: u64,
        /// The elements the layout allocates.
        allocated: u64,
    },
    /// The view's element type is not the layout's.
    ElementType {
        /// The layout's element type (`None` where the number names none).
        stored: Option<ElementType>,
        /// The view's (`None` where the number names none).
        view: Option<ElementType>,
    },
    /// The layout packs elements (`E(n)`), which a typed view cannot read.
    Packed {
        /// The bits per element.
        bits: u64,
    },
    /// A packed view of a type that does not read the layout's.
    PackedType {
        /// The layout's element type (`None` where the number names none).
        stored: Option<ElementType>,
        /// What the view reads.
        reads: PackedRead,
    },
    /// A packed view of a layout whose elements are not packed at the
    /// type's own width.
    PackedWidth {
        /// The layout's bits per element.
        bits: u64,
        /// The type's width in bits.
        width: u64,
    },
    /// The byte buffer is shorter than the layout.
    BufferLength {
        /// The buffer's length in bytes.
        len: u64,
        /// The bytes the layout takes.
        size: u64,
    },
}

impl fmt::Display for ViewMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ViewMismatch::Length { len, allocated } => write!(f, "the slice has {len} elements but the layout allocates {allocated}"),
            ViewMismatch::ElementType { stored, view } => view_type_mismatch(f, stored, view),
            ViewMismatch::Packed { bits } => write!(f, "the layout packs elements into {bits} bits; a typed view needs the natural width"),
            ViewMismatch::PackedType { stored, reads } => {
                match stored {
                    Some(t) => write!(f, "the layout stores {t}")?,
                    None => f.write_str("the layout stores another element type")?,
                }
                let reads = match reads {
                    PackedRead::I8 => "i8",
                    PackedRead::U8 => "u8",
                    PackedRead::Bool => "bool",
                };
                write!(f, " but the packed view reads {reads}; packed views read s1, s2, s4 as i8, u1, u2, u4 as u8 and pred as bool")
            }
            ViewMismatch::PackedWidth { bits, width } => write!(f, "the layout's elements take {bits} bits; a packed view needs them packed at the type's own width ({width} bits, `E({width})`)"),
            ViewMismatch::BufferLength { len, size } => write!(f, "the buffer has {len} bytes but the layout takes {size}"),
        }
    }
}

/// "the layout stores f32 but the view's element type is f64", with a
/// hint where another view fits the layout's type.
fn view_type_mismatch(
    f: &mut fmt::Formatter<'_>,
    stored: Option<ElementType>,
    view: Option<ElementType>,
) -> fmt::Result {
    match stored {
        Some(t) => write!(f, "the layout stores {t}")?,
        None => write!(f, "the layout stores another element type")?,
    }
    match view {
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

/// What a [`ErrorKind::RelayoutMismatch`] error is about.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, ErrorDetail, RelayoutMismatch, RelayoutPlan};
/// let a = parse_array("f32[2,3]{1,0}").unwrap();
/// let b = parse_array("f32[6]{0}").unwrap();
/// let err = RelayoutPlan::new(&a, &b).unwrap_err();
/// assert_eq!(
///     err.detail(),
///     ErrorDetail::RelayoutMismatch(RelayoutMismatch::Rank { src: 2, dst: 1 })
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RelayoutMismatch {
    /// The layouts have different ranks.
    Rank {
        /// The source's rank.
        src: u64,
        /// The destination's rank.
        dst: u64,
    },
    /// The layouts store different element types.
    ElementType {
        /// The source's (`None` where the number names none).
        src: Option<ElementType>,
        /// The destination's (`None` where the number names none).
        dst: Option<ElementType>,
    },
    /// A slot narrower than the element, or wider than 128 bits.
    SlotWidth {
        /// The slot's bits.
        slot: u64,
        /// The element's bits.
        element: u64,
    },
    /// A source buffer of the wrong length.
    SourceLength {
        /// Its length in bytes.
        len: u64,
        /// The bytes its layout takes.
        size: u64,
    },
    /// A destination buffer of the wrong length.
    DestinationLength {
        /// Its length in bytes.
        len: u64,
        /// The bytes its layout takes.
        size: u64,
    },
    /// A legacy padding value the element type has no encoding for.
    PaddingValue {
        /// The padding value.
        value: PaddingValue,
        /// The element type (`None` where the number names none).
        element_type: Option<ElementType>,
    },
    /// A window buffer too small for one window of the destination
    /// ([`RelayoutPlan::run_bytes_windowed`](crate::RelayoutPlan::run_bytes_windowed)):
    /// windows hold whole slots and start on whole bytes.
    WindowBuffer {
        /// Its length in bytes.
        len: u64,
        /// The smallest usable length.
        min: u64,
    },
}

impl fmt::Display for RelayoutMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RelayoutMismatch::Rank { src, dst } => write!(f, "the source has rank {src} and the destination rank {dst}; a relayout needs the same dimensions"),
            RelayoutMismatch::ElementType { src: Some(x), dst: Some(y) } => write!(f, "the source stores {x} and the destination {y}; a relayout moves elements, it does not convert them"),
            RelayoutMismatch::ElementType { .. } => f.write_str("the source and the destination store different element types"),
            RelayoutMismatch::SlotWidth { slot, element } => write!(f, "a slot of {slot} bits cannot hold an element of {element} bits (relayout copies slots of 1 to 128 bits)"),
            RelayoutMismatch::SourceLength { len, size } => write!(f, "the source buffer has {len} bytes but its layout takes {size}"),
            RelayoutMismatch::DestinationLength { len, size } => write!(f, "the destination buffer has {len} bytes but its layout takes {size}"),
            RelayoutMismatch::PaddingValue { value, element_type } => match element_type {
                Some(t) => write!(f, "padding value `{}` has no encoding for {t} here", value.name()),
                None => write!(f, "padding value `{}` has no encoding for this element type", value.name()),
            },
            RelayoutMismatch::WindowBuffer { len, min } => write!(f, "the window buffer has {len} bytes but a window of this destination takes at least {min}"),
        }
    }
}

// --- the three stored numbers ------------------------------------------------
//
// `Error` keeps `[i128; 3]` (its size is every const offset function's
// return size); these turn a detail into them and back. Numbers outside a
// field's type (only in errors built by hand with `Error::new`) are
// clamped to it.

const fn u(v: i128) -> u64 {
    if v < 0 {
        0
    } else if v > u64::MAX as i128 {
        u64::MAX
    } else {
        v as u64
    }
}

const fn i(v: i128) -> i64 {
    if v < i64::MIN as i128 {
        i64::MIN
    } else if v > i64::MAX as i128 {
        i64::MAX
    } else {
        v as i64
    }
}

const fn element(v: i128) -> Option<ElementType> {
    if v < 0 || v > u32::MAX as i128 {
        None
    } else {
        ElementType::from_xla_enum_value(v as u32)
    }
}

const fn element_code(t: Option<ElementType>) -> i128 {
    match t {
        Some(t) => t.xla_enum_value() as i128,
        None => -1,
    }
}

const ATTRIBUTE_LETTERS: [&str; 10] = ["D", "T", "L", "#", "*", "E", "S", "SC", "P", "M"];

const fn attribute_letter(v: i128) -> &'static str {
    if v < 0 || v >= ATTRIBUTE_LETTERS.len() as i128 {
        "?"
    } else {
        ATTRIBUTE_LETTERS[v as usize]
    }
}

const fn attribute_index(letter: &str) -> i128 {
    let mut k = 0;
    while k < ATTRIBUTE_LETTERS.len() {
        if crate::base::konst::bytes_eq(letter.as_bytes(), ATTRIBUTE_LETTERS[k].as_bytes()) {
            return k as i128;
        }
        k += 1;
    }
    -1
}

const fn padding_value(v: i128) -> PaddingValue {
    match v {
        0 => PaddingValue::Zero,
        1 => PaddingValue::One,
        2 => PaddingValue::Lowest,
        3 => PaddingValue::Highest,
        _ => PaddingValue::Unknown,
    }
}

impl ViewMismatch {
    const fn decode([a, b, c]: [i128; 3]) -> ViewMismatch {
        match a {
            0 => ViewMismatch::Length {
                len: u(b),
                allocated: u(c),
            },
            1 => ViewMismatch::ElementType {
                stored: element(b),
                view: element(c),
            },
            2 => ViewMismatch::Packed { bits: u(b) },
            3 => ViewMismatch::PackedType {
                stored: element(b),
                reads: match c {
                    0 => PackedRead::I8,
                    1 => PackedRead::U8,
                    _ => PackedRead::Bool,
                },
            },
            5 => ViewMismatch::BufferLength {
                len: u(b),
                size: u(c),
            },
            _ => ViewMismatch::PackedWidth {
                bits: u(b),
                width: u(c),
            },
        }
    }

    const fn encode(self) -> [i128; 3] {
        match self {
            ViewMismatch::Length { len, allocated } => [0, len as i128, allocated as i128],
            ViewMismatch::ElementType { stored, view } => {
                [1, element_code(stored), element_code(view)]
            }
            ViewMismatch::Packed { bits } => [2, bits as i128, 0],
            ViewMismatch::PackedType { stored, reads } => [3, element_code(stored), reads as i128],
            ViewMismatch::PackedWidth { bits, width } => [4, bits as i128, width as i128],
            ViewMismatch::BufferLength { len, size } => [5, len as i128, size as i128],
        }
    }
}

impl RelayoutMismatch {
    const fn decode([a, b, c]: [i128; 3]) -> RelayoutMismatch {
        match a {
            0 => RelayoutMismatch::Rank {
                src: u(b),
                dst: u(c),
            },
            1 => RelayoutMismatch::ElementType {
                src: element(b),
                dst: element(c),
            },
            2 => RelayoutMismatch::SlotWidth {
                slot: u(b),
                element: u(c),
            },
            3 => RelayoutMismatch::SourceLength {
                len: u(b),
                size: u(c),
            },
            4 => RelayoutMismatch::DestinationLength {
                len: u(b),
                size: u(c),
            },
            6 => RelayoutMismatch::WindowBuffer {
                len: u(b),
                min: u(c),
            },
            _ => RelayoutMismatch::PaddingValue {
                value: padding_value(b),
                element_type: element(c),
            },
        }
    }

    const fn encode(self) -> [i128; 3] {
        match self {
            RelayoutMismatch::Rank { src, dst } => [0, src as i128, dst as i128],
            RelayoutMismatch::ElementType { src, dst } => [1, element_code(src), element_code(dst)],
            RelayoutMismatch::SlotWidth { slot, element } => [2, slot as i128, element as i128],
            RelayoutMismatch::SourceLength { len, size } => [3, len as i128, size as i128],
            RelayoutMismatch::DestinationLength { len, size } => [4, len as i128, size as i128],
            RelayoutMismatch::PaddingValue {
                value,
                element_type,
            } => [5, value as i128, element_code(element_type)],
            RelayoutMismatch::WindowBuffer { len, min } => [6, len as i128, min as i128],
        }
    }
}

impl ErrorDetail {
    /// The detail of an error of `kind` with the stored numbers `values`
    /// (and, for [`ErrorKind::Expected`], the expected token).
    pub(crate) const fn decode(
        kind: ErrorKind,
        values: [i128; 3],
        expected: &'static str,
    ) -> ErrorDetail {
        use ErrorDetail as D;
        use ErrorKind as K;
        let [a, b, c] = values;
        match kind {
            K::Empty => D::Empty,
            K::UnterminatedComment => D::UnterminatedComment,
            K::InvalidCharacter => D::InvalidCharacter,
            K::IntegerOutOfRange => D::IntegerOutOfRange {
                dimension: if b > 0 { Some((u(a), u(b))) } else { None },
            },
            K::Expected => D::Expected { what: expected },
            K::UnknownElementType => D::UnknownElementType,
            K::ExtraContent => D::ExtraContent,
            K::UnknownAttribute => D::UnknownAttribute,
            K::AttributeOrder => D::AttributeOrder {
                attribute: attribute_letter(a),
                after: attribute_letter(b),
            },
            K::InvalidDimLevelType => D::InvalidDimLevelType,
            K::ExpectedUnsignedType => D::ExpectedUnsignedType,
            K::NonArrayWithDimensions => D::NonArrayWithDimensions { rank: u(a) },
            K::NonArrayWithLayout => D::NonArrayWithLayout,
            K::BufferOfNonArray => D::BufferOfNonArray,
            K::NestingTooDeep => D::NestingTooDeep { max_depth: u(a) },
            K::CapacityExceeded => D::CapacityExceeded {
                what: if a >= 0 && a < Capacity::ALL.len() as i128 {
                    Capacity::ALL[a as usize]
                } else {
                    Capacity::Other
                },
                count: u(b),
                capacity: u(c),
            },
            K::NotAnArray => D::NotAnArray,
            K::NegativeDimension => D::NegativeDimension {
                dimension: u(a),
                size: i(b),
            },
            K::NegativeBound => D::NegativeBound {
                dimension: u(a),
                bound: i(b),
            },
            K::ElementCountOverflow => D::ElementCountOverflow {
                dimension: u(a),
                size: u(b),
            },
            K::ByteSizeOverflow => D::ByteSizeOverflow {
                elements: u(a),
                bytes: u(b),
            },
            K::AllocationOverflow => D::AllocationOverflow,
            K::MinorToMajorLength => D::MinorToMajorLength {
                len: u(a),
                rank: u(b),
            },
            K::MinorToMajorOutOfRange => D::MinorToMajorOutOfRange {
                entry: i(a),
                rank: u(b),
                position: u(c),
            },
            K::MinorToMajorDuplicate => D::MinorToMajorDuplicate {
                dimension: u(a),
                first: u(b),
                second: u(c),
            },
            K::EmptyTile => D::EmptyTile { tile: u(a) },
            K::ZeroTileEntry => D::ZeroTileEntry {
                tile: u(a),
                entry: u(b),
            },
            K::NegativeTileEntry => D::NegativeTileEntry {
                tile: u(a),
                entry: u(b),
                value: i(c),
            },
            K::TrailingCombine => D::TrailingCombine {
                tile: u(a),
                entry: u(b),
            },
            K::TailPaddingNotPositive => D::TailPaddingNotPositive { alignment: i(a) },
            K::NegativeElementSize => D::NegativeElementSize { bits: i(a) },
            K::MemorySpaceOutOfRange => D::MemorySpaceOutOfRange { memory_space: i(a) },
            K::SplitDimensionOutOfRange => D::SplitDimensionOutOfRange {
                dimension: i(a),
                rank: u(b),
            },
            K::SplitDimensionDuplicate => D::SplitDimensionDuplicate { dimension: i(a) },
            K::SplitIndicesNotIncreasing => D::SplitIndicesNotIncreasing {
                dimension: i(a),
                index: i(b),
                previous: i(c),
            },
            K::SplitIndexOutOfBounds => D::SplitIndexOutOfBounds {
                dimension: i(a),
                index: i(b),
                size: if c < 0 { None } else { Some(u(c)) },
            },
            K::BufferTiled => D::BufferTiled,
            K::BufferDynamic => D::BufferDynamic { dimension: u(a) },
            K::SparseLayout => D::SparseLayout {
                attribute: match a {
                    0 => SparseAttribute::IndexType,
                    1 => SparseAttribute::PointerType,
                    _ => SparseAttribute::PhysicalShape,
                },
            },
            K::PaddingLength => D::PaddingLength {
                len: u(a),
                rank: u(b),
            },
            K::PaddingTooSmall => D::PaddingTooSmall {
                dimension: u(a),
                padded: i(b),
                size: u(c),
            },
            K::IndexRank => D::IndexRank {
                len: u(a),
                rank: u(b),
            },
            K::IndexOutOfBounds => D::IndexOutOfBounds {
                dimension: u(a),
                index: u(b),
                size: u(c),
            },
            K::UnboundedDimension => D::UnboundedDimension { dimension: u(a) },
            K::DimensionNumberOutOfRange => D::DimensionNumberOutOfRange {
                dimension: i(a),
                rank: u(b),
            },
            K::ExtentCount => D::ExtentCount {
                extents: u(a),
                unbounded: u(b),
            },
            K::ViewMismatch => D::ViewMismatch(ViewMismatch::decode(values)),
            K::RankMismatch => D::RankMismatch {
                expected: u(a),
                rank: u(b),
            },
            K::NoDigitTables => D::NoDigitTables {
                reason: match a {
                    0 => NoDigitTables::Combine,
                    1 => NoDigitTables::NotNested,
                    _ => NoDigitTables::TooMany,
                },
                digits: u(b),
            },
            K::SameDimension => D::SameDimension { dimension: u(a) },
            K::RelayoutMismatch => D::RelayoutMismatch(RelayoutMismatch::decode(values)),
            K::DimensionMismatch => D::DimensionMismatch {
                dimension: u(a),
                src: u(b),
                dst: u(c),
            },
            K::ValueOutOfRange => D::ValueOutOfRange {
                value: a,
                element_type: element(b),
            },
            K::OutOfMemory => D::OutOfMemory { bytes: u(a) },
        }
    }

    /// The stored numbers of this detail (`decode`'s inverse) and, for
    /// [`ErrorKind::Expected`], the expected token.
    pub(crate) const fn encode(self) -> ([i128; 3], &'static str) {
        use ErrorDetail as D;
        let values: [i128; 3] = match self {
            D::Empty
            | D::UnterminatedComment
            | D::InvalidCharacter
            | D::UnknownElementType
            | D::ExtraContent
            | D::UnknownAttribute
            | D::InvalidDimLevelType
            | D::ExpectedUnsignedType
            | D::NonArrayWithLayout
            | D::BufferOfNonArray
            | D::NotAnArray
            | D::AllocationOverflow
            | D::BufferTiled => [0; 3],
            D::Expected { what } => return ([0; 3], what),
            D::IntegerOutOfRange {
                dimension: Some((d, size)),
            } => [d as i128, size as i128, 0],
            D::IntegerOutOfRange { dimension: None } => [0; 3],
            D::AttributeOrder { attribute, after } => {
                [attribute_index(attribute), attribute_index(after), 0]
            }
            D::NonArrayWithDimensions { rank } => [rank as i128, 0, 0],
            D::NestingTooDeep { max_depth } => [max_depth as i128, 0, 0],
            D::CapacityExceeded {
                what,
                count,
                capacity,
            } => [what as i128, count as i128, capacity as i128],
            D::NegativeDimension { dimension, size } => [dimension as i128, size as i128, 0],
            D::NegativeBound { dimension, bound } => [dimension as i128, bound as i128, 0],
            D::ElementCountOverflow { dimension, size } => [dimension as i128, size as i128, 0],
            D::ByteSizeOverflow { elements, bytes } => [elements as i128, bytes as i128, 0],
            D::MinorToMajorLength { len, rank } => [len as i128, rank as i128, 0],
            D::MinorToMajorOutOfRange {
                entry,
                rank,
                position,
            } => [entry as i128, rank as i128, position as i128],
            D::MinorToMajorDuplicate {
                dimension,
                first,
                second,
            } => [dimension as i128, first as i128, second as i128],
            D::EmptyTile { tile } => [tile as i128, 0, 0],
            D::ZeroTileEntry { tile, entry } => [tile as i128, entry as i128, 0],
            D::NegativeTileEntry { tile, entry, value } => {
                [tile as i128, entry as i128, value as i128]
            }
            D::TrailingCombine { tile, entry } => [tile as i128, entry as i128, 0],
            D::TailPaddingNotPositive { alignment } => [alignment as i128, 0, 0],
            D::NegativeElementSize { bits } => [bits as i128, 0, 0],
            D::MemorySpaceOutOfRange { memory_space } => [memory_space as i128, 0, 0],
            D::SplitDimensionOutOfRange { dimension, rank } => [dimension as i128, rank as i128, 0],
            D::SplitDimensionDuplicate { dimension } => [dimension as i128, 0, 0],
            D::SplitIndicesNotIncreasing {
                dimension,
                index,
                previous,
            } => [dimension as i128, index as i128, previous as i128],
            D::SplitIndexOutOfBounds {
                dimension,
                index,
                size,
            } => [
                dimension as i128,
                index as i128,
                match size {
                    Some(s) => s as i128,
                    None => -1,
                },
            ],
            D::BufferDynamic { dimension } => [dimension as i128, 0, 0],
            D::SparseLayout { attribute } => [attribute as i128, 0, 0],
            D::PaddingLength { len, rank } => [len as i128, rank as i128, 0],
            D::PaddingTooSmall {
                dimension,
                padded,
                size,
            } => [dimension as i128, padded as i128, size as i128],
            D::IndexRank { len, rank } => [len as i128, rank as i128, 0],
            D::IndexOutOfBounds {
                dimension,
                index,
                size,
            } => [dimension as i128, index as i128, size as i128],
            D::UnboundedDimension { dimension } => [dimension as i128, 0, 0],
            D::DimensionNumberOutOfRange { dimension, rank } => {
                [dimension as i128, rank as i128, 0]
            }
            D::ExtentCount { extents, unbounded } => [extents as i128, unbounded as i128, 0],
            D::ViewMismatch(why) => why.encode(),
            D::RankMismatch { expected, rank } => [expected as i128, rank as i128, 0],
            D::NoDigitTables { reason, digits } => [reason as i128, digits as i128, 0],
            D::SameDimension { dimension } => [dimension as i128, 0, 0],
            D::RelayoutMismatch(why) => why.encode(),
            D::DimensionMismatch {
                dimension,
                src,
                dst,
            } => [dimension as i128, src as i128, dst as i128],
            D::ValueOutOfRange {
                value,
                element_type,
            } => [value, element_code(element_type), 0],
            D::OutOfMemory { bytes } => [bytes as i128, 0, 0],
        };
        (values, "")
    }
}
