//! What a plan does, in words: [`RelayoutPlan::describe`]. The kernels
//! are those the plan decided when it was made (`decide.rs`:
//! `kernels::choose` for whole slots, `bits::Copier::choose` for packed
//! ones), which the copy runs without choosing again. So the description
//! cannot drift from what runs.

use core::fmt;

use super::bits::Copier;
use super::chunks::{self, Chunk};
use super::decide::DECIDED;
use super::kernels::{self, RelayoutKernel};
use super::modes::{Mode, Nest, MODES};
use super::nibble_block::NibbleBlock;
use super::{How, RelayoutPlan};
use crate::base::limits::MAX_RANK;

/// One loop of a box: `range` steps, each `src` slots on in the source
/// and `dst` slots on in the destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RelayoutLoop {
    /// Steps of the loop.
    pub range: u64,
    /// Source slots per step.
    pub src: u64,
    /// Destination slots per step.
    pub dst: u64,
}

/// What a [`RelayoutPlan`] does ([`RelayoutPlan::describe`]): how the
/// slots are moved, how many boxes the index space is cut into, the
/// kernel the plan decided for each box, and the loops, kernel and block
/// of the first box (the one at index 0, which holds the whole tiles: the
/// others are the rest of dimensions that are not a multiple of a tile).
/// Its `Display` prints all of it.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array, RelayoutKernel, RelayoutPlan};
/// let a = parse_array("f32[512,1024]{1,0}").unwrap();
/// let b = parse_array("f32[512,1024]{0,1}").unwrap();
/// let steps = RelayoutPlan::new(&a, &b).unwrap().describe();
/// assert_eq!(steps.kernel(), Some(RelayoutKernel::Squares));
/// assert_eq!(steps.boxes(), 1);
/// assert_eq!(steps.to_string(), "\
/// slots: 4 bytes, copied whole
/// boxes: 1, kernels: squares 1
/// first box: kernel squares, blocks of 256 x 256
///   loops (innermost first): 512 x (1024, 1), 1024 x (1, 512)
/// ");
///
/// // A dimension that is not a multiple of the tile: the whole tiles and
/// // the rest are two boxes, each with its own kernel (here both split
/// // 3-tuples into 3 rows).
/// let a = parse_array("u8[100,3]{1,0}").unwrap();
/// let b = parse_array("u8[100,3]{0,1:T(64)}").unwrap();
/// let steps = RelayoutPlan::new(&a, &b).unwrap().describe();
/// assert_eq!(steps.box_kernels(), [RelayoutKernel::Split, RelayoutKernel::Split]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct RelayoutSteps {
    slot_bytes: Option<u64>,
    boxes: u64,
    kernel: Option<RelayoutKernel>,
    block: Option<(u64, u64)>,
    chunk: Option<(u64, u64, u64, u64)>,
    on_bytes: bool,
    kernels: [RelayoutKernel; DECIDED],
    decided: usize,
    loops: [RelayoutLoop; MODES],
    len: usize,
}

impl RelayoutSteps {
    /// The kernel of the first box; `None` for an empty array (no box).
    pub fn kernel(&self) -> Option<RelayoutKernel> {
        self.kernel
    }

    /// The kernel the plan decided for each box, in the order the copy
    /// visits them: every box, up to the first 64 (a copy decides the
    /// boxes after those when it reaches them). Empty for element-by-
    /// element copies, whose single walk is no box.
    pub fn box_kernels(&self) -> &[RelayoutKernel] {
        &self.kernels[..self.decided]
    }

    /// The first box's block: how many steps along the destination's
    /// runs by how many along the source's one block moves (for kernels
    /// that move units or sub-tiles, counted in those); `None` for
    /// kernels without blocks (runs, strided steps, chunks, packed
    /// kernels; the chunks report [`RelayoutSteps::chunk`]).
    pub fn block(&self) -> Option<(u64, u64)> {
        self.block
    }

    /// The first box's chunks, where it takes
    /// [`RelayoutKernel::Chunks`] (of packed or of whole slots): how
    /// many source runs a chunk
    /// unpacks and the span of each in slots (gaps of padding included),
    /// then how many destination runs it packs and the length of each.
    /// `None` for other kernels.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, RelayoutKernel, RelayoutPlan};
    /// // Four planes woven (from `(2,1)` tiles into rows): each chunk
    /// // unpacks a whole tile (2048 slots) of each plane and packs 16
    /// // destination runs.
    /// let a = parse_array("s4[64,4,512]{2,0,1:T(16,128)(2,1)E(4)}").unwrap();
    /// let b = parse_array("s4[64,4,512]{1,2,0:E(4)}").unwrap();
    /// let steps = RelayoutPlan::new(&a, &b).unwrap().describe();
    /// assert_eq!(steps.kernel(), Some(RelayoutKernel::Chunks));
    /// assert_eq!(steps.chunk(), Some((4, 2048, 16, 512)));
    /// ```
    pub fn chunk(&self) -> Option<(u64, u64, u64, u64)> {
        self.chunk
    }

    /// How many boxes the index space is cut into (saturating at
    /// `u64::MAX`): 1 where every dimension is a whole number of tiles on
    /// both sides, more where a dimension has a remainder; 0 for an
    /// empty array.
    pub fn boxes(&self) -> u64 {
        self.boxes
    }

    /// The loops of the first box, innermost (smallest destination
    /// stride) first; loops contiguous on both sides are merged. Empty
    /// for element-by-element copies.
    pub fn loops(&self) -> &[RelayoutLoop] {
        &self.loops[..self.len]
    }

    /// Whether the first box's packed slots are copied as bytes: slots
    /// of one width below a byte on both sides (`E(4)`, `E(2)`, `E(1)`),
    /// every step of the box a whole number of bytes. The kernel is then
    /// a kernel of whole slots, run on the bytes, and [`block`](Self::block)
    /// counts bytes. `false` for whole slots.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, RelayoutKernel, RelayoutPlan};
    /// // Rows of nibbles into `T(8,128)` tiles: runs of 128 nibbles, 64
    /// // bytes, on both sides, copied as the runs of whole bytes.
    /// let a = parse_array("s4[64,256]{1,0:E(4)}").unwrap();
    /// let b = parse_array("s4[64,256]{1,0:T(8,128)E(4)}").unwrap();
    /// let steps = RelayoutPlan::new(&a, &b).unwrap().describe();
    /// assert!(steps.on_bytes());
    /// assert_eq!(steps.kernel(), Some(RelayoutKernel::Runs));
    /// assert!(steps.to_string().contains("first box: kernel runs on whole bytes\n"));
    ///
    /// // A nibble transpose moves single nibbles: bit offsets.
    /// let b = parse_array("s4[64,256]{0,1:E(4)}").unwrap();
    /// let steps = RelayoutPlan::new(&a, &b).unwrap().describe();
    /// assert!(!steps.on_bytes());
    /// ```
    pub fn on_bytes(&self) -> bool {
        self.on_bytes
    }

    /// The bytes of a slot where whole slots are copied (1, 2, 4, 8 or
    /// 16); `None` where slots are packed or differ in size between the
    /// layouts.
    pub fn slot_bytes(&self) -> Option<u64> {
        self.slot_bytes
    }
}

impl fmt::Display for RelayoutSteps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.slot_bytes {
            Some(b) => writeln!(f, "slots: {b} bytes, copied whole")?,
            None => writeln!(f, "slots: packed or of two sizes, copied at bit offsets")?,
        }
        write!(f, "boxes: {}", self.boxes)?;
        // Each kernel with its count of boxes, in the order of first use.
        let kernels = self.box_kernels();
        for (i, k) in kernels.iter().enumerate() {
            if kernels[..i].contains(k) {
                continue;
            }
            let count = kernels.iter().filter(|x| *x == k).count();
            let sep = if i == 0 { ", kernels: " } else { ", " };
            write!(f, "{sep}{k} {count}")?;
        }
        if (self.decided as u64) < self.boxes {
            write!(f, " (of the first {})", self.decided)?;
        }
        writeln!(f)?;
        if let Some(k) = self.kernel {
            write!(f, "first box: kernel {k}")?;
            if self.on_bytes {
                f.write_str(" on whole bytes")?;
            }
            if let Some((p, q)) = self.block {
                write!(f, ", blocks of {p} x {q}")?;
            }
            if let Some((rows, span, cols, run)) = self.chunk {
                write!(
                    f,
                    ", chunks of {rows} source runs of {span} slots into {cols} destination runs of {run}"
                )?;
            }
            writeln!(f)?;
        }
        if !self.loops().is_empty() {
            f.write_str("  loops (innermost first): ")?;
            for (i, l) in self.loops().iter().enumerate() {
                let sep = if i == 0 { "" } else { ", " };
                write!(f, "{sep}{} x ({}, {})", l.range, l.src, l.dst)?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl RelayoutPlan {
    /// What this plan does: the slots, the boxes and the kernel decided
    /// for each, and the loops, kernel and block of the first box. The
    /// kernels are those the copy runs (the plan decided them when it was
    /// made), so a test can assert which kernel a pair gets.
    /// (Typed copies without the `simd` feature take the same kernels on
    /// their elements.)
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, RelayoutKernel, RelayoutPlan};
    /// let a = parse_array("bf16[256,512]{1,0}").unwrap();
    /// let b = parse_array("bf16[256,512]{1,0:T(8,128)(2,1)}").unwrap();
    /// let steps = RelayoutPlan::new(&a, &b).unwrap().describe();
    /// assert_eq!(steps.kernel(), Some(RelayoutKernel::Weave));
    /// assert_eq!(steps.slot_bytes(), Some(2));
    /// ```
    pub fn describe(&self) -> RelayoutSteps {
        let mut out = RelayoutSteps {
            slot_bytes: self.slot_bytes(),
            boxes: 0,
            kernel: None,
            block: None,
            chunk: None,
            on_bytes: false,
            kernels: [RelayoutKernel::Runs; DECIDED],
            decided: 0,
            loops: [RelayoutLoop {
                range: 0,
                src: 0,
                dst: 0,
            }; MODES],
            len: 0,
        };
        let How::Chains(chains) = &self.how else {
            out.boxes = u64::from(!self.limits[..self.rank].contains(&0));
            out.kernel = (out.boxes > 0).then_some(RelayoutKernel::Strided);
            return out;
        };
        let nest = self.with_pieces(chains, |of| {
            out.boxes = of[..self.rank]
                .iter()
                .fold(1u64, |b, p| b.saturating_mul(p.len() as u64));
            let mut nest = Nest::new();
            if out.boxes > 0 {
                nest.of_box(chains, of, &[0; MAX_RANK], self.rank);
            }
            nest
        });
        if out.boxes == 0 {
            return out;
        }
        for (l, m) in out.loops.iter_mut().zip(nest.loops()) {
            let Mode { range, src, dst } = *m;
            *l = RelayoutLoop { range, src, dst };
        }
        out.len = nest.loops().len();
        let decided = self.decided.all();
        out.kernels[..decided.len()].copy_from_slice(decided);
        out.decided = decided.len();
        let kernel = self
            .decided
            .kernel(0)
            .unwrap_or_else(|| self.kernel_of(&nest));
        out.kernel = Some(kernel);
        self.shapes(kernel, &nest, &mut out);
        out
    }

    /// The block and the chunks of `kernel` on box `nest`, into `out`:
    /// for packed slots whose box is whole bytes on both sides, those of
    /// the kernel of whole slots on the bytes (which is how they are
    /// copied). Out of line: the byte nest is 3 KiB at rank 16.
    #[inline(never)]
    fn shapes(&self, kernel: RelayoutKernel, nest: &Nest, out: &mut RelayoutSteps) {
        let bytes = match out.slot_bytes {
            Some(_) => None,
            None => Copier::new(self.element, self.src_bits, self.dst_bits).bytes_of(nest),
        };
        out.on_bytes = bytes.is_some();
        let (whole, size) = match (&bytes, out.slot_bytes) {
            (Some(b), _) => (b, Some(1)),
            (None, b) => (nest, b.map(|b| b as usize)),
        };
        out.block = match (kernel, size) {
            (RelayoutKernel::NibbleTranspose, _) => NibbleBlock::of(nest).map(|(b, _)| b.shape()),
            (_, Some(b)) => kernels::block_of(kernel, whole, b),
            _ => None,
        };
        out.chunk = match (kernel, size) {
            (RelayoutKernel::Chunks, Some(b)) => chunks::plan_whole(whole, b),
            (RelayoutKernel::Chunks, None) => Chunk::plan(nest),
            _ => None,
        }
        .map(|c| c.shape());
    }
}
