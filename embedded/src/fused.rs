//! Data of the fused-expression size firmwares
//! (`examples/size_fused_{f3,select}_*.rs`): the operands, and the expected
//! outputs computed by the compiler (const evaluation, IEEE f32 as on the
//! target), so that each firmware checks its result with the same compare
//! and the three forms of an expression carry the same data in flash.
//! `tests/expr.rs` checks the same chains on the target against each other.

const fn ramp<const N: usize>(scale: f32, offset: f32) -> [f32; N] {
    let mut a = [0.0; N];
    let mut i = 0;
    while i < N {
        a[i] = i as f32 * scale + offset;
        i += 1;
    }
    a
}

/// F3's a [2, 3, 4, 5].
pub static F3_A: [f32; 120] = ramp(0.37, -21.1);
/// F3's b [3, 4, 1].
pub static F3_B: [f32; 12] = ramp(-0.61, 3.3);
/// F3's d [5].
pub static F3_D: [f32; 5] = ramp(1.7, -3.05);

const fn f3(a: &[f32; 120], b: &[f32; 12], d: &[f32; 5]) -> [f32; 120] {
    let mut out = [0.0; 120];
    let mut i = 0;
    while i < 120 {
        let v = a[i] * b[i / 5 % 12] + d[i % 5];
        out[i] = if v > 0.0 { v } else { 0.0 };
        i += 1;
    }
    out
}

/// `relu(a * b + d)`, numpy broadcasting, [2, 3, 4, 5].
pub static F3_OUT: [f32; 120] = f3(&F3_A, &F3_B, &F3_D);

/// The select chain's cond [2, 3].
pub static SEL_C: [bool; 6] = [true, false, false, true, true, false];
/// The select chain's t [4, 2, 3].
pub static SEL_T: [f32; 24] = ramp(0.83, -9.7);
/// The select chain's e [3].
pub static SEL_E: [f32; 3] = [0.1, -2.25, 7.5];

const fn sel(c: &[bool; 6], t: &[f32; 24], e: &[f32; 3]) -> [f32; 24] {
    let mut out = [0.0; 24];
    let mut i = 0;
    while i < 24 {
        out[i] = if c[i % 6] {
            t[i] * 2.0
        } else {
            t[i] + e[i % 3]
        };
        i += 1;
    }
    out
}

/// `select(c, t * 2, t + e)`, numpy broadcasting, [4, 2, 3].
pub static SEL_OUT: [f32; 24] = sel(&SEL_C, &SEL_T, &SEL_E);
