//! Procedural macros for `shapecheck`.
//!
//! - [`shape!`]: the user-facing shape type macro;
//! - [`tensor!`]: the tensor literal macro (shape read from the nesting);
//! - `shared_bounds!`: one where-clause for several functions (the public
//!   forms of one op), used inside `shapecheck`;
//! - `impl_shape_tuples!`, `impl_elementwise_rules!`, `impl_select_rules!`,
//!   `impl_multiplex_rules!`, `impl_stitch_rules!`, `impl_partition_rules!`:
//!   used once each inside `shapecheck` to generate the per-rank impls of its
//!   shape traits (rank padding, numpy right-alignment, Paddle's axis
//!   placement, a shape's prefix), so that none is written by hand.
//!   They expand to paths under `crate::`, so they only work inside `shapecheck`.
//!
//! `shape!` and `tensor!` are called through `macro_rules!` wrappers in
//! `shapecheck`, which pass `$crate ;` first: the paths they generate start
//! with that token, so they resolve even when a user renames the library in
//! their Cargo.toml (`sc = { package = "shapecheck", ... }`; the workspace's
//! `rename-check` crate builds that way). Called without it, they use
//! `::shapecheck`. Each generator is a function from a rank (or tokens) to
//! tokens, unit-tested in `tests.rs`.

mod bounds;
mod common;
mod elementwise;
mod select;
mod shape;
mod tensor;
#[cfg(test)]
mod tests;

use common::{idents, parse_max_rank, tuple};
use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;
use quote::{format_ident, quote};

mod stitch;

/// A shape type from a list of dims: `shape![2, 1, Dyn, N]` is
/// `(Dim<2>, One, Dyn, Dim<{ N }>)`. See `shapecheck::shape!`.
#[proc_macro]
pub fn shape(input: TokenStream) -> TokenStream {
    with_crate_path(input, shape::shape_impl)
}

/// Runs a macro that takes the path to the library first (see the crate
/// docs), turning its error into a compile error at the offending tokens.
fn with_crate_path(
    input: TokenStream,
    imp: fn(&TokenStream2, TokenStream2) -> syn::Result<TokenStream2>,
) -> TokenStream {
    let (krate, input) = shape::split_crate_path(input.into());
    imp(&krate, input)
        .unwrap_or_else(|e| e.to_compile_error())
        .into()
}

/// One where-clause for several functions: `shared_bounds! { where P, Q;
/// fn a(..) { .. } fn b(..) where R { .. } }` appends `P, Q` to the
/// where-clause of `a` and of `b` (see `bounds.rs`). Used inside `shapecheck`
/// for the public forms of an op that take the same tensors.
#[proc_macro]
pub fn shared_bounds(input: TokenStream) -> TokenStream {
    bounds::shared_bounds(input.into())
        .unwrap_or_else(|e| e.to_compile_error())
        .into()
}

/// `Shape` and `StaticShape` for tuples of rank 1 to N.
#[proc_macro]
pub fn impl_shape_tuples(input: TokenStream) -> TokenStream {
    shape::shape_tuples(parse_max_rank(input.into())).into()
}

/// `ElementwiseShapes` for every pair of ranks 0..=N and every axis Paddle accepts.
#[proc_macro]
pub fn impl_elementwise_rules(input: TokenStream) -> TokenStream {
    elementwise::elementwise_rules(parse_max_rank(input.into())).into()
}

/// The pairwise numpy and "none" rules of select, and the pdpd placements.
#[proc_macro]
pub fn impl_select_rules(input: TokenStream) -> TokenStream {
    select::select_rules(parse_max_rank(input.into())).into()
}

/// `MultiplexShapes` for every candidate rank 0..=N, and `MultiplexIndexShape`
/// for every index rank 0..=N except 2 (whose one impl is written by hand).
///
/// `MultiplexShapes<IS>` has one impl per candidate rank, for any `IS`: rank 0
/// and 1 require the gate `MultiplexCandidateRank` (implemented by no type),
/// the others `IS: MultiplexIndexShape<S>`, and their output shape is the
/// index's row dim followed by the candidates' dims after the first. Index
/// ranks other than 2 require the gate `MultiplexIndexRank`. The index shape
/// is always the `Self` type of the bound, so rustc waits until it knows the
/// index's type before deciding (and names the failing rule in the error).
#[proc_macro]
pub fn impl_multiplex_rules(input: TokenStream) -> TokenStream {
    let max = parse_max_rank(input.into());
    let mut out = TokenStream2::new();
    for r in 0..=max {
        let d = idents("D", r);
        let t = tuple(&d);
        let rank = format_ident!("MultiplexRank{}", r);
        out.extend(quote! {
            #[doc(hidden)]
            pub struct #rank;
            impl<#(#d: crate::dim::DimLike,)*> crate::ops::multiplex::bounds::MultiplexRankOf for #t {
                type Rank = #rank;
            }
        });
        if r < 2 {
            // `do_not_recommend`: the failing bound reported is this impl's
            // (`MultiplexByRank`, whose message is the candidate-rank rule),
            // without rustc showing the impl itself
            out.extend(quote! {
                #[diagnostic::do_not_recommend]
                impl<#(#d: crate::dim::DimLike,)* IS: crate::shape::Shape> crate::ops::multiplex::bounds::MultiplexByRank<#t, IS> for #rank
                where IS: crate::ops::multiplex::bounds::MultiplexLowRank<#t>
                {
                    type Output = #t;
                    const CANDIDATE_DIMS: crate::dim::StaticDims = &[];
                    const INDEX_DIMS: crate::dim::StaticDims = &[];
                    fn output(candidates: &#t, _index: &IS) -> #t { *candidates }
                }
            });
            continue;
        }
        let rest = &d[1..];
        let idx: Vec<syn::Index> = (1..r).map(syn::Index::from).collect();
        out.extend(quote! {
            impl<#(#d: crate::dim::DimLike,)* IS: crate::shape::Shape> crate::ops::multiplex::bounds::MultiplexByRank<#t, IS> for #rank
            where IS: crate::ops::multiplex::bounds::MultiplexIndexShape<#t>
            {
                type Output = (<IS as crate::ops::multiplex::bounds::MultiplexIndexShape<#t>>::Rows, #(#rest,)*);
                const CANDIDATE_DIMS: crate::dim::StaticDims =
                    &[#(<#d as crate::dim::DimLike>::STATIC),*];
                const INDEX_DIMS: crate::dim::StaticDims =
                    <IS as crate::ops::multiplex::bounds::MultiplexIndexShape<#t>>::STATIC_DIMS;
                #[inline(always)]
                fn output(candidates: &#t, index: &IS) -> Self::Output {
                    (crate::ops::multiplex::bounds::MultiplexIndexShape::<#t>::rows(index), #(candidates.#idx,)*)
                }
            }
        });
    }
    for q in 0..=max {
        if q == 2 {
            continue;
        }
        let j = idents("J", q);
        let jt = tuple(&j);
        out.extend(quote! {
            impl<#(#j: crate::dim::DimLike,)* S: crate::shape::Shape> crate::ops::multiplex::bounds::MultiplexIndexShape<S> for #jt
            where #jt: crate::ops::multiplex::bounds::MultiplexIndexRank<S>
            {
                // never used (the gate has no impl); a static dim, so that
                // the output type raises no error of its own
                type Rows = crate::dim::One;
                const STATIC_DIMS: crate::dim::StaticDims = &[];
                fn rows(&self) -> crate::dim::One { crate::dim::One }
            }
        });
    }
    out.into()
}

/// The per-rank impls of `dynamic_stitch`'s rules for ranks 0..=N (see
/// `stitch.rs`): the prefix rule `StitchPrefix` and the slice rule
/// `StitchSliceOf` (each dim `crate::algebra::SameDim`), and the output shape
/// `PrependDyn` with its constants `StaticSlice`.
#[proc_macro]
pub fn impl_stitch_rules(input: TokenStream) -> TokenStream {
    stitch::stitch_rules(parse_max_rank(input.into())).into()
}

/// The per-rank impls of `dynamic_partition`'s prefix rule
/// `PartitionPrefix` for ranks 0..=N (see `stitch.rs`).
#[proc_macro]
pub fn impl_partition_rules(input: TokenStream) -> TokenStream {
    stitch::partition_rules(parse_max_rank(input.into())).into()
}

/// An inline tensor from a nested array literal: `tensor![[1.0, 2.0], [3.0, 4.0]]`
/// is `Tensor::<_, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]])`.
/// See `shapecheck::tensor!`.
#[proc_macro]
pub fn tensor(input: TokenStream) -> TokenStream {
    with_crate_path(input, tensor::tensor_impl)
}
