//! TFLite's int8 `L2_NORMALIZATION` over the last axis
//! (`tf.math.l2_normalize`), as TFLite Micro computes it
//! (`reference_integer_ops::L2Normalization`): each row divided by its
//! L2 norm in fixed point, written in steps of 1/128 from 0 (the output
//! quantization the converter gives, which TFLite Micro assumes without
//! checking).

use crate::error::TfliteError;
use crate::quant::{
    inv_sqrt_multiplier, rounding_divide_by_pot, saturating_rounding_doubling_high_mul,
};
use crate::types::Activation;
use crate::window::length;

/// `L2NormOptions`.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/l2_normalization.tflite")))?;
/// let Options::L2Norm(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!(o.fused_activation, Activation::None);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct L2NormOptions {
    /// `fused_activation_function` (TFLite Micro runs `NONE` only)
    pub fused_activation: Activation,
}

impl L2NormOptions {
    /// The options from the schema's activation.
    pub(crate) fn new(fused_activation: Activation) -> Self {
        L2NormOptions { fused_activation }
    }
}

/// An int8 L2 normalization's parameters ([`l2_normalization_params`]).
///
/// ```
/// use shapecheck_tflite::L2NormalizationParams;
///
/// const P: L2NormalizationParams = L2NormalizationParams { input_zero_point: -2 };
/// assert_eq!(P.input_zero_point, -2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L2NormalizationParams {
    /// the input's zero point
    pub input_zero_point: i32,
}

/// The parameters of an int8 `L2_NORMALIZATION`: the input's zero point
/// alone (the input's scale cancels; the output is in 1/128 from 0).
/// Fails with [`TfliteError::KernelParam`] for a zero point outside int8.
///
/// ```
/// use shapecheck_tflite::l2_normalization_params;
///
/// assert_eq!(l2_normalization_params(-2)?.input_zero_point, -2);
/// assert!(l2_normalization_params(200).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn l2_normalization_params(
    input_zero_point: i32,
) -> Result<L2NormalizationParams, TfliteError> {
    if !(-128..=127).contains(&input_zero_point) {
        return Err(TfliteError::KernelParam {
            what: "L2 normalization's input zero point",
            value: i64::from(input_zero_point),
            rule: "it must be an int8",
        });
    }
    Ok(L2NormalizationParams { input_zero_point })
}

/// TFLite's int8 `L2_NORMALIZATION` over rows of `depth` (the last axis),
/// as TFLite Micro computes it: for each row, `s = Σ (x − zp)²` in `i32`;
/// `1/√s` as a multiplier and shift (TFLite's
/// `GetInvSqrtQuantizedMultiplierExp`: five Newton–Raphson steps in
/// Q3.28; a sum of 0 or 1 counts as 1); each output is `(x − zp)` times
/// it, shifted 7 more bits left (1/128 steps), with gemmlowp's two
/// roundings, clamped to int8.
///
/// Fails, with `output` untouched, when the input is not whole rows of
/// `depth` or `output` is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::{l2_normalization_int8, l2_normalization_params};
///
/// let params = l2_normalization_params(0)?;
/// let mut out = [0i8; 2];
/// // (3, 4) / 5 = (0.6, 0.8): 77 and 102 of 128
/// l2_normalization_int8(&[3, 4], 2, &params, &mut out)?;
/// assert_eq!(out, [77, 102]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn l2_normalization_int8(
    input: &[i8],
    depth: usize,
    params: &L2NormalizationParams,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    length("output", input.len(), output.len())?;
    if depth == 0 {
        return if input.is_empty() {
            Ok(())
        } else {
            Err(TfliteError::KernelParam {
                what: "L2 normalization's depth",
                value: 0,
                rule: "it must be at least 1 for a non-empty input",
            })
        };
    }
    if !input.len().is_multiple_of(depth) {
        return Err(TfliteError::Length {
            what: "input",
            expected: (input.len() / depth + 1) * depth,
            actual: input.len(),
        });
    }
    let zp = params.input_zero_point;
    for (row, outs) in input
        .chunks_exact(depth)
        .zip(output.chunks_exact_mut(depth))
    {
        let sum = row.iter().fold(0i32, |acc, &x| {
            let d = i32::from(x).wrapping_sub(zp);
            acc.wrapping_add(d.wrapping_mul(d))
        });
        let (multiplier, shift) = inv_sqrt_multiplier(sum);
        // TFLite's MultiplyByQuantizedMultiplier with double rounding
        let shift = shift + 7;
        let (left, right) = (shift.max(0) as u32, (-shift).max(0) as u32);
        for (&x, out) in row.iter().zip(outs.iter_mut()) {
            let d = i32::from(x).wrapping_sub(zp);
            let y = rounding_divide_by_pot(
                saturating_rounding_doubling_high_mul(d.wrapping_shl(left), multiplier),
                right,
            );
            *out = y.clamp(-128, 127) as i8;
        }
    }
    Ok(())
}
