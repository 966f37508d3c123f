//! Reductions (`sum`, `mean`, `max`, `min`, `prod`) and `argmax` / `argmin`,
//! as PaddlePaddle 3.3.1 computes them (`paddle.sum(x, axis, keepdim)`, ...).
//!
//! ## The rule
//! - **axes**: none, or an empty list, reduces **every** dim (an empty list
//!   is not a no-op). Each axis lies in `[-r, r)` for a rank-r x and counts
//!   from the end when negative; a 0-d x takes only 0 or -1. Two axes
//!   naming the same dim (`[1, -2]` on rank 3) are an error
//!   (`reduce/axis-range`, `reduce/duplicate-axis`).
//! - **keepdim** keeps each reduced dim as 1, so reducing everything gives
//!   an all-ones shape of rank r; without it the reduced dims are dropped.
//!   A 0-d x gives a 0-d result, with keepdim too; except argmax / argmin
//!   over an axis with keepdim, which give `[1]` (as Paddle does).
//! - **zero-size**: sum over nothing is 0, prod 1, mean `0 / 0` (NaN for
//!   floats, 0 for integers); max, min, argmax and argmin over a reduced
//!   dim of size 0 are an error (`reduce/empty`; Paddle's argmax returns
//!   uninitialised memory there). A zero-size dim that is not reduced just
//!   gives an empty result.
//! - **dtypes**: `sum` of i32 is i64 (Paddle promotes it); prod, max, min
//!   and mean keep the element type ([`ReduceElement::Sum`]). mean is the
//!   sum divided by the count, rounded once (integers truncate, as Paddle).
//!   Integer sums and products wrap on overflow. argmax / argmin give
//!   **i64** indices (Paddle's default dtype int64), the **first** index on
//!   ties; without an axis, the index into the flattened x. Only one axis
//!   (or none): Paddle rejects a list there.
//!
//! ## Static path
//! `x.sum(Axis::<1>)`, `x.sum_keepdim(Axis::<1>)`, `x.sum(All)` (every dim),
//! `x.sum((Axis::<0>, Axis::<2>))` (a tuple of up to four axes); the same
//! for `mean`, `max`, `min`, `prod`; `x.argmax(Axis::<-1>)`, `x.argmax(All)`,
//! `argmax_keepdim`. The output type drops (or keeps, as `Dim<1>`) the
//! reduced dims at compile time ([`Reduce`], [`ReduceOutput`]); an axis out
//! of range or named twice is one compile error naming x's shape and the
//! rule. No heap: a static result is inline. Static shapes of rank 0 to 6
//! (the generated tables); any rank to [`MAX_RANK`](crate::MAX_RANK) on the
//! dynamic path. With run-time dims (a `Vec` result, a `Room` for bounded
//! dims): [`Tensor::try_reduce`](crate::Tensor::try_reduce),
//! [`try_reduce_keepdim`](crate::Tensor::try_reduce_keepdim),
//! [`try_arg_reduce`](crate::Tensor::try_arg_reduce),
//! [`try_arg_reduce_keepdim`](crate::Tensor::try_arg_reduce_keepdim),
//! or the entries [`Tensor::reduce_into`](crate::Tensor::reduce_into) /
//! [`Tensor::arg_reduce_into`](crate::Tensor::arg_reduce_into) into a caller's tensor.
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::All;
//! let x = tensor![[1, 2, 3], [4, 5, 6]];
//! let rows: Tensor<i64, shape![2]> = x.sum(Axis::<1>); // i32 sums are i64
//! assert_eq!(rows.as_slice(), &[6, 15]);
//! let cols: Tensor<i32, shape![1, 3]> = x.max_keepdim(Axis::<0>);
//! assert_eq!(cols.as_slice(), &[4, 5, 6]);
//! let all: Tensor<i32, shape![]> = x.prod(All);
//! assert_eq!(all.as_slice(), &[720]);
//! let m: Tensor<f32, shape![]> = tensor![[1.0f32, 2.0], [3.0, 5.0]].mean((Axis::<0>, Axis::<-1>));
//! assert_eq!(m.as_slice(), &[2.75]);
//! let i: Tensor<i64, shape![2]> = x.argmax(Axis::<-1>);
//! assert_eq!(i.as_slice(), &[2, 2]);
//! ```
//! An axis out of range does not compile (`ui-tests/reduce/fail/`):
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let x = tensor![[1, 2, 3], [4, 5, 6]];
//! let _ = x.sum(Axis::<2>); // reduce/axis-range: rank 2, axis 2
//! ```
//!
//! ## Dynamic path
//! ```
//! use shapecheck::DynTensor;
//! let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
//! assert_eq!(x.sum(&[1], false).unwrap().as_slice(), &[6i64, 15]);
//! assert_eq!(x.sum(&[], true).unwrap().dims().as_slice(), &[1, 1]);
//! assert_eq!(x.argmin(None, false).unwrap().as_slice(), &[0i64]);
//! assert_eq!(x.max(&[0, -2], false).unwrap_err().rule(), "reduce/duplicate-axis");
//! ```
//!
//! ## Gradients
//! `x.sum_backward(axes, &dout)`, `mean_backward`, `max_backward(axes,
//! &out, &dout)`, `min_backward` and their `_keepdim_` forms return x's
//! gradient typed as x; `dout` (and `out`) are typed as the forward's
//! output, so one of another shape is the compile error `reduce/dout-shape`.
//! They take any x whose output's dims its type proves (static or branded:
//! a `Dyn` batch reduced away, a branded batch kept), with no `Result`; a
//! `Dyn` dim `dout` shares with x is `try_reduce_backward`'s.
//! sum: `dout` broadcast back over the reduced dims; mean: `dout / count`;
//! max and min: the **whole** `dout` to **every** element equal to the
//! extreme, 0 elsewhere, as `paddle.max` / `paddle.min` (not split among
//! ties as `paddle.amax`, nor sent to the first index). prod has none.
//! The entry [`Tensor::reduce_backward_into`](crate::Tensor::reduce_backward_into)
//! (any shape, checked), [`Tensor::try_reduce_backward`](crate::Tensor::try_reduce_backward),
//! `DynTensor::sum_backward(&axes, keepdim, &dout)`, ... and
//! [`reduce_backward_slices`]; the rule table is in `backward.rs`.
//! ```
//! use shapecheck::prelude::*;
//! let x = tensor![[1.0f32, 3.0, 3.0], [4.0, 5.0, 6.0]];
//! let gx: Tensor<f32, shape![2, 3]> = x.mean_backward(Axis::<1>, &tensor![3.0f32, 6.0]);
//! assert_eq!(gx.as_slice(), &[1.0, 1.0, 1.0, 2.0, 2.0, 2.0]);
//! let gx = x.max_backward(Axis::<1>, &x.max(Axis::<1>), &tensor![1.0f32, 1.0]);
//! assert_eq!(gx.as_slice(), &[0.0, 1.0, 1.0, 0.0, 0.0, 1.0]); // both 3s
//! ```
//!
//! ## Where things are
//! `rule.rs`: the rule, one `const fn` ([`plan`](rule::plan)) every path
//! calls; `bounds.rs`: [`Reduce`], the rule as types (its per-rank impls
//! generated by `shapecheck_macros::impl_reduce_rules!`, each axis placed by
//! the rule's [`axis_slot`](rule::axis_slot)); `kernel.rs`: the loops;
//! `api.rs`: the static path's entries ([`Tensor::reduce_into`](crate::Tensor::reduce_into),
//! [`Tensor::arg_reduce_into`](crate::Tensor::arg_reduce_into)) and their named forms;
//! `dynamic.rs`: `DynTensor::sum`, ...; `backward.rs`: the gradients;
//! `error.rs`: [`ReduceError`].

mod api;
mod backward;
pub(crate) mod bounds;
#[cfg(feature = "alloc")]
pub(crate) mod dynamic;
mod error;
mod kernel;
pub mod rule;

pub use backward::{
    reduce_backward_slices, ReduceDout, ReduceDoutLink, ReduceDoutRule, ReduceGrad, ReduceGradKind,
};
pub use bounds::*;
pub use error::ReduceError;
pub(crate) use kernel::runs;
pub use kernel::{arg_slices, reduce_slices};
pub use rule::reduce_output_dims;

use core::fmt;

/// Which reduction: `sum`, `mean`, `max`, `min` or `prod`.
///
/// ```
/// use shapecheck::DynTensor;
/// use shapecheck::ops::reduce::ReduceKind;
/// let x = DynTensor::new(&[2, 2], vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
/// let m = x.reduce::<f32>(ReduceKind::Prod, &[0], false).unwrap();
/// assert_eq!(m.as_slice(), &[3.0, 8.0]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceKind {
    /// `paddle.sum`.
    Sum,
    /// `paddle.mean`.
    Mean,
    /// `paddle.max`.
    Max,
    /// `paddle.min`.
    Min,
    /// `paddle.prod`.
    Prod,
}

/// `argmax` or `argmin`.
///
/// ```
/// use shapecheck::DynTensor;
/// use shapecheck::ops::reduce::ArgKind;
/// let x = DynTensor::new(&[2, 2], vec![1, 5, 5, 0]).unwrap();
/// let i = x.arg_reduce(ArgKind::ArgMin, Some(-1), false).unwrap();
/// assert_eq!(i.as_slice(), &[0i64, 1]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArgKind {
    /// `paddle.argmax`.
    ArgMax,
    /// `paddle.argmin`.
    ArgMin,
}

/// Any of the seven, as the rule sees them.
///
/// ```
/// use shapecheck::ops::reduce::{ArgKind, ReduceKind, Reduction};
/// assert_eq!(Reduction::from(ReduceKind::Prod).to_string(), "prod");
/// assert_eq!(Reduction::from(ArgKind::ArgMin).to_string(), "argmin");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reduction {
    /// A reduction of values.
    Reduce(ReduceKind),
    /// An index.
    Arg(ArgKind),
}

impl Reduction {
    /// Paddle's name of the op.
    ///
    /// ```
    /// use shapecheck::ops::reduce::{ReduceKind, Reduction};
    /// assert_eq!(Reduction::Reduce(ReduceKind::Mean).name(), "mean");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Reduction::Reduce(ReduceKind::Sum) => "sum",
            Reduction::Reduce(ReduceKind::Mean) => "mean",
            Reduction::Reduce(ReduceKind::Max) => "max",
            Reduction::Reduce(ReduceKind::Min) => "min",
            Reduction::Reduce(ReduceKind::Prod) => "prod",
            Reduction::Arg(ArgKind::ArgMax) => "argmax",
            Reduction::Arg(ArgKind::ArgMin) => "argmin",
        }
    }

    /// `true` when a reduced dim of size 0 is an error (max, min, argmax, argmin).
    ///
    /// ```
    /// use shapecheck::ops::reduce::{ArgKind, ReduceKind, Reduction};
    /// assert!(Reduction::Arg(ArgKind::ArgMax).needs_an_element());
    /// assert!(!Reduction::Reduce(ReduceKind::Sum).needs_an_element());
    /// ```
    #[must_use]
    pub const fn needs_an_element(self) -> bool {
        !matches!(
            self,
            Reduction::Reduce(ReduceKind::Sum | ReduceKind::Mean | ReduceKind::Prod)
        )
    }
}

impl From<ReduceKind> for Reduction {
    fn from(k: ReduceKind) -> Reduction {
        Reduction::Reduce(k)
    }
}
impl From<ArgKind> for Reduction {
    fn from(k: ArgKind) -> Reduction {
        Reduction::Arg(k)
    }
}
impl fmt::Display for Reduction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

mod sealed {
    #[doc(hidden)]
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
    /// The axes markers, an `isize` and a list of them.
    #[doc(hidden)]
    pub trait SealedAxes {}
    impl SealedAxes for super::All {}
    impl<const A: isize> SealedAxes for crate::ops::elementwise::Axis<A> {}
    impl<const A: isize> SealedAxes for (crate::ops::elementwise::Axis<A>,) {}
    impl<const A: isize, const B: isize> SealedAxes
        for (
            crate::ops::elementwise::Axis<A>,
            crate::ops::elementwise::Axis<B>,
        )
    {
    }
    impl<const A: isize, const B: isize, const C: isize> SealedAxes
        for (
            crate::ops::elementwise::Axis<A>,
            crate::ops::elementwise::Axis<B>,
            crate::ops::elementwise::Axis<C>,
        )
    {
    }
    impl<const A: isize, const B: isize, const C: isize, const D: isize> SealedAxes
        for (
            crate::ops::elementwise::Axis<A>,
            crate::ops::elementwise::Axis<B>,
            crate::ops::elementwise::Axis<C>,
            crate::ops::elementwise::Axis<D>,
        )
    {
    }
    impl SealedAxes for isize {}
    impl SealedAxes for &[isize] {}
    impl SealedAxes for Option<isize> {}
}

/// The axes of a reduction as the dynamic path ([`DynTensor::try_sum`](crate::DynTensor::try_sum)
/// and the other `try_` forms) takes them: the static path's markers
/// ([`All`], [`Axis::<A>`](crate::Axis), a tuple of up to four), or values
/// chosen at run time (an `isize`, a `&[isize]`; an empty list is every
/// dim, as Paddle's `axis=[]`). Sealed.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{All, DynAxes};
/// assert_eq!((Axis::<0>, Axis::<-1>).axes(), &[0, -1]);
/// assert_eq!(All.axes(), &[] as &[isize]);
/// assert_eq!(2isize.axes(), &[2]);
/// assert_eq!((&[1isize, 0][..]).axes(), &[1, 0]);
/// ```
#[doc(hidden)]
pub trait DynAxes: sealed::SealedAxes {
    /// The axes as values (empty: every dim).
    fn axes(&self) -> &[isize];
}

/// argmax / argmin's axis as the dynamic path
/// ([`DynTensor::try_argmax`](crate::DynTensor::try_argmax)) takes it: [`All`]
/// (the flattened x), an [`Axis::<A>`](crate::Axis), an `isize`, or an
/// `Option<isize>` (`None`: flattened). Sealed.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{All, DynArgAxis};
/// assert_eq!((All.arg_axis(), Axis::<1>.arg_axis(), (-1isize).arg_axis()), (None, Some(1), Some(-1)));
/// ```
#[doc(hidden)]
pub trait DynArgAxis: sealed::SealedAxes {
    /// The axis as a value (`None`: the flattened x).
    fn arg_axis(&self) -> Option<isize>;
}

impl DynAxes for All {
    #[inline(always)]
    fn axes(&self) -> &[isize] {
        &[]
    }
}
impl<const A: isize> DynAxes for crate::ops::elementwise::Axis<A> {
    #[inline(always)]
    fn axes(&self) -> &[isize] {
        const { &[A] }
    }
}
impl<const A: isize> DynAxes for (crate::ops::elementwise::Axis<A>,) {
    #[inline(always)]
    fn axes(&self) -> &[isize] {
        const { &[A] }
    }
}
impl<const A: isize, const B: isize> DynAxes
    for (
        crate::ops::elementwise::Axis<A>,
        crate::ops::elementwise::Axis<B>,
    )
{
    #[inline(always)]
    fn axes(&self) -> &[isize] {
        const { &[A, B] }
    }
}
impl<const A: isize, const B: isize, const C: isize> DynAxes
    for (
        crate::ops::elementwise::Axis<A>,
        crate::ops::elementwise::Axis<B>,
        crate::ops::elementwise::Axis<C>,
    )
{
    #[inline(always)]
    fn axes(&self) -> &[isize] {
        const { &[A, B, C] }
    }
}
impl<const A: isize, const B: isize, const C: isize, const D: isize> DynAxes
    for (
        crate::ops::elementwise::Axis<A>,
        crate::ops::elementwise::Axis<B>,
        crate::ops::elementwise::Axis<C>,
        crate::ops::elementwise::Axis<D>,
    )
{
    #[inline(always)]
    fn axes(&self) -> &[isize] {
        const { &[A, B, C, D] }
    }
}
impl DynAxes for isize {
    #[inline(always)]
    fn axes(&self) -> &[isize] {
        core::slice::from_ref(self)
    }
}
impl DynAxes for &[isize] {
    #[inline(always)]
    fn axes(&self) -> &[isize] {
        self
    }
}

impl DynArgAxis for All {
    #[inline(always)]
    fn arg_axis(&self) -> Option<isize> {
        None
    }
}
impl<const A: isize> DynArgAxis for crate::ops::elementwise::Axis<A> {
    #[inline(always)]
    fn arg_axis(&self) -> Option<isize> {
        Some(A)
    }
}
impl DynArgAxis for isize {
    #[inline(always)]
    fn arg_axis(&self) -> Option<isize> {
        Some(*self)
    }
}
impl DynArgAxis for Option<isize> {
    #[inline(always)]
    fn arg_axis(&self) -> Option<isize> {
        *self
    }
}

/// An element type the reductions take: `f32`, `f64`, `i32`, `i64` (the
/// types Paddle's reduce kernels register and the vectors record).
///
/// ```
/// use shapecheck::ops::reduce::ReduceElement;
/// assert_eq!(<i32 as ReduceElement>::HIGHEST, i32::MAX);
/// let s: <i32 as ReduceElement>::Sum = 5i64; // sum of i32 is i64
/// assert_eq!(3.0f32.div_count(2), 1.5);
/// assert_eq!((-3i32).div_count(2), -1); // integers truncate
/// # let _ = s;
/// ```
#[diagnostic::on_unimplemented(
    message = "reduce/element: the reductions take f32, f64, i32 or i64 elements, not {Self}",
    label = "a tensor of `{Self}`",
    note = "PaddlePaddle 3.3.1 registers its reduce kernels for these types"
)]
#[doc(hidden)]
pub trait ReduceElement: Copy + PartialOrd + 'static + sealed::Sealed {
    /// `sum`'s output type: `i64` for `i32` (Paddle promotes it), `Self` otherwise.
    type Sum: ReduceElement + From<Self>;
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// The smallest value (`-inf` for floats): where max starts.
    const LOWEST: Self;
    /// The largest value (`inf` for floats): where min starts.
    const HIGHEST: Self;
    /// `self + o` (wrapping for integers).
    fn add(self, o: Self) -> Self;
    /// `self * o` (wrapping for integers).
    fn mul(self, o: Self) -> Self;
    /// The larger (`self` on a tie or a NaN `o`).
    #[inline(always)]
    fn max_of(self, o: Self) -> Self {
        if o > self {
            o
        } else {
            self
        }
    }
    /// The smaller (`self` on a tie or a NaN `o`).
    #[inline(always)]
    fn min_of(self, o: Self) -> Self {
        if o < self {
            o
        } else {
            self
        }
    }
    /// `self / n` (a mean): rounded once for floats, truncated for
    /// integers (0 for `n = 0`).
    fn div_count(self, n: usize) -> Self;
}

impl ReduceElement for f32 {
    type Sum = f32;
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    const LOWEST: f32 = f32::NEG_INFINITY;
    const HIGHEST: f32 = f32::INFINITY;
    #[inline(always)]
    fn add(self, o: f32) -> f32 {
        self + o
    }
    #[inline(always)]
    fn mul(self, o: f32) -> f32 {
        self * o
    }
    // a count past the mantissa rounds, as Paddle's does
    #[allow(clippy::cast_precision_loss)]
    #[inline(always)]
    fn div_count(self, n: usize) -> f32 {
        self / n as f32
    }
}
impl ReduceElement for f64 {
    type Sum = f64;
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;
    const LOWEST: f64 = f64::NEG_INFINITY;
    const HIGHEST: f64 = f64::INFINITY;
    #[inline(always)]
    fn add(self, o: f64) -> f64 {
        self + o
    }
    #[inline(always)]
    fn mul(self, o: f64) -> f64 {
        self * o
    }
    // a count past the mantissa rounds, as Paddle's does
    #[allow(clippy::cast_precision_loss)]
    #[inline(always)]
    fn div_count(self, n: usize) -> f64 {
        self / n as f64
    }
}
impl ReduceElement for i32 {
    type Sum = i64;
    const ZERO: i32 = 0;
    const ONE: i32 = 1;
    const LOWEST: i32 = i32::MIN;
    const HIGHEST: i32 = i32::MAX;
    #[inline(always)]
    fn add(self, o: i32) -> i32 {
        self.wrapping_add(o)
    }
    #[inline(always)]
    fn mul(self, o: i32) -> i32 {
        self.wrapping_mul(o)
    }
    #[inline(always)]
    fn div_count(self, n: usize) -> i32 {
        // a count past the type's range leaves a quotient of 0 (or -0)
        i32::try_from(n).map_or(0, |n| self.checked_div(n).unwrap_or(0))
    }
}
impl ReduceElement for i64 {
    type Sum = i64;
    const ZERO: i64 = 0;
    const ONE: i64 = 1;
    const LOWEST: i64 = i64::MIN;
    const HIGHEST: i64 = i64::MAX;
    #[inline(always)]
    fn add(self, o: i64) -> i64 {
        self.wrapping_add(o)
    }
    #[inline(always)]
    fn mul(self, o: i64) -> i64 {
        self.wrapping_mul(o)
    }
    #[inline(always)]
    fn div_count(self, n: usize) -> i64 {
        // a count past the type's range leaves a quotient of 0 (or -0)
        i64::try_from(n).map_or(0, |n| self.checked_div(n).unwrap_or(0))
    }
}
