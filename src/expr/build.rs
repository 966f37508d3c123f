//! Building expressions: the named ops, the operators, the activations,
//! `map`, `zip_with` and `select`. Each states the plain op's rule trait
//! as its bound, so a node the rule rejects is the plain op's compile error.

use super::leaf::{Leaf, Scalar};
use super::node::{Activate, Binary, Map, Node, Select, ZipWith};
use super::Expr;
use crate::element::Element;
use crate::ops::elementwise::{
    Activation, Axis, BinaryOp, BroadcastOf, BroadcastWith, ElementwiseOutput, ElementwiseShapes,
    FloatElement, LazyOperatorShapes,
};
use crate::ops::select::{CondElement, SelectMode, SelectOutput, SelectShapes};
use crate::ops::StaticShape;
use crate::ops::{Add, Div, Max, Min, Mul, Sub};
use crate::shape::Shape;
use crate::storage::Storage;
use crate::tensor::Tensor;
use core::marker::PhantomData;

/// What can be an operand of an expression node: a tensor (`&x`), another
/// expression, or a scalar of the element type (a constant).
#[doc(hidden)]
pub trait IntoNode<T: Element> {
    /// The element type (`T`).
    type Elem: Element;
    /// The node it becomes.
    type Node: Node<T>;
    /// The node.
    fn into_node(self) -> Self::Node;
}

impl<'a, T: Element, S: Shape, B: Storage<T>> IntoNode<T> for &'a Tensor<T, S, B> {
    type Elem = T;
    type Node = Leaf<'a, T, S>;
    #[inline(always)]
    fn into_node(self) -> Leaf<'a, T, S> {
        Leaf {
            data: self.as_slice(),
            shape: *self.shape(),
        }
    }
}

impl<T: Element, N: Node<T, Shape = S>, S: Shape> IntoNode<T> for Expr<T, N, S> {
    type Elem = T;
    type Node = N;
    #[inline(always)]
    fn into_node(self) -> N {
        self.node
    }
}

impl<T: Element> IntoNode<T> for T {
    type Elem = T;
    type Node = Scalar<T>;
    #[inline(always)]
    fn into_node(self) -> Scalar<T> {
        Scalar(self)
    }
}

/// The shape of an operand of a node.
type ShapeOf<T, R> = <<R as IntoNode<T>>::Node as Node<T>>::Shape;

/// An expression node `act(self op y)` at `AXIS`, `self` of shape `S`: its
/// shape is the plain op's output shape.
pub type BinaryExpr<T, N, S, R, Op, A, const AXIS: isize> = Expr<
    T,
    Activate<
        Binary<N, <R as IntoNode<T>>::Node, Op, ElementwiseOutput<S, ShapeOf<T, R>, AXIS>, AXIS>,
        A,
    >,
    ElementwiseOutput<S, ShapeOf<T, R>, AXIS>,
>;

/// An expression node `f(self, y)` (numpy broadcasting), `self` of shape `S`.
pub type ZipExpr<T, N, S, R, F> = Expr<
    T,
    ZipWith<N, <R as IntoNode<T>>::Node, F, ElementwiseOutput<S, ShapeOf<T, R>, -1>>,
    ElementwiseOutput<S, ShapeOf<T, R>, -1>,
>;

/// An expression node `cond ? then : else` in mode `M`, cond of shape `C`.
pub type SelectExpr<'a, T, C, Th, El, M> = Expr<
    T,
    Select<
        'a,
        C,
        <Th as IntoNode<T>>::Node,
        <El as IntoNode<T>>::Node,
        M,
        SelectShape<T, C, Th, El, M>,
    >,
    SelectShape<T, C, Th, El, M>,
>;

/// The output shape of a select node.
type SelectShape<T, C, Th, El, M> = SelectOutput<C, ShapeOf<T, Th>, ShapeOf<T, El>, M>;

impl<T: Element, N: Node<T, Shape = S>, S: Shape> Expr<T, N, S> {
    /// Any op of the elementwise family as a node, the op as a type
    /// parameter (as [`Tensor::try_elementwise`]): `act(op(self, y))` with
    /// `y` at `axis`. Integer division can fail, so `Div` takes floats only
    /// here too ([`FloatOp`]).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::{Max, Sub};
    /// let x = tensor![[1.0f32, 5.0], [3.0, -4.0]];
    /// let z = x.lazy().elementwise(Sub, 1.0, Axis::<-1>, Identity).elementwise(Max, &x, Axis::<-1>, Relu);
    /// assert_eq!(z.eval().as_slice(), &[1.0, 5.0, 3.0, 0.0]);
    /// ```
    pub fn elementwise<Op, R, A, const AXIS: isize>(
        self,
        _op: Op,
        y: R,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> BinaryExpr<T, N, S, R, Op, A, AXIS>
    where
        Op: FloatOp<T>,
        R: IntoNode<T>,
        A: Activation,
        S: ElementwiseShapes<ShapeOf<T, R>, AXIS>,
    {
        activate(binary::<T, _, _, _, S, AXIS>(self.node, y.into_node()))
    }

    /// Paddle's `elementwise_mul` as a node: `act(self * y)`, `y` (a tensor,
    /// an expression or a scalar) placed at `axis` by the rule of
    /// [`Tensor::try_elementwise_mul`]; shapes it rejects do not compile.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// let y = tensor![1.0f32, -1.0]; // y[i] meets row i
    /// let z = x.lazy().elementwise_mul(&y, Axis::<0>, Relu).eval();
    /// assert_eq!(z, x.elementwise_mul(&y, Axis::<0>, Relu));
    /// ```
    pub fn elementwise_mul<R, A, const AXIS: isize>(
        self,
        y: R,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> BinaryExpr<T, N, S, R, Mul, A, AXIS>
    where
        R: IntoNode<T>,
        A: Activation,
        S: ElementwiseShapes<ShapeOf<T, R>, AXIS>,
    {
        activate(binary::<T, _, _, _, S, AXIS>(self.node, y.into_node()))
    }

    /// Paddle's `elementwise_add` as a node: `act(self + y)` with `y` at
    /// `axis` (see [`elementwise_mul`](Self::elementwise_mul)).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, -2.0], [3.0, -4.0]];
    /// let z = x.lazy().elementwise_add(&tensor![1.0f32, 1.0], Axis::<-1>, Relu).eval();
    /// assert_eq!(z.as_slice(), &[2.0, 0.0, 4.0, 0.0]);
    /// ```
    pub fn elementwise_add<R, A, const AXIS: isize>(
        self,
        y: R,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> BinaryExpr<T, N, S, R, Add, A, AXIS>
    where
        R: IntoNode<T>,
        A: Activation,
        S: ElementwiseShapes<ShapeOf<T, R>, AXIS>,
    {
        activate(binary::<T, _, _, _, S, AXIS>(self.node, y.into_node()))
    }

    /// Paddle's `elementwise_sub` as a node: `act(self - y)` with `y` at
    /// `axis` (see [`elementwise_mul`](Self::elementwise_mul)).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[5.0f32, 6.0], [7.0, 8.0]];
    /// let z = x.lazy().elementwise_sub(&tensor![1.0f32, 2.0], Axis::<0>, Identity).eval();
    /// assert_eq!(z.as_slice(), &[4.0, 5.0, 5.0, 6.0]);
    /// ```
    pub fn elementwise_sub<R, A, const AXIS: isize>(
        self,
        y: R,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> BinaryExpr<T, N, S, R, Sub, A, AXIS>
    where
        R: IntoNode<T>,
        A: Activation,
        S: ElementwiseShapes<ShapeOf<T, R>, AXIS>,
    {
        activate(binary::<T, _, _, _, S, AXIS>(self.node, y.into_node()))
    }

    /// Paddle's `elementwise_div` as a node, for `f32` and `f64` (a zero
    /// divisor gives an infinity or NaN; integer division, which can fail,
    /// is the plain op's): `act(self / y)` with `y` at `axis`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    /// let z = x.lazy().elementwise_div(&tensor![2.0f32, 4.0], Axis::<0>, Identity).eval();
    /// assert_eq!(z.as_slice(), &[0.5, 1.0, 0.75, 1.0]);
    /// ```
    pub fn elementwise_div<R, A, const AXIS: isize>(
        self,
        y: R,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> BinaryExpr<T, N, S, R, Div, A, AXIS>
    where
        T: FloatElement,
        R: IntoNode<T>,
        A: Activation,
        S: ElementwiseShapes<ShapeOf<T, R>, AXIS>,
    {
        activate(binary::<T, _, _, _, S, AXIS>(self.node, y.into_node()))
    }

    /// Paddle's `elementwise_max` as a node: `act(max(self, y))` with `y`
    /// at `axis`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 5.0], [3.0, -4.0]];
    /// let z = x.lazy().elementwise_max(0.0, Axis::<-1>, Identity).eval();
    /// assert_eq!(z.as_slice(), &[1.0, 5.0, 3.0, 0.0]);
    /// ```
    pub fn elementwise_max<R, A, const AXIS: isize>(
        self,
        y: R,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> BinaryExpr<T, N, S, R, Max, A, AXIS>
    where
        R: IntoNode<T>,
        A: Activation,
        S: ElementwiseShapes<ShapeOf<T, R>, AXIS>,
    {
        activate(binary::<T, _, _, _, S, AXIS>(self.node, y.into_node()))
    }

    /// Paddle's `elementwise_min` as a node: `act(min(self, y))` with `y`
    /// at `axis`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 5.0], [3.0, -4.0]];
    /// let z = x.lazy().elementwise_min(&tensor![2.0f32, 2.0], Axis::<0>, Identity).eval();
    /// assert_eq!(z.as_slice(), &[1.0, 2.0, 2.0, -4.0]);
    /// ```
    pub fn elementwise_min<R, A, const AXIS: isize>(
        self,
        y: R,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> BinaryExpr<T, N, S, R, Min, A, AXIS>
    where
        R: IntoNode<T>,
        A: Activation,
        S: ElementwiseShapes<ShapeOf<T, R>, AXIS>,
    {
        activate(binary::<T, _, _, _, S, AXIS>(self.node, y.into_node()))
    }

    /// An activation as a node (`Relu`, `Tanh`, `Sigmoid`, `Identity`),
    /// computed as the plain ops' `act` argument computes it.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let z = tensor![-1.0f32, 0.0].lazy().activation(Sigmoid).eval();
    /// assert_eq!(z, tensor![-1.0f32, 0.0].elementwise_add(&tensor![0.0f32], Axis::<-1>, Sigmoid));
    /// ```
    pub fn activation<A: Activation>(self, _act: A) -> Expr<T, Activate<N, A>, S> {
        activate(self.node)
    }

    /// `max(v, 0)` for every value (Paddle's `relu`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let z = tensor![-1.0f32, 2.0].lazy().relu().eval();
    /// assert_eq!(z.as_slice(), &[0.0, 2.0]);
    /// ```
    pub fn relu(self) -> Expr<T, Activate<N, crate::ops::elementwise::Relu>, S> {
        activate(self.node)
    }

    /// `tanh(v)` for every value (computed in `f64`, as the plain ops do).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let z = tensor![0.0f32, 100.0].lazy().tanh().eval();
    /// assert_eq!(z.as_slice(), &[0.0, 1.0]);
    /// ```
    pub fn tanh(self) -> Expr<T, Activate<N, crate::ops::elementwise::Tanh>, S> {
        activate(self.node)
    }

    /// `1 / (1 + e^-v)` for every value (computed in `f64`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let z = tensor![0.0f32].lazy().sigmoid().eval();
    /// assert_eq!(z.as_slice(), &[0.5]);
    /// ```
    pub fn sigmoid(self) -> Expr<T, Activate<N, crate::ops::elementwise::Sigmoid>, S> {
        activate(self.node)
    }

    /// `f(v)` for every value, a function of yours, fused with the rest.
    /// `f` is `Sync` (any closure that captures no `Cell` or `Rc`), so that
    /// an evaluation may share it between threads (feature `rayon`).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let z = (tensor![1.0f32, 2.0].lazy() * 3.0).map(|v| v * v).eval();
    /// assert_eq!(z.as_slice(), &[9.0, 36.0]);
    /// ```
    pub fn map<F: Fn(T) -> T + Sync>(self, f: F) -> Expr<T, Map<N, F>, S> {
        Expr::new(Map { node: self.node, f })
    }

    /// `f(self, y)` element by element, a function of yours, with numpy
    /// broadcasting (Paddle's rule at axis -1; shapes it rejects do not
    /// compile). `f` is `Sync`, as [`map`](Self::map)'s.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    /// let z = x.lazy().zip_with(&tensor![10.0f32, 20.0], |a, b| a * a + b).eval();
    /// assert_eq!(z.as_slice(), &[11.0, 24.0, 19.0, 36.0]);
    /// ```
    pub fn zip_with<R, F>(self, y: R, f: F) -> ZipExpr<T, N, S, R, F>
    where
        R: IntoNode<T>,
        F: Fn(T, T) -> T + Sync,
        S: ElementwiseShapes<ShapeOf<T, R>, -1>,
    {
        let r = y.into_node();
        let shape = S::output(&self.node.shape(), &r.shape());
        Expr::new(ZipWith {
            l: self.node,
            r,
            f,
            shape,
        })
    }
}

/// The ops an expression offers for elements `T`: all six for `f32` and
/// `f64`, all but `Div` for integers (integer division can fail on a zero
/// divisor, which an expression has no place to report; use the plain
/// `elementwise_div`).
#[diagnostic::on_unimplemented(
    message = "elementwise/division-by-zero: a fused expression divides only f32 and f64, not {T}",
    label = "integer division can fail (division by zero)",
    note = "use the plain `x.elementwise_div(&y, axis, act)`, which returns a Result"
)]
#[doc(hidden)]
pub trait FloatOp<T>: BinaryOp {}

impl<T: Element> FloatOp<T> for Mul {}
impl<T: Element> FloatOp<T> for Add {}
impl<T: Element> FloatOp<T> for Sub {}
impl<T: Element> FloatOp<T> for Max {}
impl<T: Element> FloatOp<T> for Min {}
#[diagnostic::do_not_recommend]
impl<T: FloatElement> FloatOp<T> for Div {}

/// `l op r` as a node, its output shape computed by the elementwise rule
/// (`S` is `l`'s shape).
#[inline(always)]
fn binary<T, L, R, Op, S, const AXIS: isize>(
    l: L,
    r: R,
) -> Binary<L, R, Op, ElementwiseOutput<S, R::Shape, AXIS>, AXIS>
where
    T: Element,
    L: Node<T, Shape = S>,
    R: Node<T>,
    S: ElementwiseShapes<R::Shape, AXIS>,
{
    let shape = S::output(&l.shape(), &r.shape());
    Binary {
        l,
        r,
        shape,
        op: PhantomData,
    }
}

/// The output shape of `a op b` on expressions ([`LazyOperatorShapes`]).
type LazyOut<S, Y> = <S as LazyOperatorShapes<Y>>::Output;

/// `l op r` at axis -1 as a node, for the operators (`S` is `l`'s shape).
#[inline(always)]
fn operator_node<T, L, R, Op, S>(l: L, r: R) -> Binary<L, R, Op, LazyOut<S, R::Shape>, -1>
where
    T: Element,
    L: Node<T, Shape = S>,
    R: Node<T>,
    S: LazyOperatorShapes<R::Shape>,
{
    let shape = S::output(&l.shape(), &r.shape());
    Binary {
        l,
        r,
        shape,
        op: PhantomData,
    }
}

/// `act(node)` as an expression.
#[inline(always)]
fn activate<T, N, A, S>(node: N) -> Expr<T, Activate<N, A>, S> {
    Expr::new(Activate {
        node,
        act: PhantomData,
    })
}

/// `cond ? then : else` as a node, OpenVINO's Select-1 in `mode`
/// ([`NoBroadcast`](crate::NoBroadcast), [`Numpy`](crate::Numpy),
/// [`Pdpd<AXIS>`](crate::Pdpd)), with the rule of
/// [`try_select`](crate::try_select): shapes it rejects do not compile.
/// `then` and `else` are tensors, expressions or scalars; `cond` a tensor of
/// `bool`s.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::expr;
/// let t = tensor![[1.0f32, 2.0], [3.0, 4.0]];
/// let e = tensor![10.0f32, 20.0];
/// let c = tensor![[true, false], [false, true]];
/// let z = expr::select(&c, t.lazy() * 2.0, t.lazy() + &e, Numpy).eval();
/// assert_eq!(z.as_slice(), &[2.0, 22.0, 13.0, 8.0]);
/// ```
pub fn select<'a, T, CE, C, BC, Th, El, M>(
    cond: &'a Tensor<CE, C, BC>,
    then: Th,
    els: El,
    _mode: M,
) -> SelectExpr<'a, T, C, Th, El, M>
where
    T: Element,
    CE: CondElement,
    C: Shape,
    BC: Storage<CE>,
    Th: IntoNode<T>,
    El: IntoNode<T>,
    M: SelectMode,
    C: SelectShapes<ShapeOf<T, Th>, ShapeOf<T, El>, M>,
{
    let (then, els) = (then.into_node(), els.into_node());
    let shape = C::output(cond.shape(), &then.shape(), &els.shape());
    Expr::new(Select {
        cond: CE::as_bools(cond.as_slice()),
        cond_shape: *cond.shape(),
        then,
        els,
        shape,
        mode: PhantomData,
    })
}

/// `a * b`, `a + b`, `a - b`, `a / b` on expressions, with numpy
/// broadcasting (Paddle's rule at axis -1); `/` for `f32` and `f64`.
impl<T, N, S, R> core::ops::Mul<R> for Expr<T, N, S>
where
    T: Element,
    N: Node<T, Shape = S>,
    S: Shape,
    R: IntoNode<T>,
    S: LazyOperatorShapes<ShapeOf<T, R>>,
{
    type Output =
        Expr<T, Binary<N, R::Node, Mul, LazyOut<S, ShapeOf<T, R>>, -1>, LazyOut<S, ShapeOf<T, R>>>;
    #[inline(always)]
    fn mul(self, y: R) -> Self::Output {
        Expr::new(operator_node(self.node, y.into_node()))
    }
}

impl<T, N, S, R> core::ops::Add<R> for Expr<T, N, S>
where
    T: Element,
    N: Node<T, Shape = S>,
    S: Shape,
    R: IntoNode<T>,
    S: LazyOperatorShapes<ShapeOf<T, R>>,
{
    type Output =
        Expr<T, Binary<N, R::Node, Add, LazyOut<S, ShapeOf<T, R>>, -1>, LazyOut<S, ShapeOf<T, R>>>;
    #[inline(always)]
    fn add(self, y: R) -> Self::Output {
        Expr::new(operator_node(self.node, y.into_node()))
    }
}

impl<T, N, S, R> core::ops::Sub<R> for Expr<T, N, S>
where
    T: Element,
    N: Node<T, Shape = S>,
    S: Shape,
    R: IntoNode<T>,
    S: LazyOperatorShapes<ShapeOf<T, R>>,
{
    type Output =
        Expr<T, Binary<N, R::Node, Sub, LazyOut<S, ShapeOf<T, R>>, -1>, LazyOut<S, ShapeOf<T, R>>>;
    #[inline(always)]
    fn sub(self, y: R) -> Self::Output {
        Expr::new(operator_node(self.node, y.into_node()))
    }
}

impl<T, N, S, R> core::ops::Div<R> for Expr<T, N, S>
where
    T: Element,
    R::Elem: FloatElement,
    N: Node<T, Shape = S>,
    S: Shape,
    R: IntoNode<T>,
    S: LazyOperatorShapes<ShapeOf<T, R>>,
{
    type Output =
        Expr<T, Binary<N, R::Node, Div, LazyOut<S, ShapeOf<T, R>>, -1>, LazyOut<S, ShapeOf<T, R>>>;
    #[inline(always)]
    fn div(self, y: R) -> Self::Output {
        Expr::new(operator_node(self.node, y.into_node()))
    }
}

impl<T: Element, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// `f(x, y)` element by element, a function of yours, with numpy
    /// broadcasting (the rule of `&x * &y`): static shapes, checked by the
    /// compiler; an inline result. The one-node expression
    /// `x.lazy().zip_with(&y, f)`, which fuses with more nodes.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32], [2.0]];
    /// let hypot = x.zip_with(&tensor![3.0f32, 4.0], |a, b| (a * a + b * b).sqrt());
    /// assert_eq!(hypot.dims().as_slice(), &[2, 2]);
    /// assert_eq!(hypot.as_slice()[1], 17.0f32.sqrt());
    /// ```
    pub fn zip_with<Y, BY, F>(&self, y: &Tensor<T, Y, BY>, f: F) -> Tensor<T, BroadcastOf<S, Y>>
    where
        S: BroadcastWith<Y>,
        Y: StaticShape,
        BY: Storage<T>,
        F: Fn(T, T) -> T + Sync,
    {
        self.lazy().zip_with(y, f).eval()
    }

    /// [`zip_with`](Self::zip_with) for shapes with run-time dims: the rule
    /// is checked when it runs ([`ExprError`](super::ExprError) on a
    /// mismatch, before anything is allocated).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<i32, shape![Dyn], Vec<i32>>::from_vec((Dyn(3),), vec![1, 2, 3]).unwrap();
    /// let z = x.try_zip_with(&tensor![10, 20, 30], |a, b| a * b + 1).unwrap();
    /// assert_eq!(z.as_slice(), &[11, 41, 91]);
    /// assert!(x.try_zip_with(&tensor![1, 2], |a, b| a + b).is_err());
    /// ```
    pub fn try_zip_with<Y, BY, F>(
        &self,
        y: &Tensor<T, Y, BY>,
        f: F,
    ) -> super::ExprResult<T, ElementwiseOutput<S, Y, -1>>
    where
        S: ElementwiseShapes<Y, -1>,
        ElementwiseOutput<S, Y, -1>: crate::storage::OutputStorage<T>,
        Y: Shape,
        BY: Storage<T>,
        F: Fn(T, T) -> T + Sync,
    {
        self.lazy().zip_with(y, f).try_eval()
    }
}
