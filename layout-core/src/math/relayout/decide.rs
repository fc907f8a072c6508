//! The kernels a plan decides when it is made: [`RelayoutPlan::new`] (and
//! `between`) walks the boxes once and stores the kernel of each of the
//! first [`DECIDED`] of them, in the order the copy visits them. A serial
//! copy then runs the stored kernel on each of those boxes without asking
//! again; only boxes past the first [`DECIDED`] (at least three cut
//! dimensions with several pieces each, rare in practice) are decided as
//! the copy reaches them. The decision is `kernels::choose` for whole
//! slots and `bits::Copier::choose` for packed ones, the functions
//! `describe` reports, so a stored kernel is the one the copy would have
//! chosen.
//!
//! Copies cut into other boxes decide each part when it runs: the parts
//! of rayon's threads (their cut depends on the thread count, a parameter
//! of the run, not of the plan), the parts of a window, and the slabs of
//! a serial copy that walks its boxes together (`slabs.rs`).
//!
//! Whether a serial copy walks its boxes together, a slab at a time
//! (`slabs.rs`), is decided here too.
//!
//! The store is `DECIDED` bytes and the slab's loop, inside the plan: no
//! heap. It is filled by a function of its own (out of line), after the
//! plan's other fields, so that its loop nests are on the stack only
//! while it runs, as during a copy.

use super::bits::Copier;
use super::kernels::{self, RelayoutKernel};
use super::modes::{self, Mode, Nest};
use super::{How, RelayoutPlan};

/// The most boxes whose kernel a plan stores (a byte each).
pub(crate) const DECIDED: usize = 64;

/// The kernel of each of the first boxes, in the copy's order, and
/// whether a serial copy walks the boxes in slabs (`slabs.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decided {
    kernels: [RelayoutKernel; DECIDED],
    len: u8,
    /// The loop the boxes share and the steps of it a slab takes, where
    /// they walk in slabs.
    pub(crate) slab: Option<(Mode, u64)>,
}

impl Decided {
    /// Nothing decided (element-by-element copies, empty arrays).
    pub(crate) const NONE: Decided = Decided {
        kernels: [RelayoutKernel::Runs; DECIDED],
        len: 0,
        slab: None,
    };

    /// The kernel decided for box `i` (counted from 0 in the copy's
    /// order), or `None` past the boxes decided.
    pub(crate) fn kernel(&self, i: usize) -> Option<RelayoutKernel> {
        self.all().get(i).copied()
    }

    /// The kernels decided, one per box in the copy's order.
    pub(crate) fn all(&self) -> &[RelayoutKernel] {
        &self.kernels[..usize::from(self.len)]
    }
}

impl RelayoutPlan {
    /// Decides the kernel of each of the first [`DECIDED`] boxes, and
    /// whether the boxes walk in slabs.
    #[inline(never)]
    pub(super) fn decide(&mut self) {
        let How::Chains(chains) = &self.how else {
            return;
        };
        let mut out = Decided::NONE;
        self.with_pieces(chains, |of| {
            modes::each_box_while(chains, of, self.rank, &mut |n: &Nest| {
                out.kernels[usize::from(out.len)] = self.kernel_of(n);
                out.len += 1;
                usize::from(out.len) < DECIDED
            })
        });
        out.slab = self.slabs(chains);
        self.decided = out;
    }

    /// The kernel that copies box `n` of this plan's slots.
    pub(super) fn kernel_of(&self, n: &Nest) -> RelayoutKernel {
        match self.slot_bytes() {
            Some(b) => kernels::choose(n, b as usize),
            None => Copier::new(self.element, self.src_bits, self.dst_bits).choose(n),
        }
    }

    /// Calls `f` with every box of the merged chains and the kernel that
    /// copies it: the one decided when the plan was made, or for boxes
    /// past those, the one `kernel_of` names now.
    pub(super) fn each_decided_box(
        &self,
        chains: &[modes::Chain; crate::base::limits::MAX_RANK],
        f: &mut dyn FnMut(RelayoutKernel, &Nest),
    ) {
        let mut i = 0usize;
        self.each_box(chains, &mut |n: &Nest| {
            // (`kernels`' unit tests check that a decided kernel is the
            // one `kernel_of` names for the box now.)
            let kernel = match self.decided.kernel(i) {
                Some(k) => k,
                None => self.kernel_of(n),
            };
            i += 1;
            f(kernel, n)
        });
    }
}
