//! Multiplex's backward: the gradient of each candidate from the gradient
//! of the output, `dout`.
//!
//! ## The rule
//! `out[i] = inputs[index[i]][i]`, so `d inputs[k][r] = dout[r]` when
//! `r < index_rows` and `index[r] == k`, and `0` otherwise: each candidate
//! gets the rows of `dout` that chose it, and zeros for the rows no index
//! row chose, **including the rows past the index's rows** (with fewer
//! index rows than candidate rows). The index has no gradient.
//!
//! ## Where we differ from Paddle
//! Paddle 3.3.1's `multiplex_grad` returns each candidate's gradient shaped
//! like the **output** (`[index_rows] + candidate dims[1..]`), not like the
//! candidate, when the index has fewer rows than the candidates
//! (`tests/vectors/grad/multiplex_grad.json`, the cases with a `note`).
//! Here a candidate's gradient always has the candidate's shape (its type):
//! the rows past the index's rows are zeros, Paddle's rows are the first
//! `index_rows` of ours. The conformance tool compares those first rows and
//! checks that the rest are zero.
//!
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::multiplex_backward;
//! let a = tensor![[1.0f32, 2.0], [3.0, 4.0], [5.0, 6.0]];
//! let b = tensor![[10.0f32, 20.0], [30.0, 40.0], [50.0, 60.0]];
//! let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
//! // the forward output has the index's 2 rows: so has dout
//! let dout = Tensor::<f32, shape![2, 2]>::from_array([[0.5, -1.0], [2.0, 3.0]]);
//! let [da, db] = multiplex_backward(&[a, b], &index, &dout).unwrap();
//! // each gradient has its candidate's shape, [3, 2]; row 2 was not chosen
//! let _: &Tensor<f32, shape![3, 2]> = &da;
//! assert_eq!(da.as_slice(), &[0.0, 0.0, 2.0, 3.0, 0.0, 0.0]);
//! assert_eq!(db.as_slice(), &[0.5, -1.0, 0.0, 0.0, 0.0, 0.0]);
//! ```
//! A `dout` of another shape than the output does not compile
//! (`ui-tests/grad/fail/multiplex_dout_shape.rs`):
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let a = Tensor::<f32, shape![3, 2]>::full(1.0);
//! let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
//! let dout = Tensor::<f32, shape![3, 2]>::full(1.0); // the output is [2, 2]
//! let _ = shapecheck::multiplex_backward(&[a, a], &index, &dout);
//! ```

use super::bounds::{
    CandidateCount, IndexElement, IndexShape, MultiplexIndex, MultiplexOut, MultiplexShapes,
    RowsFit,
};
use super::kernel::check_index_values;
use super::rule::{rule, MultiplexPlan};
use super::MultiplexError;
use crate::dims::{Dims, ShapeError};
use crate::shape::Shape;
use crate::storage::{OwnedStorage, ResultStorage};
use crate::storage::{Storage, StorageMut};
use crate::tensor::Tensor;

/// The gradient of each candidate of [`multiplex`](super::multiplex), typed
/// as the candidates (`S`): row `r` of candidate `k`'s gradient is row `r`
/// of `dout` if `index[r] == k`, zeros otherwise (rows past the index's rows
/// too: Paddle returns output-shaped gradients there, see the
/// [module docs](self)).
///
/// `dout` has the forward output's type, [`MultiplexOut`]: a `dout` of
/// another static shape does not compile. The rules checked at run time are
/// the forward's (with [`Dyn`](crate::Dyn) dims: the candidates' shapes, the
/// index rows), `dout`'s run-time dims against the output's
/// ([`MultiplexError::DoutShape`]), and every index value; all before
/// anything is written. The results are stored as the candidates' shape
/// chooses (inline for static shapes: no heap).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{multiplex_backward, MultiplexError};
/// let a = tensor![[1.0f64, 2.0], [3.0, 4.0]];
/// let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [1]]);
/// let dout = tensor![[1.0f64, 2.0], [3.0, 4.0]];
/// let [da, db] = multiplex_backward(&[a, a], &index, &dout).unwrap();
/// assert_eq!((da.as_slice(), db.as_slice()), (&[0.0; 4][..], &[1.0, 2.0, 3.0, 4.0][..]));
/// let bad = Tensor::<i32, shape![2, 1]>::from_array([[1], [2]]);
/// let err = multiplex_backward(&[a, a], &bad, &dout).unwrap_err();
/// assert_eq!(err, MultiplexError::IndexOutOfRange { row: 1, value: 2, candidates: 2 });
/// ```
#[allow(clippy::type_complexity)]
pub fn multiplex_backward<T, S, B, I, IS, BI, BD, const K: usize>(
    inputs: &[Tensor<T, S, B>; K],
    index: &Tensor<I, IS, BI>,
    dout: &Tensor<T, MultiplexOut<S, IndexShape<I, IS>>, BD>,
) -> Result<[Tensor<T, S, <B as ResultStorage<T, S>>::Out>; K], MultiplexError>
where
    T: Copy + Default,
    S: MultiplexShapes<IndexShape<I, IS>>,
    B: ResultStorage<T, S>,
    I: MultiplexIndex<IS>,
    IS: Shape,
    BI: Storage<I>,
    BD: Storage<T>,
{
    let () = CandidateCount::<K>::AT_LEAST_TWO;
    let () = RowsFit::<S, IndexShape<I, IS>>::CHECK;
    let index = I::view(index);
    let row_len = checks(inputs, &index, dout)?;
    // the candidates are in memory: their shape's element count fits (a
    // heap result aborts on out-of-memory, as every std allocation)
    let mut grads = inputs.each_ref().map(|c| {
        Tensor::from_parts_unchecked(
            *c.shape(),
            <B as ResultStorage<T, S>>::Out::filled(c.shape(), T::default()),
        )
    });
    let mut slices = grads.each_mut().map(Tensor::as_mut_slice);
    scatter_rows(row_len, index.as_slice(), dout.as_slice(), &mut slices);
    Ok(grads)
}

/// [`multiplex_backward`] into `grads`, one caller's tensor per candidate
/// (any storage: tensors over `&mut [T]` buffers work without a heap),
/// typed as the candidates. On any error every gradient is left untouched.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::multiplex_backward_into;
/// let a = Tensor::<f32, shape![3, 2]>::full(1.0);
/// let index = Tensor::<i32, shape![2, 1]>::from_array([[0], [1]]);
/// let dout = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
/// let (mut ba, mut bb) = ([9.0f32; 6], [9.0f32; 6]);
/// let mut grads = [
///     Tensor::<f32, shape![3, 2], &mut [f32]>::with_shape(Default::default(), &mut ba[..]).unwrap(),
///     Tensor::<f32, shape![3, 2], &mut [f32]>::with_shape(Default::default(), &mut bb[..]).unwrap(),
/// ];
/// multiplex_backward_into(&[a, a], &index, &dout, &mut grads).unwrap();
/// assert_eq!(ba, [1.0, 2.0, 0.0, 0.0, 0.0, 0.0]);
/// assert_eq!(bb, [0.0, 0.0, 3.0, 4.0, 0.0, 0.0]);
/// ```
pub fn multiplex_backward_into<T, S, B, I, IS, BI, BD, BG, const K: usize>(
    inputs: &[Tensor<T, S, B>; K],
    index: &Tensor<I, IS, BI>,
    dout: &Tensor<T, MultiplexOut<S, IS>, BD>,
    grads: &mut [Tensor<T, S, BG>; K],
) -> Result<(), MultiplexError>
where
    T: Copy + Default,
    S: MultiplexShapes<IS>,
    B: Storage<T>,
    I: IndexElement,
    IS: Shape,
    BI: Storage<I>,
    BD: Storage<T>,
    BG: StorageMut<T>,
{
    let () = CandidateCount::<K>::AT_LEAST_TWO;
    let () = RowsFit::<S, IS>::CHECK;
    let row_len = checks(inputs, index, dout)?;
    if !S::IS_STATIC {
        for (c, g) in inputs.iter().zip(grads.iter()) {
            if c.dims() != g.dims() {
                return Err(ShapeError::OutputShape {
                    expected: c.dims(),
                    found: g.dims(),
                }
                .into());
            }
        }
    }
    let mut slices = grads.each_mut().map(Tensor::as_mut_slice);
    scatter_rows(row_len, index.as_slice(), dout.as_slice(), &mut slices);
    Ok(())
}

/// The static forms' checks; the row length. With every dim static the
/// types proved the shape rules and `dout`'s shape: only the index values
/// are left. Otherwise the rule runs, and `dout`'s dims are compared with
/// the output's.
#[inline(always)]
fn checks<T, S, B, I, IS, BI, BD, const K: usize>(
    inputs: &[Tensor<T, S, B>; K],
    index: &Tensor<I, IS, BI>,
    dout: &Tensor<T, MultiplexOut<S, IS>, BD>,
) -> Result<usize, MultiplexError>
where
    T: Copy,
    S: MultiplexShapes<IS>,
    B: Storage<T>,
    I: IndexElement,
    IS: Shape,
    BI: Storage<I>,
    BD: Storage<T>,
{
    if let (true, true, Some(row_len)) = (S::IS_STATIC, IS::IS_STATIC, RowsFit::<S, IS>::ROW_LEN) {
        check_index_values(index.as_slice(), K)?;
        return Ok(row_len);
    }
    let plan = rule(inputs.iter().map(|c| Ok(c.dims())), index.dims())?;
    check_dout(&plan, index.as_slice(), K, dout.dims(), dout.as_slice())?;
    Ok(plan.row_len)
}

/// After [`rule()`]: `dout`'s dims are the output's, every length matches
/// its dims, every index value names a candidate.
fn check_dout<T, I: IndexElement>(
    plan: &MultiplexPlan,
    index: &[I],
    count: usize,
    dout_dims: Dims,
    dout: &[T],
) -> Result<(), MultiplexError> {
    if dout_dims != plan.dims {
        return Err(MultiplexError::DoutShape {
            out: plan.dims,
            dout: dout_dims,
        });
    }
    if plan.dims.try_numel()? != dout.len() {
        return Err(ShapeError::DataLength {
            shape: dout_dims,
            numel: plan.dims.try_numel()?,
            len: dout.len(),
        }
        .into());
    }
    let rows = plan.dims.first().copied().unwrap_or(0);
    if index.len() != rows {
        return Err(ShapeError::DataLength {
            shape: Dims::new(&[rows, 1])?,
            numel: rows,
            len: index.len(),
        }
        .into());
    }
    check_index_values(index, count)
}

/// The write, after every check: each gradient zeroed, then row `r` of
/// `dout` into row `r` of gradient `index[r]`. Every value was checked:
/// the checked slicing below cannot fail (and would skip, not panic).
#[inline(always)]
pub(crate) fn scatter_rows<T: Copy + Default, I: IndexElement>(
    row_len: usize,
    index: &[I],
    dout: &[T],
    grads: &mut [&mut [T]],
) {
    for g in grads.iter_mut() {
        g.fill(T::default());
    }
    if row_len == 0 {
        return;
    }
    for (row, (&k, src)) in index.iter().zip(dout.chunks_exact(row_len)).enumerate() {
        let grad = usize::try_from(k.to_i64())
            .ok()
            .and_then(|k| grads.get_mut(k));
        let start = row.checked_mul(row_len);
        let dst = grad
            .zip(start)
            .and_then(|(g, s)| g.get_mut(s..s.checked_add(row_len)?));
        if let Some(dst) = dst {
            dst.copy_from_slice(src);
        }
    }
}

/// The dynamic path's checks (the forward's rule, `dout`, the index
/// values): the plan. [`multiplex_backward_slices`] and
/// `DynTensor::multiplex_backward` call it before writing or allocating.
pub(crate) fn dynamic_checks<T, I: IndexElement>(
    candidates: impl ExactSizeIterator<Item = Result<Dims, ShapeError>>,
    index_dims: Dims,
    index: &[I],
    dout_dims: Dims,
    dout: &[T],
) -> Result<MultiplexPlan, MultiplexError> {
    let count = candidates.len();
    let plan = rule(candidates, index_dims)?;
    check_dout(&plan, index, count, dout_dims, dout)?;
    Ok(plan)
}

/// [`multiplex_backward`] over run-time dims, no heap: `candidates` are the
/// forward's candidate dims, `grads` one buffer per candidate, each of its
/// candidate's element count. Checks, in order: the forward's rule, `dout`'s
/// dims against the output's ([`MultiplexError::DoutShape`]) and its length,
/// the index values, then the gradients' count and lengths; only then is
/// anything written.
///
/// ```
/// use shapecheck::ops::multiplex::{multiplex_backward_slices, MultiplexError};
/// let cands: [&[usize]; 2] = [&[3, 2], &[3, 2]];
/// let (mut ga, mut gb) = ([9; 6], [9; 6]);
/// let dout = [1, 2, 3, 4];
/// multiplex_backward_slices(&cands, &[2, 1], &[1i32, 0], &[2, 2], &dout, &mut [&mut ga, &mut gb]).unwrap();
/// assert_eq!((ga, gb), ([0, 0, 3, 4, 0, 0], [1, 2, 0, 0, 0, 0]));
/// // dout shaped like the candidates, not like the output: nothing written
/// let err = multiplex_backward_slices(&cands, &[2, 1], &[1i32, 0], &[3, 2], &[0; 6], &mut [&mut ga, &mut gb])
///     .unwrap_err();
/// let dims = |d: &[usize]| shapecheck::Dims::new(d).unwrap();
/// assert_eq!(err, MultiplexError::DoutShape { out: dims(&[2, 2]), dout: dims(&[3, 2]) });
/// assert_eq!(err.rule(), "multiplex/dout-shape");
/// assert_eq!(ga, [0, 0, 3, 4, 0, 0]);
/// ```
pub fn multiplex_backward_slices<T: Copy + Default, I: IndexElement>(
    candidates: &[&[usize]],
    index_dims: &[usize],
    index: &[I],
    dout_dims: &[usize],
    dout: &[T],
    grads: &mut [&mut [T]],
) -> Result<(), MultiplexError> {
    let plan = dynamic_checks(
        candidates.iter().map(|c| Dims::new(c)),
        Dims::new(index_dims)?,
        index,
        Dims::new(dout_dims)?,
        dout,
    )?;
    if grads.len() != candidates.len() {
        return Err(MultiplexError::GradCount {
            candidates: candidates.len(),
            grads: grads.len(),
        });
    }
    for (c, g) in candidates.iter().zip(grads.iter()) {
        let shape = Dims::new(c)?;
        let numel = shape.try_numel()?;
        if numel != g.len() {
            return Err(ShapeError::DataLength {
                shape,
                numel,
                len: g.len(),
            }
            .into());
        }
    }
    scatter_rows(plan.row_len, index, dout, grads);
    Ok(())
}
