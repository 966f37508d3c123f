//! dynamic_partition's static path: [`dynamic_partition`] (feature `alloc`,
//! results on the heap) and [`dynamic_partition_into`] (views into a
//! caller's buffer).

use super::bounds::{PartitionOut, PartitionShapes};
use super::{kernel, rule, Partitions};
use crate::ops::indexed::{prefix_of, PrependDyn, StaticSlice};
use crate::ops::stitch::StitchError;
use crate::rows::RowShape;
use crate::shape::Shape;
use crate::storage::{
    bounded_into, bounded_rows, BoundedRows, BoundedShape, BoundedTensor, Room, Storage, StorageMut,
};
use crate::tensor::Tensor;

/// Runs the rule: the counts, the slice's element count and the slice shape
/// value.
///
/// With every shape static the types proved the prefix rule and the
/// outputs' rank, and the slice's dims and element count are constants
/// ([`StaticSlice`]): of the rule only the partition values are left,
/// checked and counted in one pass ([`rule::count_partitions`], the same
/// error as the whole rule's). So the row length is a constant and the
/// kernels copy rows of that length, one loop, as stitch's static path does.
#[allow(clippy::type_complexity)]
fn plan<const NUM: usize, T, DS, DB, I, PS, PB>(
    data: &Tensor<T, DS, DB>,
    partitions: &Tensor<I, PS, PB>,
) -> Result<([usize; NUM], usize, DS::Slice), StitchError>
where
    T: Copy,
    DS: PartitionShapes<PS, I>,
    DB: Storage<T>,
    I: Copy,
    PS: Shape,
    PB: Storage<I>,
{
    let mut counts = [0usize; NUM];
    if let (true, true, Some(slice_len), Some(slice)) = (
        DS::IS_STATIC,
        PS::IS_STATIC,
        <DS::Slice as StaticSlice>::STATIC_NUMEL,
        <DS::Slice as StaticSlice>::STATIC_SLICE,
    ) {
        rule::count_partitions(DS::index_slice(partitions.as_slice()), &mut counts)?;
        let value = <DS::Slice as Shape>::from_dims(&slice)?;
        return Ok((counts, slice_len, value));
    }
    let slice = rule::partition_slice_dims_scratch(
        &data.dims(),
        data.as_slice().len(),
        &partitions.dims(),
        DS::index_slice(partitions.as_slice()),
        &mut counts,
    )?;
    let value = <DS::Slice as Shape>::from_dims(&slice)?;
    Ok((counts, rule::partition_slice_len(&slice), value))
}

/// dynamic_partition on static shapes, results on the heap: output `i`
/// holds the slices `data[j, ...]` with `partitions[j] == i`, in row-major
/// order; its shape is `(Dyn(count_i), slice..)`. A partition value outside
/// `[0, NUM)` is an error naming its position and value.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{dynamic_partition, Partitions};
/// let data = Tensor::<i32, shape![4, 2]>::from_array([[1, 2], [3, 4], [5, 6], [7, 8]]);
/// let parts = Tensor::<i32, shape![4]>::from_array([1, 0, 1, 1]);
/// let [a, b] = dynamic_partition(&data, &parts, Partitions::<2>).unwrap();
/// assert_eq!((a.dims().as_slice(), a.as_slice()), (&[1, 2][..], &[3, 4][..]));
/// assert_eq!((b.dims().as_slice(), b.as_slice()), (&[3, 2][..], &[1, 2, 5, 6, 7, 8][..]));
/// ```
#[cfg(feature = "alloc")]
#[allow(clippy::type_complexity)]
pub fn dynamic_partition<const NUM: usize, T, DS, DB, I, PS, PB>(
    data: &Tensor<T, DS, DB>,
    partitions: &Tensor<I, PS, PB>,
    _num: Partitions<NUM>,
) -> Result<[Tensor<T, PartitionOut<DS, PS, I>, alloc::vec::Vec<T>>; NUM], StitchError>
where
    T: Copy,
    DS: PartitionShapes<PS, I>,
    DB: Storage<T>,
    I: Copy,
    PS: Shape,
    PB: Storage<I>,
{
    let () = Partitions::<NUM>::AT_LEAST_ONE;
    let (counts, slice_len, value) = plan::<NUM, _, _, _, _, _, _>(data, partitions)?;
    let mut outs: [alloc::vec::Vec<T>; NUM] = core::array::from_fn(|_| alloc::vec::Vec::new());
    for (out, &count) in outs.iter_mut().zip(&counts) {
        // all the counts together are data's row count: no overflow
        *out = crate::storage::reserved_vec(count.saturating_mul(slice_len))?;
    }
    kernel::partition_push(
        data.as_slice(),
        slice_len,
        DS::index_slice(partitions.as_slice()),
        &mut outs,
    );
    let mut counts = counts.into_iter();
    Ok(outs.map(|out| {
        let count = counts.next().unwrap_or(0);
        Tensor::from_parts_unchecked(value.prepend(count), out)
    }))
}

/// dynamic_partition on static shapes without a heap: the outputs are
/// written one after the other to the front of `buf` (data's element count
/// is enough) and returned as `NUM` views into it. An error, with `buf`
/// untouched, if a partition value is out of range or `buf` is too short.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{dynamic_partition_into, Partitions};
/// let data = Tensor::<f32, shape![2, 2]>::from_array([[1., 2.], [3., 4.]]);
/// let parts = Tensor::<i64, shape![2, 2]>::from_array([[2, 0], [0, 2]]);
/// let mut buf = [0.0; 4];
/// let [a, b, c] = dynamic_partition_into(&data, &parts, Partitions::<3>, &mut buf).unwrap();
/// assert_eq!((a.dims().as_slice(), a.as_slice()), (&[2][..], &[2., 3.][..]));
/// assert_eq!(b.dims().as_slice(), &[0]);
/// assert_eq!(c.as_slice(), &[1., 4.]);
/// ```
#[allow(clippy::type_complexity)]
pub fn dynamic_partition_into<'b, const NUM: usize, T, DS, DB, I, PS, PB>(
    data: &Tensor<T, DS, DB>,
    partitions: &Tensor<I, PS, PB>,
    _num: Partitions<NUM>,
    buf: &'b mut [T],
) -> Result<[Tensor<T, PartitionOut<DS, PS, I>, &'b mut [T]>; NUM], StitchError>
where
    T: Copy,
    DS: PartitionShapes<PS, I>,
    DB: Storage<T>,
    I: Copy,
    PS: Shape,
    PB: Storage<I>,
{
    let () = Partitions::<NUM>::AT_LEAST_ONE;
    let (counts, slice_len, value) = plan::<NUM, _, _, _, _, _, _>(data, partitions)?;
    let dst = prefix_of(buf, &data.dims())?;
    let mut cursors = [0usize; NUM];
    kernel::start_offsets(&counts, slice_len, &mut cursors);
    kernel::partition_rows(
        data.as_slice(),
        slice_len,
        DS::index_slice(partitions.as_slice()),
        &mut cursors,
        dst,
    );
    let mut rest: &'b mut [T] = dst;
    Ok(core::array::from_fn(|i| {
        let count = counts.get(i).copied().unwrap_or(0);
        let taken = core::mem::take(&mut rest);
        let n = count.saturating_mul(slice_len).min(taken.len());
        let (head, tail) = taken.split_at_mut(n);
        rest = tail;
        Tensor::from_parts_unchecked(value.prepend(count), head)
    }))
}

/// dynamic_partition into `NUM` bounded tensors: output `i` has rows
/// [`Bounded<CAP>`](crate::Bounded) in a [`Room`](crate::Room) (room for
/// `CAP` slices each), no heap and no caller buffer. An error, with nothing
/// written, if a partition value is out of range or an output has more
/// than `CAP` rows (`shape/capacity`, naming both).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::dynamic_partition_bounded;
/// let data = Tensor::<i32, shape![4, 2]>::from_array([[1, 2], [3, 4], [5, 6], [7, 8]]);
/// let parts = Tensor::<i32, shape![4]>::from_array([1, 0, 1, 1]);
/// let [a, b] = dynamic_partition_bounded::<3, 2, _, _, _, _, _, _>(&data, &parts, Partitions::<2>).unwrap();
/// assert_eq!((a.dims().as_slice(), a.as_slice()), (&[1, 2][..], &[3, 4][..]));
/// assert_eq!((b.dims().as_slice(), b.as_slice()), (&[3, 2][..], &[1, 2, 5, 6, 7, 8][..]));
/// let err = dynamic_partition_bounded::<2, 2, _, _, _, _, _, _>(&data, &parts, Partitions::<2>).unwrap_err();
/// assert_eq!(err.to_string(), "dim 0 holds at most 2 (its capacity in the shape type), but 3 was given");
/// ```
#[allow(clippy::type_complexity)]
pub fn dynamic_partition_bounded<const CAP: usize, const NUM: usize, T, DS, DB, I, PS, PB>(
    data: &Tensor<T, DS, DB>,
    partitions: &Tensor<I, PS, PB>,
    _num: Partitions<NUM>,
) -> Result<[BoundedTensor<T, PartitionOut<DS, PS, I>, CAP>; NUM], StitchError>
where
    T: Copy + Default,
    DS: PartitionShapes<PS, I>,
    PartitionOut<DS, PS, I>: RowShape,
    BoundedRows<PartitionOut<DS, PS, I>, CAP>: BoundedShape,
    DB: Storage<T>,
    I: Copy,
    PS: Shape,
    PB: Storage<I>,
{
    let () = Partitions::<NUM>::AT_LEAST_ONE;
    let (counts, slice_len, value) = plan::<NUM, _, _, _, _, _, _>(data, partitions)?;
    // every output's rows within the capacity, before anything is written
    let first = value.prepend(0);
    let mut shapes = [first.with_rows_dim(bounded_rows::<CAP>(0)?); NUM];
    for (shape, &count) in shapes.iter_mut().zip(&counts) {
        *shape = first.with_rows_dim(bounded_rows::<CAP>(count)?);
    }
    let mut rooms = [Room::filled_with(T::default()); NUM];
    let mut fronts = rooms.each_mut().map(|r| r.as_mut_slice());
    kernel::partition_fronts(
        data.as_slice(),
        slice_len,
        DS::index_slice(partitions.as_slice()),
        &mut fronts,
    );
    let mut rooms = rooms.into_iter();
    Ok(shapes.map(|shape| {
        let room = rooms
            .next()
            .unwrap_or_else(|| Room::filled_with(T::default()));
        Tensor::from_parts_unchecked(shape, room)
    }))
}

/// [`dynamic_partition_bounded`] into `outs`, `NUM` bounded tensors the
/// caller keeps (`static`s, or reused between calls): no heap, no caller
/// buffer, and no second set of rooms on the stack. Output `i` takes the
/// slices of partition `i`; on any error (a partition value out of range,
/// an output of more than `CAP` rows) every output is untouched, its shape
/// and every element.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{dynamic_partition_bounded, dynamic_partition_bounded_into};
/// let data = Tensor::<i32, shape![4, 2]>::from_array([[1, 2], [3, 4], [5, 6], [7, 8]]);
/// let parts = |p| Tensor::<i32, shape![4]>::from_array(p);
/// let mut outs = dynamic_partition_bounded::<3, 2, _, _, _, _, _, _>(&data, &parts([0, 0, 1, 1]), Partitions::<2>).unwrap();
/// dynamic_partition_bounded_into(&data, &parts([1, 0, 1, 1]), Partitions::<2>, &mut outs).unwrap();
/// assert_eq!((outs[1].dims().as_slice(), outs[1].as_slice()), (&[3, 2][..], &[1, 2, 5, 6, 7, 8][..]));
/// // 4 rows in partition 0 do not fit a capacity of 3: the error, `outs` as they were
/// let err = dynamic_partition_bounded_into(&data, &parts([0; 4]), Partitions::<2>, &mut outs).unwrap_err();
/// assert_eq!(err.rule(), "shape/capacity");
/// assert_eq!(outs[0].as_slice(), &[3, 4]);
/// ```
#[allow(clippy::type_complexity)]
pub fn dynamic_partition_bounded_into<const CAP: usize, const NUM: usize, T, DS, DB, I, PS, PB>(
    data: &Tensor<T, DS, DB>,
    partitions: &Tensor<I, PS, PB>,
    _num: Partitions<NUM>,
    outs: &mut [BoundedTensor<T, PartitionOut<DS, PS, I>, CAP>; NUM],
) -> Result<(), StitchError>
where
    T: Copy + Default,
    DS: PartitionShapes<PS, I>,
    PartitionOut<DS, PS, I>: RowShape,
    BoundedRows<PartitionOut<DS, PS, I>, CAP>: BoundedShape,
    DB: Storage<T>,
    I: Copy,
    PS: Shape,
    PB: Storage<I>,
{
    let () = Partitions::<NUM>::AT_LEAST_ONE;
    let (counts, slice_len, value) = plan::<NUM, _, _, _, _, _, _>(data, partitions)?;
    // every output's rows within the capacity, before anything is written
    let first = value.prepend(0);
    let mut shapes = [first.with_rows_dim(bounded_rows::<CAP>(0)?); NUM];
    for (shape, &count) in shapes.iter_mut().zip(&counts) {
        *shape = first.with_rows_dim(bounded_rows::<CAP>(count)?);
    }
    // one output at a time: its slices, in row-major order
    for (i, (out, shape)) in outs.iter_mut().zip(shapes).enumerate() {
        let mine = DS::index_slice(partitions.as_slice());
        bounded_into(out, shape, |front| {
            kernel::partition_one(data.as_slice(), slice_len, mine, i, front);
            Ok::<(), StitchError>(())
        })?;
    }
    Ok(())
}
