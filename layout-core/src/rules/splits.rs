//! Rule group: split configs `SC(d:i,...)`. A physical dimension in range,
//! split at most once, at indices that are positive, strictly increasing
//! and inside the dimension.

use crate::base::error::{Error, ErrorKind};
use crate::model::array::UncheckedArray;
use crate::rules::collect::{report, Collector};

/// `m2m_ok`: `minor_to_major` is a permutation, so physical dimensions
/// can be looked up through it.
pub(crate) const fn check(s: &UncheckedArray, c: &mut Collector, m2m_ok: bool) {
    let rank = s.rank as usize;
    let l = &s.layout;
    let map = &s.source;
    let mut k = 0;
    while k < l.split_count as usize {
        let d = l.split_dims[k];
        if d < 0 || d >= rank as i64 {
            report!(
                c,
                Error::new(
                    ErrorKind::SplitDimensionOutOfRange,
                    map.split(k),
                    [d, rank as i64, 0]
                )
            );
            k += 1;
            continue;
        }
        let mut other = 0;
        while other < k {
            if l.split_dims[other] == d {
                report!(
                    c,
                    Error::new(ErrorKind::SplitDimensionDuplicate, map.split(k), [d, 0, 0])
                );
            }
            other += 1;
        }
        // Physical dimension d (0 = most major) is logical m2m[rank-1-d].
        let size: i64 = if m2m_ok {
            match s.dims[l.m2m[rank - 1 - d as usize] as usize].layout_size() {
                Some(n) => n as i64,
                None => -1,
            }
        } else {
            i64::MAX
        };
        let start = if k == 0 {
            0
        } else {
            l.split_ends[k - 1] as usize
        };
        let end = l.split_ends[k] as usize;
        let mut prev: i64 = 0;
        let mut j = start;
        while j < end {
            let v = l.split_indices[j];
            if v <= prev {
                report!(
                    c,
                    Error::new(
                        ErrorKind::SplitIndicesNotIncreasing,
                        map.split(k),
                        [d, v, prev]
                    )
                );
                break;
            }
            if size < 0 || v >= size {
                report!(
                    c,
                    Error::new(ErrorKind::SplitIndexOutOfBounds, map.split(k), [d, v, size])
                );
                break;
            }
            prev = v;
            j += 1;
        }
        k += 1;
    }
}
