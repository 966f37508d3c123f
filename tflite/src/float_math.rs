//! The f32 functions TFLite Micro's float kernels call from the C library
//! (`expf`, `expm1f`, `sqrtf`), which `core` does not have: each computed
//! in f64 (or, for the square root, in integers) and rounded once to f32.
//!
//! `sqrt` is correctly rounded, always (an integer square root and its
//! remainder). `exp` and `exp_m1` evaluate a degree-14 Taylor polynomial
//! after the range reduction `x = k · ln 2 + r`, `|r| ≤ ln 2 / 2`, in f64:
//! their f64 value is within a few f64 ulps of the exact one, so its
//! rounding to f32 is the correctly rounded result unless the exact value
//! lies within about 2^−50 (relative) of a midpoint between two f32s,
//! where it may be the other neighbour: one f32 ulp at most. glibc's
//! `expf` and `expm1f`, which TFLite Micro's recordings call, are
//! correctly rounded in practice; the recorded values agree to the bit.
//! On a Cortex-M4F the f64 arithmetic is a software library's: slower than
//! the FPU's f32, exact as specified.

/// ln 2's high part, its low 21 bits zero, so that `k · LN2_HI` is exact
/// for every `|k| < 2^11`.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000); // 0.693147180369...
/// ln 2 − `LN2_HI`.
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76); // 1.9082149e−10
/// 1 / ln 2.
const LOG2_E: f64 = core::f64::consts::LOG2_E;
/// Above this, `e^x` overflows f32 (`ln(f32::MAX) ≈ 88.7228`).
const EXP_OVERFLOW: f32 = 88.8;
/// Below this, `e^x` rounds to 0 in f32 (`ln(2^−150) ≈ −103.97`).
const EXP_UNDERFLOW: f32 = -104.0;

/// `x = k · ln 2 + r`, `k` the integer nearest `x / ln 2`, so
/// `|r| ≤ ln 2 / 2` (up to the rounding of `x / ln 2`); for `|x| ≤ 104`.
fn reduce(x: f64) -> (i32, f64) {
    let t = x * LOG2_E;
    // |t| ≤ 151: the casts are exact
    let k = if t >= 0.0 {
        (t + 0.5) as i32
    } else {
        (t - 0.5) as i32
    };
    let kf = f64::from(k);
    // x has 24 significant bits and k · LN2_HI 43: their difference is
    // exact (the two are within a factor of 2 of each other or k is 0)
    (k, (x - kf * LN2_HI) - kf * LN2_LO)
}

/// `e^r − 1` for `|r| ≤ 0.35`: the Taylor series to `r^14 / 14!` (the
/// rest is below 2^−56 relative), by Horner's rule in f64.
fn exp_m1_reduced(r: f64) -> f64 {
    // 1/n! for n = 14 down to 2
    const INVERSE_FACTORIALS: [f64; 13] = [
        1.0 / 87_178_291_200.0,
        1.0 / 6_227_020_800.0,
        1.0 / 479_001_600.0,
        1.0 / 39_916_800.0,
        1.0 / 3_628_800.0,
        1.0 / 362_880.0,
        1.0 / 40_320.0,
        1.0 / 5_040.0,
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        1.0 / 2.0,
    ];
    let mut p = 0.0f64;
    for c in INVERSE_FACTORIALS {
        p = p * r + c;
    }
    // r + r² · (1/2 + r/6 + ...)
    r + r * r * p
}

/// `2^k` as an f64, for `|k| ≤ 1022`.
fn pow2(k: i32) -> f64 {
    let biased = u64::from((k + 1023).clamp(1, 2046).unsigned_abs());
    f64::from_bits(biased << 52)
}

/// `e^x` rounded to f32, as glibc's `expf`: NaN for NaN, `+∞` above
/// 88.72, 0 below −103.97, subnormal results rounded once.
pub(crate) fn exp(x: f32) -> f32 {
    if x.is_nan() {
        return x;
    }
    if x > EXP_OVERFLOW {
        return f32::INFINITY;
    }
    if x < EXP_UNDERFLOW {
        return 0.0;
    }
    let (k, r) = reduce(f64::from(x));
    // e^x = 2^k · (1 + expm1(r)); 2^k and the product are exact in f64
    // (k in [−151, 129]), so the one rounding is the cast
    ((1.0 + exp_m1_reduced(r)) * pow2(k)) as f32
}

/// `e^x − 1` rounded to f32, as glibc's `expm1f` (which TFLite Micro's
/// `ELU` calls, through TFLite's `TfLiteExpm1`): NaN for NaN, `+∞` above
/// 88.72, −1 far below 0, and `x` itself (to the bit, −0 included) where
/// `|x|` is so small that `x + x²/2` rounds to it.
pub(crate) fn exp_m1(x: f32) -> f32 {
    if x.is_nan() {
        return x;
    }
    if x > EXP_OVERFLOW {
        return f32::INFINITY;
    }
    if x < -30.0 {
        // e^x < 2^−43: e^x − 1 rounds to −1
        return -1.0;
    }
    let (k, r) = reduce(f64::from(x));
    let m = exp_m1_reduced(r);
    if k == 0 {
        // the small arguments: no cancellation, and x = 0 (of either
        // sign) gives x exactly
        return if x == 0.0 { x } else { m as f32 };
    }
    // e^x − 1 = 2^k · expm1(r) + (2^k − 1); |e^x − 1| ≥ 0.29 here, so the
    // f64 sum's error is a few f64 ulps of the result
    let scale = pow2(k);
    (scale * m + (scale - 1.0)) as f32
}

/// The square root of `x`, correctly rounded to f32 (IEEE 754's `sqrt`,
/// C's `sqrtf`): NaN for NaN and below 0, `−0` for `−0`, `+∞` for `+∞`.
/// An integer square root of the significand, widened so that the root
/// has 24 bits, and its remainder decide the rounding.
pub(crate) fn sqrt(x: f32) -> f32 {
    if x.is_nan() || x < 0.0 {
        return f32::NAN;
    }
    if x == 0.0 || x == f32::INFINITY {
        return x;
    }
    // x = m · 2^e, m an integer below 2^24
    let bits = x.to_bits();
    let biased = (bits >> 23) as i32;
    let fraction = bits & 0x7f_ffff;
    let (mut m, mut e) = if biased == 0 {
        (fraction, -149)
    } else {
        (fraction | 0x80_0000, biased - 150)
    };
    // normalize m to [2^23, 2^24) (subnormals have fewer bits)
    while m < 0x80_0000 {
        m <<= 1;
        e -= 1;
    }
    // n = m · 2^s with s even-making and n in [2^46, 2^48): its root
    // floor(√n) is in [2^23, 2^24), 24 bits
    let s = if e % 2 == 0 { 24 } else { 23 };
    let n = u64::from(m) << s;
    let root = n.isqrt();
    // round to nearest: up when n > (root + ½)² = root² + root + ¼, that
    // is n − root² > root (never equal: a tie would need an integer ¼)
    let rounded = if n - root * root > root {
        root + 1
    } else {
        root
    };
    // √x = √n · 2^((e − s) / 2); (e − s) / 2 is in [−98, 40] and the
    // root at most 2^24: the product is exact
    let half = (e - s) / 2;
    let power = f32::from_bits(((half + 127).clamp(1, 254) as u32) << 23);
    rounded as f32 * power
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqrt_is_correctly_rounded() {
        // against the f64 square root rounded once (f64's 53 bits make
        // the double rounding innocuous for a square root)
        let mut x = 1e-30f32;
        while x < 1e30 {
            for y in [
                x,
                f32::from_bits(x.to_bits() + 1),
                f32::from_bits(x.to_bits() + 12345),
            ] {
                let want = (f64::from(y)).sqrt() as f32;
                assert_eq!(sqrt(y), want, "sqrt({y})");
            }
            x *= 1.37;
        }
        for bits in [1u32, 2, 3, 0x7f_ffff, 0x80_0000, 0x7f7f_ffff] {
            let y = f32::from_bits(bits);
            assert_eq!(sqrt(y), (f64::from(y)).sqrt() as f32, "sqrt({y:e})");
        }
    }

    #[test]
    fn square_roots_of_squares_are_exact() {
        // (squares that stay normal)
        for v in [1.0f32, 2.0, 3.0, 0.5, 1e-15, 4095.0, 1.5e18] {
            assert_eq!(sqrt(v * v), v, "{v}");
        }
        // √(2^−149) = √2 · 2^−75
        assert_eq!(sqrt(f32::from_bits(1)).to_bits(), 0x1a35_04f3);
    }

    #[test]
    fn exp_of_simple_values() {
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-0.0), 1.0);
        assert_eq!(exp(1.0), core::f32::consts::E);
        assert_eq!(exp(89.0), f32::INFINITY);
        assert_eq!(exp(-105.0), 0.0);
        assert_eq!(exp_m1(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(exp_m1(1e-30), 1e-30);
        assert_eq!(exp_m1(-100.0), -1.0);
    }
}
