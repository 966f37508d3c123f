//! Paddle's elementwise ops on a Cortex-M4F: the static API on static buffers
//! (views) and on inline tensors, several ops, axes and activations (tanh and
//! sigmoid through libm), and integer division by zero returning the error.
//! Every expected value is computed by hand.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::ops::elementwise::elementwise_slices;
use shapecheck::prelude::*;
use shapecheck::{ActivationKind, BinaryOpKind, ElementwiseError};
use shapecheck_embedded::Checks;

static X6: [f32; 6] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
static Y2: [f32; 2] = [10.0, 100.0];

#[entry]
fn main() -> ! {
    let mut c = Checks::new("elementwise");

    // mul, inline, Y [3] on the last axis of X [2, 3] (numpy's right alignment)
    let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    let y = Tensor::<f32, shape![3]>::from_array([10.0, 20.0, 30.0]);
    let z: Tensor<f32, shape![2, 3]> = x.elementwise_mul(&y, Axis::<-1>, Identity);
    c.eq(
        z.as_slice(),
        &[10.0, 40.0, 90.0, 40.0, 100.0, 180.0],
        "mul [2,3]x[3] axis -1",
    );

    // add, views over static buffers, Y [2] at axis 0, into a stack buffer
    let (Ok(xv), Ok(yv)) = (
        Tensor::<f32, shape![2, 3], &[f32]>::from_storage(&X6[..]),
        Tensor::<f32, shape![2], &[f32]>::from_storage(&Y2[..]),
    ) else {
        c.check(false, "views over static buffers");
        c.finish()
    };
    let mut buf = [0.0f32; 6];
    match Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut buf[..]) {
        Ok(mut out) => xv.elementwise_add_into(&yv, Axis::<0>, Identity, &mut out),
        Err(_) => c.check(false, "output view"),
    }
    c.eq(
        &buf,
        &[11.0, 12.0, 13.0, 104.0, 105.0, 106.0],
        "add [2,3]+[2] axis 0 into a view",
    );
    // a view operand gives an inline result
    let z: Tensor<f32, shape![2, 3]> = xv.elementwise_mul(&yv, Axis::<0>, Identity);
    c.eq(
        z.as_slice(),
        &[10.0, 20.0, 30.0, 400.0, 500.0, 600.0],
        "mul view result inline",
    );

    // sub then relu, i32
    let x = Tensor::<i32, shape![2, 2]>::from_array([[1, 5], [-3, 2]]);
    let y = Tensor::<i32, shape![2]>::from_array([2, 1]);
    let z = x.elementwise_sub(&y, Axis::<-1>, Relu);
    c.eq(z.as_slice(), &[0, 4, 0, 1], "sub [2,2]-[2] relu");

    // max and min, i32
    let x = Tensor::<i32, shape![2, 3]>::from_array([[1, 7, 3], [9, 2, 6]]);
    let y = Tensor::<i32, shape![3]>::from_array([5, 1, 6]);
    c.eq(
        x.elementwise_max(&y, Axis::<-1>, Identity).as_slice(),
        &[5, 7, 6, 9, 2, 6],
        "max",
    );
    c.eq(
        x.elementwise_min(&y, Axis::<-1>, Identity).as_slice(),
        &[1, 1, 3, 5, 1, 6],
        "min",
    );

    // equal ranks, both sides broadcast: [2, 1] + [1, 3] -> [2, 3]
    let x = Tensor::<i32, shape![2, 1]>::from_array([[1], [2]]);
    let y = Tensor::<i32, shape![1, 3]>::from_array([[10, 20, 30]]);
    let z: Tensor<i32, shape![2, 3]> = x.elementwise_add(&y, Axis::<-1>, Identity);
    c.eq(z.as_slice(), &[11, 21, 31, 12, 22, 32], "add [2,1]+[1,3]");

    // Y of higher rank than X: [3] * [2, 3] -> [2, 3]
    let x = Tensor::<i32, shape![3]>::from_array([1, 2, 3]);
    let y = Tensor::<i32, shape![2, 3]>::from_array([[1, 1, 1], [2, 2, 2]]);
    let z: Tensor<i32, shape![2, 3]> = x.elementwise_mul(&y, Axis::<-1>, Identity);
    c.eq(z.as_slice(), &[1, 2, 3, 2, 4, 6], "mul [3]x[2,3]");

    // Paddle's documented example: X [2, 3, 4, 5], Y [3, 4] at axis 1.
    // x[i] = i, y[j] = j + 1, so out[i] = i * ((i / 5) % 12 + 1).
    let mut xs = [0.0f32; 120];
    for (i, v) in xs.iter_mut().enumerate() {
        *v = i as f32;
    }
    let mut ys = [0.0f32; 12];
    for (j, v) in ys.iter_mut().enumerate() {
        *v = (j + 1) as f32;
    }
    match (
        Tensor::<f32, shape![2, 3, 4, 5]>::from_slice(&xs),
        Tensor::<f32, shape![3, 4]>::from_slice(&ys),
    ) {
        (Ok(x), Ok(y)) => {
            let z: Tensor<f32, shape![2, 3, 4, 5]> = x.elementwise_mul(&y, Axis::<1>, Identity);
            let s = z.as_slice();
            c.check(s.len() == 120, "[2,3,4,5] has 120 elements");
            // by hand: out[7] = 7 * 2, out[60] = 60 * 1, out[119] = 119 * 12
            c.eq(
                &[s[0], s[4], s[5], s[7], s[59], s[60], s[119]],
                &[0.0, 4.0, 10.0, 14.0, 59.0 * 12.0, 60.0, 1428.0],
                "mul [2,3,4,5]x[3,4] axis 1, spot values",
            );
            let all = s
                .iter()
                .enumerate()
                .all(|(i, &v)| v == (i * ((i / 5) % 12 + 1)) as f32);
            c.check(all, "mul [2,3,4,5]x[3,4] axis 1, every element");
        }
        _ => c.check(false, "from_slice [2,3,4,5] / [3,4]"),
    }

    // activations through libm (computed in f64, rounded to f32)
    let x = Tensor::<f32, shape![4]>::from_array([0.0, 1.0, -2.0, 0.5]);
    let zero = Tensor::<f32, shape![4]>::full(0.0);
    let t = x.elementwise_add(&zero, Axis::<-1>, Tanh);
    c.close(
        t.as_slice(),
        &[0.0, 0.761_594_2, -0.964_027_6, 0.462_117_17],
        1e-6,
        "tanh",
    );
    let s = x.elementwise_add(&zero, Axis::<-1>, Sigmoid);
    c.close(
        s.as_slice(),
        &[0.5, 0.731_058_6, 0.119_202_92, 0.622_459_35],
        1e-6,
        "sigmoid",
    );
    let x = Tensor::<f64, shape![2]>::from_array([1.0, 3.0]);
    let y = Tensor::<f64, shape![1]>::from_array([0.0]);
    let t = x.elementwise_add(&y, Axis::<-1>, Tanh);
    let s = x.elementwise_add(&y, Axis::<-1>, Sigmoid);
    let close64 = |a: f64, b: f64| (a - b).abs() <= 1e-15;
    c.check(
        close64(t.as_slice()[0], 0.761_594_155_955_764_9)
            && close64(s.as_slice()[1], 0.952_574_126_822_433_4),
        "tanh/sigmoid f64",
    );

    // integer division truncates toward zero
    let x = Tensor::<i32, shape![2, 3]>::from_array([[7, -7, 9], [10, 11, -12]]);
    let y = Tensor::<i32, shape![3]>::from_array([2, 2, 4]);
    match x.elementwise_div(&y, Axis::<-1>, Identity) {
        Ok(z) => c.eq(z.as_slice(), &[3, -3, 2, 5, 5, -3], "div i32"),
        Err(_) => c.check(false, "div i32 without zero"),
    }
    // integer division by zero: the error, with the flat index of the zero in Y
    let y0 = Tensor::<i32, shape![3]>::from_array([2, 0, 4]);
    c.check(
        x.elementwise_div(&y0, Axis::<-1>, Identity)
            == Err(ElementwiseError::DivisionByZero { index: 1 }),
        "div by zero: DivisionByZero { index: 1 }",
    );
    let mut out = Tensor::<i32, shape![2, 3]>::full(-1);
    c.check(
        x.elementwise_div_into(&y0, Axis::<-1>, Identity, &mut out)
            == Err(ElementwiseError::DivisionByZero { index: 1 }),
        "div_into by zero: the error",
    );
    // float division by zero is IEEE, not an error
    let x = Tensor::<f32, shape![2]>::from_array([1.0, -1.0]);
    let y = Tensor::<f32, shape![1]>::from_array([0.0]);
    match x.elementwise_div(&y, Axis::<-1>, Identity) {
        Ok(z) => c.eq(
            z.as_slice(),
            &[f32::INFINITY, f32::NEG_INFINITY],
            "f32 div by 0",
        ),
        Err(_) => c.check(false, "f32 div by zero is not an error"),
    }

    // a run-time dim on the static API (try_ form), into a caller's buffer
    let mut buf = [0.0f32; 6];
    match (
        Tensor::<f32, shape![Dyn, 3], &[f32]>::with_dims(&[2, 3], &X6[..]),
        Tensor::<f32, shape![Dyn], &[f32]>::with_dims(&[2], &Y2[..]),
        Tensor::<f32, shape![Dyn, 3], &mut [f32]>::with_dims(&[2, 3], &mut buf[..]),
    ) {
        (Ok(x), Ok(y), Ok(mut out)) => {
            c.check(
                x.try_elementwise_into(Sub, &y, Axis::<0>, Identity, &mut out)
                    .is_ok(),
                "try_elementwise_into [Dyn,3]-[Dyn] axis 0",
            );
            c.check(
                matches!(
                    x.try_elementwise_into(Sub, &y, Axis::<-1>, Identity, &mut out),
                    Err(ElementwiseError::DimMismatch {
                        x_dim: 3,
                        y_dim: 2,
                        ..
                    })
                ),
                "try_elementwise_into at axis -1: DimMismatch 3 vs 2",
            );
        }
        _ => c.check(false, "Dyn views"),
    }
    c.eq(
        &buf,
        &[-9.0, -8.0, -7.0, -96.0, -95.0, -94.0],
        "try_ sub result",
    );

    // the dynamic path without a heap: slices in, slices out
    let mut out = [0i32; 4];
    let r = elementwise_slices(
        BinaryOpKind::Mul,
        ActivationKind::Identity,
        &[2, 2],
        &[1, 2, 3, 4],
        &[2],
        &[10, 100],
        0,
        &mut out,
    );
    c.check(
        r.map(|d| d.as_slice() == [2, 2]) == Ok(true),
        "elementwise_slices dims",
    );
    c.eq(&out, &[10, 20, 300, 400], "elementwise_slices values");

    c.finish()
}
