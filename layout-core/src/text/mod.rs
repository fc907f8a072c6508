//! Layer 2, text: the lexer, the parser (text -> unchecked model data) and
//! the printer (model data -> XLA's canonical text).
//!
//! May use: [`base`](crate::base), [`model`](crate::model).

pub(crate) mod lex;
pub(crate) mod parse;
pub(crate) mod print;
