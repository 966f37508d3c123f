//! TFLite's requantization arithmetic: known values, and properties against
//! a reference written from the definitions in 128-bit integers (round to
//! nearest, with the tie rule each step names).

use proptest::prelude::*;
use shapecheck_tflite::{
    multiply_by_quantized_multiplier, quantize_multiplier, rounding_divide_by_pot,
    saturating_rounding_doubling_high_mul, QuantizedMultiplier, Rounding, TfliteError,
};

fn qm(real: f64) -> (i32, i32) {
    let m = quantize_multiplier(real).unwrap();
    (m.multiplier(), m.shift())
}

#[test]
fn quantize_multiplier_known_values() {
    assert_eq!(qm(0.5), (1 << 30, 0));
    assert_eq!(qm(1.0), (1 << 30, 1));
    assert_eq!(qm(0.25), (1 << 30, -1));
    assert_eq!(qm(0.75), (1_610_612_736, 0));
    // 0.1 = 0.8 · 2^-3; 0.8 · 2^31 = 1717986918.4
    assert_eq!(qm(0.1), (1_717_986_918, -3));
    // 0.8 · 2^31 + 0.5 exactly would round up; 0.3 = 0.6 · 2^-1, 0.6 · 2^31 = 1288490188.8
    assert_eq!(qm(0.3), (1_288_490_189, -1));
    assert_eq!(qm(0.0), (0, 0));
    assert_eq!(qm(-0.0), (0, 0));
}

#[test]
fn a_mantissa_that_rounds_to_two_to_the_31_moves_to_the_next_shift() {
    // 1 − 2^-40: its mantissa · 2^31 is 2^31 − 2^-9, which rounds to 2^31
    assert_eq!(qm(1.0 - 2f64.powi(-40)), (1 << 30, 1));
    assert_eq!(qm(0.5 - 2f64.powi(-40)), (1 << 30, 0));
}

#[test]
fn tiny_multipliers_flush_to_zero_and_huge_ones_saturate() {
    // 2^-32 = 0.5 · 2^-31: the smallest shift kept
    assert_eq!(qm(2f64.powi(-32)), (1 << 30, -31));
    // 2^-33 = 0.5 · 2^-32: shift −32, below −31
    assert_eq!(qm(2f64.powi(-33)), (0, 0));
    assert_eq!(qm(f64::MIN_POSITIVE), (0, 0));
    assert_eq!(qm(5e-324), (0, 0));
    // 2^29 = 0.5 · 2^30: the largest shift kept
    assert_eq!(qm(2f64.powi(29)), (1 << 30, 30));
    assert_eq!(qm(2f64.powi(30)), (i32::MAX, 30));
    assert_eq!(qm(f64::MAX), (i32::MAX, 30));
}

#[test]
fn a_negative_or_non_finite_multiplier_is_an_error() {
    for value in [
        -0.5,
        -f64::MIN_POSITIVE,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ] {
        let err = quantize_multiplier(value).unwrap_err();
        assert!(matches!(err, TfliteError::BadMultiplier { .. }), "{value}");
        assert!(err
            .to_string()
            .contains("not a finite, non-negative number"));
    }
}

#[test]
fn the_sine_model_s_first_layer() {
    // input scale · weight scale / output scale, as TFLite computes it
    // (each scale an f32 widened to f64)
    let real = 0.024_573_976_f32 as f64 * 0.004_107_884_f32 as f64 / 0.011_006_054_5_f32 as f64;
    let (q, shift) = qm(real);
    assert_eq!(shift, -6);
    assert!((1 << 30..i32::MAX).contains(&q));
    let back = q as f64 * 2f64.powi(shift - 31);
    assert!((back - real).abs() <= 2f64.powi(shift - 32));
}

#[test]
fn the_two_roundings_differ_only_on_ties() {
    let m = |q, s| QuantizedMultiplier::new(q, s).unwrap();
    // 0.25: x = ±6 gives ±1.5, a tie
    let quarter = m(1 << 30, -1);
    let single = |x| multiply_by_quantized_multiplier(x, quarter, Rounding::Single);
    let double = |x| multiply_by_quantized_multiplier(x, quarter, Rounding::Double);
    assert_eq!((single(6), double(6)), (2, 2));
    assert_eq!((single(-6), double(-6)), (-1, -2));
    assert_eq!((single(-2), double(-2)), (0, -1)); // −0.5
    assert_eq!((single(7), double(7)), (2, 2)); // 1.75
    assert_eq!((single(-7), double(-7)), (-2, -2));
    // a left shift: 3 · (0.5 · 2) = 3, exact in both
    let one = m(1 << 30, 1);
    assert_eq!(
        multiply_by_quantized_multiplier(3, one, Rounding::Single),
        3
    );
    assert_eq!(
        multiply_by_quantized_multiplier(3, one, Rounding::Double),
        3
    );
}

#[test]
fn out_of_range_results_are_defined() {
    let big = QuantizedMultiplier::new(i32::MAX, 30).unwrap();
    assert_eq!(
        multiply_by_quantized_multiplier(i32::MAX, big, Rounding::Single),
        i32::MAX
    );
    assert_eq!(
        multiply_by_quantized_multiplier(i32::MIN, big, Rounding::Single),
        i32::MIN
    );
    // the double rounding's left shift wraps (x · 2^30 of 3 is 3 · 2^30 mod 2^32)
    let r = multiply_by_quantized_multiplier(3, big, Rounding::Double);
    let wrapped = 3i32.wrapping_mul(1 << 30);
    assert_eq!(r, saturating_rounding_doubling_high_mul(wrapped, i32::MAX));
}

#[test]
fn gemmlowp_primitives_known_values() {
    assert_eq!(
        saturating_rounding_doubling_high_mul(i32::MIN, i32::MIN),
        i32::MAX
    );
    assert_eq!(
        saturating_rounding_doubling_high_mul(i32::MIN, i32::MAX),
        -i32::MAX
    );
    assert_eq!(saturating_rounding_doubling_high_mul(1, 1 << 30), 1); // 0.5 → 1
    assert_eq!(saturating_rounding_doubling_high_mul(-1, 1 << 30), 0); // −0.5 → 0
    assert_eq!(rounding_divide_by_pot(i32::MIN, 31), -1);
    assert_eq!(rounding_divide_by_pot(i32::MAX, 31), 1);
    assert_eq!(rounding_divide_by_pot(-(1 << 30), 31), -1); // −0.5 → −1
    assert_eq!(rounding_divide_by_pot(1 << 30, 31), 1);
    assert_eq!(rounding_divide_by_pot(i32::MIN, 200), 0);
}

// --- the reference -------------------------------------------------------------

#[derive(Clone, Copy)]
enum Tie {
    Up,
    AwayFromZero,
}

/// n / d rounded to the nearest integer (d > 0), ties as `tie` says.
fn round_div(n: i128, d: i128, tie: Tie) -> i128 {
    let q = n.div_euclid(d);
    let r = n.rem_euclid(d); // n = q·d + r, 0 ≤ r < d
    match (2 * r).cmp(&d) {
        std::cmp::Ordering::Less => q,
        std::cmp::Ordering::Greater => q + 1,
        std::cmp::Ordering::Equal => match tie {
            Tie::Up => q + 1,
            Tie::AwayFromZero if n >= 0 => q + 1,
            Tie::AwayFromZero => q,
        },
    }
}

fn saturate(v: i128) -> i32 {
    v.clamp(i32::MIN as i128, i32::MAX as i128) as i32
}

/// x · q · 2^shift / 2^31, rounded once, ties toward +∞.
fn reference_single(x: i32, q: i32, shift: i32) -> i32 {
    let n = x as i128 * q as i128;
    // 2^(31 − shift) with shift ≤ 30: an integer ≥ 2
    saturate(round_div(n, 1i128 << (31 - shift), Tie::Up))
}

/// gemmlowp: x · 2^max(shift, 0) (wrapping to i32), times q / 2^31 rounded
/// ties toward +∞ (saturating), then / 2^max(−shift, 0) rounded ties away
/// from zero.
fn reference_double(x: i32, q: i32, shift: i32) -> i32 {
    let left = shift.max(0);
    let right = (-shift).max(0);
    let a = ((x as i128) << left) as i32 as i128; // the low 32 bits, as C++ on a 32-bit core
    let high = saturate(round_div(a * q as i128, 1 << 31, Tie::Up));
    saturate(round_div(high as i128, 1i128 << right, Tie::AwayFromZero))
}

fn multiplier() -> impl Strategy<Value = (i32, i32)> {
    // every valid pair, and the normalised ones (q ≥ 2^30) more often
    prop_oneof![
        (0..=i32::MAX, -31..=30i32),
        ((1 << 30)..=i32::MAX, -31..=30i32),
        ((1 << 30)..=(1 << 30) + 4, -12..=3i32),
    ]
}

fn accumulator() -> impl Strategy<Value = i32> {
    prop_oneof![any::<i32>(), -5000..5000i32, Just(i32::MIN), Just(i32::MAX)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn single_rounding_matches_the_reference(x in accumulator(), (q, shift) in multiplier()) {
        let m = QuantizedMultiplier::new(q, shift).unwrap();
        prop_assert_eq!(
            multiply_by_quantized_multiplier(x, m, Rounding::Single),
            reference_single(x, q, shift)
        );
    }

    #[test]
    fn double_rounding_matches_the_reference(x in accumulator(), (q, shift) in multiplier()) {
        let m = QuantizedMultiplier::new(q, shift).unwrap();
        prop_assert_eq!(
            multiply_by_quantized_multiplier(x, m, Rounding::Double),
            reference_double(x, q, shift)
        );
    }

    #[test]
    fn the_roundings_are_within_one_of_each_other(
        x in -(1i32 << 24)..(1 << 24),
        q in 0..=i32::MAX,
        shift in -31..=0i32,
    ) {
        // no left shift and no saturation: each is the exact product rounded
        // to within one half, plus the double's second half step
        let m = QuantizedMultiplier::new(q, shift).unwrap();
        let s = multiply_by_quantized_multiplier(x, m, Rounding::Single);
        let d = multiply_by_quantized_multiplier(x, m, Rounding::Double);
        prop_assert!((s - d).abs() <= 1, "{} vs {}", s, d);
    }

    #[test]
    fn high_mul_matches_the_reference(a in any::<i32>(), b in any::<i32>()) {
        let want = if a == i32::MIN && b == i32::MIN {
            i32::MAX
        } else {
            saturate(round_div(a as i128 * b as i128, 1 << 31, Tie::Up))
        };
        prop_assert_eq!(saturating_rounding_doubling_high_mul(a, b), want);
    }

    #[test]
    fn divide_by_pot_matches_the_reference(x in accumulator(), e in 0u32..70) {
        let want = saturate(round_div(x as i128, 1i128 << e, Tie::AwayFromZero));
        prop_assert_eq!(rounding_divide_by_pot(x, e), want);
    }

    #[test]
    fn quantize_multiplier_rounds_the_mantissa_to_nearest(
        mantissa in 0.5f64..1.0,
        exponent in -40i32..40,
    ) {
        let real = mantissa * 2f64.powi(exponent);
        let m = quantize_multiplier(real).unwrap();
        let (q, shift) = (m.multiplier(), m.shift());
        if exponent < -31 {
            // flushed, unless the mantissa rounded up into shift −31
            prop_assert!((q, shift) == (0, 0) || (q, shift) == (1 << 30, -31));
        } else if exponent > 30 || (exponent == 30 && q == i32::MAX) {
            // (a mantissa rounding up at exponent 30 also saturates)
            prop_assert_eq!((q, shift), (i32::MAX, 30));
        } else {
            prop_assert!((1 << 30..=i32::MAX).contains(&q));
            // real · 2^(31 − shift) is exact (a power-of-two scaling) and q
            // is it rounded half away from zero
            let scaled = real * 2f64.powi(31 - shift);
            prop_assert!((q as f64 - scaled).abs() <= 0.5, "{} {} {}", real, q, shift);
            if (q as f64 - scaled).abs() == 0.5 {
                prop_assert!(q as f64 > scaled);
            }
        }
    }
}
