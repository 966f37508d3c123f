//! The static path of reshape: [`Tensor::reshape`], [`Tensor::reshape_rows`]
//! and [`Tensor::try_reshape`]. Each moves the storage into the result
//! unchanged; only the shape is new.

use super::bounds::{CountsAgree, KeepsRowsOf, ReshapeOf};
use super::rule::reshape_rule;
use super::ReshapeError;
use crate::shape::Shape;
use crate::storage::Storage;
use crate::tensor::Tensor;

impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// The same elements under the static shape `S2`, which must hold as
    /// many elements as `S` (`reshape/element-count`, checked by the
    /// compiler when the call is built). Nothing is copied: the storage
    /// moves into the result as it is, so an inline tensor's result keeps
    /// the array it was made with (`Inline<T, S>`; every op and method
    /// takes it), a `Vec` its allocation, a view its borrow.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1, 2, 3], [4, 5, 6]];
    /// let y = x.reshape::<shape![3, 2]>();
    /// assert_eq!(y.dims().as_slice(), &[3, 2]);
    /// assert_eq!(y.get(&[1, 1]), Some(&4));
    ///
    /// // a view of a tensor you keep: no copy, the same memory
    /// let flat = x.view().reshape::<shape![6]>();
    /// assert_eq!(flat.as_slice().as_ptr(), x.as_slice().as_ptr());
    ///
    /// // a Vec keeps its allocation
    /// let h = x.to_heap();
    /// let at = h.as_slice().as_ptr();
    /// let h = h.reshape::<shape![1, 6]>();
    /// assert_eq!(h.as_slice().as_ptr(), at);
    /// ```
    ///
    /// Another element count does not build; the error names both shapes
    /// and counts (`[2, 3] holds 6, but [4, 2] holds 8`):
    ///
    /// ```compile_fail
    /// use shapecheck::prelude::*;
    /// let _ = tensor![[1, 2, 3], [4, 5, 6]].reshape::<shape![4, 2]>();
    /// ```
    pub fn reshape<S2: ReshapeOf<S>>(self) -> Tensor<T, S2, B> {
        let () = CountsAgree::<S2::Source, S2::Target>::CHECK;
        let (_, data) = self.into_parts();
        Tensor::from_parts_unchecked(S2::target(), data)
    }

    /// The same elements with the first dim kept (static, [`Dyn`](crate::Dyn),
    /// a brand or a [`Bounded`](crate::Bounded): its value and its type
    /// carry over) and each row reshaped to `S2`'s other dims, which are
    /// static and must hold as many elements as a row of `S` (checked by the
    /// compiler). This is the reshape a function generic over the batch dim
    /// calls: it needs no bound. Nothing is copied, as in
    /// [`reshape`](Self::reshape).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// // a layer generic over the batch dim: flatten each [2, 3] row
    /// fn flatten<B: DimLike>(x: Tensor<f32, (B, Dim<2>, Dim<3>), Vec<f32>>) -> Tensor<f32, (B, Dim<6>), Vec<f32>> {
    ///     x.reshape_rows()
    /// }
    /// let x = Tensor::<f32, shape![Dyn, 2, 3], Vec<f32>>::with_dims(&[4, 2, 3], vec![1.0; 24]).unwrap();
    /// assert_eq!(flatten(x).dims().as_slice(), &[4, 6]);
    /// let s = Tensor::<f32, shape![2, 2, 3], Vec<f32>>::from_vec((Dim, Dim, Dim), vec![0.0; 12]).unwrap();
    /// let f: Tensor<f32, shape![2, 6], Vec<f32>> = flatten(s);
    /// assert_eq!(f.as_slice().len(), 12);
    /// ```
    ///
    /// A row that changes its element count does not build:
    ///
    /// ```compile_fail
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 2, 3], Vec<f32>>::with_dims(&[4, 2, 3], vec![1.0; 24]).unwrap();
    /// let _ = x.reshape_rows::<shape![Dyn, 5]>();
    /// ```
    pub fn reshape_rows<S2: KeepsRowsOf<S>>(self) -> Tensor<T, S2, B> {
        let () = CountsAgree::<S2::FromRow, S2::ToRow>::ROWS_CHECK;
        let shape = S2::keep_first(self.shape());
        let (_, data) = self.into_parts();
        Tensor::from_parts_unchecked(shape, data)
    }

    /// The same elements under `shape`, any shape whose run-time dims are
    /// given as values (`(Dyn(4), Dim::<3>)`), checked when it runs: the
    /// element counts must agree (`reshape/element-count`), and neither
    /// may overflow (`shape/overflow`). On an error nothing was moved: the
    /// tensor is dropped with the call, as a consumed argument is; reshape
    /// a [`view`](Self::view) to keep it. Nothing is copied, as in
    /// [`reshape`](Self::reshape).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<i32, shape![Dyn, 4], Vec<i32>>::with_dims(&[3, 4], (0..12).collect()).unwrap();
    /// let y = x.view().try_reshape((Dyn(2), Dim::<6>)).unwrap();
    /// assert_eq!(y.get(&[1, 0]), Some(&6));
    /// let err = x.view().try_reshape((Dyn(5), Dim::<2>)).unwrap_err();
    /// assert_eq!(err.to_string(), "reshape: the target shape must hold as many elements as the tensor: [3, 4] holds 12, but [5, 2] holds 10");
    /// ```
    pub fn try_reshape<S2: Shape>(self, shape: S2) -> Result<Tensor<T, S2, B>, ReshapeError> {
        reshape_rule(&self.dims(), &shape.dims())?;
        let (_, data) = self.into_parts();
        Ok(Tensor::from_parts_unchecked(shape, data))
    }
}
