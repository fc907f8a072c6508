//! Output for people: errors with a caret under the offending text and
//! memory-space names (numbers and sizes: [`crate::format`]).
//!
//! Uses: nothing else in the crate.

use layout_core::{ElementType, Error, ErrorKind};

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
    if let Some(help) = help_line(text, e) {
        out.push_str(&format!("  help: {help}\n"));
    }
    out
}

/// The help line, about the user's own shape where it helps: the row-major
/// `minor_to_major` of its rank, the element type its name is closest to.
fn help_line(text: &str, e: &Error) -> Option<String> {
    let span = e.span();
    if e.kind() == ErrorKind::UnknownElementType {
        let name = text.get(span.start as usize..span.end as usize)?;
        if let Some(t) = ElementType::closest(name) {
            return Some(format!("did you mean `{t}`?"));
        }
    }
    match layout_core::parse_array_unvalidated(text) {
        Ok(raw) => e.help_for(raw.rank()).map(|h| h.to_string()),
        Err(_) => e.help().map(str::to_string),
    }
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
    fn help_lines_speak_of_the_users_shape() {
        let text = "f32[2,3,4]{2,1,1}";
        let e = layout_core::parse(text).unwrap_err();
        let out = render_error(text, &e);
        assert!(out.contains("{2,1,0} is row-major for rank 3"), "{out}");
        let text = "f33[2]";
        let e = layout_core::parse(text).unwrap_err();
        assert!(render_error(text, &e).contains("help: did you mean `f32`?"));
    }

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
