//! `elementwise_output_dims`, `elementwise_slices` and `DynTensor::elementwise`
//! on arbitrary dims, data, axis, op and activation.
//!
//! Invariants: output dims and slices agree; on Ok the dims' product is the
//! output length and every element equals a naive broadcast reference; a wrong
//! output length is an error; the `DynTensor` form gives the same result.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecheck::kernel::place;
use shapecheck::ops::elementwise::{elementwise_output_dims, elementwise_slices, placement};
use shapecheck::{BinaryOpKind, Dims, DynTensor, Element, ElementwiseError};
use shapecheck_fuzz::*;

fn reference<T: Element>(op: BinaryOpKind, a: T, b: T) -> T {
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

    let dims = elementwise_output_dims(&xd, &yd, axis);
    let lens_ok = Dims::for_data(&xd, x.len()).is_ok() && Dims::for_data(&yd, y.len()).is_ok();
    let Ok(out_dims) = dims else {
        // the shape rules failed: slices must fail too, whatever the buffer
        let mut out = vec![T::default(); 4];
        assert!(elementwise_slices(op, act, &xd, &x, &yd, &y, axis, &mut out).is_err());
        return;
    };
    assert!(out_dims.rank() <= shapecheck::MAX_RANK);
    let Some(n) = out_dims.numel() else {
        let mut out = vec![T::default(); 1];
        let r = elementwise_slices(op, act, &xd, &x, &yd, &y, axis, &mut out);
        assert!(
            r.is_err(),
            "{xd:?} {yd:?} {axis}: overflowing output accepted"
        );
        return;
    };
    if n > MAX_ELEMS {
        return;
    }
    let len = if wrong_out { n + 1 } else { n };
    let sentinel = T::value(u);
    let mut out = vec![sentinel; len];
    let r = elementwise_slices(op, act, &xd, &x, &yd, &y, axis, &mut out);
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
            assert_eq!(d, out_dims);
            assert_eq!(d.numel(), Some(out.len()));
            // naive reference
            let (Ok(xdd), Ok(ydd)) = (Dims::new(&xd), Dims::new(&yd)) else {
                panic!("dims accepted past the rank limit");
            };
            let p = placement(&xdd, &ydd, axis).expect("placement agrees with the plan");
            let (xp, yp) = (place(&xd, p.x_at, p.rank), place(&yd, p.y_at, p.rank));
            let mut index = vec![0usize; d.rank()];
            for &o in &out {
                let a = x[broadcast_flat(&xp, &index)];
                let b = y[broadcast_flat(&yp, &index)];
                let want = act.apply(reference(op, a, b));
                assert!(
                    want.same(o),
                    "{xd:?} {yd:?} {axis} at {index:?}: {o:?} != {want:?}"
                );
                advance(&mut index, &d);
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
