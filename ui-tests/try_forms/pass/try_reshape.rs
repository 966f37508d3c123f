// `try_reshape` on both paths: one body, pasted by a macro into a function
// on `Tensor`s and one on `DynTensor`s, gives the same dims and elements
// and, for another element count, the same error.
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident, $rows:ident) => {{
        let y = $x.try_reshape((Dyn($rows), Dim::<6>))?;
        Ok((y.dims().to_vec(), y.as_slice().to_vec()))
    }};
}

type Out = (Vec<usize>, Vec<i32>);

fn on_tensors(x: Tensor<i32, shape![Dyn, 4], Vec<i32>>, rows: usize) -> Result<Out, Error> {
    the_body!(x, rows)
}

fn on_dyn_tensors(x: DynTensor<i32>, rows: usize) -> Result<Out, Error> {
    the_body!(x, rows)
}

fn main() {
    let x = Tensor::<i32, shape![Dyn, 4], Vec<i32>>::with_dims(&[3, 4], (0..12).collect()).unwrap();
    let on_static = on_tensors(x.clone(), 2).unwrap();
    assert_eq!(on_static, (vec![2, 6], (0..12).collect::<Vec<i32>>()));
    assert_eq!(on_dyn_tensors(x.to_dyn(), 2).unwrap(), on_static);

    let (e1, e2) = (on_tensors(x.clone(), 3).unwrap_err(), on_dyn_tensors(x.to_dyn(), 3).unwrap_err());
    assert_eq!(e1.rule(), "reshape/element-count");
    assert_eq!(e1.to_string(), e2.to_string());
}
