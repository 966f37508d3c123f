//! The closed set of prepared steps the interpreter holds ([`Step`]),
//! made from one list: each step type an op's `prepare` gives, beside the
//! name `model!` writes it as. The macro writes the enum, its `run` and
//! `written`, the `From` impls every `prepare` returns through, and each
//! type's [`RunStep`]; nothing of it is written out by hand.

use crate::format::error::TfliteError;
use crate::kernel::step::{Buffers, RunStep};

/// The step types of the list and the kernel types they hold, by the names
/// `model!`'s code writes: `compiled` re-exports them all, so that a new
/// step type needs its line here and nothing in `compiled`.
pub mod names {
    pub use crate::ops::abs::{AbsF32, AbsParams};
    pub use crate::ops::add::{AddF32, AddStep};
    pub use crate::ops::arg_min_max::ArgMinMaxStep;
    pub use crate::ops::batch_matmul::{BatchMatMulF32Step, BatchMatMulStep};
    pub use crate::ops::concat::{ConcatenationStep, PackStep};
    pub use crate::ops::conv::depthwise_conv::DepthwiseConvStep;
    pub use crate::ops::conv::fully_connected::FullyConnectedStep;
    pub use crate::ops::conv::{Conv2dStep, ConvPairStage};
    pub use crate::ops::depth_space::{DepthToSpaceStep, SpaceToDepthStep};
    pub use crate::ops::div::{DivF32, DivParams};
    pub use crate::ops::elu::EluF32;
    pub use crate::ops::exp::ExpF32;
    pub use crate::ops::gather::GatherStep;
    pub use crate::ops::hard_swish::HardSwishParams;
    pub use crate::ops::l2_normalization::L2NormalizationStep;
    pub use crate::ops::leaky_relu::LeakyReluParams;
    pub use crate::ops::logistic::tanh::{TanhInt16Params, TanhParams};
    pub use crate::ops::logistic::LogisticStep;
    pub use crate::ops::maximum_minimum::{Maximum, Minimum};
    pub use crate::ops::mul::{MulF32, MulParams};
    pub use crate::ops::neg::NegF32;
    pub use crate::ops::pad::mirror_pad::MirrorPadStep;
    pub use crate::ops::pad::PadStep;
    pub use crate::ops::pool::PoolStep;
    pub use crate::ops::prelu::PreluParams;
    pub use crate::ops::quantize::requantize::RequantizeParams;
    pub use crate::ops::quantize::QuantizeStep;
    pub use crate::ops::reduce::{MeanF32Step, ReduceStep};
    pub use crate::ops::relu::{Relu6Params, ReluParams};
    pub use crate::ops::reshape::expand_dims::ExpandDimsStep;
    pub use crate::ops::reshape::ReshapeStep;
    pub use crate::ops::resize::ResizeStep;
    pub use crate::ops::rsqrt::{RsqrtF32, RsqrtParams};
    pub use crate::ops::slice::{SliceStep, StridedSliceStep};
    pub use crate::ops::softmax::log_softmax::LogSoftmaxStep;
    pub use crate::ops::softmax::SoftmaxStep;
    pub use crate::ops::split::{SplitStep, UnpackStep};
    pub use crate::ops::square::SquareF32;
    pub use crate::ops::squared_difference::{SquaredDifferenceF32, SquaredDifferenceParams};
    pub use crate::ops::sub::{SubF32, SubParams};
    pub use crate::ops::transpose::TransposeStep;
    pub use crate::ops::transpose_conv::TransposeConvStep;
    pub use crate::shared::elementwise::{BinaryStep, UnaryStep};
    pub use crate::shared::float_ops::{BinaryF32Step, MapF32Step};
    // the f32 convolutions and pools
    pub use crate::ops::conv::depthwise_conv::DepthwiseConvF32Step;
    pub use crate::ops::conv::{Conv2dF32Step, ConvF32Params, ConvF32Step};
    pub use crate::ops::pool::{PoolF32Params, PoolF32Step};
    pub use crate::ops::transpose_conv::{TransposeConvF32Params, TransposeConvF32Step};
    // the f32 activations (issue 79)
    pub use crate::ops::hard_swish::HardSwishF32;
    pub use crate::ops::l2_normalization::L2NormalizationF32Step;
    pub use crate::ops::leaky_relu::LeakyReluF32;
    pub use crate::ops::logistic::tanh::TanhF32;
    pub use crate::ops::logistic::LogisticF32;
    pub use crate::ops::prelu::PreluF32;
    pub use crate::ops::relu::{Relu6F32, ReluF32};
    pub use crate::ops::softmax::log_softmax::LogSoftmaxF32Step;
    pub use crate::ops::softmax::SoftmaxF32Step;
}

use names::*;

/// The list: `Variant(step type) = "the type as model!'s code names it"`
/// (`{k}`: the path to `compiled`, which `compiled::write_steps` fills in;
/// it writes the outer type's path itself).
macro_rules! steps {
    ($lt:lifetime; $($variant:ident($ty:ty) = $name:literal,)+) => {
        /// One operator, checked and ready to run (its multipliers, if
        /// any, in the arena's scratch): one variant per step type of the
        /// registry's ops. Public (and hidden) only for the step types'
        /// sake (`crate::compiled`).
        #[derive(Clone)]
        #[doc(hidden)]
        pub enum Step<$lt> {
            $(
                #[allow(missing_docs)]
                $variant($ty),
            )+
        }

        impl<$lt> Step<$lt> {
            /// Runs the step: its type's `run`.
            pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
                match self {
                    $(Step::$variant(s) => s.run(b),)+
                }
            }

            /// The step's own type as `model!`'s code names it in
            /// `crate::compiled` (`'static` for a lifetime), and the step
            /// as a value of that type, which its `WriteRust` writes.
            /// `model!` writes each step as a `static` of its own type and
            /// runs it through [`RunStep`], so that a model links only its
            /// own ops' kernels.
            #[cfg(feature = "alloc")]
            pub(crate) fn written(&self) -> (&'static str, &dyn crate::base::write_rust::WriteRust) {
                match self {
                    $(Step::$variant(s) => ($name, s),)+
                }
            }
        }

        $(
            impl<$lt> From<$ty> for Step<$lt> {
                fn from(s: $ty) -> Self {
                    Step::$variant(s)
                }
            }

            impl<$lt> RunStep for $ty {
                fn run_step(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
                    self.run(b)
                }
            }
        )+
    };
}

steps! { 'm;
    FullyConnected(FullyConnectedStep<'m>) = "FullyConnectedStep<'static>",
    DepthwiseConv(DepthwiseConvStep<'m>) = "DepthwiseConvStep<'static>",
    Conv2d(Conv2dStep<'m>) = "Conv2dStep<'static>",
    TransposeConv(TransposeConvStep<'m>) = "TransposeConvStep<'static>",
    Pool(PoolStep) = "PoolStep",
    Softmax(SoftmaxStep) = "SoftmaxStep",
    LogSoftmax(LogSoftmaxStep) = "LogSoftmaxStep",
    Logistic(LogisticStep) = "LogisticStep",
    Tanh(UnaryStep<i8, TanhParams>) = "UnaryStep<i8, {k}::TanhParams>",
    TanhInt16(UnaryStep<i16, TanhInt16Params>) = "UnaryStep<i16, {k}::TanhInt16Params>",
    Add(AddStep<'m>) = "AddStep<'static>",
    AddF32(BinaryF32Step<'m, AddF32>) = "BinaryF32Step<'static, {k}::AddF32>",
    Mul(BinaryStep<'m, i8, MulParams>) = "BinaryStep<'static, i8, {k}::MulParams>",
    MulInt16(BinaryStep<'m, i16, MulParams>) = "BinaryStep<'static, i16, {k}::MulParams>",
    MulF32(BinaryF32Step<'m, MulF32>) = "BinaryF32Step<'static, {k}::MulF32>",
    Sub(BinaryStep<'m, i8, SubParams>) = "BinaryStep<'static, i8, {k}::SubParams>",
    SubF32(BinaryF32Step<'m, SubF32>) = "BinaryF32Step<'static, {k}::SubF32>",
    Div(BinaryStep<'m, i8, DivParams>) = "BinaryStep<'static, i8, {k}::DivParams>",
    Maximum(BinaryStep<'m, i8, Maximum>) = "BinaryStep<'static, i8, {k}::Maximum>",
    Minimum(BinaryStep<'m, i8, Minimum>) = "BinaryStep<'static, i8, {k}::Minimum>",
    SquaredDifference(BinaryStep<'m, i8, SquaredDifferenceParams>) = "BinaryStep<'static, i8, {k}::SquaredDifferenceParams>",
    SquaredDifferenceF32(BinaryF32Step<'m, SquaredDifferenceF32>) = "BinaryF32Step<'static, {k}::SquaredDifferenceF32>",
    Prelu(BinaryStep<'m, i8, PreluParams>) = "BinaryStep<'static, i8, {k}::PreluParams>",
    Relu(UnaryStep<i8, ReluParams>) = "UnaryStep<i8, {k}::ReluParams>",
    Relu6(UnaryStep<i8, Relu6Params>) = "UnaryStep<i8, {k}::Relu6Params>",
    LeakyRelu(UnaryStep<i8, LeakyReluParams>) = "UnaryStep<i8, {k}::LeakyReluParams>",
    HardSwish(UnaryStep<i8, HardSwishParams>) = "UnaryStep<i8, {k}::HardSwishParams>",
    Rsqrt(UnaryStep<i8, RsqrtParams>) = "UnaryStep<i8, {k}::RsqrtParams>",
    RsqrtF32(MapF32Step<RsqrtF32>) = "MapF32Step<{k}::RsqrtF32>",
    Elu(MapF32Step<EluF32>) = "MapF32Step<{k}::EluF32>",
    Neg(MapF32Step<NegF32>) = "MapF32Step<{k}::NegF32>",
    Exp(MapF32Step<ExpF32>) = "MapF32Step<{k}::ExpF32>",
    Abs(UnaryStep<i8, AbsParams>) = "UnaryStep<i8, {k}::AbsParams>",
    AbsF32(MapF32Step<AbsF32>) = "MapF32Step<{k}::AbsF32>",
    SquareF32(MapF32Step<SquareF32>) = "MapF32Step<{k}::SquareF32>",
    Quantize(QuantizeStep) = "QuantizeStep",
    Requantize(UnaryStep<i8, RequantizeParams>) = "UnaryStep<i8, {k}::RequantizeParams>",
    RequantizeInt16(UnaryStep<i16, RequantizeParams>) = "UnaryStep<i16, {k}::RequantizeParams>",
    Reshape(ReshapeStep) = "ReshapeStep",
    ExpandDims(ExpandDimsStep) = "ExpandDimsStep",
    Pad(PadStep) = "PadStep",
    MirrorPad(MirrorPadStep) = "MirrorPadStep",
    Reduce(ReduceStep) = "ReduceStep",
    MeanF32(MeanF32Step) = "MeanF32Step",
    ArgMinMax(ArgMinMaxStep) = "ArgMinMaxStep",
    Concatenation(ConcatenationStep) = "ConcatenationStep",
    Pack(PackStep) = "PackStep",
    Split(SplitStep) = "SplitStep",
    Unpack(UnpackStep) = "UnpackStep",
    Transpose(TransposeStep) = "TransposeStep",
    Slice(SliceStep) = "SliceStep",
    StridedSlice(StridedSliceStep) = "StridedSliceStep",
    Gather(GatherStep<'m>) = "GatherStep<'static>",
    DepthToSpace(DepthToSpaceStep) = "DepthToSpaceStep",
    SpaceToDepth(SpaceToDepthStep) = "SpaceToDepthStep",
    Resize(ResizeStep) = "ResizeStep",
    BatchMatMul(BatchMatMulStep) = "BatchMatMulStep",
    L2Normalization(L2NormalizationStep) = "L2NormalizationStep",
    // the f32 convolutions and pools
    Conv2dF32(Conv2dF32Step<'m>) = "ConvF32Step<'static, {k}::Conv2dDims>",
    DepthwiseConvF32(DepthwiseConvF32Step<'m>) = "ConvF32Step<'static, {k}::DepthwiseConvDims>",
    PoolF32(PoolF32Step) = "PoolF32Step",
    TransposeConvF32(TransposeConvF32Step<'m>) = "TransposeConvF32Step<'static>",
    // float32 (issue 79): MAXIMUM, MINIMUM, DIV, BATCH_MATMUL
    MaximumF32(BinaryF32Step<'m, Maximum>) = "BinaryF32Step<'static, {k}::Maximum>",
    MinimumF32(BinaryF32Step<'m, Minimum>) = "BinaryF32Step<'static, {k}::Minimum>",
    DivF32(BinaryF32Step<'m, DivF32>) = "BinaryF32Step<'static, {k}::DivF32>",
    BatchMatMulF32(BatchMatMulF32Step) = "BatchMatMulF32Step",
    // the f32 activations (issue 79)
    ReluF32(MapF32Step<ReluF32>) = "MapF32Step<{k}::ReluF32>",
    Relu6F32(MapF32Step<Relu6F32>) = "MapF32Step<{k}::Relu6F32>",
    HardSwishF32(MapF32Step<HardSwishF32>) = "MapF32Step<{k}::HardSwishF32>",
    LeakyReluF32(MapF32Step<LeakyReluF32>) = "MapF32Step<{k}::LeakyReluF32>",
    PreluF32(BinaryF32Step<'m, PreluF32>) = "BinaryF32Step<'static, {k}::PreluF32>",
    LogisticF32(MapF32Step<LogisticF32>) = "MapF32Step<{k}::LogisticF32>",
    TanhF32(MapF32Step<TanhF32>) = "MapF32Step<{k}::TanhF32>",
    SoftmaxF32(SoftmaxF32Step) = "SoftmaxF32Step",
    LogSoftmaxF32(LogSoftmaxF32Step) = "LogSoftmaxF32Step",
    L2NormalizationF32(L2NormalizationF32Step) = "L2NormalizationF32Step",
}

#[cfg(feature = "alloc")]
impl Step<'_> {
    /// The step with what its kernel would set up at each call set up
    /// once, as `model!` writes it (a `CONV_2D`'s channel pairs, into
    /// `pairs`: [`Conv2dStep`]'s `with_pairs`), its multipliers those its
    /// `prepare` wrote; `None` where there is nothing to set up (every
    /// other step), and the step as it is is written.
    pub(crate) fn set_up<'a>(
        &'a self,
        multipliers: &[crate::arith::quant::QuantizedMultiplier],
        pairs: &'a mut alloc::vec::Vec<ConvPairStage>,
    ) -> Option<Step<'a>> {
        match self {
            Step::Conv2d(s) => s.with_pairs(multipliers, pairs).map(Step::Conv2d),
            _ => None,
        }
    }
}
