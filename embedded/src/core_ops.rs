//! Data of the compute-core size firmwares (`examples/size_{matmul,reduce,
//! softmax}_*.rs`): the operands, and the expected outputs, so that the
//! shapecheck and the hand-loop firmware of an op carry the same data and
//! the same check. matmul's and sum's operands are multiples of 1/8 or 1/4
//! small enough that every result is exact whatever the order of the
//! additions: their outputs are computed by the compiler (const evaluation,
//! IEEE f32 as on the target) and compared bit for bit. softmax's output
//! was computed in f64 (Python's `math.exp`) and rounded to f32; the
//! firmwares compare it within 1e-6 relative (the tolerance of
//! tests/vectors/core/README.md for float32 softmax).

/// The dense layer's input x [1, 16] (a layer of the sine model).
pub static MM_X: [f32; 16] = {
    let mut a = [0.0; 16];
    let mut i = 0;
    while i < 16 {
        a[i] = ((i * 7) % 13) as f32 * 0.25 - 1.5;
        i += 1;
    }
    a
};

/// The dense layer's weights w [16, 16] (in x out).
pub static MM_W: [f32; 256] = {
    let mut a = [0.0; 256];
    let mut i = 0;
    while i < 256 {
        a[i] = ((i * 5) % 17) as f32 * 0.125 - 1.0;
        i += 1;
    }
    a
};

const fn matvec(x: &[f32; 16], w: &[f32; 256]) -> [f32; 16] {
    let mut out = [0.0; 16];
    let mut j = 0;
    while j < 16 {
        let mut acc = 0.0;
        let mut k = 0;
        while k < 16 {
            acc += x[k] * w[k * 16 + j];
            k += 1;
        }
        out[j] = acc;
        j += 1;
    }
    out
}

/// x · w, [1, 16].
pub static MM_OUT: [f32; 16] = matvec(&MM_X, &MM_W);

/// The reduction's x [8, 16].
pub static RS_X: [f32; 128] = {
    let mut a = [0.0; 128];
    let mut i = 0;
    while i < 128 {
        a[i] = ((i * 11) % 29) as f32 * 0.125 - 1.75;
        i += 1;
    }
    a
};

const fn row_sums(x: &[f32; 128]) -> [f32; 8] {
    let mut out = [0.0; 8];
    let mut r = 0;
    while r < 8 {
        let mut acc = 0.0;
        let mut k = 0;
        while k < 16 {
            acc += x[r * 16 + k];
            k += 1;
        }
        out[r] = acc;
        r += 1;
    }
    out
}

/// The sum of each row of [`RS_X`] (over the last axis), [8].
pub static RS_OUT: [f32; 8] = row_sums(&RS_X);

/// softmax's x [4, 10] (logits of 4 samples, 10 classes): multiples of 1/8
/// in [-4, 4].
pub static SM_X: [f32; 40] = {
    let mut a = [0.0; 40];
    let mut i = 0;
    while i < 40 {
        a[i] = ((i * 23) % 65) as f32 * 0.125 - 4.0;
        i += 1;
    }
    a
};

/// softmax of each row of [`SM_X`], computed in f64 and rounded to f32.
pub static SM_OUT: [f32; 40] = [
    5.582714221e-04,
    9.895597585e-03,
    1.754036695e-01,
    9.204340167e-04,
    1.631508209e-02,
    2.891917527e-01,
    1.517539145e-03,
    2.689902484e-02,
    4.767966270e-01,
    2.501999028e-03,
    1.744839177e-02,
    3.092801273e-01,
    1.622953219e-03,
    2.876753360e-02,
    5.099167228e-01,
    2.675797557e-03,
    4.742964357e-02,
    2.488879254e-04,
    4.411644302e-03,
    7.819826156e-02,
    5.582714221e-04,
    9.895597585e-03,
    1.754036695e-01,
    9.204340167e-04,
    1.631508209e-02,
    2.891917527e-01,
    1.517539145e-03,
    2.689902484e-02,
    4.767966270e-01,
    2.501999028e-03,
    3.559194878e-02,
    6.308823824e-01,
    3.310567001e-03,
    5.868120492e-02,
    3.079306916e-04,
    5.458202213e-03,
    9.674894810e-02,
    5.076918751e-04,
    8.999054320e-03,
    1.595120579e-01,
];

/// `got` matches [`SM_OUT`] within 1e-6 relative, element by element.
pub fn softmax_ok(got: &[f32; 40]) -> bool {
    got.iter().zip(SM_OUT.iter()).all(|(g, w)| {
        let d = if g > w { g - w } else { w - g };
        (d as f64) <= 1e-6 * (*w as f64)
    })
}
