//! TFLite's f32 `NEG`, as TFLite Micro's `neg.cc` computes it
//! (`reference_ops::Negate`): `−x`, the sign flipped (so `−0` for 0 and a
//! NaN's sign flipped too). Keras's LayerNormalization leaves a `NEG` in
//! float between int8 ops.

use crate::error::TfliteError;
use crate::float_ops::{map_f32, prepare_map_f32, MapF32};
use crate::interpreter::{Checker, Step};
use crate::ops::OpShape;
use crate::quant::QuantizedMultiplier;

/// TFLite's f32 `NEG`, element by element: `−x`. Fails, with `output`
/// untouched, when `output` is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::neg_f32;
///
/// let mut out = [0f32; 3];
/// neg_f32(&[-2.0, 0.0, 1.5], &mut out)?;
/// assert_eq!(out, [2.0, -0.0, -1.5]);
/// assert!(out[1].is_sign_negative());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn neg_f32(input: &[f32], output: &mut [f32]) -> Result<(), TfliteError> {
    map_f32(input, output, negate)
}

pub(crate) fn negate(x: f32) -> f32 {
    -x
}

// The interpreter's step of the op: `prepare` (its row's, in `OPS`)
// checks the operator's operands once; the step (`float_ops`' element-wise
// map) runs `−x` over the interpreter's f32 buffer.

/// `NEG`'s row in `OPS`: an f32 input and output of one shape (TFLite
/// Micro's `NEG` runs f32 alone).
pub(crate) fn prepare<'m>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<Step<'m>, TfliteError> {
    prepare_map_f32(c, MapF32::Neg)
}
