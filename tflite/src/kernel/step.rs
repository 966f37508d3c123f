//! What a prepared step runs over ([`Buffers`]) and the trait it runs by
//! ([`RunStep`]). Each op's module defines its step types and implements
//! `RunStep` for them; the registry's `Step` is the closed set of them,
//! made from its list of ops.

use crate::arith::quant::{QuantizedMultiplier, Rounding};
use crate::format::error::TfliteError;

/// What a step runs over: the activation buffers, the multipliers its
/// `prepare` wrote, the rounding of `FULLY_CONNECTED`, and the error for
/// an output range that overlaps an input (which `prepare` rules out).
#[doc(hidden)]
pub struct Buffers<'b> {
    pub(crate) int8: &'b mut [i8],
    pub(crate) int16: &'b mut [i16],
    pub(crate) int32: &'b mut [i32],
    pub(crate) float32: &'b mut [f32],
    pub(crate) multipliers: &'b [QuantizedMultiplier],
    pub(crate) fc_rounding: Rounding,
    pub(crate) overlap: TfliteError,
}

/// A step type run by itself. The interpreter runs its steps through the
/// registry's `Step`; `model!`'s code holds each step as a `static` of its
/// own type and runs it with `compiled::Run::step`, which calls this, so a
/// model links the kernels of its own ops only. Each op's module
/// implements it for its step types.
#[doc(hidden)]
pub trait RunStep {
    /// Runs the step over `b`.
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError>;
}

/// An element type with a buffer of its own among the [`Buffers`]: the
/// generic element-wise steps find their operands' buffer by it.
#[doc(hidden)]
pub trait ArenaElement: Sized {
    /// Its buffer.
    fn buffer<'a>(b: &'a mut Buffers<'_>) -> &'a mut [Self];
}

impl ArenaElement for i8 {
    fn buffer<'a>(b: &'a mut Buffers<'_>) -> &'a mut [i8] {
        b.int8
    }
}

impl ArenaElement for i16 {
    fn buffer<'a>(b: &'a mut Buffers<'_>) -> &'a mut [i16] {
        b.int16
    }
}

impl ArenaElement for i32 {
    fn buffer<'a>(b: &'a mut Buffers<'_>) -> &'a mut [i32] {
        b.int32
    }
}

impl ArenaElement for f32 {
    fn buffer<'a>(b: &'a mut Buffers<'_>) -> &'a mut [f32] {
        b.float32
    }
}
