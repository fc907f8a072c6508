//! Relayout against a per-element reference: random pairs of layouts of
//! the same array (permutations, multi-level tiles, `*`, `L(n)`, `E(n)`,
//! bounded dims, every element type), random source bytes, and the
//! destination every element should land in, from the independent
//! reference model and bit arithmetic written here. Also round trips,
//! padding fill, typed views and every error.

#[path = "support/cases.rs"]
mod cases;
#[path = "support/reference.rs"]
mod reference;
#[path = "support/slots.rs"]
mod slots;

use cases::{case_strategy, tile_strategy, Case};
use proptest::prelude::*;
use slots::{bit, random_bytes, run_checked};
use xla_layout::{
    parse_array, relayout, relayout_bytes, ArrayShape, ElementType, ErrorKind, PaddingValue,
    RelayoutPlan, StaticLayout, View, ViewMut,
};

fn set_bit(buf: &mut [u8], i: usize, v: bool) {
    if v {
        buf[i / 8] |= 1 << (i % 8);
    } else {
        buf[i / 8] &= !(1 << (i % 8));
    }
}

/// Slot width of a case: `E(n)` when set and not 0, else whole bytes.
fn slot_bits(case: &Case, t: ElementType) -> usize {
    match case.element_bits {
        Some(e) if e > 0 => e,
        _ => t.byte_width() as usize * 8,
    }
}

fn dims(case: &Case) -> Vec<usize> {
    case.dims.iter().map(|d| d.0).collect()
}

/// The destination bytes the reference model expects.
fn expected(a: &Case, src: &[u8], b: &Case, dst_len: usize, t: ElementType) -> Vec<u8> {
    let d = dims(a);
    let ra = reference::reference_layout(&d, &a.m2m, &a.tiles, a.tail);
    let rb = reference::reference_layout(&d, &b.m2m, &b.tiles, b.tail);
    let (wa, wb) = (slot_bits(a, t), slot_bits(b, t));
    // Slots of one width are copied whole; otherwise the value's bits.
    let value = if wa == wb { wa } else { t.bit_width() as usize };
    let signed = t.is_signed_integer();
    let mut out = vec![0u8; dst_len];
    for (oa, ob) in ra.offsets.iter().zip(&rb.offsets) {
        let top = bit(src, oa * wa + value - 1);
        for k in 0..wb {
            let v = if k < value {
                bit(src, oa * wa + k)
            } else {
                signed && top
            };
            set_bit(&mut out, ob * wb + k, v);
        }
    }
    out
}

/// A second layout of the same array as `a`.
fn other_layout() -> impl Strategy<Value = (Vec<Vec<Option<usize>>>, usize, Option<usize>, u64)> {
    (
        prop::collection::vec(tile_strategy(4), 0..3),
        prop_oneof![3 => Just(1usize), 1 => 1usize..9],
        prop::option::weighted(0.3, 0usize..9),
        any::<u64>(),
    )
}

fn pair() -> impl Strategy<Value = (Case, Case, u64)> {
    (case_strategy(), other_layout()).prop_map(|(a, (tiles, tail, bits, seed))| {
        let mut m2m = a.m2m.clone();
        let mut s = seed | 1;
        for i in (1..m2m.len()).rev() {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            m2m.swap(i, (s % (i as u64 + 1)) as usize);
        }
        // Bounded on one side, static on the other: same sizes.
        let dims = a.dims.iter().map(|&(n, b)| (n, !b && s % 3 == 0)).collect();
        let b = Case {
            ty: a.ty,
            dims,
            m2m,
            tiles,
            tail,
            element_bits: bits,
            memory_space: None,
        };
        (a, b, seed)
    })
}

/// Pairs of rank 2 or 3 (sizes up to 80, and up to 3 in front) and power-of-two tiles, so
/// that the blocked copies (runs, 8 x 8 blocks, strips of 2 and 4) and
/// their edges run.
fn large_pair() -> impl Strategy<Value = (Case, Case, u64)> {
    let tile = || {
        prop::collection::vec(
            prop_oneof![prop::sample::select(vec![1usize, 2, 4, 8, 16, 32]).prop_map(Some)],
            1..=2,
        )
    };
    let layout = move || (prop::collection::vec(tile(), 0..3), any::<u64>());
    (
        prop::sample::select(vec!["u8", "bf16", "f32", "f64", "s4", "c128"]),
        (prop::option::of(1usize..4), 1usize..80, 1usize..80)
            .prop_map(|(k, x, y)| k.into_iter().chain([x, y]).collect::<Vec<_>>()),
        layout(),
        layout(),
        prop::bool::ANY,
        any::<u64>(),
    )
        .prop_map(|(ty, dims, (ta, pa), (tb, pb), packed, seed)| {
            let shuffle = |mut s: u64| {
                let mut m2m: Vec<usize> = (0..dims.len()).collect();
                for i in (1..m2m.len()).rev() {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    m2m.swap(i, (s % (i as u64 + 1)) as usize);
                }
                m2m
            };
            let case = |tiles, m2m| Case {
                ty,
                dims: dims.iter().map(|&d| (d, false)).collect(),
                m2m,
                tiles,
                tail: 1,
                element_bits: (ty == "s4" && packed).then_some(4),
                memory_space: None,
            };
            (case(ta, shuffle(pa | 1)), case(tb, shuffle(pb | 1)), seed)
        })
}

/// Checks one pair against the reference (or, for slots too narrow for
/// the type, that the plan refuses it).
fn check_pair(a: &Case, b: &Case, seed: u64) -> Result<(), TestCaseError> {
    let (sa, sb) = (
        parse_array(&a.text()).unwrap(),
        parse_array(&b.text()).unwrap(),
    );
    let t = sa.element_type();
    let value = t.bit_width() as usize;
    let (wa, wb) = (slot_bits(a, t), slot_bits(b, t));
    let plan = RelayoutPlan::new(&sa, &sb);
    if wa < value || wb < value || wa > 128 || wb > 128 {
        let e = plan.unwrap_err();
        prop_assert_eq!(e.kind(), ErrorKind::RelayoutMismatch);
        return Ok(());
    }
    let plan = plan.unwrap();
    prop_assert_eq!(plan.source_bytes(), sa.size_in_bytes().unwrap());
    prop_assert_eq!(plan.destination_bytes(), sb.size_in_bytes().unwrap());
    let src = random_bytes(plan.source_bytes() as usize, seed);
    let mut dst = random_bytes(plan.destination_bytes() as usize, !seed);
    plan.run_bytes(&src, &mut dst).unwrap();
    let want = expected(a, &src, b, dst.len(), t);
    prop_assert_eq!(
        dst,
        want,
        "{} -> {} (blocked: {})",
        a.text(),
        b.text(),
        plan.is_blocked()
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn large_arrays_land_where_the_reference_says((a, b, seed) in large_pair()) {
        check_pair(&a, &b, seed)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn every_element_lands_where_the_reference_says((a, b, seed) in pair()) {
        check_pair(&a, &b, seed)?;
    }

    #[test]
    fn there_and_back_keeps_every_element((a, b, seed) in pair()) {
        let (sa, sb) = (parse_array(&a.text()).unwrap(), parse_array(&b.text()).unwrap());
        let Ok(there) = RelayoutPlan::new(&sa, &sb) else { return Ok(()) };
        let back = RelayoutPlan::new(&sb, &sa).unwrap();
        let src = random_bytes(there.source_bytes() as usize, seed);
        let mut mid = vec![0u8; there.destination_bytes() as usize];
        let mut out = vec![0u8; there.source_bytes() as usize];
        there.run_bytes(&src, &mut mid).unwrap();
        back.run_bytes(&mid, &mut out).unwrap();
        // The elements come back; padding comes back as zeros.
        let t = sa.element_type();
        let canonical = expected(&a, &src, &a, src.len(), t);
        // Slots of one width come back whole (narrower ones keep only
        // the value's bits, which `every_element_lands...` checks).
        if slot_bits(&a, t) == slot_bits(&b, t) {
            prop_assert_eq!(out, canonical, "{} <-> {}", a.text(), b.text());
        }
    }
}

/// A `minor_to_major` and its tile levels.
type Layout = (Vec<usize>, Vec<Vec<Option<usize>>>);

/// Tile levels from their sizes: `tiles(&[&[8, 128], &[2, 1]])`.
fn tiles(levels: &[&[usize]]) -> Vec<Vec<Option<usize>>> {
    levels
        .iter()
        .map(|l| l.iter().map(|&n| Some(n)).collect())
        .collect()
}

/// An `r` x `c` array of `ty` in layout `(m2m, tiles)`, with
/// `element_bits` per slot (`None`: the type's own).
fn matrix(
    ty: &'static str,
    (r, c): (usize, usize),
    (m2m, tiles): Layout,
    element_bits: Option<usize>,
) -> Case {
    Case {
        ty,
        dims: vec![(r, false), (c, false)],
        m2m,
        tiles,
        tail: 1,
        element_bits,
        memory_space: None,
    }
}

/// `(a, b, seed)`, or `(b, a, seed)` when `flip`.
fn either_way(a: Case, b: Case, flip: bool, seed: u64) -> (Case, Case, u64) {
    if flip {
        (b, a, seed)
    } else {
        (a, b, seed)
    }
}

/// 4-, 2- and 1-bit types between a byte per value and `E(n)` slots of
/// their width, either way (`E(4)` nibbles, `pred` as `E(1)` bits):
/// row- or column-major, or in `(2,1)` pairs of tiles, at even and odd
/// sizes (the packing and unpacking kernels and the boxes they leave to
/// the element path).
fn nibble_pair() -> impl Strategy<Value = (Case, Case, u64)> {
    let layouts: Vec<Layout> = vec![
        (vec![1, 0], vec![]),
        (vec![0, 1], vec![]),
        (vec![1, 0], tiles(&[&[8, 128], &[2, 1]])),
        (vec![1, 0], tiles(&[&[2, 4], &[2, 1]])),
        (vec![0, 1], tiles(&[&[4, 2], &[2, 1]])),
    ];
    (
        prop::sample::select(vec![
            ("s4", 4),
            ("u4", 4),
            ("s2", 2),
            ("u2", 2),
            ("s1", 1),
            ("u1", 1),
            ("pred", 1),
        ]),
        1usize..20,
        1usize..300,
        prop::sample::select(vec![vec![1, 0], vec![0, 1]]),
        prop::sample::select(layouts),
        prop::bool::ANY,
        any::<u64>(),
    )
        .prop_map(|((ty, bits), r, c, ma, packed, unpack, seed)| {
            // One side a byte per value (untiled), the other packed.
            let bytes = matrix(ty, (r, c), (ma, vec![]), None);
            either_way(bytes, matrix(ty, (r, c), packed, Some(bits)), unpack, seed)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn nibbles_pack_and_unpack_where_the_reference_says((a, b, seed) in nibble_pair()) {
        check_pair(&a, &b, seed)?;
    }
}

/// `E(4)` nibbles transposed, untiled or in `(2,1)` or `(4,1)` sub-tiles
/// of tiles, at even and odd sizes (the nibble transpose takes even ones;
/// odd ones start rows and runs in the middle of a byte).
fn nibble_transpose() -> impl Strategy<Value = (Case, Case, u64)> {
    let levels = prop::sample::select(vec![
        vec![],
        tiles(&[&[8, 128], &[2, 1]]),
        tiles(&[&[4, 2], &[2, 1]]),
        tiles(&[&[8, 128], &[4, 1]]),
        tiles(&[&[16, 64], &[2, 1]]),
    ]);
    (
        prop::sample::select(vec!["s4", "u4"]),
        1usize..150,
        1usize..150,
        levels,
        prop::bool::ANY,
        any::<u64>(),
    )
        .prop_map(|(ty, r, c, levels, both, seed)| {
            // Both sides tiled alike (then transposed to each other), or
            // the rows plain.
            let row_tiles = if both { levels.clone() } else { vec![] };
            let rows = matrix(ty, (r, c), (vec![1, 0], row_tiles), Some(4));
            (
                rows,
                matrix(ty, (r, c), (vec![0, 1], levels), Some(4)),
                seed,
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn nibbles_transpose_where_the_reference_says((a, b, seed) in nibble_transpose()) {
        check_pair(&a, &b, seed)?;
        check_pair(&b, &a, seed)?;
    }
}

/// 1- and 2-byte types into and out of transposed tilings with `(2,1)`
/// and `(4,1)` sub-tiles, whose runs of 2 or 4 the blocks take as one
/// element (in boxes of 1024 runs or more), from rows or from the same
/// tiling the other way round (whose sub-tiles the blocks take whole,
/// each transposed on the way).
fn transposed_pairs() -> impl Strategy<Value = (Case, Case, u64)> {
    let sub = prop::sample::select(vec![
        ("bf16", tiles(&[&[8, 128], &[2, 1]])),
        ("u8", tiles(&[&[32, 128], &[4, 1]])),
        ("u8", tiles(&[&[16, 128], &[2, 1]])),
    ]);
    let both = prop::bool::ANY;
    (
        sub,
        1usize..300,
        1usize..300,
        both,
        prop::bool::ANY,
        any::<u64>(),
    )
        .prop_map(|((ty, levels), r, c, both, out, seed)| {
            let row_tiles = if both { levels.clone() } else { vec![] };
            let rows = matrix(ty, (r, c), (vec![1, 0], row_tiles), None);
            let tiled = matrix(ty, (r, c), (vec![0, 1], levels), None);
            either_way(rows, tiled, out, seed)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn transposed_sub_tiles_land_where_the_reference_says((a, b, seed) in transposed_pairs()) {
        check_pair(&a, &b, seed)?;
    }
}

/// Random pairs through `run_bytes_windowed` (a buffer of `window`
/// bytes, when it holds one slot) and `par_run_bytes_windowed`: the
/// windows, in order, are the bytes `run_bytes` writes, whatever the
/// window size, and none is longer than asked for.
fn check_windows(a: &Case, b: &Case, seed: u64, window: usize) -> Result<(), TestCaseError> {
    let (sa, sb) = (
        parse_array(&a.text()).unwrap(),
        parse_array(&b.text()).unwrap(),
    );
    let Ok(plan) = RelayoutPlan::new(&sa, &sb) else {
        return Ok(());
    };
    let src = random_bytes(plan.source_bytes() as usize, seed);
    let mut whole = vec![0u8; plan.destination_bytes() as usize];
    plan.run_bytes(&src, &mut whole).unwrap();
    let what = format!("{} -> {} in windows of {window}", a.text(), b.text());
    let unit = plan.window_unit() as usize;
    // Serial, in a buffer of `window` bytes (refused below one unit).
    let (mut buf, mut streamed) = (vec![0x5Au8; window], Vec::new());
    let r = plan.run_bytes_windowed(&src, &mut buf, |w: &[u8]| {
        assert!(w.len() <= window);
        streamed.extend_from_slice(w);
        Ok::<(), xla_layout::Error>(())
    });
    match r {
        Ok(()) => prop_assert_eq!(&streamed, &whole, "{}", what),
        Err(e) => prop_assert!(window < unit && window < whole.len(), "{what}: {e}"),
    }
    #[cfg(feature = "rayon")]
    {
        let mut streamed = Vec::new();
        plan.par_run_bytes_windowed(&src, window, |w: &[u8]| {
            assert!(w.len() <= window.max(unit));
            streamed.extend_from_slice(w);
            Ok::<(), xla_layout::Error>(())
        })
        .unwrap();
        prop_assert_eq!(&streamed, &whole, "{} (rayon)", what);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn windows_are_the_destination_in_order((a, b, seed) in pair(), window in 1usize..300) {
        check_windows(&a, &b, seed, window)?;
    }

    #[test]
    fn large_windows_are_the_destination_in_order((a, b, seed) in large_pair(), window in 64usize..8192) {
        check_windows(&a, &b, seed, window)?;
    }
}

/// A sink's error stops the copy and comes back; a source of the wrong
/// length is refused before any window.
#[cfg(feature = "rayon")]
#[test]
fn windowed_errors() {
    let a = parse_array("f32[256,256]{1,0}").unwrap();
    let b = parse_array("f32[256,256]{0,1}").unwrap();
    let plan = RelayoutPlan::new(&a, &b).unwrap();
    let src = vec![0u8; 256 * 256 * 4];
    let mut calls = 0;
    let r = plan.par_run_bytes_windowed(&src, 4096, |_: &[u8]| {
        calls += 1;
        if calls == 3 {
            Err(xla_layout::Error::new(
                ErrorKind::Expected,
                xla_layout::Span::NONE,
                [0; 3],
            ))
        } else {
            Ok(())
        }
    });
    assert_eq!(r.unwrap_err().kind(), ErrorKind::Expected);
    assert_eq!(calls, 3);
    // Whole windows of the asked size: 64 of 4 KiB for 256 KiB.
    let mut sizes = Vec::new();
    plan.par_run_bytes_windowed(&src, 4096, |w: &[u8]| {
        sizes.push(w.len());
        Ok::<(), xla_layout::Error>(())
    })
    .unwrap();
    assert_eq!(sizes, vec![4096; 64]);
    let mut called = false;
    let e = plan
        .par_run_bytes_windowed(&src[1..], 4096, |_: &[u8]| {
            called = true;
            Ok::<(), xla_layout::Error>(())
        })
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::RelayoutMismatch);
    assert!(!called);
}

#[test]
fn seed_layout_round_trips_through_row_major() {
    let tiled = parse_array("bf16[8,4,256,1024]{3,2,0,1:T(8,128)(2,1)}").unwrap();
    let rows = parse_array("bf16[8,4,256,1024]{3,2,1,0}").unwrap();
    let n = rows.size_in_bytes().unwrap() as usize;
    let src: Vec<u8> = random_bytes(n, 7);
    let mut mid = vec![0u8; tiled.size_in_bytes().unwrap() as usize];
    relayout_bytes(&rows, &src, &tiled, &mut mid).unwrap();
    let mut back = vec![0u8; n];
    relayout_bytes(&tiled, &mid, &rows, &mut back).unwrap();
    assert_eq!(back, src);
    // One element by hand: its two bytes sit at the tiled byte offset.
    let i = [3u64, 2, 13, 300];
    let at = |s: &ArrayShape| s.byte_offset(&i).unwrap() as usize;
    assert_eq!(
        mid[at(&tiled)..at(&tiled) + 2],
        src[at(&rows)..at(&rows) + 2]
    );
}

#[test]
fn packing_and_unpacking_s4() {
    let packed = parse_array("s4[2,3]{1,0:E(4)}").unwrap();
    let tiled = parse_array("s4[2,3]{1,0:T(2,2)(2,1)E(4)}").unwrap();
    let bytes = parse_array("s4[2,3]{0,1}").unwrap();
    // Values 1, -2, 3, -4, 5, -6, row-major, two per byte.
    let src = [0xE1u8, 0xC3, 0xA5];
    let mut out = [0u8; 6];
    relayout_bytes(&packed, &src, &bytes, &mut out).unwrap();
    assert_eq!(out.map(|b| b as i8), [1, -4, -2, 5, 3, -6]);
    let mut again = [0u8; 3];
    relayout_bytes(&bytes, &out, &packed, &mut again).unwrap();
    assert_eq!(again, src);
    // A 2x2 tile of (2,1) pairs: (0,0) (1,0) (0,1) (1,1) | (0,2) (1,2) pad pad.
    let mut t = vec![0u8; tiled.size_in_bytes().unwrap() as usize];
    relayout_bytes(&packed, &src, &tiled, &mut t).unwrap();
    assert_eq!(t, [0xC1, 0x5E, 0xA3, 0x00]);
}

#[test]
fn padding_slots_get_the_legacy_value_or_zero() {
    let a = parse_array("s32[2,3]{1,0}").unwrap();
    let b = parse_array("s32[2,3]{0,1}")
        .unwrap()
        .with_legacy_padding(&[3, 5], PaddingValue::One)
        .unwrap();
    let plan = RelayoutPlan::new(&a, &b).unwrap();
    let src: Vec<i32> = vec![10, 20, 30, 40, 50, 60];
    let mut dst = vec![-7i32; 15];
    plan.run(&src, &mut dst).unwrap();
    // Column-major in a 3x5 box: a d 1 b e 1 c f 1 1 1 1 1 1 1.
    assert_eq!(dst, [10, 40, 1, 20, 50, 1, 30, 60, 1, 1, 1, 1, 1, 1, 1]);
    let tiled = parse_array("s32[2,3]{1,0:T(2,2)}").unwrap();
    let mut t = vec![-7i32; 8];
    RelayoutPlan::new(&a, &tiled)
        .unwrap()
        .run(&src, &mut t)
        .unwrap();
    assert_eq!(t, [10, 20, 40, 50, 30, 0, 60, 0]);
    let f = parse_array("f32[1,3]{1,0}")
        .unwrap()
        .with_legacy_padding(&[1, 4], PaddingValue::Lowest)
        .unwrap();
    let g = parse_array("f32[1,3]{1,0}").unwrap();
    let mut out = [0f32; 4];
    RelayoutPlan::new(&g, &f)
        .unwrap()
        .run(&[1.0, 2.0, 3.0], &mut out)
        .unwrap();
    assert_eq!(out, [1.0, 2.0, 3.0, f32::NEG_INFINITY]);
}

#[test]
fn star_layouts_take_the_element_path_with_the_same_result() {
    let a = parse_array("u8[2,7,8]{2,1,0:T(*,2,3)}").unwrap();
    let b = parse_array("u8[2,7,8]{0,1,2}").unwrap();
    let plan = RelayoutPlan::new(&a, &b).unwrap();
    assert!(!plan.is_blocked());
    let src = random_bytes(plan.source_bytes() as usize, 3);
    let mut dst = vec![0u8; plan.destination_bytes() as usize];
    plan.run_bytes(&src, &mut dst).unwrap();
    for i in 0..2u64 {
        for j in 0..7 {
            for k in 0..8 {
                let x = [i, j, k];
                assert_eq!(
                    dst[b.offset(&x).unwrap() as usize],
                    src[a.offset(&x).unwrap() as usize]
                );
            }
        }
    }
}

#[test]
fn views_of_any_two_layouts() {
    let rows = StaticLayout::<2>::parse("f64[20,30]{1,0}").unwrap();
    let cols = StaticLayout::<2>::parse("f64[20,30]{0,1:T(8,4)}").unwrap();
    let data: Vec<f64> = (0..600).map(f64::from).collect();
    let mut out = vec![f64::NAN; cols.allocated_elements() + 5];
    let src = View::new(rows, &data).unwrap();
    let mut dst = ViewMut::new(cols, &mut out).unwrap();
    relayout(&src, &mut dst).unwrap();
    for i in 0..20 {
        for j in 0..30 {
            assert_eq!(dst[[i, j]], (i * 30 + j) as f64);
        }
    }
    // Slots past the layout's allocation are not touched.
    assert!(out[cols.allocated_elements()..].iter().all(|x| x.is_nan()));
    assert!(out[..cols.allocated_elements()].iter().all(|x| !x.is_nan()));
}

#[test]
fn mismatches_are_errors_with_both_numbers() {
    let a = parse_array("f32[4,6]{1,0}").unwrap();
    let msg = |b: &str| {
        RelayoutPlan::new(&a, &parse_array(b).unwrap())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        msg("f32[4,7]{1,0}"),
        "dimension 1 has size 6 in the source and 7 in the destination"
    );
    assert_eq!(
        msg("f32[4,6,1]"),
        "the source has rank 2 and the destination rank 3; a relayout needs the same dimensions"
    );
    assert_eq!(
        msg("bf16[4,6]"),
        "the source stores f32 and the destination bf16; a relayout moves elements, it does not convert them"
    );
    assert_eq!(
        msg("f32[4,6]{1,0:E(16)}"),
        "a slot of 16 bits cannot hold an element of 32 bits (relayout copies slots of 1 to 128 bits)"
    );
    let b = parse_array("f32[4,6]{0,1}").unwrap();
    let plan = RelayoutPlan::new(&a, &b).unwrap();
    let mut out = vec![0u8; 96];
    assert_eq!(
        plan.run_bytes(&[0; 95], &mut out).unwrap_err().to_string(),
        "the source buffer has 95 bytes but its layout takes 96"
    );
    assert_eq!(
        plan.run_bytes(&[0; 96], &mut out[..90])
            .unwrap_err()
            .to_string(),
        "the destination buffer has 90 bytes but its layout takes 96"
    );
    let e = plan.run(&[0i32; 24], &mut [0i32; 24]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ViewMismatch);
    let open = parse_array("f32[?,6]{1,0}").unwrap();
    assert_eq!(
        RelayoutPlan::new(&open, &a).unwrap_err().kind(),
        ErrorKind::UnboundedDimension
    );
    let c = parse_array("c64[2]").unwrap();
    let padded = c.with_legacy_padding(&[3], PaddingValue::Lowest).unwrap();
    assert_eq!(
        RelayoutPlan::new(&c, &padded).unwrap_err().to_string(),
        "padding value `lowest` has no encoding for c64 here"
    );
}

#[test]
fn large_transposes_and_tiles_match_the_plans() {
    for (from, to) in [
        ("f32[300,200]{1,0}", "f32[300,200]{0,1}"),
        ("f32[256,384]{1,0}", "f32[256,384]{1,0:T(8,128)}"),
        ("f32[256,384]{1,0:T(8,128)}", "f32[256,384]{0,1}"),
        ("bf16[64,256]{1,0}", "bf16[64,256]{1,0:T(8,128)(2,1)}"),
        ("bf16[64,256]{1,0:T(8,128)(2,1)}", "bf16[64,256]{1,0}"),
        ("f64[45,67]{0,1}", "f64[45,67]{1,0}"),
        ("u8[33,65]{1,0}", "u8[33,65]{0,1}"),
        // Rows a multiple of 4 KiB apart (blocks copied in passes of
        // rows), with edges, and through tiles.
        ("u8[100,4096]{1,0}", "u8[100,4096]{0,1}"),
        ("bf16[70,2048]{1,0}", "bf16[70,2048]{0,1}"),
        ("f32[40,1024]{1,0}", "f32[40,1024]{0,1}"),
        ("u8[64,8192]{1,0:T(8,4096)}", "u8[64,8192]{0,1}"),
    ] {
        matches_offsets(from, to);
    }
}

/// Transposes of every element width through every block shape the
/// copy picks (squares of one cache line, strips 2, 4, 8 and 16 wide
/// either way, crowded rows 4 KiB apart, edges): with the `simd`
/// feature, every shape of the vector shuffles (whole squares, fewer rows
/// than a vector's lanes) and the fallbacks around them. Typed copies
/// (which take the byte path with `simd`) give the same bytes.
#[test]
fn transposes_of_every_width_and_block_shape() {
    let shapes = [
        (2, 200),
        (4, 200),
        (8, 200),
        (16, 200),
        (200, 2),
        (200, 4),
        (200, 8),
        (200, 16),
        (64, 64),
        (67, 131),
    ];
    for ty in ["u8", "bf16", "f32", "f64", "c128"] {
        let width = parse_array(&format!("{ty}[1]"))
            .unwrap()
            .element_size_in_bits()
            / 8;
        // Rows 4 KiB apart: crowded blocks for 1- and 2-byte elements.
        let crowded = (40, 4096 / width as usize);
        for (r, c) in shapes.into_iter().chain([crowded]) {
            let rows = format!("{ty}[{r},{c}]{{1,0}}");
            let cols = format!("{ty}[{r},{c}]{{0,1}}");
            matches_offsets(&rows, &cols);
            matches_offsets(&cols, &rows);
        }
    }
    // Runs of 2 or 4 taken as one element in transposed sub-tiles.
    for (ty, tiles) in [
        ("bf16", "T(8,128)(2,1)"),
        ("u8", "T(32,128)(4,1)"),
        ("u8", "T(16,128)(2,1)"),
    ] {
        let rows = format!("{ty}[64,512]{{1,0}}");
        let tiled = format!("{ty}[64,512]{{0,1:{tiles}}}");
        matches_offsets(&rows, &tiled);
        matches_offsets(&tiled, &rows);
    }
    // Typed slices: the same bytes as `run_bytes`.
    let (a, b) = (
        parse_array("f32[40,1024]{1,0}").unwrap(),
        parse_array("f32[40,1024]{0,1}").unwrap(),
    );
    let plan = RelayoutPlan::new(&a, &b).unwrap();
    let src: Vec<f32> = (0..40 * 1024).map(|i| i as f32 * 0.5 - 7.0).collect();
    let mut typed = vec![0f32; src.len()];
    plan.run(&src, &mut typed).unwrap();
    let bytes: Vec<u8> = src.iter().flat_map(|x| x.to_le_bytes()).collect();
    let mut out = vec![0u8; bytes.len()];
    plan.run_bytes(&bytes, &mut out).unwrap();
    let typed: Vec<u8> = typed.iter().flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(typed, out);
    assert_eq!(typed[4..8], bytes[1024 * 4..1024 * 4 + 4]);
    // `pred` has no byte view: its typed copy stays element by element.
    let (a, b) = (
        parse_array("pred[48,64]{1,0}").unwrap(),
        parse_array("pred[48,64]{0,1}").unwrap(),
    );
    let plan = RelayoutPlan::new(&a, &b).unwrap();
    let src: Vec<bool> = (0..48 * 64).map(|i| i % 3 == 0).collect();
    let mut dst = vec![false; src.len()];
    plan.run(&src, &mut dst).unwrap();
    for i in 0..48 {
        for j in 0..64 {
            assert_eq!(dst[j * 48 + i], src[i * 64 + j], "pred at {i},{j}");
        }
    }
}

/// Copies `from` -> `to` (random source bytes, with threads too under the
/// `rayon` feature) and checks every element at the offsets the two
/// layouts give (rank 2).
fn matches_offsets(from: &str, to: &str) {
    let (a, b) = (parse_array(from).unwrap(), parse_array(to).unwrap());
    let plan = RelayoutPlan::new(&a, &b).unwrap();
    assert!(plan.is_blocked(), "{from} -> {to}");
    let src = random_bytes(plan.source_bytes() as usize, 11);
    let dst = run_checked(&plan, &src, from, to);
    let e = a.element_size_in_bits() as usize / 8;
    let (r, c) = (
        a.dims()[0].layout_size().unwrap(),
        a.dims()[1].layout_size().unwrap(),
    );
    for i in 0..r {
        for j in 0..c {
            let (x, y) = (
                a.offset(&[i, j]).unwrap() as usize * e,
                b.offset(&[i, j]).unwrap() as usize * e,
            );
            assert_eq!(dst[y..y + e], src[x..x + e], "{from} -> {to} at {i},{j}");
        }
    }
}

/// Transposes where the runs on one side or both are shorter than a
/// cache line (a tiled destination across the transpose, or tiles on
/// both sides): the blocks take part of the loop that continues a short
/// run, so block columns fall in two groups of destination rows. Whole
/// tiles, edges and padding; every width; sub-tiles on both sides.
#[test]
fn transposes_between_tilings() {
    for (ty, a, b) in [
        ("f32", "T(8,128)", "T(8,128)"),
        ("f64", "T(4,8)", "T(4,8)"),
        ("u8", "T(16,32)", "T(8,16)"),
        ("bf16", "T(8,128)", "T(8,64)"),
        ("c128", "T(2,4)", "T(4,2)"),
        ("bf16", "T(8,128)(2,1)", "T(8,128)(2,1)"),
        ("u8", "T(32,128)(4,1)", "T(32,128)(4,1)"),
        ("u8", "T(16,128)(2,1)", "T(32,128)(4,1)"),
    ] {
        for (r, c) in [(256, 384), (300, 200), (64, 512)] {
            let rows = format!("{ty}[{r},{c}]{{1,0:{a}}}");
            let cols = format!("{ty}[{r},{c}]{{0,1:{b}}}");
            matches_offsets(&rows, &cols);
            matches_offsets(&cols, &rows);
        }
    }
    // Column-major into row tiles: source runs of 8 or 16 bytes.
    for ty in ["u8", "bf16", "f32"] {
        for (r, c) in [(256, 512), (200, 300)] {
            let cols = format!("{ty}[{r},{c}]{{0,1}}");
            let tiled = format!("{ty}[{r},{c}]{{1,0:T(8,128)}}");
            matches_offsets(&cols, &tiled);
            matches_offsets(&tiled, &cols);
        }
    }
}

/// Rows into and out of `(2,1)` sub-tiles that keep the rows' order
/// (each run of pairs woven from two source rows, or split back into
/// two): 1-, 2-, 4- and 8-byte elements, with tile widths that are a
/// multiple of a 16-byte vector's lanes and widths that leave a few
/// pairs over (the vector shuffles of `simd`, and the scalar loop after
/// them).
#[test]
fn pair_runs_of_every_width() {
    for ty in ["u8", "bf16", "f32", "f64"] {
        for (cols, tile) in [(128, 64), (40, 20), (36, 12), (30, 10)] {
            let rows = format!("{ty}[16,{cols}]{{1,0}}");
            let pairs = format!("{ty}[16,{cols}]{{1,0:T(4,{tile})(2,1)}}");
            matches_offsets(&rows, &pairs);
            matches_offsets(&pairs, &rows);
        }
    }
}

/// The nibble of slot `bit / 4` of an `E(4)` buffer.
fn nibble(buf: &[u8], bit: u64) -> u8 {
    (buf[(bit / 8) as usize] >> (bit % 8)) & 0xF
}

#[test]
fn int4_pairs_of_tpu_layouts_both_ways() {
    for (from, to) in [
        ("s4[64,256]{1,0:E(4)}", "s4[64,256]{1,0:T(8,128)(2,1)E(4)}"),
        ("s4[64,256]{1,0:T(8,128)(2,1)E(4)}", "s4[64,256]{1,0:E(4)}"),
        ("u4[32,512]{1,0:E(4)}", "u4[32,512]{1,0:T(8,128)E(4)}"),
        ("s4[24,260]{1,0:E(4)}", "s4[24,260]{1,0:T(8,128)(2,1)E(4)}"),
        // Runs of 20 bytes: one 16-byte vector, then 4 bytes one by one.
        ("u4[16,80]{1,0:E(4)}", "u4[16,80]{1,0:T(4,40)(2,1)E(4)}"),
        ("u4[16,80]{1,0:T(4,40)(2,1)E(4)}", "u4[16,80]{1,0:E(4)}"),
        // Pairs of source nibbles whose destination rows are not
        // contiguous (each nibble padded to a byte): not a split pair.
        ("s4[4,2]{1,0:E(4)}", "s4[4,2]{0,1:T(1)(2)E(4)}"),
        ("s4[8,16]{1,0:E(4)}", "s4[8,16]{0,1:T(1)(2)E(4)}"),
        // Transposes: whole tiles of 64 rows by 128 nibbles (the `simd`
        // shuffles) and the rows and columns left over (one by one).
        ("u4[128,256]{1,0:E(4)}", "u4[128,256]{0,1:E(4)}"),
        ("s4[130,260]{1,0:E(4)}", "s4[130,260]{0,1:E(4)}"),
        ("s4[260,130]{0,1:E(4)}", "s4[260,130]{1,0:E(4)}"),
        // Transposes into and out of tiles: whole bytes on both sides,
        // copied as a byte transpose; and tiled on both sides.
        ("s4[64,512]{1,0:E(4)}", "s4[64,512]{0,1:T(8,128)(2,1)E(4)}"),
        ("u4[64,512]{1,0:T(8,128)(2,1)E(4)}", "u4[64,512]{0,1:E(4)}"),
        ("s4[40,300]{1,0:T(8,128)(2,1)E(4)}", "s4[40,300]{0,1:E(4)}"),
        (
            "s4[128,256]{1,0:T(8,128)(2,1)E(4)}",
            "s4[128,256]{0,1:T(8,128)(2,1)E(4)}",
        ),
        (
            "u4[136,264]{0,1:T(8,128)(2,1)E(4)}",
            "u4[136,264]{1,0:T(8,128)(2,1)E(4)}",
        ),
    ] {
        let (a, b) = (parse_array(from).unwrap(), parse_array(to).unwrap());
        let plan = RelayoutPlan::new(&a, &b).unwrap();
        let src = random_bytes(plan.source_bytes() as usize, 5);
        let mut dst = random_bytes(plan.destination_bytes() as usize, 6);
        plan.run_bytes(&src, &mut dst).unwrap();
        #[cfg(feature = "rayon")]
        {
            let mut many = random_bytes(dst.len(), 7);
            plan.par_run_bytes(&src, &mut many).unwrap();
            assert_eq!(many, dst, "threads: {from} -> {to}");
        }
        let mut seen = 0;
        let (r, c) = (
            a.dims()[0].layout_size().unwrap(),
            a.dims()[1].layout_size().unwrap(),
        );
        for i in 0..r {
            for j in 0..c {
                let x = [i, j];
                let (sa, sb) = (a.bit_offset(&x).unwrap(), b.bit_offset(&x).unwrap());
                assert_eq!(
                    nibble(&dst, sb),
                    nibble(&src, sa),
                    "{from} -> {to} at {x:?}"
                );
                seen += 1;
            }
        }
        assert_eq!(seen, r * c);
    }
}
