//! Multiplex on the static path: shapes as types, the rules as bounds
//! ([`MultiplexShapes`]) and two assertions evaluated at instantiation
//! ([`CandidateCount`], [`RowsFit`]); and the [`multiplex!`](crate::multiplex!)
//! macro, over views of its candidates.

use super::bounds::{
    CandidateCount, CandidateOf, IndexElement, IndexShape, MultiplexIndex, MultiplexOut,
    MultiplexOutput, MultiplexShapes, RowsFit,
};
use super::kernel::{self, checked_output, static_run};
use super::rule::rule;
use super::MultiplexError;
use crate::dims::ShapeError;
use crate::rows::RowShape;
use crate::shape::Shape;
use crate::storage::{
    bounded_into, bounded_into_of, bounded_result, bounded_result_of, bounded_rows, BoundedRows,
    BoundedShape, BoundedTensor, OwnedStorage, ResultStorage,
};
use crate::storage::{Storage, StorageMut};
use crate::tensor::Tensor;

/// Paddle's `multiplex` on the static path: `out[i] = inputs[index[i]][i]`
/// for every row `i` of the index.
///
/// The shape rules are bounds: one shape `S` of rank >= 2 for all candidates
/// (one type), an index of shape `[index_rows, 1]`
/// ([`MultiplexShapes`]); two are assertions evaluated when the function is
/// instantiated (`cargo build`, not `cargo check`): `K >= 2`
/// ([`CandidateCount`]) and index rows <= candidate rows when both are static
/// ([`RowsFit`]). The output type has the index's rows. [`Dyn`](crate::Dyn)
/// dims are checked at run time (candidates with different run-time dims, an
/// index with more rows), as are the index values, all before anything is
/// written.
pub fn multiplex<T, S, B, I, IS, BI, const K: usize>(
    inputs: &[Tensor<T, S, B>; K],
    index: &Tensor<I, IS, BI>,
) -> Result<MultiplexOutput<T, S, IndexShape<I, IS>, B>, MultiplexError>
where
    T: Copy + Default,
    S: MultiplexShapes<IndexShape<I, IS>>,
    B: ResultStorage<T, MultiplexOut<S, IndexShape<I, IS>>>,
    I: MultiplexIndex<IS>,
    IS: Shape,
    BI: Storage<I>,
{
    let () = CandidateCount::<K>::AT_LEAST_TWO;
    let () = RowsFit::<S, IndexShape<I, IS>>::CHECK;
    new_output::<T, S, B, _, _, _, _>(inputs, &I::view(index))
}

/// [`multiplex`] writing into `out` (any storage: a caller's `&mut [T]` buffer
/// works without a heap), whose shape type is the output's
/// ([`MultiplexOut`]): the index's rows, then the candidates' trailing dims.
/// On any error `out` is left untouched.
pub fn multiplex_into<T, S, B, I, IS, BI, BO, const K: usize>(
    inputs: &[Tensor<T, S, B>; K],
    index: &Tensor<I, IS, BI>,
    out: &mut Tensor<T, MultiplexOut<S, IS>, BO>,
) -> Result<(), MultiplexError>
where
    T: Copy,
    S: MultiplexShapes<IS>,
    B: Storage<T>,
    I: IndexElement,
    IS: Shape,
    BI: Storage<I>,
    BO: StorageMut<T>,
{
    let () = CandidateCount::<K>::AT_LEAST_TWO;
    let () = RowsFit::<S, IS>::CHECK;
    if S::IS_STATIC && IS::IS_STATIC {
        return static_run(inputs, index, RowsFit::<S, IS>::ROW_LEN, out.as_mut_slice());
    }
    let plan = rule(inputs.iter().map(|t| Ok(t.dims())), index.dims())?;
    if plan.dims != out.dims() {
        return Err(ShapeError::OutputShape {
            expected: plan.dims,
            found: out.dims(),
        }
        .into());
    }
    kernel::fill(
        &plan,
        inputs,
        index.dims(),
        index.as_slice(),
        out.as_mut_slice(),
    )
}

/// [`multiplex`] with the result's rows [`Bounded<CAP>`](crate::Bounded),
/// in a [`Room`](crate::Room): for an index whose row count is known at
/// run time, no heap and no caller buffer. Every rule, the index values
/// and then the capacity are checked before anything is written; more
/// index rows than `CAP` is `shape/capacity`, naming both.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::multiplex_bounded;
/// let a = tensor![[1, 2], [3, 4], [5, 6]];
/// let b = tensor![[10, 20], [30, 40], [50, 60]];
/// let index = Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(2), One), vec![1, 0]).unwrap();
/// let out = multiplex_bounded::<3, _, _, _, _, _, _, 2>(&[a, b], &index).unwrap();
/// assert_eq!((out.dims().as_slice(), out.as_slice()), (&[2, 2][..], &[10, 20, 3, 4][..]));
/// let err = multiplex_bounded::<1, _, _, _, _, _, _, 2>(&[a, b], &index).unwrap_err();
/// assert_eq!(err.rule(), "shape/capacity");
/// ```
#[allow(clippy::type_complexity)]
pub fn multiplex_bounded<const CAP: usize, T, S, B, I, IS, BI, const K: usize>(
    inputs: &[Tensor<T, S, B>; K],
    index: &Tensor<I, IS, BI>,
) -> Result<BoundedTensor<T, MultiplexOut<S, IS>, CAP>, MultiplexError>
where
    T: Copy + Default,
    S: MultiplexShapes<IS>,
    MultiplexOut<S, IS>: RowShape,
    BoundedRows<MultiplexOut<S, IS>, CAP>: BoundedShape,
    B: Storage<T>,
    I: IndexElement,
    IS: Shape,
    BI: Storage<I>,
{
    let () = CandidateCount::<K>::AT_LEAST_TWO;
    let () = RowsFit::<S, IS>::CHECK;
    if let Some((row_len, shape)) = static_bounded_shape::<CAP, _, _, _, _, _, _, K>(inputs, index)
    {
        // `copy_rows` checks every index value before it writes; the index
        // (static, [rows, 1]) has one value per output row
        let numel = index.as_slice().len().saturating_mul(row_len);
        return bounded_result_of(shape?, numel, |out| {
            kernel::copy_rows(inputs, row_len, index.as_slice(), out)
        });
    }
    let (plan, shape) = bounded_plan::<CAP, _, _, _, _, _, _, K>(inputs, index)?;
    bounded_result(shape, |out| {
        kernel::fill(&plan, inputs, index.dims(), index.as_slice(), out)
    })
}

/// [`multiplex_bounded`] into `out`, a bounded tensor the caller keeps (a
/// `static`, or one reused between calls): no heap, no caller buffer, and
/// no second room on the stack. `out` takes the index's rows; on any error
/// (a shape rule, an index value, more rows than `CAP`) it is untouched,
/// its shape and every element.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{multiplex_bounded, multiplex_bounded_into};
/// use shapecheck::storage::BoundedTensor;
/// let a = tensor![[1, 2], [3, 4], [5, 6]];
/// let b = tensor![[10, 20], [30, 40], [50, 60]];
/// let rows = |v: Vec<i32>| Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(v.len()), One), v).unwrap();
/// let mut out: BoundedTensor<i32, shape![Dyn, 2], 2> =
///     multiplex_bounded::<2, _, _, _, _, _, _, 2>(&[a, b], &rows(vec![0])).unwrap();
/// multiplex_bounded_into(&[a, b], &rows(vec![1, 0]), &mut out).unwrap();
/// assert_eq!((out.dims().as_slice(), out.as_slice()), (&[2, 2][..], &[10, 20, 3, 4][..]));
/// // 3 index rows do not fit a capacity of 2: the error, `out` as it was
/// let err = multiplex_bounded_into(&[a, b], &rows(vec![0, 0, 0]), &mut out).unwrap_err();
/// assert_eq!(err.rule(), "shape/capacity");
/// assert_eq!(out.as_slice(), &[10, 20, 3, 4]);
/// ```
#[allow(clippy::type_complexity)]
pub fn multiplex_bounded_into<const CAP: usize, T, S, B, I, IS, BI, const K: usize>(
    inputs: &[Tensor<T, S, B>; K],
    index: &Tensor<I, IS, BI>,
    out: &mut BoundedTensor<T, MultiplexOut<S, IS>, CAP>,
) -> Result<(), MultiplexError>
where
    T: Copy + Default,
    S: MultiplexShapes<IS>,
    MultiplexOut<S, IS>: RowShape,
    BoundedRows<MultiplexOut<S, IS>, CAP>: BoundedShape,
    B: Storage<T>,
    I: IndexElement,
    IS: Shape,
    BI: Storage<I>,
{
    let () = CandidateCount::<K>::AT_LEAST_TWO;
    let () = RowsFit::<S, IS>::CHECK;
    if let Some((row_len, shape)) = static_bounded_shape::<CAP, _, _, _, _, _, _, K>(inputs, index)
    {
        // `copy_rows` checks every index value before it writes; the index
        // (static, [rows, 1]) has one value per output row
        let numel = index.as_slice().len().saturating_mul(row_len);
        return bounded_into_of(out, shape?, numel, |front| {
            kernel::copy_rows(inputs, row_len, index.as_slice(), front)
        });
    }
    let (plan, shape) = bounded_plan::<CAP, _, _, _, _, _, _, K>(inputs, index)?;
    bounded_into(out, shape, |front| {
        kernel::fill(&plan, inputs, index.dims(), index.as_slice(), front)
    })
}

/// The bounded forms' output shape when every shape is static (the rule
/// held at compile time, the row length is a constant): the output's dims
/// with rows `Bounded<CAP>`, with the row length for `kernel::copy_rows`,
/// as `multiplex_into`'s static path. The index values are left to
/// `copy_rows`, which checks them all before it writes, except when the
/// rows do not fit: then the values are checked here first, so that a bad
/// value is reported before `shape/capacity`, the order of
/// [`bounded_plan`]. `None` when a shape has a run-time dim: those take
/// [`bounded_plan`] and the run-time kernel.
#[allow(clippy::type_complexity)]
fn static_bounded_shape<const CAP: usize, T, S, B, I, IS, BI, const K: usize>(
    inputs: &[Tensor<T, S, B>; K],
    index: &Tensor<I, IS, BI>,
) -> Option<(
    usize,
    Result<BoundedRows<MultiplexOut<S, IS>, CAP>, MultiplexError>,
)>
where
    T: Copy,
    S: MultiplexShapes<IS>,
    MultiplexOut<S, IS>: RowShape,
    B: Storage<T>,
    I: IndexElement,
    IS: Shape,
    BI: Storage<I>,
{
    let (true, true, Some(row_len), Some(first)) = (
        S::IS_STATIC,
        IS::IS_STATIC,
        RowsFit::<S, IS>::ROW_LEN,
        inputs.first(),
    ) else {
        return None;
    };
    let out = <S as MultiplexShapes<IS>>::output(first.shape(), index.shape());
    let shape = match bounded_rows::<CAP>(out.rows()) {
        Ok(rows) => Ok(out.with_rows_dim(rows)),
        Err(capacity) => {
            kernel::check_index_values(index.as_slice(), K).and_then(|()| Err(capacity.into()))
        }
    };
    Some((row_len, shape))
}

/// The bounded forms' checks: the rule, the index values, then the
/// output's dims with rows `Bounded<CAP>` (`shape/capacity` if they do not
/// fit): the heap form's order.
#[allow(clippy::type_complexity)]
fn bounded_plan<const CAP: usize, T, S, B, I, IS, BI, const K: usize>(
    inputs: &[Tensor<T, S, B>; K],
    index: &Tensor<I, IS, BI>,
) -> Result<
    (
        super::rule::MultiplexPlan,
        BoundedRows<MultiplexOut<S, IS>, CAP>,
    ),
    MultiplexError,
>
where
    T: Copy,
    S: MultiplexShapes<IS>,
    MultiplexOut<S, IS>: RowShape,
    B: Storage<T>,
    I: IndexElement,
    IS: Shape,
    BI: Storage<I>,
{
    let plan = rule(inputs.iter().map(|t| Ok(t.dims())), index.dims())?;
    kernel::check_index_values(index.as_slice(), K)?;
    let shape = <BoundedRows<MultiplexOut<S, IS>, CAP> as Shape>::from_dims(&plan.dims)?;
    Ok((plan, shape))
}

/// Used by [`multiplex!`](crate::multiplex!): [`multiplex`] over views of the
/// candidates, the result stored like `first` (on the heap for `Vec`
/// candidates, inline for inline ones).
#[doc(hidden)]
pub fn multiplex_views<T, S, B, I, IS, BI, const K: usize>(
    _first: &Tensor<T, S, B>,
    views: [Tensor<T, S, &[T]>; K],
    index: &Tensor<I, IS, BI>,
) -> Result<MultiplexOutput<T, S, IS, B>, MultiplexError>
where
    T: Copy + Default,
    S: MultiplexShapes<IS>,
    B: ResultStorage<T, MultiplexOut<S, IS>>,
    I: IndexElement,
    IS: Shape,
    BI: Storage<I>,
{
    let () = CandidateCount::<K>::AT_LEAST_TWO;
    let () = RowsFit::<S, IS>::CHECK;
    new_output::<T, S, B, _, _, _, _>(&views, index)
}

/// A result tensor in `B`'s result storage, filled by [`static_run`] (every
/// dim static) or after [`rule()`] (otherwise, so that nothing is allocated
/// for shapes the rule rejects).
fn new_output<T, S, B, C, I, IS, BI>(
    inputs: &[Tensor<T, S, C>],
    index: &Tensor<I, IS, BI>,
) -> Result<MultiplexOutput<T, S, IS, B>, MultiplexError>
where
    T: Copy + Default,
    S: MultiplexShapes<IS>,
    B: ResultStorage<T, MultiplexOut<S, IS>>,
    C: Storage<T>,
    I: IndexElement,
    IS: Shape,
    BI: Storage<I>,
{
    type Out<T, S, IS, B> = <B as ResultStorage<T, MultiplexOut<S, IS>>>::Out;
    let first = inputs
        .first()
        .ok_or(MultiplexError::TooFewCandidates { count: 0 })?;
    let filled = |shape| -> Result<MultiplexOutput<T, S, IS, B>, MultiplexError> {
        let data = Out::<T, S, IS, B>::try_filled(&shape, T::default())?;
        Ok(Tensor::from_parts_unchecked(shape, data))
    };
    if S::IS_STATIC && IS::IS_STATIC {
        let mut out = filled(S::output(first.shape(), index.shape()))?;
        static_run(inputs, index, RowsFit::<S, IS>::ROW_LEN, out.as_mut_slice())?;
        return Ok(out);
    }
    checked_output(
        inputs,
        index.dims(),
        index.as_slice(),
        // the rule has checked the dims: the output's value comes from the
        // operands' shape values (so a branded row count keeps its brand,
        // which no size can rebuild)
        |_checked| filled(S::output(first.shape(), index.shape())),
        Tensor::as_mut_slice,
    )
}

/// Used by [`multiplex!`](crate::multiplex!): a view of `candidate`, checked
/// to have the shape of `first`. Views share one storage type whatever the
/// shape, so a candidate of another shape is reported by the rule's own
/// message and not as a type mismatch of the array.
#[doc(hidden)]
#[inline(always)]
pub fn same_candidate_shape<'a, T, S0, S2, B0, B2>(
    _first: &Tensor<T, S0, B0>,
    candidate: &'a Tensor<T, S2, B2>,
) -> Tensor<T, <S2 as CandidateOf<S0>>::Shape, &'a [T]>
where
    T: Copy,
    S0: Shape,
    S2: CandidateOf<S0>,
    B0: Storage<T>,
    B2: Storage<T>,
{
    S2::view_as(candidate)
}

/// `multiplex!(index; a, b, c, ...)`: Paddle's multiplex with the candidates
/// listed, under the rules of [`multiplex`] (the output has the index's rows):
/// - fewer than two candidates: `multiplex!: needs at least 2 candidate
///   tensors`, under `cargo check` too;
/// - candidates of different shapes: `multiplex: all candidates must have one
///   shape, but the first is ... and this one is ...`, under `cargo check` too;
/// - the rank and index-shape rules of [`multiplex`] (bounds), and its
///   index-rows rule ([`RowsFit`], reported by `cargo build`).
///
/// It returns what [`multiplex`] returns (a `Result`: index values are data).
///
/// ```
/// use shapecheck::prelude::*;
/// let a = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
/// let b = Tensor::<f32, shape![2, 2]>::from_array([[5.0, 6.0], [7.0, 8.0]]);
/// let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
/// let out = shapecheck::multiplex!(index; a, b).unwrap();
/// assert_eq!(out.as_slice(), &[5.0, 6.0, 3.0, 4.0]);
/// // one index row: the output has one row
/// let first = Tensor::<i32, shape![1, 1]>::from_array([[1]]);
/// let out: Tensor<f32, shape![1, 2]> = shapecheck::multiplex!(first; a, b).unwrap();
/// assert_eq!(out.as_slice(), &[5.0, 6.0]);
/// ```
/// Candidates of two shapes do not compile (`ui-tests/multiplex/fail/macro_candidate_shapes.rs`):
/// ```compile_fail
/// use shapecheck::prelude::*;
/// let a = Tensor::<f32, shape![2, 2]>::full(1.0);
/// let b = Tensor::<f32, shape![2, 3]>::full(2.0);
/// let index = Tensor::<i32, shape![2, 1]>::full(0);
/// let _ = shapecheck::multiplex!(index; a, b);
/// ```
#[macro_export]
macro_rules! multiplex {
    ($index:expr ; $first:expr, $($rest:expr),+ $(,)?) => {{
        let first = &$first;
        $crate::ops::multiplex::multiplex_views(
            first,
            [first.view(), $($crate::ops::multiplex::same_candidate_shape(first, &$rest)),+],
            &$index,
        )
    }};
    ($index:expr ; $($few:expr),* $(,)?) => {
        ::core::compile_error!(
            "multiplex/candidate-count: multiplex! needs at least 2 candidate tensors (Paddle: \"multiplex operator should have more than one candidate input tensors\")"
        )
    };
}
