//! The backwards of multiplex, dynamic_stitch, dynamic_partition and
//! lod_reset against the derivative of their forwards, independent of the
//! frameworks: central finite differences in f64 on random shapes (each op
//! is linear in its data, so the differences are exact up to rounding), and
//! the adjoint identity `<forward(v), d> == <v, backward(d)>`. Every form is
//! run (`DynTensor`, the slice forms, and static shapes where a test names
//! them) and they must agree.
#![allow(clippy::result_large_err)] // errors carry their dims inline (no heap)

use proptest::prelude::*;
use shapecheck::ops::multiplex::multiplex_backward_slices;
use shapecheck::ops::partition::partition_backward_slices;
use shapecheck::ops::stitch::{stitch_backward_slices, StitchGrad, StitchPair, WINDOW_ROWS};
use shapecheck::prelude::*;
use shapecheck::{
    dynamic_partition_backward, dynamic_partition_backward_into, multiplex_backward,
    multiplex_backward_into,
};
use shapecheck::{DynLodTensor, Lengths, MultiplexError};

/// `<a, b>`.
fn dot(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The central finite difference of `loss` at `inputs`, one gradient per
/// input: `(loss(x + h e_k) - loss(x - h e_k)) / 2h` for every element.
fn central_fd(inputs: &[Vec<f64>], loss: impl Fn(&[Vec<f64>]) -> f64) -> Vec<Vec<f64>> {
    let h = 0.25; // a power of two: every value below stays exact
    let mut grads = vec![];
    for m in 0..inputs.len() {
        let mut g = vec![0.0; inputs[m].len()];
        for (k, gk) in g.iter_mut().enumerate() {
            let mut plus = inputs.to_vec();
            plus[m][k] += h;
            let mut minus = inputs.to_vec();
            minus[m][k] -= h;
            *gk = (loss(&plus) - loss(&minus)) / (2.0 * h);
        }
        grads.push(g);
    }
    grads
}

fn assert_close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-9 * (1.0 + w.abs()),
            "{what}: at {k}, backward {g}, finite difference {w} (backward {got:?}, FD {want:?})"
        );
    }
}

/// Values that are small multiples of 1/2: sums and products stay exact.
fn values(n: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec((-8i32..=8).prop_map(|v| f64::from(v) / 2.0), n)
}

fn numel(d: &[usize]) -> usize {
    d.iter().product()
}

// ------------------------------------------------------------------ multiplex

#[derive(Debug, Clone)]
struct MultiplexCase {
    cand_dims: Vec<usize>,
    index: Vec<i32>,
    cands: Vec<Vec<f64>>,
    dout: Vec<f64>,
}

fn multiplex_case() -> impl Strategy<Value = MultiplexCase> {
    (
        2usize..=4,
        1usize..=5,
        prop::collection::vec(0usize..=3, 1..=2),
    )
        .prop_flat_map(|(k, rows, rest)| {
            let mut cand_dims = vec![rows];
            cand_dims.extend(&rest);
            let n = numel(&cand_dims);
            let row_len = numel(&rest);
            (0..=rows).prop_flat_map(move |index_rows| {
                let cand_dims = cand_dims.clone();
                (
                    prop::collection::vec(0..k as i32, index_rows),
                    prop::collection::vec(values(n), k),
                    values(index_rows * row_len),
                )
                    .prop_map(move |(index, cands, dout)| MultiplexCase {
                        cand_dims: cand_dims.clone(),
                        index,
                        cands,
                        dout,
                    })
            })
        })
}

fn multiplex_forward(c: &MultiplexCase, cands: &[Vec<f64>]) -> Vec<f64> {
    let ts: Vec<DynTensor<f64>> = cands
        .iter()
        .map(|v| DynTensor::new(&c.cand_dims, v.clone()).unwrap())
        .collect();
    let index = DynTensor::new(&[c.index.len(), 1], c.index.clone()).unwrap();
    DynTensor::multiplex(&ts, &index).unwrap().into_vec()
}

fn multiplex_grads(c: &MultiplexCase) -> Vec<Vec<f64>> {
    let ts: Vec<DynTensor<f64>> = c
        .cands
        .iter()
        .map(|v| DynTensor::new(&c.cand_dims, v.clone()).unwrap())
        .collect();
    let index = DynTensor::new(&[c.index.len(), 1], c.index.clone()).unwrap();
    let mut out_dims = c.cand_dims.clone();
    out_dims[0] = c.index.len();
    let dout = DynTensor::new(&out_dims, c.dout.clone()).unwrap();
    // borrowed candidates give the owned ones' gradients
    let refs: Vec<&DynTensor<f64>> = ts.iter().collect();
    let borrowed = DynTensor::multiplex_backward(&refs, &index, &dout).unwrap();
    let grads: Vec<Vec<f64>> = DynTensor::multiplex_backward(&ts, &index, &dout)
        .unwrap()
        .into_iter()
        .map(|g| {
            assert_eq!(g.dims().as_slice(), c.cand_dims.as_slice());
            g.into_vec()
        })
        .collect();
    let borrowed: Vec<Vec<f64>> = borrowed.into_iter().map(DynTensor::into_vec).collect();
    assert_eq!(borrowed, grads);
    // the slice form agrees, whatever its buffers held
    let shapes: Vec<&[usize]> = c.cands.iter().map(|_| c.cand_dims.as_slice()).collect();
    let mut bufs: Vec<Vec<f64>> = c.cands.iter().map(|v| vec![99.0; v.len()]).collect();
    let mut slices: Vec<&mut [f64]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
    multiplex_backward_slices(
        &shapes,
        &[c.index.len(), 1],
        &c.index,
        &out_dims,
        &c.dout,
        &mut slices,
    )
    .unwrap();
    assert_eq!(bufs, grads);
    grads
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn multiplex_backward_is_the_derivative(c in multiplex_case()) {
        let grads = multiplex_grads(&c);
        let fd = central_fd(&c.cands, |x| dot(&multiplex_forward(&c, x), &c.dout));
        for (m, (g, f)) in grads.iter().zip(&fd).enumerate() {
            assert_close(g, f, &format!("candidate {m}"));
        }
        // adjoint: <forward(v), d> == sum_m <v_m, grad_m>
        let lhs = dot(&multiplex_forward(&c, &c.cands), &c.dout);
        let rhs: f64 = c.cands.iter().zip(&grads).map(|(v, g)| dot(v, g)).sum();
        prop_assert_eq!(lhs, rhs);
    }
}

#[test]
fn multiplex_static_forms_agree_and_zero_the_unread_rows() {
    let a = Tensor::<f64, shape![3, 2]>::from_array([[1., 2.], [3., 4.], [5., 6.]]);
    let b = Tensor::<f64, shape![3, 2]>::from_array([[-1., -2.], [-3., -4.], [-5., -6.]]);
    let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [1]]);
    let dout = Tensor::<f64, shape![2, 2]>::from_array([[0.5, 1.5], [2.5, 3.5]]);
    let [ga, gb] = multiplex_backward(&[a, b], &index, &dout).unwrap();
    assert_eq!(ga.as_slice(), &[0.0; 6]);
    assert_eq!(gb.as_slice(), &[0.5, 1.5, 2.5, 3.5, 0.0, 0.0]);
    let mut into = [Tensor::<f64, shape![3, 2]>::full(7.0); 2];
    multiplex_backward_into(&[a, b], &index, &dout, &mut into).unwrap();
    assert_eq!(into, [ga, gb]);
    // an index value out of range: the error, nothing written
    let bad = Tensor::<i32, shape![2, 1]>::from_array([[0], [2]]);
    let mut kept = [Tensor::<f64, shape![3, 2]>::full(7.0); 2];
    let err = multiplex_backward_into(&[a, b], &bad, &dout, &mut kept).unwrap_err();
    assert_eq!(
        err,
        MultiplexError::IndexOutOfRange {
            row: 1,
            value: 2,
            candidates: 2
        }
    );
    assert_eq!(kept, [Tensor::<f64, shape![3, 2]>::full(7.0); 2]);
}

#[test]
fn multiplex_dyn_rows_check_dout_at_run_time() {
    let a = Tensor::<f64, shape![Dyn, 2], Vec<f64>>::from_vec((Dyn(3), Dim), vec![0.0; 6]).unwrap();
    let index =
        Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(2), One), vec![0, 1]).unwrap();
    let dout =
        Tensor::<f64, shape![Dyn, 2], Vec<f64>>::from_vec((Dyn(3), Dim), vec![1.0; 6]).unwrap();
    let err = multiplex_backward(&[a.clone(), a.clone()], &index, &dout).unwrap_err();
    assert_eq!(err.rule(), "multiplex/dout-shape");
    let dout =
        Tensor::<f64, shape![Dyn, 2], Vec<f64>>::from_vec((Dyn(2), Dim), vec![1., 2., 3., 4.])
            .unwrap();
    let [g0, g1] = multiplex_backward(&[a.clone(), a], &index, &dout).unwrap();
    assert_eq!(g0.as_slice(), &[1., 2., 0., 0., 0., 0.]);
    assert_eq!(g1.as_slice(), &[0., 0., 3., 4., 0., 0.]);
}

// ------------------------------------------------------------ dynamic_stitch

#[derive(Debug, Clone)]
struct StitchCase {
    slice: Vec<usize>,
    /// per pair: indices dims, index values, data values
    pairs: Vec<(Vec<usize>, Vec<i32>, Vec<f64>)>,
    dout: Vec<f64>,
}

impl StitchCase {
    fn data_dims(&self, m: usize) -> Vec<usize> {
        let mut d = self.pairs[m].0.clone();
        d.extend(&self.slice);
        d
    }
    fn rows(&self) -> usize {
        self.pairs
            .iter()
            .flat_map(|p| p.1.iter())
            .map(|&v| v as usize + 1)
            .max()
            .unwrap_or(0)
    }
    fn out_dims(&self) -> Vec<usize> {
        let mut d = vec![self.rows()];
        d.extend(&self.slice);
        d
    }
}

fn stitch_case(max_index: i32) -> impl Strategy<Value = StitchCase> {
    (
        prop::collection::vec(1usize..=3, 0..=2),
        prop::collection::vec(prop::collection::vec(0usize..=3, 0..=2), 1..=3),
    )
        .prop_flat_map(move |(slice, index_dims)| {
            let n = numel(&slice);
            let pairs: Vec<_> = index_dims
                .into_iter()
                .map(|d| {
                    let count = numel(&d);
                    (
                        Just(d),
                        prop::collection::vec(0..=max_index, count),
                        values(count * n),
                    )
                })
                .collect();
            (Just(slice), pairs)
        })
        .prop_flat_map(|(slice, pairs)| {
            let c = StitchCase {
                slice: slice.clone(),
                pairs: pairs.clone(),
                dout: vec![],
            };
            let len = numel(&c.out_dims());
            values(len).prop_map(move |dout| StitchCase {
                slice: slice.clone(),
                pairs: pairs.clone(),
                dout,
            })
        })
}

fn stitch_forward(c: &StitchCase, data: &[Vec<f64>]) -> Vec<f64> {
    let idx: Vec<DynTensor<i32>> = c
        .pairs
        .iter()
        .map(|p| DynTensor::new(&p.0, p.1.clone()).unwrap())
        .collect();
    let dat: Vec<DynTensor<f64>> = (0..c.pairs.len())
        .map(|m| DynTensor::new(&c.data_dims(m), data[m].clone()).unwrap())
        .collect();
    let pairs: Vec<_> = idx.iter().zip(&dat).collect();
    DynTensor::dynamic_stitch(&pairs).unwrap().into_vec()
}

fn stitch_grads(c: &StitchCase, mode: StitchGrad) -> Vec<Vec<f64>> {
    let idx: Vec<DynTensor<i32>> = c
        .pairs
        .iter()
        .map(|p| DynTensor::new(&p.0, p.1.clone()).unwrap())
        .collect();
    let dat: Vec<DynTensor<f64>> = (0..c.pairs.len())
        .map(|m| DynTensor::new(&c.data_dims(m), c.pairs[m].2.clone()).unwrap())
        .collect();
    let pairs: Vec<_> = idx.iter().zip(&dat).collect();
    let dout = DynTensor::new(&c.out_dims(), c.dout.clone()).unwrap();
    let grads: Vec<Vec<f64>> = DynTensor::dynamic_stitch_backward(&pairs, &dout, mode)
        .unwrap()
        .into_iter()
        .map(DynTensor::into_vec)
        .collect();
    // the slice form (its stack window) agrees, whatever its buffers held
    let dims: Vec<Vec<usize>> = (0..c.pairs.len()).map(|m| c.data_dims(m)).collect();
    let views: Vec<StitchPair<'_, f64>> = c
        .pairs
        .iter()
        .zip(&dims)
        .map(|(p, d)| StitchPair::new(&p.0, &p.1, d, &p.2).unwrap())
        .collect();
    let mut bufs: Vec<Vec<f64>> = c.pairs.iter().map(|p| vec![99.0; p.2.len()]).collect();
    let mut slices: Vec<&mut [f64]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
    stitch_backward_slices(&views, &c.out_dims(), &c.dout, mode, &mut slices).unwrap();
    assert_eq!(
        bufs, grads,
        "stitch_backward_slices vs DynTensor ({mode:?})"
    );
    grads
}

/// Does any index value appear twice?
fn has_duplicates(c: &StitchCase) -> bool {
    let mut seen = std::collections::HashSet::new();
    c.pairs
        .iter()
        .flat_map(|p| p.1.iter())
        .any(|v| !seen.insert(*v))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn stitch_backward_is_the_derivative(c in stitch_case(5)) {
        let data: Vec<Vec<f64>> = c.pairs.iter().map(|p| p.2.clone()).collect();
        let grads = stitch_grads(&c, StitchGrad::Derivative);
        let fd = central_fd(&data, |x| dot(&stitch_forward(&c, x), &c.dout));
        for (m, (g, f)) in grads.iter().zip(&fd).enumerate() {
            assert_close(g, f, &format!("data {m}"));
        }
        let lhs = dot(&stitch_forward(&c, &data), &c.dout);
        let rhs: f64 = data.iter().zip(&grads).map(|(v, g)| dot(v, g)).sum();
        prop_assert_eq!(lhs, rhs);
    }

    /// TensorFlow's gather: the derivative when no index repeats; with a
    /// repeat, each row's gradient is handed to every entry that named it.
    #[test]
    fn stitch_tf_gather_is_the_gather(c in stitch_case(5)) {
        let gather = stitch_grads(&c, StitchGrad::TfGather);
        let n = numel(&c.slice);
        for (m, p) in c.pairs.iter().enumerate() {
            for (j, &v) in p.1.iter().enumerate() {
                let v = v as usize;
                prop_assert_eq!(&gather[m][j * n..(j + 1) * n], &c.dout[v * n..(v + 1) * n]);
            }
        }
        if !has_duplicates(&c) {
            prop_assert_eq!(gather, stitch_grads(&c, StitchGrad::Derivative));
        }
    }
}

/// An output of more rows than the stack window of the no-heap forms: the
/// windows give what the full bit set of `DynTensor` gives.
#[test]
fn stitch_derivative_over_several_windows() {
    let rows = 2 * WINDOW_ROWS + 37;
    // each row named twice, from both ends, plus a third time for some
    let mut ix: Vec<i32> = (0..rows as i32).collect();
    ix.extend((0..rows as i32).rev());
    ix.extend((0..rows as i32).step_by(7));
    let data: Vec<f64> = (0..ix.len()).map(|k| k as f64).collect();
    let dout: Vec<f64> = (0..rows).map(|r| (r % 13) as f64 - 6.0).collect();
    let c = StitchCase {
        slice: vec![],
        pairs: vec![(vec![ix.len()], ix.clone(), data)],
        dout: dout.clone(),
    };
    let g = stitch_grads(&c, StitchGrad::Derivative);
    // the last writer of each row gets its dout, every earlier entry zero
    let mut last = vec![usize::MAX; rows];
    for (j, &v) in ix.iter().enumerate() {
        last[v as usize] = j;
    }
    for (j, &v) in ix.iter().enumerate() {
        let want = if last[v as usize] == j {
            dout[v as usize]
        } else {
            0.0
        };
        assert_eq!(g[0][j], want, "entry {j} (row {v})");
    }
}

#[test]
fn stitch_static_forms() {
    let i0 = tensor![0, 2, 0];
    let d0 = tensor![[1.0f64, 2.0], [3.0, 4.0], [5.0, 6.0]];
    let i1 = Tensor::<i64, shape![]>::from_array(1);
    let d1 = tensor![7.0f64, 8.0];
    let stitch = dynamic_stitch(&i0, &d0).pair(&i1, &d1);
    let dout = Tensor::<f64, shape![Dyn, 2], Vec<f64>>::from_vec(
        (Dyn(3), Dim),
        vec![1., 2., 3., 4., 5., 6.],
    )
    .unwrap();
    let (((), g0), g1) = stitch.backward(&dout).unwrap();
    assert_eq!(g0.as_slice(), &[0., 0., 5., 6., 1., 2.]);
    assert_eq!(g1.as_slice(), &[3., 4.]);
    let (((), t0), t1) = stitch.backward_with(&dout, StitchGrad::TfGather).unwrap();
    assert_eq!(t0.as_slice(), &[1., 2., 5., 6., 1., 2.]);
    assert_eq!(t1, g1);
    // into caller tensors; a dout in a room (Bounded rows) works too
    let bounded = stitch.run_bounded::<4>().unwrap();
    let mut h0 = Tensor::<f64, shape![3, 2]>::full(9.0);
    let mut h1 = Tensor::<f64, shape![2]>::full(9.0);
    stitch
        .backward_into(
            &bounded,
            StitchGrad::Derivative,
            &mut (((), &mut h0), &mut h1),
        )
        .unwrap();
    assert_eq!(h0.as_slice(), &[0., 0., 3., 4., 5., 6.]);
    assert_eq!(h1.as_slice(), &[7., 8.]);
    // a dout of another row count: the error, nothing written
    let short =
        Tensor::<f64, shape![Dyn, 2], Vec<f64>>::from_vec((Dyn(2), Dim), vec![0.; 4]).unwrap();
    let err = stitch
        .backward_into(
            &short,
            StitchGrad::Derivative,
            &mut (((), &mut h0), &mut h1),
        )
        .unwrap_err();
    assert_eq!(err.rule(), "dynamic_stitch/dout-shape");
    assert_eq!(h1.as_slice(), &[7., 8.]);
}

// --------------------------------------------------------- dynamic_partition

#[derive(Debug, Clone)]
struct PartitionCase {
    part_dims: Vec<usize>,
    slice: Vec<usize>,
    num: usize,
    parts: Vec<i32>,
    data: Vec<f64>,
}

fn partition_case() -> impl Strategy<Value = PartitionCase> {
    (
        prop::collection::vec(0usize..=4, 0..=2),
        prop::collection::vec(1usize..=3, 0..=2),
        1usize..=4,
    )
        .prop_flat_map(|(part_dims, slice, num)| {
            let count = numel(&part_dims);
            let n = numel(&slice);
            (
                Just(part_dims),
                Just(slice),
                Just(num),
                prop::collection::vec(0..num as i32, count),
                values(count * n),
            )
        })
        .prop_map(|(part_dims, slice, num, parts, data)| PartitionCase {
            part_dims,
            slice,
            num,
            parts,
            data,
        })
}

impl PartitionCase {
    fn data_dims(&self) -> Vec<usize> {
        let mut d = self.part_dims.clone();
        d.extend(&self.slice);
        d
    }
}

fn partition_forward(c: &PartitionCase, data: &[f64]) -> Vec<DynTensor<f64>> {
    let d = DynTensor::new(&c.data_dims(), data.to_vec()).unwrap();
    let p = DynTensor::new(&c.part_dims, c.parts.clone()).unwrap();
    d.dynamic_partition(&p, c.num).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn partition_backward_is_the_derivative(c in partition_case(), seed in any::<u64>()) {
        // one dout per output, shaped like it (values from the seed)
        let outs = partition_forward(&c, &c.data);
        let mut s = seed;
        let mut next = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            f64::from(((s >> 33) % 17) as i32 - 8) / 2.0
        };
        let douts: Vec<DynTensor<f64>> = outs
            .iter()
            .map(|o| DynTensor::new(&o.dims(), (0..o.as_slice().len()).map(|_| next()).collect()).unwrap())
            .collect();
        let d = DynTensor::new(&c.data_dims(), c.data.clone()).unwrap();
        let p = DynTensor::new(&c.part_dims, c.parts.clone()).unwrap();
        let grad = d.dynamic_partition_backward(&p, &douts).unwrap();
        prop_assert_eq!(grad.dims(), d.dims());
        let grad = grad.into_vec();
        // the slice form agrees
        let dims: Vec<Vec<usize>> = douts.iter().map(|t| t.dims().to_vec()).collect();
        let views: Vec<(&[usize], &[f64])> = dims.iter().zip(&douts).map(|(d, t)| (d.as_slice(), t.as_slice())).collect();
        let mut buf = vec![99.0; c.data.len()];
        partition_backward_slices(&c.data_dims(), &c.part_dims, &c.parts, &views, &mut buf).unwrap();
        prop_assert_eq!(&buf, &grad);
        let loss = |x: &[Vec<f64>]| -> f64 {
            partition_forward(&c, &x[0]).iter().zip(&douts).map(|(o, d)| dot(o.as_slice(), d.as_slice())).sum()
        };
        let fd = central_fd(std::slice::from_ref(&c.data), loss);
        assert_close(&grad, &fd[0], "data");
        prop_assert_eq!(loss(std::slice::from_ref(&c.data)), dot(&c.data, &grad));
    }
}

#[test]
fn partition_static_forms() {
    let data = Tensor::<f64, shape![4, 2]>::from_array([[1., 2.], [3., 4.], [5., 6.], [7., 8.]]);
    let parts = Tensor::<i32, shape![4]>::from_array([1, 0, 1, 1]);
    let [a, b] = dynamic_partition(&data, &parts, Partitions::<2>)
        .run()
        .unwrap();
    let g = dynamic_partition_backward(&data, &parts, Partitions::<2>, &[a.clone(), b.clone()])
        .unwrap();
    let _: &Tensor<f64, shape![4, 2]> = &g;
    assert_eq!(g, data);
    let mut into = Tensor::<f64, shape![4, 2]>::full(0.0);
    dynamic_partition_backward_into(
        &data,
        &parts,
        Partitions::<2>,
        &[a.clone(), b.clone()],
        &mut into,
    )
    .unwrap();
    assert_eq!(into, data);
    // douts swapped: output 0 has 1 row, its dout 3
    let mut kept = Tensor::<f64, shape![4, 2]>::full(-1.0);
    let err = dynamic_partition_backward_into(&data, &parts, Partitions::<2>, &[b, a], &mut kept)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "dynamic_partition backward: dout[0] must have output 0's shape [1, 2], but it is [3, 2]"
    );
    assert_eq!(kept, Tensor::<f64, shape![4, 2]>::full(-1.0));
}

// ------------------------------------------------------------------ lod_reset

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn lod_reset_backward_is_the_identity_under_x_lod(
        lengths in prop::collection::vec(0usize..=3, 1..=4),
        cols in 1usize..=3,
        seed in any::<i32>(),
    ) {
        let rows: usize = lengths.iter().sum();
        let x = DynLodTensor::from_lengths(
            DynTensor::new(&[rows, cols], vec![0.0f64; rows * cols]).unwrap(),
            &[Lengths::new(&lengths)],
        )
        .unwrap();
        let target = [0, rows];
        let out = x.clone().lod_reset(None, Some(Offsets::new(&target)), false).unwrap();
        prop_assert_eq!(out.level(0).unwrap().as_slice(), &target[..]);
        let dout: Vec<f64> = (0..rows * cols).map(|k| f64::from(seed.wrapping_add(k as i32) % 9)).collect();
        let dx = x.lod_reset_backward(DynTensor::new(&[rows, cols], dout.clone()).unwrap()).unwrap();
        prop_assert_eq!(dx.dense().as_slice(), &dout[..]);
        prop_assert_eq!(dx.lod().as_offsets(), x.lod().as_offsets());
    }
}

#[test]
fn lod_reset_static_forms() {
    let levels = [Offsets::new(&[0, 1, 3])];
    let x = LodTensor::new(Tensor::<f32, shape![3, 2]>::full(1.0), &levels[..]).unwrap();
    let dout = Tensor::<f32, shape![3, 2]>::from_array([[1., 2.], [3., 4.], [5., 6.]]);
    let dx = x.lod_reset_backward(dout);
    assert_eq!(dx.as_slice(), dout.as_slice());
    assert_eq!(dx.level(0).unwrap().as_slice(), &[0, 1, 3]);
    let mut grad = Tensor::<f32, shape![3, 2]>::full(0.0);
    x.lod_reset_backward_into(&dout, &mut grad).unwrap();
    assert_eq!(grad, dout);
}

/// dynamic_stitch's and dynamic_partition's outputs have run-time rows: a
/// `dout` may come with them branded (as a chain of branded ops gives it)
/// or bounded as well as `Dyn`.
#[test]
fn branded_douts() {
    let (i, d) = (
        tensor![1, 0, 1],
        tensor![[1.0f64, 2.0], [3.0, 4.0], [5.0, 6.0]],
    );
    let stitch = dynamic_stitch(&i, &d);
    let merged = stitch.run().unwrap(); // [[3, 4], [5, 6]]
    let g = merged.with_brand(|dout, _rows| {
        let _: &Tensor<f64, (Branded<'_>, Dim<2>), Vec<f64>> = &dout;
        stitch.backward(&dout).map(|((), g)| g)
    });
    assert_eq!(g.unwrap().as_slice(), &[0., 0., 3., 4., 5., 6.]);

    // the bounded outputs of dynamic_partition as its douts
    let parts = tensor![1, 0, 1];
    let outs = dynamic_partition(&d, &parts, Partitions::<2>)
        .run_bounded::<3>()
        .unwrap();
    let g = dynamic_partition_backward(&d, &parts, Partitions::<2>, &outs).unwrap();
    assert_eq!(g, d);
}
