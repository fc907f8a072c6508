//! The item form of layouts with `?` dims: its generated offset (constant
//! bases, constant strides where they do not depend on the extents, the
//! others read from the planned layout) equals the run-time plan of the
//! same shape with the extents filled in, for every index and several
//! extents.

use xla_layout::{layout, parse_array, Plan, RankedLayout};

layout! {
    type MajorTiled = bf16[?,1024]{1,0:T(8,128)(2,1)};
    type MinorUnbounded = s8[3,?]{0,1};
    type Middle = f32[4,?,128]{2,1,0:T(8,128)};
    type Both = f32[?,?]{0,1:T(2,4)};
    type Seed = bf16[?,1,1280,16]{3,2,0,1:T(8,128)(2,1)};
    type Bounded = f32[<=6,?]{1,0:T(4,2)};
}

/// Every index of `dims`, last dimension fastest.
fn each<const R: usize>(dims: [usize; R], mut f: impl FnMut([usize; R])) {
    if dims.contains(&0) {
        return;
    }
    let mut i = [0usize; R];
    loop {
        f(i);
        let mut d = R;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            i[d] += 1;
            if i[d] < dims[d] {
                break;
            }
            i[d] = 0;
        }
    }
}

/// `text` with its `?` dims replaced by `extents`, planned at run time.
fn plan_of(text: &str, extents: &[usize]) -> Plan {
    let mut filled = String::new();
    let mut next = extents.iter();
    for ch in text.chars() {
        if ch == '?' {
            filled.push_str(&next.next().unwrap().to_string());
        } else {
            filled.push(ch);
        }
    }
    Plan::new(&parse_array(&filled).unwrap()).unwrap()
}

macro_rules! check {
    ($ty:ty, $text:literal, $rank:literal, [$($extents:expr),*]) => {
        for extents in [$($extents),*] {
            let item = <$ty>::new(extents).unwrap();
            let plan = plan_of($text, &extents);
            let dims: [usize; $rank] = item.layout().dims();
            let mut n = 0;
            each(dims, |i| {
                let wide: Vec<u64> = i.iter().map(|&x| x as u64).collect();
                let want = plan.offset(&wide).unwrap() as usize;
                assert_eq!(item.offset(i), want, "{} {:?} at {:?}", $text, extents, i);
                assert_eq!(item.offset_of(i), want);
                assert_eq!(item.layout().checked_offset(i), Some(want));
                n += 1;
            });
            assert_eq!(n as u64, dims.iter().product::<usize>() as u64);
            assert_eq!(item.layout().allocated_elements() as u64, plan.allocated_elements());
        }
    };
}

#[test]
fn generated_offsets_equal_the_runtime_plan() {
    check!(
        MajorTiled,
        "bf16[?,1024]{1,0:T(8,128)(2,1)}",
        2,
        [[1], [7], [8], [19]]
    );
    check!(MinorUnbounded, "s8[3,?]{0,1}", 2, [[1], [5], [64]]);
    check!(Middle, "f32[4,?,128]{2,1,0:T(8,128)}", 3, [[1], [3], [9]]);
    check!(Both, "f32[?,?]{0,1:T(2,4)}", 2, [[1, 1], [3, 5], [8, 2]]);
    check!(
        Seed,
        "bf16[?,1,1280,16]{3,2,0,1:T(8,128)(2,1)}",
        4,
        [[1], [3]]
    );
    check!(Bounded, "f32[<=6,?]{1,0:T(4,2)}", 2, [[1], [5]]);
}

#[test]
fn static_items_agree_with_their_layout_constant() {
    layout! {
        type Tiled = bf16[24,300]{0,1:T(8,128)(2,1)};
    }
    each(Tiled::DIMS, |i| {
        assert_eq!(Some(Tiled::offset(i)), Tiled::LAYOUT.checked_offset(i));
    });
}

/// The `?` item types report the sizes the static ones have as constants,
/// equal to the run-time shape with the extents filled in.
#[test]
fn sizes_match_the_resolved_shape() {
    layout! { type Host = u8[?,3]{1,0:T(4,2)L(64)S(5)}; }
    fn check(text: &str, extents: &[u64], dims: [usize; 2], allocated: usize, bytes: usize) {
        let shape = parse_array(text).unwrap().with_extents(extents).unwrap();
        let want: Vec<usize> = shape
            .dims()
            .iter()
            .map(|d| d.layout_size().unwrap() as usize)
            .collect();
        assert_eq!(dims.as_slice(), want.as_slice(), "{text}");
        assert_eq!(
            allocated as u64,
            shape.allocated_elements().unwrap(),
            "{text}"
        );
        assert_eq!(bytes as u64, shape.size_in_bytes().unwrap(), "{text}");
    }
    for rows in [1, 3, 17] {
        let m = MajorTiled::new([rows]).unwrap();
        let text = "bf16[?,1024]{1,0:T(8,128)(2,1)}";
        check(
            text,
            &[rows as u64],
            m.dims(),
            m.allocated_elements(),
            m.size_in_bytes(),
        );
        let b = Both::new([rows, 3]).unwrap();
        let text = "f32[?,?]{0,1:T(2,4)}";
        check(
            text,
            &[rows as u64, 3],
            b.dims(),
            b.allocated_elements(),
            b.size_in_bytes(),
        );
    }
    let h = Host::new([9]).unwrap();
    check(
        "u8[?,3]{1,0:T(4,2)L(64)S(5)}",
        &[9],
        h.dims(),
        h.allocated_elements(),
        h.size_in_bytes(),
    );
    assert_eq!(h.dims(), [9, 3]);
    assert_eq!((h.rank(), h.memory_space()), (2, 5));
    assert_eq!(h.element_type(), xla_layout::ElementType::U8);
    // 9 rows pad to 12, 3 columns to 4: 48 slots, then to a multiple of 64.
    assert_eq!((h.allocated_elements(), h.size_in_bytes()), (64, 64));
    assert_eq!(Both::new([5, 3]).unwrap().element_type().name(), "f32");
    assert_eq!(MajorTiled::new([8]).unwrap().size_in_bytes(), 8 * 1024 * 2);
}
