// `try_elementwise_div` on both paths: one body, pasted by a macro into a
// function on `Tensor`s and one on `DynTensor`s, gives the same values and,
// for operands that do not broadcast, the same error.
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident, $y:ident) => {{
        let z = $x.try_elementwise_div($y, Axis::<-1>, Identity)?;
        Ok(z.as_slice().to_vec())
    }};
}

type Mat = Tensor<i32, shape![Dyn, 3], Vec<i32>>;
type Row = Tensor<i32, shape![Dyn], Vec<i32>>;

fn on_tensors(x: &Mat, y: &Row) -> Result<Vec<i32>, Error> {
    the_body!(x, y)
}

fn on_dyn_tensors(x: &DynTensor<i32>, y: &DynTensor<i32>) -> Result<Vec<i32>, Error> {
    the_body!(x, y)
}

fn main() {
    let x = Mat::with_dims(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    let y = Row::with_dims(&[3], vec![10, 20, 30]).unwrap();
    let on_static = on_tensors(&x, &y).unwrap();
    assert_eq!(on_static, vec![0, 0, 0, 0, 0, 0]);
    assert_eq!(on_dyn_tensors(&x.to_dyn(), &y.to_dyn()).unwrap(), on_static);

    let y2 = Row::with_dims(&[2], vec![1, 1]).unwrap();
    let (e1, e2) = (on_tensors(&x, &y2).unwrap_err(), on_dyn_tensors(&x.to_dyn(), &y2.to_dyn()).unwrap_err());
    assert_eq!(e1.rule(), "elementwise/broadcast");
    assert_eq!(e1.to_string(), e2.to_string());
}
