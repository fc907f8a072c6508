//! Rule group: buffers. The array inside `b(...)` has no tiles and no
//! dynamic dimensions (XLA cannot lower either).

use crate::base::error::{Error, ErrorKind};
use crate::model::array::UncheckedArray;
use crate::model::source::Attr;

pub(crate) const fn check(inner: &UncheckedArray) -> Result<(), Error> {
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
