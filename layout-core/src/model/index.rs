//! Plain index data: a logical multi-index ([`Index`]) and a physical
//! shape or index ([`PhysicalShape`]).

use crate::base::konst::sub;
use crate::base::limits::{MAX_PHYSICAL_RANK, MAX_RANK};

/// A multi-index: up to [`MAX_RANK`] coordinates, dimension 0 first.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, Index};
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
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{Index, MAX_RANK};
    /// assert_eq!(Index::zeros(3).as_slice(), &[0, 0, 0]);
    /// assert_eq!(Index::zeros(100).as_slice().len(), MAX_RANK);
    /// ```
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

    /// The coordinates, dimension 0 first.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
    /// assert_eq!(s.index_of(63_048_281).unwrap().as_slice(), &[3, 0, 13, 300]);
    /// ```
    pub const fn as_slice(&self) -> &[u64] {
        sub(&self.coords, 0, self.len as usize)
    }

    /// The coordinates, mutably.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Index};
    /// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// let mut i = Index::zeros(2);
    /// i.as_mut_slice().copy_from_slice(&[2, 3]);
    /// assert_eq!(s.offset(i.as_slice()), Ok(17));
    /// ```
    pub fn as_mut_slice(&mut self) -> &mut [u64] {
        &mut self.coords[..self.len as usize]
    }
}

/// A physical shape: sizes major to minor, as produced by a tile level.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::parse_array;
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
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::PhysicalShape;
    /// let p = PhysicalShape::from_slice(&[2, 3, 2, 2]);
    /// assert_eq!(p.len(), 4);
    /// assert_eq!(p.as_slice(), &[2, 3, 2, 2]);
    /// assert!(PhysicalShape::from_slice(&[]).is_empty());
    /// ```
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
        sub(&self.dims, 0, self.len as usize)
    }

    /// Number of dimensions.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// `true` for the physical shape of a scalar before tiling.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Product of the sizes (checked): `None` on overflow.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, PhysicalShape};
    /// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// // Two by three tiles of 2x2: the 24 allocated elements.
    /// assert_eq!(s.tiled_shape().unwrap().product(), Some(24));
    /// assert_eq!(PhysicalShape::from_slice(&[u64::MAX, 2]).product(), None);
    /// ```
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
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
    /// let tiled = s.tiled_shape().unwrap();
    /// assert_eq!(tiled.as_slice(), &[2, 3, 2, 2]);
    /// assert_eq!(tiled.strides().as_slice(), &[12, 4, 2, 1]);
    /// ```
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
