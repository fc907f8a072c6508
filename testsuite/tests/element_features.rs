//! Typed views of the element types behind features: `bf16` and `f16`
//! through `half`, `f8e4m3fn` and `f8e5m2` through `float8`, `c64` and
//! `c128` through `num-complex`. Run with `--all-features` (clippy's
//! `--all-features` builds it too).

#[cfg(feature = "half")]
#[test]
fn half_views_of_item_types() {
    use half::{bf16, f16};
    use xla_layout::{layout, View};
    layout! {
        type Act = bf16[2,2]{1,0:T(2,2)};
        type Dyn = f16[?]{0};
    }
    let data = [1.0f32, 2.0, 3.0, 4.0].map(bf16::from_f32);
    assert_eq!(View::new(Act, &data).unwrap()[[1, 0]], bf16::from_f32(3.0));
    let halves = [f16::from_f32(0.5); 3];
    let v = View::new(Dyn::new([3]).unwrap(), &halves).unwrap();
    assert_eq!(v[[2]].to_f32(), 0.5);
    assert!(View::new_checked(Act, &halves).is_err()); // f16 is not bf16
}

#[cfg(feature = "float8")]
#[test]
fn fp8_views_read_xla_bits() {
    use float8::{F8E4M3, F8E5M2};
    use xla_layout::{layout, View, ViewMut};
    layout! {
        type E4 = f8e4m3fn[2,2]{0,1};
        type E5 = f8e5m2[3]{0};
    }
    // f8e4m3fn has no infinity: 0x7E is its largest finite value, 448.
    assert_eq!(F8E4M3::from_bits(0x7E).to_f32(), 448.0);
    assert!(F8E4M3::from_bits(0x7F).to_f32().is_nan());
    // f8e5m2 is IEEE-style: 0x7B is 57344, 0x7C infinity.
    assert_eq!(F8E5M2::from_bits(0x7B).to_f32(), 57344.0);
    assert!(F8E5M2::from_bits(0x7C).to_f32().is_infinite());

    let data = [1.0f32, 2.0, 3.0, 4.0].map(F8E4M3::from_f32);
    let v = View::new(E4, &data).unwrap();
    assert_eq!(v[[1, 0]].to_f32(), 2.0); // column-major
    let mut e5 = [F8E5M2::from_f32(0.0); 3];
    ViewMut::new(E5, &mut e5).unwrap()[[2]] = F8E5M2::from_f32(-1.5);
    assert_eq!(e5[2].to_f32(), -1.5);
    // The other fp8 types have no Rust type here.
    let l: xla_layout::StaticLayout<1> = xla_layout::StaticLayout::parse("f8e4m3[3]{0}").unwrap();
    assert!(View::new(l, &e5).is_err());
}

#[cfg(feature = "num-complex")]
#[test]
fn complex_views() {
    use num_complex::Complex;
    use xla_layout::{layout, View, ViewMut};
    layout! {
        type C = c64[2,3]{0,1};
        type Z = c128[2]{0};
    }
    let data: Vec<Complex<f32>> = (0..6)
        .map(|i| Complex::new(i as f32, -(i as f32)))
        .collect();
    let v = View::new(C, &data).unwrap();
    assert_eq!(v[[1, 2]], Complex::new(5.0, -5.0));
    let mut z = [Complex::new(0.0f64, 0.0); 2];
    ViewMut::new(Z, &mut z).unwrap()[[1]] = Complex::new(1.0, 2.0);
    assert_eq!(z[1].im, 2.0);
    let e = View::new_checked(C, &z[..]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the layout stores c64 but the view's element type is c128; views of c64 and c128 use `num_complex::Complex<f32>` and `Complex<f64>` (the `num-complex` feature)"
    );
}
