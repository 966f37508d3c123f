//! Select's rule at the type level, one impl per mode over the generated
//! dim rules of [`crate::rules`]: it computes the output's shape type, and
//! its failing bound is the compile error. The run-time rule is
//! [`rule::frame`](super::rule); `conformance/tests/agreement.rs` checks
//! that the two agree.

use super::{CondElement, ElseElement, NoBroadcast, Numpy, Pdpd, SelectMode};
use crate::ops::elements::{ElementRule, Elements};
use crate::rules::{SelectNumpyPair, SelectPdpdAxis, SelectPdpdSource, SelectSamePair};
use crate::shape::Shape;
use crate::storage::ResultStorage;
use crate::tensor::Tensor;

/// Select, shape rule of one mode (`Self`): cond `C`, then `T` and else `E`.
///
/// Implemented once per mode, over the generated rules of [`crate::rules`]; a
/// rejected combination is reported by the failing dim rule, whose message
/// names the three shapes. The rule hangs on the mode (rather than on cond's
/// shape) so that the compiler waits to know the mode before choosing it:
/// otherwise, when only one mode accepts the shapes, it would infer that mode
/// and report a type mismatch on the mode argument instead of the shape error.
#[diagnostic::on_unimplemented(
    message = "select: cond {C}, then {T} and else {E} are incompatible under {Self}",
    label = "see the module docs of `shapecheck::ops::select` for the rule"
)]
pub trait SelectRule<C: Shape, T: Shape, E: Shape>: SelectMode {
    /// The output shape.
    type Output: Shape;
    /// The output shape's value.
    fn output(c: &C, t: &T, e: &E) -> Self::Output;
}

/// One merge of a pairwise mode (`$pair` of `A` with `B`: numpy's
/// broadcast, or none's identity) as a link with `Self = ()`: the root of a
/// failing merge is then this blanket impl, and rustc lists no impls.
macro_rules! merge_link {
    ($name:ident, $pair:ident) => {
        /// One merge of a pairwise select mode (see `SelectRule`'s impls).
        pub trait $name<A, B, C, T, E> {
            /// The merged shape.
            type Output: Shape;
            /// Its value.
            fn output(a: &A, b: &B) -> Self::Output;
        }
        impl<P, A: $pair<B, C, T, E>, B: Shape, C, T, E> $name<A, B, C, T, E> for P {
            type Output = <A as $pair<B, C, T, E>>::Output;
            #[inline(always)]
            fn output(a: &A, b: &B) -> Self::Output {
                $pair::output(a, b)
            }
        }
    };
}

merge_link!(SelectNumpyMerge, SelectNumpyPair);
merge_link!(SelectSameMerge, SelectSamePair);

/// A mode whose rule merges then with else, then the result with cond, by
/// a pairwise rule (`$merge`: numpy's broadcast, or none's identity).
macro_rules! pairwise_mode {
    ($mode:ty, $merge:ident) => {
        impl<C: Shape, T: Shape, E: Shape> SelectRule<C, T, E> for $mode
        where
            (): $merge<T, E, C, T, E>,
            (): $merge<<() as $merge<T, E, C, T, E>>::Output, C, C, T, E>,
        {
            type Output = <() as $merge<<() as $merge<T, E, C, T, E>>::Output, C, C, T, E>>::Output;
            fn output(c: &C, t: &T, e: &E) -> Self::Output {
                let te = <() as $merge<T, E, C, T, E>>::output(t, e);
                <() as $merge<_, C, C, T, E>>::output(&te, c)
            }
        }
    };
}

pairwise_mode!(Numpy, SelectNumpyMerge);
pairwise_mode!(NoBroadcast, SelectSameMerge);

/// The checks of pdpd as one chain (axis, then else, then cond): only the
/// first failing one is reported.
type PdpdAxisOk<C, T, E, const AXIS: isize> = <T as SelectPdpdAxis<C, E, AXIS>>::Out;
type PdpdElseOk<C, T, E, const AXIS: isize> =
    <PdpdAxisOk<C, T, E, AXIS> as SelectPdpdSource<E, T, C, T, E, AXIS>>::Out;

impl<C: Shape, T: Shape, E: Shape, const AXIS: isize> SelectRule<C, T, E> for Pdpd<AXIS>
where
    T: SelectPdpdAxis<C, E, AXIS>,
    PdpdAxisOk<C, T, E, AXIS>: SelectPdpdSource<E, T, C, T, E, AXIS>,
    PdpdElseOk<C, T, E, AXIS>: SelectPdpdSource<C, T, C, T, E, AXIS>,
{
    type Output = T;
    fn output(_c: &C, t: &T, _e: &E) -> T {
        *t
    }
}

/// Select, shape rule: cond (`Self`), then `T` and else `E` under mode `M`.
/// One blanket impl, through the mode's [`SelectRule`].
pub trait SelectShapes<T: Shape, E: Shape, M: SelectMode>:
    Shape + crate::rules::sealed::Sealed
{
    /// The output shape.
    type Output: Shape;
    /// The output shape's value.
    fn output(c: &Self, t: &T, e: &E) -> Self::Output;
}

impl<C: Shape, T: Shape, E: Shape, M: SelectRule<C, T, E>> SelectShapes<T, E, M> for C {
    type Output = <M as SelectRule<C, T, E>>::Output;
    #[inline(always)]
    fn output(c: &C, t: &T, e: &E) -> Self::Output {
        M::output(c, t, e)
    }
}

/// The output shape type of `select(cond: C, then: T, else: E)` under mode `M`.
pub type SelectOutput<C, T, E, M> = <C as SelectShapes<T, E, M>>::Output;

/// The tensor [`select`](super::select) returns: [`SelectOutput`], stored as
/// its shape says ([`ResultStorage`]; a `Vec` `then` keeps it on the heap).
pub type SelectTensor<T, C, ST, SE, M, BT> = Tensor<
    T,
    SelectOutput<C, ST, SE, M>,
    <BT as ResultStorage<T, SelectOutput<C, ST, SE, M>>>::Out,
>;

/// The rule "cond holds `bool`s" ([`CondElement`]), for
/// [`Elements`](crate::ops::elements::Elements).
#[derive(Clone, Copy, Debug, Default)]
pub struct CondRule;
/// The rule "else holds then's element type" ([`ElseElement`]), for
/// [`Elements`](crate::ops::elements::Elements).
#[derive(Clone, Copy, Debug, Default)]
pub struct ElseRule;

impl<CE: CondElement> ElementRule<CondRule, bool> for CE {
    #[inline(always)]
    fn cast(data: &[CE]) -> &[bool] {
        CE::as_bools(data)
    }
}

impl<T, E: ElseElement<T>> ElementRule<ElseRule, T> for E {
    #[inline(always)]
    fn cast(data: &[E]) -> &[T] {
        E::as_same(data)
    }
}

/// cond's shape `C` as [`select`](super::select) sees it, once its element
/// type `CE` passes [`CondElement`].
pub type CondShape<CE, C> = <CE as Elements<bool, CondRule, C>>::Shape;
/// else's shape `SE` as [`select`](super::select) sees it, once its element
/// type `E` passes [`ElseElement<T>`].
pub type ElseShape<E, T, SE> = <E as Elements<T, ElseRule, SE>>::Shape;
