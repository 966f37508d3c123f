//! `select_output_dims`, `select_slices` and `DynTensor::select` on arbitrary
//! dims, data and broadcast modes (any pdpd axis).
//!
//! Invariants: output dims and slices agree; on Ok the dims' product is the
//! output length and every element equals a naive broadcast reference; a wrong
//! output or data length is an error; the `DynTensor` form gives the same result.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecheck::kernel::place;
use shapecheck::ops::select::SelectPlan;
use shapecheck::{select_output_dims, select_slices, Dims, DynTensor};
use shapecheck_fuzz::*;

fn check<T: FuzzValue>(u: &mut Unstructured<'_>) {
    let (td, t) = tensor::<T>(u);
    // often dims related to then's, so that the broadcast succeeds
    let (cd, c) = match byte(u) {
        0..=149 => related_tensor::<bool>(u, &td),
        _ => tensor::<bool>(u),
    };
    let (ed, e) = match byte(u) {
        0..=99 => {
            let len = data_len(u, &td);
            (td.clone(), data::<T>(u, len))
        }
        100..=199 => related_tensor::<T>(u, &td),
        _ => tensor::<T>(u),
    };
    // under numpy any of the three may have the highest rank
    let ((td, t), (ed, e)) = if byte(u) >= 224 {
        ((ed, e), (td, t))
    } else {
        ((td, t), (ed, e))
    };
    let mode = mode(u);
    let wrong_out = byte(u) >= 240;

    let lens_ok = Dims::for_data(&cd, c.len()).is_ok()
        && Dims::for_data(&td, t.len()).is_ok()
        && Dims::for_data(&ed, e.len()).is_ok();
    let Ok(out_dims) = select_output_dims(mode, &cd, &td, &ed) else {
        let mut out = vec![T::default(); 4];
        assert!(select_slices(mode, &cd, &c, &td, &t, &ed, &e, &mut out).is_err());
        return;
    };
    let Some(n) = out_dims.numel() else {
        let mut out = vec![T::default(); 1];
        let r = select_slices(mode, &cd, &c, &td, &t, &ed, &e, &mut out);
        assert!(
            r.is_err(),
            "{cd:?} {td:?} {ed:?}: overflowing output accepted"
        );
        return;
    };
    if n > MAX_ELEMS {
        return;
    }
    let len = if wrong_out { n + 1 } else { n };
    let mut out = vec![T::value(u); len];
    let r = select_slices(mode, &cd, &c, &td, &t, &ed, &e, &mut out);
    if wrong_out || !lens_ok {
        assert!(r.is_err(), "wrong lengths accepted");
        return;
    }
    let d = match r {
        Ok(d) => d,
        Err(err) => panic!("valid input rejected: {cd:?} {td:?} {ed:?} {mode}: {err}"),
    };
    assert_eq!(d, out_dims);
    assert_eq!(d.numel(), Some(out.len()));
    let plan = SelectPlan::new(mode, &cd, &td, &ed).expect("plan agrees with output dims");
    let r = d.rank();
    let [ac, at, ae] = plan.at;
    let (cp, tp, ep) = (place(&cd, ac, r), place(&td, at, r), place(&ed, ae, r));
    let mut index = vec![0usize; r];
    for &o in &out {
        let want = if c[broadcast_flat(&cp, &index)] {
            t[broadcast_flat(&tp, &index)]
        } else {
            e[broadcast_flat(&ep, &index)]
        };
        assert!(want.same(o), "{cd:?} {td:?} {ed:?} {mode} at {index:?}");
        advance(&mut index, &d);
    }
    let (tc, tt, te) = (
        DynTensor::new(&cd, c).unwrap(),
        DynTensor::new(&td, t).unwrap(),
        DynTensor::new(&ed, e).unwrap(),
    );
    let z = DynTensor::select(&tc, &tt, &te, mode).unwrap();
    assert_eq!(z.dims(), d);
    assert_eq!(z.as_slice().len(), out.len());
    assert!(z.as_slice().iter().zip(&out).all(|(a, b)| a.same(*b)));
}

fuzz_target!(|bytes: &[u8]| {
    let mut u = Unstructured::new(bytes);
    match byte(&mut u) % 3 {
        0 => check::<i32>(&mut u),
        1 => check::<i64>(&mut u),
        _ => check::<f32>(&mut u),
    }
});
