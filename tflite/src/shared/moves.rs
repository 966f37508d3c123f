//! What the ops that move data share (`CONCATENATION`, `PACK`, the
//! splits, the slices, `TRANSPOSE`, `GATHER`, ...): an axis as TFLite
//! counts it (negative from the end), a shape's element count as a
//! checked error, an output shape as an [`OpShape`], the one scale and
//! zero point an int8 join requires, the constant int32 operands
//! their shape rules read from a model, the one strided walk most of
//! their kernels are, and their interpreter steps' plumbing: where their
//! operands live in the interpreter's buffers, of any type it keeps (the
//! kernels are generic over the element).

use core::ops::Range;

use crate::arith::dims::element_count;
use crate::format::array::Array;
use crate::format::error::{OperandProblem, TfliteError};
use crate::format::model::{Model, ModelTensor, Operator};
use crate::format::types::TensorType;
use crate::kernel::checker::{split, Checker};
use crate::kernel::shape::{operand, operand_problem, OpShape, MAX_DIMS};
use crate::kernel::step::Buffers;

/// The most inputs TFLite Micro joins (`kMaxInputNum`).
pub const MAX_JOINED: usize = 10;

/// The most outputs a split writes here.
pub const MAX_SPLITS: usize = 16;

/// A count as the `value` of a [`TfliteError::KernelParam`].
pub(crate) fn wide(v: usize) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// `axis` of `rank` dims as an index, a negative axis counted from the
/// end (TFLite's rule: `axis` in `[−rank, rank)`).
pub(crate) fn positive_axis(
    what: &'static str,
    axis: i32,
    rank: usize,
) -> Result<usize, TfliteError> {
    let signed = i64::from(axis);
    let index = if signed < 0 {
        signed.saturating_add(wide(rank))
    } else {
        signed
    };
    usize::try_from(index)
        .ok()
        .filter(|&a| a < rank)
        .ok_or(TfliteError::KernelParam {
            what,
            value: signed,
            rule: "an axis must be in [−rank, rank), a negative one counted from the end",
        })
}

/// The element count of `shape`, or the error naming `what` when it
/// overflows.
pub(crate) fn count(what: &'static str, shape: &[usize]) -> Result<usize, TfliteError> {
    element_count(shape).ok_or(TfliteError::KernelParam {
        what,
        value: i64::MAX,
        rule: "its element count overflows",
    })
}

/// `dims` as an [`OpShape`], or the error for more than [`MAX_DIMS`] dims.
pub(crate) fn op_shape(what: &'static str, dims: &[usize]) -> Result<OpShape, TfliteError> {
    OpShape::new(dims).ok_or(TfliteError::KernelParam {
        what,
        value: wide(dims.len()),
        rule: "a shape has at most 6 dims",
    })
}

/// Checks an input's scale and zero point are the output's: the int8
/// joins (`CONCATENATION`, `PACK`) copy the int8 values unchanged, which
/// is right only then (TFLite Micro's `concatenation.cc` checks it).
pub(crate) fn same_quantization(
    what: &'static str,
    input: (f32, i32),
    output: (f32, i32),
) -> Result<(), TfliteError> {
    if input.0 != output.0 {
        return Err(TfliteError::KernelScale {
            what,
            value: f64::from(input.0),
            rule: "an int8 join copies its inputs' values: each input's scale must be the output's",
        });
    }
    if input.1 != output.1 {
        return Err(TfliteError::KernelParam {
            what,
            value: i64::from(input.1),
            rule: "an int8 join copies its inputs' values: each input's zero point must be the output's",
        });
    }
    Ok(())
}

/// The operator's input `k` as constant int32 values (a scalar or a
/// vector), or the error naming it: absent, not INT32, or not a constant.
pub(crate) fn constant_i32<'m>(
    model: &Model<'m>,
    op: &Operator<'_>,
    k: usize,
    name: &'static str,
) -> Result<Array<'m, i32>, TfliteError> {
    let t = operand(model, op, k, name)?;
    if t.dtype() != TensorType::Int32 {
        return Err(operand_problem(
            op,
            name,
            &t,
            OperandProblem::Dtype {
                expected: TensorType::Int32,
                found: t.dtype(),
            },
        ));
    }
    t.data_as::<i32>()
        .filter(|a| a.len() == t.elements() && !t.data().is_empty())
        .ok_or(operand_problem(
            op,
            name,
            &t,
            OperandProblem::Constant { expected: true },
        ))
}

/// The int32 values of `values` into a fixed array of at most
/// [`MAX_DIMS`], with their count; fails naming `what` past that.
pub(crate) fn small_i32(
    what: &'static str,
    values: &Array<'_, i32>,
) -> Result<([i32; MAX_DIMS], usize), TfliteError> {
    let mut out = [0i32; MAX_DIMS];
    if values.len() > MAX_DIMS {
        return Err(TfliteError::Length {
            what,
            expected: MAX_DIMS,
            actual: values.len(),
        });
    }
    for (slot, v) in out.iter_mut().zip(values.iter()) {
        *slot = v;
    }
    Ok((out, values.len()))
}

/// The error: operator `op`'s options are not the `expected` table.
pub(crate) fn options_mismatch(op: &Operator<'_>, expected: &'static str) -> TfliteError {
    TfliteError::OptionsMismatch {
        place: crate::format::error::Place::Operator {
            index: op.index(),
            op: Some(op.op()),
        },
        expected,
        found: 0,
    }
}

/// The shapes of the operator's inputs `from..`, at most `N` of them, as
/// shapes and their count (the joins' operands).
pub(crate) fn input_shapes<const N: usize>(
    model: &Model<'_>,
    op: &Operator<'_>,
    from: usize,
    what: &'static str,
) -> Result<([OpShape; N], usize), TfliteError> {
    let empty = op_shape(what, &[])?;
    let mut shapes = [empty; N];
    let n = op.inputs().len().saturating_sub(from);
    if n > N {
        return Err(TfliteError::KernelParam {
            what,
            value: wide(n),
            rule: "TFLite Micro joins at most 10 inputs",
        });
    }
    for (k, slot) in shapes.iter_mut().enumerate().take(n) {
        let t = operand(model, op, from + k, "input")?;
        *slot = crate::kernel::shape::shape_of(op, "input", &t)?;
    }
    Ok((shapes, n))
}

/// The most dims [`strided_copy`] walks.
pub(crate) const MAX_WALK: usize = 6;

/// Writes `output` (row-major over `counts`) from `input` read as a
/// strided view: output index `(i_0, …, i_n)` reads input element
/// `base + Σ i_a · steps[a]` (a step may be negative). Every index the
/// walk reads is checked to lie inside `input` before anything is
/// written; `output` must hold the product of `counts` (checked).
pub(crate) fn strided_copy<T: Copy>(
    what: &'static str,
    input: &[T],
    base: usize,
    counts: &[usize],
    steps: &[isize],
    output: &mut [T],
) -> Result<(), TfliteError> {
    let total = count(what, counts)?;
    if counts.len() != steps.len() || counts.len() > MAX_WALK || total != output.len() {
        return Err(TfliteError::Length {
            what,
            expected: total,
            actual: output.len(),
        });
    }
    if total == 0 {
        return Ok(());
    }
    let outside = TfliteError::KernelParam {
        what,
        value: wide(base),
        rule: "a read of the input falls outside it",
    };
    // the lowest and the highest index the walk reads
    let start = isize::try_from(base).map_err(|_| outside)?;
    let (mut lo, mut hi) = (start, start);
    for (&c, &s) in counts.iter().zip(steps) {
        let span = isize::try_from(c - 1)
            .ok()
            .and_then(|c| c.checked_mul(s))
            .ok_or(outside)?;
        if span > 0 {
            hi = hi.checked_add(span).ok_or(outside)?;
        } else {
            lo = lo.checked_add(span).ok_or(outside)?;
        }
    }
    if lo < 0 || usize::try_from(hi).map_or(true, |h| h >= input.len()) {
        return Err(outside);
    }
    strided_walk(input, start, counts, steps, output);
    Ok(())
}

/// [`strided_copy`]'s walk once its checks hold: output index
/// `(i_0, …, i_n)` reads input element `start + Σ i_a · steps[a]`. A read
/// outside `input` (which the checks rule out) leaves its output as it
/// was; it never panics.
pub(crate) fn strided_walk<T: Copy>(
    input: &[T],
    start: isize,
    counts: &[usize],
    steps: &[isize],
    output: &mut [T],
) {
    let mut store = [0usize; MAX_WALK];
    let index = store.get_mut(..counts.len()).unwrap_or(&mut []);
    let mut at = start;
    for y in output.iter_mut() {
        if let Some(&x) = usize::try_from(at).ok().and_then(|i| input.get(i)) {
            *y = x;
        }
        // the next output index: the last axis moves first
        for ((i, &c), &s) in index.iter_mut().zip(counts).zip(steps).rev() {
            *i += 1;
            at = at.wrapping_add(s);
            if *i < c {
                break;
            }
            *i = 0;
            at = at.wrapping_sub(s.wrapping_mul(isize::try_from(c).unwrap_or(0)));
        }
    }
}

// The interpreter's side: an op that moves data runs the same generic
// kernel on int8, int16, int32 or f32 activations; its step says where its operands
// live, and these pick the buffer of their type and borrow the operands
// from it.

/// A kernel of one input and one output, on any element type.
pub(crate) trait MoveOne {
    /// Runs the kernel.
    fn apply<T: Copy>(&self, input: &[T], output: &mut [T]) -> Result<(), TfliteError>;
}

/// A kernel of several inputs and one output (the joins).
pub(crate) trait MoveJoin {
    /// Runs the kernel.
    fn apply<T: Copy>(&self, inputs: &[&[T]], output: &mut [T]) -> Result<(), TfliteError>;
}

/// A kernel of one input and several outputs (the splits).
pub(crate) trait MoveCut {
    /// Runs the kernel.
    fn apply<T: Copy>(&self, input: &[T], outputs: &mut [&mut [T]]) -> Result<(), TfliteError>;
}

/// Where a step's activations live: their element type and
/// their ranges in that type's buffer.
#[derive(Clone, Debug)]
#[doc(hidden)]
pub struct Places<const N: usize> {
    pub dtype: TensorType,
    pub one: Range<usize>,
    pub many: [Range<usize>; N],
    pub count: usize,
}

impl<const N: usize> crate::base::write_rust::WriteRust for Places<N> {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "Places",
            &[
                ("dtype", &self.dtype),
                ("one", &self.one),
                ("many", &self.many),
                ("count", &self.count),
            ],
        )
    }
}

/// Runs `k` on `input` into `output` (`places.one` is the input,
/// `places.many[0]` the output).
pub(crate) fn run_one(
    b: &mut Buffers<'_>,
    places: &Places<1>,
    k: &impl MoveOne,
) -> Result<(), TfliteError> {
    let overlap = b.overlap;
    let [output] = &places.many;
    let input = &places.one;
    match places.dtype {
        TensorType::Int8 => {
            let (x, y) = split(b.int8, input, output).ok_or(overlap)?;
            k.apply(x, y)
        }
        TensorType::Int16 => {
            let (x, y) = split(b.int16, input, output).ok_or(overlap)?;
            k.apply(x, y)
        }
        TensorType::Int32 => {
            let (x, y) = split(b.int32, input, output).ok_or(overlap)?;
            k.apply(x, y)
        }
        _ => {
            let (x, y) = split(b.float32, input, output).ok_or(overlap)?;
            k.apply(x, y)
        }
    }
}

/// Runs `k` on the inputs `places.many` into the output `places.one`.
pub(crate) fn run_join(
    b: &mut Buffers<'_>,
    places: &Places<MAX_JOINED>,
    k: &impl MoveJoin,
) -> Result<(), TfliteError> {
    let overlap = b.overlap;
    let inputs = places.many.get(..places.count).unwrap_or(&[]);
    let output = &places.one;
    match places.dtype {
        TensorType::Int8 => join_in(b.int8, inputs, output, k).ok_or(overlap)?,
        TensorType::Int16 => join_in(b.int16, inputs, output, k).ok_or(overlap)?,
        TensorType::Int32 => join_in(b.int32, inputs, output, k).ok_or(overlap)?,
        _ => join_in(b.float32, inputs, output, k).ok_or(overlap)?,
    }
}

/// Runs `k` on the input `places.one` into the outputs `places.many`.
pub(crate) fn run_cut(
    b: &mut Buffers<'_>,
    places: &Places<MAX_SPLITS>,
    k: &impl MoveCut,
) -> Result<(), TfliteError> {
    let overlap = b.overlap;
    let outputs = places.many.get(..places.count).unwrap_or(&[]);
    let input = &places.one;
    match places.dtype {
        TensorType::Int8 => cut_in(b.int8, input, outputs, k).ok_or(overlap)?,
        TensorType::Int16 => cut_in(b.int16, input, outputs, k).ok_or(overlap)?,
        TensorType::Int32 => cut_in(b.int32, input, outputs, k).ok_or(overlap)?,
        _ => cut_in(b.float32, input, outputs, k).ok_or(overlap)?,
    }
}

/// `k` on `arena[inputs]` into `arena[output]`, or `None` when an input
/// overlaps the output or a range lies outside.
fn join_in<T: Copy>(
    arena: &mut [T],
    inputs: &[Range<usize>],
    output: &Range<usize>,
    k: &impl MoveJoin,
) -> Option<Result<(), TfliteError>> {
    let (before, rest) = arena.split_at_mut(output.start.min(arena.len()));
    let (out, after) = rest.split_at_mut(output.len().min(rest.len()));
    if out.len() != output.len() {
        return None;
    }
    let (before, after) = (&*before, &*after);
    let mut xs: [&[T]; MAX_JOINED] = [&[]; MAX_JOINED];
    for (x, r) in xs.iter_mut().zip(inputs) {
        *x = if r.end <= output.start {
            before.get(r.clone())?
        } else if r.start >= output.end {
            after.get(r.start - output.end..r.end - output.end)?
        } else {
            return None;
        };
    }
    Some(k.apply(xs.get(..inputs.len())?, out))
}

/// `k` on `arena[input]` into `arena[outputs]`, or `None` when two of
/// the ranges overlap or one lies outside.
fn cut_in<T: Copy>(
    arena: &mut [T],
    input: &Range<usize>,
    outputs: &[Range<usize>],
    k: &impl MoveCut,
) -> Option<Result<(), TfliteError>> {
    // the ranges in the arena's order: the input first (index n), then
    // each output k, sorted by where they start
    let n = outputs.len();
    let mut order = [0usize; MAX_SPLITS + 1];
    for (k, o) in order.iter_mut().enumerate().take(n + 1) {
        *o = k;
    }
    let order = order.get_mut(..n + 1)?;
    let range_of = |k: usize| if k == n { Some(input) } else { outputs.get(k) };
    order.sort_unstable_by_key(|&k| range_of(k).map_or(usize::MAX, |r| r.start));
    let mut ys: [&mut [T]; MAX_SPLITS] = Default::default();
    let mut x: Option<&[T]> = None;
    let mut rest = arena;
    let mut at = 0usize;
    for &k in order.iter() {
        let r = range_of(k)?;
        let skip = r.start.checked_sub(at)?;
        if rest.len() < skip.checked_add(r.len())? {
            return None;
        }
        let (_, tail) = core::mem::take(&mut rest).split_at_mut(skip);
        let (piece, tail) = tail.split_at_mut(r.len());
        rest = tail;
        at = r.end;
        if k == n {
            x = Some(piece);
        } else {
            *ys.get_mut(k)? = piece;
        }
    }
    Some(k.apply(x?, ys.get_mut(..n)?))
}

/// The element type of a data-moving op's operand `t`: one the
/// interpreter keeps (int8, int16, int32, f32).
fn moved_type(
    c: &Checker<'_>,
    name: &'static str,
    t: &ModelTensor<'_>,
) -> Result<TensorType, TfliteError> {
    match t.dtype() {
        TensorType::Int8 | TensorType::Int16 | TensorType::Int32 | TensorType::Float32 => {
            Ok(t.dtype())
        }
        found => Err(c.fail(
            name,
            t,
            OperandProblem::Dtype {
                expected: TensorType::Int8,
                found,
            },
        )),
    }
}

/// The places of a one-input, one-output step: input `k` and output 0,
/// both activations of one type; and the input tensor.
pub(crate) fn prepare_one<'m>(
    c: &Checker<'m>,
    k: usize,
) -> Result<(Places<1>, ModelTensor<'m>), TfliteError> {
    let input = c.input(k, "input")?;
    let dtype = moved_type(c, "input", &input)?;
    c.dtype("output", &c.output, dtype)?;
    let places = Places {
        dtype,
        one: c.activation("input", &input)?.range,
        many: [c.activation("output", &c.output)?.range],
        count: 1,
    };
    Ok((places, input))
}

/// The places of a join: inputs `0..n` (at most [`MAX_JOINED`]) and
/// output 0, all activations of one type; and the inputs' tensors.
pub(crate) fn prepare_join<'m>(
    c: &Checker<'m>,
) -> Result<(Places<MAX_JOINED>, [Option<ModelTensor<'m>>; MAX_JOINED]), TfliteError> {
    let dtype = moved_type(c, "output", &c.output)?;
    let n = c.op.inputs().len();
    let mut tensors = [None; MAX_JOINED];
    let mut many: [Range<usize>; MAX_JOINED] = Default::default();
    if n == 0 || n > MAX_JOINED {
        return Err(TfliteError::KernelParam {
            what: "a join's input count",
            value: wide(n),
            rule: "TFLite Micro joins 1 to 10 inputs",
        });
    }
    for (k, (t, r)) in tensors.iter_mut().zip(many.iter_mut()).enumerate().take(n) {
        let input = c.input(k, "input")?;
        c.dtype("input", &input, dtype)?;
        *r = c.activation("input", &input)?.range;
        *t = Some(input);
    }
    let places = Places {
        dtype,
        one: c.activation("output", &c.output)?.range,
        many,
        count: n,
    };
    Ok((places, tensors))
}

/// The places of a cut: input `k` and `shapes.len()` outputs (at most
/// [`MAX_SPLITS`]), each checked to have its shape, all activations of one
/// type.
pub(crate) fn prepare_cut(
    c: &Checker<'_>,
    k: usize,
    shapes: &[OpShape],
) -> Result<Places<MAX_SPLITS>, TfliteError> {
    let input = c.input(k, "input")?;
    let dtype = moved_type(c, "input", &input)?;
    let n = shapes.len();
    if c.op.outputs().len() != n || n > MAX_SPLITS {
        return Err(TfliteError::KernelParam {
            what: "a split's output count",
            value: wide(c.op.outputs().len()),
            rule: "a split writes one output per piece",
        });
    }
    let mut many: [Range<usize>; MAX_SPLITS] = Default::default();
    for (j, (r, shape)) in many.iter_mut().zip(shapes).enumerate() {
        let output =
            c.op.output(j)
                .and_then(|i| c.model.tensor(i))
                .ok_or(TfliteError::MissingOperand {
                    operator: c.op.index(),
                    op: c.op.op(),
                    operand: "output",
                })?;
        c.dtype("output", &output, dtype)?;
        c.rank("output", &output, shape.dims().len())?;
        for (axis, &d) in shape.dims().iter().enumerate() {
            c.dim("output", &output, axis, d)?;
        }
        *r = c.activation("output", &output)?.range;
    }
    Ok(Places {
        dtype,
        one: c.activation("input", &input)?.range,
        many,
        count: n,
    })
}
