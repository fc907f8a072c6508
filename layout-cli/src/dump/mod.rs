//! `layout scan DIR`: a dump directory as XLA writes it with
//! `--xla_dump_to`, read for its buffer assignments.
//!
//! # Input
//!
//! The files directly in the directory (not its subdirectories; names
//! that are not UTF-8 are not XLA's and are passed over), by name:
//!
//! - `P-buffer-assignment.txt`: a module's buffer assignment
//!   ([`assignment`]); one module per such file, in name order;
//! - `P-buffer-assignment-values.txt`: where newer XLA writes `Total bytes
//!   used:` (older XLA writes it into the assignment itself);
//! - `P.txt`: the module's HLO after optimizations, read with
//!   [`crate::hlo`] for the opcode and computation of each value's
//!   instruction and for the module's name (optional);
//! - every other `*.txt` except XLA's `-memory-usage-report` and
//!   `-live-range` files is HLO without a buffer assignment (before
//!   optimizations, or a module compiled without one): counted and named,
//!   not read (`layout scan FILE` reads one).
//!
//! # What is computed
//!
//! For each value of each allocation, its shape (with layout, as the
//! assignment prints it) is measured by the crate's own functions
//! ([`crate::report::evaluate`]: `ArrayShape::size_in_bytes`, tiles and
//! padding included, and the unpadded sizes): our size beside the
//! compiler's, the padding (ours minus unpadded), and whether the two
//! sizes agree. A tuple-shaped value is the tuple's index table (the
//! compiler counts its pointers; its elements are values of their own), so
//! it is listed but not compared. Each allocation is also rebuilt from our
//! sizes ([`Module::extent`]: the furthest end of its values). For each
//! module: the allocations, their sizes summed, the compiler's `Total bytes
//! used:` and the sum of the rebuilt allocations, beside the values' sizes
//! summed, the compiler's and ours (values that share an allocation's
//! bytes each count, so these can exceed the total).
//!
//! # Limits
//!
//! One module at a time is read whole (its assignment and HLO text), and
//! its HLO instruction names are held while its values are looked up;
//! every module's values are held until the output is written.
//!
//! # Output
//!
//! Without `--json`, one block per module: a heading naming the files, a
//! table of allocations each followed by its values (`VALUE OPCODE OFFSET
//! XLA BYTES OUR BYTES PADDING SHAPE`, the shape last and verbatim; a
//! `*` marks a size that differs from the compiler's), then the module's
//! totals (and the allocations by memory space, their `color`, when there
//! is more than one); last, the directory's totals. With `--json`, one
//! JSON object per line: a `{"kind": "module", ...}` per module
//! ([`write::module_json`]) and a last `{"kind": "directory", ...}`.
//!
//! # Exit status
//!
//! - 0: every buffer assignment was read, every value's shape parsed;
//! - 1: no buffer assignment in the directory (nothing is written), a line
//!   that could not be read (each is reported on stderr with its file and
//!   line; the rest is read and written), a value shape that failed to
//!   parse, a file without `Total bytes used:` (cut off?) or whose
//!   allocations do not add up to it;
//! - 2: the directory, or a file in it, could not be read;
//! - 3: the output could not be written.
//!
//! Uses: [`crate::hlo`] (the HLO files), [`crate::report`] (shape sizes),
//! [`crate::format`], [`crate::output`], [`crate::exit`].

pub mod assignment;
pub mod write;

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use crate::hlo::{self, CompRec, InstrRec, ModuleRec, Shapes, Sink};
use crate::output;
use crate::report::{self, ShapeType};
use assignment::{Assignment, Malformed};

/// The ending of a buffer-assignment file's name.
pub const ASSIGNMENT: &str = "-buffer-assignment.txt";
/// The ending of the file newer XLA writes `Total bytes used:` into.
pub const VALUES: &str = "-buffer-assignment-values.txt";
/// XLA's other `.txt` files that are not HLO.
const NOT_HLO: &[&str] = &[
    ASSIGNMENT,
    VALUES,
    "-memory-usage-report.txt",
    "-live-range.txt",
];

/// What the HLO says about a value's instruction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Instruction {
    /// Its opcode.
    pub opcode: String,
    /// The computation holding it.
    pub computation: String,
}

/// One value, measured.
#[derive(Debug)]
pub struct Measured {
    /// From the HLO, when there is one and it names the instruction.
    pub instruction: Option<Instruction>,
    /// What the shape amounts to by our functions.
    pub value: report::Value,
}

impl Measured {
    /// Whether our size equals the compiler's `size`: `None` for anything
    /// but an array (a tuple's index table) or a size we cannot compute.
    pub fn agrees(&self, size: u64) -> Option<bool> {
        if self.value.shape_type != Some(ShapeType::Array) {
            return None;
        }
        self.value.bytes.map(|b| b == size)
    }
}

/// One module: its buffer assignment, measured.
#[derive(Debug)]
pub struct Module {
    /// The buffer-assignment file's name.
    pub file: String,
    /// The `-values` file read for the total, if any.
    pub values_file: Option<String>,
    /// The HLO file read, if any.
    pub hlo_file: Option<String>,
    /// The `HloModule` name in it.
    pub name: Option<String>,
    /// The assignment as read.
    pub assignment: Assignment,
    /// `Total bytes used:`, from either file.
    pub total: Option<u64>,
    /// One entry per value of each allocation, in the same order.
    pub measured: Vec<Vec<Measured>>,
    /// The problems: (file name, line, message).
    pub errors: Vec<(String, Malformed)>,
}

/// A module's totals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// The allocations' sizes by color (memory space), colors in
    /// increasing order.
    pub by_color: BTreeMap<i64, u64>,
    /// Allocations.
    pub allocations: u64,
    /// Their sizes summed.
    pub allocated: u64,
    /// Their sizes by our value sizes ([`Module::extent`]; the compiler's
    /// size for an allocation without values).
    pub ours_allocated: u64,
    /// Values.
    pub values: u64,
    /// Array values (the ones compared).
    pub arrays: u64,
    /// The compiler's value sizes summed (every value).
    pub compiler_value_bytes: u64,
    /// The array values' sizes, by the compiler.
    pub compiler_array_bytes: u64,
    /// Ours (arrays of known size).
    pub bytes: u64,
    /// Our unpadded sizes.
    pub unpadded: u64,
    /// The unpadded sizes as the compiler's memory report counts them
    /// (`ArrayShape::unpacked_size_in_bytes`: `E(n)` not packed).
    pub compiler_unpadded: u64,
    /// Our padding.
    pub padding: u64,
    /// Arrays whose sizes agree.
    pub agree: u64,
    /// Arrays whose sizes differ.
    pub differ: u64,
}

impl Totals {
    /// Adds `other`.
    pub fn add(&mut self, o: &Totals) {
        for (&color, &bytes) in &o.by_color {
            let sum = self.by_color.entry(color).or_default();
            *sum = sum.saturating_add(bytes);
        }
        self.allocations += o.allocations;
        self.allocated = self.allocated.saturating_add(o.allocated);
        self.ours_allocated = self.ours_allocated.saturating_add(o.ours_allocated);
        self.values += o.values;
        self.arrays += o.arrays;
        self.compiler_value_bytes = self
            .compiler_value_bytes
            .saturating_add(o.compiler_value_bytes);
        self.compiler_array_bytes = self
            .compiler_array_bytes
            .saturating_add(o.compiler_array_bytes);
        self.bytes = self.bytes.saturating_add(o.bytes);
        self.unpadded = self.unpadded.saturating_add(o.unpadded);
        self.compiler_unpadded = self.compiler_unpadded.saturating_add(o.compiler_unpadded);
        self.padding = self.padding.saturating_add(o.padding);
        self.agree += o.agree;
        self.differ += o.differ;
    }
}

impl Module {
    /// The size of allocation `i` by our value sizes: the furthest end of
    /// its values (offset plus our size; the compiler's size for a value
    /// we do not compare, such as a tuple's index table, or cannot
    /// compute). `None` for an allocation without values.
    pub fn extent(&self, i: usize) -> Option<u64> {
        let alloc = self.assignment.allocations.get(i)?;
        let measured = self.measured.get(i)?;
        alloc
            .values
            .iter()
            .zip(measured)
            .map(|(v, m)| {
                let size = match m.agrees(v.size) {
                    Some(_) => m.value.bytes.unwrap_or(v.size),
                    None => v.size,
                };
                v.offset.saturating_add(size)
            })
            .max()
    }

    /// The module's totals.
    pub fn totals(&self) -> Totals {
        let mut t = Totals {
            allocations: self.assignment.allocations.len() as u64,
            allocated: self.assignment.allocated(),
            ..Totals::default()
        };
        for (i, a) in self.assignment.allocations.iter().enumerate() {
            let sum = t.by_color.entry(a.color).or_default();
            *sum = sum.saturating_add(a.size);
            let ours = self.extent(i).unwrap_or(a.size);
            t.ours_allocated = t.ours_allocated.saturating_add(ours);
        }
        for (alloc, measured) in self.assignment.allocations.iter().zip(&self.measured) {
            for (v, m) in alloc.values.iter().zip(measured) {
                t.values += 1;
                t.compiler_value_bytes = t.compiler_value_bytes.saturating_add(v.size);
                if m.value.shape_type == Some(ShapeType::Array) {
                    t.arrays += 1;
                    t.compiler_array_bytes = t.compiler_array_bytes.saturating_add(v.size);
                }
                match m.agrees(v.size) {
                    Some(true) => t.agree += 1,
                    Some(false) => t.differ += 1,
                    None => continue,
                }
                t.bytes = t.bytes.saturating_add(m.value.bytes.unwrap_or(0));
                t.unpadded = t.unpadded.saturating_add(m.value.unpadded.unwrap_or(0));
                t.compiler_unpadded = t
                    .compiler_unpadded
                    .saturating_add(m.value.compiler_unpadded.unwrap_or(0));
                t.padding = t.padding.saturating_add(m.value.padding().unwrap_or(0));
            }
        }
        t
    }
}

/// A dump directory, read.
#[derive(Debug, Default)]
pub struct Dump {
    /// The modules with a buffer assignment, in name order.
    pub modules: Vec<Module>,
    /// HLO files without a buffer assignment, in name order.
    pub hlo_only: Vec<String>,
    /// Files that could not be read: (name, why).
    pub unreadable: Vec<(String, String)>,
}

/// Collects each instruction's opcode and computation by name (without
/// `%`), and the module's name.
struct Names<'s> {
    src: &'s [u8],
    module: Option<String>,
    instructions: HashMap<String, Instruction>,
}

impl Names<'_> {
    fn text(&self, s: hlo::Span) -> String {
        let bytes = self.src.get(s.start..s.end).unwrap_or_default();
        report::lossy(bytes).into_owned()
    }
}

impl Sink for Names<'_> {
    fn module(&mut self, m: &ModuleRec) {
        if self.module.is_none() {
            self.module = Some(self.text(m.name));
        }
    }
    fn computation(&mut self, _: &CompRec) {}
    fn instruction(&mut self, i: &InstrRec) {
        let name = self.text(i.name);
        let instruction = Instruction {
            opcode: self.text(i.opcode),
            computation: report::lossy(i.computation.unwrap_or_default())
                .trim_start_matches('%')
                .to_string(),
        };
        let name = name.trim_start_matches('%').to_string();
        self.instructions.entry(name).or_insert(instruction);
    }
    fn other(&mut self, _: usize, _: Shapes<'_>) {}
    fn stopped(&self) -> bool {
        false
    }
}

/// The module name and instructions of the HLO text `src`.
fn names(src: &[u8]) -> (Option<String>, HashMap<String, Instruction>) {
    let mut names = Names {
        src,
        module: None,
        instructions: HashMap::new(),
    };
    hlo::walk(src, &mut names);
    (names.module, names.instructions)
}

/// Whether the file `name` is HLO text by its name.
fn is_hlo(name: &str) -> bool {
    name.ends_with(".txt") && !NOT_HLO.iter().any(|e| name.ends_with(e))
}

/// Reads the dump directory `dir`. `Err` when the directory cannot be
/// listed.
pub fn read(dir: &Path) -> std::io::Result<Dump> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if path.is_file() {
            // XLA's names are ASCII: a name that is not UTF-8 is not one.
            if let Ok(name) = entry.file_name().into_string() {
                files.push(name);
            }
        }
    }
    files.sort();
    let mut dump = Dump::default();
    let mut paired = Vec::new();
    for file in &files {
        let Some(stem) = file.strip_suffix(ASSIGNMENT) else {
            continue;
        };
        let bytes = match std::fs::read(dir.join(file)) {
            Ok(b) => b,
            Err(e) => {
                dump.unreadable.push((file.clone(), e.to_string()));
                continue;
            }
        };
        let mut module = Module {
            file: file.clone(),
            values_file: None,
            hlo_file: None,
            name: None,
            assignment: assignment::read(&String::from_utf8_lossy(&bytes)),
            total: None,
            measured: Vec::new(),
            errors: Vec::new(),
        };
        let values = format!("{stem}{VALUES}");
        if files.contains(&values) {
            match std::fs::read(dir.join(&values)) {
                Ok(b) => {
                    match assignment::read_total(&String::from_utf8_lossy(&b)) {
                        Some(Ok((n, _))) => module.total = Some(n),
                        Some(Err(e)) => module.errors.push((values.clone(), e)),
                        None => {}
                    }
                    module.values_file = Some(values);
                }
                Err(e) => dump.unreadable.push((values, e.to_string())),
            }
        }
        let hlo_name = format!("{stem}.txt");
        let mut instructions = HashMap::new();
        if files.contains(&hlo_name) {
            paired.push(hlo_name.clone());
            match std::fs::read(dir.join(&hlo_name)) {
                Ok(src) => {
                    (module.name, instructions) = names(&src);
                    module.hlo_file = Some(hlo_name);
                }
                Err(e) => dump.unreadable.push((hlo_name, e.to_string())),
            }
        }
        measure(&mut module, &instructions);
        dump.modules.push(module);
    }
    dump.hlo_only = files
        .iter()
        .filter(|f| is_hlo(f) && !paired.contains(f))
        .cloned()
        .collect();
    Ok(dump)
}

/// Measures every value of `module` and checks its total.
fn measure(module: &mut Module, instructions: &HashMap<String, Instruction>) {
    let file = &module.file;
    let a = &module.assignment;
    let mut errors: Vec<(String, Malformed)> =
        a.errors.iter().map(|e| (file.clone(), e.clone())).collect();
    for alloc in &a.allocations {
        let mut row = Vec::new();
        for v in &alloc.values {
            let value = report::evaluate(v.shape.as_bytes());
            if let Some(e) = &value.error {
                errors.push((
                    file.clone(),
                    Malformed {
                        line: v.line,
                        message: format!("the shape of <{} {}> does not parse: {e}", v.id, v.name),
                    },
                ));
            }
            row.push(Measured {
                instruction: instructions.get(&v.name).cloned(),
                value,
            });
        }
        module.measured.push(row);
    }
    if let Some((n, _)) = a.total {
        module.total = Some(n);
    }
    match module.total {
        None if a.found => errors.push((
            file.clone(),
            Malformed {
                line: 0,
                message: "no `Total bytes used:` line, here or in a -values file beside it (is the file cut off?)".into(),
            },
        )),
        Some(total) if total != a.allocated() => errors.push((
            file.clone(),
            Malformed {
                line: a.total.map_or(0, |t| t.1),
                message: format!(
                    "the allocations add up to {} bytes, but `Total bytes used:` says {total} (is the file cut off?)",
                    a.allocated()
                ),
            },
        )),
        _ => {}
    }
    if !a.found {
        errors.push((
            file.clone(),
            Malformed {
                line: 0,
                message: "no `BufferAssignment:` header and no allocation line".into(),
            },
        ));
    }
    module.errors.extend(errors);
}

/// Runs `layout scan DIR`.
pub fn run(dir: &str, json: bool) -> ExitCode {
    let dump = match read(Path::new(dir)) {
        Ok(d) => d,
        Err(e) => {
            output::warn(format_args!(
                "layout scan: cannot read the directory {dir}: {e}\n"
            ));
            return ExitCode::from(crate::exit::UNREADABLE);
        }
    };
    if dump.modules.is_empty() && dump.unreadable.is_empty() {
        let hint = match dump.hlo_only.len() {
            0 => String::new(),
            n => {
                format!("; it holds {n} HLO file(s), which `layout scan FILE` reads one at a time")
            }
        };
        output::warn(format_args!(
            "layout scan: no buffer assignment in {dir} (no *{ASSIGNMENT} file){hint}\n"
        ));
        return ExitCode::from(crate::exit::INVALID);
    }
    let mut out = output::stdout();
    // A write error is kept by `out`, and `finish` reports it.
    let _ = if json {
        write::json(&mut out, dir, &dump)
    } else {
        write::table(&mut out, dir, &dump)
    };
    let flushed = out.flush().is_ok();
    let mut code = crate::exit::SUCCESS;
    for m in &dump.modules {
        for (file, e) in &m.errors {
            code = crate::exit::INVALID;
            if flushed {
                match e.line {
                    0 => output::warn(format_args!("layout scan: {file}: {}\n", e.message)),
                    n => output::warn(format_args!("layout scan: {file}:{n}: {}\n", e.message)),
                }
            }
        }
    }
    for (file, why) in &dump.unreadable {
        code = crate::exit::UNREADABLE;
        if flushed {
            output::warn(format_args!("layout scan: cannot read {file}: {why}\n"));
        }
    }
    out.finish("scan", ExitCode::from(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hlo_files_by_name() {
        assert!(is_hlo("module_0000.jit_f.before_optimizations.txt"));
        assert!(is_hlo("module_0000.jit_f.cpu_after_optimizations.txt"));
        for other in [
            "module_0000.jit_f.cpu_after_optimizations-buffer-assignment.txt",
            "module_0000.jit_f.cpu_after_optimizations-buffer-assignment-values.txt",
            "module_0000.jit_f.cpu_after_optimizations-memory-usage-report.txt",
            "module_0000.jit_f.cpu_after_optimizations-live-range.txt",
            "module_0000.jit_f.debug_options",
            "module_0000.jit_f.ir-no-opt.ll",
        ] {
            assert!(!is_hlo(other), "{other}");
        }
    }

    fn module(text: &str, hlo: &str) -> Module {
        let (name, instructions) = names(hlo.as_bytes());
        let mut m = Module {
            file: "m-buffer-assignment.txt".into(),
            values_file: None,
            hlo_file: None,
            name,
            assignment: assignment::read(text),
            total: None,
            measured: Vec::new(),
            errors: Vec::new(),
        };
        measure(&mut m, &instructions);
        m
    }

    #[test]
    fn extents_totals_and_instructions() {
        let m = module(
            "BufferAssignment:
allocation 0: size 4608, preallocated-temp:
 value: <1 a @0> (size=4096,offset=0): f32[3,5]{1,0:T(8,128)}
 value: <2 t{} @0> (size=16,offset=4096): (f32[3,5]{1,0:T(8,128)}, s32[])
 value: <3 b @0> (size=512,offset=4096): f32[]{:T(128)}
allocation 1: size 64, color 1:
 value: <4 c @1> (size=60,offset=0): f32[15]{0}
allocation 2: size 8:

Total bytes used: 4680 (4.6KiB)
",
            "HloModule m\n\nENTRY %e {\n  %a = f32[3,5]{1,0:T(8,128)} parameter(0)\n  ROOT %t = (f32[3,5]{1,0:T(8,128)}, s32[]) tuple(%a, %a)\n}\n",
        );
        assert_eq!(m.errors, vec![]);
        assert_eq!(m.name.as_deref(), Some("m"));
        assert_eq!(m.extent(0), Some(4608));
        // Our size is 60, short of the allocation's 64.
        assert_eq!(m.extent(1), Some(60));
        assert_eq!(m.extent(2), None);
        assert_eq!(m.extent(3), None);
        let a = &m.measured[0][0];
        assert_eq!(
            a.instruction,
            Some(Instruction {
                opcode: "parameter".into(),
                computation: "e".into()
            })
        );
        assert_eq!(a.agrees(4096), Some(true));
        assert_eq!(m.measured[0][1].agrees(16), None);
        assert_eq!(m.measured[0][2].instruction, None);
        let t = m.totals();
        assert_eq!(
            (t.allocations, t.allocated, t.ours_allocated),
            (3, 4680, 4676)
        );
        assert_eq!((t.values, t.arrays, t.agree, t.differ), (4, 3, 3, 0));
        assert_eq!(t.compiler_value_bytes, 4096 + 16 + 512 + 60);
        assert_eq!((t.bytes, t.unpadded, t.padding), (4668, 124, 4544));
        assert_eq!(
            t.by_color.into_iter().collect::<Vec<_>>(),
            vec![(0, 4616), (1, 64)]
        );
    }

    #[test]
    fn a_total_the_allocations_do_not_make() {
        let m = module(
            "BufferAssignment:\nallocation 0: size 8:\n value: <1 a> (size=8,offset=0): f32[2]{0}\nTotal bytes used: 9 (9B)\n",
            "",
        );
        assert_eq!(m.errors.len(), 1);
        assert_eq!(m.errors[0].1.line, 4);
        assert!(m.errors[0].1.message.contains("add up to 8 bytes"));
        let m = module("allocation 0: size 8:\n", "");
        assert_eq!(m.errors.len(), 1);
        assert_eq!(m.errors[0].1.line, 0);
        let m = module("nothing\n", "");
        assert!(m.errors[0]
            .1
            .message
            .contains("no `BufferAssignment:` header"));
    }
}
