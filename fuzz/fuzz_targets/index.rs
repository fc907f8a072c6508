//! Fuzz target for the index math: offsets, the inverse, strides, walks,
//! windows, plans and static layouts, on shapes built from a structured
//! reading of the input (valid ones and ones the validator must refuse).
//!
//! The input is read as a small program (see `Reader`): it picks an
//! element type, dims, a `minor_to_major` order (a permutation, or
//! garbage), tile levels, attributes and legacy padding, writes them as
//! shape text, then picks index values, offsets and a window.
#![no_main]

use layout_core::{
    compare_indices, parse_array, parse_array_unvalidated, validate, validate_all, ArrayShape,
    ErrorKind, PaddingValue, Plan, StaticLayout, UncheckedArray, ALL_ELEMENT_TYPES,
};
use libfuzzer_sys::fuzz_target;

/// Most callbacks a window walk may make before the target stops it.
const MAX_WINDOW_CALLS: u64 = 2048;
/// Allocations up to this many slots are checked slot by slot.
const MAX_SLOT_SCAN: u64 = 512;

/// Reads the fuzz input front to back; past its end every read is 0.
struct Reader<'a> {
    data: &'a [u8],
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    fn u64(&mut self) -> u64 {
        let mut v = 0u64;
        for _ in 0..8 {
            v = (v << 8) | u64::from(self.byte());
        }
        v
    }

    /// A size or index: mostly small, sometimes at an edge.
    fn number(&mut self) -> u64 {
        let b = self.byte();
        match b {
            0..=159 => u64::from(b % 20),
            160..=199 => u64::from(b - 160) * 37,
            200..=209 => 0,
            210..=219 => 1,
            220 => u64::MAX,
            221 => u64::MAX - 1,
            222 => i64::MAX as u64,
            223 => (i64::MAX as u64) + 1,
            224 => 1 << 32,
            225 => 1 << 40,
            226 => (1 << 31) - 1,
            227 => 128,
            228 => 1024,
            229 => 65_536,
            _ => self.u64() >> (b - 229).min(63),
        }
    }

    /// A signed number for tile entries and attributes.
    fn signed(&mut self) -> i128 {
        let b = self.byte();
        match b {
            0..=179 => i128::from(b % 9) + 1,
            180..=199 => 0,
            200..=209 => -i128::from(b - 199),
            210 => i128::from(i64::MIN),
            211 => i128::from(i64::MAX),
            212 => i128::from(u64::MAX),
            213 => 128,
            214 => 256,
            _ => i128::from(self.u64() as i64),
        }
    }
}

/// A shape text and the legacy padding to apply to it.
struct Generated {
    text: String,
    padding: Option<(Vec<u64>, PaddingValue)>,
}

/// Writes a shape description as text.
fn generate(r: &mut Reader<'_>) -> Generated {
    let mut text = String::new();
    let t = r.byte();
    if t == 255 {
        text.push_str("f33");
    } else {
        text.push_str(ALL_ELEMENT_TYPES[usize::from(t) % ALL_ELEMENT_TYPES.len()].name());
    }
    let rank = usize::from(r.byte() % 9);
    text.push('[');
    let mut sizes = Vec::with_capacity(rank);
    for d in 0..rank {
        if d > 0 {
            text.push(',');
        }
        let kind = r.byte();
        let n = r.number();
        sizes.push(n);
        match kind % 16 {
            0 => text.push_str(&format!("<={n}")),
            1 if kind > 200 => text.push('?'),
            _ => text.push_str(&n.to_string()),
        }
    }
    text.push(']');
    let flags = r.byte();
    if flags & 1 == 0 {
        // No layout: the default, descending.
        return Generated {
            text,
            padding: padding(r, &sizes, flags),
        };
    }
    text.push('{');
    // minor_to_major: a permutation (shuffled by the input) or garbage.
    let mut m2m: Vec<i128> = (0..rank as i128).rev().collect();
    for i in (1..m2m.len()).rev() {
        let j = usize::from(r.byte()) % (i + 1);
        m2m.swap(i, j);
    }
    match (flags >> 1) & 7 {
        0 if !m2m.is_empty() => {
            let at = usize::from(r.byte()) % m2m.len();
            m2m[at] = r.signed() - 2;
        }
        1 => {
            m2m.pop();
        }
        2 => m2m.push(i128::from(r.byte() % 10)),
        _ => {}
    }
    let list: Vec<String> = m2m.iter().map(i128::to_string).collect();
    text.push_str(&list.join(","));
    let levels = (flags >> 4) & 3;
    let attrs = r.byte();
    if levels > 0 || attrs & 0x0f != 0 {
        text.push(':');
    }
    if levels > 0 {
        text.push('T');
    }
    for _ in 0..levels {
        let entries = usize::from(r.byte() % (rank as u8 + 3));
        let list: Vec<String> = (0..entries)
            .map(|_| {
                let b = r.byte();
                if b < 40 {
                    "*".to_string()
                } else {
                    r.signed().to_string()
                }
            })
            .collect();
        text.push_str(&format!("({})", list.join(",")));
    }
    if attrs & 1 != 0 {
        text.push_str(&format!("L({})", r.signed()));
    }
    if attrs & 2 != 0 {
        let e = r.byte();
        let bits = if e < 200 {
            i128::from(e % 9)
        } else {
            r.signed()
        };
        text.push_str(&format!("E({bits})"));
    }
    if attrs & 4 != 0 {
        let s = r.byte();
        let space = if s < 200 {
            i128::from(s % 4)
        } else {
            r.signed()
        };
        text.push_str(&format!("S({space})"));
    }
    if attrs & 8 != 0 {
        text.push_str(&format!("P({})", r.signed()));
    }
    text.push('}');
    Generated {
        text,
        padding: padding(r, &sizes, flags),
    }
}

/// Legacy padding for some inputs: per-dim padded sizes (mostly at least
/// the size, sometimes smaller or of the wrong length).
fn padding(r: &mut Reader<'_>, sizes: &[u64], flags: u8) -> Option<(Vec<u64>, PaddingValue)> {
    if flags & 0x40 == 0 {
        return None;
    }
    let mut padded: Vec<u64> = sizes
        .iter()
        .map(|&s| {
            let b = r.byte();
            if b < 200 {
                s.saturating_add(u64::from(b % 4))
            } else {
                r.number()
            }
        })
        .collect();
    if flags & 0x80 != 0 {
        padded.push(r.number());
    }
    let value = match r.byte() % 3 {
        0 => PaddingValue::Zero,
        1 => PaddingValue::Highest,
        _ => PaddingValue::Unknown,
    };
    Some((padded, value))
}

fuzz_target!(|data: &[u8]| {
    let mut r = Reader { data };
    let g = generate(&mut r);
    if show_text() {
        eprintln!("index: {} padding {:?}", g.text, g.padding);
    }
    let Ok(mut unchecked) = parse_array_unvalidated(&g.text) else {
        return;
    };
    let plain = unchecked;
    if let Some((padded, value)) = &g.padding {
        match unchecked.with_legacy_padding(padded, *value) {
            Ok(u) => unchecked = u,
            Err(e) => {
                assert_ne!(padded.len(), unchecked.rank(), "{}: {e:?}", g.text);
                assert_eq!(e.kind(), ErrorKind::PaddingLength);
            }
        }
    }
    if unchecked == plain {
        // Without padding, the text alone decides.
        let direct = parse_array(&g.text);
        let checked = validate(&unchecked);
        assert_eq!(direct, checked, "{}: parse_array vs validate", g.text);
    }
    let shape = check_validation(&unchecked, &g.text);
    if let Some(shape) = shape {
        check_valid(&shape, &g.text, &mut r);
    }
});

/// Whether to print each generated shape (`LAYOUT_FUZZ_SHOW=1`), to read
/// what a corpus entry or a crash input stands for.
fn show_text() -> bool {
    static SHOW: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SHOW.get_or_init(|| std::env::var_os("LAYOUT_FUZZ_SHOW").is_some())
}

/// `validate` succeeds exactly when `validate_all` reports nothing, and
/// fails with `validate_all`'s first error.
fn check_validation(u: &UncheckedArray, text: &str) -> Option<ArrayShape> {
    let all = validate_all(u);
    for e in all.iter() {
        let _ = (e.to_string(), e.help(), e.rule());
    }
    let _ = u.to_string();
    match validate(u) {
        Ok(shape) => {
            assert!(
                all.is_empty(),
                "{text}: validate is Ok but validate_all reports {:?}",
                all.iter().collect::<Vec<_>>()
            );
            assert_eq!(shape.into_unchecked(), *u);
            Some(shape)
        }
        Err(e) => {
            assert!(
                !all.is_empty(),
                "{text}: validate fails ({e:?}), validate_all is empty"
            );
            assert_eq!(
                all.first().map(|f| f.kind()),
                Some(e.kind()),
                "{text}: validate's error is not validate_all's first"
            );
            None
        }
    }
}

/// Everything on a valid shape.
fn check_valid(s: &ArrayShape, text: &str, r: &mut Reader<'_>) {
    let rank = s.rank();
    let _ = (s.size_in_bytes(), s.unpadded_size_in_bytes(), s.to_string());
    for level in 0..=s.layout().tile_count() + 1 {
        let _ = s.physical_shape(level);
    }
    for d in 0..=rank {
        let _ = s.dimension_stride(d);
    }
    let _ = s.byte_strides();
    let _ = s.untiled_multi_index(r.number());

    // Limits an index ranges over; `?` dims have none.
    let limits: Option<Vec<u64>> = s.dims().iter().map(|d| d.layout_size()).collect();
    let plan = Plan::new(s);
    assert_eq!(
        plan.as_ref()
            .map(Plan::allocated_elements)
            .map_err(|e| e.kind()),
        s.allocated_elements().map_err(|e| e.kind()),
        "{text}: Plan::new and allocated_elements disagree"
    );
    let Ok(plan) = plan else {
        // No plan: no offsets either.
        let zeros = vec![0; rank];
        assert!(s.offset(&zeros).is_err(), "{text}: offset without a plan");
        assert!(s.index_of(0).is_none(), "{text}: index_of without a plan");
        return;
    };
    let Some(limits) = limits else {
        unreachable!("{text}: a plan for a shape with `?` dims");
    };
    assert_eq!(plan.rank(), rank);
    assert_eq!(plan.index_dims(), limits.as_slice(), "{text}: index_dims");
    let allocated = plan.allocated_elements();
    let count = s.element_count().expect("element_count of a planned shape");
    assert!(
        count <= allocated,
        "{text}: {count} elements in {allocated} slots"
    );
    if let Ok(tiled) = s.tiled_shape() {
        assert_eq!(tiled, plan.tiled_shape(), "{text}: tiled shapes differ");
    }

    let strides = s.strides();
    if strides.is_some() {
        assert!(s.layout().is_untiled(), "{text}: strides of a tiled layout");
    }
    if let (Some(st), Ok(bytes)) = (&strides, s.byte_strides()) {
        let w = u64::from(s.element_type().byte_width());
        for d in 0..rank {
            assert_eq!(
                s.dimension_stride(d),
                Ok(st.as_slice()[d]),
                "{text}: stride {d}"
            );
            assert_eq!(Some(bytes.as_slice()[d]), st.as_slice()[d].checked_mul(w));
        }
    }
    let statics = StaticProbe::new(s, rank);

    // In-bounds indices: corners and input-chosen ones.
    let mut indices: Vec<Vec<u64>> = Vec::new();
    if count > 0 {
        indices.push(vec![0; rank]);
        indices.push(limits.iter().map(|&l| l - 1).collect());
        for _ in 0..(r.byte() % 8) {
            indices.push(limits.iter().map(|&l| r.number() % l).collect());
        }
    }
    for index in &indices {
        check_index(s, &plan, &statics, index, strides.as_ref(), text);
    }

    // Out-of-bounds and wrongly sized indices are refused.
    let mut wrong: Vec<Vec<u64>> = vec![vec![0; rank + 1], vec![u64::MAX; rank + 1]];
    if rank > 0 {
        wrong.push(vec![0; rank - 1]);
        let d = usize::from(r.byte()) % rank;
        let mut past = vec![0; rank];
        past[d] = limits[d].saturating_add(r.number() % 3);
        if past[d] >= limits[d] {
            wrong.push(past);
        }
        wrong.push(vec![u64::MAX; rank]);
    }
    for index in &wrong {
        let in_bounds = s.index_in_bounds(index);
        assert_eq!(
            in_bounds,
            plan.in_bounds(index),
            "{text}: in_bounds {index:?}"
        );
        if in_bounds {
            continue;
        }
        assert!(
            s.offset(index).is_err(),
            "{text}: offset({index:?}) of a bad index"
        );
        assert!(
            plan.offset(index).is_err(),
            "{text}: plan.offset({index:?})"
        );
        assert!(s.untiled_linear_index(index).is_err());
        let _ = plan.offset_unchecked(index);
        for level in 0..=plan.tile_levels() + 1 {
            let _ = plan.physical_index(index, level);
        }
        let mut walked = index.clone();
        assert!(!s.next_index(&mut walked), "{text}: next_index({index:?})");
        assert_eq!(&walked, index);
        assert!(!s.next_index_in_memory_order(&mut walked));
        assert_eq!(&walked, index);
        statics.refuses(index, text);
    }

    // The inverse, at input-chosen offsets and at the edges.
    let mut offsets = vec![0, allocated.saturating_sub(1), allocated, u64::MAX];
    for _ in 0..(r.byte() % 6) {
        let o = r.number();
        offsets.push(if allocated > 0 { o % allocated } else { o });
    }
    for &o in &offsets {
        check_offset(s, &plan, &statics, o, text);
    }
    if allocated <= MAX_SLOT_SCAN {
        // Every live slot holds one element, and there are element_count.
        let live = (0..allocated)
            .filter(|&o| check_offset(s, &plan, &statics, o, text))
            .count() as u64;
        assert_eq!(live, count, "{text}: live slots vs element_count");
    }

    check_window(s, &limits, r, text);
}

/// The inverse at one offset: the shape, the plan and the static layout
/// agree, and a live slot's index maps back to it. Returns whether the
/// slot is live.
fn check_offset(s: &ArrayShape, plan: &Plan, statics: &StaticProbe, o: u64, text: &str) -> bool {
    let found = s.index_of(o);
    assert_eq!(
        found,
        plan.index_of(o),
        "{text}: index_of({o}) differs from the plan's"
    );
    statics.index_of(o, found.as_ref().map(|i| i.as_slice()), text);
    let Some(index) = found else {
        return false;
    };
    let index = index.as_slice();
    assert!(
        o < plan.allocated_elements(),
        "{text}: index_of({o}) past the allocation"
    );
    assert!(
        s.index_in_bounds(index),
        "{text}: index_of({o}) = {index:?} out of bounds"
    );
    assert_eq!(
        s.offset(index),
        Ok(o),
        "{text}: offset(index_of({o}) = {index:?})"
    );
    true
}

/// One in-bounds index through every function that takes one.
fn check_index(
    s: &ArrayShape,
    plan: &Plan,
    statics: &StaticProbe,
    index: &[u64],
    strides: Option<&layout_core::Index>,
    text: &str,
) {
    let allocated = plan.allocated_elements();
    assert!(
        s.index_in_bounds(index),
        "{text}: {index:?} should be in bounds"
    );
    assert!(plan.in_bounds(index));
    let offset = match s.offset(index) {
        Ok(o) => o,
        Err(e) => panic!("{text}: offset({index:?}) failed: {e:?}"),
    };
    assert!(
        offset < allocated,
        "{text}: offset({index:?}) = {offset} >= {allocated}"
    );
    assert_eq!(
        plan.offset(index),
        Ok(offset),
        "{text}: Plan::offset({index:?})"
    );
    assert_eq!(
        plan.offset_unchecked(index),
        offset,
        "{text}: offset_unchecked"
    );
    match s.index_of(offset) {
        Some(back) => assert_eq!(
            back.as_slice(),
            index,
            "{text}: index_of(offset({index:?}))"
        ),
        None => panic!("{text}: index_of({offset}) = None for {index:?}"),
    }
    statics.agrees(index, offset, text);

    let bits = s.element_size_in_bits();
    match s.bit_offset(index) {
        Ok(b) => assert_eq!(Some(b), offset.checked_mul(bits), "{text}: bit_offset"),
        Err(_) => assert!(
            offset.checked_mul(bits).is_none(),
            "{text}: bit_offset failed"
        ),
    }
    let byte = (u128::from(offset) * u128::from(bits) / 8) as u64;
    assert_eq!(
        s.byte_offset(index),
        Ok(byte),
        "{text}: byte_offset({index:?})"
    );
    if let Ok(size) = s.size_in_bytes() {
        assert!(
            byte < size.max(1),
            "{text}: byte offset {byte} past {size} bytes"
        );
    }

    if let Some(st) = strides {
        let dot = index
            .iter()
            .zip(st.as_slice())
            .try_fold(0u64, |acc, (&i, &w)| acc.checked_add(i.checked_mul(w)?));
        assert_eq!(dot, Some(offset), "{text}: strided offset of {index:?}");
    }
    if let Ok(linear) = s.untiled_linear_index(index) {
        let back = s.untiled_multi_index(linear).expect("untiled_multi_index");
        assert_eq!(
            back.as_slice(),
            index,
            "{text}: untiled round trip of {index:?}"
        );
    }

    // Physical indices index the physical shape of their level.
    for level in 0..=plan.tile_levels() {
        let at = plan.physical_index(index, level);
        if let Ok(shape) = s.physical_shape(level) {
            assert_eq!(
                at.len(),
                shape.len(),
                "{text}: physical rank at level {level}"
            );
            for (a, b) in at.as_slice().iter().zip(shape.as_slice()) {
                assert!(
                    a < b,
                    "{text}: physical index {at:?} outside {shape:?} at level {level}"
                );
            }
        }
    }
    // Short and long slices never panic, and are refused by `offset`.
    let mut long = index.to_vec();
    long.push(0);
    assert!(plan.offset(&long).is_err());
    let _ = plan.offset_unchecked(&long);
    let _ = plan.physical_index(&long, 1);
    if let Some((_, short)) = index.split_last() {
        assert!(plan.offset(short).is_err());
        let _ = plan.offset_unchecked(short);
        let _ = plan.physical_index(short, usize::MAX);
    }

    // Walks: one step forward stays in bounds and moves forward.
    let mut next = index.to_vec();
    if s.next_index(&mut next) {
        assert!(
            s.index_in_bounds(&next),
            "{text}: next_index({index:?}) = {next:?}"
        );
        assert_eq!(
            compare_indices(&next, index),
            1,
            "{text}: next_index goes back"
        );
    } else {
        assert_eq!(next, index, "{text}: next_index changed the last index");
        let last: Vec<u64> = plan.index_dims().iter().map(|&l| l - 1).collect();
        assert_eq!(next, last, "{text}: next_index stopped before the end");
    }
    let mut next = index.to_vec();
    if s.next_index_in_memory_order(&mut next) {
        assert!(s.index_in_bounds(&next));
        assert_ne!(next, index);
    } else {
        assert_eq!(next, index);
    }
}

/// A window walk: every index the callback sees is in bounds, on the
/// window's grid, and the walk ends.
fn check_window(s: &ArrayShape, limits: &[u64], r: &mut Reader<'_>, text: &str) {
    let rank = s.rank();
    let mut base = Vec::with_capacity(rank);
    let mut count = Vec::with_capacity(rank);
    let mut incr = Vec::with_capacity(rank);
    for &l in limits {
        let b = r.number();
        base.push(if r.byte() < 200 && l > 0 { b % l } else { b });
        count.push(r.number());
        incr.push(r.number());
    }
    let short = r.byte() == 255 && rank > 0;
    if short {
        incr.pop();
    }
    let mut calls = 0u64;
    s.for_each_index_in(&base, &count, &incr, |index| {
        calls += 1;
        assert!(!short, "{text}: window walk with a short incr");
        assert!(
            s.index_in_bounds(index),
            "{text}: window index {index:?} out of bounds"
        );
        for d in 0..rank {
            let (i, b, c, k) = (index[d], base[d], count[d], incr[d]);
            if c == 0 || k == 0 {
                assert_eq!(i, b, "{text}: pinned dim {d} moved");
            } else {
                assert!(
                    i >= b && i - b < c,
                    "{text}: dim {d} = {i} outside the window"
                );
                assert_eq!(
                    (i - b) % k,
                    0,
                    "{text}: dim {d} = {i} off the window's grid"
                );
            }
        }
        assert!(s.offset(index).is_ok());
        calls < MAX_WINDOW_CALLS
    });
    assert!(calls <= MAX_WINDOW_CALLS);
    if !short && calls == 0 && s.index_in_bounds(&base) {
        assert!(
            !matches!(s.element_count(), Ok(n) if n > 0),
            "{text}: window at {base:?} visits nothing"
        );
    }
}

/// `StaticLayout<R>` for the shape's rank (up to 4), when it builds.
enum StaticProbe {
    None,
    R0(StaticLayout<0>),
    R1(StaticLayout<1>),
    R2(StaticLayout<2>),
    R3(StaticLayout<3>),
    R4(StaticLayout<4>),
}

/// Runs `$body` with `$l` bound to the layout and `$n` to its rank.
macro_rules! with_static {
    ($probe:expr, |$l:ident, $n:ident| $body:expr) => {
        match $probe {
            StaticProbe::None => {}
            StaticProbe::R0($l) => {
                const $n: usize = 0;
                $body
            }
            StaticProbe::R1($l) => {
                const $n: usize = 1;
                $body
            }
            StaticProbe::R2($l) => {
                const $n: usize = 2;
                $body
            }
            StaticProbe::R3($l) => {
                const $n: usize = 3;
                $body
            }
            StaticProbe::R4($l) => {
                const $n: usize = 4;
                $body
            }
        }
    };
}

/// An index as `[usize; N]` (64-bit targets: every `u64` fits).
fn to_array<const N: usize>(index: &[u64]) -> Option<[usize; N]> {
    let v: Vec<usize> = index.iter().map(|&i| i as usize).collect();
    v.try_into().ok()
}

impl StaticProbe {
    fn new(s: &ArrayShape, rank: usize) -> StaticProbe {
        // An `Err` is a layout the static form does not take: skip it.
        match rank {
            0 => StaticLayout::<0>::from_shape(s, "").map_or(StaticProbe::None, StaticProbe::R0),
            1 => StaticLayout::<1>::from_shape(s, "").map_or(StaticProbe::None, StaticProbe::R1),
            2 => StaticLayout::<2>::from_shape(s, "").map_or(StaticProbe::None, StaticProbe::R2),
            3 => StaticLayout::<3>::from_shape(s, "").map_or(StaticProbe::None, StaticProbe::R3),
            4 => StaticLayout::<4>::from_shape(s, "").map_or(StaticProbe::None, StaticProbe::R4),
            _ => StaticProbe::None,
        }
    }

    /// Same offset as the plan for an in-bounds index.
    fn agrees(&self, index: &[u64], offset: u64, text: &str) {
        with_static!(self, |l, N| {
            let dims: Vec<u64> = l.dims().iter().map(|&d| d as u64).collect();
            assert!(
                dims.iter().zip(index).all(|(d, i)| i < d),
                "{text}: dims {dims:?}"
            );
            let at = to_array::<N>(index).expect("rank");
            assert_eq!(
                l.checked_offset(at),
                Some(offset as usize),
                "{text}: StaticLayout offset"
            );
            assert_eq!(l.offset(at), offset as usize);
            assert_eq!(
                l.index_of(offset as usize),
                Some(at),
                "{text}: StaticLayout index_of"
            );
        });
    }

    /// Refuses an index the shape refuses.
    fn refuses(&self, index: &[u64], text: &str) {
        with_static!(self, |l, N| {
            if let Some(at) = to_array::<N>(index) {
                assert_eq!(
                    l.checked_offset(at),
                    None,
                    "{text}: StaticLayout takes {index:?}"
                );
            }
        });
    }

    /// Same inverse as the shape.
    fn index_of(&self, offset: u64, expected: Option<&[u64]>, text: &str) {
        with_static!(self, |l, N| {
            let want = expected.map(|e| to_array::<N>(e).expect("rank"));
            assert_eq!(
                l.index_of(offset as usize),
                want,
                "{text}: StaticLayout index_of({offset})"
            );
        });
    }
}
