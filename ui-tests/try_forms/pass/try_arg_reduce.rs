// `try_arg_reduce` on both paths: one body, pasted by a macro into a
// function on `Tensor`s and one on `DynTensor`s, gives the same indices and,
// on an empty run-time dim, the same error.
use shapecheck::ops::reduce::ArgKind;
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident) => {{
        let i = $x.try_arg_reduce(ArgKind::ArgMin, Axis::<0>)?;
        Ok((i.dims().to_vec(), i.as_slice().to_vec()))
    }};
}

type Out = (Vec<usize>, Vec<i64>);

fn on_tensors(x: &Tensor<f32, shape![Dyn, 3], Vec<f32>>) -> Result<Out, Error> {
    the_body!(x)
}

fn on_dyn_tensors(x: &DynTensor<f32>) -> Result<Out, Error> {
    the_body!(x)
}

fn main() {
    let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::with_dims(&[2, 3], vec![1.0, 0.0, 3.0, 1.0, 5.0, -6.0]).unwrap();
    let on_static = on_tensors(&x).unwrap();
    assert_eq!(on_static, (vec![3], vec![0, 0, 1])); // the first on ties
    assert_eq!(on_dyn_tensors(&x.to_dyn()).unwrap(), on_static);

    let e = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::with_dims(&[0, 3], vec![]).unwrap();
    let (e1, e2) = (on_tensors(&e).unwrap_err(), on_dyn_tensors(&e.to_dyn()).unwrap_err());
    assert_eq!(e1.rule(), "reduce/empty");
    assert_eq!(e1.to_string(), e2.to_string());
}
