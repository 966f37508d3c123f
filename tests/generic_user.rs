//! Generic user code: functions generic over a dim that an op passes through
//! untouched (a batch dim), each called with a `Dyn`, a brand and a static
//! batch, and checked against values computed by hand. The only bound on
//! the batch dim is `B: DimLike`.
// user code returns the library's error types as they are
#![allow(clippy::result_large_err, clippy::type_complexity)]
use shapecheck::ops::select::try_select_backward;
use shapecheck::ops::Mul;
use shapecheck::prelude::*;
use shapecheck::{try_select, ElementwiseError, ExprError, LodResetError, Owned, SelectError};
use shapecheck::{ResultStorage, Storage};

/// elementwise: under `Axis::<1>` the batch dim meets no dim of `w`; the
/// result is the owned tensor of the input's shape (`Owned`: a `Vec` for
/// `Dyn` rows and a brand, inline for a static batch, a `Room` for a
/// capacity).
fn gate<B: DimLike>(
    x: &Owned<f32, (B, Dim<4>)>,
    w: &Tensor<f32, shape![4]>,
) -> Owned<f32, (B, Dim<4>)> {
    x.elementwise_mul(w, Axis::<1>, Relu)
}

/// elementwise, the `try_` and `_into` forms in generic code.
fn gate_checked<B: DimLike>(
    x: &Owned<f32, (B, Dim<4>)>,
    w: &Tensor<f32, shape![4]>,
    out: &mut Owned<f32, (B, Dim<4>)>,
) -> Result<(), ElementwiseError> {
    let checked = x.try_elementwise_add(w, Axis::<1>, Identity)?;
    checked.try_elementwise_sub_into(w, Axis::<-1>, Identity, out)
}

/// A layer over a `Vec` tensor keeps its result in a `Vec` (a big static
/// tensor on the heap stays there), with the same single bound.
fn gate_heap<B: DimLike>(
    x: &Tensor<f32, (B, Dim<4>), Vec<f32>>,
    w: &Tensor<f32, shape![4]>,
) -> Tensor<f32, (B, Dim<4>), Vec<f32>> {
    x.elementwise_mul(w, Axis::<1>, Relu)
}

/// select: cond and else (`[4]`) meet then's last dim; the batch meets nothing.
fn mask<B: DimLike>(
    keep: &Tensor<bool, shape![4]>,
    x: &Owned<f32, (B, Dim<4>)>,
    fill: &Tensor<f32, shape![4]>,
) -> Owned<f32, (B, Dim<4>)> {
    select(keep, x, fill, Numpy)
}

/// A fused layer over the batch dim: `relu(x * w + b)` checked when it
/// runs (`try_eval`), and the gradient of `x` (`try_backward`).
fn fused_gate<B: DimLike>(
    x: &Owned<f32, (B, Dim<4>)>,
    w: &Tensor<f32, shape![4]>,
    b: &Tensor<f32, shape![4]>,
) -> Result<[Owned<f32, (B, Dim<4>)>; 2], ExprError> {
    let y = (x.lazy() * w + b).relu();
    let value = y.try_eval()?;
    let ones = x.map(|_| 1.0f32);
    let ((gx, _gw), _gb) = y.try_backward(&ones)?;
    Ok([value, gx])
}

/// multiplex: candidates and index share the batch dim.
fn pick<B: DimLike>(
    a: Owned<i32, (B, Dim<2>)>,
    b: Owned<i32, (B, Dim<2>)>,
    index: &Owned<i32, (B, One)>,
) -> Result<Owned<i32, (B, Dim<2>)>, MultiplexError> {
    multiplex(&[a, b], index).run()
}

/// dynamic_stitch: indices and data share the batch dim; the output's rows
/// are known when it runs.
fn stitch_rows<B: DimLike>(
    index: &Owned<i32, (B,)>,
    data: &Owned<f32, (B, Dim<4>)>,
) -> Result<Tensor<f32, shape![Dyn, 4], Vec<f32>>, StitchError> {
    dynamic_stitch(index, data).run()
}

/// dynamic_partition: data and partitions share the batch dim.
fn split_rows<B: DimLike>(
    data: &Owned<f32, (B, Dim<4>)>,
    parts: &Owned<i32, (B,)>,
) -> Result<[Tensor<f32, shape![Dyn, 4], Vec<f32>>; 2], StitchError> {
    dynamic_partition(data, parts, Partitions::<2>).run()
}

/// Two tensors sharing the batch dim, through the checked forms: their two
/// `B`s are compared when the op runs (two `Dyn` row counts may differ),
/// and the bound is still `B: DimLike` alone.
fn add_rows<B: DimLike>(
    x: &Owned<f32, (B, Dim<4>)>,
    y: &Owned<f32, (B, Dim<4>)>,
) -> Result<Owned<f32, (B, Dim<4>)>, ElementwiseError> {
    x.try_elementwise_add(y, Axis::<-1>, Identity)
}

/// select with cond, then and else all over the batch dim.
fn pick_rows<B: DimLike>(
    keep: &Owned<bool, (B, Dim<4>)>,
    x: &Owned<f32, (B, Dim<4>)>,
    y: &Owned<f32, (B, Dim<4>)>,
) -> Result<Owned<f32, (B, Dim<4>)>, SelectError> {
    try_select(keep, x, y, Numpy)
}

/// The gradients of `x * y` for two tensors of the batch dim (`dout * y`,
/// `dout * x`), and of a select over the batch dim (dout where cond, else
/// zero; the rest to else).
fn grads_rows<B: DimLike>(
    x: &Owned<f32, (B, Dim<4>)>,
    y: &Owned<f32, (B, Dim<4>)>,
    keep: &Owned<bool, (B, Dim<4>)>,
    dout: &Owned<f32, (B, Dim<4>)>,
) -> Result<[Owned<f32, (B, Dim<4>)>; 4], String> {
    let out = x
        .try_elementwise_mul(y, Axis::<-1>, Identity)
        .map_err(|e| e.to_string())?;
    let (gx, gy) = x
        .try_elementwise_backward(Mul, y, &out, dout, Axis::<-1>, Identity)
        .map_err(|e| e.to_string())?;
    let (gt, ge) = try_select_backward(keep, x, y, dout, Numpy).map_err(|e| e.to_string())?;
    Ok([gx, gy, gt, ge])
}

/// A fused expression over two tensors of the batch dim.
fn fused_rows<B: DimLike>(
    x: &Owned<f32, (B, Dim<4>)>,
    y: &Owned<f32, (B, Dim<4>)>,
) -> Result<Owned<f32, (B, Dim<4>)>, ExprError> {
    (x.lazy() * y + 1.0).relu().try_eval()
}

/// lod_reset: the dense rows are the batch dim; the new level is checked
/// against their count when it runs. Returns the new level's offsets.
fn regroup<B: DimLike>(
    x: &Owned<f32, (B, Dim<4>)>,
    levels: &[Offsets<'_>],
    to: &[usize],
) -> Result<Vec<usize>, LodResetError> {
    let lod = LodTensor::new(x.view(), levels).expect("levels fit the rows");
    let out = lod.lod_reset(Offsets::new(to), false)?;
    Ok(out
        .level(0)
        .map(|l| l.as_slice().to_vec())
        .unwrap_or_default())
}

fn rows<B: DimLike>(b: B, data: Vec<f32>) -> Owned<f32, (B, Dim<4>)> {
    Tensor::from_shape_slice((b, Dim), &data).unwrap()
}

fn run_all<B: DimLike>(b: B) {
    // two rows: [1, -2, 3, -4], [-1, 2, -3, 4]
    let x = rows(b, vec![1.0, -2.0, 3.0, -4.0, -1.0, 2.0, -3.0, 4.0]);
    let w = tensor![1.0f32, 10.0, 100.0, 1000.0];
    let g = gate(&x, &w);
    assert_eq!(
        g.as_slice(),
        &[1.0, 0.0, 300.0, 0.0, 0.0, 20.0, 0.0, 4000.0]
    );
    assert_eq!(g.shape().0, b);
    let heap = Tensor::from_vec((b, Dim), x.as_slice().to_vec()).unwrap();
    assert_eq!(gate_heap(&heap, &w).as_slice(), g.as_slice());

    // relu(x * w + b), and its gradients: w where positive (for x), x (for w)
    let bias = tensor![0.5f32, 0.5, 0.5, 0.5];
    let [v, gx] = fused_gate(&x, &w, &bias).unwrap();
    assert_eq!(
        v.as_slice(),
        &[1.5, 0.0, 300.5, 0.0, 0.0, 20.5, 0.0, 4000.5]
    );
    assert_eq!(
        gx.as_slice(),
        &[1.0, 0.0, 100.0, 0.0, 0.0, 10.0, 0.0, 1000.0]
    );

    let mut out = rows(b, vec![0.0; 8]);
    gate_checked(&x, &w, &mut out).unwrap();
    assert_eq!(out.as_slice(), x.as_slice());

    let keep = tensor![true, false, true, false];
    let m = mask(&keep, &x, &Tensor::<f32, shape![4]>::zeros());
    assert_eq!(m.as_slice(), &[1.0, 0.0, 3.0, 0.0, -1.0, 0.0, -3.0, 0.0]);

    let a = Tensor::from_shape_slice((b, Dim), &[1, 2, 3, 4]).unwrap();
    let c = Tensor::from_shape_slice((b, Dim), &[10, 20, 30, 40]).unwrap();
    let index = Tensor::from_shape_slice((b, One), &[1, 0]).unwrap();
    assert_eq!(pick(a, c, &index).unwrap().as_slice(), &[10, 20, 3, 4]);

    // row 0 of x goes to output row 1 and row 1 to row 0
    let order = Tensor::from_shape_slice((b,), &[1, 0]).unwrap();
    let s = stitch_rows(&order, &x).unwrap();
    assert_eq!(s.as_slice(), &[-1.0, 2.0, -3.0, 4.0, 1.0, -2.0, 3.0, -4.0]);
    let [p0, p1] = split_rows(&x, &order).unwrap();
    assert_eq!(p0.as_slice(), &[-1.0, 2.0, -3.0, 4.0]);
    assert_eq!(p1.as_slice(), &[1.0, -2.0, 3.0, -4.0]);

    // the two rows as one sequence, regrouped as two of one row; an end
    // past the rows is the rule's error
    let one = [Offsets::new(&[0, 2])];
    assert_eq!(regroup(&x, &one, &[0, 1, 2]).unwrap(), vec![0, 1, 2]);
    assert_eq!(
        regroup(&x, &one, &[0, 1, 3]).unwrap_err().rule(),
        "lod_reset/end"
    );

    // two tensors of the batch dim: x + g, x where x > 0 else g, relu(x * g + 1)
    let sum = add_rows(&x, &g).unwrap();
    assert_eq!(sum.shape().0, b);
    assert_eq!(
        sum.as_slice(),
        &[2.0, -2.0, 303.0, -4.0, -1.0, 22.0, -3.0, 4004.0]
    );
    let positive = Tensor::from_shape_slice(
        (b, Dim),
        &x.as_slice().iter().map(|v| *v > 0.0).collect::<Vec<_>>(),
    )
    .unwrap();
    let picked = pick_rows(&positive, &x, &g).unwrap();
    assert_eq!(picked.as_slice(), &[1.0, 0.0, 3.0, 0.0, 0.0, 2.0, 0.0, 4.0]);
    let dout = rows(b, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
    let [gx, gy, gt, ge] = grads_rows(&x, &g, &positive, &dout).unwrap();
    let times = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(a, b)| a * b).collect::<Vec<f32>>();
    assert_eq!(gx.as_slice(), &times(dout.as_slice(), g.as_slice())[..]);
    assert_eq!(gy.as_slice(), &times(dout.as_slice(), x.as_slice())[..]);
    assert_eq!(gt.as_slice(), &[1.0, 0.0, 3.0, 0.0, 0.0, 6.0, 0.0, 8.0]);
    assert_eq!(ge.as_slice(), &[0.0, 2.0, 0.0, 4.0, 5.0, 0.0, 7.0, 0.0]);
    let fused = fused_rows(&x, &g).unwrap();
    assert_eq!(
        fused.as_slice(),
        &[2.0, 1.0, 901.0, 1.0, 1.0, 41.0, 1.0, 16001.0]
    );
}

/// Two `Dyn` batches of different sizes meet in a checked form: an error
/// naming the rule, not a panic.
#[test]
fn a_shared_dyn_batch_is_checked_when_it_runs() {
    let x = rows(Dyn(2), vec![1.0; 8]);
    let y = rows(Dyn(3), vec![1.0; 12]);
    assert_eq!(
        add_rows(&x, &y).unwrap_err().rule(),
        "elementwise/broadcast"
    );
    let keep = Tensor::from_shape_slice((Dyn(3), Dim), &[true; 12]).unwrap();
    assert_eq!(
        pick_rows(&keep, &x, &x).unwrap_err().rule(),
        "select/numpy-broadcast"
    );
    assert_eq!(
        fused_rows(&x, &y).unwrap_err().rule(),
        "elementwise/broadcast"
    );
}

#[test]
fn a_dyn_batch() {
    run_all(Dyn(2));
}

#[test]
fn a_branded_batch() {
    brand(2, |b| run_all(b));
}

#[test]
fn a_static_batch() {
    run_all(Dim::<2>);
}

#[test]
fn a_bounded_batch() {
    run_all(Bounded::<4>::new(2).unwrap());
}

/// Generic over static shapes: the one public bound `BroadcastWith` covers
/// the operators and the plain methods at numpy's axis.
fn outer<S: BroadcastWith<Y>, Y: StaticShape>(
    x: &Tensor<f32, S>,
    y: &Tensor<f32, Y>,
) -> Tensor<f32, BroadcastOf<S, Y>> {
    let sum = x.elementwise_add(y, Axis::<-1>, Relu);
    let prod = x * y;
    let mut out = sum;
    for (o, p) in out.as_mut_slice().iter_mut().zip(prod.as_slice()) {
        *o = o.max(*p);
    }
    out
}

#[test]
fn generic_static_shapes_with_one_bound() {
    let z = outer(&tensor![[1.0f32], [2.0]], &tensor![10.0f32, 20.0, 30.0]);
    assert_eq!(z.as_slice(), &[11.0, 21.0, 31.0, 20.0, 40.0, 60.0]);
}

/// Generic over one static shape, no bound beyond `S: StaticShape`: a
/// tensor of its own shape and a scalar meet it through the operators and
/// in a fused expression with its gradients.
fn adam_like<S: StaticShape>(
    p: &Tensor<f32, S>,
    g: &Tensor<f32, S>,
    m: &Tensor<f32, S>,
    beta: &Tensor<f32, shape![]>,
) -> (Tensor<f32, S>, Tensor<f32, S>) {
    // m' = beta * m + (1 - beta) * g, by the operators and a method
    let one_minus = &Tensor::<f32, shape![]>::full(1.0) - beta;
    let m2 = &(m * beta) + &(g * &one_minus);
    // p' = max(p - m', -1): the operator, then a map
    let p2 = (p - &m2).map(|v| v.max(-1.0));
    (p2, m2)
}

/// A fused expression reading `x` twice over any static shape: its value,
/// and one gradient per tensor (`x`'s the sum of its two shares).
fn fused_square_plus<S: StaticShape>(
    x: &Tensor<f32, S>,
    y: &Tensor<f32, S>,
) -> [Tensor<f32, S, Vec<f32>>; 3] {
    let e = x.lazy() * y + x;
    let v = e.try_eval().unwrap();
    let g = e.gradients(&Tensor::full(1.0)).unwrap();
    let v = Tensor::from_vec(*v.shape(), v.as_slice().to_vec()).unwrap();
    [v, g.of(x).unwrap(), g.of(y).unwrap()]
}

/// select over one static shape, no bound: then and else of the cond's
/// shape, or else a scalar; and the same in a fused expression.
fn where_positive<S: StaticShape>(
    c: &Tensor<bool, S>,
    x: &Tensor<f32, S>,
    y: &Tensor<f32, S>,
) -> [Tensor<f32, S>; 3] {
    let both = select(c, x, y, Numpy);
    let zeroed = select(c, x, &Tensor::<f32, shape![]>::full(0.0), Numpy);
    let fused = shapecheck::expr::select(c, x.lazy() * y, y.lazy() + 1.0, Numpy).eval();
    [both, zeroed, fused]
}

#[test]
fn one_static_shape_meets_itself_and_a_scalar_without_a_bound() {
    let p = tensor![[1.0f32, -2.0], [0.5, 4.0]];
    let g = tensor![[2.0f32, 2.0], [-2.0, 0.0]];
    let m = tensor![[0.0f32, 1.0], [1.0, 0.0]];
    let (p2, m2) = adam_like(&p, &g, &m, &Tensor::full(0.5));
    // naive: m' = 0.5 m + 0.5 g; p' = max(p - m', -1)
    let naive_m: Vec<f32> = m
        .as_slice()
        .iter()
        .zip(g.as_slice())
        .map(|(m, g)| 0.5 * m + 0.5 * g)
        .collect();
    let naive_p: Vec<f32> = p
        .as_slice()
        .iter()
        .zip(&naive_m)
        .map(|(p, m)| (p - m).max(-1.0))
        .collect();
    assert_eq!(m2.as_slice(), naive_m.as_slice());
    assert_eq!(p2.as_slice(), naive_p.as_slice());
    // a rank-3 and a rank-0 shape through the same function
    let (q, _) = adam_like(
        &Tensor::<f32, shape![2, 1, 3]>::full(3.0),
        &Tensor::full(2.0),
        &Tensor::full(0.0),
        &Tensor::full(0.5),
    );
    assert_eq!(q.as_slice(), &[2.0; 6]);
    let (r, _) = adam_like(
        &Tensor::<f32, shape![]>::full(0.0),
        &Tensor::full(4.0),
        &Tensor::full(0.0),
        &Tensor::full(0.5),
    );
    assert_eq!(r.as_slice(), &[-1.0]);

    let [v, gx, gy] = fused_square_plus(&tensor![1.0f32, 2.0, -3.0], &tensor![4.0f32, 0.5, 2.0]);
    assert_eq!(v.as_slice(), &[5.0, 3.0, -9.0]); // x * y + x
    assert_eq!(gx.as_slice(), &[5.0, 1.5, 3.0]); // y + 1
    assert_eq!(gy.as_slice(), &[1.0, 2.0, -3.0]); // x

    let c = tensor![[true, false, true]];
    let [both, zeroed, fused] = where_positive(
        &c,
        &tensor![[1.0f32, 2.0, 3.0]],
        &tensor![[4.0f32, 5.0, 6.0]],
    );
    assert_eq!(both.as_slice(), &[1.0, 5.0, 3.0]);
    assert_eq!(zeroed.as_slice(), &[1.0, 0.0, 3.0]);
    assert_eq!(fused.as_slice(), &[4.0, 6.0, 18.0]);
}

/// A helper generic over a width, the spelling that covers 1: `W: StaticDim`
/// takes `Dim<N>` and `One` (which `shape![2, 1]` writes for a width of 1).
fn scale_rows<W: StaticDim>(
    x: &Tensor<f32, (Dim<2>, W)>,
    k: &Tensor<f32, shape![2]>,
) -> Tensor<f32, (Dim<2>, W)> {
    x.elementwise_mul(k, Axis::<0>, Identity)
}

#[test]
fn a_width_of_one_and_of_three() {
    let narrow: Tensor<f32, shape![2, 1]> = tensor![[1.0f32], [2.0]];
    assert_eq!(
        scale_rows(&narrow, &tensor![10.0f32, 100.0]).as_slice(),
        &[10.0, 200.0]
    );
    let wide: Tensor<f32, shape![2, 3]> = tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
    assert_eq!(
        scale_rows(&wide, &tensor![10.0f32, 100.0]).as_slice(),
        &[10.0, 20.0, 30.0, 400.0, 500.0, 600.0]
    );
}

/// The dynamic path spelled as the static one.
#[test]
fn dyn_tensor_takes_the_static_markers() {
    let x = DynTensor::new(&[2, 2], vec![1.0f32, -2.0, 3.0, -4.0]).unwrap();
    let y = DynTensor::new(&[2], vec![10.0f32, 100.0]).unwrap();
    let a = x.elementwise_mul(&y, Axis::<0>, Relu).unwrap();
    assert_eq!(a.as_slice(), &[10.0, 0.0, 300.0, 0.0]);
    assert_eq!(a, x.elementwise_mul(&y, 0, ActivationKind::Relu).unwrap());
    let c = DynTensor::new(&[2], vec![true, false]).unwrap();
    let s = DynTensor::select(&c, &x, &a, Numpy).unwrap();
    assert_eq!(s.as_slice(), &[1.0, 0.0, 3.0, 0.0]);
    assert_eq!(
        s,
        DynTensor::select(&c, &x, &a, shapecheck::AutoBroadcast::Numpy).unwrap()
    );
}

/// Brands on borrowed tensors: the branded view reads the kept tensor's
/// buffer, a second tensor joins the brand, and the result leaves the
/// closure as `Dyn` rows in the buffer it was computed in.
#[test]
fn a_brand_on_a_borrowed_tensor() {
    let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec(
        (Dyn(3), Dim),
        vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    )
    .unwrap();
    let y = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(3), Dim), vec![2.0; 6]).unwrap();
    let (z, computed_at) = x.with_brand_view(|xb, rows| {
        assert_eq!(xb.as_slice().as_ptr(), x.as_slice().as_ptr()); // a view, no copy
        let yb = y.view().brand_rows(rows).unwrap();
        let p = xb.elementwise_mul(&yb, Axis::<-1>, Identity);
        let at = p.as_slice().as_ptr() as usize;
        (p.unbrand_rows(), at)
    });
    let z: Tensor<f32, shape![Dyn, 2], Vec<f32>> = z;
    assert_eq!(z.as_slice().as_ptr() as usize, computed_at); // moved out, not copied
    assert_eq!(z.as_slice(), &[2.0, 4.0, 6.0, 8.0, 10.0, 12.0]);
    // a wrong size does not join the brand
    let short =
        Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![0.0; 4]).unwrap();
    let err = x.with_brand_view(|_, rows| short.view().brand_rows(rows).unwrap_err());
    assert_eq!(err.rule(), "shape/brand-size");
}

/// Generic over an operand's storage (inline, a view, a `Vec`): the one
/// bound is `B: ResultStorage<f32, O>` for the result's shape, and the
/// result is stored as that bound says (inline for an inline or view
/// operand, a `Vec` for a `Vec` one), with the same values every time.
fn scale_any<B>(x: &Tensor<f32, shape![2, 3], B>) -> Tensor<f32, shape![2, 3], B::Out>
where
    B: ResultStorage<f32, shape![2, 3]>,
{
    x.elementwise_mul(&tensor![1.0f32, 2.0, 3.0], Axis::<-1>, Identity)
}

fn add_any<B, C>(x: &Tensor<f32, shape![2, 3], B>, y: &Tensor<f32, shape![2, 3], C>) -> Vec<f32>
where
    B: ResultStorage<f32, shape![2, 3]>,
    C: Storage<f32>,
{
    (x + y).as_slice().to_vec()
}

#[test]
fn generic_over_the_storage() {
    let x = tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let data = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
    let view = Tensor::<f32, shape![2, 3], &[f32]>::from_storage(&data[..]).unwrap();
    let heap =
        Tensor::<f32, shape![2, 3], Vec<f32>>::from_vec(Default::default(), data.to_vec()).unwrap();
    let want = [1.0, 4.0, 9.0, 4.0, 10.0, 18.0];
    let inline: Tensor<f32, shape![2, 3]> = scale_any(&x);
    let from_view: Tensor<f32, shape![2, 3]> = scale_any(&view);
    let from_heap: Tensor<f32, shape![2, 3], Vec<f32>> = scale_any(&heap);
    assert_eq!(inline.as_slice(), &want);
    assert_eq!(from_view.as_slice(), &want);
    assert_eq!(from_heap.as_slice(), &want);
    assert_eq!(add_any(&view, &heap), vec![2.0, 4.0, 6.0, 8.0, 10.0, 12.0]);
}
