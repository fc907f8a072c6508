//! Packed views: the sub-byte integers (`s1 s2 s4 u1 u2 u4`) and `pred`
//! stored `E(n)`-packed in a byte slice, read and written as `i8`, `u8` or
//! `bool`. The element in slot `o` takes bits `o·n .. o·n + n` of the
//! buffer, counted from the least significant bit of byte 0 (the bit
//! [`ArrayShape::bit_offset`](crate::ArrayShape::bit_offset) gives): in an
//! `s4` buffer, slot 0 is the low nibble of byte 0 and slot 1 its high
//! nibble.

use crate::base::element::{tag, ElementType};
use crate::base::error::{Error, ErrorKind, PackedRead, Span, ViewMismatch};
use crate::math::fixed::{RankedLayout, StaticLayout};
use crate::math::view::{mismatch, LogicalIndices, TypedLayout};

mod sealed {
    pub trait Sealed {}
    impl Sealed for i8 {}
    impl Sealed for u8 {}
    impl Sealed for bool {}
}

/// A Rust type a [`PackedView`] reads packed elements as: `i8` for `s1`,
/// `s2`, `s4`; `u8` for `u1`, `u2`, `u4`; `bool` for `pred`.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{ElementType, PackedElement};
/// assert!(i8::accepts(ElementType::S4));
/// assert!(!i8::accepts(ElementType::U4));
/// assert!(bool::accepts(ElementType::Pred));
/// ```
pub trait PackedElement: Copy + sealed::Sealed {
    /// `true` if this type reads `t`.
    fn accepts(t: ElementType) -> bool;
    /// The value of the low `width` bits of `bits`.
    #[doc(hidden)]
    fn decode(bits: u8, width: u32) -> Self;
    /// The low `width` bits that store `self`, or `None` if it does not fit.
    #[doc(hidden)]
    fn encode(self, width: u32) -> Option<u8>;
    /// `self` as a number, for error values.
    #[doc(hidden)]
    fn wide(self) -> i128;
    /// Which of the three types this is (for error values).
    #[doc(hidden)]
    const CODE: PackedRead;
}

impl PackedElement for i8 {
    fn accepts(t: ElementType) -> bool {
        matches!(t, ElementType::S1 | ElementType::S2 | ElementType::S4)
    }
    fn decode(bits: u8, width: u32) -> i8 {
        // Move the field's sign bit to bit 7, then shift back arithmetically.
        let up = 8 - width;
        ((bits << up) as i8) >> up
    }
    fn encode(self, width: u32) -> Option<u8> {
        let half = 1i16 << (width - 1);
        let v = i16::from(self);
        (-half..half)
            .contains(&v)
            .then(|| (self as u8) & mask(width))
    }
    fn wide(self) -> i128 {
        i128::from(self)
    }
    const CODE: PackedRead = PackedRead::I8;
}

impl PackedElement for u8 {
    fn accepts(t: ElementType) -> bool {
        matches!(t, ElementType::U1 | ElementType::U2 | ElementType::U4)
    }
    fn decode(bits: u8, _width: u32) -> u8 {
        bits
    }
    fn encode(self, width: u32) -> Option<u8> {
        (self <= mask(width)).then_some(self)
    }
    fn wide(self) -> i128 {
        i128::from(self)
    }
    const CODE: PackedRead = PackedRead::U8;
}

impl PackedElement for bool {
    fn accepts(t: ElementType) -> bool {
        t == ElementType::Pred
    }
    fn decode(bits: u8, _width: u32) -> bool {
        bits != 0
    }
    fn encode(self, _width: u32) -> Option<u8> {
        Some(u8::from(self))
    }
    fn wide(self) -> i128 {
        i128::from(self)
    }
    const CODE: PackedRead = PackedRead::Bool;
}

/// The Rust type a packed view reads an element type ([`tag`](crate::tag)) as:
/// `i8` for `s1 s2 s4`, `u8` for `u1 u2 u4`, `bool` for `pred`. Ties
/// [`PackedView::new`] to the layout's element type at compile time
/// (through [`PackedFor`]).
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{tag, PackedNatural};
/// let x: <tag::s4 as PackedNatural>::Type = -8i8;
/// assert_eq!(x, -8);
/// ```
#[diagnostic::on_unimplemented(
    message = "the layout's element type `{Self}` is not read by packed views",
    label = "not a sub-byte integer or pred",
    note = "packed views read s1, s2, s4 as i8, u1, u2, u4 as u8 and pred as bool; wider types use `View`"
)]
pub trait PackedNatural {
    /// The Rust type.
    type Type: PackedElement;
}

/// `Self` is the Rust type a packed view reads the element type `E` as
/// (one of the types of [`tag`](crate::tag)): `i8` of `tag::s1`, `tag::s2`,
/// `tag::s4`; `u8` of `tag::u1`, `tag::u2`, `tag::u4`; `bool` of
/// `tag::pred`. Implemented for every pair [`PackedNatural`] maps; as a
/// bound on the Rust type, it is what [`PackedView::new`] asks of a
/// [`TypedLayout`] (`T: PackedFor<L::Tag>`).
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{tag, PackedFor};
/// fn reads<T: PackedFor<E>, E>() {}
/// reads::<i8, tag::s4>();
/// reads::<bool, tag::pred>();
/// ```
#[diagnostic::on_unimplemented(
    message = "packed views do not read the layout's element type `{E}` as `{Self}`",
    label = "the layout stores `{E}`, not read as `{Self}`",
    note = "packed views read s1, s2, s4 as i8, u1, u2, u4 as u8 and pred as bool; wider types use `View`",
    note = "generic code over any `RankedLayout` uses `PackedView::new_checked`, which checks the element type at run time"
)]
pub trait PackedFor<E>: PackedElement {}

// Not named in errors: they report the unsatisfied `PackedFor` itself.
#[diagnostic::do_not_recommend]
impl<T: PackedElement, E: PackedNatural<Type = T>> PackedFor<E> for T {}

/// A layout that [`PackedView::new`] and [`PackedViewMut::new`] take for
/// elements read as `T`, checking `T` at compile time where the type
/// system knows the element type (as [`ViewLayout`](crate::ViewLayout) for
/// views): every [`TypedLayout`] for the type that reads its element type
/// alone ([`PackedFor`]), and [`StaticLayout`] for all three (checked when
/// the view is made). Generic code over any [`RankedLayout`] uses
/// [`PackedView::new_checked`].
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{PackedView, PackedViewLayout, RankedLayout, StaticLayout};
/// fn first<L: RankedLayout<1> + PackedViewLayout<i8>>(l: L, bytes: &[u8]) -> Option<i8> {
///     PackedView::<i8, _, 1>::new(l, bytes).ok()?.get([0])
/// }
/// let l: StaticLayout<1> = StaticLayout::parse("s4[2]{0:E(4)}").unwrap();
/// assert_eq!(first(l, &[0x1F]), Some(-1));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no element type known at compile time",
    label = "not a `layout!` item type or a `StaticLayout`",
    note = "a hand-written `StaticShape` or `RankedLayout` type implements `TypedLayout` (`type Tag = xla_layout::tag::s4;`) to be viewed with `PackedView::new`",
    note = "`PackedView::new_checked` takes any `RankedLayout` and checks the element type at run time"
)]
pub trait PackedViewLayout<T> {}

#[diagnostic::do_not_recommend]
impl<T, const R: usize> PackedViewLayout<T> for StaticLayout<R> {}

impl<T, L: TypedLayout> PackedViewLayout<T> for L where T: PackedFor<L::Tag> {}

macro_rules! packed_natural {
    ($($e:ident => $t:ty),* $(,)?) => {
        $(#[diagnostic::do_not_recommend]
        impl PackedNatural for tag::$e {
            type Type = $t;
        })*
    };
}

packed_natural! {
    s1 => i8,
    s2 => i8,
    s4 => i8,
    u1 => u8,
    u2 => u8,
    u4 => u8,
    pred => bool,
}

/// The low `width` bits set (`width` is 1, 2 or 4).
const fn mask(width: u32) -> u8 {
    ((1u16 << width) - 1) as u8
}

/// Checks the element type, the packing and the buffer length; returns
/// the bits per element.
fn check<T: PackedElement, const R: usize>(
    layout: &StaticLayout<R>,
    len: usize,
) -> Result<u32, Error> {
    let t = layout.element_type();
    if !T::accepts(t) {
        return Err(mismatch(ViewMismatch::PackedType {
            stored: Some(t),
            reads: T::CODE,
        }));
    }
    let width = t.bit_width();
    if layout.element_size_in_bits() != u64::from(width) {
        return Err(mismatch(ViewMismatch::PackedWidth {
            bits: layout.element_size_in_bits(),
            width: u64::from(width),
        }));
    }
    if len < layout.size_in_bytes() {
        return Err(mismatch(ViewMismatch::BufferLength {
            len: len as u64,
            size: layout.size_in_bytes() as u64,
        }));
    }
    Ok(width)
}

/// The byte and the shift of the element at `index`, or `None` out of
/// bounds.
fn locate<L: RankedLayout<R>, const R: usize>(
    layout: &L,
    width: u32,
    index: [usize; R],
) -> Option<(usize, u32)> {
    if !layout.tables().in_bounds(index) {
        return None;
    }
    let bit = layout.offset_of(index).checked_mul(width as usize)?;
    // `width` divides 8, so an element never straddles two bytes.
    Some((bit / 8, (bit % 8) as u32))
}

fn read<T: PackedElement>(data: &[u8], width: u32, (byte, shift): (usize, u32)) -> Option<T> {
    let b = *data.get(byte)?;
    Some(T::decode((b >> shift) & mask(width), width))
}

/// An [`ErrorKind::IndexOutOfBounds`] error for the first dimension
/// `index` leaves.
fn out_of_bounds<const R: usize>(dims: [usize; R], index: [usize; R]) -> Error {
    let d = (0..R).find(|&d| index[d] >= dims[d]).unwrap_or(0);
    let (i, n) = if R == 0 { (0, 0) } else { (index[d], dims[d]) };
    Error::wide(
        ErrorKind::IndexOutOfBounds,
        Span::NONE,
        [d as i128, i as i128, n as i128],
    )
}

/// A read-only view of `E(n)`-packed sub-byte integers or `pred` in a byte
/// slice: `i8` for `s1 s2 s4`, `u8` for `u1 u2 u4`, `bool` for `pred{..:E(1)}`.
/// Checked once when made (element type, packing at the type's own width,
/// `size_in_bytes` of buffer): the element type at compile time for the
/// item types of `layout!` by [`PackedView::new`], at run time for a
/// [`StaticLayout`], or for every layout by [`PackedView::new_checked`].
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{PackedView, StaticLayout};
/// let l: StaticLayout<2> = StaticLayout::parse("s4[2,3]{1,0:E(4)}").unwrap();
/// // Row 0 is 1, -2, 3; row 1 is -8, 7, 0; two values a byte, low nibble first.
/// let bytes = [0xE1, 0x83, 0x07];
/// let v = PackedView::<i8, _, 2>::new(l, &bytes).unwrap();
/// assert_eq!(v.get([0, 1]), Some(-2));
/// assert_eq!(v.get([1, 0]), Some(-8));
/// assert_eq!(v.get([2, 0]), None);
/// assert_eq!(v.iter().collect::<Vec<_>>(), [1, -2, 3, -8, 7, 0]);
/// assert!(PackedView::<u8, _, 2>::new(l, &bytes).is_err()); // s4 reads as i8
/// assert!(PackedView::<i8, _, 2>::new(l, &bytes[..2]).is_err()); // 3 bytes needed
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PackedView<'a, T, L, const R: usize> {
    data: &'a [u8],
    layout: L,
    width: u32,
    _marker: core::marker::PhantomData<T>,
}

impl<'a, T: PackedElement, L: RankedLayout<R>, const R: usize> PackedView<'a, T, L, R> {
    /// Checks the element type, packing and length once. The element type
    /// is checked at compile time where the layout's type knows it
    /// ([`PackedViewLayout`]): an item type of `layout!` of `s4` reads
    /// `i8`, and reading it as `u8` does not compile; a [`StaticLayout`] is
    /// checked here.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{PackedView, StaticLayout, StaticShape, TypedLayout};
    /// # #[derive(Clone, Copy)]
    /// # struct Int4;
    /// # impl StaticShape<1> for Int4 {
    /// #     const LAYOUT: StaticLayout<1> = match StaticLayout::parse("s4[4]{0:E(4)}") {
    /// #         Ok(l) => l,
    /// #         Err(_) => panic!(),
    /// #     };
    /// #     fn offset(index: [usize; 1]) -> usize { Self::LAYOUT.offset(index) }
    /// # }
    /// # impl TypedLayout for Int4 { type Tag = xla_layout::tag::s4; }
    /// // `Int4` as `layout! { type Int4 = s4[4]{0:E(4)}; }` makes it.
    /// let v = PackedView::<i8, _, 1>::new(Int4, &[0x9F, 0x07]).unwrap();
    /// assert_eq!(v.iter().collect::<Vec<i8>>(), [-1, -7, 7, 0]);
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::ViewMismatch`] when `T` does not read the layout's
    /// element type (a [`StaticLayout`]), the elements are not packed at
    /// the type's own width (`E(4)` for `s4`, `E(1)` for `pred`), or `data`
    /// is shorter than the layout's `size_in_bytes`.
    pub fn new(layout: L, data: &'a [u8]) -> Result<Self, Error>
    where
        L: PackedViewLayout<T>,
    {
        Self::new_checked(layout, data)
    }

    /// As [`PackedView::new`] for any [`RankedLayout`], with the element
    /// type checked at run time for every layout (see
    /// [`View::new_checked`](crate::View::new_checked)).
    ///
    /// # Errors
    ///
    /// As [`PackedView::new`].
    pub fn new_checked(layout: L, data: &'a [u8]) -> Result<Self, Error> {
        let width = check::<T, R>(layout.tables(), data.len())?;
        Ok(PackedView {
            data,
            layout,
            width,
            _marker: core::marker::PhantomData,
        })
    }

    /// As [`PackedView::new`], which now checks the element type at compile
    /// time for the same layouts.
    ///
    /// # Errors
    ///
    /// As [`PackedView::new`].
    #[deprecated(note = "`PackedView::new` checks the element type at compile time now")]
    pub fn typed(layout: L, data: &'a [u8]) -> Result<Self, Error>
    where
        L: TypedLayout,
        L::Tag: PackedNatural<Type = T>,
    {
        Self::new_checked(layout, data)
    }

    /// The element at `index`, or `None` out of bounds.
    pub fn get(&self, index: [usize; R]) -> Option<T> {
        read(
            self.data,
            self.width,
            locate(&self.layout, self.width, index)?,
        )
    }

    /// The layout.
    pub fn layout(&self) -> &L {
        &self.layout
    }

    /// The underlying bytes (padding included).
    pub fn as_bytes(&self) -> &'a [u8] {
        self.data
    }

    /// The elements in logical order (last dimension fastest).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{PackedView, StaticLayout};
    /// // Four int4 values, two to a byte, low nibble first: 1, -2, 7, -8.
    /// let l: StaticLayout<2> = StaticLayout::parse("s4[2,2]{1,0:E(4)}").unwrap();
    /// let v = PackedView::<i8, _, 2>::new(l, &[0xE1, 0x87]).unwrap();
    /// assert!(v.iter().eq([1, -2, 7, -8]));
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = T> + '_ {
        LogicalIndices::new(self.layout.tables().dims()).filter_map(move |i| self.get(i))
    }
}

/// A mutable view of `E(n)`-packed sub-byte integers or `pred` in a byte
/// slice (see [`PackedView`]). Writing changes only the element's own
/// bits; a value the type cannot hold (9 into an `s4`, 16 into a `u4`) is
/// an [`ErrorKind::ValueOutOfRange`] error, never truncated.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{ErrorKind, PackedViewMut, StaticLayout};
/// let l: StaticLayout<1> = StaticLayout::parse("u2[6]{0:E(2)}").unwrap();
/// let mut bytes = [0u8; 2];
/// let mut v = PackedViewMut::<u8, _, 1>::new(l, &mut bytes).unwrap();
/// v.set([0], 3).unwrap();
/// v.set([5], 2).unwrap();
/// assert_eq!(v.get([5]), Some(2));
/// let err = v.set([1], 4).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::ValueOutOfRange);
/// assert_eq!(err.to_string(), "value 4 does not fit in u2 (0..=3)");
/// assert_eq!(v.set([6], 1).unwrap_err().kind(), ErrorKind::IndexOutOfBounds);
/// assert_eq!(bytes, [0b0000_0011, 0b0000_1000]);
/// ```
#[derive(Debug)]
pub struct PackedViewMut<'a, T, L, const R: usize> {
    data: &'a mut [u8],
    layout: L,
    width: u32,
    _marker: core::marker::PhantomData<T>,
}

impl<'a, T: PackedElement, L: RankedLayout<R>, const R: usize> PackedViewMut<'a, T, L, R> {
    /// Checks the element type, packing and length once; the element type
    /// at compile time where the layout's type knows it (see
    /// [`PackedView::new`]).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{PackedViewMut, StaticLayout, StaticShape, TypedLayout};
    /// # #[derive(Clone, Copy)]
    /// # struct Mask;
    /// # impl StaticShape<1> for Mask {
    /// #     const LAYOUT: StaticLayout<1> = match StaticLayout::parse("pred[8]{0:E(1)}") {
    /// #         Ok(l) => l,
    /// #         Err(_) => panic!(),
    /// #     };
    /// #     fn offset(index: [usize; 1]) -> usize { Self::LAYOUT.offset(index) }
    /// # }
    /// # impl TypedLayout for Mask { type Tag = xla_layout::tag::pred; }
    /// // `Mask` as `layout! { type Mask = pred[8]{0:E(1)}; }` makes it.
    /// let mut bits = [0u8];
    /// PackedViewMut::new(Mask, &mut bits).unwrap().set([7], true).unwrap();
    /// assert_eq!(bits, [0x80]);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`PackedView::new`].
    pub fn new(layout: L, data: &'a mut [u8]) -> Result<Self, Error>
    where
        L: PackedViewLayout<T>,
    {
        Self::new_checked(layout, data)
    }

    /// As [`PackedViewMut::new`] for any [`RankedLayout`], with the element
    /// type checked at run time (see [`PackedView::new_checked`]).
    ///
    /// # Errors
    ///
    /// As [`PackedView::new`].
    pub fn new_checked(layout: L, data: &'a mut [u8]) -> Result<Self, Error> {
        let width = check::<T, R>(layout.tables(), data.len())?;
        Ok(PackedViewMut {
            data,
            layout,
            width,
            _marker: core::marker::PhantomData,
        })
    }

    /// As [`PackedViewMut::new`], which now checks the element type at
    /// compile time for the same layouts.
    ///
    /// # Errors
    ///
    /// As [`PackedView::new`].
    #[deprecated(note = "`PackedViewMut::new` checks the element type at compile time now")]
    pub fn typed(layout: L, data: &'a mut [u8]) -> Result<Self, Error>
    where
        L: TypedLayout,
        L::Tag: PackedNatural<Type = T>,
    {
        Self::new_checked(layout, data)
    }

    /// The element at `index`, or `None` out of bounds.
    pub fn get(&self, index: [usize; R]) -> Option<T> {
        read(
            self.data,
            self.width,
            locate(&self.layout, self.width, index)?,
        )
    }

    /// Writes `value` at `index`, leaving the other elements sharing its
    /// byte as they were.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::IndexOutOfBounds`] for an index outside the shape,
    /// [`ErrorKind::ValueOutOfRange`] for a value the element type cannot
    /// hold (nothing is written then).
    pub fn set(&mut self, index: [usize; R], value: T) -> Result<(), Error> {
        let t = self.layout.tables().element_type();
        let Some(bits) = value.encode(self.width) else {
            return Err(Error::wide(
                ErrorKind::ValueOutOfRange,
                Span::NONE,
                [value.wide(), i128::from(t.xla_enum_value()), 0],
            ));
        };
        let dims = self.layout.tables().dims();
        let place = locate(&self.layout, self.width, index);
        let Some(byte) = place.and_then(|(b, shift)| Some((self.data.get_mut(b)?, shift))) else {
            return Err(out_of_bounds(dims, index));
        };
        let (b, shift) = byte;
        *b = (*b & !(mask(self.width) << shift)) | (bits << shift);
        Ok(())
    }

    /// The layout.
    pub fn layout(&self) -> &L {
        &self.layout
    }

    /// The underlying bytes (padding included).
    pub fn as_mut_bytes(&mut self) -> &mut [u8] {
        self.data
    }
}
