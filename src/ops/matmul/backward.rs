//! Matmul's gradients: from the forward's x and y and the upstream gradient
//! `dout` (the output's shape), x's and y's gradients, each of its
//! operand's shape.
//!
//! With x read as `M × K` and y as `K × N` (after the transposes; a 1-D x
//! a row, a 1-D y a column), per matrix of the batch:
//! `dx = dout · yᵀ` and `dy = xᵀ · dout`, written back through the same
//! strides that read the operand (so a transposed operand's gradient is
//! transposed back, and a vector's is a vector). Each operand's gradient
//! is summed over the batch dims where it broadcast (a batch dim of 1 or
//! absent meeting a larger one), as Paddle's `matmul_grad` and numpy
//! compute it.
//!
//! Forms: [`Tensor::matmul_backward`] and [`Tensor::matmul_backward_t`]
//! (static shapes, cannot fail; `dout` is typed as the forward's output,
//! so a `dout` of another shape does not compile),
//! [`Tensor::matmul_backward_into`] (caller's buffers, no heap),
//! [`Tensor::try_matmul_backward`] and [`Tensor::try_matmul_backward_into`]
//! (run-time dims, every check before anything is written),
//! [`DynTensor::matmul_backward`](crate::DynTensor::matmul_backward) and
//! [`matmul_backward_slices`].

use super::bounds::{MatmulNoCheck, MatmulOutput, MatmulShapes};
use super::kernel::offsets;
use super::rule::{self, MatmulFrame};
use super::{MatmulError, NoTrans, Trans, Transpose};
use crate::dims::{Dims, ShapeError};
use crate::element::Element;
use crate::shape::{ProvenShape, Shape};
use crate::storage::{OwnedStorage, ResultStorage, Storage, StorageMut};
use crate::tensor::Tensor;

/// The gradients of x (shape `S`, storage `B`) and y (`SY`, `BY`), each
/// stored as its operand's shape says ([`ResultStorage`]).
pub type MatmulGrads<T, S, B, SY, BY> = (
    Tensor<T, S, <B as ResultStorage<T, S>>::Out>,
    Tensor<T, SY, <BY as ResultStorage<T, SY>>::Out>,
);

/// The three read lengths against the frame, and the two gradients'
/// against their operands': the checks before anything is written.
fn check_lens<T>(
    f: &MatmulFrame,
    dims: (&[usize], &[usize]),
    reads: (&[T], &[T], &[T]),
    dx: &[T],
    dy: &[T],
) -> Result<(), MatmulError> {
    let (x, y, dout) = reads;
    if f.lens != [Some(x.len()), Some(y.len()), Some(dout.len())]
        || dx.len() != x.len()
        || dy.len() != y.len()
    {
        Dims::for_data(dims.0, x.len())?;
        Dims::for_data(dims.1, y.len())?;
        Dims::for_data(&f.out, dout.len())?;
        Dims::for_data(dims.0, dx.len())?;
        Dims::for_data(dims.1, dy.len())?;
        // not reached (the frame's counts are its dims'): still no write
        return Err(MatmulError::Shape(ShapeError::DataLength {
            shape: f.out,
            numel: f.lens[2].unwrap_or(0),
            len: dout.len(),
        }));
    }
    Ok(())
}

/// The gradients' loops: `dx` and `dy` are zeroed, then each output
/// element's `dout` adds `dout · y[k, j]` to `dx[i, k]` and `x[i, k] · dout`
/// to `dy[k, j]`, at the offsets the forward read (so that broadcast batch
/// dims sum). The lengths were checked.
#[inline(always)]
fn accumulate<T: Element>(
    f: &MatmulFrame,
    x: &[T],
    y: &[T],
    dout: &[T],
    dx: &mut [T],
    dy: &mut [T],
) {
    dx.fill(T::default());
    dy.fill(T::default());
    let size = f.m * f.n;
    if size == 0 || f.k == 0 {
        return;
    }
    for (b, d) in dout.chunks_exact(size).enumerate() {
        let (xo, yo) = offsets(f, b);
        for (i, drow) in d.chunks_exact(f.n).enumerate() {
            for kk in 0..f.k {
                let xi = xo + i * f.x_i + kk * f.x_k;
                let a = x.get(xi).copied().unwrap_or_default();
                let yk = yo + kk * f.y_k;
                let mut g = T::default();
                for (j, &dz) in drow.iter().enumerate() {
                    let yi = yk + j * f.y_j;
                    g = T::add(g, T::mul(dz, y.get(yi).copied().unwrap_or_default()));
                    if let Some(s) = dy.get_mut(yi) {
                        *s = T::add(*s, T::mul(a, dz));
                    }
                }
                if let Some(s) = dx.get_mut(xi) {
                    *s = T::add(*s, g);
                }
            }
        }
    }
}

/// Every form's last step: the lengths checked, then the gradients written.
#[inline(always)]
pub(super) fn apply_backward<T: Element>(
    f: &MatmulFrame,
    dims: (&[usize], &[usize]),
    reads: (&[T], &[T], &[T]),
    dx: &mut [T],
    dy: &mut [T],
) -> Result<(), MatmulError> {
    check_lens(f, dims, reads, dx, dy)?;
    let (x, y, dout) = reads;
    accumulate(f, x, y, dout, dx, dy);
    Ok(())
}

/// The rule, then `dout`'s dims against the output's: the checks of every
/// run-time form, before anything is written.
pub(super) fn checked_frame(
    transpose_x: bool,
    transpose_y: bool,
    x: &[usize],
    y: &[usize],
    dout: &[usize],
) -> Result<MatmulFrame, MatmulError> {
    let f = rule::frame(transpose_x, transpose_y, x, y)?;
    if f.out.as_slice() != dout {
        return Err(MatmulError::GradShape {
            expected: f.out,
            found: Dims::new(dout)?,
        });
    }
    Ok(f)
}

/// The dynamic path without a heap: x's and y's gradients of
/// `matmul(x, y, transpose_x, transpose_y)` for the upstream gradient
/// `dout` (the output's element count, row-major), written into `dx` and
/// `dy` (x's and y's lengths). Every check before anything is written.
///
/// ```
/// use shapecheck::ops::matmul::matmul_backward_slices;
/// let x = [1.0, 2.0, 3.0, 4.0]; // [2, 2]
/// let y = [1.0, 0.0];           // [2]: a column
/// let dout = [1.0, 1.0];        // [2]
/// let (mut dx, mut dy) = ([0.0; 4], [0.0; 2]);
/// matmul_backward_slices(&[2, 2], &x, &[2], &y, &dout, false, false, &mut dx, &mut dy).unwrap();
/// assert_eq!((dx, dy), ([1.0, 0.0, 1.0, 0.0], [4.0, 6.0]));
/// let err = matmul_backward_slices(&[2, 2], &x, &[2], &y, &dout[..1], false, false, &mut dx, &mut dy).unwrap_err();
/// assert_eq!(err.rule(), "shape/data-length");
/// ```
#[allow(clippy::too_many_arguments)]
pub fn matmul_backward_slices<T: Element>(
    x_dims: &[usize],
    x: &[T],
    y_dims: &[usize],
    y: &[T],
    dout: &[T],
    transpose_x: bool,
    transpose_y: bool,
    dx: &mut [T],
    dy: &mut [T],
) -> Result<(), MatmulError> {
    let f = rule::frame(transpose_x, transpose_y, x_dims, y_dims)?;
    apply_backward(&f, (x_dims, y_dims), (x, y, dout), dx, dy)
}

/// The plain backward forms' writer: the plan as the forward's plain forms
/// make it; every length is the types' (the bounds prove `dout`'s dims and
/// the gradients' buffers), so this cannot fail and writes nothing if it did.
#[inline(always)]
fn plain_backward<T, S, SY, TX, TT>(
    shapes: (&S, &SY),
    reads: (&[T], &[T], &[T]),
    dx: &mut [T],
    dy: &mut [T],
) where
    T: Element,
    S: MatmulNoCheck<TX>,
    SY: MatmulNoCheck<TT::Flip>,
    TX: Transpose,
    TT: Transpose,
{
    if let Some(f) = &super::api::StaticFrame::<S, SY, TX, TT>::FRAME {
        // every dim static: the plan a constant, the lengths the types'
        let (x, y, dout) = reads;
        accumulate(f, x, y, dout, dx, dy);
    } else if let Some(f) = super::api::plain_frame::<S, SY, TX, TT>(shapes.0, shapes.1) {
        let _ = apply_backward(&f, (&f.out, &f.out), reads, dx, dy);
    }
}

impl<T: Element, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// The gradients of [`Tensor::matmul`]: for the upstream gradient `dout`
    /// (typed as the forward's output: a `dout` of another shape does not
    /// compile), `(dx, dy)` typed as `self` and `y`, each summed over the
    /// batch dims where its operand broadcast (see the
    /// [module docs](crate::ops::matmul)). Every dim the rule compares
    /// static, `dout`'s dims proven by its type (static or branded; a `Dyn`
    /// batch takes [`Tensor::try_matmul_backward`]); it cannot fail.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    /// let w = tensor![[1.0f32], [-1.0]];
    /// let dout = Tensor::<f32, shape![2, 1]>::full(1.0);
    /// let (dx, dw) = x.matmul_backward(&w, &dout);
    /// // dx = dout · wᵀ, dw = xᵀ · dout
    /// assert_eq!(dx.as_slice(), &[1.0, -1.0, 1.0, -1.0]);
    /// assert_eq!(dw.as_slice(), &[4.0, 6.0]);
    /// ```
    #[inline]
    pub fn matmul_backward<SY, BY, BD>(
        &self,
        y: &Tensor<T, SY, BY>,
        dout: &Tensor<T, MatmulOutput<S, SY>, BD>,
    ) -> MatmulGrads<T, S, B, SY, BY>
    where
        S: MatmulShapes<SY, NoTrans, NoTrans> + MatmulNoCheck<NoTrans>,
        SY: MatmulNoCheck<Trans>,
        BY: ResultStorage<T, SY>,
        BD: Storage<T>,
        B: ResultStorage<T, S>,
        MatmulOutput<S, SY>: ProvenShape,
    {
        self.matmul_backward_t(y, dout, NoTrans, NoTrans)
    }

    /// [`Tensor::matmul_backward`] of [`Tensor::matmul_t`] (the transposes
    /// as markers; each gradient still has its operand's own shape).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::{NoTrans, Trans};
    /// let x = tensor![[1.0f32, 2.0, 3.0]]; // [1, 3]
    /// let w = tensor![[1.0f32, 0.0, 0.0], [0.0, 1.0, 0.0]]; // [2, 3], read as [3, 2]
    /// let dout = tensor![[1.0f32, 10.0]]; // x · wᵀ is [1, 2]
    /// let (dx, dw) = x.matmul_backward_t(&w, &dout, NoTrans, Trans);
    /// assert_eq!(dx.as_slice(), &[1.0, 10.0, 0.0]);
    /// assert_eq!(dw.as_slice(), &[1.0, 2.0, 3.0, 10.0, 20.0, 30.0]);
    /// ```
    #[inline]
    pub fn matmul_backward_t<SY, BY, BD, TX, TT>(
        &self,
        y: &Tensor<T, SY, BY>,
        dout: &Tensor<T, MatmulOutput<S, SY, TX, TT>, BD>,
        transpose_x: TX,
        transpose_y: TT,
    ) -> MatmulGrads<T, S, B, SY, BY>
    where
        S: MatmulShapes<SY, TX, TT> + MatmulNoCheck<TX>,
        SY: MatmulNoCheck<TT::Flip>,
        BY: ResultStorage<T, SY>,
        BD: Storage<T>,
        TX: Transpose,
        TT: Transpose,
        B: ResultStorage<T, S>,
        // `dout`'s dims are its type's (static or branded): no run-time check
        MatmulOutput<S, SY, TX, TT>: ProvenShape,
    {
        let (xs, ys) = (*self.shape(), *y.shape());
        let mut dx = Tensor::from_parts_unchecked(xs, B::Out::filled(&xs, T::default()));
        let mut dy = Tensor::from_parts_unchecked(ys, BY::Out::filled(&ys, T::default()));
        let _ = (transpose_x, transpose_y);
        // dx and dy have x's and y's shapes by construction
        plain_backward::<T, S, SY, TX, TT>(
            (self.shape(), y.shape()),
            (self.as_slice(), y.as_slice(), dout.as_slice()),
            dx.as_mut_slice(),
            dy.as_mut_slice(),
        );
        (dx, dy)
    }

    /// [`Tensor::matmul_backward_t`] writing into `dx` and `dy` (any
    /// storage, a caller's buffer included: no heap). The buffers' and
    /// `dout`'s dims proven by their types; it cannot fail.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::NoTrans;
    /// let x = tensor![1.0f32, 2.0]; // [2]: a row
    /// let w = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    /// let (mut dx, mut dw) = (Tensor::full(9.0), Tensor::full(9.0));
    /// x.matmul_backward_into(&w, &tensor![1.0f32, 0.0], NoTrans, NoTrans, &mut dx, &mut dw);
    /// assert_eq!(dx.as_slice(), &[1.0, 3.0]);
    /// assert_eq!(dw.as_slice(), &[1.0, 0.0, 2.0, 0.0]);
    /// ```
    #[inline]
    pub fn matmul_backward_into<SY, BY, BD, TX, TT, BGX, BGY>(
        &self,
        y: &Tensor<T, SY, BY>,
        dout: &Tensor<T, MatmulOutput<S, SY, TX, TT>, BD>,
        _transpose_x: TX,
        _transpose_y: TT,
        dx: &mut Tensor<T, S, BGX>,
        dy: &mut Tensor<T, SY, BGY>,
    ) where
        S: MatmulShapes<SY, TX, TT> + MatmulNoCheck<TX>,
        SY: MatmulNoCheck<TT::Flip>,
        BY: Storage<T>,
        BD: Storage<T>,
        TX: Transpose,
        TT: Transpose,
        BGX: StorageMut<T>,
        BGY: StorageMut<T>,
        // the buffers' and `dout`'s dims are their types' (static or
        // branded): no run-time check
        S: ProvenShape,
        SY: ProvenShape,
        MatmulOutput<S, SY, TX, TT>: ProvenShape,
    {
        plain_backward::<T, S, SY, TX, TT>(
            (self.shape(), y.shape()),
            (self.as_slice(), y.as_slice(), dout.as_slice()),
            dx.as_mut_slice(),
            dy.as_mut_slice(),
        );
    }

    /// [`Tensor::matmul_backward_t`] for shapes with run-time
    /// ([`Dyn`](crate::Dyn)) dims: the rule and `dout`'s dims are checked
    /// when it runs ([`MatmulError`], `matmul/dout-shape` for a `dout` of
    /// other dims than the output's), before anything is allocated.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::NoTrans;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(3), Dim), vec![1.0; 6]).unwrap();
    /// let w = tensor![[1.0f32], [2.0]];
    /// let dout = Tensor::<f32, shape![Dyn, 1], Vec<f32>>::from_vec((Dyn(3), One), vec![1.0; 3]).unwrap();
    /// let (dx, dw) = x.try_matmul_backward(&w, &dout, NoTrans, NoTrans).unwrap();
    /// assert_eq!(dx.as_slice(), &[1.0, 2.0, 1.0, 2.0, 1.0, 2.0]);
    /// assert_eq!(dw.as_slice(), &[3.0, 3.0]);
    /// let short = Tensor::<f32, shape![Dyn, 1], Vec<f32>>::from_vec((Dyn(2), One), vec![1.0; 2]).unwrap();
    /// assert_eq!(x.try_matmul_backward(&w, &short, NoTrans, NoTrans).unwrap_err().rule(), "matmul/dout-shape");
    /// ```
    pub fn try_matmul_backward<SY, BY, BD, TX, TT>(
        &self,
        y: &Tensor<T, SY, BY>,
        dout: &Tensor<T, MatmulOutput<S, SY, TX, TT>, BD>,
        transpose_x: TX,
        transpose_y: TT,
    ) -> Result<MatmulGrads<T, S, B, SY, BY>, MatmulError>
    where
        S: MatmulShapes<SY, TX, TT>,
        SY: Shape,
        BY: ResultStorage<T, SY>,
        BD: Storage<T>,
        TX: Transpose,
        TT: Transpose,
        B: ResultStorage<T, S>,
    {
        // the rule first: nothing is allocated for shapes it rejects
        checked_frame(TX::ON, TT::ON, &self.dims(), &y.dims(), &dout.dims())?;
        let (xs, ys) = (*self.shape(), *y.shape());
        let mut dx = Tensor::from_parts_unchecked(xs, B::Out::try_filled(&xs, T::default())?);
        let mut dy = Tensor::from_parts_unchecked(ys, BY::Out::try_filled(&ys, T::default())?);
        self.try_matmul_backward_into(y, dout, transpose_x, transpose_y, &mut dx, &mut dy)?;
        Ok((dx, dy))
    }

    /// [`Tensor::try_matmul_backward`] writing into `dx` and `dy` (typed as
    /// x and y; their dims must be x's and y's, `shape/output` otherwise).
    /// Every check before anything is written.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::NoTrans;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(1), Dim), vec![1.0, 2.0]).unwrap();
    /// let w = tensor![[1.0f32], [2.0]];
    /// let dout = Tensor::<f32, shape![Dyn, 1], Vec<f32>>::from_vec((Dyn(1), One), vec![2.0]).unwrap();
    /// let mut dx = x.clone();
    /// let mut dw = Tensor::full(0.0);
    /// x.try_matmul_backward_into(&w, &dout, NoTrans, NoTrans, &mut dx, &mut dw).unwrap();
    /// assert_eq!((dx.as_slice(), dw.as_slice()), (&[2.0, 4.0][..], &[2.0, 4.0][..]));
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn try_matmul_backward_into<SY, BY, BD, TX, TT, BGX, BGY>(
        &self,
        y: &Tensor<T, SY, BY>,
        dout: &Tensor<T, MatmulOutput<S, SY, TX, TT>, BD>,
        _transpose_x: TX,
        _transpose_y: TT,
        dx: &mut Tensor<T, S, BGX>,
        dy: &mut Tensor<T, SY, BGY>,
    ) -> Result<(), MatmulError>
    where
        S: MatmulShapes<SY, TX, TT>,
        SY: Shape,
        BY: Storage<T>,
        BD: Storage<T>,
        TX: Transpose,
        TT: Transpose,
        BGX: StorageMut<T>,
        BGY: StorageMut<T>,
    {
        let (xd, yd) = (self.dims(), y.dims());
        let f = checked_frame(TX::ON, TT::ON, &xd, &yd, &dout.dims())?;
        xd.expect_output(dx.dims())?;
        yd.expect_output(dy.dims())?;
        apply_backward(
            &f,
            (&xd, &yd),
            (self.as_slice(), y.as_slice(), dout.as_slice()),
            dx.as_mut_slice(),
            dy.as_mut_slice(),
        )
    }
}
