//! dynamic_stitch and dynamic_partition on [`DynTensor`] (feature `alloc`).
#![cfg(feature = "alloc")]

use super::{kernel, rule, StitchError, StitchIndex, StitchPair};
use crate::dynamic::DynTensor;
use alloc::vec::Vec;

impl<T: Copy + Default> DynTensor<T> {
    /// TensorFlow's `dynamic_stitch` on run-time shapes:
    /// `merged[indices[m][j], ...] = data[m][j, ...]`, every rule checked
    /// here (see [`stitch_output_dims`](super::stitch_output_dims)).
    ///
    /// ```
    /// use shapecheck::{DynTensor, StitchError};
    /// let i0 = DynTensor::new(&[], vec![6i32]).unwrap();
    /// let i1 = DynTensor::new(&[2], vec![4, 1]).unwrap();
    /// let i2 = DynTensor::new(&[2, 2], vec![5, 2, 0, 3]).unwrap();
    /// let d0 = DynTensor::new(&[2], vec![61, 62]).unwrap();
    /// let d1 = DynTensor::new(&[2, 2], vec![41, 42, 11, 12]).unwrap();
    /// let d2 = DynTensor::new(&[2, 2, 2], vec![51, 52, 21, 22, 1, 2, 31, 32]).unwrap();
    /// let merged = DynTensor::dynamic_stitch(&[(&i0, &d0), (&i1, &d1), (&i2, &d2)]).unwrap();
    /// assert_eq!(merged.dims().as_slice(), &[7, 2]);
    /// assert_eq!(merged.as_slice(), &[1, 2, 11, 12, 21, 22, 31, 32, 41, 42, 51, 52, 61, 62]);
    ///
    /// let bad = DynTensor::new(&[3], vec![0i32, 1, 2]).unwrap();
    /// let err = DynTensor::dynamic_stitch(&[(&i1, &d1), (&bad, &d1)]).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "dynamic_stitch: data[1].shape = [2, 2] does not start with indices[1].shape = [3]"
    /// );
    /// ```
    pub fn dynamic_stitch<I: StitchIndex>(
        pairs: &[(&DynTensor<I>, &DynTensor<T>)],
    ) -> Result<DynTensor<T>, StitchError>
    where
        T: crate::element::MaybeSync,
    {
        let views = pairs.iter().map(|(i, d)| StitchPair {
            indices_dims: i.dims(),
            indices: I::index_slice(i.as_slice()),
            data_dims: d.dims(),
            data: d.as_slice(),
        });
        let dims = rule::stitch_output_dims(views.clone())?;
        let mut out = DynTensor::full(&dims, T::default())?;
        kernel::stitch_rows(views, super::builder::slice_len(&dims), out.as_mut_slice());
        Ok(out)
    }

    /// TensorFlow's `dynamic_partition` on run-time shapes: `num` outputs,
    /// output `i` holding the slices `self[j, ...]` with `partitions[j] == i`
    /// in row-major order, shape `[count_i] + slice`.
    ///
    /// ```
    /// use shapecheck::{DynTensor, StitchError};
    /// let x = DynTensor::new(&[6], vec![0.1f32, -1., 5.2, 4.3, -1., 7.4]).unwrap();
    /// let p = DynTensor::new(&[6], vec![1i32, 0, 1, 1, 0, 1]).unwrap();
    /// let parts = x.dynamic_partition(&p, 2).unwrap();
    /// assert_eq!(parts[0].as_slice(), &[-1., -1.]);
    /// assert_eq!(parts[1].as_slice(), &[0.1, 5.2, 4.3, 7.4]);
    /// assert_eq!(x.dynamic_partition(&p, 0).unwrap_err(), StitchError::NoPartitions);
    /// ```
    pub fn dynamic_partition<I: StitchIndex>(
        &self,
        partitions: &DynTensor<I>,
        num: usize,
    ) -> Result<Vec<DynTensor<T>>, StitchError> {
        let mut counts = Vec::new();
        counts
            .try_reserve_exact(num)
            .map_err(|_| crate::ShapeError::Allocation { numel: num })?;
        counts.resize(num, 0);
        let values = I::index_slice(partitions.as_slice());
        let slice = rule::partition_slice_dims(
            &self.dims(),
            self.as_slice().len(),
            &partitions.dims(),
            values,
            &mut counts,
        )?;
        let slice_len = rule::partition_slice_len(&slice);
        let mut outs: Vec<Vec<T>> = Vec::new();
        outs.try_reserve_exact(num)
            .map_err(|_| crate::ShapeError::Allocation { numel: num })?;
        for &count in &counts {
            outs.push(crate::storage::reserved_vec(
                count.saturating_mul(slice_len),
            )?);
        }
        kernel::partition_push(self.as_slice(), slice_len, values, &mut outs);
        outs.into_iter()
            .zip(&counts)
            .map(|(data, &count)| Ok(DynTensor::new(&rule::with_rows(count, &slice)?, data)?))
            .collect()
    }
}
