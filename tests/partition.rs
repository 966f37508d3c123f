//! dynamic_partition against a naive reference of TensorFlow 2.21's op:
//! output `i` holds, in row-major order, the slices `data[j, ...]` whose
//! partition value is `i`. Every output form (heap, caller's buffer,
//! bounded, `DynTensor`) must equal the reference, and every bad input
//! must be its typed error with nothing written.

use proptest::prelude::*;
use shapecheck::prelude::*;
use shapecheck::StitchError;

/// The reference: each output's slices, concatenated.
fn naive(data: &[i64], slice: usize, parts: &[i32], num: usize) -> Vec<Vec<i64>> {
    let mut outs = vec![Vec::new(); num];
    for (j, &p) in parts.iter().enumerate() {
        outs[p as usize].extend_from_slice(&data[j * slice..(j + 1) * slice]);
    }
    outs
}

/// Rows of 2 and their partition values in `[0, 3)`.
fn cases() -> impl Strategy<Value = (Vec<i64>, Vec<i32>)> {
    (0usize..9).prop_flat_map(|rows| {
        (
            proptest::collection::vec(-100i64..100, rows * 2),
            proptest::collection::vec(0i32..3, rows),
        )
    })
}

type Data = Tensor<i64, shape![Dyn, 2], Vec<i64>>;
type Parts = Tensor<i32, shape![Dyn], Vec<i32>>;

fn tensors(data: &[i64], parts: &[i32]) -> (Data, Parts) {
    let rows = parts.len();
    (
        Tensor::from_vec((Dyn(rows), Dim), data.to_vec()).unwrap(),
        Tensor::from_vec((Dyn(rows),), parts.to_vec()).unwrap(),
    )
}

proptest! {
    #[test]
    fn every_form_equals_the_reference((data, parts) in cases()) {
        let want = naive(&data, 2, &parts, 3);
        let (d, p) = tensors(&data, &parts);

        let heap = dynamic_partition(&d, &p, Partitions::<3>).run().unwrap();
        for (out, w) in heap.iter().zip(&want) {
            prop_assert_eq!(out.as_slice(), &w[..]);
            let dims = out.dims();
            prop_assert_eq!(dims.as_slice(), &[w.len() / 2, 2][..]);
        }

        let mut buf = vec![0i64; data.len()];
        let into = dynamic_partition(&d, &p, Partitions::<3>).run_into(&mut buf).unwrap();
        for (out, w) in into.iter().zip(&want) {
            prop_assert_eq!(out.as_slice(), &w[..]);
        }

        // capacity 8 rows: every output of at most 8 rows fits
        let bounded = dynamic_partition(&d, &p, Partitions::<3>).run_bounded::<8>().unwrap();
        for (out, w) in bounded.iter().zip(&want) {
            prop_assert_eq!(out.as_slice(), &w[..]);
        }

        let dd = DynTensor::new(&[parts.len(), 2], data.clone()).unwrap();
        let dp = DynTensor::new(&[parts.len()], parts.clone()).unwrap();
        let dynamic = dd.dynamic_partition(&dp, 3).unwrap();
        prop_assert_eq!(dynamic.len(), 3);
        for (out, w) in dynamic.iter().zip(&want) {
            prop_assert_eq!(out.as_slice(), &w[..]);
        }
    }

    /// A value outside `[0, num)` is `dynamic_partition/range` naming the
    /// first such position, and the caller's buffer is left as it was.
    #[test]
    fn a_value_out_of_range_writes_nothing((data, mut parts) in cases(), at in 0usize..8, bad in prop_oneof![-5i32..0, 3i32..9]) {
        prop_assume!(!parts.is_empty());
        let at = at % parts.len();
        parts[at] = bad;
        let (d, p) = tensors(&data, &parts);
        let mut buf = vec![7i64; data.len()];
        let err = dynamic_partition(&d, &p, Partitions::<3>).run_into(&mut buf).unwrap_err();
        prop_assert_eq!(err.rule(), "dynamic_partition/range");
        prop_assert_eq!(
            err,
            StitchError::PartitionOutOfRange { position: at, value: i64::from(bad), num: 3 }
        );
        prop_assert!(buf.iter().all(|&v| v == 7));
        let dd = DynTensor::new(&[parts.len(), 2], data).unwrap();
        let dp = DynTensor::new(&[parts.len()], parts).unwrap();
        prop_assert_eq!(
            dd.dynamic_partition(&dp, 3).unwrap_err(),
            StitchError::PartitionOutOfRange { position: at, value: i64::from(bad), num: 3 }
        );
    }
}

proptest! {
    /// The rule's count of the partition values (four at a time for up to
    /// 16 outputs, one by one past that or from a group holding a bad
    /// value) against a plain count: the same counts, or the same first
    /// value out of range, for 1 to 20 outputs and any mix of bad values.
    #[test]
    fn the_rule_counts_as_a_plain_loop(
        num in 1usize..21,
        values in proptest::collection::vec(-2i32..23, 0..70),
    ) {
        let first_bad = values
            .iter()
            .position(|&v| v < 0 || v as usize >= num);
        let mut counts = vec![usize::MAX; num];
        let got = shapecheck::ops::partition::partition_slice_dims(
            &[values.len()],
            values.len(),
            &[values.len()],
            shapecheck::IndexSlice::I32(&values),
            &mut counts,
        );
        match first_bad {
            Some(position) => prop_assert_eq!(
                got.unwrap_err(),
                StitchError::PartitionOutOfRange {
                    position,
                    value: i64::from(values[position]),
                    num,
                }
            ),
            None => {
                prop_assert!(got.is_ok());
                let want: Vec<usize> = (0..num)
                    .map(|k| values.iter().filter(|&&v| v as usize == k).count())
                    .collect();
                prop_assert_eq!(counts, want);
            }
        }
    }
}

/// More rows in one output than the capacity is `shape/capacity`.
#[test]
fn an_output_past_the_capacity_is_an_error() {
    let (d, p) = tensors(&[1, 2, 3, 4, 5, 6], &[0, 0, 0]);
    let err = dynamic_partition(&d, &p, Partitions::<2>)
        .run_bounded::<2>()
        .unwrap_err();
    assert_eq!(err.rule(), "shape/capacity");
    let ok = dynamic_partition(&d, &p, Partitions::<2>)
        .run_bounded::<3>()
        .unwrap();
    assert_eq!(ok[0].as_slice(), &[1, 2, 3, 4, 5, 6]);
    assert!(ok[1].as_slice().is_empty());
}

/// Partitions whose shape is not a prefix of data's, and zero partitions,
/// on the dynamic path (the static path rejects both at compile time).
#[test]
fn the_dynamic_path_checks_the_shapes() {
    let d = DynTensor::new(&[3, 2], vec![1i64, 2, 3, 4, 5, 6]).unwrap();
    let p = DynTensor::new(&[2], vec![0i32, 1]).unwrap();
    let err = d.dynamic_partition(&p, 2).unwrap_err();
    assert_eq!(err.rule(), "dynamic_partition/prefix");
    assert!(err.to_string().contains("[3, 2]"), "{err}");
    let p3 = DynTensor::new(&[3], vec![0i32, 1, 0]).unwrap();
    assert_eq!(
        d.dynamic_partition(&p3, 0).unwrap_err().rule(),
        "dynamic_partition/num"
    );
}

/// A 2-D partitions tensor: the slices are what follows its two dims.
#[test]
fn partitions_of_rank_two() {
    let data = Tensor::<i32, shape![2, 2, 3]>::from_fn(|i| (i[0] * 100 + i[1] * 10 + i[2]) as i32);
    let parts = Tensor::<i32, shape![2, 2]>::from_array([[1, 0], [0, 1]]);
    let [zero, one] = dynamic_partition(&data, &parts, Partitions::<2>)
        .run()
        .unwrap();
    assert_eq!(zero.as_slice(), &[10, 11, 12, 100, 101, 102]);
    assert_eq!(one.as_slice(), &[0, 1, 2, 110, 111, 112]);
    assert_eq!(one.dims().as_slice(), &[2, 3]);
}

/// Rows of every length 0 to 70 (the kernels make the common lengths
/// constants: each of those, and the others, must copy whole rows), with
/// int32 and int64 partition values, through the heap form (`DynTensor`)
/// and the caller-buffer form (`partition_slices`).
#[test]
fn rows_of_every_length() {
    use shapecheck::partition_slices;
    for len in 0usize..=70 {
        let rows = 7;
        let data: Vec<i64> = (0..(rows * len) as i64).map(|v| v * 7 - 3).collect();
        let parts: Vec<i32> = vec![2, 0, 1, 2, 2, 0, 1];
        let want = naive(&data, len, &parts, 3);
        let dd = DynTensor::new(&[rows, len], data.clone()).unwrap();
        let p32 = DynTensor::new(&[rows], parts.clone()).unwrap();
        let p64 = DynTensor::new(&[rows], parts.iter().map(|&v| i64::from(v)).collect()).unwrap();
        for outs in [
            dd.dynamic_partition(&p32, 3).unwrap(),
            dd.dynamic_partition(&p64, 3).unwrap(),
        ] {
            for (out, w) in outs.iter().zip(&want) {
                assert_eq!(out.as_slice(), &w[..], "row length {len}");
            }
        }
        let mut counts = [0; 3];
        let mut out = vec![0i64; data.len()];
        partition_slices(&[rows, len], &data, &[rows], &parts, &mut counts, &mut out).unwrap();
        assert_eq!(out, want.concat(), "row length {len}");
        assert_eq!(counts, [2, 2, 3]);
    }
}
