//! Select on [`DynTensor`]: every dim known at run time, every rule checked
//! when the op runs (feature `alloc`).

use super::{AutoBroadcast, SelectError};
use crate::dynamic::DynTensor;

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
        mode: AutoBroadcast,
    ) -> Result<DynTensor<T>, SelectError> {
        // the rule once: its frame gives the output dims and the walk
        let f = super::rule::frame(mode, &cond.dims(), &then.dims(), &els.dims())?;
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
