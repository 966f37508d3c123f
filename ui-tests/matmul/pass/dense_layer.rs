// A dense layer on the static path: x [B, 4] · w [4, 3] + b, relu; a
// batched, broadcast product; transposes; a vector on either side; the
// `try_` form on a run-time batch; all inline but the last.
use shapecheck::prelude::*;
use shapecheck::{MatmulOutput, MatmulShapes, NoTrans, Trans};

/// Generic over the operands' shapes with the public bound alone, the
/// output named from it.
fn gram<S: StaticShape + MatmulShapes<S, NoTrans, Trans>>(
    x: &Tensor<f32, S, Vec<f32>>,
) -> Tensor<f32, MatmulOutput<S, S, NoTrans, Trans>, Vec<f32>> {
    x.matmul_t(x, NoTrans, Trans)
}

fn main() {
    let x = Tensor::<f32, shape![2, 4]>::from_array([[1.0, 0.0, 2.0, -1.0], [0.0, 1.0, 1.0, 1.0]]);
    let w = Tensor::<f32, shape![4, 3]>::full(0.5);
    let b = tensor![0.0f32, -2.0, 1.0];
    let h: Tensor<f32, shape![2, 3]> = x.matmul(&w).elementwise_add(&b, Axis::<-1>, Relu);
    assert_eq!(h.as_slice(), &[1.0, 0.0, 2.0, 1.5, 0.0, 2.5]);

    // [2, 1, 3, 4] x [5, 4, 6] -> [2, 5, 3, 6]
    let p = Tensor::<i32, shape![2, 1, 3, 4]>::full(1).matmul(&Tensor::<i32, shape![5, 4, 6]>::full(2));
    let _: &Tensor<i32, shape![2, 5, 3, 6]> = &p;
    assert!(p.as_slice().iter().all(|&v| v == 8));

    // transposes: x [4, 2]ᵀ · w [4, 3] -> [2, 3]; a vector's marker is ignored
    let xt = Tensor::<f32, shape![4, 2]>::full(1.0);
    let _: Tensor<f32, shape![2, 3]> = xt.matmul_t(&w, Trans, NoTrans);
    let v = tensor![1.0f32, 1.0, 1.0, 1.0];
    let _: Tensor<f32, shape![3]> = v.matmul_t(&w, Trans, NoTrans);
    let s: Tensor<f32, shape![]> = v.matmul(&v);
    assert_eq!(s.as_slice(), &[4.0]);

    let g = gram(&x.to_heap());
    assert_eq!(g.as_slice(), &[6.0, 1.0, 1.0, 3.0]);

    // a run-time batch: try_matmul checks it when it runs
    let rows = Tensor::<f32, shape![Dyn, 4], Vec<f32>>::from_vec((Dyn(3), Dim), vec![1.0; 12]).unwrap();
    let z = rows.try_matmul(&w, NoTrans, NoTrans).unwrap();
    let _: &Tensor<f32, shape![Dyn, 3], Vec<f32>> = &z;
    assert_eq!(z.as_slice(), &[2.0; 9]);
}
