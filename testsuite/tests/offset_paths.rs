//! Every offset path against the independent reference model, on random
//! layouts (permutations, multi-level tiles, `*`, `L(n)`, `E(n)`, bounded
//! dims), with legacy padding and with `?` dims resolved at run time:
//! `Plan` (digit tables or the general walk), `StaticLayout` (digits, or
//! its constant plan), `Unresolved::resolve`, the inverse, and the
//! memory-order walk.

#[path = "support/cases.rs"]
mod cases;
#[path = "support/reference.rs"]
mod reference;

use cases::{case_strategy, Case};
use proptest::prelude::*;
use xla_layout::{
    parse_array, ArrayShape, ErrorKind, PaddingValue, Plan, StaticLayout, Unresolved,
};

/// Every logical index of `dims`, last dimension fastest.
fn all_indices(dims: &[usize]) -> Vec<Vec<usize>> {
    let total: usize = dims.iter().product();
    (0..total)
        .map(|mut id| {
            let mut i = vec![0; dims.len()];
            for d in (0..dims.len()).rev() {
                i[d] = id % dims[d];
                id /= dims[d];
            }
            i
        })
        .collect()
}

/// Row-major linear id of `index` within `dims`.
fn linear(dims: &[usize], index: &[usize]) -> usize {
    dims.iter().zip(index).fold(0, |acc, (d, i)| acc * d + i)
}

/// Checks one `StaticLayout` against the expected offsets (`want[i]` for
/// the index `all[i]`) and the plan's inverse.
fn check_static<const R: usize>(
    layout: &StaticLayout<R>,
    plan: &Plan,
    all: &[Vec<usize>],
    want: &[usize],
    allocated: usize,
    what: &str,
) -> Result<(), TestCaseError> {
    for (i, &w) in all.iter().zip(want) {
        let idx: [usize; R] = i.clone().try_into().unwrap();
        prop_assert_eq!(
            layout.checked_offset(idx),
            Some(w),
            "{}: offset of {:?}",
            what,
            i
        );
    }
    for o in 0..allocated {
        let theirs = plan.index_of(o as u64).map(|x| x.as_slice().to_vec());
        let ours = layout
            .index_of(o)
            .map(|x| x.iter().map(|&v| v as u64).collect());
        prop_assert_eq!(ours, theirs, "{}: index_of({})", what, o);
    }
    let walked: Vec<([usize; R], usize)> = layout.memory_order().collect();
    prop_assert_eq!(
        walked.len(),
        all.len(),
        "{}: memory order visits each index once",
        what
    );
    for pair in walked.windows(2) {
        prop_assert!(pair[0].1 < pair[1].1, "{}: memory order ascends", what);
    }
    for (i, o) in walked {
        prop_assert_eq!(layout.offset(i), o, "{}: memory order offset", what);
    }
    Ok(())
}

/// `f::<R>(..)` for the rank of the case (0..=5).
macro_rules! by_rank {
    ($rank:expr, $f:ident($($arg:expr),*)) => {
        match $rank {
            0 => $f::<0>($($arg),*),
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            3 => $f::<3>($($arg),*),
            4 => $f::<4>($($arg),*),
            5 => $f::<5>($($arg),*),
            r => panic!("rank {r} not generated"),
        }
    };
}

/// The static paths of one shape: `from_shape` (digits) or the constant
/// plan the macro would give it, and `?` dims resolved at run time.
fn static_paths<const R: usize>(
    shape: &ArrayShape,
    unbounded: Option<&ArrayShape>,
    all: &[Vec<usize>],
    want: &[usize],
) -> Result<(), TestCaseError> {
    let plan = Plan::new(shape).unwrap();
    let allocated = plan.allocated_elements() as usize;
    let leaked: &'static Plan = Box::leak(Box::new(plan));
    let with_plan = StaticLayout::<R>::__with_plan(shape, "t", leaked).unwrap();
    check_static(&with_plan, &plan, all, want, allocated, "with plan")?;
    match StaticLayout::<R>::from_shape(shape, "t") {
        Ok(fast) => {
            prop_assert!(plan.has_digit_tables());
            prop_assert_eq!(fast, with_plan);
            check_static(&fast, &plan, all, want, allocated, "from_shape")?;
        }
        Err(e) => {
            prop_assert_eq!(e.kind(), ErrorKind::NoDigitTables);
            prop_assert!(!with_plan.has_digit_tables());
        }
    }
    if let Some(dynamic) = unbounded {
        let extents: [usize; R] = std::array::from_fn(|d| match shape.dims()[d].layout_size() {
            Some(n) => n as usize,
            None => 0,
        });
        let u = Unresolved::<R, R>::new(*dynamic, "t");
        match u.resolve(extents) {
            Ok(resolved) => check_static(&resolved, &plan, all, want, allocated, "resolved")?,
            Err(e) => prop_assert_eq!(e.kind(), ErrorKind::NoDigitTables),
        }
    }
    Ok(())
}

/// `case` with every dimension written `?`.
fn all_unbounded(case: &Case) -> String {
    let mut c = case.clone();
    let text = c.text();
    c.dims.iter_mut().for_each(|d| d.1 = false);
    let open = text.find('[').unwrap();
    let close = text.find(']').unwrap();
    let qs = vec!["?"; case.dims.len()].join(",");
    format!("{}[{}]{}", &text[..open], qs, &text[close + 1..])
}

/// Every path of one case against the reference model.
fn every_path(case: &Case) -> Result<(), TestCaseError> {
    let text = case.text();
    let shape = parse_array(&text).unwrap();
    let dims: Vec<usize> = case.dims.iter().map(|d| d.0).collect();
    let model = reference::reference_layout(&dims, &case.m2m, &case.tiles, case.tail);
    let all = all_indices(&dims);

    let plan = Plan::new(&shape).unwrap();
    for (i, want) in all.iter().zip(&model.offsets) {
        let wide: Vec<u64> = i.iter().map(|&x| x as u64).collect();
        prop_assert_eq!(
            plan.offset_unchecked(&wide),
            *want as u64,
            "{}: {:?}",
            text,
            i
        );
        prop_assert_eq!(
            plan.index_of(*want as u64).map(|x| x.as_slice().to_vec()),
            Some(wide.clone()),
            "{}: inverse",
            text
        );
    }
    let dynamic = parse_array(&all_unbounded(case)).ok();
    by_rank!(
        dims.len(),
        static_paths(&shape, dynamic.as_ref(), &all, &model.offsets)
    )
}

/// Digits that step fewer elements than their base: a second tile level
/// over a tile count and its in-tile coordinate puts the high bits of a
/// coordinate more minor than its low bits (`T(2)(2,1)` stores 0, 2, 1, 3).
/// The plan keeps shifts for these; everywhere else its digits are
/// shift-free.
#[test]
fn digits_finer_than_their_base() {
    let cases = [
        (
            vec![8],
            vec![0],
            vec![vec![Some(2)], vec![Some(2), Some(1)]],
        ),
        (
            vec![16, 8],
            vec![1, 0],
            vec![vec![Some(2)], vec![Some(2), Some(1)]],
        ),
        (
            vec![5, 7],
            vec![0, 1],
            vec![vec![Some(4)], vec![Some(2), Some(1)]],
        ),
        (
            vec![6, 12],
            vec![1, 0],
            vec![vec![Some(2), Some(4)], vec![Some(4), Some(2)]],
        ),
    ];
    for (dims, m2m, tiles) in cases {
        let case = Case {
            ty: "f32",
            dims: dims.into_iter().map(|d| (d, false)).collect(),
            m2m,
            tiles,
            tail: 1,
            element_bits: None,
            memory_space: None,
        };
        every_path(&case).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    #[test]
    fn every_offset_path_matches_the_reference_model(case in case_strategy()) {
        every_path(&case)?;
    }

    #[test]
    fn legacy_padding_matches_the_model_of_the_padded_dims(
        case in case_strategy(),
        extra in prop::collection::vec(0usize..3, 6),
    ) {
        let text = case.text();
        let dims: Vec<usize> = case.dims.iter().map(|d| d.0).collect();
        let padded: Vec<usize> = dims.iter().zip(&extra).map(|(d, e)| d + e).collect();
        let wide: Vec<u64> = padded.iter().map(|&p| p as u64).collect();
        let shape = parse_array(&text).unwrap().with_legacy_padding(&wide, PaddingValue::Zero).unwrap();
        // Stored as if the dims were the padded ones; indices stay inside the real dims.
        let model = reference::reference_layout(&padded, &case.m2m, &case.tiles, case.tail);
        let all = all_indices(&dims);
        let want: Vec<usize> = all.iter().map(|i| model.offsets[linear(&padded, i)]).collect();
        prop_assert_eq!(shape.allocated_elements().unwrap() as usize, model.allocated);
        by_rank!(dims.len(), static_paths(&shape, None, &all, &want))?;
    }
}
