//! Cases through the no-heap dynamic path (`*_slices`: shapes as values,
//! data as slices, the output into a caller's buffer): a shape error the
//! static API turns into a compile error comes back here as a typed error,
//! with the caller's buffer untouched.

use crate::{attr, Approx, Checks, Sentinel, Vector};
use shapecheck::ops::elementwise::elementwise_slices;
use shapecheck::{
    multiplex_slices, select_slices, ActivationKind, AutoBroadcast, BinaryOpKind, Element,
    ElementwiseError, IndexElement, MultiplexError, SelectError,
};

/// Room for the output of any case these helpers run (elements).
pub const BUF: usize = 256;

fn int_attr(attrs: &[(&'static str, &'static str)], key: &str) -> Option<isize> {
    attr(attrs, key).and_then(|v| v.parse().ok())
}

/// Compares an outcome with the case: `want` (the recorded output) when the
/// framework accepted it, else an error for which `expect` holds and a
/// buffer still all sentinels.
fn judge<T: Approx + Sentinel, E>(
    c: &mut Checks,
    what: &str,
    r: Result<(), E>,
    buf: &[T],
    want: Option<&Vector<T>>,
    tol: f64,
    expect: impl Fn(&E) -> bool,
) {
    match (r, want) {
        (Ok(()), Some(w)) => c.approx(&buf[..w.data.len().min(buf.len())], w.data, tol, what),
        (Err(e), None) => {
            c.check(expect(&e), what);
            c.check(buf.iter().all(|v| *v == T::SENTINEL), what);
        }
        _ => c.check(false, what),
    }
}

/// An elementwise case (`op`, `attrs` of the case) through
/// `elementwise_slices`.
#[allow(clippy::too_many_arguments)]
pub fn elementwise<T: Element + Approx + Sentinel>(
    c: &mut Checks,
    what: &str,
    op: &str,
    attrs: &[(&'static str, &'static str)],
    x: &Vector<T>,
    y: &Vector<T>,
    out: Option<&Vector<T>>,
    tol: f64,
    expect: impl Fn(&ElementwiseError) -> bool,
) {
    let (Some(kind), Ok(act), Some(axis)) = (
        BinaryOpKind::from_name(op),
        ActivationKind::from_name(attr(attrs, "act").unwrap_or("")),
        int_attr(attrs, "axis"),
    ) else {
        return c.check(false, what);
    };
    let mut buf = [T::SENTINEL; BUF];
    let n = out.map_or(BUF, |o| o.data.len());
    let Some(slot) = buf.get_mut(..n) else {
        return c.check(false, what);
    };
    let r = elementwise_slices(kind, act, x.dims, x.data, y.dims, y.data, axis, slot)
        .map(|dims| c.check(out.is_some_and(|o| dims.as_slice() == o.dims), what));
    judge(c, what, r, &buf, out, tol, expect);
}

/// A select case through `select_slices`.
#[allow(clippy::too_many_arguments)]
pub fn select<T: Copy + Approx + Sentinel>(
    c: &mut Checks,
    what: &str,
    attrs: &[(&'static str, &'static str)],
    cond: &Vector<bool>,
    then: &Vector<T>,
    els: &Vector<T>,
    out: Option<&Vector<T>>,
    expect: impl Fn(&SelectError) -> bool,
) {
    let mode = attr(attrs, "auto_broadcast")
        .and_then(|m| AutoBroadcast::from_name(m, int_attr(attrs, "axis").unwrap_or(-1)));
    let Some(mode) = mode else {
        return c.check(false, what);
    };
    let mut buf = [T::SENTINEL; BUF];
    let n = out.map_or(BUF, |o| o.data.len());
    let Some(slot) = buf.get_mut(..n) else {
        return c.check(false, what);
    };
    let r = select_slices(
        mode, cond.dims, cond.data, then.dims, then.data, els.dims, els.data, slot,
    )
    .map(|dims| c.check(out.is_some_and(|o| dims.as_slice() == o.dims), what));
    judge(c, what, r, &buf, out, 0.0, expect);
}

/// A multiplex case through `multiplex_slices` (at most 8 candidates).
pub fn multiplex<T: Copy + Approx + Sentinel, I: IndexElement>(
    c: &mut Checks,
    what: &str,
    inputs: &[Vector<T>],
    index: &Vector<I>,
    out: Option<&Vector<T>>,
    expect: impl Fn(&MultiplexError) -> bool,
) {
    const MAX: usize = 8;
    let empty: (&[usize], &[T]) = (&[], &[]);
    let mut list = [empty; MAX];
    if inputs.len() > MAX {
        return c.check(false, what);
    }
    for (slot, v) in list.iter_mut().zip(inputs) {
        *slot = (v.dims, v.data);
    }
    let mut buf = [T::SENTINEL; BUF];
    let n = out.map_or(BUF, |o| o.data.len());
    let Some(slot) = buf.get_mut(..n) else {
        return c.check(false, what);
    };
    let r = multiplex_slices(&list[..inputs.len()], index.dims, index.data, slot)
        .map(|dims| c.check(out.is_some_and(|o| dims.as_slice() == o.dims), what));
    judge(c, what, r, &buf, out, 0.0, expect);
}
