//! The per-rank impls of the elementwise rule: for every pair of ranks, the
//! placement each axis means (`ElementwiseAxis`) and the dim rules of each
//! placement (`ElementwiseAlign`). Paths under `crate::`: used inside
//! shapecheck only.

use crate::common::{axis_arg, idents, tuple, Chain};
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::quote;
use syn::LitInt;

/// `ElementwiseShapes` for every pair of ranks 0..=N and every axis Paddle accepts.
pub(crate) fn elementwise_rules(max: usize) -> TokenStream2 {
    let mut out = TokenStream2::new();
    for rx in 0..=max {
        out.extend(elementwise_shapes(rx));
    }
    for rx in 0..=max {
        for ry in 0..=max {
            out.extend(elementwise_rank_pair(rx, ry));
        }
    }
    out
}

pub(crate) fn elementwise_rank_pair(rx: usize, ry: usize) -> TokenStream2 {
    let xs = idents("X", rx);
    let ys = idents("Y", ry);
    let xt = tuple(&xs);
    let yt = tuple(&ys);
    let generics = quote!(#(#xs: crate::dim::DimLike,)* #(#ys: crate::dim::DimLike,)*);
    let mut out = TokenStream2::new();
    let at = |o: usize| {
        let o = LitInt::new(&format!("{o}usize"), Span::call_site());
        quote!(crate::ops::elementwise::bounds::At<#o>)
    };
    // the axis rule: which placement each axis means. `do_not_recommend`:
    // an axis with no impl is reported by the trait's own message, without
    // a list of the other impls.
    let mut axis_impl = |axis: isize, place: TokenStream2| {
        let ax = axis_arg(axis);
        out.extend(quote! {
            #[diagnostic::do_not_recommend]
            impl<#generics> crate::ops::elementwise::bounds::ElementwiseAxis<#yt, crate::ops::elementwise::Axis<#ax>> for #xt {
                type Place = #place;
            }
        });
    };
    let r = rx.max(ry);
    let rs = rx.min(ry);
    let x_is_small = rx < ry;
    if rx == ry {
        for axis in -16isize..16 {
            if axis == -1 || axis == 0 {
                axis_impl(axis, at(0));
            } else {
                axis_impl(axis, quote!(crate::ops::elementwise::bounds::Identical));
            }
        }
    } else {
        let d = (r - rs) as isize;
        // axes out of range, up to 16 away: the gate of `OutOfRange` (one
        // short error); further out, `ElementwiseAxis` has no impl
        for axis in (-16isize..16).filter(|a| !(-(r as isize)..r as isize).contains(a)) {
            axis_impl(axis, quote!(crate::ops::elementwise::bounds::OutOfRange));
        }
        for axis in -(r as isize)..(r as isize) {
            let o = if axis >= 0 { axis } else { d + axis + 1 };
            if o < 0 {
                // rejected by the gate of `ElementwiseAlign for BeforeStart`
                axis_impl(axis, quote!(crate::ops::elementwise::bounds::BeforeStart));
            } else if o as usize + rs <= r {
                axis_impl(axis, at(o as usize));
            } else {
                let (ol, kl) = (
                    LitInt::new(&format!("{o}usize"), Span::call_site()),
                    LitInt::new(&format!("{}usize", r - o as usize), Span::call_site()),
                );
                axis_impl(
                    axis,
                    quote!(crate::ops::elementwise::bounds::AtTrimmed<#ol, #kl>),
                );
            }
        }
    }
    // the alignment rule: one impl per placement
    // the alignment rule: one impl per placement. The dim rules are links of
    // one chain (see `merge_chain!`), so only the first failing pair is an error.
    let align = |place: TokenStream2, o: usize, kept: usize, link: TokenStream2| {
        let mut chain = Chain::new();
        // the trailing dims that run past the end first: the run-time rule
        // reports runs-past before a dim mismatch, and so does this chain
        for j in kept..rs {
            let sd = if x_is_small { &xs[j] } else { &ys[j] };
            chain.link(
                quote!(crate::ops::elementwise::bounds::ElementwiseDropLink<#sd, #xt, #yt, Ax>),
            );
        }
        let mut out_dims = Vec::new();
        let mut out_vals = Vec::new();
        for i in 0..r {
            if i >= o && i < o + kept {
                let j = i - o;
                let (xd, yd, xv, yv) = if x_is_small {
                    (&xs[j], &ys[i], syn::Index::from(j), syn::Index::from(i))
                } else {
                    (&xs[i], &ys[j], syn::Index::from(i), syn::Index::from(j))
                };
                let (gate, dim) = chain.link(quote!(#link<#xd, #yd, #xt, #yt, Ax>));
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
            }
        }
        let preds = chain.preds;
        // a rank-0 output is `()`: an empty body says so without a unit expression
        let body = if out_vals.is_empty() {
            quote!()
        } else {
            quote!((#(#out_vals,)*))
        };
        quote! {
            impl<#generics Ax> crate::ops::elementwise::bounds::ElementwiseAlign<#xt, #yt, Ax> for #place
            where #(#preds,)*
            {
                type Output = (#(#out_dims,)*);
                #[inline(always)]
                #[allow(unused_variables)]
                fn output(x: &#xt, y: &#yt) -> Self::Output { #body }
            }
        }
    };
    // the no-check rule of the plain forms: one impl per placement, whose
    // chain names the same dims as `align`'s (dropped ones first)
    let proven = |place: TokenStream2, o: usize, kept: usize, link: TokenStream2| {
        let mut chain = Chain::new();
        for j in kept..rs {
            let sd = if x_is_small { &xs[j] } else { &ys[j] };
            chain.link(
                quote!(crate::ops::elementwise::bounds::ElementwiseNoCheckDropLink<#sd, #xt, #yt, Ax>),
            );
        }
        for i in o..o + kept {
            let j = i - o;
            let (xd, yd) = if x_is_small {
                (&xs[j], &ys[i])
            } else {
                (&xs[i], &ys[j])
            };
            chain.link(quote!(#link<#xd, #yd, #xt, #yt, Ax>));
        }
        let preds = chain.preds;
        quote! {
            impl<#generics Ax> crate::ops::elementwise::bounds::ElementwiseProvenAlign<#xt, #yt, Ax> for #place
            where #(#preds,)*
            {}
        }
    };
    let no_check = quote!(crate::ops::elementwise::bounds::ElementwiseNoCheckLink);
    if rx == ry {
        out.extend(proven(at(0), 0, r, no_check.clone()));
        out.extend(proven(
            quote!(crate::ops::elementwise::bounds::Identical),
            0,
            r,
            quote!(crate::ops::elementwise::bounds::ElementwiseNoCheckSameLink),
        ));
    } else {
        for o in 0..=r {
            if o + rs <= r {
                out.extend(proven(at(o), o, rs, no_check.clone()));
            } else if o < r {
                let (ol, kl) = (
                    LitInt::new(&format!("{o}usize"), Span::call_site()),
                    LitInt::new(&format!("{}usize", r - o), Span::call_site()),
                );
                out.extend(proven(
                    quote!(crate::ops::elementwise::bounds::AtTrimmed<#ol, #kl>),
                    o,
                    r - o,
                    no_check.clone(),
                ));
            }
        }
    }
    if rx == ry {
        out.extend(align(
            at(0),
            0,
            r,
            quote!(crate::ops::elementwise::bounds::ElementwiseBroadcastLink),
        ));
        out.extend(align(
            quote!(crate::ops::elementwise::bounds::Identical),
            0,
            r,
            quote!(crate::ops::elementwise::bounds::ElementwiseSameLink),
        ));
    } else {
        // o = r only happens for a scalar operand (rs = 0) at axis -1
        for o in 0..=r {
            if o + rs <= r {
                out.extend(align(
                    at(o),
                    o,
                    rs,
                    quote!(crate::ops::elementwise::bounds::ElementwiseBroadcastLink),
                ));
            } else if o < r {
                let kept = r - o;
                let (ol, kl) = (
                    LitInt::new(&format!("{o}usize"), Span::call_site()),
                    LitInt::new(&format!("{kept}usize"), Span::call_site()),
                );
                out.extend(align(
                    quote!(crate::ops::elementwise::bounds::AtTrimmed<#ol, #kl>),
                    o,
                    kept,
                    quote!(crate::ops::elementwise::bounds::ElementwiseBroadcastLink),
                ));
            }
        }
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
