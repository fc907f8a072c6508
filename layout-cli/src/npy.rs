//! The header of NumPy's `.npy` files, read and written for
//! [`crate::relayout`]: the magic string, the format version, and the
//! header dict `{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }`.
//!
//! Only what `numpy.save` writes for a plain array is read: a dict of the
//! three keys whose `descr` is a type string (structured dtypes, lists of
//! fields, are refused). Every length and number is checked: a header of
//! any bytes gives a [`Header`] or an error, never a panic, and at most
//! [`MAX_HEADER_LEN`] bytes are read for it. The data after the header is
//! the caller's to read.
//!
//! Written headers are version 1.0 (2.0 only if the dict were longer than
//! 65535 bytes), padded with spaces to a 64-byte boundary as NumPy does.
//!
//! Uses: nothing else in the crate.

use std::fmt;
use std::io::{self, Read};

/// The first bytes of every `.npy` file.
pub const MAGIC: &[u8; 6] = b"\x93NUMPY";

/// The longest header dict read, in bytes (NumPy itself refuses headers
/// over 10000 bytes unless told otherwise).
pub const MAX_HEADER_LEN: usize = 1 << 20;

/// The data starts at a multiple of this many bytes.
const ALIGN: usize = 64;

/// What an `.npy` header says about the array after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The dtype's type string, e.g. `<f4` or `|b1`.
    pub descr: String,
    /// `true` when the data is column-major (Fortran order).
    pub fortran_order: bool,
    /// The dimensions, most major first in C order.
    pub shape: Vec<u64>,
}

/// Why a header could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The reader failed (a file shorter than its header is an
    /// [`io::ErrorKind::UnexpectedEof`]).
    Io(io::Error),
    /// The bytes are not an `.npy` header this module reads.
    Format(String),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                f.write_str("the file ends inside its .npy header")
            }
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Format(m) => f.write_str(m),
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::Io(e)
    }
}

fn format_error(message: impl Into<String>) -> ReadError {
    ReadError::Format(message.into())
}

/// Reads the header from the start of `r`, leaving `r` at the first data
/// byte; returns the header and the data's offset in the file.
pub fn read_header<R: Read>(r: &mut R) -> Result<(Header, u64), ReadError> {
    let mut start = [0u8; 8];
    r.read_exact(&mut start)?;
    if start[..6] != MAGIC[..] {
        return Err(format_error(
            "not an .npy file (it does not start with \\x93NUMPY)",
        ));
    }
    let (major, minor) = (start[6], start[7]);
    let (len, prefix) = match major {
        1 => {
            let mut n = [0u8; 2];
            r.read_exact(&mut n)?;
            (u64::from(u16::from_le_bytes(n)), 10u64)
        }
        2 | 3 => {
            let mut n = [0u8; 4];
            r.read_exact(&mut n)?;
            (u64::from(u32::from_le_bytes(n)), 12u64)
        }
        _ => {
            return Err(format_error(format!(
                "unsupported .npy format version {major}.{minor}"
            )))
        }
    };
    let len = usize::try_from(len)
        .ok()
        .filter(|n| *n <= MAX_HEADER_LEN)
        .ok_or_else(|| {
            format_error(format!(
                "the .npy header is {len} bytes long, more than the {MAX_HEADER_LEN} read"
            ))
        })?;
    let mut text = vec![0u8; len];
    r.read_exact(&mut text)?;
    let header = parse_dict(&text)?;
    // `len` is at most MAX_HEADER_LEN: no overflow.
    Ok((header, prefix + len as u64))
}

/// Parses the header dict (the bytes after the length field).
pub fn parse_dict(text: &[u8]) -> Result<Header, ReadError> {
    let text = std::str::from_utf8(text)
        .map_err(|_| format_error("the .npy header is not text (UTF-8)"))?;
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let mut descr = None;
    let mut fortran_order = None;
    let mut shape = None;
    p.skip_space();
    p.expect(b'{', "'{' opening the header dict")?;
    loop {
        p.skip_space();
        if p.eat(b'}') {
            break;
        }
        let key = p.string()?;
        p.skip_space();
        p.expect(b':', "':' after a key")?;
        p.skip_space();
        let duplicate = match key.as_str() {
            "descr" => {
                if p.peek() != Some(b'\'') && p.peek() != Some(b'"') {
                    return Err(format_error(
                        "the .npy dtype is not a plain type string (structured dtypes are not supported)",
                    ));
                }
                descr.replace(p.string()?).is_some()
            }
            "fortran_order" => fortran_order.replace(p.boolean()?).is_some(),
            "shape" => shape.replace(p.tuple()?).is_some(),
            other => {
                return Err(format_error(format!(
                    "unknown key '{other}' in the .npy header"
                )))
            }
        };
        if duplicate {
            return Err(format_error(format!(
                "key '{key}' appears twice in the .npy header"
            )));
        }
        p.skip_space();
        if p.eat(b',') {
            continue;
        }
        p.expect(b'}', "',' or '}' after a value")?;
        break;
    }
    p.skip_space();
    if p.i != p.s.len() {
        return Err(format_error("text after the .npy header dict"));
    }
    let missing = |k: &str| format_error(format!("the .npy header has no '{k}'"));
    Ok(Header {
        descr: descr.ok_or_else(|| missing("descr"))?,
        fortran_order: fortran_order.ok_or_else(|| missing("fortran_order"))?,
        shape: shape.ok_or_else(|| missing("shape"))?,
    })
}

/// A cursor over the header text.
struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, b: u8, what: &str) -> Result<(), ReadError> {
        if self.eat(b) {
            Ok(())
        } else {
            Err(self.unexpected(what))
        }
    }

    fn unexpected(&self, what: &str) -> ReadError {
        format_error(format!(
            "malformed .npy header: expected {what} at byte {}",
            self.i
        ))
    }

    /// A quoted string of printable ASCII without quotes or backslashes
    /// (type strings and keys have none), so that it is written back the
    /// same in single quotes.
    fn string(&mut self) -> Result<String, ReadError> {
        let quote = match self.peek() {
            Some(q @ (b'\'' | b'"')) => q,
            _ => return Err(self.unexpected("a quoted string")),
        };
        self.i += 1;
        let start = self.i;
        while let Some(b) = self.peek() {
            if b == quote {
                let s = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
                self.i += 1;
                return Ok(s);
            }
            if !(b' '..=b'~').contains(&b) || matches!(b, b'\\' | b'\'' | b'"') {
                break;
            }
            self.i += 1;
        }
        Err(self.unexpected("the end of the string"))
    }

    fn boolean(&mut self) -> Result<bool, ReadError> {
        let rest = &self.s[self.i..];
        if rest.starts_with(b"True") {
            self.i += 4;
            Ok(true)
        } else if rest.starts_with(b"False") {
            self.i += 5;
            Ok(false)
        } else {
            Err(self.unexpected("True or False"))
        }
    }

    /// A non-negative integer (Python 2's `3L` too).
    fn integer(&mut self) -> Result<u64, ReadError> {
        let start = self.i;
        let mut n: u64 = 0;
        while let Some(b @ b'0'..=b'9') = self.peek() {
            n = n
                .checked_mul(10)
                .and_then(|n| n.checked_add(u64::from(b - b'0')))
                .ok_or_else(|| format_error("a dimension of the .npy shape is too large"))?;
            self.i += 1;
        }
        if self.i == start {
            return Err(self.unexpected("a dimension size"));
        }
        self.eat(b'L');
        Ok(n)
    }

    /// `()`, `(3,)`, `(3, 4)`, `(3, 4,)`.
    fn tuple(&mut self) -> Result<Vec<u64>, ReadError> {
        self.expect(b'(', "'(' opening the shape")?;
        let mut dims = Vec::new();
        loop {
            self.skip_space();
            if self.eat(b')') {
                return Ok(dims);
            }
            if dims.len() >= 64 {
                return Err(format_error("the .npy shape has too many dimensions"));
            }
            dims.push(self.integer()?);
            self.skip_space();
            if self.eat(b',') {
                continue;
            }
            self.expect(b')', "',' or ')' in the shape")?;
            return Ok(dims);
        }
    }
}

/// The whole header for `h`: magic, version, length, padded dict.
pub fn header_bytes(h: &Header) -> Vec<u8> {
    let shape = match h.shape.as_slice() {
        [] => "()".to_string(),
        [n] => format!("({n},)"),
        dims => {
            let parts: Vec<String> = dims.iter().map(u64::to_string).collect();
            format!("({})", parts.join(", "))
        }
    };
    let order = if h.fortran_order { "True" } else { "False" };
    let mut dict = format!(
        "{{'descr': '{}', 'fortran_order': {order}, 'shape': {shape}, }}",
        h.descr
    )
    .into_bytes();
    // Version 1.0 has a 2-byte length; 2.0 a 4-byte one.
    let fits_v1 = dict.len() + ALIGN + 10 <= usize::from(u16::MAX);
    let prefix = if fits_v1 { 10 } else { 12 };
    // Spaces, then a newline, so that prefix + dict ends on a boundary.
    let used = prefix + dict.len() + 1;
    let pad = (ALIGN - used % ALIGN) % ALIGN;
    dict.resize(dict.len() + pad, b' ');
    dict.push(b'\n');
    let mut out = Vec::with_capacity(prefix + dict.len());
    out.extend_from_slice(MAGIC);
    if fits_v1 {
        out.extend_from_slice(&[1, 0]);
        // Checked above: dict.len() fits in a u16.
        out.extend_from_slice(&u16::try_from(dict.len()).unwrap_or(u16::MAX).to_le_bytes());
    } else {
        out.extend_from_slice(&[2, 0]);
        out.extend_from_slice(&u32::try_from(dict.len()).unwrap_or(u32::MAX).to_le_bytes());
    }
    out.extend_from_slice(&dict);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(descr: &str, fortran_order: bool, shape: &[u64]) -> Header {
        Header {
            descr: descr.to_string(),
            fortran_order,
            shape: shape.to_vec(),
        }
    }

    #[test]
    fn written_headers_read_back_and_align() {
        for h in [
            header("<f4", false, &[3, 4]),
            header("|b1", true, &[7]),
            header("<c16", false, &[]),
            header("<i8", false, &[1, 2, 3, 4, 5, 6, 7, 8]),
        ] {
            let bytes = header_bytes(&h);
            assert_eq!(bytes.len() % ALIGN, 0);
            assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
            assert_eq!(bytes.last(), Some(&b'\n'));
            let mut r = bytes.as_slice();
            let (back, offset) = read_header(&mut r).unwrap();
            assert_eq!(back, h);
            assert_eq!(offset, bytes.len() as u64);
            assert!(r.is_empty());
        }
        let text = String::from_utf8(header_bytes(&header("<f4", false, &[3]))[10..].to_vec());
        assert!(text
            .unwrap()
            .starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }"));
    }

    #[test]
    fn numpy_spellings_are_read() {
        let h = parse_dict(b"{\"shape\": (2,3,), 'descr':'<u2','fortran_order':True}  \n").unwrap();
        assert_eq!(h, header("<u2", true, &[2, 3]));
        let h =
            parse_dict(b"{'descr': '<f8', 'fortran_order': False, 'shape': (5L, 6L), }").unwrap();
        assert_eq!(h.shape, [5, 6]);
    }

    #[test]
    fn mutated_headers_never_panic() {
        let base = header_bytes(&header("<f4", false, &[3, 4]));
        let alphabet = b"{}()[],:'\" 0123456789LTrueFalse\n\\";
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut parsed = 0;
        for _ in 0..20_000 {
            let mut b = base.clone();
            for _ in 0..1 + next() % 4 {
                if b.is_empty() {
                    break;
                }
                let i = (next() % b.len() as u64) as usize;
                match next() % 4 {
                    0 => b[i] = next() as u8,
                    1 => b.truncate(i),
                    2 => b.insert(i, alphabet[(next() % alphabet.len() as u64) as usize]),
                    _ => b[i] = alphabet[(next() % alphabet.len() as u64) as usize],
                }
            }
            if read_header(&mut b.as_slice()).is_ok() {
                parsed += 1;
            }
        }
        // Some mutations (in the padding, the shape's digits) still parse.
        assert!(parsed > 0);
    }

    #[test]
    fn bad_headers_are_errors_not_panics() {
        for text in [
            &b""[..],
            b"{",
            b"{'descr': '<f4'",
            b"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}",
            b"{'descr': '<f4', 'fortran_order': False}",
            b"{'descr': '<f4', 'fortran_order': Nope, 'shape': ()}",
            b"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,)}",
            b"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}",
            b"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}",
            b"{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}",
            b"{'descr': '<f4', 'fortran_order': False, 'shape': ()} junk",
            b"{'descr': '<f4\\', 'fortran_order': False, 'shape': ()}",
            b"{\"descr\": \"<f'4\", 'fortran_order': False, 'shape': ()}",
            b"{'descr': '<f\xc3\xa94', 'fortran_order': False, 'shape': ()}",
            b"\xff\xfe",
        ] {
            assert!(
                matches!(parse_dict(text), Err(ReadError::Format(_))),
                "{}",
                String::from_utf8_lossy(text)
            );
        }
        let mut r = &b"\x93NUMPY\x01\x00\xff\xff{'descr'"[..];
        assert!(matches!(read_header(&mut r), Err(ReadError::Io(_))));
        let mut r = &b"\x93NUMPY\x02\x00\xff\xff\xff\xff"[..];
        assert!(matches!(read_header(&mut r), Err(ReadError::Format(_))));
        let mut r = &b"\x93NUMPY\x09\x00"[..];
        assert!(matches!(read_header(&mut r), Err(ReadError::Format(_))));
        let mut r = &b"PK\x03\x04 not npy"[..];
        assert!(matches!(read_header(&mut r), Err(ReadError::Format(_))));
    }
}
