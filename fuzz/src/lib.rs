//! Decoding fuzzer bytes into the inputs of the dynamic path: dims (absurd
//! ones included), data of a matching or mismatched length, axes, op kinds.
//!
//! Every decoder reads from an `Unstructured` and falls back to a default when
//! the bytes run out, so every input decodes to something.

pub use libfuzzer_sys::arbitrary::Unstructured;
use shapecheck::{ActivationKind, AutoBroadcast, BinaryOpKind};

/// The most elements a target allocates for one buffer (a few MB at most).
pub const MAX_ELEMS: usize = 1 << 16;

/// A `u8` from the input, 0 when it is exhausted.
pub fn byte(u: &mut Unstructured<'_>) -> u8 {
    u.arbitrary().unwrap_or(0)
}

/// A `bool` from the input.
pub fn flag(u: &mut Unstructured<'_>) -> bool {
    byte(u) & 1 == 1
}

/// One dim: mostly small, sometimes 0, huge, or `usize::MAX`.
pub fn dim(u: &mut Unstructured<'_>) -> usize {
    match byte(u) {
        0..=199 => usize::from(byte(u) % 6),
        200..=209 => 0,
        210..=219 => usize::MAX,
        220..=224 => usize::MAX / 2 + 1,
        225..=229 => 1 << 32,
        230..=234 => (1 << 32) + 1,
        235..=239 => 1 << 63,
        240..=244 => usize::from(u.arbitrary::<u16>().unwrap_or(0)),
        _ => u.arbitrary().unwrap_or(0),
    }
}

/// Dims of rank 0 to 12 (the library supports at most 8).
pub fn dims(u: &mut Unstructured<'_>) -> Vec<usize> {
    let rank = match byte(u) {
        0..=239 => usize::from(byte(u) % 6),
        _ => usize::from(byte(u) % 13),
    };
    (0..rank).map(|_| dim(u)).collect()
}

/// Small dims of rank 0 to 3, dims 0 to 4; sometimes any dims.
pub fn small_dims(u: &mut Unstructured<'_>) -> Vec<usize> {
    if byte(u) >= 245 {
        return dims(u);
    }
    let rank = usize::from(byte(u) % 4);
    (0..rank).map(|_| usize::from(byte(u) % 5)).collect()
}

/// Dims related to `base`, so that broadcasting often succeeds: a window of
/// `base` with some dims replaced by 1 and sometimes trailing 1s appended.
pub fn related_dims(u: &mut Unstructured<'_>, base: &[usize]) -> Vec<usize> {
    let start = usize::from(byte(u)) % (base.len() + 1);
    let len = usize::from(byte(u)) % (base.len() - start + 1);
    let mut out: Vec<usize> = base
        .iter()
        .skip(start)
        .take(len)
        .map(|&d| if byte(u) < 64 { 1 } else { d })
        .collect();
    out.extend(core::iter::repeat_n(
        1,
        usize::from(byte(u) % 8).saturating_sub(5),
    ));
    out
}

/// Like [`tensor`], with dims from [`related_dims`].
pub fn related_tensor<T: FuzzValue>(
    u: &mut Unstructured<'_>,
    base: &[usize],
) -> (Vec<usize>, Vec<T>) {
    let d = related_dims(u, base);
    let len = data_len(u, &d);
    let v = data(u, len);
    (d, v)
}

/// The element count of `dims` when it fits and the rank is supported
/// (the naive reference, not the library's `Dims::numel`).
pub fn numel(dims: &[usize]) -> Option<usize> {
    if dims.len() > reference::MAX_RANK {
        return None;
    }
    reference::count(dims)
}

/// A data length for `dims`: usually its element count (when small),
/// otherwise a small wrong one.
pub fn data_len(u: &mut Unstructured<'_>, dims: &[usize]) -> usize {
    let want = numel(dims).filter(|&n| n <= MAX_ELEMS);
    match (byte(u), want) {
        (0..=219, Some(n)) => n,
        (220..=239, Some(n)) => n.saturating_add(1).min(MAX_ELEMS),
        (240..=249, Some(n)) => n.saturating_sub(1),
        (b, _) => usize::from(b % 32),
    }
}

/// An axis: mostly near the valid range, sometimes extreme.
pub fn axis(u: &mut Unstructured<'_>) -> isize {
    match byte(u) {
        0..=229 => isize::from(byte(u) % 27) - 13,
        230..=239 => isize::MIN,
        240..=249 => isize::MAX,
        _ => u.arbitrary().unwrap_or(0),
    }
}

/// Any binary op.
pub fn op(u: &mut Unstructured<'_>) -> BinaryOpKind {
    match byte(u) % 6 {
        0 => BinaryOpKind::Mul,
        1 => BinaryOpKind::Add,
        2 => BinaryOpKind::Sub,
        3 => BinaryOpKind::Div,
        4 => BinaryOpKind::Max,
        _ => BinaryOpKind::Min,
    }
}

/// Any activation.
pub fn act(u: &mut Unstructured<'_>) -> ActivationKind {
    match byte(u) % 4 {
        0 => ActivationKind::Identity,
        1 => ActivationKind::Relu,
        2 => ActivationKind::Tanh,
        _ => ActivationKind::Sigmoid,
    }
}

/// Any broadcast mode, pdpd with any axis.
pub fn mode(u: &mut Unstructured<'_>) -> AutoBroadcast {
    match byte(u) % 3 {
        0 => AutoBroadcast::None,
        1 => AutoBroadcast::Numpy,
        _ => AutoBroadcast::Pdpd { axis: axis(u) },
    }
}

/// Values of one element type, decoded from the input with extremes mixed in.
pub trait FuzzValue: Copy + Default + core::fmt::Debug + 'static {
    /// One value.
    fn value(u: &mut Unstructured<'_>) -> Self;
    /// Bitwise equality (any NaN equals any NaN).
    fn same(self, other: Self) -> bool;
}

impl FuzzValue for i32 {
    fn value(u: &mut Unstructured<'_>) -> Self {
        match byte(u) {
            0..=199 => i32::from(byte(u) as i8),
            200..=219 => i32::MIN,
            220..=239 => i32::MAX,
            240..=247 => -1,
            _ => u.arbitrary().unwrap_or(0),
        }
    }
    fn same(self, other: Self) -> bool {
        self == other
    }
}

impl FuzzValue for i64 {
    fn value(u: &mut Unstructured<'_>) -> Self {
        match byte(u) {
            0..=199 => i64::from(byte(u) as i8),
            200..=219 => i64::MIN,
            220..=239 => i64::MAX,
            240..=247 => -1,
            _ => u.arbitrary().unwrap_or(0),
        }
    }
    fn same(self, other: Self) -> bool {
        self == other
    }
}

impl FuzzValue for f32 {
    fn value(u: &mut Unstructured<'_>) -> Self {
        match byte(u) {
            0..=199 => f32::from(byte(u) as i8) / 4.0,
            200..=209 => f32::NAN,
            210..=219 => f32::INFINITY,
            220..=229 => f32::NEG_INFINITY,
            230..=239 => f32::MAX,
            240..=247 => -0.0,
            _ => f32::from_bits(u.arbitrary().unwrap_or(0)),
        }
    }
    fn same(self, other: Self) -> bool {
        // NaN payloads and signs are not specified across code paths
        self.to_bits() == other.to_bits() || (self.is_nan() && other.is_nan())
    }
}

impl FuzzValue for bool {
    fn value(u: &mut Unstructured<'_>) -> Self {
        flag(u)
    }
    fn same(self, other: Self) -> bool {
        self == other
    }
}

/// `len` values.
pub fn data<T: FuzzValue>(u: &mut Unstructured<'_>, len: usize) -> Vec<T> {
    (0..len).map(|_| T::value(u)).collect()
}

/// Dims and data for them (length usually right, sometimes wrong).
pub fn tensor<T: FuzzValue>(u: &mut Unstructured<'_>) -> (Vec<usize>, Vec<T>) {
    let d = dims(u);
    let len = data_len(u, &d);
    let v = data(u, len);
    (d, v)
}

/// The flat row-major position in `dims` (placed in the output's frame: a 1
/// broadcasts) of the output multi-index `index`.
pub fn broadcast_flat(dims: &[usize], index: &[usize]) -> usize {
    let mut flat = 0;
    for (&d, &i) in dims.iter().zip(index) {
        flat = flat * d + if d == 1 { 0 } else { i };
    }
    flat
}

/// Moves a row-major multi-index one step forward.
pub fn advance(index: &mut [usize], dims: &[usize]) {
    for (i, &d) in index.iter_mut().zip(dims).rev() {
        *i += 1;
        if *i < d {
            return;
        }
        *i = 0;
    }
}

// ---------------------------------------------------------------- LoD

/// A LoD offset or length: mostly small, sometimes huge.
pub fn lod_number(u: &mut Unstructured<'_>) -> usize {
    match byte(u) {
        0..=199 => usize::from(byte(u) % 10),
        200..=209 => usize::MAX,
        210..=219 => usize::MAX / 2 + 1,
        220..=229 => 1 << 40,
        _ => u.arbitrary().unwrap_or(0),
    }
}

/// Lengths of a nested LoD, top level first, and the row count they end at.
pub fn nested_lengths(u: &mut Unstructured<'_>) -> (Vec<Vec<usize>>, usize) {
    let levels = match byte(u) {
        0..=239 => usize::from(byte(u) % 4),
        _ => usize::from(byte(u) % 6),
    };
    let mut out = Vec::new();
    // the number of sequences of the next level to make
    let mut n = usize::from(byte(u) % 5);
    for _ in 0..levels {
        let l: Vec<usize> = (0..n).map(|_| usize::from(byte(u) % 4)).collect();
        n = l.iter().sum();
        out.push(l);
    }
    (out, n)
}

/// Mutates `levels` (offsets or lengths) in place, sometimes.
pub fn mutate_levels(u: &mut Unstructured<'_>, levels: &mut Vec<Vec<usize>>) {
    for _ in 0..byte(u) % 3 {
        if levels.is_empty() {
            return;
        }
        let k = usize::from(byte(u)) % levels.len();
        let level = &mut levels[k];
        match byte(u) % 6 {
            0 if !level.is_empty() => {
                let i = usize::from(byte(u)) % level.len();
                level[i] = lod_number(u);
            }
            1 if !level.is_empty() => {
                let i = usize::from(byte(u)) % level.len();
                level[i] = level[i].wrapping_add(1);
            }
            2 if !level.is_empty() => {
                let i = usize::from(byte(u)) % level.len();
                level[i] = level[i].wrapping_sub(1);
            }
            3 => {
                level.pop();
            }
            4 => level.push(lod_number(u)),
            _ => {
                let i = usize::from(byte(u)) % (level.len() + 1);
                level.insert(i, lod_number(u));
            }
        }
    }
    if byte(u) >= 240 && !levels.is_empty() {
        let k = usize::from(byte(u)) % levels.len();
        levels.remove(k);
    }
}

/// Offsets from lengths, wrapping (the mutations decide what breaks).
pub fn offsets_wrapping(lengths: &[usize]) -> Vec<usize> {
    let mut o = vec![0usize];
    for &l in lengths {
        o.push(o.last().unwrap().wrapping_add(l));
    }
    o
}

pub mod json;
pub mod ragged;
pub mod reference;
