//! Walking indices of a validated shape: in logical order, in the memory
//! order of `minor_to_major`, and through windows (`ShapeUtil::ForEachIndex`).
//! Every step is checked: an index outside the shape ends a walk, it never
//! wraps, panics or loops forever.

use crate::base::limits::MAX_RANK;
use crate::model::array::ArrayShape;
use crate::model::index::Index;

impl ArrayShape {
    /// The sizes an index ranges over (bounded dims at their bound), or
    /// `None` with a `?` dimension.
    const fn index_limits(&self) -> Option<[u64; MAX_RANK]> {
        let mut out = [0u64; MAX_RANK];
        let mut i = 0;
        while i < self.raw.rank as usize {
            out[i] = match self.raw.dims[i].layout_size() {
                Some(v) => v,
                None => return None,
            };
            i += 1;
        }
        Some(out)
    }

    /// `index` has the rank's length and lies inside `limits`.
    const fn inside(&self, index: &[u64], limits: &[u64; MAX_RANK]) -> bool {
        if index.len() != self.raw.rank as usize {
            return false;
        }
        let mut i = 0;
        while i < index.len() {
            if index[i] >= limits[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// `IndexUtil::BumpIndices`: the next index in logical order (last
    /// dimension fastest). Returns `false`, leaving `index` unchanged, after
    /// the last one, and for an index that is not in bounds.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("s32[2,2]").unwrap();
    /// let mut i = [0, 0];
    /// let mut seen = vec![i];
    /// while s.next_index(&mut i) { seen.push(i); }
    /// assert_eq!(seen, [[0, 0], [0, 1], [1, 0], [1, 1]]);
    /// assert!(!s.next_index(&mut [u64::MAX, 0]));
    /// ```
    pub const fn next_index(&self, index: &mut [u64]) -> bool {
        let Some(limits) = self.index_limits() else {
            return false;
        };
        if !self.inside(index, &limits) {
            return false;
        }
        let n = index.len();
        let mut d = n;
        while d > 0 {
            d -= 1;
            // In bounds, so `index[d] + 1` cannot overflow.
            if index[d] + 1 < limits[d] {
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
    /// walks. Returns `false`, leaving `index` unchanged, after the last one,
    /// and for an index that is not in bounds.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("s32[2,2]{0,1}").unwrap();
    /// let mut i = [0, 0];
    /// let mut seen = vec![i];
    /// while s.next_index_in_memory_order(&mut i) { seen.push(i); }
    /// assert_eq!(seen, [[0, 0], [1, 0], [0, 1], [1, 1]]);
    /// ```
    pub const fn next_index_in_memory_order(&self, index: &mut [u64]) -> bool {
        let Some(limits) = self.index_limits() else {
            return false;
        };
        if !self.inside(index, &limits) {
            return false;
        }
        let n = index.len();
        let m2m = &self.raw.layout.m2m;
        let mut p = 0;
        while p < n {
            let d = m2m[p] as usize;
            if index[d] + 1 < limits[d] {
                index[d] += 1;
                let mut q = 0;
                while q < p {
                    index[m2m[q] as usize] = 0;
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
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
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
    /// `false` stops early. A dimension with `count == 0` or `incr == 0` is
    /// pinned at `base`. The window is clipped to the shape: `f` only sees
    /// indices in bounds, and nothing happens when `base` is outside the
    /// shape, the slices' lengths differ from the rank, or the shape has no
    /// elements.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
    /// let s = parse_array("f32[10,10]").unwrap();
    /// let mut seen = Vec::new();
    /// s.for_each_index_in(&[2, 3], &[3, 1], &[2, 1], |i| {
    ///     seen.push(i.to_vec());
    ///     true
    /// });
    /// assert_eq!(seen, [[2, 3], [4, 3]]);
    /// // A window past the edge is clipped.
    /// let mut n = 0;
    /// s.for_each_index_in(&[8, 0], &[100, 1], &[1, 1], |_| { n += 1; true });
    /// assert_eq!(n, 2);
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
        let Some(limits) = self.index_limits() else {
            return;
        };
        if !self.inside(base, &limits) {
            return;
        }
        let mut end = [0u64; MAX_RANK];
        for d in 0..n {
            end[d] = base[d].saturating_add(count[d]).min(limits[d]);
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
                let d = self.raw.layout.m2m[p] as usize;
                let i = index.as_mut_slice();
                if incr[d] > 0
                    && let Some(next) = i[d].checked_add(incr[d])
                    && next < end[d]
                {
                    i[d] = next;
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
    /// # use layout_core as xla_layout;
    /// use xla_layout::parse_array;
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
}

/// `IndexUtil::CompareIndices`: -1, 0 or 1 comparing lexicographically.
///
/// ```
/// # use layout_core as xla_layout;
/// assert_eq!(xla_layout::compare_indices(&[1, 2], &[1, 3]), -1);
/// assert_eq!(xla_layout::compare_indices(&[2, 0], &[1, 3]), 1);
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
