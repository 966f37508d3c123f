//! TFLite's f32 `SQUARE`, as TFLite Micro's `elementwise.cc` computes it
//! (`SquareEval`): `f * f` in f32, one rounding. TFLite Micro runs it on
//! f32 only.

use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::TfliteError;
use crate::kernel::checker::Checker;
use crate::kernel::shape::OpShape;
use crate::shared::float_ops::{map_f32, prepare_map_f32, MapF32Step};

/// TFLite's f32 `SQUARE`, element by element: `x · x` in f32. Fails, with
/// `output` untouched, when `output` is not as long as `input`.
///
/// ```
/// use shapecheck_tflite::square_f32;
///
/// let mut out = [0f32; 3];
/// square_f32(&[-1.5, 3.0, -0.0], &mut out)?;
/// assert_eq!(out, [2.25, 9.0, 0.0]);
/// assert!(square_f32(&[1.0], &mut [0.0; 2]).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn square_f32(input: &[f32], output: &mut [f32]) -> Result<(), TfliteError> {
    map_f32(input, output, |x| x * x)
}

/// `SQUARE`'s f32 function, `x · x`.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct SquareF32;

impl crate::shared::float_ops::MapF32Apply for SquareF32 {
    #[inline(always)]
    fn value(&self, x: f32) -> f32 {
        x * x
    }
}

impl crate::base::write_rust::WriteRust for SquareF32 {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_path(w, k, "SquareF32")
    }
}

/// `SQUARE`'s row in `OPS`: checks the operator (an f32 activation in and
/// out) and prepares its step.
pub(crate) fn prepare<'m, S: From<MapF32Step<SquareF32>>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    prepare_map_f32(c, SquareF32).map(S::from)
}
