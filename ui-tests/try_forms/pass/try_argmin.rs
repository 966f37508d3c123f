// `try_argmin` on both paths: one body, pasted by a macro into a function on
// `Tensor`s and one on `DynTensor`s, gives the same indices.
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident) => {{
        let i = $x.try_argmin(Axis::<-1>)?;
        Ok(i.as_slice().to_vec())
    }};
}

fn on_tensors(x: &Tensor<f32, shape![Dyn, 3], Vec<f32>>) -> Result<Vec<i64>, Error> {
    the_body!(x)
}

fn on_dyn_tensors(x: &DynTensor<f32>) -> Result<Vec<i64>, Error> {
    the_body!(x)
}

fn main() {
    let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::with_dims(&[2, 3], vec![1.0, 9.0, 0.0, 7.0, 3.0, 3.0]).unwrap();
    let on_static = on_tensors(&x).unwrap();
    assert_eq!(on_static, vec![2, 1]);
    assert_eq!(on_dyn_tensors(&x.to_dyn()).unwrap(), on_static);
}
