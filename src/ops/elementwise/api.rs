//! The static path: the elementwise methods of [`Tensor`] and the operators
//! `&x * &y`, `+`, `-`, `/` (numpy broadcasting, axis -1).
//!
//! Every method calls the kernel with a walk from the one rule
//! ([`super::rule::frame`]): a constant for all-static shapes, computed when
//! the op runs for shapes with `Dyn` dims (the `try_` forms, and the plain
//! forms where no `Dyn` dim needs a check: [`ElementwiseNoCheck`]).

use super::bounds::{ElementwiseNoCheck, ElementwiseShapes, NoCheckShape};
use super::kernel;
use super::{Activation, ActivationKind, Axis, BinaryOp, BinaryOpKind, ElementwiseError};
use crate::element::{Element, SameElement};
use crate::ops::elements::{Elements, SameRule, SameShape};
use crate::shape::{ProvenShape, Shape};
use crate::storage::{OwnedStorage, ResultStorage, Storage, StorageMut};
use crate::tensor::Tensor;

// The operators `&x * &y`, `+`, `-`, `/`, and the bound generic code
// writes; the operators with a number on one side (`&x * 2.0`, `2.0 * &x`).
mod named;
mod operators;
mod same_shape;
pub use operators::{
    BroadcastOf, BroadcastResult, BroadcastWith, FloatElement, LazyOperatorShapes, OperatorShapes,
};
pub use same_shape::{SameOperand, SameShapeForms};

/// The output type of `x (S) op y (Y)` at `AXIS`.
pub type ElementwiseOutput<S, Y, const AXIS: isize> = <S as ElementwiseShapes<Y, AXIS>>::Output;

/// The output type of a plain `_into` form: [`ElementwiseOutput`] once its
/// dims are proven by its type ([`ProvenShape`]).
pub type ProvenOutput<S, Y, const AXIS: isize> =
    <ElementwiseOutput<S, Y, AXIS> as ProvenShape>::Proven;

/// The result of an elementwise op on `x: Tensor<T, S, B>` and a `Y`-shaped
/// operand: stored as the output's shape says ([`ResultStorage`]).
pub type ElementwiseResult<T, S, B, Y, const AXIS: isize> = Result<
    Tensor<
        T,
        ElementwiseOutput<S, Y, AXIS>,
        <B as ResultStorage<T, ElementwiseOutput<S, Y, AXIS>>>::Out,
    >,
    ElementwiseError,
>;

impl<T: Element, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// `act(op(self, y))` with Paddle's axis rule, for any shapes (run-time
    /// dims included): the static rules are checked by the compiler, the rest
    /// at run time. The result's storage is chosen by its shape (a `Vec` if
    /// it has a `Dyn` dim; see [`crate::storage`]).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::Mul;
    /// let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// // Y [2] at axis 0: y[i] meets row i of x; relu clips the second row
    /// let y = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(2),), vec![10.0, -10.0]).unwrap();
    /// let z = x.try_elementwise(Mul, &y, Axis::<0>, Relu).unwrap();
    /// assert_eq!(z.as_slice(), &[10.0, 20.0, 30.0, 0.0, 0.0, 0.0]);
    /// // Y [3] at axis 0 meets x's 2 rows
    /// let y3 = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![1.0; 3]).unwrap();
    /// let err = x.try_elementwise(Mul, &y3, Axis::<0>, Identity).unwrap_err();
    /// assert_eq!(err.rule(), "elementwise/broadcast");
    /// ```
    pub fn try_elementwise<Op, A, TY, Y, BY, const AXIS: isize>(
        &self,
        op: Op,
        y: &Tensor<TY, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> ElementwiseResult<T, S, B, Y, AXIS>
    where
        Op: BinaryOp,
        A: Activation,
        TY: SameElement<T> + Copy,
        BY: Storage<TY>,
        Y: Shape,
        S: ElementwiseShapes<Y, AXIS>,
        B: ResultStorage<T, ElementwiseOutput<S, Y, AXIS>>,
    {
        // the rule first: nothing is allocated for shapes it rejects
        super::rule::frame(&self.dims(), &y.dims(), AXIS)?;
        let shape = S::output(self.shape(), y.shape());
        let mut out =
            Tensor::from_parts_unchecked(shape, B::Out::try_filled(&shape, T::default())?);
        self.try_elementwise_into(op, y, axis, act, &mut out)?;
        Ok(out)
    }

    /// Like [`try_elementwise`](Self::try_elementwise), writing into `out`
    /// (any storage, a caller's buffer included), whose shape must be the output's.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::Add;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let y = tensor![10.0f32, 20.0];
    /// let mut buf = [0.0f32; 4];
    /// let mut out = Tensor::<f32, shape![Dyn, 2], &mut [f32]>::with_dims(&[2, 2], &mut buf[..]).unwrap();
    /// x.try_elementwise_into(Add, &y, Axis::<-1>, Identity, &mut out).unwrap();
    /// assert_eq!(buf, [11.0, 22.0, 13.0, 24.0]);
    /// // an output of another shape is an error, and nothing is written
    /// let mut small = [0.0f32; 2];
    /// let mut out = Tensor::<f32, shape![Dyn, 2], &mut [f32]>::with_dims(&[1, 2], &mut small[..]).unwrap();
    /// let err = x.try_elementwise_into(Add, &y, Axis::<-1>, Identity, &mut out).unwrap_err();
    /// assert_eq!(err.rule(), "shape/output");
    /// assert_eq!(small, [0.0; 2]);
    /// ```
    pub fn try_elementwise_into<Op, A, TY, Y, BY, BO, const AXIS: isize>(
        &self,
        _op: Op,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
        out: &mut Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
    ) -> Result<(), ElementwiseError>
    where
        Op: BinaryOp,
        A: Activation,
        TY: SameElement<T> + Copy,
        BY: Storage<TY>,
        Y: Shape,
        S: ElementwiseShapes<Y, AXIS>,
        BO: StorageMut<T>,
    {
        let f = super::rule::frame(&self.dims(), &y.dims(), AXIS)?;
        f.out_dims().expect_output(out.dims())?;
        kernel::run(
            Op::KIND,
            A::KIND,
            &crate::kernel::plan::walk(&f),
            self.as_slice(),
            TY::same(y.as_slice()),
            out.as_mut_slice(),
        )
    }

    /// The core of the plain `_into` forms: no dim needs a run-time check
    /// and `out`'s type proves its dims, so the walk is a constant for
    /// static shapes (planned by the compiler for run-time rows too, see
    /// [`kernel::plain_walk`]) and nothing can fail but integer
    /// division by zero.
    #[inline(always)]
    /// `out` has the output's shape type (`O`, the callers' [`ProvenOutput`]).
    pub(super) fn plain_elementwise_into<TY, Y, BY, O, BO, const AXIS: isize>(
        &self,
        op: BinaryOpKind,
        act: ActivationKind,
        y: &Tensor<TY, Y, BY>,
        out: &mut Tensor<T, O, BO>,
    ) -> Result<(), ElementwiseError>
    where
        Y: Shape,
        BY: Storage<TY>,
        O: Shape,
        BO: StorageMut<T>,
        TY: SameElement<T> + Copy,
        S: ElementwiseNoCheck<Y, AXIS>,
    {
        let out_first = out.shape().first_size();
        let mut room = None;
        match kernel::plain_walk::<S, Y, AXIS>(self.shape(), y.shape(), out_first, &mut room) {
            Some(walk) => kernel::run(
                op,
                act,
                walk,
                self.as_slice(),
                TY::same(y.as_slice()),
                out.as_mut_slice(),
            ),
            // cannot happen (see `kernel::plain_walk`): `out` is left as it is
            None => Ok(()),
        }
    }

    /// The plain form every named op calls: a fresh output of the computed
    /// shape, filled along the walk of [`ElementwiseNoCheck`] (a constant for
    /// static shapes; from the rule when the op runs if a shape has a `Dyn`
    /// dim, which then meets only 1s or no dim, so nothing needs a check).
    #[inline(always)]
    fn plain_elementwise<TY, Y, BY, A, const AXIS: isize>(
        &self,
        op: BinaryOpKind,
        y: &Tensor<TY, Y, BY>,
    ) -> PlainResult<T, S, B, TY, Y, AXIS>
    where
        TY: Elements<T, SameRule, Y>,
        S: ElementwiseNoCheck<SameShape<TY, T, Y>, AXIS>,
        S: ElementwiseShapes<PlainY<S, TY, T, Y, AXIS>, AXIS>,
        Y: Shape,
        BY: Storage<TY>,
        A: Activation,
        B: ResultStorage<T, PlainOutput<S, TY, T, Y, AXIS>>,
    {
        let y = TY::view(y);
        let y_other = <S as ElementwiseNoCheck<_, AXIS>>::other(y.shape());
        let shape = <S as ElementwiseShapes<_, AXIS>>::output(self.shape(), &y_other);
        let mut out = Tensor::from_parts_unchecked(shape, B::Out::filled(&shape, T::default()));
        // `None` cannot happen (see `kernel::plain_walk`); the output
        // is then returned as filled rather than panicking in library code
        let out_first = shape.first_size();
        let mut room = None;
        let r = match kernel::plain_walk::<S, SameShape<TY, T, Y>, AXIS>(
            self.shape(),
            y.shape(),
            out_first,
            &mut room,
        ) {
            Some(walk) => kernel::run(
                op,
                A::KIND,
                walk,
                self.as_slice(),
                y.as_slice(),
                out.as_mut_slice(),
            ),
            None => Ok(()),
        };
        (out, r)
    }
}

/// A plain form's output, and whether an integer division found a zero
/// divisor (its one run-time error).
type PlainResult<T, S, B, TY, Y, const AXIS: isize> = (
    Tensor<
        T,
        PlainOutput<S, TY, T, Y, AXIS>,
        <B as ResultStorage<T, PlainOutput<S, TY, T, Y, AXIS>>>::Out,
    >,
    Result<(), ElementwiseError>,
);

/// `Y` of a plain form once its element rule and no-check rule hold.
type PlainY<S, TY, T, Y, const AXIS: isize> = NoCheckShape<S, SameShape<TY, T, Y>, AXIS>;
/// The output shape of a plain form.
type PlainOutput<S, TY, T, Y, const AXIS: isize> =
    ElementwiseOutput<S, PlainY<S, TY, T, Y, AXIS>, AXIS>;

// Division: the one op a plain call can fail on (an integer division by
// zero has no value), so its plain forms return a `Result`.
impl<T: Element, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// Paddle's `elementwise_div`: `act(x / y)` with Y placed at `axis` (see
    /// the [module docs](crate::ops::elementwise)). A shape the rule rejects
    /// is a compile error; a run-time (`Dyn`) dim is accepted where it meets
    /// 1 or no dim of the other operand (elsewhere, use
    /// [`try_elementwise_div`](Self::try_elementwise_div)). The only run-time error is
    /// an integer division by zero (floats give an infinity or NaN, as IEEE
    /// 754 says); nothing is returned then but the error.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<i32, shape![2, 2]>::from_array([[6, 8], [-9, 3]]);
    /// let y = Tensor::<i32, shape![2]>::from_array([2, 3]);
    /// let z = x.elementwise_div(&y, Axis::<0>, Identity).unwrap(); // y[i] divides row i
    /// assert_eq!(z.as_slice(), &[3, 4, -3, 1]);
    /// let err = x.elementwise_div(&tensor![1, 0], Axis::<0>, Identity).unwrap_err();
    /// assert_eq!(err.rule(), "elementwise/division-by-zero");
    /// ```
    pub fn elementwise_div<TY, Y, BY, A, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> ElementwiseResult<T, S, B, PlainY<S, TY, T, Y, AXIS>, AXIS>
    where
        // the element rule through a link, so that a wrong element type is
        // one short error ([`crate::ops::elements`]); `SameShape` is `Y`
        TY: Elements<T, SameRule, Y>,
        // no dim needs a run-time check (see `elementwise_mul`)
        S: ElementwiseNoCheck<SameShape<TY, T, Y>, AXIS>,
        S: ElementwiseShapes<PlainY<S, TY, T, Y, AXIS>, AXIS>,
        Y: Shape,
        BY: Storage<TY>,
        A: Activation,
        B: ResultStorage<T, PlainOutput<S, TY, T, Y, AXIS>>,
    {
        let (out, r) = self.plain_elementwise::<TY, Y, BY, A, AXIS>(BinaryOpKind::Div, y);
        r.map(|()| out)
    }
}

impl<T: Element, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// [`elementwise_div`](Self::elementwise_div) writing into `out` (a
    /// caller's buffer, no heap needed), whose shape type proves its size
    /// ([`ProvenShape`]: static or branded dims). On an integer division by
    /// zero `out` is left untouched.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// let y = Tensor::<f32, shape![3]>::from_array([2.0, 4.0, 8.0]);
    /// let mut out = Tensor::<f32, shape![2, 3]>::zeros();
    /// x.elementwise_div_into(&y, Axis::<-1>, Identity, &mut out).unwrap();
    /// assert_eq!(out.as_slice(), &[0.5, 0.5, 0.375, 2.0, 1.25, 0.75]);
    /// ```
    pub fn elementwise_div_into<TY, Y, BY, BO, A, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
        out: &mut Tensor<T, ProvenOutput<S, Y, AXIS>, BO>,
    ) -> Result<(), ElementwiseError>
    where
        S: ElementwiseShapes<Y, AXIS>,
        S: ElementwiseNoCheck<Y, AXIS>,
        ElementwiseOutput<S, Y, AXIS>: ProvenShape,
        BO: StorageMut<T>,
        A: Activation,
        Y: Shape,
        BY: Storage<TY>,
        TY: SameElement<T> + Copy,
    {
        self.plain_elementwise_into::<TY, Y, BY, _, BO, AXIS>(BinaryOpKind::Div, A::KIND, y, out)
    }
}

impl<T: Element, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// Paddle's `elementwise_div` (`act(x / y)`) for any shapes, run-time
    /// dims included: [`try_elementwise`](Self::try_elementwise) with
    /// [`Div`](super::Div).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim::<2>), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let z = x.try_elementwise_div(&y, Axis::<-1>, Identity).unwrap();
    /// assert_eq!(z.as_slice(), &[0.5, 0.5, 1.5, 1.0]);
    /// let bad = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![1.0; 3]).unwrap();
    /// assert!(x.try_elementwise_div(&bad, Axis::<-1>, Identity).is_err());
    /// ```
    pub fn try_elementwise_div<A, TY, Y, BY, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> ElementwiseResult<T, S, B, Y, AXIS>
    where
        A: Activation,
        TY: SameElement<T> + Copy,
        BY: Storage<TY>,
        Y: Shape,
        S: ElementwiseShapes<Y, AXIS>,
        B: ResultStorage<T, ElementwiseOutput<S, Y, AXIS>>,
    {
        self.try_elementwise(super::Div, y, axis, act)
    }

    /// [`try_elementwise_div`](Self::try_elementwise_div) writing into `out`
    /// (any storage, a caller's buffer included).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<i32, shape![2]>::from_array([7, 8]);
    /// let mut out = Tensor::<i32, shape![2]>::zeros();
    /// x.try_elementwise_div_into(&tensor![2, 4], Axis::<-1>, Identity, &mut out).unwrap();
    /// assert_eq!(out.as_slice(), &[3, 2]);
    /// ```
    pub fn try_elementwise_div_into<A, TY, Y, BY, BO, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
        out: &mut Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
    ) -> Result<(), ElementwiseError>
    where
        A: Activation,
        TY: SameElement<T> + Copy,
        BY: Storage<TY>,
        Y: Shape,
        S: ElementwiseShapes<Y, AXIS>,
        BO: StorageMut<T>,
    {
        self.try_elementwise_into(super::Div, y, axis, act, out)
    }
}
