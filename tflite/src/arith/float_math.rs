//! The f32 functions TFLite Micro's float kernels call from the C library
//! (`expf`, `expm1f`, `tanhf`, `logf`, `sqrtf`), which `core` does not
//! have.
//!
//! - `sqrt` is correctly rounded, always (an integer square root and its
//!   remainder).
//! - `exp` evaluates a degree-14 Taylor polynomial after the range
//!   reduction `x = k · ln 2 + r`, `|r| ≤ ln 2 / 2`, in f64: its f64 value
//!   is within a few f64 ulps of the exact one, so its rounding to f32 is
//!   the correctly rounded result unless the exact value lies within about
//!   2^−50 (relative) of a midpoint between two f32s, where it may be the
//!   other neighbour: one f32 ulp at most. glibc's `expf` is correctly
//!   rounded in practice; the recorded values agree to the bit.
//! - `expm1f` is glibc's own algorithm (fdlibm's, in f32 arithmetic),
//!   which is not correctly rounded: it agrees with glibc 2.36's `expm1f`,
//!   the C library of TFLite Micro's recordings, on every one of the 2^32
//!   f32s (checked on the host against the C library), so an `ELU` and
//!   everything after it are TFLite Micro's to the bit.
//! - `tanhf` is glibc's (fdlibm's, over `expm1f`), to the bit on 44
//!   million f32s checked on the host.
//! - `logf` is correctly rounded (an f64 series); glibc 2.36's is not
//!   always (0.82 ulp): one ulp apart on about 1 f32 in 10^4.
//!
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

/// `e^x − 1` in f32 as glibc's `expm1f` computes it (the fdlibm
/// algorithm, in f32 arithmetic), which TFLite Micro's `ELU` calls through
/// `TfLiteExpm1`: not always the correctly rounded value, but the one TFLite Micro's recordings hold, to the bit. `x = k · ln 2 +
/// r` with `|r| ≤ ln 2 / 2`, a rational approximation of `expm1(r)` of
/// five coefficients, and the scaling by `2^k` done on the exponent bits.
pub(crate) fn expm1f(x: f32) -> f32 {
    const O_THRESHOLD: f32 = f32::from_bits(0x42b1_7180); // 88.72168
    const LN2_HI_F: f32 = f32::from_bits(0x3f31_7180); // 0.6931381
    const LN2_LO_F: f32 = f32::from_bits(0x3717_f7d1); // 9.058001e−6
    const INV_LN2: f32 = f32::from_bits(0x3fb8_aa3b); // 1.442695
    const Q1: f32 = f32::from_bits(0xbd08_8889); // −3.3333335e−2
    const Q2: f32 = f32::from_bits(0x3ad0_0d01); // 1.5873016e−3
    const Q3: f32 = f32::from_bits(0xb8a6_70cd); // −7.936508e−5
    const Q4: f32 = f32::from_bits(0x3686_7e54); // 4.0082177e−6
    const Q5: f32 = f32::from_bits(0xb457_edbb); // −2.0109921e−7
    let bits = x.to_bits();
    let negative = bits & 0x8000_0000 != 0;
    let hx = bits & 0x7fff_ffff;
    // huge and non-finite arguments
    if hx >= 0x4195_b844 {
        // |x| ≥ 27 ln 2
        if hx >= 0x42b1_7218 {
            // |x| ≥ 88.72
            if hx > 0x7f80_0000 {
                return x + x; // NaN
            }
            if hx == 0x7f80_0000 {
                return if negative { -1.0 } else { x };
            }
            if x > O_THRESHOLD {
                return f32::INFINITY;
            }
        }
        if negative {
            return -1.0;
        }
    }
    // the argument reduction: x = k ln 2 + (hi − lo), c the rounding error
    let (k, x, c) = if hx > 0x3eb1_7218 {
        // |x| > ln 2 / 2
        let (k, hi, lo) = if hx < 0x3f85_1592 {
            // and |x| < 3 ln 2 / 2
            if negative {
                (-1, x + LN2_HI_F, -LN2_LO_F)
            } else {
                (1, x - LN2_HI_F, LN2_LO_F)
            }
        } else {
            let k = (INV_LN2 * x + if negative { -0.5 } else { 0.5 }) as i32;
            let t = k as f32;
            (k, x - t * LN2_HI_F, t * LN2_LO_F)
        };
        let r = hi - lo;
        (k, r, (hi - r) - lo)
    } else if hx < 0x3300_0000 {
        // |x| < 2^−25: x itself
        return x;
    } else {
        (0, x, 0.0)
    };
    // x is now within ln 2 / 2 of 0
    let hfx = 0.5 * x;
    let hxs = x * hfx;
    let r1 = 1.0 + hxs * (Q1 + hxs * (Q2 + hxs * (Q3 + hxs * (Q4 + hxs * Q5))));
    let t = 3.0 - r1 * hfx;
    let e = hxs * ((r1 - t) / (6.0 - x * t));
    if k == 0 {
        return x - (x * e - hxs);
    }
    let e = (x * (e - c) - c) - hxs;
    if k == -1 {
        return 0.5 * (x - e) - 0.5;
    }
    if k == 1 {
        return if x < -0.25 {
            -2.0 * (e - (x + 0.5))
        } else {
            1.0 + 2.0 * (x - e)
        };
    }
    // 2^k added to the exponent's bits (k is within −27..=128 here)
    let scaled = |y: f32| f32::from_bits(y.to_bits().wrapping_add_signed(k << 23));
    if k <= -2 || k > 56 {
        let y = 1.0 - (e - x);
        let y = if k == 128 {
            y * 2.0 * f32::from_bits(0x7f00_0000) // 2^127
        } else {
            scaled(y)
        };
        return y - 1.0;
    }
    if k < 23 {
        let t = f32::from_bits(0x3f80_0000 - (0x0100_0000 >> k)); // 1 − 2^−k
        scaled(t - (e - x))
    } else {
        let t = f32::from_bits(((0x7f - k) as u32) << 23); // 2^−k
        scaled((x - (e + t)) + 1.0)
    }
}

/// `tanh(x)` in f32 as glibc's `tanhf` computes it (fdlibm's algorithm,
/// in f32 arithmetic, over [`expm1f`]), which TFLite Micro's f32 `TANH`
/// calls through `std::tanh`: `x` itself below 2^−55 (`x · (1 + x)`),
/// `1 − 2 / (expm1(2|x|) + 2)` from 1, `−t / (t + 2)` with
/// `t = expm1(−2|x|)` below 1, ±1 from 22 on, the sign put back last.
pub(crate) fn tanhf(x: f32) -> f32 {
    let bits = x.to_bits();
    let negative = bits & 0x8000_0000 != 0;
    let ix = bits & 0x7fff_ffff;
    if ix >= 0x7f80_0000 {
        // ±∞ → ±1; NaN stays NaN
        return if negative {
            1.0 / x - 1.0
        } else {
            1.0 / x + 1.0
        };
    }
    let z = if ix < 0x41b0_0000 {
        // |x| < 22
        if ix == 0 {
            return x; // ±0
        }
        if ix < 0x2400_0000 {
            // |x| < 2^−55
            return x * (1.0 + x);
        }
        let a = f32::from_bits(ix);
        if ix >= 0x3f80_0000 {
            // |x| ≥ 1
            let t = expm1f(2.0 * a);
            1.0 - 2.0 / (t + 2.0)
        } else {
            let t = expm1f(-2.0 * a);
            -t / (t + 2.0)
        }
    } else {
        // |x| ≥ 22: 1 − tiny rounds to 1
        1.0
    };
    if negative {
        -z
    } else {
        z
    }
}

/// `ln(x)` rounded to f32, as C's `logf` (which TFLite Micro's f32
/// `LOG_SOFTMAX` calls through `std::log`): NaN for NaN and below 0, `−∞`
/// for ±0, `+∞` for `+∞`. `x = 2^e · m` with `m` in `[√½, √2)`, and
/// `ln m = 2 · atanh(s)`, `s = (m − 1) / (m + 1)`, `|s| ≤ 0.172`, by its
/// odd series to `s^25 / 25` (the rest is below 2^−60 relative) in f64;
/// `e · ln 2 + ln m` in f64 rounds to the correctly rounded f32 unless the
/// exact value lies within about 2^−50 (relative) of a midpoint between
/// two f32s. glibc 2.36's `logf` is not correctly rounded everywhere (its
/// error bound is 0.82 ulp): the two may differ by one ulp.
pub(crate) fn logf(x: f32) -> f32 {
    if x.is_nan() || x < 0.0 {
        return f32::NAN;
    }
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x == f32::INFINITY {
        return x;
    }
    let bits = x.to_bits();
    let biased = (bits >> 23) as i32;
    let fraction = bits & 0x7f_ffff;
    // x = m · 2^e with m in [1, 2), subnormals normalized
    let (mut m, mut e) = if biased == 0 {
        let shift = fraction.leading_zeros() as i32 - 8; // the leading 1 to bit 23
        (
            f64::from((fraction << shift) & 0x7f_ffff | 0x80_0000) / f64::from(0x80_0000u32),
            -126 - shift,
        )
    } else {
        (
            f64::from(fraction | 0x80_0000) / f64::from(0x80_0000u32),
            biased - 127,
        )
    };
    if m > core::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    // m − 1 and m + 1 are exact; the quotient rounds once
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    // 1/(2n+1) for n = 12 down to 1
    const INVERSE_ODD: [f64; 12] = [
        1.0 / 25.0,
        1.0 / 23.0,
        1.0 / 21.0,
        1.0 / 19.0,
        1.0 / 17.0,
        1.0 / 15.0,
        1.0 / 13.0,
        1.0 / 11.0,
        1.0 / 9.0,
        1.0 / 7.0,
        1.0 / 5.0,
        1.0 / 3.0,
    ];
    let mut p = 0.0f64;
    for c in INVERSE_ODD {
        p = p * s2 + c;
    }
    // 2 · (s + s³/3 + s⁵/5 + ...)
    let ln_m = 2.0 * (s + s * s2 * p);
    let ef = f64::from(e);
    ((ef * LN2_HI + ln_m) + ef * LN2_LO) as f32
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

    /// glibc's own values (testdata/expm1f_glibc.txt), over every branch
    /// of the algorithm: equal to the bit.
    #[test]
    fn expm1f_is_glibcs() {
        let table = include_str!("testdata/expm1f_glibc.txt");
        let mut checked = 0;
        for line in table.lines().filter(|l| !l.starts_with('#')) {
            let (x, y) = line.split_once(' ').unwrap();
            let x = f32::from_bits(u32::from_str_radix(x, 16).unwrap());
            let want = f32::from_bits(u32::from_str_radix(y, 16).unwrap());
            let ours = expm1f(x);
            assert!(
                ours.to_bits() == want.to_bits() || (ours.is_nan() && want.is_nan()),
                "expm1f({x:e}) = {ours:e}, glibc {want:e}"
            );
            checked += 1;
        }
        assert!(checked > 2000, "{checked}");
    }

    #[test]
    fn exp_of_simple_values() {
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-0.0), 1.0);
        assert_eq!(exp(1.0), core::f32::consts::E);
        assert_eq!(exp(89.0), f32::INFINITY);
        assert_eq!(exp(-105.0), 0.0);
        assert_eq!(expm1f(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(expm1f(1e-30), 1e-30);
        assert_eq!(expm1f(-100.0), -1.0);
    }

    /// A table of glibc's values: `(x, glibc's f(x))`.
    fn glibc_table(table: &str) -> impl Iterator<Item = (f32, f32)> + '_ {
        table.lines().filter(|l| !l.starts_with('#')).map(|line| {
            let (x, y) = line.split_once(' ').unwrap();
            let x = f32::from_bits(u32::from_str_radix(x, 16).unwrap());
            (x, f32::from_bits(u32::from_str_radix(y, 16).unwrap()))
        })
    }

    /// glibc's own values (testdata/tanhf_glibc.txt), over every branch:
    /// equal to the bit.
    #[test]
    fn tanhf_is_glibcs() {
        let mut checked = 0;
        for (x, want) in glibc_table(include_str!("testdata/tanhf_glibc.txt")) {
            let ours = tanhf(x);
            assert!(
                ours.to_bits() == want.to_bits() || (ours.is_nan() && want.is_nan()),
                "tanhf({x:e}) = {ours:e}, glibc {want:e}"
            );
            checked += 1;
        }
        assert!(checked > 2000, "{checked}");
        assert_eq!(tanhf(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(tanhf(30.0), 1.0);
        assert_eq!(tanhf(f32::NEG_INFINITY), -1.0);
    }

    /// glibc's values (testdata/logf_glibc.txt): within one ulp, and the
    /// ones that differ are few (glibc's `logf` is not correctly rounded
    /// there; ours is, checked against the f64 logarithm).
    #[test]
    fn logf_is_within_an_ulp_of_glibcs() {
        extern crate std;
        let (mut checked, mut one_ulp) = (0, 0);
        for (x, want) in glibc_table(include_str!("testdata/logf_glibc.txt")) {
            let ours = logf(x);
            if ours.is_nan() && want.is_nan() {
                continue;
            }
            let d = ours.to_bits().abs_diff(want.to_bits());
            assert!(d <= 1, "logf({x:e}) = {ours:e}, glibc {want:e}");
            if d == 1 {
                one_ulp += 1;
                // ours is the nearer to the logarithm
                let exact = std::primitive::f64::ln(f64::from(x));
                assert!((f64::from(ours) - exact).abs() <= (f64::from(want) - exact).abs());
            }
            checked += 1;
        }
        assert!(checked > 1900, "{checked}");
        assert!(one_ulp * 100 < checked, "{one_ulp} of {checked}");
        assert_eq!(logf(1.0), 0.0);
        assert_eq!(logf(0.0), f32::NEG_INFINITY);
        assert_eq!(logf(-0.0), f32::NEG_INFINITY);
        assert!(logf(-1.0).is_nan());
        assert_eq!(logf(2.0), core::f32::consts::LN_2);
    }
}
