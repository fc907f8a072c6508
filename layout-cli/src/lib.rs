//! The modules of the `layout` tool, as a library for its binary
//! (`src/main.rs`), its tests and the fuzz targets in `fuzz/`. Not a stable
//! API: it follows the tool and is not documented on its own.
//!
//! The commands: [`machine`] (`check`, `offsets`), [`explain`], [`draw`],
//! [`relayout`] (which reads and writes `.npy` headers with [`npy`]),
//! [`oom`] (the TPU compiler's out-of-memory report) and [`scan`], which reads HLO with [`hlo`], evaluates it with [`report`] and
//! writes it with [`render`]. All of them format numbers
//! with [`format`] and write through [`output`]; [`people`] renders errors
//! (a caret under the offending text) and memory-space names.

#![forbid(unsafe_code)]

pub mod draw;
pub mod explain;
pub mod format;
pub mod hlo;
pub mod machine;
pub mod npy;
pub mod oom;
pub mod output;
pub mod people;
pub mod relayout;
pub mod render;
pub mod report;
pub mod scan;
