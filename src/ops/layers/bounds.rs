//! The fully connected rule as traits, for the compile errors:
//! [`FullyConnectedShapes`] says "an input of shape `Self` fits weights of
//! shape `W`" and names the output shape. Its one impl takes a rank-2
//! input `(B, I)` of static dims and weights `(O, K)`, and requires the
//! input's last dim to be the weights' second through the algebra's
//! [`SameDim`]; the trait carries the message that names both shapes.
//!
//! The depthwise convolution's output size and the softmax's depth are
//! arithmetic on the sizes, which stable Rust cannot state as a bound:
//! [`DepthwiseConvCheck`] and [`SoftmaxDepth`] evaluate the rule
//! ([`conv_output`]) in a constant that fails the build, with a message
//! naming the shapes, when the call is built; [`BufferFits`] so checks
//! that a tensor fits an activation buffer.

use core::marker::PhantomData;

use super::rule::{conv_output, pad_output, SOFTMAX_MAX_DEPTH};
use super::ConvPadding;
use crate::algebra::SameDim;
use crate::dim::{Dim, One, StaticDim};
use crate::error::Msg;
use crate::ops::const_fail;
use crate::ops::elementwise::{BroadcastOf, BroadcastWith};
use crate::ops::sealed::Sealed;
use crate::ops::StaticShape;
use crate::shape::{FixedShape, Shape};
use crate::storage::Storage;
use crate::tensor::Tensor;

/// An input of shape `Self` fits a fully connected layer whose weights
/// have shape `W` (`[out, in]`): `Self` is `[batch, in]`, all dims static.
/// The output's shape, `[batch, out]`, is [`FullyConnectedRows`]'s (a
/// trait of its own, so that a misfit is one error, this one's).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{FullyConnectedRows, FullyConnectedShapes};
/// fn out_dims<X: FullyConnectedShapes<shape![16, 3]> + FullyConnectedRows<Dim<16>>>() -> &'static [usize] {
///     <X::Output as FixedShape>::DIMS
/// }
/// assert_eq!(out_dims::<shape![2, 3]>(), &[2, 16]);
/// ```
#[diagnostic::on_unimplemented(
    message = "fully_connected: input {Self} and weights {W} do not fit: the input must be [batch, in] and the weights [out, in], the same `in`, every dim static",
    label = "input {Self} does not fit weights {W}: feed it a layer whose output is `in` wide"
)]
#[doc(hidden)]
pub trait FullyConnectedShapes<W: FixedShape>: FixedShape {}

// not recommended: rustc then reports the rule's message above, naming
// both shapes, not this impl's where-clause
#[diagnostic::do_not_recommend]
impl<B, I, O, K> FullyConnectedShapes<(O, K)> for (B, I)
where
    B: StaticDim,
    I: StaticDim + SameDim<K>,
    O: StaticDim,
    K: StaticDim,
{
}

/// The output shape of a fully connected layer of `O` outputs on an input
/// of shape `Self`, `[batch, in]`: `[batch, O]`.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::FullyConnectedRows;
/// let _: Option<<shape![2, 3] as FullyConnectedRows<Dim<16>>>::Output> = Some((Dim::<2>, Dim::<16>));
/// ```
#[diagnostic::on_unimplemented(
    message = "fully_connected: input {Self} is not [batch, in] with static dims",
    label = "not [batch, in]"
)]
#[doc(hidden)]
pub trait FullyConnectedRows<O: StaticDim>: FixedShape {
    /// `[batch, O]`.
    type Output: FixedShape;
}

impl<B: StaticDim, I: StaticDim, O: StaticDim> FullyConnectedRows<O> for (B, I) {
    type Output = (B, O);
}

/// A tensor of shape `Self` is a model's input, of shape `Input`: the
/// bound of `predict` in the code [`model!`](crate::model) writes, so that
/// a tensor of another shape is one error naming both (`model/input`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::ModelInput;
/// let x = Tensor::<i8, shape![1, 2]>::from_array([[3, 4]]);
/// let input = <shape![1, 2] as ModelInput<shape![1, 2]>>::as_input(&x);
/// assert_eq!(input.as_slice(), &[3, 4]);
/// ```
#[diagnostic::on_unimplemented(
    message = "model/input: the model takes an input of shape {Input}, and this tensor is {Self}",
    label = "{Self} is not the model's input shape {Input}, the .tflite file's"
)]
#[doc(hidden)]
pub trait ModelInput<Input: Shape>: Shape {
    /// The tensor, viewed as the model's input.
    fn as_input<T: Copy, B: Storage<T>>(t: &Tensor<T, Self, B>) -> Tensor<T, Input, &[T]>;
}

#[diagnostic::do_not_recommend]
impl<S: Shape> ModelInput<S> for S {
    fn as_input<T: Copy, B: Storage<T>>(t: &Tensor<T, S, B>) -> Tensor<T, S, &[T]> {
        t.view()
    }
}

/// The output's rows or columns along one axis, as [`conv_output`] gives
/// them for padding `P` (0: none).
const fn axis_output<P: ConvPadding>(
    input: usize,
    filter: usize,
    stride: usize,
    dilation: usize,
) -> usize {
    match conv_output(P::SAME, input, filter, stride, dilation) {
        Some((o, _)) => o,
        None => 0,
    }
}

/// The output-size message of a convolution or pool named `op`: the
/// output's rows and columns, and what the rule gives.
const fn size_msg<P: ConvPadding>(
    op: &str,
    output: [usize; 2],
    input: [usize; 2],
    filter: [usize; 2],
) -> Msg {
    let given = [
        axis_output::<P>(input[0], filter[0], P::STRIDE_H, P::DILATION_H),
        axis_output::<P>(input[1], filter[1], P::STRIDE_W, P::DILATION_W),
    ];
    Msg::new()
        .push(op)
        .push("/output-size: the output's rows and columns ")
        .push_sizes(&output)
        .push(" are not what an input of ")
        .push_sizes(&input)
        .push(" with a filter of ")
        .push_sizes(&filter)
        .push(", strides ")
        .push_sizes(&[P::STRIDE_H, P::STRIDE_W])
        .push(", dilations ")
        .push_sizes(&[P::DILATION_H, P::DILATION_W])
        .push(if P::SAME {
            " and SAME padding give, "
        } else {
            " and VALID padding give, "
        })
        .push_sizes(&given)
        .push(" (SAME: ceil(in / stride); VALID: (in - dilated filter) / stride + 1; 0: none)")
}

/// Whether the output's rows and columns are what [`conv_output`] gives.
const fn size_ok<P: ConvPadding>(
    output: [usize; 2],
    input: [usize; 2],
    filter: [usize; 2],
) -> bool {
    let rows = conv_output(P::SAME, input[0], filter[0], P::STRIDE_H, P::DILATION_H);
    let columns = conv_output(P::SAME, input[1], filter[1], P::STRIDE_W, P::DILATION_W);
    matches!(rows, Some((r, _)) if r == output[0])
        && matches!(columns, Some((c, _)) if c == output[1])
}

/// An NHWC input of shape `Self`, `[batch, h, w, c]`, fits a depthwise
/// convolution whose filter has shape `F`, `[kh, kw, c_out]`, with the
/// depth multiplier `M`: with [`One`] (the default) `c` is `c_out`
/// (`depthwise_conv/channels`, a compile error naming both shapes at
/// `cargo check`, as the convolution's); with `Dim<K>` `c_out` must be
/// `c · K`, arithmetic no stable bound states, which
/// [`DepthwiseConvCheck`] checks when the call is built.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::DepthwiseChannels;
/// fn fits<X: DepthwiseChannels<shape![3, 3, 16], M>, M: StaticDim>() {}
/// fits::<shape![1, 8, 8, 16], One>();
/// fits::<shape![1, 8, 8, 8], Dim<2>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "depthwise_conv/channels: input {Self} and filter {F} do not fit: with a depth multiplier of 1 the input's channels (its last dim) must be the filter's (its last dim), [batch, h, w, c] and [kh, kw, c]",
    label = "input {Self} does not fit filter {F}: feed it a layer whose output has the filter's channels, or give the layer its depth multiplier"
)]
#[doc(hidden)]
pub trait DepthwiseChannels<F: FixedShape, M: StaticDim>: FixedShape {}

// one impl (so a misfit is reported with the trait's message and no list
// of other impls), the multiplier's rule in `MultiplierChannels`
#[diagnostic::do_not_recommend]
impl<B, H, W, C, KH, KW, FC, M> DepthwiseChannels<(KH, KW, FC), M> for (B, H, W, C)
where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    FC: StaticDim,
    M: StaticDim + MultiplierChannels<C, FC>,
{
}

/// A depth multiplier `Self` takes `C` input channels to the filter's
/// `FC`: [`One`] when they are the same dim; `Dim<K>` always here, its
/// arithmetic (`FC = C · K`) [`DepthwiseConvCheck`]'s.
#[doc(hidden)]
pub trait MultiplierChannels<C: StaticDim, FC: StaticDim>: StaticDim {}

impl<C: StaticDim, FC: StaticDim + SameDim<C>> MultiplierChannels<C, FC> for One {}

impl<C: StaticDim, FC: StaticDim, const K: usize> MultiplierChannels<C, FC> for Dim<K> {}

/// The depthwise convolution's rule on an input `[_, H, W, CI]`, a filter
/// `[KH, KW, C]` with padding, strides and dilations `P` and depth
/// multiplier `M`, and the output `[_, OH, OW, C]` the caller wrote:
/// `C = CI · M` (the channels' rule, [`DepthwiseChannels`]'s for
/// `M = One`), and `OH`, `OW` what [`conv_output`] gives.
/// [`CHECK`](Self::CHECK) fails the build otherwise.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{DepthwiseConvCheck, Same, Valid};
/// // speech.tflite's layer: [1, 49, 40, 1], a 10 × 8 × 8 filter (multiplier 8), SAME, stride 2 → [1, 25, 20, 8]
/// let () = DepthwiseConvCheck::<Dim<49>, Dim<40>, One, Dim<25>, Dim<20>, Dim<10>, Dim<8>, Dim<8>, Same<2, 2>, Dim<8>>::CHECK;
/// // dilation 2: a 3 × 3 filter covers 5 × 5, VALID on 7 × 7 → 3 × 3
/// let () = DepthwiseConvCheck::<Dim<7>, Dim<7>, Dim<2>, Dim<3>, Dim<3>, Dim<3>, Dim<3>, Dim<4>, Valid<1, 1, 2, 2>, Dim<2>>::CHECK;
/// ```
// one type parameter per size the rule reads: a tuple of ten, by design
#[allow(clippy::type_complexity)]
pub struct DepthwiseConvCheck<H, W, CI, OH, OW, KH, KW, C, P, M = One>(
    PhantomData<(H, W, CI, OH, OW, KH, KW, C, P, M)>,
);

impl<H, W, CI, OH, OW, KH, KW, C, P, M> DepthwiseConvCheck<H, W, CI, OH, OW, KH, KW, C, P, M>
where
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
{
    const SIZES: ([usize; 2], [usize; 2], [usize; 2]) = (
        [OH::SIZE, OW::SIZE],
        [H::SIZE, W::SIZE],
        [KH::SIZE, KW::SIZE],
    );
    const CHANNELS_OK: bool =
        C::SIZE > 0 && matches!(CI::SIZE.checked_mul(M::SIZE), Some(c) if c == C::SIZE);
    const SIZE_MSG: Msg = size_msg::<P>(
        "depthwise_conv",
        Self::SIZES.0,
        Self::SIZES.1,
        Self::SIZES.2,
    );
    // the input's batch is not a parameter of the check: shown as `_`
    const CHANNELS_MSG: Msg = Msg::new()
        .push("depthwise_conv/channels: input [_, ")
        .push_num(H::SIZE)
        .push(", ")
        .push_num(W::SIZE)
        .push(", ")
        .push_num(CI::SIZE)
        .push("] and filter ")
        .push_sizes(&[KH::SIZE, KW::SIZE, C::SIZE])
        .push(" do not fit with a depth multiplier of ")
        .push_num(M::SIZE)
        .push(": the filter's channels (its last dim) must be the input's times it, [batch, h, w, c] and [kh, kw, c · m]");
    /// Fails const evaluation when the output's size or channels break the rule.
    pub const CHECK: () = if !Self::CHANNELS_OK {
        const_fail(text(&Self::CHANNELS_MSG, "depthwise_conv/channels"))
    } else if !size_ok::<P>(Self::SIZES.0, Self::SIZES.1, Self::SIZES.2) {
        const_fail(text(&Self::SIZE_MSG, "depthwise_conv/output-size"))
    };
}

/// An NHWC input of shape `Self`, `[batch, h, w, c]`, fits a convolution
/// whose filter has shape `F`, `[out, kh, kw, c_in]`: `c` is `c_in`
/// (`conv_2d/channels`, a compile error naming both shapes).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::Conv2dChannels;
/// fn fits<X: Conv2dChannels<shape![8, 3, 3, 4]>>() {}
/// fits::<shape![1, 16, 16, 4]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "conv_2d/channels: input {Self} and filter {F} do not fit: the input's channels (its last dim) must be the filter's input channels (its last dim), [batch, h, w, c] and [out, kh, kw, c]",
    label = "input {Self} does not fit filter {F}: feed it a layer whose output has the filter's input channels"
)]
#[doc(hidden)]
pub trait Conv2dChannels<F: FixedShape>: FixedShape {}

#[diagnostic::do_not_recommend]
impl<B, H, W, C, O, KH, KW, CI> Conv2dChannels<(O, KH, KW, CI)> for (B, H, W, C)
where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim + SameDim<CI>,
    O: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    CI: StaticDim,
{
}

/// The convolution's size rule on an input `[_, H, W, _]`, a filter
/// `[_, KH, KW, _]` with padding, strides and dilations `P` and the output
/// `[_, OH, OW, _]` the caller wrote: `OH`, `OW` what [`conv_output`]
/// gives (`conv_2d/output-size`). [`CHECK`](Self::CHECK) fails the build
/// otherwise.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{Conv2dCheck, Same};
/// let () = Conv2dCheck::<Dim<96>, Dim<96>, Dim<48>, Dim<48>, Dim<3>, Dim<3>, Same<2, 2>>::CHECK;
/// ```
#[allow(clippy::type_complexity)]
pub struct Conv2dCheck<H, W, OH, OW, KH, KW, P>(PhantomData<(H, W, OH, OW, KH, KW, P)>);

impl<H, W, OH, OW, KH, KW, P> Conv2dCheck<H, W, OH, OW, KH, KW, P>
where
    H: StaticDim,
    W: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    P: ConvPadding,
{
    const SIZES: ([usize; 2], [usize; 2], [usize; 2]) = (
        [OH::SIZE, OW::SIZE],
        [H::SIZE, W::SIZE],
        [KH::SIZE, KW::SIZE],
    );
    const SIZE_MSG: Msg = size_msg::<P>("conv_2d", Self::SIZES.0, Self::SIZES.1, Self::SIZES.2);
    /// Fails const evaluation when the output's rows or columns break the rule.
    pub const CHECK: () = if !size_ok::<P>(Self::SIZES.0, Self::SIZES.1, Self::SIZES.2) {
        const_fail(text(&Self::SIZE_MSG, "conv_2d/output-size"))
    };
}

/// A pool's rule on an input `[B, H, W, C]`, a window `[KH, KW]` with
/// padding and strides `P` and the output `[B, OH, OW, C]` the caller
/// wrote: a `VALID` window no larger than the input (`pool/window`, naming
/// both), dilation 1 (`pool/dilation`: TFLite's pools have none), and
/// `OH`, `OW` what [`conv_output`] gives (`pool/output-size`).
/// [`CHECK`](Self::CHECK) fails the build otherwise.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{PoolCheck, Valid};
/// let () = PoolCheck::<One, Dim<6>, Dim<6>, Dim<8>, Dim<3>, Dim<3>, Dim<2>, Dim<2>, Valid<2, 2>>::CHECK;
/// ```
#[allow(clippy::type_complexity)]
pub struct PoolCheck<B, H, W, C, OH, OW, KH, KW, P>(PhantomData<(B, H, W, C, OH, OW, KH, KW, P)>);

impl<B, H, W, C, OH, OW, KH, KW, P> PoolCheck<B, H, W, C, OH, OW, KH, KW, P>
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
    const SIZES: ([usize; 2], [usize; 2], [usize; 2]) = (
        [OH::SIZE, OW::SIZE],
        [H::SIZE, W::SIZE],
        [KH::SIZE, KW::SIZE],
    );
    const WINDOW_OK: bool = P::SAME || (KH::SIZE <= H::SIZE && KW::SIZE <= W::SIZE);
    const WINDOW_MSG: Msg = Msg::new()
        .push("pool/window: a VALID window of ")
        .push_sizes(&[KH::SIZE, KW::SIZE])
        .push(" is larger than the input ")
        .push_sizes(&[B::SIZE, H::SIZE, W::SIZE, C::SIZE])
        .push(
            " (rows and columns): it gives no output; a window within the input, or SAME padding",
        );
    const DILATION_MSG: Msg = Msg::new()
        .push("pool/dilation: a pool's dilations are 1 (TFLite's pools have none), not ")
        .push_sizes(&[P::DILATION_H, P::DILATION_W]);
    const SIZE_MSG: Msg = size_msg::<P>("pool", Self::SIZES.0, Self::SIZES.1, Self::SIZES.2);
    /// Fails const evaluation when the window, dilation or output's size break the rule.
    pub const CHECK: () = if !Self::WINDOW_OK {
        const_fail(text(&Self::WINDOW_MSG, "pool/window"))
    } else if P::DILATION_H != 1 || P::DILATION_W != 1 {
        const_fail(text(&Self::DILATION_MSG, "pool/dilation"))
    } else if !size_ok::<P>(Self::SIZES.0, Self::SIZES.1, Self::SIZES.2) {
        const_fail(text(&Self::SIZE_MSG, "pool/output-size"))
    };
}

/// Two shapes an int8 `ADD` takes, `Self` and `SB`: numpy broadcasting,
/// the elementwise ops' rule ([`BroadcastWith`]); the output's shape is
/// [`Sum`](Self::Sum), their broadcast. A pair that does not
/// broadcast is one compile error naming both (`add/broadcast`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::AddShapes;
/// fn out<A: AddShapes<B>, B: StaticShape>() -> &'static [usize] {
///     <A::Sum as FixedShape>::DIMS
/// }
/// assert_eq!(out::<shape![1, 8, 8, 16], shape![1, 1, 1, 16]>(), &[1, 8, 8, 16]);
/// ```
#[diagnostic::on_unimplemented(
    message = "add/broadcast: inputs {Self} and {SB} do not broadcast: right-aligned, each pair of dims must be equal or one of them 1 (numpy's rule, TFLite's ADD)",
    label = "{Self} and {SB} do not broadcast: a residual ADD needs the same shape on both sides"
)]
#[doc(hidden)]
pub trait AddShapes<SB: StaticShape>: StaticShape {
    /// The broadcast shape (named so as not to clash with the operators'
    /// `Output` in generic code).
    type Sum: StaticShape;
}

#[diagnostic::do_not_recommend]
impl<SA: BroadcastWith<SB>, SB: StaticShape> AddShapes<SB> for SA {
    type Sum = BroadcastOf<SA, SB>;
}

/// The int8 `ADD`'s rank rule on shapes `SA` and `SB`: each of at most 6
/// dims (TFLite Micro's broadcast limit). [`CHECK`](Self::CHECK) fails
/// the build otherwise.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::AddRank;
/// let () = AddRank::<shape![1, 8, 8, 16], shape![16]>::CHECK;
/// ```
pub struct AddRank<SA, SB>(PhantomData<(SA, SB)>);

impl<SA: FixedShape, SB: FixedShape> AddRank<SA, SB> {
    const MSG: Msg = Msg::new()
        .push("add/rank: inputs ")
        .push_sizes(SA::DIMS)
        .push(" and ")
        .push_sizes(SB::DIMS)
        .push(" must each have at most 6 dims (TFLite Micro's ADD broadcasts up to 6)");
    /// Fails const evaluation when either shape has more than 6 dims.
    pub const CHECK: () = if SA::DIMS.len() > 6 || SB::DIMS.len() > 6 {
        const_fail(text(&Self::MSG, "add/rank"))
    };
}

/// A `MEAN` over the rows and columns of an NHWC input `[B, _, _, C]`
/// gives a tensor of shape `Self`: `[B, C]` (`keep_dims` false) or
/// `[B, 1, 1, C]` (true). Sealed: those two only (`mean/output`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::MeanOutput;
/// fn out<Y: MeanOutput<One, Dim<8>>>() {}
/// out::<shape![1, 8]>();
/// out::<shape![1, 1, 1, 8]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "mean/output: a mean over the rows and columns of [{B}, h, w, {C}] is ({B}, {C}) or ({B}, One, One, {C}), not {Self}",
    label = "not the mean's output: [batch, channels], or [batch, 1, 1, channels] with keep_dims"
)]
#[doc(hidden)]
pub trait MeanOutput<B: StaticDim, C: StaticDim>: FixedShape + Sealed {}

#[diagnostic::do_not_recommend]
impl<B: StaticDim, C: StaticDim, B2: StaticDim + SameDim<B>, C2: StaticDim + SameDim<C>>
    MeanOutput<B, C> for (B2, C2)
{
}

#[diagnostic::do_not_recommend]
impl<B, C, B2, H, W, C2> MeanOutput<B, C> for (B2, H, W, C2)
where
    B: StaticDim,
    C: StaticDim,
    B2: StaticDim + SameDim<B>,
    H: StaticDim + SameDim<One>,
    W: StaticDim + SameDim<One>,
    C2: StaticDim + SameDim<C>,
{
}

/// `PAD`'s rule on an NHWC input `X`, the paddings before and after each
/// dim, and the output `Y` the caller wrote: each of `Y`'s dims is
/// `before + X's + after` (`pad/output-size`, naming both shapes).
/// [`CHECK`](Self::CHECK) fails the build otherwise.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::PadCheck;
/// let () = PadCheck::<shape![1, 4, 4, 3], shape![1, 6, 7, 3], 0, 0, 1, 1, 1, 2, 0, 0>::CHECK;
/// ```
#[allow(clippy::type_complexity)]
pub struct PadCheck<
    X,
    Y,
    const N0: usize,
    const N1: usize,
    const H0: usize,
    const H1: usize,
    const W0: usize,
    const W1: usize,
    const C0: usize,
    const C1: usize,
>(PhantomData<(X, Y)>);

// constants: every index is below the length the loop checks
#[allow(clippy::indexing_slicing)]
impl<
        X: FixedShape,
        Y: FixedShape,
        const N0: usize,
        const N1: usize,
        const H0: usize,
        const H1: usize,
        const W0: usize,
        const W1: usize,
        const C0: usize,
        const C1: usize,
    > PadCheck<X, Y, N0, N1, H0, H1, W0, W1, C0, C1>
{
    const PADS: [(usize, usize); 4] = [(N0, N1), (H0, H1), (W0, W1), (C0, C1)];
    const GIVEN: [usize; 4] = {
        let mut given = [0; 4];
        let mut i = 0;
        while i < 4 && i < X::DIMS.len() {
            given[i] = match pad_output(X::DIMS[i], Self::PADS[i].0, Self::PADS[i].1) {
                Some(g) => g,
                None => 0,
            };
            i += 1;
        }
        given
    };
    const OK: bool = {
        let mut ok = X::DIMS.len() == 4 && Y::DIMS.len() == 4;
        let mut i = 0;
        while ok && i < 4 {
            ok = Y::DIMS[i] == Self::GIVEN[i];
            i += 1;
        }
        ok
    };
    const MSG: Msg = Msg::new()
        .push("pad/output-size: the output ")
        .push_sizes(Y::DIMS)
        .push(" is not the input ")
        .push_sizes(X::DIMS)
        .push(" padded by [")
        .push_sizes(&[N0, N1])
        .push(", ")
        .push_sizes(&[H0, H1])
        .push(", ")
        .push_sizes(&[W0, W1])
        .push(", ")
        .push_sizes(&[C0, C1])
        .push("] (before, after each dim), ")
        .push_sizes(&Self::GIVEN);
    /// Fails const evaluation when an output dim is not its input's padded.
    pub const CHECK: () = if !Self::OK {
        const_fail(text(&Self::MSG, "pad/output-size"))
    };
}

/// The int8 softmax's rule on a shape `X`: its last dim (1 for a scalar)
/// is 1 to [`SOFTMAX_MAX_DEPTH`]. [`CHECK`](Self::CHECK) fails the build otherwise.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::SoftmaxDepth;
/// let () = SoftmaxDepth::<shape![1, 4]>::CHECK;
/// ```
pub struct SoftmaxDepth<X>(PhantomData<X>);

impl<X: FixedShape> SoftmaxDepth<X> {
    const DEPTH: usize = match X::DIMS.last() {
        Some(&d) => d,
        None => 1,
    };
    const MSG: Msg = Msg::new()
        .push("softmax_int8/depth: the last dim of ")
        .push_sizes(X::DIMS)
        .push(
            " must be 1 to 511 (TFLite's fixed-point sum of a row holds at most 511 exponentials)",
        );
    /// Fails const evaluation when the depth is 0 or past [`SOFTMAX_MAX_DEPTH`].
    pub const CHECK: () = if Self::DEPTH == 0 || Self::DEPTH > SOFTMAX_MAX_DEPTH {
        const_fail(text(&Self::MSG, "softmax_int8/depth"))
    };
}

/// A tensor of shape `S` fits a buffer of `N` elements (a
/// [`PingPong`](super::PingPong)'s): [`CHECK`](Self::CHECK) fails the
/// build otherwise (`ping_pong/capacity`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::BufferFits;
/// let () = BufferFits::<shape![1, 16], 16>::CHECK;
/// ```
pub struct BufferFits<S, const N: usize>(PhantomData<S>);

impl<S: FixedShape, const N: usize> BufferFits<S, N> {
    const MSG: Msg = Msg::new()
        .push("ping_pong/capacity: a tensor of ")
        .push_sizes(S::DIMS)
        .push(" holds ")
        .push_num(S::NUMEL)
        .push(" elements, more than the buffer's ")
        .push_num(N);
    /// Fails const evaluation when `S` holds more than `N` elements.
    pub const CHECK: () = if S::NUMEL > N {
        const_fail(
            match core::str::from_utf8(Self::MSG.buf.split_at(Self::MSG.len).0) {
                Ok(s) => s,
                Err(_) => "ping_pong/capacity",
            },
        )
    };
}

/// A message's text, or `fallback` (its rule id) if it were cut inside a character.
const fn text<'a>(msg: &'a Msg, fallback: &'static str) -> &'a str {
    match core::str::from_utf8(msg.buf.split_at(msg.len).0) {
        Ok(s) => s,
        Err(_) => fallback,
    }
}

/// A tensor of shape `S` at offset `OFF` fits an [`Arena`](super::Arena)
/// of `N` elements: `OFF + S::NUMEL <= N`. [`CHECK`](Self::CHECK) fails
/// the build otherwise (`arena/capacity`, naming the shape, the offset and
/// `N`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::ArenaFits;
/// let () = ArenaFits::<shape![2, 4], 8, 16>::CHECK; // elements 8..16 of 16
/// ```
pub struct ArenaFits<S, const OFF: usize, const N: usize>(PhantomData<S>);

impl<S: FixedShape, const OFF: usize, const N: usize> ArenaFits<S, OFF, N> {
    const END: Option<usize> = OFF.checked_add(S::NUMEL);
    const MSG: Msg = Msg::new()
        .push("arena/capacity: a tensor of ")
        .push_sizes(S::DIMS)
        .push(" (")
        .push_num(S::NUMEL)
        .push(" elements) at offset ")
        .push_num(OFF)
        .push(" ends past the arena's ")
        .push_num(N)
        .push(" elements");
    /// Fails const evaluation when `OFF + S::NUMEL > N`.
    pub const CHECK: () = match Self::END {
        Some(end) if end <= N => (),
        _ => const_fail(text(&Self::MSG, "arena/capacity")),
    };
}

/// A read view of shape `X` at offset `XA` and a write view of shape `Y`
/// at offset `YA` of one [`Arena`](super::Arena) do not share an element
/// (an empty view shares none). [`CHECK`](Self::CHECK) fails the build
/// otherwise (`arena/overlap`, naming both ranges).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::ArenaDisjoint;
/// let () = ArenaDisjoint::<shape![1, 8], 0, shape![1, 8], 8>::CHECK; // 0..8 and 8..16
/// ```
pub struct ArenaDisjoint<X, const XA: usize, Y, const YA: usize>(PhantomData<(X, Y)>);

impl<X: FixedShape, const XA: usize, Y: FixedShape, const YA: usize> ArenaDisjoint<X, XA, Y, YA> {
    const X_END: usize = XA.saturating_add(X::NUMEL);
    const Y_END: usize = YA.saturating_add(Y::NUMEL);
    const DISJOINT: bool = X::NUMEL == 0 || Y::NUMEL == 0 || Self::X_END <= YA || Self::Y_END <= XA;
    const MSG: Msg = Msg::new()
        .push("arena/overlap: the read view ")
        .push_sizes(X::DIMS)
        .push(" at elements ")
        .push_num(XA)
        .push("..")
        .push_num(Self::X_END)
        .push(" and the write view ")
        .push_sizes(Y::DIMS)
        .push(" at elements ")
        .push_num(YA)
        .push("..")
        .push_num(Self::Y_END)
        .push(" overlap: a layer cannot write over its input");
    /// Fails const evaluation when the two ranges share an element.
    pub const CHECK: () = if !Self::DISJOINT {
        const_fail(text(&Self::MSG, "arena/overlap"))
    };
}

/// A firmware's RAM budget, checked when it builds: fails const
/// evaluation when `model`'s arena, `ram_bytes`, and the `beside` bytes the
/// firmware holds with it (its input, its output, its own buffers) exceed
/// `budget` bytes, with a message naming the three numbers
/// (`ram/budget`). Called in a `const`, the error is reported at that
/// `const`, at `cargo check`. [`model!`](crate::model)'s module calls it
/// with its name and `RAM_BYTES`: `const _: () =
/// sine::assert_ram_fits(BUDGET, size_of::<sine::Input>());`.
///
/// ```
/// use shapecheck::ops::layers::assert_ram_fits;
/// const _: () = assert_ram_fits("sine", 32, 1, 64); // 33 bytes of 64
/// ```
///
/// ```compile_fail,E0080
/// use shapecheck::ops::layers::assert_ram_fits;
/// // ram/budget: sine needs 33 bytes (RAM_BYTES 32 + 1 beside it), above its budget of 16 bytes
/// const _: () = assert_ram_fits("sine", 32, 1, 16);
/// ```
#[track_caller]
pub const fn assert_ram_fits(model: &str, ram_bytes: usize, beside: usize, budget: usize) {
    let needed = ram_bytes.checked_add(beside);
    let fits = match needed {
        Some(needed) => needed <= budget,
        None => false,
    };
    if !fits {
        let msg = Msg::new().push("ram/budget: ").push(model).push(" needs ");
        let msg = match needed {
            Some(needed) => msg.push_num(needed).push(" bytes"),
            None => msg.push("more bytes than a usize counts"),
        };
        let msg = msg
            .push(" (RAM_BYTES ")
            .push_num(ram_bytes)
            .push(" + ")
            .push_num(beside)
            .push(" beside it), above its budget of ")
            .push_num(budget)
            .push(" bytes");
        const_fail(text(&msg, "ram/budget"))
    }
}

/// A firmware's RAM budget for a `model!` module, checked when it builds:
/// fails const evaluation when the module's arena, `arena_bytes`
/// (`size_of::<Arena>()`), and the `beside` bytes the firmware holds with
/// it exceed `budget` bytes, naming the numbers (`ram/budget`). The arena
/// is `ram_bytes`, the plan's activations (`RAM_BYTES`), and, for a model
/// written from the plan's steps, a copy of its inputs that `predict_in`
/// writes into it (`arena_bytes − ram_bytes`, named in the message): so a
/// firmware holding its input and the arena is counted whole. With no
/// copy it is [`assert_ram_fits`], message and all. Every `model!`
/// module's `assert_ram_fits(budget, beside)` calls it.
///
/// ```
/// use shapecheck::ops::layers::assert_arena_fits;
/// const _: () = assert_arena_fits("sine", 32, 32, 1, 64); // 33 bytes of 64
/// // an arena of 8,192 B of activations and a 1,024 B copy of the input, and the input: 10,240 B
/// const _: () = assert_arena_fits("tiny", 8192, 9216, 1024, 10_240);
/// ```
///
/// ```compile_fail,E0080
/// use shapecheck::ops::layers::assert_arena_fits;
/// // ram/budget: tiny needs 10240 bytes (RAM_BYTES 8192 + 1024 of the inputs' copy in its arena + 1024 beside it), above its budget of 9216 bytes
/// const _: () = assert_arena_fits("tiny", 8192, 9216, 1024, 9216);
/// ```
#[track_caller]
pub const fn assert_arena_fits(
    model: &str,
    ram_bytes: usize,
    arena_bytes: usize,
    beside: usize,
    budget: usize,
) {
    let copy = arena_bytes.saturating_sub(ram_bytes);
    if copy == 0 {
        return assert_ram_fits(model, ram_bytes, beside, budget);
    }
    let needed = match ram_bytes.checked_add(copy) {
        Some(arena) => arena.checked_add(beside),
        None => None,
    };
    let fits = match needed {
        Some(needed) => needed <= budget,
        None => false,
    };
    if !fits {
        let msg = Msg::new().push("ram/budget: ").push(model).push(" needs ");
        let msg = match needed {
            Some(needed) => msg.push_num(needed).push(" bytes"),
            None => msg.push("more bytes than a usize counts"),
        };
        let msg = msg
            .push(" (RAM_BYTES ")
            .push_num(ram_bytes)
            .push(" + ")
            .push_num(copy)
            .push(" of the inputs' copy in its arena + ")
            .push_num(beside)
            .push(" beside it), above its budget of ")
            .push_num(budget)
            .push(" bytes");
        const_fail(text(&msg, "ram/budget"))
    }
}

// The typed layers a user calls on their own (issue 69): each output
// shape is the caller's type, checked against the op's rule, the
// arithmetic `shapecheck_tflite`'s `const fn` (one rule for the reader,
// the interpreter and these checks). Where the rule is an equality of
// dims it is a trait (an error at `cargo check`, in the caller's code);
// where it is arithmetic, a constant evaluated when the call is built.

/// `axis` of a shape of `rank` dims as an index: a negative one counted
/// from the end (TFLite's rule), `None` outside `[−rank, rank)`.
const fn resolve_axis(axis: isize, rank: usize) -> Option<usize> {
    if axis >= 0 {
        let a = axis.unsigned_abs();
        if a < rank {
            Some(a)
        } else {
            None
        }
    } else {
        rank.checked_sub(axis.unsigned_abs())
    }
}

/// `CONCATENATION`'s rule on two inputs `XA`, `XB` joined along `AXIS`
/// (negative from the end) and the output `Y` the caller wrote: the same
/// rank, the dims off the axis equal, the axis's their sum
/// (`shapecheck_tflite::concatenation_dim`; `concatenation/output`,
/// naming both inputs, the axis, the shape they give and the output, or
/// saying that they do not join). [`CHECK`](Self::CHECK) fails the build
/// otherwise.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::ConcatenationCheck;
/// let () = ConcatenationCheck::<shape![1, 7, 4, 3], shape![1, 5, 4, 3], shape![1, 12, 4, 3], 1>::CHECK;
/// let () = ConcatenationCheck::<shape![2, 3], shape![2, 1], shape![2, 4], -1>::CHECK;
/// ```
pub struct ConcatenationCheck<XA, XB, Y, const AXIS: isize>(PhantomData<(XA, XB, Y)>);

// constants: every index is below the length the loop checks
#[allow(clippy::indexing_slicing)]
impl<XA: FixedShape, XB: FixedShape, Y: FixedShape, const AXIS: isize>
    ConcatenationCheck<XA, XB, Y, AXIS>
{
    const AXIS_INDEX: Option<usize> = resolve_axis(AXIS, XA::DIMS.len());
    /// The inputs joined (its first `rank` dims), if they join: the same
    /// rank (at most 8), the axis within it, the dims off the axis equal.
    const JOINED: Option<([usize; 8], usize)> = {
        let (a, b) = (XA::DIMS, XB::DIMS);
        let mut joined = [0usize; 8];
        let mut ok = a.len() == b.len() && a.len() <= joined.len() && Self::AXIS_INDEX.is_some();
        let mut k = 0;
        while ok && k < a.len() {
            let on_axis = matches!(Self::AXIS_INDEX, Some(axis) if axis == k);
            match shapecheck_tflite::concatenation_dim(on_axis, a[k], b[k]) {
                Some(dim) => joined[k] = dim,
                None => ok = false,
            }
            k += 1;
        }
        if ok {
            Some((joined, a.len()))
        } else {
            None
        }
    };
    const OK: bool = match Self::JOINED {
        Some((joined, rank)) => {
            let y = Y::DIMS;
            let mut ok = y.len() == rank;
            let mut k = 0;
            while ok && k < rank {
                ok = joined[k] == y[k];
                k += 1;
            }
            ok
        }
        None => false,
    };
    const MSG: Msg = {
        let m = Msg::new()
            .push("concatenation/output: inputs ")
            .push_sizes(XA::DIMS)
            .push(" and ")
            .push_sizes(XB::DIMS);
        match Self::JOINED {
            Some((joined, rank)) => m
                .push(" joined along axis ")
                .push(if AXIS < 0 { "-" } else { "" })
                .push_num(AXIS.unsigned_abs())
                .push(" give ")
                .push_sizes(joined.split_at(rank).0)
                .push(", not the output ")
                .push_sizes(Y::DIMS)
                .push(": the inputs' dims, their sum on the axis"),
            None => m
                .push(" do not join along axis ")
                .push(if AXIS < 0 { "-" } else { "" })
                .push_num(AXIS.unsigned_abs())
                .push(", so no output fits (the output is ")
                .push_sizes(Y::DIMS)
                .push("): the same rank, the axis within it, the dims off the axis equal"),
        }
    };
    /// Fails const evaluation when the output is not the inputs joined.
    pub const CHECK: () = if !Self::OK {
        const_fail(text(&Self::MSG, "concatenation/output"))
    };
}

/// Two shapes an int8 `MUL` takes, `Self` and `SB`: numpy broadcasting,
/// the rule of `ADD` and the elementwise ops ([`BroadcastWith`]); the
/// output's shape is [`Product`](Self::Product), their broadcast. A pair
/// that does not broadcast is one compile error naming both (the
/// broadcast rule's own, `elementwise/broadcast`, as for `add_int8`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::MulShapes;
/// fn out<A: MulShapes<B>, B: StaticShape>() -> &'static [usize] {
///     <A::Product as FixedShape>::DIMS
/// }
/// assert_eq!(out::<shape![1, 8, 8, 16], shape![1, 1, 1, 16]>(), &[1, 8, 8, 16]);
/// ```
#[diagnostic::on_unimplemented(
    message = "mul/broadcast: inputs {Self} and {SB} do not broadcast: right-aligned, each pair of dims must be equal or one of them 1 (numpy's rule, TFLite's MUL)",
    label = "{Self} and {SB} do not broadcast: a squeeze-and-excite MUL scales [b, h, w, c] by [b, 1, 1, c]"
)]
#[doc(hidden)]
pub trait MulShapes<SB: StaticShape>: StaticShape {
    /// The broadcast shape.
    type Product: StaticShape;
}

#[diagnostic::do_not_recommend]
impl<SA: BroadcastWith<SB>, SB: StaticShape> MulShapes<SB> for SA {
    type Product = BroadcastOf<SA, SB>;
}

/// The int8 `MUL`'s rank rule on shapes `SA` and `SB`: each of at most 6
/// dims (TFLite Micro's broadcast limit, as [`AddRank`]'s).
/// [`CHECK`](Self::CHECK) fails the build otherwise.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::MulRank;
/// let () = MulRank::<shape![1, 8, 8, 16], shape![1, 1, 1, 16]>::CHECK;
/// ```
pub struct MulRank<SA, SB>(PhantomData<(SA, SB)>);

impl<SA: FixedShape, SB: FixedShape> MulRank<SA, SB> {
    const MSG: Msg = Msg::new()
        .push("mul/rank: inputs ")
        .push_sizes(SA::DIMS)
        .push(" and ")
        .push_sizes(SB::DIMS)
        .push(" must each have at most 6 dims (TFLite Micro's MUL broadcasts up to 6)");
    /// Fails const evaluation when either shape has more than 6 dims.
    pub const CHECK: () = if !broadcast_rank_ok(SA::DIMS.len(), SB::DIMS.len()) {
        const_fail(text(&Self::MSG, "mul/rank"))
    };
}

/// TFLite Micro's broadcasting binary ops (`ADD`, `MUL`) take shapes of at
/// most 6 dims.
const fn broadcast_rank_ok(a: usize, b: usize) -> bool {
    a <= shapecheck_tflite::MAX_DIMS && b <= shapecheck_tflite::MAX_DIMS
}

/// A resize's output `Self`, `[batch, h, w, channels]`, keeps the NHWC
/// input `X`'s batch and channels (`resize/output`, a compile error
/// naming both shapes); its rows and columns are any (checked by
/// [`ResizeCheck`]).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::ResizeOutput;
/// fn fits<Y: ResizeOutput<shape![1, 5, 4, 3]>>() {}
/// fits::<shape![1, 7, 9, 3]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "resize/output: the output {Self} is not a resize of the input {X}: a resize keeps the batch (dim 0) and the channels (dim 3), [b, h, w, c] to [b, new_h, new_w, c]",
    label = "output {Self} does not keep the batch and channels of {X}"
)]
#[doc(hidden)]
pub trait ResizeOutput<X: FixedShape>: FixedShape {}

#[diagnostic::do_not_recommend]
impl<B, H, W, C, OB, OH, OW, OC> ResizeOutput<(B, H, W, C)> for (OB, OH, OW, OC)
where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    OB: StaticDim + SameDim<B>,
    OH: StaticDim,
    OW: StaticDim,
    OC: StaticDim + SameDim<C>,
{
}

/// A resize's size rule on an input of `H × W` pixels to `OH × OW`: each
/// at least 1 and below `shapecheck_tflite::RESIZE_SIZE_LIMIT` (2^20,
/// TFLite's integer sampling; `resize/size`). [`CHECK`](Self::CHECK)
/// fails the build otherwise.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::ResizeCheck;
/// let () = ResizeCheck::<Dim<5>, Dim<4>, Dim<7>, Dim<9>>::CHECK;
/// ```
pub struct ResizeCheck<H, W, OH, OW>(PhantomData<(H, W, OH, OW)>);

impl<H: StaticDim, W: StaticDim, OH: StaticDim, OW: StaticDim> ResizeCheck<H, W, OH, OW> {
    const SIZES: [usize; 4] = [H::SIZE, W::SIZE, OH::SIZE, OW::SIZE];
    const OK: bool = {
        let mut ok = true;
        let mut rest: &[usize] = &Self::SIZES;
        while let [size, tail @ ..] = rest {
            ok = ok && *size >= 1 && *size < shapecheck_tflite::RESIZE_SIZE_LIMIT;
            rest = tail;
        }
        ok
    };
    const MSG: Msg = Msg::new()
        .push("resize/size: a resize of ")
        .push_sizes(&[H::SIZE, W::SIZE])
        .push(" pixels to ")
        .push_sizes(&[OH::SIZE, OW::SIZE])
        .push(": every height and width must be 1 to 2^20 - 1 (TFLite's integer sampling)");
    /// Fails const evaluation when a height or width is 0 or 2^20 or more.
    pub const CHECK: () = if !Self::OK {
        const_fail(text(&Self::MSG, "resize/size"))
    };
}

/// A transposed convolution's input `Self`, `[batch, h, w, c]`, fits its
/// filter `F`, `[out, kh, kw, c]`: the input's channels are the filter's
/// last dim (`transpose_conv/channels`, a compile error naming both
/// shapes).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::TransposeConvChannels;
/// fn fits<X: TransposeConvChannels<shape![5, 3, 3, 3]>>() {}
/// fits::<shape![1, 4, 5, 3]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "transpose_conv/channels: input {Self} and filter {F} do not fit: the input's channels (its last dim) must be the filter's input channels (its last dim), [batch, h, w, c] and [out, kh, kw, c]",
    label = "input {Self} does not fit filter {F}: feed it a layer whose output has the filter's input channels"
)]
#[doc(hidden)]
pub trait TransposeConvChannels<F: FixedShape>: FixedShape {}

#[diagnostic::do_not_recommend]
impl<B, H, W, C, O, KH, KW, CI> TransposeConvChannels<(O, KH, KW, CI)> for (B, H, W, C)
where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim + SameDim<CI>,
    O: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    CI: StaticDim,
{
}

/// A transposed convolution's output `Self`, `[batch, oh, ow, out]`, on
/// the input `X` with the filter `F`, `[out, kh, kw, c]`: the input's
/// batch, the filter's `out` channels (`transpose_conv/output`, a compile
/// error naming the three shapes). Its rows and columns are
/// [`TransposeConvCheck`]'s.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::TransposeConvOutput;
/// fn fits<Y: TransposeConvOutput<shape![1, 4, 5, 3], shape![5, 3, 3, 3]>>() {}
/// fits::<shape![1, 8, 10, 5]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "transpose_conv/output: the output {Self} of input {X} and filter {F}: its batch must be the input's, its channels the filter's output channels (its first dim), [b, oh, ow, out] of [b, h, w, c] and [out, kh, kw, c]",
    label = "output {Self} does not keep the batch of {X} or have the output channels of {F}"
)]
#[doc(hidden)]
pub trait TransposeConvOutput<X: FixedShape, F: FixedShape>: FixedShape {}

#[diagnostic::do_not_recommend]
impl<B, H, W, C, O, KH, KW, CI, OB, OH, OW, OC> TransposeConvOutput<(B, H, W, C), (O, KH, KW, CI)>
    for (OB, OH, OW, OC)
where
    B: StaticDim,
    H: StaticDim,
    W: StaticDim,
    C: StaticDim,
    O: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    CI: StaticDim,
    OB: StaticDim + SameDim<B>,
    OH: StaticDim,
    OW: StaticDim,
    OC: StaticDim + SameDim<O>,
{
}

/// A transposed convolution's size rule, TFLite's (and TensorFlow's
/// `conv2d_transpose`'s): the output `[_, OH, OW, _]` the caller wrote is
/// one that a convolution of the same `[KH, KW]` filter, strides and
/// padding `P` takes back to the input's `[H, W]`, each axis
/// `conv_output(OH, KH, stride) == H` (the convolution's one rule,
/// [`conv_output`]; Keras's `SAME` gives `H · stride`, `VALID`
/// `H · stride + max(KH − stride, 0)`), and no dilation
/// (`transpose_conv/output-size`, `transpose_conv/dilation`).
/// [`CHECK`](Self::CHECK) fails the build otherwise.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{Same, TransposeConvCheck, Valid};
/// // transpose_conv_3x3_s2_same_bias.tflite: 4 × 5 to 8 × 10
/// let () = TransposeConvCheck::<Dim<4>, Dim<5>, Dim<8>, Dim<10>, Dim<3>, Dim<3>, Same<2, 2>>::CHECK;
/// // VALID, a 3-tap filter of stride 2: 4 to 9
/// let () = TransposeConvCheck::<Dim<4>, Dim<4>, Dim<9>, Dim<9>, Dim<3>, Dim<3>, Valid<2, 2>>::CHECK;
/// ```
#[allow(clippy::type_complexity)]
pub struct TransposeConvCheck<H, W, OH, OW, KH, KW, P>(PhantomData<(H, W, OH, OW, KH, KW, P)>);

impl<H, W, OH, OW, KH, KW, P> TransposeConvCheck<H, W, OH, OW, KH, KW, P>
where
    H: StaticDim,
    W: StaticDim,
    OH: StaticDim,
    OW: StaticDim,
    KH: StaticDim,
    KW: StaticDim,
    P: ConvPadding,
{
    /// What the convolution back from the output gives, rows and columns.
    const BACK: [usize; 2] = [
        match conv_output(P::SAME, OH::SIZE, KH::SIZE, P::STRIDE_H, 1) {
            Some((rows, _)) => rows,
            None => 0,
        },
        match conv_output(P::SAME, OW::SIZE, KW::SIZE, P::STRIDE_W, 1) {
            Some((columns, _)) => columns,
            None => 0,
        },
    ];
    // a stride of 0 gives no convolution back (`conv_output` is `None`)
    const OK: bool = P::STRIDE_H >= 1
        && P::STRIDE_W >= 1
        && Self::BACK[0] == H::SIZE
        && Self::BACK[1] == W::SIZE;
    const DILATION_MSG: Msg = Msg::new()
        .push("transpose_conv/dilation: a transposed convolution's dilations are 1 (TFLite's has none), not ")
        .push_sizes(&[P::DILATION_H, P::DILATION_W]);
    const SIZE_MSG: Msg = Msg::new()
        .push("transpose_conv/output-size: the output's rows and columns ")
        .push_sizes(&[OH::SIZE, OW::SIZE])
        .push(" do not go back to the input's ")
        .push_sizes(&[H::SIZE, W::SIZE])
        .push(" under a filter of ")
        .push_sizes(&[KH::SIZE, KW::SIZE])
        .push(", strides ")
        .push_sizes(&[P::STRIDE_H, P::STRIDE_W])
        .push(if P::SAME {
            " and SAME padding (they give "
        } else {
            " and VALID padding (they give "
        })
        .push_sizes(&Self::BACK)
        .push("); SAME: in · stride, VALID: in · stride + max(filter - stride, 0)");
    /// Fails const evaluation when the output's size breaks the rule.
    pub const CHECK: () = if P::DILATION_H != 1 || P::DILATION_W != 1 {
        const_fail(text(&Self::DILATION_MSG, "transpose_conv/dilation"))
    } else if !Self::OK {
        const_fail(text(&Self::SIZE_MSG, "transpose_conv/output-size"))
    };
}

/// `SLICE`'s rule on an input `X`, the box's first element along each
/// axis `B0`, … (at most `shapecheck_tflite::MAX_SLICE_RANK` = 5 dims;
/// the ones past `X`'s rank 0) and the output `Y`, the box's size: the
/// same rank, each box within its axis
/// (`shapecheck_tflite::slice_ends_within`: `begin + size ≤ dim`;
/// `slice/bounds`, naming both shapes and the begins).
/// [`CHECK`](Self::CHECK) fails the build otherwise.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::SliceCheck;
/// // slice.tflite: begin [0, 1, 2, 1], size [1, 3, 4, 2] of [1, 5, 6, 4]
/// let () = SliceCheck::<shape![1, 5, 6, 4], shape![1, 3, 4, 2], 0, 1, 2, 1, 0>::CHECK;
/// ```
pub struct SliceCheck<
    X,
    Y,
    const B0: usize,
    const B1: usize,
    const B2: usize,
    const B3: usize,
    const B4: usize,
>(PhantomData<(X, Y)>);

// constants: every index is below the length the loop checks
#[allow(clippy::indexing_slicing)]
impl<
        X: FixedShape,
        Y: FixedShape,
        const B0: usize,
        const B1: usize,
        const B2: usize,
        const B3: usize,
        const B4: usize,
    > SliceCheck<X, Y, B0, B1, B2, B3, B4>
{
    const BEGIN: [usize; shapecheck_tflite::MAX_SLICE_RANK] = [B0, B1, B2, B3, B4];
    const RANK: usize = X::DIMS.len();
    const OK: bool = {
        let (x, y) = (X::DIMS, Y::DIMS);
        let mut ok = x.len() == y.len() && x.len() <= Self::BEGIN.len();
        let mut k = 0;
        while ok && k < Self::BEGIN.len() {
            ok = if k < x.len() {
                shapecheck_tflite::slice_ends_within(x[k], Self::BEGIN[k], y[k])
            } else {
                Self::BEGIN[k] == 0
            };
            k += 1;
        }
        ok
    };
    const MSG: Msg = Msg::new()
        .push("slice/bounds: the output ")
        .push_sizes(Y::DIMS)
        .push(" from ")
        .push_sizes(
            Self::BEGIN
                .split_at(if Self::RANK < 5 { Self::RANK } else { 5 })
                .0,
        )
        .push(" is not within the input ")
        .push_sizes(X::DIMS)
        .push(": the same rank (at most 5), and on each axis begin + size <= dim");
    /// Fails const evaluation when the box leaves the input.
    pub const CHECK: () = if !Self::OK {
        const_fail(text(&Self::MSG, "slice/bounds"))
    };
}

/// `SPLIT`'s rule on an input `X` cut into `N` equal pieces along `AXIS`
/// (negative from the end), each of the shape `Y` the caller wrote: the
/// same rank, the dims off the axis equal, and on the axis `N` (1 to
/// `shapecheck_tflite::MAX_SPLITS` = 16) divides the input's dim into
/// `Y`'s (`shapecheck_tflite::split_piece`; `split/output`, naming both
/// shapes). [`CHECK`](Self::CHECK) fails the build otherwise.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::SplitCheck;
/// // split_3.tflite: [1, 5, 4, 6] in 3 on axis -1
/// let () = SplitCheck::<shape![1, 5, 4, 6], shape![1, 5, 4, 2], -1, 3>::CHECK;
/// ```
pub struct SplitCheck<X, Y, const AXIS: isize, const N: usize>(PhantomData<(X, Y)>);

// constants: every index is below the length the loop checks
#[allow(clippy::indexing_slicing)]
impl<X: FixedShape, Y: FixedShape, const AXIS: isize, const N: usize> SplitCheck<X, Y, AXIS, N> {
    const AXIS_INDEX: Option<usize> = resolve_axis(AXIS, X::DIMS.len());
    const OK: bool = {
        let (x, y) = (X::DIMS, Y::DIMS);
        let mut ok = x.len() == y.len() && Self::AXIS_INDEX.is_some();
        let mut k = 0;
        while ok && k < x.len() {
            ok = match Self::AXIS_INDEX {
                Some(axis) if axis == k => {
                    matches!(shapecheck_tflite::split_piece(x[k], N), Some(piece) if piece == y[k])
                }
                _ => x[k] == y[k],
            };
            k += 1;
        }
        ok
    };
    const MSG: Msg = Msg::new()
        .push("split/output: the input ")
        .push_sizes(X::DIMS)
        .push(" cut into ")
        .push_num(N)
        .push(" along axis ")
        .push(if AXIS < 0 { "-" } else { "" })
        .push_num(AXIS.unsigned_abs())
        .push(" does not give pieces of ")
        .push_sizes(Y::DIMS)
        .push(": the same rank, the dims off the axis equal, the axis's dim / pieces (1 to 16 pieces, which divide it)");
    /// Fails const evaluation when the pieces are not the input's cut.
    pub const CHECK: () = if !Self::OK {
        const_fail(text(&Self::MSG, "split/output"))
    };
}
