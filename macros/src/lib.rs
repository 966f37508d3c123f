//! Procedural macros for `shapecheck`.
//!
//! - [`shape!`]: the user-facing shape type macro;
//! - [`tensor!`]: the tensor literal macro (shape read from the nesting);
//! - `impl_shape_tuples!`, `impl_elementwise_rules!`, `impl_select_rules!`,
//!   `impl_multiplex_rules!`, `impl_stitch_rules!`, `impl_partition_rules!`,
//!   `impl_matmul_rules!`, `impl_reduce_rules!`, `impl_softmax_rules!`:
//!   used once each inside `shapecheck` to generate the per-rank impls of its
//!   shape traits (rank padding, numpy right-alignment, Paddle's axis
//!   placement, a shape's prefix), so that none is written by hand.
//!   They expand to paths under `crate::`, so they only work inside `shapecheck`.
//!   They compute no shape arithmetic of their own: each placement, axis
//!   and accepted rank in a generated impl is the verdict of a function of
//!   `shapecheck_rules`, the crate whose functions `shapecheck`'s run-time
//!   rules call, so a generated table is that function's table.
//!
//! `shape!` and `tensor!` are called through `macro_rules!` wrappers in
//! `shapecheck`, which pass `$crate ;` first: the paths they generate start
//! with that token, so they resolve even when a user renames the library in
//! their Cargo.toml (`sc = { package = "shapecheck", ... }`; the workspace's
//! `rename-check` crate builds that way). Called without it, they use
//! `::shapecheck`. Each generator is a function from a rank (or tokens) to
//! tokens, unit-tested in `tests.rs`.

mod common;
mod elementwise;
mod matmul;
#[cfg(feature = "tflite")]
mod model;
mod multiplex;
mod reduce;
mod select;
mod shape;
mod tensor;
#[cfg(test)]
mod tests;

use common::parse_max_rank;
use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;

mod stitch;

/// A shape type from a list of dims: `shape![2, 1, Dyn, N]` is
/// `(Dim<2>, One, Dyn, Dim<{ N }>)`. See `shapecheck::shape!`.
#[proc_macro]
pub fn shape(input: TokenStream) -> TokenStream {
    with_crate_path(input, shape::shape_impl)
}

/// A `.tflite` model as typed Rust (feature `tflite`). See `shapecheck::model!`.
#[cfg(feature = "tflite")]
#[proc_macro]
pub fn model(input: TokenStream) -> TokenStream {
    // the file that calls the macro: where its path's literal was written
    let caller = input.clone().into_iter().find_map(|t| match t {
        proc_macro::TokenTree::Literal(l) => l.span().local_file(),
        _ => None,
    });
    let (krate, input) = shape::split_crate_path(input.into());
    model::model_impl(&krate, input, caller.as_deref())
        .unwrap_or_else(|e| e.to_compile_error())
        .into()
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

/// `Shape` and `FixedShape` for tuples of rank 1 to N.
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
/// for every index rank 0..=N except 2 (see `multiplex.rs`).
#[proc_macro]
pub fn impl_multiplex_rules(input: TokenStream) -> TokenStream {
    multiplex::rules(parse_max_rank(input.into())).into()
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

/// `MatmulShapes` for every pair of ranks 1..=N, generic over the
/// transposes (see `matmul.rs`).
#[proc_macro]
pub fn impl_matmul_rules(input: TokenStream) -> TokenStream {
    matmul::matmul_rules(parse_max_rank(input.into())).into()
}

/// The reductions' per-rank impls for ranks 0..=N (see `reduce.rs`): the
/// axis table (each axis placed by the rule's `axis_slot`), the masks of
/// reduced dims and the shapes they leave.
#[proc_macro]
pub fn impl_reduce_rules(input: TokenStream) -> TokenStream {
    reduce::reduce_rules(parse_max_rank(input.into())).into()
}

/// softmax's axis table for ranks 0..=N (see `reduce.rs`).
#[proc_macro]
pub fn impl_softmax_rules(input: TokenStream) -> TokenStream {
    reduce::softmax_rules(parse_max_rank(input.into())).into()
}

/// An inline tensor from a nested array literal: `tensor![[1.0, 2.0], [3.0, 4.0]]`
/// is `Tensor::<_, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]])`.
/// See `shapecheck::tensor!`.
#[proc_macro]
pub fn tensor(input: TokenStream) -> TokenStream {
    with_crate_path(input, tensor::tensor_impl)
}
