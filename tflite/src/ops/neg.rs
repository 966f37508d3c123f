//! TFLite's f32 `NEG`, as TFLite Micro's `neg.cc` computes it
//! (`reference_ops::Negate`): `−x`, the sign flipped (so `−0` for 0 and a
//! NaN's sign flipped too). Keras's LayerNormalization leaves a `NEG` in
//! float between int8 ops.

use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::TfliteError;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::shared::float_ops::{map_f32, prepare_map_f32, MapF32Step};

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
pub(crate) fn prepare<'m, S: From<MapF32Step<NegF32>>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    prepare_map_f32(c, NegF32).map(S::from)
}

/// `NEG`'s f32 function: `−x`.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct NegF32;

impl crate::shared::float_ops::MapF32Apply for NegF32 {
    #[inline(always)]
    fn value(&self, x: f32) -> f32 {
        negate(x)
    }
}

impl crate::base::write_rust::WriteRust for NegF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "NegF32")
    }
}
