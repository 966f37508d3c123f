//! Small helpers every generator uses.

use proc_macro2::{Ident, Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use syn::LitInt;

pub(crate) fn parse_max_rank(input: TokenStream2) -> usize {
    syn::parse2::<LitInt>(input)
        .ok()
        .and_then(|l| l.base10_parse().ok())
        .unwrap_or(8)
}

pub(crate) fn idents(prefix: &str, n: usize) -> Vec<Ident> {
    (0..n).map(|i| format_ident!("{}{}", prefix, i)).collect()
}

pub(crate) fn tuple(items: &[Ident]) -> TokenStream2 {
    quote!((#(#items,)*))
}

/// An `isize` const argument, braced so that negative values parse.
pub(crate) fn axis_arg(axis: isize) -> TokenStream2 {
    let lit = syn::LitInt::new(&format!("{}isize", axis.unsigned_abs()), Span::call_site());
    if axis < 0 {
        quote!({ -#lit })
    } else {
        quote!({ #lit })
    }
}
