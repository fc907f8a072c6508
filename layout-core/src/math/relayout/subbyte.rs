//! Packed slots of 1, 2 or 4 bits (`E(n)` on both sides, the same width)
//! that no whole-byte kernel takes: transposes whose rows start at odd
//! slots, odd extents, runs that start at different places in their
//! bytes. The box is planned as blocks of the general transpose, whole
//! blocks where a loop allows (`transpose::each_box_whole`); each block's
//! source rows are unpacked to a byte per slot on the stack, transposed
//! there as bytes (in whole vector tiles, the block's sides rounded up),
//! and each destination column packed back. A block of fewer than 16
//! columns whose source rows are far apart takes in steps of the loop
//! that continues its columns in the source (padded sub-tiles), as many
//! as a row of 128 slots holds: each row's span is unpacked and
//! transposed whole, padding included, and only the block's columns are
//! packed. Nibbles are unpacked 32 and
//! packed 32 at a time with `simd` at either phase of a byte. Runs of 2
//! or 4 nibbles contiguous on both sides are one element of the blocks,
//! and skip the byte per slot: each block row is shifted to whole bytes
//! where it starts inside one, so that a run is 1 or 2 whole bytes, and
//! the runs are transposed as such ([`units`]).
//! Blocks of nibbles whose rows and columns are both runs skip the bytes:
//! each row is shifted to whole bytes where it starts inside one, the
//! nibbles are transposed as nibbles (`simd::transpose_nibbles`, the
//! nibble transposes' tile), and each destination run shifted back as it
//! is written ([`nibble_tile`]). Runs (contiguous on both sides) of
//! nibbles go from byte to byte, shifted by a nibble where they start at
//! different places in their bytes ([`nibble_run`]); runs of narrower
//! slots are unpacked and packed a piece at a time.

use super::chunks::Chunk;
use super::kernels::RelayoutKernel;
use super::loops::{divisor_up_to, each, each_ahead, in_source_order};
use super::modes::{Mode, Nest};
use super::simd;
use super::transpose::{self, Whole};
use super::tuning::{
    CHUNK_BLOCKS_LEAST, COLS_HERE, PIECE, ROWS, RUN_SLOTS, SPAN, TILE_COLS, UNPACK_LEAST,
};

/// The side of the vector tiles the blocks' bytes are shuffled in.
const TILE: usize = 16;

/// Most loops over a block that [`blocks`] copies to take one of them
/// into its columns (a copy on the stack).
const FOLD_LOOPS: usize = 12;

/// Copies box `n` of `w`-bit slots (`w` 1, 2 or 4): the kernel it took,
/// or `None`, with nothing copied, for other widths or boxes that are no
/// runs and no transpose (then the copy goes slot by slot).
#[inline(never)]
pub(crate) fn copy(n: &Nest, w: usize, src: &[u8], dst: &mut [u8]) -> Option<RelayoutKernel> {
    let done = match w {
        1 => copy_w::<1>(n, src, dst),
        2 => copy_w::<2>(n, src, dst),
        4 => copy_w::<4>(n, src, dst),
        _ => None,
    };
    done.map(|runs| {
        if runs {
            RelayoutKernel::PackedRuns
        } else {
            RelayoutKernel::PackedBlocks
        }
    })
}

/// The kernel [`copy`] takes for box `n`, by the same tests, without
/// copying.
pub(crate) fn choose(n: &Nest, w: usize) -> Option<RelayoutKernel> {
    if !matches!(w, 1 | 2 | 4) {
        return None;
    }
    let modes = n.loops();
    if let Some((m0, rest)) = modes.split_first() {
        if runs_here(m0, rest) {
            return Some(RelayoutKernel::PackedRuns);
        }
        if w == 4 && m0.src == 1 && m0.dst == 1 && !rest.is_empty() {
            let rest = Nest::scaled(rest, 1, 1, n.src, n.dst);
            let fits = match m0.range {
                2 => units_fit(&rest, 2),
                4 => units_fit(&rest, 4),
                _ => false,
            };
            if fits {
                return Some(RelayoutKernel::PackedBlocks);
            }
        }
    }
    if chunks_fit(n) {
        return Some(RelayoutKernel::Chunks);
    }
    transpose::each_box_whole(n, ROWS, COLS_HERE, &mut |_| {})
        .then_some(RelayoutKernel::PackedBlocks)
}

/// Whether the chunks take box `n` rather than the general blocks: where
/// the blocks would move fewer than [`CHUNK_BLOCKS_LEAST`] slots at a
/// time and the chunks plan (their runs are long enough).
fn chunks_fit(n: &Nest) -> bool {
    let small = transpose::Blocks::plan_at_most(n, ROWS, COLS_HERE)
        .is_none_or(|b| b.rows().len() * b.cols().len() < CHUNK_BLOCKS_LEAST);
    small && Chunk::plan(n).is_some()
}

/// Whether a box whose first loop is `m0` goes as runs: long runs one by
/// one; short ones (an `E(4)` `(2,1)` sub-tile) are rows of the blocks.
fn runs_here(m0: &Mode, rest: &[Mode]) -> bool {
    m0.src == 1 && m0.dst == 1 && (m0.range >= RUN_SLOTS || rest.is_empty())
}

/// [`copy`] for slots of `W` bits: `Some(true)` as runs, `Some(false)` in
/// blocks, `None` not at all.
fn copy_w<const W: usize>(n: &Nest, src: &[u8], dst: &mut [u8]) -> Option<bool> {
    let modes = n.loops();
    if let Some((m0, rest)) = modes.split_first() {
        if runs_here(m0, rest) {
            let len = m0.range as usize;
            if W == 4 {
                each(rest, n.src, n.dst, |s, d| nibble_run(src, s, dst, d, len));
                return Some(true);
            }
            let mut buf = [0u8; PIECE];
            each(rest, n.src, n.dst, |s, d| {
                for at in (0..len).step_by(PIECE) {
                    let k = PIECE.min(len - at);
                    unpack::<W>(src, s + at, &mut buf[..k]);
                    pack::<W>(&buf[..k], dst, d + at);
                }
            });
            return Some(true);
        }
        // Runs of 2 or 4 nibbles (an `E(4)` `(2,1)` or `(4,1)` sub-tile)
        // transposed: the blocks below with each run as one element.
        if W == 4 && m0.src == 1 && m0.dst == 1 && !rest.is_empty() {
            let done = match m0.range {
                2 => units::<1>(&Nest::scaled(rest, 1, 1, n.src, n.dst), src, dst),
                4 => units::<2>(&Nest::scaled(rest, 1, 1, n.src, n.dst), src, dst),
                _ => false,
            };
            if done {
                return Some(false);
            }
        }
    }
    blocks::<W>(n, src, dst).then_some(false)
}

/// The general blocks of [`copy_w`]: each block's rows as bytes, then its
/// columns. Out of line (its copies of a block take 21 KiB): only the
/// kernel that runs has its tables on the stack.
#[inline(never)]
fn blocks<const W: usize>(n: &Nest, src: &[u8], dst: &mut [u8]) -> bool {
    let mut a = [[0u8; 1]; ROWS * COLS_HERE];
    let mut t = [[0u8; 1]; ROWS * COLS_HERE];
    let mut span_buf = [0u8; PIECE];
    let mut row_buf = [0u8; PIECE];
    let mut whole = [[0u8; 1]; SPAN];
    transpose::each_box_whole(n, ROWS, COLS_HERE, &mut |part| {
        let (b, s, d) = match part {
            Whole::Blocks(b, s, d) => (b, s, d),
            Whole::Line(n) => return line::<W>(n, 1, src, dst),
        };
        let (rows, cols) = (b.rows(), b.cols());
        // Runs on both sides, the source's long enough to fill a
        // tile's rows (shorter ones, as the columns of `(2,1)` pairs,
        // go through the span below).
        if W == 4 && b.runs() && cols.len() >= TILE_COLS {
            let tile = a.as_flattened_mut().as_chunks_mut::<64>().0;
            let out = t.as_flattened_mut().as_chunks_mut::<32>().0;
            if let (Some(tile), Some(out)) = (tile.first_chunk_mut(), out.first_chunk_mut()) {
                each_ahead(b.outer(), s, d, 1, |s, d, next| {
                    fetch_rows::<W>(src, rows, next);
                    nibble_tile(rows, cols, src, s, dst, d, next.map(|n| n.1), tile, out);
                });
                return;
            }
        }
        let (ps, qs) = b.strides();
        let q0 = cols.len();
        // The slots a block's source spans: where that is short (rows
        // and columns interleaved, as in `(2,1)` sub-tiles), the span is
        // unpacked at once and each column gathered from it.
        let last = rows.iter().max().copied().unwrap_or(0);
        let whole_span = (q0 - 1)
            .checked_mul(qs)
            .and_then(|x| x.checked_add(last + 1))
            .filter(|&x| x <= SPAN);
        // Otherwise, columns that span few slots of the source (a short
        // run, the rest of its sub-tile padding) take in the block's
        // outer loop of the smallest source stride, `k` steps of it, as
        // far as a row's slots fit the block's width ([`COLS_HERE`]):
        // each block then uses the far-apart source lines it reads
        // whole, where the next blocks would read them again.
        let mut outer = [Mode {
            range: 1,
            src: 0,
            dst: 0,
        }; FOLD_LOOPS];
        let on = b.outer().len();
        let (mut k, mut s2, mut d2) = (1, 0, 0);
        if q0 < TILE && on <= FOLD_LOOPS && whole_span.is_none() {
            outer[..on].copy_from_slice(b.outer());
            if let Some(m) = outer[..on].iter_mut().min_by_key(|m| m.src) {
                let used = (q0 - 1) * qs + 1;
                let strides = usize::try_from(m.src)
                    .ok()
                    .filter(|&x| x > 0)
                    .zip(usize::try_from(m.dst).ok());
                if let (Some(room), Some((ms, md))) = (COLS_HERE.checked_sub(used), strides) {
                    k = divisor_up_to(m.range, room / ms + 1);
                    (s2, d2) = (ms, md);
                    // `k` divides the range: the steps left are whole.
                    m.range /= k as u64;
                    m.src *= k as u64;
                    m.dst *= k as u64;
                }
            }
            in_source_order(&mut outer[..on]);
        }
        let outer = if k > 1 { &outer[..on] } else { b.outer() };
        // Column `j`: column `j % q0` of the plan, `j / q0` steps of the
        // loop taken in; its source offset from the row's start and its
        // destination offset from the block's.
        let col_src = |j: usize| (j % q0) * qs + (j / q0) * s2;
        let col_dst = |j: usize| cols[j % q0] + (j / q0) * d2;
        let (p, q) = (rows.len(), q0 * k);
        // The columns of `a` and `t` a block's rows fill: with a loop
        // taken in, each row's whole span of slots, transposed whole
        // and packed where the block's columns are (column `j` of the
        // block is column `col_src(j)` of `t`); else the block's own.
        let width = if k > 1 { col_src(q - 1) + 1 } else { q };
        let t_col = |j: usize| if k > 1 { col_src(j) } else { j };
        // Row `i` of `a` starts at `i * qq`; column `j` of `t` at `j *
        // pp`: the block's sides rounded up to whole vector tiles, so
        // that the shuffles transpose all of it (rows and columns past
        // `p` and `q` hold what an earlier block left, and are not packed).
        let (pp, qq) = (
            p.next_multiple_of(TILE).min(ROWS),
            width.next_multiple_of(TILE).min(COLS_HERE),
        );
        let mut a_rows = [0usize; ROWS];
        for (i, r) in a_rows[..pp].iter_mut().enumerate() {
            *r = i * qq;
        }
        let mut t_cols = [0usize; COLS_HERE];
        for (j, c) in t_cols[..qq].iter_mut().enumerate() {
            *c = j * pp;
        }
        let mut rows_across = |a: &mut [[u8; 1]], t: &mut [[u8; 1]], s: usize| {
            for (i, &r) in rows.iter().enumerate() {
                let row = a[i * qq..i * qq + width].as_flattened_mut();
                if qs == 1 || k > 1 {
                    unpack::<W>(src, s + r, row);
                } else {
                    // The span the row's slots lie in, then every `qs`-th.
                    let per = (PIECE - 1) / qs + 1;
                    for (k, part) in row.chunks_mut(per).enumerate() {
                        let at = s + r + k * per * qs;
                        let span = (part.len() - 1) * qs + 1;
                        unpack::<W>(src, at, &mut row_buf[..span]);
                        for (j, x) in part.iter_mut().enumerate() {
                            *x = row_buf[j * qs];
                        }
                    }
                }
            }
            let (pn, qn) = simd::table_block(a, 0, &a_rows[..pp], t, 0, &t_cols[..qq]);
            for j in (0..q).map(t_col) {
                let from = if j < qn { pn.min(p) } else { 0 };
                for i in from..p {
                    t[j * pp + i] = a[i * qq + j];
                }
            }
        };
        // Two columns of rows two slots apart (a `(2,1)` sub-tile's
        // pairs): the span is the two columns woven. (A block that takes
        // a loop in has no whole span.)
        let pairs = q == 2 && qs == 1 && rows.iter().enumerate().all(|(i, &r)| r == 2 * i);
        // The last slot of a row taken in: its line is asked for too.
        let reach = if k > 1 { col_src(q - 1) } else { 0 };
        each_ahead(outer, s, d, 1, |s, d, next| {
            fetch_rows::<W>(src, rows, next);
            if reach > 0 {
                fetch_rows::<W>(src, rows, next.map(|(x, y)| (x + reach, y)));
            }
            if let Some(span) = whole_span {
                unpack::<W>(src, s, whole[..span].as_flattened_mut());
                let done = if pairs {
                    let (x, y) = t[..pp + p].split_at_mut(pp);
                    let x = &mut x[..p];
                    simd::split(&whole[..2 * p], x, y)
                } else {
                    0
                };
                let from = if pairs { done.min(p) } else { 0 };
                for j in 0..q {
                    let column = &mut t[j * pp + from..j * pp + p];
                    let base = &whole[j * qs..span];
                    for (o, &r) in column.iter_mut().zip(&rows[from..]) {
                        *o = base[r];
                    }
                }
            } else {
                rows_across(&mut a, &mut t, s);
            }
            for j in 0..q {
                let (c, tj) = (col_dst(j), t_col(j));
                if let Some((_, x)) = next {
                    let n = p.saturating_sub(1) * ps + 1;
                    if ps > 1
                        || !(x + c).is_multiple_of(8 / W)
                        || !(x + c + n).is_multiple_of(8 / W)
                    {
                        ask_ends::<W>(dst, x + c, n);
                    }
                }
                let column = t[tj * pp..tj * pp + p].as_flattened();
                if ps == 1 {
                    pack::<W>(column, dst, d + c);
                } else {
                    // The span the column's slots lie in: read, the
                    // column's slots changed, written back.
                    let per = (PIECE - 1) / ps + 1;
                    for (k, part) in column.chunks(per).enumerate() {
                        let at = d + c + k * per * ps;
                        let span = (part.len() - 1) * ps + 1;
                        unpack::<W>(dst, at, &mut span_buf[..span]);
                        for (i, &x) in part.iter().enumerate() {
                            span_buf[i * ps] = x;
                        }
                        pack::<W>(&span_buf[..span], dst, at);
                    }
                }
            }
        });
    })
}

/// Asks for the first line of each source row (`rows`, offsets in slots
/// of `W` bits) of the block at `next` (its source offset first), while
/// the block before it is copied: a packed block's rows are often far
/// apart, where the hardware's prefetchers do not follow. Paired rounds
/// over the 39 drawn pairs that take the packed kernels: geometric mean
/// 1.04x, up to 1.4x (`s4[664,249,417]` `{2,1,0:E(4)}` -> `{0,2,1:E(4)}`).
#[inline(always)]
fn fetch_rows<const W: usize>(src: &[u8], rows: &[usize], next: Option<(usize, usize)>) {
    if let Some((x, _)) = next {
        simd::prefetch_rows(src, x, rows, 8 / W);
    }
}

/// One block of nibbles whose rows (source runs, at most 64, `rows`
/// their offsets) and columns (destination runs, at most 128) are runs,
/// at any place in their bytes: each row's nibbles go to whole bytes of
/// `tile` (shifted by a nibble where the row starts inside a byte), the
/// tile is transposed into `out` (`simd::transpose_nibbles`; nibble by
/// nibble without `simd`), and each destination run is written from its
/// row of `out` (shifted likewise). Rows and columns past the block's in
/// `tile` and `out` hold what an earlier block left and are not written.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn nibble_tile(
    rows: &[usize],
    cols: &[usize],
    src: &[u8],
    s: usize,
    dst: &mut [u8],
    d: usize,
    next: Option<usize>,
    tile: &mut [[u8; 64]; 64],
    out: &mut [[u8; 32]; 128],
) {
    let p = rows.len();
    let bytes = cols.len().div_ceil(2);
    if bytes == 64 {
        // Whole rows: copies (or shifts) of a known size, in a loop of
        // their own.
        for (row, &r) in tile.iter_mut().zip(rows) {
            if !whole_row(src, s + r, row) {
                get_nibbles(src, s + r, row);
            }
        }
    } else {
        for (row, &r) in tile.iter_mut().zip(rows) {
            get_nibbles(src, s + r, &mut row[..bytes]);
        }
    }
    let rows = &tile[..(32 * p.div_ceil(32)).min(64)];
    if !simd::transpose_nibbles(rows, out.as_flattened_mut(), 0, 32) {
        for (j, o) in out.iter_mut().enumerate().take(cols.len()) {
            let shift = 4 * (j % 2);
            for (k, x) in o.iter_mut().enumerate().take(p.div_ceil(2)) {
                let (a, b) = (tile[2 * k][j / 2], tile[2 * k + 1][j / 2]);
                *x = ((a >> shift) & 0x0F) | (((b >> shift) & 0x0F) << 4);
            }
        }
    }
    for (o, &c) in out.iter().zip(cols) {
        if let Some(x) = next {
            ask_ends::<4>(dst, x + c, p);
        }
        put_nibbles(o, p, dst, d + c);
    }
}

/// Nibbles `s..s + len` of `src` into nibbles `d..d + len` of `dst`,
/// straight from byte to byte: a nibble on its own where `d` starts
/// inside a byte, then whole bytes of `dst` (copied, or each made of two
/// neighbouring source bytes where the run starts inside one in `src`
/// only: `get_nibbles`), then the last nibble on its own.
#[inline(always)]
fn nibble_run(src: &[u8], s: usize, dst: &mut [u8], d: usize, len: usize) {
    let nibble = |at: usize| (src[at / 2] >> (4 * (at % 2))) & 0x0F;
    let (mut s, mut d, mut len) = (s, d, len);
    if len > 0 && d % 2 == 1 {
        let x = &mut dst[d / 2];
        *x = (*x & 0x0F) | (nibble(s) << 4);
        (s, d, len) = (s + 1, d + 1, len - 1);
    }
    let whole = len / 2;
    get_nibbles(src, s, &mut dst[d / 2..d / 2 + whole]);
    if len % 2 == 1 {
        let x = &mut dst[d / 2 + whole];
        *x = (*x & 0xF0) | nibble(s + 2 * whole);
    }
}

/// [`get_nibbles`] for a whole row of 64 bytes: `false`, with nothing
/// done, where `src` ends before the row's last byte (or the byte after
/// it, for a row that starts inside a byte).
#[inline(always)]
pub(crate) fn whole_row(src: &[u8], at: usize, row: &mut [u8; 64]) -> bool {
    let from = src.get(at / 2..);
    if at.is_multiple_of(2) {
        if let Some(x) = from.and_then(|x| x.first_chunk::<64>()) {
            *row = *x;
            return true;
        }
    } else if let Some(x) = from.and_then(|x| x.first_chunk::<65>()) {
        *row = core::array::from_fn(|k| (x[k] >> 4) | (x[k + 1] << 4));
        return true;
    }
    false
}

/// Nibbles `at..at + 2 * out.len()` of `src` into whole bytes of `out`
/// (nibble `at` low in `out[0]`); where `src` ends first, the bytes of
/// `out` past it are left as they were, and a last half byte is zero.
#[inline(always)]
pub(crate) fn get_nibbles(src: &[u8], at: usize, out: &mut [u8]) {
    let b = at / 2;
    let end = (b + out.len()).min(src.len());
    let from = &src[b.min(end)..end];
    if at.is_multiple_of(2) {
        out[..from.len()].copy_from_slice(from);
    } else {
        // Byte `k` of `out`: the high nibble of `from[k]`, the low one of
        // `from[k + 1]`.
        let next = src.get(b + 1..(end + 1).min(src.len())).unwrap_or(&[]);
        shift_down(out, from, next);
        if next.len() < from.len()
            && let (Some(x), Some(&lo)) = (out.get_mut(next.len()), from.last())
        {
            *x = lo >> 4;
        }
    }
}

/// The first `n` nibbles of `row` (nibble `2k` low in `row[k]`) into
/// nibbles `at..at + n` of `dst`; the other nibbles of the bytes at either
/// end are kept.
#[inline(always)]
pub(crate) fn put_nibbles(row: &[u8], n: usize, dst: &mut [u8], at: usize) {
    let b = at / 2;
    if at.is_multiple_of(2) {
        let whole = n / 2;
        dst[b..b + whole].copy_from_slice(&row[..whole]);
        if n % 2 == 1 {
            let x = &mut dst[b + whole];
            *x = (*x & 0xF0) | (row[whole] & 0x0F);
        }
    } else if n > 0 {
        // Nibble 0 into the high half of the first byte; then nibbles
        // `2m + 1`, `2m + 2` into byte `m + 1`.
        let x = &mut dst[b];
        *x = (*x & 0x0F) | (row[0] << 4);
        let whole = (n - 1) / 2;
        shift_down(
            &mut dst[b + 1..b + 1 + whole],
            &row[..whole],
            &row[1..=whole],
        );
        if (n - 1) % 2 == 1 {
            let x = &mut dst[b + 1 + whole];
            *x = (*x & 0xF0) | (row[whole] >> 4);
        }
    }
}

/// Asks for the lines of the destination's slots `at..at + n` (`W` bits
/// each; `simd::prefetch_write`), a run or span of the next block while
/// one is copied. Where a run starts or ends inside a byte,
/// [`put_nibbles`] and [`pack`] read that byte before writing it, and a
/// span with gaps is read whole: a read that misses the caches holds the
/// copy back. The nibble tiles and the units ask for every run, of whole
/// bytes too (their stores, a few bytes to each of 128 lines, fill the
/// store buffer: asking only where a run starts or ends inside a byte
/// lost much of the gain); the byte blocks only where their writes read.
/// The nibble transposes ask for their tiles' destination rows as bytes
/// (`W` = 8).
#[inline(always)]
pub(crate) fn ask_ends<const W: usize>(dst: &[u8], at: usize, n: usize) {
    let k = 8 / W;
    let (mut b, last) = (at / k, (at + n.max(1) - 1) / k);
    // One request per line: from each byte asked for, the next line's
    // first byte (the lines are the memory's, so from the slice's
    // address).
    let base = dst.as_ptr() as usize;
    loop {
        simd::prefetch_write(dst, b);
        b = (base.wrapping_add(b) | 63)
            .wrapping_add(1)
            .wrapping_sub(base);
        if b > last {
            return;
        }
    }
}

/// A row of nibbles moved down by one: byte `k` of `out` gets the high
/// nibble of `lo[k]` (low) and the low nibble of `hi[k]` (high), for each
/// `k` all three have (`hi` is `lo` one byte on).
/// Eight bytes at a time as `u64`s (a loop over bytes zipped three ways
/// stayed a byte at a time), the last eight again where the length is
/// not a multiple of eight (the bytes they share get the same values).
#[inline(always)]
fn shift_down(out: &mut [u8], lo: &[u8], hi: &[u8]) {
    const LOW: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let eight = |o: &mut [u8; 8], l: &[u8; 8], h: &[u8; 8]| {
        let (l, h) = (u64::from_le_bytes(*l), u64::from_le_bytes(*h));
        *o = (((l >> 4) & LOW) | ((h << 4) & !LOW)).to_le_bytes();
    };
    let n = out.len().min(lo.len()).min(hi.len());
    let (out, lo, hi) = (&mut out[..n], &lo[..n], &hi[..n]);
    if n < 8 {
        for ((x, &l), &h) in out.iter_mut().zip(lo).zip(hi) {
            *x = (l >> 4) | (h << 4);
        }
        return;
    }
    for ((o, l), h) in out
        .as_chunks_mut::<8>()
        .0
        .iter_mut()
        .zip(lo.as_chunks::<8>().0)
        .zip(hi.as_chunks::<8>().0)
    {
        eight(o, l, h);
    }
    if let (Some(o), Some(l), Some(h)) = (out.last_chunk_mut(), lo.last_chunk(), hi.last_chunk()) {
        eight(o, l, h);
    }
}

/// Box `n` of runs of `2 * B` nibbles (contiguous on both sides; `B` is
/// 1 or 2) whose starts `n` walks: blocks of runs, each block's source
/// rows shifted to whole bytes where they start inside one (so that each
/// run is `B` whole bytes), transposed `B` bytes at a time, and each
/// destination column written back shifted likewise (`get_nibbles`,
/// `put_nibbles`). `false`, with nothing copied, where the runs are not
/// contiguous along the block's rows and columns (then the general
/// blocks take the box). Out of line, like [`blocks`]. (docs/relayout.md,
/// "Packed blocks at odd nibbles", has its measurements.)
#[inline(never)]
fn units<const B: usize>(n: &Nest, src: &[u8], dst: &mut [u8]) -> bool
where
    [u8; B]: 'static,
{
    let g = 2 * B;
    if !contiguous_units(n, g as u64) {
        return false;
    }
    let mut a_bytes = [0u8; ROWS * COLS_HERE];
    let mut t_bytes = [0u8; ROWS * COLS_HERE];
    transpose::each_box_whole(n, ROWS, COLS_HERE * 2 / g, &mut |part| {
        let (b, s, d) = match part {
            Whole::Blocks(b, s, d) => (b, s, d),
            Whole::Line(n) => return line::<4>(n, g, src, dst),
        };
        let (rows, cols) = (b.rows(), b.cols());
        let (p, q) = (rows.len(), cols.len());
        let (ps, qs) = b.strides();
        if ps != g || qs != g {
            // Not runs of runs: one run at a time.
            let mut buf = [0u8; 4];
            let buf = &mut buf[..g];
            each(b.outer(), s, d, |s, d| {
                for (j, &c) in cols.iter().enumerate() {
                    for (i, &r) in rows.iter().enumerate() {
                        unpack::<4>(src, s + r + j * qs, buf);
                        pack::<4>(buf, dst, d + c + i * ps);
                    }
                }
            });
            return;
        }
        // Row `i` of the block starts at run `i * q` of `a`, column `j`
        // at run `j * p` of `t`.
        let mut a_rows = [0usize; ROWS];
        for (i, r) in a_rows[..p].iter_mut().enumerate() {
            *r = i * q;
        }
        let mut t_cols = [0usize; COLS_HERE];
        for (j, c) in t_cols[..q].iter_mut().enumerate() {
            *c = j * p;
        }
        each_ahead(b.outer(), s, d, 1, |s, d, next| {
            fetch_rows::<4>(src, rows, next);
            for (i, &r) in rows.iter().enumerate() {
                get_nibbles(src, s + r, &mut a_bytes[i * q * B..(i + 1) * q * B]);
            }
            let a = a_bytes.as_chunks::<B>().0;
            let t = t_bytes.as_chunks_mut::<B>().0;
            let (pn, qn) = simd::table_block(a, 0, &a_rows[..p], t, 0, &t_cols[..q]);
            for j in 0..q {
                let from = if j < qn { pn } else { 0 };
                for i in from..p {
                    t[j * p + i] = a[i * q + j];
                }
            }
            for (j, &c) in cols.iter().enumerate() {
                if let Some((_, x)) = next {
                    ask_ends::<4>(dst, x + c, p * g);
                }
                put_nibbles(&t_bytes[j * p * B..(j + 1) * p * B], p * g, dst, d + c);
            }
        });
    })
}

/// A box of one loop or none, as the blocks leave it (one row or one
/// column of them): `g` slots (contiguous on both sides) at each step,
/// moved through a byte each.
fn line<const W: usize>(n: &Nest, g: usize, src: &[u8], dst: &mut [u8]) {
    let mut buf = [0u8; 4];
    let buf = &mut buf[..g.min(4)];
    each(n.loops(), n.src, n.dst, |s, d| {
        unpack::<W>(src, s, buf);
        pack::<W>(buf, dst, d);
    });
}

/// Whether the runs of `g` slots that box `n` walks are contiguous along
/// its first destination loop and its first source loop.
fn contiguous_units(n: &Nest, g: u64) -> bool {
    let loops = n.loops();
    loops.len() >= 2 && loops[0].dst == g && loops[1..].iter().map(|m| m.src).min() == Some(g)
}

/// Whether [`units`] takes box `n` (its tests, without copying).
fn units_fit(n: &Nest, g: usize) -> bool {
    contiguous_units(n, g as u64)
        && transpose::each_box_whole(n, ROWS, COLS_HERE * 2 / g, &mut |_| {})
}

/// Slots `at..at + out.len()` of `src` (`W` bits each), one per byte of
/// `out`. Nibbles go 32 at a time whatever byte they start in (the last
/// 32 may overlap the ones before; fewer than 32, through a vector's
/// worth on the stack); the rest, and runs of fewer than
/// [`UNPACK_LEAST`] nibbles, one by one.
#[inline(always)]
pub(crate) fn unpack<const W: usize>(src: &[u8], at: usize, out: &mut [u8]) {
    let k = 8 / W;
    let mask = ((1u16 << W) - 1) as u8;
    let one = |slot: usize| (src[slot / k] >> (W * (slot % k))) & mask;
    let n = out.len();
    let mut done = 0;
    if W == 4 && n >= UNPACK_LEAST {
        // The bytes that hold the slots.
        let bytes = |from: usize| &src[(at + from) / 2..(at + n).div_ceil(2)];
        done = simd::nibbles_to_bytes(bytes(0), at % 2, out);
        if done < n && done > 0 {
            let from = n - 32;
            simd::nibbles_to_bytes(bytes(from), (at + from) % 2, &mut out[from..]);
            done = n;
        } else if done < n && n < 32 {
            // Fewer than 32: through a vector's worth on the stack.
            let (mut held, mut got) = ([0u8; 17], [0u8; 32]);
            let b = bytes(0);
            held[..b.len()].copy_from_slice(b);
            if simd::nibbles_to_bytes(&held, at % 2, &mut got) == 32 {
                out.copy_from_slice(&got[..n]);
                done = n;
            }
        }
    }
    for (i, o) in out.iter_mut().enumerate().skip(done) {
        *o = one(at + i);
    }
}

/// The low `W` bits of each byte of `values` into slots `at..` of `dst`;
/// the other slots of the bytes at either end are kept. Nibbles go to
/// whole bytes 16 at a time (the last 16 may overlap the ones before);
/// the rest one by one.
#[inline(always)]
pub(crate) fn pack<const W: usize>(values: &[u8], dst: &mut [u8], at: usize) {
    let k = 8 / W;
    let mask = ((1u16 << W) - 1) as u8;
    let one = |dst: &mut [u8], slot: usize, v: u8| {
        let shift = W * (slot % k);
        let byte = &mut dst[slot / k];
        *byte = (*byte & !(mask << shift)) | ((v & mask) << shift);
    };
    let n = values.len();
    // Up to the first whole byte, then whole bytes.
    let head = ((k - at % k) % k).min(n);
    for (i, &v) in values[..head].iter().enumerate() {
        one(dst, at + i, v);
    }
    let whole = (n - head) / k;
    let from = (at + head) / k;
    let mut done = 0;
    if W == 4 {
        let (v, d) = (
            &values[head..head + 2 * whole],
            &mut dst[from..from + whole],
        );
        done = simd::bytes_to_nibbles(v, d);
        if done < whole && done > 0 {
            simd::bytes_to_nibbles(&v[2 * (whole - 16)..], &mut d[whole - 16..]);
            done = whole;
        }
    }
    for (chunk, byte) in values[head + done * k..head + whole * k]
        .chunks_exact(k)
        .zip(&mut dst[from + done..from + whole])
    {
        let mut b = 0u8;
        for (j, &v) in chunk.iter().enumerate() {
            b |= (v & mask) << (W * j);
        }
        *byte = b;
    }
    for (i, &v) in values.iter().enumerate().skip(head + whole * k) {
        one(dst, at + i, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_down_moves_every_byte_by_a_nibble() {
        let src: [u8; 41] = core::array::from_fn(|i| (i as u8).wrapping_mul(73) ^ 0xA5);
        // Every length, so that the eight-byte steps and the last eight
        // again (and the bytes below eight) are all met.
        for n in 0..40 {
            let mut out = [0xEEu8; 40];
            shift_down(&mut out[..n], &src[..n], &src[1..=n]);
            for k in 0..n {
                assert_eq!(out[k], (src[k] >> 4) | (src[k + 1] << 4), "byte {k} of {n}");
            }
            assert!(out[n..].iter().all(|&x| x == 0xEE), "{n}: nothing after");
        }
        // The shortest of the three sets the length.
        let mut out = [0u8; 12];
        shift_down(&mut out, &src[..12], &src[1..10]);
        assert_eq!(out[8], (src[8] >> 4) | (src[9] << 4));
        assert_eq!(out[9..], [0, 0, 0]);
    }
}
