//! `add_int8_in_place` (its output written over one input) against
//! `add_int8` into a separate output, on random lengths, values and
//! parameters: bit for bit, over either input; and both against TFLite
//! Micro's reference `ADD` (`reference::add_int8`), on parameters from
//! scales and on multipliers built by hand (the in-place form's loop over
//! words and its fallback, issue 80).

use proptest::prelude::*;
use shapecheck_tflite::{
    add_int8, add_int8_in_place, add_int8_prechecked, add_params, reference, AddOver, AddParams,
    QuantizedMultiplier,
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn an_add_over_an_input_is_the_add_into_its_own_output(
        pairs in prop::collection::vec((any::<i8>(), any::<i8>()), 0..64),
        scales in (0.001f32..1.0, 0.001f32..1.0, 0.002f32..2.0),
        zero_points in (-128i32..128, -128i32..128, -128i32..128),
        clamp in (-128i32..128, -128i32..128),
    ) {
        let (s1, s2, so) = scales;
        let (z1, z2, zo) = zero_points;
        let (lo, hi) = (clamp.0.min(clamp.1), clamp.0.max(clamp.1));
        let Ok(params) = add_params(s1, z1, s2, z2, so, zo, lo, hi) else {
            return Ok(());
        };
        let x1: Vec<i8> = pairs.iter().map(|p| p.0).collect();
        let x2: Vec<i8> = pairs.iter().map(|p| p.1).collect();
        let n = [x1.len()];
        let mut apart = vec![0i8; x1.len()];
        add_int8(&x1[..], &n, &x2[..], &n, &params, &mut apart).unwrap();

        let mut over1 = x1.clone();
        add_int8_in_place(&mut over1, &x2, AddOver::Input1, &params).unwrap();
        prop_assert_eq!(&over1, &apart);

        let mut over2 = x2.clone();
        add_int8_in_place(&mut over2, &x1, AddOver::Input2, &params).unwrap();
        prop_assert_eq!(&over2, &apart);
    }
}

#[test]
fn an_add_over_an_input_of_another_length_is_refused_untouched() {
    let params = add_params(0.5, 0, 0.5, 0, 1.0, 0, -128, 127).unwrap();
    let mut target = [1i8, 2, 3];
    assert!(add_int8_in_place(&mut target, &[1, 2], AddOver::Input1, &params).is_err());
    assert_eq!(target, [1, 2, 3]);
}

/// A scale from 2^-12 to 2^2, spread evenly in its exponent.
fn scale() -> impl Strategy<Value = f32> {
    (-12.0f32..2.0).prop_map(|e| 2f32.powf(e))
}

/// An input or output multiplier as `AddParams::check` lets one be
/// written by hand: exactly one half (what `add_params` gives the input
/// of the larger scale), or any in `[2^30, 2^31)` with a shift in
/// `[−31, 0]` (a shift of 0 is one the loop over words does not take).
fn multiplier() -> impl Strategy<Value = QuantizedMultiplier> {
    prop_oneof![
        Just(QuantizedMultiplier::from_parts(1 << 30, 0)),
        ((1i32 << 30)..=i32::MAX, -31i32..=0)
            .prop_map(|(m, s)| QuantizedMultiplier::from_parts(m, s)),
    ]
}

/// `x1 + x2` by `add_int8`, `add_int8_prechecked` and by
/// `add_int8_in_place` over either input, each checked against
/// `reference::add_int8`.
fn check_against_reference(pairs: &[(i8, i8)], params: &AddParams) -> Result<(), TestCaseError> {
    let x1: Vec<i8> = pairs.iter().map(|p| p.0).collect();
    let x2: Vec<i8> = pairs.iter().map(|p| p.1).collect();
    let mut want = vec![0i8; x1.len()];
    reference::add_int8(&x1, &x2, params, &mut want);

    let n = [x1.len()];
    let mut apart = vec![0i8; x1.len()];
    add_int8(&x1[..], &n, &x2[..], &n, params, &mut apart).unwrap();
    prop_assert_eq!(&apart, &want);

    // the unchecked entry, which takes one shape's inputs by words
    let mut unchecked = vec![0i8; x1.len()];
    add_int8_prechecked(&x1[..], &n, &x2[..], &n, params, &mut unchecked);
    prop_assert_eq!(&unchecked, &want);

    let mut over1 = x1.clone();
    add_int8_in_place(&mut over1, &x2, AddOver::Input1, params).unwrap();
    prop_assert_eq!(&over1, &want);

    let mut over2 = x2.clone();
    add_int8_in_place(&mut over2, &x1, AddOver::Input2, params).unwrap();
    prop_assert_eq!(&over2, &want);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn an_add_in_place_is_tflite_micro_s_reference(
        pairs in prop::collection::vec((any::<i8>(), any::<i8>()), 0..150),
        // equal scales: both inputs' multipliers one half
        scales in prop_oneof![(scale(), scale()), scale().prop_map(|s| (s, s))],
        // coarse, or fine: as low as twice the larger input scale over
        // 2^20 allows (an output multiplier up to 1), where a sum one off
        // in its last bit changes outputs
        output_scale in prop_oneof![
            (-16.0f32..3.0).prop_map(|e| Err(2f32.powf(e))),
            (0.01f32..3.0).prop_map(Ok),
        ],
        zero_points in (-128i32..128, -128i32..128, -128i32..128),
        clamp in prop_oneof![
            Just((-128i32, 127i32)),
            (-128i32..128).prop_map(|z| (z, 127)),
            (-128i32..128, -128i32..128).prop_map(|(a, b)| (a.min(b), a.max(b))),
        ],
    ) {
        let (s1, s2) = scales;
        let (z1, z2, zo) = zero_points;
        let output_scale = match output_scale {
            Err(coarse) => coarse,
            Ok(e) => 2.0 * s1.max(s2) * 2f32.powf(e - 20.0),
        };
        let Ok(params) = add_params(s1, z1, s2, z2, output_scale, zo, clamp.0, clamp.1) else {
            return Ok(());
        };
        check_against_reference(&pairs, &params)?;
    }

    #[test]
    fn an_add_in_place_of_multipliers_built_by_hand_is_tflite_micro_s_reference(
        pairs in prop::collection::vec((any::<i8>(), any::<i8>()), 0..40),
        multipliers in (multiplier(), multiplier(), ((1i32 << 30)..=i32::MAX, prop_oneof![-31i32..=0, -2i32..=0])),
        zero_points in (-128i32..128, -128i32..128, -128i32..128),
        clamp in (-128i32..128, -128i32..128),
    ) {
        let (m1, m2, (mo, so)) = multipliers;
        let (z1, z2, zo) = zero_points;
        let params = AddParams {
            input1_zero_point: z1,
            input1_multiplier: m1,
            input2_zero_point: z2,
            input2_multiplier: m2,
            output_zero_point: zo,
            output_multiplier: QuantizedMultiplier::from_parts(mo, so),
            output_min: clamp.0.min(clamp.1),
            output_max: clamp.0.max(clamp.1),
        };
        check_against_reference(&pairs, &params)?;
    }
}
