//! Fixed capacities. Shapes are fixed-size values (no heap); text or
//! builders that exceed a capacity are refused with
//! [`ErrorKind::CapacityExceeded`](crate::ErrorKind::CapacityExceeded).

/// Most dimensions an array may have.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, ErrorKind, MAX_RANK};
/// assert_eq!(MAX_RANK, 16);
/// let text = format!("f32[{}]", vec!["1"; MAX_RANK + 1].join(","));
/// let err = parse_array(&text).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::CapacityExceeded);
/// assert_eq!(err.to_string(), "rank 17 exceeds this crate's capacity of 16");
/// ```
pub const MAX_RANK: usize = 16;
/// Most tile levels in one layout (`T(..)(..)...`).
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, MAX_TILES};
/// assert_eq!(MAX_TILES, 8);
/// let eight = format!("f32[2]{{0:T{}}}", "(1)".repeat(MAX_TILES));
/// assert_eq!(parse_array(&eight).unwrap().layout().tile_count(), 8);
/// let nine = format!("f32[2]{{0:T{}}}", "(1)".repeat(MAX_TILES + 1));
/// assert_eq!(
///     parse_array(&nine).unwrap_err().to_string(),
///     "number of tiles 9 exceeds this crate's capacity of 8"
/// );
/// ```
pub const MAX_TILES: usize = 8;
/// Most tile entries in one layout, all levels together.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, MAX_TILE_ENTRIES};
/// assert_eq!(MAX_TILE_ENTRIES, 32);
/// let text = format!("f32[2]{{0:T({})}}", vec!["1"; MAX_TILE_ENTRIES + 1].join(","));
/// assert_eq!(
///     parse_array(&text).unwrap_err().to_string(),
///     "number of tile entries 33 exceeds this crate's capacity of 32"
/// );
/// ```
pub const MAX_TILE_ENTRIES: usize = 32;
/// Most split configs in one layout.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, MAX_SPLIT_CONFIGS};
/// assert_eq!(MAX_SPLIT_CONFIGS, 4);
/// let err = parse_array("f32[2,2,2,2,2]{4,3,2,1,0:SC(0:1)(1:1)(2:1)(3:1)(4:1)}").unwrap_err();
/// assert_eq!(err.to_string(), "number of split configs 5 exceeds this crate's capacity of 4");
/// ```
pub const MAX_SPLIT_CONFIGS: usize = 4;
/// Most split indices in one layout, all configs together.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, MAX_SPLIT_INDICES};
/// assert_eq!(MAX_SPLIT_INDICES, 16);
/// let indices: Vec<String> = (1..=17).map(|i| i.to_string()).collect();
/// let text = format!("f32[100]{{0:SC(0:{})}}", indices.join(","));
/// assert_eq!(
///     parse_array(&text).unwrap_err().to_string(),
///     "number of split indices 17 exceeds this crate's capacity of 16"
/// );
/// ```
pub const MAX_SPLIT_INDICES: usize = 16;
/// Most levels of tuples (and buffers, `P(...)`) around a shape.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse, ErrorKind, MAX_DEPTH};
/// assert_eq!(MAX_DEPTH, 32);
/// let nest = |n: usize| format!("{}f32[]{}", "(".repeat(n), ")".repeat(n));
/// assert!(parse(&nest(MAX_DEPTH)).is_ok());
/// assert_eq!(parse(&nest(MAX_DEPTH + 1)).unwrap_err().kind(), ErrorKind::NestingTooDeep);
/// ```
pub const MAX_DEPTH: usize = 32;
/// Longest physical shape any tile sequence can produce: the rank plus, per
/// tile entry, one grid and one within-tile dimension, plus dims prepended
/// for tiles longer than the shape.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, MAX_PHYSICAL_RANK};
/// assert_eq!(MAX_PHYSICAL_RANK, 80);
/// // Each tile entry turns one dimension into two: 4 + 2 + 2.
/// let s = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
/// assert_eq!(s.tiled_shape().unwrap().len(), 8);
/// ```
pub const MAX_PHYSICAL_RANK: usize = MAX_RANK + 2 * MAX_TILE_ENTRIES;
/// Longest text the parser reads: spans are `u32` byte offsets.
///
/// ```
/// # use layout_core as xla_layout;
/// assert_eq!(xla_layout::MAX_TEXT_LEN, 4_294_967_295);
/// ```
pub const MAX_TEXT_LEN: usize = u32::MAX as usize;

/// How `*` is stored in a tile entry (`i64::MIN`, as XLA does).
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, COMBINE_ENTRY};
/// let s = parse_array("bf16[2,3,1004]{2,1,0:T(2,*,128)}").unwrap();
/// assert_eq!(s.layout().tile(0).unwrap().raw(), &[2, COMBINE_ENTRY, 128]);
/// assert_eq!(COMBINE_ENTRY, i64::MIN);
/// ```
pub const COMBINE_ENTRY: i64 = i64::MIN;
