//! A fused expression's shape rule: the plain ops' rules composed over the
//! tree, as `const fn`s (so a static tree's plan is a constant).
//!
//! A [`Plan`] is a node's output dims with every leaf of its subtree placed
//! in them (1 where a leaf has no dim), leaves in the tree's order (left to
//! right, cond before then before else). A node's plan comes from its
//! children's: the op's own rule ([`crate::ops::elementwise`]'s or
//! [`crate::ops::select`]'s `frame`) on the children's output dims says
//! where each child's dims start in the node's output, and every leaf of
//! that child moves there with it. Nothing here knows a rule of its own.

use super::ExprError;
use crate::broadcast::{place, Frame};
use crate::dims::{Dims, MAX_RANK};
use crate::ops::elementwise::rule::frame as elementwise_frame;
use crate::ops::select::rule::frame as select_frame;
use crate::ops::select::AutoBroadcast;

/// The most leaves (tensors read) one expression can have: a tree of
/// static tensors with more fails to build, one with run-time dims returns
/// `expr/too-many-leaves`; evaluate a part of it first.
///
/// ```
/// use shapecheck::prelude::*;
/// let x = Tensor::<f32, shape![Dyn], Vec<f32>>::from_vec((Dyn(2),), vec![1.0, 2.0]).unwrap();
/// let nine = x.lazy() + &x + &x + &x + &x + &x + &x + &x + &x;
/// assert_eq!(shapecheck::expr::MAX_LEAVES, 8);
/// assert_eq!(nine.try_eval().unwrap_err().rule(), "expr/too-many-leaves");
/// ```
pub const MAX_LEAVES: usize = 8;

/// A node's output dims and each of its leaves' dims placed in them (the
/// run-time form of a tree's rule; built inside [`super::Node::plan`]).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The output's rank.
    rank: usize,
    /// The output's dims (1 past `rank`).
    out: [usize; MAX_RANK],
    /// Leaf `k`'s dims in the output's positions, for `k < leaves`.
    placed: [[usize; MAX_RANK]; MAX_LEAVES],
    /// The number of leaves.
    leaves: usize,
}

impl Plan {
    /// A tensor read by the expression: its own frame.
    pub(crate) const fn leaf(dims: &[usize]) -> Result<Plan, ExprError> {
        if let Err(e) = Dims::new(dims) {
            return Err(ExprError::Shape(e));
        }
        let rank = dims.len();
        let out = place(dims, 0, rank);
        let mut placed = [[1usize; MAX_RANK]; MAX_LEAVES];
        placed[0] = out;
        Ok(Plan {
            rank,
            out,
            placed,
            leaves: 1,
        })
    }

    /// A constant (a scalar, read from no tensor): rank 0, no leaf.
    pub(crate) const SCALAR: Plan = Plan {
        rank: 0,
        out: [1; MAX_RANK],
        placed: [[1; MAX_RANK]; MAX_LEAVES],
        leaves: 0,
    };

    /// The output's dims.
    pub(crate) const fn out_dims(&self) -> Dims {
        Dims::from_frame(self.rank, &self.out)
    }

    /// `op(l, r)` at `axis` under Paddle's elementwise rule (numpy's at -1).
    pub(crate) const fn elementwise(l: &Plan, r: &Plan, axis: isize) -> Result<Plan, ExprError> {
        let (ld, rd) = (l.out_dims(), r.out_dims());
        match elementwise_frame(ld.as_slice(), rd.as_slice(), axis) {
            Ok(f) => Self::joined(f.rank, f.out, &[l, r], &[f.at[0], f.at[1]]),
            Err(e) => Err(ExprError::Elementwise(e)),
        }
    }

    /// `select(c, t, e)` under `mode` (OpenVINO's Select-1 rule).
    pub(crate) const fn select(
        mode: AutoBroadcast,
        c: &Plan,
        t: &Plan,
        e: &Plan,
    ) -> Result<Plan, ExprError> {
        let (cd, td, ed) = (c.out_dims(), t.out_dims(), e.out_dims());
        match select_frame(mode, cd.as_slice(), td.as_slice(), ed.as_slice()) {
            Ok(f) => Self::joined(f.rank, f.out, &[c, t, e], &[f.at[0], f.at[1], f.at[2]]),
            Err(x) => Err(ExprError::Select(x)),
        }
    }

    /// The plan of a node of output `out` (rank `rank`) whose child `i`
    /// starts at `at[i]`: every leaf of child `i`, in order, placed there.
    // Every index below is guarded by `< MAX_LEAVES` or by the slices' lengths.
    #[allow(clippy::indexing_slicing)]
    const fn joined(
        rank: usize,
        out: [usize; MAX_RANK],
        children: &[&Plan],
        at: &[usize],
    ) -> Result<Plan, ExprError> {
        let mut placed = [[1usize; MAX_RANK]; MAX_LEAVES];
        let mut leaves = 0;
        let mut i = 0;
        while i < children.len() && i < at.len() {
            let child = children[i];
            let mut k = 0;
            while k < child.leaves {
                if leaves == MAX_LEAVES {
                    return Err(ExprError::TooManyLeaves);
                }
                let (dims, _) = child.placed[k].split_at(child.rank);
                placed[leaves] = place(dims, at[i], rank);
                leaves += 1;
                k += 1;
            }
            i += 1;
        }
        Ok(Plan {
            rank,
            out,
            placed,
            leaves,
        })
    }

    /// The frame of the output with the first `K` leaves as operands (`K`
    /// at least the number of leaves; unused lanes read nothing: all their
    /// dims are 1, so they repeat), for the planner to walk. A leaf's dims
    /// are already placed, so each starts at 0.
    // Every index below is guarded by `< K` and `< MAX_LEAVES`.
    #[allow(clippy::indexing_slicing)]
    pub(crate) const fn frame<const K: usize>(&self) -> Frame<K> {
        let mut ops = [[1usize; MAX_RANK]; K];
        let mut k = 0;
        while k < K && k < MAX_LEAVES {
            ops[k] = self.placed[k];
            k += 1;
        }
        Frame {
            rank: self.rank,
            out: self.out,
            ops,
            at: [0; K],
        }
    }
}
