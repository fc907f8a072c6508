//! The tuning numbers of the relayout kernels, in one place, each with
//! the reason or the measurement behind it. Fractions are of
//! `copy_from_slice` over the same bytes, on the project's 2-core
//! machine; the history of the measurements is in the relayout guide.

// The general blocks (`transpose.rs`).

/// Most rows of a block (source runs; one destination line of bytes).
/// A row loop of up to this many steps that no side of the block divides
/// well is taken whole rather than cut into whole blocks and a rest, which
/// wrote the same destination lines again (53 rows of `f16`, blocks of
/// 32: 1.05x to 1.52x, four A/B runs).
pub(crate) const ROWS: usize = 64;

/// Most columns of a block (destination runs).
pub(crate) const COLS: usize = 128;

/// The bytes of one destination run a block aims for: one cache line.
pub(crate) const ROW_BYTES: usize = 64;

/// The bytes of one source run a block aims for: two cache lines.
pub(crate) const COL_BYTES: usize = 128;

/// Most runs in one block of the staged units (`staged.rs`), whose copy
/// of the block's source rows is on the stack: the general blocks' sides
/// for the runs' size fit (16 x 32 runs of 4 bytes, 2 KiB); twice those
/// sides measured no faster (`bf16[129,4097]` into `T(8,128)(2,1)`, u8
/// `(4,1)` against 130-byte rows, A/B, two rounds).
pub(crate) const STAGED_RUNS: usize = 2048;

// Packed slots of one width below a byte (`subbyte.rs`).

/// Most columns of a block here (its stack copies are [`ROWS`] by this):
/// a source row of 128 nibbles is one cache line. Against 64 columns,
/// `s4[140,674621]` transposed ran 0.12x -> 0.15x of memcpy; 32 rows of
/// 128 (half the rows) measured slower on three of four `E(4)` pairs, 128
/// rows mixed (A/B, one round each).
pub(crate) const COLS_HERE: usize = 128;

/// The fewest columns (source run, in nibbles) of a block whose runs go
/// through the nibble tiles (`subbyte::nibble_tile`): columns of 2 (the
/// `(2,1)` pairs of `s4[195599,193]{0,1:T(16,128)(2,1)E(4)}` to
/// `{0,1:E(4)}`) read 64 overlapping rows of one byte for a whole tile,
/// 0.13x -> 0.01x of memcpy; the span of the blocks gathers those.
pub(crate) const TILE_COLS: usize = 16;

/// Slots of a run moved at a time.
pub(crate) const PIECE: usize = 256;

/// Most slots of a block's source unpacked at once.
pub(crate) const SPAN: usize = 4096;

/// Runs at least this long are copied as runs.
pub(crate) const RUN_SLOTS: u64 = 16;

// The tuned square blocks, weave and split (`squares.rs`).

/// How many steps ahead a split run asks for the lines it will write:
/// with the source read front to back, the destination is written in
/// several rows at once, more streams than the hardware fetches ahead on
/// its own when the rows are short (1 or 2 KiB). 16 steps (8 KiB of a
/// bf16 source) measured best of 4, 16, 32 and 64 on the seed layout to
/// rows.
pub(crate) const AHEAD: usize = 16;

/// The side, in bytes, of the squares `strip` walks block by block; also
/// the destination run a block is given where its own is at most a line
/// and the next loop continues it (`Tuned::plan`). Joined to a line only,
/// such blocks wrote one line in each of up to 128 rows a page apart:
/// 40 such pairs drawn from the families (16 of the 286 of twelve seeds,
/// 24 of the 268 of 4800 pairs that this changes) went from a median of
/// 0.385x to 0.578x of memcpy, 1.46x (0.95x to 2.6x; A/B, 3 rounds). It
/// subsumes a join of whole destination rows of up to 512 bytes
/// (`u8[224,68444]{1,0:T(8,128)}` -> `{0,1}` 1.15x to 1.21x). Twice this
/// measured no faster (14 of the pairs: 0.78x to 1.11x). The source's
/// side likewise, for elements of 8 bytes or more where the loop that
/// continues a run of up to a line holds this many bytes: 27 of the 58
/// pairs of the 4800 this changes (f64 and s64 into `T(8,128)` or
/// `T(4,128)` across the transpose) 1.38x (median; 0.89x to 1.87x); for
/// all widths and any length of that loop, 0.49x to 1.87x (units of
/// narrow elements slower), and where it holds less than a square's side
/// (rows of 24 to 68 `s64`) 0.80x to 0.89x. Elements of 4 bytes with
/// runs of 16 bytes or more, then: 25 of the 42 more pairs this changes
/// 1.2x (median; 0.85x to 1.61x); with runs of 8 bytes too (`T(2,128)`,
/// which join a line's worth already) 0.79x to 0.88x on those.
pub(crate) const SQUARE_BYTES: usize = 1024;

/// ... and the most steps on a square's side (source rows on one side,
/// destination rows on the other, each a page or more apart in a large
/// array, so a square of `u8` 1 KiB a side touched 2048 pages). `u8` 2-D
/// transposes (`[4000,4000]`, `[8000,8000]`, `[763,16800]`) ran 1.07x
/// to 1.2x as fast with 512 as with 1024 (paired rounds, 9 to 15); 256
/// was as fast there, but 0.78x on `s8[661,433,70]` `{1,0,2}` ->
/// `{2,0,1}`, whose 64-row blocks then took 832 columns in two squares.
/// A block narrower than this on one side gives its other side the
/// steps it leaves (that pair: 0.85x without).
pub(crate) const SQUARE_ROWS: usize = 512;

/// ... and on a crowded block's side (`squares::Block::crowded`: rows a
/// power of two apart, such as 4 or 8 KiB): those rows fall in few sets
/// of the L2 too (rows 4 KiB apart share 32 of its 2048 sets, 16 lines
/// each), so 512 of them evict each other before the square is done.
/// `u8` and `bf16` 4096 x 4096, 8192 x 2048 and 2048 x 8192 transposes
/// ran 1.05x to 1.10x as fast with 256, `f16[304,256,1,446]` `{1,0,2,3}`
/// -> `{3,0,1,2}` 1.07x to 1.09x; 128 was faster on the 2-D transposes
/// (1.10x) but 0.88x on that one, 64 slower on all (paired rounds; 69
/// squares pairs of eight seeds: geometric mean 1.004x, none slower
/// beyond noise).
pub(crate) const CROWDED_ROWS: usize = 256;

/// The largest blocks of the squares whose successor's source rows are
/// asked for while they are copied (`squares::Block::sparse`), in bytes
/// and in source rows: small blocks whose rows leave gaps in the source
/// (padded tiles, rows far apart), where the hardware's prefetchers do
/// not follow. `u32[1,8,982,678]` `{1,0,3,2:T(4,128)}` ->
/// `{3,2,0,1:T(4,128)}` (32 of every 2048 source bytes read) ran 1.23x
/// to 1.31x as fast, `pred[156787,328]` to `T(8,128)` 1.16x to 1.25x,
/// `s16[2227,32,256]` `{1,0,2}` -> `{2,0,1}` 1.11x (paired rounds, 9 to
/// 15); 52 squares pairs of six seeds: geometric mean 1.01x, none
/// slower beyond noise.
pub(crate) const FETCH_BYTES: usize = 16384;

/// See [`FETCH_BYTES`]: the rows asked for at once stay few.
pub(crate) const FETCH_ROWS: usize = 256;

/// Rows per pass over a crowded block: as many lines as one set of an
/// 8-way L1 holds.
pub(crate) const PASS: usize = 8;

// Runs and the choice of kernel (`kernels.rs`).

/// Runs ahead whose destination lines the runs kernel asks for as it
/// copies one (`kernels::runs`, runs of a line or more): with 4, the
/// runs pairs of 142 drawn went from a median of 0.77x to 0.95x of
/// memcpy.
pub(crate) const RUNS_AHEAD: usize = 4;

/// Runs up to this many bytes are walked in tiles (`kernels::tiles_of_runs`).
/// Measured (fractions of memcpy, three A/B rounds): 64-byte runs of
/// `f32[512,512,16]` `{2,1,0}` -> `{2,0,1}` 0.39-0.47x untiled, 0.49-0.58x
/// tiled; bf16 64-byte runs 0.47x -> 0.51-0.55x; f64 248-byte runs
/// 0.42-0.45x -> 0.46-0.57x. The 512-byte rows of `T(8,128)` f32 tiles
/// keep their untiled walk (within noise either way, and tuned before).
pub(crate) const TILE_RUN_BYTES: usize = 256;

/// The most runs on a tile's side (`kernels::tiles_of_runs`), and the
/// side of the whole tiles a loop is cut into where no side of 4 up to
/// this divides its range (`f64[536,237,31]` `{2,1,0}` -> `{2,0,1}`, 237 =
/// 3 x 79: 0.43x of memcpy untiled, 0.99x so, A/B, five rounds).
pub(crate) const TILE_RUNS: usize = 16;

/// Runs of 2 or 4 narrow elements are taken as one wider element
/// (`units`) only in boxes of at least this many runs: a few runs
/// are as fast one by one.
pub(crate) const UNITS_LEAST: u64 = 1024;

/// `(2,1)` and `(4,1)` sub-tiles transposed on both sides are moved
/// as whole sub-tiles (`sub_tiles`) only in boxes of at least this
/// many sub-tiles.
pub(crate) const SUB_TILES_LEAST: u64 = 256;

/// A transpose goes to the tuned squares (`squares.rs`) where its
/// destination run and its source run are both at least this many
/// bytes (or it weaves or splits pairs); the general blocks measured
/// faster on the rest (see the relayout guide).
pub(crate) const SQUARES_RUN_BYTES: u64 = 8;

/// ... and where the square of the two runs has at least this many
/// elements: a square of 2 x 2 (`u32` `T(2,128)` tiles transposed, whose
/// runs of two are 8 bytes) is all overhead. On
/// `u32[12819,192]{0,1:T(2,128)}` -> `{1,0:T(2,128)}` the general blocks
/// run at 0.22x of memcpy against the squares' 0.09x (A/B, 3 rounds).
pub(crate) const SQUARES_LEAST: u64 = 64;

// Nibble transposes of `E(4)` `(2,1)` sub-tiles (`bits.rs`).

/// The shortest source run a nibble transpose takes: a `(2,1)` pair split
/// between two planes (runs of 2 nibbles) made tiles one byte wide
/// (`s4[256,220589,2]` `T(16,128)(2,1)` into `{0,1,2}`: 0.02-0.03x of
/// memcpy); the packed blocks take those.
pub(crate) const NIBBLE_RUN: u64 = 16;

/// The fewest tuples of 4 or 8 nibbles that the nibble pairs kernel
/// weaves or splits at any place in their bytes (`bits.rs`, through rows
/// of bytes); shorter runs go in chunks, which join the loops that
/// continue them. Two binaries in turn: runs of 33 and 45 quads
/// measured 0.62x and 0.51x of the chunks, 64 and 96 1.05x and 1.03x,
/// 128 2.0x.
pub(crate) const NIBBLE_TUPLES_RUN: u64 = 64;

/// The shortest destination run a nibble transpose takes: runs of 2
/// nibbles (a `(2,1)` pair as the destination's run) make tiles one byte
/// tall (`s4[32,108,144,64]` into `T(8,128)(2,1)`: 0.05x of memcpy, 0.15x
/// in the packed blocks); from 4 the nibble transpose was the faster
/// (`s4[39512,512]` into `T(8,128)(4,1)`: 0.06x against 0.03-0.04x).
/// Shorter runs are taken where the loop that continues them in the
/// destination joins them into more than a tile's rows ([`TILE_ROWS`]):
/// of the 25 drawn pairs that moved so from the packed blocks or chunks,
/// those of 74 rows or more ran 1.05x-1.62x but for three (0.75x-0.94x),
/// those of 64 or fewer 0.51x-1.34x (A/B, 3 rounds).
pub(crate) const NIBBLE_ROWS: u64 = 4;

/// The rows the nibble transposes' choices count as a tile's (in
/// `NibbleBlock::of`: a destination run shorter than this takes the loop
/// that continues it, and short runs are taken only where those make
/// more), as measured when the copy's tiles were 64 rows; they are
/// [`NIBBLE_TILE_ROWS`] now.
pub(crate) const TILE_ROWS: usize = 64;

/// Source rows in one tile of a nibble transpose as it is copied: 128
/// nibbles, a whole line of each destination row (at 64 rows, half a
/// line, each line written in two visits).
pub(crate) const NIBBLE_TILE_ROWS: usize = 128;

/// Bytes of each source row in one tile (one cache line).
pub(crate) const TILE_BYTES: usize = 64;

/// Bytes of each of the packed chunks' two buffers (`chunks.rs`: a byte
/// per slot, the source's gaps included), 16 KiB on the stack while they
/// copy (the L1 holds both and the lines they read and write).
pub(crate) const CHUNK: usize = 8192;

/// Runs of fewer nibbles than this are unpacked one by one, not through
/// the vector shuffles (`subbyte::unpack`): a run of 1 to 7 nibbles (the
/// last row or column that whole blocks leave, a `(2,1)` pair moved
/// alone) took a copy to the stack and a shuffle of 32. Paired rounds:
/// 1.12x to 1.72x on the pairs that unpack such runs most
/// (`s4[208624,193]` `{0,1}` -> `{1,0}`, whose 193 rows leave one; sources
/// mostly padding), 1.008x (median) over the `s4` pairs of 12 seeds,
/// none slower at a rerun; a threshold of 16 measured the same (1.005x).
pub(crate) const UNPACK_LEAST: usize = 8;

/// The slots of a chunk's move that one table of offsets gives (`u16`
/// each, 4 KiB on the stack; the move repeats it over the chunk). Against
/// the gathers of up to 16 bytes at a step it replaced (two binaries in
/// turn): 1.13x to 1.78x on 18 of 19 `s4` chunk pairs of 20 seeds, 1.18x
/// on the 19th at a rerun. A table of the whole chunk (16 KiB) measured
/// 1.17x to 1.97x on 12 of them; chunks of half the size, to keep the
/// stack, 0.51x to 1.27x.
pub(crate) const CHUNK_TABLE: usize = 2048;

/// The shortest source and destination runs (in slots) of a chunk: below
/// that, each run's unpacking or packing costs more than its slots.
pub(crate) const CHUNK_RUN: usize = 16;

/// Boxes that the packed blocks would move fewer slots at a time than
/// this go in chunks. Paired rounds over the `s4` pairs of 40 seeds: the
/// blocks of 2 x 68 or 4 x 128 slots ran at 0.015x to 0.06x of memcpy,
/// the chunks 0.96x to 7.6x as fast (all 34 chunk pairs: median 1.8x);
/// with every other packed-blocks box in
/// chunks too (blocks of 35 x 37 slots or more), 50 pairs ran slower and
/// one faster (1.11x).
pub(crate) const CHUNK_BLOCKS_LEAST: usize = 1024;

/// `(2,1)` pairs or `(4,1)` quads woven or split in runs shorter than
/// this (in slots of one row) go in chunks rather than as nibble pairs:
/// runs of 2 or 4 slots ran at 0.02x to 0.06x of memcpy as pairs and
/// 1.4x to 4.4x faster in chunks; runs of 8 were faster as pairs
/// (`s4[8,4728660]` `{0,1:E(4)}` -> `{0,1:T(8,128)(2,1)E(4)}`: 0.65x against
/// 0.35x).
pub(crate) const CHUNK_PAIRS_RUN: u64 = 8;

/// Boxes of whole slots whose tuned blocks (squares, weave, split) would
/// move fewer bytes than this at a time go in chunks
/// (`RelayoutKernel::Chunks`). Paired rounds over the 201 pairs other than
/// `s4` of 12 seeds: the three such (`bf16` `(2,1)` pairs woven 2 x 2,
/// `pred` and `u8` `(4,1)` quads split 4 x 4, 8 and 16 bytes a block) ran
/// 1.6x to 2.3x faster in chunks; at 256 bytes, blocks of 40 x 4 `s8` and
/// 8 x 4 `s16` sub-tiles took them too and ran at 0.55x to 0.8x.
pub(crate) const CHUNK_BLOCK_BYTES: u64 = 64;

/// The most rows `few.rs` weaves into tuples or splits out of them (from
/// 3; 2, and 4 of one-byte elements, are the tuned blocks').
pub(crate) const FEW_ROWS: u64 = 8;

/// The shortest rows `few.rs` takes: shorter ones are the blocks' (a
/// few tuples a step is no stream to follow).
pub(crate) const FEW_LEAST: u64 = 16;

/// The tuples `few.rs` makes or takes apart at a time: a piece of each
/// row and of the run, all in the L1 together (8 rows of 256 `f64` are
/// 16 KiB, read once and written once).
pub(crate) const FEW_PIECE: usize = 256;

// Threads (`parallel.rs`).

/// The fewest source lines a thread's part of the source's contiguous
/// loop holds: in parts of one line, neighbouring parts take the two
/// lines of an aligned pair, which the hardware fetches together, so both
/// threads read every line. `u32[32,64,27,73]` `{0,1,3,2:T(2,128)}` ->
/// `{3,1,2,0:T(2,128)}` (rows of two lines, a line a thread) ran at
/// 0.84x-0.87x of one thread on two in four runs of 3 to 9 rounds, as
/// `s32[2,48,413,432]` and `f16[304,256,1,446]` had in parts of one line
/// (see the relayout guide).
#[cfg(feature = "rayon")]
pub(crate) const PART_LINES: u64 = 2;

// Nibble pairs and tuples at any phase (`bits.rs`).

/// The tuples of nibbles (`(2,1)` pairs, `(4,1)` quads, eights) that
/// `Copier::pairs_at_any_phase` weaves or splits at a time: each row's
/// piece unpacked to whole bytes on the stack, then the tuples, about
/// 2 KiB in all at eights, in the L1 with the lines they came from (as
/// [`FEW_PIECE`] for whole slots).
pub(crate) const NIBBLE_TUPLES: usize = 256;

/// The nibbles `bits::weave_quads` and `bits::split_quads` take at a
/// time: a byte for each of them on the stack, twice (512 bytes), in
/// the L1 with the rows they came from.
pub(crate) const QUAD_PIECE: usize = 256;

// The destination's padding (`padding.rs`).

/// The fewest bytes of elements between two runs of padding, on average,
/// for the padding to be written run by run; below it the whole
/// destination is written first (a `memset`, then the elements over it).
/// A run costs a call and its cut, some tens of cycles: about what
/// `memset` writes of a hundred bytes. The 26 drawn pairs of whole-byte
/// elements this moves to the `memset` ran 1.13x-1.61x (A/B, 3 rounds),
/// one 0.96x; at 256, four of 16 ran 0.78x-0.92x.
pub(crate) const PAD_RUN_BYTES: u64 = 64;

/// [`PAD_RUN_BYTES`] for packed slots, whose runs are written bit by bit
/// at their ends (about 80 instructions a run): a sample of 24 `E(4)`
/// pairs this moves to the `memset` ran 1.0x-2.3x (A/B, 3 rounds), and
/// the 20 more that 1024 takes over 256 a median of 1.05x.
pub(crate) const PACKED_PAD_RUN_BYTES: u64 = 1024;

// Boxes walked together (`slabs.rs`).

/// The bytes of source and destination, over all the boxes, of one slab
/// of the loop the boxes share. 64 KiB ran 0.7x-0.8x as fast on
/// `s4[512,376,288]` out of `T(16,128)(2,1)E(4)` and `u8[512,376,288]`
/// out of `T(32,128)(4,1)` (each slab decides each part's kernel and
/// walks every box again); 1 MiB the same as this.
pub(crate) const SLAB_BYTES: u64 = 256 * 1024;

/// The most boxes walked together (each slab walks them all again).
pub(crate) const SLAB_BOXES: usize = 16;

/// The most bytes of destination one step of the shared loop may hold,
/// over all the boxes, for the boxes to walk in slabs: steps of many
/// lines share few of them between boxes, and slabs break each box's
/// streams (`bf16[512,9033]` out of `T(4,128)(2,1)`, 72 KiB a step,
/// 0.79x in slabs; `u8[512,376,288]` out of `T(32,128)(4,1)`, 12 KiB a
/// step, 1.1x-1.2x, is left out by this bound).
pub(crate) const SLAB_STEP_BYTES: u64 = 4096;
