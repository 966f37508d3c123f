//! The per-rank impls of multiplex's shape rule
//! (`shapecheck::ops::multiplex::bounds`): "the candidates have rank >= 2"
//! (and their part of the output shape) and "the index has rank 2", both
//! asked of `shapecheck_rules::multiplex`, as the run-time rule does.

use super::common::{idents, tuple};
use proc_macro2::TokenStream as TokenStream2;
use quote::{format_ident, quote};
use shapecheck_rules::multiplex::{candidate_rank_ok, index_rank_ok};

/// For every candidate rank `r` in 0..=max:
/// - a marker struct `MultiplexRank<r>` and `MultiplexRankOf` for the rank-`r`
///   tuple, naming it;
/// - `MultiplexByRank<(D..), IS>` for that marker: ranks 0 and 1 require the
///   gate `MultiplexLowRank` (implemented by no index: the candidate-rank
///   rule) and are `do_not_recommend`; the others hold for any index, and
///   their `Output<R>` is the index's row dim `R` followed by the candidates'
///   dims after the first.
///
/// For every index rank `q` in 0..=max: `MultiplexIndexRows` (its first dim,
/// `One` for rank 0) and, except for rank 2 (whose one impl is written by
/// hand in `bounds.rs`), `MultiplexIndexShape<S>` for the rank-`q` tuple,
/// requiring the gate `MultiplexIndexRank` (the index-rank rule).
///
/// The index shape is always the `Self` type of the gates, so rustc waits
/// until it knows the index's type before deciding (and names the failing
/// rule in the error).
pub fn rules(max: usize) -> TokenStream2 {
    let m = quote!(crate::ops::multiplex::bounds);
    let mut out = TokenStream2::new();
    for r in 0..=max {
        let d = idents("D", r);
        let t = tuple(&d);
        // the public rule, one impl per rank through the blanket
        // `MultiplexRule`: candidates of a generic shape have no impl of it,
        // so rustc names it (and suggests it as the bound to add)
        out.extend(quote! {
            impl<#(#d: crate::dim::DimLike,)* IS: crate::shape::Shape> #m::MultiplexShapes<IS> for #t
            where #t: #m::MultiplexRule<IS>
            {
                type Output = <#t as #m::MultiplexRule<IS>>::Output;
                const CANDIDATE_DIMS: crate::dim::StaticDims = <#t as #m::MultiplexRule<IS>>::CANDIDATE_DIMS;
                const INDEX_DIMS: crate::dim::StaticDims = <#t as #m::MultiplexRule<IS>>::INDEX_DIMS;
                #[inline(always)]
                fn output(candidates: &#t, index: &IS) -> Self::Output {
                    <#t as #m::MultiplexRule<IS>>::output(candidates, index)
                }
            }
        });
        let rank = format_ident!("MultiplexRank{}", r);
        // `doc(hidden)`: rustc then lists none of the other markers' impls
        // when one rank fails (the markers of ranks 2.. would otherwise be
        // listed under the candidate-rank error)
        out.extend(quote! {
            #[doc(hidden)]
            pub struct #rank;
            impl<#(#d: crate::dim::DimLike,)*> #m::MultiplexRankOf for #t {
                type Rank = #rank;
            }
        });
        if !candidate_rank_ok(r) {
            // `do_not_recommend`: the failing bound reported is this impl's
            // (`MultiplexByRank`, whose message is the candidate-rank rule),
            // without rustc showing the impl itself
            out.extend(quote! {
                #[diagnostic::do_not_recommend]
                impl<#(#d: crate::dim::DimLike,)* IS: crate::shape::Shape> #m::MultiplexByRank<#t, IS> for #rank
                where IS: #m::MultiplexLowRank<#t>
                {
                    type Output<R: crate::dim::DimLike> = #t;
                    const CANDIDATE_DIMS: crate::dim::StaticDims = &[];
                    fn output<R: crate::dim::DimLike>(candidates: &#t, _rows: R) -> #t { *candidates }
                }
            });
            continue;
        }
        let rest = &d[1..];
        let idx: Vec<syn::Index> = (1..r).map(syn::Index::from).collect();
        out.extend(quote! {
            impl<#(#d: crate::dim::DimLike,)* IS: crate::shape::Shape> #m::MultiplexByRank<#t, IS> for #rank {
                type Output<R: crate::dim::DimLike> = (R, #(#rest,)*);
                const CANDIDATE_DIMS: crate::dim::StaticDims =
                    &[#(<#d as crate::dim::DimLike>::STATIC),*];
                #[inline(always)]
                fn output<R: crate::dim::DimLike>(candidates: &#t, rows: R) -> Self::Output<R> {
                    (rows, #(candidates.#idx,)*)
                }
            }
        });
    }
    for q in 0..=max {
        let j = idents("J", q);
        let jt = tuple(&j);
        // the index's first dim, for every rank: what the output type is
        // made of, so that computing it never asks for the index rule
        let (rows, value) = match j.first() {
            Some(j0) => (quote!(#j0), quote!(self.0)),
            None => (quote!(crate::dim::One), quote!(crate::dim::One)),
        };
        out.extend(quote! {
            impl<#(#j: crate::dim::DimLike,)*> #m::MultiplexIndexRows for #jt {
                type Rows = #rows;
                #[inline(always)]
                fn rows(&self) -> #rows { #value }
            }
        });
        // the accepted rank's one impl is written by hand (its second dim is 1)
        if index_rank_ok(q) {
            continue;
        }
        out.extend(quote! {
            impl<#(#j: crate::dim::DimLike,)* S: crate::shape::Shape> #m::MultiplexIndexShape<S> for #jt
            where #jt: #m::MultiplexIndexRank<S>
            {
                // never used (the gate has no impl)
                const STATIC_DIMS: crate::dim::StaticDims = &[];
            }
        });
    }
    out
}
