//! The gradients of the elementwise family: from the forward's X, Y and
//! output and the upstream gradient `dout` (the output's shape), X's and
//! Y's gradients, each of its operand's shape.
//!
//! The rule, per output element, with `dz = dout · act'(out)` (Paddle
//! applies the activation as its own op on the op's output, and takes its
//! derivative from that output: relu `out > 0`, tanh `1 - out²`, sigmoid
//! `out · (1 - out)`):
//!
//! | op | dX | dY |
//! |---|---|---|
//! | mul | `dz · y` | `dz · x` |
//! | add | `dz` | `dz` |
//! | sub | `dz` | `-dz` |
//! | div | `dz / y` | `-(dz · z) / y`, `z = x / y` (Paddle's form, from the op's output) |
//! | max | `dz` where `x > y`, `dz / 2` where equal | `dz` where `y > x`, `dz / 2` where equal |
//! | min | `dz` where `x < y`, `dz / 2` where equal | `dz` where `y < x`, `dz / 2` where equal |
//!
//! and each operand's gradient is summed back to its own shape: over every
//! output dim where the operand, placed by the axis rule, is absent or 1
//! (the broadcast read backwards). The kernel walks the forward's own walk
//! once ([`crate::kernel::binary_backward`]): the operand's offset is where
//! its gradient goes, summed where it broadcasts (stride 0), with no
//! intermediate of the output's size.
//!
//! Max and min split a tie evenly (0.5 each), as the recorded vectors do.
//! PaddlePaddle 3.3.1's own max/min grad op ignores `axis` (it right-aligns
//! Y, and errors or returns gradients that are not the derivative of the
//! output when `axis` places Y elsewhere); here, as for
//! every op, the gradient is the derivative of the output with Y where the
//! axis placed it.
//!
//! Forms: [`Tensor::elementwise_backward`] (static shapes, cannot fail;
//! a `dout` of another shape than the output's is the compile error
//! `elementwise/dout-shape` by [`ElementwiseDout`](super::ElementwiseDout),
//! naming both shapes; `out` is typed as the output), [`Tensor::elementwise_backward_into`] (caller's
//! buffers, no heap), [`Tensor::try_elementwise_backward`] and
//! [`Tensor::try_elementwise_backward_into`] (run-time dims, every check
//! before anything is written), [`DynTensor::elementwise_backward`](crate::DynTensor::elementwise_backward)
//! and [`elementwise_backward_slices`].

use super::api::ElementwiseOutput;
use super::bounds::ElementwiseShapes;
use super::kernel::Frames;
use super::{rule, Activation, ActivationKind, Axis, BinaryOp, BinaryOpKind, ElementwiseError};
use crate::broadcast::Frame;
use crate::dims::Dims;
use crate::element::Element;
use crate::kernel::plan::{walk, Planned};
use crate::kernel::{self, Walk};
use crate::ops::StaticShape;
use crate::shape::Shape;
use crate::storage::{OwnedStorage, ResultStorage, Storage, StorageMut};
use crate::tensor::Tensor;

/// The gradients of X (shape `S`, storage `B`) and Y (`Y`, `BY`), each
/// stored as its operand's shape says ([`ResultStorage`]).
pub type ElementwiseGrads<T, S, B, Y, BY> = (
    Tensor<T, S, <B as ResultStorage<T, S>>::Out>,
    Tensor<T, Y, <BY as ResultStorage<T, Y>>::Out>,
);

/// X's gradient's shape in [`Tensor::elementwise_backward`]'s result: `S`,
/// once `dout`'s shape `D` passes [`ElementwiseDoutRule`] (named in the
/// return type, so that a wrong `dout` is one error by the rule's message).
pub type DoutX<D, S, Y, const AXIS: isize> =
    <D as ElementwiseDoutRule<ElementwiseOutput<S, Y, AXIS>, S, Y, Axis<AXIS>>>::X;

/// The rule, then `out`'s and `dout`'s dims against the output's: the
/// checks of every run-time form, before anything is written.
pub(super) fn checked_frame(
    x: &[usize],
    y: &[usize],
    axis: isize,
    out: &[usize],
    dout: &[usize],
) -> Result<Frame<2>, ElementwiseError> {
    let f = rule::frame(x, y, axis)?;
    let expected = f.out_dims();
    for (tensor, dims) in [("out", out), ("dout", dout)] {
        if expected.as_slice() != dims {
            return Err(ElementwiseError::GradShape {
                tensor,
                expected,
                found: Dims::new(dims)?,
            });
        }
    }
    Ok(f)
}

/// X's and Y's gradients along the forward's `walk` (see the module docs):
/// `gx` and `gy` have X's and Y's lengths, `out` and `dout` the output's.
/// The activation is chosen here, outside the loops, so that each
/// (activation, op) pair gets its own loop even when both are run-time
/// values (the dynamic path): `dz = dout · act'(out)`, Paddle's activation
/// grad functors.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn run<T: GradElement>(
    op: BinaryOpKind,
    act: ActivationKind,
    walk: &Walk<2>,
    x: &[T],
    y: &[T],
    out: &[T],
    dout: &[T],
    gx: &mut [T],
    gy: &mut [T],
) {
    let zero = T::default();
    let one = T::from_f64(1.0);
    let args = (walk, x, y, out, dout);
    match act {
        ActivationKind::Identity => by_op(op, args, gx, gy, |_, d| d),
        ActivationKind::Relu => by_op(
            op,
            args,
            gx,
            gy,
            move |o: T, d| if o > zero { d } else { zero },
        ),
        ActivationKind::Tanh => by_op(op, args, gx, gy, move |o: T, d| {
            T::mul(d, T::sub(one, T::mul(o, o)))
        }),
        ActivationKind::Sigmoid => by_op(op, args, gx, gy, move |o: T, d| {
            T::mul(T::mul(d, o), T::sub(one, o))
        }),
    }
}

/// The walk and the slices the backward reads: walk, x, y, out, dout.
type Reads<'a, T> = (&'a Walk<2>, &'a [T], &'a [T], &'a [T], &'a [T]);

/// [`run`] for one activation (`dz(out, dout)`): the op's rule table.
#[inline(always)]
fn by_op<T: GradElement>(
    op: BinaryOpKind,
    (walk, x, y, out, dout): Reads<'_, T>,
    gx: &mut [T],
    gy: &mut [T],
    dz: impl Fn(T, T) -> T + Copy,
) {
    let zero = T::default();
    let half = T::from_f64(0.5);
    match op {
        BinaryOpKind::Mul => {
            kernel::binary_backward(walk, x, y, out, dout, gx, gy, T::add, |a, b, o, d| {
                let d = dz(o, d);
                (T::mul(d, b), T::mul(d, a))
            })
        }
        BinaryOpKind::Add => {
            kernel::binary_backward(walk, x, y, out, dout, gx, gy, T::add, |_, _, o, d| {
                let d = dz(o, d);
                (d, d)
            })
        }
        BinaryOpKind::Sub => {
            kernel::binary_backward(walk, x, y, out, dout, gx, gy, T::add, |_, _, o, d| {
                let d = dz(o, d);
                (d, T::sub(zero, d))
            })
        }
        BinaryOpKind::Div => {
            kernel::binary_backward(walk, x, y, out, dout, gx, gy, T::add, |a, b, o, d| {
                let d = dz(o, d);
                // the op's own output (before the activation), as the forward computed it
                let z = T::div(a, b);
                (T::div(d, b), T::div(T::sub(zero, T::mul(d, z)), b))
            })
        }
        BinaryOpKind::Max => {
            kernel::binary_backward(walk, x, y, out, dout, gx, gy, T::add, |a, b, o, d| {
                let d = dz(o, d);
                if a > b {
                    (d, zero)
                } else if b > a {
                    (zero, d)
                } else {
                    (T::mul(d, half), T::mul(d, half))
                }
            })
        }
        BinaryOpKind::Min => {
            kernel::binary_backward(walk, x, y, out, dout, gx, gy, T::add, |a, b, o, d| {
                let d = dz(o, d);
                if a < b {
                    (d, zero)
                } else if b < a {
                    (zero, d)
                } else {
                    (T::mul(d, half), T::mul(d, half))
                }
            })
        }
    }
}

impl<T: Element, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// The gradients of `act(op(self, y))` at `axis` (Paddle's elementwise
    /// grad ops, see the [module docs](crate::ops::elementwise) and the
    /// rule table in `backward.rs`): given the forward's `out` and the
    /// upstream gradient `dout`, returns `(dx, dy)` typed as `self` and `y`,
    /// each summed back over the dims where its operand broadcast. Every
    /// shape static: a shape rule broken is the forward's compile error, a
    /// `dout` of another shape than the output's is the compile error
    /// `elementwise/dout-shape` naming both shapes
    /// ([`ElementwiseDout`]), `out` has the
    /// output's type ([`ElementwiseOutput`]), and the call cannot fail. Run-time dims: the
    /// `try_` form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::Mul;
    /// let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// let y = tensor![10.0f32, 20.0]; // placed at axis 0: y[i] scales row i
    /// let out = x.elementwise_mul(&y, Axis::<0>, Identity);
    /// let dout = Tensor::<f32, shape![2, 3]>::full(1.0);
    /// let (dx, dy) = x.elementwise_backward(Mul, &y, &out, &dout, Axis::<0>, Identity);
    /// assert_eq!(dx.as_slice(), &[10.0, 10.0, 10.0, 20.0, 20.0, 20.0]); // dout · y
    /// let dy: Tensor<f32, shape![2]> = dy; // y's shape: dout · x summed over each row
    /// assert_eq!(dy.as_slice(), &[6.0, 15.0]);
    /// ```
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    pub fn elementwise_backward<Op, A, Y, BY, BO, D, BD, const AXIS: isize>(
        &self,
        _op: Op,
        y: &Tensor<T, Y, BY>,
        out: &Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
        dout: &Tensor<T, D, BD>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> ElementwiseGrads<T, DoutX<D, S, Y, AXIS>, B, Y, BY>
    where
        T: GradElement,
        Op: BinaryOp,
        A: Activation,
        S: StaticShape + ElementwiseShapes<Y, AXIS>,
        Y: StaticShape,
        D: Shape + ElementwiseDoutRule<ElementwiseOutput<S, Y, AXIS>, S, Y, Axis<AXIS>>,
        BO: Storage<T>,
        BD: Storage<T>,
        B: ResultStorage<T, DoutX<D, S, Y, AXIS>>,
        BY: ResultStorage<T, Y>,
    {
        let shape = D::x(self.shape());
        let mut gx = Tensor::from_parts_unchecked(shape, B::Out::filled(&shape, T::default()));
        let mut gy =
            Tensor::from_parts_unchecked(*y.shape(), BY::Out::filled(y.shape(), T::default()));
        run(
            Op::KIND,
            A::KIND,
            &Planned::<Frames<S, Y, AXIS>, 2>::WALK,
            self.as_slice(),
            y.as_slice(),
            out.as_slice(),
            dout.as_slice(),
            gx.as_mut_slice(),
            gy.as_mut_slice(),
        );
        (gx, gy)
    }

    /// [`elementwise_backward`](Self::elementwise_backward) writing `dx` and
    /// `dy` into `gx` and `gy` (any storage, a caller's buffers included: no
    /// heap). Every shape static; the call cannot fail.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::Add;
    /// let x = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    /// let y = tensor![1.0f32, 1.0];
    /// let out = x.elementwise_add(&y, Axis::<-1>, Relu);
    /// let dout = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    /// let (mut bx, mut by) = ([0.0f32; 4], [0.0f32; 2]);
    /// let mut gx = Tensor::<f32, shape![2, 2], &mut [f32]>::from_storage(&mut bx[..]).unwrap();
    /// let mut gy = Tensor::<f32, shape![2], &mut [f32]>::from_storage(&mut by[..]).unwrap();
    /// x.elementwise_backward_into(Add, &y, &out, &dout, Axis::<-1>, Relu, &mut gx, &mut gy);
    /// assert_eq!(bx, [1.0, 2.0, 3.0, 4.0]);
    /// assert_eq!(by, [4.0, 6.0]); // summed over the rows y broadcast along
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn elementwise_backward_into<Op, A, Y, BY, BO, D, BD, BGX, BGY, const AXIS: isize>(
        &self,
        _op: Op,
        y: &Tensor<T, Y, BY>,
        out: &Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
        dout: &Tensor<T, D, BD>,
        _axis: Axis<AXIS>,
        _act: A,
        gx: &mut Tensor<T, DoutX<D, S, Y, AXIS>, BGX>,
        gy: &mut Tensor<T, Y, BGY>,
    ) where
        T: GradElement,
        Op: BinaryOp,
        A: Activation,
        S: StaticShape + ElementwiseShapes<Y, AXIS>,
        Y: StaticShape,
        D: Shape + ElementwiseDoutRule<ElementwiseOutput<S, Y, AXIS>, S, Y, Axis<AXIS>>,
        BY: Storage<T>,
        BO: Storage<T>,
        BD: Storage<T>,
        BGX: StorageMut<T>,
        BGY: StorageMut<T>,
    {
        run(
            Op::KIND,
            A::KIND,
            &Planned::<Frames<S, Y, AXIS>, 2>::WALK,
            self.as_slice(),
            y.as_slice(),
            out.as_slice(),
            dout.as_slice(),
            gx.as_mut_slice(),
            gy.as_mut_slice(),
        );
    }

    /// [`elementwise_backward`](Self::elementwise_backward) for any shapes,
    /// run-time dims included: the static part of the rule (and `dout`'s
    /// shape type, the output's) checked by the compiler, the rest here, before anything
    /// is allocated: the forward's rule, then `out`'s and `dout`'s dims
    /// against the output's (`elementwise/dout-shape`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::Sub;
    /// let x = Tensor::<f64, shape![Dyn, 2], Vec<f64>>::from_vec((Dyn(2), Dim), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let y = Tensor::<f64, shape![2]>::from_array([1.0, 1.0]);
    /// let out = x.try_elementwise_sub(&y, Axis::<-1>, Identity).unwrap();
    /// let (dx, dy) = x.try_elementwise_backward(Sub, &y, &out, &out, Axis::<-1>, Identity).unwrap();
    /// assert_eq!(dx.as_slice(), out.as_slice());
    /// assert_eq!(dy.as_slice(), &[-2.0, -4.0]); // -dout summed over the rows
    /// // a dout of 3 rows: the output has 2
    /// let dout3 = Tensor::<f64, shape![Dyn, 2], Vec<f64>>::from_vec((Dyn(3), Dim), vec![0.0; 6]).unwrap();
    /// let err = x.try_elementwise_backward(Sub, &y, &out, &dout3, Axis::<-1>, Identity).unwrap_err();
    /// assert_eq!(err.rule(), "elementwise/dout-shape");
    /// ```
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    pub fn try_elementwise_backward<Op, A, Y, BY, BO, D, BD, const AXIS: isize>(
        &self,
        op: Op,
        y: &Tensor<T, Y, BY>,
        out: &Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
        dout: &Tensor<T, D, BD>,
        axis: Axis<AXIS>,
        act: A,
    ) -> Result<ElementwiseGrads<T, DoutX<D, S, Y, AXIS>, B, Y, BY>, ElementwiseError>
    where
        T: GradElement,
        Op: BinaryOp,
        A: Activation,
        S: ElementwiseShapes<Y, AXIS>,
        Y: Shape,
        D: Shape + ElementwiseDoutRule<ElementwiseOutput<S, Y, AXIS>, S, Y, Axis<AXIS>>,
        BO: Storage<T>,
        BD: Storage<T>,
        B: ResultStorage<T, DoutX<D, S, Y, AXIS>>,
        BY: ResultStorage<T, Y>,
    {
        // every check first: nothing is allocated for inputs they reject
        checked_frame(&self.dims(), &y.dims(), AXIS, &out.dims(), &dout.dims())?;
        let shape = D::x(self.shape());
        let mut gx = Tensor::from_parts_unchecked(shape, B::Out::try_filled(&shape, T::default())?);
        let mut gy =
            Tensor::from_parts_unchecked(*y.shape(), BY::Out::try_filled(y.shape(), T::default())?);
        self.try_elementwise_backward_into(op, y, out, dout, axis, act, &mut gx, &mut gy)?;
        Ok((gx, gy))
    }

    /// [`try_elementwise_backward`](Self::try_elementwise_backward) writing
    /// into `gx` and `gy` (any storage), whose dims must be X's and Y's
    /// (`shape/output`); every check is made before anything is written.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::Max;
    /// let x = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![1.0, 5.0, 2.0]).unwrap();
    /// let y = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![3.0, 1.0, 2.0]).unwrap();
    /// let out = x.try_elementwise_max(&y, Axis::<-1>, Identity).unwrap();
    /// let dout = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![1.0, 1.0, 1.0]).unwrap();
    /// let mut gx = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![0.0; 3]).unwrap();
    /// let mut gy = gx.clone();
    /// x.try_elementwise_backward_into(Max, &y, &out, &dout, Axis::<-1>, Identity, &mut gx, &mut gy).unwrap();
    /// assert_eq!(gx.as_slice(), &[0.0, 1.0, 0.5]); // a tie splits evenly
    /// assert_eq!(gy.as_slice(), &[1.0, 0.0, 0.5]);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn try_elementwise_backward_into<Op, A, Y, BY, BO, D, BD, BGX, BGY, const AXIS: isize>(
        &self,
        _op: Op,
        y: &Tensor<T, Y, BY>,
        out: &Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
        dout: &Tensor<T, D, BD>,
        _axis: Axis<AXIS>,
        _act: A,
        gx: &mut Tensor<T, DoutX<D, S, Y, AXIS>, BGX>,
        gy: &mut Tensor<T, Y, BGY>,
    ) -> Result<(), ElementwiseError>
    where
        T: GradElement,
        Op: BinaryOp,
        A: Activation,
        S: ElementwiseShapes<Y, AXIS>,
        Y: Shape,
        D: Shape + ElementwiseDoutRule<ElementwiseOutput<S, Y, AXIS>, S, Y, Axis<AXIS>>,
        BY: Storage<T>,
        BO: Storage<T>,
        BD: Storage<T>,
        BGX: StorageMut<T>,
        BGY: StorageMut<T>,
    {
        let f = checked_frame(&self.dims(), &y.dims(), AXIS, &out.dims(), &dout.dims())?;
        self.dims().expect_output(gx.dims())?;
        y.dims().expect_output(gy.dims())?;
        run(
            Op::KIND,
            A::KIND,
            &walk(&f),
            self.as_slice(),
            y.as_slice(),
            out.as_slice(),
            dout.as_slice(),
            gx.as_mut_slice(),
            gy.as_mut_slice(),
        );
        Ok(())
    }
}

/// The backward without a heap, shapes given as values (the dynamic path
/// over slices, as [`elementwise_slices`](super::elementwise_slices) for the
/// forward): X's and Y's gradients of `act(op(x, y))` at `axis` into `gx`
/// and `gy` (X's and Y's lengths), from the forward's `out` and `dout` (the
/// output's length each). Every check is made before anything is written.
/// Returns the output dims.
///
/// ```
/// use shapecheck::{ActivationKind, BinaryOpKind};
/// use shapecheck::ops::elementwise::elementwise_backward_slices;
/// let (x, y) = ([1.0f32, 2.0, 3.0, 4.0], [2.0f32]);
/// let out = [2.0f32, 4.0, 6.0, 8.0];
/// let dout = [1.0f32; 4];
/// let (mut gx, mut gy) = ([0.0f32; 4], [0.0f32; 1]);
/// elementwise_backward_slices(BinaryOpKind::Mul, ActivationKind::Identity, &[2, 2], &x, &[1], &y, -1, &out, &dout, &mut gx, &mut gy).unwrap();
/// assert_eq!(gx, [2.0; 4]);
/// assert_eq!(gy, [10.0]); // 1 + 2 + 3 + 4
/// let err = elementwise_backward_slices(BinaryOpKind::Mul, ActivationKind::Identity, &[2, 2], &x, &[1], &y, -1, &out, &dout[..3], &mut gx, &mut gy).unwrap_err();
/// assert_eq!(err.rule(), "shape/data-length");
/// ```
#[allow(clippy::too_many_arguments)]
pub fn elementwise_backward_slices<T: GradElement>(
    op: BinaryOpKind,
    act: ActivationKind,
    x_dims: &[usize],
    x: &[T],
    y_dims: &[usize],
    y: &[T],
    axis: isize,
    out: &[T],
    dout: &[T],
    gx: &mut [T],
    gy: &mut [T],
) -> Result<Dims, ElementwiseError> {
    Dims::for_data(x_dims, x.len())?;
    Dims::for_data(y_dims, y.len())?;
    Dims::for_data(x_dims, gx.len())?;
    Dims::for_data(y_dims, gy.len())?;
    let f = rule::frame(x_dims, y_dims, axis)?;
    let out_dims = f.out_dims();
    Dims::for_data(&out_dims, out.len())?;
    Dims::for_data(&out_dims, dout.len())?;
    run(op, act, &walk(&f), x, y, out, dout, gx, gy);
    Ok(out_dims)
}

// ------------------------------------------------ the gradient's type-level rules

/// Elementwise backward, the upstream gradient's rule: `dout` (`Self`) has
/// the forward output's shape `Out` (of X, Y and the axis `Ax`). One blanket
/// impl, for `Out` itself. The backward reaches it through
/// [`ElementwiseDoutRule`] and a link, so that a wrong `dout` is one short
/// error by this message.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::elementwise::ElementwiseDout;
/// fn takes<D: ElementwiseDout<shape![2, 3], shape![2, 3], shape![3]>>() {}
/// takes::<shape![2, 3]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "elementwise/dout-shape: dout is {Self}, but the forward output of X {X} and Y {Y} is {Out}",
    label = "dout must have the forward output's shape",
    note = "the gradient flowing back into an op has the shape of the op's output"
)]
#[doc(hidden)]
pub trait ElementwiseDout<Out, X, Y> {}

#[diagnostic::do_not_recommend]
impl<Out, X, Y> ElementwiseDout<Out, X, Y> for Out {}

/// [`ElementwiseDout`] of `D` as a link with `Self = ()` (any `Self`),
/// which [`ElementwiseDoutRule`] requires (named in its compile error).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::elementwise::ElementwiseDoutLink;
/// fn takes<D>() where (): ElementwiseDoutLink<D, shape![2], shape![2], shape![2], Axis<-1>> {}
/// takes::<shape![2]>();
/// ```
#[doc(hidden)]
pub trait ElementwiseDoutLink<D, Out, X: Shape, Y, Ax> {
    /// `X`, once the rule holds.
    type X: Shape;
    /// `x`'s shape as [`Self::X`](ElementwiseDoutLink::X).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::elementwise::ElementwiseDoutLink;
    /// let s = <() as ElementwiseDoutLink<shape![2], shape![2], shape![2], shape![2], Axis<-1>>>::x(&Default::default());
    /// assert_eq!(s.dims().as_slice(), &[2]);
    /// ```
    fn x(x: &X) -> Self::X;
}

impl<P, D: ElementwiseDout<Out, X, Y>, Out, X: Shape, Y, Ax> ElementwiseDoutLink<D, Out, X, Y, Ax>
    for P
{
    type X = X;
    #[inline(always)]
    fn x(x: &X) -> X {
        *x
    }
}

/// The upstream gradient's rule as the backward states it: `Self` (dout's
/// shape) is the forward output's shape `Out` ([`ElementwiseDout`] carries
/// the message). Its [`X`](Self::X), X's shape once the rule holds, is the
/// type of X's gradient. One blanket impl.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::elementwise::ElementwiseDoutRule;
/// fn takes<D: ElementwiseDoutRule<shape![2], shape![2], shape![2], Axis<-1>>>() {}
/// takes::<shape![2]>();
/// ```
#[doc(hidden)]
pub trait ElementwiseDoutRule<Out, X: Shape, Y, Ax> {
    /// `X`, once the rule holds.
    type X: Shape;
    /// `x`'s shape as [`Self::X`](ElementwiseDoutRule::X).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::elementwise::ElementwiseDoutRule;
    /// let s = <shape![2] as ElementwiseDoutRule<shape![2], shape![2], shape![2], Axis<-1>>>::x(&Default::default());
    /// assert_eq!(s.dims().as_slice(), &[2]);
    /// ```
    fn x(x: &X) -> Self::X;
}

impl<D, Out, X: Shape, Y, Ax> ElementwiseDoutRule<Out, X, Y, Ax> for D
where
    (): ElementwiseDoutLink<D, Out, X, Y, Ax>,
{
    type X = <() as ElementwiseDoutLink<D, Out, X, Y, Ax>>::X;
    #[inline(always)]
    fn x(x: &X) -> Self::X {
        <() as ElementwiseDoutLink<D, Out, X, Y, Ax>>::x(x)
    }
}

/// Element types an elementwise gradient is defined for: `f32` and `f64`
/// (a derivative is a real number: integer tensors have no backward).
/// Sealed: [`Element`](crate::element::Element) cannot be implemented
/// outside shapecheck.
///
/// ```
/// use shapecheck::ops::elementwise::GradElement;
/// fn differentiable<T: GradElement>() {}
/// differentiable::<f32>();
/// differentiable::<f64>();
/// ```
#[diagnostic::on_unimplemented(
    message = "elementwise/grad-element: a backward on tensors of {Self}: gradients are defined for f32 and f64",
    label = "convert the tensors to f32 or f64"
)]
pub trait GradElement: crate::element::Element {}
#[diagnostic::do_not_recommend]
impl GradElement for f32 {}
#[diagnostic::do_not_recommend]
impl GradElement for f64 {}
