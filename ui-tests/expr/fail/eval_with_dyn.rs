// `eval` on a tree that reads a run-time dim: its rule is checked when it
// runs, so it needs `try_eval`.
use shapecheck::prelude::*;

fn main() {
    let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim), vec![0.0; 6]).unwrap();
    let y = Tensor::<f32, shape![3]>::zeros();
    let _ = (x.lazy() * &y).eval();
}
