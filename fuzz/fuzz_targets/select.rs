//! `select_output_dims`, `select_slices` and `DynTensor::select` on arbitrary
//! dims, data and broadcast modes (any pdpd axis).
//!
//! Invariants (differential): accepted exactly when the naive reference of
//! OpenVINO's rule (`shapecheck_fuzz::reference::select`) accepts, with its
//! output dims; every element is picked as the reference picks it; a wrong
//! data or output length and an overflowing output are errors, and an error
//! leaves the output buffer untouched; the `DynTensor` form gives the same result.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecheck::{select_output_dims, select_slices, AutoBroadcast, DynTensor};
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

    let want = reference::select(ref_mode(mode), &cd, &td, &ed);
    let dims = select_output_dims(mode, &cd, &td, &ed);
    match (&dims, &want) {
        (Ok(d), Some(w)) => assert_eq!(d.as_slice(), &w.out[..], "{cd:?} {td:?} {ed:?} {mode}"),
        (Err(_), None) => {}
        _ => panic!("{cd:?} {td:?} {ed:?} {mode}: library {dims:?}, reference {want:?}"),
    }
    let lens_ok =
        numel(&cd) == Some(c.len()) && numel(&td) == Some(t.len()) && numel(&ed) == Some(e.len());
    let sentinel = T::value(u);
    let n = want.as_ref().and_then(|w| numel(&w.out));
    let Some((w, n)) = want.zip(n).filter(|(_, n)| *n <= MAX_ELEMS) else {
        // rejected, overflowing or too big to hold: an error, buffer untouched
        let mut out = vec![sentinel; 4];
        let r = select_slices(mode, &cd, &c, &td, &t, &ed, &e, &mut out);
        assert!(
            r.is_err(),
            "{cd:?} {td:?} {ed:?} {mode}: accepted, output {n:?}"
        );
        assert!(out.iter().all(|v| v.same(sentinel)), "written on error");
        return;
    };
    let len = if wrong_out { n + 1 } else { n };
    let mut out = vec![sentinel; len];
    let r = select_slices(mode, &cd, &c, &td, &t, &ed, &e, &mut out);
    if wrong_out || !lens_ok {
        assert!(r.is_err(), "wrong lengths accepted");
        assert!(out.iter().all(|v| v.same(sentinel)), "written on error");
        return;
    }
    let d = match r {
        Ok(d) => d,
        Err(err) => panic!("valid input rejected: {cd:?} {td:?} {ed:?} {mode}: {err}"),
    };
    assert_eq!(d.as_slice(), &w.out[..]);
    // naive reference of the values, in the reference's frame
    let (cp, tp, ep) = (&w.placed[0], &w.placed[1], &w.placed[2]);
    let mut index = vec![0usize; w.out.len()];
    for &o in &out {
        let want = if c[broadcast_flat(cp, &index)] {
            t[broadcast_flat(tp, &index)]
        } else {
            e[broadcast_flat(ep, &index)]
        };
        assert!(want.same(o), "{cd:?} {td:?} {ed:?} {mode} at {index:?}");
        advance(&mut index, &w.out);
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

fn ref_mode(mode: AutoBroadcast) -> reference::SelectMode {
    match mode {
        AutoBroadcast::None => reference::SelectMode::None,
        AutoBroadcast::Numpy => reference::SelectMode::Numpy,
        AutoBroadcast::Pdpd { axis } => reference::SelectMode::Pdpd(axis),
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
