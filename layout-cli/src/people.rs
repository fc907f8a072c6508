//! Output for people: errors with a caret under the offending text and
//! memory-space names (numbers and sizes: [`crate::format`]).
//!
//! The caret diagnostics are laid out by `annotate-snippets` (the renderer
//! rustc uses), always with colour codes: they are printed through
//! [`crate::output::warn`], whose `anstream` stream drops the codes when
//! stderr is not a terminal or `NO_COLOR` is set.
//!
//! Uses: nothing else in the crate.

use std::ops::Range;

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};
use layout_core::{ElementType, Error, ErrorKind};

/// Exit status for an invalid shape or index.
pub const EXIT_INVALID: u8 = crate::exit::INVALID;

/// The error, the input with carets under the offending bytes, and the help
/// line, as printed on stderr (with colour codes, see the module docs).
///
/// ```text
/// error: minor_to_major entry 2 is out of range for rank 2 (entries must be 0..=1)
///   |
/// 1 | f32[2,3]{2,0}
///   |          ^
///   |
///   = help: minor_to_major lists every dimension number exactly once, ...
/// ```
pub fn render_error(text: &str, e: &Error) -> String {
    let span = e.span();
    let help = help_line(text, e);
    render(
        text,
        &e.to_string(),
        span.start as usize..span.end as usize,
        help.as_deref(),
    )
}

/// `title` as an error, a caret under the bytes `span` of `text` (made safe
/// by [`char_range`]: any span will do), and `help`.
fn render(text: &str, title: &str, span: Range<usize>, help: Option<&str>) -> String {
    let snippet = Snippet::source(text)
        .line_start(1)
        .annotation(AnnotationKind::Primary.span(char_range(text, span)));
    let mut group = Level::ERROR.primary_title(title).element(snippet);
    if let Some(help) = help {
        group = group.element(Level::HELP.message(help));
    }
    let mut out = Renderer::styled().render(&[group]);
    out.push('\n');
    out
}

/// `range` made safe to point at in `text`: within it, on character
/// boundaries (widened to whole characters), never reversed.
fn char_range(text: &str, range: Range<usize>) -> Range<usize> {
    let mut start = range.start.min(text.len());
    let mut end = range.end.clamp(start, text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
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

    /// The diagnostic as it reaches a file or a pipe: without colour codes.
    fn plain(text: &str) -> String {
        let e = layout_core::parse(text).unwrap_err();
        anstream::adapter::strip_str(&render_error(text, &e)).to_string()
    }

    #[test]
    fn help_lines_speak_of_the_users_shape() {
        let out = plain("f32[2,3,4]{2,1,1}");
        assert!(out.contains("= help: minor_to_major"), "{out}");
        assert!(out.contains("{2,1,0} is row-major for rank 3"), "{out}");
        assert!(plain("f33[2]").contains("= help: did you mean `f32`?"));
    }

    #[test]
    fn caret_under_the_offending_token() {
        let shown = plain("f32[2,3]{2,0}");
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(
            lines[0],
            "error: minor_to_major entry 2 is out of range for rank 2 (entries must be 0..=1)"
        );
        assert_eq!(lines[2], "1 | f32[2,3]{2,0}");
        assert_eq!(lines[3], "  |          ^");
        assert!(lines[5].starts_with("  = help: "), "{shown}");
    }

    #[test]
    fn colour_codes_are_there_to_be_dropped() {
        let text = "f32[2,3]{2,0}";
        let e = layout_core::parse(text).unwrap_err();
        let styled = render_error(text, &e);
        assert!(styled.contains('\u{1b}'));
        assert_ne!(styled, plain(text));
        assert!(!plain(text).contains('\u{1b}'));
    }

    /// The caret line under the input line `input` (display columns).
    fn caret_under(shown: &str, input: &str) -> String {
        let lines: Vec<&str> = shown.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.ends_with(input))
            .unwrap_or_else(|| panic!("no `{input}` in:\n{shown}"));
        let gutter = lines[at].len() - input.len();
        lines[at + 1].get(gutter..).unwrap_or("").to_string()
    }

    #[test]
    fn carets_count_characters_not_bytes() {
        // `é` and `日` come before the offending `x`: one column each for
        // `é`, two for the wide `日`, whatever their bytes.
        let text = "é日x";
        let shown = anstream::adapter::strip_str(&render(text, "t", 5..6, None)).to_string();
        assert_eq!(caret_under(&shown, text), "   ^", "{shown}");
        // A multi-byte character at the offending place: a caret under it,
        // also when the span stops inside it.
        let text = "f32[2é]";
        let shown = plain(text);
        assert_eq!(caret_under(&shown, text), "     ^", "{shown}");
        let inside = anstream::adapter::strip_str(&render(text, "t", 6..6, None)).to_string();
        assert_eq!(caret_under(&inside, text), "     ^", "{inside}");
    }

    #[test]
    fn spans_at_and_past_the_end() {
        // The error is at the end of the input: a caret just past it.
        let shown = plain("f32[2");
        assert_eq!(caret_under(&shown, "f32[2"), "     ^", "{shown}");
        // Spans past the end, reversed, inside a character, or empty are
        // shown as well as they can be, and never panic.
        for text in [
            "",
            "f",
            "é",
            "f32[2]",
            "ab\ncd",
            "\t\r\n",
            "日本",
            "a\u{1b}[31mb",
        ] {
            for start in 0..12 {
                for end in 0..12 {
                    let span = char_range(text, start..end);
                    assert!(span.start <= span.end && span.end <= text.len());
                    assert!(text.get(span).is_some());
                    let shown = render(text, "title", start..end, Some("help"));
                    assert!(shown.contains("title") && shown.contains("help"));
                }
            }
        }
    }

    #[test]
    fn inputs_with_newlines_show_the_offending_line() {
        let text = "f32[2,\n3]{2,0}";
        let shown = plain(text);
        assert!(shown.contains("2 | 3]{2,0}"), "{shown}");
        assert_eq!(caret_under(&shown, "3]{2,0}"), "   ^", "{shown}");
        assert!(!shown.contains("f32[2,"), "{shown}");
    }
}
