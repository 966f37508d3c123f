//! Branding a tensor's rows: the one run-time check after which tensors
//! with the same [`Branded`] rows meet in the plain forms of every op.

use crate::dim::{brand, Branded, DimLike, Dyn};
use crate::error::ShapeError;
use crate::rows::RowShape;
use crate::storage::Storage;
use crate::tensor::Tensor;

/// The tensor's shape with its first dim (the rows) replaced by `D`.
pub type WithRows<S, D> = <S as RowShape>::WithRows<D>;

impl<T: Copy, S: RowShape, B: Storage<T>> Tensor<T, S, B> {
    /// Gives the first dim (the rows) the brand `rows`, after checking once
    /// that it has the brand's size; the data is not touched. From here on
    /// the tensor meets every tensor with the same brand through the plain
    /// forms, with no run-time shape comparison. A brand comes from
    /// [`brand`] or [`with_brand`](Self::with_brand).
    ///
    /// # Errors
    /// [`ShapeError::BrandSize`] (`shape/brand-size`) when the first dim
    /// is not the brand's size.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(3), Dim), vec![1.0; 6]).unwrap();
    /// brand(3, |rows| {
    ///     let x = x.clone().brand_rows(rows).unwrap();
    ///     assert_eq!(x.dims().as_slice(), &[3, 2]);
    /// });
    /// let err = brand(2, |rows| x.brand_rows(rows).unwrap_err());
    /// assert_eq!(err.to_string(), "dim 0 is 3, but the brand it was given has size 2");
    /// ```
    pub fn brand_rows<'id>(
        self,
        rows: Branded<'id>,
    ) -> Result<Tensor<T, WithRows<S, Branded<'id>>, B>, ShapeError> {
        let found = self.shape().rows();
        if found != rows.size() {
            return Err(ShapeError::BrandSize {
                axis: 0,
                brand: rows.size(),
                found,
            });
        }
        let shape = self.shape().with_rows_dim(rows);
        let (_, data) = self.into_parts();
        Ok(Tensor::from_parts_unchecked(shape, data))
    }

    /// Calls `f` with this tensor, its rows branded with a new brand of
    /// their size, and the brand (for [`brand_rows`](Self::brand_rows) on
    /// the tensors that should meet it). Nothing is checked: the brand is
    /// made from this tensor's rows. `f`'s result cannot hold the brand (see
    /// [`Branded`]): [`unbrand_rows`](Self::unbrand_rows) turns a branded
    /// tensor back into a `Dyn`-rowed one.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// // a stitch's output rows as the brand
    /// let merged = dynamic_stitch(&tensor![1, 0], &tensor![[1.0f32, 2.0], [3.0, 4.0]]).run().unwrap();
    /// let bias = Tensor::<f32, shape![Dyn, 1], Vec<f32>>::from_vec((Dyn(2), One), vec![0.5, -0.5]).unwrap();
    /// let out = merged.with_brand(|m, rows| {
    ///     let bias = bias.brand_rows(rows)?;
    ///     Ok::<_, ShapeError>(m.elementwise_add(&bias, Axis::<-1>, Identity).unbrand_rows())
    /// }).unwrap();
    /// assert_eq!(out.as_slice(), &[3.5, 4.5, 0.5, 1.5]);
    /// ```
    pub fn with_brand<R>(
        self,
        f: impl for<'id> FnOnce(Tensor<T, WithRows<S, Branded<'id>>, B>, Branded<'id>) -> R,
    ) -> R {
        let n = self.shape().rows();
        brand(n, move |rows| {
            let shape = self.shape().with_rows_dim(rows);
            let (_, data) = self.into_parts();
            f(Tensor::from_parts_unchecked(shape, data), rows)
        })
    }

    /// [`with_brand`](Self::with_brand) on a borrow: the tensor stays yours,
    /// `f` gets a branded view of it (no copy). Other tensors join the brand
    /// with `.view().brand_rows(rows)` (or by value), and a result leaves
    /// `f` as a `Dyn`-rowed tensor through
    /// [`unbrand_rows`](Self::unbrand_rows), which moves its data.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0, -2.0, 3.0, -4.0]).unwrap();
    /// let y = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![10.0; 4]).unwrap();
    /// let z = x.with_brand_view(|xb, rows| {
    ///     let yb = y.view().brand_rows(rows)?; // checked once
    ///     // three plain ops on one brand: no run-time shape check
    ///     let s = xb.elementwise_add(&yb, Axis::<-1>, Identity);
    ///     let p = s.elementwise_mul(&yb, Axis::<-1>, Relu);
    ///     Ok::<_, ShapeError>((&p - &xb).unbrand_rows())
    /// }).unwrap();
    /// assert_eq!(z.as_slice(), &[109.0, 82.0, 127.0, 64.0]);
    /// assert_eq!(x.dims().as_slice(), &[2, 2]); // x is still here
    /// ```
    pub fn with_brand_view<R>(
        &self,
        f: impl for<'id> FnOnce(Tensor<T, WithRows<S, Branded<'id>>, &[T]>, Branded<'id>) -> R,
    ) -> R {
        self.view().with_brand(f)
    }

    /// The tensor with a run-time ([`Dyn`]) first dim of the same size:
    /// what leaves a brand's closure. The data is not touched.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<u8, shape![Dyn, 2], Vec<u8>>::from_vec((Dyn(1), Dim), vec![7, 8]).unwrap();
    /// let back: Tensor<u8, shape![Dyn, 2], Vec<u8>> = x.with_brand(|x, _| x.unbrand_rows());
    /// assert_eq!(back.as_slice(), &[7, 8]);
    /// ```
    pub fn unbrand_rows(self) -> Tensor<T, WithRows<S, Dyn>, B> {
        let shape = self.shape().with_rows_dim(Dyn(self.shape().rows()));
        let (_, data) = self.into_parts();
        Tensor::from_parts_unchecked(shape, data)
    }
}

/// `S` with its rows branded: for signatures of functions that take
/// branded tensors.
pub type BrandedRows<'id, S> = WithRows<S, Branded<'id>>;

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use crate::prelude::*;

    #[test]
    fn a_branded_shape_cannot_be_rebuilt_from_sizes() {
        brand(2, |rows| {
            let t = Tensor::<u8, (Dyn, Dim<2>), alloc::vec::Vec<u8>>::with_dims(
                &[2, 2],
                alloc::vec![0; 4],
            )
            .unwrap()
            .brand_rows(rows)
            .unwrap();
            let err = t.dims();
            assert_eq!(err.as_slice(), &[2, 2]);
            let e = <(Branded<'_>, Dim<2>) as Shape>::from_dims(&[2, 2]).unwrap_err();
            assert_eq!(e.rule(), "shape/branded");
        });
    }

    #[test]
    fn the_brand_survives_unbranding_as_the_same_size() {
        let x = Tensor::<u8, (Dyn, Dim<1>), alloc::vec::Vec<u8>>::with_dims(
            &[3, 1],
            alloc::vec![1, 2, 3],
        )
        .unwrap();
        let y = x.with_brand(|x, rows| {
            assert_eq!(rows.size(), 3);
            x.unbrand_rows()
        });
        assert_eq!(y.dims().as_slice(), &[3, 1]);
    }
}
