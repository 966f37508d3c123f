//! `elementwise_output_dims`, `elementwise_slices` and `DynTensor::elementwise`
//! on arbitrary dims, data, axis, op and activation.
//!
//! Invariants (differential): accepted exactly when the naive reference of
//! Paddle's rule (`shapecheck_fuzz::reference::elementwise`) accepts, with its
//! output dims; every element equals the op computed naively in the
//! reference's frame; a wrong data or output length, an overflowing output
//! and an integer division by zero are errors, and an error leaves the output
//! buffer untouched; the `DynTensor` form gives the same result.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecheck::ops::elementwise::{elementwise_output_dims, elementwise_slices};
use shapecheck::{BinaryOpKind, DynTensor, Element, ElementwiseError};
use shapecheck_fuzz::*;

fn naive_op<T: Element>(op: BinaryOpKind, a: T, b: T) -> T {
    match op {
        BinaryOpKind::Mul => T::mul(a, b),
        BinaryOpKind::Add => T::add(a, b),
        BinaryOpKind::Sub => T::sub(a, b),
        BinaryOpKind::Div => T::div(a, b),
        BinaryOpKind::Max => {
            if a > b {
                a
            } else {
                b
            }
        }
        BinaryOpKind::Min => {
            if a < b {
                a
            } else {
                b
            }
        }
    }
}

fn check<T: Element + FuzzValue>(u: &mut Unstructured<'_>) {
    let (xd, x) = tensor::<T>(u);
    let (yd, y) = match byte(u) {
        0..=127 => related_tensor::<T>(u, &xd),
        _ => tensor::<T>(u),
    };
    // either operand may be the lower-rank one
    let ((xd, x), (yd, y)) = if flag(u) {
        ((yd, y), (xd, x))
    } else {
        ((xd, x), (yd, y))
    };
    let (axis, op, act) = (axis(u), op(u), act(u));
    let wrong_out = byte(u) >= 240;

    // the shape rule against the naive reference
    let want = reference::elementwise(&xd, &yd, axis);
    let dims = elementwise_output_dims(&xd, &yd, axis);
    match (&dims, &want) {
        (Ok(d), Some(w)) => assert_eq!(d.as_slice(), &w.out[..], "{xd:?} {yd:?} {axis}"),
        (Err(_), None) => {}
        _ => panic!("{xd:?} {yd:?} axis {axis}: library {dims:?}, reference {want:?}"),
    }
    let lens_ok = reference::count(&xd) == Some(x.len()) && reference::count(&yd) == Some(y.len());
    let sentinel = T::value(u);
    let n = want.as_ref().and_then(|w| reference::count(&w.out));
    let Some((w, n)) = want.zip(n).filter(|(_, n)| *n <= MAX_ELEMS) else {
        // rejected, overflowing or too big to hold: an error, buffer untouched
        let mut out = vec![sentinel; 4];
        let r = elementwise_slices(op, act, &xd, &x, &yd, &y, axis, &mut out);
        assert!(r.is_err(), "{xd:?} {yd:?} {axis}: accepted, output {n:?}");
        assert!(out.iter().all(|v| v.same(sentinel)), "written on error");
        return;
    };
    let len = if wrong_out { n + 1 } else { n };
    let mut out = vec![sentinel; len];
    let r = elementwise_slices(op, act, &xd, &x, &yd, &y, axis, &mut out);
    if r.is_err() {
        assert!(out.iter().all(|v| v.same(sentinel)), "written on error");
    }
    if wrong_out || !lens_ok {
        assert!(
            r.is_err(),
            "wrong lengths accepted: {xd:?} {yd:?} out {len}"
        );
        return;
    }
    let div_zero =
        T::IS_INTEGER && op == BinaryOpKind::Div && n > 0 && y.iter().any(|v| v.is_zero());
    match r {
        Err(ElementwiseError::DivisionByZero { index }) if div_zero => {
            assert!(y.get(index).is_some_and(|v| v.is_zero()));
        }
        Err(e) => panic!("valid input rejected: {xd:?} {yd:?} {axis}: {e}"),
        Ok(d) => {
            assert!(!div_zero, "division by zero accepted");
            assert_eq!(d.as_slice(), &w.out[..]);
            // naive reference of the values, in the reference's frame
            let (xp, yp) = (&w.placed[0], &w.placed[1]);
            let mut index = vec![0usize; w.out.len()];
            for &o in &out {
                let a = x[broadcast_flat(xp, &index)];
                let b = y[broadcast_flat(yp, &index)];
                let want = act.apply(naive_op(op, a, b));
                assert!(
                    want.same(o),
                    "{xd:?} {yd:?} {axis} at {index:?}: {o:?} != {want:?}"
                );
                advance(&mut index, &w.out);
            }
            // the DynTensor form agrees
            let (tx, ty) = (
                DynTensor::new(&xd, x).unwrap(),
                DynTensor::new(&yd, y).unwrap(),
            );
            let z = tx.elementwise(op, &ty, axis, act).unwrap();
            assert_eq!(z.dims(), d);
            assert!(z.as_slice().iter().zip(&out).all(|(a, b)| a.same(*b)));
            assert_eq!(z.as_slice().len(), out.len());
        }
    }
}

fuzz_target!(|bytes: &[u8]| {
    let mut u = Unstructured::new(bytes);
    match byte(&mut u) % 3 {
        0 => check::<i32>(&mut u),
        1 => check::<i64>(&mut u),
        _ => check::<f32>(&mut u),
    }
});
