// `try_reduce` on both paths: one body, pasted by a macro into a function on
// `Tensor`s and one on `DynTensor`s, gives the same values and, on an empty
// run-time dim, the same error.
use shapecheck::ops::reduce::ReduceKind;
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident) => {{
        let m = $x.try_reduce::<i32, _>(ReduceKind::Max, Axis::<0>)?;
        Ok((m.dims().to_vec(), m.as_slice().to_vec()))
    }};
}

type Out = (Vec<usize>, Vec<i32>);

fn on_tensors(x: &Tensor<i32, shape![Dyn, 3], Vec<i32>>) -> Result<Out, Error> {
    the_body!(x)
}

fn on_dyn_tensors(x: &DynTensor<i32>) -> Result<Out, Error> {
    the_body!(x)
}

fn main() {
    let x = Tensor::<i32, shape![Dyn, 3], Vec<i32>>::with_dims(&[2, 3], vec![1, 8, 3, 4, 5, 6]).unwrap();
    let on_static = on_tensors(&x).unwrap();
    assert_eq!(on_static, (vec![3], vec![4, 8, 6]));
    assert_eq!(on_dyn_tensors(&x.to_dyn()).unwrap(), on_static);

    // no rows: a max over an empty dim, on both
    let e = Tensor::<i32, shape![Dyn, 3], Vec<i32>>::with_dims(&[0, 3], vec![]).unwrap();
    let (e1, e2) = (on_tensors(&e).unwrap_err(), on_dyn_tensors(&e.to_dyn()).unwrap_err());
    assert_eq!(e1.rule(), "reduce/empty");
    assert_eq!(e1.to_string(), e2.to_string());
}
