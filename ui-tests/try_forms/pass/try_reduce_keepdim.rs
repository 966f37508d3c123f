// `try_reduce_keepdim` on both paths: one body, pasted by a macro into a
// function on `Tensor`s and one on `DynTensor`s, gives the same dims (the
// reduced one kept as 1) and values.
use shapecheck::ops::reduce::ReduceKind;
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident) => {{
        let m = $x.try_reduce_keepdim::<f32, _>(ReduceKind::Mean, Axis::<-1>)?;
        Ok((m.dims().to_vec(), m.as_slice().to_vec()))
    }};
}

type Out = (Vec<usize>, Vec<f32>);

fn on_tensors(x: &Tensor<f32, shape![Dyn, 2], Vec<f32>>) -> Result<Out, Error> {
    the_body!(x)
}

fn on_dyn_tensors(x: &DynTensor<f32>) -> Result<Out, Error> {
    the_body!(x)
}

fn main() {
    let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::with_dims(&[3, 2], vec![1.0, 2.0, 3.0, 5.0, -1.0, 1.0]).unwrap();
    let on_static = on_tensors(&x).unwrap();
    assert_eq!(on_static, (vec![3, 1], vec![1.5, 4.0, 0.0]));
    assert_eq!(on_dyn_tensors(&x.to_dyn()).unwrap(), on_static);
}
