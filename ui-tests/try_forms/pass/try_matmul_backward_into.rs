// `try_matmul_backward_into` on both paths: one body, pasted by a macro into
// a function on `Tensor`s and one on `DynTensor`s, writes the same gradients
// into the caller's tensors and, into a `dw` of other dims, gives the same
// error and writes nothing.
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident, $w:ident, $dout:ident, $dx:ident, $dw:ident) => {{
        $x.try_matmul_backward_into($w, $dout, NoTrans, NoTrans, $dx, $dw)?;
        Ok(($dx.as_slice().to_vec(), $dw.as_slice().to_vec()))
    }};
}

type Mat = Tensor<f32, shape![Dyn, 2], Vec<f32>>;
type Col = Tensor<f32, shape![Dyn, 1], Vec<f32>>;
type Out = (Vec<f32>, Vec<f32>);

fn on_tensors(x: &Mat, w: &Col, dout: &Col, dx: &mut Mat, dw: &mut Col) -> Result<Out, Error> {
    the_body!(x, w, dout, dx, dw)
}

fn on_dyn_tensors(
    x: &DynTensor<f32>,
    w: &DynTensor<f32>,
    dout: &DynTensor<f32>,
    dx: &mut DynTensor<f32>,
    dw: &mut DynTensor<f32>,
) -> Result<Out, Error> {
    the_body!(x, w, dout, dx, dw)
}

fn main() {
    let x = Mat::with_dims(&[2, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    let w = Col::with_dims(&[2, 1], vec![1.0, 2.0]).unwrap();
    let dout = Col::with_dims(&[2, 1], vec![1.0, 10.0]).unwrap();
    let (mut dx, mut dw) = (Mat::with_dims(&[2, 2], vec![0.0; 4]).unwrap(), Col::with_dims(&[2, 1], vec![0.0; 2]).unwrap());
    let on_static = on_tensors(&x, &w, &dout, &mut dx, &mut dw).unwrap();
    assert_eq!(on_static, (vec![1.0, 2.0, 10.0, 20.0], vec![31.0, 42.0]));
    let (mut ddx, mut ddw) = (DynTensor::full(&[2, 2], 0.0).unwrap(), DynTensor::full(&[2, 1], 0.0).unwrap());
    assert_eq!(on_dyn_tensors(&x.to_dyn(), &w.to_dyn(), &dout.to_dyn(), &mut ddx, &mut ddw).unwrap(), on_static);

    let mut wrong = Col::with_dims(&[3, 1], vec![5.0; 3]).unwrap();
    let mut dwrong = wrong.to_dyn();
    let e1 = on_tensors(&x, &w, &dout, &mut dx, &mut wrong).unwrap_err();
    let e2 = on_dyn_tensors(&x.to_dyn(), &w.to_dyn(), &dout.to_dyn(), &mut ddx, &mut dwrong).unwrap_err();
    assert_eq!(e1.rule(), "shape/output");
    assert_eq!(e1.to_string(), e2.to_string());
    assert_eq!((wrong.as_slice(), dwrong.as_slice()), (&[5.0; 3][..], &[5.0; 3][..]));
}
