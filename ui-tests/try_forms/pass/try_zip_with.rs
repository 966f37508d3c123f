// `try_zip_with` on both paths: one body, pasted by a macro into a function
// on `Tensor`s and one on `DynTensor`s, gives the same values (numpy
// broadcasting) and, for operands that do not broadcast, an error of the
// same rule (on `Tensor`, inside a fused expression's).
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident, $y:ident) => {{
        let z = $x.try_zip_with($y, |a, b| a * 10 + b)?;
        Ok((z.dims().to_vec(), z.as_slice().to_vec()))
    }};
}

type Out = (Vec<usize>, Vec<i32>);
type Col = Tensor<i32, shape![Dyn, 1], Vec<i32>>;
type Row = Tensor<i32, shape![Dyn], Vec<i32>>;

fn on_tensors(x: &Col, y: &Row) -> Result<Out, Error> {
    the_body!(x, y)
}

fn on_dyn_tensors(x: &DynTensor<i32>, y: &DynTensor<i32>) -> Result<Out, Error> {
    the_body!(x, y)
}

fn main() {
    let x = Col::with_dims(&[2, 1], vec![1, 2]).unwrap();
    let y = Row::with_dims(&[3], vec![3, 4, 5]).unwrap();
    let on_static = on_tensors(&x, &y).unwrap();
    assert_eq!(on_static, (vec![2, 3], vec![13, 14, 15, 23, 24, 25]));
    assert_eq!(on_dyn_tensors(&x.to_dyn(), &y.to_dyn()).unwrap(), on_static);

    // x [3, 2] and y [3]: the last dims differ and neither is 1
    let wide = Tensor::<i32, shape![Dyn, 2], Vec<i32>>::with_dims(&[3, 2], vec![0; 6]).unwrap();
    let (wide, y) = (&wide, &y);
    let e1 = (|| -> Result<Out, Error> { the_body!(wide, y) })().unwrap_err();
    let (dwide, dy) = (&wide.to_dyn(), &y.to_dyn());
    let e2 = (|| -> Result<Out, Error> { the_body!(dwide, dy) })().unwrap_err();
    assert_eq!(e1.rule(), "elementwise/broadcast");
    assert_eq!(e1.rule(), e2.rule());
}
