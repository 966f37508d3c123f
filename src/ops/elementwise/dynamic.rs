//! The elementwise family on [`DynTensor`]: every dim known at run time,
//! every rule checked when the op runs (feature `alloc`); and its operators
//! (`&x * &y` returns a `Result`; with a number, `&x * 0.5`, a tensor).

use super::{ActivationKind, BinaryOpKind, DynAxis, ElementwiseError, FloatElement, GradElement};
use crate::dynamic::DynTensor;
use crate::element::{Element, SameElement};
use crate::shape::Dims;

impl<T: Element> DynTensor<T> {
    /// `act(op(self, y))` with Paddle's axis rule; every rule is checked here.
    ///
    /// ```
    /// use shapecheck::{DynTensor, BinaryOpKind, ActivationKind};
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let z = x.elementwise(BinaryOpKind::Add, &y, -1, ActivationKind::Identity).unwrap();
    /// assert_eq!(z.as_slice(), &[11, 22, 33, 14, 25, 36]);
    /// let err = x.elementwise(BinaryOpKind::Add, &y, 0, ActivationKind::Identity).unwrap_err();
    /// assert!(err.to_string().starts_with("broadcast dimension mismatch"));
    /// ```
    pub fn elementwise(
        &self,
        op: impl Into<BinaryOpKind>,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        self.elementwise_over(op.into(), &y.dims(), y.as_slice(), axis.value(), act.into())
    }

    /// [`elementwise`](Self::elementwise) with `y` as its dims and elements.
    fn elementwise_over(
        &self,
        op: BinaryOpKind,
        y_dims: &Dims,
        y: &[T],
        axis: isize,
        act: ActivationKind,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        // the rule once: its frame gives the output dims and the walk
        let f = super::rule::frame(&self.dims(), y_dims, axis)?;
        let mut out = DynTensor::defaulted(&f.out_dims())?;
        super::kernel::run(
            op,
            act,
            &crate::kernel::plan::walk(&f),
            self.as_slice(),
            y,
            out.as_mut_slice(),
        )?;
        Ok(out)
    }

    /// Paddle's `elementwise_mul` (`act(x * y)`) on run-time shapes: the
    /// same name as the static path's [`Tensor::elementwise_mul`](crate::Tensor::elementwise_mul), every rule
    /// checked here ([`elementwise`](Self::elementwise) with `BinaryOpKind::Mul`).
    ///
    /// ```
    /// use shapecheck::{ActivationKind, DynTensor};
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let z = x.elementwise_mul(&y, -1, ActivationKind::Identity).unwrap();
    /// assert_eq!(z.as_slice(), &[10, 40, 90, 40, 100, 180]);
    /// assert!(x.elementwise_mul(&y, 0, ActivationKind::Identity).is_err()); // 2 rows meet [3]
    /// ```
    pub fn elementwise_mul(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        self.elementwise(BinaryOpKind::Mul, y, axis, act)
    }

    /// Paddle's `elementwise_add` (`act(x + y)`) on run-time shapes: the
    /// same name as the static path's [`Tensor::elementwise_add`](crate::Tensor::elementwise_add), every rule
    /// checked here ([`elementwise`](Self::elementwise) with `BinaryOpKind::Add`).
    ///
    /// ```
    /// use shapecheck::{ActivationKind, DynTensor};
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let z = x.elementwise_add(&y, -1, ActivationKind::Identity).unwrap();
    /// assert_eq!(z.as_slice(), &[11, 22, 33, 14, 25, 36]);
    /// assert!(x.elementwise_add(&y, 0, ActivationKind::Identity).is_err()); // 2 rows meet [3]
    /// ```
    pub fn elementwise_add(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        self.elementwise(BinaryOpKind::Add, y, axis, act)
    }

    /// Paddle's `elementwise_sub` (`act(x - y)`) on run-time shapes: the
    /// same name as the static path's [`Tensor::elementwise_sub`](crate::Tensor::elementwise_sub), every rule
    /// checked here ([`elementwise`](Self::elementwise) with `BinaryOpKind::Sub`).
    ///
    /// ```
    /// use shapecheck::{ActivationKind, DynTensor};
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let z = x.elementwise_sub(&y, -1, ActivationKind::Identity).unwrap();
    /// assert_eq!(z.as_slice(), &[-9, -18, -27, -6, -15, -24]);
    /// assert!(x.elementwise_sub(&y, 0, ActivationKind::Identity).is_err()); // 2 rows meet [3]
    /// ```
    pub fn elementwise_sub(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        self.elementwise(BinaryOpKind::Sub, y, axis, act)
    }

    /// Paddle's `elementwise_div` (`act(x / y)`) on run-time shapes: the
    /// same name as the static path's [`Tensor::elementwise_div`](crate::Tensor::elementwise_div), every rule
    /// checked here ([`elementwise`](Self::elementwise) with `BinaryOpKind::Div`).
    ///
    /// ```
    /// use shapecheck::{ActivationKind, DynTensor};
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let z = x.elementwise_div(&y, -1, ActivationKind::Identity).unwrap();
    /// assert_eq!(z.as_slice(), &[0, 0, 0, 0, 0, 0]);
    /// assert!(x.elementwise_div(&y, 0, ActivationKind::Identity).is_err()); // 2 rows meet [3]
    /// ```
    pub fn elementwise_div(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        self.elementwise(BinaryOpKind::Div, y, axis, act)
    }

    /// Paddle's `elementwise_max` (`act(x max y)`) on run-time shapes: the
    /// same name as the static path's [`Tensor::elementwise_max`](crate::Tensor::elementwise_max), every rule
    /// checked here ([`elementwise`](Self::elementwise) with `BinaryOpKind::Max`).
    ///
    /// ```
    /// use shapecheck::{ActivationKind, DynTensor};
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let z = x.elementwise_max(&y, -1, ActivationKind::Identity).unwrap();
    /// assert_eq!(z.as_slice(), &[10, 20, 30, 10, 20, 30]);
    /// assert!(x.elementwise_max(&y, 0, ActivationKind::Identity).is_err()); // 2 rows meet [3]
    /// ```
    pub fn elementwise_max(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        self.elementwise(BinaryOpKind::Max, y, axis, act)
    }

    /// Paddle's `elementwise_min` (`act(x min y)`) on run-time shapes: the
    /// same name as the static path's [`Tensor::elementwise_min`](crate::Tensor::elementwise_min), every rule
    /// checked here ([`elementwise`](Self::elementwise) with `BinaryOpKind::Min`).
    ///
    /// ```
    /// use shapecheck::{ActivationKind, DynTensor};
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let z = x.elementwise_min(&y, -1, ActivationKind::Identity).unwrap();
    /// assert_eq!(z.as_slice(), &[1, 2, 3, 4, 5, 6]);
    /// assert!(x.elementwise_min(&y, 0, ActivationKind::Identity).is_err()); // 2 rows meet [3]
    /// ```
    pub fn elementwise_min(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        self.elementwise(BinaryOpKind::Min, y, axis, act)
    }
}

/// The `try_` spellings of the family: the static path's names for its
/// checked forms ([`Tensor::try_elementwise_mul`](crate::Tensor::try_elementwise_mul) and the rest), so that one
/// function body, written with `?`, runs on `Tensor`s and on `DynTensor`s
/// under one `use shapecheck::prelude::*`. On run-time shapes every form is
/// checked, so each is its plain form: the same rule, result and error.
impl<T: Element> DynTensor<T> {
    /// [`elementwise_mul`](Self::elementwise_mul) under the static path's name for its checked form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let z = x.try_elementwise_mul(&y, Axis::<-1>, Identity).unwrap();
    /// assert_eq!(z.as_slice(), &[10, 40, 90, 40, 100, 180]);
    /// assert_eq!(z, x.elementwise_mul(&y, -1, Identity).unwrap());
    /// let err = x.try_elementwise_mul(&y, Axis::<0>, Identity).unwrap_err(); // 2 rows meet [3]
    /// assert!(err.to_string().starts_with("broadcast dimension mismatch"));
    /// ```
    pub fn try_elementwise_mul(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        self.elementwise(BinaryOpKind::Mul, y, axis, act)
    }

    /// [`elementwise_add`](Self::elementwise_add) under the static path's name for its checked form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let z = x.try_elementwise_add(&y, Axis::<-1>, Identity).unwrap();
    /// assert_eq!(z.as_slice(), &[11, 22, 33, 14, 25, 36]);
    /// assert_eq!(z, x.elementwise_add(&y, -1, Identity).unwrap());
    /// let err = x.try_elementwise_add(&y, Axis::<0>, Identity).unwrap_err(); // 2 rows meet [3]
    /// assert!(err.to_string().starts_with("broadcast dimension mismatch"));
    /// ```
    pub fn try_elementwise_add(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        self.elementwise(BinaryOpKind::Add, y, axis, act)
    }

    /// [`elementwise_sub`](Self::elementwise_sub) under the static path's name for its checked form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let z = x.try_elementwise_sub(&y, Axis::<-1>, Identity).unwrap();
    /// assert_eq!(z.as_slice(), &[-9, -18, -27, -6, -15, -24]);
    /// assert_eq!(z, x.elementwise_sub(&y, -1, Identity).unwrap());
    /// let err = x.try_elementwise_sub(&y, Axis::<0>, Identity).unwrap_err(); // 2 rows meet [3]
    /// assert!(err.to_string().starts_with("broadcast dimension mismatch"));
    /// ```
    pub fn try_elementwise_sub(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        self.elementwise(BinaryOpKind::Sub, y, axis, act)
    }

    /// [`elementwise_div`](Self::elementwise_div) under the static path's name for its checked form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let z = x.try_elementwise_div(&y, Axis::<-1>, Identity).unwrap();
    /// assert_eq!(z.as_slice(), &[0, 0, 0, 0, 0, 0]);
    /// assert_eq!(z, x.elementwise_div(&y, -1, Identity).unwrap());
    /// let err = x.try_elementwise_div(&y, Axis::<0>, Identity).unwrap_err(); // 2 rows meet [3]
    /// assert!(err.to_string().starts_with("broadcast dimension mismatch"));
    /// ```
    pub fn try_elementwise_div(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        self.elementwise(BinaryOpKind::Div, y, axis, act)
    }

    /// [`elementwise_max`](Self::elementwise_max) under the static path's name for its checked form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let z = x.try_elementwise_max(&y, Axis::<-1>, Identity).unwrap();
    /// assert_eq!(z.as_slice(), &[10, 20, 30, 10, 20, 30]);
    /// assert_eq!(z, x.elementwise_max(&y, -1, Identity).unwrap());
    /// let err = x.try_elementwise_max(&y, Axis::<0>, Identity).unwrap_err(); // 2 rows meet [3]
    /// assert!(err.to_string().starts_with("broadcast dimension mismatch"));
    /// ```
    pub fn try_elementwise_max(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        self.elementwise(BinaryOpKind::Max, y, axis, act)
    }

    /// [`elementwise_min`](Self::elementwise_min) under the static path's name for its checked form.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let z = x.try_elementwise_min(&y, Axis::<-1>, Identity).unwrap();
    /// assert_eq!(z.as_slice(), &[1, 2, 3, 4, 5, 6]);
    /// assert_eq!(z, x.elementwise_min(&y, -1, Identity).unwrap());
    /// let err = x.try_elementwise_min(&y, Axis::<0>, Identity).unwrap_err(); // 2 rows meet [3]
    /// assert!(err.to_string().starts_with("broadcast dimension mismatch"));
    /// ```
    pub fn try_elementwise_min(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        self.elementwise(BinaryOpKind::Min, y, axis, act)
    }

    /// [`elementwise`](Self::elementwise) under the static path's name for
    /// its checked entry, [`Tensor::try_elementwise`](crate::Tensor::try_elementwise):
    /// the op and activation as the static path's markers (`Mul`, `Relu`)
    /// or the run-time enums, the axis as `Axis::<A>` or an `isize`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::Mul;
    /// let x = DynTensor::new(&[2, 3], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let y = DynTensor::new(&[2], vec![10.0f32, -10.0]).unwrap();
    /// let z = x.try_elementwise(Mul, &y, Axis::<0>, Relu).unwrap();
    /// assert_eq!(z.as_slice(), &[10.0, 20.0, 30.0, 0.0, 0.0, 0.0]);
    /// let err = x.try_elementwise(Mul, &y, Axis::<-1>, Identity).unwrap_err();
    /// assert_eq!(err.rule(), "elementwise/broadcast");
    /// ```
    pub fn try_elementwise(
        &self,
        op: impl Into<BinaryOpKind>,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        self.elementwise(op, y, axis, act)
    }

    /// [`try_elementwise`](Self::try_elementwise) writing into `out`, the
    /// twin of [`Tensor::try_elementwise_into`](crate::Tensor::try_elementwise_into):
    /// `out`'s dims must be the output's (`shape/output` otherwise); every
    /// check is made before anything is written, so on an error `out` is
    /// unchanged.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::Add;
    /// let x = DynTensor::new(&[2, 2], vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
    /// let y = DynTensor::new(&[2], vec![10.0f32, 20.0]).unwrap();
    /// let mut out = DynTensor::full(&[2, 2], 0.0).unwrap();
    /// x.try_elementwise_into(Add, &y, Axis::<-1>, Identity, &mut out).unwrap();
    /// assert_eq!(out.as_slice(), &[11.0, 22.0, 13.0, 24.0]);
    /// // an output of other dims is an error, and nothing is written
    /// let mut small = DynTensor::full(&[1, 2], 0.0).unwrap();
    /// let err = x.try_elementwise_into(Add, &y, Axis::<-1>, Identity, &mut small).unwrap_err();
    /// assert_eq!(err.rule(), "shape/output");
    /// assert_eq!(small.as_slice(), &[0.0; 2]);
    /// ```
    pub fn try_elementwise_into(
        &self,
        op: impl Into<BinaryOpKind>,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
        out: &mut DynTensor<T>,
    ) -> Result<(), ElementwiseError> {
        let f = super::rule::frame(&self.dims(), &y.dims(), axis.value())?;
        f.out_dims().expect_output(out.dims())?;
        super::kernel::run(
            op.into(),
            act.into(),
            &crate::kernel::plan::walk(&f),
            self.as_slice(),
            y.as_slice(),
            out.as_mut_slice(),
        )
    }

    /// [`try_elementwise_mul`](Self::try_elementwise_mul) writing into `out`
    /// ([`try_elementwise_into`](Self::try_elementwise_into) with
    /// `BinaryOpKind::Mul`), the twin of
    /// [`Tensor::try_elementwise_mul_into`](crate::Tensor::try_elementwise_mul_into).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let mut out = DynTensor::full(&[2, 3], 0).unwrap();
    /// x.try_elementwise_mul_into(&y, Axis::<-1>, Identity, &mut out).unwrap();
    /// assert_eq!(out.as_slice(), &[10, 40, 90, 40, 100, 180]);
    /// let mut wrong = DynTensor::full(&[3, 2], 0).unwrap();
    /// let err = x.try_elementwise_mul_into(&y, Axis::<-1>, Identity, &mut wrong).unwrap_err();
    /// assert_eq!(err.rule(), "shape/output");
    /// ```
    pub fn try_elementwise_mul_into(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
        out: &mut DynTensor<T>,
    ) -> Result<(), ElementwiseError> {
        self.try_elementwise_into(BinaryOpKind::Mul, y, axis, act, out)
    }

    /// [`try_elementwise_add`](Self::try_elementwise_add) writing into `out`
    /// ([`try_elementwise_into`](Self::try_elementwise_into) with
    /// `BinaryOpKind::Add`), the twin of
    /// [`Tensor::try_elementwise_add_into`](crate::Tensor::try_elementwise_add_into).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let mut out = DynTensor::full(&[2, 3], 0).unwrap();
    /// x.try_elementwise_add_into(&y, Axis::<-1>, Identity, &mut out).unwrap();
    /// assert_eq!(out.as_slice(), &[11, 22, 33, 14, 25, 36]);
    /// let mut wrong = DynTensor::full(&[3, 2], 0).unwrap();
    /// let err = x.try_elementwise_add_into(&y, Axis::<-1>, Identity, &mut wrong).unwrap_err();
    /// assert_eq!(err.rule(), "shape/output");
    /// ```
    pub fn try_elementwise_add_into(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
        out: &mut DynTensor<T>,
    ) -> Result<(), ElementwiseError> {
        self.try_elementwise_into(BinaryOpKind::Add, y, axis, act, out)
    }

    /// [`try_elementwise_sub`](Self::try_elementwise_sub) writing into `out`
    /// ([`try_elementwise_into`](Self::try_elementwise_into) with
    /// `BinaryOpKind::Sub`), the twin of
    /// [`Tensor::try_elementwise_sub_into`](crate::Tensor::try_elementwise_sub_into).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let mut out = DynTensor::full(&[2, 3], 0).unwrap();
    /// x.try_elementwise_sub_into(&y, Axis::<-1>, Identity, &mut out).unwrap();
    /// assert_eq!(out.as_slice(), &[-9, -18, -27, -6, -15, -24]);
    /// let mut wrong = DynTensor::full(&[3, 2], 0).unwrap();
    /// let err = x.try_elementwise_sub_into(&y, Axis::<-1>, Identity, &mut wrong).unwrap_err();
    /// assert_eq!(err.rule(), "shape/output");
    /// ```
    pub fn try_elementwise_sub_into(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
        out: &mut DynTensor<T>,
    ) -> Result<(), ElementwiseError> {
        self.try_elementwise_into(BinaryOpKind::Sub, y, axis, act, out)
    }

    /// [`try_elementwise_div`](Self::try_elementwise_div) writing into `out`
    /// ([`try_elementwise_into`](Self::try_elementwise_into) with
    /// `BinaryOpKind::Div`), the twin of
    /// [`Tensor::try_elementwise_div_into`](crate::Tensor::try_elementwise_div_into).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let mut out = DynTensor::full(&[2, 3], 0).unwrap();
    /// x.try_elementwise_div_into(&y, Axis::<-1>, Identity, &mut out).unwrap();
    /// assert_eq!(out.as_slice(), &[0, 0, 0, 0, 0, 0]);
    /// let mut wrong = DynTensor::full(&[3, 2], 0).unwrap();
    /// let err = x.try_elementwise_div_into(&y, Axis::<-1>, Identity, &mut wrong).unwrap_err();
    /// assert_eq!(err.rule(), "shape/output");
    /// ```
    pub fn try_elementwise_div_into(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
        out: &mut DynTensor<T>,
    ) -> Result<(), ElementwiseError> {
        self.try_elementwise_into(BinaryOpKind::Div, y, axis, act, out)
    }

    /// [`try_elementwise_max`](Self::try_elementwise_max) writing into `out`
    /// ([`try_elementwise_into`](Self::try_elementwise_into) with
    /// `BinaryOpKind::Max`), the twin of
    /// [`Tensor::try_elementwise_max_into`](crate::Tensor::try_elementwise_max_into).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let mut out = DynTensor::full(&[2, 3], 0).unwrap();
    /// x.try_elementwise_max_into(&y, Axis::<-1>, Identity, &mut out).unwrap();
    /// assert_eq!(out.as_slice(), &[10, 20, 30, 10, 20, 30]);
    /// let mut wrong = DynTensor::full(&[3, 2], 0).unwrap();
    /// let err = x.try_elementwise_max_into(&y, Axis::<-1>, Identity, &mut wrong).unwrap_err();
    /// assert_eq!(err.rule(), "shape/output");
    /// ```
    pub fn try_elementwise_max_into(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
        out: &mut DynTensor<T>,
    ) -> Result<(), ElementwiseError> {
        self.try_elementwise_into(BinaryOpKind::Max, y, axis, act, out)
    }

    /// [`try_elementwise_min`](Self::try_elementwise_min) writing into `out`
    /// ([`try_elementwise_into`](Self::try_elementwise_into) with
    /// `BinaryOpKind::Min`), the twin of
    /// [`Tensor::try_elementwise_min_into`](crate::Tensor::try_elementwise_min_into).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let y = DynTensor::new(&[3], vec![10, 20, 30]).unwrap();
    /// let mut out = DynTensor::full(&[2, 3], 0).unwrap();
    /// x.try_elementwise_min_into(&y, Axis::<-1>, Identity, &mut out).unwrap();
    /// assert_eq!(out.as_slice(), &[1, 2, 3, 4, 5, 6]);
    /// let mut wrong = DynTensor::full(&[3, 2], 0).unwrap();
    /// let err = x.try_elementwise_min_into(&y, Axis::<-1>, Identity, &mut wrong).unwrap_err();
    /// assert_eq!(err.rule(), "shape/output");
    /// ```
    pub fn try_elementwise_min_into(
        &self,
        y: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
        out: &mut DynTensor<T>,
    ) -> Result<(), ElementwiseError> {
        self.try_elementwise_into(BinaryOpKind::Min, y, axis, act, out)
    }
}

impl<T: Element> DynTensor<T> {
    /// `f(x, y)` element by element, a function of yours, with numpy
    /// broadcasting (the rule of `&x * &y`, elementwise's at axis -1),
    /// checked before anything is allocated: the twin of
    /// [`Tensor::try_zip_with`](crate::Tensor::try_zip_with), whose error
    /// names the same rule (there inside a fused expression's).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let x = DynTensor::new(&[2, 1], vec![1.0f32, 2.0]).unwrap();
    /// let y = DynTensor::new(&[2], vec![3.0f32, 4.0]).unwrap();
    /// let hypot = x.try_zip_with(&y, |a, b| (a * a + b * b).sqrt()).unwrap();
    /// assert_eq!(hypot.dims().as_slice(), &[2, 2]);
    /// assert_eq!(hypot.as_slice()[1], 17.0f32.sqrt());
    /// let z = DynTensor::new(&[3], vec![1.0f32; 3]).unwrap();
    /// assert_eq!(y.try_zip_with(&z, |a, b| a + b).unwrap_err().rule(), "elementwise/broadcast");
    /// ```
    pub fn try_zip_with<F: Fn(T, T) -> T + Sync>(
        &self,
        y: &DynTensor<T>,
        f: F,
    ) -> Result<DynTensor<T>, ElementwiseError> {
        let frame = super::rule::frame(&self.dims(), &y.dims(), -1)?;
        let mut out = DynTensor::defaulted(&frame.out_dims())?;
        super::kernel::zip(
            &crate::kernel::plan::walk(&frame),
            self.as_slice(),
            y.as_slice(),
            out.as_mut_slice(),
            f,
        );
        Ok(out)
    }
}

impl<T: GradElement> DynTensor<T> {
    /// The gradients of `act(op(self, y))` at `axis` on run-time shapes:
    /// the same name and rule as the static path's
    /// [`Tensor::elementwise_backward`](crate::Tensor::elementwise_backward)
    /// (see `backward.rs` there), every check made here before anything is
    /// allocated: the forward's rule, then `out`'s and `dout`'s dims against
    /// the output's (`elementwise/dout-shape`). Returns `(dx, dy)`, of
    /// `self`'s and `y`'s dims.
    ///
    /// ```
    /// use shapecheck::{ActivationKind, BinaryOpKind, DynTensor};
    /// let x = DynTensor::new(&[2, 3], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let y = DynTensor::new(&[2], vec![10.0f32, 20.0]).unwrap();
    /// let out = x.elementwise_mul(&y, 0, ActivationKind::Identity).unwrap();
    /// let dout = DynTensor::new(&[2, 3], vec![1.0f32; 6]).unwrap();
    /// let (dx, dy) = x.elementwise_backward(BinaryOpKind::Mul, &y, &out, &dout, 0, ActivationKind::Identity).unwrap();
    /// assert_eq!(dx.as_slice(), &[10.0, 10.0, 10.0, 20.0, 20.0, 20.0]);
    /// assert_eq!(dy.as_slice(), &[6.0, 15.0]);
    /// let short = DynTensor::new(&[3, 2], vec![1.0f32; 6]).unwrap();
    /// let err = x.elementwise_backward(BinaryOpKind::Mul, &y, &out, &short, 0, ActivationKind::Identity).unwrap_err();
    /// assert_eq!(err.rule(), "elementwise/dout-shape");
    /// ```
    pub fn elementwise_backward(
        &self,
        op: impl Into<BinaryOpKind>,
        y: &DynTensor<T>,
        out: &DynTensor<T>,
        dout: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<(DynTensor<T>, DynTensor<T>), ElementwiseError> {
        let f = super::backward::checked_frame(
            &self.dims(),
            &y.dims(),
            axis.value(),
            &out.dims(),
            &dout.dims(),
        )?;
        let mut gx = DynTensor::defaulted(&self.dims())?;
        let mut gy = DynTensor::defaulted(&y.dims())?;
        super::backward::run(
            op.into(),
            act.into(),
            &crate::kernel::plan::walk(&f),
            self.as_slice(),
            y.as_slice(),
            out.as_slice(),
            dout.as_slice(),
            gx.as_mut_slice(),
            gy.as_mut_slice(),
        );
        Ok((gx, gy))
    }

    /// [`elementwise_backward`](Self::elementwise_backward) under the static
    /// path's name for its checked form,
    /// [`Tensor::try_elementwise_backward`](crate::Tensor::try_elementwise_backward):
    /// the op, axis and activation as the static path's markers or values.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::Sub;
    /// let x = DynTensor::new(&[2, 2], vec![1.0f64, 2.0, 3.0, 4.0]).unwrap();
    /// let y = DynTensor::new(&[2], vec![1.0f64, 1.0]).unwrap();
    /// let out = x.try_elementwise_sub(&y, Axis::<-1>, Identity).unwrap();
    /// let (dx, dy) = x.try_elementwise_backward(Sub, &y, &out, &out, Axis::<-1>, Identity).unwrap();
    /// assert_eq!(dx.as_slice(), out.as_slice());
    /// assert_eq!(dy.as_slice(), &[-2.0, -4.0]); // -dout summed over the rows
    /// let err = x.try_elementwise_backward(Sub, &y, &out, &y, Axis::<-1>, Identity).unwrap_err();
    /// assert_eq!(err.rule(), "elementwise/dout-shape");
    /// ```
    pub fn try_elementwise_backward(
        &self,
        op: impl Into<BinaryOpKind>,
        y: &DynTensor<T>,
        out: &DynTensor<T>,
        dout: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
    ) -> Result<(DynTensor<T>, DynTensor<T>), ElementwiseError> {
        self.elementwise_backward(op, y, out, dout, axis, act)
    }

    /// [`try_elementwise_backward`](Self::try_elementwise_backward) writing
    /// into `gx` and `gy`, the twin of
    /// [`Tensor::try_elementwise_backward_into`](crate::Tensor::try_elementwise_backward_into):
    /// their dims must be x's and y's (`shape/output`); every check is made
    /// before anything is written.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::ops::Max;
    /// let x = DynTensor::new(&[3], vec![1.0f32, 5.0, 2.0]).unwrap();
    /// let y = DynTensor::new(&[3], vec![3.0f32, 1.0, 2.0]).unwrap();
    /// let out = x.try_elementwise_max(&y, Axis::<-1>, Identity).unwrap();
    /// let dout = DynTensor::full(&[3], 1.0f32).unwrap();
    /// let (mut gx, mut gy) = (DynTensor::full(&[3], 0.0).unwrap(), DynTensor::full(&[3], 0.0).unwrap());
    /// x.try_elementwise_backward_into(Max, &y, &out, &dout, Axis::<-1>, Identity, &mut gx, &mut gy).unwrap();
    /// assert_eq!(gx.as_slice(), &[0.0, 1.0, 0.5]); // a tie splits evenly
    /// assert_eq!(gy.as_slice(), &[1.0, 0.0, 0.5]);
    /// let mut short = DynTensor::full(&[2], 7.0f32).unwrap();
    /// let err = x.try_elementwise_backward_into(Max, &y, &out, &dout, Axis::<-1>, Identity, &mut gx, &mut short).unwrap_err();
    /// assert_eq!(err.rule(), "shape/output");
    /// assert_eq!(short.as_slice(), &[7.0, 7.0]);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn try_elementwise_backward_into(
        &self,
        op: impl Into<BinaryOpKind>,
        y: &DynTensor<T>,
        out: &DynTensor<T>,
        dout: &DynTensor<T>,
        axis: impl DynAxis,
        act: impl Into<ActivationKind>,
        gx: &mut DynTensor<T>,
        gy: &mut DynTensor<T>,
    ) -> Result<(), ElementwiseError> {
        let f = super::backward::checked_frame(
            &self.dims(),
            &y.dims(),
            axis.value(),
            &out.dims(),
            &dout.dims(),
        )?;
        self.dims().expect_output(gx.dims())?;
        y.dims().expect_output(gy.dims())?;
        super::backward::run(
            op.into(),
            act.into(),
            &crate::kernel::plan::walk(&f),
            self.as_slice(),
            y.as_slice(),
            out.as_slice(),
            dout.as_slice(),
            gx.as_mut_slice(),
            gy.as_mut_slice(),
        );
        Ok(())
    }
}

// The operators, as on `Tensor`: `&x * &y`, `+`, `-`, `/` (numpy's rule,
// axis -1), each a `Result` here since the shapes meet only when it runs;
// and with a number on either side (`&x * 0.5`, `1.0 - &x`), which meets
// every shape and so cannot fail. `/` is for `f32` and `f64`, as on
// `Tensor`. Each also with its tensors owned (`x * y`, `x * 0.5`).
// `dyn_operators!` (below) writes them.

/// `f(v)` for every element of an owned `x`, in its buffer (the operators
/// with a number on an owned tensor; a borrowed one takes `map_each`).
fn in_place<T: Copy>(mut x: DynTensor<T>, f: impl Fn(T) -> T) -> DynTensor<T> {
    for v in x.as_mut_slice() {
        *v = f(*v);
    }
    x
}

// The operator impls: for tensors, one per operator and each of `&x op
// &y`, `x op &y`, `&x op y`, `x op y`; for numbers one per number type,
// operator and side (Rust's orphan rule wants the number's type written out
// for `k * &x`, and a number of another type is then the element-type
// error), by reference and owned.
macro_rules! dyn_operators {
    (tensors: $trait:ident, $method:ident, $kind:ident, $elem:path) => {
        #[doc = concat!("`&x ", stringify!($method), " &y` with numpy broadcasting (axis -1), checked when it runs.")]
        impl<T: Element, TY: SameElement<T> + $elem> core::ops::$trait<&DynTensor<TY>> for &DynTensor<T> {
            type Output = Result<DynTensor<T>, ElementwiseError>;
            fn $method(self, y: &DynTensor<TY>) -> Self::Output {
                let (op, act) = (BinaryOpKind::$kind, ActivationKind::Identity);
                self.elementwise_over(op, &y.dims(), TY::same(y.as_slice()), -1, act)
            }
        }

        #[doc = concat!("`x ", stringify!($method), " &y` with `x` owned: as `&x ", stringify!($method), " &y`.")]
        impl<T: Element, TY: SameElement<T> + $elem> core::ops::$trait<&DynTensor<TY>> for DynTensor<T> {
            type Output = Result<DynTensor<T>, ElementwiseError>;
            fn $method(self, y: &DynTensor<TY>) -> Self::Output {
                core::ops::$trait::$method(&self, y)
            }
        }

        #[doc = concat!("`&x ", stringify!($method), " y` with `y` owned: as `&x ", stringify!($method), " &y`.")]
        impl<T: Element, TY: SameElement<T> + $elem> core::ops::$trait<DynTensor<TY>> for &DynTensor<T> {
            type Output = Result<DynTensor<T>, ElementwiseError>;
            fn $method(self, y: DynTensor<TY>) -> Self::Output {
                core::ops::$trait::$method(self, &y)
            }
        }

        #[doc = concat!("`x ", stringify!($method), " y` with both owned: as `&x ", stringify!($method), " &y`.")]
        impl<T: Element, TY: SameElement<T> + $elem> core::ops::$trait<DynTensor<TY>> for DynTensor<T> {
            type Output = Result<DynTensor<T>, ElementwiseError>;
            fn $method(self, y: DynTensor<TY>) -> Self::Output {
                core::ops::$trait::$method(&self, &y)
            }
        }
    };
    (number: $num:ty) => {
        dyn_operators!(number: $num, Mul, mul, Element);
        dyn_operators!(number: $num, Add, add, Element);
        dyn_operators!(number: $num, Sub, sub, Element);
        dyn_operators!(number: $num, Div, div, FloatElement);
    };
    (number: $num:ty, $trait:ident, $method:ident, $elem:path) => {
        #[doc = concat!("`&x ", stringify!($method), " k` for a number `k: ", stringify!($num), "`: each element and `k`, in that order.")]
        impl<T: $elem> core::ops::$trait<$num> for &DynTensor<T>
        where
            $num: SameElement<T>,
        {
            type Output = DynTensor<T>;
            #[inline]
            fn $method(self, k: $num) -> DynTensor<T> {
                let k = k.same_value();
                self.map_each(|v| T::$method(v, k))
            }
        }

        #[doc = concat!("`x ", stringify!($method), " k` with `x` owned: its buffer is the result's.")]
        impl<T: $elem> core::ops::$trait<$num> for DynTensor<T>
        where
            $num: SameElement<T>,
        {
            type Output = DynTensor<T>;
            #[inline]
            fn $method(self, k: $num) -> DynTensor<T> {
                let k = k.same_value();
                in_place(self, |v| T::$method(v, k))
            }
        }

        #[doc = concat!("`k ", stringify!($method), " &x` for a number `k: ", stringify!($num), "`: `k` and each element, in that order.")]
        impl<T: $elem> core::ops::$trait<&DynTensor<T>> for $num
        where
            $num: SameElement<T>,
        {
            type Output = DynTensor<T>;
            #[inline]
            fn $method(self, x: &DynTensor<T>) -> DynTensor<T> {
                let k = self.same_value();
                x.map_each(|v| T::$method(k, v))
            }
        }

        #[doc = concat!("`k ", stringify!($method), " x` with `x` owned: its buffer is the result's.")]
        impl<T: $elem> core::ops::$trait<DynTensor<T>> for $num
        where
            $num: SameElement<T>,
        {
            type Output = DynTensor<T>;
            #[inline]
            fn $method(self, x: DynTensor<T>) -> DynTensor<T> {
                let k = self.same_value();
                in_place(x, |v| T::$method(k, v))
            }
        }
    };
}

dyn_operators!(tensors: Mul, mul, Mul, Copy);
dyn_operators!(tensors: Add, add, Add, Copy);
dyn_operators!(tensors: Sub, sub, Sub, Copy);
dyn_operators!(tensors: Div, div, Div, FloatElement);

dyn_operators!(number: f32);
dyn_operators!(number: f64);
dyn_operators!(number: i8);
dyn_operators!(number: i16);
dyn_operators!(number: i32);
dyn_operators!(number: i64);
dyn_operators!(number: u8);
dyn_operators!(number: u16);
dyn_operators!(number: u32);
dyn_operators!(number: u64);
#[cfg(feature = "half")]
dyn_operators!(number: half::f16);
#[cfg(feature = "half")]
dyn_operators!(number: half::bf16);
