//! Bytes, bits and a checked copy for the relayout tests: random source
//! bytes, bit access at slot offsets, and a copy of every slot checked
//! against the offsets both layouts give.
#![allow(dead_code)]

use xla_layout::{parse_array, RelayoutPlan};

/// Bit `i` of `buf` (least significant bit of byte 0 first).
pub fn bit(buf: &[u8], i: usize) -> bool {
    buf[i / 8] >> (i % 8) & 1 == 1
}

/// `n` pseudo-random bytes from `seed` (xorshift).
pub fn random_bytes(n: usize, mut seed: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 24) as u8
        })
        .collect()
}

/// `src` copied by `plan` into a new destination buffer; with `rayon`,
/// the copy on threads must give the same bytes.
pub fn run_checked(plan: &RelayoutPlan, src: &[u8], from: &str, to: &str) -> Vec<u8> {
    let mut dst = vec![0u8; plan.destination_bytes() as usize];
    plan.run_bytes(src, &mut dst).unwrap();
    #[cfg(feature = "rayon")]
    {
        let mut many = vec![1u8; dst.len()];
        plan.par_run_bytes(src, &mut many).unwrap();
        assert_eq!(many, dst, "threads: {from} -> {to}");
    }
    #[cfg(not(feature = "rayon"))]
    let _ = (from, to);
    dst
}

/// Every element of `from` lands at its offset in `to`, slot by slot at
/// the slots' bit offsets (any rank, packed slots too), through
/// `run_bytes` and, with `rayon`, on threads.
pub fn matches_slots(from: &str, to: &str) {
    let (a, b) = (parse_array(from).unwrap(), parse_array(to).unwrap());
    let plan = RelayoutPlan::new(&a, &b).unwrap();
    let src = random_bytes(plan.source_bytes() as usize, 5);
    let dst = run_checked(&plan, &src, from, to);
    let (wa, wb) = (
        a.element_size_in_bits() as usize,
        b.element_size_in_bits() as usize,
    );
    assert_eq!(wa, wb, "{from} -> {to}");
    let dims: Vec<u64> = a.dims().iter().map(|d| d.layout_size().unwrap()).collect();
    let mut index = vec![0u64; dims.len()];
    'all: loop {
        let (x, y) = (
            a.offset(&index).unwrap() as usize,
            b.offset(&index).unwrap() as usize,
        );
        for k in 0..wa {
            assert_eq!(
                bit(&dst, y * wa + k),
                bit(&src, x * wa + k),
                "{from} -> {to} at {index:?}"
            );
        }
        for d in (0..dims.len()).rev() {
            index[d] += 1;
            if index[d] < dims[d] {
                continue 'all;
            }
            index[d] = 0;
        }
        break;
    }
}
