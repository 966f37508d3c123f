//! `add_int8_in_place` (its output written over one input) against
//! `add_int8` into a separate output, on random lengths, values and
//! parameters: bit for bit, over either input.

use proptest::prelude::*;
use shapecheck_tflite::{add_int8, add_int8_in_place, add_params, AddOver};

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
