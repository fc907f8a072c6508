//! Size arithmetic on the shape model: the size each dimension is laid out
//! at, the physical sizes after each tile level, the allocation and its
//! bytes. One place for these numbers: the size rule checks them, the plan
//! records them, the size queries report them.
//!
//! Every function here is total on unchecked data: values a rule would
//! refuse give an error, never a panic or a wrapped number.

use crate::base::error::{Error, ErrorKind, Span};
use crate::base::konst::{self, sub, tri};
use crate::base::limits::{
    COMBINE_ENTRY as COMBINE, MAX_PHYSICAL_RANK, MAX_RANK, MAX_TILES, MAX_TILE_ENTRIES,
};
use crate::model::array::UncheckedArray;
use crate::model::dim::Dim;

pub(crate) const fn overflow() -> Error {
    Error::new(ErrorKind::AllocationOverflow, Span::NONE, [0; 3])
}

/// Working sizes, major to minor.
#[derive(Clone, Copy)]
pub(crate) struct Sizes {
    pub d: [u64; MAX_PHYSICAL_RANK],
    pub len: usize,
}

/// The physical sizes after some tile levels, with what the plan records
/// about each level.
pub(crate) struct Tiling {
    pub sizes: Sizes,
    /// For each tile entry, the size of the working dimension it covers.
    pub covered: [u64; MAX_TILE_ENTRIES],
    /// Size-1 dims prepended before each level.
    pub prepend: [u8; MAX_TILES],
    /// Working length before each level (before prepending).
    pub len_before: [u8; MAX_TILES],
}

/// The size each logical dimension is laid out at: static size, bound, or
/// legacy padded size. `?` is an error.
pub(crate) const fn layout_dims(s: &UncheckedArray) -> Result<[u64; MAX_RANK], Error> {
    let mut out = [0u64; MAX_RANK];
    let mut i = 0;
    while i < s.rank as usize && i < MAX_RANK {
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

/// Physical sizes before tiling: layout sizes permuted major to minor.
pub(crate) const fn physical_sizes(s: &UncheckedArray) -> Result<Sizes, Error> {
    let dims = tri!(layout_dims(s));
    let n = s.rank as usize;
    let mut w = Sizes {
        d: [0; MAX_PHYSICAL_RANK],
        len: n,
    };
    let mut p = 0;
    while p < n {
        let d = s.layout.m2m[n - 1 - p];
        if s.layout.m2m_len as usize != n || d < 0 || d >= n as i64 {
            return Err(Error::new(
                ErrorKind::MinorToMajorOutOfRange,
                Span::NONE,
                [d, n as i64, (n - 1 - p) as i64],
            ));
        }
        w.d[p] = dims[d as usize];
        p += 1;
    }
    Ok(w)
}

/// Applies one tile level to sizes (saturating); records each entry's
/// covered size in `covered[first..]` and returns the number of prepended
/// dims. Entries must be positive or `*`.
pub(crate) const fn tile_sizes(
    w: &mut Sizes,
    tile: &[i64],
    covered: &mut [u64; MAX_TILE_ENTRIES],
    first: usize,
) -> Result<usize, Error> {
    let k = tile.len();
    if k == 0 || first + k > MAX_TILE_ENTRIES || w.len + k > MAX_PHYSICAL_RANK {
        return Err(Error::new(ErrorKind::EmptyTile, Span::NONE, [0; 3]));
    }
    let mut prepend = 0;
    if k > w.len {
        prepend = k - w.len;
        w.len = konst::prepend(&mut w.d, w.len, prepend, 1);
    }
    let base = w.len - k;
    let mut grid = [0u64; MAX_TILE_ENTRIES];
    let mut inner = [0u64; MAX_TILE_ENTRIES];
    let mut m = 0;
    let mut acc: u64 = 1;
    let mut j = 0;
    while j < k {
        let d = w.d[base + j];
        covered[first + j] = d;
        // Saturating: a saturated size makes the final product overflow
        // (reported there) unless another dimension is 0, in which case the
        // allocation is empty whatever the other sizes are.
        acc = acc.saturating_mul(d);
        let t = tile[j];
        if t != COMBINE {
            if t <= 0 {
                return Err(Error::new(ErrorKind::ZeroTileEntry, Span::NONE, [0; 3]));
            }
            let t = t as u64;
            grid[m] = acc.div_ceil(t);
            inner[m] = t;
            m += 1;
            acc = 1;
        }
        j += 1;
    }
    w.len = konst::splice(&mut w.d, base, &grid, &inner, m);
    Ok(prepend)
}

/// The physical sizes after the first `levels` tile levels (clamped to the
/// layout's tile count).
pub(crate) const fn tiling(s: &UncheckedArray, levels: usize) -> Result<Tiling, Error> {
    let l = &s.layout;
    let levels = if levels > l.tile_count as usize {
        l.tile_count as usize
    } else {
        levels
    };
    let mut t = Tiling {
        sizes: tri!(physical_sizes(s)),
        covered: [0; MAX_TILE_ENTRIES],
        prepend: [0; MAX_TILES],
        len_before: [0; MAX_TILES],
    };
    let mut level = 0;
    while level < levels && level < MAX_TILES {
        t.len_before[level] = t.sizes.len as u8;
        let first = l.tile_entry_index(level, 0);
        let end = l.tile_ends[level] as usize;
        let tile = sub(&l.tile_entries, first, end);
        let pre = tri!(tile_sizes(&mut t.sizes, tile, &mut t.covered, first));
        t.prepend[level] = pre as u8;
        level += 1;
    }
    Ok(t)
}

/// Element slots of a final physical shape, and of the allocation after
/// rounding up to a multiple of `L(n)`: `(tiled, allocated)`.
pub(crate) const fn totals(w: &Sizes, tail_padding: i64) -> Result<(u64, u64), Error> {
    let mut total: u64 = 1;
    let mut empty = false;
    let mut i = 0;
    while i < w.len {
        empty |= w.d[i] == 0;
        total = total.saturating_mul(w.d[i]);
        i += 1;
    }
    if empty {
        total = 0;
    } else if total > i64::MAX as u64 {
        return Err(overflow());
    }
    if tail_padding < 1 {
        return Err(Error::new(
            ErrorKind::TailPaddingNotPositive,
            Span::NONE,
            [tail_padding, 0, 0],
        ));
    }
    let align = tail_padding as u64;
    let allocated = match total.div_ceil(align).checked_mul(align) {
        Some(v) if v <= i64::MAX as u64 => v,
        _ => return Err(overflow()),
    };
    Ok((total, allocated))
}

/// Element slots in the allocation (every tile level, legacy padding and
/// `L(n)` included).
pub(crate) const fn allocated_elements(s: &UncheckedArray) -> Result<u64, Error> {
    let t = tri!(tiling(s, s.layout.tile_count as usize));
    match totals(&t.sizes, s.layout.tail_padding) {
        Ok((_, allocated)) => Ok(allocated),
        Err(e) => Err(e),
    }
}

/// Bits per stored element: `E(n)` when set, else the byte width x 8.
pub(crate) const fn element_bits(s: &UncheckedArray) -> u64 {
    let e = s.layout.element_size_bits;
    if e > 0 {
        e as u64
    } else {
        s.element_type.byte_width() as u64 * 8
    }
}

/// Bytes holding `elements` values of `bits` each: `ceil(elements x bits /
/// 8)` when packed, else `elements x bits / 8`; at most `i64::MAX`.
pub(crate) const fn bytes_for(elements: u64, bits: u64, packed: bool) -> Result<u64, Error> {
    let total = elements as u128 * bits as u128;
    let bytes = if packed {
        total.div_ceil(8)
    } else {
        elements as u128 * (bits / 8) as u128
    };
    if bytes > i64::MAX as u128 {
        return Err(overflow());
    }
    Ok(bytes as u64)
}

/// Bytes of the allocation.
pub(crate) const fn allocated_bytes(s: &UncheckedArray) -> Result<u64, Error> {
    let n = tri!(allocated_elements(s));
    bytes_for(n, element_bits(s), s.layout.element_size_bits > 0)
}
