//! Which kernel each family of layout pairs gets (`RelayoutPlan::describe`),
//! and the general blocks on pairs nobody tuned a kernel for: every slot
//! checked at the offsets both layouts give, on one thread and on
//! several.

#[path = "support/slots.rs"]
mod slots;

use slots::matches_slots;
use xla_layout::{parse_array, RelayoutPlan, RelayoutSteps};

/// What the plan of `from` -> `to` decided (`describe`).
fn steps_of(from: &str, to: &str) -> RelayoutSteps {
    let (a, b) = (parse_array(from).unwrap(), parse_array(to).unwrap());
    RelayoutPlan::new(&a, &b).unwrap().describe()
}

/// The kernel each family gets, as `describe` reports it, and the copy
/// right. The kernel reported is the kernel that runs: for whole slots
/// the copy runs what `kernels::choose` names, the function `describe`
/// asks (layout-core's unit test `the_kernel_described_is_the_kernel_run`
/// watches the kernels start on these pairs); in this (debug) build every
/// packed box's copy also checks that the kernel it took is the one
/// `describe` names.
#[test]
fn each_family_gets_its_kernel() {
    use xla_layout::GeneralKernel;
    use xla_layout::RelayoutKernel::*;
    for (from, to, kernel) in [
        ("f32[512,1024]{1,0}", "f32[512,1024]{1,0:T(8,128)}", Runs),
        ("f32[100,100]{1,0}", "f32[100,100]{1,0:T(8,128)}", Runs),
        // Short runs far apart in the destination: walked in tiles.
        ("f32[64,48,5]{2,1,0}", "f32[64,48,5]{2,0,1}", Runs),
        ("u16[36,20,8,3]{3,2,1,0}", "u16[36,20,8,3]{3,1,0,2}", Runs),
        ("f32[512,1024]{1,0}", "f32[512,1024]{0,1}", Squares),
        ("f64[64,64,64]{2,1,0}", "f64[64,64,64]{0,2,1}", Squares),
        // Runs of 3 bytes into tiles of 2 rows: blocks of 64 x 2.
        ("u8[1024,3]{1,0}", "u8[1024,3]{0,1:T(2,128)}", Blocks),
        // A few rows (3 to 8) split out of tuples, or woven into them.
        ("u8[1024,3]{1,0}", "u8[1024,3]{0,1}", Split),
        ("f32[3000,5]{1,0}", "f32[3000,5]{0,1}", Split),
        ("u8[64,3,64]{2,1,0}", "u8[64,3,64]{1,2,0}", Weave),
        ("pred[8,2,553]{2,1,0}", "pred[8,2,553]{0,2,1}", Weave),
        // Every other destination slot (`(2,1)` pairs of a dimension of
        // one, half padding): the blocks' order, element by element.
        (
            "f16[16,300,1]{0,2,1:T(8,128)(2,1)}",
            "f16[16,300,1]{1,2,0:T(4,128)(2,1)}",
            Blocks,
        ),
        // Every fourth destination slot (`(4,1)` quads of a dimension of
        // one) in another order than the source's: a transpose, in the
        // blocks' order. In the same order, strided steps.
        (
            "u8[64,1,300]{0,2,1:T(8,128)(4,1)}",
            "u8[64,1,300]{2,1,0:T(8,128)(4,1)}",
            Blocks,
        ),
        (
            "pred[40,36,1,128]{3,1,0,2:T(8,128)}",
            "pred[40,36,1,128]{1,2,0,3:T(8,128)(4,1)}",
            Blocks,
        ),
        (
            "s16[3000,1]{1,0}",
            "s16[3000,1]{0,1:T(8,128)(2,1)}",
            Strided,
        ),
        (
            "bf16[256,512]{1,0}",
            "bf16[256,512]{1,0:T(8,128)(2,1)}",
            Weave,
        ),
        (
            "bf16[256,512]{1,0:T(8,128)(2,1)}",
            "bf16[256,512]{1,0}",
            Split,
        ),
        // Rows of bytes woven into `(4,1)` sub-tiles, and back: four
        // rows into one run of 4-tuples, four rows out of one; 509 rows
        // leave a tail of each row after the vectors.
        ("s8[64,512]{0,1}", "s8[64,512]{0,1:T(8,128)(4,1)}", Weave),
        ("u8[509,70]{0,1}", "u8[509,70]{0,1:T(32,128)(4,1)}", Weave),
        // leave a tail of each row after the vectors.
        ("s8[64,512]{0,1:T(8,128)(4,1)}", "s8[64,512]{0,1}", Split),
        ("u8[509,70]{0,1:T(32,128)(4,1)}", "u8[509,70]{0,1}", Split),
        (
            "bf16[256,512]{1,0:T(8,128)(2,1)}",
            "bf16[256,512]{0,1:T(8,128)(2,1)}",
            SubTiles,
        ),
        ("s8[256,512]{1,0}", "s8[256,512]{0,1:T(8,128)(4,1)}", Units),
        // Runs whole in the destination, not in the source (rows of an
        // odd number of pairs, of 130 bytes): staged on the stack.
        ("u8[64,130]{1,0}", "u8[64,130]{0,1:T(32,128)(4,1)}", Units),
        ("bf16[32,67]{1,0}", "bf16[32,67]{0,1:T(8,128)(2,1)}", Units),
        // The other way: whole runs in the source only.
        ("u8[64,130]{0,1:T(32,128)(4,1)}", "u8[64,130]{1,0}", Units),
        ("bf16[32,67]{0,1:T(8,128)(2,1)}", "bf16[32,67]{1,0}", Units),
        // `(2,1)` pairs woven 2 x 2 and `(4,1)` quads split 4 x 4 (the
        // tiles transposed too): blocks of 8 and 16 bytes, chunks instead.
        (
            "bf16[48,40,115,1]{1,0,2,3:T(8,128)(2,1)}",
            "bf16[48,40,115,1]{0,2,3,1:T(4,128)(2,1)}",
            Chunks,
        ),
        (
            "pred[27,72,64]{2,1,0:T(8,128)(4,1)}",
            "pred[27,72,64]{0,2,1:T(32,128)(4,1)}",
            Chunks,
        ),
        // Packed slots: each packed kernel.
        (
            "s4[256,512]{1,0:E(4)}",
            "s4[256,512]{0,1:E(4)}",
            NibbleTranspose,
        ),
        // Tiles of 32 rows (destination rows of 16 bytes) and the rows
        // past the last 32 of a tile, shuffled and one pair at a time.
        (
            "s4[32,512]{1,0:E(4)}",
            "s4[32,512]{0,1:E(4)}",
            NibbleTranspose,
        ),
        (
            "s4[100,258]{1,0:E(4)}",
            "s4[100,258]{0,1:E(4)}",
            NibbleTranspose,
        ),
        // Two panels of 8 tiles of 128 rows, then 100 rows (three times
        // 32 shuffled, 4 one pair at a time); rows of two whole tiles'
        // bytes and 22 more.
        (
            "s4[2148,300]{1,0:E(4)}",
            "s4[2148,300]{0,1:E(4)}",
            NibbleTranspose,
        ),
        ("s4[14,675]{1,0:E(4)}", "s4[14,675]{0,1:E(4)}", PackedBlocks),
        // Destination runs of one `(2,1)` pair (2 nibbles) from source
        // runs of 36: too short for the nibble transpose's tiles, and
        // blocks of 2 x 36 slots: chunks of both sides' runs.
        (
            "s4[2,36,8,16]{1,2,3,0:E(4)}",
            "s4[2,36,8,16]{2,0,3,1:T(8,128)(2,1)E(4)}",
            Chunks,
        ),
        // `(4,1)` quads of two rows (a dimension of 2): source runs of
        // 2 slots and 2 of padding, taken with their gaps.
        (
            "s4[32,2,300]{2,1,0:T(8,128)(4,1)E(4)}",
            "s4[32,2,300]{0,2,1:T(8,128)(4,1)E(4)}",
            Chunks,
        ),
        (
            "s4[24,80,36,2]{2,3,1,0:T(8,128)(4,1)E(4)}",
            "s4[24,80,36,2]{2,1,3,0:T(8,128)(4,1)E(4)}",
            Chunks,
        ),
        // Slots of 2 and of 1 bit, in `(4,1)` and `(8,1)` sub-tiles.
        (
            "u2[4,36,8,16]{1,2,3,0:E(2)}",
            "u2[4,36,8,16]{2,0,3,1:T(8,128)(4,1)E(2)}",
            Chunks,
        ),
        (
            "pred[8,36,8,16]{1,2,3,0:E(1)}",
            "pred[8,36,8,16]{2,0,3,1:T(8,128)(8,1)E(1)}",
            Chunks,
        ),
        (
            "s4[72,65,38]{2,0,1:T(16,128)(2,1)E(4)}",
            "s4[72,65,38]{0,1,2:T(8,128)(4,1)E(4)}",
            Chunks,
        ),
        // `(2,1)` pairs woven into runs of one pair, and `(4,1)` quads
        // into runs of one quad (the sub-tiles transposed): chunks, not
        // a byte or two at a time.
        (
            "s4[48,15,40]{2,0,1:T(16,128)(2,1)E(4)}",
            "s4[48,15,40]{0,1,2:T(16,128)(2,1)E(4)}",
            Chunks,
        ),
        (
            "s4[32,20,24]{1,2,0:T(8,128)(4,1)E(4)}",
            "s4[32,20,24]{2,0,1:T(8,128)(4,1)E(4)}",
            Chunks,
        ),
        // 257 columns: blocks of 128 and a last column alone.
        ("s4[70,257]{1,0:E(4)}", "s4[70,257]{0,1:E(4)}", PackedBlocks),
        // `(2,1)` pairs split between two planes: runs of 2 nibbles.
        (
            "s4[64,130,2]{1,2,0:T(16,128)(2,1)E(4)}",
            "s4[64,130,2]{0,1,2:E(4)}",
            PackedBlocks,
        ),
        (
            "s4[257,50]{0,1:E(4)}",
            "s4[257,50]{1,0:T(16,128)(2,1)E(4)}",
            PackedBlocks,
        ),
        (
            "s4[64,256]{1,0:E(4)}",
            "s4[64,256]{1,0:T(8,128)(2,1)E(4)}",
            NibblePairs,
        ),
        (
            "s4[64,256]{1,0:T(8,128)(2,1)E(4)}",
            "s4[64,256]{0,1:T(8,128)(2,1)E(4)}",
            SubTiles,
        ),
        // `(4,1)` quads against `(2,1)` pairs: units of 4 x 2 nibbles.
        (
            "s4[64,256]{1,0:T(8,128)(4,1)E(4)}",
            "s4[64,256]{0,1:T(16,128)(2,1)E(4)}",
            SubTiles,
        ),
        // `(4,1)` nibble quads: four rows woven into runs of 4-tuples and
        // split back (66 rows: a rest of 2 in a box of its own).
        (
            "s4[66,300]{1,0:E(4)}",
            "s4[66,300]{1,0:T(8,128)(4,1)E(4)}",
            NibblePairs,
        ),
        (
            "s4[66,300]{1,0:T(8,128)(4,1)E(4)}",
            "s4[66,300]{1,0:E(4)}",
            NibblePairs,
        ),
        // Nibbles whose every step is whole bytes on both sides: the
        // kernels of whole slots on the bytes (runs of 64 bytes; `(2,1)`
        // pairs, a byte each, transposed in squares; `(4,1)` quads, two
        // bytes each, as units).
        ("s4[64,256]{1,0:E(4)}", "s4[64,256]{1,0:T(8,128)E(4)}", Runs),
        (
            "s4[32,2,1024]{2,0,1:T(16,128)(2,1)E(4)}",
            "s4[32,2,1024]{0,1,2:E(4)}",
            Squares,
        ),
        (
            "s4[64,8,48,64]{2,1,0,3:E(4)}",
            "s4[64,8,48,64]{3,2,0,1:T(8,128)(4,1)E(4)}",
            Units,
        ),
        (
            "s4[33,65]{1,0:E(4)}",
            "s4[33,65]{1,0:T(8,128)E(4)}",
            PackedRuns,
        ),
        // `(2,1)` pairs split into rows that start at odd nibbles (195
        // nibbles a row), and woven from them: shifted to whole bytes on
        // the way.
        (
            "s4[195,193]{0,1:T(16,128)(2,1)E(4)}",
            "s4[195,193]{0,1:E(4)}",
            NibblePairs,
        ),
        (
            "s4[195,193]{0,1:E(4)}",
            "s4[195,193]{0,1:T(16,128)(2,1)E(4)}",
            NibblePairs,
        ),
        // `(4,1)` quads split into rows 93 nibbles apart, and 8-tuples
        // split into rows of 301 and woven from them: the same, through
        // 2 and 4 rows of bytes.
        (
            "s4[93,4,64]{0,2,1:T(8,128)(4,1)E(4)}",
            "s4[93,4,64]{0,2,1:E(4)}",
            NibblePairs,
        ),
        ("s4[8,301]{0,1:E(4)}", "s4[8,301]{1,0:E(4)}", NibblePairs),
        // Runs of 45 quads (fewer than 64), continued in the destination
        // by the next loop: the chunks, which join that loop.
        (
            "s4[16,45,96]{1,0,2:T(8,128)(4,1)E(4)}",
            "s4[16,45,96]{1,2,0:E(4)}",
            Chunks,
        ),
        ("s4[8,301]{1,0:E(4)}", "s4[8,301]{0,1:E(4)}", NibblePairs),
        ("s4[64,256]{1,0}", "s4[64,256]{1,0:E(4)}", Pack),
        ("s4[64,256]{1,0:E(4)}", "s4[64,256]{1,0}", Unpack),
        // The fallback, element by element: slot by slot at bit offsets
        // (slots of two widths), and through both layouts' offsets (no
        // common digit chains: tiles of 3 and 2 rows).
        ("s4[6,5]{1,0:E(4)}", "s4[6,5]{0,1}", Strided),
        ("f32[8,8]{1,0:T(3,4)}", "f32[8,8]{1,0:T(2,4)}", Strided),
    ] {
        let (a, b) = (parse_array(from).unwrap(), parse_array(to).unwrap());
        let plan = RelayoutPlan::new(&a, &b).unwrap();
        let steps = plan.describe();
        assert_eq!(steps.kernel(), Some(kernel), "{from} -> {to}:\n{steps}");
        assert!(steps.to_string().contains(kernel.name()), "{steps}");
        // The general kernel follows the shape of the box: runs need a
        // run contiguous on both sides (copied whole, however the runs
        // are ordered); a transpose needs the destination to continue
        // along a loop the source does not continue along, with that
        // run (units, sub-tiles) as one element where there is one, or
        // (a destination of every other or every fourth slot) the
        // source to take the loops in another order than the
        // destination.
        let loops = steps.loops();
        let unit = match loops.first() {
            Some(l) if (l.src, l.dst) == (1, 1) => l.range,
            _ => 1,
        };
        // (The run as one element: the loop that continues the
        // destination past it, and whether the source continues there.)
        let rest = if unit > 1 { &loops[1..] } else { loops };
        let reordered = rest.windows(2).any(|w| w[0].src > w[1].src);
        let transposed = reordered
            || rest
                .iter()
                .min_by_key(|l| l.dst)
                .is_some_and(|l| l.src != unit);
        match kernel.general() {
            GeneralKernel::Transpose => assert!(transposed, "{from} -> {to}:\n{steps}"),
            GeneralKernel::Runs => assert!(unit > 1, "{from} -> {to}:\n{steps}"),
            GeneralKernel::Strided => {}
        }
        // Packed slots take a kernel of whole slots only as bytes.
        let packed = steps.slot_bytes().is_none();
        let whole_slots = matches!(kernel, Runs | Squares | Units);
        assert_eq!(steps.on_bytes(), packed && whole_slots, "{steps}");
        // The plan decided every box's kernel (the first box's is this).
        // (Layouts without common digit chains walk the whole array
        // element by element, not in boxes.)
        if plan.is_blocked() {
            assert_eq!(steps.box_kernels().len() as u64, steps.boxes().min(64));
            assert_eq!(steps.box_kernels()[0], kernel);
        } else {
            assert!(steps.box_kernels().is_empty(), "{steps}");
        }
        // Slots of two widths (packing, unpacking) are checked by value
        // in the relayout tests; the copy here still runs, and checks its
        // kernel against `describe`'s.
        if a.element_size_in_bits() == b.element_size_in_bits() {
            matches_slots(from, to);
        } else {
            let src = vec![0x5Au8; plan.source_bytes() as usize];
            let mut dst = vec![0u8; plan.destination_bytes() as usize];
            plan.run_bytes(&src, &mut dst).unwrap();
        }
    }
    // An empty array has no box, so no kernel.
    let e = parse_array("f32[0,5]{1,0}").unwrap();
    let steps = RelayoutPlan::new(&e, &e).unwrap().describe();
    assert_eq!((steps.boxes(), steps.kernel()), (0, None));
}

/// `describe` lists the kernel the plan decided for every box, and the
/// first box's block.
#[test]
fn describe_lists_each_box_and_the_block() {
    use xla_layout::RelayoutKernel::*;
    // Squares of 1 KiB a side (256 `f32`), the whole transpose of 2 x 2
    // of them here.
    let s = steps_of("f32[256,256]{1,0}", "f32[256,256]{0,1}");
    assert_eq!(
        (s.box_kernels(), s.block()),
        (&[Squares][..], Some((256, 256)))
    );
    for (from, to, block) in [
        // Bytes: squares of 512 rows a side, not 1 KiB (1024 rows, each a
        // page or more apart); where the block has 64 rows, the other
        // side takes the rest, up to 1 KiB.
        ("u8[4000,4000]{1,0}", "u8[4000,4000]{0,1}", (512, 512)),
        ("u8[64,4000]{1,0}", "u8[64,4000]{0,1}", (64, 960)),
        // Rows 4 KiB apart crowd the caches' sets: 256 rows a side.
        ("u8[4096,4096]{1,0}", "u8[4096,4096]{0,1}", (256, 256)),
        // Tiles of 8 rows into destination rows of 224 bytes: the whole
        // row (28 tiles) joins the block, not a line's worth (8 tiles,
        // cut from 28 as 24 and 4); rows of 2048 bytes: 1 KiB of each
        // (128 tiles), walked in squares that leave the 128 columns'
        // share of two 512-step sides to the rows (896).
        (
            "u8[224,68444]{1,0:T(8,128)}",
            "u8[224,68444]{0,1}",
            (224, 128),
        ),
        (
            "u8[2048,6000]{1,0:T(8,128)}",
            "u8[2048,6000]{0,1}",
            (896, 128),
        ),
        // Destination runs of exactly a line (tiles of 8 rows of `s64`),
        // continued by the next tile: 1 KiB of destination a column
        // (16 tiles), not one line of each of 128 rows 4 KiB apart.
        (
            "s64[12271,512]{0,1:T(8,128)}",
            "s64[12271,512]{1,0}",
            (128, 128),
        ),
        // Source runs of a line (`s64` rows into the 8 rows of
        // `T(8,128)` tiles) continued by a loop of 64 steps: 16 of them
        // join the block (1 KiB of each source row), not one line of
        // each of 128 rows; where the loop holds less than 1 KiB (rows of
        // 24 `s64` into `T(4,128)`), the block keeps its line.
        (
            "s64[512,4476]{0,1}",
            "s64[512,4476]{1,0:T(8,128)}",
            (128, 128),
        ),
        (
            "s64[24,262333]{0,1}",
            "s64[24,262333]{1,0:T(4,128)}",
            (128, 4),
        ),
        // 4-byte elements whose source runs are 16 bytes (the 4 rows of
        // `T(4,128)`) likewise: 64 steps of the loop of 5295 join; runs
        // of 8 bytes (`T(2,128)`) keep their join of a line's worth.
        (
            "f32[21182,352]{0,1}",
            "f32[21182,352]{1,0:T(4,128)}",
            (128, 256),
        ),
        ("f32[300,260]{0,1}", "f32[300,260]{1,0:T(2,128)}", (128, 16)),
        // `(2,1)` sub-tiles (whole elements) in two rows a side, both
        // continued by later loops: the source's loop joins a line's
        // worth (4 sub-tiles a row), the destination's then a square's
        // side, not a block of 2 x 2.
        (
            "bf16[4000,4100]{0,1:T(4,128)(2,1)}",
            "bf16[4000,4100]{1,0:T(4,128)(2,1)}",
            (64, 8),
        ),
        // Destination runs of a line continued by a loop of 29 steps,
        // which no join of 16 divides: the box is cut at 16, its first
        // part joined whole.
        (
            "s64[29,8,900,33]{2,0,1,3}",
            "s64[29,8,900,33]{1,0,2,3}",
            (128, 128),
        ),
        // Columns of 2 `u32` (`T(2,128)`) continued by a loop of 4009
        // steps, which no join of 8 divides: the box is cut, and its
        // whole joins take blocks of 128 x 16.
        (
            "u32[8018,512]{0,1}",
            "u32[8018,512]{1,0:T(2,128)}",
            (128, 16),
        ),
        // The middle dimension continues both runs (64 B of the source a
        // row): 16 of its steps join the source's side of the block.
        ("s16[48,32,256]{1,0,2}", "s16[48,32,256]{2,0,1}", (256, 512)),
        // General blocks whose 32 columns (destination planes 384 KiB
        // apart) all start in one set of the L1: 16 columns, not 32.
        (
            "s8[32,512,752]{0,1,2}",
            "s8[32,512,752]{1,2,0:T(32,128)(4,1)}",
            (64, 16),
        ),
        // Likewise 16 of 38 columns, which no side of 8 to 16 divides:
        // the box is cut into 32 columns and 6, and the block reported is
        // the one that copies the 32 (not 2, the largest divisor of 38).
        (
            "s8[1024,504,38]{2,1,0}",
            "s8[1024,504,38]{0,1,2:T(8,128)(4,1)}",
            (64, 16),
        ),
    ] {
        assert_eq!(steps_of(from, to).block(), Some(block), "{from} -> {to}");
    }
    // A rest of 36 rows past the 64 of a whole tile: its own box (both
    // split out of 3-tuples, without blocks).
    let s = steps_of("u8[100,3]{1,0}", "u8[100,3]{0,1:T(64)}");
    assert_eq!(s.box_kernels(), [Split, Split]);
    assert_eq!(s.block(), None);
    assert!(
        s.to_string().contains("boxes: 2, kernels: split 2\n"),
        "{s}"
    );
    let s = steps_of("u8[100,3]{1,0}", "u8[100,3]{0,1:T(2,64)}");
    assert_eq!(s.kernel(), Some(Blocks));
    assert_eq!(s.block(), Some((64, 2)));
    // Runs have no block; strided steps neither.
    assert_eq!(
        steps_of("f32[64,256]{1,0}", "f32[64,256]{1,0:T(8,128)}").block(),
        None
    );
    // The packed chunks report their chunk: source runs and their span
    // (with the gaps of two-row `(4,1)` quads: 2 slots, then 2 of
    // padding), destination runs and their length; no block.
    let s = steps_of(
        "s4[32,2,300]{2,1,0:T(8,128)(4,1)E(4)}",
        "s4[32,2,300]{0,2,1:T(8,128)(4,1)E(4)}",
    );
    assert_eq!((s.kernel(), s.block()), (Some(Chunks), None));
    let (rows, span, cols, run) = s.chunk().unwrap();
    assert_eq!((rows, cols, run), (32, 32, 128));
    // 64 quads of the 128 in a tile's row, each 4 slots on, the last 2.
    assert_eq!(span, 63 * 4 + 2);
    assert!(
        s.to_string()
            .contains("chunks of 32 source runs of 254 slots into 32 destination runs of 128"),
        "{s}"
    );
    assert_eq!(
        steps_of("s4[64,256]{1,0:E(4)}", "s4[64,256]{0,1:E(4)}").chunk(),
        None
    );
    // 81 boxes: the first 64 decided and listed, the rest decided as the
    // copy reaches them.
    let s = steps_of(
        "u8[7,7,7,7]{3,2,1,0:T(2,2,2,2)}",
        "u8[7,7,7,7]{0,1,2,3:T(4,4,4,4)}",
    );
    assert_eq!((s.boxes(), s.box_kernels().len()), (81, 64));
    assert!(s.to_string().contains("(of the first 64)"), "{s}");
    matches_slots(
        "u8[7,7,7,7]{3,2,1,0:T(2,2,2,2)}",
        "u8[7,7,7,7]{0,1,2,3:T(4,4,4,4)}",
    );
}

/// The tuned squares' edges, where a vector block's side does not divide
/// what the squares leave: the last block overlaps the one before it; and
/// boxes cut where a loop joined to the blocks has no divisor that fits.
/// Rows and columns of every remainder, rows and destination columns in
/// two loops (`T(8,128)` on one side), sub-tiles transposed on the way.
#[test]
fn squares_edges_match_every_element() {
    use xla_layout::RelayoutKernel::*;
    for (from, to) in [
        ("u8[70,100]{1,0}", "u8[70,100]{0,1}"),
        ("u8[77,93]{0,1}", "u8[77,93]{1,0}"),
        ("u16[45,37]{1,0}", "u16[45,37]{0,1}"),
        ("f32[21,70]{1,0}", "f32[21,70]{0,1}"),
        ("f64[13,11]{1,0}", "f64[13,11]{0,1}"),
        ("pred[70,64,3]{0,1,2:T(8,128)}", "pred[70,64,3]{1,0,2}"),
        ("u8[300,70]{0,1}", "u8[300,70]{1,0:T(8,128)}"),
        ("f32[150,75]{0,1}", "f32[150,75]{1,0:T(8,128)}"),
        (
            "bf16[70,90]{1,0:T(8,128)(2,1)}",
            "bf16[70,90]{0,1:T(8,128)(2,1)}",
        ),
        // Loops the blocks would join whose ranges no divisor fits (41
        // and 13 columns of 8 bytes, 43 tiles of 8 rows): the box cut
        // into whole joins and a rest.
        ("pred[300,328]{1,0}", "pred[300,328]{0,1:T(8,128)}"),
        ("u8[260,104]{1,0}", "u8[260,104]{0,1:T(8,128)}"),
        ("f32[344,256]{1,0:T(8,128)}", "f32[344,256]{0,1:T(8,128)}"),
        // Destination rows of 224 and 200 bytes (28 and 25 tiles of 8
        // rows) joined whole: 3 squares of 64 rows and a rest of 32, and
        // a rest of 8 rows.
        ("u8[224,300]{1,0:T(8,128)}", "u8[224,300]{0,1}"),
        ("pred[200,130]{1,0:T(8,128)}", "pred[200,130]{0,1}"),
        ("f32[88,260]{1,0:T(8,128)}", "f32[88,260]{0,1}"),
        // A loop between the block's two that continues both runs (the
        // middle dimension of both orders): steps of it join the source's
        // side, 16 (a square) of 40 here, and of 37 (no divisor fits)
        // the box is cut into 32 and 5.
        ("s16[40,32,64]{1,0,2}", "s16[40,32,64]{2,0,1}"),
        // Source runs of 9 and 5 bytes continued by a loop of 8 and 14:
        // all of it joins (a line's worth rounded up), and the box is
        // cut where no divisor fits.
        ("u8[70,128,9,8]{2,3,0,1}", "u8[70,128,9,8]{1,3,2,0}"),
        ("f16[30,100,5,14]{2,3,0,1}", "f16[30,100,5,14]{1,3,2,0}"),
        ("pred[60,100,13,5]{2,3,0,1}", "pred[60,100,13,5]{1,3,2,0}"),
        ("s16[37,32,64]{1,0,2}", "s16[37,32,64]{2,0,1}"),
        ("f16[9,64,1,48]{1,0,2,3}", "f16[9,64,1,48]{3,0,1,2}"),
        // Runs shorter than a line: bytes in blocks of 32 and of 16 a
        // side, 2-byte elements in blocks of 16, and rows of 48 bytes
        // 4 KiB apart (one L1 set: in passes).
        ("u8[40,300]{0,1}", "u8[40,300]{1,0}"),
        ("u8[300,20]{1,0}", "u8[300,20]{0,1}"),
        ("s16[24,100]{0,1}", "s16[24,100]{1,0}"),
        ("u8[64,48]{1,0:T(4096)}", "u8[64,48]{0,1}"),
        // Destination runs of one `(2,1)` pair, continued by the next
        // loop (rows into `(2,1)` tiles across the transpose): squares
        // whose rows are pairs of pairs.
        (
            "bf16[41,64,24]{0,1,2}",
            "bf16[41,64,24]{1,2,0:T(8,128)(2,1)}",
        ),
        (
            "f16[4,40,8,50]{1,2,0,3}",
            "f16[4,40,8,50]{3,2,1,0:T(16,128)(2,1)}",
        ),
        // Destination runs of a line (`T(8,128)` rows of `s64`) joined
        // up to 1 KiB: 8 tiles whole, and 16 of 29 steps with the box
        // cut; source runs of a line joined likewise (37 steps of 8
        // `f64`, which no join of 16 divides: cut as 32 and 5), and not
        // where the loop holds less (6 steps of 4 `s64`).
        ("s64[300,70]{0,1:T(8,128)}", "s64[300,70]{1,0}"),
        ("s64[29,8,60,3]{2,0,1,3}", "s64[29,8,60,3]{1,0,2,3}"),
        ("f64[300,260]{0,1}", "f64[300,260]{1,0:T(8,128)}"),
        ("s64[24,300]{0,1}", "s64[24,300]{1,0:T(4,128)}"),
        ("f32[300,300]{0,1}", "f32[300,300]{1,0:T(4,128)}"),
        // Sub-tiles in blocks of two rows a side, both continued by
        // later loops (`(2,1)` and `(4,1)` tilings transposed into
        // themselves): both loops join.
        (
            "bf16[200,300]{0,1:T(4,128)(2,1)}",
            "bf16[200,300]{1,0:T(4,128)(2,1)}",
        ),
        (
            "u8[140,300]{0,1:T(8,128)(4,1)}",
            "u8[140,300]{1,0:T(8,128)(4,1)}",
        ),
    ] {
        assert_some_box_takes(from, to, |k| matches!(k, Squares | SubTiles));
        matches_slots(from, to);
        matches_slots(to, from);
    }
}

/// Asserts that `describe` names a kernel for some box of `from` -> `to`
/// that `ok` accepts.
fn assert_some_box_takes(from: &str, to: &str, ok: impl Fn(&xla_layout::RelayoutKernel) -> bool) {
    let steps = steps_of(from, to);
    assert!(
        steps.box_kernels().iter().any(ok),
        "{from} -> {to}:\n{steps}"
    );
}

/// Squares two columns wide (4-byte units of `(4,1)` sub-tiles, `u32`
/// into `T(2,128)`) whose source rows a later loop continues: that loop
/// joins the block or goes first, and where no divisor of it fits (89 and
/// 45 tiles) the box is cut into whole joins and a rest.
#[test]
fn squares_two_columns_wide_match_every_element() {
    use xla_layout::RelayoutKernel::*;
    for (from, to) in [
        ("s8[300,4,716]{2,1,0}", "s8[300,4,716]{0,2,1:T(8,128)(4,1)}"),
        ("s8[260,4,64]{2,1,0}", "s8[260,4,64]{0,2,1:T(8,128)(4,1)}"),
        ("u32[90,300]{0,1}", "u32[90,300]{1,0:T(2,128)}"),
        ("u32[64,300]{0,1}", "u32[64,300]{1,0:T(2,128)}"),
    ] {
        assert_some_box_takes(from, to, |k| matches!(k, Squares | Units));
        matches_slots(from, to);
    }
}

/// `E(4)` sub-tiles transposed against each other: `(4,1)` quads against
/// `(2,1)` pairs (units of 4 x 2 and 2 x 4 nibbles, 4 bytes), quads
/// against quads (4 x 4, 8 bytes), pairs against pairs (2 x 2); whole
/// tiles, and odd extents whose last tiles' edges take other kernels, a
/// loop outside. Every slot checked, both directions.
#[test]
fn nibble_units_match_every_element() {
    use xla_layout::RelayoutKernel::*;
    for (from, to) in [
        (
            "s4[40,1000]{1,0:T(8,128)(4,1)E(4)}",
            "s4[40,1000]{0,1:T(16,128)(2,1)E(4)}",
        ),
        (
            "s4[37,1001]{1,0:T(8,128)(4,1)E(4)}",
            "s4[37,1001]{0,1:T(16,128)(2,1)E(4)}",
        ),
        (
            "s4[64,256]{1,0:T(8,128)(4,1)E(4)}",
            "s4[64,256]{0,1:T(8,128)(4,1)E(4)}",
        ),
        (
            "s4[3,40,256]{2,1,0:T(8,128)(4,1)E(4)}",
            "s4[3,40,256]{1,2,0:T(16,128)(2,1)E(4)}",
        ),
        (
            "s4[36,90]{1,0:T(8,128)(2,1)E(4)}",
            "s4[36,90]{0,1:T(8,128)(4,1)E(4)}",
        ),
        (
            "s4[64,256]{1,0:T(8,128)(2,1)E(4)}",
            "s4[64,256]{0,1:T(8,128)(2,1)E(4)}",
        ),
    ] {
        for (from, to) in [(from, to), (to, from)] {
            assert_some_box_takes(from, to, |k| matches!(k, SubTiles));
            matches_slots(from, to);
        }
    }
}

/// Nibble transposes whose destination run (the rows of a `(4,1)` or
/// `(2,1)` sub-tile) the next sub-tiles continue: the loop that continues
/// it joins the block's rows, in groups (512 rows of 4, 208 of 2, 288 of
/// 16, 200 of 4 with a tile's edge), where a block used to be the one
/// run's rows. A `(2,1)` pair whose groups make no more than a tile's
/// rows stays in the packed blocks, and 8 rows woven into tuples go as
/// tuples. Every slot checked, both directions.
#[test]
fn nibble_transpose_groups_match_every_element() {
    use xla_layout::RelayoutKernel::*;
    for (from, to, block) in [
        (
            "s4[304,10,128,2]{0,1,2,3:E(4)}",
            "s4[304,10,128,2]{2,1,0,3:T(8,128)(4,1)E(4)}",
            Some((512, 304)),
        ),
        (
            "s4[202,104,4]{0,1,2:E(4)}",
            "s4[202,104,4]{1,2,0:T(8,128)(2,1)E(4)}",
            Some((208, 202)),
        ),
        (
            "s4[18,1,16,168]{3,1,0,2:E(4)}",
            "s4[18,1,16,168]{2,0,1,3:E(4)}",
            Some((288, 168)),
        ),
        (
            "s4[36,181,50]{0,1,2:E(4)}",
            "s4[36,181,50]{2,1,0:T(8,128)(4,1)E(4)}",
            Some((200, 36)),
        ),
        (
            "s4[32,73,61,34]{3,2,0,1:E(4)}",
            "s4[32,73,61,34]{0,1,2,3:T(8,128)(2,1)E(4)}",
            None,
        ),
    ] {
        let plan =
            RelayoutPlan::new(&parse_array(from).unwrap(), &parse_array(to).unwrap()).unwrap();
        let steps = plan.describe();
        match block {
            Some(b) => {
                assert_eq!(steps.kernel(), Some(NibbleTranspose), "{from} -> {to}");
                assert_eq!(steps.block(), Some(b), "{from} -> {to}");
            }
            None => assert_eq!(steps.kernel(), Some(PackedBlocks), "{from} -> {to}"),
        }
        matches_slots(from, to);
        matches_slots(to, from);
    }
    // Fewer rows than the shuffles take (32): 8 rows woven into 8-tuples
    // go as tuples, 64 rows as a nibble transpose.
    for (from, to, kernel) in [
        ("s4[8,4096]{1,0:E(4)}", "s4[8,4096]{0,1:E(4)}", NibblePairs),
        (
            "s4[3,8,1000]{2,1,0:E(4)}",
            "s4[3,8,1000]{1,2,0:E(4)}",
            NibblePairs,
        ),
        (
            "s4[64,4096]{1,0:E(4)}",
            "s4[64,4096]{0,1:E(4)}",
            NibbleTranspose,
        ),
    ] {
        let plan =
            RelayoutPlan::new(&parse_array(from).unwrap(), &parse_array(to).unwrap()).unwrap();
        assert_eq!(plan.describe().kernel(), Some(kernel), "{from} -> {to}");
        matches_slots(from, to);
    }
}

/// Pairs nobody tuned a kernel for (drawn like the `relayout_pairs`
/// bench's, smaller): odd extents, rows that start at odd nibbles, `(2,1)`
/// sub-tiles against other orders, tiles of 2 rows on both sides, and
/// permutations of rank 3 and 4. They take the general blocks (and, for
/// packed slots, the blocks of unpacked bytes); both directions.
#[test]
fn general_blocks_match_every_element() {
    for (from, to) in [
        ("s4[14,675]{1,0:E(4)}", "s4[14,675]{0,1:E(4)}"),
        // Destination columns of one `(4,1)` sub-tile (4 bytes) under
        // source rows of 128: the loop that continues the columns (23
        // steps) walks the blocks first.
        (
            "pred[16,8,32,23]{2,1,0,3:T(32,128)(4,1)}",
            "pred[16,8,32,23]{3,0,1,2:T(32,128)(4,1)}",
        ),
        ("s4[70,257]{1,0:E(4)}", "s4[70,257]{0,1:E(4)}"),
        // Nibble tiles whose source rows and destination runs both start
        // at odd nibbles (odd extents on both sides), an odd number of
        // rows in a tile, and planes that start at odd nibbles.
        ("s4[67,129]{1,0:E(4)}", "s4[67,129]{0,1:E(4)}"),
        ("s4[45,300]{1,0:E(4)}", "s4[45,300]{0,1:E(4)}"),
        ("s4[3,97,131]{2,1,0:E(4)}", "s4[3,97,131]{1,2,0:E(4)}"),
        // `(2,1)` pairs and `(4,1)` quads transposed as units, their
        // source rows starting at odd nibbles (259 a row).
        ("s4[259,50]{0,1:E(4)}", "s4[259,50]{1,0:T(16,128)(2,1)E(4)}"),
        ("s4[259,50]{0,1:E(4)}", "s4[259,50]{1,0:T(8,128)(4,1)E(4)}"),
        ("u8[64,130]{1,0}", "u8[64,130]{0,1:T(32,128)(4,1)}"),
        ("u8[64,130]{0,1:T(32,128)(4,1)}", "u8[64,130]{1,0}"),
        ("bf16[129,41]{0,1:T(8,128)(2,1)}", "bf16[129,41]{1,0}"),
        ("bf16[32,67]{1,0}", "bf16[32,67]{0,1:T(8,128)(2,1)}"),
        ("bf16[129,41]{1,0}", "bf16[129,41]{0,1:T(8,128)(2,1)}"),
        ("s4[129,66]{1,0:E(4)}", "s4[129,66]{0,1:E(4)}"),
        (
            "s4[195,193]{0,1:T(16,128)(2,1)E(4)}",
            "s4[195,193]{0,1:E(4)}",
        ),
        ("s4[258,50]{0,1:E(4)}", "s4[258,50]{1,0:T(16,128)(2,1)E(4)}"),
        (
            "s4[65,6,99,1]{3,0,1,2:E(4)}",
            "s4[65,6,99,1]{2,0,3,1:T(8,128)(2,1)E(4)}",
        ),
        ("u2[33,70]{1,0:E(2)}", "u2[33,70]{0,1:E(2)}"),
        (
            "bf16[32,82,256]{2,0,1:T(4,128)(2,1)}",
            "bf16[32,82,256]{0,1,2}",
        ),
        (
            "f16[51,128,67]{1,0,2:T(4,128)(2,1)}",
            "f16[51,128,67]{2,1,0}",
        ),
        (
            "bf16[25,51,15,1]{1,3,0,2:T(4,128)(2,1)}",
            "bf16[25,51,15,1]{3,2,0,1}",
        ),
        ("u32[1281,192]{0,1:T(2,128)}", "u32[1281,192]{1,0:T(2,128)}"),
        ("u8[76,28,60]{2,1,0}", "u8[76,28,60]{0,2,1}"),
        (
            "u32[1,8,98,678]{1,0,3,2:T(4,128)}",
            "u32[1,8,98,678]{3,2,0,1:T(4,128)}",
        ),
        ("f64[40,131,12]{1,2,0}", "f64[40,131,12]{1,2,0:T(8,128)}"),
        ("s16[227,32,25]{1,0,2}", "s16[227,32,25]{2,0,1}"),
    ] {
        matches_slots(from, to);
        matches_slots(to, from);
    }
}

/// General blocks whose sides are no multiple of the vector tiles: where
/// the tiles leave more than a quarter of a tile, the last tile of a side
/// ends at the block's edge, over slots an earlier tile moved (40 rows of
/// bytes: tiles at 0, 16 and 24; 53 rows of `f16`: 6 tiles of 8 and one
/// at 45; 38 columns of bytes: 0, 16 and 22); a smaller rest moves slot
/// by slot (36 columns: 4). A row loop the block's side does not divide
/// (53 rows of `f16`, 32 a side) is taken whole, not cut into 32 and 21.
/// The blocks' sides are checked, then every slot, both directions.
#[test]
fn general_blocks_with_rests_match_every_element() {
    for (from, to, block) in [
        (
            "s8[40,38,36]{2,1,0}",
            "s8[40,38,36]{0,1,2:T(8,128)(4,1)}",
            (40, 36),
        ),
        (
            "s8[64,52,38]{2,1,0}",
            "s8[64,52,38]{0,1,2:T(8,128)(4,1)}",
            (64, 38),
        ),
        (
            "f16[53,40,130]{1,2,0:T(4,128)(2,1)}",
            "f16[53,40,130]{0,2,1}",
            (53, 40),
        ),
        (
            "f16[53,82,130]{1,2,0:T(4,128)(2,1)}",
            "f16[53,82,130]{0,2,1}",
            (53, 4),
        ),
    ] {
        let steps = steps_of(from, to);
        assert_eq!(
            steps.kernel(),
            Some(xla_layout::RelayoutKernel::Blocks),
            "{from} -> {to}"
        );
        assert_eq!(steps.block(), Some(block), "{from} -> {to}:\n{steps}");
        matches_slots(from, to);
        matches_slots(to, from);
    }
}

/// A few rows (3 to 8) woven into one run of tuples and split back out
/// of it (`weave`, `split`), for elements of 1 to 16 bytes: rows longer
/// than the pieces they go in (700 = 2 x 256 + 188), rows past the first
/// box of a tiled side, a loop outside, and rows too short for these
/// kernels (12). Rows of 1- and 2-byte elements go through the vector
/// shuffles a vector of each row at a time (16 or 8 tuples): whole
/// vectors and a rest (17, 33, 70, 290), rows of exactly 3 vectors whose
/// last tuples' padding would fall past the run (48), and 3 to 8 rows
/// (padded to 4 or 8 in the shuffles). Every slot checked, both
/// directions.
#[test]
fn few_rows_match_every_element() {
    for (from, to) in [
        ("u8[3,700]{1,0}", "u8[3,700]{0,1}"),
        ("s16[5,700]{1,0}", "s16[5,700]{0,1}"),
        ("f32[7,700]{1,0}", "f32[7,700]{0,1}"),
        ("f64[6,700]{1,0}", "f64[6,700]{0,1}"),
        ("c128[8,300]{1,0}", "c128[8,300]{0,1}"),
        ("bf16[4,700]{1,0}", "bf16[4,700]{0,1}"),
        ("pred[8,2,553]{2,1,0}", "pred[8,2,553]{0,2,1}"),
        ("u8[100,3]{1,0}", "u8[100,3]{0,1:T(64)}"),
        ("f32[5,3,300]{2,1,0}", "f32[5,3,300]{1,0,2}"),
        ("u16[12,5]{1,0}", "u16[12,5]{0,1}"),
        ("u8[5,48]{1,0}", "u8[5,48]{0,1}"),
        ("s8[6,2,33]{2,1,0}", "s8[6,2,33]{0,2,1}"),
        ("u8[7,290]{1,0}", "u8[7,290]{0,1}"),
        ("s8[8,17,3]{1,0,2}", "s8[8,17,3]{0,1,2}"),
        ("bf16[3,40]{1,0}", "bf16[3,40]{0,1}"),
        ("f16[6,100]{1,0}", "f16[6,100]{0,1}"),
        ("u16[8,70,2]{1,0,2}", "u16[8,70,2]{0,1,2}"),
        ("bf16[4,3,90]{2,1,0}", "bf16[4,3,90]{0,2,1}"),
    ] {
        matches_slots(from, to);
        matches_slots(to, from);
    }
}

/// Rows of nibbles woven into tuples of 2, 4 or 8 and split back out,
/// where the rows or the tuples start inside a byte (odd extents): rows
/// longer than a piece (600 = 2 x 256 + 88) or not, an odd number of
/// tuples, a loop outside. Every slot checked, both directions.
#[test]
fn nibble_tuples_at_any_phase_match_every_element() {
    for (from, to) in [
        ("s4[8,301]{0,1:E(4)}", "s4[8,301]{1,0:E(4)}"),
        ("s4[8,600]{0,1:E(4)}", "s4[8,600]{1,0:E(4)}"),
        ("s4[4,601]{0,1:E(4)}", "s4[4,601]{1,0:E(4)}"),
        ("s4[2,601]{0,1:E(4)}", "s4[2,601]{1,0:E(4)}"),
        ("s4[3,8,77]{1,2,0:E(4)}", "s4[3,8,77]{2,1,0:E(4)}"),
        (
            "s4[93,4,64]{0,2,1:T(8,128)(4,1)E(4)}",
            "s4[93,4,64]{0,2,1:E(4)}",
        ),
    ] {
        matches_slots(from, to);
        matches_slots(to, from);
    }
}

/// Short runs walked in tiles where a tile loop's range has no side of 4
/// to 16 dividing it (37, 19 and 23 are prime, 34 is 2 x 17): whole tiles
/// of 16 runs, then a rest of 1 to 15 runs, along the source's loop, the
/// destination's, or both; one tile or several before the rest; with a
/// loop besides the two. Every slot checked, both directions.
#[test]
fn runs_tiled_with_a_rest_match_every_element() {
    for (from, to) in [
        ("f64[40,37,5]{2,1,0}", "f64[40,37,5]{2,0,1}"),
        ("f32[37,40,5]{2,1,0}", "f32[37,40,5]{2,0,1}"),
        ("u16[34,19,7]{2,1,0}", "u16[34,19,7]{2,0,1}"),
        ("u8[23,53,33]{2,1,0}", "u8[23,53,33]{2,0,1}"),
        ("bf16[3,34,23,6]{3,2,1,0}", "bf16[3,34,23,6]{3,1,2,0}"),
        ("f32[5,17,3,36,4]{4,3,2,1,0}", "f32[5,17,3,36,4]{4,1,3,2,0}"),
    ] {
        for (from, to) in [(from, to), (to, from)] {
            let steps = steps_of(from, to);
            assert_eq!(
                steps.kernel(),
                Some(xla_layout::RelayoutKernel::Runs),
                "{from} -> {to}:\n{steps}"
            );
            matches_slots(from, to);
        }
    }
}

/// Boxes walked together a slab at a time (a dimension cut by a tile
/// edge at 376 of 384 or 200 of 256, under loops both sides keep
/// outermost; arrays past the 256 KiB a slab takes): every slot, both
/// directions, for packed, byte and `(2,1)` elements.
#[test]
fn boxes_walked_in_slabs_match_every_element() {
    for (from, to) in [
        (
            "s4[64,376,72]{1,0,2:T(16,128)(2,1)E(4)}",
            "s4[64,376,72]{1,0,2:E(4)}",
        ),
        ("u8[64,376,36]{1,0,2:T(8,128)}", "u8[64,376,36]{1,0,2}"),
        (
            "bf16[64,200,40]{1,0,2:T(8,128)(2,1)}",
            "bf16[64,200,40]{1,0,2}",
        ),
    ] {
        matches_slots(from, to);
        matches_slots(to, from);
    }
}

/// Packed blocks whose columns span a few slots of sub-tiles padded
/// past the array (2 or 3 of the 4 rows of a `(4,1)` sub-tile) take in
/// the loop that continues them in the source: every slot, nibbles and
/// 2-bit slots, where the steps taken in divide that loop (32 of a
/// tile's 128 columns) and where they are its rest (4 = 260 - 2 x 128
/// columns).
#[test]
fn packed_blocks_taking_in_a_loop_match_every_element() {
    use xla_layout::RelayoutKernel::PackedBlocks;
    for (from, to) in [
        (
            "s4[2,344,260,2]{2,0,3,1:T(8,128)(4,1)E(4)}",
            "s4[2,344,260,2]{1,0,3,2:E(4)}",
        ),
        (
            "s4[3,344,260,2]{2,0,3,1:T(8,128)(4,1)E(4)}",
            "s4[3,344,260,2]{1,0,3,2:E(4)}",
        ),
        (
            "s2[2,300,260,2]{2,0,3,1:T(8,128)(4,1)E(2)}",
            "s2[2,300,260,2]{1,0,3,2:E(2)}",
        ),
    ] {
        assert_some_box_takes(from, to, |k| *k == PackedBlocks);
        matches_slots(from, to);
    }
}
