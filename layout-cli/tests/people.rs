//! The commands for people: explain, draw, errors with carets, exit codes.

use std::process::{Command, Output};

fn layout(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_layout"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn field<'a>(text: &'a str, label: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.trim_start().strip_prefix(label))
        .unwrap_or_else(|| panic!("no `{label}` in:\n{text}"))
        .trim()
}

#[test]
fn explain_names_every_part_of_the_seed_example() {
    let out = layout(&[
        "explain",
        "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
        "--index",
        "3,0,13,300",
    ]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert_eq!(
        field(&text, "shape"),
        "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}"
    );
    assert_eq!(field(&text, "element"), "bf16: 16 bits, 2 byte(s) each");
    assert_eq!(field(&text, "dims"), "p=8 z=1 y=1280 x=16384");
    assert!(field(&text, "order").starts_with("dimension 3 (x) is minor-most"));
    assert_eq!(
        field(&text, "physical"),
        "[1, 8, 1280, 16384] (major to minor)"
    );
    assert_eq!(
        field(&text, "tile 0"),
        "(8,128) -> [1, 8, 160, 128, 8, 128]"
    );
    assert_eq!(
        field(&text, "tile 1"),
        "(2,1) -> [1, 8, 160, 128, 4, 128, 2, 1]"
    );
    assert_eq!(
        field(&text, "allocated"),
        "167,772,160 slots (0.0% padding)"
    );
    assert_eq!(field(&text, "size"), "335,544,320 bytes (320.0 MiB)");
    assert_eq!(field(&text, "memory"), "S(1): fast memory (VMEM on TPU)");
    assert_eq!(
        field(&text, "index"),
        "[3, 0, 13, 300] -> element offset 63,048,281 (byte 126,096,562)"
    );
    assert_eq!(
        field(&text, "in tile"),
        "[0, 3, 1, 2] of tile level 0, at [5, 44] within it"
    );
}

#[test]
fn explain_orders_in_words_and_padding_share() {
    let row = stdout(&layout(&["explain", "f32[3,5]{1,0:T(2,2)}"]));
    assert!(field(&row, "order").starts_with("row-major"));
    assert_eq!(field(&row, "allocated"), "24 slots (37.5% padding)");
    assert_eq!(
        field(&row, "tile strides"),
        "[12, 4, 2, 1] elements per step of each tiled dimension"
    );
    let col = stdout(&layout(&["explain", "f32[2,3]{0,1:S(5)}"]));
    assert!(field(&col, "order").starts_with("column-major"));
    assert_eq!(
        field(&col, "strides"),
        "[1, 2] elements per step of each dimension"
    );
    assert_eq!(field(&col, "memory"), "S(5): host memory");
    let odd = stdout(&layout(&["explain", "f32[2]{0:S(3)}"]));
    assert_eq!(
        field(&odd, "memory"),
        "S(3): a device-specific memory space"
    );
}

#[test]
fn explain_tuples_element_by_element() {
    let text = stdout(&layout(&[
        "explain",
        "(f32[2,3]{0,1}, s4[8]{0:E(4)}, token[])",
    ]));
    assert_eq!(field(&text, "elements"), "3");
    assert!(text.contains("[0]\n  shape        f32[2,3]{0,1}"));
    assert!(text.contains("[1]\n  shape        s4[8]{0:E(4)}"));
    assert!(text.contains("packed into 4 bits each by E(4)"));
    assert!(text.contains("[2]\n  token[]"));
}

#[test]
fn errors_show_a_caret_and_exit_1() {
    let out = layout(&["explain", "f32[2,3]{1,0:T(2,*)}"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[0],
        "error: tile 0 ends with `*`, which has no more minor dimension to combine with"
    );
    // The input with its line number, the caret under the `*`, the help;
    // no colour codes when stderr is not a terminal.
    assert_eq!(lines[2], "1 | f32[2,3]{1,0:T(2,*)}");
    assert_eq!(lines[3], "  |                  ^");
    assert!(lines[5].starts_with("  = help: "), "{err}");
    assert!(!err.contains('\u{1b}'));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(layout(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(layout(&["draw"]).status.code(), Some(2));
}

#[test]
fn draw_prints_the_grid_and_the_strip() {
    let out = layout(&["draw", "f32[2,3]{0,1}"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let rows: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows[1], ["0", "1", "2"]);
    assert_eq!(rows[2], ["0", "0", "2", "4"]);
    assert_eq!(rows[3], ["1", "1", "3", "5"]);
    assert_eq!(text.lines().last().unwrap(), "memory order: a d b e c f");
    // Not a terminal: no colour codes.
    assert!(!text.contains('\u{1b}'));
}

#[test]
fn draw_writes_svg() {
    let dir = std::env::temp_dir().join(format!("layout-draw-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fig2.svg");
    let out = layout(&[
        "draw",
        "f32[4,8]{1,0:T(2,4)(2,1)}",
        "--svg",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(svg.matches("class=\"element\"").count(), 32);
    // Figure 2's first row, in order.
    let offsets: Vec<&str> = svg
        .lines()
        .filter(|l| l.contains("text-anchor=\"middle\" fill=\"#000000\""))
        .take(8)
        .map(|l| {
            l.rsplit_once('>')
                .unwrap()
                .0
                .rsplit_once('>')
                .unwrap()
                .1
                .trim_end_matches("</text")
        })
        .collect();
    assert_eq!(offsets, ["0", "2", "4", "6", "8", "10", "12", "14"]);
    // Balanced elements: every opened tag is closed.
    assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn draw_rejects_bad_requests() {
    let out = layout(&["draw", "f32[2,3]", "--rows", "0", "--cols", "0"]);
    assert_eq!(out.status.code(), Some(1));
    let out = layout(&["draw", "f32[?,3]"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr).unwrap().contains("`?`"));
}

/// `335544320` as `335,544,320`, for building expected lines.
fn grouped(n: u64) -> String {
    xla_layout_cli::format::grouped(n)
}

#[test]
fn explain_shows_unpadded_size_and_padding_of_the_seed_example() {
    let seed = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
    let text = stdout(&layout(&["explain", seed]));
    let shape = layout_core::parse(seed).unwrap();
    let layout_core::Shape::Array(a) = shape else {
        panic!("not an array")
    };
    let allocated = a.size_in_bytes().unwrap();
    let unpadded = a.unpadded_size_in_bytes().unwrap();
    // bf16: elements x 2 bytes.
    assert_eq!(unpadded, a.element_count().unwrap() * 2);
    let padding = allocated - unpadded;
    assert!(field(&text, "unpadded").starts_with(&format!("{} bytes", grouped(unpadded))));
    assert!(field(&text, "padding").starts_with(&format!("{} bytes", grouped(padding))));
    // The line starts with `unpadded`, beside `size`.
    let lines: Vec<&str> = text.lines().collect();
    let size = lines.iter().position(|l| l.starts_with("size ")).unwrap();
    assert!(lines[size + 1].starts_with("unpadded "));
}

#[test]
fn explain_shows_heavy_padding_of_a_small_tiled_array() {
    let text = stdout(&layout(&["explain", "f32[3,5]{1,0:T(8,128)}"]));
    assert_eq!(field(&text, "size"), "4,096 bytes (4.0 KiB)");
    assert_eq!(field(&text, "unpadded"), "60 bytes");
    // 4096 - 60 = 4036 bytes; 4036 / 4096 = 98.54%.
    assert_eq!(
        field(&text, "padding"),
        "4,036 bytes (3.9 KiB), 98.5% of the allocation"
    );
    let untiled = stdout(&layout(&["explain", "f32[3,5]{1,0}"]));
    assert_eq!(field(&untiled, "unpadded"), "60 bytes");
    assert_eq!(
        field(&untiled, "padding"),
        "0 bytes, 0.0% of the allocation"
    );
}

#[test]
fn explain_an_empty_array_has_no_padding() {
    let out = layout(&["explain", "f32[0,5]{1,0:T(8,128)}"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert_eq!(field(&text, "unpadded"), "0 bytes");
    assert!(field(&text, "padding").ends_with(", 0.0% of the allocation"));
}

#[test]
fn explain_totals_the_arrays_of_a_tuple() {
    let text = stdout(&layout(&[
        "explain",
        "(f32[3,5]{1,0:T(8,128)}, (s4[8]{0:E(4)}, token[]), f32[2,3]{0,1})",
    ]));
    // 4096 + 4 + 24 allocated; 60 + 4 + 24 unpadded.
    assert_eq!(field(&text, "total size"), "4,124 bytes (4.0 KiB)");
    assert_eq!(field(&text, "total unpadded"), "88 bytes");
    // 4036 / 4124 = 97.87%.
    assert_eq!(
        field(&text, "total padding"),
        "4,036 bytes (3.9 KiB), 97.9% of the allocation"
    );
    let unknown = stdout(&layout(&["explain", "(f32[?,3], f32[2])"]));
    assert_eq!(
        field(&unknown, "total size"),
        "unknown until the `?` dimensions are sized"
    );
}

fn explain_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["explain", "--json"];
    all.extend_from_slice(args);
    let out = layout(&all);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "one object on one line: {text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn explain_json_has_the_fields_of_the_text() {
    let seed = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
    let v = explain_json(&[seed, "--index", "3,0,13,300"]);
    let layout_core::Shape::Array(a) = layout_core::parse(seed).unwrap() else {
        panic!("not an array")
    };
    let plan = layout_core::Plan::new(&a).unwrap();
    let allocated = a.size_in_bytes().unwrap();
    let unpadded = a.unpadded_size_in_bytes().unwrap();
    assert_eq!(
        v,
        serde_json::json!({
            "shape": "array",
            "canonical": seed,
            "element_type": "bf16",
            "element_bits": 16,
            "dims": [8, 1, 1280, 16384],
            "layout": [3, 2, 0, 1],
            "tiles": [[8, 128], [2, 1]],
            "sizes": {
                "elements": a.element_count().unwrap(),
                "allocated_elements": plan.allocated_elements(),
                "unpadded_bytes": unpadded,
                "compiler_unpadded_bytes": a.unpacked_size_in_bytes().unwrap(),
                "size_in_bytes": allocated,
                "padding_bytes": allocated - unpadded,
                "padding_percent": 0.0,
            },
            "index": [3, 0, 13, 300],
            "offset": 63_048_281,
            "byte_offset": 126_096_562,
            "memory_space": 1,
        })
    );
}

#[test]
fn explain_shows_the_compilers_unpadded_figure_beside_ours() {
    // The TPU report: 64.00M unpadded for 256.00M, a 4.0x expansion.
    let out = layout(&["explain", "pred[64,512,2048]{2,1,0:T(8,128)E(32)}"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(field(&text, "unpadded "), "268,435,456 bytes (256.0 MiB)");
    assert_eq!(
        field(&text, "unpadded (as the compiler reports it)"),
        "67,108,864 bytes (64.0 MiB), 4.0x expansion"
    );
    // Sub-byte types: one byte each for the compiler, packed for ByteSizeOf.
    let v = explain_json(&["s4[8]{0:E(4)}"]);
    assert_eq!(v["sizes"]["unpadded_bytes"], 4);
    assert_eq!(v["sizes"]["compiler_unpadded_bytes"], 8);
    let t = explain_json(&["(pred[4]{0:E(32)}, f32[2])"]);
    assert_eq!(t["sizes"]["compiler_unpadded_bytes"], 4 + 8);
    assert_eq!(t["sizes"]["unpadded_bytes"], 16 + 8);
}

#[test]
fn explain_json_sizes_of_a_padded_array_and_a_tuple() {
    let v = explain_json(&["f32[3,5]{1,0:T(8,128)}"]);
    let sizes = &v["sizes"];
    assert_eq!(sizes["elements"], 15);
    assert_eq!(sizes["allocated_elements"], 1024);
    assert_eq!(sizes["unpadded_bytes"], 60);
    assert_eq!(sizes["size_in_bytes"], 4096);
    assert_eq!(sizes["padding_bytes"], 4036);
    let percent = sizes["padding_percent"].as_f64().unwrap();
    assert!((percent - 4036.0 * 100.0 / 4096.0).abs() < 1e-9);
    assert!(v.get("offset").is_none());

    let t = explain_json(&["(f32[3,5]{1,0:T(8,128)}, (s4[8]{0:E(4)}, token[]), f32[2,3]{0,1})"]);
    assert_eq!(t["shape"], "tuple");
    assert_eq!(t["elements"].as_array().unwrap().len(), 3);
    assert_eq!(
        t["elements"][1]["elements"][0]["tiles"],
        serde_json::json!([])
    );
    assert_eq!(t["elements"][1]["elements"][1]["shape"], "token");
    assert_eq!(t["sizes"]["size_in_bytes"], 4096 + 4 + 24);
    assert_eq!(t["sizes"]["unpadded_bytes"], 60 + 4 + 24);
    assert_eq!(t["sizes"]["padding_bytes"], 4036);

    let unknown = explain_json(&["(f32[?,3], f32[2])"]);
    assert!(unknown["sizes"].is_null());
    assert_eq!(unknown["elements"][0]["dims"], serde_json::json!(["?", 3]));
}

#[test]
fn explain_json_errors_are_json_with_status_1() {
    for args in [
        vec!["explain", "--json", "f32[3"],
        vec!["explain", "--json", "f32[3]", "--index", "3"],
        vec!["explain", "--json", "f32[3]", "--index", "x"],
    ] {
        let out = layout(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    }
}

/// `layout` with `COLUMNS` set (the text grid fits that many characters).
fn layout_columns(columns: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_layout"))
        .args(args)
        .env("COLUMNS", columns)
        .output()
        .unwrap()
}

/// The numbers of a grid line after its row label (separators dropped).
fn offsets_of(line: &str) -> Vec<u64> {
    line.split_whitespace()
        .skip(1)
        .filter(|w| !matches!(*w, "|" | ":"))
        .map(|w| w.parse().unwrap())
        .collect()
}

#[test]
fn draw_takes_dimension_letters_and_numbers() {
    let by_letter = layout_columns(
        "200",
        &[
            "draw",
            "f32[2,3,4]",
            "--rows",
            "z",
            "--cols",
            "x",
            "--at",
            "0,1,0",
        ],
    );
    let by_number = layout_columns(
        "200",
        &[
            "draw",
            "f32[2,3,4]",
            "--rows",
            "0",
            "--cols",
            "2",
            "--at",
            "0,1,0",
        ],
    );
    assert!(by_letter.status.success());
    assert_eq!(stdout(&by_letter), stdout(&by_number));
    let text = stdout(&by_letter);
    assert!(text.starts_with("f32[2,3,4]{2,1,0}: rows dim 0, columns dim 2, fixed dim 1=1\n"));
    // Row 1 of dim 0 at y = 1: 12 + 4 + x.
    assert_eq!(offsets_of(text.lines().nth(3).unwrap()), [16, 17, 18, 19]);

    let out = layout(&["draw", "f32[2,3,4]", "--rows", "p"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: `p` is not a dimension of this rank-3 shape: give a number 0..=2 or a letter z=0 y=1 x=2\n"
    );
    let out = layout(&["draw", "f32[1,1,1,1,2]", "--cols", "x"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("rank 5 has no dimension letters"));
}

#[test]
fn explain_has_a_legend_of_the_letters() {
    let text = stdout(&layout(&["explain", "f32[2,3,4]"]));
    assert_eq!(field(&text, "dims"), "z=2 y=3 x=4");
    assert_eq!(
        field(&text, "letters"),
        "x is the last dimension, y the one before, then z, p: z=0 y=1 x=2 (draw --rows/--cols take them)"
    );
    let wide = stdout(&layout(&["explain", "f32[1,1,1,1,2]"]));
    assert_eq!(
        field(&wide, "letters"),
        "none past rank 4: dimensions are named by number, d0..d4"
    );
    assert!(!stdout(&layout(&["explain", "f32[]"])).contains("letters"));
}

/// A shape from the hand-written HLO dump, drawn through a window across a
/// tile corner: every number is the plan's offset, the lines are where the
/// tiles of both levels end.
#[test]
fn draw_window_of_a_dump_shape_matches_the_plan() {
    let dump = include_str!("data/hlo/handwritten.hlo");
    let shape = "bf16[16,256]{1,0:T(8,128)(2,1)S(1)}";
    assert!(dump.contains(shape));
    let args = [
        "draw",
        shape,
        "--rows",
        "y",
        "--cols",
        "x",
        "--window",
        "5..11,126..130",
    ];
    let out = layout_columns("200", &[&args[..], &["--lines"]].concat());
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        format!("{shape}: rows dim 0, columns dim 1 (rows 5..11 of 16, columns 126..130 of 256)")
    );
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        ["126", "127", "128", "129"]
    );
    let a = layout_core::parse_array(shape).unwrap();
    let plan = layout_core::Plan::new(&a).unwrap();
    let grid_rows: Vec<&&str> = lines[2..]
        .iter()
        .take_while(|l| !l.starts_with('|'))
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(grid_rows.len(), 6);
    for (r, line) in (5u64..11).zip(&grid_rows) {
        let want: Vec<u64> = (126..130).map(|c| plan.offset(&[r, c]).unwrap()).collect();
        assert_eq!(offsets_of(line), want, "row {r}");
        // (2,1) pairs each column's rows: `:` inside a (8,128) tile, `|` across.
        let seps: Vec<&str> = line
            .split_whitespace()
            .filter(|w| matches!(*w, "|" | ":"))
            .collect();
        assert_eq!(seps, [":", "|", ":"], "{line}");
    }
    // Rows 7 and 8 are in different (8,128) tiles; 5|6 and 9|10 in
    // different (2,1) tiles of one.
    let rule = |after: &str| {
        let at = lines.iter().position(|l| l.starts_with(after)).unwrap();
        lines[at + 1].trim().chars().next().unwrap()
    };
    assert_eq!(rule(" 5"), '.');
    assert_eq!(rule(" 7"), '-');
    assert_eq!(rule(" 9"), '.');
    assert!(lines.contains(&"| and - bound tile 0 (8,128), : and . tile 1 (2,1) inside it"));
    // Without --lines: the same numbers, no separators, and a note naming
    // both tile levels.
    let plain = stdout(&layout_columns("200", &args));
    assert!(!plain.contains(" | ") && !plain.contains(" : "));
    assert_eq!(
        offsets_of(plain.lines().nth(2).unwrap()),
        offsets_of(grid_rows[0])
    );
    assert!(plain
        .lines()
        .any(|l| l == "tile 0 (8,128), tile 1 (2,1) inside it (--lines draws their boundaries)"));
}

#[test]
fn draw_fits_the_terminal_width() {
    let shape = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
    let out = layout_columns("60", &["draw", shape, "--at", "3,0,0,0"]);
    let text = stdout(&out);
    let grid: Vec<&str> = text
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with('('))
        .collect();
    assert!(grid.len() > 64);
    assert!(grid.iter().all(|l| l.chars().count() <= 60), "{text}");
    // 9-digit offsets with 3-character gaps: 5 columns after the label.
    assert_eq!(grid[0].split_whitespace().count(), 5);
    assert!(text.contains(
        "(columns 0..5 of 0..64 shown to fit 60 characters; set COLUMNS or use --window)"
    ));
    let wide = stdout(&layout_columns("2000", &["draw", shape, "--at", "3,0,0,0"]));
    assert!(!wide.contains("shown to fit"));
    assert_eq!(wide.lines().nth(1).unwrap().split_whitespace().count(), 64);
}

#[test]
fn draw_strip_marks_padding_like_the_grid() {
    let text = stdout(&layout_columns("200", &["draw", "f32[3,5]{1,0:T(2,2)}"]));
    assert_eq!(
        text.lines().last().unwrap(),
        "memory order: a b f g c d h i e · j · k l · · m n · · o · · ·"
    );
    // The grid's padding row uses the same mark.
    assert!(text
        .lines()
        .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["3", "·", "·", "·", "·", "·", "·"]));
}

#[test]
fn draw_svg_cells_fit_eight_digit_offsets_and_dash_the_minor_tiles() {
    let dir = std::env::temp_dir().join(format!("layout-draw-wide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("seed.svg");
    let shape = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";
    let out = layout(&[
        "draw",
        shape,
        "--at",
        "3,0,0,0",
        "--window",
        "6..10,126..130",
        "--svg",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let a = layout_core::parse_array(shape).unwrap();
    let plan = layout_core::Plan::new(&a).unwrap();
    // Every cell is as wide as its 8-digit label needs at 12px monospace
    // (7.2 px a character), and the cells do not overlap.
    let widths: Vec<u64> = svg
        .lines()
        .filter(|l| l.contains("class=\"element\""))
        .map(|l| {
            let w = l.split("width=\"").nth(1).unwrap();
            w[..w.find('"').unwrap()].parse().unwrap()
        })
        .collect();
    assert_eq!(widths.len(), 16);
    let xs: Vec<u64> = svg
        .lines()
        .filter(|l| l.contains("class=\"element\""))
        .take(4)
        .map(|l| {
            let x = l.split(" x=\"").nth(1).unwrap();
            x[..x.find('"').unwrap()].parse().unwrap()
        })
        .collect();
    let label = plan.offset(&[3, 0, 9, 129]).unwrap().to_string();
    assert_eq!(label.len(), 8);
    for (w, pair) in widths.iter().zip(xs.windows(2)) {
        assert!(*w as f64 >= label.len() as f64 * 7.2 + 8.0, "{w}");
        assert_eq!(pair[1] - pair[0], *w);
    }
    for (r, c) in [(6u64, 126u64), (9, 129)] {
        let o = plan.offset(&[3, 0, r, c]).unwrap();
        assert!(svg.contains(&format!(">{o}</text>")), "{o}");
    }
    // Columns 127|128 cross a (8,128) tile: solid; the (2,1) tiles are
    // dashed between every column inside one and between rows 7|8 only
    // solid.
    assert!(svg.contains("class=\"tile0\""));
    assert!(svg.contains("class=\"tile1\""));
    assert!(svg.contains("stroke-dasharray"));
    assert!(svg.contains("solid lines: tile 0 (8,128); dashed: tile 1 (2,1)"));
}
