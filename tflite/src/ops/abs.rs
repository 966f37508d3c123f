//! TFLite's `ABS`, as TFLite Micro's `elementwise.cc` computes it: in int8
//! (`AbsEvalQuantized`), `|x − zp_in|` requantized to the output's scale
//! when it differs from the input's; in f32, `std::abs`.

use crate::arith::quant::{
    check_int8, check_scale, multiply_by_quantized_multiplier, quantize_multiplier,
    QuantizedMultiplier, Rounding,
};
use crate::format::error::TfliteError;
use crate::format::types::TensorType;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::shared::elementwise::{check_same_length, check_unary, UnaryStep};
use crate::shared::float_ops::{map_f32, prepare_map_f32, MapF32Step};

/// An int8 `ABS`'s parameters, as TFLite Micro's `PrepareAbsRsqrt` derives
/// them ([`abs_params`]).
///
/// ```
/// use shapecheck_tflite::{abs_params, AbsParams, QuantizedMultiplier};
///
/// // one scale in and out: no requantization
/// const SAME: AbsParams = AbsParams { input_zero_point: 2, output_zero_point: -128, output_multiplier: None };
/// assert_eq!(abs_params(0.5, 2, 0.5, -128)?, SAME);
/// // the input's scale twice the output's: a multiplier of 2
/// let p = abs_params(0.5, 0, 0.25, -128)?;
/// assert_eq!(p.output_multiplier, Some(QuantizedMultiplier::from_parts(1 << 30, 2)));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbsParams {
    /// the input's zero point, in [−128, 127]
    pub input_zero_point: i32,
    /// the output's zero point, in [−128, 127]
    pub output_zero_point: i32,
    /// `input_scale / output_scale`, or `None` where the two scales are
    /// equal (TFLite Micro's `needs_rescale` false: no multiply)
    pub output_multiplier: Option<QuantizedMultiplier>,
}

impl crate::base::write_rust::WriteRust for AbsParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "AbsParams",
            &[
                ("input_zero_point", &self.input_zero_point),
                ("output_zero_point", &self.output_zero_point),
                ("output_multiplier", &self.output_multiplier),
            ],
        )
    }
}

/// TFLite Micro's int8 `ABS` preparation: the zero points, and where the
/// scales differ (compared as `f32`, as TFLite Micro compares them) the
/// multiplier `input_scale / output_scale`, its quotient in `f64`,
/// quantized by [`quantize_multiplier`](crate::quantize_multiplier).
///
/// Fails with [`TfliteError::KernelScale`] for a scale that is not a
/// finite number above 0 or a multiplier out of the quantizer's range, and
/// with [`TfliteError::KernelParam`] for a zero point outside [−128, 127].
///
/// ```
/// use shapecheck_tflite::abs_params;
///
/// assert!(abs_params(0.5, 200, 0.5, 0).is_err());
/// assert!(abs_params(f32::NAN, 0, 0.5, 0).is_err());
/// ```
pub fn abs_params(
    input_scale: f32,
    input_zero_point: i32,
    output_scale: f32,
    output_zero_point: i32,
) -> Result<AbsParams, TfliteError> {
    check_scale("ABS's input scale", input_scale)?;
    check_scale("ABS's output scale", output_scale)?;
    check_int8("ABS's input zero point", input_zero_point)?;
    check_int8("ABS's output zero point", output_zero_point)?;
    let output_multiplier = if input_scale == output_scale {
        None
    } else {
        Some(quantize_multiplier(
            f64::from(input_scale) / f64::from(output_scale),
        )?)
    };
    Ok(AbsParams {
        input_zero_point,
        output_zero_point,
        output_multiplier,
    })
}

/// TFLite's int8 `ABS` (TFLite Micro's `AbsEvalQuantized`): for each input,
/// `v = |x − zp_in|`, then `y = v + zp_out` where the scales are equal,
/// else `y = multiply(v, M) + zp_out` (TFLite Micro's double rounding),
/// clamped to int8.
///
/// Fails, with `output` untouched, when `output` is not as long as `input`
/// or a zero point is outside [−128, 127].
///
/// ```
/// use shapecheck_tflite::{abs_int8, abs_params};
///
/// // input steps of 1/2 around 0; output steps of 1/4 from −128
/// let params = abs_params(0.5, 0, 0.25, -128)?;
/// let mut out = [0i8; 4];
/// abs_int8(&[-3, 3, 0, -128], &params, &mut out)?;
/// assert_eq!(out, [-122, -122, -128, 127]); // |−1.5| = 1.5: 6 steps up; 64 steps clamp
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn abs_int8(input: &[i8], params: &AbsParams, output: &mut [i8]) -> Result<(), TfliteError> {
    check_same_length(input.len(), output.len())?;
    check_int8("ABS's input zero point", params.input_zero_point)?;
    check_int8("ABS's output zero point", params.output_zero_point)?;
    for (y, &x) in output.iter_mut().zip(input) {
        let v = (i32::from(x) - params.input_zero_point).abs();
        let scaled = match params.output_multiplier {
            Some(m) => multiply_by_quantized_multiplier(v, m, Rounding::Double),
            None => v,
        };
        *y = scaled
            .saturating_add(params.output_zero_point)
            .clamp(-128, 127) as i8;
    }
    Ok(())
}

/// TFLite's f32 `ABS`, element by element (`std::abs`: the sign bit
/// cleared, so `−0` gives `+0` and a NaN stays NaN). Fails, with `output`
/// untouched, when `output` is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::abs_f32;
///
/// let mut out = [1f32; 3];
/// abs_f32(&[-1.5, 0.25, -0.0], &mut out)?;
/// assert_eq!(out, [1.5, 0.25, 0.0]);
/// assert!(out[2].is_sign_positive());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn abs_f32(input: &[f32], output: &mut [f32]) -> Result<(), TfliteError> {
    map_f32(input, output, f32::abs)
}

impl crate::shared::elementwise::UnaryApply<i8> for AbsParams {
    fn apply(&self, x: &[i8], y: &mut [i8]) -> Result<(), TfliteError> {
        abs_int8(x, self, y)
    }
}

/// `ABS`'s f32 function, `std::abs`.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct AbsF32;

impl crate::shared::float_ops::MapF32Apply for AbsF32 {
    #[inline(always)]
    fn value(&self, x: f32) -> f32 {
        x.abs()
    }
}

impl crate::base::write_rust::WriteRust for AbsF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "AbsF32")
    }
}

/// `ABS`'s row in `OPS`: checks the operator (an int8 activation in and
/// out, or an f32 one) and prepares its step.
pub(crate) fn prepare<'m, S: From<UnaryStep<i8, AbsParams>> + From<MapF32Step<AbsF32>>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let input = c.input(0, "input")?;
    if input.dtype() == TensorType::Float32 {
        return prepare_map_f32(c, AbsF32).map(S::from);
    }
    let operands = check_unary(c)?;
    let [(si, zi), (so, zo)] = operands.quant;
    Ok(S::from(operands.step(abs_params(si, zi, so, zo)?)))
}
