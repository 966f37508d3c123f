//! The per-rank impls of select's pairwise rules: numpy (right-aligned, two
//! way), none (identical) and the pdpd placements. Paths under `crate::`:
//! used inside shapecheck only.

use crate::common::{axis_arg, idents, tuple};
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;

/// The pairwise numpy and "none" rules of select, and the pdpd placements.
pub(crate) fn select_rules(max: usize) -> TokenStream2 {
    let mut out = TokenStream2::new();
    for ra in 0..=max {
        for rb in 0..=max {
            let a = idents("A", ra);
            let b = idents("B", rb);
            let at = tuple(&a);
            let bt = tuple(&b);
            let generics =
                quote!(#(#a: crate::dim::DimLike,)* #(#b: crate::dim::DimLike,)* C, T, E);
            // numpy: right-aligned, two-way
            let r = ra.max(rb);
            let mut preds = Vec::new();
            let mut dims = Vec::new();
            let mut vals = Vec::new();
            for i in 0..r {
                let ai = (i + ra).checked_sub(r);
                let bi = (i + rb).checked_sub(r);
                match (ai, bi) {
                    (Some(p), Some(q)) => {
                        let (ad, bd) = (&a[p], &b[q]);
                        let (pv, qv) = (syn::Index::from(p), syn::Index::from(q));
                        preds.push(quote!(#ad: crate::rules::SelectNumpyDim<#bd, C, T, E>));
                        dims.push(quote!(<#ad as crate::rules::SelectNumpyDim<#bd, C, T, E>>::Out));
                        vals.push(quote!(crate::rules::SelectNumpyDim::<#bd, C, T, E>::merge(x.#pv, y.#qv)));
                    }
                    (Some(p), None) => {
                        let ad = &a[p];
                        let pv = syn::Index::from(p);
                        dims.push(quote!(#ad));
                        vals.push(quote!(x.#pv));
                    }
                    (None, Some(q)) => {
                        let bd = &b[q];
                        let qv = syn::Index::from(q);
                        dims.push(quote!(#bd));
                        vals.push(quote!(y.#qv));
                    }
                    (None, None) => {}
                }
            }
            let pair = |name: TokenStream2,
                        preds: &[TokenStream2],
                        dims: &[TokenStream2],
                        vals: &[TokenStream2]| {
                quote! {
                    impl<#generics> crate::rules::#name<#bt, C, T, E> for #at
                    where #(#preds,)*
                    {
                        type Output = (#(#dims,)*);
                        #[inline(always)]
                        #[allow(unused_variables, clippy::unused_unit)]
                        fn output(x: &Self, y: &#bt) -> Self::Output { (#(#vals,)*) }
                    }
                }
            };
            out.extend(pair(quote!(SelectNumpyPair), &preds, &dims, &vals));
            // none: identical shapes
            if ra == rb {
                let preds: Vec<_> = a
                    .iter()
                    .zip(&b)
                    .map(|(p, q)| quote!(#p: crate::rules::SelectSameDim<#q, C, T, E>))
                    .collect();
                let dims: Vec<_> = a
                    .iter()
                    .zip(&b)
                    .map(|(p, q)| quote!(<#p as crate::rules::SelectSameDim<#q, C, T, E>>::Out))
                    .collect();
                let vals: Vec<_> = (0..ra)
                    .map(|i| {
                        let q = &b[i];
                        let iv = syn::Index::from(i);
                        quote!(crate::rules::SelectSameDim::<#q, C, T, E>::merge(x.#iv, y.#iv))
                    })
                    .collect();
                out.extend(pair(quote!(SelectSamePair), &preds, &dims, &vals));
            }
            // pdpd: source A placed in destination B at an axis, one way
            if ra <= rb {
                for axis in -1isize..=(max as isize) {
                    let ax = axis_arg(axis);
                    let o = if axis < 0 { rb - ra } else { axis as usize };
                    if o > rb {
                        continue;
                    }
                    let kept = ra.min(rb - o);
                    let mut preds = Vec::new();
                    for (j, ad) in a.iter().enumerate() {
                        if j < kept {
                            let bd = &b[o + j];
                            preds.push(quote!(#ad: crate::rules::SelectPdpdDim<#bd, C, T, E, #ax>));
                        } else {
                            preds.push(
                                quote!(#ad: crate::rules::SelectPdpdDroppableDim<C, T, E, #ax>),
                            );
                        }
                    }
                    out.extend(quote! {
                        impl<#generics> crate::rules::SelectPdpdInto<#bt, C, T, E, #ax> for #at
                        where #(#preds,)*
                        {}
                    });
                }
            }
        }
    }
    out
}
