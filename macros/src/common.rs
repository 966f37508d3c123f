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

/// A chain of rule links (`Self` of each link: the previous link's `Out`,
/// `()` for the first): the where-clauses of an impl that reports only the
/// first failing link, since the later ones then have an unknown `Self`.
pub(crate) struct Chain {
    prev: TokenStream2,
    /// The where-clauses, one per link.
    pub(crate) preds: Vec<TokenStream2>,
}

impl Chain {
    pub(crate) fn new() -> Self {
        Chain {
            prev: quote!(()),
            preds: Vec::new(),
        }
    }

    /// Adds the link `bound` (a trait with an `Out` type); returns the
    /// qualified link (`Prev as Link`) and its `Out`.
    pub(crate) fn link(&mut self, bound: TokenStream2) -> (TokenStream2, TokenStream2) {
        let prev = &self.prev;
        self.preds.push(quote!(#prev: #bound));
        let gate = quote!(#prev as #bound);
        let out = quote!(<#gate>::Out);
        self.prev = out.clone();
        (gate, out)
    }

    /// The last link's `Out` (`()` for an empty chain): a type that only
    /// resolves once every link holds.
    pub(crate) fn done(&self) -> TokenStream2 {
        self.prev.clone()
    }
}

/// One pair of ranks of a two-shape rule: the ranks, the dim type
/// parameters of each side (`A0, A1, ..`) and each side's tuple type.
pub(crate) struct RankPair {
    pub ra: usize,
    pub rb: usize,
    pub a: Vec<Ident>,
    pub b: Vec<Ident>,
    pub at: TokenStream2,
    pub bt: TokenStream2,
}

/// Every pair of ranks in `0..=max` (the first side's rank outer), the dim
/// parameters named with the prefixes `pa` and `pb`.
pub(crate) fn rank_pairs(max: usize, pa: &str, pb: &str) -> Vec<RankPair> {
    let mut pairs = Vec::new();
    for ra in 0..=max {
        for rb in 0..=max {
            let (a, b) = (idents(pa, ra), idents(pb, rb));
            let (at, bt) = (tuple(&a), tuple(&b));
            pairs.push(RankPair {
                ra,
                rb,
                a,
                b,
                at,
                bt,
            });
        }
    }
    pairs
}
