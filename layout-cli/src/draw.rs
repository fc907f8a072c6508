//! `layout draw`: a 2-D slice of a layout as a grid of element offsets, in
//! the manner of CuTe's `print_layout`: the cells come from
//! [`layout_core::LayoutGrid`] (one implementation of the grid), coloured by
//! tile on a terminal and cropped to its width, or as SVG with tiles shaded,
//! tile boundaries drawn (solid for the first level, dashed for the second)
//! and padding slots hatched. Small arrays also get their memory-order strip
//! (`a d b e c f`, padding as `·`).
//!
//! `--svg PATH` writes the SVG with [`crate::outfile`]: `-` is standard
//! output, a FIFO or device is written in place, a file is replaced
//! atomically keeping its mode.
//!
//! Uses: [`crate::people`], [`crate::format`], [`crate::output`],
//! [`crate::outfile`],
//! [`crate::machine`] (index parsing), [`crate::explain`] (dimensions by
//! number or letter).

use std::fmt::Write as _;
use std::io::{IsTerminal as _, Write as _};
use std::ops::Range;
use std::path::Path;
use std::process::ExitCode;

use anstyle::{AnsiColor, Color, Style};
use layout_core::{parse_array, ArrayShape, GridCell, LayoutGrid, COMBINE_ENTRY, PADDING_MARK};

use crate::format::grouped;
use crate::outfile::{Destination, Mode};
use crate::output::{self, warn, Output};
use crate::people::{render_error, EXIT_INVALID};

/// Most rows and most columns drawn; larger windows show their top-left
/// corner.
pub const MAX_SIDE: u64 = 64;
/// Largest array that gets a memory-order strip.
const MAX_STRIP: u64 = 64;
/// The terminal width assumed when `COLUMNS` does not say.
pub const DEFAULT_WIDTH: usize = 80;

/// What to draw.
pub struct Request<'a> {
    /// The array shape, as typed.
    pub shape: &'a str,
    /// The dimension drawn as rows, by number or letter (default: the
    /// second-to-last).
    pub rows: Option<&'a str>,
    /// The dimension drawn as columns, by number or letter (default: the
    /// last).
    pub cols: Option<&'a str>,
    /// A full index fixing the other dimensions (`3,0,0,0`).
    pub at: Option<&'a str>,
    /// The rows and columns shown, `ROWS,COLS` (see [`parse_window`]).
    pub window: Option<&'a str>,
    /// Draw the tile boundaries in the text grid (`|`, `-`; `:`, `.`).
    pub lines: bool,
    /// Write SVG to this path instead of text to stdout (`-`: SVG to
    /// stdout).
    pub svg: Option<&'a str>,
}

/// Runs `layout draw`; the text grid fits `COLUMNS` characters when that
/// is set, else [`DEFAULT_WIDTH`] on a terminal (a pipe or a file gets
/// the whole window).
pub fn run(req: &Request<'_>) -> ExitCode {
    let shape = match parse_array(req.shape) {
        Ok(s) => s,
        Err(e) => {
            warn(format_args!("{}", render_error(req.shape, &e)));
            return ExitCode::from(EXIT_INVALID);
        }
    };
    let slice = match Slice::from_request(shape, req) {
        Ok(s) => s,
        Err(e) => {
            warn(format_args!("error: {e}\n"));
            return ExitCode::from(EXIT_INVALID);
        }
    };
    if let Some(path) = req.svg {
        return write_svg(path, &slice.svg());
    }
    let width = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&w| w > 0)
        .or_else(|| std::io::stdout().is_terminal().then_some(DEFAULT_WIDTH));
    let mut out = Output::new(anstream::stdout());
    // As above.
    let _ = out.write_all(slice.text_fitting(true, width).as_bytes());
    out.finish("draw", ExitCode::SUCCESS)
}

/// Writes the SVG to `path` as [`crate::outfile`] does (`-`: standard
/// output, a FIFO or device in place, a file replaced atomically), then
/// says so on standard output (not when the SVG went there or into a
/// stream whose reader left).
fn write_svg(path: &str, svg: &str) -> ExitCode {
    let written = Destination::open(Path::new(path), ".layout-draw-").and_then(|dest| {
        let streamed = dest.is_stream();
        let to_stdout = dest.mode() == Mode::Stdout;
        match dest.write(|w| w.write_all(svg.as_bytes())) {
            Ok(()) => Ok(!to_stdout),
            // The reader went away: not an error (see `crate::output`).
            Err(e) if streamed && e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
            Err(e) => Err(e),
        }
    });
    match written {
        Ok(true) => {
            let mut out = output::stdout();
            // A write error is kept by `out`, and `finish` reports it.
            let _ = writeln!(out, "wrote {path}");
            out.finish("draw", ExitCode::SUCCESS)
        }
        Ok(false) => ExitCode::SUCCESS,
        Err(e) => {
            warn(format_args!("error: cannot write {path}: {e}\n"));
            ExitCode::from(output::EXIT_OUTPUT)
        }
    }
}

/// One side of `--window`: `A..B` (half-open), `A..`, `..B`, `..` or `A`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// First row or column (default 0).
    pub start: Option<u64>,
    /// One past the last (default: the extent).
    pub end: Option<u64>,
}

/// `--window ROWS,COLS`, each side `A..B` (rows or columns A to B-1),
/// `A..` (to the end), `..B`, `..` (all) or `A` (that one only).
pub fn parse_window(text: &str) -> Result<(Span, Span), String> {
    let side = |part: &str, what: &str| -> Result<Span, String> {
        let part = part.trim();
        let number = |t: &str| -> Result<Option<u64>, String> {
            let t = t.trim();
            if t.is_empty() {
                return Ok(None);
            }
            t.parse::<u64>().map(Some).map_err(|_| {
                format!("--window {what} `{part}`: `{t}` is not a non-negative integer")
            })
        };
        match part.split_once("..") {
            Some((a, b)) => Ok(Span {
                start: number(a)?,
                end: number(b)?,
            }),
            None => {
                let a = number(part)?.ok_or_else(|| {
                    format!("--window {what} is empty: give A..B, A.., ..B, .. or A")
                })?;
                Ok(Span {
                    start: Some(a),
                    end: Some(a.saturating_add(1)),
                })
            }
        }
    };
    let (rows, cols) = text
        .split_once(',')
        .ok_or_else(|| format!("--window `{text}` needs ROWS,COLS, e.g. 0..8,120..136"))?;
    Ok((side(rows, "rows")?, side(cols, "columns")?))
}

/// A drawable slice: the grid of the window drawn, and what it was cut
/// from.
pub struct Slice {
    /// The array drawn.
    pub shape: ArrayShape,
    /// The grid of the window drawn (at most [`MAX_SIDE`] by [`MAX_SIDE`]).
    pub grid: LayoutGrid,
    /// The dimension drawn as rows (`None`: one row).
    pub rows: Option<usize>,
    /// The dimension drawn as columns (`None`: one column).
    pub cols: Option<usize>,
    /// The rows and columns asked for, before cropping to [`MAX_SIDE`].
    pub asked: (Range<u64>, Range<u64>),
    /// Rows and columns drawn (at most [`MAX_SIDE`] each; 0 by 0 for an
    /// empty slice).
    pub extent: (u64, u64),
    /// Rows and columns asked for, before cropping to [`MAX_SIDE`].
    pub full: (u64, u64),
    /// The sizes of the drawn dimensions (without padding).
    pub size: (u64, u64),
    /// The index of the top-left cell (fixes the other dimensions).
    pub base: Vec<u64>,
    /// Draw tile lines in the text grid (off unless asked for).
    pub lines: bool,
}

/// `range` cut to [`MAX_SIDE`] entries from its start.
fn crop(range: &Range<u64>) -> Range<u64> {
    range.start..range.end.min(range.start.saturating_add(MAX_SIDE))
}

impl Slice {
    /// The slice a request asks for: dimensions by number or letter.
    pub fn from_request(shape: ArrayShape, req: &Request<'_>) -> Result<Slice, String> {
        let dim = |t: Option<&str>| {
            t.map(|t| crate::explain::parse_dimension(&shape, t))
                .transpose()
        };
        let (rows, cols) = (dim(req.rows)?, dim(req.cols)?);
        let window = req.window.map(parse_window).transpose()?;
        let mut slice = Slice::windowed(shape, rows, cols, req.at, window)?;
        slice.lines = req.lines;
        Ok(slice)
    }

    /// The slice of `shape` drawn for these options, from its top-left
    /// corner.
    pub fn new(
        shape: ArrayShape,
        rows: Option<usize>,
        cols: Option<usize>,
        at: Option<&str>,
    ) -> Result<Slice, String> {
        Slice::windowed(shape, rows, cols, at, None)
    }

    /// The slice of `shape` drawn for these options, through `window`.
    pub fn windowed(
        shape: ArrayShape,
        rows: Option<usize>,
        cols: Option<usize>,
        at: Option<&str>,
        window: Option<(Span, Span)>,
    ) -> Result<Slice, String> {
        let rank = shape.rank();
        let (rows, cols) = match (rows, cols, rank) {
            (r, c, _) if r.is_some() || c.is_some() => (r, c),
            (_, _, 0) => (None, None),
            (_, _, 1) => (None, Some(0)),
            (_, _, n) => (Some(n - 2), Some(n - 1)),
        };
        if rows.is_some() && rows == cols {
            return Err("rows and columns must be different dimensions".to_string());
        }
        if let Some(d) = shape.dims().iter().position(|d| d.layout_size().is_none()) {
            return Err(format!("`?` dimensions have no size to draw (dim {d})"));
        }
        let base = match at {
            Some(at) => {
                let given = crate::machine::parse_index(at)?;
                if given.len() != rank {
                    return Err(format!(
                        "--at has {} entries but the shape has rank {rank}",
                        given.len()
                    ));
                }
                given
            }
            None => vec![0; rank],
        };
        let grid = LayoutGrid::new(&shape, rows, cols, &base).map_err(|e| match e.kind() {
            layout_core::ErrorKind::IndexOutOfBounds => format!("--at: {e}"),
            _ => e.to_string(),
        })?;
        let (extent_rows, extent_cols) = grid.extent();
        let resolve = |side: Span, extent: u64, what: &str, dim: Option<usize>| {
            let (start, end) = (side.start.unwrap_or(0), side.end.unwrap_or(extent));
            let name = dim.map_or("the single row or column".to_string(), |d| {
                format!("dim {d}")
            });
            if start >= end || end > extent {
                return Err(format!(
                    "--window {what} {start}..{end} is not within 0..{extent}, the {what} of {name} (padding included)"
                ));
            }
            Ok(start..end)
        };
        let asked = match (window, extent_rows == 0 || extent_cols == 0) {
            (_, true) => (0..0, 0..0),
            (None, false) => (0..extent_rows, 0..extent_cols),
            (Some((r, c)), false) => (
                resolve(r, extent_rows, "rows", rows)?,
                resolve(c, extent_cols, "columns", cols)?,
            ),
        };
        let size = grid.size();
        let asked = if size.0 == 0 || size.1 == 0 {
            (0..0, 0..0)
        } else {
            asked
        };
        let grid = grid
            .window(crop(&asked.0), crop(&asked.1))
            .map_err(|e| e.to_string())?;
        let len = |r: &Range<u64>| r.end - r.start;
        Ok(Slice {
            shape,
            extent: (len(&grid.rows()), len(&grid.cols())),
            full: (len(&asked.0), len(&asked.1)),
            size,
            grid,
            rows,
            cols,
            asked,
            base,
            lines: false,
        })
    }

    /// The cell at row `r`, column `c` of the slice (counted from its
    /// top-left, padding included); past the padded extent, a padding
    /// cell with no offset.
    pub fn cell(&self, r: u64, c: u64) -> GridCell {
        self.grid.cell(r, c).unwrap_or(GridCell {
            row: r,
            col: c,
            offset: None,
            padding: true,
            tile: None,
        })
    }

    fn title(&self) -> String {
        let fixed: Vec<String> = self
            .base
            .iter()
            .enumerate()
            .filter(|(d, _)| Some(*d) != self.rows && Some(*d) != self.cols)
            .map(|(d, v)| format!("dim {d}={v}"))
            .collect();
        let name = |d: Option<usize>| d.map_or("-".to_string(), |d| format!("dim {d}"));
        let mut t = format!(
            "{}: rows {}, columns {}",
            self.shape,
            name(self.rows),
            name(self.cols)
        );
        if !fixed.is_empty() {
            write!(t, ", fixed {}", fixed.join(" ")).unwrap();
        }
        let (rows, cols) = (self.grid.rows(), self.grid.cols());
        let (all_rows, all_cols) = self.grid.extent();
        let whole = (0..all_rows, 0..all_cols);
        if self.asked == whole && (rows.clone(), cols.clone()) != whole && !rows.is_empty() {
            write!(
                t,
                " (top-left {}x{} of {}x{})",
                rows.end,
                cols.end,
                grouped(all_rows),
                grouped(all_cols)
            )
            .unwrap();
        } else if (rows.clone(), cols.clone()) != whole && !rows.is_empty() {
            write!(
                t,
                " (rows {}..{} of {}, columns {}..{} of {})",
                rows.start,
                rows.end,
                grouped(all_rows),
                cols.start,
                cols.end,
                grouped(all_cols)
            )
            .unwrap();
        }
        t
    }

    /// Tile level `level` as written, `(8,128)`.
    fn tile_text(&self, level: usize) -> String {
        self.shape
            .layout()
            .tile(level)
            .map_or_else(String::new, |t| {
                let e: Vec<String> = t
                    .raw()
                    .iter()
                    .map(|&v| {
                        if v == COMBINE_ENTRY {
                            "*".to_string()
                        } else {
                            v.to_string()
                        }
                    })
                    .collect();
                format!("({})", e.join(","))
            })
    }

    /// Whether the window shows a padding slot.
    fn shows_padding(&self) -> bool {
        let (rows, cols) = (self.grid.rows(), self.grid.cols());
        let size = self.grid.size();
        !rows.is_empty() && !cols.is_empty() && (rows.end > size.0 || cols.end > size.1)
    }

    /// The grid as text, as wide as the window needs; `color` adds ANSI
    /// colours by tile (stripped by anstream when the output is not a
    /// terminal).
    pub fn text(&self, color: bool) -> String {
        self.text_fitting(color, None)
    }

    /// [`text`](Self::text) with the columns cropped to lines of `width`
    /// characters, with a note saying so.
    pub fn text_fitting(&self, color: bool, width: Option<usize>) -> String {
        let mut out = format!("{}\n", self.title());
        let mut grid = self.grid.tile_lines(self.lines);
        if grid.rows().is_empty() || grid.cols().is_empty() {
            out.push_str("(no elements: the slice is empty)\n");
            return out;
        }
        let mut note = None;
        if let Some(width) = width {
            if grid.line_width() > width {
                let cols = grid.cols();
                let fit = grid.columns_fitting(width).max(1);
                let shown = cols.start..cols.start.saturating_add(fit).min(cols.end);
                if let Ok(g) = grid.window(grid.rows(), shown.clone()) {
                    grid = g;
                    note = Some(format!(
                        "(columns {}..{} of {}..{} shown to fit {width} characters; set COLUMNS or use --window)",
                        shown.start, shown.end, cols.start, cols.end
                    ));
                }
            }
        }
        let styles: Vec<(String, String)> = PALETTE
            .iter()
            .map(|&c| {
                let style = Style::new().fg_color(Some(Color::Ansi(c)));
                (format!("{style}"), format!("{style:#}"))
            })
            .collect();
        let paint = |cell: &GridCell| match (color, cell.tile, cell.padding) {
            (true, Some(t), false) => {
                let (a, b) = &styles[(t % styles.len() as u64) as usize];
                (a.as_str(), b.as_str())
            }
            _ => ("", ""),
        };
        if grid.write_styled(&mut out, paint).is_err() {
            // Only a cell outside the grid fails, and the window is inside.
            out.push_str("(the grid could not be drawn)\n");
        }
        if let Some(note) = note {
            writeln!(out, "{note}").unwrap();
        }
        let mut legend = Vec::new();
        let levels = grid.tile_levels();
        match (levels, self.lines) {
            (0, _) => {}
            (1, true) => legend.push(format!("| and - bound tile 0 {}", self.tile_text(0))),
            (_, true) => legend.push(format!(
                "| and - bound tile 0 {}, : and . tile 1 {} inside it",
                self.tile_text(0),
                self.tile_text(1)
            )),
            (1, false) => legend.push(format!(
                "tile 0 {} (--lines draws its boundaries)",
                self.tile_text(0)
            )),
            (_, false) => legend.push(format!(
                "tile 0 {}, tile 1 {} inside it (--lines draws their boundaries)",
                self.tile_text(0),
                self.tile_text(1)
            )),
        }
        if self.shows_padding() {
            legend.push(format!("{PADDING_MARK} is padding"));
        }
        if !legend.is_empty() {
            writeln!(out, "{}", legend.join("; ")).unwrap();
        }
        if let Some(strip) = self.strip() {
            writeln!(out, "memory order: {strip}").unwrap();
        }
        out
    }

    /// The seed document's memory-order strip for small arrays: elements
    /// named in logical order, listed in memory order, padding slots as
    /// [`PADDING_MARK`], as in the grid.
    pub fn strip(&self) -> Option<String> {
        let allocated = self.shape.allocated_elements().ok()?;
        if allocated > MAX_STRIP || allocated == 0 {
            return None;
        }
        let name = |i: usize| match u8::try_from(i) {
            Ok(i @ 0..=25) => char::from(b'a' + i).to_string(),
            Ok(i @ 26..=51) => char::from(b'A' + (i - 26)).to_string(),
            _ => format!("e{i}"),
        };
        let mut logical = Vec::new();
        self.shape.for_each_index(|i| logical.push(i.to_vec()));
        let slots: Vec<String> = (0..allocated)
            .map(|o| match self.shape.index_of(o) {
                Some(idx) => logical
                    .iter()
                    .position(|l| l.as_slice() == idx.as_slice())
                    .map_or_else(|| PADDING_MARK.to_string(), name),
                None => PADDING_MARK.to_string(),
            })
            .collect();
        Some(slots.join(" "))
    }

    /// The grid as a standalone SVG document: cells as wide as their
    /// longest label, first-level tile boundaries solid, second-level ones
    /// dashed, padding hatched.
    pub fn svg(&self) -> String {
        const CELL_H: u64 = 28;
        const TOP: u64 = 56;
        /// Pixels per character of the 12px monospace labels (about 7.2).
        const CHAR_W: u64 = 8;
        let g = &self.grid;
        let (rows, cols) = (g.rows(), g.cols());
        let label_len = |n: u64| n.to_string().len() as u64;
        let mut longest = label_len(cols.end.saturating_sub(1));
        for r in rows.clone() {
            for c in cols.clone() {
                if let Some(o) = self.cell(r, c).offset {
                    longest = longest.max(label_len(o));
                }
            }
        }
        let cell_w = (longest * CHAR_W + 16).max(40);
        let left = (label_len(rows.end.saturating_sub(1)) * CHAR_W + 24).max(56);
        let (n_rows, n_cols) = (rows.end - rows.start, cols.end - cols.start);
        let title = self.title();
        let legend = self.svg_legend();
        let width = (left + n_cols * cell_w + 16)
            .max(title.chars().count() as u64 * 9 + 16)
            .max(legend.chars().count() as u64 * CHAR_W + 16);
        let height = TOP + n_rows * CELL_H + 40;
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
            escape(&title)
        )
        .unwrap();
        let x_of = |c: u64| left + (c - cols.start) * cell_w;
        let y_of = |r: u64| TOP + (r - rows.start) * CELL_H;
        for c in cols.clone() {
            writeln!(
                s,
                r##"<text x="{}" y="{}" text-anchor="middle" fill="#555555">{c}</text>"##,
                x_of(c) + cell_w / 2,
                TOP - 8
            )
            .unwrap();
        }
        for r in rows.clone() {
            writeln!(
                s,
                r##"<text x="{}" y="{}" text-anchor="end" fill="#555555">{r}</text>"##,
                left - 8,
                y_of(r) + CELL_H / 2 + 4
            )
            .unwrap();
            for c in cols.clone() {
                let cell = self.cell(r, c);
                let (x, y0) = (x_of(c), y_of(r));
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
                    r##"<rect class="{}" x="{x}" y="{y0}" width="{cell_w}" height="{CELL_H}" fill="{fill}" stroke="#888888" stroke-width="0.5"/>"##,
                    if cell.padding { "padding" } else { "element" }
                )
                .unwrap();
                let color = if cell.padding { "#999999" } else { "#000000" };
                if let Some(offset) = cell.offset {
                    writeln!(
                        s,
                        r##"<text x="{}" y="{}" text-anchor="middle" fill="{color}">{offset}</text>"##,
                        x + cell_w / 2,
                        y0 + CELL_H / 2 + 4,
                    )
                    .unwrap();
                }
            }
        }
        // Tile boundaries, over the cells: the right and the bottom edge
        // of each cell whose neighbour is in another tile.
        for r in rows.clone() {
            for c in cols.clone() {
                let (x, y) = (x_of(c), y_of(r));
                if c + 1 < cols.end {
                    if let Ok(Some(level)) = g.tile_change((r, c), (r, c + 1)) {
                        svg_line(&mut s, level, (x + cell_w, y), (x + cell_w, y + CELL_H));
                    }
                }
                if r + 1 < rows.end {
                    if let Ok(Some(level)) = g.tile_change((r, c), (r + 1, c)) {
                        svg_line(&mut s, level, (x, y + CELL_H), (x + cell_w, y + CELL_H));
                    }
                }
            }
        }
        if !legend.is_empty() {
            writeln!(
                s,
                r##"<text x="8" y="{}" fill="#555555">{}</text>"##,
                height - 12,
                escape(&legend)
            )
            .unwrap();
        }
        s.push_str("</svg>\n");
        s
    }

    fn svg_legend(&self) -> String {
        let mut legend = Vec::new();
        let levels = self.grid.tile_levels();
        if levels > 0 {
            legend.push(format!("solid lines: tile 0 {}", self.tile_text(0)));
        }
        if levels > 1 {
            legend.push(format!("dashed: tile 1 {}", self.tile_text(1)));
        }
        if self.shows_padding() {
            legend.push("hatched: padding".to_string());
        }
        legend.join("; ")
    }
}

/// A tile boundary: solid and thick for level 0, thin and dashed for
/// level 1.
fn svg_line(s: &mut String, level: usize, (x1, y1): (u64, u64), (x2, y2): (u64, u64)) {
    let style = if level == 0 {
        r##"stroke="#222222" stroke-width="2""##
    } else {
        r##"stroke="#444444" stroke-width="1" stroke-dasharray="4,3""##
    };
    writeln!(
        s,
        r##"<line class="tile{level}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {style}/>"##
    )
    .unwrap();
}

const PALETTE: [AnsiColor; 6] = [
    AnsiColor::Cyan,
    AnsiColor::Yellow,
    AnsiColor::Green,
    AnsiColor::Magenta,
    AnsiColor::Blue,
    AnsiColor::Red,
];

/// Seven fills: tile numbers a power of two apart (the tiles of one row
/// above the next) get different ones.
const FILLS: [&str; 7] = [
    "#cfe8ff", "#ffe4b5", "#d4f4d4", "#f3d1f4", "#fff3b0", "#d9d4ff", "#ffd6d6",
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

    fn words(line: &str) -> Vec<&str> {
        line.split_whitespace().collect()
    }

    #[test]
    fn figure_1_grid_has_the_offsets_and_padding() {
        let mut s = slice("f32[3,5]{1,0:T(2,2)}");
        assert_eq!(s.grid.extent(), (4, 6));
        let plain = s.text(false);
        assert_eq!(
            words(plain.lines().nth(2).unwrap()),
            ["0", "0", "1", "4", "5", "8", "·"]
        );
        assert_eq!(
            plain.lines().nth(6).unwrap(),
            "tile 0 (2,2) (--lines draws its boundaries); · is padding"
        );
        s.lines = true;
        let plain = s.text(false);
        let rows: Vec<&str> = plain.lines().collect();
        assert_eq!(
            words(rows[2]),
            ["0", "0", "1", "|", "4", "5", "|", "8", "·"]
        );
        assert_eq!(rows[4].trim(), "-".repeat(30));
        assert_eq!(
            words(rows[5]),
            ["2", "12", "13", "|", "16", "17", "|", "20", "·"]
        );
        assert_eq!(
            words(rows[6]),
            ["3", "·", "·", "|", "·", "·", "|", "·", "·"]
        );
        assert_eq!(rows[7], "| and - bound tile 0 (2,2); · is padding");
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
        assert_eq!(s.strip().unwrap(), "a d · b e · c f · · · · · · ·");
        assert_eq!(slice("f32[2,3]{0,1}").strip().unwrap(), "a d b e c f");
        // Tile padding the same way: 3x5 in 2x2 tiles.
        assert_eq!(
            slice("f32[3,5]{1,0:T(2,2)}").strip().unwrap(),
            "a b f g c d h i e · j · k l · · m n · · o · · ·"
        );
    }

    #[test]
    fn svg_marks_tiles_and_padding() {
        let svg = slice("f32[3,5]{1,0:T(2,2)}").svg();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(svg.matches("class=\"element\"").count(), 15);
        assert_eq!(svg.matches("class=\"padding\"").count(), 24 - 15);
        // 2 vertical boundaries x 4 rows, 1 horizontal x 6 columns.
        assert_eq!(svg.matches("class=\"tile0\"").count(), 8 + 6);
        assert_eq!(svg.matches("class=\"tile1\"").count(), 0);
        assert!(svg.contains("solid lines: tile 0 (2,2); hatched: padding"));
        assert!(svg.trim_end().ends_with("</svg>"));
        // The second level dashed: (2,1) splits each 2x4 tile in columns.
        let svg = slice("f32[4,8]{1,0:T(2,4)(2,1)}").svg();
        assert_eq!(svg.matches("class=\"tile0\"").count(), 4 + 8);
        assert_eq!(svg.matches("class=\"tile1\"").count(), 6 * 4);
        assert!(svg.contains("stroke-dasharray"));
    }

    #[test]
    fn svg_cells_fit_their_labels() {
        let s = Slice::windowed(
            parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap(),
            Some(2),
            Some(3),
            Some("7,0,0,0"),
            Some(parse_window("1270..1280,16380..16384").unwrap()),
        )
        .unwrap();
        let svg = s.svg();
        // The largest offset, 167,772,159, has 9 digits: 9 x 8 + 16 pixels.
        assert!(svg.contains(">167772159</text>"));
        assert!(svg.contains(r#"class="element" x="56" y="56" width="88""#));
        assert!(svg.contains("dashed: tile 1 (2,1)"));
    }

    #[test]
    fn large_slices_are_cropped() {
        let s = slice("f32[20,300]{1,0:T(8,128)}");
        assert_eq!(s.grid.extent(), (24, 384));
        assert_eq!((s.extent, s.full, s.size), ((24, 64), (24, 384), (20, 300)));
        assert_eq!((s.grid.rows(), s.grid.cols()), (0..24, 0..64));
        assert!(s
            .text(false)
            .lines()
            .next()
            .unwrap()
            .ends_with("(top-left 24x64 of 24x384)"));
        assert_eq!(s.cell(9, 1).offset, Some(3 * 1024 + 128 + 1));
    }

    #[test]
    fn the_terminal_width_crops_columns_with_a_note() {
        let s = slice("f32[4,64]");
        let text = s.text_fitting(false, Some(40));
        let lines: Vec<&str> = text.lines().collect();
        // Label 1, then 13 columns of 2 + 3 digits (offsets up to 255).
        assert!(
            lines[1..=5].iter().all(|l| l.chars().count() <= 40),
            "{text}"
        );
        assert_eq!(words(lines[1]).len(), 7);
        assert_eq!(
            lines[6],
            "(columns 0..7 of 0..64 shown to fit 40 characters; set COLUMNS or use --window)"
        );
        assert!(!s.text_fitting(false, Some(1000)).contains("shown to fit"));
    }

    #[test]
    fn windows() {
        assert_eq!(
            parse_window("0..8, 120..").unwrap(),
            (
                Span {
                    start: Some(0),
                    end: Some(8)
                },
                Span {
                    start: Some(120),
                    end: None
                }
            )
        );
        assert_eq!(
            parse_window("..,3").unwrap().1,
            Span {
                start: Some(3),
                end: Some(4)
            }
        );
        assert!(parse_window("0..8").is_err());
        assert!(parse_window("a..8,0").unwrap_err().contains("`a`"));
        let shape = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
        let w = |t: &str| Slice::windowed(shape, None, None, None, Some(parse_window(t).unwrap()));
        let s = w("1..3,2..").unwrap();
        assert_eq!((s.grid.rows(), s.grid.cols()), (1..3, 2..6));
        assert_eq!(
            w("0..5,0").err().unwrap(),
            "--window rows 0..5 is not within 0..4, the rows of dim 0 (padding included)"
        );
        assert!(w("2..2,0").is_err());
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
        assert!(Slice::new(parse_array("f32[2,3]").unwrap(), Some(0), Some(0), None,).is_err());
        assert!(Slice::new(
            parse_array("f32[2,3,4]").unwrap(),
            None,
            None,
            Some("5,0,0"),
        )
        .is_err());
    }
}
