//! `layout explain`: a shape in words — canonical form, element type, dims
//! with their letters and a legend of them, the order in words, the
//! physical shape after each tile level, strides, sizes, memory space, and
//! (with `--index`) where one element lands. [`parse_dimension`] reads a
//! dimension given by number or letter for every command that asks for one.
//!
//! Uses: [`crate::format`], [`crate::people`], [`crate::output`],
//! [`crate::machine`] (index parsing).

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use layout_core::{parse, ArrayShape, Dim, Plan, Shape};
use serde_json::{json, Map, Value};

use crate::format::{bytes_in_full, grouped};
use crate::output::{self, warn};
use crate::people::{memory_space_name, render_error, EXIT_INVALID};

/// Prints the explanation of `text` (optionally of one element): in words,
/// or with `json` as one JSON object ([`to_json`]).
pub fn explain(text: &str, index: Option<&str>, json: bool) -> ExitCode {
    let shape = match parse(text) {
        Ok(s) => s,
        Err(e) if json => return json_error(&crate::machine::describe(&e, text)),
        Err(e) => {
            warn(format_args!("{}", render_error(text, &e)));
            return ExitCode::from(EXIT_INVALID);
        }
    };
    let index = match index.map(crate::machine::parse_index).transpose() {
        Ok(i) => i,
        Err(e) if json => return json_error(&e),
        Err(e) => {
            warn(format_args!("error: {e}\n"));
            return ExitCode::from(EXIT_INVALID);
        }
    };
    let answer = if json {
        to_json(&shape, index.as_deref()).map(|v| format!("{v}\n"))
    } else {
        describe(&shape, index.as_deref(), "")
    };
    match answer {
        Ok(text) => {
            let mut out = output::stdout();
            // A write error is kept by `out`, and `finish` reports it.
            let _ = out.write_all(text.as_bytes());
            out.finish("explain", ExitCode::SUCCESS)
        }
        Err(e) if json => json_error(&e),
        Err(e) => {
            warn(format_args!("error: {e}\n"));
            ExitCode::from(EXIT_INVALID)
        }
    }
}

/// Writes `{"error": message}` to stdout; the invalid-input status.
fn json_error(message: &str) -> ExitCode {
    let mut out = output::stdout();
    // A write error is kept by `out`, and `finish` reports it.
    let _ = writeln!(out, "{}", json!({ "error": message }));
    out.finish("explain", ExitCode::from(EXIT_INVALID))
}

/// The sizes of `memory` as JSON: bytes allocated, unpadded (and unpadded
/// as the TPU compiler's memory report counts them), of padding, and the
/// padding's share of the allocation in percent.
fn memory_json(memory: Memory) -> Result<Map<String, Value>, String> {
    let mut m = Map::new();
    m.insert("unpadded_bytes".into(), memory.unpadded.into());
    m.insert("compiler_unpadded_bytes".into(), memory.unpacked.into());
    m.insert("size_in_bytes".into(), memory.allocated.into());
    m.insert("padding_bytes".into(), memory.padding()?.into());
    m.insert("padding_percent".into(), memory.padding_percent()?.into());
    Ok(m)
}

/// The explanation as one JSON object: `shape` (`array`, `buffer`,
/// `tuple`, `token` or `opaque`) and `canonical`; for arrays also
/// `element_type`, `element_bits`, `dims`, `layout` (minor to major),
/// `tiles`, `sizes` (`null` with a `?` dimension), `memory_space`, and with
/// an index `index`, `offset` and `byte_offset`; tuples have `elements`
/// and the total `sizes` of their arrays.
pub fn to_json(shape: &Shape<'_>, index: Option<&[u64]>) -> Result<Value, String> {
    let mut o = Map::new();
    let kind = match shape {
        Shape::Array(_) => "array",
        Shape::Buffer(_) => "buffer",
        Shape::Tuple(_) => "tuple",
        Shape::Token => "token",
        Shape::Opaque => "opaque",
    };
    o.insert("shape".into(), kind.into());
    o.insert("canonical".into(), shape.to_string().into());
    match shape {
        Shape::Array(a) | Shape::Buffer(a) => array_json(&mut o, a, index)?,
        Shape::Token | Shape::Opaque => {}
        Shape::Tuple(t) => {
            let elements = t
                .iter()
                .map(|e| to_json(&e, None))
                .collect::<Result<Vec<Value>, String>>()?;
            o.insert("elements".into(), elements.into());
            let sizes = match memory_totals(shape)? {
                Some(m) => Value::Object(memory_json(m)?),
                None => Value::Null,
            };
            o.insert("sizes".into(), sizes);
        }
    }
    Ok(Value::Object(o))
}

fn array_json(
    o: &mut Map<String, Value>,
    a: &ArrayShape,
    index: Option<&[u64]>,
) -> Result<(), String> {
    let l = a.layout();
    let t = a.element_type();
    o.insert("element_type".into(), t.to_string().into());
    o.insert("element_bits".into(), t.bit_width().into());
    let dims: Vec<Value> = a
        .dims()
        .iter()
        .map(|d| match d {
            Dim::Static(n) => Value::from(*n),
            other => Value::from(other.to_string()),
        })
        .collect();
    o.insert("dims".into(), dims.into());
    o.insert("layout".into(), l.minor_to_major().into());
    let tiles: Vec<Value> = (0..l.tile_count())
        .filter_map(|level| l.tile(level))
        .map(|tile| {
            tile.raw()
                .iter()
                .map(|&v| {
                    if v == layout_core::COMBINE_ENTRY {
                        Value::from("*")
                    } else {
                        Value::from(v)
                    }
                })
                .collect()
        })
        .collect();
    o.insert("tiles".into(), tiles.into());
    if a.has_unbounded_dims() {
        o.insert("sizes".into(), Value::Null);
    } else {
        let plan = Plan::new(a).map_err(|e| e.to_string())?;
        let mut sizes = Map::new();
        sizes.insert(
            "elements".into(),
            a.element_count().map_err(|e| e.to_string())?.into(),
        );
        sizes.insert(
            "allocated_elements".into(),
            plan.allocated_elements().into(),
        );
        sizes.extend(memory_json(Memory::of_array(a)?)?);
        o.insert("sizes".into(), sizes.into());
        if let Some(index) = index {
            o.insert("index".into(), index.into());
            let offset = plan.offset(index).map_err(|e| e.to_string())?;
            let byte = a.byte_offset(index).map_err(|e| e.to_string())?;
            o.insert("offset".into(), offset.into());
            o.insert("byte_offset".into(), byte.into());
        }
    }
    o.insert("memory_space".into(), l.memory_space().into());
    Ok(())
}

/// The explanation of any shape; tuples element by element.
pub fn describe(shape: &Shape<'_>, index: Option<&[u64]>, indent: &str) -> Result<String, String> {
    let mut out = String::new();
    match shape {
        Shape::Array(a) => array(&mut out, a, index, indent)?,
        Shape::Buffer(a) => {
            writeln!(out, "{indent}buffer       b(...) holding an array").unwrap();
            array(&mut out, a, index, indent)?;
        }
        Shape::Token => writeln!(out, "{indent}token[]      an ordering token; no data").unwrap(),
        Shape::Opaque => writeln!(out, "{indent}opaque[]     an opaque handle; no layout").unwrap(),
        Shape::Tuple(t) => {
            writeln!(out, "{indent}tuple        {shape}").unwrap();
            writeln!(out, "{indent}elements     {}", t.len()).unwrap();
            match memory_totals(shape)? {
                Some(m) => {
                    let (padding, percent) = (m.padding()?, m.padding_percent()?);
                    writeln!(out, "{indent}total size     {}", bytes_in_full(m.allocated)).unwrap();
                    writeln!(out, "{indent}total unpadded {}", bytes_in_full(m.unpadded)).unwrap();
                    writeln!(
                        out,
                        "{indent}total unpadded (as the compiler reports it) {}",
                        m.compiler_line()
                    )
                    .unwrap();
                    writeln!(
                        out,
                        "{indent}total padding  {}, {percent:.1}% of the allocation",
                        bytes_in_full(padding)
                    )
                    .unwrap();
                }
                None => writeln!(
                    out,
                    "{indent}total size     unknown until the `?` dimensions are sized"
                )
                .unwrap(),
            }
            let inner = format!("{indent}  ");
            for (i, element) in t.iter().enumerate() {
                writeln!(out, "{indent}[{i}]").unwrap();
                out.push_str(&describe(&element, None, &inner)?);
            }
        }
    }
    Ok(out)
}

/// Allocated and unpadded bytes of an array, or the sums over a tuple.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// Bytes of the allocation (`ArrayShape::size_in_bytes`).
    pub allocated: u64,
    /// Elements times element bits, rounded up to bytes
    /// (`ArrayShape::unpadded_size_in_bytes`).
    pub unpadded: u64,
    /// Elements times the unpacked byte width, as the TPU compiler's
    /// memory report counts "unpadded" (`ArrayShape::unpacked_size_in_bytes`:
    /// `E(n)` ignored, so `pred` in 32 bits is 4x).
    pub unpacked: u64,
}

impl Memory {
    /// The sizes of one array.
    pub fn of_array(a: &ArrayShape) -> Result<Memory, String> {
        Ok(Memory {
            allocated: a.size_in_bytes().map_err(|e| e.to_string())?,
            unpadded: a.unpadded_size_in_bytes().map_err(|e| e.to_string())?,
            unpacked: a.unpacked_size_in_bytes().map_err(|e| e.to_string())?,
        })
    }

    /// The padding in bytes: allocated minus unpadded.
    pub fn padding(self) -> Result<u64, String> {
        self.allocated.checked_sub(self.unpadded).ok_or_else(|| {
            format!(
                "the unpadded size ({} bytes) exceeds the allocation ({} bytes)",
                self.unpadded, self.allocated
            )
        })
    }

    /// The compiler's line: `N bytes (X MiB), 4.0x expansion` (allocated
    /// over [`Memory::unpacked`]).
    pub fn compiler_line(self) -> String {
        let expansion = if self.unpacked == 0 {
            String::new()
        } else {
            #[allow(clippy::cast_precision_loss)] // a ratio to one decimal
            let x = self.allocated as f64 / self.unpacked as f64;
            format!(", {x:.1}x expansion")
        };
        format!("{}{expansion}", bytes_in_full(self.unpacked))
    }

    /// The padding as a percentage of the allocation; 0 for an empty one.
    pub fn padding_percent(self) -> Result<f64, String> {
        let padding = self.padding()?;
        if self.allocated == 0 {
            return Ok(0.0);
        }
        #[allow(clippy::cast_precision_loss)] // a percentage to one decimal
        Ok(padding as f64 * 100.0 / self.allocated as f64)
    }

    fn checked_add(self, other: Memory) -> Result<Memory, String> {
        let overflow = || "the total size does not fit in 64 bits".to_string();
        Ok(Memory {
            allocated: self
                .allocated
                .checked_add(other.allocated)
                .ok_or_else(overflow)?,
            unpadded: self
                .unpadded
                .checked_add(other.unpadded)
                .ok_or_else(overflow)?,
            unpacked: self
                .unpacked
                .checked_add(other.unpacked)
                .ok_or_else(overflow)?,
        })
    }
}

/// The sizes of every array in `shape` summed; `None` if one has a `?`
/// dimension (its size is unknown).
pub fn memory_totals(shape: &Shape<'_>) -> Result<Option<Memory>, String> {
    match shape {
        Shape::Array(a) | Shape::Buffer(a) => {
            if a.has_unbounded_dims() {
                Ok(None)
            } else {
                Memory::of_array(a).map(Some)
            }
        }
        Shape::Token | Shape::Opaque => Ok(Some(Memory::default())),
        Shape::Tuple(t) => {
            let mut sum = Memory::default();
            for element in t.iter() {
                match memory_totals(&element)? {
                    Some(m) => sum = sum.checked_add(m)?,
                    None => return Ok(None),
                }
            }
            Ok(Some(sum))
        }
    }
}

/// The strides of a physical shape (major to minor) in elements, as
/// `[12, 4, 2, 1]`; a stride that does not fit in 64 bits (an empty array
/// can have one) is written `2^64 or more`.
fn strides_in_words(dims: &[u64]) -> String {
    let mut strides = vec![None; dims.len()];
    let mut acc = Some(1u64);
    for (stride, &d) in strides.iter_mut().zip(dims).rev() {
        *stride = acc;
        acc = acc.and_then(|a| a.checked_mul(d));
    }
    let words: Vec<String> = strides
        .iter()
        .map(|s| s.map_or("2^64 or more".to_string(), |s| s.to_string()))
        .collect();
    format!("[{}]", words.join(", "))
}

/// The letters of `a`'s dimensions, minor-numbered first: `x` is the
/// last dimension, `y` the one before, then `z` and `p` (`"p z y x"` for
/// rank 4, `"y x"` for rank 2); empty past rank 4 and for scalars.
fn letters(a: &ArrayShape) -> Vec<(char, usize)> {
    (0..a.rank())
        .filter_map(|d| a.dimension_letter(d).map(|c| (c, d)))
        .collect()
}

/// The legend of the dimension letters `explain` prints (`None` for a
/// scalar): which dimension each names, and that `draw` takes them.
pub fn letters_legend(a: &ArrayShape) -> Option<String> {
    let rank = a.rank();
    if rank == 0 {
        return None;
    }
    let named = letters(a);
    if named.is_empty() {
        return Some(format!(
            "none past rank 4: dimensions are named by number, d0..d{}",
            rank - 1
        ));
    }
    let pairs: Vec<String> = named.iter().map(|(c, d)| format!("{c}={d}")).collect();
    Some(format!(
        "x is the last dimension, y the one before, then z, p: {} (draw --rows/--cols take them)",
        pairs.join(" ")
    ))
}

/// A dimension of `a` given as a number (`2`) or a letter (`y`): one
/// parser for every option that asks for a dimension. The error names the
/// valid numbers and letters for the shape's rank.
pub fn parse_dimension(a: &ArrayShape, text: &str) -> Result<usize, String> {
    let rank = a.rank();
    let t = text.trim();
    let valid = || {
        if rank == 0 {
            return "a scalar has no dimensions".to_string();
        }
        let named = letters(a);
        let mut v = format!("give a number 0..={}", rank - 1);
        if named.is_empty() {
            write!(v, " (rank {rank} has no dimension letters)").unwrap();
        } else {
            let pairs: Vec<String> = named.iter().map(|(c, d)| format!("{c}={d}")).collect();
            write!(v, " or a letter {}", pairs.join(" ")).unwrap();
        }
        v
    };
    if let Ok(d) = t.parse::<usize>() {
        if d < rank {
            return Ok(d);
        }
        return Err(format!(
            "dimension {d} is out of range for rank {rank}: {}",
            valid()
        ));
    }
    let mut chars = t.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if let Some(d) = a.dimension_of_letter(c.to_ascii_lowercase()) {
            return Ok(d);
        }
    }
    Err(format!(
        "`{t}` is not a dimension of this rank-{rank} shape: {}",
        valid()
    ))
}

/// "row-major", "column-major" or which dimension is minor.
fn order_in_words(a: &ArrayShape) -> String {
    let l = a.layout();
    let m2m = l.minor_to_major();
    let name = |d: usize| match a.dimension_letter(d) {
        Some(c) => format!("{d} ({c})"),
        None => d.to_string(),
    };
    if m2m.len() <= 1 {
        return "one dimension or none: nothing to order".to_string();
    }
    let chain: Vec<String> = m2m.iter().map(|&d| name(d as usize)).collect();
    let kind = if l.is_descending() {
        "row-major (the last dimension varies fastest)".to_string()
    } else if l.is_ascending() {
        "column-major (dimension 0 varies fastest)".to_string()
    } else {
        format!("dimension {} is minor-most", name(m2m[0] as usize))
    };
    format!("{kind}; minor to major: {}", chain.join(", "))
}

fn array(
    out: &mut String,
    a: &ArrayShape,
    index: Option<&[u64]>,
    indent: &str,
) -> Result<(), String> {
    let t = a.element_type();
    let l = a.layout();
    let w = |out: &mut String, label: &str, value: String| {
        writeln!(out, "{indent}{label:<13}{value}").unwrap();
    };
    w(out, "shape", a.to_string());
    let packed = l.element_size_in_bits();
    w(
        out,
        "element",
        if packed > 0 {
            format!(
                "{t}: {} bits, packed into {packed} bits each by E({packed})",
                t.bit_width()
            )
        } else {
            format!(
                "{t}: {} bits, {} byte(s) each",
                t.bit_width(),
                t.byte_width()
            )
        },
    );
    let dims: Vec<String> = a
        .dims()
        .iter()
        .enumerate()
        .map(|(i, d)| match a.dimension_letter(i) {
            Some(c) => format!("{c}={d}"),
            None => format!("d{i}={d}"),
        })
        .collect();
    w(
        out,
        "dims",
        if dims.is_empty() {
            "scalar".to_string()
        } else {
            dims.join(" ")
        },
    );
    if let Some(legend) = letters_legend(a) {
        w(out, "letters", legend);
    }
    w(out, "order", order_in_words(a));
    if a.has_unbounded_dims() {
        w(
            out,
            "sizes",
            "unknown until the `?` dimensions are sized".to_string(),
        );
        w(out, "memory", memory_space_name(l.memory_space()));
        return Ok(());
    }
    let plan = Plan::new(a).map_err(|e| e.to_string())?;
    let physical = a.physical_shape(0).map_err(|e| e.to_string())?;
    w(
        out,
        "physical",
        format!("{:?} (major to minor)", physical.as_slice()),
    );
    for level in 0..l.tile_count() {
        let tile = l.tile(level).map(|t| {
            let e: Vec<String> = t
                .raw()
                .iter()
                .map(|&v| {
                    if v == layout_core::COMBINE_ENTRY {
                        "*".to_string()
                    } else {
                        v.to_string()
                    }
                })
                .collect();
            format!("({})", e.join(","))
        });
        let s = a.physical_shape(level + 1).map_err(|e| e.to_string())?;
        w(
            out,
            &format!("tile {level}"),
            format!("{} -> {:?}", tile.unwrap_or_default(), s.as_slice()),
        );
    }
    if let Some(strides) = a.strides() {
        w(
            out,
            "strides",
            format!(
                "{:?} elements per step of each dimension",
                strides.as_slice()
            ),
        );
    } else {
        let fin = plan.tiled_shape();
        w(
            out,
            "tile strides",
            format!(
                "{} elements per step of each tiled dimension",
                strides_in_words(fin.as_slice())
            ),
        );
    }
    let count = a.element_count().map_err(|e| e.to_string())?;
    let allocated = plan.allocated_elements();
    let bytes = a.size_in_bytes().map_err(|e| e.to_string())?;
    w(out, "elements", grouped(count));
    #[allow(clippy::cast_precision_loss)] // a percentage to one decimal
    let padding = if allocated == 0 {
        0.0
    } else {
        allocated.saturating_sub(count) as f64 * 100.0 / allocated as f64
    };
    w(
        out,
        "allocated",
        format!("{} slots ({padding:.1}% padding)", grouped(allocated)),
    );
    w(out, "size", bytes_in_full(bytes));
    let memory = Memory::of_array(a)?;
    w(out, "unpadded", bytes_in_full(memory.unpadded));
    writeln!(
        out,
        "{indent}unpadded (as the compiler reports it) {}",
        memory.compiler_line()
    )
    .unwrap();
    w(
        out,
        "padding",
        format!(
            "{}, {:.1}% of the allocation",
            bytes_in_full(memory.padding()?),
            memory.padding_percent()?
        ),
    );
    w(out, "memory", memory_space_name(l.memory_space()));
    if let Some(index) = index {
        let offset = plan.offset(index).map_err(|e| e.to_string())?;
        let byte = a.byte_offset(index).map_err(|e| e.to_string())?;
        w(
            out,
            "index",
            format!(
                "{index:?} -> element offset {} (byte {})",
                grouped(offset),
                grouped(byte)
            ),
        );
        if l.tile_count() > 0 {
            let at = plan.physical_index(index, 1);
            let tile = l.tile(0).map_or(0, |t| {
                t.raw()
                    .iter()
                    .filter(|&&v| v != layout_core::COMBINE_ENTRY)
                    .count()
            });
            let s = at.as_slice();
            let (grid, within) = s.split_at(s.len() - tile);
            w(
                out,
                "in tile",
                format!("{grid:?} of tile level 0, at {within:?} within it"),
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimensions_by_number_or_letter() {
        let a = layout_core::parse_array("f32[2,3,4]").unwrap();
        assert_eq!(parse_dimension(&a, "y"), Ok(1));
        assert_eq!(parse_dimension(&a, " X "), Ok(2));
        assert_eq!(parse_dimension(&a, "0"), Ok(0));
        assert_eq!(
            parse_dimension(&a, "p").unwrap_err(),
            "`p` is not a dimension of this rank-3 shape: give a number 0..=2 or a letter z=0 y=1 x=2"
        );
        assert_eq!(
            parse_dimension(&a, "3").unwrap_err(),
            "dimension 3 is out of range for rank 3: give a number 0..=2 or a letter z=0 y=1 x=2"
        );
        let wide = layout_core::parse_array("f32[1,1,1,1,2]").unwrap();
        assert_eq!(parse_dimension(&wide, "4"), Ok(4));
        assert!(parse_dimension(&wide, "x")
            .unwrap_err()
            .ends_with("give a number 0..=4 (rank 5 has no dimension letters)"));
        let scalar = layout_core::parse_array("f32[]").unwrap();
        assert!(parse_dimension(&scalar, "0")
            .unwrap_err()
            .ends_with("a scalar has no dimensions"));
        assert_eq!(letters_legend(&scalar), None);
        assert_eq!(
            letters_legend(&a).unwrap(),
            "x is the last dimension, y the one before, then z, p: z=0 y=1 x=2 (draw --rows/--cols take them)"
        );
        assert!(letters_legend(&wide)
            .unwrap()
            .starts_with("none past rank 4"));
    }

    #[test]
    fn strides_are_checked() {
        assert_eq!(strides_in_words(&[3, 2, 2]), "[4, 2, 1]");
        assert_eq!(strides_in_words(&[]), "[]");
        assert_eq!(
            strides_in_words(&[0, 1 << 62, 2, 2]),
            "[2^64 or more, 4, 2, 1]"
        );
        assert_eq!(
            strides_in_words(&[5, 0, 1 << 63, 2, 2]),
            "[2^64 or more, 2^64 or more, 4, 2, 1]"
        );
    }
}
