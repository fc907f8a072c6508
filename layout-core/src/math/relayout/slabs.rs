//! Boxes walked together, a slab at a time. A dimension that a tile edge
//! cuts makes boxes of whole tiles and boxes of the rest, and each box
//! walks the whole array: a destination row that the edge cuts in two is
//! written by the first box, then again by the second, after every other
//! row (docs/relayout.md, "Boxes walked together", has the
//! measurements). Where every box ends with the same loop (the same
//! steps and strides, outermost on both sides: dimensions outside the
//! cut ones) and a step of it holds few lines, the serial copy takes a
//! slab of that loop's steps from each box in turn, then the next slab:
//! the lines two boxes share are still cached when the second reaches
//! them. Each part's kernel is decided as it runs (`kernel_of`), as the
//! parts of threads and windows are.

use super::kernels::RelayoutKernel;
use super::modes::{self, Chain, Mode, Nest};
use super::tuning::{SLAB_BOXES, SLAB_BYTES, SLAB_STEP_BYTES};
use super::RelayoutPlan;
use crate::base::limits::MAX_RANK;

impl RelayoutPlan {
    /// The serial copy's walk: `f` with every box, or with every slab's
    /// part of every box where the plan walks them in slabs, and the
    /// kernel that copies it.
    pub(super) fn each_part(
        &self,
        chains: &[Chain; MAX_RANK],
        f: &mut dyn FnMut(RelayoutKernel, &Nest),
    ) {
        if !self.each_slab(chains, f) {
            self.each_decided_box(chains, f);
        }
    }

    /// Calls `f` with the parts of every box, a slab of their shared
    /// outermost loop at a time (see the module's notes), each with the
    /// kernel that copies it: `true`, or `false` without calling `f`
    /// where the plan decided against slabs ([`RelayoutPlan::slabs`]):
    /// where the boxes do not share that loop, where a step of it holds
    /// more than [`SLAB_STEP_BYTES`] of destination, where there is one
    /// box or more than [`SLAB_BOXES`], or where one slab would be the
    /// whole loop (then the caller walks the boxes as they are).
    pub(super) fn each_slab(
        &self,
        chains: &[Chain; MAX_RANK],
        f: &mut dyn FnMut(RelayoutKernel, &Nest),
    ) -> bool {
        let Some((outer, steps)) = self.decided.slab else {
            return false;
        };
        for first in (0..outer.range).step_by(steps as usize) {
            let count = steps.min(outer.range - first);
            self.each_box(chains, &mut |n: &Nest| {
                let part = slab(n, first, count);
                f(self.kernel_of(&part), &part);
            });
        }
        true
    }

    /// The loop every box ends with and the steps of it a slab takes
    /// (about [`SLAB_BYTES`] of source and destination over all the
    /// boxes), where the boxes walk in slabs: decided when the plan is
    /// made (`decide.rs`), which [`RelayoutPlan::each_slab`] reads.
    // Out of line: its nests are off the stack before the plan is stored.
    #[inline(never)]
    pub(super) fn slabs(&self, chains: &[Chain; MAX_RANK]) -> Option<(Mode, u64)> {
        let (mut boxes, mut outer, mut shared) = (0usize, None::<Mode>, true);
        // Bits of source and destination moved in one step of the loop,
        // over all the boxes.
        let (mut bits, mut dst_bits) = (0u64, 0u64);
        let per = self.src_bits.saturating_add(self.dst_bits);
        self.with_pieces(chains, |of| {
            modes::each_box_while(chains, of, self.rank, &mut |n: &Nest| {
                boxes += 1;
                let last = n.loops().last().copied();
                // Outermost on both sides: the kernels' blocks never take it.
                let outside = last.is_some_and(|m| n.loops().iter().all(|l| l.src <= m.src));
                shared &= outside;
                match (last, outer) {
                    (Some(m), None) => outer = Some(m),
                    (Some(m), Some(o)) if m == o => {}
                    _ => shared = false,
                }
                let elements = n
                    .loops()
                    .iter()
                    .fold(1u64, |a, m| a.saturating_mul(m.range));
                let range = last.map_or(1, |m| m.range.max(1));
                let step = elements / range;
                bits = bits.saturating_add(step.saturating_mul(per));
                dst_bits = dst_bits.saturating_add(step.saturating_mul(self.dst_bits));
                shared && boxes <= SLAB_BOXES
            })
        });
        // Steps of many lines: the boxes share few of them, and each
        // box's own streams are better left whole.
        let near = dst_bits <= SLAB_STEP_BYTES.saturating_mul(8);
        let outer = outer.filter(|_| shared && near && (2..=SLAB_BOXES).contains(&boxes))?;
        let steps = (SLAB_BYTES.saturating_mul(8) / bits.max(1)).max(1);
        (steps < outer.range).then_some((outer, steps))
    }
}

/// Steps `first..first + count` of box `n`'s last loop (a loop of one
/// step is dropped).
fn slab(n: &Nest, first: u64, count: u64) -> Nest {
    let mut part = *n;
    if let Some(last) = part.len.checked_sub(1) {
        let m = part.modes[last];
        // (Within the box: `first` is one of its steps.)
        part.src = part.src.wrapping_add(first.wrapping_mul(m.src));
        part.dst = part.dst.wrapping_add(first.wrapping_mul(m.dst));
        part.modes[last].range = count;
        if count == 1 {
            part.len = last;
        }
    }
    part
}

#[cfg(test)]
mod tests {
    use super::super::modes::Nest;
    use super::super::strided::each_slot;
    use super::super::How;
    use crate::{parse_array, RelayoutPlan};

    /// What `n`'s steps add to a sum over (source, destination) pairs:
    /// their count, and two sums that a pair missed or taken twice would
    /// change.
    fn add(n: &Nest, sum: &mut (u64, u64, u64)) {
        each_slot(n, |s, d| {
            let x = s.wrapping_mul(1_000_003).wrapping_add(d);
            sum.0 += 1;
            sum.1 = sum.1.wrapping_add(x);
            sum.2 = sum.2.wrapping_add(x.wrapping_mul(x));
        });
    }

    #[test]
    fn slabs_cover_every_box_once_and_walk_together() {
        let plan = |from: &str, to: &str| {
            RelayoutPlan::new(&parse_array(from).unwrap(), &parse_array(to).unwrap()).unwrap()
        };
        // `T(8,128)` cut at 376 of 384 columns: two boxes (256 columns and
        // 120) that share the loop over the tiles' rows and the planes.
        let p = plan("u8[64,376,36]{1,0,2:T(8,128)}", "u8[64,376,36]{1,0,2}");
        let How::Chains(chains) = &p.how else {
            panic!("chains")
        };
        let mut whole = (0, 0, 0);
        p.each_box(chains, &mut |n: &Nest| add(n, &mut whole));
        assert_eq!(whole.0, 64 * 376 * 36);
        // In slabs: the same steps, each once, the boxes in turn.
        let (mut parts, mut calls, mut firsts) = ((0, 0, 0), 0, [0u64; 3]);
        let slabbed = p.each_slab(chains, &mut |kernel, n: &Nest| {
            assert_eq!(kernel, p.kernel_of(n));
            if let Some(f) = firsts.get_mut(calls) {
                *f = n.dst;
            }
            calls += 1;
            add(n, &mut parts);
        });
        assert!(slabbed, "two boxes share their outer loop");
        assert_eq!(parts, whole);
        assert!(calls >= 4 && calls % 2 == 0, "{calls} parts");
        // The second part is the second box's first slab (past the first
        // box's 256 columns), before the first box's second slab.
        assert!(firsts[0] < firsts[1] && firsts[1] < firsts[2], "{firsts:?}");
        // One box (whole tiles): walked as it is.
        let p = plan("u8[64,384,36]{1,0,2:T(8,128)}", "u8[64,384,36]{1,0,2}");
        let How::Chains(chains) = &p.how else {
            panic!("chains")
        };
        assert!(!p.each_slab(chains, &mut |_, _| panic!("no part")));
    }
}
