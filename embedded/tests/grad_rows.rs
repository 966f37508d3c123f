//! One backward step of multiplex and dynamic_stitch on the target, no
//! heap: the static API with inline results and into caller tensors, and
//! the no-heap dynamic path (`multiplex_backward_slices`,
//! `stitch_backward_slices`). Expected values: the recorded gradients of
//! tests/vectors/grad/ (multiplex_doc_example, multiplex_fewer_rows_repeat,
//! dynamic_stitch_doc, dynamic_stitch_dup_within_list; Paddle's
//! output-shaped multiplex gradient followed by the candidate's zero rows,
//! TensorFlow's gather beside the derivative for the duplicate).
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::ops::multiplex::multiplex_backward_slices;
use shapecheck::ops::stitch::{stitch_backward_slices, StitchPair};
use shapecheck::prelude::*;
use shapecheck::{multiplex_backward, multiplex_backward_into, StitchGrad};
use shapecheck::MultiplexError;
use shapecheck_embedded::Checks;

fn multiplex(c: &mut Checks) {
    // multiplex_doc_example
    let a = Tensor::<f32, shape![2, 2]>::from_array([[1., 2.], [3., 4.]]);
    let b = Tensor::<f32, shape![2, 2]>::from_array([[5., 6.], [7., 8.]]);
    let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
    let dout = Tensor::<f32, shape![2, 2]>::from_array([[-2.5, 3.0], [-1.0, -1.5]]);
    match multiplex_backward(&[a, b], &index, &dout) {
        Ok([ga, gb]) => {
            c.eq(ga.as_slice(), &[0.0, 0.0, -1.0, -1.5], "doc_example: candidate 0");
            c.eq(gb.as_slice(), &[-2.5, 3.0, 0.0, 0.0], "doc_example: candidate 1");
        }
        Err(_) => c.check(false, "doc_example: an error"),
    }

    // multiplex_fewer_rows_repeat: 3 candidates [3, 2], index [[1], [1]],
    // into caller buffers; candidate 1's last row (past the index's) zero
    let cand = |k: f32| Tensor::<f32, shape![3, 2]>::from_fn(|i| k + (2 * i[0] + i[1]) as f32);
    let inputs = [cand(0.0), cand(10.0), cand(20.0)];
    let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [1]]);
    let dout = Tensor::<f32, shape![2, 2]>::from_array([[-0.5, 3.0], [3.0, -1.0]]);
    let mut bufs = [[7.0f32; 6]; 3];
    {
        let [b0, b1, b2] = &mut bufs;
        let grads = [b0, b1, b2].map(|b| Tensor::<f32, shape![3, 2], &mut [f32]>::with_shape(Default::default(), &mut b[..]));
        if let [Ok(g0), Ok(g1), Ok(g2)] = grads {
            let mut grads = [g0, g1, g2];
            let r = multiplex_backward_into(&inputs, &index, &dout, &mut grads);
            c.check(r.is_ok(), "fewer_rows: into");
        } else {
            c.check(false, "fewer_rows: the caller tensors");
        }
    }
    c.eq(&bufs[0], &[0.0; 6], "fewer_rows: candidate 0");
    c.eq(&bufs[1], &[-0.5, 3.0, 3.0, -1.0, 0.0, 0.0], "fewer_rows: candidate 1");
    c.eq(&bufs[2], &[0.0; 6], "fewer_rows: candidate 2");

    // the slice form: a dout shaped like the candidates is a typed error,
    // nothing written
    let shapes: [&[usize]; 2] = [&[3, 2], &[3, 2]];
    let (mut g0, mut g1) = ([9.0f32; 6], [9.0f32; 6]);
    let err = multiplex_backward_slices(&shapes, &[2, 1], &[1i32, 0], &[3, 2], &[0.0; 6], &mut [&mut g0, &mut g1]);
    c.check(matches!(err, Err(MultiplexError::DoutShape { .. })), "slices: dout shape");
    c.eq(&g0, &[9.0; 6], "slices: untouched");
    let ok = multiplex_backward_slices(&shapes, &[2, 1], &[1i32, 0], &[2, 2], &[1.0, 2.0, 3.0, 4.0], &mut [&mut g0, &mut g1]);
    c.check(ok.is_ok(), "slices: ok");
    c.eq(&g0, &[0.0, 0.0, 3.0, 4.0, 0.0, 0.0], "slices: candidate 0");
    c.eq(&g1, &[1.0, 2.0, 0.0, 0.0, 0.0, 0.0], "slices: candidate 1");
}

fn stitch(c: &mut Checks) {
    // dynamic_stitch_doc: no duplicate, the derivative is TensorFlow's gather
    let i0 = Tensor::<i32, shape![]>::from_array(6);
    let i1 = Tensor::<i32, shape![2]>::from_array([4, 1]);
    let i2 = Tensor::<i32, shape![2, 2]>::from_array([[5, 2], [0, 3]]);
    let d0 = Tensor::<f32, shape![2]>::from_array([61., 62.]);
    let d1 = Tensor::<f32, shape![2, 2]>::from_array([[41., 42.], [11., 12.]]);
    let d2 = Tensor::<f32, shape![2, 2, 2]>::from_array([[[51., 52.], [21., 22.]], [[1., 2.], [31., 32.]]]);
    let stitch = dynamic_stitch(&i0, &d0).pair(&i1, &d1).pair(&i2, &d2);
    const DOUT: [f32; 14] = [-2.0, 3.0, 0.5, -1.0, 2.5, -0.5, -2.5, 2.5, 3.0, 3.0, -1.0, -1.5, 3.0, 2.0];
    let Ok(dout) = Tensor::<f32, (Dyn, Dim<2>), &[f32]>::with_shape((Dyn(7), Dim), &DOUT[..]) else {
        return c.check(false, "doc: dout");
    };
    match stitch.backward(&dout) {
        Ok(((((), g0), g1), g2)) => {
            c.eq(g0.as_slice(), &[3.0, 2.0], "doc: data 0");
            c.eq(g1.as_slice(), &[3.0, 3.0, 0.5, -1.0], "doc: data 1");
            c.eq(g2.as_slice(), &[-1.0, -1.5, 2.5, -0.5, -2.0, 3.0, -2.5, 2.5], "doc: data 2");
        }
        Err(_) => c.check(false, "doc: an error"),
    }

    // dynamic_stitch_dup_within_list: index 0 twice
    let i = Tensor::<i32, shape![3]>::from_array([0, 1, 0]);
    let d = Tensor::<f64, shape![3]>::from_array([1.0, 2.0, 5.0]);
    let stitch = dynamic_stitch(&i, &d);
    let dout_data = [3.0f64, 2.5];
    let Ok(dout) = Tensor::<f64, (Dyn,), &[f64]>::with_shape((Dyn(2),), &dout_data[..]) else {
        return c.check(false, "dup: dout");
    };
    let mut g = Tensor::<f64, shape![3]>::full(9.0);
    let r = stitch.backward_into(&dout, StitchGrad::TfGather, &mut ((), &mut g));
    c.check(r.is_ok(), "dup: TfGather");
    c.eq(g.as_slice(), &[3.0, 2.5, 3.0], "dup: TensorFlow's gather (recorded)");
    let r = stitch.backward_into(&dout, StitchGrad::Derivative, &mut ((), &mut g));
    c.check(r.is_ok(), "dup: Derivative");
    c.eq(g.as_slice(), &[0.0, 2.5, 3.0], "dup: the derivative");

    // the slice form, a short dout: a typed error, nothing written
    let pairs = [StitchPair::new(&[3], &[0i32, 1, 0], &[3], &[1.0f64, 2.0, 5.0])];
    let Ok(pair) = pairs[0] else {
        return c.check(false, "slices: pair");
    };
    let mut buf = [9.0f64; 3];
    let err = stitch_backward_slices(&[pair], &[1], &[3.0], StitchGrad::Derivative, &mut [&mut buf]);
    c.check(err.map_err(|e| e.rule()) == Err("dynamic_stitch/dout-shape"), "slices: dout shape");
    c.eq(&buf, &[9.0; 3], "slices: untouched");
    let ok = stitch_backward_slices(&[pair], &[2], &dout_data, StitchGrad::Derivative, &mut [&mut buf]);
    c.check(ok.is_ok(), "slices: ok");
    c.eq(&buf, &[0.0, 2.5, 3.0], "slices: the derivative");
}

#[entry]
fn main() -> ! {
    let mut c = Checks::new("grad_rows");
    multiplex(&mut c);
    stitch(&mut c);
    c.finish()
}
