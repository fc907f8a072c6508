//! Rule group: dimensions. Sizes and bounds fit in `i64` (the parser
//! refuses negative ones; values built in code may exceed `i64`).

use crate::base::error::{Error, ErrorKind};
use crate::model::array::UncheckedArray;
use crate::rules::collect::{report, Collector};

pub(crate) const fn check(s: &UncheckedArray, c: &mut Collector) {
    let mut i = 0;
    while i < s.rank as usize {
        if let Some(n) = s.dims[i].layout_size()
            && n > i64::MAX as u64
        {
            report!(
                c,
                Error::wide(
                    ErrorKind::IntegerOutOfRange,
                    s.source.dim(i),
                    [i as i128, n as i128, 0]
                )
            );
        }
        i += 1;
    }
}
