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

#[cfg(feature = "alloc")]
pub(crate) mod dynamic;
mod error;
mod kernel;
mod rule;

pub use error::MatmulError;
pub use kernel::matmul_slices;
pub use rule::matmul_output_dims;
