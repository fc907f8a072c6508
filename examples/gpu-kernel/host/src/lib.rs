//! The CPU side of the gpu-kernel example's loader: the input matrix, what
//! `rows_to_tiled` and `tiled_to_rows` must produce from it (computed with
//! the kernels' own `layout!` items), and the element-by-element
//! comparison. No CUDA here; the loader binary (`src/main.rs`, feature
//! `cuda`) runs the kernels and hands their output to [`first_mismatch`].
#![forbid(unsafe_code)]

#[path = "../../src/layouts.rs"]
mod layouts;
pub use layouts::{Rows, Tiled};

/// Elements of the matrix in either layout (the tiles divide the dims, so
/// neither layout pads).
pub const ELEMENTS: usize = Rows::ALLOCATED_ELEMENTS;
const _: () = assert!(Tiled::ALLOCATED_ELEMENTS == ELEMENTS);

/// Threads per block of a launch.
pub const BLOCK_THREADS: u32 = 256;

/// Blocks of a launch: enough for one thread per element.
pub const GRID_BLOCKS: u32 = {
    let blocks = ELEMENTS.div_ceil(BLOCK_THREADS as usize);
    assert!(blocks <= u32::MAX as usize);
    blocks as u32
};

/// The row-major input: element `k` of the buffer holds `k` (exact in
/// `f32`: `ELEMENTS` is far below 2^24), so a misplaced element shows where
/// it came from.
pub fn input() -> Vec<f32> {
    (0..ELEMENTS).map(|k| k as f32).collect()
}

/// Every logical index `[row, column]` of the matrix, in row-major order.
fn logical_indices() -> impl Iterator<Item = [usize; 2]> {
    let [rows, cols] = Rows::DIMS;
    (0..rows).flat_map(move |r| (0..cols).map(move |c| [r, c]))
}

/// `dst[to(i)] = src[from(i)]` for every logical index `i`: what one launch
/// of a kernel does. An error (never a panic) if an offset is out of range
/// or if `to` misses or repeats a slot of `dst`.
fn relayout(
    src: &[f32],
    from: fn([usize; 2]) -> usize,
    to: fn([usize; 2]) -> usize,
) -> Result<Vec<f32>, String> {
    if src.len() != ELEMENTS {
        return Err(format!("source has {} elements, not {ELEMENTS}", src.len()));
    }
    let mut dst = vec![0.0; ELEMENTS];
    let mut written = vec![false; ELEMENTS];
    for i in logical_indices() {
        let (s, d) = (from(i), to(i));
        let value = src
            .get(s)
            .ok_or_else(|| format!("source offset {s} of {i:?} is out of range"))?;
        let (slot, seen) = dst
            .get_mut(d)
            .zip(written.get_mut(d))
            .ok_or_else(|| format!("destination offset {d} of {i:?} is out of range"))?;
        if *seen {
            return Err(format!("destination offset {d} is written twice"));
        }
        *slot = *value;
        *seen = true;
    }
    match written.iter().position(|w| !w) {
        Some(d) => Err(format!("destination offset {d} is never written")),
        None => Ok(dst),
    }
}

/// What `rows_to_tiled` must write: `tiled[Tiled::offset(i)] =
/// rows[Rows::offset(i)]`.
pub fn rows_to_tiled(rows: &[f32]) -> Result<Vec<f32>, String> {
    relayout(rows, Rows::offset, Tiled::offset)
}

/// What `tiled_to_rows` must write: `rows[Rows::offset(i)] =
/// tiled[Tiled::offset(i)]`.
pub fn tiled_to_rows(tiled: &[f32]) -> Result<Vec<f32>, String> {
    relayout(tiled, Tiled::offset, Rows::offset)
}

/// The first element where two buffers differ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mismatch {
    /// Buffer offset of the element.
    pub offset: usize,
    /// The CPU's value (`None` past the end of the expected buffer).
    pub expected: Option<f32>,
    /// The GPU's value (`None` past the end of the actual buffer).
    pub actual: Option<f32>,
}

/// The first offset where `actual` differs from `expected` (bit for bit:
/// the kernels only move values), or where one buffer ends before the other.
pub fn first_mismatch(expected: &[f32], actual: &[f32]) -> Option<Mismatch> {
    let offset = expected
        .iter()
        .zip(actual)
        .position(|(e, a)| e.to_bits() != a.to_bits())
        .or_else(|| (expected.len() != actual.len()).then(|| expected.len().min(actual.len())))?;
    Some(Mismatch {
        offset,
        expected: expected.get(offset).copied(),
        actual: actual.get(offset).copied(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_covers_every_element() {
        let threads = GRID_BLOCKS as usize * BLOCK_THREADS as usize;
        assert!(threads >= ELEMENTS);
        assert!(threads - ELEMENTS < BLOCK_THREADS as usize);
    }

    #[test]
    fn tiles_hold_8x128_blocks() {
        let tiled = rows_to_tiled(&input()).unwrap();
        // The first tile is rows 0..8, columns 0..128, row by row.
        assert_eq!(tiled[0], 0.0);
        assert_eq!(tiled[127], 127.0);
        assert_eq!(tiled[128], 256.0);
        // The second tile starts at row 0, column 128.
        assert_eq!(tiled[1024], 128.0);
        assert_ne!(tiled, input());
    }

    #[test]
    fn round_trip_is_identity() {
        let rows = input();
        let back = tiled_to_rows(&rows_to_tiled(&rows).unwrap()).unwrap();
        assert_eq!(first_mismatch(&rows, &back), None);
    }

    #[test]
    fn wrong_length_is_an_error() {
        assert!(rows_to_tiled(&[0.0; 3]).is_err());
    }

    #[test]
    fn mismatch_reports_the_first_offset() {
        let rows = input();
        let mut other = rows.clone();
        other[70] = -1.0;
        other[90] = -1.0;
        let m = first_mismatch(&rows, &other).unwrap();
        assert_eq!(m.offset, 70);
        assert_eq!((m.expected, m.actual), (Some(70.0), Some(-1.0)));
        let m = first_mismatch(&rows, &rows[..10]).unwrap();
        assert_eq!((m.offset, m.expected, m.actual), (10, Some(10.0), None));
    }
}
