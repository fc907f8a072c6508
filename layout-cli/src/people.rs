//! Output for people: errors with a caret under the offending text and
//! memory-space names (numbers and sizes: [`crate::format`]).
//!
//! Uses: nothing else in the crate.

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
}
