//! The lexer: XLA's token rules for shapes and layouts (see
//! `docs/grammar.md`), as a `const fn` over bytes. Whitespace and `/* */`,
//! `//` comments are skipped between tokens.

use crate::base::error::{Error, ErrorKind, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    LParen,
    RParen,
    Comma,
    Colon,
    Star,
    Hash,
    Plus,
    Tilde,
    Question,
    LessEq,
    Int,
    Ident,
    Eof,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub start: usize,
    pub end: usize,
    /// The value of an `Int` token.
    pub int: i64,
}

impl Token {
    pub const fn span(&self) -> Span {
        Span::new(self.start, self.end)
    }

    pub const fn is(&self, tok: Tok) -> bool {
        self.tok as u8 == tok as u8
    }
}

const fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

const fn is_ident_continue(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'-'
}

/// Skips whitespace and comments from `pos`; returns the next significant
/// position.
const fn skip_trivia(src: &[u8], mut pos: usize) -> Result<usize, Error> {
    loop {
        if pos >= src.len() {
            return Ok(pos);
        }
        let c = src[pos];
        if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' {
            pos += 1;
        } else if c == b'/' && pos + 1 < src.len() && src[pos + 1] == b'*' {
            let start = pos;
            pos += 2;
            loop {
                if pos + 1 >= src.len() {
                    return Err(Error::new(
                        ErrorKind::UnterminatedComment,
                        Span::new(start, src.len()),
                        [0; 3],
                    ));
                }
                if src[pos] == b'*' && src[pos + 1] == b'/' {
                    pos += 2;
                    break;
                }
                // XLA's lexer refuses a NUL byte anywhere, comments included.
                if src[pos] == 0 {
                    return Err(Error::new(
                        ErrorKind::InvalidCharacter,
                        Span::new(pos, pos + 1),
                        [0; 3],
                    ));
                }
                pos += 1;
            }
        } else if c == b'/' && pos + 1 < src.len() && src[pos + 1] == b'/' {
            while pos < src.len() && src[pos] != b'\n' {
                if src[pos] == 0 {
                    return Err(Error::new(
                        ErrorKind::InvalidCharacter,
                        Span::new(pos, pos + 1),
                        [0; 3],
                    ));
                }
                pos += 1;
            }
        } else {
            return Ok(pos);
        }
    }
}

const fn single(tok: Tok, start: usize, len: usize) -> Token {
    Token {
        tok,
        start,
        end: start + len,
        int: 0,
    }
}

/// The token starting at or after `pos`.
pub(crate) const fn next_token(src: &[u8], pos: usize) -> Result<Token, Error> {
    let start = match skip_trivia(src, pos) {
        Ok(p) => p,
        Err(e) => return Err(e),
    };
    if start >= src.len() {
        return Ok(single(Tok::Eof, src.len(), 0));
    }
    let c = src[start];
    let tok = match c {
        b'[' => Tok::LBracket,
        b']' => Tok::RBracket,
        b'{' => Tok::LBrace,
        b'}' => Tok::RBrace,
        b'(' => Tok::LParen,
        b')' => Tok::RParen,
        b',' => Tok::Comma,
        b':' => Tok::Colon,
        b'*' => Tok::Star,
        b'#' => Tok::Hash,
        b'+' => Tok::Plus,
        b'~' => Tok::Tilde,
        b'?' => Tok::Question,
        b'<' => {
            if start + 1 < src.len() && src[start + 1] == b'=' {
                return Ok(single(Tok::LessEq, start, 2));
            }
            return Err(Error::new(
                ErrorKind::InvalidCharacter,
                Span::new(start, start + 1),
                [0; 3],
            ));
        }
        b'-' | b'0'..=b'9' => return lex_int(src, start),
        _ => {
            if is_ident_start(c) {
                let mut end = start + 1;
                while end < src.len() && is_ident_continue(src[end]) {
                    end += 1;
                }
                return Ok(Token {
                    tok: Tok::Ident,
                    start,
                    end,
                    int: 0,
                });
            }
            // Point at the whole UTF-8 character so spans stay on char
            // boundaries.
            let mut end = start + 1;
            while end < src.len() && (src[end] & 0xC0) == 0x80 {
                end += 1;
            }
            return Err(Error::new(
                ErrorKind::InvalidCharacter,
                Span::new(start, end),
                [0; 3],
            ));
        }
    };
    Ok(single(tok, start, 1))
}

/// `-?[0-9]+`, as an `i64`. Values outside `i64` are an error (XLA wraps
/// `2^63..2^64` around to negative numbers; we refuse).
const fn lex_int(src: &[u8], start: usize) -> Result<Token, Error> {
    let mut pos = start;
    let negative = src[pos] == b'-';
    if negative {
        pos += 1;
    }
    let digits_start = pos;
    // Magnitude up to 2^63 (for i64::MIN) fits in u64; keep going past
    // overflow to find the end of the literal for the span.
    let mut value: u64 = 0;
    let mut overflow = false;
    while pos < src.len() && src[pos].is_ascii_digit() {
        let d = (src[pos] - b'0') as u64;
        match value.checked_mul(10) {
            Some(v) => match v.checked_add(d) {
                Some(v) => value = v,
                None => overflow = true,
            },
            None => overflow = true,
        }
        pos += 1;
    }
    if pos == digits_start {
        return Err(Error::new(
            ErrorKind::InvalidCharacter,
            Span::new(start, start + 1),
            [0; 3],
        ));
    }
    let limit: u64 = if negative { 1 << 63 } else { i64::MAX as u64 };
    if overflow || value > limit {
        return Err(Error::new(
            ErrorKind::IntegerOutOfRange,
            Span::new(start, pos),
            [0; 3],
        ));
    }
    let int = if negative {
        (value as i64).wrapping_neg()
    } else {
        value as i64
    };
    Ok(Token {
        tok: Tok::Int,
        start,
        end: pos,
        int,
    })
}
