//! `layout oom FILE|-`: read the TPU compiler's out-of-memory report,
//! recompute every allocation it lists, say where the padding comes from
//! and which dimension order would pad least.
//!
//! # Input
//!
//! The report as JAX, TensorFlow and PyTorch/XLA print it, with or without
//! a log prefix on each line (`2021-08-02 10:11:12.345678: E 4242
//! xla_util.cc:76]`, `E0802 10:11:12.345678 4242 file.cc:76]`): the header
//! (`Ran out of memory in memory space hbm. Used 19.21G of 16.00G hbm.`)
//! and the entries of `Largest program allocations in hbm:`, each
//! `N. Size:` then any of `Operator:`, `Shape:`, `Unpadded size:`, `Extra
//! memory due to padding:`, `XLA label:` (possibly cut off) and `Allocation
//! type:`. Sizes are binary units as the compiler prints them: whole bytes
//! (`512B`), one decimal for K (`4.0K`), two for M, G and up.
//!
//! # What is computed
//!
//! For each entry with an array shape ([`analyse`]):
//!
//! - the tiled shape: as printed if it has tiles; else the `XLA label:`'s
//!   result shape, when it is whole and is the same array with tiles; else
//!   the TPU rule ([`advise::infer_tiling`], marked inferred);
//! - its allocation (`ArrayShape::size_in_bytes`) and its unpadded size as
//!   the compiler counts it (`ArrayShape::unpacked_size_in_bytes`: elements
//!   times the unpacked byte width, so `pred` with `E(32)` is 4.0x);
//!   "agrees" means both print as the report's figures at its own precision;
//! - the causes of the padding ([`advise::causes`]);
//! - the best order ([`advise::best_order`]): the same array in another
//!   order, or with adjacent dimensions merged, that pads least under the
//!   same rule, phrased as a transpose or reshape in the program (the
//!   compiler picks the layouts of temporaries).
//!
//! Then the totals: the report's sizes summed, ours, the padding, and what
//! every allocation at its best order would save.
//!
//! # Output
//!
//! Without `--json`, a summary table and one block per allocation, fitted
//! to 80 columns (shapes are never broken). With `--json`, one document:
//! `{"memory_space", "used_bytes", "capacity_bytes", "allocations": [..],
//! "totals", "errors"}`; each allocation has `rank` (its number in the
//! report), `line`, `shape` (as printed, `null` when none), `tiled_shape`,
//! `operator`, `allocation_type`, `label`, `reported_bytes`,
//! `reported_unpadded_bytes` (the report's rounded figures), `bytes`,
//! `unpadded_bytes`, `expansion`, `tiling`, `tiling_source` (`"shape"`,
//! `"label"`, `"inferred"` or `null`), `tiling_inferred`, `agrees`,
//! `causes` (strings), `best` (`{"shape", "bytes", "change"}` or `null`)
//! and `note`. `totals` is `{"reported_bytes", "bytes", "padding_bytes",
//! "best_saving_bytes", "measured", "listed"}`; `errors` lists `{"line",
//! "message"}`. Sizes are integers in bytes.
//!
//! # Exit status
//!
//! - 0: a report was read and every entry made sense;
//! - 1: no report in the input (nothing is written to stdout), or a
//!   malformed entry (each is reported on stderr with its line number; the
//!   rest is still read and written);
//! - 2: the input could not be read;
//! - 3: the output could not be written.
//!
//! # Layers
//!
//! [`read`] reads the text (no shapes), [`advise`] knows the TPU's tiling
//! and searches orders, [`analyse`] measures each entry with both,
//! [`write`] writes the result; this module reads the input and wires them.
//! The command sits after `relayout` in the crate's layers and uses only
//! [`crate::output`] and [`crate::people`] outside itself.

pub mod advise;
pub mod analyse;
pub mod read;
pub mod write;

use std::io::{self, Read, Write};
use std::process::ExitCode;

use crate::output::{self, warn};
use crate::people::EXIT_INVALID;

/// Exit status when the input could not be read (as `scan`).
const EXIT_UNREADABLE: u8 = 2;

/// Runs `layout oom` on a path, or on stdin for `-`.
pub fn run(path: &str, json: bool) -> ExitCode {
    let what = if path == "-" { "standard input" } else { path };
    let input = if path == "-" {
        let mut buf = Vec::new();
        io::stdin().lock().read_to_end(&mut buf).map(|_| buf)
    } else {
        std::fs::read(path)
    };
    let bytes = match input {
        Ok(b) => b,
        Err(e) => {
            warn(format_args!("layout oom: cannot read {what}: {e}\n"));
            return ExitCode::from(EXIT_UNREADABLE);
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    let report = read::read(&text);
    if !report.found() {
        warn(format_args!(
            "layout oom: no out-of-memory report in {what} (no `Ran out of memory in \
             memory space` line and no `1. Size:` entry)\n"
        ));
        return ExitCode::from(EXIT_INVALID);
    }
    let analysis = analyse::analyse(&report);
    let body = if json {
        format!("{}\n", write::json(&analysis))
    } else {
        write::table(&analysis)
    };
    let mut out = output::stdout();
    // A write error is kept by `out`, and `finish` reports it.
    let _ = out.write_all(body.as_bytes());
    let flushed = out.flush().is_ok();
    let code = if analysis.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        if flushed {
            for e in &analysis.errors {
                warn(format_args!("layout oom: line {}: {}\n", e.line, e.message));
            }
        }
        ExitCode::from(EXIT_INVALID)
    };
    out.finish("oom", code)
}
