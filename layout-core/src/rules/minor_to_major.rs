//! Rule group: `minor_to_major` is a permutation of `0..rank`.

use crate::base::error::{Error, ErrorKind};
use crate::base::limits::MAX_RANK;
use crate::model::array::UncheckedArray;
use crate::rules::collect::{report, Collector};

/// Returns `true` when `minor_to_major` is a permutation (later rules
/// that look dimensions up through it run only then).
pub(crate) const fn check(s: &UncheckedArray, c: &mut Collector) -> bool {
    let rank = s.rank as usize;
    let l = &s.layout;
    let map = &s.source;
    let len = l.m2m_len as usize;
    if len != rank {
        report!(
            c,
            Error::new(
                ErrorKind::MinorToMajorLength,
                map.layout(),
                [len as i64, rank as i64, 0]
            ),
            false
        );
        return false;
    }
    let mut ok = true;
    let mut seen = [usize::MAX; MAX_RANK];
    let mut p = 0;
    while p < len {
        let d = l.m2m[p];
        if d < 0 || d >= rank as i64 {
            ok = false;
            report!(
                c,
                Error::new(
                    ErrorKind::MinorToMajorOutOfRange,
                    map.minor_to_major(p),
                    [d, rank as i64, p as i64]
                ),
                false
            );
        } else if seen[d as usize] != usize::MAX {
            ok = false;
            report!(
                c,
                Error::new(
                    ErrorKind::MinorToMajorDuplicate,
                    map.minor_to_major(p),
                    [d, seen[d as usize] as i64, p as i64]
                ),
                false
            );
        } else {
            seen[d as usize] = p;
        }
        p += 1;
    }
    ok
}
