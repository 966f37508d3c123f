// `try_min` on both paths: one body, pasted by a macro into a function on
// `Tensor`s and one on `DynTensor`s, gives the same values and, on an empty
// run-time dim, the same error.
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident) => {{
        let m = $x.try_min(Axis::<0>)?;
        Ok(m.as_slice().to_vec())
    }};
}

fn on_tensors(x: &Tensor<i32, shape![Dyn, 2], Vec<i32>>) -> Result<Vec<i32>, Error> {
    the_body!(x)
}

fn on_dyn_tensors(x: &DynTensor<i32>) -> Result<Vec<i32>, Error> {
    the_body!(x)
}

fn main() {
    let x = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::with_dims(&[3, 2], vec![4, 2, -3, 5, 0, 1]).unwrap();
    let on_static = on_tensors(&x).unwrap();
    assert_eq!(on_static, vec![-3, 1]);
    assert_eq!(on_dyn_tensors(&x.to_dyn()).unwrap(), on_static);

    let e = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::with_dims(&[0, 2], vec![]).unwrap();
    let (e1, e2) = (on_tensors(&e).unwrap_err(), on_dyn_tensors(&e.to_dyn()).unwrap_err());
    assert_eq!(e1.rule(), "reduce/empty");
    assert_eq!(e1.to_string(), e2.to_string());
}
