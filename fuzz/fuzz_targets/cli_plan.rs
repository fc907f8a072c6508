//! Fuzz target for the planning behind `layout explain` and `layout draw`
//! on arbitrary shape text and arguments.
//!
//! The input is UTF-8 text of up to four lines: the shape, an index (for
//! `explain --index` and `draw --at`), the rows dimension and the columns
//! dimension (empty or not a number: not given). Besides never panicking:
//! - `parse_index` of an index it accepted, printed back, gives the same
//!   index;
//! - `render_error` starts with the error's message;
//! - `explain::describe` explains every array whose plan exists at any
//!   in-bounds index, with that element's offset;
//! - a `draw` slice stays within 64 x 64 cells; every element cell's offset
//!   is the shape's offset of its index; the text grid and the SVG have one
//!   cell per drawn position; the memory-order strip names
//!   `element_count` slots of `allocated_elements`.
#![no_main]

use layout_core::{parse, parse_array, Plan, Shape};
use libfuzzer_sys::fuzz_target;
use xla_layout_cli::draw::{Request, Slice};
use xla_layout_cli::explain::describe;
use xla_layout_cli::format::grouped;
use xla_layout_cli::machine::parse_index;
use xla_layout_cli::people::render_error;

/// The largest side of a drawn grid (`draw`'s crop).
const MAX_SIDE: u64 = 64;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = input.splitn(4, '\n');
    let shape = lines.next().unwrap_or("");
    let index = lines.next();
    // A dimension by number or letter; an empty line: not given.
    fn dim(s: Option<&str>) -> Option<&str> {
        s.map(str::trim).filter(|s| !s.is_empty())
    }
    let req = Request {
        shape,
        rows: dim(lines.next()),
        cols: dim(lines.next()),
        at: index,
        window: None,
        lines: false,
        svg: None,
    };
    let index = index.map(parse_index).and_then(Result::ok);
    if let (Some(text), Some(parsed)) = (req.at, &index) {
        let printed: Vec<String> = parsed.iter().map(u64::to_string).collect();
        assert_eq!(
            parse_index(&printed.join(",")).as_ref(),
            Ok(parsed),
            "parse_index({text:?}) does not round-trip"
        );
    }
    explain(shape, index.as_deref());
    draw(&req);
});

fn explain(text: &str, index: Option<&[u64]>) {
    let shape = match parse(text) {
        Ok(s) => s,
        Err(e) => {
            let shown = render_error(text, &e);
            assert!(shown.contains(&e.to_string()), "{shown}");
            return;
        }
    };
    let _ = describe(&shape, None, "  ");
    let described = describe(&shape, index, "");
    let Shape::Array(a) = &shape else {
        return;
    };
    let Some(index) = index else {
        return;
    };
    if a.allocated_elements().is_err() || !a.index_in_bounds(index) {
        return;
    }
    let offset = a.offset(index).expect("offset of an in-bounds index");
    match described {
        Ok(words) => assert!(
            words.contains(&format!("element offset {} ", grouped(offset))),
            "{text} at {index:?}: no offset {offset} in\n{words}"
        ),
        Err(e) => panic!("{text} at {index:?}: describe failed: {e}"),
    }
}

fn draw(req: &Request<'_>) {
    let shape = match parse_array(req.shape) {
        Ok(s) => s,
        Err(e) => {
            let _ = render_error(req.shape, &e);
            return;
        }
    };
    let Ok(slice) = Slice::from_request(shape, req) else {
        return;
    };
    let (rows, cols) = slice.extent;
    let plan = Plan::new(&slice.shape).expect("a drawn shape has a plan");
    assert!(rows <= MAX_SIDE && cols <= MAX_SIDE, "extent {rows}x{cols}");
    assert!(rows <= slice.full.0 && cols <= slice.full.1);
    for r in 0..rows {
        for c in 0..cols {
            let cell = slice.cell(r, c);
            assert_eq!(cell.padding, r >= slice.size.0 || c >= slice.size.1);
            if cell.padding {
                continue;
            }
            let mut index = slice.base.clone();
            if let Some(d) = slice.rows {
                index[d] = r;
            }
            if let Some(d) = slice.cols {
                index[d] = c;
            }
            let want = plan.offset(&index).ok();
            assert!(
                want.is_some(),
                "{}: cell ({r},{c}) = {index:?} has no offset",
                req.shape
            );
            assert_eq!(
                cell.offset, want,
                "{}: cell ({r},{c}) = {index:?}",
                req.shape
            );
        }
    }
    let text = slice.text(false);
    if rows * cols <= 256 {
        let _ = slice.text(true);
    }
    if rows > 0 && cols > 0 {
        // Title, column numbers, then one line per row.
        let grid: Vec<&str> = text.lines().skip(2).take(rows as usize).collect();
        assert_eq!(grid.len() as u64, rows, "{}: rows drawn", req.shape);
        for line in grid {
            assert_eq!(line.split_whitespace().count() as u64, cols + 1, "{line}");
        }
    }
    let svg = slice.svg();
    assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
    let drawn = svg.matches("class=\"element\"").count() + svg.matches("class=\"padding\"").count();
    assert_eq!(drawn as u64, rows * cols, "{}: SVG cells", req.shape);
    if let Some(strip) = slice.strip() {
        let allocated = slice
            .shape
            .allocated_elements()
            .expect("a strip has a size");
        let count = slice.shape.element_count().expect("a strip has a count");
        let slots: Vec<&str> = strip.split(' ').collect();
        assert_eq!(
            slots.len() as u64,
            allocated,
            "{}: strip {strip}",
            req.shape
        );
        let named = slots.iter().filter(|&&s| s != "·").count() as u64;
        assert_eq!(named, count, "{}: strip {strip}", req.shape);
    }
}
