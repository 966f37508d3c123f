//! The static path: [`select`], [`try_select`] and their `_into` forms.
//!
//! Every form calls the kernel with a walk from the one rule
//! ([`super::rule::frame`]): a constant for all-static shapes, computed when
//! the op runs for shapes with `Dyn` dims (the `try_` forms, and the plain
//! form where no `Dyn` dim needs a check: [`SelectNoCheck`]).

use super::bounds::{
    CondRule, CondShape, ElseRule, ElseShape, NoCheckThen, SelectNoCheck, SelectOutput,
    SelectShapes, SelectTensor,
};
use super::kernel::{self, Frames};
use super::{rule, CondElement, ElseElement, SelectError, SelectMode};
use crate::kernel::plan::Planned;
use crate::ops::elements::Elements;
use crate::ops::StaticShape;
use crate::shape::Shape;
use crate::storage::{OwnedStorage, ResultStorage, Storage, StorageMut};
use crate::tensor::Tensor;

/// `cond ? then : else` element by element, under the broadcast mode `mode`
/// ([`NoBroadcast`](super::NoBroadcast), [`Numpy`](super::Numpy) or [`Pdpd<AXIS>`](super::Pdpd)); see the
/// [module docs](crate::ops::select) for the rule.
///
/// A combination the mode rejects, a `cond` that is not `bool`, or then and
/// else of different element types is a compile error, and the call cannot
/// fail. A run-time (`Dyn`) dim is accepted where it needs no check when the
/// op runs ([`SelectNoCheck`]: it meets 1, no dim, or its own
/// [brand](crate::Branded)); elsewhere, use [`try_select`]. The result is
/// inline for static shapes (a `Vec` if `then` is one or a dim is `Dyn`).
///
/// The element rules are reached through [`Elements`] (cond's and
/// else's shapes in the result's type are [`CondShape`] and [`ElseShape`],
/// that is `C` and `SE`), so that a wrong element type is one short error.
///
/// ```
/// use shapecheck::prelude::*;
/// // a run-time number of rows (dynamic_stitch's output) meets a row of 1s: no check
/// let rows = dynamic_stitch(&tensor![1, 0], &tensor![[1, 2], [3, 4]]).run().unwrap();
/// let cond = tensor![[true, false]];
/// let picked: Tensor<i32, shape![Dyn, 2], Vec<i32>> = select(&cond, &rows, &tensor![0, 0], Numpy);
/// assert_eq!(picked.as_slice(), &[3, 0, 1, 0]);
/// ```
#[allow(clippy::type_complexity)]
#[inline]
pub fn select<CE, C, BC, T, ST, BT, E, SE, BE, M>(
    cond: &Tensor<CE, C, BC>,
    then: &Tensor<T, ST, BT>,
    els: &Tensor<E, SE, BE>,
    _mode: M,
) -> SelectTensor<T, CondShape<CE, C>, PlainThen<CE, C, ST, E, T, SE, M>, ElseShape<E, T, SE>, M, BT>
where
    CE: Elements<bool, CondRule, C>,
    C: Shape,
    CondShape<CE, C>: SelectShapes<PlainThen<CE, C, ST, E, T, SE, M>, ElseShape<E, T, SE>, M>,
    // no dim needs a run-time check (always so for static shapes)
    CondShape<CE, C>: SelectNoCheck<ST, ElseShape<E, T, SE>, M>,
    BC: Storage<CE>,
    T: Copy + Default + 'static,
    ST: Shape,
    BT: ResultStorage<
        T,
        SelectOutput<CondShape<CE, C>, PlainThen<CE, C, ST, E, T, SE, M>, ElseShape<E, T, SE>, M>,
    >,
    E: Elements<T, ElseRule, SE>,
    SE: Shape,
    BE: Storage<E>,
    M: SelectMode,
{
    let (cond, els) = (CE::view(cond), E::view(els));
    let then_shape = <CondShape<CE, C> as SelectNoCheck<_, _, M>>::then(then.shape());
    let shape = CondShape::<CE, C>::output(cond.shape(), &then_shape, els.shape());
    let mut out = Tensor::from_parts_unchecked(shape, BT::Out::filled(&shape, T::default()));
    // `None` cannot happen (see `kernel::plain_walk`); the output is then
    // returned as filled rather than panicking in library code
    // the walk copied out, a value as before the planner: benches/small.rs's
    // static select rows compile to the same instructions as before
    let mut room = None;
    if let Some(&walk) =
        kernel::plain_walk::<_, _, _, M>(cond.shape(), then.shape(), els.shape(), &mut room)
    {
        crate::kernel::select(
            &walk,
            cond.as_slice(),
            then.as_slice(),
            els.as_slice(),
            out.as_mut_slice(),
        );
    }
    out
}

/// then's shape in [`select`]'s result: `ST` once no dim needs a check.
type PlainThen<CE, C, ST, E, T, SE, M> = NoCheckThen<CondShape<CE, C>, ST, ElseShape<E, T, SE>, M>;

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
        &Planned::<Frames<C, ST, SE, M>, 3>::WALK,
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

impl<CE: Copy, C: Shape, BC: Storage<CE>> Tensor<CE, C, BC> {
    /// [`try_select`] with this tensor as the condition:
    /// `cond.try_select(&then, &els, mode)`. The same call is a method of
    /// [`DynTensor`](crate::DynTensor) (`DynTensor<bool>::try_select`), so
    /// that one function body, written with `?`, runs on `Tensor`s and on
    /// `DynTensor`s under one `use shapecheck::prelude::*`.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let keep = tensor![[true], [false]];
    /// let x = tensor![[1, 2, 3], [4, 5, 6]];
    /// let zero = tensor![0, 0, 0];
    /// let out = keep.try_select(&x, &zero, Numpy).unwrap();
    /// assert_eq!(out.as_slice(), &[1, 2, 3, 0, 0, 0]);
    /// assert_eq!(out, try_select(&keep, &x, &zero, Numpy).unwrap());
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn try_select<T, ST, BT, E, SE, BE, M>(
        &self,
        then: &Tensor<T, ST, BT>,
        els: &Tensor<E, SE, BE>,
        mode: M,
    ) -> Result<SelectTensor<T, C, ST, SE, M, BT>, SelectError>
    where
        CE: CondElement,
        C: SelectShapes<ST, SE, M>,
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
        try_select(self, then, els, mode)
    }
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
