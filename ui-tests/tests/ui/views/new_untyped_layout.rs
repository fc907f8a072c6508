// A hand-written `StaticShape` type that does not name its element type
// (`TypedLayout`) is not taken by `View::new`; the note says what to add,
// or to use `View::new_checked`.
use xla_layout::{StaticLayout, StaticShape, View};

#[derive(Clone, Copy)]
struct Fig1;

impl StaticShape<2> for Fig1 {
    const LAYOUT: StaticLayout<2> = match StaticLayout::parse("f32[3,5]{1,0:T(2,2)}") {
        Ok(l) => l,
        Err(_) => panic!(),
    };
    fn offset(index: [usize; 2]) -> usize {
        Self::LAYOUT.offset(index)
    }
}

fn main() {
    let _ = View::new(Fig1, &[0.0f32; 24]);
    let _ = View::new_checked(Fig1, &[0.0f32; 24]);
}
