//! What an allocation of the report is, and what to change: the tiled
//! shape (as printed, from the `XLA label:`, or inferred), its sizes by the
//! library, the causes of its padding in words, and the dimension order
//! (with merges of adjacent dimensions) that pads least.
//!
//! # The tiling rule (inferred)
//!
//! The TPU compiler chooses the tiles of an array from its element type and
//! the size `s` of its second-most-minor physical dimension (the dimension
//! named second in `minor_to_major`). Shapes printed without tiles get:
//!
//! | element type | `s` ≤ 2 | `s` 3 or 4 | `s` > 4 | evidence |
//! |---|---|---|---|---|
//! | 32-bit (`f32`, `s32`, `u32`) | `T(2,128)` | `T(4,128)` | `T(8,128)` | public reports: `f32[29184,1,2560]` at `T(2,128)`, `s32[8388608,8,4]{0,2,1:T(4,128)}` in a label, `f32[256,512,128,2]{3,2,1,0}` is 8.00G for 128.00M and `f32[128,6]{1,0}` 21.3x in vmem only with `T(8,128)` |
//! | `pred` | `T(2,128)E(32)` | `T(4,128)E(32)` | `T(8,128)E(32)` | a public report: `pred[64,512,2048]{2,1,0:T(8,128)E(32)}`; the small rows by analogy with 32-bit types |
//! | 16-bit (`bf16`, `f16`, `s16`, `u16`) | `T(2,128)(2,1)` | `T(4,128)(2,1)` | `T(8,128)(2,1)` | TPU shapes in `layout-cli/tests/data/xla_vectors.jsonl` (`bf16[..]{1,0:T(8,128)(2,1)}`, `T(2,128)(2,1)`); `T(4,128)(2,1)` by analogy |
//! | 8-bit (`s8`, `u8`, `f8*`) | `T(4,128)(4,1)` | `T(4,128)(4,1)` | `T(8,128)(4,1)` | `s8[..]{1,0:T(8,128)(4,1)}` in the same vectors; the small rows by analogy, not seen in a report |
//!
//! Other element types (64-bit, complex, sub-byte) and arrays of rank 0 or
//! 1 get no tiling: their size is taken as printed, and the entry says so.
//! Every tiling from this rule is marked inferred.
//!
//! # The best order
//!
//! For each allocation with a shape, every order of its dimensions is tried
//! (all `minor_to_major` permutations, each tiled by the rule above), and
//! so is every merge of logically adjacent dimensions (a reshape: `[a,b]`
//! to `[a*b]`), with every order of the merged shape. That is exhaustive up
//! to rank 6 ([`EXHAUSTIVE_RANK`]; at most 1,631 shapes). Past rank 6 the
//! search is a bounded heuristic: the shape's own order and every order
//! that names two dimensions as the minor-most and second-most-minor and
//! keeps the rest in their original order, with no merge or one merge of
//! two adjacent dimensions (rank³ shapes at most). Merges down to rank 1
//! are not tried, and rank-1 allocations get no advice: the rule has no
//! tiling for rank 1.
//!
//! The smallest allocation wins; ties go to fewer merges, then to the order
//! closest to the original (fewest pairs of dimensions swapped), then to
//! the smaller `minor_to_major`. A best that saves nothing is no advice.
//!
//! Uses: [`super::read`] (the compiler's units).

use layout_core::{parse_array, ArrayShape, ElementType, COMBINE_ENTRY};

use super::read::compiler_units;

/// Up to this rank the best-order search tries every order and merge.
pub const EXHAUSTIVE_RANK: usize = 6;

/// Where an allocation's tiling came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The `Shape:` line printed it.
    Shape,
    /// Taken from the tiled result shape in the `XLA label:`.
    Label,
    /// Inferred by the rule ([`infer_tiling`]).
    Inferred,
    /// No tiles: printed without, and the rule does not apply.
    None,
}

/// The tile and element-size part of a layout for the TPU, by the rule in
/// the module docs: e.g. `T(8,128)`, `T(2,128)(2,1)`, `T(8,128)E(32)`;
/// `None` where the rule does not apply (rank below 2, other types).
/// `m2m` is `minor_to_major`.
pub fn infer_tiling(element: ElementType, dims: &[u64], m2m: &[usize]) -> Option<String> {
    if dims.len() < 2 || m2m.len() != dims.len() {
        return None;
    }
    let s = *dims.get(*m2m.get(1)?)?;
    let rows = match s {
        0..=2 => 2,
        3 | 4 => 4,
        _ => 8,
    };
    match element {
        ElementType::Pred => Some(format!("T({rows},128)E(32)")),
        ElementType::F32 | ElementType::S32 | ElementType::U32 => Some(format!("T({rows},128)")),
        ElementType::Bf16 | ElementType::F16 | ElementType::S16 | ElementType::U16 => {
            Some(format!("T({rows},128)(2,1)"))
        }
        t if t.bit_width() == 8 => Some(format!("T({},128)(4,1)", rows.max(4))),
        _ => None,
    }
}

/// The text of an array shape: `f32[2,3]{0,1:T(2,128)}`.
pub fn shape_text(
    element: ElementType,
    dims: &[u64],
    m2m: &[usize],
    tiles: Option<&str>,
) -> String {
    let d: Vec<String> = dims.iter().map(u64::to_string).collect();
    let m: Vec<String> = m2m.iter().map(usize::to_string).collect();
    match tiles {
        Some(t) => format!("{element}[{}]{{{}:{t}}}", d.join(","), m.join(",")),
        None => format!("{element}[{}]{{{}}}", d.join(","), m.join(",")),
    }
}

/// The static dimensions and `minor_to_major` of `a`; `None` with a
/// dynamic or unbounded dimension.
pub fn dims_and_order(a: &ArrayShape) -> Option<(Vec<u64>, Vec<usize>)> {
    let mut dims = Vec::with_capacity(a.rank());
    for d in a.dims() {
        match d {
            layout_core::Dim::Static(n) => dims.push(*n),
            _ => return None,
        }
    }
    let m2m = a
        .layout()
        .minor_to_major()
        .iter()
        .map(|&d| usize::try_from(d).ok())
        .collect::<Option<Vec<usize>>>()?;
    Some((dims, m2m))
}

/// The tiled shape of text given without tiles: `printed` itself if it has
/// tiles or `E(n)`; else the label's result shape if it is the same array
/// with tiles; else the inferred tiling, if the rule applies.
pub fn tiled(printed: ArrayShape, label: Option<&str>) -> (ArrayShape, Source) {
    let l = printed.layout();
    if l.tile_count() > 0 || l.element_size_in_bits() > 0 {
        return (printed, Source::Shape);
    }
    if let Some(from_label) = label.and_then(label_shape) {
        let same = from_label.element_type() == printed.element_type()
            && from_label.dims() == printed.dims()
            && from_label.layout().tile_count() > 0;
        if same {
            return (from_label, Source::Label);
        }
    }
    if let Some((dims, m2m)) = dims_and_order(&printed) {
        if let Some(t) = infer_tiling(printed.element_type(), &dims, &m2m) {
            let text = shape_text(printed.element_type(), &dims, &m2m, Some(&t));
            if let Ok(s) = parse_array(&text) {
                return (s, Source::Inferred);
            }
        }
    }
    (printed, Source::None)
}

/// The result shape of an `XLA label:` (`%fusion.12 = f32[..]{..} fusion(..)`),
/// if it is there whole and parses; a label cut off inside it gives `None`.
pub fn label_shape(label: &str) -> Option<ArrayShape> {
    let (_, rest) = label.split_once("= ")?;
    let rest = rest.trim_start();
    let mut depth = 0usize;
    let mut end = None;
    for (i, c) in rest.char_indices() {
        match c {
            '[' | '{' | '(' => depth += 1,
            ']' | '}' | ')' => depth = depth.checked_sub(1)?,
            ' ' if depth == 0 => {
                end = Some(i);
                break;
            }
            _ => {}
        }
    }
    // Cut off inside the shape: no end, or brackets still open.
    let text = &rest[..end?];
    parse_array(text).ok()
}

/// The tiling of `a` as text: its tiles, `E(n)` and `L(n)` (`T(8,128)E(32)`);
/// `None` when it has none of them.
pub fn tiling_text(a: &ArrayShape) -> Option<String> {
    let text = a.to_string();
    let (_, layout) = text.split_once('{')?;
    let (_, attrs) = layout.trim_end_matches('}').split_once(':')?;
    (!attrs.is_empty()).then(|| attrs.to_string())
}

/// A dimension named by number and letter: `dim 2 (x)`, or `dim 7`.
fn dim_name(a: &ArrayShape, d: usize) -> String {
    match a.dimension_letter(d) {
        Some(c) => format!("dim {d} ({c})"),
        None => format!("dim {d}"),
    }
}

/// A ratio for people: `64.0x`, `1.04x`.
fn ratio(num: u64, den: u64) -> String {
    if den == 0 {
        return "-".to_string();
    }
    #[allow(clippy::cast_precision_loss)] // a factor to two digits
    let r = num as f64 / den as f64;
    if r >= 10.0 {
        format!("{r:.1}x")
    } else {
        format!("{r:.2}x")
    }
}

/// Where the padding of `a` comes from, in words: each physical dimension
/// the first tile level rounds up (number, letter, to which multiple, by
/// how much), further tile levels that add padding, `E(n)` widening or
/// packing and `L(n)`. Empty when nothing pads.
pub fn causes(a: &ArrayShape) -> Vec<String> {
    let mut out = Vec::new();
    let l = a.layout();
    let m2m = l.minor_to_major();
    let Ok(physical) = a.physical_shape(0) else {
        return out;
    };
    let p = physical.as_slice();
    if let Some(tile) = l.tile(0) {
        let entries = tile.raw();
        let tile_text = tiling_text(a)
            .and_then(|t| t.split(')').next().map(|t| format!("{t})")))
            .unwrap_or_default();
        let k = entries.len().min(p.len());
        for j in 0..k {
            let t = entries[entries.len() - 1 - j];
            let size = p[p.len() - 1 - j];
            if t == COMBINE_ENTRY || t <= 0 {
                continue;
            }
            let t = t.unsigned_abs();
            let Some(up) = size.div_ceil(t).checked_mul(t) else {
                continue;
            };
            if up == size {
                continue;
            }
            let Some(&d) = m2m.get(j) else { continue };
            let Ok(d) = usize::try_from(d) else { continue };
            let place = match j {
                0 => "minor-most".to_string(),
                1 => "second-most-minor".to_string(),
                2 => "third-most-minor".to_string(),
                n => format!("minor position {}", n + 1),
            };
            let to = if up == t {
                format!("{up}")
            } else {
                format!("{up}, the next multiple of {t}")
            };
            out.push(format!(
                "{} = {size} is {place}: {tile_text} rounds it up to {to}: {}",
                dim_name(a, d),
                ratio(up, size.max(1))
            ));
        }
    }
    // Tile levels past the first: padding they add beyond the first's.
    let first = a.physical_shape(1).ok().and_then(|s| {
        s.as_slice()
            .iter()
            .try_fold(1u64, |acc, &d| acc.checked_mul(d))
    });
    if let (Some(first), true) = (first, l.tile_count() > 1) {
        let tiled_all = a.tiled_shape().ok().and_then(|s| {
            s.as_slice()
                .iter()
                .try_fold(1u64, |acc, &d| acc.checked_mul(d))
        });
        if let Some(t) = tiled_all.filter(|&t| t > first) {
            out.push(format!(
                "the sub-tiles pad further: {} slots instead of {}: {}",
                t,
                first,
                ratio(t, first)
            ));
        }
    }
    let e = l.element_size_in_bits();
    let natural = u64::from(a.element_type().byte_width()) * 8;
    if let Ok(e) = u64::try_from(e) {
        if e > natural {
            out.push(format!(
                "E({e}): each {} is stored in {e} bits instead of {natural}: {}",
                a.element_type(),
                ratio(e, natural)
            ));
        } else if e > 0 && e < natural {
            out.push(format!(
                "E({e}): {} values are packed {} to a byte (smaller, not padding)",
                a.element_type(),
                8 / e.max(1)
            ));
        }
    }
    let tail = l.tail_padding_alignment();
    if tail > 1 {
        out.push(format!(
            "L({tail}): the allocation is rounded up to a multiple of {tail} elements"
        ));
    }
    out
}

/// The best shape for an allocation: the same array with another order
/// (and merges) and the inferred tiling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Best {
    /// The shape, tiled: `s32[8388608,8,4]{0,2,1:T(4,128)}`.
    pub shape: String,
    /// Its allocation in bytes.
    pub bytes: u64,
    /// What to write in the program: `transpose to s32[8,4,8388608] (axes
    /// 1,2,0)`, `reshape to f32[256,512,256]`.
    pub change: String,
}

/// One candidate of the search: its key (smaller is better) and shape.
struct Candidate {
    key: (u64, usize, usize, Vec<usize>),
    groups: Vec<(usize, usize)>,
    dims: Vec<u64>,
    m2m: Vec<usize>,
    text: String,
}

/// Pairs of dimensions ordered one way in `a` and the other in `b`
/// (both `minor_to_major` of the same dimensions).
fn swapped_pairs(a: &[usize], b: &[usize]) -> usize {
    let mut pos = vec![0usize; a.len()];
    for (i, &d) in a.iter().enumerate() {
        if let Some(p) = pos.get_mut(d) {
            *p = i;
        }
    }
    let mapped: Vec<usize> = b
        .iter()
        .map(|&d| pos.get(d).copied().unwrap_or(0))
        .collect();
    let mut n = 0;
    for i in 0..mapped.len() {
        for j in i + 1..mapped.len() {
            if mapped[i] > mapped[j] {
                n += 1;
            }
        }
    }
    n
}

/// All orders of `0..n` (Heap's algorithm, iteratively).
fn permutations(n: usize) -> Vec<Vec<usize>> {
    let mut p: Vec<usize> = (0..n).collect();
    let mut out = vec![p.clone()];
    let mut c = vec![0usize; n];
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                p.swap(0, i);
            } else {
                p.swap(c[i], i);
            }
            out.push(p.clone());
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    out
}

/// The orders the heuristic tries past [`EXHAUSTIVE_RANK`]: `original`,
/// and each pair `(i, j)` as minor-most and second-most-minor with the rest
/// in `original`'s order.
fn heuristic_orders(original: &[usize]) -> Vec<Vec<usize>> {
    let mut out = vec![original.to_vec()];
    for &i in original {
        for &j in original {
            if i == j {
                continue;
            }
            let mut o = vec![i, j];
            o.extend(original.iter().copied().filter(|&d| d != i && d != j));
            out.push(o);
        }
    }
    out
}

/// Merge patterns: groups of adjacent dimensions `(first, last)`, from a
/// bit mask over the `rank - 1` boundaries (a set bit merges across it).
fn groups_of(rank: usize, mask: u64) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for d in 0..rank {
        let merge_next = d + 1 < rank && mask >> d & 1 == 1;
        if !merge_next {
            out.push((start, d));
            start = d + 1;
        }
    }
    out
}

/// The group order `m2m` (over groups) spelt out over the original
/// dimensions: a group's later dimension is the more minor.
fn expand(groups: &[(usize, usize)], m2m: &[usize]) -> Vec<usize> {
    m2m.iter()
        .flat_map(|&g| {
            let (a, b) = groups[g];
            (a..=b).rev()
        })
        .collect()
}

/// The order and merges of `a`'s array that pad least ([`Best`]); `None`
/// when none saves anything over `current` bytes (or `a` has a dynamic
/// dimension). See the module docs for the search.
pub fn best_order(a: &ArrayShape, current: u64) -> Option<Best> {
    let (dims, original) = dims_and_order(a)?;
    let element = a.element_type();
    let rank = dims.len();
    let exhaustive = rank <= EXHAUSTIVE_RANK;
    if rank < 2 {
        return None;
    }
    let masks: Vec<u64> = if exhaustive {
        (0..1u64 << (rank - 1)).collect()
    } else {
        std::iter::once(0)
            .chain((0..rank - 1).map(|b| 1u64 << b))
            .collect()
    };
    let mut best: Option<Candidate> = None;
    for mask in masks {
        let groups = groups_of(rank, mask);
        // No rule tiles rank 1: merging down to it is not tried.
        if groups.len() < 2 {
            continue;
        }
        let Some(merged) = groups
            .iter()
            .map(|&(s, e)| {
                dims[s..=e]
                    .iter()
                    .try_fold(1u64, |acc, &d| acc.checked_mul(d))
            })
            .collect::<Option<Vec<u64>>>()
        else {
            continue;
        };
        let merges = rank - groups.len();
        let orders = if exhaustive {
            permutations(groups.len())
        } else {
            // The original order over groups: groups in `original`'s order
            // of their last dimension.
            let mut by_group: Vec<usize> = (0..groups.len()).collect();
            by_group.sort_by_key(|&g| original.iter().position(|&d| d == groups[g].1));
            heuristic_orders(&by_group)
        };
        for m2m in orders {
            let tiles = infer_tiling(element, &merged, &m2m);
            let text = shape_text(element, &merged, &m2m, tiles.as_deref());
            let Ok(s) = parse_array(&text) else { continue };
            let Ok(bytes) = s.size_in_bytes() else {
                continue;
            };
            let swaps = swapped_pairs(&original, &expand(&groups, &m2m));
            let key = (bytes, merges, swaps, m2m.clone());
            if best.as_ref().is_none_or(|b| key < b.key) {
                best = Some(Candidate {
                    key,
                    groups: groups.clone(),
                    dims: merged.clone(),
                    m2m,
                    text,
                });
            }
        }
    }
    let best = best.filter(|b| b.key.0 < current)?;
    let change = change_in_words(element, &best, current);
    Some(Best {
        shape: best.text,
        bytes: best.key.0,
        change,
    })
}

/// The change as a reshape and a transpose in the user's program.
fn change_in_words(element: ElementType, best: &Candidate, current: u64) -> String {
    let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    let mut steps = Vec::new();
    if best.groups.iter().any(|&(s, e)| s != e) {
        let merged: Vec<String> = best
            .groups
            .iter()
            .filter(|&&(s, e)| s != e)
            .map(|&(s, e)| format!("dims {s}..{e}"))
            .collect();
        steps.push(format!(
            "reshape to {element}[{}] (merging {})",
            list(&best.dims),
            merged.join(", ")
        ));
    }
    // Row-major in the program: axes major to minor.
    let axes: Vec<usize> = best.m2m.iter().rev().copied().collect();
    if axes.iter().enumerate().any(|(i, &a)| i != a) {
        let dims: Vec<u64> = axes.iter().map(|&a| best.dims[a]).collect();
        let names: Vec<String> = axes.iter().map(usize::to_string).collect();
        steps.push(format!(
            "transpose to {element}[{}] (axes {})",
            list(&dims),
            names.join(",")
        ));
    }
    let bytes = best.key.0;
    format!(
        "{}: {} instead of {}, saves {}",
        steps.join(", then "),
        compiler_units(bytes),
        compiler_units(current),
        compiler_units(current.saturating_sub(bytes))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiled_of(text: &str) -> (String, Source) {
        let (s, src) = tiled(parse_array(text).unwrap(), None);
        (s.to_string(), src)
    }

    #[test]
    fn tiling_inference_follows_the_second_most_minor_dimension() {
        let f32 = ElementType::F32;
        assert_eq!(
            infer_tiling(f32, &[29184, 1, 2560], &[2, 1, 0]).unwrap(),
            "T(2,128)"
        );
        assert_eq!(
            infer_tiling(f32, &[8388608, 8, 4], &[0, 2, 1]).unwrap(),
            "T(4,128)"
        );
        assert_eq!(
            infer_tiling(f32, &[8388608, 8, 4], &[2, 1, 0]).unwrap(),
            "T(8,128)"
        );
        assert_eq!(
            infer_tiling(ElementType::Bf16, &[16, 2], &[1, 0]).unwrap(),
            "T(8,128)(2,1)"
        );
        assert_eq!(
            infer_tiling(ElementType::Bf16, &[4, 2], &[1, 0]).unwrap(),
            "T(4,128)(2,1)"
        );
        assert_eq!(
            infer_tiling(ElementType::Pred, &[64, 512, 2048], &[2, 1, 0]).unwrap(),
            "T(8,128)E(32)"
        );
        assert_eq!(
            infer_tiling(ElementType::S8, &[2, 100], &[1, 0]).unwrap(),
            "T(4,128)(4,1)"
        );
        assert_eq!(infer_tiling(f32, &[1024], &[0]), None);
        assert_eq!(infer_tiling(ElementType::F64, &[8, 8], &[1, 0]), None);
        assert_eq!(infer_tiling(ElementType::S4, &[8, 8], &[1, 0]), None);
        // The report's numbers: 8.00G for 128.00M.
        let (s, src) = tiled_of("f32[256,512,128,2]{3,2,1,0}");
        assert_eq!(
            (s.as_str(), src),
            ("f32[256,512,128,2]{3,2,1,0:T(8,128)}", Source::Inferred)
        );
        let a = parse_array(&s).unwrap();
        assert_eq!(compiler_units(a.size_in_bytes().unwrap()), "8.00G");
        assert_eq!(
            compiler_units(a.unpacked_size_in_bytes().unwrap()),
            "128.00M"
        );
        // 21.3x in vmem.
        let (s, _) = tiled_of("f32[128,6]{1,0}");
        assert_eq!(parse_array(&s).unwrap().size_in_bytes(), Ok(64 * 1024));
        // Printed tiles are kept; rank 1 is not inferred.
        assert_eq!(tiled_of("f32[2,3]{1,0:T(2,2)}").1, Source::Shape);
        assert_eq!(tiled_of("f32[300]{0}").1, Source::None);
    }

    #[test]
    fn the_label_wins_over_inference_and_a_cut_label_is_ignored() {
        let printed = || parse_array("s32[8388608,8,4]{0,2,1}").unwrap();
        let label =
            "%copy.3 = s32[8388608,8,4]{0,2,1:T(4,128)} copy(s32[8388608,8,4]{2,1,0:T(8,128)} %p)";
        let (s, src) = tiled(printed(), Some(label));
        assert_eq!(
            (s.to_string().as_str(), src),
            ("s32[8388608,8,4]{0,2,1:T(4,128)}", Source::Label)
        );
        let (_, src) = tiled(printed(), Some("%copy.3 = s32[8388608,8,4]{0,2,1:T(4,12"));
        assert_eq!(src, Source::Inferred);
        // A label of another array is not taken.
        let (_, src) = tiled(printed(), Some("%x = s32[8]{0:T(128)} copy(%y)"));
        assert_eq!(src, Source::Inferred);
        assert!(label_shape("register allocator spill slots").is_none());
    }

    #[test]
    fn causes_in_words() {
        let a = parse_array("f32[256,512,128,2]{3,2,1,0:T(8,128)}").unwrap();
        assert_eq!(
            causes(&a),
            ["dim 3 (x) = 2 is minor-most: T(8,128) rounds it up to 128: 64.0x"]
        );
        let a = parse_array("f32[1024,245,64]{1,2,0:T(8,128)}").unwrap();
        assert_eq!(
            causes(&a),
            ["dim 1 (y) = 245 is minor-most: T(8,128) rounds it up to 256, the next multiple of 128: 1.04x"]
        );
        let a = parse_array("f32[29184,1,2560]{2,1,0:T(2,128)}").unwrap();
        assert_eq!(
            causes(&a),
            ["dim 1 (y) = 1 is second-most-minor: T(2,128) rounds it up to 2: 2.00x"]
        );
        let a = parse_array("pred[64,512,2048]{2,1,0:T(8,128)E(32)}").unwrap();
        assert_eq!(
            causes(&a),
            ["E(32): each pred is stored in 32 bits instead of 8: 4.00x"]
        );
        let a = parse_array("f32[3,5]{1,0:L(7)}").unwrap();
        assert_eq!(
            causes(&a),
            ["L(7): the allocation is rounded up to a multiple of 7 elements"]
        );
        assert!(causes(&parse_array("f32[8,128]{1,0:T(8,128)}").unwrap()).is_empty());
    }

    #[test]
    fn best_order_search() {
        // The compiler's label hints {0,2,1:T(4,128)}: 1.00G for 32.00G.
        let a = parse_array("s32[8388608,8,4]{2,1,0:T(8,128)}").unwrap();
        let now = a.size_in_bytes().unwrap();
        assert_eq!(compiler_units(now), "32.00G");
        let b = best_order(&a, now).unwrap();
        assert_eq!(b.shape, "s32[8388608,8,4]{0,2,1:T(4,128)}");
        assert_eq!(compiler_units(b.bytes), "1.00G");
        assert_eq!(
            b.change,
            "transpose to s32[8,4,8388608] (axes 1,2,0): 1.00G instead of 32.00G, saves 31.00G"
        );
        // The last two dimensions swapped: no padding at all.
        let a = parse_array("f32[256,512,128,2]{3,2,1,0:T(8,128)}").unwrap();
        let b = best_order(&a, a.size_in_bytes().unwrap()).unwrap();
        assert_eq!(b.shape, "f32[256,512,128,2]{2,3,1,0:T(2,128)}");
        assert_eq!(b.bytes, 128 << 20);
        // A merge where no order pads less: [3,5,...] can't avoid padding.
        let a = parse_array("f32[5,8,16]{2,1,0:T(8,128)}").unwrap();
        let b = best_order(&a, a.size_in_bytes().unwrap()).unwrap();
        assert_eq!(b.shape, "f32[5,128]{1,0:T(8,128)}");
        assert!(
            b.change
                .starts_with("reshape to f32[5,128] (merging dims 1..2)"),
            "{}",
            b.change
        );
        // Nothing better: no advice.
        let a = parse_array("f32[8,128]{1,0:T(8,128)}").unwrap();
        assert_eq!(best_order(&a, a.size_in_bytes().unwrap()), None);
        // Past rank 6 the heuristic still finds the padding-free order.
        let a = parse_array("f32[2,2,2,2,2,2,128,2]{7,6,5,4,3,2,1,0:T(8,128)}").unwrap();
        let b = best_order(&a, a.size_in_bytes().unwrap()).unwrap();
        assert_eq!(b.bytes, a.unpacked_size_in_bytes().unwrap());
    }

    #[test]
    fn helpers() {
        assert_eq!(permutations(3).len(), 6);
        assert_eq!(permutations(0), [Vec::<usize>::new()]);
        assert_eq!(groups_of(3, 0b10), [(0, 0), (1, 2)]);
        assert_eq!(expand(&[(0, 0), (1, 2)], &[1, 0]), [2, 1, 0]);
        assert_eq!(swapped_pairs(&[2, 1, 0], &[0, 2, 1]), 2);
        assert_eq!(swapped_pairs(&[2, 1, 0], &[0, 1, 2]), 3);
    }
}
