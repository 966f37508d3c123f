//! `matmul` (PaddlePaddle 3.3.1's `paddle.matmul(x, y, transpose_x,
//! transpose_y)`): the matrix product over the last two dims, batched over
//! the rest.
//!
//! ## The rule
//! - Both operands have rank 1 or more (a 0-d operand is `matmul/rank`).
//! - A **transpose** flag swaps its operand's last two dims. The flag of a
//!   1-D operand is ignored.
//! - A **1-D** x `[K]` is read as a row `[1, K]`, a 1-D y `[K]` as a column
//!   `[K, 1]`; the added dim is dropped from the output. Vector · vector is
//!   0-d (`[]`); `[K] × [b, K, N]` is `[b, N]`.
//! - Then x is `[..., M, K]` and y `[..., K, N]`: x's inner dim (its last, or
//!   its second-to-last when transposed) must equal y's (its second-to-last,
//!   or its last when transposed or a vector): `matmul/inner`.
//! - The **batch dims** (all but the last two) broadcast as numpy's:
//!   right-aligned, the ranks may differ, each pair equal or one of them 1
//!   (`matmul/batch`). `[2, 1, 3, 4] × [5, 4, 6]` is `[2, 5, 3, 6]`.
//! - The output is the batch dims, then M (unless x is 1-D), then N (unless
//!   y is 1-D). A zero-size M, N or batch dim gives an empty output; K = 0
//!   gives zeros.
//! - Element types: the numeric ones (`f32`, `f64`, the integers; integer
//!   products wrap), one for both operands (`matmul/element-type`, a
//!   compile error: Paddle rejects mixed dtypes and `bool`).
//!
//! ## Where this differs from Paddle
//! - Paddle 3.3.1's own int32/int64 CPU kernel sizes the output from the
//!   higher-rank operand's batch dims without broadcasting (and corrupts its
//!   heap) when the ranks differ and a batch dim of 1 meets a larger one;
//!   its float kernels compute those shapes as the rule above says, and so
//!   does shapecheck for every element type.
//! - Paddle reads `dims[-1]` of a 0-d operand out of bounds; it is an error here.
//!
//! ## Static path
//! Every shape a type: [`Tensor::matmul`](crate::Tensor::matmul) (no
//! transpose) and [`Tensor::matmul_t`](crate::Tensor::matmul_t) (the flags
//! as the markers [`NoTrans`] and [`Trans`]) return the output type the
//! compiler computes ([`MatmulOutput`]), inline for inline operands, and
//! cannot fail; `matmul_into` writes into a caller's buffer; `try_matmul`
//! and `try_matmul_into` take run-time (`Dyn`) dims and check them when
//! they run. A dense layer is one line:
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::{NoTrans, Trans};
//! let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [0.0, 1.0, -1.0]]);
//! let w = Tensor::<f32, shape![3, 2]>::from_array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]);
//! let b = tensor![0.5f32, -10.0];
//! let h: Tensor<f32, shape![2, 2]> = x.matmul(&w).elementwise_add(&b, Axis::<-1>, Relu);
//! assert_eq!(h.as_slice(), &[4.5, 0.0, 0.0, 0.0]);
//! // x · wᵀ with w stored as [2, 3]
//! let wt = Tensor::<f32, shape![2, 3]>::full(1.0);
//! let _: Tensor<f32, shape![2, 2]> = x.matmul_t(&wt, NoTrans, Trans);
//! ```
//! A shape the rule rejects is one compile error naming both shapes and
//! the rule (`ui-tests/matmul/fail/`):
//! ```text
//! error[E0277]: matmul/inner: x (Dim<3>, Dim<4>) and y (Dim<5>, Dim<6>): x's last dim Dim<4> must equal y's second-to-last Dim<5>
//! ```
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let x = Tensor::<f32, shape![2, 4, 5]>::full(1.0);
//! let y = Tensor::<f32, shape![3, 5, 6]>::full(1.0);
//! let _ = x.matmul(&y); // matmul/batch: batch dims Dim<2> and Dim<3> differ and neither is 1
//! ```
//!
//! ## Files
//! `rule.rs`: the rule, a `const fn` both paths call (the static path at
//! compile time); `kernel.rs`: the loops and `apply`, every form's last
//! step; `api.rs`: the `Tensor` forms, each a few lines; `bounds.rs`: the
//! rule as traits, for the compile errors only ([`MatmulShapes`], the one
//! public trait); `dynamic.rs`: [`DynTensor::matmul`](crate::DynTensor::matmul);
//! `error.rs`: [`MatmulError`].
//!
//! ## Dynamic path
//! ```
//! use shapecheck::DynTensor;
//! let x = DynTensor::new(&[3], vec![1.0f32, 2.0, 3.0]).unwrap();
//! let y = DynTensor::new(&[3, 2], vec![1.0f32, 0.0, 0.0, 1.0, 1.0, 1.0]).unwrap();
//! // x [3] is a row; its transpose flag is ignored
//! let z = x.matmul(&y, true, false).unwrap();
//! assert_eq!((z.dims().as_slice(), z.as_slice()), (&[2][..], &[4.0, 5.0][..]));
//! let err = y.matmul(&y, false, false).unwrap_err();
//! assert_eq!(err.rule(), "matmul/inner");
//! ```

mod api;
mod backward;
mod bounds;
#[cfg(feature = "alloc")]
pub(crate) mod dynamic;
mod error;
mod kernel;
mod rule;

pub use backward::{matmul_backward_slices, MatmulGrads};
#[doc(hidden)]
pub use bounds::{
    InnerLastLast, InnerLastSecond, InnerSecondLast, InnerSecondSecond, MatmulBatchDim,
    MatmulBatchLink, MatmulInnerLink, MatmulNoCheck, MatmulRankGate, MatmulRule, MatmulWhole,
};
pub use bounds::{MatmulElements, MatmulOutput, MatmulShapes};
pub use error::MatmulError;
pub use kernel::matmul_slices;
pub use rule::matmul_output_dims;

use crate::dim::DimLike;

/// A transpose marker of the static path: [`NoTrans`] or [`Trans`] (Paddle's
/// `transpose_x` / `transpose_y` as a type).
#[doc(hidden)]
pub trait Transpose: Copy + Default + sealed::Sealed {
    /// The flag as a value.
    const ON: bool;
    /// The other marker (y's inner dim is its `Lead`, i.e. its flipped
    /// marker's `Trail`).
    type Flip: Transpose;
    /// Of an operand's last two dims `A`, `B`: the one that is its rows.
    type Lead<A: DimLike, B: DimLike>: DimLike;
    /// Of an operand's last two dims `A`, `B`: the one that is its columns.
    type Trail<A: DimLike, B: DimLike>: DimLike;
    /// [`Transpose::Lead`]'s value.
    fn lead<A: DimLike, B: DimLike>(a: A, b: B) -> Self::Lead<A, B>;
    /// [`Transpose::Trail`]'s value.
    fn trail<A: DimLike, B: DimLike>(a: A, b: B) -> Self::Trail<A, B>;
}

/// The operand as it is (`transpose = False`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::NoTrans;
/// let x = tensor![[1, 2], [3, 4]];
/// assert_eq!(x.matmul_t(&x, NoTrans, NoTrans).as_slice(), x.matmul(&x).as_slice());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoTrans;

/// The operand with its last two dims swapped (`transpose = True`; ignored
/// for a 1-D operand).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{NoTrans, Trans};
/// let x = tensor![[1, 2], [3, 4]];
/// // xᵀ · x
/// assert_eq!(x.matmul_t(&x, Trans, NoTrans).as_slice(), &[10, 14, 14, 20]);
/// // a vector's marker is ignored
/// assert_eq!(tensor![1, 1].matmul_t(&x, Trans, NoTrans).as_slice(), &[4, 6]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trans;

impl Transpose for NoTrans {
    const ON: bool = false;
    type Flip = Trans;
    type Lead<A: DimLike, B: DimLike> = A;
    type Trail<A: DimLike, B: DimLike> = B;
    #[inline(always)]
    fn lead<A: DimLike, B: DimLike>(a: A, _: B) -> A {
        a
    }
    #[inline(always)]
    fn trail<A: DimLike, B: DimLike>(_: A, b: B) -> B {
        b
    }
}

impl Transpose for Trans {
    const ON: bool = true;
    type Flip = NoTrans;
    type Lead<A: DimLike, B: DimLike> = B;
    type Trail<A: DimLike, B: DimLike> = A;
    #[inline(always)]
    fn lead<A: DimLike, B: DimLike>(_: A, b: B) -> B {
        b
    }
    #[inline(always)]
    fn trail<A: DimLike, B: DimLike>(a: A, _: B) -> A {
        a
    }
}

mod sealed {
    /// The two markers only.
    #[doc(hidden)]
    pub trait Sealed {}
    impl Sealed for super::NoTrans {}
    impl Sealed for super::Trans {}
    /// The two markers and a `bool`.
    #[doc(hidden)]
    pub trait SealedFlag {}
    impl SealedFlag for super::NoTrans {}
    impl SealedFlag for super::Trans {}
    impl SealedFlag for bool {}
}

/// A transpose flag as the dynamic path ([`DynTensor::try_matmul`](crate::DynTensor::try_matmul))
/// takes it: the static path's [`NoTrans`] / [`Trans`], or a `bool` chosen
/// at run time (`true`: transposed), as [`DynAxis`](crate::ops::elementwise::DynAxis)
/// takes an `Axis::<A>` or an `isize`. Sealed.
///
/// ```
/// use shapecheck::{DynTranspose, NoTrans, Trans};
/// assert_eq!((NoTrans.on(), Trans.on(), true.on()), (false, true, true));
/// ```
#[doc(hidden)]
pub trait DynTranspose: Copy + sealed::SealedFlag {
    /// The flag's value.
    fn on(self) -> bool;
}
impl DynTranspose for NoTrans {
    #[inline(always)]
    fn on(self) -> bool {
        false
    }
}
impl DynTranspose for Trans {
    #[inline(always)]
    fn on(self) -> bool {
        true
    }
}
impl DynTranspose for bool {
    #[inline(always)]
    fn on(self) -> bool {
        self
    }
}
