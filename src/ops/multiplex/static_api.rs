//! Multiplex on the static path: shapes as types, the rules as bounds
//! ([`MultiplexShapes`]) and two assertions evaluated at instantiation
//! ([`CandidateCount`], [`RowsFit`]).

use super::bounds::MultiplexShapes;
use super::kernel::{self, static_run, IndexElement};
use super::rule::{rule, MultiplexError, RowsFit};
use crate::storage::{OwnedStorage, ResultStorage};
use crate::{Shape, ShapeError, Storage, StorageMut, Tensor};

/// The "at least 2 candidates" rule for a static candidate count `K`.
///
/// Stable Rust has no `where K >= 2` bound, and enumerating one impl per count
/// is what this API avoids; [`AT_LEAST_TWO`](Self::AT_LEAST_TWO) is an
/// assertion evaluated when [`multiplex`] or [`multiplex_into`] is
/// instantiated with `K`, so `K < 2` fails `cargo build` with
/// `error[E0080]: evaluation panicked: multiplex: needs at least 2 candidate
/// tensors ...` (but passes `cargo check`, which does not instantiate).
pub struct CandidateCount<const K: usize>;

impl<const K: usize> CandidateCount<K> {
    /// Fails const evaluation unless `K >= 2`.
    pub const AT_LEAST_TWO: () = if K < 2 {
        crate::ops::const_fail(Self::TOO_FEW)
    };
    const TOO_FEW: &'static str = "multiplex/candidate-count: needs at least 2 candidate tensors (Paddle: \"multiplex operator should have more than one candidate input tensors\")";
}

/// The output shape type for candidates of shape `S` and an index of shape
/// `IS`: the index's row dim, then `S`'s dims after the first.
pub type MultiplexOut<S, IS> = <S as MultiplexShapes<IS>>::Output;

/// The tensor [`multiplex`] returns for candidates `Tensor<T, S, B>` and an
/// index of shape `IS`: shape [`MultiplexOut<S, IS>`], stored like the
/// candidates (inline for inline or view candidates, on the heap for heap ones).
pub type MultiplexOutput<T, S, IS, B> =
    Tensor<T, MultiplexOut<S, IS>, <B as ResultStorage<T, MultiplexOut<S, IS>>>::Out>;

/// Paddle's `multiplex` on the static path: `out[i] = inputs[index[i]][i]`
/// for every row `i` of the index.
///
/// The shape rules are bounds: one shape `S` of rank >= 2 for all candidates
/// (one type), an index of shape `[index_rows, 1]`
/// ([`MultiplexShapes`]); two are assertions evaluated when the function is
/// instantiated (`cargo build`, not `cargo check`): `K >= 2`
/// ([`CandidateCount`]) and index rows <= candidate rows when both are static
/// ([`RowsFit`]). The output type has the index's rows. [`Dyn`](crate::Dyn)
/// dims are checked at run time (candidates with different run-time dims, an
/// index with more rows), as are the index values, all before anything is
/// written.
pub fn multiplex<T, S, B, I, IS, BI, const K: usize>(
    inputs: &[Tensor<T, S, B>; K],
    index: &Tensor<I, IS, BI>,
) -> Result<MultiplexOutput<T, S, IndexShape<I, IS>, B>, MultiplexError>
where
    T: Copy + Default,
    S: MultiplexShapes<IndexShape<I, IS>>,
    B: ResultStorage<T, MultiplexOut<S, IndexShape<I, IS>>>,
    I: MultiplexIndex<IS>,
    IS: Shape,
    BI: Storage<I>,
{
    let () = CandidateCount::<K>::AT_LEAST_TWO;
    let () = RowsFit::<S, IndexShape<I, IS>>::CHECK;
    new_output::<T, S, B, _, _, _, _>(inputs, &I::view(index))
}

/// The index rule on the element type (`Self`) of an index of shape `IS`:
/// [`IndexElement`], as one blanket impl over the link
/// [`MultiplexIndexLink`]. [`multiplex`] names [`Shape`](Self::Shape) (`IS`)
/// in its return type, so that an index of another element type is
/// reported once, at the call, by [`IndexElement`]'s message.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::multiplex::MultiplexIndex;
/// let index = Tensor::<i64, shape![2, 1]>::from_array([[1], [0]]);
/// let view = <i64 as MultiplexIndex<shape![2, 1]>>::view(&index);
/// assert_eq!(view.as_slice(), &[1, 0]);
/// ```
pub trait MultiplexIndex<IS: Shape>: Copy {
    /// The element type as an [`IndexElement`] (`Self`).
    type Element: IndexElement;
    /// `IS`, once the element type is an [`IndexElement`].
    type Shape: Shape;
    /// A view of `index` with the types above.
    fn view<B: Storage<Self>>(
        index: &Tensor<Self, IS, B>,
    ) -> Tensor<Self::Element, Self::Shape, &[Self::Element]>;
}

/// [`IndexElement`] of `I` as a link with `Self = ()` (any `Self`); see
/// [`MultiplexIndex`].
pub trait MultiplexIndexLink<I: Copy, IS: Shape> {
    /// `I`.
    type Element: IndexElement;
    /// `IS`.
    type Shape: Shape;
    /// A view of `index`.
    fn view<B: Storage<I>>(
        index: &Tensor<I, IS, B>,
    ) -> Tensor<Self::Element, Self::Shape, &[Self::Element]>;
}

impl<P, I: IndexElement, IS: Shape> MultiplexIndexLink<I, IS> for P {
    type Element = I;
    type Shape = IS;
    #[inline(always)]
    fn view<B: Storage<I>>(index: &Tensor<I, IS, B>) -> Tensor<I, IS, &[I]> {
        index.view()
    }
}

impl<I: Copy, IS: Shape> MultiplexIndex<IS> for I
where
    (): MultiplexIndexLink<I, IS>,
{
    type Element = <() as MultiplexIndexLink<I, IS>>::Element;
    type Shape = <() as MultiplexIndexLink<I, IS>>::Shape;
    #[inline(always)]
    fn view<B: Storage<I>>(
        index: &Tensor<I, IS, B>,
    ) -> Tensor<Self::Element, Self::Shape, &[Self::Element]> {
        <() as MultiplexIndexLink<I, IS>>::view(index)
    }
}

/// The index's shape as [`multiplex`] sees it: `IS`, once the index's
/// element type `I` passes [`MultiplexIndex`].
pub type IndexShape<I, IS> = <I as MultiplexIndex<IS>>::Shape;

shapecheck_macros::shared_bounds! {
    where
        T: Copy,
        S: MultiplexShapes<IS>,
        I: IndexElement,
        IS: Shape,
        BI: Storage<I>;

    /// A result tensor in `B`'s result storage, filled by [`static_run`] (every
    /// dim static) or after [`rule()`] (otherwise, so that nothing is allocated
    /// for shapes the rule rejects).
    fn new_output<T, S, B, C, I, IS, BI>(
        inputs: &[Tensor<T, S, C>],
        index: &Tensor<I, IS, BI>,
    ) -> Result<MultiplexOutput<T, S, IS, B>, MultiplexError>
    where
        T: Default,
        B: ResultStorage<T, MultiplexOut<S, IS>>,
        C: Storage<T>,
    {
        type Out<T, S, IS, B> = <B as ResultStorage<T, MultiplexOut<S, IS>>>::Out;
        let first = inputs
            .first()
            .ok_or(MultiplexError::TooFewCandidates { count: 0 })?;
        let filled = |shape| -> Result<MultiplexOutput<T, S, IS, B>, MultiplexError> {
            let data = Out::<T, S, IS, B>::try_filled(&shape, T::default())?;
            Ok(Tensor::from_parts_unchecked(shape, data))
        };
        if S::IS_STATIC && IS::IS_STATIC {
            let mut out = filled(S::output(first.shape(), index.shape()))?;
            static_run(inputs, index, RowsFit::<S, IS>::ROW_LEN, out.as_mut_slice())?;
            return Ok(out);
        }
        super::checked_output(
            inputs,
            index.dims(),
            index.as_slice(),
            |dims| filled(MultiplexOut::<S, IS>::from_dims(dims)?),
            Tensor::as_mut_slice,
        )
    }

    /// [`multiplex`] writing into `out` (any storage: a caller's `&mut [T]` buffer
    /// works without a heap), whose shape type is the output's
    /// ([`MultiplexOut`]): the index's rows, then the candidates' trailing dims.
    /// On any error `out` is left untouched.
    pub fn multiplex_into<T, S, B, I, IS, BI, BO, const K: usize>(
        inputs: &[Tensor<T, S, B>; K],
        index: &Tensor<I, IS, BI>,
        out: &mut Tensor<T, MultiplexOut<S, IS>, BO>,
    ) -> Result<(), MultiplexError>
    where
        B: Storage<T>,
        BO: StorageMut<T>,
    {
        let () = CandidateCount::<K>::AT_LEAST_TWO;
        let () = RowsFit::<S, IS>::CHECK;
        if S::IS_STATIC && IS::IS_STATIC {
            return static_run(inputs, index, RowsFit::<S, IS>::ROW_LEN, out.as_mut_slice());
        }
        let plan = rule(inputs.iter().map(|t| Ok(t.dims())), index.dims())?;
        if plan.dims != out.dims() {
            return Err(ShapeError::OutputShape {
                expected: plan.dims,
                found: out.dims(),
            }
            .into());
        }
        kernel::fill(
            &plan,
            inputs,
            index.dims(),
            index.as_slice(),
            out.as_mut_slice(),
        )
    }

    /// Used by [`multiplex!`](crate::multiplex!): [`multiplex`] over views of the
    /// candidates, the result stored like `first` (on the heap for `Vec`
    /// candidates, inline for inline ones).
    #[doc(hidden)]
    pub fn multiplex_views<T, S, B, I, IS, BI, const K: usize>(
        _first: &Tensor<T, S, B>,
        views: [Tensor<T, S, &[T]>; K],
        index: &Tensor<I, IS, BI>,
    ) -> Result<MultiplexOutput<T, S, IS, B>, MultiplexError>
    where
        T: Default,
        B: ResultStorage<T, MultiplexOut<S, IS>>,
    {
        let () = CandidateCount::<K>::AT_LEAST_TWO;
        let () = RowsFit::<S, IS>::CHECK;
        new_output::<T, S, B, _, _, _, _>(&views, index)
    }
}

/// Multiplex, candidate rule: a candidate (`Self`) has the first candidate's
/// shape `S0`. Implemented only for `S0` itself.
#[diagnostic::on_unimplemented(
    message = "multiplex/candidate-shapes: all candidates must have one shape, but the first is {S0} and this one is {Self}",
    label = "a candidate of shape {Self}",
    note = "Paddle: \"All the candidate tensors must have the same size\""
)]
pub trait SameCandidateShape<S0: Shape>: Shape {
    /// A view of the candidate, typed with the first candidate's shape.
    fn view_as<T: Copy, B: Storage<T>>(t: &Tensor<T, Self, B>) -> Tensor<T, S0, &[T]>;
}

impl<S: Shape> SameCandidateShape<S> for S {
    #[inline(always)]
    fn view_as<T: Copy, B: Storage<T>>(t: &Tensor<T, S, B>) -> Tensor<T, S, &[T]> {
        t.view()
    }
}

/// [`SameCandidateShape`] of a candidate `S` as a link with `Self = ()`
/// (any `Self`): [`same_candidate_shape`] names its `Shape` in the return
/// type (through [`CandidateOf`]), so that rustc reports a failing rule
/// once, at the call, without quoting the function's bounds.
#[doc(hidden)]
pub trait SameCandidateLink<S: Shape, S0> {
    /// `S0`, once the rule holds.
    type Shape: Shape;
    /// See [`SameCandidateShape::view_as`].
    fn view_as<T: Copy, B: Storage<T>>(t: &Tensor<T, S, B>) -> Tensor<T, Self::Shape, &[T]>;
}

impl<P, S: SameCandidateShape<S0>, S0: Shape> SameCandidateLink<S, S0> for P {
    type Shape = S0;
    #[inline(always)]
    fn view_as<T: Copy, B: Storage<T>>(t: &Tensor<T, S, B>) -> Tensor<T, S0, &[T]> {
        S::view_as(t)
    }
}

/// [`SameCandidateShape`] of a candidate (`Self`) through
/// [`SameCandidateLink`], as one blanket impl.
#[doc(hidden)]
pub trait CandidateOf<S0>: Shape {
    /// `S0`, once the rule holds.
    type Shape: Shape;
    /// See [`SameCandidateShape::view_as`].
    fn view_as<T: Copy, B: Storage<T>>(t: &Tensor<T, Self, B>) -> Tensor<T, Self::Shape, &[T]>;
}

impl<S: Shape, S0> CandidateOf<S0> for S
where
    (): SameCandidateLink<S, S0>,
{
    type Shape = <() as SameCandidateLink<S, S0>>::Shape;
    #[inline(always)]
    fn view_as<T: Copy, B: Storage<T>>(t: &Tensor<T, S, B>) -> Tensor<T, Self::Shape, &[T]> {
        <() as SameCandidateLink<S, S0>>::view_as(t)
    }
}

/// Used by [`multiplex!`](crate::multiplex!): a view of `candidate`, checked
/// to have the shape of `first`. Views share one storage type whatever the
/// shape, so a candidate of another shape is reported by the rule's own
/// message and not as a type mismatch of the array.
#[doc(hidden)]
#[inline(always)]
pub fn same_candidate_shape<'a, T, S0, S2, B0, B2>(
    _first: &Tensor<T, S0, B0>,
    candidate: &'a Tensor<T, S2, B2>,
) -> Tensor<T, <S2 as CandidateOf<S0>>::Shape, &'a [T]>
where
    T: Copy,
    S0: Shape,
    S2: CandidateOf<S0>,
    B0: Storage<T>,
    B2: Storage<T>,
{
    S2::view_as(candidate)
}

/// `multiplex!(index; a, b, c, ...)`: Paddle's multiplex with the candidates
/// listed, under the rules of [`multiplex`] (the output has the index's rows):
/// - fewer than two candidates: `multiplex!: needs at least 2 candidate
///   tensors`, under `cargo check` too;
/// - candidates of different shapes: `multiplex: all candidates must have one
///   shape, but the first is ... and this one is ...`, under `cargo check` too;
/// - the rank and index-shape rules of [`multiplex`] (bounds), and its
///   index-rows rule ([`RowsFit`], reported by `cargo build`).
///
/// It returns what [`multiplex`] returns (a `Result`: index values are data).
///
/// ```
/// use shapecheck::prelude::*;
/// let a = Tensor::<f32, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]]);
/// let b = Tensor::<f32, shape![2, 2]>::from_array([[5.0, 6.0], [7.0, 8.0]]);
/// let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
/// let out = shapecheck::multiplex!(index; a, b).unwrap();
/// assert_eq!(out.as_slice(), &[5.0, 6.0, 3.0, 4.0]);
/// // one index row: the output has one row
/// let first = Tensor::<i32, shape![1, 1]>::from_array([[1]]);
/// let out: Tensor<f32, shape![1, 2]> = shapecheck::multiplex!(first; a, b).unwrap();
/// assert_eq!(out.as_slice(), &[5.0, 6.0]);
/// ```
/// Candidates of two shapes do not compile (`ui-tests/multiplex/fail/macro_candidate_shapes.rs`):
/// ```compile_fail
/// use shapecheck::prelude::*;
/// let a = Tensor::<f32, shape![2, 2]>::full(1.0);
/// let b = Tensor::<f32, shape![2, 3]>::full(2.0);
/// let index = Tensor::<i32, shape![2, 1]>::full(0);
/// let _ = shapecheck::multiplex!(index; a, b);
/// ```
#[macro_export]
macro_rules! multiplex {
    ($index:expr ; $first:expr, $($rest:expr),+ $(,)?) => {{
        let first = &$first;
        $crate::ops::multiplex::multiplex_views(
            first,
            [first.view(), $($crate::ops::multiplex::same_candidate_shape(first, &$rest)),+],
            &$index,
        )
    }};
    ($index:expr ; $($few:expr),* $(,)?) => {
        ::core::compile_error!(
            "multiplex/candidate-count: multiplex! needs at least 2 candidate tensors (Paddle: \"multiplex operator should have more than one candidate input tensors\")"
        )
    };
}
