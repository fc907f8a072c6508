//! Reading the TPU compiler's out-of-memory report: the header (memory
//! space, used and capacity) and the "Largest program allocations" entries,
//! from text as JAX, TensorFlow and PyTorch/XLA print it, with or without a
//! log prefix on every line. No shape is parsed here; sizes are read as the
//! report prints them ([`Size`]).
//!
//! Uses: nothing else in the crate.

/// A size as the report prints it: `570.00M`, `4.0K`, `512B`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Size {
    /// The text, as printed.
    pub text: String,
    /// The digits without the point: `57000` for `570.00M`.
    pub mantissa: u128,
    /// Digits after the point: 2 for `570.00M`.
    pub decimals: u32,
    /// The unit as a power of 1024: 0 for `B`, 1 for `K`, 2 for `M`, ...
    pub unit: u32,
}

/// The units of the report, as powers of 1024.
const UNITS: &[u8] = b"BKMGTPE";

impl Size {
    /// Reads `570.00M` (a number, then one of `B K M G T P E`).
    pub fn parse(text: &str) -> Option<Size> {
        let t = text.trim();
        let (&last, number) = t.as_bytes().split_last()?;
        let unit = UNITS.iter().position(|&u| u == last)?;
        let number = std::str::from_utf8(number).ok()?;
        let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
        if whole.is_empty()
            || !whole
                .bytes()
                .chain(frac.bytes())
                .all(|b| b.is_ascii_digit())
        {
            return None;
        }
        if whole.len() + frac.len() > 30 {
            return None;
        }
        let mantissa = format!("{whole}{frac}").parse().ok()?;
        Some(Size {
            text: t.to_string(),
            mantissa,
            decimals: u32::try_from(frac.len()).ok()?,
            unit: u32::try_from(unit).ok()?,
        })
    }

    /// The size in bytes, rounded to the nearest byte (the report's rounded
    /// figure, not the exact size); `None` past `u64`.
    pub fn bytes(&self) -> Option<u64> {
        let scale = 1024u128.checked_pow(self.unit)?;
        let ten = 10u128.checked_pow(self.decimals)?;
        let exact = self.mantissa.checked_mul(scale)?;
        let rounded = exact.checked_add(ten / 2)? / ten;
        u64::try_from(rounded).ok()
    }

    /// Whether `bytes` prints as this size at the report's own precision
    /// (its unit and decimals, rounded as the compiler rounds).
    pub fn agrees(&self, bytes: u64) -> bool {
        in_unit(bytes, self.unit, self.decimals) == Some(self.mantissa)
    }
}

/// `bytes` in `unit` (a power of 1024) with `decimals` digits, as digits
/// without the point: the bytes are first divided down to the unit below
/// (whole numbers, as the compiler does), then divided by 1024 and rounded
/// half to even.
fn in_unit(bytes: u64, unit: u32, decimals: u32) -> Option<u128> {
    let ten = 10u128.checked_pow(decimals)?;
    if unit == 0 {
        return u128::from(bytes).checked_mul(ten);
    }
    let below = u128::from(bytes) / 1024u128.checked_pow(unit - 1)?;
    let num = below.checked_mul(ten)?;
    let (q, r) = (num / 1024, num % 1024);
    Some(if r > 512 || (r == 512 && q % 2 == 1) {
        q + 1
    } else {
        q
    })
}

/// A byte count as the compiler prints it: whole bytes below 1K (`512B`),
/// one decimal for K (`4.0K`), two for M and up (`570.00M`, `8.00G`).
pub fn compiler_units(bytes: u64) -> String {
    if bytes < 1024 {
        return format!("{bytes}B");
    }
    let mut unit = 1u32;
    let mut below = bytes;
    while below >= 1024 * 1024 && (unit as usize) + 1 < UNITS.len() {
        below /= 1024;
        unit += 1;
    }
    let decimals = if unit == 1 { 1 } else { 2 };
    // In range: `below` fits, and 100 x it does too.
    let digits = in_unit(bytes, unit, decimals).unwrap_or(0);
    let ten = 10u128.pow(decimals);
    format!(
        "{}.{:0width$}{}",
        digits / ten,
        digits % ten,
        char::from(UNITS[unit as usize]),
        width = decimals as usize
    )
}

/// A field of an allocation entry, with the line it is on (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field<T> {
    /// The value.
    pub value: T,
    /// The line, 1-based.
    pub line: usize,
}

/// One entry of "Largest program allocations".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The entry's number in the report (`1.`).
    pub rank: u64,
    /// The line of `N. Size:`.
    pub line: usize,
    /// `Size:`.
    pub size: Option<Size>,
    /// `Operator:`, as printed.
    pub operator: Option<String>,
    /// `Shape:`, as printed.
    pub shape: Option<Field<String>>,
    /// `Unpadded size:`.
    pub unpadded: Option<Size>,
    /// `Extra memory due to padding:`.
    pub extra: Option<Size>,
    /// The expansion of the padding line (`2.0` of `(2.0x expansion)`), as
    /// printed.
    pub expansion: Option<String>,
    /// `XLA label:`, as printed (it may be cut off).
    pub label: Option<String>,
    /// `Allocation type:`.
    pub allocation_type: Option<String>,
}

/// A line the reader could not make sense of inside an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// The line, 1-based.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

/// What the reader found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The memory space ran out of (`hbm`, `vmem`).
    pub memory_space: Option<String>,
    /// `Used X of Y`: X.
    pub used: Option<Size>,
    /// `Used X of Y`: Y.
    pub capacity: Option<Size>,
    /// `Exceeded <space> capacity by X`: X.
    pub exceeded: Option<Size>,
    /// The allocations, in report order.
    pub allocations: Vec<Entry>,
    /// Lines inside entries that could not be read.
    pub errors: Vec<Malformed>,
    /// Whether a report header was seen (`Ran out of memory`, `Largest
    /// program allocations`).
    pub header: bool,
}

impl Report {
    /// Whether anything of a report was found.
    pub fn found(&self) -> bool {
        self.header || !self.allocations.is_empty()
    }
}

/// The line without a log prefix: glog's `E0802 10:11:12.345678  4242
/// file.cc:76] ` and TensorFlow's `2021-08-02 10:11:12.345678: E 4242
/// file.cc:76] ` (a prefix starts with a digit, or with one of `IWEF` and a
/// digit, and ends at the first `]` after `name.ext:line`).
pub fn strip_log_prefix(line: &str) -> &str {
    let b = line.as_bytes();
    let starts = match b {
        [d, ..] if d.is_ascii_digit() => true,
        [s, d, ..] => matches!(s, b'I' | b'W' | b'E' | b'F') && d.is_ascii_digit(),
        _ => false,
    };
    if !starts {
        return line;
    }
    for (i, _) in line.match_indices(']') {
        let before = &line[..i];
        let head = before.trim_end_matches(|c: char| c.is_ascii_digit());
        if head.len() == before.len() {
            continue;
        }
        if let Some(file) = head.strip_suffix(':') {
            let name = file.rsplit(' ').next().unwrap_or("");
            if name.contains('.') {
                return &line[i + 1..];
            }
        }
    }
    line
}

/// The text after `key` in `line`, trimmed, when `line` starts with it.
fn after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.strip_prefix(key).map(str::trim)
}

/// The word after `marker` in `line` (up to a space, `.` or `:`).
fn word_after<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    let at = line.find(marker)? + marker.len();
    let rest = &line[at..];
    let end = rest
        .find(|c: char| c.is_whitespace() || c == '.' || c == ':')
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// Reads the header facts of a line: memory space, used and capacity.
fn header(report: &mut Report, line: &str) {
    if let Some(space) = word_after(line, "Ran out of memory in memory space ") {
        report.memory_space = Some(space.to_string());
        report.header = true;
    }
    if let Some(at) = line.find("Used ") {
        let rest = &line[at + 5..];
        let mut words = rest.split_whitespace();
        if let (Some(used), Some("of"), Some(cap)) = (words.next(), words.next(), words.next()) {
            let cap = cap.trim_end_matches('.');
            if let (Some(u), Some(c)) = (Size::parse(used), Size::parse(cap)) {
                report.used = Some(u);
                report.capacity = Some(c);
                report.header = true;
            }
        }
    }
    if let Some(at) = line.find("Exceeded ") {
        let mut words = line[at..].split_whitespace().skip(1);
        if let (Some(_), Some("capacity"), Some("by"), Some(x)) =
            (words.next(), words.next(), words.next(), words.next())
        {
            report.exceeded = Size::parse(x.trim_end_matches('.'));
        }
    }
    if let Some(space) = word_after(line, "Largest program allocations in ") {
        if report.memory_space.is_none() {
            report.memory_space = Some(space.to_string());
        }
        report.header = true;
    }
}

/// `N. Size: X`: the number and the size text.
fn entry_start(line: &str) -> Option<(u64, &str)> {
    let (number, rest) = line.split_once(". ")?;
    let rank = number.parse().ok()?;
    Some((rank, after(rest, "Size:")?))
}

/// Reads a report from `text` (any bytes; invalid UTF-8 is replaced).
/// Entries are read field by field; a field that cannot be read is a
/// [`Malformed`] line and the rest is still read. An entry whose `Size:`
/// cannot be read is left out.
pub fn read(text: &str) -> Report {
    let mut report = Report::default();
    let mut current: Option<Entry> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = strip_log_prefix(raw).trim();
        if let Some((rank, size)) = entry_start(line) {
            report.allocations.extend(current.take());
            match Size::parse(size) {
                Some(s) => {
                    current = Some(Entry {
                        rank,
                        line: n,
                        size: Some(s),
                        ..Entry::default()
                    });
                }
                None => report.errors.push(Malformed {
                    line: n,
                    message: format!("allocation {rank}: cannot read the size `{size}`"),
                }),
            }
            continue;
        }
        let Some(entry) = current.as_mut() else {
            header(&mut report, line);
            continue;
        };
        if line.starts_with("====") {
            report.allocations.extend(current.take());
        } else if let Some(v) = after(line, "Operator:") {
            entry.operator = Some(v.to_string());
        } else if let Some(v) = after(line, "Shape:") {
            entry.shape = Some(Field {
                value: v.to_string(),
                line: n,
            });
        } else if let Some(v) = after(line, "Unpadded size:") {
            match Size::parse(v) {
                Some(s) => entry.unpadded = Some(s),
                None => report.errors.push(Malformed {
                    line: n,
                    message: format!(
                        "allocation {}: cannot read the unpadded size `{v}`",
                        entry.rank
                    ),
                }),
            }
        } else if let Some(v) = after(line, "Extra memory due to padding:") {
            let (size, rest) = v.split_once(' ').unwrap_or((v, ""));
            match Size::parse(size) {
                Some(s) => {
                    entry.extra = Some(s);
                    entry.expansion = rest
                        .trim()
                        .strip_prefix('(')
                        .and_then(|r| r.split_once("x expansion"))
                        .map(|(x, _)| x.to_string());
                }
                None => report.errors.push(Malformed {
                    line: n,
                    message: format!("allocation {}: cannot read the padding `{v}`", entry.rank),
                }),
            }
        } else if let Some(v) = after(line, "XLA label:") {
            entry.label = Some(v.to_string());
        } else if let Some(v) = after(line, "Allocation type:") {
            entry.allocation_type = Some(v.to_string());
        } else if !line.is_empty() {
            // Text after an entry that was not closed: back to the header.
            report.allocations.extend(current.take());
            header(&mut report, line);
        }
    }
    report.allocations.extend(current);
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_and_print_as_the_compiler_does() {
        let s = Size::parse("570.00M").unwrap();
        assert_eq!((s.mantissa, s.decimals, s.unit), (57000, 2, 2));
        assert_eq!(s.bytes(), Some(570 << 20));
        assert_eq!(Size::parse("4.0K").unwrap().bytes(), Some(4096));
        assert_eq!(Size::parse("512B").unwrap().bytes(), Some(512));
        assert_eq!(Size::parse("61.25M").unwrap().bytes(), Some(64_225_280));
        for bad in ["", "M", "1.2.3M", "12X", "-1M", ".5M", "1e3M"] {
            assert_eq!(Size::parse(bad), None, "{bad}");
        }
        assert_eq!(compiler_units(512), "512B");
        assert_eq!(compiler_units(4096), "4.0K");
        assert_eq!(compiler_units(597_688_320), "570.00M");
        assert_eq!(compiler_units(8 << 30), "8.00G");
        assert_eq!(compiler_units(64_225_280), "61.25M");
        assert_eq!(compiler_units(u64::MAX), "16.00E");
        // 1.005M is 1053818.88 bytes: whole KiB first (1029), then 1.0049..
        assert_eq!(compiler_units(1_053_818), "1.00M");
        assert!(Size::parse("1.00M").unwrap().agrees(1_053_818));
        assert!(!Size::parse("1.01M").unwrap().agrees(1_053_818));
        assert!(Size::parse("61.25M").unwrap().agrees(64_225_280));
    }

    #[test]
    fn log_prefixes_are_stripped() {
        let tf = "2021-08-02 10:11:12.345678: E    4242 tensorflow/compiler/xla/xla_client/xla_util.cc:76]   2. Size: 64.00M";
        assert_eq!(strip_log_prefix(tf).trim(), "2. Size: 64.00M");
        let glog = "E0802 10:11:12.345678  4242 xla_util.cc:76]      Shape: f32[2,3]{1,0}";
        assert_eq!(strip_log_prefix(glog).trim(), "Shape: f32[2,3]{1,0}");
        for plain in [
            "  1. Size: 570.00M",
            "Shape: f32[1,2]{1,0}",
            "1. Size: 2.00M",
            "2021 was a year: f32[2]",
        ] {
            assert_eq!(strip_log_prefix(plain), plain);
        }
    }

    #[test]
    fn entries_with_missing_fields_and_bad_lines() {
        let text = "Ran out of memory in memory space vmem. Used 16.92M of 16.00M vmem.\n\
            \n  1. Size: 16.00M\n     XLA label: register allocator spill slots\n\
            \x20    Allocation type: scoped\n     ==========\n\
            \x20 2. Size: lots\n     Shape: f32[2]{0}\n\
            \x20 3. Size: 64.0K\n     Shape: f32[128,6]{1,0}\n     Unpadded size: ?\n";
        let r = read(text);
        assert_eq!(r.memory_space.as_deref(), Some("vmem"));
        assert_eq!(r.used.as_ref().unwrap().text, "16.92M");
        assert_eq!(r.capacity.as_ref().unwrap().text, "16.00M");
        assert_eq!(r.exceeded, None);
        let x = read("Exceeded hbm capacity by 3.21G.\n").exceeded.unwrap();
        assert_eq!(x.text, "3.21G");
        assert_eq!(r.allocations.len(), 2);
        assert_eq!(r.allocations[0].shape, None);
        assert_eq!(
            r.allocations[0].label.as_deref(),
            Some("register allocator spill slots")
        );
        assert_eq!(r.allocations[1].rank, 3);
        assert_eq!(r.allocations[1].shape.as_ref().unwrap().line, 10);
        let lines: Vec<usize> = r.errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [7, 11]);
        assert!(read("nothing here\n").allocations.is_empty());
        assert!(!read("nothing here\n").found());
    }
}
