//! dynamic_partition on [`DynTensor`] (feature `alloc`).
#![cfg(feature = "alloc")]

use super::backward::{dynamic_checks, scatter_back};
use super::{kernel, rule};
use crate::dynamic::DynTensor;
use crate::ops::indexed::StitchError;
use crate::ops::indexed::{with_rows, StitchIndex};
use alloc::vec::Vec;

impl<T: Copy + Default> DynTensor<T> {
    /// TensorFlow's `dynamic_partition` on run-time shapes: `num` outputs,
    /// output `i` holding the slices `self[j, ...]` with `partitions[j] == i`
    /// in row-major order, shape `[count_i] + slice`; every rule checked here
    /// (see [`partition_slice_dims`](super::partition_slice_dims)).
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
            .map_err(|_| crate::dims::ShapeError::Allocation { numel: num })?;
        counts.resize(num, 0);
        let values = I::index_slice(partitions.as_slice());
        let slice = rule::partition_slice_dims_scratch(
            &self.dims(),
            self.as_slice().len(),
            &partitions.dims(),
            values,
            &mut counts,
        )?;
        let slice_len = rule::partition_slice_len(&slice);
        let mut outs: Vec<Vec<T>> = Vec::new();
        outs.try_reserve_exact(num)
            .map_err(|_| crate::dims::ShapeError::Allocation { numel: num })?;
        for &count in &counts {
            outs.push(crate::storage::reserved_vec(
                count.saturating_mul(slice_len),
            )?);
        }
        kernel::partition_push(self.as_slice(), slice_len, values, &mut outs);
        outs.into_iter()
            .zip(&counts)
            .map(|(data, &count)| Ok(DynTensor::new(&with_rows(count, &slice)?, data)?))
            .collect()
    }

    /// dynamic_partition's backward on run-time shapes (the rule of
    /// [`dynamic_partition_backward`](super::dynamic_partition_backward)):
    /// the gradient of `self` (the forward's data), data row `j` getting its
    /// row of `dout[partitions[j]]`; one `dout` per output, each of its
    /// output's shape ([`StitchError::PartitionDoutShape`]), all checked
    /// before anything is allocated.
    ///
    /// ```
    /// use shapecheck::{DynTensor, StitchError};
    /// let x = DynTensor::new(&[3], vec![1.0f32, 2.0, 3.0]).unwrap();
    /// let p = DynTensor::new(&[3], vec![1i32, 0, 1]).unwrap();
    /// let parts = x.dynamic_partition(&p, 2).unwrap();
    /// let grad = x.dynamic_partition_backward(&p, &parts).unwrap();
    /// assert_eq!(grad.as_slice(), x.as_slice()); // the round trip
    /// let err = x.dynamic_partition_backward(&p, &parts[..1]).unwrap_err();
    /// assert_eq!(err.rule(), "dynamic_partition/range");
    /// ```
    pub fn dynamic_partition_backward<I: StitchIndex>(
        &self,
        partitions: &DynTensor<I>,
        dout: &[DynTensor<T>],
    ) -> Result<DynTensor<T>, StitchError> {
        let num = dout.len();
        let mut counts = Vec::new();
        counts
            .try_reserve_exact(num)
            .map_err(|_| crate::dims::ShapeError::Allocation { numel: num })?;
        counts.resize(num, 0);
        let values = I::index_slice(partitions.as_slice());
        let slice_len = dynamic_checks(
            &self.dims(),
            self.as_slice().len(),
            &partitions.dims(),
            values,
            dout.iter().map(|d| (d.dims(), d.as_slice().len())),
            &mut counts,
        )?;
        let mut grad = DynTensor::defaulted(&self.dims())?;
        let douts: Vec<&[T]> = dout.iter().map(DynTensor::as_slice).collect();
        scatter_back(values, slice_len, &douts, &mut counts, grad.as_mut_slice());
        Ok(grad)
    }
}

/// [`dynamic_partition`](crate::dynamic_partition()) on [`DynTensor`]s,
/// spelled as on `Tensor`s: `dynamic_partition(&data, &parts,
/// Partitions::<N>).run()` under `use shapecheck::dynamic::prelude::*`,
/// giving `N` tensors. Every rule is checked by [`run`](DynPartition::run); for a
/// number of partitions known only at run time, see
/// [`DynTensor::dynamic_partition`].
///
/// ```
/// use shapecheck::dynamic::prelude::*;
/// let data = DynTensor::new(&[3, 2], vec![1, 2, 3, 4, 5, 6]).unwrap();
/// let parts = DynTensor::new(&[3], vec![1i32, 0, 1]).unwrap();
/// let [a, b] = dynamic_partition(&data, &parts, Partitions::<2>).run().unwrap();
/// assert_eq!((a.as_slice(), b.as_slice()), (&[3, 4][..], &[1, 2, 5, 6][..]));
/// ```
pub fn dynamic_partition<'a, const NUM: usize, T, I>(
    data: &'a DynTensor<T>,
    partitions: &'a DynTensor<I>,
    _num: crate::ops::partition::Partitions<NUM>,
) -> DynPartition<'a, NUM, T, I> {
    DynPartition { data, partitions }
}

/// A dynamic_partition on [`DynTensor`]s into `NUM` outputs, waiting for
/// its output form ([`dynamic_partition`]): [`run`](Self::run) allocates
/// them.
#[must_use = "a dynamic_partition does nothing until it runs: call .run()"]
#[derive(Debug)]
pub struct DynPartition<'a, const NUM: usize, T, I> {
    data: &'a DynTensor<T>,
    partitions: &'a DynTensor<I>,
}

impl<const NUM: usize, T: Copy + Default, I: StitchIndex> DynPartition<'_, NUM, T, I> {
    /// The `NUM` outputs, on the heap: output `p` holds the data's slices
    /// whose partition value is `p`, in order. Every rule and partition
    /// value is checked first.
    ///
    /// ```
    /// use shapecheck::dynamic::prelude::*;
    /// let data = DynTensor::new(&[2], vec![1, 2]).unwrap();
    /// let parts = DynTensor::new(&[2], vec![0i32, 2]).unwrap();
    /// let err = dynamic_partition(&data, &parts, Partitions::<2>).run().unwrap_err();
    /// assert_eq!(err.rule(), "dynamic_partition/range");
    /// ```
    pub fn run(&self) -> Result<[DynTensor<T>; NUM], StitchError> {
        let outs = self.data.dynamic_partition(self.partitions, NUM)?;
        // `dynamic_partition` returns one tensor per partition, NUM of them;
        // another count would be a bug, reported rather than a panic
        let found = outs.len();
        <[DynTensor<T>; NUM]>::try_from(outs).map_err(|_| {
            crate::dims::ShapeError::RankMismatch {
                expected: NUM,
                found,
            }
            .into()
        })
    }
}
