//! `layout draw`: a 2-D slice of a layout as a grid of element offsets, in
//! the manner of CuTe's `print_layout`: coloured by tile on a terminal,
//! plain otherwise, or as SVG with tiles shaded and padding slots marked.
//! Small arrays also get their memory-order strip (`a d b e c f`).
//!
//! Uses: [`crate::people`], [`crate::format`], [`crate::output`],
//! [`crate::machine`] (index parsing).

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use anstyle::{AnsiColor, Color, Style};
use layout_core::{parse_array, ArrayShape, Dim, Plan, COMBINE_ENTRY};

use crate::format::grouped;
use crate::output::{self, warn, Output};
use crate::people::{render_error, EXIT_INVALID};

/// Most rows and most columns drawn; larger slices show their top-left
/// corner.
const MAX_SIDE: u64 = 64;
/// Largest array that gets a memory-order strip.
const MAX_STRIP: u64 = 64;

/// What to draw.
pub struct Request<'a> {
    /// The array shape, as typed.
    pub shape: &'a str,
    /// The dimension drawn as rows (default: the second-to-last).
    pub rows: Option<usize>,
    /// The dimension drawn as columns (default: the last).
    pub cols: Option<usize>,
    /// A full index fixing the other dimensions (`3,0,0,0`).
    pub at: Option<&'a str>,
    /// Write SVG to this path instead of text to stdout.
    pub svg: Option<&'a str>,
}

/// A drawable slice: the two dims, their drawn extents (padded up to the
/// first tile level where it tiles them alone), and the fixed index.
pub struct Slice {
    /// The array drawn.
    pub shape: ArrayShape,
    /// The plan of the same layout with the drawn dims that are drawn
    /// whole widened to their padded extents, so padding slots have
    /// offsets too; built once. (A dim larger than [`MAX_SIDE`] is cropped
    /// before its padding, and widening it could overflow.)
    plan: Plan,
    /// Whether `plan` has the drawn dims widened (false when the widened
    /// shape is too large to describe: padding slots then have no offset).
    widened: bool,
    /// The dimension drawn as rows (`None`: one row).
    pub rows: Option<usize>,
    /// The dimension drawn as columns (`None`: one column).
    pub cols: Option<usize>,
    /// Rows and columns drawn (padding included, cropped to [`MAX_SIDE`];
    /// 0 by 0 for an empty slice).
    pub extent: (u64, u64),
    /// The extent before cropping to [`MAX_SIDE`].
    pub full: (u64, u64),
    /// The sizes of the drawn dimensions (without padding).
    pub size: (u64, u64),
    /// The index of the top-left cell (fixes the other dimensions).
    pub base: Vec<u64>,
}

/// One cell of the grid.
pub struct Cell {
    /// Its offset; `None` for a padding slot the plan cannot place.
    pub offset: Option<u64>,
    /// A slot of the padding, not an element.
    pub padding: bool,
    /// Which first-level tile the cell is in (None when untiled).
    pub tile: Option<u64>,
}

/// Runs `layout draw`.
pub fn run(req: &Request<'_>) -> ExitCode {
    let shape = match parse_array(req.shape) {
        Ok(s) => s,
        Err(e) => {
            warn(format_args!("{}", render_error(req.shape, &e)));
            return ExitCode::from(EXIT_INVALID);
        }
    };
    let slice = match Slice::new(shape, req.rows, req.cols, req.at) {
        Ok(s) => s,
        Err(e) => {
            warn(format_args!("error: {e}\n"));
            return ExitCode::from(EXIT_INVALID);
        }
    };
    if let Some(path) = req.svg {
        if let Err(e) = std::fs::write(path, slice.svg()) {
            warn(format_args!("error: cannot write {path}: {e}\n"));
            return ExitCode::from(output::EXIT_OUTPUT);
        }
        let mut out = output::stdout();
        // A write error is kept by `out`, and `finish` reports it.
        let _ = writeln!(out, "wrote {path}");
        return out.finish("draw", ExitCode::SUCCESS);
    }
    let mut out = Output::new(anstream::stdout());
    // As above.
    let _ = out.write_all(slice.text(true).as_bytes());
    out.finish("draw", ExitCode::SUCCESS)
}

/// The size of dim `d` as tiled by the first level alone (its padded
/// extent), or its size when the first tile does not cover it by itself
/// (or the padded extent does not fit in 64 bits).
fn padded_extent(shape: &ArrayShape, d: usize, size: u64) -> u64 {
    let l = shape.layout();
    let Some(tile) = l.tile(0) else {
        return size;
    };
    let m2m = l.minor_to_major();
    // Physical position from the minor end.
    let Some(from_minor) = m2m.iter().position(|&x| x as usize == d) else {
        return size;
    };
    let raw = tile.raw();
    if from_minor >= raw.len() {
        return size;
    }
    let j = raw.len() - 1 - from_minor;
    let alone = raw[j] != COMBINE_ENTRY && (j == 0 || raw[j - 1] != COMBINE_ENTRY);
    if !alone {
        return size;
    }
    let t = raw[j].unsigned_abs();
    if t == 0 {
        return size;
    }
    size.div_ceil(t).checked_mul(t).unwrap_or(size)
}

impl Slice {
    /// The slice of `shape` drawn for these options.
    pub fn new(
        shape: ArrayShape,
        rows: Option<usize>,
        cols: Option<usize>,
        at: Option<&str>,
    ) -> Result<Slice, String> {
        let rank = shape.rank();
        let (rows, cols) = match (rows, cols, rank) {
            (r, c, _) if r.is_some() || c.is_some() => (r, c),
            (_, _, 0) => (None, None),
            (_, _, 1) => (None, Some(0)),
            (_, _, n) => (Some(n - 2), Some(n - 1)),
        };
        for d in [rows, cols].into_iter().flatten() {
            if d >= rank {
                return Err(format!("dimension {d} is out of range for rank {rank}"));
            }
        }
        if rows.is_some() && rows == cols {
            return Err("rows and columns must be different dimensions".to_string());
        }
        let sizes: Vec<u64> = shape
            .dims()
            .iter()
            .map(|d| {
                d.layout_size()
                    .ok_or("`?` dimensions have no size to draw".to_string())
            })
            .collect::<Result<_, _>>()?;
        let mut base = vec![0u64; rank];
        if let Some(at) = at {
            let given = crate::machine::parse_index(at)?;
            if given.len() != rank {
                return Err(format!(
                    "--at has {} entries but the shape has rank {rank}",
                    given.len()
                ));
            }
            base = given;
        }
        for (d, (&b, &s)) in base.iter().zip(&sizes).enumerate() {
            if Some(d) != rows && Some(d) != cols && b >= s {
                return Err(format!(
                    "--at index {b} is out of bounds for dimension {d} of size {s}"
                ));
            }
        }
        let size_of = |d: Option<usize>| d.map_or(1, |d| sizes[d]);
        let size = (size_of(rows), size_of(cols));
        let extent = (
            rows.map_or(1, |d| padded_extent(&shape, d, sizes[d])),
            cols.map_or(1, |d| padded_extent(&shape, d, sizes[d])),
        );
        let mut dims: Vec<Dim> = sizes.iter().map(|&s| Dim::Static(s)).collect();
        for (d, e) in [(rows, extent.0), (cols, extent.1)] {
            if let Some(d) = d {
                if sizes[d] < MAX_SIDE {
                    dims[d] = Dim::Static(e);
                }
            }
        }
        let widened = ArrayShape::new(shape.element_type(), &dims)
            .and_then(|s| s.with_layout(*shape.layout()))
            .and_then(|s| Plan::new(&s));
        let (plan, widened) = match widened {
            Ok(plan) => (plan, true),
            // Same tiles, so the same offsets for every element.
            Err(_) => (Plan::new(&shape).map_err(|e| e.to_string())?, false),
        };
        // An empty slice has no grid at all; large slices are cropped to
        // their top-left corner.
        let full = if size.0 == 0 || size.1 == 0 {
            (0, 0)
        } else {
            extent
        };
        let extent = (full.0.min(MAX_SIDE), full.1.min(MAX_SIDE));
        Ok(Slice {
            shape,
            plan,
            widened,
            rows,
            cols,
            extent,
            full,
            size,
            base,
        })
    }

    /// The cell at row `r`, column `c` of the drawn grid.
    pub fn cell(&self, r: u64, c: u64) -> Cell {
        let mut index = self.base.clone();
        if let Some(d) = self.rows {
            index[d] = r;
        }
        if let Some(d) = self.cols {
            index[d] = c;
        }
        let padding = r >= self.size.0 || c >= self.size.1;
        let plan = &self.plan;
        let offset = (!padding || self.widened).then(|| plan.offset_unchecked(&index));
        let tile = (self.shape.layout().tile_count() > 0).then(|| {
            let at = plan.physical_index(&index, 1);
            let k = self.shape.layout().tile(0).map_or(0, |t| {
                t.raw().iter().filter(|&&v| v != COMBINE_ENTRY).count()
            });
            let s = at.as_slice();
            // A number for the tile from its grid coordinates; neighbours differ
            // (by 1 across, 3 down) so their colours do too.
            s[..s.len() - k]
                .iter()
                .fold(0u64, |acc, &g| acc.wrapping_mul(3).wrapping_add(g))
        });
        Cell {
            offset,
            padding,
            tile,
        }
    }

    fn title(&self) -> String {
        let name = |d: Option<usize>| d.map_or("-".to_string(), |d| format!("dim {d}"));
        let fixed: Vec<String> = self
            .base
            .iter()
            .enumerate()
            .filter(|(d, _)| Some(*d) != self.rows && Some(*d) != self.cols)
            .map(|(d, v)| format!("dim {d}={v}"))
            .collect();
        let mut t = format!(
            "{}: rows {}, columns {}",
            self.shape,
            name(self.rows),
            name(self.cols)
        );
        if !fixed.is_empty() {
            write!(t, ", fixed {}", fixed.join(" ")).unwrap();
        }
        if self.extent != self.full {
            write!(
                t,
                " (top-left {}x{} of {}x{})",
                self.extent.0,
                self.extent.1,
                grouped(self.full.0),
                grouped(self.full.1)
            )
            .unwrap();
        }
        t
    }

    /// The grid as text; `color` adds ANSI colours by tile (stripped by
    /// anstream when the output is not a terminal).
    pub fn text(&self, color: bool) -> String {
        let width = self
            .plan
            .allocated_elements()
            .max(1)
            .to_string()
            .len()
            .max(2);
        let mut out = format!("{}\n", self.title());
        if self.size.0 == 0 || self.size.1 == 0 {
            out.push_str("(no elements: the slice is empty)\n");
            return out;
        }
        write!(out, "{:>5} ", "").unwrap();
        for c in 0..self.extent.1 {
            write!(out, " {c:>width$}").unwrap();
        }
        out.push('\n');
        for r in 0..self.extent.0 {
            write!(out, "{r:>5} ").unwrap();
            for c in 0..self.extent.1 {
                let cell = self.cell(r, c);
                let text = match (cell.padding, cell.offset) {
                    (false, Some(o)) => format!("{o:>width$}"),
                    _ => format!("{:>width$}", "·"),
                };
                match (color, cell.tile, cell.padding) {
                    (true, Some(t), false) => {
                        let style =
                            Style::new().fg_color(Some(Color::Ansi(PALETTE[(t % 6) as usize])));
                        write!(out, " {style}{text}{style:#}").unwrap();
                    }
                    _ => write!(out, " {text}").unwrap(),
                }
            }
            out.push('\n');
        }
        if let Some(strip) = self.strip() {
            writeln!(out, "memory order: {strip}").unwrap();
        }
        out
    }

    /// The seed document's memory-order strip for small arrays: elements
    /// named in logical order, listed in memory order, `0` for padding.
    pub fn strip(&self) -> Option<String> {
        let allocated = self.shape.allocated_elements().ok()?;
        if allocated > MAX_STRIP || allocated == 0 {
            return None;
        }
        let names: Vec<String> = (0..allocated)
            .map(|i| match i {
                0..=25 => char::from(b'a' + i as u8).to_string(),
                26..=51 => char::from(b'A' + (i - 26) as u8).to_string(),
                _ => format!("e{i}"),
            })
            .collect();
        let mut logical = Vec::new();
        self.shape.for_each_index(|i| logical.push(i.to_vec()));
        let slots: Vec<String> = (0..allocated)
            .map(|o| match self.shape.index_of(o) {
                Some(idx) => {
                    let n = logical
                        .iter()
                        .position(|l| l.as_slice() == idx.as_slice())
                        .unwrap_or(0);
                    names[n].clone()
                }
                None => "0".to_string(),
            })
            .collect();
        Some(slots.join(" "))
    }

    /// The grid as a standalone SVG document.
    pub fn svg(&self) -> String {
        const CELL_W: u64 = 56;
        const CELL_H: u64 = 28;
        const LEFT: u64 = 56;
        const TOP: u64 = 56;
        let width = LEFT + self.extent.1 * CELL_W + 16;
        let height = TOP + self.extent.0 * CELL_H + 16;
        let mut s = String::new();
        writeln!(
            s,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="12">"##
        )
        .unwrap();
        s.push_str(concat!(
            r##"<defs><pattern id="pad" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">"##,
            r##"<rect width="6" height="6" fill="#eeeeee"/><line x1="0" y1="0" x2="0" y2="6" stroke="#bbbbbb" stroke-width="2"/></pattern></defs>"##,
            "\n"
        ));
        writeln!(
            s,
            r##"<rect width="{width}" height="{height}" fill="white"/>"##
        )
        .unwrap();
        writeln!(
            s,
            r##"<text x="8" y="20" font-size="14">{}</text>"##,
            escape(&self.title())
        )
        .unwrap();
        for c in 0..self.extent.1 {
            let x = LEFT + c * CELL_W + CELL_W / 2;
            writeln!(
                s,
                r##"<text x="{x}" y="{}" text-anchor="middle" fill="#555555">{c}</text>"##,
                TOP - 8
            )
            .unwrap();
        }
        for r in 0..self.extent.0 {
            let y = TOP + r * CELL_H + CELL_H / 2 + 4;
            writeln!(
                s,
                r##"<text x="{}" y="{y}" text-anchor="end" fill="#555555">{r}</text>"##,
                LEFT - 8
            )
            .unwrap();
            for c in 0..self.extent.1 {
                let cell = self.cell(r, c);
                let (x, y0) = (LEFT + c * CELL_W, TOP + r * CELL_H);
                let fill = if cell.padding {
                    "url(#pad)".to_string()
                } else {
                    match cell.tile {
                        Some(t) => FILLS[(t % FILLS.len() as u64) as usize].to_string(),
                        None => "#f4f4f4".to_string(),
                    }
                };
                writeln!(
                    s,
                    r##"<rect class="{}" x="{x}" y="{y0}" width="{CELL_W}" height="{CELL_H}" fill="{fill}" stroke="#888888" stroke-width="0.5"/>"##,
                    if cell.padding { "padding" } else { "element" }
                )
                .unwrap();
                let color = if cell.padding { "#999999" } else { "#000000" };
                if let Some(offset) = cell.offset {
                    writeln!(
                        s,
                        r##"<text x="{}" y="{}" text-anchor="middle" fill="{color}">{offset}</text>"##,
                        x + CELL_W / 2,
                        y0 + CELL_H / 2 + 4,
                    )
                    .unwrap();
                }
            }
        }
        s.push_str("</svg>\n");
        s
    }
}

const PALETTE: [AnsiColor; 6] = [
    AnsiColor::Cyan,
    AnsiColor::Yellow,
    AnsiColor::Green,
    AnsiColor::Magenta,
    AnsiColor::Blue,
    AnsiColor::Red,
];

const FILLS: [&str; 8] = [
    "#cfe8ff", "#ffe4b5", "#d4f4d4", "#f3d1f4", "#fff3b0", "#d9d4ff", "#ffd6d6", "#c8f0ee",
];

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slice(text: &str) -> Slice {
        Slice::new(parse_array(text).unwrap(), None, None, None).unwrap()
    }

    #[test]
    fn figure_1_grid_has_the_offsets_and_padding() {
        let s = slice("f32[3,5]{1,0:T(2,2)}");
        assert_eq!(s.extent, (4, 6));
        let plain = s.text(false);
        let rows: Vec<&str> = plain.lines().collect();
        assert_eq!(
            rows[2].split_whitespace().collect::<Vec<_>>(),
            ["0", "0", "1", "4", "5", "8", "·"]
        );
        assert_eq!(
            rows[4].split_whitespace().collect::<Vec<_>>(),
            ["2", "12", "13", "16", "17", "20", "·"]
        );
        assert_eq!(
            rows[5].split_whitespace().collect::<Vec<_>>(),
            ["3", "·", "·", "·", "·", "·", "·"]
        );
        // Padding cells still have their slots in the SVG.
        assert_eq!(s.cell(3, 0).offset, Some(14));
        assert!(s.cell(3, 0).padding);
    }

    #[test]
    fn seed_document_strip() {
        let s = Slice::new(
            parse_array("f32[2,3]{0,1}")
                .unwrap()
                .with_legacy_padding(&[3, 5], layout_core::PaddingValue::Zero)
                .unwrap(),
            None,
            None,
            None,
        )
        .unwrap();
        assert_eq!(s.strip().unwrap(), "a d 0 b e 0 c f 0 0 0 0 0 0 0");
        assert_eq!(slice("f32[2,3]{0,1}").strip().unwrap(), "a d b e c f");
    }

    #[test]
    fn svg_marks_tiles_and_padding() {
        let svg = slice("f32[3,5]{1,0:T(2,2)}").svg();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(svg.matches("class=\"element\"").count(), 15);
        assert_eq!(svg.matches("class=\"padding\"").count(), 24 - 15);
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn large_slices_are_cropped() {
        let s = slice("f32[20,300]{1,0:T(8,128)}");
        assert_eq!((s.extent, s.full), ((24, 64), (24, 384)));
        assert!(s
            .text(false)
            .lines()
            .next()
            .unwrap()
            .ends_with("(top-left 24x64 of 24x384)"));
        assert_eq!(s.cell(9, 1).offset, Some(3 * 1024 + 128 + 1));
    }

    #[test]
    fn fixed_dims_and_chosen_dims() {
        let s = Slice::new(
            parse_array("f32[2,3,4]").unwrap(),
            Some(0),
            Some(2),
            Some("0,1,0"),
        )
        .unwrap();
        assert_eq!(s.cell(1, 3).offset, Some(12 + 4 + 3));
        assert!(Slice::new(parse_array("f32[2,3]").unwrap(), Some(0), Some(0), None).is_err());
        assert!(Slice::new(
            parse_array("f32[2,3,4]").unwrap(),
            None,
            None,
            Some("5,0,0")
        )
        .is_err());
    }
}
