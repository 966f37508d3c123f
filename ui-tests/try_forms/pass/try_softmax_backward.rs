// `try_softmax_backward` on both paths: one body, pasted by a macro into a
// function on `Tensor`s and one on `DynTensor`s, gives the same gradient
// and, for a `dout` of the wrong dims, the same error.
use shapecheck::ops::softmax::SoftmaxKind;
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident, $dout:ident) => {{
        let out = $x.try_softmax(Axis::<-1>)?;
        let gx = $x.try_softmax_backward(SoftmaxKind::Softmax, Axis::<-1>, &out, $dout)?;
        Ok(gx.as_slice().to_vec())
    }};
}

type Mat = Tensor<f64, shape![Dyn, 2], Vec<f64>>;

fn on_tensors(x: &Mat, dout: &Mat) -> Result<Vec<f64>, Error> {
    the_body!(x, dout)
}

fn on_dyn_tensors(x: &DynTensor<f64>, dout: &DynTensor<f64>) -> Result<Vec<f64>, Error> {
    the_body!(x, dout)
}

fn main() {
    let x = Mat::with_dims(&[2, 2], vec![0.0, 0.0, 3.0, 3.0]).unwrap();
    let dout = Mat::with_dims(&[2, 2], vec![1.0, 0.0, 0.0, 4.0]).unwrap();
    let on_static = on_tensors(&x, &dout).unwrap();
    // out = [0.5, 0.5] per row: gx = out · (dout - Σ out · dout)
    assert_eq!(on_static, vec![0.25, -0.25, -1.0, 1.0]);
    assert_eq!(on_dyn_tensors(&x.to_dyn(), &dout.to_dyn()).unwrap(), on_static);

    let short = Mat::with_dims(&[1, 2], vec![1.0; 2]).unwrap();
    let (e1, e2) = (on_tensors(&x, &short).unwrap_err(), on_dyn_tensors(&x.to_dyn(), &short.to_dyn()).unwrap_err());
    assert_eq!(e1.rule(), "softmax/dout-shape");
    assert_eq!(e1.to_string(), e2.to_string());
}
