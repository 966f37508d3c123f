//! dynamic_partition's backward: the gradient of the data from the
//! gradients of the outputs, `dout[i]` shaped like output `i`. The
//! partitions have no gradient.
//!
//! ## The rule
//! Output `i` row `r` is data row `j`, the `r`-th `j` (in row-major order)
//! with `partitions[j] == i`. The backward is the inverse scatter: data row
//! `j` gets row `r` of `dout[partitions[j]]`. Every data row is in exactly
//! one output, so every row of the gradient is written once, nothing is
//! summed, and it is the derivative. TensorFlow 2.21 computes the same
//! (`_DynamicPartitionGrads`: a `dynamic_stitch` of `dout` at the
//! partitioned positions; `tests/vectors/grad/dynamic_partition_grad.json`).
//!
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::{dynamic_partition_backward, Partitions};
//! let data = Tensor::<f32, shape![3, 2]>::from_array([[0., 1.], [2., 3.], [4., 5.]]);
//! let parts = Tensor::<i32, shape![3]>::from_array([2, 0, 2]);
//! let [a, b, c] = dynamic_partition(&data, &parts, Partitions::<3>).run().unwrap();
//! // the upstream gradients, shaped like the outputs ([1, 2], [0, 2], [2, 2])
//! assert_eq!((a.as_slice(), c.as_slice()), (&[2., 3.][..], &[0., 1., 4., 5.][..]));
//! let dout = [a, b, c]; // gradients shaped like the outputs: [1, 2], [0, 2], [2, 2]
//! let grad = dynamic_partition_backward(&data, &parts, Partitions::<3>, &dout).unwrap();
//! let _: &Tensor<f32, shape![3, 2]> = &grad; // typed as the data
//! assert_eq!(grad, data); // the round trip
//! ```

use super::bounds::{PartitionDout, PartitionOut, PartitionShapes};
use super::{rule, Partitions};
use crate::dims::Dims;
use crate::ops::indexed::StitchError;
use crate::ops::indexed::{with_rows, IndexSlice, StitchIndex};
use crate::shape::Shape;
use crate::storage::{OwnedStorage, ResultStorage};
use crate::storage::{Storage, StorageMut};
use crate::tensor::Tensor;

/// The gradient of dynamic_partition's data, typed as the data (`DS`):
/// data row `j` gets its row of `dout[partitions[j]]` (the inverse
/// scatter; see the [module docs](self)).
///
/// `dout[i]` has output `i`'s shape ([`PartitionOut`]): its slice dims are
/// a compile error otherwise ([`PartitionDout`]); its rows, a run-time
/// dim, must be the count the forward's rule gives
/// ([`StitchError::PartitionDoutShape`]). Every check, the partition values
/// included, runs before anything is written. The result is stored as the
/// data's shape chooses (inline for a static shape: no heap).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{dynamic_partition_backward, Partitions};
/// let data = Tensor::<f64, shape![2]>::from_array([1.0, 2.0]);
/// let parts = Tensor::<i64, shape![2]>::from_array([1, 1]);
/// let one = |n: usize, v: Vec<f64>| Tensor::<f64, (Dyn,), Vec<f64>>::from_vec((Dyn(n),), v).unwrap();
/// let grad = dynamic_partition_backward(&data, &parts, Partitions::<2>, &[one(0, vec![]), one(2, vec![3.0, 4.0])]).unwrap();
/// assert_eq!(grad.as_slice(), &[3.0, 4.0]);
/// // output 0 has no row: a dout with one is the rule's error
/// let err = dynamic_partition_backward(&data, &parts, Partitions::<2>, &[one(1, vec![0.0]), one(2, vec![3.0, 4.0])]).unwrap_err();
/// assert_eq!(err.to_string(), "dynamic_partition backward: dout[0] must have output 0's shape [0], but it is [1]");
/// ```
#[allow(clippy::type_complexity)]
pub fn dynamic_partition_backward<const NUM: usize, T, DS, DB, I, PS, PB, DO, BD>(
    data: &Tensor<T, DS, DB>,
    partitions: &Tensor<I, PS, PB>,
    num: Partitions<NUM>,
    dout: &[Tensor<T, DO, BD>; NUM],
) -> Result<Tensor<T, DS, <DB as ResultStorage<T, DS>>::Out>, StitchError>
where
    T: Copy + Default,
    DS: PartitionShapes<PS, I>,
    DB: ResultStorage<T, DS>,
    I: Copy,
    PS: Shape,
    PB: Storage<I>,
    DO: PartitionDout<PartitionOut<DS, PS, I>>,
    BD: Storage<T>,
{
    let slice_len = static_checks(data, partitions, num, dout)?;
    // the data is in memory: its shape's count fits
    let mut grad = Tensor::from_parts_unchecked(
        *data.shape(),
        <DB as ResultStorage<T, DS>>::Out::filled(data.shape(), T::default()),
    );
    let douts = dout.each_ref().map(Tensor::as_slice);
    let mut cursors = [0usize; NUM];
    scatter_back(
        DS::index_slice(partitions.as_slice()),
        slice_len,
        &douts,
        &mut cursors,
        grad.as_mut_slice(),
    );
    Ok(grad)
}

/// [`dynamic_partition_backward`] into `grad`, a caller's tensor of the
/// data's shape (any storage: over a `&mut [T]` buffer it needs no heap).
/// On any error `grad` is untouched.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{dynamic_partition_backward_into, Partitions};
/// let data = Tensor::<i32, shape![2, 2]>::from_array([[1, 2], [3, 4]]);
/// let parts = Tensor::<i32, shape![2, 2]>::from_array([[0, 1], [1, 0]]);
/// let mut buf = [0; 4];
/// let [mut a, mut b] = dynamic_partition(&data, &parts, Partitions::<2>).run_into(&mut buf).unwrap();
/// a.as_mut_slice().iter_mut().for_each(|v| *v *= 10);
/// b.as_mut_slice().iter_mut().for_each(|v| *v *= 100);
/// let mut grad = Tensor::<i32, shape![2, 2]>::full(0);
/// dynamic_partition_backward_into(&data, &parts, Partitions::<2>, &[a, b], &mut grad).unwrap();
/// assert_eq!(grad.as_slice(), &[10, 200, 300, 40]);
/// ```
pub fn dynamic_partition_backward_into<const NUM: usize, T, DS, DB, I, PS, PB, DO, BD, BG>(
    data: &Tensor<T, DS, DB>,
    partitions: &Tensor<I, PS, PB>,
    num: Partitions<NUM>,
    dout: &[Tensor<T, DO, BD>; NUM],
    grad: &mut Tensor<T, DS, BG>,
) -> Result<(), StitchError>
where
    T: Copy,
    DS: PartitionShapes<PS, I>,
    DB: Storage<T>,
    I: Copy,
    PS: Shape,
    PB: Storage<I>,
    DO: PartitionDout<PartitionOut<DS, PS, I>>,
    BD: Storage<T>,
    BG: StorageMut<T>,
{
    let slice_len = static_checks(data, partitions, num, dout)?;
    if grad.dims() != data.dims() {
        return Err(crate::dims::ShapeError::OutputShape {
            expected: data.dims(),
            found: grad.dims(),
        }
        .into());
    }
    let douts = dout.each_ref().map(Tensor::as_slice);
    let mut cursors = [0usize; NUM];
    scatter_back(
        DS::index_slice(partitions.as_slice()),
        slice_len,
        &douts,
        &mut cursors,
        grad.as_mut_slice(),
    );
    Ok(())
}

/// The static forms' checks: the forward's rule (prefix with run-time dims,
/// the partition values), then each `dout[i]`'s dims against output `i`'s.
/// The slice's element count.
fn static_checks<const NUM: usize, T, DS, DB, I, PS, PB, DO, BD>(
    data: &Tensor<T, DS, DB>,
    partitions: &Tensor<I, PS, PB>,
    _num: Partitions<NUM>,
    dout: &[Tensor<T, DO, BD>; NUM],
) -> Result<usize, StitchError>
where
    T: Copy,
    DS: PartitionShapes<PS, I>,
    DB: Storage<T>,
    I: Copy,
    PS: Shape,
    PB: Storage<I>,
    DO: Shape,
    BD: Storage<T>,
{
    let () = Partitions::<NUM>::AT_LEAST_ONE;
    let mut counts = [0usize; NUM];
    let slice = rule::partition_slice_dims_scratch(
        &data.dims(),
        data.as_slice().len(),
        &partitions.dims(),
        DS::index_slice(partitions.as_slice()),
        &mut counts,
    )?;
    for (i, (d, &count)) in dout.iter().zip(&counts).enumerate() {
        check_dout(i, &slice, count, d.dims(), d.as_slice().len())?;
    }
    Ok(rule::partition_slice_len(&slice))
}

/// `dout[i]`'s dims are output `i`'s (`[count] + slice`), and its data
/// holds their element count.
fn check_dout(
    i: usize,
    slice: &Dims,
    count: usize,
    dout: Dims,
    len: usize,
) -> Result<(), StitchError> {
    let out = with_rows(count, slice)?;
    if dout != out {
        return Err(StitchError::PartitionDoutShape {
            partition: i,
            out,
            dout,
        });
    }
    Dims::for_data(&dout, len)?;
    Ok(())
}

/// The inverse scatter, after every check: data row `j` of `grad` gets the
/// next row of `douts[partitions[j]]` (`cursors[i]`: output `i`'s next
/// row, starting at 0). Every row of `grad` is written once.
pub(crate) fn scatter_back<T: Copy>(
    partitions: IndexSlice<'_>,
    slice_len: usize,
    douts: &[&[T]],
    cursors: &mut [usize],
    grad: &mut [T],
) {
    match partitions {
        IndexSlice::I32(p) => scatter_of(p, slice_len, douts, cursors, grad),
        IndexSlice::I64(p) => scatter_of(p, slice_len, douts, cursors, grad),
    }
}

/// [`scatter_back`] over one index type.
fn scatter_of<T: Copy, I: StitchIndex>(
    partitions: &[I],
    n: usize,
    douts: &[&[T]],
    cursors: &mut [usize],
    grad: &mut [T],
) {
    if n == 0 {
        return;
    }
    cursors.fill(0);
    for (&v, dst) in partitions.iter().zip(grad.chunks_exact_mut(n)) {
        let Some(i) = usize::try_from(v.to_i64()).ok() else {
            continue;
        };
        let (Some(cursor), Some(src)) = (cursors.get_mut(i), douts.get(i)) else {
            continue;
        };
        let at = *cursor;
        if let Some(src) = src.get(at..at.saturating_add(n)) {
            dst.copy_from_slice(src);
        }
        *cursor = at.saturating_add(n);
    }
}

/// [`scatter_back`] without cursors (no heap, a run-time number of
/// partitions): one pass over the partitions per output.
fn scatter_by_output<'v, T: Copy + 'v, I: StitchIndex>(
    partitions: &[I],
    n: usize,
    douts: impl Iterator<Item = &'v [T]>,
    grad: &mut [T],
) {
    if n == 0 {
        return;
    }
    for (i, src) in douts.enumerate() {
        let mut rows = src.chunks_exact(n);
        for (&v, dst) in partitions.iter().zip(grad.chunks_exact_mut(n)) {
            if usize::try_from(v.to_i64()).ok() != Some(i) {
                continue;
            }
            if let Some(src) = rows.next() {
                dst.copy_from_slice(src);
            }
        }
    }
}

/// The dynamic path's checks, for `douts.len()` partitions: the forward's
/// rule over data's dims (`grad_len` standing for its element count: the
/// gradient holds as many), then each `dout[i]`'s dims and length. The
/// slice's element count. `counts` gets each output's row count.
#[cfg(feature = "alloc")]
pub(crate) fn dynamic_checks(
    data_dims: &[usize],
    grad_len: usize,
    partitions_dims: &[usize],
    partitions: IndexSlice<'_>,
    douts: impl ExactSizeIterator<Item = (Dims, usize)>,
    counts: &mut [usize],
) -> Result<usize, StitchError> {
    let slice =
        rule::partition_slice_dims(data_dims, grad_len, partitions_dims, partitions, counts)?;
    for (i, ((dims, len), &count)) in douts.zip(counts.iter()).enumerate() {
        check_dout(i, &slice, count, dims, len)?;
    }
    Ok(rule::partition_slice_len(&slice))
}

/// dynamic_partition's backward over run-time dims, no heap: `data_dims`
/// the forward data's dims, `dout` one `(dims, values)` per output, `grad`
/// a buffer of data's element count. Checks, in order: the forward's rule
/// (`grad`'s length standing for the data's), then each `dout[i]`'s dims
/// ([`StitchError::PartitionDoutShape`]) and length; only then is `grad`
/// written. One pass over the partitions per output.
///
/// ```
/// use shapecheck::ops::partition::partition_backward_slices;
/// let dout: [(&[usize], &[i32]); 2] = [(&[1, 2], &[1, 2]), (&[2, 2], &[3, 4, 5, 6])];
/// let mut grad = [0; 6];
/// partition_backward_slices(&[3, 2], &[3], &[1i32, 0, 1], &dout, &mut grad).unwrap();
/// assert_eq!(grad, [3, 4, 1, 2, 5, 6]);
/// let err = partition_backward_slices(&[3, 2], &[3], &[1i32, 0, 1], &dout[..1], &mut grad).unwrap_err();
/// assert_eq!(err.rule(), "dynamic_partition/range"); // one output: the value 1 is out of range
/// ```
pub fn partition_backward_slices<T: Copy, I: StitchIndex>(
    data_dims: &[usize],
    partitions_dims: &[usize],
    partitions: &[I],
    dout: &[(&[usize], &[T])],
    grad: &mut [T],
) -> Result<(), StitchError> {
    let values = I::index_slice(partitions);
    let slice = rule::partition_check(data_dims, grad.len(), partitions_dims, values, dout.len())?;
    for (i, (dims, d)) in dout.iter().enumerate() {
        let count = values
            .values()
            .filter(|&v| usize::try_from(v).ok() == Some(i))
            .count();
        check_dout(i, &slice, count, Dims::new(dims)?, d.len())?;
    }
    let n = rule::partition_slice_len(&slice);
    let douts = dout.iter().map(|(_, d)| *d);
    match values {
        IndexSlice::I32(p) => scatter_by_output(p, n, douts, grad),
        IndexSlice::I64(p) => scatter_by_output(p, n, douts, grad),
    }
    Ok(())
}
