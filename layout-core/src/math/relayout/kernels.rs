//! The kernels of a relayout over slices of any `Copy` element, and the
//! one decision among them. There are three general kernels
//! ([`GeneralKernel`]): runs where both sides are contiguous
//! (`runs.rs`), a blocked transpose where the destination is contiguous
//! along one loop and the source along another (here: the units and
//! sub-tiles it moves as one element, and the blocks that move them,
//! `transpose.rs`, `squares.rs`, `few.rs`, `chunks.rs`, `staged.rs`),
//! and element by element otherwise (`strided.rs`). Each
//! [`RelayoutKernel`] is one of them with its move inside. The nest's
//! offsets are in bounds by construction (the plan checked both
//! allocations against the slices).
//!
//! One function decides which kernel copies a box: [`choose`] (and
//! [`choose_fixed`] for its transposes, also on elements changed on the
//! way) makes every test, in order, and names a [`RelayoutKernel`]. The
//! copy ([`copy_nest`], [`copy_fixed`]) asks it, then runs that kernel,
//! which copies the box it is given; `RelayoutPlan::describe` asks it
//! too. A kernel that needs a nest or a plan the tests made (the units'
//! nest, the tuned blocks' plan) makes it again in its own out-of-line
//! frame rather than take it from the decision, so that only the running
//! kernel's tables are on the stack.

use core::fmt;

use super::chunks;
use super::few;
use super::loops::{Fix, Same, Transposed};
use super::modes::{Mode, Nest};
use super::runs;
use super::squares::{self, blocks, tuned, Tuned};
use super::staged;
use super::strided::{any_box, strided};
use super::transpose::{self, Whole};
use super::tuning::{CHUNK_BLOCK_BYTES, SUB_TILES_LEAST, UNITS_LEAST};

/// The three general kernels of a relayout: every [`RelayoutKernel`] is
/// one of them ([`RelayoutKernel::general`]), with a move of its own
/// inside (the micro-kernel chosen by element width, or a transform:
/// sub-tiles, packing, nibbles, chunks through the stack).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GeneralKernel {
    /// Runs contiguous on both sides, copied a run at a time
    /// ([`RelayoutKernel::Runs`], [`RelayoutKernel::Pack`],
    /// [`RelayoutKernel::Unpack`], [`RelayoutKernel::PackedRuns`]).
    Runs,
    /// A blocked transpose: the destination contiguous along one loop,
    /// the source along another, moved in blocks that read and write
    /// whole lines (every other kernel but the fallback).
    Transpose,
    /// The fallback, element by element ([`RelayoutKernel::Strided`]).
    Strided,
}

impl GeneralKernel {
    /// The general kernel's name: `runs`, `transpose` or `strided`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::GeneralKernel;
    /// assert_eq!(GeneralKernel::Transpose.name(), "transpose");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            GeneralKernel::Runs => "runs",
            GeneralKernel::Transpose => "transpose",
            GeneralKernel::Strided => "strided",
        }
    }
}

impl fmt::Display for GeneralKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kernel that copies one box of a relayout (see
/// [`RelayoutPlan::describe`](super::RelayoutPlan::describe) and the
/// relayout guide): one of the three general kernels
/// ([`RelayoutKernel::general`]) with the move it makes inside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RelayoutKernel {
    /// Runs contiguous on both sides, each copied whole (a box of one
    /// element is one run of one).
    Runs,
    /// Runs of 2 or 4 one- or two-byte elements (the `(2,1)` and `(4,1)`
    /// sub-tiles of a transposed tiling), transposed in blocks as one
    /// wider element each.
    Units,
    /// `(2,1)` or `(4,1)` sub-tiles transposed on both sides, moved in
    /// blocks as one unit each and transposed on the way: `K` x `K`
    /// one- or two-byte elements, or `E(4)` units of 2 x 2 to 4 x 4
    /// nibbles (`(2,1)` pairs or `(4,1)` quads on either side, whole bytes
    /// on both), whose nibbles a few shifts and masks transpose.
    SubTiles,
    /// The general transposed blocks: rows where the destination is
    /// contiguous, columns where the source is, any loops serving either
    /// side through offset tables.
    Blocks,
    /// Transposed square blocks of one cache line a side, for runs of at
    /// least 8 bytes on both sides.
    Squares,
    /// Two source rows woven into one destination run of pairs (for
    /// 1-byte elements, four rows into 4-tuples: rows to the `(2,1)` and
    /// `(4,1)` sub-tiles); and 3 to 8 rows of any element into tuples (a
    /// small dimension innermost in the destination only).
    Weave,
    /// One source run of pairs split into two destination rows (for
    /// 1-byte elements, of 4-tuples into four: the `(2,1)` and `(4,1)`
    /// sub-tiles back to rows); and tuples of 3 to 8 elements of any size
    /// into as many rows.
    Split,
    /// The fallback, element by element: strided steps along the
    /// innermost loop for whole slots; slot by slot at bit offsets for
    /// packed or differently sized slots that no packed kernel below
    /// takes; and where the layouts have no common digit chains (`*`,
    /// tile sizes that do not nest: [`RelayoutPlan::is_blocked`](super::RelayoutPlan::is_blocked) is
    /// `false`), through both layouts' offset functions.
    Strided,
    /// Values of 1, 2 or 4 bits, a byte each, packed into `E(n)` slots
    /// (runs, or for nibbles two rows woven into `(2,1)` pairs).
    Pack,
    /// The inverse of [`RelayoutKernel::Pack`]: `E(n)` slots into a byte
    /// each (sign-extended for signed types).
    Unpack,
    /// `E(4)` `(2,1)` nibble pairs: two rows woven into one run of pairs,
    /// or one run split into two rows (where a row or the run starts
    /// inside a byte, shifted by a nibble on the way); and tuples of 4
    /// (`(4,1)` quads) or 8 nibbles the same way.
    NibblePairs,
    /// An `E(4)` transpose whose rows and columns all start on whole
    /// bytes: tiles of nibbles transposed in registers.
    NibbleTranspose,
    /// `E(n)` runs contiguous on both sides that start at different
    /// places in their bytes: nibbles byte to byte, shifted by a nibble
    /// where their phases differ; narrower slots unpacked to a byte per
    /// slot and packed back, a piece at a time.
    PackedRuns,
    /// Any other `E(n)` transpose (odd strides, runs starting mid-byte):
    /// blocks of slots unpacked to a byte each on the stack, transposed
    /// as bytes (runs of 2 or 4 nibbles as one element), and packed back.
    PackedBlocks,
    /// Boxes whose blocks would move a few elements at a time (`(2,1)`
    /// pairs woven 2 x 2, `(4,1)` quads split 4 x 4, where the tiles are
    /// transposed too), of whole or of packed slots: chunks of both
    /// sides' runs copied to the stack (packed slots unpacked there to a
    /// byte each), moved there from the source's order to the
    /// destination's, and copied out (packed back).
    Chunks,
}

impl RelayoutKernel {
    /// The kernel's name, as [`RelayoutSteps`](super::RelayoutSteps) prints it.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::RelayoutKernel;
    /// assert_eq!(RelayoutKernel::Blocks.name(), "blocks");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            RelayoutKernel::Runs => "runs",
            RelayoutKernel::Units => "units",
            RelayoutKernel::SubTiles => "sub-tiles",
            RelayoutKernel::Blocks => "blocks",
            RelayoutKernel::Squares => "squares",
            RelayoutKernel::Weave => "weave",
            RelayoutKernel::Split => "split",
            RelayoutKernel::Strided => "strided",
            RelayoutKernel::Pack => "pack",
            RelayoutKernel::Unpack => "unpack",
            RelayoutKernel::NibblePairs => "nibble pairs",
            RelayoutKernel::NibbleTranspose => "nibble transpose",
            RelayoutKernel::PackedRuns => "packed runs",
            RelayoutKernel::PackedBlocks => "packed blocks",
            RelayoutKernel::Chunks => "chunks",
        }
    }
}

impl RelayoutKernel {
    /// The general kernel this kernel is one of: runs, a blocked
    /// transpose, or the element-by-element fallback.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, GeneralKernel, RelayoutPlan};
    /// // `bf16` rows into `(2,1)` sub-tiles: two rows woven into pairs,
    /// // a transpose of two rows.
    /// let a = parse_array("bf16[256,512]{1,0}").unwrap();
    /// let b = parse_array("bf16[256,512]{1,0:T(8,128)(2,1)}").unwrap();
    /// let kernel = RelayoutPlan::new(&a, &b).unwrap().describe().kernel().unwrap();
    /// assert_eq!(kernel.general(), GeneralKernel::Transpose);
    /// ```
    pub const fn general(self) -> GeneralKernel {
        match self {
            RelayoutKernel::Runs
            | RelayoutKernel::Pack
            | RelayoutKernel::Unpack
            | RelayoutKernel::PackedRuns => GeneralKernel::Runs,
            RelayoutKernel::Strided => GeneralKernel::Strided,
            RelayoutKernel::Units
            | RelayoutKernel::SubTiles
            | RelayoutKernel::Blocks
            | RelayoutKernel::Squares
            | RelayoutKernel::Weave
            | RelayoutKernel::Split
            | RelayoutKernel::NibblePairs
            | RelayoutKernel::NibbleTranspose
            | RelayoutKernel::PackedBlocks
            | RelayoutKernel::Chunks => GeneralKernel::Transpose,
        }
    }
}

impl fmt::Display for RelayoutKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Kernel `k` starts on a box: in this crate's unit tests, noted on the
/// thread (see `tests`), so that a test sees which kernels ran; nothing
/// in any other build.
#[inline(always)]
pub(crate) fn note(k: RelayoutKernel) {
    #[cfg(test)]
    tests::RAN.with_borrow_mut(|ran| ran.push(k));
    #[cfg(not(test))]
    let _ = k;
}

/// Copies every element of one box: [`choose`] names the kernel, and
/// that kernel copies the box. There is no other test on the way, so the
/// kernel [`RelayoutPlan::describe`](super::RelayoutPlan::describe)
/// reports (`choose` on the same box, with the slot size) is the one that
/// runs.
///
/// The kernels are out of line, each with its own loop list (3 KiB at
/// rank 16), and so are the tests of `choose`: a box has only the chosen
/// kernel's frames on the stack while it is copied.
pub(crate) fn copy_nest<T: Copy + 'static>(n: &Nest, src: &[T], dst: &mut [T]) {
    copy_as(choose(n, core::mem::size_of::<T>()), n, src, dst);
}

/// Copies box `n` with `kernel`, the one [`choose`] names for it: named
/// when the copy runs ([`copy_nest`]), or when the plan was made
/// (`RelayoutPlan`'s decisions, `decide.rs`), for the same box. A kernel
/// handed a box it cannot take copies it by strided steps ([`any_box`]):
/// right, if slow.
pub(crate) fn copy_as<T: Copy + 'static>(
    kernel: RelayoutKernel,
    n: &Nest,
    src: &[T],
    dst: &mut [T],
) {
    // The size is tested in constants, here and in `fixed`, so that a
    // build without optimisations compiles only the kernels the size can
    // take (`choose` names units and sub-tiles only for runs of 2 of one-
    // or two-byte elements and of 4 bytes; wider elements do not get
    // them, which keeps their code out of small firmware).
    match kernel {
        RelayoutKernel::Runs => runs::runs(n, src, dst),
        RelayoutKernel::Units => match n.modes[0].range {
            2 if const { matches!(core::mem::size_of::<T>(), 1 | 2) } => units::<T, 2>(n, src, dst),
            4 if const { core::mem::size_of::<T>() == 1 } => units::<T, 4>(n, src, dst),
            // (`choose` names units only for these sizes.)
            _ => any_box::<T, Same>(n, src, dst),
        },
        RelayoutKernel::SubTiles => match n.modes[0].range {
            2 if const { matches!(core::mem::size_of::<T>(), 1 | 2) } => {
                sub_tiles::<T, 2, 4>(n, src, dst)
            }
            4 if const { core::mem::size_of::<T>() == 1 } => sub_tiles::<T, 4, 16>(n, src, dst),
            _ => any_box::<T, Same>(n, src, dst),
        },
        RelayoutKernel::Weave | RelayoutKernel::Split
            if few::shape(n, core::mem::size_of::<T>()).is_some() =>
        {
            note(kernel);
            few::copy(n, src, dst);
        }
        RelayoutKernel::Chunks => {
            note(RelayoutKernel::Chunks);
            if !chunks::copy_whole(n, src, dst) {
                any_box::<T, Same>(n, src, dst);
            }
        }
        kernel => fixed::<T, Same>(kernel, n, src, dst),
    }
}

/// The kernel that copies box `n` of elements of `size` bytes: the one
/// place where the kernels' tests are made ([`copy_nest`] runs what it
/// names, [`RelayoutPlan::describe`](super::RelayoutPlan::describe)
/// reports it). In order: a box of one element; runs contiguous on both
/// sides (as units where the rest transposes them); `(2,1)` or `(4,1)`
/// sub-tiles transposed on both sides; then [`choose_fixed`].
///
/// Out of line, as are the tests that build a nest: their nests and plans
/// are off the stack before the chosen kernel runs.
#[inline(never)]
pub(crate) fn choose(n: &Nest, size: usize) -> RelayoutKernel {
    #[cfg(test)]
    tests::CHOSEN.with(|c| c.set(c.get() + 1));
    if let Some((weave, _)) = few::shape(n, size) {
        return if weave {
            RelayoutKernel::Weave
        } else {
            RelayoutKernel::Split
        };
    }
    let kernel = choose_first(n, size);
    if chunks_fit(kernel, n, size) {
        return RelayoutKernel::Chunks;
    }
    kernel
}

/// Whether the chunks take box `n` rather than `kernel`: where its tuned
/// blocks would move fewer than [`CHUNK_BLOCK_BYTES`] at a time (`(2,1)`
/// pairs woven 2 x 2, `(4,1)` quads split 4 x 4) and the chunks plan.
#[inline(never)]
fn chunks_fit(kernel: RelayoutKernel, n: &Nest, size: usize) -> bool {
    // (The tuned blocks only: the units' and sub-tiles' blocks take a
    // nest and a plan more to find, which the stack of small firmware
    // has no room for, and none of theirs drawn was small.)
    let tuned = matches!(
        kernel,
        RelayoutKernel::Squares | RelayoutKernel::Weave | RelayoutKernel::Split
    );
    let small = tuned
        && block_of(kernel, n, size).is_some_and(|(p, q)| {
            p.saturating_mul(q).saturating_mul(size as u64) < CHUNK_BLOCK_BYTES
        });
    small && chunks::plan_whole(n, size).is_some()
}

/// [`choose`] before the chunks: the kernel of the tests below.
fn choose_first(n: &Nest, size: usize) -> RelayoutKernel {
    let Some(&m0) = n.loops().first() else {
        // One element: a run of one.
        return RelayoutKernel::Runs;
    };
    if m0.src == 1 && m0.dst == 1 {
        // Runs of 2 or 4 one- or two-byte elements that the rest of the
        // box transposes (the `(2,1)` and `(4,1)` sub-tiles of a
        // transposed tiling): blocks of such runs, each taken as one
        // element.
        let r = sub_tile_side(size, m0.range);
        if r > 0 && (units_fit(n, r) || staged_fit(n, r, size)) {
            return RelayoutKernel::Units;
        }
        return RelayoutKernel::Runs;
    }
    if m0.dst == 1 && m0.src == m0.range {
        // `K` x `K` sub-tiles transposed on both sides (`(2,1)` or `(4,1)`
        // sub-tiles of layouts transposed to each other): blocks of
        // sub-tiles, each transposed on the way.
        let k = sub_tile_side(size, m0.range);
        if k > 0 && sub_tiles_fit(n, k) {
            return RelayoutKernel::SubTiles;
        }
    }
    // Transposed blocks, or strided steps.
    choose_fixed(n, size, true)
}

/// The side of the `(2,1)` or `(4,1)` sub-tiles whose runs of `range`
/// elements of `size` bytes [`copy_nest`] takes whole (`units`,
/// `sub_tiles`), or 0: wider elements do not get these sub-tiles.
fn sub_tile_side(size: usize, range: u64) -> u64 {
    match (size, range) {
        (1 | 2, 2) => 2,
        (1, 4) => 4,
        _ => 0,
    }
}

/// Whether [`units`] takes box `n` (runs of `r`): a large enough box of
/// such runs whose rest is a transpose.
#[inline(never)]
fn units_fit(n: &Nest, r: u64) -> bool {
    units_nest(n, r).is_some_and(|u| u.transposed().is_some())
}

/// Whether the staged units take box `n` (runs of `r` elements of `size`
/// bytes, whole in the destination, not in the source: `staged.rs`).
#[inline(never)]
fn staged_fit(n: &Nest, r: u64, size: usize) -> bool {
    staged::nest(n, r).is_some_and(|u| staged::fits(&u, size, r as usize))
        || staged::nest_out(n, r).is_some_and(|u| staged::fits_out(&u, size, r as usize))
}

/// Whether [`sub_tiles`] takes box `n` (`k` x `k` sub-tiles).
#[inline(never)]
fn sub_tiles_fit(n: &Nest, k: u64) -> bool {
    sub_tile_nest(n, k, SUB_TILES_LEAST).is_some()
}

/// The kernel [`copy_fixed`] runs on box `n` of elements of `size` bytes
/// (`same`: elements copied as they are): the general blocks where the
/// box is a transpose, except where the tuned blocks of `squares.rs`
/// were tuned (both runs at least 8 bytes, or two rows woven into pairs
/// and back: measured on the README's pairs; the general blocks are
/// faster on the rest, see docs/relayout.md) or the elements change on
/// the way; else strided steps.
#[inline(never)]
fn choose_fixed(n: &Nest, size: usize, same: bool) -> RelayoutKernel {
    let Some(&m0) = n.loops().first() else {
        // One element: a run of one.
        return RelayoutKernel::Runs;
    };
    if m0.dst == 1 && m0.src != 1 {
        let (pm, qm) = transpose::sides(size);
        if same && !tuned(n, size) && transpose::each_box(n, pm, qm, &mut |_| {}) {
            return RelayoutKernel::Blocks;
        }
        if let Some(kind) = tuned_kind(n, size, same) {
            return kind;
        }
    }
    // Every other slot of the destination (a `(2,1)` tiling of a
    // dimension of one, whose pairs are half padding): the general blocks
    // still walk it in blocks, element by element (`f16` `(2,1)` tilings
    // of 158 x 109625: strided steps 0.055x of memcpy, the blocks' order
    // 0.23x for the same lines). So too a box whose destination is every
    // other or every fourth slot innermost (`(2,1)` or `(4,1)` sub-tiles
    // of a dimension of one) and whose loops the source takes in another
    // order: a transpose, which strided steps walk in the destination's
    // order, a source line for each element. Where the next loop is the
    // source's run, the strided steps gather the next slots of the same
    // rows from the same lines, and keep the box (the relayout guide,
    // "Strided destinations").
    let in_order = n.loops().windows(2).all(|w| w[0].src <= w[1].src);
    let rows = n.loops().get(1).is_some_and(|m1| m1.src == 1);
    let half = m0.dst == 2 && m0.src > 2;
    let sub_tiles = matches!(m0.dst, 2 | 4) && m0.src != m0.dst && !in_order && !rows;
    if same && (half || sub_tiles) {
        let (pm, qm) = transpose::sides(size);
        if transpose::each_box(n, pm, qm, &mut |_| {}) {
            return RelayoutKernel::Blocks;
        }
    }
    RelayoutKernel::Strided
}

/// The kernel of the tuned blocks of box `n` ([`Tuned::plan`]), or
/// `None` where the box is no transpose. Out of line: the plan is off the
/// stack by the time [`choose_fixed`] returns.
#[inline(never)]
fn tuned_kind(n: &Nest, size: usize, same: bool) -> Option<RelayoutKernel> {
    Tuned::plan(n, size, same).map(|t| t.kind)
}

/// The block `kernel` (the one [`choose`] names for box `n` of elements
/// of `size` bytes) moves at a time, as steps along the destination's
/// runs by steps along the source's: the general blocks' largest block,
/// the tuned blocks' block, the blocks that move units or sub-tiles (in
/// units or sub-tiles); `None` for kernels without blocks.
#[inline(never)]
pub(crate) fn block_of(kernel: RelayoutKernel, n: &Nest, size: usize) -> Option<(u64, u64)> {
    if few::shape(n, size).is_some() {
        // (A few rows woven or split: no blocks.)
        return None;
    }
    match kernel {
        RelayoutKernel::Blocks => {
            // As `general_blocks` plans the box: where `each_box` cuts it,
            // the blocks of its first part (the whole blocks).
            let (pm, qm) = transpose::sides_of(n, size);
            let mut side = None;
            transpose::each_box(n, pm, qm, &mut |part| {
                if let (None, Whole::Blocks(b, _, _)) = (side, part) {
                    side = Some((b.rows().len() as u64, b.cols().len() as u64));
                }
            });
            side
        }
        RelayoutKernel::Squares | RelayoutKernel::Weave | RelayoutKernel::Split => {
            squares::side_of(n, size)
        }
        RelayoutKernel::Units => {
            let r = sub_tile_side(size, n.loops().first()?.range);
            let u = units_nest(n, r)?;
            let wide = size * r as usize;
            block_of(choose_fixed(&u, wide, true), &u, wide)
        }
        RelayoutKernel::SubTiles => {
            let k = sub_tile_side(size, n.loops().first()?.range);
            let u = sub_tile_nest(n, k, SUB_TILES_LEAST)?;
            let wide = size * (k * k) as usize;
            block_of(choose_fixed(&u, wide, false), &u, wide)
        }
        _ => None,
    }
}

/// [`RelayoutKernel::Units`]: the box as a transpose of `[T; R]` units
/// (its innermost loop, `R` elements contiguous on both sides, as one
/// element), copied by the tuned blocks. Its nest is made again here,
/// in this kernel's own frame, from the box `choose` tested.
#[inline(never)]
fn units<T: Copy + 'static, const R: usize>(n: &Nest, src: &[T], dst: &mut [T]) {
    note(RelayoutKernel::Units);
    if units_fit(n, R as u64)
        && let Some(u) = units_nest(n, R as u64)
    {
        // The units' transpose takes the kernel `choose_fixed` names for
        // it, as any transpose: the tuned squares where they were tuned,
        // else the general blocks (units in a square of 8 x 2 of them
        // went element by element: `s8` `T(8,128)` into `(4,1)`
        // sub-tiles, 0.06x of memcpy; 0.3-0.5x in the general blocks).
        return copy_fixed::<_, Same>(&u, src.as_chunks::<R>().0, dst.as_chunks_mut::<R>().0);
    }
    // Runs whole in the destination only: through the stack
    // (`staged_fit`, the other test `choose` made).
    if let Some(u) = staged::nest(n, R as u64)
        && staged::fits(&u, core::mem::size_of::<T>(), R)
    {
        if staged::copy::<T, R>(&u, src, dst) {
            return;
        }
    } else if let Some(u) = staged::nest_out(n, R as u64)
        && staged::copy_out::<T, R>(&u, src, dst)
    {
        return;
    }
    any_box::<T, Same>(n, src, dst);
}

/// The loops of [`units`] over runs of `r` elements (offsets in runs),
/// when the box is such runs and large enough (a few runs are as fast
/// one by one); else `None`.
fn units_nest(n: &Nest, r: u64) -> Option<Nest> {
    let rest = &n.modes[1..n.len];
    let whole = |x: u64| x.is_multiple_of(r);
    let count = rest.iter().fold(1u64, |c, m| c.saturating_mul(m.range));
    if count < UNITS_LEAST || !whole(n.src) || !whole(n.dst) {
        return None;
    }
    if !rest.iter().all(|m| whole(m.src) && whole(m.dst)) {
        return None;
    }
    if rest.first().is_none_or(|m| m.dst != r) {
        return None;
    }
    Some(Nest::scaled(rest, r, r, n.src / r, n.dst / r))
}

/// [`RelayoutKernel::SubTiles`]: the box as `K` x `K` sub-tiles (`KK`
/// elements) contiguous on both sides and transposed between them, each
/// copied as one element of `KK` and transposed on the way
/// ([`copy_fixed`] chooses how the sub-tiles move). Its nest is made
/// again here, from the box `choose` tested.
#[inline(never)]
fn sub_tiles<T: Copy + 'static, const K: usize, const KK: usize>(
    n: &Nest,
    src: &[T],
    dst: &mut [T],
) {
    note(RelayoutKernel::SubTiles);
    let Some(u) = sub_tile_nest(n, K as u64, SUB_TILES_LEAST) else {
        // `choose` names sub-tiles only where `sub_tiles_fit`.
        return any_box::<T, Same>(n, src, dst);
    };
    copy_fixed::<[T; KK], Transposed<K>>(&u, src.as_chunks::<KK>().0, dst.as_chunks_mut::<KK>().0);
}

/// The loops over whole `k` x `k` sub-tiles (offsets in sub-tiles), when
/// the box's first loops are one sub-tile's, transposed (`k` steps of `k`
/// in the source and 1 in the destination, then `k` of 1 and `k`), every
/// other step moves whole sub-tiles, and there are at least `least`
/// sub-tiles; else `None`.
pub(crate) fn sub_tile_nest(n: &Nest, k: u64, least: u64) -> Option<Nest> {
    unit_nest(n, k, k, least)
}

/// [`sub_tile_nest`] for units of `a` x `b`: the box's first loop is `b`
/// steps of `a` in the source and 1 in the destination, its second `a`
/// steps of 1 and `b`, so that the two are `a * b` elements contiguous on
/// both sides (the loops over them in units of `a * b`).
pub(crate) fn unit_nest(n: &Nest, a: u64, b: u64, least: u64) -> Option<Nest> {
    let modes = &n.modes[..n.len];
    let [m0, m1, rest @ ..] = modes else {
        return None;
    };
    let sub = Mode {
        range: a,
        src: 1,
        dst: b,
    };
    if (m0.range, m0.src, m0.dst) != (b, a, 1) || *m1 != sub {
        return None;
    }
    let ab = a * b;
    let whole = |x: u64| x.is_multiple_of(ab);
    let count = rest.iter().fold(1u64, |c, m| c.saturating_mul(m.range));
    if count < least || !whole(n.src) || !whole(n.dst) {
        return None;
    }
    if !rest.iter().all(|m| whole(m.src) && whole(m.dst)) {
        return None;
    }
    Some(Nest::scaled(rest, ab, ab, n.src / ab, n.dst / ab))
}

/// Every element of one box passed through `X`, by the kernel
/// [`choose_fixed`] names: transposed blocks where the box is a
/// transpose, else strided steps (the end of [`copy_nest`], with
/// [`Same`]; whole sub-tiles transposed on the way, with [`Transposed`]).
pub(crate) fn copy_fixed<T: Copy + 'static, X: Fix<T>>(n: &Nest, src: &[T], dst: &mut [T]) {
    fixed::<T, X>(
        choose_fixed(n, core::mem::size_of::<T>(), X::SAME),
        n,
        src,
        dst,
    );
}

/// Runs `kernel`, which [`choose_fixed`] (or [`choose`]) named for box
/// `n`, on it.
fn fixed<T: Copy + 'static, X: Fix<T>>(kernel: RelayoutKernel, n: &Nest, src: &[T], dst: &mut [T]) {
    match kernel {
        // (`choose_fixed` names the general blocks only for elements
        // copied as they are.)
        RelayoutKernel::Blocks if const { X::SAME } => general_blocks(n, src, dst),
        RelayoutKernel::Weave | RelayoutKernel::Split | RelayoutKernel::Squares => {
            blocks::<T, X>(n, src, dst)
        }
        RelayoutKernel::Strided => strided::<T, X>(n, src, dst),
        // (`choose_fixed` names no other kernel but runs, for a box of one
        // element, which `any_box` copies.)
        _ => any_box::<T, X>(n, src, dst),
    }
}

/// [`RelayoutKernel::Blocks`]: the general blocks of `transpose.rs`.
fn general_blocks<T: Copy + 'static>(n: &Nest, src: &[T], dst: &mut [T]) {
    note(RelayoutKernel::Blocks);
    let (pm, qm) = transpose::sides_of(n, core::mem::size_of::<T>());
    let planned = transpose::each_box(n, pm, qm, &mut |part| match part {
        Whole::Blocks(b, s, d) => b.copy(src, s, dst, d),
        // One row or column that a cut left: strided steps.
        Whole::Line(l) => any_box::<T, Same>(l, src, dst),
    });
    // `choose_fixed` planned the same box the same way, so this holds.
    if !planned {
        any_box::<T, Same>(n, src, dst);
    }
}

#[cfg(test)]
mod tests {
    extern crate alloc;
    extern crate std;

    use alloc::vec;
    use alloc::vec::Vec;
    use core::cell::{Cell, RefCell};

    use super::RelayoutKernel::{self, *};
    use crate::{parse_array, RelayoutPlan};

    std::thread_local! {
        /// The kernels that started on this thread, in order ([`super::note`]).
        pub(super) static RAN: RefCell<Vec<RelayoutKernel>> = const { RefCell::new(Vec::new()) };
        /// How many boxes [`super::choose`] was asked about on this thread.
        pub(super) static CHOSEN: Cell<usize> = const { Cell::new(0) };
    }

    /// A plan decides its boxes' kernels when it is made: a serial copy
    /// asks `choose` about no box of its own, except the boxes past the
    /// first 64 (`decide.rs`); it runs the kernels the plan decided, which
    /// `describe` lists. (Parts cut for threads or windows are decided
    /// when they run.)
    #[test]
    fn a_plan_decides_its_kernels_once() {
        use super::super::decide::DECIDED;
        for (from, to, boxes) in [
            ("f32[512,1024]{1,0}", "f32[512,1024]{0,1}", 1),
            ("bf16[30,200]{1,0}", "bf16[30,200]{0,1:T(8,128)(2,1)}", 1),
            // 100 = 64 + 36: the whole tile and the rest.
            ("u8[100,3]{1,0}", "u8[100,3]{0,1:T(64)}", 2),
            // Four dimensions of three pieces each (7 = 4 + 2 + 1): 81
            // boxes, 17 past the ones decided.
            (
                "u8[7,7,7,7]{3,2,1,0:T(2,2,2,2)}",
                "u8[7,7,7,7]{0,1,2,3:T(4,4,4,4)}",
                81,
            ),
        ] {
            let (a, b) = (parse_array(from).unwrap(), parse_array(to).unwrap());
            let plan = RelayoutPlan::new(&a, &b).unwrap();
            let steps = plan.describe();
            assert_eq!(steps.boxes(), boxes, "{from} -> {to}:\n{steps}");
            assert_eq!(
                steps.box_kernels().len(),
                boxes.min(DECIDED as u64) as usize
            );
            let src: Vec<u8> = (0..plan.source_bytes()).map(|i| i as u8).collect();
            let mut dst = vec![0u8; plan.destination_bytes() as usize];
            CHOSEN.set(0);
            RAN.with_borrow_mut(Vec::clear);
            plan.run_bytes(&src, &mut dst).unwrap();
            let past = (boxes as usize).saturating_sub(DECIDED);
            assert_eq!(CHOSEN.get(), past, "{from} -> {to}");
            // Each decided kernel started, in the order of the boxes.
            let ran = RAN.take();
            let mut at = 0;
            for k in steps.box_kernels() {
                at += ran[at..].iter().position(|r| r == k).unwrap() + 1;
            }
            // And each is the kernel `choose` names for its box now.
            let super::super::How::Chains(chains) = &plan.how else {
                panic!("{from} -> {to} has no chains");
            };
            let mut now = Vec::new();
            plan.each_box(chains, &mut |n| now.push(plan.kernel_of(n)));
            assert_eq!(steps.box_kernels(), &now[..DECIDED.min(now.len())]);
        }
    }

    /// The kernel `describe` reports for a pair is the one the copy runs
    /// on the first box (the first kernel to start: the padding is filled
    /// without one, and a kernel may start others inside it, as units and
    /// sub-tiles start the blocks that move them). The pairs are those of
    /// the testsuite's `each_family_gets_its_kernel`, less the packed and
    /// general copies, which no kernel here runs, except packed slots
    /// whose boxes are whole bytes, which these kernels copy as bytes.
    #[test]
    fn the_kernel_described_is_the_kernel_run() {
        for (from, to, kernel) in [
            ("f32[512,1024]{1,0}", "f32[512,1024]{1,0:T(8,128)}", Runs),
            ("f32[64,48,5]{2,1,0}", "f32[64,48,5]{2,0,1}", Runs),
            ("f32[512,1024]{1,0}", "f32[512,1024]{0,1}", Squares),
            ("f64[64,64,64]{2,1,0}", "f64[64,64,64]{0,2,1}", Squares),
            ("u8[1024,3]{1,0}", "u8[1024,3]{0,1:T(2,128)}", Blocks),
            ("u8[1024,3]{1,0}", "u8[1024,3]{0,1}", Split),
            ("f32[3000,5]{1,0}", "f32[3000,5]{0,1}", Split),
            ("u8[64,3,64]{2,1,0}", "u8[64,3,64]{1,2,0}", Weave),
            (
                "bf16[256,512]{1,0}",
                "bf16[256,512]{1,0:T(8,128)(2,1)}",
                Weave,
            ),
            (
                "bf16[256,512]{1,0:T(8,128)(2,1)}",
                "bf16[256,512]{1,0}",
                Split,
            ),
            (
                "bf16[256,512]{1,0:T(8,128)(2,1)}",
                "bf16[256,512]{0,1:T(8,128)(2,1)}",
                SubTiles,
            ),
            ("s8[256,512]{1,0}", "s8[256,512]{0,1:T(8,128)(4,1)}", Units),
            ("f32[1,1]{1,0}", "f32[1,1]{0,1}", Runs),
            ("s4[64,256]{1,0:E(4)}", "s4[64,256]{1,0:T(8,128)E(4)}", Runs),
            (
                "s4[32,2,1024]{2,0,1:T(16,128)(2,1)E(4)}",
                "s4[32,2,1024]{0,1,2:E(4)}",
                Squares,
            ),
            // One row into tiles of two rows: every other slot.
            ("f32[1,9]{1,0}", "f32[1,9]{1,0:T(2,1)}", Strided),
        ] {
            let (a, b) = (parse_array(from).unwrap(), parse_array(to).unwrap());
            let plan = RelayoutPlan::new(&a, &b).unwrap();
            assert_eq!(plan.describe().kernel(), Some(kernel), "{from} -> {to}");
            let src = vec![7u8; plan.source_bytes() as usize];
            let mut dst = vec![0u8; plan.destination_bytes() as usize];
            RAN.with_borrow_mut(Vec::clear);
            plan.run_bytes(&src, &mut dst).unwrap();
            let ran = RAN.take();
            assert_eq!(ran.first(), Some(&kernel), "{from} -> {to}: {ran:?}");
        }
    }
}
