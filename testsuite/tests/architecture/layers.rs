//! The layers of each crate and what each may use: the one allow-list that
//! the architecture test checks the sources against and that
//! `docs/architecture.md` shows as tables (a test keeps the two equal).
//!
//! To add a module: add one line `("name", &[the modules it may use])` at
//! its place in the pipeline, and the same row to the crate's table in
//! `docs/architecture.md`. A module may always use itself; everything else
//! it uses must be listed.

/// One module of a crate's pipeline and the modules it may use.
pub type Layer = (&'static str, &'static [&'static str]);

/// layout-core, in pipeline order.
pub const CORE: &[Layer] = &[
    ("base", &[]),
    ("model", &["base"]),
    ("text", &["base", "model"]),
    ("rules", &["base", "model", "text"]),
    ("plan", &["base", "model"]),
    ("math", &["base", "model", "text", "rules", "plan"]),
];

/// layout-macros: close-name suggestions, then tokens -> valid shape ->
/// code.
pub const MACROS: &[Layer] = &[
    ("suggest", &[]),
    ("ast", &["suggest"]),
    ("attrs", &["suggest", "ast"]),
    ("valid", &["suggest", "ast"]),
    ("codegen", &["ast", "valid"]),
    ("expand", &["ast", "attrs", "valid", "codegen"]),
];

/// layout-cli: number formatting and output, error rendering, HLO and
/// `.npy` reading, the report model, renderers, then the commands.
pub const CLI: &[Layer] = &[
    ("exit", &[]),
    ("format", &[]),
    ("output", &["exit"]),
    ("people", &["output", "exit"]),
    ("cleanup", &["exit"]),
    ("outfile", &["cleanup"]),
    ("hlo", &[]),
    ("npy", &[]),
    ("report", &["hlo"]),
    ("render", &["format", "hlo", "report"]),
    ("machine", &["format", "output", "people"]),
    ("dump", &["format", "output", "hlo", "report", "exit"]),
    (
        "scan",
        &[
            "output", "people", "hlo", "report", "render", "exit", "dump",
        ],
    ),
    ("explain", &["format", "output", "people", "machine"]),
    (
        "draw",
        &[
            "format", "output", "people", "machine", "explain", "outfile",
        ],
    ),
    (
        "relayout",
        &["format", "output", "people", "npy", "outfile", "exit"],
    ),
    ("oom", &["output", "people"]),
];
