//! The modules of the `layout` tool, as a library for its binary
//! (`src/main.rs`), its tests and the fuzz targets in `fuzz/`. Not a stable
//! API: it follows the tool and is not documented on its own.
//!
//! The commands: [`machine`] (`check`, `offsets`), [`explain`], [`draw`],
//! [`relayout`] (which reads and writes `.npy` headers with [`npy`]),
//! [`oom`] (the TPU compiler's out-of-memory report) and [`scan`], which reads HLO with [`hlo`], evaluates it with [`report`] and
//! writes it with [`render`], and reads a dump directory's buffer
//! assignments with [`dump`]. All of them format numbers
//! with [`format`] and write through [`output`]; [`people`] renders errors
//! (a caret under the offending text) and memory-space names. Files the
//! user names as an output are written with [`outfile`] (which keeps their
//! kind, mode and owner, and whose temporary files [`cleanup`] removes on
//! a signal); every command exits with a status from [`exit`].

#![forbid(unsafe_code)]

pub mod cleanup;
pub mod draw;
pub mod dump;
pub mod exit;
pub mod explain;
pub mod format;
pub mod hlo;
pub mod machine;
pub mod npy;
pub mod oom;
pub mod outfile;
pub mod output;
pub mod people;
pub mod relayout;
pub mod render;
pub mod report;
pub mod scan;
