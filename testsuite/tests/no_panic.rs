//! Every public function of layout-core returns a value or an error on
//! arbitrary inputs its types allow; none panics, except the documented
//! indexing panics (`StaticLayout::offset`, `View`'s `[]`), which are
//! called here only with indices in bounds.

#[path = "support/cases.rs"]
mod cases;

use cases::case_strategy;
use proptest::prelude::*;
use xla_layout::{
    compare_indices, parse, parse_array, parse_array_unvalidated, validate, validate_all,
    ArrayShape, Dim, ElementType, Error, ErrorKind, Index, Layout, LogicalIndices, PaddingValue,
    PhysicalShape, Plan, RelayoutPlan, Shape, Span, StaticLayout, TileDim, UncheckedArray,
    ALL_ELEMENT_TYPES,
};

/// Numbers with the edges over-represented.
fn edgy_u64() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => 0u64..20,
        1 => Just(u64::MAX),
        1 => Just(i64::MAX as u64),
        1 => Just(i64::MAX as u64 + 1),
        1 => any::<u64>(),
    ]
}

fn edgy_i64() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => -3i64..20,
        1 => Just(i64::MIN),
        1 => Just(i64::MAX),
        1 => any::<i64>(),
    ]
}

fn edgy_usize() -> impl Strategy<Value = usize> {
    prop_oneof![3 => 0usize..20, 1 => Just(usize::MAX), 1 => any::<usize>()]
}

fn dim() -> impl Strategy<Value = Dim> {
    prop_oneof![
        4 => edgy_u64().prop_map(Dim::Static),
        1 => edgy_u64().prop_map(Dim::Bounded),
        1 => Just(Dim::Unbounded),
    ]
}

fn tile_dim() -> impl Strategy<Value = TileDim> {
    prop_oneof![4 => edgy_i64().prop_map(TileDim::Size), 1 => Just(TileDim::Combine)]
}

/// Any layout the builders can make, sensible or not.
fn any_layout() -> impl Strategy<Value = Layout> {
    (
        prop::collection::vec(edgy_i64(), 0..18),
        prop::collection::vec(prop::collection::vec(tile_dim(), 0..6), 0..10),
        edgy_i64(),
        edgy_i64(),
        edgy_i64(),
        edgy_i64(),
        prop::collection::vec((edgy_i64(), prop::collection::vec(edgy_i64(), 0..5)), 0..6),
    )
        .prop_map(|(m2m, tiles, tail, bits, space, meta, splits)| {
            let mut l = Layout::from_minor_to_major(&m2m).unwrap_or(Layout::descending(m2m.len()));
            for t in &tiles {
                if let Ok(next) = l.with_tile(t) {
                    l = next;
                }
            }
            for (d, idx) in &splits {
                if let Ok(next) = l.with_split(*d, idx) {
                    l = next;
                }
            }
            l.with_tail_padding(tail)
                .with_element_size_in_bits(bits)
                .with_memory_space(space)
                .with_metadata_prefix_bytes(meta)
        })
}

fn element_type() -> impl Strategy<Value = ElementType> {
    prop::sample::select(ALL_ELEMENT_TYPES.to_vec())
}

/// Calls every method of a validated shape with arbitrary arguments.
fn exercise(s: &ArrayShape, index: &[u64], n: u64, i: i64, u: usize, c: char) {
    let _ = (s.to_string(), format!("{s:?}"));
    let _ = (
        s.element_count(),
        s.size_in_bytes(),
        s.unpadded_size_in_bytes(),
    );
    let _ = (s.allocated_elements(), s.tiled_shape(), s.physical_shape(u));
    let _ = (s.offset(index), s.bit_offset(index), s.byte_offset(index));
    let _ = (
        s.index_of(n),
        s.strides(),
        s.dimension_stride(u),
        s.byte_strides(),
    );
    let _ = (s.untiled_linear_index(index), s.untiled_multi_index(n));
    let _ = (
        s.index_in_bounds(index),
        s.true_rank(),
        s.dimension_number(i),
        s.dim(i),
    );
    let _ = (
        s.dimension_letter(u),
        s.dimension_of_letter(c),
        s.element_size_in_bits(),
    );
    let _ = (s.is_dynamic(), s.has_unbounded_dims(), s.unbounded_count());
    let _ = s.with_extents(index);
    let _ = s.with_legacy_padding(index, PaddingValue::Lowest);
    let mut walk = index.to_vec();
    let _ = s.next_index(&mut walk);
    let _ = s.next_index_in_memory_order(&mut walk);
    let mut calls = 0;
    let rank = s.rank();
    let incr: Vec<u64> = index.iter().map(|x| x.wrapping_add(n)).collect();
    s.for_each_index_in(index, index, &incr, |idx| {
        assert_eq!(idx.len(), rank);
        assert!(s.index_in_bounds(idx), "window index {idx:?} out of bounds");
        calls += 1;
        calls < 64
    });
    if let Ok(plan) = Plan::new(s) {
        let _ = (
            plan.offset(index),
            plan.offset_unchecked(index),
            plan.in_bounds(index),
        );
        let _ = (
            plan.physical_index(index, u),
            plan.index_of(n),
            plan.tiled_shape(),
        );
        let _ = (
            plan.layout_dims(),
            plan.index_dims(),
            plan.allocated_elements(),
        );
    }
    let l = s.layout();
    let _ = (
        l.minor(u),
        l.major(u),
        l.move_dim_to_major(u),
        l.tile(u),
        l.split(u),
    );
    let _ = (
        l.tile_entry_index(u, u),
        l.logical_to_physical(),
        l.is_untiled(),
    );
    let _ = (
        l.are_dimensions_consecutive(&[u, 0]),
        l.to_string(),
        format!("{l:?}"),
    );
    let map = s.source_map();
    let _ = (
        map.dim(u),
        map.minor_to_major(u),
        map.tile(u),
        map.tile_entry(u),
        map.split(u),
    );
    macro_rules! ranked {
        ($($r:literal)*) => {$(
            if let Ok(fixed) = StaticLayout::<$r>::from_shape(s, "t") {
                let mut idx = [0usize; $r];
                for (k, x) in idx.iter_mut().enumerate() {
                    *x = index.get(k).copied().unwrap_or(0) as usize;
                }
                let _ = (fixed.checked_offset(idx), fixed.in_bounds(idx), fixed.index_of(n as usize));
                let _ = (fixed.dims(), fixed.allocated_elements(), fixed.size_in_bytes());
                if fixed.in_bounds(idx) {
                    let _ = fixed.offset(idx);
                }
            }
        )*};
    }
    ranked!(0 1 2 3 4 5);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn builders_and_the_validator_never_panic(
        ty in element_type(),
        dims in prop::collection::vec(dim(), 0..18),
        layout in any_layout(),
        padded in prop::option::of(prop::collection::vec(edgy_u64(), 0..6)),
        index in prop::collection::vec(edgy_u64(), 0..6),
        n in edgy_u64(), i in edgy_i64(), u in edgy_usize(), c in any::<char>(),
    ) {
        let Ok(raw) = UncheckedArray::new(ty, &dims) else { return Ok(()); };
        let mut raw = raw.with_layout(layout);
        if let Some(p) = &padded
            && let Ok(r) = raw.with_legacy_padding(p, PaddingValue::Zero) {
                raw = r;
            }
        let _ = (raw.to_string(), format!("{raw:?}"), raw.dims(), raw.unbounded_count());
        let all = validate_all(&raw);
        let first = validate(&raw);
        prop_assert_eq!(all.is_empty(), first.is_ok());
        if let Ok(s) = first {
            exercise(&s, &index, n, i, u, c);
        }
        if let Ok(s) = ArrayShape::new(ty, &dims) {
            exercise(&s, &index, n, i, u, c);
            let _ = s.with_layout(layout);
        }
    }

    #[test]
    fn valid_shapes_answer_every_question(
        case in case_strategy(),
        index in prop::collection::vec(edgy_u64(), 0..6),
        n in edgy_u64(), i in edgy_i64(), u in edgy_usize(), c in any::<char>(),
    ) {
        let s = parse_array(&case.text()).unwrap();
        exercise(&s, &index, n, i, u, c);
        let in_bounds: Vec<u64> = s.dims().iter().zip(&index).map(|(d, x)| {
            d.layout_size().map_or(0, |size| if size == 0 { 0 } else { x % size })
        }).collect();
        exercise(&s, &in_bounds, n, i, u, c);
    }

    #[test]
    fn text_never_panics(text in ".{0,40}", cut in edgy_usize()) {
        for t in [text.as_str(), text.get(..cut.min(text.len())).unwrap_or("")] {
            if let Ok(shape) = parse(t) {
                let _ = shape.to_string();
                if let Shape::Tuple(tuple) = shape {
                    let _ = (tuple.len(), tuple.get(cut), tuple.iter().count());
                }
            }
            if let Ok(raw) = parse_array_unvalidated(t) {
                let _ = (raw.to_string(), validate_all(&raw).len());
            }
            let _ = StaticLayout::<2>::parse(Box::leak(t.to_string().into_boxed_str()));
        }
    }

    #[test]
    fn small_values_never_panic(
        values in prop::collection::vec(edgy_u64(), 0..80),
        a in prop::collection::vec(edgy_u64(), 0..6),
        b in prop::collection::vec(edgy_u64(), 0..6),
        kind in prop::sample::select(ErrorKind::ALL.to_vec()),
        nums in (any::<i64>(), any::<i64>(), any::<i64>()),
        span in (edgy_usize(), edgy_usize()),
        u in edgy_usize(), name in "[a-z0-9]{0,12}",
    ) {
        let p = PhysicalShape::from_slice(&values);
        let _ = (p.as_slice(), p.len(), p.product(), p.strides());
        let _ = Index::zeros(u).as_slice().len();
        let _ = compare_indices(&a, &b);
        let e = Error::new(kind, Span::new(span.0, span.1), [nums.0, nums.1, nums.2]);
        let _ = (e.to_string(), e.rule(), e.help(), e.span().range(), e.span().join(Span::NONE));
        let _ = (ElementType::from_name(&name), PaddingValue::from_name(&name));
        let _ = (Layout::descending(u), Layout::ascending(u));
        let m2m: Vec<i64> = a.iter().map(|&x| x as i64).collect();
        let _ = (Layout::from_minor_to_major(&m2m), Layout::from_major_to_minor(&m2m));
        let dims: Vec<usize> = a.iter().map(|&x| (x % 4) as usize).collect();
        if let Ok(d) = <[usize; 2]>::try_from(dims.as_slice()) {
            prop_assert!(LogicalIndices::new(d).count() <= 9);
        }
    }

    #[test]
    fn relayouts_between_any_two_shapes_never_panic(
        a in case_strategy(),
        b in case_strategy(),
        same_dims in prop::bool::weighted(0.7),
        padded in prop::option::weighted(0.2, prop::collection::vec(0u64..12, 0..6)),
        extra in (-3i64..4, -3i64..4),
    ) {
        let sa = parse_array(&a.text()).unwrap();
        // Mostly the same dims (a relayout that can run), sometimes not.
        let b_text = if same_dims {
            let mut b = b.clone();
            b.ty = a.ty;
            b.dims = a.dims.clone();
            b.m2m = b.m2m.iter().copied().filter(|&d| d < a.dims.len()).collect();
            if b.m2m.len() != a.dims.len() {
                b.m2m = (0..a.dims.len()).rev().collect();
            }
            b.text()
        } else {
            b.text()
        };
        let mut sb = parse_array(&b_text).unwrap();
        if let Some(p) = &padded
            && let Ok(x) = sb.with_legacy_padding(p, PaddingValue::Highest) {
                sb = x;
            }
        let Ok(plan) = RelayoutPlan::new(&sa, &sb) else { return Ok(()) };
        let _ = (plan.is_blocked(), format!("{plan:?}"));
        let len = |n: u64, d: i64| (n as i64 + d).clamp(0, 1 << 16) as usize;
        if plan.source_bytes() > 1 << 16 || plan.destination_bytes() > 1 << 16 {
            return Ok(());
        }
        let src = vec![0xA5u8; len(plan.source_bytes(), extra.0)];
        let mut dst = vec![0u8; len(plan.destination_bytes(), extra.1)];
        let ok = plan.run_bytes(&src, &mut dst).is_ok();
        let right = src.len() as u64 == plan.source_bytes()
            && dst.len() as u64 == plan.destination_bytes();
        prop_assert_eq!(ok, right);
        // Serial windows in a buffer of any length: refused only for a
        // source of the wrong length or a buffer shorter than a window can
        // be, and never a window longer than the buffer.
        let mut buf = vec![0u8; (extra.1.unsigned_abs() % 300) as usize];
        let (mut n, buf_len) = (0usize, buf.len());
        let serial = plan.run_bytes_windowed(&src, &mut buf, |w: &[u8]| {
            assert!(w.len() <= buf_len);
            n += w.len();
            Ok::<(), xla_layout::Error>(())
        });
        let usable = buf_len as u64 >= plan.window_unit().min(plan.destination_bytes());
        prop_assert_eq!(serial.is_ok(), src.len() as u64 == plan.source_bytes() && usable);
        if serial.is_ok() {
            prop_assert_eq!(n as u64, plan.destination_bytes());
        }
        #[cfg(feature = "rayon")]
        {
            let mut n = 0usize;
            let windowed = plan.par_run_bytes_windowed(&src, 1 + extra.1.unsigned_abs() as usize, |w: &[u8]| {
                n += w.len();
                Ok::<(), xla_layout::Error>(())
            });
            prop_assert_eq!(windowed.is_ok(), src.len() as u64 == plan.source_bytes());
            if windowed.is_ok() {
                prop_assert_eq!(n as u64, plan.destination_bytes());
            }
        }
    }
}
