//! The dynamic path spelled as the static one: each op below is called the
//! same way twice, once on `Tensor`s under `shapecheck::prelude::*` and
//! once on `DynTensor`s under `shapecheck::dynamic::prelude::*` (the only
//! difference: the constructors and the `Result`), over random values, and
//! the two agree element for element. The dynamic path's errors are the
//! ones the static path reports for the same values.
#![cfg(feature = "alloc")]
// the ops' errors are large on purpose (no heap, see `StitchError`)
#![allow(clippy::result_large_err)]

use proptest::prelude::*;

/// The static forms.
mod fixed {
    use shapecheck::prelude::*;

    pub fn select_numpy(c: [bool; 2], x: [i32; 6], y: [i32; 3]) -> Vec<i32> {
        let c = Tensor::<bool, shape![2, 1]>::from_array([[c[0]], [c[1]]]);
        let x = Tensor::<i32, shape![2, 3]>::from_fn(|i| x[i[0] * 3 + i[1]]);
        let y = Tensor::<i32, shape![3]>::from_array(y);
        select(&c, &x, &y, Numpy).as_slice().to_vec()
    }

    pub fn multiplex_rows(
        a: [i32; 6],
        b: [i32; 6],
        index: [i32; 3],
    ) -> Result<Vec<i32>, MultiplexError> {
        let a = Tensor::<i32, shape![3, 2]>::from_fn(|i| a[i[0] * 2 + i[1]]);
        let b = Tensor::<i32, shape![3, 2]>::from_fn(|i| b[i[0] * 2 + i[1]]);
        let index = Tensor::<i32, shape![3, 1]>::from_fn(|i| index[i[0]]);
        Ok(multiplex(&[a, b], &index).run()?.as_slice().to_vec())
    }

    pub fn stitch_two(
        i0: [i32; 2],
        d0: [i32; 4],
        i1: [i32; 1],
        d1: [i32; 2],
    ) -> Result<(Vec<usize>, Vec<i32>), StitchError> {
        let (i0, i1) = (
            Tensor::<i32, shape![2]>::from_array(i0),
            Tensor::<i32, shape![1]>::from_array(i1),
        );
        let d0 = Tensor::<i32, shape![2, 2]>::from_fn(|i| d0[i[0] * 2 + i[1]]);
        let d1 = Tensor::<i32, shape![1, 2]>::from_fn(|i| d1[i[1]]);
        let out = dynamic_stitch(&i0, &d0).pair(&i1, &d1).run()?;
        Ok((out.dims().as_slice().to_vec(), out.as_slice().to_vec()))
    }

    pub fn partition_three(data: [i32; 8], parts: [i32; 4]) -> Result<Vec<Vec<i32>>, StitchError> {
        let data = Tensor::<i32, shape![4, 2]>::from_fn(|i| data[i[0] * 2 + i[1]]);
        let parts = Tensor::<i32, shape![4]>::from_array(parts);
        let outs = dynamic_partition(&data, &parts, Partitions::<3>).run()?;
        Ok(outs.iter().map(|t| t.as_slice().to_vec()).collect())
    }
}

/// The same calls on `DynTensor`s.
mod dynamic {
    use shapecheck::dynamic::prelude::*;

    pub fn select_numpy(c: [bool; 2], x: [i32; 6], y: [i32; 3]) -> Vec<i32> {
        let c = DynTensor::new(&[2, 1], c.to_vec()).unwrap();
        let x = DynTensor::new(&[2, 3], x.to_vec()).unwrap();
        let y = DynTensor::new(&[3], y.to_vec()).unwrap();
        select(&c, &x, &y, Numpy).unwrap().as_slice().to_vec()
    }

    pub fn multiplex_rows(
        a: [i32; 6],
        b: [i32; 6],
        index: [i32; 3],
    ) -> Result<Vec<i32>, MultiplexError> {
        let a = DynTensor::new(&[3, 2], a.to_vec()).unwrap();
        let b = DynTensor::new(&[3, 2], b.to_vec()).unwrap();
        let index = DynTensor::new(&[3, 1], index.to_vec()).unwrap();
        Ok(multiplex(&[a, b], &index).run()?.as_slice().to_vec())
    }

    pub fn stitch_two(
        i0: [i32; 2],
        d0: [i32; 4],
        i1: [i32; 1],
        d1: [i32; 2],
    ) -> Result<(Vec<usize>, Vec<i32>), StitchError> {
        let (i0, i1) = (
            DynTensor::new(&[2], i0.to_vec()).unwrap(),
            DynTensor::new(&[1], i1.to_vec()).unwrap(),
        );
        let d0 = DynTensor::new(&[2, 2], d0.to_vec()).unwrap();
        let d1 = DynTensor::new(&[1, 2], d1.to_vec()).unwrap();
        let out = dynamic_stitch(&i0, &d0).pair(&i1, &d1).run()?;
        Ok((out.dims().as_slice().to_vec(), out.as_slice().to_vec()))
    }

    pub fn partition_three(data: [i32; 8], parts: [i32; 4]) -> Result<Vec<Vec<i32>>, StitchError> {
        let data = DynTensor::new(&[4, 2], data.to_vec()).unwrap();
        let parts = DynTensor::new(&[4], parts.to_vec()).unwrap();
        let outs = dynamic_partition(&data, &parts, Partitions::<3>).run()?;
        Ok(outs.iter().map(|t| t.as_slice().to_vec()).collect())
    }
}

proptest! {
    #[test]
    fn select_agrees(c in any::<[bool; 2]>(), x in any::<[i32; 6]>(), y in any::<[i32; 3]>()) {
        prop_assert_eq!(dynamic::select_numpy(c, x, y), fixed::select_numpy(c, x, y));
    }

    #[test]
    fn multiplex_agrees(a in any::<[i32; 6]>(), b in any::<[i32; 6]>(), index in prop::array::uniform3(-1i32..3)) {
        prop_assert_eq!(dynamic::multiplex_rows(a, b, index), fixed::multiplex_rows(a, b, index));
    }

    #[test]
    fn stitch_agrees(
        i0 in prop::array::uniform2(-1i32..4), d0 in any::<[i32; 4]>(),
        i1 in prop::array::uniform1(-1i32..4), d1 in any::<[i32; 2]>(),
    ) {
        prop_assert_eq!(dynamic::stitch_two(i0, d0, i1, d1), fixed::stitch_two(i0, d0, i1, d1));
    }

    #[test]
    fn partition_agrees(data in any::<[i32; 8]>(), parts in prop::array::uniform4(-1i32..4)) {
        prop_assert_eq!(dynamic::partition_three(data, parts), fixed::partition_three(data, parts));
    }
}

/// The values themselves, worked by hand (so that the two forms cannot
/// agree on a wrong answer).
#[test]
fn by_hand() {
    assert_eq!(
        dynamic::select_numpy([true, false], [1, 2, 3, 4, 5, 6], [7, 8, 9]),
        [1, 2, 3, 7, 8, 9]
    );
    assert_eq!(
        dynamic::multiplex_rows([1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], [1, 0, 1]),
        Ok(vec![7, 8, 3, 4, 11, 12])
    );
    assert_eq!(
        dynamic::stitch_two([2, 0], [1, 2, 3, 4], [1], [5, 6]),
        Ok((vec![3, 2], vec![3, 4, 5, 6, 1, 2]))
    );
    assert_eq!(
        dynamic::partition_three([1, 2, 3, 4, 5, 6, 7, 8], [2, 0, 2, 1]),
        Ok(vec![vec![3, 4], vec![7, 8], vec![1, 2, 5, 6]])
    );
    let err = dynamic::multiplex_rows([0; 6], [0; 6], [0, 2, 0]).unwrap_err();
    assert_eq!(err.rule(), "multiplex/index-value");
}
