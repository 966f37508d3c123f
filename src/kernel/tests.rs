//! Unit tests of the shared loops: walks, merging and every stride case.

use super::*;

fn dims(d: &[usize]) -> Dims {
    Dims::new(d).unwrap()
}

#[test]
fn merges_contiguous_dims() {
    let out = dims(&[256, 128, 256]);
    let y = Dims::from_frame(3, &crate::broadcast::place(&[128, 256], 1, 3));
    let w = Walk::new(&out, [&out, &y]);
    assert_eq!(w.rank, 2);
    assert_eq!(w.inner(), 128 * 256);
    assert_eq!(w.inner_strides(), [1, 1]);
}

#[test]
fn broadcast_along_inner_dim() {
    let out = dims(&[2, 3]);
    let x = dims(&[2, 1]);
    let w = Walk::new(&out, [&out, &x]);
    let a = [1, 2, 3, 4, 5, 6];
    let b = [10, 20];
    let mut o = [0; 6];
    binary(&w, &a, &b, &mut o, |p, q| p + q);
    assert_eq!(o, [11, 12, 13, 24, 25, 26]);
}

#[test]
fn odometer_walks_outer_dims() {
    let out = dims(&[2, 3, 2]);
    let x = dims(&[2, 1, 2]);
    let w = Walk::new(&out, [&out, &x]);
    let a: [i32; 12] = core::array::from_fn(|i| i as i32);
    let b = [100, 200, 300, 400];
    let mut o = [0; 12];
    binary(&w, &a, &b, &mut o, |p, q| p + q);
    assert_eq!(
        o,
        [100, 201, 102, 203, 104, 205, 306, 407, 308, 409, 310, 411]
    );
}

/// Every stride case of `select`: out [2, 3, 4] with each operand
/// broadcast along any subset of its dims (512 combinations), against a
/// naive reference indexing each operand by the output's multi-index.
#[test]
fn select_every_broadcast_pattern() {
    let out_dims = [2usize, 3, 4];
    let placed = |mask: usize| -> [usize; 3] {
        core::array::from_fn(|i| if mask >> i & 1 == 1 { 1 } else { out_dims[i] })
    };
    let flat = |d: &[usize; 3], i: [usize; 3]| {
        let j: [usize; 3] = core::array::from_fn(|k| if d[k] == 1 { 0 } else { i[k] });
        (j[0] * d[1] + j[1]) * d[2] + j[2]
    };
    for mc in 0..8 {
        for mt in 0..8 {
            for me in 0..8 {
                let (dc, dt, de) = (placed(mc), placed(mt), placed(me));
                let nc: usize = dc.iter().product();
                let nt: usize = dt.iter().product();
                let ne: usize = de.iter().product();
                let c: [bool; 24] = core::array::from_fn(|i| (i * 7 + mc) % 3 != 0);
                let t: [i32; 24] = core::array::from_fn(|i| i as i32 + 1);
                let e: [i32; 24] = core::array::from_fn(|i| -(i as i32) - 1);
                let (c, t, e) = (&c[..nc], &t[..nt], &e[..ne]);
                let w = Walk::new(&dims(&out_dims), [&dims(&dc), &dims(&dt), &dims(&de)]);
                let mut o = [0; 24];
                select(&w, c, t, e, &mut o);
                let mut want = [0; 24];
                for (n, slot) in want.iter_mut().enumerate() {
                    let i = [n / 12, n / 4 % 3, n % 4];
                    *slot = if c[flat(&dc, i)] {
                        t[flat(&dt, i)]
                    } else {
                        e[flat(&de, i)]
                    };
                }
                assert_eq!(o, want, "cond {dc:?}, then {dt:?}, else {de:?}");
            }
        }
    }
}
