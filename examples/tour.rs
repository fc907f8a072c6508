//! A tour of the DSL on the seed examples: run `cargo run --example tour`.
//! Every number printed is computed; the assertions pin the documented ones.
#![warn(clippy::pedantic)]

use xla_layout::{
    layout, parse, parse_array, StaticLayout, StaticShape, Unresolved, View, ViewMut,
};

// 1. Expression form: a constant with tables computed by the macro.
const FIG1: StaticLayout<2> = layout!(f32[3,5]{1,0:T(2,2)});
// ...usable in `const` arithmetic.
const FIG1_23: usize = FIG1.offset([2, 3]);
// 2. A string literal, pasted from an HLO dump.
const SEED: StaticLayout<4> = layout!("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
// 3. Legacy padding: the old shapes document's 2x3 array padded to 3x5.
const OLD: StaticLayout<2> = layout!(f32[2,3]{0,1}, padded = [3, 5], padding_value = zero);
// 4. `?` dims get their sizes at run time.
const ROWS: Unresolved<2, 1> = layout!(f32[?,128]{1,0:T(8,128)});

// 5. Item form: types with specialised offset functions.
layout! {
    /// Two tile levels: 4x8 in (2,4) tiles, then row pairs interleaved.
    pub type Fig2 = f32[4,8]{1,0:T(2,4)(2,1)};
    /// `*` merges a dimension into the next more minor one before tiling.
    pub type Combine = f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)};
    /// Packed 4-bit integers.
    pub type Int4 = s4[9216,6144]{1,0:T(64,128)(8,1)E(4)};
    /// A scalar with a tile longer than its rank.
    pub type Scalar = s32[]{:T(128)};
    /// Bounded dims are laid out at their bound.
    pub type Bounded = f32[<=8,3]{0,1};
}

fn show<const R: usize>(name: &str, l: &StaticLayout<R>) {
    println!(
        "{name:<8} {l}\n         dims {:?}, {} slots, {} bytes, memory space {}",
        l.dims(),
        l.allocated_elements(),
        l.size_in_bytes(),
        l.memory_space()
    );
}

fn generic_corner<L: StaticShape<2>>() -> usize {
    let [r, c] = L::DIMS;
    L::offset([r - 1, c - 1])
}

fn main() {
    println!("== constants");
    show("fig1", &FIG1);
    println!("         (2,3) -> {FIG1_23}");
    assert_eq!(FIG1_23, 17);
    show("seed", &SEED);
    println!("         (3,0,13,300) -> {}", SEED.offset([3, 0, 13, 300]));
    assert_eq!(SEED.offset([3, 0, 13, 300]), 63_048_281);

    println!("== item types");
    let fig2: Vec<Vec<usize>> = (0..4)
        .map(|r| (0..8).map(|c| Fig2::offset([r, c])).collect())
        .collect();
    for row in &fig2 {
        println!("fig2     {row:?}");
    }
    assert_eq!(fig2[1], [1, 3, 5, 7, 9, 11, 13, 15]);
    println!(
        "combine  (1,6,7,10,9) -> {} of {}",
        Combine::offset([1, 6, 7, 10, 9]),
        Combine::ALLOCATED_ELEMENTS
    );
    assert_eq!(Combine::offset([1, 6, 7, 10, 9]), 12_430);
    println!(
        "int4     {} bytes for {} slots",
        Int4::SIZE_IN_BYTES,
        Int4::ALLOCATED_ELEMENTS
    );
    assert_eq!(Int4::SIZE_IN_BYTES, 28_311_552);
    println!("scalar   {} slots", Scalar::ALLOCATED_ELEMENTS);
    println!(
        "bounded  dims {:?}, corner -> {}",
        Bounded::DIMS,
        generic_corner::<Bounded>()
    );
    println!(
        "fig2     corner through a generic kernel -> {}",
        generic_corner::<Fig2>()
    );

    println!("== legacy padding");
    let mut memory = ["0"; 15];
    for (r, row) in [["a", "b", "c"], ["d", "e", "f"]].iter().enumerate() {
        for (c, name) in row.iter().enumerate() {
            memory[OLD.offset([r, c])] = name;
        }
    }
    println!("memory   {}", memory.join(" "));
    assert_eq!(memory.join(" "), "a d 0 b e 0 c f 0 0 0 0 0 0 0");

    println!("== run-time extents");
    let rows = ROWS.resolve([20]).expect("20 rows fit");
    show("rows", &rows);

    println!("== views");
    let mut data = vec![0.0f32; Fig2::ALLOCATED_ELEMENTS];
    let mut view = ViewMut::new(Fig2, &mut data).expect("f32 slice of the right size");
    let value = |r: usize, c: usize| f32::from(u16::try_from(r * 10 + c).expect("small"));
    view.for_each_mut(|[r, c], x| *x = value(r, c));
    println!("memory   {:?}", &data[..8]);
    let view = View::new(Fig2, &data).expect("f32 slice of the right size");
    assert!(view
        .iter()
        .copied()
        .eq((0..4).flat_map(|r| (0..8).map(move |c| value(r, c)))));

    println!("== run time, same grammar and rules");
    let t = parse("(f32[2], f32[], f32[], f32[], f32[], bf16[8,128]{1,0:T(8,128)(2,1)})")
        .expect("valid tuple");
    println!("tuple    {t}");
    let e = parse_array("f32[2,3]{1,0:T(2,*)}").unwrap_err();
    println!("error    {e} (bytes {:?})", e.span().range());
}
