//! Matmul's rule at the type level, for the compile errors only: the sizes
//! are the run-time rule's ([`rule::frame`](super::rule::frame), which the
//! static path calls at compile time).
//!
//! [`MatmulShapes`] is the one public trait: "x of shape `Self` and y of
//! shape `Y` meet under matmul with the transposes `TX`, `TY`", naming the
//! output shape ([`MatmulOutput`]). It has one impl per rank of x (so that
//! generic code is asked for it, not for a hidden trait), each over
//! [`MatmulWhole`], one blanket impl over the hidden [`MatmulRule`], whose
//! impls, one per pair of ranks 0..=6
//! (`shapecheck_macros::impl_matmul_rules!`, `macros/src/matmul.rs`), place
//! the dims (rustc lists the impls of a public trait whose where-clause
//! failed, not a hidden one's); their bounds are the two dim rules, each
//! one blanket impl over the [dim algebra](crate::algebra) carrying its
//! message:
//! - the inner dims, through [`MatmulInnerLink`] (its `Self`, a pair of
//!   markers, picks the one of four [`SameDim`] rules whose message says
//!   where each inner dim is);
//! - then each aligned pair of batch dims, [`MatmulBatchDim`] over
//!   [`Broadcast`], as links of a chain ([`MatmulBatchLink`]) that starts
//!   once the inner dims have met: one error, for the first rule broken
//!   (the run-time rule's order).
//!
//! A 0-d operand's impl names its output through [`MatmulRankGate`],
//! implemented by nothing; a rank past 6 has no impl ([`MatmulRule`]'s own
//! message). The element types are [`MatmulElements`]; the plain forms'
//! "no run-time dim to check" is [`MatmulNoCheck`] (a rank-2 operand's
//! rows or columns, which the rule never compares, may be any dim).

use super::{NoTrans, Trans, Transpose};
use crate::algebra::{Broadcast, Internal, SameDim};
use crate::dim::{DimLike, StaticDim};
use crate::dims::Dims;
use crate::element::{Element, SameElement};
use crate::shape::Shape;

/// x of shape `Self` and y of shape `Y` meet under matmul with the
/// transposes `TX` and `TY` ([`NoTrans`] or [`Trans`]); `Output` is the
/// result's shape (Paddle's rule, see the [module docs](super)).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::{MatmulOutput, MatmulShapes, NoTrans};
/// /// `x · w` for any x that meets `w` (the output named from the bound)
/// fn layer<S: StaticShape + MatmulShapes<shape![4, 2]>>(
///     x: &Tensor<f32, S>,
///     w: &Tensor<f32, shape![4, 2]>,
/// ) -> Tensor<f32, MatmulOutput<S, shape![4, 2]>, Vec<f32>>
/// where
///     MatmulOutput<S, shape![4, 2]>: StaticShape,
/// {
///     x.matmul(w).to_heap()
/// }
/// let out = layer(&tensor![[1.0f32, 0.0, 0.0, 1.0]], &Tensor::full(0.5));
/// assert_eq!(out.as_slice(), &[1.0, 1.0]);
/// let _: &Tensor<f32, shape![1, 2], Vec<f32>> = &out;
/// # let _ = NoTrans;
/// ```
#[diagnostic::on_unimplemented(
    message = "matmul/rank: x {Self} and y {Y}: no matmul rule is known for these shapes (the static path's takes ranks 1 to 6)",
    label = "x {Self} and y {Y} do not meet under matmul",
    note = "in generic code, add the bound `{Self}: MatmulShapes<{Y}, {TX}, {TY}>` (its output is `MatmulOutput<{Self}, {Y}, {TX}, {TY}>`)"
)]
pub trait MatmulShapes<Y: Shape, TX = NoTrans, TY = NoTrans>: Shape {
    /// The output's shape.
    type Output: Shape;
    /// The output's dims as values (for run-time dims, once the rule held).
    #[doc(hidden)]
    fn output(&self, y: &Y) -> Self::Output;
}

/// One impl per rank of x (0 to 6; 0 written out below), each requiring the whole rule
/// ([`MatmulWhole`]): a shape generic over its rank matches none of them,
/// so generic code that forgets its bound is asked for `MatmulShapes`
/// itself, not for a hidden trait; a concrete x matches one, and a failing
/// dim rule is reported by its own message.
macro_rules! matmul_shapes_per_rank {
    ($($d:ident)*) => {
        impl<$($d: DimLike,)* Y: Shape, TX, TY> MatmulShapes<Y, TX, TY> for ($($d,)*)
        where
            ($($d,)*): MatmulWhole<Y, TX, TY>,
        {
            type Output = <($($d,)*) as MatmulWhole<Y, TX, TY>>::Output;
            #[inline(always)]
            fn output(&self, y: &Y) -> Self::Output {
                MatmulWhole::output(self, y)
            }
        }
    };
}

/// The whole rule, [`MatmulRule`], behind one blanket impl, between the
/// per-rank impls of [`MatmulShapes`] and the per-rank-pair impls of
/// `MatmulRule`. It keeps a concrete mismatch to its dim rule's error:
/// with the per-rank impls requiring `MatmulRule` directly, rustc added
/// the list of `MatmulShapes`' 7 impls to every failing dim rule
/// (`ui-tests/matmul/fail/inner_dim`, 10 lines, grew to 18).
#[doc(hidden)]
pub trait MatmulWhole<Y, TX, TY> {
    /// The output's shape.
    type Output: Shape;
    /// Its value.
    fn output(&self, y: &Y) -> Self::Output;
}

impl<X: MatmulRule<Y, TX, TY>, Y, TX, TY> MatmulWhole<Y, TX, TY> for X {
    type Output = X::Output;
    #[inline(always)]
    fn output(&self, y: &Y) -> X::Output {
        MatmulRule::output(self, y)
    }
}
// A 0-d x: the rank rule's gate, written here and not through the macro.
impl<Y: Shape, TX, TY> MatmulShapes<Y, TX, TY> for ()
where
    (): MatmulWhole<Y, TX, TY>,
{
    type Output = <() as MatmulWhole<Y, TX, TY>>::Output;
    #[inline(always)]
    fn output(&self, y: &Y) -> Self::Output {
        MatmulWhole::output(self, y)
    }
}
matmul_shapes_per_rank!(X0);
matmul_shapes_per_rank!(X0 X1);
matmul_shapes_per_rank!(X0 X1 X2);
matmul_shapes_per_rank!(X0 X1 X2 X3);
matmul_shapes_per_rank!(X0 X1 X2 X3 X4);
matmul_shapes_per_rank!(X0 X1 X2 X3 X4 X5);

/// [`MatmulShapes`]'s per-rank impls, generated (a trait of its own, not
/// shown: rustc lists no impls of it when a dim rule fails).
#[diagnostic::on_unimplemented(
    message = "matmul/rank: x {Self} and y {Y}: the static path's matmul takes operands of rank 1 to 6",
    label = "x {Self} and y {Y} do not meet under matmul"
)]
#[doc(hidden)]
pub trait MatmulRule<Y, TX, TY> {
    /// The output's shape.
    type Output: Shape;
    /// Its value.
    fn output(&self, y: &Y) -> Self::Output;
}

/// The output shape of `matmul` of x of shape `X` and y of shape `Y`.
pub type MatmulOutput<X, Y, TX = NoTrans, TY = NoTrans> = <X as MatmulShapes<Y, TX, TY>>::Output;

/// Matmul's rank rule, a gate implemented by nothing: the impls of
/// [`MatmulRule`] for a 0-d operand name their output through it.
#[diagnostic::on_unimplemented(
    message = "matmul/rank: x {X} and y {Y}: both operands need rank 1 or more (a 0-d tensor has no dim to multiply along)",
    label = "a 0-d operand",
    note = "Paddle's matmul takes vectors and matrices (and batches of them); multiply by a number with `*`"
)]
#[doc(hidden)]
pub trait MatmulRankGate<X, Y> {
    /// The output (none: the gate never holds).
    type Output: Shape;
    /// Its value.
    fn output() -> Self::Output;
}

/// Matmul's inner-dim rule, reached with `Self` the pair of markers saying
/// where x's and y's inner dims are (x: `NoTrans` its last, `Trans` its
/// second-to-last; y: `NoTrans` its second-to-last, `Trans` its last), each
/// impl requiring the rule whose message says so.
#[doc(hidden)]
pub trait MatmulInnerLink<Kx, Ky, X, Y> {
    /// The inner dims' common dim once the rule holds (no type when it
    /// fails): the batch dims' chain starts from it.
    type Ok;
}

impl<Kx: InnerLastSecond<Ky, X, Y>, Ky, X, Y> MatmulInnerLink<Kx, Ky, X, Y> for (NoTrans, NoTrans) {
    type Ok = <Kx as InnerLastSecond<Ky, X, Y>>::Ok;
}
impl<Kx: InnerLastLast<Ky, X, Y>, Ky, X, Y> MatmulInnerLink<Kx, Ky, X, Y> for (NoTrans, Trans) {
    type Ok = <Kx as InnerLastLast<Ky, X, Y>>::Ok;
}
impl<Kx: InnerSecondSecond<Ky, X, Y>, Ky, X, Y> MatmulInnerLink<Kx, Ky, X, Y> for (Trans, NoTrans) {
    type Ok = <Kx as InnerSecondSecond<Ky, X, Y>>::Ok;
}
impl<Kx: InnerSecondLast<Ky, X, Y>, Ky, X, Y> MatmulInnerLink<Kx, Ky, X, Y> for (Trans, Trans) {
    type Ok = <Kx as InnerSecondLast<Ky, X, Y>>::Ok;
}

/// [`MatmulBatchDim`] of `A` and `B` as a link of a chain: `Self` is the
/// previous link's output (the inner rule's `Ok` for the first), so that
/// when a rule fails the later links have an unknown `Self` and only the
/// first failure is reported.
#[doc(hidden)]
pub trait MatmulBatchLink<A, B, X, Y> {
    /// The output's batch dim.
    type Out: DimLike;
    /// Its value.
    fn merge(a: A, b: B) -> Self::Out;
}

impl<P, A: MatmulBatchDim<B, X, Y>, B, X, Y> MatmulBatchLink<A, B, X, Y> for P {
    type Out = A::Out;
    #[inline(always)]
    fn merge(a: A, b: B) -> A::Out {
        a.merge(b)
    }
}

/// Matmul, inner dims: x's last dim (`Self`) against y's second-to-last.
#[diagnostic::on_unimplemented(
    message = "matmul/inner: x {X} and y {Y}: x's last dim {Self} must equal y's second-to-last {Ky}",
    label = "{Self} and {Ky} differ",
    note = "Paddle's matmul multiplies x [.., M, K] by y [.., K, N]; a transpose marker (`matmul_t`) swaps an operand's last two dims"
)]
#[doc(hidden)]
pub trait InnerLastSecond<Ky, X, Y> {
    /// The common dim (the algebra's): what the batch dims' chain waits for.
    type Ok;
}
#[diagnostic::do_not_recommend]
impl<Kx: SameDim<Ky>, Ky: DimLike, X, Y> InnerLastSecond<Ky, X, Y> for Kx {
    type Ok = <Kx as SameDim<Ky>>::Out;
}

/// Matmul, inner dims: x's last dim (`Self`) against y's last (y transposed, or a vector).
#[diagnostic::on_unimplemented(
    message = "matmul/inner: x {X} and y {Y}: x's last dim {Self} must equal y's last {Ky}",
    label = "{Self} and {Ky} differ",
    note = "y is transposed (or a vector): its last dim is the one x's inner dim meets"
)]
#[doc(hidden)]
pub trait InnerLastLast<Ky, X, Y> {
    /// The common dim (the algebra's): what the batch dims' chain waits for.
    type Ok;
}
#[diagnostic::do_not_recommend]
impl<Kx: SameDim<Ky>, Ky: DimLike, X, Y> InnerLastLast<Ky, X, Y> for Kx {
    type Ok = <Kx as SameDim<Ky>>::Out;
}

/// Matmul, inner dims: x's second-to-last dim (`Self`, x transposed) against y's second-to-last.
#[diagnostic::on_unimplemented(
    message = "matmul/inner: x {X} and y {Y}: x's second-to-last dim {Self} (x is transposed) must equal y's second-to-last {Ky}",
    label = "{Self} and {Ky} differ",
    note = "x is transposed: its second-to-last dim is the one y's inner dim meets"
)]
#[doc(hidden)]
pub trait InnerSecondSecond<Ky, X, Y> {
    /// The common dim (the algebra's): what the batch dims' chain waits for.
    type Ok;
}
#[diagnostic::do_not_recommend]
impl<Kx: SameDim<Ky>, Ky: DimLike, X, Y> InnerSecondSecond<Ky, X, Y> for Kx {
    type Ok = <Kx as SameDim<Ky>>::Out;
}

/// Matmul, inner dims: x's second-to-last dim (`Self`) against y's last (both transposed).
#[diagnostic::on_unimplemented(
    message = "matmul/inner: x {X} and y {Y}: x's second-to-last dim {Self} must equal y's last {Ky} (both are transposed)",
    label = "{Self} and {Ky} differ",
    note = "both operands are transposed: x's second-to-last dim meets y's last"
)]
#[doc(hidden)]
pub trait InnerSecondLast<Ky, X, Y> {
    /// The common dim (the algebra's): what the batch dims' chain waits for.
    type Ok;
}
#[diagnostic::do_not_recommend]
impl<Kx: SameDim<Ky>, Ky: DimLike, X, Y> InnerSecondLast<Ky, X, Y> for Kx {
    type Ok = <Kx as SameDim<Ky>>::Out;
}

/// Matmul, batch dims: an aligned pair of x's and y's batch dims broadcasts.
#[diagnostic::on_unimplemented(
    message = "matmul/batch: x {X} and y {Y}: batch dims {Self} and {Other} differ and neither is 1",
    label = "{Self} and {Other} conflict",
    note = "the dims before the last two broadcast as numpy's: right-aligned, each pair equal or one of them 1"
)]
#[doc(hidden)]
pub trait MatmulBatchDim<Other, X, Y>: DimLike {
    /// The output's batch dim.
    type Out: DimLike;
    /// Its value.
    fn merge(self, other: Other) -> Self::Out;
}

/// The algebra's two-way [`Broadcast`].
#[diagnostic::do_not_recommend]
impl<L: DimLike + Broadcast<R>, R: DimLike, X, Y> MatmulBatchDim<R, X, Y> for L {
    type Out = <L as Broadcast<R>>::Broadcast;
    #[inline(always)]
    fn merge(self, other: R) -> <L as Broadcast<R>>::Broadcast {
        self.broadcast(other, Internal(()))
    }
}

/// Matmul's element rule: x holds `Self`, y holds `TY`, one numeric type.
#[diagnostic::on_unimplemented(
    message = "matmul/element-type: x holds {Self} and y holds {TY}: matmul needs one numeric element type for both",
    label = "x of {Self} times y of {TY}: convert one first (Paddle takes float32, float64, int32, int64)"
)]
#[doc(hidden)]
pub trait MatmulElements<TY>: Element {
    /// y's elements as `Self`s (the identity).
    fn same(y: &[TY]) -> &[Self];
}

/// One impl, generic over y's type (so that rustc does not infer y's type
/// from it): y's holds `Self` through [`SameElement`].
#[diagnostic::do_not_recommend]
impl<T: Element, TY: SameElement<T>> MatmulElements<TY> for T {
    #[inline(always)]
    fn same(y: &[TY]) -> &[T] {
        TY::same(y)
    }
}

/// The plain forms' rule for one operand: every dim the rule compares is
/// static (the inner dim and the batch dims), so that nothing is left to
/// check when it runs. `K` is the marker whose [`Transpose::Trail`] is the
/// operand's inner dim (x: its own marker; y: its marker flipped,
/// [`Transpose::Flip`]). The dim that passes through untouched (x's rows
/// M, y's columns N, of a rank-2 operand) may be any dim: a generic batch
/// `B: DimLike`, a `Dyn`, a brand; the plan is then made when it runs (it
/// cannot fail), a constant otherwise.
#[diagnostic::on_unimplemented(
    message = "matmul/run-time-dim: an operand of shape {Self} has a run-time inner or batch dim, which the plain form cannot check",
    label = "call `try_matmul` here: it checks run-time dims when it runs and returns a Result"
)]
#[doc(hidden)]
pub trait MatmulNoCheck<K>: Shape {
    /// The dims when every one is static (the plan is then a constant).
    const PLAN_DIMS: Option<Dims>;
}

/// `d` as [`Dims`] in a constant (`None` past the rank limit).
const fn static_dims(d: &[usize]) -> Option<Dims> {
    match Dims::new(d) {
        Ok(v) => Some(v),
        Err(_) => None,
    }
}

/// A 0-d operand (its rule is the rank gate's).
#[diagnostic::do_not_recommend]
impl<K> MatmulNoCheck<K> for () {
    const PLAN_DIMS: Option<Dims> = static_dims(&[]);
}

/// A vector: its one dim is its inner dim.
#[diagnostic::do_not_recommend]
impl<A: StaticDim, K> MatmulNoCheck<K> for (A,) {
    const PLAN_DIMS: Option<Dims> = static_dims(&[A::SIZE]);
}

/// A matrix: its inner dim static, the other any dim.
#[diagnostic::do_not_recommend]
impl<A: DimLike, B: DimLike, K: Transpose> MatmulNoCheck<K> for (A, B)
where
    K::Trail<A, B>: StaticDim,
{
    const PLAN_DIMS: Option<Dims> = match (A::STATIC, B::STATIC) {
        (Some(a), Some(b)) => static_dims(&[a, b]),
        _ => None,
    };
}

/// A batch of matrices: every dim static.
#[diagnostic::do_not_recommend]
impl<A: StaticDim, B: StaticDim, C: StaticDim, K> MatmulNoCheck<K> for (A, B, C) {
    const PLAN_DIMS: Option<Dims> = static_dims(&[A::SIZE, B::SIZE, C::SIZE]);
}

/// A batch of matrices: every dim static.
#[diagnostic::do_not_recommend]
impl<A: StaticDim, B: StaticDim, C: StaticDim, D: StaticDim, K> MatmulNoCheck<K> for (A, B, C, D) {
    const PLAN_DIMS: Option<Dims> = static_dims(&[A::SIZE, B::SIZE, C::SIZE, D::SIZE]);
}

/// A batch of matrices: every dim static.
#[diagnostic::do_not_recommend]
impl<A: StaticDim, B: StaticDim, C: StaticDim, D: StaticDim, E: StaticDim, K> MatmulNoCheck<K>
    for (A, B, C, D, E)
{
    const PLAN_DIMS: Option<Dims> = static_dims(&[A::SIZE, B::SIZE, C::SIZE, D::SIZE, E::SIZE]);
}

/// A batch of matrices: every dim static.
#[diagnostic::do_not_recommend]
impl<A: StaticDim, B: StaticDim, C: StaticDim, D: StaticDim, E: StaticDim, F: StaticDim, K>
    MatmulNoCheck<K> for (A, B, C, D, E, F)
{
    const PLAN_DIMS: Option<Dims> =
        static_dims(&[A::SIZE, B::SIZE, C::SIZE, D::SIZE, E::SIZE, F::SIZE]);
}

/// Ranks 7 and 8: every dim static (no matmul rule takes them; every
/// [`StaticShape`](crate::StaticShape) promises this trait).
#[diagnostic::do_not_recommend]
impl<
        A: StaticDim,
        B: StaticDim,
        C: StaticDim,
        D: StaticDim,
        E: StaticDim,
        F: StaticDim,
        G: StaticDim,
        K,
    > MatmulNoCheck<K> for (A, B, C, D, E, F, G)
{
    const PLAN_DIMS: Option<Dims> = static_dims(&[
        A::SIZE,
        B::SIZE,
        C::SIZE,
        D::SIZE,
        E::SIZE,
        F::SIZE,
        G::SIZE,
    ]);
}

/// Rank 8: every dim static.
#[diagnostic::do_not_recommend]
impl<
        A: StaticDim,
        B: StaticDim,
        C: StaticDim,
        D: StaticDim,
        E: StaticDim,
        F: StaticDim,
        G: StaticDim,
        H: StaticDim,
        K,
    > MatmulNoCheck<K> for (A, B, C, D, E, F, G, H)
{
    const PLAN_DIMS: Option<Dims> = static_dims(&[
        A::SIZE,
        B::SIZE,
        C::SIZE,
        D::SIZE,
        E::SIZE,
        F::SIZE,
        G::SIZE,
        H::SIZE,
    ]);
}

// Ranks 0 to 6, each pair (and each pair of markers).
shapecheck_macros::impl_matmul_rules!(6);
