//! TFLite's layers on [`Tensor`](crate::Tensor)s (feature `tflite`): the
//! int8 and f32 fully connected layer, and the int8 convolution, depthwise
//! convolution, average and max pools, mean, add, pad, logistic, softmax,
//! quantize and dequantize, concatenation, mul, the nearest and bilinear
//! resizes, transposed convolution, slice and split, with the shapes as
//! types. The arithmetic is
//! `shapecheck_tflite`'s kernels on slices, bit for bit TFLite's (TFLite
//! Micro's with [`Rounding::Double`]); this module only types their
//! operands and calls them. Reshape is [`Tensor::reshape`](crate::Tensor::reshape).
//! [`model!`](crate::model) writes a `.tflite` file's layers as calls to
//! these functions.
//!
//! The rules (each a compile error naming the shapes and the rule id):
//! - [`fully_connected_int8`], [`fully_connected_f32`]: an input
//!   `[batch, in]` and weights `[out, in]` give `[batch, out]`; the input's
//!   last dim must be the weights' second (`fully_connected: ...`, a
//!   trait, [`FullyConnectedShapes`]).
//! - [`conv_2d_int8`]: an NHWC input `[batch, h, w, c]` and a filter
//!   `[out, kh, kw, c]` give `[batch, oh, ow, out]`; the input's channels
//!   must be the filter's last dim (`conv_2d/channels`, a trait,
//!   [`Conv2dChannels`]), and `oh`, `ow` are what the padding, strides and
//!   dilations give ([`conv_output`]: with the dilated filter
//!   `f = (k − 1) · dilation + 1`, `SAME` `ceil(h / stride)`, `VALID`
//!   `(h − f) / stride + 1`); the output type is written by the caller and
//!   checked against the rule when the call is built
//!   (`conv_2d/output-size`, a constant assertion, [`Conv2dCheck`]).
//! - [`depthwise_conv_int8`]: an input `[batch, h, w, c_in]` and a filter
//!   `[kh, kw, c_out]` (TFLite's `[1, kh, kw, c_out]` without the leading
//!   one) give `[batch, oh, ow, c_out]`, where `c_out` is `c_in` times the
//!   layer's depth multiplier (with [`One`], the default, a trait:
//!   `depthwise_conv/channels`, [`DepthwiseChannels`]) and `oh`, `ow` as
//!   for `CONV_2D` (`depthwise_conv/...`, [`DepthwiseConvCheck`]).
//! - [`average_pool_int8`], [`max_pool_int8`]: a `[kh, kw]` window
//!   ([`Pool2d`]) on `[batch, h, w, c]` gives `[batch, oh, ow, c]`; a
//!   `VALID` window larger than the input gives nothing (`pool/window`),
//!   pools have no dilation (`pool/dilation`), `oh`, `ow` as for `CONV_2D`
//!   (`pool/output-size`; [`PoolCheck`]).
//! - [`mean_int8`]: the mean over `h` and `w` of `[batch, h, w, c]` is
//!   `[batch, c]`, or `[batch, 1, 1, c]` with `keep_dims`
//!   (`mean/output`, a trait, [`MeanOutput`]).
//! - [`add_int8`]: two shapes broadcast as numpy's (the elementwise ops'
//!   rule, `elementwise/broadcast`, [`AddShapes`]); the output is their
//!   broadcast; each has at most 6 dims (`add/rank`, [`AddRank`]).
//!   [`add_int8_in_place_into`] takes two tensors of one shape (a type)
//!   and writes the sum over one of them.
//! - [`pad_int8`]: each output dim is its input's with the [`Paddings`]
//!   before and after (`pad/output-size`, [`PadCheck`]).
//! - [`concatenation_int8`]: two inputs joined along an [`Axis`](crate::ops::elementwise::Axis)
//!   give the output the caller wrote: the same rank, the dims off the
//!   axis equal, the axis's the sum (`concatenation/output`,
//!   [`ConcatenationCheck`]).
//! - [`mul_int8`]: two shapes broadcast as numpy's, as [`add_int8`]'s
//!   ([`MulShapes`], [`MulRank`]).
//! - [`resize_nearest_int8`], [`resize_bilinear_int8`]: an NHWC input to
//!   the caller's output of any rows and columns (1 to 2^20 − 1,
//!   `resize/size`, [`ResizeCheck`]), the batch and channels the input's
//!   (`resize/output`, a trait, [`ResizeOutput`]).
//! - [`transpose_conv_int8`]: an input `[b, h, w, c]` and a filter
//!   `[out, kh, kw, c]` give the caller's `[b, oh, ow, out]`
//!   (`transpose_conv/channels`, `transpose_conv/output`, traits), whose
//!   rows and columns a convolution of the same filter, strides and padding
//!   takes back to `h`, `w` (`transpose_conv/output-size`,
//!   [`TransposeConvCheck`]).
//! - [`slice_int8`]: the box from [`Begin`] of the output's shape lies in
//!   the input (`slice/bounds`, [`SliceCheck`]); [`split_int8`]: `N` equal
//!   pieces along an axis, each of the caller's shape (`split/output`,
//!   [`SplitCheck`]).
//! - [`softmax_int8`]: the same shape out, over the last dim, at most
//!   [`SOFTMAX_MAX_DEPTH`] deep (`softmax_int8/depth`).
//! - [`logistic_int8`], [`quantize_int8`], [`dequantize_int8`]: the same
//!   shape out.
//! - [`Arena`]: each view lies inside the buffer (`arena/capacity`,
//!   [`ArenaFits`]), and a call's write view overlaps none of its read
//!   views (`arena/overlap`, [`ArenaDisjoint`]).
//!
//! Each layer has an `_into` form ([`fully_connected_int8_into`], ...)
//! that writes into a caller's tensor of the output's shape, in any
//! storage: a view of a buffer the caller holds, such as the two of a
//! [`PingPong`], which [`model!`](crate::model)'s `predict` writes its
//! layers' outputs into in turn, or an [`Arena`]'s views at the offsets a
//! planner chose (nothing is returned by value but the model's output).
//! The plain forms return an inline tensor.
//!
//! No layer fails at run time: every size is a type, and every parameter a
//! kernel could refuse is checked when the layer is built, by a `const fn`
//! constructor ([`ClampInt8`], [`MeanInt8`], [`AddInt8`], [`MulInt8`],
//! [`Resize`], [`LogisticInt8`];
//! [`model!`](crate::model) writes each in a `static`, so a bad one fails
//! the build). A layer returns its output, an `_into` form `()`.
//!
//! Nothing allocates: the outputs are inline tensors or the caller's, the
//! layers' weights are borrowed (`static` data in a firmware), the
//! multipliers computed beforehand ([`model!`](crate::model) computes them
//! when it expands).
//!
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::ops::layers::{fully_connected_f32, FullyConnectedF32};
//!
//! static WEIGHTS: [[f32; 2]; 3] = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
//! static LAYER: FullyConnectedF32<'static, Dim<3>, Dim<2>> = FullyConnectedF32 {
//!     weights: &WEIGHTS,
//!     bias: Some(&[0.5, 0.0, -10.0]),
//!     output_min: 0.0, // ReLU
//!     output_max: f32::MAX,
//! };
//! let x = Tensor::<f32, shape![1, 2]>::from_array([[1.0, 2.0]]);
//! let y: Tensor<f32, shape![1, 3]> = fully_connected_f32(&x, &LAYER);
//! assert_eq!(y.as_slice(), &[1.5, 2.0, 0.0]);
//! ```
//!
//! A layer fed the wrong width does not build:
//!
//! ```compile_fail
//! use shapecheck::prelude::*;
//! use shapecheck::ops::layers::{fully_connected_f32, FullyConnectedF32};
//! static LAYER: FullyConnectedF32<'static, Dim<3>, Dim<2>> = FullyConnectedF32 {
//!     weights: &[[0.0; 2]; 3], bias: None, output_min: f32::MIN, output_max: f32::MAX,
//! };
//! let x = Tensor::<f32, shape![1, 4]>::full(1.0);
//! // fully_connected: input (One, Dim<4>) and weights (Dim<3>, Dim<2>) do not fit: ...
//! let _ = fully_connected_f32(&x, &LAYER);
//! ```

mod api;
mod bounds;
mod rule;
#[cfg(test)]
mod tests;

pub use api::{
    add_int8, add_int8_in_place_into, add_int8_into, average_pool_int8, average_pool_int8_into,
    concatenation_int8, concatenation_int8_into, conv_2d_int8, conv_2d_int8_into,
    conv_2d_int8_prepared_into, depthwise_conv_int8, depthwise_conv_int8_into, dequantize_int8,
    dequantize_int8_into, fully_connected_f32, fully_connected_f32_into, fully_connected_int8,
    fully_connected_int8_into, logistic_int8, logistic_int8_into, max_pool_int8,
    max_pool_int8_into, mean_int8, mean_int8_into, mul_int8, mul_int8_into, pad_int8,
    pad_int8_into, quantize_int8, quantize_int8_into, resize_bilinear_int8,
    resize_bilinear_int8_into, resize_nearest_int8, resize_nearest_int8_into, slice_int8,
    slice_int8_into, softmax_int8, softmax_int8_into, split_int8, split_int8_into,
    transpose_conv_int8, transpose_conv_int8_into, Arena, ArenaElement, InA, InB, PingPong,
};
pub use bounds::{
    assert_arena_fits, assert_ram_fits, AddRank, AddShapes, ArenaDisjoint, ArenaFits, BufferFits,
    ConcatenationCheck, Conv2dChannels, Conv2dCheck, DepthwiseChannels, DepthwiseConvCheck,
    FullyConnectedRows, FullyConnectedShapes, MeanOutput, ModelInput, MulRank, MulShapes, PadCheck,
    PoolCheck, ResizeCheck, ResizeOutput, SliceCheck, SoftmaxDepth, SplitCheck,
    TransposeConvChannels, TransposeConvCheck, TransposeConvOutput,
};
pub use rule::{conv_output, pad_output, SOFTMAX_MAX_DEPTH};
pub use shapecheck_tflite::{
    AddParams, LogisticParams, MeanParams, MulParams, QuantizedMultiplier, ResizeParams, Rounding,
    SoftmaxParams, TfliteError,
};

use core::marker::PhantomData;

use crate::dim::{One, StaticDim};
use crate::shape::FixedShape;

/// A layer's requantization multipliers: one for every output channel
/// (per-tensor quantization), or one per output channel `O`.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{Multipliers, QuantizedMultiplier};
///
/// let half = QuantizedMultiplier::from_parts(1 << 30, 0);
/// let one: Multipliers<'_, Dim<4>> = Multipliers::PerTensor(half);
/// assert_eq!(one.as_slice().len(), 1);
/// let each = [half; 4];
/// assert_eq!(Multipliers::<'_, Dim<4>>::PerChannel(&each).as_slice().len(), 4);
/// ```
pub enum Multipliers<'m, O: StaticDim> {
    /// One multiplier for every channel.
    PerTensor(QuantizedMultiplier),
    /// One multiplier per output channel.
    PerChannel(&'m O::Arr<QuantizedMultiplier>),
}

impl<O: StaticDim> Multipliers<'_, O> {
    /// The multipliers as the kernels take them: one, or one per channel.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::{Multipliers, QuantizedMultiplier};
    /// let m = Multipliers::<'_, Dim<2>>::PerTensor(QuantizedMultiplier::ZERO);
    /// assert_eq!(m.as_slice(), &[QuantizedMultiplier::ZERO]);
    /// ```
    pub fn as_slice(&self) -> &[QuantizedMultiplier] {
        match self {
            Multipliers::PerTensor(m) => core::slice::from_ref(m),
            Multipliers::PerChannel(ms) => O::arr_as_slice(ms),
        }
    }
}

/// An int8 fully connected layer with weights `[O, K]` (TFLite's
/// `FULLY_CONNECTED`): its constants, as TFLite derives them from the
/// layer's tensors (`model!` writes them; see
/// [`fully_connected_int8`] for the arithmetic).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{fully_connected_int8, ClampInt8, FullyConnectedInt8, Multipliers, QuantizedMultiplier, Rounding};
///
/// static LAYER: FullyConnectedInt8<'static, Dim<2>, Dim<2>> = FullyConnectedInt8 {
///     weights: &[[1, 2], [-1, -2]],
///     bias: Some(&[4, 0]),
///     input_zero_point: 1,
///     weights_zero_point: 0,
///     output_zero_point: 0,
///     multipliers: Multipliers::PerTensor(QuantizedMultiplier::from_parts(1 << 30, 0)), // 0.5
///     clamp: ClampInt8::RELU_AT_0, // ReLU at zero point 0
///     rounding: Rounding::Double,
/// };
/// let y = fully_connected_int8(&Tensor::<i8, shape![1, 2]>::from_array([[3, 5]]), &LAYER);
/// assert_eq!(y.as_slice(), &[7, 0]); // (2·1 + 4·2 + 4) · 0.5; (−2 − 8) · 0.5 clamped to 0
/// ```
pub struct FullyConnectedInt8<'m, O: StaticDim, K: StaticDim> {
    /// The weights, `[out, in]`, row-major.
    pub weights: &'m <(O, K) as FixedShape>::Array<i8>,
    /// The bias of each output, or none.
    pub bias: Option<&'m O::Arr<i32>>,
    /// The input's zero point (subtracted from every input).
    pub input_zero_point: i32,
    /// The weights' zero point (0 for TFLite's symmetric weights).
    pub weights_zero_point: i32,
    /// The output's zero point (added after requantization).
    pub output_zero_point: i32,
    /// `input_scale · weight_scale / output_scale`, per tensor or per channel.
    pub multipliers: Multipliers<'m, O>,
    /// The clamp, from the fused activation.
    pub clamp: ClampInt8,
    /// [`Rounding::Double`] for TFLite Micro, [`Rounding::Single`] for
    /// TensorFlow's reference interpreter.
    pub rounding: Rounding,
}

/// An f32 fully connected layer with weights `[O, K]`.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{fully_connected_f32, FullyConnectedF32};
/// let layer: FullyConnectedF32<'_, One, Dim<2>> = FullyConnectedF32 {
///     weights: &[[0.5, 0.25]],
///     bias: None,
///     output_min: f32::MIN,
///     output_max: f32::MAX,
/// };
/// let y = fully_connected_f32(&Tensor::<f32, shape![1, 2]>::from_array([[2.0, 4.0]]), &layer);
/// assert_eq!(y.as_slice(), &[2.0]);
/// ```
pub struct FullyConnectedF32<'m, O: StaticDim, K: StaticDim> {
    /// The weights, `[out, in]`, row-major.
    pub weights: &'m <(O, K) as FixedShape>::Array<f32>,
    /// The bias of each output, or none.
    pub bias: Option<&'m O::Arr<f32>>,
    /// The clamp's lower end, from the fused activation (`f32::MIN`: none).
    pub output_min: f32,
    /// The clamp's upper end (`f32::MAX`: none).
    pub output_max: f32,
}

/// A convolution's padding, strides and dilations as a type, so that the
/// output's size is a constant: [`Same`] or [`Valid`].
///
/// ```
/// use shapecheck::ops::layers::{ConvPadding, Same};
/// assert!(<Same<2, 2> as ConvPadding>::SAME);
/// assert_eq!(<Same<2, 3> as ConvPadding>::STRIDE_W, 3);
/// assert_eq!(<Same<2, 3> as ConvPadding>::DILATION_H, 1);
/// assert_eq!(<Same<1, 1, 2, 4> as ConvPadding>::DILATION_W, 4);
/// ```
#[doc(hidden)]
pub trait ConvPadding: Copy {
    /// `SAME` (true) or `VALID` padding.
    const SAME: bool;
    /// Rows stepped per output row.
    const STRIDE_H: usize;
    /// Columns stepped per output column.
    const STRIDE_W: usize;
    /// Rows between two taps of the filter (1: adjacent).
    const DILATION_H: usize;
    /// Columns between two taps of the filter (1: adjacent).
    const DILATION_W: usize;
}

/// `SAME` padding with strides `SH` (rows) and `SW` (columns) and
/// dilations `DH`, `DW` (default 1): `ceil(input / stride)` outputs.
///
/// ```
/// use shapecheck::ops::layers::{ConvPadding, Same};
/// assert_eq!(<Same<2, 1> as ConvPadding>::STRIDE_H, 2);
/// assert_eq!(<Same<2, 1, 3> as ConvPadding>::DILATION_H, 3);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Same<const SH: usize, const SW: usize, const DH: usize = 1, const DW: usize = 1>;

/// `VALID` padding with strides `SH` and `SW` and dilations `DH`, `DW`
/// (default 1): `(input − dilated filter) / stride + 1` outputs, the
/// dilated filter `(filter − 1) · dilation + 1`.
///
/// ```
/// use shapecheck::ops::layers::{ConvPadding, Valid};
/// assert!(!<Valid<1, 1> as ConvPadding>::SAME);
/// assert_eq!(<Valid<1, 1, 2, 2> as ConvPadding>::DILATION_W, 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Valid<const SH: usize, const SW: usize, const DH: usize = 1, const DW: usize = 1>;

impl<const SH: usize, const SW: usize, const DH: usize, const DW: usize> ConvPadding
    for Same<SH, SW, DH, DW>
{
    const SAME: bool = true;
    const STRIDE_H: usize = SH;
    const STRIDE_W: usize = SW;
    const DILATION_H: usize = DH;
    const DILATION_W: usize = DW;
}

impl<const SH: usize, const SW: usize, const DH: usize, const DW: usize> ConvPadding
    for Valid<SH, SW, DH, DW>
{
    const SAME: bool = false;
    const STRIDE_H: usize = SH;
    const STRIDE_W: usize = SW;
    const DILATION_H: usize = DH;
    const DILATION_W: usize = DW;
}

/// An int8 depthwise convolution (TFLite's `DEPTHWISE_CONV_2D`) with a
/// filter `[KH, KW, C]`, padding, strides and dilations `P` and the depth
/// multiplier `M` (`C` over the input's channels; [`One`] unless written);
/// the filter's zero point is 0 (TFLite's symmetric per-channel filters).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{depthwise_conv_int8, ClampInt8, DepthwiseConvInt8, Multipliers, QuantizedMultiplier, Valid};
///
/// // a 2×2 image, a 2×2 filter of ones, VALID: one output, the sum
/// let layer: DepthwiseConvInt8<'_, Dim<2>, Dim<2>, One, Valid<1, 1>> = DepthwiseConvInt8 {
///     filter: &[[[1], [1]], [[1], [1]]],
///     depth_multiplier: One,
///     bias: Some(&[2]),
///     padding: Valid,
///     input_zero_point: -1,
///     output_zero_point: 0,
///     multipliers: Multipliers::PerTensor(QuantizedMultiplier::from_parts(1 << 30, 0)),
///     clamp: ClampInt8::FULL,
/// };
/// let x = Tensor::<i8, shape![1, 2, 2, 1]>::from_array([[[[1], [2]], [[3], [4]]]]);
/// let y: Tensor<i8, shape![1, 1, 1, 1]> = depthwise_conv_int8(&x, &layer);
/// assert_eq!(y.as_slice(), &[8]); // ((2 + 3 + 4 + 5) + 2) · 0.5
/// ```
pub struct DepthwiseConvInt8<
    'm,
    KH: StaticDim,
    KW: StaticDim,
    C: StaticDim,
    P: ConvPadding,
    M: StaticDim = One,
> {
    /// The filter, `[kh, kw, c_out]`, row-major (TFLite's `[1, kh, kw, c_out]`).
    pub filter: &'m <(KH, KW, C) as FixedShape>::Array<i8>,
    /// The depth multiplier, `c_out` over the input's channels: [`One`]
    /// (the default, Keras's), or `Dim` of it (`Dim::<8>` for 1 channel in
    /// and 8 out). With [`One`], an input of other channels than the
    /// filter's is a compile error naming both shapes at `cargo check`
    /// ([`DepthwiseChannels`]).
    pub depth_multiplier: M,
    /// The bias of each output channel, or none.
    pub bias: Option<&'m C::Arr<i32>>,
    /// The padding, strides and dilations.
    pub padding: P,
    /// The input's zero point (subtracted from every input; the padding
    /// counts nothing).
    pub input_zero_point: i32,
    /// The output's zero point.
    pub output_zero_point: i32,
    /// `input_scale · filter_scale / output_scale`, per tensor or per channel.
    pub multipliers: Multipliers<'m, C>,
    /// The clamp, from the fused activation.
    pub clamp: ClampInt8,
}

/// An int8 convolution (TFLite's `CONV_2D`) with a filter
/// `[O, KH, KW, CI]` (`O` output channels, each a `[KH, KW, CI]` window
/// over the input's `CI` channels) and padding, strides and dilations `P`;
/// the filter's zero point is 0 (TFLite's symmetric per-channel filters).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{conv_2d_int8, ClampInt8, Conv2dInt8, Multipliers, QuantizedMultiplier, Valid};
///
/// // a 2×2 image of 2 channels, a 2×2 filter: channel 0 sums both input channels, channel 1 the first
/// static LAYER: Conv2dInt8<'static, Dim<2>, Dim<2>, Dim<2>, Dim<2>, Valid<1, 1>> = Conv2dInt8 {
///     filter: &[[[[1, 1], [1, 1]], [[1, 1], [1, 1]]], [[[1, 0], [1, 0]], [[1, 0], [1, 0]]]],
///     bias: Some(&[0, 100]),
///     padding: Valid,
///     input_zero_point: 0,
///     output_zero_point: 0,
///     multipliers: Multipliers::PerTensor(QuantizedMultiplier::from_parts(1 << 30, 1)), // 1.0
///     clamp: ClampInt8::FULL,
/// };
/// let x = Tensor::<i8, shape![1, 2, 2, 2]>::from_array([[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]]);
/// let y: Tensor<i8, shape![1, 1, 1, 2]> = conv_2d_int8(&x, &LAYER);
/// assert_eq!(y.as_slice(), &[36, 116]);
/// ```
pub struct Conv2dInt8<'m, O: StaticDim, KH: StaticDim, KW: StaticDim, CI: StaticDim, P: ConvPadding>
{
    /// The filter, `[out, kh, kw, in]`, row-major (TFLite's layout).
    pub filter: &'m <(O, KH, KW, CI) as FixedShape>::Array<i8>,
    /// The bias of each output channel, or none.
    pub bias: Option<&'m O::Arr<i32>>,
    /// The padding, strides and dilations.
    pub padding: P,
    /// The input's zero point (subtracted from every input; the padding
    /// counts nothing).
    pub input_zero_point: i32,
    /// The output's zero point.
    pub output_zero_point: i32,
    /// `input_scale · filter_scale / output_scale`, per tensor or per channel.
    pub multipliers: Multipliers<'m, O>,
    /// The clamp, from the fused activation.
    pub clamp: ClampInt8,
}

/// An int8 pool (TFLite's `AVERAGE_POOL_2D` or `MAX_POOL_2D`) with a
/// window of `KH × KW` and padding and strides `P` (dilation 1; pools
/// have none), clamped to `clamp` (the fused activation's range). The
/// input's quantization passes through.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{max_pool_int8, ClampInt8, Pool2d, Valid};
///
/// static POOL: Pool2d<Dim<2>, Dim<2>, Valid<2, 2>> = Pool2d::new(Valid, ClampInt8::FULL);
/// let x = Tensor::<i8, shape![1, 2, 4, 1]>::from_array([[[[1], [-9], [7], [-8]], [[-3], [-7], [2], [-6]]]]);
/// let y: Tensor<i8, shape![1, 1, 2, 1]> = max_pool_int8(&x, &POOL);
/// assert_eq!(y.as_slice(), &[1, 7]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Pool2d<KH: StaticDim, KW: StaticDim, P: ConvPadding> {
    /// The padding and strides.
    pub padding: P,
    /// The clamp, from the fused activation.
    pub clamp: ClampInt8,
    window: PhantomData<(KH, KW)>,
}

impl<KH: StaticDim, KW: StaticDim, P: ConvPadding> Pool2d<KH, KW, P> {
    /// A pool of a `KH × KW` window with padding and strides `padding`,
    /// clamped to `clamp`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::{ClampInt8, Pool2d, Same};
    /// let pool = Pool2d::<Dim<3>, Dim<3>, Same<2, 2>>::new(Same, ClampInt8::RELU_AT_0);
    /// assert_eq!((pool.clamp.min(), pool.clamp.max()), (0, 127));
    /// ```
    pub const fn new(padding: P, clamp: ClampInt8) -> Self {
        Pool2d {
            padding,
            clamp,
            window: PhantomData,
        }
    }
}

/// An int8 layer's clamp `[min, max]` (its fused activation's range),
/// never empty: [`new`](Self::new) checks it, a `const fn`, so that a
/// layer written in a `const` or `static` (as [`model!`](crate::model)
/// writes them) with an empty clamp fails the build.
///
/// ```
/// use shapecheck::ops::layers::ClampInt8;
///
/// const RELU6: ClampInt8 = match ClampInt8::new(-128, 23) {
///     Ok(clamp) => clamp,
///     Err(_) => panic!("an empty clamp"),
/// };
/// assert_eq!((RELU6.min(), RELU6.max()), (-128, 23));
/// assert!(ClampInt8::new(5, -5).is_err());
/// ```
///
/// An empty one in a `const` does not build:
///
/// ```compile_fail
/// use shapecheck::ops::layers::ClampInt8;
/// const EMPTY: ClampInt8 = match ClampInt8::new(5, -5) {
///     Ok(clamp) => clamp,
///     Err(_) => panic!("an empty clamp"),
/// };
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClampInt8 {
    min: i8,
    max: i8,
}

impl ClampInt8 {
    /// No clamp but int8's own: `[−128, 127]`.
    ///
    /// ```
    /// use shapecheck::ops::layers::ClampInt8;
    /// assert_eq!((ClampInt8::FULL.min(), ClampInt8::FULL.max()), (-128, 127));
    /// ```
    pub const FULL: ClampInt8 = ClampInt8 {
        min: i8::MIN,
        max: i8::MAX,
    };

    /// A ReLU at zero point 0: `[0, 127]`.
    ///
    /// ```
    /// use shapecheck::ops::layers::ClampInt8;
    /// assert_eq!((ClampInt8::RELU_AT_0.min(), ClampInt8::RELU_AT_0.max()), (0, 127));
    /// ```
    pub const RELU_AT_0: ClampInt8 = ClampInt8 { min: 0, max: 127 };

    /// The clamp `[min, max]`, or [`TfliteError::KernelParam`] when it is
    /// empty (`min > max`), which TFLite's kernels refuse.
    ///
    /// ```
    /// use shapecheck::ops::layers::{ClampInt8, TfliteError};
    /// assert_eq!(ClampInt8::new(-3, 3)?.min(), -3);
    /// assert!(matches!(ClampInt8::new(1, 0), Err(TfliteError::KernelParam { .. })));
    /// # Ok::<(), TfliteError>(())
    /// ```
    pub const fn new(min: i8, max: i8) -> Result<Self, TfliteError> {
        if min > max {
            return Err(TfliteError::KernelParam {
                what: "clamp's lower end",
                value: min as i64,
                rule: "it is above the upper end",
            });
        }
        Ok(ClampInt8 { min, max })
    }

    /// The lower end.
    ///
    /// ```
    /// use shapecheck::ops::layers::ClampInt8;
    /// assert_eq!(ClampInt8::new(-5, 6)?.min(), -5);
    /// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
    /// ```
    pub const fn min(self) -> i8 {
        self.min
    }

    /// The upper end.
    ///
    /// ```
    /// use shapecheck::ops::layers::ClampInt8;
    /// assert_eq!(ClampInt8::new(-5, 6)?.max(), 6);
    /// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
    /// ```
    pub const fn max(self) -> i8 {
        self.max
    }
}

/// An int8 `MEAN` over the `H × W` pixels of an NHWC input: its
/// [`MeanParams`], whose count checked to be `H · W` when it is built
/// ([`new`](Self::new), a `const fn`: a layer written in a `const` or
/// `static` with another count fails the build). See
/// [`mean_int8`].
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::MeanInt8;
///
/// let params = shapecheck::tflite::mean_params(0.1, -1, 0.1, -1, 4)?;
/// let mean = MeanInt8::<Dim<2>, Dim<2>>::new(params)?;
/// assert_eq!(mean.params().count, 4);
/// assert!(MeanInt8::<Dim<3>, Dim<2>>::new(params).is_err());
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeanInt8<H: StaticDim, W: StaticDim> {
    params: MeanParams,
    pixels: PhantomData<(H, W)>,
}

impl<H: StaticDim, W: StaticDim> MeanInt8<H, W> {
    /// The mean of `params`, or [`TfliteError::KernelParam`] when its
    /// count is not `H · W` (TFLite's kernel refuses it).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::{MeanInt8, MeanParams, QuantizedMultiplier};
    ///
    /// const MEAN: MeanInt8<Dim<5>, Dim<6>> = match MeanInt8::new(MeanParams {
    ///     multiplier: QuantizedMultiplier::from_parts(1 << 30, -4),
    ///     input_zero_point: 0,
    ///     output_zero_point: 0,
    ///     count: 30,
    /// }) {
    ///     Ok(mean) => mean,
    ///     Err(_) => panic!("MEAN's count is not 5 · 6"),
    /// };
    /// assert_eq!(MEAN.params().count, 30);
    /// ```
    pub const fn new(params: MeanParams) -> Result<Self, TfliteError> {
        let pixels = H::SIZE.checked_mul(W::SIZE);
        let matches = match pixels {
            Some(p) => p == params.count,
            None => false,
        };
        if !matches {
            return Err(TfliteError::KernelParam {
                what: "mean's count of elements",
                value: if params.count > i64::MAX as usize {
                    i64::MAX
                } else {
                    params.count as i64
                },
                rule: "it must be the input's height · width",
            });
        }
        Ok(MeanInt8 {
            params,
            pixels: PhantomData,
        })
    }

    /// The parameters.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::MeanInt8;
    /// let params = shapecheck::tflite::mean_params(0.5, 0, 0.25, 0, 3)?;
    /// assert_eq!(MeanInt8::<One, Dim<3>>::new(params)?.params(), &params);
    /// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
    /// ```
    pub const fn params(&self) -> &MeanParams {
        &self.params
    }
}

/// An int8 `ADD`'s [`AddParams`], checked when it is built
/// ([`AddParams::check`] in [`new`](Self::new), a `const fn`: a layer
/// written in a `const` or `static` whose zero points or clamp leave int8,
/// whose clamp is empty or whose multipliers are not below 1 fails the
/// build). See [`add_int8`].
///
/// ```
/// use shapecheck::ops::layers::{AddInt8, AddParams};
///
/// let params = shapecheck::tflite::add_params(0.5, 0, 0.5, 0, 0.5, 0, -128, 127)?;
/// let add = AddInt8::new(params)?;
/// assert_eq!(add.params(), &params);
/// assert!(AddInt8::new(AddParams { output_zero_point: 200, ..params }).is_err());
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddInt8 {
    params: AddParams,
}

impl AddInt8 {
    /// The `ADD` of `params`, or the error [`AddParams::check`] gives.
    ///
    /// ```
    /// use shapecheck::ops::layers::{AddInt8, AddParams, QuantizedMultiplier};
    ///
    /// const ADD: AddInt8 = match AddInt8::new(AddParams {
    ///     input1_zero_point: 0, input1_multiplier: QuantizedMultiplier::from_parts(1 << 30, 0),
    ///     input2_zero_point: 0, input2_multiplier: QuantizedMultiplier::from_parts(1 << 30, 0),
    ///     output_zero_point: 0, output_multiplier: QuantizedMultiplier::from_parts(1 << 30, -19),
    ///     output_min: -128, output_max: 127,
    /// }) {
    ///     Ok(add) => add,
    ///     Err(_) => panic!("bad ADD parameters"),
    /// };
    /// assert_eq!(ADD.params().output_max, 127);
    /// ```
    pub const fn new(params: AddParams) -> Result<Self, TfliteError> {
        match params.check() {
            Ok(()) => Ok(AddInt8 { params }),
            Err(e) => Err(e),
        }
    }

    /// The parameters.
    ///
    /// ```
    /// use shapecheck::ops::layers::AddInt8;
    /// let params = shapecheck::tflite::add_params(0.5, 0, 0.5, 0, 0.5, 0, -128, 127)?;
    /// assert_eq!(AddInt8::new(params)?.params().output_min, -128);
    /// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
    /// ```
    pub const fn params(&self) -> &AddParams {
        &self.params
    }
}

/// An int8 `LOGISTIC`'s [`LogisticParams`], checked when it is built
/// ([`LogisticParams::check`] in [`new`](Self::new), a `const fn`). See
/// [`logistic_int8`].
///
/// ```
/// use shapecheck::ops::layers::{LogisticInt8, LogisticParams};
///
/// let params = shapecheck::tflite::logistic_params(0.1, 0, 1.0 / 256.0, -128)?;
/// assert_eq!(LogisticInt8::new(params)?.params(), &params);
/// assert!(LogisticInt8::new(LogisticParams { input_zero_point: -129, ..params }).is_err());
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogisticInt8 {
    params: LogisticParams,
}

impl LogisticInt8 {
    /// The `LOGISTIC` of `params`, or the error [`LogisticParams::check`]
    /// gives.
    ///
    /// ```
    /// use shapecheck::ops::layers::{LogisticInt8, LogisticParams, QuantizedMultiplier};
    ///
    /// const SIGMOID: LogisticInt8 = match LogisticInt8::new(LogisticParams {
    ///     input_zero_point: 0,
    ///     input_range_radius: 100,
    ///     input_multiplier: QuantizedMultiplier::from_parts(1 << 30, 4),
    /// }) {
    ///     Ok(logistic) => logistic,
    ///     Err(_) => panic!("bad LOGISTIC parameters"),
    /// };
    /// assert_eq!(SIGMOID.params().input_range_radius, 100);
    /// ```
    pub const fn new(params: LogisticParams) -> Result<Self, TfliteError> {
        match params.check() {
            Ok(()) => Ok(LogisticInt8 { params }),
            Err(e) => Err(e),
        }
    }

    /// The parameters.
    ///
    /// ```
    /// use shapecheck::ops::layers::LogisticInt8;
    /// let params = shapecheck::tflite::logistic_params(0.1, 0, 1.0 / 256.0, -128)?;
    /// assert_eq!(LogisticInt8::new(params)?.params().input_zero_point, 0);
    /// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
    /// ```
    pub const fn params(&self) -> &LogisticParams {
        &self.params
    }
}

/// A `PAD`'s paddings on an NHWC tensor as a type: `N0` before and `N1`
/// after the batch dim, `H0`, `H1` the rows, `W0`, `W1` the columns, `C0`,
/// `C1` the channels, so that the output's shape is checked when the call
/// is built ([`pad_int8_into`]).
///
/// ```
/// use shapecheck::ops::layers::Paddings;
/// // one row above and below, two columns left
/// let _pads: Paddings<0, 0, 1, 1, 2, 0, 0, 0> = Paddings;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Paddings<
    const N0: usize,
    const N1: usize,
    const H0: usize,
    const H1: usize,
    const W0: usize,
    const W1: usize,
    const C0: usize,
    const C1: usize,
>;

/// An int8 `MUL`'s [`MulParams`], checked when it is built
/// ([`MulParams::check`] in [`new`](Self::new), a `const fn`: a layer
/// written in a `const` or `static` whose zero points or clamp leave
/// int8, or whose clamp is empty, fails the build). See [`mul_int8`].
///
/// ```
/// use shapecheck::ops::layers::{MulInt8, MulParams};
///
/// let params = shapecheck::tflite::mul_params(0.5, 0, 0.5, 0, 0.25, 0, -128, 127)?;
/// let mul = MulInt8::new(params)?;
/// assert_eq!(mul.params(), &params);
/// assert!(MulInt8::new(MulParams { output_zero_point: 200, ..params }).is_err());
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MulInt8 {
    params: MulParams,
}

impl MulInt8 {
    /// The `MUL` of `params`, or the error [`MulParams::check`] gives.
    ///
    /// ```
    /// use shapecheck::ops::layers::{MulInt8, MulParams, QuantizedMultiplier};
    ///
    /// const SCALE: MulInt8 = match MulInt8::new(MulParams {
    ///     input1_zero_point: 0,
    ///     input2_zero_point: -128,
    ///     output_zero_point: 0,
    ///     output_multiplier: QuantizedMultiplier::from_parts(1 << 30, -7),
    ///     output_min: -128,
    ///     output_max: 127,
    /// }) {
    ///     Ok(mul) => mul,
    ///     Err(_) => panic!("bad MUL parameters"),
    /// };
    /// assert_eq!(SCALE.params().input2_zero_point, -128);
    /// ```
    pub const fn new(params: MulParams) -> Result<Self, TfliteError> {
        match params.check() {
            Ok(()) => Ok(MulInt8 { params }),
            Err(e) => Err(e),
        }
    }

    /// The parameters.
    ///
    /// ```
    /// use shapecheck::ops::layers::MulInt8;
    /// let params = shapecheck::tflite::mul_params(0.5, 0, 0.5, 0, 0.25, 0, -128, 127)?;
    /// assert_eq!(MulInt8::new(params)?.params().output_max, 127);
    /// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
    /// ```
    pub const fn params(&self) -> &MulParams {
        &self.params
    }
}

/// A resize's sampling ([`ResizeParams`]: `align_corners`,
/// `half_pixel_centers`), checked when it is built ([`new`](Self::new), a
/// `const fn` over `shapecheck_tflite::resize_params`: both flags set is
/// refused, as TFLite refuses it). See [`resize_nearest_int8`] and
/// [`resize_bilinear_int8`].
///
/// ```
/// use shapecheck::ops::layers::Resize;
///
/// let keras = Resize::new(false, true)?; // Keras's UpSampling2D / Resizing
/// assert!(keras.params().half_pixel_centers);
/// assert!(Resize::new(true, true).is_err());
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resize {
    params: ResizeParams,
}

impl Resize {
    /// TensorFlow 1's sampling: neither flag.
    ///
    /// ```
    /// use shapecheck::ops::layers::Resize;
    /// assert!(!Resize::LEGACY.params().align_corners);
    /// ```
    pub const LEGACY: Resize = Resize {
        params: ResizeParams {
            align_corners: false,
            half_pixel_centers: false,
        },
    };

    /// The sampling of the two flags, or [`TfliteError::KernelParam`] when
    /// both are set.
    ///
    /// ```
    /// use shapecheck::ops::layers::Resize;
    ///
    /// const CORNERS: Resize = match Resize::new(true, false) {
    ///     Ok(r) => r,
    ///     Err(_) => panic!("both flags set"),
    /// };
    /// assert!(CORNERS.params().align_corners);
    /// ```
    pub const fn new(align_corners: bool, half_pixel_centers: bool) -> Result<Self, TfliteError> {
        match shapecheck_tflite::resize_params(align_corners, half_pixel_centers) {
            Ok(params) => Ok(Resize { params }),
            Err(e) => Err(e),
        }
    }

    /// The sampling.
    ///
    /// ```
    /// use shapecheck::ops::layers::Resize;
    /// assert!(!Resize::new(false, false)?.params().half_pixel_centers);
    /// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
    /// ```
    pub const fn params(&self) -> &ResizeParams {
        &self.params
    }
}

/// An int8 transposed convolution (TFLite's `TRANSPOSE_CONV`, Keras's
/// `Conv2DTranspose`) with a filter `[O, KH, KW, CI]` (TFLite's layout:
/// `O` output channels, each a `[KH, KW, CI]` window) and padding and
/// strides `P` (no dilation); the filter's zero point is 0 (TFLite's
/// symmetric per-channel filters). Every parameter the kernel could
/// refuse is a type ([`Multipliers`], [`ClampInt8`], the strides checked
/// with the output's size). See [`transpose_conv_int8`].
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{transpose_conv_int8, ClampInt8, Multipliers, QuantizedMultiplier, TransposeConvInt8, Valid};
///
/// // a 1×2 filter [1, 2] of stride 2 along the row: each pixel x becomes x, 2x
/// static LAYER: TransposeConvInt8<'static, One, One, Dim<2>, One, Valid<1, 2>> = TransposeConvInt8 {
///     filter: &[[[[1], [2]]]],
///     bias: None,
///     padding: Valid,
///     input_zero_point: 0,
///     output_zero_point: 0,
///     multipliers: Multipliers::PerTensor(QuantizedMultiplier::from_parts(1 << 30, 1)), // 1.0
///     clamp: ClampInt8::FULL,
/// };
/// let x = Tensor::<i8, shape![1, 1, 2, 1]>::from_array([[[[3], [-5]]]]);
/// let y: Tensor<i8, shape![1, 1, 4, 1]> = transpose_conv_int8(&x, &LAYER);
/// assert_eq!(y.as_slice(), &[3, 6, -5, -10]);
/// ```
pub struct TransposeConvInt8<
    'm,
    O: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    CI: StaticDim,
    P: ConvPadding,
> {
    /// The filter, `[out, kh, kw, in]`, row-major (TFLite's layout).
    pub filter: &'m <(O, KH, KW, CI) as FixedShape>::Array<i8>,
    /// The bias of each output channel, or none.
    pub bias: Option<&'m O::Arr<i32>>,
    /// The padding and strides.
    pub padding: P,
    /// The input's zero point (subtracted from every input).
    pub input_zero_point: i32,
    /// The output's zero point.
    pub output_zero_point: i32,
    /// `input_scale · filter_scale / output_scale`, per tensor or per channel.
    pub multipliers: Multipliers<'m, O>,
    /// The clamp, from the fused activation.
    pub clamp: ClampInt8,
}

/// A `SLICE`'s first element along each axis as a type, `B0` along the
/// first (at most 5 axes, the ones past the tensor's rank 0), so that the
/// box is checked when the call is built ([`slice_int8`]); the box's
/// size is the output's shape.
///
/// ```
/// use shapecheck::ops::layers::Begin;
/// // from row 1, column 2 of an NHWC tensor
/// let _begin: Begin<0, 1, 2, 0> = Begin;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Begin<
    const B0: usize,
    const B1: usize = 0,
    const B2: usize = 0,
    const B3: usize = 0,
    const B4: usize = 0,
>;
