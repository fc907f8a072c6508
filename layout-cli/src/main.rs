//! `layout`: read, check and evaluate XLA shape and layout strings.
//!
//! Machine-readable commands (one JSON object per line):
//! - `layout check [SHAPE|-]...` checks each shape argument (`-`, or no
//!   argument, reads shapes from stdin, one per line) and writes
//!   `{"input", "ok", "canonical", "error"}` for each, the error as
//!   `{"kind", "rule", "message", "span"}`; exit 1 if any fails.
//! - `layout offsets '<shape>' [--index i,j,..]` prints the offsets of an
//!   array's elements (or of one element).
//!
//! - `layout explain '<shape>' --json` prints the explanation as one JSON
//!   object.
//!
//! For people: `layout explain`, `layout draw`, and `layout scan FILE|-
//! [--json]`, which finds every shape in an HLO dump (exit 1 if a shape fails
//! to parse, 2 if the input cannot be read); `layout scan DIR` reads the
//! buffer assignments of a `--xla_dump_to` directory (exit 1 if there is
//! none or a line cannot be read).
//!
//! `layout oom FILE|- [--json]` reads the TPU compiler's out-of-memory
//! report and explains it (exit 1 if there is no report or an entry is
//! malformed, 2 if the input cannot be read).
//!
//! On files: `layout relayout --from SHAPE --to SHAPE INPUT OUTPUT` copies
//! an array from one layout to another (raw bytes, or `.npy` on a side
//! whose layout is dense row- or column-major); OUTPUT is replaced only
//! when the run succeeds (see [`relayout`]).
//!
//! With no arguments, `layout` explains the seed example.
//!
//! # Exit status (every command)
//!
//! One table for every command, in [`exit`] (and in `layout --help`):
//! 0 success; 1 bad input; 2 a usage error or an unreadable input; 3 the
//! output could not be written; 128+n stopped by signal n. A reader that
//! goes away (a closed pipe, `| head`) is not an error: the command stops
//! quietly with the status it would have had.
//!
//! Every command writes through [`output::Output`]; nothing panics on a
//! closed or full stdout or stderr.
//!
//! # Modules
//!
//! The commands live in the package's library (`src/lib.rs`); `main`
//! parses the arguments and calls them: [`machine`] (`check`, `offsets`),
//! [`explain`], [`draw`], [`relayout`], [`oom`] and [`scan`].

#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use xla_layout_cli::{draw, exit, explain, machine, oom, output, relayout, scan};

/// The seed example explained by `layout` with no arguments.
const SEED: &str = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";

/// The element `layout` with no arguments locates.
const SEED_INDEX: &str = "3,0,13,300";

#[derive(Parser)]
#[command(
    name = "layout",
    version,
    about = "Read, check and evaluate XLA shape and layout strings",
    after_help = exit::HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Check shape strings (arguments, or stdin one per line); one JSON object per line out, exit 1 if any fails.
    Check {
        /// The shapes to check, in order; `-` (or none) reads stdin, one shape per line.
        shapes: Vec<String>,
    },
    /// Print the element offsets of an array shape as JSON.
    Offsets {
        /// The shape, e.g. 'f32[3,5]{1,0:T(2,2)}'.
        shape: String,
        /// One logical index, comma-separated, e.g. 3,0,13,300.
        #[arg(long, allow_hyphen_values = true)]
        index: Option<String>,
    },
    /// Explain a shape in words (default: the seed example).
    ///
    /// Dimensions are named by letter, x the last, then y, z, p (up to
    /// rank 4); `layout draw` takes the letters for --rows and --cols.
    Explain {
        /// The shape to explain.
        shape: Option<String>,
        /// Also show where this element lands, e.g. 3,0,13,300.
        #[arg(long)]
        index: Option<String>,
        /// One JSON object instead of words.
        #[arg(long)]
        json: bool,
    },
    /// Draw a 2-D slice of a layout as a grid of element offsets.
    ///
    /// Padding slots are `·`; with --lines, `|` and `-` bound the first
    /// tile level, `:` and `.` the second (in SVG: solid and dashed). The
    /// text fits $COLUMNS characters, or 80 on a terminal: wider grids are
    /// cropped, with a note. At most 64 rows and 64 columns are drawn;
    /// --window picks which.
    Draw {
        /// The array shape to draw.
        shape: String,
        /// The dimension drawn as rows, by number or letter (x is the
        /// last, then y, z, p; see `layout explain`). Default: the
        /// second-to-last.
        #[arg(long, value_name = "DIM")]
        rows: Option<String>,
        /// The dimension drawn as columns, by number or letter. Default:
        /// the last.
        #[arg(long, value_name = "DIM")]
        cols: Option<String>,
        /// A full index fixing the other dimensions, e.g. 3,0,0,0.
        #[arg(long)]
        at: Option<String>,
        /// The rows and columns shown: ROWS,COLS, each A..B (A to B-1),
        /// A.., ..B, .. or A; e.g. 0..8,120..136. Padding slots count.
        #[arg(long, value_name = "ROWS,COLS")]
        window: Option<String>,
        /// Draw the tile boundaries in the text grid.
        #[arg(long)]
        lines: bool,
        /// Write the grid as SVG to this file instead (- for stdout; a FIFO or
        /// device is written in place, a file replaced keeping its mode).
        #[arg(long)]
        svg: Option<String>,
    },
    /// Find every shape in an HLO text dump (a file, or - for stdin), or
    /// read a dump directory's buffer assignments.
    ///
    /// With a directory, as XLA writes it with --xla_dump_to, each
    /// `*-buffer-assignment.txt` is read: every allocation and its values,
    /// the compiler's sizes beside ours (tiles and padding included), the
    /// padding, and the module's total as the compiler counted it (`Total
    /// bytes used:`) beside the allocations rebuilt from our sizes. The
    /// HLO `*.txt` beside each gives the values' opcodes.
    Scan {
        /// The dump: a path, `-` for standard input, or a dump directory.
        file: String,
        /// One JSON object per instruction (per module, for a directory)
        /// instead of a table.
        #[arg(long, conflicts_with_all = ["sort", "top", "computation"])]
        json: bool,
        /// List the instructions as one table ranked by this, largest first.
        #[arg(long, value_enum)]
        sort: Option<SortBy>,
        /// Only the first N instructions listed.
        #[arg(long, value_name = "N")]
        top: Option<usize>,
        /// Only the instructions of this computation (the `%` is optional).
        #[arg(long, value_name = "NAME")]
        computation: Option<String>,
    },
    /// Explain the TPU compiler's out-of-memory report and say what to change.
    ///
    /// Reads the report (a file, or - for stdin; log prefixes are fine),
    /// recomputes each allocation it lists, says where the padding comes
    /// from, and which dimension order (a transpose or reshape in the
    /// program) would pad least. Tilings the report leaves out are taken from
    /// the XLA label or inferred by the TPU rule, and marked so.
    Oom {
        /// The report: a path, or `-` for standard input.
        file: String,
        /// One JSON document instead of the table.
        #[arg(long)]
        json: bool,
    },
    /// Copy an array file from one layout to another (raw bytes, or .npy).
    ///
    /// INPUT holds the array in the --from layout: exactly that layout's
    /// bytes, or an .npy file (its header must match --from, which must then
    /// be dense row-major, or column-major for a Fortran-order file). OUTPUT
    /// gets the --to layout's bytes, every padding slot (tiles, L(n)) as
    /// zeros, or an .npy file when its name ends in .npy (--to dense row- or
    /// column-major). A file
    /// OUTPUT is replaced only when the whole run succeeds, keeping its mode
    /// and owner (a symlink's target is replaced); a FIFO or device is
    /// written in place, and so is a hard-linked file or a writable file in
    /// a read-only directory (a failed run can leave those partial).
    #[command(
        after_help = "Example:\n  layout relayout --from 'f32[512,1024]{1,0}' --to 'f32[512,1024]{1,0:T(8,128)}' x.npy x.tiled"
    )]
    Relayout {
        /// The layout INPUT is in, e.g. 'f32[512,1024]{1,0}'.
        #[arg(long, value_name = "SHAPE")]
        from: String,
        /// The layout to write, e.g. 'f32[512,1024]{1,0:T(8,128)}'.
        #[arg(long, value_name = "SHAPE")]
        to: String,
        /// The file read: raw bytes, or .npy; - reads raw bytes from stdin.
        input: PathBuf,
        /// The file written: raw bytes, or .npy when its name ends in .npy;
        /// - writes raw bytes to stdout.
        output: PathBuf,
    },
}

/// What `scan --sort` ranks by.
#[derive(Clone, Copy, clap::ValueEnum)]
enum SortBy {
    /// Allocated bytes.
    Bytes,
    /// Padding bytes (allocated minus unpadded).
    Padding,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage(&e),
    };
    match cli.command {
        Some(Command::Check { shapes }) => machine::check(&shapes),
        Some(Command::Offsets { shape, index }) => machine::offsets(&shape, index.as_deref()),
        Some(Command::Explain { shape, index, json }) => {
            explain::explain(shape.as_deref().unwrap_or(SEED), index.as_deref(), json)
        }
        Some(Command::Draw {
            shape,
            rows,
            cols,
            at,
            window,
            lines,
            svg,
        }) => draw::run(&draw::Request {
            shape: &shape,
            rows: rows.as_deref(),
            cols: cols.as_deref(),
            at: at.as_deref(),
            window: window.as_deref(),
            lines,
            svg: svg.as_deref(),
        }),
        Some(Command::Scan {
            file,
            json,
            sort,
            top,
            computation,
        }) => {
            let listing = scan::Listing {
                sort: sort.map(|s| match s {
                    SortBy::Bytes => scan::SortKey::Bytes,
                    SortBy::Padding => scan::SortKey::Padding,
                }),
                top,
                computation,
            };
            scan::run_listing(&file, json, &listing)
        }
        Some(Command::Oom { file, json }) => oom::run(&file, json),
        Some(Command::Relayout {
            from,
            to,
            input,
            output,
        }) => relayout::run(&relayout::Request {
            from: &from,
            to: &to,
            input: &input,
            output: &output,
        }),
        None => explain::explain(SEED, Some(SEED_INDEX), false),
    }
}

/// Prints clap's help, version or usage error; its status, or
/// [`output::EXIT_OUTPUT`] when help or version could not be written.
fn usage(e: &clap::Error) -> ExitCode {
    let code = u8::try_from(e.exit_code()).unwrap_or(exit::USAGE);
    match e.print() {
        Ok(()) => ExitCode::from(code),
        // Usage errors go to stderr: nowhere else to report a failure.
        Err(_) if e.use_stderr() => ExitCode::from(code),
        Err(io) if io.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(code),
        Err(io) => {
            output::warn(format_args!("layout: cannot write the output: {io}\n"));
            ExitCode::from(output::EXIT_OUTPUT)
        }
    }
}
