//! The nibble transposes (`RelayoutKernel::NibbleTranspose`): `E(4)`
//! boxes that transpose a destination run against a source run, both on
//! whole bytes. Tiles of source rows are copied out, then transposed two
//! nibbles of two rows into a byte of each of two destination rows, with
//! `simd` a whole tile at a time.

use super::modes::{Mode, Nest};
use super::simd;
use super::subbyte;
use super::tuning::{NIBBLE_ROWS, NIBBLE_RUN, NIBBLE_TILE_ROWS, TILE_BYTES, TILE_ROWS};

/// A transposed block of nibbles: `rows` source rows, each `cols`
/// nibbles long, into `cols` destination rows `col` bytes apart (all
/// counts even). The rows come in groups of `group`, `row` bytes apart
/// within a group and `far` bytes from one group to the next: a
/// destination run of a `(2,1)` or `(4,1)` sub-tile's rows continued by
/// the sub-tiles after it is one destination row (of one group where
/// nothing continues it).
pub(crate) struct NibbleBlock {
    rows: usize,
    group: usize,
    row: usize,
    far: usize,
    cols: usize,
    col: usize,
}

impl NibbleBlock {
    /// The block of box `n` (of nibbles, offsets in nibbles) and its other
    /// loops, in bytes from offset 0: where the box is a transpose of a
    /// destination run (`m0`, [`Nest::transposed`]) and a source run
    /// (`m1`) on whole bytes, with source runs of at least [`NIBBLE_RUN`]
    /// nibbles (shorter ones, as a `(2,1)` pair split between two planes,
    /// make tiles one byte wide; the packed blocks take them). A
    /// destination run shorter than a tile's rows takes the loop that
    /// continues it in the destination as its groups. Destination runs
    /// shorter than [`NIBBLE_ROWS`] (a `(2,1)` pair's) are taken only
    /// where their groups make more than a tile's rows.
    pub(crate) fn of(n: &Nest) -> Option<(NibbleBlock, Nest)> {
        let (m0, m1, mut loops, mut len) = n.transposed()?;
        let others = &loops[..len];
        let even = |x: u64| x.is_multiple_of(2);
        let bytes = |m: &Mode| even(m.src) && even(m.dst);
        let fits = m0.dst == 1
            && even(m0.range)
            && even(m0.src)
            && even(m1.range)
            && even(m1.dst)
            && m1.range >= NIBBLE_RUN
            && others.iter().all(bytes);
        if !fits {
            return None;
        }
        let join = others
            .iter()
            .position(|m| m.dst == m0.range)
            .filter(|_| m0.range < TILE_ROWS as u64);
        let (groups, far) = join.map_or((1, 0), |k| (others[k].range, others[k].src));
        let rows = m0.range.checked_mul(groups)?;
        // Runs of a `(2,1)` pair, only where their groups fill more than
        // a tile's rows.
        if m0.range < NIBBLE_ROWS && rows <= TILE_ROWS as u64 {
            return None;
        }
        if let Some(k) = join {
            loops.copy_within(k + 1..len, k);
            len -= 1;
        }
        let b = NibbleBlock {
            rows: usize::try_from(rows).ok()?,
            group: (m0.range as usize).max(1),
            row: (m0.src / 2) as usize,
            far: (far / 2) as usize,
            cols: m1.range as usize,
            col: (m1.dst / 2) as usize,
        };
        Some((b, Nest::scaled(&loops[..len], 2, 2, 0, 0)))
    }

    /// The block's sides: its rows (the nibbles of a destination run) by
    /// its columns (of a source run).
    pub(crate) fn shape(&self) -> (u64, u64) {
        (self.rows as u64, self.cols as u64)
    }

    /// Whether the block has the rows the shuffles transpose at once
    /// (`simd::transpose_nibbles` takes 32); with fewer, every byte goes
    /// pair by pair.
    pub(crate) fn shuffled(&self) -> bool {
        self.rows >= 32
    }

    /// The first byte of source row `p`, from the block's.
    #[inline(always)]
    fn row_at(&self, p: usize) -> usize {
        (p % self.group) * self.row + (p / self.group) * self.far
    }

    /// Tiles of [`NIBBLE_TILE_ROWS`] source rows and [`TILE_BYTES`]
    /// bytes of each: 128 rows make a whole line of each destination row
    /// (64 bytes), written in one visit. The tiles go down a panel of 8
    /// tiles' rows first, then across the rows, then to the next panel:
    /// down the rows all the way, a source line that two tiles share (a
    /// row's 64 bytes seldom start a line) was read again only after
    /// every other row, from memory; across first, the destination lines
    /// that two tiles share (where the rows' parts do not start a line)
    /// were (a 184-row transpose wrote each destination line in three
    /// visits, 1.6x slower). The tile is copied out first (rows a power
    /// of two apart would evict each other from the L1 while their
    /// columns are gathered), then each destination row gets one run per
    /// tile (through `simd::transpose_nibbles`, 32 rows at a time, where
    /// it applies). While a tile is copied, the next one's destination
    /// lines are asked for, and its source rows where they are far apart,
    /// one of each as each row is copied. Out of line: the tile (8 KiB)
    /// is on the stack only for these copies.
    #[inline(never)]
    pub(crate) fn copy(&self, src: &[u8], s: usize, dst: &mut [u8], d: usize) {
        const ROWS: usize = NIBBLE_TILE_ROWS;
        const PANEL: usize = 8 * ROWS;
        let bytes = self.cols / 2;
        // One tile for all: only its first `pn` rows, and `bn` bytes of
        // each, are read, all written first.
        let mut tile = [[0u8; TILE_BYTES]; ROWS];
        for r0 in (0..self.rows).step_by(PANEL) {
            let re = (r0 + PANEL).min(self.rows);
            for b0 in (0..bytes).step_by(TILE_BYTES) {
                let bn = TILE_BYTES.min(bytes - b0);
                for p0 in (r0..re).step_by(ROWS) {
                    let pn = ROWS.min(self.rows - p0);
                    // The next tile's destination lines, asked for (for
                    // writing) before this one is copied: as in the squares,
                    // reading them for ownership as they are written held
                    // these copies back.
                    let (np, nb) = if p0 + ROWS < re {
                        (p0 + ROWS, b0)
                    } else if b0 + TILE_BYTES < bytes {
                        (r0, b0 + TILE_BYTES)
                    } else {
                        (re, 0)
                    };
                    // A tile's part of a destination row: at most `ROWS / 2` =
                    // 64 bytes, its lines asked for (`subbyte::ask_ends`:
                    // the first, and the last where it ends in another).
                    // And the next tile's source rows (both lines a row of
                    // it may touch), where they are a line or more apart
                    // and a whole tile wide: the hardware's prefetchers do
                    // not follow rows that far apart, and nearer or
                    // narrower rows share their lines. One of each for each
                    // row copied (`2 * TILE_BYTES` = `ROWS` destination
                    // rows), so that the requests go out among the copies,
                    // not all at once.
                    let ahead = nb < bytes && np < self.rows;
                    let (q_end, part) = if ahead {
                        (
                            (2 * (nb + TILE_BYTES)).min(self.cols) - 2 * nb,
                            ROWS.min(self.rows - np).div_ceil(2),
                        )
                    } else {
                        (0, 0)
                    };
                    let p_end = if ahead && bytes - nb >= TILE_BYTES && self.row >= TILE_BYTES {
                        ROWS.min(self.rows - np)
                    } else {
                        0
                    };
                    let ask = |i: usize| {
                        if i < q_end {
                            let at = d + (2 * nb + i) * self.col + np / 2;
                            subbyte::ask_ends::<8>(dst, at, part);
                        }
                        if i < p_end {
                            let at = s + self.row_at(np + i) + nb;
                            simd::prefetch(src, at);
                            simd::prefetch(src, at + TILE_BYTES - 1);
                        }
                    };
                    if bn == TILE_BYTES {
                        // Whole rows: copies of a known size, without a call
                        // (a loop of its own; with the length tested in the
                        // loop, measured no faster), as the packed blocks'
                        // nibble tiles copy theirs (at whole bytes here).
                        for (i, t) in tile[..pn].iter_mut().enumerate() {
                            let at = s + self.row_at(p0 + i) + b0;
                            if !subbyte::whole_row(src, 2 * at, t) {
                                t.copy_from_slice(&src[at..at + TILE_BYTES]);
                            }
                            ask(i);
                        }
                    } else {
                        for (i, t) in tile[..pn].iter_mut().enumerate() {
                            let at = s + self.row_at(p0 + i) + b0;
                            t[..bn].copy_from_slice(&src[at..at + bn]);
                            ask(i);
                        }
                    }
                    for i in pn..ROWS {
                        ask(i);
                    }
                    // Each 32 rows of whole tiles through the shuffles; the
                    // rows after them one pair at a time.
                    let mut from = 0;
                    let whole = 32 * (pn / 32);
                    if whole > 0 && bn == TILE_BYTES {
                        // The tile's first destination byte, and whether its
                        // last row ends inside `dst`.
                        let to = d + 2 * b0 * self.col + p0 / 2;
                        let fits = (2 * TILE_BYTES - 1)
                            .checked_mul(self.col)
                            .and_then(|x| x.checked_add(to + whole / 2))
                            .is_some_and(|last| last <= dst.len());
                        if fits && simd::transpose_nibbles(&tile[..whole], dst, to, self.col) {
                            from = whole;
                        }
                    }
                    if from == pn {
                        continue;
                    }
                    for j in 0..bn {
                        let q = 2 * (b0 + j);
                        let at = p0 / 2 + from / 2;
                        let (o0, o1) = (d + q * self.col + at, d + (q + 1) * self.col + at);
                        for (k, pair) in tile[from..pn].chunks_exact(2).enumerate() {
                            let (a, b) = (pair[0][j], pair[1][j]);
                            dst[o0 + k] = (a & 0x0F) | (b << 4);
                            dst[o1 + k] = (a >> 4) | (b & 0xF0);
                        }
                    }
                }
            }
        }
    }
}
