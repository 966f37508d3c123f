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
/// [`Step::run`] and its arm in the `WriteRust` impl below (how `model!`
/// writes it); everything else of the op is in its module. Public (and
/// hidden) only for `model!`'s generated code (`crate::compiled`).
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

impl crate::compiled::WriteRust for Step<'_> {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            Step::FullyConnected(s) => {
                crate::compiled::write_tuple(w, k, "Step::FullyConnected", &[s])
            }
            Step::DepthwiseConv(s) => {
                crate::compiled::write_tuple(w, k, "Step::DepthwiseConv", &[s])
            }
            Step::Conv2d(s) => crate::compiled::write_tuple(w, k, "Step::Conv2d", &[s]),
            Step::Softmax(s) => crate::compiled::write_tuple(w, k, "Step::Softmax", &[s]),
            Step::Pool(s) => crate::compiled::write_tuple(w, k, "Step::Pool", &[s]),
            Step::Add(s) => crate::compiled::write_tuple(w, k, "Step::Add", &[s]),
            Step::Pad(s) => crate::compiled::write_tuple(w, k, "Step::Pad", &[s]),
            Step::Logistic(s) => crate::compiled::write_tuple(w, k, "Step::Logistic", &[s]),
            Step::Quantize(s) => crate::compiled::write_tuple(w, k, "Step::Quantize", &[s]),
            Step::Reshape(s) => crate::compiled::write_tuple(w, k, "Step::Reshape", &[s]),
            Step::Binary(s) => crate::compiled::write_tuple(w, k, "Step::Binary", &[s]),
            Step::Unary(s) => crate::compiled::write_tuple(w, k, "Step::Unary", &[s]),
            Step::BinaryInt16(s) => crate::compiled::write_tuple(w, k, "Step::BinaryInt16", &[s]),
            Step::UnaryInt16(s) => crate::compiled::write_tuple(w, k, "Step::UnaryInt16", &[s]),
            Step::MapF32(s) => crate::compiled::write_tuple(w, k, "Step::MapF32", &[s]),
            Step::BinaryF32(s) => crate::compiled::write_tuple(w, k, "Step::BinaryF32", &[s]),
            Step::MeanF32(s) => crate::compiled::write_tuple(w, k, "Step::MeanF32", &[s]),
            Step::Concatenation(s) => {
                crate::compiled::write_tuple(w, k, "Step::Concatenation", &[s])
            }
            Step::Pack(s) => crate::compiled::write_tuple(w, k, "Step::Pack", &[s]),
            Step::Split(s) => crate::compiled::write_tuple(w, k, "Step::Split", &[s]),
            Step::Unpack(s) => crate::compiled::write_tuple(w, k, "Step::Unpack", &[s]),
            Step::Transpose(s) => crate::compiled::write_tuple(w, k, "Step::Transpose", &[s]),
            Step::Slice(s) => crate::compiled::write_tuple(w, k, "Step::Slice", &[s]),
            Step::StridedSlice(s) => crate::compiled::write_tuple(w, k, "Step::StridedSlice", &[s]),
            Step::ExpandDims(s) => crate::compiled::write_tuple(w, k, "Step::ExpandDims", &[s]),
            Step::Gather(s) => crate::compiled::write_tuple(w, k, "Step::Gather", &[s]),
            Step::DepthToSpace(s) => crate::compiled::write_tuple(w, k, "Step::DepthToSpace", &[s]),
            Step::SpaceToDepth(s) => crate::compiled::write_tuple(w, k, "Step::SpaceToDepth", &[s]),
            Step::MirrorPad(s) => crate::compiled::write_tuple(w, k, "Step::MirrorPad", &[s]),
            Step::Reduce(s) => crate::compiled::write_tuple(w, k, "Step::Reduce", &[s]),
            Step::ArgMinMax(s) => crate::compiled::write_tuple(w, k, "Step::ArgMinMax", &[s]),
            Step::Resize(s) => crate::compiled::write_tuple(w, k, "Step::Resize", &[s]),
            Step::TransposeConv(s) => {
                crate::compiled::write_tuple(w, k, "Step::TransposeConv", &[s])
            }
            Step::BatchMatMul(s) => crate::compiled::write_tuple(w, k, "Step::BatchMatMul", &[s]),
            Step::LogSoftmax(s) => crate::compiled::write_tuple(w, k, "Step::LogSoftmax", &[s]),
            Step::L2Normalization(s) => {
                crate::compiled::write_tuple(w, k, "Step::L2Normalization", &[s])
            }
        }
    }
}

/// What a step runs over: the activation buffers, the multipliers its
/// `prepare` wrote, the rounding of `FULLY_CONNECTED`, and the error for
/// an output range that overlaps an input (which `prepare` rules out).
pub(crate) struct Buffers<'b> {
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
