//! TFLite's f32 `ELU`, as TFLite Micro's `elu.cc` computes it
//! (`reference_ops::Elu`): `x` where `x ≥ 0`, `e^x − 1` below 0, by
//! TFLite's `TfLiteExpm1` (the C library's `expm1f`). TF 2.21's converter
//! quantizes no `ELU`: a Keras ELU between int8 layers exports as the
//! float island `DEQUANTIZE` → `ELU` → `QUANTIZE`.

use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::TfliteError;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::shared::float_ops::{map_f32, prepare_map_f32, MapF32Step};

/// One value of TFLite's f32 `ELU`: `x` where `x` is not below 0 (NaN
/// included), `expm1(x)` below 0, computed as glibc's `expm1f` computes
/// it (within one ulp of the exact value, and TFLite Micro's to the bit).
///
/// ```
/// use shapecheck_tflite::elu_value;
///
/// assert_eq!(elu_value(2.5), 2.5);
/// assert_eq!(elu_value(-1.0), -0.63212055); // e^−1 − 1
/// assert_eq!(elu_value(-1e-10), -1e-10); // expm1, not exp − 1 (which is 0 here)
/// assert_eq!(elu_value(-200.0), -1.0);
/// ```
pub fn elu_value(x: f32) -> f32 {
    if x < 0.0 {
        crate::arith::float_math::expm1f(x)
    } else {
        x
    }
}

/// TFLite's f32 `ELU`, element by element ([`elu_value`]). Fails, with
/// `output` untouched, when `output` is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::elu_f32;
///
/// let mut out = [0f32; 3];
/// elu_f32(&[-2.0, 0.0, 1.5], &mut out)?;
/// assert_eq!(out, [-0.86466473, 0.0, 1.5]);
/// assert!(elu_f32(&[1.0], &mut out).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn elu_f32(input: &[f32], output: &mut [f32]) -> Result<(), TfliteError> {
    map_f32(input, output, elu_value)
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands once; the step (`float_ops`' element-wise
// map) runs `elu_value` over the interpreter's f32 buffer.

/// `ELU`'s row in `OPS`: an f32 input and output of one shape.
pub(crate) fn prepare<'m, S: From<MapF32Step<EluF32>>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    prepare_map_f32(c, EluF32).map(S::from)
}

/// `ELU`'s f32 function: [`elu_value`].
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct EluF32;

impl crate::shared::float_ops::MapF32Apply for EluF32 {
    #[inline(always)]
    fn value(&self, x: f32) -> f32 {
        elu_value(x)
    }
}

impl crate::base::write_rust::WriteRust for EluF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "EluF32")
    }
}
