//! Multiplex on the static path: shapes as types, the rules as bounds
//! ([`MultiplexShapes`]) and two assertions evaluated at instantiation
//! ([`CandidateCount`], [`RowsFit`]); and the [`multiplex!`](crate::multiplex!)
//! macro, over views of its candidates.

use super::bounds::{
    CandidateCount, IndexElement, IndexShape, MultiplexIndex, MultiplexIndexOf, MultiplexOut,
    MultiplexShapes, RowsFit,
};
use super::kernel::{self, checked_output, static_run};
use super::rule::rule;
use super::MultiplexError;
use crate::dims::ShapeError;
use crate::rows::RowShape;
use crate::shape::Shape;
use crate::storage::{
    bounded_into, bounded_into_of, bounded_result, bounded_result_from_fn, bounded_rows,
    BoundedRows, BoundedShape, BoundedTensor, OwnedStorage, ResultStorage,
};
use crate::storage::{Storage, StorageMut};
use crate::tensor::Tensor;

/// Paddle's `multiplex` on the static path: `out[i] = inputs[index[i]][i]`
/// for every row `i` of the index. Returns a [`Multiplex`], whose methods
/// take the output the way [`dynamic_stitch`](crate::dynamic_stitch)'s and
/// [`dynamic_partition`](crate::dynamic_partition)'s do:
/// [`run`](Multiplex::run) (a new tensor), [`run_into`](Multiplex::run_into)
/// (your buffer), [`run_bounded`](Multiplex::run_bounded) and
/// [`run_bounded_into`](Multiplex::run_bounded_into) (rows
/// [`Bounded<CAP>`](crate::Bounded), no heap).
///
/// ```
/// use shapecheck::prelude::*;
/// let a = tensor![[1, 2], [3, 4], [5, 6]];
/// let b = tensor![[10, 20], [30, 40], [50, 60]];
/// let index = tensor![[1], [0], [1]];
/// let out: Tensor<i32, shape![3, 2]> = multiplex(&[a, b], &index).run().unwrap();
/// assert_eq!(out.as_slice(), &[10, 20, 3, 4, 50, 60]);
/// ```
///
/// The shape rules are bounds: one shape `S` of rank >= 2 for all candidates
/// (one type), an index of shape `[index_rows, 1]`
/// ([`MultiplexShapes`]); two are assertions evaluated when the function is
/// instantiated (`cargo build`, not `cargo check`): `K >= 2`
/// ([`CandidateCount`]) and index rows <= candidate rows when both are static
/// ([`RowsFit`]). The output type has the index's rows. [`Dyn`](crate::Dyn)
/// dims are checked when it runs (candidates with different run-time dims,
/// an index with more rows), as are the index values, all before anything
/// is written.
#[allow(clippy::type_complexity)]
#[inline]
pub fn multiplex<'a, T, S, B, I, IS, BI, const K: usize>(
    inputs: &'a [Tensor<T, S, B>; K],
    index: &'a Tensor<I, IS, BI>,
) -> Multiplex<'a, T, S, B, IndexElementOf<I, IS>, IndexShape<I, IS>, OutOf<S, I, IS>, K>
where
    T: Copy,
    S: Shape,
    IndexShape<I, IS>: MultiplexIndexOf<S>,
    B: Storage<T>,
    I: MultiplexIndex<IS>,
    IS: Shape,
    BI: Storage<I>,
{
    let () = CandidateCount::<K>::AT_LEAST_TWO;
    let () = RowsFit::<S, IndexShape<I, IS>>::CHECK;
    // the index as `IndexElementOf<I, IS>`s (the same values)
    let (shape, values) = I::view(index).into_parts();
    let values = <<I as MultiplexIndex<IS>>::Element as IndexElement>::checked(values);
    let index = Tensor::from_parts_unchecked(shape, values);
    // every dim static: the types proved every shape rule, and the rows
    // have a constant length
    let row_len = match (S::IS_STATIC, IS::IS_STATIC) {
        (true, true) => RowsFit::<S, IndexShape<I, IS>>::ROW_LEN,
        _ => None,
    };
    Multiplex {
        out: inputs
            .first()
            .map(|c| IndexShape::<I, IS>::output(c.shape(), index.shape())),
        inputs,
        index,
        row_len,
    }
}

impl<I: Copy, IS: Shape, BI: Storage<I>> Tensor<I, IS, BI> {
    /// [`multiplex`]`(inputs, self).run()` with this tensor as the index:
    /// `index.try_multiplex(&[a, b])`, the same rules and output. The same
    /// call is a method of [`DynTensor`](crate::DynTensor)
    /// (`DynTensor::try_multiplex`), so that one function body, written with
    /// `?`, runs on `Tensor`s and on `DynTensor`s under one
    /// `use shapecheck::prelude::*`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let (a, b) = (tensor![[1, 2], [3, 4]], tensor![[5, 6], [7, 8]]);
    /// let out = tensor![[1], [0]].try_multiplex(&[a, b]).unwrap();
    /// assert_eq!(out.as_slice(), &[5, 6, 3, 4]);
    /// let err = tensor![[1], [2]].try_multiplex(&[a, b]).unwrap_err();
    /// assert_eq!(err, MultiplexError::IndexOutOfRange { row: 1, value: 2, candidates: 2 });
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_multiplex<T, S, B, const K: usize>(
        &self,
        inputs: &[Tensor<T, S, B>; K],
    ) -> Result<
        Tensor<T, OutOf<S, I, IS>, <B as ResultStorage<T, OutOf<S, I, IS>>>::Out>,
        MultiplexError,
    >
    where
        T: Copy + Default,
        S: Shape,
        IndexShape<I, IS>: MultiplexIndexOf<S>,
        B: ResultStorage<T, OutOf<S, I, IS>>,
        I: MultiplexIndex<IS>,
    {
        multiplex(inputs, self).run()
    }
}

/// The output's shape, [`MultiplexOut`] of the candidates and the index,
/// asked from the index's side ([`MultiplexIndexOf`]): named in
/// [`multiplex`]'s return type as a projection, so that a failing rule is
/// one error at the call (for generic candidates too) and the builder's
/// methods do not ask for it again.
type OutOf<S, I, IS> = <IndexShape<I, IS> as MultiplexIndexOf<S>>::Output;

/// The index's element type once it is an [`IndexElement`] (`I`): what
/// [`multiplex`] names in its return type, so that an index of another
/// element type is one error at the call.
type IndexElementOf<I, IS> = <<I as MultiplexIndex<IS>>::Element as IndexElement>::Checked;

/// multiplex's candidates and index, borrowed, from [`multiplex`]: its
/// methods run the op and take the output one way each. Every form checks
/// what the types could not (run-time dims, the index values) before it
/// writes anything.
///
/// | output | method |
/// |---|---|
/// | a new tensor, stored like the candidates | [`run`](Self::run) |
/// | the front of your buffer, returned as a view | [`run_into`](Self::run_into) |
/// | a [`Room`](crate::Room): rows `Bounded<CAP>`, no heap | [`run_bounded`](Self::run_bounded) |
/// | a bounded tensor you keep | [`run_bounded_into`](Self::run_bounded_into) |
///
/// ```
/// use shapecheck::prelude::*;
/// let (a, b) = (tensor![[1, 2], [3, 4]], tensor![[5, 6], [7, 8]]);
/// let index = tensor![[1], [0]];
/// let candidates = [a, b]; // the builder borrows them
/// let op = multiplex(&candidates, &index);
/// let mut buf = [0; 4];
/// assert_eq!(op.run_into(&mut buf).unwrap().as_slice(), op.run().unwrap().as_slice());
/// assert_eq!(buf, [5, 6, 3, 4]);
/// ```
///
/// `O` is the output's shape, [`MultiplexOut<S, IS>`].
#[must_use = "a multiplex does nothing until it runs: call .run(), .run_into(&mut buf), .run_bounded::<CAP>() or .run_bounded_into(&mut out)"]
pub struct Multiplex<'a, T, S, B, I, IS, O, const K: usize>
where
    T: Copy,
    S: Shape,
    B: Storage<T>,
    I: Copy,
    IS: Shape,
{
    inputs: &'a [Tensor<T, S, B>; K],
    index: Tensor<I, IS, &'a [I]>,
    /// The output's shape value, from the first candidate's and the
    /// index's (`None` without candidates, which does not build).
    out: Option<O>,
    /// The row length when every dim is static (then the types proved
    /// every shape rule); `None`: the rule runs.
    row_len: Option<usize>,
}

impl<'a, T, S, B, I, IS, O, const K: usize> Multiplex<'a, T, S, B, I, IS, O, K>
where
    T: Copy,
    S: Shape,
    B: Storage<T>,
    I: IndexElement,
    IS: Shape,
    O: Shape,
{
    /// The output's shape value, or the error of no candidates.
    fn out_shape(&self) -> Result<O, MultiplexError> {
        self.out
            .ok_or(MultiplexError::TooFewCandidates { count: 0 })
    }

    /// The output's dims, `[index rows] + candidate dims[1..]`, by the
    /// op's rule ([`rule()`]), then every index value checked.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let (a, b) = (tensor![[1, 2], [3, 4]], tensor![[5, 6], [7, 8]]);
    /// assert_eq!(multiplex(&[a, b], &tensor![[1]]).output_dims().unwrap().as_slice(), &[1, 2]);
    /// let err = multiplex(&[a, b], &tensor![[2]]).output_dims().unwrap_err();
    /// assert_eq!(err.rule(), "multiplex/index-value");
    /// ```
    pub fn output_dims(&self) -> Result<crate::dims::Dims, MultiplexError> {
        let plan = rule(self.inputs.iter().map(|t| Ok(t.dims())), self.index.dims())?;
        kernel::check_index_values(self.index.as_slice(), K)?;
        Ok(plan.dims)
    }

    /// The output as a new tensor of shape [`MultiplexOut<S, IS>`], stored
    /// like the candidates: inline for inline (or view) candidates, on the
    /// heap for `Vec` ones ([`MultiplexOutput`](super::MultiplexOutput)).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let a = tensor![[1, 2], [3, 4], [5, 6]];
    /// let b = tensor![[10, 20], [30, 40], [50, 60]];
    /// // fewer index rows than candidate rows: the output has the index's rows
    /// let out: Tensor<i32, shape![2, 2]> = multiplex(&[a, b], &tensor![[1], [1]]).run().unwrap();
    /// assert_eq!(out.as_slice(), &[10, 20, 30, 40]);
    /// let err = multiplex(&[a, b], &tensor![[1], [2]]).run().unwrap_err();
    /// assert_eq!(err, MultiplexError::IndexOutOfRange { row: 1, value: 2, candidates: 2 });
    /// ```
    #[allow(clippy::type_complexity)]
    #[inline]
    pub fn run(&self) -> Result<Tensor<T, O, <B as ResultStorage<T, O>>::Out>, MultiplexError>
    where
        T: Default,
        B: ResultStorage<T, O>,
    {
        let shape = self.out_shape()?;
        new_output::<T, O, B::Out, _, _>(self.inputs, &self.index, shape, self.row_len)
    }

    /// The output written to the front of `buf` (no heap), returned as a
    /// view of shape [`MultiplexOut<S, IS>`] over it. An error, with `buf`
    /// untouched, if a rule or an index value fails or the output does not
    /// fit (`multiplex/buffer`, after the index values).
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let (a, b) = (tensor![[1, 2], [3, 4]], tensor![[5, 6], [7, 8]]);
    /// let mut buf = [0; 6];
    /// let view = multiplex(&[a, b], &tensor![[1], [0]]).run_into(&mut buf).unwrap();
    /// assert_eq!((view.dims().as_slice(), view.as_slice()), (&[2, 2][..], &[5, 6, 3, 4][..]));
    /// assert_eq!(buf, [5, 6, 3, 4, 0, 0]);
    /// let err = multiplex(&[a, b], &tensor![[1], [0]]).run_into(&mut [0; 3]).unwrap_err();
    /// assert_eq!(err.to_string(), "multiplex: the output [2, 2] needs 4 elements, but the buffer holds 3");
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn run_into<'b>(
        &self,
        buf: &'b mut [T],
    ) -> Result<Tensor<T, O, &'b mut [T]>, MultiplexError> {
        let (inputs, index) = (self.inputs, &self.index);
        let shape = self.out_shape()?;
        let len = buf.len();
        if let Some(row_len) = self.row_len {
            // the output holds one row of `row_len` per index value
            let needed = index.as_slice().len().saturating_mul(row_len);
            let Some(out) = buf.get_mut(..needed) else {
                kernel::check_index_values(index.as_slice(), K)?;
                return Err(buffer_error(&shape, needed, len));
            };
            kernel::copy_rows(inputs, row_len, index.as_slice(), out)?;
            return Ok(Tensor::from_parts_unchecked(shape, out));
        }
        let plan = rule(inputs.iter().map(|t| Ok(t.dims())), index.dims())?;
        let needed = plan.dims.try_numel()?;
        let Some(out) = buf.get_mut(..needed) else {
            kernel::check_index_values(index.as_slice(), K)?;
            return Err(buffer_error(&shape, needed, len));
        };
        kernel::fill(&plan, inputs, index.dims(), index.as_slice(), out)?;
        // the rule checked the dims: the shape value from the operands'
        // (a branded row count keeps its brand) holds `needed` elements
        Ok(Tensor::from_parts_unchecked(shape, out))
    }

    /// The output in a [`Room`](crate::Room) with room for `CAP` rows:
    /// rows [`Bounded<CAP>`](crate::Bounded), for an index whose row count
    /// is known at run time; no heap and no caller buffer. Every rule, the
    /// index values and then the capacity are checked before anything is
    /// written; more index rows than `CAP` is `shape/capacity`, naming both.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let a = tensor![[1, 2], [3, 4], [5, 6]];
    /// let b = tensor![[10, 20], [30, 40], [50, 60]];
    /// let index = Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(2), One), vec![1, 0]).unwrap();
    /// let out = multiplex(&[a, b], &index).run_bounded::<3>().unwrap();
    /// assert_eq!((out.dims().as_slice(), out.as_slice()), (&[2, 2][..], &[10, 20, 3, 4][..]));
    /// let err = multiplex(&[a, b], &index).run_bounded::<1>().unwrap_err();
    /// assert_eq!(err.rule(), "shape/capacity");
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn run_bounded<const CAP: usize>(&self) -> Result<BoundedTensor<T, O, CAP>, MultiplexError>
    where
        T: Default,
        O: RowShape,
        BoundedRows<O, CAP>: BoundedShape,
    {
        let (inputs, index) = (self.inputs, self.index.as_slice());
        if let Some(row_len) = self.row_len {
            let shape = self.static_bounded_shape::<CAP>()?;
            // every index value is checked before the room is made; the
            // index (static, [rows, 1]) has one value per output row, and
            // the room's element `i` is `row_element`'s
            let numel = index.len().saturating_mul(row_len);
            kernel::check_index_values(index, K)?;
            return bounded_result_from_fn(shape, numel, |i| {
                kernel::row_element(inputs, row_len, index, i)
            });
        }
        let (plan, shape) = self.bounded_plan::<CAP>()?;
        bounded_result(shape, |out| {
            kernel::fill(&plan, inputs, self.index.dims(), index, out)
        })
    }

    /// [`run_bounded`](Self::run_bounded) into `out`, a bounded tensor the
    /// caller keeps (a `static`, or one reused between calls): no heap, no
    /// caller buffer, and no second room on the stack. `out` takes the
    /// index's rows; on any error (a shape rule, an index value, more rows
    /// than `CAP`) it is untouched, its shape and every element.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// use shapecheck::storage::BoundedTensor;
    /// let a = tensor![[1, 2], [3, 4], [5, 6]];
    /// let b = tensor![[10, 20], [30, 40], [50, 60]];
    /// let rows = |v: Vec<i32>| Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(v.len()), One), v).unwrap();
    /// let mut out: BoundedTensor<i32, shape![Dyn, 2], 2> = multiplex(&[a, b], &rows(vec![0])).run_bounded().unwrap();
    /// multiplex(&[a, b], &rows(vec![1, 0])).run_bounded_into(&mut out).unwrap();
    /// assert_eq!((out.dims().as_slice(), out.as_slice()), (&[2, 2][..], &[10, 20, 3, 4][..]));
    /// // 3 index rows do not fit a capacity of 2: the error, `out` as it was
    /// let err = multiplex(&[a, b], &rows(vec![0, 0, 0])).run_bounded_into(&mut out).unwrap_err();
    /// assert_eq!(err.rule(), "shape/capacity");
    /// assert_eq!(out.as_slice(), &[10, 20, 3, 4]);
    /// ```
    pub fn run_bounded_into<const CAP: usize>(
        &self,
        out: &mut BoundedTensor<T, O, CAP>,
    ) -> Result<(), MultiplexError>
    where
        T: Default,
        O: RowShape,
        BoundedRows<O, CAP>: BoundedShape,
    {
        let (inputs, index) = (self.inputs, self.index.as_slice());
        if let Some(row_len) = self.row_len {
            let shape = self.static_bounded_shape::<CAP>()?;
            // as in `run_bounded`
            let numel = index.len().saturating_mul(row_len);
            return bounded_into_of(out, shape, numel, |front| {
                kernel::copy_rows(inputs, row_len, index, front)
            });
        }
        let (plan, shape) = self.bounded_plan::<CAP>()?;
        bounded_into(out, shape, |front| {
            kernel::fill(&plan, inputs, self.index.dims(), index, front)
        })
    }

    /// The bounded forms' output shape when every shape is static (the
    /// rule held at compile time): the output's dims with rows
    /// `Bounded<CAP>`. The index values are left to `copy_rows`, which
    /// checks them all before it writes, except when the rows do not fit:
    /// then the values are checked here first, so that a bad value is
    /// reported before `shape/capacity`, the order of
    /// [`bounded_plan`](Self::bounded_plan).
    fn static_bounded_shape<const CAP: usize>(&self) -> Result<BoundedRows<O, CAP>, MultiplexError>
    where
        O: RowShape,
    {
        let out = self.out_shape()?;
        match bounded_rows::<CAP>(out.rows()) {
            Ok(rows) => Ok(out.with_rows_dim(rows)),
            Err(capacity) => kernel::check_index_values(self.index.as_slice(), K)
                .and_then(|()| Err(capacity.into())),
        }
    }

    /// The bounded forms' checks when a dim is `Dyn`: the rule, the index
    /// values, then the output's dims with rows `Bounded<CAP>`
    /// (`shape/capacity` if they do not fit): the heap form's order.
    #[allow(clippy::type_complexity)]
    fn bounded_plan<const CAP: usize>(
        &self,
    ) -> Result<(super::rule::MultiplexPlan, BoundedRows<O, CAP>), MultiplexError>
    where
        O: RowShape,
    {
        let plan = rule(self.inputs.iter().map(|t| Ok(t.dims())), self.index.dims())?;
        kernel::check_index_values(self.index.as_slice(), K)?;
        let shape = <BoundedRows<O, CAP> as Shape>::from_dims(&plan.dims)?;
        Ok((plan, shape))
    }
}

/// [`Multiplex::run_into`]'s error for a buffer shorter than the output.
fn buffer_error<O: Shape>(shape: &O, needed: usize, len: usize) -> MultiplexError {
    MultiplexError::BufferTooSmall {
        dims: shape.dims(),
        needed,
        len,
    }
}

/// multiplex writing into `out` (any storage: a caller's `&mut [T]` buffer
/// works without a heap), whose shape type is the output's
/// ([`MultiplexOut`]): the index's rows, then the candidates' trailing dims.
/// On any error `out` is left untouched. Not in the docs: the documented
/// forms are [`Multiplex`]'s methods ([`Multiplex::run_into`] for a buffer);
/// kept for callers of the typed-output form.
#[doc(hidden)]
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

/// [`Multiplex::run_bounded`] as a free function (not in the docs; kept for
/// existing callers).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::multiplex_bounded;
/// let a = tensor![[1, 2], [3, 4], [5, 6]];
/// let b = tensor![[10, 20], [30, 40], [50, 60]];
/// let index = Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(2), One), vec![1, 0]).unwrap();
/// let out = multiplex_bounded::<3, _, _, _, _, _, _, 2>(&[a, b], &index).unwrap();
/// assert_eq!(out.as_slice(), multiplex(&[a, b], &index).run_bounded::<3>().unwrap().as_slice());
/// ```
#[doc(hidden)]
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
    multiplex(inputs, index).run_bounded::<CAP>()
}

/// [`Multiplex::run_bounded_into`] as a free function (not in the docs;
/// kept for existing callers).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::multiplex_bounded_into;
/// use shapecheck::storage::BoundedTensor;
/// let (a, b) = (tensor![[1, 2], [3, 4]], tensor![[5, 6], [7, 8]]);
/// let mut out: BoundedTensor<i32, shape![Dyn, 2], 2> = multiplex(&[a, b], &tensor![[1]]).run_bounded().unwrap();
/// multiplex_bounded_into(&[a, b], &tensor![[0], [1]], &mut out).unwrap();
/// assert_eq!(out.as_slice(), &[1, 2, 7, 8]);
/// ```
#[doc(hidden)]
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
    multiplex(inputs, index).run_bounded_into(out)
}

/// A result tensor of `shape` in storage `D`, filled by `copy_rows` with a
/// constant row length (`row_len`: every dim static) or after [`rule()`]
/// (otherwise, so that nothing is allocated for shapes the rule rejects).
#[inline]
pub(super) fn new_output<T, O, D, C, I>(
    inputs: &[Tensor<T, impl Shape, C>],
    index: &Tensor<I, impl Shape, &[I]>,
    shape: O,
    row_len: Option<usize>,
) -> Result<Tensor<T, O, D>, MultiplexError>
where
    T: Copy + Default,
    O: Shape,
    D: OwnedStorage<T, O>,
    C: Storage<T>,
    I: IndexElement,
{
    let filled = || -> Result<Tensor<T, O, D>, MultiplexError> {
        let data = D::try_filled(&shape, T::default())?;
        Ok(Tensor::from_parts_unchecked(shape, data))
    };
    if let Some(row_len) = row_len {
        let mut out = filled()?;
        let idx = index.as_slice();
        // the output holds one row per index value: a mismatch would be a
        // bug, and takes the checked path below rather than a wrong copy
        if idx.len().checked_mul(row_len) == Some(out.as_slice().len()) {
            kernel::copy_rows(inputs, row_len, idx, out.as_mut_slice())?;
            return Ok(out);
        }
    }
    checked_output(
        inputs,
        index.dims(),
        index.as_slice(),
        // the rule has checked the dims: the output's value comes from the
        // operands' shape values (so a branded row count keeps its brand,
        // which no size can rebuild)
        |_checked| filled(),
        Tensor::as_mut_slice,
    )
}
