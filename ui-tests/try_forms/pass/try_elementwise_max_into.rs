// `try_elementwise_max_into` on both paths: one body, pasted by a macro into
// a function on `Tensor`s and one on `DynTensor`s, writes the same values
// into the caller's output and, into an output of other dims, gives the
// same error and writes nothing.
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident, $y:ident, $out:ident) => {{
        $x.try_elementwise_max_into($y, Axis::<-1>, Identity, $out)?;
        Ok($out.as_slice().to_vec())
    }};
}

type Mat = Tensor<i32, shape![Dyn, 3], Vec<i32>>;

fn on_tensors(x: &Mat, y: &Tensor<i32, shape![3]>, out: &mut Mat) -> Result<Vec<i32>, Error> {
    the_body!(x, y, out)
}

fn on_dyn_tensors(x: &DynTensor<i32>, y: &DynTensor<i32>, out: &mut DynTensor<i32>) -> Result<Vec<i32>, Error> {
    the_body!(x, y, out)
}

fn main() {
    let x = Mat::with_dims(&[2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    let y = tensor![10, 20, 30];
    let mut out = Mat::with_dims(&[2, 3], vec![0; 6]).unwrap();
    let on_static = on_tensors(&x, &y, &mut out).unwrap();
    assert_eq!(on_static, vec![10, 20, 30, 10, 20, 30]);
    let mut dout = DynTensor::full(&[2, 3], 0).unwrap();
    assert_eq!(on_dyn_tensors(&x.to_dyn(), &y.to_dyn(), &mut dout).unwrap(), on_static);

    let mut wrong = Mat::with_dims(&[1, 3], vec![7; 3]).unwrap();
    let mut dwrong = wrong.to_dyn();
    let e1 = on_tensors(&x, &y, &mut wrong).unwrap_err();
    let e2 = on_dyn_tensors(&x.to_dyn(), &y.to_dyn(), &mut dwrong).unwrap_err();
    assert_eq!(e1.rule(), "shape/output");
    assert_eq!(e1.to_string(), e2.to_string());
    assert_eq!((wrong.as_slice(), dwrong.as_slice()), (&[7; 3][..], &[7; 3][..]));
}
