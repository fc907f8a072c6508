use xla_layout::layout;

fn main() {
    let _ = layout!(f32[123, 456, 789]{1:T(2, *, 128)});
}
