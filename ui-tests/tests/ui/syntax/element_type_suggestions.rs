use xla_layout::layout;

fn main() {
    let _ = layout!(BF16[2, 3]);
    let _ = layout!(bfloat16[2, 3]);
    let _ = layout!(i32[2, 3]);
    let _ = layout!("f64x[2,3]");
    // Equally close to s1, s2, s4 and s8: no guess, the list.
    let _ = layout!(s3[2, 3]);
}
