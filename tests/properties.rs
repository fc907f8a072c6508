//! Property tests: printing round-trips, offsets match an independent model
//! of the tiling semantics, the inverse undoes the offset, offsets are
//! distinct and inside the allocation, and no input makes the parser panic.

#[path = "support/reference.rs"]
mod reference;

use proptest::prelude::*;
use xla_layout::{parse, parse_array, parse_array_unvalidated, validate_all, ALL_ELEMENT_TYPES};

/// A valid layout description, small enough to enumerate every element.
#[derive(Clone, Debug)]
struct Case {
    ty: &'static str,
    dims: Vec<(usize, bool)>, // (size, bounded)
    m2m: Vec<usize>,
    tiles: Vec<Vec<Option<usize>>>,
    tail: usize,
    element_bits: Option<usize>,
    memory_space: Option<u8>,
}

impl Case {
    fn text(&self) -> String {
        let dims: Vec<String> = self
            .dims
            .iter()
            .map(|&(d, b)| if b { format!("<={d}") } else { d.to_string() })
            .collect();
        let m2m: Vec<String> = self.m2m.iter().map(|d| d.to_string()).collect();
        let mut attrs = String::new();
        if !self.tiles.is_empty() {
            attrs.push('T');
            for t in &self.tiles {
                let e: Vec<String> = t
                    .iter()
                    .map(|e| e.map_or("*".to_string(), |n| n.to_string()))
                    .collect();
                attrs.push_str(&format!("({})", e.join(",")));
            }
        }
        if self.tail != 1 {
            attrs.push_str(&format!("L({})", self.tail));
        }
        if let Some(e) = self.element_bits {
            attrs.push_str(&format!("E({e})"));
        }
        if let Some(s) = self.memory_space {
            attrs.push_str(&format!("S({s})"));
        }
        let layout = if attrs.is_empty() && m2m.is_empty() {
            String::new()
        } else if attrs.is_empty() {
            format!("{{{}}}", m2m.join(","))
        } else {
            format!("{{{}:{attrs}}}", m2m.join(","))
        };
        format!("{}[{}]{layout}", self.ty, dims.join(","))
    }
}

fn tile_strategy(max_len: usize) -> impl Strategy<Value = Vec<Option<usize>>> {
    prop::collection::vec(
        prop_oneof![4 => (1usize..5).prop_map(Some), 1 => Just(None)],
        1..=max_len,
    )
    .prop_map(|mut t| {
        // `*` may not end a tile.
        if t.last() == Some(&None) {
            *t.last_mut().unwrap() = Some(2);
        }
        t
    })
}

fn case_strategy() -> impl Strategy<Value = Case> {
    let types: Vec<&'static str> = ALL_ELEMENT_TYPES
        .iter()
        .filter(|t| t.is_array())
        .map(|t| t.name())
        .collect();
    (
        prop::sample::select(types),
        prop::collection::vec((0usize..8, prop::bool::weighted(0.2)), 0..6),
        prop::collection::vec(tile_strategy(5), 0..4),
        prop_oneof![3 => Just(1usize), 1 => 1usize..9],
        prop::option::weighted(0.2, 0usize..9),
        prop::option::weighted(0.2, 0u8..128),
        any::<prop::sample::Index>(),
    )
        .prop_map(
            |(ty, dims, tiles, tail, element_bits, memory_space, perm)| {
                let mut m2m: Vec<usize> = (0..dims.len()).collect();
                // A deterministic shuffle from the sampled index.
                let mut seed = perm.index(usize::MAX / 2) as u64 | 1;
                for i in (1..m2m.len()).rev() {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    m2m.swap(i, (seed % (i as u64 + 1)) as usize);
                }
                Case {
                    ty,
                    dims,
                    m2m,
                    tiles,
                    tail,
                    element_bits,
                    memory_space,
                }
            },
        )
}

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
