//! TFLite's `QUANTIZE` (f32 to int8) and `DEQUANTIZE` (int8 to f32) on
//! slices and one value at a time, as TFLite Micro's reference kernels
//! (`reference_ops::AffineQuantize` and `reference_ops::Dequantize`)
//! compute them.

use crate::arith::activation::{quantize_value, quantize_value_int16};
use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::TfliteError;
use crate::format::types::TensorType;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::kernel::step::Buffers;
use crate::shared::elementwise::UnaryStep;
use core::ops::Range;
use requantize::RequantizeParams;

/// One value of TFLite's `DEQUANTIZE` from int8:
/// `scale · (q − zero_point)`, as TFLite Micro computes it: the scale
/// widened to `f64`, the product in `f64`, then rounded to `f32`. That is
/// the `f32` product itself (one rounding of the exact product, which a
/// `f64` holds exactly) whenever `|q − zero_point| ≤ 2^24`, always for an
/// int8 zero point; the `f32` product is what this computes there, and the
/// `f64` one beyond (the difference wraps as the C++ `int32_t` does).
///
/// ```
/// use shapecheck_tflite::dequantize_value;
///
/// assert_eq!(dequantize_value(6, 0.1, 3), 0.1 * 3.0);
/// assert_eq!(dequantize_value(-128, 0.5, -128), 0.0);
/// ```
pub fn dequantize_value(q: i8, scale: f32, zero_point: i32) -> f32 {
    dequantize_wide(i32::from(q), scale, zero_point)
}

/// One value of TFLite's `DEQUANTIZE` from int16 (TFLite's 16x8 mode):
/// [`dequantize_value`]'s arithmetic (the `f32` product wherever
/// `|q − zero_point| ≤ 2^24`, always for an int16 zero point).
///
/// ```
/// use shapecheck_tflite::dequantize_value_int16;
///
/// assert_eq!(dequantize_value_int16(3000, 0.001, 0), 0.001 * 3000.0);
/// assert_eq!(dequantize_value_int16(-32768, 0.5, 0), -16384.0);
/// ```
pub fn dequantize_value_int16(q: i16, scale: f32, zero_point: i32) -> f32 {
    dequantize_wide(i32::from(q), scale, zero_point)
}

/// `scale · (q − zero_point)` as TFLite Micro computes it, for `q` of any
/// integer type widened to `i32`.
fn dequantize_wide(q: i32, scale: f32, zero_point: i32) -> f32 {
    let d = q.wrapping_sub(zero_point);
    if d.unsigned_abs() <= 1 << 24 {
        // d is exact in f32, and scale · d exact in f64: one rounding
        // either way
        scale * d as f32
    } else {
        (f64::from(scale) * f64::from(d)) as f32
    }
}

/// TFLite's `QUANTIZE` from f32 to int8, element by element
/// ([`quantize_value`]). Fails, with `output` untouched, when `output` is
/// not as long as `input`.
///
/// ```
/// use shapecheck_tflite::quantize_int8;
///
/// let mut out = [0i8; 3];
/// quantize_int8(&[-1.0, 0.0, 0.5], 0.25, -2, &mut out)?;
/// assert_eq!(out, [-6, -2, 0]);
/// assert!(quantize_int8(&[1.0], 0.25, 0, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn quantize_int8(
    input: &[f32],
    scale: f32,
    zero_point: i32,
    output: &mut [i8],
) -> Result<(), TfliteError> {
    if output.len() != input.len() {
        return Err(TfliteError::Length {
            what: "output",
            expected: input.len(),
            actual: output.len(),
        });
    }
    for (y, &x) in output.iter_mut().zip(input) {
        *y = quantize_value(x, scale, zero_point);
    }
    Ok(())
}

/// TFLite's `DEQUANTIZE` from int8 to f32, element by element
/// ([`dequantize_value`]). Fails, with `output` untouched, when `output`
/// is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::dequantize_int8;
///
/// let mut out = [0f32; 3];
/// dequantize_int8(&[-6, -2, 0], 0.25, -2, &mut out)?;
/// assert_eq!(out, [-1.0, 0.0, 0.5]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn dequantize_int8(
    input: &[i8],
    scale: f32,
    zero_point: i32,
    output: &mut [f32],
) -> Result<(), TfliteError> {
    if output.len() != input.len() {
        return Err(TfliteError::Length {
            what: "output",
            expected: input.len(),
            actual: output.len(),
        });
    }
    for (y, &q) in output.iter_mut().zip(input) {
        *y = dequantize_value(q, scale, zero_point);
    }
    Ok(())
}

/// TFLite's `QUANTIZE` from f32 to int16, element by element
/// ([`quantize_value_int16`]). Fails, with `output` untouched, when
/// `output` is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::quantize_int16;
///
/// let mut out = [0i16; 3];
/// quantize_int16(&[-1.0, 0.0, 0.5], 0.001, 0, &mut out)?;
/// assert_eq!(out, [-1000, 0, 500]);
/// assert!(quantize_int16(&[1.0], 0.25, 0, &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn quantize_int16(
    input: &[f32],
    scale: f32,
    zero_point: i32,
    output: &mut [i16],
) -> Result<(), TfliteError> {
    if output.len() != input.len() {
        return Err(TfliteError::Length {
            what: "output",
            expected: input.len(),
            actual: output.len(),
        });
    }
    for (y, &x) in output.iter_mut().zip(input) {
        *y = quantize_value_int16(x, scale, zero_point);
    }
    Ok(())
}

/// TFLite's `DEQUANTIZE` from int16 to f32, element by element
/// ([`dequantize_value_int16`]). Fails, with `output` untouched, when
/// `output` is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::dequantize_int16;
///
/// let mut out = [0f32; 3];
/// dequantize_int16(&[-4000, 0, 2000], 0.25, 0, &mut out)?;
/// assert_eq!(out, [-1000.0, 0.0, 500.0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn dequantize_int16(
    input: &[i16],
    scale: f32,
    zero_point: i32,
    output: &mut [f32],
) -> Result<(), TfliteError> {
    if output.len() != input.len() {
        return Err(TfliteError::Length {
            what: "output",
            expected: input.len(),
            actual: output.len(),
        });
    }
    for (y, &q) in output.iter_mut().zip(input) {
        *y = dequantize_value_int16(q, scale, zero_point);
    }
    Ok(())
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands and derives its constants once; the
// step's `run` runs the kernel over the interpreter's buffers.

/// `QUANTIZE`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare_quantize<
    'm,
    S: From<QuantizeStep>
        + From<UnaryStep<i8, RequantizeParams>>
        + From<UnaryStep<i16, RequantizeParams>>,
>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    // int8 → int8, int16 → int16: a requantization (requantize.rs)
    let input = c.input(0, "input")?.dtype();
    if input == TensorType::Int8 || (input == TensorType::Int16 && c.output.dtype() == input) {
        return requantize::prepare(c);
    }
    check_quantize(c).map(S::from)
}

/// `DEQUANTIZE`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare_dequantize<'m, S: From<QuantizeStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    check_dequantize(c).map(S::from)
}

/// `quantize`'s interpreter steps: operands' places in the arena and
/// constants, checked once by [`prepare`].
#[derive(Clone)]
#[doc(hidden)]
pub enum QuantizeStep {
    Quantize {
        input: Range<usize>,
        output: Range<usize>,
        scale: f32,
        zero_point: i32,
    },
    Dequantize {
        input: Range<usize>,
        output: Range<usize>,
        scale: f32,
        zero_point: i32,
    },
    /// f32 → int16 (16x8)
    QuantizeInt16 {
        input: Range<usize>,
        output: Range<usize>,
        scale: f32,
        zero_point: i32,
    },
    /// int16 → f32 (16x8)
    DequantizeInt16 {
        input: Range<usize>,
        output: Range<usize>,
        scale: f32,
        zero_point: i32,
    },
}

impl crate::base::write_rust::WriteRust for QuantizeStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            QuantizeStep::Quantize {
                input,
                output,
                scale,
                zero_point,
            } => crate::base::write_rust::write_struct(
                w,
                k,
                "QuantizeStep::Quantize",
                &[
                    ("input", input),
                    ("output", output),
                    ("scale", scale),
                    ("zero_point", zero_point),
                ],
            ),
            QuantizeStep::Dequantize {
                input,
                output,
                scale,
                zero_point,
            } => crate::base::write_rust::write_struct(
                w,
                k,
                "QuantizeStep::Dequantize",
                &[
                    ("input", input),
                    ("output", output),
                    ("scale", scale),
                    ("zero_point", zero_point),
                ],
            ),
            QuantizeStep::QuantizeInt16 {
                input,
                output,
                scale,
                zero_point,
            } => crate::base::write_rust::write_struct(
                w,
                k,
                "QuantizeStep::QuantizeInt16",
                &[
                    ("input", input),
                    ("output", output),
                    ("scale", scale),
                    ("zero_point", zero_point),
                ],
            ),
            QuantizeStep::DequantizeInt16 {
                input,
                output,
                scale,
                zero_point,
            } => crate::base::write_rust::write_struct(
                w,
                k,
                "QuantizeStep::DequantizeInt16",
                &[
                    ("input", input),
                    ("output", output),
                    ("scale", scale),
                    ("zero_point", zero_point),
                ],
            ),
        }
    }
}

impl QuantizeStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        let overlap = b.overlap;
        let int8 = &mut *b.int8;
        let float32 = &mut *b.float32;
        match self {
            QuantizeStep::Quantize {
                input,
                output,
                scale,
                zero_point,
            } => match (float32.get(input.clone()), int8.get_mut(output.clone())) {
                (Some(x), Some(y)) => quantize_int8(x, *scale, *zero_point, y),
                _ => Err(overlap),
            },
            QuantizeStep::Dequantize {
                input,
                output,
                scale,
                zero_point,
            } => match (int8.get(input.clone()), float32.get_mut(output.clone())) {
                (Some(x), Some(y)) => dequantize_int8(x, *scale, *zero_point, y),
                _ => Err(overlap),
            },
            QuantizeStep::QuantizeInt16 {
                input,
                output,
                scale,
                zero_point,
            } => match (float32.get(input.clone()), b.int16.get_mut(output.clone())) {
                (Some(x), Some(y)) => quantize_int16(x, *scale, *zero_point, y),
                _ => Err(overlap),
            },
            QuantizeStep::DequantizeInt16 {
                input,
                output,
                scale,
                zero_point,
            } => match (b.int16.get(input.clone()), float32.get_mut(output.clone())) {
                (Some(x), Some(y)) => dequantize_int16(x, *scale, *zero_point, y),
                _ => Err(overlap),
            },
        }
    }
}

/// `QUANTIZE`, f32 → int8 at the output's scale and zero point.
fn check_quantize<'m>(c: &Checker<'m>) -> Result<QuantizeStep, TfliteError> {
    if c.output.dtype() == TensorType::Int16 {
        return check_quantize_int16(c);
    }
    let output = &c.output;
    let input = c.input(0, "input")?;
    c.dtype("input", &input, TensorType::Float32)?;
    c.dtype("output", output, TensorType::Int8)?;
    let (scale, zero_point) = c.per_tensor("output", output)?;
    Ok(QuantizeStep::Quantize {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        scale,
        zero_point,
    })
}

/// `DEQUANTIZE`, int8 → f32 at the input's scale and zero point.
fn check_dequantize<'m>(c: &Checker<'m>) -> Result<QuantizeStep, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    if input.dtype() == TensorType::Int16 {
        return check_dequantize_int16(c);
    }
    c.dtype("input", &input, TensorType::Int8)?;
    c.dtype("output", output, TensorType::Float32)?;
    let (scale, zero_point) = c.per_tensor("input", &input)?;
    Ok(QuantizeStep::Dequantize {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        scale,
        zero_point,
    })
}

/// `QUANTIZE`, f32 → int16 (16x8) at the output's scale and zero point.
fn check_quantize_int16<'m>(c: &Checker<'m>) -> Result<QuantizeStep, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    c.dtype("input", &input, TensorType::Float32)?;
    let (scale, zero_point) = c.per_tensor("output", output)?;
    Ok(QuantizeStep::QuantizeInt16 {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        scale,
        zero_point,
    })
}

/// `DEQUANTIZE`, int16 (16x8) → f32 at the input's scale and zero point.
fn check_dequantize_int16<'m>(c: &Checker<'m>) -> Result<QuantizeStep, TfliteError> {
    let output = &c.output;
    let input = c.input(0, "input")?;
    c.dtype("output", output, TensorType::Float32)?;
    let (scale, zero_point) = c.per_tensor("input", &input)?;
    Ok(QuantizeStep::DequantizeInt16 {
        input: c.activation("input", &input)?.range,
        output: c.activation("output", output)?.range,
        scale,
        zero_point,
    })
}

// requantize is of quantize's family
pub(crate) mod requantize;
