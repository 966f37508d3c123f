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
mod steps;
// the f32 steps, run on recorded float models (tests)
#[cfg(test)]
mod float_step_tests;
pub use steps::Step;

use crate::arith::quant::QuantizedMultiplier;
use crate::format::model::{no_options, OptionsReader};
use crate::format::model::{Model, Operator};
use crate::format::types::BuiltinOp;
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
/// assert_eq!(OPS.len(), 54);
/// assert_eq!(
///     op_row(BuiltinOp::ADD).unwrap().types,
///     "int8, int8 → int8, int16, int16 → int16, float32, float32 → float32"
/// );
/// assert!(op_row(BuiltinOp::CONCATENATION).is_some());
/// assert!(op_row(BuiltinOp::CUSTOM).is_none());
/// ```
pub static OPS: [OpRow; 54] = [
    OpRow {
        op: BuiltinOp::FULLY_CONNECTED,
        options: OptionsTable::FullyConnected,
        types: "int8 → int8, int16 → int16, float32 → float32",
        output_shape: crate::ops::conv::fully_connected::output_shape,
        read_options: crate::ops::conv::fully_connected::read_options,
        multipliers: crate::ops::conv::fully_connected::multipliers,
        prepare: |c, s, m| crate::ops::conv::fully_connected::prepare(c, s, m),
        typed_layer: Some(TypedLayer::FullyConnected),
    },
    OpRow {
        op: BuiltinOp::CONV_2D,
        options: OptionsTable::Conv2d,
        types: "int8 → int8, int16 → int16",
        output_shape: crate::ops::conv::output_shape,
        read_options: crate::ops::conv::read_options,
        multipliers: crate::ops::conv::multipliers,
        prepare: |c, s, m| crate::ops::conv::prepare(c, s, m),
        typed_layer: Some(TypedLayer::Conv2d),
    },
    OpRow {
        op: BuiltinOp::DEPTHWISE_CONV_2D,
        options: OptionsTable::DepthwiseConv2d,
        types: "int8 → int8, int16 → int16",
        output_shape: crate::ops::conv::depthwise_conv::output_shape,
        read_options: crate::ops::conv::depthwise_conv::read_options,
        multipliers: crate::ops::conv::depthwise_conv::multipliers,
        prepare: |c, s, m| crate::ops::conv::depthwise_conv::prepare(c, s, m),
        typed_layer: Some(TypedLayer::DepthwiseConv2d),
    },
    OpRow {
        op: BuiltinOp::AVERAGE_POOL_2D,
        options: OptionsTable::Pool2d,
        types: "int8 → int8, int16 → int16",
        output_shape: crate::ops::pool::output_shape,
        read_options: crate::ops::pool::read_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::pool::prepare_average(c, s, m),
        typed_layer: Some(TypedLayer::AveragePool2d),
    },
    OpRow {
        op: BuiltinOp::MAX_POOL_2D,
        options: OptionsTable::Pool2d,
        types: "int8 → int8, int16 → int16",
        output_shape: crate::ops::pool::output_shape,
        read_options: crate::ops::pool::read_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::pool::prepare_max(c, s, m),
        typed_layer: Some(TypedLayer::MaxPool2d),
    },
    OpRow {
        op: BuiltinOp::MEAN,
        options: OptionsTable::Reducer,
        types: "int8 → int8, int16 → int16, float32 → float32",
        output_shape: crate::ops::reduce::output_shape,
        read_options: crate::ops::reduce::read_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::reduce::prepare(c, s, m),
        typed_layer: Some(TypedLayer::Mean),
    },
    OpRow {
        op: BuiltinOp::ADD,
        options: OptionsTable::Add,
        types: "int8, int8 → int8, int16, int16 → int16, float32, float32 → float32",
        output_shape: crate::shared::broadcast::output_shape,
        read_options: crate::ops::add::read_options,
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
        types: "int8 → int8, int16 → int16",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::logistic::prepare(c, s, m),
        typed_layer: Some(TypedLayer::Logistic),
    },
    OpRow {
        op: BuiltinOp::SOFTMAX,
        options: OptionsTable::Softmax,
        types: "int8 → int8, int16 → int16",
        output_shape: same_as_input,
        read_options: crate::ops::softmax::read_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::softmax::prepare(c, s, m),
        typed_layer: Some(TypedLayer::Softmax),
    },
    OpRow {
        op: BuiltinOp::RESHAPE,
        options: OptionsTable::Reshape,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::reshape::output_shape,
        read_options: crate::ops::reshape::read_options,
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
        read_options: crate::ops::mul::read_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::mul::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SUB,
        options: OptionsTable::Sub,
        types: "int8, int8 → int8, float32, float32 → float32",
        output_shape: crate::shared::broadcast::output_shape,
        read_options: crate::ops::sub::read_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::sub::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::DIV,
        options: OptionsTable::Div,
        types: "int8, int8 → int8",
        output_shape: crate::shared::broadcast::output_shape,
        read_options: crate::ops::div::read_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::div::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::MAXIMUM,
        options: OptionsTable::None,
        types: "int8, int8 → int8",
        output_shape: crate::shared::broadcast::output_shape,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::maximum_minimum::prepare_maximum(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::MINIMUM,
        options: OptionsTable::None,
        types: "int8, int8 → int8",
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
        types: "int8, int8 → int8",
        output_shape: crate::shared::broadcast::output_shape,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::prelu::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::RELU,
        options: OptionsTable::None,
        types: "int8 → int8",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::relu::prepare_relu(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::RELU6,
        options: OptionsTable::None,
        types: "int8 → int8",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::relu::prepare_relu6(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::LEAKY_RELU,
        options: OptionsTable::LeakyRelu,
        types: "int8 → int8",
        output_shape: same_as_input,
        read_options: crate::ops::leaky_relu::read_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::leaky_relu::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::HARD_SWISH,
        options: OptionsTable::None,
        types: "int8 → int8",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::hard_swish::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::TANH,
        options: OptionsTable::None,
        types: "int8 → int8, int16 → int16",
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
    // the ops that move data, each in its module
    OpRow {
        op: BuiltinOp::CONCATENATION,
        options: OptionsTable::Concatenation,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::concat::concatenation_row,
        read_options: crate::ops::concat::read_concatenation_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::concat::prepare_concatenation(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::PACK,
        options: OptionsTable::Pack,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::concat::pack_row,
        read_options: crate::ops::concat::read_pack_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::concat::prepare_pack(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SPLIT,
        options: OptionsTable::Split,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::split::split_row,
        read_options: crate::ops::split::read_split_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::split::prepare_split(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SPLIT_V,
        options: OptionsTable::SplitV,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::split::split_v_row,
        read_options: crate::ops::split::read_split_v_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::split::prepare_split_v(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::UNPACK,
        options: OptionsTable::Unpack,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::split::unpack_row,
        read_options: crate::ops::split::read_unpack_options,
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
        read_options: crate::ops::slice::read_strided_slice_options,
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
        read_options: crate::ops::gather::read_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::gather::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::DEPTH_TO_SPACE,
        options: OptionsTable::DepthToSpace,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::depth_space::depth_to_space_row,
        read_options: crate::ops::depth_space::read_depth_to_space_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::depth_space::prepare_depth_to_space(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SPACE_TO_DEPTH,
        options: OptionsTable::SpaceToDepth,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::depth_space::space_to_depth_row,
        read_options: crate::ops::depth_space::read_space_to_depth_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::depth_space::prepare_space_to_depth(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::MIRROR_PAD,
        options: OptionsTable::MirrorPad,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::ops::pad::mirror_pad::mirror_pad_row,
        read_options: crate::ops::pad::mirror_pad::read_options,
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
        read_options: crate::ops::reduce::read_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::reduce::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::REDUCE_MAX,
        options: OptionsTable::Reducer,
        types: "int8 → int8",
        output_shape: crate::ops::reduce::output_shape,
        read_options: crate::ops::reduce::read_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::reduce::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::REDUCE_MIN,
        options: OptionsTable::Reducer,
        types: "int8 → int8",
        output_shape: crate::ops::reduce::output_shape,
        read_options: crate::ops::reduce::read_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::reduce::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::ARG_MAX,
        options: OptionsTable::ArgMinMax,
        types: "int8 → int32",
        output_shape: crate::ops::arg_min_max::output_shape,
        read_options: crate::ops::arg_min_max::read_arg_max_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::arg_min_max::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::ARG_MIN,
        options: OptionsTable::ArgMinMax,
        types: "int8 → int32",
        output_shape: crate::ops::arg_min_max::output_shape,
        read_options: crate::ops::arg_min_max::read_arg_min_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::arg_min_max::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::RESIZE_NEAREST_NEIGHBOR,
        options: OptionsTable::Resize,
        types: "int8 → int8",
        output_shape: crate::ops::resize::output_shape,
        read_options: crate::ops::resize::read_nearest_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::resize::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::RESIZE_BILINEAR,
        options: OptionsTable::Resize,
        types: "int8 → int8",
        output_shape: crate::ops::resize::output_shape,
        read_options: crate::ops::resize::read_bilinear_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::resize::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::TRANSPOSE_CONV,
        options: OptionsTable::TransposeConv,
        types: "int8 → int8",
        output_shape: crate::ops::transpose_conv::output_shape,
        read_options: crate::ops::transpose_conv::read_options,
        multipliers: crate::ops::transpose_conv::multipliers,
        prepare: |c, s, m| crate::ops::transpose_conv::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::BATCH_MATMUL,
        options: OptionsTable::BatchMatMul,
        types: "int8, int8 → int8",
        output_shape: crate::ops::batch_matmul::output_shape,
        read_options: crate::ops::batch_matmul::read_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::batch_matmul::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::LOG_SOFTMAX,
        options: OptionsTable::None,
        types: "int8 → int8",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::softmax::log_softmax::prepare(c, s, m),
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::L2_NORMALIZATION,
        options: OptionsTable::L2Norm,
        types: "int8 → int8",
        output_shape: same_as_input,
        read_options: crate::ops::l2_normalization::read_options,
        multipliers: no_multipliers,
        prepare: |c, s, m| crate::ops::l2_normalization::prepare(c, s, m),
        typed_layer: None,
    },
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
