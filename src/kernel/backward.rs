//! The backward kernels: each op's gradients along its forward's walk, in
//! one pass over `dout`, a broadcast operand's gradient summed in place
//! (internal).

use super::Walk;

/// Stores one gradient value: written (`SUM = false`, an operand that does
/// not broadcast: the walk meets each of its elements once) or added to what
/// is there (`SUM = true`, an operand that broadcasts: its gradient is the
/// sum over every output element that read it).
#[inline(always)]
fn put<T: Copy, const SUM: bool>(g: &mut T, v: T, add: impl Fn(T, T) -> T) {
    *g = if SUM { add(*g, v) } else { v };
}

/// The backward of a binary op along its forward walk: for every output
/// element `i`, `(a, b) = f(x, y, out[i], dout[i])` with `x` and `y` the
/// operands' elements the forward read there; `a` goes to `gx` at `x`'s
/// offset and `b` to `gy` at `y`'s, added where the operand broadcasts
/// (stride 0), so that each gradient is the broadcast read backwards: the
/// sum over every output dim where the operand is absent or 1. One pass over
/// `dout`, no intermediate of the output's size. `gx` and `gy` have their
/// operands' lengths; an operand met once per element (its length is the
/// output's) is written, any other is zeroed first and summed into.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn binary_backward<T: Copy + Default, F: Fn(T, T, T, T) -> (T, T)>(
    walk: &Walk<2>,
    x: &[T],
    y: &[T],
    out: &[T],
    dout: &[T],
    gx: &mut [T],
    gy: &mut [T],
    add: impl Fn(T, T) -> T + Copy,
    f: F,
) {
    let numel = walk.numel();
    let (sum_x, sum_y) = (gx.len() != numel, gy.len() != numel);
    if sum_x {
        gx.fill(T::default());
    }
    if sum_y {
        gy.fill(T::default());
    }
    let g = Grads { gx, gy };
    match (sum_x, sum_y) {
        (false, false) => g.rows::<false, false, _, _>(walk, x, y, out, dout, add, f),
        (false, true) => g.rows::<false, true, _, _>(walk, x, y, out, dout, add, f),
        (true, false) => g.rows::<true, false, _, _>(walk, x, y, out, dout, add, f),
        (true, true) => g.rows::<true, true, _, _>(walk, x, y, out, dout, add, f),
    }
}

/// The two gradients a binary backward writes.
struct Grads<'a, T> {
    gx: &'a mut [T],
    gy: &'a mut [T],
}

impl<T: Copy> Grads<'_, T> {
    /// [`binary_backward`]'s loops, with the store of each gradient fixed
    /// ([`put`]): a plain zip where both operands walk the row, otherwise
    /// element by element along the operands' inner strides.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn rows<
        const SX: bool,
        const SY: bool,
        A: Fn(T, T) -> T + Copy,
        F: Fn(T, T, T, T) -> (T, T),
    >(
        self,
        walk: &Walk<2>,
        x: &[T],
        y: &[T],
        out: &[T],
        dout: &[T],
        add: A,
        f: F,
    ) {
        let n = walk.inner();
        if n == 0 || walk.numel() == 0 {
            return;
        }
        let Grads { gx, gy } = self;
        let mut at = 0usize;
        match walk.inner_strides() {
            [1, 1] => walk.for_each_row(|[ox, oy]| {
                let row = at;
                at = at.wrapping_add(n);
                if let (Some(d), Some(o), Some(a), Some(b), Some(ga), Some(gb)) = (
                    dout.get(row..row + n),
                    out.get(row..row + n),
                    x.get(ox..ox + n),
                    y.get(oy..oy + n),
                    gx.get_mut(ox..ox + n),
                    gy.get_mut(oy..oy + n),
                ) {
                    for (((((ga, gb), &a), &b), &o), &d) in
                        ga.iter_mut().zip(gb.iter_mut()).zip(a).zip(b).zip(o).zip(d)
                    {
                        let (va, vb) = f(a, b, o, d);
                        put::<T, SX>(ga, va, add);
                        put::<T, SY>(gb, vb, add);
                    }
                }
            }),
            [sx, sy] => walk.for_each_row(|[ox, oy]| {
                let row = at;
                at = at.wrapping_add(n);
                let (Some(d), Some(o)) = (dout.get(row..row + n), out.get(row..row + n)) else {
                    return;
                };
                for (i, (&o, &d)) in o.iter().zip(d).enumerate() {
                    let (ix, iy) = (ox + i * sx, oy + i * sy);
                    if let (Some(&a), Some(&b)) = (x.get(ix), y.get(iy)) {
                        let (va, vb) = f(a, b, o, d);
                        if let Some(ga) = gx.get_mut(ix) {
                            put::<T, SX>(ga, va, add);
                        }
                        if let Some(gb) = gy.get_mut(iy) {
                            put::<T, SY>(gb, vb, add);
                        }
                    }
                }
            }),
        }
    }
}

/// The backward of select along its forward walk (cond, then, else): each
/// output element's `dout` goes to `then`'s gradient where cond is true and
/// to `else`'s where it is false (0 to the other), summed where an operand
/// broadcasts, as [`binary_backward`] does. Cond has no gradient.
#[inline(always)]
pub fn select_backward<T: Copy + Default>(
    walk: &Walk<3>,
    c: &[bool],
    dout: &[T],
    gt: &mut [T],
    ge: &mut [T],
    add: impl Fn(T, T) -> T + Copy,
) {
    let numel = walk.numel();
    let (sum_t, sum_e) = (gt.len() != numel, ge.len() != numel);
    if sum_t {
        gt.fill(T::default());
    }
    if sum_e {
        ge.fill(T::default());
    }
    let n = walk.inner();
    if n == 0 || numel == 0 {
        return;
    }
    let zero = T::default();
    let [sc, st, se] = walk.inner_strides();
    let mut at = 0usize;
    walk.for_each_row(|[oc, ot, oe]| {
        let row = at;
        at = at.wrapping_add(n);
        let Some(d) = dout.get(row..row + n) else {
            return;
        };
        for (i, &d) in d.iter().enumerate() {
            let Some(&c) = c.get(oc + i * sc) else {
                return;
            };
            let (vt, ve) = if c { (d, zero) } else { (zero, d) };
            if let Some(g) = gt.get_mut(ot + i * st) {
                *g = if sum_t { add(*g, vt) } else { vt };
            }
            if let Some(g) = ge.get_mut(oe + i * se) {
                *g = if sum_e { add(*g, ve) } else { ve };
            }
        }
    });
}
