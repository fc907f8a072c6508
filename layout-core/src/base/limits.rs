//! Fixed capacities. Shapes are fixed-size values (no heap); text or
//! builders that exceed a capacity are refused with
//! [`ErrorKind::CapacityExceeded`](crate::ErrorKind::CapacityExceeded).

/// Most dimensions an array may have.
pub const MAX_RANK: usize = 16;
/// Most tile levels in one layout (`T(..)(..)...`).
pub const MAX_TILES: usize = 8;
/// Most tile entries in one layout, all levels together.
pub const MAX_TILE_ENTRIES: usize = 32;
/// Most split configs in one layout.
pub const MAX_SPLIT_CONFIGS: usize = 4;
/// Most split indices in one layout, all configs together.
pub const MAX_SPLIT_INDICES: usize = 16;
/// Most levels of tuples (and buffers, `P(...)`) around a shape.
pub const MAX_DEPTH: usize = 32;
/// Longest physical shape any tile sequence can produce: the rank plus, per
/// tile entry, one grid and one within-tile dimension, plus dims prepended
/// for tiles longer than the shape.
pub const MAX_PHYSICAL_RANK: usize = MAX_RANK + 2 * MAX_TILE_ENTRIES;
/// Longest text the parser reads: spans are `u32` byte offsets.
pub const MAX_TEXT_LEN: usize = u32::MAX as usize;

/// How `*` is stored in a tile entry (`i64::MIN`, as XLA does).
pub const COMBINE_ENTRY: i64 = i64::MIN;
