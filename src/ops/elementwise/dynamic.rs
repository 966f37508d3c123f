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
            &super::kernel::walk(&f),
            self.as_slice(),
            y,
            out.as_mut_slice(),
        )?;
        Ok(out)
    }

    /// `f(v)` for every element: the operators with a number.
    fn each(&self, f: impl Fn(T) -> T) -> DynTensor<T> {
        let mut out = self.clone();
        for v in out.as_mut_slice() {
            *v = f(*v);
        }
        out
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
            &super::kernel::walk(&f),
            self.as_slice(),
            y.as_slice(),
            out.as_slice(),
            dout.as_slice(),
            gx.as_mut_slice(),
            gy.as_mut_slice(),
        );
        Ok((gx, gy))
    }
}

// The operators, as on `Tensor`: `&x * &y`, `+`, `-`, `/` (numpy's rule,
// axis -1), each a `Result` here since the shapes meet only when it runs;
// and with a number on either side (`&x * 0.5`, `1.0 - &x`), which meets
// every shape and so cannot fail. `/` is for `f32` and `f64`, as on
// `Tensor`. The number forms are `dyn_number_ops!`'s (below).

/// `&x * &y` with numpy broadcasting, checked when it runs: the operator
/// form of `x.elementwise_mul(&y, Axis::<-1>, Identity)`.
///
/// ```
/// use shapecheck::DynTensor;
/// let x = DynTensor::new(&[2, 2], vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
/// let y = DynTensor::new(&[2], vec![10.0f32, 100.0]).unwrap();
/// assert_eq!((&x * &y).unwrap().as_slice(), &[10.0, 200.0, 30.0, 400.0]);
/// assert_eq!((&(&x * 2.0) - 1.0).as_slice(), &[1.0, 3.0, 5.0, 7.0]);
/// assert_eq!((10.0 - &x).as_slice(), &[9.0, 8.0, 7.0, 6.0]);
/// let three = DynTensor::new(&[3], vec![1.0f32; 3]).unwrap();
/// assert_eq!((&x + &three).unwrap_err().rule(), "elementwise/broadcast");
/// ```
impl<T: Element, TY: SameElement<T> + Copy> core::ops::Mul<&DynTensor<TY>> for &DynTensor<T> {
    type Output = Result<DynTensor<T>, ElementwiseError>;
    fn mul(self, y: &DynTensor<TY>) -> Self::Output {
        let (op, act) = (BinaryOpKind::Mul, ActivationKind::Identity);
        self.elementwise_over(op, &y.dims(), TY::same(y.as_slice()), -1, act)
    }
}

/// `&x + &y` with numpy broadcasting, checked when it runs.
impl<T: Element, TY: SameElement<T> + Copy> core::ops::Add<&DynTensor<TY>> for &DynTensor<T> {
    type Output = Result<DynTensor<T>, ElementwiseError>;
    fn add(self, y: &DynTensor<TY>) -> Self::Output {
        let (op, act) = (BinaryOpKind::Add, ActivationKind::Identity);
        self.elementwise_over(op, &y.dims(), TY::same(y.as_slice()), -1, act)
    }
}

/// `&x - &y` with numpy broadcasting, checked when it runs.
impl<T: Element, TY: SameElement<T> + Copy> core::ops::Sub<&DynTensor<TY>> for &DynTensor<T> {
    type Output = Result<DynTensor<T>, ElementwiseError>;
    fn sub(self, y: &DynTensor<TY>) -> Self::Output {
        let (op, act) = (BinaryOpKind::Sub, ActivationKind::Identity);
        self.elementwise_over(op, &y.dims(), TY::same(y.as_slice()), -1, act)
    }
}

/// `&x / &y` with numpy broadcasting, checked when it runs (floats: a zero
/// divisor gives an infinity or NaN).
impl<T: Element, TY: SameElement<T> + FloatElement> core::ops::Div<&DynTensor<TY>>
    for &DynTensor<T>
{
    type Output = Result<DynTensor<T>, ElementwiseError>;
    fn div(self, y: &DynTensor<TY>) -> Self::Output {
        let (op, act) = (BinaryOpKind::Div, ActivationKind::Identity);
        self.elementwise_over(op, &y.dims(), TY::same(y.as_slice()), -1, act)
    }
}

/// `k op &x` for a number `k` of `x`'s element type (`dyn_number_ops!`
/// writes one impl per number type and operator).
fn number_first<T: Element>(k: T, x: &DynTensor<T>, op: fn(T, T) -> T) -> DynTensor<T> {
    x.each(|v| op(k, v))
}

/// `&x op k` for a number `k` of `x`'s element type, likewise.
fn number_last<T: Element>(x: &DynTensor<T>, k: T, op: fn(T, T) -> T) -> DynTensor<T> {
    x.each(|v| op(v, k))
}

// One impl per number type, operator and side, as `Tensor`'s `number_ops!`
// writes them (and for the same reasons: the orphan rule for `k * &x`, the
// element-type error for a number of another type).
macro_rules! dyn_number_ops {
    ($num:ty) => {
        dyn_number_ops!($num, Mul, mul, Element);
        dyn_number_ops!($num, Add, add, Element);
        dyn_number_ops!($num, Sub, sub, Element);
        dyn_number_ops!($num, Div, div, FloatElement);
    };
    ($num:ty, $trait:ident, $method:ident, $elem:path) => {
        #[doc = concat!("`&x ", stringify!($method), " k` for a number `k: ", stringify!($num), "`: each element and `k`, in that order.")]
        impl<T: $elem> core::ops::$trait<$num> for &DynTensor<T>
        where
            $num: SameElement<T>,
        {
            type Output = DynTensor<T>;
            #[inline]
            fn $method(self, k: $num) -> DynTensor<T> {
                number_last(self, k.same_value(), T::$method)
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
                number_first(self.same_value(), x, T::$method)
            }
        }
    };
}

dyn_number_ops!(f32);
dyn_number_ops!(f64);
dyn_number_ops!(i8);
dyn_number_ops!(i16);
dyn_number_ops!(i32);
dyn_number_ops!(i64);
dyn_number_ops!(u8);
dyn_number_ops!(u16);
dyn_number_ops!(u32);
dyn_number_ops!(u64);
#[cfg(feature = "half")]
dyn_number_ops!(half::f16);
#[cfg(feature = "half")]
dyn_number_ops!(half::bf16);
