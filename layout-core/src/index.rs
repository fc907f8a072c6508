//! Index math (XLA-SHAPES.md sections 3 and 5): the physical shape after each
//! tile level, element offsets for every layout (all tile levels, `*`
//! combining, tiles longer than the rank, `L(n)`, legacy padding), the
//! inverse, sizes and strides. No heap: fixed-size working buffers.

use crate::error::{Error, ErrorKind, Span};
use crate::parse::tri;
use crate::plan::{physical_sizes, tile_sizes, Plan};
use crate::shape::{ArrayShape, Dim};
use crate::{MAX_RANK, MAX_TILE_ENTRIES};

/// Longest physical shape any tile sequence can produce: the rank plus, per
/// tile entry, one grid and one within-tile dimension, plus dims prepended
/// for tiles longer than the shape.
pub const MAX_PHYSICAL_RANK: usize = MAX_RANK + 2 * MAX_TILE_ENTRIES;

/// A multi-index: up to [`MAX_RANK`] coordinates, dimension 0 first.
///
/// ```
/// use layout_core::{parse_array, Index};
/// let s = parse_array("f32[10,20]{0,1}").unwrap();
/// let i: Index = s.index_of(53).unwrap();
/// assert_eq!(i.as_slice(), &[3, 5]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Index {
    pub(crate) coords: [u64; MAX_RANK],
    pub(crate) len: u8,
}

impl Index {
    /// The all-zeros index of the given rank (clamped to [`MAX_RANK`]).
    pub const fn zeros(rank: usize) -> Index {
        Index {
            coords: [0; MAX_RANK],
            len: if rank > MAX_RANK {
                MAX_RANK as u8
            } else {
                rank as u8
            },
        }
    }

    /// The coordinates.
    pub const fn as_slice(&self) -> &[u64] {
        self.coords.split_at(self.len as usize).0
    }

    /// The coordinates, mutably.
    pub fn as_mut_slice(&mut self) -> &mut [u64] {
        &mut self.coords[..self.len as usize]
    }
}

/// A physical shape: sizes major to minor, as produced by a tile level.
///
/// ```
/// use layout_core::parse_array;
/// let s = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}").unwrap();
/// assert_eq!(s.physical_shape(0).unwrap().as_slice(), &[1, 8, 1280, 16384]);
/// assert_eq!(s.physical_shape(1).unwrap().as_slice(), &[1, 8, 160, 128, 8, 128]);
/// assert_eq!(s.physical_shape(2).unwrap().as_slice(), &[1, 8, 160, 128, 4, 128, 2, 1]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PhysicalShape {
    dims: [u64; MAX_PHYSICAL_RANK],
    len: u8,
}

impl PhysicalShape {
    /// A physical shape from sizes (at most [`MAX_PHYSICAL_RANK`] are kept).
    pub const fn from_slice(sizes: &[u64]) -> PhysicalShape {
        let mut out = PhysicalShape {
            dims: [0; MAX_PHYSICAL_RANK],
            len: 0,
        };
        while (out.len as usize) < sizes.len() && (out.len as usize) < MAX_PHYSICAL_RANK {
            out.dims[out.len as usize] = sizes[out.len as usize];
            out.len += 1;
        }
        out
    }

    /// Sizes, major to minor.
    pub const fn as_slice(&self) -> &[u64] {
        self.dims.split_at(self.len as usize).0
    }

    /// Number of dimensions.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// `true` for the physical shape of a scalar before tiling.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Product of the sizes (checked).
    pub const fn product(&self) -> Option<u64> {
        let mut p: u64 = 1;
        let mut i = 0;
        while i < self.len as usize {
            p = match p.checked_mul(self.dims[i]) {
                Some(v) => v,
                None => return None,
            };
            i += 1;
        }
        Some(p)
    }

    /// Row-major strides (in elements) of this shape.
    pub const fn strides(&self) -> PhysicalShape {
        let mut out = PhysicalShape {
            dims: [0; MAX_PHYSICAL_RANK],
            len: self.len,
        };
        let mut acc: u64 = 1;
        let mut i = self.len as usize;
        while i > 0 {
            i -= 1;
            out.dims[i] = acc;
            acc = acc.saturating_mul(self.dims[i]);
        }
        out
    }
}

const fn overflow() -> Error {
    Error::new(ErrorKind::AllocationOverflow, Span::NONE, [0; 3])
}

/// The size each logical dimension is laid out at: static size, bound, or
/// legacy padded size. `?` is an error.
pub(crate) const fn layout_dims(s: &ArrayShape) -> Result<[u64; MAX_RANK], Error> {
    let mut out = [0u64; MAX_RANK];
    let mut i = 0;
    while i < s.rank as usize {
        out[i] = match s.dims[i] {
            Dim::Static(n) | Dim::Bounded(n) => n,
            Dim::Unbounded => {
                return Err(Error::new(
                    ErrorKind::UnboundedDimension,
                    s.source.dim(i),
                    [i as i64, 0, 0],
                ))
            }
        };
        if let Some(p) = &s.padding {
            out[i] = p.padded[i];
        }
        i += 1;
    }
    Ok(out)
}

const fn check_index(s: &ArrayShape, index: &[u64]) -> Result<(), Error> {
    let n = s.rank as usize;
    if index.len() != n {
        return Err(Error::new(
            ErrorKind::IndexRank,
            Span::NONE,
            [index.len() as i64, n as i64, 0],
        ));
    }
    let dims = tri!(layout_dims(s));
    let mut i = 0;
    while i < n {
        // Legacy padding slots are not addressable: bound by the real size.
        let limit = match s.dims[i].layout_size() {
            Some(v) => v,
            None => dims[i],
        };
        if index[i] >= limit {
            return Err(Error::new(
                ErrorKind::IndexOutOfBounds,
                Span::NONE,
                [i as i64, index[i] as i64, limit as i64],
            ));
        }
        i += 1;
    }
    Ok(())
}

impl ArrayShape {
    /// The physical shape after the first `levels` tile levels (0 = the
    /// permuted dims before tiling). `levels` past the tile count is clamped.
    pub const fn physical_shape(&self, levels: usize) -> Result<PhysicalShape, Error> {
        let levels = if levels > self.layout.tile_count as usize {
            self.layout.tile_count as usize
        } else {
            levels
        };
        let mut w = tri!(physical_sizes(self));
        let mut covered = [0u64; MAX_TILE_ENTRIES];
        let mut level = 0;
        while level < levels {
            let first = self.layout.tile_entry_index(level, 0);
            let end = self.layout.tile_ends[level] as usize;
            let tile = self.layout.tile_entries.split_at(end).0.split_at(first).1;
            tile_sizes(&mut w, tile, &mut covered, first);
            level += 1;
        }
        Ok(PhysicalShape::from_slice(w.d.split_at(w.len).0))
    }

    /// The final physical shape (after every tile level).
    pub const fn tiled_shape(&self) -> Result<PhysicalShape, Error> {
        self.physical_shape(self.layout.tile_count as usize)
    }

    /// `ShapeUtil::ElementsIn`: the number of logical elements (bounded dims
    /// at their bound; 1 for scalars). `?` dims are an error.
    ///
    /// ```
    /// use layout_core::parse_array;
    /// assert_eq!(parse_array("s32[3,0,5]").unwrap().element_count(), Ok(0));
    /// assert_eq!(parse_array("s32[<=3,5]").unwrap().element_count(), Ok(15));
    /// ```
    pub const fn element_count(&self) -> Result<u64, Error> {
        let mut p: u64 = 1;
        let mut i = 0;
        while i < self.rank as usize {
            let n = match self.dims[i] {
                Dim::Static(n) | Dim::Bounded(n) => n,
                Dim::Unbounded => {
                    return Err(Error::new(
                        ErrorKind::UnboundedDimension,
                        self.source.dim(i),
                        [i as i64, 0, 0],
                    ))
                }
            };
            p = match p.checked_mul(n) {
                Some(v) => v,
                None => {
                    return Err(Error::new(
                        ErrorKind::ElementCountOverflow,
                        self.source.dim(i),
                        [i as i64, n as i64, 0],
                    ))
                }
            };
            i += 1;
        }
        Ok(p)
    }

    /// Element slots in the allocation: the tiled shape's size (every tile
    /// level's padding, legacy padding) rounded up to a multiple of `L(n)`.
    ///
    /// ```
    /// use layout_core::parse_array;
    /// assert_eq!(parse_array("f32[3,5]{1,0:T(2,2)L(10)}").unwrap().allocated_elements(), Ok(30));
    /// assert_eq!(parse_array("s32[]{:T(128)}").unwrap().allocated_elements(), Ok(128));
    /// assert_eq!(parse_array("f32[3,5]{1,0:L(7)}").unwrap().allocated_elements(), Ok(21));
    /// ```
    pub const fn allocated_elements(&self) -> Result<u64, Error> {
        match Plan::new(self) {
            Ok(p) => Ok(p.allocated_elements()),
            Err(e) => Err(e),
        }
    }

    /// Bits per stored element: `E(n)` when set, else the byte width x 8.
    pub const fn element_size_in_bits(&self) -> u64 {
        let e = self.layout.element_size_bits;
        if e > 0 {
            e as u64
        } else {
            self.element_type.byte_width() as u64 * 8
        }
    }

    /// Bytes of the allocation: allocated elements x element bytes, or
    /// `ceil(allocated x E / 8)` with `E(n)` packing.
    ///
    /// ```
    /// use layout_core::parse_array;
    /// let s = parse_array("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}").unwrap();
    /// assert_eq!(s.size_in_bytes(), Ok(28_311_552));
    /// assert_eq!(parse_array("s4[64,128]").unwrap().size_in_bytes(), Ok(8192));
    /// ```
    pub const fn size_in_bytes(&self) -> Result<u64, Error> {
        size_in_bytes(self)
    }

    /// `ShapeUtil::ByteSizeOf` for arrays: logical elements x element bytes
    /// (or packed bits), ignoring tiles and `L`.
    pub const fn unpadded_size_in_bytes(&self) -> Result<u64, Error> {
        let n = tri!(self.element_count());
        bytes_for(
            n,
            self.element_size_in_bits(),
            self.layout.element_size_bits > 0,
        )
    }

    /// The element offset (in element slots, from the start of the buffer)
    /// of a logical index, for every layout.
    ///
    /// ```
    /// use layout_core::parse_array;
    /// let s = parse_array("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}").unwrap();
    /// assert_eq!(s.offset(&[0, 0, 1, 0, 0]), Ok(3));
    /// assert_eq!(s.offset(&[1, 6, 7, 10, 9]), Ok(12430));
    /// ```
    pub const fn offset(&self, index: &[u64]) -> Result<u64, Error> {
        let plan = tri!(Plan::new(self));
        plan.offset(index)
    }

    /// The bit offset of an element: offset x [`ArrayShape::element_size_in_bits`]
    /// (packed sub-byte elements with `E(n)`).
    ///
    /// ```
    /// use layout_core::parse_array;
    /// let s = parse_array("s4[8]{0:E(4)}").unwrap();
    /// assert_eq!(s.bit_offset(&[3]), Ok(12));
    /// assert_eq!(s.byte_offset(&[3]), Ok(1));
    /// ```
    pub const fn bit_offset(&self, index: &[u64]) -> Result<u64, Error> {
        let off = tri!(self.offset(index));
        match off.checked_mul(self.element_size_in_bits()) {
            Some(v) => Ok(v),
            None => Err(overflow()),
        }
    }

    /// The byte holding the element's first bit.
    pub const fn byte_offset(&self, index: &[u64]) -> Result<u64, Error> {
        let bits = tri!(self.bit_offset(index));
        Ok(bits / 8)
    }

    /// The inverse of [`ArrayShape::offset`]: the logical index stored at
    /// element slot `offset`, or `None` for a padding slot (tile padding,
    /// legacy padding, `L(n)` tail) or an offset past the allocation.
    ///
    /// ```
    /// use layout_core::parse_array;
    /// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(s.index_of(17).unwrap().as_slice(), &[2, 3]);
    /// assert_eq!(s.index_of(14), None); // row 3 of the padded tile
    /// ```
    pub const fn index_of(&self, offset: u64) -> Option<Index> {
        match Plan::new(self) {
            Ok(p) => p.index_of(offset),
            Err(_) => None,
        }
    }

    /// Element strides of each logical dimension for an untiled layout
    /// (`None` when the layout has tiles, whose offsets are not strided).
    ///
    /// ```
    /// use layout_core::parse_array;
    /// let s = parse_array("f32[3,5,7]{0,2,1}").unwrap();
    /// assert_eq!(s.strides().unwrap().as_slice(), &[1, 21, 3]);
    /// assert!(parse_array("f32[4,4]{1,0:T(2,2)}").unwrap().strides().is_none());
    /// ```
    pub const fn strides(&self) -> Option<Index> {
        if self.layout.tile_count > 0 {
            return None;
        }
        let dims = match layout_dims(self) {
            Ok(d) => d,
            Err(_) => return None,
        };
        let n = self.rank as usize;
        let mut out = Index::zeros(n);
        let mut acc: u64 = 1;
        let mut p = 0;
        while p < n {
            let dim = self.layout.m2m[p] as usize;
            out.coords[dim] = acc;
            acc = match acc.checked_mul(dims[dim]) {
                Some(v) => v,
                None => return None,
            };
            p += 1;
        }
        Some(out)
    }

    /// `IndexUtil::GetDimensionStride`: the element stride of logical `dim`
    /// ignoring tiles (product of the more minor dims).
    ///
    /// ```
    /// use layout_core::parse_array;
    /// assert_eq!(parse_array("f32[5,8,10,4]").unwrap().dimension_stride(1), Ok(40));
    /// ```
    pub const fn dimension_stride(&self, dim: usize) -> Result<u64, Error> {
        if dim >= self.rank as usize {
            return Err(Error::new(
                ErrorKind::DimensionNumberOutOfRange,
                Span::NONE,
                [dim as i64, self.rank as i64, 0],
            ));
        }
        let dims = tri!(layout_dims(self));
        let mut acc: u64 = 1;
        let mut p = 0;
        while p < self.rank as usize {
            let d = self.layout.m2m[p] as usize;
            if d == dim {
                return Ok(acc);
            }
            acc = match acc.checked_mul(dims[d]) {
                Some(v) => v,
                None => return Err(overflow()),
            };
            p += 1;
        }
        Ok(acc)
    }

    /// `ShapeUtil::ByteStrides`: byte strides ignoring tiles and `E(n)`.
    ///
    /// ```
    /// use layout_core::parse_array;
    /// let s = parse_array("f16[5,7,9]").unwrap();
    /// assert_eq!(s.byte_strides().unwrap().as_slice(), &[126, 18, 2]);
    /// ```
    pub const fn byte_strides(&self) -> Result<Index, Error> {
        let n = self.rank as usize;
        let mut out = Index::zeros(n);
        let w = self.element_type.byte_width() as u64;
        let mut d = 0;
        while d < n {
            let s = tri!(self.dimension_stride(d));
            out.coords[d] = match s.checked_mul(w) {
                Some(v) => v,
                None => return Err(overflow()),
            };
            d += 1;
        }
        Ok(out)
    }

    /// `IndexUtil::MultidimensionalIndexToLinearIndex`: the untiled linear
    /// index (tiles ignored, as XLA's helper does).
    ///
    /// ```
    /// use layout_core::parse_array;
    /// let s = parse_array("f32[10,20,30]{1,2,0}").unwrap();
    /// assert_eq!(s.untiled_linear_index(&[3, 5, 7]), Ok(1945));
    /// ```
    pub const fn untiled_linear_index(&self, index: &[u64]) -> Result<u64, Error> {
        tri!(check_index(self, index));
        let dims = tri!(layout_dims(self));
        let mut lin: u64 = 0;
        let mut p = self.rank as usize;
        while p > 0 {
            p -= 1;
            let d = self.layout.m2m[p] as usize;
            lin = match lin.checked_mul(dims[d]) {
                Some(v) => v + index[d],
                None => return Err(overflow()),
            };
        }
        Ok(lin)
    }

    /// `IndexUtil::LinearIndexToMultidimensionalIndex`: inverse of
    /// [`ArrayShape::untiled_linear_index`].
    pub const fn untiled_multi_index(&self, linear: u64) -> Result<Index, Error> {
        let dims = tri!(layout_dims(self));
        let n = self.rank as usize;
        let mut out = Index::zeros(n);
        let mut rest = linear;
        let mut p = 0;
        while p < n {
            let d = self.layout.m2m[p] as usize;
            if dims[d] == 0 {
                return Err(Error::new(
                    ErrorKind::IndexOutOfBounds,
                    Span::NONE,
                    [d as i64, 0, 0],
                ));
            }
            out.coords[d] = rest % dims[d];
            rest /= dims[d];
            p += 1;
        }
        if rest != 0 {
            return Err(Error::new(
                ErrorKind::IndexOutOfBounds,
                Span::NONE,
                [0, linear as i64, 0],
            ));
        }
        Ok(out)
    }

    /// `IndexUtil::IndexInBounds`: right length and every coordinate below
    /// its dimension (bounded dims at their bound).
    pub const fn index_in_bounds(&self, index: &[u64]) -> bool {
        check_index(self, index).is_ok()
    }

    /// `IndexUtil::BumpIndices`: the next index in logical order (last
    /// dimension fastest). Returns `false`, leaving `index` unchanged, after
    /// the last one.
    ///
    /// ```
    /// use layout_core::parse_array;
    /// let s = parse_array("s32[2,2]").unwrap();
    /// let mut i = [0, 0];
    /// let mut seen = vec![i];
    /// while s.next_index(&mut i) { seen.push(i); }
    /// assert_eq!(seen, [[0, 0], [0, 1], [1, 0], [1, 1]]);
    /// ```
    pub const fn next_index(&self, index: &mut [u64]) -> bool {
        let n = self.rank as usize;
        if index.len() != n {
            return false;
        }
        let mut d = n;
        while d > 0 {
            d -= 1;
            let size = match self.dims[d].layout_size() {
                Some(v) => v,
                None => return false,
            };
            if index[d] + 1 < size {
                index[d] += 1;
                let mut j = d + 1;
                while j < n {
                    index[j] = 0;
                    j += 1;
                }
                return true;
            }
        }
        false
    }

    /// The next index in memory order of the untiled layout (the most minor
    /// dimension of `minor_to_major` fastest), as `ShapeUtil::ForEachIndex`
    /// walks. Returns `false`, leaving `index` unchanged, after the last one.
    ///
    /// ```
    /// use layout_core::parse_array;
    /// let s = parse_array("s32[2,2]{0,1}").unwrap();
    /// let mut i = [0, 0];
    /// let mut seen = vec![i];
    /// while s.next_index_in_memory_order(&mut i) { seen.push(i); }
    /// assert_eq!(seen, [[0, 0], [1, 0], [0, 1], [1, 1]]);
    /// ```
    pub const fn next_index_in_memory_order(&self, index: &mut [u64]) -> bool {
        let n = self.rank as usize;
        if index.len() != n {
            return false;
        }
        let mut p = 0;
        while p < n {
            let d = self.layout.m2m[p] as usize;
            let size = match self.dims[d].layout_size() {
                Some(v) => v,
                None => return false,
            };
            if index[d] + 1 < size {
                index[d] += 1;
                let mut q = 0;
                while q < p {
                    index[self.layout.m2m[q] as usize] = 0;
                    q += 1;
                }
                return true;
            }
            p += 1;
        }
        false
    }

    /// Calls `f` for every logical index in logical order (last dimension
    /// fastest); nothing for a shape with zero elements, once for a scalar.
    ///
    /// ```
    /// use layout_core::parse_array;
    /// let mut n = 0;
    /// parse_array("f32[6,11,17]").unwrap().for_each_index(|_| n += 1);
    /// assert_eq!(n, 1122);
    /// ```
    pub fn for_each_index(&self, mut f: impl FnMut(&[u64])) {
        if !matches!(self.element_count(), Ok(n) if n > 0) {
            return;
        }
        let mut i = Index::zeros(self.rank());
        loop {
            f(i.as_slice());
            if !self.next_index(i.as_mut_slice()) {
                break;
            }
        }
    }

    /// `ShapeUtil::ForEachIndex` with a window: calls `f` for every index
    /// `base + k * incr` (per dimension, `k * incr < count`), in memory order
    /// (the most minor dimension of `minor_to_major` fastest); `f` returning
    /// `false` stops early. A dimension with `count == 0` and `incr == 0` is
    /// pinned at `base`. Nothing happens for a shape with no elements.
    ///
    /// ```
    /// use layout_core::parse_array;
    /// let s = parse_array("f32[10,10]").unwrap();
    /// let mut seen = Vec::new();
    /// s.for_each_index_in(&[2, 3], &[3, 1], &[2, 1], |i| {
    ///     seen.push(i.to_vec());
    ///     true
    /// });
    /// assert_eq!(seen, [[2, 3], [4, 3]]);
    /// ```
    pub fn for_each_index_in(
        &self,
        base: &[u64],
        count: &[u64],
        incr: &[u64],
        mut f: impl FnMut(&[u64]) -> bool,
    ) {
        let n = self.rank();
        if base.len() != n || count.len() != n || incr.len() != n {
            return;
        }
        if !matches!(self.element_count(), Ok(c) if c > 0) {
            return;
        }
        let mut index = Index::zeros(n);
        index.as_mut_slice().copy_from_slice(base);
        loop {
            if !f(index.as_slice()) {
                return;
            }
            // Increment in minor-to-major order, carrying.
            let mut p = 0;
            loop {
                if p == n {
                    return;
                }
                let d = self.layout.m2m[p] as usize;
                let i = index.as_mut_slice();
                i[d] += incr[d];
                if incr[d] > 0 && i[d] < base[d] + count[d] {
                    break;
                }
                i[d] = base[d];
                p += 1;
            }
        }
    }

    /// Calls `f` for every index in memory order of the untiled layout (the
    /// most minor dimension fastest), as `ShapeUtil::ForEachIndex` walks.
    ///
    /// ```
    /// use layout_core::parse_array;
    /// let mut seen = Vec::new();
    /// parse_array("s32[2,2]{0,1}").unwrap().for_each_index_in_memory_order(|i| seen.push(i.to_vec()));
    /// assert_eq!(seen, [[0, 0], [1, 0], [0, 1], [1, 1]]);
    /// ```
    pub fn for_each_index_in_memory_order(&self, mut f: impl FnMut(&[u64])) {
        if !matches!(self.element_count(), Ok(n) if n > 0) {
            return;
        }
        let mut i = Index::zeros(self.rank());
        loop {
            f(i.as_slice());
            if !self.next_index_in_memory_order(i.as_mut_slice()) {
                break;
            }
        }
    }

    /// `ShapeUtil::TrueNumDimensions`: the number of dimensions not of size 1.
    ///
    /// ```
    /// use layout_core::parse_array;
    /// assert_eq!(parse_array("f32[2,1,1]").unwrap().true_rank(), 1);
    /// assert_eq!(parse_array("f32[3,0,1]").unwrap().true_rank(), 2);
    /// ```
    pub const fn true_rank(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < self.rank as usize {
            if !matches!(self.dims[i], Dim::Static(1)) {
                n += 1;
            }
            i += 1;
        }
        n
    }

    /// `ShapeUtil::GetDimensionNumber`: a dimension number that may count
    /// from the end (`-1` is the last dimension).
    ///
    /// ```
    /// use layout_core::parse_array;
    /// let s = parse_array("f32[2,3]").unwrap();
    /// assert_eq!(s.dimension_number(-1), Ok(1));
    /// assert_eq!(s.dimension_number(-2), Ok(0));
    /// assert!(s.dimension_number(-3).is_err());
    /// ```
    pub const fn dimension_number(&self, dim: i64) -> Result<usize, Error> {
        let rank = self.rank as i64;
        let d = if dim < 0 { dim + rank } else { dim };
        if d < 0 || d >= rank {
            return Err(Error::new(
                ErrorKind::DimensionNumberOutOfRange,
                Span::NONE,
                [dim, rank, 0],
            ));
        }
        Ok(d as usize)
    }

    /// `ShapeUtil::GetDimension`: the dimension at a possibly negative number.
    ///
    /// ```
    /// use layout_core::{parse_array, Dim};
    /// let s = parse_array("f32[1,2,3,4]").unwrap();
    /// assert_eq!(s.dim(-1), Ok(Dim::Static(4)));
    /// ```
    pub const fn dim(&self, dim: i64) -> Result<Dim, Error> {
        match self.dimension_number(dim) {
            Ok(d) => Ok(self.dims[d]),
            Err(e) => Err(e),
        }
    }

    /// The letter of a dimension: `x` for the last, then `y`, `z`, `p`
    /// (rank 2 `y x`, rank 3 `z y x`, rank 4 `p z y x`); `None` beyond rank 4
    /// or out of range.
    ///
    /// ```
    /// use layout_core::parse_array;
    /// let s = parse_array("f32[2,3,4]").unwrap();
    /// assert_eq!(s.dimension_letter(0), Some('z'));
    /// assert_eq!(s.dimension_letter(2), Some('x'));
    /// ```
    pub const fn dimension_letter(&self, dim: usize) -> Option<char> {
        let n = self.rank as usize;
        if n > 4 || dim >= n {
            return None;
        }
        Some(match n - 1 - dim {
            0 => 'x',
            1 => 'y',
            2 => 'z',
            _ => 'p',
        })
    }

    /// The logical dimension written with `letter` (`x`, `y`, `z`, `p`).
    pub const fn dimension_of_letter(&self, letter: char) -> Option<usize> {
        let from_end = match letter {
            'x' => 0,
            'y' => 1,
            'z' => 2,
            'p' => 3,
            _ => return None,
        };
        let n = self.rank as usize;
        if n > 4 || from_end >= n {
            return None;
        }
        Some(n - 1 - from_end)
    }
}

/// `IndexUtil::CompareIndices`: -1, 0 or 1 comparing lexicographically.
///
/// ```
/// assert_eq!(layout_core::compare_indices(&[1, 2], &[1, 3]), -1);
/// assert_eq!(layout_core::compare_indices(&[2, 0], &[1, 3]), 1);
/// ```
pub const fn compare_indices(a: &[u64], b: &[u64]) -> i32 {
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] < b[i] {
            return -1;
        }
        if a[i] > b[i] {
            return 1;
        }
        i += 1;
    }
    if a.len() < b.len() {
        -1
    } else if a.len() > b.len() {
        1
    } else {
        0
    }
}

const fn bytes_for(elements: u64, bits: u64, packed: bool) -> Result<u64, Error> {
    if packed {
        let total = elements as u128 * bits as u128;
        let bytes = total.div_ceil(8);
        if bytes > i64::MAX as u128 {
            return Err(overflow());
        }
        Ok(bytes as u64)
    } else {
        match elements.checked_mul(bits / 8) {
            Some(v) if v <= i64::MAX as u64 => Ok(v),
            _ => Err(overflow()),
        }
    }
}

pub(crate) const fn size_in_bytes(s: &ArrayShape) -> Result<u64, Error> {
    let n = tri!(s.allocated_elements());
    bytes_for(n, s.element_size_in_bits(), s.layout.element_size_bits > 0)
}
