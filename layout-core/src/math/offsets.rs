//! Index math on validated shapes (see `docs/tiling.md`): the physical
//! shape after each tile level, element offsets for every layout (all tile
//! levels, `*` combining, tiles longer than the rank, `L(n)`, legacy
//! padding), the inverse, sizes and strides. No heap: fixed-size working
//! buffers.

use crate::base::error::{Error, ErrorKind, Span};
use crate::base::konst::{sub, tri};
use crate::base::limits::MAX_RANK;
use crate::model::array::ArrayShape;
use crate::model::index::{Index, PhysicalShape};
use crate::model::sizes::{
    allocated_bytes, allocated_elements, bytes_for, element_bits, layout_dims, overflow, tiling,
};
use crate::plan::digits;
use crate::plan::Plan;

const fn check_index(s: &ArrayShape, index: &[u64]) -> Result<(), Error> {
    let n = s.raw.rank as usize;
    if index.len() != n {
        return Err(Error::new(
            ErrorKind::IndexRank,
            Span::NONE,
            [index.len() as i64, n as i64, 0],
        ));
    }
    let dims = tri!(layout_dims(&s.raw));
    let mut i = 0;
    while i < n {
        // Legacy padding slots are not addressable: bound by the real size.
        let limit = match s.raw.dims[i].layout_size() {
            Some(v) => v,
            None => dims[i],
        };
        if index[i] >= limit {
            return Err(Error::wide(
                ErrorKind::IndexOutOfBounds,
                Span::NONE,
                [i as i128, index[i] as i128, limit as i128],
            ));
        }
        i += 1;
    }
    Ok(())
}

impl ArrayShape {
    /// The physical shape after the first `levels` tile levels (0 = the
    /// permuted dims before tiling). `levels` past the tile count is clamped.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// // Major to minor: dims 1, 0, 2, 3 (`minor_to_major` read backwards).
    /// assert_eq!(s.physical_shape(0).unwrap().as_slice(), &[1, 8, 1280, 16384]);
    /// assert_eq!(s.physical_shape(1).unwrap().as_slice(), &[1, 8, 160, 128, 8, 128]);
    /// assert_eq!(s.physical_shape(9).unwrap(), s.physical_shape(2).unwrap());
    /// ```
    pub const fn physical_shape(&self, levels: usize) -> Result<PhysicalShape, Error> {
        let t = tri!(tiling(&self.raw, levels));
        Ok(PhysicalShape::from_slice(sub(&t.sizes.d, 0, t.sizes.len)))
    }

    /// The final physical shape (after every tile level).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// // A 2x3 grid of 2x2 tiles.
    /// assert_eq!(s.tiled_shape().unwrap().as_slice(), &[2, 3, 2, 2]);
    /// ```
    pub const fn tiled_shape(&self) -> Result<PhysicalShape, Error> {
        self.physical_shape(self.raw.layout.tile_count as usize)
    }

    /// Element slots in the allocation: the tiled shape's size (every tile
    /// level's padding, legacy padding) rounded up to a multiple of `L(n)`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// assert_eq!(parse_array("f32[3,5]{1,0:T(2,2)L(10)}").unwrap().allocated_elements(), Ok(30));
    /// assert_eq!(parse_array("s32[]{:T(128)}").unwrap().allocated_elements(), Ok(128));
    /// assert_eq!(parse_array("f32[3,5]{1,0:L(7)}").unwrap().allocated_elements(), Ok(21));
    /// ```
    pub const fn allocated_elements(&self) -> Result<u64, Error> {
        allocated_elements(&self.raw)
    }

    /// Bytes of the allocation: allocated elements x element bytes, or
    /// `ceil(allocated x E / 8)` with `E(n)` packing.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}").unwrap();
    /// assert_eq!(s.size_in_bytes(), Ok(28_311_552));
    /// assert_eq!(parse_array("s4[64,128]").unwrap().size_in_bytes(), Ok(8192));
    /// ```
    pub const fn size_in_bytes(&self) -> Result<u64, Error> {
        allocated_bytes(&self.raw)
    }

    /// `ShapeUtil::ByteSizeOf` for arrays: logical elements x element bytes
    /// (or packed bits), ignoring tiles and `L`.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// assert_eq!(s.unpadded_size_in_bytes(), Ok(60)); // 15 x 4
    /// assert_eq!(s.size_in_bytes(), Ok(96)); // 24 slots x 4
    /// assert_eq!(parse_array("s4[5]{0:E(4)}").unwrap().unpadded_size_in_bytes(), Ok(3));
    /// ```
    pub const fn unpadded_size_in_bytes(&self) -> Result<u64, Error> {
        let n = tri!(self.element_count());
        bytes_for(
            n,
            element_bits(&self.raw),
            self.raw.layout.element_size_bits > 0,
        )
    }

    /// Unpadded bytes as the TPU compiler's memory report counts them: the
    /// logical element count times the element type's unpacked byte width
    /// ([`ElementType::byte_width`](crate::ElementType::byte_width): one
    /// byte for `pred` and for the sub-byte types), ignoring tiles, `L(n)`
    /// and `E(n)`.
    ///
    /// This differs from [`unpadded_size_in_bytes`](Self::unpadded_size_in_bytes)
    /// (XLA's `ByteSizeOf`, which packs `E(n)`) only when the layout has
    /// `E(n)`: the report counts `pred[64,512,2048]{2,1,0:T(8,128)E(32)}`
    /// (a `pred` stored in 32 bits) as 64.00M unpadded for 256.00M
    /// allocated, a 4.0x expansion. For `E(4)` sub-byte layouts the one
    /// byte per element follows XLA's unpacked byte width; no public report
    /// with one has been checked.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("pred[64,512,2048]{2,1,0:T(8,128)E(32)}").unwrap();
    /// assert_eq!(s.size_in_bytes(), Ok(256 << 20));
    /// assert_eq!(s.unpadded_size_in_bytes(), Ok(256 << 20));
    /// assert_eq!(s.unpacked_size_in_bytes(), Ok(64 << 20));
    /// let s4 = parse_array("s4[5]{0:E(4)}").unwrap();
    /// assert_eq!((s4.unpadded_size_in_bytes(), s4.unpacked_size_in_bytes()), (Ok(3), Ok(5)));
    /// ```
    pub const fn unpacked_size_in_bytes(&self) -> Result<u64, Error> {
        let n = tri!(self.element_count());
        bytes_for(n, self.raw.element_type.byte_width() as u64 * 8, false)
    }

    /// The element offset (in element slots, from the start of the buffer)
    /// of a logical index, for every layout.
    ///
    /// This plans the layout on every call: for more than a few offsets of
    /// one shape, make a [`Plan`] once and use [`Plan::offset`] or
    /// [`Plan::offset_unchecked`] (hundreds of times faster), or, with the
    /// rank known at compile time, a [`StaticLayout`](crate::StaticLayout).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}").unwrap();
    /// assert_eq!(s.offset(&[0, 0, 1, 0, 0]), Ok(3));
    /// assert_eq!(s.offset(&[1, 6, 7, 10, 9]), Ok(12430));
    /// ```
    pub const fn offset(&self, index: &[u64]) -> Result<u64, Error> {
        tri!(check_index(self, index));
        // Small digit tables for this one offset; the general plan only
        // for layouts without them.
        let raw = &self.raw;
        let t = tri!(tiling(raw, raw.layout.tile_count as usize));
        let mut limits = [0u64; MAX_RANK];
        let dims = tri!(layout_dims(raw));
        let mut i = 0;
        while i < raw.rank as usize {
            limits[i] = match raw.dims[i].layout_size() {
                Some(n) => n,
                None => dims[i],
            };
            i += 1;
        }
        match digits::build::<4>(raw, &t, &limits, 0) {
            Ok((d, pow2, _)) => {
                let mut sum: u64 = 0;
                let mut i = 0;
                while i < index.len() && i < MAX_RANK {
                    sum = sum.wrapping_add(d[i].offset(index[i], pow2));
                    i += 1;
                }
                Ok(sum)
            }
            Err(_) => {
                let plan = tri!(Plan::new(self));
                plan.offset(index)
            }
        }
    }

    /// The bit offset of an element: offset x [`ArrayShape::element_size_in_bits`]
    /// (packed sub-byte elements with `E(n)`).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
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
    ///
    /// It is below [`ArrayShape::size_in_bytes`], so it fits in `i64` even
    /// where the bit offset does not.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// assert_eq!(s.byte_offset(&[3, 0, 13, 300]), Ok(2 * 63_048_281));
    /// let packed = parse_array("s4[5]{0:E(4)}").unwrap();
    /// assert_eq!(packed.byte_offset(&[3]), Ok(1)); // bits 12..16
    /// assert_eq!(packed.byte_offset(&[4]), Ok(2));
    /// ```
    pub const fn byte_offset(&self, index: &[u64]) -> Result<u64, Error> {
        let off = tri!(self.offset(index));
        Ok(((off as u128 * self.element_size_in_bits() as u128) / 8) as u64)
    }

    /// The inverse of [`ArrayShape::offset`]: the logical index stored at
    /// element slot `offset`, or `None` for a padding slot (tile padding,
    /// legacy padding, `L(n)` tail) or an offset past the allocation.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
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
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("f32[3,5,7]{0,2,1}").unwrap();
    /// assert_eq!(s.strides().unwrap().as_slice(), &[1, 21, 3]);
    /// assert!(parse_array("f32[4,4]{1,0:T(2,2)}").unwrap().strides().is_none());
    /// ```
    pub const fn strides(&self) -> Option<Index> {
        if self.raw.layout.tile_count > 0 {
            return None;
        }
        let dims = match layout_dims(&self.raw) {
            Ok(d) => d,
            Err(_) => return None,
        };
        let n = self.raw.rank as usize;
        let mut out = Index::zeros(n);
        let mut acc: u64 = 1;
        let mut p = 0;
        while p < n {
            let dim = self.raw.layout.m2m[p] as usize;
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
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// assert_eq!(parse_array("f32[5,8,10,4]").unwrap().dimension_stride(1), Ok(40));
    /// ```
    pub const fn dimension_stride(&self, dim: usize) -> Result<u64, Error> {
        if dim >= self.raw.rank as usize {
            return Err(Error::new(
                ErrorKind::DimensionNumberOutOfRange,
                Span::NONE,
                [dim as i64, self.raw.rank as i64, 0],
            ));
        }
        let dims = tri!(layout_dims(&self.raw));
        let mut acc: u64 = 1;
        let mut p = 0;
        while p < self.raw.rank as usize {
            let d = self.raw.layout.m2m[p] as usize;
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
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("f16[5,7,9]").unwrap();
    /// assert_eq!(s.byte_strides().unwrap().as_slice(), &[126, 18, 2]);
    /// ```
    pub const fn byte_strides(&self) -> Result<Index, Error> {
        let n = self.raw.rank as usize;
        let mut out = Index::zeros(n);
        let w = self.raw.element_type.byte_width() as u64;
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
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("f32[10,20,30]{1,2,0}").unwrap();
    /// assert_eq!(s.untiled_linear_index(&[3, 5, 7]), Ok(1945));
    /// ```
    pub const fn untiled_linear_index(&self, index: &[u64]) -> Result<u64, Error> {
        tri!(check_index(self, index));
        let dims = tri!(layout_dims(&self.raw));
        let mut lin: u64 = 0;
        let mut p = self.raw.rank as usize;
        while p > 0 {
            p -= 1;
            let d = self.raw.layout.m2m[p] as usize;
            lin = match lin.checked_mul(dims[d]) {
                Some(v) => v + index[d],
                None => return Err(overflow()),
            };
        }
        Ok(lin)
    }

    /// `IndexUtil::LinearIndexToMultidimensionalIndex`: inverse of
    /// [`ArrayShape::untiled_linear_index`].
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, ErrorKind};
    /// let s = parse_array("f32[10,20,30]{1,2,0}").unwrap();
    /// assert_eq!(s.untiled_multi_index(1945).unwrap().as_slice(), &[3, 5, 7]);
    /// let past = s.untiled_multi_index(6000).unwrap_err();
    /// assert_eq!(past.kind(), ErrorKind::IndexOutOfBounds);
    /// ```
    pub const fn untiled_multi_index(&self, linear: u64) -> Result<Index, Error> {
        let dims = tri!(layout_dims(&self.raw));
        let n = self.raw.rank as usize;
        let mut out = Index::zeros(n);
        let mut rest = linear;
        let mut p = 0;
        while p < n {
            let d = self.raw.layout.m2m[p] as usize;
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
            return Err(Error::wide(
                ErrorKind::IndexOutOfBounds,
                Span::NONE,
                [0, linear as i128, 0],
            ));
        }
        Ok(out)
    }

    /// `IndexUtil::IndexInBounds`: right length and every coordinate below
    /// its dimension (bounded dims at their bound).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("f32[<=4,3]").unwrap();
    /// assert!(s.index_in_bounds(&[3, 2]));
    /// assert!(!s.index_in_bounds(&[4, 0]));
    /// assert!(!s.index_in_bounds(&[3]));
    /// ```
    pub const fn index_in_bounds(&self, index: &[u64]) -> bool {
        check_index(self, index).is_ok()
    }
}
