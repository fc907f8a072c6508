use xla_layout::layout;

fn main() {
    // Each message quotes the part of the literal it is about.
    let _ = layout!("f32[2,3]{1,0");
    let _ = layout!("f32[2,3]{1,0:S(1)T(2,2)}");
    let _ = layout!("f32[2,3]{1,0} extra");
    let _ = layout!("");
    let _ = layout!("f32[2,3]{1,0:T()}");
}
