//! Random valid layouts for property tests: a description of each and its
//! XLA text.
#![allow(dead_code)]

use proptest::prelude::*;
use xla_layout::ALL_ELEMENT_TYPES;

/// A valid layout description, small enough to enumerate every element.
#[derive(Clone, Debug)]
pub struct Case {
    pub ty: &'static str,
    pub dims: Vec<(usize, bool)>, // (size, bounded)
    pub m2m: Vec<usize>,
    pub tiles: Vec<Vec<Option<usize>>>,
    pub tail: usize,
    pub element_bits: Option<usize>,
    pub memory_space: Option<u8>,
}

impl Case {
    pub fn text(&self) -> String {
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

pub fn tile_strategy(max_len: usize) -> impl Strategy<Value = Vec<Option<usize>>> {
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

pub fn case_strategy() -> impl Strategy<Value = Case> {
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
