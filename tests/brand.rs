//! Brands (issue 23): a run-time dim checked once, from every source the
//! library has (a stitch's and a partition's output rows, a LoD level's
//! sequence count, a `Dyn` tensor, a `DynTensor` conversion), then the
//! plain forms on branded tensors, checked against the `try_` forms on the
//! same values.

// `ShapeError` holds its dims inline (no heap): large on purpose.
#![allow(clippy::result_large_err)]

use proptest::prelude::*;
use shapecheck::prelude::*;
use shapecheck::try_select;
use shapecheck::Lengths;

type Rows2 = Tensor<f32, shape![Dyn, 2], Vec<f32>>;

fn rows2(v: &[f32]) -> Rows2 {
    Tensor::from_vec((Dyn(v.len() / 2), Dim), v.to_vec()).unwrap()
}

#[test]
fn a_stitch_output_brands_its_rows() {
    let merged = dynamic_stitch(
        &tensor![2, 0, 1],
        &tensor![[1.0f32, 2.0], [3.0, 4.0], [5.0, 6.0]],
    )
    .run()
    .unwrap();
    let w = rows2(&[1.0, 1.0, 10.0, 10.0, 100.0, 100.0]);
    let out = merged
        .with_brand(|m, rows| {
            let w = w.brand_rows(rows)?;
            Ok::<_, ShapeError>(m.elementwise_mul(&w, Axis::<-1>, Identity).unbrand_rows())
        })
        .unwrap();
    assert_eq!(out.as_slice(), &[3.0, 4.0, 50.0, 60.0, 100.0, 200.0]);
}

#[test]
fn partitions_of_one_size_share_a_brand() {
    let data = tensor![[1.0f32, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]];
    let [a, b] = dynamic_partition(&data, &tensor![0, 1, 1, 0], Partitions::<2>)
        .run()
        .unwrap();
    let sum = a
        .with_brand(|a, rows| {
            // b has 2 rows too: checked once, here
            let b = b.brand_rows(rows)?;
            Ok::<_, ShapeError>((&a + &b).unbrand_rows())
        })
        .unwrap();
    assert_eq!(sum.as_slice(), &[4.0, 6.0, 12.0, 14.0]);
}

#[test]
fn a_lod_level_counts_the_sequences_of_a_brand() {
    let dense = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(5),), vec![1.0; 5]).unwrap();
    let lod = LodTensor::from_lengths(dense, &[Lengths::new(&[2, 3])]).unwrap();
    let count = lod.level(0).unwrap().lengths().count();
    let per_seq = rows2(&[1.0, 2.0, 3.0, 4.0]);
    let too_many = rows2(&[1.0; 6]);
    brand(count, |seqs| {
        assert!(per_seq.clone().brand_rows(seqs).is_ok());
        let err = too_many.brand_rows(seqs).unwrap_err();
        assert_eq!(err.rule(), "shape/brand-size");
        assert_eq!(
            err,
            ShapeError::BrandSize {
                axis: 0,
                brand: 2,
                found: 3
            }
        );
    });
}

#[test]
fn a_dyn_tensor_conversion_brands_its_rows() {
    let d = DynTensor::new(&[2, 2], vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
    let x: Rows2 = d.try_into().unwrap();
    let max = x.with_brand(|x, _| {
        x.elementwise_max(&tensor![2.0f32, 2.0], Axis::<-1>, Identity)
            .unbrand_rows()
    });
    assert_eq!(max.as_slice(), &[2.0, 2.0, 3.0, 4.0]);
}

#[test]
fn multiplex_takes_branded_rows() {
    let a = rows2(&[1.0, 2.0, 3.0, 4.0]);
    let b = rows2(&[10.0, 20.0, 30.0, 40.0]);
    let index =
        Tensor::<i32, shape![Dyn, 1], Vec<i32>>::from_vec((Dyn(2), One), vec![1, 0]).unwrap();
    let out = a.with_brand(|a, rows| {
        let b = b.brand_rows(rows).unwrap();
        let index = index.brand_rows(rows).unwrap();
        multiplex(&[a, b], &index).run().unwrap().unbrand_rows()
    });
    assert_eq!(out.as_slice(), &[10.0, 20.0, 3.0, 4.0]);
}

#[test]
fn the_try_forms_check_a_brand_against_other_dims() {
    let x = rows2(&[1.0, 2.0, 3.0, 4.0]);
    let three = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(3),), vec![1.0; 3]).unwrap();
    x.with_brand(|x, _| {
        // a branded dim meeting a `Dyn` of another size: the run-time rule
        let err = x
            .try_elementwise_mul(&three, Axis::<0>, Identity)
            .unwrap_err();
        assert_eq!(err.rule(), "elementwise/broadcast");
        // and a static one of the same size: accepted
        let y = x
            .try_elementwise_mul(&tensor![[2.0f32], [3.0]], Axis::<-1>, Identity)
            .unwrap();
        assert_eq!(y.as_slice(), &[2.0, 4.0, 9.0, 12.0]);
    });
}

#[test]
fn select_takes_branded_operands_in_every_mode() {
    let then = rows2(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let els = rows2(&[-1.0, -2.0, -3.0, -4.0, -5.0, -6.0]);
    let cond =
        Tensor::<bool, shape![Dyn, 1], Vec<bool>>::from_vec((Dyn(3), One), vec![true, false, true])
            .unwrap();
    let want = try_select(&cond, &then, &els, Numpy).unwrap();
    let want_pdpd = try_select(&cond, &then, &tensor![0.0f32, 0.5], Pdpd::<-1>).unwrap();
    let (got, got_pdpd) = then.clone().with_brand(|t, rows| {
        let e = els.brand_rows(rows).unwrap();
        let c = cond.brand_rows(rows).unwrap();
        (
            select(&c, &t, &e, Numpy).unbrand_rows(),
            select(&c, &t, &tensor![0.0f32, 0.5], Pdpd::<-1>).unbrand_rows(),
        )
    });
    assert_eq!(got, want);
    assert_eq!(got_pdpd, want_pdpd);
    assert_eq!(got.as_slice(), &[1.0, 2.0, -3.0, -4.0, 5.0, 6.0]);
}

#[test]
fn select_takes_a_dyn_that_meets_only_ones() {
    // the `Dyn` rows of then meet cond's single row: nothing to check
    let then = rows2(&[1.0, 2.0, 3.0, 4.0]);
    let out = select(&tensor![[false, true]], &then, &tensor![9.0f32, 9.0], Numpy);
    assert_eq!(out.as_slice(), &[9.0, 2.0, 9.0, 4.0]);
    assert_eq!(
        out,
        try_select(&tensor![[false, true]], &then, &tensor![9.0f32, 9.0], Numpy).unwrap()
    );
}

proptest! {
    /// The plain form on branded tensors gives what the `try_` form gives
    /// on the same `Dyn` tensors, for every op of the family and random rows.
    #[test]
    fn branded_plain_forms_equal_the_try_forms(
        rows in 0usize..6,
        seed in proptest::collection::vec(-8.0f32..8.0, 24),
    ) {
        let x = rows2(&seed[..rows * 2]);
        let y = rows2(&seed[12..12 + rows * 2]);
        let want = [
            x.try_elementwise_mul(&y, Axis::<-1>, Identity).unwrap(),
            x.try_elementwise_add(&y, Axis::<-1>, Relu).unwrap(),
            x.try_elementwise_sub(&y, Axis::<0>, Identity).unwrap(),
            x.try_elementwise_max(&y, Axis::<1>, Identity).unwrap(),
            x.try_elementwise_min(&y, Axis::<-1>, Identity).unwrap(),
        ];
        let got = x.clone().with_brand(|xb, r| {
            let yb = y.clone().brand_rows(r).unwrap();
            [
                xb.elementwise_mul(&yb, Axis::<-1>, Identity).unbrand_rows(),
                xb.elementwise_add(&yb, Axis::<-1>, Relu).unbrand_rows(),
                xb.elementwise_sub(&yb, Axis::<0>, Identity).unbrand_rows(),
                xb.elementwise_max(&yb, Axis::<1>, Identity).unbrand_rows(),
                xb.elementwise_min(&yb, Axis::<-1>, Identity).unbrand_rows(),
            ]
        });
        prop_assert_eq!(got, want);
    }
}

proptest! {
    /// The plain forms plan the loops of a shape whose run-time dims all
    /// land on the output's first dim at compile time (the first dim set
    /// when the op runs), and the others when the op runs: both give what
    /// the `try_` form gives, for every size of the run-time dim (0 and 1
    /// included).
    #[test]
    fn plain_forms_on_dyn_dims_equal_the_try_forms(
        n in 0usize..5,
        seed in proptest::collection::vec(-8.0f32..8.0, 40),
    ) {
        // x's run-time rows lead the output; y meets its other dims
        let x = Tensor::<f32, shape![Dyn, 3, 2], Vec<f32>>::from_vec((Dyn(n), Dim, Dim), seed[..n * 6].to_vec()).unwrap();
        let y = Tensor::<f32, shape![1, 2], Vec<f32>>::from_vec(Default::default(), seed[30..32].to_vec()).unwrap();
        prop_assert_eq!(x.elementwise_mul(&y, Axis::<-1>, Identity), x.try_elementwise_mul(&y, Axis::<-1>, Identity).unwrap());
        prop_assert_eq!(x.elementwise_sub(&y, Axis::<1>, Identity), x.try_elementwise_sub(&y, Axis::<1>, Identity).unwrap());
        // y's run-time rows lead the output, x's first dim is a 1
        let x1 = Tensor::<f32, shape![1, 2], Vec<f32>>::from_vec(Default::default(), seed[32..34].to_vec()).unwrap();
        let y1 = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(n), Dim), seed[..n * 2].to_vec()).unwrap();
        prop_assert_eq!(x1.elementwise_add(&y1, Axis::<-1>, Identity), x1.try_elementwise_add(&y1, Axis::<-1>, Identity).unwrap());
        prop_assert_eq!(&x1 + &y1, x1.try_elementwise_add(&y1, Axis::<-1>, Identity).unwrap());
        // a run-time dim that is not the first: planned when the op runs
        let x2 = Tensor::<f32, shape![2, Dyn], Vec<f32>>::from_vec((Dim, Dyn(n)), seed[..n * 2].to_vec()).unwrap();
        let y2 = Tensor::<f32, shape![2, 1], Vec<f32>>::from_vec(Default::default(), seed[34..36].to_vec()).unwrap();
        prop_assert_eq!(x2.elementwise_max(&y2, Axis::<-1>, Identity), x2.try_elementwise_max(&y2, Axis::<-1>, Identity).unwrap());
    }
}
