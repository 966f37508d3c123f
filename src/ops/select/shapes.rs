//! Select's rule at the type level, one impl per mode over the generated
//! dim rules of [`crate::rules`]: it computes the output's shape type, and
//! its failing bound is the compile error. The run-time rule is
//! [`rule::frame`](super::rule); `conformance/tests/agreement.rs` checks
//! that the two agree.

use super::{NoBroadcast, Numpy, Pdpd, SelectMode};
use crate::rules::{SelectNumpyPair, SelectPdpdInto, SelectSamePair};
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
    message = "select ({Self}): cond {C}, then {T} and else {E} are incompatible",
    label = "see the module docs of `shapecheck::ops::select` for the rule"
)]
pub trait SelectRule<C: Shape, T: Shape, E: Shape>: SelectMode {
    /// The output shape.
    type Output: Shape;
    /// The output shape's value.
    fn output(c: &C, t: &T, e: &E) -> Self::Output;
}

/// A mode whose rule merges then with else, then the result with cond, by
/// a pairwise rule (`$pair`: numpy's broadcast, or none's identity).
macro_rules! pairwise_mode {
    ($mode:ty, $pair:ident) => {
        impl<C: Shape, T: Shape, E: Shape> SelectRule<C, T, E> for $mode
        where
            T: $pair<E, C, T, E>,
            <T as $pair<E, C, T, E>>::Output: $pair<C, C, T, E>,
        {
            type Output = <<T as $pair<E, C, T, E>>::Output as $pair<C, C, T, E>>::Output;
            fn output(c: &C, t: &T, e: &E) -> Self::Output {
                let te = T::output(t, e);
                $pair::output(&te, c)
            }
        }
    };
}

pairwise_mode!(Numpy, SelectNumpyPair);
pairwise_mode!(NoBroadcast, SelectSamePair);

impl<C: Shape, T: Shape, E: Shape, const AXIS: isize> SelectRule<C, T, E> for Pdpd<AXIS>
where
    E: SelectPdpdInto<T, C, T, E, AXIS>,
    C: SelectPdpdInto<T, C, T, E, AXIS>,
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
