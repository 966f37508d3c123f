//! reshape on the target, no heap: an inline tensor reshaped (its array
//! moved, the elements in place) and fed to a plain elementwise op; a view
//! over data in flash reshaped without a copy (the same address); rows kept
//! through `reshape_rows` for a run-time batch over a caller's buffer and
//! for a bounded room; a run-time reshape refused with its typed error.
#![no_std]
#![no_main]

use cortex_m_rt::entry;
use shapecheck::prelude::*;
use shapecheck::storage::BoundedTensor;
use shapecheck::ReshapeError;
use shapecheck_embedded::Checks;

static FLASH: [f32; 12] = [0., 1., 2., 3., 4., 5., 6., 7., 8., 9., 10., 11.];

#[entry]
fn main() -> ! {
    let mut c = Checks::new("reshape");

    // ---- inline: [2, 2, 3] -> [2, 6], then a plain op on the result
    let x = Tensor::<f32, shape![2, 2, 3]>::from_fn(|i| (i[0] * 6 + i[1] * 3 + i[2]) as f32);
    let flat = x.reshape::<shape![2, 6]>();
    c.eq(flat.as_slice(), &FLASH, "inline elements in place");
    c.check(flat.get(&[1, 0]) == Some(&6.0), "inline [1, 0]");
    let w = Tensor::<f32, shape![6]>::from_array([1., 0., 1., 0., 1., 0.]);
    let y = flat.elementwise_mul(&w, Axis::<1>, Identity);
    c.eq(
        y.as_slice(),
        &[0., 0., 2., 0., 4., 0., 6., 0., 8., 0., 10., 0.],
        "mul after reshape",
    );
    c.check(
        core::mem::size_of_val(&flat) == core::mem::size_of::<[f32; 12]>(),
        "no storage added",
    );

    // ---- a view over flash: no copy
    match Tensor::<f32, shape![3, 4], &[f32]>::from_storage(&FLASH[..]) {
        Ok(v) => {
            let r = v.reshape::<shape![4, 3]>();
            c.check(
                r.as_slice().as_ptr() == FLASH.as_ptr(),
                "view: same address",
            );
            c.check(r.get(&[3, 2]) == Some(&11.0), "view [3, 2]");
        }
        Err(_) => c.check(false, "view over flash"),
    }

    // ---- rows kept: a run-time batch over a caller's buffer
    let mut buf = [0i16; 12];
    for (k, v) in buf.iter_mut().enumerate() {
        *v = k as i16;
    }
    match Tensor::<i16, shape![Dyn, 2, 2], &mut [i16]>::with_dims(&[3, 2, 2], &mut buf[..]) {
        Ok(t) => {
            let mut rows = t.reshape_rows::<shape![Dyn, 4]>();
            c.check(rows.dims().as_slice() == [3, 4], "rows kept");
            if let Some(v) = rows.get_mut(&[2, 3]) {
                *v = -1;
            }
        }
        Err(_) => c.check(false, "buffer tensor"),
    }
    c.check(buf[11] == -1, "writes through the reshaped view");

    // ---- rows kept: a bounded room (capacity 4, 2 rows used)
    let made = Bounded::<4>::new(2).map(|rows| {
        BoundedTensor::<u8, shape![Dyn, 3], 4>::from_shape_slice((rows, Dim), &[1, 2, 3, 4, 5, 6])
    });
    match made {
        Some(Ok(b)) => {
            let r = b.reshape_rows::<(Bounded<4>, Dim<3>, One)>();
            c.check(r.dims().as_slice() == [2, 3, 1], "bounded rows");
            c.eq(r.as_slice(), &[1, 2, 3, 4, 5, 6], "bounded elements");
        }
        _ => c.check(false, "bounded tensor"),
    }

    // ---- a run-time reshape refused: typed, the view untouched
    match Tensor::<f32, shape![Dyn, 4], &[f32]>::with_dims(&[3, 4], &FLASH[..]) {
        Ok(v) => {
            let err = v.try_reshape((Dyn(5), Dyn(2)));
            c.check(
                matches!(
                    err,
                    Err(ReshapeError::ElementCount {
                        from_numel: 12,
                        to_numel: 10,
                        ..
                    })
                ),
                "element count refused",
            );
            let ok = v.try_reshape((Dyn(2), Dyn(6)));
            c.check(
                ok.is_ok_and(|t| t.get(&[1, 5]) == Some(&11.0)),
                "run-time reshape",
            );
        }
        Err(_) => c.check(false, "run-time view"),
    }

    c.finish()
}
