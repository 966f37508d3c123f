// `try_reduce_backward` on both paths: one body, pasted by a macro into a
// function on `Tensor`s and one on `DynTensor`s, gives the same gradient
// and, for a `dout` of the wrong dims, the same error.
use shapecheck::ops::reduce::ReduceGradKind;
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident, $out:ident, $dout:ident) => {{
        let gx = $x.try_reduce_backward(ReduceGradKind::Max, Axis::<-1>, false, $out, $dout)?;
        Ok(gx.as_slice().to_vec())
    }};
}

type Row = Tensor<f32, shape![Dyn], Vec<f32>>;

fn on_tensors(x: &Tensor<f32, shape![Dyn, 2], Vec<f32>>, out: &Row, dout: &Row) -> Result<Vec<f32>, Error> {
    the_body!(x, out, dout)
}

fn on_dyn_tensors(x: &DynTensor<f32>, out: &DynTensor<f32>, dout: &DynTensor<f32>) -> Result<Vec<f32>, Error> {
    the_body!(x, out, dout)
}

fn main() {
    let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::with_dims(&[2, 2], vec![1.0, 4.0, 3.0, 2.0]).unwrap();
    let out = Row::with_dims(&[2], vec![4.0, 3.0]).unwrap();
    let dout = Row::with_dims(&[2], vec![10.0, 20.0]).unwrap();
    let on_static = on_tensors(&x, &out, &dout).unwrap();
    assert_eq!(on_static, vec![0.0, 10.0, 20.0, 0.0]); // dout to each row's max
    assert_eq!(on_dyn_tensors(&x.to_dyn(), &out.to_dyn(), &dout.to_dyn()).unwrap(), on_static);

    let short = Row::with_dims(&[1], vec![1.0]).unwrap();
    let e1 = on_tensors(&x, &out, &short).unwrap_err();
    let e2 = on_dyn_tensors(&x.to_dyn(), &out.to_dyn(), &short.to_dyn()).unwrap_err();
    assert_eq!(e1.rule(), "reduce/dout-shape");
    assert_eq!(e1.to_string(), e2.to_string());
}
