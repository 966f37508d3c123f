//! dynamic_partition's static path: [`dynamic_partition`] and its builder
//! [`Partition`], whose methods take the outputs (on the heap, in a
//! caller's buffer, in rooms of a capacity).

use super::bounds::{PartitionOf, PartitionOut, PartitionShapes};
use super::{kernel, rule, Partitions};
use crate::dims::Dims;
use crate::ops::indexed::StitchError;
use crate::ops::indexed::{prefix_of, IndexSlice, PrependDyn, StaticSlice};
use crate::rows::RowShape;
use crate::shape::Shape;
use crate::storage::{
    bounded_into, bounded_rows, BoundedRows, BoundedShape, BoundedTensor, Room, Storage, StorageMut,
};
use crate::tensor::Tensor;
use core::marker::PhantomData;

/// TensorFlow's dynamic_partition on static shapes: output `i` holds the
/// slices `data[j, ...]` with `partitions[j] == i`, in row-major order; its
/// shape is `(Dyn(count_i), slice..)`. Returns a [`Partition`], whose
/// methods take the outputs the way [`dynamic_stitch`](crate::dynamic_stitch)'s
/// and [`multiplex`](crate::multiplex())'s do: [`run`](Partition::run) (on
/// the heap), [`run_into`](Partition::run_into) (your buffer),
/// [`run_bounded`](Partition::run_bounded) and
/// [`run_bounded_into`](Partition::run_bounded_into) (rows
/// [`Bounded<CAP>`](crate::Bounded), no heap).
///
/// ```
/// use shapecheck::prelude::*;
/// let data = Tensor::<i32, shape![4, 2]>::from_array([[1, 2], [3, 4], [5, 6], [7, 8]]);
/// let parts = Tensor::<i32, shape![4]>::from_array([1, 0, 1, 1]);
/// let [a, b] = dynamic_partition(&data, &parts, Partitions::<2>).run().unwrap();
/// assert_eq!((a.dims().as_slice(), a.as_slice()), (&[1, 2][..], &[3, 4][..]));
/// assert_eq!((b.dims().as_slice(), b.as_slice()), (&[3, 2][..], &[1, 2, 5, 6, 7, 8][..]));
/// ```
///
/// The prefix rule (partitions' shape starts data's) and the partition
/// element type are bounds ([`PartitionShapes`]); `NUM >= 1` is an
/// assertion evaluated when the function is instantiated (`cargo build`).
/// A partition value outside `[0, NUM)` is an error naming its position
/// and value, found before anything is written.
#[allow(clippy::type_complexity)]
pub fn dynamic_partition<'a, const NUM: usize, T, DS, DB, I, PS, PB>(
    data: &'a Tensor<T, DS, DB>,
    partitions: &'a Tensor<I, PS, PB>,
    _num: Partitions<NUM>,
) -> Partition<'a, NUM, T, DS, DB, SliceOf<DS, PS, I>, OutOf<DS, PS, I>>
where
    T: Copy,
    DS: Shape,
    PS: PartitionOf<DS, I>,
    DB: Storage<T>,
    I: Copy,
    PS: Shape,
    PB: Storage<I>,
{
    let () = Partitions::<NUM>::AT_LEAST_ONE;
    Partition {
        data,
        partitions: PS::index_slice(partitions.as_slice()),
        partitions_dims: partitions.dims(),
        all_static: DS::IS_STATIC && PS::IS_STATIC,
        _slice: PhantomData,
    }
}

/// What follows the partitions' dims in data's: each output's dims after
/// its first. [`dynamic_partition`] names it in its return type (a
/// projection, not a parameter bound by an equality), so that a failing
/// rule is one error at the call, by its own message, and the builder's
/// methods do not ask for the rule again.
type SliceOf<DS, PS, I> = <PS as PartitionOf<DS, I>>::Slice;

/// Each output's shape, [`PartitionOut`] asked from the partitions' side.
type OutOf<DS, PS, I> = <PS as PartitionOf<DS, I>>::Out;

/// dynamic_partition's data and partitions, borrowed, from
/// [`dynamic_partition`]: its methods run the op and take the `NUM`
/// outputs one way each. Every form checks the partition values (and any
/// run-time dim) before it writes anything.
///
/// | outputs | method |
/// |---|---|
/// | `NUM` tensors on the heap (`alloc`) | [`run`](Self::run) |
/// | `NUM` views into the front of your buffer | [`run_into`](Self::run_into) |
/// | `NUM` [`Room`](crate::Room)s: rows `Bounded<CAP>`, no heap | [`run_bounded`](Self::run_bounded) |
/// | `NUM` bounded tensors you keep | [`run_bounded_into`](Self::run_bounded_into) |
///
/// ```
/// use shapecheck::prelude::*;
/// let data = tensor![10, 20, 30];
/// let parts = tensor![1, 0, 1];
/// let op = dynamic_partition(&data, &parts, Partitions::<2>); // borrows both
/// let mut buf = [0; 3];
/// let [a, b] = op.run_into(&mut buf).unwrap();
/// assert_eq!((a.as_slice(), b.as_slice()), (&[20][..], &[10, 30][..]));
/// let [a, b] = op.run_bounded::<2>().unwrap();
/// assert_eq!((a.as_slice(), b.as_slice()), (&[20][..], &[10, 30][..]));
/// ```
///
/// `Sl` is the slice shape (data's dims after the partitions'): each
/// output's shape is `(Dyn, Sl..)`, [`PartitionOut<DS, PS, I>`].
#[must_use = "a dynamic_partition does nothing until it runs: call .run(), .run_into(&mut buf), .run_bounded::<CAP>() or .run_bounded_into(&mut outs)"]
pub struct Partition<'a, const NUM: usize, T, DS, DB, Sl, O>
where
    T: Copy,
    DS: Shape,
    DB: Storage<T>,
{
    data: &'a Tensor<T, DS, DB>,
    /// The partition values, type-erased (`i32` or `i64`).
    partitions: IndexSlice<'a>,
    /// The partitions' dims, for the run-time rule.
    partitions_dims: Dims,
    /// Data's and the partitions' dims are all static: the types proved
    /// the prefix rule.
    all_static: bool,
    _slice: PhantomData<(Sl, O)>,
}

impl<const NUM: usize, T, DS, DB, Sl, O> Clone for Partition<'_, NUM, T, DS, DB, Sl, O>
where
    T: Copy,
    DS: Shape,
    DB: Storage<T>,
{
    fn clone(&self) -> Self {
        *self
    }
}
impl<const NUM: usize, T, DS, DB, Sl, O> Copy for Partition<'_, NUM, T, DS, DB, Sl, O>
where
    T: Copy,
    DS: Shape,
    DB: Storage<T>,
{
}

impl<'a, const NUM: usize, T, DS, DB, Sl, O> Partition<'a, NUM, T, DS, DB, Sl, O>
where
    T: Copy,
    DS: Shape,
    DB: Storage<T>,
    Sl: PrependDyn<Out = O> + StaticSlice,
    O: Shape,
{
    /// Runs the rule: the counts, the slice's element count and the slice
    /// shape value.
    ///
    /// With every shape static the types proved the prefix rule and the
    /// outputs' rank, and the slice's dims and element count are constants
    /// ([`StaticSlice`]): of the rule only the partition values are left,
    /// checked and counted in one pass ([`rule::count_partitions`], the
    /// same error as the whole rule's). So the row length is a constant and
    /// the kernels copy rows of that length, one loop, as stitch's static
    /// path does.
    fn plan(&self) -> Result<([usize; NUM], usize, Sl), StitchError> {
        let mut counts = [0usize; NUM];
        if let (true, Some(slice_len), Some(slice)) =
            (self.all_static, Sl::STATIC_NUMEL, Sl::STATIC_SLICE)
        {
            rule::count_partitions(self.partitions, &mut counts)?;
            let value = Sl::from_dims(&slice)?;
            return Ok((counts, slice_len, value));
        }
        let slice = rule::partition_slice_dims_scratch(
            &self.data.dims(),
            self.data.as_slice().len(),
            &self.partitions_dims,
            self.partitions,
            &mut counts,
        )?;
        let value = Sl::from_dims(&slice)?;
        Ok((counts, rule::partition_slice_len(&slice), value))
    }

    /// The bounded forms' checks after [`plan`](Self::plan): every
    /// output's rows within the capacity, before anything is written.
    #[allow(clippy::type_complexity)]
    fn bounded_shapes<const CAP: usize>(
        counts: &[usize; NUM],
        value: Sl,
    ) -> Result<[BoundedRows<O, CAP>; NUM], StitchError>
    where
        O: RowShape,
    {
        let first = value.prepend(0);
        let mut shapes = [first.with_rows_dim(bounded_rows::<CAP>(0)?); NUM];
        for (shape, &count) in shapes.iter_mut().zip(counts) {
            *shape = first.with_rows_dim(bounded_rows::<CAP>(count)?);
        }
        Ok(shapes)
    }

    /// The outputs on the heap (feature `alloc`), one `Vec` each, sized
    /// by its count.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let data = Tensor::<i32, shape![4, 2]>::from_array([[1, 2], [3, 4], [5, 6], [7, 8]]);
    /// let [a, b] = dynamic_partition(&data, &tensor![1, 0, 1, 1], Partitions::<2>).run().unwrap();
    /// let _: &Tensor<i32, shape![Dyn, 2], Vec<i32>> = &a;
    /// assert_eq!((a.as_slice(), b.as_slice()), (&[3, 4][..], &[1, 2, 5, 6, 7, 8][..]));
    /// let err = dynamic_partition(&data, &tensor![1, 0, 2, 1], Partitions::<2>).run().unwrap_err();
    /// assert_eq!(err.to_string(), "dynamic_partition: partitions[2] = 2 is not in [0, 2)");
    /// ```
    #[cfg(feature = "alloc")]
    #[allow(clippy::type_complexity)]
    pub fn run(&self) -> Result<[Tensor<T, O, alloc::vec::Vec<T>>; NUM], StitchError> {
        let (counts, slice_len, value) = self.plan()?;
        let mut outs: [alloc::vec::Vec<T>; NUM] = core::array::from_fn(|_| alloc::vec::Vec::new());
        for (out, &count) in outs.iter_mut().zip(&counts) {
            // all the counts together are data's row count: no overflow
            *out = crate::storage::reserved_vec(count.saturating_mul(slice_len))?;
        }
        kernel::partition_push(self.data.as_slice(), slice_len, self.partitions, &mut outs);
        let mut counts = counts.into_iter();
        Ok(outs.map(|out| {
            let count = counts.next().unwrap_or(0);
            Tensor::from_parts_unchecked(value.prepend(count), out)
        }))
    }

    /// The outputs written one after the other to the front of `buf`
    /// (data's element count is enough), returned as `NUM` views into it:
    /// no heap. An error, with `buf` untouched, if a partition value is out
    /// of range or `buf` is too short.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let data = Tensor::<f32, shape![2, 2]>::from_array([[1., 2.], [3., 4.]]);
    /// let parts = Tensor::<i64, shape![2, 2]>::from_array([[2, 0], [0, 2]]);
    /// let mut buf = [0.0; 4];
    /// let [a, b, c] = dynamic_partition(&data, &parts, Partitions::<3>).run_into(&mut buf).unwrap();
    /// assert_eq!((a.dims().as_slice(), a.as_slice()), (&[2][..], &[2., 3.][..]));
    /// assert_eq!(b.dims().as_slice(), &[0]);
    /// assert_eq!(c.as_slice(), &[1., 4.]);
    /// let err = dynamic_partition(&data, &parts, Partitions::<3>).run_into(&mut [0.0; 3]).unwrap_err();
    /// assert_eq!(err.rule(), "dynamic_stitch/buffer");
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn run_into<'b>(
        &self,
        buf: &'b mut [T],
    ) -> Result<[Tensor<T, O, &'b mut [T]>; NUM], StitchError> {
        let (counts, slice_len, value) = self.plan()?;
        let dst = prefix_of(buf, &self.data.dims())?;
        let mut cursors = [0usize; NUM];
        kernel::start_offsets(&counts, slice_len, &mut cursors);
        kernel::partition_rows(
            self.data.as_slice(),
            slice_len,
            self.partitions,
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

    /// The outputs in `NUM` [`Room`](crate::Room)s, rows
    /// [`Bounded<CAP>`](crate::Bounded) (room for `CAP` slices each): no
    /// heap and no caller buffer. An error, with nothing written, if a
    /// partition value is out of range or an output has more than `CAP`
    /// rows (`shape/capacity`, naming both).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let data = Tensor::<i32, shape![4, 2]>::from_array([[1, 2], [3, 4], [5, 6], [7, 8]]);
    /// let parts = Tensor::<i32, shape![4]>::from_array([1, 0, 1, 1]);
    /// let [a, b] = dynamic_partition(&data, &parts, Partitions::<2>).run_bounded::<3>().unwrap();
    /// assert_eq!((a.dims().as_slice(), a.as_slice()), (&[1, 2][..], &[3, 4][..]));
    /// assert_eq!((b.dims().as_slice(), b.as_slice()), (&[3, 2][..], &[1, 2, 5, 6, 7, 8][..]));
    /// let err = dynamic_partition(&data, &parts, Partitions::<2>).run_bounded::<2>().unwrap_err();
    /// assert_eq!(err.to_string(), "dim 0 holds at most 2 (its capacity in the shape type), but 3 was given");
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn run_bounded<const CAP: usize>(
        &self,
    ) -> Result<[BoundedTensor<T, O, CAP>; NUM], StitchError>
    where
        T: Default,
        O: RowShape,
        BoundedRows<O, CAP>: BoundedShape,
    {
        let (counts, slice_len, value) = self.plan()?;
        let shapes = Self::bounded_shapes::<CAP>(&counts, value)?;
        // the outputs are made first and written in place (no room moved
        // after it is written)
        let empty = value.prepend(0).with_rows_dim(bounded_rows::<CAP>(0)?);
        let mut outs = [Tensor::from_parts_unchecked(empty, Room::filled_with(T::default())); NUM];
        for (out, shape) in outs.iter_mut().zip(shapes) {
            *out.parts_mut().0 = shape;
        }
        let mut fronts = outs.each_mut().map(|t| t.parts_mut().1.as_mut_slice());
        kernel::partition_fronts(
            self.data.as_slice(),
            slice_len,
            self.partitions,
            &mut fronts,
        );
        Ok(outs)
    }

    /// [`run_bounded`](Self::run_bounded) into `outs`, `NUM` bounded
    /// tensors the caller keeps (`static`s, or reused between calls): no
    /// heap, no caller buffer, and no second set of rooms on the stack.
    /// Output `i` takes the slices of partition `i`; on any error (a
    /// partition value out of range, an output of more than `CAP` rows)
    /// every output is untouched, its shape and every element.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let data = Tensor::<i32, shape![4, 2]>::from_array([[1, 2], [3, 4], [5, 6], [7, 8]]);
    /// let parts = |p| Tensor::<i32, shape![4]>::from_array(p);
    /// let mut outs = dynamic_partition(&data, &parts([0, 0, 1, 1]), Partitions::<2>).run_bounded::<3>().unwrap();
    /// dynamic_partition(&data, &parts([1, 0, 1, 1]), Partitions::<2>).run_bounded_into(&mut outs).unwrap();
    /// assert_eq!((outs[1].dims().as_slice(), outs[1].as_slice()), (&[3, 2][..], &[1, 2, 5, 6, 7, 8][..]));
    /// // 4 rows in partition 0 do not fit a capacity of 3: the error, `outs` as they were
    /// let err = dynamic_partition(&data, &parts([0; 4]), Partitions::<2>).run_bounded_into(&mut outs).unwrap_err();
    /// assert_eq!(err.rule(), "shape/capacity");
    /// assert_eq!(outs[0].as_slice(), &[3, 4]);
    /// ```
    pub fn run_bounded_into<const CAP: usize>(
        &self,
        outs: &mut [BoundedTensor<T, O, CAP>; NUM],
    ) -> Result<(), StitchError>
    where
        T: Default,
        O: RowShape,
        BoundedRows<O, CAP>: BoundedShape,
    {
        let (counts, slice_len, value) = self.plan()?;
        let shapes = Self::bounded_shapes::<CAP>(&counts, value)?;
        // one output at a time: its slices, in row-major order
        for (i, (out, shape)) in outs.iter_mut().zip(shapes).enumerate() {
            bounded_into(out, shape, |front| {
                kernel::partition_one(self.data.as_slice(), slice_len, self.partitions, i, front);
                Ok::<(), StitchError>(())
            })?;
        }
        Ok(())
    }
}

// The free-function spellings of the builder's output forms, from before
// the builder: not in the docs, kept for existing callers.

/// [`Partition::run_into`] as a free function (not in the docs; kept for
/// existing callers).
#[doc(hidden)]
#[allow(clippy::type_complexity)]
pub fn dynamic_partition_into<'b, const NUM: usize, T, DS, DB, I, PS, PB>(
    data: &Tensor<T, DS, DB>,
    partitions: &Tensor<I, PS, PB>,
    num: Partitions<NUM>,
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
    dynamic_partition(data, partitions, num).run_into(buf)
}

/// [`Partition::run_bounded`] as a free function (not in the docs; kept
/// for existing callers).
#[doc(hidden)]
#[allow(clippy::type_complexity)]
pub fn dynamic_partition_bounded<const CAP: usize, const NUM: usize, T, DS, DB, I, PS, PB>(
    data: &Tensor<T, DS, DB>,
    partitions: &Tensor<I, PS, PB>,
    num: Partitions<NUM>,
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
    dynamic_partition(data, partitions, num).run_bounded::<CAP>()
}

/// [`Partition::run_bounded_into`] as a free function (not in the docs;
/// kept for existing callers).
#[doc(hidden)]
#[allow(clippy::type_complexity)]
pub fn dynamic_partition_bounded_into<const CAP: usize, const NUM: usize, T, DS, DB, I, PS, PB>(
    data: &Tensor<T, DS, DB>,
    partitions: &Tensor<I, PS, PB>,
    num: Partitions<NUM>,
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
    dynamic_partition(data, partitions, num).run_bounded_into(outs)
}
