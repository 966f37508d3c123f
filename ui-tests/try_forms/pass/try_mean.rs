// `try_mean` on both paths: one body, pasted by a macro into a function on
// `Tensor`s and one on `DynTensor`s, gives the same values.
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident) => {{
        let m = $x.try_mean(Axis::<0>)?;
        Ok(m.as_slice().to_vec())
    }};
}

fn on_tensors(x: &Tensor<f64, shape![Dyn, 2], Vec<f64>>) -> Result<Vec<f64>, Error> {
    the_body!(x)
}

fn on_dyn_tensors(x: &DynTensor<f64>) -> Result<Vec<f64>, Error> {
    the_body!(x)
}

fn main() {
    let x = Tensor::<f64, shape![Dyn, 2], Vec<f64>>::with_dims(&[2, 2], vec![1.0, 2.0, 4.0, 8.0]).unwrap();
    let on_static = on_tensors(&x).unwrap();
    assert_eq!(on_static, vec![2.5, 5.0]);
    assert_eq!(on_dyn_tensors(&x.to_dyn()).unwrap(), on_static);
}
