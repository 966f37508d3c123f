//! The per-rank impls of matmul's rule (`MatmulRule`, which the public
//! `shapecheck::ops::matmul::bounds::MatmulShapes` has one blanket impl
//! over): one impl per pair of ranks 0..=max (one for a 0-d x), generic over the transpose markers (so that rustc never
//! infers a marker from the shapes).
//!
//! Each impl names where its dims go, nothing more: x's last two dims (or
//! its one dim) and y's, picked by the markers (`Transpose::Lead` /
//! `Trail`; a vector's marker is ignored), the batch dims right-aligned,
//! the inner dims checked through `MatmulInnerLink` (its `Self`, a pair of
//! markers, says where each inner dim is, for the message), then each
//! aligned pair of batch dims merged by `MatmulBatchLink`, a chain that
//! starts from the inner rule's `Ok`: one error for the first rule broken. A 0-d operand's output
//! passes through the gate `MatmulRankGate` (implemented by nothing). The
//! sizes are the run-time rule's (`ops/matmul/rule.rs`), which the static
//! path calls at compile time; these impls only type the output and carry
//! the compile errors. How a rank is read (0-d, vector, matrix) and where the
//! batch dims go is `shapecheck_rules::matmul`, which that rule calls too.

use super::common::{idents, tuple};
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;
use shapecheck_rules::matmul::{batch, batch_rank, operand, Operand};
use syn::Index;

/// `MatmulRule<(Y..), TX, TY>` for `(X..)`, every pair of ranks 0..=max.
pub(crate) fn matmul_rules(max: usize) -> TokenStream2 {
    let m = quote!(crate::ops::matmul::bounds);
    let tr = quote!(crate::ops::matmul::Transpose);
    let dim = quote!(crate::dim::DimLike);
    let mut out = TokenStream2::new();
    for rx in 0..=max {
        for ry in 0..=max {
            let (x, y) = (idents("X", rx), idents("Y", ry));
            let (xt, yt) = (tuple(&x), tuple(&y));
            let (ox, oy) = (operand(rx), operand(ry));
            if ox == Operand::Scalar || oy == Operand::Scalar {
                // a 0-d operand: the rank rule's gate. A 0-d x has one impl
                // for any y, its gate on y's shape (which rustc does not
                // know yet when it picks the method, so it picks it and
                // reports the gate, not a missing method): the one written
                // with y of rank 0
                if ox == Operand::Scalar && oy != Operand::Scalar {
                    continue;
                }
                let (yt, gate) = if ox == Operand::Scalar {
                    (quote!(Y), quote!(Y))
                } else {
                    (yt.clone(), quote!(()))
                };
                let y_param = if ox == Operand::Scalar {
                    quote!(Y: crate::shape::Shape,)
                } else {
                    quote!()
                };
                out.extend(quote! {
                    impl<#(#x: #dim,)* #y_param TX: #tr, TY: #tr> #m::MatmulRule<#yt, TX, TY> for #xt
                    where #gate: #m::MatmulRankGate<#xt, #yt>
                    {
                        type Output = <#gate as #m::MatmulRankGate<#xt, #yt>>::Output;
                        #[inline(always)]
                        fn output(&self, _: &#yt) -> Self::Output {
                            <#gate as #m::MatmulRankGate<#xt, #yt>>::output()
                        }
                    }
                });
                continue;
            }
            // x: its inner dim, and M unless it is a vector (a vector's
            // marker is ignored: its inner dim is its last, as NoTrans says)
            let (kx, xat, mx) = if ox == Operand::Vector {
                (quote!(X0), quote!(crate::ops::matmul::NoTrans), None)
            } else {
                // the matrix: the two dims after the batch dims
                let at = batch_rank(rx);
                let (a, b) = (&x[at], &x[at + 1]);
                let (ia, ib) = (Index::from(at), Index::from(at + 1));
                (
                    quote!(<TX as #tr>::Trail<#a, #b>),
                    quote!(TX),
                    Some((
                        quote!(<TX as #tr>::Lead<#a, #b>),
                        quote!(<TX as #tr>::lead(self.#ia, self.#ib)),
                    )),
                )
            };
            // y: its inner dim, and N unless it is a vector (its inner dim
            // is its last, as Trans says)
            let (ky, yat, ny) = if oy == Operand::Vector {
                (quote!(Y0), quote!(crate::ops::matmul::Trans), None)
            } else {
                // the matrix: the two dims after the batch dims
                let at = batch_rank(ry);
                let (a, b) = (&y[at], &y[at + 1]);
                let (ia, ib) = (Index::from(at), Index::from(at + 1));
                (
                    quote!(<TY as #tr>::Lead<#a, #b>),
                    quote!(TY),
                    Some((
                        quote!(<TY as #tr>::Trail<#a, #b>),
                        quote!(<TY as #tr>::trail(y.#ia, y.#ib)),
                    )),
                )
            };
            // the batch dims, right-aligned; each aligned pair a link of a
            // chain that starts once the inner dims have met (its `Self` the
            // inner rule's `Ok`, then the previous pair's dim), so that only
            // the first rule broken is reported, as the run-time rule does
            let b = batch(rx, ry);
            let inner = quote!((#xat, #yat): #m::MatmulInnerLink<#kx, #ky, #xt, #yt>);
            let mut prev = quote!(<(#xat, #yat) as #m::MatmulInnerLink<#kx, #ky, #xt, #yt>>::Ok);
            let (mut preds, mut dims, mut values) = (vec![inner], Vec::new(), Vec::new());
            for p in 0..b.frame {
                match (b.x.dim_at(p), b.y.dim_at(p)) {
                    (Some(i), Some(j)) => {
                        let (a, b) = (&x[i], &y[j]);
                        let (ia, ib) = (Index::from(i), Index::from(j));
                        let link = quote!(#m::MatmulBatchLink<#a, #b, #xt, #yt>);
                        preds.push(quote!(#prev: #link));
                        let out = quote!(<#prev as #link>::Out);
                        dims.push(out.clone());
                        values.push(quote!(<#prev as #link>::merge(self.#ia, y.#ib)));
                        prev = out;
                    }
                    (Some(i), None) => {
                        let (a, ia) = (&x[i], Index::from(i));
                        dims.push(quote!(#a));
                        values.push(quote!(self.#ia));
                    }
                    (None, Some(j)) => {
                        let (b, ib) = (&y[j], Index::from(j));
                        dims.push(quote!(#b));
                        values.push(quote!(y.#ib));
                    }
                    (None, None) => {}
                }
            }
            for (d, v) in mx.into_iter().chain(ny) {
                dims.push(d);
                values.push(v);
            }
            // vector · vector: a 0-d output, `()` (an empty block)
            let value = if values.is_empty() {
                quote!()
            } else {
                quote!((#(#values,)*))
            };
            out.extend(quote! {
                impl<#(#x: #dim,)* #(#y: #dim,)* TX: #tr, TY: #tr>
                    #m::MatmulRule<#yt, TX, TY> for #xt
                where
                    #(#preds,)*
                {
                    type Output = (#(#dims,)*);
                    #[inline(always)]
                    fn output(&self, y: &#yt) -> Self::Output {
                        let _ = y;
                        #value
                    }
                }
            });
        }
    }
    out
}
