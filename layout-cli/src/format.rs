//! Numbers and byte counts for people, the same way in every command:
//! thousands separators (`1,234,567`) and binary units (`1.5 KiB`).
//!
//! Uses: nothing else in the crate.

/// Binary units, from bytes up.
const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];

/// `123456789` as `123,456,789`.
pub fn grouped(n: impl Into<u128>) -> String {
    let digits = n.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A byte count in the largest binary unit it reaches, one decimal:
/// `96 B`, `1.5 KiB`, `320.0 MiB` (at most EiB).
pub fn binary_units(n: impl Into<u128>) -> String {
    let n = n.into();
    if n < 1024 {
        return format!("{n} B");
    }
    #[allow(clippy::cast_precision_loss)] // one decimal is all we print
    let mut v = n as f64 / 1024.0;
    let mut unit = 1;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// A byte count in full and in binary units: `96 bytes`,
/// `335,544,320 bytes (320.0 MiB)`.
pub fn bytes_in_full(n: impl Into<u128>) -> String {
    let n = n.into();
    if n < 1024 {
        format!("{n} bytes")
    } else {
        format!("{} bytes ({})", grouped(n), binary_units(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands() {
        assert_eq!(grouped(0u64), "0");
        assert_eq!(grouped(999u64), "999");
        assert_eq!(grouped(1000u64), "1,000");
        assert_eq!(grouped(167_772_160u64), "167,772,160");
        assert_eq!(
            grouped(u128::MAX),
            "340,282,366,920,938,463,463,374,607,431,768,211,455"
        );
    }

    #[test]
    fn units() {
        assert_eq!(binary_units(0u64), "0 B");
        assert_eq!(binary_units(1023u64), "1023 B");
        assert_eq!(binary_units(1536u64), "1.5 KiB");
        assert_eq!(binary_units(335_544_320u64), "320.0 MiB");
        assert_eq!(binary_units(u64::MAX), "16.0 EiB");
        // Beyond EiB the number grows, the unit does not.
        assert_eq!(binary_units(u128::from(u64::MAX) * 1024), "16384.0 EiB");
        assert_eq!(bytes_in_full(96u64), "96 bytes");
        assert_eq!(bytes_in_full(1536u64), "1,536 bytes (1.5 KiB)");
        assert_eq!(
            bytes_in_full(335_544_320u64),
            "335,544,320 bytes (320.0 MiB)"
        );
    }
}
