//! The per-rank impls of the elementwise rule: for every pair of ranks, the
//! placement each axis means (`ElementwiseAxis`) and the dim rules of each
//! placement (`ElementwiseAlign`). Paths under `crate::`: used inside
//! shapecheck only.

use crate::common::{axis_arg, idents, tuple};
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::quote;
use syn::LitInt;

/// `ElementwiseShapes` for every pair of ranks 0..=N and every axis Paddle accepts.
pub(crate) fn elementwise_rules(max: usize) -> TokenStream2 {
    let mut out = TokenStream2::new();
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
        quote!(crate::rules::At<#o>)
    };
    // the axis rule: which placement each axis means
    let mut axis_impl = |axis: isize, place: TokenStream2, gate: Option<TokenStream2>| {
        let ax = axis_arg(axis);
        let wh = gate.map(|g| quote!(where #g)).unwrap_or_default();
        out.extend(quote! {
            impl<#generics> crate::rules::ElementwiseAxis<#xt, #yt> for crate::rules::Axis<#ax> #wh {
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
                axis_impl(axis, at(0), None);
            } else {
                axis_impl(axis, quote!(crate::rules::Identical), None);
            }
        }
    } else {
        let d = (r - rs) as isize;
        for axis in -(r as isize)..(r as isize) {
            let o = if axis >= 0 { axis } else { d + axis + 1 };
            if o < 0 {
                let ax = axis_arg(axis);
                axis_impl(
                    axis,
                    quote!(crate::rules::BeforeStart),
                    Some(
                        quote!((): crate::rules::ElementwiseAxisBeforeStart<#xt, #yt, crate::rules::Axis<#ax>>),
                    ),
                );
            } else if o as usize + rs <= r {
                axis_impl(axis, at(o as usize), None);
            } else {
                let (ol, kl) = (
                    LitInt::new(&format!("{o}usize"), Span::call_site()),
                    LitInt::new(&format!("{}usize", r - o as usize), Span::call_site()),
                );
                axis_impl(axis, quote!(crate::rules::AtTrimmed<#ol, #kl>), None);
            }
        }
    }
    // the alignment rule: one impl per placement
    let align = |place: TokenStream2, o: usize, kept: usize, rule: TokenStream2| {
        let mut preds = Vec::new();
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
                preds.push(quote!(#xd: #rule<#yd, #xt, #yt, Ax>));
                out_dims.push(quote!(<#xd as #rule<#yd, #xt, #yt, Ax>>::Out));
                out_vals.push(quote!(#rule::<#yd, #xt, #yt, Ax>::merge(x.#xv, y.#yv)));
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
        for j in kept..rs {
            let sd = if x_is_small { &xs[j] } else { &ys[j] };
            preds.push(quote!(#sd: crate::rules::ElementwiseDroppableDim<#xt, #yt, Ax>));
        }
        // a rank-0 output is `()`: an empty body says so without a unit expression
        let body = if out_vals.is_empty() {
            quote!()
        } else {
            quote!((#(#out_vals,)*))
        };
        quote! {
            impl<#generics Ax> crate::rules::ElementwiseAlign<#xt, #yt, Ax> for #place
            where #(#preds,)*
            {
                type Output = (#(#out_dims,)*);
                #[inline(always)]
                #[allow(unused_variables)]
                fn output(x: &#xt, y: &#yt) -> Self::Output { #body }
            }
        }
    };
    if rx == ry {
        out.extend(align(
            at(0),
            0,
            r,
            quote!(crate::rules::ElementwiseBroadcastDim),
        ));
        out.extend(align(
            quote!(crate::rules::Identical),
            0,
            r,
            quote!(crate::rules::ElementwiseSameDim),
        ));
    } else {
        // o = r only happens for a scalar operand (rs = 0) at axis -1
        for o in 0..=r {
            if o + rs <= r {
                out.extend(align(
                    at(o),
                    o,
                    rs,
                    quote!(crate::rules::ElementwiseBroadcastDim),
                ));
            } else if o < r {
                let kept = r - o;
                let (ol, kl) = (
                    LitInt::new(&format!("{o}usize"), Span::call_site()),
                    LitInt::new(&format!("{kept}usize"), Span::call_site()),
                );
                out.extend(align(
                    quote!(crate::rules::AtTrimmed<#ol, #kl>),
                    o,
                    kept,
                    quote!(crate::rules::ElementwiseBroadcastDim),
                ));
            }
        }
    }
    out
}
