//! Paddle's multiplex on a Cortex-M4F: the static API on views over static
//! buffers and on inline tensors, i32 and i64 indices, and the index errors
//! (out of range, negative). Every expected value is computed by hand.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck::{multiplex, multiplex_into, MultiplexError};
use shapecheck_embedded::Checks;

static A: [f32; 6] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
static B: [f32; 6] = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0];
static C: [f32; 6] = [100.0, 200.0, 300.0, 400.0, 500.0, 600.0];
static INDEX: [i32; 3] = [2, 0, 1];
static BAD_INDEX: [i32; 3] = [0, 3, 1];

type View<'a> = Tensor<f32, shape![3, 2], &'a [f32]>;

#[entry]
fn main() -> ! {
    let mut c = Checks::new("multiplex");

    // three [3, 2] candidates as views, an i32 index [3, 1], into a stack buffer
    let mut buf = [0.0f32; 6];
    match (
        View::from_storage(&A[..]),
        View::from_storage(&B[..]),
        View::from_storage(&C[..]),
        Tensor::<i32, shape![3, 1], &[i32]>::from_storage(&INDEX[..]),
        Tensor::<i32, shape![3, 1], &[i32]>::from_storage(&BAD_INDEX[..]),
        Tensor::<f32, shape![3, 2], &mut [f32]>::from_storage(&mut buf[..]),
    ) {
        (Ok(a), Ok(b), Ok(cc), Ok(index), Ok(bad), Ok(mut out)) => {
            let inputs = [a, b, cc];
            c.check(
                multiplex_into(&inputs, &index, &mut out).is_ok(),
                "multiplex_into ok",
            );
            // views in, inline result out
            match multiplex(&inputs, &index) {
                Ok(z) => c.eq(
                    z.as_slice(),
                    &[100.0, 200.0, 3.0, 4.0, 50.0, 60.0],
                    "inline result",
                ),
                Err(_) => c.check(false, "multiplex of views"),
            }
            // index 3 with 3 candidates, at row 1
            let want = Err(MultiplexError::IndexOutOfRange {
                row: 1,
                value: 3,
                candidates: 3,
            });
            c.check(
                multiplex(&inputs, &bad).map(|_| ()) == want,
                "out of range: the error",
            );
            let mut other = [0.0f32; 6];
            match Tensor::<f32, shape![3, 2], &mut [f32]>::from_storage(&mut other[..]) {
                Ok(mut o) => c.check(
                    multiplex_into(&inputs, &bad, &mut o) == want,
                    "out of range into a buffer: the error",
                ),
                Err(_) => c.check(false, "output view"),
            }
        }
        _ => c.check(false, "views over static buffers"),
    }
    // row 0 from C, row 1 from A, row 2 from B
    c.eq(
        &buf,
        &[100.0, 200.0, 3.0, 4.0, 50.0, 60.0],
        "multiplex into a view",
    );

    // two inline i32 candidates [2, 2], i64 index
    let x1 = Tensor::<i32, shape![2, 2]>::from_array([[1, 2], [3, 4]]);
    let x2 = Tensor::<i32, shape![2, 2]>::from_array([[5, 6], [7, 8]]);
    let idx = Tensor::<i64, shape![2, 1]>::from_array([[1], [0]]);
    match multiplex(&[x1, x2], &idx) {
        Ok(z) => c.eq(z.as_slice(), &[5, 6, 3, 4], "inline [2,2], index [1,0]"),
        Err(_) => c.check(false, "inline multiplex"),
    }
    let idx = Tensor::<i64, shape![2, 1]>::from_array([[0], [-1]]);
    c.check(
        multiplex(&[x1, x2], &idx).map(|_| ())
            == Err(MultiplexError::NegativeIndex { row: 1, value: -1 }),
        "negative index: the error",
    );
    let idx = Tensor::<i64, shape![2, 1]>::from_array([[2], [0]]);
    c.check(
        multiplex(&[x1, x2], &idx).map(|_| ())
            == Err(MultiplexError::IndexOutOfRange {
                row: 0,
                value: 2,
                candidates: 2,
            }),
        "index 2 of 2 candidates: the error",
    );

    // rank-3 candidates [2, 2, 2]: a row is a [2, 2] block
    let p = Tensor::<f32, shape![2, 2, 2]>::from_array([
        [[1.0, 2.0], [3.0, 4.0]],
        [[5.0, 6.0], [7.0, 8.0]],
    ]);
    let q = Tensor::<f32, shape![2, 2, 2]>::full(0.5);
    let r = Tensor::<f32, shape![2, 2, 2]>::full(-1.0);
    let idx = Tensor::<i32, shape![2, 1]>::from_array([[2], [0]]);
    match multiplex(&[p, q, r], &idx) {
        Ok(z) => c.eq(
            z.as_slice(),
            &[-1.0, -1.0, -1.0, -1.0, 5.0, 6.0, 7.0, 8.0],
            "rank 3, index [2,0]",
        ),
        Err(_) => c.check(false, "rank-3 multiplex"),
    }

    c.finish()
}
