//! The validator: every rule of XLA-SHAPES.md section 2 plus DECISIONS.md,
//! each with its own [`ErrorKind`]. One function holds all the rules; it can
//! stop at the first problem ([`validate`]) or collect them all
//! ([`validate_all`]).

use crate::error::{Error, ErrorKind, Span};
use crate::shape::{ArrayShape, Attr, COMBINE};
use crate::MAX_RANK;

/// Capacity of an [`ErrorList`].
pub const MAX_ERRORS: usize = 16;

/// Up to [`MAX_ERRORS`] errors, in the order the rules found them.
///
/// ```
/// use layout_core::{parse_array_unvalidated, validate_all, ErrorKind};
/// let s = parse_array_unvalidated("f32[2,3]{0,0:L(0)}").unwrap();
/// let errors = validate_all(&s);
/// let kinds: Vec<ErrorKind> = errors.iter().map(|e| e.kind()).collect();
/// assert_eq!(kinds, [ErrorKind::MinorToMajorDuplicate, ErrorKind::TailPaddingNotPositive]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorList {
    errors: [Option<Error>; MAX_ERRORS],
    len: usize,
    dropped: usize,
}

impl ErrorList {
    const fn new() -> ErrorList {
        ErrorList {
            errors: [None; MAX_ERRORS],
            len: 0,
            dropped: 0,
        }
    }

    const fn push(&mut self, e: Error) {
        if self.len < MAX_ERRORS {
            self.errors[self.len] = Some(e);
            self.len += 1;
        } else {
            self.dropped += 1;
        }
    }

    /// Number of errors kept.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// `true` when the shape is valid.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Errors found beyond the capacity (not kept).
    pub const fn dropped(&self) -> usize {
        self.dropped
    }

    /// The first error, if any.
    pub const fn first(&self) -> Option<Error> {
        self.errors[0]
    }

    /// Error `i`.
    pub const fn get(&self, i: usize) -> Option<Error> {
        if i < self.len {
            self.errors[i]
        } else {
            None
        }
    }

    /// The errors in order.
    pub fn iter(&self) -> impl Iterator<Item = Error> + '_ {
        self.errors[..self.len].iter().flatten().copied()
    }
}

/// Checks every rule; returns the first violation.
///
/// ```
/// use layout_core::{parse_array_unvalidated, validate, ErrorKind};
/// let s = parse_array_unvalidated("f32[2]{0:S(128)}").unwrap();
/// assert_eq!(validate(&s).unwrap_err().kind(), ErrorKind::MemorySpaceOutOfRange);
/// ```
pub const fn validate(shape: &ArrayShape) -> Result<(), Error> {
    let mut list = ErrorList::new();
    check(shape, &mut list, true);
    match list.first() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Checks every rule; returns all violations (up to [`MAX_ERRORS`]).
pub const fn validate_all(shape: &ArrayShape) -> ErrorList {
    let mut list = ErrorList::new();
    check(shape, &mut list, false);
    list
}

macro_rules! report {
    ($list:ident, $first:ident, $e:expr) => {{
        $list.push($e);
        if $first {
            return;
        }
    }};
}

const fn check(s: &ArrayShape, list: &mut ErrorList, first_only: bool) {
    let rank = s.rank as usize;
    let l = &s.layout;
    let map = &s.source;

    // Dimensions (values built in code may exceed i64).
    let mut i = 0;
    while i < rank {
        if let Some(n) = s.dims[i].layout_size() {
            if n > i64::MAX as u64 {
                report!(
                    list,
                    first_only,
                    Error::new(ErrorKind::IntegerOutOfRange, map.dim(i), [i as i64, 0, 0])
                );
            }
        }
        i += 1;
    }

    // minor_to_major: a permutation of 0..rank.
    let m2m_len = l.m2m_len as usize;
    let mut m2m_ok = true;
    if m2m_len != rank {
        m2m_ok = false;
        report!(
            list,
            first_only,
            Error::new(
                ErrorKind::MinorToMajorLength,
                map.layout(),
                [m2m_len as i64, rank as i64, 0]
            )
        );
    } else {
        let mut seen = [usize::MAX; MAX_RANK];
        let mut p = 0;
        while p < m2m_len {
            let d = l.m2m[p];
            if d < 0 || d >= rank as i64 {
                m2m_ok = false;
                report!(
                    list,
                    first_only,
                    Error::new(
                        ErrorKind::MinorToMajorOutOfRange,
                        map.minor_to_major(p),
                        [d, rank as i64, p as i64]
                    )
                );
            } else if seen[d as usize] != usize::MAX {
                m2m_ok = false;
                report!(
                    list,
                    first_only,
                    Error::new(
                        ErrorKind::MinorToMajorDuplicate,
                        map.minor_to_major(p),
                        [d, seen[d as usize] as i64, p as i64]
                    )
                );
            } else {
                seen[d as usize] = p;
            }
            p += 1;
        }
    }

    // Tiles: non-empty; entries positive or `*`; no trailing `*`.
    let mut tiles_ok = true;
    let mut level = 0;
    while level < l.tile_count as usize {
        let start = l.tile_entry_index(level, 0);
        let end = l.tile_ends[level] as usize;
        if start == end {
            tiles_ok = false;
            report!(
                list,
                first_only,
                Error::new(ErrorKind::EmptyTile, map.tile(level), [level as i64, 0, 0])
            );
        }
        let mut j = start;
        while j < end {
            let v = l.tile_entries[j];
            let pos = (j - start) as i64;
            if v == 0 {
                tiles_ok = false;
                report!(
                    list,
                    first_only,
                    Error::new(
                        ErrorKind::ZeroTileEntry,
                        map.tile_entry(j),
                        [level as i64, pos, 0]
                    )
                );
            } else if v == COMBINE {
                if j + 1 == end {
                    tiles_ok = false;
                    report!(
                        list,
                        first_only,
                        Error::new(
                            ErrorKind::TrailingCombine,
                            map.tile_entry(j),
                            [level as i64, pos, 0]
                        )
                    );
                }
            } else if v < 0 {
                tiles_ok = false;
                report!(
                    list,
                    first_only,
                    Error::new(
                        ErrorKind::NegativeTileEntry,
                        map.tile_entry(j),
                        [level as i64, pos, v]
                    )
                );
            }
            j += 1;
        }
        level += 1;
    }

    // Scalar attributes.
    if l.tail_padding < 1 {
        report!(
            list,
            first_only,
            Error::new(
                ErrorKind::TailPaddingNotPositive,
                map.attr(Attr::TailPadding),
                [l.tail_padding, 0, 0]
            )
        );
    }
    if l.index_type.is_some() {
        report!(
            list,
            first_only,
            Error::new(ErrorKind::SparseLayout, map.attr(Attr::IndexType), [0; 3])
        );
    }
    if l.pointer_type.is_some() {
        report!(
            list,
            first_only,
            Error::new(
                ErrorKind::SparseLayout,
                map.attr(Attr::PointerType),
                [1, 0, 0]
            )
        );
    }
    if l.element_size_bits < 0 {
        report!(
            list,
            first_only,
            Error::new(
                ErrorKind::NegativeElementSize,
                map.attr(Attr::ElementSize),
                [l.element_size_bits, 0, 0]
            )
        );
    }
    if l.memory_space < 0 || l.memory_space > 127 {
        report!(
            list,
            first_only,
            Error::new(
                ErrorKind::MemorySpaceOutOfRange,
                map.attr(Attr::MemorySpace),
                [l.memory_space, 0, 0]
            )
        );
    }
    // Split configs: a physical dimension in range, at most once, indices
    // positive, strictly increasing and inside the dimension.
    let mut k = 0;
    while k < l.split_count as usize {
        let d = l.split_dims[k];
        if d < 0 || d >= rank as i64 {
            report!(
                list,
                first_only,
                Error::new(
                    ErrorKind::SplitDimensionOutOfRange,
                    map.split(k),
                    [d, rank as i64, 0]
                )
            );
            k += 1;
            continue;
        }
        let mut other = 0;
        while other < k {
            if l.split_dims[other] == d {
                report!(
                    list,
                    first_only,
                    Error::new(ErrorKind::SplitDimensionDuplicate, map.split(k), [d, 0, 0])
                );
            }
            other += 1;
        }
        // Physical dimension d (0 = most major) is logical m2m[rank-1-d].
        let size: i64 = if m2m_ok {
            match s.dims[l.m2m[rank - 1 - d as usize] as usize].layout_size() {
                Some(n) => n as i64,
                None => -1,
            }
        } else {
            i64::MAX
        };
        let start = if k == 0 {
            0
        } else {
            l.split_ends[k - 1] as usize
        };
        let end = l.split_ends[k] as usize;
        let mut prev: i64 = 0;
        let mut j = start;
        while j < end {
            let v = l.split_indices[j];
            if v <= prev {
                report!(
                    list,
                    first_only,
                    Error::new(
                        ErrorKind::SplitIndicesNotIncreasing,
                        map.split(k),
                        [d, v, prev]
                    )
                );
                break;
            }
            if size < 0 || v >= size {
                report!(
                    list,
                    first_only,
                    Error::new(ErrorKind::SplitIndexOutOfBounds, map.split(k), [d, v, size])
                );
                break;
            }
            prev = v;
            j += 1;
        }
        k += 1;
    }
    if l.physical_shape {
        report!(
            list,
            first_only,
            Error::new(
                ErrorKind::SparseLayout,
                map.attr(Attr::PhysicalShape),
                [2, 0, 0]
            )
        );
    }
    // Legacy padding.
    if let Some(p) = &s.padding {
        let mut i = 0;
        while i < rank {
            match s.dims[i].layout_size() {
                Some(n) if p.padded[i] < n => report!(
                    list,
                    first_only,
                    Error::new(
                        ErrorKind::PaddingTooSmall,
                        map.dim(i),
                        [i as i64, p.padded[i] as i64, n as i64]
                    )
                ),
                None => report!(
                    list,
                    first_only,
                    Error::new(ErrorKind::UnboundedDimension, map.dim(i), [i as i64, 0, 0])
                ),
                _ => {}
            }
            i += 1;
        }
    }

    // Sizes must fit in i64: element count, count x bytes, allocation.
    let mut count: u64 = 1;
    let mut overflow = false;
    let mut i = 0;
    while i < rank {
        if let Some(n) = s.dims[i].layout_size() {
            match count.checked_mul(n) {
                Some(c) if c <= i64::MAX as u64 => count = c,
                _ => {
                    overflow = true;
                    report!(
                        list,
                        first_only,
                        Error::new(
                            ErrorKind::ElementCountOverflow,
                            map.dim(i),
                            [i as i64, n as i64, 0]
                        )
                    );
                    break;
                }
            }
        }
        i += 1;
    }
    if !overflow {
        let width = s.element_type.byte_width() as u64;
        match count.checked_mul(width) {
            Some(b) if b <= i64::MAX as u64 => {}
            _ => {
                overflow = true;
                report!(
                    list,
                    first_only,
                    Error::new(
                        ErrorKind::ByteSizeOverflow,
                        map.whole(),
                        [count as i64, width as i64, 0]
                    )
                );
            }
        }
    }
    if !overflow && m2m_ok && tiles_ok && l.tail_padding >= 1 && !s.has_unbounded_dims() {
        if let Err(e) = crate::index::size_in_bytes(s) {
            let span = if matches!(e.kind(), ErrorKind::AllocationOverflow) {
                if l.tile_count > 0 {
                    map.attr(Attr::Tiles)
                } else {
                    map.whole()
                }
            } else {
                Span::NONE
            };
            report!(list, first_only, e.with_span(span));
        }
    }
}

/// The extra rules for the array inside a buffer `b(...)`: no tiles and no
/// dynamic dimensions (XLA cannot lower either).
pub const fn validate_buffer(inner: &ArrayShape) -> Result<(), Error> {
    if inner.layout.tile_count > 0 {
        return Err(Error::new(
            ErrorKind::BufferTiled,
            inner.source.attr(Attr::Tiles),
            [0; 3],
        ));
    }
    let mut i = 0;
    while i < inner.rank as usize {
        if inner.dims[i].is_dynamic() {
            return Err(Error::new(
                ErrorKind::BufferDynamic,
                inner.source.dim(i),
                [i as i64, 0, 0],
            ));
        }
        i += 1;
    }
    Ok(())
}
