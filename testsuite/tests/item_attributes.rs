//! Item-form types with attributes, under the strictest lints a user may
//! set: the generated code adds no warning of its own (clippy runs this
//! file with `--all-targets`).
#![deny(warnings)]
#![warn(clippy::pedantic)]

use xla_layout::{layout, RankedLayout, StaticShape};

layout! {
    /// Row-major activations.
    #[deprecated = "use `Tiled`"]
    #[must_use]
    pub type Rows = f32[16,256]{1,0};
    /// The same, tiled.
    #[cfg_attr(all(), allow(clippy::unreadable_literal))]
    pub type Tiled = f32[16,256]{1,0:T(8,128)};
    #[cfg(all())]
    #[deprecated]
    pub type Batch = bf16[?,128]{1,0:T(8,128)(2,1)};
    #[cfg(not(all()))]
    pub type Absent = f32[3];

    /// One name, a layout per configuration: only one of them exists.
    #[cfg(target_endian = "little")]
    pub type PerTarget = u8[8,128]{1,0:T(8,128)};
    /// One name, a layout per configuration: only one of them exists.
    #[cfg(not(target_endian = "little"))]
    pub type PerTarget = u8[8,128]{0,1};
}

#[test]
#[allow(deprecated)]
fn attributed_types_work() {
    assert_eq!(Rows::offset([1, 2]), 258);
    assert_eq!(<Tiled as StaticShape<2>>::offset([1, 2]), 130);
    let b = Batch::new([3]).unwrap();
    assert_eq!(b.offset_of([0, 1]), 2);
    assert_eq!(Tiled::SIZE_IN_BYTES, Rows::SIZE_IN_BYTES);
}

#[test]
fn one_name_per_configuration() {
    let row_major = cfg!(target_endian = "little");
    assert_eq!(PerTarget::offset([1, 0]) == 128, row_major);
    assert_eq!(<PerTarget as StaticShape<2>>::DIMS, [8, 128]);
}

/// The caller's names do not reach the expansion: primitives and the
/// derived traits shadowed here are named by absolute path there.
mod shadowed {
    #![allow(dead_code, non_camel_case_types)]
    type usize = u8;
    type u8 = bool;
    type u64 = u8;
    type str = u8;
    struct Clone;
    struct Copy;
    struct Debug;

    xla_layout::layout! {
        pub type Tiled = f32[16,256]{1,0:T(8,128)};
        pub type Dynamic = bf16[?,128]{1,0:T(8,128)(2,1)};
        pub type Padded = f32[2,3]{0,1}, padded = [3, 5], padding_value = zero;
    }
}

#[test]
fn shadowed_primitives_do_not_break_the_expansion() {
    use shadowed::{Dynamic, Padded, Tiled};
    assert_eq!(Tiled::offset([1, 2]), 130);
    assert_eq!(Tiled::MEMORY_SPACE, 0);
    assert_eq!(Dynamic::new([3]).unwrap().offset([0, 1]), 2);
    assert_eq!(Padded::ALLOCATED_ELEMENTS, 15);
    assert_eq!(Tiled::TEXT, "f32[16,256]{1,0:T(8,128)}");
}

/// The user's derives of the traits the macro derives win, without a
/// conflict (E0119); `Clone` and `Copy` stay.
mod derives {
    xla_layout::layout! {
        #[derive(Debug)]
        pub type OwnDebug = f32[4,8]{1,0};
        #[derive(::core::hash::Hash, PartialEq, Eq, Clone, Copy)]
        pub type OwnHashAndClone = f32[4,8]{1,0};
        #[cfg_attr(all(), derive(Debug))]
        #[cfg_attr(any(), derive(Default))]
        pub type Conditional = f32[?,8]{1,0};
    }
}

#[test]
fn user_derives_win_and_clone_copy_stay() {
    use derives::{Conditional, OwnDebug, OwnHashAndClone};
    fn copyable<T: Copy + Clone + core::fmt::Debug>(_: T) {}
    copyable(OwnDebug);
    copyable(OwnHashAndClone);
    assert_eq!(format!("{OwnDebug:?}"), "OwnDebug");
    assert_eq!(OwnDebug, <OwnDebug as Default>::default());
    let c = Conditional::new([2]).unwrap();
    copyable(c);
    assert_eq!(c, c.clone());
}

/// `#[expect(dead_code)]` on item types nobody uses is fulfilled (this
/// file denies warnings, `unfulfilled_lint_expectations` among them).
mod unused {
    xla_layout::layout! {
        #[expect(dead_code)]
        type Unused = u8[2];
        #[expect(dead_code, reason = "sized later")]
        type UnusedDynamic = u8[?];
    }
}
