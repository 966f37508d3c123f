//! The registry of the ops shapecheck runs, one row each ([`OPS`]): the
//! op's code, the options table it reads, the element types it takes,
//! and pointers into its module (`tflite/src/<op>.rs`) for everything
//! else: its options decoder (which [`Model::parse`] calls), its shape
//! rule (the one function that gives its output's shape from its operands
//! and options, which the [`Interpreter`](crate::Interpreter) and
//! `shapecheck`'s `model!` both call), the multipliers it needs and its
//! interpreter step. ARCHITECTURE.md's "Adding a TFLite op" is the recipe.

use crate::format::error::TfliteError;
pub(crate) mod options;
pub(crate) mod steps;
// the f32 steps, run on recorded float models (tests)
#[cfg(test)]
mod float_step_tests;
pub use steps::Step;

use crate::arith::quant::QuantizedMultiplier;
use crate::format::model::OptionsReader;
use crate::format::model::{Model, Operator};
use crate::format::types::{BuiltinOp, TensorType};
use crate::kernel::checker::Checker;
use crate::kernel::shape::{no_multipliers, same_as_input, OpShape};
use crate::registry::options::Options;

/// The options table the reader decodes for an op.
///
/// ```
/// use shapecheck_tflite::{op_row, BuiltinOp, OptionsTable};
///
/// assert_eq!(op_row(BuiltinOp::CONV_2D).unwrap().options, OptionsTable::Conv2d);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OptionsTable {
    /// none: the op has no options the kernel reads
    None,
    /// `Conv2DOptions`
    Conv2d,
    /// `DepthwiseConv2DOptions`
    DepthwiseConv2d,
    /// `Pool2DOptions`
    Pool2d,
    /// `FullyConnectedOptions`
    FullyConnected,
    /// `AddOptions`
    Add,
    /// `ReducerOptions`
    Reducer,
    /// `ReshapeOptions` (or the shape as the second input)
    Reshape,
    /// `SoftmaxOptions`
    Softmax,
    /// `MulOptions`
    Mul,
    /// `SubOptions`
    Sub,
    /// `DivOptions`
    Div,
    /// `LeakyReluOptions`
    LeakyRelu,
    // the ops that move data
    /// `ConcatenationOptions`
    Concatenation,
    /// `PackOptions`
    Pack,
    /// `SplitOptions`
    Split,
    /// `SplitVOptions`
    SplitV,
    /// `UnpackOptions`
    Unpack,
    /// `StridedSliceOptions`
    StridedSlice,
    /// `GatherOptions`
    Gather,
    /// `DepthToSpaceOptions`
    DepthToSpace,
    /// `SpaceToDepthOptions`
    SpaceToDepth,
    /// `MirrorPadOptions`
    MirrorPad,
    /// `ArgMaxOptions` / `ArgMinOptions`
    ArgMinMax,
    /// `ResizeBilinearOptions` / `ResizeNearestNeighborOptions`
    Resize,
    /// `TransposeConvOptions`
    TransposeConv,
    /// `BatchMatMulOptions`
    BatchMatMul,
    /// `L2NormOptions`
    L2Norm,
}

/// One op shapecheck runs: the interpreter and `model!` refuse every op
/// without a row, naming it.
#[derive(Clone, Copy, Debug)]
pub struct OpRow {
    /// the op
    pub op: BuiltinOp,
    /// the options the reader decodes for it
    pub options: OptionsTable,
    /// the element types it runs, as `input → output`
    pub types: &'static str,
    /// the shape rule: the output's shape from the operator's operands
    /// and options (the interpreter checks the file's output shape
    /// against it; `model!` writes it in the output's type)
    pub output_shape: fn(&Model<'_>, &Operator<'_>) -> Result<OpShape, TfliteError>,
    /// its options decoder, which [`Model::parse`] calls for each
    /// operator of the op; in the op's module
    pub(crate) read_options: for<'a> fn(&OptionsReader<'a>) -> Result<Options<'a>, TfliteError>,
    /// how many requantization multipliers its `prepare` writes (the
    /// scratch the interpreter's arena holds for the widest layer)
    pub(crate) multipliers: fn(&Model<'_>, &Operator<'_>) -> usize,
    /// the interpreter's step: checks the operator's operands (given the
    /// output's shape by the rule above), derives its constants once, and
    /// gives the step that runs its kernel; in the op's module
    pub(crate) prepare: for<'m> fn(
        &Checker<'m>,
        &OpShape,
        &mut [QuantizedMultiplier],
    ) -> Result<Step<'m>, TfliteError>,
    /// the typed layer of `ops::layers` that `model!` writes the op as,
    /// where the typed layers cover a model; `None` where only its
    /// prepared step (`model!`'s step writer) runs it
    pub typed_layer: Option<TypedLayer>,
}

/// The typed layers of `shapecheck::ops::layers` that `model!` writes an
/// op as ([`OpRow::typed_layer`]): `model!` dispatches on this, not on
/// the op code, and so do the schedule search (`schedule.rs`: a layer's
/// cost kind and whether it streams) and `model!`'s streamed runs (a
/// convolution, depthwise convolution, pool or `ADD` stage). A layer's own checks (its operand types) may still refuse
/// an operator, which then makes `model!` write the whole model through
/// the interpreter's prepared steps.
///
/// ```
/// use shapecheck_tflite::{op_row, BuiltinOp, TypedLayer};
///
/// assert_eq!(op_row(BuiltinOp::CONV_2D).unwrap().typed_layer, Some(TypedLayer::Conv2d));
/// assert_eq!(op_row(BuiltinOp::CONCATENATION).unwrap().typed_layer, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TypedLayer {
    /// `fully_connected_int8` or `fully_connected_f32`
    FullyConnected,
    /// `conv_2d_int8`
    Conv2d,
    /// `depthwise_conv_int8`
    DepthwiseConv2d,
    /// `average_pool_int8`
    AveragePool2d,
    /// `max_pool_int8`
    MaxPool2d,
    /// `mean_int8`, over the spatial axes
    Mean,
    /// `add_int8`
    Add,
    /// `pad_int8`
    Pad,
    /// `logistic_int8`
    Logistic,
    /// `quantize_int8`, from f32
    Quantize,
    /// `dequantize_int8`, to f32
    Dequantize,
    /// `softmax_int8`
    Softmax,
    /// a reshape: the tensor's own `reshape`, a view (no copy)
    Reshape,
}

/// Every op shapecheck runs.
///
/// ```
/// use shapecheck_tflite::{op_row, BuiltinOp, OPS};
///
/// assert_eq!(OPS.len(), 56);
/// assert_eq!(
///     op_row(BuiltinOp::ADD).unwrap().types,
///     "int8, int8 → int8, int16, int16 → int16, float32, float32 → float32"
/// );
/// assert!(op_row(BuiltinOp::CONCATENATION).is_some());
/// assert!(op_row(BuiltinOp::CUSTOM).is_none());
/// ```
pub static OPS: [OpRow; 56] = [
    OpRow {
        op: BuiltinOp::FULLY_CONNECTED,
        options: OptionsTable::FullyConnected,
        types: "int8 → int8, int16 → int16, float32 → float32",
        output_shape: crate::ops::conv::fully_connected::output_shape,
        read_options: |r| {
            crate::ops::conv::fully_connected::read_options(r).map(Options::FullyConnected)
        },
        multipliers: crate::ops::conv::fully_connected::multipliers,
        prepare: |c, s, m| crate::ops::conv::fully_connected::prepare(c, s, m),
        typed_layer: Some(TypedLayer::FullyConnected),
    },
    OpRow {
        op: BuiltinOp::CONV_2D,
        options: OptionsTable::Conv2d,
        types: "int8 → int8, int16 → int16, float32 → float32",
        output_shape: crate::ops::conv::output_shape,
        read_options: |r| crate::ops::conv::read_options(r).map(Options::Conv2d),
        multipliers: crate::ops::conv::multipliers,
        prepare: |c, s, m| crate::ops::conv::prepare(c, s, m),
        typed_layer: Some(TypedLayer::Conv2d),
    },
    OpRow {
        op: BuiltinOp::DEPTHWISE_CONV_2D,
        options: OptionsTable::DepthwiseConv2d,
        types: "int8 → int8, int16 → int16, float32 → float32",
        output_shape: crate::ops::conv::depthwise_conv::output_shape,
        read_options: |r| {
            crate::ops::conv::depthwise_conv::read_options(r).map(Options::DepthwiseConv2d)
        },
        multipliers: crate::ops::conv::depthwise_conv::multipliers,
        prepare: |c, s, m| crate::ops::conv::depthwise_conv::prepare(c, s, m),
        typed_layer: Some(TypedLayer::DepthwiseConv2d),
    },
    OpRow {
        op: BuiltinOp::AVERAGE_POOL_2D,
        options: OptionsTable::Pool2d,
        types: "int8 → int8, int16 → int16, float32 → float32",
        output_shape: crate::ops::pool::output_shape,
        read_options: |r| crate::ops::pool::read_options(r).map(Options::Pool2d),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::pool::prepare_average(c, s, m),
        typed_layer: Some(TypedLayer::AveragePool2d),
    },
    OpRow {
        op: BuiltinOp::MAX_POOL_2D,
        options: OptionsTable::Pool2d,
        types: "int8 → int8, int16 → int16, float32 → float32",
        output_shape: crate::ops::pool::output_shape,
        read_options: |r| crate::ops::pool::read_options(r).map(Options::Pool2d),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::pool::prepare_max(c, s, m),
        typed_layer: Some(TypedLayer::MaxPool2d),
    },
    OpRow {
        op: BuiltinOp::MEAN,
        options: OptionsTable::Reducer,
        types: "int8 → int8, int16 → int16, float32 → float32",
        output_shape: crate::ops::reduce::output_shape,
        read_options: |r| crate::ops::reduce::read_options(r).map(Options::Reducer),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::reduce::prepare(c, s, m),
        typed_layer: Some(TypedLayer::Mean),
    },
    OpRow {
        op: BuiltinOp::ADD,
        options: OptionsTable::Add,
        types: "int8, int8 → int8, int16, int16 → int16, float32, float32 → float32",
        output_shape: crate::shared::broadcast::output_shape,
        read_options: |r| crate::ops::add::read_options(r).map(Options::Add),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::add::prepare(c, s, m),
        typed_layer: Some(TypedLayer::Add),
    },
    OpRow {
        op: BuiltinOp::PAD,
        options: OptionsTable::None,
        types: "int8 → int8, float32 → float32",
        output_shape: crate::ops::pad::output_shape,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::pad::prepare(c, s, m),
        typed_layer: Some(TypedLayer::Pad),
    },
    OpRow {
        op: BuiltinOp::LOGISTIC,
        options: OptionsTable::None,
        types: "int8 → int8, int16 → int16, float32 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::logistic::prepare(c, s, m),
        typed_layer: Some(TypedLayer::Logistic),
    },
    OpRow {
        op: BuiltinOp::SOFTMAX,
        options: OptionsTable::Softmax,
        types: "int8 → int8, int16 → int16, float32 → float32",
        output_shape: same_as_input,
        read_options: |r| crate::ops::softmax::read_options(r).map(Options::Softmax),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::softmax::prepare(c, s, m),
        typed_layer: Some(TypedLayer::Softmax),
    },
    OpRow {
        op: BuiltinOp::RESHAPE,
        options: OptionsTable::Reshape,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::reshape::output_shape,
        read_options: |r| crate::ops::reshape::read_options(r).map(Options::Reshape),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::reshape::prepare(c, s, m),
        typed_layer: Some(TypedLayer::Reshape),
    },
    OpRow {
        op: BuiltinOp::QUANTIZE,
        options: OptionsTable::None,
        types: "float32 → int8, int8 → int8, float32 → int16, int16 → int16",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::quantize::prepare_quantize(c, s, m),
        typed_layer: Some(TypedLayer::Quantize),
    },
    OpRow {
        op: BuiltinOp::DEQUANTIZE,
        options: OptionsTable::None,
        types: "int8 → float32, int16 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::quantize::prepare_dequantize(c, s, m),
        typed_layer: Some(TypedLayer::Dequantize),
    },
    // the element-wise ops: the binary ones broadcast as ADD does
    OpRow {
        op: BuiltinOp::MUL,
        options: OptionsTable::Mul,
        types: "int8, int8 → int8, int16, int16 → int16, float32, float32 → float32",
        output_shape: crate::shared::broadcast::output_shape,
        read_options: |r| crate::ops::mul::read_options(r).map(Options::Mul),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::mul::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SUB,
        options: OptionsTable::Sub,
        types: "int8, int8 → int8, float32, float32 → float32",
        output_shape: crate::shared::broadcast::output_shape,
        read_options: |r| crate::ops::sub::read_options(r).map(Options::Sub),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::sub::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::DIV,
        options: OptionsTable::Div,
        types: "int8, int8 → int8, float32, float32 → float32",
        output_shape: crate::shared::broadcast::output_shape,
        read_options: |r| crate::ops::div::read_options(r).map(Options::Div),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::div::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::MAXIMUM,
        options: OptionsTable::None,
        types: "int8, int8 → int8, float32, float32 → float32",
        output_shape: crate::shared::broadcast::output_shape,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::maximum_minimum::prepare_maximum(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::MINIMUM,
        options: OptionsTable::None,
        types: "int8, int8 → int8, float32, float32 → float32",
        output_shape: crate::shared::broadcast::output_shape,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::maximum_minimum::prepare_minimum(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SQUARED_DIFFERENCE,
        options: OptionsTable::None,
        types: "int8, int8 → int8, float32, float32 → float32",
        output_shape: crate::shared::broadcast::output_shape,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::squared_difference::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::PRELU,
        options: OptionsTable::None,
        types: "int8, int8 → int8, float32, float32 → float32",
        output_shape: crate::shared::broadcast::output_shape,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::prelu::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::RELU,
        options: OptionsTable::None,
        types: "int8 → int8, float32 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::relu::prepare_relu(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::RELU6,
        options: OptionsTable::None,
        types: "int8 → int8, float32 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::relu::prepare_relu6(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::LEAKY_RELU,
        options: OptionsTable::LeakyRelu,
        types: "int8 → int8, float32 → float32",
        output_shape: same_as_input,
        read_options: |r| crate::ops::leaky_relu::read_options(r).map(Options::LeakyRelu),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::leaky_relu::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::HARD_SWISH,
        options: OptionsTable::None,
        types: "int8 → int8, float32 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::hard_swish::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::TANH,
        options: OptionsTable::None,
        types: "int8 → int8, int16 → int16, float32 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::logistic::tanh::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::RSQRT,
        options: OptionsTable::None,
        types: "int8 → int8, float32 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::rsqrt::prepare(c, s, m),
        typed_layer: None,
    },
    // the f32 ops (float islands' ops): their steps are `float_ops.rs`'
    OpRow {
        op: BuiltinOp::ELU,
        options: OptionsTable::None,
        types: "float32 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::elu::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::NEG,
        options: OptionsTable::None,
        types: "float32 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::neg::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::EXP,
        options: OptionsTable::None,
        types: "float32 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::exp::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::ABS,
        options: OptionsTable::None,
        types: "int8 → int8, float32 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::abs::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SQUARE,
        options: OptionsTable::None,
        types: "float32 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::square::prepare(c, s, m),
        typed_layer: None,
    },
    // the ops that move data, each in its module
    OpRow {
        op: BuiltinOp::CONCATENATION,
        options: OptionsTable::Concatenation,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::concat::concatenation_row,
        read_options: |r| {
            crate::ops::concat::read_concatenation_options(r).map(Options::Concatenation)
        },
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::concat::prepare_concatenation(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::PACK,
        options: OptionsTable::Pack,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::concat::pack_row,
        read_options: |r| crate::ops::concat::read_pack_options(r).map(Options::Pack),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::concat::prepare_pack(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SPLIT,
        options: OptionsTable::Split,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::split::split_row,
        read_options: |r| crate::ops::split::read_split_options(r).map(Options::Split),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::split::prepare_split(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SPLIT_V,
        options: OptionsTable::SplitV,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::split::split_v_row,
        read_options: |r| crate::ops::split::read_split_v_options(r).map(Options::SplitV),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::split::prepare_split_v(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::UNPACK,
        options: OptionsTable::Unpack,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::split::unpack_row,
        read_options: |r| crate::ops::split::read_unpack_options(r).map(Options::Unpack),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::split::prepare_unpack(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::TRANSPOSE,
        options: OptionsTable::None,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::transpose::transpose_row,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::transpose::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SLICE,
        options: OptionsTable::None,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::slice::slice_row,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::slice::prepare_slice(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::STRIDED_SLICE,
        options: OptionsTable::StridedSlice,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::slice::strided_slice_row,
        read_options: |r| {
            crate::ops::slice::read_strided_slice_options(r).map(Options::StridedSlice)
        },
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::slice::prepare_strided_slice(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::EXPAND_DIMS,
        options: OptionsTable::None,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::reshape::expand_dims::expand_dims_row,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::reshape::expand_dims::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::GATHER,
        options: OptionsTable::Gather,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::gather::gather_row,
        read_options: |r| crate::ops::gather::read_options(r).map(Options::Gather),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::gather::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::DEPTH_TO_SPACE,
        options: OptionsTable::DepthToSpace,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::depth_space::depth_to_space_row,
        read_options: |r| {
            crate::ops::depth_space::read_depth_to_space_options(r).map(Options::DepthToSpace)
        },
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::depth_space::prepare_depth_to_space(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SPACE_TO_DEPTH,
        options: OptionsTable::SpaceToDepth,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::depth_space::space_to_depth_row,
        read_options: |r| {
            crate::ops::depth_space::read_space_to_depth_options(r).map(Options::SpaceToDepth)
        },
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::depth_space::prepare_space_to_depth(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::MIRROR_PAD,
        options: OptionsTable::MirrorPad,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::pad::mirror_pad::mirror_pad_row,
        read_options: |r| crate::ops::pad::mirror_pad::read_options(r).map(Options::MirrorPad),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::pad::mirror_pad::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::PADV2,
        options: OptionsTable::None,
        types: "int8 → int8",
        output_shape: crate::ops::pad::output_shape,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::pad::prepare_padv2(c, s, m),
        typed_layer: None,
    },
    // reduce.rs, arg_min_max.rs, resize.rs, transpose_conv.rs,
    // batch_matmul.rs, log_softmax.rs, l2_normalization.rs
    OpRow {
        op: BuiltinOp::SUM,
        options: OptionsTable::Reducer,
        types: "int8 → int8, int16 → int16",
        output_shape: crate::ops::reduce::output_shape,
        read_options: |r| crate::ops::reduce::read_options(r).map(Options::Reducer),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::reduce::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::REDUCE_MAX,
        options: OptionsTable::Reducer,
        types: "int8 → int8, float32 → float32",
        output_shape: crate::ops::reduce::output_shape,
        read_options: |r| crate::ops::reduce::read_options(r).map(Options::Reducer),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::reduce::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::REDUCE_MIN,
        options: OptionsTable::Reducer,
        types: "int8 → int8",
        output_shape: crate::ops::reduce::output_shape,
        read_options: |r| crate::ops::reduce::read_options(r).map(Options::Reducer),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::reduce::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::ARG_MAX,
        options: OptionsTable::ArgMinMax,
        types: "int8 → int32",
        output_shape: crate::ops::arg_min_max::output_shape,
        read_options: |r| crate::ops::arg_min_max::read_arg_max_options(r).map(Options::ArgMinMax),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::arg_min_max::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::ARG_MIN,
        options: OptionsTable::ArgMinMax,
        types: "int8 → int32",
        output_shape: crate::ops::arg_min_max::output_shape,
        read_options: |r| crate::ops::arg_min_max::read_arg_min_options(r).map(Options::ArgMinMax),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::arg_min_max::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::RESIZE_NEAREST_NEIGHBOR,
        options: OptionsTable::Resize,
        types: "int8 → int8, float32 → float32",
        output_shape: crate::ops::resize::output_shape,
        read_options: |r| crate::ops::resize::read_nearest_options(r).map(Options::Resize),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::resize::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::RESIZE_BILINEAR,
        options: OptionsTable::Resize,
        types: "int8 → int8, float32 → float32",
        output_shape: crate::ops::resize::output_shape,
        read_options: |r| crate::ops::resize::read_bilinear_options(r).map(Options::Resize),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::resize::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::TRANSPOSE_CONV,
        options: OptionsTable::TransposeConv,
        types: "int8 → int8, float32 → float32",
        output_shape: crate::ops::transpose_conv::output_shape,
        read_options: |r| crate::ops::transpose_conv::read_options(r).map(Options::TransposeConv),
        multipliers: crate::ops::transpose_conv::multipliers,
        prepare: |c, s, m| crate::ops::transpose_conv::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::BATCH_MATMUL,
        options: OptionsTable::BatchMatMul,
        types: "int8, int8 → int8, float32, float32 → float32",
        output_shape: crate::ops::batch_matmul::output_shape,
        read_options: |r| crate::ops::batch_matmul::read_options(r).map(Options::BatchMatMul),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::batch_matmul::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::LOG_SOFTMAX,
        options: OptionsTable::None,
        types: "int8 → int8, float32 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::softmax::log_softmax::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::L2_NORMALIZATION,
        options: OptionsTable::L2Norm,
        types: "int8 → int8, float32 → float32",
        output_shape: same_as_input,
        read_options: |r| crate::ops::l2_normalization::read_options(r).map(Options::L2Norm),
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::l2_normalization::prepare(c, s, m),
        typed_layer: None,
    },
];

impl OpRow {
    /// The types its first input takes, in the order INT8, INT16, INT32,
    /// FLOAT32: the first input of each form of [`types`](OpRow::types)
    /// (`"int8, int8 → int8, int16, int16 → int16"`: INT8 and INT16).
    pub(crate) fn input_types(&self) -> &'static [TensorType] {
        let mut set = 0usize;
        let mut form_starts = true;
        for token in self.types.split(", ") {
            if form_starts {
                set |= match token.split(' ').next() {
                    Some("int8") => 1,
                    Some("int16") => 2,
                    Some("int32") => 4,
                    Some("float32") => 8,
                    _ => 0,
                };
            }
            form_starts = token.contains('→');
        }
        TYPE_SETS.get(set).copied().unwrap_or(&[])
    }
}

/// Each set of the four activation types, by the bits of INT8 (1), INT16
/// (2), INT32 (4) and FLOAT32 (8), in that order.
const TYPE_SETS: [&[TensorType]; 16] = [
    &[],
    &[TensorType::Int8],
    &[TensorType::Int16],
    &[TensorType::Int8, TensorType::Int16],
    &[TensorType::Int32],
    &[TensorType::Int8, TensorType::Int32],
    &[TensorType::Int16, TensorType::Int32],
    &[TensorType::Int8, TensorType::Int16, TensorType::Int32],
    &[TensorType::Float32],
    &[TensorType::Int8, TensorType::Float32],
    &[TensorType::Int16, TensorType::Float32],
    &[TensorType::Int8, TensorType::Int16, TensorType::Float32],
    &[TensorType::Int32, TensorType::Float32],
    &[TensorType::Int8, TensorType::Int32, TensorType::Float32],
    &[TensorType::Int16, TensorType::Int32, TensorType::Float32],
    &[
        TensorType::Int8,
        TensorType::Int16,
        TensorType::Int32,
        TensorType::Float32,
    ],
];

/// The row of `op`, or `None` for an op shapecheck does not run.
///
/// ```
/// use shapecheck_tflite::{op_row, BuiltinOp};
/// assert_eq!(op_row(BuiltinOp::MEAN).unwrap().op, BuiltinOp::MEAN);
/// ```
pub fn op_row(op: BuiltinOp) -> Option<&'static OpRow> {
    OPS.iter().find(|row| row.op == op)
}

/// The options of an op whose kernel reads none (its row's
/// `read_options`): `None`, or `Other` when the file gives a table.
fn no_options<'a>(r: &OptionsReader<'a>) -> Result<Options<'a>, TfliteError> {
    Ok(if r.options_type == 0 {
        Options::None
    } else {
        Options::Other {
            options_type: r.options_type,
        }
    })
}

/// The options of `op`: decoded by its row's `read_options` for the ops
/// shapecheck runs, whose options must then be of their own type (or
/// absent: the schema's defaults); `None` or `Other` for the rest.
fn read_options<'a>(op: &Operator<'a>) -> Result<Options<'a>, TfliteError> {
    let reader = op.raw_options();
    match op_row(op.op()) {
        Some(row) => (row.read_options)(&reader),
        None => no_options(&reader),
    }
}

/// `Model::parse`'s check of each operator's options: its op's decoder
/// accepts them.
fn check_options(op: &Operator<'_>) -> Result<(), TfliteError> {
    read_options(op).map(|_| ())
}

impl<'a> Model<'a> {
    /// Reads and checks a `.tflite` file in place. Fails with a
    /// [`TfliteError`] naming the place (tensor, operator, operator code)
    /// and byte offset of the first fault: a buffer that is not a TFLite
    /// FlatBuffer (`TFL3` identifier) or is truncated, an offset or vtable
    /// out of range, a string that is not UTF-8, no subgraph, an unknown
    /// tensor type or operator code, a tensor or buffer index out of range,
    /// a negative dim, a constant buffer whose size does not match its
    /// shape, scales and zero points that do not match, a per-channel
    /// quantization along a wrong axis, an option outside the schema or
    /// options of another op's type.
    ///
    /// ```
    /// use shapecheck_tflite::{Model, TfliteError};
    ///
    /// let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine_float.tflite"));
    /// let model = Model::parse(bytes)?;
    /// assert_eq!(model.tensor_count(), 10);
    /// assert!(matches!(Model::parse(b"not a model"), Err(TfliteError::NotAModel { .. })));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn parse(bytes: &'a [u8]) -> Result<Self, TfliteError> {
        Model::parse_with(bytes, check_options)
    }
}

impl<'a> Operator<'a> {
    /// The builtin options, decoded for the ops the registry runs (each
    /// by its op's decoder); `None` or `Other` for the rest.
    ///
    /// ```
    /// use shapecheck_tflite::Options;
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// let Options::Softmax(s) = model.operator(3).unwrap().options() else { panic!() };
    /// assert_eq!(s.beta, 1.0);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn options(&self) -> Options<'a> {
        // `Model::parse` decoded every operator's options once already
        // (`check_options`), so this cannot fail on a parsed model
        read_options(self).unwrap_or(Options::Other {
            options_type: self.raw_options().options_type,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{op_row, TensorType, OPS};
    use crate::format::types::BuiltinOp;

    /// Every row's first input takes at least one type, read from its
    /// `types` (a type name the reading does not know would drop a form).
    #[test]
    fn every_row_names_the_types_of_its_first_input() {
        for row in &OPS {
            for token in row.types.split(", ") {
                let first = token.split(' ').next().unwrap_or("");
                let known = ["int8", "int16", "int32", "float32"].contains(&first);
                assert!(known, "{:?}: {first} in {}", row.op, row.types);
            }
            assert!(!row.input_types().is_empty(), "{:?}: {}", row.op, row.types);
        }
        let types = |op| op_row(op).map(|r| r.input_types());
        use TensorType::{Float32, Int16, Int32, Int8};
        assert_eq!(types(BuiltinOp::CONV_2D), Some(&[Int8, Int16, Float32][..]));
        assert_eq!(types(BuiltinOp::ADD), Some(&[Int8, Int16, Float32][..]));
        assert_eq!(
            types(BuiltinOp::QUANTIZE),
            Some(&[Int8, Int16, Float32][..])
        );
        assert_eq!(types(BuiltinOp::ARG_MAX), Some(&[Int8][..]));
        assert_eq!(types(BuiltinOp::EXP), Some(&[Float32][..]));
        assert_eq!(
            types(BuiltinOp::TRANSPOSE),
            Some(&[Int8, Int16, Int32, Float32][..])
        );
    }
}
