//! [`RelayoutKernel::SubTiles`](super::RelayoutKernel::SubTiles) on
//! nibbles: `E(4)` sub-tiles transposed against each other, the same
//! copy of units (`kernels::unit_nest`, `kernels::copy_fixed`) as the
//! sub-tiles of whole slots, with the nibbles' own transpose of each
//! unit ([`Unit`], as [`Transposed`](super::loops::Transposed) is for
//! elements). Where a box's two
//! innermost loops are `A` nibbles contiguous in the source (a `(2,1)`
//! or `(4,1)` sub-tile's rows) and `B` contiguous in the destination,
//! each continuing the other (`B` steps of `A` in the source, `A` steps
//! of `B` in the destination), the `A` x `B` nibbles are one unit of
//! whole bytes on both sides (2, 4 or 8 bytes). The box is then a copy
//! of units, by the byte kernels' transposes, each unit's nibbles
//! transposed on the way by a few shifts and masks: `(2,1)` pairs
//! against `(2,1)` pairs (2 x 2), `(4,1)` quads against pairs (4 x 2 and
//! 2 x 4), quads against quads (4 x 4).

use super::kernels;
use super::loops::Fix;
use super::modes::Nest;

/// The sides `(A, B)` of the units of box `n` (offsets in nibbles) and
/// the nest over whole units (offsets in units), or `None` where the box
/// is no such copy.
pub(crate) fn units(n: &Nest) -> Option<(u64, u64, Nest)> {
    // The sides the two first loops would give: `A` the second's steps,
    // `B` the first's.
    let [m0, m1, ..] = n.loops() else {
        return None;
    };
    let (a, b) = (m1.range, m0.range);
    if !matches!((a, b), (2, 2) | (4, 2) | (2, 4) | (4, 4)) {
        return None;
    }
    kernels::unit_nest(n, a, b, 1).map(|u| (a, b, u))
}

/// Copies box `n` of nibbles as units: `false`, with nothing copied,
/// where [`units`] is `None`.
pub(crate) fn copy(n: &Nest, src: &[u8], dst: &mut [u8]) -> bool {
    let Some((a, b, u)) = units(n) else {
        return false;
    };
    match (a, b) {
        (2, 2) => go::<2, Unit<2, 2>>(&u, src, dst),
        (4, 2) => go::<4, Unit<4, 2>>(&u, src, dst),
        (2, 4) => go::<4, Unit<2, 4>>(&u, src, dst),
        _ => go::<8, Unit<4, 4>>(&u, src, dst),
    }
    true
}

/// The units of `N` bytes of nest `u`, each passed through `X`.
fn go<const N: usize, X: Fix<[u8; N]>>(u: &Nest, src: &[u8], dst: &mut [u8]) {
    kernels::copy_fixed::<[u8; N], X>(u, src.as_chunks::<N>().0, dst.as_chunks_mut::<N>().0);
}

/// A unit of `A` x `B` nibbles: nibble `x + A y` of the source's bytes
/// (`x < A` along a source run) goes to nibble `y + B x` of the
/// destination's (nibble `2k` low in byte `k`).
pub(crate) struct Unit<const A: usize, const B: usize>;

/// `w` with the bits under `mask` and those `shift` above them swapped.
#[inline(always)]
const fn swap(w: u64, mask: u64, shift: u32) -> u64 {
    let t = ((w >> shift) ^ w) & mask;
    w ^ t ^ (t << shift)
}

impl Fix<[u8; 2]> for Unit<2, 2> {
    const SAME: bool = false;
    #[inline(always)]
    fn fix([a, b]: [u8; 2]) -> [u8; 2] {
        [(a & 0x0F) | (b << 4), (a >> 4) | (b & 0xF0)]
    }
}

/// The two swaps of bytes 1 and 2 (`BYTES`) and of the middle nibbles of
/// each half (`NIBBLES`) on the four bytes `t`, in the order given.
#[inline(always)]
fn swaps4(t: [u8; 4], [a, b]: [(u64, u32); 2]) -> [u8; 4] {
    let w = u64::from(u32::from_le_bytes(t));
    (swap(swap(w, a.0, a.1), b.0, b.1) as u32).to_le_bytes()
}

const BYTES: (u64, u32) = (0x0000_FF00, 8);
const NIBBLES: (u64, u32) = (0x00F0_00F0, 4);

impl Fix<[u8; 4]> for Unit<4, 2> {
    const SAME: bool = false;
    /// Two rows of 4 interleaved: bytes 1 and 2 swapped, then the middle
    /// nibbles of each half.
    #[inline(always)]
    fn fix(t: [u8; 4]) -> [u8; 4] {
        swaps4(t, [BYTES, NIBBLES])
    }
}

impl Fix<[u8; 4]> for Unit<2, 4> {
    const SAME: bool = false;
    /// The inverse of `Unit<4, 2>`: the same two swaps, the other way
    /// round.
    #[inline(always)]
    fn fix(t: [u8; 4]) -> [u8; 4] {
        swaps4(t, [NIBBLES, BYTES])
    }
}

impl Fix<[u8; 8]> for Unit<4, 4> {
    const SAME: bool = false;
    /// A 4 x 4 transpose: the off-diagonal 2 x 2 blocks swapped, then
    /// the off-diagonal nibbles of each block.
    #[inline(always)]
    fn fix(t: [u8; 8]) -> [u8; 8] {
        let w = u64::from_le_bytes(t);
        let w = swap(
            swap(w, 0x0000_0000_FF00_FF00, 24),
            0x0000_F0F0_0000_F0F0,
            12,
        );
        w.to_le_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nibble `k` of `bytes` (low first).
    fn nibble(bytes: &[u8], k: usize) -> u8 {
        (bytes[k / 2] >> (4 * (k % 2))) & 0x0F
    }

    /// Every unit's fix against the definition, nibble by nibble, for
    /// units whose nibbles are all different.
    fn check<const A: usize, const B: usize, const N: usize>()
    where
        Unit<A, B>: Fix<[u8; N]>,
    {
        for seed in 0..64u64 {
            let t: [u8; N] = core::array::from_fn(|i| {
                let k = (2 * i) as u64;
                (((k + seed) % 16) | (((k + 1 + seed * 7) % 16) << 4)) as u8
            });
            let out = Unit::<A, B>::fix(t);
            for x in 0..A {
                for y in 0..B {
                    assert_eq!(
                        nibble(&out, y + B * x),
                        nibble(&t, x + A * y),
                        "{A} x {B}: x {x}, y {y}, unit {t:02x?}"
                    );
                }
            }
        }
    }

    #[test]
    fn units_transpose_their_nibbles() {
        check::<2, 2, 2>();
        check::<4, 2, 4>();
        check::<2, 4, 4>();
        check::<4, 4, 8>();
    }
}
