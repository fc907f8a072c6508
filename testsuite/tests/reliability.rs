//! No panic, wrap or endless loop through layout-core's public doors: one
//! test per class of defect found, each at its edge (see
//! `docs/reliability.md`). `no_panic.rs` throws arbitrary inputs at the
//! whole API.

use xla_layout::{
    parse, parse_array, parse_array_unvalidated, Error, ErrorKind, PaddingValue, Plan, Span,
    StaticLayout, MAX_TEXT_LEN,
};

#[test]
fn short_and_long_indices_never_panic_the_plan() {
    for text in [
        "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}",
        "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
        "f32[512,1024]{0,1}",
        "s32[]{:T(128)}",
    ] {
        let s = parse_array(text).unwrap();
        let plan = Plan::new(&s).unwrap();
        let full: Vec<u64> = vec![0; s.rank()];
        let expected = plan.offset(&full).unwrap();
        for len in 0..s.rank() + 3 {
            let index = vec![0u64; len];
            // Zeros of any length: the missing coordinates read as zero.
            assert_eq!(plan.offset_unchecked(&index), expected, "{text} len {len}");
            for level in 0..=plan.tile_levels() + 1 {
                let _ = plan.physical_index(&index, level);
            }
            if len != s.rank() {
                let e = plan.offset(&index).unwrap_err();
                assert_eq!(e.kind(), ErrorKind::IndexRank);
            }
        }
        let huge = vec![u64::MAX; s.rank()];
        let _ = plan.offset_unchecked(&huge);
        let _ = plan.physical_index(&huge, 1);
        assert!(plan.offset(&huge).is_err() || s.rank() == 0);
    }
}

#[test]
fn index_walks_stop_at_the_edge_of_u64() {
    let s = parse_array("s32[3,4]{0,1}").unwrap();
    for start in [[u64::MAX, 0], [0, u64::MAX], [3, 0], [u64::MAX, u64::MAX]] {
        let mut i = start;
        assert!(!s.next_index(&mut i), "{start:?}");
        assert_eq!(i, start, "unchanged");
        assert!(!s.next_index_in_memory_order(&mut i));
        assert_eq!(i, start);
    }
    // The last index ends the walk.
    let mut last = [2, 3];
    assert!(!s.next_index(&mut last));
    let mut last = [2, 3];
    assert!(!s.next_index_in_memory_order(&mut last));
}

#[test]
fn windows_with_huge_steps_end_and_stay_in_bounds() {
    let s = parse_array("f32[10,10]").unwrap();
    let mut seen = Vec::new();
    s.for_each_index_in(&[2, 3], &[u64::MAX, u64::MAX], &[u64::MAX, 4], |i| {
        seen.push([i[0], i[1]]);
        true
    });
    // Dim 0 steps past the end at once; dim 1 visits 3 and 7.
    assert_eq!(seen, [[2, 3], [2, 7]]);

    let mut calls = 0;
    s.for_each_index_in(&[9, 9], &[u64::MAX; 2], &[1, 1], |i| {
        assert!(i[0] < 10 && i[1] < 10, "{i:?} out of bounds");
        calls += 1;
        true
    });
    assert_eq!(calls, 1);

    // A window that starts outside the shape visits nothing.
    let mut none = 0;
    s.for_each_index_in(&[10, 0], &[1, 1], &[1, 1], |_| {
        none += 1;
        true
    });
    s.for_each_index_in(&[u64::MAX, 0], &[1, 1], &[1, 1], |_| {
        none += 1;
        true
    });
    assert_eq!(none, 0);

    // The whole array with step 1 is every index once.
    let mut all = 0;
    s.for_each_index_in(&[0, 0], &[u64::MAX; 2], &[1, 1], |_| {
        all += 1;
        true
    });
    assert_eq!(all, 100);
}

#[test]
fn byte_offsets_near_i64_max_are_exact() {
    let s = parse_array("u8[9223372036854775807]").unwrap();
    let last = [i64::MAX as u64 - 1];
    assert_eq!(s.offset(&last), Ok(i64::MAX as u64 - 1));
    // The bit offset does not fit in u64; the byte offset does.
    assert_eq!(
        s.bit_offset(&last).unwrap_err().kind(),
        ErrorKind::AllocationOverflow
    );
    assert_eq!(s.byte_offset(&last), Ok(i64::MAX as u64 - 1));

    let packed = parse_array("s4[9223372036854775807]{0:E(4)}").unwrap();
    assert_eq!(
        packed.byte_offset(&last),
        Ok((i64::MAX as u64 - 1) / 2),
        "two s4 per byte"
    );
}

#[test]
fn out_of_bounds_u64_indices_are_reported_exactly() {
    let s = parse_array("f32[3,5]").unwrap();
    let e = s.offset(&[u64::MAX, 0]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::IndexOutOfBounds);
    assert_eq!(e.values(), [0, u64::MAX as i128, 3]);
    assert_eq!(
        e.to_string(),
        "index 18446744073709551615 is out of bounds for dimension 0 of size 3"
    );
    let plan = Plan::new(&s).unwrap();
    assert_eq!(
        plan.offset(&[0, u64::MAX]).unwrap_err().values()[1],
        u64::MAX as i128
    );
}

#[test]
fn every_error_kind_formats_any_numbers() {
    for (i, kind) in ErrorKind::ALL.iter().enumerate() {
        assert_eq!(kind.index(), i);
        for values in [
            [i64::MIN; 3],
            [i64::MAX; 3],
            [0; 3],
            [-1, -1, -1],
            [1, i64::MIN, i64::MAX],
        ] {
            let e = Error::new(*kind, Span::new(usize::MAX, 0), values);
            assert!(!e.to_string().is_empty());
            let _ = (e.rule(), e.help(), e.span().range());
        }
        let wide = Error::wide(*kind, Span::NONE, [i128::MIN, i128::MAX, u64::MAX as i128]);
        assert!(!wide.to_string().is_empty());
    }
}

#[test]
fn padded_dimensions_never_panics_on_a_wrong_rank() {
    let s = parse_array("f32[2,3]{0,1}")
        .unwrap()
        .with_legacy_padding(&[3, 5], PaddingValue::Zero)
        .unwrap();
    let p = s.legacy_padding().unwrap();
    assert_eq!(p.padded_dimensions(2), [3, 5]);
    for rank in [0, 1, 3, 16, 17, usize::MAX] {
        assert!(p.padded_dimensions(rank).len() <= 16);
    }
}

#[test]
fn unchecked_shapes_print_and_validate_but_have_no_index_math() {
    // `UncheckedArray` has no `offset`, `size_in_bytes` or plan: the
    // compile_fail example in layout-core's crate docs shows it; here the
    // ways forward work on shapes that would have divided by zero or
    // indexed out of range.
    for text in [
        "f32[3,5]{1,0:T(0,2)}",
        "f32[3,5]{7,0}",
        "f32[3,5]{1,0:T(-1,2)}",
        "f32[3]{0:L(0)}",
        "f32[3,5]{1,0:T(2,*)}",
    ] {
        let raw = parse_array_unvalidated(text).unwrap();
        assert_eq!(raw.to_string(), text);
        assert!(raw.validate().is_err(), "{text}");
        assert!(!xla_layout::validate_all(&raw).is_empty());
    }
}

#[test]
fn static_layouts_of_the_wrong_rank_are_errors() {
    let e = StaticLayout::<3>::parse("f32[3,5]").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::RankMismatch);
    assert_eq!(
        e.to_string(),
        "the layout has rank 2, but a StaticLayout<3> was asked for"
    );
    assert!(StaticLayout::<2>::parse("f32[?,5]").is_err());
}

#[test]
fn extents_past_i64_name_the_dimension() {
    let u = xla_layout::Unresolved::<2, 1>::new(parse_array("f32[?,5]").unwrap(), "t");
    let e = u.resolve([usize::MAX]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::IntegerOutOfRange);
    assert_eq!(
        e.to_string(),
        format!(
            "dimension 0 has size {}, which does not fit in i64",
            usize::MAX
        )
    );
}

#[test]
fn text_longer_than_spans_can_address_is_refused() {
    #[cfg(target_pointer_width = "64")]
    {
        // One byte past the limit, refused before any lexing. Zeroed
        // memory is mapped lazily, so this costs no 4 GiB of RAM.
        let text = String::from_utf8(vec![0u8; MAX_TEXT_LEN + 1]).unwrap();
        let e = parse(&text).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::CapacityExceeded);
        assert_eq!(
            e.values(),
            [5, MAX_TEXT_LEN as i128 + 1, MAX_TEXT_LEN as i128]
        );
        assert!(e.to_string().contains("text length"), "{e}");
        assert_eq!(
            parse_array_unvalidated(&text).unwrap_err().kind(),
            ErrorKind::CapacityExceeded
        );
    }
    let _ = MAX_TEXT_LEN;
}

mod offset_panics {
    //! In debug builds every form's `offset` panics on an index out of
    //! bounds with the same message, naming the index and the dimensions,
    //! at the caller's line.
    use xla_layout::{layout, StaticLayout};

    layout! {
        type Item = f32[3,5]{1,0:T(2,2)};
        type Dynamic = f32[?,5]{1,0:T(2,2)};
    }
    const EXPR: StaticLayout<2> = layout!(f32[3,5]{1,0:T(2,2)});
    const MESSAGE: &str = "layout index [3, 9] is out of bounds for the dimensions [3, 5]";

    #[test]
    #[should_panic(expected = "layout index [3, 9] is out of bounds for the dimensions [3, 5]")]
    fn expression_form() {
        let _ = EXPR.offset([3, 9]);
    }

    #[test]
    #[should_panic(expected = "layout index [3, 9] is out of bounds for the dimensions [3, 5]")]
    fn item_form() {
        let _ = Item::offset([3, 9]);
    }

    #[test]
    #[should_panic(expected = "layout index [3, 9] is out of bounds for the dimensions [3, 5]")]
    fn item_form_with_unbounded_dims() {
        let _ = Dynamic::new([3]).unwrap().offset([3, 9]);
    }

    #[test]
    fn the_panic_points_at_the_caller() {
        use std::sync::Mutex;
        static SEEN: Mutex<Vec<(String, u32, String)>> = Mutex::new(Vec::new());
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(|info| {
            let at = info.location().map(|l| (l.file().to_string(), l.line()));
            let msg = info
                .payload()
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_default();
            if let (Some((file, line)), Ok(mut seen)) = (at, SEEN.lock()) {
                seen.push((file, line, msg));
            }
        }));
        let line = line!() + 1;
        let caught = std::panic::catch_unwind(|| EXPR.offset([3, 9]));
        std::panic::set_hook(previous);
        assert!(caught.is_err());
        // `#[track_caller]`: the location is the call above, not layout-core.
        let seen = SEEN.lock().unwrap();
        assert!(
            seen.iter()
                .any(|(file, l, msg)| file.ends_with("reliability.rs")
                    && *l == line
                    && msg == MESSAGE),
            "{seen:?}"
        );
        assert_eq!(EXPR.checked_offset([3, 9]), None);
    }
}
