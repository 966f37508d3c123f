// pdpd at axis 0: else [3, 2, 3] has a higher rank than then [4, 4], and
// cond [1, 3] meets then's 4 with its 3. OpenVINO checks else first: one
// error, select/pdpd-rank.
use shapecheck::prelude::*;

fn main() {
    let c = Tensor::<bool, shape![1, 3]>::full(true);
    let t = Tensor::<f32, shape![4, 4]>::full(1.0);
    let e = Tensor::<f32, shape![3, 2, 3]>::full(2.0);
    let _ = select(&c, &t, &e, Pdpd::<0>);
}
