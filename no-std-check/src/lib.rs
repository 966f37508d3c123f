//! A `#![no_std]` crate without `alloc` that uses the static API on static
//! buffers: if this builds, static ops need neither std nor a heap.
#![no_std]

use shapecheck::prelude::*;
use shapecheck::{Owned, StitchGrad};

/// Paddle's multiplex on static buffers: three candidates [3, 2] as views,
/// an i32 index [3, 1], the result written into a caller's buffer (no heap).
/// `false` if a buffer has the wrong length or an index value is out of range.
pub fn multiplex_rows(
    a: &[f32; 6],
    b: &[f32; 6],
    c: &[f32; 6],
    index: &[i32; 3],
    out: &mut [f32; 6],
) -> bool {
    let (Ok(ta), Ok(tb), Ok(tc), Ok(ti), Ok(mut to)) = (
        Tensor::<f32, shape![3, 2], &[f32]>::from_storage(&a[..]),
        Tensor::<f32, shape![3, 2], &[f32]>::from_storage(&b[..]),
        Tensor::<f32, shape![3, 2], &[f32]>::from_storage(&c[..]),
        Tensor::<i32, shape![3, 1], &[i32]>::from_storage(&index[..]),
        Tensor::<f32, shape![3, 2], &mut [f32]>::from_storage(&mut out[..]),
    ) else {
        return false;
    };
    shapecheck::multiplex_into(&[ta, tb, tc], &ti, &mut to).is_ok()
}

/// Multiplex with inline candidates and an inline (stack) result.
pub fn multiplex_inline(index: [[i64; 1]; 2]) -> Option<Tensor<i32, shape![2, 2]>> {
    let x1 = Tensor::<i32, shape![2, 2]>::from_array([[1, 2], [3, 4]]);
    let x2 = Tensor::<i32, shape![2, 2]>::from_array([[5, 6], [7, 8]]);
    let idx = Tensor::<i64, shape![2, 1]>::from_array(index);
    shapecheck::multiplex(&[x1, x2], &idx).run().ok()
}

/// Multiplex with fewer index rows than candidate rows: two `[4, 2]`
/// candidates, a `[1, 1]` index, a `[1, 2]` inline result (no heap).
pub fn multiplex_first_row(index: i32) -> Option<Tensor<i32, shape![1, 2]>> {
    let x1 = Tensor::<i32, shape![4, 2]>::from_array([[1, 2], [3, 4], [5, 6], [7, 8]]);
    let x2 = Tensor::<i32, shape![4, 2]>::from_array([[9, 10], [11, 12], [13, 14], [15, 16]]);
    let idx = Tensor::<i32, shape![1, 1]>::from_array([[index]]);
    shapecheck::multiplex(&[x1, x2], &idx).run().ok()
}

/// `x * y` with Y `[3]` on the last axis of X `[2, 3]`, into a caller's buffer.
pub fn scale_rows(x: &[f32; 6], y: &[f32; 3], out: &mut [f32; 6]) -> bool {
    let (Ok(xt), Ok(yt), Ok(mut ot)) = (
        Tensor::<f32, shape![2, 3], &[f32]>::from_storage(&x[..]),
        Tensor::<f32, shape![3], &[f32]>::from_storage(&y[..]),
        Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut out[..]),
    ) else {
        return false;
    };
    xt.elementwise_mul_into(&yt, Axis::<-1>, Relu, &mut ot);
    true
}

/// An inline (stack) tensor result: no heap anywhere.
pub fn add_inline() -> Tensor<i32, shape![2, 2]> {
    let a = Tensor::<i32, shape![2, 2]>::from_array([[1, 2], [3, 4]]);
    let b = Tensor::<i32, shape![2]>::from_array([10, 20]);
    a.elementwise_add(&b, Axis::<-1>, Identity)
}

/// OpenVINO Select with numpy broadcasting on static buffers: cond [2, 3],
/// then `[2, 3]`, else `[3]` (broadcast over the rows), into a caller's buffer.
pub fn select_rows(cond: &[bool; 6], then: &[f32; 6], els: &[f32; 3], out: &mut [f32; 6]) -> bool {
    let (Ok(c), Ok(t), Ok(e), Ok(mut o)) = (
        Tensor::<bool, shape![2, 3], &[bool]>::from_storage(&cond[..]),
        Tensor::<f32, shape![2, 3], &[f32]>::from_storage(&then[..]),
        Tensor::<f32, shape![3], &[f32]>::from_storage(&els[..]),
        Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut out[..]),
    ) else {
        return false;
    };
    shapecheck::select_into(&c, &t, &e, Numpy, &mut o);
    true
}

/// Select with pdpd broadcasting at axis 0 and an inline (stack) result.
pub fn select_pdpd_inline() -> Tensor<i32, shape![2, 2]> {
    let c = Tensor::<bool, shape![2]>::from_array([true, false]);
    let t = Tensor::<i32, shape![2, 2]>::from_array([[1, 2], [3, 4]]);
    let e = Tensor::<i32, shape![2, 1]>::from_array([[10], [20]]);
    shapecheck::select(&c, &t, &e, Pdpd::<0>)
}

// ---- LoD tensors and Paddle's lod_reset: borrowed levels, no heap ----

/// A LoD tensor over a static buffer with borrowed levels (offsets
/// `[0, 2, 5, 6]`: sequences of 2, 3 and 1 rows): the sum of each
/// sequence's rows goes into `sums`; then Paddle's `lod_reset` to y's int32
/// offsets, appended after x's level, the new level written into `buf`.
/// Returns the number of levels and the new level's sequence count, `None`
/// on an error (a bad y: not starting at 0, not ending at 6, decreasing).
pub fn lod_sums_and_reset(
    data: &[f32; 6],
    y: &[i32; 3],
    buf: &mut [usize; 3],
    sums: &mut [f32; 3],
) -> Option<(usize, usize)> {
    use shapecheck::{LodTensor, Offsets};
    let dense = Tensor::<f32, shape![Dyn, 1], &[f32]>::with_dims(&[6, 1], &data[..]).ok()?;
    let levels = [Offsets::new(&[0, 2, 5, 6])];
    let x = LodTensor::new(dense, &levels[..]).ok()?;
    for (s, sum) in x.sequences(0).ok()?.zip(sums.iter_mut()) {
        *sum = s.tensor().as_slice().iter().sum();
    }
    let y = Tensor::<i32, shape![3], &[i32]>::from_storage(&y[..]).ok()?;
    let out = x.lod_reset_by_data(&y, true, &mut buf[..]).ok()?;
    Some((out.levels(), out.level(1)?.sequences()))
}

// ---------------------------------------------------------------- dynamic_stitch / dynamic_partition

/// TensorFlow's dynamic_stitch without a heap: pairs of different ranks
/// (indices `[2]` with data `[2, 2]`, a scalar index with data `[2]`) merged into a
/// caller's buffer; returns the row count (`None` on a negative index or a
/// buffer too short for max index + 1 rows of 2).
pub fn stitch_rows(
    idx: &[i32; 2],
    rows: &[f32; 4],
    last: i32,
    last_row: &[f32; 2],
    out: &mut [f32],
) -> Option<usize> {
    let i0 = Tensor::<i32, shape![2], &[i32]>::from_storage(&idx[..]).ok()?;
    let d0 = Tensor::<f32, shape![2, 2], &[f32]>::from_storage(&rows[..]).ok()?;
    let i1 = Tensor::<i32, shape![]>::from_array(last);
    let d1 = Tensor::<f32, shape![2], &[f32]>::from_storage(&last_row[..]).ok()?;
    let merged = shapecheck::dynamic_stitch(&i0, &d0)
        .pair(&i1, &d1)
        .run_into(out)
        .ok()?;
    Some(merged.dims().as_slice().first().copied().unwrap_or(0))
}

/// TensorFlow's dynamic_partition without a heap: the rows of a [4, 2]
/// tensor split by an i32 partition per row into 2 outputs, both views into
/// one caller buffer of the data's size; returns the two row counts.
pub fn partition_rows(
    data: &[f32; 8],
    parts: &[i32; 4],
    buf: &mut [f32; 8],
) -> Option<(usize, usize)> {
    let d = Tensor::<f32, shape![4, 2], &[f32]>::from_storage(&data[..]).ok()?;
    let p = Tensor::<i32, shape![4], &[i32]>::from_storage(&parts[..]).ok()?;
    let [a, b] =
        shapecheck::dynamic_partition_into(&d, &p, shapecheck::Partitions::<2>, &mut buf[..])
            .ok()?;
    Some((a.dims().first().copied()?, b.dims().first().copied()?))
}

/// The backward of `relu(x * y)` (Y `[3]` on X `[2, 3]`'s last axis) into
/// caller buffers, and of select (numpy, else `[3]`) inline: the gradients'
/// storage is the caller's or the stack, never a heap.
pub fn backward_rows(
    x: &[f32; 6],
    y: &[f32; 3],
    out: &[f32; 6],
    dout: &[f32; 6],
    gx: &mut [f32; 6],
    gy: &mut [f32; 3],
) -> Option<Tensor<f32, shape![3]>> {
    let (Ok(xt), Ok(yt), Ok(ot), Ok(dt), Ok(mut gxt), Ok(mut gyt)) = (
        Tensor::<f32, shape![2, 3], &[f32]>::from_storage(&x[..]),
        Tensor::<f32, shape![3], &[f32]>::from_storage(&y[..]),
        Tensor::<f32, shape![2, 3], &[f32]>::from_storage(&out[..]),
        Tensor::<f32, shape![2, 3], &[f32]>::from_storage(&dout[..]),
        Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut gx[..]),
        Tensor::<f32, shape![3], &mut [f32]>::from_storage(&mut gy[..]),
    ) else {
        return None;
    };
    xt.elementwise_backward_into(
        shapecheck::ops::Mul,
        &yt,
        &ot,
        &dt,
        Axis::<-1>,
        Relu,
        &mut gxt,
        &mut gyt,
    );
    let cond =
        Tensor::<bool, shape![2, 3]>::from_array([[true, false, true], [false, true, false]]);
    let els = Tensor::<f32, shape![3]>::from_array([0.0; 3]);
    let (_dthen, delse) = shapecheck::ops::select::select_backward(&cond, &ot, &els, &dt, Numpy);
    Some(delse)
}

/// A multiplex candidate of [`row_ops_backward`], and its gradient.
pub type Candidate = Tensor<f32, shape![3, 2]>;

/// The backwards of multiplex (inline gradients), dynamic_stitch and
/// dynamic_partition (into caller tensors) and lod_reset (dout moved under
/// x's LoD), all without a heap: multiplex of two `[3, 2]` candidates by a
/// `[2, 1]` index, then the stitch of the candidates' gradients by `[1, 0,
/// 2]` (index 2 overwrites nothing) taken back, then the partition of it.
/// Returns candidate 1's gradient and the LoD tensor's level count.
pub fn row_ops_backward(
    dout: &[f32; 4],
    stitch_grad: &mut [f32; 6],
    partition_grad: &mut [f32; 6],
) -> Option<(Candidate, usize)> {
    let a = Tensor::<f32, shape![3, 2]>::full(1.0);
    let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
    let d = Tensor::<f32, shape![2, 2], &[f32]>::from_storage(&dout[..]).ok()?;
    let [_ga, gb] = shapecheck::multiplex_backward(&[a, a], &index, &d).ok()?;

    let ix = Tensor::<i32, shape![3]>::from_array([1, 0, 2]);
    let stitch = shapecheck::dynamic_stitch(&ix, &gb);
    let mut buf = [0.0f32; 6];
    let merged = stitch.run_into(&mut buf).ok()?;
    let mut g = Tensor::<f32, shape![3, 2], &mut [f32]>::from_storage(&mut stitch_grad[..]).ok()?;
    stitch
        .backward_into(&merged, StitchGrad::Derivative, &mut ((), &mut g))
        .ok()?;

    let parts = Tensor::<i32, shape![3]>::from_array([1, 0, 1]);
    let mut pbuf = [0.0f32; 6];
    let outs = shapecheck::dynamic_partition_into(&gb, &parts, Partitions::<2>, &mut pbuf).ok()?;
    let mut pg =
        Tensor::<f32, shape![3, 2], &mut [f32]>::from_storage(&mut partition_grad[..]).ok()?;
    shapecheck::dynamic_partition_backward_into(&gb, &parts, Partitions::<2>, &outs, &mut pg)
        .ok()?;

    let levels = [Offsets::new(&[0, 1, 3])];
    let x = LodTensor::new(a, &levels[..]).ok()?;
    let dx = x.lod_reset_backward(gb);
    Some((gb, dx.levels()))
}

/// User code generic over a static batch dim, without a heap: `Owned`
/// names the result, inline for any `B: StaticDim` (a `Dyn` or branded
/// batch needs a heap for an owned result, so without `alloc` the batch is
/// static or a capacity, as in `clip_rows`).
pub fn gate<B: StaticDim>(
    x: &Owned<f32, (B, Dim<3>)>,
    w: &Tensor<f32, shape![3]>,
) -> Owned<f32, (B, Dim<3>)> {
    x.elementwise_mul(w, Axis::<1>, Relu)
}

/// User code generic over a capacity, without a heap: `Owned` names the
/// result of a shape with a `Bounded<CAP>` dim, a `Room` (inline).
pub fn clip_rows<const CAP: usize>(
    x: &Owned<f32, (Bounded<CAP>, Dim<3>)>,
) -> Owned<f32, (Bounded<CAP>, Dim<3>)> {
    x.elementwise_max(&tensor![0.0f32, 0.0, 0.0], Axis::<1>, Identity)
}

/// Two tensors of one capacity, without a heap: their rows are compared
/// when the op runs, and the result keeps the capacity (a `Room`).
// the library's error type is large on purpose (its values inline, no heap)
#[allow(clippy::result_large_err)]
pub fn add_rows<const CAP: usize>(
    x: &Owned<f32, (Bounded<CAP>, Dim<3>)>,
    y: &Owned<f32, (Bounded<CAP>, Dim<3>)>,
) -> Result<Owned<f32, (Bounded<CAP>, Dim<3>)>, shapecheck::ElementwiseError> {
    x.try_elementwise_add(y, Axis::<-1>, Identity)
}

/// A number with a capacity tensor, without a heap: the result is its room
/// (no shape bound is needed for a number).
pub fn one_minus_scaled<const CAP: usize>(
    x: &Owned<f32, (Bounded<CAP>, Dim<3>)>,
    k: f32,
) -> Owned<f32, (Bounded<CAP>, Dim<3>)> {
    &(1.0 - x) * k
}

/// A dense layer without a heap: `relu(x · w + b)` on a batch of 2, the
/// product inline, then `x · xᵀ` into a caller's buffer.
pub fn dense_layer(x: &[[f32; 3]; 2], w: &[[f32; 2]; 3], out: &mut [f32; 4]) -> [f32; 4] {
    let x = Tensor::<f32, shape![2, 3]>::from_array(*x);
    let w = Tensor::<f32, shape![3, 2]>::from_array(*w);
    let h = x
        .matmul(&w)
        .elementwise_add(&tensor![0.5f32, -0.5], Axis::<-1>, Relu);
    if let Ok(mut o) = Tensor::<f32, shape![2, 2], &mut [f32]>::from_storage(&mut out[..]) {
        x.matmul_into(&x, shapecheck::NoTrans, shapecheck::Trans, &mut o);
    }
    let mut r = [0.0; 4];
    r.copy_from_slice(h.as_slice());
    r
}

/// User code generic over two static shapes that broadcast, without a heap:
/// `(x - y) * k`, its result inline, with the one bound `BroadcastWith`.
pub fn scaled_diff<X, Y>(
    x: &Tensor<f32, X>,
    y: &Tensor<f32, Y>,
    k: &Tensor<f32, shape![]>,
) -> Owned<f32, BroadcastOf<X, Y>>
where
    X: BroadcastWith<Y>,
    Y: StaticShape,
{
    &(x - y) * k
}

/// User code generic over a static shape, without a heap: `a + t * (b - a)`,
/// its result inline (`Owned<f32, S>` is `Tensor<f32, S>`).
pub fn lerp<S: StaticShape>(
    a: &Tensor<f32, S>,
    b: &Tensor<f32, S>,
    t: &Tensor<f32, shape![]>,
) -> Owned<f32, S> {
    &(&(b - a) * t) + a
}

/// A reduction ending a fused expression, softmax and the gradients of
/// both, on inline tensors (no heap): `s = sum(relu(x * y + b), axis 1)`,
/// `p = softmax(x, axis -1)`; returns `s`, the gradient of `sum(s)` in the
/// expression's value (all ones, typed as x), and softmax's gradient for
/// `dout = [1, 0, 0, 0]` per row.
#[allow(clippy::type_complexity)]
pub fn reduce_and_softmax(
    x: [[f32; 4]; 2],
    y: [f32; 4],
    b: [[f32; 1]; 2],
) -> (
    Tensor<f32, shape![2]>,
    Tensor<f32, shape![2, 4]>,
    Tensor<f32, shape![2, 4]>,
) {
    let x = Tensor::<f32, shape![2, 4]>::from_array(x);
    let y = Tensor::<f32, shape![4]>::from_array(y);
    let b = Tensor::<f32, shape![2, 1]>::from_array(b);
    let s = (x.lazy() * &y + &b).relu().sum(Axis::<1>);
    let ones = x.sum_backward(Axis::<1>, &Tensor::<f32, shape![2]>::full(1.0));
    let p = x.softmax(Axis::<-1>);
    let dout = Tensor::<f32, shape![2, 4]>::from_array([[1.0, 0.0, 0.0, 0.0]; 2]);
    let gp = x.softmax_backward(Axis::<-1>, &p, &dout);
    (s, ones, gp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_softmax_and_their_gradients_run_without_a_heap() {
        let (s, ones, gp) = reduce_and_softmax(
            [[1.0, -2.0, 3.0, 0.0], [0.0, 0.0, 0.0, 0.0]],
            [2.0; 4],
            [[1.0], [-1.0]],
        );
        assert_eq!(s.as_slice(), &[3.0 + 0.0 + 7.0 + 1.0, 0.0]);
        assert_eq!(ones.as_slice(), &[1.0; 8]);
        // a row of equal values: p = 1/4, dx = p (dout - p) = [3/16, -1/16, ...]
        assert_eq!(&gp.as_slice()[4..], &[0.1875, -0.0625, -0.0625, -0.0625]);
    }

    #[test]
    fn generic_user_code_runs_without_a_heap() {
        let (i, d) = (
            tensor![1, 0],
            tensor![[1.0f32, -2.0, 3.0], [-4.0, 5.0, -6.0]],
        );
        let x = shapecheck::dynamic_stitch(&i, &d)
            .run_bounded::<4>()
            .unwrap();
        let c = clip_rows(&x);
        assert_eq!(c.dims().as_slice(), &[2, 3]);
        assert_eq!(c.as_slice(), &[0.0, 5.0, 0.0, 1.0, 0.0, 3.0]);
        // x holds rows [-4, 5, -6] and [1, -2, 3]: 2 * (1 - x)
        let m = one_minus_scaled(&x, 2.0);
        assert_eq!(m.dims().as_slice(), &[2, 3]);
        assert_eq!(m.as_slice(), &[10.0, -8.0, 14.0, 0.0, 6.0, -4.0]);
        let s = add_rows(&x, &c).unwrap();
        assert_eq!(s.as_slice(), &[-4.0, 10.0, -6.0, 2.0, -2.0, 6.0]);
        let one = shapecheck::dynamic_stitch(&tensor![0], &tensor![[1.0f32, 1.0, 1.0]])
            .run_bounded::<4>()
            .unwrap();
        assert_eq!(
            add_rows(&x, &one).unwrap().as_slice(),
            &[-3.0, 6.0, -5.0, 2.0, -1.0, 4.0]
        );
        let three =
            shapecheck::dynamic_stitch(&tensor![0, 1, 2], &Tensor::<f32, shape![3, 3]>::full(1.0))
                .run_bounded::<4>()
                .unwrap();
        assert_eq!(
            add_rows(&x, &three).unwrap_err().rule(),
            "elementwise/broadcast"
        );
        let l = lerp(
            &tensor![[0.0f32, 4.0]],
            &tensor![[4.0f32, 8.0]],
            &Tensor::full(0.25),
        );
        assert_eq!(l.as_slice(), &[1.0, 5.0]);
        let g = gate(
            &tensor![[1.0f32, -1.0, 2.0], [-3.0, 4.0, 5.0]],
            &tensor![1.0f32, 2.0, 3.0],
        );
        assert_eq!(g.as_slice(), &[1.0, 0.0, 6.0, 0.0, 8.0, 15.0]);
        let one: Tensor<f32, shape![1, 3]> =
            gate(&tensor![[2.0f32, 2.0, -2.0]], &tensor![1.0f32, 2.0, 3.0]);
        assert_eq!(one.as_slice(), &[2.0, 4.0, 0.0]);
        let d = scaled_diff(
            &tensor![[1.0f32], [2.0]],
            &tensor![1.0f32, 2.0, 3.0],
            &Tensor::full(2.0),
        );
        assert_eq!(d.as_slice(), &[0.0, -2.0, -4.0, 2.0, 0.0, -2.0]);
    }

    #[test]
    fn row_ops_backward_runs_without_a_heap() {
        let (mut sg, mut pg) = ([9.0f32; 6], [9.0f32; 6]);
        let (gb, levels) = row_ops_backward(&[1., 2., 3., 4.], &mut sg, &mut pg).unwrap();
        // row 0 of the output chose candidate 1; rows 1 and 2 did not
        assert_eq!(gb.as_slice(), &[1., 2., 0., 0., 0., 0.]);
        assert_eq!(levels, 1);
        // no duplicate index: the stitch gradient gathers the merged rows back
        assert_eq!(sg, [1., 2., 0., 0., 0., 0.]);
        // the partition round trip
        assert_eq!(pg, [1., 2., 0., 0., 0., 0.]);
    }

    #[test]
    fn lod_sums_and_reset_runs_without_a_heap() {
        let mut buf = [0usize; 3];
        let mut sums = [0.0f32; 3];
        let r = lod_sums_and_reset(&[1., 2., 3., 4., 5., 6.], &[0, 2, 6], &mut buf, &mut sums);
        assert_eq!(r, Some((2, 2)));
        assert_eq!(sums, [3.0, 12.0, 6.0]);
        assert_eq!(buf, [0, 2, 6]);
        // the seed's example 2 as written: [2, 4, ..] does not start at 0
        let mut buf = [9usize; 3];
        assert_eq!(
            lod_sums_and_reset(&[0.0; 6], &[2, 4, 6], &mut buf, &mut sums),
            None
        );
        assert_eq!(buf, [9, 9, 9], "nothing written on error");
    }

    #[test]
    fn dense_layer_runs_without_a_heap() {
        let x = [[1.0f32, 2.0, 3.0], [0.0, 1.0, -1.0]];
        let w = [[1.0f32, 0.0], [0.0, 1.0], [1.0, 1.0]];
        let mut gram = [0.0f32; 4];
        // x · w = [[4, 5], [-1, 0]], + [0.5, -0.5], relu
        assert_eq!(dense_layer(&x, &w, &mut gram), [4.5, 4.5, 0.0, 0.0]);
        assert_eq!(gram, [14.0, -1.0, -1.0, 2.0]);
    }

    #[test]
    fn backward_rows_runs_without_a_heap() {
        let (x, y) = ([1.0f32, -2.0, 3.0, 4.0, 5.0, -6.0], [1.0f32, 1.0, 1.0]);
        let out = [1.0f32, 0.0, 3.0, 4.0, 5.0, 0.0]; // relu(x * y)
        let (mut gx, mut gy) = ([9.0f32; 6], [9.0f32; 3]);
        let delse = backward_rows(&x, &y, &out, &[1.0; 6], &mut gx, &mut gy);
        assert_eq!(gx, [1.0, 0.0, 1.0, 1.0, 1.0, 0.0]);
        assert_eq!(gy, [5.0, 5.0, 3.0]);
        // dout where cond is false: [f, t, f] in row 0, [t, f, t] in row 1
        assert_eq!(
            delse.as_ref().map(|t| t.as_slice()),
            Some(&[1.0f32, 1.0, 1.0][..])
        );
    }
}
