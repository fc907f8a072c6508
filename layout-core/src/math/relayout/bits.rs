//! Copies at bit offsets, for packed (`E(n)`) elements: slot `o` of a
//! layout with `n`-bit slots takes bits `o·n .. o·n + n`, counted from the
//! least significant bit of byte 0. Slots of the same width are copied
//! whole; where the two sides' widths differ, the value (the type's own
//! bits) is repacked: sign-extended for signed integers, zero-extended
//! otherwise.

use super::chunks::{self, Chunk};
use super::few;
use super::kernels::{self, RelayoutKernel};
use super::loops::each;
use super::modes::{Mode, Nest, MODES};
use super::nibble_block::NibbleBlock;
use super::nibble_units;
use super::simd;
use super::subbyte;
use super::tuning::{CHUNK_PAIRS_RUN, NIBBLE_RUN, NIBBLE_TUPLES, NIBBLE_TUPLES_RUN, QUAD_PIECE};
use crate::base::element::ElementType;

/// Low `w` bits set.
const fn mask(w: u64) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// Reads `w` bits at bit `at`.
fn read(buf: &[u8], at: u64, w: u64) -> u128 {
    if w <= 8 && 8 % w == 0 {
        // Never straddles a byte.
        return u128::from(buf[(at / 8) as usize] >> (at % 8)) & mask(w);
    }
    let mut v = 0u128;
    let mut got = 0;
    let mut pos = at;
    while got < w {
        let shift = pos % 8;
        let take = (8 - shift).min(w - got);
        let part = (u128::from(buf[(pos / 8) as usize]) >> shift) & mask(take);
        v |= part << got;
        got += take;
        pos += take;
    }
    v
}

/// Writes the low `w` bits of `v` at bit `at`.
fn write(buf: &mut [u8], at: u64, w: u64, v: u128) {
    if w == 0 {
        return;
    }
    if w <= 8 && 8 % w == 0 {
        // Never straddles a byte.
        let shift = at % 8;
        let m = (mask(w) as u8) << shift;
        let byte = &mut buf[(at / 8) as usize];
        *byte = (*byte & !m) | (((v & mask(w)) as u8) << shift);
        return;
    }
    let mut put = 0;
    let mut pos = at;
    while put < w {
        let shift = pos % 8;
        let take = (8 - shift).min(w - put);
        let m = (mask(take) as u8) << shift;
        let part = (((v >> put) & mask(take)) as u8) << shift;
        let byte = &mut buf[(pos / 8) as usize];
        *byte = (*byte & !m) | part;
        put += take;
        pos += take;
    }
}

/// Clears bits `a..b`: the partial bytes at either end bit by bit, the
/// whole bytes between at once.
fn zero_bits(buf: &mut [u8], a: u64, b: u64) {
    if a >= b {
        return;
    }
    let head = a.next_multiple_of(8).min(b);
    write(buf, a, head - a, 0);
    let tail = (b / 8 * 8).max(head);
    buf[(head / 8) as usize..(tail / 8) as usize].fill(0);
    write(buf, tail, b - tail, 0);
}

/// Box `n` of slots `k` to a byte as a box of bytes, where it moves whole
/// bytes on both sides: it starts on whole bytes, its first loop is runs
/// of whole bytes contiguous on both sides, and every other step moves
/// whole bytes. `None` otherwise.
pub(crate) fn byte_nest(n: &Nest, k: u64) -> Option<Nest> {
    let modes = n.loops();
    let (&m0, rest) = modes.split_first()?;
    let whole = |m: &Mode| m.src.is_multiple_of(k) && m.dst.is_multiple_of(k);
    let runs = m0.src == 1 && m0.dst == 1 && m0.range.is_multiple_of(k);
    if !n.src.is_multiple_of(k) || !n.dst.is_multiple_of(k) || !runs || !rest.iter().all(whole) {
        return None;
    }
    let run = m0.range / k;
    Some(if run > 1 {
        let mut b = Nest::scaled(modes, k, k, n.src / k, n.dst / k);
        b.modes[0] = Mode {
            range: run,
            src: 1,
            dst: 1,
        };
        b
    } else {
        Nest::scaled(rest, k, k, n.src / k, n.dst / k)
    })
}

/// Copies one element type between slots of `src_bits` and `dst_bits`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Copier {
    src_bits: u64,
    dst_bits: u64,
    value_bits: u64,
    signed: bool,
}

impl Copier {
    pub(crate) fn new(t: ElementType, src_bits: u64, dst_bits: u64) -> Copier {
        Copier {
            src_bits,
            dst_bits,
            // Slots of one width are copied whole.
            value_bits: if src_bits == dst_bits {
                src_bits
            } else {
                u64::from(t.bit_width())
            },
            signed: t.is_signed_integer(),
        }
    }

    /// Every slot below `slots` holds `pattern`, the rest of `dst` zero.
    pub(crate) fn fill(&self, dst: &mut [u8], pattern: u128, slots: u64) {
        dst.fill(0);
        if pattern != 0 {
            for o in 0..slots {
                write(dst, o * self.dst_bits, self.dst_bits, pattern);
            }
        }
    }

    /// Writes `pattern` into slots `lo..lo + len` of `dst` (whole bytes at
    /// a time for zeros).
    pub(crate) fn fill_slots(&self, dst: &mut [u8], lo: u64, len: u64, pattern: u128) {
        let w = self.dst_bits;
        if pattern == 0 {
            return zero_bits(dst, lo * w, (lo + len) * w);
        }
        for o in lo..lo + len {
            write(dst, o * w, w, pattern);
        }
    }

    /// Zeroes the bits of `dst` after its first `slots` slots.
    pub(crate) fn clear_after(&self, dst: &mut [u8], slots: u64) {
        zero_bits(dst, slots * self.dst_bits, dst.len() as u64 * 8);
    }

    /// Copies the element in source slot `s` to destination slot `d`.
    #[inline]
    pub(crate) fn one(&self, src: &[u8], s: u64, dst: &mut [u8], d: u64) {
        let mut v = read(src, s * self.src_bits, self.src_bits) & mask(self.value_bits);
        if self.dst_bits > self.value_bits && self.signed && (v >> (self.value_bits - 1)) & 1 == 1 {
            v |= mask(self.dst_bits) & !mask(self.value_bits);
        }
        write(dst, d * self.dst_bits, self.dst_bits, v);
    }

    /// Copies a box through the kernel [`Copier::choose`] names for it
    /// (`true`), or leaves it to [`Copier::one`] (`false`: slot by slot).
    pub(crate) fn nest(&self, n: &Nest, src: &[u8], dst: &mut [u8]) -> bool {
        self.nest_as(self.choose(n), n, src, dst)
    }

    /// Copies box `n` with `kernel`, the one [`Copier::choose`] names for
    /// it (when the copy runs, or when the plan was made: `decide.rs`);
    /// `false` for [`RelayoutKernel::Strided`] (slot by slot, the caller's
    /// [`Copier::one`]), and for a kernel that cannot take the box, which
    /// `choose` never names.
    pub(crate) fn nest_as(
        &self,
        kernel: RelayoutKernel,
        n: &Nest,
        src: &[u8],
        dst: &mut [u8],
    ) -> bool {
        let w = self.src_bits;
        let done = match kernel {
            RelayoutKernel::Pack => self.way() == Some(true) && self.pack(n, src, dst),
            RelayoutKernel::Unpack => self.way() == Some(false) && self.unpack(n, src, dst),
            // Sub-tiles of whole bytes (`choose` names the kernel of
            // whole slots for those), else of nibbles.
            RelayoutKernel::SubTiles => {
                self.as_bytes(kernel, n, src, dst) || self.nibble_squares(n, src, dst)
            }
            RelayoutKernel::NibblePairs => self.nibble_pairs(n, src, dst),
            RelayoutKernel::NibbleTranspose => self.nibble_transpose(n, src, dst),
            // (`subbyte::copy` tells its runs from its blocks by the tests
            // `subbyte::choose` makes.)
            RelayoutKernel::PackedRuns | RelayoutKernel::PackedBlocks => {
                w == self.dst_bits && subbyte::copy(n, w as usize, src, dst).is_some()
            }
            // The chunks of whole bytes, where the box is (`choose` names
            // the kernel of whole slots for those), else of packed slots.
            RelayoutKernel::Chunks => {
                self.as_bytes(kernel, n, src, dst)
                    || (w == self.dst_bits && chunks::copy(n, w as usize, src, dst))
            }
            // A kernel of whole slots, which `choose` names for a box of
            // whole bytes on both sides: that kernel on the bytes. Else
            // strided steps, here slot by slot (`false`).
            kernel => self.as_bytes(kernel, n, src, dst),
        };
        debug_assert!(
            done || kernel == RelayoutKernel::Strided,
            "{kernel} did not take {n:?}"
        );
        done
    }

    /// The kernel that copies box `n` (the one place where the packed
    /// kernels' tests are made, in order: packing to and unpacking from a
    /// byte per value, whole bytes (the kernel of whole slots that
    /// `kernels::choose` names for the bytes), `(2,1)` nibble sub-tiles and pairs,
    /// nibble transposes, then `subbyte.rs`'s runs and blocks for slots of
    /// one width below a byte); [`RelayoutKernel::Strided`] (slot by slot)
    /// where none takes it. Out of line, as `kernels::choose`: its tests'
    /// nests are off the stack before the chosen kernel runs.
    #[inline(never)]
    pub(crate) fn choose(&self, n: &Nest) -> RelayoutKernel {
        if let Some(k) = self.special_kind(n) {
            return k;
        }
        if self.src_bits == self.dst_bits
            && let Some(k) = subbyte::choose(n, self.src_bits as usize)
        {
            return k;
        }
        RelayoutKernel::Strided
    }

    /// `Some(true)` where values of 1, 2 or 4 bits go from a byte each
    /// into slots of their own width (packing), `Some(false)` for the
    /// reverse (unpacking), `None` otherwise.
    fn way(&self) -> Option<bool> {
        match (self.src_bits, self.dst_bits, self.value_bits) {
            (8, w, v) if v == w && matches!(w, 1 | 2 | 4) => Some(true),
            (w, 8, v) if v == w && matches!(w, 1 | 2 | 4) => Some(false),
            _ => None,
        }
    }

    /// The slots per byte (`8 / w`) where both sides have slots of `w`
    /// bits (1, 2 or 4) and box `n` starts on whole bytes on both sides:
    /// what every kernel of whole bytes or nibble pairs needs; else
    /// `None`.
    fn per_byte(&self, n: &Nest) -> Option<u64> {
        let w = self.src_bits;
        if w != self.dst_bits || !matches!(w, 1 | 2 | 4) {
            return None;
        }
        let k = 8 / w;
        (n.src.is_multiple_of(k) && n.dst.is_multiple_of(k)).then_some(k)
    }

    /// Box `n` in whole bytes on both sides ([`byte_nest`]): slots of
    /// one width below a byte, every step of the box a whole number of
    /// bytes. Such a box is copied as bytes, by the kernels of whole
    /// slots.
    pub(crate) fn bytes_of(&self, n: &Nest) -> Option<Nest> {
        byte_nest(n, self.per_byte(n)?)
    }

    /// The kernel of whole slots that copies box `n` as bytes
    /// ([`Copier::bytes_of`]), or `None` where the box is not whole bytes.
    /// Out of line: the byte nest is off the stack when it returns.
    #[inline(never)]
    fn bytes_kernel(&self, n: &Nest) -> Option<RelayoutKernel> {
        self.bytes_of(n).map(|bytes| kernels::choose(&bytes, 1))
    }

    /// Box `n` copied as bytes ([`Copier::bytes_of`]) by `kernel`, the
    /// kernel of whole slots that [`Copier::bytes_kernel`] names for them
    /// (a byte as an array of one, which `simd` shuffles); `false` where
    /// the box is not whole bytes.
    #[inline(never)]
    fn as_bytes(&self, kernel: RelayoutKernel, n: &Nest, src: &[u8], dst: &mut [u8]) -> bool {
        let Some(bytes) = self.bytes_of(n) else {
            return false;
        };
        let (src, dst) = (src.as_chunks::<1>().0, dst.as_chunks_mut::<1>().0);
        kernels::copy_as(kernel, &bytes, src, dst);
        true
    }

    /// Box `n` as a nibble transpose whose other loops all move whole
    /// bytes: its first loop, the first loop contiguous in the source,
    /// and the other loops in bytes (from offset 0). `None` for other
    /// boxes.
    // Out of line, as is the caller's nest of the other loops: each
    // loop list is 3 KiB at rank 16.
    #[inline(never)]
    fn nibble_shape(&self, n: &Nest) -> Option<(Mode, Mode)> {
        if self.per_byte(n)? != 2 || n.len < 2 {
            return None;
        }
        let (m0, m1, others, len) = n.transposed()?;
        let bytes = |m: &Mode| m.src.is_multiple_of(2) && m.dst.is_multiple_of(2);
        others[..len].iter().all(bytes).then_some((m0, m1))
    }

    /// The loops of box `n` other than the two [`Copier::nibble_shape`]
    /// names, in bytes, from offset 0.
    fn nibble_outer(n: &Nest) -> Nest {
        match n.transposed() {
            Some((_, _, others, len)) => Nest::scaled(&others[..len], 2, 2, 0, 0),
            None => Nest::new(),
        }
    }

    /// Rows woven into one run of nibble pairs or quads (`Some((true,
    /// k))`, `k` rows: the `(2,1)` and `(4,1)` sub-tiles of `E(4)`), one
    /// such run split into `k` rows (`Some((false, k))`), or neither.
    fn pairs_way(m0: &Mode, m1: &Mode) -> Option<(bool, u64)> {
        let even = |x: u64| x.is_multiple_of(2);
        for k in [2, 4] {
            if m0.range == k && m0.dst == 1 && even(m0.src) && m1.dst == k && even(m1.range) {
                return Some((true, k));
            }
            if m1.range == k && even(m1.dst) && m0.src == k && m0.dst == 1 && even(m0.range) {
                return Some((false, k));
            }
        }
        None
    }

    /// What [`Copier::choose`] tries before `subbyte.rs`: `Some` of the
    /// kernel of packing, unpacking, whole bytes or nibble pairs and
    /// transposes that takes box `n`, `None` where none does.
    fn special_kind(&self, n: &Nest) -> Option<RelayoutKernel> {
        match self.way() {
            Some(true) => return self.pack_way(n).map(|_| RelayoutKernel::Pack),
            Some(false) => return self.unpack_way(n).map(|_| RelayoutKernel::Unpack),
            None => {}
        }
        if let Some(k) = self.bytes_kernel(n) {
            return Some(k);
        }
        if self.per_byte(n) == Some(2) && n.len >= 2 {
            if nibble_units::units(n).is_some() {
                return Some(RelayoutKernel::SubTiles);
            }
            if let Some((m0, m1)) = self.nibble_shape(n) {
                if let Some((weave, _)) = Self::pairs_way(&m0, &m1) {
                    // Runs of a few pairs or quads: a byte or two at a
                    // step, which the chunks beat.
                    let run = if weave { m1.range } else { m0.range };
                    if run < CHUNK_PAIRS_RUN && Chunk::plan(n).is_some() {
                        return Some(RelayoutKernel::Chunks);
                    }
                    return Some(RelayoutKernel::NibblePairs);
                }
                // A block of fewer rows than the shuffles take goes nibble
                // pair by pair: tuples of up to 8 rows go faster woven or
                // split (below), where they are such tuples.
                if let Some((b, _)) = NibbleBlock::of(n)
                    && (b.shuffled() || self.pairs_anywhere(n).is_none())
                {
                    return Some(RelayoutKernel::NibbleTranspose);
                }
            }
        }
        self.pairs_anywhere(n).map(|_| RelayoutKernel::NibblePairs)
    }

    /// A few rows of nibbles (2, 4 or 8: the `(2,1)` and `(4,1)` sub-tiles
    /// of `E(4)`, a dimension of 8) at any place in their bytes: `Some((true,
    /// k, m0, m1))` where `k` source rows (`m0`, `k` steps) are woven into
    /// one destination run of `k`-tuples (`m1`'s steps a tuple each),
    /// `Some((false, k, ..))` where one source run of `k`-tuples (`m0`'s
    /// steps) is split into `k` rows (`m1`, `k` steps), with the other
    /// loops (`Nest::transposed`'s); `None` otherwise, and for rows
    /// shorter than [`NIBBLE_RUN`] (pairs) or [`NIBBLE_TUPLES_RUN`].
    fn pairs_anywhere(&self, n: &Nest) -> Option<(bool, u64, Mode, Mode, [Mode; MODES], usize)> {
        if self.src_bits != 4 || self.dst_bits != 4 || n.len < 2 {
            return None;
        }
        let (m0, m1, others, len) = n.transposed()?;
        let tuple = |k: u64| matches!(k, 2 | 4 | 8);
        // (Where, and the tuples and their count.)
        let (way, k, count) = if m0.dst == 1 && m1.dst == m0.range && tuple(m0.range) {
            (true, m0.range, m1.range)
        } else if m0.dst == 1 && m0.src == m1.range && tuple(m1.range) {
            (false, m1.range, m0.range)
        } else {
            return None;
        };
        let least = if k == 2 {
            NIBBLE_RUN
        } else {
            NIBBLE_TUPLES_RUN
        };
        (count >= least).then_some((way, k, m0, m1, others, len))
    }

    /// [`Copier::pairs_anywhere`]'s rows woven or split a piece at a
    /// time: the source's nibbles moved to whole bytes on the stack
    /// (shifted by a nibble where they start inside a byte), woven or
    /// split there, and written to the destination the same way.
    fn pairs_at_any_phase(&self, n: &Nest, src: &[u8], dst: &mut [u8]) -> bool {
        let Some((way, k, m0, m1, others, len)) = self.pairs_anywhere(n) else {
            return false;
        };
        // Each piece through `k / 2` rows of bytes, every byte a pair of
        // the tuples' nibbles (`2q`, `2q + 1`), woven into (split from)
        // the two rows of those nibbles.
        let (rows, row) = if way {
            (m1.range as usize, m0.src as usize)
        } else {
            (m0.range as usize, m1.dst as usize)
        };
        let outer = &others[..len];
        match k {
            2 => tuples_any_phase::<1>(way, outer, n, rows, row, src, dst),
            4 => tuples_any_phase::<2>(way, outer, n, rows, row, src, dst),
            _ => tuples_any_phase::<4>(way, outer, n, rows, row, src, dst),
        }
        true
    }

    /// [`RelayoutKernel::NibblePairs`]: nibble pairs, the `(2,1)` sub-tile
    /// of `E(4)` layouts, or quads, the `(4,1)` one: two (four) source
    /// rows woven into one destination run, or one source run split into
    /// two (four) destination rows. `false` for other boxes.
    fn nibble_pairs(&self, n: &Nest, src: &[u8], dst: &mut [u8]) -> bool {
        let whole = if self.per_byte(n) == Some(2) {
            self.nibble_shape(n)
        } else {
            None
        };
        let Some((m0, m1)) = whole else {
            return self.pairs_at_any_phase(n, src, dst);
        };
        let outer = Self::nibble_outer(n);
        match Self::pairs_way(&m0, &m1) {
            Some((true, 2)) => {
                let (half, row) = ((m1.range / 2) as usize, (m0.src / 2) as usize);
                each(outer.loops(), n.src / 2, n.dst / 2, |s, d| {
                    let (a, b) = (&src[s..s + half], &src[s + row..s + row + half]);
                    weave(a, b, &mut dst[d..d + 2 * half]);
                });
                true
            }
            Some((false, 2)) => {
                let (half, row) = ((m0.range / 2) as usize, (m1.dst / 2) as usize);
                each(outer.loops(), n.src / 2, n.dst / 2, |s, d| {
                    let (a, b) = dst[d..d + row + half].split_at_mut(row);
                    unweave(&src[s..s + 2 * half], &mut a[..half], &mut b[..half]);
                });
                true
            }
            Some((true, _)) => {
                let (nibbles, row) = (m1.range as usize, (m0.src / 2) as usize);
                each(outer.loops(), n.src / 2, n.dst / 2, |s, d| {
                    weave_quads(src, s, row, nibbles, &mut dst[d..d + 2 * nibbles]);
                });
                true
            }
            Some((false, _)) => {
                let (nibbles, row) = (m0.range as usize, (m1.dst / 2) as usize);
                each(outer.loops(), n.src / 2, n.dst / 2, |s, d| {
                    split_quads(&src[s..s + 2 * nibbles], dst, d, row);
                });
                true
            }
            None => self.pairs_at_any_phase(n, src, dst),
        }
    }

    /// [`RelayoutKernel::NibbleTranspose`]: 2 x 2 nibbles, a byte from
    /// each of two source rows, into a byte of each of two destination
    /// rows. `false` for other boxes.
    fn nibble_transpose(&self, n: &Nest, src: &[u8], dst: &mut [u8]) -> bool {
        if self.per_byte(n) != Some(2) {
            return false;
        }
        let Some((b, outer)) = NibbleBlock::of(n) else {
            return false;
        };
        each(outer.loops(), n.src / 2, n.dst / 2, |s, d| {
            b.copy(src, s, dst, d)
        });
        true
    }
}

impl Copier {
    /// `E(4)` sub-tiles transposed against each other (`nibble_units.rs`):
    /// units of 2 x 2 to 4 x 4 nibbles, whole bytes on both sides, each
    /// transposed on the way. `false` for other boxes.
    fn nibble_squares(&self, n: &Nest, src: &[u8], dst: &mut [u8]) -> bool {
        self.per_byte(n) == Some(2) && nibble_units::copy(n, src, dst)
    }

    /// How [`Copier::pack`] takes box `n`: `Some(true)` as runs,
    /// `Some(false)` as two rows woven, `None` not at all.
    fn pack_way(&self, n: &Nest) -> Option<bool> {
        let modes = &n.modes[..n.len];
        let (&m0, rest) = modes.split_first()?;
        let k = 8 / self.dst_bits;
        let whole = |m: &Mode| m.dst.is_multiple_of(k);
        if !n.dst.is_multiple_of(k) {
            return None;
        }
        if m0.src == 1 && m0.dst == 1 && m0.range % k == 0 && rest.iter().all(whole) {
            return Some(true);
        }
        if self.dst_bits != 4 {
            return None;
        }
        let (_, m1, others, len) = n.transposed()?;
        let rows = m0.range == 2 && m0.dst == 1 && m1.dst == 2 && others[..len].iter().all(whole);
        rows.then_some(false)
    }

    /// How [`Copier::unpack`] takes box `n`: `Some(true)` as runs,
    /// `Some(false)` as one run split into two rows, `None` not at all.
    fn unpack_way(&self, n: &Nest) -> Option<bool> {
        let modes = &n.modes[..n.len];
        let (&m0, rest) = modes.split_first()?;
        let k = 8 / self.src_bits;
        let whole = |m: &Mode| m.src.is_multiple_of(k);
        if !n.src.is_multiple_of(k) {
            return None;
        }
        if m0.src == 1 && m0.dst == 1 && m0.range % k == 0 && rest.iter().all(whole) {
            return Some(true);
        }
        if self.src_bits != 4 {
            return None;
        }
        let (_, m1, others, len) = n.transposed()?;
        let (cols, row) = (m0.range, m1.dst);
        let split = m0.src == 2 && m0.dst == 1 && m1.range == 2 && row >= cols;
        (split && others[..len].iter().all(whole)).then_some(false)
    }

    /// Values of `w` bits (1, 2 or 4) from a byte each into slots of `w`
    /// bits (`s4` as NumPy holds it into `E(4)`, `pred` into `E(1)`): a
    /// contiguous run `8 / w` values to a byte, or for nibbles two source
    /// rows woven into one run (the `(2,1)` sub-tile). The low `w` bits of
    /// each source byte are the value. `false` for other boxes.
    fn pack(&self, n: &Nest, src: &[u8], dst: &mut [u8]) -> bool {
        let Some(runs) = self.pack_way(n) else {
            return false;
        };
        let modes = &n.modes[..n.len];
        let Some((&m0, rest)) = modes.split_first() else {
            return false;
        };
        let (w, k) = (self.dst_bits as usize, 8 / self.dst_bits);
        if runs {
            let len = (m0.range / k) as usize;
            each(
                Nest::scaled(rest, 1, k, 0, 0).loops(),
                n.src,
                n.dst / k,
                |s, d| {
                    let (from, to) = (&src[s..s + k as usize * len], &mut dst[d..d + len]);
                    match w {
                        1 => pack_run::<1>(from, to),
                        2 => pack_run::<2>(from, to),
                        _ => pack_run::<4>(from, to),
                    }
                },
            );
            return true;
        }
        // Two rows woven (`pack_way` checked the loops).
        let Some((_, m1, others, len)) = n.transposed() else {
            return false;
        };
        let (cols, row) = (m1.range as usize, m0.src as usize);
        each(
            Nest::scaled(&others[..len], 1, 2, 0, 0).loops(),
            n.src,
            n.dst / 2,
            |s, d| {
                let (a, b) = (&src[s..s + cols], &src[s + row..s + row + cols]);
                for ((o, &x), &y) in dst[d..d + cols].iter_mut().zip(a).zip(b) {
                    *o = (x & 0x0F) | (y << 4);
                }
            },
        );
        true
    }

    /// The inverse of [`Copier::pack`]: slots of `w` bits into a byte
    /// each, sign-extended for signed types.
    fn unpack(&self, n: &Nest, src: &[u8], dst: &mut [u8]) -> bool {
        let Some(runs) = self.unpack_way(n) else {
            return false;
        };
        let modes = &n.modes[..n.len];
        let Some((&m0, rest)) = modes.split_first() else {
            return false;
        };
        let (w, k) = (self.src_bits as usize, 8 / self.src_bits);
        let signed = self.signed;
        if runs {
            let len = (m0.range / k) as usize;
            each(
                Nest::scaled(rest, k, 1, 0, 0).loops(),
                n.src / k,
                n.dst,
                |s, d| {
                    let (from, to) = (&src[s..s + len], &mut dst[d..d + k as usize * len]);
                    match (w, signed) {
                        (1, false) => unpack_run::<1, false>(from, to),
                        (1, true) => unpack_run::<1, true>(from, to),
                        (2, false) => unpack_run::<2, false>(from, to),
                        (2, true) => unpack_run::<2, true>(from, to),
                        (_, false) => unpack_run::<4, false>(from, to),
                        (_, true) => unpack_run::<4, true>(from, to),
                    }
                },
            );
            return true;
        }
        // One run split into two destination rows `row` apart, each
        // `cols` long (`unpack_way` checked that they do not overlap).
        let Some((_, m1, others, len)) = n.transposed() else {
            return false;
        };
        let (cols, row) = (m0.range as usize, m1.dst as usize);
        each(
            Nest::scaled(&others[..len], 2, 1, 0, 0).loops(),
            n.src / 2,
            n.dst,
            |s, d| {
                let (a, b) = dst[d..d + row + cols].split_at_mut(row);
                let (a, b, from) = (&mut a[..cols], &mut b[..cols], &src[s..s + cols]);
                if signed {
                    unweave_run::<true>(from, a, b);
                } else {
                    unweave_run::<false>(from, a, b);
                }
            },
        );
        true
    }
}

/// `8 / W` values of `W` bits from a byte each into every byte of `to`.
fn pack_run<const W: usize>(from: &[u8], to: &mut [u8]) {
    let low = mask(W as u64) as u8;
    for (o, g) in to.iter_mut().zip(from.chunks_exact(8 / W)) {
        let mut b = 0;
        for (i, &v) in g.iter().enumerate() {
            b |= (v & low) << (i * W);
        }
        *o = b;
    }
}

/// Each byte of `from` into `8 / W` values of `W` bits, a byte each
/// (sign-extended when `SIGNED`).
fn unpack_run<const W: usize, const SIGNED: bool>(from: &[u8], to: &mut [u8]) {
    let (low, up) = (mask(W as u64) as u8, 8 - W as u32);
    for (g, &b) in to.chunks_exact_mut(8 / W).zip(from) {
        for (i, o) in g.iter_mut().enumerate() {
            let v = b >> (i * W) & low;
            *o = if SIGNED {
                ((v << up) as i8 >> up) as u8
            } else {
                v
            };
        }
    }
}

/// Each byte of `from` into the low nibble (to `a`) and the high nibble
/// (to `b`), a byte each (sign-extended when `SIGNED`).
fn unweave_run<const SIGNED: bool>(from: &[u8], a: &mut [u8], b: &mut [u8]) {
    let widen = |v: u8| {
        if SIGNED {
            ((v << 4) as i8 >> 4) as u8
        } else {
            v
        }
    };
    for ((x, y), &v) in a.iter_mut().zip(b.iter_mut()).zip(from) {
        *x = widen(v & 0x0F);
        *y = widen(v >> 4);
    }
}

/// [`Copier::pairs_at_any_phase`] for tuples of `2 * H` nibbles (`H`
/// bytes): `len` of them woven from (`way`) or split into `2 * H` rows
/// `row` apart, under the loops `outer`, a piece of [`NIBBLE_TUPLES`] at a time.
#[allow(clippy::too_many_arguments)]
fn tuples_any_phase<const H: usize>(
    way: bool,
    outer: &[Mode],
    n: &Nest,
    len: usize,
    row: usize,
    src: &[u8],
    dst: &mut [u8],
) {
    let (mut a, mut b) = ([0u8; NIBBLE_TUPLES / 2], [0u8; NIBBLE_TUPLES / 2]);
    let mut bytes = [[0u8; NIBBLE_TUPLES]; H];
    let mut run = [[0u8; H]; NIBBLE_TUPLES];
    let k2 = 2 * H;
    // (Pairs, `H` = 1, are their own row of bytes: no bytes to weave or
    // split.)
    if way {
        each(outer, n.src, n.dst, |s, d| {
            for at in (0..len).step_by(NIBBLE_TUPLES) {
                let p = NIBBLE_TUPLES.min(len - at);
                let half = p.div_ceil(2);
                for (q, x) in bytes.iter_mut().enumerate() {
                    let r = s + 2 * q * row + at;
                    subbyte::get_nibbles(src, r, &mut a[..half]);
                    subbyte::get_nibbles(src, r + row, &mut b[..half]);
                    let x = if H == 1 { run.as_flattened_mut() } else { x };
                    weave(&a[..half], &b[..half], &mut x[..2 * half]);
                }
                // The rows of bytes woven into the tuples (as `[u8; 1]`,
                // the slots the vector weaves take).
                let out = run[..p].as_flattened_mut().as_chunks_mut::<1>().0;
                let rows = bytes.each_ref().map(|x| x[..p].as_chunks::<1>().0);
                match rows.as_slice() {
                    [a, b] => few::weave(a, b, out),
                    &[a, b, c, e] => few::weave4([a, b, c, e], out),
                    _ => {}
                }
                subbyte::put_nibbles(run.as_flattened(), k2 * p, dst, d + k2 * at);
            }
        });
    } else {
        each(outer, n.src, n.dst, |s, d| {
            for at in (0..len).step_by(NIBBLE_TUPLES) {
                let p = NIBBLE_TUPLES.min(len - at);
                let half = p.div_ceil(2);
                // The piece's bytes: read where they are when it starts on
                // a whole byte, else shifted into `run`.
                let (start, bytes_len) = (s + k2 * at, H * 2 * half);
                let whole = start
                    .is_multiple_of(2)
                    .then(|| src.get(start / 2..start / 2 + bytes_len))
                    .flatten();
                let input = match whole {
                    Some(x) => x,
                    None => {
                        subbyte::get_nibbles(src, start, run[..2 * half].as_flattened_mut());
                        run[..2 * half].as_flattened()
                    }
                };
                // The tuples split into the rows of bytes (as `[u8; 1]`,
                // the slots the vector splits take).
                let from = input.as_chunks::<1>().0;
                let mut rows = bytes
                    .each_mut()
                    .map(|x| x[..2 * half].as_chunks_mut::<1>().0);
                match rows.as_mut_slice() {
                    [a, b] => few::split(from, a, b),
                    [a, b, c, e] => few::split4(from, [&mut **a, &mut **b, &mut **c, &mut **e]),
                    _ => {}
                }
                for (q, x) in bytes.iter().enumerate() {
                    let x = if H == 1 { input } else { x };
                    unweave(&x[..2 * half], &mut a[..half], &mut b[..half]);
                    let r = d + 2 * q * row + at;
                    subbyte::put_nibbles(&a, p, dst, r);
                    subbyte::put_nibbles(&b, p, dst, r + row);
                }
            }
        });
    }
}

/// Four rows of `nibbles` nibbles (from byte `s` of `src`, `row` bytes
/// apart) woven into `out`, 2 bytes per 4-tuple (the `(4,1)` sub-tile of
/// `E(4)`): rows 0 and 1 woven into a byte per nibble, rows 2 and 3 too,
/// and those two woven byte by byte.
fn weave_quads(src: &[u8], s: usize, row: usize, nibbles: usize, out: &mut [u8]) {
    let (mut low, mut high) = ([0u8; QUAD_PIECE], [0u8; QUAD_PIECE]);
    for at in (0..nibbles).step_by(QUAD_PIECE) {
        let len = QUAD_PIECE.min(nibbles - at);
        let r = |k: usize| &src[s + k * row + at / 2..s + k * row + (at + len) / 2];
        weave(r(0), r(1), &mut low[..len]);
        weave(r(2), r(3), &mut high[..len]);
        // As arrays of one byte, which `simd` weaves 16 bytes at a time.
        let (lo, hi) = (
            low[..len].as_chunks::<1>().0,
            high[..len].as_chunks::<1>().0,
        );
        few::weave(lo, hi, out[2 * at..2 * (at + len)].as_chunks_mut::<1>().0);
    }
}

/// The inverse of [`weave_quads`]: `run`'s 4-tuples split into four
/// rows of `dst`, from byte `d`, `row` bytes apart.
fn split_quads(run: &[u8], dst: &mut [u8], d: usize, row: usize) {
    let (mut low, mut high) = ([0u8; QUAD_PIECE], [0u8; QUAD_PIECE]);
    let nibbles = run.len() / 2;
    for at in (0..nibbles).step_by(QUAD_PIECE) {
        let len = QUAD_PIECE.min(nibbles - at);
        // As arrays of one byte, which `simd` splits 16 bytes at a time.
        let pairs = run[2 * at..2 * (at + len)].as_chunks::<1>().0;
        let (lo, hi) = (&mut low[..len], &mut high[..len]);
        few::split(pairs, lo.as_chunks_mut::<1>().0, hi.as_chunks_mut::<1>().0);
        let (a0, a1) = (d + at / 2, d + (at + len) / 2);
        let (r0, rest) = dst[a0..a1 + 3 * row].split_at_mut(row);
        let (r1, rest) = rest.split_at_mut(row);
        let (r2, r3) = rest.split_at_mut(row);
        let half = len / 2;
        unweave(&low[..len], &mut r0[..half], &mut r1[..half]);
        unweave(&high[..len], &mut r2[..half], &mut r3[..half]);
    }
}

/// Byte `i` of `a` and of `b` (nibbles `2i`, `2i + 1` of two rows) into
/// bytes `2i`, `2i + 1` of `out`: each holds one nibble of `a` (low) and
/// the same nibble of `b` (high).
fn weave(a: &[u8], b: &[u8], out: &mut [u8]) {
    let k = simd::weave_nibbles(a, b, out);
    let (a, b, out) = (&a[k..], &b[k..], &mut out[2 * k..]);
    for ((o, &x), &y) in out.chunks_exact_mut(2).zip(a).zip(b) {
        o[0] = (x & 0x0F) | (y << 4);
        o[1] = (x >> 4) | (y & 0xF0);
    }
}

/// The inverse of [`weave`].
fn unweave(input: &[u8], a: &mut [u8], b: &mut [u8]) {
    let k = simd::unweave_nibbles(input, a, b);
    let (input, a, b) = (&input[2 * k..], &mut a[k..], &mut b[k..]);
    for ((i, x), y) in input.chunks_exact(2).zip(a).zip(b) {
        *x = (i[0] & 0x0F) | (i[1] << 4);
        *y = (i[0] >> 4) | (i[1] & 0xF0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weaving_nibble_pairs_and_back() {
        let (a, b) = ([0x21u8, 0x43], [0xA9u8, 0xCB]);
        let mut out = [0u8; 4];
        weave(&a, &b, &mut out);
        assert_eq!(out, [0x91, 0xA2, 0xB3, 0xC4]);
        let (mut x, mut y) = ([0u8; 2], [0u8; 2]);
        unweave(&out, &mut x, &mut y);
        assert_eq!((x, y), (a, b));
        // 40 bytes a row: two 16-byte vectors (with `simd`), then 8 bytes.
        let a: [u8; 40] = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0x5A);
        let b: [u8; 40] = core::array::from_fn(|i| (i as u8).wrapping_mul(101).wrapping_add(3));
        let mut out = [0u8; 80];
        weave(&a, &b, &mut out);
        for i in 0..40 {
            assert_eq!(out[2 * i], (a[i] & 0x0F) | (b[i] << 4), "byte {i}");
            assert_eq!(out[2 * i + 1], (a[i] >> 4) | (b[i] & 0xF0), "byte {i}");
        }
        let (mut x, mut y) = ([0u8; 40], [0u8; 40]);
        unweave(&out, &mut x, &mut y);
        assert_eq!((x, y), (a, b));
    }

    #[test]
    fn bits_round_trip_at_any_offset() {
        let mut buf = [0u8; 8];
        write(&mut buf, 3, 11, 0x5A5);
        assert_eq!(read(&buf, 3, 11), 0x5A5);
        assert_eq!(buf[0] & 0b111, 0);
        write(&mut buf, 20, 4, 0xF);
        assert_eq!(read(&buf, 20, 4), 0xF);
        assert_eq!(read(&buf, 3, 11), 0x5A5);
    }

    #[test]
    fn signed_values_widen_with_their_sign() {
        let c = Copier::new(ElementType::S4, 4, 8);
        let mut out = [0u8; 2];
        c.one(&[0x8F], 1, &mut out, 1); // high nibble: -8
        assert_eq!(out, [0, 0xF8]);
        let u = Copier::new(ElementType::U4, 4, 8);
        u.one(&[0x8F], 1, &mut out, 0);
        assert_eq!(out[0], 0x08);
    }
}
