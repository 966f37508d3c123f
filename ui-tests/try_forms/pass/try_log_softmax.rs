// `try_log_softmax` on both paths: one body, pasted by a macro into a
// function on `Tensor`s and one on `DynTensor`s, gives the same values.
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident) => {{
        let p = $x.try_log_softmax(Axis::<-1>)?;
        Ok(p.as_slice().to_vec())
    }};
}

fn on_tensors(x: &Tensor<f64, shape![Dyn, 2], Vec<f64>>) -> Result<Vec<f64>, Error> {
    the_body!(x)
}

fn on_dyn_tensors(x: &DynTensor<f64>) -> Result<Vec<f64>, Error> {
    the_body!(x)
}

fn main() {
    let x = Tensor::<f64, shape![Dyn, 2], Vec<f64>>::with_dims(&[2, 2], vec![0.0, 0.0, 1.0, 1.0]).unwrap();
    let on_static = on_tensors(&x).unwrap();
    // each row's two equal values: ln(1/2), to the last bit or one past it
    assert!(on_static.iter().all(|v| (v + core::f64::consts::LN_2).abs() < 1e-15), "{on_static:?}");
    assert_eq!(on_dyn_tensors(&x.to_dyn()).unwrap(), on_static);
}
