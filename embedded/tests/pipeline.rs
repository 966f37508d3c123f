//! A capacity pipeline of plain ops on the target, no heap (only `core` is
//! linked): dynamic_stitch into rows `Bounded<4>`, then the plain forms of
//! elementwise (a method and an operator), select, a fused expression and
//! dynamic_partition (the builders' `.run_bounded::<CAP>()`), each result a
//! `Room` chosen by its dims; a function generic over the capacity in the
//! middle. Values worked by hand.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck::storage::BoundedTensor;
use shapecheck::{Owned, Room};
use shapecheck_embedded::Checks;

/// Negative values to 0, for any capacity: no bound, no heap.
fn clip<const CAP: usize>(
    x: &BoundedTensor<f32, shape![Dyn, 2], CAP>,
) -> BoundedTensor<f32, shape![Dyn, 2], CAP> {
    x.elementwise_max(&tensor![0.0f32, 0.0], Axis::<1>, Identity)
}

#[entry]
fn main() -> ! {
    let mut c = Checks::new("pipeline");
    type Rows = (Bounded<4>, Dim<2>);

    let i = Tensor::<i32, shape![3]>::from_array([2, 0, 1]);
    let d = Tensor::<f32, shape![3, 2]>::from_array([[1.0, -2.0], [3.0, -4.0], [-5.0, 6.0]]);
    let bounded_rows = Bounded::<4>::new(3);
    let parts = bounded_rows
        .map(|rows| BoundedTensor::<i32, shape![Dyn], 4>::from_shape_slice((rows,), &[1, 0, 1]));
    match (dynamic_stitch(&i, &d).run_bounded::<4>(), parts) {
        (Ok(x), Some(Ok(p))) => {
            c.eq(x.as_slice(), &[3.0, -4.0, -5.0, 6.0, 1.0, -2.0], "stitch");
            let y = clip(&x);
            let _: &Room<f32, Rows> = y.storage();
            c.eq(
                y.as_slice(),
                &[3.0, 0.0, 0.0, 6.0, 1.0, 0.0],
                "elementwise_max",
            );
            let z = &y * &tensor![1.0f32, 10.0];
            let s: Owned<f32, Rows> = select(
                &tensor![true, false],
                &z,
                &Tensor::<f32, shape![]>::from_array(-1.0),
                Numpy,
            );
            c.eq(s.as_slice(), &[3.0, -1.0, 0.0, -1.0, 1.0, -1.0], "select");
            match (s.lazy() + &tensor![1.0f32, 1.0]).relu().try_eval() {
                Ok(f) => {
                    let _: &Room<f32, Rows> = f.storage();
                    c.eq(f.as_slice(), &[4.0, 0.0, 1.0, 0.0, 2.0, 0.0], "fused");
                    match dynamic_partition(&f, &p, Partitions::<2>).run_bounded::<4>() {
                        Ok([a, b]) => {
                            c.eq(a.as_slice(), &[1.0, 0.0], "partition 0");
                            c.eq(b.as_slice(), &[4.0, 0.0, 2.0, 0.0], "partition 1");
                        }
                        Err(_) => c.check(false, "partition"),
                    }
                }
                Err(_) => c.check(false, "fused"),
            }
        }
        _ => c.check(false, "stitch and partitions"),
    }
    c.finish()
}
