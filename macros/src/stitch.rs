//! The per-rank impls of dynamic_stitch's and dynamic_partition's type-level
//! rules (`shapecheck::ops::stitch::bounds`, `shapecheck::ops::partition::bounds`):
//! "data's shape starts with the indices' shape" (each dim
//! `crate::algebra::SameDim`), "what follows that prefix (the slice) is the
//! slice of the earlier pairs", and the output shape `[rows] + slice`. The
//! ranks that meet are `shapecheck_rules::indexed`'s, as for the run-time
//! rules.

use super::common::{idents, rank_pairs, tuple, RankPair};
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;
use shapecheck_rules::indexed::{output_rank, slice_rank};

/// dynamic_stitch's impls for ranks 0..=max: `StitchFirst` per rank of the
/// data, [`prefix_rule`] of `StitchPrefix`, [`slice_rule`], [`prepend_dyn`]
/// and [`static_slice`].
pub fn stitch_rules(max: usize) -> TokenStream2 {
    let mut out = prefix_rule(&quote!(crate::ops::stitch::bounds::StitchPrefix), max);
    // the public first-pair rule, one impl per rank of the data through the
    // blanket `StitchFirstRule`: a generic data shape has no impl of it, so
    // rustc names it (and suggests it as the bound to add)
    let m = quote!(crate::ops::stitch::bounds);
    for q in 0..=max {
        let d = idents("D", q);
        let dt = tuple(&d);
        out.extend(quote! {
            impl<#(#d: crate::dim::DimLike,)* I, E: Copy> #m::StitchFirst<I, E> for #dt
            where #dt: #m::StitchFirstRule<I, E>
            {
                type Slice = <#dt as #m::StitchFirstRule<I, E>>::Slice;
                type Out = <#dt as #m::StitchFirstRule<I, E>>::Out;
                type Index = <#dt as #m::StitchFirstRule<I, E>>::Index;
                #[inline(always)]
                fn indices<S: crate::shape::Shape, B: crate::storage::Storage<E>>(
                    t: &crate::tensor::Tensor<E, S, B>,
                ) -> crate::tensor::Tensor<Self::Index, S, &[Self::Index]> {
                    <#dt as #m::StitchFirstRule<I, E>>::indices(t)
                }
            }
        });
    }
    out.extend(slice_rule(max));
    out.extend(prepend_dyn(max));
    out.extend(static_slice(max));
    out
}

/// dynamic_partition's impls for ranks 0..=max: [`prefix_rule`] of
/// `PartitionPrefix`, and `PartitionShapes` for each rank of the data,
/// through the blanket `PartitionRule` (so that a generic data shape has
/// no impl of the public trait, which rustc then names).
pub fn partition_rules(max: usize) -> TokenStream2 {
    let mut out = prefix_rule(&quote!(crate::ops::partition::bounds::PartitionPrefix), max);
    let m = quote!(crate::ops::partition::bounds);
    for q in 0..=max {
        let d = idents("D", q);
        let dt = tuple(&d);
        out.extend(quote! {
            impl<#(#d: crate::dim::DimLike,)* P, E> #m::PartitionShapes<P, E> for #dt
            where #dt: #m::PartitionRule<P, E>
            {
                type Slice = <#dt as #m::PartitionRule<P, E>>::Slice;
                type Out = <#dt as #m::PartitionRule<P, E>>::Out;
                #[inline(always)]
                fn index_slice(partitions: &[E]) -> crate::ops::indexed::IndexSlice<'_> {
                    <#dt as #m::PartitionRule<P, E>>::index_slice(partitions)
                }
            }
        });
    }
    out
}

/// A prefix rule `rule<(J..)>` for `(D..)`, for every data rank `q` and
/// prefix rank `r <= q` in 0..=max: `J_i: SameDim<D_i>` for the first `r`
/// dims, and `Slice = (D_r, .., D_{q-1})`. A prefix of a higher rank than
/// the data has no impl: the rule's own message reports it.
///
/// Every impl is `#[diagnostic::do_not_recommend]`: a failing dim is then
/// reported by the rule trait's message (both shapes, the rule), not by the
/// algebra's `SameDim` nor by a list of these impls.
///
/// `Slice` is reached through each prefix dim's `SameDim::Out`
/// ([`guarded_slice`]): with a failing dim it names no type, so the slice
/// rule after it (a later pair) and the output's rank (a first pair) report
/// nothing more than the prefix rule's own error, as TensorFlow checks a
/// pair's prefix before its slice.
pub fn prefix_rule(rule: &TokenStream2, max: usize) -> TokenStream2 {
    let mut out = TokenStream2::new();
    for pair in rank_pairs(max, "D", "J") {
        let RankPair {
            ra: q,
            rb: r,
            a: d,
            b: j,
            at: dt,
            bt: jt,
        } = pair;
        // a prefix that outranks the data has no impl
        if slice_rank(q, r).is_none() {
            continue;
        }
        let (head, tail) = d.split_at(r);
        let slice = guarded_slice(&j, head, tuple(tail));
        out.extend(quote! {
            #[diagnostic::do_not_recommend]
            impl<#(#d: crate::dim::DimLike,)* #(#j: crate::dim::DimLike,)*> #rule<#jt> for #dt
            where #(#j: crate::algebra::SameDim<#head>,)*
            {
                type Slice = #slice;
            }
        });
    }
    out
}

/// `slice` behind the prefix dims' `SameDim` outputs:
/// `<<J0 as SameDim<D0>>::Out as Then<<<J1 as SameDim<D1>>::Out as Then<slice>>::Out>>::Out`
/// (`Then` passes its argument through for any `Self`). It normalizes to
/// `slice` when every dim is the same, and to nothing when one is not.
fn guarded_slice(
    j: &[proc_macro2::Ident],
    head: &[proc_macro2::Ident],
    slice: TokenStream2,
) -> TokenStream2 {
    j.iter().zip(head).rev().fold(slice, |inner, (ji, di)| {
        quote!(<<#ji as crate::algebra::SameDim<#di>>::Out as crate::ops::stitch::bounds::Then<#inner>>::Out)
    })
}

/// `StitchSliceOf<(J..), (A..)>` for `(D..)`, for every data rank `q` and
/// indices rank `r <= q` in 0..=max, `A` of rank `q - r`:
/// `D_{r+i}: SameDim<A_i>` (the data's dims after the prefix are the slice
/// `A`). A slice of another rank has no impl. `#[diagnostic::do_not_recommend]`
/// as in [`prefix_rule`].
pub fn slice_rule(max: usize) -> TokenStream2 {
    let mut out = TokenStream2::new();
    for pair in rank_pairs(max, "D", "J") {
        let RankPair {
            ra: q,
            rb: r,
            a: d,
            b: j,
            at: dt,
            bt: jt,
        } = pair;
        let Some(slice) = slice_rank(q, r) else {
            continue;
        };
        let a = idents("A", slice);
        let at = tuple(&a);
        let tail = &d[r..];
        out.extend(quote! {
            #[diagnostic::do_not_recommend]
            impl<#(#d: crate::dim::DimLike,)* #(#j: crate::dim::DimLike,)* #(#a: crate::dim::DimLike,)*>
                crate::ops::stitch::bounds::StitchSliceOf<#jt, #at> for #dt
            where #(#tail: crate::algebra::SameDim<#a>,)*
            {
                type Slice = #at;
            }
        });
    }
    out
}

/// `PrependDyn` for `(D..)` of rank 0..max (one less than the maximum: the
/// output gains a dim): `Out = (Dyn, D..)`. Each impl is
/// `#[diagnostic::do_not_recommend]`, so that a slice of the maximum rank is
/// reported by the trait's own message, not by a list of these impls.
pub fn prepend_dyn(max: usize) -> TokenStream2 {
    let mut out = TokenStream2::new();
    for k in (0..=max).filter(|&k| output_rank(k) <= max) {
        let d = idents("D", k);
        let v = idents("d", k);
        let dt = tuple(&d);
        out.extend(quote! {
            #[diagnostic::do_not_recommend]
            impl<#(#d: crate::dim::DimLike,)*> crate::ops::stitch::bounds::PrependDyn for #dt {
                type Out = (crate::dim::Dyn, #(#d,)*);
                #[inline]
                fn prepend(self, rows: usize) -> Self::Out {
                    let (#(#v,)*) = self;
                    (crate::dim::Dyn(rows), #(#v,)*)
                }
            }
        });
    }
    out
}

/// `StaticSlice` for `(D..)` of rank 0..=max: `STATIC_DIMS` lists each
/// dim's `DimLike::STATIC` (the trait computes the rest from it).
pub fn static_slice(max: usize) -> TokenStream2 {
    let mut out = TokenStream2::new();
    for k in 0..=max {
        let d = idents("D", k);
        let dt = tuple(&d);
        out.extend(quote! {
            impl<#(#d: crate::dim::DimLike,)*> crate::ops::indexed::StaticSlice for #dt {
                const STATIC_DIMS: crate::dim::StaticDims =
                    &[#(<#d as crate::dim::DimLike>::STATIC,)*];
            }
        });
    }
    out
}
