//! The builtin options of the operators the models use, decoded.

use crate::base::array::Array;
use crate::format::types::{Activation, Padding, WeightsFormat};
pub use crate::ops::arg_min_max::ArgMinMaxOptions;
pub use crate::ops::batch_matmul::BatchMatMulOptions;
pub use crate::ops::l2_normalization::L2NormOptions;
pub use crate::ops::resize::ResizeOptions;
pub use crate::ops::transpose_conv::TransposeConvOptions;

/// An operator's builtin options: decoded for `FULLY_CONNECTED`,
/// `CONV_2D`, `DEPTHWISE_CONV_2D`, `AVERAGE_POOL_2D`, `MAX_POOL_2D`,
/// `ADD`, `MEAN`, `RESHAPE`, `SOFTMAX`, `MUL`, `SUB`, `DIV` and
/// `LEAKY_RELU`, and for the ops that move data whose kernels read
/// options (`CONCATENATION`, `PACK`, `SPLIT`, `SPLIT_V`, `UNPACK`,
/// `STRIDED_SLICE`, `GATHER`, `DEPTH_TO_SPACE`, `SPACE_TO_DEPTH`,
/// `MIRROR_PAD`; absent options give the schema's defaults), the union's
/// type value for any other op.
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let Options::Reshape(r) = model.operator(0).unwrap().options() else { panic!() };
/// assert!(r.new_shape.unwrap().eq_slice(&[-1, 49, 40, 1]));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Options<'a> {
    /// No options stored, for an op whose options the reader does not decode.
    None,
    /// `FullyConnectedOptions`
    FullyConnected(FullyConnectedOptions),
    /// `Conv2DOptions`
    Conv2d(Conv2dOptions),
    /// `DepthwiseConv2DOptions`
    DepthwiseConv2d(DepthwiseConv2dOptions),
    /// `Pool2DOptions` (`AVERAGE_POOL_2D`, `MAX_POOL_2D`)
    Pool2d(Pool2dOptions),
    /// `AddOptions`
    Add(AddOptions),
    /// `ReducerOptions` (`MEAN`)
    Reducer(ReducerOptions),
    /// `ReshapeOptions`
    Reshape(ReshapeOptions<'a>),
    /// `SoftmaxOptions`
    Softmax(SoftmaxOptions),
    /// `MulOptions`
    Mul(crate::ops::mul::MulOptions),
    /// `SubOptions`
    Sub(crate::ops::sub::SubOptions),
    /// `DivOptions`
    Div(crate::ops::div::DivOptions),
    /// `LeakyReluOptions`
    LeakyRelu(crate::ops::leaky_relu::LeakyReluOptions),
    // the ops that move data: their option structs live in their modules
    /// `ConcatenationOptions`
    Concatenation(crate::ops::concat::ConcatenationOptions),
    /// `PackOptions`
    Pack(crate::ops::concat::PackOptions),
    /// `SplitOptions`
    Split(crate::ops::split::SplitOptions),
    /// `SplitVOptions`
    SplitV(crate::ops::split::SplitVOptions),
    /// `UnpackOptions`
    Unpack(crate::ops::split::UnpackOptions),
    /// `StridedSliceOptions`
    StridedSlice(crate::ops::slice::StridedSliceOptions),
    /// `GatherOptions`
    Gather(crate::ops::gather::GatherOptions),
    /// `DepthToSpaceOptions`
    DepthToSpace(crate::ops::depth_space::BlockSizeOptions),
    /// `SpaceToDepthOptions`
    SpaceToDepth(crate::ops::depth_space::BlockSizeOptions),
    /// `MirrorPadOptions`
    MirrorPad(crate::ops::pad::mirror_pad::MirrorPadOptions),
    /// `ArgMaxOptions` / `ArgMinOptions`
    ArgMinMax(ArgMinMaxOptions),
    /// `ResizeBilinearOptions` / `ResizeNearestNeighborOptions`
    Resize(ResizeOptions),
    /// `TransposeConvOptions`
    TransposeConv(TransposeConvOptions),
    /// `BatchMatMulOptions`
    BatchMatMul(BatchMatMulOptions),
    /// `L2NormOptions`
    L2Norm(L2NormOptions),
    /// Options of an op the reader does not decode: the `BuiltinOptions`
    /// type value stored.
    Other {
        /// the union's type value
        options_type: u8,
    },
}

/// `FullyConnectedOptions`: `y = act(x · Wᵀ + b)` with weights `[out, in]`.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options, WeightsFormat};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
/// let Options::FullyConnected(fc) = model.operator(2).unwrap().options() else { panic!() };
/// assert_eq!(fc.fused_activation, Activation::None);
/// assert_eq!((fc.weights_format, fc.keep_num_dims), (WeightsFormat::Default, false));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct FullyConnectedOptions {
    /// `fused_activation_function`
    pub fused_activation: Activation,
    /// `weights_format`
    pub weights_format: WeightsFormat,
    /// `keep_num_dims`: the output keeps the input's rank
    pub keep_num_dims: bool,
    /// `asymmetric_quantize_inputs` (weights-only quantization)
    pub asymmetric_quantize_inputs: bool,
}

/// `Conv2DOptions`, NHWC; strides and dilations checked to be at least 1.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options, Padding};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/conv_3x3_s2_same.tflite")))?;
/// let Options::Conv2d(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!((o.padding, o.stride_h, o.stride_w), (Padding::Same, 2, 2));
/// assert_eq!((o.dilation_h, o.dilation_w, o.fused_activation), (1, 1, Activation::Relu));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Conv2dOptions {
    /// `padding`
    pub padding: Padding,
    /// `stride_w`
    pub stride_w: i32,
    /// `stride_h`
    pub stride_h: i32,
    /// `fused_activation_function`
    pub fused_activation: Activation,
    /// `dilation_w_factor`
    pub dilation_w: i32,
    /// `dilation_h_factor`
    pub dilation_h: i32,
}

/// `Pool2DOptions`, NHWC, of `AVERAGE_POOL_2D` and `MAX_POOL_2D`; strides
/// and the window checked to be at least 1.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options, Padding};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/avgpool_3x3_s2_valid.tflite")))?;
/// let Options::Pool2d(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!((o.padding, o.stride_h, o.filter_height, o.filter_width), (Padding::Valid, 2, 3, 3));
/// assert_eq!(o.fused_activation, Activation::None);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Pool2dOptions {
    /// `padding`
    pub padding: Padding,
    /// `stride_w`
    pub stride_w: i32,
    /// `stride_h`
    pub stride_h: i32,
    /// `filter_width`: the window's columns
    pub filter_width: i32,
    /// `filter_height`: the window's rows
    pub filter_height: i32,
    /// `fused_activation_function`
    pub fused_activation: Activation,
}

/// `AddOptions`.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/add_residual_relu.tflite")))?;
/// let Options::Add(o) = model.operator(2).unwrap().options() else { panic!() };
/// assert_eq!(o.fused_activation, Activation::Relu);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AddOptions {
    /// `fused_activation_function`
    pub fused_activation: Activation,
    /// `pot_scale_int16` (int16 models only)
    pub pot_scale_int16: bool,
}

/// `ReducerOptions` (`MEAN`): the axes are the op's second input.
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/mean_hw_keepdims.tflite")))?;
/// let Options::Reducer(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert!(o.keep_dims);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReducerOptions {
    /// `keep_dims`: the reduced axes stay, of size 1
    pub keep_dims: bool,
}

/// `DepthwiseConv2DOptions`, NHWC; strides and dilations checked to be at
/// least 1.
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let Options::DepthwiseConv2d(o) = model.operator(1).unwrap().options() else { panic!() };
/// assert_eq!((o.dilation_h, o.dilation_w, o.fused_activation), (1, 1, Activation::Relu));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DepthwiseConv2dOptions {
    /// `padding`
    pub padding: Padding,
    /// `stride_w`
    pub stride_w: i32,
    /// `stride_h`
    pub stride_h: i32,
    /// `depth_multiplier` (output channels per input channel; newer TFLite
    /// derives it from the shapes)
    pub depth_multiplier: i32,
    /// `fused_activation_function`
    pub fused_activation: Activation,
    /// `dilation_w_factor`
    pub dilation_w: i32,
    /// `dilation_h_factor`
    pub dilation_h: i32,
}

/// `ReshapeOptions`.
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let Options::Reshape(r) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!(r.new_shape.map(|s| s.len()), Some(4));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct ReshapeOptions<'a> {
    /// `new_shape` (-1 for the dim to infer), `None` when the options are
    /// absent (the shape then comes from the op's second input)
    pub new_shape: Option<Array<'a, i32>>,
}

/// `SoftmaxOptions`.
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let Options::Softmax(s) = model.operator(3).unwrap().options() else { panic!() };
/// assert_eq!(s.beta, 1.0);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct SoftmaxOptions {
    /// `beta`: softmax(beta · x)
    pub beta: f32,
}
