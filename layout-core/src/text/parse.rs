//! The parser: XLA's shape and layout text grammar (see `docs/grammar.md`),
//! strict where XLA silently swallows errors (`docs/decisions.md`). It reads
//! text into unchecked data and applies no validation rule: that is the
//! next layer's job. Every function is a `const fn`.

use crate::base::element::ElementType;
use crate::base::error::{capacity, capacity_error, Error, ErrorKind, Span};
use crate::base::konst::{bytes_eq, sub as slice, tri};
use crate::base::limits::{
    COMBINE_ENTRY as COMBINE, MAX_DEPTH, MAX_RANK, MAX_SPLIT_CONFIGS, MAX_SPLIT_INDICES,
    MAX_TEXT_LEN, MAX_TILES, MAX_TILE_ENTRIES,
};
use crate::model::array::UncheckedArray;
use crate::model::dim::Dim;
use crate::model::layout::Layout;
use crate::model::source::{Attr, SourceMap};
use crate::text::lex::{next_token, Tok, Token};

/// A shape as read from text, nothing checked beyond the grammar.
#[derive(Clone, Copy)]
pub(crate) enum RawShape<'a> {
    Array(UncheckedArray),
    Tuple(RawTuple<'a>),
    /// A buffer `b(...)` around an array.
    Buffer(UncheckedArray),
    Token,
    Opaque,
}

/// Where a tuple's elements are in the text.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawTuple<'a> {
    pub src: &'a str,
    /// Position just after the opening `(`.
    pub start: u32,
    pub len: u32,
    /// Depth of the elements.
    pub depth: u8,
    pub span: Span,
}

/// Refuses text longer than spans can address.
pub(crate) const fn check_length(src: &str) -> Result<(), Error> {
    if src.len() > MAX_TEXT_LEN {
        return Err(capacity_error(capacity::TEXT_LEN, src.len(), MAX_TEXT_LEN));
    }
    Ok(())
}

/// Reads one whole shape of any kind (whitespace and comments around it
/// are fine).
pub(crate) const fn parse_raw(src: &str) -> Result<RawShape<'_>, Error> {
    tri!(check_length(src));
    let (shape, end) = tri!(parse_shape(src, 0, 0));
    tri!(expect_eof(src.as_bytes(), end));
    Ok(shape)
}

/// Parses an array shape without running any validation rule, so that
/// [`validate_all`](crate::validate_all) can report every problem at once.
/// Syntax errors still fail here.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array_unvalidated, validate_all};
/// let s = parse_array_unvalidated("f32[2,3]{1,1:T(0,2)S(200)}").unwrap();
/// assert_eq!(validate_all(&s).len(), 3);
/// ```
pub const fn parse_array_unvalidated(src: &str) -> Result<UncheckedArray, Error> {
    match tri!(parse_raw(src)) {
        RawShape::Array(a) => Ok(a),
        _ => Err(Error::new(
            ErrorKind::NotAnArray,
            Span::new(0, src.len()),
            [0; 3],
        )),
    }
}

const fn expect_eof(src: &[u8], pos: usize) -> Result<(), Error> {
    let t = tri!(next_token(src, pos));
    if t.is(Tok::Eof) {
        Ok(())
    } else {
        Err(Error::new(
            ErrorKind::ExtraContent,
            Span::new(t.start, src.len()),
            [0; 3],
        ))
    }
}

/// Reads the tuple element at `pos`; returns it and the position after
/// the following `,` (if any).
pub(crate) const fn parse_element(
    src: &str,
    pos: usize,
    depth: u8,
) -> Result<(RawShape<'_>, usize), Error> {
    let (shape, end) = tri!(parse_shape(src, pos, depth as usize));
    let t = tri!(next_token(src.as_bytes(), end));
    let end = if t.is(Tok::Comma) { t.end } else { end };
    Ok((shape, end))
}

const fn expect(src: &[u8], pos: usize, tok: Tok, what: &'static str) -> Result<Token, Error> {
    let t = tri!(next_token(src, pos));
    if t.is(tok) {
        Ok(t)
    } else {
        Err(Error::expected(what, t.span()))
    }
}

const fn expect_int(src: &[u8], pos: usize) -> Result<Token, Error> {
    expect(src, pos, Tok::Int, "an integer")
}

/// One shape starting at `pos`; returns it and the position after it.
const fn parse_shape(src: &str, pos: usize, depth: usize) -> Result<(RawShape<'_>, usize), Error> {
    let bytes = src.as_bytes();
    let t = tri!(next_token(bytes, pos));
    if depth > MAX_DEPTH {
        return Err(Error::new(
            ErrorKind::NestingTooDeep,
            t.span(),
            [MAX_DEPTH as i64, 0, 0],
        ));
    }
    match t.tok {
        Tok::LParen => parse_tuple(src, t, depth),
        Tok::Ident => {
            let name = slice(bytes, t.start, t.end);
            if bytes_eq(name, b"b") {
                let open = tri!(next_token(bytes, t.end));
                if open.is(Tok::LParen) {
                    return parse_buffer(src, t, open, depth);
                }
            }
            let (a, end) = tri!(parse_array_at(src, t, depth));
            if !a.element_type.is_array() {
                return Ok((
                    if matches!(a.element_type, ElementType::Token) {
                        RawShape::Token
                    } else {
                        RawShape::Opaque
                    },
                    end,
                ));
            }
            Ok((RawShape::Array(a), end))
        }
        Tok::Eof if pos == 0 => Err(Error::new(ErrorKind::Empty, t.span(), [0; 3])),
        _ => Err(Error::expected("a shape", t.span())),
    }
}

const fn parse_tuple(src: &str, open: Token, depth: usize) -> Result<(RawShape<'_>, usize), Error> {
    let bytes = src.as_bytes();
    let mut pos = open.end;
    let mut len: u32 = 0;
    let t = tri!(next_token(bytes, pos));
    if t.is(Tok::RParen) {
        pos = t.end;
    } else {
        loop {
            let (_, end) = tri!(parse_shape(src, pos, depth + 1));
            len += 1;
            let sep = tri!(next_token(bytes, end));
            pos = sep.end;
            match sep.tok {
                Tok::Comma => {}
                Tok::RParen => break,
                _ => return Err(Error::expected("`,` or `)`", sep.span())),
            }
        }
    }
    Ok((
        RawShape::Tuple(RawTuple {
            src,
            start: open.end as u32,
            len,
            depth: (depth + 1) as u8,
            span: Span::new(open.start, pos),
        }),
        pos,
    ))
}

const fn parse_buffer(
    src: &str,
    b: Token,
    open: Token,
    depth: usize,
) -> Result<(RawShape<'_>, usize), Error> {
    let bytes = src.as_bytes();
    let (inner, end) = tri!(parse_shape(src, open.end, depth + 1));
    let close = tri!(expect(bytes, end, Tok::RParen, "`)`"));
    match inner {
        RawShape::Array(a) => Ok((RawShape::Buffer(a), close.end)),
        _ => Err(Error::new(
            ErrorKind::BufferOfNonArray,
            Span::new(b.start, close.end),
            [0; 3],
        )),
    }
}

/// `type[dims]{layout}` where `name` is the type's identifier token.
const fn parse_array_at(
    src: &str,
    name: Token,
    depth: usize,
) -> Result<(UncheckedArray, usize), Error> {
    let bytes = src.as_bytes();
    let element_type = match ElementType::from_name_bytes(slice(bytes, name.start, name.end)) {
        Some(t) => t,
        None => {
            return Err(Error::new(
                ErrorKind::UnknownElementType,
                name.span(),
                [0; 3],
            ))
        }
    };
    let mut shape = UncheckedArray::empty(element_type);
    shape.source.element_type = name.span();
    let open = tri!(expect(bytes, name.end, Tok::LBracket, "`[`"));
    let mut pos = open.end;
    let first = tri!(next_token(bytes, pos));
    if first.is(Tok::RBracket) {
        pos = first.end;
    } else {
        loop {
            let t = tri!(next_token(bytes, pos));
            let (dim, span) = match t.tok {
                Tok::Int => {
                    if t.int < 0 {
                        return Err(Error::new(
                            ErrorKind::NegativeDimension,
                            t.span(),
                            [shape.rank as i64, t.int, 0],
                        ));
                    }
                    (Dim::Static(t.int as u64), t.span())
                }
                Tok::LessEq => {
                    let n = tri!(expect_int(bytes, t.end));
                    if n.int < 0 {
                        return Err(Error::new(
                            ErrorKind::NegativeBound,
                            Span::new(t.start, n.end),
                            [shape.rank as i64, n.int, 0],
                        ));
                    }
                    (Dim::Bounded(n.int as u64), Span::new(t.start, n.end))
                }
                Tok::Question => (Dim::Unbounded, t.span()),
                _ => return Err(Error::expected("a dimension (`N`, `<=N` or `?`)", t.span())),
            };
            if shape.rank as usize >= MAX_RANK {
                return Err(capacity_error(capacity::RANK, MAX_RANK + 1, MAX_RANK).with_span(span));
            }
            shape.dims[shape.rank as usize] = dim;
            shape.source.dims[shape.rank as usize] = span;
            shape.rank += 1;
            let sep = tri!(next_token(bytes, span.end as usize));
            pos = sep.end;
            match sep.tok {
                Tok::Comma => {}
                Tok::RBracket => break,
                _ => return Err(Error::expected("`,` or `]`", sep.span())),
            }
        }
    }
    if !element_type.is_array() && shape.rank > 0 {
        return Err(Error::new(
            ErrorKind::NonArrayWithDimensions,
            Span::new(name.start, pos),
            [shape.rank as i64, 0, 0],
        ));
    }
    // A layout is attempted only for `{` followed by an integer or `:`.
    let brace = tri!(next_token(bytes, pos));
    let mut has_layout = false;
    if brace.is(Tok::LBrace) {
        let after = tri!(next_token(bytes, brace.end));
        has_layout = after.is(Tok::Int) || after.is(Tok::Colon);
    }
    if has_layout {
        if !element_type.is_array() {
            return Err(Error::new(
                ErrorKind::NonArrayWithLayout,
                brace.span(),
                [0; 3],
            ));
        }
        pos = tri!(parse_layout_at(src, brace, &mut shape, depth));
    } else {
        shape.layout = Layout::descending(shape.rank as usize);
    }
    shape.source.whole = Span::new(name.start, pos);
    Ok((shape, pos))
}

/// Attribute letter of an identifier inside a layout.
const fn attr_of(name: &[u8]) -> Option<Attr> {
    Some(match name {
        b"D" => Attr::DimLevelTypes,
        b"T" => Attr::Tiles,
        b"L" => Attr::TailPadding,
        b"E" => Attr::ElementSize,
        b"S" => Attr::MemorySpace,
        b"SC" => Attr::SplitConfigs,
        b"P" => Attr::PhysicalShape,
        b"M" => Attr::MetadataPrefix,
        _ => return None,
    })
}

/// `{m2m:attrs}` starting at the `{` token; fills `shape.layout`.
const fn parse_layout_at(
    src: &str,
    brace: Token,
    shape: &mut UncheckedArray,
    depth: usize,
) -> Result<usize, Error> {
    let bytes = src.as_bytes();
    let mut l = Layout::EMPTY;
    let mut pos = brace.end;
    let mut t = tri!(next_token(bytes, pos));
    // minor_to_major
    if t.is(Tok::Int) {
        let mut count: usize = 0;
        loop {
            let n = tri!(expect_int(bytes, pos));
            if count < MAX_RANK {
                l.m2m[count] = n.int;
                shape.source.minor_to_major[count] = n.span();
            }
            count += 1;
            t = tri!(next_token(bytes, n.end));
            pos = t.end;
            if !t.is(Tok::Comma) {
                break;
            }
        }
        if count > MAX_RANK {
            return Err(Error::new(
                ErrorKind::MinorToMajorLength,
                Span::new(brace.start, t.start),
                [count as i64, shape.rank as i64, 0],
            ));
        }
        l.m2m_len = count as u8;
    } else {
        pos = t.end;
    }
    if t.is(Tok::Colon) {
        let mut last: i32 = -1;
        loop {
            let a = tri!(next_token(bytes, pos));
            let attr = match a.tok {
                Tok::RBrace => {
                    t = a;
                    break;
                }
                Tok::Hash => Attr::IndexType,
                Tok::Star => Attr::PointerType,
                Tok::Ident => match attr_of(slice(bytes, a.start, a.end)) {
                    Some(attr) => attr,
                    None => return Err(Error::new(ErrorKind::UnknownAttribute, a.span(), [0; 3])),
                },
                _ => return Err(Error::expected("a layout attribute or `}`", a.span())),
            };
            if attr as i32 <= last {
                return Err(Error::new(
                    ErrorKind::AttributeOrder,
                    a.span(),
                    [attr as i64, last as i64, 0],
                ));
            }
            last = attr as i32;
            let end = match attr {
                Attr::DimLevelTypes => tri!(parse_dim_level_types(bytes, a.end)),
                Attr::Tiles => tri!(parse_tiles(bytes, a.end, &mut l, &mut shape.source)),
                Attr::TailPadding => tri!(parse_int_attr(bytes, a.end, &mut l.tail_padding)),
                Attr::ElementSize => tri!(parse_int_attr(bytes, a.end, &mut l.element_size_bits)),
                Attr::MemorySpace => tri!(parse_int_attr(bytes, a.end, &mut l.memory_space)),
                Attr::MetadataPrefix => {
                    let end = tri!(parse_int_attr(bytes, a.end, &mut l.metadata_prefix));
                    // XLA accepts a negative M(n) and never prints it: the
                    // same value as no M at all.
                    if l.metadata_prefix < 0 {
                        l.metadata_prefix = 0;
                    }
                    end
                }
                Attr::IndexType | Attr::PointerType => {
                    let (ty, end) = tri!(parse_type_attr(bytes, a.end));
                    if matches!(attr, Attr::IndexType) {
                        l.index_type = Some(ty);
                    } else {
                        l.pointer_type = Some(ty);
                    }
                    end
                }
                Attr::SplitConfigs => tri!(parse_splits(bytes, a.end, &mut l, &mut shape.source)),
                Attr::PhysicalShape => {
                    let open = tri!(expect(bytes, a.end, Tok::LParen, "`(`"));
                    let (_, end) = tri!(parse_shape(src, open.end, depth + 1));
                    let close = tri!(expect(bytes, end, Tok::RParen, "`)`"));
                    l.physical_shape = true;
                    close.end
                }
            };
            shape.source.attrs[attr as usize] = Span::new(a.start, end);
            pos = end;
        }
    }
    if !t.is(Tok::RBrace) {
        return Err(Error::expected("`:` or `}` to end the layout", t.span()));
    }
    shape.layout = l;
    shape.source.layout = Span::new(brace.start, t.end);
    Ok(t.end)
}

/// `(n)` after an attribute letter.
const fn parse_int_attr(src: &[u8], pos: usize, out: &mut i64) -> Result<usize, Error> {
    let open = tri!(expect(src, pos, Tok::LParen, "`(`"));
    let n = tri!(expect_int(src, open.end));
    let close = tri!(expect(src, n.end, Tok::RParen, "`)`"));
    *out = n.int;
    Ok(close.end)
}

/// `(type)` after `#` or `*`: an unsigned integer type.
const fn parse_type_attr(src: &[u8], pos: usize) -> Result<(ElementType, usize), Error> {
    let open = tri!(expect(src, pos, Tok::LParen, "`(`"));
    let name = tri!(expect(
        src,
        open.end,
        Tok::Ident,
        "an unsigned integer type"
    ));
    let ty = match ElementType::from_name_bytes(slice(src, name.start, name.end)) {
        Some(t) if t.is_unsigned_integer() => t,
        _ => {
            return Err(Error::new(
                ErrorKind::ExpectedUnsignedType,
                name.span(),
                [0; 3],
            ))
        }
    };
    let close = tri!(expect(src, name.end, Tok::RParen, "`)`"));
    Ok((ty, close.end))
}

/// `(D, C+, S~, H+~)` after `D`; the values are dropped, as in XLA.
const fn parse_dim_level_types(src: &[u8], pos: usize) -> Result<usize, Error> {
    let open = tri!(expect(src, pos, Tok::LParen, "`(`"));
    let mut t = tri!(next_token(src, open.end));
    if t.is(Tok::RParen) {
        return Ok(t.end);
    }
    loop {
        if !t.is(Tok::Ident) {
            return Err(Error::new(ErrorKind::InvalidDimLevelType, t.span(), [0; 3]));
        }
        match slice(src, t.start, t.end) {
            b"D" | b"C" | b"S" | b"H" => {}
            _ => return Err(Error::new(ErrorKind::InvalidDimLevelType, t.span(), [0; 3])),
        }
        let mut n = tri!(next_token(src, t.end));
        if n.is(Tok::Plus) {
            n = tri!(next_token(src, n.end));
        }
        if n.is(Tok::Tilde) {
            n = tri!(next_token(src, n.end));
        }
        match n.tok {
            Tok::Comma => t = tri!(next_token(src, n.end)),
            Tok::RParen => return Ok(n.end),
            _ => return Err(Error::expected("`,` or `)`", n.span())),
        }
    }
}

/// `(a,b,...)(c,...)...` after `T`.
const fn parse_tiles(
    src: &[u8],
    pos: usize,
    l: &mut Layout,
    map: &mut SourceMap,
) -> Result<usize, Error> {
    let mut pos = pos;
    let mut used: usize = 0;
    let mut open = tri!(expect(src, pos, Tok::LParen, "`(` to start a tile"));
    loop {
        let level = l.tile_count as usize;
        if level >= MAX_TILES {
            return Err(
                capacity_error(capacity::TILES, level + 1, MAX_TILES).with_span(open.span())
            );
        }
        let mut t = tri!(next_token(src, open.end));
        if !t.is(Tok::RParen) {
            loop {
                let value = match t.tok {
                    // i64::MIN is how `*` is stored; XLA reads the literal as
                    // `*`, we refuse it like every other negative entry.
                    Tok::Int if t.int == COMBINE => {
                        return Err(Error::new(
                            ErrorKind::NegativeTileEntry,
                            t.span(),
                            [
                                level as i64,
                                (used - l.tile_entry_index(level, 0)) as i64,
                                t.int,
                            ],
                        ))
                    }
                    Tok::Int => t.int,
                    Tok::Star => COMBINE,
                    _ => return Err(Error::expected("a tile size or `*`", t.span())),
                };
                if used >= MAX_TILE_ENTRIES {
                    return Err(
                        capacity_error(capacity::TILE_ENTRIES, used + 1, MAX_TILE_ENTRIES)
                            .with_span(t.span()),
                    );
                }
                l.tile_entries[used] = value;
                map.tile_entries[used] = t.span();
                used += 1;
                let sep = tri!(next_token(src, t.end));
                match sep.tok {
                    Tok::Comma => t = tri!(next_token(src, sep.end)),
                    Tok::RParen => {
                        t = sep;
                        break;
                    }
                    _ => return Err(Error::expected("`,` or `)`", sep.span())),
                }
            }
        }
        l.tile_ends[level] = used as u8;
        l.tile_count += 1;
        map.tiles[level] = Span::new(open.start, t.end);
        pos = t.end;
        let next = tri!(next_token(src, pos));
        if !next.is(Tok::LParen) {
            return Ok(pos);
        }
        open = next;
    }
}

/// `(d:i,j,...)(d:...)...` after `SC`.
const fn parse_splits(
    src: &[u8],
    pos: usize,
    l: &mut Layout,
    map: &mut SourceMap,
) -> Result<usize, Error> {
    let mut pos = pos;
    let mut used: usize = 0;
    let mut open = tri!(expect(src, pos, Tok::LParen, "`(` to start a split config"));
    loop {
        let i = l.split_count as usize;
        if i >= MAX_SPLIT_CONFIGS {
            return Err(
                capacity_error(capacity::SPLIT_CONFIGS, i + 1, MAX_SPLIT_CONFIGS)
                    .with_span(open.span()),
            );
        }
        let dim = tri!(expect_int(src, open.end));
        let colon = tri!(expect(src, dim.end, Tok::Colon, "`:`"));
        let mut t = tri!(next_token(src, colon.end));
        if !t.is(Tok::RParen) {
            loop {
                if !t.is(Tok::Int) {
                    return Err(Error::expected("a split index", t.span()));
                }
                if used >= MAX_SPLIT_INDICES {
                    return Err(capacity_error(
                        capacity::SPLIT_INDICES,
                        used + 1,
                        MAX_SPLIT_INDICES,
                    )
                    .with_span(t.span()));
                }
                l.split_indices[used] = t.int;
                used += 1;
                let sep = tri!(next_token(src, t.end));
                match sep.tok {
                    Tok::Comma => t = tri!(next_token(src, sep.end)),
                    Tok::RParen => {
                        t = sep;
                        break;
                    }
                    _ => return Err(Error::expected("`,` or `)`", sep.span())),
                }
            }
        }
        l.split_dims[i] = dim.int;
        l.split_ends[i] = used as u8;
        l.split_count += 1;
        map.splits[i] = Span::new(open.start, t.end);
        pos = t.end;
        let next = tri!(next_token(src, pos));
        if !next.is(Tok::LParen) {
            return Ok(pos);
        }
        open = next;
    }
}
