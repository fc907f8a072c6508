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
pub(crate) const fn copy_u8<const N: usize>(src: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut i = 0;
    while i < src.len() && i < N {
        out[i] = src[i];
        i += 1;
    }
    out
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
