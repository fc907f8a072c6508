//! Relayout speed on random layout pairs, not on pairs anyone tuned for.
//!
//! Pairs are drawn from fixed families (see `FAMILIES`) by a fixed seed:
//! rank 2 to 4, 8 to 64 MiB, a random `minor_to_major` on each side, each
//! side tiled or not with a tiling drawn for its element width. Every
//! figure is a fraction of `copy_from_slice` over as many bytes as the
//! destination has (every one of them is written; a padded source is not
//! read whole), measured in the same round: each round times memcpy, then the relayout
//! (and, with the `rayon` feature, a copy on every thread next to
//! `par_run_bytes`), and the fraction is the ratio of the medians over the
//! rounds. Warm: every buffer is written once before the first round.
//! Each pair's line names the kernel of its first box and, below, that
//! box's loops (`RelayoutPlan::describe`); with `rayon`, the `x1` column
//! is the threads' speed as a multiple of one thread's on the same copy
//! (the goal is at least 0.9 on every pair).
//! The same rounds time the lines copy (`RelayoutPlan::run_bytes_lines`,
//! the relayout's lines in its order without the transposing: its
//! ceiling): `lines` is its fraction of memcpy, `of lines` the relayout's
//! speed as a fraction of its (lines time over relayout time). `pad` is
//! the source's bytes over its elements' bytes: above 2 the source is
//! mostly padding (a dimension of one tiled to 128 makes it up to 128),
//! and the copy reads a cache line for a few bytes of it. The summary
//! gives the figures of all pairs, then those of the pairs of `pad` up
//! to 2.
//!
//! Run: `cargo bench -p xla-layout-testsuite --bench relayout_pairs`
//! (add `--features rayon` for the threads' columns; `simd` is a default
//! feature). Settings, by environment: `RELAYOUT_SEED` (default 25),
//! `RELAYOUT_COUNT` pairs (24), `RELAYOUT_ROUNDS` (5), `RELAYOUT_JSON=FILE`
//! writes one JSON object per pair, `RELAYOUT_LIST="FROM -> TO; ..."`
//! measures those pairs instead, and numbers after the bench's name
//! measure only those pairs. The summary lines give the median, the
//! slowest tenth (the 10th percentile) and the worst fraction.

use std::hint::black_box;
use std::time::{Duration, Instant};

use xla_layout::{parse_array, RelayoutPlan};

/// SplitMix64: a few lines, and the same pairs on every machine.
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

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

/// One family: element types of one width, the tilings drawn for it, and
/// whether its untiled layouts are packed (`E(4)`).
struct Family {
    types: &'static [&'static str],
    bits: u64,
    tilings: &'static [&'static str],
    packed: bool,
}

const FAMILIES: &[Family] = &[
    Family {
        types: &["f32", "s32", "u32"],
        bits: 32,
        tilings: &["T(8,128)", "T(4,128)", "T(2,128)", "T(128)"],
        packed: false,
    },
    Family {
        types: &["bf16", "f16", "s16"],
        bits: 16,
        tilings: &[
            "T(8,128)(2,1)",
            "T(16,128)(2,1)",
            "T(4,128)(2,1)",
            "T(8,128)",
        ],
        packed: false,
    },
    Family {
        types: &["s8", "u8", "pred"],
        bits: 8,
        tilings: &["T(8,128)(4,1)", "T(32,128)(4,1)", "T(8,128)"],
        packed: false,
    },
    Family {
        types: &["f64", "s64"],
        bits: 64,
        tilings: &["T(8,128)", "T(4,128)"],
        packed: false,
    },
    Family {
        types: &["s4"],
        bits: 4,
        tilings: &["T(8,128)(2,1)", "T(8,128)(4,1)", "T(16,128)(2,1)"],
        packed: true,
    },
];

/// One random dimension size.
fn dim(rng: &mut Rng) -> u64 {
    match rng.below(10) {
        0 => 1,
        1..=4 => 1 << (1 + rng.below(10)),
        5..=6 => 8 * (1 + rng.below(64)),
        _ => 2 + rng.below(999),
    }
}

/// A random `minor_to_major` of `rank` dimensions.
fn order(rng: &mut Rng, rank: usize) -> Vec<usize> {
    let mut o: Vec<usize> = (0..rank).collect();
    for i in (1..rank).rev() {
        o.swap(i, rng.below(i as u64 + 1) as usize);
    }
    o
}

fn layout(rng: &mut Rng, f: &Family, rank: usize) -> String {
    let m2m: Vec<String> = order(rng, rank).iter().map(|d| d.to_string()).collect();
    let tiled = rng.below(2) == 0;
    let mut attrs = String::new();
    if tiled {
        let tiling: &&str = rng.pick(f.tilings);
        attrs.push_str(tiling);
    }
    if f.packed {
        attrs.push_str("E(4)");
    }
    if attrs.is_empty() {
        format!("{{{}}}", m2m.join(","))
    } else {
        format!("{{{}:{attrs}}}", m2m.join(","))
    }
}

/// The pair number `i` of the run: source and destination layouts.
fn pair(rng: &mut Rng) -> (String, String) {
    let f = rng.pick(FAMILIES);
    let ty = *rng.pick(f.types);
    let rank = 2 + rng.below(3) as usize;
    let mut dims: Vec<u64> = (0..rank).map(|_| dim(rng)).collect();
    // Scale one dimension so the array takes 8 to 64 MiB (log-uniform).
    let target_bits = (8u64 << 20) as f64 * 8f64.powf(rng.below(1000) as f64 / 1000.0) * 8.0;
    let k = rng.below(rank as u64) as usize;
    dims[k] = 1;
    let rest: u64 = dims.iter().product::<u64>() * f.bits;
    dims[k] = ((target_bits / rest as f64).round() as u64).max(1);
    let shape = format!(
        "{ty}[{}]",
        dims.iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    let a = layout(rng, f, rank);
    let mut b = layout(rng, f, rank);
    while b == a {
        b = layout(rng, f, rank);
    }
    (format!("{shape}{a}"), format!("{shape}{b}"))
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn median(xs: &mut [Duration]) -> Duration {
    xs.sort_unstable();
    xs[xs.len() / 2]
}

fn time(f: impl FnOnce()) -> Duration {
    let t = Instant::now();
    f();
    t.elapsed()
}

/// The `p`-quantile of sorted `xs` (nearest rank).
fn quantile(xs: &[f64], p: f64) -> f64 {
    let i = ((xs.len() as f64 - 1.0) * p).round() as usize;
    xs[i.min(xs.len() - 1)]
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument names pairs by number.
    let only: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let seed = env("RELAYOUT_SEED", 25);
    let count = env("RELAYOUT_COUNT", 24) as usize;
    let rounds = env("RELAYOUT_ROUNDS", 5).max(1) as usize;
    let json = std::env::var("RELAYOUT_JSON").ok();
    let mut rng = Rng(seed);
    // `RELAYOUT_LIST="FROM -> TO; FROM -> TO"`: those pairs instead.
    let pairs: Vec<(String, String)> = match std::env::var("RELAYOUT_LIST") {
        Ok(list) => list
            .split(';')
            .filter_map(|p| p.split_once("->"))
            .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
            .collect(),
        Err(_) => (0..count).map(|_| pair(&mut rng)).collect(),
    };
    let mut one = Vec::new();
    let mut many = Vec::new();
    let mut gains = Vec::new();
    let mut lines = Vec::new();
    let (mut ceil, mut of_ceil) = (Vec::new(), Vec::new());
    let threaded = cfg!(feature = "rayon");
    println!(
        "relayout_pairs: seed {seed}, {count} pairs, {rounds} rounds, simd {}, rayon {}",
        cfg!(feature = "simd"),
        threaded
    );
    println!(
        "{:>3} {:>7} {:>7} {:>5} {:>7} {:>8} {:>6} {:>16}  pair (then its loops, innermost first)",
        "#", "1 core", "threads", "x1", "lines", "of lines", "pad", "kernel"
    );
    // The pairs whose source is at most twice its elements' bytes, for
    // the summary's second set of figures.
    let (mut one_lean, mut many_lean) = (Vec::new(), Vec::new());
    for (i, (from, to)) in pairs.iter().enumerate() {
        if !only.is_empty() && !only.contains(&i) {
            continue;
        }
        let (a, b) = (parse_array(from).unwrap(), parse_array(to).unwrap());
        let plan = RelayoutPlan::new(&a, &b).unwrap();
        // Buffers the allocator refuses (a dimension of one tiled to 128
        // can make a side a hundred times the array): the pair is left
        // out, with a line saying so.
        let (sb, db) = (
            plan.source_bytes() as usize,
            plan.destination_bytes() as usize,
        );
        let (mut src, mut dst) = (Vec::<u8>::new(), Vec::<u8>::new());
        let (mut bytes, mut copy) = (Vec::<u8>::new(), Vec::<u8>::new());
        if src.try_reserve_exact(sb).is_err()
            || dst.try_reserve_exact(db).is_err()
            || bytes.try_reserve_exact(db).is_err()
            || copy.try_reserve_exact(db).is_err()
        {
            println!("{i:>3} left out: no memory for {sb} + {db} bytes  {from} -> {to}");
            continue;
        }
        src.extend((0..sb).map(|i| (i * 7 + 3) as u8));
        dst.resize(db, 0);
        // memcpy's bytes: as many as the destination's.
        bytes.extend((0..db).map(|i| (i * 5 + 1) as u8));
        copy.resize(db, 1);
        let (mut tm, mut tr, mut tmt, mut tt) = (vec![], vec![], vec![], vec![]);
        let mut tl = vec![];
        // One untimed round first: pages mapped, caches warm.
        for round in 0..=rounds {
            let m = time(|| copy.copy_from_slice(black_box(&bytes)));
            let r = time(|| plan.run_bytes(black_box(&src), &mut dst).unwrap());
            let l = time(|| plan.run_bytes_lines(black_box(&src), &mut dst).unwrap());
            #[cfg(feature = "rayon")]
            let (mt, t) = {
                use rayon::prelude::*;
                let part = bytes.len().div_ceil(rayon::current_num_threads());
                let mt = time(|| {
                    copy.par_chunks_mut(part)
                        .zip(black_box(&bytes).par_chunks(part))
                        .for_each(|(d, s)| d.copy_from_slice(s))
                });
                let t = time(|| plan.par_run_bytes(black_box(&src), &mut dst).unwrap());
                (mt, t)
            };
            #[cfg(not(feature = "rayon"))]
            let (mt, t) = (m, r);
            if round > 0 {
                tm.push(m);
                tr.push(r);
                tl.push(l);
                tmt.push(mt);
                tt.push(t);
            }
        }
        // The source's bytes over its elements' (padding, and the tiles
        // a dimension of one fills): reads that hold no element. An
        // element takes its stored size (`pred` a byte, `E(4)` a nibble).
        let data = a.element_count().unwrap() as f64 * a.element_size_in_bits() as f64 / 8.0;
        let pad = sb as f64 / data.max(1.0);
        let f1 = median(&mut tm).as_secs_f64() / median(&mut tr).as_secs_f64();
        let fl = median(&mut tm).as_secs_f64() / median(&mut tl).as_secs_f64();
        let fo = median(&mut tl).as_secs_f64() / median(&mut tr).as_secs_f64();
        ceil.push(fl);
        of_ceil.push(fo);
        let ft = median(&mut tmt).as_secs_f64() / median(&mut tt).as_secs_f64();
        // The threads' speed as a multiple of one thread's (the same copy).
        let gain = median(&mut tr).as_secs_f64() / median(&mut tt).as_secs_f64();
        one.push(f1);
        many.push(ft);
        if pad <= 2.0 {
            one_lean.push(f1);
            many_lean.push(ft);
        }
        gains.push(gain);
        let steps = plan.describe();
        let kernel = steps.kernel().map_or("-".to_string(), |k| k.to_string());
        let loops: Vec<String> = steps
            .loops()
            .iter()
            .map(|l| format!("{}x({},{})", l.range, l.src, l.dst))
            .collect();
        let (ft_text, gain_text) = if threaded {
            (format!("{ft:.3}"), format!("{gain:.2}"))
        } else {
            ("-".to_string(), "-".to_string())
        };
        println!(
            "{i:>3} {f1:>7.3} {ft_text:>7} {gain_text:>5} {fl:>7.3} {fo:>8.3} {pad:>6.1} {kernel:>16}  {from} -> {to}\n{:>27}[{}]",
            "",
            loops.join(" ")
        );
        lines.push(format!(
            "{{\"pair\":{i},\"from\":\"{from}\",\"to\":\"{to}\",\"kernel\":\"{kernel}\",\"bytes\":{},\"one\":{f1:.4},\"threads\":{},\"threads_over_one\":{},\"lines\":{fl:.4},\"of_lines\":{fo:.4},\"pad\":{pad:.3}}}",
            dst.len(),
            if threaded { format!("{ft:.4}") } else { "null".into() },
            if threaded { format!("{gain:.4}") } else { "null".into() }
        ));
    }
    for (name, xs) in [
        ("1 core", &mut one),
        ("threads", &mut many),
        ("lines", &mut ceil),
        ("of lines", &mut of_ceil),
    ] {
        if name == "threads" && !threaded || xs.is_empty() {
            continue;
        }
        xs.sort_by(f64::total_cmp);
        let of = if name == "of lines" {
            "the lines copy"
        } else {
            "memcpy"
        };
        println!(
            "{name}: median {:.3}, slowest tenth {:.3}, worst {:.3} (fractions of {of})",
            quantile(xs, 0.5),
            quantile(xs, 0.1),
            xs[0]
        );
    }
    // The same figures without the pairs whose source is mostly padding
    // (more than twice its elements' bytes): those read a line for a few
    // bytes of it, a limit of the machine, not of the copy (see the
    // relayout guide).
    for (name, xs) in [("1 core", &mut one_lean), ("threads", &mut many_lean)] {
        if name == "threads" && !threaded || xs.is_empty() {
            continue;
        }
        xs.sort_by(f64::total_cmp);
        println!(
            "{name}, {} pairs of source padding up to 2x: median {:.3}, slowest tenth {:.3}, worst {:.3}",
            xs.len(),
            quantile(xs, 0.5),
            quantile(xs, 0.1),
            xs[0]
        );
    }
    if threaded && !gains.is_empty() {
        gains.sort_by(f64::total_cmp);
        let below = gains.iter().filter(|&&g| g < 0.9).count();
        println!(
            "threads over one thread: median {:.2}, worst {:.2}, {below} of {} pairs below 0.9",
            quantile(&gains, 0.5),
            gains[0],
            gains.len()
        );
    }
    if let Some(path) = json {
        std::fs::write(path, lines.join("\n") + "\n").unwrap();
    }
}
