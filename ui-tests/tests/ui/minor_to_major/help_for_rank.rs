use xla_layout::layout;

fn main() {
    // The help shows row-major order for the shape's own rank.
    let _ = layout!(f32[]{0});
    let _ = layout!(f32[4]{1});
    let _ = layout!(f32[2, 3, 4]{3, 1, 0});
    let _ = layout!("f32[2,3,4,5,6,7,8]{6,5,4,3,2,1,1}");
}
