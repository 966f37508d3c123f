//! The per-rank impls of the reductions' and softmax's type-level rules
//! (`shapecheck::ops::reduce::bounds`, `shapecheck::ops::softmax::bounds`).
//! Nothing here computes an axis: each axis a rank takes is placed by
//! `shapecheck_rules::axis::slot`, the function the run-time rule calls (an
//! axis it rejects has no impl); the rest is the bookkeeping of tuples (a
//! mask of kept and reduced dims, and the shape it leaves).

use super::common::{axis_arg, idents, tuple};
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;
use shapecheck_rules::axis::{slot, span};

/// The axes the tables ask the rule about: every rank up to 8 takes at
/// most `[-8, 8)`.
const AXES: core::ops::Range<isize> = -16..16;

/// The axes a rank's table lists and the dim each names: those the rule
/// places ([`slot`]).
fn placed_axes(rank: usize) -> impl Iterator<Item = (isize, usize)> {
    AXES.filter_map(move |axis| Some((axis, slot(axis, rank)?)))
}

/// `<trait><S, R, A>` for `()` (the range table, from [`slot`]) and
/// `<of><A>` for each rank's tuples (which names the rank `R`), for ranks
/// 0..=max.
fn axis_table(
    m: &TokenStream2,
    range: &TokenStream2,
    of: &TokenStream2,
    max: usize,
) -> TokenStream2 {
    let mut out = TokenStream2::new();
    for r in 0..=max {
        for (a, slot) in placed_axes(r) {
            let aa = axis_arg(a);
            out.extend(quote! {
                #[diagnostic::do_not_recommend]
                impl<S> #m::#range<S, #r, #aa> for () {
                    type Pos = crate::ops::reduce::bounds::Pos<#slot>;
                }
            });
        }
        let d = idents("D", r);
        let dt = tuple(&d);
        out.extend(quote! {
            impl<#(#d,)* const A: isize> #m::#of<A> for #dt
            where (): #m::#range<#dt, #r, A>
            {
                type Pos = <() as #m::#range<#dt, #r, A>>::Pos;
            }
        });
    }
    out
}

/// The reductions' impls for ranks 0..=max: the axis table, each rank's
/// masks (`ReduceMask`: all kept, all reduced), marking a position
/// (`MarkAxis`: kept to reduced; a position already reduced has no impl, the
/// duplicate-axis error) and each mask's shapes (`ApplyMask`).
pub fn reduce_rules(max: usize) -> TokenStream2 {
    let m = quote!(crate::ops::reduce::bounds);
    let mut out = axis_table(&m, &quote!(ReduceAxisRange), &quote!(ReduceAxisOf), max);
    // marking position i of a mask of `slots` dims (one table per length:
    // a 0-d x's mask has one slot, as a rank-1 x's)
    for slots in 1..=span(max) {
        let ms = idents("M", slots);
        for i in 0..slots {
            let generics: Vec<_> = ms
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != i)
                .map(|(_, m)| m)
                .collect();
            let before: Vec<_> = ms
                .iter()
                .enumerate()
                .map(|(k, mk)| {
                    if k == i {
                        quote!(#m::Kept)
                    } else {
                        quote!(#mk)
                    }
                })
                .collect();
            let after: Vec<_> = ms
                .iter()
                .enumerate()
                .map(|(k, mk)| {
                    if k == i {
                        quote!(#m::Gone)
                    } else {
                        quote!(#mk)
                    }
                })
                .collect();
            out.extend(quote! {
                #[diagnostic::do_not_recommend]
                impl<#(#generics,)* S, const A: isize> #m::MarkAxis<(#(#before,)*), S, A> for #m::Pos<#i> {
                    type Out = (#(#after,)*);
                }
            });
        }
    }
    for r in 0..=max {
        let d = idents("D", r);
        let dt = tuple(&d);
        // a 0-d x's one virtual dim is a slot too
        let slots = span(r);
        let kept = (0..slots).map(|_| quote!(#m::Kept));
        let all = (0..slots).map(|_| {
            if r == 0 {
                quote!(#m::Whole)
            } else {
                quote!(#m::Gone)
            }
        });
        out.extend(quote! {
            impl<#(#d,)*> #m::ReduceMask for #dt {
                type Keep = (#(#kept,)*);
                type All = (#(#all,)*);
            }
        });
        // the shapes each mask leaves
        if r == 0 {
            out.extend(quote! {
                impl #m::ApplyMask<()> for (#m::Gone,) {
                    type Out = ();
                    type Kept = ();
                    type ArgKept = (crate::dim::One,);
                    #[inline(always)]
                    fn out(_x: &()) {}
                    #[inline(always)]
                    fn kept(_x: &()) {}
                    #[inline(always)]
                    fn arg_kept(_x: &()) -> (crate::dim::One,) {
                        (crate::dim::One,)
                    }
                }
                impl #m::ApplyMask<()> for (#m::Whole,) {
                    type Out = ();
                    type Kept = ();
                    type ArgKept = ();
                    #[inline(always)]
                    fn out(_x: &()) {}
                    #[inline(always)]
                    fn kept(_x: &()) {}
                    #[inline(always)]
                    fn arg_kept(_x: &()) {}
                }
            });
            continue;
        }
        for bits in 0..(1u32 << r) {
            let gone = |k: usize| bits & (1 << k) != 0;
            let mask = (0..r).map(|k| {
                if gone(k) {
                    quote!(#m::Gone)
                } else {
                    quote!(#m::Kept)
                }
            });
            let dropped = d
                .iter()
                .enumerate()
                .filter(|(k, _)| !gone(*k))
                .map(|(_, x)| x);
            let keep: Vec<_> = d
                .iter()
                .enumerate()
                .map(|(k, x)| {
                    if gone(k) {
                        quote!(crate::dim::One)
                    } else {
                        quote!(#x)
                    }
                })
                .collect();
            // the same shapes as values, from x's
            let dropped_v: Vec<_> = (0..r)
                .filter(|k| !gone(*k))
                .map(|k| {
                    let i = syn::Index::from(k);
                    quote!(x.#i)
                })
                .collect();
            // every dim reduced: the output is `()`, written as no value
            let out_body = if dropped_v.is_empty() {
                quote!(let _ = x;)
            } else {
                quote!((#(#dropped_v,)*))
            };
            let keep_v: Vec<_> = (0..r)
                .map(|k| {
                    let i = syn::Index::from(k);
                    if gone(k) {
                        quote!(crate::dim::One)
                    } else {
                        quote!(x.#i)
                    }
                })
                .collect();
            out.extend(quote! {
                impl<#(#d: crate::dim::DimLike,)*> #m::ApplyMask<#dt> for (#(#mask,)*) {
                    type Out = (#(#dropped,)*);
                    type Kept = (#(#keep,)*);
                    type ArgKept = (#(#keep,)*);
                    #[inline(always)]
                    fn out(x: &#dt) -> Self::Out {
                        #out_body
                    }
                    #[inline(always)]
                    fn kept(x: &#dt) -> Self::Kept {
                        (#(#keep_v,)*)
                    }
                    #[inline(always)]
                    fn arg_kept(x: &#dt) -> Self::ArgKept {
                        (#(#keep_v,)*)
                    }
                }
            });
        }
    }
    out
}

/// softmax's axis table for ranks 0..=max (`SoftmaxAxisRange`, `SoftmaxAxisOf`).
pub fn softmax_rules(max: usize) -> TokenStream2 {
    let m = quote!(crate::ops::softmax::bounds);
    axis_table(&m, &quote!(SoftmaxAxisRange), &quote!(SoftmaxAxisOf), max)
}
