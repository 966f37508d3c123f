//! The per-rank impls of dynamic_stitch's and dynamic_partition's shape
//! rules (`shapecheck::ops::stitch::bounds`): "data's shape starts with the
//! indices' shape" and "what follows that prefix (the slice) is the slice of
//! the earlier pairs".

use super::common::{idents, rank_pairs, tuple, RankPair};
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;

/// For every data rank `q` and indices rank `r` in 0..=max:
/// - `r <= q`: `StitchPrefix<(J..)>` and `PartitionPrefix<(J..)>` for
///   `(D..)`, requiring `J_i: SameDim<D_i>` for the first `r` dims, with
///   `Slice = (D_r, .., D_{q-1})`; `StitchSliceOf<(J..), (A..)>` for `(D..)`
///   requiring `D_{r+i}: SameDim<A_i>` (`A` of rank `q - r`);
/// - `r > q`: no prefix impl (the rule's own message), and a
///   `StitchSliceOf` that holds for any slice, so that a pair whose indices
///   outrank its data is reported once, by the prefix rule.
///
/// Every impl carries `#[diagnostic::do_not_recommend]`: a failing bound is
/// then reported by the rule trait's own message (both shapes, the rule),
/// not by a nested dim bound or an impl list.
pub fn rules(max: usize) -> TokenStream2 {
    let m = quote!(crate::ops::stitch::bounds);
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
        if r > q {
            out.extend(quote! {
                #[diagnostic::do_not_recommend]
                impl<#(#d: crate::dim::DimLike,)* #(#j: crate::dim::DimLike,)* S0>
                    #m::StitchSliceOf<#jt, S0> for #dt
                {
                    type Slice = S0;
                }
            });
            continue;
        }
        let head = &d[..r];
        let slice = tuple(&d[r..]);
        let a = idents("A", q - r);
        let at = tuple(&a);
        let tail = &d[r..];
        for tr in [quote!(StitchPrefix), quote!(PartitionPrefix)] {
            out.extend(quote! {
                #[diagnostic::do_not_recommend]
                impl<#(#d: crate::dim::DimLike,)* #(#j: crate::dim::DimLike,)*> #m::#tr<#jt> for #dt
                where #(#j: #m::SameDim<#head>,)*
                {
                    type Slice = #slice;
                }
            });
        }
        out.extend(quote! {
            #[diagnostic::do_not_recommend]
            impl<#(#d: crate::dim::DimLike,)* #(#j: crate::dim::DimLike,)* #(#a: crate::dim::DimLike,)*>
                #m::StitchSliceOf<#jt, #at> for #dt
            where #(#tail: #m::SameDim<#a>,)*
            {
                type Slice = #at;
            }
        });
    }
    out
}
