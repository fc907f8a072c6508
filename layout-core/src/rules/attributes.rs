//! Rule group: the single-valued layout attributes. `L(n)` is at least 1,
//! `E(n)` at least 0, `S(n)` in `0..=127`; the sparse-only attributes
//! `#(..)`, `*(..)` and `P(..)` are refused.

use crate::base::error::{Error, ErrorKind};
use crate::model::array::UncheckedArray;
use crate::model::source::Attr;
use crate::rules::collect::{report, Collector};

pub(crate) const fn check(s: &UncheckedArray, c: &mut Collector) {
    let l = &s.layout;
    let map = &s.source;
    if l.tail_padding < 1 {
        report!(
            c,
            Error::new(
                ErrorKind::TailPaddingNotPositive,
                map.attr(Attr::TailPadding),
                [l.tail_padding, 0, 0]
            )
        );
    }
    if l.index_type.is_some() {
        report!(
            c,
            Error::new(ErrorKind::SparseLayout, map.attr(Attr::IndexType), [0; 3])
        );
    }
    if l.pointer_type.is_some() {
        report!(
            c,
            Error::new(
                ErrorKind::SparseLayout,
                map.attr(Attr::PointerType),
                [1, 0, 0]
            )
        );
    }
    if l.element_size_bits < 0 {
        report!(
            c,
            Error::new(
                ErrorKind::NegativeElementSize,
                map.attr(Attr::ElementSize),
                [l.element_size_bits, 0, 0]
            )
        );
    }
    if l.memory_space < 0 || l.memory_space > 127 {
        report!(
            c,
            Error::new(
                ErrorKind::MemorySpaceOutOfRange,
                map.attr(Attr::MemorySpace),
                [l.memory_space, 0, 0]
            )
        );
    }
}

/// `P(..)` comes after the split configs in the text, so it is reported
/// after them.
pub(crate) const fn check_physical_shape(s: &UncheckedArray, c: &mut Collector) {
    if s.layout.physical_shape {
        report!(
            c,
            Error::new(
                ErrorKind::SparseLayout,
                s.source.attr(Attr::PhysicalShape),
                [2, 0, 0]
            )
        );
    }
}
