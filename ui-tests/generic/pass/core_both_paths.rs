// One glob import, one function body, both paths, for the compute core: a
// dense layer (matmul and a bias with relu), a reduction and a softmax,
// written once (a macro pastes its tokens unchanged into two functions) and
// run on `Tensor`s, whose shapes the compiler checks, and on `DynTensor`s,
// whose shapes are checked when it runs. Every call is a `try_` method
// spelled the same on both types, with the same markers (`NoTrans`,
// `Axis::<-1>`); `?` converts each op's error into `shapecheck::Error`.
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident, $w:ident, $b:ident) => {{
        let h = $x.try_matmul($w, NoTrans, NoTrans)?.try_elementwise_add($b, Axis::<-1>, Relu)?;
        let total = h.try_sum(Axis::<-1>)?;
        let p = h.try_softmax(Axis::<-1>)?;
        let best = p.try_argmax(Axis::<-1>)?;
        let peak = p.try_max(Axis::<-1>)?;
        Ok((total.as_slice().to_vec(), p.as_slice().to_vec(), best.as_slice().to_vec(), peak.as_slice().to_vec()))
    }};
}

type Out = (Vec<f32>, Vec<f32>, Vec<i64>, Vec<f32>);

fn on_tensors(
    x: &Tensor<f32, shape![2, 3]>,
    w: &Tensor<f32, shape![3, 2]>,
    b: &Tensor<f32, shape![2]>,
) -> Result<Out, Error> {
    the_body!(x, w, b)
}

fn on_dyn_tensors(x: &DynTensor<f32>, w: &DynTensor<f32>, b: &DynTensor<f32>) -> Result<Out, Error> {
    the_body!(x, w, b)
}

fn main() {
    let x = tensor![[1.0f32, 2.0, 3.0], [0.0, 1.0, -1.0]];
    let w = tensor![[1.0f32, 0.0], [0.0, 1.0], [1.0, 1.0]];
    let b = tensor![0.0f32, 0.0];
    let on_static = on_tensors(&x, &w, &b).unwrap();
    // h = relu(x · w) = [[4, 5], [0, 0]]
    assert_eq!(on_static.0, vec![9.0, 0.0]);
    assert_eq!(on_static.2, vec![1, 0]);
    assert_eq!(on_static.1[2..], [0.5, 0.5]);

    let d = |t: &[f32], dims: &[usize]| DynTensor::new(dims, t.to_vec()).unwrap();
    let (dx, dw, db) = (d(x.as_slice(), &[2, 3]), d(w.as_slice(), &[3, 2]), d(b.as_slice(), &[2]));
    assert_eq!(on_dyn_tensors(&dx, &dw, &db).unwrap(), on_static);

    // the same mistake, when it runs: w of the wrong inner dim
    let bad = d(&[1.0; 4], &[2, 2]);
    let e = on_dyn_tensors(&dx, &bad, &db).unwrap_err();
    assert_eq!(e.rule(), "matmul/inner");
}
