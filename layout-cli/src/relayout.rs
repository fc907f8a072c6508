//! `layout relayout --from SHAPE --to SHAPE INPUT OUTPUT`: rewrites an
//! array file from one layout to another with
//! [`layout_core::RelayoutPlan`].
//!
//! INPUT holds the array in the `--from` layout: raw bytes, exactly the
//! layout's size in bytes, or an `.npy` file. OUTPUT gets the array in the
//! `--to` layout: raw bytes (tile and `L(n)` padding written as zeros:
//! layout text has no legacy padding, so no padding value), or an `.npy`
//! file when its name ends in `.npy`.
//!
//! INPUT `-` reads the raw bytes from standard input, and OUTPUT `-`
//! writes them to standard output (then nothing else is printed there, and
//! a failed run may have written part of the data).
//!
//! An `.npy` file holds a dense array in C (row-major) or Fortran
//! (column-major) order, so the side that is an `.npy` file must have a
//! layout without tiles or padding whose `minor_to_major` is descending
//! (`{1,0}`; C order) or ascending (`{0,1}`; Fortran order), with whole
//! bytes per element (no `E(n)` packing). The types NumPy has (`pred`,
//! `s8`..`s64`, `u8`..`u64`, `f16`, `f32`, `f64`, `c64`, `c128`) are
//! little-endian. `bf16`, the `f8` and `f4` types and the sub-byte
//! integers have no NumPy dtype: their `.npy` files hold raw bytes, type
//! string `|V2` (`bf16`) or `|V1` (the others, one element per byte), as
//! ml_dtypes saves them (it writes `<V2`, `<V1`, and `<f1` for
//! `float8_e5m2`; all are accepted), and
//! `np.load(f).view(ml_dtypes.bfloat16)` reads such an OUTPUT. An input's
//! header must agree with `--from` (dtype, shape, order); anything else is
//! refused, naming both.
//!
//! Files are read and written with plain reads and writes, not memory
//! maps: mapping a file is `unsafe` (another process may change or shorten
//! it under the map), and this crate forbids `unsafe`. The input is read
//! into memory (a relayout reads its source in any order): a regular file,
//! whose size is checked first, into one buffer of that size; standard
//! input, a pipe (`/dev/stdin`), a FIFO or a device as a stream, into a
//! buffer that grows as the bytes come (never past the `--from` size; an
//! empty stdin costs one [`CHUNK`], not the whole array). The output is
//! made [`WINDOW`] bytes at a time on every core
//! ([`RelayoutPlan::par_run_bytes_windowed`]) and written as it is made,
//! so peak memory is the source plus one window, whatever the `--to`
//! layout's padding (`L(n)` tails and tiles wider than a window are
//! written as zeros window by window); an allocation that fails is an
//! error (status 1), not an abort. An OUTPUT file larger than the space
//! its file system has free for this user is refused before INPUT is
//! read (status 1): a `--to` such as `u8[4]{0:L(9223372036854775807)}`
//! takes 9.2 EB. Streams (`-`, FIFOs, devices) get no such check.
//!
//! OUTPUT is opened before INPUT is read, with [`crate::outfile`]: a new
//! or regular file is written to a temporary file beside it (beside a
//! symlink's target) and renamed over it, keeping its mode and owner, only
//! when everything succeeded, so a failed run leaves no partial file
//! behind and an existing OUTPUT untouched; the temporary file is removed
//! on SIGINT, SIGTERM and SIGHUP too ([`crate::cleanup`], status 128+n).
//! FIFOs and devices are written in place as streams, and so are files
//! that cannot be replaced without changing their identity (hard links, a
//! file whose owner this user cannot give, a writable file in a read-only
//! directory): such a file is truncated only once INPUT has been read and
//! checked, and a run that fails while writing it leaves it partial. A
//! reader of standard output or of a FIFO that goes away is not an error.
//!
//! Past [`PROGRESS_THRESHOLD`] bytes, and only when stderr is a terminal,
//! a progress bar on stderr counts the bytes read and written and names
//! the phase (reading, relayout, writing).
//!
//! Exit status ([`crate::exit`]): 0 done; 1 an invalid shape, shapes that
//! do not describe the same array, an INPUT whose size or `.npy` header
//! does not match `--from` (or an `.npy` side whose layout or type has no
//! `.npy` form), an array too big for memory, or an OUTPUT file larger
//! than its file system's free space; 2 INPUT cannot be read
//! (or is not an `.npy` file); 3 OUTPUT cannot be written; 128+n stopped
//! by signal n.
//!
//! Uses: [`crate::npy`] for `.npy` headers, [`crate::people`] for shape
//! errors, [`crate::output`] for messages.

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use layout_core::{parse_array, ArrayShape, ElementType, ErrorKind, RelayoutPlan};

use crate::npy;
use crate::outfile::Destination;
use crate::output::{self, warn, EXIT_OUTPUT};
use crate::people::{render_error, EXIT_INVALID};

/// Exit status when INPUT cannot be read.
pub const EXIT_UNREADABLE: u8 = crate::exit::UNREADABLE;

/// Inputs larger than this (in bytes) get a progress bar on a terminal.
pub const PROGRESS_THRESHOLD: u64 = 64 << 20;

/// Bytes read at a time (the progress bar's step).
const CHUNK: usize = 8 << 20;

/// Bytes of OUTPUT made and written at a time: the memory OUTPUT takes
/// (at most this, whatever its padding).
const WINDOW: usize = 16 << 20;

/// What `layout relayout` was asked to do.
pub struct Request<'a> {
    /// The layout of INPUT, as text.
    pub from: &'a str,
    /// The layout of OUTPUT, as text.
    pub to: &'a str,
    /// The file read.
    pub input: &'a Path,
    /// The file written.
    pub output: &'a Path,
}

/// Why the command stopped: the exit status and the message for stderr
/// (complete, with its newline).
#[derive(Debug)]
struct Failure {
    code: u8,
    message: String,
}

fn fail(code: u8, message: impl Into<String>) -> Failure {
    Failure {
        code,
        message: message.into(),
    }
}

/// Runs `layout relayout`.
pub fn run(req: &Request<'_>) -> ExitCode {
    match relayout(req) {
        Ok(summary) => {
            let mut out = output::stdout();
            // A write error is kept by `out`, and `finish` reports it.
            let _ = out.write_all(summary.as_bytes());
            out.finish("relayout", ExitCode::SUCCESS)
        }
        Err(f) => {
            warn(format_args!("{}", f.message));
            ExitCode::from(f.code)
        }
    }
}

/// Does the work; returns the line printed on success.
fn relayout(req: &Request<'_>) -> Result<String, Failure> {
    let src = parse_shape(req.from)?;
    let dst = parse_shape(req.to)?;
    let plan = RelayoutPlan::new(&src, &dst)
        .map_err(|e| fail(EXIT_INVALID, format!("error: cannot relayout: {e}\n")))?;
    let stdin = req.input == Path::new("-");
    let input_name = if stdin {
        "standard input".to_string()
    } else {
        req.input.display().to_string()
    };
    let output_name = if req.output == Path::new("-") {
        "standard output".to_string()
    } else {
        req.output.display().to_string()
    };

    // The output's header first: a refusal costs no reading.
    let out_header = if is_npy(req.output) {
        Some(dense_header(&dst, "--to", req.to)?)
    } else {
        None
    };

    let mut input = if stdin {
        // Raw bytes; their count is known once they are read.
        Input::Stream(Box::new(io::stdin().lock()))
    } else {
        open_input(req, &src, &plan)?
    };
    // Before reading: an output that cannot be written costs no reading,
    // and the temporary file exists (and is removed on a signal) from now
    // on. Nothing is truncated or replaced until the input is read.
    let dest = Destination::open(req.output, ".layout-relayout-").map_err(|e| {
        fail(
            EXIT_OUTPUT,
            format!("error: cannot write {output_name}: {e}\n"),
        )
    })?;
    let streamed = dest.is_stream();
    let header_len = out_header
        .as_ref()
        .map_or(0, |h| npy::header_bytes(h).len());
    let total = plan.destination_bytes().saturating_add(header_len as u64);
    if let Some(room) = dest.room().filter(|&room| total > room) {
        // `dest` is dropped here: its temporary file is removed.
        return Err(fail(
            EXIT_INVALID,
            format!(
                "error: {output_name} would take {total} bytes ({}), but its file system has {room} bytes free; nothing written\n",
                req.to
            ),
        ));
    }

    let bar = progress_bar(plan.source_bytes(), plan.destination_bytes());
    let result = (|| {
        bar.set_message("reading");
        let source = input.read_all(plan.source_bytes(), &input_name, req.from, &bar)?;
        drop(input);

        // The destination is made a window at a time (on every core) and
        // written as it is made: memory holds the source and one window.
        bar.set_message("relayout");
        let header = out_header.as_ref().map(npy::header_bytes);
        dest.write(|w: &mut dyn Write| {
            if let Some(h) = &header {
                w.write_all(h)?;
            }
            plan.par_run_bytes_windowed(&source, WINDOW, |bytes: &[u8]| {
                w.write_all(bytes)?;
                bar.inc(bytes.len() as u64);
                Ok::<(), Stream>(())
            })
        })
        .or_else(|e| match e {
            // The reader went away: not an error (see `crate::output`).
            Stream::Io(e) if streamed && e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            Stream::Copy(e) if e.kind() == ErrorKind::OutOfMemory => Err(fail(
                EXIT_INVALID,
                format!(
                    "error: cannot hold a window of the output in memory ({e}); nothing written to {output_name}\n"
                ),
            )),
            Stream::Copy(e) => Err(fail(EXIT_INVALID, format!("error: cannot relayout: {e}\n"))),
            Stream::Io(e) => Err(fail(
                EXIT_OUTPUT,
                format!("error: cannot write {output_name}: {e}\n"),
            )),
        })?;
        drop(source);
        Ok(header.map_or(0, |h| h.len()))
    })();
    bar.finish_and_clear();
    let header_len = result?;
    if streamed {
        // Standard output holds the data; a FIFO or device needs no
        // summary.
        return Ok(String::new());
    }
    let bytes = plan.destination_bytes();
    Ok(if header_len > 0 {
        format!(
            "wrote {output_name}: {bytes} bytes of data after a {header_len}-byte .npy header, {}\n",
            req.to
        )
    } else {
        format!("wrote {output_name}: {bytes} bytes, {}\n", req.to)
    })
}

/// INPUT, positioned at its data.
enum Input {
    /// A regular file whose data is exactly the `--from` size (checked).
    Sized(File),
    /// Standard input, a pipe, a FIFO or a device: its length is known
    /// once it ends.
    Stream(Box<dyn Read>),
}

impl Input {
    /// Reads the `want` bytes of data. A stream is read without
    /// allocating ahead of its bytes (the buffer grows as they come, at
    /// most to `want`); it must end there.
    fn read_all(
        &mut self,
        want: u64,
        name: &str,
        from: &str,
        bar: &ProgressBar,
    ) -> Result<Vec<u8>, Failure> {
        let unreadable =
            |e: io::Error| fail(EXIT_UNREADABLE, format!("error: cannot read {name}: {e}\n"));
        let too_big = || {
            fail(
                EXIT_INVALID,
                format!("error: cannot hold the input in memory ({want} bytes)\n"),
            )
        };
        let want_len = usize::try_from(want).map_err(|_| too_big())?;
        match self {
            Input::Sized(file) => {
                let mut buf = Vec::new();
                buf.try_reserve_exact(want_len).map_err(|_| too_big())?;
                buf.resize(want_len, 0);
                read_into(file, &mut buf, bar).map_err(unreadable)?;
                Ok(buf)
            }
            Input::Stream(r) => {
                let mut buf: Vec<u8> = Vec::new();
                while buf.len() < want_len {
                    let start = buf.len();
                    // Doubling, from one chunk, never past `want`.
                    let step = (want_len - start).min(start.max(CHUNK));
                    buf.try_reserve_exact(step).map_err(|_| too_big())?;
                    buf.resize(start + step, 0);
                    let filled = fill(r, &mut buf[start..]).map_err(unreadable)?;
                    bar.inc(filled as u64);
                    buf.truncate(start + filled);
                    if filled < step {
                        return Err(short_input(name, from, want));
                    }
                }
                if fill(r, &mut [0u8]).map_err(unreadable)? > 0 {
                    return Err(long_input(name, from, want));
                }
                Ok(buf)
            }
        }
    }
}

/// Reads into `buf` until it is full or `r` ends; the bytes read.
fn fill(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match r.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Opens INPUT (a path), reads its `.npy` header if it has one, and, for
/// a regular file, checks that the data is exactly the `--from` layout's
/// size; anything else (a pipe such as `/dev/stdin`, a FIFO, a device) is
/// read as a stream. Positioned at the data.
fn open_input(req: &Request<'_>, src: &ArrayShape, plan: &RelayoutPlan) -> Result<Input, Failure> {
    let input_name = req.input.display();
    let unreadable = |e: io::Error| {
        fail(
            EXIT_UNREADABLE,
            format!("error: cannot read {input_name}: {e}\n"),
        )
    };
    let mut file = File::open(req.input).map_err(unreadable)?;
    let meta = file.metadata().map_err(unreadable)?;
    if meta.is_dir() {
        return Err(fail(
            EXIT_UNREADABLE,
            format!("error: cannot read {input_name}: it is a directory\n"),
        ));
    }
    let name = input_name.to_string();
    let npy_input = is_npy(req.input);
    let sized = meta.is_file();
    check_input(
        &mut file,
        (sized.then_some(meta.len()), npy_input),
        (&name, req.from),
        src,
        plan,
    )?;
    Ok(if sized {
        Input::Sized(file)
    } else {
        Input::Stream(Box::new(file))
    })
}

/// Reads INPUT's `.npy` header when `npy` (checking it against `--from`
/// `from`, its shape `src`), leaving `r` at the data, and checks that the
/// data is the `--from` layout's size when the file's length `len` is
/// known. `name` names INPUT in messages.
fn check_input(
    r: &mut impl Read,
    (len, npy_input): (Option<u64>, bool),
    (name, from): (&str, &str),
    src: &ArrayShape,
    plan: &RelayoutPlan,
) -> Result<(), Failure> {
    let mut offset = 0;
    if npy_input {
        let expected = dense_header(src, "--from", from)?;
        let (header, at) = npy::read_header(r).map_err(|e| {
            fail(
                EXIT_UNREADABLE,
                format!("error: cannot read {name} as an .npy file: {e}\n"),
            )
        })?;
        check_npy_input(&header, &expected, src, from, name)?;
        offset = at;
    }
    let Some(len) = len else {
        return Ok(());
    };
    // The header was read from the file: it is not longer than it.
    let data_len = len.saturating_sub(offset);
    let what = if npy_input { "the data of " } else { "" };
    if data_len != plan.source_bytes() {
        return Err(fail(
            EXIT_INVALID,
            format!(
                "error: {what}{name} has {data_len} bytes but {from} takes {} bytes; nothing written\n",
                plan.source_bytes()
            ),
        ));
    }
    Ok(())
}

/// `layout relayout` on an INPUT held in memory (`npy_input`: read as an
/// `.npy` file), to an OUTPUT that is an `.npy` file when `npy_output`:
/// every check the command makes on its arguments and INPUT's header, and,
/// for sources of at most `limit` bytes, the bytes it would write. For the
/// fuzz target `cli_relayout`; the command itself reads files.
///
/// # Errors
///
/// The exit status and the message the command would give.
pub fn in_memory(
    (from, to): (&str, &str),
    input: &[u8],
    (npy_input, npy_output): (bool, bool),
    limit: u64,
) -> Result<Option<Vec<u8>>, (u8, String)> {
    let failed = |f: Failure| (f.code, f.message);
    let src = parse_shape(from).map_err(failed)?;
    let dst = parse_shape(to).map_err(failed)?;
    let plan = RelayoutPlan::new(&src, &dst)
        .map_err(|e| (EXIT_INVALID, format!("error: cannot relayout: {e}\n")))?;
    let header = if npy_output {
        Some(npy::header_bytes(
            &dense_header(&dst, "--to", to).map_err(failed)?,
        ))
    } else {
        None
    };
    let mut rest = input;
    let len = u64::try_from(input.len()).unwrap_or(u64::MAX);
    check_input(
        &mut rest,
        (Some(len), npy_input),
        ("INPUT", from),
        &src,
        &plan,
    )
    .map_err(failed)?;
    if plan.source_bytes() > limit || plan.destination_bytes() > limit {
        return Ok(None);
    }
    let mut out = header.unwrap_or_default();
    plan.par_run_bytes_windowed(rest, WINDOW, |bytes: &[u8]| {
        out.extend_from_slice(bytes);
        Ok::<(), layout_core::Error>(())
    })
    .map_err(|e| (EXIT_INVALID, format!("error: cannot relayout: {e}\n")))?;
    Ok(Some(out))
}

/// A streamed input ended before the `--from` layout's size.
fn short_input(name: &str, from: &str, want: u64) -> Failure {
    fail(
        EXIT_INVALID,
        format!("error: {name} has fewer bytes than {from} takes ({want}); nothing written\n"),
    )
}

/// A streamed input went on past the `--from` layout's size.
fn long_input(name: &str, from: &str, want: u64) -> Failure {
    fail(
        EXIT_INVALID,
        format!("error: {name} has more bytes than {from} takes ({want}); nothing written\n"),
    )
}

/// `text` as an array shape, or its caret diagnostic.
fn parse_shape(text: &str) -> Result<ArrayShape, Failure> {
    parse_array(text).map_err(|e| fail(EXIT_INVALID, render_error(text, &e)))
}

/// `true` for a path whose name ends in `.npy` (any case).
fn is_npy(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("npy"))
}

/// The NumPy type string of an element type, where NumPy has one.
pub fn numpy_descr(t: ElementType) -> Option<&'static str> {
    Some(match t {
        ElementType::Pred => "|b1",
        ElementType::S8 => "|i1",
        ElementType::S16 => "<i2",
        ElementType::S32 => "<i4",
        ElementType::S64 => "<i8",
        ElementType::U8 => "|u1",
        ElementType::U16 => "<u2",
        ElementType::U32 => "<u4",
        ElementType::U64 => "<u8",
        ElementType::F16 => "<f2",
        ElementType::F32 => "<f4",
        ElementType::F64 => "<f8",
        ElementType::C64 => "<c8",
        ElementType::C128 => "<c16",
        _ => return None,
    })
}

/// The type string for an element type NumPy has no dtype for, where the
/// type is stored in whole bytes: `|V2` for `bf16`, `|V1` for the `f8` and
/// `f4` types and the sub-byte integers (one per byte when unpacked).
/// NumPy reads these as raw bytes (`np.load(f).view(ml_dtypes.bfloat16)`
/// gives the values back); ml_dtypes' own `np.save` writes them as `<V2`
/// and `<V1`, which an input may also have.
pub fn raw_descr(t: ElementType) -> Option<&'static str> {
    match t {
        _ if numpy_descr(t).is_some() => None,
        ElementType::Bf16 => Some("|V2"),
        _ if (1..=8).contains(&t.bit_width()) => Some("|V1"),
        _ => None,
    }
}

/// The bits of one element stored unpacked, in whole bytes (`pred` and
/// the sub-byte types in one byte each): how an `.npy` file holds it.
fn unpacked_bits(t: ElementType) -> u64 {
    u64::from(t.bit_width()).div_ceil(8) * 8
}

/// The order of a dense layout: `Some(false)` row-major (C order),
/// `Some(true)` column-major (Fortran order), `None` otherwise (tiles,
/// padding, a packed or widened element, any other `minor_to_major`).
/// Rank 0 and 1 are row-major.
pub fn dense_order(s: &ArrayShape) -> Option<bool> {
    let layout = s.layout();
    if !layout.is_untiled() || s.legacy_padding().is_some() {
        return None;
    }
    let bits = s.element_size_in_bits();
    if bits == 0 || bits != unpacked_bits(s.element_type()) {
        return None;
    }
    // Dense: the buffer is exactly the elements, nothing between or after.
    let dense = s.element_count().ok().and_then(|n| n.checked_mul(bits / 8));
    if dense.is_none() || s.size_in_bytes().ok() != dense {
        return None;
    }
    if layout.is_descending() {
        Some(false)
    } else if layout.is_ascending() {
        Some(true)
    } else {
        None
    }
}

/// The `.npy` header of an array in layout `s` (given as `text`, the
/// `flag`'s value), or why it has none.
fn dense_header(s: &ArrayShape, flag: &str, text: &str) -> Result<npy::Header, Failure> {
    let t = s.element_type();
    let layout = s.layout();
    let descr = numpy_descr(t).or(raw_descr(t)).ok_or_else(|| {
        fail(
            EXIT_INVALID,
            format!(
                "error: {} has no NumPy dtype, so {flag} {text} has no .npy form; use a raw file (a name not ending in .npy)\n",
                t.name()
            ),
        )
    })?;
    let (bits, natural) = (s.element_size_in_bits(), unpacked_bits(t));
    if layout.is_untiled() && bits != natural {
        return Err(fail(
            EXIT_INVALID,
            format!(
                "error: an .npy file holds {} in {natural} bits each, but {flag} {text} stores it in {bits} bits; as NumPy stores it: {}\n",
                t.name(),
                dense_example(s, false)
            ),
        ));
    }
    let fortran_order = dense_order(s).ok_or_else(|| {
        fail(
            EXIT_INVALID,
            format!(
                "error: an .npy file holds a row-major array; {flag} must be row-major, e.g. {}, not {text}\n",
                dense_example(s, false)
            ),
        )
    })?;
    let mut shape = Vec::with_capacity(s.rank());
    for d in s.dims() {
        // Parsed shapes used by a plan have no `?` dims.
        shape.push(d.layout_size().unwrap_or(0));
    }
    Ok(npy::Header {
        descr: descr.to_string(),
        fortran_order,
        shape,
    })
}

/// `s` with its dims and a dense layout, e.g. `f32[4,5]{1,0}` (row-major)
/// or `f32[4,5]{0,1}` (column-major).
fn dense_example(s: &ArrayShape, column_major: bool) -> String {
    let dims: Vec<String> = s
        .dims()
        .iter()
        .map(|d| d.layout_size().map_or("?".to_string(), |n| n.to_string()))
        .collect();
    let mut m2m: Vec<String> = (0..s.rank()).map(|d| d.to_string()).collect();
    if !column_major {
        m2m.reverse();
    }
    format!(
        "{}[{}]{{{}}}",
        s.element_type().name(),
        dims.join(","),
        m2m.join(",")
    )
}

/// Refuses an input `.npy` header that does not describe `expected`.
fn check_npy_input(
    header: &npy::Header,
    expected: &npy::Header,
    src: &ArrayShape,
    from: &str,
    input: &str,
) -> Result<(), Failure> {
    let mismatch = |what: String| {
        Err(fail(
            EXIT_INVALID,
            format!("error: {input} {what}; nothing written\n"),
        ))
    };
    let t = src.element_type();
    // ml_dtypes saves `float8_e5m2` arrays with the type string `<f1`.
    let alias = t == ElementType::F8e5m2 && matches!(header.descr.as_str(), "<f1" | "|f1");
    if !same_dtype(&header.descr, &expected.descr) && !alias {
        let why = if raw_descr(t).is_some() {
            format!(
                " ({} as raw {}-byte values, as ml_dtypes saves it)",
                t.name(),
                expected.descr.get(2..).unwrap_or("")
            )
        } else if header.descr.starts_with('>') {
            " (big-endian data: byte-swap it first)".to_string()
        } else {
            String::new()
        };
        return mismatch(format!(
            "has dtype '{}' but --from {from} is '{}'{why}",
            header.descr, expected.descr,
        ));
    }
    if header.shape != expected.shape {
        return mismatch(format!(
            "has shape {:?} but --from {from} has dims {:?}",
            header.shape, expected.shape
        ));
    }
    // Below rank 2 both orders are the same bytes.
    if expected.shape.len() > 1 && header.fortran_order != expected.fortran_order {
        return mismatch(if header.fortran_order {
            format!(
                "is in Fortran (column-major) order but --from {from} is row-major; give --from the column-major layout, e.g. {}",
                dense_example(src, true)
            )
        } else {
            format!(
                "holds a row-major array; --from must be row-major, e.g. {}, not {from}",
                dense_example(src, false)
            )
        });
    }
    Ok(())
}

/// `true` when a file's type string `got` is the type `want`: exactly, or
/// for one-byte types and raw bytes (`V2`) with any byte-order mark.
fn same_dtype(got: &str, want: &str) -> bool {
    if got == want {
        return true;
    }
    let any_order = |s: &str| (s.len() == 3 && s.ends_with('1')) || s.get(1..2) == Some("V");
    any_order(got)
        && any_order(want)
        && got.get(1..) == want.get(1..)
        && got.starts_with(['<', '>', '|', '='])
}

/// Fills `buf` from `r` (which must have that many bytes).
fn read_into(r: &mut impl Read, buf: &mut [u8], bar: &ProgressBar) -> io::Result<()> {
    for chunk in buf.chunks_mut(CHUNK) {
        r.read_exact(chunk)?;
        bar.inc(chunk.len() as u64);
    }
    Ok(())
}

/// Why writing OUTPUT stopped: the copy refused the buffers, or a write
/// failed.
enum Stream {
    Copy(layout_core::Error),
    Io(io::Error),
}

impl From<layout_core::Error> for Stream {
    fn from(e: layout_core::Error) -> Stream {
        Stream::Copy(e)
    }
}

impl From<io::Error> for Stream {
    fn from(e: io::Error) -> Stream {
        Stream::Io(e)
    }
}

/// A bar over the bytes read and written, on a terminal for big inputs;
/// hidden otherwise.
fn progress_bar(source: u64, destination: u64) -> ProgressBar {
    if source <= PROGRESS_THRESHOLD || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let total = source.saturating_add(destination);
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{msg:9} [{bar:40}] {bytes}/{total_bytes} ({eta})")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(s: &str) -> ArrayShape {
        parse_array(s).unwrap()
    }

    #[test]
    fn dense_orders() {
        assert_eq!(dense_order(&shape("f32[4,5]{1,0}")), Some(false));
        assert_eq!(dense_order(&shape("f32[4,5]{0,1}")), Some(true));
        assert_eq!(dense_order(&shape("f32[4,5,6]{2,0,1}")), None);
        assert_eq!(dense_order(&shape("f32[8,128]{1,0:T(8,128)}")), None);
        assert_eq!(dense_order(&shape("f32[3]{0}")), Some(false));
        assert_eq!(dense_order(&shape("f32[]")), Some(false));
        assert_eq!(dense_order(&shape("s4[4]{0:E(4)}")), None);
        assert_eq!(dense_order(&shape("s4[4]{0}")), Some(false));
        assert_eq!(dense_order(&shape("pred[4,2]{0,1}")), Some(true));
        assert_eq!(dense_order(&shape("f32[4]{0:E(16)}")), None);
    }

    #[test]
    fn one_byte_types_ignore_the_byte_order_mark() {
        assert!(same_dtype("<f4", "<f4"));
        assert!(!same_dtype(">f4", "<f4"));
        assert!(!same_dtype("<i4", "<f4"));
        assert!(same_dtype("<u1", "|u1"));
        assert!(same_dtype("|b1", "|b1"));
        assert!(!same_dtype("|u1", "|i1"));
        assert!(!same_dtype("|b1", "|u1"));
    }

    #[test]
    fn dense_examples() {
        assert_eq!(
            dense_example(&shape("f32[4,5]{0,1}"), false),
            "f32[4,5]{1,0}"
        );
        assert_eq!(
            dense_example(&shape("bf16[2,3,4]"), false),
            "bf16[2,3,4]{2,1,0}"
        );
        assert_eq!(
            dense_example(&shape("f32[4,5,6]{1,0,2:T(2,2)}"), true),
            "f32[4,5,6]{0,1,2}"
        );
    }
}
