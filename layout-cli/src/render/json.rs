//! JSON lines for `layout scan --json`, through `serde_json`.
//!
//! Each record is written as soon as the walker finds it, one object per
//! line. A record's shapes are evaluated while it is serialised, one at a
//! time, so a record with millions of operands never exists as a whole in
//! memory (the schema is in the documentation of `crate::scan`).
//!
//! Uses: [`crate::report`], [`super::Render`].

use std::io::{self, Write};

use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::Serialize;

use super::Render;
use crate::report::{
    lossy, space_label, CompRec, InstrRec, ModuleRec, Scan, Shapes, Space, SpaceTotal, Spaces,
    Span, Value,
};

/// Writes one record and its line end.
fn line(out: &mut dyn Write, record: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, record).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// The fields of a shape object, added to an open map.
fn shape_fields<M: SerializeMap>(
    map: &mut M,
    scan: &Scan,
    s: Span,
    v: &Value,
) -> Result<(), M::Error> {
    map.serialize_entry("shape", &lossy(scan.text(s)))?;
    map.serialize_entry("span", &[s.start, s.end])?;
    map.serialize_entry("shape_type", &v.shape_type.map(|t| t.name()))?;
    map.serialize_entry("bytes", &v.bytes)?;
    map.serialize_entry("padding_bytes", &v.padding())?;
    map.serialize_entry("compiler_unpadded_bytes", &v.compiler_unpadded)?;
    match v.space() {
        Space::One(n) => map.serialize_entry("memory_space", &n)?,
        Space::Mixed => map.serialize_entry("memory_space", "mixed")?,
        Space::None => map.serialize_entry("memory_space", &())?,
    }
    map.serialize_key("leaf_memory_spaces")?;
    map.serialize_value(&LeafSpaces(v))?;
    map.serialize_entry("error", &v.error)
}

/// The memory spaces of a value's array leaves.
struct LeafSpaces<'v>(&'v Value);

impl Serialize for LeafSpaces<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.collect_seq(self.0.leaves.iter().map(|l| l.0))
    }
}

/// A shape object, evaluated when serialised; `key` adds a leading
/// `"<name>": <text>` field (an attribute or parameter name).
struct ShapeObject<'r, 'a> {
    scan: &'r Scan<'a>,
    key: Option<(&'static str, Span)>,
    shape: Span,
}

impl Serialize for ShapeObject<'_, '_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut map = ser.serialize_map(None)?;
        if let Some((k, name)) = self.key {
            map.serialize_entry(k, &lossy(self.scan.text(name)))?;
        }
        let value = self.scan.value(self.shape);
        shape_fields(&mut map, self.scan, self.shape, &value)?;
        map.end()
    }
}

/// Where a list of shapes comes from.
enum List<'r> {
    /// Spans already found.
    Spans(&'r [Span]),
    /// Shapes found again as they are listed.
    Found(Shapes<'r>),
}

/// A list of shapes, each evaluated as it is serialised.
struct ShapeList<'r, 'a> {
    scan: &'r Scan<'a>,
    shapes: List<'r>,
}

impl Serialize for ShapeList<'_, '_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let scan = self.scan;
        match &self.shapes {
            List::Spans(spans) => ser.collect_seq(spans.iter().map(|&shape| ShapeObject {
                scan,
                key: None,
                shape,
            })),
            List::Found(found) => {
                let mut seq = ser.serialize_seq(Some(found.len()))?;
                let mut written = Ok(());
                found.for_each(&mut |shape| {
                    if written.is_ok() {
                        written = seq.serialize_element(&ShapeObject {
                            scan,
                            key: None,
                            shape,
                        });
                    }
                });
                written?;
                seq.end()
            }
        }
    }
}

/// A list of (name, shape) pairs, each evaluated as it is serialised.
struct Named<'r, 'a> {
    scan: &'r Scan<'a>,
    key: &'static str,
    shapes: &'r [(Span, Span)],
}

impl Serialize for Named<'_, '_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut seq = ser.serialize_seq(Some(self.shapes.len()))?;
        for &(name, shape) in self.shapes {
            seq.serialize_element(&ShapeObject {
                scan: self.scan,
                key: Some((self.key, name)),
                shape,
            })?;
        }
        seq.end()
    }
}

/// `{"kind": "module", ...}`.
struct ModuleRecord<'r, 'a> {
    scan: &'r Scan<'a>,
    m: &'r ModuleRec,
}

/// `{"parameters": [...], "result": ...}` of an entry layout.
struct EntryLayout<'r, 'a> {
    scan: &'r Scan<'a>,
    parameters: &'r [Span],
    result: Span,
}

impl Serialize for EntryLayout<'_, '_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut map = ser.serialize_map(Some(2))?;
        map.serialize_entry(
            "parameters",
            &ShapeList {
                scan: self.scan,
                shapes: List::Spans(self.parameters),
            },
        )?;
        map.serialize_entry(
            "result",
            &ShapeObject {
                scan: self.scan,
                key: None,
                shape: self.result,
            },
        )?;
        map.end()
    }
}

impl Serialize for ModuleRecord<'_, '_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let (scan, m) = (self.scan, self.m);
        let mut map = ser.serialize_map(None)?;
        map.serialize_entry("kind", "module")?;
        map.serialize_entry("name", &lossy(scan.text(m.name)))?;
        map.serialize_entry("line", &m.line)?;
        map.serialize_entry(
            "entry_computation_layout",
            &m.entry.as_ref().map(|(ps, r)| EntryLayout {
                scan,
                parameters: ps,
                result: *r,
            }),
        )?;
        map.serialize_entry(
            "attributes",
            &Named {
                scan,
                key: "attribute",
                shapes: &m.attributes,
            },
        )?;
        map.end()
    }
}

/// `{"kind": "computation", ...}`.
struct ComputationRecord<'r, 'a> {
    scan: &'r Scan<'a>,
    c: &'r CompRec<'r>,
}

impl Serialize for ComputationRecord<'_, '_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let (scan, c) = (self.scan, self.c);
        let mut map = ser.serialize_map(None)?;
        map.serialize_entry("kind", "computation")?;
        map.serialize_entry("name", &lossy(c.label))?;
        map.serialize_entry("entry", &c.entry)?;
        map.serialize_entry("nested", &c.nested)?;
        map.serialize_entry("line", &c.line)?;
        map.serialize_entry(
            "parameters",
            &Named {
                scan,
                key: "name",
                shapes: &c.params,
            },
        )?;
        map.serialize_entry(
            "result",
            &c.result.map(|shape| ShapeObject {
                scan,
                key: None,
                shape,
            }),
        )?;
        map.end()
    }
}

/// `{"kind": "instruction", ...}`.
struct InstructionRecord<'r, 'a> {
    scan: &'r Scan<'a>,
    i: &'r InstrRec<'r>,
    result: &'r Value,
}

impl Serialize for InstructionRecord<'_, '_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let (scan, i) = (self.scan, self.i);
        let mut map = ser.serialize_map(None)?;
        map.serialize_entry("kind", "instruction")?;
        map.serialize_entry("computation", &i.computation.map(lossy))?;
        map.serialize_entry("line", &i.line)?;
        map.serialize_entry("name", &lossy(scan.text(i.name)))?;
        map.serialize_entry("root", &i.root)?;
        map.serialize_entry("opcode", &lossy(scan.text(i.opcode)))?;
        shape_fields(&mut map, scan, i.result, self.result)?;
        map.serialize_entry(
            "operands",
            &ShapeList {
                scan,
                shapes: List::Found(i.operands),
            },
        )?;
        map.serialize_entry(
            "attributes",
            &Named {
                scan,
                key: "attribute",
                shapes: &i.attributes,
            },
        )?;
        map.end()
    }
}

/// `{"kind": "other", ...}`.
struct OtherRecord<'r, 'a> {
    scan: &'r Scan<'a>,
    line: usize,
    shapes: Shapes<'r>,
}

impl Serialize for OtherRecord<'_, '_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut map = ser.serialize_map(Some(3))?;
        map.serialize_entry("kind", "other")?;
        map.serialize_entry("line", &self.line)?;
        map.serialize_entry(
            "shapes",
            &ShapeList {
                scan: self.scan,
                shapes: List::Found(self.shapes),
            },
        )?;
        map.end()
    }
}

/// `{"kind": "totals", ...}`, the last record.
struct TotalsRecord<'r, 'a>(&'r Scan<'a>);

impl Serialize for TotalsRecord<'_, '_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let scan = self.0;
        let f = &scan.found;
        let mut map = ser.serialize_map(Some(10))?;
        map.serialize_entry("kind", "totals")?;
        map.serialize_entry("instructions", &scan.instructions)?;
        map.serialize_entry("computations", &scan.computations)?;
        map.serialize_entry("shapes", &f.total())?;
        map.serialize_entry("errors", &scan.errors())?;
        map.serialize_entry(
            "found",
            &serde_json::json!({
                "results": f.results,
                "operands": f.operands,
                "attributes": f.attributes,
                "parameters": f.parameters,
                "entry_layout": f.entry_layout,
                "other": f.other,
            }),
        )?;
        map.serialize_entry("memory_spaces", &SpaceTotals(&scan.totals))?;
        map.serialize_entry("entry_parameters", &SpaceTotals(&scan.entry_parameters))?;
        map.serialize_entry("entry_result", &SpaceTotals(&scan.entry_result))?;
        map.serialize_entry("top_level_values", &SpaceTotals(&scan.top_level()))?;
        map.end()
    }
}

/// One list of totals by memory space (`memory_spaces`, `entry_parameters`,
/// ...).
struct SpaceTotals<'r>(&'r Spaces);

impl Serialize for SpaceTotals<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut seq = ser.serialize_seq(Some(self.0.len()))?;
        for (&space, t) in self.0 {
            seq.serialize_element(&SpaceTotalObject(space, t))?;
        }
        seq.end()
    }
}

/// One memory space of the totals.
struct SpaceTotalObject<'r>(i64, &'r SpaceTotal);

impl Serialize for SpaceTotalObject<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let (space, t) = (self.0, self.1);
        let mut map = ser.serialize_map(Some(5))?;
        map.serialize_entry("memory_space", &space)?;
        map.serialize_entry("label", &space_label(space))?;
        map.serialize_entry("bytes", &t.bytes)?;
        map.serialize_entry("arrays", &t.arrays)?;
        map.serialize_entry("unknown_arrays", &t.unknown)?;
        map.end()
    }
}

/// JSON lines, written as the records come.
#[derive(Default)]
pub struct Json;

impl Json {
    /// Writes the totals record (after the last record).
    pub fn write_totals(out: &mut dyn Write, scan: &Scan) -> io::Result<()> {
        line(out, &TotalsRecord(scan))
    }
}

impl Render for Json {
    fn module(&mut self, out: &mut dyn Write, scan: &Scan, m: &ModuleRec) -> io::Result<()> {
        line(out, &ModuleRecord { scan, m })
    }

    fn computation(&mut self, out: &mut dyn Write, scan: &Scan, c: &CompRec) -> io::Result<()> {
        line(out, &ComputationRecord { scan, c })
    }

    fn instruction(
        &mut self,
        out: &mut dyn Write,
        scan: &Scan,
        i: &InstrRec,
        result: &Value,
    ) -> io::Result<()> {
        line(out, &InstructionRecord { scan, i, result })
    }

    fn other(
        &mut self,
        out: &mut dyn Write,
        scan: &Scan,
        line_no: usize,
        shapes: Shapes<'_>,
    ) -> io::Result<()> {
        line(
            out,
            &OtherRecord {
                scan,
                line: line_no,
                shapes,
            },
        )
    }
}
