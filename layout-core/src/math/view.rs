//! Typed views: a slice seen through a layout. Checked once when made (the
//! element type matches, the slice covers the allocation), then indexed by
//! `[usize; R]` at the cost of the offset arithmetic alone.

use core::marker::PhantomData;
use core::ops::{Index, IndexMut};

use crate::base::element::{tag, ElementTag, ElementType};
use crate::base::error::{Error, ErrorDetail, Span, ViewMismatch};
use crate::math::fixed::{RankedLayout, StaticLayout};

/// A Rust type that stores one XLA element type at its natural width.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an element type of views here",
    label = "views cannot hold `{Self}` here",
    note = "`half::bf16` and `half::f16` need the `half` feature of xla-layout; `float8::F8E4M3` and `float8::F8E5M2` `float8`; `num_complex::Complex<f32>` and `<f64>` `num-complex`",
    note = "sub-byte integers (s4, u4, ...) and packed pred are read as i8, u8 and bool with `PackedView`"
)]
pub trait Element: Copy + Send + Sync + 'static {
    /// The XLA element type.
    const ELEMENT_TYPE: ElementType;
    /// The value whose bits, least significant first, are `bits` (the low
    /// bits of the type's width). What relayout fills padding with; not a
    /// stable API.
    #[doc(hidden)]
    fn __from_bits(bits: u128) -> Self;
    /// The slice's bytes, where the `simd` feature can view them so safely
    /// (every element type but `pred`): relayout then copies bytes, with
    /// vector shuffles. Not a stable API.
    #[doc(hidden)]
    fn __bytes(_: &[Self]) -> Option<&[u8]> {
        None
    }
    /// [`Element::__bytes`], writable.
    #[doc(hidden)]
    fn __bytes_mut(_: &mut [Self]) -> Option<&mut [u8]> {
        None
    }
}

/// The Rust type that stores an element type ([`tag`](crate::tag)) at its
/// natural width. Implemented for `pred`, `s8`..`s64`, `u8`..`u64`, `f32`,
/// `f64`; with the `half` feature for `bf16` and `f16`, with `float8` for
/// `f8e4m3fn` and `f8e5m2`, with `num-complex` for `c64` and `c128`; never
/// for the sub-byte types (see [`PackedView`](crate::PackedView)), the
/// other fp8 types, `token` or `opaque`.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{tag, ElementType, NaturalElement};
/// fn natural<T: NaturalElement>() -> ElementType {
///     <T::Type as xla_layout::Element>::ELEMENT_TYPE
/// }
/// assert_eq!(natural::<tag::s64>(), ElementType::S64);
/// ```
#[diagnostic::on_unimplemented(
    message = "the layout's element type `{Self}` has no natural Rust type here",
    label = "no Rust type stores `{Self}` here",
    note = "bf16 and f16 are `half::bf16` and `half::f16` with the `half` feature; f8e4m3fn and f8e5m2 are `float8::F8E4M3` and `float8::F8E5M2` with `float8`; c64 and c128 are `num_complex::Complex<f32>` and `<f64>` with `num-complex`",
    note = "sub-byte integers (s4, u4, ...) and packed pred are read with `PackedView`; the other f8 and f4 types have no Rust type (`RelayoutPlan::run_bytes` still moves them)"
)]
pub trait NaturalElement {
    /// The Rust type.
    type Type: Element;
}

/// A layout whose element type is known to the type system: every valid
/// item type `layout!` makes implements it. A hand-written
/// [`StaticShape`](crate::StaticShape) impl implements it too, so that
/// [`View::new`] takes the type and checks the element type at compile
/// time:
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{tag, StaticLayout, StaticShape, TypedLayout, View};
/// struct Fig1;
/// impl StaticShape<2> for Fig1 {
///     const LAYOUT: StaticLayout<2> = match StaticLayout::parse("f32[3,5]{1,0:T(2,2)}") {
///         Ok(l) => l,
///         Err(_) => panic!(),
///     };
///     fn offset(index: [usize; 2]) -> usize {
///         Self::LAYOUT.offset(index)
///     }
/// }
/// impl TypedLayout for Fig1 {
///     type Tag = tag::f32;
/// }
/// let data: Vec<f32> = (0..24).map(|x| x as f32).collect();
/// assert_eq!(View::new(Fig1, &data).unwrap()[[2, 3]], 17.0);
/// ```
///
/// Generic code can name the Rust type through [`NaturalElement`]:
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{tag, NaturalElement, TypedLayout};
/// struct MyLayout;
/// impl TypedLayout for MyLayout {
///     type Tag = tag::f32;
/// }
/// fn zero<L: TypedLayout>() -> <L::Tag as NaturalElement>::Type
/// where
///     L::Tag: NaturalElement,
///     <L::Tag as NaturalElement>::Type: Default,
/// {
///     Default::default()
/// }
/// let z: f32 = zero::<MyLayout>();
/// assert_eq!(z, 0.0);
/// ```
pub trait TypedLayout {
    /// The element type, as one of the types of [`tag`](crate::tag).
    type Tag: ElementTag;
}

/// `Self` is the natural Rust type of the element type `E` (one of the
/// types of [`tag`](crate::tag)): `f32` of `tag::f32`, `i32` of `tag::s32`,
/// `half::bf16` of `tag::bf16`, ... Implemented for every pair
/// [`NaturalElement`] maps; as a bound on the Rust type, it is what
/// [`View::new`] asks of a [`TypedLayout`] (`T: NaturalFor<L::Tag>`), so
/// that a wrong `T` is a compile error naming both types.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{tag, NaturalFor};
/// fn stores<T: NaturalFor<E>, E>() {}
/// stores::<f32, tag::f32>();
/// stores::<i32, tag::s32>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not the Rust type of the layout's element type `{E}`",
    label = "the layout stores `{E}`, not `{Self}`",
    note = "views of a `layout!` item type take its element type's natural Rust type: `f32` for f32, `i32` for s32, `bool` for pred, ...; bf16 and f16 are `half::bf16` and `half::f16` with the `half` feature; f8e4m3fn and f8e5m2 are `float8::F8E4M3` and `float8::F8E5M2` with `float8`; c64 and c128 are `num_complex::Complex<f32>` and `<f64>` with `num-complex`",
    note = "sub-byte integers (s4, u4, ...) and packed pred are read with `PackedView`; the other f8 and f4 types have no Rust type (`RelayoutPlan::run_bytes` still moves them)",
    note = "generic code over any `RankedLayout` uses `View::new_checked`, which checks the element type at run time"
)]
pub trait NaturalFor<E>: Element {}

// Not named in errors: they report the unsatisfied `NaturalFor` itself,
// whose message names both types.
#[diagnostic::do_not_recommend]
impl<T: Element, E: NaturalElement<Type = T>> NaturalFor<E> for T {}

/// A layout that [`View::new`] and [`ViewMut::new`] take for elements of
/// type `T`, checking `T` at compile time where the type system knows the
/// element type:
///
/// - every [`TypedLayout`] (the item types of `layout!`, a hand-written
///   [`StaticShape`](crate::StaticShape) type that implements
///   `TypedLayout`) for its element type's natural Rust type alone
///   ([`NaturalFor`]);
/// - [`StaticLayout`], a layout made at run time, for every [`Element`]
///   (the element type is checked when the view is made).
///
/// Generic code over any [`RankedLayout`] uses [`View::new_checked`]
/// instead, which checks the element type at run time for every layout.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{Element, RankedLayout, StaticLayout, View, ViewLayout};
/// fn first<T: Element, L: RankedLayout<1> + ViewLayout<T>>(l: L, data: &[T]) -> Option<T> {
///     View::new(l, data).ok()?.get([0]).copied()
/// }
/// let l: StaticLayout<1> = StaticLayout::parse("s32[3]{0}").unwrap();
/// assert_eq!(first(l, &[7, 8, 9]), Some(7));
/// assert_eq!(first(l, &[7u32, 8, 9]), None); // s32 is i32: a run-time error
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no element type known at compile time",
    label = "not a `layout!` item type or a `StaticLayout`",
    note = "a hand-written `StaticShape` or `RankedLayout` type implements `TypedLayout` (`type Tag = xla_layout::tag::f32;`) to be viewed with `View::new`",
    note = "`View::new_checked` takes any `RankedLayout` and checks the element type at run time"
)]
pub trait ViewLayout<T> {}

// `T: Element` is the views' own bound (one error for a `T` that is no
// element type, not two).
#[diagnostic::do_not_recommend]
impl<T, const R: usize> ViewLayout<T> for StaticLayout<R> {}

impl<T, L: TypedLayout> ViewLayout<T> for L where T: NaturalFor<L::Tag> {}

/// `Element` and `NaturalElement` for each `type => ElementType`; `[pod]`
/// where every bit pattern is a value of the type (all but `bool`), so that
/// its slices can be viewed as bytes.
macro_rules! element {
    ($($t:ty => $e:ident / $tag:ident $([$pod:ident])?, |$b:ident| $from:expr),* $(,)?) => {
        element!(#[cfg(all())] $($t => $e / $tag $([$pod])?, |$b| $from),*);
    };
    // `#[attr]`: on every impl (the feature's `doc(cfg(..))` badge).
    (#[$attr:meta] $($t:ty => $e:ident / $tag:ident $([$pod:ident])?, |$b:ident| $from:expr),* $(,)?) => {
        $(#[$attr] impl Element for $t {
            const ELEMENT_TYPE: ElementType = ElementType::$e;
            // Truncation to the type's width is the point.
            #[allow(clippy::cast_possible_truncation)]
            fn __from_bits($b: u128) -> Self {
                $from
            }
            $(element!(@$pod);)?
        }
        // Not listed among "the following other types implement" in an
        // error: the note says what to use instead.
        #[$attr]
        #[diagnostic::do_not_recommend]
        impl NaturalElement for tag::$tag {
            type Type = $t;
        })*
    };
    (@pod) => {
        #[cfg(feature = "simd")]
        fn __bytes(s: &[Self]) -> Option<&[u8]> {
            Some(bytemuck::cast_slice(s))
        }
        #[cfg(feature = "simd")]
        fn __bytes_mut(s: &mut [Self]) -> Option<&mut [u8]> {
            Some(bytemuck::cast_slice_mut(s))
        }
    };
}

element! {
    bool => Pred / pred, |b| b & 1 == 1,
    i8 => S8 / s8 [pod], |b| b as i8,
    i16 => S16 / s16 [pod], |b| b as i16,
    i32 => S32 / s32 [pod], |b| b as i32,
    i64 => S64 / s64 [pod], |b| b as i64,
    u8 => U8 / u8 [pod], |b| b as u8,
    u16 => U16 / u16 [pod], |b| b as u16,
    u32 => U32 / u32 [pod], |b| b as u32,
    u64 => U64 / u64 [pod], |b| b as u64,
    f32 => F32 / f32 [pod], |b| f32::from_bits(b as u32),
    f64 => F64 / f64 [pod], |b| f64::from_bits(b as u64),
}

#[cfg(feature = "half")]
element! {
    #[cfg_attr(docsrs, doc(cfg(feature = "half")))]
    half::bf16 => Bf16 / bf16 [pod], |b| half::bf16::from_bits(b as u16),
    half::f16 => F16 / f16 [pod], |b| half::f16::from_bits(b as u16),
}

// The `float8` crate's two types follow NVIDIA's `__nv_fp8_e4m3` and
// `__nv_fp8_e5m2`: finite-only E4M3 (0x7F is NaN, 0x7E is 448), which is
// XLA's `f8e4m3fn`, and IEEE-style E5M2, XLA's `f8e5m2`.
#[cfg(feature = "float8")]
element! {
    #[cfg_attr(docsrs, doc(cfg(feature = "float8")))]
    float8::F8E4M3 => F8e4m3fn / f8e4m3fn [pod], |b| float8::F8E4M3::from_bits(b as u8),
    float8::F8E5M2 => F8e5m2 / f8e5m2 [pod], |b| float8::F8E5M2::from_bits(b as u8),
}

#[cfg(feature = "num-complex")]
element! {
    #[cfg_attr(docsrs, doc(cfg(feature = "num-complex")))]
    num_complex::Complex<f32> => C64 / c64 [pod],
        |b| num_complex::Complex::new(f32::from_bits(b as u32), f32::from_bits((b >> 32) as u32)),
    num_complex::Complex<f64> => C128 / c128 [pod],
        |b| num_complex::Complex::new(f64::from_bits(b as u64), f64::from_bits((b >> 64) as u64)),
}

/// A [`ErrorKind::ViewMismatch`](crate::ErrorKind::ViewMismatch) error.
pub(crate) const fn mismatch(why: ViewMismatch) -> Error {
    Error::from_detail(ErrorDetail::ViewMismatch(why), Span::NONE)
}

/// `T` is the natural Rust type of slots of `stored` that are `bits` wide
/// (the check of views and of typed relayouts).
pub(crate) fn natural_slots<T: Element>(stored: ElementType, bits: u64) -> Result<(), Error> {
    if stored != T::ELEMENT_TYPE {
        return Err(mismatch(ViewMismatch::ElementType {
            stored: Some(stored),
            view: Some(T::ELEMENT_TYPE),
        }));
    }
    let natural = u64::from(T::ELEMENT_TYPE.byte_width()) * 8;
    if bits != natural {
        return Err(mismatch(ViewMismatch::Packed { bits }));
    }
    Ok(())
}

fn check<T: Element, const R: usize>(layout: &StaticLayout<R>, len: usize) -> Result<(), Error> {
    natural_slots::<T>(layout.element_type(), layout.element_size_in_bits())?;
    if len < layout.allocated_elements() {
        return Err(mismatch(ViewMismatch::Length {
            len: len as u64,
            allocated: layout.allocated_elements() as u64,
        }));
    }
    Ok(())
}

/// A read-only view of a slice through a layout.
///
/// [`View::new`] makes one, checking the element type at compile time for
/// the item types of `layout!` and at run time for a [`StaticLayout`];
/// [`View::new_checked`], for generic code, checks it at run time for
/// every layout.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{StaticLayout, View};
/// let l: StaticLayout<2> = StaticLayout::parse("f32[3,5]{1,0:T(2,2)}").unwrap();
/// let data: Vec<f32> = (0..24).map(|x| x as f32).collect();
/// let v = View::new(l, &data).unwrap();
/// assert_eq!(v[[2, 3]], 17.0);
/// assert_eq!(v.get([3, 0]), None);
/// let logical: Vec<f32> = v.iter().copied().collect();
/// assert_eq!(logical[..5], [0.0, 1.0, 4.0, 5.0, 8.0]);
/// assert!(View::<f64, _, 2>::new(l, &[0.0f64; 24]).is_err()); // f64 is not f32
/// ```
#[derive(Clone, Copy, Debug)]
pub struct View<'a, T, L, const R: usize> {
    data: &'a [T],
    layout: L,
}

impl<'a, T: Element, L: RankedLayout<R>, const R: usize> View<'a, T, L, R> {
    /// Checks the element type, packing and length once. The element type
    /// is checked at compile time where the layout's type knows it
    /// ([`ViewLayout`]): for an item type of `layout!`, `T` must be its
    /// element type's natural Rust type, and any other `T` does not
    /// compile; for a [`StaticLayout`] it is checked here.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{StaticLayout, StaticShape, TypedLayout, View};
    /// # #[derive(Clone, Copy)]
    /// # struct Fig1;
    /// # impl StaticShape<2> for Fig1 {
    /// #     const LAYOUT: StaticLayout<2> = match StaticLayout::parse("f32[3,5]{1,0:T(2,2)}") {
    /// #         Ok(l) => l,
    /// #         Err(_) => panic!(),
    /// #     };
    /// #     fn offset(index: [usize; 2]) -> usize { Self::LAYOUT.offset(index) }
    /// # }
    /// # impl TypedLayout for Fig1 { type Tag = xla_layout::tag::f32; }
    /// // `Fig1` as `layout! { type Fig1 = f32[3,5]{1,0:T(2,2)}; }` makes it.
    /// let data: Vec<f32> = (0..24).map(|x| x as f32).collect();
    /// let v = View::new(Fig1, &data).unwrap();
    /// assert_eq!(v[[2, 3]], 17.0);
    /// assert!(View::new(Fig1, &data[..20]).is_err()); // too short
    /// ```
    ///
    /// ```compile_fail
    /// # use layout_core as xla_layout;
    /// # use xla_layout::{StaticLayout, StaticShape, TypedLayout, View};
    /// # #[derive(Clone, Copy)]
    /// # struct Fig1;
    /// # impl StaticShape<2> for Fig1 {
    /// #     const LAYOUT: StaticLayout<2> = match StaticLayout::parse("f32[3,5]{1,0:T(2,2)}") {
    /// #         Ok(l) => l,
    /// #         Err(_) => panic!(),
    /// #     };
    /// #     fn offset(index: [usize; 2]) -> usize { Self::LAYOUT.offset(index) }
    /// # }
    /// # impl TypedLayout for Fig1 { type Tag = xla_layout::tag::f32; }
    /// let _ = View::new(Fig1, &[0.0f64; 24]); // f64 is not f32
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::ViewMismatch`](crate::ErrorKind::ViewMismatch) when `T` is not the layout's element
    /// type (a [`StaticLayout`]), the layout packs elements (`E(n)` below
    /// the natural width), or `data` is shorter than the allocation.
    pub fn new(layout: L, data: &'a [T]) -> Result<Self, Error>
    where
        L: ViewLayout<T>,
    {
        Self::new_checked(layout, data)
    }

    /// As [`View::new`] for any [`RankedLayout`], with the element type
    /// checked here, at run time, for every layout: for generic code whose
    /// layout type is bounded by `RankedLayout<R>` alone (an item type of
    /// `layout!` with the wrong `T` is then a
    /// [`ViewMismatch`](crate::ErrorKind::ViewMismatch) error rather than a
    /// compile error). Named for that check: what `new` proves at compile
    /// time, `new_checked` checks when it runs, and returns as an error.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{Element, RankedLayout, StaticLayout, View};
    /// fn total<T: Element + Into<f64>, L: RankedLayout<1>>(l: L, data: &[T]) -> Option<f64> {
    ///     let v = View::new_checked(l, data).ok()?;
    ///     Some(v.iter().map(|&x| x.into()).sum())
    /// }
    /// let l: StaticLayout<1> = StaticLayout::parse("f32[3]{0}").unwrap();
    /// assert_eq!(total(l, &[1.0f32, 2.0, 3.0]), Some(6.0));
    /// assert_eq!(total(l, &[1.0f64, 2.0, 3.0]), None); // f64 is not f32
    /// ```
    ///
    /// # Errors
    ///
    /// As [`View::new`].
    pub fn new_checked(layout: L, data: &'a [T]) -> Result<Self, Error> {
        check::<T, R>(layout.tables(), data.len())?;
        Ok(View { data, layout })
    }

    /// As [`View::new`], which now checks the element type at compile
    /// time for the same layouts.
    ///
    /// # Errors
    ///
    /// As [`View::new`].
    #[deprecated(note = "`View::new` checks the element type at compile time now")]
    pub fn typed(layout: L, data: &'a [T]) -> Result<Self, Error>
    where
        L: TypedLayout,
        L::Tag: NaturalElement<Type = T>,
    {
        Self::new_checked(layout, data)
    }

    /// The element at `index`, or `None` out of bounds.
    pub fn get(&self, index: [usize; R]) -> Option<&'a T> {
        if !self.layout.tables().in_bounds(index) {
            return None;
        }
        self.data.get(self.layout.offset_of(index))
    }

    /// The layout.
    pub fn layout(&self) -> &L {
        &self.layout
    }

    /// The underlying slice (padding slots included).
    pub fn as_slice(&self) -> &'a [T] {
        self.data
    }

    /// The elements in logical order (last dimension fastest).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{StaticLayout, View};
    /// let l: StaticLayout<2> = StaticLayout::parse("s32[2,3]{0,1}").unwrap();
    /// let v = View::new(l, &[1, 4, 2, 5, 3, 6][..]).unwrap(); // column-major
    /// assert!(v.iter().copied().eq([1, 2, 3, 4, 5, 6]));
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = &'a T> + '_ {
        LogicalIndices::new(self.layout.tables().dims())
            .map(move |i| &self.data[self.layout.offset_of(i)])
    }

    /// `(index, element)` in memory order, skipping padding slots (no
    /// division per element; see [`StaticLayout::memory_order`]): the
    /// fastest walk over a tiled array.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{StaticLayout, View};
    /// // 2x2 tiles: memory holds (0,0) (0,1) (1,0) (1,1), then (0,2) ...
    /// let l: StaticLayout<2> = StaticLayout::parse("f32[2,3]{1,0:T(2,2)}").unwrap();
    /// let data: Vec<f32> = (0..8).map(|x| x as f32).collect(); // 2 slots are padding
    /// let v = View::new(l, &data).unwrap();
    /// let walk: Vec<([usize; 2], f32)> = v.iter_memory_order().map(|(i, x)| (i, *x)).collect();
    /// assert_eq!(walk[..3], [([0, 0], 0.0), ([0, 1], 1.0), ([1, 0], 2.0)]);
    /// assert_eq!(walk[4..], [([0, 2], 4.0), ([1, 2], 6.0)]);
    /// ```
    pub fn iter_memory_order(&self) -> impl Iterator<Item = ([usize; R], &'a T)> + '_ {
        self.layout
            .tables()
            .memory_order()
            .map(move |(i, o)| (i, &self.data[o]))
    }
}

impl<T: Element, L: RankedLayout<R>, const R: usize> Index<[usize; R]> for View<'_, T, L, R> {
    type Output = T;

    fn index(&self, index: [usize; R]) -> &T {
        assert!(
            self.layout.tables().in_bounds(index),
            "index {index:?} out of bounds"
        );
        &self.data[self.layout.offset_of(index)]
    }
}

/// A mutable view of a slice through a layout.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{StaticLayout, ViewMut};
/// let l: StaticLayout<2> = StaticLayout::parse("s32[2,3]{0,1}").unwrap();
/// let mut data = [0i32; 6];
/// let mut v = ViewMut::new(l, &mut data).unwrap();
/// v[[1, 0]] = 7;
/// *v.get_mut([0, 2]).unwrap() = 9;
/// assert_eq!(data, [0, 7, 0, 0, 9, 0]);
/// ```
#[derive(Debug)]
pub struct ViewMut<'a, T, L, const R: usize> {
    data: &'a mut [T],
    layout: L,
    _marker: PhantomData<T>,
}

impl<'a, T: Element, L: RankedLayout<R>, const R: usize> ViewMut<'a, T, L, R> {
    /// Checks the element type, packing and length once; the element type
    /// at compile time where the layout's type knows it (see
    /// [`View::new`]).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{StaticLayout, StaticShape, TypedLayout, ViewMut};
    /// # #[derive(Clone, Copy)]
    /// # struct ColMajor;
    /// # impl StaticShape<2> for ColMajor {
    /// #     const LAYOUT: StaticLayout<2> = match StaticLayout::parse("s32[2,3]{0,1}") {
    /// #         Ok(l) => l,
    /// #         Err(_) => panic!(),
    /// #     };
    /// #     fn offset(index: [usize; 2]) -> usize { Self::LAYOUT.offset(index) }
    /// # }
    /// # impl TypedLayout for ColMajor { type Tag = xla_layout::tag::s32; }
    /// // `ColMajor` as `layout! { type ColMajor = s32[2,3]{0,1}; }` makes it.
    /// let mut data = [0i32; 6];
    /// ViewMut::new(ColMajor, &mut data).unwrap()[[1, 0]] = 7;
    /// assert_eq!(data, [0, 7, 0, 0, 0, 0]);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`View::new`].
    pub fn new(layout: L, data: &'a mut [T]) -> Result<Self, Error>
    where
        L: ViewLayout<T>,
    {
        Self::new_checked(layout, data)
    }

    /// As [`ViewMut::new`] for any [`RankedLayout`], with the element type
    /// checked at run time (see [`View::new_checked`]).
    ///
    /// # Errors
    ///
    /// As [`View::new`].
    pub fn new_checked(layout: L, data: &'a mut [T]) -> Result<Self, Error> {
        check::<T, R>(layout.tables(), data.len())?;
        Ok(ViewMut {
            data,
            layout,
            _marker: PhantomData,
        })
    }

    /// As [`ViewMut::new`], which now checks the element type at compile
    /// time for the same layouts.
    ///
    /// # Errors
    ///
    /// As [`View::new`].
    #[deprecated(note = "`ViewMut::new` checks the element type at compile time now")]
    pub fn typed(layout: L, data: &'a mut [T]) -> Result<Self, Error>
    where
        L: TypedLayout,
        L::Tag: NaturalElement<Type = T>,
    {
        Self::new_checked(layout, data)
    }

    /// The element at `index`, or `None` out of bounds.
    pub fn get(&self, index: [usize; R]) -> Option<&T> {
        if !self.layout.tables().in_bounds(index) {
            return None;
        }
        self.data.get(self.layout.offset_of(index))
    }

    /// The element at `index`, mutably, or `None` out of bounds.
    pub fn get_mut(&mut self, index: [usize; R]) -> Option<&mut T> {
        if !self.layout.tables().in_bounds(index) {
            return None;
        }
        self.data.get_mut(self.layout.offset_of(index))
    }

    /// The layout.
    pub fn layout(&self) -> &L {
        &self.layout
    }

    /// The underlying slice (padding slots included).
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        self.data
    }

    /// The elements in logical order (last dimension fastest).
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        LogicalIndices::new(self.layout.tables().dims())
            .map(move |i| &self.data[self.layout.offset_of(i)])
    }

    /// `(index, element)` in memory order, skipping padding slots; as
    /// [`View::iter_memory_order`].
    pub fn iter_memory_order(&self) -> impl Iterator<Item = ([usize; R], &T)> + '_ {
        self.layout
            .tables()
            .memory_order()
            .map(move |(i, o)| (i, &self.data[o]))
    }

    /// `(index, element)` in memory order, the elements writable, skipping
    /// padding slots: the fastest way to fill a tiled array from its
    /// indices ([`ViewMut::for_each_mut`] goes in logical order).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{StaticLayout, ViewMut};
    /// let l: StaticLayout<2> = StaticLayout::parse("s32[2,3]{1,0:T(2,2)}").unwrap();
    /// let mut data = [-1i32; 8]; // 2 slots of padding
    /// let mut v = ViewMut::new(l, &mut data).unwrap();
    /// for ([r, c], x) in v.iter_memory_order_mut() {
    ///     *x = (10 * r + c) as i32;
    /// }
    /// assert!(v.iter().copied().eq([0, 1, 2, 10, 11, 12]));
    /// assert_eq!(data, [0, 1, 10, 11, 2, -1, 12, -1]); // the padding is untouched
    /// ```
    pub fn iter_memory_order_mut(&mut self) -> impl Iterator<Item = ([usize; R], &mut T)> + '_ {
        // Memory order visits each slot once, at ascending offsets, so each
        // element is split off the front of what is left of the slice.
        let mut rest: &mut [T] = &mut *self.data;
        let mut start = 0;
        self.layout.tables().memory_order().map(move |(i, o)| {
            let (upto, tail) = core::mem::take(&mut rest).split_at_mut(o + 1 - start);
            rest = tail;
            start = o + 1;
            let last = upto.len() - 1; // `o` itself: `upto` is never empty
            (i, &mut upto[last])
        })
    }

    /// Calls `f` with every logical index and its element, in logical order.
    pub fn for_each_mut(&mut self, mut f: impl FnMut([usize; R], &mut T)) {
        for i in LogicalIndices::new(self.layout.tables().dims()) {
            let o = self.layout.offset_of(i);
            f(i, &mut self.data[o]);
        }
    }
}

impl<T: Element, L: RankedLayout<R>, const R: usize> Index<[usize; R]> for ViewMut<'_, T, L, R> {
    type Output = T;

    fn index(&self, index: [usize; R]) -> &T {
        assert!(
            self.layout.tables().in_bounds(index),
            "index {index:?} out of bounds"
        );
        &self.data[self.layout.offset_of(index)]
    }
}

impl<T: Element, L: RankedLayout<R>, const R: usize> IndexMut<[usize; R]> for ViewMut<'_, T, L, R> {
    fn index_mut(&mut self, index: [usize; R]) -> &mut T {
        assert!(
            self.layout.tables().in_bounds(index),
            "index {index:?} out of bounds"
        );
        let o = self.layout.offset_of(index);
        &mut self.data[o]
    }
}

/// Every index of a shape in logical order (last dimension fastest).
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::LogicalIndices;
/// let all: Vec<[usize; 2]> = LogicalIndices::new([2, 2]).collect();
/// assert_eq!(all, [[0, 0], [0, 1], [1, 0], [1, 1]]);
/// assert_eq!(LogicalIndices::new([]).count(), 1);
/// assert_eq!(LogicalIndices::new([3, 0]).count(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct LogicalIndices<const R: usize> {
    dims: [usize; R],
    next: Option<[usize; R]>,
}

impl<const R: usize> LogicalIndices<R> {
    /// All indices of `dims`.
    pub fn new(dims: [usize; R]) -> Self {
        let empty = dims.contains(&0);
        LogicalIndices {
            dims,
            next: if empty { None } else { Some([0; R]) },
        }
    }
}

impl<const R: usize> Iterator for LogicalIndices<R> {
    type Item = [usize; R];

    fn next(&mut self) -> Option<[usize; R]> {
        let current = self.next?;
        let mut n = current;
        let mut d = R;
        self.next = loop {
            if d == 0 {
                break None;
            }
            d -= 1;
            if n[d] + 1 < self.dims[d] {
                n[d] += 1;
                break Some(n);
            }
            n[d] = 0;
        };
        Some(current)
    }
}
