//! The per-rank impls of the elementwise rule: for every pair of ranks, the
//! ranks as a type (`ElementwiseRanks`) and the dim rules of each placement
//! (`ElementwiseAlign`, `ElementwiseProvenAlign`); and the axis tables that
//! give the placement an axis means for those ranks (`ElementwiseAxisPlace`,
//! `ElementwiseAxisInRange`, `ElementwiseInRangePlace`). Every placement,
//! and the dims it pairs, is a verdict of `shapecheck_rules::elementwise`
//! (and `align`), the functions the run-time rule calls: nothing here
//! places an axis. Paths under `crate::`: used inside shapecheck only.

use crate::common::{axis_arg, idents, tuple, Chain};
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::quote;
use shapecheck_rules::elementwise::{
    axis_in_range, equal_ranks_placement, in_range_placement, placement, ranks, Placement, Ranks,
};
use syn::LitInt;

/// `ElementwiseShapes` for every pair of ranks 0..=N and every axis Paddle accepts.
pub(crate) fn elementwise_rules(max: usize) -> TokenStream2 {
    let mut out = TokenStream2::new();
    for rx in 0..=max {
        out.extend(elementwise_shapes(rx));
    }
    out.extend(elementwise_axis_tables(max));
    for rx in 0..=max {
        for ry in 0..=max {
            out.extend(elementwise_rank_pair(rx, ry));
        }
    }
    out
}

/// The axes the tables cover: `[-16, 16)`. Further out, an axis has no
/// placement (`ElementwiseAxisPlace`'s own error).
const AXES: std::ops::Range<isize> = -16..16;

/// The placement's type (`At<O>`, `AtTrimmed<O, K>`, ...).
fn place_type(place: Placement) -> TokenStream2 {
    let b = quote!(crate::ops::elementwise::bounds);
    match place {
        Placement::Identical => quote!(#b::Identical),
        Placement::At(at) => {
            let at = usize_lit(at);
            quote!(#b::At<#at>)
        }
        Placement::AtTrimmed { at, kept } => {
            let (at, kept) = (usize_lit(at), usize_lit(kept));
            quote!(#b::AtTrimmed<#at, #kept>)
        }
        Placement::BeforeStart => quote!(#b::BeforeStart),
        Placement::OutOfRange => quote!(#b::OutOfRange),
    }
}

/// The ranks' type: `EqualRanks`, or `Ranks<R, D>` (different ranks, `R`
/// the larger and `D` the difference), as the rule's [`ranks`] reads them.
fn ranks_type(rx: usize, ry: usize) -> TokenStream2 {
    match ranks(rx, ry) {
        Ranks::Equal => quote!(crate::ops::elementwise::bounds::EqualRanks),
        Ranks::Different { larger, diff } => {
            let (r, d) = (usize_lit(larger), usize_lit(diff));
            quote!(crate::ops::elementwise::bounds::Ranks<#r, #d>)
        }
    }
}

fn usize_lit(n: usize) -> LitInt {
    LitInt::new(&format!("{n}usize"), Span::call_site())
}

/// The differences of rank the rule sees with `larger` as the larger rank
/// (1 to `larger`, the smaller rank going down from `larger - 1` to 0).
fn diffs(larger: usize) -> Vec<usize> {
    (0..larger)
        .rev()
        .filter_map(|smaller| match ranks(larger, smaller) {
            Ranks::Different { diff, .. } => Some(diff),
            Ranks::Equal => None,
        })
        .collect()
}

/// The axis tables, for ranks up to `max`: which placement each axis in
/// `[-16, 16)` means, each entry the verdict of the rule's step of the same
/// name (`shapecheck_rules::elementwise`).
/// - equal ranks (`EqualRanks`): [`equal_ranks_placement`];
/// - different ranks (`Ranks<R, D>`): first the range ([`axis_in_range`],
///   `ElementwiseAxisInRange` for each `R`: `InRange` or `OutOfRange`, whose
///   gate is one short error), then the placement of an axis in range
///   ([`in_range_placement`], `ElementwiseInRangePlace`): a negative axis
///   reads `D` only (one impl for every `R`), a non-negative one `R` and `D`.
///
/// So the impls number about 32 per larger rank plus a few per pair of `R`
/// and `D`, rather than 32 per pair of ranks.
pub(crate) fn elementwise_axis_tables(max: usize) -> TokenStream2 {
    let mut out = TokenStream2::new();
    let axis_ty = |axis: isize| {
        let ax = axis_arg(axis);
        quote!(crate::ops::elementwise::Axis<#ax>)
    };
    for axis in AXES {
        let ax = axis_ty(axis);
        let place = place_type(equal_ranks_placement(axis));
        out.extend(quote! {
            impl<X, Y> crate::ops::elementwise::bounds::ElementwiseAxisPlace<crate::ops::elementwise::bounds::EqualRanks, X, Y> for #ax {
                type Place = #place;
            }
        });
    }
    for r in 1..=max {
        let rl = usize_lit(r);
        for axis in AXES {
            let ax = axis_ty(axis);
            let verdict = if axis_in_range(r, axis) {
                quote!(crate::ops::elementwise::bounds::InRange)
            } else {
                quote!(crate::ops::elementwise::bounds::OutOfRange)
            };
            out.extend(quote! {
                impl<X, Y> crate::ops::elementwise::bounds::ElementwiseAxisInRange<#rl, X, Y> for #ax {
                    type Verdict = #verdict;
                }
            });
        }
    }
    // a negative axis in range: the rule reads the difference only, so one
    // impl for every larger rank (asked at the largest, where every negative
    // axis of the tables' ranks is in range)
    for d in diffs(max) {
        let dl = usize_lit(d);
        for axis in AXES.filter(|&a| a < 0 && axis_in_range(max, a)) {
            let ax = axis_ty(axis);
            let place = place_type(in_range_placement(max, d, axis));
            out.extend(quote! {
                impl<const R: usize> crate::ops::elementwise::bounds::ElementwiseInRangePlace<R, #dl> for #ax {
                    type Place = #place;
                }
            });
        }
    }
    // a non-negative axis in range: `At` up to `d`, past it `AtTrimmed`
    for r in 1..=max {
        for d in diffs(r) {
            let (rl, dl) = (usize_lit(r), usize_lit(d));
            for axis in AXES.filter(|&a| a >= 0 && axis_in_range(r, a)) {
                let ax = axis_ty(axis);
                let place = place_type(in_range_placement(r, d, axis));
                out.extend(quote! {
                    impl crate::ops::elementwise::bounds::ElementwiseInRangePlace<#rl, #dl> for #ax {
                        type Place = #place;
                    }
                });
            }
        }
    }
    out
}

/// The placements the rule gives some axis for X of rank `rx` and Y of
/// rank `ry` ([`placement`] over the tables' axes), the rejections left
/// out: numpy's `At<0>` first, then by position, `Identical` last.
fn placements(rx: usize, ry: usize) -> Vec<Placement> {
    let mut found: Vec<Placement> = Vec::new();
    for axis in AXES {
        let p = placement(rx, ry, axis);
        let placing = !matches!(p, Placement::BeforeStart | Placement::OutOfRange);
        if placing && !found.contains(&p) {
            found.push(p);
        }
    }
    found.sort_by_key(|p| match *p {
        Placement::At(at) | Placement::AtTrimmed { at, .. } => at,
        _ => usize::MAX,
    });
    found
}

pub(crate) fn elementwise_rank_pair(rx: usize, ry: usize) -> TokenStream2 {
    let xs = idents("X", rx);
    let ys = idents("Y", ry);
    let xt = tuple(&xs);
    let yt = tuple(&ys);
    // The dims carry no bound: each impl's where-clauses name what it
    // needs (the two shapes, and `DimLike` for a dim the output takes as
    // it is), so that rustc does not elaborate `DimLike`'s supertraits for
    // up to 16 dims per impl (docs/measurements.md, "Compile time").
    let generics = quote!(#(#xs,)* #(#ys,)*);
    let mut out = TokenStream2::new();
    // the lower-rank operand (Y for equal ranks): its dims are the ones a
    // placement moves
    let x_is_small = rx < ry;
    let (r, rs) = if x_is_small { (ry, rx) } else { (rx, ry) };
    // the ranks as a type, from which the axis tables pick the placement
    let ranks = ranks_type(rx, ry);
    out.extend(quote! {
        impl<#generics> crate::ops::elementwise::bounds::ElementwiseRanks<#yt> for #xt {
            type Ranks = #ranks;
        }
    });
    // the pair of dims (X's, Y's) and their indices where the placed
    // operand's dim `j` meets the other's dim `i`
    let pair = |j: usize, i: usize| {
        if x_is_small {
            (&xs[j], &ys[i], syn::Index::from(j), syn::Index::from(i))
        } else {
            (&xs[i], &ys[j], syn::Index::from(i), syn::Index::from(j))
        }
    };
    let small = if x_is_small { &xs } else { &ys };
    // the alignment rule: one impl per placement. The dim rules are links of
    // one chain (see `merge_chain!`), so only the first failing pair is an error.
    let align = |place: Placement, link: TokenStream2| {
        let placed = place.placed(r, rs)?;
        let place = place_type(place);
        let mut chain = Chain::new();
        // the trailing dims that run past the end first: the run-time rule
        // reports runs-past before a dim mismatch, and so does this chain
        for sd in small
            .iter()
            .enumerate()
            .filter(|(j, _)| placed.drops(*j))
            .map(|(_, d)| d)
        {
            chain.link(
                quote!(crate::ops::elementwise::bounds::ElementwiseDropLink<#sd, #xt, #yt, Ax>),
            );
        }
        let mut out_dims = Vec::new();
        let mut out_vals = Vec::new();
        let mut kept_as_is = Vec::new();
        let mut copied = Vec::new();
        for i in 0..r {
            if let Some(j) = placed.dim_at(i) {
                let (xd, yd, xv, yv) = pair(j, i);
                let (gate, dim) = chain.link(quote!(#link<#xd, #yd, #xt, #yt, Ax>));
                copied.push(xd.clone());
                copied.push(yd.clone());
                out_dims.push(dim);
                out_vals.push(quote!(<#gate>::merge(x.#xv, y.#yv)));
            } else {
                let (ld, lv, src) = if x_is_small {
                    (&ys[i], syn::Index::from(i), quote!(y))
                } else {
                    (&xs[i], syn::Index::from(i), quote!(x))
                };
                out_dims.push(quote!(#ld));
                out_vals.push(quote!(#src.#lv));
                kept_as_is.push(ld.clone());
            }
        }
        let preds = chain.preds;
        // a rank-0 output is `()`: an empty body says so without a unit expression
        let body = if out_vals.is_empty() {
            quote!()
        } else {
            quote!((#(#out_vals,)*))
        };
        Some(quote! {
            impl<#generics Ax> crate::ops::elementwise::bounds::ElementwiseAlign<#xt, #yt, Ax> for #place
            where
                #xt: crate::shape::Shape,
                #yt: crate::shape::Shape,
                #(#kept_as_is: crate::dim::DimLike,)*
                #(#copied: Copy,)*
                #(#preds,)*
            {
                type Output = (#(#out_dims,)*);
                #[inline(always)]
                #[allow(unused_variables)]
                fn output(x: &#xt, y: &#yt) -> Self::Output { #body }
            }
        })
    };
    // the no-check rule of the plain forms: one impl per placement, which
    // bounds the same dims as `align`'s (dropped ones first) by their dim
    // rules. With a `link` (identical shapes), the first pair is bounded
    // directly and each later pair through the link, after the previous
    // pair's `Ok`, which only exists where that pair passes: the first
    // failing pair is the one error. The broadcast rule's `Ok` is `()`
    // whatever the dims, so its pairs are bounded directly.
    let proven = |place: Placement, rule: TokenStream2, link: Option<TokenStream2>| {
        let placed = place.placed(r, rs)?;
        let place = place_type(place);
        let mut preds = Vec::new();
        for sd in small
            .iter()
            .enumerate()
            .filter(|(j, _)| placed.drops(*j))
            .map(|(_, d)| d)
        {
            preds.push(
                quote!(#sd: crate::ops::elementwise::bounds::ElementwiseNoCheckDropDim<#xt, #yt, Ax>),
            );
        }
        let mut prev: Option<TokenStream2> = None;
        for i in 0..r {
            if let Some(j) = placed.dim_at(i) {
                let (xd, yd, _, _) = pair(j, i);
                match (&link, &prev) {
                    (Some(link), Some(ok)) => {
                        preds.push(quote!(#ok: #link<#xd, #yd, #xt, #yt, Ax>));
                        prev = Some(quote!(<#ok as #link<#xd, #yd, #xt, #yt, Ax>>::Out));
                    }
                    _ => {
                        preds.push(quote!(#xd: #rule<#yd, #xt, #yt, Ax>));
                        prev = Some(quote!(<#xd as #rule<#yd, #xt, #yt, Ax>>::Ok));
                    }
                }
            }
        }
        Some(quote! {
            impl<#generics Ax> crate::ops::elementwise::bounds::ElementwiseProvenAlign<#xt, #yt, Ax> for #place
            where #(#preds,)*
            {}
        })
    };
    // one impl of each rule per placement the rule gives some axis (for
    // different ranks, a scalar operand at -1 is placed after the last dim)
    let places = placements(rx, ry);
    let b = quote!(crate::ops::elementwise::bounds);
    let links = |p: &Placement, same: TokenStream2, broadcast: TokenStream2| match p {
        Placement::Identical => same,
        _ => broadcast,
    };
    for p in &places {
        let rule = links(
            p,
            quote!(#b::ElementwiseNoCheckSameDim),
            quote!(#b::ElementwiseNoCheckDim),
        );
        let link = match p {
            Placement::Identical => Some(quote!(#b::ElementwiseNoCheckSameLink)),
            _ => None,
        };
        out.extend(proven(*p, rule, link));
    }
    for p in &places {
        let link = links(
            p,
            quote!(#b::ElementwiseSameLink),
            quote!(#b::ElementwiseBroadcastLink),
        );
        out.extend(align(*p, link));
    }
    out
}

/// `ElementwiseShapes` for X of rank `rx`: requires the whole rule
/// (`ElementwiseRule`, one blanket impl), so that generic code that forgets
/// its bound is told to write `S: ElementwiseShapes<Y, AXIS>`, and a rejected
/// pair of shapes is reported by its dim rule without a list of these impls.
pub(crate) fn elementwise_shapes(rx: usize) -> TokenStream2 {
    let xs = idents("X", rx);
    let xt = tuple(&xs);
    quote! {
        impl<#(#xs: crate::dim::DimLike,)* Y: crate::shape::Shape, const A: isize>
            crate::ops::elementwise::bounds::ElementwiseShapes<Y, A> for #xt
        where
            #xt: crate::ops::elementwise::bounds::ElementwiseRule<Y, crate::ops::elementwise::Axis<A>>,
        {
            type Output = <#xt as crate::ops::elementwise::bounds::ElementwiseRule<
                Y,
                crate::ops::elementwise::Axis<A>,
            >>::Output;
            type Place = <#xt as crate::ops::elementwise::bounds::ElementwiseRule<
                Y,
                crate::ops::elementwise::Axis<A>,
            >>::Place;
            #[inline(always)]
            fn output(x: &Self, y: &Y) -> Self::Output {
                <#xt as crate::ops::elementwise::bounds::ElementwiseRule<
                    Y,
                    crate::ops::elementwise::Axis<A>,
                >>::output(x, y)
            }
        }
    }
}
