//! Output for people: errors with a caret under the offending text, sizes
//! in human units, memory-space names.

use layout_core::Error;

/// Exit status for an invalid shape or index.
pub const EXIT_INVALID: u8 = 1;

/// The error, the input with carets under the offending bytes, and the help
/// line, as printed on stderr.
///
/// ```text
/// error: minor_to_major entry 2 is out of range for rank 2 (entries must be 0..=1)
///   f32[2,3]{2,0}
///            ^
///   help: minor_to_major lists every dimension number exactly once, ...
/// ```
pub fn render_error(text: &str, e: &Error) -> String {
    let mut out = format!("error: {e}\n");
    let span = e.span();
    let (start, end) = (span.start as usize, span.end as usize);
    if !text.contains('\n')
        && end <= text.len()
        && text.is_char_boundary(start)
        && text.is_char_boundary(end)
    {
        let col = text[..start].chars().count();
        let width = text[start..end].chars().count().max(1);
        out.push_str(&format!(
            "  {text}\n  {}{}\n",
            " ".repeat(col),
            "^".repeat(width)
        ));
    }
    if let Some(help) = e.help() {
        out.push_str(&format!("  help: {help}\n"));
    }
    out
}

/// `123456789` -> `123,456,789`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes in binary units: `335,544,320 bytes (320.0 MiB)`.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if n < 1024 {
        return format!("{n} bytes");
    }
    #[allow(clippy::cast_precision_loss)] // one decimal is all we print
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{} bytes ({v:.1} {})", grouped(n), UNITS[unit])
}

/// What XLA calls memory space `n`.
pub fn memory_space_name(n: i64) -> String {
    match n {
        0 => "S(0): device memory (the default)".to_string(),
        1 => "S(1): fast memory (VMEM on TPU)".to_string(),
        5 => "S(5): host memory".to_string(),
        n => format!("S({n}): a device-specific memory space"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_under_the_offending_token() {
        let text = "f32[2,3]{2,0}";
        let e = layout_core::parse(text).unwrap_err();
        let shown = render_error(text, &e);
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines[1], "  f32[2,3]{2,0}");
        assert_eq!(lines[2], "           ^");
        assert!(lines[3].starts_with("  help: "));
    }

    #[test]
    fn units() {
        assert_eq!(grouped(167_772_160), "167,772,160");
        assert_eq!(grouped(999), "999");
        assert_eq!(human_bytes(335_544_320), "335,544,320 bytes (320.0 MiB)");
        assert_eq!(human_bytes(96), "96 bytes");
        assert_eq!(human_bytes(1536), "1,536 bytes (1.5 KiB)");
    }
}
