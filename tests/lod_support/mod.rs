//! Shared by tests/lod.rs and tests/lod_reset.rs: naive references written
//! from op-semantics.md §5 (Paddle's `CheckLoD`, `ConvertToOffsetBasedLoD`)
//! and the strategies that generate LoDs.
#![allow(dead_code)]

use proptest::prelude::*;
use shapecheck::prelude::*;
use shapecheck::{Lengths, LodError, Offsets};

// ------------------------------------------------------- naive references

/// Which rule a LoD breaks, and at which level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Broken {
    Overflow(usize),
    Few(usize),
    Start(usize),
    Decreasing(usize),
    Rows(usize),
    Nesting(usize),
}

pub fn kind(e: &LodError) -> Broken {
    match *e {
        LodError::LengthOverflow { level, .. } => Broken::Overflow(level),
        LodError::TooFewOffsets { level, .. } => Broken::Few(level),
        LodError::NonzeroStart { level, .. } => Broken::Start(level),
        LodError::Decreasing { level, .. } => Broken::Decreasing(level),
        LodError::RowsMismatch { level, .. } => Broken::Rows(level),
        LodError::LevelMismatch { level, .. } => Broken::Nesting(level),
        other => panic!("unexpected {other:?}"),
    }
}

/// Paddle's CheckLoD, as written in its C++ (with the height checked at 0 too).
pub fn naive_check(lod: &[Vec<usize>], rows: usize) -> Result<(), Broken> {
    if lod.is_empty() {
        return Ok(());
    }
    for (k, level) in lod.iter().enumerate() {
        if level.len() < 2 {
            return Err(Broken::Few(k));
        }
        if level[0] != 0 {
            return Err(Broken::Start(k));
        }
        if !level.windows(2).all(|w| w[0] <= w[1]) {
            return Err(Broken::Decreasing(k));
        }
    }
    if *lod.last().unwrap().last().unwrap() != rows {
        return Err(Broken::Rows(lod.len() - 1));
    }
    for k in 0..lod.len() - 1 {
        if *lod[k].last().unwrap() != lod[k + 1].len() - 1 {
            return Err(Broken::Nesting(k));
        }
    }
    Ok(())
}

/// ConvertToOffsetBasedLoD with overflow reported.
pub fn naive_offsets(lengths: &[Vec<usize>]) -> Result<Vec<Vec<usize>>, Broken> {
    let mut out = vec![];
    for (k, l) in lengths.iter().enumerate() {
        let mut level = vec![0usize];
        for &n in l {
            let next = level
                .last()
                .unwrap()
                .checked_add(n)
                .ok_or(Broken::Overflow(k))?;
            level.push(next);
        }
        out.push(level);
    }
    Ok(out)
}

pub fn to_offsets(lod: &[Vec<usize>]) -> Vec<Offsets<'_>> {
    lod.iter().map(|l| Offsets::new(l)).collect()
}

pub fn to_lengths(lod: &[Vec<usize>]) -> Vec<Lengths<'_>> {
    lod.iter().map(|l| Lengths::new(l)).collect()
}

// ------------------------------------------------------------- strategies

/// A nested LoD given as lengths, top level first, and its row count: each
/// level has one length per sequence counted by the level above.
pub fn nested_lengths() -> impl Strategy<Value = (Vec<Vec<usize>>, usize)> {
    (0usize..4, 1usize..4, prop::collection::vec(0usize..4, 64)).prop_map(|(levels, top, pool)| {
        let mut it = pool.into_iter().cycle();
        let mut out: Vec<Vec<usize>> = vec![];
        let mut n = top;
        for _ in 0..levels {
            if n == 0 && !out.is_empty() {
                break; // a level of no sequence has 1 offset: only the last level may sum to 0
            }
            let l: Vec<usize> = (0..n).map(|_| it.next().unwrap()).collect();
            n = l.iter().sum();
            out.push(l);
        }
        let rows = if out.is_empty() { top } else { n };
        (out, rows)
    })
}

/// A LoD of offsets, valid or broken in one of several ways, and a row count.
pub fn dense(rows: usize) -> Tensor<f32, shape![Dyn, 2], Vec<f32>> {
    Tensor::with_dims(&[rows, 2], (0..rows * 2).map(|v| v as f32).collect()).unwrap()
}
