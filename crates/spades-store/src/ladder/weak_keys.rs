//! Ed25519 encodings no honest key or signature has, refused before any
//! signature is checked. A verifier alone is not enough: with a key of
//! small order (the identity point, say) and a signature whose R is that
//! point and S zero, the verification equation holds for every message,
//! so anyone could register such a key and sign in as it. A key made by
//! `Identity::generate` is never one of these (its odds are nil).
//!
//! A point is written as its y coordinate (255 bits, little-endian) and
//! the sign of x in the top bit. The eight points of small order have y in
//! {1, -1, 0, ±y8}: the identity (order 1), (0, -1) (order 2), the two with
//! y = 0 (order 4) and the four with y = ±y8 (order 8). Every encoding of
//! them is refused: both signs of x (for x = 0, the sign bit set is a
//! second, non-canonical encoding), and y written as y + p (only 0 and 1
//! fit in 255 bits that way, and every y >= p is refused anyway).

/// Why a key or a signature is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Weakness {
    #[error("the key is not a canonical point encoding")]
    KeyNotCanonical,
    #[error("the key is a point of small order, which any signature could match")]
    KeySmallOrder,
    #[error("the signature's R is not a canonical point encoding")]
    RNotCanonical,
    #[error("the signature's R is a point of small order")]
    RSmallOrder,
    #[error("the signature's S is not below the group's order")]
    SNotReduced,
}

/// The y coordinates (little-endian, top bit clear) of the points of
/// small order, each once: 0, 1, p - 1, y8 and p - y8.
const SMALL_ORDER_Y: [[u8; 32]; 5] = [
    [0; 32],
    [
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0,
    ],
    [
        0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0x7f,
    ],
    [
        0x26, 0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89, 0xf2, 0xef, 0x98,
        0xf0, 0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39, 0xb1, 0x38, 0x02, 0x88, 0x6d, 0x53,
        0xfc, 0x05,
    ],
    [
        0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76, 0x0d, 0x10, 0x67,
        0x0f, 0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6, 0x4e, 0xc7, 0xfd, 0x77, 0x92, 0xac,
        0x03, 0x7a,
    ],
];

/// The order of the group Ed25519 signs in, L = 2^252 +
/// 27742317777372353535851937790883648493, little-endian.
const L: [u8; 32] = [
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
];

/// The field's prime p = 2^255 - 19, little-endian.
const P: [u8; 32] = [
    0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
];

/// Whether the little-endian number `a` is below `b`.
fn below(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().rev().cmp(b.iter().rev()) == std::cmp::Ordering::Less
}

/// The encoding's y, the sign of x cleared.
fn y_of(point: &[u8; 32]) -> [u8; 32] {
    let mut y = *point;
    y[31] &= 0x7f;
    y
}

/// Whether `point` writes y as a number of the field (y < p).
fn is_canonical(point: &[u8; 32]) -> bool {
    below(&y_of(point), &P)
}

/// Whether `point` is an encoding (with either sign of x) of a point of
/// small order.
fn is_small_order(point: &[u8; 32]) -> bool {
    SMALL_ORDER_Y.contains(&y_of(point))
}

/// Why `key` can never be an account's key, if it cannot.
pub fn key_weakness(key: &[u8; 32]) -> Option<Weakness> {
    if !is_canonical(key) {
        Some(Weakness::KeyNotCanonical)
    } else if is_small_order(key) {
        Some(Weakness::KeySmallOrder)
    } else {
        None
    }
}

/// Why `signature` (R then S, 32 bytes each) is refused, if it is.
pub fn signature_weakness(signature: &[u8; 64]) -> Option<Weakness> {
    let (r, s) = signature.split_at(32);
    let r: &[u8; 32] = r.try_into().ok()?;
    let s: &[u8; 32] = s.try_into().ok()?;
    if !below(s, &L) {
        Some(Weakness::SNotReduced)
    } else if !is_canonical(r) {
        Some(Weakness::RNotCanonical)
    } else if is_small_order(r) {
        Some(Weakness::RSmallOrder)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every encoding of the eight points of small order: each y with both
    /// signs of x, and 0 and 1 written as p and p + 1.
    fn small_order_encodings() -> Vec<[u8; 32]> {
        let mut all = Vec::new();
        for y in SMALL_ORDER_Y {
            let mut negative = y;
            negative[31] |= 0x80;
            all.extend([y, negative]);
        }
        for plus in [0u8, 1] {
            let mut y = P;
            y[0] += plus;
            let mut negative = y;
            negative[31] |= 0x80;
            all.extend([y, negative]);
        }
        all
    }

    fn hex32(text: &str) -> [u8; 32] {
        data_encoding::HEXLOWER
            .decode(text.as_bytes())
            .unwrap()
            .try_into()
            .unwrap()
    }

    /// The small-order encodings as published (the identity, the order-2
    /// point, the order-4 and order-8 y values, and p, p + 1), all refused.
    #[test]
    fn every_encoding_of_a_small_order_point_is_refused_as_a_key() {
        for known in [
            "0100000000000000000000000000000000000000000000000000000000000000",
            "0000000000000000000000000000000000000000000000000000000000000000",
            "0000000000000000000000000000000000000000000000000000000000000080",
            "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
            "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
            "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
            "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
            "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            "0100000000000000000000000000000000000000000000000000000000000080",
        ] {
            assert!(key_weakness(&hex32(known)).is_some(), "{known}");
        }
        let all = small_order_encodings();
        assert_eq!(all.len(), 14);
        for point in all {
            assert!(key_weakness(&point).is_some(), "{point:02x?}");
            let mut signature = [0; 64];
            signature[..32].copy_from_slice(&point);
            assert!(signature_weakness(&signature).is_some(), "{point:02x?}");
        }
    }

    #[test]
    fn a_y_of_the_field_or_beyond_is_not_canonical() {
        let mut y = P;
        for last in [0xed, 0xf0, 0xff] {
            y[0] = last;
            assert_eq!(key_weakness(&y), Some(Weakness::KeyNotCanonical));
        }
        y[0] = 0xec;
        // p - 1 is canonical, and of order 2.
        assert_eq!(key_weakness(&y), Some(Weakness::KeySmallOrder));
    }

    #[test]
    fn s_must_be_below_the_order() {
        let real = crate::ladder::keys::Identity::generate().unwrap();
        let challenge = crate::ladder::keys::Challenge::fresh(
            crate::ladder::keys::ServerId([1; 32]),
            crate::ladder::UnixTime(1),
        )
        .unwrap();
        let answer = real.answer(&challenge);
        assert_eq!(key_weakness(answer.key.as_bytes()), None);
        let mut signature = *answer.signature.as_bytes();
        assert_eq!(signature_weakness(&signature), None);
        signature[32..].copy_from_slice(&L);
        assert_eq!(signature_weakness(&signature), Some(Weakness::SNotReduced));
        signature[63] = 0xff;
        assert_eq!(signature_weakness(&signature), Some(Weakness::SNotReduced));
        let mut below_l = L;
        below_l[0] -= 1;
        signature[32..].copy_from_slice(&below_l);
        assert_eq!(signature_weakness(&signature), None);
    }
}
