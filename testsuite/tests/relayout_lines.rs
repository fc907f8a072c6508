//! The lines copy (`RelayoutPlan::run_bytes_lines`, the `relayout_pairs`
//! bench's ceiling): it writes every destination byte the relayout
//! writes, and for whole slots the same slots, each element once (in
//! other places: it is no relayout), with the relayout's length errors.

#[path = "support/slots.rs"]
mod slots;

use slots::random_bytes;
use xla_layout::RelayoutKernel::*;
use xla_layout::{parse_array, RelayoutPlan};

/// The destination bytes `copy` writes: those that differ from the
/// buffer's first bytes when it starts all zeros or all ones (a byte
/// written the same way both times cannot equal both).
fn written(len: usize, mut copy: impl FnMut(&mut [u8])) -> (Vec<bool>, Vec<u8>) {
    let (mut zeros, mut ones) = (vec![0u8; len], vec![0xFFu8; len]);
    copy(&mut zeros);
    copy(&mut ones);
    let set = zeros
        .iter()
        .zip(&ones)
        .map(|(&a, &b)| a != 0 || b != 0xFF)
        .collect();
    (set, zeros)
}

/// Whole slots of `size` bytes, sorted.
fn sorted_slots(buf: &[u8], size: usize) -> Vec<&[u8]> {
    let mut v: Vec<&[u8]> = buf.chunks(size).collect();
    v.sort_unstable();
    v
}

#[test]
fn lines_write_what_the_relayout_writes() {
    // Each pair's kernel (`describe`) today, for what the pairs cover;
    // not checked here (`relayout_kernels.rs` pins the kernels).
    for (from, to, _kernel) in [
        // A transpose, odd sizes, tiles, rank 3.
        ("f32[300,200]{1,0}", "f32[300,200]{0,1}", Squares),
        ("u8[37,53]{1,0}", "u8[37,53]{0,1}", Squares),
        ("u8[1024,3]{1,0}", "u8[1024,3]{0,1:T(2,128)}", Blocks),
        // A few rows split out of tuples and woven into them.
        ("u8[1024,3]{1,0}", "u8[1024,3]{0,1}", Split),
        ("f32[7,700]{1,0}", "f32[7,700]{0,1}", Weave),
        ("f32[100,100]{1,0}", "f32[100,100]{1,0:T(8,128)}", Runs),
        ("f32[64,48,5]{2,1,0}", "f32[64,48,5]{2,0,1}", Runs),
        ("f32[100,300]{1,0}", "f32[100,300]{0,1:T(8,128)}", Squares),
        ("u8[76,28,60]{2,1,0}", "u8[76,28,60]{0,2,1}", Squares),
        (
            "u32[1281,192]{0,1:T(2,128)}",
            "u32[1281,192]{1,0:T(2,128)}",
            Blocks,
        ),
        // `(2,1)` sub-tiles: woven, split, as units, transposed on both
        // sides, against another order.
        (
            "bf16[64,256]{1,0}",
            "bf16[64,256]{1,0:T(8,128)(2,1)}",
            Weave,
        ),
        (
            "bf16[64,256]{1,0:T(8,128)(2,1)}",
            "bf16[64,256]{1,0}",
            Split,
        ),
        (
            "bf16[64,256]{1,0}",
            "bf16[64,256]{0,1:T(8,128)(2,1)}",
            Units,
        ),
        (
            "bf16[64,256]{1,0:T(8,128)(2,1)}",
            "bf16[64,256]{0,1:T(8,128)(2,1)}",
            SubTiles,
        ),
        (
            "f16[51,128,67]{1,0,2:T(4,128)(2,1)}",
            "f16[51,128,67]{2,1,0}",
            Blocks,
        ),
        // Source rows of every other slot (the other is the padding of a
        // `(2,1)` pair): blocks whose rows are no runs.
        (
            "bf16[16,130,24,1]{1,3,0,2:T(4,128)(2,1)}",
            "bf16[16,130,24,1]{3,2,0,1}",
            Blocks,
        ),
        // No blocks: strided steps; no common chains: element by element.
        ("f32[40,1]{1,0}", "f32[40,1]{1,0:T(8,128)}", Strided),
        ("f32[12,8]{1,0:T(4,8)}", "f32[12,8]{1,0:T(3,8)}", Strided),
        // Packed slots, in bytes (approximately): transposed, whole bytes,
        // unpacked, 2-bit.
        (
            "s4[64,130]{1,0:E(4)}",
            "s4[64,130]{0,1:E(4)}",
            NibbleTranspose,
        ),
        (
            "s4[64,256]{1,0:T(8,128)(2,1)E(4)}",
            "s4[64,256]{0,1:E(4)}",
            Squares,
        ),
        ("s4[16,18]{1,0:E(4)}", "s4[16,18]{0,1}", Strided),
        // Odd sides: the cut into whole blocks leaves single rows.
        ("s4[65,129]{1,0:E(4)}", "s4[65,129]{0,1:E(4)}", PackedBlocks),
        ("u2[33,70]{1,0:E(2)}", "u2[33,70]{0,1:E(2)}", PackedBlocks),
    ] {
        let (a, b) = (parse_array(from).unwrap(), parse_array(to).unwrap());
        let plan = RelayoutPlan::new(&a, &b).unwrap();
        let steps = plan.describe();
        let src = random_bytes(plan.source_bytes() as usize, 7);
        let len = plan.destination_bytes() as usize;
        let (want, copied) = written(len, |d| plan.run_bytes(&src, d).unwrap());
        let (got, lines) = written(len, |d| plan.run_bytes_lines(&src, d).unwrap());
        for (i, (&w, &g)) in want.iter().zip(&got).enumerate() {
            assert!(g || !w, "{from} -> {to}: byte {i} not written");
        }
        if let Some(size) = steps.slot_bytes() {
            // Whole slots: the same bytes written, the same slots moved.
            assert_eq!(want, got, "{from} -> {to}");
            let size = size as usize;
            assert_eq!(
                sorted_slots(&copied, size),
                sorted_slots(&lines, size),
                "{from} -> {to}"
            );
        }
    }
}

#[test]
fn lines_refuse_the_lengths_the_relayout_refuses() {
    let a = parse_array("f32[3,5]{1,0}").unwrap();
    let b = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
    let plan = RelayoutPlan::new(&a, &b).unwrap();
    let (s, d) = (
        plan.source_bytes() as usize,
        plan.destination_bytes() as usize,
    );
    for (sl, dl) in [(s - 1, d), (s + 4, d), (s, d - 1), (s, d + 1), (0, 0)] {
        let src = vec![0u8; sl];
        let (mut one, mut two) = (vec![0u8; dl], vec![0u8; dl]);
        let want = plan.run_bytes(&src, &mut one).unwrap_err();
        let got = plan.run_bytes_lines(&src, &mut two).unwrap_err();
        assert_eq!(
            (got.kind(), got.to_string()),
            (want.kind(), want.to_string())
        );
        assert!(two.iter().all(|&x| x == 0), "nothing written");
    }
}
