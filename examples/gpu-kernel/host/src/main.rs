//! Loads the gpu-kernel example's PTX on CUDA device 0, runs
//! `rows_to_tiled` and then `tiled_to_rows` on the 64x256 matrix, and
//! compares both outputs, element by element, with the CPU reference of
//! the same `layout!` items. Usage: `layout-gpu-kernel-host [PTX-FILE]`.
//!
//! Exit status: 0 both outputs match; 1 an output differs (the first
//! differing offset is printed); 2 an error (usage, the PTX file, a CUDA
//! call); 77 skipped: no CUDA driver library or no CUDA device (the CPU
//! reference and the PTX file were still checked).
//!
//! `unsafe` is denied except in two places cudarc requires it, each with a
//! `// SAFETY:` comment: probing for the driver library (loading a shared
//! library runs its initialisers) and launching a kernel (cudarc cannot
//! check a kernel's parameters).
#![deny(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use cudarc::driver::{
    sys, CudaContext, CudaFunction, CudaSlice, CudaStream, DriverError, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::Ptx;
use layout_gpu_kernel_host::{
    first_mismatch, input, rows_to_tiled, tiled_to_rows, BLOCK_THREADS, ELEMENTS, GRID_BLOCKS,
};

/// The `--help` text (also printed after a usage error).
const USAGE: &str = "usage: layout-gpu-kernel-host [PTX-FILE]\n\
    Runs the gpu-kernel example's kernels from PTX-FILE (default: the newest\n\
    target/nvptx64-nvidia-cuda/release/deps/layout_gpu_kernel_example-*.s of\n\
    the example) on CUDA device 0 and compares them with the CPU.\n\
    Exit status: 0 match, 1 mismatch, 2 error, 77 skipped (no CUDA driver/device).";

/// Exit status of a skipped run (the automake convention for "skipped").
const SKIPPED: u8 = 77;

/// The kernels' entry points, as `#[no_mangle]` names them in the PTX.
const KERNELS: [&str; 2] = ["rows_to_tiled", "tiled_to_rows"];

/// Why the run stopped before comparing.
enum Stop {
    /// `-h` or `--help`: print the usage, exit 0.
    Help,
    /// No driver or no device: nothing to run on.
    Skip(String),
    /// Anything else; the message says what failed.
    Error(String),
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => {
            println!("both kernels match the CPU reference ({ELEMENTS} elements each)");
            ExitCode::SUCCESS
        }
        Ok(false) => ExitCode::FAILURE,
        Err(Stop::Help) => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Err(Stop::Skip(why)) => {
            println!("no CUDA driver/device found: skipped ({why})");
            ExitCode::from(SKIPPED)
        }
        Err(Stop::Error(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// `Ok(true)` if both kernels' outputs match the CPU, `Ok(false)` after
/// printing the first mismatch.
fn run() -> Result<bool, Stop> {
    let path = ptx_path()?;

    // The CPU reference first: it needs no GPU.
    let rows = input();
    let tiled = rows_to_tiled(&rows).map_err(Stop::Error)?;
    let back = tiled_to_rows(&tiled).map_err(Stop::Error)?;
    if let Some(m) = first_mismatch(&rows, &back) {
        return Err(Stop::Error(format!(
            "the CPU reference does not round-trip at offset {}",
            m.offset
        )));
    }

    let ptx = read_ptx(&path)?;
    println!("PTX: {}", path.display());

    let stream = open_device()?;
    let (gpu_tiled, gpu_back) =
        run_kernels(&stream, ptx, &rows).map_err(|e| Stop::Error(format!("CUDA: {e}")))?;

    let mut ok = true;
    for (kernel, expected, actual) in [
        (KERNELS[0], &tiled, &gpu_tiled),
        (KERNELS[1], &rows, &gpu_back),
    ] {
        match first_mismatch(expected, actual) {
            None => println!("{kernel}: {ELEMENTS} elements match"),
            Some(m) => {
                println!(
                    "{kernel}: first mismatch at offset {}: expected {}, GPU wrote {}",
                    m.offset,
                    show(m.expected),
                    show(m.actual)
                );
                ok = false;
            }
        }
    }
    Ok(ok)
}

fn show(value: Option<f32>) -> String {
    value.map_or_else(|| "nothing (buffer ended)".to_owned(), |v| v.to_string())
}

/// The PTX file: the one argument, or else the newest kernel build in this
/// example's target directory.
fn ptx_path() -> Result<PathBuf, Stop> {
    let mut args = std::env::args_os().skip(1);
    match (args.next(), args.next()) {
        (Some(arg), None) if arg == "-h" || arg == "--help" => Err(Stop::Help),
        (Some(arg), None) => Ok(PathBuf::from(arg)),
        (None, _) => newest_build(),
        (Some(_), Some(_)) => Err(Stop::Error(format!(
            "expected at most one argument, the PTX file\n{USAGE}"
        ))),
    }
}

fn newest_build() -> Result<PathBuf, Stop> {
    // The example's directory: the parent of this crate's.
    let example = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new(".."));
    let dir = example.join("target/nvptx64-nvidia-cuda/release/deps");
    let not_built = |detail: String| {
        Stop::Error(format!(
            "no PTX in {} ({detail}); build it first (see examples/gpu-kernel/README.md) \
             or pass its path",
            dir.display()
        ))
    };
    let entries = std::fs::read_dir(&dir).map_err(|e| not_built(e.to_string()))?;
    let mut newest = None;
    for entry in entries {
        let entry = entry.map_err(|e| not_built(e.to_string()))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with("layout_gpu_kernel_example-") && name.ends_with(".s")) {
            continue;
        }
        let modified = entry
            .metadata()
            .and_then(|m| m.modified())
            .map_err(|e| not_built(e.to_string()))?;
        if newest.as_ref().is_none_or(|(time, _)| modified > *time) {
            newest = Some((modified, entry.path()));
        }
    }
    newest
        .map(|(_, path)| path)
        .ok_or_else(|| not_built("no layout_gpu_kernel_example-*.s".to_owned()))
}

/// The PTX text, checked to declare both kernels (and to have no NUL byte,
/// which the driver's C string API cannot take).
fn read_ptx(path: &Path) -> Result<String, Stop> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Stop::Error(format!("cannot read {}: {e}", path.display())))?;
    if text.contains('\0') {
        return Err(Stop::Error(format!("{} has a NUL byte", path.display())));
    }
    for kernel in KERNELS {
        let entry = format!(".entry {kernel}(");
        if !text.lines().any(|line| line.contains(&entry)) {
            return Err(Stop::Error(format!(
                "{} has no `{entry}`: not the example's PTX?",
                path.display()
            )));
        }
    }
    Ok(text)
}

/// Device 0's default stream, or [`Stop::Skip`] when there is no driver
/// library or no device.
fn open_device() -> Result<Arc<CudaStream>, Stop> {
    // Checked first: every cudarc driver call would otherwise load the
    // library on first use and panic if it is missing.
    #[allow(unsafe_code)]
    // SAFETY: cudarc marks this unsafe because it tries to load the CUDA
    // driver library (`libcuda`), which runs the library's initialisers; the
    // library is NVIDIA's driver, loaded as any CUDA program loads it.
    let present = unsafe { sys::is_culib_present() };
    if !present {
        return Err(Stop::Skip(
            "the CUDA driver library (libcuda) is not installed or not on the library path"
                .to_owned(),
        ));
    }
    let no_device = |e: &DriverError| {
        matches!(
            e.0,
            sys::CUresult::CUDA_ERROR_NO_DEVICE | sys::CUresult::CUDA_ERROR_INVALID_DEVICE
        )
    };
    match CudaContext::device_count() {
        Ok(0) => return Err(Stop::Skip("the driver reports no device".to_owned())),
        Ok(_) => {}
        Err(e) if no_device(&e) => return Err(Stop::Skip(format!("{e}"))),
        Err(e) => return Err(Stop::Error(format!("CUDA driver: {e}"))),
    }
    let context = CudaContext::new(0).map_err(|e| Stop::Error(format!("CUDA device 0: {e}")))?;
    let name = context.name().unwrap_or_else(|e| format!("(no name: {e})"));
    println!("device 0: {name}");
    Ok(context.default_stream())
}

/// Uploads `rows`, runs `rows_to_tiled` into a second buffer and
/// `tiled_to_rows` from it into a third, and downloads both outputs.
fn run_kernels(
    stream: &Arc<CudaStream>,
    ptx: String,
    rows: &[f32],
) -> Result<(Vec<f32>, Vec<f32>), DriverError> {
    let module = stream.context().load_module(Ptx::from_src(ptx))?;
    let to_tiled = module.load_function(KERNELS[0])?;
    let to_rows = module.load_function(KERNELS[1])?;
    let config = LaunchConfig {
        grid_dim: (GRID_BLOCKS, 1, 1),
        block_dim: (BLOCK_THREADS, 1, 1),
        shared_mem_bytes: 0,
    };

    let src = stream.clone_htod(rows)?;
    let mut tiled = stream.alloc_zeros::<f32>(ELEMENTS)?;
    let mut back = stream.alloc_zeros::<f32>(ELEMENTS)?;
    launch(stream, &to_tiled, config, &src, &mut tiled)?;
    launch(stream, &to_rows, config, &tiled, &mut back)?;

    let gpu_tiled = stream.clone_dtoh(&tiled)?;
    let gpu_back = stream.clone_dtoh(&back)?;
    // Also reports a fault inside a kernel (launches are asynchronous).
    stream.synchronize()?;
    Ok((gpu_tiled, gpu_back))
}

/// One launch of a kernel `(src: *const f32, dst: *mut f32)` over
/// `ELEMENTS` threads.
fn launch(
    stream: &Arc<CudaStream>,
    kernel: &CudaFunction,
    config: LaunchConfig,
    src: &CudaSlice<f32>,
    dst: &mut CudaSlice<f32>,
) -> Result<(), DriverError> {
    if src.len() != ELEMENTS || dst.len() != ELEMENTS {
        return Err(DriverError(sys::CUresult::CUDA_ERROR_INVALID_VALUE));
    }
    let mut args = stream.launch_builder(kernel);
    args.arg(src).arg(dst);
    #[allow(unsafe_code)]
    // SAFETY: both kernels of the example take exactly two parameters, a
    // `*const f32` and a `*mut f32` (the two device pointers pushed above),
    // and with this launch's GRID_BLOCKS * BLOCK_THREADS >= ELEMENTS threads
    // (tested in the library) they access only offsets below ELEMENTS of
    // each; both buffers hold ELEMENTS f32s (checked above) and are distinct
    // allocations, as the kernels require. cudarc orders the launch after
    // earlier work on the buffers and keeps them alive until it finishes.
    let launched = unsafe { args.launch(config) };
    launched.map(|_events| ())
}
