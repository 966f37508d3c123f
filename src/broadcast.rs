//! Shapes placed in the output's frame: the run-time shape algebra every
//! broadcast rule is written in (shared by the rules of `ops/*/rule.rs`, and
//! read by the loops of [`crate::kernel`]).
//!
//! A [`Frame`] holds an op's output dims and each operand's dims placed in
//! the output's positions, with 1 where an operand has no dim. Everything
//! here is a `const fn`, so that a rule built from it runs at compile time
//! for static shapes (a static op's walk is a constant) and at run time for
//! the dynamic path, from one definition.

use crate::dims::{Dims, MAX_RANK};
use shapecheck_rules::align::Placed;

/// An op's output dims and its `K` operands' dims, in one frame of `rank`
/// positions (entries past `rank` are 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Frame<const K: usize> {
    /// The output's rank.
    pub(crate) rank: usize,
    /// The output's dims.
    pub(crate) out: [usize; MAX_RANK],
    /// Each operand's dims in the output's positions.
    pub(crate) ops: [[usize; MAX_RANK]; K],
    /// Where each operand's first dim sits in the output's dims (its dims
    /// are `ops[k][at[k]..]`): what a fused expression composes to place a
    /// leaf of an operand's subtree in the output.
    pub(crate) at: [usize; K],
}

impl<const K: usize> Frame<K> {
    /// The output's dims as a value.
    pub(crate) const fn out_dims(&self) -> Dims {
        Dims::from_frame(self.rank, &self.out)
    }
}

/// `dims` placed at position `at` of a frame of rank `rank`, 1 elsewhere.
/// Dims that would fall past the end are dropped: rules only do that with
/// trailing dims of size 1 (Paddle's "trailing 1s are ignored"). Where each
/// dim goes is `shapecheck_rules::align::Placed`, as in the generated
/// type-level impls.
// Every index below is guarded by `< MAX_RANK` or by the slice's length.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn place(dims: &[usize], at: usize, rank: usize) -> [usize; MAX_RANK] {
    let placed = Placed::at(rank, at, dims.len());
    let mut buf = [1usize; MAX_RANK];
    let mut p = 0;
    while p < rank && p < MAX_RANK {
        if let Some(k) = placed.dim_at(p) {
            buf[p] = dims[k];
        }
        p += 1;
    }
    buf
}

/// `true` if the two slices hold the same dims (`==` is not `const`).
// Every index below is guarded by the slices' length.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn same(a: &[usize], b: &[usize]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The first index `>= from` where `dims` holds something other than 1
/// (trailing dims that run past a frame must all be 1).
// Every index below is guarded by the slice's length.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn first_not_one(dims: &[usize], from: usize) -> Option<usize> {
    let mut j = from;
    while j < dims.len() {
        if dims[j] != 1 {
            return Some(j);
        }
        j += 1;
    }
    None
}
