//! The static path: [`select`], [`try_select`] and their `_into` forms.
//!
//! Every form calls the kernel with a walk from the one rule
//! ([`super::rule::frame`]): a constant for all-static shapes, computed when
//! the op runs for shapes with `Dyn` dims (the `try_` forms).

use super::bounds::{
    CondRule, CondShape, ElseRule, ElseShape, SelectOutput, SelectShapes, SelectTensor,
};
use super::kernel::{self, StaticWalk};
use super::{rule, CondElement, ElseElement, SelectError, SelectMode};
use crate::ops::elements::Elements;
use crate::shape::{Shape, StaticShape};
use crate::storage::{OwnedStorage, ResultStorage, Storage, StorageMut};
use crate::tensor::Tensor;

/// `cond ? then : else` element by element, under the broadcast mode `mode`
/// ([`NoBroadcast`](super::NoBroadcast), [`Numpy`](super::Numpy) or [`Pdpd<AXIS>`](super::Pdpd)); see the
/// [module docs](crate::ops::select) for the rule.
///
/// Every shape static: a combination the mode rejects, a `cond` that is not
/// `bool`, or then and else of different element types is a compile error,
/// and the call cannot fail. The result is inline (a `Vec` if `then` is one).
///
/// The element rules are reached through [`Elements`] (cond's and
/// else's shapes in the result's type are [`CondShape`] and [`ElseShape`],
/// that is `C` and `SE`), so that a wrong element type is one short error.
#[allow(clippy::type_complexity)]
pub fn select<CE, C, BC, T, ST, BT, E, SE, BE, M>(
    cond: &Tensor<CE, C, BC>,
    then: &Tensor<T, ST, BT>,
    els: &Tensor<E, SE, BE>,
    mode: M,
) -> SelectTensor<T, CondShape<CE, C>, ST, ElseShape<E, T, SE>, M, BT>
where
    CE: Elements<bool, CondRule, C>,
    C: StaticShape,
    CondShape<CE, C>: StaticShape + SelectShapes<ST, ElseShape<E, T, SE>, M>,
    BC: Storage<CE>,
    T: Copy + Default + 'static,
    ST: StaticShape,
    BT: ResultStorage<T, SelectOutput<CondShape<CE, C>, ST, ElseShape<E, T, SE>, M>>,
    E: Elements<T, ElseRule, SE>,
    SE: StaticShape,
    ElseShape<E, T, SE>: StaticShape,
    BE: Storage<E>,
    M: SelectMode,
{
    let (cond, els) = (CE::view(cond), E::view(els));
    let shape = CondShape::<CE, C>::output(cond.shape(), then.shape(), els.shape());
    let mut out = Tensor::from_parts_unchecked(shape, BT::Out::filled(&shape, T::default()));
    select_into(&cond, then, &els, mode, &mut out);
    out
}

/// [`select`] writing into `out` (any storage, a caller's buffer included: no
/// heap needed). Every shape static; the call cannot fail.
#[inline]
pub fn select_into<CE, C, BC, T, ST, BT, E, SE, BE, M, BO>(
    cond: &Tensor<CE, C, BC>,
    then: &Tensor<T, ST, BT>,
    els: &Tensor<E, SE, BE>,
    _mode: M,
    out: &mut Tensor<T, SelectOutput<C, ST, SE, M>, BO>,
) where
    CE: CondElement,
    C: SelectShapes<ST, SE, M>,
    BC: Storage<CE>,
    T: Copy,
    BT: Storage<T>,
    E: ElseElement<T>,
    BE: Storage<E>,
    M: SelectMode,
    C: StaticShape,
    ST: StaticShape,
    SE: StaticShape,
    BO: StorageMut<T>,
{
    // the walk is a constant of the shape types, and `out` has the output's
    // shape (its type says so): nothing can fail
    crate::kernel::select(
        &StaticWalk::<C, ST, SE, M>::WALK,
        CE::as_bools(cond.as_slice()),
        then.as_slice(),
        E::as_same(els.as_slice()),
        out.as_mut_slice(),
    );
}

/// [`select`] for shapes with run-time ([`Dyn`](crate::Dyn)) dims: the static
/// dims are checked by the compiler, the rest when it runs, by the same
/// rule as the dynamic path. The result is a `Vec` if its shape has a `Dyn`
/// dim (or `then` is a `Vec`), inline otherwise ([`crate::storage`]).
pub fn try_select<CE, C, BC, T, ST, BT, E, SE, BE, M>(
    cond: &Tensor<CE, C, BC>,
    then: &Tensor<T, ST, BT>,
    els: &Tensor<E, SE, BE>,
    mode: M,
) -> Result<SelectTensor<T, C, ST, SE, M, BT>, SelectError>
where
    CE: CondElement,
    C: SelectShapes<ST, SE, M>,
    BC: Storage<CE>,
    T: Copy,
    BT: Storage<T>,
    E: ElseElement<T>,
    BE: Storage<E>,
    M: SelectMode,
    T: Default,
    ST: Shape,
    BT: ResultStorage<T, SelectOutput<C, ST, SE, M>>,
    SE: Shape,
{
    // the rule first: nothing is allocated for shapes it rejects
    rule::frame(M::KIND, &cond.dims(), &then.dims(), &els.dims())?;
    let shape = C::output(cond.shape(), then.shape(), els.shape());
    let mut out = Tensor::from_parts_unchecked(shape, BT::Out::try_filled(&shape, T::default())?);
    try_select_into(cond, then, els, mode, &mut out)?;
    Ok(out)
}

/// [`try_select`] writing into `out`, whose dims must be the output's.
pub fn try_select_into<CE, C, BC, T, ST, BT, E, SE, BE, M, BO>(
    cond: &Tensor<CE, C, BC>,
    then: &Tensor<T, ST, BT>,
    els: &Tensor<E, SE, BE>,
    _mode: M,
    out: &mut Tensor<T, SelectOutput<C, ST, SE, M>, BO>,
) -> Result<(), SelectError>
where
    CE: CondElement,
    C: SelectShapes<ST, SE, M>,
    BC: Storage<CE>,
    T: Copy,
    BT: Storage<T>,
    E: ElseElement<T>,
    BE: Storage<E>,
    M: SelectMode,
    BO: StorageMut<T>,
    ST: Shape,
    SE: Shape,
{
    let f = rule::frame(M::KIND, &cond.dims(), &then.dims(), &els.dims())?;
    f.out_dims().expect_output(out.dims())?;
    kernel::run(
        &f,
        CE::as_bools(cond.as_slice()),
        then.as_slice(),
        E::as_same(els.as_slice()),
        out.as_mut_slice(),
    )
    .map(|_| ())
}
