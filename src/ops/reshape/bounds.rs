//! The reshape rule at compile time: [`CountsAgree`] evaluates the rule on
//! the shapes' constant element counts and fails the build with both shapes
//! named; [`KeepsRowsOf`] reads a shape as its first dim and the rest
//! ([`RowShape`]), for the form that keeps the rows.
//!
//! Stable Rust cannot compare two const generics in a bound, so the count
//! check is an assertion evaluated when the call is instantiated: `cargo
//! build` reports it, `cargo check` does not.

use super::rule::counts_agree;
use crate::error::Msg;
use crate::ops::StaticShape;
use crate::rows::RowShape;
use crate::shape::Shape;
use core::marker::PhantomData;

/// The reshape rule for two static shapes, as constants: `CHECK` fails the
/// build when the whole shapes' element counts differ, `ROWS_CHECK` when
/// `S` and `S2` are the rows of a `reshape_rows` and a row's count differs.
/// Both name the shapes and the counts.
///
/// ```
/// use shapecheck::prelude::*;
/// use shapecheck::ops::reshape::CountsAgree;
/// let () = CountsAgree::<shape![2, 3], shape![6]>::CHECK;
/// let () = CountsAgree::<shape![4], shape![2, 2]>::ROWS_CHECK;
/// ```
pub struct CountsAgree<S, S2>(PhantomData<(S, S2)>);

impl<S: StaticShape, S2: StaticShape> CountsAgree<S, S2> {
    const WHOLE: Msg = Msg::new()
        .push("reshape/element-count: the target shape must hold as many elements as the tensor: ")
        .push_sizes(S::DIMS)
        .push(" holds ")
        .push_num(S::NUMEL)
        .push(", but ")
        .push_sizes(S2::DIMS)
        .push(" holds ")
        .push_num(S2::NUMEL);
    const WHOLE_TEXT: &'static str =
        match core::str::from_utf8(Self::WHOLE.buf.split_at(Self::WHOLE.len).0) {
            Ok(s) => s,
            Err(_) => {
                "reshape/element-count: the target shape must hold as many elements as the tensor"
            }
        };
    const ROWS: Msg = Msg::new()
        .push("reshape/element-count: `reshape_rows` keeps the first dim, so a row must keep its element count: a row of ")
        .push_sizes(S::DIMS)
        .push(" holds ")
        .push_num(S::NUMEL)
        .push(", but a row of ")
        .push_sizes(S2::DIMS)
        .push(" holds ")
        .push_num(S2::NUMEL);
    const ROWS_TEXT: &'static str =
        match core::str::from_utf8(Self::ROWS.buf.split_at(Self::ROWS.len).0) {
            Ok(s) => s,
            Err(_) => "reshape/element-count: a row must keep its element count",
        };
    /// Fails const evaluation when `S` and `S2` hold different counts.
    pub const CHECK: () = if !counts_agree(S::NUMEL, S2::NUMEL) {
        crate::ops::const_fail(Self::WHOLE_TEXT)
    };
    /// Fails const evaluation when a row of `S` and a row of `S2` hold
    /// different counts.
    pub const ROWS_CHECK: () = if !counts_agree(S::NUMEL, S2::NUMEL) {
        crate::ops::const_fail(Self::ROWS_TEXT)
    };
}

/// `reshape`'s rule as a bound on the target: `Self` and `S` are static
/// shapes; [`CountsAgree`] then checks their element counts when the call
/// is built. One trait, written inline on the target
/// (`reshape<S2: ReshapeOf<S>>`), so that a run-time dim on either side is
/// one short error naming the checked form.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`reshape` from {S} to {Self}: both shapes must be static, and one of them has a run-time dim",
    label = "a run-time dim needs a check",
    note = "call `try_reshape(shape)` with the target's dims as values (`(Dyn(n), Dim::<3>)`), which checks the element counts when it runs; to keep a run-time first dim, `reshape_rows`"
)]
pub trait ReshapeOf<S>: Shape {
    /// `S`, known to be static.
    type Source: StaticShape;
    /// `Self`, known to be static.
    type Target: StaticShape;
    /// The target shape's value.
    fn target() -> Self;
}

#[diagnostic::do_not_recommend]
impl<S: StaticShape, S2: StaticShape> ReshapeOf<S> for S2 {
    type Source = S;
    type Target = S2;
    fn target() -> S2 {
        S2::default()
    }
}

/// `reshape_rows`' rule as a bound on the target: `Self` and `S` have a
/// first dim, the same dim type, and static dims after it (`FromRow` is
/// `S`'s row, `Rest` `Self`'s); [`CountsAgree`] then checks that a row keeps
/// its element count when the call is built.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`reshape_rows` from {S} to {Self}: both shapes need a first dim, the same dim in both, and static dims after it",
    label = "no first dim, another first dim, or a run-time dim after it",
    note = "`reshape_rows` keeps the first dim's type and value and reshapes each row; to change the first dim, or with run-time dims after it, call `try_reshape(shape)`, which checks when it runs"
)]
pub trait KeepsRowsOf<S>: Shape {
    /// `S`'s row (its dims after the first), known to be static.
    type FromRow: StaticShape;
    /// `Self`'s row, known to be static.
    type ToRow: StaticShape;
    /// The target shape: `from`'s first dim followed by `Self`'s row.
    fn keep_first(from: &S) -> Self;
}

#[diagnostic::do_not_recommend]
impl<S: RowShape, S2: RowShape<First = S::First>> KeepsRowsOf<S> for S2
where
    S::Rest: StaticShape,
    S2::Rest: StaticShape,
{
    type FromRow = S::Rest;
    type ToRow = S2::Rest;
    fn keep_first(from: &S) -> S2 {
        S2::join(from.first(), S2::Rest::default())
    }
}
