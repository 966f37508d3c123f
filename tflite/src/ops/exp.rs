//! TFLite's f32 `EXP`, as TFLite Micro's `exp.cc` computes it
//! (`reference_ops::Exp`: `std::exp` of each element, the C library's
//! `expf`). TFLite Micro's `EXP` runs f32 alone: the converter's int8
//! `EXP` is refused at its prepare.

use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::TfliteError;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::shared::float_ops::{map_f32, prepare_map_f32, MapF32Step};

/// One value of TFLite's f32 `EXP`: `e^x` rounded to f32 as glibc's
/// `expf` rounds it (within one ulp of the exact value; the recorded
/// values of TFLite Micro agree to the bit): `+∞` above 88.72, 0 below
/// −103.97, NaN for NaN.
///
/// ```
/// use shapecheck_tflite::exp_value;
///
/// assert_eq!(exp_value(0.0), 1.0);
/// assert_eq!(exp_value(1.0), std::f32::consts::E);
/// assert_eq!(exp_value(-1.0), 0.36787945);
/// assert_eq!(exp_value(100.0), f32::INFINITY);
/// ```
pub fn exp_value(x: f32) -> f32 {
    crate::arith::float_math::exp(x)
}

/// TFLite's f32 `EXP`, element by element ([`exp_value`]). Fails, with
/// `output` untouched, when `output` is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::exp_f32;
///
/// let mut out = [0f32; 2];
/// exp_f32(&[0.0, 2.0], &mut out)?;
/// assert_eq!(out, [1.0, 7.389056]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn exp_f32(input: &[f32], output: &mut [f32]) -> Result<(), TfliteError> {
    map_f32(input, output, exp_value)
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands once; the step (`float_ops`' element-wise
// map) runs `exp_value` over the interpreter's f32 buffer.

/// `EXP`'s row in `OPS`: an f32 input and output of one shape.
pub(crate) fn prepare<'m, S: From<MapF32Step<ExpF32>>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    prepare_map_f32(c, ExpF32).map(S::from)
}

/// `EXP`'s f32 function: [`exp_value`].
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct ExpF32;

impl crate::shared::float_ops::MapF32Apply for ExpF32 {
    #[inline(always)]
    fn value(&self, x: f32) -> f32 {
        exp_value(x)
    }
}

impl crate::base::write_rust::WriteRust for ExpF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "ExpF32")
    }
}
