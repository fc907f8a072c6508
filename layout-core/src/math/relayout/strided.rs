//! The third of the three general kernels: the fallback, element by
//! element ([`RelayoutKernel::Strided`]). Whole slots go along the
//! innermost loop's strides under the other loops; packed slots that no
//! packed kernel takes go slot by slot at bit offsets ([`each_slot`]
//! hands the offsets to `bits::Copier::one`); layouts without common
//! digit chains walk both layouts' offset functions (`mod.rs`). Every
//! other kernel falls back to [`any_box`] for a box it cannot take,
//! which the decision never hands it: a copy that is right, if slow,
//! rather than a panic.

use super::kernels::{note, RelayoutKernel};
use super::loops::{each, Fix};
use super::modes::Nest;

/// Any box, element by element: strided steps, or its one element. What
/// a kernel falls back to if it is handed a box it cannot take, which
/// `kernels::choose` never does (a copy that is right, if slow, rather
/// than a panic).
pub(crate) fn any_box<T: Copy + 'static, X: Fix<T>>(n: &Nest, src: &[T], dst: &mut [T]) {
    if n.loops().is_empty() {
        dst[n.dst as usize] = X::fix(src[n.src as usize]);
    } else {
        strided::<T, X>(n, src, dst);
    }
}

/// [`RelayoutKernel::Strided`]: element by element along the first loop,
/// under the others.
pub(crate) fn strided<T: Copy + 'static, X: Fix<T>>(n: &Nest, src: &[T], dst: &mut [T]) {
    note(RelayoutKernel::Strided);
    // `choose_fixed` names strided steps only for a box with loops.
    let (m0, rest) = (n.modes[0], &n.modes[1..n.len]);
    let (r, ss, ds) = (m0.range as usize, m0.src as usize, m0.dst as usize);
    each(rest, n.src, n.dst, |s, d| {
        for i in 0..r {
            dst[d + i * ds] = X::fix(src[s + i * ss]);
        }
    });
}

/// Calls `f(src, dst)` with the slot offsets of every element of one box
/// (for the bit-level copies).
pub(crate) fn each_slot(n: &Nest, mut f: impl FnMut(u64, u64)) {
    let Some((m0, rest)) = n.modes[..n.len].split_first() else {
        return f(n.src, n.dst);
    };
    // The innermost loop steps here, the others in `each`. Slot offsets
    // fit in `usize`: the plan checked both allocations.
    each(rest, n.src, n.dst, |s, d| {
        let (mut s, mut d) = (s as u64, d as u64);
        for _ in 0..m0.range {
            f(s, d);
            s = s.wrapping_add(m0.src);
            d = d.wrapping_add(m0.dst);
        }
    });
}
