//! Feature `matrixmultiply`: a large f32/f64 matrix product through the
//! `matrixmultiply` crate's packed, cache-blocked kernels (runtime AVX/FMA
//! detection with `std`), with the strides expressing the transposes.
//! Every index it will read or write is checked here first, in safe code;
//! then the one `unsafe` call. The crate allocates a packing buffer per
//! call (its heap, freed before it returns): the feature implies `alloc`.

/// Whether every element `(i, j)`, `i < rows`, `j < cols`, at
/// `i · rs + j · cs` lies inside `len` elements, the strides fitting `isize`.
fn fits(rows: usize, cols: usize, [rs, cs]: [usize; 2], len: usize) -> bool {
    if rows == 0 || cols == 0 {
        return true;
    }
    let last = (rows - 1)
        .checked_mul(rs)
        .and_then(|a| (cols - 1).checked_mul(cs).and_then(|b| a.checked_add(b)));
    isize::try_from(rs).is_ok() && isize::try_from(cs).is_ok() && last.is_some_and(|l| l < len)
}

/// The checks both element types share: every read inside `a` and `b`,
/// `c` exactly `m × n`, every stride an `isize`.
fn checked(
    [m, k, n]: [usize; 3],
    a: usize,
    sa: [usize; 2],
    b: usize,
    sb: [usize; 2],
    c: usize,
) -> bool {
    fits(m, k, sa, a)
        && fits(k, n, sb, b)
        && m.checked_mul(n) == Some(c)
        && isize::try_from(n).is_ok()
}

/// The strides as the crate takes them (each checked to fit).
fn strides([r, c]: [usize; 2]) -> (isize, isize) {
    (
        isize::try_from(r).unwrap_or(0),
        isize::try_from(c).unwrap_or(0),
    )
}

/// `c = a · b` in f32 (see [`Element::gemm`](crate::element::Element::gemm)).
pub(crate) fn sgemm(
    dims: [usize; 3],
    a: &[f32],
    sa: [usize; 2],
    b: &[f32],
    sb: [usize; 2],
    c: &mut [f32],
) -> bool {
    if !checked(dims, a.len(), sa, b.len(), sb, c.len()) {
        return false;
    }
    let [m, k, n] = dims;
    let ((rsa, csa), (rsb, csb)) = (strides(sa), strides(sb));
    let rsc = isize::try_from(n).unwrap_or(0);
    // SAFETY: `checked` proved that every element `(i, p)` of a
    // (`i < m`, `p < k`) at `i·rsa + p·csa` is inside `a`, every `(p, j)` of
    // b inside `b`, and that `c` holds `m × n` elements, written row-major
    // (`rsc = n`, `csc = 1`); all strides are non-negative and fit `isize`.
    // `beta = 0`: c is written, never read. `a` and `b` are shared borrows
    // and `c` a unique one, so c overlaps neither.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            rsa,
            csa,
            b.as_ptr(),
            rsb,
            csb,
            0.0,
            c.as_mut_ptr(),
            rsc,
            1,
        );
    }
    true
}

/// `c = a · b` in f64 (see [`Element::gemm`](crate::element::Element::gemm)).
pub(crate) fn dgemm(
    dims: [usize; 3],
    a: &[f64],
    sa: [usize; 2],
    b: &[f64],
    sb: [usize; 2],
    c: &mut [f64],
) -> bool {
    if !checked(dims, a.len(), sa, b.len(), sb, c.len()) {
        return false;
    }
    let [m, k, n] = dims;
    let ((rsa, csa), (rsb, csb)) = (strides(sa), strides(sb));
    let rsc = isize::try_from(n).unwrap_or(0);
    // SAFETY: as in `sgemm`: every index checked by `checked`, c written
    // only (`beta = 0`) and overlapping neither operand.
    unsafe {
        matrixmultiply::dgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            rsa,
            csa,
            b.as_ptr(),
            rsb,
            csb,
            0.0,
            c.as_mut_ptr(),
            rsc,
            1,
        );
    }
    true
}
