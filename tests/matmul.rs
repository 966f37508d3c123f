//! `matmul` (Paddle's `paddle.matmul`): property tests of the dynamic path
//! against a naive reference written here from the rule in words, the
//! static path against the dynamic one, and the edges (K = 0, empty
//! outputs, vectors, 0-d operands, wrong buffers).

// MatmulError carries its shapes inline (no heap), which clippy finds large.
#![allow(clippy::result_large_err)]

use proptest::prelude::*;
use shapecheck::ops::matmul::{matmul_output_dims, matmul_slices};
use shapecheck::prelude::*;
use shapecheck::{MatmulError, NoTrans, Trans};

/// The reference: x and y made 3-level (batch, rows, cols) by hand, the
/// batch index broadcast position by position, the sum over k in order
/// from 0. `None` where the rule rejects the shapes (with the rule's id).
fn reference(
    xd: &[usize],
    x: &[i64],
    yd: &[usize],
    y: &[i64],
    tx: bool,
    ty: bool,
) -> Result<(Vec<usize>, Vec<i64>), &'static str> {
    if xd.is_empty() || yd.is_empty() {
        return Err("matmul/rank");
    }
    // (rows, cols) of each matrix after the transpose, and the element of (i, j)
    let mat = |d: &[usize], t: bool, is_x: bool| -> (usize, usize, bool) {
        match d.len() {
            1 if is_x => (1, d[0], false),
            1 => (d[0], 1, false),
            r => {
                let (a, b) = (d[r - 2], d[r - 1]);
                if t {
                    (b, a, true)
                } else {
                    (a, b, false)
                }
            }
        }
    };
    let (m, k, swap_x) = mat(xd, tx, true);
    let (k2, n, swap_y) = mat(yd, ty, false);
    if k != k2 {
        return Err("matmul/inner");
    }
    let bx: Vec<usize> = xd[..xd.len().saturating_sub(2)].to_vec();
    let by: Vec<usize> = yd[..yd.len().saturating_sub(2)].to_vec();
    let r = bx.len().max(by.len());
    let pad = |b: &[usize]| -> Vec<usize> {
        let mut v = vec![1; r - b.len()];
        v.extend_from_slice(b);
        v
    };
    let (px, py) = (pad(&bx), pad(&by));
    let mut ob = Vec::new();
    for (&a, &b) in px.iter().zip(&py) {
        if a != b && a != 1 && b != 1 {
            return Err("matmul/batch");
        }
        ob.push(if a == 1 { b } else { a });
    }
    let mut out_dims = ob.clone();
    if xd.len() > 1 {
        out_dims.push(m);
    }
    if yd.len() > 1 {
        out_dims.push(n);
    }
    let count: usize = ob.iter().product();
    // a matrix's stored (rows, cols): the element (i, j) after the transpose
    let at = |d: &[usize], swap: bool, i: usize, j: usize| -> usize {
        if d.len() == 1 {
            return i.max(j);
        }
        let cols = d[d.len() - 1];
        if swap {
            j * cols + i
        } else {
            i * cols + j
        }
    };
    let mut out = Vec::new();
    for b in 0..count {
        // b as an index of the output's batch dims
        let mut idx = vec![0; r];
        let mut rest = b;
        for p in (0..r).rev() {
            idx[p] = rest % ob[p];
            rest /= ob[p];
        }
        let offset = |pb: &[usize], own: usize, mat: usize| -> usize {
            let mut off = 0;
            let mut stride = mat;
            for p in (0..r).rev() {
                if p < r - own {
                    break;
                }
                let i = if pb[p] == 1 { 0 } else { idx[p] };
                off += i * stride;
                stride *= pb[p];
            }
            off
        };
        let xm: usize = if xd.len() == 1 {
            xd[0]
        } else {
            xd[xd.len() - 2..].iter().product()
        };
        let ym: usize = if yd.len() == 1 {
            yd[0]
        } else {
            yd[yd.len() - 2..].iter().product()
        };
        let (xo, yo) = (offset(&px, bx.len(), xm), offset(&py, by.len(), ym));
        for i in 0..m {
            for j in 0..n {
                let mut acc = 0i64;
                for kk in 0..k {
                    let a = x[xo + at(xd, swap_x, i, kk)];
                    let c = y[yo + at(yd, swap_y, kk, j)];
                    acc = acc.wrapping_add(a.wrapping_mul(c));
                }
                out.push(acc);
            }
        }
    }
    Ok((out_dims, out))
}

/// Shapes that mostly meet: M, K, N and up to two batch dims, each operand
/// of rank 1 to 4, some batch dims replaced by 1 and some inner dims off by
/// one (so that every rule is exercised).
fn shapes() -> impl Strategy<Value = (Vec<usize>, Vec<usize>, bool, bool)> {
    (
        1usize..=4,
        1usize..=4,
        0usize..4,
        0usize..6,
        // up to 6 columns: the kernel's four-at-a-time path and its rest
        0usize..7,
        prop::collection::vec((0usize..3, any::<bool>(), any::<bool>()), 2),
        any::<bool>(),
        any::<bool>(),
        0u8..10,
    )
        .prop_map(|(rx, ry, m, k, n, batch, tx, ty, skew)| {
            let mk = |r: usize, a: usize, b: usize, t: bool, side: u8| -> Vec<usize> {
                let mut d = Vec::new();
                for (p, &(size, one_x, one_y)) in batch.iter().enumerate().take(r.saturating_sub(2))
                {
                    let _ = p;
                    let one = if side == 0 { one_x } else { one_y };
                    d.push(if one { 1 } else { size });
                }
                if r == 1 {
                    d.push(if side == 0 { b } else { a });
                } else if t {
                    d.extend([b, a]);
                } else {
                    d.extend([a, b]);
                }
                d
            };
            let kx = if skew == 0 { k + 1 } else { k };
            (mk(rx, m, kx, tx, 0), mk(ry, k, n, ty, 1), tx, ty)
        })
}

fn data(d: &[usize], seed: i64) -> Vec<i64> {
    let n: usize = d.iter().product();
    (0..n as i64).map(|i| (i * 7 + seed) % 11 - 5).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// `DynTensor::matmul` and `matmul_slices` against the reference: the
    /// same output, or the same rule.
    #[test]
    fn dynamic_path_matches_the_reference((xd, yd, tx, ty) in shapes()) {
        let (x, y) = (data(&xd, 3), data(&yd, 5));
        let want = reference(&xd, &x, &yd, &y, tx, ty);
        let got = DynTensor::new(&xd, x.clone()).unwrap()
            .matmul(&DynTensor::new(&yd, y.clone()).unwrap(), tx, ty);
        match (&want, &got) {
            (Ok((wd, wv)), Ok(z)) => {
                let zd = z.dims();
                prop_assert_eq!(zd.as_slice(), wd.as_slice());
                prop_assert_eq!(z.as_slice(), wv.as_slice());
                // the same through the slices, into a buffer
                let mut out = vec![i64::MIN; wv.len()];
                let d = matmul_slices(&xd, &x, &yd, &y, tx, ty, &mut out).unwrap();
                prop_assert_eq!(d.as_slice(), wd.as_slice());
                prop_assert_eq!(&out, wv);
                // and in f64 (exact: small integers)
                let xf: Vec<f64> = x.iter().map(|&v| v as f64).collect();
                let yf: Vec<f64> = y.iter().map(|&v| v as f64).collect();
                let zf = DynTensor::new(&xd, xf).unwrap()
                    .matmul(&DynTensor::new(&yd, yf).unwrap(), tx, ty).unwrap();
                let wf: Vec<f64> = wv.iter().map(|&v| v as f64).collect();
                prop_assert_eq!(zf.as_slice(), wf.as_slice());
            }
            (Err(rule), Err(e)) => {
                prop_assert_eq!(*rule, e.rule());
                prop_assert_eq!(matmul_output_dims(&xd, &yd, tx, ty).unwrap_err(), *e);
            }
            _ => prop_assert!(false, "{xd:?} x {yd:?} ({tx}, {ty}): reference {want:?}, got {got:?}"),
        }
    }
}

#[test]
fn paddle_docstring_examples() {
    let out = |x: &[usize], y: &[usize], tx, ty| matmul_output_dims(x, y, tx, ty).unwrap().to_vec();
    assert_eq!(out(&[10], &[10], false, false), Vec::<usize>::new());
    assert_eq!(out(&[10, 5], &[5], false, false), vec![10]);
    assert_eq!(out(&[10, 5, 2], &[2], false, false), vec![10, 5]);
    assert_eq!(
        out(&[10, 1, 5, 2], &[1, 3, 2, 5], false, false),
        vec![10, 3, 5, 5]
    );
    assert_eq!(
        out(&[2, 1, 3, 4], &[5, 4, 6], false, false),
        vec![2, 5, 3, 6]
    );
    // a vector's flag is ignored; [K] x [b, K, N] is [b, N]
    assert_eq!(out(&[3], &[3, 4], true, false), vec![4]);
    assert_eq!(out(&[3], &[2, 3, 4], false, false), vec![2, 4]);
    assert_eq!(out(&[2, 4, 3], &[4], true, true), vec![2, 3]);
}

#[test]
fn zero_size_dims() {
    // K = 0: zeros, every element written
    let x = DynTensor::new(&[2, 0], Vec::<f32>::new()).unwrap();
    let y = DynTensor::new(&[0, 3], Vec::<f32>::new()).unwrap();
    let z = x.matmul(&y, false, false).unwrap();
    assert_eq!(
        (z.dims().to_vec(), z.as_slice()),
        (vec![2, 3], &[0.0; 6][..])
    );
    let mut out = [f32::NAN; 6];
    matmul_slices(&[2, 0], &[], &[0, 3], &[], false, false, &mut out).unwrap();
    assert_eq!(out, [0.0; 6]);
    // M = 0, N = 0, a batch dim of 0: empty outputs
    for (xd, yd, want) in [
        (vec![0, 2], vec![2, 3], vec![0, 3]),
        (vec![2, 2], vec![2, 0], vec![2, 0]),
        (vec![0, 2, 2], vec![1, 2, 2], vec![0, 2, 2]),
    ] {
        let x = DynTensor::new(&xd, vec![1i32; xd.iter().product()]).unwrap();
        let y = DynTensor::new(&yd, vec![1i32; yd.iter().product()]).unwrap();
        let z = x.matmul(&y, false, false).unwrap();
        assert_eq!(z.dims().to_vec(), want);
        assert!(z.as_slice().is_empty());
    }
    // static: K = 0
    let z: Tensor<i32, shape![2, 3]> =
        Tensor::<i32, shape![2, 0]>::full(1).matmul(&Tensor::<i32, shape![0, 3]>::full(1));
    assert_eq!(z.as_slice(), &[0; 6]);
}

#[test]
fn errors_name_the_rule_and_values() {
    let e = matmul_output_dims(&[3, 4], &[5, 6], false, false).unwrap_err();
    assert_eq!(
        e.to_string(),
        "matmul: x [3, 4] and y [5, 6]: x's last dim 4 must equal y's second-to-last dim 5"
    );
    let e = matmul_output_dims(&[3, 4], &[5, 6], true, true).unwrap_err();
    assert_eq!(
        e.to_string(),
        "matmul: x [3, 4] and y [5, 6]: x's second-to-last dim 3 must equal y's last dim 6"
    );
    let e = matmul_output_dims(&[2, 4, 5], &[3, 5, 6], false, false).unwrap_err();
    assert_eq!(e.rule(), "matmul/batch");
    assert!(matches!(
        e,
        MatmulError::Batch {
            position: 0,
            x_dim: 2,
            y_dim: 3,
            ..
        }
    ));
    assert_eq!(
        matmul_output_dims(&[2], &[], false, false)
            .unwrap_err()
            .rule(),
        "matmul/rank"
    );
    // a wrong buffer or data length: nothing written
    let mut out = [7i32; 3];
    let e = matmul_slices(
        &[2, 2],
        &[1, 2, 3, 4],
        &[2],
        &[1, 1],
        false,
        false,
        &mut out,
    )
    .unwrap_err();
    assert_eq!(e.rule(), "shape/data-length");
    assert_eq!(out, [7; 3]);
    let e = matmul_slices(
        &[2, 2],
        &[1, 2, 3],
        &[2],
        &[1, 1],
        false,
        false,
        &mut out[..2],
    )
    .unwrap_err();
    assert_eq!(e.rule(), "shape/data-length");
}

/// The static path against the dynamic one, every marker pair and a few
/// rank pairs (inline and `Vec` operands, `_into` and `try_` forms).
#[test]
fn static_path_agrees_with_the_dynamic_one() {
    fn check<S: StaticShape, SY: StaticShape>(
        z: &[i64],
        xd: &[usize],
        yd: &[usize],
        tx: bool,
        ty: bool,
        zd: &[usize],
    ) {
        let (x, y) = (data(xd, 3), data(yd, 5));
        let (wd, wv) = reference(xd, &x, yd, &y, tx, ty).unwrap();
        assert_eq!(
            (zd, z),
            (wd.as_slice(), wv.as_slice()),
            "{xd:?} x {yd:?} ({tx}, {ty})"
        );
        let _ = (S::DIMS, SY::DIMS);
    }
    macro_rules! case {
        ($xs:ty, $ys:ty, $tx:ident, $ty:ident) => {{
            let xd = <$xs as FixedShape>::DIMS;
            let yd = <$ys as FixedShape>::DIMS;
            let x = Tensor::<i64, $xs>::from_slice(&data(xd, 3)).unwrap();
            let y = Tensor::<i64, $ys>::from_slice(&data(yd, 5)).unwrap();
            let z = x.matmul_t(&y, $tx, $ty);
            check::<$xs, $ys>(
                z.as_slice(),
                xd,
                yd,
                stringify!($tx) == "Trans",
                stringify!($ty) == "Trans",
                &z.dims(),
            );
            // into a caller's buffer
            let mut buf = z.as_slice().to_vec();
            buf.fill(0);
            let mut out = Tensor::<i64, _, &mut [i64]>::from_storage(&mut buf[..]).unwrap();
            x.matmul_into(&y, $tx, $ty, &mut out);
            assert_eq!(buf, z.as_slice());
            // the try_ form on heap operands
            let zt = x.to_heap().try_matmul(&y.to_heap(), $tx, $ty).unwrap();
            assert_eq!(zt.as_slice(), z.as_slice());
        }};
    }
    case!(shape![2, 3], shape![3, 4], NoTrans, NoTrans);
    case!(shape![3, 2], shape![3, 4], Trans, NoTrans);
    case!(shape![2, 3], shape![4, 3], NoTrans, Trans);
    case!(shape![3, 2], shape![4, 3], Trans, Trans);
    case!(shape![3], shape![3, 4], Trans, NoTrans);
    case!(shape![2, 3], shape![3], NoTrans, Trans);
    case!(shape![3], shape![3], NoTrans, NoTrans);
    case!(shape![2, 1, 3, 4], shape![5, 4, 6], NoTrans, NoTrans);
    case!(shape![5, 4, 6], shape![2, 1, 6, 3], NoTrans, NoTrans);
    case!(shape![2, 2, 3], shape![2, 4, 3], NoTrans, Trans);
    case!(shape![4], shape![2, 3, 4, 2], NoTrans, NoTrans);
    // outputs of 256 and 272 elements: the largest `matmul_into` makes in a
    // local array first, and one just past it (made in the caller's buffer)
    case!(shape![16, 2], shape![2, 16], NoTrans, NoTrans);
    case!(shape![17, 3], shape![16, 3], NoTrans, Trans);
}

#[test]
fn try_form_checks_run_time_dims() {
    let x = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0; 6]).unwrap();
    let y = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(4), Dim), vec![1.0; 8]).unwrap();
    let e = x.try_matmul(&y, NoTrans, NoTrans).unwrap_err();
    assert_eq!(e.rule(), "matmul/inner");
    let y = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(3), Dim), vec![1.0; 6]).unwrap();
    let z = x.try_matmul(&y, NoTrans, NoTrans).unwrap();
    assert_eq!(
        (z.dims().to_vec(), z.as_slice()),
        (vec![2, 2], &[3.0f32; 4][..])
    );
    // into a buffer of the wrong dims: an error, nothing written
    let mut out =
        Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(3), Dim), vec![9.0; 6]).unwrap();
    assert_eq!(
        x.try_matmul_into(&y, NoTrans, NoTrans, &mut out)
            .unwrap_err()
            .rule(),
        "shape/output"
    );
    assert_eq!(out.as_slice(), &[9.0; 6]);
}

/// The static path allocates nothing: counted with a global allocator that
/// counts this thread's allocations inside `counted` (as `expr_alloc.rs`).
mod no_heap {
    use shapecheck::prelude::*;
    use shapecheck::{NoTrans, Trans};
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Counting;
    static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static COUNTING: Cell<bool> = const { Cell::new(false) };
    }

    // SAFETY: every call is forwarded to the system allocator unchanged.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            if COUNTING.with(Cell::get) {
                ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
            }
            // SAFETY: the caller's contract, forwarded.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: the caller's contract, forwarded.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;

    fn counted<R>(f: impl FnOnce() -> R) -> (usize, R) {
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        COUNTING.with(|c| c.set(true));
        let r = f();
        COUNTING.with(|c| c.set(false));
        (ALLOCATIONS.load(Ordering::SeqCst) - before, r)
    }

    #[test]
    fn the_static_path_allocates_nothing() {
        let x = Tensor::<f32, shape![2, 1, 3, 4]>::full(1.0);
        let y = Tensor::<f32, shape![5, 4, 6]>::full(0.5);
        let (n, z) = counted(|| x.matmul(&y));
        assert_eq!(n, 0);
        assert_eq!(z.dims().as_slice(), &[2, 5, 3, 6]);
        let w = Tensor::<f32, shape![6, 4]>::full(1.0);
        let (n, _) = counted(|| x.matmul_t(&w, NoTrans, Trans));
        assert_eq!(n, 0);
        let mut buf = [0.0f32; 12];
        let (n, _) = counted(|| {
            let mut out =
                Tensor::<f32, shape![2, 1, 3, 2], &mut [f32]>::from_storage(&mut buf[..]).unwrap();
            x.matmul_into(
                &Tensor::<f32, shape![4, 2]>::full(1.0),
                NoTrans,
                NoTrans,
                &mut out,
            );
        });
        assert_eq!((n, buf), (0, [4.0; 12]));
    }
}
