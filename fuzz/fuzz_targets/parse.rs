//! Fuzz target for the text pipeline: parse -> validate -> print -> re-parse,
//! plus offset / index_of round trips for small arrays.
#![no_main]

use std::collections::HashSet;

use layout_core::{parse, parse_array_unvalidated, validate_all, ArrayShape, Dim, Shape};
use libfuzzer_sys::fuzz_target;

/// Largest allocation (in element slots) whose every index is walked.
const MAX_WALK: u64 = 4096;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };

    // Never panics, whatever the input.
    if let Ok(a) = parse_array_unvalidated(text) {
        let errors = validate_all(&a);
        let _ = errors.len();
        for e in errors.iter() {
            let _ = (e.kind(), e.span(), e.rule(), e.help());
        }
        // Printing an unvalidated array must not panic either.
        let _ = a.to_string();
    }

    let Ok(shape) = parse(text) else {
        return;
    };
    check_shape(&shape, 0);
});

fn check_shape(shape: &Shape<'_>, depth: usize) {
    let printed = shape.to_string();
    let again = match parse(&printed) {
        Ok(s) => s,
        Err(e) => panic!("printed text {printed:?} does not re-parse: {e:?}"),
    };
    assert_eq!(
        *shape, again,
        "re-parsed shape differs; printed text {printed:?}"
    );
    let reprinted = again.to_string();
    assert_eq!(printed, reprinted, "printing is not a fixed point");

    match shape {
        Shape::Array(a) => check_array(a, &printed),
        Shape::Buffer(a) => {
            let inner = a.to_string();
            check_array(a, &inner);
        }
        Shape::Tuple(t) => {
            let mut n = 0;
            for element in t.iter() {
                n += 1;
                // Tuples are bounded by MAX_DEPTH; keep the walk cheap.
                if depth < 4 {
                    check_shape(&element, depth + 1);
                }
            }
            assert_eq!(n, t.len(), "tuple iteration yields len() elements");
        }
        Shape::Token | Shape::Opaque => {}
    }
}

fn check_array(a: &ArrayShape, printed: &str) {
    // The validator agrees with `parse`.
    let unvalidated = match parse_array_unvalidated(printed) {
        Ok(u) => u,
        Err(e) => panic!("parse_array_unvalidated({printed:?}) failed: {e:?}"),
    };
    let errors = validate_all(&unvalidated);
    assert!(
        errors.is_empty(),
        "validate_all({printed:?}) reports {:?}",
        errors.iter().collect::<Vec<_>>()
    );
    assert_eq!(
        a.into_unchecked(),
        unvalidated,
        "parse_array_unvalidated differs for {printed:?}"
    );

    let _ = a.size_in_bytes();
    let _ = a.unpadded_size_in_bytes();
    for level in 0..=a.layout().tile_count() {
        let _ = a.physical_shape(level);
    }

    if a.dims().iter().any(|d| matches!(d, Dim::Unbounded)) {
        assert!(a.element_count().is_err());
        return;
    }
    let Ok(allocated) = a.allocated_elements() else {
        return;
    };
    if allocated > MAX_WALK {
        return;
    }
    let count = a.element_count().expect("element_count of a small array");
    assert!(
        count <= allocated,
        "{printed}: element_count {count} > allocated_elements {allocated}"
    );

    let mut seen = HashSet::new();
    let mut visited: u64 = 0;
    a.for_each_index(|index| {
        visited += 1;
        assert!(
            visited <= count,
            "{printed}: for_each_index visits more than {count}"
        );
        let offset = match a.offset(index) {
            Ok(o) => o,
            Err(e) => panic!("{printed}: offset({index:?}) failed: {e:?}"),
        };
        assert!(
            offset < allocated,
            "{printed}: offset({index:?}) = {offset} >= allocated {allocated}"
        );
        assert!(
            seen.insert(offset),
            "{printed}: offset({index:?}) = {offset} is used twice"
        );
        match a.index_of(offset) {
            Some(back) => assert_eq!(
                back.as_slice(),
                index,
                "{printed}: index_of(offset({index:?}) = {offset})"
            ),
            None => panic!("{printed}: index_of({offset}) = None for index {index:?}"),
        }
    });
    assert_eq!(
        visited, count,
        "{printed}: for_each_index visits {visited}, expected {count}"
    );

    // Memory-order walk: the same indices, each once; without tiles or
    // legacy padding the offsets are 0, 1, 2, ... in that order.
    if count > 0 {
        let dense = a.layout().is_untiled() && a.legacy_padding().is_none();
        let mut index = vec![0u64; a.rank()];
        let mut walked: u64 = 0;
        let mut memory_seen = HashSet::new();
        loop {
            assert!(
                walked < count,
                "{printed}: memory-order walk longer than {count}"
            );
            let offset = a.offset(&index).expect("offset in memory-order walk");
            assert!(
                seen.contains(&offset),
                "{printed}: memory-order walk reaches {index:?} not in logical walk"
            );
            assert!(
                memory_seen.insert(offset),
                "{printed}: memory-order walk repeats {index:?}"
            );
            if dense {
                assert_eq!(
                    offset, walked,
                    "{printed}: untiled offset of {index:?} in memory order"
                );
            }
            walked += 1;
            let before = index.clone();
            if !a.next_index_in_memory_order(&mut index) {
                assert_eq!(
                    index, before,
                    "{printed}: last next_index_in_memory_order changed the index"
                );
                break;
            }
        }
        assert_eq!(
            walked, count,
            "{printed}: memory-order walk visits {walked}, expected {count}"
        );
    }

    // Every other slot is padding.
    let mut live: u64 = 0;
    for offset in 0..allocated {
        if let Some(index) = a.index_of(offset) {
            live += 1;
            assert!(
                seen.contains(&offset),
                "{printed}: index_of({offset}) = {:?} but no index maps there",
                index.as_slice()
            );
        }
    }
    assert_eq!(
        live, count,
        "{printed}: index_of finds {live} live slots, expected {count}"
    );
}
