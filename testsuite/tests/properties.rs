//! Property tests: printing round-trips, offsets match an independent model
//! of the tiling semantics, the inverse undoes the offset, offsets are
//! distinct and inside the allocation, and no input makes the parser panic.

#[path = "support/cases.rs"]
mod cases;
#[path = "support/reference.rs"]
mod reference;

use cases::case_strategy;
use proptest::prelude::*;
use xla_layout::{parse, parse_array, parse_array_unvalidated, validate_all};

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn print_parse_round_trip(case in case_strategy()) {
        let text = case.text();
        let shape = parse_array(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        let printed = shape.to_string();
        let again = parse_array(&printed).unwrap();
        prop_assert_eq!(again, shape);
        prop_assert_eq!(again.to_string(), printed);
    }

    #[test]
    fn offsets_match_reference_model(case in case_strategy()) {
        let text = case.text();
        let shape = parse_array(&text).unwrap();
        let dims: Vec<usize> = case.dims.iter().map(|d| d.0).collect();
        let model = reference::reference_layout(&dims, &case.m2m, &case.tiles, case.tail);
        prop_assert_eq!(shape.allocated_elements().unwrap() as usize, model.allocated, "{}", text);
        let mut ours = Vec::new();
        shape.for_each_index(|i| ours.push(shape.offset(i).unwrap() as usize));
        prop_assert_eq!(ours, model.offsets, "{}", text);
    }

    #[test]
    fn inverse_undoes_offset_and_offsets_are_distinct(case in case_strategy()) {
        let text = case.text();
        let shape = parse_array(&text).unwrap();
        let allocated = shape.allocated_elements().unwrap();
        let mut seen = vec![false; allocated as usize];
        let mut count = 0u64;
        let mut failure = None;
        shape.for_each_index(|i| {
            let o = shape.offset(i).unwrap();
            if o >= allocated || seen[o as usize] {
                failure = Some(format!("{text}: offset {o} of {i:?} repeated or >= {allocated}"));
            } else {
                seen[o as usize] = true;
            }
            if shape.index_of(o).as_ref().map(|x| x.as_slice()) != Some(i) {
                failure = Some(format!("{text}: index_of({o}) != {i:?}"));
            }
            count += 1;
        });
        prop_assert!(failure.is_none(), "{}", failure.unwrap());
        // Every other slot is padding.
        let real = (0..allocated).filter(|&o| shape.index_of(o).is_some()).count() as u64;
        prop_assert_eq!(real, count);
        prop_assert_eq!(shape.index_of(allocated), None);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        if let Ok(text) = std::str::from_utf8(&bytes) {
            if let Ok(shape) = parse(text) {
                let printed = shape.to_string();
                prop_assert_eq!(parse(&printed).unwrap().to_string(), printed);
            }
            if let Ok(a) = parse_array_unvalidated(text) {
                let _ = validate_all(&a);
            }
        }
    }

    #[test]
    fn mutated_shapes_never_panic(
        case in case_strategy(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(
            vec!["", "*", ",", "(", ")", "{", "}", ":", "-", "0", "9", "T(", "S(", "<=", "?", "/*", "]", "[", "E(", "SC(1:", "D(", "b(", " "]
        )), 1..4),
    ) {
        let mut text = case.text();
        for (at, insert) in edits {
            let i = at.index(text.len() + 1);
            if i < text.len() && insert.is_empty() {
                text.remove(i);
            } else {
                text.insert_str(i.min(text.len()), insert);
            }
        }
        if let Ok(shape) = parse(&text) {
            let printed = shape.to_string();
            prop_assert_eq!(parse(&printed).unwrap().to_string(), printed);
            if let Some(a) = shape.as_array() {
                let _ = a.allocated_elements();
                let _ = a.index_of(0);
            }
        }
        if let Ok(a) = parse_array_unvalidated(&text) {
            prop_assert_eq!(validate_all(&a).is_empty(), parse(&text).is_ok());
        }
    }
}
