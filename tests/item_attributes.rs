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
