//! OpenVINO's Select on a Cortex-M4F: the static API with auto_broadcast
//! none, numpy and pdpd, on inline tensors and on views over static buffers.
//! Every expected value is computed by hand.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck::{select, select_into};
use shapecheck_embedded::Checks;

static COND: [bool; 6] = [true, false, false, true, true, false];
static THEN: [f32; 6] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
static ELSE: [f32; 3] = [10.0, 20.0, 30.0];

#[entry]
fn main() -> ! {
    let mut c = Checks::new("select");

    // none: three [2, 3] operands
    let cond =
        Tensor::<bool, shape![2, 3]>::from_array([[true, false, true], [false, false, true]]);
    let then = Tensor::<i32, shape![2, 3]>::from_array([[1, 2, 3], [4, 5, 6]]);
    let els = Tensor::<i32, shape![2, 3]>::from_array([[10, 20, 30], [40, 50, 60]]);
    let out: Tensor<i32, shape![2, 3]> = select(&cond, &then, &els, NoBroadcast);
    c.eq(out.as_slice(), &[1, 20, 3, 40, 50, 6], "none [2,3]");

    // numpy, views over static buffers: else [3] broadcast over the rows
    let mut buf = [0.0f32; 6];
    match (
        Tensor::<bool, shape![2, 3], &[bool]>::from_storage(&COND[..]),
        Tensor::<f32, shape![2, 3], &[f32]>::from_storage(&THEN[..]),
        Tensor::<f32, shape![3], &[f32]>::from_storage(&ELSE[..]),
        Tensor::<f32, shape![2, 3], &mut [f32]>::from_storage(&mut buf[..]),
    ) {
        (Ok(cv), Ok(tv), Ok(ev), Ok(mut ov)) => {
            select_into(&cv, &tv, &ev, Numpy, &mut ov);
            // view operands: the result of `select` is inline
            let inline: Tensor<f32, shape![2, 3]> = select(&cv, &tv, &ev, Numpy);
            c.eq(
                inline.as_slice(),
                &[1.0, 20.0, 30.0, 4.0, 5.0, 30.0],
                "numpy inline from views",
            );
        }
        _ => c.check(false, "views over static buffers"),
    }
    c.eq(
        &buf,
        &[1.0, 20.0, 30.0, 4.0, 5.0, 30.0],
        "numpy into a view",
    );

    // numpy: cond [3] and else [1] broadcast against then [2, 3]
    let cond = Tensor::<bool, shape![3]>::from_array([true, false, true]);
    let els = Tensor::<i32, shape![1]>::from_array([0]);
    let out: Tensor<i32, shape![2, 3]> = select(&cond, &then, &els, Numpy);
    c.eq(
        out.as_slice(),
        &[1, 0, 3, 4, 0, 6],
        "numpy cond [3], else [1]",
    );

    // numpy, bidirectional: cond [2, 1], then [3], else [1, 3] -> [2, 3]
    let cond = Tensor::<bool, shape![2, 1]>::from_array([[false], [true]]);
    let then = Tensor::<i32, shape![3]>::from_array([7, 8, 9]);
    let els = Tensor::<i32, shape![1, 3]>::from_array([[-1, -2, -3]]);
    let out: Tensor<i32, shape![2, 3]> = select(&cond, &then, &els, Numpy);
    c.eq(
        out.as_slice(),
        &[-1, -2, -3, 7, 8, 9],
        "numpy [2,1] [3] [1,3]",
    );

    // pdpd at axis 0: cond [2] and else [2, 1] placed on then's first dim
    let cond = Tensor::<bool, shape![2]>::from_array([true, false]);
    let then = Tensor::<i32, shape![2, 2]>::from_array([[1, 2], [3, 4]]);
    let els = Tensor::<i32, shape![2, 1]>::from_array([[10], [20]]);
    let out: Tensor<i32, shape![2, 2]> = select(&cond, &then, &els, Pdpd::<0>);
    c.eq(out.as_slice(), &[1, 2, 20, 20], "pdpd axis 0");

    // pdpd at axis -1: right-aligned, else [4] on then's last dim
    let cond = Tensor::<bool, shape![2, 4]>::from_array([
        [false, false, false, false],
        [false, true, true, true],
    ]);
    let then = Tensor::<i64, shape![2, 4]>::from_array([[1, 2, 3, 4], [5, 6, 7, 8]]);
    let els = Tensor::<i64, shape![4]>::from_array([11, 12, 13, 14]);
    let mut out = Tensor::<i64, shape![2, 4]>::full(0);
    select_into(&cond, &then, &els, Pdpd::<-1>, &mut out);
    c.eq(
        out.as_slice(),
        &[11, 12, 13, 14, 11, 6, 7, 8],
        "pdpd axis -1",
    );

    // pdpd at axis 1 of a rank-3 then: cond [3, 2] on dims 1-2, else [3] on
    // dim 1 (broadcast over dims 0 and 2)
    let cond =
        Tensor::<bool, shape![3, 2]>::from_array([[true, false], [false, true], [true, true]]);
    let then = Tensor::<f32, shape![2, 3, 2]>::full(1.0);
    let els = Tensor::<f32, shape![3]>::from_array([-1.0, -2.0, -3.0]);
    let out: Tensor<f32, shape![2, 3, 2]> = select(&cond, &then, &els, Pdpd::<1>);
    c.eq(
        out.as_slice(),
        &[
            1.0, -1.0, -2.0, 1.0, 1.0, 1.0, 1.0, -1.0, -2.0, 1.0, 1.0, 1.0,
        ],
        "pdpd axis 1, rank 3",
    );

    c.finish()
}
