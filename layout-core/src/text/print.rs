//! The printer: XLA's canonical text, byte for byte (see
//! `docs/grammar.md`), for the model's types. Validated tuple trees print
//! through [`write_tuple`].

use core::fmt::{self, Debug, Display, Formatter, Write};

use crate::base::limits::COMBINE_ENTRY as COMBINE;
use crate::model::array::{ArrayShape, UncheckedArray};
use crate::model::dim::Dim;
use crate::model::layout::Layout;

impl Display for Dim {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Dim::Static(n) => write!(f, "{n}"),
            Dim::Bounded(n) => write!(f, "<={n}"),
            Dim::Unbounded => f.write_char('?'),
        }
    }
}

fn join<T: Display>(f: &mut Formatter<'_>, items: impl IntoIterator<Item = T>) -> fmt::Result {
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            f.write_char(',')?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

struct TileEntry(i64);

impl Display for TileEntry {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.0 == COMBINE {
            f.write_char('*')
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl Display for Layout {
    /// `Layout::ToString`: `{m2m:T(..)L(..)#(..)*(..)E(..)S(..)SC(..)P(..)M(..)}`;
    /// `D(...)` is never printed.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_char('{')?;
        join(f, self.minor_to_major())?;
        if self.has_attributes() {
            f.write_char(':')?;
        }
        if self.tile_count() > 0 {
            f.write_char('T')?;
            for level in 0..self.tile_count() {
                if let Some(tile) = self.tile(level) {
                    f.write_char('(')?;
                    join(f, tile.raw().iter().map(|&v| TileEntry(v)))?;
                    f.write_char(')')?;
                }
            }
        }
        if self.tail_padding != 1 {
            write!(f, "L({})", self.tail_padding)?;
        }
        if let Some(t) = self.index_type {
            write!(f, "#({t})")?;
        }
        if let Some(t) = self.pointer_type {
            write!(f, "*({t})")?;
        }
        if self.element_size_bits != 0 {
            write!(f, "E({})", self.element_size_bits)?;
        }
        if self.memory_space != 0 {
            write!(f, "S({})", self.memory_space)?;
        }
        if self.split_count() > 0 {
            f.write_str("SC")?;
            for i in 0..self.split_count() {
                if let Some((dim, indices)) = self.split(i) {
                    write!(f, "({dim}:")?;
                    join(f, indices)?;
                    f.write_char(')')?;
                }
            }
        }
        if self.physical_shape {
            // The physical shape itself is not kept (sparse layouts are
            // rejected by validation); print a marker.
            f.write_str("P(...)")?;
        }
        if self.metadata_prefix > 0 {
            write!(f, "M({})", self.metadata_prefix)?;
        }
        f.write_char('}')
    }
}

impl Display for UncheckedArray {
    /// `f32[3,5]{1,0:T(2,2)}`; scalars print their layout only when it is
    /// not `{}`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}[", self.element_type)?;
        join(f, self.dims())?;
        f.write_char(']')?;
        if self.rank() > 0 || self.layout.has_attributes() {
            write!(f, "{}", self.layout)?;
        }
        Ok(())
    }
}

impl Display for ArrayShape {
    /// The canonical text, as for [`UncheckedArray`].
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        Display::fmt(&self.raw, f)
    }
}

/// The canonical text plus legacy padding, if any, which is what one wants
/// to read in a failing test.
fn debug_array(f: &mut Formatter<'_>, name: &str, a: &UncheckedArray) -> fmt::Result {
    write!(f, "{name}({a})")?;
    if let Some(p) = &a.padding {
        write!(
            f,
            " padded to {:?} with {}",
            p.padded_dimensions(a.rank()),
            p.value.name()
        )?;
    }
    Ok(())
}

impl Debug for UncheckedArray {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        debug_array(f, "UncheckedArray", self)
    }
}

impl Debug for ArrayShape {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        debug_array(f, "ArrayShape", &self.raw)
    }
}

/// A tuple's canonical text: `(a, b, c, d, e, /*index=5*/f, ...)`.
pub(crate) fn write_tuple<T: Display>(
    f: &mut Formatter<'_>,
    elements: impl IntoIterator<Item = T>,
) -> fmt::Result {
    f.write_char('(')?;
    for (i, element) in elements.into_iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
            if i % 5 == 0 {
                write!(f, "/*index={i}*/")?;
            }
        }
        write!(f, "{element}")?;
    }
    f.write_char(')')
}
