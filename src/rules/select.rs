//! Select's rules: OpenVINO's none / numpy / pdpd (see the
//! [parent module](super)).

use super::sealed::Sealed;
use super::*;

dim_rules! {
    /// Select (numpy), dim rule: the aligned dims of cond, then and else broadcast.
    two_way SelectNumpyDim [C, T, E] => SelectNumpyLink: message = "select/numpy-broadcast: cond {C}, then {T} and else {E} do not broadcast: aligned dims {Self} and {Other} differ and neither is 1", label = "{Self} and {Other} conflict", note = "OpenVINO Select-1, auto_broadcast = numpy: the shapes are right-aligned and each aligned set of dims must be equal or 1; fix: reshape so the conflicting dims agree";
    /// Select (none), dim rule: the three shapes are identical.
    equal SelectSameDim [C, T, E] => SelectSameLink: message = "select/none-shapes: cond {C}, then {T} and else {E} must have the same shape, but dims {Self} and {Other} differ", label = "auto_broadcast = none requires identical shapes", note = "OpenVINO Select-1, auto_broadcast = none: \"Argument shapes are inconsistent\"; fix: NoBroadcast -> Numpy if the shapes broadcast";
}

/// Select (none), gate implemented by no type: required by the impls of
/// [`SelectSamePair`] for two shapes of different ranks.
#[diagnostic::on_unimplemented(
    message = "select/none-shapes: cond {C}, then {T} and else {E} must have the same shape (their ranks differ)",
    label = "auto_broadcast = none requires identical shapes",
    note = "OpenVINO Select-1, auto_broadcast = none: \"Argument shapes are inconsistent\"; fix: NoBroadcast -> Numpy if the shapes broadcast"
)]
pub trait SelectNoneRank<C, T, E> {}

/// Select (pdpd), dim rule: a dim of cond or else (`Self`) placed in then's
/// dim `Dst` must equal it or be 1 (one-way broadcast).
#[diagnostic::on_unimplemented(
    message = "select/pdpd-one-way: with Pdpd<{AXIS}>, cond {C} / else {E} do not broadcast one way to then {T}: dim {Self} is placed on then's dim {Dst}",
    label = "with pdpd, each dim of cond and else must equal then's dim or be 1",
    note = "OpenVINO Select-1, pdpd: the output has then's shape; cond and else are placed at the axis; fix: the axis at which the source's dims line up with then's"
)]
pub trait SelectPdpdDim<Dst, C, T, E, const AXIS: isize>: DimLike {
    /// `()`: the rule's success, which the next link of a chain waits for.
    type Ok;
}
one_way_rule!(SelectPdpdDim [C, T, E, const AXIS: isize] [C, T, E, AXIS]);

check_chain!(
    /// Select (pdpd): [`SelectPdpdDim`] of `S` on `D` as a link of a chain.
    SelectPdpdLink [S, D, C, T, E, const AXIS: isize] [S, D, C, T, E, AXIS]
    where S: SelectPdpdDim<D, C, T, E, AXIS>
);

/// Select (pdpd), dim rule: a trailing dim of cond or else that runs past
/// then's last dim must be 1.
#[diagnostic::on_unimplemented(
    message = "select/pdpd-runs-past: with Pdpd<{AXIS}>, cond {C} or else {E} runs past the last dim of then {T}; only trailing dims of size 1 can be dropped, and this one is {Self}",
    label = "the source does not fit in then at axis {AXIS}",
    note = "fix: a smaller axis, so that the source ends within then"
)]
pub trait SelectPdpdDroppableDim<C, T, E, const AXIS: isize>: DimLike {
    /// `()`: the rule's success, which the next link of a chain waits for.
    type Ok;
}
droppable_rule!(SelectPdpdDroppableDim [C, T, E, const AXIS: isize] [C, T, E, AXIS]);

check_chain!(
    /// Select (pdpd): [`SelectPdpdDroppableDim`] of `S` as a link of a chain.
    SelectPdpdDropLink [S, C, T, E, const AXIS: isize] [S, C, T, E, AXIS]
    where S: SelectPdpdDroppableDim<C, T, E, AXIS>
);

/// Select (pdpd), axis rule: `AXIS` is -1 or in `[0, rank(then)]` for then
/// (`Self`). Generated for every rank; an axis with no impl is this error.
#[diagnostic::on_unimplemented(
    message = "select/pdpd-axis: Pdpd<{AXIS}> is out of range for then {Self} (cond {C}, else {E}): the axis must be -1 or in [0, rank(then)]",
    label = "invalid pdpd axis for this then",
    note = "fix: Pdpd::<-1> right-aligns cond and else with then (OpenVINO Select-1, auto_broadcast = pdpd)"
)]
pub trait SelectPdpdAxis<C, E, const AXIS: isize>: Shape {
    /// `()`: the first link of pdpd's chain of checks.
    type Out;
}

/// Select (pdpd), gate implemented by no type: required by the impls of
/// [`SelectPdpdInto`] for a source (`S`) of higher rank than then.
#[diagnostic::on_unimplemented(
    message = "select/pdpd-rank: {S} (cond {C} or else {E}) has a higher rank than then {T}",
    label = "with pdpd, cond and else must not have a higher rank than then",
    note = "OpenVINO Select-1, auto_broadcast = pdpd: the output has then's shape; fix: pass the higher-rank operand as then, or use Numpy"
)]
pub trait SelectPdpdRank<S, C, T, E, const AXIS: isize> {
    /// `()`: the rule's success, which the next link of a chain waits for.
    type Ok;
}

/// Select (pdpd), placement rule: where a source shape (`Self`: cond or else)
/// goes in then's shape `Dst`. Generated for every source rank and every
/// valid axis (see [`SelectPdpdAxis`]).
#[diagnostic::on_unimplemented(
    message = "select/pdpd-one-way: with Pdpd<{AXIS}>, {Self} cannot be placed in then {T} (cond {C}, else {E})",
    label = "cond and else must fit into then's shape at axis {AXIS}",
    note = "OpenVINO Select-1, auto_broadcast = pdpd: the output has then's shape"
)]
pub trait SelectPdpdInto<Dst, C, T, E, const AXIS: isize>: Shape + Sealed {
    /// `()`: the rule's success, which the next link of a chain waits for.
    type Ok;
}

/// Declares select's pairwise shape rules (numpy, none): `Self` and
/// `Other` merge into `Output` under the compile error given.
macro_rules! pair_rules {
    ($($(#[$m:meta])* $name:ident ($out_doc:literal): message = $msg:literal, label = $label:literal, note = $note:literal;)*) => {$(
        $(#[$m])*
        #[diagnostic::on_unimplemented(message = $msg, label = $label, note = $note)]
        pub trait $name<Other: Shape, C, T, E>: Shape + Sealed {
            #[doc = $out_doc]
            type Output: Shape;
            /// Its value.
            fn output(a: &Self, b: &Other) -> Self::Output;
        }
    )*};
}

pair_rules! {
    /// Select (numpy), pairwise alignment used to merge three shapes. Its impls
    /// are `do_not_recommend`, so a failing merge is reported by this message.
    SelectNumpyPair ("The broadcast shape of the pair."): message = "select/numpy-broadcast: cond {C}, then {T} and else {E} do not broadcast: {Self} and {Other} differ in an aligned dim where neither is 1", label = "{Self} and {Other} conflict", note = "OpenVINO Select-1, auto_broadcast = numpy: the shapes are right-aligned and each aligned set of dims must be equal or 1; fix: reshape so the conflicting dims agree";
    /// Select (none), pairwise check that two shapes are identical.
    SelectSamePair ("The common shape."): message = "select/none-shapes: cond {C}, then {T} and else {E} must have the same shape", label = "auto_broadcast = none requires identical shapes", note = "OpenVINO Select-1, auto_broadcast = none: \"Argument shapes are inconsistent\"";
}

check_chain!(
    /// Select (pdpd): [`SelectPdpdInto`] of `S` as a link of a chain (else
    /// first, then cond: one error when both fail).
    SelectPdpdSource [S, D, C, T, E, const AXIS: isize] [S, D, C, T, E, AXIS]
    where S: SelectPdpdInto<D, C, T, E, AXIS>
);

shapecheck_macros::impl_select_rules!(8);
