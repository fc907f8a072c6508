use xla_layout::layout;

fn main() {
    let _ = layout!(s8[4611686018427387905]{0:T(4611686018427387904)});
}
