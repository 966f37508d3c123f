//! Select on [`DynTensor`]: every dim known at run time, every rule checked
//! when the op runs (feature `alloc`).

use super::{AutoBroadcast, SelectError};
use crate::dynamic::DynTensor;
use crate::element::Element;

impl<T: Copy + Default> DynTensor<T> {
    /// `cond ? then : else` under `mode`, every rule checked at run time.
    ///
    /// ```
    /// use shapecheck::{AutoBroadcast, DynTensor};
    /// let c = DynTensor::new(&[2, 4], vec![false, false, false, false, false, true, true, true]).unwrap();
    /// let t = DynTensor::new(&[2, 4], (1..=8).collect()).unwrap();
    /// let e = DynTensor::new(&[4], vec![11, 12, 13, 14]).unwrap();
    /// // pdpd, right-aligned: else [4] goes on then's last dim
    /// let out = DynTensor::select(&c, &t, &e, AutoBroadcast::Pdpd { axis: -1 }).unwrap();
    /// assert_eq!(out.as_slice(), &[11, 12, 13, 14, 11, 6, 7, 8]);
    /// // at axis 0 it meets then's 2
    /// let err = DynTensor::select(&c, &t, &e, AutoBroadcast::Pdpd { axis: 0 }).unwrap_err();
    /// assert!(err.to_string().starts_with("select (pdpd, axis 0): else [4] does not broadcast"));
    /// ```
    pub fn select(
        cond: &DynTensor<bool>,
        then: &DynTensor<T>,
        els: &DynTensor<T>,
        mode: impl Into<AutoBroadcast>,
    ) -> Result<DynTensor<T>, SelectError> {
        // the rule once: its frame gives the output dims and the walk
        let f = super::rule::frame(mode.into(), &cond.dims(), &then.dims(), &els.dims())?;
        let mut out = DynTensor::defaulted(&f.out_dims())?;
        super::kernel::run(
            &f,
            cond.as_slice(),
            then.as_slice(),
            els.as_slice(),
            out.as_mut_slice(),
        )?;
        Ok(out)
    }
}

impl DynTensor<bool> {
    /// [`DynTensor::select`] with this tensor as the condition, under the
    /// static path's name for its checked form
    /// ([`Tensor::try_select`](crate::Tensor::try_select)), so that one
    /// function body, written with `?`, runs on `Tensor`s and on
    /// `DynTensor`s under one `use shapecheck::prelude::*`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let keep = DynTensor::new(&[2, 1], vec![true, false]).unwrap();
    /// let x = DynTensor::new(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// let zero = DynTensor::new(&[3], vec![0, 0, 0]).unwrap();
    /// let out = keep.try_select(&x, &zero, Numpy).unwrap();
    /// assert_eq!(out.as_slice(), &[1, 2, 3, 0, 0, 0]);
    /// let two = DynTensor::new(&[2], vec![0, 0]).unwrap(); // [2] against x's 3 columns
    /// assert_eq!(keep.try_select(&x, &two, Numpy).unwrap_err().rule(), "select/numpy-broadcast");
    /// ```
    pub fn try_select<T: Copy + Default>(
        &self,
        then: &DynTensor<T>,
        els: &DynTensor<T>,
        mode: impl Into<AutoBroadcast>,
    ) -> Result<DynTensor<T>, SelectError> {
        DynTensor::select(self, then, els, mode)
    }
}

impl<T: Element> DynTensor<T> {
    /// The gradients of `select(cond, then, els, mode)` on run-time shapes:
    /// the same name and rule as the static path's
    /// [`select_backward`](crate::ops::select::select_backward) (`dout`
    /// where cond is true to then, where false to else, each summed back to
    /// its operand's dims), every check made here before anything is
    /// allocated: the forward's rule, then `dout`'s dims against the
    /// output's (`select/dout-shape`). Returns `(dthen, delse)`.
    ///
    /// ```
    /// use shapecheck::{AutoBroadcast, DynTensor};
    /// let c = DynTensor::new(&[2, 2], vec![true, false, false, true]).unwrap();
    /// let t = DynTensor::new(&[2, 2], vec![1.0f32; 4]).unwrap();
    /// let e = DynTensor::new(&[2, 1], vec![0.0f32; 2]).unwrap();
    /// let dout = DynTensor::new(&[2, 2], vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
    /// let (dt, de) = DynTensor::select_backward(&c, &t, &e, &dout, AutoBroadcast::Numpy).unwrap();
    /// assert_eq!(dt.as_slice(), &[1.0, 0.0, 0.0, 4.0]);
    /// assert_eq!(de.as_slice(), &[2.0, 3.0]); // else [2, 1]: each row's falses
    /// let err = DynTensor::select_backward(&c, &t, &e, &e, AutoBroadcast::Numpy).unwrap_err();
    /// assert_eq!(err.rule(), "select/dout-shape");
    /// ```
    pub fn select_backward(
        cond: &DynTensor<bool>,
        then: &DynTensor<T>,
        els: &DynTensor<T>,
        dout: &DynTensor<T>,
        mode: impl Into<AutoBroadcast>,
    ) -> Result<(DynTensor<T>, DynTensor<T>), SelectError> {
        let f = super::backward::checked_frame(
            mode.into(),
            &cond.dims(),
            &then.dims(),
            &els.dims(),
            &dout.dims(),
        )?;
        let mut gt = DynTensor::defaulted(&then.dims())?;
        let mut ge = DynTensor::defaulted(&els.dims())?;
        crate::kernel::select_backward(
            &crate::kernel::plan::walk(&f),
            cond.as_slice(),
            dout.as_slice(),
            gt.as_mut_slice(),
            ge.as_mut_slice(),
            T::add,
        );
        Ok((gt, ge))
    }
}

/// [`select`](crate::select()) on [`DynTensor`]s, spelled as on `Tensor`s:
/// `select(&c, &x, &y, Numpy)` under `use shapecheck::dynamic::prelude::*`.
/// Every rule is checked when it runs, so it returns a `Result` ([`DynTensor::select`] is the
/// same call).
///
/// ```
/// use shapecheck::dynamic::prelude::*;
/// let c = DynTensor::new(&[2, 1], vec![true, false]).unwrap();
/// let x = DynTensor::new(&[2, 2], vec![1, 2, 3, 4]).unwrap();
/// let y = DynTensor::new(&[2], vec![0, -1]).unwrap();
/// assert_eq!(select(&c, &x, &y, Numpy).unwrap().as_slice(), &[1, 2, 0, -1]);
/// let err = select(&c, &x, &y, NoBroadcast).unwrap_err();
/// assert_eq!(err.rule(), "select/none-shapes");
/// ```
pub fn select<T: Copy + Default>(
    cond: &DynTensor<bool>,
    then: &DynTensor<T>,
    els: &DynTensor<T>,
    mode: impl Into<AutoBroadcast>,
) -> Result<DynTensor<T>, SelectError> {
    DynTensor::select(cond, then, els, mode)
}
