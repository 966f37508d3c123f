//! The activation buffers of a model's `predict`: [`PingPong`], two arrays
//! a chain of layers writes into in turn, each layer reading the one the
//! layer before wrote. Each array is seen as a tensor of the shape its
//! layer writes (a prefix of it, `S::NUMEL` elements, at most the array's
//! length: a constant assertion), and the shape a buffer holds is carried
//! by a proof ([`InA`], [`InB`]) that the next layer's read must present,
//! so that a layer reading its input under another shape than the one
//! written is a compile error, as a miswired layer is.

use core::marker::PhantomData;

use crate::error::Msg;
use crate::ops::const_fail;
use crate::shape::FixedShape;
use crate::tensor::Tensor;

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

/// The constant assertion that a shape fits a buffer.
struct Fits<S, const N: usize>(PhantomData<S>);

impl<S: FixedShape, const N: usize> Fits<S, N> {
    const MSG: Msg = Msg::new()
        .push("ping_pong/capacity: a tensor of ")
        .push_sizes(S::DIMS)
        .push(" holds ")
        .push_num(S::NUMEL)
        .push(" elements, more than the buffer's ")
        .push_num(N);
    const CHECK: () = if S::NUMEL > N {
        const_fail(
            match core::str::from_utf8(Self::MSG.buf.split_at(Self::MSG.len).0) {
                Ok(s) => s,
                Err(_) => "ping_pong/capacity",
            },
        )
    };
}

/// The first `S::NUMEL` elements of `buf` as a tensor of shape `S`
/// ([`Fits`] has checked that there are that many).
fn view<T: Copy, S: FixedShape, const N: usize>(buf: &[T; N]) -> Tensor<T, S, &[T]> {
    let () = Fits::<S, N>::CHECK;
    let (used, _) = buf.split_at(S::NUMEL.min(N));
    Tensor::from_parts_unchecked(S::default(), used)
}

/// [`view`], mutably.
fn view_mut<T: Copy, S: FixedShape, const N: usize>(buf: &mut [T; N]) -> Tensor<T, S, &mut [T]> {
    let () = Fits::<S, N>::CHECK;
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
