//! Multiplex's rules: candidates and the index shape (see the
//! [parent module](super)).

use crate::dim::{Dim, DimLike, Dyn, One, StaticDims};
use crate::shape::Shape;

/// Multiplex, dim rule: the index's second dim is 1 (`One`, a hand-written
/// `Dim<1>`, or a run-time dim checked when the op runs).
#[diagnostic::on_unimplemented(
    message = "multiplex/index-shape: index {I} must have shape [rows, 1], but its second dim is {Self} (candidates {S})",
    label = "the index must have exactly one column",
    note = "Paddle: \"The index tensor must be a vector with batchSize x 1\""
)]
pub trait MultiplexIndexCols<S, I>: DimLike {}
#[diagnostic::do_not_recommend]
impl<S, I> MultiplexIndexCols<S, I> for One {}
#[diagnostic::do_not_recommend]
impl<S, I> MultiplexIndexCols<S, I> for Dim<1> {}
#[diagnostic::do_not_recommend]
impl<S, I> MultiplexIndexCols<S, I> for Dyn {}

/// Multiplex, gate implemented by no type: required by the impls of
/// [`MultiplexShapes`] for candidates of rank 0 or 1. `Self` is the index
/// shape, so that the error is reported once the index is known.
#[diagnostic::on_unimplemented(
    message = "multiplex/candidate-rank: candidates {S} have rank < 2 (index {Self}); the rank of candidate tensors must be at least 2",
    label = "multiplex selects rows: each candidate needs rank >= 2",
    note = "Paddle: \"The rank of candidate tensors must be not less than 2\""
)]
pub trait MultiplexCandidateRank<S> {}

/// Multiplex: required by the impls of [`MultiplexShapes`] for candidates `S`
/// of rank 0 or 1, and implemented only where the gate
/// [`MultiplexCandidateRank`] is (nowhere). The extra level keeps rustc from
/// reporting the gate twice (once for the bound, once for the output type).
pub trait MultiplexLowRank<S> {}
impl<S, I> MultiplexLowRank<S> for I where I: MultiplexCandidateRank<S> {}

/// Multiplex, gate implemented by no type: required by the impls of
/// [`MultiplexIndexShape`] for an index (`Self`) whose rank is not 2.
#[diagnostic::on_unimplemented(
    message = "multiplex/index-shape: index {Self} must have rank 2, shape [rows, 1] (candidates {S})",
    label = "the index must be a 2-D tensor of shape [rows, 1]",
    note = "Paddle: \"The index tensor must be a vector with 2 dimensions\""
)]
pub trait MultiplexIndexRank<S> {}

/// Multiplex, index rule: `Self` (the index shape) is `[index_rows, 1]`
/// (candidates `S`). Implemented for every index rank 0..=8: rank 2 requires
/// the dim rule [`MultiplexIndexCols`], the other ranks the gate
/// [`MultiplexIndexRank`], whose messages are the compile errors. The row
/// count is free here: "index rows must not exceed candidate rows" is
/// [`RowsFit`](crate::ops::multiplex::rule::RowsFit) (an assertion, since
/// stable Rust cannot compare two const generics) and, for run-time dims,
/// [`rule`](crate::ops::multiplex::rule()).
#[diagnostic::on_unimplemented(
    message = "multiplex/index-shape: index {Self} does not fit candidates {S}: the index must have shape [rows, 1]",
    label = "invalid index shape for multiplex",
    note = "Paddle: \"The index tensor must be a vector with batchSize x 1\""
)]
pub trait MultiplexIndexShape<S: Shape>: Shape {
    /// The index's row dim: the output's first dim.
    type Rows: DimLike;
    /// The index's dims as the compiler knows them.
    const STATIC_DIMS: StaticDims;
    /// The index's row dim's value.
    fn rows(&self) -> Self::Rows;
}

impl<S: Shape, I0: DimLike, I1: DimLike> MultiplexIndexShape<S> for (I0, I1)
where
    I1: MultiplexIndexCols<S, (I0, I1)>,
{
    type Rows = I0;
    const STATIC_DIMS: StaticDims = &[I0::STATIC, I1::STATIC];
    #[inline(always)]
    fn rows(&self) -> I0 {
        self.0
    }
}

/// Multiplex, shape rule: candidates of shape `Self` (rank at least 2) and an
/// index of shape `I` = `[index_rows, 1]`; the output shape is the index's
/// row dim followed by `Self`'s dims after the first. One impl per candidate
/// rank 0..=8 (for any `I`): rank 0 and 1 require the gate
/// [`MultiplexCandidateRank`], the others [`MultiplexIndexShape`]. The index
/// is the `Self` of those bounds so that the compiler only decides them once
/// it knows the index's type.
#[diagnostic::on_unimplemented(
    message = "multiplex/candidate-rank: candidates {Self} with index {I}: candidates need rank >= 2 and the index must have shape [rows, 1]",
    label = "invalid shapes for multiplex",
    note = "Paddle: \"The rank of candidate tensors must be not less than 2\" / \"The index tensor must be a vector with batchSize x 1\""
)]
pub trait MultiplexShapes<I: Shape>: Shape {
    /// The output shape's value.
    fn output(candidates: &Self, index: &I) -> Self::Output;
    /// The output shape: `[index rows] + Self[1..]`.
    type Output: Shape;
    /// The candidates' dims as the compiler knows them.
    const CANDIDATE_DIMS: StaticDims;
    /// The index's dims as the compiler knows them.
    const INDEX_DIMS: StaticDims;
}

/// Multiplex: the candidate shape's rank as a type of its own (one unit
/// struct per rank, generated), the `Self` type of [`MultiplexByRank`]. With
/// the per-rank impls on types that do not look alike, rustc lists none of
/// them in a compile error.
pub trait MultiplexRankOf: Shape {
    /// The rank's marker type.
    type Rank;
}

/// Multiplex, per-rank form of [`MultiplexShapes`] (see there), generated for
/// candidate ranks 0..=8. Its impls for ranks 0 and 1 are
/// `do_not_recommend`, so this trait's message is the candidate-rank rule's.
#[diagnostic::on_unimplemented(
    message = "multiplex/candidate-rank: candidates {S} have rank < 2 (index {I}); the rank of candidate tensors must be at least 2",
    label = "multiplex selects rows: each candidate needs rank >= 2",
    note = "Paddle: \"The rank of candidate tensors must be not less than 2\""
)]
pub trait MultiplexByRank<S: Shape, I: Shape> {
    /// See [`MultiplexShapes::Output`].
    type Output: Shape;
    /// See [`MultiplexShapes::CANDIDATE_DIMS`].
    const CANDIDATE_DIMS: StaticDims;
    /// See [`MultiplexShapes::INDEX_DIMS`].
    const INDEX_DIMS: StaticDims;
    /// See [`MultiplexShapes::output`].
    fn output(candidates: &S, index: &I) -> Self::Output;
}

type RankOf<S> = <S as MultiplexRankOf>::Rank;

impl<S: MultiplexRankOf, I: Shape> MultiplexShapes<I> for S
where
    RankOf<S>: MultiplexByRank<S, I>,
{
    type Output = <RankOf<S> as MultiplexByRank<S, I>>::Output;
    const CANDIDATE_DIMS: StaticDims = <RankOf<S> as MultiplexByRank<S, I>>::CANDIDATE_DIMS;
    const INDEX_DIMS: StaticDims = <RankOf<S> as MultiplexByRank<S, I>>::INDEX_DIMS;
    #[inline(always)]
    fn output(candidates: &S, index: &I) -> Self::Output {
        <RankOf<S> as MultiplexByRank<S, I>>::output(candidates, index)
    }
}

shapecheck_macros::impl_multiplex_rules!(8);
