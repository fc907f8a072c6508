//! Rule group: sizes. The element count, the unpadded bytes and the tiled,
//! padded allocation all fit in `i64` (the arithmetic is the model's, in
//! `model::sizes`).

use crate::base::error::{Error, ErrorKind, Span};
use crate::model::array::UncheckedArray;
use crate::model::sizes::allocated_bytes;
use crate::model::source::Attr;
use crate::rules::collect::{report, Collector};

/// `shape_ok`: `minor_to_major`, the tiles and `L(n)` passed their rules,
/// so the allocation can be computed.
pub(crate) const fn check(s: &UncheckedArray, c: &mut Collector, shape_ok: bool) {
    let map = &s.source;
    let mut count: u64 = 1;
    let mut i = 0;
    while i < s.rank as usize {
        if let Some(n) = s.dims[i].layout_size() {
            match count.checked_mul(n) {
                Some(v) if v <= i64::MAX as u64 => count = v,
                _ => {
                    report!(
                        c,
                        Error::wide(
                            ErrorKind::ElementCountOverflow,
                            map.dim(i),
                            [i as i128, n as i128, 0]
                        )
                    );
                    return;
                }
            }
        }
        i += 1;
    }
    let width = s.element_type.byte_width() as u64;
    match count.checked_mul(width) {
        Some(b) if b <= i64::MAX as u64 => {}
        _ => {
            report!(
                c,
                Error::wide(
                    ErrorKind::ByteSizeOverflow,
                    map.whole(),
                    [count as i128, width as i128, 0]
                )
            );
            return;
        }
    }
    if !shape_ok || s.unbounded_count() > 0 {
        return;
    }
    if let Err(e) = allocated_bytes(s) {
        let span = if matches!(e.kind(), ErrorKind::AllocationOverflow) {
            if s.layout.tile_count > 0 {
                map.attr(Attr::Tiles)
            } else {
                map.whole()
            }
        } else {
            Span::NONE
        };
        report!(c, e.with_span(span));
    }
}
