//! Rule group: legacy per-dimension padding. Each padded size is at least
//! its dimension's size; `?` dimensions cannot be padded.

use crate::base::error::{Error, ErrorKind};
use crate::model::array::UncheckedArray;
use crate::rules::collect::{report, Collector};

pub(crate) const fn check(s: &UncheckedArray, c: &mut Collector) {
    let Some(p) = &s.padding else {
        return;
    };
    let mut i = 0;
    while i < s.rank as usize {
        match s.dims[i].layout_size() {
            Some(n) if p.padded[i] < n => report!(
                c,
                Error::wide(
                    ErrorKind::PaddingTooSmall,
                    s.source.dim(i),
                    [i as i128, p.padded[i] as i128, n as i128]
                )
            ),
            None => report!(
                c,
                Error::new(
                    ErrorKind::UnboundedDimension,
                    s.source.dim(i),
                    [i as i64, 0, 0]
                )
            ),
            _ => {}
        }
        i += 1;
    }
}
