// `try_arg_reduce_keepdim` on both paths: one body, pasted by a macro into a
// function on `Tensor`s and one on `DynTensor`s, gives the same dims (the
// reduced one kept as 1) and indices.
use shapecheck::ops::reduce::ArgKind;
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident) => {{
        let i = $x.try_arg_reduce_keepdim(ArgKind::ArgMax, Axis::<1>)?;
        Ok((i.dims().to_vec(), i.as_slice().to_vec()))
    }};
}

type Out = (Vec<usize>, Vec<i64>);

fn on_tensors(x: &Tensor<i32, shape![Dyn, 3], Vec<i32>>) -> Result<Out, Error> {
    the_body!(x)
}

fn on_dyn_tensors(x: &DynTensor<i32>) -> Result<Out, Error> {
    the_body!(x)
}

fn main() {
    let x = Tensor::<i32, shape![Dyn, 3], Vec<i32>>::with_dims(&[2, 3], vec![1, 9, 9, 7, 3, 8]).unwrap();
    let on_static = on_tensors(&x).unwrap();
    assert_eq!(on_static, (vec![2, 1], vec![1, 2]));
    assert_eq!(on_dyn_tensors(&x.to_dyn()).unwrap(), on_static);
}
