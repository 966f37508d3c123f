//! The layers on tensors: each checks its shapes through its bound or
//! constant assertion, then calls `shapecheck_tflite`'s kernel on the
//! tensors' slices, writing into a caller's tensor (the `_into` forms)
//! or a fresh inline one.

use core::marker::PhantomData;

use shapecheck_tflite as kernels;
use shapecheck_tflite::{
    Conv2dDims, Conv2dParams, DepthwiseConvDims, DepthwiseConvParams, FullyConnectedDims,
    FullyConnectedParams, PoolDims, PoolParams, ResizeDims, Rounding, SoftmaxParams,
    TransposeConvDims, TransposeConvParams,
};

use super::bounds::{
    AddRank, AddShapes, ArenaDisjoint, ArenaFits, BufferFits, ConcatenationCheck, Conv2dChannels,
    Conv2dCheck, DepthwiseChannels, DepthwiseConvCheck, FullyConnectedRows, FullyConnectedShapes,
    MeanOutput, MulRank, MulShapes, PadCheck, PoolCheck, ResizeCheck, ResizeOutput, SliceCheck,
    SoftmaxDepth, SplitCheck, TransposeConvChannels, TransposeConvCheck, TransposeConvOutput,
};
use super::rule::conv_output;
use super::{
    AddInt8, Begin, Conv2dInt8, ConvPadding, DepthwiseConvInt8, FullyConnectedF32,
    FullyConnectedInt8, LogisticInt8, MeanInt8, MulInt8, Paddings, Pool2d, Resize,
    TransposeConvInt8,
};
use crate::dim::StaticDim;
use crate::ops::elementwise::Axis;
use crate::ops::StaticShape;
use crate::shape::FixedShape;
use crate::storage::{Storage, StorageMut};
use crate::tensor::Tensor;

/// The padding above the first row of a convolution or pool `P` with a
/// filter of `KH` rows on an input of `H` ([`conv_output`]; 0 where the
/// rule gives no output, which the call's check has ruled out).
fn pad_top<P: ConvPadding, H: StaticDim, KH: StaticDim>() -> usize {
    match conv_output(P::SAME, H::SIZE, KH::SIZE, P::STRIDE_H, P::DILATION_H) {
        Some((_, pad)) => pad,
        None => 0,
    }
}

/// The padding left of the first column ([`pad_top`]'s, for columns).
fn pad_left<P: ConvPadding, W: StaticDim, KW: StaticDim>() -> usize {
    match conv_output(P::SAME, W::SIZE, KW::SIZE, P::STRIDE_W, P::DILATION_W) {
        Some((_, pad)) => pad,
        None => 0,
    }
}

/// The sizes of a fully connected layer on an input of shape `X`.
fn fully_connected_dims<X: FixedShape, O: StaticDim, K: StaticDim>() -> FullyConnectedDims {
    FullyConnectedDims {
        batches: X::DIMS.first().copied().unwrap_or(0),
        input_dim: K::SIZE,
        units: O::SIZE,
    }
}

/// TFLite's int8 `FULLY_CONNECTED` on an input `[batch, in]`: each output
/// is `Σ (x − x_zp) · (w − w_zp) + bias` in `i32`, requantized by the
/// layer's multiplier in its rounding, plus the output zero point, clamped
/// (`shapecheck_tflite::fully_connected_int8`, bit for bit). A width that
/// does not fit the weights is a compile error (`fully_connected: ...`).
///
/// It cannot fail: the kernel's only errors are lengths, which the types
/// fix, and a multiplier count other than 1 or one per output, which
/// [`Multipliers`](super::Multipliers) rules out; so it calls the kernel
/// without its checks (`shapecheck_tflite::fully_connected_int8_prechecked`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{fully_connected_int8, ClampInt8, FullyConnectedInt8, Multipliers, QuantizedMultiplier, Rounding};
/// let layer: FullyConnectedInt8<'_, Dim<3>, One> = FullyConnectedInt8 {
///     weights: &[[1], [2], [-3]],
///     bias: None,
///     input_zero_point: 0,
///     weights_zero_point: 0,
///     output_zero_point: 0,
///     multipliers: Multipliers::PerTensor(QuantizedMultiplier::from_parts(1 << 30, 1)), // 1.0
///     clamp: ClampInt8::FULL,
///     rounding: Rounding::Double,
/// };
/// let y: Tensor<i8, shape![2, 3]> = fully_connected_int8(&tensor![[10i8], [-50]], &layer);
/// assert_eq!(y.as_slice(), &[10, 20, -30, -50, -100, 127]);
/// ```
pub fn fully_connected_int8<X, O, K, S>(
    input: &Tensor<i8, X, S>,
    layer: &FullyConnectedInt8<'_, O, K>,
) -> Tensor<i8, <X as FullyConnectedRows<O>>::Output>
where
    X: FullyConnectedShapes<(O, K)> + FullyConnectedRows<O>,
    O: StaticDim,
    K: StaticDim,
    S: Storage<i8>,
{
    let mut output = Tensor::<i8, <X as FullyConnectedRows<O>>::Output>::zeros();
    fully_connected_int8_into(input, layer, &mut output);
    output
}

/// [`fully_connected_int8`] writing into `output`, a caller's tensor of
/// the output's shape in any storage (a view of a buffer the caller owns:
/// nothing on the stack but the kernel's own locals). Every element of
/// `output` is written; the same compile errors.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{fully_connected_int8_into, ClampInt8, FullyConnectedInt8, Multipliers, QuantizedMultiplier, Rounding};
/// let layer: FullyConnectedInt8<'_, Dim<2>, One> = FullyConnectedInt8 {
///     weights: &[[1], [-1]],
///     bias: None,
///     input_zero_point: 0,
///     weights_zero_point: 0,
///     output_zero_point: 0,
///     multipliers: Multipliers::PerTensor(QuantizedMultiplier::from_parts(1 << 30, 1)), // 1.0
///     clamp: ClampInt8::FULL,
///     rounding: Rounding::Double,
/// };
/// let mut buf = [0i8; 2];
/// let mut y = Tensor::<i8, shape![1, 2], &mut [i8]>::from_storage(&mut buf[..])?;
/// fully_connected_int8_into(&tensor![[5i8]], &layer, &mut y);
/// assert_eq!(buf, [5, -5]);
/// # Ok::<(), shapecheck::ShapeError>(())
/// ```
pub fn fully_connected_int8_into<X, O, K, S, BO>(
    input: &Tensor<i8, X, S>,
    layer: &FullyConnectedInt8<'_, O, K>,
    output: &mut Tensor<i8, <X as FullyConnectedRows<O>>::Output, BO>,
) where
    X: FullyConnectedShapes<(O, K)> + FullyConnectedRows<O>,
    O: StaticDim,
    K: StaticDim,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let params = FullyConnectedParams {
        input_zero_point: layer.input_zero_point,
        weights_zero_point: layer.weights_zero_point,
        output_zero_point: layer.output_zero_point,
        multipliers: layer.multipliers.as_slice(),
        output_min: i32::from(layer.clamp.min()),
        output_max: i32::from(layer.clamp.max()),
        rounding: layer.rounding,
    };
    let weights = <(O, K) as FixedShape>::array_as_slice(layer.weights);
    let bias = layer.bias.map(|b| O::arr_as_slice(b));
    kernels::fully_connected_int8_prechecked(
        input.as_slice(),
        weights,
        bias,
        fully_connected_dims::<X, O, K>(),
        &params,
        output.as_mut_slice(),
    );
}

/// TFLite's f32 `FULLY_CONNECTED` (its reference kernel) on an input
/// `[batch, in]`: `Σ x · w` in order, plus the bias, clamped
/// (`shapecheck_tflite::fully_connected_f32`). A width that does not fit
/// the weights is a compile error (`fully_connected: ...`). It cannot
/// fail: the kernel's only errors are lengths, which the types fix; so it
/// calls the kernel without its checks
/// (`shapecheck_tflite::fully_connected_f32_prechecked`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{fully_connected_f32, FullyConnectedF32};
/// let layer: FullyConnectedF32<'_, Dim<2>, One> = FullyConnectedF32 {
///     weights: &[[2.0], [-1.0]],
///     bias: Some(&[0.5, 0.5]),
///     output_min: 0.0,
///     output_max: 6.0, // ReLU6
/// };
/// let y = fully_connected_f32(&Tensor::<f32, shape![1, 1]>::from_array([[4.0]]), &layer);
/// assert_eq!(y.as_slice(), &[6.0, 0.0]);
/// ```
pub fn fully_connected_f32<X, O, K, S>(
    input: &Tensor<f32, X, S>,
    layer: &FullyConnectedF32<'_, O, K>,
) -> Tensor<f32, <X as FullyConnectedRows<O>>::Output>
where
    X: FullyConnectedShapes<(O, K)> + FullyConnectedRows<O>,
    O: StaticDim,
    K: StaticDim,
    S: Storage<f32>,
{
    let mut output = Tensor::<f32, <X as FullyConnectedRows<O>>::Output>::zeros();
    fully_connected_f32_into(input, layer, &mut output);
    output
}

/// [`fully_connected_f32`] writing into `output`, a caller's tensor of the
/// output's shape in any storage. Every element of `output` is written;
/// the same compile errors.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{fully_connected_f32_into, FullyConnectedF32};
/// let layer: FullyConnectedF32<'_, One, Dim<2>> = FullyConnectedF32 {
///     weights: &[[0.5, 0.25]],
///     bias: None,
///     output_min: f32::MIN,
///     output_max: f32::MAX,
/// };
/// let mut y = Tensor::<f32, shape![1, 1]>::zeros();
/// fully_connected_f32_into(&tensor![[2.0f32, 4.0]], &layer, &mut y);
/// assert_eq!(y.as_slice(), &[2.0]);
/// ```
pub fn fully_connected_f32_into<X, O, K, S, BO>(
    input: &Tensor<f32, X, S>,
    layer: &FullyConnectedF32<'_, O, K>,
    output: &mut Tensor<f32, <X as FullyConnectedRows<O>>::Output, BO>,
) where
    X: FullyConnectedShapes<(O, K)> + FullyConnectedRows<O>,
    O: StaticDim,
    K: StaticDim,
    S: Storage<f32>,
    BO: StorageMut<f32>,
{
    let weights = <(O, K) as FixedShape>::array_as_slice(layer.weights);
    let bias = layer.bias.map(|b| O::arr_as_slice(b));
    kernels::fully_connected_f32_prechecked(
        input.as_slice(),
        weights,
        bias,
        fully_connected_dims::<X, O, K>(),
        layer.output_min,
        layer.output_max,
        output.as_mut_slice(),
    );
}

/// TFLite's int8 `DEPTHWISE_CONV_2D` (per-channel, any dilation and depth
/// multiplier `m = C / CI`, TFLite's and TFLite Micro's double rounding)
/// on an NHWC input: output channel `oc = ic · m + k` of each pixel sums
/// `(x − x_zp) · f` over the filter's (dilated) taps inside the input,
/// adds the bias, requantizes and clamps
/// (`shapecheck_tflite::depthwise_conv_int8`, bit for bit). The output's
/// shape `[B, OH, OW, C]` is the caller's (a type annotation). An input
/// whose channels are not the filter's, for a layer of depth multiplier 1
/// (its `M`, [`One`](crate::One) unless written), is one compile error
/// naming both shapes at `cargo check` ([`DepthwiseChannels`],
/// `depthwise_conv/channels`), as the convolution's; the rows, columns and
/// the channels of another multiplier are checked against the rule when
/// the call is built ([`DepthwiseConvCheck`]).
///
/// It cannot fail: every size is the types', the strides and dilations
/// too, and the clamp was checked when the layer was built
/// ([`ClampInt8`](super::ClampInt8)).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{depthwise_conv_int8, ClampInt8, DepthwiseConvInt8, Multipliers, QuantizedMultiplier, Same};
/// // a 3×3 image, one channel, a 2×2 filter of ones; SAME, stride 2: 2×2 out, padding after
/// let layer: DepthwiseConvInt8<'_, Dim<2>, Dim<2>, One, Same<2, 2>> = DepthwiseConvInt8 {
///     filter: &[[[1], [1]], [[1], [1]]],
///     depth_multiplier: One,
///     bias: None,
///     padding: Same,
///     input_zero_point: 0,
///     output_zero_point: 0,
///     multipliers: Multipliers::PerTensor(QuantizedMultiplier::from_parts(1 << 30, 1)), // 1.0
///     clamp: ClampInt8::FULL,
/// };
/// let x = Tensor::<i8, shape![1, 3, 3, 1]>::from_array([[[[1], [2], [3]], [[4], [5], [6]], [[7], [8], [9]]]]);
/// let y: Tensor<i8, shape![1, 2, 2, 1]> = depthwise_conv_int8(&x, &layer);
/// assert_eq!(y.as_slice(), &[12, 9, 15, 9]);
/// ```
///
/// An output type the rule does not give does not build
/// (`depthwise_conv/output-size`):
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{depthwise_conv_int8, ClampInt8, DepthwiseConvInt8, Multipliers, QuantizedMultiplier, Same};
/// let layer: DepthwiseConvInt8<'_, Dim<2>, Dim<2>, One, Same<2, 2>> = DepthwiseConvInt8 {
///     filter: &[[[1], [1]], [[1], [1]]], depth_multiplier: One, bias: None, padding: Same,
///     input_zero_point: 0, output_zero_point: 0,
///     multipliers: Multipliers::PerTensor(QuantizedMultiplier::ZERO), clamp: ClampInt8::FULL,
/// };
/// let x = Tensor::<i8, shape![1, 3, 3, 1]>::full(0);
/// // SAME with stride 2 gives 2 × 2, not 3 × 3
/// let _: Tensor<i8, shape![1, 3, 3, 1]> = depthwise_conv_int8(&x, &layer);
/// ```
#[allow(clippy::type_complexity)]
pub fn depthwise_conv_int8<B, H, W, CI, OH, OW, KH, KW, C, P, M, S>(
    input: &Tensor<i8, (B, H, W, CI), S>,
    layer: &DepthwiseConvInt8<'_, KH, KW, C, P, M>,
) -> Tensor<i8, (B, OH, OW, C)>
where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    CI: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    C: StaticDim,
    P: ConvPadding,
    M: StaticDim,
    (B, H, W, CI): DepthwiseChannels<(KH, KW, C), M>,
    S: Storage<i8>,
{
    let () = DepthwiseConvCheck::<H, W, CI, OH, OW, KH, KW, C, P, M>::CHECK;
    let mut output = Tensor::<i8, (B, OH, OW, C)>::zeros();
    depthwise_conv_run::<B, H, W, CI, OH, OW, KH, KW, C, P, M, S, _>(input, layer, &mut output);
    output
}

/// [`depthwise_conv_int8`] writing into `output`, a caller's tensor in any
/// storage, whose type gives the output's shape `[B, OH, OW, C]` (checked
/// against the rule when the call is built, as there). Every element of
/// `output` is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{depthwise_conv_int8_into, ClampInt8, DepthwiseConvInt8, Multipliers, QuantizedMultiplier, Valid};
/// let layer: DepthwiseConvInt8<'_, Dim<2>, Dim<2>, One, Valid<1, 1>> = DepthwiseConvInt8 {
///     filter: &[[[1], [1]], [[1], [1]]],
///     depth_multiplier: One,
///     bias: None,
///     padding: Valid,
///     input_zero_point: 0,
///     output_zero_point: 0,
///     multipliers: Multipliers::PerTensor(QuantizedMultiplier::from_parts(1 << 30, 1)), // 1.0
///     clamp: ClampInt8::FULL,
/// };
/// let x = Tensor::<i8, shape![1, 2, 3, 1]>::from_array([[[[1], [2], [3]], [[4], [5], [6]]]]);
/// let mut buf = [0i8; 2];
/// let mut y = Tensor::<i8, shape![1, 1, 2, 1], &mut [i8]>::from_storage(&mut buf[..]).unwrap();
/// depthwise_conv_int8_into(&x, &layer, &mut y);
/// assert_eq!(buf, [12, 16]);
/// ```
#[allow(clippy::type_complexity)]
pub fn depthwise_conv_int8_into<B, H, W, CI, OH, OW, KH, KW, C, P, M, S, BO>(
    input: &Tensor<i8, (B, H, W, CI), S>,
    layer: &DepthwiseConvInt8<'_, KH, KW, C, P, M>,
    output: &mut Tensor<i8, (B, OH, OW, C), BO>,
) where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    CI: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    C: StaticDim,
    P: ConvPadding,
    M: StaticDim,
    (B, H, W, CI): DepthwiseChannels<(KH, KW, C), M>,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let () = DepthwiseConvCheck::<H, W, CI, OH, OW, KH, KW, C, P, M>::CHECK;
    depthwise_conv_run::<B, H, W, CI, OH, OW, KH, KW, C, P, M, S, BO>(input, layer, output)
}

/// [`depthwise_conv_int8_into`] once its check holds (each public form
/// checks once: a failed check then names the user's call, once).
#[allow(clippy::type_complexity)]
fn depthwise_conv_run<B, H, W, CI, OH, OW, KH, KW, C, P, M, S, BO>(
    input: &Tensor<i8, (B, H, W, CI), S>,
    layer: &DepthwiseConvInt8<'_, KH, KW, C, P, M>,
    output: &mut Tensor<i8, (B, OH, OW, C), BO>,
) where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    CI: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    C: StaticDim,
    P: ConvPadding,
    M: StaticDim,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let dims = DepthwiseConvDims {
        batches: B::SIZE,
        input_height: H::SIZE,
        input_width: W::SIZE,
        input_depth: CI::SIZE,
        filter_height: KH::SIZE,
        filter_width: KW::SIZE,
        depth_multiplier: C::SIZE.checked_div(CI::SIZE).unwrap_or(0),
        output_height: OH::SIZE,
        output_width: OW::SIZE,
    };
    let params = DepthwiseConvParams {
        stride_height: P::STRIDE_H,
        stride_width: P::STRIDE_W,
        dilation_height: P::DILATION_H,
        dilation_width: P::DILATION_W,
        pad_top: pad_top::<P, H, KH>(),
        pad_left: pad_left::<P, W, KW>(),
        input_zero_point: layer.input_zero_point,
        output_zero_point: layer.output_zero_point,
        multipliers: layer.multipliers.as_slice(),
        output_min: i32::from(layer.clamp.min()),
        output_max: i32::from(layer.clamp.max()),
        rounding: Rounding::Double,
    };
    let filter = <(KH, KW, C) as FixedShape>::array_as_slice(layer.filter);
    let bias = layer.bias.map(|b| C::arr_as_slice(b));
    kernels::depthwise_conv_int8_prechecked(
        input.as_slice(),
        filter,
        bias,
        dims,
        &params,
        output.as_mut_slice(),
    );
}

/// TFLite's int8 `SOFTMAX` over the last dim (TFLite Micro's fixed point,
/// `shapecheck_tflite::softmax_int8`, bit for bit), the output at scale
/// 1/256 and zero point −128; `params` from the input's scale and `beta`
/// (`shapecheck_tflite::softmax_params`). A last dim of 0 or past
/// [`SOFTMAX_MAX_DEPTH`](super::SOFTMAX_MAX_DEPTH) does not build
/// ([`SoftmaxDepth`]). It cannot fail: the kernel's errors are lengths
/// and depths, which the types fix, and a row's sum past its fixed point,
/// which the depth rules out; so it calls the kernel without its checks
/// (`shapecheck_tflite::softmax_int8_prechecked`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::softmax_int8;
/// // speech.tflite's softmax (beta 1, input scale 0.0917319208)
/// let params = shapecheck::tflite::softmax_params(1.0, 0.0917319208)?;
/// let y = softmax_int8(&tensor![[-128i8, 79, 121, 93]], &params);
/// assert_eq!(y.as_slice(), &[-128, -123, 105, -110]);
/// # Ok::<(), shapecheck::tflite::TfliteError>(())
/// ```
pub fn softmax_int8<X, S>(input: &Tensor<i8, X, S>, params: &SoftmaxParams) -> Tensor<i8, X>
where
    X: FixedShape,
    S: Storage<i8>,
{
    let mut output = Tensor::<i8, X>::zeros();
    softmax_int8_into(input, params, &mut output);
    output
}

/// [`softmax_int8`] writing into `output`, a caller's tensor of the same
/// shape in any storage. Every element of `output` is written; the same
/// depth rule.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::softmax_int8_into;
/// let params = shapecheck::tflite::softmax_params(1.0, 0.0917319208)?;
/// let mut y = Tensor::<i8, shape![1, 4]>::zeros();
/// softmax_int8_into(&tensor![[-128i8, 79, 121, 93]], &params, &mut y);
/// assert_eq!(y.as_slice(), &[-128, -123, 105, -110]);
/// # Ok::<(), shapecheck::tflite::TfliteError>(())
/// ```
pub fn softmax_int8_into<X, S, BO>(
    input: &Tensor<i8, X, S>,
    params: &SoftmaxParams,
    output: &mut Tensor<i8, X, BO>,
) where
    X: FixedShape,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let () = SoftmaxDepth::<X>::CHECK;
    let depth = X::DIMS.last().copied().unwrap_or(1);
    kernels::softmax_int8_prechecked(input.as_slice(), depth, params, output.as_mut_slice());
}

/// TFLite's int8 `CONV_2D` (per-channel, any stride and dilation, TFLite
/// Micro's double rounding) on an NHWC input `[B, H, W, C]`: output
/// channel `oc` of each pixel sums `(x − x_zp) · f[oc]` over the filter's
/// (dilated) window of taps inside the input and all `C` channels, adds
/// the bias, requantizes and clamps (`shapecheck_tflite::conv_2d_int8`,
/// bit for bit). The input's channels must be the filter's last dim
/// (`conv_2d/channels`, a compile error naming both shapes,
/// [`Conv2dChannels`]); the output's shape `[B, OH, OW, O]` is the
/// caller's, its rows and columns checked against the rule when the call
/// is built ([`Conv2dCheck`], `conv_2d/output-size`).
///
/// It cannot fail: every size is the types', the strides and dilations
/// too, and the clamp was checked when the layer was built
/// ([`ClampInt8`](super::ClampInt8)).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{conv_2d_int8, ClampInt8, Conv2dInt8, Multipliers, QuantizedMultiplier, Same};
/// // a 3×3 image of one channel, a 2×2 filter of ones, SAME, stride 2: 2×2 out
/// let layer: Conv2dInt8<'_, One, Dim<2>, Dim<2>, One, Same<2, 2>> = Conv2dInt8 {
///     filter: &[[[[1], [1]], [[1], [1]]]],
///     bias: None,
///     padding: Same,
///     input_zero_point: 0,
///     output_zero_point: 0,
///     multipliers: Multipliers::PerTensor(QuantizedMultiplier::from_parts(1 << 30, 1)), // 1.0
///     clamp: ClampInt8::FULL,
/// };
/// let x = Tensor::<i8, shape![1, 3, 3, 1]>::from_array([[[[1], [2], [3]], [[4], [5], [6]], [[7], [8], [9]]]]);
/// let y: Tensor<i8, shape![1, 2, 2, 1]> = conv_2d_int8(&x, &layer);
/// assert_eq!(y.as_slice(), &[12, 9, 15, 9]);
/// ```
///
/// An input of other channels than the filter's does not build
/// (`conv_2d/channels`):
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{conv_2d_int8, ClampInt8, Conv2dInt8, Multipliers, QuantizedMultiplier, Valid};
/// let layer: Conv2dInt8<'_, One, One, One, Dim<2>, Valid<1, 1>> = Conv2dInt8 {
///     filter: &[[[[1, 1]]]], bias: None, padding: Valid,
///     input_zero_point: 0, output_zero_point: 0,
///     multipliers: Multipliers::PerTensor(QuantizedMultiplier::ZERO), clamp: ClampInt8::FULL,
/// };
/// let x = Tensor::<i8, shape![1, 2, 2, 3]>::full(0);
/// let _: Tensor<i8, shape![1, 2, 2, 1]> = conv_2d_int8(&x, &layer);
/// ```
#[allow(clippy::type_complexity)]
pub fn conv_2d_int8<B, H, W, C, OH, OW, O, KH, KW, CI, P, S>(
    input: &Tensor<i8, (B, H, W, C), S>,
    layer: &Conv2dInt8<'_, O, KH, KW, CI, P>,
) -> Tensor<i8, (B, OH, OW, O)>
where
    (B, H, W, C): Conv2dChannels<(O, KH, KW, CI)>,
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    O: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    CI: StaticDim,
    P: ConvPadding,
    S: Storage<i8>,
{
    let () = Conv2dCheck::<H, W, OH, OW, KH, KW, P>::CHECK;
    let mut output = Tensor::<i8, (B, OH, OW, O)>::zeros();
    conv_2d_run(input, layer, None, &mut output);
    output
}

/// [`conv_2d_int8`] writing into `output`, a caller's tensor in any
/// storage, whose type gives the output's shape `[B, OH, OW, O]` (checked
/// as there). Every element of `output` is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{conv_2d_int8_into, ClampInt8, Conv2dInt8, Multipliers, QuantizedMultiplier, Valid};
/// // two output channels over a 1×1 window of 2 channels: their sum and their difference
/// let layer: Conv2dInt8<'_, Dim<2>, One, One, Dim<2>, Valid<1, 1>> = Conv2dInt8 {
///     filter: &[[[[1, 1]]], [[[1, -1]]]],
///     bias: Some(&[0, 1]),
///     padding: Valid,
///     input_zero_point: 0,
///     output_zero_point: 0,
///     multipliers: Multipliers::PerTensor(QuantizedMultiplier::from_parts(1 << 30, 1)), // 1.0
///     clamp: ClampInt8::FULL,
/// };
/// let x = Tensor::<i8, shape![1, 1, 2, 2]>::from_array([[[[5, 3], [1, 4]]]]);
/// let mut buf = [0i8; 4];
/// let mut y = Tensor::<i8, shape![1, 1, 2, 2], &mut [i8]>::from_storage(&mut buf[..]).unwrap();
/// conv_2d_int8_into(&x, &layer, &mut y);
/// assert_eq!(buf, [8, 3, 5, -2]);
/// ```
#[allow(clippy::type_complexity)]
pub fn conv_2d_int8_into<B, H, W, C, OH, OW, O, KH, KW, CI, P, S, BO>(
    input: &Tensor<i8, (B, H, W, C), S>,
    layer: &Conv2dInt8<'_, O, KH, KW, CI, P>,
    output: &mut Tensor<i8, (B, OH, OW, O), BO>,
) where
    (B, H, W, C): Conv2dChannels<(O, KH, KW, CI)>,
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    O: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    CI: StaticDim,
    P: ConvPadding,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let () = Conv2dCheck::<H, W, OH, OW, KH, KW, P>::CHECK;
    conv_2d_run(input, layer, None, output)
}

/// [`conv_2d_int8_into`] with the layer's channel pairs set up once
/// (`shapecheck_tflite::conv_prepare`'s for this layer, made when the
/// program was built): `model!`'s code calls it for a convolution whose
/// pairs it wrote in flash, so that each call costs its pixels alone.
/// Bit for bit [`conv_2d_int8_into`] with `pairs` made for `layer`; with
/// others, unspecified values (never a panic). Not an API: call
/// [`conv_2d_int8_into`].
#[doc(hidden)]
#[allow(clippy::type_complexity)]
pub fn conv_2d_int8_prepared_into<B, H, W, C, OH, OW, O, KH, KW, CI, P, S, BO>(
    input: &Tensor<i8, (B, H, W, C), S>,
    layer: &Conv2dInt8<'_, O, KH, KW, CI, P>,
    pairs: &[kernels::ConvPairStage],
    output: &mut Tensor<i8, (B, OH, OW, O), BO>,
) where
    (B, H, W, C): Conv2dChannels<(O, KH, KW, CI)>,
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    O: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    CI: StaticDim,
    P: ConvPadding,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let () = Conv2dCheck::<H, W, OH, OW, KH, KW, P>::CHECK;
    conv_2d_run(input, layer, Some(pairs), output)
}

/// [`conv_2d_int8_into`] once its check holds (as [`depthwise_conv_run`]),
/// with the layer's channel pairs set up once, if any.
#[allow(clippy::type_complexity)]
fn conv_2d_run<B, H, W, C, OH, OW, O, KH, KW, CI, P, S, BO>(
    input: &Tensor<i8, (B, H, W, C), S>,
    layer: &Conv2dInt8<'_, O, KH, KW, CI, P>,
    pairs: Option<&[kernels::ConvPairStage]>,
    output: &mut Tensor<i8, (B, OH, OW, O), BO>,
) where
    (B, H, W, C): Conv2dChannels<(O, KH, KW, CI)>,
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    O: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    CI: StaticDim,
    P: ConvPadding,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let dims = Conv2dDims {
        batches: B::SIZE,
        input_height: H::SIZE,
        input_width: W::SIZE,
        input_depth: C::SIZE,
        filter_height: KH::SIZE,
        filter_width: KW::SIZE,
        output_height: OH::SIZE,
        output_width: OW::SIZE,
        output_depth: O::SIZE,
    };
    let params = Conv2dParams {
        stride_height: P::STRIDE_H,
        stride_width: P::STRIDE_W,
        dilation_height: P::DILATION_H,
        dilation_width: P::DILATION_W,
        pad_top: pad_top::<P, H, KH>(),
        pad_left: pad_left::<P, W, KW>(),
        input_zero_point: layer.input_zero_point,
        output_zero_point: layer.output_zero_point,
        multipliers: layer.multipliers.as_slice(),
        output_min: i32::from(layer.clamp.min()),
        output_max: i32::from(layer.clamp.max()),
        rounding: Rounding::Double,
    };
    let filter = <(O, KH, KW, CI) as FixedShape>::array_as_slice(layer.filter);
    let bias = layer.bias.map(|b| O::arr_as_slice(b));
    let (x, y) = (input.as_slice(), output.as_mut_slice());
    match pairs {
        Some(pairs) => {
            kernels::conv_2d_int8_prepared_prechecked(x, filter, bias, pairs, dims, &params, y)
        }
        None => kernels::conv_2d_int8_prechecked(x, filter, bias, dims, &params, y),
    }
}

/// A pool's sizes and parameters for the kernels (its rule checked by the
/// caller, a public function: so that a failed check names the user's
/// call).
fn pool_args<B, H, W, C, OH, OW, KH, KW, P>(pool: &Pool2d<KH, KW, P>) -> (PoolDims, PoolParams)
where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    P: ConvPadding,
{
    let dims = PoolDims {
        batches: B::SIZE,
        input_height: H::SIZE,
        input_width: W::SIZE,
        depth: C::SIZE,
        filter_height: KH::SIZE,
        filter_width: KW::SIZE,
        output_height: OH::SIZE,
        output_width: OW::SIZE,
    };
    let params = PoolParams {
        stride_height: P::STRIDE_H,
        stride_width: P::STRIDE_W,
        pad_top: pad_top::<P, H, KH>(),
        pad_left: pad_left::<P, W, KW>(),
        output_min: i32::from(pool.clamp.min()),
        output_max: i32::from(pool.clamp.max()),
    };
    (dims, params)
}

/// TFLite's int8 `AVERAGE_POOL_2D` on an NHWC input `[B, H, W, C]`: each
/// output is the mean of its window's taps inside the input, rounded half
/// away from zero, clamped (`shapecheck_tflite::average_pool_int8`, bit
/// for bit). The output's shape `[B, OH, OW, C]` is the caller's, checked
/// when the call is built ([`PoolCheck`]: a `VALID` window larger than the
/// input is `pool/window`, naming both; wrong rows or columns
/// `pool/output-size`).
///
/// It cannot fail: every size is the types', every window holds a tap
/// (the rule above), and the clamp was checked when the pool was built
/// ([`ClampInt8`](super::ClampInt8)).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{average_pool_int8, ClampInt8, Pool2d, Valid};
/// let pool = Pool2d::<Dim<2>, Dim<2>, Valid<1, 1>>::new(Valid, ClampInt8::FULL);
/// let x = Tensor::<i8, shape![1, 2, 3, 1]>::from_array([[[[1], [2], [4]], [[-7], [3], [5]]]]);
/// let y: Tensor<i8, shape![1, 1, 2, 1]> = average_pool_int8(&x, &pool);
/// assert_eq!(y.as_slice(), &[0, 4]); // −1/4 → 0; 14/4 = 3.5 → 4
/// ```
///
/// A `VALID` window larger than the input does not build (`pool/window`):
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{average_pool_int8, ClampInt8, Pool2d, Valid};
/// let pool = Pool2d::<Dim<3>, Dim<3>, Valid<1, 1>>::new(Valid, ClampInt8::FULL);
/// let x = Tensor::<i8, shape![1, 2, 2, 1]>::full(0);
/// let _: Tensor<i8, shape![1, 1, 1, 1]> = average_pool_int8(&x, &pool);
/// ```
#[allow(clippy::type_complexity)]
pub fn average_pool_int8<B, H, W, C, OH, OW, KH, KW, P, S>(
    input: &Tensor<i8, (B, H, W, C), S>,
    pool: &Pool2d<KH, KW, P>,
) -> Tensor<i8, (B, OH, OW, C)>
where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    P: ConvPadding,
    S: Storage<i8>,
{
    let () = PoolCheck::<B, H, W, C, OH, OW, KH, KW, P>::CHECK;
    let mut output = Tensor::<i8, (B, OH, OW, C)>::zeros();
    let (dims, params) = pool_args::<B, H, W, C, OH, OW, KH, KW, P>(pool);
    kernels::average_pool_int8_prechecked(input.as_slice(), dims, &params, output.as_mut_slice());
    output
}

/// [`average_pool_int8`] writing into `output`, a caller's tensor in any
/// storage whose type gives the output's shape (checked as there). Every
/// element of `output` is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{average_pool_int8_into, ClampInt8, Pool2d, Same};
/// // SAME, stride 2 on 3×3: 2×2 out, the windows at the edges hold fewer taps
/// let pool = Pool2d::<Dim<2>, Dim<2>, Same<2, 2>>::new(Same, ClampInt8::FULL);
/// let x = Tensor::<i8, shape![1, 3, 3, 1]>::from_array([[[[1], [2], [3]], [[4], [5], [6]], [[7], [8], [9]]]]);
/// let mut y = Tensor::<i8, shape![1, 2, 2, 1]>::zeros();
/// average_pool_int8_into(&x, &pool, &mut y);
/// assert_eq!(y.as_slice(), &[3, 5, 8, 9]);
/// ```
#[allow(clippy::type_complexity)]
pub fn average_pool_int8_into<B, H, W, C, OH, OW, KH, KW, P, S, BO>(
    input: &Tensor<i8, (B, H, W, C), S>,
    pool: &Pool2d<KH, KW, P>,
    output: &mut Tensor<i8, (B, OH, OW, C), BO>,
) where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    P: ConvPadding,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let () = PoolCheck::<B, H, W, C, OH, OW, KH, KW, P>::CHECK;
    let (dims, params) = pool_args::<B, H, W, C, OH, OW, KH, KW, P>(pool);
    kernels::average_pool_int8_prechecked(input.as_slice(), dims, &params, output.as_mut_slice());
}

/// TFLite's int8 `MAX_POOL_2D` on an NHWC input `[B, H, W, C]`: each
/// output is the largest of its window's taps inside the input, clamped
/// (`shapecheck_tflite::max_pool_int8`). The same shape rules as
/// [`average_pool_int8`].
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{max_pool_int8, ClampInt8, Pool2d, Valid};
/// let pool = Pool2d::<Dim<2>, One, Valid<2, 1>>::new(Valid, ClampInt8::RELU_AT_0);
/// let x = Tensor::<i8, shape![1, 4, 1, 2]>::from_array([[[[1, -9]], [[3, -7]], [[-5, -2]], [[-6, -8]]]]);
/// let y: Tensor<i8, shape![1, 2, 1, 2]> = max_pool_int8(&x, &pool);
/// assert_eq!(y.as_slice(), &[3, 0, 0, 0]);
/// ```
#[allow(clippy::type_complexity)]
pub fn max_pool_int8<B, H, W, C, OH, OW, KH, KW, P, S>(
    input: &Tensor<i8, (B, H, W, C), S>,
    pool: &Pool2d<KH, KW, P>,
) -> Tensor<i8, (B, OH, OW, C)>
where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    P: ConvPadding,
    S: Storage<i8>,
{
    let () = PoolCheck::<B, H, W, C, OH, OW, KH, KW, P>::CHECK;
    let mut output = Tensor::<i8, (B, OH, OW, C)>::zeros();
    let (dims, params) = pool_args::<B, H, W, C, OH, OW, KH, KW, P>(pool);
    kernels::max_pool_int8_prechecked(input.as_slice(), dims, &params, output.as_mut_slice());
    output
}

/// [`max_pool_int8`] writing into `output`, a caller's tensor in any
/// storage whose type gives the output's shape (checked as there).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{max_pool_int8_into, ClampInt8, Pool2d, Valid};
/// let pool = Pool2d::<Dim<2>, Dim<2>, Valid<1, 1>>::new(Valid, ClampInt8::FULL);
/// let x = Tensor::<i8, shape![1, 2, 3, 1]>::from_array([[[[1], [2], [-4]], [[-7], [3], [-5]]]]);
/// let mut buf = [0i8; 2];
/// let mut y = Tensor::<i8, shape![1, 1, 2, 1], &mut [i8]>::from_storage(&mut buf[..]).unwrap();
/// max_pool_int8_into(&x, &pool, &mut y);
/// assert_eq!(buf, [3, 3]);
/// ```
#[allow(clippy::type_complexity)]
pub fn max_pool_int8_into<B, H, W, C, OH, OW, KH, KW, P, S, BO>(
    input: &Tensor<i8, (B, H, W, C), S>,
    pool: &Pool2d<KH, KW, P>,
    output: &mut Tensor<i8, (B, OH, OW, C), BO>,
) where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    P: ConvPadding,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let () = PoolCheck::<B, H, W, C, OH, OW, KH, KW, P>::CHECK;
    let (dims, params) = pool_args::<B, H, W, C, OH, OW, KH, KW, P>(pool);
    kernels::max_pool_int8_prechecked(input.as_slice(), dims, &params, output.as_mut_slice());
}

/// TFLite's int8 `MEAN` over the rows and columns of an NHWC input
/// `[B, H, W, C]` (TFLite Micro's kernel, bit for bit:
/// `shapecheck_tflite::mean_int8`), into `[B, C]` or, with `keep_dims`,
/// `[B, 1, 1, C]`: the output's type says which ([`MeanOutput`];
/// another shape is `mean/output`). `mean` holds the parameters from the
/// scales and zero points and `count = H · W`
/// (`shapecheck_tflite::mean_params`), that count checked when it was
/// built ([`MeanInt8`](super::MeanInt8)): it cannot fail.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{mean_int8, MeanInt8};
/// let mean = MeanInt8::<Dim<2>, Dim<2>>::new(shapecheck::tflite::mean_params(0.1, -1, 0.1, -1, 4)?)?;
/// let x = Tensor::<i8, shape![1, 2, 2, 2]>::from_array([[[[1, -4], [2, -5]], [[3, -5], [4, -5]]]]);
/// let y: Tensor<i8, shape![1, 2]> = mean_int8(&x, &mean);
/// assert_eq!(y.as_slice(), &[3, -5]);
/// let kept: Tensor<i8, shape![1, 1, 1, 2]> = mean_int8(&x, &mean);
/// assert_eq!(kept.as_slice(), &[3, -5]);
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
pub fn mean_int8<B, H, W, C, Y, S>(
    input: &Tensor<i8, (B, H, W, C), S>,
    mean: &MeanInt8<H, W>,
) -> Tensor<i8, Y>
where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    Y: MeanOutput<B, C>,
    S: Storage<i8>,
{
    let mut output = Tensor::<i8, Y>::zeros();
    mean_int8_into(input, mean, &mut output);
    output
}

/// [`mean_int8`] writing into `output`, a caller's tensor of shape `[B, C]`
/// or `[B, 1, 1, C]` in any storage. Every element of `output` is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{mean_int8_into, MeanInt8};
/// let mean = MeanInt8::<One, Dim<3>>::new(shapecheck::tflite::mean_params(0.5, 0, 0.25, 0, 3)?)?;
/// let x = Tensor::<i8, shape![1, 1, 3, 1]>::from_array([[[[1], [2], [4]]]]);
/// let mut y = Tensor::<i8, shape![1, 1, 1, 1]>::zeros();
/// mean_int8_into(&x, &mean, &mut y);
/// assert_eq!(y.as_slice(), &[5]); // 7/3 · 2 = 4.67 → 5
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
pub fn mean_int8_into<B, H, W, C, Y, S, BO>(
    input: &Tensor<i8, (B, H, W, C), S>,
    mean: &MeanInt8<H, W>,
    output: &mut Tensor<i8, Y, BO>,
) where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    Y: MeanOutput<B, C>,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    kernels::mean_int8_prechecked(
        input.as_slice(),
        C::SIZE,
        mean.params(),
        output.as_mut_slice(),
    );
}

/// TFLite's int8 `ADD` with numpy broadcasting (TFLite Micro's kernel,
/// bit for bit: `shapecheck_tflite::add_int8`): each input rescaled to a
/// common scale, summed, requantized, clamped; `params` from the scales,
/// zero points and fused activation (`shapecheck_tflite::add_params`).
/// The output's shape is the numpy broadcast of the two inputs' (the
/// elementwise ops' rule, through [`AddShapes`]); two shapes that do not
/// broadcast are one compile error naming both (`add/broadcast`), and so
/// is a shape of more than 6 dims, TFLite Micro's limit (`add/rank`,
/// [`AddRank`], when the call is built). It cannot fail: the parameters
/// were checked when `add` was built ([`AddInt8`](super::AddInt8)).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{add_int8, AddInt8};
/// // the same scale in and out: a plain sum; a row broadcast over two
/// let add = AddInt8::new(shapecheck::tflite::add_params(0.5, 0, 0.5, 0, 0.5, 0, -128, 127)?)?;
/// let y = add_int8(&tensor![[1i8, 2, 3], [4, 5, 6]], &tensor![10i8, 20, 30], &add);
/// assert_eq!(y.as_slice(), &[11, 22, 33, 14, 25, 36]);
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
///
/// A residual `ADD` of two shapes that do not broadcast does not build:
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{add_int8, AddInt8};
/// let add = AddInt8::new(shapecheck::tflite::add_params(0.5, 0, 0.5, 0, 0.5, 0, -128, 127).unwrap()).unwrap();
/// let a = Tensor::<i8, shape![1, 8, 8, 16]>::full(0);
/// let b = Tensor::<i8, shape![1, 8, 8, 32]>::full(0);
/// let _ = add_int8(&a, &b, &add);
/// ```
pub fn add_int8<SA, SB, BA, BB>(
    a: &Tensor<i8, SA, BA>,
    b: &Tensor<i8, SB, BB>,
    add: &AddInt8,
) -> Tensor<i8, <SA as AddShapes<SB>>::Sum>
where
    SA: AddShapes<SB>,
    SB: StaticShape,
    BA: Storage<i8>,
    BB: Storage<i8>,
{
    let mut output = Tensor::<i8, <SA as AddShapes<SB>>::Sum>::zeros();
    add_int8_into(a, b, add, &mut output);
    output
}

/// [`add_int8`] writing into `output`, a caller's tensor of the broadcast
/// shape in any storage. Every element of `output` is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{add_int8_into, AddInt8};
/// let add = AddInt8::new(shapecheck::tflite::add_params(0.5, 0, 0.5, 0, 1.0, 0, 0, 127)?)?; // ReLU
/// let mut y = Tensor::<i8, shape![2, 2]>::zeros();
/// add_int8_into(&tensor![[2i8], [-8]], &tensor![[4i8, 6]], &add, &mut y);
/// assert_eq!(y.as_slice(), &[3, 4, 0, 0]); // (2 + 4) · 0.5, (2 + 6) · 0.5, clamped at 0
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
pub fn add_int8_into<SA, SB, BA, BB, BO>(
    a: &Tensor<i8, SA, BA>,
    b: &Tensor<i8, SB, BB>,
    add: &AddInt8,
    output: &mut Tensor<i8, <SA as AddShapes<SB>>::Sum, BO>,
) where
    SA: AddShapes<SB>,
    SB: StaticShape,
    BA: Storage<i8>,
    BB: Storage<i8>,
    BO: StorageMut<i8>,
{
    let () = AddRank::<SA, SB>::CHECK;
    kernels::add_int8_prechecked(
        a.as_slice(),
        SA::DIMS,
        b.as_slice(),
        SB::DIMS,
        add.params(),
        output.as_mut_slice(),
    );
}

/// [`add_int8`] of two tensors of one shape, its output written over one
/// of them (`shapecheck_tflite::add_int8_in_place`): `target` holds input
/// 1 or input 2, as `over` says, and `other` the other input. Each output
/// element is computed from the two elements at its index only, so the
/// result is bit for bit [`add_int8_into`]'s. `model!` writes a residual
/// `ADD` so when its input is not read after it (`ram = N`): the two are
/// one tensor of the arena. It cannot fail: the shapes are one type and
/// the parameters were checked when `add` was built.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{add_int8_in_place_into, add_int8_into, AddInt8};
/// use shapecheck::tflite::AddOver;
/// let add = AddInt8::new(shapecheck::tflite::add_params(0.5, 1, 0.25, -2, 0.5, 3, -128, 127)?)?;
/// let (a, b) = (tensor![[10i8, -20], [30, 127]], tensor![[1i8, 2], [-3, 4]]);
/// let mut apart = Tensor::<i8, shape![2, 2]>::zeros();
/// add_int8_into(&a, &b, &add, &mut apart);
/// let mut over = b.clone();
/// add_int8_in_place_into(&mut over, &a, AddOver::Input2, &add);
/// assert_eq!(over.as_slice(), apart.as_slice());
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
pub fn add_int8_in_place_into<X, BT, BO>(
    target: &mut Tensor<i8, X, BT>,
    other: &Tensor<i8, X, BO>,
    over: kernels::AddOver,
    add: &AddInt8,
) where
    X: FixedShape,
    BT: StorageMut<i8>,
    BO: Storage<i8>,
{
    kernels::add_int8_in_place_prechecked(
        target.as_mut_slice(),
        other.as_slice(),
        over,
        add.params(),
    );
}

/// TFLite's `PAD` on an int8 NHWC tensor (`shapecheck_tflite::pad`): the
/// input placed inside an output of `value`s, `N0`, `H0`, `W0`, `C0`
/// before each dim and `N1`, `H1`, `W1`, `C1` after. The output's shape is
/// the caller's, each dim checked to be its input's padded when the call
/// is built ([`PadCheck`], `pad/output-size`). It cannot fail: the
/// kernel's errors are lengths and ranks, which the types fix; so it
/// calls the kernel without its checks (`shapecheck_tflite::pad_prechecked`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{pad_int8, Paddings};
/// let x = Tensor::<i8, shape![1, 1, 2, 1]>::from_array([[[[1], [2]]]]);
/// let y: Tensor<i8, shape![1, 2, 3, 1]> = pad_int8(&x, Paddings::<0, 0, 1, 0, 0, 1, 0, 0>, -128);
/// assert_eq!(y.as_slice(), &[-128, -128, -128, 1, 2, -128]);
/// ```
#[allow(clippy::type_complexity)]
pub fn pad_int8<
    B,
    H,
    W,
    C,
    OB,
    OH,
    OW,
    OC,
    S,
    const N0: usize,
    const N1: usize,
    const H0: usize,
    const H1: usize,
    const W0: usize,
    const W1: usize,
    const C0: usize,
    const C1: usize,
>(
    input: &Tensor<i8, (B, H, W, C), S>,
    paddings: Paddings<N0, N1, H0, H1, W0, W1, C0, C1>,
    value: i8,
) -> Tensor<i8, (OB, OH, OW, OC)>
where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OB: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    OC: StaticDim,
    S: Storage<i8>,
{
    let () = PadCheck::<(B, H, W, C), (OB, OH, OW, OC), N0, N1, H0, H1, W0, W1, C0, C1>::CHECK;
    let mut output = Tensor::<i8, (OB, OH, OW, OC)>::zeros();
    pad_run(input, paddings, value, &mut output);
    output
}

/// [`pad_int8`] writing into `output`, a caller's tensor in any storage
/// whose type gives the output's shape (checked as there). Every element
/// of `output` is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{pad_int8_into, Paddings};
/// let x = Tensor::<i8, shape![1, 1, 1, 2]>::from_array([[[[5, 6]]]]);
/// let mut y = Tensor::<i8, shape![1, 1, 1, 4]>::zeros();
/// pad_int8_into(&x, Paddings::<0, 0, 0, 0, 0, 0, 1, 1>, 9, &mut y);
/// assert_eq!(y.as_slice(), &[9, 5, 6, 9]);
/// ```
#[allow(clippy::type_complexity)]
pub fn pad_int8_into<
    B,
    H,
    W,
    C,
    OB,
    OH,
    OW,
    OC,
    S,
    BO,
    const N0: usize,
    const N1: usize,
    const H0: usize,
    const H1: usize,
    const W0: usize,
    const W1: usize,
    const C0: usize,
    const C1: usize,
>(
    input: &Tensor<i8, (B, H, W, C), S>,
    paddings: Paddings<N0, N1, H0, H1, W0, W1, C0, C1>,
    value: i8,
    output: &mut Tensor<i8, (OB, OH, OW, OC), BO>,
) where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OB: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    OC: StaticDim,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let () = PadCheck::<(B, H, W, C), (OB, OH, OW, OC), N0, N1, H0, H1, W0, W1, C0, C1>::CHECK;
    pad_run(input, paddings, value, output)
}

/// [`pad_int8_into`] once its check holds (as [`depthwise_conv_run`]).
#[allow(clippy::type_complexity)]
fn pad_run<
    B,
    H,
    W,
    C,
    OB,
    OH,
    OW,
    OC,
    S,
    BO,
    const N0: usize,
    const N1: usize,
    const H0: usize,
    const H1: usize,
    const W0: usize,
    const W1: usize,
    const C0: usize,
    const C1: usize,
>(
    input: &Tensor<i8, (B, H, W, C), S>,
    paddings: Paddings<N0, N1, H0, H1, W0, W1, C0, C1>,
    value: i8,
    output: &mut Tensor<i8, (OB, OH, OW, OC), BO>,
) where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OB: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    OC: StaticDim,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let Paddings = paddings;
    kernels::pad_prechecked(
        input.as_slice(),
        <(B, H, W, C) as FixedShape>::DIMS,
        &[(N0, N1), (H0, H1), (W0, W1), (C0, C1)],
        value,
        output.as_mut_slice(),
    );
}

/// TFLite's int8 `LOGISTIC` (TFLite Micro's fixed point, bit for bit:
/// `shapecheck_tflite::logistic_int8`), element by element, the output at
/// scale 1/256 and zero point −128; `logistic` holds the parameters from
/// the input's scale and zero point (`shapecheck_tflite::logistic_params`),
/// checked when it was built ([`LogisticInt8`](super::LogisticInt8)): it
/// cannot fail.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{logistic_int8, LogisticInt8};
/// let logistic = LogisticInt8::new(shapecheck::tflite::logistic_params(0.1, 0, 1.0 / 256.0, -128)?)?;
/// let y = logistic_int8(&tensor![-100i8, 0, 100], &logistic);
/// assert_eq!(y.as_slice()[1], 0); // σ(0) = 0.5 → 128 − 128
/// assert!(y.as_slice()[0] < -120 && y.as_slice()[2] > 120);
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
pub fn logistic_int8<X, S>(input: &Tensor<i8, X, S>, logistic: &LogisticInt8) -> Tensor<i8, X>
where
    X: FixedShape,
    S: Storage<i8>,
{
    let mut output = Tensor::<i8, X>::zeros();
    logistic_int8_into(input, logistic, &mut output);
    output
}

/// [`logistic_int8`] writing into `output`, a caller's tensor of the same
/// shape in any storage. Every element of `output` is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{logistic_int8_into, LogisticInt8};
/// let logistic = LogisticInt8::new(shapecheck::tflite::logistic_params(0.1, 0, 1.0 / 256.0, -128)?)?;
/// let mut y = Tensor::<i8, shape![1, 1]>::full(7);
/// logistic_int8_into(&tensor![[0i8]], &logistic, &mut y);
/// assert_eq!(y.as_slice(), &[0]);
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
pub fn logistic_int8_into<X, S, BO>(
    input: &Tensor<i8, X, S>,
    logistic: &LogisticInt8,
    output: &mut Tensor<i8, X, BO>,
) where
    X: FixedShape,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    kernels::logistic_int8_prechecked(input.as_slice(), logistic.params(), output.as_mut_slice());
}

/// TFLite's `QUANTIZE` from f32 to int8, element by element
/// (`shapecheck_tflite::quantize_value`, the rule of TFLite's kernel,
/// `shapecheck_tflite::quantize_int8`): `round(x / scale) + zero_point`,
/// half away from zero, clamped to int8. It cannot fail: the kernel's only
/// error is a length, which the types fix.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::quantize_int8;
/// let y = quantize_int8(&tensor![0.25f32, -1.0, 100.0], 0.5, 1);
/// assert_eq!(y.as_slice(), &[2, -1, 127]); // 0.5 → 1, + 1
/// ```
pub fn quantize_int8<X, S>(input: &Tensor<f32, X, S>, scale: f32, zero_point: i32) -> Tensor<i8, X>
where
    X: FixedShape,
    S: Storage<f32>,
{
    let mut output = Tensor::<i8, X>::zeros();
    quantize_int8_into(input, scale, zero_point, &mut output);
    output
}

/// [`quantize_int8`] writing into `output`, a caller's tensor of the same
/// shape in any storage. Every element of `output` is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::quantize_int8_into;
/// let mut y = Tensor::<i8, shape![2]>::zeros();
/// quantize_int8_into(&tensor![1.0f32, -1.0], 0.1, 0, &mut y);
/// assert_eq!(y.as_slice(), &[10, -10]);
/// ```
pub fn quantize_int8_into<X, S, BO>(
    input: &Tensor<f32, X, S>,
    scale: f32,
    zero_point: i32,
    output: &mut Tensor<i8, X, BO>,
) where
    X: FixedShape,
    S: Storage<f32>,
    BO: StorageMut<i8>,
{
    for (y, &x) in output.as_mut_slice().iter_mut().zip(input.as_slice()) {
        *y = kernels::quantize_value(x, scale, zero_point);
    }
}

/// TFLite's `DEQUANTIZE` from int8 to f32, element by element
/// (`shapecheck_tflite::dequantize_value`, the rule of TFLite's kernel,
/// `shapecheck_tflite::dequantize_int8`): `scale · (q − zero_point)`. It
/// cannot fail: the kernel's only error is a length, which the types fix.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::dequantize_int8;
/// let y = dequantize_int8(&tensor![[-128i8, 0, 127]], 0.5, -128);
/// assert_eq!(y.as_slice(), &[0.0, 64.0, 127.5]);
/// ```
pub fn dequantize_int8<X, S>(
    input: &Tensor<i8, X, S>,
    scale: f32,
    zero_point: i32,
) -> Tensor<f32, X>
where
    X: FixedShape,
    S: Storage<i8>,
{
    let mut output = Tensor::<f32, X>::zeros();
    dequantize_int8_into(input, scale, zero_point, &mut output);
    output
}

/// [`dequantize_int8`] writing into `output`, a caller's tensor of the
/// same shape in any storage. Every element of `output` is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::dequantize_int8_into;
/// let mut y = Tensor::<f32, shape![2]>::zeros();
/// dequantize_int8_into(&tensor![3i8, -3], 0.25, 1, &mut y);
/// assert_eq!(y.as_slice(), &[0.5, -1.0]);
/// ```
pub fn dequantize_int8_into<X, S, BO>(
    input: &Tensor<i8, X, S>,
    scale: f32,
    zero_point: i32,
    output: &mut Tensor<f32, X, BO>,
) where
    X: FixedShape,
    S: Storage<i8>,
    BO: StorageMut<f32>,
{
    for (y, &q) in output.as_mut_slice().iter_mut().zip(input.as_slice()) {
        *y = kernels::dequantize_value(q, scale, zero_point);
    }
}

/// Two activation buffers of `T`, `A` and `B` elements, which the layers
/// of a chain write into in turn (`model!`'s `predict` holds one): the
/// first layer writes `a` ([`to_a`](Self::to_a)), the second reads `a`
/// and writes `b` ([`a_to_b`](Self::a_to_b)), the third reads `b` and
/// writes `a` ([`b_to_a`](Self::b_to_a)), and so on; `A` is the largest
/// output of the layers that write `a`, `B` of those that write `b`. Its
/// size is exactly its arrays' ([`BYTES`](Self::BYTES)): nothing else.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{fully_connected_f32_into, FullyConnectedF32, PingPong};
///
/// let widen: FullyConnectedF32<'_, Dim<3>, Dim<2>> = FullyConnectedF32 {
///     weights: &[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
///     bias: None,
///     output_min: f32::MIN,
///     output_max: f32::MAX,
/// };
/// let sum: FullyConnectedF32<'_, One, Dim<3>> = FullyConnectedF32 {
///     weights: &[[1.0, 1.0, 1.0]],
///     bias: None,
///     output_min: f32::MIN,
///     output_max: f32::MAX,
/// };
/// let x = tensor![[1.0f32, 2.0]];
/// let mut buffers = PingPong::<f32, 3, 1>::new(0.0);
/// // the first layer writes [1, 3] into `a`
/// let (mut h, in_a) = buffers.to_a::<shape![1, 3]>();
/// fully_connected_f32_into(&x, &widen, &mut h);
/// // the second reads `a` as what was written there and writes [1, 1] into `b`
/// let (h, mut y, in_b) = buffers.a_to_b::<_, shape![1, 1]>(in_a);
/// fully_connected_f32_into(&h, &sum, &mut y);
/// assert_eq!(buffers.b(in_b).as_slice(), &[6.0]);
/// assert_eq!(PingPong::<f32, 3, 1>::BYTES, 16);
/// ```
///
/// Reading `a` as another shape than the one written there does not build:
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::PingPong;
/// let mut buffers = PingPong::<i8, 16, 16>::new(0);
/// let (_, in_a) = buffers.to_a::<shape![1, 16]>();
/// let _: Tensor<i8, shape![1, 8], &[i8]> = buffers.a(in_a);
/// ```
///
/// Nor a shape larger than the buffer (`ping_pong/capacity`, when the
/// call is built):
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::PingPong;
/// let mut buffers = PingPong::<i8, 16, 16>::new(0);
/// let _ = buffers.to_a::<shape![1, 17]>();
/// ```
pub struct PingPong<T: Copy, const A: usize, const B: usize> {
    a: [T; A],
    b: [T; B],
}

/// A proof that buffer `a` of a [`PingPong`] holds a tensor of shape `S`:
/// returned by the call that hands out `a` to be written, taken by the
/// call that reads it. Not `Clone`: one write, one read.
#[must_use = "the proof is what reads the buffer back"]
pub struct InA<S>(PhantomData<S>);

/// A proof that buffer `b` of a [`PingPong`] holds a tensor of shape `S`
/// (as [`InA`]).
#[must_use = "the proof is what reads the buffer back"]
pub struct InB<S>(PhantomData<S>);

/// The first `S::NUMEL` elements of `buf` as a tensor of shape `S`
/// ([`BufferFits`] has checked that there are that many).
fn view<T: Copy, S: FixedShape, const N: usize>(buf: &[T; N]) -> Tensor<T, S, &[T]> {
    let () = BufferFits::<S, N>::CHECK;
    let (used, _) = buf.split_at(S::NUMEL.min(N));
    Tensor::from_parts_unchecked(S::default(), used)
}

/// [`view`], mutably.
fn view_mut<T: Copy, S: FixedShape, const N: usize>(buf: &mut [T; N]) -> Tensor<T, S, &mut [T]> {
    let () = BufferFits::<S, N>::CHECK;
    let (used, _) = buf.split_at_mut(S::NUMEL.min(N));
    Tensor::from_parts_unchecked(S::default(), used)
}

impl<T: Copy, const A: usize, const B: usize> PingPong<T, A, B> {
    /// The bytes the two buffers hold, `(A + B) · size_of::<T>()`: the
    /// size of a `PingPong`, to the byte.
    ///
    /// ```
    /// use shapecheck::ops::layers::PingPong;
    /// assert_eq!(PingPong::<i8, 4000, 4>::BYTES, 4004);
    /// assert_eq!(PingPong::<f32, 16, 16>::BYTES, core::mem::size_of::<PingPong<f32, 16, 16>>());
    /// ```
    pub const BYTES: usize = core::mem::size_of::<Self>();

    /// Both buffers, every element `fill`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::PingPong;
    /// let mut buffers = PingPong::<i8, 4, 2>::new(7);
    /// let (a, _) = buffers.to_a::<shape![2, 2]>();
    /// assert_eq!(a.as_slice(), &[7; 4]);
    /// ```
    #[inline]
    pub fn new(fill: T) -> Self {
        PingPong {
            a: [fill; A],
            b: [fill; B],
        }
    }

    /// Buffer `a` as a tensor of shape `Y` to write (the first layer of a
    /// chain, whose input is not in a buffer), and the proof that it holds
    /// one. `Y` larger than `A` elements does not build.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::PingPong;
    /// let mut buffers = PingPong::<i8, 4, 0>::new(0);
    /// let (mut y, in_a) = buffers.to_a::<shape![3]>();
    /// y.as_mut_slice().copy_from_slice(&[1, 2, 3]);
    /// assert_eq!(buffers.a(in_a).as_slice(), &[1, 2, 3]);
    /// ```
    #[inline]
    pub fn to_a<Y: FixedShape>(&mut self) -> (Tensor<T, Y, &mut [T]>, InA<Y>) {
        (view_mut(&mut self.a), InA(PhantomData))
    }

    /// Buffer `b` as a tensor of shape `Y` to write, and the proof (as
    /// [`to_a`](Self::to_a)).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::PingPong;
    /// let mut buffers = PingPong::<i8, 0, 2>::new(0);
    /// let (mut y, in_b) = buffers.to_b::<shape![2]>();
    /// y.as_mut_slice()[1] = 5;
    /// assert_eq!(buffers.b(in_b).as_slice(), &[0, 5]);
    /// ```
    #[inline]
    pub fn to_b<Y: FixedShape>(&mut self) -> (Tensor<T, Y, &mut [T]>, InB<Y>) {
        (view_mut(&mut self.b), InB(PhantomData))
    }

    /// Buffer `a` read as the `X` it holds, and buffer `b` as a tensor of
    /// shape `Y` to write, with the proof that it then holds one.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::PingPong;
    /// let mut buffers = PingPong::<i8, 2, 2>::new(0);
    /// let (mut x, in_a) = buffers.to_a::<shape![2]>();
    /// x.as_mut_slice().copy_from_slice(&[3, 4]);
    /// let (x, mut y, in_b) = buffers.a_to_b::<_, shape![2]>(in_a);
    /// y.as_mut_slice().copy_from_slice(x.as_slice());
    /// assert_eq!(buffers.b(in_b).as_slice(), &[3, 4]);
    /// ```
    #[inline]
    #[allow(clippy::type_complexity)]
    pub fn a_to_b<X: FixedShape, Y: FixedShape>(
        &mut self,
        _holds: InA<X>,
    ) -> (Tensor<T, X, &[T]>, Tensor<T, Y, &mut [T]>, InB<Y>) {
        (view(&self.a), view_mut(&mut self.b), InB(PhantomData))
    }

    /// Buffer `b` read as the `X` it holds, and buffer `a` as a tensor of
    /// shape `Y` to write, with the proof that it then holds one.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::PingPong;
    /// let mut buffers = PingPong::<i8, 1, 1>::new(0);
    /// let (mut x, in_b) = buffers.to_b::<shape![1]>();
    /// x.as_mut_slice()[0] = 9;
    /// let (x, mut y, in_a) = buffers.b_to_a::<_, shape![1]>(in_b);
    /// y.as_mut_slice()[0] = x.as_slice()[0] + 1;
    /// assert_eq!(buffers.a(in_a).as_slice(), &[10]);
    /// ```
    #[inline]
    #[allow(clippy::type_complexity)]
    pub fn b_to_a<X: FixedShape, Y: FixedShape>(
        &mut self,
        _holds: InB<X>,
    ) -> (Tensor<T, X, &[T]>, Tensor<T, Y, &mut [T]>, InA<Y>) {
        (view(&self.b), view_mut(&mut self.a), InA(PhantomData))
    }

    /// Buffer `a` read as the `X` it holds (the last layer's input, which
    /// writes the model's output elsewhere).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::PingPong;
    /// let mut buffers = PingPong::<i8, 2, 0>::new(1);
    /// let (_, in_a) = buffers.to_a::<shape![1, 2]>();
    /// let x: Tensor<i8, shape![1, 2], &[i8]> = buffers.a(in_a);
    /// assert_eq!(x.as_slice(), &[1, 1]);
    /// ```
    #[inline]
    pub fn a<X: FixedShape>(&self, _holds: InA<X>) -> Tensor<T, X, &[T]> {
        view(&self.a)
    }

    /// Buffer `b` read as the `X` it holds (as [`a`](Self::a)).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::PingPong;
    /// let mut buffers = PingPong::<i8, 0, 1>::new(2);
    /// let (_, in_b) = buffers.to_b::<shape![1]>();
    /// assert_eq!(buffers.b(in_b).as_slice(), &[2]);
    /// ```
    #[inline]
    pub fn b<X: FixedShape>(&self, _holds: InB<X>) -> Tensor<T, X, &[T]> {
        view(&self.b)
    }
}

/// One activation buffer of `N` elements of `T`, holding a model's
/// tensors at offsets its planner chose ([`model!`](crate::model)'s
/// `predict` holds one): each call hands out views at offsets given as
/// constants, checked when the call is built to lie inside the buffer
/// (`arena/capacity`, naming the shape, the offset and `N`) and, for a call
/// that hands out a read view and a write view, not to overlap
/// (`arena/overlap`, naming both ranges). A layer reads its input where the
/// layer before wrote it and writes its output where no tensor still to
/// be read lies. Its size is exactly its array's ([`BYTES`](Self::BYTES)).
///
/// Each [`model!`](crate::model) module's `Arena` (`sine::Arena`) is this
/// type, with the model's element type and `N`. The interpreter's
/// [`tflite::Arena`](crate::tflite::Arena) is another type: the three
/// borrowed slices (int8, f32, multipliers) a run-time `Interpreter` works
/// in.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{fully_connected_f32_into, Arena, FullyConnectedF32};
///
/// let widen: FullyConnectedF32<'_, Dim<3>, Dim<2>> = FullyConnectedF32 {
///     weights: &[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
///     bias: None,
///     output_min: f32::MIN,
///     output_max: f32::MAX,
/// };
/// let sum: FullyConnectedF32<'_, One, Dim<3>> = FullyConnectedF32 {
///     weights: &[[1.0, 1.0, 1.0]],
///     bias: None,
///     output_min: f32::MIN,
///     output_max: f32::MAX,
/// };
/// let mut arena = Arena::<f32, 4>::new();
/// // the first layer writes [1, 3] at 0
/// fully_connected_f32_into(&tensor![[1.0f32, 2.0]], &widen, &mut arena.write::<shape![1, 3], 0>());
/// // the second reads it there and writes [1, 1] at 3
/// let (h, mut y) = arena.read_write::<shape![1, 3], 0, shape![1, 1], 3>();
/// fully_connected_f32_into(&h, &sum, &mut y);
/// assert_eq!(arena.read::<shape![1, 1], 3>().as_slice(), &[6.0]);
/// assert_eq!(Arena::<f32, 4>::BYTES, 16);
/// ```
///
/// A write over the tensor read does not build (`arena/overlap`, when the
/// call is built):
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::Arena;
/// let mut arena = Arena::<i8, 32>::new();
/// let _ = arena.read_write::<shape![1, 16], 0, shape![1, 16], 8>(); // 0..16 and 8..24
/// ```
///
/// Nor a view past the end (`arena/capacity`):
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::Arena;
/// let arena = Arena::<i8, 32>::new();
/// let _ = arena.read::<shape![1, 16], 17>(); // 17..33
/// ```
pub struct Arena<T: Copy, const N: usize> {
    buf: [T; N],
}

/// `len` elements of `buf` from `at` (the constant checks make the clamps
/// no-ops).
fn part<T>(buf: &[T], at: usize, len: usize) -> &[T] {
    let (_, rest) = buf.split_at(at.min(buf.len()));
    let (used, _) = rest.split_at(len.min(rest.len()));
    used
}

/// `buf` split around a write of `len` elements at `at`: what lies
/// before, the write's elements, what lies after (from `at + len`). An
/// empty write is put at the end, so that it cuts no read in two.
fn around<T>(buf: &mut [T], at: usize, len: usize) -> (&[T], &mut [T], &[T]) {
    let at = if len == 0 {
        buf.len()
    } else {
        at.min(buf.len())
    };
    let (before, rest) = buf.split_at_mut(at);
    let (write, after) = rest.split_at_mut(len.min(rest.len()));
    (before, write, after)
}

/// A read view of `S` at `at` beside a write of `len` elements at `wa`
/// ([`ArenaDisjoint`] has checked that they do not overlap): from the part
/// before the write or the part after it.
fn read_beside<'a, T: Copy, S: FixedShape>(
    (before, after): (&'a [T], &'a [T]),
    at: usize,
    wa: usize,
    len: usize,
) -> Tensor<T, S, &'a [T]> {
    let used = if at.saturating_add(S::NUMEL) <= before.len() {
        part(before, at, S::NUMEL)
    } else {
        part(after, at.saturating_sub(wa.saturating_add(len)), S::NUMEL)
    };
    Tensor::from_parts_unchecked(S::default(), used)
}

/// `buf` split into a read of `x` and writes of `y` and `r` (each
/// `(at, len)`; [`ArenaDisjoint`] has checked that no two overlap, so the
/// clamps below are no-ops): the read from whichever part around the
/// writes holds it.
fn two_writes<T>(
    buf: &mut [T],
    x: (usize, usize),
    y: (usize, usize),
    r: (usize, usize),
) -> (&[T], &mut [T], &mut [T]) {
    let y_first = y.0 <= r.0;
    let (lo, hi) = if y_first { (y, r) } else { (r, y) };
    let (p0, rest) = buf.split_at_mut(lo.0.min(buf.len()));
    let (w_lo, rest) = rest.split_at_mut(lo.1.min(rest.len()));
    let gap = hi.0.saturating_sub(lo.0.saturating_add(lo.1));
    let (p1, rest) = rest.split_at_mut(gap.min(rest.len()));
    let (w_hi, p2) = rest.split_at_mut(hi.1.min(rest.len()));
    let lo_end = lo.0.saturating_add(lo.1);
    let hi_end = hi.0.saturating_add(hi.1);
    let read: &[T] = if x.0.saturating_add(x.1) <= lo.0 {
        part(p0, x.0, x.1)
    } else if x.0 >= hi_end {
        part(p2, x.0 - hi_end, x.1)
    } else {
        part(p1, x.0.saturating_sub(lo_end), x.1)
    };
    if y_first {
        (read, w_lo, w_hi)
    } else {
        (read, w_hi, w_lo)
    }
}

/// An element type whose zero a `const fn` can write: the activation
/// types of TFLite models (`i8`, `i16`, `i32`, `f32`), so that
/// [`Arena::new`] is one spelling for every model's arena. Not a trait
/// users write: hidden, as its four impls are all there are.
#[doc(hidden)]
pub trait ArenaElement: Copy {
    /// The zero, `0` or `0.0`.
    const ZERO: Self;
}

impl ArenaElement for i8 {
    const ZERO: Self = 0;
}

impl ArenaElement for i16 {
    const ZERO: Self = 0;
}

impl ArenaElement for i32 {
    const ZERO: Self = 0;
}

impl ArenaElement for f32 {
    const ZERO: Self = 0.0;
}

impl<T: ArenaElement, const N: usize> Arena<T, N> {
    /// The buffer, every element zero; a `const fn`, so that a firmware
    /// can keep a model's arena in a `static` (a `Mutex` or a cell of its
    /// choosing around it) and call `predict_in`. Every `model!` module's
    /// `Arena` is made so, `sine::Arena::new()`, whatever the model's
    /// ops; [`Arena::filled`] starts every element at another value.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::Arena;
    /// static ARENA: std::sync::Mutex<Arena<i8, 4004>> = std::sync::Mutex::new(Arena::new());
    /// assert_eq!(ARENA.lock().unwrap().read::<shape![4], 4000>().as_slice(), &[0; 4]);
    /// assert_eq!(Arena::<f32, 2>::new().read::<shape![2], 0>().as_slice(), &[0.0; 2]);
    /// ```
    #[inline]
    pub const fn new() -> Self {
        Arena { buf: [T::ZERO; N] }
    }
}

impl<T: ArenaElement, const N: usize> Default for Arena<T, N> {
    /// [`Arena::new`]: the zeros.
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const N: usize> Arena<T, N> {
    /// The bytes the buffer holds, `N · size_of::<T>()`: the size of an
    /// `Arena`, to the byte.
    ///
    /// ```
    /// use shapecheck::ops::layers::Arena;
    /// assert_eq!(Arena::<i8, 4004>::BYTES, 4004);
    /// assert_eq!(Arena::<f32, 16>::BYTES, core::mem::size_of::<Arena<f32, 16>>());
    /// ```
    pub const BYTES: usize = core::mem::size_of::<Self>();

    /// The buffer, every element `fill`; a `const fn`. [`Arena::new`]
    /// is the zeros, the spelling of every `model!` module's arena.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::Arena;
    /// let arena = Arena::<i8, 4>::filled(7);
    /// assert_eq!(arena.read::<shape![2, 2], 0>().as_slice(), &[7; 4]);
    /// ```
    #[inline]
    pub const fn filled(fill: T) -> Self {
        Arena { buf: [fill; N] }
    }

    /// The `X` at offset `XA`, to read. `XA + X::NUMEL > N` does not build
    /// (`arena/capacity`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::Arena;
    /// let mut arena = Arena::<i8, 6>::new();
    /// arena.write::<shape![3], 3>().as_mut_slice().copy_from_slice(&[1, 2, 3]);
    /// assert_eq!(arena.read::<shape![1, 2], 4>().as_slice(), &[2, 3]);
    /// ```
    #[inline]
    pub fn read<X: FixedShape, const XA: usize>(&self) -> Tensor<T, X, &[T]> {
        let () = ArenaFits::<X, XA, N>::CHECK;
        Tensor::from_parts_unchecked(X::default(), part(&self.buf, XA, X::NUMEL))
    }

    /// The `Y` at offset `YA`, to write. `YA + Y::NUMEL > N` does not
    /// build (`arena/capacity`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::Arena;
    /// let mut arena = Arena::<i8, 4>::new();
    /// arena.write::<shape![2], 1>().as_mut_slice().copy_from_slice(&[5, 6]);
    /// assert_eq!(arena.read::<shape![4], 0>().as_slice(), &[0, 5, 6, 0]);
    /// ```
    #[inline]
    pub fn write<Y: FixedShape, const YA: usize>(&mut self) -> Tensor<T, Y, &mut [T]> {
        let () = ArenaFits::<Y, YA, N>::CHECK;
        let (_, used, _) = around(&mut self.buf, YA, Y::NUMEL);
        Tensor::from_parts_unchecked(Y::default(), used)
    }

    /// The `X` at offset `XA` to read and the `Y` at `YA` to write: a
    /// layer's input and output. Each must fit (`arena/capacity`) and the
    /// two must not overlap (`arena/overlap`), or the call does not build.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::Arena;
    /// let mut arena = Arena::<i8, 5>::new();
    /// arena.write::<shape![2], 3>().as_mut_slice().copy_from_slice(&[3, 4]);
    /// let (x, mut y) = arena.read_write::<shape![2], 3, shape![1, 2], 0>();
    /// y.as_mut_slice().copy_from_slice(x.as_slice());
    /// assert_eq!(arena.read::<shape![5], 0>().as_slice(), &[3, 4, 0, 3, 4]);
    /// ```
    #[inline]
    #[allow(clippy::type_complexity)]
    pub fn read_write<X: FixedShape, const XA: usize, Y: FixedShape, const YA: usize>(
        &mut self,
    ) -> (Tensor<T, X, &[T]>, Tensor<T, Y, &mut [T]>) {
        let () = ArenaFits::<X, XA, N>::CHECK;
        let () = ArenaFits::<Y, YA, N>::CHECK;
        let () = ArenaDisjoint::<X, XA, Y, YA>::CHECK;
        let (before, write, after) = around(&mut self.buf, YA, Y::NUMEL);
        (
            read_beside((before, after), XA, YA, Y::NUMEL),
            Tensor::from_parts_unchecked(Y::default(), write),
        )
    }

    /// Two tensors to read, `X1` at `A1` and `X2` at `A2` (an `ADD`'s
    /// operands; they may overlap, even be one tensor), and the `Y` at
    /// `YA` to write, which must overlap neither (`arena/overlap`); each
    /// must fit (`arena/capacity`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::Arena;
    /// let mut arena = Arena::<i8, 6>::new();
    /// arena.write::<shape![4], 0>().as_mut_slice().copy_from_slice(&[1, 2, 3, 4]);
    /// let (a, b, mut y) = arena.read2_write::<shape![2], 0, shape![2], 1, shape![2], 4>();
    /// for ((y, a), b) in y.as_mut_slice().iter_mut().zip(a.as_slice()).zip(b.as_slice()) {
    ///     *y = a + b;
    /// }
    /// assert_eq!(arena.read::<shape![2], 4>().as_slice(), &[3, 5]);
    /// ```
    #[inline]
    #[allow(clippy::type_complexity)]
    pub fn read2_write<
        X1: FixedShape,
        const A1: usize,
        X2: FixedShape,
        const A2: usize,
        Y: FixedShape,
        const YA: usize,
    >(
        &mut self,
    ) -> (
        Tensor<T, X1, &[T]>,
        Tensor<T, X2, &[T]>,
        Tensor<T, Y, &mut [T]>,
    ) {
        let () = ArenaFits::<X1, A1, N>::CHECK;
        let () = ArenaFits::<X2, A2, N>::CHECK;
        let () = ArenaFits::<Y, YA, N>::CHECK;
        let () = ArenaDisjoint::<X1, A1, Y, YA>::CHECK;
        let () = ArenaDisjoint::<X2, A2, Y, YA>::CHECK;
        let (before, write, after) = around(&mut self.buf, YA, Y::NUMEL);
        (
            read_beside((before, after), A1, YA, Y::NUMEL),
            read_beside((before, after), A2, YA, Y::NUMEL),
            Tensor::from_parts_unchecked(Y::default(), write),
        )
    }

    /// A streamed run's views (`ops::layers::stream`): the `X` at `XA` to
    /// read (the run's input), the `Y` at `YA` to write (its output) and
    /// the `R` at `RA` to write (its rings, one after another). Each must
    /// fit (`arena/capacity`) and no two may overlap (`arena/overlap`), or
    /// the call does not build.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::Arena;
    /// let mut arena = Arena::<i8, 8>::new();
    /// arena.write::<shape![2], 6>().as_mut_slice().copy_from_slice(&[5, 6]);
    /// let (x, mut y, mut rings) = arena.read_write_rings::<shape![2], 6, shape![2], 0, shape![3], 2>();
    /// rings.as_mut_slice().copy_from_slice(&[1, 1, 1]);
    /// y.as_mut_slice().copy_from_slice(x.as_slice());
    /// assert_eq!(arena.read::<shape![8], 0>().as_slice(), &[5, 6, 1, 1, 1, 0, 5, 6]);
    /// ```
    ///
    /// Rings over the input do not build:
    ///
    /// ```compile_fail
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::Arena;
    /// let mut arena = Arena::<i8, 8>::new();
    /// let _ = arena.read_write_rings::<shape![2], 6, shape![2], 0, shape![3], 4>(); // 4..7 and 6..8
    /// ```
    #[inline]
    #[allow(clippy::type_complexity)]
    pub fn read_write_rings<
        X: FixedShape,
        const XA: usize,
        Y: FixedShape,
        const YA: usize,
        R: FixedShape,
        const RA: usize,
    >(
        &mut self,
    ) -> (
        Tensor<T, X, &[T]>,
        Tensor<T, Y, &mut [T]>,
        Tensor<T, R, &mut [T]>,
    ) {
        let () = ArenaFits::<X, XA, N>::CHECK;
        let () = ArenaFits::<Y, YA, N>::CHECK;
        let () = ArenaFits::<R, RA, N>::CHECK;
        let () = ArenaDisjoint::<X, XA, Y, YA>::CHECK;
        let () = ArenaDisjoint::<X, XA, R, RA>::CHECK;
        let () = ArenaDisjoint::<R, RA, Y, YA>::CHECK;
        let (x, y, r) = two_writes(
            &mut self.buf,
            (XA, X::NUMEL),
            (YA, Y::NUMEL),
            (RA, R::NUMEL),
        );
        (
            Tensor::from_parts_unchecked(X::default(), x),
            Tensor::from_parts_unchecked(Y::default(), y),
            Tensor::from_parts_unchecked(R::default(), r),
        )
    }

    /// [`Arena::read_write_rings`] for a run whose input is the caller's
    /// (or a layer written over its own input, `model!`'s
    /// `InPlaceLayer`s: its tensor and its scratch): the `Y` at `YA` and
    /// the `R` at `RA` to write, each fitting (`arena/capacity`), apart
    /// (`arena/overlap`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::layers::Arena;
    /// let mut arena = Arena::<i8, 4>::new();
    /// let (mut y, mut rings) = arena.write_rings::<shape![2], 2, shape![2], 0>();
    /// y.as_mut_slice().copy_from_slice(&[3, 4]);
    /// rings.as_mut_slice().copy_from_slice(&[1, 2]);
    /// assert_eq!(arena.read::<shape![4], 0>().as_slice(), &[1, 2, 3, 4]);
    /// ```
    #[inline]
    #[allow(clippy::type_complexity)]
    pub fn write_rings<Y: FixedShape, const YA: usize, R: FixedShape, const RA: usize>(
        &mut self,
    ) -> (Tensor<T, Y, &mut [T]>, Tensor<T, R, &mut [T]>) {
        let () = ArenaFits::<Y, YA, N>::CHECK;
        let () = ArenaFits::<R, RA, N>::CHECK;
        let () = ArenaDisjoint::<R, RA, Y, YA>::CHECK;
        let (_, y, r) = two_writes(&mut self.buf, (0, 0), (YA, Y::NUMEL), (RA, R::NUMEL));
        (
            Tensor::from_parts_unchecked(Y::default(), y),
            Tensor::from_parts_unchecked(R::default(), r),
        )
    }
}

/// TFLite's `CONCATENATION` of two int8 tensors along `axis` (negative
/// from the end), as Keras's `Concatenate` exports it (Inception-style
/// branches, U-Net skips): for each index before the axis, `a`'s block,
/// then `b`'s (`shapecheck_tflite::concatenation`; TFLite requires both
/// inputs quantized as the output, so the values are copied). The
/// output's shape is the caller's, checked when the call is built: the
/// same rank, the dims off the axis equal, the axis's the sum
/// ([`ConcatenationCheck`], `concatenation/output`). It cannot fail: the
/// kernel's errors are shapes and lengths, which the types fix; so it
/// calls the kernel without its checks
/// (`shapecheck_tflite::concatenation_prechecked`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::concatenation_int8;
/// let a = Tensor::<i8, shape![2, 1]>::from_array([[1], [2]]);
/// let b = Tensor::<i8, shape![2, 2]>::from_array([[3, 4], [5, 6]]);
/// let y: Tensor<i8, shape![2, 3]> = concatenation_int8(&a, &b, Axis::<-1>);
/// assert_eq!(y.as_slice(), &[1, 3, 4, 2, 5, 6]);
/// ```
///
/// An output that is not the two joined does not build:
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::concatenation_int8;
/// let a = Tensor::<i8, shape![1, 4, 4, 8]>::full(0);
/// let b = Tensor::<i8, shape![1, 4, 4, 8]>::full(0);
/// // concatenation/output: inputs [1, 4, 4, 8] and [1, 4, 4, 8] joined along
/// // axis 3 give [1, 4, 4, 16], not the output [1, 4, 4, 8]: ...
/// let _: Tensor<i8, shape![1, 4, 4, 8]> = concatenation_int8(&a, &b, Axis::<3>);
/// ```
pub fn concatenation_int8<XA, XB, Y, BA, BB, const AXIS: isize>(
    a: &Tensor<i8, XA, BA>,
    b: &Tensor<i8, XB, BB>,
    axis: Axis<AXIS>,
) -> Tensor<i8, Y>
where
    XA: FixedShape,
    XB: FixedShape,
    Y: FixedShape,
    BA: Storage<i8>,
    BB: Storage<i8>,
{
    let () = ConcatenationCheck::<XA, XB, Y, AXIS>::CHECK;
    let mut output = Tensor::<i8, Y>::zeros();
    concatenation_run(a, b, axis, &mut output);
    output
}

/// [`concatenation_int8`] writing into `output`, a caller's tensor in any
/// storage whose type gives the output's shape (checked as there). Every
/// element of `output` is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::concatenation_int8_into;
/// let mut y = Tensor::<i8, shape![3, 2]>::zeros();
/// concatenation_int8_into(&tensor![[1i8, 2]], &tensor![[3i8, 4], [5, 6]], Axis::<0>, &mut y);
/// assert_eq!(y.as_slice(), &[1, 2, 3, 4, 5, 6]);
/// ```
pub fn concatenation_int8_into<XA, XB, Y, BA, BB, BO, const AXIS: isize>(
    a: &Tensor<i8, XA, BA>,
    b: &Tensor<i8, XB, BB>,
    axis: Axis<AXIS>,
    output: &mut Tensor<i8, Y, BO>,
) where
    XA: FixedShape,
    XB: FixedShape,
    Y: FixedShape,
    BA: Storage<i8>,
    BB: Storage<i8>,
    BO: StorageMut<i8>,
{
    let () = ConcatenationCheck::<XA, XB, Y, AXIS>::CHECK;
    concatenation_run(a, b, axis, output)
}

/// [`concatenation_int8_into`] once its check holds.
fn concatenation_run<XA, XB, Y, BA, BB, BO, const AXIS: isize>(
    a: &Tensor<i8, XA, BA>,
    b: &Tensor<i8, XB, BB>,
    _axis: Axis<AXIS>,
    output: &mut Tensor<i8, Y, BO>,
) where
    XA: FixedShape,
    XB: FixedShape,
    Y: FixedShape,
    BA: Storage<i8>,
    BB: Storage<i8>,
    BO: StorageMut<i8>,
{
    // the check ruled out an axis outside [−rank, rank)
    let axis = if AXIS < 0 {
        XA::DIMS.len().saturating_sub(AXIS.unsigned_abs())
    } else {
        AXIS.unsigned_abs()
    };
    kernels::concatenation_prechecked(
        &[a.as_slice(), b.as_slice()],
        &[XA::DIMS, XB::DIMS],
        &kernels::ConcatenationParams { axis },
        output.as_mut_slice(),
    );
}

/// TFLite's int8 `MUL` with numpy broadcasting (TFLite Micro's kernel,
/// bit for bit: `shapecheck_tflite::mul_int8`):
/// `(a − a_zp) · (b − b_zp)` requantized by the multiplier, plus the
/// output zero point, clamped; `params` from the scales, zero points and
/// fused activation (`shapecheck_tflite::mul_params`), checked when
/// `mul` was built ([`MulInt8`](super::MulInt8)). The output's shape is
/// the broadcast of the two inputs' ([`MulShapes`]: two shapes that do
/// not broadcast are one compile error naming both, `mul/broadcast`), of
/// at most 6 dims ([`MulRank`], `mul/rank`, when the call is built).
/// Squeeze-and-excite's `MUL` scales `[b, h, w, c]` by `[b, 1, 1, c]`.
/// It cannot fail; it calls the kernel without its checks
/// (`shapecheck_tflite::mul_int8_prechecked`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{mul_int8, MulInt8};
/// // 0.5 · 0.5 / 0.25 = 1: the product itself; a row broadcast over two
/// let mul = MulInt8::new(shapecheck::tflite::mul_params(0.5, 0, 0.5, 0, 0.25, 0, -128, 127)?)?;
/// let y = mul_int8(&tensor![[1i8, 2], [3, -4]], &tensor![5i8, -6], &mul);
/// assert_eq!(y.as_slice(), &[5, -12, 15, 24]);
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
///
/// Two shapes that do not broadcast do not build:
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{mul_int8, MulInt8};
/// let mul = MulInt8::new(shapecheck::tflite::mul_params(0.5, 0, 0.5, 0, 0.25, 0, -128, 127).unwrap()).unwrap();
/// let x = Tensor::<i8, shape![1, 8, 8, 16]>::full(0);
/// let scale = Tensor::<i8, shape![1, 1, 1, 8]>::full(0);
/// let _ = mul_int8(&x, &scale, &mul);
/// ```
pub fn mul_int8<SA, SB, BA, BB>(
    a: &Tensor<i8, SA, BA>,
    b: &Tensor<i8, SB, BB>,
    mul: &MulInt8,
) -> Tensor<i8, <SA as MulShapes<SB>>::Product>
where
    SA: MulShapes<SB>,
    SB: StaticShape,
    BA: Storage<i8>,
    BB: Storage<i8>,
{
    let mut output = Tensor::<i8, <SA as MulShapes<SB>>::Product>::zeros();
    mul_int8_into(a, b, mul, &mut output);
    output
}

/// [`mul_int8`] writing into `output`, a caller's tensor of the broadcast
/// shape in any storage. Every element of `output` is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{mul_int8_into, MulInt8};
/// let mul = MulInt8::new(shapecheck::tflite::mul_params(0.5, 0, 0.5, 0, 0.25, 0, 0, 127)?)?; // ReLU
/// let mut y = Tensor::<i8, shape![2, 2]>::zeros();
/// mul_int8_into(&tensor![[2i8], [-3]], &tensor![[4i8, 5]], &mul, &mut y);
/// assert_eq!(y.as_slice(), &[8, 10, 0, 0]);
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
pub fn mul_int8_into<SA, SB, BA, BB, BO>(
    a: &Tensor<i8, SA, BA>,
    b: &Tensor<i8, SB, BB>,
    mul: &MulInt8,
    output: &mut Tensor<i8, <SA as MulShapes<SB>>::Product, BO>,
) where
    SA: MulShapes<SB>,
    SB: StaticShape,
    BA: Storage<i8>,
    BB: Storage<i8>,
    BO: StorageMut<i8>,
{
    let () = MulRank::<SA, SB>::CHECK;
    kernels::mul_int8_prechecked(
        a.as_slice(),
        SA::DIMS,
        b.as_slice(),
        SB::DIMS,
        mul.params(),
        output.as_mut_slice(),
    );
}

/// The sizes of a resize of `[B, H, W, C]` to `[_, OH, OW, _]`.
fn resize_dims<B, H, W, C, OH, OW>() -> ResizeDims
where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
{
    ResizeDims {
        batches: B::SIZE,
        input_height: H::SIZE,
        input_width: W::SIZE,
        depth: C::SIZE,
        output_height: OH::SIZE,
        output_width: OW::SIZE,
    }
}

/// TFLite's `RESIZE_NEAREST_NEIGHBOR` on an int8 NHWC tensor (TFLite
/// Micro's reference kernel, `shapecheck_tflite::resize_nearest_neighbor`):
/// each output pixel copies the input pixel nearest its source position,
/// sampled as `resize` says ([`Resize`](super::Resize): `align_corners`,
/// `half_pixel_centers`). The output's rows and columns are the caller's
/// type, any size from 1 to 2^20 − 1 ([`ResizeCheck`], `resize/size`, when
/// the call is built); its batch and channels must be the input's (a
/// compile error naming both shapes, [`ResizeOutput`], `resize/output`).
/// It cannot fail; it calls the kernel without its checks
/// (`shapecheck_tflite::resize_nearest_neighbor_prechecked`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{resize_nearest_int8, Resize};
/// // 2 pixels to 4, half-pixel centres (Keras's): each twice
/// let x = Tensor::<i8, shape![1, 1, 2, 1]>::from_array([[[[3], [7]]]]);
/// let y: Tensor<i8, shape![1, 1, 4, 1]> = resize_nearest_int8(&x, &Resize::new(false, true)?);
/// assert_eq!(y.as_slice(), &[3, 3, 7, 7]);
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
///
/// An output of other channels does not build:
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{resize_nearest_int8, Resize};
/// let x = Tensor::<i8, shape![1, 4, 4, 3]>::full(0);
/// let _: Tensor<i8, shape![1, 8, 8, 6]> = resize_nearest_int8(&x, &Resize::LEGACY);
/// ```
#[allow(clippy::type_complexity)]
pub fn resize_nearest_int8<B, H, W, C, OB, OH, OW, OC, S>(
    input: &Tensor<i8, (B, H, W, C), S>,
    resize: &Resize,
) -> Tensor<i8, (OB, OH, OW, OC)>
where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OB: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    OC: StaticDim,
    (OB, OH, OW, OC): ResizeOutput<(B, H, W, C)>,
    S: Storage<i8>,
{
    let mut output = Tensor::<i8, (OB, OH, OW, OC)>::zeros();
    resize_nearest_int8_into(input, resize, &mut output);
    output
}

/// [`resize_nearest_int8`] writing into `output`, a caller's tensor in
/// any storage whose type gives the output's shape (checked as there).
/// Every element of `output` is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{resize_nearest_int8_into, Resize};
/// let x = Tensor::<i8, shape![1, 2, 1, 1]>::from_array([[[[1]], [[2]]]]);
/// let mut y = Tensor::<i8, shape![1, 4, 1, 1]>::zeros();
/// resize_nearest_int8_into(&x, &Resize::LEGACY, &mut y);
/// assert_eq!(y.as_slice(), &[1, 1, 2, 2]);
/// ```
#[allow(clippy::type_complexity)]
pub fn resize_nearest_int8_into<B, H, W, C, OB, OH, OW, OC, S, BO>(
    input: &Tensor<i8, (B, H, W, C), S>,
    resize: &Resize,
    output: &mut Tensor<i8, (OB, OH, OW, OC), BO>,
) where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OB: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    OC: StaticDim,
    (OB, OH, OW, OC): ResizeOutput<(B, H, W, C)>,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let () = ResizeCheck::<H, W, OH, OW>::CHECK;
    kernels::resize_nearest_neighbor_prechecked(
        input.as_slice(),
        resize_dims::<B, H, W, C, OH, OW>(),
        *resize.params(),
        output.as_mut_slice(),
    );
}

/// TFLite's int8 `RESIZE_BILINEAR` on an NHWC tensor (TFLite Micro's
/// `ResizeBilinearInteger`, `shapecheck_tflite::resize_bilinear_int8`):
/// each output pixel the four input pixels around its source position,
/// weighted in 1/1024 steps, sampled as `resize` says. The shapes are
/// checked as [`resize_nearest_int8`]'s. It cannot fail; it calls the
/// kernel without its checks
/// (`shapecheck_tflite::resize_bilinear_int8_prechecked`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{resize_bilinear_int8, Resize};
/// // 2 pixels to 3, corners aligned: the middle is the mean
/// let x = Tensor::<i8, shape![1, 1, 2, 1]>::from_array([[[[-10], [21]]]]);
/// let y: Tensor<i8, shape![1, 1, 3, 1]> = resize_bilinear_int8(&x, &Resize::new(true, false)?);
/// assert_eq!(y.as_slice(), &[-10, 6, 21]); // 5.5 → 6
/// # Ok::<(), shapecheck::ops::layers::TfliteError>(())
/// ```
#[allow(clippy::type_complexity)]
pub fn resize_bilinear_int8<B, H, W, C, OB, OH, OW, OC, S>(
    input: &Tensor<i8, (B, H, W, C), S>,
    resize: &Resize,
) -> Tensor<i8, (OB, OH, OW, OC)>
where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OB: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    OC: StaticDim,
    (OB, OH, OW, OC): ResizeOutput<(B, H, W, C)>,
    S: Storage<i8>,
{
    let mut output = Tensor::<i8, (OB, OH, OW, OC)>::zeros();
    resize_bilinear_int8_into(input, resize, &mut output);
    output
}

/// [`resize_bilinear_int8`] writing into `output`, a caller's tensor in
/// any storage whose type gives the output's shape (checked as there).
/// Every element of `output` is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{resize_bilinear_int8_into, Resize};
/// let x = Tensor::<i8, shape![1, 1, 2, 1]>::from_array([[[[0], [20]]]]);
/// let mut y = Tensor::<i8, shape![1, 1, 4, 1]>::zeros();
/// resize_bilinear_int8_into(&x, &Resize::LEGACY, &mut y);
/// assert_eq!(y.as_slice(), &[0, 10, 20, 20]);
/// ```
#[allow(clippy::type_complexity)]
pub fn resize_bilinear_int8_into<B, H, W, C, OB, OH, OW, OC, S, BO>(
    input: &Tensor<i8, (B, H, W, C), S>,
    resize: &Resize,
    output: &mut Tensor<i8, (OB, OH, OW, OC), BO>,
) where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OB: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    OC: StaticDim,
    (OB, OH, OW, OC): ResizeOutput<(B, H, W, C)>,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let () = ResizeCheck::<H, W, OH, OW>::CHECK;
    kernels::resize_bilinear_int8_prechecked(
        input.as_slice(),
        resize_dims::<B, H, W, C, OH, OW>(),
        *resize.params(),
        output.as_mut_slice(),
    );
}

/// TFLite's int8 `TRANSPOSE_CONV` (Keras's `Conv2DTranspose`; TFLite
/// Micro's `reference_integer_ops::TransposeConv`, bit for bit:
/// `shapecheck_tflite::transpose_conv_int8`): input pixel `(y, x)` adds
/// `(x − x_zp) · filter` to the output around `(y · stride, x · stride)`,
/// each output's sum plus its bias requantized per channel, plus the
/// output zero point, clamped. The output's shape is the caller's: its
/// batch the input's and its channels the filter's first dim
/// ([`TransposeConvOutput`], `transpose_conv/output`), the input's
/// channels the filter's last ([`TransposeConvChannels`],
/// `transpose_conv/channels`), each one compile error naming the shapes;
/// and its rows and
/// columns ones a convolution of the same filter, strides and padding
/// takes back to the input's ([`TransposeConvCheck`],
/// `transpose_conv/output-size`, when the call is built: `SAME` gives
/// `in · stride`). The padding is the one that convolution would have
/// ([`conv_output`]). It cannot fail; it calls the kernel without its
/// checks (`shapecheck_tflite::transpose_conv_int8_prechecked`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{transpose_conv_int8, ClampInt8, Multipliers, QuantizedMultiplier, Same, TransposeConvInt8};
/// // a 2×2 filter of ones, stride 2, SAME: each pixel becomes a 2×2 block
/// static LAYER: TransposeConvInt8<'static, One, Dim<2>, Dim<2>, One, Same<2, 2>> = TransposeConvInt8 {
///     filter: &[[[[1], [1]], [[1], [1]]]],
///     bias: Some(&[1]),
///     padding: Same,
///     input_zero_point: 0,
///     output_zero_point: 0,
///     multipliers: Multipliers::PerTensor(QuantizedMultiplier::from_parts(1 << 30, 1)), // 1.0
///     clamp: ClampInt8::FULL,
/// };
/// let x = Tensor::<i8, shape![1, 1, 2, 1]>::from_array([[[[3], [5]]]]);
/// let y: Tensor<i8, shape![1, 2, 4, 1]> = transpose_conv_int8(&x, &LAYER);
/// assert_eq!(y.as_slice(), &[4, 4, 6, 6, 4, 4, 6, 6]);
/// ```
///
/// An output size the rule does not give does not build:
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{transpose_conv_int8, ClampInt8, Multipliers, QuantizedMultiplier, Same, TransposeConvInt8};
/// static LAYER: TransposeConvInt8<'static, One, Dim<2>, Dim<2>, One, Same<2, 2>> = TransposeConvInt8 {
///     filter: &[[[[1], [1]], [[1], [1]]]], bias: None, padding: Same,
///     input_zero_point: 0, output_zero_point: 0,
///     multipliers: Multipliers::PerTensor(QuantizedMultiplier::ZERO), clamp: ClampInt8::FULL,
/// };
/// let x = Tensor::<i8, shape![1, 3, 3, 1]>::full(0);
/// // SAME with stride 2 gives 6 × 6, not 3 × 3
/// let _: Tensor<i8, shape![1, 3, 3, 1]> = transpose_conv_int8(&x, &LAYER);
/// ```
#[allow(clippy::type_complexity)]
pub fn transpose_conv_int8<B, H, W, C, OB, OH, OW, OC, O, KH, KW, CI, P, S>(
    input: &Tensor<i8, (B, H, W, C), S>,
    layer: &TransposeConvInt8<'_, O, KH, KW, CI, P>,
) -> Tensor<i8, (OB, OH, OW, OC)>
where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OB: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    OC: StaticDim,
    O: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    CI: StaticDim,
    P: ConvPadding,
    (B, H, W, C): TransposeConvChannels<(O, KH, KW, CI)>,
    (OB, OH, OW, OC): TransposeConvOutput<(B, H, W, C), (O, KH, KW, CI)>,
    S: Storage<i8>,
{
    let () = TransposeConvCheck::<H, W, OH, OW, KH, KW, P>::CHECK;
    let mut output = Tensor::<i8, (OB, OH, OW, OC)>::zeros();
    transpose_conv_run::<B, H, W, C, OB, OH, OW, OC, O, KH, KW, CI, P, S, _>(
        input,
        layer,
        &mut output,
    );
    output
}

/// [`transpose_conv_int8`] writing into `output`, a caller's tensor in
/// any storage whose type gives the output's shape (checked as there).
/// Every element of `output` is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{transpose_conv_int8_into, ClampInt8, Multipliers, QuantizedMultiplier, TransposeConvInt8, Valid};
/// // two output channels: ×1 and ×−1, a 1×1 filter, stride 1
/// let layer: TransposeConvInt8<'_, Dim<2>, One, One, One, Valid<1, 1>> = TransposeConvInt8 {
///     filter: &[[[[1]]], [[[-1]]]],
///     bias: None,
///     padding: Valid,
///     input_zero_point: 0,
///     output_zero_point: 0,
///     multipliers: Multipliers::PerTensor(QuantizedMultiplier::from_parts(1 << 30, 1)),
///     clamp: ClampInt8::FULL,
/// };
/// let mut y = Tensor::<i8, shape![1, 1, 2, 2]>::zeros();
/// transpose_conv_int8_into(&Tensor::<i8, shape![1, 1, 2, 1]>::from_array([[[[7], [9]]]]), &layer, &mut y);
/// assert_eq!(y.as_slice(), &[7, -7, 9, -9]);
/// ```
#[allow(clippy::type_complexity)]
pub fn transpose_conv_int8_into<B, H, W, C, OB, OH, OW, OC, O, KH, KW, CI, P, S, BO>(
    input: &Tensor<i8, (B, H, W, C), S>,
    layer: &TransposeConvInt8<'_, O, KH, KW, CI, P>,
    output: &mut Tensor<i8, (OB, OH, OW, OC), BO>,
) where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OB: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    OC: StaticDim,
    O: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    CI: StaticDim,
    P: ConvPadding,
    (B, H, W, C): TransposeConvChannels<(O, KH, KW, CI)>,
    (OB, OH, OW, OC): TransposeConvOutput<(B, H, W, C), (O, KH, KW, CI)>,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let () = TransposeConvCheck::<H, W, OH, OW, KH, KW, P>::CHECK;
    transpose_conv_run::<B, H, W, C, OB, OH, OW, OC, O, KH, KW, CI, P, S, BO>(input, layer, output)
}

/// [`transpose_conv_int8_into`] once its check holds.
#[allow(clippy::type_complexity)]
fn transpose_conv_run<B, H, W, C, OB, OH, OW, OC, O, KH, KW, CI, P, S, BO>(
    input: &Tensor<i8, (B, H, W, C), S>,
    layer: &TransposeConvInt8<'_, O, KH, KW, CI, P>,
    output: &mut Tensor<i8, (OB, OH, OW, OC), BO>,
) where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OB: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    OC: StaticDim,
    O: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    CI: StaticDim,
    P: ConvPadding,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let dims = TransposeConvDims {
        batches: B::SIZE,
        input_height: H::SIZE,
        input_width: W::SIZE,
        input_depth: C::SIZE,
        filter_height: KH::SIZE,
        filter_width: KW::SIZE,
        output_height: OH::SIZE,
        output_width: OW::SIZE,
        output_depth: O::SIZE,
    };
    // the padding of the convolution from the output back to the input
    let params = TransposeConvParams {
        stride_height: P::STRIDE_H,
        stride_width: P::STRIDE_W,
        pad_top: pad_top::<P, OH, KH>(),
        pad_left: pad_left::<P, OW, KW>(),
        input_zero_point: layer.input_zero_point,
        output_zero_point: layer.output_zero_point,
        multipliers: layer.multipliers.as_slice(),
        output_min: i32::from(layer.clamp.min()),
        output_max: i32::from(layer.clamp.max()),
    };
    let filter = <(O, KH, KW, CI) as FixedShape>::array_as_slice(layer.filter);
    let bias = layer.bias.map(|b| O::arr_as_slice(b));
    kernels::transpose_conv_int8_prechecked(
        input.as_slice(),
        filter,
        bias,
        dims,
        &params,
        output.as_mut_slice(),
    );
}

/// TFLite's `SLICE` of an int8 tensor (Keras's `Cropping1D`/`2D` export
/// as `STRIDED_SLICE` or `SLICE`; `shapecheck_tflite::slice`): the box of
/// the output's shape from `begin` ([`Begin`]: a first element per axis,
/// at most 5 axes). The box is checked when the call is built: the same
/// rank, each `begin + size` within its axis ([`SliceCheck`],
/// `slice/bounds`). It cannot fail; it calls the kernel without its
/// checks (`shapecheck_tflite::slice_prechecked`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{slice_int8, Begin};
/// // row 1, columns 1 and 2 of a [2, 3]
/// let y: Tensor<i8, shape![1, 2]> = slice_int8(&tensor![[1i8, 2, 3], [4, 5, 6]], Begin::<1, 1>);
/// assert_eq!(y.as_slice(), &[5, 6]);
/// ```
///
/// A box past the input does not build:
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{slice_int8, Begin};
/// // slice/bounds: columns 2 to 4 of 3
/// let _: Tensor<i8, shape![1, 2]> = slice_int8(&tensor![[1i8, 2, 3], [4, 5, 6]], Begin::<1, 2>);
/// ```
pub fn slice_int8<
    X,
    Y,
    S,
    const B0: usize,
    const B1: usize,
    const B2: usize,
    const B3: usize,
    const B4: usize,
>(
    input: &Tensor<i8, X, S>,
    begin: Begin<B0, B1, B2, B3, B4>,
) -> Tensor<i8, Y>
where
    X: FixedShape,
    Y: FixedShape,
    S: Storage<i8>,
{
    let () = SliceCheck::<X, Y, B0, B1, B2, B3, B4>::CHECK;
    let mut output = Tensor::<i8, Y>::zeros();
    slice_run(input, begin, &mut output);
    output
}

/// [`slice_int8`] writing into `output`, a caller's tensor in any storage
/// whose type gives the box's size (checked as there). Every element of
/// `output` is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{slice_int8_into, Begin};
/// let mut y = Tensor::<i8, shape![2]>::zeros();
/// slice_int8_into(&tensor![1i8, 2, 3, 4], Begin::<2>, &mut y);
/// assert_eq!(y.as_slice(), &[3, 4]);
/// ```
pub fn slice_int8_into<
    X,
    Y,
    S,
    BO,
    const B0: usize,
    const B1: usize,
    const B2: usize,
    const B3: usize,
    const B4: usize,
>(
    input: &Tensor<i8, X, S>,
    begin: Begin<B0, B1, B2, B3, B4>,
    output: &mut Tensor<i8, Y, BO>,
) where
    X: FixedShape,
    Y: FixedShape,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let () = SliceCheck::<X, Y, B0, B1, B2, B3, B4>::CHECK;
    slice_run(input, begin, output)
}

/// [`slice_int8_into`] once its check holds.
fn slice_run<
    X,
    Y,
    S,
    BO,
    const B0: usize,
    const B1: usize,
    const B2: usize,
    const B3: usize,
    const B4: usize,
>(
    input: &Tensor<i8, X, S>,
    _begin: Begin<B0, B1, B2, B3, B4>,
    output: &mut Tensor<i8, Y, BO>,
) where
    X: FixedShape,
    Y: FixedShape,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let mut size = [0usize; kernels::MAX_SLICE_RANK];
    for (s, &d) in size.iter_mut().zip(Y::DIMS) {
        *s = d;
    }
    let params = kernels::SliceParams {
        rank: X::DIMS.len(),
        begin: [B0, B1, B2, B3, B4],
        size,
    };
    kernels::slice_prechecked(input.as_slice(), X::DIMS, &params, output.as_mut_slice());
}

/// TFLite's `SPLIT` of an int8 tensor into `N` equal pieces along `axis`
/// (negative from the end), as a split into gated heads exports it
/// (`shapecheck_tflite::split`): piece `k` holds the `k`-th run of the
/// axis. The pieces come back as an array of `N` tensors of the caller's
/// shape `Y`, checked when the call is built: the same rank, the dims off
/// the axis the input's, and on the axis `N` (1 to 16) divides the input's
/// dim into `Y`'s ([`SplitCheck`], `split/output`). It cannot fail; it
/// calls the kernel without its checks
/// (`shapecheck_tflite::split_prechecked`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::split_int8;
/// let x = Tensor::<i8, shape![2, 4]>::from_array([[1, 2, 3, 4], [5, 6, 7, 8]]);
/// let [a, b]: [Tensor<i8, shape![2, 2]>; 2] = split_int8(&x, Axis::<-1>);
/// assert_eq!((a.as_slice(), b.as_slice()), (&[1, 2, 5, 6][..], &[3, 4, 7, 8][..]));
/// ```
///
/// Pieces of another size do not build:
///
/// ```compile_fail
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::split_int8;
/// let x = Tensor::<i8, shape![2, 6]>::full(0);
/// // split/output: 6 in 2 is 3 each, not 2
/// let _: [Tensor<i8, shape![2, 2]>; 2] = split_int8(&x, Axis::<1>);
/// ```
pub fn split_int8<X, Y, S, const AXIS: isize, const N: usize>(
    input: &Tensor<i8, X, S>,
    axis: Axis<AXIS>,
) -> [Tensor<i8, Y>; N]
where
    X: FixedShape,
    Y: FixedShape,
    S: Storage<i8>,
{
    let () = SplitCheck::<X, Y, AXIS, N>::CHECK;
    let mut outputs: [Tensor<i8, Y>; N] = core::array::from_fn(|_| Tensor::<i8, Y>::zeros());
    split_run(input, axis, &mut outputs);
    outputs
}

/// [`split_int8`] writing into `outputs`, `N` caller's tensors in any
/// storage whose type gives the pieces' shape (checked as there). Every
/// element of each is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::split_int8_into;
/// let mut pieces = [Tensor::<i8, shape![1, 2]>::zeros(), Tensor::zeros(), Tensor::zeros()];
/// split_int8_into(&tensor![[1i8, 2], [3, 4], [5, 6]], Axis::<0>, &mut pieces);
/// assert_eq!(pieces[2].as_slice(), &[5, 6]);
/// ```
pub fn split_int8_into<X, Y, S, BO, const AXIS: isize, const N: usize>(
    input: &Tensor<i8, X, S>,
    axis: Axis<AXIS>,
    outputs: &mut [Tensor<i8, Y, BO>; N],
) where
    X: FixedShape,
    Y: FixedShape,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    let () = SplitCheck::<X, Y, AXIS, N>::CHECK;
    split_run(input, axis, outputs)
}

/// [`split_int8_into`] once its check holds.
fn split_run<X, Y, S, BO, const AXIS: isize, const N: usize>(
    input: &Tensor<i8, X, S>,
    _axis: Axis<AXIS>,
    outputs: &mut [Tensor<i8, Y, BO>; N],
) where
    X: FixedShape,
    Y: FixedShape,
    S: Storage<i8>,
    BO: StorageMut<i8>,
{
    // the check ruled out an axis outside [−rank, rank) and N above 16
    let axis = if AXIS < 0 {
        X::DIMS.len().saturating_sub(AXIS.unsigned_abs())
    } else {
        AXIS.unsigned_abs()
    };
    let mut sizes = [0usize; kernels::MAX_SPLITS];
    let piece = Y::DIMS.get(axis).copied().unwrap_or(0);
    for s in sizes.iter_mut().take(N) {
        *s = piece;
    }
    let params = kernels::SplitParams {
        axis,
        count: N,
        sizes,
    };
    let mut slices = outputs.each_mut().map(|t| t.as_mut_slice());
    kernels::split_prechecked(input.as_slice(), X::DIMS, &params, &mut slices);
}
