// `try_prod` on both paths: one body, pasted by a macro into a function on
// `Tensor`s and one on `DynTensor`s, gives the same values.
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident) => {{
        let p = $x.try_prod(Axis::<-1>)?;
        Ok(p.as_slice().to_vec())
    }};
}

fn on_tensors(x: &Tensor<i32, shape![Dyn, 3], Vec<i32>>) -> Result<Vec<i32>, Error> {
    the_body!(x)
}

fn on_dyn_tensors(x: &DynTensor<i32>) -> Result<Vec<i32>, Error> {
    the_body!(x)
}

fn main() {
    let x = Tensor::<i32, shape![Dyn, 3], Vec<i32>>::with_dims(&[2, 3], vec![1, 2, 3, -1, 5, 6]).unwrap();
    let on_static = on_tensors(&x).unwrap();
    assert_eq!(on_static, vec![6, -30]);
    assert_eq!(on_dyn_tensors(&x.to_dyn()).unwrap(), on_static);
}
