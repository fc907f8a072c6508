//! Relayout next to its peers on the same untiled permutations.
//!
//! For each pair (a row-major `f32` or `f64` array of rank 2 to 4, 8 to
//! 64 MiB, and a permutation of its dimensions), times in interleaved
//! rounds:
//!
//! - `memcpy`: `copy_from_slice` of the source's bytes into another buffer
//!   (the baseline);
//! - `ours`: `RelayoutPlan::run` from the row-major layout to the layout
//!   whose order, major to minor, is the permutation (the same bytes as
//!   NumPy's `ascontiguousarray(x.transpose(perm))`), one thread, built
//!   with the crate's default features (the SSE2 kernels); the plan is
//!   made once, before the rounds;
//! - `hptt`: HPTT's `transpose_f32`/`transpose_f64` (row-major, one
//!   thread, alpha 1, beta 0) through the `hptt` crate, when the `hptt`
//!   feature is on (the default). The crate exposes no plan object: each
//!   call makes HPTT's `ESTIMATE` plan, so that is in its time.
//!
//! Every figure is a fraction of `memcpy`: the median of its times over
//! the rounds divided into the median of `memcpy`'s (1.0 is as fast as
//! `memcpy`, 0.5 twice as slow). HPTT's result is checked against ours
//! byte for byte once per pair.
//!
//! Settings, by environment: `PEERS_ROUNDS` (5), `PEERS_SEED` (25) and
//! `PEERS_RANDOM` (6) for the random pairs. `numpy_peer.py` draws the same
//! pairs from the same seed.

use std::hint::black_box;
use std::time::{Duration, Instant};

use layout_core::{parse_array, Element, RelayoutPlan};

/// SplitMix64, as in the main workspace's `relayout_pairs` bench: the same
/// pairs on every machine, and a few lines in Python too.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// One pair: element width in bytes, row-major dimensions, and the
/// permutation (`perm[k]` is the source dimension that becomes the
/// destination's `k`-th, NumPy's `transpose` convention).
struct Pair {
    width: usize,
    dims: Vec<usize>,
    perm: Vec<usize>,
}

impl Pair {
    fn type_name(&self) -> &'static str {
        if self.width == 4 {
            "f32"
        } else {
            "f64"
        }
    }

    fn bytes(&self) -> usize {
        self.dims.iter().product::<usize>() * self.width
    }

    /// The source and destination layouts in XLA's syntax.
    fn layouts(&self) -> (String, String) {
        let shape = format!("{}[{}]", self.type_name(), join(self.dims.iter().copied()));
        let rank = self.dims.len();
        let from = format!("{shape}{{{}}}", join((0..rank).rev()));
        let to = format!("{shape}{{{}}}", join(self.perm.iter().rev().copied()));
        (from, to)
    }
}

fn join(xs: impl Iterator<Item = usize>) -> String {
    xs.map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

const MIB: usize = 1 << 20;

/// The fixed pairs, then `count` random ones from `seed`.
fn pairs(seed: u64, count: usize) -> Vec<Pair> {
    let mut out = vec![
        Pair {
            width: 4,
            dims: vec![4096, 4096],
            perm: vec![1, 0],
        },
        Pair {
            width: 8,
            dims: vec![2048, 4096],
            perm: vec![1, 0],
        },
        Pair {
            width: 4,
            dims: vec![128, 16, 16, 288],
            perm: vec![3, 2, 1, 0],
        },
        Pair {
            width: 8,
            dims: vec![64, 16, 16, 288],
            perm: vec![3, 2, 1, 0],
        },
    ];
    let mut rng = Rng(seed);
    for _ in 0..count {
        let rank = 2 + rng.below(3) as usize;
        let width = if rng.below(2) == 0 { 4 } else { 8 };
        // Each dimension log-uniform in 2..8192 (integers only, so that
        // Python draws the same), redrawn until the array is 8 to 64 MiB.
        let dims = loop {
            let dims: Vec<usize> = (0..rank)
                .map(|_| {
                    let e = 1 + rng.below(12);
                    ((1u64 << e) + rng.below(1u64 << e)) as usize
                })
                .collect();
            let bytes = dims.iter().product::<usize>() * width;
            if (8 * MIB..=64 * MIB).contains(&bytes) {
                break dims;
            }
        };
        let perm = loop {
            let mut perm: Vec<usize> = (0..rank).collect();
            for i in (1..rank).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                perm.swap(i, j);
            }
            if perm.iter().enumerate().any(|(i, &p)| i != p) {
                break perm;
            }
        };
        out.push(Pair { width, dims, perm });
    }
    out
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn time(f: impl FnOnce()) -> Duration {
    let t = Instant::now();
    f();
    t.elapsed()
}

fn median(xs: &mut [Duration]) -> f64 {
    xs.sort_unstable();
    xs[xs.len() / 2].as_secs_f64()
}

/// The element types HPTT takes here.
trait Peer: Element + Copy + Default + PartialEq + std::fmt::Debug {
    fn from_index(i: usize) -> Self;
    #[cfg(feature = "hptt")]
    fn hptt(perm: &[usize], shape: &[usize], src: &[Self], dst: &mut [Self]);
}

impl Peer for f32 {
    fn from_index(i: usize) -> Self {
        (i % 1_000_003) as f32
    }
    #[cfg(feature = "hptt")]
    fn hptt(perm: &[usize], shape: &[usize], src: &[f32], dst: &mut [f32]) {
        hptt::transpose_f32(
            perm,
            1.0,
            src,
            shape,
            0.0,
            dst,
            1,
            hptt::MemoryOrder::RowMajor,
        )
        .unwrap()
    }
}

impl Peer for f64 {
    fn from_index(i: usize) -> Self {
        i as f64
    }
    #[cfg(feature = "hptt")]
    fn hptt(perm: &[usize], shape: &[usize], src: &[f64], dst: &mut [f64]) {
        hptt::transpose_f64(
            perm,
            1.0,
            src,
            shape,
            0.0,
            dst,
            1,
            hptt::MemoryOrder::RowMajor,
        )
        .unwrap()
    }
}

/// Fractions of `memcpy` for ours and HPTT (NaN without it).
fn measure<T: Peer>(pair: &Pair, rounds: usize) -> (f64, f64) {
    let (from, to) = pair.layouts();
    let (a, b) = (parse_array(&from).unwrap(), parse_array(&to).unwrap());
    let plan = RelayoutPlan::new(&a, &b).unwrap();
    let n: usize = pair.dims.iter().product();
    let src: Vec<T> = (0..n).map(T::from_index).collect();
    let mut copy = vec![T::default(); n];
    let mut ours = vec![T::default(); n];
    #[cfg(feature = "hptt")]
    let mut theirs = vec![T::default(); n];
    let (mut tm, mut tr, mut th) = (vec![], vec![], vec![]);
    // Round 0 is not timed: pages mapped, caches warm, results checked.
    for round in 0..=rounds {
        let m = time(|| copy.copy_from_slice(black_box(&src)));
        let o = time(|| plan.run(black_box(&src), &mut ours).unwrap());
        #[cfg(feature = "hptt")]
        let h = time(|| T::hptt(&pair.perm, &pair.dims, black_box(&src), &mut theirs));
        #[cfg(feature = "hptt")]
        if round == 0 {
            assert!(ours == theirs, "HPTT and ours differ on {from} -> {to}");
        }
        if round > 0 {
            tm.push(m);
            tr.push(o);
            #[cfg(feature = "hptt")]
            th.push(h);
        }
    }
    let m = median(&mut tm);
    let h = if th.is_empty() {
        f64::NAN
    } else {
        m / median(&mut th)
    };
    (m / median(&mut tr), h)
}

fn main() {
    let rounds = env("PEERS_ROUNDS", 5).max(1) as usize;
    let seed = env("PEERS_SEED", 25);
    let count = env("PEERS_RANDOM", 6) as usize;
    println!(
        "peers: {rounds} rounds, seed {seed}; ours: default features (SSE2 kernels), one thread; hptt: {}",
        if cfg!(feature = "hptt") {
            "one thread, as its CMake built it"
        } else {
            "not built"
        }
    );
    println!("{:>3} {:>6} {:>6} {:>6}  pair", "#", "MiB", "ours", "hptt");
    for (i, pair) in pairs(seed, count).iter().enumerate() {
        let (o, h) = if pair.width == 4 {
            measure::<f32>(pair, rounds)
        } else {
            measure::<f64>(pair, rounds)
        };
        let (from, to) = pair.layouts();
        println!(
            "{i:>3} {:>6.1} {o:>6.3} {h:>6.3}  {from} -> {to}  perm {:?}",
            pair.bytes() as f64 / MIB as f64,
            pair.perm
        );
    }
}
