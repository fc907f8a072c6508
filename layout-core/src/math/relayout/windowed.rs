//! The `rayon` feature: a relayout whose destination is handed over in
//! consecutive windows instead of being one buffer, for destinations too
//! big to hold next to their source (a file written as it is made).

extern crate alloc;

use alloc::vec::Vec;

use super::parallel::{self, Window};
use super::{bits, byte, kernels, How, Nest, RelayoutPlan};
use crate::base::error::{Error, ErrorKind, Span};

impl RelayoutPlan {
    /// [`RelayoutPlan::par_run_bytes`] without a destination buffer: the
    /// destination bytes go to `sink` in order, in consecutive windows of
    /// about `window` bytes (a window is larger when one step of a box's
    /// outermost loop spans more), each filled on rayon's threads. The
    /// bytes are those [`RelayoutPlan::run_bytes`] writes into a zeroed
    /// buffer; memory for the destination is one window. Copies that
    /// cannot be cut into destination ranges (layouts with `*`, tile sizes
    /// that do not nest, boxes whose ranges interleave) are made in one
    /// buffer the size of the destination first, then handed over in
    /// windows; [`ErrorKind::OutOfMemory`] when that buffer cannot be
    /// allocated.
    ///
    /// Stops at the first error of `sink` and returns it; a source of the
    /// wrong length is an error before `sink` is called.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array, Error, RelayoutPlan};
    /// let a = parse_array("f32[64,64]{1,0}").unwrap();
    /// let b = parse_array("f32[64,64]{0,1:T(8,8)}").unwrap();
    /// let plan = RelayoutPlan::new(&a, &b).unwrap();
    /// let src: Vec<u8> = (0..16384).map(|i| i as u8).collect();
    /// let mut whole = vec![0; 16384];
    /// plan.run_bytes(&src, &mut whole).unwrap();
    /// let mut streamed = Vec::new();
    /// plan.par_run_bytes_windowed(&src, 1024, |w: &[u8]| {
    ///     assert!(w.len() <= 2048);
    ///     streamed.extend_from_slice(w);
    ///     Ok::<(), Error>(())
    /// })
    /// .unwrap();
    /// assert_eq!(streamed, whole);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn par_run_bytes_windowed<E: From<Error>>(
        &self,
        src: &[u8],
        window: usize,
        mut sink: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let dst_len = usize::try_from(self.dst_bytes).unwrap_or(usize::MAX);
        self.check_lengths(src.len(), dst_len, self.src_bytes, self.dst_bytes)?;
        let bits = self.dst_bits;
        let slots = (window.max(1) as u64).saturating_mul(8) / bits;
        let Some(windows) = self.windows(slots.max(1)) else {
            let mut whole = Vec::new();
            if whole.try_reserve_exact(dst_len).is_err() {
                let bytes = [dst_len as i128, 0, 0];
                return Err(Error::wide(ErrorKind::OutOfMemory, Span::NONE, bytes).into());
            }
            whole.resize(dst_len, 0u8);
            self.par_run_bytes(src, &mut whole)?;
            for piece in whole.chunks(window.max(1)) {
                sink(piece)?;
            }
            return Ok(());
        };
        let last = windows.len() - 1;
        let mut buf: Vec<u8> = Vec::new();
        for (i, w) in windows.into_iter().enumerate() {
            // Window bounds are whole bytes (checked in `windows`).
            let start = byte(w.start, bits).unwrap_or(0);
            let end = if i == last {
                dst_len
            } else {
                byte(w.end, bits).unwrap_or(dst_len)
            };
            buf.clear();
            buf.resize(end - start, 0);
            self.fill_window(src, &mut buf, w);
            sink(&buf)?;
        }
        Ok(())
    }

    /// The windows of a copy cut into destination ranges (every part
    /// starting and ending on a whole byte), or `None`.
    fn windows(&self, slots: u64) -> Option<Vec<Window>> {
        let How::Chains(chains) = &self.how else {
            return None;
        };
        let parts = parallel::parts(|g| self.each_box(chains, g), slots)?;
        let whole = |x: u64| byte(x, self.dst_bits).is_some();
        if !parts.iter().all(|p| whole(p.lo) && whole(p.hi)) {
            return None;
        }
        Some(parallel::windows(parts, self.dst_slots, slots))
    }

    /// Copies the parts of `w` into `dst`, the window's zeroed bytes.
    fn fill_window(&self, src: &[u8], dst: &mut [u8], w: Window) {
        let slots = w.end - w.start;
        if self.src_bits == self.dst_bits && self.src_bits.is_multiple_of(8) {
            match self.src_bits / 8 {
                1 => return self.window_chunks::<1>(src, dst, w),
                2 => return self.window_chunks::<2>(src, dst, w),
                4 => return self.window_chunks::<4>(src, dst, w),
                8 => return self.window_chunks::<8>(src, dst, w),
                16 => return self.window_chunks::<16>(src, dst, w),
                _ => {}
            }
        }
        let copy = bits::Copier::new(self.element, self.src_bits, self.dst_bits);
        if self.fill_needed {
            self.fill_bits(&copy, dst, w.start, slots);
        }
        let bits = self.dst_bits;
        let done = parallel::run(
            w.parts,
            dst,
            |x| byte(x, bits),
            |n: &Nest, d: &mut [u8]| {
                if !copy.nest(n, src, d) {
                    kernels::each_slot(n, |s, o| copy.one(src, s, d, o));
                }
            },
        );
        debug_assert!(done, "parts are checked in `windows`");
    }

    fn window_chunks<const N: usize>(&self, src: &[u8], dst: &mut [u8], w: Window) {
        let (src, _) = src.as_chunks::<N>();
        let (dst, _) = dst.as_chunks_mut::<N>();
        if self.fill_needed {
            let fill: [u8; N] = core::array::from_fn(|i| (self.fill >> (8 * i)) as u8);
            self.fill_padding(dst, w.start, fill);
        }
        let done = parallel::run(
            w.parts,
            dst,
            |x| usize::try_from(x).ok(),
            |n: &Nest, d: &mut [[u8; N]]| kernels::copy_nest(n, src, d),
        );
        debug_assert!(done, "parts are checked in `windows`");
    }
}
