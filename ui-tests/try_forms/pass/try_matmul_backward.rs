// `try_matmul_backward` on both paths: one body, pasted by a macro into a
// function on `Tensor`s and one on `DynTensor`s, gives the same gradients
// and, for a `dout` of the wrong dims, the same error.
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident, $w:ident, $dout:ident) => {{
        let (dx, dw) = $x.try_matmul_backward($w, $dout, NoTrans, NoTrans)?;
        Ok((dx.as_slice().to_vec(), dw.as_slice().to_vec()))
    }};
}

type Out = (Vec<f32>, Vec<f32>);

fn on_tensors(
    x: &Tensor<f32, shape![Dyn, 2], Vec<f32>>,
    w: &Tensor<f32, shape![2, 1]>,
    dout: &Tensor<f32, shape![Dyn, 1], Vec<f32>>,
) -> Result<Out, Error> {
    the_body!(x, w, dout)
}

fn on_dyn_tensors(x: &DynTensor<f32>, w: &DynTensor<f32>, dout: &DynTensor<f32>) -> Result<Out, Error> {
    the_body!(x, w, dout)
}

fn main() {
    let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::with_dims(&[2, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    let w = tensor![[1.0f32], [2.0]];
    let dout = Tensor::<f32, shape![Dyn, 1], Vec<f32>>::with_dims(&[2, 1], vec![1.0, 10.0]).unwrap();
    let on_static = on_tensors(&x, &w, &dout).unwrap();
    // dx = dout · wᵀ, dw = xᵀ · dout
    assert_eq!(on_static, (vec![1.0, 2.0, 10.0, 20.0], vec![31.0, 42.0]));
    assert_eq!(on_dyn_tensors(&x.to_dyn(), &w.to_dyn(), &dout.to_dyn()).unwrap(), on_static);

    let short = Tensor::<f32, shape![Dyn, 1], Vec<f32>>::with_dims(&[3, 1], vec![1.0; 3]).unwrap();
    let e1 = on_tensors(&x, &w, &short).unwrap_err();
    let e2 = on_dyn_tensors(&x.to_dyn(), &w.to_dyn(), &short.to_dyn()).unwrap_err();
    assert_eq!(e1.rule(), "matmul/dout-shape");
    assert_eq!(e1.to_string(), e2.to_string());
}
