// then's gradient has then's shape [3] (summed over cond's rows), not the
// output's [2, 3]: assigning it to a [2, 3] tensor is rejected.
use shapecheck::ops::select::select_backward;
use shapecheck::prelude::*;

fn main() {
    let c = Tensor::<bool, shape![2, 3]>::full(true);
    let t = Tensor::<f32, shape![3]>::full(1.0);
    let e = Tensor::<f32, shape![1]>::full(0.0);
    let dout = Tensor::<f32, shape![2, 3]>::full(1.0);
    let (dthen, _delse) = select_backward(&c, &t, &e, &dout, Numpy);
    let _wrong: Tensor<f32, shape![2, 3]> = dthen;
}
