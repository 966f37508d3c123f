//! `reshape`: the same elements, in the same row-major order, under another
//! shape with the same element count.
//!
//! The rule (NumPy's `reshape`, TensorFlow's `tf.reshape`, PaddlePaddle's
//! `reshape` all agree on it): a tensor of `n` elements can take any shape
//! whose dims multiply to `n`; the elements are not moved, so element `k`
//! of the flat row-major order stays element `k`. A shape whose element
//! count differs is refused (`reshape/element-count`), as is a shape whose
//! count overflows `usize` (`shape/overflow`). The frameworks also accept a
//! `-1` dim to be inferred and Paddle a `0` to copy the input's dim; here
//! the target is always spelled out, as a type (`Dim<N>`) or a value
//! (`Dyn(n)`), so there is nothing to infer.
//!
//! Nothing is copied on any storage: a reshape moves the tensor's storage
//! into the result unchanged (a `Vec` keeps its allocation, a view its
//! borrow, an inline array or a bounded [`Room`](crate::Room) its array).
//! For a reshaped view of a tensor you keep, reshape its
//! [`view`](crate::Tensor::view).
//!
//! | form | shapes | checked |
//! |---|---|---|
//! | [`reshape::<S2>()`](crate::Tensor::reshape) | both static | by the compiler (at `cargo build`) |
//! | [`reshape_rows::<S2>()`](crate::Tensor::reshape_rows) | the first dim kept (any kind: `Dyn`, a brand, `Bounded`, static), the rest static | by the compiler |
//! | [`try_reshape(shape)`](crate::Tensor::try_reshape) | any, the target given as a value | at run time: [`ReshapeError`] |
//! | [`DynTensor::reshape(dims)`](crate::DynTensor::reshape) | run-time dims | at run time |
//!
//! The rule is one function, [`reshape_rule`]; the compile-time check
//! ([`CountsAgree`]) evaluates the same function on the shapes' constants.
//!
//! ```
//! use shapecheck::prelude::*;
//! // static: [2, 3] -> [3, 2], the element order kept
//! let x = tensor![[1, 2, 3], [4, 5, 6]];
//! let y = x.reshape::<shape![3, 2]>();
//! assert_eq!(y.get(&[2, 0]), Some(&5));
//!
//! // rows kept, whatever the batch dim is: [Dyn, 2, 2] -> [Dyn, 4]
//! let b = Tensor::<f32, shape![Dyn, 2, 2], Vec<f32>>::with_dims(&[2, 2, 2], vec![0.0; 8]).unwrap();
//! let flat = b.reshape_rows::<shape![Dyn, 4]>();
//! assert_eq!(flat.dims().as_slice(), &[2, 4]);
//!
//! // run-time dims: checked
//! let v = flat.try_reshape((Dyn(4), Dyn(2))).unwrap();
//! assert_eq!(v.dims().as_slice(), &[4, 2]);
//! let err = v.try_reshape((Dyn(3), Dyn(3))).unwrap_err();
//! assert_eq!(err.rule(), "reshape/element-count");
//! ```
//!
//! A static reshape that changes the element count does not build:
//!
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let x = tensor![[1, 2, 3], [4, 5, 6]];
//! let _ = x.reshape::<shape![4, 2]>();
//! ```

mod api;
mod bounds;
#[cfg(feature = "alloc")]
mod dynamic;
mod error;
mod rule;

pub use bounds::{CountsAgree, KeepsRowsOf, ReshapeOf};
pub use error::ReshapeError;
pub use rule::reshape_rule;
