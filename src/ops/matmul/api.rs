//! The static path: [`Tensor::matmul`] and its forms, each a short
//! delegation to one of two writers: the plan a constant of the shape types
//! ([`StaticFrame`], all dims static) or the rule run when the op runs (the
//! `try_` forms, `Dyn` dims). Both end in the kernel's one entry,
//! `kernel::apply`.

use super::bounds::{MatmulElements, MatmulNoCheck, MatmulOutput, MatmulShapes};
use super::rule::{self, MatmulFrame};
use super::{kernel, MatmulError, NoTrans, Trans, Transpose};
use crate::kernel::SPEED_OVER_SIZE;
use crate::shape::{ProvenShape, Shape};
use crate::storage::{OwnedStorage, ResultStorage, Storage, StorageMut};
use crate::tensor::Tensor;
use core::marker::PhantomData;

/// The result of a matmul of x (`T`, shape `S`, storage `B`) and y (shape
/// `SY`): the output shape, stored as x's storage says ([`ResultStorage`]).
pub type MatmulTensor<T, S, SY, TX, TY, B> = Tensor<
    T,
    MatmulOutput<S, SY, TX, TY>,
    <B as ResultStorage<T, MatmulOutput<S, SY, TX, TY>>>::Out,
>;

/// The plan of a static matmul, computed by the compiler from the shape
/// types with the run-time rule itself; `None` where a dim the rule never
/// compares (x's rows, y's columns) is known only when it runs.
pub(super) struct StaticFrame<S, SY, TX, TY>(PhantomData<(S, SY, TX, TY)>);

impl<S, SY, TX, TY> StaticFrame<S, SY, TX, TY>
where
    S: MatmulNoCheck<TX>,
    SY: MatmulNoCheck<TY::Flip>,
    TX: Transpose,
    TY: Transpose,
{
    /// A build error if the type-level rule accepted shapes the run-time
    /// rule rejects (a bug in shapecheck).
    #[allow(clippy::panic)]
    pub(super) const FRAME: Option<MatmulFrame> = match (S::PLAN_DIMS, SY::PLAN_DIMS) {
        (Some(x), Some(y)) => match rule::frame(TX::ON, TY::ON, x.as_slice(), y.as_slice()) {
            Ok(f) => Some(f),
            Err(_) => panic!("shapecheck bug: the matmul rule's type-level form accepted shapes its run-time form rejects"),
        },
        _ => None,
    };
}

/// The plain forms' plan: the constant where every dim is static, else the
/// rule run on the dims (which the bounds proved it accepts: `None` is not
/// reached, and then nothing is written).
#[inline(always)]
pub(super) fn plain_frame<S, SY, TX, TY>(x: &S, y: &SY) -> Option<MatmulFrame>
where
    S: MatmulNoCheck<TX>,
    SY: MatmulNoCheck<TY::Flip>,
    TX: Transpose,
    TY: Transpose,
{
    match StaticFrame::<S, SY, TX, TY>::FRAME {
        Some(f) => Some(f),
        None => rule::frame(TX::ON, TY::ON, &x.dims(), &y.dims()).ok(),
    }
}

/// Every form's one writer: the kernel on a frame, x's and y's data and
/// the output's buffer (each length checked before anything is written).
#[inline]
fn write<T: MatmulElements<TY>, TY: Copy>(
    f: &MatmulFrame,
    x: (&[usize], &[T]),
    y: (&[usize], &[TY]),
    out: &mut [T],
) -> Result<(), MatmulError> {
    kernel::apply(f, x.0, x.1, y.0, T::same(y.1), out).map(|_| ())
}

/// The largest static product `matmul_into` makes in a local array before
/// copying it into `out` (where code size may be spent for speed,
/// [`SPEED_OVER_SIZE`]): 256 elements, `[16, 16]`. The kernel sums each
/// output row in place, and the compiler may not assume that a caller's
/// `out` does not overlap x or y: every partial sum was stored and y read
/// again after each store, one lane at a time (`[4,4] x [4,4]`, `[16,16] x
/// [16,16]` and `[1,16] x [16,16]` into a caller's tensor took 3.9x, 6.6x
/// and 7.5x the hand loop, while `matmul`, whose output is its own local,
/// was level with it). A local is nobody else's: the loops are those of
/// `matmul`, then one copy. The same sums: the same bits.
const SMALL_INTO: usize = 256;

/// The plain forms' writer: the kernel on [`plain_frame`]; the lengths are
/// the types' (every slice comes from a tensor of its shape).
#[inline(always)]
fn write_plain<T, TY, S, SY, TX, TT>(x: (&S, &[T]), y: (&SY, &[TY]), out: &mut [T])
where
    T: MatmulElements<TY>,
    TY: Copy,
    S: MatmulNoCheck<TX>,
    SY: MatmulNoCheck<TT::Flip>,
    TX: Transpose,
    TT: Transpose,
{
    if let Some(f) = &StaticFrame::<S, SY, TX, TT>::FRAME {
        // every dim static: the plan is a constant, the lengths the types'
        kernel::apply_known(f, x.1, T::same(y.1), out);
    } else if let Ok(f) = rule::frame(TX::ON, TT::ON, &x.0.dims(), &y.0.dims()) {
        // a run-time row dim: the plan made now (the bounds proved the rule)
        let _ = write(&f, (&f.out, x.1), (&f.out, y.1), out);
    }
}

impl<T: Copy, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// Paddle's `matmul(x, y)`: the matrix product over the last two dims,
    /// batched (and broadcast) over the rest; a 1-D x is a row, a 1-D y a
    /// column (see the [module docs](crate::ops::matmul) for the rule).
    /// Every shape static: a mismatch is a compile error
    /// (`matmul/inner`, `matmul/batch`), and the call cannot fail. The
    /// result is inline (no heap) for inline operands.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = tensor![[1, 2, 3], [4, 5, 6]];
    /// let w = tensor![[1, 0], [0, 1], [1, 1]];
    /// let z: Tensor<i32, shape![2, 2]> = x.matmul(&w);
    /// assert_eq!(z.as_slice(), &[4, 5, 10, 11]);
    /// // batch dims broadcast: [2, 1, 2, 3] x [3, 3, 2] -> [2, 3, 2, 2]
    /// let b = Tensor::<i32, shape![2, 1, 2, 3]>::full(1);
    /// let _: Tensor<i32, shape![2, 3, 2, 2]> = b.matmul(&Tensor::<i32, shape![3, 3, 2]>::full(1));
    /// // a vector on the right is a column, and its dim is dropped
    /// assert_eq!(x.matmul(&tensor![1, 1, 1]).as_slice(), &[6, 15]);
    /// ```
    ///
    /// ```compile_fail
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![3, 4]>::full(1.0);
    /// let y = Tensor::<f32, shape![5, 6]>::full(1.0);
    /// // matmul/inner: x's last dim Dim<4> must equal y's second-to-last Dim<5>
    /// let _ = x.matmul(&y);
    /// ```
    #[inline]
    pub fn matmul<TY, SY, BY>(
        &self,
        y: &Tensor<TY, SY, BY>,
    ) -> MatmulTensor<T, S, SY, NoTrans, NoTrans, B>
    where
        T: MatmulElements<TY>,
        TY: Copy,
        S: MatmulShapes<SY, NoTrans, NoTrans> + MatmulNoCheck<NoTrans>,
        SY: MatmulNoCheck<Trans>,
        BY: Storage<TY>,
        B: ResultStorage<T, MatmulOutput<S, SY>>,
    {
        self.matmul_t(y, NoTrans, NoTrans)
    }

    /// [`Tensor::matmul`] with Paddle's `transpose_x` and `transpose_y` as
    /// markers ([`NoTrans`] or [`Trans`]: swap that operand's
    /// last two dims; a 1-D operand's marker is ignored).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::{NoTrans, Trans};
    /// let x = tensor![[1, 2, 3], [4, 5, 6]]; // [2, 3]
    /// // x · xᵀ: [2, 3] x [3, 2]
    /// let g: Tensor<i32, shape![2, 2]> = x.matmul_t(&x, NoTrans, Trans);
    /// assert_eq!(g.as_slice(), &[14, 32, 32, 77]);
    /// // xᵀ · x: [3, 2] x [2, 3]
    /// let _: Tensor<i32, shape![3, 3]> = x.matmul_t(&x, Trans, NoTrans);
    /// ```
    #[inline]
    pub fn matmul_t<TY, SY, BY, TX, TT>(
        &self,
        y: &Tensor<TY, SY, BY>,
        _transpose_x: TX,
        _transpose_y: TT,
    ) -> MatmulTensor<T, S, SY, TX, TT, B>
    where
        T: MatmulElements<TY>,
        TY: Copy,
        S: MatmulShapes<SY, TX, TT> + MatmulNoCheck<TX>,
        SY: MatmulNoCheck<TT::Flip>,
        BY: Storage<TY>,
        TX: Transpose,
        TT: Transpose,
        B: ResultStorage<T, MatmulOutput<S, SY, TX, TT>>,
    {
        let shape = self.shape().output(y.shape());
        let mut out = Tensor::from_parts_unchecked(shape, B::Out::filled(&shape, T::default()));
        // the rule holds (the bounds) and every length is the types': this
        // cannot fail (and writes nothing if it did)
        write_plain::<T, TY, S, SY, TX, TT>(
            (self.shape(), self.as_slice()),
            (y.shape(), y.as_slice()),
            out.as_mut_slice(),
        );
        out
    }

    /// [`Tensor::matmul_t`] writing into `out` (any storage, a caller's
    /// buffer included: no heap). Every dim the rule compares static, and
    /// `out`'s dims proven by its type (static or branded); it cannot fail.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::NoTrans;
    /// let mut buf = [0.0f32; 2];
    /// let mut out = Tensor::<f32, shape![2], &mut [f32]>::from_storage(&mut buf[..]).unwrap();
    /// tensor![[1.0f32, 2.0], [3.0, 4.0]].matmul_into(&tensor![1.0f32, 1.0], NoTrans, NoTrans, &mut out);
    /// assert_eq!(buf, [3.0, 7.0]);
    /// ```
    #[inline]
    pub fn matmul_into<TY, SY, BY, TX, TT, BO>(
        &self,
        y: &Tensor<TY, SY, BY>,
        _transpose_x: TX,
        _transpose_y: TT,
        out: &mut Tensor<T, MatmulOutput<S, SY, TX, TT>, BO>,
    ) where
        T: MatmulElements<TY>,
        TY: Copy,
        S: MatmulShapes<SY, TX, TT> + MatmulNoCheck<TX>,
        SY: MatmulNoCheck<TT::Flip>,
        BY: Storage<TY>,
        TX: Transpose,
        TT: Transpose,
        BO: StorageMut<T>,
        // `out`'s dims are its type's (static or branded): no run-time check
        MatmulOutput<S, SY, TX, TT>: ProvenShape,
    {
        // `out`'s type fixes its length: this cannot fail
        let (x, y, out) = (
            (self.shape(), self.as_slice()),
            (y.shape(), y.as_slice()),
            out.as_mut_slice(),
        );
        let small = match StaticFrame::<S, SY, TX, TT>::FRAME {
            Some(f) => matches!(f.lens[2], Some(len) if len <= SMALL_INTO),
            None => false,
        };
        if SPEED_OVER_SIZE && small {
            // a small static product is made in a local array and copied
            // out: see SMALL_INTO
            if let Some(local) = [T::default(); SMALL_INTO].get_mut(..out.len()) {
                write_plain::<T, TY, S, SY, TX, TT>(x, y, local);
                out.copy_from_slice(local);
                return;
            }
        }
        write_plain::<T, TY, S, SY, TX, TT>(x, y, out);
    }

    /// [`Tensor::matmul_t`] for shapes with run-time ([`Dyn`](crate::Dyn))
    /// dims: the static dims are checked by the compiler, the rest when it
    /// runs, by the dynamic path's rule ([`MatmulError`]). The result is a
    /// `Vec` if its shape has a `Dyn` dim (or x is a `Vec`), inline otherwise.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::NoTrans;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(3), Dim), vec![1.0; 6]).unwrap();
    /// let w = Tensor::<f32, shape![Dyn, 4], Vec<f32>>::from_vec((Dyn(2), Dim), vec![0.5; 8]).unwrap();
    /// let z = x.try_matmul(&w, NoTrans, NoTrans).unwrap();
    /// assert_eq!(z.dims().as_slice(), &[3, 4]);
    /// let w3 = Tensor::<f32, shape![Dyn, 4], Vec<f32>>::from_vec((Dyn(3), Dim), vec![0.5; 12]).unwrap();
    /// assert_eq!(x.try_matmul(&w3, NoTrans, NoTrans).unwrap_err().rule(), "matmul/inner");
    /// ```
    pub fn try_matmul<TY, SY, BY, TX, TT>(
        &self,
        y: &Tensor<TY, SY, BY>,
        transpose_x: TX,
        transpose_y: TT,
    ) -> Result<MatmulTensor<T, S, SY, TX, TT, B>, MatmulError>
    where
        T: MatmulElements<TY>,
        TY: Copy,
        S: MatmulShapes<SY, TX, TT>,
        SY: Shape,
        BY: Storage<TY>,
        TX: Transpose,
        TT: Transpose,
        B: ResultStorage<T, MatmulOutput<S, SY, TX, TT>>,
    {
        // the rule first: nothing is allocated for shapes it rejects
        rule::frame(TX::ON, TT::ON, &self.dims(), &y.dims())?;
        let shape = self.shape().output(y.shape());
        let mut out =
            Tensor::from_parts_unchecked(shape, B::Out::try_filled(&shape, T::default())?);
        self.try_matmul_into(y, transpose_x, transpose_y, &mut out)?;
        Ok(out)
    }

    /// [`Tensor::try_matmul`] writing into `out`, whose dims must be the
    /// output's (`shape/output` otherwise; nothing is written).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::NoTrans;
    /// let x = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::from_vec((Dyn(2), Dim), vec![1, 2, 3, 4]).unwrap();
    /// let mut buf = [0; 3];
    /// let mut out = Tensor::<i32, shape![Dyn], &mut [i32]>::with_dims(&[3], &mut buf[..]).unwrap();
    /// // x [2, 2] · [2] is [2]: a buffer of 3 is the wrong one
    /// let err = x.try_matmul_into(&tensor![1, 1], NoTrans, NoTrans, &mut out).unwrap_err();
    /// assert_eq!(err.rule(), "shape/output");
    /// let mut out = Tensor::<i32, shape![Dyn], &mut [i32]>::with_dims(&[2], &mut buf[..2]).unwrap();
    /// x.try_matmul_into(&tensor![1, 1], NoTrans, NoTrans, &mut out).unwrap();
    /// assert_eq!(buf, [3, 7, 0]);
    /// ```
    pub fn try_matmul_into<TY, SY, BY, TX, TT, BO>(
        &self,
        y: &Tensor<TY, SY, BY>,
        _transpose_x: TX,
        _transpose_y: TT,
        out: &mut Tensor<T, MatmulOutput<S, SY, TX, TT>, BO>,
    ) -> Result<(), MatmulError>
    where
        T: MatmulElements<TY>,
        TY: Copy,
        S: MatmulShapes<SY, TX, TT>,
        SY: Shape,
        BY: Storage<TY>,
        TX: Transpose,
        TT: Transpose,
        BO: StorageMut<T>,
    {
        let (xd, yd) = (self.dims(), y.dims());
        let f = rule::frame(TX::ON, TT::ON, &xd, &yd)?;
        f.out.expect_output(out.dims())?;
        write(
            &f,
            (&xd, self.as_slice()),
            (&yd, y.as_slice()),
            out.as_mut_slice(),
        )
    }
}
