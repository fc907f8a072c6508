// A `?` item type knows its element type too.
use xla_layout::{layout, View};

layout! {
    pub type Rows = s32[?,4]{1,0};
}

fn main() {
    let rows = Rows::new([3]).unwrap();
    let _ = View::new(rows, &[0u32; 12]);
}
