//! The registry of the ops shapecheck runs, one row each ([`OPS`]): the
//! op's code, the options table it reads, the element types it takes,
//! and pointers into its module (`tflite/src/<op>.rs`) for everything
//! else: its options decoder (which [`Model::parse`] calls), its shape
//! rule (the one function that gives its output's shape from its operands
//! and options, which the [`Interpreter`](crate::Interpreter) and
//! `shapecheck`'s `model!` both call), the multipliers it needs and its
//! interpreter step. ARCHITECTURE.md's "Adding a TFLite op" is the recipe.

use crate::depthwise_conv::conv_axis;
use crate::error::{Name, OperandProblem, TfliteError};
use crate::interpreter::{Checker, Step};
use crate::model::{no_options, OptionsReader};
use crate::model::{Model, ModelTensor, Operator};
use crate::options::Options;
use crate::quant::QuantizedMultiplier;
use crate::types::BuiltinOp;

/// The most dims a shape the ops take has (TFLite Micro broadcasts `ADD`
/// up to 6).
pub const MAX_DIMS: usize = 6;

/// A shape of at most [`MAX_DIMS`] dims, what a shape rule returns.
///
/// ```
/// use shapecheck_tflite::OpShape;
///
/// let s = OpShape::new(&[1, 48, 48, 8]).unwrap();
/// assert_eq!((s.dims(), s.elements()), (&[1, 48, 48, 8][..], Some(18_432)));
/// assert!(OpShape::new(&[1; 7]).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpShape {
    pub(crate) dims: [usize; MAX_DIMS],
    pub(crate) rank: usize,
}

impl OpShape {
    /// The shape of `dims`, or `None` past [`MAX_DIMS`] dims.
    ///
    /// ```
    /// use shapecheck_tflite::OpShape;
    /// assert_eq!(OpShape::new(&[]).unwrap().dims(), &[] as &[usize]);
    /// ```
    pub fn new(dims: &[usize]) -> Option<Self> {
        let mut shape = OpShape {
            dims: [0; MAX_DIMS],
            rank: dims.len(),
        };
        shape.dims.get_mut(..dims.len())?.copy_from_slice(dims);
        Some(shape)
    }

    /// The shape of the first `rank` of `dims`, as a constant: `model!`'s
    /// generated code writes a prepared step's shapes with it (a `rank`
    /// past [`MAX_DIMS`] is the shape of no dims, never a panic). Not an
    /// API: use [`OpShape::new`].
    #[doc(hidden)]
    pub const fn from_parts(dims: [usize; MAX_DIMS], rank: usize) -> Self {
        OpShape { dims, rank }
    }

    /// The dims.
    ///
    /// ```
    /// use shapecheck_tflite::OpShape;
    /// assert_eq!(OpShape::new(&[2, 3]).unwrap().dims(), &[2, 3]);
    /// ```
    pub fn dims(&self) -> &[usize] {
        self.dims.get(..self.rank).unwrap_or(&[])
    }

    /// The element count, `None` on overflow.
    ///
    /// ```
    /// use shapecheck_tflite::OpShape;
    /// assert_eq!(OpShape::new(&[2, 3]).unwrap().elements(), Some(6));
    /// ```
    pub fn elements(&self) -> Option<usize> {
        self.dims()
            .iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d))
    }
}

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
        output_shape: crate::fully_connected::output_shape,
        read_options: crate::fully_connected::read_options,
        multipliers: crate::fully_connected::multipliers,
        prepare: crate::fully_connected::prepare,
        typed_layer: Some(TypedLayer::FullyConnected),
    },
    OpRow {
        op: BuiltinOp::CONV_2D,
        options: OptionsTable::Conv2d,
        types: "int8 → int8, int16 → int16",
        output_shape: crate::conv::output_shape,
        read_options: crate::conv::read_options,
        multipliers: crate::conv::multipliers,
        prepare: crate::conv::prepare,
        typed_layer: Some(TypedLayer::Conv2d),
    },
    OpRow {
        op: BuiltinOp::DEPTHWISE_CONV_2D,
        options: OptionsTable::DepthwiseConv2d,
        types: "int8 → int8, int16 → int16",
        output_shape: crate::depthwise_conv::output_shape,
        read_options: crate::depthwise_conv::read_options,
        multipliers: crate::depthwise_conv::multipliers,
        prepare: crate::depthwise_conv::prepare,
        typed_layer: Some(TypedLayer::DepthwiseConv2d),
    },
    OpRow {
        op: BuiltinOp::AVERAGE_POOL_2D,
        options: OptionsTable::Pool2d,
        types: "int8 → int8, int16 → int16",
        output_shape: crate::pool::output_shape,
        read_options: crate::pool::read_options,
        multipliers: no_multipliers,
        prepare: crate::pool::prepare_average,
        typed_layer: Some(TypedLayer::AveragePool2d),
    },
    OpRow {
        op: BuiltinOp::MAX_POOL_2D,
        options: OptionsTable::Pool2d,
        types: "int8 → int8, int16 → int16",
        output_shape: crate::pool::output_shape,
        read_options: crate::pool::read_options,
        multipliers: no_multipliers,
        prepare: crate::pool::prepare_max,
        typed_layer: Some(TypedLayer::MaxPool2d),
    },
    OpRow {
        op: BuiltinOp::MEAN,
        options: OptionsTable::Reducer,
        types: "int8 → int8, int16 → int16, float32 → float32",
        output_shape: crate::reduce::output_shape,
        read_options: crate::reduce::read_options,
        multipliers: no_multipliers,
        prepare: crate::reduce::prepare,
        typed_layer: Some(TypedLayer::Mean),
    },
    OpRow {
        op: BuiltinOp::ADD,
        options: OptionsTable::Add,
        types: "int8, int8 → int8, int16, int16 → int16, float32, float32 → float32",
        output_shape: crate::add::output_shape,
        read_options: crate::add::read_options,
        multipliers: no_multipliers,
        prepare: crate::add::prepare,
        typed_layer: Some(TypedLayer::Add),
    },
    OpRow {
        op: BuiltinOp::PAD,
        options: OptionsTable::None,
        types: "int8 → int8, float32 → float32",
        output_shape: crate::pad::output_shape,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::pad::prepare,
        typed_layer: Some(TypedLayer::Pad),
    },
    OpRow {
        op: BuiltinOp::LOGISTIC,
        options: OptionsTable::None,
        types: "int8 → int8, int16 → int16",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::logistic::prepare,
        typed_layer: Some(TypedLayer::Logistic),
    },
    OpRow {
        op: BuiltinOp::SOFTMAX,
        options: OptionsTable::Softmax,
        types: "int8 → int8, int16 → int16",
        output_shape: same_as_input,
        read_options: crate::softmax::read_options,
        multipliers: no_multipliers,
        prepare: crate::softmax::prepare,
        typed_layer: Some(TypedLayer::Softmax),
    },
    OpRow {
        op: BuiltinOp::RESHAPE,
        options: OptionsTable::Reshape,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::reshape::output_shape,
        read_options: crate::reshape::read_options,
        multipliers: no_multipliers,
        prepare: crate::reshape::prepare,
        typed_layer: Some(TypedLayer::Reshape),
    },
    OpRow {
        op: BuiltinOp::QUANTIZE,
        options: OptionsTable::None,
        types: "float32 → int8, int8 → int8, float32 → int16, int16 → int16",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::quantize::prepare_quantize,
        typed_layer: Some(TypedLayer::Quantize),
    },
    OpRow {
        op: BuiltinOp::DEQUANTIZE,
        options: OptionsTable::None,
        types: "int8 → float32, int16 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::quantize::prepare_dequantize,
        typed_layer: Some(TypedLayer::Dequantize),
    },
    // the element-wise ops: the binary ones broadcast as ADD does
    OpRow {
        op: BuiltinOp::MUL,
        options: OptionsTable::Mul,
        types: "int8, int8 → int8, int16, int16 → int16, float32, float32 → float32",
        output_shape: crate::add::output_shape,
        read_options: crate::mul::read_options,
        multipliers: no_multipliers,
        prepare: crate::mul::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SUB,
        options: OptionsTable::Sub,
        types: "int8, int8 → int8, float32, float32 → float32",
        output_shape: crate::add::output_shape,
        read_options: crate::sub::read_options,
        multipliers: no_multipliers,
        prepare: crate::sub::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::DIV,
        options: OptionsTable::Div,
        types: "int8, int8 → int8",
        output_shape: crate::add::output_shape,
        read_options: crate::div::read_options,
        multipliers: no_multipliers,
        prepare: crate::div::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::MAXIMUM,
        options: OptionsTable::None,
        types: "int8, int8 → int8",
        output_shape: crate::add::output_shape,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::maximum_minimum::prepare_maximum,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::MINIMUM,
        options: OptionsTable::None,
        types: "int8, int8 → int8",
        output_shape: crate::add::output_shape,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::maximum_minimum::prepare_minimum,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SQUARED_DIFFERENCE,
        options: OptionsTable::None,
        types: "int8, int8 → int8, float32, float32 → float32",
        output_shape: crate::add::output_shape,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::squared_difference::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::PRELU,
        options: OptionsTable::None,
        types: "int8, int8 → int8",
        output_shape: crate::add::output_shape,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::prelu::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::RELU,
        options: OptionsTable::None,
        types: "int8 → int8",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::relu::prepare_relu,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::RELU6,
        options: OptionsTable::None,
        types: "int8 → int8",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::relu::prepare_relu6,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::LEAKY_RELU,
        options: OptionsTable::LeakyRelu,
        types: "int8 → int8",
        output_shape: same_as_input,
        read_options: crate::leaky_relu::read_options,
        multipliers: no_multipliers,
        prepare: crate::leaky_relu::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::HARD_SWISH,
        options: OptionsTable::None,
        types: "int8 → int8",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::hard_swish::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::TANH,
        options: OptionsTable::None,
        types: "int8 → int8, int16 → int16",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::tanh::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::RSQRT,
        options: OptionsTable::None,
        types: "int8 → int8, float32 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::rsqrt::prepare,
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
        prepare: crate::elu::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::NEG,
        options: OptionsTable::None,
        types: "float32 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::neg::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::EXP,
        options: OptionsTable::None,
        types: "float32 → float32",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::exp::prepare,
        typed_layer: None,
    },
    // the ops that move data, each in its module
    OpRow {
        op: BuiltinOp::CONCATENATION,
        options: OptionsTable::Concatenation,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::concat::concatenation_row,
        read_options: crate::concat::read_concatenation_options,
        multipliers: no_multipliers,
        prepare: crate::concat::prepare_concatenation,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::PACK,
        options: OptionsTable::Pack,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::concat::pack_row,
        read_options: crate::concat::read_pack_options,
        multipliers: no_multipliers,
        prepare: crate::concat::prepare_pack,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SPLIT,
        options: OptionsTable::Split,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::split::split_row,
        read_options: crate::split::read_split_options,
        multipliers: no_multipliers,
        prepare: crate::split::prepare_split,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SPLIT_V,
        options: OptionsTable::SplitV,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::split::split_v_row,
        read_options: crate::split::read_split_v_options,
        multipliers: no_multipliers,
        prepare: crate::split::prepare_split_v,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::UNPACK,
        options: OptionsTable::Unpack,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::split::unpack_row,
        read_options: crate::split::read_unpack_options,
        multipliers: no_multipliers,
        prepare: crate::split::prepare_unpack,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::TRANSPOSE,
        options: OptionsTable::None,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::transpose::transpose_row,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::transpose::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SLICE,
        options: OptionsTable::None,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::slice::slice_row,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::slice::prepare_slice,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::STRIDED_SLICE,
        options: OptionsTable::StridedSlice,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::slice::strided_slice_row,
        read_options: crate::slice::read_strided_slice_options,
        multipliers: no_multipliers,
        prepare: crate::slice::prepare_strided_slice,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::EXPAND_DIMS,
        options: OptionsTable::None,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::expand_dims::expand_dims_row,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::expand_dims::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::GATHER,
        options: OptionsTable::Gather,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::gather::gather_row,
        read_options: crate::gather::read_options,
        multipliers: no_multipliers,
        prepare: crate::gather::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::DEPTH_TO_SPACE,
        options: OptionsTable::DepthToSpace,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::depth_space::depth_to_space_row,
        read_options: crate::depth_space::read_depth_to_space_options,
        multipliers: no_multipliers,
        prepare: crate::depth_space::prepare_depth_to_space,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::SPACE_TO_DEPTH,
        options: OptionsTable::SpaceToDepth,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::depth_space::space_to_depth_row,
        read_options: crate::depth_space::read_space_to_depth_options,
        multipliers: no_multipliers,
        prepare: crate::depth_space::prepare_space_to_depth,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::MIRROR_PAD,
        options: OptionsTable::MirrorPad,
        types: "int8 → int8, int16 → int16, int32 → int32, float32 → float32",
        output_shape: crate::mirror_pad::mirror_pad_row,
        read_options: crate::mirror_pad::read_options,
        multipliers: no_multipliers,
        prepare: crate::mirror_pad::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::PADV2,
        options: OptionsTable::None,
        types: "int8 → int8",
        output_shape: crate::pad::output_shape,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::pad::prepare_padv2,
        typed_layer: None,
    },
    // reduce.rs, arg_min_max.rs, resize.rs, transpose_conv.rs,
    // batch_matmul.rs, log_softmax.rs, l2_normalization.rs
    OpRow {
        op: BuiltinOp::SUM,
        options: OptionsTable::Reducer,
        types: "int8 → int8, int16 → int16",
        output_shape: crate::reduce::output_shape,
        read_options: crate::reduce::read_options,
        multipliers: no_multipliers,
        prepare: crate::reduce::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::REDUCE_MAX,
        options: OptionsTable::Reducer,
        types: "int8 → int8",
        output_shape: crate::reduce::output_shape,
        read_options: crate::reduce::read_options,
        multipliers: no_multipliers,
        prepare: crate::reduce::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::REDUCE_MIN,
        options: OptionsTable::Reducer,
        types: "int8 → int8",
        output_shape: crate::reduce::output_shape,
        read_options: crate::reduce::read_options,
        multipliers: no_multipliers,
        prepare: crate::reduce::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::ARG_MAX,
        options: OptionsTable::ArgMinMax,
        types: "int8 → int32",
        output_shape: crate::arg_min_max::output_shape,
        read_options: crate::arg_min_max::read_arg_max_options,
        multipliers: no_multipliers,
        prepare: crate::arg_min_max::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::ARG_MIN,
        options: OptionsTable::ArgMinMax,
        types: "int8 → int32",
        output_shape: crate::arg_min_max::output_shape,
        read_options: crate::arg_min_max::read_arg_min_options,
        multipliers: no_multipliers,
        prepare: crate::arg_min_max::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::RESIZE_NEAREST_NEIGHBOR,
        options: OptionsTable::Resize,
        types: "int8 → int8",
        output_shape: crate::resize::output_shape,
        read_options: crate::resize::read_nearest_options,
        multipliers: no_multipliers,
        prepare: crate::resize::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::RESIZE_BILINEAR,
        options: OptionsTable::Resize,
        types: "int8 → int8",
        output_shape: crate::resize::output_shape,
        read_options: crate::resize::read_bilinear_options,
        multipliers: no_multipliers,
        prepare: crate::resize::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::TRANSPOSE_CONV,
        options: OptionsTable::TransposeConv,
        types: "int8 → int8",
        output_shape: crate::transpose_conv::output_shape,
        read_options: crate::transpose_conv::read_options,
        multipliers: crate::transpose_conv::multipliers,
        prepare: crate::transpose_conv::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::BATCH_MATMUL,
        options: OptionsTable::BatchMatMul,
        types: "int8, int8 → int8",
        output_shape: crate::batch_matmul::output_shape,
        read_options: crate::batch_matmul::read_options,
        multipliers: no_multipliers,
        prepare: crate::batch_matmul::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::LOG_SOFTMAX,
        options: OptionsTable::None,
        types: "int8 → int8",
        output_shape: same_as_input,
        read_options: no_options,
        multipliers: no_multipliers,
        prepare: crate::log_softmax::prepare,
        typed_layer: None,
    },
    OpRow {
        op: BuiltinOp::L2_NORMALIZATION,
        options: OptionsTable::L2Norm,
        types: "int8 → int8",
        output_shape: same_as_input,
        read_options: crate::l2_normalization::read_options,
        multipliers: no_multipliers,
        prepare: crate::l2_normalization::prepare,
        typed_layer: None,
    },
];

/// The multipliers of an op that requantizes with none per channel.
pub(crate) fn no_multipliers(_: &Model<'_>, _: &Operator<'_>) -> usize {
    0
}

/// The output channels of an int8 operator's weights or filter (its input
/// 1) along `axis`: one multiplier each; 0 for float weights.
pub(crate) fn weight_channels(model: &Model<'_>, op: &Operator<'_>, axis: usize) -> usize {
    op.input(1)
        .and_then(|i| model.tensor(i))
        .filter(|w| w.dtype() == crate::types::TensorType::Int8)
        .and_then(|w| w.shape().get(axis))
        .and_then(|d| usize::try_from(d).ok())
        .unwrap_or(0)
}

/// The row of `op`, or `None` for an op shapecheck does not run.
///
/// ```
/// use shapecheck_tflite::{op_row, BuiltinOp};
/// assert_eq!(op_row(BuiltinOp::MEAN).unwrap().op, BuiltinOp::MEAN);
/// ```
pub fn op_row(op: BuiltinOp) -> Option<&'static OpRow> {
    OPS.iter().find(|row| row.op == op)
}

/// The operator's input `k` as a tensor, or the error naming it.
pub(crate) fn operand<'m>(
    model: &Model<'m>,
    op: &Operator<'_>,
    k: usize,
    name: &'static str,
) -> Result<ModelTensor<'m>, TfliteError> {
    op.input(k)
        .and_then(|i| model.tensor(i))
        .ok_or(TfliteError::MissingOperand {
            operator: op.index(),
            op: op.op(),
            operand: name,
        })
}

/// A tensor's shape as sizes (checked non-negative by `Model::parse`), or
/// the error naming it when it has more than [`MAX_DIMS`] dims.
pub(crate) fn shape_of(
    op: &Operator<'_>,
    name: &'static str,
    t: &ModelTensor<'_>,
) -> Result<OpShape, TfliteError> {
    let mut dims = [0usize; MAX_DIMS];
    let shape = t.shape();
    if shape.len() > MAX_DIMS {
        return Err(operand_problem(
            op,
            name,
            t,
            OperandProblem::Rank {
                expected: MAX_DIMS,
                found: shape.len(),
            },
        ));
    }
    for (slot, d) in dims.iter_mut().zip(shape.iter()) {
        *slot = usize::try_from(d).unwrap_or(0);
    }
    Ok(OpShape {
        dims,
        rank: shape.len(),
    })
}

/// The error for operand `name` (tensor `t`) of `op`.
pub(crate) fn operand_problem(
    op: &Operator<'_>,
    name: &'static str,
    t: &ModelTensor<'_>,
    problem: OperandProblem,
) -> TfliteError {
    TfliteError::Operand {
        operator: Some(op.index()),
        op: Some(op.op()),
        operand: name,
        tensor: t.index(),
        name: Name::new(t.name()),
        problem,
    }
}

/// Checks operand `name` has `rank` dims.
pub(crate) fn need_rank(
    op: &Operator<'_>,
    name: &'static str,
    t: &ModelTensor<'_>,
    rank: usize,
) -> Result<OpShape, TfliteError> {
    let shape = shape_of(op, name, t)?;
    if shape.rank == rank {
        Ok(shape)
    } else {
        Err(operand_problem(
            op,
            name,
            t,
            OperandProblem::Rank {
                expected: rank,
                found: shape.rank,
            },
        ))
    }
}

/// An output size along one axis and the padding before it.
pub(crate) type SizeAndPad = (usize, usize);

/// The rows and columns a convolution or pool of a `[kh, kw]` window on
/// an NHWC input gives ([`conv_axis`] along each), with their padding
/// before: `((rows, pad_top), (columns, pad_left))`.
pub(crate) fn spatial(
    padding: crate::types::Padding,
    input: &OpShape,
    window: (usize, usize),
    strides: (usize, usize),
    dilations: (usize, usize),
) -> Result<(SizeAndPad, SizeAndPad), TfliteError> {
    let rows = conv_axis(padding, input.dims[1], window.0, strides.0, dilations.0)?;
    let columns = conv_axis(padding, input.dims[2], window.1, strides.1, dilations.1)?;
    Ok((
        (rows.output, rows.pad_before),
        (columns.output, columns.pad_before),
    ))
}

/// A strictly positive option as a size (`Model::parse` checked it).
pub(crate) fn size(v: i32) -> usize {
    usize::try_from(v).unwrap_or(0)
}

/// The output of an op whose output is its input's shape.
fn same_as_input(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let input = operand(model, op, 0, "input")?;
    shape_of(op, "input", &input)
}
