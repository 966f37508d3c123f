//! The builtin options of the operators the models use, decoded.

pub use crate::ops::add::AddOptions;
pub use crate::ops::arg_min_max::ArgMinMaxOptions;
pub use crate::ops::batch_matmul::BatchMatMulOptions;
pub use crate::ops::conv::depthwise_conv::DepthwiseConv2dOptions;
pub use crate::ops::conv::fully_connected::FullyConnectedOptions;
pub use crate::ops::conv::Conv2dOptions;
pub use crate::ops::l2_normalization::L2NormOptions;
pub use crate::ops::pool::Pool2dOptions;
pub use crate::ops::reduce::ReducerOptions;
pub use crate::ops::reshape::ReshapeOptions;
pub use crate::ops::resize::ResizeOptions;
pub use crate::ops::softmax::SoftmaxOptions;
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
