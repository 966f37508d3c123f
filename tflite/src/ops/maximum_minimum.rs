//! TFLite's `MAXIMUM` and `MINIMUM` on slices, for any element type: the
//! larger (smaller) of two values, broadcast as `ADD` broadcasts, as
//! TFLite Micro's `maximum_minimum.cc` (`MaximumMinimumBroadcastSlow`)
//! computes them. No arithmetic on the values: an int8 model gives both
//! inputs and the output one scale and zero point (the converter does,
//! and the interpreter checks it), so the raw values compare as the reals.

use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::TfliteError;
use crate::format::types::{Activation, TensorType};
use crate::format::values::Values;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::shared::broadcast::broadcast_binary;
use crate::shared::elementwise::{check_binary, check_same_quantization, BinaryStep};
use crate::shared::float_ops::{prepare_binary_f32, BinaryF32Step};

/// TFLite's `MAXIMUM`: `y = x1 > x2 ? x1 : x2` (TFLite Micro's
/// `MaximumOp`: for `f32`, a NaN in `x1` gives `x2`, in `x2` gives `x2`),
/// for each output element and its inputs broadcast as
/// [`broadcast_shape`](crate::broadcast_shape) says, all row-major.
///
/// Fails, with `output` untouched, when the shapes do not broadcast or
/// have more than 6 dims, or a length is not its shape's count.
///
/// ```
/// use shapecheck_tflite::maximum;
///
/// let mut out = [0i8; 4];
/// maximum(&[1i8, -2, 3, -4], &[2, 2], &[0i8, 2], &[2], &mut out)?;
/// assert_eq!(out, [1, 2, 3, 2]);
/// let mut floats = [0f32; 2];
/// maximum(&[1.5f32, -1.0], &[2], &[0.0f32], &[], &mut floats)?;
/// assert_eq!(floats, [1.5, 0.0]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn maximum<T, A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    output: &mut [T],
) -> Result<(), TfliteError>
where
    T: Copy + PartialOrd,
    A: Values<T> + ?Sized,
    B: Values<T> + ?Sized,
{
    broadcast_binary(a, a_shape, b, b_shape, output, |x1: T, x2: T| {
        if x1 > x2 {
            x1
        } else {
            x2
        }
    })
}

/// TFLite's `MINIMUM`: `y = x1 < x2 ? x1 : x2` (TFLite Micro's
/// `MinimumOp`), for each output element and its inputs broadcast as
/// [`broadcast_shape`](crate::broadcast_shape) says, all row-major.
///
/// Fails, with `output` untouched, when the shapes do not broadcast or
/// have more than 6 dims, or a length is not its shape's count.
///
/// ```
/// use shapecheck_tflite::minimum;
///
/// let mut out = [0i8; 4];
/// minimum(&[1i8, -2, 3, -4], &[2, 2], &[0i8, 2], &[2], &mut out)?;
/// assert_eq!(out, [0, -2, 0, -4]);
/// assert!(minimum(&[1i8, 2], &[2], &[1i8, 2, 3], &[3], &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn minimum<T, A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    output: &mut [T],
) -> Result<(), TfliteError>
where
    T: Copy + PartialOrd,
    A: Values<T> + ?Sized,
    B: Values<T> + ?Sized,
{
    broadcast_binary(a, a_shape, b, b_shape, output, |x1: T, x2: T| {
        if x1 < x2 {
            x1
        } else {
            x2
        }
    })
}

/// `MAXIMUM`'s row in `OPS`: checks the operator (two int8 operands with
/// the output's scale and zero point, or two f32 operands; broadcast) and
/// prepares its step.
pub(crate) fn prepare_maximum<
    'm,
    S: From<BinaryStep<'m, i8, Maximum>> + From<BinaryF32Step<'m, Maximum>>,
>(
    c: &Checker<'m>,
    shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    if c.input(0, "input1")?.dtype() == TensorType::Float32 {
        return prepare_f32(c, shape, Maximum).map(S::from);
    }
    let operands = check_binary(c, shape)?;
    check_same_quantization(c, &operands)?;
    Ok(S::from(operands.step(Maximum)))
}

/// `MINIMUM`'s row in `OPS`: as [`prepare_maximum`].
pub(crate) fn prepare_minimum<
    'm,
    S: From<BinaryStep<'m, i8, Minimum>> + From<BinaryF32Step<'m, Minimum>>,
>(
    c: &Checker<'m>,
    shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    if c.input(0, "input1")?.dtype() == TensorType::Float32 {
        return prepare_f32(c, shape, Minimum).map(S::from);
    }
    let operands = check_binary(c, shape)?;
    check_same_quantization(c, &operands)?;
    Ok(S::from(operands.step(Minimum)))
}

/// The f32 step of `MAXIMUM` or `MINIMUM`: two f32 operands broadcast,
/// and no clamp (TFLite Micro's float kernel has none: the range is
/// (−∞, +∞), which leaves every value as it is, ±∞, NaN and −0 included;
/// an `ADD`'s `NONE` clamps to ±`f32::MAX`).
fn prepare_f32<'m, K>(
    c: &Checker<'m>,
    shape: &OpShape,
    op: K,
) -> Result<BinaryF32Step<'m, K>, TfliteError> {
    let mut step = prepare_binary_f32(c, shape, op, Activation::None)?;
    step.range = (f32::NEG_INFINITY, f32::INFINITY);
    Ok(step)
}

/// `MAXIMUM`'s kernel, as a binary step holds it.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct Maximum;

/// `MINIMUM`'s kernel, as a binary step holds it.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct Minimum;

impl crate::base::write_rust::WriteRust for Maximum {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "Maximum")
    }
}

impl crate::base::write_rust::WriteRust for Minimum {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "Minimum")
    }
}

impl crate::shared::elementwise::BinaryApply<i8> for Maximum {
    fn apply<A, B>(
        &self,
        a: &A,
        a_dims: &[usize],
        b: &B,
        b_dims: &[usize],
        y: &mut [i8],
    ) -> Result<(), TfliteError>
    where
        A: crate::format::values::Values<i8> + ?Sized,
        B: crate::format::values::Values<i8> + ?Sized,
    {
        maximum(a, a_dims, b, b_dims, y)
    }
}

impl crate::shared::elementwise::BinaryApply<i8> for Minimum {
    fn apply<A, B>(
        &self,
        a: &A,
        a_dims: &[usize],
        b: &B,
        b_dims: &[usize],
        y: &mut [i8],
    ) -> Result<(), TfliteError>
    where
        A: crate::format::values::Values<i8> + ?Sized,
        B: crate::format::values::Values<i8> + ?Sized,
    {
        minimum(a, a_dims, b, b_dims, y)
    }
}

impl crate::shared::float_ops::BinaryF32Apply for Maximum {
    /// TFLite Micro's `MaximumOp` on floats: `x1 > x2 ? x1 : x2` (a NaN
    /// on either side gives `x2`; of `−0` and `+0`, `x2`).
    #[inline(always)]
    fn apply(&self, x1: f32, x2: f32) -> f32 {
        if x1 > x2 {
            x1
        } else {
            x2
        }
    }
}

impl crate::shared::float_ops::BinaryF32Apply for Minimum {
    /// TFLite Micro's `MinimumOp` on floats: `x1 < x2 ? x1 : x2` (a NaN
    /// on either side gives `x2`; of `−0` and `+0`, `x2`).
    #[inline(always)]
    fn apply(&self, x1: f32, x2: f32) -> f32 {
        if x1 < x2 {
            x1
        } else {
            x2
        }
    }
}
