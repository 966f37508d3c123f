//! The per-rank impls of the elementwise rule: for every pair of ranks, the
//! ranks as a type (`ElementwiseRanks`) and the dim rules of each placement
//! (`ElementwiseAlign`, `ElementwiseProvenAlign`); and the axis tables that
//! give the placement an axis means for those ranks (`ElementwiseAxisPlace`,
//! `ElementwiseAxisInRange`, `ElementwiseInRangePlace`). Paths under
//! `crate::`: used inside shapecheck only.

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

/// `Ranks<R, D>`: different ranks, `R` the larger and `D` the difference.
fn ranks_type(r: usize, d: usize) -> TokenStream2 {
    let (r, d) = (usize_lit(r), usize_lit(d));
    quote!(crate::ops::elementwise::bounds::Ranks<#r, #d>)
}

fn usize_lit(n: usize) -> LitInt {
    LitInt::new(&format!("{n}usize"), Span::call_site())
}

/// The placement axis `axis` means for different ranks (the larger `r`, the
/// difference `d`), the axis in `[-r, r)`, by Paddle's rule: the lower-rank
/// operand starts at dim `o` (`axis`, or `d + axis + 1` for a negative one);
/// before the first dim is an error; past `d` its trailing dims run past the end.
fn in_range_place(r: usize, d: usize, axis: isize) -> TokenStream2 {
    let o = if axis >= 0 {
        axis
    } else {
        d as isize + axis + 1
    };
    if o < 0 {
        quote!(crate::ops::elementwise::bounds::BeforeStart)
    } else if o as usize <= d {
        let o = usize_lit(o as usize);
        quote!(crate::ops::elementwise::bounds::At<#o>)
    } else {
        let (ol, kl) = (usize_lit(o as usize), usize_lit(r - o as usize));
        quote!(crate::ops::elementwise::bounds::AtTrimmed<#ol, #kl>)
    }
}

/// The axis tables, for ranks up to `max`: which placement each axis in
/// `[-16, 16)` means.
/// - equal ranks (`EqualRanks`): -1 and 0 broadcast (`At<0>`), any other
///   axis means identical shapes (`Identical`);
/// - different ranks (`Ranks<R, D>`): first the range (`ElementwiseAxisInRange`
///   for each `R`: `InRange` or `OutOfRange`, whose gate is one short
///   error), then the placement of an axis in range (`ElementwiseInRangePlace`):
///   a negative axis depends on `D` only, a non-negative one on `R` and `D`.
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
        let place = if axis == -1 || axis == 0 {
            quote!(crate::ops::elementwise::bounds::At<0usize>)
        } else {
            quote!(crate::ops::elementwise::bounds::Identical)
        };
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
            let verdict = if (-(r as isize)..r as isize).contains(&axis) {
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
    // a negative axis in range: `d + axis + 1` whatever the larger rank
    for d in 1..=max {
        let dl = usize_lit(d);
        for axis in -(max as isize)..0 {
            let ax = axis_ty(axis);
            // `r` is not read for a negative axis
            let place = in_range_place(max, d, axis);
            out.extend(quote! {
                impl<const R: usize> crate::ops::elementwise::bounds::ElementwiseInRangePlace<R, #dl> for #ax {
                    type Place = #place;
                }
            });
        }
    }
    // a non-negative axis in range: `At` up to `d`, past it `AtTrimmed`
    for r in 1..=max {
        for d in 1..=r {
            let (rl, dl) = (usize_lit(r), usize_lit(d));
            for axis in 0..r as isize {
                let ax = axis_ty(axis);
                let place = in_range_place(r, d, axis);
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
    let at = |o: usize| {
        let o = LitInt::new(&format!("{o}usize"), Span::call_site());
        quote!(crate::ops::elementwise::bounds::At<#o>)
    };
    let r = rx.max(ry);
    let rs = rx.min(ry);
    let x_is_small = rx < ry;
    // the ranks as a type, from which the axis tables pick the placement
    let ranks = if rx == ry {
        quote!(crate::ops::elementwise::bounds::EqualRanks)
    } else {
        ranks_type(r, r - rs)
    };
    out.extend(quote! {
        impl<#generics> crate::ops::elementwise::bounds::ElementwiseRanks<#yt> for #xt {
            type Ranks = #ranks;
        }
    });
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
        let mut kept_as_is = Vec::new();
        let mut copied = Vec::new();
        for i in 0..r {
            if i >= o && i < o + kept {
                let j = i - o;
                let (xd, yd, xv, yv) = if x_is_small {
                    (&xs[j], &ys[i], syn::Index::from(j), syn::Index::from(i))
                } else {
                    (&xs[i], &ys[j], syn::Index::from(i), syn::Index::from(j))
                };
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
        quote! {
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
