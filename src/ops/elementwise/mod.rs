//! `elementwise_mul` and its family (add, sub, div, max, min), with
//! PaddlePaddle's `axis` broadcast rule and an optional activation.
//!
//! ## The rule (Paddle's current one, which the conformance vectors record)
//! - identical shapes: accepted whatever the axis;
//! - equal ranks: `axis` must be -1 or 0; numpy broadcasting;
//! - otherwise `axis` must lie in `[-R, R)` (`R` the larger rank); the
//!   lower-rank operand (X or Y, either may be the larger) is placed at
//!   `axis`, a negative axis meaning `|rank(X) - rank(Y)| + axis + 1` (so -1
//!   is numpy's right alignment), and must not land before the first dim;
//! - if it runs past the other operand's last dim, its trailing 1s are
//!   dropped ("Y's trailing dims of size 1 are ignored", the seed's rule);
//!   if it still runs past, the shapes are rejected. Paddle 3.3.1 overflows a
//!   buffer on these inputs and aborts or answers at random; we never do;
//! - every aligned pair of dims must be equal or one of them 1 (0 broadcasts
//!   only against 0 or 1, as numpy and Paddle do); the output dim is the other.
//!
//! The docs of Paddle's OpMaker still say "Y's rank <= X's rank" and "the
//! output has X's shape"; the implementation broadcasts both ways, and so do we.
//!
//! ## Static path
//! ```
//! use shapecheck::prelude::*;
//! let x = Tensor::<f32, shape![2, 3, 4, 5]>::full(2.0);
//! let y = Tensor::<f32, shape![3, 4]>::full(3.0);
//! // Paddle's documented example: Y at axis 1 of X
//! let z = x.elementwise_mul(&y, Axis::<1>, Relu);
//! let _: &Tensor<f32, shape![2, 3, 4, 5]> = &z;
//! assert!(z.as_slice().iter().all(|&v| v == 6.0));
//! ```
//! At axis -1 the same shapes do not compile (`ui-tests/elementwise/dim_mismatch.rs`):
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let x = Tensor::<f32, shape![2, 3, 4, 5]>::full(2.0);
//! let y = Tensor::<f32, shape![3, 4]>::full(3.0);
//! let _ = x.elementwise_mul(&y, Axis::<-1>, Identity);
//! ```
//!
//! ## Dynamic path
//! ```
//! use shapecheck::ops::elementwise::{elementwise_slices, ElementwiseError};
//! use shapecheck::{ActivationKind, BinaryOpKind};
//! let x = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
//! let y = [10.0f32, 100.0];
//! let mut out = [0.0f32; 6];
//! // X [2, 3] with Y [2] at axis 0: row i is scaled by y[i]
//! let dims = elementwise_slices(BinaryOpKind::Mul, ActivationKind::Identity,
//!     &[2, 3], &x, &[2], &y, 0, &mut out).unwrap();
//! assert_eq!(dims.as_slice(), &[2, 3]);
//! assert_eq!(out, [10.0, 20.0, 30.0, 400.0, 500.0, 600.0]);
//! // at axis -1 the 2 meets the 3: a typed error naming the rule and the values
//! let err = elementwise_slices(BinaryOpKind::Mul, ActivationKind::Identity,
//!     &[2, 3], &x, &[2], &y, -1, &mut out).unwrap_err();
//! assert!(matches!(err, ElementwiseError::DimMismatch { x_dim: 3, y_dim: 2, .. }));
//! ```

mod activation;
pub mod operators;

pub use activation::{
    Activation, ActivationKind, Identity, Relu, Sigmoid, Tanh, UnknownActivation,
};

use crate::element::{Element, SameElement};
use crate::error::ShapeError;
use crate::kernel::{self, Walk};
use crate::rules::ElementwiseShapes;
use crate::shape::{Dims, Shape, StaticShape};
use crate::storage::{OwnedStorage, ResultStorage, Storage, StorageMut};
use crate::tensor::Tensor;
use core::fmt;
use core::marker::PhantomData;

/// Paddle's `axis` attribute as a compile-time value: `Axis::<1>`, `Axis::<-1>`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Axis<const A: isize>;

/// A binary elementwise operation, as a type (static path).
pub trait BinaryOp: Copy + Default {
    /// The same operation as a value.
    const KIND: BinaryOpKind;
}

/// `x * y`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mul;
/// `x + y`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Add;
/// `x - y`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sub;
/// `x / y` (integer division by zero is an error).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Div;
/// `x > y ? x : y` (Paddle's functor, NaN handling included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Max;
/// `x < y ? x : y`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Min;

impl BinaryOp for Mul {
    const KIND: BinaryOpKind = BinaryOpKind::Mul;
}
impl BinaryOp for Add {
    const KIND: BinaryOpKind = BinaryOpKind::Add;
}
impl BinaryOp for Sub {
    const KIND: BinaryOpKind = BinaryOpKind::Sub;
}
impl BinaryOp for Div {
    const KIND: BinaryOpKind = BinaryOpKind::Div;
}
impl BinaryOp for Max {
    const KIND: BinaryOpKind = BinaryOpKind::Max;
}
impl BinaryOp for Min {
    const KIND: BinaryOpKind = BinaryOpKind::Min;
}

/// A binary elementwise operation as a value (dynamic path).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOpKind {
    /// `elementwise_mul`
    Mul,
    /// `elementwise_add`
    Add,
    /// `elementwise_sub`
    Sub,
    /// `elementwise_div`
    Div,
    /// `elementwise_max`
    Max,
    /// `elementwise_min`
    Min,
}

impl BinaryOpKind {
    /// Parses Paddle's op name (`elementwise_mul`, or just `mul`).
    pub fn from_name(name: &str) -> Option<Self> {
        let short = name.strip_prefix("elementwise_").unwrap_or(name);
        Some(match short {
            "mul" => BinaryOpKind::Mul,
            "add" => BinaryOpKind::Add,
            "sub" => BinaryOpKind::Sub,
            "div" => BinaryOpKind::Div,
            "max" => BinaryOpKind::Max,
            "min" => BinaryOpKind::Min,
            _ => return None,
        })
    }

    /// Paddle's op name.
    pub fn name(self) -> &'static str {
        match self {
            BinaryOpKind::Mul => "elementwise_mul",
            BinaryOpKind::Add => "elementwise_add",
            BinaryOpKind::Sub => "elementwise_sub",
            BinaryOpKind::Div => "elementwise_div",
            BinaryOpKind::Max => "elementwise_max",
            BinaryOpKind::Min => "elementwise_min",
        }
    }
}

/// Why an elementwise op rejected its inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementwiseError {
    /// Equal ranks, different shapes, and an axis other than -1 or 0.
    EqualRankAxis {
        /// X's dims.
        x: Dims,
        /// Y's dims.
        y: Dims,
        /// The axis given.
        axis: isize,
    },
    /// The axis is outside `[-R, R)`.
    AxisOutOfRange {
        /// X's dims.
        x: Dims,
        /// Y's dims.
        y: Dims,
        /// The axis given.
        axis: isize,
    },
    /// A negative axis places the lower-rank operand before the first dim.
    AxisBeforeStart {
        /// X's dims.
        x: Dims,
        /// Y's dims.
        y: Dims,
        /// The axis given.
        axis: isize,
    },
    /// The lower-rank operand runs past the other's last dim, and the dims
    /// that run past are not all 1.
    RunsPast {
        /// X's dims.
        x: Dims,
        /// Y's dims.
        y: Dims,
        /// The axis given.
        axis: isize,
    },
    /// Two aligned dims differ and neither is 1.
    DimMismatch {
        /// X's dims.
        x: Dims,
        /// Y's dims.
        y: Dims,
        /// The axis given.
        axis: isize,
        /// The position in the output's dims.
        position: usize,
        /// X's dim there.
        x_dim: usize,
        /// Y's dim there.
        y_dim: usize,
    },
    /// Integer division by zero.
    DivisionByZero {
        /// The flat position of the zero in Y.
        index: usize,
    },
    /// A shape problem not specific to this op (data length, rank, output buffer).
    Shape(ShapeError),
}

impl From<ShapeError> for ElementwiseError {
    fn from(e: ShapeError) -> Self {
        ElementwiseError::Shape(e)
    }
}

impl fmt::Display for ElementwiseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElementwiseError::EqualRankAxis { x, y, axis } => write!(
                f,
                "axis should be -1 or 0 when X and Y have the same rank ({}) but different shapes: X = {x}, Y = {y}, axis = {axis}",
                x.rank()
            ),
            ElementwiseError::AxisOutOfRange { x, y, axis } => {
                let r = x.rank().max(y.rank());
                write!(
                    f,
                    "the axis must be in [-{r}, {r}), but axis is {axis} (X = {x}, Y = {y})"
                )
            }
            ElementwiseError::AxisBeforeStart { x, y, axis } => write!(
                f,
                "axis {axis} places the lower-rank operand before the first dim (|rank(X) - rank(Y)| + axis + 1 < 0): X = {x}, Y = {y}"
            ),
            ElementwiseError::RunsPast { x, y, axis } => write!(
                f,
                "the lower-rank operand placed at axis {axis} runs past the other's last dim, and only trailing dims of size 1 can be dropped: X = {x}, Y = {y}"
            ),
            ElementwiseError::DimMismatch { x, y, axis, position, x_dim, y_dim } => write!(
                f,
                "broadcast dimension mismatch: X = {x} and Y = {y} at axis {axis} align X's {x_dim} with Y's {y_dim} at output dim {position}; aligned dims must be equal or one of them 1"
            ),
            ElementwiseError::DivisionByZero { index } => {
                write!(f, "integer division by zero: Y[{index}] (flat index) is 0")
            }
            ElementwiseError::Shape(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl core::error::Error for ElementwiseError {}

/// Where X and Y sit in the output's dims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The output rank.
    pub rank: usize,
    /// Position of X's first dim.
    pub x_at: usize,
    /// Position of Y's first dim.
    pub y_at: usize,
}

/// Paddle's placement rule for ranks and axis (see the module docs).
pub fn placement(x: &Dims, y: &Dims, axis: isize) -> Result<Placement, ElementwiseError> {
    let (x, y) = (*x, *y);
    if x == y {
        return Ok(Placement {
            rank: x.rank(),
            x_at: 0,
            y_at: 0,
        });
    }
    let (rx, ry) = (x.rank(), y.rank());
    if rx == ry {
        if axis != -1 && axis != 0 {
            return Err(ElementwiseError::EqualRankAxis { x, y, axis });
        }
        return Ok(Placement {
            rank: rx,
            x_at: 0,
            y_at: 0,
        });
    }
    let r = rx.max(ry);
    let rs = rx.min(ry);
    // ranks are at most MAX_RANK, so these conversions are exact
    let (ri, di) = (r as isize, (r - rs) as isize);
    if axis < -ri || axis >= ri {
        return Err(ElementwiseError::AxisOutOfRange { x, y, axis });
    }
    let o = if axis < 0 { di + axis + 1 } else { axis };
    if o < 0 {
        return Err(ElementwiseError::AxisBeforeStart { x, y, axis });
    }
    let o = o as usize;
    let small = if rx < ry { &x } else { &y };
    // dims that run past the end must be trailing 1s
    let kept = rs.min(r.saturating_sub(o));
    if small.iter().skip(kept).any(|&d| d != 1) {
        return Err(ElementwiseError::RunsPast { x, y, axis });
    }
    Ok(if rx < ry {
        Placement {
            rank: r,
            x_at: o,
            y_at: 0,
        }
    } else {
        Placement {
            rank: r,
            x_at: 0,
            y_at: o,
        }
    })
}

/// The output dims of an elementwise op, and the operands placed in its frame.
#[derive(Clone, Copy, Debug)]
pub struct ElementwisePlan {
    /// The output's dims.
    pub out: Dims,
    /// X's dims in the output's frame.
    pub x: Dims,
    /// Y's dims in the output's frame.
    pub y: Dims,
}

impl ElementwisePlan {
    /// Checks every rule for X and Y at `axis`.
    pub fn new(x: &[usize], y: &[usize], axis: isize) -> Result<Self, ElementwiseError> {
        let (xd, yd) = (Dims::new(x)?, Dims::new(y)?);
        let p = placement(&xd, &yd, axis)?;
        let xp = kernel::place(x, p.x_at, p.rank);
        let yp = kernel::place(y, p.y_at, p.rank);
        for (position, (&a, &b)) in xp.iter().zip(yp.iter()).enumerate() {
            if a != b && a != 1 && b != 1 {
                return Err(ElementwiseError::DimMismatch {
                    x: xd,
                    y: yd,
                    axis,
                    position,
                    x_dim: a,
                    y_dim: b,
                });
            }
        }
        Ok(ElementwisePlan {
            out: kernel::broadcast_dims(&xp, &yp),
            x: xp,
            y: yp,
        })
    }
}

/// Runs `op` then `act` over a plan. `out` must hold the plan's element count.
fn run<T: Element>(
    op: BinaryOpKind,
    act: ActivationKind,
    plan: &ElementwisePlan,
    x: &[T],
    y: &[T],
    out: &mut [T],
) -> Result<(), ElementwiseError> {
    let walk = Walk::new(&plan.out, [&plan.x, &plan.y]);
    if out.len() != walk.numel() {
        return Err(ShapeError::DataLength {
            shape: plan.out,
            numel: walk.numel(),
            len: out.len(),
        }
        .into());
    }
    run_walk(op, act, &walk, x, y, out)
}

/// The kernel of every elementwise op, static or dynamic: `out = act(op(x, y))`
/// along `walk`. Inlined, so a static op (constant walk, constant op) compiles
/// to loops over constants.
#[inline(always)]
fn run_walk<T: Element>(
    op: BinaryOpKind,
    act: ActivationKind,
    walk: &Walk<2>,
    x: &[T],
    y: &[T],
    out: &mut [T],
) -> Result<(), ElementwiseError> {
    match op {
        BinaryOpKind::Mul => kernel::binary(walk, x, y, out, T::mul),
        BinaryOpKind::Add => kernel::binary(walk, x, y, out, T::add),
        BinaryOpKind::Sub => kernel::binary(walk, x, y, out, T::sub),
        BinaryOpKind::Div => {
            if T::IS_INTEGER && walk.numel() > 0 {
                if let Some(index) = y.iter().position(|v| v.is_zero()) {
                    return Err(ElementwiseError::DivisionByZero { index });
                }
            }
            kernel::binary(walk, x, y, out, T::div)
        }
        BinaryOpKind::Max => kernel::binary(walk, x, y, out, |a, b| if a > b { a } else { b }),
        BinaryOpKind::Min => kernel::binary(walk, x, y, out, |a, b| if a < b { a } else { b }),
    }
    act.apply_all(out);
    Ok(())
}

/// The walk of a static elementwise op, computed by the compiler from the
/// shape types (no planning at run time).
struct StaticWalk<S, Y, const AXIS: isize>(PhantomData<(S, Y)>);

impl<S, Y, const AXIS: isize> StaticWalk<S, Y, AXIS>
where
    S: StaticShape + ElementwiseShapes<Y, AXIS>,
    Y: StaticShape,
{
    const WALK: Walk<2> = {
        let rank = <S as ElementwiseShapes<Y, AXIS>>::Output::RANK;
        let x = kernel::place_array(S::DIMS, S::X_AT, rank);
        let y = kernel::place_array(Y::DIMS, S::Y_AT, rank);
        Walk::from_frame(rank, kernel::broadcast_arrays(&x, &y), [x, y])
    };
}

/// The output dims of `op(x, y)` at `axis`, checking every rule.
pub fn elementwise_output_dims(
    x: &[usize],
    y: &[usize],
    axis: isize,
) -> Result<Dims, ElementwiseError> {
    Ok(ElementwisePlan::new(x, y, axis)?.out)
}

/// The dynamic path without a heap: `out = act(op(x, y))` with Paddle's axis
/// rule, shapes given as values. `out` must hold exactly the output's element
/// count ([`elementwise_output_dims`] tells it). Returns the output dims.
#[allow(clippy::too_many_arguments)]
pub fn elementwise_slices<T: Element>(
    op: BinaryOpKind,
    act: ActivationKind,
    x_dims: &[usize],
    x: &[T],
    y_dims: &[usize],
    y: &[T],
    axis: isize,
    out: &mut [T],
) -> Result<Dims, ElementwiseError> {
    Dims::for_data(x_dims, x.len())?;
    Dims::for_data(y_dims, y.len())?;
    let plan = ElementwisePlan::new(x_dims, y_dims, axis)?;
    let numel = plan.out.try_numel()?;
    if out.len() != numel {
        return Err(ShapeError::DataLength {
            shape: plan.out,
            numel,
            len: out.len(),
        }
        .into());
    }
    run(op, act, &plan, x, y, out)?;
    Ok(plan.out)
}

/// The output type of `x (S) op y (Y)` at `AXIS`.
pub type ElementwiseOutput<S, Y, const AXIS: isize> = <S as ElementwiseShapes<Y, AXIS>>::Output;

/// The result of an elementwise op on `x: Tensor<T, S, B>` and a `Y`-shaped operand.
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
    /// at run time. The result is stored like `self` (see [`crate::storage`]).
    pub fn try_elementwise<Op, A, TY, Y, BY, const AXIS: isize>(
        &self,
        _op: Op,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> ElementwiseResult<T, S, B, Y, AXIS>
    where
        Op: BinaryOp,
        A: Activation,
        Y: Shape,
        BY: Storage<TY>,
        TY: SameElement<T> + Copy,
        S: ElementwiseShapes<Y, AXIS>,
        B: ResultStorage<T, ElementwiseOutput<S, Y, AXIS>>,
    {
        let plan = ElementwisePlan::new(&self.dims(), &y.dims(), AXIS)?;
        let shape = S::output(self.shape(), y.shape());
        let mut out =
            Tensor::from_parts_unchecked(shape, B::Out::try_filled(&shape, T::default())?);
        run(
            Op::KIND,
            A::KIND,
            &plan,
            self.as_slice(),
            TY::same(y.as_slice()),
            out.as_mut_slice(),
        )?;
        Ok(out)
    }

    /// Like [`try_elementwise`](Self::try_elementwise), writing into `out`
    /// (any storage, a caller's buffer included), whose shape must be the output's.
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
        Y: Shape,
        BY: Storage<TY>,
        TY: SameElement<T> + Copy,
        BO: StorageMut<T>,
        S: ElementwiseShapes<Y, AXIS>,
    {
        let plan = ElementwisePlan::new(&self.dims(), &y.dims(), AXIS)?;
        if out.dims() != plan.out {
            return Err(ShapeError::OutputShape {
                expected: plan.out,
                found: out.dims(),
            }
            .into());
        }
        run(
            Op::KIND,
            A::KIND,
            &plan,
            self.as_slice(),
            TY::same(y.as_slice()),
            out.as_mut_slice(),
        )
    }

    /// The statically checked core: every dim static, so nothing can fail but
    /// integer division by zero.
    #[inline(always)]
    fn static_elementwise_into<TY, Y, BY, const AXIS: isize>(
        &self,
        op: BinaryOpKind,
        act: ActivationKind,
        y: &Tensor<TY, Y, BY>,
        out: &mut [T],
    ) -> Result<(), ElementwiseError>
    where
        S: StaticShape,
        Y: StaticShape,
        BY: Storage<TY>,
        TY: SameElement<T> + Copy,
        S: ElementwiseShapes<Y, AXIS>,
    {
        let walk = &StaticWalk::<S, Y, AXIS>::WALK;
        run_walk(op, act, walk, self.as_slice(), TY::same(y.as_slice()), out)
    }
}

macro_rules! infallible_ops {
    ($($name:ident => $op:ident),* $(,)?) => { paste::paste! { $(
        #[doc = concat!("Paddle's `", stringify!($name), "`: `act(x ", stringify!($op), " y)` with Y placed at `axis` ")]
        #[doc = "(see the [module docs](crate::ops::elementwise)). Both shapes static: a shape the rule"]
        #[doc = "rejects is a compile error, and the call cannot fail."]
        pub fn $name<TY, Y, BY, A, const AXIS: isize>(
            &self,
            y: &Tensor<TY, Y, BY>,
            _axis: Axis<AXIS>,
            _act: A,
        ) -> Tensor<T, ElementwiseOutput<S, Y, AXIS>, B::Out>
        where
            S: ElementwiseShapes<Y, AXIS>,
            Y: StaticShape,
            BY: Storage<TY>,
        TY: SameElement<T> + Copy,
            A: Activation,
            B: ResultStorage<T, ElementwiseOutput<S, Y, AXIS>>,
        {
            let shape = S::output(self.shape(), y.shape());
            let mut out = Tensor::from_parts_unchecked(shape, B::Out::filled(&shape, T::default()));
            // only Div can fail, and this is not Div
            let _ = self.static_elementwise_into::<TY, Y, BY, AXIS>(
                BinaryOpKind::$op, A::KIND, y, out.as_mut_slice());
            out
        }

        #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), ") writing into `out` (a caller's buffer, no heap needed).")]
        pub fn [<$name _into>]<TY, Y, BY, BO, A, const AXIS: isize>(
            &self,
            y: &Tensor<TY, Y, BY>,
            _axis: Axis<AXIS>,
            _act: A,
            out: &mut Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
        )
        where
            S: ElementwiseShapes<Y, AXIS>,
            Y: StaticShape,
            BY: Storage<TY>,
        TY: SameElement<T> + Copy,
            BO: StorageMut<T>,
            A: Activation,
        {
            let _ = self.static_elementwise_into::<TY, Y, BY, AXIS>(
                BinaryOpKind::$op, A::KIND, y, out.as_mut_slice());
        }
    )* } };
}

impl<T: Element, S: StaticShape, B: Storage<T>> Tensor<T, S, B> {
    infallible_ops!(
        elementwise_mul => Mul,
        elementwise_add => Add,
        elementwise_sub => Sub,
        elementwise_max => Max,
        elementwise_min => Min,
    );

    /// Paddle's `elementwise_div`: `act(x / y)` with Y placed at `axis`.
    /// Both shapes static (a shape the rule rejects is a compile error); the
    /// only run-time error is an integer division by zero.
    pub fn elementwise_div<TY, Y, BY, A, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> ElementwiseResult<T, S, B, Y, AXIS>
    where
        S: ElementwiseShapes<Y, AXIS>,
        Y: StaticShape,
        BY: Storage<TY>,
        TY: SameElement<T> + Copy,
        A: Activation,
        B: ResultStorage<T, ElementwiseOutput<S, Y, AXIS>>,
    {
        let shape = S::output(self.shape(), y.shape());
        let mut out = Tensor::from_parts_unchecked(shape, B::Out::filled(&shape, T::default()));
        self.static_elementwise_into::<TY, Y, BY, AXIS>(
            BinaryOpKind::Div,
            A::KIND,
            y,
            out.as_mut_slice(),
        )?;
        Ok(out)
    }

    /// [`elementwise_div`](Self::elementwise_div) writing into `out`.
    pub fn elementwise_div_into<TY, Y, BY, BO, A, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
        out: &mut Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
    ) -> Result<(), ElementwiseError>
    where
        S: ElementwiseShapes<Y, AXIS>,
        Y: StaticShape,
        BY: Storage<TY>,
        TY: SameElement<T> + Copy,
        BO: StorageMut<T>,
        A: Activation,
    {
        self.static_elementwise_into::<TY, Y, BY, AXIS>(
            BinaryOpKind::Div,
            A::KIND,
            y,
            out.as_mut_slice(),
        )
    }
}
