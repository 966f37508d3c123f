//! The gradients of select: from the forward's cond and the upstream
//! gradient `dout` (the output's shape), then's and else's gradients, each
//! of its operand's shape; cond has none.
//!
//! The rule (TensorFlow's `tf.where` gradient, SelectV2): `dthen =
//! where(cond, dout, 0)` and `delse = where(cond, 0, dout)`, each summed
//! back to its operand's shape over every output dim where the operand,
//! placed by the mode (none: equal shapes; numpy: right-aligned; pdpd: at
//! its axis, one way into then), is absent or 1. The kernel walks the
//! forward's own walk once ([`crate::kernel::select_backward`]), summing
//! into an operand's gradient where it broadcasts, with no intermediate of
//! the output's size.
//!
//! Forms: [`select_backward`] (static shapes, cannot fail; `dout` is typed
//! as the forward's output, so one of another shape is a compile error
//! naming both shapes),
//! [`select_backward_into`] (caller's buffers, no heap),
//! [`try_select_backward`] and [`try_select_backward_into`] (run-time dims,
//! every check before anything is written),
//! [`DynTensor::select_backward`](crate::DynTensor::select_backward) and
//! [`select_backward_slices`].

use super::bounds::{SelectOutput, SelectShapes};
use super::kernel::Frames;
use super::{rule, AutoBroadcast, CondElement, SelectError, SelectMode};
use crate::broadcast::Frame;
use crate::dims::Dims;
use crate::element::Element;
use crate::kernel;
use crate::kernel::plan::{walk, Planned};
use crate::ops::StaticShape;
use crate::shape::Shape;
use crate::storage::{OwnedStorage, ResultStorage, Storage, StorageMut};
use crate::tensor::Tensor;

/// The gradients of then (shape `ST`, storage `BT`) and else (`SE`, `BE`),
/// each stored as its operand's shape says ([`ResultStorage`]).
pub type SelectGrads<T, ST, BT, SE, BE> = (
    Tensor<T, ST, <BT as ResultStorage<T, ST>>::Out>,
    Tensor<T, SE, <BE as ResultStorage<T, SE>>::Out>,
);

/// The rule, then `dout`'s dims against the output's: the checks of every
/// run-time form, before anything is written.
pub(super) fn checked_frame(
    mode: AutoBroadcast,
    cond: &[usize],
    then: &[usize],
    els: &[usize],
    dout: &[usize],
) -> Result<Frame<3>, SelectError> {
    let f = rule::frame(mode, cond, then, els)?;
    let expected = f.out_dims();
    if expected.as_slice() != dout {
        return Err(SelectError::GradShape {
            expected,
            found: Dims::new(dout)?,
        });
    }
    Ok(f)
}

/// The gradients of `select(cond, then, els, mode)`: given the upstream
/// gradient `dout`, returns `(dthen, delse)` typed as `then` and `els`:
/// `dout` where cond is true (then) or false (else), 0 elsewhere, each
/// summed back over the dims where its operand broadcast (see
/// `backward.rs` in [`crate::ops::select`]). Every shape static: a shape
/// rule broken is the forward's compile error, `dout` has the output's
/// type ([`SelectOutput`]), so one of another shape is a compile error
/// naming both shapes, and the call cannot fail. Run-time dims: [`try_select_backward`].
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::select::select_backward;
/// let cond = tensor![[true, false, true], [false, false, true]];
/// let then = tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
/// let els = tensor![0.0f32]; // numpy: broadcast to every element
/// let out = select(&cond, &then, &els, Numpy);
/// let dout = Tensor::<f32, shape![2, 3]>::full(1.5);
/// let (dthen, delse) = select_backward(&cond, &then, &els, &dout, Numpy);
/// assert_eq!(dthen.as_slice(), &[1.5, 0.0, 1.5, 0.0, 0.0, 1.5]);
/// let delse: Tensor<f32, shape![1]> = delse; // else's shape: the 3 falses summed
/// assert_eq!(delse.as_slice(), &[4.5]);
/// # let _ = out;
/// ```
#[allow(clippy::type_complexity)]
pub fn select_backward<CE, C, BC, T, ST, BT, SE, BE, BD, M>(
    cond: &Tensor<CE, C, BC>,
    then: &Tensor<T, ST, BT>,
    els: &Tensor<T, SE, BE>,
    dout: &Tensor<T, SelectOutput<C, ST, SE, M>, BD>,
    _mode: M,
) -> SelectGrads<T, ST, BT, SE, BE>
where
    CE: CondElement,
    C: StaticShape + SelectShapes<ST, SE, M>,
    BC: Storage<CE>,
    T: Element,
    ST: StaticShape,
    SE: StaticShape,
    BT: ResultStorage<T, ST>,
    BE: ResultStorage<T, SE>,
    BD: Storage<T>,
    M: SelectMode,
{
    let mut gt =
        Tensor::from_parts_unchecked(*then.shape(), BT::Out::filled(then.shape(), T::default()));
    let mut ge =
        Tensor::from_parts_unchecked(*els.shape(), BE::Out::filled(els.shape(), T::default()));
    kernel::select_backward(
        &Planned::<Frames<C, ST, SE, M>, 3>::WALK,
        CE::as_bools(cond.as_slice()),
        dout.as_slice(),
        gt.as_mut_slice(),
        ge.as_mut_slice(),
        T::add,
    );
    (gt, ge)
}

/// [`select_backward`] writing into `gt` and `ge` (any storage, a caller's
/// buffers included: no heap). Every shape static; the call cannot fail.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::select::select_backward_into;
/// let cond = tensor![true, false];
/// let (then, els) = (tensor![1.0f32, 2.0], tensor![3.0f32, 4.0]);
/// let dout = tensor![0.5f32, 0.25];
/// let (mut bt, mut be) = ([9.0f32; 2], [9.0f32; 2]);
/// let mut gt = Tensor::<f32, shape![2], &mut [f32]>::from_storage(&mut bt[..]).unwrap();
/// let mut ge = Tensor::<f32, shape![2], &mut [f32]>::from_storage(&mut be[..]).unwrap();
/// select_backward_into(&cond, &then, &els, &dout, NoBroadcast, &mut gt, &mut ge);
/// assert_eq!((bt, be), ([0.5, 0.0], [0.0, 0.25]));
/// ```
#[allow(clippy::too_many_arguments)]
pub fn select_backward_into<CE, C, BC, T, ST, BT, SE, BE, BD, M, BGT, BGE>(
    cond: &Tensor<CE, C, BC>,
    _then: &Tensor<T, ST, BT>,
    _els: &Tensor<T, SE, BE>,
    dout: &Tensor<T, SelectOutput<C, ST, SE, M>, BD>,
    _mode: M,
    gt: &mut Tensor<T, ST, BGT>,
    ge: &mut Tensor<T, SE, BGE>,
) where
    CE: CondElement,
    C: StaticShape + SelectShapes<ST, SE, M>,
    BC: Storage<CE>,
    T: Element,
    ST: StaticShape,
    SE: StaticShape,
    BT: Storage<T>,
    BE: Storage<T>,
    BD: Storage<T>,
    M: SelectMode,
    BGT: StorageMut<T>,
    BGE: StorageMut<T>,
{
    kernel::select_backward(
        &Planned::<Frames<C, ST, SE, M>, 3>::WALK,
        CE::as_bools(cond.as_slice()),
        dout.as_slice(),
        gt.as_mut_slice(),
        ge.as_mut_slice(),
        T::add,
    );
}

/// [`select_backward`] for any shapes, run-time dims included: the static
/// part of the rule (and `dout`'s shape type) checked by the compiler, the
/// rest here before anything is allocated: the forward's rule, then
/// `dout`'s dims against the output's (`select/dout-shape`).
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::select::try_select_backward;
/// let cond = Tensor::<bool, shape![Dyn], Vec<bool>>::from_vec((Dyn(3),), vec![true, false, true]).unwrap();
/// let then = tensor![2.0f64]; // one value for every element
/// let els = Tensor::<f64, shape![Dyn], Vec<f64>>::from_vec((Dyn(3),), vec![0.0; 3]).unwrap();
/// let dout = Tensor::<f64, shape![Dyn], Vec<f64>>::from_vec((Dyn(3),), vec![1.0, 2.0, 4.0]).unwrap();
/// let (dthen, delse) = try_select_backward(&cond, &then, &els, &dout, Numpy).unwrap();
/// assert_eq!(dthen.as_slice(), &[5.0]); // 1 + 4
/// assert_eq!(delse.as_slice(), &[0.0, 2.0, 0.0]);
/// let dout2 = Tensor::<f64, shape![Dyn], Vec<f64>>::from_vec((Dyn(2),), vec![1.0, 2.0]).unwrap();
/// let err = try_select_backward(&cond, &then, &els, &dout2, Numpy).unwrap_err();
/// assert_eq!(err.rule(), "select/dout-shape");
/// ```
#[allow(clippy::type_complexity)]
pub fn try_select_backward<CE, C, BC, T, ST, BT, SE, BE, BD, M>(
    cond: &Tensor<CE, C, BC>,
    then: &Tensor<T, ST, BT>,
    els: &Tensor<T, SE, BE>,
    dout: &Tensor<T, SelectOutput<C, ST, SE, M>, BD>,
    mode: M,
) -> Result<SelectGrads<T, ST, BT, SE, BE>, SelectError>
where
    CE: CondElement,
    C: SelectShapes<ST, SE, M>,
    BC: Storage<CE>,
    T: Element,
    ST: Shape,
    SE: Shape,
    BT: ResultStorage<T, ST>,
    BE: ResultStorage<T, SE>,
    BD: Storage<T>,
    M: SelectMode,
{
    // every check first: nothing is allocated for inputs they reject
    checked_frame(
        M::KIND,
        &cond.dims(),
        &then.dims(),
        &els.dims(),
        &dout.dims(),
    )?;
    let mut gt = Tensor::from_parts_unchecked(
        *then.shape(),
        BT::Out::try_filled(then.shape(), T::default())?,
    );
    let mut ge = Tensor::from_parts_unchecked(
        *els.shape(),
        BE::Out::try_filled(els.shape(), T::default())?,
    );
    try_select_backward_into(cond, then, els, dout, mode, &mut gt, &mut ge)?;
    Ok((gt, ge))
}

/// [`try_select_backward`] writing into `gt` and `ge` (any storage), whose
/// dims must be then's and else's (`shape/output`); every check is made
/// before anything is written.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::select::try_select_backward_into;
/// let cond = tensor![[true], [false]];
/// let then = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(2), Dim), vec![0.0; 4]).unwrap();
/// let els = tensor![7.0f32, 8.0];
/// // cond's static 2 rows make the output's type [2, 2]: dout has that type
/// let dout = tensor![[1.0f32, 2.0], [3.0, 4.0]];
/// let mut gt = then.clone();
/// let mut ge = Tensor::<f32, shape![2]>::zeros();
/// try_select_backward_into(&cond, &then, &els, &dout, Numpy, &mut gt, &mut ge).unwrap();
/// assert_eq!(gt.as_slice(), &[1.0, 2.0, 0.0, 0.0]);
/// assert_eq!(ge.as_slice(), &[3.0, 4.0]);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn try_select_backward_into<CE, C, BC, T, ST, BT, SE, BE, BD, M, BGT, BGE>(
    cond: &Tensor<CE, C, BC>,
    then: &Tensor<T, ST, BT>,
    els: &Tensor<T, SE, BE>,
    dout: &Tensor<T, SelectOutput<C, ST, SE, M>, BD>,
    _mode: M,
    gt: &mut Tensor<T, ST, BGT>,
    ge: &mut Tensor<T, SE, BGE>,
) -> Result<(), SelectError>
where
    CE: CondElement,
    C: SelectShapes<ST, SE, M>,
    BC: Storage<CE>,
    T: Element,
    ST: Shape,
    SE: Shape,
    BT: Storage<T>,
    BE: Storage<T>,
    BD: Storage<T>,
    M: SelectMode,
    BGT: StorageMut<T>,
    BGE: StorageMut<T>,
{
    let f = checked_frame(
        M::KIND,
        &cond.dims(),
        &then.dims(),
        &els.dims(),
        &dout.dims(),
    )?;
    then.dims().expect_output(gt.dims())?;
    els.dims().expect_output(ge.dims())?;
    kernel::select_backward(
        &walk(&f),
        CE::as_bools(cond.as_slice()),
        dout.as_slice(),
        gt.as_mut_slice(),
        ge.as_mut_slice(),
        T::add,
    );
    Ok(())
}

/// The backward without a heap, shapes given as values (as
/// [`select_slices`](super::select_slices) for the forward): then's and
/// else's gradients under `mode` into `gt` and `ge` (then's and else's
/// lengths), from `cond` and `dout` (the output's length). Every check is
/// made before anything is written. Returns the output dims.
///
/// ```
/// use shapecheck::ops::select::{select_backward_slices, AutoBroadcast};
/// let cond = [true, false, false, true];
/// let dout = [1.0f32, 2.0, 3.0, 4.0];
/// let (mut gt, mut ge) = ([0.0f32; 2], [0.0f32; 1]);
/// // numpy: then [2] meets each row of cond's [2, 2], else [1] every element
/// select_backward_slices(AutoBroadcast::Numpy, &[2, 2], &cond, &[2], &[1], &dout, &mut gt, &mut ge).unwrap();
/// assert_eq!(gt, [1.0, 4.0]);
/// assert_eq!(ge, [5.0]);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn select_backward_slices<T: Element>(
    mode: AutoBroadcast,
    cond_dims: &[usize],
    cond: &[bool],
    then_dims: &[usize],
    else_dims: &[usize],
    dout: &[T],
    gt: &mut [T],
    ge: &mut [T],
) -> Result<Dims, SelectError> {
    Dims::for_data(cond_dims, cond.len())?;
    Dims::for_data(then_dims, gt.len())?;
    Dims::for_data(else_dims, ge.len())?;
    let f = rule::frame(mode, cond_dims, then_dims, else_dims)?;
    let out_dims = f.out_dims();
    Dims::for_data(&out_dims, dout.len())?;
    kernel::select_backward(&walk(&f), cond, dout, gt, ge, T::add);
    Ok(out_dims)
}
