//! Element types (XLA's `PrimitiveType`), their text names and widths.

use crate::base::konst::bytes_eq;

/// The one table of element types: variant, printed name, XLA enum value,
/// bit width, description. Everything else about a type derives from it.
macro_rules! element_types {
    ($($variant:ident $tag:ident $name:literal $value:literal $bits:literal $doc:literal;)*) => {
        /// Element types as types: one zero-sized type per [`ElementType`],
        /// named as XLA writes it (`tag::bf16`, `tag::s4`, ...). An item type
        /// of `layout!` names its element type through
        /// [`TypedLayout::Tag`](crate::TypedLayout::Tag), so that typed views
        /// check the Rust type at compile time, and compile errors name the
        /// element type. Not meant for a glob import: `f32` and the others
        /// would shadow the primitive types.
        ///
        /// ```
        /// # use layout_core as xla_layout;
        /// use xla_layout::{tag, ElementTag, ElementType, NaturalElement};
        /// assert_eq!(<tag::bf16 as ElementTag>::ELEMENT_TYPE, ElementType::Bf16);
        /// let x: <tag::f32 as NaturalElement>::Type = 1.5f32;
        /// assert_eq!(x, 1.5);
        /// ```
        pub mod tag {
            use super::{ElementTag, ElementType};
            $(
                #[doc = $doc]
                #[allow(non_camel_case_types)]
                #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
                pub struct $tag;

                impl ElementTag for $tag {
                    const ELEMENT_TYPE: ElementType = ElementType::$variant;
                }
            )*
        }

        /// An XLA element type, as written in shape text (`f32`, `bf16`, `s4`, ...).
        ///
        /// ```
        /// # use layout_core as xla_layout;
        /// use xla_layout::ElementType;
        /// let t = ElementType::from_name("bf16").unwrap();
        /// assert_eq!(t.bit_width(), 16);
        /// assert_eq!(t.byte_width(), 2);
        /// assert_eq!(t.name(), "bf16");
        /// assert!(ElementType::S4.is_sub_byte());
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum ElementType {
            $(#[doc = $doc] $variant,)*
        }

        /// Every element type, in the order of [`ElementType`]'s variants.
        ///
        /// ```
        /// # use layout_core as xla_layout;
        /// use xla_layout::{ElementType, ALL_ELEMENT_TYPES};
        /// assert_eq!(ALL_ELEMENT_TYPES.len(), 32);
        /// assert_eq!(ALL_ELEMENT_TYPES[0], ElementType::Pred);
        /// let floats = ALL_ELEMENT_TYPES.iter().filter(|t| t.is_float()).count();
        /// assert_eq!(floats, 13);
        /// ```
        pub const ALL_ELEMENT_TYPES: [ElementType; [$($name),*].len()] = [$(ElementType::$variant),*];

        impl ElementType {
            /// The printed name, exactly as XLA prints it (lowercase; `opaque`
            /// for XLA's `OPAQUE_TYPE`).
            ///
            /// ```
            /// # use layout_core as xla_layout;
            /// use xla_layout::ElementType;
            /// assert_eq!(ElementType::F8e4m3fn.name(), "f8e4m3fn");
            /// assert_eq!(ElementType::Opaque.name(), "opaque");
            /// ```
            pub const fn name(self) -> &'static str {
                match self {
                    $(ElementType::$variant => $name,)*
                }
            }

            /// XLA's `PrimitiveType` enum value (`F32` is 11, `BF16` is 16, ...).
            ///
            /// ```
            /// # use layout_core as xla_layout;
            /// use xla_layout::ElementType;
            /// assert_eq!(ElementType::F32.xla_enum_value(), 11);
            /// assert_eq!(ElementType::Bf16.xla_enum_value(), 16);
            /// assert_eq!(ElementType::S4.xla_enum_value(), 21);
            /// ```
            pub const fn xla_enum_value(self) -> u32 {
                match self {
                    $(ElementType::$variant => $value,)*
                }
            }

            /// Bits of one value (`pred` is 1; `token` and `opaque` are 0).
            ///
            /// ```
            /// # use layout_core as xla_layout;
            /// use xla_layout::ElementType;
            /// assert_eq!(ElementType::Pred.bit_width(), 1);
            /// assert_eq!(ElementType::F4e2m1fn.bit_width(), 4);
            /// assert_eq!(ElementType::C128.bit_width(), 128);
            /// assert_eq!(ElementType::Token.bit_width(), 0);
            /// ```
            pub const fn bit_width(self) -> u32 {
                match self {
                    $(ElementType::$variant => $bits,)*
                }
            }
        }
    };
}

/// An element type at the type level: the types of [`tag`] implement it.
/// Where the element type has a natural Rust type, the tag also implements
/// [`NaturalElement`](crate::NaturalElement) (and the Rust type
/// [`NaturalFor`](crate::NaturalFor)), and [`View::new`](crate::View::new)
/// on a [`TypedLayout`](crate::TypedLayout) then accepts only that Rust
/// type, at compile time.
pub trait ElementTag: Copy + 'static {
    /// The element type the tag names.
    const ELEMENT_TYPE: ElementType;
}

element_types! {
    Pred pred "pred" 1 1 "`pred`: a boolean, one bit wide but stored in a byte.";
    S1 s1 "s1" 30 1 "`s1`: 1-bit signed integer.";
    S2 s2 "s2" 26 2 "`s2`: 2-bit signed integer.";
    S4 s4 "s4" 21 4 "`s4`: 4-bit signed integer.";
    S8 s8 "s8" 2 8 "`s8`: 8-bit signed integer.";
    S16 s16 "s16" 3 16 "`s16`: 16-bit signed integer.";
    S32 s32 "s32" 4 32 "`s32`: 32-bit signed integer.";
    S64 s64 "s64" 5 64 "`s64`: 64-bit signed integer.";
    U1 u1 "u1" 31 1 "`u1`: 1-bit unsigned integer.";
    U2 u2 "u2" 27 2 "`u2`: 2-bit unsigned integer.";
    U4 u4 "u4" 22 4 "`u4`: 4-bit unsigned integer.";
    U8 u8 "u8" 6 8 "`u8`: 8-bit unsigned integer.";
    U16 u16 "u16" 7 16 "`u16`: 16-bit unsigned integer.";
    U32 u32 "u32" 8 32 "`u32`: 32-bit unsigned integer.";
    U64 u64 "u64" 9 64 "`u64`: 64-bit unsigned integer.";
    F16 f16 "f16" 10 16 "`f16`: IEEE half precision.";
    Bf16 bf16 "bf16" 16 16 "`bf16`: bfloat16.";
    F32 f32 "f32" 11 32 "`f32`: IEEE single precision.";
    F64 f64 "f64" 12 64 "`f64`: IEEE double precision.";
    F8e5m2 f8e5m2 "f8e5m2" 19 8 "`f8e5m2`.";
    F8e4m3 f8e4m3 "f8e4m3" 28 8 "`f8e4m3`.";
    F8e4m3fn f8e4m3fn "f8e4m3fn" 20 8 "`f8e4m3fn`.";
    F8e4m3b11fnuz f8e4m3b11fnuz "f8e4m3b11fnuz" 23 8 "`f8e4m3b11fnuz`.";
    F8e3m4 f8e3m4 "f8e3m4" 29 8 "`f8e3m4`.";
    F8e5m2fnuz f8e5m2fnuz "f8e5m2fnuz" 24 8 "`f8e5m2fnuz`.";
    F8e4m3fnuz f8e4m3fnuz "f8e4m3fnuz" 25 8 "`f8e4m3fnuz`.";
    F8e8m0fnu f8e8m0fnu "f8e8m0fnu" 33 8 "`f8e8m0fnu` (MX scale type).";
    F4e2m1fn f4e2m1fn "f4e2m1fn" 32 4 "`f4e2m1fn` (MX, 4 bits).";
    C64 c64 "c64" 15 64 "`c64`: complex of two `f32`.";
    C128 c128 "c128" 18 128 "`c128`: complex of two `f64`.";
    Token token "token" 17 0 "`token`: an ordering token, written `token[]`.";
    Opaque opaque "opaque" 14 0 "`opaque`: an opaque handle, written `opaque[]`.";
}

impl ElementType {
    /// Looks up a type by its printed name. Names are case sensitive, as in
    /// XLA; `tuple` and `buffer` are not element types in text.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::ElementType;
    /// assert_eq!(ElementType::from_name("f8e4m3fn"), Some(ElementType::F8e4m3fn));
    /// assert_eq!(ElementType::from_name("F32"), None);
    /// ```
    pub const fn from_name(name: &str) -> Option<ElementType> {
        Self::from_name_bytes(name.as_bytes())
    }

    /// Looks up a type by XLA's `PrimitiveType` enum value, the inverse of
    /// [`ElementType::xla_enum_value`]. `None` for values that are not
    /// element types here (`TUPLE` is 13, `PRIMITIVE_TYPE_INVALID` is 0).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::ElementType;
    /// assert_eq!(ElementType::from_xla_enum_value(11), Some(ElementType::F32));
    /// assert_eq!(ElementType::from_xla_enum_value(ElementType::S4.xla_enum_value()), Some(ElementType::S4));
    /// assert_eq!(ElementType::from_xla_enum_value(13), None);
    /// ```
    pub const fn from_xla_enum_value(value: u32) -> Option<ElementType> {
        let mut i = 0;
        while i < ALL_ELEMENT_TYPES.len() {
            let t = ALL_ELEMENT_TYPES[i];
            if t.xla_enum_value() == value {
                return Some(t);
            }
            i += 1;
        }
        None
    }

    pub(crate) const fn from_name_bytes(name: &[u8]) -> Option<ElementType> {
        let mut i = 0;
        while i < ALL_ELEMENT_TYPES.len() {
            let t = ALL_ELEMENT_TYPES[i];
            if bytes_eq(t.name().as_bytes(), name) {
                return Some(t);
            }
            i += 1;
        }
        None
    }

    /// The element type a misspelt or foreign name most likely means, for
    /// "did you mean" hints: the same name in other letter case (`BF16`),
    /// a common name from other libraries (`bfloat16`, `float32`, `i32`,
    /// `bool`), or the one type within a small edit distance (`f33`).
    /// `None` when nothing is close or two types are equally close.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::ElementType;
    /// assert_eq!(ElementType::closest("f33"), Some(ElementType::F32));
    /// assert_eq!(ElementType::closest("BF16"), Some(ElementType::Bf16));
    /// assert_eq!(ElementType::closest("bfloat16"), Some(ElementType::Bf16));
    /// assert_eq!(ElementType::closest("i32"), Some(ElementType::S32));
    /// assert_eq!(ElementType::closest("s3"), None); // s1, s2, s4, s8 tie
    /// assert_eq!(ElementType::closest("matrix"), None);
    /// ```
    pub fn closest(name: &str) -> Option<ElementType> {
        let name = name.as_bytes();
        if let Some(t) = ALL_ELEMENT_TYPES
            .iter()
            .find(|t| t.name().as_bytes().eq_ignore_ascii_case(name))
        {
            return Some(*t);
        }
        if let Some((_, t)) = ALIASES
            .iter()
            .find(|(alias, _)| alias.as_bytes().eq_ignore_ascii_case(name))
        {
            return Some(*t);
        }
        // Short names differ from each other by one letter (`s4`, `u4`),
        // so allow one edit there and two in longer names.
        let limit = if name.len() <= 4 { 1 } else { 2 };
        let mut best: Option<(usize, ElementType)> = None;
        let mut tie = false;
        for t in ALL_ELEMENT_TYPES {
            let Some(d) = edit_distance(name, t.name().as_bytes(), limit) else {
                continue;
            };
            match best {
                Some((b, _)) if d > b => {}
                Some((b, _)) if d == b => tie = true,
                _ => {
                    best = Some((d, t));
                    tie = false;
                }
            }
        }
        match best {
            Some((_, t)) if !tie => Some(t),
            _ => None,
        }
    }

    /// Bytes of one unpacked element: `ceil(bit_width / 8)` (so `pred` and
    /// the sub-byte types take one byte each unless packed with `E(n)`).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::ElementType;
    /// assert_eq!(ElementType::Pred.byte_width(), 1);
    /// assert_eq!(ElementType::S4.byte_width(), 1);
    /// assert_eq!(ElementType::Bf16.byte_width(), 2);
    /// assert_eq!(ElementType::C64.byte_width(), 8);
    /// ```
    pub const fn byte_width(self) -> u32 {
        self.bit_width().div_ceil(8)
    }

    /// `true` for array element types (everything but `token` and `opaque`).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::ElementType;
    /// assert!(ElementType::Pred.is_array());
    /// assert!(!ElementType::Token.is_array());
    /// ```
    pub const fn is_array(self) -> bool {
        !matches!(self, ElementType::Token | ElementType::Opaque)
    }

    /// XLA's "sub-byte non-pred" types: `s1 s2 s4 u1 u2 u4 f4e2m1fn`. These
    /// are the types `E(n)` packing is meant for.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::ElementType;
    /// assert!(ElementType::S4.is_sub_byte());
    /// assert!(ElementType::F4e2m1fn.is_sub_byte());
    /// assert!(!ElementType::Pred.is_sub_byte()); // one bit, but not packed
    /// assert!(!ElementType::S8.is_sub_byte());
    /// ```
    pub const fn is_sub_byte(self) -> bool {
        self.is_array() && !matches!(self, ElementType::Pred) && self.bit_width() < 8
    }

    /// `true` for `u1`..`u64` (the types `#(...)` and `*(...)` may name).
    ///
    /// The kind predicates do not overlap, and `pred`, `token` and `opaque`
    /// are none of them:
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::ElementType;
    /// let kinds = |t: ElementType| {
    ///     [t.is_unsigned_integer(), t.is_signed_integer(), t.is_float(), t.is_complex()]
    /// };
    /// assert_eq!(kinds(ElementType::U8), [true, false, false, false]);
    /// assert_eq!(kinds(ElementType::S4), [false, true, false, false]);
    /// assert_eq!(kinds(ElementType::F8e5m2), [false, false, true, false]);
    /// assert_eq!(kinds(ElementType::C64), [false, false, false, true]);
    /// assert_eq!(kinds(ElementType::Pred), [false; 4]);
    /// ```
    pub const fn is_unsigned_integer(self) -> bool {
        use ElementType::*;
        matches!(self, U1 | U2 | U4 | U8 | U16 | U32 | U64)
    }

    /// `true` for `s1`..`s64`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::ElementType;
    /// assert!(ElementType::S1.is_signed_integer());
    /// assert!(!ElementType::U32.is_signed_integer());
    /// ```
    pub const fn is_signed_integer(self) -> bool {
        use ElementType::*;
        matches!(self, S1 | S2 | S4 | S8 | S16 | S32 | S64)
    }

    /// `true` for the real floating-point types (f16, bf16, f32, f64, fp8, fp4).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::ElementType;
    /// assert!(ElementType::Bf16.is_float());
    /// assert!(ElementType::F8e8m0fnu.is_float());
    /// assert!(!ElementType::C64.is_float()); // complex, see `is_complex`
    /// ```
    pub const fn is_float(self) -> bool {
        use ElementType::*;
        matches!(
            self,
            F16 | Bf16
                | F32
                | F64
                | F8e5m2
                | F8e4m3
                | F8e4m3fn
                | F8e4m3b11fnuz
                | F8e3m4
                | F8e5m2fnuz
                | F8e4m3fnuz
                | F8e8m0fnu
                | F4e2m1fn
        )
    }

    /// `true` for `c64` and `c128`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::ElementType;
    /// assert!(ElementType::C128.is_complex());
    /// assert!(!ElementType::F64.is_complex());
    /// ```
    pub const fn is_complex(self) -> bool {
        matches!(self, ElementType::C64 | ElementType::C128)
    }
}

impl core::fmt::Display for ElementType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Names other libraries and languages use for XLA's element types.
const ALIASES: [(&str, ElementType); 27] = {
    use ElementType::*;
    [
        ("bool", Pred),
        ("boolean", Pred),
        ("i1", S1),
        ("i2", S2),
        ("i4", S4),
        ("i8", S8),
        ("i16", S16),
        ("i32", S32),
        ("i64", S64),
        ("int8", S8),
        ("int16", S16),
        ("int32", S32),
        ("int64", S64),
        ("uint8", U8),
        ("uint16", U16),
        ("uint32", U32),
        ("uint64", U64),
        ("half", F16),
        ("float16", F16),
        ("bfloat16", Bf16),
        ("float", F32),
        ("float32", F32),
        ("double", F64),
        ("float64", F64),
        ("complex64", C64),
        ("complex128", C128),
        ("fp32", F32),
    ]
};

/// The edit distance between `a` and `b` (insertions, deletions,
/// substitutions and swaps of neighbours; ASCII letter case ignored), or
/// `None` if it exceeds `limit` or `a` is longer than any name could be
/// within it.
fn edit_distance(a: &[u8], b: &[u8], limit: usize) -> Option<usize> {
    const MAX: usize = 32;
    if a.len() > MAX || b.len() > MAX || a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let same = |x: u8, y: u8| x.eq_ignore_ascii_case(&y);
    // Three rows of the usual table: two back (for swaps), previous, current.
    let mut two = [0usize; MAX + 1];
    let mut prev = [0usize; MAX + 1];
    let mut cur = [0usize; MAX + 1];
    for (j, p) in prev.iter_mut().enumerate().take(b.len() + 1) {
        *p = j;
    }
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(!same(a[i - 1], b[j - 1]));
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]) {
                d = d.min(two[j - 2] + 1);
            }
            cur[j] = d;
        }
        two = prev;
        prev = cur;
    }
    let d = prev[b.len()];
    (d <= limit).then_some(d)
}

/// The value used for padding slots by legacy `padded_dimensions` padding.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, PaddingValue};
/// let s = parse_array("f32[2,3]{0,1}").unwrap()
///     .with_legacy_padding(&[3, 5], PaddingValue::Lowest).unwrap();
/// assert_eq!(s.legacy_padding().unwrap().padding_value(), PaddingValue::Lowest);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaddingValue {
    /// Pad with zeros.
    Zero,
    /// Pad with ones.
    One,
    /// Pad with the lowest value of the type.
    Lowest,
    /// Pad with the highest value of the type.
    Highest,
    /// Padding contents unspecified.
    Unknown,
}

impl PaddingValue {
    /// The option's spelling (`zero`, `one`, `lowest`, `highest`, `unknown`).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::PaddingValue;
    /// assert_eq!(PaddingValue::Highest.name(), "highest");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            PaddingValue::Zero => "zero",
            PaddingValue::One => "one",
            PaddingValue::Lowest => "lowest",
            PaddingValue::Highest => "highest",
            PaddingValue::Unknown => "unknown",
        }
    }

    /// Parses an option spelling (lowercase, as [`PaddingValue::name`]
    /// writes it).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::PaddingValue;
    /// assert_eq!(PaddingValue::from_name("zero"), Some(PaddingValue::Zero));
    /// assert_eq!(PaddingValue::from_name("Zero"), None);
    /// ```
    pub const fn from_name(name: &str) -> Option<PaddingValue> {
        use crate::base::konst::bytes_eq;
        let b = name.as_bytes();
        if bytes_eq(b, b"zero") {
            Some(PaddingValue::Zero)
        } else if bytes_eq(b, b"one") {
            Some(PaddingValue::One)
        } else if bytes_eq(b, b"lowest") {
            Some(PaddingValue::Lowest)
        } else if bytes_eq(b, b"highest") {
            Some(PaddingValue::Highest)
        } else if bytes_eq(b, b"unknown") {
            Some(PaddingValue::Unknown)
        } else {
            None
        }
    }
}
