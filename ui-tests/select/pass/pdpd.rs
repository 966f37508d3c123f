// pdpd: output = then's shape; cond and else placed at the axis, one way.
use shapecheck::prelude::*;
use shapecheck::select;

fn main() {
    let t = Tensor::<i32, shape![2, 3]>::from_array([[1, 2, 3], [4, 5, 6]]);
    // axis 0 (what OpenVINO builds for "pdpd"): else [2] on then's first dim,
    // cond [2, 1] drops its trailing 1
    let e = Tensor::<i32, shape![2]>::from_array([10, 20]);
    let c = Tensor::<bool, shape![2, 1]>::from_array([[true], [false]]);
    let out: Tensor<i32, shape![2, 3]> = select(&c, &t, &e, Pdpd::<0>);
    assert_eq!(out.as_slice(), &[1, 2, 3, 20, 20, 20]);
    // axis -1: right-aligned, per source
    let e = Tensor::<i32, shape![3]>::from_array([10, 20, 30]);
    let c = Tensor::<bool, shape![2, 3]>::from_array([[true, false, true], [false, true, false]]);
    let out: Tensor<i32, shape![2, 3]> = select(&c, &t, &e, Pdpd::<-1>);
    assert_eq!(out.as_slice(), &[1, 20, 3, 10, 5, 30]);
    // axis 1, a source with a trailing 1 that runs past; axis 2 = rank(then) for a scalar
    let e = Tensor::<i32, shape![3, 1]>::from_array([[7], [8], [9]]);
    let c = Tensor::<bool, shape![]>::from_array(false);
    let out: Tensor<i32, shape![2, 3]> = select(&c, &t, &e, Pdpd::<1>);
    assert_eq!(out.as_slice(), &[7, 8, 9, 7, 8, 9]);
    let yes = Tensor::<bool, shape![]>::from_array(true);
    let e = Tensor::<i32, shape![1, 1]>::from_array([[0]]);
    let out: Tensor<i32, shape![2, 3]> = select(&yes, &t, &e, Pdpd::<2>);
    assert_eq!(out, t);
}
