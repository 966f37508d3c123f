//! The per-rank impls of select's pairwise rules: numpy (right-aligned, two
//! way), none (identical) and the pdpd placements; and, for each, the
//! plain form's no-check rule over the same pairs of dims (`Select*Proven`).
//! Which dims meet, and which pdpd axes and ranks are accepted, is
//! `shapecheck_rules::select`, the functions the run-time rule calls.
//! Paths under `crate::`: used inside shapecheck only.

use crate::common::{axis_arg, idents, rank_pairs, tuple, Chain, RankPair};
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;
use shapecheck_rules::select::{numpy_frame, numpy_placed, pdpd_axis_ok, pdpd_place, Pdpd};

/// The axes the tables ask the rule about: every rank up to 8 takes at
/// most -1 to 8.
const AXES: std::ops::Range<isize> = -16..16;

/// The pdpd axes the rule takes for a `then` of rank `then_rank`
/// ([`pdpd_axis_ok`]).
fn pdpd_axes(then_rank: usize) -> impl Iterator<Item = isize> {
    AXES.filter(move |&axis| pdpd_axis_ok(axis, then_rank))
}

/// The pairwise numpy and "none" rules of select, and the pdpd placements.
pub(crate) fn select_rules(max: usize) -> TokenStream2 {
    let mut out = TokenStream2::new();
    // numpy and none: every pair of ranks
    for RankPair {
        ra,
        rb,
        a,
        b,
        at,
        bt,
    } in rank_pairs(max, "A", "B")
    {
        // The dims carry no bound: each impl's where-clauses name what it
        // needs (the two shapes; `DimLike` for a dim an output takes as it
        // is, `Copy` for a dim it merges), so that rustc does not
        // elaborate `DimLike`'s supertraits for up to 16 dims per impl
        // (docs/measurements.md, "Compile time").
        let generics = quote!(#(#a,)* #(#b,)* C, T, E);
        let shapes = quote!(#at: crate::shape::Shape, #bt: crate::shape::Shape,);
        // numpy: right-aligned, two-way
        let r = numpy_frame(&[ra, rb]);
        let (pa, pb) = (numpy_placed(r, ra), numpy_placed(r, rb));
        // the dim rules are links of one chain: one error per mistake
        let mut chain = Chain::new();
        let mut dims = Vec::new();
        let mut vals = Vec::new();
        let mut needs = Vec::new();
        for i in 0..r {
            match (pa.dim_at(i), pb.dim_at(i)) {
                (Some(p), Some(q)) => {
                    let (ad, bd) = (&a[p], &b[q]);
                    let (pv, qv) = (syn::Index::from(p), syn::Index::from(q));
                    let (gate, dim) = chain.link(
                        quote!(crate::ops::select::bounds::SelectNumpyLink<#ad, #bd, C, T, E>),
                    );
                    dims.push(dim);
                    vals.push(quote!(<#gate>::merge(x.#pv, y.#qv)));
                    needs.push(quote!(#ad: Copy));
                    needs.push(quote!(#bd: Copy));
                }
                (Some(p), None) => {
                    let ad = &a[p];
                    let pv = syn::Index::from(p);
                    dims.push(quote!(#ad));
                    vals.push(quote!(x.#pv));
                    needs.push(quote!(#ad: crate::dim::DimLike));
                }
                (None, Some(q)) => {
                    let bd = &b[q];
                    let qv = syn::Index::from(q);
                    dims.push(quote!(#bd));
                    vals.push(quote!(y.#qv));
                    needs.push(quote!(#bd: crate::dim::DimLike));
                }
                (None, None) => {}
            }
        }
        let preds = chain.preds;
        let pair = |name: TokenStream2,
                    needs: &[TokenStream2],
                    preds: &[TokenStream2],
                    dims: &[TokenStream2],
                    vals: &[TokenStream2]| {
            quote! {
                #[diagnostic::do_not_recommend]
                impl<#generics> crate::ops::select::bounds::#name<#bt, C, T, E> for #at
                where #shapes #(#needs,)* #(#preds,)*
                {
                    type Output = (#(#dims,)*);
                    #[inline(always)]
                    #[allow(unused_variables, clippy::unused_unit)]
                    fn output(x: &Self, y: &#bt) -> Self::Output { (#(#vals,)*) }
                }
            }
        };
        out.extend(pair(quote!(SelectNumpyPair), &needs, &preds, &dims, &vals));
        out.extend(numpy_proven(ra, rb, &a, &b, &at, &bt, &generics));
        // none: identical shapes (a rank mismatch is the gate `SelectNoneRank`,
        // so that every pair of ranks has exactly one impl)
        if ra == rb {
            let mut chain = Chain::new();
            let mut dims = Vec::new();
            let mut vals = Vec::new();
            let mut needs = Vec::new();
            for (i, (p, q)) in a.iter().zip(&b).enumerate() {
                needs.push(quote!(#p: Copy));
                needs.push(quote!(#q: Copy));
                let (gate, dim) =
                    chain.link(quote!(crate::ops::select::bounds::SelectSameLink<#p, #q, C, T, E>));
                let iv = syn::Index::from(i);
                dims.push(dim);
                vals.push(quote!(<#gate>::merge(x.#iv, y.#iv)));
            }
            out.extend(pair(
                quote!(SelectSamePair),
                &needs,
                &chain.preds,
                &dims,
                &vals,
            ));
            // the no-check rule: every pair's equality known without running.
            // The first pair is bounded directly, each later one through the
            // link after the previous pair's `Ok`, which only exists where
            // that pair passes: the first failing pair is the one error.
            let mut preds = Vec::new();
            let mut prev: Option<TokenStream2> = None;
            for (p, q) in a.iter().zip(&b) {
                let (pred, ok) = match &prev {
                    None => {
                        let rule =
                            quote!(crate::ops::select::bounds::SelectNoCheckSameDim<#q, C, T, E>);
                        (quote!(#p: #rule), quote!(<#p as #rule>::Ok))
                    }
                    Some(ok) => {
                        let link = quote!(crate::ops::select::bounds::SelectNoCheckSameLink<#p, #q, C, T, E>);
                        (quote!(#ok: #link), quote!(<#ok as #link>::Out))
                    }
                };
                preds.push(pred);
                prev = Some(ok);
            }
            out.extend(quote! {
                impl<#generics> crate::ops::select::bounds::SelectSameProven<#bt, C, T, E> for #at
                where
                    #shapes
                    #at: crate::ops::select::bounds::SelectSamePair<#bt, C, T, E>,
                    #(#preds,)*
                {}
            });
        } else {
            // ranks that differ: rejected by the checked rule, which reports it
            out.extend(quote! {
                impl<#generics> crate::ops::select::bounds::SelectSameProven<#bt, C, T, E> for #at
                where #shapes #at: crate::ops::select::bounds::SelectSamePair<#bt, C, T, E>
                {}
            });
            // not recommended, as the equal-rank impls: where two pairs of
            // dims differ, rustc would otherwise list these impls
            // (`ui-tests/select/fail/none_two_pairs`)
            out.extend(quote! {
                #[diagnostic::do_not_recommend]
                impl<#generics> crate::ops::select::bounds::SelectSamePair<#bt, C, T, E> for #at
                where #shapes (): crate::ops::select::bounds::SelectNoneRank<C, T, E>
                {
                    type Output = #at;
                    #[inline(always)]
                    fn output(x: &Self, _y: &#bt) -> Self::Output { *x }
                }
            });
        }
        // pdpd: source A placed in destination B at an axis, one way; the
        // axis is checked first (`SelectPdpdAxis`), so only valid axes
        // (-1 and 0..=rank(B)) have impls here. A source of higher rank
        // than B is the gate `SelectPdpdRank`.
        for axis in pdpd_axes(rb) {
            let ax = axis_arg(axis);
            let placed = match pdpd_place(ra, rb, axis) {
                Pdpd::Placed(placed) => placed,
                Pdpd::RankHigher => {
                    out.extend(quote! {
                    impl<#generics> crate::ops::select::bounds::SelectPdpdInto<#bt, C, T, E, #ax> for #at
                    where #shapes (): crate::ops::select::bounds::SelectPdpdRank<#at, C, T, E, #ax>
                    {
                        type Ok = <() as crate::ops::select::bounds::SelectPdpdRank<#at, C, T, E, #ax>>::Ok;
                    }
                    // rejected by the checked rule, which reports it
                    impl<#generics> crate::ops::select::bounds::SelectPdpdProven<#bt, C, T, E, #ax> for #at
                    where #shapes
                    {
                        type Ok = ();
                    }
                });
                    continue;
                }
            };
            // the source's dims past then's end, and the pairs (source's
            // dim, then's dim) it meets
            let dropped: Vec<_> = a
                .iter()
                .enumerate()
                .filter(|(j, _)| placed.drops(*j))
                .map(|(_, ad)| ad)
                .collect();
            let met: Vec<_> = b
                .iter()
                .enumerate()
                .filter_map(|(i, bd)| Some((&a[placed.dim_at(i)?], bd)))
                .collect();
            // as OpenVINO (and the run-time rule): the dims that run
            // past the end first, then the one-way rule of each dim
            let mut chain = Chain::new();
            for ad in &dropped {
                chain.link(
                    quote!(crate::ops::select::bounds::SelectPdpdDropLink<#ad, C, T, E, #ax>),
                );
            }
            for (ad, bd) in &met {
                chain.link(
                    quote!(crate::ops::select::bounds::SelectPdpdLink<#ad, #bd, C, T, E, #ax>),
                );
            }
            let done = chain.done();
            let preds = chain.preds;
            out.extend(quote! {
                impl<#generics> crate::ops::select::bounds::SelectPdpdInto<#bt, C, T, E, #ax> for #at
                where #shapes #(#preds,)*
                {
                    type Ok = #done;
                }
            });
            // the no-check rule over the same dims, in the same order
            let mut proven = Chain::new();
            for ad in &dropped {
                proven.link(
                    quote!(crate::ops::select::bounds::SelectNoCheckDropLink<#ad, C, T, E, #ax>),
                );
            }
            for (ad, bd) in &met {
                proven.link(
                    quote!(crate::ops::select::bounds::SelectNoCheckOneWayLink<#ad, #bd, C, T, E, #ax>),
                );
            }
            let done = proven.done();
            let preds = proven.preds;
            out.extend(quote! {
                impl<#generics> crate::ops::select::bounds::SelectPdpdProven<#bt, C, T, E, #ax> for #at
                where #shapes #(#preds,)*
                {
                    type Ok = #done;
                }
            });
        }
    }
    for ra in 0..=max {
        // the pdpd axis rule of then's rank `ra`: -1 or 0..=ra
        let a = idents("A", ra);
        let at = tuple(&a);
        // then's rank, the first link of numpy's and none's chains: a
        // generic then has no impl here
        out.extend(quote! {
            impl<#(#a: crate::dim::DimLike,)* C, E> crate::ops::select::bounds::SelectNumpyThen<C, E> for #at {
                type Ok = ();
            }
            impl<#(#a: crate::dim::DimLike,)* C, E> crate::ops::select::bounds::SelectSameThen<C, E> for #at {
                type Ok = ();
            }
        });
        // then's rank, before its axis: a generic then has no impl here
        out.extend(quote! {
            impl<#(#a: crate::dim::DimLike,)* C, E, const AXIS: isize>
                crate::ops::select::bounds::SelectPdpdThen<C, E, AXIS> for #at
            where
                #at: crate::ops::select::bounds::SelectPdpdAxis<C, E, AXIS>,
            {
                type Out = <#at as crate::ops::select::bounds::SelectPdpdAxis<C, E, AXIS>>::Out;
            }
        });
        for axis in pdpd_axes(ra) {
            let ax = axis_arg(axis);
            out.extend(quote! {
                #[diagnostic::do_not_recommend]
                impl<#(#a: crate::dim::DimLike,)* C, E> crate::ops::select::bounds::SelectPdpdAxis<C, E, #ax> for #at {
                    type Out = ();
                }
            });
        }
    }
    out
}

/// Numpy's no-check rule for one pair of ranks: every right-aligned pair of
/// dims broadcasts without a run-time check (`SelectNoCheckDim`), each dim
/// bounded directly (no chain: the dim rule's `Ok` is `()` whatever the
/// dims, so a chain of it would stop nothing).
fn numpy_proven(
    ra: usize,
    rb: usize,
    a: &[proc_macro2::Ident],
    b: &[proc_macro2::Ident],
    at: &TokenStream2,
    bt: &TokenStream2,
    generics: &TokenStream2,
) -> TokenStream2 {
    let shapes = quote!(#at: crate::shape::Shape, #bt: crate::shape::Shape,);
    let r = numpy_frame(&[ra, rb]);
    let (pa, pb) = (numpy_placed(r, ra), numpy_placed(r, rb));
    let mut preds = Vec::new();
    for i in 0..r {
        if let (Some(p), Some(q)) = (pa.dim_at(i), pb.dim_at(i)) {
            let (ad, bd) = (&a[p], &b[q]);
            preds.push(quote!(#ad: crate::ops::select::bounds::SelectNoCheckDim<#bd, C, T, E>));
        }
    }
    quote! {
        impl<#generics> crate::ops::select::bounds::SelectNumpyProven<#bt, C, T, E> for #at
        where
            #shapes
            #at: crate::ops::select::bounds::SelectNumpyPair<#bt, C, T, E>,
            #(#preds,)*
        {}
    }
}
