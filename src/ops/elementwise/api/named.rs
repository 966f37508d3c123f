//! The named forms of the five elementwise ops that cannot fail on static
//! shapes (all but `elementwise_div`, in `api.rs`): for each op, `op`,
//! `op_into`, `try_op` and `try_op_into`, written out one by one so that
//! each is found by its name. Each is a short call of the one generic form
//! (`plain_elementwise`, `plain_elementwise_into`, `try_elementwise`,
//! `try_elementwise_into`) with the op's marker; the where-clauses are those
//! forms' own.

use super::{ElementwiseOutput, ElementwiseResult, PlainOutput, PlainY, ProvenOutput};
use crate::element::{Element, SameElement};
use crate::ops::elements::{Elements, SameRule, SameShape};
use crate::ops::elementwise::bounds::{ElementwiseNoCheck, ElementwiseShapes};
use crate::ops::elementwise::{Activation, Axis, BinaryOpKind, ElementwiseError};
use crate::shape::{ProvenShape, Shape};
use crate::storage::{ResultStorage, Storage, StorageMut};
use crate::tensor::Tensor;

// ---- elementwise_mul ----------------------------------------------------------

impl<T: Element, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// Paddle's `elementwise_mul`: `act(x * y)` with Y placed at `axis`
    /// (see the [module docs](crate::ops::elementwise)). A shape the rule rejects is a
    /// compile error. A run-time (`Dyn`) dim is accepted where it meets 1 or no dim of
    /// the other operand (nothing to check) and stays `Dyn` in the output; where it meets
    /// another dim, use [`try_elementwise_mul`](Self::try_elementwise_mul). The result's storage is chosen
    /// by its shape (inline for static shapes, a `Vec` for a `Dyn` dim or a `Vec` operand).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// // Y [2] placed at axis 0: y[i] meets row i of x
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let z: Tensor<f32, shape![2, 3]> = x.elementwise_mul(&y, Axis::<0>, Identity);
    /// // the same as numpy broadcasting the column [2, 1], with the rule run at run time
    /// let col = Tensor::<f32, shape![2, 1]>::from_array([[2.0], [4.0]]);
    /// assert_eq!(z, x.try_elementwise_mul(&col, Axis::<-1>, Identity).unwrap());
    /// // a run-time number of rows (dynamic_stitch's output) meets no dim of y: no check
    /// let rows = dynamic_stitch(&tensor![1, 0], &tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]]).run().unwrap();
    /// let w = Tensor::<f32, shape![3]>::from_array([1.0, 10.0, 100.0]);
    /// let r: Tensor<f32, shape![Dyn, 3], Vec<f32>> = rows.elementwise_mul(&w, Axis::<-1>, Identity);
    /// assert_eq!(r, rows.try_elementwise_mul(&w, Axis::<-1>, Identity).unwrap());
    /// ```
    #[inline]
    pub fn elementwise_mul<TY, Y, BY, A, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> Tensor<T, PlainOutput<S, TY, T, Y, AXIS>, B::Out>
    where
        // the element rule through a link, so that a wrong element type
        // is one short error ([`crate::ops::elements`]); `SameShape` is `Y`
        TY: Elements<T, SameRule, Y>,
        // no dim needs a run-time check: a `Dyn` meets only 1s or no dim;
        // `PlainY` is `Y` once it holds (see `ElementwiseNoCheck`)
        S: ElementwiseNoCheck<SameShape<TY, T, Y>, AXIS>,
        S: ElementwiseShapes<PlainY<S, TY, T, Y, AXIS>, AXIS>,
        Y: Shape,
        BY: Storage<TY>,
        A: Activation,
        B: ResultStorage<T, PlainOutput<S, TY, T, Y, AXIS>>,
    {
        // only integer division can fail, and this op is not a division
        let (out, _cannot_fail) =
            self.plain_elementwise::<TY, Y, BY, A, AXIS>(BinaryOpKind::Mul, y);
        out
    }

    /// [`elementwise_mul`](Self::elementwise_mul) writing into `out` (a caller's buffer, no heap needed).
    /// `out`'s shape type must prove its size ([`ProvenShape`]: static or branded dims).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// let y = Tensor::<f32, shape![3]>::from_array([2.0, 4.0, 8.0]);
    /// let mut buf = [0.0f32; 6];
    /// let mut out = Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut buf[..]).unwrap();
    /// x.elementwise_mul_into(&y, Axis::<-1>, Identity, &mut out);
    /// assert_eq!(out, x.elementwise_mul(&y, Axis::<-1>, Identity));
    /// ```
    pub fn elementwise_mul_into<TY, Y, BY, BO, A, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
        out: &mut Tensor<T, ProvenOutput<S, Y, AXIS>, BO>,
    ) where
        S: ElementwiseShapes<Y, AXIS>,
        // no dim needs a run-time check (see `ElementwiseNoCheck`), and
        // `out`'s type proves its dims
        S: ElementwiseNoCheck<Y, AXIS>,
        ElementwiseOutput<S, Y, AXIS>: ProvenShape,
        BO: StorageMut<T>,
        A: Activation,
        Y: Shape,
        BY: Storage<TY>,
        TY: SameElement<T> + Copy,
    {
        // only integer division can fail, and this op is not a division
        let _cannot_fail = self.plain_elementwise_into::<TY, Y, BY, _, BO, AXIS>(
            BinaryOpKind::Mul,
            A::KIND,
            y,
            out,
        );
    }

    /// Paddle's `elementwise_mul` (`act(x * y)`) for any shapes, run-time dims included:
    /// [`try_elementwise`](Self::try_elementwise) with [`Mul`](crate::ops::Mul).
    /// The static part of the rule is checked by the compiler, the rest when the op runs.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim::<2>), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let z = x.try_elementwise_mul(&y, Axis::<-1>, Identity).unwrap();
    /// assert_eq!(z.dims().as_slice(), &[2, 2]);
    /// let bad = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![1.0; 3]).unwrap();
    /// assert!(x.try_elementwise_mul(&bad, Axis::<-1>, Identity).is_err());
    /// ```
    pub fn try_elementwise_mul<A, TY, Y, BY, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> ElementwiseResult<T, S, B, Y, AXIS>
    where
        A: Activation,
        TY: SameElement<T> + Copy,
        BY: Storage<TY>,
        Y: Shape,
        S: ElementwiseShapes<Y, AXIS>,
        B: ResultStorage<T, ElementwiseOutput<S, Y, AXIS>>,
    {
        self.try_elementwise(crate::ops::Mul, y, axis, act)
    }

    /// [`try_elementwise_mul`](Self::try_elementwise_mul) writing into `out` (any storage, a caller's buffer included).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let mut out = Tensor::<f32, shape![2, 2]>::zeros();
    /// x.try_elementwise_mul_into(&y, Axis::<-1>, Identity, &mut out).unwrap();
    /// assert_eq!(out, x.elementwise_mul(&y, Axis::<-1>, Identity));
    /// ```
    pub fn try_elementwise_mul_into<A, TY, Y, BY, BO, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
        out: &mut Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
    ) -> Result<(), ElementwiseError>
    where
        A: Activation,
        TY: SameElement<T> + Copy,
        BY: Storage<TY>,
        Y: Shape,
        S: ElementwiseShapes<Y, AXIS>,
        BO: StorageMut<T>,
    {
        self.try_elementwise_into(crate::ops::Mul, y, axis, act, out)
    }
}

// ---- elementwise_add ----------------------------------------------------------

impl<T: Element, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// Paddle's `elementwise_add`: `act(x + y)` with Y placed at `axis`
    /// (see the [module docs](crate::ops::elementwise)). A shape the rule rejects is a
    /// compile error. A run-time (`Dyn`) dim is accepted where it meets 1 or no dim of
    /// the other operand (nothing to check) and stays `Dyn` in the output; where it meets
    /// another dim, use [`try_elementwise_add`](Self::try_elementwise_add). The result's storage is chosen
    /// by its shape (inline for static shapes, a `Vec` for a `Dyn` dim or a `Vec` operand).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// // Y [2] placed at axis 0: y[i] meets row i of x
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let z: Tensor<f32, shape![2, 3]> = x.elementwise_add(&y, Axis::<0>, Identity);
    /// // the same as numpy broadcasting the column [2, 1], with the rule run at run time
    /// let col = Tensor::<f32, shape![2, 1]>::from_array([[2.0], [4.0]]);
    /// assert_eq!(z, x.try_elementwise_add(&col, Axis::<-1>, Identity).unwrap());
    /// // a run-time number of rows (dynamic_stitch's output) meets no dim of y: no check
    /// let rows = dynamic_stitch(&tensor![1, 0], &tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]]).run().unwrap();
    /// let w = Tensor::<f32, shape![3]>::from_array([1.0, 10.0, 100.0]);
    /// let r: Tensor<f32, shape![Dyn, 3], Vec<f32>> = rows.elementwise_add(&w, Axis::<-1>, Identity);
    /// assert_eq!(r, rows.try_elementwise_add(&w, Axis::<-1>, Identity).unwrap());
    /// ```
    #[inline]
    pub fn elementwise_add<TY, Y, BY, A, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> Tensor<T, PlainOutput<S, TY, T, Y, AXIS>, B::Out>
    where
        // the element rule through a link, so that a wrong element type
        // is one short error ([`crate::ops::elements`]); `SameShape` is `Y`
        TY: Elements<T, SameRule, Y>,
        // no dim needs a run-time check: a `Dyn` meets only 1s or no dim;
        // `PlainY` is `Y` once it holds (see `ElementwiseNoCheck`)
        S: ElementwiseNoCheck<SameShape<TY, T, Y>, AXIS>,
        S: ElementwiseShapes<PlainY<S, TY, T, Y, AXIS>, AXIS>,
        Y: Shape,
        BY: Storage<TY>,
        A: Activation,
        B: ResultStorage<T, PlainOutput<S, TY, T, Y, AXIS>>,
    {
        // only integer division can fail, and this op is not a division
        let (out, _cannot_fail) =
            self.plain_elementwise::<TY, Y, BY, A, AXIS>(BinaryOpKind::Add, y);
        out
    }

    /// [`elementwise_add`](Self::elementwise_add) writing into `out` (a caller's buffer, no heap needed).
    /// `out`'s shape type must prove its size ([`ProvenShape`]: static or branded dims).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// let y = Tensor::<f32, shape![3]>::from_array([2.0, 4.0, 8.0]);
    /// let mut buf = [0.0f32; 6];
    /// let mut out = Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut buf[..]).unwrap();
    /// x.elementwise_add_into(&y, Axis::<-1>, Identity, &mut out);
    /// assert_eq!(out, x.elementwise_add(&y, Axis::<-1>, Identity));
    /// ```
    pub fn elementwise_add_into<TY, Y, BY, BO, A, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
        out: &mut Tensor<T, ProvenOutput<S, Y, AXIS>, BO>,
    ) where
        S: ElementwiseShapes<Y, AXIS>,
        // no dim needs a run-time check (see `ElementwiseNoCheck`), and
        // `out`'s type proves its dims
        S: ElementwiseNoCheck<Y, AXIS>,
        ElementwiseOutput<S, Y, AXIS>: ProvenShape,
        BO: StorageMut<T>,
        A: Activation,
        Y: Shape,
        BY: Storage<TY>,
        TY: SameElement<T> + Copy,
    {
        // only integer division can fail, and this op is not a division
        let _cannot_fail = self.plain_elementwise_into::<TY, Y, BY, _, BO, AXIS>(
            BinaryOpKind::Add,
            A::KIND,
            y,
            out,
        );
    }

    /// Paddle's `elementwise_add` (`act(x + y)`) for any shapes, run-time dims included:
    /// [`try_elementwise`](Self::try_elementwise) with [`Add`](crate::ops::Add).
    /// The static part of the rule is checked by the compiler, the rest when the op runs.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim::<2>), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let z = x.try_elementwise_add(&y, Axis::<-1>, Identity).unwrap();
    /// assert_eq!(z.dims().as_slice(), &[2, 2]);
    /// let bad = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![1.0; 3]).unwrap();
    /// assert!(x.try_elementwise_add(&bad, Axis::<-1>, Identity).is_err());
    /// ```
    pub fn try_elementwise_add<A, TY, Y, BY, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> ElementwiseResult<T, S, B, Y, AXIS>
    where
        A: Activation,
        TY: SameElement<T> + Copy,
        BY: Storage<TY>,
        Y: Shape,
        S: ElementwiseShapes<Y, AXIS>,
        B: ResultStorage<T, ElementwiseOutput<S, Y, AXIS>>,
    {
        self.try_elementwise(crate::ops::Add, y, axis, act)
    }

    /// [`try_elementwise_add`](Self::try_elementwise_add) writing into `out` (any storage, a caller's buffer included).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let mut out = Tensor::<f32, shape![2, 2]>::zeros();
    /// x.try_elementwise_add_into(&y, Axis::<-1>, Identity, &mut out).unwrap();
    /// assert_eq!(out, x.elementwise_add(&y, Axis::<-1>, Identity));
    /// ```
    pub fn try_elementwise_add_into<A, TY, Y, BY, BO, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
        out: &mut Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
    ) -> Result<(), ElementwiseError>
    where
        A: Activation,
        TY: SameElement<T> + Copy,
        BY: Storage<TY>,
        Y: Shape,
        S: ElementwiseShapes<Y, AXIS>,
        BO: StorageMut<T>,
    {
        self.try_elementwise_into(crate::ops::Add, y, axis, act, out)
    }
}

// ---- elementwise_sub ----------------------------------------------------------

impl<T: Element, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// Paddle's `elementwise_sub`: `act(x - y)` with Y placed at `axis`
    /// (see the [module docs](crate::ops::elementwise)). A shape the rule rejects is a
    /// compile error. A run-time (`Dyn`) dim is accepted where it meets 1 or no dim of
    /// the other operand (nothing to check) and stays `Dyn` in the output; where it meets
    /// another dim, use [`try_elementwise_sub`](Self::try_elementwise_sub). The result's storage is chosen
    /// by its shape (inline for static shapes, a `Vec` for a `Dyn` dim or a `Vec` operand).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// // Y [2] placed at axis 0: y[i] meets row i of x
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let z: Tensor<f32, shape![2, 3]> = x.elementwise_sub(&y, Axis::<0>, Identity);
    /// // the same as numpy broadcasting the column [2, 1], with the rule run at run time
    /// let col = Tensor::<f32, shape![2, 1]>::from_array([[2.0], [4.0]]);
    /// assert_eq!(z, x.try_elementwise_sub(&col, Axis::<-1>, Identity).unwrap());
    /// // a run-time number of rows (dynamic_stitch's output) meets no dim of y: no check
    /// let rows = dynamic_stitch(&tensor![1, 0], &tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]]).run().unwrap();
    /// let w = Tensor::<f32, shape![3]>::from_array([1.0, 10.0, 100.0]);
    /// let r: Tensor<f32, shape![Dyn, 3], Vec<f32>> = rows.elementwise_sub(&w, Axis::<-1>, Identity);
    /// assert_eq!(r, rows.try_elementwise_sub(&w, Axis::<-1>, Identity).unwrap());
    /// ```
    #[inline]
    pub fn elementwise_sub<TY, Y, BY, A, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> Tensor<T, PlainOutput<S, TY, T, Y, AXIS>, B::Out>
    where
        // the element rule through a link, so that a wrong element type
        // is one short error ([`crate::ops::elements`]); `SameShape` is `Y`
        TY: Elements<T, SameRule, Y>,
        // no dim needs a run-time check: a `Dyn` meets only 1s or no dim;
        // `PlainY` is `Y` once it holds (see `ElementwiseNoCheck`)
        S: ElementwiseNoCheck<SameShape<TY, T, Y>, AXIS>,
        S: ElementwiseShapes<PlainY<S, TY, T, Y, AXIS>, AXIS>,
        Y: Shape,
        BY: Storage<TY>,
        A: Activation,
        B: ResultStorage<T, PlainOutput<S, TY, T, Y, AXIS>>,
    {
        // only integer division can fail, and this op is not a division
        let (out, _cannot_fail) =
            self.plain_elementwise::<TY, Y, BY, A, AXIS>(BinaryOpKind::Sub, y);
        out
    }

    /// [`elementwise_sub`](Self::elementwise_sub) writing into `out` (a caller's buffer, no heap needed).
    /// `out`'s shape type must prove its size ([`ProvenShape`]: static or branded dims).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// let y = Tensor::<f32, shape![3]>::from_array([2.0, 4.0, 8.0]);
    /// let mut buf = [0.0f32; 6];
    /// let mut out = Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut buf[..]).unwrap();
    /// x.elementwise_sub_into(&y, Axis::<-1>, Identity, &mut out);
    /// assert_eq!(out, x.elementwise_sub(&y, Axis::<-1>, Identity));
    /// ```
    pub fn elementwise_sub_into<TY, Y, BY, BO, A, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
        out: &mut Tensor<T, ProvenOutput<S, Y, AXIS>, BO>,
    ) where
        S: ElementwiseShapes<Y, AXIS>,
        // no dim needs a run-time check (see `ElementwiseNoCheck`), and
        // `out`'s type proves its dims
        S: ElementwiseNoCheck<Y, AXIS>,
        ElementwiseOutput<S, Y, AXIS>: ProvenShape,
        BO: StorageMut<T>,
        A: Activation,
        Y: Shape,
        BY: Storage<TY>,
        TY: SameElement<T> + Copy,
    {
        // only integer division can fail, and this op is not a division
        let _cannot_fail = self.plain_elementwise_into::<TY, Y, BY, _, BO, AXIS>(
            BinaryOpKind::Sub,
            A::KIND,
            y,
            out,
        );
    }

    /// Paddle's `elementwise_sub` (`act(x - y)`) for any shapes, run-time dims included:
    /// [`try_elementwise`](Self::try_elementwise) with [`Sub`](crate::ops::Sub).
    /// The static part of the rule is checked by the compiler, the rest when the op runs.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim::<2>), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let z = x.try_elementwise_sub(&y, Axis::<-1>, Identity).unwrap();
    /// assert_eq!(z.dims().as_slice(), &[2, 2]);
    /// let bad = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![1.0; 3]).unwrap();
    /// assert!(x.try_elementwise_sub(&bad, Axis::<-1>, Identity).is_err());
    /// ```
    pub fn try_elementwise_sub<A, TY, Y, BY, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> ElementwiseResult<T, S, B, Y, AXIS>
    where
        A: Activation,
        TY: SameElement<T> + Copy,
        BY: Storage<TY>,
        Y: Shape,
        S: ElementwiseShapes<Y, AXIS>,
        B: ResultStorage<T, ElementwiseOutput<S, Y, AXIS>>,
    {
        self.try_elementwise(crate::ops::Sub, y, axis, act)
    }

    /// [`try_elementwise_sub`](Self::try_elementwise_sub) writing into `out` (any storage, a caller's buffer included).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let mut out = Tensor::<f32, shape![2, 2]>::zeros();
    /// x.try_elementwise_sub_into(&y, Axis::<-1>, Identity, &mut out).unwrap();
    /// assert_eq!(out, x.elementwise_sub(&y, Axis::<-1>, Identity));
    /// ```
    pub fn try_elementwise_sub_into<A, TY, Y, BY, BO, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
        out: &mut Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
    ) -> Result<(), ElementwiseError>
    where
        A: Activation,
        TY: SameElement<T> + Copy,
        BY: Storage<TY>,
        Y: Shape,
        S: ElementwiseShapes<Y, AXIS>,
        BO: StorageMut<T>,
    {
        self.try_elementwise_into(crate::ops::Sub, y, axis, act, out)
    }
}

// ---- elementwise_max ----------------------------------------------------------

impl<T: Element, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// Paddle's `elementwise_max`: `act(x max y)` with Y placed at `axis`
    /// (see the [module docs](crate::ops::elementwise)). A shape the rule rejects is a
    /// compile error. A run-time (`Dyn`) dim is accepted where it meets 1 or no dim of
    /// the other operand (nothing to check) and stays `Dyn` in the output; where it meets
    /// another dim, use [`try_elementwise_max`](Self::try_elementwise_max). The result's storage is chosen
    /// by its shape (inline for static shapes, a `Vec` for a `Dyn` dim or a `Vec` operand).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// // Y [2] placed at axis 0: y[i] meets row i of x
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let z: Tensor<f32, shape![2, 3]> = x.elementwise_max(&y, Axis::<0>, Identity);
    /// // the same as numpy broadcasting the column [2, 1], with the rule run at run time
    /// let col = Tensor::<f32, shape![2, 1]>::from_array([[2.0], [4.0]]);
    /// assert_eq!(z, x.try_elementwise_max(&col, Axis::<-1>, Identity).unwrap());
    /// // a run-time number of rows (dynamic_stitch's output) meets no dim of y: no check
    /// let rows = dynamic_stitch(&tensor![1, 0], &tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]]).run().unwrap();
    /// let w = Tensor::<f32, shape![3]>::from_array([1.0, 10.0, 100.0]);
    /// let r: Tensor<f32, shape![Dyn, 3], Vec<f32>> = rows.elementwise_max(&w, Axis::<-1>, Identity);
    /// assert_eq!(r, rows.try_elementwise_max(&w, Axis::<-1>, Identity).unwrap());
    /// ```
    #[inline]
    pub fn elementwise_max<TY, Y, BY, A, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> Tensor<T, PlainOutput<S, TY, T, Y, AXIS>, B::Out>
    where
        // the element rule through a link, so that a wrong element type
        // is one short error ([`crate::ops::elements`]); `SameShape` is `Y`
        TY: Elements<T, SameRule, Y>,
        // no dim needs a run-time check: a `Dyn` meets only 1s or no dim;
        // `PlainY` is `Y` once it holds (see `ElementwiseNoCheck`)
        S: ElementwiseNoCheck<SameShape<TY, T, Y>, AXIS>,
        S: ElementwiseShapes<PlainY<S, TY, T, Y, AXIS>, AXIS>,
        Y: Shape,
        BY: Storage<TY>,
        A: Activation,
        B: ResultStorage<T, PlainOutput<S, TY, T, Y, AXIS>>,
    {
        // only integer division can fail, and this op is not a division
        let (out, _cannot_fail) =
            self.plain_elementwise::<TY, Y, BY, A, AXIS>(BinaryOpKind::Max, y);
        out
    }

    /// [`elementwise_max`](Self::elementwise_max) writing into `out` (a caller's buffer, no heap needed).
    /// `out`'s shape type must prove its size ([`ProvenShape`]: static or branded dims).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// let y = Tensor::<f32, shape![3]>::from_array([2.0, 4.0, 8.0]);
    /// let mut buf = [0.0f32; 6];
    /// let mut out = Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut buf[..]).unwrap();
    /// x.elementwise_max_into(&y, Axis::<-1>, Identity, &mut out);
    /// assert_eq!(out, x.elementwise_max(&y, Axis::<-1>, Identity));
    /// ```
    pub fn elementwise_max_into<TY, Y, BY, BO, A, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
        out: &mut Tensor<T, ProvenOutput<S, Y, AXIS>, BO>,
    ) where
        S: ElementwiseShapes<Y, AXIS>,
        // no dim needs a run-time check (see `ElementwiseNoCheck`), and
        // `out`'s type proves its dims
        S: ElementwiseNoCheck<Y, AXIS>,
        ElementwiseOutput<S, Y, AXIS>: ProvenShape,
        BO: StorageMut<T>,
        A: Activation,
        Y: Shape,
        BY: Storage<TY>,
        TY: SameElement<T> + Copy,
    {
        // only integer division can fail, and this op is not a division
        let _cannot_fail = self.plain_elementwise_into::<TY, Y, BY, _, BO, AXIS>(
            BinaryOpKind::Max,
            A::KIND,
            y,
            out,
        );
    }

    /// Paddle's `elementwise_max` (`act(x max y)`) for any shapes, run-time dims included:
    /// [`try_elementwise`](Self::try_elementwise) with [`Max`](crate::ops::Max).
    /// The static part of the rule is checked by the compiler, the rest when the op runs.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim::<2>), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let z = x.try_elementwise_max(&y, Axis::<-1>, Identity).unwrap();
    /// assert_eq!(z.dims().as_slice(), &[2, 2]);
    /// let bad = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![1.0; 3]).unwrap();
    /// assert!(x.try_elementwise_max(&bad, Axis::<-1>, Identity).is_err());
    /// ```
    pub fn try_elementwise_max<A, TY, Y, BY, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> ElementwiseResult<T, S, B, Y, AXIS>
    where
        A: Activation,
        TY: SameElement<T> + Copy,
        BY: Storage<TY>,
        Y: Shape,
        S: ElementwiseShapes<Y, AXIS>,
        B: ResultStorage<T, ElementwiseOutput<S, Y, AXIS>>,
    {
        self.try_elementwise(crate::ops::Max, y, axis, act)
    }

    /// [`try_elementwise_max`](Self::try_elementwise_max) writing into `out` (any storage, a caller's buffer included).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let mut out = Tensor::<f32, shape![2, 2]>::zeros();
    /// x.try_elementwise_max_into(&y, Axis::<-1>, Identity, &mut out).unwrap();
    /// assert_eq!(out, x.elementwise_max(&y, Axis::<-1>, Identity));
    /// ```
    pub fn try_elementwise_max_into<A, TY, Y, BY, BO, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
        out: &mut Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
    ) -> Result<(), ElementwiseError>
    where
        A: Activation,
        TY: SameElement<T> + Copy,
        BY: Storage<TY>,
        Y: Shape,
        S: ElementwiseShapes<Y, AXIS>,
        BO: StorageMut<T>,
    {
        self.try_elementwise_into(crate::ops::Max, y, axis, act, out)
    }
}

// ---- elementwise_min ----------------------------------------------------------

impl<T: Element, S: Shape, B: Storage<T>> Tensor<T, S, B> {
    /// Paddle's `elementwise_min`: `act(x min y)` with Y placed at `axis`
    /// (see the [module docs](crate::ops::elementwise)). A shape the rule rejects is a
    /// compile error. A run-time (`Dyn`) dim is accepted where it meets 1 or no dim of
    /// the other operand (nothing to check) and stays `Dyn` in the output; where it meets
    /// another dim, use [`try_elementwise_min`](Self::try_elementwise_min). The result's storage is chosen
    /// by its shape (inline for static shapes, a `Vec` for a `Dyn` dim or a `Vec` operand).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// // Y [2] placed at axis 0: y[i] meets row i of x
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let z: Tensor<f32, shape![2, 3]> = x.elementwise_min(&y, Axis::<0>, Identity);
    /// // the same as numpy broadcasting the column [2, 1], with the rule run at run time
    /// let col = Tensor::<f32, shape![2, 1]>::from_array([[2.0], [4.0]]);
    /// assert_eq!(z, x.try_elementwise_min(&col, Axis::<-1>, Identity).unwrap());
    /// // a run-time number of rows (dynamic_stitch's output) meets no dim of y: no check
    /// let rows = dynamic_stitch(&tensor![1, 0], &tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]]).run().unwrap();
    /// let w = Tensor::<f32, shape![3]>::from_array([1.0, 10.0, 100.0]);
    /// let r: Tensor<f32, shape![Dyn, 3], Vec<f32>> = rows.elementwise_min(&w, Axis::<-1>, Identity);
    /// assert_eq!(r, rows.try_elementwise_min(&w, Axis::<-1>, Identity).unwrap());
    /// ```
    #[inline]
    pub fn elementwise_min<TY, Y, BY, A, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
    ) -> Tensor<T, PlainOutput<S, TY, T, Y, AXIS>, B::Out>
    where
        // the element rule through a link, so that a wrong element type
        // is one short error ([`crate::ops::elements`]); `SameShape` is `Y`
        TY: Elements<T, SameRule, Y>,
        // no dim needs a run-time check: a `Dyn` meets only 1s or no dim;
        // `PlainY` is `Y` once it holds (see `ElementwiseNoCheck`)
        S: ElementwiseNoCheck<SameShape<TY, T, Y>, AXIS>,
        S: ElementwiseShapes<PlainY<S, TY, T, Y, AXIS>, AXIS>,
        Y: Shape,
        BY: Storage<TY>,
        A: Activation,
        B: ResultStorage<T, PlainOutput<S, TY, T, Y, AXIS>>,
    {
        // only integer division can fail, and this op is not a division
        let (out, _cannot_fail) =
            self.plain_elementwise::<TY, Y, BY, A, AXIS>(BinaryOpKind::Min, y);
        out
    }

    /// [`elementwise_min`](Self::elementwise_min) writing into `out` (a caller's buffer, no heap needed).
    /// `out`'s shape type must prove its size ([`ProvenShape`]: static or branded dims).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// let y = Tensor::<f32, shape![3]>::from_array([2.0, 4.0, 8.0]);
    /// let mut buf = [0.0f32; 6];
    /// let mut out = Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut buf[..]).unwrap();
    /// x.elementwise_min_into(&y, Axis::<-1>, Identity, &mut out);
    /// assert_eq!(out, x.elementwise_min(&y, Axis::<-1>, Identity));
    /// ```
    pub fn elementwise_min_into<TY, Y, BY, BO, A, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        _axis: Axis<AXIS>,
        _act: A,
        out: &mut Tensor<T, ProvenOutput<S, Y, AXIS>, BO>,
    ) where
        S: ElementwiseShapes<Y, AXIS>,
        // no dim needs a run-time check (see `ElementwiseNoCheck`), and
        // `out`'s type proves its dims
        S: ElementwiseNoCheck<Y, AXIS>,
        ElementwiseOutput<S, Y, AXIS>: ProvenShape,
        BO: StorageMut<T>,
        A: Activation,
        Y: Shape,
        BY: Storage<TY>,
        TY: SameElement<T> + Copy,
    {
        // only integer division can fail, and this op is not a division
        let _cannot_fail = self.plain_elementwise_into::<TY, Y, BY, _, BO, AXIS>(
            BinaryOpKind::Min,
            A::KIND,
            y,
            out,
        );
    }

    /// Paddle's `elementwise_min` (`act(x min y)`) for any shapes, run-time dims included:
    /// [`try_elementwise`](Self::try_elementwise) with [`Min`](crate::ops::Min).
    /// The static part of the rule is checked by the compiler, the rest when the op runs.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim::<2>), vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let z = x.try_elementwise_min(&y, Axis::<-1>, Identity).unwrap();
    /// assert_eq!(z.dims().as_slice(), &[2, 2]);
    /// let bad = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![1.0; 3]).unwrap();
    /// assert!(x.try_elementwise_min(&bad, Axis::<-1>, Identity).is_err());
    /// ```
    pub fn try_elementwise_min<A, TY, Y, BY, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
    ) -> ElementwiseResult<T, S, B, Y, AXIS>
    where
        A: Activation,
        TY: SameElement<T> + Copy,
        BY: Storage<TY>,
        Y: Shape,
        S: ElementwiseShapes<Y, AXIS>,
        B: ResultStorage<T, ElementwiseOutput<S, Y, AXIS>>,
    {
        self.try_elementwise(crate::ops::Min, y, axis, act)
    }

    /// [`try_elementwise_min`](Self::try_elementwise_min) writing into `out` (any storage, a caller's buffer included).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
    /// let y = Tensor::<f32, shape![2]>::from_array([2.0, 4.0]);
    /// let mut out = Tensor::<f32, shape![2, 2]>::zeros();
    /// x.try_elementwise_min_into(&y, Axis::<-1>, Identity, &mut out).unwrap();
    /// assert_eq!(out, x.elementwise_min(&y, Axis::<-1>, Identity));
    /// ```
    pub fn try_elementwise_min_into<A, TY, Y, BY, BO, const AXIS: isize>(
        &self,
        y: &Tensor<TY, Y, BY>,
        axis: Axis<AXIS>,
        act: A,
        out: &mut Tensor<T, ElementwiseOutput<S, Y, AXIS>, BO>,
    ) -> Result<(), ElementwiseError>
    where
        A: Activation,
        TY: SameElement<T> + Copy,
        BY: Storage<TY>,
        Y: Shape,
        S: ElementwiseShapes<Y, AXIS>,
        BO: StorageMut<T>,
    {
        self.try_elementwise_into(crate::ops::Min, y, axis, act, out)
    }
}
