//! Copies at bit offsets, for packed (`E(n)`) elements: slot `o` of a
//! layout with `n`-bit slots takes bits `o·n .. o·n + n`, counted from the
//! least significant bit of byte 0. Slots of the same width are copied
//! whole; where the two sides' widths differ, the value (the type's own
//! bits) is repacked: sign-extended for signed integers, zero-extended
//! otherwise.

use super::modes::Nest;
use crate::base::element::ElementType;

/// Low `w` bits set.
const fn mask(w: u64) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// Reads `w` bits at bit `at`.
fn read(buf: &[u8], at: u64, w: u64) -> u128 {
    if w <= 8 && 8 % w == 0 {
        // Never straddles a byte.
        return u128::from(buf[(at / 8) as usize] >> (at % 8)) & mask(w);
    }
    let mut v = 0u128;
    let mut got = 0;
    let mut pos = at;
    while got < w {
        let shift = pos % 8;
        let take = (8 - shift).min(w - got);
        let part = (u128::from(buf[(pos / 8) as usize]) >> shift) & mask(take);
        v |= part << got;
        got += take;
        pos += take;
    }
    v
}

/// Writes the low `w` bits of `v` at bit `at`.
fn write(buf: &mut [u8], at: u64, w: u64, v: u128) {
    let mut put = 0;
    let mut pos = at;
    while put < w {
        let shift = pos % 8;
        let take = (8 - shift).min(w - put);
        let m = (mask(take) as u8) << shift;
        let part = (((v >> put) & mask(take)) as u8) << shift;
        let byte = &mut buf[(pos / 8) as usize];
        *byte = (*byte & !m) | part;
        put += take;
        pos += take;
    }
}

/// Copies one element type between slots of `src_bits` and `dst_bits`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Copier {
    src_bits: u64,
    dst_bits: u64,
    value_bits: u64,
    signed: bool,
}

impl Copier {
    pub(crate) fn new(t: ElementType, src_bits: u64, dst_bits: u64) -> Copier {
        Copier {
            src_bits,
            dst_bits,
            // Slots of one width are copied whole.
            value_bits: if src_bits == dst_bits {
                src_bits
            } else {
                u64::from(t.bit_width())
            },
            signed: t.is_signed_integer(),
        }
    }

    /// Every slot below `slots` holds `pattern`, the rest of `dst` zero.
    pub(crate) fn fill(&self, dst: &mut [u8], pattern: u128, slots: u64) {
        dst.fill(0);
        if pattern != 0 {
            for o in 0..slots {
                write(dst, o * self.dst_bits, self.dst_bits, pattern);
            }
        }
    }

    /// Copies the element in source slot `s` to destination slot `d`.
    #[inline]
    pub(crate) fn one(&self, src: &[u8], s: u64, dst: &mut [u8], d: u64) {
        let mut v = read(src, s * self.src_bits, self.src_bits) & mask(self.value_bits);
        if self.dst_bits > self.value_bits && self.signed && (v >> (self.value_bits - 1)) & 1 == 1 {
            v |= mask(self.dst_bits) & !mask(self.value_bits);
        }
        write(dst, d * self.dst_bits, self.dst_bits, v);
    }

    /// Copies a box through a faster path where there is one (`true`), or
    /// leaves it to [`Copier::one`] (`false`).
    pub(crate) fn nest(&self, n: &Nest, src: &[u8], dst: &mut [u8]) -> bool {
        let _ = (n, src, dst);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_round_trip_at_any_offset() {
        let mut buf = [0u8; 8];
        write(&mut buf, 3, 11, 0x5A5);
        assert_eq!(read(&buf, 3, 11), 0x5A5);
        assert_eq!(buf[0] & 0b111, 0);
        write(&mut buf, 20, 4, 0xF);
        assert_eq!(read(&buf, 20, 4), 0xF);
        assert_eq!(read(&buf, 3, 11), 0x5A5);
    }

    #[test]
    fn signed_values_widen_with_their_sign() {
        let c = Copier::new(ElementType::S4, 4, 8);
        let mut out = [0u8; 2];
        c.one(&[0x8F], 1, &mut out, 1); // high nibble: -8
        assert_eq!(out, [0, 0xF8]);
        let u = Copier::new(ElementType::U4, 4, 8);
        u.one(&[0x8F], 1, &mut out, 0);
        assert_eq!(out[0], 0x08);
    }
}
