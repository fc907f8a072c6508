//! `layout scan` totals, run as a user would: entry parameters, entry
//! result and top-level values, checked against sums computed here from
//! the dumps in tests/data/hlo/ and from a synthetic dump.

mod support;
use support::{data, layout, read, scan_json};

use serde_json::Value;

/// Bytes of every array leaf of a shape, summed (as the library sizes
/// them).
fn leaf_bytes(text: &str) -> u128 {
    fn sum(s: &layout_core::Shape) -> u128 {
        match s {
            layout_core::Shape::Array(a) | layout_core::Shape::Buffer(a) => {
                u128::from(a.size_in_bytes().unwrap())
            }
            layout_core::Shape::Tuple(t) => t.iter().map(|e| sum(&e)).sum(),
            _ => 0,
        }
    }
    sum(&layout_core::parse(text).unwrap())
}

/// The shape text at the start of `rest`: a tuple up to its matching `)`,
/// an array up to the first space.
fn leading_shape(rest: &str) -> &str {
    if rest.starts_with('(') {
        let mut depth = 0;
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return &rest[..=i];
                    }
                }
                _ => {}
            }
        }
        panic!("unclosed tuple in {rest}");
    }
    rest.split(' ').next().unwrap()
}

/// The device-space total of a totals list (the torch dumps have no
/// other space).
fn device_bytes(list: &Value) -> u128 {
    let list = list.as_array().unwrap();
    assert!(list.len() <= 1, "{list:?}");
    list.iter()
        .map(|m| {
            assert_eq!(m["memory_space"], 0);
            assert_eq!(m["unknown_arrays"], 0);
            u128::from(m["bytes"].as_u64().unwrap())
        })
        .sum()
}

#[test]
fn entry_totals_of_the_torch_dumps_match_their_entry_computation() {
    // These dumps are one ENTRY computation plus reducers (`to_apply=`),
    // no control flow: the top-level values are ENTRY's, one instruction
    // per line.
    for name in ["torchxla_bert_dp5.hlo", "torchxla_pp2_rank1.hlo"] {
        let text = String::from_utf8(read(name)).unwrap();
        assert!(
            !text.contains(" while(")
                && !text.contains(" call(")
                && !text.contains(" conditional(")
        );
        let start = text.find("\nENTRY ").unwrap() + 1;
        let header = text[start..].lines().next().unwrap();
        let body: Vec<&str> = text[start..]
            .lines()
            .skip(1)
            .take_while(|l| *l != "}")
            .collect();
        // The signature's result, `-> shape {` (no layouts there: the
        // default one, as in the body: these dumps are not tiled).
        let arrow = header.rfind(" -> ").unwrap();
        let result_sig = header[arrow + 4..].strip_suffix(" {").unwrap();
        let (mut params, mut root, mut defined, mut aliasing, mut all) = (0, 0, 0, 0, 0);
        for line in &body {
            let line = line.trim_start();
            let is_root = line.starts_with("ROOT ");
            let line = line.strip_prefix("ROOT ").unwrap_or(line);
            let (_, rest) = line.split_once(" = ").unwrap();
            let shape = leading_shape(rest);
            let opcode = rest[shape.len()..].trim_start().split('(').next().unwrap();
            let bytes = leaf_bytes(shape);
            all += bytes;
            if opcode == "parameter" {
                params += bytes;
            }
            if matches!(opcode, "tuple" | "get-tuple-element" | "bitcast") {
                aliasing += bytes;
            } else {
                defined += bytes;
            }
            if is_root {
                root = bytes;
            }
        }
        assert_eq!(root, leaf_bytes(result_sig), "{name}");
        assert!(
            aliasing > 0,
            "{name}: the test needs aliasing ops to leave out"
        );
        let (out, records) = scan_json(&read(name));
        assert!(out.status.success());
        let totals = records.last().unwrap();
        assert_eq!(device_bytes(&totals["entry_parameters"]), params, "{name}");
        assert_eq!(device_bytes(&totals["entry_result"]), root, "{name}");
        assert_eq!(device_bytes(&totals["top_level_values"]), defined, "{name}");
        // Everything, reducers and aliasing ops included, is more.
        assert!(device_bytes(&totals["memory_spaces"]) > all, "{name}");
        // The table says the same, with thousands separators.
        let table =
            String::from_utf8(layout(&["scan", data(name).to_str().unwrap()], b"").stdout).unwrap();
        let section = |heading: &str| {
            let at = table.find(&format!("\n{heading}")).unwrap();
            table[at..].lines().nth(2).unwrap().to_string()
        };
        let grouped = |n: u128| {
            let d = n.to_string();
            let mut out = String::new();
            for (i, c) in d.chars().enumerate() {
                if i > 0 && (d.len() - i).is_multiple_of(3) {
                    out.push(',');
                }
                out.push(c);
            }
            out
        };
        assert!(section("entry parameters").contains(&format!(" {} bytes", grouped(params))));
        assert!(section("entry result").contains(&format!(" {} bytes", grouped(root))));
        assert!(section("values defined in top-level computations")
            .contains(&format!(" {} bytes", grouped(defined))));
        // The summary's counts are grouped too (bert has 2,152 shapes).
        let shapes = u128::from(totals["shapes"].as_u64().unwrap());
        assert!(table.contains(&format!("shapes found: {} (", grouped(shapes))));
    }
}

#[test]
fn top_level_values_follow_control_flow_and_leave_out_aliases() {
    // Sizes chosen so that every sum says which instructions it holds:
    // bits of a number name one instruction each.
    let dump = b"HloModule m

%fused (a: u8[1]) -> u8[2] {
  %a = u8[1]{0} parameter(0)
  ROOT %f = u8[2]{0} broadcast(%a), dimensions={}
}

%red (x: u8[], y: u8[]) -> u8[] {
  %x = u8[] parameter(0)
  %y = u8[] parameter(1)
  ROOT %r = u8[4]{0} add(%x, %y)
}

%branch_a (p: u8[1]) -> u8[8] {
  %p = u8[1]{0} parameter(0)
  ROOT %ba = u8[8]{0} negate(%p)
}

%branch_b (p: u8[1]) -> u8[16] {
  %p = u8[1]{0} parameter(0)
  %bb = u8[16]{0} negate(%p)
  ROOT %bc = u8[16]{0} bitcast(%bb)
}

%callee (p: u8[1]) -> u8[32] {
  %p = u8[1]{0} parameter(0)
  ROOT %c = u8[32]{0} custom-call(%p), custom_call_target=\"t\"
}

%unused (p: u8[1]) -> u8[4096] {
  %p = u8[1]{0} parameter(0)
  ROOT %u = u8[4096]{0} negate(%p)
}

ENTRY %main (in: u8[64]) -> (u8[128], u8[256]) {
  %in = u8[64]{0} parameter(0)
  %i = s32[] constant(0)
  %fu = u8[128]{0} fusion(%in), kind=kLoop, calls=%fused
  %cond = u8[16]{0} conditional(%i, %in, %in), branch_computations={%branch_a, %branch_b}
  %cl = u8[32]{0} call(%in), to_apply=%callee
  %nested = u8[512]{0} call(%in), to_apply={
    %q = u8[1]{0} parameter(0)
    ROOT %inl = u8[1024]{0} negate(%q)
  }
  %rd = u8[256]{0} reduce(%in, %in), dimensions={0}, to_apply=%red
  %g = u8[2048]{0} get-tuple-element((u8[2048]{0}) %in), index=0
  ROOT %t = (u8[128]{0}, u8[256]{0}) tuple(%fu, %rd)
}
";
    let (out, records) = scan_json(dump);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let totals = records.last().unwrap();
    assert_eq!(device_bytes(&totals["entry_parameters"]), 64);
    assert_eq!(device_bytes(&totals["entry_result"]), 128 + 256);
    // ENTRY: %in 64, %i 4, %fu 128, %rd 256 (not the conditional, the
    // calls, the get-tuple-element or the tuple); %branch_a's %ba 8 and
    // %branch_b's %bb 16 (not its bitcast); %callee's %c 32; the inline
    // %nested.to_apply's %inl 1024. Not %fused, %red or %unused, and no
    // parameter outside ENTRY.
    assert_eq!(
        device_bytes(&totals["top_level_values"]),
        64 + 4 + 128 + 256 + 8 + 16 + 32 + 1024
    );
    let all = 1 + 2 + 1 + 1 + 4 + 1 + 8 + 1 + 16 + 16 + 1 + 32 + 1 + 4096;
    let entry = 64 + 4 + 128 + 16 + 32 + 1 + 1024 + 512 + 256 + 2048 + 128 + 256;
    assert_eq!(device_bytes(&totals["memory_spaces"]), all + entry);
}
