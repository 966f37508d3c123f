// A run-time dim that meets no dim of the other operand, or meets 1, needs
// no run-time check: the plain forms accept it, keep it `Dyn` in the output
// (stored in a `Vec`) and agree with the `try_` forms.
use shapecheck::prelude::*;

fn main() {
    // TensorFlow's dynamic_stitch: row i of the data goes to row indices[i]
    let merged = dynamic_stitch(&tensor![1, 0], &tensor![[1.0f32, 2.0], [3.0, 4.0]])
        .run()
        .unwrap();
    let _: &Tensor<f32, shape![Dyn, 2], Vec<f32>> = &merged;
    let w = tensor![10.0f32, 100.0];

    // the `Dyn` rows meet no dim of w
    let z: Tensor<f32, shape![Dyn, 2], Vec<f32>> = merged.elementwise_mul(&w, Axis::<-1>, Identity);
    assert_eq!(z.dims().as_slice(), &[2, 2]);
    assert_eq!(z.as_slice(), &[30.0, 400.0, 10.0, 200.0]);
    assert_eq!(z, merged.try_elementwise_mul(&w, Axis::<-1>, Identity).unwrap());

    // every named op, and the `Dyn` on the right
    assert_eq!(merged.elementwise_add(&w, Axis::<-1>, Identity).as_slice(), &[13.0, 104.0, 11.0, 102.0]);
    assert_eq!(merged.elementwise_sub(&w, Axis::<-1>, Relu).as_slice(), &[0.0; 4]);
    assert_eq!(merged.elementwise_max(&w, Axis::<-1>, Identity).as_slice(), &[10.0, 100.0, 10.0, 100.0]);
    assert_eq!(merged.elementwise_min(&w, Axis::<-1>, Identity).as_slice(), &[3.0, 4.0, 1.0, 2.0]);
    let q = merged.elementwise_div(&w, Axis::<-1>, Identity).unwrap();
    assert_eq!(q.as_slice(), &[0.3, 0.04, 0.1, 0.02]);
    let rev = w.elementwise_mul(&merged, Axis::<-1>, Identity);
    assert_eq!(rev, z);

    // the `Dyn` meets 1: a column [1, 2] against the rows
    let col = tensor![[1.0f32, 2.0]];
    let c: Tensor<f32, shape![Dyn, 2], Vec<f32>> = merged.elementwise_add(&col, Axis::<-1>, Identity);
    assert_eq!(c.as_slice(), &[4.0, 6.0, 2.0, 4.0]);

    // Paddle's axis: w [2] placed at axis 1 of the [Dyn, 2] rows
    let a = merged.elementwise_mul(&w, Axis::<1>, Identity);
    assert_eq!(a, z);

    // the operators (numpy broadcasting), the `Dyn` on either side
    let m: Tensor<f32, shape![Dyn, 2], Vec<f32>> = &merged * &w;
    assert_eq!(m, z);
    assert_eq!(&merged + &col, c);
    assert_eq!((&w - &merged).as_slice(), &[7.0, 96.0, 9.0, 98.0]);
    assert_eq!(&merged / &w, q);

    // integer division by zero is still the one run-time error
    let ints = dynamic_stitch(&tensor![0], &tensor![[6, 8]]).run().unwrap();
    let err = ints.elementwise_div(&tensor![2, 0], Axis::<-1>, Identity).unwrap_err();
    assert_eq!(err.rule(), "elementwise/division-by-zero");
}
