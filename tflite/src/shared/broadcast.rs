//! The broadcast the binary element-wise ops share, as numpy and TFLite
//! Micro broadcast: the one shape rule ([`broadcast_shape`], and
//! [`output_shape`], the rows' rule), the one broadcasting loop
//! ([`broadcast_binary`]) and the integer lanes it runs on.

use crate::arith::dims::{aligned, check_length, MAX_RANK};
use crate::format::error::TfliteError;
use crate::format::model::{Model, Operator};
use crate::format::values::Values;
use crate::kernel::shape::{operand, shape_of, OpShape};

/// The activations' type of an `ADD`: int8, or int16 (TFLite's 16x8
/// mode, the general path with `pot_scale_int16` false).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Width {
    Int8,
    Int16,
}

impl Width {
    /// The bits each input is shifted left by before its rescaling
    /// (TFLite's `left_shift`: 20 for int8, 15 for int16).
    pub(crate) const fn left_shift(self) -> u32 {
        match self {
            Width::Int8 => 20,
            Width::Int16 => 15,
        }
    }
}

/// The shape two operands broadcast to, as numpy and TFLite Micro
/// broadcast (`BroadcastBinaryOpSimple`, up to 6 dims here): the shapes
/// right-aligned (a shorter one has leading dims of 1), each output dim is
/// the inputs' dims where they are equal, or the other where one is 1 (so
/// 1 against 0 gives 0). Returns the output's dims and rank: the first
/// `rank` entries are the shape (`rank` is the longer input's rank), the
/// rest are 1. This is the one shape rule of [`add_int8`](crate::add_int8).
///
/// Fails with [`TfliteError::KernelParam`] for a rank above 6, and with
/// [`TfliteError::Broadcast`] where two dims differ and neither is 1.
///
/// ```
/// use shapecheck_tflite::{broadcast_shape, TfliteError};
///
/// let (dims, rank) = broadcast_shape(&[1, 5, 4, 6], &[6])?;
/// assert_eq!(&dims[..rank], &[1, 5, 4, 6]);
/// let (dims, rank) = broadcast_shape(&[3, 1], &[1, 4])?;
/// assert_eq!(&dims[..rank], &[3, 4]);
/// assert_eq!(broadcast_shape(&[], &[])?.1, 0); // two scalars
/// assert!(matches!(
///     broadcast_shape(&[2, 3], &[4]),
///     Err(TfliteError::Broadcast { axis: 1, first: 3, second: 4 })
/// ));
/// # Ok::<(), TfliteError>(())
/// ```
pub fn broadcast_shape(a: &[usize], b: &[usize]) -> Result<([usize; 6], usize), TfliteError> {
    let rank = a.len().max(b.len());
    if rank > MAX_RANK {
        return Err(TfliteError::KernelParam {
            what: "ADD's input rank",
            value: i64::try_from(rank).unwrap_or(i64::MAX),
            rule: "TFLite Micro broadcasts up to 6 dims",
        });
    }
    let mut dims = [1usize; MAX_RANK];
    for (axis, d) in dims.iter_mut().take(rank).enumerate() {
        let (first, second) = (aligned(a, rank, axis), aligned(b, rank, axis));
        *d = if first == second || second == 1 {
            first
        } else if first == 1 {
            second
        } else {
            return Err(TfliteError::Broadcast {
                axis,
                first,
                second,
            });
        };
    }
    Ok((dims, rank))
}

/// The one broadcasting loop of the binary element-wise kernels (`ADD`,
/// `SUB`, `MUL`, `DIV`, `SQUARED_DIFFERENCE`, `MAXIMUM`, `MINIMUM`,
/// `PRELU` in int8, `ADD` in int16, and `float_ops`' f32 `ADD`, `SUB`, `MUL` and
/// `SQUARED_DIFFERENCE`): `output[i] = f(a[i'], b[i''])`, the inputs broadcast as
/// [`broadcast_shape`] says, all row-major. Checks the shapes and every
/// length before writing: fails, with `output` untouched, when the shapes
/// do not broadcast or have more than 6 dims, an input's length is not its
/// shape's element count, or `output` is not as long as the broadcast
/// shape's count. Shapes equal once right-aligned take a path without
/// index arithmetic.
pub(crate) fn broadcast_binary<T, U, O, A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    output: &mut [O],
    f: impl Fn(T, U) -> O,
) -> Result<(), TfliteError>
where
    T: Copy,
    U: Copy,
    O: Copy,
    A: Values<T> + ?Sized,
    B: Values<U> + ?Sized,
{
    let (out_dims, rank) = broadcast_shape(a_shape, b_shape)?;
    let out_dims = out_dims.get(..rank).unwrap_or(&[]);
    check_length("first input", a_shape, a.count())?;
    check_length("second input", b_shape, b.count())?;
    check_length("output", out_dims, output.len())?;
    broadcast_binary_prechecked(a, a_shape, b, b_shape, output, f);
    Ok(())
}

/// [`broadcast_binary`] without its checks, for a caller that has made
/// them hold (the shapes broadcast, in at most 6 dims, and the lengths are
/// theirs): on operands that break them it writes what it writes, but
/// never panics (shapes that do not broadcast: nothing).
pub(crate) fn broadcast_binary_prechecked<T, U, O, A, B>(
    a: &A,
    a_shape: &[usize],
    b: &B,
    b_shape: &[usize],
    output: &mut [O],
    f: impl Fn(T, U) -> O,
) where
    T: Copy,
    U: Copy,
    O: Copy,
    A: Values<T> + ?Sized,
    B: Values<U> + ?Sized,
{
    let Ok((out_dims, rank)) = broadcast_shape(a_shape, b_shape) else {
        // the caller's shapes broadcast: not reached
        return;
    };
    let out_dims = out_dims.get(..rank).unwrap_or(&[]);
    let count = output.len();
    let (a_count, b_count) = (a.count(), b.count());
    // an output dim of 0 is an empty output where the checks hold
    if count == 0 || out_dims.contains(&0) {
        return;
    }
    if a_count == count && b_count == count {
        // the same shape once right-aligned (no dim of either is broadcast
        // when both counts are the output's, none being 0)
        for (y, (x1, x2)) in output.iter_mut().zip(a.run(0, count).zip(b.run(0, count))) {
            *y = f(x1, x2);
        }
        return;
    }
    let plan = Plan::new(a_shape, b_shape, out_dims, rank);
    plan.run(a, b, &f, output);
}

/// A quantized kernel's element: int8 or int16, widened to `i32` and back
/// (the clamp keeps a result inside the type). The kernels that run on
/// both (`ADD`, `MUL`, `QUANTIZE` from int8 to int8 or int16 to int16,
/// `MEAN`, `SUM`) are generic over it.
pub(crate) trait Lane: Copy + Into<i32> {
    /// The type's `ADD` arithmetic (its left shift, its range).
    const WIDTH: Width;
    /// The type's least value, as `i32`.
    const MIN: i32;
    /// The type's greatest value, as `i32`.
    const MAX: i32;

    /// `v`, already clamped inside the type, as the type (a plain
    /// narrowing, as TFLite's `static_cast`: no check in the inner loop).
    fn narrow(v: i32) -> Self;

    /// `v` clamped to the type's range, as the type (TFLite's clamp to
    /// `numeric_limits<T>` before its `static_cast`).
    #[inline(always)]
    fn saturate(v: i32) -> Self {
        Self::narrow(v.clamp(Self::MIN, Self::MAX))
    }
}

impl Lane for i8 {
    const WIDTH: Width = Width::Int8;
    const MIN: i32 = -128;
    const MAX: i32 = 127;

    #[inline(always)]
    fn narrow(v: i32) -> Self {
        v as i8
    }
}

impl Lane for i16 {
    const WIDTH: Width = Width::Int16;
    const MIN: i32 = -32768;
    const MAX: i32 = 32767;

    #[inline(always)]
    fn narrow(v: i32) -> Self {
        v as i16
    }
}

/// A broadcast as loops: the output's dims of more than 1, adjacent ones
/// merged where each input is broadcast along both or along neither (so
/// that a run of them is one contiguous block in every tensor); the last
/// is the inner loop.
struct Plan {
    /// merged dims, outermost first: the dim, and whether the first and
    /// the second input are broadcast along it (their dim is 1)
    dims: [(usize, bool, bool); MAX_RANK],
    /// how many (at least 1)
    len: usize,
}

impl Plan {
    fn new(a_shape: &[usize], b_shape: &[usize], out_dims: &[usize], rank: usize) -> Self {
        let mut dims = [(1usize, false, false); MAX_RANK];
        let mut len = 0usize;
        for (axis, &d) in out_dims.iter().enumerate() {
            if d == 1 {
                continue;
            }
            let a_broadcast = aligned(a_shape, rank, axis) == 1;
            let b_broadcast = aligned(b_shape, rank, axis) == 1;
            let previous = len
                .checked_sub(1)
                .and_then(|l| dims.get_mut(l))
                .filter(|p| p.1 == a_broadcast && p.2 == b_broadcast);
            if let Some(p) = previous {
                // the output's count fits: so does any product of its dims
                p.0 *= d;
            } else if let Some(slot) = dims.get_mut(len) {
                *slot = (d, a_broadcast, b_broadcast);
                len += 1;
            }
        }
        Plan {
            dims,
            len: len.max(1),
        }
    }

    /// An input's stride along each merged dim (0 where it is broadcast;
    /// `first` picks the first input).
    fn strides(&self, first: bool) -> [usize; MAX_RANK] {
        let mut strides = [0usize; MAX_RANK];
        let mut block = 1usize;
        for (s, &(d, a_broadcast, b_broadcast)) in
            strides.iter_mut().zip(&self.dims).take(self.len).rev()
        {
            if !(if first { a_broadcast } else { b_broadcast }) {
                *s = block;
                // at most the input's count
                block *= d;
            }
        }
        strides
    }

    fn run<T, U, O, A, B>(&self, a: &A, b: &B, f: &impl Fn(T, U) -> O, output: &mut [O])
    where
        T: Copy,
        U: Copy,
        O: Copy,
        A: Values<T> + ?Sized,
        B: Values<U> + ?Sized,
    {
        let a_strides = self.strides(true);
        let b_strides = self.strides(false);
        let last = self.len - 1;
        let (inner, a_broadcast, b_broadcast) =
            self.dims.get(last).copied().unwrap_or((1, false, false));
        let outer = self.dims.get(..last).unwrap_or(&[]);
        // the output is not empty: inner ≥ 1
        for (r, row) in output.chunks_exact_mut(inner.max(1)).enumerate() {
            // the row's start in each input, from its index along each
            // outer dim (innermost first)
            let mut rest = r;
            let (mut a_start, mut b_start) = (0usize, 0usize);
            for ((&(d, _, _), &sa), &sb) in outer.iter().zip(&a_strides).zip(&b_strides).rev() {
                let i = rest % d;
                rest /= d;
                a_start += i * sa;
                b_start += i * sb;
            }
            let (a_end, b_end) = (a_start + inner, b_start + inner);
            match (a_broadcast, b_broadcast) {
                (false, false) => binary_row(a.run(a_start, a_end), b.run(b_start, b_end), row, f),
                (false, true) => {
                    let Some(x2) = b.at(b_start) else { continue };
                    binary_row(a.run(a_start, a_end), core::iter::repeat(x2), row, f)
                }
                (true, false) => {
                    let Some(x1) = a.at(a_start) else { continue };
                    binary_row(core::iter::repeat(x1), b.run(b_start, b_end), row, f)
                }
                // not for a dim above 1: both inputs would have it
                (true, true) => {
                    let (Some(x1), Some(x2)) = (a.at(a_start), b.at(b_start)) else {
                        continue;
                    };
                    row.fill(f(x1, x2));
                }
            }
        }
    }
}

#[inline(always)]
fn binary_row<T, U, O>(
    xs1: impl Iterator<Item = T>,
    xs2: impl Iterator<Item = U>,
    row: &mut [O],
    f: &impl Fn(T, U) -> O,
) {
    for (y, (x1, x2)) in row.iter_mut().zip(xs1.zip(xs2)) {
        *y = f(x1, x2);
    }
}

/// `ADD`, and the other binary element-wise ops' rows (`MUL`, `SUB`,
/// `DIV`, `MAXIMUM`, `MINIMUM`, `SQUARED_DIFFERENCE`, `PRELU`): numpy
/// broadcasting of the two inputs ([`broadcast_shape`](crate::broadcast_shape)).
pub(crate) fn output_shape(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let a = operand(model, op, 0, "input1")?;
    let b = operand(model, op, 1, "input2")?;
    let (sa, sb) = (shape_of(op, "input1", &a)?, shape_of(op, "input2", &b)?);
    let (dims, rank) = broadcast_shape(sa.dims(), sb.dims())?;
    Ok(OpShape { dims, rank })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_merges_dims_broadcast_alike() {
        // [2, 3, 4, 5] + [1, 1, 4, 5]: one outer dim of 6, one inner of 20
        let plan = Plan::new(&[2, 3, 4, 5], &[4, 5], &[2, 3, 4, 5], 4);
        assert_eq!(
            &plan.dims[..plan.len],
            &[(6, false, true), (20, false, false)]
        );
        assert_eq!(&plan.strides(false)[..2], &[0, 1]);
        assert_eq!(&plan.strides(true)[..2], &[20, 1]);
        // dims of 1 drop out: [1, 5, 1, 6] + [1, 1, 1, 6]
        let plan = Plan::new(&[1, 5, 1, 6], &[1, 1, 1, 6], &[1, 5, 1, 6], 4);
        assert_eq!(
            &plan.dims[..plan.len],
            &[(5, false, true), (6, false, false)]
        );
        assert_eq!(&plan.strides(true)[..2], &[6, 1]);
        assert_eq!(&plan.strides(false)[..2], &[0, 1]);
        // all dims 1: one dim of 1
        let plan = Plan::new(&[1, 1], &[1], &[1, 1], 2);
        assert_eq!(&plan.dims[..plan.len], &[(1, false, false)]);
    }
}
