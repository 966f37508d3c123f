//! Capacity-bounded tensors (`Bounded<CAP>` rows in a `Room`): their size,
//! and the bounded forms of dynamic_stitch, dynamic_partition and multiplex
//! against the heap forms for random shapes and capacities (equal results
//! when the output fits, `shape/capacity` naming both values when not).

use proptest::prelude::*;
use shapecheck::prelude::*;
use shapecheck::storage::BoundedTensor;
use shapecheck::Room;
use shapecheck::{dynamic_partition, BoundedLod, Lengths, LodTensor, Partitions};

type Rows64 = (Bounded<64>, Dim<16>);

/// The figure: capacity's worth of elements plus one length per
/// bounded dim (64 × 16 × 4 + 8 = 4104 bytes on a 64-bit target).
#[test]
fn size_is_the_capacity_plus_one_length_per_bounded_dim() {
    let size = core::mem::size_of::<Tensor<f32, Rows64, Room<f32, Rows64>>>();
    assert_eq!(size, 64 * 16 * 4 + core::mem::size_of::<usize>());
    #[cfg(target_pointer_width = "64")]
    assert_eq!(size, 4104);
    type Two = (Bounded<4>, Bounded<3>);
    assert_eq!(
        core::mem::size_of::<Tensor<u8, Two, Room<u8, Two>>>(),
        16 + 2 * core::mem::size_of::<usize>()
    );
}

#[test]
fn a_size_past_the_capacity_is_refused_when_made() {
    let err = <Rows64 as Shape>::from_dims(&[65, 16]).unwrap_err();
    assert_eq!(
        err,
        ShapeError::Capacity {
            axis: 0,
            capacity: 64,
            found: 65
        }
    );
    assert_eq!(err.rule(), "shape/capacity");
    let ok = <Rows64 as Shape>::from_dims(&[64, 16]).unwrap();
    let t = Tensor::<f32, Rows64, Room<f32, Rows64>>::try_full_with_shape(ok, 1.0).unwrap();
    assert_eq!(t.as_slice().len(), 1024);
}

#[test]
fn a_bounded_tensor_meets_others_through_the_algebra() {
    type S = (Bounded<4>, Dim<2>);
    let x = Tensor::<f32, S, Room<f32, S>>::from_shape_slice(
        <S as Shape>::from_dims(&[2, 2]).unwrap(),
        &[1.0, 2.0, 3.0, 4.0],
    )
    .unwrap();
    // against 1 and nothing: no check, the plain form
    let col = Tensor::<f32, (One, One)>::from_array([[10.0]]);
    let y = x.elementwise_mul(&col, Axis::<-1>, Identity);
    assert_eq!(y.as_slice(), &[10.0, 20.0, 30.0, 40.0]);
    // against a run-time dim: the `try_` form checks it
    let d = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(3), Dim), vec![0.0; 6]).unwrap();
    let err = x.try_elementwise_add(&d, Axis::<-1>, Identity).unwrap_err();
    assert!(err.to_string().contains("[2, 2]"), "{err}");
}

/// A stitch of two pairs with slice [3] and random indices: `run_bounded`
/// at capacity `CAP` against `run`.
fn stitch_agrees<const CAP: usize>(i0: &[i32], i1: &[i32]) {
    let pair = |idx: &[i32]| {
        let n = idx.len();
        let i = Tensor::<i32, shape![Dyn], Vec<i32>>::from_vec((Dyn(n),), idx.to_vec()).unwrap();
        let data: Vec<i64> = (0..n * 3)
            .map(|k| k as i64 * 7 + i64::from(idx.len() as i32))
            .collect();
        let d = Tensor::<i64, shape![Dyn, 3], Vec<i64>>::from_vec((Dyn(n), Dim), data).unwrap();
        (i, d)
    };
    let ((a, da), (b, db)) = (pair(i0), pair(i1));
    let heap = dynamic_stitch(&a, &da).pair(&b, &db).run();
    let bounded: Result<BoundedTensor<i64, shape![Dyn, 3], CAP>, _> =
        dynamic_stitch(&a, &da).pair(&b, &db).run_bounded::<CAP>();
    match (heap, bounded) {
        (Ok(h), Ok(b)) => assert_eq!((h.dims(), h.as_slice()), (b.dims(), b.as_slice())),
        (Ok(h), Err(e)) => {
            assert!(h.dims().as_slice()[0] > CAP, "{e}");
            assert_eq!(
                e,
                StitchError::Shape(ShapeError::Capacity {
                    axis: 0,
                    capacity: CAP,
                    found: h.dims().as_slice()[0]
                })
            );
        }
        (Err(h), Err(b)) => assert_eq!(h, b),
        (Err(h), Ok(_)) => panic!("the heap form fails ({h}), the bounded one does not"),
    }
}

/// dynamic_partition into 3 outputs of rows [2] each: bounded against heap.
fn partition_agrees<const CAP: usize>(parts: &[i32]) {
    let n = parts.len();
    let data: Vec<u16> = (0..n * 2).map(|k| k as u16).collect();
    let d = Tensor::<u16, shape![Dyn, 2], Vec<u16>>::from_vec((Dyn(n), Dim), data).unwrap();
    let p = Tensor::<i32, shape![Dyn], Vec<i32>>::from_vec((Dyn(n),), parts.to_vec()).unwrap();
    let heap = dynamic_partition(&d, &p, Partitions::<3>).run();
    let bounded = dynamic_partition(&d, &p, Partitions::<3>).run_bounded::<CAP>();
    match (heap, bounded) {
        (Ok(h), Ok(b)) => {
            for (h, b) in h.iter().zip(&b) {
                assert_eq!((h.dims(), h.as_slice()), (b.dims(), b.as_slice()));
            }
        }
        (Ok(h), Err(e)) => {
            let most = h.iter().map(|t| t.dims().as_slice()[0]).max().unwrap();
            assert!(most > CAP);
            assert_eq!(e.rule(), "shape/capacity");
        }
        (Err(h), Err(b)) => assert_eq!(h, b),
        (Err(h), Ok(_)) => panic!("the heap form fails ({h}), the bounded one does not"),
    }
}

/// multiplex of two [6, 2] candidates with a `Dyn`-rowed index.
fn multiplex_agrees<const CAP: usize>(index: &[i32]) {
    let a = Tensor::<i32, shape![6, 2]>::from_fn(|i| (i[0] * 2 + i[1]) as i32);
    let b = Tensor::<i32, shape![6, 2]>::from_fn(|i| 100 + (i[0] * 2 + i[1]) as i32);
    let rows = index.len();
    let idx = Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(rows), One), index.to_vec())
        .unwrap();
    let heap = multiplex(&[a, b], &idx).run();
    let bounded = multiplex(&[a, b], &idx).run_bounded::<CAP>();
    match (heap, bounded) {
        (Ok(h), Ok(b)) => assert_eq!((h.dims(), h.as_slice()), (b.dims(), b.as_slice())),
        (Ok(_), Err(e)) => {
            assert!(rows > CAP);
            assert_eq!(e.rule(), "shape/capacity");
            let why = format!(
                "dim 0 holds at most {CAP} (its capacity in the shape type), but {rows} was given"
            );
            assert!(e.to_string().ends_with(&why), "{e}");
        }
        (Err(h), Err(b)) => assert_eq!(h, b),
        (Err(h), Ok(_)) => panic!("the heap form fails ({h}), the bounded one does not"),
    }
}

/// multiplex of two [6, 2] candidates with a static index [3, 1] (the
/// bounded forms' static path) against the static form, both bounded forms,
/// capacities below, at and above the index's rows, every index of values
/// -1..=2 (two candidates: -1 and 2 are out of range).
fn multiplex_static_agrees<const CAP: usize>() {
    let a = Tensor::<i32, shape![6, 2]>::from_fn(|i| (i[0] * 2 + i[1]) as i32);
    let b = Tensor::<i32, shape![6, 2]>::from_fn(|i| 100 + (i[0] * 2 + i[1]) as i32);
    for v in 0..64 {
        let values = [v % 4 - 1, (v / 4) % 4 - 1, v / 16 - 1];
        let idx = Tensor::<i32, shape![3, 1]>::from_array([[values[0]], [values[1]], [values[2]]]);
        let plain = multiplex(&[a, b], &idx).run();
        let bounded = multiplex(&[a, b], &idx).run_bounded::<CAP>();
        let empty = <(Bounded<CAP>, Dim<2>) as Shape>::from_dims(&[0, 2]).unwrap();
        let mut kept: BoundedTensor<i32, shape![Dyn, 2], CAP> =
            Tensor::from_shape_slice(empty, &[]).unwrap();
        let into = multiplex(&[a, b], &idx).run_bounded_into(&mut kept);
        match (plain, bounded) {
            (Ok(p), Ok(b)) => {
                assert!(CAP >= 3);
                assert_eq!((p.dims(), p.as_slice()), (b.dims(), b.as_slice()));
                assert_eq!(into, Ok(()));
                assert_eq!((kept.dims(), kept.as_slice()), (b.dims(), b.as_slice()));
            }
            (Ok(_), Err(e)) => {
                assert!(CAP < 3);
                assert_eq!(e.rule(), "shape/capacity", "{values:?}");
                assert_eq!(into.unwrap_err(), e);
                assert_eq!(kept.dims().as_slice(), &[0, 2]);
            }
            // an index value out of range is reported before the capacity
            (Err(p), Err(b)) => {
                assert_eq!(p, b, "{values:?}");
                assert_eq!(into.unwrap_err(), b);
                assert_eq!(kept.dims().as_slice(), &[0, 2]);
            }
            (Err(p), Ok(_)) => {
                panic!("{values:?}: the static form fails ({p}), the bounded one does not")
            }
        }
    }
}

#[test]
fn bounded_multiplex_with_static_shapes_equals_the_static_form() {
    multiplex_static_agrees::<2>();
    multiplex_static_agrees::<3>();
    multiplex_static_agrees::<5>();
}

proptest! {
    #[test]
    fn bounded_stitch_equals_the_vec_result(
        i0 in prop::collection::vec(-1i32..12, 0..6),
        i1 in prop::collection::vec(0i32..12, 0..6),
    ) {
        stitch_agrees::<0>(&i0, &i1);
        stitch_agrees::<3>(&i0, &i1);
        stitch_agrees::<7>(&i0, &i1);
        stitch_agrees::<12>(&i0, &i1);
        stitch_agrees::<16>(&i0, &i1);
    }

    #[test]
    fn bounded_partition_equals_the_vec_results(parts in prop::collection::vec(0i32..4, 0..10)) {
        partition_agrees::<0>(&parts);
        partition_agrees::<2>(&parts);
        partition_agrees::<4>(&parts);
        partition_agrees::<10>(&parts);
    }

    #[test]
    fn bounded_multiplex_equals_the_vec_result(index in prop::collection::vec(0i32..3, 0..8)) {
        multiplex_agrees::<0>(&index);
        multiplex_agrees::<3>(&index);
        multiplex_agrees::<6>(&index);
        multiplex_agrees::<8>(&index);
    }
}

/// Two bounded tensors proven equal by one brand meet in the plain forms:
/// no heap, no run-time shape comparison after the one check.
#[test]
fn bounded_tensors_carry_a_brand() {
    let idx = tensor![1, 0];
    let a = dynamic_stitch(&idx, &tensor![[1.0f32, 2.0], [3.0, 4.0]])
        .run_bounded::<4>()
        .unwrap();
    let b = dynamic_stitch(&idx, &tensor![[10.0f32, 20.0], [30.0, 40.0]])
        .run_bounded::<4>()
        .unwrap();
    let mut sum = [0.0f32; 4];
    a.with_brand(|a, rows| {
        let b = b.brand_rows(rows).unwrap();
        let mut out = Tensor::<f32, (Dyn, Dim<2>), &mut [f32]>::with_dims(&[2, 2], &mut sum[..])
            .unwrap()
            .brand_rows(rows)
            .unwrap();
        a.elementwise_add_into(&b, Axis::<-1>, Identity, &mut out);
    });
    assert_eq!(sum, [33.0, 44.0, 11.0, 22.0]);
}

proptest! {
    /// Levels stored inline (`BoundedLod`) equal the heap's (`OwnedLod`
    /// through `from_lengths`) whenever they fit, and are `lod/capacity`
    /// exactly when a level has more offsets, or the LoD more levels, than
    /// the type has room for.
    #[test]
    fn bounded_lod_levels_equal_the_heap_levels(
        lens in proptest::collection::vec(proptest::collection::vec(0usize..3, 1..6), 1..4),
    ) {
        // the rows the last level covers, and upper levels that nest
        let last: Vec<usize> = lens.last().cloned().unwrap_or_default();
        let rows: usize = last.iter().sum();
        let mut levels: Vec<Vec<usize>> = Vec::new();
        let mut below = last.len();
        for l in lens.iter().rev().skip(1) {
            // a level above holds `below` sequences in l.len() groups (the last takes the rest)
            let groups = l.len().min(below.max(1));
            let mut g = vec![below / groups; groups];
            if let Some(x) = g.last_mut() { *x += below % groups; }
            below = groups;
            levels.push(g);
        }
        levels.reverse();
        levels.push(last);
        let lengths: Vec<Lengths<'_>> = levels.iter().map(|l| Lengths::new(l)).collect();
        let dense = Tensor::<u8, (Dyn, Dim<1>), Vec<u8>>::from_vec((Dyn(rows), Dim), vec![0; rows]).unwrap();
        let heap = LodTensor::from_lengths(dense.clone(), &lengths);
        let inline = LodTensor::<_, _, _, BoundedLod<2, 4>>::from_lengths_bounded(dense, &lengths);
        let too_many_levels = levels.len() > 2;
        let too_long = levels.iter().any(|l| l.len() + 1 > 4);
        match (heap, inline) {
            (Ok(h), Ok(b)) => {
                prop_assert!(!too_many_levels && !too_long);
                for k in 0..levels.len() {
                    prop_assert_eq!(h.level(k), b.level(k));
                }
            }
            (Ok(_), Err(e)) => {
                prop_assert_eq!(e.rule(), "lod/capacity");
                prop_assert!(too_many_levels || too_long);
            }
            // the rows and nesting are checked first, as on the heap
            (Err(h), Err(b)) => prop_assert_eq!(h, b),
            (Err(h), Ok(_)) => prop_assert!(false, "the heap form rejected what the inline one took: {}", h),
        }
    }
}

/// Plain ops on bounded tensors return bounded tensors (a `Room`, no heap):
/// a capacity pipeline stitch → elementwise → select → fused expression →
/// partition, each result's type named with `BoundedTensor` or `Owned`,
/// against values worked by hand.
#[test]
fn a_capacity_pipeline_stays_in_rooms() {
    use shapecheck::Owned;
    type Rows = (Bounded<4>, Dim<2>);
    let i = Tensor::<i32, shape![3]>::from_array([2, 0, 1]);
    let d = Tensor::<f32, shape![3, 2]>::from_array([[1.0, -2.0], [3.0, -4.0], [-5.0, 6.0]]);
    let x: BoundedTensor<f32, shape![Dyn, 2], 4> =
        dynamic_stitch(&i, &d).run_bounded::<4>().unwrap();
    assert_eq!(x.as_slice(), &[3.0, -4.0, -5.0, 6.0, 1.0, -2.0]);
    // plain elementwise: the batch dim passes through, the result is a room
    let y: Owned<f32, Rows> = x.elementwise_max(&tensor![0.0f32, 0.0], Axis::<1>, Identity);
    let _: &Room<f32, Rows> = y.storage();
    assert_eq!(y.as_slice(), &[3.0, 0.0, 0.0, 6.0, 1.0, 0.0]);
    // an operator, and select with a static cond and a scalar else
    let z = &y * &tensor![1.0f32, 10.0];
    let s: Owned<f32, Rows> = select(
        &tensor![true, false],
        &z,
        &Tensor::<f32, shape![]>::from_array(-1.0),
        Numpy,
    );
    assert_eq!(s.as_slice(), &[3.0, -1.0, 0.0, -1.0, 1.0, -1.0]);
    // a fused expression with a run-time (bounded) dim
    let f: Owned<f32, Rows> = (s.lazy() + &tensor![1.0f32, 1.0])
        .relu()
        .try_eval()
        .unwrap();
    assert_eq!(f.as_slice(), &[4.0, 0.0, 1.0, 0.0, 2.0, 0.0]);
    // partition by a bounded partitions tensor of the same rows
    let p = BoundedTensor::<i32, shape![Dyn], 4>::from_shape_slice(
        (Bounded::new(3).unwrap(),),
        &[1, 0, 1],
    )
    .unwrap();
    let [a, b] = dynamic_partition(&f, &p, Partitions::<2>)
        .run_bounded::<4>()
        .unwrap();
    assert_eq!(
        (a.as_slice(), b.as_slice()),
        (&[1.0, 0.0][..], &[4.0, 0.0, 2.0, 0.0][..])
    );
}

/// A function generic over the capacity: the issue's `clip`, whose result
/// type names the capacity and needs no bound.
#[test]
fn a_function_generic_over_the_capacity() {
    fn clip<const CAP: usize>(
        x: &BoundedTensor<f32, shape![Dyn, 3], CAP>,
    ) -> BoundedTensor<f32, shape![Dyn, 3], CAP> {
        x.elementwise_max(&tensor![0.0f32, 0.0, 0.0], Axis::<1>, Identity)
    }
    let d = tensor![[1.0f32, -2.0, 3.0], [-4.0, 5.0, -6.0]];
    let x = dynamic_stitch(&tensor![1, 0], &d)
        .run_bounded::<2>()
        .unwrap();
    assert_eq!(clip(&x).as_slice(), &[0.0, 5.0, 0.0, 1.0, 0.0, 3.0]);
    let wide = dynamic_stitch(&tensor![0, 1], &d)
        .run_bounded::<8>()
        .unwrap();
    assert_eq!(clip(&wide).as_slice(), &[1.0, 0.0, 3.0, 0.0, 5.0, 0.0]);
}

/// The reductions, argmax, softmax and their gradients on bounded rows:
/// the `try_` forms, each result in a `Room` (no heap), equal to the heap
/// forms' values.
#[test]
fn reductions_and_softmax_take_bounded_rows() {
    use shapecheck::ops::reduce::{ArgKind, ReduceGradKind, ReduceKind};
    use shapecheck::ops::softmax::SoftmaxKind;
    use shapecheck::DynTensor;
    type S = (Bounded<4>, Dim<3>);
    let shape = <S as Shape>::from_dims(&[2, 3]).unwrap();
    let data = [1.0f64, 5.0, 3.0, 4.0, 2.0, 6.0];
    let x = Tensor::<f64, S, Room<f64, S>>::from_shape_slice(shape, &data).unwrap();
    let d = DynTensor::new(&[2, 3], data.to_vec()).unwrap();

    let s: Tensor<f64, (Bounded<4>,), Room<f64, (Bounded<4>,)>> =
        x.try_reduce(ReduceKind::Sum, Axis::<1>).unwrap();
    assert_eq!(s.as_slice(), d.sum(&[1], false).unwrap().as_slice());
    type K = (Bounded<4>, One);
    let k: Tensor<f64, K, Room<f64, K>> =
        x.try_reduce_keepdim(ReduceKind::Max, Axis::<-1>).unwrap();
    assert_eq!(k.as_slice(), &[5.0, 6.0]);
    let c = x.try_reduce::<f64, _>(ReduceKind::Mean, Axis::<0>).unwrap();
    let _: &Tensor<f64, (Dim<3>,)> = &c; // the bounded dim reduced away: inline
    assert_eq!(c.as_slice(), &[2.5, 3.5, 4.5]);
    let i = x.try_arg_reduce(ArgKind::ArgMax, Axis::<1>).unwrap();
    assert_eq!(i.as_slice(), &[1, 2]);
    let i = x
        .try_arg_reduce_keepdim(ArgKind::ArgMin, Axis::<1>)
        .unwrap();
    assert_eq!(i.as_slice(), &[0, 1]);

    let p: Tensor<f64, S, Room<f64, S>> = x.try_softmax(Axis::<-1>).unwrap();
    assert_eq!(p.as_slice(), d.softmax(-1).unwrap().as_slice());
    let l = x.try_log_softmax(Axis::<0>).unwrap();
    assert_eq!(l.as_slice(), d.log_softmax(0).unwrap().as_slice());

    let gx: Tensor<f64, S, Room<f64, S>> = x
        .try_reduce_backward(ReduceGradKind::Max, Axis::<-1>, true, &k, &k)
        .unwrap();
    assert_eq!(gx.as_slice(), &[0.0, 5.0, 0.0, 0.0, 0.0, 6.0]);
    let gp = x
        .try_softmax_backward(SoftmaxKind::Softmax, Axis::<-1>, &p, &p)
        .unwrap();
    let dp = DynTensor::new(&[2, 3], p.as_slice().to_vec()).unwrap();
    assert_eq!(
        gp.as_slice(),
        d.softmax_backward(-1, &dp, &dp).unwrap().as_slice()
    );
}
