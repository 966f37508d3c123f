// `try_elementwise_backward_into` on both paths: one body, pasted by a macro
// into a function on `Tensor`s and one on `DynTensor`s, writes the same
// gradients into the caller's tensors and, into a `gy` of other dims, gives
// the same error and writes nothing.
use shapecheck::ops::Max;
use shapecheck::prelude::*;

macro_rules! the_body {
    ($x:ident, $y:ident, $dout:ident, $gx:ident, $gy:ident) => {{
        let out = $x.try_elementwise_max($y, Axis::<-1>, Identity)?;
        $x.try_elementwise_backward_into(Max, $y, &out, $dout, Axis::<-1>, Identity, $gx, $gy)?;
        Ok(($gx.as_slice().to_vec(), $gy.as_slice().to_vec()))
    }};
}

type Vector = Tensor<f32, shape![Dyn], Vec<f32>>;
type Out = (Vec<f32>, Vec<f32>);

fn on_tensors(x: &Vector, y: &Vector, dout: &Vector, gx: &mut Vector, gy: &mut Vector) -> Result<Out, Error> {
    the_body!(x, y, dout, gx, gy)
}

fn on_dyn_tensors(
    x: &DynTensor<f32>,
    y: &DynTensor<f32>,
    dout: &DynTensor<f32>,
    gx: &mut DynTensor<f32>,
    gy: &mut DynTensor<f32>,
) -> Result<Out, Error> {
    the_body!(x, y, dout, gx, gy)
}

fn main() {
    let v = |values: &[f32]| Vector::with_dims(&[values.len()], values.to_vec()).unwrap();
    let (x, y, dout) = (v(&[1.0, 5.0, 2.0]), v(&[3.0, 1.0, 2.0]), v(&[1.0, 1.0, 1.0]));
    let (mut gx, mut gy) = (v(&[0.0; 3]), v(&[0.0; 3]));
    let on_static = on_tensors(&x, &y, &dout, &mut gx, &mut gy).unwrap();
    assert_eq!(on_static, (vec![0.0, 1.0, 0.5], vec![1.0, 0.0, 0.5])); // a tie splits evenly
    let (mut dgx, mut dgy) = (DynTensor::full(&[3], 0.0).unwrap(), DynTensor::full(&[3], 0.0).unwrap());
    assert_eq!(on_dyn_tensors(&x.to_dyn(), &y.to_dyn(), &dout.to_dyn(), &mut dgx, &mut dgy).unwrap(), on_static);

    let mut short = v(&[9.0, 9.0]);
    let mut dshort = short.to_dyn();
    let e1 = on_tensors(&x, &y, &dout, &mut gx, &mut short).unwrap_err();
    let e2 = on_dyn_tensors(&x.to_dyn(), &y.to_dyn(), &dout.to_dyn(), &mut dgx, &mut dshort).unwrap_err();
    assert_eq!(e1.rule(), "shape/output");
    assert_eq!(e1.to_string(), e2.to_string());
    assert_eq!((short.as_slice(), dshort.as_slice()), (&[9.0, 9.0][..], &[9.0, 9.0][..]));
}
