// One glob import, one function body, both paths: the body below is
// written once (a macro pastes its tokens unchanged into two functions) and
// runs on `Tensor`s, whose shapes the compiler checks, and on `DynTensor`s,
// whose shapes are checked when it runs. Every call is a method whose name
// is the same on both types (`try_elementwise_mul`, `try_select` on the
// condition, `try_multiplex` on the index), and `?` converts each op's
// error into `shapecheck::Error`.
use shapecheck::prelude::*;

macro_rules! the_body {
    ($keep:ident, $x:ident, $scale:ident, $pick:ident) => {{
        let scaled = $x.try_elementwise_mul($scale, Axis::<-1>, Relu)?;
        let kept = $keep.try_select(&scaled, $x, Numpy)?;
        let picked = $pick.try_multiplex(&[kept, scaled])?;
        Ok(picked.as_slice().to_vec())
    }};
}

fn on_tensors(
    keep: &Tensor<bool, shape![3, 1]>,
    x: &Tensor<f32, shape![3, 2]>,
    scale: &Tensor<f32, shape![2]>,
    pick: &Tensor<i32, shape![3, 1]>,
) -> Result<Vec<f32>, Error> {
    the_body!(keep, x, scale, pick)
}

fn on_dyn_tensors(
    keep: &DynTensor<bool>,
    x: &DynTensor<f32>,
    scale: &DynTensor<f32>,
    pick: &DynTensor<i32>,
) -> Result<Vec<f32>, Error> {
    the_body!(keep, x, scale, pick)
}

fn main() {
    let keep = Tensor::<bool, shape![3, 1]>::from_array([[true], [false], [true]]);
    let x = tensor![[1.0f32, -2.0], [3.0, 4.0], [-5.0, 6.0]];
    let scale = tensor![10.0f32, 1.0];
    let pick = Tensor::<i32, shape![3, 1]>::from_array([[0], [1], [0]]);
    // scaled = relu(x * [10, 1]) = [10, 0], [30, 4], [0, 6]
    // kept: rows 0 and 2 from scaled, row 1 from x = [10, 0], [3, 4], [0, 6]
    // picked: rows 0 and 2 from kept, row 1 from scaled
    let expected = vec![10.0, 0.0, 30.0, 4.0, 0.0, 6.0];
    assert_eq!(on_tensors(&keep, &x, &scale, &pick).unwrap(), expected);

    let d = |t: &[f32], dims: &[usize]| DynTensor::new(dims, t.to_vec()).unwrap();
    let dkeep = DynTensor::new(&[3, 1], vec![true, false, true]).unwrap();
    let dx = d(x.as_slice(), &[3, 2]);
    let dscale = d(scale.as_slice(), &[2]);
    let dpick = DynTensor::new(&[3, 1], vec![0i32, 1, 0]).unwrap();
    assert_eq!(on_dyn_tensors(&dkeep, &dx, &dscale, &dpick).unwrap(), expected);

    // the same mistakes give the same errors on both paths, when it runs:
    // an index past the candidates
    let bad = Tensor::<i32, shape![3, 1]>::from_array([[0], [2], [0]]);
    let dbad = DynTensor::new(&[3, 1], vec![0i32, 2, 0]).unwrap();
    let e1 = on_tensors(&keep, &x, &scale, &bad).unwrap_err();
    let e2 = on_dyn_tensors(&dkeep, &dx, &dscale, &dbad).unwrap_err();
    assert!(matches!(e1, Error::Multiplexing(_)), "{e1:?}");
    assert_eq!(e1.to_string(), e2.to_string());
    // a shape the static path rejects when it compiles is the dynamic
    // path's run-time error, by the same rule: scale [3] against x's 2 columns
    let wide = d(&[1.0, 2.0, 3.0], &[3]);
    let err = on_dyn_tensors(&dkeep, &dx, &wide, &dpick).unwrap_err();
    assert!(matches!(err, Error::Elementwise(_)), "{err:?}");
}
