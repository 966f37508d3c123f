//! What the ops that move data share (`CONCATENATION`, `PACK`, the
//! splits, the slices, `TRANSPOSE`, `GATHER`, ...): an axis as TFLite
//! counts it (negative from the end), a shape's element count as a
//! checked error, an output shape as an [`OpShape`], the one scale and
//! zero point an int8 join requires, and the constant int32 operands
//! their shape rules read from a model.

use crate::array::Array;
use crate::dims::element_count;
use crate::error::{OperandProblem, TfliteError};
use crate::model::{Model, Operator};
use crate::ops::{operand, operand_problem, OpShape, MAX_DIMS};
use crate::types::TensorType;

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
    element_count(shape).ok_or(TfliteError::Length {
        what,
        expected: usize::MAX,
        actual: 0,
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

/// An operator's options table as the op modules decode it: each field
/// read with its schema default (all of them when the table is absent),
/// a layout fault naming the field and the operator.
#[derive(Clone, Copy)]
pub(crate) struct OptionsReader<'a> {
    pub(crate) table: Option<crate::flatbuffer::Table<'a>>,
    pub(crate) place: crate::error::Place,
    pub(crate) len: usize,
}

impl OptionsReader<'_> {
    fn fault(&self, what: &'static str) -> impl Fn(crate::flatbuffer::Fault) -> TfliteError {
        let (place, len) = (self.place, self.len);
        move |f| TfliteError::from_fault(f, place, what, len)
    }

    /// Field `id`, an `int`.
    pub(crate) fn i32(
        &self,
        id: usize,
        default: i32,
        what: &'static str,
    ) -> Result<i32, TfliteError> {
        match self.table {
            Some(t) => t.i32(id, default).map_err(self.fault(what)),
            None => Ok(default),
        }
    }

    /// Field `id`, a `byte` (an enum).
    pub(crate) fn i8(&self, id: usize, default: i8, what: &'static str) -> Result<i8, TfliteError> {
        match self.table {
            Some(t) => t.i8(id, default).map_err(self.fault(what)),
            None => Ok(default),
        }
    }

    /// Field `id`, a `bool` (false by default).
    pub(crate) fn bool(&self, id: usize, what: &'static str) -> Result<bool, TfliteError> {
        match self.table {
            Some(t) => t.bool(id).map_err(self.fault(what)),
            None => Ok(false),
        }
    }

    /// The error: field `what` holds `value`, which the schema's enum
    /// does not name.
    pub(crate) fn unknown_enum(&self, what: &'static str, value: i8) -> TfliteError {
        TfliteError::UnknownEnum {
            place: self.place,
            what,
            value,
        }
    }
}

/// The error: operator `op`'s options are not the `expected` table.
pub(crate) fn options_mismatch(op: &Operator<'_>, expected: &'static str) -> TfliteError {
    TfliteError::OptionsMismatch {
        place: crate::error::Place::Operator {
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
        *slot = crate::ops::shape_of(op, "input", &t)?;
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
    Ok(())
}
