//! The interpreter's prepared steps: one variant per op, each holding the
//! step type its op's module defines (`<op>::prepare` makes it, its `run`
//! runs it), and the buffers a step runs over.

use crate::add::AddStep;
use crate::conv::Conv2dStep;
use crate::depthwise_conv::DepthwiseConvStep;
use crate::elementwise::{BinaryInt16Step, BinaryStep, UnaryInt16Step, UnaryStep};
use crate::error::TfliteError;
use crate::float_ops::{BinaryF32Step, MapF32Step, MeanF32Step};
use crate::fully_connected::FullyConnectedStep;
use crate::logistic::LogisticStep;
use crate::pad::PadStep;
use crate::pool::PoolStep;
use crate::quant::{QuantizedMultiplier, Rounding};
use crate::quantize::QuantizeStep;
use crate::reshape::ReshapeStep;
use crate::softmax::SoftmaxStep;
// the ops that move data
use crate::concat::{ConcatenationStep, PackStep};
use crate::depth_space::{DepthToSpaceStep, SpaceToDepthStep};
use crate::expand_dims::ExpandDimsStep;
use crate::gather::GatherStep;
use crate::mirror_pad::MirrorPadStep;
use crate::slice::{SliceStep, StridedSliceStep};
use crate::split::{SplitStep, UnpackStep};
use crate::transpose::TransposeStep;
// reduce.rs, arg_min_max.rs, resize.rs, transpose_conv.rs,
// batch_matmul.rs, log_softmax.rs, l2_normalization.rs
use crate::arg_min_max::ArgMinMaxStep;
use crate::batch_matmul::BatchMatMulStep;
use crate::l2_normalization::L2NormalizationStep;
use crate::log_softmax::LogSoftmaxStep;
use crate::reduce::ReduceStep;
use crate::resize::ResizeStep;
use crate::transpose_conv::TransposeConvStep;

/// One operator, checked and ready to run (its multipliers, if any, in the
/// arena's scratch). A new op adds its variant here, its line in
/// [`Step::run`], its arm in [`Step::written`] (the type `model!` writes
/// it as) and its step type's [`RunStep`] impl below; everything else of
/// the op is in its module. Public (and hidden) only for the step types'
/// sake (`crate::compiled`).
#[derive(Clone)]
#[doc(hidden)]
pub enum Step<'m> {
    FullyConnected(FullyConnectedStep<'m>),
    DepthwiseConv(DepthwiseConvStep<'m>),
    Conv2d(Conv2dStep<'m>),
    Softmax(SoftmaxStep),
    Pool(PoolStep),
    Add(AddStep<'m>),
    Pad(PadStep),
    Logistic(LogisticStep),
    Quantize(QuantizeStep),
    Reshape(ReshapeStep),
    Binary(BinaryStep<'m>),
    Unary(UnaryStep),
    // the int16 element-wise ops (16x8): MUL; TANH, QUANTIZE
    BinaryInt16(BinaryInt16Step<'m>),
    UnaryInt16(UnaryInt16Step),
    MapF32(MapF32Step),
    BinaryF32(BinaryF32Step<'m>),
    // a float MEAN, made by `float_ops::prepare_mean_f32`
    MeanF32(MeanF32Step),
    // the ops that move data (PADV2 runs as Pad)
    Concatenation(ConcatenationStep),
    Pack(PackStep),
    Split(SplitStep),
    Unpack(UnpackStep),
    Transpose(TransposeStep),
    Slice(SliceStep),
    StridedSlice(StridedSliceStep),
    ExpandDims(ExpandDimsStep),
    Gather(GatherStep<'m>),
    DepthToSpace(DepthToSpaceStep),
    SpaceToDepth(SpaceToDepthStep),
    MirrorPad(MirrorPadStep),
    // MEAN, SUM, REDUCE_MAX, REDUCE_MIN
    Reduce(ReduceStep),
    ArgMinMax(ArgMinMaxStep),
    Resize(ResizeStep),
    TransposeConv(TransposeConvStep<'m>),
    BatchMatMul(BatchMatMulStep),
    LogSoftmax(LogSoftmaxStep),
    L2Normalization(L2NormalizationStep),
}

impl Step<'_> {
    /// The step's own type as `model!`'s code names it in
    /// `crate::compiled` (`'static` for a lifetime), and the step as a
    /// value of that type, which its `WriteRust` writes. `model!` writes
    /// each step as a `static` of its own type and runs it through
    /// [`RunStep`], so that a model links only its own ops' kernels.
    #[cfg(feature = "alloc")]
    pub(crate) fn written(&self) -> (&'static str, &dyn crate::compiled::WriteRust) {
        match self {
            Step::FullyConnected(s) => ("FullyConnectedStep<'static>", s),
            Step::DepthwiseConv(s) => ("DepthwiseConvStep<'static>", s),
            Step::Conv2d(s) => ("Conv2dStep<'static>", s),
            Step::Softmax(s) => ("SoftmaxStep", s),
            Step::Pool(s) => ("PoolStep", s),
            Step::Add(s) => ("AddStep<'static>", s),
            Step::Pad(s) => ("PadStep", s),
            Step::Logistic(s) => ("LogisticStep", s),
            Step::Quantize(s) => ("QuantizeStep", s),
            Step::Reshape(s) => ("ReshapeStep", s),
            Step::Binary(s) => ("BinaryStep<'static>", s),
            Step::Unary(s) => ("UnaryStep", s),
            Step::BinaryInt16(s) => ("BinaryInt16Step<'static>", s),
            Step::UnaryInt16(s) => ("UnaryInt16Step", s),
            Step::MapF32(s) => ("MapF32Step", s),
            Step::BinaryF32(s) => ("BinaryF32Step<'static>", s),
            Step::MeanF32(s) => ("MeanF32Step", s),
            Step::Concatenation(s) => ("ConcatenationStep", s),
            Step::Pack(s) => ("PackStep", s),
            Step::Split(s) => ("SplitStep", s),
            Step::Unpack(s) => ("UnpackStep", s),
            Step::Transpose(s) => ("TransposeStep", s),
            Step::Slice(s) => ("SliceStep", s),
            Step::StridedSlice(s) => ("StridedSliceStep", s),
            Step::ExpandDims(s) => ("ExpandDimsStep", s),
            Step::Gather(s) => ("GatherStep<'static>", s),
            Step::DepthToSpace(s) => ("DepthToSpaceStep", s),
            Step::SpaceToDepth(s) => ("SpaceToDepthStep", s),
            Step::MirrorPad(s) => ("MirrorPadStep", s),
            Step::Reduce(s) => ("ReduceStep", s),
            Step::ArgMinMax(s) => ("ArgMinMaxStep", s),
            Step::Resize(s) => ("ResizeStep", s),
            Step::TransposeConv(s) => ("TransposeConvStep<'static>", s),
            Step::BatchMatMul(s) => ("BatchMatMulStep", s),
            Step::LogSoftmax(s) => ("LogSoftmaxStep", s),
            Step::L2Normalization(s) => ("L2NormalizationStep", s),
        }
    }
}

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

impl Step<'_> {
    /// Runs the step: its op's module's `run`.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        match self {
            Step::FullyConnected(s) => s.run(b),
            Step::DepthwiseConv(s) => s.run(b),
            Step::Conv2d(s) => s.run(b),
            Step::Softmax(s) => s.run(b),
            Step::Pool(s) => s.run(b),
            Step::Add(s) => s.run(b),
            Step::Pad(s) => s.run(b),
            Step::Logistic(s) => s.run(b),
            Step::Quantize(s) => s.run(b),
            Step::Reshape(s) => s.run(b),
            Step::Binary(s) => s.run(b),
            Step::Unary(s) => s.run(b),
            Step::BinaryInt16(s) => s.run(b),
            Step::UnaryInt16(s) => s.run(b),
            Step::MapF32(s) => s.run(b),
            Step::BinaryF32(s) => s.run(b),
            Step::MeanF32(s) => s.run(b),
            // the ops that move data
            Step::Concatenation(s) => s.run(b),
            Step::Pack(s) => s.run(b),
            Step::Split(s) => s.run(b),
            Step::Unpack(s) => s.run(b),
            Step::Transpose(s) => s.run(b),
            Step::Slice(s) => s.run(b),
            Step::StridedSlice(s) => s.run(b),
            Step::ExpandDims(s) => s.run(b),
            Step::Gather(s) => s.run(b),
            Step::DepthToSpace(s) => s.run(b),
            Step::SpaceToDepth(s) => s.run(b),
            Step::MirrorPad(s) => s.run(b),
            Step::Reduce(s) => s.run(b),
            Step::ArgMinMax(s) => s.run(b),
            Step::Resize(s) => s.run(b),
            Step::TransposeConv(s) => s.run(b),
            Step::BatchMatMul(s) => s.run(b),
            Step::LogSoftmax(s) => s.run(b),
            Step::L2Normalization(s) => s.run(b),
        }
    }
}

/// A step type run by itself: `model!`'s code holds each step as a
/// `static` of its own type and runs it with `compiled::Run::step`, which
/// calls this, so a model links the kernels of its own ops only (a loop
/// over [`Step`] links every op's). Each impl calls its type's `run`, the
/// function [`Step::run`] calls too: one body per step type, two callers.
#[doc(hidden)]
pub trait RunStep {
    /// Runs the step over `b`: its type's `run`.
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError>;
}

impl RunStep for FullyConnectedStep<'_> {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for DepthwiseConvStep<'_> {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for Conv2dStep<'_> {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for SoftmaxStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for PoolStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for AddStep<'_> {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for PadStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for LogisticStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for QuantizeStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for ReshapeStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for BinaryStep<'_> {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for UnaryStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for BinaryInt16Step<'_> {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for UnaryInt16Step {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for MapF32Step {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for BinaryF32Step<'_> {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for MeanF32Step {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for ConcatenationStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for PackStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for SplitStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for UnpackStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for TransposeStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for SliceStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for StridedSliceStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for ExpandDimsStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for GatherStep<'_> {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for DepthToSpaceStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for SpaceToDepthStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for MirrorPadStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for ReduceStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for ArgMinMaxStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for ResizeStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for TransposeConvStep<'_> {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for BatchMatMulStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for LogSoftmaxStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}

impl RunStep for L2NormalizationStep {
    fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        self.run(b)
    }
}
