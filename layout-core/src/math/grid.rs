//! A 2-D slice of a layout drawn as a text grid of element offsets, in the
//! manner of CuTe's `print_layout`: [`LayoutGrid`] is a
//! [`Display`](core::fmt::Display) adapter, so the grid goes wherever
//! `core::fmt` goes (a `String`, stdout, a UART) without the heap.
//!
//! Padding slots of the drawn dims (the first tile level rounding a dim
//! up, legacy padding) are drawn as [`PADDING_MARK`]; tile boundaries as
//! lines: `|` and `-` between first-level tiles, `:` and `.` between
//! second-level tiles inside one.

use core::fmt;
use core::ops::Range;

use crate::base::error::{Error, ErrorKind, Span};
use crate::base::limits::{COMBINE_ENTRY, MAX_RANK};
use crate::model::array::ArrayShape;
use crate::model::index::PhysicalShape;
use crate::plan::Plan;

/// The mark drawn for a padding slot (a slot of the allocation that holds
/// no element), unless [`LayoutGrid::padding_mark`] sets another.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, LayoutGrid, PADDING_MARK};
/// let s = parse_array("f32[3]{0:T(4)}").unwrap();
/// let grid = LayoutGrid::new(&s, None, Some(0), &[0]).unwrap();
/// assert_eq!(grid.to_string(), "   0  1  2  3\n0  0  1  2  ·\n");
/// assert_eq!(PADDING_MARK, '·');
/// ```
pub const PADDING_MARK: char = '·';

/// One slot of a [`LayoutGrid`].
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, LayoutGrid};
/// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
/// let grid = LayoutGrid::new(&s, Some(0), Some(1), &[0, 0]).unwrap();
/// let cell = grid.cell(2, 3).unwrap();
/// assert_eq!((cell.offset, cell.padding, cell.tile), (Some(17), false, Some(4)));
/// // Row 3 is the padding of the second row of tiles: no element, a slot.
/// let pad = grid.cell(3, 0).unwrap();
/// assert_eq!((pad.offset, pad.padding), (Some(14), true));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GridCell {
    /// The row: the index along the rows dimension.
    pub row: u64,
    /// The column: the index along the columns dimension.
    pub col: u64,
    /// The element offset of the slot (`None` only for a padding slot past
    /// the allocation, which no valid layout has).
    pub offset: Option<u64>,
    /// A padding slot, not an element.
    pub padding: bool,
    /// The number of the slot's first-level tile, tiles numbered in memory
    /// order from 0; `None` when the layout is not tiled.
    pub tile: Option<u64>,
}

/// What separates two neighbouring slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Boundary {
    None,
    /// Different first-level tiles.
    Major,
    /// The same first-level tile, different second-level tiles.
    Minor,
}

/// A 2-D slice of an array's layout as a grid of element offsets: one
/// dimension down the rows, one across the columns, the others fixed.
/// Displaying it writes a header of column numbers, then one line per
/// row: the row number and the offsets, padding slots as
/// [`PADDING_MARK`], and on request tile boundaries as lines (see
/// [`tile_lines`](Self::tile_lines)).
/// Widths come from the largest number shown. No heap, no panics:
/// every size is checked when the grid is made, and a write error is
/// the writer's.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, LayoutGrid};
/// // Figure 1 of docs/tiling.md: 3x5 in 2x2 tiles, padded to 4x6.
/// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
/// let grid = LayoutGrid::new(&s, Some(0), Some(1), &[0, 0]).unwrap();
/// assert_eq!(
///     grid.to_string(),
///     "    0   1   2   3   4   5
/// 0   0   1   4   5   8   ·
/// 1   2   3   6   7  10   ·
/// 2  12  13  16  17  20   ·
/// 3   ·   ·   ·   ·   ·   ·
/// "
/// );
/// // With the tiles drawn:
/// assert_eq!(
///     grid.tile_lines(true).to_string(),
///     "     0    1    2    3    4    5
/// 0    0    1 |  4    5 |  8    ·
/// 1    2    3 |  6    7 | 10    ·
///  ------------------------------
/// 2   12   13 | 16   17 | 20    ·
/// 3    ·    · |  ·    · |  ·    ·
/// "
/// );
/// ```
///
/// Without `alloc`, into a fixed buffer (a kernel's debug output):
///
/// ```
/// # use layout_core as xla_layout;
/// use core::fmt::Write;
/// use xla_layout::{parse_array, LayoutGrid};
/// struct Buf { bytes: [u8; 64], len: usize }
/// impl Write for Buf {
///     fn write_str(&mut self, s: &str) -> core::fmt::Result {
///         let end = self.len.checked_add(s.len()).ok_or(core::fmt::Error)?;
///         self.bytes.get_mut(self.len..end).ok_or(core::fmt::Error)?.copy_from_slice(s.as_bytes());
///         self.len = end;
///         Ok(())
///     }
/// }
/// let s = parse_array("f32[2,3]{0,1}").unwrap(); // column-major
/// let mut buf = Buf { bytes: [0; 64], len: 0 };
/// write!(buf, "{}", LayoutGrid::new(&s, Some(0), Some(1), &[0, 0]).unwrap()).unwrap();
/// assert_eq!(&buf.bytes[..buf.len], b"   0  1  2\n0  0  2  4\n1  1  3  5\n");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayoutGrid {
    plan: Plan,
    rows: Option<usize>,
    cols: Option<usize>,
    /// The full index of the top-left slot (drawn dims at 0).
    at: [u64; MAX_RANK],
    /// Elements along the drawn dims.
    size: (u64, u64),
    /// Slots along the drawn dims, padding included.
    extent: (u64, u64),
    row_range: (u64, u64),
    col_range: (u64, u64),
    /// Inner (not `*`) entries of the first two tile levels.
    inner: [usize; 2],
    /// The grid of first-level tiles (physical, major to minor).
    tiles: PhysicalShape,
    mark: char,
    lines: bool,
}

/// Decimal digits of `n`.
const fn digits(mut n: u64) -> usize {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

/// Not-`*` entries of tile level `level` (0 when there is none).
fn inner_entries(shape: &ArrayShape, level: usize) -> usize {
    shape.layout().tile(level).map_or(0, |t| {
        t.raw().iter().filter(|&&v| v != COMBINE_ENTRY).count()
    })
}

/// The slots along dim `d` of layout size `n`: `n` rounded up to the
/// first tile level when that level tiles `d` by itself (not combined by
/// `*`); `n` otherwise, or when the rounding overflows.
fn padded_extent(shape: &ArrayShape, d: usize, n: u64) -> u64 {
    let layout = shape.layout();
    let Some(tile) = layout.tile(0) else {
        return n;
    };
    let Some(from_minor) = layout
        .minor_to_major()
        .iter()
        .position(|&m| usize::try_from(m) == Ok(d))
    else {
        return n;
    };
    let raw = tile.raw();
    let Some(j) = raw
        .len()
        .checked_sub(1)
        .and_then(|l| l.checked_sub(from_minor))
    else {
        return n;
    };
    let alone = raw[j] != COMBINE_ENTRY && (j == 0 || raw[j - 1] != COMBINE_ENTRY);
    match (alone, u64::try_from(raw[j])) {
        (true, Ok(t)) if t > 0 => n.div_ceil(t).checked_mul(t).unwrap_or(n),
        _ => n,
    }
}

impl LayoutGrid {
    /// The grid of `shape` with dimension `rows` down and `cols` across
    /// (`None`: a single row or column), the other dimensions fixed at
    /// their entries of `at`, a full index whose entries for `rows` and
    /// `cols` are ignored. The window is the whole slice, padding included.
    ///
    /// Errors: a `?` dimension ([`ErrorKind::UnboundedDimension`]), a
    /// dimension number past the rank
    /// ([`ErrorKind::DimensionNumberOutOfRange`]), the same dimension for
    /// both ([`ErrorKind::SameDimension`]), `at` of the wrong length
    /// ([`ErrorKind::IndexRank`]) or out of bounds
    /// ([`ErrorKind::IndexOutOfBounds`]).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, ErrorKind, LayoutGrid};
    /// let s = parse_array("f32[2,3,4]").unwrap();
    /// let grid = LayoutGrid::new(&s, Some(0), Some(2), &[0, 1, 0]).unwrap();
    /// assert_eq!(grid.cell(1, 3).unwrap().offset, Some(12 + 4 + 3));
    /// let err = |r, c, at: &[u64]| LayoutGrid::new(&s, r, c, at).unwrap_err().kind();
    /// assert_eq!(err(Some(3), Some(0), &[0, 0, 0]), ErrorKind::DimensionNumberOutOfRange);
    /// assert_eq!(err(Some(1), Some(1), &[0, 0, 0]), ErrorKind::SameDimension);
    /// assert_eq!(err(Some(0), Some(1), &[0, 0]), ErrorKind::IndexRank);
    /// assert_eq!(err(Some(0), Some(1), &[0, 0, 4]), ErrorKind::IndexOutOfBounds);
    /// ```
    pub fn new(
        shape: &ArrayShape,
        rows: Option<usize>,
        cols: Option<usize>,
        at: &[u64],
    ) -> Result<LayoutGrid, Error> {
        let plan = Plan::new(shape)?;
        let rank = plan.rank();
        for d in [rows, cols].into_iter().flatten() {
            if d >= rank {
                return Err(Error::wide(
                    ErrorKind::DimensionNumberOutOfRange,
                    Span::NONE,
                    [d as i128, rank as i128, 0],
                ));
            }
        }
        if let Some(d) = rows.filter(|_| rows == cols) {
            return Err(Error::wide(
                ErrorKind::SameDimension,
                Span::NONE,
                [d as i128, 0, 0],
            ));
        }
        if at.len() != rank {
            return Err(Error::wide(
                ErrorKind::IndexRank,
                Span::NONE,
                [at.len() as i128, rank as i128, 0],
            ));
        }
        let limits = plan.index_dims();
        let mut fixed = [0u64; MAX_RANK];
        for (d, (&i, &limit)) in at.iter().zip(limits).enumerate() {
            if Some(d) == rows || Some(d) == cols {
                continue;
            }
            if i >= limit {
                return Err(Error::wide(
                    ErrorKind::IndexOutOfBounds,
                    Span::NONE,
                    [d as i128, i.into(), limit.into()],
                ));
            }
            fixed[d] = i;
        }
        let layout_dims = plan.layout_dims();
        let size_of = |d: Option<usize>| d.map_or(1, |d| limits[d]);
        let extent_of = |d: Option<usize>| d.map_or(1, |d| padded_extent(shape, d, layout_dims[d]));
        let extent = (extent_of(rows), extent_of(cols));
        let inner = [inner_entries(shape, 0), inner_entries(shape, 1)];
        let tiles = if plan.tile_levels() > 0 {
            let after = shape.physical_shape(1)?;
            let s = after.as_slice();
            PhysicalShape::from_slice(&s[..s.len().saturating_sub(inner[0])])
        } else {
            PhysicalShape::from_slice(&[])
        };
        Ok(LayoutGrid {
            plan,
            rows,
            cols,
            at: fixed,
            size: (size_of(rows), size_of(cols)),
            extent,
            row_range: (0, extent.0),
            col_range: (0, extent.1),
            inner,
            tiles,
            mark: PADDING_MARK,
            lines: false,
        })
    }

    /// The same grid showing only rows `rows` and columns `cols` (each
    /// within [`extent`](Self::extent); an empty range draws nothing).
    /// A range past the extent, or running backwards, is an
    /// [`ErrorKind::IndexOutOfBounds`] error naming the dimension.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, ErrorKind, LayoutGrid};
    /// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// let grid = LayoutGrid::new(&s, Some(0), Some(1), &[0, 0]).unwrap();
    /// let corner = grid.window(2..3, 3..5).unwrap().tile_lines(true);
    /// assert_eq!(corner.to_string(), "     3    4\n2   17 | 20\n");
    /// assert_eq!(corner.rows(), 2..3);
    /// let err = grid.window(0..5, 0..1).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::IndexOutOfBounds);
    /// assert_eq!(err.to_string(), "index 4 is out of bounds for dimension 0 of size 4");
    /// ```
    pub fn window(self, rows: Range<u64>, cols: Range<u64>) -> Result<LayoutGrid, Error> {
        for (range, extent, dim) in [
            (&rows, self.extent.0, self.rows),
            (&cols, self.extent.1, self.cols),
        ] {
            let bad = if range.start > range.end {
                Some(range.start)
            } else if range.end > extent {
                Some(range.end - 1)
            } else {
                None
            };
            if let Some(i) = bad {
                return Err(Error::wide(
                    ErrorKind::IndexOutOfBounds,
                    Span::NONE,
                    [dim.unwrap_or(0) as i128, i.into(), extent.into()],
                ));
            }
        }
        Ok(LayoutGrid {
            row_range: (rows.start, rows.end),
            col_range: (cols.start, cols.end),
            ..self
        })
    }

    /// The same grid with `mark` for padding slots (`'.'` for a
    /// plain-ASCII console).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, LayoutGrid};
    /// let s = parse_array("f32[3]{0:T(4)}").unwrap();
    /// let grid = LayoutGrid::new(&s, None, Some(0), &[0]).unwrap().padding_mark('.');
    /// assert!(grid.to_string().ends_with("2  .\n"));
    /// ```
    pub fn padding_mark(self, mark: char) -> LayoutGrid {
        LayoutGrid { mark, ..self }
    }

    /// The same grid with or without tile lines (off by default): `|` between
    /// columns and a line of `-` between rows of different first-level
    /// tiles, `:` and a line of `.` between second-level tiles inside one
    /// (the `(2,1)` of `T(8,128)(2,1)`: pairs of rows stored together).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, LayoutGrid};
    /// let s = parse_array("f32[4,4]{1,0:T(4,2)(2,1)}").unwrap();
    /// let grid = LayoutGrid::new(&s, Some(0), Some(1), &[0, 0]).unwrap().tile_lines(true);
    /// assert_eq!(
    ///     grid.to_string(),
    ///     "     0    1    2    3
    /// 0    0 :  2 |  8 : 10
    /// 1    1 :  3 |  9 : 11
    ///  ....................
    /// 2    4 :  6 | 12 : 14
    /// 3    5 :  7 | 13 : 15
    /// "
    /// );
    /// assert_eq!(grid.tile_lines(false).to_string().lines().nth(1), Some("0   0   2   8  10"));
    /// ```
    pub fn tile_lines(self, on: bool) -> LayoutGrid {
        LayoutGrid { lines: on, ..self }
    }

    /// Slots along the rows and the columns dimension, padding included
    /// (1 for a `None` dimension).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, LayoutGrid};
    /// let s = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// let grid = LayoutGrid::new(&s, Some(2), Some(3), &[3, 0, 0, 0]).unwrap();
    /// assert_eq!(grid.extent(), (1280, 16384));
    /// let odd = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(LayoutGrid::new(&odd, Some(0), Some(1), &[0, 0]).unwrap().extent(), (4, 6));
    /// ```
    pub fn extent(&self) -> (u64, u64) {
        self.extent
    }

    /// Elements along the rows and the columns dimension; slots past them
    /// are padding.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, LayoutGrid};
    /// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(LayoutGrid::new(&s, Some(0), Some(1), &[0, 0]).unwrap().size(), (3, 5));
    /// ```
    pub fn size(&self) -> (u64, u64) {
        self.size
    }

    /// The rows shown.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, LayoutGrid};
    /// let s = parse_array("f32[3,5]").unwrap();
    /// let grid = LayoutGrid::new(&s, Some(0), Some(1), &[0, 0]).unwrap();
    /// assert_eq!(grid.rows(), 0..3);
    /// ```
    pub fn rows(&self) -> Range<u64> {
        self.row_range.0..self.row_range.1
    }

    /// The columns shown.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, LayoutGrid};
    /// let s = parse_array("f32[3,5]").unwrap();
    /// let grid = LayoutGrid::new(&s, Some(0), Some(1), &[0, 0]).unwrap();
    /// assert_eq!(grid.window(0..3, 1..4).unwrap().cols(), 1..4);
    /// ```
    pub fn cols(&self) -> Range<u64> {
        self.col_range.0..self.col_range.1
    }

    /// The number of tile levels the lines show: the layout's, at most 2.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, LayoutGrid};
    /// let s = parse_array("bf16[16,256]{1,0:T(8,128)(2,1)}").unwrap();
    /// assert_eq!(LayoutGrid::new(&s, Some(0), Some(1), &[0, 0]).unwrap().tile_levels(), 2);
    /// ```
    pub fn tile_levels(&self) -> usize {
        self.plan.tile_levels().min(2)
    }

    /// The full index of the slot at `row`, `col`.
    fn index(&self, row: u64, col: u64) -> [u64; MAX_RANK] {
        let mut index = self.at;
        if let Some(d) = self.rows {
            index[d] = row;
        }
        if let Some(d) = self.cols {
            index[d] = col;
        }
        index
    }

    /// The offset of any slot of the padded extent: the tile walk (which
    /// places padding slots too), linearised with checked arithmetic.
    fn slot_offset(&self, index: &[u64]) -> Option<u64> {
        let at = self.plan.physical_index(index, self.plan.tile_levels());
        let dims = self.plan.tiled_shape();
        if at.len() != dims.len() {
            return None;
        }
        let mut offset: u64 = 0;
        for (&i, &d) in at.as_slice().iter().zip(dims.as_slice()) {
            if i >= d {
                return None;
            }
            offset = offset.checked_mul(d)?.checked_add(i)?;
        }
        (offset < self.plan.allocated_elements()).then_some(offset)
    }

    /// The tile of `level` holding `index`: its coordinates in the grid
    /// of that level's tiles (the physical index after the level without
    /// the coordinates inside the tile).
    fn tile_key(&self, index: &[u64], level: usize) -> PhysicalShape {
        let at = self.plan.physical_index(index, level + 1);
        let s = at.as_slice();
        PhysicalShape::from_slice(&s[..s.len().saturating_sub(self.inner[level])])
    }

    fn boundary(&self, a: (u64, u64), b: (u64, u64)) -> Boundary {
        let rank = self.plan.rank();
        let (ia, ib) = (self.index(a.0, a.1), self.index(b.0, b.1));
        let (ia, ib) = (&ia[..rank], &ib[..rank]);
        for level in 0..self.tile_levels() {
            if self.tile_key(ia, level) != self.tile_key(ib, level) {
                return if level == 0 {
                    Boundary::Major
                } else {
                    Boundary::Minor
                };
            }
        }
        Boundary::None
    }

    /// The outermost tile level (0 or 1) whose tiles differ between the
    /// slots `a` and `b` (each `(row, col)`), or `None` when they share
    /// their tiles (or the layout is not tiled): where a tile line goes.
    /// A slot past [`extent`](Self::extent) is an
    /// [`ErrorKind::IndexOutOfBounds`] error.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, LayoutGrid};
    /// let s = parse_array("f32[4,8]{1,0:T(2,4)(2,1)}").unwrap();
    /// let grid = LayoutGrid::new(&s, Some(0), Some(1), &[0, 0]).unwrap();
    /// assert_eq!(grid.tile_change((0, 3), (0, 4)), Ok(Some(0))); // (2,4) tiles
    /// assert_eq!(grid.tile_change((0, 0), (0, 1)), Ok(Some(1))); // (2,1) tiles
    /// assert_eq!(grid.tile_change((0, 0), (1, 0)), Ok(None));
    /// assert!(grid.tile_change((0, 0), (4, 0)).is_err());
    /// ```
    pub fn tile_change(&self, a: (u64, u64), b: (u64, u64)) -> Result<Option<usize>, Error> {
        self.cell(a.0, a.1)?;
        self.cell(b.0, b.1)?;
        Ok(match self.boundary(a, b) {
            Boundary::None => None,
            Boundary::Major => Some(0),
            Boundary::Minor => Some(1),
        })
    }

    /// The slot at `row`, `col` (counted from the slice's top-left, not
    /// the window's). Past [`extent`](Self::extent) is an
    /// [`ErrorKind::IndexOutOfBounds`] error.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, ErrorKind, LayoutGrid, Plan};
    /// let s = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// let grid = LayoutGrid::new(&s, Some(2), Some(3), &[3, 0, 0, 0]).unwrap();
    /// let plan = Plan::new(&s).unwrap();
    /// assert_eq!(grid.cell(13, 300).unwrap().offset, plan.offset(&[3, 0, 13, 300]).ok());
    /// assert_eq!(grid.cell(1280, 0).unwrap_err().kind(), ErrorKind::IndexOutOfBounds);
    /// ```
    pub fn cell(&self, row: u64, col: u64) -> Result<GridCell, Error> {
        for (i, extent, dim) in [
            (row, self.extent.0, self.rows),
            (col, self.extent.1, self.cols),
        ] {
            if i >= extent {
                return Err(Error::wide(
                    ErrorKind::IndexOutOfBounds,
                    Span::NONE,
                    [dim.unwrap_or(0) as i128, i.into(), extent.into()],
                ));
            }
        }
        let rank = self.plan.rank();
        let full = self.index(row, col);
        let index = &full[..rank];
        let padding = row >= self.size.0 || col >= self.size.1;
        let offset = if padding {
            self.slot_offset(index)
        } else {
            self.plan.offset(index).ok()
        };
        let tile = (self.plan.tile_levels() > 0)
            .then(|| {
                let key = self.tile_key(index, 0);
                let mut n: u64 = 0;
                for (&g, &d) in key.as_slice().iter().zip(self.tiles.as_slice()) {
                    n = n.checked_mul(d)?.checked_add(g)?;
                }
                Some(n)
            })
            .flatten();
        Ok(GridCell {
            row,
            col,
            offset,
            padding,
            tile,
        })
    }

    /// Characters of the widest number in a column: the largest offset
    /// shown (padding slots show their mark), or the largest column
    /// number.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, LayoutGrid};
    /// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// let grid = LayoutGrid::new(&s, Some(0), Some(1), &[0, 0]).unwrap();
    /// assert_eq!(grid.cell_width(), 2); // 20
    /// assert_eq!(grid.window(0..2, 0..2).unwrap().cell_width(), 1); // 3
    /// ```
    pub fn cell_width(&self) -> usize {
        let mut widest = self.col_range.1.saturating_sub(1);
        for row in self.rows() {
            for col in self.cols() {
                if let Ok(GridCell {
                    padding: false,
                    offset: Some(o),
                    ..
                }) = self.cell(row, col)
                {
                    widest = widest.max(o);
                }
            }
        }
        digits(widest)
    }

    fn label_width(&self) -> usize {
        digits(self.row_range.1.saturating_sub(1))
    }

    /// The gap before each number: room for a tile line when drawn.
    fn gap(&self) -> usize {
        if self.lines && self.tile_levels() > 0 {
            3
        } else {
            2
        }
    }

    /// Characters of each line of the grid (without the newline).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, LayoutGrid};
    /// let s = parse_array("f32[2,3]{0,1}").unwrap();
    /// let grid = LayoutGrid::new(&s, Some(0), Some(1), &[0, 0]).unwrap();
    /// assert_eq!(grid.line_width(), "0  0  2  4".len());
    /// ```
    pub fn line_width(&self) -> usize {
        let per = self.gap().saturating_add(self.cell_width());
        let cols = usize::try_from(self.col_range.1.saturating_sub(self.col_range.0))
            .unwrap_or(usize::MAX);
        self.label_width().saturating_add(per.saturating_mul(cols))
    }

    /// How many of the window's columns fit in lines of `width`
    /// characters, at the widths of the whole window (so the count is
    /// safe to pass to [`window`](Self::window)); 0 when none does.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, LayoutGrid};
    /// let s = parse_array("f32[8,128]").unwrap();
    /// let grid = LayoutGrid::new(&s, Some(0), Some(1), &[0, 0]).unwrap();
    /// let fit = grid.columns_fitting(80);
    /// assert_eq!(fit, 13); // label 1 + 13 x (gap 2 + 4 digits of 1023) = 79
    /// assert!(grid.window(0..8, 0..fit).unwrap().line_width() <= 80);
    /// ```
    pub fn columns_fitting(&self, width: usize) -> u64 {
        let per = self.gap().saturating_add(self.cell_width()).max(1);
        let room = width.saturating_sub(self.label_width()) / per;
        let shown = self.col_range.1.saturating_sub(self.col_range.0);
        u64::try_from(room).map_or(shown, |r| r.min(shown))
    }

    /// Writes the grid to `w` with each number wrapped in the two strings
    /// `paint` returns for its slot (colours by tile, say; they take no
    /// room in the layout of the grid). [`Display`](fmt::Display) is this
    /// with empty strings.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, LayoutGrid};
    /// let s = parse_array("f32[2]{0:T(1)}").unwrap();
    /// let grid = LayoutGrid::new(&s, None, Some(0), &[0]).unwrap().tile_lines(true);
    /// let mut out = String::new();
    /// grid.write_styled(&mut out, |cell| if cell.tile == Some(1) { ("[", "]") } else { ("", "") })
    ///     .unwrap();
    /// assert_eq!(out, "    0   1\n0   0 | [1]\n");
    /// ```
    pub fn write_styled<'s, W, F>(&self, w: &mut W, mut paint: F) -> fmt::Result
    where
        W: fmt::Write + ?Sized,
        F: FnMut(&GridCell) -> (&'s str, &'s str),
    {
        if self.row_range.0 >= self.row_range.1 || self.col_range.0 >= self.col_range.1 {
            return Ok(());
        }
        let width = self.cell_width();
        let label = self.label_width();
        let pad = self.gap() - 1;
        write!(w, "{:label$}", "")?;
        for col in self.cols() {
            write!(w, "{:pad$} {col:>width$}", "")?;
        }
        w.write_char('\n')?;
        for row in self.rows() {
            if row > self.row_range.0 {
                self.write_row_line(w, row, label, width)?;
            }
            write!(w, "{row:>label$}")?;
            for col in self.cols() {
                let cell = self.cell(row, col).map_err(|_| fmt::Error)?;
                let line = if self.lines && col > self.col_range.0 {
                    self.boundary((row, col - 1), (row, col))
                } else {
                    Boundary::None
                };
                let sep = match line {
                    Boundary::None => ' ',
                    Boundary::Major => '|',
                    Boundary::Minor => ':',
                };
                if pad == 2 {
                    write!(w, " {sep} ")?;
                } else {
                    w.write_str("  ")?;
                }
                let (before, after) = paint(&cell);
                w.write_str(before)?;
                match (cell.padding, cell.offset) {
                    (false, Some(o)) => write!(w, "{o:>width$}")?,
                    _ => write!(w, "{:>width$}", self.mark)?,
                }
                w.write_str(after)?;
            }
            w.write_char('\n')?;
        }
        Ok(())
    }

    /// The line between rows `row - 1` and `row`, if tiles end there:
    /// `-` under the columns where first-level tiles change, `.` where
    /// second-level ones do (no trailing blanks).
    fn write_row_line<W: fmt::Write + ?Sized>(
        &self,
        w: &mut W,
        row: u64,
        label: usize,
        width: usize,
    ) -> fmt::Result {
        if !self.lines || self.tile_levels() == 0 {
            return Ok(());
        }
        let line = |col| self.boundary((row - 1, col), (row, col));
        let Some(last) = self.cols().rev().find(|&c| line(c) != Boundary::None) else {
            return Ok(());
        };
        write!(w, "{:label$}", "")?;
        let per = self.gap() + width;
        for col in self.col_range.0..=last {
            let fill = match line(col) {
                Boundary::None => ' ',
                Boundary::Major => '-',
                Boundary::Minor => '.',
            };
            for _ in 0..per {
                w.write_char(fill)?;
            }
        }
        w.write_char('\n')
    }
}

impl fmt::Display for LayoutGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_styled(f, |_| ("", ""))
    }
}

#[cfg(test)]
mod tests;
