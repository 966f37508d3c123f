// `try_matmul_into` on both paths: one body, pasted by a macro into a
// function on `Tensor`s and one on `DynTensor`s, writes the same product
// into the caller's output and, into an output of other dims, gives the
// same error and writes nothing.
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident, $w:ident, $out:ident) => {{
        $x.try_matmul_into($w, NoTrans, Trans, $out)?;
        Ok($out.as_slice().to_vec())
    }};
}

type Mat = Tensor<i32, shape![Dyn, 2], Vec<i32>>;

fn on_tensors(x: &Mat, w: &Tensor<i32, shape![3, 2]>, out: &mut Tensor<i32, shape![Dyn, 3], Vec<i32>>) -> Result<Vec<i32>, Error> {
    the_body!(x, w, out)
}

fn on_dyn_tensors(x: &DynTensor<i32>, w: &DynTensor<i32>, out: &mut DynTensor<i32>) -> Result<Vec<i32>, Error> {
    the_body!(x, w, out)
}

fn main() {
    let x = Mat::with_dims(&[2, 2], vec![1, 2, 3, 4]).unwrap();
    let w = tensor![[1, 0], [0, 1], [1, 1]]; // x · wᵀ: [2, 3]
    let mut out = Tensor::<i32, shape![Dyn, 3], Vec<i32>>::with_dims(&[2, 3], vec![0; 6]).unwrap();
    let on_static = on_tensors(&x, &w, &mut out).unwrap();
    assert_eq!(on_static, vec![1, 2, 3, 3, 4, 7]);
    let mut dout = DynTensor::full(&[2, 3], 0).unwrap();
    assert_eq!(on_dyn_tensors(&x.to_dyn(), &w.to_dyn(), &mut dout).unwrap(), on_static);

    let mut wrong = Tensor::<i32, shape![Dyn, 3], Vec<i32>>::with_dims(&[3, 3], vec![-1; 9]).unwrap();
    let mut dwrong = wrong.to_dyn();
    let e1 = on_tensors(&x, &w, &mut wrong).unwrap_err();
    let e2 = on_dyn_tensors(&x.to_dyn(), &w.to_dyn(), &mut dwrong).unwrap_err();
    assert_eq!(e1.rule(), "shape/output");
    assert_eq!(e1.to_string(), e2.to_string());
    assert_eq!((wrong.as_slice(), dwrong.as_slice()), (&[-1; 9][..], &[-1; 9][..]));
}
