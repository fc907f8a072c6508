//! Reading HLO text dumps: where the shapes are and what holds them.
//!
//! - [`lex`]: byte-level recognisers (trivia, strings, names, shapes);
//! - [`walk`]: modules, computations and instructions, told to a
//!   [`walk::Sink`] as records of byte spans.
//!
//! Shapes are found, not parsed: what a shape's text means is up to the
//! report model (`crate::report`), which hands it to [`layout_core::parse`].
//!
//! Uses: nothing else in the crate.

pub mod lex;
pub mod walk;

pub use lex::{Shapes, Span};
pub use walk::{walk, Callee, CompRec, InstrRec, ModuleRec, Sink, CALL_ATTRIBUTES};
