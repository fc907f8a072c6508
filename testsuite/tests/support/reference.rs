//! Independent reference model of XLA tiled layouts, for tests only.
//!
//! This deliberately does *not* use the index-arithmetic formula of
//! docs/tiling.md. Instead it implements the document's
//! "equivalent view" literally, on materialised arrays:
//!
//! 1. a dense row-major array whose cells hold each element's logical
//!    row-major id;
//! 2. transpose it into physical order (major to minor is
//!    `minor_to_major` reversed);
//! 3. for each tile level, in sequence:
//!    * prepend size-1 dims if the tile has more entries than the array has
//!      dims,
//!    * merge every `*` dim into the next more-minor dim (chains allowed) and
//!      drop the `*` entries from the tile,
//!    * pad every tiled dim up to a multiple of its tile size (new cells hold
//!      a padding marker),
//!    * reshape each tiled dim `d` into `(d / t, t)` and transpose all the `t`
//!      parts to the minor end, keeping their order (the data really moves);
//! 4. the position of a cell in the final flat storage is the offset of the
//!    element whose id it holds; the allocation is the total cell count
//!    rounded up to a multiple of the tail padding `L(n)`.
//!
//! No dependency on any project crate.

#![allow(dead_code)]

/// A tile entry: `Some(n)` is a size, `None` is the combine marker `*`.
pub type TileEntry = Option<usize>;

/// Result of the reference model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefLayout {
    /// `offsets[i]` is the element offset of the logical element whose
    /// row-major (last dimension fastest) linear id is `i`.
    pub offsets: Vec<usize>,
    /// Allocated element count, including tile padding and tail padding.
    pub allocated: usize,
}

/// Cell content of padding.
const PAD: usize = usize::MAX;

/// A materialised dense row-major array of element ids.
#[derive(Debug, Clone)]
struct Grid {
    shape: Vec<usize>,
    cells: Vec<usize>,
}

fn product(shape: &[usize]) -> usize {
    shape.iter().product()
}

fn row_major_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for axis in (0..shape.len().saturating_sub(1)).rev() {
        strides[axis] = strides[axis + 1] * shape[axis + 1];
    }
    strides
}

/// Visits every index of `shape` in row-major order and calls `f` with
/// `(visit number, Σ index[j] * strides[j])`.
fn walk(shape: &[usize], strides: &[usize], mut f: impl FnMut(usize, usize)) {
    let total = product(shape);
    if total == 0 {
        return;
    }
    let mut index = vec![0usize; shape.len()];
    let mut pos = 0usize;
    for visit in 0..total {
        f(visit, pos);
        // Odometer increment, last axis fastest.
        for axis in (0..shape.len()).rev() {
            index[axis] += 1;
            pos += strides[axis];
            if index[axis] < shape[axis] {
                break;
            }
            pos -= strides[axis] * shape[axis];
            index[axis] = 0;
        }
    }
}

fn assert_permutation(perm: &[usize], what: &str) {
    let mut seen = vec![false; perm.len()];
    for &p in perm {
        assert!(
            p < perm.len() && !seen[p],
            "{what} {perm:?} is not a permutation"
        );
        seen[p] = true;
    }
}

impl Grid {
    /// Dense array of shape `dims` whose cells hold their own row-major id.
    fn logical_ids(dims: &[usize]) -> Grid {
        let total = product(dims);
        Grid {
            shape: dims.to_vec(),
            cells: (0..total).collect(),
        }
    }

    fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Reinterprets the row-major data with a new shape (a bitcast).
    fn reshape(&mut self, shape: Vec<usize>) {
        assert_eq!(
            product(&shape),
            self.cells.len(),
            "reshape {:?} -> {shape:?} changes the cell count",
            self.shape
        );
        self.shape = shape;
    }

    /// Output axis `j` is input axis `perm[j]`; the data is moved.
    fn transpose(&self, perm: &[usize]) -> Grid {
        assert_eq!(perm.len(), self.rank());
        assert_permutation(perm, "transpose");
        let in_strides = row_major_strides(&self.shape);
        let shape: Vec<usize> = perm.iter().map(|&a| self.shape[a]).collect();
        let strides: Vec<usize> = perm.iter().map(|&a| in_strides[a]).collect();
        let mut cells = Vec::with_capacity(self.cells.len());
        walk(&shape, &strides, |_, pos| cells.push(self.cells[pos]));
        Grid { shape, cells }
    }

    /// Grows every dim to `shape` (each at least as large), keeping the
    /// data at the low end of every dim and filling the rest with `PAD`.
    fn pad_to(self, shape: &[usize]) -> Grid {
        assert_eq!(shape.len(), self.rank());
        if shape == self.shape.as_slice() {
            return self;
        }
        for (&new, &old) in shape.iter().zip(&self.shape) {
            assert!(new >= old, "cannot pad {:?} to {shape:?}", self.shape);
        }
        let out_strides = row_major_strides(shape);
        let mut cells = vec![PAD; product(shape)];
        walk(&self.shape, &out_strides, |visit, pos| {
            cells[pos] = self.cells[visit]
        });
        Grid {
            shape: shape.to_vec(),
            cells,
        }
    }

    /// Applies one tile level (see the module documentation).
    fn tile(mut self, tile: &[TileEntry]) -> Grid {
        let k = tile.len();

        // Tiles longer than the shape: prepend size-1 dims.
        if k > self.rank() {
            let mut shape = vec![1; k - self.rank()];
            shape.extend_from_slice(&self.shape);
            self.reshape(shape);
        }
        let prefix = self.rank() - k;

        // Combine `*` dims into the next more-minor dim (a bitcast in
        // row-major order); the `*` entries disappear from the tile.
        assert!(
            !matches!(tile.last(), Some(None)),
            "`*` as the last tile entry has nothing more-minor to combine with"
        );
        let mut shape = self.shape[..prefix].to_vec();
        let mut sizes = Vec::with_capacity(k);
        let mut pending = 1usize;
        for (entry, &d) in tile.iter().zip(&self.shape[prefix..]) {
            pending *= d;
            if let Some(t) = *entry {
                assert!(t > 0, "tile sizes must be positive");
                shape.push(pending);
                sizes.push(t);
                pending = 1;
            }
        }
        self.reshape(shape);

        // Pad the tiled dims up to multiples of the tile.
        let m = sizes.len();
        let prefix = self.rank() - m;
        let mut padded = self.shape.clone();
        for (d, &t) in padded[prefix..].iter_mut().zip(&sizes) {
            *d = d.div_ceil(t) * t;
        }
        let mut grid = self.pad_to(&padded);

        // Reshape each tiled dim d into (d / t, t) ...
        let mut split = padded[..prefix].to_vec();
        for (&d, &t) in padded[prefix..].iter().zip(&sizes) {
            split.push(d / t);
            split.push(t);
        }
        grid.reshape(split);

        // ... and move all the t parts to the minor end, keeping their order.
        let perm: Vec<usize> = (0..prefix)
            .chain((0..m).map(|i| prefix + 2 * i))
            .chain((0..m).map(|i| prefix + 2 * i + 1))
            .collect();
        grid.transpose(&perm)
    }

    /// Reads the offsets off the final flat storage order.
    fn finish(self, logical_count: usize, tail: usize) -> RefLayout {
        assert!(tail >= 1, "tail padding L(n) needs n >= 1");
        let mut offsets = vec![PAD; logical_count];
        for (pos, &id) in self.cells.iter().enumerate() {
            if id != PAD {
                assert_eq!(offsets[id], PAD, "element {id} stored twice");
                offsets[id] = pos;
            }
        }
        assert!(
            offsets.iter().all(|&o| o != PAD),
            "some element was lost by the model"
        );
        let allocated = self.cells.len().div_ceil(tail) * tail;
        RefLayout { offsets, allocated }
    }
}

/// Physical (major to minor) axis order: `minor_to_major` reversed.
fn physical_perm(rank: usize, minor_to_major: &[usize]) -> Vec<usize> {
    assert_eq!(
        minor_to_major.len(),
        rank,
        "minor_to_major needs rank entries"
    );
    assert_permutation(minor_to_major, "minor_to_major");
    minor_to_major.iter().rev().copied().collect()
}

/// Reference offsets of a (possibly tiled) dense array.
///
/// `dims`: logical dims (dimension 0 first); `minor_to_major`: permutation of
/// `0..rank`; `tiles`: tile levels in order, each major->minor entries;
/// `tail`: `L(n)` (1 = none).
/// `offsets[i]` = offset of the logical element whose row-major (last dim
/// fastest) linear id is `i`.
pub fn reference_layout(
    dims: &[usize],
    minor_to_major: &[usize],
    tiles: &[Vec<TileEntry>],
    tail: usize,
) -> RefLayout {
    let perm = physical_perm(dims.len(), minor_to_major);
    let mut grid = Grid::logical_ids(dims).transpose(&perm);
    for tile in tiles {
        grid = grid.tile(tile);
    }
    grid.finish(product(dims), tail)
}

/// Reference offsets for the legacy `padded_dimensions` model
/// (docs/tiling.md): the array is stored as if its dims were `padded`,
/// in the same `minor_to_major` order.
pub fn reference_padded(dims: &[usize], padded: &[usize], minor_to_major: &[usize]) -> RefLayout {
    assert_eq!(padded.len(), dims.len(), "padded needs rank entries");
    let perm = physical_perm(dims.len(), minor_to_major);
    Grid::logical_ids(dims)
        .pad_to(padded)
        .transpose(&perm)
        .finish(product(dims), 1)
}
