//! Tests of [`LayoutGrid`](super::LayoutGrid), written as a `no_std` caller
//! would use it: into fixed buffers through `core::fmt::Write`.

use super::*;
use crate::rules::parse_array;

/// A fixed buffer, as a `no_std` caller would have.
struct Buf {
    bytes: [u8; 1024],
    len: usize,
}

impl Buf {
    fn new() -> Buf {
        Buf {
            bytes: [0; 1024],
            len: 0,
        }
    }
    fn text(&self) -> &str {
        core::str::from_utf8(&self.bytes[..self.len]).unwrap()
    }
}

impl fmt::Write for Buf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(fmt::Error)?;
        self.bytes
            .get_mut(self.len..end)
            .ok_or(fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

fn grid(text: &str, rows: Option<usize>, cols: Option<usize>, at: &[u64]) -> LayoutGrid {
    LayoutGrid::new(&parse_array(text).unwrap(), rows, cols, at).unwrap()
}

fn show(g: &LayoutGrid) -> Buf {
    let mut b = Buf::new();
    fmt::write(&mut b, format_args!("{g}")).unwrap();
    b
}

#[test]
fn every_element_offset_matches_the_plan() {
    for text in [
        "f32[3,5]{1,0:T(2,2)}",
        "f32[5,7]{0,1:T(2,4)(2,1)}",
        "bf16[3,2,9]{2,0,1:T(2,*,4)}",
        "s8[6,10]{1,0:T(4,8)L(64)}",
    ] {
        let s = parse_array(text).unwrap();
        let plan = Plan::new(&s).unwrap();
        let rank = s.rank();
        let g = LayoutGrid::new(&s, Some(rank - 2), Some(rank - 1), &[0; 3][..rank]).unwrap();
        let (rows, cols) = g.extent();
        let mut seen = [false; 512];
        for r in 0..rows {
            for c in 0..cols {
                let cell = g.cell(r, c).unwrap();
                let mut index = [0u64; 3];
                index[rank - 2] = r;
                index[rank - 1] = c;
                assert_eq!(cell.padding, r >= g.size().0 || c >= g.size().1);
                let o = cell.offset.unwrap();
                if !cell.padding {
                    assert_eq!(Ok(o), plan.offset(&index[..rank]), "{text} {r},{c}");
                } else {
                    assert_eq!(plan.index_of(o), None, "{text}: padding {r},{c} at {o}");
                }
                // Every slot in a distinct place.
                assert!(!seen[o as usize], "{text}: {o} twice");
                seen[o as usize] = true;
            }
        }
    }
}

#[test]
fn no_std_output_into_a_fixed_buffer() {
    let g = grid("f32[3,5]{1,0:T(2,2)}", Some(0), Some(1), &[0, 0]).tile_lines(true);
    let b = show(&g);
    let lines: [&str; 6] = [
        "     0    1    2    3    4    5",
        "0    0    1 |  4    5 |  8    ·",
        "1    2    3 |  6    7 | 10    ·",
        " ------------------------------",
        "2   12   13 | 16   17 | 20    ·",
        "3    ·    · |  ·    · |  ·    ·",
    ];
    for (got, want) in b.text().lines().zip(lines) {
        assert_eq!(got, want);
    }
    assert_eq!(b.text().lines().count(), 6);
    assert_eq!(g.line_width(), lines[1].chars().count());
    // A buffer too small is a write error, not a panic.
    struct Tiny(usize);
    impl fmt::Write for Tiny {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0 = self.0.checked_sub(s.len()).ok_or(fmt::Error)?;
            Ok(())
        }
    }
    assert!(fmt::write(&mut Tiny(20), format_args!("{g}")).is_err());
}

#[test]
fn the_minor_tile_level_is_drawn_dotted() {
    // Figure 2: rows 0 and 1 interleaved by (2,1).
    let g = grid("f32[4,8]{1,0:T(2,4)(2,1)}", Some(0), Some(1), &[0, 0]).tile_lines(true);
    let b = show(&g);
    let row0: &str = b.text().lines().nth(1).unwrap();
    assert_eq!(row0, "0    0 :  2 :  4 :  6 |  8 : 10 : 12 : 14");
    // Rows 1 and 2 are in different (2,4) tiles.
    assert!(b
        .text()
        .lines()
        .nth(3)
        .unwrap()
        .trim()
        .chars()
        .all(|c| c == '-'));
    // The seed's (8,128)(2,1): a dotted line every two rows, a solid one every eight.
    let s = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
    let g = grid(s, Some(2), Some(3), &[3, 0, 0, 0])
        .tile_lines(true)
        .window(5..10, 126..130)
        .unwrap();
    let b = show(&g);
    assert_eq!(
        b.text(),
        "         126        127        128        129
5   62915325 : 62915327 | 62916097 : 62916099
 ............................................
6   62915580 : 62915582 | 62916352 : 62916354
7   62915581 : 62915583 | 62916353 : 62916355
 --------------------------------------------
8   63045884 : 63045886 | 63046656 : 63046658
9   63045885 : 63045887 | 63046657 : 63046659
"
    );
}

#[test]
fn bad_requests_are_errors() {
    let s = parse_array("f32[2,3]").unwrap();
    let kind = |r, c, at: &[u64]| {
        LayoutGrid::new(&s, r, c, at)
            .map(|_| ())
            .unwrap_err()
            .kind()
    };
    assert_eq!(
        kind(Some(2), None, &[0, 0]),
        ErrorKind::DimensionNumberOutOfRange
    );
    assert_eq!(
        kind(None, Some(9), &[0, 0]),
        ErrorKind::DimensionNumberOutOfRange
    );
    assert_eq!(kind(Some(0), Some(0), &[0, 0]), ErrorKind::SameDimension);
    let shape = parse_array("f32[2,3]").unwrap();
    let same = LayoutGrid::new(&shape, Some(1), Some(1), &[0, 0]).unwrap_err();
    extern crate std;
    use std::string::ToString;
    assert_eq!(
        same.to_string(),
        "rows and columns are both dimension 1; a grid needs two different dimensions"
    );
    assert_eq!(kind(Some(0), Some(1), &[0]), ErrorKind::IndexRank);
    assert_eq!(kind(Some(0), None, &[0, 3]), ErrorKind::IndexOutOfBounds);
    let open = parse_array("f32[?,3]").unwrap();
    assert_eq!(
        LayoutGrid::new(&open, Some(0), Some(1), &[0, 0])
            .unwrap_err()
            .kind(),
        ErrorKind::UnboundedDimension
    );
    let g = LayoutGrid::new(&s, Some(0), Some(1), &[0, 0]).unwrap();
    #[allow(clippy::reversed_empty_ranges)] // a backwards range on purpose
    let backwards = 1..0;
    assert!(g.window(backwards, 0..1).is_err());
    assert!(g.window(0..2, 0..4).is_err());
    assert!(g.cell(0, 3).is_err());
    // Empty windows draw nothing.
    assert_eq!(show(&g.window(0..0, 0..3).unwrap()).text(), "");
}

#[test]
fn scalars_vectors_empty_and_legacy_padding() {
    assert_eq!(show(&grid("f32[]", None, None, &[])).text(), "   0\n0  0\n");
    assert_eq!(
        show(&grid("f32[0,4]", Some(0), Some(1), &[0, 0])).text(),
        ""
    );
    // Legacy padding: the padded rows and columns are drawn as slots.
    let s = parse_array("f32[2,3]{0,1}")
        .unwrap()
        .with_legacy_padding(&[3, 5], crate::PaddingValue::Zero)
        .unwrap();
    let g = LayoutGrid::new(&s, Some(0), Some(1), &[0, 0]).unwrap();
    assert_eq!((g.size(), g.extent()), ((2, 3), (3, 5)));
    assert_eq!(g.cell(2, 4).unwrap().offset, Some(14));
    assert_eq!(
        show(&g).text(),
        "   0  1  2  3  4\n0  0  3  6  ·  ·\n1  1  4  7  ·  ·\n2  ·  ·  ·  ·  ·\n"
    );
}

#[test]
fn odd_layouts_draw_with_lines_in_every_window() {
    for text in [
        "s32[]{:T(128)S(5)}",
        "f32[5]{0:T(2,4)}",
        "s4[64,128]{1,0:T(64,128)(8,1)E(4)}",
        "bf16[3,2,9]{2,0,1:T(2,*,4)(2,1)}",
        "f32[0,3]{1,0:T(2,2)}",
        "u8[3,5,7]{0,2,1:T(4,2)(1,2)(2,1)L(96)}",
        "f32[<=5,3]{1,0:T(2,2)}",
    ] {
        let s = parse_array(text).unwrap();
        let rank = s.rank();
        let dims = [None, Some(0), Some(1), Some(2)];
        for rows in dims.into_iter().filter(|d| d.is_none_or(|d| d < rank)) {
            for cols in dims.into_iter().filter(|d| d.is_none_or(|d| d < rank)) {
                if rows.is_some() && rows == cols {
                    continue;
                }
                let g = match LayoutGrid::new(&s, rows, cols, &[0; 3][..rank]) {
                    Ok(g) => g.tile_lines(true),
                    // Fixing the empty dim of `f32[0,3]` at 0.
                    Err(e) => {
                        assert_eq!(e.kind(), ErrorKind::IndexOutOfBounds, "{text}");
                        assert!(text.starts_with("f32[0,"));
                        continue;
                    }
                };
                let (r, c) = g.extent();
                for (r0, c0) in [(0, 0), (r / 2, c / 3), (r.saturating_sub(1), 0)] {
                    // Up to 8 x 8: the buffer holds 1 KiB.
                    let (r1, c1) = (r.min(r0 + 8), c.min(c0 + 8));
                    let w = g.window(r0..r1, c0..c1).unwrap();
                    let b = show(&w);
                    if r1 > r0 && c1 > c0 {
                        let rows_drawn = b
                            .text()
                            .lines()
                            .skip(1)
                            .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
                            .count() as u64;
                        assert_eq!(rows_drawn, r1 - r0, "{text}\n{}", b.text());
                        assert!(b
                            .text()
                            .lines()
                            .all(|l| l.chars().count() <= w.line_width()));
                    }
                }
            }
        }
    }
}

#[test]
fn huge_shapes_do_not_overflow() {
    let g = grid(
        "f32[1099511627776,3]{1,0:T(8,128)}",
        Some(0),
        Some(1),
        &[0, 0],
    );
    assert_eq!(g.extent().1, 128);
    let g = g.window(0..1, 0..3).unwrap();
    assert_eq!(show(&g).text(), "   0  1  2\n0  0  1  2\n");
}
