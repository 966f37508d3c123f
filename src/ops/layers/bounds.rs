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
use crate::dim::{One, StaticDim};
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

/// The depthwise convolution's rule on an input `[_, H, W, CI]`, a filter
/// `[KH, KW, C]` with padding, strides and dilations `P` and the output
/// `[_, OH, OW, C]` the caller wrote: `C` a multiple of `CI` (the depth
/// multiplier `C / CI`), and `OH`, `OW` what [`conv_output`] gives.
/// [`CHECK`](Self::CHECK) fails the build otherwise.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::layers::{DepthwiseConvCheck, Same, Valid};
/// // speech.tflite's layer: [1, 49, 40, 1], a 10 × 8 × 8 filter, SAME, stride 2 → [1, 25, 20, 8]
/// let () = DepthwiseConvCheck::<Dim<49>, Dim<40>, One, Dim<25>, Dim<20>, Dim<10>, Dim<8>, Dim<8>, Same<2, 2>>::CHECK;
/// // dilation 2: a 3 × 3 filter covers 5 × 5, VALID on 7 × 7 → 3 × 3
/// let () = DepthwiseConvCheck::<Dim<7>, Dim<7>, Dim<2>, Dim<3>, Dim<3>, Dim<3>, Dim<3>, Dim<4>, Valid<1, 1, 2, 2>>::CHECK;
/// ```
// one type parameter per size the rule reads: a tuple of nine, by design
#[allow(clippy::type_complexity)]
pub struct DepthwiseConvCheck<H, W, CI, OH, OW, KH, KW, C, P>(
    PhantomData<(H, W, CI, OH, OW, KH, KW, C, P)>,
);

impl<H, W, CI, OH, OW, KH, KW, C, P> DepthwiseConvCheck<H, W, CI, OH, OW, KH, KW, C, P>
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
{
    const SIZES: ([usize; 2], [usize; 2], [usize; 2]) = (
        [OH::SIZE, OW::SIZE],
        [H::SIZE, W::SIZE],
        [KH::SIZE, KW::SIZE],
    );
    const CHANNELS_OK: bool = CI::SIZE > 0 && C::SIZE % CI::SIZE == 0 && C::SIZE > 0;
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
        .push(" do not fit: the filter's channels (its last dim) must be a multiple (at least 1) of the input's (its last dim), [batch, h, w, c] and [kh, kw, c · m]");
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
