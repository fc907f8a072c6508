use xla_layout::layout;

fn main() {
    let _ = layout!(f32[16, 256]{1, 0:t(8, 128)});
    let _ = layout!("f32[16,256]{1,0:T(8,128)Sc(0:8)}");
}
