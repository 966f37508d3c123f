//! `shared_bounds!`: one where-clause for several functions.
//!
//! Two public forms of one op (`dynamic_partition` and
//! `dynamic_partition_into`, `select_into` and `try_select_into`, …) take
//! the same tensors and need the same bounds. Rust implies no bound from a
//! struct, and a trait that bundled them would imply only the bounds on its
//! own `Self` (and would replace the rule's compile error by "`Bundle` is
//! not implemented"), so the bounds have to be stated on each function.
//! This macro states them once:
//!
//! ```text
//! shared_bounds! {
//!     where T: Copy, S: Shape;
//!     /// docs
//!     pub fn a<T, S>(x: &Tensor<T, S>) -> usize { .. }
//!     /// docs
//!     pub fn b<T, S, U>(x: &Tensor<T, S>, y: U) -> usize where U: Into<usize> { .. }
//! }
//! ```
//!
//! Each function keeps its own where-clause and gets the shared predicates
//! appended, with their spans (a compile error about a bound still points
//! at the line that states it). Methods work too (the invocation is then an
//! item of an `impl` block).

use proc_macro2::TokenStream as TokenStream2;
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{ItemFn, Token, WherePredicate};

/// The parsed input: the shared predicates, then the functions.
struct SharedBounds {
    predicates: Vec<WherePredicate>,
    functions: Vec<ItemFn>,
}

impl Parse for SharedBounds {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        input.parse::<Token![where]>()?;
        let mut predicates = Vec::new();
        while !input.peek(Token![;]) {
            predicates.push(input.parse()?);
            if !input.peek(Token![;]) {
                input.parse::<Token![,]>()?;
            }
        }
        input.parse::<Token![;]>()?;
        if predicates.is_empty() {
            return Err(input.error("shared_bounds!: `where` needs at least one predicate"));
        }
        let mut functions = Vec::new();
        while !input.is_empty() {
            functions.push(input.parse()?);
        }
        if functions.is_empty() {
            return Err(input.error("shared_bounds!: no function follows the shared bounds"));
        }
        Ok(SharedBounds {
            predicates,
            functions,
        })
    }
}

/// The functions of `input`, each with the shared predicates appended to
/// its where-clause.
pub(crate) fn shared_bounds(input: TokenStream2) -> syn::Result<TokenStream2> {
    let SharedBounds {
        predicates,
        mut functions,
    } = syn::parse2(input)?;
    for f in &mut functions {
        let clause = f.sig.generics.make_where_clause();
        clause.predicates.extend(predicates.iter().cloned());
    }
    Ok(quote!(#(#functions)*))
}
