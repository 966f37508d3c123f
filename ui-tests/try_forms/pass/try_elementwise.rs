// `try_elementwise` on both paths: one body, pasted by a macro into a
// function on `Tensor`s and one on `DynTensor`s, gives the same values and,
// for operands that do not broadcast, the same error.
use shapecheck::ops::Mul;
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident, $y:ident) => {{
        let z = $x.try_elementwise(Mul, $y, Axis::<0>, Relu)?;
        Ok(z.as_slice().to_vec())
    }};
}

type Rows = Tensor<f32, shape![Dyn], Vec<f32>>;

fn on_tensors(x: &Tensor<f32, shape![Dyn, 3], Vec<f32>>, y: &Rows) -> Result<Vec<f32>, Error> {
    the_body!(x, y)
}

fn on_dyn_tensors(x: &DynTensor<f32>, y: &DynTensor<f32>) -> Result<Vec<f32>, Error> {
    the_body!(x, y)
}

fn main() {
    let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::with_dims(&[2, 3], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    // y [2] at axis 0: y[i] meets row i of x; relu clips the second row
    let y = Rows::with_dims(&[2], vec![10.0, -10.0]).unwrap();
    let on_static = on_tensors(&x, &y).unwrap();
    assert_eq!(on_static, vec![10.0, 20.0, 30.0, 0.0, 0.0, 0.0]);
    assert_eq!(on_dyn_tensors(&x.to_dyn(), &y.to_dyn()).unwrap(), on_static);

    let y3 = Rows::with_dims(&[3], vec![1.0; 3]).unwrap();
    let (e1, e2) = (on_tensors(&x, &y3).unwrap_err(), on_dyn_tensors(&x.to_dyn(), &y3.to_dyn()).unwrap_err());
    assert_eq!(e1.rule(), "elementwise/broadcast");
    assert_eq!(e1.to_string(), e2.to_string());
}
