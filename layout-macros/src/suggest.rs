//! "Did you mean" hints for names the macro does not know: option names,
//! padding values and layout attribute letters. (Element types have their
//! own, shared with the CLI: `ElementType::closest` in layout-core.)

/// The layout attributes written as letters (`#` and `*` are punctuation).
const ATTRIBUTE_LETTERS: [&str; 8] = ["D", "T", "L", "E", "S", "SC", "P", "M"];

/// The attribute `found` means if it is one in other letter case (`t` for
/// `T`, `sc` for `SC`).
pub fn attribute(found: &str) -> Option<&'static str> {
    ATTRIBUTE_LETTERS
        .into_iter()
        .find(|a| a.eq_ignore_ascii_case(found))
}

/// The one entry of `known` closest to `found`: equal but for letter case,
/// the start of it (`pad` for `padded`), or within a small edit distance
/// (one edit in words of up to four letters, two in longer ones). `None` if
/// nothing is close or two entries are equally close.
pub fn closest(found: &str, known: &[&'static str]) -> Option<&'static str> {
    let found = found.to_ascii_lowercase();
    if let Some(k) = known.iter().find(|k| k.eq_ignore_ascii_case(&found)) {
        return Some(k);
    }
    let prefixed: Vec<&'static str> = known
        .iter()
        .copied()
        .filter(|k| found.len() >= 3 && k.starts_with(found.as_str()))
        .collect();
    if let [one] = prefixed.as_slice() {
        return Some(one);
    }
    let limit = if found.chars().count() <= 4 { 1 } else { 2 };
    let mut scored: Vec<(usize, &'static str)> = known
        .iter()
        .map(|k| (distance(&found, k), *k))
        .filter(|(d, _)| *d <= limit)
        .collect();
    scored.sort_by_key(|(d, _)| *d);
    match scored.as_slice() {
        [(_, k)] => Some(k),
        [(a, k), (b, _), ..] if a < b => Some(k),
        _ => None,
    }
}

/// Edit distance: insertions, deletions, substitutions and swaps of
/// neighbouring characters.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // rows[i][j]: distance between the first i chars of a and j of b.
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTIONS: [&str; 2] = ["padded", "padding_value"];
    const VALUES: [&str; 5] = ["zero", "one", "lowest", "highest", "unknown"];

    #[test]
    fn close_names() {
        assert_eq!(closest("paded", &OPTIONS), Some("padded"));
        assert_eq!(closest("padding", &OPTIONS), Some("padding_value"));
        assert_eq!(closest("pad", &OPTIONS), None); // the start of both
        assert_eq!(closest("padding_valeu", &OPTIONS), Some("padding_value"));
        assert_eq!(closest("zeros", &VALUES), Some("zero"));
        assert_eq!(closest("Zero", &VALUES), Some("zero"));
        assert_eq!(closest("hihgest", &VALUES), Some("highest"));
        assert_eq!(closest("seven", &VALUES), None);
        assert_eq!(closest("size", &OPTIONS), None);
        assert_eq!(attribute("t"), Some("T"));
        assert_eq!(attribute("Sc"), Some("SC"));
        assert_eq!(attribute("Q"), None);
    }

    #[test]
    fn distances() {
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("f33", "f32"), 1);
        assert_eq!(distance("ab", "ba"), 1);
        assert_eq!(distance("padded", "padded"), 0);
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
