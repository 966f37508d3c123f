// `try_elementwise_backward` on both paths: one body, pasted by a macro into
// a function on `Tensor`s and one on `DynTensor`s, gives the same gradients
// and, for a `dout` of the wrong dims, the same error.
use shapecheck::ops::Mul;
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident, $y:ident, $dout:ident) => {{
        let out = $x.try_elementwise_mul($y, Axis::<0>, Identity)?;
        let (dx, dy) = $x.try_elementwise_backward(Mul, $y, &out, $dout, Axis::<0>, Identity)?;
        Ok((dx.as_slice().to_vec(), dy.as_slice().to_vec()))
    }};
}

type Mat = Tensor<f32, shape![Dyn, 3], Vec<f32>>;
type Out = (Vec<f32>, Vec<f32>);

fn on_tensors(x: &Mat, y: &Tensor<f32, shape![Dyn], Vec<f32>>, dout: &Mat) -> Result<Out, Error> {
    the_body!(x, y, dout)
}

fn on_dyn_tensors(x: &DynTensor<f32>, y: &DynTensor<f32>, dout: &DynTensor<f32>) -> Result<Out, Error> {
    the_body!(x, y, dout)
}

fn main() {
    let x = Mat::with_dims(&[2, 3], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let y = Tensor::<f32, shape![Dyn], Vec<f32>>::with_dims(&[2], vec![10.0, 20.0]).unwrap();
    let dout = Mat::with_dims(&[2, 3], vec![1.0; 6]).unwrap();
    let on_static = on_tensors(&x, &y, &dout).unwrap();
    // dx = dout · y[row], dy = dout · x summed over each row
    assert_eq!(on_static, (vec![10.0, 10.0, 10.0, 20.0, 20.0, 20.0], vec![6.0, 15.0]));
    assert_eq!(on_dyn_tensors(&x.to_dyn(), &y.to_dyn(), &dout.to_dyn()).unwrap(), on_static);

    let short = Mat::with_dims(&[1, 3], vec![1.0; 3]).unwrap();
    let e1 = on_tensors(&x, &y, &short).unwrap_err();
    let e2 = on_dyn_tensors(&x.to_dyn(), &y.to_dyn(), &short.to_dyn()).unwrap_err();
    assert_eq!(e1.rule(), "elementwise/dout-shape");
    assert_eq!(e1.to_string(), e2.to_string());
}
