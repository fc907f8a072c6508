//! Attributes on item-form types. `cfg` (also inside `cfg_attr`) gates
//! every item generated for the type; `deprecated` and lint attributes
//! concern the user's code, never the generated impls.
#![deny(warnings)]
#![deny(deprecated)]

use xla_layout::{layout, RankedLayout, StaticShape};

layout! {
    /// Configured away with all of its impls and assertions: nothing may
    /// name it, and nothing does.
    #[cfg(any())]
    pub type Gone = f32[3,5]{1,0:T(2,2)};
    #[cfg(any())]
    pub type GoneDynamic = bf16[?,8]{1,0};
    #[cfg_attr(all(), cfg(any()))]
    pub type GoneThroughCfgAttr = u8[4];
    #[cfg_attr(all(), cfg_attr(all(), cfg(any())))]
    pub type GoneNested = u8[4];

    /// Kept: the condition holds.
    #[cfg(all())]
    pub type Kept = f32[3,5]{1,0:T(2,2)};
    #[cfg_attr(any(), derive(NoSuchDerive), cfg(any()))]
    #[cfg_attr(all(), doc = "Documented through `cfg_attr`.")]
    pub type KeptThroughCfgAttr = u8[4];

    /// Deprecated, and not used anywhere: the expansion itself raises no
    /// deprecation warning (this crate denies them).
    #[deprecated = "use `Kept`"]
    pub type Old = f32[3,5]{1,0:T(2,2)};
    #[deprecated]
    pub type OldDynamic = f32[?,5]{1,0};
    /// (trybuild allows `dead_code` on its command line, so whether an
    /// unused type fulfils `#[expect(dead_code)]` is tested in
    /// `testsuite/tests/item_attributes.rs` instead.)
    #[deprecated]
    pub type OldUnused = u8[2];

    /// Lint attributes apply to the struct.
    #[allow(non_camel_case_types)]
    pub type row_major = u8[2,3]{1,0};
    #[allow(dead_code)]
    type NeverUsed = u8[2];
    #[must_use]
    pub type MustUse = f32[?,5]{1,0};
}

// Names of configured-away types are free again.
#[allow(dead_code)]
struct Gone;

#[allow(deprecated)]
fn old_users() -> usize {
    let dynamic = OldDynamic::new([4]).unwrap();
    Old::offset([1, 2]) + <Old as StaticShape<2>>::SIZE_IN_BYTES + dynamic.offset_of([3, 4])
}

fn main() {
    assert_eq!(Kept::offset([1, 2]), <Kept as StaticShape<2>>::offset([1, 2]));
    assert_eq!(KeptThroughCfgAttr::RANK, 1);
    assert_eq!(row_major::offset([1, 2]), 5);
    assert_eq!(old_users(), Kept::offset([1, 2]) + 96 + 19);
    let m = MustUse::new([2]).unwrap();
    assert_eq!(m.offset([1, 4]), 9);
}
