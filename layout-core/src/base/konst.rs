//! Helpers for `const fn` code, where `?`, iterators and slicing by range
//! are not available.

/// `?` for `const fn`: evaluates to the `Ok` value or returns the error.
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}
pub(crate) use tri;

/// Byte-wise string equality.
pub(crate) const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// `src[start..end]`, clamped to the slice (never panics).
pub(crate) const fn sub<T>(src: &[T], start: usize, end: usize) -> &[T] {
    let end = if end > src.len() { src.len() } else { end };
    let start = if start > end { end } else { start };
    src.split_at(end).0.split_at(start).1
}

/// The first `N` values of `src` (zeros past its end).
pub(crate) const fn copy_u64<const N: usize>(src: &[u64]) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < src.len() && i < N {
        out[i] = src[i];
        i += 1;
    }
    out
}

/// A short message built in `const fn` code (for panics, which cannot
/// format numbers there): text and decimal numbers, cut at 192 bytes.
pub(crate) struct Message {
    buf: [u8; 192],
    len: usize,
}

impl Message {
    pub(crate) const fn new() -> Message {
        Message {
            buf: [0; 192],
            len: 0,
        }
    }

    /// Appends ASCII text.
    pub(crate) const fn push(&mut self, s: &str) {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() && self.len < self.buf.len() {
            self.buf[self.len] = b[i];
            self.len += 1;
            i += 1;
        }
    }

    /// Appends a number in decimal.
    pub(crate) const fn push_u64(&mut self, mut n: u64) {
        let mut digits = [0u8; 20];
        let mut k = 0;
        loop {
            digits[k] = b'0' + (n % 10) as u8;
            k += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        while k > 0 && self.len < self.buf.len() {
            k -= 1;
            self.buf[self.len] = digits[k];
            self.len += 1;
        }
    }

    /// Appends `[a, b, c]`.
    pub(crate) const fn push_list(&mut self, values: &[usize]) {
        self.push("[");
        let mut i = 0;
        while i < values.len() {
            if i > 0 {
                self.push(", ");
            }
            self.push_u64(values[i] as u64);
            i += 1;
        }
        self.push("]");
    }

    /// The text so far.
    pub(crate) const fn as_str(&self) -> &str {
        match core::str::from_utf8(sub(&self.buf, 0, self.len)) {
            Ok(s) => s,
            Err(_) => "",
        }
    }
}

/// One tile level's first move, on any working list (sizes, windows,
/// coordinates): `pre` entries of `fill` put in front of `w[..len]`.
/// Returns the new length. Entries past the array are dropped.
pub(crate) const fn prepend<T: Copy, const N: usize>(
    w: &mut [T; N],
    len: usize,
    pre: usize,
    fill: T,
) -> usize {
    let mut i = if len + pre > N {
        N.saturating_sub(pre)
    } else {
        len
    };
    while i > 0 {
        i -= 1;
        w[i + pre] = w[i];
    }
    let mut j = 0;
    while j < pre && j < N {
        w[j] = fill;
        j += 1;
    }
    if len + pre > N {
        N
    } else {
        len + pre
    }
}

/// One tile level's last move: the `m` grid entries, then the `m` inner
/// entries, written from `base`. Returns the new length.
pub(crate) const fn splice<T: Copy, const N: usize, const M: usize>(
    w: &mut [T; N],
    base: usize,
    grid: &[T; M],
    inner: &[T; M],
    m: usize,
) -> usize {
    let mut i = 0;
    while i < m && i < M && base + m + i < N {
        w[base + i] = grid[i];
        w[base + m + i] = inner[i];
        i += 1;
    }
    base + 2 * m
}
