//! Rule group: tiles. Each tile level has entries; each entry is a
//! positive size or `*`; a level does not end with `*`.

use crate::base::error::{Error, ErrorKind};
use crate::base::limits::COMBINE_ENTRY as COMBINE;
use crate::model::array::UncheckedArray;
use crate::rules::collect::{report, Collector};

/// Returns `true` when every tile level is well formed (the size rule
/// needs that to compute the tiled allocation).
pub(crate) const fn check(s: &UncheckedArray, c: &mut Collector) -> bool {
    let l = &s.layout;
    let map = &s.source;
    let mut ok = true;
    let mut level = 0;
    while level < l.tile_count as usize {
        let start = l.tile_entry_index(level, 0);
        let end = l.tile_ends[level] as usize;
        if start == end {
            ok = false;
            report!(
                c,
                Error::new(ErrorKind::EmptyTile, map.tile(level), [level as i64, 0, 0]),
                false
            );
        }
        let mut j = start;
        while j < end {
            let v = l.tile_entries[j];
            let pos = (j - start) as i64;
            let e = if v == 0 {
                Some(Error::new(
                    ErrorKind::ZeroTileEntry,
                    map.tile_entry(j),
                    [level as i64, pos, 0],
                ))
            } else if v == COMBINE && j + 1 == end {
                Some(Error::new(
                    ErrorKind::TrailingCombine,
                    map.tile_entry(j),
                    [level as i64, pos, 0],
                ))
            } else if v < 0 && v != COMBINE {
                Some(Error::new(
                    ErrorKind::NegativeTileEntry,
                    map.tile_entry(j),
                    [level as i64, pos, v],
                ))
            } else {
                None
            };
            if let Some(e) = e {
                ok = false;
                report!(c, e, false);
            }
            j += 1;
        }
        level += 1;
    }
    ok
}
